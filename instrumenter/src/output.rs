//! Writing an instrumented file with everything it needs next to it: the runtime header, the
//! stand-in CUDA headers (so clang compiles it without a toolkit) and the plan as JSON.

use crate::{Instrumented, RUNTIME_HEADER, RUNTIME_HEADER_NAME};
use std::path::{Path, PathBuf};

/// What `write_output` wrote.
pub struct OutputFiles {
    pub source: PathBuf,
    pub plan: PathBuf,
    pub runtime: PathBuf,
}

/// `OUT.plan.json` for `OUT.cu`.
pub fn plan_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "out".into(), |s| s.to_os_string());
    let mut name = stem;
    name.push(".plan.json");
    out.with_file_name(name)
}

pub fn write_output(out: &Path, inst: &Instrumented) -> std::io::Result<OutputFiles> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    copy_tree(&gmrace_analyzer::frontend::include_dir()?, &dir)?;
    let runtime = dir.join(RUNTIME_HEADER_NAME);
    std::fs::write(&runtime, RUNTIME_HEADER)?;
    std::fs::write(out, &inst.source)?;
    let plan = plan_path(out);
    let json = serde_json::to_string_pretty(&inst.plan).map_err(std::io::Error::other)?;
    std::fs::write(&plan, json + "\n")?;
    Ok(OutputFiles {
        source: out.to_path_buf(),
        plan,
        runtime,
    })
}

/// The name instrumented files include gmrace's prelude by. It is not `gmrace_prelude.h`: the
/// front end force-includes that name from its own header directory, where the headers count
/// as system headers (how it recognises CUDA's functions), and a copy of the same name in a
/// directory on the include path would be found first.
pub const PRELUDE_COPY: &str = "gmrace_standalone.h";

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let dest = if entry.file_name() == "gmrace_prelude.h" {
            to.join(PRELUDE_COPY)
        } else {
            to.join(entry.file_name())
        };
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&dest)?;
            copy_tree(&entry.path(), &dest)?;
        } else {
            std::fs::copy(entry.path(), dest)?;
        }
    }
    Ok(())
}
