//! The one assignment of a host local that reaches a read of it: what launch folding uses for a
//! variable assigned more than once (`dim3 threads; threads = dim3(M1W); k1<<<g, threads>>>();
//! threads = dim3(M2W, M2H); k2<<<g, threads>>>();`), where the initializer is not the value.
//! The declaration is the first assignment (`int t = 256; k<<<1, t>>>(); t = 64;` launches 256),
//! and a caller may ask about a part of a variable by passing only what changes that part
//! (`fold.rs` does for a `dim3`'s members: `threads.x = 128;` after a launch leaves it alone).
//!
//! Only straight-line dominance is trusted: the assignment is a statement of a block that
//! encloses the read, comes before it, and nothing else that may change the variable lies
//! between them or in the statement holding the read (so no loop can bring another value
//! round). A function with `goto` or labels, a `case` label between the two, a read inside a
//! lambda the assignment is outside of, a lambda that changes the variable, or a variable whose
//! address escapes before the read gets no value. The same walk says where a variable stops
//! changing before a launch (`settled_after`), so that reads past that point are the value the
//! kernel gets.
//!
//! Invariant: a value is returned only when every execution reaching the read has just run
//! that assignment, with nothing since then changing the variable.

use super::cursor::{skip_transparent, visit};
use clang::{Entity, EntityKind, StorageClass};

/// The right-hand side of the assignment whose value `var` holds where `read` (a reference to
/// it inside `scope`) reads it, or its initializer where its declaration reaches the read,
/// given `changes`, everything in `scope` that may change `var`.
pub(super) fn last_assignment<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: Entity<'tu>,
    changes: &[Entity<'tu>],
) -> Option<Entity<'tu>> {
    let stmt = reaching_definition(var, read, scope, changes)?;
    if declares(stmt, var) {
        return initializer(var);
    }
    whole_assignment(stmt, var).map(|(_, rhs)| rhs)
}

/// The statement that last sets `var` where `read` (a reference to it inside `scope`) reads
/// it: one of `changes` (what in `scope` may change the part of `var` the caller asks about)
/// that is a statement of its own, or the declaration of `var`. The caller says what that
/// statement leaves in `var`; a change that is part of a larger statement gives `None`.
pub(super) fn reaching_definition<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: Entity<'tu>,
    changes: &[Entity<'tu>],
) -> Option<Entity<'tu>> {
    if has_jumps(scope) || changed_in_lambda(scope, changes) {
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
        let sets = |s: Entity| changes_in(s) || declares(s, var);
        let Some(last) = (0..pos).rev().find(|&i| sets(stmts[i])) else {
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
        let is_change = changes.iter().any(|c| skip_transparent(*c) == stmt);
        let is_declaration = declares(stmt, var) && !changes_in(stmt);
        return (is_change || is_declaration).then_some(stmt);
    }
    None
}

/// Whether `stmt` is the declaration statement of `var` and sets it each time it runs: not a
/// `static` local's, whose initializer runs once (a later call may find another value).
pub(super) fn declares(stmt: Entity, var: Entity) -> bool {
    let automatic = matches!(
        var.get_storage_class(),
        Some(StorageClass::None | StorageClass::Auto | StorageClass::Register)
    );
    automatic && stmt.get_kind() == EntityKind::DeclStmt && stmt.get_children().contains(&var)
}

/// The expression a variable's declaration initialises it with (for a class, its constructor
/// call, also where the declaration names no arguments: `dim3 threads;`).
pub(super) fn initializer(var: Entity) -> Option<Entity> {
    var.get_children().into_iter().rfind(|c| c.is_expression())
}

/// Where `var` stops changing on the way to `launch` (a reference or call inside `scope`):
/// the end offset of the last statement of the function's body that changes it, when that
/// statement ends before the one holding the launch (`int n = 32; for (...) n = atoi(argv[i]);`
/// then `dim3 grid(n / 16); k<<<grid, b>>>(d, n)`: `n` reads the same after the loop). Every
/// change must be an assignment, `+=`-like or `++`/`--` of the variable itself (an escaping
/// address could change it later), none in a lambda, and the function without jumps.
pub(super) fn settled_after(scope: Entity, launch: Entity, changes: &[Entity]) -> Option<u32> {
    let direct = |c: &Entity| match c.get_kind() {
        EntityKind::BinaryOperator | EntityKind::CompoundAssignOperator => true,
        EntityKind::UnaryOperator => {
            let op = super::cursor::unary_op_text(*c);
            matches!(op.as_deref(), Some("++" | "--" | "++post" | "--post"))
        }
        _ => false,
    };
    if !changes.iter().all(direct) || has_jumps(scope) || changed_in_lambda(scope, changes) {
        return None;
    }
    let body = scope
        .get_children()
        .into_iter()
        .rfind(|c| c.get_kind() == EntityKind::CompoundStmt)?;
    let stmts = body.get_children();
    let at = stmts.iter().position(|s| holds(*s, launch))?;
    let last = stmts
        .iter()
        .rposition(|s| changes.iter().any(|c| holds(*s, *c)))?;
    (last < at).then(|| end_offset(stmts[last])).flatten()
}

fn end_offset(e: Entity) -> Option<u32> {
    Some(e.get_range()?.get_end().get_file_location().offset)
}

/// `var = rhs` (a built-in assignment, or a class's `operator=` as `dim3` has): the assignment
/// and `rhs`. Anything else that changes `var` (a member, `+=`, its address) gives `None`.
pub(super) fn whole_assignment<'tu>(
    change: Entity<'tu>,
    var: Entity,
) -> Option<(Entity<'tu>, Entity<'tu>)> {
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
pub(super) fn has_jumps(scope: Entity) -> bool {
    let mut found = false;
    visit(scope, &mut |x| {
        found |= matches!(
            x.get_kind(),
            EntityKind::GotoStmt | EntityKind::IndirectGotoStmt | EntityKind::LabelStmt
        )
    });
    found
}

/// Whether a lambda of `scope` changes the variable: it runs where it is called, which the
/// order of statements does not show.
fn changed_in_lambda(scope: Entity, changes: &[Entity]) -> bool {
    let mut found = false;
    visit(scope, &mut |x| {
        found |= x.get_kind() == EntityKind::LambdaExpr && changes.iter().any(|c| holds(x, *c))
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
