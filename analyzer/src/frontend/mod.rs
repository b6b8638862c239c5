//! The CUDA front end: parses a `.cu` file with libclang (no CUDA toolkit needed: gmrace ships
//! stand-in headers) and lowers every kernel to IR.
//!
//! API boundary: `parse_file`, `parse_source`.
//!
//! libclang allows one `Clang` instance per process at a time, so parses are serialised by a
//! process-wide lock; lowering happens under the same lock because it walks the clang AST.
//! This module runs libclang as `-x cuda --cuda-device-only -nocudainc -nocudalib` with gmrace's
//! headers force-included, and turns clang's errors into located `FrontendError`s. Explicit
//! instantiations are invisible to libclang, so a reference to each is appended after the
//! file's last line.
//!
//! The prelude is precompiled once per header set and libclang version (`Prelude::pch`, saved
//! next to the headers, made from a wrapper that includes it through the system path so that
//! its declarations stay system declarations) and given with `-include-pch`: parsing the
//! prelude was most of a small file's parse time. The C++ library headers a file includes are
//! precompiled with it (`library`). A file whose parse fails with what was precompiled (a `-D`
//! clashing with a precompiled macro) is parsed again with less (`Precompiled`); errors that do
//! not name the precompiled header (host code that needs a missing header) are the file's own,
//! the same with either, and cost no second parse.
//!
//! Deliberately absent: host code is not lowered (only its launches are read); no CUDA toolkit
//! is ever needed; there is no global state besides the libclang lock and the header directory.

mod builtins;
mod context;
mod cursor;
mod depth;
mod directives;
mod elements;
mod fold;
mod guards;
pub mod header_comment;
mod headers;
mod host_calls;
mod instantiations;
mod launch_bounds;
mod launches;
mod library;
mod lower;
mod objects;
mod prelude;
mod project_headers;
mod reaching;
mod recovery;
mod respell;
mod returns;
mod skipped;
mod toolkit;
mod types;
mod unfound;
mod virtuals;

use crate::ir::*;
use clang::{Clang, Entity, EntityKind, Index, TranslationUnit, Unsaved};
use context::ModuleCtx;
use prelude::{Precompiled, Prelude};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use context::{decode_source, read_source, SourceText};
pub use headers::include_dir;
pub use launches::strip_comments;
pub use prelude::readable_arch;
pub use toolkit::Headers;

static CLANG_LOCK: Mutex<()> = Mutex::new(());

#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// `-I DIR`.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`.
    pub defines: Vec<(String, Option<String>)>,
    /// The stand-ins unless a toolkit is named (the CLI searches for one: `Headers::find`).
    pub headers: Headers,
    /// A build's own flags for the file (`compile_commands.json`).
    pub build: BuildFlags,
    /// What the other files of the program pass to the file's external functions, by USR
    /// (`HostCalls::wanted` of a first read; `fold::caller_value`).
    pub callers: Callers,
}

/// The calls of a file's functions in the other files of its program, by USR.
pub type Callers = crate::collections::HashMap<String, CallerValues>;

/// What the calls of one function in the program's other files pass, when they are all its
/// calls there (the command line knows, from the files that name it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallerValues {
    /// How many calls: none, and the file's own calls are all there are.
    pub calls: usize,
    /// Each parameter's value where every call passes the same one; empty where they cannot
    /// be known (a file takes the function's address, or cannot be read), with `calls` at
    /// least 1.
    pub args: Vec<Option<ArgValue>>,
    /// `main.cu:30`, each call's place.
    pub places: Vec<String>,
}

/// What a project's build passes its compiler, in clang's terms: each replaces gmrace's
/// default (C++17, `sm_70`) or adds to the command line's `-I`/`-D`, which come after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildFlags {
    /// `-I`, `-isystem`, `-D`, `-U`, `-include`, in the build's order.
    pub args: Vec<String>,
    /// `c++14`, ...
    pub std: Option<String>,
    /// `sm_80`, ...
    pub gpu_arch: Option<String>,
}

/// gmrace could not turn the input into IR (unreadable file, clang errors).
#[derive(Clone, Debug)]
pub struct FrontendError {
    pub files: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

impl FrontendError {
    fn plain(file: &str, message: String) -> Self {
        FrontendError {
            files: vec![file.to_string()],
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                message,
                span: Span::default(),
                source_line: None,
            }],
        }
    }
}

