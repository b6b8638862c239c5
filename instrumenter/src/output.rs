//! Writing an instrumented file with everything it needs next to it: the runtime header, the
//! stand-in CUDA headers (so clang compiles it without a toolkit) and the plan as JSON. The
//! user's own headers stay where they are: the file's `#include`s of them name them by absolute
//! path, since the file itself may now be elsewhere.
//!
//! `write_output` writes `OUT.cu`, `gmrace_runtime.cuh`, the stand-in headers and
//! `OUT.plan.json`. The stand-in prelude is written under the name `gmrace_standalone.h`: a copy
//! named `gmrace_prelude.h` on the include path would shadow the front end's force-included one,
//! which must stay a system header. `#include`s that resolve next to the original file or in a
//! `-I` directory are rewritten to absolute paths (`Origin`), so the file compiles wherever it is
//! written; includes the stand-ins provide stay as written.
//!
//! The headers go next to the file, not into a directory of their own, because DESIGN.md's
//! clang command puts only that directory on the include path. So they may meet the user's
//! files (a `cuda.h` of their own): nothing is written until every destination is known to be
//! free, or gmrace's. A text file is gmrace's when it starts with `GENERATED`, which every
//! text file written here starts with; the plan when it reads back as a plan. Re-running into
//! the same directory overwrites only those (`OutputError::NotOurs`, checked for every
//! destination before anything is written); the input file is never a destination
//! (`OutputError::Input`).

use crate::{Instrumented, Plan, RUNTIME_HEADER, RUNTIME_HEADER_NAME};
use std::path::{Path, PathBuf};

/// The first line of every text file `write_output` writes: how it recognises its own files.
pub const GENERATED: &str =
    "/* Written by gmrace instrument -o, which overwrites it on the next run. */\n";

/// Why `write_output` wrote nothing, or not everything.
#[derive(Debug)]
pub enum OutputError {
    /// A destination is the file being instrumented.
    Input(PathBuf),
    /// A destination exists and gmrace did not write it.
    NotOurs(PathBuf),
    Io(std::io::Error),
}

impl From<std::io::Error> for OutputError {
    fn from(e: std::io::Error) -> Self {
        OutputError::Io(e)
    }
}

/// A file to write, and how a file already there is recognised as gmrace's.
struct Destination {
    path: PathBuf,
    contents: Vec<u8>,
    is_plan: bool,
}

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

/// Where the file came from: what its `#include`s are resolved against.
pub struct Origin<'a> {
    /// The original file.
    pub file: &'a Path,
    /// `-I` directories, in order.
    pub include_dirs: &'a [PathBuf],
}

pub fn write_output(
    out: &Path,
    inst: &Instrumented,
    origin: &Origin,
) -> Result<OutputFiles, OutputError> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut dests = Vec::new();
    headers(&gmrace_analyzer::frontend::include_dir()?, &dir, &mut dests)?;
    let runtime = dir.join(RUNTIME_HEADER_NAME);
    dests.push(text(runtime.clone(), RUNTIME_HEADER));
    dests.push(text(
        out.to_path_buf(),
        &absolute_includes(&inst.source, origin),
    ));
    let plan = plan_path(out);
    let json = serde_json::to_string_pretty(&inst.plan).map_err(std::io::Error::other)?;
    dests.push(Destination {
        path: plan.clone(),
        contents: (json + "\n").into_bytes(),
        is_plan: true,
    });
    if let Some(d) = dests.iter().find(|d| same_file(&d.path, origin.file)) {
        return Err(OutputError::Input(d.path.clone()));
    }
    for d in &dests {
        check_ours(d)?;
    }
    for d in &dests {
        if let Some(parent) = d.path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&d.path, &d.contents)?;
    }
    Ok(OutputFiles {
        source: out.to_path_buf(),
        plan,
        runtime,
    })
}

