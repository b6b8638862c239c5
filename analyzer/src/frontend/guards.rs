//! What the host checks of a launch's arguments before it launches: `if (n < 64) return;` and
//! `assert(n % 32 == 0)` in the launching function's body, ahead of the launch, and the
//! conditions of the branches the launch is in (`if (n >= 64) k<<<...>>>(d, n)`). Each becomes
//! a condition over the kernel's parameters (`n >= 64`, `n % 32 == 0`), in the host's own
//! arithmetic (`fold::host_expr`), that the analysis may assume. A branch on a value that is
//! not an argument still fixes it for the launch's folding (`scope_at`: `block_size` is 16
//! inside `if (block_size == 16)`), and a launch in a branch its constants rule out never
//! happens (`LaunchSite::ruled_out`: it only says how the file would launch the kernel). An
//! argument the host rounds down to a multiple of a constant is a multiple of it (`rounded`).
//!
//! Never stronger than the host code: only statements at the top level of the function's body
//! are read, and only those that end before the launch, so that every path to the launch has
//! passed them; a body with a `goto` or a label, or a launch inside a lambda (which may run
//! elsewhere), gives none. A guard counts when its branch always leaves the function (`return`,
//! `exit`, `abort`, alone or last in a block) and has no `else`; an `assert` is glibc's or
//! another C library's expansion (a conditional whose other arm calls `__assert_fail` & co.),
//! so that it is gone under `NDEBUG` as in the program. The variables must be parameters or
//! locals of the launching function that it never changes (`fold::Arg`; a global could change in
//! a function called between the check and the launch), so they hold at the launch what they
//! held at the check.

use super::cursor::{skip_transparent, unary_op_text, visit};
use super::fold::{self, host_expr, Arg, Scope};
use super::lower::arith_op;
use super::types::{classify, CType};
use crate::ir::{BinOp, Expr, ExprKind, ParamId, Scalar, Ty, UnOp};
use clang::{Entity, EntityKind};

/// Where `launch` is in `base`'s function: with the values the branches around it fix
/// (`block_size` is 16 inside `if (block_size == 16) { ... }`, for a `block_size` the function
/// never changes) added to those `base` knows, and
/// whether one of those branches is ruled out by what folds (`int block_size = 32;`), so that
/// the launch never happens (then with the function's values alone).
pub(crate) fn scope_at<'tu>(base: &Scope<'tu>, launch: Entity<'tu>) -> (Scope<'tu>, bool) {
    let func = base.func;
    let mut scope = base.clone();
    let Some((body, at)) = body(func).zip(offset(launch, false)) else {
        return (scope, false);
    };
    if !plain_flow(body, at) {
        return (scope, false);
    }
    let branches = branches_to(body, at);
    for (cond, taken) in &branches {
        if fold::int(*cond, &scope).is_some_and(|v| (v != 0) != *taken) {
            return (scope, true);
        }
    }
    for (cond, taken) in branches {
        equalities(cond, taken, base, &mut scope.known);
    }
    (scope, false)
}

/// The conditions the function establishes on every path to `launch`, each with the line that
/// checks it: the checks of the body's statements before it, and the conditions of the
/// branches it is in.
pub(crate) fn before<'tu>(
    scope: &Scope<'tu>,
    launch: Entity<'tu>,
    args: &[Arg],
) -> Vec<(Expr, u32)> {
    let Some((body, at)) = body(scope.func).zip(offset(launch, false)) else {
        return Vec::new();
    };
    // A global could change between the check and the launch, in a function called there.
    let args: Vec<Arg> = args
        .iter()
        .filter(|a| local_to(scope.func, a.var))
        .cloned()
        .collect();
    let args = args.as_slice();
    if !plain_flow(body, at) {
        return Vec::new();
    }
    let checks = body
        .get_children()
        .into_iter()
        .filter(|s| offset(*s, true).is_some_and(|end| end <= at))
        .filter_map(|s| Some((checked(s, scope, args)?, line(s)?)));
    let branches = branches_to(body, at)
        .into_iter()
        .filter_map(|(cond, taken)| {
            let c = condition(cond, scope, args)?;
            Some((if taken { c } else { not(c) }, line(cond)?))
        });
    // One that reads no parameter says nothing of the kernel (constants fold).
    checks
        .chain(branches)
        .filter(|(c, _)| reads_param(c))
        .collect()
}

/// A parameter or local variable of `func`, which only `func` can change.
fn local_to(func: Entity, var: Entity) -> bool {
    var.get_semantic_parent() == Some(func)
}

fn body(func: Entity) -> Option<Entity> {
    func.get_children()
        .into_iter()
        .rfind(|c| c.get_kind() == EntityKind::CompoundStmt)
}

/// Where the program says it, not where a macro (`assert`) is defined.
fn line(e: Entity) -> Option<u32> {
    Some(e.get_range()?.get_start().get_expansion_location().line)
}

