//! Symbolic execution of one thread of a kernel into z3 terms.
//!
//! The result over-approximates what the thread can do: every real execution of an access is
//! described by some assignment of the variables (thread ids, launch values, loop iterations,
//! fresh values for data and for what is not modelled). That is what makes an UNSAT pair query a
//! proof. Precision is recovered only by the concrete re-check, never by assuming more here.
//!
//! Per access it records the path condition, the address (base object and byte offset), and the
//! number of block barriers (`b`) and of warp-or-block synchronisations (`w`) the thread has
//! passed: two threads are in the same barrier interval exactly when their `b` agree. The counts
//! are 64 bits wide so that no execution wraps them (with 32 bits the solver put iterations
//! 2^32 barriers apart into one interval).
//!
//! Intrinsic calls are data (fresh values), except `__mul24`/`__umul24`, modelled exactly here
//! and in `concrete.rs` (the CUDA samples build indices with them). Code whose path condition
//! simplifies to false (the steps of a reduction unrolled for larger blocks than the template's)
//! is not run: its accesses are `ThreadSummary::unreachable`, and `safe`.
//!
//! Joins keep path conditions from growing where the paths add up to what entered: after an
//! `if` both of whose branches ran to their end, and after an inlined call that no path left
//! other than through its own returns, the path condition is the one before (after the `if`,
//! values are chosen by its condition: `rejoin`). Without that, each call of a device function
//! with early returns (the stand-ins' exact `__half` conversions) doubled the condition that
//! every later `simplify` and query read: minutes for altis `MaxFlops`.
//!
//! Loops are summarised by an iteration variable `j` and a trip count: locals updated once per
//! iteration by `x = x op c` are closed forms (`+ - << >>`, `* /` by powers of two), everything
//! else the loop writes is a fresh value. A loop may run zero times: facts about iteration `j`
//! hold only for a thread that reaches the loop and runs `j` (never `j < trips` on its own); a
//! loop with barriers whose test holds at entry, or without a test before its body, runs at
//! least once. Loops with barriers share their trip count between the two threads (it is
//! uniform, or the barriers diverge).
//!
//! Barrier counts are closed forms when the loop's barriers are unconditional. When they vary
//! per iteration (a barrier under a uniform branch, an inner barrier loop), the count at the
//! start of iteration `j` is an uninterpreted function of the block and the iterations, shared
//! by both threads, with the facts any real execution without divergence satisfies
//! instantiated in each pair query once the divergence checks found none (`start(j+1) =
//! start(j) + total(j)` for an iteration `j` that runs, never decreasing up to the trip count,
//! equal to the entry count at 0).
//!
//! A loop with barriers left by `break` is still counted: the count after it is one more
//! function of the block, equal to the count at the break in the iteration that breaks, and each
//! `break` is checked like a barrier (`SymBarrier::is_break`). A counter after a loop left by
//! `break` is the iteration that broke. What needs every thread of a block to leave such a loop
//! together goes to `ThreadSummary::uniform_exits`, which `pairs.rs` adds only after the
//! divergence checks. A `return` mid-iteration makes the counts fresh and the summary imprecise.
//!
//! Counters are recognised through integer casts that keep the update exact modulo their width
//! (`int i; i += blockDim.x` adds as unsigned). Signed counters updated in their own type are
//! assumed not to overflow (undefined in CUDA C++; said in every report); any counter bounded by
//! the loop test (`i < b`, `i >= b`, ... with `b` the same in every iteration, tested before each
//! iteration) is known not to wrap unless a step from the bound can pass the type's end. Both
//! are `lazy_facts`: double-width products that would slow every query, so a query takes one
//! only when its model breaks it, and solves again.

use super::subscript::{self, Subscript};
use super::uniform::Uniform;
use super::wraps;
use crate::collections::HashMap;
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Ast, Bool, BV};
use z3::{FuncDecl, Sort};

/// The memory object an address points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Param(ParamId),
    Shared(SharedId),
    Global(GlobalId),
    Local(LocalArrayId),
    /// Not known statically (a pointer loaded from memory, or one of several objects).
    Unknown,
}

/// A value of the symbolic thread: a bit-vector term, a condition, or a pointer (a base object
/// and a symbolic byte offset).
#[derive(Clone)]
pub enum SymValue {
    Bv(BV),
    Bool(Bool),
    Ptr(Base, BV),
}

/// Launch-wide symbols shared by both threads of a pair query.
pub struct Launch {
    pub block_dim: [BV; 3],
    pub grid_dim: [BV; 3],
    pub params: Vec<Option<SymValue>>,
    /// What the host code states of the launch (`Assumptions::facts`): true for every thread.
    pub facts: Vec<Expr>,
}

impl Launch {
    /// Some extent is left open.
    pub fn is_open(&self) -> bool {
        let mut extents = self.block_dim.iter().chain(&self.grid_dim);
        extents.any(|d| d.as_u64().is_none())
    }
}

/// One thread's identity.
pub struct ThreadVars {
    pub tid: [BV; 3],
    pub bid: [BV; 3],
}

#[derive(Clone)]
pub struct SymAccess {
    pub pc: Bool,
    pub base: Base,
    pub offset: BV,
    pub size: u32,
    /// The shape of `offset` where it is a row-major subscript (`subscript.rs`).
    pub subscript: Option<Subscript>,
    pub b: BV,
    pub w: BV,
    /// Iteration variables of the enclosing loops, outermost first.
    pub iters: Vec<BV>,
    /// How many of the thread's `lazy_facts` hold before this access (see there).
    pub lazy_before: usize,
    /// Likewise of its `unwrapped` facts.
    pub unwrapped_before: usize,
}

#[derive(Clone)]
pub struct SymBarrier {
    pub pc: Bool,
    /// The thread has returned before reaching this point.
    pub exited: Bool,
    pub iters: Vec<BV>,
    /// Not a barrier but a `break` out of a loop with barriers: the barrier counts after the
    /// loop are exact only if every thread of a block takes it at the same iteration.
    pub is_break: bool,
    /// As `SymAccess::lazy_before`.
    pub lazy_before: usize,
}

pub struct ThreadSummary {
    pub accesses: HashMap<AccessId, Vec<SymAccess>>,
    pub barriers: Vec<SymBarrier>,
    /// `pc → cond` for every `__requires`/`__assume` the thread passes.
    pub assumptions: Vec<Bool>,
    /// Constraints on this thread's loop iteration variables and trip counts.
    pub facts: Vec<Bool>,
    /// What holds of every execution but matters to few queries and costs every query that
    /// carries it: that a counter did not wrap around by iteration `j` (double-width
    /// products), that a subscript stays within its array. A query takes one only when its
    /// model breaks it. In the order the thread meets them: what is undefined after an access
    /// does not undo the access, so a query about a point of the thread (an access, a
    /// barrier) takes only the facts before it (`lazy_before`).
    pub lazy_facts: Vec<Bool>,
    /// What a launch a program makes on purpose keeps though nothing undefined breaks it:
    /// `__mul24`'s operands fit in 24 bits and their product in 32, unsigned arithmetic on a
    /// block's position does not wrap (`wraps::scales_position`). Only for choosing among the
    /// witnesses of extents left open (`pairs.rs`), never to prove anything.
    pub plausible: Vec<Bool>,
    /// That no unsigned arithmetic on the block's position wraps (`wraps.rs`), in the order
    /// the thread meets it: only evaluated on witnesses, never asserted.
    pub unwrapped: Vec<Bool>,
    /// What holds if every thread of a block leaves each loop with barriers at the same
    /// iteration and the same point (the trip count and the barrier count after a loop left by
    /// `break`): for pair queries once no barrier and no such `break` can diverge, never for
    /// the divergence checks themselves. The lazy ones as `lazy_facts`.
    pub uniform_exits: Vec<Bool>,
    pub lazy_uniform_exits: Vec<Bool>,
    /// Some construct made the barrier counts unreliable; same-interval constraints must then
    /// not be used.
    pub imprecise_barriers: bool,
    /// Loops whose barrier count per iteration varies.
    pub loop_counts: Vec<LoopCount>,
    /// Accesses in code no thread runs (skipped where the path condition is false): the only
    /// accesses without an entry in `accesses`.
    pub unreachable: BTreeSet<AccessId>,
    /// Where the thread runs something the IR does not see into (a call with no body here, an
    /// unsupported write): it may touch any memory it can reach, there and then.
    pub opaque: Vec<SymOpaque>,
}

/// An opaque statement reached under `pc`, after `b` barriers.
#[derive(Clone)]
pub struct SymOpaque {
    pub pc: Bool,
    pub b: BV,
    /// As `SymAccess::lazy_before`.
    pub lazy_before: usize,
    /// `Here`, or `Async`/`Concurrent`: beside every thread in every barrier interval.
    pub effect: OpaqueEffect,
}

/// An uninterpreted function of a block and iteration numbers.
#[derive(Clone)]
/// The declaration and the width of its values.
pub struct UniformFn(std::rc::Rc<FuncDecl>, u32);

impl UniformFn {
    pub fn apply_bv(&self, args: &[BV]) -> BV {
        let dyn_args: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        self.0
            .apply(&dyn_args)
            .as_bv()
            .unwrap_or_else(|| BV::fresh_const("uf", self.1))
    }
}

