//! Orderings between threads that barriers do not make: a lock (taken with an atomic in a
//! loop, released with a fence and a store), data published with a fence and a flag (write,
//! fence, flag; flag read, read), the last-block pattern (write, fence, ticket atomic; the
//! last block reads). DESIGN.md: a pair such a protocol may order is never a definite race
//! (`unknown`, left to the run), and the same code without the fence or the lock is.
//!
//! Deliberately coarse and syntactic, in program order alone (branch arms apart, loops round),
//! and generous where the PTX model is subtle, since it can only make a verdict less certain.
//! Scopes: a fence or an atomic counts when its scope holds both threads (or, for a fence, a
//! block-scoped one where the kernel also passes a flag on behind a device fence: scoped fences
//! compose through a third thread).
//! - A *lock* is a word that a `atomicCAS`/`atomicExch` whose old value is used takes, and that
//!   the same thread later gives back (a store or an atomic whose old value nobody reads). A
//!   lock orders two accesses when both are in critical sections of it: after the taking
//!   atomic and a fence, before a fence and the giving back. Either thread may take a lock
//!   first, so an access outside (a write after the release, one before the fence that
//!   follows the taking) races with the other's critical section. A thread that gives a lock
//!   back without taking it first hands it on (a semaphore): what it did before its fence is
//!   ordered before what follows any taking of the lock.
//! - A *flag* read is any other strong read that decides something: an atomic whose result is
//!   used, or a load that decides a branch or whether a loop goes round. An access that may
//!   precede a fence and one that may follow a flag read may be ordered. No fence is asked of
//!   the reading side (ScoR's race-free message passing has none, and the PTX model's
//!   "morally strong" reads make it a question this walk cannot settle).
//! - A spin-wait (a volatile or atomic read whose value decides whether its loop goes round,
//!   also through locals: `do { f = *flag; } while (!f);`) and a volatile or atomic write of
//!   the same pair are synchronization.
//!
//! It never proves anything `safe`: it only keeps a replayed race from being called definite;
//! a volatile reduction in a counted loop stays one.

use super::concrete::{self, ConcreteValue};
use super::report::{Protocol, Scope};
use crate::collections::{HashMap, HashSet};
use crate::ir::{
    walk_stmts, Access, AccessId, AccessKind, AtomicOp, Block, Expr, ExprKind, Kernel, LocalId,
    Stmt, StmtKind, SyncScope,
};

/// Where something is in the kernel: its place in a pre-order walk, the loops around it (a
/// statement inside a loop may also follow one after it, in a later iteration) and the branch
/// arms it is in (one thread runs only one arm of a branch, outside a loop around both).
#[derive(Clone, Debug)]
struct Place {
    pos: u32,
    loops: Vec<u32>,
    arms: Vec<(u32, bool)>,
}

impl Place {
    /// Whether one thread may run this, then `later`.
    fn may_precede(&self, later: &Place) -> bool {
        let exclusive = || {
            self.arms
                .iter()
                .any(|&(b, arm)| later.arms.contains(&(b, !arm)))
        };
        self.loops.iter().any(|l| later.loops.contains(l)) || self.pos < later.pos && !exclusive()
    }
}

/// A strong read of a lock or a flag.
#[derive(Clone, Debug)]
struct Acquire {
    place: Place,
    scope: SyncScope,
    /// The array of the lock it takes, once the walk has seen the lock given back.
    lock: Option<String>,
}

#[derive(Default)]
pub struct Protocols {
    /// Indexed by access id; `None` for accesses the walk did not meet.
    accesses: Vec<Option<Place>>,
    acquires: Vec<Acquire>,
    /// Writes that may give a lock back: stores, atomics whose old value nobody reads.
    releases: Vec<(Place, String)>,
    fences: Vec<(Place, SyncScope)>,
    /// Indexed by access id: read in a loop's condition, re-read until its value changes.
    spins: Vec<bool>,
}

impl Protocols {
    pub fn of(k: &Kernel) -> Self {
        let mut w = Walk {
            k,
            out: Protocols {
                accesses: vec![None; k.accesses.len()],
                spins: vec![false; k.accesses.len()],
                ..Protocols::default()
            },
            pos: 0,
            loops: Vec::new(),
            next_loop: 0,
            arms: Vec::new(),
            next_branch: 0,
            in_condition: false,
            spin: HashSet::default(),
            read_locals: HashSet::default(),
            constants: constants(k),
        };
        walk_stmts(&k.body, &mut |s| {
            for e in s.exprs() {
                reads(e, &mut HashSet::default(), &mut w.read_locals);
            }
        });
        w.block(&k.body);
        let mut out = w.out;
        // A word taken but never given back by the taker is a flag (a consuming `atomicExch`).
        let releases = std::mem::take(&mut out.releases);
        for q in &mut out.acquires {
            let given_back = |name: &String| {
                releases
                    .iter()
                    .any(|(r, n)| n == name && q.place.may_precede(r))
            };
            q.lock = q.lock.take().filter(given_back);
        }
        out.releases = releases;
        out
    }

