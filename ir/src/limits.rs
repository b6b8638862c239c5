//! CUDA's limits on a launch, as DESIGN.md's "Semantics" fixes them (compute capability 7.0):
//! the one definition the analysis, the launch specs, the devices and the instrumenter check.

pub const MAX_THREADS_PER_BLOCK: u64 = 1024;
/// Block extents, x, y, z.
pub const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
/// Grid extents, x, y, z.
pub const MAX_GRID: [u32; 3] = [i32::MAX as u32, 65535, 65535];
/// Static shared memory of one block; above it a kernel must opt in (`cuFuncSetAttribute`).
pub const MAX_STATIC_SHARED_BYTES: u64 = 48 * 1024;
/// Static plus dynamic shared memory of one block: sm_70's opt-in maximum.
pub const MAX_TOTAL_SHARED_BYTES: u64 = 96 * 1024;