/// A loop whose barriers per iteration vary: `start(args, j)` counts the barriers passed before
/// iteration `j` of this thread, and `total` those iteration `j` itself passes. Pair queries
/// instantiate what holds of any real execution: `start(j+1) = start(j) + total(j)`, and `start`
/// does not decrease with `j`.
#[derive(Clone)]
pub struct LoopCount {
    pub loop_id: u32,
    pub start: UniformFn,
    /// Block and enclosing iterations, as in `start`'s first arguments.
    pub args: Vec<BV>,
    /// The thread reaches the loop and runs iteration `j`.
    pub runs_j: Bool,
    pub j: BV,
    pub trips: BV,
    pub total: BV,
}

#[derive(Clone)]
struct State {
    env: Vec<SymValue>,
    pc: Bool,
    exited: Bool,
    b: BV,
    w: BV,
}

#[derive(Default)]
struct Jumps {
    breaks: Vec<State>,
    continues: Vec<State>,
    exits: BTreeMap<ScopeId, Vec<State>>,
}

pub struct Executor<'a> {
    k: &'a Kernel,
    launch: &'a Launch,
    /// `launch.is_open()`.
    open_extents: bool,
    thread: &'a ThreadVars,
    prefix: String,
    /// Names of the trip-count variables of loops that contain barriers: shared by both
    /// threads, because such a loop runs the same number of times in every thread of a block
    /// (otherwise its barrier diverges, which is checked separately).
    loop_counter: u32,
    iters: Vec<BV>,
    uniform: &'a Uniform,
    /// Locals that may depend on a parameter (`parametric.rs`): a stand-in for one of them is
    /// named `loopvar`, one for any other `loopval`.
    parametric: BTreeSet<LocalId>,
    infeasible: Infeasible,
    /// Statements run so far that end a path or narrow it other than by an `if`'s branches
    /// (`return`, `break`, traps, loops, an exit from an enclosing scope): while none run
    /// inside a scope (an inlined call), the paths out of it add up to the one into it.
    cuts: u64,
    scopes: Vec<ScopeId>,
    out: ThreadSummary,
}

/// Width of barrier and sync counts: wide enough that no execution wraps them around (a
/// 32-bit count would, after 2^32 barriers, and the solver would use that to put accesses of
/// different iterations into one interval).
const COUNT_BITS: u32 = 64;

fn count(n: u64) -> BV {
    bv(n, COUNT_BITS)
}

/// `per` syncs in each of `n` iterations.
fn times(n: &BV, per: u32) -> BV {
    n.zero_ext(COUNT_BITS - n.get_size())
        .bvmul(count(per.into()))
}

fn bv(v: u64, w: u32) -> BV {
    BV::from_u64(v, w)
}

fn width(ty: Ty) -> u32 {
    match ty {
        Ty::Scalar(s) => s.size() * 8,
        Ty::Ptr(_) => 64,
        Ty::Void => 32,
    }
}

/// Which path conditions simplify to `false`, each simplified once: a block asks before every
/// statement and a join for every state, and an unrolled loop's condition grows with each
/// iteration (altis `MaxFlops`: minutes of `simplify` on the same few conditions).
#[derive(Default)]
struct Infeasible(HashMap<Bool, bool>);

impl Infeasible {
    fn is_false(&mut self, b: &Bool) -> bool {
        *self
            .0
            .entry(b.clone())
            .or_insert_with(|| b.simplify().as_bool() == Some(false))
    }
}

impl<'a> Executor<'a> {
    pub fn run(
        k: &'a Kernel,
        launch: &'a Launch,
        thread: &'a ThreadVars,
        uniform: &'a Uniform,
        prefix: &str,
    ) -> ThreadSummary {
        let mut ex = Executor {
            k,
            launch,
            open_extents: launch.is_open(),
            thread,
            prefix: prefix.to_string(),
            loop_counter: 0,
            iters: Vec::new(),
            uniform,
            parametric: super::parametric::parametric_locals(k),
            infeasible: Infeasible::default(),
            cuts: 0,
            scopes: Vec::new(),
            out: ThreadSummary {
                accesses: HashMap::default(),
                barriers: Vec::new(),
                assumptions: Vec::new(),
                facts: Vec::new(),
                lazy_facts: Vec::new(),
                plausible: Vec::new(),
                unwrapped: Vec::new(),
                uniform_exits: Vec::new(),
                lazy_uniform_exits: Vec::new(),
                imprecise_barriers: false,
                loop_counts: Vec::new(),
                unreachable: BTreeSet::new(),
                opaque: Vec::new(),
            },
        };
        let env = k.locals.iter().map(|l| ex.fresh(l.ty, "uninit")).collect();
        let st = State {
            env,
            pc: Bool::from_bool(true),
            exited: Bool::from_bool(false),
            b: count(0),
            w: count(0),
        };
        for f in &launch.facts {
            if let SymValue::Bool(c) = ex.expr(f, &st) {
                ex.out.assumptions.push(c);
            }
        }
        let mut jumps = Jumps::default();
        ex.block(&k.body, st, &mut jumps);
        ex.out
    }

    fn fresh(&self, ty: Ty, what: &str) -> SymValue {
        match ty {
            Ty::Scalar(Scalar::Bool) => {
                SymValue::Bool(Bool::fresh_const(&format!("{}{what}", self.prefix)))
            }
            Ty::Ptr(_) => SymValue::Ptr(
                Base::Unknown,
                BV::fresh_const(&format!("{}{what}", self.prefix), 64),
            ),
            _ => SymValue::Bv(BV::fresh_const(
                &format!("{}{what}", self.prefix),
                width(ty),
            )),
        }
    }

    fn block(&mut self, b: &Block, mut st: State, jumps: &mut Jumps) -> State {
        for (i, s) in b.iter().enumerate() {
            if self.infeasible.is_false(&st.pc) {
                accesses_in(&b[i..], &mut self.out.unreachable);
                break;
            }
            st = self.stmt(s, st, jumps);
        }
        st
    }

