//! Block-uniform locals: those every thread of a block holds the same value of at the same point
//! of its execution, because every assignment to them computes from constants, parameters,
//! launch dimensions, `blockIdx` and other uniform locals, under control flow that itself only
//! depends on such values. The symbolic execution may then give both threads of a pair one
//! value for such a local in a loop (a function of the block and the iteration).

use crate::ir::*;
use std::collections::BTreeSet;

pub fn uniform_locals(k: &Kernel) -> BTreeSet<LocalId> {
    // Start from "every local is uniform" and remove until nothing changes.
    let mut uniform: BTreeSet<LocalId> = (0..k.locals.len() as u32).map(LocalId).collect();
    loop {
        let before = uniform.len();
        visit(&k.body, true, &mut uniform);
        if uniform.len() == before {
            return uniform;
        }
    }
}

fn visit(b: &Block, ctx_uniform: bool, u: &mut BTreeSet<LocalId>) {
    for s in b {
        match &s.kind {
            StmtKind::Assign { dst, value } if !ctx_uniform || !is_uniform(value, u) => {
                u.remove(dst);
            }
            StmtKind::Atomic { dst: Some(d), .. }
            | StmtKind::Barrier { dst: Some(d), .. }
            | StmtKind::Warp { dst: d, .. } => {
                u.remove(d);
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
    }
}

/// A jump (`break`, `continue`, `return`, scope exit) under a condition not known uniform.
fn has_divergent_jump(b: &Block, u: &BTreeSet<LocalId>) -> bool {
    fn go(b: &Block, cond_uniform: bool, u: &BTreeSet<LocalId>) -> bool {
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

fn is_uniform(e: &Expr, u: &BTreeSet<LocalId>) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) => ok &= u.contains(l),
        ExprKind::Special(Special::ThreadIdx(_)) => ok = false,
        ExprKind::Load { .. } | ExprKind::Opaque { .. } => ok = false,
        ExprKind::Call(i, _) => {
            ok &= !matches!(i, Intrinsic::Clock | Intrinsic::Random | Intrinsic::Texture)
        }
        _ => {}
    });
    ok
}
