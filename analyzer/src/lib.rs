//! gmrace's analyzer: the CUDA front end (libclang → kernel IR) and, later, the static race
//! analysis over that IR. See ARCHITECTURE.md for the code map.

pub mod analysis;
pub mod frontend;
pub mod ir;
