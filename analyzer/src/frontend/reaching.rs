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
//! Past an `if` that sets the variable in a branch, the value is a choice: each branch's last
//! assignment, or what reached the `if` for a branch that leaves it alone, under the `if`'s
//! condition (`int ty = 4; if (c) ... else ty = wide ? 8 : 4;`); fold decides the choice where
//! the condition folds or every branch gives the same value.
//!
//! Invariant: a value is returned only when every execution reaching the read has just run
//! that assignment (or, for a choice, the branch of each `if` its condition picks, to its
//! end), with nothing since then changing the variable.

use super::cursor::{skip_transparent, visit};
use clang::source::SourceRange;
use clang::{Entity, EntityKind, StorageClass};
use std::cell::Cell;

/// The right-hand side of the assignment whose value `var` holds where `read` (a reference to
/// it inside `scope`) reads it, or its initializer where its declaration reaches the read,
/// given `changes`, everything in `scope` that may change `var`.
pub(super) fn last_assignment<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: Entity<'tu>,
    changes: &[Entity<'tu>],
) -> Option<Entity<'tu>> {
    match reaching_value(var, read, scope, changes)? {
        Reaching::Value(e) => Some(e),
        Reaching::Choice(..) => None,
    }
}

/// What `var` holds where a read reads it: one expression's value, or, past an `if` that sets
/// it in a branch (`int ty = 4; if (c) { ... } else { ty = wide ? 8 : 4; }`), the value the
/// branch taken leaves (the value that reached the `if` where a branch leaves it alone).
#[derive(Clone)]
pub(super) enum Reaching<'tu> {
    /// An assignment's right-hand side, or the declaration's initializer.
    Value(Entity<'tu>),
    /// The first where the condition holds, else the second.
    Choice(Entity<'tu>, Box<Reaching<'tu>>, Box<Reaching<'tu>>),
}

/// `if`s a variable's value may pass through: more is not launch set-up.
const MAX_BRANCHES: u32 = 32;

/// What `var` holds where `read` (a reference to it inside `scope`) reads it, given `changes`
/// (see `last_assignment`). Inside an `if` that sets it, every branch must end in an
/// assignment of the whole variable (or an `if` of the same kind, or leave it alone), the
/// condition must not change it, and no `case` label may lead into a branch: then every
/// execution reaching the read has run one branch to its end, or left it by a jump that
/// skips the read.
pub(super) fn reaching_value<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: Entity<'tu>,
    changes: &[Entity<'tu>],
) -> Option<Reaching<'tu>> {
    if has_jumps(scope) || changed_in_lambda(scope, changes) {
        return None;
    }
    let path = path_to(scope, read)?;
    let walk = Walk {
        var,
        changes,
        budget: Cell::new(MAX_BRANCHES),
    };
    walk.before(&path, false)
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
    let (_, stmt) = last_setter(var, &path, changes, false)?;
    let is_change = changes.iter().any(|c| skip_transparent(*c) == stmt);
    let is_declaration = declares(stmt, var) && !holds_any(stmt, changes);
    (is_change || is_declaration).then_some(stmt)
}

/// The last statement before the end of `path` (from the function down to a read) that sets
/// `var`, in the innermost block enclosing the read that has one, with the depth of that
/// block in `path`. `None` where a `case` label lies between them, where the statement holding
/// the read changes `var` too (a loop bringing another value round), or inside a lambda.
/// With `whole`, the path ends at a statement and what that statement itself changes comes
/// after the read: the value wanted is the one reaching the statement.
fn last_setter<'tu>(
    var: Entity<'tu>,
    path: &[Entity<'tu>],
    changes: &[Entity<'tu>],
    whole: bool,
) -> Option<(usize, Entity<'tu>)> {
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
        let sets = |s: Entity| holds_any(s, changes) || declares(s, var);
        let Some(last) = (0..pos).rev().find(|&i| sets(stmts[i])) else {
            continue;
        };
        let labelled = stmts[last + 1..pos].iter().any(|s| contains_case_label(*s))
            || matches!(
                stmts[pos].get_kind(),
                EntityKind::CaseStmt | EntityKind::DefaultStmt
            );
        let read_is_inner = whole && depth + 2 == path.len();
        if labelled || (!read_is_inner && holds_any(inner, changes)) {
            return None;
        }
        return Some((depth, skip_transparent(stmts[last])));
    }
    None
}

