//! Many files at once (`gmrace analyze DIR`, or the files of a build): read one after the
//! other, because libclang allows one instance per process (the front end's lock); then each
//! file's kernels get the launches other files make of them (`program`); then all files are
//! analysed in parallel. Reading every file before analysing any is what lets `main.cu`'s
//! launch reach the kernel `kernels.cu` defines, whichever is read first (one file named alone
//! takes its neighbours' launches the same way: `launchers`). Every kernel gets its
//! own z3 context on the thread that analyses it (`z3::with_z3_config` sets a thread-local
//! context), so kernels share no solver state.
//!
//! The analysis runs in a rayon pool (with the main thread's stack) whose workers take files
//! and, within a file, kernels. Since z3 contexts are independent, a kernel's verdicts do not
//! depend on what runs beside it (save the wall-clock safety net, which can turn a verdict into
//! `unknown` on a badly loaded machine). Outcomes (`FileOutcome`: reports, diagnostics, errors
//! without a location, time; the errors are also JSON's `"errors"`) are in the order of the
//! inputs, whatever the schedule was.

use super::compile_db::CompileDb;
use crate::render;
use crate::sarif::{errors_json, notice, Level, Notice};
use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport};
use gmrace_analyzer::frontend::{self, BuildFlags, Callers, FrontendError, FrontendOptions};
use gmrace_analyzer::ir::{
    Diagnostic, HostCalls, Module, NotAnalysed, Severity, NEVER_INSTANTIATED,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What analysing one file gave: its kernels' reports and whatever went wrong.
pub struct FileOutcome {
    pub path: PathBuf,
    pub reports: Vec<KernelReport>,
    /// The file table that `diagnostics`' spans index.
    pub files: Vec<String>,
    /// Front-end warnings, and errors with a location.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors without a location, each with a hint.
    pub errors: Vec<(String, Option<String>)>,
    /// Kernels of the file that could not be read: warnings shown even when `quiet`, since
    /// the summary does not count them.
    pub not_analysed: Vec<NotAnalysed>,
    /// Parsing plus the analysis of every kernel (not the time spent waiting for libclang).
    pub time: Duration,
}

impl FileOutcome {
    /// Whether gmrace could not analyse all of the file (exit status 2).
    pub fn failed(&self) -> bool {
        // A header's template listed for the program is not this file's, and a template no
        // host code (read without errors) instantiates leaves nothing unread.
        let nothing_read = self.reports.is_empty()
            && self.not_analysed.iter().any(|n| {
                n.reason != super::program::UNUSED_IN_PROGRAM && n.reason != NEVER_INSTANTIATED
            });
        nothing_read
            || !self.errors.is_empty()
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error)
    }

    /// Drops the solver's time and work, which differ from run to run, from the reports
    /// (`--timing` keeps them).
    pub fn forget_times(&mut self) {
        for r in &mut self.reports {
            r.stats.solver_ms = None;
            r.stats.solver_work = None;
        }
    }

    /// Warnings (unless `quiet`) and errors, on stderr.
    pub fn print_diagnostics(&self, quiet: bool) {
        let shown: Vec<Diagnostic> = self.shown_diagnostics(quiet);
        render::diagnostics(&self.files, &shown);
        for (message, hint) in &self.errors {
            render::error(message, hint.as_deref());
        }
    }

    /// The errors, for the JSON report: `{"file", "line", "column", "message"}`, the position
    /// null when the error has none.
    pub fn errors_json(&self) -> Vec<serde_json::Value> {
        errors_json(&self.notices(true), &self.path.display().to_string())
    }

    /// Warnings unless `quiet`, kernels not analysed, errors.
    fn shown_diagnostics(&self, quiet: bool) -> Vec<Diagnostic> {
        let mut shown: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| !quiet || d.severity == Severity::Error)
            .cloned()
            .collect();
        shown.extend(
            self.not_analysed
                .iter()
                .map(|n| render::not_analysed(&self.files, n)),
        );
        shown.sort_by_key(|d| (d.span.file, d.span.line, d.span.column));
        shown
    }

    /// `{"file", "name", "reason", "line", "column"}` for each kernel not analysed.
    pub fn not_analysed_json(&self) -> Vec<serde_json::Value> {
        self.not_analysed
            .iter()
            .map(|n| {
                serde_json::json!({
                    "file": self.files.get(n.span.file as usize),
                    "name": n.name,
                    "reason": n.reason,
                    "line": n.span.line,
                    "column": n.span.column,
                })
            })
            .collect()
    }

    /// The same, for a SARIF log's invocation.
    pub fn notices(&self, quiet: bool) -> Vec<Notice> {
        let file = self.path.display().to_string();
        let located = self
            .shown_diagnostics(quiet)
            .into_iter()
            .map(|d| notice(&self.files, &d, &file));
        let plain = self.errors.iter().map(|(message, _)| Notice {
            level: Level::Error,
            message: message.clone(),
            place: None,
        });
        located.chain(plain).collect()
    }
}

