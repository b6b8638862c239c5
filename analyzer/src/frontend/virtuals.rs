//! Virtual calls: which functions a call may run.
//!
//! `b->idx()` on a `Base *` runs the `idx` of the object's dynamic class, which may be any
//! class derived from `Base`. Taking the static target (`Base::idx`) for it hid what the
//! override reads: `Derived::idx` returning `threadIdx.y` left the kernel's `y` extent unread,
//! the kernel ran on one thread, and its races were proved away. A call that dispatches
//! dynamically may run the method or any of its overriders this file defines, as a call
//! through a function pointer may run any function of this file of its type
//! (`lower/call.rs`). A qualified call (`b->Base::idx()`) runs the named method only.
//!
//! libclang gives a method's overridden methods (upwards) and not its overriders, so the
//! overriders are found by a scan of the file's classes. Class templates' methods are
//! matched by name: an instantiation's methods are not cursors of their own.

use clang::{Entity, EntityKind};

/// The definitions a call may run when it dispatches dynamically (the method's own first,
/// when it has one, then its overriders); none when `call` is not a dynamic virtual call.
pub(crate) fn dynamic_targets<'tu>(call: Entity<'tu>) -> Option<Vec<Entity<'tu>>> {
    let callee = call.get_reference()?;
    if !callee.is_virtual_method() || is_qualified(call) {
        return None;
    }
    Some(implementations(callee))
}

/// The definitions of a virtual method (or destructor) and of its overriders in the file.
pub(crate) fn implementations(method: Entity) -> Vec<Entity> {
    let target = method.get_canonical_entity();
    let mut found: Vec<Entity> = method.get_definition().into_iter().collect();
    let root = method.get_translation_unit().get_entity();
    visit_classes(root, &mut |method| {
        if overrides(method, target) {
            if let Some(def) = method.get_definition() {
                if !found.contains(&def) {
                    found.push(def);
                }
            }
        }
    });
    found
}

/// `b->Base::idx()`: the member's name carries its class.
fn is_qualified(call: Entity) -> bool {
    call.get_children()
        .iter()
        .filter(|c| c.get_kind() == EntityKind::MemberRefExpr)
        .any(|m| {
            m.get_children().iter().any(|c| {
                matches!(
                    c.get_kind(),
                    EntityKind::TypeRef | EntityKind::NamespaceRef | EntityKind::TemplateRef
                )
            })
        })
}

/// Whether `method` overrides `target` (a canonical method), directly or through others.
fn overrides(method: Entity, target: Entity) -> bool {
    let in_template = method
        .get_semantic_parent()
        .is_some_and(|p| p.get_kind() == EntityKind::ClassTemplate);
    if in_template {
        let destructors = [method, target].map(|m| m.get_kind() == EntityKind::Destructor);
        return destructors == [true, true] || method.get_name() == target.get_name();
    }
    let mut pending = method.get_overridden_methods().unwrap_or_default();
    let mut seen = Vec::new();
    while let Some(m) = pending.pop() {
        let m = m.get_canonical_entity();
        if m == target {
            return true;
        }
        if !seen.contains(&m) {
            seen.push(m);
            pending.extend(m.get_overridden_methods().unwrap_or_default());
        }
    }
    false
}

/// Calls `f` on every virtual method and destructor the file declares, in classes at any depth of
/// namespaces and classes, and on methods defined outside their class.
fn visit_classes<'tu>(root: Entity<'tu>, f: &mut impl FnMut(Entity<'tu>)) {
    for c in root.get_children() {
        match c.get_kind() {
            EntityKind::Method | EntityKind::Destructor if c.is_virtual_method() => f(c),
            EntityKind::Namespace
            | EntityKind::LinkageSpec
            | EntityKind::UnexposedDecl
            | EntityKind::StructDecl
            | EntityKind::ClassDecl
            | EntityKind::ClassTemplate
            | EntityKind::ClassTemplatePartialSpecialization => visit_classes(c, f),
            _ => {}
        }
    }
}
