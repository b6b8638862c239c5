//! Pair queries: for each pair of accesses and each scope, can two threads touch overlapping
//! bytes, at least one writing, not both atomically, unordered by barriers? UNSAT for every
//! scope proves the pair safe; a model is replayed concretely before the pair is called racy.
//!
//! The scopes are intra-warp, inter-warp and inter-block; each is one solver query over two
//! symbolic threads: both path conditions, overlapping bytes of one object, the same barrier
//! interval (`b` equal; `w` too within a warp under `its`; the same statement execution under
//! `lockstep`). One query without the warp conditions comes first: UNSAT settles both same-block
//! scopes; running out of work there leaves the pair `unknown` without asking the scopes, which
//! only add conditions to it. This module calls only `engine::solve`.
//!
//! Replays: a model is replayed by `concrete`, and only a replayed race is `racy` (up to 4 models
//! per query, but no second one when data stopped a replay, `Replayed::Inexact`: no other model
//! ever helped there on GPUVerifyBenchmarks); otherwise the pair is `unknown`. Before a model
//! whose free scalar parameters or grid extents are large is replayed, the query is asked once
//! more with them small (±1024, grid extents up to 64) and that model is replayed first: the
//! witness a user recognises, not a width of 2^29. A replayed race is then `definite` or
//! `conditional` (`certainty`): one more query, outside the incremental session, with every term
//! of the model fixed except the parameters the two offsets mention (scalar parameters, open
//! launch extents), asks whether those can make both accesses run without the race; a
//! conditional race's accesses stay `unknown`.
//!
//! Barrier divergence: a barrier two threads of a block can disagree on is replayed the same way
//! (`concrete::parting`: a thread that passes fewer barriers diverges unless it returned before
//! the other's next one; one that skips a barrier and runs on to the end of the kernel is not
//! exited); if any barrier might diverge, `b` is not relied on at all. When none can, the threads
//! of a block pass the same barrier statements in the same order, so a pair of shared accesses
//! whose possible last barriers (`intervals.rs`) are disjoint is `safe` without a query
//! (`Stats::separated`; a global pair still gets its inter-block query). Not after a fixed
//! launch's runs: they compare barriers by line, which two inlined copies of one barrier share.
//!
//! Work, never time: every pair is asked first within `AnalysisOptions::first_round_work` of
//! z3's resource units (`rlimit`), then the pairs that ran out with `--rlimit`, all within a
//! budget per kernel in the same units (`--budget`): no query starts once it is spent, and the
//! pairs left are `unknown` (`Stats` counts them); `--timeout-ms` is only a wall-clock safety net
//! (`engine.rs`). Times and z3's work count are left out of reports unless `--timing` asks.
//! Whether the launch is fixed is asked over the launch limits and assumptions alone
//! (`launch_base`), without the loop facts.
//!
//! Lazy facts (`symbolic.rs`) are taken only as met before the accesses or barriers a query
//! asks about: what a thread does after a race (a subscript past its array) does not undo it.
//! Under extents left open, a race's witness must keep all its threads' facts and plausibility
//! (`__mul24`'s operands within 24 bits, `blockIdx.x * 1024` within 32): one whose threads go
//! on past an array, or whose grid makes `__mul24(blockIdx.x, blockDim.x)` drop bits or an
//! offset from the block's position wrap, is a launch no program makes on purpose,
//! and a pair with only such witnesses is `unknown`.
//!
//! Accesses that `classes.rs` finds indistinguishable are asked once per class pair.
//!
//! Two passes when a kernel has shared reads `uniform.rs` can assume uniform: the first takes
//! them uniform and stands only if no barrier or loop-leaving `break` may diverge and every pair
//! of such a read is proved `safe` (asked first, with the first round's limit, within half the
//! solver budget on top of the budget). That discharges the assumption: up to the first read two
//! threads of a block see differently, the summaries describe the execution, and such a read
//! needs a write in its barrier interval, a pair proved safe. Otherwise the second pass analyses
//! the kernel without the assumption. The persistent-threads loop of the CUDA samples'
//! Mandelbrot (`while (1) { ...; __syncthreads(); if (blockIndex >= numBlocks) break; ... }`) is
//! decided this way.
//!
//! Fixed launches: when the assumptions allow exactly one launch (dimensions and scalar
//! arguments; checked with two queries) of at most 2^14 threads, `oracle::exhaustive` runs every
//! thread first and settles every pair it can (`--symbolic-only` turns this off).
//!
//! A race that a protocol (`protocols.rs`) may order is left `unknown` (`Stats::protocol_ordered`).

use super::classes::{ClassPair, Classes};
use super::concrete::{self, Config, DataBranches, Event, Parting, Run};
use super::engine::{self, Outcome, Query};
use super::intervals::LastBarriers;
use super::launch::{MAX_BLOCK, MAX_GRID};
use super::oracle::{self, ConcreteRace, Exhaustive};
use super::protocols::Protocols;
use super::relax::Relaxation;
use super::report::*;
use super::subscript;
use super::symbolic::{
    Base, Executor, Launch, LoopCount, SymAccess, SymValue, ThreadSummary, ThreadVars,
};
use super::uniform::{self, Uniform};
use super::{AnalysisOptions, WarpModel};
use crate::collections::{HashMap, HashSet};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use z3::ast::Ast as _;
use z3::ast::{Bool, BV};
use z3::Model;

fn bv(v: u64, w: u32) -> BV {
    BV::from_u64(v, w)
}

struct Ctx<'a> {
    k: &'a Kernel,
    opts: &'a AnalysisOptions,
    launch: Launch,
    ta: ThreadVars,
    tb: ThreadVars,
    sa: ThreadSummary,
    sb: ThreadSummary,
    /// Launch limits, thread ranges, loop facts and user assumptions of both threads.
    base: Vec<Bool>,
    /// Each thread's lazy facts (`ThreadSummary::lazy_facts`), in the order it meets them.
    lazy: [Vec<Bool>; 2],
    /// How many of each thread's lazy facts the query being solved may take: those before
    /// the point of the thread it asks about (all for a query about no point).
    lazy_upto: [usize; 2],
    /// The lazy facts of loop exits every thread of a block takes alike (both threads').
    lazy_uniform: Vec<Bool>,
    /// What bears on the launch alone: its limits, the thread ranges and the assumptions
    /// (whether the launch is fixed needs no loop facts, which make every query slower).
    launch_base: Vec<Bool>,
    /// Every extent of the block and the grid is fixed (by the user, the header or the host).
    extents_fixed: bool,
    /// Barrier counts can be trusted to tell barrier intervals apart.
    barriers_precise: bool,
    /// The barriers each access can follow, to tell intervals apart without the solver: only
    /// once the divergence checks showed that the threads of a block pass the same barrier
    /// statements (a fixed launch's runs compare barriers by line, which is not enough).
    last_barriers: Option<LastBarriers>,
    stats: Stats,
    /// Solver work spent in this pass, against `budget`.
    spent: u64,
    /// Solver work that may be spent (`opts.kernel_work`; half of it to prove an assumption).
    budget: u64,
    /// All solver time of this pass (reported with `--timing`, never a limit).
    solver_time: Duration,
    /// z3 holding `base` between queries.
    session: engine::Session,
    /// The queries with an open launch's global-index products relaxed, asked before a query
    /// with the whole work limit.
    relaxation: Option<Relaxation>,
    /// Work limit of the current round of queries.
    limit: u32,
    /// A query since this was last cleared ended without an answer for lack of work.
    gave_up: bool,
    /// The accesses the queries cannot tell apart, once the barriers are known.
    classes: Option<Classes>,
    /// The scope and model of the race `check_pair` found last.
    last_race: Option<(Scope, Model)>,
    protocols: Protocols,
}

/// A pair's verdict, and its race where it has one.
type PairResult = (Verdict, Option<Box<RaceReport>>);

#[derive(Clone, Copy, PartialEq, Eq)]
enum PairKind {
    /// Shared accesses after disjoint barriers (`intervals.rs`): safe without a query.
    Separated,
    /// It involves a read assumed block-uniform (`Ctx::guarantee`).
    Guarantee,
    Rest,
}

/// What the pairs of a kernel add up to: per access, whether it is in a racy and in an
/// unknown pair; and the races.
#[derive(Default)]
struct Tally {
    seen: Vec<(bool, bool)>,
    races: Vec<RaceReport>,
    left_to_run: Vec<LeftToRun>,
}

impl Tally {
    fn new(accesses: usize) -> Self {
        Tally {
            seen: vec![(false, false); accesses],
            ..Tally::default()
        }
    }

    /// A race a lock or a fence-and-flag protocol may order (`ordered`) is no definite race:
    /// it is left to the run.
    /// A conditional race's accesses are `unknown`: a run decides with the real parameters.
    fn add(&mut self, (i, j): (usize, usize), (v, race): PairResult, ordered: Option<Protocol>) {
        let (v, race) = match (ordered, race) {
            (Some(protocol), Some(race)) => {
                self.left_to_run.push(LeftToRun {
                    first: race.first,
                    second: race.second,
                    scope: race.scope,
                    protocol,
                    reason: protocol.reason().to_string(),
                });
                (Verdict::Unknown, None)
            }
            (_, race) => (v, race),
        };
        let conditional = race
            .as_ref()
            .is_some_and(|r| r.certainty == Certainty::Conditional);
        let v = if conditional { Verdict::Unknown } else { v };
        self.races.extend(race.map(|r| *r));
        for x in [i, j] {
            self.seen[x].0 |= v == Verdict::Racy;
            self.seen[x].1 |= v == Verdict::Unknown;
        }
    }
}