/// A file to read, and what to say of it.
pub struct Input {
    pub path: PathBuf,
    /// `path` is read for this file, which it includes (`analyze FRAGMENT`): only the kernels
    /// defined there are reported.
    pub fragment: Option<PathBuf>,
    /// Said before the file's own diagnostics.
    pub notes: Vec<Diagnostic>,
}

impl Input {
    pub fn plain(path: PathBuf) -> Input {
        Input {
            path,
            fragment: None,
            notes: Vec::new(),
        }
    }
}

pub struct Job<'a> {
    pub kernel: Option<&'a str>,
    /// One file was given, not a directory: a file without `kernel` is an error, not skipped,
    /// and one without any kernel gets a warning.
    pub kernel_required: bool,
    /// The command line's reading of every file; a file the build compiles adds its own flags.
    pub front: FrontendOptions,
    pub build: Option<&'a CompileDb>,
    pub opts: AnalysisOptions,
    /// Draw a progress bar on stderr (the caller checked that it is a terminal).
    pub progress: bool,
}

impl Job<'_> {
    /// How to read `path`: the command line's options, after the build's flags for it; and
    /// warnings for what the build said that is not used.
    fn front_for(&self, path: &Path) -> (FrontendOptions, Vec<Diagnostic>) {
        let Some(db) = self.build else {
            return (self.front.clone(), Vec::new());
        };
        let shown = db.path.display();
        let Some(flags) = db.flags(path) else {
            let note = format!(
                "`{}` is not compiled by `{shown}`: read with the command line's flags only",
                path.display()
            );
            return (self.front.clone(), vec![plain_warning(note)]);
        };
        let mut front = self.front.clone();
        front.build = BuildFlags {
            args: flags.args.clone(),
            std: flags.std.clone(),
            gpu_arch: flags.arch.clone(),
        };
        let ignored = (!flags.ignored.is_empty()).then(|| {
            format!(
                "flags of `{shown}` that gmrace does not use for this file: {}",
                flags.ignored.join(" ")
            )
        });
        let older = flags
            .arch
            .as_deref()
            .and_then(|a| frontend::readable_arch(a).1);
        let notes = ignored
            .into_iter()
            .chain(older)
            .map(plain_warning)
            .collect();
        (front, notes)
    }
}

fn plain_warning(message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message,
        span: Default::default(),
        source_line: None,
    }
}

