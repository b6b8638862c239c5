//! `gmrace run FILE.cu --launch SPEC.toml --mode off`: runs a kernel on a device and reports
//! its faults. Exit status: 0 the kernel ran to its end without a fault, 1 it faulted (memory
//! error, barrier divergence, trap, violated `__requires`, step budget), 2 gmrace could not run
//! it (usage, unreadable or invalid input, invalid launch, unsupported construct).
//!
//! Output: in text mode the kernel's printf output, then the report, on stdout; with
//! `--format json|sarif` the report on stdout and printf output on stderr, or, when the run
//! could not be done, the document with the error (`failed.rs`).
//!
//! `--mode off` runs the kernel as written; checked runs (`--mode flag|stmt`) go to `checked.rs`,
//! with the GPU if there is one. In every mode `--backend auto` probes for a GPU and falls back
//! to the CPU device, and `--backend cuda` without one is exit 2.

mod args;
mod checked;
mod errors;
mod progress;

pub(crate) use gmrace_report::run::{checked as report, json, sarif};

pub use args::RunArgs;
use args::{Backend, Mode, RunFormat};
use errors::{device_error, source_line, spec_error};

use crate::failed::{Document, Failed};
use crate::render;
use gmrace_analyzer::frontend;
use gmrace_analyzer::ir::Module;
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::cuda::{probe, CudaDevice, Gpu};
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::report::{dump_buffers, render_fault, RunResult};
use gmrace_runtime_cuda::{Device, RunOptions};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

pub fn cmd_run(args: RunArgs) -> ExitCode {
    let document = match args.format {
        RunFormat::Text => None,
        RunFormat::Json => Some(Document::Json),
        RunFormat::Sarif => Some(Document::Sarif(&sarif::RULES)),
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
        checked::run(args, &spec, gpu)
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
        progress: show_progress.then(progress::bar),
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
                gmrace::pipeline::cuda_source(
                    args.file.clone(),
                    text,
                    &args.front.options(),
                    Vec::new(),
                ),
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
    let measured = report::Measured {
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
    measured: &report::Measured,
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
            if !args.quiet {
                crate::render::stdout(&headers_line(args));
            }
        }
        RunFormat::Json => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let doc = json::Document {
                kernels: vec![json_report(args, module, result, backend, *measured)],
                headers: args.front.options().headers.describe(),
            };
            let s = serde_json::to_string_pretty(&doc.value())
                .map_err(|e| Failed::error(&format!("cannot serialise the report: {e}"), None))?;
            println!("{s}");
        }
        RunFormat::Sarif => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let log = crate::sarif::with_headers(
                sarif::plain_log(result, module),
                &args.front.options().headers.describe(),
            );
            println!("{}", crate::sarif::to_string(&log));
        }
    }
    Ok(())
}

/// The text reports' last line: which CUDA headers the front end read.
fn headers_line(args: &RunArgs) -> String {
    format!(
        "CUDA headers: {}\n",
        args.front.options().headers.describe()
    )
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

fn text_report(
    args: &RunArgs,
    r: &RunResult,
    backend: &str,
    measured: &report::Measured,
) -> String {
    let mut s = String::new();
    for f in &r.faults {
        s.push_str(&render_fault(f, &source_line));
    }
    s.push_str(&report::warnings_text(r));
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

fn json_report<'a>(
    args: &RunArgs,
    module: &Module,
    r: &'a RunResult,
    backend: &'a str,
    measured: report::Measured,
) -> json::KernelRun<'a> {
    json::KernelRun {
        file: module
            .files
            .first()
            .cloned()
            .unwrap_or_else(|| args.file.display().to_string()),
        name: &r.kernel,
        assumptions: json::RunAssumptions::Launch {
            block: r.block,
            grid: r.grid,
            dynamic_shared_bytes: r.dynamic_shared_bytes,
            warp_model: "its",
            sources: [("block", "launch spec"), ("grid", "launch spec")].into(),
        },
        mode: "off",
        backend,
        checked_warp_model: None,
        instrumented_accesses: 0,
        complete: r.faults.is_empty(),
        incomplete: None,
        unchecked: Some(&[]),
        summary: json::Summary::default(),
        accesses: None,
        left_to_run: &[],
        races: Vec::new(),
        barrier_divergence: json::fault_divergences(&r.faults, None),
        memory_errors: json::memory_errors(&r.faults),
        faults: &r.faults,
        steps: r.steps,
        thread_instructions: r.thread_instructions,
        printf_truncated: Some(r.printf_truncated),
        warnings: &r.warnings,
        measured,
    }
}
