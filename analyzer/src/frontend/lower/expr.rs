//! Expressions: rvalues (pure IR expressions, side effects emitted as statements first), lvalues
//! (places) and aggregates.
//!
//! `&&`, `||` and `?:` are lowered to control flow when their right side (an arm) reads memory
//! or has effects, so that no read happens that C would not do; a pure one stays an expression.
//!
//! Sites: `lvalue(e)` stamps the place it returns with `e`'s full extent (`ModuleCtx::site`), so
//! every access records the text naming its memory: for an atomic, the pointer argument; for a
//! returned reference, the call. That site is `Macro` when either end of the extent comes from a
//! macro expansion (spelling and expansion locations differ), `Implicit` for memory with no
//! expression of its own (initialisers, temporaries, builtins' memory). The fields of a struct
//! copy share the site of the whole struct lvalue. An lvalue of `volatile` type marks its site,
//! and the accesses at that site are `Access::volatile`.

use super::{convert, ptr_add, scalar_ctype, CallValue, KernelLowerer, Place};
use crate::frontend::cursor::{
    has_attr, has_side_effects, root_name, skip_transparent, unary_op_text,
};
use crate::frontend::types::{classify, CType};
use crate::ir::*;
use clang::source::SourceRange;
use clang::{Entity, EntityKind, EvaluationResult};

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    pub(super) fn ctype(&self, e: Entity<'tu>) -> CType {
        e.get_type().map(classify).unwrap_or(CType::Void)
    }

    pub(super) fn vty(&self, e: Entity<'tu>) -> Ty {
        self.ctype(e).value_ty().unwrap_or(Ty::I32)
    }

    /// Lowers `e` into a fresh block, returning the statements it emitted and its value.
    pub(super) fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (Block, T) {
        self.out.push(Vec::new());
        let v = f(self);
        (self.out.pop().unwrap_or_default(), v)
    }

    /// Copies a value into a fresh local, so later side effects cannot change it.
    pub(super) fn snapshot(&mut self, v: Expr, span: Span) -> Expr {
        match v.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Param(_)
            | ExprKind::Special(_)
            | ExprKind::SharedAddr(_)
            | ExprKind::GlobalAddr(_)
            | ExprKind::LocalAddr(_)
            | ExprKind::Opaque { .. } => v,
            _ => {
                let ty = v.ty;
                let t = self.new_temp(ty);
                self.emit(StmtKind::Assign { dst: t, value: v }, span);
                Expr::new(ExprKind::Local(t), ty)
            }
        }
    }

    pub(super) fn cond(&mut self, e: Entity<'tu>) -> Expr {
        let v = self.rvalue(e);
        to_bool(v)
    }

    pub(super) fn constant(&self, e: Entity<'tu>) -> Option<Expr> {
        let ty = self.vty(e);
        match e.evaluate()? {
            EvaluationResult::SignedInteger(v) => Some(Expr::int(v, ty)),
            EvaluationResult::UnsignedInteger(v) => Some(Expr::int(v as i64, ty)),
            EvaluationResult::Float(f) => Some(Expr::new(ExprKind::Float(f), ty)),
            _ => None,
        }
    }

    /// Some member of `threadIdx` & co., not known which: any of the three. Read as a value
    /// the kernel does not compute, it would leave the kernel reading no dimension of it, and
    /// so launched with extents of 1 there, which proves races away.
    fn any_member(&mut self, e: Entity<'tu>, ctor: SpecialCtor) -> Expr {
        let span = self.m.span(e);
        self.m.warn(
            span,
            "cannot tell which member of a built-in variable this reads: taken as any of `x`, `y` and `z`"
                .to_string(),
        );
        let dim = |d| Expr::new(ExprKind::Special(ctor(d)), Ty::U32);
        let pick = |what: &str, a: Expr, b: Expr| {
            let cond = Expr::opaque(what.to_string(), Ty::BOOL);
            Expr::new(
                ExprKind::Select(Box::new(cond), Box::new(a), Box::new(b)),
                Ty::U32,
            )
        };
        let yz = pick("member y or z", dim(Dim::Y), dim(Dim::Z));
        pick("member x", dim(Dim::X), yz)
    }

    fn opaque_expr(&mut self, e: Entity<'tu>, what: String) -> Expr {
        let span = self.m.span(e);
        self.m.warn(span, format!("unsupported expression: {what}"));
        self.dropped.push(e);
        self.hidden_effects(e, span);
        Expr::opaque(what, self.vty(e))
    }

    /// An expression the IR cannot hold may still write memory (`a[s->n++]`, a call inside):
    /// an opaque statement says so, and the analysis proves nothing beside it.
    fn hidden_effects(&mut self, e: Entity<'tu>, span: Span) {
        if has_side_effects(e) {
            self.emit(
                StmtKind::Opaque {
                    reason: "effects of an unsupported expression".into(),
                },
                span,
            );
        }
    }

    pub(super) fn rvalue(&mut self, e: Entity<'tu>) -> Expr {
        let span = self.m.span(e);
        let ct = self.ctype(e);
        let kids = e.get_children();
        match e.get_kind() {
            EntityKind::IntegerLiteral
            | EntityKind::CharacterLiteral
            | EntityKind::BoolLiteralExpr
            | EntityKind::FloatingLiteral
            | EntityKind::UnaryExpr => match self.constant(e) {
                Some(c) => c,
                None => self.opaque_expr(e, "constant".into()),
            },
            EntityKind::NullPtrLiteralExpr | EntityKind::GNUNullExpr => {
                Expr::int(0, ct.value_ty().unwrap_or(Ty::Ptr(Space::Generic)))
            }
            EntityKind::ParenExpr if kids.len() == 1 => self.rvalue(kids[0]),
            EntityKind::UnexposedExpr | EntityKind::ParenExpr => match kids.as_slice() {
                [child] if to_base_elsewhere(e, *child) => {
                    self.effect(*child);
                    Expr::opaque(
                        "pointer to a base at an unknown offset",
                        ct.value_ty().unwrap_or(Ty::Void),
                    )
                }
                [child] => self.converted(*child, &ct),
                _ => match self.constant(e) {
                    Some(c) => c,
                    None => self.opaque_expr(e, "implicit expression".into()),
                },
            },
            EntityKind::CStyleCastExpr
            | EntityKind::StaticCastExpr
            | EntityKind::FunctionalCastExpr
            | EntityKind::ReinterpretCastExpr
            | EntityKind::ConstCastExpr => match kids.iter().rfind(|k| k.is_expression()) {
                Some(operand) => self.converted(*operand, &ct),
                None => self.opaque_expr(e, "cast".into()),
            },
            EntityKind::DeclRefExpr => {
                if let Some(s) = special_var(e) {
                    return s;
                }
                if matches!(ct, CType::Array { .. }) {
                    let place = self.lvalue(e);
                    return self.address_of(&place, span);
                }
                let place = self.lvalue(e);
                self.read(&place, span)
            }
            EntityKind::MemberRefExpr => {
                match special_member(e, self.call_stack.last().copied()) {
                    Some(Builtin::Member(s)) => return s,
                    Some(Builtin::AnyOf(ctor)) => return self.any_member(e, ctor),
                    None => {}
                }
                let place = self.lvalue(e);
                if matches!(ct, CType::Array { .. }) {
                    return self.address_of(&place, span);
                }
                self.read(&place, span)
            }
            EntityKind::ArraySubscriptExpr => {
                let place = self.lvalue(e);
                if matches!(ct, CType::Array { .. }) {
                    return self.address_of(&place, span);
                }
                self.read(&place, span)
            }
            EntityKind::UnaryOperator => self.unary(e, true),
            EntityKind::BinaryOperator => self.binary(e, true),
            EntityKind::CompoundAssignOperator => self.compound_assign(e, true),
            EntityKind::ConditionalOperator => self.conditional(e),
            EntityKind::CallExpr => match self.call(e) {
                Some(CallValue::Value(v)) => v,
                // A returned reference is named by the call expression itself.
                Some(CallValue::Place(Place::Mem {
                    addr, ty, array, ..
                })) => {
                    let site = self.m.site(e);
                    self.read(
                        &Place::Mem {
                            addr,
                            ty,
                            array,
                            site,
                        },
                        span,
                    )
                }
                Some(CallValue::Place(p)) => self.read(&p, span),
                None => Expr::opaque("call result", ct.value_ty().unwrap_or(Ty::Void)),
            },
            EntityKind::InitListExpr => match kids.first() {
                Some(k) => {
                    let v = self.rvalue(*k);
                    convert(v, ct.value_ty().unwrap_or(Ty::I32))
                }
                None => Expr::int(0, ct.value_ty().unwrap_or(Ty::I32)),
            },
            EntityKind::ThisExpr => match self.frame().this.clone() {
                Some(p) => self.address_of(&p, span),
                None => self.opaque_expr(e, "`this` outside a method".into()),
            },
            EntityKind::StmtExpr => self.statement_expression(e),
            // clang evaluates some expressions with effects (a statement expression's value)
            // as constants: the effects would be lost.
            kind => match self.constant(e).filter(|_| !has_side_effects(e)) {
                Some(c) => c,
                None => self.opaque_expr(e, format!("{kind:?}")),
            },
        }
    }

    /// The value of `child` converted to `to`, with array-to-pointer decay.
    fn converted(&mut self, child: Entity<'tu>, to: &CType) -> Expr {
        if skip_transparent(child).get_kind() == EntityKind::StringLiteral {
            // String literals have no address in the IR; as values they are only ever tested
            // for null (`assert(c && "message")`) or printed.
            return Expr::int(1, to.value_ty().unwrap_or(Ty::Ptr(Space::Constant)));
        }
        let child_ct = self.ctype(child);
        if matches!(child_ct, CType::Array { .. }) && matches!(to, CType::Ptr(_)) {
            let span = self.m.span(child);
            let place = self.lvalue(child);
            return self.address_of(&place, span);
        }
        let v = self.rvalue(child);
        match to.value_ty() {
            Some(Ty::Void) | None => v,
            Some(ty) => convert(v, ty),
        }
    }

    pub(super) fn address_of(&mut self, place: &Place, span: Span) -> Expr {
        match place {
            Place::Mem { addr, .. } => addr.clone(),
            Place::Local(..) | Place::Value(..) => {
                self.m
                    .warn(span, "address of a register variable".to_string());
                Expr::opaque("address of a register variable", Ty::Ptr(Space::Generic))
            }
            Place::Opaque(r) => Expr::opaque(r.clone(), Ty::Ptr(Space::Generic)),
        }
    }

    /// GNU's `({ s1; s2; e; })`: the statements run in a block of their own, and the value is
    /// the last expression's, taken before the block's objects are destroyed.
    fn statement_expression(&mut self, e: Entity<'tu>) -> Expr {
        let span = self.m.span(e);
        let items = match e.get_children().as_slice() {
            [body] if body.get_kind() == EntityKind::CompoundStmt => body.get_children(),
            _ => return self.opaque_expr(e, "statement expression".into()),
        };
        let mark = self.frame().objects.len();
        let value = match items.split_last() {
            Some((last, before)) if last.is_expression() => {
                self.stmts(before);
                let v = self.rvalue(*last);
                self.snapshot(v, span)
            }
            _ => {
                self.stmts(&items);
                Expr::opaque("statement expression without a value", self.vty(e))
            }
        };
        self.destroy_objects(mark, span);
        value
    }

    /// Evaluates `e` only for its side effects.
    pub(super) fn effect(&mut self, e: Entity<'tu>) {
        match e.get_kind() {
            EntityKind::UnaryOperator => {
                self.unary(e, false);
            }
            EntityKind::BinaryOperator => {
                self.binary(e, false);
            }
            EntityKind::CompoundAssignOperator => {
                self.compound_assign(e, false);
            }
            EntityKind::CallExpr => {
                self.call(e);
            }
            EntityKind::ParenExpr | EntityKind::UnexposedExpr if e.get_children().len() == 1 => {
                self.effect(e.get_children()[0])
            }
            EntityKind::CStyleCastExpr | EntityKind::StaticCastExpr
                if self.ctype(e) == CType::Void =>
            {
                if let Some(op) = e.get_children().into_iter().rfind(|k| k.is_expression()) {
                    self.effect(op)
                }
            }
            EntityKind::ConditionalOperator => {
                let kids = e.get_children();
                if let [c, a, b] = kids.as_slice() {
                    let span = self.m.span(e);
                    let cond = self.cond(*c);
                    let then_body = self.block(|s| s.effect(*a));
                    let else_body = self.block(|s| s.effect(*b));
                    self.emit(
                        StmtKind::If {
                            cond,
                            then_body,
                            else_body,
                        },
                        span,
                    );
                }
            }
            EntityKind::StmtExpr => {
                self.statement_expression(e);
            }
            // A discarded expression still performs its reads (e.g. `(void)s[i];`).
            _ => self.reads_of(e),
        }
    }

    /// Performs the reads of `e`'s value, which is not used here (an operand of inline PTX).
    pub(super) fn reads_of(&mut self, e: Entity<'tu>) {
        let span = self.m.span(e);
        let v = self.rvalue(e);
        if contains_load(&v) {
            self.snapshot(v, span);
        }
    }

    /// The place `e` names; in memory, with `e`'s whole extent as the site of its accesses.
    pub(super) fn lvalue(&mut self, e: Entity<'tu>) -> Place {
        let place = self.lvalue_at(e);
        match place {
            Place::Mem {
                addr, ty, array, ..
            } => {
                let site = self.m.site(e);
                let volatile = e.get_type().is_some_and(|t| t.is_volatile_qualified());
                if let (true, Site::Expr(span)) = (volatile, site) {
                    self.volatile_sites.insert(span);
                }
                Place::Mem {
                    addr,
                    ty,
                    array,
                    site,
                }
            }
            p => p,
        }
    }

    fn lvalue_at(&mut self, e: Entity<'tu>) -> Place {
        let span = self.m.span(e);
        let kids = e.get_children();
        match e.get_kind() {
            EntityKind::UnexposedExpr if kids.len() == 1 && to_base_elsewhere(e, kids[0]) => {
                self.effect(kids[0]);
                Place::Opaque("base at an unknown offset".into())
            }
            EntityKind::ParenExpr | EntityKind::UnexposedExpr if kids.len() == 1 => {
                self.lvalue(kids[0])
            }
            EntityKind::CStyleCastExpr
            | EntityKind::StaticCastExpr
            | EntityKind::ReinterpretCastExpr
            | EntityKind::ConstCastExpr => match kids.iter().rfind(|k| k.is_expression()) {
                Some(op) => {
                    let mut p = self.lvalue(*op);
                    if let Place::Mem { ty, .. } = &mut p {
                        *ty = self.ctype(e);
                    }
                    p
                }
                None => Place::Opaque("cast".into()),
            },
            EntityKind::DeclRefExpr => self.declref_place(e),
            EntityKind::ArraySubscriptExpr => self.subscript(e),
            EntityKind::MemberRefExpr => self.member(e),
            EntityKind::UnaryOperator if unary_op_text(e).as_deref() == Some("*") => {
                let Some(child) = kids.first() else {
                    return Place::Opaque("dereference".into());
                };
                let addr = self.rvalue(*child);
                Place::Mem {
                    addr,
                    ty: self.ctype(e),
                    array: root_name(*child),
                    site: Site::Implicit,
                }
            }
            EntityKind::CallExpr => match self.call(e) {
                Some(CallValue::Place(p)) => p,
                _ => Place::Opaque("call result used as an lvalue".into()),
            },
            EntityKind::UnaryOperator
            | EntityKind::BinaryOperator
            | EntityKind::CompoundAssignOperator => {
                // `++x` and `x = y` are lvalues in C++: do the effect, then name the target.
                self.effect(e);
                match kids.first() {
                    Some(k) => self.lvalue(*k),
                    None => Place::Opaque("lvalue".into()),
                }
            }
            kind => {
                self.m
                    .warn(span, format!("unsupported lvalue expression: {kind:?}"));
                self.dropped.push(e);
                self.hidden_effects(e, span);
                Place::Opaque(format!("{kind:?}"))
            }
        }
    }

    /// An aggregate-valued expression as a memory place holding its value (opaque when the
    /// front end cannot tell; copying from an opaque place emits an opaque statement).
    pub(super) fn aggregate(&mut self, e: Entity<'tu>) -> Place {
        let span = self.m.span(e);
        let kids = e.get_children();
        match e.get_kind() {
            EntityKind::UnexposedExpr if kids.len() == 1 && to_base_elsewhere(e, kids[0]) => {
                self.effect(kids[0]);
                Place::Opaque("base at an unknown offset".into())
            }
            EntityKind::ParenExpr | EntityKind::UnexposedExpr if kids.len() == 1 => {
                self.aggregate(kids[0])
            }
            EntityKind::CStyleCastExpr
            | EntityKind::StaticCastExpr
            | EntityKind::FunctionalCastExpr => match kids.iter().rfind(|k| k.is_expression()) {
                Some(op) => self.aggregate(*op),
                None => Place::Opaque("aggregate cast".into()),
            },
            EntityKind::CallExpr => match self.call(e) {
                Some(CallValue::Place(p)) => p,
                _ => Place::Opaque("aggregate call".into()),
            },
            EntityKind::InitListExpr => {
                let ct = self.ctype(e);
                let place = self.new_local_mem("%agg", ct, span);
                self.init_aggregate(&place, e, span);
                place
            }
            EntityKind::ConditionalOperator => self.aggregate_conditional(e, span),
            _ => self.lvalue(e),
        }
    }

    /// `c ? a : b` of struct type: a temporary filled from whichever side runs.
    fn aggregate_conditional(&mut self, e: Entity<'tu>, span: Span) -> Place {
        let kids = e.get_children();
        let [c, a, b] = kids.as_slice() else {
            return Place::Opaque("conditional operator".into());
        };
        let ct = self.ctype(e);
        let temp = self.new_local_mem("%cond", ct, span);
        let cond = self.cond(*c);
        let then_body = self.block(|s| {
            let src = s.aggregate(*a);
            s.copy_aggregate(&temp, &src, span);
        });
        let else_body = self.block(|s| {
            let src = s.aggregate(*b);
            s.copy_aggregate(&temp, &src, span);
        });
        self.emit(
            StmtKind::If {
                cond,
                then_body,
                else_body,
            },
            span,
        );
        temp
    }

    fn declref_place(&mut self, e: Entity<'tu>) -> Place {
        let span = self.m.span(e);
        let ct = self.ctype(e);
        let Some(decl) = e.get_reference() else {
            // A substituted template parameter: clang keeps the argument as the only child.
            if let Some(c) = e.get_children().first().and_then(|c| self.constant(*c)) {
                return Place::Value(convert(c, ct.value_ty().unwrap_or(Ty::I32)), ct);
            }
            self.m.warn(span, "unresolved name".to_string());
            return Place::Opaque("unresolved name".into());
        };
        if let Some(p) = self.frame().env.get(&decl) {
            return p.clone();
        }
        match decl.get_kind() {
            EntityKind::VarDecl => {
                if has_attr(decl, EntityKind::CudaSharedAttr) {
                    return self.shared_var(decl);
                }
                if let Some(ctor) = builtin_variable(e).filter(|_| ct.size() == Some(12)) {
                    let name = decl.get_name().unwrap_or_default();
                    return self.builtin_object((&name, ctor), ct, span);
                }
                if has_attr(decl, EntityKind::CudaDeviceAttr)
                    || has_attr(decl, EntityKind::CudaConstantAttr)
                {
                    return self.m.global_place(decl);
                }
                // A host-side constant (`const int N = 8;`) folds to its value.
                if let Some(c) = self.constant(e) {
                    return Place::Value(c, ct);
                }
            }
            EntityKind::FunctionDecl => {
                let id = self.m.function_id(decl);
                return Place::Value(Expr::int(id as i64, Ty::U64), ct);
            }
            EntityKind::EnumConstantDecl | EntityKind::NonTypeTemplateParameter => {
                if let Some(c) = self.constant(e) {
                    return Place::Value(c, ct);
                }
            }
            _ => {}
        }
        let name = decl.get_name().unwrap_or_default();
        if ct.is_texture() {
            return Place::Opaque(format!("texture `{name}`"));
        }
        self.m
            .warn(span, format!("unsupported reference to `{name}`"));
        Place::Opaque(format!("reference to `{name}`"))
    }

    /// The stand-ins' plain `uint3 threadIdx` & co. as a whole (`uint3 t = threadIdx;`,
    /// `f(threadIdx)`): a thread's own object holding the three members, as a toolkit's
    /// conversion to `uint3` makes one.
    fn builtin_object(
        &mut self,
        (name, ctor): (&str, SpecialCtor),
        ct: CType,
        span: Span,
    ) -> Place {
        let object = self.new_local_mem(name, ct, span);
        if let Place::Mem { addr, .. } = &object {
            for (i, d) in [Dim::X, Dim::Y, Dim::Z].into_iter().enumerate() {
                let member = Place::Mem {
                    addr: ptr_add(addr.clone(), 4 * i as i64),
                    ty: scalar_ctype(Ty::U32),
                    array: Some(name.to_string()),
                    site: Site::Implicit,
                };
                self.write(
                    &member,
                    Expr::new(ExprKind::Special(ctor(d)), Ty::U32),
                    span,
                );
            }
        }
        object
    }

    fn subscript(&mut self, e: Entity<'tu>) -> Place {
        let span = self.m.span(e);
        let kids = e.get_children();
        let [mut base, mut idx] = kids.as_slice() else {
            return Place::Opaque("subscript".into());
        };
        if !matches!(self.ctype(base), CType::Ptr(_) | CType::Array { .. }) {
            std::mem::swap(&mut base, &mut idx);
        }
        let base_v = self.rvalue(base);
        let base_v = if has_side_effects(idx) {
            self.snapshot(base_v, span)
        } else {
            base_v
        };
        let index = self.rvalue(idx);
        let ty = self.ctype(e);
        let Some(size) = ty.size() else {
            return Place::Opaque(format!("element of unknown size {ty:?}"));
        };
        if let Some(len) = self.array_len(base) {
            self.assume_in_bounds(&index, len, span);
        }
        Place::Mem {
            addr: offset_ptr(base_v, index, size, false),
            ty,
            array: root_name(base),
            site: Site::Implicit,
        }
    }

    /// The number of elements of the array `e` names before it decays to a pointer.
    fn array_len(&self, mut e: Entity<'tu>) -> Option<u64> {
        loop {
            if let CType::Array { len, .. } = self.ctype(e) {
                return len;
            }
            match (e.get_kind(), e.get_children().as_slice()) {
                (EntityKind::ParenExpr | EntityKind::UnexposedExpr, [inner]) => e = *inner,
                _ => return None,
            }
        }
    }

    /// `0 <= index < len` for a subscript of an array of `len` elements, when the index reads
    /// no memory (a second evaluation would be a second access) and is not a constant.
    fn assume_in_bounds(&mut self, index: &Expr, len: u64, span: Span) {
        let mut pure = !matches!(index.kind, ExprKind::Int(_));
        index.walk(&mut |x| {
            pure &= !matches!(
                x.kind,
                ExprKind::Load { .. } | ExprKind::Call(..) | ExprKind::Opaque { .. }
            )
        });
        let Ok(len) = i64::try_from(len) else {
            return;
        };
        if !pure {
            return;
        }
        let i = convert(index.clone(), Ty::I64);
        let low = make_binary(BinOp::Ge, i.clone(), Expr::int(0, Ty::I64), Ty::BOOL);
        let high = make_binary(BinOp::Lt, i, Expr::int(len, Ty::I64), Ty::BOOL);
        let cond = make_binary(BinOp::LAnd, low, high, Ty::BOOL);
        self.emit(
            StmtKind::Assume {
                kind: AssumeKind::InBounds,
                cond,
            },
            span,
        );
    }

    fn member(&mut self, e: Entity<'tu>) -> Place {
        let span = self.m.span(e);
        let ty = self.ctype(e);
        let Some(field) = e.get_reference() else {
            return Place::Opaque("member".into());
        };
        let offset = match field.get_offset_of_field() {
            Ok(bits) => bits as i64 / 8,
            Err(_) => {
                if field.get_kind() == EntityKind::Method {
                    return Place::Opaque("method reference".into());
                }
                self.m.warn(span, "member with unknown offset".to_string());
                return Place::Opaque("member with unknown offset".into());
            }
        };
        let base = e.get_children().into_iter().find(|c| c.is_expression());
        let (addr, array) = match base {
            None => match self.frame().this.clone() {
                Some(p) => (self.address_of(&p, span), None),
                None => return Place::Opaque("implicit `this`".into()),
            },
            Some(b) => {
                if let CType::Ptr(_) = self.ctype(b) {
                    (self.rvalue(b), root_name(b))
                } else {
                    match self.aggregate(b) {
                        Place::Mem { addr, array, .. } => (addr, array),
                        other => return other,
                    }
                }
            }
        };
        let at = ptr_add(addr, offset);
        // A reference member's slot holds the address it was bound to: the member is the
        // object there, not the slot (which would alias a copy, and hide what it refers to).
        if field
            .get_type()
            .is_some_and(|t| matches!(classify(t), CType::Ref(_)))
        {
            let ptr = CType::Ptr(Box::new(ty.clone()));
            let holder =
                crate::ir::space::local_slot(&at).and_then(|k| self.ref_members.get(&k).copied());
            let slot = match holder {
                Some(local) => Place::Local(local, ptr),
                None => Place::Mem {
                    addr: at,
                    ty: ptr,
                    array,
                    site: Site::Implicit,
                },
            };
            let bound = self.read(&slot, span);
            return Place::Mem {
                addr: bound,
                ty,
                array: None,
                site: Site::Implicit,
            };
        }
        Place::Mem {
            addr: at,
            ty,
            array,
            site: Site::Implicit,
        }
    }

    fn unary(&mut self, e: Entity<'tu>, want: bool) -> Expr {
        let span = self.m.span(e);
        let ty = self.vty(e);
        let Some(child) = e.get_children().into_iter().next() else {
            return self.opaque_expr(e, "unary operator".into());
        };
        let op = unary_op_text(e).unwrap_or_default();
        match op.as_str() {
            "++" | "--" | "++post" | "--post" => self.inc_dec(e, child, &op, want),
            "&" => {
                let place = self.lvalue(child);
                match place {
                    // `&f` of a function is its function id, like `f` itself.
                    Place::Value(v, CType::Unsupported(_)) if v.ty == Ty::U64 => v,
                    _ => self.address_of(&place, span),
                }
            }
            "*" => {
                let place = self.lvalue(e);
                self.read(&place, span)
            }
            "+" => self.converted(child, &self.ctype(e)),
            "-" | "~" | "!" => {
                let v = self.rvalue(child);
                let (uop, ty) = match op.as_str() {
                    "-" => (UnOp::Neg, ty),
                    "~" => (UnOp::Not, ty),
                    _ => (UnOp::LNot, Ty::BOOL),
                };
                let v = if uop == UnOp::LNot { to_bool(v) } else { v };
                Expr::new(ExprKind::Unary(uop, Box::new(v)), ty)
            }
            _ => self.opaque_expr(e, format!("unary operator `{op}`")),
        }
    }

    fn inc_dec(&mut self, e: Entity<'tu>, target: Entity<'tu>, op: &str, want: bool) -> Expr {
        let span = self.m.span(e);
        let place = self.lvalue(target);
        let place = self.stabilize(place, span);
        let old = self.read(&place, span);
        let old = if want && op.ends_with("post") {
            self.snapshot(old, span)
        } else {
            old
        };
        let delta: i64 = if op.starts_with("++") { 1 } else { -1 };
        let new = match place.ctype() {
            CType::Ptr(p) => ptr_add(old.clone(), delta * p.size().unwrap_or(1) as i64),
            _ => {
                let ty = old.ty;
                let one = match ty {
                    Ty::Scalar(s) if s.is_float() => Expr::new(ExprKind::Float(1.0), ty),
                    _ => Expr::int(1, ty),
                };
                let bop = if delta > 0 { BinOp::Add } else { BinOp::Sub };
                Expr::new(
                    ExprKind::Binary(bop, Box::new(old.clone()), Box::new(one)),
                    ty,
                )
            }
        };
        if !want {
            self.write(&place, new, span);
            return Expr::opaque("unused", Ty::Void);
        }
        if op.ends_with("post") {
            self.write(&place, new, span);
            old
        } else {
            // The value of `++x` is the stored value, not a second read of `x`.
            let new = self.snapshot(new, span);
            self.write(&place, new.clone(), span);
            new
        }
    }

    /// Makes a place's address immune to re-evaluation (`a[idx[i]] += 1` reads `idx[i]` once).
    pub(super) fn stabilize(&mut self, place: Place, span: Span) -> Place {
        match place {
            Place::Mem {
                addr,
                ty,
                array,
                site,
            } if contains_load(&addr) => Place::Mem {
                addr: self.snapshot(addr, span),
                ty,
                array,
                site,
            },
            p => p,
        }
    }

    fn binary(&mut self, e: Entity<'tu>, want: bool) -> Expr {
        let span = self.m.span(e);
        let kids = e.get_children();
        let [l, r] = kids.as_slice() else {
            return self.opaque_expr(e, "binary operator".into());
        };
        let op = e.get_display_name().unwrap_or_default();
        match op.as_str() {
            "=" => return self.assign(*l, *r, span, want),
            "," => {
                self.effect(*l);
                return self.rvalue(*r);
            }
            "&&" | "||" => return self.logical(*l, *r, op == "&&", span),
            _ => {}
        }
        let (lct, rct) = (self.ctype(*l), self.ctype(*r));
        let lv = self.rvalue(*l);
        let lv = if has_side_effects(*r) {
            self.snapshot(lv, span)
        } else {
            lv
        };
        let rv = self.rvalue(*r);
        let ty = self.vty(e);
        match (op.as_str(), &lct, &rct) {
            ("+", CType::Ptr(p), _) => return offset_ptr(lv, rv, p.size().unwrap_or(1), false),
            ("+", _, CType::Ptr(p)) => return offset_ptr(rv, lv, p.size().unwrap_or(1), false),
            ("-", CType::Ptr(p), CType::Ptr(_)) => {
                let diff = Expr::new(
                    ExprKind::Binary(BinOp::PtrDiff, Box::new(lv), Box::new(rv)),
                    Ty::I64,
                );
                let size = Expr::int(p.size().unwrap_or(1) as i64, Ty::I64);
                return convert(
                    Expr::new(
                        ExprKind::Binary(BinOp::Div, Box::new(diff), Box::new(size)),
                        Ty::I64,
                    ),
                    ty,
                );
            }
            ("-", CType::Ptr(p), _) => return offset_ptr(lv, rv, p.size().unwrap_or(1), true),
            _ => {}
        }
        match arith_op(&op) {
            Some(bop) => make_binary(bop, lv, rv, ty),
            None => self.opaque_expr(e, format!("binary operator `{op}`")),
        }
    }

    fn assign(&mut self, l: Entity<'tu>, r: Entity<'tu>, span: Span, want: bool) -> Expr {
        if self.ctype(l).is_aggregate() {
            let src = self.aggregate(r);
            let dst = self.lvalue(l);
            self.copy_aggregate(&dst, &src, span);
            return Expr::opaque("aggregate", Ty::Void);
        }
        let v = self.rvalue(r);
        let v = if want || has_side_effects(l) {
            self.snapshot(v, span)
        } else {
            v
        };
        let place = self.lvalue(l);
        self.write(&place, v.clone(), span);
        v
    }

    fn compound_assign(&mut self, e: Entity<'tu>, want: bool) -> Expr {
        let span = self.m.span(e);
        let kids = e.get_children();
        let [l, r] = kids.as_slice() else {
            return self.opaque_expr(e, "compound assignment".into());
        };
        let op = e.get_display_name().unwrap_or_default();
        let bop_text = op.trim_end_matches('=');
        let rv = self.rvalue(*r);
        let rv = if has_side_effects(*l) {
            self.snapshot(rv, span)
        } else {
            rv
        };
        let place = self.lvalue(*l);
        let place = self.stabilize(place, span);
        let cur = self.read(&place, span);
        let new = match (place.ctype(), bop_text) {
            (CType::Ptr(p), "+") => offset_ptr(cur, rv, p.size().unwrap_or(1), false),
            (CType::Ptr(p), "-") => offset_ptr(cur, rv, p.size().unwrap_or(1), true),
            (ct, _) => {
                let Some(bop) = arith_op(bop_text) else {
                    return self.opaque_expr(e, format!("compound operator `{op}`"));
                };
                let place_ty = ct.value_ty().unwrap_or(cur.ty);
                // Shifts compute in the left operand's type; the rest in the right operand's
                // (clang has already converted it to the computation type).
                let comp_ty = if matches!(bop, BinOp::Shl | BinOp::Shr) {
                    place_ty
                } else {
                    rv.ty
                };
                let v = make_binary(bop, convert(cur, comp_ty), rv, comp_ty);
                convert(v, place_ty)
            }
        };
        if want {
            let new = self.snapshot(new, span);
            self.write(&place, new.clone(), span);
            new
        } else {
            self.write(&place, new, span);
            Expr::opaque("unused", Ty::Void)
        }
    }

    /// `&&`/`||`: a pure right side stays an expression; one with reads or effects is only
    /// evaluated when the left side does not decide, as C requires.
    fn logical(&mut self, l: Entity<'tu>, r: Entity<'tu>, is_and: bool, span: Span) -> Expr {
        let lv = self.cond(l);
        let (stmts, rv) = self.capture(|s| s.cond(r));
        if stmts.is_empty() && !contains_load(&rv) {
            let op = if is_and { BinOp::LAnd } else { BinOp::LOr };
            return Expr::new(ExprKind::Binary(op, Box::new(lv), Box::new(rv)), Ty::BOOL);
        }
        let t = self.new_temp(Ty::BOOL);
        self.emit(StmtKind::Assign { dst: t, value: lv }, span);
        let tv = Expr::new(ExprKind::Local(t), Ty::BOOL);
        let mut then_body = stmts;
        then_body.push(Stmt {
            kind: StmtKind::Assign { dst: t, value: rv },
            span,
        });
        let cond = if is_and {
            tv.clone()
        } else {
            Expr::new(ExprKind::Unary(UnOp::LNot, Box::new(tv.clone())), Ty::BOOL)
        };
        self.emit(
            StmtKind::If {
                cond,
                then_body,
                else_body: Vec::new(),
            },
            span,
        );
        tv
    }

    fn conditional(&mut self, e: Entity<'tu>) -> Expr {
        let span = self.m.span(e);
        let kids = e.get_children();
        let [c, a, b] = kids.as_slice() else {
            return self.opaque_expr(e, "conditional operator".into());
        };
        let ct = self.ctype(e);
        if ct == CType::Void {
            self.effect(e);
            return Expr::opaque("void", Ty::Void);
        }
        let ty = ct.value_ty().unwrap_or(Ty::I32);
        let cond = self.cond(*c);
        let (sa, va) = self.capture(|s| s.converted(*a, &ct));
        let (sb, vb) = self.capture(|s| s.converted(*b, &ct));
        if sa.is_empty() && sb.is_empty() && !contains_load(&va) && !contains_load(&vb) {
            return Expr::new(
                ExprKind::Select(Box::new(cond), Box::new(va), Box::new(vb)),
                ty,
            );
        }
        let t = self.new_temp(ty);
        let mut then_body = sa;
        then_body.push(Stmt {
            kind: StmtKind::Assign { dst: t, value: va },
            span,
        });
        let mut else_body = sb;
        else_body.push(Stmt {
            kind: StmtKind::Assign { dst: t, value: vb },
            span,
        });
        self.emit(
            StmtKind::If {
                cond,
                then_body,
                else_body,
            },
            span,
        );
        Expr::new(ExprKind::Local(t), ty)
    }
}

