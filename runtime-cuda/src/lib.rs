//! gmrace's devices: the CPU SIMT device that executes kernel IR and the CUDA device (cudarc +
//! NVRTC); launch specs; run reports. Depends on the analyzer's IR only, never on the
//! instrumenter.
//!
//! - [`launch`]: launch specs (TOML) → [`launch::Launch`] (dimensions, arguments, buffers).
//! - [`Device`]: what a device does with a module and a launch; [`cpu::CpuDevice`] is the CPU
//!   SIMT device, [`cuda::CudaDevice`] a GPU (made from the module's source, which it compiles).
//! - [`race_log`]: the GMRace runtime buffer: sizing, attaching it to a launch, decoding races.
//! - [`report`]: faults, printf output and final buffers of a run; text rendering; buffer dumps.
//!
//! A `Device` runs a module's kernel under a launch (`run(module, launch, opts)`), and tells
//! what only it knows: `shared_limits()`, the shared memory a block may have (for the
//! warpTable's placement), and `shared_window_bytes(module, launch)`, the bound of the
//! shared-window offsets a block reaches (the CPU device's own layout, or on a GPU the driver's
//! reserved bytes + ptxas's static size + the dynamic area). `RunOptions` carry the step budget,
//! the printf limit and a progress callback (`RunProgress` after each block and every 2^20
//! warp-instructions within one, so that a long block shows progress on a terminal too).
//! `StepBudget` is `--max-steps`, or by default 2^20 warp-instructions per warp of the launch,
//! between 2^26 and 2^32: deterministic, and a hung block stops in seconds; the fault says which
//! budget it was. A `DeviceError` means the launch could not run, which is distinct from a fault
//! of the kernel.
//!
//! Invariants: the CPU device interprets per warp-instruction over active lanes, never per
//! thread, and has no unsafe code (the CUDA device confines `unsafe` to FFI); nothing the user
//! feeds in panics.

pub mod bundle;
pub mod cpu;
pub mod cuda;
pub mod launch;
pub mod program;
pub mod race_log;
pub mod report;
pub mod rng;

use gmrace_ir::Module;
use report::{Loc, RunResult};

/// The default step budget, per warp of the launch (see [`StepBudget`]).
pub const STEPS_PER_WARP: u64 = 1 << 20;
/// The least default step budget of a launch.
pub const MIN_DEFAULT_STEPS: u64 = 1 << 26;
/// The most default step budget of a launch.
pub const MAX_DEFAULT_STEPS: u64 = 1 << 32;
/// Kernel printf output kept per launch (CUDA's default FIFO is 1 MiB; more is dropped, and the
/// run says so).
pub const DEFAULT_PRINTF_LIMIT: usize = 8 << 20;

/// Where a launch is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunProgress {
    pub blocks_done: u64,
    pub blocks: u64,
    /// Warp-instructions spent of the step budget (approximate while blocks run in parallel).
    pub steps: u64,
    pub budget: u64,
}

/// Called after each block and every million or so warp-instructions within one, so that a
/// long block shows progress too.
pub type Progress = Box<dyn Fn(RunProgress) + Send + Sync>;

pub struct RunOptions {
    /// Step budget in warp-instructions over the whole launch (`--max-steps`); `None`: the
    /// launch's default ([`StepBudget::for_launch`]).
    pub max_steps: Option<u64>,
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
            max_steps: None,
            threads: None,
            printf_limit: DEFAULT_PRINTF_LIMIT,
            progress: None,
            trace: false,
        }
    }
}

/// A launch's step budget in warp-instructions, and where it came from (for the message when
/// it runs out).
///
/// The default scales with the launch, so that a hung kernel is stopped after a time that does
/// not depend on the machine (a wall-clock watchdog would make verdicts depend on load): a
/// fixed number per warp, which every kernel of the corpora and benchmarks stays far below,
/// with a floor that a one-block spin reaches in a couple of seconds in a release build and a
/// ceiling for huge grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepBudget {
    pub steps: u64,
    /// The warps of the launch when the budget is the default, `None` when given.
    pub default_for_warps: Option<u64>,
}

impl StepBudget {
    pub fn for_launch(max_steps: Option<u64>, warps: u64) -> StepBudget {
        match max_steps {
            Some(steps) => StepBudget {
                steps,
                default_for_warps: None,
            },
            None => StepBudget {
                steps: warps
                    .saturating_mul(STEPS_PER_WARP)
                    .clamp(MIN_DEFAULT_STEPS, MAX_DEFAULT_STEPS),
                default_for_warps: Some(warps),
            },
        }
    }

    /// Which budget it is and how to raise it, after "did not finish within".
    pub fn describe(&self) -> String {
        match self.default_for_warps {
            None => format!(
                "the step budget of {} warp-instructions given by --max-steps",
                self.steps
            ),
            Some(warps) => format!(
                "the default step budget of {} warp-instructions ({STEPS_PER_WARP} per warp for \
                 {warps} warps, at least {MIN_DEFAULT_STEPS}, at most {MAX_DEFAULT_STEPS}); \
                 raise it with --max-steps N",
                self.steps
            ),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_step_budget_scales_with_the_warps_between_floor_and_ceiling() {
        // One block: the floor, which stops a spinning block in seconds.
        let one = StepBudget::for_launch(None, 1);
        assert_eq!(one.steps, MIN_DEFAULT_STEPS);
        assert_eq!(StepBudget::for_launch(None, 32).steps, MIN_DEFAULT_STEPS);
        assert_eq!(
            StepBudget::for_launch(None, 1024).steps,
            1024 * STEPS_PER_WARP
        );
        assert_eq!(
            StepBudget::for_launch(None, u64::MAX).steps,
            MAX_DEFAULT_STEPS
        );
        // `--max-steps` overrides it, whatever the launch.
        let given = StepBudget::for_launch(Some(7), 1024);
        assert_eq!(given.steps, 7);
        assert!(given.describe().contains("given by --max-steps"));
        let text = one.describe();
        assert!(
            text.starts_with("the default step budget of 67108864"),
            "{text}"
        );
        assert!(text.contains("raise it with --max-steps"), "{text}");
    }
}
