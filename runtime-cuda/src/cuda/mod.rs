//! The CUDA device: runs a kernel on a real GPU through cudarc (driver API) and NVRTC, both
//! loaded at run time (cudarc's `dynamic-loading`), so building needs no toolkit. API boundary:
//! `probe() -> Gpu`, `CudaDevice::new(gpu, CudaSource)`, then the same
//! `Device::run(module, launch, opts)` as the CPU device.
//!
//! - [`probe`]: finds a usable GPU without panicking (cudarc panics when libcuda is absent).
//! - [`source`]: the device-only source NVRTC gets (host code cut, line numbers kept).
//! - [`nvrtc`]: compilation to a CUBIN for the GPU's architecture (PTX when NVRTC does not know
//!   it), lowered kernel names.
//! - [`marshal`]: launch spec → parameter buffer, allocations, launch configuration (pure).
//!
//! The CPU device interprets IR; a GPU needs the source the IR came from, so a
//! [`CudaDevice`] is made from a [`Gpu`] and a [`CudaSource`], and its [`Device::run`] takes
//! the module parsed from that same source (for parameter types, globals, kernel names).
//! `CudaSource` is the path, the text, `-I`/`-D` and in-memory headers such as
//! `gmrace_runtime.cuh`. `nvrtc_input(source)` is what NVRTC gets (the device-only main text and
//! every in-memory header), for the device and for the tests.
//!
//! A run compiles and loads the module (kept for the kernel and globals it was compiled for: a
//! checked run asks for the shared window first, `Device::shared_window_bytes`, which needs the
//! compiled kernel's `CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`, then runs), allocates and copies the
//! buffers, writes `[globals]` through module globals (the others keep their initialisers),
//! launches with `cuLaunchKernel`, synchronises, and reads every buffer argument and
//! `__device__` scalar-typed global back (`--dump-buffers`). The runtime buffer of an
//! instrumented kernel (`unsigned int *__gmrace_rt`, the last parameter) is one more buffer
//! argument of the launch and comes back like the others.
//!
//! `unsafe` is confined to FFI: the `nvrtc.rs` calls, the library checks of `probe.rs`, the
//! launch in this module and the descriptors of `stdout.rs`, each with the reason it holds.
//! cudarc's feature `cuda-12000` selects the oldest CUDA 12 bindings, so any CUDA 12 or later
//! driver has every symbol they use; CUDA 13's NVRTC no longer compiles for sm_70 (DESIGN.md's
//! target), and cudarc's 12.x bindings look for `libnvrtc.so.12`.
//!
//! Not measured on a GPU: step and thread-instruction counts (reported as 0), printf (the
//! driver prints it to stdout at synchronisation, outside the report; to stderr with
//! [`CudaDevice::printf_to_stderr`]), the thread and line of a memory fault (the driver does
//! not tell; the fault says to use `--backend emu`). `--max-steps` does not apply: a kernel
//! still running after the time limit (`wait`, 60 s by default) is a `step-budget` fault.
//!
//! Tested without a GPU: the probe on a machine without a driver (an error, no panic; the CLI's
//! exit 2 or fallback), marshalling (unit tests), source preparation (clang PTX on the corpus,
//! and NVRTC itself where it is installed), and `cli/tests/fake_driver.rs`, which runs the whole
//! host side, checked runs included, against a stand-in `libcuda.so` and `libnvrtc.so`.
//! Seen on an H200 (driver 580, CUDA 13.0; `benchmarks/results/gpu/`): the probe, NVRTC 13
//! CUBINs for sm_90 loaded and launched, plain runs of the device corpus under racecheck, a
//! kernel that never finishes (hence `wait`), CUDA 13's CCCL path (hence `nvrtc::options`).
//! Not yet seen on a GPU: the checked path (the runtime under independent thread scheduling,
//! the layout a real ptxas chooses, the overhead of checking) and the agreement of both devices.

pub mod marshal;
pub mod nvrtc;
pub mod probe;
pub mod source;
mod stdout;
mod wait;

pub use probe::{probe, Gpu};
pub use wait::{exit_leaving_gpu, gpu_held, DEFAULT_TIME_LIMIT};

use crate::launch::Launch;
use crate::report::{OutBuffer, RunResult};
use crate::{Device, DeviceError, RunOptions, SharedLimits};
use cudarc::driver::sys::{CUfunction_attribute, CUresult};
use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DriverError};
use cudarc::nvrtc::Ptx;
use gmrace_ir::{Kernel, Module, Space};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The source a module was parsed from, as NVRTC needs it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CudaSource {
    /// The main file's path (names it in messages; its directory is searched for includes).
    pub path: PathBuf,
    pub text: String,
    /// `-I DIR`, as the front end had them.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, as the front end had them.
    pub defines: Vec<(String, Option<String>)>,
    /// Headers given in memory, by include name (e.g. `gmrace_runtime.cuh` for an
    /// instrumented file).
    pub headers: Vec<(String, String)>,
    /// The user headers, by path, as [`CudaSource::capture`] read them: when present, the
    /// only files looked for (a bundle on a machine without the user's files).
    #[serde(default)]
    pub files: Option<BTreeMap<PathBuf, String>>,
}

