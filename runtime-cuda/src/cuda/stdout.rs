//! Where a kernel's `printf` goes. The driver writes it to the process's C `stdout` when the
//! launch synchronises, outside gmrace's control, and C stdio buffers it (fully, on a pipe).
//! So it is flushed right after the launch, before gmrace's own report, and DESIGN.md's rule
//! (on stderr when stdout carries JSON) is kept by pointing file descriptor 1 at stderr while
//! the launch runs.

/// Runs `f` (the launch) and flushes C stdio after it, with file descriptor 1 (stdout)
/// pointing at 2 (stderr) meanwhile when `to_stderr`.
pub fn around_launch<T>(to_stderr: bool, f: impl FnOnce() -> T) -> T {
    // SAFETY: dup, dup2, fflush and close on the process's own standard descriptors; gmrace
    // writes nothing to stdout while `f` runs, and descriptor 1 is restored before returning.
    let saved = if to_stderr {
        unsafe {
            libc::fflush(std::ptr::null_mut());
            let saved = libc::dup(1);
            if saved >= 0 {
                libc::dup2(2, 1);
            }
            saved
        }
    } else {
        -1
    };
    let out = f();
    unsafe {
        libc::fflush(std::ptr::null_mut());
        if saved >= 0 {
            libc::dup2(saved, 1);
            libc::close(saved);
        }
    }
    out
}
