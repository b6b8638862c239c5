//! Going on in a fresh process after a kernel fault on the GPU. A fault, or a kernel still
//! running at the time limit, leaves the CUDA context unusable for the rest of the process (a
//! running kernel cannot be stopped, and the driver's errors are sticky), so the bundles left
//! run in a new image of `gmrace-gpu` (exec, same process): it takes the rows and the status
//! so far from a file, which it deletes, and prints the table of all of them at the end.

use crate::compare::Row;
use crate::{Args, FormatArg, Status};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Serialize, Deserialize)]
struct State {
    worst: u8,
    rows: Vec<Row>,
}

/// Replaces this process with `gmrace-gpu` on `rest`, handing on `worst` and `rows`; returns
/// only why it could not.
pub fn exec(args: &Args, rest: &[PathBuf], worst: Status, rows: Vec<Row>) -> String {
    let file = std::env::temp_dir().join(format!("gmrace-gpu-{}.json", std::process::id()));
    let state = State {
        worst: worst as u8,
        rows,
    };
    let text = match serde_json::to_string(&state) {
        Ok(t) => t,
        Err(e) => return format!("cannot keep the rows so far: {e}"),
    };
    if let Err(e) = std::fs::write(&file, text) {
        return format!("cannot write `{}`: {e}", file.display());
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return format!("cannot find gmrace-gpu itself: {e}"),
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let e = Command::new(exe).args(argv(args, &file)).args(rest).exec();
    format!("cannot start gmrace-gpu again for the bundles left: {e}")
}

/// The options of `args` again, with `--resume FILE`.
fn argv(args: &Args, file: &Path) -> Vec<OsString> {
    let mut v: Vec<OsString> = Vec::new();
    let format = match args.format {
        FormatArg::Text => "text",
        FormatArg::Json => "json",
        FormatArg::Sarif => "sarif",
    };
    v.extend(["--format".into(), format.into()]);
    v.extend(["--gpu-timeout".into(), args.gpu_timeout.to_string().into()]);
    for (flag, on) in [("--table", args.table), ("--quiet", args.quiet)] {
        if on {
            v.push(flag.into());
        }
    }
    for (flag, path) in [
        ("--dump-buffers", &args.dump_buffers),
        ("--results", &args.results),
    ] {
        if let Some(p) = path {
            v.extend([flag.into(), p.into()]);
        }
    }
    v.extend(["--resume".into(), file.into()]);
    v
}

/// The status and rows an earlier image of this process handed on (the file is deleted).
pub fn take(file: &Path) -> Result<(Status, Vec<Row>), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
    let _ = std::fs::remove_file(file);
    let state: State = serde_json::from_str(&text)
        .map_err(|e| format!("`{}` is not a gmrace-gpu state: {e}", file.display()))?;
    Ok((Status::from_u8(state.worst), state.rows))
}