impl CudaSource {
    /// Reads every user header the source includes (as NVRTC's input would) into `files`,
    /// so that the source compiles the same where those files are not.
    pub fn capture(&mut self) {
        let read = RefCell::new(BTreeMap::new());
        source::device_source_with(&self.text, &self.path, &self.include_dirs, &|p| {
            let text = std::fs::read_to_string(p).ok()?;
            read.borrow_mut().insert(p.to_path_buf(), text.clone());
            Some(text)
        });
        self.files = Some(read.into_inner());
    }
}

/// What NVRTC gets for `source`: the device-only main file (host code cut) and every header
/// in memory (the caller's, such as the runtime header, first).
pub fn nvrtc_input(source: &CudaSource) -> (source::DeviceSource, Vec<(String, String)>) {
    let device_src = match &source.files {
        None => source::device_source(&source.text, &source.path, &source.include_dirs),
        Some(files) => {
            source::device_source_with(&source.text, &source.path, &source.include_dirs, &|p| {
                files.get(p).cloned()
            })
        }
    };
    let headers = device_src.nvrtc_headers(&source.headers);
    (device_src, headers)
}

/// A GPU with the program it runs.
pub struct CudaDevice {
    gpu: Gpu,
    source: CudaSource,
    printf_to_stderr: bool,
    /// How long a run waits for its kernel (`wait`).
    time_limit: Duration,
    /// The last module compiled and loaded, for the kernel and globals it was compiled for:
    /// NVRTC takes seconds, and a checked run needs the kernel before the launch.
    loaded: Mutex<Option<Loaded>>,
}

/// A kernel compiled and loaded, with the symbols of the globals the launch uses.
#[derive(Clone)]
struct Loaded {
    kernel: usize,
    /// Indices into `Module::globals`; `lowered[k + 1]` is the symbol of `globals[k]`.
    globals: Vec<usize>,
    lowered: Vec<String>,
    module: Arc<CudaModule>,
    func: CudaFunction,
}

impl CudaDevice {
    pub fn new(gpu: Gpu, source: CudaSource) -> Self {
        CudaDevice {
            gpu,
            source,
            printf_to_stderr: false,
            time_limit: DEFAULT_TIME_LIMIT,
            loaded: Mutex::new(None),
        }
    }

    /// Sends the kernel's `printf` output to stderr instead of stdout (for JSON on stdout).
    pub fn printf_to_stderr(mut self, yes: bool) -> Self {
        self.printf_to_stderr = yes;
        self
    }

    /// How long a run waits for its kernel before reporting it unfinished (`wait`).
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = limit;
        self
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The launched kernel compiled by NVRTC and loaded, with the symbols of the globals the
    /// launch writes or the run reads back; compiled once for a kernel and those globals.
    fn load(&self, module: &Module, launch: &Launch) -> Result<Loaded, DeviceError> {
        if gpu_held() {
            return Err(DeviceError::plain(
                "the GPU is still running a kernel of this process that never finished",
            ));
        }
        let kernel = module
            .kernels
            .get(launch.kernel)
            .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
        // Symbols: the kernel, then every global the launch writes or the run reads back.
        let globals: Vec<usize> = (0..module.globals.len())
            .filter(|&g| {
                launch.globals.get(g).is_some_and(Option::is_some)
                    || (module.globals[g].space == Space::Global
                        && module.globals[g].elem.is_some())
            })
            .collect();
        // A poisoned lock only means another run panicked: the cache is still consistent.
        let mut cache = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = cache
            .as_ref()
            .filter(|l| l.kernel == launch.kernel && l.globals == globals)
        {
            return Ok(l.clone());
        }
        let file = self.source.path.display().to_string();
        let (device_src, headers) = nvrtc_input(&self.source);
        if kernel.span.file == 0 && device_src.is_removed(kernel.span.line) {
            return Err(DeviceError::plain(format!(
                "kernel `{}` (line {}) was taken for host code and cut from what NVRTC compiles",
                kernel.name, kernel.span.line
            )));
        }
        let mut names = vec![format!("&{}", kernel.name)];
        names.extend(
            globals
                .iter()
                .map(|&g| format!("&{}", module.globals[g].name)),
        );
        let mut defines = self.source.defines.clone();
        defines.extend(module.header.defines.iter().cloned());
        let options = nvrtc::options(
            self.gpu.target,
            &self.source.path,
            &self.source.include_dirs,
            &defines,
            nvrtc::toolkit_include().as_deref(),
        );
        let compiled = nvrtc::compile(&device_src.text, &file, &headers, &options, &names)?;
        let image = match compiled.image {
            nvrtc::Image::Cubin(bytes) => Ptx::from_binary(bytes),
            nvrtc::Image::Ptx(text) => Ptx::from_src(text),
        };
        let cu_module = self
            .gpu
            .ctx
            .load_module(image)
            .map_err(|e| driver("loading the compiled module", e))?;
        let func = cu_module
            .load_function(&compiled.lowered[0])
            .map_err(|e| driver(&format!("finding kernel `{}`", kernel.name), e))?;
        let loaded = Loaded {
            kernel: launch.kernel,
            globals,
            lowered: compiled.lowered,
            module: cu_module,
            func,
        };
        *cache = Some(loaded.clone());
        Ok(loaded)
    }
}