/// The answers of the class pairs' first pairs, handed on to the other pairs of each class
/// pair: `safe` carries over; a race is replayed with the first pair's model for each access
/// not yet racy (once per access and class pair); the rest are `unknown`.
struct Expansion {
    reps: Vec<(usize, usize)>,
    verdicts: Vec<Verdict>,
    results: Vec<Option<PairResult>>,
    witnesses: Vec<Option<(Scope, Model)>>,
    /// The certainty of each first pair's race, which the class's other races share.
    certainties: Vec<(Certainty, Option<String>)>,
    racy: Vec<bool>,
    tried: HashSet<(usize, usize)>,
}

impl Expansion {
    fn new(
        accesses: usize,
        reps: &[(usize, usize)],
        decided: Vec<(PairResult, Option<(Scope, Model)>)>,
    ) -> Self {
        let mut e = Expansion {
            reps: reps.to_vec(),
            verdicts: Vec::with_capacity(reps.len()),
            results: Vec::with_capacity(reps.len()),
            witnesses: Vec::with_capacity(reps.len()),
            certainties: Vec::with_capacity(reps.len()),
            racy: vec![false; accesses],
            tried: HashSet::default(),
        };
        for (&(i, j), (r, w)) in reps.iter().zip(decided) {
            if r.0 == Verdict::Racy {
                (e.racy[i], e.racy[j]) = (true, true);
            }
            e.verdicts.push(r.0);
            e.certainties
                .push(r.1.as_ref().map_or((Certainty::Definite, None), |x| {
                    (x.certainty, x.condition.clone())
                }));
            e.witnesses.push(w);
            e.results.push(Some(r));
        }
        e
    }

    /// The result of pair `(i, j)` of class pair `c`.
    fn result(&mut self, cx: &Ctx, c: usize, (i, j): (usize, usize)) -> PairResult {
        if self.reps[c] == (i, j) {
            return self.results[c].take().unwrap_or((Verdict::Unknown, None));
        }
        let (Verdict::Racy, Some((scope, m))) = (self.verdicts[c], &self.witnesses[c]) else {
            return match self.verdicts[c] {
                Verdict::Safe => (Verdict::Safe, None),
                _ => (Verdict::Unknown, None),
            };
        };
        let mut fresh = |x: usize| !self.racy[x] && self.tried.insert((x, c));
        if !(fresh(i) | fresh(j)) {
            return (Verdict::Unknown, None);
        }
        match cx.confirm(*scope, AccessId(i as u32), AccessId(j as u32), m) {
            Replayed::Race(mut r) => {
                (self.racy[i], self.racy[j]) = (true, true);
                (r.certainty, r.condition) = self.certainties[c].clone();
                (Verdict::Racy, Some(r))
            }
            _ => (Verdict::Unknown, None),
        }
    }
}

/// A concrete launch and two threads, taken from a model, to replay.
struct Replay {
    params: Vec<Option<u64>>,
    bdim: [u32; 3],
    gdim: [u32; 3],
    tids: [[u32; 3]; 2],
    bids: [[u32; 3]; 2],
}

#[derive(Clone, Copy)]
struct AccessVerdict {
    verdict: Verdict,
    instrumented: bool,
    thread_invariant: bool,
    loop_invariant: bool,
}

/// What replaying a model's two threads showed.
enum Replayed {
    Race(Box<RaceReport>),
    /// Both threads ran to their end without the race.
    NoRace,
    /// Data stopped a thread or hid one of its accesses.
    Inexact,
}

/// A fixed launch and every race it has, found by running all its threads.
type Settled = (Replay, Exhaustive);

/// Models tried per pair and scope before the pair is left `unknown`.
const REPLAY_ATTEMPTS: usize = 4;

/// What a witness prefers for each free scalar parameter, in absolute value, and for each grid
/// extent (`Ctx::small_launch`).
const SMALL: u64 = 1024;
const SMALL_GRID: u64 = 64;

/// Analyses a kernel. Shared values that steer control flow or addresses (a flag that ends a
/// barrier loop, a count of active threads) are first assumed block-uniform
/// (`uniform::uniform_values`). The assumption holds if no write races with those reads:
/// until the first read that differs between two threads of a block, the analysis describes
/// every execution, and such a read needs a write in its barrier interval, a pair that was
/// proved safe. So the first pass stands if it proves every such read `safe` with no barrier
/// that may diverge; otherwise the kernel is analysed again without the assumption.
pub fn analyze(m: &Module, k: &Kernel, a: &Assumptions, opts: &AnalysisOptions) -> KernelReport {
    let assumed = uniform::uniform_values(k, true);
    let mut settled = None;
    let mut first = Stats::default();
    if !assumed.loads.is_empty() {
        let mut cx = Ctx::new(k, a, opts, &assumed);
        match cx.finish(m, a, &mut settled, &assumed.loads) {
            Some(report) => return name_other_files(report, m, k),
            None => first = cx.stats,
        }
    }
    let mut cx = Ctx::new(k, a, opts, &uniform::uniform_values(k, false));
    let mut report = cx
        .finish(m, a, &mut settled, &BTreeSet::new())
        .expect("nothing is assumed of shared reads");
    report.stats.absorb_work(&first);
    name_other_files(report, m, k)
}

/// Names the file of each access, race end and pair left to run that lies in another file than
/// the kernel (a header of the project, `MonteCarlo_reduction.cuh`): a line alone is read as
/// the kernel's file's.
fn name_other_files(mut report: KernelReport, m: &Module, k: &Kernel) -> KernelReport {
    let file_of = |id: u32| {
        let file = k.accesses.get(id as usize)?.span.file;
        (file != k.span.file)
            .then(|| m.files.get(file as usize).cloned())
            .flatten()
    };
    for a in &mut report.accesses {
        a.file = file_of(a.id);
    }
    let pairs = report
        .races
        .iter_mut()
        .map(|r| [&mut r.first, &mut r.second]);
    let left = report
        .left_to_run
        .iter_mut()
        .map(|p| [&mut p.first, &mut p.second]);
    for end in pairs.chain(left).flatten() {
        end.file = file_of(end.access);
    }
    report
}

impl<'a> Ctx<'a> {
    fn new(k: &'a Kernel, a: &Assumptions, opts: &'a AnalysisOptions, uniform: &Uniform) -> Self {
        let launch = make_launch(k, a);
        let ta = thread_vars("a");
        let tb = thread_vars("b");
        let sa = Executor::run(k, &launch, &ta, uniform, "a!");
        let sb = Executor::run(k, &launch, &tb, uniform, "b!");
        let mut base = launch_constraints(&launch, a);
        for t in [&ta, &tb] {
            for d in 0..3 {
                base.push(t.tid[d].bvult(&launch.block_dim[d]));
                base.push(t.bid[d].bvult(&launch.grid_dim[d]));
            }
        }
        for s in [&sa, &sb] {
            base.extend(s.assumptions.iter().cloned());
        }
        // The span of every dimension is bounded only when the grid is open (`launch_constraints`).
        let open = std::array::from_fn(|d| a.grid.all().is_none() && a.block.0[d].is_none());
        let relaxation = Relaxation::of(&launch, &ta, &tb, open);
        let launch_base = base.clone();
        for s in [&sa, &sb] {
            base.extend(s.facts.iter().cloned());
        }
        let lazy = [sa.lazy_facts.clone(), sb.lazy_facts.clone()];
        let precise = !sa.imprecise_barriers && !sb.imprecise_barriers;
        Ctx {
            k,
            opts,
            launch,
            ta,
            tb,
            sa,
            sb,
            base,
            lazy,
            lazy_upto: [usize::MAX; 2],
            lazy_uniform: Vec::new(),
            launch_base,
            extents_fixed: a.block.all().is_some() && a.grid.all().is_some(),
            barriers_precise: precise,
            last_barriers: None,
            stats: Stats::default(),
            spent: 0,
            budget: opts.kernel_work,
            solver_time: Duration::ZERO,
            session: engine::Session::default(),
            relaxation,
            limit: opts.query_work,
            gave_up: false,
            classes: None,
            last_race: None,
            protocols: Protocols::of(k),
        }
    }