    fn stmt(&mut self, s: &Stmt, mut st: State, jumps: &mut Jumps) -> State {
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                let v = self.expr(value, &st);
                st.env[dst.index()] = v;
            }
            StmtKind::Store {
                access,
                addr,
                value,
            } => {
                self.expr(value, &st);
                self.record(*access, addr, &st);
            }
            StmtKind::Atomic {
                access,
                addr,
                args,
                dst,
                ..
            } => {
                for a in args {
                    self.expr(a, &st);
                }
                self.record(*access, addr, &st);
                if let Some(d) = dst {
                    st.env[d.index()] = self.fresh(self.k.locals[d.index()].ty, "atomic");
                }
            }
            StmtKind::Barrier { dst, pred, .. } => {
                if let Some(p) = pred {
                    self.expr(p, &st);
                }
                self.out.barriers.push(SymBarrier {
                    pc: st.pc.clone(),
                    exited: st.exited.clone(),
                    iters: self.iters.clone(),
                    is_break: false,
                    lazy_before: self.out.lazy_facts.len(),
                });
                st.b = st.b.bvadd(count(1));
                st.w = st.w.bvadd(count(1));
                if let Some(d) = dst {
                    st.env[d.index()] = self.fresh(Ty::I32, "barrier");
                }
            }
            StmtKind::SyncWarp { mask } => {
                self.expr(mask, &st);
                let full = matches!(mask.kind, ExprKind::Int(m) if m as u32 == u32::MAX);
                st.w = if full {
                    st.w.bvadd(count(1))
                } else {
                    // A partial mask may leave this lane out of the synchronisation.
                    self.fresh_count("w")
                };
            }
            StmtKind::Warp { dst, args, .. } => {
                for a in args {
                    self.expr(a, &st);
                }
                st.env[dst.index()] = self.fresh(self.k.locals[dst.index()].ty, "warp");
            }
            StmtKind::Printf { args, .. } => {
                for a in args {
                    self.expr(a, &st);
                }
            }
            StmtKind::Fence { .. } => {}
            // Synchronisation gmrace cannot model (a grid-wide barrier, `cuda::barrier`) only
            // synchronises; leaving it out only makes more accesses concurrent.
            StmtKind::Opaque { reason } => match opaque_effect(reason) {
                OpaqueEffect::None => {}
                effect => self.out.opaque.push(SymOpaque {
                    pc: st.pc.clone(),
                    b: st.b.clone(),
                    lazy_before: self.out.lazy_facts.len(),
                    effect,
                }),
            },
            StmtKind::Assume { cond, kind } => {
                if let SymValue::Bool(c) = self.expr(cond, &st) {
                    // Subscripts' bounds are many and often nonlinear in loop counters: a query
                    // takes one only when its model breaks it.
                    match kind {
                        AssumeKind::InBounds => self.out.lazy_facts.push(st.pc.implies(&c)),
                        _ => self.out.assumptions.push(st.pc.implies(&c)),
                    }
                }
            }
            StmtKind::Trap { .. } => {
                self.cuts += 1;
                st.pc = Bool::from_bool(false);
            }
            StmtKind::Return => {
                self.cuts += 1;
                st.exited = Bool::or(&[st.exited.clone(), st.pc.clone()]);
                st.pc = Bool::from_bool(false);
            }
            StmtKind::Break => {
                self.cuts += 1;
                jumps.breaks.push(st.clone());
                st.pc = Bool::from_bool(false);
            }
            StmtKind::Continue => {
                self.cuts += 1;
                jumps.continues.push(st.clone());
                st.pc = Bool::from_bool(false);
            }
            StmtKind::Exit(id) => {
                if self.scopes.last() != Some(id) {
                    self.cuts += 1;
                }
                jumps.exits.entry(*id).or_default().push(st.clone());
                st.pc = Bool::from_bool(false);
            }
            StmtKind::Scope { id, body } => {
                let (entry, cuts) = (st.pc.clone(), self.cuts);
                self.scopes.push(*id);
                let end = self.block(body, st, jumps);
                self.scopes.pop();
                let mut all = jumps.exits.remove(id).unwrap_or_default();
                all.push(end);
                // Every path into the scope came out through its end or its own exits.
                let whole = (self.cuts == cuts).then_some(entry);
                st = join_states(all, &mut self.infeasible, whole);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = to_bool(self.expr(cond, &st));
                let before = st.pc.clone();
                let mut t = st.clone();
                t.pc = Bool::and(&[before.clone(), c.clone()]);
                let mut e = st;
                e.pc = Bool::and(&[before.clone(), c.not()]);
                let entries = [t.pc.clone(), e.pc.clone()];
                let t = self.block(then_body, t, jumps);
                let e = self.block(else_body, e, jumps);
                let both_ran = [&t, &e]
                    .iter()
                    .zip(&entries)
                    .all(|(s, entry)| s.pc == *entry && !self.infeasible.is_false(entry));
                st = match both_ran {
                    true => rejoin(before, &c, t, e),
                    false => merge(vec![t, e], &mut self.infeasible),
                };
            }
            StmtKind::Loop { .. } => st = self.run_loop(s, st, jumps),
        }
        st
    }

    fn record(&mut self, access: AccessId, addr: &Expr, st: &State) {
        let a = &self.k.accesses[access.index()];
        let (base, offset) = match self.expr(addr, st) {
            SymValue::Ptr(b, off) => (b, off),
            _ => (
                Base::Unknown,
                BV::fresh_const(&format!("{}addr", self.prefix), 64),
            ),
        };
        self.out
            .accesses
            .entry(access)
            .or_default()
            .push(SymAccess {
                pc: st.pc.clone(),
                base,
                subscript: subscript::of(addr, &offset, a.ty.size()),
                offset,
                size: a.ty.size(),
                b: st.b.clone(),
                w: st.w.clone(),
                iters: self.iters.clone(),
                lazy_before: self.out.lazy_facts.len(),
                unwrapped_before: self.out.unwrapped.len(),
            });
    }

    fn run_loop(&mut self, s: &Stmt, st: State, outer: &mut Jumps) -> State {
        // A loop's way out constrains its trip count: the paths it leaves are not all of those
        // that entered it.
        self.cuts += 1;
        let StmtKind::Loop {
            cond,
            cond_prelude,
            test_first,
            body,
            step,
        } = &s.kind
        else {
            return st;
        };
        let head = (cond, cond_prelude, *test_first);
        let Some(lf) = self.loop_frame(s, &st) else {
            return st;
        };
        let (it, b_at, at_exit) = self.iteration_start(&lf, &st);
        let (loop_id, barriers, closed, exits) = (lf.id, lf.barriers, lf.closed, lf.exits);
        let (j, trips, bstart) = (lf.j.clone(), lf.trips.clone(), lf.bstart.clone());
        let (entry, runs_j, exits_at) = (lf.entry.clone(), lf.runs_j.clone(), lf.exits_at.clone());
        self.iters.push(j.clone());
        let mut inner = Jumps::default();
        let mut cur = self.block(cond_prelude, it, &mut inner);
        if let (Some(c), true) = (cond, *test_first) {
            let cv = to_bool(self.expr(c, &cur));
            cur.pc = Bool::and(&[cur.pc.clone(), cv]);
        }
        let end = self.block(body, cur, &mut inner);
        let mut to_step = std::mem::take(&mut inner.continues);
        to_step.push(end);
        let cont = merge(to_step, &mut self.infeasible);
        let iteration_end = self.block(step, cont, &mut inner);
        self.iters.pop();
        // The steps up to the exit come after iteration j's accesses.
        self.out.lazy_facts.extend(at_exit);
        // Iteration j broke out of the loop, or was the last and the test ended the loop.
        let broke = Bool::or(
            &inner
                .breaks
                .iter()
                .map(|b| b.pc.clone())
                .collect::<Vec<_>>(),
        );
        let next = j.bvadd(bv(1, 32));
        let went_on = Bool::and(&[runs_j.clone(), broke.not()]);
        let ended = match exits {
            Exits::None => Some(entry.clone()),
            Exits::Breaks => Some(Bool::and(&[went_on.clone(), next.eq(&trips)])),
            Exits::Other => None,
        };
        if exits == Exits::Breaks {
            let at_break = Bool::and(&[runs_j.clone(), broke]);
            self.out.facts.push(at_break.implies(exits_at.eq(&j)));
            if barriers > 0 {
                // Every thread of the block leaves at the same iteration.
                let block_exit = self
                    .block_function(&format!("exit{loop_id}"), &[], 32)
                    .apply_bv(&self.uf_args(None));
                let uniform = &mut self.out.uniform_exits;
                uniform.push(at_break.implies(trips.eq(&next)));
                uniform.push(exits_at.eq(&block_exit));
                // ... in the last iteration it entered, or at the test after it.
                let last = exits_at.bvadd(bv(1, 32)).eq(&trips);
                uniform.push(Bool::or(&[exits_at.eq(&trips), last]));
            }
            if let Some(e) = &ended {
                self.out.facts.push(e.implies(exits_at.eq(&trips)));
            }
        }
        // The count at the start of iteration j + 1.
        let start_next = match &bstart {
            _ if closed => Some(st.b.bvadd(times(&next, barriers))),
            Some(f) => Some(f.apply_bv(&self.uf_args(Some(&next)))),
            None => None,
        };
        let left = match (start_next, &ended) {
            (Some(start_next), Some(ended)) if exits == Exits::Breaks && barriers > 0 => {
                Some(self.break_facts(loop_id, &start_next, &inner.breaks, &went_on, ended, &j))
            }
            _ => None,
        };
        if let Some(f) = &bstart {
            self.out.loop_counts.push(LoopCount {
                loop_id,
                start: f.clone(),
                args: self.uf_args(None),
                runs_j,
                j: j.clone(),
                trips: trips.clone(),
                total: iteration_end.b.bvsub(&b_at),
            });
        }
        for (id, states) in inner.exits {
            outer.exits.entry(id).or_default().extend(states);
        }

        self.after_loop(&lf, &st, head, left, ended)
    }

    /// The frame of loop `s` entered in state `st`, with the facts every iteration shares.
    fn loop_frame(&mut self, s: &Stmt, st: &State) -> Option<LoopFrame> {
        let StmtKind::Loop {
            cond,
            cond_prelude,
            test_first,
            body,
            step,
        } = &s.kind
        else {
            return None;
        };
        let mut modified = BTreeSet::new();
        for b in [cond_prelude, body, step] {
            assigned_locals(b, &mut modified);
        }
        let inductions = self.inductions(s, &modified, st);
        let guards = match (cond, test_first) {
            (Some(c), true) => self.guards(c, &modified, &inductions, st),
            _ => HashMap::default(),
        };
        let (barriers, syncs, closed) = sync_counts(s);
        self.loop_counter += 1;
        let loop_id = self.loop_counter;
        let j = BV::fresh_const(&format!("{}iter{loop_id}_", self.prefix), 32);
        // Loops with barriers run equally often in every thread of a block (or diverge): their
        // trip count is one function of the block and the enclosing iterations.
        let trips = if barriers > 0 {
            self.block_function(&format!("trips{loop_id}"), &[], 32)
                .apply_bv(&self.uf_args(None))
        } else {
            BV::fresh_const(&format!("{}trips{loop_id}_", self.prefix), 32)
        };
        // Barriers the loop passes per iteration vary (a barrier under a uniform branch, an
        // inner barrier loop): the count at the start of iteration j is `bstart(.., j)`, one
        // function shared by both threads, tied to the count at entry and, in pair queries,
        // by the axioms `LoopCount` carries.
        // A loop left by a `break` is counted too: the count after it is one more function of
        // the block, tied to the count where the loop is left (`break_facts`). That holds if
        // every thread of the block breaks at the same iteration, which pair queries check
        // like a barrier. A `return` mid-iteration would end the count elsewhere.
        let exits = early_exits(s);
        let counted = barriers > 0 && !closed && exits != Exits::Other;
        if barriers > 0 && !closed && !counted {
            self.out.imprecise_barriers = true;
        }
        let bstart =
            counted.then(|| self.block_function(&format!("bstart{loop_id}"), &[&j], COUNT_BITS));

        // Facts about this loop hold only for a thread that reaches it, and about iteration j
        // only if the thread runs it: a loop may run zero times.
        let entry = st.pc.clone();
        let in_range = j.bvult(&trips);
        let runs_j = Bool::and(&[entry.clone(), in_range.clone()]);
        // (Only where barriers are counted by it: the fact costs every query.)
        let first = match barriers {
            0 => None,
            _ => self.enters(cond.as_ref(), cond_prelude, *test_first, st),
        };
        if let Some(first) = first {
            let once = Bool::and(&[entry.clone(), first]);
            self.out.facts.push(once.implies(trips.bvuge(bv(1, 32))));
        }
        // How many updates a counter has had after the loop: the trip count, unless the loop
        // can be left mid-iteration, before the last update.
        let exits_at = if exits != Exits::None {
            let n = BV::fresh_const(&format!("{}exit{loop_id}_", self.prefix), 32);
            self.out.facts.push(n.bvule(&trips));
            n
        } else {
            trips.clone()
        };

        Some(LoopFrame {
            id: loop_id,
            modified,
            inductions,
            guards,
            barriers,
            syncs,
            closed,
            exits,
            j,
            trips,
            bstart,
            entry,
            runs_j,
            exits_at,
        })
    }

    /// The state at the start of iteration `j`, its barrier count, and the lazy facts about
    /// the counters up to the exit iteration (for what follows the loop: the caller adds them
    /// after the body).
    fn iteration_start(&mut self, lf: &LoopFrame, st: &State) -> (State, BV, Vec<Bool>) {
        let LoopFrame {
            id: loop_id,
            modified,
            inductions,
            guards,
            barriers,
            syncs,
            closed,
            j,
            trips,
            bstart,
            entry,
            runs_j,
            exits_at,
            ..
        } = lf;
        let (loop_id, barriers, syncs, closed) = (*loop_id, *barriers, *syncs, *closed);
        let in_range = j.bvult(trips);
        let mut it = st.clone();
        let mut at_exit = Vec::new();
        for l in modified {
            let ty = self.k.locals[l.index()].ty;
            it.env[l.index()] = match inductions.get(l) {
                Some(ind) => {
                    let start = &st.env[l.index()];
                    for (n, reached, later) in [(j, runs_j, false), (exits_at, entry, true)] {
                        let mut facts = Vec::new();
                        if ind.own && ty.scalar().is_some_and(Scalar::is_signed) {
                            // Signed overflow is undefined in CUDA C++: a signed counter
                            // reaches iteration n only if no step on the way overflowed.
                            facts.extend(ind.no_overflow(start, n, true));
                        }
                        if let Some(g) = guards.get(l) {
                            facts.extend(ind.guarded(start, g, n));
                        }
                        let facts = facts.iter().map(|f| reached.implies(f));
                        match later {
                            true => at_exit.extend(facts),
                            false => self.out.lazy_facts.extend(facts),
                        }
                    }
                    ind.at(&st.env[l.index()], j)
                }
                None => self.loop_value(*l, ty, loop_id, Some(j)),
            };
        }
        let (b_at, w_at) = if closed {
            (st.b.bvadd(times(j, barriers)), st.w.bvadd(times(j, syncs)))
        } else {
            let b = match &bstart {
                Some(f) => {
                    let zero = bv(0, 32);
                    self.out
                        .facts
                        .push(entry.implies(f.apply_bv(&self.uf_args(Some(&zero))).eq(&st.b)));
                    f.apply_bv(&self.uf_args(Some(j)))
                }
                None if barriers == 0 => st.b.clone(),
                None => self.fresh_count("b"),
            };
            (b, self.fresh_count("w"))
        };
        it.b = b_at.clone();
        it.w = w_at;
        it.pc = Bool::and(&[it.pc.clone(), in_range]);
        (it, b_at, at_exit)
    }

    /// The state after the loop: what it modified is unknown except induction variables and
    /// barrier counts, which follow from the trip count. `left` is the barrier count where a
    /// `break` leaves it, `ended` when it ends.
    fn after_loop(
        &mut self,
        lf: &LoopFrame,
        st: &State,
        (cond, cond_prelude, test_first): (&Option<Expr>, &Block, bool),
        left: Option<BV>,
        ended: Option<Bool>,
    ) -> State {
        let LoopFrame {
            id: loop_id,
            modified,
            inductions,
            barriers,
            syncs,
            closed,
            trips,
            bstart,
            exits_at,
            ..
        } = lf;
        let (loop_id, barriers, syncs, closed) = (*loop_id, *barriers, *syncs, *closed);
        let mut after = st.clone();
        for l in modified {
            let ty = self.k.locals[l.index()].ty;
            after.env[l.index()] = match inductions.get(l) {
                Some(ind) => ind.at(&st.env[l.index()], exits_at),
                None => self.loop_value(*l, ty, loop_id, None),
            };
        }
        if let (true, Some(at_exit)) = (closed, &left) {
            after.b = at_exit.clone();
            after.w = self.fresh_count("w");
        } else if closed {
            after.b = st.b.bvadd(times(trips, barriers));
            after.w = st.w.bvadd(times(trips, syncs));
        } else {
            after.b = match (left, &bstart) {
                (Some(at_exit), _) => at_exit,
                (None, Some(f)) => f.apply_bv(&self.uf_args(Some(trips))),
                (None, None) if barriers == 0 => st.b.clone(),
                (None, None) => self.fresh_count("b"),
            };
            after.w = self.fresh_count("w");
        }
        // A loop with barriers that ends through its test ends where the test fails, when
        // every thread of the block leaves it together (taken lazily: it multiplies the trip
        // count into the counters).
        if let (Some(c), true, true, Some(ended), true) = (
            cond,
            test_first,
            cond_prelude.is_empty(),
            ended,
            barriers > 0,
        ) {
            if invariant(c, &BTreeSet::new()) {
                let go_on = to_bool(self.expr(c, &after));
                self.out.lazy_uniform_exits.push(ended.implies(go_on.not()));
            }
        }
        // Threads that returned inside the loop are conservatively still considered alive; a
        // return only removes behaviours.
        after
    }

    /// For a counted loop left by `break`s (this thread at iteration `j`): the barrier count
    /// after the loop, one function of the block shared by both threads, with what ties it
    /// to the iterations. Breaking at `j` makes `j` the last iteration and the count after
    /// the loop the count at the break; otherwise the count after the loop is at least the
    /// count at the start of `j + 1`, and equal to it if `j + 1` is the trip count (the loop
    /// test ended it). Each break is also checked like a barrier: if two threads of a block
    /// can disagree on it, barrier counts are not relied on.
    fn break_facts(
        &mut self,
        loop_id: u32,
        start_next: &BV,
        breaks: &[State],
        went_on: &Bool,
        ended: &Bool,
        j: &BV,
    ) -> BV {
        let after = self
            .block_function(&format!("bafter{loop_id}"), &[], COUNT_BITS)
            .apply_bv(&self.uf_args(None));
        let mut iters = self.iters.clone();
        iters.push(j.clone());
        for st in breaks {
            self.out.barriers.push(SymBarrier {
                pc: st.pc.clone(),
                exited: st.exited.clone(),
                iters: iters.clone(),
                is_break: true,
                lazy_before: self.out.lazy_facts.len(),
            });
        }
        let facts = &mut self.out.uniform_exits;
        if !breaks.is_empty() {
            let at_break = merge(breaks.to_vec(), &mut self.infeasible);
            facts.push(at_break.pc.implies(after.eq(&at_break.b)));
        }
        facts.push(went_on.implies(after.bvuge(start_next)));
        facts.push(ended.implies(after.eq(start_next)));
        after
    }

    /// When a thread that reaches the loop surely runs its first iteration: always for a
    /// loop without a test before it, else when the test, free of memory reads and calls,
    /// holds at entry. `None` when that cannot be told.
    fn enters(
        &mut self,
        cond: Option<&Expr>,
        prelude: &Block,
        test_first: bool,
        st: &State,
    ) -> Option<Bool> {
        match cond {
            None => Some(Bool::from_bool(true)),
            Some(_) if !test_first => Some(Bool::from_bool(true)),
            Some(c) if prelude.is_empty() && invariant(c, &BTreeSet::new()) => {
                Some(to_bool(self.expr(c, st)))
            }
            Some(_) => None,
        }
    }

    /// The arguments of a block-uniform function at this point: the block, the enclosing
    /// iterations and, if given, the current one.
    fn uf_args(&self, j: Option<&BV>) -> Vec<BV> {
        let mut args: Vec<BV> = self.thread.bid.to_vec();
        args.extend(self.iters.iter().cloned());
        args.extend(j.cloned());
        args
    }

    /// A `bits`-wide function of the block, the enclosing iterations and `extra` more
    /// arguments, shared by the two symbolic threads (the name does not carry the thread's
    /// prefix).
    fn block_function(&self, name: &str, extra: &[&BV], bits: u32) -> UniformFn {
        let n = 3 + self.iters.len() + extra.len();
        let domain: Vec<Sort> = (0..n).map(|_| Sort::bitvector(32)).collect();
        let domain: Vec<&Sort> = domain.iter().collect();
        UniformFn(
            std::rc::Rc::new(FuncDecl::new(name, &domain, &Sort::bitvector(bits))),
            bits,
        )
    }

    /// A barrier or sync count about which nothing is known.
    fn fresh_count(&self, what: &str) -> BV {
        BV::fresh_const(&format!("{}{what}", self.prefix), COUNT_BITS)
    }

    /// The value of a local a loop modifies and that is not an induction variable, at the start
    /// of iteration `j` (or after the loop). A block-uniform local is the same in both threads
    /// of a block at the same iterations: one uninterpreted function of the block and the
    /// iteration numbers, shared by the two symbolic threads. Anything else is a fresh value.
    fn loop_value(&self, l: LocalId, ty: Ty, loop_id: u32, j: Option<&BV>) -> SymValue {
        if !self.uniform.locals.contains(&l) || matches!(ty, Ty::Ptr(_)) {
            let what = match self.parametric.contains(&l) {
                true => "loopvar",
                false => "loopval",
            };
            return self.fresh(ty, what);
        }
        let phase = if j.is_some() { "in" } else { "after" };
        self.uniform_fn(&format!("uniform_l{}_loop{loop_id}_{phase}", l.0), ty, j)
    }

    /// A value of type `ty` that is one function of the block and the iteration numbers (the
    /// enclosing ones and `j`), shared by the two symbolic threads.
    fn uniform_fn(&self, name: &str, ty: Ty, j: Option<&BV>) -> SymValue {
        if matches!(ty, Ty::Ptr(_)) {
            return self.fresh(ty, "data");
        }
        let mut args: Vec<&BV> = self.thread.bid.iter().collect();
        args.extend(self.iters.iter());
        args.extend(j);
        let domain: Vec<Sort> = args.iter().map(|a| Sort::bitvector(a.get_size())).collect();
        let domain: Vec<&Sort> = domain.iter().collect();
        let dyn_args: Vec<&dyn Ast> = args.iter().map(|a| *a as &dyn Ast).collect();
        match ty {
            Ty::Scalar(Scalar::Bool) => {
                let f = FuncDecl::new(name, &domain, &Sort::bool());
                f.apply(&dyn_args)
                    .as_bool()
                    .map_or_else(|| self.fresh(ty, "data"), SymValue::Bool)
            }
            _ => {
                let f = FuncDecl::new(name, &domain, &Sort::bitvector(width(ty)));
                f.apply(&dyn_args)
                    .as_bv()
                    .map_or_else(|| self.fresh(ty, "data"), SymValue::Bv)
            }
        }
    }

    /// Locals updated exactly once per iteration by `x = x op c`, with `c` loop-invariant.
    fn inductions(
        &mut self,
        s: &Stmt,
        modified: &BTreeSet<LocalId>,
        st: &State,
    ) -> HashMap<LocalId, Induction> {
        let StmtKind::Loop {
            body,
            step,
            cond_prelude,
            ..
        } = &s.kind
        else {
            return HashMap::default();
        };
        let mut counts: HashMap<LocalId, usize> = HashMap::default();
        for b in [cond_prelude, body, step] {
            walk_stmts(b, &mut |x| {
                if let StmtKind::Assign { dst, .. } = &x.kind {
                    *counts.entry(*dst).or_default() += 1;
                }
            });
        }
        let body_has_continue = {
            let mut c = false;
            walk_stmts(body, &mut |x| c |= matches!(x.kind, StmtKind::Continue));
            c
        };
        let mut candidates: Vec<&Stmt> = step.iter().collect();
        if !body_has_continue {
            candidates.extend(body.iter());
        }
        let mut out = HashMap::default();
        for c in candidates {
            let StmtKind::Assign { dst, value } = &c.kind else {
                continue;
            };
            if counts.get(dst) != Some(&1) {
                continue;
            }
            let Some(u) = counter_update(value, *dst, self.k.locals[dst.index()].ty) else {
                continue;
            };
            if !invariant(u.rhs, modified) {
                continue;
            }
            let SymValue::Bv(step_v) = self.expr(u.rhs, st) else {
                continue;
            };
            let (kind, step) = match u.op {
                BinOp::Add => (IndKind::Add, step_v),
                BinOp::Sub => (IndKind::Sub, step_v),
                BinOp::Shl => (IndKind::Shl, step_v),
                BinOp::Shr if u.signed => (IndKind::AShr, step_v),
                BinOp::Shr => (IndKind::LShr, step_v),
                BinOp::Mul | BinOp::Div => {
                    let ExprKind::Int(v) = u.rhs.kind else {
                        continue;
                    };
                    if !v.is_power_of_two() {
                        continue;
                    }
                    let shift = bv(v.trailing_zeros() as u64, step_v.get_size());
                    match u.op {
                        BinOp::Mul => (IndKind::Shl, shift),
                        _ if !u.signed => (IndKind::LShr, shift),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            out.insert(
                *dst,
                Induction {
                    kind,
                    step,
                    own: u.own,
                },
            );
        }
        out
    }

    /// The bounds the loop test puts on counters: its conjuncts `i < b`, `i <= b`, `i > b`,
    /// `i >= b` (either way round) where `i` is an `Add`/`Sub` counter, compared in its own
    /// width, and `b` is the same in every iteration (evaluated at loop entry).
    fn guards(
        &mut self,
        cond: &Expr,
        modified: &BTreeSet<LocalId>,
        inductions: &HashMap<LocalId, Induction>,
        st: &State,
    ) -> HashMap<LocalId, Guard> {
        let mut out = HashMap::default();
        let mut conjuncts = vec![cond];
        while let Some(c) = conjuncts.pop() {
            let ExprKind::Binary(op, x, y) = &c.kind else {
                continue;
            };
            if *op == BinOp::LAnd {
                conjuncts.extend([&**x, &**y]);
                continue;
            }
            // As `counter op bound`.
            let (op, counter, bound) = match (counter_of(x), counter_of(y)) {
                (Some(l), None) => (*op, l, &**y),
                (None, Some(l)) => (
                    match op {
                        BinOp::Lt => BinOp::Gt,
                        BinOp::Le => BinOp::Ge,
                        BinOp::Gt => BinOp::Lt,
                        BinOp::Ge => BinOp::Le,
                        _ => continue,
                    },
                    l,
                    &**x,
                ),
                _ => continue,
            };
            let Some(ind) = inductions.get(&counter) else {
                continue;
            };
            let counter_w = self.k.locals[counter.index()].ty.scalar().map(Scalar::size);
            if x.ty.scalar().map(Scalar::size) != counter_w || !invariant(bound, modified) {
                continue;
            }
            let up = matches!(ind.kind, IndKind::Add);
            let (inclusive, fits) = match op {
                BinOp::Lt => (false, up),
                BinOp::Le => (true, up),
                BinOp::Gt => (false, !up),
                BinOp::Ge => (true, !up),
                _ => continue,
            };
            if fits && matches!(ind.kind, IndKind::Add | IndKind::Sub) {
                let bound = self.expr(bound, st);
                let signed = x.ty.scalar().is_some_and(Scalar::is_signed);
                out.insert(
                    counter,
                    Guard {
                        bound,
                        signed,
                        inclusive,
                    },
                );
            }
        }
        out
    }

    fn expr(&mut self, e: &Expr, st: &State) -> SymValue {
        let w = width(e.ty);
        match &e.kind {
            ExprKind::Int(bits) => match e.ty {
                Ty::Scalar(Scalar::Bool) => SymValue::Bool(Bool::from_bool(*bits != 0)),
                Ty::Ptr(_) => SymValue::Ptr(Base::Unknown, bv(*bits, 64)),
                _ => SymValue::Bv(bv(*bits, w)),
            },
            ExprKind::Float(_) => self.fresh(e.ty, "float"),
            ExprKind::Local(l) => st.env[l.index()].clone(),
            ExprKind::Param(p) => match self.launch.params.get(p.index()).cloned().flatten() {
                Some(v) => v,
                None => self.fresh(e.ty, "param"),
            },
            ExprKind::Special(sp) => SymValue::Bv(match sp {
                Special::ThreadIdx(d) => self.thread.tid[dim(*d)].clone(),
                Special::BlockIdx(d) => self.thread.bid[dim(*d)].clone(),
                Special::BlockDim(d) => self.launch.block_dim[dim(*d)].clone(),
                Special::GridDim(d) => self.launch.grid_dim[dim(*d)].clone(),
                Special::WarpSize => return SymValue::Bv(bv(32, w)),
            }),
            ExprKind::SharedAddr(id) => SymValue::Ptr(Base::Shared(*id), bv(0, 64)),
            ExprKind::GlobalAddr(id) => SymValue::Ptr(Base::Global(*id), bv(0, 64)),
            ExprKind::LocalAddr(id) => SymValue::Ptr(Base::Local(*id), bv(0, 64)),
            ExprKind::Unary(op, a) => match (op, self.expr(a, st)) {
                (UnOp::Neg, SymValue::Bv(x)) => SymValue::Bv(x.bvneg()),
                (UnOp::Not, SymValue::Bv(x)) => SymValue::Bv(x.bvnot()),
                (UnOp::LNot, v) => SymValue::Bool(to_bool(v).not()),
                _ => self.fresh(e.ty, "unary"),
            },
            ExprKind::Cast(a) => {
                let v = self.expr(a, st);
                self.cast(v, a.ty, e.ty)
            }
            ExprKind::Select(c, a, b) => {
                let c = to_bool(self.expr(c, st));
                let (x, y) = (self.expr(a, st), self.expr(b, st));
                match (x, y) {
                    (SymValue::Bv(x), SymValue::Bv(y)) if x.get_size() == y.get_size() => {
                        SymValue::Bv(c.ite(&x, &y))
                    }
                    (SymValue::Bool(x), SymValue::Bool(y)) if x == y => SymValue::Bool(x),
                    (SymValue::Bool(x), SymValue::Bool(y)) => SymValue::Bool(c.ite(&x, &y)),
                    (SymValue::Ptr(b1, x), SymValue::Ptr(b2, y)) if b1 == b2 && x == y => {
                        SymValue::Ptr(b1, x)
                    }
                    (SymValue::Ptr(b1, x), SymValue::Ptr(b2, y)) if b1 == b2 => {
                        SymValue::Ptr(b1, c.ite(&x, &y))
                    }
                    _ => self.fresh(e.ty, "select"),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a, st), self.expr(b, st));
                if let (SymValue::Bv(bx), SymValue::Bv(by)) = (&x, &y) {
                    // Only open extents' witnesses are asked whether they wrap: a fixed
                    // launch's queries get no terms they do not use.
                    let open = self.open_extents;
                    if let Some(w) = wraps::no_wrap(*op, (a, b), (bx, by), open) {
                        let fact = st.pc.implies(&w.fits);
                        if w.plausibility {
                            self.out.plausible.push(fact.clone());
                        }
                        if open {
                            self.out.unwrapped.push(fact);
                        }
                    }
                }
                self.binary(*op, e.ty, x, y, a.ty)
            }
            // Values read from memory may be anything, except that a read assumed uniform
            // gives every thread of a block one value at the same iterations. The read itself
            // is an access.
            ExprKind::Load { access, addr } => {
                self.record(*access, addr, st);
                if self.uniform.loads.contains(access) {
                    self.uniform_fn(&format!("uniform_read{}", access.0), e.ty, None)
                } else {
                    self.fresh(e.ty, "data")
                }
            }
            ExprKind::Call(Intrinsic::Mul24, args) if args.len() == 2 => {
                match (self.expr(&args[0], st), self.expr(&args[1], st)) {
                    (SymValue::Bv(x), SymValue::Bv(y))
                        if x.get_size() == 32 && y.get_size() == 32 =>
                    {
                        // The low 24 bits of each, extended as `concrete::mul24` does.
                        let signed = args[0].ty.scalar().is_some_and(Scalar::is_signed);
                        let low = |v: BV| {
                            let v = v.extract(23, 0);
                            if signed {
                                v.sign_ext(8)
                            } else {
                                v.zero_ext(8)
                            }
                        };
                        // Plausible: nothing dropped, neither high bits nor a carry out of
                        // the 32-bit product.
                        let wide = |v: BV| {
                            if signed {
                                v.sign_ext(32)
                            } else {
                                v.zero_ext(32)
                            }
                        };
                        let (lx, ly) = (low(x.clone()), low(y.clone()));
                        let product = lx.bvmul(&ly);
                        let exact = wide(lx.clone()).bvmul(wide(ly.clone()));
                        let fits =
                            Bool::and(&[lx.eq(&x), ly.eq(&y), wide(product.clone()).eq(&exact)]);
                        self.out.plausible.push(st.pc.implies(&fits));
                        SymValue::Bv(resize(product, width(e.ty), false))
                    }
                    _ => self.fresh(e.ty, "data"),
                }
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    self.expr(a, st);
                }
                self.fresh(e.ty, "data")
            }
            ExprKind::Opaque { .. } => self.fresh(e.ty, "data"),
        }
    }

    fn cast(&self, v: SymValue, from: Ty, to: Ty) -> SymValue {
        let (fs, ts) = (from.scalar(), to.scalar());
        match (v, to) {
            (v, Ty::Scalar(Scalar::Bool)) => SymValue::Bool(to_bool(v)),
            (SymValue::Ptr(b, off), Ty::Ptr(_)) => SymValue::Ptr(b, off),
            (SymValue::Bv(x), Ty::Scalar(t))
                if !t.is_float() && !fs.is_some_and(Scalar::is_float) =>
            {
                let (fw, tw) = (x.get_size(), t.size() * 8);
                SymValue::Bv(if tw < fw {
                    x.extract(tw - 1, 0)
                } else if tw == fw {
                    x
                } else if fs.is_some_and(Scalar::is_signed) {
                    x.sign_ext(tw - fw)
                } else {
                    x.zero_ext(tw - fw)
                })
            }
            (SymValue::Bool(c), Ty::Scalar(t)) if !t.is_float() => {
                let w = t.size() * 8;
                SymValue::Bv(c.ite(&bv(1, w), &bv(0, w)))
            }
            _ => {
                let _ = ts;
                self.fresh(to, "cast")
            }
        }
    }

    fn binary(&self, op: BinOp, ty: Ty, a: SymValue, b: SymValue, operand_ty: Ty) -> SymValue {
        let signed = operand_ty.scalar().is_some_and(Scalar::is_signed);
        let float = operand_ty.scalar().is_some_and(Scalar::is_float);
        match (op, a, b) {
            (BinOp::PtrAdd, SymValue::Ptr(base, off), SymValue::Bv(d)) => {
                SymValue::Ptr(base, off.bvadd(resize(d, 64, true)))
            }
            (BinOp::LAnd, x, y) => SymValue::Bool(Bool::and(&[to_bool(x), to_bool(y)])),
            (BinOp::LOr, x, y) => SymValue::Bool(Bool::or(&[to_bool(x), to_bool(y)])),
            (_, SymValue::Bv(x), SymValue::Bv(y)) if !float && x.get_size() == y.get_size() => {
                let cmp = |c: Bool| SymValue::Bool(c);
                match op {
                    BinOp::Add => SymValue::Bv(x.bvadd(&y)),
                    BinOp::Sub => SymValue::Bv(x.bvsub(&y)),
                    BinOp::Mul => SymValue::Bv(x.bvmul(&y)),
                    BinOp::Div if signed => SymValue::Bv(x.bvsdiv(&y)),
                    BinOp::Div => SymValue::Bv(x.bvudiv(&y)),
                    BinOp::Rem if signed => SymValue::Bv(x.bvsrem(&y)),
                    BinOp::Rem => SymValue::Bv(x.bvurem(&y)),
                    BinOp::Shl => SymValue::Bv(x.bvshl(&y)),
                    BinOp::Shr if signed => SymValue::Bv(x.bvashr(&y)),
                    BinOp::Shr => SymValue::Bv(x.bvlshr(&y)),
                    BinOp::And => SymValue::Bv(x.bvand(&y)),
                    BinOp::Or => SymValue::Bv(x.bvor(&y)),
                    BinOp::Xor => SymValue::Bv(x.bvxor(&y)),
                    BinOp::Eq => cmp(x.eq(&y)),
                    BinOp::Ne => cmp(x.eq(&y).not()),
                    BinOp::Lt if signed => cmp(x.bvslt(&y)),
                    BinOp::Lt => cmp(x.bvult(&y)),
                    BinOp::Le if signed => cmp(x.bvsle(&y)),
                    BinOp::Le => cmp(x.bvule(&y)),
                    BinOp::Gt if signed => cmp(x.bvsgt(&y)),
                    BinOp::Gt => cmp(x.bvugt(&y)),
                    BinOp::Ge if signed => cmp(x.bvsge(&y)),
                    BinOp::Ge => cmp(x.bvuge(&y)),
                    BinOp::Min if signed => SymValue::Bv(x.bvslt(&y).ite(&x, &y)),
                    BinOp::Min => SymValue::Bv(x.bvult(&y).ite(&x, &y)),
                    BinOp::Max if signed => SymValue::Bv(x.bvsgt(&y).ite(&x, &y)),
                    BinOp::Max => SymValue::Bv(x.bvugt(&y).ite(&x, &y)),
                    _ => self.fresh(ty, "binary"),
                }
            }
            (BinOp::Eq, SymValue::Bool(x), SymValue::Bool(y)) => SymValue::Bool(x.eq(&y)),
            (BinOp::Ne, SymValue::Bool(x), SymValue::Bool(y)) => SymValue::Bool(x.eq(&y).not()),
            (BinOp::Eq | BinOp::Ne, SymValue::Ptr(b1, x), SymValue::Ptr(b2, y))
                if b1 == b2 && b1 != Base::Unknown =>
            {
                let eq = x.eq(&y);
                SymValue::Bool(if op == BinOp::Eq { eq } else { eq.not() })
            }
            (BinOp::PtrDiff, SymValue::Ptr(b1, x), SymValue::Ptr(b2, y))
                if b1 == b2 && b1 != Base::Unknown =>
            {
                SymValue::Bv(x.bvsub(&y))
            }
            _ => self.fresh(ty, "binary"),
        }
    }
}

