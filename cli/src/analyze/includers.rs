//! `.cu` files that are not translation units: kernels kept in `kernels.cu` that `main.cu`
//! `#include`s after the types and macros they use. Alone such a file does not compile, so it
//! is read through the file that includes it, as the program's build reads it.
//!
//! - `gmrace analyze DIR`: a file that another file of the directory includes (directly or
//!   through other such files) is not read on its own; the file at the top of the chain is
//!   read, and its report says which files it was read for.
//! - `gmrace analyze FRAGMENT`: a `.cu` file of the fragment's directory or its parent that
//!   includes it is read in its place, and only the kernels the fragment defines are
//!   reported; the report names the includer.
//!
//! Includes are found by their directive (`#include "kernels.cu"`), resolved as the
//! preprocessor would (the includer's directory, then `-I`), and followed through the files
//! that are not `.cu` files (`main.cu` includes `moves.cpp`, which includes `kernels.cu`); a
//! directive inside a comment or a disabled `#if` still counts, which at worst reads a file
//! through a program that does not compile it.

use super::project::Input;
use gmrace_analyzer::frontend::{read_source, SourceText};
use gmrace_analyzer::ir::{Diagnostic, Severity};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How long a chain of `.cu` files including each other is followed.
const MAX_CHAIN: usize = 16;

/// The inputs for `paths` (every `.cu` file of a directory, or one file): files included by
/// another replaced by their includer.
pub fn inputs(paths: Vec<PathBuf>, is_dir: bool, include_dirs: &[PathBuf]) -> Vec<Input> {
    if is_dir {
        return within(paths, include_dirs);
    }
    paths
        .into_iter()
        .map(|p| match includer_of(&p, include_dirs) {
            Some(top) => Input {
                notes: vec![note(format!(
                    "`{}` is not compiled on its own: it is read through `{}`, which includes it, \
                     and only its kernels are reported",
                    p.display(),
                    top.display()
                ))],
                fragment: Some(p),
                path: top,
            },
            None => Input::plain(p),
        })
        .collect()
}

/// A directory's files, each fragment read through the top of its chain of includers.
fn within(paths: Vec<PathBuf>, include_dirs: &[PathBuf]) -> Vec<Input> {
    let key = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let keys: HashMap<PathBuf, usize> =
        paths.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    // included_by[i]: the first file of the set (in path order) that includes file i.
    let mut included_by: Vec<Option<usize>> = vec![None; paths.len()];
    for (i, p) in paths.iter().enumerate() {
        for inc in included(p, include_dirs) {
            if let Some(&j) = keys.get(&key(&inc)) {
                if j != i && included_by[j].is_none() {
                    included_by[j] = Some(i);
                }
            }
        }
    }
    let top = |mut i: usize| {
        for _ in 0..MAX_CHAIN {
            match included_by[i] {
                Some(j) => i = j,
                None => return Some(i),
            }
        }
        None
    };
    // A cycle has no top: each of its files is read on its own.
    let tops: Vec<Option<usize>> = (0..paths.len()).map(top).collect();
    let is_fragment = |i: usize| tops[i].is_some_and(|t| t != i);
    let mut read_for: Vec<Vec<usize>> = vec![Vec::new(); paths.len()];
    for i in (0..paths.len()).filter(|&i| is_fragment(i)) {
        if let Some(t) = tops[i] {
            read_for[t].push(i);
        }
    }
    paths
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_fragment(*i))
        .map(|(i, p)| Input {
            path: p.clone(),
            fragment: None,
            notes: read_for[i]
                .iter()
                .map(|&f| {
                    note(format!(
                        "`{}` is not compiled on its own: its kernels are read through this file, \
                         `{}`, which includes it",
                        paths[f].display(),
                        p.display()
                    ))
                })
                .collect(),
        })
        .collect()
}

/// The `.cu` file at the top of the chain of files including `fragment`, looked for in the
/// fragment's directory and its parent.
fn includer_of(fragment: &Path, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let mut current = fragment.to_path_buf();
    let mut found = None;
    for _ in 0..MAX_CHAIN {
        let target = current.canonicalize().ok()?;
        let next = candidates(&current)
            .into_iter()
            .filter(|c| c.canonicalize().ok().as_ref() != Some(&target))
            .find(|c| {
                included(c, include_dirs)
                    .iter()
                    .any(|i| i.canonicalize().ok().as_ref() == Some(&target))
            });
        match next {
            Some(n) if n.canonicalize().ok() != fragment.canonicalize().ok() => {
                found = Some(n.clone());
                current = n;
            }
            _ => break,
        }
    }
    found
}