pub fn parse_file(path: &Path, opts: &FrontendOptions) -> Result<Module, FrontendError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| FrontendError::plain(&name, format!("cannot read `{name}`: {e}")))?;
    let source = context::decode_source(bytes);
    let mut m = parse_source(&name, &source.text, opts)?;
    if let Some(line) = source.first_invalid_line {
        let warning = context::not_utf8_warning(&name, 0, line, &source.text);
        m.diagnostics.insert(0, warning);
    }
    Ok(m)
}

/// Parses `source` as if it were the file `name` (which need not exist).
pub fn parse_source(
    name: &str,
    source: &str,
    opts: &FrontendOptions,
) -> Result<Module, FrontendError> {
    if source.contains('\0') {
        return Err(FrontendError::plain(
            name,
            format!("`{name}` contains NUL bytes; it is not CUDA source"),
        ));
    }
    let header = header_comment::parse(source);
    let include = headers::include_dir()
        .map_err(|e| FrontendError::plain(name, format!("cannot write gmrace's headers: {e}")))?;
    let prelude = Prelude::new(&include, &opts.headers, &opts.build);
    let args = clang_args(name, &prelude, &header, opts);
    let original_lines = source.lines().count() as u32;
    let classes = instantiations::explicit_class_instantiations(source);
    let mut members_named = classes.is_empty();
    let mut text = instantiations::with_instantiations(source, &[]);
    let mut respelled = false;
    // The project's headers clang refused where nvcc reads them, respelled (`respell`).
    let mut headers_respelled: Vec<(PathBuf, String)> = Vec::new();

    let _guard = CLANG_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let clang = Clang::new().map_err(|e| FrontendError::plain(name, format!("libclang: {e}")))?;
    let index = Index::new(&clang, false, false);
    let pre = project_headers::prefind(Path::new(name), source, &search_path(&args, &include));
    let mut pch = {
        // All of the command line but the file's own directory, which the library precedes.
        let extra: Vec<String> = args[prelude.args.len()..]
            .iter()
            .filter(|a| **a != file_dir_arg(name).unwrap_or_default())
            .cloned()
            .collect();
        let library = match includes_more(&extra) {
            true => Vec::new(),
            false => library::headers(&pre),
        };
        Precompiled::new(&prelude, &index, library, &extra)
    };
    // Each redefined standard type, with the error clang gave and the file it was in.
    let mut compat: Vec<(&str, Diagnostic, String)> = Vec::new();
    let mut unfound = unfound::Unfound::new(pre.found, &include);
    loop {
        let mut attempt_args = pch.args(&prelude);
        attempt_args.extend(args.iter().cloned());
        for (c, _, _) in &compat {
            attempt_args.push("-include".into());
            attempt_args.push(format!("gmrace_compat_{c}.h"));
        }
        let mut unsaved = vec![Unsaved::new(name, &text)];
        unsaved.extend(headers_respelled.iter().map(|(p, t)| Unsaved::new(p, t)));
        unfound.add_to(&mut attempt_args, &mut unsaved);
        let parsed = index
            .parser(name)
            .arguments(&attempt_args)
            .unsaved(&unsaved)
            .detailed_preprocessing_record(true)
            // A header not found ends clang's parse; going on shows every missing header of
            // the file in one parse instead of one parse each.
            .keep_going(true)
            .parse();
        let mut ctx = ModuleCtx::new(name);
        ctx.set_text(0, source.to_string());
        let errors = parsed
            .as_ref()
            .ok()
            .map(|tu| clang_errors(tu, &mut ctx, name, original_lines));
        if unfound.parse_again(Path::new(name), parsed.as_ref().ok(), errors.as_deref()) {
            continue;
        }
        // The file clashes with something precompiled (a macro of the prelude defined otherwise
        // on the command line, say), or did not include a library header precompiled.
        if pch.parse_again((&prelude, &index), parsed.as_ref().ok(), errors.as_deref()) {
            continue;
        }
        if let (false, Ok(tu)) = (members_named, &parsed) {
            members_named = true;
            let members = instantiations::class_members(&user_decls(tu.get_entity()), &classes);
            if !members.is_empty() {
                text = instantiations::with_instantiations(source, &members);
                continue;
            }
        }
        if !respelled {
            respelled = true;
            let refused = parsed.as_ref().map(errors_by_file).unwrap_or_default();
            let mut again = false;
            for (file, errors) in refused {
                if same_file(&file, name) {
                    if let Some(t) = respell::respell(&text, &errors) {
                        (text, again) = (t, true);
                    }
                } else if let Some(t) = std::fs::read_to_string(&file)
                    .ok()
                    .and_then(|t| respell::respell(&t, &errors))
                {
                    headers_respelled.push((PathBuf::from(file), t));
                    again = true;
                }
            }
            if again {
                continue;
            }
        }
        let tu = parsed.map_err(|e| {
            FrontendError::plain(name, format!("libclang could not parse `{name}`: {e}"))
        })?;
        let errors =
            recovery::without_missing_includes(errors.unwrap_or_default(), &unfound.missing);
        let redefined = redefined_standard_types(&errors);
        if compat.is_empty() && !redefined.is_empty() {
            compat = redefined
                .into_iter()
                .map(|(n, d)| {
                    let path = ctx
                        .files
                        .get(d.span.file as usize)
                        .cloned()
                        .unwrap_or_default();
                    (n, d, path)
                })
                .collect();
            // The file's macro renames the type in the library headers it includes after it.
            pch.without_library(&prelude, &index);
            continue;
        }
        if let Some(e) = depth::too_deep(&user_decls(tu.get_entity()), &mut ctx) {
            return Err(FrontendError {
                files: ctx.files,
                diagnostics: vec![e],
            });
        }
        let lowered = lower_module(&tu, ctx, header, &errors, (name, source), &opts.callers);
        let mut m = lowered.map_err(|e| {
            let e = recovery::with_missing_headers(e, (&unfound.missing, &unfound.standing_for));
            recovery::with_found_headers(e, &unfound.found)
        })?;
        recovery_warnings(&mut m, (&unfound.missing, &unfound.standing_for), compat);
        for (h, f) in unfound.found.iter().rev() {
            m.diagnostics
                .insert(0, recovery::found_header_warning(h, f));
        }
        return Ok(m);
    }
}

