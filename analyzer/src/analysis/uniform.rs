//! Block-uniform values: those every thread of a block holds the same value of at the same point
//! of its execution.
//!
//! - Locals every assignment of which computes from constants, parameters, launch dimensions,
//!   `blockIdx` and other uniform values, under control flow that itself only depends on such
//!   values. The symbolic execution may then give both threads of a pair one value for such a
//!   local in a loop: one uninterpreted function of the block and the iteration numbers, shared
//!   by both symbolic threads (the double-buffer index of a scan, for example).
//! - On request, shared-memory reads at a block-uniform address whose value steers control flow
//!   or an address (a flag that ends a barrier loop, a count of active threads), each one
//!   function of the block and the iterations. That is an assumption: they are the same in
//!   every thread that reads them at the same iterations only if no write races with the
//!   reads, which the caller must then prove (`pairs.rs`: assume, then guarantee).

use crate::ir::*;
use std::collections::BTreeSet;

#[derive(Default)]
pub struct Uniform {
    pub locals: BTreeSet<LocalId>,
    /// Shared reads assumed uniform.
    pub loads: BTreeSet<AccessId>,
}

/// The uniform locals, and with `shared_loads` the shared reads assumed uniform.
pub fn uniform_values(k: &Kernel, shared_loads: bool) -> Uniform {
    // Start from "everything is uniform" and remove until nothing changes.
    let mut u = Uniform {
        locals: (0..k.locals.len() as u32).map(LocalId).collect(),
        loads: if shared_loads {
            steering_shared_loads(k)
        } else {
            BTreeSet::new()
        },
    };
    loop {
        let before = (u.locals.len(), u.loads.len());
        visit(&k.body, true, &mut u);
        if (u.locals.len(), u.loads.len()) == before {
            return u;
        }
    }
}

/// Shared reads whose value reaches a branch or loop condition or an address, directly or
/// through locals.
fn steering_shared_loads(k: &Kernel) -> BTreeSet<AccessId> {
    let mut steering: Vec<&Expr> = Vec::new();
    let mut assigns: Vec<(LocalId, &Expr)> = Vec::new();
    walk_stmts(&k.body, &mut |s| {
        match &s.kind {
            StmtKind::If { cond, .. } => steering.push(cond),
            StmtKind::Loop { cond: Some(c), .. } => steering.push(c),
            StmtKind::Store { addr, .. } | StmtKind::Atomic { addr, .. } => steering.push(addr),
            StmtKind::Assign { dst, value } => assigns.push((*dst, value)),
            _ => {}
        }
        for e in s.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Load { addr, .. } = &x.kind {
                    steering.push(addr);
                }
            });
        }
    });
    let mut locals = BTreeSet::new();
    let mut loads = BTreeSet::new();
    let mut add = |e: &Expr, locals: &mut BTreeSet<LocalId>| {
        e.walk(&mut |x| match &x.kind {
            ExprKind::Local(l) => {
                locals.insert(*l);
            }
            ExprKind::Load { access, .. } if k.accesses[access.index()].space == Space::Shared => {
                loads.insert(*access);
            }
            _ => {}
        })
    };
    for e in steering {
        add(e, &mut locals);
    }
    loop {
        let before = locals.len();
        for (dst, value) in &assigns {
            if locals.contains(dst) {
                add(value, &mut locals);
            }
        }
        if locals.len() == before {
            return loads;
        }
    }
}

fn visit(b: &Block, ctx_uniform: bool, u: &mut Uniform) {
    for s in b {
        match &s.kind {
            StmtKind::Assign { dst, value } if !ctx_uniform || !is_uniform(value, u) => {
                u.locals.remove(dst);
            }
            StmtKind::Atomic { dst: Some(d), .. }
            | StmtKind::Barrier { dst: Some(d), .. }
            | StmtKind::Warp { dst: d, .. } => {
                u.locals.remove(d);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = ctx_uniform && is_uniform(cond, u);
                visit(then_body, c, u);
                visit(else_body, c, u);
            }
            StmtKind::Loop {
                cond,
                cond_prelude,
                body,
                step,
                ..
            } => {
                let mut c = ctx_uniform && cond.as_ref().is_none_or(|c| is_uniform(c, u));
                // A `break` or `continue` under a thread-dependent condition makes the
                // iterations thread-dependent too.
                c &= !has_divergent_jump(body, u);
                for blk in [cond_prelude, body, step] {
                    visit(blk, c, u);
                }
            }
            StmtKind::Scope { body, .. } => {
                let c = ctx_uniform && !has_divergent_jump(body, u);
                visit(body, c, u);
            }
            _ => {}
        }
        // A read is the same in every thread only at a uniform address.
        for e in s.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Load { access, addr } = &x.kind {
                    if u.loads.contains(access) && !is_uniform(addr, u) {
                        u.loads.remove(access);
                    }
                }
            });
        }
    }
}

/// A jump (`break`, `continue`, `return`, scope exit) under a condition not known uniform.
fn has_divergent_jump(b: &Block, u: &Uniform) -> bool {
    fn go(b: &Block, cond_uniform: bool, u: &Uniform) -> bool {
        b.iter().any(|s| match &s.kind {
            StmtKind::Break | StmtKind::Continue | StmtKind::Return | StmtKind::Exit(_) => {
                !cond_uniform
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = cond_uniform && is_uniform(cond, u);
                go(then_body, c, u) || go(else_body, c, u)
            }
            StmtKind::Loop {
                body,
                cond_prelude,
                step,
                ..
            } => {
                go(body, cond_uniform, u)
                    || go(cond_prelude, cond_uniform, u)
                    || go(step, cond_uniform, u)
            }
            StmtKind::Scope { body, .. } => go(body, cond_uniform, u),
            _ => false,
        })
    }
    go(b, true, u)
}

fn is_uniform(e: &Expr, u: &Uniform) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) => ok &= u.locals.contains(l),
        ExprKind::Special(Special::ThreadIdx(_)) => ok = false,
        ExprKind::Load { access, .. } => ok &= u.loads.contains(access),
        ExprKind::Opaque { .. } => ok = false,
        ExprKind::Call(i, _) => {
            ok &= !matches!(i, Intrinsic::Clock | Intrinsic::Random | Intrinsic::Texture)
        }
        _ => {}
    });
    ok
}
