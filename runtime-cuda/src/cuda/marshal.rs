//! A checked launch ([`Launch`]) turned into what `cuLaunchKernel` takes, without a GPU: the
//! kernel parameter buffer (offsets with each parameter's natural alignment, scalars as
//! little-endian bits, buffers as device pointers filled in once allocated), the buffers to
//! allocate, grid, block and shared-memory configuration; and the driver errors that are
//! faults of the kernel rather than failures of the device. Pure, and unit-tested.
//!
//! The parameter buffer is at most 4096 bytes; an empty buffer gets a null pointer. Dynamic shared
//! memory above 48 KiB needs the `cuFuncSetAttribute` opt-in. Driver errors that are kernel
//! faults (`ILLEGAL_ADDRESS`, `MISALIGNED_ADDRESS`, `ASSERT`, `LAUNCH_FAILED`, ...) become
//! `Fault`s (exit 1, with no thread or line: the driver does not give them); all others are
//! `DeviceError`s.

use crate::launch::{static_shared_bytes, Arg, Buffer, Launch};
use crate::report::{Fault, FaultKind};
use crate::DeviceError;
use cudarc::driver::sys::CUresult;
use gmrace_ir::{Kernel, Space, Ty};
use std::time::Duration;

/// Kernel parameter bytes a launch may pass (sm_70 with any CUDA 12 driver).
pub const MAX_PARAM_BYTES: usize = 4096;

/// One kernel parameter in the parameter buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    pub offset: usize,
    pub size: usize,
    pub value: ParamValue,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// A scalar's bits (zero-extended, see `crate::num`).
    Bits(u64),
    /// The device pointer of `LaunchPlan::buffers[i]`.
    Buffer(usize),
}

/// Everything a launch needs, decided before touching the driver.
#[derive(Debug)]
pub struct LaunchPlan<'a> {
    /// One per kernel parameter, in order.
    pub params: Vec<ParamSlot>,
    pub param_bytes: usize,
    /// Buffer arguments in parameter order, with their parameter index.
    pub buffers: Vec<(usize, &'a Buffer)>,
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub dynamic_shared_bytes: u32,
    /// `Some(dynamic bytes)` when static plus dynamic shared memory needs the opt-in.
    pub shared_opt_in: Option<u32>,
}

/// Lays out the parameters of `kernel` for `launch` (one argument per parameter, as
/// `LaunchSpec::resolve` guarantees; anything else is an error, not a panic).
pub fn plan<'a>(kernel: &Kernel, launch: &'a Launch) -> Result<LaunchPlan<'a>, DeviceError> {
    if launch.args.len() != kernel.params.len() {
        return Err(DeviceError::plain(format!(
            "kernel `{}` takes {} arguments, the launch gives {}",
            kernel.name,
            kernel.params.len(),
            launch.args.len()
        )));
    }
    let mut params = Vec::with_capacity(kernel.params.len());
    let mut buffers = Vec::new();
    let mut offset = 0usize;
    for (p, arg) in kernel.params.iter().zip(&launch.args) {
        let (size, value) = match (p.ty, arg) {
            (Ty::Scalar(s), Arg::Scalar { ty, bits }) if *ty == s => {
                (s.size() as usize, ParamValue::Bits(*bits))
            }
            (Ty::Ptr(space), Arg::Buffer(b)) if space != Space::Param => {
                buffers.push((params.len(), b));
                (8, ParamValue::Buffer(buffers.len() - 1))
            }
            _ => {
                return Err(DeviceError::plain(format!(
                    "argument `{}` does not match the parameter's type in kernel `{}`",
                    p.name, kernel.name
                )))
            }
        };
        // Every parameter type here is a scalar or a pointer: aligned to its size.
        offset = offset.next_multiple_of(size);
        params.push(ParamSlot {
            offset,
            size,
            value,
        });
        offset += size;
    }
    if offset > MAX_PARAM_BYTES {
        return Err(DeviceError::plain(format!(
            "kernel `{}` takes {offset} bytes of parameters, more than CUDA's {MAX_PARAM_BYTES}",
            kernel.name
        )));
    }
    let total_shared = static_shared_bytes(kernel) + launch.dynamic_shared_bytes as u64;
    let [gx, gy, gz] = launch.grid;
    let [bx, by, bz] = launch.block;
    Ok(LaunchPlan {
        params,
        param_bytes: offset,
        buffers,
        grid: (gx, gy, gz),
        block: (bx, by, bz),
        dynamic_shared_bytes: launch.dynamic_shared_bytes,
        shared_opt_in: (total_shared > gmrace_ir::limits::MAX_STATIC_SHARED_BYTES)
            .then_some(launch.dynamic_shared_bytes),
    })
}

