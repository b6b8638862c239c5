//! `gmrace run FILE.cu --launch SPEC.toml --mode off`: runs a kernel on a device and reports
//! its faults. Exit status: 0 the kernel ran to its end without a fault, 1 it faulted (memory
//! error, barrier divergence, trap, violated `__requires`, step budget), 2 gmrace could not run
//! it (usage, unreadable or invalid input, invalid launch, unsupported construct).
//!
//! Output: in text mode the kernel's printf output, then the report, on stdout; with
//! `--format json|sarif` the report on stdout and printf output on stderr, or, when the run
//! could not be done, the document with the error (`failed.rs`).

use crate::analyze::Model;
use crate::failed::{Document, Failed};
use crate::{render, FrontArgs};
use clap::{Args, ValueEnum};
use gmrace_analyzer::frontend;
use gmrace_analyzer::ir::{Diagnostic, Module, Severity, Span};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::cuda::{probe, CudaDevice, CudaSource, Gpu};
use gmrace_runtime_cuda::launch::{line_col, LaunchSpec, SpecError};
use gmrace_runtime_cuda::report::{dump_buffers, render_fault, FaultKind, RunResult};
use gmrace_runtime_cuda::{Device, DeviceError, RunOptions, RunProgress};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Flag,
    Stmt,
    Off,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    Auto,
    Emu,
    Cuda,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarpTableArg {
    Shared,
    Global,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Args)]
pub struct RunArgs {
    pub(crate) file: PathBuf,
    /// The launch spec (TOML): kernel, grid, block, arguments.
    #[arg(long, value_name = "LAUNCH.toml")]
    pub(crate) launch: PathBuf,
    /// Race checking: `flag` (per-warp bitmaps: address and warp pair), `stmt` (BlockStmtTable:
    /// statement pair, thread pair and address), `off` (the kernel as written).
    #[arg(long, value_enum)]
    pub(crate) mode: Mode,
    /// `auto` takes a GPU when a CUDA driver is present, the CPU device (`emu`) otherwise.
    #[arg(long, value_enum, default_value = "auto")]
    backend: Backend,
    /// Check every shared access, not only those the analysis left undecided.
    #[arg(long)]
    pub(crate) all: bool,
    /// The analysis' warp model (the run's checkers implement GMRace's lock-step model).
    #[arg(long, value_enum, default_value = "its")]
    pub(crate) warp_model: Model,
    /// Where the runtime keeps its warpTable (default: shared memory when the kernel leaves
    /// room for it).
    #[arg(long, value_enum)]
    pub(crate) warp_table: Option<WarpTableArg>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: RunFormat,
    /// Write every buffer after the run to DIR/<name>.bin plus DIR/index.json.
    #[arg(long, value_name = "DIR")]
    pub(crate) dump_buffers: Option<PathBuf>,
    /// Step budget: warp-instructions over the whole launch (CPU device only; default: 2^20
    /// per warp of the launch, at least 2^26, at most 2^32).
    #[arg(long, value_name = "N")]
    pub(crate) max_steps: Option<u64>,
    /// Print only faults and races (no summary, no front-end warnings, no progress).
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Report the wall time of the device run alone (`run_ms`); off by default so that the
    /// same input gives the same report, byte for byte.
    #[arg(long)]
    pub(crate) timing: bool,
    /// Count the checks the runtime executes (`executed_checks`: warp-level calls of the
    /// recording hook). Counting costs one atomic per check, so time such runs separately.
    #[arg(long)]
    pub(crate) count_checks: bool,
    #[command(flatten)]
    pub(crate) front: FrontArgs,
}

pub fn cmd_run(args: RunArgs) -> ExitCode {
    let document = match args.format {
        RunFormat::Text => None,
        RunFormat::Json => Some(Document::Json),
        RunFormat::Sarif => Some(Document::Sarif(&crate::run_sarif::RULES)),
    };
    match run_or_check(&args) {
        Ok(code) => code,
        Err(f) => f.exit(document, &args.file.display().to_string()),
    }
}

fn run_or_check(args: &RunArgs) -> Result<ExitCode, Failed> {
    let gpu = choose_gpu(args)?;
    let text = std::fs::read_to_string(&args.launch).map_err(|e| {
        Failed::error(
            &format!("cannot read launch spec `{}`: {e}", args.launch.display()),
            None,
        )
    })?;
    let spec = LaunchSpec::parse(&args.launch, text.clone())
        .map_err(|e| spec_error(&args.launch, Some(&text), &e))?;
    if args.mode == Mode::Off {
        run_plain(args, &spec, gpu)
    } else {
        crate::check::cmd_check(args, &spec, gpu)
    }
}

