//! Concrete execution of one thread, used to re-check a witness the solver proposes, and by the
//! oracle to run every thread of a launch.
//!
//! Values read from shared or global memory (and warp intrinsics, atomics) are *poison*: the
//! witness must not depend on input data. What a run does at a branch or loop test on poison is
//! `Config::data` (`DataBranches`): `Stop` ends the run without a verdict (replays and the test
//! oracle: what they record happens for every input, so a race is only confirmed when it
//! happens for every input); `BothWays` (the analysis's oracle) skips code under the condition
//! that records no access the run keeps, passes no barrier or warp sync and jumps nowhere
//! outside (its assigned locals and local memory become poison), takes a `return` under it as
//! maybe exited (what follows is `may`), and runs both arms of other branches and one pass of a
//! data loop with its assigned locals poisoned before and after, marking their accesses `may`.
//! A shared access whose offset is poison but whose object is known statically becomes an
//! `anywhere` event (always `may`) instead of a lost access.
//!
//! Every expression a statement evaluates is run for its reads, atomic operands, barrier
//! predicates and warp-intrinsic arguments included (the oracle once missed a race on a shared
//! read inside `atomicAdd`'s operand: `atomic_arg_race.cu`). Each event carries the iteration of
//! every enclosing loop (`Event::iters`): under `lockstep` that, not how often the thread
//! executed the access before (`instance`, which lanes that skipped earlier iterations count
//! differently), says whether two lanes' writes are one execution of the statement
//! (`round_log_race.cu`, `turns_fixed.cu`).
//!
//! Signed overflow is undefined in C++ and DESIGN.md lets the analysis assume it away, so a
//! witness must not rely on it: a signed operation of `int` rank or more that C++17 leaves
//! undefined (overflow, shifts out of range) on the thread's path marks the run
//! (`Run::undefined_at`; an arm of `?:` or the right of `&&`/`||` counts only if it ran). A
//! replay keeps only the accesses before it, and the oracle declines the launch, so no witness
//! relies on signed overflow. The pair queries exclude it only where it is sure to be
//! evaluated, in a row-major subscript of the access itself (`subscript.rs`): the symbolic
//! execution also evaluates expressions where nothing runs (loop inductions and guards).
//!
//! Where a thread stops passing barriers, `Position`s tell a thread that returned before the
//! other's next barrier (exited: no divergence) from one that skipped it alive (`parting`).
//!
//! `races()` is the one definition of "these two executed accesses race" (replay and oracle).
//! This is deliberately not the CPU device: it runs one thread with no memory (poison instead of
//! data), which the device, built for whole faithful launches, does not offer.

use super::report::Scope;
use super::symbolic::{assigned_locals, Base};
use crate::collections::HashMap;
use crate::ir::{scalar, *};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A value one concrete thread computes: a number, a pointer (an object and a byte offset), or
/// poison (data read from memory, which the replay does not know).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConcreteValue {
    Int(u64),
    Float(f64),
    Ptr(Base, i64),
    Poison,
}

/// One executed access.
#[derive(Clone, Debug)]
pub struct Event {
    pub access: AccessId,
    pub base: Base,
    pub offset: i64,
    pub size: u32,
    /// Block barriers and warp-or-block syncs passed before it.
    pub b: u32,
    pub w: u32,
    /// How many times this thread executed this access before (0 for the first).
    pub instance: u32,
    /// The iteration of each enclosing loop, outermost first, counted from the loop's latest
    /// entry: which execution of the statement by its warp this is, under `lockstep`, where a
    /// warp runs each iteration of a loop for all its lanes at once. (`instance` is not: lanes
    /// that skipped the statement in earlier iterations count differently.)
    pub iters: Arc<[u32]>,
    /// Executed in an arm of a branch on data (`DataBranches::BothWays`), or after a `return`
    /// under one: it may not happen.
    pub may: bool,
    /// A shared access whose offset depends on data, in an object known statically: it may
    /// touch any byte of `base`, so `offset` and `size` mean nothing (always `may`).
    pub anywhere: bool,
}

/// Where a statement is in the kernel, in the order a thread meets statements: per enclosing
/// statement its index in its block, the loop iteration and which of its blocks (an `if`'s
/// arms, a loop's prelude, body and step), then the statement's own index. Two positions of
/// one thread compare lexicographically in program order, an `if`'s then arm before its else
/// arm, as the symbolic execution and the CPU device take them.
pub type Position = Vec<u32>;

/// A block barrier a thread passed.
#[derive(Clone, Debug)]
pub struct Passed {
    pub span: Span,
    pub at: Position,
}

#[derive(Clone, Debug, Default)]
pub struct Run {
    pub events: Vec<Event>,
    /// Barrier statements passed, in order.
    pub barriers: Vec<Passed>,
    /// The thread ran to its end (or `return`) rather than hitting poison or the step budget.
    pub complete: bool,
    /// Where the thread left the kernel by `return` (or a trap), if it did.
    pub returned_at: Option<Position>,
    /// How many events were recorded when the thread first did what C++ leaves undefined
    /// (`undefined`, signed overflow): from there on the run is no execution the analysis
    /// assumes (DESIGN.md: a witness never relies on signed overflow).
    pub undefined_at: Option<usize>,
    /// An access whose address depended on data was executed and is missing from `events`.
    pub lost_access: bool,
    /// The same, for a shared-memory access.
    pub lost_shared: bool,
}

impl Run {
    /// The events recorded before the first undefined operation (`undefined_at`).
    pub fn defined_events(&self) -> &[Event] {
        let end = self.undefined_at.unwrap_or(self.events.len());
        &self.events[..end.min(self.events.len())]
    }
}

