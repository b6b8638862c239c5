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
mod bundle;
mod checked;
mod errors;
mod progress;

pub(crate) use gmrace_report::run::{checked as report, json, print, sarif};

pub use args::RunArgs;
use args::{Backend, Mode, RunFormat};
use errors::{device_error, spec_error};

use crate::failed::{Document, Failed};
use crate::render;
use gmrace_analyzer::frontend;
use gmrace_analyzer::ir::Module;
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::cuda::{probe, CudaDevice, CudaSource, Gpu};
use gmrace_runtime_cuda::launch::{Launch, LaunchSpec};
use gmrace_runtime_cuda::report::dump_buffers;
use gmrace_runtime_cuda::{Device, RunOptions};
use std::io::IsTerminal;
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
    let text = std::fs::read_to_string(&args.launch).map_err(|e| {
        Failed::error(
            &format!("cannot read launch spec `{}`: {e}", args.launch.display()),
            None,
        )
    })?;
    let spec = LaunchSpec::parse(&args.launch, text.clone())
        .map_err(|e| spec_error(&args.launch, Some(&text), &e))?;
    if let Some(dir) = &args.bundle {
        return bundle::write(args, &spec, dir);
    }
    let gpu = choose_gpu(args)?;
    if args.mode == Mode::Off {
        run_plain(args, &spec, gpu)
    } else {
        checked::run(args, &spec, gpu)
    }
}

/// The file parsed (its warnings shown unless `--quiet`) and the spec resolved against it.
fn parse_and_resolve(args: &RunArgs, spec: &LaunchSpec) -> Result<(Module, Launch), Failed> {
    let module = frontend::parse_file(&args.file, &args.front.options())
        .map_err(|e| Failed::diagnostics(&e.files, &e.diagnostics))?;
    if !args.quiet {
        render::diagnostics(&module.files, &module.diagnostics);
    }
    let launch = spec
        .resolve(&module)
        .map_err(|e| spec_error(&args.launch, Some(&spec.text), &e))?;
    Ok((module, launch))
}

/// What NVRTC compiles for a plain run: the file as written.
fn plain_cuda_source(args: &RunArgs) -> Result<CudaSource, Failed> {
    let text = frontend::read_source(&args.file)
        .map_err(|e| Failed::error(&format!("cannot read `{}`: {e}", args.file.display()), None))?
        .text;
    Ok(gmrace::pipeline::cuda_source(
        args.file.clone(),
        text,
        &args.front.options(),
        Vec::new(),
    ))
}

/// `--mode off`: the kernel as written.
fn run_plain(args: &RunArgs, spec: &LaunchSpec, gpu: Option<Gpu>) -> Result<ExitCode, Failed> {
    let (module, launch) = parse_and_resolve(args, spec)?;
    let show_progress =
        !args.quiet && args.format == RunFormat::Text && std::io::stderr().is_terminal();
    let opts = RunOptions {
        max_steps: args.max_steps,
        progress: show_progress.then(progress::bar),
        ..RunOptions::default()
    };
    let cuda;
    let cuda_used = gpu.is_some();
    let device: &dyn Device = match gpu {
        None => &CpuDevice,
        Some(gpu) => {
            cuda = CudaDevice::new(gpu, plain_cuda_source(args)?)
                .printf_to_stderr(args.format != RunFormat::Text);
            &cuda
        }
    };
    if cuda_used {
        // NVRTC compiles when the window is asked for: `run_ms` is the launch's alone, as in a
        // checked run and in `gmrace-gpu`.
        device
            .shared_window_bytes(&module, &launch)
            .map_err(|e| device_error(&e))?;
    }
    let start = Instant::now();
    let result = device
        .run(&module, &launch, &opts)
        .map_err(|e| device_error(&e))?;
    // Nothing is instrumented in a plain run: it executes no check.
    let measured = json::Measured {
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
    let file = args.file.display().to_string();
    let plain = print::Plain {
        file: &file,
        module: &module,
        result: &result,
        backend: device.name(),
        measured,
    };
    print_as(args, |out| print::plain(out, &plain))?;
    Ok(if result.faults.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// How `args` asks the report to be printed.
fn output(args: &RunArgs) -> (print::Format, bool, String) {
    let format = match args.format {
        RunFormat::Text => print::Format::Text,
        RunFormat::Json => print::Format::Json,
        RunFormat::Sarif => print::Format::Sarif,
    };
    (format, args.quiet, args.front.options().headers.describe())
}

/// Prints a report with `f` as `args` asks.
fn print_as(
    args: &RunArgs,
    f: impl FnOnce(&print::Output) -> Result<(), String>,
) -> Result<(), Failed> {
    let (format, quiet, headers) = output(args);
    let out = print::Output {
        format,
        quiet,
        headers: &headers,
    };
    f(&out).map_err(|e| Failed::error(&e, None))
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