#[derive(Clone, Copy)]
enum IndKind {
    Add,
    Sub,
    Shl,
    LShr,
    AShr,
}

struct Induction {
    kind: IndKind,
    step: BV,
    /// The update is done in the counter's own type, so a signed counter's overflow would be
    /// undefined behaviour (not so through a cast: `i += blockDim.x` adds as unsigned).
    own: bool,
}

/// A loop test's bound on a counter (`Executor::guards`).
struct Guard {
    bound: SymValue,
    /// The comparison is signed.
    signed: bool,
    /// `<=`/`>=` rather than `<`/`>`.
    inclusive: bool,
}

/// The local a comparison operand is, directly or through an integer cast of the same width.
fn counter_of(e: &Expr) -> Option<LocalId> {
    let same_width = |a: &Expr| {
        a.ty.scalar().map(Scalar::size) == e.ty.scalar().map(Scalar::size)
            && e.ty.scalar().is_some_and(|s| !s.is_float())
    };
    match &e.kind {
        ExprKind::Local(l) => Some(*l),
        ExprKind::Cast(a) if same_width(a) => match a.kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        },
        _ => None,
    }
}

/// A counter update `x = x op c`, possibly through integer casts (`i += blockDim.x` on an
/// `int` is `i = (int)((unsigned)i + blockDim.x)`).
struct CounterUpdate<'e> {
    op: BinOp,
    rhs: &'e Expr,
    /// The operator's operands are signed (arithmetic right shift, signed division).
    signed: bool,
    own: bool,
}

