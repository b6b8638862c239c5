//! Which solver answers a query (`Engine`, in `AnalysisOptions::solver`): z3 (the default and
//! engine of record), `Ilp` (good_lp for the purely affine queries `ilp` takes, z3 for the rest;
//! `--solver ilp`), or `CrossCheck` (z3 answers; good_lp also solves, and any SAT/UNSAT
//! disagreement is recorded in `Stats::disagreements`, which the test suite asserts empty).
//! `Stats` counts the answers of each engine and why good_lp declined the others.
//!
//! A query's limit is counted in z3's resource units (`rlimit`), which do not depend on the
//! machine's speed or load (DESIGN.md, Static verdicts). z3's count of the same query varies
//! by about 2% from run to run (some of its tables iterate in allocation order), so only a
//! query that ends within that margin of its limit can be answered differently. The wall-clock
//! limit (`--timeout-ms`) is only a safety net far above normal use; when it fires,
//! `Stats::wall_timeouts` says so and the report names it. good_lp's limit counts work too
//! (branch-and-bound nodes): which queries it leaves to z3, whose work then counts against the
//! kernel's budget, decides which later queries fit, so a clock there would make
//! `--solver ilp`'s verdicts depend on load.
//!
//! Queries go to z3 as `QF_UFBV` (a fifth faster than z3's default solver on
//! GPUVerifyBenchmarks). With z3 alone, a `Session` per pass keeps the assertions every query of
//! a kernel shares (launch limits, both threads' facts) in one solver and asks each query in a
//! scope popped after it; the base is only ever appended to. On GPUVerifyBenchmarks that cut
//! the whole run by about a quarter (51 s to 39 s) and fits several times more queries into the
//! budget of the largest kernels. `CrossCheck` asks z3 through the same session, so that its
//! report is the plain analysis's (the test suite cross-checks in the runs it makes anyway);
//! the launch queries, over a base of their own, and `Ilp`'s fallbacks take a fresh solver.

use super::ilp::{self, Answer};
use super::report::{Scope, Stats};
use crate::ir::AccessId;
use std::time::Instant;
use z3::ast::Bool;
use z3::{
    with_z3_config, Config, Model, Params, PrepareSynchronized, SatResult, Solver, StatisticsValue,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    Z3,
    /// good_lp (microlp) for purely affine queries, z3 for the others.
    Ilp,
    /// z3 answers; good_lp also solves every affine query and any disagreement is recorded in
    /// `Stats::disagreements`.
    CrossCheck,
}

/// How much one query may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// z3 resource units (`rlimit`).
    pub work: u32,
    /// The safety net, in milliseconds of wall-clock time.
    pub wall_ms: u32,
}

pub enum Outcome {
    Unsat,
    Sat(Model),
    Unknown,
}

/// What a query asks, to name it when the engines disagree.
#[derive(Clone, Copy)]
pub enum Query {
    /// The n-th barrier of the kernel.
    Divergence(usize),
    Invariance(AccessId),
    Pair(AccessId, AccessId, Scope),
    /// Both same-block scopes of a pair at once.
    SameBlock(AccessId, AccessId),
    /// Whether the assumptions fix the launch.
    Launch,
    /// Whether a pair's race holds for every value of its address parameters.
    Certainty(AccessId, AccessId),
    /// Whether another thread's opaque statement may run while the access does.
    Opaque(AccessId),
}

impl std::fmt::Display for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Query::Divergence(n) => write!(f, "divergence at barrier {n}"),
            Query::Invariance(a) => write!(f, "invariance of access #{}", a.0),
            Query::Pair(a, b, s) => write!(f, "pair #{} #{} {}", a.0, b.0, s.name()),
            Query::SameBlock(a, b) => write!(f, "pair #{} #{} same block", a.0, b.0),
            Query::Launch => write!(f, "fixed launch"),
            Query::Certainty(a, b) => write!(f, "certainty of pair #{} #{}", a.0, b.0),
            Query::Opaque(a) => write!(f, "opaque statements beside access #{}", a.0),
        }
    }
}

/// Solves `base ∧ extra` with `engine`. With a session, z3 keeps `base` asserted between
/// queries (see `Session`).
pub fn solve(
    base: &[Bool],
    extra: &[&Bool],
    session: Option<&mut Session>,
    engine: Engine,
    limit: Limit,
    stats: &mut Stats,
    what: Query,
) -> Outcome {
    stats.queries += 1;
    let all: Vec<&Bool> = base.iter().chain(extra.iter().copied()).collect();
    let assertions = &all[..];
    // z3's answer comes from the session wherever z3 is the engine of record, so that a
    // cross-checked analysis reports exactly what the plain one does.
    let by_z3 = |stats: &mut Stats| match session {
        Some(session) => session.solve(base, extra, limit, stats),
        None => z3(assertions, limit, stats),
    };
    match engine {
        Engine::Z3 => by_z3(stats),
        Engine::Ilp => match ilp::solve(assertions, limit.work) {
            Answer::Unsat => {
                stats.ilp_answers += 1;
                Outcome::Unsat
            }
            Answer::Sat(m) => {
                stats.ilp_answers += 1;
                Outcome::Sat(m)
            }
            other => {
                note_fallback(&other, stats);
                z3(assertions, limit, stats)
            }
        },
        Engine::CrossCheck => {
            let by_z3 = by_z3(stats);
            let by_ilp = ilp_aside(assertions, limit.work);
            let disagree = match (&by_ilp, &by_z3) {
                (Answer::Unsat, Outcome::Sat(_)) => Some("good_lp: unsat, z3: sat"),
                (Answer::Sat(()), Outcome::Unsat) => Some("good_lp: sat, z3: unsat"),
                _ => None,
            };
            match by_ilp {
                Answer::Unsat | Answer::Sat(()) => stats.ilp_answers += 1,
                other => note_fallback(&other, stats),
            }
            if let Some(d) = disagree {
                stats.disagreements.push(format!("{what}: {d}"));
            }
            by_z3
        }
    }
}