impl LaunchPlan<'_> {
    /// The parameter buffer, given the device pointer of each of `buffers` (0 for an empty
    /// buffer, which gets no allocation). Words, so that every offset is aligned in memory.
    pub fn pack(&self, device_ptrs: &[u64]) -> Vec<u64> {
        let mut bytes = vec![0u8; self.param_bytes.next_multiple_of(8)];
        for p in &self.params {
            let bits = match p.value {
                ParamValue::Bits(b) => b,
                ParamValue::Buffer(i) => device_ptrs.get(i).copied().unwrap_or(0),
            };
            bytes[p.offset..p.offset + p.size].copy_from_slice(&bits.to_le_bytes()[..p.size]);
        }
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect()
    }
}

/// The bytes of a block's shared window that `kernel` can reach on a GPU (what the race
/// checker's flag bitmaps must cover): the driver's `reserved` bytes (sm_80 and later reserve
/// the window's first KiB), `static_bytes` as ptxas allocated them, then the dynamic area at
/// the alignment of its `extern __shared__` arrays' types (16 at least, ptxas's default).
pub fn shared_window_bytes(reserved: u64, static_bytes: u64, kernel: &Kernel, dynamic: u32) -> u64 {
    let align = kernel
        .shared
        .iter()
        .filter(|s| s.size_bytes.is_none())
        .map(|s| s.align as u64)
        .fold(16, u64::max);
    (reserved + static_bytes).next_multiple_of(align) + dynamic as u64
}

/// The fault a failed launch or synchronisation stands for, when the kernel caused it (then
/// the run found a problem, exit 1); `None` for failures of the device itself.
pub fn fault_of(err: CUresult) -> Option<Fault> {
    let (kind, what) = match err {
        CUresult::CUDA_ERROR_ILLEGAL_ADDRESS => (
            FaultKind::InvalidAddress,
            "the kernel accessed memory outside every allocation",
        ),
        CUresult::CUDA_ERROR_MISALIGNED_ADDRESS => {
            (FaultKind::Misaligned, "the kernel made a misaligned access")
        }
        CUresult::CUDA_ERROR_ASSERT => (FaultKind::Trap, "a device-side assert failed"),
        CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION | CUresult::CUDA_ERROR_LAUNCH_FAILED => (
            FaultKind::Trap,
            "the kernel trapped (__trap, an illegal instruction or an unspecified launch failure)",
        ),
        CUresult::CUDA_ERROR_LAUNCH_TIMEOUT => (
            FaultKind::StepBudget,
            "the kernel ran past the display watchdog's time limit",
        ),
        _ => return None,
    };
    Some(gpu_fault(kind, format!("{what} ({err:?})")))
}

/// A kernel still running when the run's time limit (`wait`) ran out.
pub fn unfinished(limit: Duration) -> Fault {
    gpu_fault(
        FaultKind::StepBudget,
        format!(
            "the kernel did not finish within {} s: threads waiting at a barrier that others \
             never reach, or a loop that never ends; a GPU cannot stop it, so the GPU stays \
             busy until this process ends",
            limit.as_secs_f64()
        ),
    )
}

fn gpu_fault(kind: FaultKind, what: String) -> Fault {
    Fault {
        kind,
        message: format!(
            "{what}; the GPU does not say which thread or line: run with --backend emu for them"
        ),
        loc: None,
        block: None,
        threads: Vec::new(),
        thread_count: 0,
        memory: None,
        notes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_faults_are_told_from_device_failures() {
        let f = fault_of(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS).unwrap();
        assert_eq!(f.kind, FaultKind::InvalidAddress);
        assert!(f.message.contains("--backend emu"));
        assert_eq!(
            fault_of(CUresult::CUDA_ERROR_ASSERT).map(|f| f.kind),
            Some(FaultKind::Trap)
        );
        assert!(fault_of(CUresult::CUDA_ERROR_OUT_OF_MEMORY).is_none());
        assert!(fault_of(CUresult::CUDA_ERROR_NO_DEVICE).is_none());
    }
}