/// `value` as an update of `dst` whose result, truncated to the counter's width, is the
/// update done in that width. Casts that widen before adding, subtracting or shifting left
/// keep that property (the low bits of a sum do not depend on the high bits); right shifts
/// and divisions only through casts that keep the width.
fn counter_update(value: &Expr, dst: LocalId, ty: Ty) -> Option<CounterUpdate<'_>> {
    let int = |t: Ty| t.scalar().filter(|s| !s.is_float() && *s != Scalar::Bool);
    let w = int(ty)?.size();
    let (inner, cast) = match &value.kind {
        ExprKind::Cast(e) => (&**e, true),
        _ => (value, false),
    };
    let ExprKind::Binary(op, a, rhs) = &inner.kind else {
        return None;
    };
    let (counter, cast_in) = match &a.kind {
        ExprKind::Cast(e) => (&**e, true),
        _ => (&**a, false),
    };
    if !matches!(counter.kind, ExprKind::Local(l) if l == dst) {
        return None;
    }
    let op_w = int(inner.ty)?.size();
    int(a.ty)?;
    let exact = match op {
        BinOp::Add | BinOp::Sub | BinOp::Shl | BinOp::Mul => op_w >= w,
        BinOp::Shr | BinOp::Div => op_w == w,
        _ => false,
    };
    exact.then(|| CounterUpdate {
        op: *op,
        rhs,
        signed: inner.ty.scalar().is_some_and(Scalar::is_signed),
        own: !cast && !cast_in,
    })
}

