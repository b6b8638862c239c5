//! A checked launch ([`Launch`]) turned into what `cuLaunchKernel` takes, without a GPU: the
//! kernel parameter buffer (offsets with each parameter's natural alignment, scalars as
//! little-endian bits, buffers as device pointers filled in once allocated), the buffers to
//! allocate, grid, block and shared-memory configuration; and the driver errors that are
//! faults of the kernel rather than failures of the device.

use crate::launch::{static_shared_bytes, Arg, Buffer, Launch};
use crate::report::{Fault, FaultKind};
use crate::DeviceError;
use cudarc::driver::sys::CUresult;
use gmrace_analyzer::ir::{Kernel, Space, Ty};

/// Kernel parameter bytes a launch may pass (sm_70 with any CUDA 12 driver).
pub const MAX_PARAM_BYTES: usize = 4096;
/// Shared memory per block above which a kernel must opt in (`cuFuncSetAttribute`).
pub const SHARED_WITHOUT_OPT_IN: u64 = 48 * 1024;

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
        shared_opt_in: (total_shared > SHARED_WITHOUT_OPT_IN)
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
    Some(Fault {
        kind,
        message: format!(
            "{what} ({err:?}); the GPU does not say which thread or line: run with \
             --backend emu for them"
        ),
        loc: None,
        block: None,
        threads: Vec::new(),
        thread_count: 0,
        memory: None,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::LaunchSpec;
    use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
    use gmrace_analyzer::ir::Module;
    use std::path::Path;

    fn module(src: &str) -> Module {
        parse_source("k.cu", src, &FrontendOptions::default()).expect("parses")
    }

    fn launch(m: &Module, spec: &str) -> Launch {
        LaunchSpec::parse(Path::new("k.toml"), spec.to_string())
            .and_then(|s| s.resolve(m))
            .expect("a valid spec")
    }

    /// Mixed sizes force padding; the instrumented runtime buffer comes last.
    const KERNEL: &str = "__global__ void k(char c, double *d, short s, int n, float f, \
                          unsigned long long u, unsigned int *__gmrace_rt) {\n\
                          __shared__ float tile[256]; extern __shared__ int dyn[];\n\
                          if (threadIdx.x < n) d[threadIdx.x] = c + s + f + u + tile[0] + dyn[0];\n\
                          if (threadIdx.x == 0) __gmrace_rt[0] = 1; }\n";

    const SPEC: &str = "grid = [3, 2]\nblock = [32, 4]\ndynamic_shared_bytes = 128\n[args]\n\
                        c = -2\nd = { len = 5, init = \"iota\" }\ns = 7\nn = 100\nf = 1.5\n\
                        u = 4294967296\n__gmrace_rt = { len = 16, init = \"zeros\" }\n";

    #[test]
    fn parameters_are_laid_out_with_natural_alignment() {
        let m = module(KERNEL);
        let l = launch(&m, SPEC);
        let p = plan(&m.kernels[0], &l).unwrap();
        let layout: Vec<(usize, usize)> = p.params.iter().map(|s| (s.offset, s.size)).collect();
        // char@0, pad to 8 for double*, short@16, int@20, float@24, pad, u64@32, ptr@40.
        assert_eq!(
            layout,
            [(0, 1), (8, 8), (16, 2), (20, 4), (24, 4), (32, 8), (40, 8)]
        );
        assert_eq!(p.param_bytes, 48);
        let names: Vec<(usize, &str)> = p.buffers.iter().map(|(i, b)| (*i, &*b.name)).collect();
        assert_eq!(names, [(1, "d"), (6, "__gmrace_rt")]);
        assert_eq!(
            (p.buffers[0].1.bytes.len(), p.buffers[1].1.bytes.len()),
            (40, 64)
        );
        assert_eq!((p.grid, p.block), ((3, 2, 1), (32, 4, 1)));
        assert_eq!((p.dynamic_shared_bytes, p.shared_opt_in), (128, None));
    }

    #[test]
    fn the_parameter_buffer_holds_values_and_device_pointers() {
        let m = module(KERNEL);
        let l = launch(&m, SPEC);
        let p = plan(&m.kernels[0], &l).unwrap();
        let words = p.pack(&[0xdead_0000, 0xbeef_0000]);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(bytes.len(), 48);
        assert_eq!(bytes[0], 0xfe); // (char)-2
        assert_eq!(&bytes[1..8], &[0; 7]);
        assert_eq!(
            u64::from_le_bytes(bytes[8..16].try_into().unwrap()),
            0xdead_0000
        );
        assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), 7);
        assert_eq!(i32::from_le_bytes(bytes[20..24].try_into().unwrap()), 100);
        assert_eq!(f32::from_le_bytes(bytes[24..28].try_into().unwrap()), 1.5);
        assert_eq!(
            u64::from_le_bytes(bytes[32..40].try_into().unwrap()),
            1 << 32
        );
        assert_eq!(
            u64::from_le_bytes(bytes[40..48].try_into().unwrap()),
            0xbeef_0000
        );
    }

    #[test]
    fn large_shared_memory_needs_the_opt_in() {
        let m = module(KERNEL);
        // 1 KiB static + 47 KiB dynamic = 48 KiB: no opt-in; one more byte needs it.
        let at_limit = SPEC.replace("= 128", &format!("= {}", 47 * 1024));
        let over = SPEC.replace("= 128", &format!("= {}", 47 * 1024 + 1));
        let p = plan(&m.kernels[0], &launch(&m, &at_limit))
            .unwrap()
            .shared_opt_in;
        assert_eq!(p, None);
        let p = plan(&m.kernels[0], &launch(&m, &over))
            .unwrap()
            .shared_opt_in;
        assert_eq!(p, Some(47 * 1024 + 1));
    }

    #[test]
    fn the_shared_window_ends_after_the_reserved_static_and_dynamic_bytes() {
        let m = module(KERNEL);
        let k = &m.kernels[0];
        assert_eq!(shared_window_bytes(0, 1024, k, 128), 1024 + 128);
        // The dynamic area starts at a 16-byte boundary after the reserved and static bytes.
        assert_eq!(shared_window_bytes(1024, 1030, k, 128), 2064 + 128);
        // A type aligned to 64 bytes moves the dynamic area to a 64-byte boundary.
        let aligned = module(
            "struct __align__(64) Big { float v[16]; };\n\
             __global__ void k(float *o) { extern __shared__ Big dyn[]; o[0] = dyn[0].v[0]; }\n",
        );
        assert_eq!(shared_window_bytes(0, 8, &aligned.kernels[0], 4), 64 + 4);
    }

    #[test]
    fn too_many_parameter_bytes_are_refused() {
        let params: Vec<String> = (0..513).map(|i| format!("double a{i}")).collect();
        let m = module(&format!("__global__ void k({}) {{}}\n", params.join(", ")));
        let args: String = (0..513).map(|i| format!("a{i} = 1.0\n")).collect();
        let l = launch(&m, &format!("grid = 1\nblock = 1\n[args]\n{args}"));
        let e = plan(&m.kernels[0], &l).unwrap_err();
        assert!(
            e.message.contains("4104 bytes of parameters"),
            "{}",
            e.message
        );
    }

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