fn driver(what: &str, e: DriverError) -> DeviceError {
    DeviceError::plain(format!("CUDA: {what} failed: {}", probe::describe(&e)))
}

impl Device for CudaDevice {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn shared_limits(&self) -> SharedLimits {
        self.gpu.shared
    }

    /// The driver's reserved shared memory (sm_80 and later keep the window's first KiB),
    /// the kernel's static shared memory as ptxas allocated it, then the dynamic area at its
    /// alignment.
    fn shared_window_bytes(&self, module: &Module, launch: &Launch) -> Result<u64, DeviceError> {
        let kernel = module
            .kernels
            .get(launch.kernel)
            .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
        let loaded = self.load(module, launch)?;
        let static_bytes = loaded
            .func
            .shared_size_bytes()
            .map_err(|e| driver("asking the kernel's static shared memory", e))?;
        Ok(marshal::shared_window_bytes(
            self.gpu.reserved_shared,
            static_bytes.max(0) as u64,
            kernel,
            launch.dynamic_shared_bytes,
        ))
    }

    fn run(
        &self,
        module: &Module,
        launch: &Launch,
        _opts: &RunOptions,
    ) -> Result<RunResult, DeviceError> {
        let kernel = module
            .kernels
            .get(launch.kernel)
            .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
        let plan = marshal::plan(kernel, launch)?;
        let Loaded {
            globals,
            lowered,
            module: cu_module,
            func,
            ..
        } = self.load(module, launch)?;
        let stream = self.gpu.ctx.default_stream();
        if let Some(bytes) = plan.shared_opt_in {
            func.set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes as i32,
            )
            .map_err(|e| driver("allowing more than 48 KiB of shared memory", e))?;
        }

        let slices = upload(&stream, &plan, launch, &globals, &lowered, &cu_module)?;
        let ptrs: Vec<u64> = slices
            .iter()
            .map(|s| s.as_ref().map_or(0, |s| s.device_ptr(&stream).0))
            .collect();
        let mut words = plan.pack(&ptrs);
        let base = words.as_mut_ptr() as *mut u8;
        let mut params: Vec<*mut c_void> = plan
            .params
            .iter()
            // SAFETY: every offset is inside `words` (`pack` sizes it from the plan).
            .map(|p| unsafe { base.add(p.offset) } as *mut c_void)
            .collect();

        // A GPU run has no access trace (`RunOptions::trace` is the CPU device's).
        let mut result = RunResult {
            parallel: true,
            ..RunResult::new(&kernel.name, launch)
        };
        let launch_and_wait = || {
            // SAFETY: `params` has one pointer per kernel parameter, each to a value of the
            // parameter's size laid out by `marshal::plan` from the kernel's own parameter
            // types; buffer pointers are live allocations of the size the launch spec gives
            // (the kernel may still index outside them: the driver reports that as a fault).
            unsafe {
                cudarc::driver::result::launch_kernel(
                    func.cu_function(),
                    plan.grid,
                    plan.block,
                    plan.dynamic_shared_bytes,
                    stream.cu_stream(),
                    &mut params,
                )
            }
            .and_then(|()| wait::finished_within(&stream, self.time_limit))
            // Synchronising also makes the driver print the kernel's printf output.
            .and_then(|done| {
                if done {
                    stream.synchronize().map(|()| true)
                } else {
                    Ok(false)
                }
            })
        };
        let launched = stdout::around_launch(self.printf_to_stderr, launch_and_wait);
        if let Ok(false) = launched {
            // Dropping any of these would wait for the kernel (`wait`).
            wait::hold();
            let cached = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).take();
            std::mem::forget((slices, cu_module, func, cached, self.gpu.ctx.clone()));
            result.faults.push(marshal::unfinished(self.time_limit));
            return Ok(result);
        }
        if let Err(e) = launched {
            return match marshal::fault_of(e.0) {
                // The context is unusable after a kernel fault: nothing to read back.
                Some(f) => {
                    result.faults.push(f);
                    Ok(result)
                }
                None if e.0 == CUresult::CUDA_ERROR_INVALID_VALUE => Err(driver(
                    "launching the kernel (check grid, block and shared memory)",
                    e,
                )),
                None => Err(driver("running the kernel", e)),
            };
        }

        result.buffers = read_back(
            &stream,
            &plan,
            kernel,
            module,
            &slices,
            (&globals, &lowered, &cu_module),
        )?;
        Ok(result)
    }
}