impl Induction {
    /// The value after `n` updates from `start`.
    fn at(&self, start: &SymValue, n: &BV) -> SymValue {
        let SymValue::Bv(x0) = start else {
            return start.clone();
        };
        let w = x0.get_size();
        let n = resize(n.clone(), w, false);
        let step = resize(self.step.clone(), w, false);
        SymValue::Bv(match self.kind {
            IndKind::Add => x0.bvadd(n.bvmul(&step)),
            IndKind::Sub => x0.bvsub(n.bvmul(&step)),
            IndKind::Shl => x0.bvshl(shift_total(&n, &step, w)),
            IndKind::LShr => x0.bvlshr(shift_total(&n, &step, w)),
            IndKind::AShr => x0.bvashr(shift_total(&n, &step, w)),
        })
    }
}

impl Induction {
    /// `start ± n * step` computed without overflow, signed or unsigned, for `Add`/`Sub`
    /// counters.
    fn no_overflow(&self, start: &SymValue, n: &BV, signed: bool) -> Option<Bool> {
        let SymValue::Bv(x0) = start else { return None };
        let w = x0.get_size();
        // The iteration count itself fits the counter's type (so truncating it is exact).
        let n64 = resize(n.clone(), 64, false);
        let max = if signed {
            (1u64 << (w - 1)) - 1
        } else {
            u64::MAX >> (64 - w)
        };
        let n_fits = n64.bvule(bv(max, 64));
        let n = resize(n.clone(), w, false);
        let step = resize(self.step.clone(), w, false);
        let prod = n.bvmul(&step);
        let mut ok = vec![n_fits, n.bvmul_no_overflow(&step, signed)];
        match self.kind {
            IndKind::Add => ok.push(x0.bvadd_no_overflow(&prod, signed)),
            IndKind::Sub => ok.push(x0.bvsub_no_underflow(&prod, signed)),
            _ => return None,
        }
        if signed {
            ok.push(n.bvmul_no_underflow(&step));
            ok.push(match self.kind {
                IndKind::Add => x0.bvadd_no_underflow(&prod),
                _ => x0.bvsub_no_overflow(&prod),
            });
        }
        Some(Bool::and(&ok))
    }