pub(crate) fn to_bool(v: Expr) -> Expr {
    if v.ty == Ty::BOOL {
        return v;
    }
    convert(v, Ty::BOOL)
}

pub(crate) fn contains_load(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Load { .. }));
    found
}

/// `base + index * size` in bytes, or minus when `negate`.
fn offset_ptr(base: Expr, index: Expr, size: u64, negate: bool) -> Expr {
    let idx = convert(index, Ty::I64);
    if let ExprKind::Int(bits) = idx.kind {
        let bytes = (bits as i64).wrapping_mul(size as i64);
        return ptr_add(base, if negate { bytes.wrapping_neg() } else { bytes });
    }
    let scaled = if size == 1 {
        idx
    } else {
        make_binary(BinOp::Mul, idx, Expr::int(size as i64, Ty::I64), Ty::I64)
    };
    let off = if negate {
        Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(scaled)), Ty::I64)
    } else {
        scaled
    };
    let ty = base.ty;
    Expr::new(
        ExprKind::Binary(BinOp::PtrAdd, Box::new(base), Box::new(off)),
        ty,
    )
}

pub(crate) fn make_binary(op: BinOp, l: Expr, r: Expr, ty: Ty) -> Expr {
    let is_cmp = matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    );
    let (l, r) = if is_cmp {
        // Operands of a comparison share one type after C's conversions; pointers compare as
        // addresses.
        (l, r)
    } else if matches!(op, BinOp::LAnd | BinOp::LOr) {
        (to_bool(l), to_bool(r))
    } else {
        (convert(l, ty), convert(r, ty))
    };
    let ty = if is_cmp || matches!(op, BinOp::LAnd | BinOp::LOr) {
        Ty::BOOL
    } else {
        ty
    };
    Expr::new(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty)
}

