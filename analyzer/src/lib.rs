//! gmrace's analyzer: the CUDA front end (libclang → kernel IR) and the static race analysis
//! over that IR. See ARCHITECTURE.md for the code map.

pub mod analysis;
pub mod collections;
pub mod frontend;
/// The IR lives in its own crate so that the CPU device runs kernels without libclang or z3;
/// the analyzer's own code names it `crate::ir`.
pub use gmrace_ir as ir;