/// `--mode off`: the kernel as written.
fn run_plain(args: &RunArgs, spec: &LaunchSpec, gpu: Option<Gpu>) -> Result<ExitCode, Failed> {
    let module = frontend::parse_file(&args.file, &args.front.options())
        .map_err(|e| Failed::diagnostics(&e.files, &e.diagnostics))?;
    if !args.quiet {
        render::diagnostics(&module.files, &module.diagnostics);
    }
    let launch = spec
        .resolve(&module)
        .map_err(|e| spec_error(&args.launch, Some(&spec.text), &e))?;
    let show_progress =
        !args.quiet && args.format == RunFormat::Text && std::io::stderr().is_terminal();
    let opts = RunOptions {
        max_steps: args.max_steps,
        progress: show_progress.then(progress_bar),
        ..RunOptions::default()
    };
    let cuda;
    let device: &dyn Device = match gpu {
        None => &CpuDevice,
        Some(gpu) => {
            let text = frontend::read_source(&args.file)
                .map_err(|e| {
                    Failed::error(&format!("cannot read `{}`: {e}", args.file.display()), None)
                })?
                .text;
            cuda = CudaDevice::new(
                gpu,
                CudaSource {
                    path: args.file.clone(),
                    text,
                    front: args.front.options(),
                    headers: Vec::new(),
                },
            )
            .printf_to_stderr(args.format != RunFormat::Text);
            &cuda
        }
    };
    let start = Instant::now();
    let result = device
        .run(&module, &launch, &opts)
        .map_err(|e| device_error(&e))?;
    // Nothing is instrumented in a plain run: it executes no check.
    let measured = crate::run_report::Measured {
        run_ms: args.timing.then(|| start.elapsed().as_secs_f64() * 1e3),
        executed_checks: args.count_checks.then_some(0),
    };
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    if let Some(dir) = &args.dump_buffers {
        dump_buffers(&result, dir).map_err(|e| {
            Failed::error(
                &format!("cannot write buffers to `{}`: {e}", dir.display()),
                None,
            )
        })?;
    }
    print_plain(args, &module, &result, device.name(), &measured)?;
    Ok(if result.faults.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report of a plain run on stdout, in the asked format.
fn print_plain(
    args: &RunArgs,
    module: &Module,
    result: &RunResult,
    backend: &str,
    measured: &crate::run_report::Measured,
) -> Result<(), Failed> {
    match args.format {
        RunFormat::Text => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(result.printf.as_bytes());
            if result.printf_truncated {
                let _ = writeln!(out, "[gmrace] printf output truncated");
            }
            drop(out);
            crate::render::stdout(&text_report(args, result, backend, measured));
        }
        RunFormat::Json => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let mut value = json_report(args, module, result, backend);
            measured.insert_into(&mut value["kernels"][0]);
            let s = serde_json::to_string_pretty(&value)
                .map_err(|e| Failed::error(&format!("cannot serialise the report: {e}"), None))?;
            println!("{s}");
        }
        RunFormat::Sarif => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let log = crate::run_sarif::plain_log(result, module);
            println!("{}", crate::sarif::to_string(&log));
        }
    }
    Ok(())
}

/// The GPU to run on: none for `emu`; for `cuda` one must be usable (else exit 2); `auto`
/// takes one when the probe finds it and says in one line (text mode) why not otherwise.
fn choose_gpu(args: &RunArgs) -> Result<Option<Gpu>, Failed> {
    match args.backend {
        Backend::Emu => Ok(None),
        Backend::Cuda => probe().map(Some).map_err(|e| {
            Failed::error(
                &format!("--backend cuda: {e}"),
                Some("use --backend emu (or auto) for the CPU device"),
            )
        }),
        Backend::Auto => Ok(probe()
            .inspect_err(|e| {
                if !args.quiet && args.format == RunFormat::Text {
                    eprintln!("note: running on the CPU device (emu): {e}");
                }
            })
            .ok()),
    }
}

/// `[###   ] block 12/4096, 3% of the step budget` on stderr, at most five times a second,
/// after the first second.
pub(crate) fn progress_bar() -> gmrace_runtime_cuda::Progress {
    let start = Instant::now();
    let last = Mutex::new(start);
    Box::new(move |p| {
        let now = Instant::now();
        if now.duration_since(start) < Duration::from_secs(1) {
            return;
        }
        let Ok(mut l) = last.lock() else { return };
        if now.duration_since(*l) < Duration::from_millis(200) && p.blocks_done < p.blocks {
            return;
        }
        *l = now;
        eprint!("\r{}", progress_line(p));
    })
}

fn progress_line(p: RunProgress) -> String {
    let width = 30;
    let filled = (p.blocks_done as u128 * width as u128 / p.blocks.max(1) as u128) as usize;
    format!(
        "[{}{}] block {}/{}, {}% of the step budget",
        "#".repeat(filled.min(width)),
        " ".repeat(width - filled.min(width)),
        p.blocks_done,
        p.blocks,
        p.steps as u128 * 100 / p.budget.max(1) as u128
    )
}

