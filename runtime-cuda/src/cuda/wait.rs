//! Waiting for a launch, for a limited time. Nothing stops a kernel on a GPU: threads waiting
//! at a barrier that others of their block never reach, or a loop that never ends, keep it
//! running until the process that launched it ends (the driver then tears its context down).
//! So a run waits at most its time limit ([`DEFAULT_TIME_LIMIT`] unless
//! `CudaDevice::time_limit` says otherwise) and reports a kernel still running then as a
//! `step-budget` fault, the GPU's counterpart of the CPU device's step budget.
//!
//! The GPU is then held for the rest of the process: freeing memory, unloading the module,
//! releasing the context and the driver's own handlers at exit all wait for the kernel, so a
//! run that leaves one running leaks every GPU object it made (seen on an H200: the fault was
//! reported, then the process never ended), later runs are refused, and the program ends with
//! [`exit_leaving_gpu`]; the driver stops the kernel once the process is gone.
//!
//! The wait spins for the first [`SPIN`], so that a short kernel's time is measured closely,
//! then polls every [`POLL`].

use cudarc::driver::sys::{self, CUresult};
use cudarc::driver::{CudaStream, DriverError};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(60);
const SPIN: Duration = Duration::from_millis(100);
const POLL: Duration = Duration::from_millis(1);

/// Whether the work queued on `stream` finished within `limit` (a failed kernel counts as
/// finished: its error is returned).
pub fn finished_within(stream: &CudaStream, limit: Duration) -> Result<bool, DriverError> {
    let start = Instant::now();
    loop {
        // SAFETY: `stream` is a live stream of the current context; the query only reads it.
        match unsafe { sys::cuStreamQuery(stream.cu_stream()) } {
            CUresult::CUDA_ERROR_NOT_READY => {}
            r => return r.result().map(|()| true),
        }
        let waited = start.elapsed();
        if waited >= limit {
            return Ok(false);
        }
        if waited < SPIN {
            std::thread::yield_now();
        } else {
            std::thread::sleep(POLL);
        }
    }
}

static GPU_HELD: AtomicBool = AtomicBool::new(false);

/// Whether a kernel this process launched never finished (module docs).
pub fn gpu_held() -> bool {
    GPU_HELD.load(Ordering::SeqCst)
}

pub(crate) fn hold() {
    GPU_HELD.store(true, Ordering::SeqCst);
}

/// Ends the process with `code` without waiting for the GPU: what was printed is flushed, then
/// `_exit` (no destructors, no exit handlers: they would wait for the kernel).
pub fn exit_leaving_gpu(code: u8) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: fflush(NULL) flushes C stdio (the kernel's printf); `_exit` ends the process
    // without running anything else.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code.into())
    }
}
