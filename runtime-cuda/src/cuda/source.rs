//! What NVRTC compiles: the device code of a `.cu` file, host code cut out.
//!
//! NVRTC rejects host code, and real `.cu` files have plenty (`main`, `cudaMalloc`, `std::`).
//! The file is split into top-level declarations at the token level (comments, strings and
//! preprocessor directives understood; namespaces and `extern "C" { }` blocks entered), and a
//! declaration is cut when it is host-only:
//! - a function (definition or prototype) without `__global__` or `__device__`;
//! - a variable without a memory-space qualifier that is neither `const` nor `constexpr` (a
//!   `const int N = 256;` is kept: device code may use it as a constant).
//!
//! Types, templates of types, `typedef`/`using`, `static_assert` and every preprocessor
//! directive are kept. Object-like macros that expand to a qualifier (`#define KERNEL
//! __global__`) count as that qualifier. Cut text is replaced by spaces, newlines and any
//! directive inside it kept, so `#if`/`#endif` stay balanced and every kept line keeps its
//! line number (NVRTC's messages point into the user's file; a `#line 1` follows the preamble).
//!
//! User headers (`#include "..."` found next to the including file or under `-I`) are cut the
//! same way and given to NVRTC in memory under their include name, which shadows the file; the
//! macro qualifiers they define count in later files. System headers (`<...>`) are not touched.
//! Limit: qualifiers produced by function-like macros are not seen.
//!
//! The split is a token-level one, not libclang's: the analyzer's front end is not touched and
//! this needs no second parse. A preamble includes gmrace's stand-in headers under clang and,
//! under NVRTC (`__CUDACC_RTC__`), `gmrace_nvrtc.h` (GPUVerify specification statements as
//! no-ops); host and toolkit headers NVRTC lacks (`cuda_runtime.h`, `cstdio`, ...) are given in
//! memory, empty (`assert.h` defines `assert` over `__assertfail`). The launched kernel's line
//! must survive the cut (checked before compiling).

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Qualifiers that make a declaration device code.
const DEVICE_QUALIFIERS: &[&str] = &[
    "__global__",
    "__device__",
    "__constant__",
    "__shared__",
    "__managed__",
];

/// Keywords whose declarations are kept whatever their execution space (types and aliases).
const TYPE_KEYWORDS: &[&str] = &[
    "struct",
    "class",
    "union",
    "enum",
    "typedef",
    "using",
    "static_assert",
    "namespace",
];

/// The first lines of every prepared file: under NVRTC (which defines `__CUDACC_RTC__`) the
/// in-memory [`NVRTC_PRELUDE`]; under clang (DESIGN.md's PTX check) gmrace's stand-in headers.
const PREAMBLE: &str = "#ifdef __CUDACC_RTC__\n#include \"gmrace_nvrtc.h\"\n#else\n\
                        #include \"gmrace_prelude.h\"\n#endif\n";

/// `gmrace_nvrtc.h`: what gmrace's clang environment has that NVRTC lacks. GPUVerify's
/// specification statements are checked by gmrace before the launch or not at all; on the GPU
/// they compile to nothing (their arguments are not evaluated, as in GPUVerify).
pub const NVRTC_PRELUDE: &str = "\
#ifndef GMRACE_NVRTC_H
#define GMRACE_NVRTC_H
#define __requires(...) ((void)0)
#define __global_requires(...) ((void)0)
#define __ensures(...) ((void)0)
#define __global_ensures(...) ((void)0)
#define __assert(...) ((void)0)
#define __global_assert(...) ((void)0)
#define __candidate_assert(...) ((void)0)
#define __candidate_global_assert(...) ((void)0)
#define __unsafe_assert(...) ((void)0)
#define __unsafe_global_assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __assert_mod(...) ((void)0)
#define __invariant(...) ((void)0)
#define __global_invariant(...) ((void)0)
#define __candidate_invariant(...) ((void)0)
#define __candidate_global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __function_wide_candidate_invariant(...) ((void)0)
#define __barrier_invariant(...) ((void)0)
#define __barrier_invariant_binary(...) ((void)0)
#define __non_temporal_loads_begin() ((void)0)
#define __non_temporal_loads_end() ((void)0)
#define __reads_from(...) ((void)0)
#define __writes_to(...) ((void)0)
#define __requires_fresh_array(...) ((void)0)
#define __array_snapshot(...) ((void)0)
#define __axiom(...)
/* Host compilers get these from glibc's <sys/types.h>; kernels use them. */
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#endif
";