/// clang's arguments for `name`: the prelude, the file's directory and `-I` directories, and
/// the header's and the command line's `-D`s. The file's directory comes after the system
/// headers (`-idirafter`): projects include their own headers by `<name>` as if built with
/// `-I.`, but a project header named like a CUDA one (darknet's `cuda.h`) must not hide the
/// toolkit's from clang's CUDA wrapper; `"name"` finds it first anyway.
fn clang_args(
    name: &str,
    prelude: &Prelude,
    header: &HeaderConfig,
    opts: &FrontendOptions,
) -> Vec<String> {
    let mut args = prelude.args.clone();
    args.extend(file_dir_arg(name));
    args.extend(opts.build.args.iter().cloned());
    for d in &opts.include_dirs {
        args.push(format!("-I{}", d.display()));
    }
    for (n, v) in header.defines.iter().chain(&opts.defines) {
        args.push(match v {
            Some(v) => format!("-D{n}={v}"),
            None => format!("-D{n}"),
        });
    }
    args
}

/// The file's own directory, searched after the system's.
fn file_dir_arg(name: &str) -> Option<String> {
    let dir = Path::new(name)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())?;
    Some(format!("-idirafter{}", dir.display()))
}

/// Whether `args` include a file before the main one (`-include`, `-imacros`), which would be
/// read before the C++ library headers precompiled, not after.
fn includes_more(args: &[String]) -> bool {
    args.iter()
        .any(|a| a.starts_with("-include") || a.starts_with("-imacros"))
}

/// The directories of `args`' include path: the project's (`-I`, `-idirafter`: the file's own),
/// gmrace's (under `include`: the stand-ins, PyTorch's declarations) and the system's
/// (`-isystem`, the toolkit's).
fn search_path(args: &[String], include: &Path) -> project_headers::SearchPath {
    let mut path = project_headers::SearchPath {
        project: Vec::new(),
        ours: Vec::new(),
        system: Vec::new(),
    };
    let mut words = args.iter().map(String::as_str);
    while let Some(w) = words.next() {
        let dir = if w == "-isystem" {
            words.next()
        } else {
            w.strip_prefix("-isystem")
        };
        if let Some(d) = dir {
            path.system.push(d.into());
        } else if let Some(root) = w.strip_prefix("--cuda-path=") {
            path.system.push(Path::new(root).join("include"));
        } else if let Some(d) = w.strip_prefix("-I").or(w.strip_prefix("-idirafter")) {
            path.project.push(d.into());
        }
    }
    for dirs in [&mut path.project, &mut path.system] {
        path.ours
            .extend(dirs.iter().filter(|d| d.starts_with(include)).cloned());
        dirs.retain(|d| !d.starts_with(include));
    }
    path
}