pub struct Config<'a> {
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    pub tid: [u32; 3],
    pub bid: [u32; 3],
    /// Scalar parameter values (bits), by parameter index; pointers point to their own buffer.
    pub params: &'a [Option<u64>],
    pub data: DataBranches,
    /// The block is unknown: `blockIdx` is poison, so a run that completes without losing a
    /// shared access shows what the thread does in every block to shared memory.
    pub any_block: bool,
}

/// What a run does at a branch or loop test that depends on data (poison).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataBranches {
    /// The run ends there: what it recorded is exactly what every execution does (the test
    /// oracle, witness replays).
    #[default]
    Stop,
    /// Code under the condition that records nothing the run keeps is skipped (`Interp::skip`),
    /// and a `return` under it is taken as maybe exited (`Interp::only_returns`); other
    /// branches run both arms, one after the other, marking their accesses `may`; locals the
    /// arms leave different become poison. Instance numbers are then no longer exact
    /// (`Event::iters` are, outside `may` events). Barriers and jumps in such arms end the run.
    BothWays,
}

const STEP_BUDGET: u64 = 2_000_000;
/// Executed accesses kept per thread; a run that would record more ends without a verdict.
const MAX_EVENTS: usize = 1 << 16;

enum Flow {
    Next,
    Break,
    Continue,
    Return,
    Exit(ScopeId),
    Abort,
}

struct Interp<'a> {
    k: &'a Kernel,
    cfg: &'a Config<'a>,
    env: Vec<ConcreteValue>,
    local_mem: HashMap<(LocalArrayId, i64), ConcreteValue>,
    run: Run,
    counts: HashMap<AccessId, u32>,
    /// The iterations of the loops being run, outermost first (`Event::iters`).
    iters: Vec<u32>,
    /// `iters` as events share it, rebuilt when an iteration starts.
    iters_now: Arc<[u32]>,
    b: u32,
    w: u32,
    steps: u64,
    /// Depth of arms of branches on data being run.
    may: u32,
    /// The thread passed a `return` under a condition on data: the run goes on as the thread
    /// that did not return, and what it records from then on may not happen.
    may_have_exited: bool,
    /// The statement being run (`Position`).
    pos: Position,
}

pub fn run_thread(k: &Kernel, cfg: &Config) -> Run {
    let mut it = Interp {
        k,
        cfg,
        env: vec![ConcreteValue::Poison; k.locals.len()],
        local_mem: HashMap::default(),
        run: Run::default(),
        counts: HashMap::default(),
        iters: Vec::new(),
        iters_now: Arc::from([]),
        b: 0,
        w: 0,
        steps: 0,
        may: 0,
        may_have_exited: false,
        pos: Vec::new(),
    };
    if !matches!(it.block(&k.body), Flow::Abort) {
        it.run.complete = true;
    }
    it.run
}

/// Where two threads of one block part ways at block barriers (DESIGN.md's barrier divergence).
#[derive(Debug)]
pub struct Parting {
    /// The thread (0 or 1) that waits at `at`.
    pub waiter: usize,
    pub at: Span,
    /// The barrier the other thread waits at instead; `None` when it passes no further barrier
    /// and goes on alive past `at` (to the end of the kernel, or to a later `return`).
    pub other: Option<Span>,
}

/// Whether and where two complete runs of threads of one block part ways at block barriers.
/// Barriers are compared by line (two inlined copies of one barrier are one). A thread that
/// passes fewer barriers than the other and returned before the other's next one had exited
/// there, which is no divergence (DESIGN.md counts non-exited threads only); one that did not
/// return before it skipped it alive.
pub fn parting(runs: [&Run; 2]) -> Option<Parting> {
    let [a, b] = runs;
    let common = a.barriers.len().min(b.barriers.len());
    if let Some(i) = (0..common).find(|&i| a.barriers[i].span != b.barriers[i].span) {
        return Some(Parting {
            waiter: 0,
            at: a.barriers[i].span,
            other: Some(b.barriers[i].span),
        });
    }
    let (short, long, waiter) = if a.barriers.len() < b.barriers.len() {
        (a, b, 1)
    } else {
        (b, a, 0)
    };
    let next = long.barriers.get(common)?;
    let exited = short.returned_at.as_ref().is_some_and(|r| *r < next.at);
    (!exited).then_some(Parting {
        waiter,
        at: next.span,
        other: None,
    })
}