/// `<assert.h>` under NVRTC: `assert` on the device is `__assertfail`, as in CUDA's header.
const NVRTC_ASSERT: &str = "\
#ifndef assert
extern \"C\" __device__ void __assertfail(const char *, const char *, unsigned int,
                                         const char *, unsigned long);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
#endif
";

/// Headers a `.cu` file includes for its host code or for declarations NVRTC has built in;
/// under NVRTC they are empty (their host users are cut).
const EMPTY_UNDER_NVRTC: &[&str] = &[
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "cuda.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "vector_types.h",
    "math_functions.h",
    "cuda_profiler_api.h",
    "stdio.h",
    "cstdio",
    "stdlib.h",
    "cstdlib",
    "math.h",
    "cmath",
    "string.h",
    "cstring",
    "time.h",
    "ctime",
    "iostream",
    "fstream",
    "sstream",
    "vector",
    "string",
    "algorithm",
    "chrono",
];

/// gmrace's headers for NVRTC: (include name, contents).
fn stand_in_headers() -> Vec<(String, String)> {
    let mut h: Vec<(String, String)> = EMPTY_UNDER_NVRTC
        .iter()
        .map(|n| (n.to_string(), String::new()))
        .collect();
    h.push(("assert.h".into(), NVRTC_ASSERT.into()));
    h.push(("cassert".into(), NVRTC_ASSERT.into()));
    h.push(("gmrace_nvrtc.h".into(), NVRTC_PRELUDE.into()));
    h
}

/// A host-only declaration that was cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removed {
    /// 1-based lines of the original file, inclusive.
    pub lines: Range<u32>,
    /// The declared name, when there is one (`main`, `launch`).
    pub name: Option<String>,
}

/// The device-only source, the user headers it includes (host code cut too), and what was
/// cut from the main file.
pub struct DeviceSource {
    pub text: String,
    /// `(include name, contents)` of each user header, for NVRTC to take in memory.
    pub headers: Vec<(String, String)>,
    pub removed: Vec<Removed>,
}

impl DeviceSource {
    /// Everything NVRTC gets in memory: `extra` (the caller's, e.g. the runtime header of an
    /// instrumented file), then the user headers with their host code cut, then gmrace's
    /// stand-ins; the first header of a name wins.
    pub fn nvrtc_headers(&self, extra: &[(String, String)]) -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> = extra.to_vec();
        for h in self.headers.iter().cloned().chain(stand_in_headers()) {
            if !all.iter().any(|(n, _)| *n == h.0) {
                all.push(h);
            }
        }
        all
    }

    /// Whether a line of the original file was cut.
    pub fn is_removed(&self, line: u32) -> bool {
        self.removed
            .iter()
            .any(|r| r.lines.start <= line && line <= r.lines.end)
    }
}

/// Cuts the host code out of `text`, the main file at `file` (named so in `#line`), and out of
/// the user headers it includes with quotes, found next to the including file or in
/// `include_dirs` (recursively, each once). A macro qualifier defined in any of them counts in
/// all.
pub fn device_source(text: &str, file: &Path, include_dirs: &[PathBuf]) -> DeviceSource {
    device_source_with(text, file, include_dirs, &|p| {
        std::fs::read_to_string(p).ok()
    })
}

/// [`device_source`] with the user headers read by `read` (a file's text, or `None` when it
/// is not there): the files a bundle captured, on a machine that has not got them.
pub fn device_source_with(
    text: &str,
    file: &Path,
    include_dirs: &[PathBuf],
    read: &dyn Fn(&Path) -> Option<String>,
) -> DeviceSource {
    let headers = user_headers(text, file, include_dirs, read);
    let files: Vec<&str> = headers
        .iter()
        .map(|(_, t)| t.as_str())
        .chain([text])
        .collect();
    let qualifiers = device_qualifiers(&files);
    let cut_headers = headers
        .iter()
        .map(|(name, header)| (name.clone(), cut_host_code(header, &qualifiers).0))
        .collect();
    let (body, removed) = cut_host_code(text, &qualifiers);
    let escaped = file
        .display()
        .to_string()
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    DeviceSource {
        text: format!("{PREAMBLE}#line 1 \"{escaped}\"\n{body}"),
        headers: cut_headers,
        removed,
    }
}