/// The warnings of what the parse repaired, first: headers read as empty, and standard types
/// the file redefines (each with the file it is in).
fn recovery_warnings(
    m: &mut Module,
    (missing, standing_for): (&[String], &[&str]),
    compat: Vec<(&str, Diagnostic, String)>,
) {
    for h in missing.iter().rev() {
        m.diagnostics
            .insert(0, missing_header_warning(h, standing_for));
    }
    for (c, mut at, path) in compat {
        at.span.file = match m.files.iter().position(|f| *f == path) {
            Some(i) => i as FileId,
            None => {
                m.files.push(path);
                (m.files.len() - 1) as FileId
            }
        };
        m.diagnostics.insert(
            0,
            Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "this file defines `{c}` as a different type than the system headers; its own definition is used in its code"
                ),
                ..at
            },
        );
    }
}

fn missing_header_warning(header: &str, standing_for: &[&str]) -> Diagnostic {
    let read_as = recovery::read_as(standing_for);
    Diagnostic {
        severity: Severity::Warning,
        message: format!("`{header}` not found: {read_as} (the code that needs it is not read)"),
        span: Span::default(),
        source_line: None,
    }
}

/// Standard typedefs (`size_t`, ...) a file redefines as another type: GPUVerify's benchmarks
/// assume a 32-bit environment and do. Such a file is parsed once more with its own definition.
fn redefined_standard_types(errors: &[recovery::ClangError]) -> Vec<(&'static str, Diagnostic)> {
    let mut out = Vec::new();
    for e in errors.iter().map(|e| &e.diagnostic) {
        if !e
            .message
            .starts_with("typedef redefinition with different types")
        {
            continue;
        }
        let line = e.source_line.as_deref().unwrap_or_default();
        for name in ["size_t", "clock_t", "ptrdiff_t"] {
            let declares = line.contains("typedef")
                && line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| w == name);
            if declares && out.iter().all(|(n, _)| *n != name) {
                out.push((name, e.clone()));
            }
        }
    }
    out
}

/// The errors clang reported, located; those in the appended instantiation references are not
/// the user's.
fn clang_errors(
    tu: &TranslationUnit,
    ctx: &mut ModuleCtx,
    name: &str,
    original_lines: u32,
) -> Vec<recovery::ClangError> {
    let mut errors = Vec::new();
    for d in tu.get_diagnostics() {
        use clang::diagnostic::Severity as S;
        let error = matches!(d.get_severity(), S::Error | S::Fatal);
        if !error && !d.get_text().contains("'register' storage class") {
            continue;
        }
        let loc = d.get_location().get_expansion_location();
        let file = loc.file.map(|f| f.get_path().display().to_string());
        let in_main = file.as_deref().is_none_or(|f| same_file(f, name));
        if in_main && loc.line > original_lines {
            continue;
        }
        let fid = file.map(|f| ctx.file_id(&f)).unwrap_or(0);
        if let Some(f) = loc.file {
            ctx.load_text(tu, fid, f);
        }
        let column = ctx.text_column(fid, loc.line, loc.column);
        let span = Span {
            file: fid,
            line: loc.line,
            column,
            end_line: loc.line,
            end_column: column,
        };
        let diagnostic = Diagnostic {
            severity: Severity::Error,
            message: d.get_text(),
            source_line: ctx.source_line(span),
            span,
        };
        if !error {
            ctx.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                ..diagnostic
            });
            continue;
        }
        errors.push(recovery::ClangError {
            diagnostic,
            at: recovery::RawLoc {
                file: loc.file.map(|f| f.get_path()),
                line: loc.line,
                column: loc.column,
            },
        });
    }
    recovery::without_consequences(errors)
}

