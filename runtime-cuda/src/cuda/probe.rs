//! Finding a usable GPU without ever panicking.
//!
//! cudarc loads libcuda and libnvrtc on first use and panics when it cannot (and on a missing
//! symbol). So, before any other cudarc call: both libraries must load under the names cudarc
//! itself tries (`is_culib_present` runs cudarc's own candidate list), the driver must be at
//! least the CUDA version of the bindings (12.0), so every symbol they call exists, NVRTC at
//! least 11.2 (for the same reason), a context on device 0, of compute capability 7.0 or later
//! (DESIGN.md's target), and NVRTC able to compile for it. Each failure is a `DeviceError` saying
//! which. The `Gpu` also keeps the device's shared-memory figures (per block, opt-in maximum,
//! reserved).

use super::nvrtc::{self, Target};
use crate::{DeviceError, SharedLimits};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{sys, CudaContext, DriverError};
use std::sync::Arc;

/// The driver API version the bindings were generated for (feature `cuda-12000`).
const MIN_DRIVER_VERSION: i32 = 12000;

/// A GPU ready to take modules: device 0's primary context.
#[derive(Clone)]
pub struct Gpu {
    pub(super) ctx: Arc<CudaContext>,
    pub name: String,
    pub compute_capability: (i32, i32),
    /// As `cuDriverGetVersion` gives it: 12040 is CUDA 12.4.
    pub driver_version: i32,
    pub nvrtc_version: (i32, i32),
    /// What NVRTC compiles for.
    pub target: Target,
    /// Shared memory per block: static, and static plus dynamic with the opt-in.
    pub shared: SharedLimits,
    /// Shared memory the driver reserves in every block (1 KiB from sm_80 on).
    pub reserved_shared: u64,
}

/// A driver error as the driver words it: `no CUDA-capable device is detected
/// (CUDA_ERROR_NO_DEVICE)`.
pub fn describe(e: &DriverError) -> String {
    match e.error_string() {
        Ok(s) => format!("{} ({:?})", s.to_string_lossy(), e.0),
        Err(_) => format!("{:?}", e.0),
    }
}

/// The Linux names cudarc tries for a library, for messages (`libcuda.so`, `libcuda.so.1`, ...).
fn tried_names(lib: &str) -> String {
    let prefix = format!("lib{lib}.so");
    let mut names: Vec<String> = cudarc::get_lib_name_candidates(lib)
        .into_iter()
        .filter(|n| n.starts_with(&prefix))
        .collect();
    names.dedup();
    names.join(", ")
}

/// Whether the CUDA driver library can be loaded (no cudarc call that could panic).
pub fn driver_present() -> bool {
    // SAFETY: only tries `dlopen` on cudarc's candidate names; loads no symbol.
    unsafe { sys::is_culib_present() }
}

/// Whether NVRTC can be loaded.
pub fn nvrtc_present() -> bool {
    // SAFETY: as in `driver_present`.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Opens device 0, or says precisely why there is no usable GPU.
pub fn probe() -> Result<Gpu, DeviceError> {
    if !driver_present() {
        return Err(DeviceError::plain(format!(
            "no CUDA driver: none of {} could be loaded",
            tried_names("cuda")
        )));
    }
    let mut version = 0;
    // SAFETY: the library is loadable (checked above); cuDriverGetVersion exists in every
    // driver and needs no cuInit; it writes one int.
    let r = unsafe { sys::cuDriverGetVersion(&mut version) };
    if r != sys::CUresult::CUDA_SUCCESS {
        return Err(DeviceError::plain(format!(
            "the CUDA driver library loads but does not work: cuDriverGetVersion gave {r:?}"
        )));
    }
    if version < MIN_DRIVER_VERSION {
        return Err(DeviceError::plain(format!(
            "the CUDA driver supports CUDA {}.{}; gmrace needs 12.0 or later",
            version / 1000,
            version % 1000 / 10
        )));
    }
    if !nvrtc_present() {
        return Err(DeviceError::plain(format!(
            "a CUDA driver is present but NVRTC is not: none of {} could be loaded (install \
             the CUDA 12 runtime compiler, e.g. the cuda-nvrtc package, or add its directory \
             to LD_LIBRARY_PATH)",
            tried_names("nvrtc")
        )));
    }
    let (nvrtc_version, archs) = nvrtc::version_and_archs()?;
    let ctx = CudaContext::new(0).map_err(|e| {
        DeviceError::plain(format!(
            "the CUDA driver offers no usable GPU: {}",
            describe(&e)
        ))
    })?;
    let compute_capability = ctx
        .compute_capability()
        .map_err(|e| DeviceError::plain(format!("cannot query the GPU: {}", describe(&e))))?;
    let name = ctx.name().unwrap_or_else(|_| "GPU 0".to_string());
    if compute_capability < (7, 0) {
        return Err(DeviceError::plain(format!(
            "{name} has compute capability {}.{}; gmrace targets 7.0 and later",
            compute_capability.0, compute_capability.1
        )));
    }
    let target = nvrtc::target(compute_capability, &archs)?;
    let attribute = |a: CUdevice_attribute| {
        ctx.attribute(a)
            .map(|v| v.max(0) as u64)
            .map_err(|e| DeviceError::plain(format!("cannot query {name}: {}", describe(&e))))
    };
    let static_bytes =
        attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?;
    let opt_in =
        attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
    let reserved_shared =
        attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)?;
    Ok(Gpu {
        ctx,
        name,
        compute_capability,
        driver_version: version,
        nvrtc_version,
        target,
        shared: SharedLimits {
            static_bytes,
            total_bytes: opt_in.max(static_bytes),
        },
        reserved_shared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tried_are_the_linux_sonames() {
        let n = tried_names("cuda");
        assert!(
            n.contains("libcuda.so.1") && n.starts_with("libcuda.so"),
            "{n}"
        );
        assert!(tried_names("nvrtc").contains("libnvrtc.so.12"));
    }

    /// Without a driver (every machine this project is tested on) the probe is an error that
    /// names the library, never a panic; with one it yields a sm_70+ device or an error.
    #[test]
    fn probing_never_panics() {
        match probe() {
            Ok(gpu) => assert!(gpu.compute_capability >= (7, 0)),
            Err(e) if !driver_present() => {
                assert!(e.message.starts_with("no CUDA driver"), "{}", e.message);
                assert!(e.message.contains("libcuda.so.1"), "{}", e.message);
            }
            Err(e) => assert!(!e.message.is_empty()),
        }
    }
}
