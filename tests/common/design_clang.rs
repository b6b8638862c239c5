//! DESIGN.md's command for compiling CUDA device code to PTX without a toolkit, for the tests
//! that check generated or rewritten CUDA compiles: the one spelling of it in the test suite.
//!
//! A compile spends nearly all of its 0.5 s of CPU reading gmrace's stand-in headers, and the
//! suite compiles hundreds of files that begin by including the same prelude
//! (`gmrace_standalone.h` in `gmrace instrument -o`'s output, `gmrace_prelude.h` in the CUDA
//! device's prepared source). So [`ptx`] hands clang that prelude precompiled
//! (`-include-pch`) where this is the same compile: the file's lines before its `#include` of
//! the prelude only comment, define macros that no header the prelude reads mentions, or open
//! the conditional around the include; and the precompiled prelude was built, with the same
//! flags, from byte-for-byte copies of every header in the compile's search path (the file's
//! directory and each `-I`), named by their contents, so that no test rewriting its output
//! directory can change what it stands for. Anything else, or a prelude clang cannot
//! precompile, gets the plain command. `instrument.rs` checks that both give the same PTX;
//! `analyzer/tests/headers.rs` and `cli.rs` compile with the plain command only.

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

/// `clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -Xclang
/// -target-feature -Xclang +ptx70`, to which `-I`, `-D`, `-S`, `-o` and the file are added.
fn command() -> Command {
    let mut cmd = Command::new("clang");
    cmd.args(["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70"])
        .args(["-nocudainc", "-nocudalib", "-Xclang", "-target-feature"])
        .args(["-Xclang", "+ptx70"]);
    cmd
}

/// Compiles `file` to PTX at `out` with DESIGN.md's command, `-I` each of `include_dirs` and
/// `defines` (`-DN=4`), reading its prelude precompiled where that changes nothing.
pub fn ptx(
    file: &Path,
    include_dirs: &[&Path],
    defines: &[String],
    out: &Path,
) -> std::io::Result<Output> {
    let pch = precompiled(file, include_dirs, defines);
    compile(file, include_dirs, defines, out, pch.as_deref())
}

/// The same with DESIGN.md's command as it stands, headers read as text.
pub fn plain_ptx(file: &Path, include_dirs: &[&Path], out: &Path) -> std::io::Result<Output> {
    compile(file, include_dirs, &[], out, None)
}

/// Panics unless `file`'s prelude is precompiled and its PTX, compiled with the precompiled
/// prelude and with the plain command (headers read as text) into `out_dir`, is byte for byte
/// the same: what makes [`ptx`] stand for DESIGN.md's command.
pub fn assert_precompiled_is_plain(file: &Path, include_dirs: &[&Path], out_dir: &Path) {
    let pch = precompiled(file, include_dirs, &[]);
    assert!(
        pch.is_some(),
        "the prelude is not precompiled for {}",
        file.display()
    );
    let outs = [out_dir.join("pch.ptx"), out_dir.join("plain.ptx")];
    let o = ptx(file, include_dirs, &[], &outs[0]).expect("run clang");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = plain_ptx(file, include_dirs, &outs[1]).expect("run clang");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |p: &Path| std::fs::read(p).expect("ptx");
    assert!(
        read(&outs[0]) == read(&outs[1]),
        "{}: the PTX differs",
        file.display()
    );
}

fn compile(
    file: &Path,
    include_dirs: &[&Path],
    defines: &[String],
    out: &Path,
    pch: Option<&Path>,
) -> std::io::Result<Output> {
    let mut cmd = command();
    for d in include_dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.args(defines);
    if let Some(pch) = pch {
        cmd.arg("-include-pch").arg(pch);
    }
    cmd.arg("-S").arg(file).arg("-o").arg(out).output()
}

/// The preludes a file may include first.
const PRELUDES: [&str; 2] = ["gmrace_standalone.h", "gmrace_prelude.h"];

/// A prelude precompiled from copies of the search path.
struct Precompiled {
    pch: PathBuf,
    /// The text of every file clang read to build it: a macro it mentions nowhere cannot change
    /// how it reads.
    read: String,
}

/// The precompiled prelude [`ptx`] gives clang for `file`, if any.
pub fn precompiled(file: &Path, include_dirs: &[&Path], defines: &[String]) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    let (prelude, macros) = leading_prelude(&text)?;
    let mut dirs: Vec<&Path> = vec![file.parent()?];
    dirs.extend(include_dirs);
    let mut key = std::collections::hash_map::DefaultHasher::new();
    (clang_version()?, prelude, defines).hash(&mut key);
    for d in &dirs {
        headers(d).hash(&mut key);
    }
    let key = key.finish();
    static BUILT: OnceLock<Mutex<HashMap<u64, Option<Precompiled>>>> = OnceLock::new();
    let mut built = BUILT.get_or_init(Default::default).lock().ok()?;
    let entry = built
        .entry(key)
        .or_insert_with(|| build(key, prelude, &dirs, defines))
        .as_ref()?;
    let harmless = macros.iter().all(|m| !entry.read.contains(m.as_str()));
    harmless.then(|| entry.pch.clone())
}

