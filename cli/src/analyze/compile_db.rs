//! `-p BUILD_DIR` / `--compile-commands FILE`: each file's own build flags, read from a
//! `compile_commands.json` as clang tools read it (CMake's `CMAKE_EXPORT_COMPILE_COMMANDS`, Bear
//! for Makefiles): entries of `directory`, `file` and `arguments` or a shell-quoted `command`.
//!
//! Of a compile command only what changes how the device code reads is kept: include
//! directories, macros defined and undefined, forced includes, the language standard and the GPU
//! architecture. nvcc's own spellings (`--include-path`, `--define-macro`, `-arch=sm_80`,
//! `-gencode arch=...,code=sm_80`, `--std c++14`) are translated to clang's; flags that do not
//! change what is read (optimisation, debug info, output, `-Xcompiler`'s host-compiler flags,
//! `--expt-relaxed-constexpr`, which clang's CUDA needs no flag for) are dropped; anything else is
//! ignored with a note naming it, so the user can tell what a report did not take into account.
//! Relative paths are relative to the entry's `directory`, itself relative to the database's.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// What one file's compile command says about reading it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flags {
    /// clang arguments, in the command's order (`-I`, `-isystem`, `-D`, `-U`, `-include`).
    pub args: Vec<String>,
    /// `-std=...`, the last one given.
    pub std: Option<String>,
    /// `sm_NN`, from the first architecture named.
    pub arch: Option<String>,
    /// Flags ignored, as written.
    pub ignored: Vec<String>,
}

pub struct CompileDb {
    /// Where it was read from, for messages.
    pub path: PathBuf,
    /// Absolute, normalised source paths and their flags, in the database's order; a file
    /// compiled twice keeps its first command.
    pub entries: Vec<(PathBuf, Flags)>,
}

#[derive(Deserialize)]
struct Entry {
    directory: PathBuf,
    file: PathBuf,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

impl CompileDb {
    /// `-p DIR` names the build directory holding `compile_commands.json`; `--compile-commands`
    /// names the file.
    pub fn read(path: &Path) -> Result<CompileDb, String> {
        let file = if path.is_dir() {
            path.join("compile_commands.json")
        } else {
            path.to_path_buf()
        };
        let shown = file.display();
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        let raw: Vec<Entry> = serde_json::from_str(&text)
            .map_err(|e| format!("`{shown}` is not a compilation database: {e}"))?;
        let base = absolute(file.parent().unwrap_or(Path::new(".")));
        let mut entries: Vec<(PathBuf, Flags)> = Vec::new();
        for (i, e) in raw.into_iter().enumerate() {
            let dir = normalise(&base.join(&e.directory));
            let source = normalise(&dir.join(&e.file));
            let words = match (e.arguments, e.command) {
                (Some(a), _) => a,
                (None, Some(c)) => shlex::split(&c).ok_or_else(|| {
                    format!(
                        "`{shown}`, entry {}: the command is not valid shell words",
                        i + 1
                    )
                })?,
                (None, None) => {
                    return Err(format!(
                        "`{shown}`, entry {}: neither `arguments` nor `command`",
                        i + 1
                    ))
                }
            };
            if !entries.iter().any(|(f, _)| *f == source) {
                let flags = translate(words.get(1..).unwrap_or_default(), &dir, &source);
                entries.push((source, flags));
            }
        }
        Ok(CompileDb {
            path: file,
            entries,
        })
    }

    /// The flags of `file`, if the database compiles it.
    pub fn flags(&self, file: &Path) -> Option<&Flags> {
        let file = normalise(&absolute(file));
        self.entries
            .iter()
            .find(|(f, _)| *f == file)
            .map(|(_, x)| x)
    }