/// Device memory: buffer arguments (none for an empty one: its pointer is null), then the
/// `[globals]` contents; other globals keep their initialisers from the module.
fn upload(
    stream: &Arc<CudaStream>,
    plan: &marshal::LaunchPlan,
    launch: &Launch,
    globals: &[usize],
    lowered: &[String],
    cu_module: &Arc<CudaModule>,
) -> Result<Vec<Option<CudaSlice<u8>>>, DeviceError> {
    let mut slices: Vec<Option<CudaSlice<u8>>> = Vec::with_capacity(plan.buffers.len());
    for (_, b) in &plan.buffers {
        slices.push(if b.bytes.is_empty() {
            None
        } else {
            Some(
                stream
                    .clone_htod(&b.bytes)
                    .map_err(|e| driver(&format!("allocating buffer `{}`", b.name), e))?,
            )
        });
    }
    for (k, &g) in globals.iter().enumerate() {
        let Some(Some(b)) = launch.globals.get(g) else {
            continue;
        };
        let mut view = cu_module
            .get_global(&lowered[k + 1], stream)
            .map_err(|e| driver(&format!("finding global `{}`", b.name), e))?;
        let n = b.bytes.len().min(view.len());
        stream
            .memcpy_htod(&b.bytes[..n], &mut view.slice_mut(..n))
            .map_err(|e| driver(&format!("writing global `{}`", b.name), e))?;
    }
    Ok(slices)
}

/// Every buffer argument and `__device__` scalar-typed global, read back after the run.
fn read_back(
    stream: &Arc<CudaStream>,
    plan: &marshal::LaunchPlan,
    kernel: &Kernel,
    module: &Module,
    slices: &[Option<CudaSlice<u8>>],
    (globals, lowered, cu_module): (&[usize], &[String], &Arc<CudaModule>),
) -> Result<Vec<OutBuffer>, DeviceError> {
    let mut out = Vec::new();
    for ((param, b), slice) in plan.buffers.iter().zip(slices) {
        let bytes = match slice {
            Some(s) => stream
                .clone_dtoh(s)
                .map_err(|e| driver(&format!("reading buffer `{}` back", b.name), e))?,
            None => Vec::new(),
        };
        out.push(OutBuffer {
            name: kernel.params[*param].name.clone(),
            kind: "param",
            elem: b.elem,
            len: b.len,
            bytes,
        });
    }
    for (k, &gi) in globals.iter().enumerate() {
        let g = &module.globals[gi];
        let (Space::Global, Some(elem)) = (g.space, g.elem) else {
            continue;
        };
        let view = cu_module
            .get_global(&lowered[k + 1], stream)
            .map_err(|e| driver(&format!("finding global `{}`", g.name), e))?;
        let bytes = stream
            .clone_dtoh(&view)
            .map_err(|e| driver(&format!("reading global `{}` back", g.name), e))?;
        out.push(OutBuffer {
            name: g.name.clone(),
            kind: "global",
            elem,
            len: g.size_bytes / elem.size() as u64,
            bytes,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A captured source gives NVRTC the same input where its user headers are gone.
    #[test]
    fn a_captured_source_needs_no_files() {
        let dir = std::env::temp_dir().join(format!("gmrace-capture-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("inc")).unwrap();
        std::fs::write(
            dir.join("inc/common.h"),
            "#include \"deep.h\"\nint host() { return 1; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("inc/deep.h"),
            "#define N 64\n__device__ int twice(int x) { return 2 * x; }\n",
        )
        .unwrap();
        let mut source = CudaSource {
            path: dir.join("k.cu"),
            text: "#include \"common.h\"\n__global__ void k(int *p) { p[0] = twice(N); }\n".into(),
            include_dirs: vec![dir.join("inc")],
            defines: Vec::new(),
            headers: Vec::new(),
            files: None,
        };
        let (before, headers) = nvrtc_input(&source);
        assert!(headers
            .iter()
            .any(|(n, t)| n == "deep.h" && t.contains("twice")));
        source.capture();
        std::fs::remove_dir_all(&dir).unwrap();
        let (after, headers_after) = nvrtc_input(&source);
        assert_eq!(after.text, before.text);
        assert_eq!(headers_after, headers);
        assert_eq!(source.files.as_ref().map(BTreeMap::len), Some(2));
    }
}
