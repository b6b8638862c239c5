//! Unsigned arithmetic on the block's position that wraps 2^32: what no launch a program makes on
//! purpose does, under extents left open.
//!
//! Two uses, both through facts `symbolic.rs` records as the thread meets the operation, and
//! neither to prove anything. The facts of `Scaling` (`ThreadSummary::plausible`) choose among
//! witnesses: a model that breaks one is asked for again with it, and without another the pair
//! stays `unknown`. They are the shapes for which that extra solving is cheap. Every `+`, `*`
//! and `<<` by a constant of unsigned values one of which reads the block's position gives a
//! fact of the other kind (`ThreadSummary::unwrapped`), only ever evaluated on a witness
//! already found: a race whose witness breaks one is at most `conditional` (`pairs.rs`'s
//! `certainty`). Without it, a guard such as `if (THREADID < N)` made such a race "definite":
//! once the row `blockIdx.y` of a grid of `2^32 / blockDim.x` blocks per row wraps back to `0`,
//! every grid width under which both threads pass the guard is one under which they race, and
//! the certainty query saw nothing else to vary (HeCBench `rayleighBenardConvection`, grids of
//! billions of blocks).

use crate::ir::*;
use z3::ast::{Bool, BV};

/// How `a op b` scales the block's position in unsigned arithmetic: `+`, `*` or `<<` of a value
/// computed from the block's position or the launch's extents and a constant
/// (`blockIdx.x * blockDim.x * 4`, `blockIdx.x << 10`), or `*` of such a value and one computed
/// from neither (`blockIdx.x * stride`, each block's slice of a buffer). Such an index wraps
/// only under a grid that covers 2^32 elements, which `plausible` rules out of witnesses under
/// open extents. A comparison with a constant says it does not wrap at little cost to the
/// solver, a product of two unknowns at more, paid only by a witness that wraps; sums of two
/// such values are left out (they cost much, and choosing witnesses by them once turned two
/// conditional races definite, before `unwrapped` facts existed), and a product of two extents
/// fits already (every global thread index fits in 32 bits).
pub(super) enum Scaling {
    /// `+` a constant; the constant, and whether it is the right operand.
    Sum(u64, bool),
    /// `*` a constant, likewise.
    ByConstant(u64, bool),
    /// `*` a value that does not read the block's position.
    ByValue,
}

impl Scaling {
    /// That the operation does not wrap, over the operands' values `x` and `y`.
    fn no_wrap(&self, x: &BV, y: &BV) -> Option<Bool> {
        let (Scaling::Sum(c, right) | Scaling::ByConstant(c, right)) = *self else {
            return Some(x.bvmul_no_overflow(y, false));
        };
        let v = if right { x } else { y };
        let w = v.get_size();
        if w > 64 {
            return None;
        }
        let max = u64::MAX >> (64 - w);
        let limit = match self {
            Scaling::Sum(..) => max.saturating_sub(c),
            _ => max.checked_div(c).unwrap_or(max),
        };
        Some(v.bvule(BV::from_u64(limit, w)))
    }
}

/// That `a op b`, computed as `x op y`, does not wrap, where it is unsigned arithmetic on the
/// block's position; and whether the fact is one of `Scaling`'s, which choose witnesses.
pub(super) struct NoWrap {
    pub fits: Bool,
    pub plausibility: bool,
}

/// `Scaling`'s facts, and with `every` the others too.
pub(super) fn no_wrap(
    op: BinOp,
    (a, b): (&Expr, &Expr),
    (x, y): (&BV, &BV),
    every: bool,
) -> Option<NoWrap> {
    if x.get_size() != y.get_size() {
        return None;
    }
    if let Some(s) = scales_position(op, a, b) {
        return s.no_wrap(x, y).map(|fits| NoWrap {
            fits,
            plausibility: true,
        });
    }
    if !every || !unsigned_on_position(a, b) {
        return None;
    }
    let fits = match op {
        BinOp::Add => x.bvadd_no_overflow(y, false),
        BinOp::Mul => x.bvmul_no_overflow(y, false),
        _ => return None,
    };
    Some(NoWrap {
        fits,
        plausibility: false,
    })
}

/// `a op b` as a `Scaling`, if it is one. `<<` by a constant counts as `*` by its power of two.
pub(super) fn scales_position(op: BinOp, a: &Expr, b: &Expr) -> Option<Scaling> {
    if !unsigned_on_position(a, b) {
        return None;
    }
    match (op, constant(a), constant(b)) {
        (BinOp::Add, None, Some(c)) => Some(Scaling::Sum(c, true)),
        (BinOp::Add, Some(c), None) => Some(Scaling::Sum(c, false)),
        (BinOp::Mul, None, Some(c)) => Some(Scaling::ByConstant(c, true)),
        (BinOp::Mul, Some(c), None) => Some(Scaling::ByConstant(c, false)),
        (BinOp::Shl, None, Some(c)) if c < 64 => Some(Scaling::ByConstant(1 << c, true)),
        (BinOp::Mul, None, None) if !(reads_position(a) && reads_position(b)) => {
            Some(Scaling::ByValue)
        }
        _ => None,
    }
}

/// Both operands of one unsigned integer type, one of them read from the block's position or
/// the launch's extents.
fn unsigned_on_position(a: &Expr, b: &Expr) -> bool {
    let unsigned =
        a.ty.scalar()
            .is_some_and(|s| !s.is_float() && !s.is_signed() && s != Scalar::Bool);
    unsigned && a.ty == b.ty && (reads_position(a) || reads_position(b))
}

fn reads_position(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Special(sp) => matches!(
            sp,
            Special::BlockIdx(_) | Special::BlockDim(_) | Special::GridDim(_)
        ),
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => reads_position(x),
        ExprKind::Binary(_, x, y) => reads_position(x) || reads_position(y),
        ExprKind::Select(_, x, y) => reads_position(x) || reads_position(y),
        _ => false,
    }
}

fn constant(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Cast(x) => match (&x.kind, x.ty.scalar()) {
            (ExprKind::Int(v), Some(s)) if !s.is_signed() || (*v as i64) >= 0 => Some(*v),
            _ => None,
        },
        _ => None,
    }
}
