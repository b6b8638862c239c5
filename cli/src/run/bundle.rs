//! `gmrace run FILE.cu --launch SPEC.toml --mode M --bundle DIR`: does everything a run does
//! up to the launch (parse, analyse, instrument, resolve the launch, read the user headers
//! NVRTC will need) and writes it into DIR for `gmrace-gpu` (`gmrace_runtime_cuda::bundle`)
//! instead of running it.
//!
//! Decided here: nothing is probed or run, so `--backend` only has to be valid. The warpTable's
//! place, when `--warp-table` is not given, depends on the device's shared memory, which is
//! not known here: the bundle holds the program instrumented for each place some GPU would
//! choose (`Bundle::program_for` picks on the machine that runs it, and the CPU device there
//! runs the GPU's choice, so that both run one program). `--dump-buffers` belongs to a run:
//! `gmrace-gpu` takes it.

use super::args::{Mode, RunArgs, RunFormat};
use super::checked::{failure, front_options, request};
use crate::failed::Failed;
use crate::render;
use gmrace::pipeline::{self, Backend};
use gmrace_analyzer::frontend::FrontendOptions;
use gmrace_analyzer::ir::report::{KernelReport, Verdict};
use gmrace_analyzer::ir::Module;
use gmrace_runtime_cuda::bundle::{self, Bundle, Program};
use gmrace_runtime_cuda::launch::{static_shared_bytes, LaunchSpec};
use gmrace_runtime_cuda::program::warp_table_for;
use gmrace_runtime_cuda::SharedLimits;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

pub fn write(args: &RunArgs, spec: &LaunchSpec, dir: &Path) -> Result<ExitCode, Failed> {
    if args.dump_buffers.is_some() {
        return Err(Failed::error(
            "--dump-buffers applies to a run, not to --bundle",
            Some("give --dump-buffers to gmrace-gpu, which runs the bundle"),
        ));
    }
    let front = front_options(args);
    let bundle = if args.mode == Mode::Off {
        plain(args, &front, spec)?
    } else {
        checked(args, &front, spec)?
    };
    bundle.write(dir).map_err(|e| Failed::error(&e, None))?;
    if !args.quiet && args.format == RunFormat::Text {
        println!(
            "bundle `{}` written: kernel `{}`, {} mode, format version {}; run it with \
             `gmrace-gpu {}`",
            dir.display(),
            bundle.kernel(),
            bundle.mode(),
            bundle::VERSION,
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn plain(args: &RunArgs, front: &FrontendOptions, spec: &LaunchSpec) -> Result<Bundle, Failed> {
    let (module, launch) = super::parse_and_resolve(args, spec)?;
    let mut cuda = super::plain_cuda_source(args)?;
    cuda.capture();
    let shared_bytes = (
        static_shared_bytes(&module.kernels[launch.kernel]),
        launch.dynamic_shared_bytes as u64,
    );
    // An `off` run checks nothing, so whether its result may depend on the schedule is the
    // analysis's to say; a kernel it cannot analyse counts as one whose result may.
    let warp_model = request(args, front, spec, Backend::Cpu).warp_model;
    let proved_race_free =
        pipeline::analyse(&args.file, front, spec, warp_model).is_ok_and(|a| race_free(&a.report));
    Ok(Bundle {
        file: args.file.display().to_string(),
        sources: quoted(&module),
        module,
        report: None,
        proved_race_free,
        programs: vec![Program {
            launch,
            cuda,
            checked: None,
        }],
        shared_bytes,
        headers: front.headers.describe(),
        max_steps: args.max_steps,
        timing: args.timing,
        count_checks: args.count_checks,
    })
}

/// Shared-memory limits between which GPUs lie: every one has 48 KiB of static shared memory,
/// and from 48 KiB to far more with the opt-in.
const SMALLEST_GPU: SharedLimits = SharedLimits {
    static_bytes: 48 * 1024,
    total_bytes: 48 * 1024,
};
const LARGEST_GPU: SharedLimits = SharedLimits {
    static_bytes: 48 * 1024,
    total_bytes: u64::MAX,
};

fn checked(args: &RunArgs, front: &FrontendOptions, spec: &LaunchSpec) -> Result<Bundle, Failed> {
    let req = request(args, front, spec, Backend::Cpu);
    let analysed = pipeline::analyse(&args.file, front, spec, req.warp_model)
        .map_err(|f| failure(args, spec, f))?;
    if !args.quiet {
        render::diagnostics(&analysed.module.files, &analysed.module.diagnostics);
    }
    let (s, d) = analysed.shared_bytes;
    // Left to the device, the warpTable's place is the one `gmrace run` would choose there:
    // one program per place some GPU would choose.
    let mut places = match req.warp_table {
        Some(w) => vec![w],
        None => vec![
            warp_table_for(s, d, LARGEST_GPU),
            warp_table_for(s, d, SMALLEST_GPU),
        ],
    };
    places.dedup();
    let mut programs = Vec::new();
    let mut first = None;
    for place in places {
        let mut r = request(args, front, spec, Backend::Cpu);
        r.warp_table = Some(place);
        let p = pipeline::prepare(analysed.clone(), &r).map_err(|f| failure(args, spec, f))?;
        let mut cuda = p.cuda_source(front);
        cuda.capture();
        programs.push(Program {
            launch: p.launch,
            cuda,
            checked: Some(p.program),
        });
        first.get_or_insert((p.module, p.report));
    }
    let Some((module, report)) = first else {
        return Err(Failed::error(
            "no program was prepared for the bundle (a bug of gmrace)",
            None,
        ));
    };
    Ok(Bundle {
        file: args.file.display().to_string(),
        sources: quoted(&module),
        module,
        proved_race_free: race_free(&report),
        report: Some(report),
        programs,
        shared_bytes: analysed.shared_bytes,
        headers: front.headers.describe(),
        max_steps: args.max_steps,
        timing: args.timing,
        count_checks: args.count_checks,
    })
}

/// Every access proved safe and no divergent barrier.
fn race_free(report: &KernelReport) -> bool {
    report.accesses.iter().all(|a| a.verdict == Verdict::Safe)
        && report.barrier_divergence.is_empty()
}

/// The texts a report may quote: the files of the module (the user's file and the headers its
/// kernels come from), as the report names them.
fn quoted(module: &Module) -> BTreeMap<String, String> {
    module
        .files
        .iter()
        .filter_map(|f| Some((f.clone(), render::source_text(f)?)))
        .collect()
}
