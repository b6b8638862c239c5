//! `gmrace run FILE.cu --launch SPEC.toml --mode flag|stmt`: runs `gmrace::pipeline` and
//! reports the races the analysis proved (`found_by: analysis`) and those the run exhibited
//! (`found_by: run`). Exit status 1 when either found a race or the kernel faulted.
//!
//! The runtime checks GMRace's lock-step model whatever `--warp-model` says; `--warp-model`
//! is the analysis' (and so decides what is instrumented). With a GPU (`gpu`, from
//! `--backend cuda|auto`) the instrumented program runs there, else on the CPU device. This
//! module renders the pipeline's failures (exit 2) and its result.

use super::args::{RunArgs, RunFormat, WarpTableArg};
use super::errors::{device_error, spec_error};
use super::progress;
use super::report;
use crate::analyze::Model;
use crate::failed::Failed;
use crate::render;
use gmrace::pipeline::{self, Backend, Failure, Request};
use gmrace_analyzer::analysis::WarpModel;
use gmrace_analyzer::frontend::FrontendOptions;
use gmrace_instrumenter::WarpTable;
use gmrace_runtime_cuda::cuda::Gpu;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::Mode;
use gmrace_runtime_cuda::report::dump_buffers;
use gmrace_runtime_cuda::RunOptions;
use std::io::IsTerminal;
use std::process::ExitCode;

pub fn run(args: &RunArgs, spec: &LaunchSpec, gpu: Option<Gpu>) -> Result<ExitCode, Failed> {
    let front = front_options(args);
    let show_progress =
        !args.quiet && args.format == RunFormat::Text && std::io::stderr().is_terminal();
    let backend = match gpu {
        None => Backend::Cpu,
        Some(gpu) => Backend::Cuda {
            gpu,
            printf_to_stderr: args.format != RunFormat::Text,
        },
    };
    let mut req = request(args, &front, spec, backend);
    req.run.progress = show_progress.then(progress::bar);
    let analysed = pipeline::analyse(&args.file, &front, spec, req.warp_model)
        .map_err(|f| failure(args, spec, f))?;
    // Shown before the run, which may still fail: a warning often explains why (a call to a
    // function without a body).
    if !args.quiet {
        render::diagnostics(&analysed.module.files, &analysed.module.diagnostics);
    }
    let checked = pipeline::check_analysed(analysed, &req).map_err(|f| failure(args, spec, f))?;
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    if let Some(dir) = &args.dump_buffers {
        // The runtime's own buffer was taken out when the log was decoded.
        dump_buffers(&checked.run.result, dir).map_err(|e| {
            Failed::error(
                &format!("cannot write buffers to `{}`: {e}", dir.display()),
                None,
            )
        })?;
    }
    let ctx = report::Context::new(
        &checked.report,
        &checked.program,
        &checked.run,
        checked.backend,
        args.timing,
        args.count_checks,
    );
    let has_problem = ctx.has_problem();
    super::print_as(args, |out| {
        super::print::checked(out, &ctx, &checked.module)
    })?;
    Ok(if has_problem {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn failure(args: &RunArgs, spec: &LaunchSpec, f: Failure) -> Failed {
    match f {
        Failure::Read(message) => Failed::error(&message, None),
        Failure::Frontend(e) => Failed::diagnostics(&e.files, &e.diagnostics),
        Failure::Spec(e) => spec_error(&args.launch, Some(&spec.text), &e),
        Failure::Analysis(files, e) => Failed::located(&files, &e.message, e.span),
        Failure::Instrument(files, e) => Failed::located(&files, &e.message, e.span),
        Failure::Reparse(e) => {
            let bug = Failed::error(
                "gmrace could not parse its own instrumented file (a bug of gmrace)",
                None,
            );
            render::diagnostics(&e.files, &e.diagnostics);
            bug
        }
        Failure::Device(e) => device_error(&e),
    }
}

/// The front end's options for the run: `--count-checks` defines `pipeline::COUNT_CHECKS`.
pub(super) fn front_options(args: &RunArgs) -> FrontendOptions {
    let mut front = args.front.options();
    if args.count_checks {
        front
            .defines
            .push((pipeline::COUNT_CHECKS.to_string(), Some("1".to_string())));
    }
    front
}

/// The pipeline's request for `args` (no progress display).
pub(super) fn request<'a>(
    args: &'a RunArgs,
    front: &'a FrontendOptions,
    spec: &'a LaunchSpec,
    backend: Backend,
) -> Request<'a> {
    Request {
        file: &args.file,
        front,
        spec,
        mode: match args.mode {
            super::args::Mode::Flag => Mode::Flag,
            _ => Mode::Stmt,
        },
        all: args.all,
        warp_model: match args.warp_model {
            Model::Its => WarpModel::Its,
            Model::Lockstep => WarpModel::Lockstep,
        },
        warp_table: args.warp_table.map(|w| match w {
            WarpTableArg::Shared => WarpTable::Shared,
            WarpTableArg::Global => WarpTable::Global,
        }),
        log_capacity: None,
        run: RunOptions {
            max_steps: args.max_steps,
            ..RunOptions::default()
        },
        backend,
    }
}
