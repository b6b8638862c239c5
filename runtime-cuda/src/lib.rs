//! gmrace's devices: the CPU SIMT device that executes kernel IR and the CUDA device (cudarc +
//! NVRTC); launch specs; run reports. Depends on the analyzer's IR only, never on the
//! instrumenter.
//!
//! - [`launch`]: launch specs (TOML) → [`launch::Launch`] (dimensions, arguments, buffers).
//! - [`Device`]: what a device does with a module and a launch; [`cpu::CpuDevice`] is the CPU
//!   SIMT device, [`cuda::CudaDevice`] a GPU (made from the module's source, which it compiles).
//! - [`race_log`]: the GMRace runtime buffer: sizing, attaching it to a launch, decoding races.
//! - [`report`]: faults, printf output and final buffers of a run; text rendering; buffer dumps.

pub mod cpu;
pub mod cuda;
pub mod launch;
pub mod num;
pub mod race_log;
pub mod report;
pub mod rng;

use gmrace_analyzer::ir::Module;
use report::{Loc, RunResult};

/// Default `--max-steps`: warp-instructions over the whole launch.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;
/// Kernel printf output kept per launch (CUDA's default FIFO is 1 MiB; more is dropped, and the
/// run says so).
pub const DEFAULT_PRINTF_LIMIT: usize = 8 << 20;

/// Called after each block of a sequential run with (blocks done, blocks in all).
pub type Progress = Box<dyn Fn(u64, u64) + Send + Sync>;

pub struct RunOptions {
    /// Step budget in warp-instructions over the whole launch.
    pub max_steps: u64,
    /// Worker threads for blocks (default: all cores).
    pub threads: Option<usize>,
    pub printf_limit: usize,
    pub progress: Option<Progress>,
    /// Record every shared-memory access in `RunResult::trace` (blocks then run in order).
    pub trace: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_steps: DEFAULT_MAX_STEPS,
            threads: None,
            printf_limit: DEFAULT_PRINTF_LIMIT,
            progress: None,
            trace: false,
        }
    }
}

/// Why a device could not run a launch at all (as opposed to faults of the kernel).
#[derive(Clone, Debug)]
pub struct DeviceError {
    pub message: String,
    pub loc: Option<Loc>,
}

impl DeviceError {
    pub fn plain(message: impl Into<String>) -> Self {
        DeviceError {
            message: message.into(),
            loc: None,
        }
    }
}

impl std::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The shared memory a device gives one block, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedLimits {
    /// Static shared memory (`__shared__` variables).
    pub static_bytes: u64,
    /// Static plus dynamic shared memory (with the opt-in above 48 KiB).
    pub total_bytes: u64,
}

/// A device that runs kernels.
pub trait Device {
    /// `emu` for the CPU device, `cuda` for a GPU.
    fn name(&self) -> &'static str;
    fn run(
        &self,
        module: &Module,
        launch: &launch::Launch,
        opts: &RunOptions,
    ) -> Result<RunResult, DeviceError>;
    /// The shared memory one block may have here.
    fn shared_limits(&self) -> SharedLimits;
    /// A bound on the shared-window offsets (`__cvta_generic_to_shared`) a block of `launch`
    /// reaches on this device: what the race checker's flag bitmaps cover. The device decides
    /// the layout (on a GPU, ptxas), so only the device can say.
    fn shared_window_bytes(
        &self,
        module: &Module,
        launch: &launch::Launch,
    ) -> Result<u64, DeviceError>;
}