impl Interp<'_> {
    fn block(&mut self, b: &Block) -> Flow {
        self.pos.push(0);
        let mut flow = Flow::Next;
        for (i, s) in b.iter().enumerate() {
            if let Some(p) = self.pos.last_mut() {
                *p = i as u32;
            }
            flow = self.stmt(s);
            if !matches!(flow, Flow::Next) {
                break;
            }
        }
        self.pos.pop();
        flow
    }

    /// Runs `b`, block `child` of the statement being run, in iteration `iter` of it when it is
    /// a loop (`Position`).
    fn nested(&mut self, iter: u32, child: u32, b: &Block) -> Flow {
        self.pos.extend([iter, child]);
        let flow = self.block(b);
        self.pos.truncate(self.pos.len() - 2);
        flow
    }

    /// The iteration of the innermost loop being run.
    fn iteration(&self) -> u32 {
        self.iters.last().copied().unwrap_or(0)
    }

    /// A compound statement that ended the run on data but records nothing the run keeps (a
    /// clamp inlined from a device function, a search loop over data) is taken as skipped, as
    /// `skip` would have: its assigned locals and local memory become poison.
    fn stmt(&mut self, s: &Stmt) -> Flow {
        let flow = self.stmt_once(s);
        let compound = matches!(
            s.kind,
            StmtKind::If { .. } | StmtKind::Loop { .. } | StmtKind::Scope { .. }
        );
        if matches!(flow, Flow::Abort)
            && compound
            && self.cfg.data == DataBranches::BothWays
            && self.steps <= STEP_BUDGET
            && quiet(std::slice::from_ref(s), 0, &[], &|a| self.kept(a))
        {
            self.havoc(&s.blocks());
            return Flow::Next;
        }
        flow
    }

    fn stmt_once(&mut self, s: &Stmt) -> Flow {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Flow::Abort;
        }
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                self.env[dst.index()] = self.expr(value);
            }
            StmtKind::Store {
                access,
                addr,
                value,
            } => {
                let v = self.expr(value);
                if let Some((Base::Local(id), off)) = self.record(*access, addr) {
                    self.local_mem.insert((id, off), v);
                }
            }
            StmtKind::Atomic {
                access,
                addr,
                args,
                dst,
                ..
            } => {
                // The operands are read first: their loads are accesses too.
                for a in args {
                    self.expr(a);
                }
                self.record(*access, addr);
                if let Some(d) = dst {
                    self.env[d.index()] = ConcreteValue::Poison;
                }
            }
            StmtKind::Barrier { .. } | StmtKind::SyncWarp { .. } if self.may > 0 => {
                return Flow::Abort
            }
            StmtKind::Barrier { dst, pred, .. } => {
                if let Some(p) = pred {
                    self.expr(p);
                }
                self.b += 1;
                self.w += 1;
                self.run.barriers.push(Passed {
                    span: s.span,
                    at: self.pos.clone(),
                });
                if let Some(d) = dst {
                    self.env[d.index()] = ConcreteValue::Poison;
                }
            }
            StmtKind::SyncWarp { mask } => {
                self.expr(mask);
                self.w += 1;
            }
            StmtKind::Warp { dst, args, .. } => {
                for a in args {
                    self.expr(a);
                }
                self.env[dst.index()] = ConcreteValue::Poison;
            }
            StmtKind::Printf { args, .. } => {
                for a in args {
                    self.expr(a);
                }
            }
            // A thread the kernel's assumptions exclude is no execution to show.
            StmtKind::Assume { cond, .. } if self.truth(cond) == Some(false) => return Flow::Abort,
            StmtKind::Fence { .. } | StmtKind::Assume { .. } => {}
            StmtKind::Opaque { .. } => return Flow::Abort,
            StmtKind::Return | StmtKind::Trap { .. } => {
                self.run.returned_at = Some(self.pos.clone());
                return Flow::Return;
            }
            StmtKind::Break => return Flow::Break,
            StmtKind::Continue => return Flow::Continue,
            StmtKind::Exit(id) => return Flow::Exit(*id),
            StmtKind::Scope { id, body } => match self.nested(0, 0, body) {
                Flow::Exit(x) if x == *id => {}
                other => return other,
            },
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                return match self.truth(cond) {
                    Some(true) => self.nested(0, 0, then_body),
                    Some(false) => self.nested(0, 1, else_body),
                    None if self.cfg.data == DataBranches::Stop => Flow::Abort,
                    None if self.skip(&[then_body, else_body], 0) => Flow::Next,
                    None if self.only_returns(then_body) => {
                        self.may_have_exited = true;
                        self.nested(0, 1, else_body)
                    }
                    None if self.only_returns(else_body) => {
                        self.may_have_exited = true;
                        self.nested(0, 0, then_body)
                    }
                    None => self.both_arms(then_body, else_body),
                };
            }
            StmtKind::Loop {
                cond,
                cond_prelude,
                test_first,
                body,
                step,
            } => {
                self.iters.push(0);
                self.iters_now = Arc::from(self.iters.as_slice());
                let flow = self.run_loop(cond.as_ref(), cond_prelude, *test_first, body, step);
                self.iters.pop();
                self.iters_now = Arc::from(self.iters.as_slice());
                return flow;
            }
        }
        Flow::Next
    }

    fn run_loop(
        &mut self,
        cond: Option<&Expr>,
        cond_prelude: &Block,
        test_first: bool,
        body: &Block,
        step: &Block,
    ) -> Flow {
        let mut first = true;
        loop {
            match self.nested(self.iteration(), 0, cond_prelude) {
                Flow::Next => {}
                other => return other,
            }
            if test_first || !first {
                if let Some(c) = cond {
                    match self.truth(c) {
                        Some(true) => {}
                        Some(false) => break,
                        None if self.cfg.data == DataBranches::Stop => return Flow::Abort,
                        // The remaining iterations, as if run any number of times.
                        None if self.skip(&[cond_prelude, body, step], 1) => break,
                        None => match self.any_iterations(body, step, cond_prelude) {
                            Flow::Next => break,
                            other => return other,
                        },
                    }
                }
            }
            first = false;
            match self.nested(self.iteration(), 1, body) {
                Flow::Next | Flow::Continue => {}
                Flow::Break => break,
                other => return other,
            }
            match self.nested(self.iteration(), 2, step) {
                Flow::Next => {}
                other => return other,
            }
            if let Some(i) = self.iters.last_mut() {
                *i += 1;
            }
            self.iters_now = Arc::from(self.iters.as_slice());
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Flow::Abort;
            }
        }
        Flow::Next
    }

    /// Skips `blocks` under a condition on data when running them could only change locals and
    /// local memory: the locals they assign and all local memory become poison. Sound because
    /// they record no access the run keeps (`kept`), pass no barrier or warp sync (interval and warp-order counters stay exact), call
    /// nothing opaque, and leave only by falling through (`break`/`continue` only of loops
    /// `depth` levels in). The runs then show what the thread does in every execution, whatever
    /// the data, except that it may also never get past the blocks, which adds no race.
    fn skip(&mut self, blocks: &[&Block], depth: u32) -> bool {
        if !blocks
            .iter()
            .all(|b| quiet(b, depth, &[], &|a| self.kept(a)))
        {
            return false;
        }
        self.havoc(blocks);
        true
    }

    /// Forgets what `blocks` may have done to locals and local memory.
    fn havoc(&mut self, blocks: &[&Block]) {
        let mut assigned = BTreeSet::new();
        for b in blocks {
            assigned_locals(b, &mut assigned);
        }
        for l in assigned {
            self.env[l.index()] = ConcreteValue::Poison;
        }
        self.local_mem.clear();
    }

    /// The remaining iterations of a loop whose test depends on data, any number of them: one
    /// pass over `blocks` with every local they assign (and local memory) poison before and
    /// after, so that what the pass records stands for every iteration; its accesses are
    /// `may`. Anything but falling through, `continue` or `break` ends the run.
    fn any_iterations(&mut self, body: &Block, step: &Block, cond_prelude: &Block) -> Flow {
        let mut assigned = BTreeSet::new();
        for b in [body, step, cond_prelude] {
            assigned_locals(b, &mut assigned);
        }
        let havoc = |it: &mut Self| {
            for l in &assigned {
                it.env[l.index()] = ConcreteValue::Poison;
            }
            it.local_mem.clear();
        };
        havoc(self);
        self.may += 1;
        let iter = self.iteration();
        let mut flow = self.nested(iter, 1, body);
        if matches!(flow, Flow::Next | Flow::Continue) {
            flow = self.nested(iter, 2, step);
            if matches!(flow, Flow::Next) {
                flow = self.nested(iter, 0, cond_prelude);
            }
        }
        self.may -= 1;
        havoc(self);
        match flow {
            Flow::Next | Flow::Continue | Flow::Break => Flow::Next,
            _ => Flow::Abort,
        }
    }

    /// `b` records nothing the run keeps and then returns (`if (i >= n) return;`).
    fn only_returns(&self, b: &Block) -> bool {
        let Some((last, init)) = b.split_last() else {
            return false;
        };
        matches!(last.kind, StmtKind::Return) && quiet(init, 0, &[], &|a| self.kept(a))
    }

    /// Accesses whose events the run keeps: shared ones for `any_block`, else any that can
    /// race.
    fn kept(&self, a: &AccessId) -> bool {
        let space = self.k.accesses[a.index()].space;
        if self.cfg.any_block {
            space == Space::Shared
        } else {
            matches!(space, Space::Shared | Space::Global | Space::Generic)
        }
    }

    fn both_arms(&mut self, then_body: &Block, else_body: &Block) -> Flow {
        let env = self.env.clone();
        let mem = self.local_mem.clone();
        let counts = self.counts.clone();
        self.may += 1;
        let first = self.nested(0, 0, then_body);
        let env = std::mem::replace(&mut self.env, env);
        let mem = std::mem::replace(&mut self.local_mem, mem);
        let counts = std::mem::replace(&mut self.counts, counts);
        let second = self.nested(0, 1, else_body);
        self.may -= 1;
        if !matches!((first, second), (Flow::Next, Flow::Next)) {
            return Flow::Abort;
        }
        for (v, w) in self.env.iter_mut().zip(env) {
            if *v != w {
                *v = ConcreteValue::Poison;
            }
        }
        for (k, v) in self.local_mem.iter_mut() {
            if mem.get(k) != Some(v) {
                *v = ConcreteValue::Poison;
            }
        }
        for (k, _) in mem {
            self.local_mem.entry(k).or_insert(ConcreteValue::Poison);
        }
        for (a, n) in counts {
            let m = self.counts.entry(a).or_default();
            *m = (*m).max(n);
        }
        Flow::Next
    }

    fn record(&mut self, access: AccessId, addr: &Expr) -> Option<(Base, i64)> {
        let at = match self.expr(addr) {
            ConcreteValue::Ptr(base, off) => Some((base, off)),
            _ => None,
        };
        let shared = self.k.accesses[access.index()].space == Space::Shared;
        let anywhere = match at {
            Some(_) => None,
            None if shared && self.cfg.data == DataBranches::BothWays => {
                self.base_of(addr).filter(|b| matches!(b, Base::Shared(_)))
            }
            None => None,
        };
        if at.is_none() && anywhere.is_none() {
            self.run.lost_access = true;
            self.run.lost_shared |= shared;
            return None;
        }
        if self.run.events.len() >= MAX_EVENTS {
            // Ends the run at its next statement; the lost access marks it in any case.
            self.steps = STEP_BUDGET;
            self.run.lost_access = true;
            self.run.lost_shared = true;
            return None;
        }
        let n = self.counts.entry(access).or_default();
        let instance = *n;
        *n += 1;
        let (base, offset) = at.unwrap_or((anywhere.unwrap_or(Base::Unknown), 0));
        self.run.events.push(Event {
            access,
            base,
            offset,
            size: self.k.accesses[access.index()].ty.size(),
            b: self.b,
            w: self.w,
            instance,
            iters: self.iters_now.clone(),
            may: self.may > 0 || self.may_have_exited || at.is_none(),
            anywhere: at.is_none(),
        });
        at
    }

    /// The object a pointer expression points into when only its offset depends on data
    /// (`table[x]` with `x` loaded from memory). Evaluates nothing: the address was evaluated
    /// once already, and loads in it are recorded.
    fn base_of(&self, e: &Expr) -> Option<Base> {
        match &e.kind {
            ExprKind::SharedAddr(id) => Some(Base::Shared(*id)),
            ExprKind::Local(l) => match self.env[l.index()] {
                ConcreteValue::Ptr(b, _) if b != Base::Unknown => Some(b),
                _ => None,
            },
            ExprKind::Cast(a) if matches!(a.ty, Ty::Ptr(_)) => self.base_of(a),
            ExprKind::Binary(BinOp::PtrAdd, a, _) => self.base_of(a),
            _ => None,
        }
    }

    /// Notes the first undefined operation of the run (`Run::undefined_at`).
    fn check_defined(&mut self, undefined: bool) {
        if undefined && self.run.undefined_at.is_none() {
            self.run.undefined_at = Some(self.run.events.len());
        }
    }

    /// Evaluates `e`, which C++ evaluates only when `runs` (an arm of `?:`, the right of `&&`
    /// or `||`): what it does that is undefined counts unless it surely did not run.
    fn unless_skipped(&mut self, e: &Expr, runs: Option<bool>) -> ConcreteValue {
        let before = self.run.undefined_at;
        let v = self.expr(e);
        if runs == Some(false) {
            self.run.undefined_at = before;
        }
        v
    }

    fn truth(&mut self, e: &Expr) -> Option<bool> {
        match self.expr(e) {
            ConcreteValue::Int(v) => Some(v != 0),
            ConcreteValue::Float(f) => Some(f != 0.0),
            ConcreteValue::Ptr(_, off) => Some(off != 0),
            ConcreteValue::Poison => None,
        }
    }

    fn expr(&mut self, e: &Expr) -> ConcreteValue {
        match &e.kind {
            ExprKind::Int(v) => match e.ty {
                Ty::Ptr(_) => ConcreteValue::Ptr(Base::Unknown, *v as i64),
                _ => ConcreteValue::Int(*v),
            },
            ExprKind::Float(f) => ConcreteValue::Float(*f),
            ExprKind::Local(l) => self.env[l.index()],
            ExprKind::Param(p) => match self.k.params[p.index()].ty {
                Ty::Ptr(Space::Param) => ConcreteValue::Poison,
                Ty::Ptr(_) => ConcreteValue::Ptr(Base::Param(*p), 0),
                _ => self
                    .cfg
                    .params
                    .get(p.index())
                    .copied()
                    .flatten()
                    .map_or(ConcreteValue::Poison, ConcreteValue::Int),
            },
            ExprKind::Special(sp) => {
                let d = |d: Dim| match d {
                    Dim::X => 0,
                    Dim::Y => 1,
                    Dim::Z => 2,
                };
                ConcreteValue::Int(match sp {
                    Special::ThreadIdx(x) => self.cfg.tid[d(*x)],
                    Special::BlockIdx(_) if self.cfg.any_block => return ConcreteValue::Poison,
                    Special::BlockIdx(x) => self.cfg.bid[d(*x)],
                    Special::BlockDim(x) => self.cfg.block_dim[d(*x)],
                    Special::GridDim(x) => self.cfg.grid_dim[d(*x)],
                    Special::WarpSize => 32,
                } as u64)
            }
            ExprKind::SharedAddr(id) => ConcreteValue::Ptr(Base::Shared(*id), 0),
            ExprKind::GlobalAddr(id) => ConcreteValue::Ptr(Base::Global(*id), 0),
            ExprKind::LocalAddr(id) => ConcreteValue::Ptr(Base::Local(*id), 0),
            ExprKind::Unary(op, a) => {
                let v = self.expr(a);
                if let (UnOp::Neg, ConcreteValue::Int(x)) = (op, v) {
                    self.check_defined(undefined(BinOp::Sub, 0, x, a.ty));
                }
                unary(*op, v, e.ty)
            }
            ExprKind::Cast(a) => {
                let v = self.expr(a);
                cast(v, a.ty, e.ty)
            }
            ExprKind::Select(c, a, b) => {
                // Both sides are evaluated, as the symbolic execution does (they are pure).
                let c = truth_of(self.expr(c));
                let x = self.unless_skipped(a, c);
                let y = self.unless_skipped(b, c.map(|c| !c));
                match c {
                    Some(true) => x,
                    Some(false) => y,
                    None => ConcreteValue::Poison,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(a);
                let y = match op {
                    BinOp::LAnd => self.unless_skipped(b, truth_of(x)),
                    BinOp::LOr => self.unless_skipped(b, truth_of(x).map(|t| !t)),
                    _ => self.expr(b),
                };
                if let (ConcreteValue::Int(p), ConcreteValue::Int(q)) = (x, y) {
                    self.check_defined(undefined(*op, p, q, a.ty));
                }
                binary(*op, x, y, a.ty)
            }
            ExprKind::Load { access, addr } => match self.record(*access, addr) {
                Some((Base::Local(id), off)) => self
                    .local_mem
                    .get(&(id, off))
                    .copied()
                    .unwrap_or(ConcreteValue::Poison),
                _ => ConcreteValue::Poison,
            },
            ExprKind::Call(Intrinsic::Mul24, args) if args.len() == 2 => {
                let (x, y) = (self.expr(&args[0]), self.expr(&args[1]));
                match (x, y) {
                    (ConcreteValue::Int(x), ConcreteValue::Int(y)) => {
                        let (c, ac) = (class(e.ty), class(args[0].ty));
                        ConcreteValue::Int(scalar::intrinsic(Intrinsic::Mul24, c, ac, x, y, 0))
                    }
                    _ => ConcreteValue::Poison,
                }
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    self.expr(a);
                }
                ConcreteValue::Poison
            }
            ExprKind::Opaque { .. } => ConcreteValue::Poison,
        }
    }
}

