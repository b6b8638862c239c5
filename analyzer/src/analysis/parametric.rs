//! Locals whose value may depend on the launch's parameters: scalar kernel parameters and the
//! launch extents (`blockDim`, `gridDim`), through what is assigned to them or the conditions
//! they are assigned under (a branch, a loop's test, a jump out of a loop).
//!
//! Where the symbolic execution stands a fresh value in for such a local (a loop changes it,
//! but not by a fixed step), a race whose address goes through it cannot be shown to hold for
//! every value of those parameters (`pairs.rs`' certainty): the witness fixed the stand-in, the
//! program computes it from them. A stand-in for any other local (a stride halved from a
//! constant, a thread index stepped under a thread-dependent branch) hides no parameter.

use crate::ir::*;
use std::collections::BTreeSet;

/// The locals that may depend on a scalar parameter or a launch extent.
pub fn parametric_locals(k: &Kernel) -> BTreeSet<LocalId> {
    let mut out = BTreeSet::new();
    loop {
        let before = out.len();
        visit(&k.body, false, &mut out);
        if out.len() == before {
            return out;
        }
    }
}

/// `under`: whether the statements run under a condition that depends on a parameter.
fn visit(b: &Block, under: bool, out: &mut BTreeSet<LocalId>) {
    for s in b {
        let depends_here = || under || s.exprs().iter().any(|e| depends(e, out));
        match &s.kind {
            StmtKind::Assign { dst, .. }
            | StmtKind::Atomic { dst: Some(dst), .. }
            | StmtKind::Barrier { dst: Some(dst), .. }
            | StmtKind::Warp { dst, .. }
                if depends_here() =>
            {
                out.insert(*dst);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = under || depends(cond, out);
                visit(then_body, c, out);
                visit(else_body, c, out);
            }
            StmtKind::Loop {
                cond,
                cond_prelude,
                body,
                step,
                ..
            } => {
                // How often the loop runs decides what its locals hold after it.
                let c = under
                    || cond.as_ref().is_some_and(|c| depends(c, out))
                    || jumps_under_parameters(body, false, out);
                for blk in [cond_prelude, body, step] {
                    visit(blk, c, out);
                }
            }
            StmtKind::Scope { body, .. } => visit(body, under, out),
            _ => {}
        }
    }
}

/// A `break`, `continue`, `return` or scope exit under a condition that depends on a parameter.
fn jumps_under_parameters(b: &Block, under: bool, out: &BTreeSet<LocalId>) -> bool {
    b.iter().any(|s| match &s.kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Return | StmtKind::Exit(_) => under,
        StmtKind::If {
            cond,
            then_body,
            else_body,
        } => {
            let c = under || depends(cond, out);
            jumps_under_parameters(then_body, c, out) || jumps_under_parameters(else_body, c, out)
        }
        StmtKind::Scope { body, .. } => jumps_under_parameters(body, under, out),
        // An inner loop's jumps too: a `return` there leaves this loop as well.
        StmtKind::Loop { cond, body, .. } => {
            let c = under || cond.as_ref().is_some_and(|c| depends(c, out));
            jumps_under_parameters(body, c, out)
        }
        _ => false,
    })
}

/// Whether `e` reads a scalar parameter, a launch extent or a parametric local.
fn depends(e: &Expr, out: &BTreeSet<LocalId>) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= match &x.kind {
            ExprKind::Param(_) => x.ty.scalar().is_some(),
            ExprKind::Special(Special::BlockDim(_) | Special::GridDim(_)) => true,
            ExprKind::Local(l) => out.contains(l),
            _ => false,
        };
    });
    found
}