pub(crate) fn arith_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        "&" => BinOp::And,
        "|" => BinOp::Or,
        "^" => BinOp::Xor,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "&&" => BinOp::LAnd,
        "||" => BinOp::LOr,
        _ => return None,
    })
}

pub(super) type SpecialCtor = fn(Dim) -> Special;

const SPECIAL_VARS: [(&str, SpecialCtor); 4] = [
    ("threadIdx", Special::ThreadIdx),
    ("blockIdx", Special::BlockIdx),
    ("blockDim", Special::BlockDim),
    ("gridDim", Special::GridDim),
];

pub(super) enum Builtin {
    Member(Expr),
    /// A member of `threadIdx` & co. whose name could not be read.
    AnyOf(SpecialCtor),
}

/// `threadIdx.x` and friends. clang models them as property accesses on builtin structs;
/// `inlined` is the function whose body `e` is in.
pub(super) fn special_member(e: Entity, inlined: Option<Entity>) -> Option<Builtin> {
    let ctor = builtin_struct_member(e, inlined).or_else(|| builtin_var_base(e))?;
    let member = match e.get_reference().and_then(|r| r.get_name()) {
        Some(name) => Some(name),
        None => spelled_member(e),
    };
    let dim = match member
        .as_deref()
        .map(|m| m.trim_start_matches("__fetch_builtin_"))
    {
        Some("x") => Dim::X,
        Some("y") => Dim::Y,
        Some("z") => Dim::Z,
        _ => return Some(Builtin::AnyOf(ctor)),
    };
    Some(Builtin::Member(Expr::new(
        ExprKind::Special(ctor(dim)),
        Ty::U32,
    )))
}

