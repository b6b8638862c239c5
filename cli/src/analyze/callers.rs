//! `scan_kernels.cu` defines `scan(float *d, int length)`, which launches a kernel on
//! `(length + 1023) / 1024` blocks, and `main.cu` beside it calls `scan(d, 1024)`. Read alone,
//! `scan_kernels.cu` has no call of `scan`: its grid and `length` stay open, and the kernel races
//! across blocks that no run of the program has. So the files of the same directory that name
//! such a function (`HostCalls::wanted`) are read for their calls of it, and the file is read
//! again with what every call passes (`FrontendOptions::callers`): the report says `launch at
//! line 67, with what main.cu:49 passes`.
//!
//! Those calls are all the calls there are only in a program's directory: a file of it defines
//! `main` (a library's functions are called from elsewhere too), and every file of it that names
//! the function (`.cu` or C++) was read without errors, at most `MAX_FILES` of them, in a
//! directory of at most `MAX_DIRECTORY` sources; otherwise nothing is taken. A function whose
//! address a file takes gets no value.

use super::includers::{directory_of, files_in, MAX_DIRECTORY};
use super::launchers::names;
use gmrace_analyzer::frontend::{CallerValues, Callers};
use gmrace_analyzer::ir::{file_line, HostCall, HostCalls, HostFunction, Module};
use std::path::{Path, PathBuf};

/// More files naming the functions than this, and none is read.
const MAX_FILES: usize = 8;

/// The files whose calls count: CUDA and C++ sources (`main.cpp` calls the `.cu`'s functions).
const SOURCES: [&str; 4] = ["cu", "cpp", "cc", "cxx"];

/// What the other files of `path`'s directory pass to the functions `m` wants, read by `read`
/// (`None` for a file that cannot be read); empty when they cannot be all the calls, or when
/// no argument folds.
pub fn gather(
    path: &Path,
    m: &Module,
    read: &mut dyn FnMut(&Path) -> Option<HostCalls>,
) -> Callers {
    let wanted = &m.host.wanted;
    if wanted.is_empty() {
        return Callers::new();
    }
    let own = path.canonicalize().ok();
    let mut naming: Vec<PathBuf> = Vec::new();
    let mut main_elsewhere = false;
    let files = files_in(&directory_of(path), &SOURCES);
    if files.len() > MAX_DIRECTORY {
        return Callers::new();
    }
    for file in files {
        if file.canonicalize().ok() == own {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            // It could hold a call, or `main`.
            return Callers::new();
        };
        if wanted.iter().any(|w| names(&text, &w.name)) {
            naming.push(file);
        } else {
            main_elsewhere |= defines_main(&text);
        }
    }
    if naming.len() > MAX_FILES {
        return Callers::new();
    }
    let mut calls: Vec<HostCall> = Vec::new();
    for file in &naming {
        let Some(HostCalls {
            defines_main,
            calls: Some(found),
            ..
        }) = read(file)
        else {
            return Callers::new();
        };
        main_elsewhere |= defines_main;
        calls.extend(found);
    }
    if !main_elsewhere {
        return Callers::new();
    }
    let callers: Callers = wanted
        .iter()
        .filter_map(|w| Some((w.usr.clone(), values(w, &calls)?)))
        .collect();
    let folds = callers.values().any(|v| v.args.iter().any(Option::is_some));
    match folds {
        true => callers,
        false => Callers::new(),
    }
}

/// What `calls` pass to `f`: for each parameter, the value all of them agree on; none when one
/// of them takes its address.
fn values(f: &HostFunction, calls: &[HostCall]) -> Option<CallerValues> {
    let mine: Vec<&HostCall> = calls.iter().filter(|c| c.function.usr == f.usr).collect();
    if mine.iter().any(|c| c.args.is_empty()) {
        return None;
    }
    let count = mine.iter().map(|c| c.args.len()).max().unwrap_or(0);
    let agreed = |i: usize| {
        let first = mine.first()?.args.get(i).copied().flatten()?;
        mine.iter()
            .all(|c| c.args.get(i).copied().flatten() == Some(first))
            .then_some(first)
    };
    Some(CallerValues {
        calls: mine.len(),
        args: (0..count).map(agreed).collect(),
        places: mine.iter().map(|c| file_line(&c.file, c.line)).collect(),
    })
}

/// Whether `text` defines `main`, as far as its words tell: `int main(`, `void main (`.
fn defines_main(text: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices("main").any(|(at, _)| {
        let before = text[..at].trim_end();
        let after = text[at + 4..].trim_start();
        let type_before = ["int", "void", "auto"].iter().any(|t| {
            before
                .strip_suffix(t)
                .is_some_and(|rest| !rest.chars().next_back().is_some_and(ident))
        });
        !text[..at].chars().next_back().is_some_and(ident) && type_before && after.starts_with('(')
    })
}

#[cfg(test)]
mod tests {
    use super::defines_main;

    #[test]
    fn main_is_found_by_its_definition_only() {
        assert!(defines_main(
            "#include <cstdio>\nint main(int argc, char **argv) {"
        ));
        assert!(defines_main("void main (void) {}"));
        assert!(!defines_main(
            "// the kernels main.cu launches\nint remain(int x);"
        ));
        assert!(!defines_main("run_main(); int domain(int);"));
    }
}
