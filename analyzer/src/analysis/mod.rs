//! Static race analysis: every access of a kernel is `safe` (proved for every configuration the
//! assumptions allow), `racy` (a concrete witness, re-executed), or `unknown`.
//!
//! Pipeline per kernel: `launch` fixes the assumptions (under each launch site's configuration
//! where sites differ: `sites`); `symbolic` runs two symbolic threads
//! over the IR; `pairs` asks z3, for each pair of accesses and each scope, whether the two
//! threads can touch overlapping bytes in the same barrier interval; a satisfying model is
//! replayed by `concrete` before anything is called racy. API boundary: `analyze_kernel`,
//! `KernelReport` (`report`) and `oracle`.
//!
//! Distinct pointer parameters are assumed not to alias (listed in every report's assumptions).
//! Each kernel gets its own z3 context, so results do not depend on what was analysed before.
//! For every instrumented access the analysis also proves, or not, GMRace's reductions: the
//! address is the same in every thread of a block (`thread_invariant`), or across the
//! iterations of its innermost loop (`loop_invariant`).
//!
//! Not yet: barrier counts for barrier loops left mid-iteration by `return` (a `break` is
//! counted); array subscripts are not assumed within their declared extents (out of bounds is
//! undefined in C++, but DESIGN.md grants that assumption for signed overflow only), so a
//! data-driven index into an inner dimension (`mask[tid][i]`) is never proved private to its
//! thread; the ILP engine declines products of two loop-dependent values (Blelloch's
//! down-sweep `offset`, a geometric counter started from another loop's result).

mod classes;
mod concrete;
mod engine;
mod ilp;
mod intervals;
pub mod launch;
pub mod oracle;
mod pairs;
mod parametric;
mod protocols;
mod relax;
mod sites;
mod subscript;
pub use gmrace_ir::report;
mod symbolic;
mod uniform;
mod wraps;

pub use engine::Engine;
pub use launch::{resolve, LaunchError};
pub use report::*;

use crate::ir::{Kernel, Module};

#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    pub block: Option<[u32; 3]>,
    pub grid: Option<[u32; 3]>,
    /// `--param NAME=VALUE`.
    pub params: Vec<(String, i64)>,
    pub warp_model: WarpModel,
    /// The command line named no warp model: a `--warp-sync=N` in the file's header comment
    /// (GPUVerify's lockstep warps) makes it `lockstep` (DESIGN.md, Static verdicts).
    pub header_warp_model: bool,
    /// Solver work per query (`--rlimit`), in z3's resource units, which count the same on
    /// every machine. Every pair is first asked within `first_round_work`; what ran out is
    /// asked again with this limit while the kernel's budget lasts.
    pub query_work: u32,
    /// Work per query of the first round (at most `query_work`).
    pub first_round_work: u32,
    /// Solver work per kernel (`--budget`): no query starts once it is spent (one that started
    /// keeps its whole limit); the pairs left leave their accesses `unknown`. Proving shared
    /// reads uniform (`pairs::analyze`) has half as much again.
    pub kernel_work: u64,
    /// Solver work per file (`--file-budget`): a file with more kernels than it holds whole
    /// budgets gives each an equal share (`shared_among`), so that one with hundreds of
    /// template instantiations ends in bounded time rather than hours.
    pub file_work: u64,
    /// `kernel_work` is a share of `file_work`, smaller than the kernel's own budget.
    pub budget_shared: bool,
    /// Wall-clock safety net per query (`--timeout-ms`), far above what `query_work` takes;
    /// a query it stops is counted in `Stats::wall_timeouts` and named in the report.
    pub timeout_ms: u32,
    /// Decide a fixed launch of at most 2^14 threads whose control flow and addresses do not
    /// depend on data by running every thread, before asking the solver anything.
    pub exhaustive: bool,
    pub solver: Engine,
}

/// The default work per query: z3 spends it in about 2 s on the 2-core project machine.
pub const QUERY_WORK: u32 = 8_000_000;

/// How many kernels' whole budgets a file has by default: about a minute of solver time.
pub const FILE_KERNELS: u64 = 32;

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            block: None,
            grid: None,
            params: Vec::new(),
            warp_model: WarpModel::Its,
            header_warp_model: false,
            query_work: QUERY_WORK,
            first_round_work: QUERY_WORK / 20,
            kernel_work: QUERY_WORK as u64,
            file_work: FILE_KERNELS * QUERY_WORK as u64,
            budget_shared: false,
            timeout_ms: 60_000,
            exhaustive: true,
            solver: Engine::Z3,
        }
    }
}

impl AnalysisOptions {
    /// These options for one of `kernels` analysed together: each kernel's budget is at most
    /// an equal share of the file's, and no query's limit is more than that share.
    pub fn shared_among(&self, kernels: usize) -> AnalysisOptions {
        let share = self.file_work / kernels.max(1) as u64;
        if share >= self.kernel_work {
            return self.clone();
        }
        let query_work = (self.query_work as u64).min(share.max(1)) as u32;
        AnalysisOptions {
            query_work,
            first_round_work: self.first_round_work.min(query_work),
            kernel_work: share,
            budget_shared: true,
            ..self.clone()
        }
    }
}

/// Analyses one kernel of a module.
pub fn analyze_kernel(
    m: &Module,
    k: &Kernel,
    opts: &AnalysisOptions,
) -> Result<KernelReport, LaunchError> {
    let header = opts.header_warp_model && m.header.warp_sync.is_some();
    let opts = &AnalysisOptions {
        warp_model: if header {
            WarpModel::Lockstep
        } else {
            opts.warp_model
        },
        ..opts.clone()
    };
    // A fresh z3 context per analysis: the verdicts and witnesses of a kernel do not depend on
    // what was analysed before it in the same process.
    let analyze = |assumptions: &Assumptions| {
        z3::with_z3_config(&z3::Config::new(), || {
            pairs::analyze(m, k, assumptions, opts)
        })
    };
    let configs = sites::configurations(m, k, opts);
    let mut report = if configs.is_empty() {
        analyze(&launch::resolve(m, k, opts)?)
    } else {
        sites::analyze_each(m, k, opts, &configs, analyze)?
    };
    report.stats.budget_share = opts.budget_shared.then_some(opts.kernel_work);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_shares_its_budget_only_among_more_kernels_than_it_holds_budgets() {
        let opts = AnalysisOptions::default();
        for n in [0, 1, FILE_KERNELS as usize] {
            let o = opts.shared_among(n);
            assert_eq!(
                (o.kernel_work, o.query_work),
                (opts.kernel_work, opts.query_work)
            );
            assert!(!o.budget_shared);
        }
        let o = opts.shared_among(4 * FILE_KERNELS as usize);
        assert!(o.budget_shared);
        assert_eq!(o.kernel_work, opts.kernel_work / 4);
        assert_eq!(
            o.query_work as u64, o.kernel_work,
            "no query past the share"
        );
        assert!(o.first_round_work <= o.query_work);
        let none = AnalysisOptions {
            file_work: 0,
            ..opts
        }
        .shared_among(1);
        assert_eq!((none.kernel_work, none.query_work), (0, 1));
    }
}