/// The member `e` names, from its tokens: libclang gives no declaration for a toolkit's
/// `threadIdx.x` (a property read through `__fetch_builtin_x()`). The tokens are read where the
/// expression is spelled, which is a macro's body when it comes from one
/// (`#define TID (blockIdx.x * blockDim.x + threadIdx.x)`): its extent then runs on from there to
/// the macro's use, so its last token is not the member. The expression's first tokens are its
/// object and `.` or `->`, then the member; alone, the member is `x` inside the builtin's own
/// methods. Anything else (`AT(threadIdx, x)` for a macro `AT(v, axis)` spelling `v.axis`,
/// whose first token is `threadIdx` at the use) is no member read here.
fn spelled_member(e: Entity) -> Option<String> {
    let extent = e.get_range()?;
    let start = extent.get_start().get_spelling_location();
    let window = start.file.and_then(|f| {
        let end = f.get_offset_location(start.offset + 64);
        let valid = end.get_file_location().file.is_some();
        valid.then(|| SourceRange::new(f.get_offset_location(start.offset), end))
    });
    let tokens: Vec<String> = window
        .unwrap_or(extent)
        .tokenize()
        .iter()
        .map(|t| t.get_spelling())
        .collect();
    match tokens.as_slice() {
        [_, dot, member, ..] if dot == "." || dot == "->" => Some(member.clone()),
        [member, ..] => Some(member.clone()),
        [] => None,
    }
}