    /// Whether a lock or a fence-and-flag protocol may order `a` and `b`, made by threads
    /// related as `scope` says, and which.
    pub fn may_order(
        &self,
        k: &Kernel,
        a: AccessId,
        b: AccessId,
        scope: Scope,
    ) -> Option<Protocol> {
        let (x, y) = (&k.accesses[a.index()], &k.accesses[b.index()]);
        let strong = |acc: &Access| acc.volatile || acc.kind.is_atomic();
        if (self.spins[a.index()] || self.spins[b.index()]) && strong(x) && strong(y) {
            return Some(Protocol::SpinWait);
        }
        if self.fences.is_empty() {
            return None;
        }
        let place = |x: AccessId| self.accesses.get(x.index()).cloned().flatten();
        let (Some(pa), Some(pb)) = (place(a), place(b)) else {
            // Not met by the walk: nothing is known of its order.
            return Some(Protocol::Flag);
        };
        let order = Order {
            p: self,
            holds_both: scope != Scope::InterBlock,
            passed_on: self.passed_on(),
        };
        if order.by_lock(&pa, &pb) {
            Some(Protocol::Lock)
        } else if order.by_flag(&pa, &pb) || order.by_flag(&pb, &pa) {
            Some(Protocol::Flag)
        } else {
            None
        }
    }

    /// Some thread reads a lock or flag and then passes a device-wide fence: what a block-scoped
    /// release needs to reach another block through that thread.
    fn passed_on(&self) -> bool {
        self.fences.iter().any(|(f, s)| {
            *s != SyncScope::Block && self.acquires.iter().any(|q| q.place.may_precede(f))
        })
    }
}

/// The rules, for one pair of threads.
struct Order<'a> {
    p: &'a Protocols,
    /// Block-scoped fences and atomics hold both threads.
    holds_both: bool,
    passed_on: bool,
}

impl Order<'_> {
    fn holds(&self, s: SyncScope) -> bool {
        s != SyncScope::Block || self.holds_both
    }

    /// A fence that may follow `p` and makes what precedes it visible to the other thread.
    fn fences_after<'b>(&'b self, p: &'b Place) -> impl Iterator<Item = &'b Place> + 'b {
        self.p.fences.iter().filter_map(move |(f, s)| {
            let reaches = self.holds(*s) || *s == SyncScope::Block && self.passed_on;
            (reaches && p.may_precede(f)).then_some(f)
        })
    }

    /// Takings of a lock whose scope holds both threads (`None`: flag reads).
    fn acquires<'b>(&'b self, lock: Option<&'b str>) -> impl Iterator<Item = &'b Acquire> + 'b {
        self.p
            .acquires
            .iter()
            .filter(move |q| self.holds(q.scope) && q.lock.as_deref() == lock)
    }

    fn gives_back(&self, f: &Place, lock: &str) -> bool {
        self.p
            .releases
            .iter()
            .any(|(r, n)| n == lock && f.may_precede(r))
    }

    /// `p` is in a critical section of `lock`: after a taking and a fence, before a fence and
    /// the giving back.
    fn in_critical_section(&self, p: &Place, lock: &str) -> bool {
        let entered = self.acquires(Some(lock)).any(|q| {
            self.p
                .fences
                .iter()
                .any(|(g, s)| self.holds(*s) && q.place.may_precede(g) && g.may_precede(p))
        });
        entered && self.fences_after(p).any(|f| self.gives_back(f, lock))
    }

    fn locks(&self) -> impl Iterator<Item = &str> {
        let mut locks: Vec<&str> = self
            .p
            .acquires
            .iter()
            .filter_map(|q| q.lock.as_deref())
            .collect();
        locks.sort_unstable();
        locks.dedup();
        locks.into_iter()
    }

    /// Both in critical sections of one lock, or one before a thread hands the lock on that
    /// it did not take, the other after a taking of it.
    fn by_lock(&self, a: &Place, b: &Place) -> bool {
        self.locks().any(|lock| {
            let critical = self.in_critical_section(a, lock) && self.in_critical_section(b, lock);
            let handed_on = |x: &Place, y: &Place| {
                let took = self.acquires(Some(lock)).any(|q| q.place.may_precede(x));
                !took
                    && self.fences_after(x).any(|f| self.gives_back(f, lock))
                    && self.acquires(Some(lock)).any(|q| q.place.may_precede(y))
            };
            critical || handed_on(a, b) || handed_on(b, a)
        })
    }

    /// `a` may precede a fence, `b` may follow a flag read.
    fn by_flag(&self, a: &Place, b: &Place) -> bool {
        self.fences_after(a).next().is_some() && self.acquires(None).any(|q| q.place.may_precede(b))
    }
}