/// clang's errors in the file and the project's headers (not in system headers: the toolkit,
/// gmrace's stand-ins, the C++ library), by file in the order first met: message, line and
/// byte column (for `respell`).
fn errors_by_file(tu: &TranslationUnit) -> Vec<(String, Vec<respell::ErrorAt>)> {
    use clang::diagnostic::Severity as S;
    let mut out: Vec<(String, Vec<respell::ErrorAt>)> = Vec::new();
    for d in tu.get_diagnostics() {
        let at = d.get_location();
        if !matches!(d.get_severity(), S::Error | S::Fatal) || at.is_in_system_header() {
            continue;
        }
        let loc = at.get_spelling_location();
        let Some(file) = loc.file.map(|f| f.get_path().display().to_string()) else {
            continue;
        };
        let error = (d.get_text(), loc.line, loc.column);
        match out.iter_mut().find(|(f, _)| *f == file) {
            Some((_, errors)) => errors.push(error),
            None => out.push((file, vec![error])),
        }
    }
    out
}

fn same_file(a: &str, b: &str) -> bool {
    a == b || Path::new(a).canonicalize().ok() == Path::new(b).canonicalize().ok()
}

/// Lowers every kernel clang could read; the others are listed as not analysed, and errors
/// no kernel depends on are warnings. An error only when errors leave no kernel to analyse in a
/// file that has one (`mentions_global`: its text says `__global__`).
fn lower_module<'tu>(
    tu: &'tu TranslationUnit<'tu>,
    mut ctx: ModuleCtx<'tu>,
    header: HeaderConfig,
    errors: &[recovery::ClangError],
    (name, source): (&str, &str),
    callers: &Callers,
) -> Result<Module, FrontendError> {
    let mentions_global = source.contains("__global__");
    let decls = user_decls(tu.get_entity());
    let mut found = launches::Found::new(callers);
    for e in &decls {
        launches::collect(*e, &mut ctx, &mut found);
    }
    let mut kernels: Vec<Kernel> = Vec::new();
    let (mut not_analysed, unused_templates) = never_instantiated(&found, &mut ctx, source);
    let mut charged = crate::collections::HashSet::default();
    for (func, name) in found.kernels {
        if kernels.iter().any(|k| k.name == name)
            || not_analysed.iter().any(|n: &NotAnalysed| n.name == name)
        {
            continue;
        }
        if let Some(why) = recovery::kernel_errors(func, errors) {
            charged.extend(why.errors.iter().copied());
            not_analysed.push(NotAnalysed {
                reason: unreadable_reason(&why, errors, &ctx.files),
                span: ctx.span(func),
                name,
            });
            continue;
        }
        let mut k = lower::KernelLowerer::lower(&mut ctx, func, name);
        space::infer(&mut k, &ctx.globals);
        kernels.push(k);
    }
    let known: Vec<String> = kernels
        .iter()
        .map(|k| k.name.clone())
        .chain(not_analysed.iter().map(|n| n.name.clone()))
        .collect();
    not_analysed.extend(skipped::kernels(tu, name, source, &known));
    // A file whose text has a kernel but whose tree has none readable is refused; a host-only
    // file with errors is not: it has nothing to analyse, and says so.
    if kernels.is_empty() && !errors.is_empty() && (mentions_global || !not_analysed.is_empty()) {
        // The errors that kept the kernels from being read, and those outside every declaration
        // (`#error`); not those of host functions.
        let owners = recovery::Owners::new(&decls);
        let shown: Vec<Diagnostic> = errors
            .iter()
            .enumerate()
            .filter(|(i, e)| charged.contains(i) || owners.of(&e.at).is_none())
            .map(|(_, e)| e.diagnostic.clone())
            .collect();
        // Kernel templates the host code's errors kept from being instantiated are listed with
        // those errors as warnings; with no kernel listed, every error is the reason.
        match (shown.is_empty(), not_analysed.is_empty()) {
            (false, _) => {
                return Err(FrontendError {
                    files: ctx.files,
                    diagnostics: shown,
                });
            }
            (true, true) => {
                return Err(FrontendError {
                    files: ctx.files,
                    diagnostics: errors.iter().map(|e| e.diagnostic.clone()).collect(),
                });
            }
            (true, false) => {}
        }
    }
    if !errors.is_empty() {
        for n in &mut not_analysed {
            if n.reason == NEVER_INSTANTIATED {
                n.reason = format!(
                    "{NEVER_INSTANTIATED} (host code with errors is not read: see the warnings)"
                );
            }
        }
    }
    kernels.sort_by_key(|k| (k.span.file, k.span.line));
    not_analysed.sort_by_key(|k| (k.span.file, k.span.line));
    let host = host_calls::of(
        tu.get_entity(),
        &found.changes,
        !errors.is_empty(),
        &mut ctx,
    );
    let mut diagnostics = ctx.diagnostics;
    diagnostics.extend(recovery::host_warnings(
        errors,
        &charged,
        &recovery::Owners::new(&decls),
    ));
    diagnostics.sort_by_key(|d| (d.span.file, d.span.line, d.span.column));
    let functions = ctx
        .function_refs
        .iter()
        .map(|f| f.get_name().unwrap_or_default())
        .collect();
    launches::keep_ruled_out_alone(&mut found.launches);
    Ok(Module {
        functions,
        files: ctx.files,
        kernels,
        globals: ctx.globals,
        launches: found.launches,
        header,
        not_analysed,
        unused_templates,
        diagnostics,
        host,
    })
}

