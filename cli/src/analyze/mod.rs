//! `gmrace analyze FILE.cu|DIR`: the static verdicts of every access. This module holds the
//! arguments, the output format and the exit status: 2 if any file or kernel could not be
//! analysed, which outweighs problems found elsewhere, else 1 if any race or divergence was
//! found. `AssumeArgs` and `analyze_file` are shared with `gmrace instrument`.
//! The progress bar (indicatif) is drawn only for a directory, in text mode, without `--quiet`,
//! when stderr is a terminal. `project.rs` analyses the files, `summary.rs` writes the
//! per-file table of a directory, `findings.rs` turns reports into SARIF findings.

mod compile_db;
pub(crate) use gmrace_report::findings;
mod callers;
mod includers;
mod launchers;
mod program;
mod project;
mod summary;

use crate::{failed, render, report, sarif, FrontArgs};
use clap::{Args, ValueEnum};
use compile_db::CompileDb;
use gmrace_analyzer::analysis::{
    launch, AnalysisOptions, Engine, KernelReport, WarpModel, FILE_KERNELS,
};
use gmrace_analyzer::frontend::{self, header_comment};
use gmrace_analyzer::ir::Module;
use project::Input;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Definite,
    Conditional,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Model {
    Its,
    Lockstep,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SolverChoice {
    Z3,
    Ilp,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A .cu file, or a directory whose .cu files are all analysed (with `-p`: by default
    /// every CUDA file of the build).
    #[arg(required_unless_present_any = ["build_dir", "compile_commands"])]
    path: Option<PathBuf>,
    /// The build directory whose compile_commands.json gives each file its own flags
    /// (`-I`, `-D`, `-std`, `-arch`), as clang tools read it.
    #[arg(short = 'p', value_name = "BUILD_DIR")]
    build_dir: Option<PathBuf>,
    /// The compilation database itself (compile_commands.json).
    #[arg(long, value_name = "FILE", conflicts_with = "build_dir")]
    compile_commands: Option<PathBuf>,
    /// Only this kernel (as clang prints it, e.g. `stage<512>`).
    #[arg(long)]
    kernel: Option<String>,
    #[command(flatten)]
    assume: AssumeArgs,
    #[arg(long, value_enum, default_value = "z3")]
    solver: SolverChoice,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Only the summary and problems, no per-access table.
    #[arg(long)]
    quiet: bool,
    /// Also report times (solver time per kernel, time per file), which differ from run to run.
    #[arg(long)]
    timing: bool,
    /// What makes the exit status 1: definite races and barrier divergence (`definite`), or
    /// conditional races too (`conditional`).
    #[arg(long, value_enum, default_value = "definite")]
    fail_on: FailOn,
    #[command(flatten)]
    pub(crate) front: FrontArgs,
}

/// What the analysis may assume (shared by `analyze` and `instrument`).
#[derive(Args)]
pub struct AssumeArgs {
    /// Block dimensions: 256, 16x16 or 16x16x1.
    #[arg(long, value_parser = parse_block)]
    block: Option<[u32; 3]>,
    /// Grid dimensions: 4, 4x4 or 4x4x1.
    #[arg(long, value_parser = parse_grid)]
    grid: Option<[u32; 3]>,
    /// Fix a scalar kernel parameter, NAME=VALUE.
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, i64)>,
    /// `its` unless the file's header comment says `--warp-sync=N` (GPUVerify's lockstep warps).
    #[arg(long, value_enum)]
    warp_model: Option<Model>,
    /// Solver work per query, in z3's resource units (`rlimit`, the same on every machine); a
    /// query that runs out is `unknown`.
    #[arg(long, default_value_t = AnalysisOptions::default().query_work)]
    rlimit: u32,
    /// Solver work per kernel, in the same units; pairs whose queries no longer fit are
    /// `unknown` (proving a shared flag uniform may take half as much again).
    #[arg(long, default_value_t = AnalysisOptions::default().kernel_work)]
    budget: u64,
    /// Solver work per file, in the same units: a file with more kernels than it holds
    /// `--budget`s gives each kernel an equal share [default: 32 times `--budget`]
    #[arg(long)]
    file_budget: Option<u64>,
    /// Wall-clock safety net per query, far above what `--rlimit` takes; the report says when
    /// it fired, since only then may verdicts differ between machines.
    #[arg(long, default_value_t = AnalysisOptions::default().timeout_ms)]
    timeout_ms: u32,
    /// Decide with the solver only, even when the launch is fixed and small enough to run
    /// every thread.
    #[arg(long)]
    symbolic_only: bool,
}

impl AssumeArgs {
    /// The analysis options these assumptions give, with the z3 engine.
    pub fn options(&self) -> AnalysisOptions {
        AnalysisOptions {
            block: self.block,
            grid: self.grid,
            params: self.params.clone(),
            warp_model: match self.warp_model {
                Some(Model::Lockstep) => WarpModel::Lockstep,
                _ => WarpModel::Its,
            },
            header_warp_model: self.warp_model.is_none(),
            query_work: self.rlimit,
            first_round_work: self.rlimit.min(AnalysisOptions::default().first_round_work),
            kernel_work: self.budget,
            file_work: self
                .file_budget
                .unwrap_or(self.budget.saturating_mul(FILE_KERNELS)),
            budget_shared: false,
            timeout_ms: self.timeout_ms,
            exhaustive: !self.symbolic_only,
            solver: Engine::Z3,
        }
    }
}

/// Which kernels of a file to analyse, and how to parse it.
pub struct Selection<'a> {
    pub front: &'a FrontArgs,
    pub kernel: Option<&'a str>,
    /// Leave the front end's warnings out.
    pub quiet: bool,
}

