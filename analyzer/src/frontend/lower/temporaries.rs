//! Temporaries: the objects an expression makes that no variable names (`Flush{a};`, an
//! argument passed by value, a call's result), and when C++ destroys them.
//!
//! A temporary is destroyed at the end of its full expression, unless a reference is bound to
//! it: then it lives as long as the reference ([class.temporary]), to the end of the
//! reference's block. Before, a temporary bound to `const Flush &f` was never destroyed, its
//! destructor's writes were missing, and accesses after a barrier that raced with them were
//! proved safe. A temporary destroyed at a statement's end is an opaque statement there (read by
//! `builtins_read` as dropped code); a kept one is destroyed, inlined, with its block's objects
//! (`lifetime.rs`). Where the front end cannot tell a kept temporary from an lvalue (behind a
//! cast or a `?:`), both ends are opaque: sound either way.

use super::lifetime::{class_of, destructors, needs_destruction};
use super::{KernelLowerer, Place};
use crate::frontend::cursor::{unary_op_text, visit};
use crate::ir::*;
use clang::{Entity, EntityKind, TypeKind};

/// What the initializer of a reference binds.
enum Binding<'tu> {
    /// An object that outlives the statement: a variable, `*p`, a call returning a reference.
    Lvalue,
    /// A temporary: the expression that makes it.
    Temporary(Entity<'tu>),
    /// Either, as far as libclang shows (a cast, `?:`, a member of an expression's result).
    Unclear,
}

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    /// The place reference `var`, declared with initializer `init`, names. A temporary it binds
    /// is destroyed with the objects of the block.
    pub(super) fn bind_reference(
        &mut self,
        var: Entity<'tu>,
        init: Entity<'tu>,
        span: Span,
    ) -> Place {
        match binding(init) {
            Binding::Lvalue => self.lvalue(init),
            Binding::Temporary(t) => {
                let ct = self.ctype(t);
                let place = if ct.is_aggregate() {
                    self.aggregate(t)
                } else {
                    let place = if self.frame().addressed.contains(&var) {
                        self.new_local_mem("%temporary", ct, span)
                    } else {
                        self.new_var("%temporary", ct, span)
                    };
                    self.init_place(&place, t, span);
                    place
                };
                self.track_object(t.get_type(), Some(place.clone()));
                place
            }
            Binding::Unclear => {
                let place = if self.ctype(init).is_aggregate() {
                    self.aggregate(init)
                } else {
                    self.lvalue(init)
                };
                self.track_object(init.get_type(), None);
                place
            }
        }
    }

    /// The temporaries statement `s` makes (`Flush{a};`, an argument passed by value) whose
    /// class needs destruction: their destructors run at the end of the statement. A declared
    /// variable's own initializer is the variable, and a temporary a reference keeps is
    /// destroyed later, not here.
    pub(super) fn destroy_temporaries(&mut self, s: Entity<'tu>, span: Span) {
        let own: Vec<Entity> = match s.get_kind() {
            EntityKind::DeclStmt => s.get_children().into_iter().flat_map(own_object).collect(),
            _ => Vec::new(),
        };
        let mut found = Vec::new();
        visit(s, &mut |x| {
            let named = matches!(
                x.get_kind(),
                EntityKind::DeclRefExpr
                    | EntityKind::MemberRefExpr
                    | EntityKind::ArraySubscriptExpr
                    | EntityKind::UnaryOperator
                    | EntityKind::VarDecl
                    | EntityKind::ParenExpr
                    | EntityKind::UnexposedExpr
            );
            if named || !x.is_expression() || own.contains(&x) {
                return;
            }
            let class = x.get_type().and_then(class_of);
            if let Some(class) = class.filter(|c| needs_destruction(*c, 0)) {
                found.extend(destructors(class, 0));
            }
        });
        self.opaque_calls(found, "destructors of temporaries", span);
    }
}

