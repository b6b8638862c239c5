//! The one assignment of a host local that reaches a read of it: what launch folding uses for a
//! variable assigned more than once (`dim3 threads; threads = dim3(M1W); k1<<<g, threads>>>();
//! threads = dim3(M2W, M2H); k2<<<g, threads>>>();`), where the initializer is not the value.
//!
//! Only straight-line dominance is trusted: the assignment is a statement of a block that
//! encloses the read, comes before it, and nothing else that may change the variable lies
//! between them or in the statement holding the read (so no loop can bring another value
//! round). A function with `goto` or labels, a `case` label between the two, a read inside a
//! lambda the assignment is outside of, or a variable whose address escapes gets no value.
//!
//! Invariant: a value is returned only when every execution reaching the read has just run
//! that assignment, with nothing since then changing the variable.

use super::cursor::{skip_transparent, visit};
use clang::{Entity, EntityKind};

/// The right-hand side of the assignment whose value `var` holds where `read` (a reference to
/// it inside `scope`) reads it, given `changes`, everything in `scope` that may change `var`.
pub(super) fn last_assignment<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: Entity<'tu>,
    changes: &[Entity<'tu>],
) -> Option<Entity<'tu>> {
    let assignments: Vec<(Entity, Entity)> = changes
        .iter()
        .map(|c| whole_assignment(*c, var))
        .collect::<Option<_>>()?;
    if has_jumps(scope) {
        return None;
    }
    let path = path_to(scope, read)?;
    let changes_in = |stmt: Entity| changes.iter().any(|c| holds(stmt, *c));
    for (depth, block) in path.iter().enumerate().rev() {
        if block.get_kind() == EntityKind::LambdaExpr {
            return None;
        }
        if block.get_kind() != EntityKind::CompoundStmt {
            continue;
        }
        let stmts = block.get_children();
        let inner = *path.get(depth + 1)?;
        let pos = stmts.iter().position(|s| *s == inner)?;
        let Some(last) = (0..pos).rev().find(|&i| changes_in(stmts[i])) else {
            continue;
        };
        let labelled = stmts[last + 1..=pos].iter().any(|s| {
            matches!(
                s.get_kind(),
                EntityKind::CaseStmt | EntityKind::DefaultStmt | EntityKind::LabelStmt
            )
        });
        if labelled || changes_in(inner) {
            return None;
        }
        let stmt = skip_transparent(stmts[last]);
        return assignments
            .iter()
            .find(|(a, _)| skip_transparent(*a) == stmt)
            .map(|(_, rhs)| *rhs);
    }
    None
}

/// `var = rhs` (a built-in assignment, or a class's `operator=` as `dim3` has): the assignment
/// and `rhs`. Anything else that changes `var` (a member, `+=`, its address) gives `None`.
fn whole_assignment<'tu>(change: Entity<'tu>, var: Entity) -> Option<(Entity<'tu>, Entity<'tu>)> {
    let is_var = |e: Entity| {
        let e = skip_transparent(e);
        e.get_kind() == EntityKind::DeclRefExpr && e.get_reference() == Some(var)
    };
    let operands = match change.get_kind() {
        EntityKind::BinaryOperator if change.get_display_name().as_deref() == Some("=") => {
            change.get_children()
        }
        EntityKind::CallExpr
            if change.get_reference().and_then(|f| f.get_name()).as_deref()
                == Some("operator=") =>
        {
            change.get_arguments()?
        }
        _ => return None,
    };
    match operands[..] {
        [lhs, rhs] if is_var(lhs) => Some((change, rhs)),
        _ => None,
    }
}

/// Whether `stmt` is or contains `e`.
fn holds(stmt: Entity, e: Entity) -> bool {
    let mut found = false;
    visit(stmt, &mut |x| found |= x == e);
    found
}

/// Whether control can enter `scope` other than in order: `goto`, labels, computed jumps.
fn has_jumps(scope: Entity) -> bool {
    let mut found = false;
    visit(scope, &mut |x| {
        found |= matches!(
            x.get_kind(),
            EntityKind::GotoStmt | EntityKind::IndirectGotoStmt | EntityKind::LabelStmt
        )
    });
    found
}

/// The entities from `root` down to `target`, both included.
fn path_to<'tu>(root: Entity<'tu>, target: Entity<'tu>) -> Option<Vec<Entity<'tu>>> {
    if root == target {
        return Some(vec![root]);
    }
    root.get_children().into_iter().find_map(|kid| {
        let mut path = path_to(kid, target)?;
        path.insert(0, root);
        Some(path)
    })
}