/// Parses one file and analyses the selected kernels, for commands that go on with the module
/// (`instrument`); problems are rendered on stderr.
pub fn analyze_file(
    path: &Path,
    args: &Selection,
    opts: &AnalysisOptions,
) -> Result<(Module, Vec<KernelReport>), ()> {
    let job = project::Job {
        kernel: args.kernel,
        kernel_required: true,
        front: args.front.options(),
        build: None,
        opts: opts.clone(),
        progress: false,
    };
    let module = match frontend::parse_file(path, &job.front) {
        Ok(m) => {
            let mut m = project::with_callers(path, m, &job, &mut |_| None);
            project::launches_beside(path, &mut m, &job);
            m
        }
        Err(e) => {
            render::diagnostics(&e.files, &e.diagnostics);
            return Err(());
        }
    };
    let outcome = project::analyze_module(path, &module, &job);
    outcome.print_diagnostics(args.quiet);
    if outcome.failed() {
        return Err(());
    }
    Ok((module, outcome.reports))
}

fn parse_block(s: &str) -> Result<[u32; 3], String> {
    parse_dims(s, "block", launch::MAX_BLOCK)
}

fn parse_grid(s: &str) -> Result<[u32; 3], String> {
    parse_dims(s, "grid", launch::MAX_GRID)
}

/// Extents within 32 bits are checked against `max` by the analysis, as those of a header or
/// of a launch in the file are; a longer number is still a dimension, only too large.
fn parse_dims(s: &str, what: &str, max: [u32; 3]) -> Result<[u32; 3], String> {
    if let Some(dims) = header_comment::parse_dims(s) {
        return Ok(dims);
    }
    let too_large = s
        .split([',', 'x'])
        .zip(["x", "y", "z"])
        .zip(max)
        .find(|((p, _), _)| {
            let p = p.trim();
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u32>().is_err()
        });
    Err(match too_large {
        Some(((p, axis), max)) => {
            format!(
                "{what} dimension {axis} is {}: too large, CUDA allows at most {max}",
                p.trim()
            )
        }
        None => format!("`{s}` is not a dimension: use 256, 16x16 or 16x16x1"),
    })
}