/// Analyses `inputs`, returning one outcome per input, in the same order.
pub fn analyze_all(inputs: &[Input], job: &Job) -> Vec<FileOutcome> {
    let bar = progress_bar(inputs.len(), job.progress);
    let mut parsed: Vec<Parsed> = inputs
        .iter()
        .map(|input| {
            bar.set_message(format!("reading {}", input.path.display()));
            parse(input, job, &Callers::default())
        })
        .collect();
    read_with_callers(&mut parsed, inputs, job);
    if job.kernel_required {
        for (p, input) in parsed.iter_mut().zip(inputs) {
            if let Ok(m) = &mut p.module {
                launches_beside(&input.path, m, job);
            }
        }
    }
    let mut modules: Vec<Option<&mut Module>> =
        parsed.iter_mut().map(|p| p.module.as_mut().ok()).collect();
    super::program::share_launches(&mut modules);
    if !job.kernel_required {
        // Files analysed together: every kernel their headers define appears once.
        super::program::list_unused_templates(&mut modules);
    }
    // Analysis recurses over kernel IR and z3 terms: give workers the main thread's stack.
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(crate::STACK_BYTES)
        .thread_name(|i| format!("gmrace-analyze-{i}"))
        .build();
    let analyse = || {
        parsed
            .into_par_iter()
            .zip(inputs)
            .map(|(p, input)| {
                let mut outcome = analyze_parsed(&input.path, p.module, job, p.time);
                outcome.diagnostics.splice(0..0, p.notes);
                bar.set_message(input.path.display().to_string());
                bar.inc(1);
                outcome
            })
            .collect()
    };
    let outcomes = match pool {
        Ok(pool) => pool.install(analyse),
        Err(_) => analyse(),
    };
    bar.finish_and_clear();
    outcomes
}

/// A file as the front end read it, before its kernels are analysed.
struct Parsed {
    module: Result<Module, FrontendError>,
    /// The input's notes, then what the build's flags for it said.
    notes: Vec<Diagnostic>,
    time: Duration,
}

/// Reads again each input whose launches wait for the values that the other files of its
/// directory pass (`callers`), with those values; the inputs already read give their calls.
fn read_with_callers(parsed: &mut [Parsed], inputs: &[Input], job: &Job) {
    let read: Vec<(Option<PathBuf>, Option<HostCalls>)> = parsed
        .iter()
        .zip(inputs)
        .map(|(p, input)| {
            let host = p.module.as_ref().ok().map(|m| m.host.clone());
            (input.path.canonicalize().ok(), host)
        })
        .collect();
    let known = |file: &Path| {
        let file = file.canonicalize().ok();
        let at = read.iter().position(|(p, _)| p.is_some() && *p == file)?;
        Some(read[at].1.clone())
    };
    for (p, input) in parsed.iter_mut().zip(inputs) {
        let Ok(m) = &p.module else { continue };
        let callers = super::callers::gather(&input.path, m, &mut |f| {
            known(f).unwrap_or_else(|| host_calls_of(f, job))
        });
        if !callers.is_empty() {
            let again = parse(input, job, &callers);
            p.time += again.time;
            p.module = again.module;
        }
    }
}

/// `m` read again with what the other files of its directory pass its functions, where they
/// pass anything (`callers`); `known` gives the calls of files already read.
pub fn with_callers(
    path: &Path,
    m: Module,
    job: &Job,
    known: &mut dyn FnMut(&Path) -> Option<HostCalls>,
) -> Module {
    let callers = super::callers::gather(path, &m, &mut |f| {
        known(f).or_else(|| host_calls_of(f, job))
    });
    if callers.is_empty() {
        return m;
    }
    parse(&Input::plain(path.to_path_buf()), job, &callers)
        .module
        .unwrap_or(m)
}

/// The calls of another file, read for them.
fn host_calls_of(file: &Path, job: &Job) -> Option<HostCalls> {
    let p = parse(&Input::plain(file.to_path_buf()), job, &Callers::default());
    p.module.ok().map(|m| m.host)
}

/// Reads one input (libclang allows one reader per process: on this thread, one at a time),
/// with what other files pass its functions.
fn parse(input: &Input, job: &Job, callers: &Callers) -> Parsed {
    let start = Instant::now();
    let (mut front, build_notes) = job.front_for(&input.path);
    front.callers = callers.clone();
    let module = frontend::parse_file(&input.path, &front).map(|m| match &input.fragment {
        Some(f) => only_from(m, f),
        None => m,
    });
    Parsed {
        module,
        notes: input.notes.iter().cloned().chain(build_notes).collect(),
        time: start.elapsed(),
    }
}