/// A member of clang's `__cuda_builtin_threadIdx_t` & co., whatever the object: each has one
/// object, so `x` inside its own `operator dim3()` (which a toolkit's cooperative groups call;
/// libclang gives no declaration for that `x`, only the method it is in) is `threadIdx.x` too.
fn builtin_struct_member(e: Entity, inlined: Option<Entity>) -> Option<SpecialCtor> {
    let on_this = || {
        e.get_children()
            .into_iter()
            .find(|c| c.is_expression())
            .is_none_or(|b| skip_transparent(b).get_kind() == EntityKind::ThisExpr)
    };
    let record = match e.get_reference() {
        Some(member) => member.get_semantic_parent()?,
        None if on_this() => inlined?.get_semantic_parent()?,
        None => return None,
    };
    if !record
        .get_location()
        .is_some_and(|l| l.is_in_system_header())
    {
        return None;
    }
    let name = record.get_name()?;
    let var = name.strip_prefix("__cuda_builtin_")?.strip_suffix("_t")?;
    Some(SPECIAL_VARS.iter().find(|(n, _)| *n == var)?.1)
}

/// `threadIdx.x` on the stand-ins' plain `uint3 threadIdx`, or where clang gives no member.
fn builtin_var_base(e: Entity) -> Option<SpecialCtor> {
    builtin_variable(member_base(e)?)
}