    /// The CUDA files the database compiles (`.cu`, or any file compiled with `-x cu`).
    pub fn cuda_files(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter(|(f, _)| f.extension().is_some_and(|e| e == "cu"))
            .map(|(f, _)| f.clone())
            .collect()
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `a/./b/../c` as `a/c`, without touching the file system (a build may name files that a
/// symlink would resolve elsewhere).
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Flags that take the next word as their value, and whose value changes nothing read.
const DROPPED_WITH_VALUE: &[&str] = &[
    "-o",
    "--output-file",
    "-Xcompiler",
    "--compiler-options",
    "-Xptxas",
    "--ptxas-options",
    "-Xlinker",
    "--linker-options",
    "-Xnvlink",
    "-ccbin",
    "--compiler-bindir",
    "-MF",
    "-MT",
    "-MQ",
    "-l",
    "-L",
    "-x",
    "--maxrregcount",
    "-maxrregcount",
    "--threads",
    "-t",
];

/// Prefixes of flags that change nothing read: optimisation, debug info, warnings, output and
/// dependency files, linking, code generation, and nvcc's relaxed rules that clang's CUDA
/// applies anyway.
const DROPPED_PREFIXES: &[&str] = &[
    "-O",
    "-g",
    "-G",
    "-W",
    "-w",
    "-M",
    "-c",
    "-f",
    "-m",
    "-l",
    "-L",
    "-o",
    "-Xcompiler=",
    "--compiler-options=",
    "-Xptxas=",
    "-Xlinker=",
    "-ccbin=",
    "--compile",
    "--device-c",
    "-dc",
    "-rdc",
    "--relocatable-device-code",
    "-lineinfo",
    "--generate-line-info",
    "--use_fast_math",
    "-use_fast_math",
    "--expt-relaxed-constexpr",
    "--expt-extended-lambda",
    "--extended-lambda",
    "--keep",
    "-pipe",
    "-pthread",
    "--ptxas-options=",
    "--maxrregcount=",
    "-maxrregcount=",
    "--threads=",
    "--diag-suppress",
    "-diag-suppress",
    "--display-error-number",
    "-Xcudafe",
    "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-compiler",
    "-x",
];

/// nvcc and clang flags that take a value, as clang wants them: (spellings, clang flag).
const KEPT: &[(&[&str], &str)] = &[
    (&["-I", "--include-path"], "-I"),
    (&["-isystem", "--system-include"], "-isystem"),
    (&["-D", "--define-macro"], "-D"),
    (&["-U", "--undefine-macro"], "-U"),
    (&["-include", "--pre-include"], "-include"),
];

/// The flags of one command (without the compiler itself), in clang's terms.
fn translate(words: &[String], dir: &Path, source: &Path) -> Flags {
    let mut flags = Flags::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        i += 1;
        let next = words.get(i).map(String::as_str);
        if let Some((flag, value, used_next)) = kept(w, next) {
            i += used_next as usize;
            let path = || dir.join(value).display().to_string();
            match flag {
                "-I" => flags.args.push(format!("-I{}", path())),
                "-isystem" | "-include" => flags.args.extend([flag.to_string(), path()]),
                _ => flags.args.push(format!("{flag}{value}")),
            }
            continue;
        }
        if let Some((std, used_next)) = valued(w, next, &["-std", "--std"]) {
            i += used_next as usize;
            flags.std = Some(std.to_string());
            continue;
        }
        if let Some((arch, used_next)) = valued(w, next, &["-arch", "--gpu-architecture"]) {
            i += used_next as usize;
            flags.arch = flags.arch.or_else(|| sm(arch));
            continue;
        }
        if let Some((code, used_next)) = valued(w, next, &["-gencode", "--generate-code"]) {
            i += used_next as usize;
            flags.arch = flags.arch.or_else(|| code.split(',').find_map(sm_of_part));
            continue;
        }
        if DROPPED_WITH_VALUE.contains(&w) {
            i += 1;
            continue;
        }
        let is_source = !w.starts_with('-') && normalise(&dir.join(w)) == *source;
        if is_source || DROPPED_PREFIXES.iter().any(|p| w.starts_with(p)) {
            continue;
        }
        flags.ignored.push(w.to_string());
    }
    flags
}

/// A kept flag's clang spelling, its value, and whether the value was the next word: `-DX`,
/// `-D X`, `--define-macro=X`, `--define-macro X`.
fn kept<'a>(w: &'a str, next: Option<&'a str>) -> Option<(&'static str, &'a str, bool)> {
    KEPT.iter().find_map(|(spellings, flag)| {
        let (value, used_next) = valued(w, next, spellings)?;
        Some((*flag, value, used_next))
    })
}

/// The value of a flag spelled one of `spellings`: joined (`-DX`, `-std=c++14`) or the next
/// word.
fn valued<'a>(w: &'a str, next: Option<&'a str>, spellings: &[&str]) -> Option<(&'a str, bool)> {
    for s in spellings {
        let Some(rest) = w.strip_prefix(s) else {
            continue;
        };
        let joined = rest.strip_prefix('=').unwrap_or(rest);
        // `--std` must not take `--stdlib`: a long flag's value follows `=` or a space.
        if rest.is_empty() {
            return next.map(|n| (n, true));
        }
        if s.starts_with("--") && !rest.starts_with('=') {
            continue;
        }
        if !s.starts_with("--") && s.len() > 2 && !rest.starts_with('=') {
            continue;
        }
        return Some((joined, false));
    }
    None
}

/// `sm_80` from `sm_80`, `compute_80` or `sm_90a`; `native`, `all` and the like name none.
fn sm(arch: &str) -> Option<String> {
    let digits = arch
        .strip_prefix("sm_")
        .or_else(|| arch.strip_prefix("compute_"))?;
    let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
    (!n.is_empty()).then(|| format!("sm_{n}"))
}

/// `code=sm_80` or `arch=compute_80` of a `-gencode` value; `code` is preferred by order.
fn sm_of_part(part: &str) -> Option<String> {
    let (_, v) = part.split_once('=')?;
    sm(v.trim_matches(|c| c == '[' || c == ']' || c == '"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shlex::split(s).unwrap()
    }

    #[test]
    fn nvcc_spellings_become_clangs() {
        let dir = Path::new("/b");
        let f = translate(
            &words(
                "-Iinc --include-path ../common -DN=4 --define-macro=M -U X -isystem sys \
                 --std c++14 -arch=sm_80 -O3 -lineinfo -Xcompiler -fopenmp -c -o k.o \
                 /b/k.cu --weird",
            ),
            dir,
            Path::new("/b/k.cu"),
        );
        assert_eq!(
            f.args,
            [
                "-I/b/inc",
                "-I/b/../common",
                "-DN=4",
                "-DM",
                "-UX",
                "-isystem",
                "/b/sys"
            ]
        );
        assert_eq!(f.std.as_deref(), Some("c++14"));
        assert_eq!(f.arch.as_deref(), Some("sm_80"));
        assert_eq!(f.ignored, ["--weird"]);
    }

    #[test]
    fn the_first_gencode_names_the_architecture() {
        let f = translate(
            &words("-gencode arch=compute_75,code=sm_75 -gencode=arch=compute_86,code=sm_86"),
            Path::new("/"),
            Path::new("/k.cu"),
        );
        assert_eq!(f.arch.as_deref(), Some("sm_75"));
        assert!(f.ignored.is_empty(), "{:?}", f.ignored);
    }

    #[test]
    fn std_is_not_stdlib() {
        let f = translate(
            &words("--stdlib=libc++ -std=c++17"),
            Path::new("/"),
            Path::new("/k.cu"),
        );
        assert_eq!(f.std.as_deref(), Some("c++17"));
        assert_eq!(f.ignored, ["--stdlib=libc++"]);
    }
}