    /// When the loop's test bounds this counter, `i < b` for one going up or `i > b` for one
    /// going down (or `<=`, `>=`), with `b` the same in every iteration: a counter that
    /// passed the test in every iteration so far cannot have wrapped around unless a step
    /// from just inside the bound can jump past the type's end. So, unless `b ± step`
    /// overflows, `start ± n * step` is exact for every iteration `n` up to the trip count
    /// (the last step leaves from an iteration that passed the test). Holds only for loops
    /// that test before each iteration.
    fn guarded(&self, start: &SymValue, guard: &Guard, n: &BV) -> Option<Bool> {
        let SymValue::Bv(b) = &guard.bound else {
            return None;
        };
        let w = b.get_size();
        let step = resize(self.step.clone(), w, false);
        let zero = bv(0, w);
        let one = bv(1, w);
        let signed = guard.signed;
        let positive = if signed {
            step.bvsgt(&zero)
        } else {
            step.eq(&zero).not()
        };
        // The last value that passes the test, and the step from it.
        let (last_ok, next_ok) = match (&self.kind, guard.inclusive) {
            (IndKind::Add, true) => (Bool::from_bool(true), b.bvadd_no_overflow(&step, signed)),
            (IndKind::Add, false) => {
                let last = b.bvsub(&one);
                (
                    b.bvsub_no_underflow(&one, signed),
                    last.bvadd_no_overflow(&step, signed),
                )
            }
            (IndKind::Sub, true) => (Bool::from_bool(true), b.bvsub_no_underflow(&step, signed)),
            (IndKind::Sub, false) => {
                let last = b.bvadd(&one);
                (
                    b.bvadd_no_overflow(&one, signed),
                    last.bvsub_no_underflow(&step, signed),
                )
            }
            _ => return None,
        };
        let premise = Bool::and(&[positive, last_ok, next_ok]);
        let exact = self.no_overflow(start, n, signed)?;
        Some(premise.implies(&exact))
    }
}

/// `n * step`, saturated at the width so that huge products do not wrap to small shifts.
fn shift_total(n: &BV, step: &BV, w: u32) -> BV {
    let wide = n.zero_ext(w).bvmul(step.zero_ext(w));
    let cap = bv(w as u64, 2 * w);
    wide.bvugt(&cap)
        .ite(&bv(w as u64, w), &wide.extract(w - 1, 0))
}

fn resize(x: BV, w: u32, signed: bool) -> BV {
    let fw = x.get_size();
    if fw == w {
        x
    } else if fw > w {
        x.extract(w - 1, 0)
    } else if signed {
        x.sign_ext(w - fw)
    } else {
        x.zero_ext(w - fw)
    }
}

