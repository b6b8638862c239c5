//! `gmrace analyze FILE.cu|DIR`: the static verdicts of every access.

use crate::render;
use crate::report;
use crate::FrontArgs;
use clap::{Args, ValueEnum};
use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport, WarpModel};
use gmrace_analyzer::frontend::{self, header_comment};
use gmrace_analyzer::ir::Module;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
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
    /// A .cu file, or a directory whose .cu files are all analysed.
    path: PathBuf,
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
    #[command(flatten)]
    front: FrontArgs,
}

/// What the analysis may assume (shared by `analyze` and `instrument`).
#[derive(Args)]
pub struct AssumeArgs {
    /// Block dimensions: 256, 16x16 or 16x16x1.
    #[arg(long, value_parser = parse_dims)]
    block: Option<[u32; 3]>,
    /// Grid dimensions: 4, 4x4 or 4x4x1.
    #[arg(long, value_parser = parse_dims)]
    grid: Option<[u32; 3]>,
    /// Fix a scalar kernel parameter, NAME=VALUE.
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, i64)>,
    #[arg(long, value_enum, default_value = "its")]
    warp_model: Model,
    /// Per-query solver timeout; a query that runs out is `unknown`.
    #[arg(long, default_value_t = 2000)]
    timeout_ms: u32,
    /// Solver time per kernel; pairs whose queries no longer fit are `unknown`.
    #[arg(long, default_value_t = AnalysisOptions::default().budget_ms)]
    budget_ms: u32,
    /// Decide with the solver only, even when the launch is fixed and small enough to run
    /// every thread.
    #[arg(long)]
    symbolic_only: bool,
}

impl AssumeArgs {
    pub fn options(&self) -> AnalysisOptions {
        AnalysisOptions {
            block: self.block,
            grid: self.grid,
            params: self.params.clone(),
            warp_model: match self.warp_model {
                Model::Its => WarpModel::Its,
                Model::Lockstep => WarpModel::Lockstep,
            },
            timeout_ms: self.timeout_ms,
            budget_ms: self.budget_ms,
            exhaustive: !self.symbolic_only,
        }
    }
}

fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    header_comment::parse_dims(s)
        .ok_or_else(|| format!("`{s}` is not a dimension: use 256, 16x16 or 16x16x1"))
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
    match (args.solver, args.format) {
        (SolverChoice::Ilp, _) => {
            render::error(
                "the ILP engine (`--solver ilp`) is not available yet",
                Some("use `--solver z3`"),
            );
            return ExitCode::from(2);
        }
        (_, Format::Sarif) => {
            render::error(
                "SARIF output is not available yet",
                Some("use `--format json`"),
            );
            return ExitCode::from(2);
        }
        _ => {}
    }
    let opts = args.assume.options();
    let files = match cu_files(&args.path) {
        Ok(f) => f,
        Err(e) => {
            render::error(&e, None);
            return ExitCode::from(2);
        }
    };
    let mut reports: Vec<KernelReport> = Vec::new();
    let mut failed = false;
    for f in &files {
        let selection = Selection {
            front: &args.front,
            kernel: args.kernel.as_deref(),
            quiet: args.quiet,
        };
        match analyze_file(f, &selection, &opts) {
            Ok((_, mut r)) => reports.append(&mut r),
            Err(()) => failed = true,
        }
    }
    match args.format {
        Format::Json => {
            let out = serde_json::json!({ "kernels": reports });
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        _ => report::print_text(&reports, args.quiet),
    }
    if reports.iter().any(KernelReport::has_problem) {
        ExitCode::from(1)
    } else if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Which kernels of a file to analyse, and how to parse it.
pub struct Selection<'a> {
    pub front: &'a FrontArgs,
    pub kernel: Option<&'a str>,
    /// Leave the front end's warnings out.
    pub quiet: bool,
}

/// Parses a file and analyses the selected kernels; problems are rendered on stderr.
pub fn analyze_file(
    path: &Path,
    args: &Selection,
    opts: &AnalysisOptions,
) -> Result<(Module, Vec<KernelReport>), ()> {
    let module = match frontend::parse_file(path, &args.front.options()) {
        Ok(m) => m,
        Err(e) => {
            render::diagnostics(&e.files, &e.diagnostics);
            return Err(());
        }
    };
    if !args.quiet {
        render::diagnostics(&module.files, &module.diagnostics);
    }
    let kernels: Vec<_> = module
        .kernels
        .iter()
        .filter(|k| args.kernel.is_none_or(|n| k.name == n))
        .collect();
    if let (Some(name), true) = (args.kernel, kernels.is_empty()) {
        let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
        render::error(
            &format!("no kernel named `{name}` in {}", path.display()),
            Some(&format!("kernels in this file: {}", names.join(", "))),
        );
        return Err(());
    }
    let mut out = Vec::new();
    for k in kernels {
        match analysis::analyze_kernel(&module, k, opts) {
            Ok(r) => out.push(r),
            Err(e) => {
                render::located_error(&module.files, &e.message, e.span);
                return Err(());
            }
        }
    }
    Ok((module, out))
}

/// The file itself, or every `.cu` file below a directory, sorted.
fn cu_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cu") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}
