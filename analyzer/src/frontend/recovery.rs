//! Reading what can be read of a file clang finds errors in. Projects' files include headers
//! this machine lacks (cuFFT, OpenGL, `omp.h`) and host code written against them; none of that
//! is needed to analyse a kernel. So a missing `#include` is read as an empty file, an error in
//! host code is a warning, and a kernel is left out (listed as not analysed, with the error) only
//! when an error lies in its own text, in a declaration it refers to, or in a device function
//! it calls. A kernel is never lowered from a tree clang had to repair; such kernels are listed
//! in `Module::not_analysed`. A missing header is a fatal error; clang is told to go on past
//! fatal errors, so one parse names every missing header of the file (those that headers found
//! in the project include take one parse more). A file is refused only when it has a kernel and
//! none can be read.

use super::cursor::visit;
use crate::collections::HashSet;
use crate::ir::{Diagnostic, Severity};
use clang::{Entity, EntityKind};
use std::path::PathBuf;

/// Where clang put an error: the file and the line and byte column of its expansion.
#[derive(Clone, Debug)]
pub(crate) struct RawLoc {
    pub file: Option<PathBuf>,
    pub line: u32,
    pub column: u32,
}

/// An error clang reported, rendered and located.
pub(crate) struct ClangError {
    pub diagnostic: Diagnostic,
    pub at: RawLoc,
}