/// The `if` conditions around offset `at` in `s`, outermost first, each with whether `at` is
/// in its `then` branch.
fn branches_to(s: Entity, at: u32) -> Vec<(Entity, bool)> {
    let contains = |e: &Entity| {
        offset(*e, false).is_some_and(|a| a <= at) && offset(*e, true).is_some_and(|b| at <= b)
    };
    let kids = s.get_children();
    let Some(inner) = kids.iter().find(|k| contains(k)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // `if (c) then [else]` only: with an init statement or a condition variable the first
    // child is not the condition.
    let plain_if = s.get_kind() == EntityKind::IfStmt
        && (2..=3).contains(&kids.len())
        && kids[0].is_expression();
    if plain_if && *inner != kids[0] {
        out.push((kids[0], *inner == kids[1]));
    }
    out.extend(branches_to(*inner, at));
    out
}

/// `v == C` (or `C == v`, and each side of `&&`) where `taken`, `v != C` (and each side of `||`)
/// where not: the value of a parameter or local that `func` never changes.
fn equalities<'tu>(
    cond: Entity<'tu>,
    taken: bool,
    plain: &Scope<'tu>,
    known: &mut Vec<(Entity<'tu>, i64)>,
) {
    let func = plain.func;
    let cond = skip_transparent(cond);
    if cond.get_kind() != EntityKind::BinaryOperator {
        return;
    }
    let kids = cond.get_children();
    let [a, b] = kids.as_slice() else { return };
    match (cond.get_display_name().as_deref(), taken) {
        (Some("&&"), true) | (Some("||"), false) => {
            equalities(*a, taken, plain, known);
            equalities(*b, taken, plain, known);
        }
        (Some("=="), true) | (Some("!="), false) => {
            for (var, value) in [(*a, *b), (*b, *a)] {
                let var = skip_transparent(var);
                let Some(decl) = var
                    .get_reference()
                    .filter(|_| var.get_kind() == EntityKind::DeclRefExpr)
                else {
                    continue;
                };
                let fixed = local_to(func, decl) && fold::unchanged(plain, decl);
                if let (true, Some(v)) = (fixed, fold::int(value, plain)) {
                    known.push((decl, v));
                }
            }
        }
        _ => {}
    }
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
fn checked<'tu>(s: Entity<'tu>, scope: &Scope<'tu>, args: &[Arg]) -> Option<Expr> {
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
fn asserted<'tu>(s: Entity<'tu>, scope: &Scope<'tu>, args: &[Arg]) -> Option<Expr> {
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
fn condition<'tu>(e: Entity<'tu>, scope: &Scope<'tu>, args: &[Arg]) -> Option<Expr> {
    let kids: Vec<Entity> = e
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    let sub = |x: Entity<'tu>| condition(x, scope, args);
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

/// Arguments the host rounds down to a multiple of a constant before passing them
/// (`s = s / 256 * 256; k<<<g, b>>>(d, s)`, or the rounding written in the argument): the
/// kernel's parameter is a multiple of it (`s % 256 == 0`), with the line that rounds. Only
/// where the argument has the parameter's type, so that no conversion changes the remainder.
pub(crate) fn rounded<'tu>(
    scope: &Scope<'tu>,
    args: &[Entity<'tu>],
    params: &[Entity<'tu>],
) -> Vec<(Expr, u32)> {
    let mut out = Vec::new();
    for (i, (arg, param)) in args.iter().zip(params).enumerate() {
        let ty = match param.get_type().map(classify) {
            Some(CType::Scalar(s)) if !s.is_float() && s != Scalar::Bool => Ty::Scalar(s),
            _ => continue,
        };
        if arg.get_type().map(classify) != param.get_type().map(classify) {
            continue;
        }
        let Some((c, at)) = rounding(*arg, &ty, scope, 0) else {
            continue;
        };
        let p = Expr::new(ExprKind::Param(ParamId(i as u32)), ty);
        let rem = Expr::new(
            ExprKind::Binary(BinOp::Rem, Box::new(p), Box::new(Expr::int(c, ty))),
            ty,
        );
        let fact = ExprKind::Binary(BinOp::Eq, Box::new(rem), Box::new(Expr::int(0, ty)));
        if let Some(line) = line(at) {
            out.push((boolean(fact), line));
        }
    }
    out
}

/// `(x / C) * C` or `C * (x / C)` in type `ty` for a constant `C > 1`, also as the value a local
/// holds there (`fold::value_at`): `C` and the multiplication. No conversion may come between
/// the multiplication and the value: one to a narrower or signed type can leave a remainder.
fn rounding<'tu>(
    e: Entity<'tu>,
    ty: &Ty,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<(i64, Entity<'tu>)> {
    let e = skip_transparent(e);
    if depth > 8 || e.get_type().map(classify) != Some(CType::Scalar(ty.scalar()?)) {
        return None;
    }
    match e.get_kind() {
        EntityKind::DeclRefExpr => {
            let var = e.get_reference()?;
            rounding(fold::value_at(var, e, scope)?, ty, scope, depth + 1)
        }
        EntityKind::BinaryOperator if e.get_display_name().as_deref() == Some("*") => {
            let kids = e.get_children();
            let [a, b] = kids.as_slice() else { return None };
            let divides = |q: Entity<'tu>, c: i64| {
                let q = skip_transparent(q);
                let kids = q.get_children();
                q.get_kind() == EntityKind::BinaryOperator
                    && q.get_display_name().as_deref() == Some("/")
                    && kids.len() == 2
                    && fold::int(kids[1], scope) == Some(c)
            };
            [(*a, *b), (*b, *a)].into_iter().find_map(|(q, k)| {
                let c = fold::int(k, scope).filter(|c| *c > 1)?;
                divides(q, c).then_some((c, e))
            })
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
