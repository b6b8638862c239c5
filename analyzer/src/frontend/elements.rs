//! Elements of a host-local array at a launch: OpenCL-style launch code keeps the work-group
//! size in one (`size_t lws[2]; lws[0] = 16; lws[1] = 16; dim3 threads(lws[0], lws[1]);`).
//! An element folds to the one assignment of it, made by a statement of the launching
//! function's own body before the read (so on every path to it, once), or else to its
//! initializer (`size_t lws[2] = {16, 16};`).
//!
//! Invariant: only an array every use of which is an element at a constant index folds: an
//! array passed to a function, whose address is taken, or indexed by a variable may change
//! anywhere, and nothing of it is folded.

use super::cursor::{body_statements, contains, skip_transparent, start_offset, visit};
use super::reaching::has_jumps;
use clang::{Entity, EntityKind, TypeKind};

/// The expression element `read` (`a[i]`, a read in function `scope`) holds there; `index`
/// folds an index to its value.
pub(super) fn value<'tu>(
    read: Entity<'tu>,
    scope: Entity<'tu>,
    index: &dyn Fn(Entity<'tu>) -> Option<i64>,
) -> Option<Entity<'tu>> {
    let (array, i) = element(read, index)?;
    let local_array = array.get_kind() == EntityKind::VarDecl
        && contains(scope, array)
        && array
            .get_type()
            .is_some_and(|t| t.get_canonical_type().get_kind() == TypeKind::ConstantArray);
    if !local_array || has_jumps(scope) {
        return None;
    }
    let body = body_statements(scope)?;
    let mut assigned = Vec::new();
    let mut only_elements = true;
    visit(scope, &mut |x| {
        if x.get_kind() == EntityKind::DeclRefExpr && x.get_reference() == Some(array) {
            only_elements &= subscript_of(scope, x).is_some_and(|s| element(s, index).is_some());
        }
        match x.get_kind() {
            EntityKind::BinaryOperator if x.get_display_name().as_deref() == Some("=") => {
                let kids = x.get_children();
                let target = kids
                    .first()
                    .and_then(|l| element(skip_transparent(*l), index));
                if target == Some((array, i)) {
                    assigned.push(x);
                }
            }
            EntityKind::CompoundAssignOperator | EntityKind::UnaryOperator => {
                let first = x.get_children().into_iter().next();
                let target = first.and_then(|l| element(skip_transparent(l), index));
                only_elements &= target.is_none_or(|(a, _)| a != array);
            }
            _ => {}
        }
    });
    if !only_elements {
        return None;
    }
    match assigned.as_slice() {
        [] => initializer_element(array, i),
        [one] if body.contains(one) && start_offset(*one)? < start_offset(read)? => {
            one.get_children().get(1).copied()
        }
        _ => None,
    }
}

/// The array an element expression `a[i]` names and its constant index.
fn element<'tu>(
    e: Entity<'tu>,
    index: &dyn Fn(Entity<'tu>) -> Option<i64>,
) -> Option<(Entity<'tu>, i64)> {
    if e.get_kind() != EntityKind::ArraySubscriptExpr {
        return None;
    }
    let [base, i] = e.get_children()[..] else {
        return None;
    };
    let base = decayed(base);
    let array = base
        .get_reference()
        .filter(|_| base.get_kind() == EntityKind::DeclRefExpr)?;
    Some((array, index(i)?))
}

/// The subscript expression `r` (a reference to an array) is the base of, if it is one.
fn subscript_of<'tu>(scope: Entity<'tu>, r: Entity<'tu>) -> Option<Entity<'tu>> {
    let mut found = None;
    visit(scope, &mut |x| {
        let base = x.get_children().into_iter().next().map(decayed);
        if x.get_kind() == EntityKind::ArraySubscriptExpr && base == Some(r) {
            found = Some(x);
        }
    });
    found
}

/// Under the array-to-pointer conversion of a subscript's base (an unexposed expression).
fn decayed(e: Entity) -> Entity {
    let mut e = skip_transparent(e);
    while e.get_kind() == EntityKind::UnexposedExpr {
        match e.get_children()[..] {
            [inner] => e = skip_transparent(inner),
            _ => break,
        }
    }
    e
}

fn initializer_element(array: Entity, i: i64) -> Option<Entity> {
    let list = array
        .get_children()
        .into_iter()
        .find(|c| c.get_kind() == EntityKind::InitListExpr)?;
    list.get_children().get(usize::try_from(i).ok()?).copied()
}
