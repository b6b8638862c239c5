//! The library half of the `gmrace` package: the checked-run pipeline that `gmrace run --mode
//! flag|stmt` drives, shared with the tests and benchmarks.

pub mod pipeline;
