//! gmrace's reports as a person or a script reads them: analyses and runs as text (rustc-style
//! excerpts), DESIGN.md's JSON and SARIF 2.1.0. Both `gmrace` and `gmrace-gpu` print through
//! this crate, so that a run prepared here and run on another machine reads the same.
//!
//! Depends on the IR (reports, plans) and the runtime (run results), never on the front end,
//! the analyzer or the instrumenter.

pub mod findings;
pub mod render;
pub mod run;
pub mod sarif;
pub mod text;
