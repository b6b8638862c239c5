//! gmrace's devices: the CPU SIMT device that executes kernel IR, and the CUDA device (cudarc +
//! NVRTC); launch specs and race-log decoding. Depends on the analyzer's IR only, never on the
//! instrumenter. Not implemented yet (issue 4); the crate fixes the layering.