    /// Decides the kernel's pairs, given that the reads in `assumed` were taken uniform:
    /// `None` as soon as one of them is not proved `safe`. `settled` keeps the run of a fixed
    /// launch for a second pass.
    fn finish(
        &mut self,
        m: &Module,
        a: &Assumptions,
        settled: &mut Option<Option<Settled>>,
        assumed: &BTreeSet<AccessId>,
    ) -> Option<KernelReport> {
        // A fixed, small launch whose threads do not depend on data is decided by running it
        // whole (then no barrier diverges, or the runs would not have been accepted).
        if settled.is_none() {
            *settled = Some(if self.opts.exhaustive {
                self.exhaustive()
            } else {
                None
            });
        }
        let settled = settled.as_ref().and_then(Option::as_ref);
        let divergence = match settled {
            Some(_) => Vec::new(),
            None => self.check_divergence(),
        };
        if !assumed.is_empty() && !self.barriers_precise {
            return None;
        }
        if settled.is_none() && self.barriers_precise {
            self.last_barriers = Some(LastBarriers::of(self.k));
        }
        // What holds only if barriers and loop exits do not diverge.
        if self.barriers_precise {
            let axioms = loop_count_axioms(&self.sa, &self.sb);
            self.base.extend(axioms);
            for s in [&self.sa, &self.sb] {
                self.base.extend(s.uniform_exits.iter().cloned());
                self.lazy_uniform
                    .extend(s.lazy_uniform_exits.iter().cloned());
            }
        }
        let (verdicts, tally) = self.check_pairs(settled, assumed)?;
        let k = self.k;
        let accesses = k
            .accesses
            .iter()
            .map(|acc| {
                let AccessVerdict {
                    verdict,
                    instrumented,
                    thread_invariant,
                    loop_invariant,
                } = verdicts[acc.id.index()];
                AccessReport {
                    id: acc.id.0,
                    file: None,
                    line: acc.span.line,
                    column: acc.span.column,
                    space: acc.space,
                    array: acc.array.clone(),
                    kind: acc.kind,
                    verdict,
                    instrumented,
                    thread_invariant,
                    loop_invariant,
                }
            })
            .collect();
        Some(KernelReport {
            file: m
                .files
                .get(k.span.file as usize)
                .cloned()
                .unwrap_or_default(),
            name: k.name.clone(),
            assumptions: a.clone(),
            accesses,
            races: tally.races,
            left_to_run: tally.left_to_run,
            barrier_divergence: divergence,
            memory_errors: Vec::new(),
            stats: std::mem::take(&mut self.stats),
        })
    }
}

/// What holds of the barrier counts of loops whose barriers per iteration vary, instantiated at
/// the iterations the two threads' queries mention (0, j, j+1 and the trip count): each
/// iteration adds its own count, and the count never decreases from an iteration to a later one
/// (in the same block and enclosing iterations).
fn loop_count_axioms(sa: &ThreadSummary, sb: &ThreadSummary) -> Vec<Bool> {
    let at = |lc: &LoopCount, j: &BV| {
        let mut args = lc.args.clone();
        args.push(j.clone());
        lc.start.apply_bv(&args)
    };
    let one = bv(1, 32);
    let points = |lc: &LoopCount| [bv(0, 32), lc.j.clone(), lc.j.bvadd(&one), lc.trips.clone()];
    // Counts exist only up to the trip count: a loop may run fewer times than `j`.
    let monotone = |a: &LoopCount, b: &LoopCount, same: &Bool, out: &mut Vec<Bool>| {
        for p in points(a) {
            for q in points(b) {
                let ordered = Bool::and(&[p.bvule(&q), q.bvule(&b.trips)]);
                out.push(same.implies(ordered.implies(at(a, &p).bvule(at(b, &q)))));
            }
        }
    };
    let mut out = Vec::new();
    for lc in sa.loop_counts.iter().chain(&sb.loop_counts) {
        let next = lc.j.bvadd(&one);
        out.push(
            lc.runs_j
                .implies(at(lc, &next).eq(at(lc, &lc.j).bvadd(&lc.total))),
        );
        monotone(lc, lc, &Bool::from_bool(true), &mut out);
    }
    for a in &sa.loop_counts {
        for b in sb.loop_counts.iter().filter(|b| b.loop_id == a.loop_id) {
            let same = Bool::and(
                &a.args
                    .iter()
                    .zip(&b.args)
                    .map(|(x, y)| x.eq(y))
                    .collect::<Vec<_>>(),
            );
            monotone(a, b, &same, &mut out);
            monotone(b, a, &same, &mut out);
        }
    }
    out
}

fn thread_vars(p: &str) -> ThreadVars {
    let v = |n: &str| BV::new_const(format!("{p}_{n}"), 32);
    ThreadVars {
        tid: [v("tid_x"), v("tid_y"), v("tid_z")],
        bid: [v("bid_x"), v("bid_y"), v("bid_z")],
    }
}

fn make_launch(k: &Kernel, a: &Assumptions) -> Launch {
    let dims = |fixed: Extents, name: &str| -> [BV; 3] {
        std::array::from_fn(|i| match fixed.0[i] {
            Some(d) => bv(d as u64, 32),
            None => BV::new_const(format!("{name}_{}", ["x", "y", "z"][i]), 32),
        })
    };
    let params = k
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.ty {
            Ty::Ptr(Space::Param) => None,
            Ty::Ptr(_) => Some(SymValue::Ptr(Base::Param(ParamId(i as u32)), bv(0, 64))),
            Ty::Scalar(s) => {
                let w = s.size() * 8;
                Some(match a.params.get(&p.name) {
                    Some(v) if s == Scalar::Bool => SymValue::Bool(Bool::from_bool(*v != 0)),
                    Some(v) if !s.is_float() => SymValue::Bv(BV::from_i64(*v, w)),
                    _ if s == Scalar::Bool => {
                        SymValue::Bool(Bool::new_const(format!("param_{}", p.name)))
                    }
                    _ => SymValue::Bv(BV::new_const(format!("param_{}", p.name), w)),
                })
            }
            Ty::Void => None,
        })
        .collect();
    Launch {
        block_dim: dims(a.block, "blockDim"),
        grid_dim: dims(a.grid, "gridDim"),
        params,
        facts: a.facts.clone(),
    }
}

fn launch_constraints(l: &Launch, a: &Assumptions) -> Vec<Bool> {
    let mut c = Vec::new();
    let wide = |x: &BV| x.zero_ext(32);
    if a.block.all().is_none() {
        for ((d, max), fixed) in l.block_dim.iter().zip(MAX_BLOCK).zip(a.block.0) {
            if fixed.is_none() {
                c.push(d.bvuge(bv(1, 32)));
                c.push(d.bvule(bv(max as u64, 32)));
            }
        }
        let total = wide(&l.block_dim[0])
            .bvmul(wide(&l.block_dim[1]))
            .bvmul(wide(&l.block_dim[2]));
        c.push(total.bvule(bv(super::launch::MAX_THREADS_PER_BLOCK, 64)));
    }
    if a.grid.all().is_none() {
        for (i, (d, max)) in l.grid_dim.iter().zip(MAX_GRID).enumerate() {
            if a.grid.0[i].is_none() {
                c.push(d.bvuge(bv(1, 32)));
                c.push(d.bvule(bv(max as u64, 32)));
            }
            // Every global thread index fits in a signed 32-bit int.
            let span = wide(d).bvmul(wide(&l.block_dim[i]));
            c.push(span.bvule(bv(i32::MAX as u64, 64)));
        }
    }
    c
}

fn linear_tid(t: &ThreadVars, l: &Launch) -> BV {
    t.tid[0]
        .bvadd(t.tid[1].bvmul(&l.block_dim[0]))
        .bvadd(t.tid[2].bvmul(l.block_dim[0].bvmul(&l.block_dim[1])))
}

/// What the witness's byte offset counts from: the access's own name, unless it has none a user
/// would know (an access inside a library's code, through its `__first` or an unnamed
/// pointer), then the object the replay touched.
fn witness_object(k: &Kernel, acc: &Access, base: &Base) -> Option<String> {
    let internal = acc
        .array
        .as_deref()
        .is_none_or(|n| n == "?" || n.starts_with("__"));
    let object = match base {
        Base::Param(p) => k.params.get(p.index()).map(|p| p.name.clone()),
        Base::Shared(s) => k.shared.get(s.index()).map(|s| s.name.clone()),
        _ => None,
    };
    match internal {
        true => object.or_else(|| acc.array.clone()),
        false => acc.array.clone(),
    }
}

fn same_block(a: &ThreadVars, b: &ThreadVars) -> Bool {
    Bool::and(&[
        a.bid[0].eq(&b.bid[0]),
        a.bid[1].eq(&b.bid[1]),
        a.bid[2].eq(&b.bid[2]),
    ])
}

