//! The C++ library headers a file includes, precompiled with the prelude. `<iostream>`,
//! `<vector>` and their kin take clang most of a second to read, more than the rest of a
//! typical file's analysis; with them precompiled (once per set of headers and command line,
//! kept next to the prelude's, from the second file that asks for the set on:
//! `Prelude::library_pch`) a file pays only for the declarations it uses (`Gemm.cu` of altis:
//! 1.37 → 0.7 s, `benchmarks/results/real-code-suites.md`).
//!
//! The precompiled headers are read before the file, where the file includes them later: the
//! declarations are the same only if the file includes every one of them (a header under
//! `#ifdef _WIN32` it does not, so the parse is checked: `all_included`, else it is done again
//! without them) and nothing before them changes what they declare. So the set is left out
//! when the file or its headers define or undefine a macro the C and C++ libraries read
//! (`_GNU_SOURCE`, `NDEBUG`, `_GLIBCXX_*`, ...) before the last of the set is first included,
//! and only C++ library headers are in it:
//! the C ones (`<stdio.h>`, `<cmath>`) are cheap, and `<assert.h>` is read anew each time.
//! A macro of the file that breaks the library when defined before it (`#define max(a, b)`)
//! breaks nvcc's build; gmrace reads such a file as if the library came first.

use super::cursor::inclusion_directives;
use super::directives::Directive;
use super::project_headers::Prefound;
use clang::TranslationUnit;

/// The C++17 library headers precompiled when a file includes them.
const HEADERS: [&str; 52] = [
    "algorithm",
    "any",
    "array",
    "atomic",
    "bitset",
    "charconv",
    "chrono",
    "codecvt",
    "complex",
    "condition_variable",
    "deque",
    "exception",
    "filesystem",
    "forward_list",
    "fstream",
    "functional",
    "future",
    "initializer_list",
    "iomanip",
    "ios",
    "iosfwd",
    "iostream",
    "istream",
    "iterator",
    "limits",
    "list",
    "locale",
    "map",
    "memory",
    "mutex",
    "new",
    "numeric",
    "optional",
    "ostream",
    "queue",
    "random",
    "ratio",
    "regex",
    "set",
    "sstream",
    "stack",
    "stdexcept",
    "streambuf",
    "string",
    "string_view",
    "thread",
    "tuple",
    "type_traits",
    "unordered_map",
    "unordered_set",
    "utility",
    "vector",
];

/// Macros the C and C++ libraries read (feature tests, configuration), by prefix.
const READ_BY_THE_LIBRARY: [&str; 18] = [
    "NDEBUG",
    "_GLIBCXX",
    "_LIBCPP",
    "__STDC",
    "__USE_",
    "_GNU_SOURCE",
    "_DEFAULT_SOURCE",
    "_BSD_SOURCE",
    "_SVID_SOURCE",
    "_POSIX",
    "_XOPEN",
    "_ISOC",
    "_LARGEFILE",
    "_FILE_OFFSET_BITS",
    "_TIME_BITS",
    "_REENTRANT",
    "_THREAD_SAFE",
    "_FORTIFY_SOURCE",
];

/// The library headers to precompile for a file, from what `prefind` read in it, its project
/// headers and gmrace's (`<thrust/...>` includes `<vector>`): those it includes, in `HEADERS`' order (one set, one precompiled file),
/// or none if a macro the library reads is defined or undefined before the last of them is
/// first included (after it, the library headers are all read already).
pub(super) fn headers(pre: &Prefound) -> Vec<&'static str> {
    let mut first_included: Vec<&'static str> = Vec::new();
    let mut macro_read_before = false;
    for d in &pre.read {
        match d {
            Directive::Angled(h) => {
                let Some(h) = HEADERS.into_iter().find(|l| l == h) else {
                    continue;
                };
                if first_included.contains(&h) {
                    continue;
                }
                if macro_read_before {
                    return Vec::new();
                }
                first_included.push(h);
            }
            Directive::Macro(m) => {
                macro_read_before |= READ_BY_THE_LIBRARY.iter().any(|p| m.starts_with(p));
            }
            Directive::Quoted(_) => {}
        }
    }
    HEADERS
        .into_iter()
        .filter(|h| first_included.contains(h))
        .collect()
}

/// Whether the parse `tu` included each of `headers` itself (by an `#include` of the file or
/// of a project header), as the file read without them precompiled would have.
pub(super) fn all_included(tu: &TranslationUnit, headers: &[&str]) -> bool {
    let named: Vec<String> = inclusion_directives(tu)
        .into_iter()
        .filter_map(|e| e.get_name())
        .collect();
    headers.iter().all(|h| named.iter().any(|n| n == h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefound(read: &[&str]) -> Prefound {
        let read = read
            .iter()
            .map(|d| match d.strip_prefix('#') {
                Some(m) => Directive::Macro(m.to_string()),
                None => Directive::Angled(d.to_string()),
            })
            .collect();
        Prefound {
            found: Vec::new(),
            read,
        }
    }

    #[test]
    fn only_cxx_library_headers_in_one_order() {
        let pre = prefound(&["vector", "stdio.h", "cmath", "my/vector", "#N", "iostream"]);
        assert_eq!(headers(&pre), ["iostream", "vector"]);
    }

    #[test]
    fn none_after_a_macro_the_library_reads_unless_all_are_read_before_it() {
        for m in [
            "#_GNU_SOURCE",
            "#NDEBUG",
            "#__STDC_LIMIT_MACROS",
            "#_GLIBCXX_DEBUG",
        ] {
            assert!(headers(&prefound(&["vector", m, "map"])).is_empty(), "{m}");
            assert_eq!(
                headers(&prefound(&["vector", "map", m, "vector"])),
                ["map", "vector"]
            );
        }
    }
}
