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
//!
//! A file that defines `main` takes its own calls of its functions as all there are, unless a
//! file beside it that does not define `main` names one (`main.cu` defines and calls
//! `scan(d, 1024)`, `extra.cu` calls `scan(d, 4096)`): then those calls count too, and where
//! they cannot be read the function gets no value. A file that defines `main` belongs to another
//! program (`main` is found by the words `int main(`, as nvcc's build would refuse two).

use super::includers::{directory_of, files_in, MAX_DIRECTORY};
use super::launchers::names;
use gmrace_analyzer::frontend::{read_source, strip_comments, CallerValues, Callers, SourceText};
use gmrace_analyzer::ir::{file_line, HostCall, HostCalls, HostFunction, Module};
use std::path::{Path, PathBuf};

/// More files naming the functions than this, and none is read.
const MAX_FILES: usize = 8;

/// The files whose calls count: CUDA and C++ sources (`main.cpp` calls the `.cu`'s functions).
const SOURCES: [&str; 4] = ["cu", "cpp", "cc", "cxx"];

/// What the other files of `path`'s directory pass to the functions `m` wants, read by `read`
/// (`None` for a file that cannot be read); empty when they cannot be all the calls, or when
/// no argument folds. For a program's own file (it defines `main`), the files of another
/// program (they define `main` too) do not count, and where those that do cannot be read each
/// function gets no value, not even from the file's own calls.
pub fn gather(
    path: &Path,
    m: &Module,
    read: &mut dyn FnMut(&Path) -> Option<HostCalls>,
) -> Callers {
    let wanted = &m.host.wanted;
    let files = files_in(&directory_of(path), &SOURCES);
    if wanted.is_empty() || files.len() > MAX_DIRECTORY {
        return Callers::default();
    }
    let own_main = m.host.defines_main;
    let unknown = || match own_main {
        true => wanted
            .iter()
            .map(|w| (w.usr.clone(), unknown_calls()))
            .collect(),
        false => Callers::default(),
    };
    let own = path.canonicalize().ok();
    let mut naming: Vec<PathBuf> = Vec::new();
    let mut main_elsewhere = false;
    for file in files {
        if file.canonicalize().ok() == own {
            continue;
        }
        let Ok(SourceText { text, .. }) = read_source(&file) else {
            // It could hold a call, or `main`.
            return unknown();
        };
        let is_main = defines_main(&text);
        // Two files defining `main` are two programs: never linked together.
        if wanted.iter().any(|w| names(&text, &w.name)) && !(own_main && is_main) {
            naming.push(file);
        } else {
            main_elsewhere |= is_main;
        }
    }
    if naming.len() > MAX_FILES {
        return unknown();
    }
    let mut calls: Vec<HostCall> = Vec::new();
    for file in &naming {
        let Some(HostCalls {
            defines_main,
            calls: Some(found),
            ..
        }) = read(file)
        else {
            return unknown();
        };
        main_elsewhere |= defines_main;
        calls.extend(found);
    }
    if !main_elsewhere && !own_main {
        return Callers::default();
    }
    let callers: Callers = wanted
        .iter()
        .map(|w| (w.usr.clone(), values(w, &calls)))
        .collect();
    // A program's own file took its own calls as all: read it again only where there are
    // others. Another file's, only where they give a value.
    let again = match own_main {
        true => callers.values().any(|v| v.calls > 0),
        false => callers.values().any(|v| v.args.iter().any(Option::is_some)),
    };
    match again {
        true => callers,
        false => Callers::default(),
    }
}

/// Calls that may pass anything.
fn unknown_calls() -> CallerValues {
    CallerValues {
        calls: 1,
        args: Vec::new(),
        places: Vec::new(),
    }
}

/// What `calls` pass to `f`: for each parameter, the value all of them agree on; nothing when
/// one of them takes its address.
fn values(f: &HostFunction, calls: &[HostCall]) -> CallerValues {
    let mine: Vec<&HostCall> = calls.iter().filter(|c| c.function.usr == f.usr).collect();
    let escapes = mine.iter().any(|c| c.args.is_empty());
    let count = match escapes {
        true => 0,
        false => mine.iter().map(|c| c.args.len()).max().unwrap_or(0),
    };
    let agreed = |i: usize| {
        let first = mine.first()?.args.get(i).copied().flatten()?;
        mine.iter()
            .all(|c| c.args.get(i).copied().flatten() == Some(first))
            .then_some(first)
    };
    CallerValues {
        calls: mine.len(),
        args: (0..count).map(agreed).collect(),
        places: mine.iter().map(|c| file_line(&c.file, c.line)).collect(),
    }
}

/// Whether `text` defines `main`, as far as its words tell: `int main(`, `void main (`, not in
/// a comment (taken for another program's, a file's launches and calls would not count).
pub(super) fn defines_main(text: &str) -> bool {
    let text = strip_comments(text);
    let text = text.as_str();
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
        assert!(!defines_main(
            "// usage: int main(int argc, char **argv)\nvoid run();"
        ));
        assert!(!defines_main("/* int main() { run(); } */ void run();"));
    }
}
