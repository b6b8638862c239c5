//! What the host checks of a launch's arguments before it launches: `if (n < 64) return;` and
//! `assert(n % 32 == 0)` in the launching function's body, ahead of the launch. Each becomes a
//! condition over the kernel's parameters (`n >= 64`, `n % 32 == 0`), in the host's own
//! arithmetic (`fold::host_expr`), that the analysis may assume.
//!
//! Never stronger than the host code: only statements at the top level of the function's body
//! are read, and only those that end before the launch, so that every path to the launch has
//! passed them; a body with a `goto` or a label, or a launch inside a lambda (which may run
//! elsewhere), gives none. A guard counts when its branch always leaves the function (`return`,
//! `exit`, `abort`, alone or last in a block) and has no `else`; an `assert` is glibc's or
//! another C library's expansion (a conditional whose other arm calls `__assert_fail` & co.),
//! so that it is gone under `NDEBUG` as in the program. The variables must be arguments of the
//! launch that the function never changes (`fold::Arg`), so they hold at the launch what they
//! held at the check.

use super::cursor::{skip_transparent, unary_op_text, visit};
use super::fold::{host_expr, Arg};
use super::lower::arith_op;
use crate::ir::{BinOp, Expr, ExprKind, Scalar, Ty, UnOp};
use clang::{Entity, EntityKind};

/// The conditions the body of `scope` establishes before `launch`, each with the line that
/// checks it.
pub(crate) fn before(scope: Entity, launch: Entity, args: &[Arg]) -> Vec<(Expr, u32)> {
    let Some(body) = scope
        .get_children()
        .into_iter()
        .rfind(|c| c.get_kind() == EntityKind::CompoundStmt)
    else {
        return Vec::new();
    };
    let Some(at) = offset(launch, false) else {
        return Vec::new();
    };
    if !plain_flow(body, at) {
        return Vec::new();
    }
    body.get_children()
        .into_iter()
        .filter(|s| offset(*s, true).is_some_and(|end| end <= at))
        .filter_map(|s| {
            // One that reads no parameter says nothing of the kernel (constants fold).
            let cond = checked(s, scope, args).filter(reads_param)?;
            // Where the program says it, not where a macro (`assert`) is defined.
            let line = s.get_range()?.get_start().get_expansion_location().line;
            Some((cond, line))
        })
        .collect()
}

/// The start (or end) offset of `e` in its file.
fn offset(e: Entity, end: bool) -> Option<u32> {
    let range = e.get_range()?;
    let at = if end {
        range.get_end()
    } else {
        range.get_start()
    };
    Some(at.get_file_location().offset)
}

/// Whether every path from the start of `body` to `at` runs its top-level statements in order:
/// no `goto` or label anywhere, and `at` inside no lambda.
fn plain_flow(body: Entity, at: u32) -> bool {
    let mut plain = true;
    visit(body, &mut |x| match x.get_kind() {
        EntityKind::GotoStmt | EntityKind::IndirectGotoStmt | EntityKind::LabelStmt => {
            plain = false
        }
        EntityKind::LambdaExpr => {
            let inside = offset(x, false).is_some_and(|s| s <= at)
                && offset(x, true).is_some_and(|e| at <= e);
            plain &= !inside;
        }
        _ => {}
    });
    plain
}

/// The condition statement `s` guarantees for what follows it.
fn checked(s: Entity, scope: Entity, args: &[Arg]) -> Option<Expr> {
    match s.get_kind() {
        EntityKind::IfStmt => {
            let kids = s.get_children();
            let [cond, then] = kids.as_slice() else {
                return None;
            };
            leaves(*then).then_some(())?;
            Some(not(condition(*cond, scope, args)?))
        }
        _ => asserted(s, scope, args),
    }
}

/// Whether a statement always leaves the function: `return`, `exit(...)`, `abort()`, or a block
/// whose last statement does.
fn leaves(s: Entity) -> bool {
    match s.get_kind() {
        EntityKind::ReturnStmt => true,
        EntityKind::CompoundStmt => s.get_children().last().is_some_and(|l| leaves(*l)),
        EntityKind::CallExpr => matches!(
            s.get_name().as_deref(),
            Some("exit" | "abort" | "_Exit" | "quick_exit")
        ),
        _ => false,
    }
}

/// `assert(c)` as C libraries expand it: `(c) ? (void)0 : __assert_fail(...)`.
fn asserted(s: Entity, scope: Entity, args: &[Arg]) -> Option<Expr> {
    let s = skip_transparent(s);
    if s.get_kind() != EntityKind::ConditionalOperator {
        return None;
    }
    let kids = s.get_children();
    let [cond, _, fail] = kids.as_slice() else {
        return None;
    };
    let mut fails = false;
    visit(*fail, &mut |x| {
        fails |= x.get_kind() == EntityKind::CallExpr
            && matches!(
                x.get_name().as_deref(),
                Some("__assert_fail" | "__assert_rtn" | "_assert" | "__assert" | "_wassert")
            );
    });
    fails.then_some(())?;
    condition(*cond, scope, args)
}

/// A host condition over the launch's arguments: comparisons of integers the host computes,
/// `&&`, `||`, `!`.
fn condition(e: Entity, scope: Entity, args: &[Arg]) -> Option<Expr> {
    let kids: Vec<Entity> = e
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    let sub = |x: Entity| condition(x, scope, args);
    match e.get_kind() {
        // `static_cast<bool>(c)` is how C++'s `assert` spells its condition.
        EntityKind::ParenExpr
        | EntityKind::UnexposedExpr
        | EntityKind::StaticCastExpr
        | EntityKind::CStyleCastExpr
            if kids.len() == 1 =>
        {
            sub(kids[0])
        }
        EntityKind::UnaryOperator if unary_op_text(e).as_deref() == Some("!") => {
            Some(not(sub(*kids.first()?)?))
        }
        EntityKind::BinaryOperator => {
            let [a, b] = kids.as_slice() else { return None };
            use BinOp::*;
            let op = arith_op(&e.get_display_name()?)?;
            let (a, b) = match op {
                LAnd | LOr => (sub(*a)?, sub(*b)?),
                Eq | Ne | Lt | Le | Gt | Ge => {
                    (host_expr(*a, scope, args)?, host_expr(*b, scope, args)?)
                }
                _ => return None,
            };
            Some(boolean(ExprKind::Binary(op, Box::new(a), Box::new(b))))
        }
        _ => None,
    }
}

fn reads_param(e: &Expr) -> bool {
    let mut reads = false;
    e.walk(&mut |x| reads |= matches!(x.kind, ExprKind::Param(_)));
    reads
}

fn not(e: Expr) -> Expr {
    boolean(ExprKind::Unary(UnOp::LNot, Box::new(e)))
}

fn boolean(kind: ExprKind) -> Expr {
    Expr::new(kind, Ty::Scalar(Scalar::Bool))
}