struct Walk<'a> {
    k: &'a Kernel,
    out: Protocols,
    pos: u32,
    loops: Vec<u32>,
    next_loop: u32,
    arms: Vec<(u32, bool)>,
    next_branch: u32,
    /// In a loop's or branch's condition: its loads are flag reads (a spin-wait re-reads one).
    in_condition: bool,
    /// Reads whose value decides whether an enclosing loop goes round again (`spin_reads`).
    spin: HashSet<AccessId>,
    /// Every local some expression of the kernel reads.
    read_locals: HashSet<LocalId>,
    /// Locals set once, to a value folded from constants (an inlined function's arguments).
    constants: HashMap<LocalId, ConcreteValue>,
}

impl Walk<'_> {
    fn here(&mut self) -> Place {
        self.pos += 1;
        Place {
            pos: self.pos,
            loops: self.loops.clone(),
            arms: self.arms.clone(),
        }
    }

    /// Walks `b` up to a statement that never goes on to the next (what follows it is dead):
    /// whether `b` may fall through.
    fn block(&mut self, b: &Block) -> bool {
        b.iter().all(|s| self.stmt(s))
    }

    /// The value a branch's condition always has, where the constants fix it.
    fn fixed(&self, cond: &Expr) -> Option<bool> {
        concrete::fold(cond, &|l| self.constants.get(&l).copied()).and_then(concrete::truth_of)
    }

    /// Whether the statement may go on to the next one. A scope or a loop always may (an
    /// exit of an outer scope within it is taken as one of its own: what follows stays live).
    fn stmt(&mut self, s: &Stmt) -> bool {
        if let StmtKind::Loop {
            cond,
            cond_prelude,
            body,
            step,
            ..
        } = &s.kind
        {
            self.loops.push(self.next_loop);
            self.next_loop += 1;
            let outer_spin = self.spin.clone();
            self.spin.extend(spin_reads(s));
            let outer = std::mem::replace(&mut self.in_condition, true);
            self.block(cond_prelude);
            if let Some(c) = cond {
                self.expr(c);
            }
            self.in_condition = outer;
            self.block(body);
            self.block(step);
            self.spin = outer_spin;
            self.loops.pop();
            return true;
        }
        let outer = self.in_condition;
        self.in_condition |= matches!(s.kind, StmtKind::If { .. });
        for e in s.exprs() {
            self.expr(e);
        }
        self.in_condition = outer;
        let here = self.here();
        match &s.kind {
            StmtKind::Store { access, .. } => {
                if let Some(name) = &self.k.accesses[access.index()].array {
                    self.out.releases.push((here.clone(), name.clone()));
                }
                self.out.accesses[access.index()] = Some(here);
            }
            StmtKind::Atomic {
                access, dst, op, ..
            } => {
                self.out.accesses[access.index()] = Some(here.clone());
                self.out.spins[access.index()] |= self.spin.contains(access);
                let acc = &self.k.accesses[access.index()];
                // An atomic whose old value nobody reads (a release, a counter) reads no flag.
                if dst.is_some_and(|d| self.read_locals.contains(&d)) {
                    let scope = match acc.kind {
                        AccessKind::Atomic(s) => s,
                        _ => SyncScope::Device,
                    };
                    let takes = matches!(op, AtomicOp::Cas | AtomicOp::Exch);
                    self.out.acquires.push(Acquire {
                        place: here,
                        scope,
                        lock: acc.array.clone().filter(|_| takes),
                    });
                } else if let Some(name) = &acc.array {
                    self.out.releases.push((here, name.clone()));
                }
            }
            StmtKind::Fence { scope } => self.out.fences.push((here, *scope)),
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let branch = self.next_branch;
                self.next_branch += 1;
                let fixed = self.fixed(cond);
                let mut falls = false;
                for (arm, body) in [(true, then_body), (false, else_body)] {
                    if fixed.is_none_or(|f| f == arm) {
                        self.arms.push((branch, arm));
                        falls |= self.block(body);
                        self.arms.pop();
                    }
                }
                return falls;
            }
            StmtKind::Exit(_) | StmtKind::Return | StmtKind::Break | StmtKind::Continue => {
                return false
            }
            _ => {
                for b in s.blocks() {
                    self.block(b);
                }
            }
        }
        true
    }

    fn expr(&mut self, e: &Expr) {
        e.walk(&mut |x| {
            if let ExprKind::Load { access, .. } = x.kind {
                let here = self.here();
                let spin = self.spin.contains(&access);
                if self.in_condition || spin {
                    self.out.acquires.push(Acquire {
                        place: here.clone(),
                        scope: SyncScope::Device,
                        lock: None,
                    });
                }
                self.out.accesses[access.index()] = Some(here);
                self.out.spins[access.index()] |= spin;
            }
        });
    }
}

