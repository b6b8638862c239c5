//! The checked-run pipeline behind `gmrace run --mode flag|stmt`, as a library so that tests and
//! benchmarks drive exactly what the command does: analyse the launched kernel under the launch
//! spec (its dimensions and integer scalar arguments are the assumptions), instrument the file,
//! parse the instrumented text with the device runtime on the include path, run it with the
//! runtime buffer on the CPU device or on a GPU (NVRTC compiles the same instrumented text,
//! the runtime header given in memory), decode the race log.
//!
//! The steps: `analyse` parses, resolves the spec and analyses the launched kernel with the
//! spec's dimensions and integer scalar arguments as assumptions, whose source is "launch spec".
//! `check_analysed` then calls `prepare`: instrument with `gmrace_instrumenter::instrument`, and
//! parse the instrumented text as `dir/stem.gmrace.cu` next to the original, so that its
//! includes resolve, with a scratch directory holding the runtime header and an empty
//! `gmrace_standalone.h` on the include path (the front end force-includes the real prelude from
//! its system directory). Then `Prepared::run`, which can be called again on the same
//! preparation (how the overhead benchmark times repeated runs): `race_log::run_checked` on the
//! request's `Backend`, the CPU device or a `CudaDevice` whose source is `Prepared::cuda_source`
//! (the same instrumented text under the same name, so that NVRTC searches the original's
//! directory, with the runtime header in memory).
//!
//! `Prepared::run` shows the device's locations in the user's file through the instrumenter's
//! source map. A location inside `gmrace_runtime.cuh` is shown at the user's line that called
//! the runtime (`Loc::called_from`, which the CPU device fills from `Program::call_sites`: per
//! instruction, the last main-file span lowered), and says so. Without `--warp-table`,
//! `warp_table_for` puts the warpTable in shared memory when it fits beside the launched kernel's
//! shared memory (`Device::shared_limits`: DESIGN.md's 48/96 KiB on the CPU device, the GPU's
//! attributes), else in device memory. The race log's shared-layout table maps the plan's
//! `shared` (names, `extern`) to the offsets the device reported. `COUNT_CHECKS` is defined for
//! the runtime under `--count-checks`.

use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport, LaunchError, WarpModel};
use gmrace_analyzer::frontend::{self, FrontendError, FrontendOptions};
use gmrace_analyzer::ir::Module;
use gmrace_instrumenter as instr;
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::cuda::{CudaDevice, CudaSource, Gpu};
use gmrace_runtime_cuda::launch::{static_shared_bytes, Arg, Launch, LaunchSpec, SpecError};
use gmrace_runtime_cuda::program::{self, CheckedProgram};
use gmrace_runtime_cuda::race_log::{self, CheckedRun, Mode};
use gmrace_runtime_cuda::{Device, DeviceError, RunOptions};
use std::path::{Path, PathBuf};

/// The device a checked run runs on.
pub enum Backend {
    Cpu,
    Cuda {
        gpu: Gpu,
        /// The kernel's `printf` output to stderr (JSON or SARIF on stdout).
        printf_to_stderr: bool,
    },
}

pub struct Request<'a> {
    pub file: &'a Path,
    pub front: &'a FrontendOptions,
    pub spec: &'a LaunchSpec,
    pub mode: Mode,
    pub all: bool,
    pub warp_model: WarpModel,
    /// `None`: shared memory when the launched kernel leaves room for it on the device.
    pub warp_table: Option<instr::WarpTable>,
    /// Race records the log keeps (default: `race_log::Config::new`'s).
    pub log_capacity: Option<u32>,
    pub run: RunOptions,
    pub backend: Backend,
}

impl<'a> Request<'a> {
    /// A run on the CPU device under `its` that checks what the analysis leaves `unknown`,
    /// with the default warpTable placement, race log and run options.
    pub fn new(
        file: &'a Path,
        front: &'a FrontendOptions,
        spec: &'a LaunchSpec,
        mode: Mode,
    ) -> Self {
        Request {
            file,
            front,
            spec,
            mode,
            all: false,
            warp_model: WarpModel::Its,
            warp_table: None,
            log_capacity: None,
            run: RunOptions::default(),
            backend: Backend::Cpu,
        }
    }
}

/// Everything a checked run produced.
pub struct Checked {
    pub module: Module,
    pub report: KernelReport,
    pub program: CheckedProgram,
    pub run: CheckedRun,
    /// `emu` or `cuda`.
    pub backend: &'static str,
}

