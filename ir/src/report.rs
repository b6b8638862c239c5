//! What an analysis reports, in the JSON shape DESIGN.md fixes (API boundary: scripts read it).
//! Here rather than in the analyzer so that a run's report can be rendered where no analyzer is
//! (`gmrace-gpu` reads it from a bundle): `Deserialize` reads back exactly what `Serialize`
//! writes, except the fields DESIGN.md's JSON leaves out (`Stats::disagreements`).

use crate::{AccessKind, Space};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarpModel {
    /// Independent thread scheduling: lanes of a warp are ordered only by `__syncwarp`.
    Its,
    /// GMRace's model: a warp executes one statement at a time for all its active lanes.
    Lockstep,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Safe,
    Racy,
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    IntraWarp,
    InterWarp,
    InterBlock,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::IntraWarp => "intra-warp",
            Scope::InterWarp => "inter-warp",
            Scope::InterBlock => "inter-block",
        }
    }
}

/// Launch extents `x, y, z`, each fixed or left symbolic. JSON: `[256,1,1]` when all are fixed,
/// `null` when none is, `[null,1,1]` in between.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extents(pub [Option<u32>; 3]);

impl Extents {
    pub fn fixed(d: [u32; 3]) -> Self {
        Extents(d.map(Some))
    }
    /// All three, when all are fixed.
    pub fn all(self) -> Option<[u32; 3]> {
        match self.0 {
            [Some(x), Some(y), Some(z)] => Some([x, y, z]),
            _ => None,
        }
    }
    pub fn is_symbolic(self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

impl std::fmt::Display for Extents {
    /// `256x1x1`, `?x1x1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
            .collect();
        f.write_str(&parts.join("x"))
    }
}

impl Serialize for Extents {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_symbolic() {
            s.serialize_none()
        } else {
            self.0.serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for Extents {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Extents(
            Option::<[Option<u32>; 3]>::deserialize(d)?.unwrap_or_default(),
        ))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Assumptions {
    pub block: Extents,
    pub grid: Extents,
    pub warp_model: WarpModel,
    pub params: BTreeMap<String, i64>,
    /// What the host code states of open dimensions (`gridDim.x == (n + 255) / 256`, over the
    /// kernel's parameters), each listed in `sources` (`grid.x`).
    #[serde(skip)]
    pub facts: Vec<crate::Expr>,
    /// Where each assumption came from.
    pub sources: BTreeMap<String, String>,
    /// Assumptions every analysis makes.
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AccessReport {
    pub id: u32,
    /// The file the access is in, where it is not the kernel's (a header of the project).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    pub column: u32,
    pub space: Space,
    pub array: Option<String>,
    #[serde(with = "kind_name")]
    pub kind: AccessKind,
    pub verdict: Verdict,
    /// Whether the instrumenter records it (in at least one `unknown` pair).
    pub instrumented: bool,
    /// GMRace's reductions for an instrumented access: every thread of a block computes the
    /// same address (one lane records it), or the address does not change across the
    /// iterations of its innermost loop (one iteration records it). Proved, else false.
    pub thread_invariant: bool,
    pub loop_invariant: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AccessRef {
    pub access: u32,
    /// The file the access is in, where it is not the kernel's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    pub column: u32,
    #[serde(with = "kind_name")]
    pub kind: AccessKind,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Witness {
    pub blocks: [[u32; 3]; 2],
    pub threads: [[u32; 3]; 2],
    pub warps: [u32; 2],
    pub array: Option<String>,
    pub byte_offset: i64,
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    /// Scalar parameter values of the witness.
    pub params: BTreeMap<String, i64>,
    /// Barriers each thread had passed (equal for threads of one block).
    pub barrier_interval: [u32; 2],
    /// Which execution of each access (0 = first), e.g. the loop iteration.
    pub executions: [u32; 2],
    /// The iteration of each loop around each access, outermost first, from 0 at the loop's
    /// latest entry (under `lockstep`, lanes of one warp in the same iterations execute the
    /// statement together).
    pub loop_iterations: [Vec<u32>; 2],
}

/// Whether a race holds whatever the parameters its addresses depend on (strides, pitches,
/// open launch extents) are (DESIGN.md, "Certainty of a race").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Certainty {
    Definite,
    /// Only for some values of those parameters: left to a run with the real ones.
    Conditional,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RaceReport {
    pub scope: Scope,
    pub space: Space,
    pub certainty: Certainty,
    /// For a conditional race, the values of the address parameters it needs, as in the
    /// witness (`pitch = 0`), or why definiteness was not proved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Two atomics that race because one is atomic only within its block (`atomicAdd_block`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scoped: bool,
    /// One access is through a `volatile` lvalue, which orders nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub volatile: bool,
    pub first: AccessRef,
    pub second: AccessRef,
    pub witness: Witness,
}

/// A replayed race that a protocol may order (`protocols.rs`): no definite race, the run decides.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LeftToRun {
    pub first: AccessRef,
    pub second: AccessRef,
    pub scope: Scope,
    pub protocol: Protocol,
    pub reason: String,
}

/// Why a race may not be one: the protocol that may order it (`Protocols::may_order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Both accesses are in critical sections of one lock, or one hands the lock on.
    Lock,
    /// One may precede a fence, the other may follow a flag read.
    Flag,
    /// A spin-wait and the strong write it waits for.
    SpinWait,
}

impl Protocol {
    /// What the report says of such a pair.
    pub fn reason(self) -> &'static str {
        match self {
            Protocol::Lock => "ordered by a lock: left to the run",
            Protocol::Flag => "may be ordered by a fence and a flag: left to the run",
            Protocol::SpinWait => "a spin-wait and the write it waits for: synchronization",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DivergenceReport {
    pub line: u32,
    pub column: u32,
    pub witness: DivergenceWitness,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DivergenceWitness {
    pub block: [u32; 3],
    /// The thread that reaches the barrier, and one that goes on elsewhere.
    pub threads: [[u32; 3]; 2],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    pub params: BTreeMap<String, i64>,
    /// Where the barrier the second thread reaches instead is, if any.
    pub other_line: Option<u32>,
    pub other_column: Option<u32>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    pub pairs: u32,
    pub queries: u32,
    /// Queries the solver gave up on within their work limit (`--rlimit`).
    pub timeouts: u32,
    /// Queries stopped by the wall-clock safety net (`--timeout-ms`): the only verdicts that
    /// may differ on another machine.
    pub wall_timeouts: u32,
    /// Queries, or whole pairs, not asked because the kernel's solver budget was spent.
    pub over_budget: u32,
    /// The kernel's budget when it was its share of the file's (`--file-budget`), smaller
    /// than `--budget`: the file has that many kernels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_share: Option<u64>,
    /// z3's resource units spent (what the budget counts). Not in reports unless asked for
    /// (`--timing`): z3 counts the same queries alike to within about 2%, not exactly (its
    /// tables of pointers iterate in an order that follows the allocator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_work: Option<u64>,
    /// Solver wall-clock time; not in reports unless asked for (`--timing`), since it differs
    /// from run to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_ms: Option<u64>,
    /// Pairs settled by running every thread of a fixed launch.
    pub exhaustive: u32,
    /// Races a lock or a fence-and-flag protocol may order (`protocols.rs`): left `unknown`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub protocol_ordered: u32,
    /// Pairs of shared accesses after disjoint sets of barriers (`intervals.rs`): no query.
    pub separated: u32,
    /// Queries answered by each engine (with `--solver ilp`, z3 takes what good_lp cannot).
    pub z3_answers: u32,
    pub ilp_answers: u32,
    /// Queries good_lp did not take, by reason: not purely affine, or too large.
    pub ilp_declined: BTreeMap<String, u32>,
    /// good_lp gave no answer in time: z3 answered.
    pub ilp_gave_up: u32,
    /// good_lp's solution was not a model of the query (a bug): z3 answered.
    pub ilp_bad_models: u32,
    /// Cross-checking: queries on which the engines disagree.
    #[serde(skip)]
    pub disagreements: Vec<String>,
}

impl Stats {
    /// Adds the solver work of an earlier pass over the same kernel (its verdicts discarded).
    pub fn absorb_work(&mut self, earlier: &Stats) {
        self.queries += earlier.queries;
        self.timeouts += earlier.timeouts;
        self.wall_timeouts += earlier.wall_timeouts;
        self.solver_work = Some(self.solver_work.unwrap_or(0) + earlier.solver_work.unwrap_or(0));
        self.solver_ms = match (self.solver_ms, earlier.solver_ms) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.z3_answers += earlier.z3_answers;
        self.ilp_answers += earlier.ilp_answers;
        for (why, n) in &earlier.ilp_declined {
            *self.ilp_declined.entry(why.clone()).or_default() += n;
        }
        self.ilp_gave_up += earlier.ilp_gave_up;
        self.ilp_bad_models += earlier.ilp_bad_models;
        self.disagreements
            .extend(earlier.disagreements.iter().cloned());
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelReport {
    pub file: String,
    pub name: String,
    pub assumptions: Assumptions,
    pub accesses: Vec<AccessReport>,
    pub races: Vec<RaceReport>,
    /// Races a lock or a fence-and-flag protocol may order: their accesses are `unknown`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_to_run: Vec<LeftToRun>,
    pub barrier_divergence: Vec<DivergenceReport>,
    pub memory_errors: Vec<serde_json::Value>,
    pub stats: Stats,
}

impl KernelReport {
    /// Whether the kernel has a problem (exit status 1): a definite race or a barrier
    /// divergence; with `conditional`, a conditional race too (`--fail-on conditional`).
    pub fn has_problem(&self) -> bool {
        self.has_problem_counting(false)
    }

    pub fn has_problem_counting(&self, conditional: bool) -> bool {
        let counted = |r: &RaceReport| conditional || r.certainty == Certainty::Definite;
        self.races.iter().any(counted) || !self.barrier_divergence.is_empty()
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An access kind as reports write it (`read`, `write`, `atomic`). Read back, an atomic is the
/// device's: a report is only rendered again, and it shows the name alone.
mod kind_name {
    use crate::{AccessKind, SyncScope};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(k: &AccessKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<AccessKind, D::Error> {
        match String::deserialize(d)?.as_str() {
            "read" => Ok(AccessKind::Read),
            "write" => Ok(AccessKind::Write),
            "atomic" => Ok(AccessKind::Atomic(SyncScope::Device)),
            other => Err(serde::de::Error::unknown_variant(
                other,
                &["read", "write", "atomic"],
            )),
        }
    }
}