/// Kernel templates nothing in the file instantiates: listed, since no analysis can run on a
/// kernel whose types and constants are not known. Not those a header defines that neither the
/// file's own text nor the rest of that header names: they are the header's, for the files that
/// use them (a `.cu` of a library that includes its kernels' header and launches none of them
/// has nothing to analyse, not an error), and no host code of the file, read or not, can
/// instantiate them: those are returned second. (A `.cu` read through its includer counts as
/// the header here: its own launchers name its templates.)
fn never_instantiated<'tu>(
    found: &launches::Found<'tu>,
    ctx: &mut ModuleCtx<'tu>,
    source: &str,
) -> (Vec<NotAnalysed>, Vec<NotAnalysed>) {
    let (mut out, mut unused) = (Vec::new(), Vec::new());
    // Code names them, not comments (`// fill() is for callers that ...`).
    let source = launches::strip_comments(source);
    let mut headers: crate::collections::HashMap<FileId, String> = Default::default();
    for t in &found.kernel_templates {
        let instantiated = found
            .kernels
            .iter()
            .any(|(k, _)| k.get_template() == Some(*t));
        let name = t.get_name().unwrap_or_default();
        let span = ctx.span(*t);
        let mut named_elsewhere = || {
            let own = span.line..=span.end_line;
            let header = headers.entry(span.file).or_insert_with(|| {
                launches::strip_comments(ctx.text(span.file).unwrap_or_default())
            });
            names(&source, &name)
                || (1..)
                    .zip(header.lines())
                    .any(|(line, text)| !own.contains(&line) && names(text, &name))
        };
        if instantiated {
            continue;
        }
        let header_only = span.file != 0 && !named_elsewhere();
        (if header_only { &mut unused } else { &mut out }).push(NotAnalysed {
            name,
            reason: NEVER_INSTANTIATED.into(),
            span,
        });
    }
    (out, unused)
}

/// Whether `text` has `name` as a whole identifier.
fn names(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + name.len()..].chars().next();
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
}

/// `line 12: use of undeclared identifier 'x'`, with the file when it is not the main one.
fn unreadable_reason(
    why: &recovery::Unreadable,
    errors: &[recovery::ClangError],
    files: &[String],
) -> String {
    match (why.errors.first(), &why.invalid) {
        (Some(&i), _) => {
            let d = &errors[i].diagnostic;
            let file = match d.span.file {
                0 => String::new(),
                f => format!("{}, ", files.get(f as usize).map_or("?", String::as_str)),
            };
            let more = match why.errors.len() {
                1 => String::new(),
                n => format!(" ({} more)", n - 1),
            };
            format!("{file}line {}: {}{more}", d.span.line, d.message)
        }
        (None, Some(name)) => format!("it uses `{name}`, which clang could not read"),
        (None, None) => "clang could not read it".to_string(),
    }
}

/// Top-level declarations outside system and gmrace headers, looking inside namespaces and
/// `extern "C"` blocks.
fn user_decls(root: Entity) -> Vec<Entity> {
    let mut out = Vec::new();
    for c in root.get_children() {
        if c.get_location()
            .map(|l| l.is_in_system_header())
            .unwrap_or(true)
        {
            continue;
        }
        match c.get_kind() {
            EntityKind::Namespace | EntityKind::LinkageSpec | EntityKind::UnexposedDecl => {
                out.extend(user_decls(c))
            }
            _ => out.push(c),
        }
    }
    out
}
