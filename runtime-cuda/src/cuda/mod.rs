//! The CUDA device (placeholder while being written).
pub mod source;
pub mod marshal;