fn parse_param(s: &str) -> Result<(String, i64), String> {
    let (n, v) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let v = v
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{v}` is not an integer (parameter `{n}`)"))?;
    Ok((n.trim().to_string(), v))
}

pub fn run(args: AnalyzeArgs) -> ExitCode {
    let (paths, is_dir, db) = match inputs(&args) {
        Ok(i) => i,
        Err(e) => {
            render::error(&e, None);
            return ExitCode::from(2);
        }
    };
    let job = project::Job {
        kernel: args.kernel.as_deref(),
        kernel_required: !is_dir,
        front: args.front.options(),
        build: db.as_ref(),
        opts: AnalysisOptions {
            solver: match args.solver {
                SolverChoice::Z3 => Engine::Z3,
                SolverChoice::Ilp => Engine::Ilp,
            },
            ..args.assume.options()
        },
        progress: is_dir
            && matches!(args.format, Format::Text)
            && !args.quiet
            && std::io::stderr().is_terminal(),
    };
    let mut outcomes = project::analyze_all(&paths, &job);
    if !args.timing {
        outcomes
            .iter_mut()
            .for_each(project::FileOutcome::forget_times);
    }
    let reports: Vec<&KernelReport> = outcomes.iter().flat_map(|o| &o.reports).collect();
    let missing_kernel = args
        .kernel
        .as_ref()
        .filter(|_| is_dir && reports.is_empty());
    let headers = args.front.options().headers.describe();
    match args.format {
        Format::Text => {
            for o in &outcomes {
                o.print_diagnostics(args.quiet);
                report::print_text(&o.reports, args.quiet);
            }
            if !args.quiet {
                render::stdout(&format!("CUDA headers: {headers}\n"));
            }
            if is_dir {
                render::stdout(&format!("\n{}", summary::table(&outcomes, args.timing)));
            }
        }
        Format::Json => {
            outcomes
                .iter()
                .for_each(|o| o.print_diagnostics(args.quiet));
            let errors: Vec<_> = outcomes
                .iter()
                .flat_map(project::FileOutcome::errors_json)
                .collect();
            let not_analysed: Vec<_> = outcomes
                .iter()
                .flat_map(project::FileOutcome::not_analysed_json)
                .collect();
            render::stdout(&failed::json_document(
                &reports,
                &not_analysed,
                &errors,
                Some(&headers),
            ));
        }
        Format::Sarif => {
            outcomes
                .iter()
                .for_each(|o| o.print_diagnostics(args.quiet));
            let notices: Vec<_> = outcomes
                .iter()
                .flat_map(|o| o.notices(args.quiet))
                .collect();
            let log = sarif::log(
                &findings::RULES,
                &findings::findings(&reports, args.quiet),
                &notices,
            );
            let log = sarif::with_headers(log, &headers);
            render::stdout(&format!("{}\n", sarif::to_string(&log)));
        }
    }
    if let Some(name) = missing_kernel {
        let place = match (&args.path, &db) {
            (Some(p), _) => format!("below `{}`", p.display()),
            (None, Some(db)) => format!("in the files `{}` compiles", db.path.display()),
            (None, None) => String::new(),
        };
        render::error(&format!("no kernel named `{name}` {place}"), None);
    }
    let failed = missing_kernel.is_some() || outcomes.iter().any(project::FileOutcome::failed);
    let conditional = args.fail_on == FailOn::Conditional;
    exit_status(
        failed,
        reports.iter().any(|r| r.has_problem_counting(conditional)),
    )
}

/// A file gmrace could not analyse outweighs problems found in the others: exit status 1
/// promises that everything asked for was analysed, and the problems are reported anyway.
fn exit_status(failed: bool, problem: bool) -> ExitCode {
    match (failed, problem) {
        (true, _) => ExitCode::from(2),
        (false, true) => ExitCode::from(1),
        (false, false) => ExitCode::SUCCESS,
    }
}

/// The file itself, or every `.cu` file below a directory, sorted. Symbolic links are
/// followed, but each real directory and file is visited once (a link to `.` would otherwise
/// loop until paths grow too long, and report every file under each of those paths), under
/// the first path a walk in sorted order reaches it by, where each directory's entries that
/// are not links come first: a file is reported under its own name rather than a link's.
/// The files to analyse, whether they are several (a directory, or a whole build), and the
/// compilation database if one is named.
fn inputs(args: &AnalyzeArgs) -> Result<(Vec<Input>, bool, Option<CompileDb>), String> {
    let db = match args.build_dir.as_ref().or(args.compile_commands.as_ref()) {
        Some(p) => Some(CompileDb::read(p)?),
        None => None,
    };
    let Some(path) = &args.path else {
        let db = db.ok_or("name a .cu file or a directory")?;
        let files = db.cuda_files();
        if files.is_empty() {
            return Err(format!("`{}` compiles no `.cu` file", db.path.display()));
        }
        return Ok((
            files.into_iter().map(Input::plain).collect(),
            true,
            Some(db),
        ));
    };
    let paths = cu_files(path)?;
    let is_dir = path.is_dir();
    if is_dir && paths.is_empty() {
        return Err(format!("no `.cu` file below `{}`", path.display()));
    }
    let inputs = includers::inputs(paths, is_dir, &args.front.options().include_dirs);
    Ok((inputs, is_dir, db))
}

fn cu_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    walk(path, &mut seen, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let unreadable = |e: std::io::Error| format!("cannot read `{}`: {e}", dir.display());
    if !seen.insert(dir.canonicalize().map_err(unreadable)?) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(unreadable)?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort_by_cached_key(|p| (p.is_symlink(), p.clone()));
    for p in entries {
        if p.is_dir() {
            walk(&p, seen, out)?;
        } else if p.extension().is_some_and(|x| x == "cu") {
            // A dangling link stays in: reading it reports the error.
            if p.canonicalize().map_or(true, |real| seen.insert(real)) {
                out.push(p);
            }
        }
    }
    Ok(())
}