/// The header names of `'X' file not found` errors, each once (several files may include it),
/// in the order met: each is read as empty on the next parse.
pub(crate) fn missing_includes(errors: &[ClangError]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in errors.iter().filter_map(not_found_header) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// The header an `'X' file not found` error names.
fn not_found_header(e: &ClangError) -> Option<&str> {
    let (name, rest) = e.diagnostic.message.strip_prefix('\'')?.split_once('\'')?;
    (rest == " file not found").then_some(name)
}

/// `errors` less the `file not found` of the headers in `missing`: a parse that went on past
/// them read them as empty, as the next parse would.
pub(crate) fn without_missing_includes(
    errors: Vec<ClangError>,
    missing: &[String],
) -> Vec<ClangError> {
    errors
        .into_iter()
        .filter(|e| not_found_header(e).is_none_or(|h| !missing.iter().any(|m| m == h)))
        .collect()
}

/// Whether clang's errors say the precompiled prelude could not be used with this file's command
/// line (a macro it was built with, defined otherwise): only then does a parse without it differ.
pub(crate) fn precompiled_clash(errors: &[ClangError]) -> bool {
    errors.iter().any(|e| {
        let m = &e.diagnostic.message;
        m.contains("precompiled header") || m.contains("PCH file") || m.contains("AST file")
    })
}

/// Types of CUDA's own headers, with the header that declares them.
const CUDA_TYPES: [(&str, &str); 12] = [
    ("half", "cuda_fp16.h"),
    ("__half", "cuda_fp16.h"),
    ("half2", "cuda_fp16.h"),
    ("__half2", "cuda_fp16.h"),
    ("nv_bfloat16", "cuda_bf16.h"),
    ("__nv_bfloat16", "cuda_bf16.h"),
    ("nv_bfloat162", "cuda_bf16.h"),
    ("__nv_bfloat162", "cuda_bf16.h"),
    ("__nv_fp8_e4m3", "cuda_fp8.h"),
    ("__nv_fp8_e5m2", "cuda_fp8.h"),
    ("__nv_fp8x2_e4m3", "cuda_fp8.h"),
    ("__nv_fp8x2_e5m2", "cuda_fp8.h"),
];

/// Templates of the C++ library, with the header that defines them.
const STD_TEMPLATES: [(&str, &str); 16] = [
    ("tuple", "tuple"),
    ("make_tuple", "tuple"),
    ("tie", "tuple"),
    ("pair", "utility"),
    ("vector", "vector"),
    ("array", "array"),
    ("string", "string"),
    ("map", "map"),
    ("unordered_map", "unordered_map"),
    ("function", "functional"),
    ("unique_ptr", "memory"),
    ("shared_ptr", "memory"),
    ("optional", "optional"),
    ("numeric_limits", "limits"),
    ("min", "algorithm"),
    ("max", "algorithm"),
];

/// The headers declaring what clang did not know, sorted: CUDA's types (`unknown type name
/// 'nv_bfloat16'`) and the C++ library's templates the file names without including their
/// header (`implicit instantiation of undefined template 'std::tuple<int, int>'`). With a
/// header missing, the file got them from it (PyTorch's and cuBLAS's headers include
/// `cuda_bf16.h` and most of the C++ library, and a file that compiles has them from
/// somewhere), so the missing headers stand for those headers instead of nothing. The
/// declarations are CUDA's and the library's own.
pub(crate) fn headers_needed(errors: &[ClangError]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = errors
        .iter()
        .filter_map(|e| {
            let m = &e.diagnostic.message;
            if let Some(name) = unknown_name(m) {
                return CUDA_TYPES.iter().find(|(t, _)| *t == name).map(|(_, h)| *h);
            }
            let name = std_name(m)?;
            STD_TEMPLATES
                .iter()
                .find(|(t, _)| *t == name)
                .map(|(_, h)| *h)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `X` of `unknown type name 'X'` and `use of undeclared identifier 'X'`.
fn unknown_name(message: &str) -> Option<&str> {
    ["unknown type name '", "use of undeclared identifier '"]
        .iter()
        .find_map(|p| message.strip_prefix(p))?
        .strip_suffix('\'')
}

/// `X` of the errors for a C++ library name whose header is not included: an undefined
/// `'std::X<...>'`, or no `'X'` in namespace `'std'`.
fn std_name(message: &str) -> Option<&str> {
    if let Some(rest) = message.strip_prefix("implicit instantiation of undefined template 'std::")
    {
        return rest.split(['<', '\'']).next();
    }
    let rest = [
        "no template named '",
        "no member named '",
        "no type named '",
    ]
    .iter()
    .find_map(|p| message.strip_prefix(p))?;
    rest.strip_suffix("' in namespace 'std'")
}

/// What a missing header was read as: nothing, or the CUDA headers it stood for.
pub(crate) fn read_as(standing_for: &[&str]) -> String {
    match standing_for {
        [] => "read as empty".to_string(),
        hs => format!(
            "read as including only {}, for the types the file takes from it",
            hs.iter()
                .map(|h| format!("`{h}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    }
}

/// A refused file's errors, after one error each for the headers that were not found and
/// read as empty: a project's own header missing (its directory not given with `-I`) is most
/// often why the rest fails, and the errors alone do not say so.
pub(crate) fn with_missing_headers(
    mut e: super::FrontendError,
    (missing, standing_for): (&[String], &[&str]),
) -> super::FrontendError {
    let read_as = read_as(standing_for);
    let notes = missing.iter().map(|h| Diagnostic {
        severity: Severity::Error,
        message: format!(
            "`{h}` not found, {read_as}: errors may come from it (give its directory \
             with -I, or the build's flags with -p)"
        ),
        span: Default::default(),
        source_line: None,
    });
    e.diagnostics.splice(0..0, notes);
    e
}

/// A header the include path did not reach, read from the project (`project_headers`).
pub(crate) fn found_header_warning(
    header: &str,
    found: &super::project_headers::Found,
) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message: format!(
            "`{header}` is not on the include path: read `{}`, the nearest file of that name in \
             the project (give its directory with -I, or the build's flags with -p, if another \
             is meant)",
            found.file.display()
        ),
        span: Default::default(),
        source_line: None,
    }
}

/// A refused file's errors, after the headers read from the project: the errors may come from
/// one that is not the header meant.
pub(crate) fn with_found_headers(
    mut e: super::FrontendError,
    found: &[(String, super::project_headers::Found)],
) -> super::FrontendError {
    let notes = found.iter().map(|(h, f)| found_header_warning(h, f));
    e.diagnostics.splice(0..0, notes);
    e
}

/// The errors without those clang derives from another on the same line: an initializer with
/// an error leaves a `const` variable of a template's instantiation "default initialized",
/// which only hides the cause (`const int n = W / BF;` with `BF` not defined).
pub(crate) fn without_consequences(errors: Vec<ClangError>) -> Vec<ClangError> {
    let derived = |e: &ClangError| {
        e.diagnostic
            .message
            .starts_with("default initialization of an object of const type")
            && errors.iter().any(|o| {
                o.at.file == e.at.file && o.at.line == e.at.line && o.at.column > e.at.column
            })
    };
    let keep: Vec<bool> = errors.iter().map(|e| !derived(e)).collect();
    errors
        .into_iter()
        .zip(keep)
        .filter_map(|(e, k)| k.then_some(e))
        .collect()
}

/// A source range by expansion locations, to test whether an error lies inside a declaration.
struct Extent {
    file: PathBuf,
    start: (u32, u32),
    end: (u32, u32),
}

impl Extent {
    fn of(e: Entity) -> Option<Extent> {
        let r = e.get_range()?;
        let (s, t) = (
            r.get_start().get_expansion_location(),
            r.get_end().get_expansion_location(),
        );
        Some(Extent {
            file: s.file?.get_path(),
            start: (s.line, s.column),
            end: (t.line, t.column),
        })
    }

    fn contains(&self, at: &RawLoc) -> bool {
        // The lines first: comparing paths may ask the file system.
        self.start <= (at.line, at.column)
            && (at.line, at.column) <= self.end
            && at.file.as_ref().is_some_and(|f| same_path(f, &self.file))
    }
}

fn same_path(a: &PathBuf, b: &PathBuf) -> bool {
    a == b
        || a.canonicalize()
            .ok()
            .is_some_and(|c| Some(c) == b.canonicalize().ok())
}

/// Why a kernel cannot be read: the errors (indices) in its text, in a declaration it refers
/// to or in a function it calls (transitively), and a declaration it refers to that clang
/// marked invalid. `None` when there is neither.
pub(crate) fn kernel_errors(kernel: Entity, errors: &[ClangError]) -> Option<Unreadable> {
    // Clang marks declarations invalid only where it reported an error.
    if errors.is_empty() {
        return None;
    }
    let mut out = Unreadable::default();
    let mut seen = HashSet::default();
    let mut pending = vec![kernel];
    while let Some(d) = pending.pop() {
        if !seen.insert(d) {
            continue;
        }
        if let Some(extent) = Extent::of(d) {
            for (i, e) in errors.iter().enumerate() {
                if extent.contains(&e.at) && !out.errors.contains(&i) {
                    out.errors.push(i);
                }
            }
        }
        visit(d, &mut |x| {
            let Some(r) = x.get_reference() else { return };
            if r.is_invalid_declaration() && out.invalid.is_none() {
                out.invalid = Some(r.get_display_name().unwrap_or_default());
            }
            let in_user_code = r.get_location().is_some_and(|l| !l.is_in_system_header());
            if in_user_code && r != d {
                pending.push(r.get_definition().unwrap_or(r));
            }
        });
    }
    out.errors.sort_unstable();
    (!out.errors.is_empty() || out.invalid.is_some()).then_some(out)
}

#[derive(Default)]
pub(crate) struct Unreadable {
    pub errors: Vec<usize>,
    /// A declaration it refers to that clang could not make sense of (named).
    pub invalid: Option<String>,
}

/// The errors outside every kernel's reach, one warning per enclosing host function (or
/// declaration): that code is not read, and nothing the analysis uses depends on it.
pub(crate) fn host_warnings(
    errors: &[ClangError],
    charged: &HashSet<usize>,
    owners: &Owners,
) -> Vec<Diagnostic> {
    let mut out: Vec<(Option<Entity>, Diagnostic, usize)> = Vec::new();
    for (i, e) in errors.iter().enumerate() {
        if charged.contains(&i) {
            continue;
        }
        let owner = owners.of(&e.at);
        match out
            .iter_mut()
            .find(|(o, _, _)| owner.is_some() && *o == owner)
        {
            Some((_, _, count)) => *count += 1,
            None => out.push((owner, e.diagnostic.clone(), 1)),
        }
    }
    out.into_iter()
        .map(|(owner, mut d, count)| {
            let place = match owner.and_then(|o| o.get_name()) {
                Some(n) => format!("`{n}` not read (no kernel depends on it)"),
                None => "host code not read".to_string(),
            };
            let more = match count {
                1 => String::new(),
                n => format!(
                    "; {} more error{} there",
                    n - 1,
                    if n == 2 { "" } else { "s" }
                ),
            };
            d.severity = Severity::Warning;
            d.message = format!("{place}: {}{more}", d.message);
            d
        })
        .collect()
}

/// The declarations of the user's files an error can be charged to: functions (also inside
/// classes, namespaces and templates), variables, types; innermost first.
pub(crate) struct Owners<'tu>(Vec<(Entity<'tu>, Extent)>);

impl<'tu> Owners<'tu> {
    pub fn new(top: &[Entity<'tu>]) -> Self {
        let mut all = Vec::new();
        for d in top {
            collect_owners(*d, &mut all);
        }
        // Children were pushed after their parents: reversed, a method comes before its class.
        all.reverse();
        Owners(
            all.into_iter()
                .filter_map(|d| Some((d, Extent::of(d)?)))
                .collect(),
        )
    }

    /// The innermost declaration containing `at`.
    pub fn of(&self, at: &RawLoc) -> Option<Entity<'tu>> {
        self.0.iter().find(|(_, x)| x.contains(at)).map(|(d, _)| *d)
    }
}

fn collect_owners<'tu>(d: Entity<'tu>, out: &mut Vec<Entity<'tu>>) {
    use EntityKind as K;
    match d.get_kind() {
        K::StructDecl | K::ClassDecl | K::UnionDecl | K::ClassTemplate | K::Namespace => {
            out.push(d);
            for c in d.get_children() {
                collect_owners(c, out);
            }
        }
        K::FunctionDecl
        | K::FunctionTemplate
        | K::Method
        | K::Constructor
        | K::Destructor
        | K::ConversionFunction
        | K::VarDecl
        | K::TypedefDecl
        | K::TypeAliasDecl
        | K::EnumDecl => out.push(d),
        _ => {}
    }
}
