//! What the CUDA device prepares without a GPU: the device-only source NVRTC compiles and the
//! launch's parameter buffer.

#[path = "../common/design_clang.rs"]
mod design_clang;
mod marshal;
mod source;
