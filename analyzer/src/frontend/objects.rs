//! Fields of host objects at a launch: programs keep their sizes in a parameters object
//! (`Params p(19, 8, 16); const uint k = p.k; dim3 threads(k, k);`, `Config c = {256, 4};`,
//! `c.threads = 256;`), and a field read folds like a local when the object is built once and
//! nothing changes it on the way to the read.
//!
//! What builds it: a constructor whose body has no statements and whose initializers are all
//! members' (`: n(n), k(k), N(N - 1)`), under the call's arguments and the parameters'
//! defaults; a field it does not initialise takes its default member initializer, or nothing.
//! An initializer list (`{256, 4}`) for a class with no base class: the element in the field's
//! place, and a field past the list its default member initializer or zero. `c.threads = 256;`
//! sets that field alone.
//!
//! Invariant: an object whose address escapes, that a method is called on, that is bound to a
//! non-const reference or passed to one (`fold::find_changes`), folds only up to where that
//! happens; a constructor that does anything else folds nothing.

use super::cursor::skip_transparent;
use super::fold::{assigned_member, initializer, int_at, is_dim3_var, is_floating, Scope};
use super::reaching::{
    declares, initializer as declared_initializer, reaching_definition, whole_assignment,
};
use clang::{Entity, EntityKind, TypeKind};

/// The value of `read`, a member expression `var.f` of a host object, where it folds.
pub(super) fn field_value<'tu>(read: Entity<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<i64> {
    // A union's fields share their bytes: which one a read sees is not the fold's to say.
    let field = read.get_reference().filter(|f| {
        f.get_kind() == EntityKind::FieldDecl
            && f.get_semantic_parent()
                .is_some_and(|r| r.get_kind() != EntityKind::UnionDecl)
    })?;
    let base = skip_transparent(read.get_children().into_iter().next()?);
    if base.get_kind() != EntityKind::DeclRefExpr {
        return None;
    }
    let var = base
        .get_reference()
        .filter(|v| v.get_kind() == EntityKind::VarDecl && !is_dim3_var(*v))?;
    let is_record = var
        .get_type()
        .is_some_and(|t| t.get_canonical_type().get_kind() == TypeKind::Record);
    if !is_record {
        return None;
    }
    if let Some(built) = initializer(var, scope) {
        return built_field(built, field, scope, depth + 1);
    }
    if !super::cursor::contains(scope.func, var) {
        return None;
    }
    // Assignments of the other fields leave this one as it was.
    let of_field = |c: &Entity<'tu>| {
        assigned_member(*c, var).is_none_or(|(m, _)| m.get_reference() == Some(field))
    };
    let changes: Vec<Entity> = scope
        .changes(var)
        .iter()
        .copied()
        .filter(of_field)
        .collect();
    let stmt = reaching_definition(var, read, scope.func, &changes)?;
    if declares(stmt, var) {
        return built_field(declared_initializer(var)?, field, scope, depth + 1);
    }
    if let Some((_, rhs)) = assigned_member(stmt, var) {
        return int_at(rhs, scope, depth + 1);
    }
    built_field(whole_assignment(stmt, var)?.1, field, scope, depth + 1)
}

/// What `field` holds in the object `init` builds (in `scope`).
fn built_field<'tu>(
    init: Entity<'tu>,
    field: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<i64> {
    let init = skip_transparent(init);
    match init.get_kind() {
        EntityKind::InitListExpr => listed_field(init, field, scope, depth),
        EntityKind::CallExpr => constructed_field(init, field, scope, depth),
        _ => None,
    }
}

/// `{256, 4}`: the element in the field's place.
fn listed_field<'tu>(
    list: Entity<'tu>,
    field: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<i64> {
    let record = field.get_semantic_parent()?;
    let members = record.get_children();
    let fields: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|m| m.get_kind() == EntityKind::FieldDecl)
        .collect();
    let elements: Vec<Entity> = list
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    // The elements are the fields in order only for a plain structure of scalars: a union's
    // list sets one member, braces may be elided for an array or structure field, and
    // `{.blocks = 4}` names its fields.
    let plain = record.get_kind() == EntityKind::StructDecl
        && !members
            .iter()
            .any(|m| m.get_kind() == EntityKind::BaseSpecifier)
        && fields.iter().all(|f| is_scalar(*f))
        && !elements.iter().any(|e| {
            e.get_children()
                .iter()
                .any(|c| c.get_kind() == EntityKind::MemberRef)
        });
    if !plain {
        return None;
    }
    let at = fields.iter().position(|f| *f == field)?;
    match elements.get(at) {
        Some(e) => int_at(*e, scope, depth),
        // Past the list: the default member initializer, else value-initialised.
        None => match default_member(field) {
            Some(d) => int_at(d, &scope.at(record), depth),
            None => Some(0),
        },
    }
}

/// `Params(19, 8)` of `Params(uint n = 32, uint k = 8) : n(n), k(k) {}`: the field's member
/// initializer under the call's arguments.
fn constructed_field<'tu>(
    call: Entity<'tu>,
    field: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<i64> {
    let ctor = call
        .get_reference()
        .filter(|c| c.get_kind() == EntityKind::Constructor)?
        .get_definition()?;
    let parts = ctor.get_children();
    let empty_body = parts
        .iter()
        .filter(|p| p.get_kind() == EntityKind::CompoundStmt)
        .all(|b| b.get_children().is_empty());
    // Every expression must initialise a member: no base class or delegated constructor.
    let only_members = parts.iter().enumerate().all(|(i, p)| {
        !p.is_expression() || i > 0 && parts[i - 1].get_kind() == EntityKind::MemberRef
    });
    if !empty_body || !only_members {
        return None;
    }
    let initialised = parts
        .iter()
        .position(|p| p.get_kind() == EntityKind::MemberRef && p.get_reference() == Some(field));
    let Some(at) = initialised else {
        return int_at(default_member(field)?, &scope.at(ctor), depth);
    };
    let mut bound = scope.at(ctor);
    let params = ctor.get_arguments()?;
    let args = call.get_arguments()?;
    for (p, a) in params.iter().zip(&args) {
        // A default argument is an expression with nothing under it: the parameter's default.
        let passed = match a.get_children().is_empty() && a.evaluate().is_none() {
            true => default_member(*p).and_then(|d| int_at(d, &scope.at(ctor), depth)),
            false if is_floating(*a) => None,
            false => int_at(*a, scope, depth),
        };
        if let Some(v) = passed {
            bound.known.push((*p, v));
        }
    }
    int_at(*parts.get(at + 1)?, &bound, depth)
}

fn is_scalar(field: Entity) -> bool {
    field.get_type().is_some_and(|t| {
        !matches!(
            t.get_canonical_type().get_kind(),
            TypeKind::Record
                | TypeKind::ConstantArray
                | TypeKind::IncompleteArray
                | TypeKind::VariableArray
                | TypeKind::DependentSizedArray
                | TypeKind::Unexposed
        )
    })
}

/// The expression a field's default member initializer or a parameter's default argument
/// gives.
fn default_member(decl: Entity) -> Option<Entity> {
    decl.get_children().into_iter().rfind(|c| c.is_expression())
}