fn source_line(file: &str, line: u32) -> Option<String> {
    let text = render::source_text(file)?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(str::to_string)
}

fn text_report(
    args: &RunArgs,
    r: &RunResult,
    backend: &str,
    measured: &crate::run_report::Measured,
) -> String {
    let mut s = String::new();
    for f in &r.faults {
        s.push_str(&render_fault(f, &source_line));
    }
    s.push_str(&crate::run_report::warnings_text(r));
    if !args.quiet {
        let [gx, gy, gz] = r.grid;
        let [bx, by, bz] = r.block;
        // A GPU does not count instructions.
        let counts = if backend == "emu" {
            format!(
                ", {} warp-instructions, {} thread-instructions",
                r.steps, r.thread_instructions
            )
        } else {
            String::new()
        };
        s.push_str(&format!(
            "kernel `{}` on {backend}: grid ({gx},{gy},{gz}) block ({bx},{by},{bz}){counts}: {}{}\n",
            r.kernel,
            match r.faults.len() {
                0 => "no fault".to_string(),
                1 => "1 fault".to_string(),
                n => format!("{n} faults"),
            },
            measured.text(),
        ));
    }
    s
}

fn json_report(args: &RunArgs, module: &Module, r: &RunResult, backend: &str) -> serde_json::Value {
    let divergence: Vec<serde_json::Value> = r
        .faults
        .iter()
        .filter(|f| f.kind == FaultKind::BarrierDivergence)
        .map(|f| {
            json!({
                "line": f.loc.as_ref().map(|l| l.line),
                "column": f.loc.as_ref().map(|l| l.column),
                "message": f.message,
                "witness": { "block": f.block, "threads": f.threads },
            })
        })
        .collect();
    let memory: Vec<&gmrace_runtime_cuda::report::Fault> = r
        .faults
        .iter()
        .filter(|f| f.kind.is_memory_error())
        .collect();
    json!({ "kernels": [ {
        "file": module.files.first().cloned().unwrap_or_else(|| args.file.display().to_string()),
        "name": r.kernel,
        "assumptions": {
            "block": r.block,
            "grid": r.grid,
            "dynamic_shared_bytes": r.dynamic_shared_bytes,
            "warp_model": "its",
            "sources": { "block": "launch spec", "grid": "launch spec" },
        },
        "mode": "off",
        "backend": backend,
        "instrumented_accesses": 0,
        "complete": r.faults.is_empty(),
        "unchecked": [],
        "summary": { "r_stmt": 0, "r_mem": 0, "r_thd": 0, "r_wp": 0 },
        "races": [],
        "barrier_divergence": divergence,
        "memory_errors": memory,
        "faults": r.faults,
        "steps": r.steps,
        "thread_instructions": r.thread_instructions,
        "printf_truncated": r.printf_truncated,
        "warnings": r.warnings,
    } ] })
}

pub(crate) fn spec_error(path: &Path, text: Option<&str>, e: &SpecError) -> Failed {
    let name = path.display().to_string();
    match (text, &e.span) {
        (Some(text), Some(span)) => {
            let (line, column, line_text) = line_col(text, span.start);
            let end = if span.end > span.start {
                let (el, ec, _) = line_col(text, span.end);
                if el == line {
                    ec
                } else {
                    line_text.len() as u32 + 1
                }
            } else {
                column + 1
            };
            let d = Diagnostic {
                severity: Severity::Error,
                message: format!("launch spec: {}", e.message),
                span: Span {
                    file: 0,
                    line,
                    column,
                    end_line: line,
                    end_column: end,
                },
                source_line: Some(line_text),
            };
            let failed = Failed::diagnostics(&[name], &[d]);
            if let Some(h) = &e.hint {
                eprintln!(" = help: {h}");
            }
            failed
        }
        _ => Failed::error(
            &format!("launch spec `{name}`: {}", e.message),
            e.hint.as_deref(),
        ),
    }
}

pub(crate) fn device_error(e: &DeviceError) -> Failed {
    match &e.loc {
        Some(loc) => {
            let d = Diagnostic {
                severity: Severity::Error,
                message: e.message.clone(),
                span: Span {
                    file: 0,
                    line: loc.line,
                    column: loc.column,
                    end_line: loc.line,
                    end_column: loc.column + 1,
                },
                source_line: source_line(&loc.file, loc.line),
            };
            Failed::diagnostics(std::slice::from_ref(&loc.file), &[d])
        }
        None => Failed::error(&e.message, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_shows_blocks_and_the_step_budget_spent() {
        let p = RunProgress {
            blocks_done: 1,
            blocks: 2,
            steps: 1 << 20,
            budget: 1 << 26,
        };
        let line = progress_line(p);
        assert_eq!(
            line,
            format!(
                "[{}{}] block 1/2, 1% of the step budget",
                "#".repeat(15),
                " ".repeat(15)
            )
        );
    }
}