/// The value of `e` where it depends only on constants and on the locals `local` knows;
/// `None` where it does not, or where C++ leaves it undefined (signed overflow, division by 0).
pub fn fold(e: &Expr, local: &impl Fn(LocalId) -> Option<ConcreteValue>) -> Option<ConcreteValue> {
    let v = match &e.kind {
        ExprKind::Int(v) if !matches!(e.ty, Ty::Ptr(_)) => ConcreteValue::Int(*v),
        ExprKind::Float(f) => ConcreteValue::Float(*f),
        ExprKind::Local(l) => local(*l)?,
        ExprKind::Unary(op, a) => {
            let v = fold(a, local)?;
            if let (UnOp::Neg, ConcreteValue::Int(x)) = (op, v) {
                if undefined(BinOp::Sub, 0, x, a.ty) {
                    return None;
                }
            }
            unary(*op, v, e.ty)
        }
        ExprKind::Cast(a) => cast(fold(a, local)?, a.ty, e.ty),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (fold(a, local)?, fold(b, local)?);
            if let (ConcreteValue::Int(p), ConcreteValue::Int(q)) = (x, y) {
                if undefined(*op, p, q, a.ty) {
                    return None;
                }
            }
            binary(*op, x, y, a.ty)
        }
        ExprKind::Select(c, a, b) => match truth_of(fold(c, local)?)? {
            true => fold(a, local)?,
            false => fold(b, local)?,
        },
        _ => return None,
    };
    (v != ConcreteValue::Poison).then_some(v)
}

