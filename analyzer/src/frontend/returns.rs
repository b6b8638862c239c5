//! Values of the host's small helper functions at a launch: `dim3 grid(iDivUp(n, 256))`,
//! `ceil_div(n, 64)`, `max_int(min_int(TPB, n), 32)`. A function whose body is a single
//! `return E;` folds as `E` does in the function's own scope, with each parameter bound to what
//! the call passes where that folds.
//!
//! Invariant: only a body of one `return` statement, so nothing runs between the call and `E`;
//! `E` is folded by the rules of any expression (a global it reads folds only when `const`), and
//! a parameter the call's argument does not fold for is folded as any parameter is (what every
//! call agrees on), or not at all.

use super::cursor::body_statements;
use super::fold::{int_at, is_floating, Scope};
use clang::{Entity, EntityKind};

/// Whether a call of `f` may fold through its body: a free function or a static method.
pub(super) fn folds_through(f: Entity) -> bool {
    f.get_kind() == EntityKind::FunctionDecl
        || f.get_kind() == EntityKind::Method && f.is_static_method()
}

/// The value `call` returns, where the callee is one `return` of an expression that folds.
pub(super) fn returned_value<'tu>(
    call: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<i64> {
    let def = call.get_reference()?.get_definition()?;
    let [ret] = body_statements(def)?[..] else {
        return None;
    };
    if ret.get_kind() != EntityKind::ReturnStmt {
        return None;
    }
    let value = ret.get_children().into_iter().find(|c| c.is_expression())?;
    // The parameters as the body names them (an instantiation's body may name its pattern's).
    let params = def
        .get_children()
        .into_iter()
        .filter(|c| c.get_kind() == EntityKind::ParmDecl);
    let mut bound = scope.at(def);
    for (p, a) in params.zip(call.get_arguments()?) {
        if is_floating(a) {
            continue;
        }
        if let Some(v) = int_at(a, scope, depth + 1) {
            bound.known.push((p, v));
        }
    }
    int_at(value, &bound, depth + 1)
}
