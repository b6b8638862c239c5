//! `gmrace analyze kernels.cu` where `kernels.cu` defines a kernel that `main.cu` beside it
//! declares and launches: read alone, the kernel's block stays open and it races under blocks
//! no program makes (a kernel written for 8x8 blocks). So the files of the same directory that
//! name such a kernel are read too, only for their launches, which `program::share_launches`
//! gives the kernel under the same rules as for `gmrace analyze DIR`: the report says `launch
//! at main.cu:30`. A kernel the file launches itself is looked for too: another file of the
//! program may launch it under other extents, and a file analysed alone is analysed as with
//! its directory.
//!
//! A file of the directory is read only if its text names one of the file's kernels (a launch,
//! or a second definition, which makes the launch nobody's) and it is of the same program: not
//! when both define `main`. At most `MAX_FILES` of them, in a directory of at most
//! `MAX_DIRECTORY` `.cu` files. If one of those files cannot be read, no launch is taken from
//! any: a definition it holds could make one ambiguous.

use super::callers::defines_main;
use super::includers::{cu_files_in, directory_of, MAX_DIRECTORY};
use gmrace_analyzer::frontend::{read_source, SourceText};
use gmrace_analyzer::ir::Module;
use std::path::{Path, PathBuf};

/// More files naming the kernels than this, and the launches stay the file's own.
const MAX_FILES: usize = 8;

/// The other `.cu` files of `path`'s program's directory that name a kernel `m` defines with
/// external linkage; empty when there are none or too many, or one cannot be read.
pub fn candidates(path: &Path, m: &Module) -> Vec<PathBuf> {
    let wanted: Vec<&str> = m
        .kernels
        .iter()
        .filter(|k| !k.internal && !k.name.contains('<'))
        .map(|k| k.name.as_str())
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let own = path.canonicalize().ok();
    let files = cu_files_in(&directory_of(path));
    if files.len() > MAX_DIRECTORY {
        return Vec::new();
    }
    let mut naming = Vec::new();
    for file in files.into_iter().filter(|p| p.canonicalize().ok() != own) {
        // It could hold a launch, or a second definition.
        let Ok(SourceText { text, .. }) = read_source(&file) else {
            return Vec::new();
        };
        // Two files defining `main` are two programs.
        if wanted.iter().any(|name| names(&text, name))
            && !(m.host.defines_main && defines_main(&text))
        {
            naming.push(file);
        }
    }
    if naming.len() > MAX_FILES {
        return Vec::new();
    }
    naming
}

/// `text` holds `name` as an identifier (not part of a longer one).
pub(super) fn names(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_name_counts_only_as_a_whole_identifier() {
        assert!(names("fill<<<1, 64>>>(d);", "fill"));
        assert!(names("extern __global__ void fill(float *);", "fill"));
        assert!(!names("refill<<<1, 64>>>(d); fill_rows(d);", "fill"));
        assert!(!names("", "fill"));
    }
}