impl Ctx<'_> {
    /// Solves `base ∧ extra`, adding the lazy facts a model breaks and solving again until
    /// a model keeps them all (or there is none).
    fn solve(&mut self, extra: &[Bool], what: Query) -> Outcome {
        let base = std::mem::take(&mut self.base);
        let outcome = self.solve_over(&base, extra, what);
        self.base = base;
        outcome
    }

    /// `solve` for a query about a point of each thread (an access, a barrier), before which
    /// each has met `upto` of its lazy facts: later ones do not bear on it.
    fn solve_upto(&mut self, extra: &[Bool], what: Query, upto: [usize; 2]) -> Outcome {
        self.lazy_upto = upto;
        let outcome = self.solve(extra, what);
        self.lazy_upto = [usize::MAX; 2];
        outcome
    }

    /// The lazy facts the query being solved may take.
    fn lazy_facts(&self) -> impl Iterator<Item = &Bool> {
        let before = |t: usize| {
            let facts = &self.lazy[t];
            &facts[..self.lazy_upto[t].min(facts.len())]
        };
        before(0).iter().chain(before(1)).chain(&self.lazy_uniform)
    }

    fn solve_over(&mut self, base: &[Bool], extra: &[Bool], what: Query) -> Outcome {
        let mut taken: Vec<Bool> = Vec::new();
        loop {
            // The budget decides whether a query starts; a query that starts gets its whole
            // work limit.
            let limit = engine::Limit {
                work: self.limit,
                wall_ms: self.opts.timeout_ms,
            };
            if self.budget_left() == 0 {
                self.stats.over_budget += 1;
                self.gave_up = true;
                return Outcome::Unknown;
            }
            let q: Vec<&Bool> = extra.iter().chain(&taken).collect();
            let solver = self.opts.solver;
            let timeouts = self.stats.timeouts + self.stats.wall_timeouts;
            let work = self.stats.solver_work.unwrap_or(0);
            let start = Instant::now();
            // The launch and certainty queries have a base of their own.
            let own_base = matches!(what, Query::Launch | Query::Certainty(..));
            let whole = self.limit >= self.opts.query_work;
            let relaxation = self.relaxation.as_ref().filter(|_| whole && !own_base);
            let outcome = match relaxation {
                Some(r) if r.refutes(base, &q, limit, &mut self.stats) => Outcome::Unsat,
                _ => {
                    let session = (!own_base).then_some(&mut self.session);
                    engine::solve(base, &q, session, solver, limit, &mut self.stats, what)
                }
            };
            self.spent += self.stats.solver_work.unwrap_or(0) - work;
            self.solver_time += start.elapsed();
            self.stats.solver_ms = Some(self.solver_time.as_millis() as u64);
            self.gave_up |= self.stats.timeouts + self.stats.wall_timeouts > timeouts;
            // The launch queries ask about the launch alone, the certainty queries about a
            // model's values, the lazy facts already kept.
            let Outcome::Sat(m) = &outcome else {
                return outcome;
            };
            if own_base {
                return outcome;
            }
            let broken: Vec<Bool> = self
                .lazy_facts()
                .filter(|f| m.eval(*f, true).and_then(|b| b.as_bool()) != Some(true))
                .cloned()
                .collect();
            if broken.is_empty() {
                return outcome;
            }
            taken.extend(broken);
        }
    }

    fn budget_left(&self) -> u64 {
        self.budget.saturating_sub(self.spent)
    }

    fn value(m: &Model, x: &BV) -> u64 {
        m.eval(x, true).and_then(|v| v.as_u64()).unwrap_or(0)
    }

    /// The concrete launch and thread identities a model describes.
    fn concretize(&self, m: &Model) -> Replay {
        let dims =
            |v: &[BV; 3]| -> [u32; 3] { std::array::from_fn(|i| Self::value(m, &v[i]) as u32) };
        let params = self
            .launch
            .params
            .iter()
            .map(|p| match p {
                Some(SymValue::Bv(x)) => Some(Self::value(m, x)),
                Some(SymValue::Bool(b)) => {
                    m.eval(b, true).and_then(|v| v.as_bool()).map(|b| b as u64)
                }
                _ => None,
            })
            .collect();
        Replay {
            params,
            bdim: dims(&self.launch.block_dim),
            gdim: dims(&self.launch.grid_dim),
            tids: [dims(&self.ta.tid), dims(&self.tb.tid)],
            bids: [dims(&self.ta.bid), dims(&self.tb.bid)],
        }
    }

    fn param_map(&self, params: &[Option<u64>]) -> BTreeMap<String, i64> {
        self.k
            .params
            .iter()
            .zip(params)
            .filter_map(|(p, v)| {
                let s = p.ty.scalar()?;
                Some((p.name.clone(), sign_extend((*v)?, s.size())))
            })
            .collect()
    }

    fn check_divergence(&mut self) -> Vec<DivergenceReport> {
        let mut out = Vec::new();
        let bars: Vec<_> = self
            .sa
            .barriers
            .iter()
            .cloned()
            .zip(self.sb.barriers.iter().cloned())
            .collect();
        let same = same_block(&self.ta, &self.tb);
        let distinct = linear_tid(&self.ta, &self.launch)
            .eq(linear_tid(&self.tb, &self.launch))
            .not();
        for (i, (ba, bb)) in bars.into_iter().enumerate() {
            let mut q = vec![
                same.clone(),
                distinct.clone(),
                ba.pc.clone(),
                bb.pc.not(),
                bb.exited.not(),
            ];
            q.extend(ba.iters.iter().zip(&bb.iters).map(|(x, y)| x.eq(y)));
            let upto = [ba.lazy_before, bb.lazy_before];
            let model = match self.solve_upto(&q, Query::Divergence(i), upto) {
                Outcome::Unsat => continue,
                Outcome::Sat(m) if !ba.is_break => m,
                // A break some threads may take without the others is no divergence yet,
                // but the counts after its loop are wrong then.
                Outcome::Sat(_) | Outcome::Unknown => {
                    self.barriers_precise = false;
                    continue;
                }
            };
            let Replay {
                params,
                bdim,
                gdim,
                tids,
                bids,
            } = self.concretize(&model);
            let runs = self.runs(&params, bdim, gdim, tids, bids);
            match confirm_divergence(&runs) {
                Some(Parting { waiter, at, other }) => {
                    if out.iter().all(|d: &DivergenceReport| d.line != at.line) {
                        out.push(DivergenceReport {
                            line: at.line,
                            column: at.column,
                            witness: DivergenceWitness {
                                block: bids[waiter],
                                threads: [tids[waiter], tids[1 - waiter]],
                                block_dim: bdim,
                                grid_dim: gdim,
                                params: self.param_map(&params),
                                other_line: other.map(|o| o.line),
                                other_column: other.map(|o| o.column),
                            },
                        });
                    }
                    self.barriers_precise = false;
                }
                // The solver's threads do not diverge when run: the barrier may still diverge
                // for others, so barrier intervals are not relied on.
                None => self.barriers_precise = false,
            }
        }
        out
    }

    fn runs(
        &self,
        params: &[Option<u64>],
        bdim: [u32; 3],
        gdim: [u32; 3],
        tids: [[u32; 3]; 2],
        bids: [[u32; 3]; 2],
    ) -> [Run; 2] {
        std::array::from_fn(|i| {
            concrete::run_thread(
                self.k,
                &Config {
                    block_dim: bdim,
                    grid_dim: gdim,
                    tid: tids[i],
                    bid: bids[i],
                    params,
                    data: DataBranches::Stop,
                    any_block: false,
                },
            )
        })
    }

    /// Whether the access's address is the same in every thread of a block, and across the
    /// iterations of its innermost loop (the two symbolic threads stand for one thread then).
    fn reductions(&mut self, a: AccessId) -> (bool, bool) {
        let xs = self.sa.accesses.get(&a).cloned().unwrap_or_default();
        let ys = self.sb.accesses.get(&a).cloned().unwrap_or_default();
        if xs.is_empty() || ys.is_empty() {
            return (false, false);
        }
        let same_block = same_block(&self.ta, &self.tb);
        let same_thread = Bool::and(&[
            same_block.clone(),
            self.ta.tid[0].eq(&self.tb.tid[0]),
            self.ta.tid[1].eq(&self.tb.tid[1]),
            self.ta.tid[2].eq(&self.tb.tid[2]),
        ]);
        let (mut thread_inv, mut loop_inv) = (true, true);
        for x in &xs {
            for y in &ys {
                if x.base == Base::Unknown || x.base != y.base {
                    return (false, false);
                }
                let differ = x.offset.eq(&y.offset).not();
                if thread_inv {
                    let q = [
                        same_block.clone(),
                        x.pc.clone(),
                        y.pc.clone(),
                        differ.clone(),
                    ];
                    thread_inv = matches!(self.solve(&q, Query::Invariance(a)), Outcome::Unsat);
                }
                if loop_inv {
                    let Some((xl, xo)) = x.iters.split_last() else {
                        loop_inv = false;
                        continue;
                    };
                    let Some((yl, yo)) = y.iters.split_last() else {
                        loop_inv = false;
                        continue;
                    };
                    let mut q = vec![
                        same_thread.clone(),
                        x.pc.clone(),
                        y.pc.clone(),
                        differ.clone(),
                    ];
                    q.extend(xo.iter().zip(yo).map(|(i, j)| i.eq(j)));
                    q.push(xl.eq(yl).not());
                    loop_inv = matches!(self.solve(&q, Query::Invariance(a)), Outcome::Unsat);
                }
            }
        }
        (thread_inv, loop_inv)
    }

    /// Each pair of accesses that may conflict, with where it stands. Enumerated afresh in each
    /// pass rather than stored: a kernel of thousands of accesses has millions of pairs, and
    /// the memory of the analysis stays linear in its accesses.
    fn pairs<'s>(
        &'s self,
        assumed: &'s BTreeSet<AccessId>,
    ) -> impl Iterator<Item = ((usize, usize), PairKind)> + 's {
        let acc = &self.k.accesses;
        let n = acc.len();
        (0..n)
            .flat_map(move |i| (i..n).map(move |j| (i, j)))
            .filter(move |&(i, j)| can_conflict(&acc[i], &acc[j]) != Conflict::Never)
            .map(move |(i, j)| {
                let (a, b) = (AccessId(i as u32), AccessId(j as u32));
                let shared = acc[i].space == Space::Shared && acc[j].space == Space::Shared;
                let kind = if shared && self.separated(a, b) {
                    PairKind::Separated
                } else if assumed.contains(&a) || assumed.contains(&b) {
                    PairKind::Guarantee
                } else {
                    PairKind::Rest
                };
                ((i, j), kind)
            })
    }

    fn check_pairs(
        &mut self,
        settled: Option<&Settled>,
        assumed: &BTreeSet<AccessId>,
    ) -> Option<(Vec<AccessVerdict>, Tally)> {
        let mut first = Vec::new();
        let (mut pairs, mut separated) = (0, 0);
        for (p, kind) in self.pairs(assumed) {
            pairs += 1;
            match kind {
                PairKind::Separated => separated += 1,
                PairKind::Guarantee => first.push(p),
                PairKind::Rest => {}
            }
        }
        self.stats.pairs = pairs;
        self.stats.separated = separated;
        // The pairs of the reads assumed uniform first: if one is not safe, nothing else is
        // worth asking under the assumption.
        let mut tally = Tally::new(self.k.accesses.len());
        for (&p, r) in first.iter().zip(self.guarantee(&first, settled)?) {
            let ordered = self.protocol_ordered(&r);
            tally.add(p, r, ordered);
        }
        self.decide_rest(settled, assumed, &mut tally);
        self.stats.protocol_ordered = tally.left_to_run.len() as u32;
        Some((self.access_verdicts(&tally.seen), tally))
    }

    /// Per access: `racy` if in a racy pair, `unknown` (and instrumented) if in an unknown
    /// one, else `safe`; instrumented accesses get their reductions.
    fn access_verdicts(&mut self, seen: &[(bool, bool)]) -> Vec<AccessVerdict> {
        let mut reductions = HashMap::default();
        let mut out = Vec::with_capacity(seen.len());
        for (i, &(racy, instrumented)) in seen.iter().enumerate() {
            let instrumented = instrumented || (!racy && self.beside_opaque(AccessId(i as u32)));
            let verdict = if racy {
                Verdict::Racy
            } else if instrumented {
                Verdict::Unknown
            } else {
                Verdict::Safe
            };
            // Reductions read only the access's own summaries: one class, one answer.
            let (thread_invariant, loop_invariant) = if instrumented {
                let rep = self.classes.as_ref().map_or(i, |c| c.rep(i));
                *reductions
                    .entry(rep)
                    .or_insert_with(|| self.reductions(AccessId(rep as u32)))
            } else {
                (false, false)
            };
            out.push(AccessVerdict {
                verdict,
                instrumented,
                thread_invariant,
                loop_invariant,
            });
        }
        out
    }

    /// Whether another thread may run an opaque statement (`SymOpaque`) while this access runs:
    /// in its barrier interval in the same block, or anywhere in another block for memory other
    /// blocks reach; a child grid or an asynchronous copy, at any time once started. Then the
    /// access is not proved safe, whatever its pairs say: what the statement touches is not
    /// known.
    fn beside_opaque(&mut self, a: AccessId) -> bool {
        let space = self.k.accesses[a.index()].space;
        if space == Space::Local || self.sb.opaque.is_empty() {
            return false;
        }
        let xs = self.sa.accesses.get(&a).cloned().unwrap_or_default();
        let l = &self.launch;
        let distinct = Bool::and(&[
            same_block(&self.ta, &self.tb),
            linear_tid(&self.ta, l).eq(linear_tid(&self.tb, l)),
        ])
        .not();
        let reads = self.k.accesses[a.index()].kind == AccessKind::Read;
        for o in self.sb.opaque.clone() {
            if reads && o.effect == OpaqueEffect::Reads {
                continue;
            }
            // A child grid cannot reach shared memory (passing it a pointer there is undefined);
            // it and an asynchronous copy run beside whatever any thread does after them, in
            // any barrier interval (a copy into shared memory: of the same block).
            let lasting = match (o.effect, space) {
                (OpaqueEffect::Concurrent, Space::Shared) => continue,
                (OpaqueEffect::Async, Space::Shared) => Some(same_block(&self.ta, &self.tb)),
                (OpaqueEffect::Async | OpaqueEffect::Concurrent, _) => Some(Bool::from_bool(true)),
                _ => None,
            };
            for x in &xs {
                if let Some(lasting) = &lasting {
                    let q = [x.pc.clone(), o.pc.clone(), lasting.clone()];
                    let upto = [x.lazy_before, o.lazy_before];
                    if !matches!(self.solve_upto(&q, Query::Opaque(a), upto), Outcome::Unsat) {
                        return true;
                    }
                    continue;
                }
                let mut interval = vec![same_block(&self.ta, &self.tb)];
                if self.barriers_precise {
                    interval.push(x.b.eq(&o.b));
                }
                let mut when = Bool::and(&interval);
                if space != Space::Shared {
                    when = Bool::or(&[when, same_block(&self.ta, &self.tb).not()]);
                }
                let q = [x.pc.clone(), o.pc.clone(), distinct.clone(), when];
                let upto = [x.lazy_before, o.lazy_before];
                if !matches!(self.solve_upto(&q, Query::Opaque(a), upto), Outcome::Unsat) {
                    return true;
                }
            }
        }
        false
    }

    /// The pairs neither separated nor guarantees: those a fixed launch's run settles from it,
    /// the others by the solver, each class pair once (`classes.rs`) on the first of its pairs,
    /// and the other pairs answered from it (`Expansion`).
    fn decide_rest(
        &mut self,
        settled: Option<&Settled>,
        assumed: &BTreeSet<AccessId>,
        tally: &mut Tally,
    ) {
        if self.classes.is_none() {
            let last = self.last_barriers.as_ref();
            self.classes = Some(Classes::of(self.k, &self.sa, &self.sb, last));
        }
        let mut index: HashMap<ClassPair, usize> = HashMap::default();
        let mut reps: Vec<(usize, usize)> = Vec::new();
        if let Some(classes) = &self.classes {
            for (p, kind) in self.pairs(assumed) {
                if kind == PairKind::Rest && self.needs_solver(settled, p) {
                    index.entry(classes.pair(p)).or_insert_with(|| {
                        reps.push(p);
                        reps.len() - 1
                    });
                }
            }
        }
        let decided = self.solve_rounds(&reps, true);
        let mut expansion = Expansion::new(self.k.accesses.len(), &reps, decided);
        let mut closed = 0;
        if let Some(classes) = &self.classes {
            for (p, kind) in self.pairs(assumed) {
                if kind != PairKind::Rest {
                    continue;
                }
                let r = match self.settled_result(settled, p) {
                    Some(r) => {
                        closed += 1;
                        r
                    }
                    None => match index.get(&classes.pair(p)) {
                        Some(&c) => expansion.result(self, c, p),
                        None => (Verdict::Unknown, None),
                    },
                };
                let ordered = self.protocol_ordered(&r);
                tally.add(p, r, ordered);
            }
        }
        self.stats.exhaustive += closed;
    }

    /// The lock or fence-and-flag protocol that may order the race of `r` (`protocols.rs`).
    fn protocol_ordered(&self, r: &PairResult) -> Option<Protocol> {
        let race = r.1.as_deref().filter(|_| r.0 == Verdict::Racy)?;
        let (a, b) = (AccessId(race.first.access), AccessId(race.second.access));
        self.protocols.may_order(self.k, a, b, race.scope)
    }

    /// Proves the pairs of reads assumed uniform safe, or gives up at the first it cannot
    /// (`None`), within half the kernel's budget, on top of it: the pairs still get the whole
    /// budget, in this pass or the next. Each query has the first round's limit, so a
    /// guarantee that fails costs little: those that hold are proved cheaply.
    fn guarantee(
        &mut self,
        pairs: &[(usize, usize)],
        settled: Option<&Settled>,
    ) -> Option<Vec<PairResult>> {
        let (budget, spent) = (self.budget, self.spent);
        self.budget = budget / 2;
        self.spent = 0;
        let mut out = Vec::with_capacity(pairs.len());
        for &p in pairs {
            let r = match self.settled_result(settled, p) {
                Some(r) => {
                    self.stats.exhaustive += 1;
                    r
                }
                None => self
                    .solve_rounds(&[p], true)
                    .pop()
                    .map_or((Verdict::Unknown, None), |r| r.0),
            };
            if r.0 != Verdict::Safe {
                break;
            }
            out.push(r);
        }
        self.budget = budget;
        self.spent = spent;
        (out.len() == pairs.len()).then_some(out)
    }

    /// A pair's verdict from the run of a whole fixed launch, where the run settles it: `None`
    /// for the pairs the solver must answer (those that race only through accesses that may
    /// not happen, and those the runs did not cover).
    fn settled_result(
        &self,
        settled: Option<&Settled>,
        (i, j): (usize, usize),
    ) -> Option<PairResult> {
        let (launch, real) = settled?;
        if self.needs_solver(settled, (i, j)) {
            return None;
        }
        let key = (AccessId(i as u32), AccessId(j as u32));
        Some(match real.races.get(&key) {
            Some(c) => (
                Verdict::Racy,
                Some(Box::new(self.concrete_report(c, launch))),
            ),
            None => (Verdict::Safe, None),
        })
    }

    /// Whether the solver must answer a pair: always without a run of the whole launch;
    /// with one, where the pair races only through accesses that may not happen or the runs
    /// did not cover it. A pair the runs saw race is racy whatever else they saw.
    fn needs_solver(&self, settled: Option<&Settled>, (i, j): (usize, usize)) -> bool {
        let Some((_, real)) = settled else {
            return true;
        };
        let key = (AccessId(i as u32), AccessId(j as u32));
        let acc = &self.k.accesses;
        let shared = acc[i].space == Space::Shared && acc[j].space == Space::Shared;
        !real.races.contains_key(&key)
            && (real.undecided.contains(&key) || (real.shared_only && !shared))
    }

    /// With `first_round`, every pair is asked first within `first_round_work`, and only those
    /// that ran out of work again with the whole limit, while the kernel's budget lasts. A
    /// race comes with the scope and model that showed it.
    fn solve_rounds(
        &mut self,
        pairs: &[(usize, usize)],
        first_round: bool,
    ) -> Vec<(PairResult, Option<(Scope, Model)>)> {
        // Most queries are cheap: one hard pair must not use up the budget of all the others.
        self.limit = if first_round {
            self.opts.query_work.min(self.opts.first_round_work)
        } else {
            self.opts.query_work
        };
        let mut results = Vec::with_capacity(pairs.len());
        let mut again = Vec::new();
        for (p, &(i, j)) in pairs.iter().enumerate() {
            self.gave_up = false;
            let r = self.check_pair(AccessId(i as u32), AccessId(j as u32));
            // Also a race: a more local scope may have run out of work before it was found.
            if r.0 != Verdict::Safe && self.gave_up {
                again.push(p);
            }
            results.push((r, self.last_race.take()));
        }
        if self.opts.query_work > self.limit {
            self.limit = self.opts.query_work;
            for p in again {
                let (i, j) = pairs[p];
                let r = self.check_pair(AccessId(i as u32), AccessId(j as u32));
                // A race found in the first round stands if this round runs out of work.
                if r.0 != Verdict::Unknown || results[p].0 .0 == Verdict::Unknown {
                    results[p] = (r, self.last_race.take());
                }
            }
        }
        results
    }

    fn check_pair(&mut self, a: AccessId, b: AccessId) -> PairResult {
        if self.budget_left() == 0 {
            // Not even building the queries: a kernel can have tens of thousands of pairs.
            self.stats.over_budget += 1;
            self.gave_up = true;
            return (Verdict::Unknown, None);
        }
        let xs = self.sa.accesses.get(&a).cloned().unwrap_or_default();
        let ys = self.sb.accesses.get(&b).cloned().unwrap_or_default();
        let (acc_a, acc_b) = (&self.k.accesses[a.index()], &self.k.accesses[b.index()]);
        let global = acc_a.space == Space::Global || acc_b.space == Space::Global;
        // Block-scoped atomics are atomic with each other within a block: only threads of two
        // blocks can race on them.
        let across_only = can_conflict(acc_a, acc_b) == Conflict::AcrossBlocks;
        let separated = across_only || self.separated(a, b);
        let mut verdict = Verdict::Safe;
        if xs.is_empty() || ys.is_empty() {
            // Code whose path condition is false is skipped: no thread runs it (the branches of
            // `if (blockSize >= 512)` in a kernel instantiated with 128, say).
            let dead = (xs.is_empty() && self.sa.unreachable.contains(&a))
                || (ys.is_empty() && self.sb.unreachable.contains(&b));
            return match dead {
                true => (Verdict::Safe, None),
                // No symbolic execution reached it: nothing is proved about it.
                false => (Verdict::Unknown, None),
            };
        }
        for x in &xs {
            for y in &ys {
                if x.base == Base::Unknown || y.base == Base::Unknown {
                    // Where the address points is not known: nothing can be proved.
                    verdict = Verdict::Unknown;
                    continue;
                }
                if x.base != y.base || matches!(x.base, Base::Local(_)) {
                    continue;
                }
                let mut scopes = if separated {
                    vec![]
                } else {
                    let block_query = self.same_block_query(x, y);
                    let upto = [x.lazy_before, y.lazy_before];
                    match self.solve_upto(&block_query, Query::SameBlock(a, b), upto) {
                        Outcome::Unsat => vec![],
                        Outcome::Sat(_) => vec![Scope::IntraWarp, Scope::InterWarp],
                        // Each scope's query adds to this one: on the eigenvalue kernels of the
                        // CUDA samples they ran out of time too, tripling the time lost.
                        Outcome::Unknown => {
                            verdict = Verdict::Unknown;
                            vec![]
                        }
                    }
                };
                if global {
                    scopes.push(Scope::InterBlock);
                }
                for scope in &scopes {
                    // A model the replay does not confirm may come from what the symbolic
                    // execution over-approximates; other threads may still show the race.
                    let mut excluded: Vec<Bool> = Vec::new();
                    for _ in 0..REPLAY_ATTEMPTS {
                        match self.query(*scope, a, b, x, y, &excluded) {
                            Outcome::Unsat => break,
                            Outcome::Unknown => {
                                verdict = Verdict::Unknown;
                                break;
                            }
                            Outcome::Sat(m) => {
                                verdict = Verdict::Unknown;
                                let others = self.same_threads(&m).not();
                                let replayed =
                                    self.confirm_small_first(*scope, (a, b), (x, y), &excluded, m);
                                match replayed {
                                    Replayed::Race(mut r) => {
                                        if let Some((_, w)) = self.last_race.take() {
                                            (r.certainty, r.condition) =
                                                self.certainty(*scope, (a, b), (x, y), &w);
                                            self.last_race = Some((*scope, w));
                                        }
                                        return (Verdict::Racy, Some(r));
                                    }
                                    // Where data stopped the replay, other threads' replays
                                    // stop too: the queries for them would be wasted.
                                    Replayed::Inexact => break,
                                    Replayed::NoRace => {}
                                }
                                excluded.push(others);
                            }
                        }
                    }
                }
            }
        }
        (verdict, None)
    }

    /// No barrier interval holds both accesses (then only threads of different blocks can
    /// race on them).
    fn separated(&self, a: AccessId, b: AccessId) -> bool {
        self.last_barriers
            .as_ref()
            .is_some_and(|l| !l.may_share(a, b))
    }

    /// The model's two threads, as a constraint (to ask for others).
    fn same_threads(&self, m: &Model) -> Bool {
        let mut eqs = Vec::new();
        for t in [&self.ta, &self.tb] {
            for v in t.tid.iter().chain(&t.bid) {
                eqs.push(v.eq(bv(Self::value(m, v), 32)));
            }
        }
        Bool::and(&eqs)
    }

    fn query(
        &mut self,
        scope: Scope,
        a: AccessId,
        b: AccessId,
        x: &SymAccess,
        y: &SymAccess,
        excluded: &[Bool],
    ) -> Outcome {
        let Some(mut q) = self.pair_conditions(scope, a, b, x, y) else {
            return Outcome::Unsat;
        };
        q.extend(excluded.iter().cloned());
        let upto = [x.lazy_before, y.lazy_before];
        let what = Query::Pair(a, b, scope);
        match self.solve_upto(&q, what, upto) {
            // Under extents left open, a witness whose threads go on to break a lazy fact (a
            // subscript past its array after the race), whose `__mul24` drops high bits, or
            // whose offset from the block's position wraps, is a launch no program makes on
            // purpose: take one whose threads stay defined and plausible throughout; with
            // none, neither a race nor a proof (the run decides, under the program's own
            // launch).
            Outcome::Sat(m) if !self.extents_fixed => self.plausible_witness(q, what, m),
            other => other,
        }
    }

    /// A model of `q` whose threads keep every lazy fact and plausibility fact of their whole
    /// executions, starting from `m`: the facts a model breaks are taken one round at a time,
    /// as `solve_over` takes lazy facts (asking with all of them at once costs solver work the
    /// kernel's other pairs may need). `Unknown` when there is none or it cannot be told.
    fn plausible_witness(&mut self, mut q: Vec<Bool>, what: Query, mut m: Model) -> Outcome {
        let facts: Vec<Bool> = self
            .sa
            .plausible
            .iter()
            .chain(&self.sb.plausible)
            .cloned()
            .collect();
        let mut first = true;
        loop {
            let broken: Vec<Bool> = facts
                .iter()
                .filter(|f| m.eval(*f, true).and_then(|b| b.as_bool()) != Some(true))
                .cloned()
                .collect();
            if broken.is_empty() && !first {
                return Outcome::Sat(m);
            }
            first = false;
            q.extend(broken);
            match self.solve(&q, what) {
                Outcome::Sat(next) => m = next,
                _ => return Outcome::Unknown,
            }
        }
    }

    /// What the two threads' executions of `a` and `b` must satisfy to race in `scope`, both
    /// path conditions included; `None` when they cannot.
    fn pair_conditions(
        &self,
        scope: Scope,
        a: AccessId,
        b: AccessId,
        x: &SymAccess,
        y: &SymAccess,
    ) -> Option<Vec<Bool>> {
        let ka = self.k.accesses[a.index()].kind;
        let lockstep = self.opts.warp_model == WarpModel::Lockstep;
        if scope == Scope::IntraWarp && lockstep {
            // A warp runs one statement at a time, reads before writes: only two lanes writing
            // in the same execution of one statement race.
            if a != b || ka != AccessKind::Write {
                return None;
            }
        }
        let l = &self.launch;
        let warp_a = linear_tid(&self.ta, l).bvudiv(bv(32, 32));
        let warp_b = linear_tid(&self.tb, l).bvudiv(bv(32, 32));
        let mut q = match scope {
            Scope::IntraWarp | Scope::InterWarp => self.same_block_query(x, y),
            Scope::InterBlock => [x.pc.clone(), y.pc.clone()]
                .into_iter()
                .chain(overlap(x, y))
                .chain([same_block(&self.ta, &self.tb).not()])
                .collect(),
        };
        match scope {
            Scope::IntraWarp => {
                q.push(warp_a.eq(&warp_b));
                if lockstep {
                    q.extend(x.iters.iter().zip(&y.iters).map(|(i, j)| i.eq(j)));
                } else if self.barriers_precise {
                    q.push(x.w.eq(&y.w));
                }
            }
            Scope::InterWarp => q.push(warp_a.eq(&warp_b).not()),
            Scope::InterBlock => {}
        }
        Some(q)
    }

    /// Whether the race of `m`'s two threads holds for every value of the parameters its
    /// addresses depend on (scalar parameters and open launch extents in either offset): with
    /// everything else as in `m`, no value of those lets both accesses run without the race.
    /// Otherwise it is conditional, on the witness's values of those parameters; so is a race
    /// whose addresses go through a value the symbolic execution stands in for.
    fn certainty(
        &mut self,
        scope: Scope,
        (a, b): (AccessId, AccessId),
        (x, y): (&SymAccess, &SymAccess),
        m: &Model,
    ) -> (Certainty, Option<String>) {
        let (params, computed) = address_parameters(&[&x.offset, &y.offset]);
        if computed {
            // An address through a value the symbolic execution does not follow (a local a
            // loop changes but not by a fixed step, say): the witness fixes it, the program
            // computes it from the parameters, so no fixed value shows the race holds for all.
            return (Certainty::Conditional, Some(self.scalar_values(m)));
        }
        let condition = params
            .iter()
            .map(|(name, p)| format!("{name} = {}", Self::signed_value(m, p)))
            .collect::<Vec<_>>()
            .join(", ");
        if self.wraps(m, x, y) {
            // A launch no program makes on purpose; under it, the guards that let both
            // threads run may leave no value of the parameters to vary (`wraps.rs`).
            let values = match params.is_empty() {
                true => self.grid_values(m),
                false => condition,
            };
            let condition =
                format!("{values}, under which arithmetic on the block's position wraps around");
            return (Certainty::Conditional, Some(condition));
        }
        if params.is_empty() {
            return (Certainty::Definite, None);
        }
        let free: Vec<BV> = params
            .iter()
            .map(|(_, p)| BV::fresh_const("free", p.get_size()))
            .collect();
        let pairs: Vec<(&BV, &BV)> = params.iter().map(|(_, p)| p).zip(&free).collect();
        let fix = |c: &Bool| m.eval(&c.substitute(&pairs), false);
        let Some(race) = self.pair_conditions(scope, a, b, x, y) else {
            return (Certainty::Conditional, Some(condition));
        };
        let mut q: Vec<Option<Bool>> = self.base.iter().map(fix).collect();
        q.push(fix(&x.pc));
        q.push(fix(&y.pc));
        q.push(fix(&Bool::and(&race)).map(|r| r.not()));
        let Some(q) = q.into_iter().collect::<Option<Vec<Bool>>>() else {
            return (Certainty::Conditional, Some(condition));
        };
        match self.solve_over(&[], &q, Query::Certainty(a, b)) {
            Outcome::Unsat => (Certainty::Definite, None),
            _ => (Certainty::Conditional, Some(condition)),
        }
    }

    /// Under extents left open, whether the witness's threads wrap unsigned arithmetic on the
    /// block's position before reaching their accesses.
    fn wraps(&self, m: &Model, x: &SymAccess, y: &SymAccess) -> bool {
        if self.extents_fixed {
            return false;
        }
        let breaks = |facts: &[Bool]| {
            facts
                .iter()
                .any(|f| m.eval(f, true).and_then(|b| b.as_bool()) != Some(true))
        };
        breaks(&self.sa.unwrapped[..x.unwrapped_before])
            || breaks(&self.sb.unwrapped[..y.unwrapped_before])
    }

    /// The witness's grid extents the launch leaves open: `gridDim.x = 65536, gridDim.y = 257`.
    fn grid_values(&self, m: &Model) -> String {
        let open = self.launch.grid_dim.iter().zip(["x", "y", "z"]);
        open.filter(|(d, _)| d.as_u64().is_none())
            .map(|(d, axis)| format!("gridDim.{axis} = {}", Self::signed_value(m, d)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The witness's value of every scalar parameter the launch leaves open: `n = 3, pitch = 0`.
    fn scalar_values(&self, m: &Model) -> String {
        let values: Vec<String> = self
            .k
            .params
            .iter()
            .zip(&self.launch.params)
            .filter_map(|(p, v)| match v {
                Some(SymValue::Bv(x)) if x.as_u64().is_none() => {
                    Some(format!("{} = {}", p.name, Self::signed_value(m, x)))
                }
                _ => None,
            })
            .collect();
        match values.is_empty() {
            true => "values the kernel computes".to_string(),
            false => values.join(", "),
        }
    }

    fn signed_value(m: &Model, x: &BV) -> i64 {
        m.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(0)
    }

    /// Two distinct threads of one block touching overlapping bytes in one barrier interval:
    /// what the intra- and inter-warp queries both add to, so UNSAT settles both at once.
    fn same_block_query(&self, x: &SymAccess, y: &SymAccess) -> Vec<Bool> {
        let l = &self.launch;
        let (wa, wb) = (linear_tid(&self.ta, l), linear_tid(&self.tb, l));
        let mut q = vec![x.pc.clone(), y.pc.clone()];
        q.extend(overlap(x, y));
        q.extend([same_block(&self.ta, &self.tb), wa.eq(&wb).not()]);
        if self.barriers_precise {
            q.push(x.b.eq(&y.b));
        }
        q
    }

    /// Replays a model of a pair query, after the same query asked once more with small
    /// values (`small_launch`): that one, when it has a model that races, is the witness a user
    /// recognises (the solver's first model may pick a width of 2^29). Otherwise `m`. The
    /// model that showed a race is kept in `last_race` for the pair's class (`Expansion`).
    fn confirm_small_first(
        &mut self,
        scope: Scope,
        (a, b): (AccessId, AccessId),
        (x, y): (&SymAccess, &SymAccess),
        excluded: &[Bool],
        m: Model,
    ) -> Replayed {
        let bounds = self.small_launch();
        let plausible = m.eval(&Bool::and(&bounds), true).and_then(|v| v.as_bool());
        if plausible != Some(true) {
            let small: Vec<Bool> = excluded.iter().cloned().chain(bounds).collect();
            if let Outcome::Sat(s) = self.query(scope, a, b, x, y, &small) {
                if let race @ Replayed::Race(_) = self.confirm(scope, a, b, &s) {
                    self.last_race = Some((scope, s));
                    return race;
                }
            }
        }
        let replayed = self.confirm(scope, a, b, &m);
        if matches!(replayed, Replayed::Race(_)) {
            self.last_race = Some((scope, m));
        }
        replayed
    }

    /// Every free scalar parameter within ±`SMALL` and every grid extent at most `SMALL_GRID`
    /// (block extents are at most 1024 already). Parameters narrower than 16 bits are left
    /// alone: the bound does not fit them.
    fn small_launch(&self) -> Vec<Bool> {
        let mut out = Vec::new();
        for (p, v) in self.k.params.iter().zip(&self.launch.params) {
            let (Some(SymValue::Bv(x)), Some(s)) = (v, p.ty.scalar()) else {
                continue;
            };
            let w = x.get_size();
            if s.is_float() || w < 16 {
                continue;
            }
            let bound = bv(SMALL, w);
            out.push(if s.is_signed() {
                Bool::and(&[x.bvsle(&bound), x.bvsge(bound.bvneg())])
            } else {
                x.bvule(&bound)
            });
        }
        for d in &self.launch.grid_dim {
            out.push(d.bvule(bv(SMALL_GRID, 32)));
        }
        out
    }

    /// Replays the model's two threads and looks for the race in what they actually do.
    fn confirm(&self, scope: Scope, a: AccessId, b: AccessId, m: &Model) -> Replayed {
        let Replay {
            params,
            bdim,
            gdim,
            tids,
            bids,
        } = self.concretize(m);
        let runs = self.runs(&params, bdim, gdim, tids, bids);
        let lockstep = self.opts.warp_model == WarpModel::Lockstep;
        let linear = |t: [u32; 3]| t[0] + t[1] * bdim[0] + t[2] * bdim[0] * bdim[1];
        let (la, lb) = (linear(tids[0]), linear(tids[1]));
        let same_blk = bids[0] == bids[1];
        let actual_scope = if !same_blk {
            Scope::InterBlock
        } else if la / 32 == lb / 32 {
            Scope::IntraWarp
        } else {
            Scope::InterWarp
        };
        if actual_scope != scope || (same_blk && la == lb) {
            return Replayed::NoRace;
        }
        let replay = Replay {
            params,
            bdim,
            gdim,
            tids,
            bids,
        };
        // The second thread's executions of `b` by byte: loops can execute an access often.
        // A witness never relies on signed overflow: what a thread does after it is no race.
        let ebs: Vec<&Event> = runs[1]
            .defined_events()
            .iter()
            .filter(|e| e.access == b)
            .collect();
        let mut by_byte: HashMap<(Base, i64), Vec<usize>> = HashMap::default();
        for (i, e) in ebs.iter().enumerate() {
            for byte in e.offset..e.offset + i64::from(e.size) {
                by_byte.entry((e.base, byte)).or_default().push(i);
            }
        }
        for ea in runs[0].defined_events().iter().filter(|e| e.access == a) {
            let first = (ea.offset..ea.offset + i64::from(ea.size))
                .filter_map(|byte| by_byte.get(&(ea.base, byte)))
                .flatten()
                .copied()
                .filter(|&i| concrete::races(self.k, scope, ea, ebs[i], lockstep))
                .min();
            if let Some(i) = first {
                return Replayed::Race(Box::new(self.race_report(scope, [ea, ebs[i]], &replay)));
            }
        }
        if runs.iter().all(|r| r.complete && !r.lost_access) {
            Replayed::NoRace
        } else {
            Replayed::Inexact
        }
    }

    /// The report of two executed accesses that race, by the replayed threads of `r`.
    fn race_report(&self, scope: Scope, [ea, eb]: [&Event; 2], r: &Replay) -> RaceReport {
        let (acc_a, acc_b) = (
            &self.k.accesses[ea.access.index()],
            &self.k.accesses[eb.access.index()],
        );
        let linear = |t: [u32; 3]| t[0] + t[1] * r.bdim[0] + t[2] * r.bdim[0] * r.bdim[1];
        let access_ref = |acc: &Access| AccessRef {
            access: acc.id.0,
            file: None,
            line: acc.span.line,
            column: acc.span.column,
            kind: acc.kind,
        };
        RaceReport {
            scope,
            space: acc_a.space,
            certainty: Certainty::Definite,
            condition: None,
            scoped: acc_a.kind.is_atomic() && acc_b.kind.is_atomic(),
            volatile: acc_a.volatile || acc_b.volatile,
            first: access_ref(acc_a),
            second: access_ref(acc_b),
            witness: Witness {
                blocks: r.bids,
                threads: r.tids,
                warps: [linear(r.tids[0]) / 32, linear(r.tids[1]) / 32],
                array: witness_object(self.k, acc_a, &ea.base),
                byte_offset: ea.offset.max(eb.offset),
                block_dim: r.bdim,
                grid_dim: r.gdim,
                params: self.param_map(&r.params),
                barrier_interval: [ea.b, eb.b],
                executions: [ea.instance, eb.instance],
                loop_iterations: [ea.iters.to_vec(), eb.iters.to_vec()],
            },
        }
    }

    fn concrete_report(&self, c: &ConcreteRace, launch: &Replay) -> RaceReport {
        let r = Replay {
            tids: c.threads,
            bids: c.blocks,
            params: launch.params.clone(),
            ..*launch
        };
        self.race_report(c.scope, [&c.events[0], &c.events[1]], &r)
    }

    /// Every racing pair of the launch, found by running all its threads, when the assumptions
    /// fix the launch (dimensions and scalar arguments) and the runs do not depend on data.
    fn exhaustive(&mut self) -> Option<Settled> {
        let launch = self.fixed_launch()?;
        let real = oracle::exhaustive_or_shared(
            self.k,
            launch.bdim,
            launch.gdim,
            &launch.params,
            self.opts.warp_model,
            DataBranches::BothWays,
        )?;
        Some((launch, real))
    }

    /// The launch, if the assumptions allow exactly one: a model, then no model with other
    /// dimensions. A scalar argument the assumptions do not fix is left out (`None`): the runs
    /// then treat it like data, so they answer only if nothing depends on it.
    fn fixed_launch(&mut self) -> Option<Replay> {
        let base = std::mem::take(&mut self.launch_base);
        let launch = self.fixed_launch_over(&base);
        self.launch_base = base;
        launch
    }

    fn fixed_launch_over(&mut self, base: &[Bool]) -> Option<Replay> {
        let Outcome::Sat(m) = self.solve_over(base, &[], Query::Launch) else {
            return None;
        };
        let l = &self.launch;
        let differ: Vec<Bool> = l
            .block_dim
            .iter()
            .chain(&l.grid_dim)
            .map(|d| d.eq(bv(Self::value(&m, d), 32)).not())
            .collect();
        if !matches!(
            self.solve_over(base, &[Bool::or(&differ)], Query::Launch),
            Outcome::Unsat
        ) {
            return None;
        }
        let mut launch = self.concretize(&m);
        let params: Vec<Option<SymValue>> = self.launch.params.clone();
        for (p, v) in params.iter().zip(launch.params.iter_mut()) {
            let other = match p {
                Some(SymValue::Bv(x)) => x.eq(bv(Self::value(&m, x), x.get_size())).not(),
                Some(SymValue::Bool(b)) => match m.eval(b, true) {
                    Some(value) => b.eq(value).not(),
                    None => Bool::from_bool(true),
                },
                _ => continue,
            };
            if !matches!(
                self.solve_over(base, &[other], Query::Launch),
                Outcome::Unsat
            ) {
                *v = None;
            }
        }
        Some(launch)
    }
}

/// Where the two replayed threads part ways at barriers (`concrete::parting`), if both ran to
/// their end without signed overflow.
fn confirm_divergence(runs: &[Run; 2]) -> Option<Parting> {
    if runs.iter().any(|r| !r.complete || r.undefined_at.is_some()) {
        return None;
    }
    concrete::parting([&runs[0], &runs[1]])
}

/// What stands for a value the symbolic execution does not follow and that the program may
/// compute from the parameters (`symbolic.rs`' fresh values, named `{thread}{what}!{n}`): a
/// local a loop changes irregularly and that depends on them (`parametric.rs`).
const COMPUTED: [&str; 1] = ["loopvar"];

/// The scalar parameters and open launch extents the terms mention, by name (`pitch`,
/// `blockDim.x`), each once, in name order; and whether the terms also mention a value that
/// stands for a computation (`COMPUTED`), which may hide more of them.
fn address_parameters(terms: &[&BV]) -> (Vec<(String, BV)>, bool) {
    let mut computed = false;
    let mut found: BTreeMap<String, BV> = BTreeMap::new();
    let mut pending: Vec<z3::ast::Dynamic> = terms
        .iter()
        .map(|t| z3::ast::Dynamic::from_ast(*t))
        .collect();
    let mut seen: HashSet<z3::ast::Dynamic> = HashSet::default();
    while let Some(t) = pending.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if t.is_const() {
            let name = t.decl().name();
            let shown = match name.strip_prefix("param_") {
                Some(p) => Some(p.to_string()),
                None => ["blockDim_", "gridDim_"].iter().find_map(|d| {
                    name.strip_prefix(d)
                        .map(|axis| format!("{}.{axis}", &d[..d.len() - 1]))
                }),
            };
            if let (Some(shown), Some(bv)) = (shown, t.as_bv()) {
                found.insert(shown, bv);
            }
            let stem = name.rsplit_once('!').map_or(name.as_str(), |(s, _)| s);
            computed |= !name.starts_with("param_") && COMPUTED.iter().any(|c| stem.ends_with(c));
            continue;
        }
        pending.extend(t.children());
    }
    (found.into_iter().collect(), computed)
}

/// The two accesses touch a common byte: one element of an array, or bytes in common.
fn overlap(x: &SymAccess, y: &SymAccess) -> Vec<Bool> {
    if let (Some(sx), Some(sy)) = (x.subscript, y.subscript) {
        let sides = ((&x.offset, sx, &x.pc), (&y.offset, sy, &y.pc));
        if let Some(q) = subscript::same_element(sides.0, sides.1) {
            return q;
        }
    }
    let end_x = x.offset.bvadd(bv(x.size as u64, 64));
    let end_y = y.offset.bvadd(bv(y.size as u64, 64));
    vec![Bool::and(&[x.offset.bvslt(&end_y), y.offset.bvslt(&end_x)])]
}

/// Statically: between which threads these two accesses could conflict at all.
fn can_conflict(a: &Access, b: &Access) -> Conflict {
    let racy_space = |s: Space| matches!(s, Space::Shared | Space::Global | Space::Generic);
    if !racy_space(a.space) || !racy_space(b.space) {
        return Conflict::Never;
    }
    if a.space != b.space && a.space != Space::Generic && b.space != Space::Generic {
        return Conflict::Never;
    }
    match a.kind.conflict(b.kind) {
        // Shared memory is one block's.
        Conflict::AcrossBlocks if a.space == Space::Shared || b.space == Space::Shared => {
            Conflict::Never
        }
        c => c,
    }
}