fn unary(op: UnOp, v: ConcreteValue, ty: Ty) -> ConcreteValue {
    match (op, v) {
        (UnOp::LNot, v) => match truth_of(v) {
            Some(t) => ConcreteValue::Int(!t as u64),
            None => ConcreteValue::Poison,
        },
        (op, v) => {
            let c = class(ty);
            bits_of(v, c).map_or(ConcreteValue::Poison, |x| {
                value_of(scalar::unary(op, c, x), c)
            })
        }
    }
}

/// See `Interp::skip`: `b` records no `kept` access, syncs nothing, assumes nothing, calls
/// nothing opaque and jumps nowhere outside itself but to loops `depth` levels out and to the
/// ends of `scopes` (inlined functions it is part of).
fn quiet(b: &[Stmt], depth: u32, scopes: &[ScopeId], kept: &impl Fn(&AccessId) -> bool) -> bool {
    b.iter().all(|s| {
        let own = match &s.kind {
            StmtKind::Store { access, .. } | StmtKind::Atomic { access, .. } => !kept(access),
            StmtKind::Break | StmtKind::Continue => depth > 0,
            StmtKind::Exit(id) => scopes.contains(id),
            StmtKind::Barrier { .. }
            | StmtKind::SyncWarp { .. }
            | StmtKind::Warp { .. }
            | StmtKind::Opaque { .. }
            | StmtKind::Assume { .. }
            | StmtKind::Return
            | StmtKind::Trap { .. } => false,
            _ => true,
        };
        let mut reads = true;
        for e in s.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Load { access, .. } = &x.kind {
                    reads &= !kept(access);
                }
            });
        }
        let inner = if matches!(s.kind, StmtKind::Loop { .. }) {
            depth + 1
        } else {
            depth
        };
        let mut inner_scopes = scopes.to_vec();
        if let StmtKind::Scope { id, .. } = &s.kind {
            inner_scopes.push(*id);
        }
        own && reads
            && s.blocks()
                .iter()
                .all(|b| quiet(b, inner, &inner_scopes, kept))
    })
}