impl Checked {
    /// The plan of the launched kernel.
    pub fn plan(&self) -> Option<&instr::KernelPlan> {
        self.program.kernel_plan()
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
                    gmrace_analyzer::ir::scalar::sign_extend(*bits, ty.size())
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
    /// The launched kernel's static shared memory and the launch's dynamic shared memory.
    pub shared_bytes: (u64, u64),
}

pub fn analyse(
    file: &Path,
    front: &FrontendOptions,
    spec: &LaunchSpec,
    warp_model: WarpModel,
) -> Result<Analysed, Failure> {
    let text = frontend::read_source(file)
        .map(|s| s.text)
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
    let shared_bytes = (
        static_shared_bytes(kernel),
        orig_launch.dynamic_shared_bytes as u64,
    );
    Ok(Analysed {
        text,
        module,
        report,
        shared_bytes,
    })
}

pub fn check(req: Request) -> Result<Checked, Failure> {
    let a = analyse(req.file, req.front, req.spec, req.warp_model)?;
    check_analysed(a, &req)
}

/// Instruments, runs and decodes an analysed file (`req.warp_model` is the analysis').
pub fn check_analysed(a: Analysed, req: &Request) -> Result<Checked, Failure> {
    let p = prepare(a, req)?;
    let (run, backend) = p.run(req)?;
    Ok(Checked {
        module: p.module,
        report: p.report,
        program: p.program,
        run,
        backend,
    })
}

/// A checked run ready to go: the file instrumented for the request's device, the
/// instrumented text parsed, the launch resolved against it.
pub struct Prepared {
    pub module: Module,
    pub report: KernelReport,
    /// The instrumented text.
    pub source: String,
    pub program: CheckedProgram,
    pub launch: Launch,
}

impl Prepared {
    /// One run on the request's device with a fresh runtime buffer, and the device's name
    /// (`emu` or `cuda`). Each call runs again (the benchmarks time repeated runs).
    pub fn run(&self, req: &Request) -> Result<(CheckedRun, &'static str), Failure> {
        let cuda;
        let device: &dyn Device = match &req.backend {
            Backend::Cpu => &CpuDevice,
            Backend::Cuda {
                gpu,
                printf_to_stderr,
            } => {
                cuda = CudaDevice::new(gpu.clone(), self.cuda_source(req.front))
                    .printf_to_stderr(*printf_to_stderr);
                &cuda
            }
        };
        let run = self
            .program
            .run(device, &self.launch, &req.run)
            .map_err(Failure::Device)?;
        Ok((run, device.name()))
    }

    /// What a GPU compiles: the instrumented text with the device runtime as an in-memory
    /// header; `front` is the request's (`-I`, `-D`).
    pub fn cuda_source(&self, front: &FrontendOptions) -> CudaSource {
        cuda_source(
            PathBuf::from(&self.program.name),
            self.source.clone(),
            front,
            vec![(
                instr::RUNTIME_HEADER_NAME.to_string(),
                instr::RUNTIME_HEADER.to_string(),
            )],
        )
    }
}

/// Instruments an analysed file for the request's device and parses the result.
pub fn prepare(a: Analysed, req: &Request) -> Result<Prepared, Failure> {
    let Analysed {
        text,
        module,
        report,
        shared_bytes: (static_bytes, dynamic_bytes),
    } = a;
    let limits = match &req.backend {
        Backend::Cpu => CpuDevice.shared_limits(),
        Backend::Cuda { gpu, .. } => gpu.shared,
    };
    let iopts = instr::Options {
        mode: req.mode,
        all: req.all,
        warp_table: Some(
            req.warp_table
                .unwrap_or_else(|| program::warp_table_for(static_bytes, dynamic_bytes, limits)),
        ),
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
        headers: req.front.headers.clone(),
        build: req.front.build.clone(),
        callers: req.front.callers.clone(),
    };
    front
        .include_dirs
        .extend(req.front.include_dirs.iter().cloned());
    let name = instrumented_name(req.file);
    let imodule =
        frontend::parse_source(&name, &instrumented.source, &front).map_err(Failure::Reparse)?;
    let launch = req
        .spec
        .resolve(&race_log::without_runtime_param(&imodule))
        .map_err(Failure::Spec)?;
    let program = CheckedProgram {
        mode: req.mode,
        kernel: report.name.clone(),
        original: module
            .files
            .first()
            .cloned()
            .unwrap_or_else(|| file_name.clone()),
        name,
        imodule,
        plan: instrumented.plan,
        map: instrumented.map,
        log_capacity: req.log_capacity,
    };
    Ok(Prepared {
        module,
        report,
        source: instrumented.source,
        program,
        launch,
    })
}

/// What NVRTC compiles: `text` under `path`, preprocessed with the front end's `-I` and `-D`,
/// with `headers` in memory.
pub fn cuda_source(
    path: PathBuf,
    text: String,
    front: &FrontendOptions,
    headers: Vec<(String, String)>,
) -> CudaSource {
    CudaSource {
        path,
        text,
        include_dirs: front.include_dirs.clone(),
        defines: front.defines.clone(),
        headers,
        files: None,
    }
}