/// The `.cu` files beside `file` and in the directory above, in path order.
fn candidates(file: &Path) -> Vec<PathBuf> {
    let dir = directory_of(file);
    let parent = dir.parent().map(|p| match p.as_os_str().is_empty() {
        true => PathBuf::from("."),
        false => p.to_path_buf(),
    });
    [Some(dir.clone()), parent]
        .into_iter()
        .flatten()
        .flat_map(|d| cu_files_in(&d))
        .collect()
}

/// The directory `file` is in (`.` for a bare name).
pub(super) fn directory_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A directory with more source files than this is a library's, or many programs': its texts
/// are not searched for a file's launches or callers (each file of it that looks would read
/// all the others, a quadratic cost when each file is analysed on its own).
pub(super) const MAX_DIRECTORY: usize = 64;

/// The `.cu` files of `dir` (not below it), in path order; none if it cannot be read.
pub(super) fn cu_files_in(dir: &Path) -> Vec<PathBuf> {
    files_in(dir, &["cu"])
}

/// The files of `dir` (not below it) with one of `extensions`, in path order.
pub(super) fn files_in(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|x| extensions.iter().any(|e| x == *e))
        })
        .collect();
    files.sort();
    files
}

/// How many files one file's includes are followed through (`included`).
const MAX_INCLUDED: usize = 256;

/// The files `file` includes: those its `#include` directives name, and those that files which
/// are not `.cu` files include in turn. A program's `main.cu` may include `moves.cpp`, which
/// includes `kernels.cu` (HeCBench `sss`); an included `.cu` file is a link of its own in the
/// chains `includer_of` and `within` follow.
fn included(file: &Path, include_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen: Vec<PathBuf> = file.canonicalize().into_iter().collect();
    let mut queue = vec![file.to_path_buf()];
    while let Some(f) = queue.pop() {
        for inc in directly_included(&f, include_dirs) {
            let Ok(canonical) = inc.canonicalize() else {
                continue;
            };
            if seen.contains(&canonical) || seen.len() > MAX_INCLUDED {
                continue;
            }
            seen.push(canonical);
            if inc.extension().is_none_or(|x| x != "cu") {
                queue.push(inc.clone());
            }
            out.push(inc);
        }
    }
    out
}

/// The files `file`'s `#include` directives name that exist, resolved against its directory
/// and then `include_dirs`.
fn directly_included(file: &Path, include_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(SourceText { text, .. }) = read_source(file) else {
        return Vec::new();
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    text.lines()
        .filter_map(directive)
        .filter_map(|name| {
            std::iter::once(dir)
                .chain(include_dirs.iter().map(PathBuf::as_path))
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
        .collect()
}

/// `kernels.cu` of `#  include "kernels.cu"` or `#include <kernels.cu>`.
fn directive(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let close = match rest.chars().next()? {
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let name = &rest[1..];
    let end = name.find(close)?;
    Some(&name[..end])
}

fn note(message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message,
        span: Default::default(),
        source_line: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_read_as_the_preprocessor_spells_them() {
        assert_eq!(directive("#include \"kernels.cu\""), Some("kernels.cu"));
        assert_eq!(directive("  #  include <sub/k.cu> // x"), Some("sub/k.cu"));
        assert_eq!(directive("#includes \"x\""), None);
        assert_eq!(directive("// #include \"x.cu\""), None);
        assert_eq!(directive("#define include"), None);
    }

    #[test]
    fn a_chain_is_read_from_its_top_and_a_cycle_file_by_file() {
        let dir = std::env::temp_dir().join(format!("gmrace-includers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = [
            ("a.cu", "#include \"b.cu\"\n"),
            ("b.cu", "#include \"c.cu\"\n"),
            ("c.cu", ""),
            ("x.cu", "#pragma once\n#include \"y.cu\"\n"),
            ("y.cu", "#pragma once\n#include \"x.cu\"\n"),
        ];
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let paths: Vec<PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
        let read: Vec<(String, usize)> = inputs(paths, true, &[])
            .iter()
            .map(|i| {
                let name = i.path.file_name().unwrap().to_string_lossy().into_owned();
                (name, i.notes.len())
            })
            .collect();
        let expected = [("a.cu", 2), ("x.cu", 0), ("y.cu", 0)];
        assert_eq!(read, expected.map(|(n, k)| (n.to_string(), k)));
        let alone = inputs(vec![dir.join("c.cu")], false, &[]);
        assert_eq!(alone[0].path, dir.join("a.cu"));
        assert_eq!(
            alone[0].fragment.as_deref(),
            Some(dir.join("c.cu").as_path())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
