//! Static race analysis: every access of a kernel is `safe` (proved for every configuration the
//! assumptions allow), `racy` (a concrete witness, re-executed), or `unknown`.
//!
//! Pipeline per kernel: `launch` fixes the assumptions; `symbolic` runs two symbolic threads
//! over the IR; `pairs` asks z3, for each pair of accesses and each scope, whether the two
//! threads can touch overlapping bytes in the same barrier interval; a satisfying model is
//! replayed by `concrete` before anything is called racy.

mod concrete;
mod engine;
mod ilp;
mod intervals;
pub mod launch;
pub mod oracle;
mod pairs;
pub mod report;
mod symbolic;
mod uniform;

pub use engine::Engine;
pub use launch::{resolve, LaunchError};
pub use report::*;

use crate::ir::{Kernel, Module};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WarpModel {
    /// Independent thread scheduling: lanes of a warp are ordered only by `__syncwarp`.
    Its,
    /// GMRace's model: a warp executes one statement at a time for all its active lanes.
    Lockstep,
}

#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    pub block: Option<[u32; 3]>,
    pub grid: Option<[u32; 3]>,
    /// `--param NAME=VALUE`.
    pub params: Vec<(String, i64)>,
    pub warp_model: WarpModel,
    /// Solver time limit per query (`--timeout-ms`).
    pub timeout_ms: u32,
    /// Solver time per kernel (`--budget-ms`). Every pair is first asked with a short time
    /// limit; what timed out is asked again with `timeout_ms` while the budget lasts. No
    /// query starts once the budget is spent (one that started keeps its whole limit); the
    /// pairs left leave their accesses `unknown`. Proving shared reads uniform
    /// (`pairs::analyze`) has half as much again.
    pub budget_ms: u32,
    /// Time limit of the first round (`timeout_ms` or more: one round only, which makes the
    /// verdicts independent of the machine's speed when no query runs out of time).
    pub first_round_ms: u32,
    /// Decide a fixed launch of at most 2^14 threads whose control flow and addresses do not
    /// depend on data by running every thread, before asking the solver anything.
    pub exhaustive: bool,
    pub solver: Engine,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            block: None,
            grid: None,
            params: Vec::new(),
            warp_model: WarpModel::Its,
            timeout_ms: 2000,
            budget_ms: 1000,
            first_round_ms: 100,
            exhaustive: true,
            solver: Engine::Z3,
        }
    }
}

/// Analyses one kernel of a module.
pub fn analyze_kernel(
    m: &Module,
    k: &Kernel,
    opts: &AnalysisOptions,
) -> Result<KernelReport, LaunchError> {
    let assumptions = launch::resolve(m, k, opts)?;
    // A fresh z3 context per kernel: the verdicts and witnesses of a kernel do not depend on
    // what was analysed before it in the same process.
    Ok(z3::with_z3_config(&z3::Config::new(), || {
        pairs::analyze(m, k, &assumptions, opts)
    }))
}