/// Whether a value is true, as a condition tests it.
pub fn truth_of(v: ConcreteValue) -> Option<bool> {
    match v {
        ConcreteValue::Int(x) => Some(x != 0),
        ConcreteValue::Float(f) => Some(f != 0.0),
        ConcreteValue::Ptr(_, o) => Some(o != 0),
        ConcreteValue::Poison => None,
    }
}

fn bits(ty: Ty) -> u32 {
    match ty {
        Ty::Scalar(s) => s.size() * 8,
        _ => 64,
    }
}

/// The class `scalar` computes a value of type `ty` in: a pointer as a 64-bit integer.
fn class(ty: Ty) -> Scalar {
    ty.scalar().unwrap_or(Scalar::U64)
}

/// A number's canonical bits in class `c` (`scalar`'s representation).
fn bits_of(v: ConcreteValue, c: Scalar) -> Option<u64> {
    match v {
        ConcreteValue::Int(x) if !c.is_float() => Some(x),
        ConcreteValue::Float(f) if c.is_float() => Some(scalar::float_bits(f, c)),
        _ => None,
    }
}

fn value_of(bits: u64, c: Scalar) -> ConcreteValue {
    if c.is_float() {
        ConcreteValue::Float(scalar::float_value(bits, c))
    } else {
        ConcreteValue::Int(bits)
    }
}

fn signed(v: u64, ty: Ty) -> i64 {
    sign_extend(v, bits(ty) / 8)
}

/// Whether `op` on the values `x` and `y` of type `ty` is undefined in C++17 for a signed
/// type: a result out of the type's range (`+ - *`, the minimum divided by -1), a shift by the
/// width or more (or a negative amount), a left shift of a negative value or one whose result
/// the unsigned type cannot hold. Only for `int`'s rank and up: C++ promotes narrower operands
/// to `int`, so a narrower signed operation in the IR never overflows in the source.
fn undefined(op: BinOp, x: u64, y: u64, ty: Ty) -> bool {
    let Some(s) = ty.scalar().filter(|s| s.is_signed() && s.size() >= 4) else {
        return false;
    };
    let w = s.size() * 8;
    let (sx, sy) = (i128::from(signed(x, ty)), i128::from(signed(y, ty)));
    let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
    let out = |v: i128| v < min || v > max;
    match op {
        BinOp::Add => out(sx + sy),
        BinOp::Sub => out(sx - sy),
        BinOp::Mul => out(sx * sy),
        BinOp::Div | BinOp::Rem => sx == min && sy == -1,
        BinOp::Shl | BinOp::Shr if y >= u64::from(w) => true,
        BinOp::Shl => sx < 0 || (sx << y) >> w != 0,
        _ => false,
    }
}