/// The files `#include "..."` reaches from `text`, by include name, in discovery order.
fn user_headers(
    text: &str,
    file: &Path,
    include_dirs: &[PathBuf],
    read: &dyn Fn(&Path) -> Option<String>,
) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut pending = vec![(file.parent().map(Path::to_path_buf), text.to_string())];
    while let Some((dir, text)) = pending.pop() {
        for t in lex(&text).iter().filter(|t| t.kind == Kind::Directive) {
            let Some(name) = quoted_include(&text[t.span.clone()]) else {
                continue;
            };
            if found.iter().any(|(n, _)| n == name) {
                continue;
            }
            let hit = dir
                .iter()
                .chain(include_dirs)
                .map(|d| d.join(name))
                .find_map(|p| Some((read(&p)?, p)));
            if let Some((contents, path)) = hit {
                found.push((name.to_string(), contents.clone()));
                pending.push((path.parent().map(Path::to_path_buf), contents));
            }
        }
    }
    found
}

/// `common.h` from `#include "common.h"`.
fn quoted_include(directive: &str) -> Option<&str> {
    let rest = directive.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    rest.split_once('"').map(|(name, _)| name)
}

/// `text` with its host-only declarations blanked, and what was blanked.
fn cut_host_code(text: &str, qualifiers: &HashSet<String>) -> (String, Vec<Removed>) {
    let toks = lex(text);
    let code: Vec<&Tok> = toks.iter().filter(|t| t.kind != Kind::Directive).collect();
    let mut decls = Vec::new();
    let mut i = 0;
    split(text, &code, &mut i, false, &mut decls);

    let mut in_directive = vec![false; text.len()];
    for t in toks.iter().filter(|t| t.kind == Kind::Directive) {
        in_directive[t.span.clone()].fill(true);
    }
    let mut out = text.as_bytes().to_vec();
    let mut removed = Vec::new();
    for d in decls.iter().filter(|d| !d.keep(text, &code, qualifiers)) {
        let span = code[d.first].span.start..code[d.last].span.end;
        for at in span.clone() {
            if out[at] != b'\n' && !in_directive[at] {
                out[at] = b' ';
            }
        }
        removed.push(Removed {
            lines: line_of(text, span.start)..line_of(text, span.end.saturating_sub(1)),
            name: d.name(text, &code),
        });
    }
    // Only ASCII bytes were replaced, by ASCII spaces, at whole-character positions
    // (a multi-byte character is inside a token, comment or string, all blanked whole).
    let body = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (body, removed)
}

fn line_of(text: &str, offset: usize) -> u32 {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Punct,
    /// A string or character literal.
    Literal,
    /// A whole preprocessor directive, continuation lines included.
    Directive,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    span: Range<usize>,
}

/// Tokens of C++ source at the granularity this needs: identifiers, one-character
/// punctuation, literals and directives; comments, whitespace and numbers' insides dropped.
fn lex(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    // A line comment ending in a backslash continues on the next line.
                    if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
            }
            b'#' if line_start => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        // A block comment may carry the directive onto later lines.
                        i += 2;
                        while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                i = i.min(b.len());
                toks.push(Tok {
                    kind: Kind::Directive,
                    span: start..i,
                });
            }
            b'"' | b'\'' => {
                let start = i;
                i = skip_quoted(b, i);
                toks.push(Tok {
                    kind: Kind::Literal,
                    span: start..i,
                });
                line_start = false;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80)
                {
                    i += 1;
                }
                let word = &text[start..i];
                if b.get(i) == Some(&b'"') && matches!(word, "R" | "LR" | "uR" | "UR" | "u8R") {
                    i = skip_raw_string(b, i);
                    toks.push(Tok {
                        kind: Kind::Literal,
                        span: start..i,
                    });
                } else if b.get(i) == Some(&b'"') && matches!(word, "L" | "u" | "U" | "u8") {
                    // An encoding prefix: the literal follows.
                } else {
                    toks.push(Tok {
                        kind: Kind::Ident,
                        span: start..i,
                    });
                }
                line_start = false;
            }
            c if c.is_ascii_digit() => {
                // pp-number: digits, letters, dots, digit separators, exponent signs.
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'.'
                        || b[i] == b'_'
                        || (b[i] == b'\'' && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric))
                        || (matches!(b[i], b'+' | b'-')
                            && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
                {
                    i += 1;
                }
                toks.push(Tok {
                    kind: Kind::Literal,
                    span: start..i,
                });
                line_start = false;
            }
            _ => {
                toks.push(Tok {
                    kind: Kind::Punct,
                    span: i..i + 1,
                });
                i += 1;
                line_start = false;
            }
        }
    }
    toks
}