/// The prelude `text` includes before any code, and the macros it defines before that; `None`
/// where anything else comes first. The conditionals allowed are the ones gmrace writes around
/// the include (`#if !defined(__NVCC__) && ...`; `#ifdef __CUDACC_RTC__` with NVRTC's header,
/// which clang skips, then `#else`).
fn leading_prelude(text: &str) -> Option<(&'static str, Vec<String>)> {
    let mut in_comment = false;
    let mut macros = Vec::new();
    let mut after_rtc = false;
    for line in text.lines() {
        let code = uncommented(line, &mut in_comment);
        let code = code.trim();
        if code.is_empty() {
            continue;
        }
        let nvrtc = after_rtc && code == "#include \"gmrace_nvrtc.h\"";
        after_rtc = code == "#ifdef __CUDACC_RTC__";
        if let Some(name) = code
            .strip_prefix("#include \"")
            .and_then(|r| r.strip_suffix('"'))
            .and_then(|n| PRELUDES.iter().find(|p| **p == n))
        {
            return Some((name, macros));
        } else if let Some(def) = code.strip_prefix("#define ") {
            let name = def
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()?;
            macros.push(name.to_string());
        } else if !(nvrtc
            || after_rtc
            || code == "#else"
            || code == "#if !defined(__NVCC__) && !defined(__CUDACC_RTC__)")
        {
            return None;
        }
    }
    None
}

/// `line` without its comments; `in_comment` carries a `/* */` comment across lines.
fn uncommented(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find("*/") {
                Some(i) => {
                    rest = &rest[i + 2..];
                    *in_comment = false;
                }
                None => return out,
            }
        }
        let block = rest.find("/*");
        let line_comment = rest.find("//");
        match (block, line_comment) {
            (Some(b), l) if l.is_none_or(|l| b < l) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                rest = &rest[b + 2..];
                *in_comment = true;
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                return out;
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The headers under `dir`, each with its path below it and its bytes, in path order: what a
/// search of `dir` can find (source files, outputs and caches beside them are not headers).
fn headers(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let path = e.path();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                walk(root, &path, out);
            } else if kind.is_file() && is_header(&path) {
                if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
                    out.push((rel.to_path_buf(), bytes));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn is_header(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        None => true,
        Some(e) => ["h", "cuh", "hpp", "hxx", "inl", "inc"].contains(&e),
    }
}

fn clang_version() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let o = Command::new("clang").arg("--version").output().ok()?;
            o.status
                .success()
                .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
        })
        .as_deref()
}

/// Copies the headers of `dirs` (the file's directory first, then each `-I`) under a directory
/// of this process named by `key`, and precompiles `prelude` there as the file would include
/// it: from a file in the first directory's copy, with the copies of the others as `-I`. The
/// directories of processes that have ended are removed first (clang keeps the copies' paths
/// in the precompiled file, so it cannot be built under one name and renamed).
fn build(key: u64, prelude: &str, dirs: &[&Path], defines: &[String]) -> Option<Precompiled> {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("design-clang");
    remove_ended(&root);
    let dir = root
        .join(std::process::id().to_string())
        .join(format!("{key:016x}"));
    let _ = std::fs::remove_dir_all(&dir);
    let copies: Vec<PathBuf> = (0..dirs.len()).map(|i| dir.join(format!("d{i}"))).collect();
    for (d, copy) in dirs.iter().zip(&copies) {
        std::fs::create_dir_all(copy).ok()?;
        for (rel, bytes) in headers(d) {
            let to = copy.join(rel);
            std::fs::create_dir_all(to.parent()?).ok()?;
            std::fs::write(to, bytes).ok()?;
        }
    }
    let input = copies[0].join("design-clang-prelude.h");
    std::fs::write(&input, format!("#include \"{prelude}\"\n")).ok()?;
    let mut cmd = command();
    for c in &copies[1..] {
        cmd.arg("-I").arg(c);
    }
    let (pch, deps) = (dir.join("prelude.pch"), dir.join("deps"));
    let built = cmd
        .args(defines)
        .args([
            "-fsyntax-only",
            "-Xclang",
            "-emit-pch",
            "-Xclang",
            "-o",
            "-Xclang",
        ])
        .arg(&pch)
        .arg("-MD")
        .arg("-MF")
        .arg(&deps)
        .arg(&input)
        .output()
        .ok()?;
    if !built.status.success() || !pch.is_file() {
        return None;
    }
    let read = std::fs::read_to_string(&deps)
        .ok()?
        .split_whitespace()
        .filter(|w| *w != "\\" && !w.ends_with(':'))
        .map(std::fs::read_to_string)
        .collect::<Result<String, _>>()
        .ok()?;
    Some(Precompiled { pch, read })
}

/// Removes the directories `build` left for processes that are no longer running.
fn remove_ended(root: &Path) {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let name = e.file_name();
            let pid = name.to_string_lossy();
            if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(&*pid).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
}