fn binding(e: Entity) -> Binding {
    let kids = e.get_children();
    let exprs: Vec<Entity> = kids.iter().copied().filter(|k| k.is_expression()).collect();
    match e.get_kind() {
        EntityKind::ParenExpr | EntityKind::UnexposedExpr if kids.len() == 1 => binding(kids[0]),
        EntityKind::DeclRefExpr | EntityKind::ArraySubscriptExpr | EntityKind::StringLiteral => {
            Binding::Lvalue
        }
        // `p->m`, or `x.m` of an object that is an lvalue; `f().m` keeps all of `f()`.
        EntityKind::MemberRefExpr => match exprs.first() {
            None => Binding::Lvalue,
            Some(b)
                if b.get_type()
                    .is_some_and(|t| t.get_kind() == TypeKind::Pointer) =>
            {
                Binding::Lvalue
            }
            Some(b) => match binding(*b) {
                Binding::Lvalue => Binding::Lvalue,
                _ => Binding::Unclear,
            },
        },
        EntityKind::UnaryOperator => match unary_op_text(e).as_deref() {
            Some("*") => Binding::Lvalue,
            Some("++" | "--") => Binding::Unclear,
            _ => Binding::Temporary(e),
        },
        EntityKind::CompoundAssignOperator => Binding::Lvalue,
        EntityKind::BinaryOperator => match e.get_display_name().as_deref() {
            Some("=") => Binding::Lvalue,
            Some(",") => exprs.last().map_or(Binding::Unclear, |r| binding(*r)),
            _ => Binding::Temporary(e),
        },
        EntityKind::CallExpr => call_binding(e),
        EntityKind::IntegerLiteral
        | EntityKind::FloatingLiteral
        | EntityKind::CharacterLiteral
        | EntityKind::BoolLiteralExpr
        | EntityKind::NullPtrLiteralExpr
        | EntityKind::InitListExpr
        | EntityKind::FunctionalCastExpr
        | EntityKind::CompoundLiteralExpr
        | EntityKind::LambdaExpr => Binding::Temporary(e),
        EntityKind::ConditionalOperator => {
            let arms = exprs.iter().skip(1).map(|a| binding(*a));
            if exprs.len() == 3 && arms.into_iter().all(|b| matches!(b, Binding::Lvalue)) {
                Binding::Lvalue
            } else {
                Binding::Unclear
            }
        }
        _ => Binding::Unclear,
    }
}

/// A constructor call or a call returning by value makes a temporary; a call returning a
/// reference names an object.
fn call_binding(e: Entity) -> Binding {
    let Some(f) = e.get_reference() else {
        return Binding::Unclear;
    };
    if f.get_kind() == EntityKind::Constructor {
        return Binding::Temporary(e);
    }
    match f.get_result_type().map(|t| t.get_kind()) {
        Some(TypeKind::LValueReference | TypeKind::RValueReference) => Binding::Lvalue,
        Some(_) => Binding::Temporary(e),
        None => Binding::Unclear,
    }
}

/// The nodes of a declaration's initializer that are the declared object itself, not
/// temporaries: for a variable its initializer, for a reference the temporary it keeps; each
/// with the nodes under it that are the same object (parentheses, clang's implicit nodes, a
/// cast of a class to itself: `Flush{a}` is a cast of the braced list).
fn own_object(var: Entity) -> Vec<Entity> {
    let Some(init) = var.get_children().into_iter().rfind(|c| c.is_expression()) else {
        return Vec::new();
    };
    let is_ref = var.get_type().is_some_and(|t| {
        matches!(
            t.get_kind(),
            TypeKind::LValueReference | TypeKind::RValueReference
        )
    });
    let mut cur = match (is_ref, binding(init)) {
        (false, _) => init,
        (true, Binding::Temporary(t)) => t,
        (true, _) => return Vec::new(),
    };
    let mut out = vec![cur];
    while let [inner] = cur
        .get_children()
        .into_iter()
        .filter(|k| k.is_expression())
        .collect::<Vec<_>>()[..]
    {
        let class = cur.get_type().and_then(class_of);
        let wraps = matches!(
            cur.get_kind(),
            EntityKind::ParenExpr
                | EntityKind::UnexposedExpr
                | EntityKind::FunctionalCastExpr
                | EntityKind::CStyleCastExpr
                | EntityKind::StaticCastExpr
        );
        if !wraps || class.is_none() || inner.get_type().and_then(class_of) != class {
            break;
        }
        out.push(inner);
        cur = inner;
    }
    out
}