fn text(path: PathBuf, body: &str) -> Destination {
    Destination {
        path,
        contents: format!("{GENERATED}{body}").into_bytes(),
        is_plan: false,
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// A destination may be written when nothing is there or gmrace wrote what is.
fn check_ours(d: &Destination) -> Result<(), OutputError> {
    if std::fs::symlink_metadata(&d.path).is_err() {
        return Ok(());
    }
    let ours = match std::fs::read(&d.path) {
        Ok(bytes) if d.is_plan => serde_json::from_slice::<Plan>(&bytes).is_ok(),
        Ok(bytes) => bytes.starts_with(GENERATED.as_bytes()),
        Err(_) => false,
    };
    if ours {
        Ok(())
    } else {
        Err(OutputError::NotOurs(d.path.clone()))
    }
}

/// The name instrumented files include gmrace's prelude by. It is not `gmrace_prelude.h`: the
/// front end force-includes that name from its own header directory, where the headers count
/// as system headers (how it recognises CUDA's functions), and a copy of the same name in a
/// directory on the include path would be found first.
pub const PRELUDE_COPY: &str = "gmrace_standalone.h";

/// The stand-in headers of `from` (the front end's header directory) as destinations in `to`,
/// the prelude renamed. Only headers: the directory also holds the front end's precompiled
/// prelude, a cache no compiler of the output needs, and other processes' files being written.
fn headers(from: &Path, to: &Path, out: &mut Vec<Destination>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        let dest = if entry.file_name() == "gmrace_prelude.h" {
            to.join(PRELUDE_COPY)
        } else {
            to.join(entry.file_name())
        };
        if entry.file_type()?.is_dir() {
            headers(&path, &dest, out)?;
        } else if path.extension().is_some_and(|e| e == "h" || e == "hpp") {
            out.push(text(dest, &std::fs::read_to_string(&path)?));
        }
    }
    Ok(())
}

/// `text` with each `#include` of a header found in the original file's directory (quoted
/// form) or in a `-I` directory naming that header by its absolute path. Other includes (CUDA's
/// and the C++ library's, which the stand-ins or the compiler provide) are left as written.
fn absolute_includes(text: &str, origin: &Origin) -> String {
    let here = origin.file.parent().unwrap_or(Path::new("."));
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let found = include_target(line).and_then(|(name, quoted)| {
            let local = quoted.then_some(here);
            let dirs = local
                .into_iter()
                .chain(origin.include_dirs.iter().map(PathBuf::as_path));
            let path = dirs
                .map(|d| d.join(name))
                .find(|p| p.is_file())?
                .canonicalize()
                .ok()?;
            let path = path.to_str().filter(|p| !p.contains('"'))?.to_string();
            Some(path)
        });
        match found {
            Some(path) => {
                let end = if line.ends_with('\n') { "\n" } else { "" };
                out.push_str(&format!("#include \"{path}\"{end}"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The header a `#include "X"` or `#include <X>` line names, and whether it is quoted.
fn include_target(line: &str) -> Option<(&str, bool)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let (close, quoted) = match rest.chars().next()? {
        '"' => ('"', true),
        '<' => ('>', false),
        _ => return None,
    };
    let body = &rest[1..];
    let end = body.find(close)?;
    // Only a comment may follow the name.
    let after = body[end + 1..].trim();
    (after.is_empty() || after.starts_with("//") || after.starts_with("/*"))
        .then_some((&body[..end], quoted))
}

#[cfg(test)]
mod tests {
    use super::{absolute_includes, include_target, Origin};
    use std::path::PathBuf;

    #[test]
    fn include_lines_are_read_with_either_delimiter() {
        assert_eq!(include_target("#include \"a.h\"\n"), Some(("a.h", true)));
        assert_eq!(
            include_target("  #  include <b/c.h> // x"),
            Some(("b/c.h", false))
        );
        assert_eq!(include_target("#include MACRO_NAME"), None);
        assert_eq!(include_target("int x; // #include \"a.h\""), None);
    }

    #[test]
    fn headers_next_to_the_original_or_in_include_dirs_get_absolute_paths() {
        let root = std::env::temp_dir().join(format!("gmrace-includes-{}", std::process::id()));
        let (src, inc) = (root.join("src"), root.join("inc"));
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::create_dir_all(&inc).unwrap();
        std::fs::write(root.join("common.h"), "").unwrap();
        std::fs::write(src.join("sub/local.h"), "").unwrap();
        std::fs::write(inc.join("lib.h"), "").unwrap();
        let text = "#include \"../common.h\"\n#include \"sub/local.h\"\n#include <lib.h>\n\
                    #include <cuda_runtime.h>\n#include \"missing.h\"\nint x;";
        let dirs = [inc.clone()];
        let origin = Origin {
            file: &src.join("k.cu"),
            include_dirs: &dirs,
        };
        let abs = |p: PathBuf| p.canonicalize().unwrap().display().to_string();
        let want = format!(
            "#include \"{}\"\n#include \"{}\"\n#include \"{}\"\n\
             #include <cuda_runtime.h>\n#include \"missing.h\"\nint x;",
            abs(root.join("common.h")),
            abs(src.join("sub/local.h")),
            abs(inc.join("lib.h"))
        );
        assert_eq!(absolute_includes(text, &origin), want);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