/// One question's walk through the statements that set a variable (`reaching_value`).
struct Walk<'a, 'tu> {
    var: Entity<'tu>,
    changes: &'a [Entity<'tu>],
    budget: Cell<u32>,
}

impl<'tu> Walk<'_, 'tu> {
    /// The value reaching the end of `path` (a read, or with `whole` a statement).
    fn before(&self, path: &[Entity<'tu>], whole: bool) -> Option<Reaching<'tu>> {
        let (depth, stmt) = last_setter(self.var, path, self.changes, whole)?;
        if declares(stmt, self.var) {
            return match holds_any(stmt, self.changes) {
                false => initializer(self.var).map(Reaching::Value),
                true => None,
            };
        }
        let mut to_stmt = path[..=depth].to_vec();
        to_stmt.push(stmt);
        self.after(stmt, &|| self.before(&to_stmt, true))
    }

    /// The value `stmt` leaves, given `before`, the value reaching it.
    fn after(
        &self,
        stmt: Entity<'tu>,
        before: &dyn Fn() -> Option<Reaching<'tu>>,
    ) -> Option<Reaching<'tu>> {
        let stmt = skip_transparent(stmt);
        if !holds_any(stmt, self.changes) {
            return before();
        }
        if self.changes.iter().any(|c| skip_transparent(*c) == stmt) {
            return whole_assignment(stmt, self.var).map(|(_, rhs)| Reaching::Value(rhs));
        }
        match stmt.get_kind() {
            EntityKind::IfStmt => self.branches(stmt, before),
            EntityKind::CompoundStmt => self.after_all(&stmt.get_children(), before),
            _ => None,
        }
    }

    /// The value a sequence of statements leaves, given the value reaching the first.
    fn after_all(
        &self,
        stmts: &[Entity<'tu>],
        before: &dyn Fn() -> Option<Reaching<'tu>>,
    ) -> Option<Reaching<'tu>> {
        let Some(last) = stmts.iter().rposition(|s| holds_any(*s, self.changes)) else {
            return before();
        };
        if stmts[last + 1..].iter().any(|s| contains_case_label(*s)) {
            return None;
        }
        self.after(stmts[last], &|| self.after_all(&stmts[..last], before))
    }

    /// The value an `if` leaves: its branches' (or `before` for a missing `else`), chosen by
    /// its condition.
    fn branches(
        &self,
        stmt: Entity<'tu>,
        before: &dyn Fn() -> Option<Reaching<'tu>>,
    ) -> Option<Reaching<'tu>> {
        self.budget.set(self.budget.get().checked_sub(1)?);
        let (cond, then, otherwise) = if_parts(stmt)?;
        if holds_any(cond, self.changes) || contains_case_label(stmt) {
            return None;
        }
        let then = self.after(then, before)?;
        let otherwise = match otherwise {
            Some(e) => self.after(e, before)?,
            None => before()?,
        };
        Some(Reaching::Choice(cond, Box::new(then), Box::new(otherwise)))
    }
}

/// An `if`'s condition, `then` and `else` statements; `None` for one with an initializer or a
/// condition variable (`if (int n = f(); n > 0)`), whose children do not say which is which.
fn if_parts(stmt: Entity) -> Option<(Entity, Entity, Option<Entity>)> {
    let kids = stmt.get_children();
    // The header's tokens only, up to the `then` statement: all of them would cost as much as
    // the body.
    let header_has_semicolon = || {
        let start = stmt.get_range()?.get_start();
        let tokens = SourceRange::new(start, kids.get(1)?.get_range()?.get_start()).tokenize();
        let mut depth = 0;
        for t in tokens.iter().skip(1) {
            match t.get_spelling().as_str() {
                "(" => depth += 1,
                ")" if depth == 1 => return Some(false),
                ")" => depth -= 1,
                ";" if depth == 1 => return Some(true),
                _ => {}
            }
        }
        None
    };
    let cond = *kids.first()?;
    if !cond.is_expression() || header_has_semicolon()? {
        return None;
    }
    match kids[..] {
        [_, then] => Some((cond, then, None)),
        [_, then, otherwise] => Some((cond, then, Some(otherwise))),
        _ => None,
    }
}

fn contains_case_label(stmt: Entity) -> bool {
    let mut found = false;
    visit(stmt, &mut |x| {
        found |= matches!(x.get_kind(), EntityKind::CaseStmt | EntityKind::DefaultStmt)
    });
    found
}

fn holds_any(stmt: Entity, changes: &[Entity]) -> bool {
    changes.iter().any(|c| holds(stmt, *c))
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
