//! The checked-run pipeline behind `gmrace run --mode flag|stmt`, as a library so that tests and
//! benchmarks drive exactly what the command does: analyse the launched kernel under the launch
//! spec (its dimensions and integer scalar arguments are the assumptions), instrument the file,
//! parse the instrumented text with the device runtime on the include path, run it on the CPU
//! device with the runtime buffer, decode the race log.

use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport, LaunchError, WarpModel};
use gmrace_analyzer::frontend::{self, FrontendError, FrontendOptions};
use gmrace_analyzer::ir::Module;
use gmrace_instrumenter as instr;
use gmrace_runtime_cuda::launch::{Arg, Launch, LaunchSpec, SpecError};
use gmrace_runtime_cuda::race_log::{self, CheckedRun, Config, Mode};
use gmrace_runtime_cuda::{DeviceError, RunOptions};
use std::path::{Path, PathBuf};

pub struct Request<'a> {
    pub file: &'a Path,
    pub front: &'a FrontendOptions,
    pub spec: &'a LaunchSpec,
    pub mode: Mode,
    pub all: bool,
    pub warp_model: WarpModel,
    pub warp_table: Option<instr::WarpTable>,
    /// Race records the log keeps (default: `race_log::Config::new`'s).
    pub log_capacity: Option<u32>,
    pub run: RunOptions,
}

/// Everything a checked run produced.
pub struct Checked {
    pub module: Module,
    pub report: KernelReport,
    pub instrumented: instr::Instrumented,
    pub imodule: Module,
    pub run: CheckedRun,
    /// Wall time of the device run alone.
    pub run_time: std::time::Duration,
}

impl Checked {
    /// The plan of the launched kernel.
    pub fn plan(&self) -> Option<&instr::KernelPlan> {
        self.instrumented
            .plan
            .kernels
            .iter()
            .find(|k| k.name == self.report.name)
    }
}

/// Why the pipeline stopped; each carries what is needed to show it.
pub enum Failure {
    Read(String),
    Frontend(FrontendError),
    Spec(SpecError),
    Analysis(Vec<String>, LaunchError),
    Instrument(Vec<String>, instr::InstrumentError),
    /// The instrumented text did not parse: a bug of gmrace.
    Reparse(FrontendError),
    Device(DeviceError),
}

/// Scalar arguments of the launch as analysis parameters (integers only: the analysis has no
/// float parameters).
fn scalar_params(module: &Module, launch: &Launch) -> Vec<(String, i64)> {
    let Some(k) = module.kernels.get(launch.kernel) else {
        return Vec::new();
    };
    k.params
        .iter()
        .zip(&launch.args)
        .filter_map(|(p, a)| match a {
            Arg::Scalar { ty, bits } if !ty.is_float() => Some((
                p.name.clone(),
                if ty.is_signed() {
                    gmrace_runtime_cuda::num::sext(*bits, ty.size())
                } else {
                    *bits as i64
                },
            )),
            _ => None,
        })
        .collect()
}

/// Defined, the device runtime counts its executed checks in the race log's header
/// (`race_log::H_CHECKS`): one atomic per check, so counted runs are not timed runs.
pub const COUNT_CHECKS: &str = "GMRACE_COUNT_CHECKS";

/// The copy of gmrace's prelude that instrumented files include when compiled on their own
/// (`gmrace_instrumenter`'s `output::PRELUDE_COPY`). The front end force-includes the prelude
/// from its own, system, header directory, so for parsing the copy is empty: a real copy on
/// the include path would make CUDA's functions look like user code.
const PRELUDE_COPY: &str = "gmrace_standalone.h";

/// A scratch directory holding the runtime header, removed when dropped.
struct RuntimeDir(PathBuf);

impl RuntimeDir {
    fn create() -> std::io::Result<RuntimeDir> {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("gmrace-run-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(instr::RUNTIME_HEADER_NAME), instr::RUNTIME_HEADER)?;
        std::fs::write(
            dir.join(PRELUDE_COPY),
            "/* gmrace's prelude is force-included by its front end. */\n",
        )?;
        Ok(RuntimeDir(dir))
    }
}

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `dir/stem.gmrace.cu`: next to the original, so that its own `#include "..."` resolve.
fn instrumented_name(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "kernel".into());
    file.with_file_name(format!("{stem}.gmrace.cu"))
        .display()
        .to_string()
}