/// The locals set once in the kernel, to a value that folds from constants and such locals.
fn constants(k: &Kernel) -> HashMap<LocalId, ConcreteValue> {
    let mut sets: HashMap<LocalId, (u32, Option<&Expr>)> = HashMap::default();
    walk_stmts(&k.body, &mut |s| {
        let (dst, value) = match &s.kind {
            StmtKind::Assign { dst, value } => (*dst, Some(value)),
            StmtKind::Warp { dst, .. }
            | StmtKind::Atomic { dst: Some(dst), .. }
            | StmtKind::Barrier { dst: Some(dst), .. } => (*dst, None),
            _ => return,
        };
        let e = sets.entry(dst).or_insert((0, value));
        e.0 += 1;
    });
    let mut out = HashMap::default();
    loop {
        let before = out.len();
        for (l, (n, value)) in &sets {
            if let (1, Some(e), false) = (n, value, out.contains_key(l)) {
                if let Some(v) = concrete::fold(e, &|x| out.get(&x).copied()) {
                    out.insert(*l, v);
                }
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The reads of a loop whose values decide whether it goes round again: those in its
/// condition, in the condition of a branch that leaves it, and those assigned (through locals,
/// at any depth of the loop) to a local such a condition tests.
fn spin_reads(lp: &Stmt) -> HashSet<AccessId> {
    let StmtKind::Loop {
        cond,
        cond_prelude,
        body,
        step,
        ..
    } = &lp.kind
    else {
        return HashSet::default();
    };
    let mut tests: Vec<&Expr> = cond.iter().collect();
    walk_stmts(cond_prelude, &mut |s| tests.extend(s.exprs()));
    exit_tests(body, &mut tests);
    let mut out = HashSet::default();
    let mut tested: HashSet<LocalId> = HashSet::default();
    for e in &tests {
        reads(e, &mut out, &mut tested);
    }
    // Back through the assignments of the loop until no new local is tested.
    let mut stmts = Vec::new();
    for b in [cond_prelude, body, step] {
        walk_stmts(b, &mut |s| stmts.push(s));
    }
    loop {
        let before = (out.len(), tested.len());
        for s in &stmts {
            match &s.kind {
                StmtKind::Assign { dst, value } if tested.contains(dst) => {
                    reads(value, &mut out, &mut tested)
                }
                StmtKind::Atomic {
                    access,
                    dst: Some(d),
                    ..
                } if tested.contains(d) => {
                    out.insert(*access);
                }
                _ => {}
            }
        }
        if (out.len(), tested.len()) == before {
            return out;
        }
    }
}

/// The conditions of the branches of a loop body that leave the loop (`break`, `return`, a
/// scope exit), not counting those of inner loops, which leave only those.
fn exit_tests<'a>(b: &'a Block, tests: &mut Vec<&'a Expr>) {
    let leaves = |b: &Block| {
        let mut found = false;
        walk_stmts(b, &mut |s| {
            found |= matches!(
                s.kind,
                StmtKind::Break | StmtKind::Return | StmtKind::Exit(_)
            )
        });
        found
    };
    for s in b {
        match &s.kind {
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                if leaves(then_body) || leaves(else_body) {
                    tests.push(cond);
                }
                exit_tests(then_body, tests);
                exit_tests(else_body, tests);
            }
            StmtKind::Scope { body, .. } => exit_tests(body, tests),
            _ => {}
        }
    }
}

/// The loads and locals an expression reads.
fn reads(e: &Expr, loads: &mut HashSet<AccessId>, locals: &mut HashSet<LocalId>) {
    e.walk(&mut |x| match x.kind {
        ExprKind::Load { access, .. } => {
            loads.insert(access);
        }
        ExprKind::Local(l) => {
            locals.insert(l);
        }
        _ => {}
    });
}