/// End of the quoted literal starting at `i` (which holds the quote).
fn skip_quoted(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != q && b[j] != b'\n' {
        if b[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    (j + 1).min(b.len())
}

/// End of the raw string literal whose opening quote is at `i`: `"delim( ... )delim"`.
fn skip_raw_string(b: &[u8], i: usize) -> usize {
    let Some(open) = b[i..].iter().position(|&c| c == b'(').map(|p| i + p) else {
        return b.len();
    };
    let mut close = vec![b')'];
    close.extend_from_slice(&b[i + 1..open]);
    close.push(b'"');
    b[open..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(b.len(), |p| open + p + close.len())
}

/// Device qualifiers plus the object-like macros of `files` that expand to one, directly or
/// through other such macros (in any file, in any order: the set is closed by iteration).
fn device_qualifiers(files: &[&str]) -> HashSet<String> {
    let mut defines: Vec<(&str, &str)> = Vec::new();
    for text in files {
        for t in lex(text).iter().filter(|t| t.kind == Kind::Directive) {
            let d = &text[t.span.clone()];
            let rest = d.trim_start_matches('#').trim_start();
            let Some(rest) = rest.strip_prefix("define") else {
                continue;
            };
            if !rest.starts_with([' ', '\t']) {
                continue;
            }
            let rest = rest.trim_start();
            let name_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (name, body) = rest.split_at(name_len);
            if !name.is_empty() && !body.starts_with('(') {
                defines.push((name, body));
            }
        }
    }
    let mut q: HashSet<String> = DEVICE_QUALIFIERS.iter().map(|s| s.to_string()).collect();
    loop {
        let before = q.len();
        for (name, body) in &defines {
            if body
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| q.contains(w))
            {
                q.insert(name.to_string());
            }
        }
        if q.len() == before {
            return q;
        }
    }
}

/// A top-level declaration: code tokens `first..=last`.
struct Decl {
    first: usize,
    last: usize,
    /// Index of the body's `{` for a function definition.
    body: Option<usize>,
    /// Index of the first `(` at nesting depth 0 before any body.
    paren: Option<usize>,
}

fn is(text: &str, t: &Tok, s: &str) -> bool {
    &text[t.span.clone()] == s
}

/// Splits code tokens into top-level declarations from `*i`, entering namespace and
/// linkage blocks; returns at a `}` closing the enclosing block when `in_block`.
fn split(text: &str, code: &[&Tok], i: &mut usize, in_block: bool, out: &mut Vec<Decl>) {
    while *i < code.len() {
        if is(text, code[*i], "}") && in_block {
            return;
        }
        if is(text, code[*i], ";") {
            *i += 1;
            continue;
        }
        let first = *i;
        // Template headers may hold `=`, `(` and `class`: not the declaration's.
        *i = first + after_templates(text, &code[first..]);
        let mut depth = 0usize;
        let mut paren = None;
        let mut assigned = false;
        loop {
            let Some(t) = code.get(*i) else {
                out.push(Decl {
                    first,
                    last: code.len() - 1,
                    body: None,
                    paren,
                });
                return;
            };
            let s = &text[t.span.clone()];
            match s {
                "(" | "[" => {
                    if depth == 0 && s == "(" && paren.is_none() {
                        paren = Some(*i);
                    }
                    depth += 1;
                }
                ")" | "]" => depth = depth.saturating_sub(1),
                "=" if depth == 0 => assigned = true,
                ";" if depth == 0 => {
                    out.push(Decl {
                        first,
                        last: *i,
                        body: None,
                        paren,
                    });
                    *i += 1;
                    break;
                }
                "}" if depth == 0 => {
                    // A declaration without its `;`: keep the text, let the compiler judge.
                    // The brace closes the enclosing block, if any.
                    if !in_block {
                        *i += 1;
                    }
                    break;
                }
                "{" if depth == 0 => {
                    let head = &code[first..*i];
                    let opens_block = head.first().is_some_and(|t| {
                        is(text, t, "namespace")
                            || (is(text, t, "inline")
                                && head.get(1).is_some_and(|t| is(text, t, "namespace")))
                    }) || (head.len() == 2
                        && is(text, head[0], "extern")
                        && head[1].kind == Kind::Literal);
                    if opens_block {
                        *i += 1;
                        split(text, code, i, true, out);
                        *i += 1; // the closing brace
                        break;
                    }
                    let type_head = head[after_templates(text, head)..]
                        .iter()
                        .take_while(|t| !is(text, t, "("))
                        .any(|t| {
                            ["struct", "class", "union", "enum"]
                                .iter()
                                .any(|k| is(text, t, k))
                        });
                    let open = *i;
                    *i = matching_brace(text, code, *i);
                    if paren.is_some() && !assigned && !type_head {
                        out.push(Decl {
                            first,
                            last: (*i).min(code.len() - 1),
                            body: Some(open),
                            paren,
                        });
                        *i += 1;
                        break;
                    }
                }
                "{" => *i = matching_brace(text, code, *i),
                _ => {}
            }
            *i += 1;
        }
    }
}

/// Index of the first token after the `template <...>` headers that start `head`.
fn after_templates(text: &str, head: &[&Tok]) -> usize {
    let mut k = 0;
    while head.get(k).is_some_and(|t| is(text, t, "template"))
        && head.get(k + 1).is_some_and(|t| is(text, t, "<"))
    {
        let mut depth = 0usize;
        k += 1;
        while let Some(t) = head.get(k) {
            if is(text, t, "<") {
                depth += 1;
            } else if is(text, t, ">") {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            k += 1;
        }
        k += 1;
    }
    k.min(head.len())
}

/// Index of the `}` matching the `{` at `open` (or the last token).
fn matching_brace(text: &str, code: &[&Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in code.iter().enumerate().skip(open) {
        if is(text, t, "{") {
            depth += 1;
        } else if is(text, t, "}") {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    code.len() - 1
}

impl Decl {
    /// Tokens before the body (or all of them).
    fn head<'a>(&self, code: &'a [&'a Tok]) -> &'a [&'a Tok] {
        &code[self.first..self.body.unwrap_or(self.last + 1)]
    }

    fn keep(&self, text: &str, code: &[&Tok], qualifiers: &HashSet<String>) -> bool {
        let head = self.head(code);
        let has = |words: &[&str]| head.iter().any(|t| words.iter().any(|w| is(text, t, w)));
        if head
            .iter()
            .any(|t| t.kind == Kind::Ident && qualifiers.contains(&text[t.span.clone()]))
        {
            return true;
        }
        if self.body.is_some() {
            return false; // a host function definition
        }
        if has(TYPE_KEYWORDS) {
            return true;
        }
        // A prototype, or a host variable: only constants are of use to device code.
        self.paren.is_none() && has(&["const", "constexpr"])
    }

    /// The declared name: the identifier before the first top-level `(`, or before `=`/`;`.
    fn name(&self, text: &str, code: &[&Tok]) -> Option<String> {
        let head = self.head(code);
        let end = match self.paren {
            Some(p) => p - self.first,
            None => head
                .iter()
                .position(|t| is(text, t, "=") || is(text, t, ";") || is(text, t, "["))
                .unwrap_or(head.len()),
        };
        head[..end]
            .iter()
            .rev()
            .find(|t| t.kind == Kind::Ident)
            .map(|t| text[t.span.clone()].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Host code of every kind next to device code of every kind.
    const MIXED: &str = r#"#include <cstdio>
#include <vector>
#define N 256
#define KERNEL __global__
#define HD __host__ __device__
const int BLOCK = 128;
static int host_counter = 0;
std::vector<float> host_data;
__constant__ float coeff[4];
__device__ int dev_counter;
struct Pair { int a; float b; };
typedef unsigned int uint;
template <class T> struct Box { T v; };
HD inline int twice(int x) { return 2 * x; }
__device__ float scale(float x) { return x * coeff[0]; }
int host_helper(int x) { std::vector<int> v(x); return (int)v.size(); }
template <class T> T host_max(T a, T b) { return a > b ? a : b; }
void launch(float *d);
namespace detail {
  __device__ int inner(int x) { return x + 1; }
  int host_inner(int x) { return std::printf("%d", x); }
}
extern "C" {
  __global__ void c_kernel(int *p) { p[0] = detail::inner(1); }
  void c_host(void) { puts("host"); }
}
template <int B = 32>
__global__ void tmpl(float *out) { out[threadIdx.x] = scale(B); }
KERNEL void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale(out[i]) + twice(BLOCK) + dev_counter;
}
#ifdef USE_MAIN
int main(int argc, char **argv) {
  const char *s = "}{ // not a comment";
  std::vector<float> h(N); /* } */
  launch(nullptr);
#else
int main() {
#endif
  return 0;
}
"#;

    fn removed_names(d: &DeviceSource) -> Vec<String> {
        d.removed.iter().filter_map(|r| r.name.clone()).collect()
    }

    #[test]
    fn cuts_host_declarations_and_keeps_device_ones() {
        let d = device_source(MIXED, Path::new("mixed.cu"), &[]);
        assert_eq!(
            removed_names(&d),
            [
                "host_counter",
                "host_data",
                "host_helper",
                "host_max",
                "launch",
                "host_inner",
                "c_host",
                "main",
            ]
        );
        for kept in [
            "const int BLOCK = 128;",
            "__constant__ float coeff[4];",
            "__device__ int dev_counter;",
            "struct Pair { int a; float b; };",
            "typedef unsigned int uint;",
            "template <class T> struct Box { T v; };",
            "HD inline int twice(int x) { return 2 * x; }",
            "__device__ int inner(int x) { return x + 1; }",
            "__global__ void c_kernel(int *p)",
            "__global__ void tmpl(float *out)",
            "KERNEL void k(float *out, int n) {",
        ] {
            assert!(d.text.contains(kept), "lost `{kept}`:\n{}", d.text);
        }
        for gone in ["std::vector", "host_helper", "puts", "argc", "return 0;"] {
            assert!(!d.text.contains(gone), "kept `{gone}`:\n{}", d.text);
        }
    }

    #[test]
    fn keeps_lines_and_directives() {
        let d = device_source(MIXED, Path::new("mixed.cu"), &[]);
        let body = d
            .text
            .split_once("#line 1 \"mixed.cu\"\n")
            .expect("a #line directive")
            .1;
        assert_eq!(body.lines().count(), MIXED.lines().count());
        for (orig, prep) in MIXED.lines().zip(body.lines()) {
            if orig.trim_start().starts_with('#') {
                assert_eq!(orig, prep, "directive changed");
            }
            if orig.contains("__global__") || orig.contains("KERNEL void") {
                assert_eq!(orig, prep, "kernel line moved or changed");
            }
        }
        // `main` spans lines 34 to 42 of the file, across the #ifdef; the kernel ends on 32.
        assert!(d.is_removed(34) && d.is_removed(42) && !d.is_removed(32));
    }

    #[test]
    fn literals_comments_and_raw_strings_do_not_confuse_the_split() {
        let src = "void h() { const char *s = R\"x(}{;)x\"; char c = '}'; // }\n}\n\
                   /* { */ __global__ void k(int *p) { p[0] = 1; }\n";
        let d = device_source(src, Path::new("t.cu"), &[]);
        assert_eq!(removed_names(&d), ["h"]);
        assert!(d.text.contains("__global__ void k(int *p) { p[0] = 1; }"));
    }

    #[test]
    fn user_headers_are_cut_and_their_macro_qualifiers_count() {
        let dir = std::env::temp_dir().join(format!("gmrace-source-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("inc")).unwrap();
        std::fs::write(
            dir.join("common.h"),
            "#include \"nested.h\"\n#define KERNEL __global__\n#define HD __host__ __device__\n\
             texture<float, 1> tex;\nstatic void check(int e) { if (e) exit(1); }\n",
        )
        .unwrap();
        // DEV is defined through HD, which common.h defines after including this file.
        std::fs::write(
            dir.join("inc/nested.h"),
            "#define DEV HD\nDEV int f(int x) { return x; }\nint g() { return 0; }\n",
        )
        .unwrap();
        let main =
            "#include \"common.h\"\n#include <cstdio>\nKERNEL void k(int *p) { p[0] = f(1); }\n";
        let d = device_source(main, &dir.join("k.cu"), &[dir.join("inc")]);
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(d.removed, []);
        assert!(d.text.contains("KERNEL void k(int *p) { p[0] = f(1); }"));
        let names: Vec<&str> = d.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["common.h", "nested.h"]);
        let common = &d.headers[0].1;
        assert!(common.contains("#define KERNEL __global__") && !common.contains("texture"));
        assert!(!common.contains("exit") && common.lines().count() == 5);
        let nested = &d.headers[1].1;
        assert!(nested.contains("DEV int f(int x)") && !nested.contains("int g()"));
    }

    #[test]
    fn macro_qualifiers_are_followed_transitively() {
        let src = "#define DEV __device__\n#define FN static DEV inline\n\
                   FN int f(int x) { return x; }\nint g(int x) { return x; }\n";
        let d = device_source(src, Path::new("t.cu"), &[]);
        assert_eq!(removed_names(&d), ["g"]);
    }
}
