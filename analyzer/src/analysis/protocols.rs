//! Orderings between threads that barriers do not make: a lock (taken with an atomic in a
//! loop, released with a fence and a store), data published with a fence and a flag (write,
//! fence, flag; flag read, read), the last-block pattern (write, fence, ticket atomic; the
//! last block reads). DESIGN.md: a pair such a protocol may order is never a definite race
//! (`unknown`, left to the run), and the same code without the fence or the lock is.
//!
//! Deliberately coarse and syntactic, in program order alone (branch arms apart, loops round),
//! and generous where the PTX model is subtle, since it can only make a verdict less certain:
//! a pair *may be ordered* when one access may precede a fence of a scope holding both threads
//! (or a block-scoped fence, where the kernel also passes a flag on behind a device fence:
//! scoped fences compose through a third thread), and the other may follow a strong read of a
//! lock or flag of such a scope (an atomic whose result is used, or a load that decides a branch
//! or whether a loop goes round). No fence is asked of the reading side. A spin-wait (a
//! volatile or atomic read whose value decides whether its loop goes round, also through
//! locals: `do { f = *flag; } while (!f);`) and a volatile or atomic write of the same pair are
//! synchronization. It never proves anything `safe`: it only keeps a replayed race from being
//! called definite; a volatile reduction in a counted loop stays one.

use super::report::Scope;
use crate::ir::{
    walk_stmts, Access, AccessId, AccessKind, Block, Expr, ExprKind, Kernel, LocalId, Stmt,
    StmtKind, SyncScope,
};
use std::collections::HashSet;

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

#[derive(Default)]
pub struct Protocols {
    /// Indexed by access id; `None` for accesses the walk did not meet.
    accesses: Vec<Option<Place>>,
    /// Strong reads of a lock or a flag, with their scope.
    acquires: Vec<(Place, SyncScope)>,
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
            spin: HashSet::new(),
            read_locals: HashSet::new(),
        };
        walk_stmts(&k.body, &mut |s| {
            for e in s.exprs() {
                reads(e, &mut HashSet::new(), &mut w.read_locals);
            }
        });
        w.block(&k.body);
        w.out
    }

    /// Whether a lock or a fence-and-flag protocol may order `a` and `b`, made by threads
    /// related as `scope` says.
    pub fn may_order(&self, k: &Kernel, a: AccessId, b: AccessId, scope: Scope) -> bool {
        let (x, y) = (&k.accesses[a.index()], &k.accesses[b.index()]);
        let strong = |acc: &Access| acc.volatile || acc.kind.is_atomic();
        if (self.spins[a.index()] || self.spins[b.index()]) && strong(x) && strong(y) {
            return true;
        }
        if self.fences.is_empty() {
            return false;
        }
        let place = |x: AccessId| self.accesses.get(x.index()).cloned().flatten();
        let (Some(pa), Some(pb)) = (place(a), place(b)) else {
            // Not met by the walk: nothing is known of its order.
            return true;
        };
        let holds_both = |s: SyncScope| s != SyncScope::Block || scope != Scope::InterBlock;
        let passed_on = self.passed_on();
        let released = |p: &Place| {
            self.fences.iter().any(|(f, s)| {
                p.may_precede(f) && (holds_both(*s) || *s == SyncScope::Block && passed_on)
            })
        };
        let acquired = |p: &Place| {
            self.acquires
                .iter()
                .any(|(q, s)| holds_both(*s) && q.may_precede(p))
        };
        released(&pa) && acquired(&pb) || released(&pb) && acquired(&pa)
    }

    /// Some thread reads a lock or flag and then passes a device-wide fence: what a block-scoped
    /// release needs to reach another block through that thread.
    fn passed_on(&self) -> bool {
        self.fences.iter().any(|(f, s)| {
            *s != SyncScope::Block && self.acquires.iter().any(|(q, _)| q.may_precede(f))
        })
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

    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
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
            return;
        }
        let outer = self.in_condition;
        self.in_condition |= matches!(s.kind, StmtKind::If { .. });
        for e in s.exprs() {
            self.expr(e);
        }
        self.in_condition = outer;
        let here = self.here();
        match &s.kind {
            StmtKind::Store { access, .. } => self.out.accesses[access.index()] = Some(here),
            StmtKind::Atomic { access, dst, .. } => {
                self.out.accesses[access.index()] = Some(here.clone());
                self.out.spins[access.index()] |= self.spin.contains(access);
                // An atomic whose old value nobody reads (a release, a counter) reads no flag.
                if dst.is_some_and(|d| self.read_locals.contains(&d)) {
                    let scope = match self.k.accesses[access.index()].kind {
                        AccessKind::Atomic(s) => s,
                        _ => SyncScope::Device,
                    };
                    self.out.acquires.push((here, scope));
                }
            }
            StmtKind::Fence { scope } => self.out.fences.push((here, *scope)),
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                let branch = self.next_branch;
                self.next_branch += 1;
                for (arm, body) in [(true, then_body), (false, else_body)] {
                    self.arms.push((branch, arm));
                    self.block(body);
                    self.arms.pop();
                }
            }
            _ => {
                for b in s.blocks() {
                    self.block(b);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        e.walk(&mut |x| {
            if let ExprKind::Load { access, .. } = x.kind {
                let here = self.here();
                let spin = self.spin.contains(&access);
                if self.in_condition || spin {
                    self.out.acquires.push((here.clone(), SyncScope::Device));
                }
                self.out.accesses[access.index()] = Some(here);
                self.out.spins[access.index()] |= spin;
            }
        });
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
        return HashSet::new();
    };
    let mut tests: Vec<&Expr> = cond.iter().collect();
    walk_stmts(cond_prelude, &mut |s| tests.extend(s.exprs()));
    exit_tests(body, &mut tests);
    let mut out = HashSet::new();
    let mut tested: HashSet<LocalId> = HashSet::new();
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
