//! `gmrace run`'s JSON report (DESIGN.md's fields plus the run's), as typed structs shared by
//! the plain and the checked run. They are turned into a `serde_json::Value` before printing,
//! so keys come out sorted, as in every other document of the CLI.
//!
//! `Measured` adds `run_ms` (`--timing`) and `executed_checks` (`--count-checks`, which defines
//! `pipeline::COUNT_CHECKS` for the runtime) to both run reports, only when asked: a timing
//! would make the same input's report differ from run to run.

use gmrace_ir::plan::Unchecked;
use gmrace_ir::report::{AccessReport, Assumptions, DivergenceReport, LeftToRun, RaceReport};
use gmrace_runtime_cuda::report::{Fault, FaultKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// `{"kernels": [..], "headers": ".."}`: the run's kernels and the CUDA headers the front end
/// read, as `gmrace analyze` says them.
#[derive(Serialize)]
pub struct Document<'a> {
    pub kernels: Vec<KernelRun<'a>>,
    pub headers: String,
}

/// One run kernel.
#[derive(Serialize)]
pub struct KernelRun<'a> {
    pub file: String,
    pub name: &'a str,
    pub assumptions: RunAssumptions<'a>,
    pub mode: &'static str,
    pub backend: &'a str,
    /// The model the checkers implement (checked runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_warp_model: Option<&'static str>,
    pub instrumented_accesses: usize,
    pub complete: bool,
    /// Why a check was incomplete (checked runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<Vec<String>>,
    /// Accesses left unknown and not checked; `null` when nothing was planned.
    pub unchecked: Option<&'a [Unchecked]>,
    pub summary: Summary,
    /// The analysis's verdicts (checked runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accesses: Option<&'a [AccessReport]>,
    /// Races of the analysis a lock or a fence-and-flag protocol may order: the run decides
    /// them (checked runs).
    #[serde(skip_serializing_if = "<[LeftToRun]>::is_empty")]
    pub left_to_run: &'a [LeftToRun],
    pub races: Vec<Race<'a>>,
    pub barrier_divergence: Vec<Divergence<'a>>,
    pub memory_errors: Vec<&'a Fault>,
    pub faults: &'a [Fault],
    pub steps: u64,
    pub thread_instructions: u64,
    /// Whether printf output was cut (plain runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printf_truncated: Option<bool>,
    pub warnings: &'a [String],
    #[serde(flatten)]
    pub measured: Measured,
}

/// The analysis's assumptions (checked runs), or the launch a plain run used.
#[derive(Serialize)]
#[serde(untagged)]
pub enum RunAssumptions<'a> {
    Analysis(&'a Assumptions),
    Launch {
        block: [u32; 3],
        grid: [u32; 3],
        dynamic_shared_bytes: u32,
        warp_model: &'static str,
        sources: BTreeMap<&'static str, &'static str>,
    },
}

/// GMRace's counters.
#[derive(Serialize, Default)]
pub struct Summary {
    pub r_stmt: u64,
    pub r_mem: u64,
    pub r_thd: u64,
    pub r_wp: u64,
}

#[derive(Serialize)]
#[serde(untagged)]
pub enum Race<'a> {
    /// A race the analysis proved, with its witness's place in the run's terms.
    Analysis {
        #[serde(flatten)]
        race: &'a RaceReport,
        found_by: &'static str,
        array: &'a Option<String>,
        byte_offset: i64,
        blocks: [[u32; 3]; 2],
        threads: [[u32; 3]; 2],
        warps: [u32; 2],
        lines: [u32; 2],
    },
    /// A race the run's checkers logged.
    Run(RunRace<'a>),
}

#[derive(Serialize)]
pub struct RunRace<'a> {
    pub found_by: &'static str,
    pub certainty: &'static str,
    pub scope: &'static str,
    pub space: &'static str,
    pub array: Option<String>,
    pub byte_offset: Option<u64>,
    pub bytes: u64,
    pub blocks: [[u32; 3]; 2],
    pub warps: [u32; 2],
    pub occurrences: u64,
    /// The two threads, when the mode knows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<[[u32; 3]; 2]>,
    /// The two statements' lines, when the mode knows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<RunAccess<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<RunAccess<'a>>,
}

/// One side of a logged race: the instrumented site and the analyzer's accesses at it.
#[derive(Serialize)]
pub struct RunAccess<'a> {
    pub site: u32,
    pub accesses: Option<&'a [u32]>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub kind: &'static str,
}

#[derive(Serialize)]
#[serde(untagged)]
pub enum Divergence<'a> {
    Analysis {
        #[serde(flatten)]
        divergence: &'a DivergenceReport,
        found_by: &'static str,
    },
    /// A barrier-divergence fault of the run (`found_by` only in a checked run's report).
    Run {
        #[serde(skip_serializing_if = "Option::is_none")]
        found_by: Option<&'static str>,
        line: Option<u32>,
        column: Option<u32>,
        message: &'a str,
        witness: FaultWitness<'a>,
    },
}

#[derive(Serialize)]
pub struct FaultWitness<'a> {
    pub block: Option<[u32; 3]>,
    pub threads: &'a [[u32; 3]],
}

impl Document<'_> {
    /// The document as a JSON value (keys sorted), ready to print.
    pub fn value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// Barrier-divergence faults of a run, as the report lists them.
pub fn fault_divergences<'a>(
    faults: &'a [Fault],
    found_by: Option<&'static str>,
) -> Vec<Divergence<'a>> {
    faults
        .iter()
        .filter(|f| f.kind == FaultKind::BarrierDivergence)
        .map(|f| Divergence::Run {
            found_by,
            line: f.loc.as_ref().map(|l| l.line),
            column: f.loc.as_ref().map(|l| l.column),
            message: &f.message,
            witness: FaultWitness {
                block: f.block,
                threads: &f.threads,
            },
        })
        .collect()
}

/// The faults that are memory errors.
pub fn memory_errors(faults: &[Fault]) -> Vec<&Fault> {
    faults.iter().filter(|f| f.kind.is_memory_error()).collect()
}

/// What `--timing` and `--count-checks` ask a run to report beyond DESIGN.md's minimum; absent
/// unless asked, so that a report is otherwise the same for the same input.
#[derive(Clone, Copy, Default, Serialize)]
pub struct Measured {
    /// Wall time of the device run alone, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_ms: Option<f64>,
    /// Warp-level calls of the runtime's recording hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executed_checks: Option<u64>,
}

impl Measured {
    /// `; device run 1.234 ms; 56 executed checks`, or nothing.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if let Some(ms) = self.run_ms {
            s.push_str(&format!("; device run {ms:.3} ms"));
        }
        if let Some(n) = self.executed_checks {
            s.push_str(&format!(
                "; {n} executed check{}",
                if n == 1 { "" } else { "s" }
            ));
        }
        s
    }
}