fn cast(v: ConcreteValue, from: Ty, to: Ty) -> ConcreteValue {
    match v {
        ConcreteValue::Poison => ConcreteValue::Poison,
        _ if to == Ty::BOOL => {
            truth_of(v).map_or(ConcreteValue::Poison, |t| ConcreteValue::Int(t as u64))
        }
        ConcreteValue::Ptr(b, o) => match to {
            Ty::Ptr(_) => ConcreteValue::Ptr(b, o),
            _ => ConcreteValue::Poison,
        },
        ConcreteValue::Int(x) if matches!(to, Ty::Ptr(_)) => {
            ConcreteValue::Ptr(Base::Unknown, x as i64)
        }
        v => {
            let (f, t) = (class(from), class(to));
            bits_of(v, f).map_or(ConcreteValue::Poison, |x| {
                value_of(scalar::cast(x, f, t), t)
            })
        }
    }
}

/// `a op b` with operands of type `aty`, in `scalar`'s semantics, except that what C++ leaves
/// undefined and the GPU defines (an integer divided by zero) is no value: no witness relies on
/// it. Pointers are values of the replay's own (a base and an offset).
fn binary(op: BinOp, a: ConcreteValue, b: ConcreteValue, aty: Ty) -> ConcreteValue {
    use ConcreteValue::*;
    let cmp = |c: bool| Int(c as u64);
    match (op, a, b) {
        (_, Poison, _) | (_, _, Poison) => Poison,
        (BinOp::PtrAdd, Ptr(base, o), Int(d)) => Ptr(base, o.wrapping_add(d as i64)),
        (BinOp::PtrDiff, Ptr(b1, x), Ptr(b2, y)) if b1 == b2 => Int(x.wrapping_sub(y) as u64),
        (
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            Ptr(b1, x),
            Ptr(b2, y),
        ) if b1 == b2 => cmp(match op {
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            _ => x >= y,
        }),
        (BinOp::LAnd, x, y) => match (truth_of(x), truth_of(y)) {
            (Some(p), Some(q)) => cmp(p && q),
            _ => Poison,
        },
        (BinOp::LOr, x, y) => match (truth_of(x), truth_of(y)) {
            (Some(p), Some(q)) => cmp(p || q),
            _ => Poison,
        },
        (BinOp::PtrAdd | BinOp::PtrDiff, _, _) | (_, Ptr(..), _) | (_, _, Ptr(..)) => Poison,
        (BinOp::Div | BinOp::Rem, Int(_), Int(0)) => Poison,
        (op, x, y) => {
            let c = class(aty);
            let comparison = matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            );
            match (bits_of(x, c), bits_of(y, c)) {
                (Some(p), Some(q)) if comparison => Int(scalar::binary(op, c, p, q)),
                (Some(p), Some(q)) => value_of(scalar::binary(op, c, p, q), c),
                _ => Poison,
            }
        }
    }
}

/// Whether two executed accesses, by threads related as `scope` says, race: they overlap, they
/// conflict (`AccessKind::conflict`), and nothing orders them.
pub fn races(k: &Kernel, scope: Scope, ea: &Event, eb: &Event, lockstep: bool) -> bool {
    let (a, b) = (
        &k.accesses[ea.access.index()],
        &k.accesses[eb.access.index()],
    );
    let conflict = a.kind.conflict(b.kind).between(scope != Scope::InterBlock);
    let overlaps = ea.offset < eb.offset + eb.size as i64 && eb.offset < ea.offset + ea.size as i64;
    if !conflict || !overlaps || ea.base != eb.base || ea.base == Base::Unknown {
        return false;
    }
    if matches!(ea.base, Base::Local(_)) {
        return false;
    }
    match scope {
        Scope::InterBlock => true,
        Scope::InterWarp => ea.b == eb.b,
        // One statement at a time per warp, reads before writes: only two lanes writing in
        // the same execution of one statement race.
        // An event that may not happen (`may`) may also be in another iteration than it says.
        Scope::IntraWarp if lockstep => {
            ea.access == eb.access
                && a.kind == AccessKind::Write
                && (ea.iters == eb.iters || ea.may || eb.may)
                && ea.b == eb.b
        }
        Scope::IntraWarp => ea.b == eb.b && ea.w == eb.w,
    }
}

#[cfg(test)]
mod tests {
    use super::{parting, undefined, Passed, Run};
    use crate::ir::{BinOp, Scalar, Span, Ty};

    #[test]
    fn signed_overflow_is_undefined_from_int_up_wrapping_is_not() {
        let int = Ty::Scalar(Scalar::I32);
        let bits = |v: i64| v as u64 & 0xffff_ffff;
        // The transpose's y * h with h = 2^29.
        assert!(undefined(BinOp::Mul, 8, 1 << 29, int));
        assert!(!undefined(BinOp::Mul, 3, 1 << 29, int));
        assert!(undefined(BinOp::Add, bits(i32::MAX.into()), 1, int));
        assert!(undefined(BinOp::Sub, 0, bits(i32::MIN.into()), int));
        assert!(!undefined(BinOp::Sub, 0, bits(-5), int));
        assert!(undefined(BinOp::Div, bits(i32::MIN.into()), bits(-1), int));
        assert!(undefined(BinOp::Shl, 1, 32, int));
        assert!(undefined(BinOp::Shl, bits(-1), 1, int));
        assert!(undefined(BinOp::Shl, 3, 31, int));
        // 1 << 31 fits the unsigned type: defined in C++17.
        assert!(!undefined(BinOp::Shl, 1, 31, int));
        // Unsigned arithmetic wraps; narrower signed operands are promoted to int in C++.
        assert!(!undefined(BinOp::Mul, 1 << 31, 4, Ty::Scalar(Scalar::U32)));
        assert!(!undefined(BinOp::Add, 0x7fff, 1, Ty::Scalar(Scalar::I16)));
        let long = Ty::Scalar(Scalar::I64);
        assert!(undefined(BinOp::Mul, 1 << 32, 1 << 31, long));
        assert!(!undefined(BinOp::Mul, 1 << 32, 1 << 30, long));
    }