/// Gives the kernels of `m`, read from `path` on its own, the launches the other files of its
/// directory make of them (`launchers`).
pub fn launches_beside(path: &Path, m: &mut Module, job: &Job) {
    let mut others = Vec::new();
    for file in super::launchers::candidates(path, m) {
        match parse(&Input::plain(file), job, &Callers::default()).module {
            Ok(other) => others.push(other),
            Err(_) => return,
        }
    }
    if others.is_empty() {
        return;
    }
    let mut modules: Vec<Option<&mut Module>> = std::iter::once(Some(m))
        .chain(others.iter_mut().map(Some))
        .collect();
    super::program::share_launches(&mut modules);
}

/// The module with only the kernels (and kernels not analysed) that `file` defines.
fn only_from(mut m: Module, file: &Path) -> Module {
    let target = file.canonicalize().ok();
    let mine: Vec<bool> = m
        .files
        .iter()
        .map(|p| Path::new(p).canonicalize().ok() == target)
        .collect();
    let defined_in = |f: u32| mine.get(f as usize).copied().unwrap_or(false);
    m.kernels.retain(|k| defined_in(k.span.file));
    m.not_analysed.retain(|n| defined_in(n.span.file));
    m.unused_templates.retain(|n| defined_in(n.span.file));
    m
}

fn progress_bar(len: usize, shown: bool) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} files {elapsed} {wide_msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

fn analyze_parsed(
    path: &Path,
    parsed: Result<Module, FrontendError>,
    job: &Job,
    parse_time: Duration,
) -> FileOutcome {
    match parsed {
        Ok(module) => {
            let mut out = analyze_module(path, &module, job);
            out.time += parse_time;
            out
        }
        Err(e) => FileOutcome {
            path: path.to_path_buf(),
            reports: Vec::new(),
            files: e.files,
            diagnostics: e.diagnostics,
            errors: Vec::new(),
            not_analysed: Vec::new(),
            time: parse_time,
        },
    }
}

/// Analyses the selected kernels of a parsed file, in parallel.
pub fn analyze_module(path: &Path, module: &Module, job: &Job) -> FileOutcome {
    let mut out = FileOutcome {
        path: path.to_path_buf(),
        reports: Vec::new(),
        files: module.files.clone(),
        diagnostics: module.diagnostics.clone(),
        errors: Vec::new(),
        not_analysed: module
            .not_analysed
            .iter()
            .filter(|n| job.kernel.is_none_or(|k| n.name == k))
            .cloned()
            .collect(),
        time: Duration::ZERO,
    };
    if module.kernels.is_empty() && job.kernel.is_none() && job.kernel_required {
        out.diagnostics.push(
            match (module.not_analysed.is_empty(), module.only_uninstantiated()) {
                (true, _) => render::no_kernels(path, &module.launched_elsewhere()),
                (false, true) => render::none_instantiated(path),
                (false, false) => render::none_analysed(path),
            },
        );
    }
    let kernels: Vec<_> = module
        .kernels
        .iter()
        .filter(|k| job.kernel.is_none_or(|n| k.name == n))
        .collect();
    let unreadable = !out.not_analysed.is_empty();
    if let (Some(name), true, true, false) = (
        job.kernel,
        kernels.is_empty(),
        job.kernel_required,
        unreadable,
    ) {
        let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
        out.errors.push((
            format!("no kernel named `{name}` in {}", path.display()),
            Some(format!("kernels in this file: {}", names.join(", "))),
        ));
        return out;
    }
    let opts = job.opts.shared_among(kernels.len());
    let results: Vec<_> = kernels
        .par_iter()
        .map(|k| {
            let start = Instant::now();
            (analysis::analyze_kernel(module, k, &opts), start.elapsed())
        })
        .collect();
    for (result, time) in results {
        out.time += time;
        match result {
            Ok(r) => out.reports.push(r),
            Err(e) => match e.span {
                Some(span) => {
                    out.diagnostics
                        .push(render::error_at(&module.files, &e.message, span))
                }
                None => out.errors.push((e.message, None)),
            },
        }
    }
    out
}