/// good_lp's answer to a query, worked out in a z3 context of its own: the terms it builds
/// (simplified atoms, the model it checks) would otherwise change the ids of the analysis's
/// later terms, and z3's choices with them, so that a cross-checked analysis could find other
/// witnesses than a plain one.
fn ilp_aside(assertions: &[&Bool], work: u32) -> Answer<()> {
    let owned: Vec<Bool> = assertions.iter().map(|b| (*b).clone()).collect();
    let moved = owned.as_slice().synchronized();
    with_z3_config(&Config::new(), || {
        let copy = moved.recover();
        let refs: Vec<&Bool> = copy.iter().collect();
        ilp::solve(&refs, work).map_model(|_| ())
    })
}

fn note_fallback<M>(a: &Answer<M>, stats: &mut Stats) {
    match a {
        Answer::Declined(why) => *stats.ilp_declined.entry(why.to_string()).or_default() += 1,
        Answer::GaveUp => stats.ilp_gave_up += 1,
        Answer::BadModel => stats.ilp_bad_models += 1,
        Answer::Unsat | Answer::Sat(_) => {}
    }
}

/// Every query is quantifier-free bit-vectors with the block functions uninterpreted: saying
/// so lets z3 pick its tactic at once (a fifth less solver time on GPUVerifyBenchmarks than
/// its default solver, and fewer timeouts).
fn z3_solver() -> Solver {
    Solver::new_for_logic("QF_UFBV").unwrap_or_default()
}

pub(super) fn z3(assertions: &[&Bool], limit: Limit, stats: &mut Stats) -> Outcome {
    let s = z3_solver();
    for c in assertions {
        s.assert(*c);
    }
    check(&s, limit, stats)
}

/// One z3 solver for the queries of a kernel, which share most of their assertions (launch
/// limits, both threads' loop facts): those are asserted once, each query's own in a scope
/// popped after it. On GPUVerifyBenchmarks' largest kernels that fits several times more
/// queries into a kernel's budget than a fresh solver per query.
pub struct Session {
    solver: Solver,
    /// How many of the base assertions the solver holds.
    asserted: usize,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            solver: z3_solver(),
            asserted: 0,
        }
    }
}

impl Session {
    /// `base` must extend the base of every earlier call: it is only ever appended to.
    fn solve(
        &mut self,
        base: &[Bool],
        extra: &[&Bool],
        limit: Limit,
        stats: &mut Stats,
    ) -> Outcome {
        for c in &base[self.asserted.min(base.len())..] {
            self.solver.assert(c);
        }
        self.asserted = base.len();
        self.solver.push();
        for c in extra {
            self.solver.assert(*c);
        }
        let outcome = check(&self.solver, limit, stats);
        self.solver.pop(1);
        outcome
    }
}

fn check(s: &Solver, limit: Limit, stats: &mut Stats) -> Outcome {
    stats.z3_answers += 1;
    let mut p = Params::new();
    p.set_u32("rlimit", limit.work);
    p.set_u32("timeout", limit.wall_ms);
    s.set_params(&p);
    let before = work_count(s);
    let start = Instant::now();
    let result = s.check();
    let wall = start.elapsed();
    let used = work_count(s).saturating_sub(before);
    stats.solver_work = Some(stats.solver_work.unwrap_or(0) + used);
    match result {
        SatResult::Unsat => Outcome::Unsat,
        SatResult::Sat => match s.get_model() {
            Some(m) => Outcome::Sat(m),
            None => Outcome::Unknown,
        },
        SatResult::Unknown => {
            // z3 says "canceled" for both limits; only the clock's depends on the machine.
            if used < u64::from(limit.work) && wall.as_millis() >= u128::from(limit.wall_ms) {
                stats.wall_timeouts += 1;
            } else {
                stats.timeouts += 1;
            }
            Outcome::Unknown
        }
    }
}

/// The resource units z3's context has counted so far (`rlimit count`, cumulative).
fn work_count(s: &Solver) -> u64 {
    match s.get_statistics().value("rlimit count") {
        Some(StatisticsValue::UInt(n)) => n.into(),
        Some(StatisticsValue::Double(x)) => x as u64,
        None => 0,
    }
}