/// The object a member expression reads a member of.
pub(super) fn member_base(e: Entity) -> Option<Entity> {
    Some(skip_transparent(
        e.get_children().into_iter().find(|c| c.is_expression())?,
    ))
}

/// The built-in variable (`threadIdx`, ...) that the name `e` refers to, if it is one.
pub(super) fn builtin_variable(e: Entity) -> Option<SpecialCtor> {
    if e.get_kind() != EntityKind::DeclRefExpr {
        return None;
    }
    let name = e.get_name()?;
    let ctor = SPECIAL_VARS.iter().find(|(n, _)| *n == name)?.1;
    let decl = e.get_reference()?;
    decl.get_location()
        .is_some_and(|l| l.is_in_system_header())
        .then_some(ctor)
}

fn special_var(e: Entity) -> Option<Expr> {
    let decl = e.get_reference()?;
    if decl.get_name().as_deref() == Some("warpSize")
        && decl
            .get_location()
            .map(|l| l.is_in_system_header())
            .unwrap_or(true)
    {
        return Some(Expr::new(ExprKind::Special(Special::WarpSize), Ty::I32));
    }
    None
}

/// The class of the object `x` is or points to.
fn object_class(x: Entity) -> Option<Entity> {
    let t = x.get_type()?.get_canonical_type();
    super::lifetime::class_of(t.get_pointee_type().unwrap_or(t))
}

/// Whether `e` converts `inner`, an object of a derived class or a pointer to one, to a base
/// that does not lie at offset 0 of it: libclang 19 gives no base's offset, so the converted
/// object's place is not known.
fn to_base_elsewhere(e: Entity, inner: Entity) -> bool {
    match (object_class(e), object_class(inner)) {
        (Some(base), Some(derived)) if base != derived => {
            !crate::frontend::types::member_offset_known(derived, base)
        }
        _ => false,
    }
}
