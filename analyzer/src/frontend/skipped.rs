//! Kernels the preprocessor left out: `__global__` definitions in a branch of `#if`/`#ifdef`
//! that the flags of this parse do not take (`#ifdef GPU`, a `-DUSE_CUDA` the project's
//! Makefile passes). clang never sees them, so without this they would vanish from the report
//! and the file would look kernel-free. Each is listed as not analysed, named from its text,
//! with the lines of the branch, so that the user can give the build's flags (`-D`, or `-p`).
//! A kernel of the same name that the parse did read (the other branch of an `#if`/`#else`) is
//! not listed. Only the main file is looked at: a header's inactive kernels are the header's
//! business, and the file's own report must not fill with them.

use super::launches::strip_comments;
use crate::ir::{NotAnalysed, Span};
use clang::TranslationUnit;

/// The kernels in the main file's skipped preprocessor branches whose names are not in `known`.
pub(crate) fn kernels(
    tu: &TranslationUnit,
    name: &str,
    source: &str,
    known: &[String],
) -> Vec<NotAnalysed> {
    let Some(file) = tu.get_file(name) else {
        return Vec::new();
    };
    let text = strip_comments(source);
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<NotAnalysed> = Vec::new();
    for range in file.get_skipped_ranges() {
        let first = range.get_start().get_file_location().line;
        let last = range.get_end().get_file_location().line;
        let body = lines
            .get(first.saturating_sub(1) as usize..(last as usize).min(lines.len()))
            .unwrap_or_default();
        // The range starts at its directive; `#if 0` is code its authors turned off.
        let directive = body.first().map_or("", |l| l.trim());
        let words: Vec<&str> = directive
            .trim_start_matches('#')
            .split_whitespace()
            .collect();
        if words.first() == Some(&"if") && words.get(1) == Some(&"0") {
            continue;
        }
        for (line, kernel) in declared(body, first) {
            let base = |n: &str| n.split('<').next().unwrap_or(n).to_string();
            if known.iter().any(|k| base(k) == kernel) || out.iter().any(|n| n.name == kernel) {
                continue;
            }
            out.push(NotAnalysed {
                name: kernel,
                reason: format!(
                    "not compiled with these flags: in a preprocessor branch not taken \
                     (`{directive}`, lines {first}-{last}); give the build's -D flags, or -p \
                     BUILD_DIR"
                ),
                span: Span {
                    file: 0,
                    line,
                    column: 1,
                    end_line: line,
                    end_column: 1,
                },
            });
        }
    }
    out
}

/// `(line, name)` of each `__global__` declaration in `lines` (the first is line `first`): the
/// identifier before the first `(` that follows the keyword.
fn declared(lines: &[&str], first: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = word_at(l, "__global__") else {
            continue;
        };
        if l.trim_start().starts_with('#') {
            continue; // `#define KERNEL __global__`
        }
        // The declarator may continue on the next lines.
        let rest: String = std::iter::once(&l[at + "__global__".len()..])
            .chain(lines[i + 1..].iter().take(4).copied())
            .collect::<Vec<_>>()
            .join(" ");
        let Some(paren) = rest.find('(') else {
            continue;
        };
        let head = rest[..paren].trim_end();
        let name: String = head
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
            out.push((first + i as u32, name));
        }
    }
    out
}

/// The byte offset of `word` in `line` as a whole word.
fn word_at(line: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = line[..i].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = line[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        before && after
    })
}

#[cfg(test)]
mod tests {
    use super::declared;

    #[test]
    fn a_kernel_is_named_from_its_declarator_also_across_lines() {
        let lines = [
            "#define K __global__",
            "__global__ void",
            "  scale(float *a) {",
            "template <int N> __global__ void sum(int *a);",
            "int not__global__x(int);",
        ];
        assert_eq!(
            declared(&lines, 10),
            vec![(11, "scale".to_string()), (13, "sum".to_string())]
        );
    }
}