/// The original file, parsed and its launched kernel analysed under the launch spec.
#[derive(Clone)]
pub struct Analysed {
    pub text: String,
    pub module: Module,
    pub report: KernelReport,
}

pub fn analyse(
    file: &Path,
    front: &FrontendOptions,
    spec: &LaunchSpec,
    warp_model: WarpModel,
) -> Result<Analysed, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::Read(format!("cannot read `{}`: {e}", file.display())))?;
    let module = frontend::parse_file(file, front).map_err(Failure::Frontend)?;
    let orig_launch = spec.resolve(&module).map_err(Failure::Spec)?;
    let kernel = &module.kernels[orig_launch.kernel];
    let aopts = AnalysisOptions {
        block: Some(orig_launch.block),
        grid: Some(orig_launch.grid),
        params: scalar_params(&module, &orig_launch),
        warp_model,
        ..AnalysisOptions::default()
    };
    let mut report = analysis::analyze_kernel(&module, kernel, &aopts)
        .map_err(|e| Failure::Analysis(module.files.clone(), e))?;
    for key in ["block", "grid"] {
        report
            .assumptions
            .sources
            .insert(key.to_string(), "launch spec".to_string());
    }
    for (name, _) in &aopts.params {
        report
            .assumptions
            .sources
            .insert(format!("param {name}"), "launch spec".to_string());
    }
    Ok(Analysed {
        text,
        module,
        report,
    })
}

pub fn check(req: Request) -> Result<Checked, Failure> {
    let a = analyse(req.file, req.front, req.spec, req.warp_model)?;
    check_analysed(a, &req)
}

/// Instruments, runs and decodes an analysed file (`req.warp_model` is the analysis').
pub fn check_analysed(a: Analysed, req: &Request) -> Result<Checked, Failure> {
    let Analysed {
        text,
        module,
        report,
    } = a;
    let iopts = instr::Options {
        mode: match req.mode {
            Mode::Flag => instr::Mode::Flag,
            Mode::Stmt => instr::Mode::Stmt,
        },
        all: req.all,
        warp_table: req.warp_table,
        defines: req.front.defines.clone(),
    };
    let file_name = req.file.display().to_string();
    let instrumented = instr::instrument(
        &file_name,
        &text,
        &module,
        std::slice::from_ref(&report),
        &iopts,
    )
    .map_err(|e| Failure::Instrument(module.files.clone(), e))?;
    let rt_dir = RuntimeDir::create()
        .map_err(|e| Failure::Read(format!("cannot write the device runtime: {e}")))?;
    let mut front = FrontendOptions {
        include_dirs: vec![rt_dir.0.clone()],
        defines: req.front.defines.clone(),
    };
    front
        .include_dirs
        .extend(req.front.include_dirs.iter().cloned());
    let imodule =
        frontend::parse_source(&instrumented_name(req.file), &instrumented.source, &front)
            .map_err(Failure::Reparse)?;
    let launch = req
        .spec
        .resolve(&race_log::without_runtime_param(&imodule))
        .map_err(Failure::Spec)?;
    let mut cfg = Config::new(req.mode, instrumented.plan.granule);
    if let Some(c) = req.log_capacity {
        cfg.log_capacity = c;
    }
    let checked = instrumented
        .plan
        .kernels
        .iter()
        .find(|k| k.name == report.name)
        .is_none_or(|k| k.checked);
    // A kernel that runs as written never touches the buffer: the header alone comes back
    // (zeroed counters, a complete run), nothing else to allocate, zero and read back.
    cfg.header_only = !checked;
    let start = std::time::Instant::now();
    let run = race_log::run_checked(&imodule, launch, &cfg, &req.run).map_err(Failure::Device)?;
    let run_time = start.elapsed();
    Ok(Checked {
        module,
        report,
        instrumented,
        imodule,
        run,
        run_time,
    })
}