fn dim(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

pub fn to_bool(v: SymValue) -> Bool {
    match v {
        SymValue::Bool(b) => b,
        SymValue::Bv(x) => {
            let w = x.get_size();
            x.eq(bv(0, w)).not()
        }
        SymValue::Ptr(_, off) => off.eq(bv(0, 64)).not(),
    }
}

/// The state after an `if` both of whose branches can run and ran to their end: the path
/// condition before the `if`, each value chosen by the branch condition `c`. `merge` would give
/// the same where that path condition holds, but with a path condition that grows by both
/// branches' at every `if` (`(pc && c) || (pc && !c)`) and values chosen by whole path
/// conditions: straight-line code calling a device function with a branch (`__half`
/// arithmetic) doubled its formulas at each call.
fn rejoin(pc: Bool, c: &Bool, t: State, e: State) -> State {
    let pick = |a: &BV, b: &BV| if a == b { a.clone() } else { c.ite(a, b) };
    let mut then_values = t.env.into_iter();
    State {
        env: e
            .env
            .into_iter()
            .map(|y| match then_values.next() {
                Some(x) if !same(&x, &y) => join(c, x, y),
                _ => y,
            })
            .collect(),
        pc,
        exited: match t.exited == e.exited {
            true => e.exited,
            false => c.ite(&t.exited, &e.exited),
        },
        b: pick(&t.b, &e.b),
        w: pick(&t.w, &e.w),
    }
}

/// Joins states reaching one point; each state's values count where its path condition holds.
fn merge(states: Vec<State>, infeasible: &mut Infeasible) -> State {
    join_states(states, infeasible, None)
}

/// `merge`, with `whole`, the path condition the states' own add up to where that is known
/// (a scope that no path left other than through its end or its own exits).
fn join_states(states: Vec<State>, infeasible: &mut Infeasible, whole: Option<Bool>) -> State {
    let mut live: Vec<State> = states
        .into_iter()
        .filter(|s| !infeasible.is_false(&s.pc))
        .collect();
    match live.len() {
        0 => State {
            env: Vec::new(),
            pc: Bool::from_bool(false),
            exited: Bool::from_bool(false),
            b: count(0),
            w: count(0),
        },
        1 => live.pop().expect("one state"),
        _ => {
            let pc = whole.unwrap_or_else(|| {
                Bool::or(&live.iter().map(|s| s.pc.clone()).collect::<Vec<_>>())
            });
            let mut acc = live.pop().expect("several states");
            for s in live.into_iter().rev() {
                let c = s.pc.clone();
                for (v, slot) in s.env.into_iter().zip(acc.env.iter_mut()) {
                    if !same(&v, slot) {
                        *slot = join(&c, v, slot.clone());
                    }
                }
                if s.b != acc.b {
                    acc.b = c.ite(&s.b, &acc.b);
                }
                if s.w != acc.w {
                    acc.w = c.ite(&s.w, &acc.w);
                }
                if s.exited != acc.exited {
                    acc.exited = c.ite(&s.exited, &acc.exited);
                }
            }
            acc.pc = pc;
            acc
        }
    }
}

/// Whether two values are one term: most locals are untouched on every path, and the pointer
/// comparison spares the clones and sort queries of `join` (altis `MaxFlops` inlines thousands
/// of locals through hundreds of branches).
fn same(a: &SymValue, b: &SymValue) -> bool {
    match (a, b) {
        (SymValue::Bv(x), SymValue::Bv(y)) => x == y,
        (SymValue::Bool(x), SymValue::Bool(y)) => x == y,
        (SymValue::Ptr(b1, x), SymValue::Ptr(b2, y)) => b1 == b2 && x == y,
        _ => false,
    }
}

fn join(c: &Bool, a: SymValue, b: SymValue) -> SymValue {
    match (a, b) {
        (SymValue::Bv(x), SymValue::Bv(y)) if x.get_size() == y.get_size() => {
            if x == y {
                SymValue::Bv(x)
            } else {
                SymValue::Bv(c.ite(&x, &y))
            }
        }
        (SymValue::Bool(x), SymValue::Bool(y)) if x == y => SymValue::Bool(x),
        (SymValue::Bool(x), SymValue::Bool(y)) => SymValue::Bool(c.ite(&x, &y)),
        (SymValue::Ptr(b1, x), SymValue::Ptr(b2, y)) if b1 == b2 && x == y => SymValue::Ptr(b1, x),
        (SymValue::Ptr(b1, x), SymValue::Ptr(b2, y)) if b1 == b2 => {
            SymValue::Ptr(b1, c.ite(&x, &y))
        }
        (SymValue::Ptr(_, x), SymValue::Ptr(_, y)) => SymValue::Ptr(Base::Unknown, c.ite(&x, &y)),
        (a, _) => a,
    }
}

pub(super) fn assigned_locals(b: &Block, out: &mut BTreeSet<LocalId>) {
    walk_stmts(b, &mut |s| match &s.kind {
        StmtKind::Assign { dst, .. } | StmtKind::Warp { dst, .. } => {
            out.insert(*dst);
        }
        StmtKind::Atomic { dst: Some(d), .. } | StmtKind::Barrier { dst: Some(d), .. } => {
            out.insert(*d);
        }
        _ => {}
    });
}

fn invariant(e: &Expr, modified: &BTreeSet<LocalId>) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) => ok &= !modified.contains(l),
        ExprKind::Load { .. } | ExprKind::Opaque { .. } | ExprKind::Call(..) => ok = false,
        _ => {}
    });
    ok
}

/// Every access of these statements, nested ones included.
fn accesses_in(b: &[Stmt], out: &mut BTreeSet<AccessId>) {
    walk_stmts(b, &mut |x| {
        if let StmtKind::Store { access, .. } | StmtKind::Atomic { access, .. } = &x.kind {
            out.insert(*access);
        }
        for e in x.exprs() {
            e.walk(&mut |e| {
                if let ExprKind::Load { access, .. } = &e.kind {
                    out.insert(*access);
                }
            });
        }
    });
}

/// Barriers and warp-or-block syncs one iteration passes, and whether that number is the same
/// in every iteration (all of them at the top level of the loop, outside branches).
fn sync_counts(s: &Stmt) -> (u32, u32, bool) {
    let StmtKind::Loop {
        cond_prelude,
        body,
        step,
        ..
    } = &s.kind
    else {
        return (0, 0, true);
    };
    let mut total_b = 0;
    let mut total_w = 0;
    walk_stmts(std::slice::from_ref(s), &mut |x| match x.kind {
        StmtKind::Barrier { .. } => {
            total_b += 1;
            total_w += 1;
        }
        StmtKind::SyncWarp { .. } => total_w += 1,
        _ => {}
    });
    let (mut top_b, mut top_w) = (0, 0);
    let mut jumps = false;
    for b in [cond_prelude, body, step] {
        top_level_syncs(b, &mut top_b, &mut top_w, &mut jumps);
    }
    let closed = !jumps && top_b == total_b && top_w == total_w;
    (total_b, total_w, closed || total_w == 0)
}

fn top_level_syncs(b: &Block, nb: &mut u32, nw: &mut u32, jumps: &mut bool) {
    for s in b {
        match &s.kind {
            StmtKind::Barrier { .. } => {
                *nb += 1;
                *nw += 1;
            }
            StmtKind::SyncWarp { mask } if matches!(mask.kind, ExprKind::Int(m) if m as u32 == u32::MAX) => {
                *nw += 1
            }
            StmtKind::Scope { body, .. } => top_level_syncs(body, nb, nw, jumps),
            // A `break` ends the loop: every iteration that completes still passes them all.
            StmtKind::Continue | StmtKind::Return | StmtKind::Exit(_) => *jumps = true,
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                for b in [then_body, else_body] {
                    // Leaving a scope the branch itself holds skips no barrier outside it.
                    let mut inner = BTreeSet::new();
                    walk_stmts(b, &mut |x| {
                        if let StmtKind::Scope { id, .. } = &x.kind {
                            inner.insert(*id);
                        }
                    });
                    walk_stmts(b, &mut |x| {
                        *jumps |= match &x.kind {
                            StmtKind::Continue | StmtKind::Return => true,
                            StmtKind::Exit(id) => !inner.contains(id),
                            _ => false,
                        }
                    });
                }
            }
            _ => {}
        }
    }
}

/// What `run_loop` knows of the loop it runs: what it modifies and how, its iteration `j`, its
/// trip count, where it is left, and how its barriers are counted.
struct LoopFrame {
    id: u32,
    modified: BTreeSet<LocalId>,
    inductions: HashMap<LocalId, Induction>,
    guards: HashMap<LocalId, Guard>,
    barriers: u32,
    syncs: u32,
    /// Barrier and sync counts are closed forms of the iteration.
    closed: bool,
    exits: Exits,
    j: BV,
    trips: BV,
    /// The barrier count at the start of iteration `j`, when the loop's barriers vary.
    bstart: Option<UniformFn>,
    /// The thread reaches the loop; it runs iteration `j`.
    entry: Bool,
    runs_j: Bool,
    /// The updates a counter has had after the loop.
    exits_at: BV,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Exits {
    /// Only through its condition.
    None,
    /// Also by `break`s of this loop.
    Breaks,
    /// By a `return` or an exit from a scope around it.
    Other,
}

/// How a loop can be left other than through its condition.
fn early_exits(s: &Stmt) -> Exits {
    let StmtKind::Loop {
        cond_prelude,
        body,
        step,
        ..
    } = &s.kind
    else {
        return Exits::None;
    };
    let mut inner_scopes = BTreeSet::new();
    for b in [cond_prelude, body, step] {
        walk_stmts(b, &mut |x| {
            if let StmtKind::Scope { id, .. } = &x.kind {
                inner_scopes.insert(*id);
            }
        });
    }
    fn go(b: &Block, own_loop: bool, inner: &BTreeSet<ScopeId>, out: &mut Exits) {
        for x in b {
            match &x.kind {
                StmtKind::Break if own_loop && *out == Exits::None => *out = Exits::Breaks,
                StmtKind::Return => *out = Exits::Other,
                StmtKind::Exit(id) if !inner.contains(id) => *out = Exits::Other,
                StmtKind::Loop {
                    cond_prelude,
                    body,
                    step,
                    ..
                } => {
                    for b in [cond_prelude, body, step] {
                        go(b, false, inner, out);
                    }
                }
                _ => {
                    for b in x.blocks() {
                        go(b, own_loop, inner, out);
                    }
                }
            }
        }
    }
    let mut out = Exits::None;
    for b in [cond_prelude, body, step] {
        go(b, true, &inner_scopes, &mut out);
    }
    out
}
