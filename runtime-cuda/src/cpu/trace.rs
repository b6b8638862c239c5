//! The raw shared-memory access trace of a run (`RunOptions::trace`): what an independent race
//! detector needs to judge the run without the device runtime's help. With `RunOptions::trace`
//! blocks run in order, and every shared-memory access is recorded with its block, thread,
//! access id, object and bytes, kind, the barriers passed and the warp's instruction count
//! (the lanes of one warp-instruction share it).

/// How an access touches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TraceKind {
    Read,
    Write,
    Atomic,
}

/// One lane's access to a shared object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// Linear block number (x fastest).
    pub block: u64,
    /// Linear thread id within the block; its warp is `tid / 32`.
    pub tid: u32,
    /// The kernel's access id (`Kernel::accesses`).
    pub access: u32,
    /// The shared object (index into the CPU device's `memory::Layout::objs`) and the bytes.
    pub obj: u32,
    pub offset: u64,
    pub size: u32,
    pub kind: TraceKind,
    /// Block barriers this thread had passed: accesses with equal numbers are in one barrier
    /// interval.
    pub interval: u32,
    /// Warp-instructions the warp had executed: the lanes of one warp-instruction share it
    /// (one statement execution in the lock-step model).
    pub stamp: u64,
}