    #[test]
    fn a_thread_that_skips_a_barrier_alive_parts_ways_one_that_returned_before_it_does_not() {
        let line = |line| Span {
            line,
            ..Span::default()
        };
        // A barrier, statement 3 of the kernel's body.
        let waits = Run {
            barriers: vec![Passed {
                span: line(5),
                at: vec![3],
            }],
            complete: true,
            ..Run::default()
        };
        let ran_to_the_end = Run {
            complete: true,
            ..Run::default()
        };
        // A `return` in the then arm of statement 1; another at statement 4.
        let returned_before = Run {
            returned_at: Some(vec![1, 0, 0, 0]),
            ..ran_to_the_end.clone()
        };
        let returned_after = Run {
            returned_at: Some(vec![4]),
            ..ran_to_the_end.clone()
        };
        let p = parting([&waits, &ran_to_the_end]).expect("skipped alive");
        assert_eq!((p.waiter, p.at.line, p.other), (0, 5, None));
        assert_eq!(
            parting([&ran_to_the_end, &waits]).map(|p| p.waiter),
            Some(1)
        );
        assert!(parting([&waits, &returned_before]).is_none());
        assert!(parting([&waits, &returned_after]).is_some());
        assert!(parting([&waits, &waits]).is_none());
    }

    /// Random operands of every class through the replay's values (`ConcreteValue`) and through the
    /// device's entry points (32 lanes at once): the same bits, NaN for NaN.
    #[test]
    fn the_replay_computes_what_the_device_computes() {
        use super::{binary, bits_of, cast, value_of, ConcreteValue};
        use crate::ir::scalar::{binary_lanes, cast_lanes, float_bits};
        let classes = [
            Scalar::Bool,
            Scalar::I8,
            Scalar::U8,
            Scalar::I16,
            Scalar::U16,
            Scalar::I32,
            Scalar::U32,
            Scalar::I64,
            Scalar::U64,
            Scalar::F16,
            Scalar::F32,
            Scalar::F64,
        ];
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Min,
            BinOp::Max,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Canonical bits of class `c`: small numbers, edges and random bits.
        let operand = |c: Scalar, r: u64| -> u64 {
            let raw = match r % 4 {
                0 => r >> 60,
                1 => u64::MAX - (r >> 62),
                _ => r,
            };
            if c.is_float() {
                let v = match r % 5 {
                    0 => (raw as i64 >> 40) as f64 / 8.0,
                    1 => 3e9,
                    2 => f64::NAN,
                    _ => f64::from_bits(raw) % 1e12,
                };
                float_bits(v, c)
            } else if c == Scalar::Bool {
                raw & 1
            } else {
                raw & crate::ir::scalar::width_mask(c.size())
            }
        };
        let same = |replay: ConcreteValue, c: Scalar, device: u64| match replay {
            ConcreteValue::Float(f) if f.is_nan() => {
                assert!(crate::ir::scalar::float_value(device, c).is_nan())
            }
            v => assert_eq!(bits_of(v, c), Some(device), "{c:?}"),
        };
        for _ in 0..20_000 {
            let c = classes[(next() % classes.len() as u64) as usize];
            let op = ops[(next() % ops.len() as u64) as usize];
            let (r1, r2) = (next(), next());
            let (x, y) = (operand(c, r1), operand(c, r2));
            let mut d = [0; 32];
            binary_lanes(op, c, &mut d, &[x; 32], &[y; 32]);
            let replay = binary(op, value_of(x, c), value_of(y, c), Ty::Scalar(c));
            let comparison = matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            );
            match replay {
                // C++ leaves an integer divided by zero undefined: the replay has no value.
                ConcreteValue::Poison => assert!(matches!(op, BinOp::Div | BinOp::Rem) && y == 0),
                v if comparison => assert_eq!(v, ConcreteValue::Int(d[0])),
                v => same(v, c, d[0]),
            }
            let to = classes[(next() % classes.len() as u64) as usize];
            let mut d = [0; 32];
            cast_lanes(c, to, &mut d, &[x; 32]);
            same(
                cast(value_of(x, c), Ty::Scalar(c), Ty::Scalar(to)),
                to,
                d[0],
            );
        }
    }

    #[test]
    fn float_to_int_saturates_and_halves_round_in_the_replay_as_on_the_device() {
        use super::{binary, cast, ConcreteValue};
        let f32_ = Ty::Scalar(Scalar::F32);
        let int = Ty::Scalar(Scalar::I32);
        assert_eq!(
            cast(ConcreteValue::Float(3e9), f32_, int),
            ConcreteValue::Int(i32::MAX as u64)
        );
        assert_eq!(
            cast(ConcreteValue::Float(f64::NAN), f32_, int),
            ConcreteValue::Int(0)
        );
        // 1 + 2^-11 is halfway between two halves: it rounds to even, 1.
        let half = Ty::Scalar(Scalar::F16);
        let sum = binary(
            BinOp::Add,
            ConcreteValue::Float(1.0),
            ConcreteValue::Float(1.0 / 2048.0),
            half,
        );
        assert_eq!(sum, ConcreteValue::Float(1.0));
        // f32 arithmetic is rounded to f32, not computed in double.
        let sum = binary(
            BinOp::Add,
            ConcreteValue::Float(16777216.0),
            ConcreteValue::Float(1.0),
            f32_,
        );
        assert_eq!(sum, ConcreteValue::Float(16777216.0));
    }
}
