//! Calls: CUDA builtins become IR nodes, device functions with a body are inlined, anything
//! else is opaque.
//!
//! Inlining binds reference and by-value parameters; constructors are inlined with what C++
//! runs around their body (`lifetime.rs`). A block sync written with cooperative groups
//! (`block.sync()`) is a block barrier. A cuRAND draw reads and rewrites its whole state,
//! except MTGP32's, which the threads of a block draw from together: thread `t` reads words
//! `t`, `t+1` and `t+84` and writes `t+351`, so more than 256 threads race as they do on a GPU.

use super::expr::{make_binary, to_bool};
use super::lifetime::has_body;
use super::{convert, CallValue, Frame, KernelLowerer, Place, MAX_INLINE_DEPTH};
use crate::collections::HashMap;
use crate::frontend::builtins::{self, Builtin};
use crate::frontend::cursor::{root_name, skip_transparent, unary_op_text};
use crate::frontend::respell;
use crate::frontend::types::{classify, CType};
use crate::frontend::virtuals;
use crate::ir::*;
use clang::{Entity, EntityKind, EvaluationResult, TypeKind};

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    pub(super) fn call(&mut self, e: Entity<'tu>) -> Option<CallValue> {
        let span = self.m.span(e);
        let callee = e.get_reference().filter(|c| {
            matches!(
                c.get_kind(),
                EntityKind::FunctionDecl
                    | EntityKind::Method
                    | EntityKind::Constructor
                    | EntityKind::ConversionFunction
            )
        });
        let Some(callee) = callee else {
            return self.indirect_call(e, span);
        };
        let name = callee.get_name().unwrap_or_default();
        let args = e.get_arguments().unwrap_or_default();
        if name == respell::LAUNCH_FN {
            return self.device_launch(&args, span);
        }
        if self.m.is_library_decl(callee) {
            if let Some(v) = self.asynchronous(callee, &name, &args, span) {
                return v;
            }
            // `std::move(x)` and `std::forward<T>(x)` are `x`, as a reference.
            let std_function =
                library_scope(callee).is_some_and(|(n, c)| n == "std" && c.is_none());
            if let (true, "move" | "forward", [arg]) = (std_function, name.as_str(), &args[..]) {
                return Some(CallValue::Place(self.lvalue(*arg)));
            }
        }
        let is_method = matches!(
            callee.get_kind(),
            EntityKind::Method | EntityKind::Constructor | EntityKind::ConversionFunction
        );
        // Names starting with `__` are reserved to the implementation, so they are CUDA's
        // whatever declares them (clang declares `__syncthreads` implicitly, at its first use).
        let reserved = name.starts_with("__");
        // A user's own declaration of a CUDA function without a body (old samples declare
        // `unsigned all(unsigned)`) still names the CUDA function; a definition is inlined.
        let declared_only = callee.get_definition().is_none();
        if !is_method && (reserved || declared_only || self.m.is_library_decl(callee)) {
            // Vector overloads of math names (`fminf(float3, float3)`) and the stand-ins'
            // shuffles of `__half`/`__half2` (which move bits through the 32-bit shuffle) are
            // ordinary functions.
            let vector_result = self.ctype(e).is_aggregate();
            let scalar_only = |b: &Builtin| {
                matches!(
                    b,
                    Builtin::Intrinsic(_)
                        | Builtin::Binary(_)
                        | Builtin::Convert(_)
                        | Builtin::Warp(..)
                )
            };
            if let Some(b) = builtins::lookup(&name).filter(|b| !(vector_result && scalar_only(b)))
            {
                return self.builtin(e, b, &args, span);
            }
            if self.in_annotation && builtins::is_gpuverify_predicate(&name) {
                return Some(CallValue::Value(Expr::opaque(
                    format!("GPUVerify predicate `{name}`"),
                    self.vty(e),
                )));
            }
        }
        if name == "operator="
            && callee
                .get_semantic_parent()
                .and_then(|p| p.get_type())
                .is_some_and(|t| t.is_pod())
        {
            return self.pod_assign(e, span);
        }
        if is_method {
            if let Some(v) = self.cooperative_groups(callee, &name, span) {
                return v;
            }
        }
        if callee.get_kind() == EntityKind::Constructor {
            return self.construct(e, callee, &args, span);
        }
        if let Some(targets) = virtuals::dynamic_targets(e) {
            if targets != callee.get_definition().into_iter().collect::<Vec<_>>() {
                return Some(self.dynamic_call(e, &name, &targets, &args, span));
            }
        }
        let Some(def) = callee.get_definition().filter(|d| has_body(*d)) else {
            // Its arguments are still evaluated (and read memory) here.
            let by_value = args.iter().all(|a| {
                self.ctype(*a)
                    .value_ty()
                    .is_some_and(|t| !matches!(t, Ty::Ptr(_)))
            });
            // A library's function of scalars only (a toolkit's `__nv_frcp_rn`, clang's
            // `__builtin_isfinite`) only computes an unknown value: no warning for that.
            let of_scalars = callee.get_arguments().is_some_and(|ps| {
                ps.iter()
                    .all(|p| matches!(p.get_type().map(classify), Some(CType::Scalar(_))))
            });
            if !(of_scalars && self.m.is_library_decl(callee)) {
                self.m
                    .warn(span, format!("call to `{name}`, which has no body here"));
            }
            // A library's functions without a body, and names reserved to the implementation,
            // are the toolkit's (libdevice, the runtime's device API): they do not read a
            // thread's position.
            self.unseen_code |= !(reserved || self.m.is_library_decl(callee));
            for a in &args {
                self.effect(*a);
            }
            // Without pointers among its arguments and without writable `__device__` variables
            // in this file, the function cannot reach memory this kernel uses: only its
            // result is unknown. Otherwise its effect on memory is unknown too.
            let reaches_memory =
                !by_value || self.m.globals.iter().any(|g| g.space == Space::Global);
            if reaches_memory {
                self.emit(
                    StmtKind::Opaque {
                        reason: format!("call to `{name}`"),
                    },
                    span,
                );
            }
            return Some(CallValue::Value(Expr::opaque(
                format!("result of `{name}`"),
                self.vty(e),
            )));
        };
        if self.call_stack.contains(&def) || self.call_stack.len() > MAX_INLINE_DEPTH {
            self.m
                .warn(span, format!("recursive call to `{name}` is not inlined"));
            self.emit(
                StmtKind::Opaque {
                    reason: format!("recursive call to `{name}`"),
                },
                span,
            );
            return Some(CallValue::Value(Expr::opaque(
                format!("result of `{name}`"),
                self.vty(e),
            )));
        }
        let (this, args) = match is_method {
            true => self.method_parts(e, def, args),
            false => (None, args),
        };
        self.inline(def, &args, this, span)
    }

    /// A virtual call that may run an overrider: opaque, its value and its effects (each
    /// target's `this` is of its own class, which the call's object is not typed as). What the
    /// targets read of the built-in variables is found from the call, kept as dropped code.
    fn dynamic_call(
        &mut self,
        e: Entity<'tu>,
        name: &str,
        targets: &[Entity<'tu>],
        args: &[Entity<'tu>],
        span: Span,
    ) -> CallValue {
        let names: Vec<String> = targets
            .iter()
            .map(|t| format!("`{}`", method_name(*t)))
            .collect();
        self.unseen_code |= names.is_empty();
        let runs = match names.is_empty() {
            true => "an overrider this file does not define".to_string(),
            false => names.join(" or "),
        };
        self.m.warn(
            span,
            format!("virtual call to `{name}` may run {runs}: its effects are not modelled"),
        );
        // The pointer the call is made through is read here (a record's members, by the target).
        if let Some(object) = self.method_object_expr(e) {
            if matches!(self.ctype(object), CType::Ptr(_)) {
                self.effect(object);
            }
        }
        for a in args {
            self.effect(*a);
        }
        self.dropped.push(e);
        self.emit(
            StmtKind::Opaque {
                reason: format!("virtual call to `{name}`"),
            },
            span,
        );
        CallValue::Value(Expr::opaque(format!("result of `{name}`"), self.vty(e)))
    }

    /// `child<<<g, b>>>(args)` in device code (dynamic parallelism): the arguments are read
    /// here; the child grid is opaque, beside the rest of the parent grid (`OpaqueEffect`).
    fn device_launch(&mut self, args: &[Entity<'tu>], span: Span) -> Option<CallValue> {
        let name = self
            .m
            .text_from(span)
            .and_then(respell::launched_name)
            .unwrap_or_else(|| "a kernel".into());
        for a in args {
            self.effect(*a);
        }
        self.m.warn(
            span,
            format!(
                "`{name}` is launched from device code: its grid is not analysed with this one"
            ),
        );
        self.emit(
            StmtKind::Opaque {
                reason: device_launch_reason(&name),
            },
            span,
        );
        Some(CallValue::Value(Expr::opaque(
            format!("result of launching `{name}`"),
            Ty::Void,
        )))
    }

    /// libcu++'s `cuda::barrier` and `cuda::pipeline`, and cooperative groups' asynchronous
    /// copies (`include/cuda/barrier`, `include/cuda/pipeline`). A copy is an opaque statement
    /// beside every access of the block until the kernel ends (`OpaqueEffect::Async`: when it
    /// completes is what the barrier or pipeline decides, which is not modelled); barrier and
    /// pipeline operations are synchronisation left out, so what they order is not proved
    /// safe, and no witness replays past them to make it a race.
    fn asynchronous(
        &mut self,
        callee: Entity<'tu>,
        name: &str,
        args: &[Entity<'tu>],
        span: Span,
    ) -> Option<Option<CallValue>> {
        let (namespace, class) = library_scope(callee)?;
        let what = match (namespace.as_str(), class.as_deref(), name) {
            ("cuda" | "cooperative_groups", _, "memcpy_async") => None,
            ("cuda", Some("barrier"), _) | ("cuda", None, "init") => Some("`cuda::barrier`"),
            ("cuda", Some("pipeline"), _)
            | ("cuda", None, "make_pipeline")
            | ("cuda", None, "pipeline_consumer_wait_prior")
            | ("cuda", None, "pipeline_producer_commit") => Some("`cuda::pipeline`"),
            ("cooperative_groups", None, "wait" | "wait_prior") => Some("cooperative groups' wait"),
            _ => return None,
        };
        // Scalars and pointers are read here; objects (a group, the barrier's completion
        // function) carry nothing the copy or the synchronisation reads from memory.
        for a in args {
            if self.ctype(*a).value_ty().is_some() {
                self.effect(*a);
            }
        }
        let reason = match what {
            None => ASYNC_COPY.to_string(),
            Some(what) => {
                self.m.warn(
                    span,
                    format!("{what} is not modelled; accesses it orders are unknown"),
                );
                sync_reason(what)
            }
        };
        self.emit(StmtKind::Opaque { reason }, span);
        let ty = match callee.get_result_type().map(|t| t.get_kind()) {
            Some(TypeKind::Void) | None => Ty::Void,
            Some(_) => Ty::I64,
        };
        Some(Some(CallValue::Value(Expr::opaque(
            format!("result of `{name}`"),
            ty,
        ))))
    }

    /// A method call's object and arguments. `f(a, b)` on a functor and `x = y` with a class's
    /// `operator=` are operator calls: clang lists the object as their first argument, and
    /// there is no member expression to take it from.
    fn method_parts(
        &mut self,
        call: Entity<'tu>,
        def: Entity<'tu>,
        args: Vec<Entity<'tu>>,
    ) -> (Option<Place>, Vec<Entity<'tu>>) {
        let params = def.get_arguments().unwrap_or_default().len();
        let is_operator = def.get_name().is_some_and(|n| n.starts_with("operator"));
        match args.split_first() {
            Some((object, rest)) if is_operator && args.len() == params + 1 => {
                let place = match self.ctype(*object) {
                    CType::Ptr(inner) => Place::Mem {
                        addr: self.rvalue(*object),
                        ty: *inner,
                        array: root_name(*object),
                        site: Site::Implicit,
                    },
                    _ => self.aggregate(*object),
                };
                (Some(place), rest.to_vec())
            }
            _ => (self.method_object(call), args),
        }
    }

    /// A constructor call: a copy of a record is the source itself (the caller copies it);
    /// otherwise a temporary that the constructor's member initializers and body fill.
    fn construct(
        &mut self,
        e: Entity<'tu>,
        ctor: Entity<'tu>,
        args: &[Entity<'tu>],
        span: Span,
    ) -> Option<CallValue> {
        let ct = self.ctype(e);
        if let [src] = args {
            let record = |x: Entity<'tu>| {
                x.get_type()
                    .and_then(|t| t.get_canonical_type().get_declaration())
            };
            let same = record(*src).is_some() && record(*src) == record(e);
            if same && (ctor.is_copy_constructor() || ctor.is_move_constructor()) {
                return Some(CallValue::Place(self.aggregate(*src)));
            }
        }
        let temp = self.new_local_mem(
            &format!("%{}", ctor.get_name().unwrap_or_default()),
            ct,
            span,
        );
        self.construct_in(ctor, args, temp.clone(), span);
        Some(CallValue::Place(temp))
    }

    /// A call through a function pointer. Its targets are taken to be the device functions of
    /// this file with the pointer's type (said in a warning and an assumption): the call becomes
    /// a choice among them, each inlined.
    fn indirect_call(&mut self, e: Entity<'tu>, span: Span) -> Option<CallValue> {
        let kids = e.get_children();
        let callee = kids.first().copied()?;
        // Down through decays, parentheses and `*`, to the expression holding the pointer.
        let mut target = callee;
        loop {
            let kids = target.get_children();
            let is_deref = target.get_kind() == EntityKind::UnaryOperator
                && unary_op_text(target).as_deref() == Some("*");
            let wrapper = matches!(
                target.get_kind(),
                EntityKind::UnexposedExpr | EntityKind::ParenExpr
            );
            match kids.as_slice() {
                [inner] if is_deref || wrapper => target = *inner,
                _ => break,
            }
        }
        let fn_type = match self.ctype(target) {
            CType::FnPtr(t) => t,
            _ => {
                self.unseen_code = true;
                self.m
                    .warn(span, "call through an unsupported callee".to_string());
                self.emit(
                    StmtKind::Opaque {
                        reason: "indirect call".into(),
                    },
                    span,
                );
                return None;
            }
        };
        let candidates: Vec<Entity<'tu>> = self
            .m
            .device_functions
            .iter()
            .copied()
            .filter(|f| {
                f.get_type()
                    .map(|t| t.get_canonical_type().get_display_name())
                    .as_deref()
                    == Some(fn_type.as_str())
            })
            .collect();
        let recursive = candidates.iter().any(|c| self.call_stack.contains(c))
            || self.call_stack.len() > MAX_INLINE_DEPTH;
        if candidates.is_empty() || recursive {
            self.unseen_code |= candidates.is_empty();
            self.m.warn(
                span,
                format!("call through a function pointer of type `{fn_type}` that cannot be resolved to functions of this file"),
            );
            self.emit(
                StmtKind::Opaque {
                    reason: "indirect call".into(),
                },
                span,
            );
            return None;
        }
        let names: Vec<String> = candidates
            .iter()
            .map(|c| format!("`{}`", c.get_name().unwrap_or_default()))
            .collect();
        self.m.warn(
            span,
            format!(
                "assuming this call through a function pointer targets {}",
                names.join(" or ")
            ),
        );
        let fv = self.rvalue(target);
        let fv = self.snapshot(fv, span);
        let ids: Vec<u64> = candidates.iter().map(|c| self.m.function_id(*c)).collect();
        let is_target = |id: u64| {
            make_binary(
                BinOp::Eq,
                fv.clone(),
                Expr::int(id as i64, Ty::U64),
                Ty::BOOL,
            )
        };
        let mut any = is_target(ids[0]);
        for id in &ids[1..] {
            any = make_binary(BinOp::LOr, any, is_target(*id), Ty::BOOL);
        }
        self.emit(
            StmtKind::Assume {
                kind: AssumeKind::Assume,
                cond: any,
            },
            span,
        );
        let args = e.get_arguments().unwrap_or_default();
        let ret_ty = self.ctype(e).value_ty().filter(|t| *t != Ty::Void);
        let slot = ret_ty.map(|t| self.new_temp(t));
        // The last candidate is the `else`: under the assumption, it is the only one left.
        let mut chain: Block = Vec::new();
        for (i, cand) in candidates.iter().enumerate().rev() {
            let body = self.block(|s| {
                if let Some(CallValue::Value(v)) = s.inline(*cand, &args, None, span) {
                    if let Some(slot) = slot {
                        s.emit(
                            StmtKind::Assign {
                                dst: slot,
                                value: v,
                            },
                            span,
                        );
                    }
                }
            });
            chain = if i == candidates.len() - 1 {
                body
            } else {
                vec![Stmt {
                    kind: StmtKind::If {
                        cond: is_target(ids[i]),
                        then_body: body,
                        else_body: chain,
                    },
                    span,
                }]
            };
        }
        for st in chain {
            self.emit(st.kind, st.span);
        }
        Some(CallValue::Value(match (slot, ret_ty) {
            (Some(s), Some(t)) => Expr::new(ExprKind::Local(s), t),
            _ => Expr::opaque("void", Ty::Void),
        }))
    }

    /// The object a method is called on (`obj.f()`, `p->f()`).
    /// The expression a method call is made on (`b` in `b->f()`); none for an implicit
    /// `this`.
    fn method_object_expr(&self, call: Entity<'tu>) -> Option<Entity<'tu>> {
        call.get_children()
            .into_iter()
            .find(|c| c.get_kind() == EntityKind::MemberRefExpr)?
            .get_children()
            .into_iter()
            .find(|c| c.is_expression())
    }

    fn method_object(&mut self, call: Entity<'tu>) -> Option<Place> {
        if !call
            .get_children()
            .iter()
            .any(|c| c.get_kind() == EntityKind::MemberRefExpr)
        {
            return None;
        }
        match self.method_object_expr(call) {
            None => self.frame().this.clone(),
            Some(b) => match self.ctype(b) {
                CType::Ptr(inner) => Some(Place::Mem {
                    addr: self.rvalue(b),
                    ty: *inner,
                    array: root_name(b),
                    site: Site::Implicit,
                }),
                _ => Some(self.aggregate(b)),
            },
        }
    }

    pub(super) fn inline(
        &mut self,
        def: Entity<'tu>,
        args: &[Entity<'tu>],
        this: Option<Place>,
        span: Span,
    ) -> Option<CallValue> {
        let params = def.get_arguments().unwrap_or_default();
        let body = def
            .get_children()
            .into_iter()
            .rfind(|c| c.get_kind() == EntityKind::CompoundStmt)?;
        let fname = def.get_name().unwrap_or_default();
        // Arguments are evaluated in the caller's frame, left to right.
        let mut env = HashMap::default();
        let addressed = super::addressed_locals(body);
        for (i, p) in params.iter().enumerate() {
            let pct = self.ctype(*p);
            let pname = format!(
                "{}.{}",
                fname,
                p.get_name().unwrap_or_else(|| i.to_string())
            );
            let arg = match args.get(i) {
                Some(a) if !is_default_argument(*a) => Some(*a),
                _ => default_arg(*p),
            };
            let place = match (&pct, arg) {
                // A temporary bound to a `const &` (`op(acc, g.shfl(v, 1))`) lives in a local
                // of its own, as C++ materialises it.
                (CType::Ref(inner), Some(a)) if is_prvalue(a) => {
                    let place = self.new_local_mem(&pname, (**inner).clone(), span);
                    if inner.is_aggregate() {
                        self.init_aggregate(&place, a, span);
                    } else {
                        let v = self.rvalue(a);
                        self.write(&place, v, span);
                    }
                    place
                }
                (CType::Ref(_), Some(a)) => self.lvalue(a),
                // Only texture fetches use a texture handle, and they do not read it.
                (ct, _) if ct.is_texture() => Place::Opaque("texture handle".into()),
                (ct, Some(a)) if ct.is_aggregate() => {
                    let place = self.new_local_mem(&pname, ct.clone(), span);
                    self.init_aggregate(&place, a, span);
                    place
                }
                (ct, Some(a)) => {
                    let place = if addressed.contains(p) {
                        self.new_local_mem(&pname, ct.clone(), span)
                    } else {
                        self.new_var(&pname, ct.clone(), span)
                    };
                    let v = self.rvalue(a);
                    self.write(&place, v, span);
                    place
                }
                (CType::Ref(_), None) => Place::Opaque(format!("missing argument of `{fname}`")),
                // A value the call does not show: unknown, and no memory another thread reaches.
                (ct, None) if ct.is_aggregate() => self.new_local_mem(&pname, ct.clone(), span),
                (ct, None) => {
                    let place = self.new_var(&pname, ct.clone(), span);
                    let ty = ct.value_ty().unwrap_or(Ty::I32);
                    self.write(
                        &place,
                        Expr::opaque(format!("missing argument of `{fname}`"), ty),
                        span,
                    );
                    place
                }
            };
            env.insert(*p, place);
        }
        let ret_ct = def
            .get_result_type()
            .map(crate::frontend::types::classify)
            .unwrap_or(CType::Void);
        let slot = match &ret_ct {
            CType::Void => None,
            CType::Ref(_) => Some(Place::Opaque("reference slot".into())),
            ct => Some(self.new_var(&format!("{fname}.ret"), ct.clone(), span)),
        };
        let scope = self.new_scope();
        self.frames.push(Frame {
            env,
            ret: Some((scope, slot.clone())),
            ret_ref: matches!(ret_ct, CType::Ref(_)),
            this,
            addressed,
            ..Frame::default()
        });
        self.call_stack.push(def);
        let library = def.get_location().is_some_and(|l| l.is_in_system_header());
        let outer_library_call = self.m.library_call;
        if library && outer_library_call.is_none() {
            self.m.library_call = Some(span);
        }
        let mut returned_ref = None;
        let is_ctor = def.get_kind() == EntityKind::Constructor;
        let block = self.block(|s| {
            if is_ctor {
                s.member_initializers(def, span);
            }
            s.stmt(body);
            returned_ref = s.frame_mut().ret.take().and_then(|(_, p)| p);
        });
        self.m.library_call = outer_library_call;
        self.call_stack.pop();
        self.frames.pop();
        if !block.is_empty() {
            self.emit(
                StmtKind::Scope {
                    id: scope,
                    body: block,
                },
                span,
            );
        }
        match (ret_ct, returned_ref) {
            (CType::Void, _) => Some(CallValue::Value(Expr::opaque("void", Ty::Void))),
            (ct, Some(place)) if ct.is_aggregate() || matches!(ct, CType::Ref(_)) => {
                Some(CallValue::Place(place))
            }
            (_, Some(place)) => {
                let v = self.read(&place, span);
                Some(CallValue::Value(v))
            }
            (_, None) => None,
        }
    }

    /// Assignment of a plain struct (`tile[t] = make_float4(...)`): a leaf-by-leaf copy rather
    /// than an inlined `operator=`.
    fn pod_assign(&mut self, e: Entity<'tu>, span: Span) -> Option<CallValue> {
        let operands: Vec<Entity> = e
            .get_children()
            .into_iter()
            .filter(|c| {
                c.is_expression()
                    && skip_transparent(*c)
                        .get_reference()
                        .and_then(|r| r.get_name())
                        .as_deref()
                        != Some("operator=")
            })
            .collect();
        let [dst, src] = operands.as_slice() else {
            return Some(CallValue::Place(Place::Opaque("struct assignment".into())));
        };
        let from = self.aggregate(*src);
        let to = self.lvalue(*dst);
        self.copy_aggregate(&to, &from, span);
        Some(CallValue::Place(to))
    }

    /// A reference member bound in a constructor's initializers. Its slot holds the address
    /// (a copy of the object copies it); for a local object the address is also kept in a
    /// pointer local, which `expr::member` reads instead of the slot, so that what the member
    /// refers to (shared memory, say) stays known: a reference is never rebound, and the
    /// local is assigned again each time the constructor runs.
    pub(super) fn bind_ref_member(
        &mut self,
        at: Expr,
        referent: CType,
        init: Entity<'tu>,
        array: Option<String>,
        span: Span,
    ) {
        let bound = self.lvalue(init);
        let address = self.address_of(&bound, span);
        if let Some(key) = crate::ir::space::local_slot(&at) {
            let name = format!("{}.ref", array.as_deref().unwrap_or("%object"));
            let holder = match self.ref_members.get(&key) {
                Some(&h) => h,
                None => {
                    let h = self.new_local(&name, address.ty);
                    self.ref_members.insert(key, h);
                    h
                }
            };
            let ptr = CType::Ptr(Box::new(referent.clone()));
            self.write(&Place::Local(holder, ptr), address.clone(), span);
        }
        let slot = Place::Mem {
            addr: at,
            ty: CType::Ptr(Box::new(referent)),
            array,
            site: Site::Implicit,
        };
        self.write(&slot, address, span);
    }

    /// Cooperative groups: a block's `sync()` is a barrier; grid-wide sync is not modelled.
    fn cooperative_groups(
        &mut self,
        callee: Entity<'tu>,
        name: &str,
        span: Span,
    ) -> Option<Option<CallValue>> {
        let class = callee.get_semantic_parent()?.get_name()?;
        if !self.m.is_library_decl(callee) {
            return None;
        }
        match (class.as_str(), name) {
            ("thread_block" | "thread_group", "sync") => {
                self.emit(
                    StmtKind::Barrier {
                        kind: BarrierKind::Sync,
                        pred: None,
                        dst: None,
                    },
                    span,
                );
                Some(Some(CallValue::Value(Expr::opaque("void", Ty::Void))))
            }
            ("grid_group" | "multi_grid_group", "sync") => {
                self.m.warn(
                    span,
                    "grid-wide synchronization is not modelled; accesses it orders are unknown"
                        .to_string(),
                );
                self.emit(
                    StmtKind::Opaque {
                        reason: sync_reason("grid-wide"),
                    },
                    span,
                );
                Some(Some(CallValue::Value(Expr::opaque("void", Ty::Void))))
            }
            _ => None,
        }
    }

    fn builtin(
        &mut self,
        e: Entity<'tu>,
        b: Builtin,
        args: &[Entity<'tu>],
        span: Span,
    ) -> Option<CallValue> {
        let ty = self.vty(e);
        match b {
            Builtin::Barrier(kind) => {
                let pred = args.first().map(|a| self.cond(*a));
                let dst = (kind != BarrierKind::Sync).then(|| self.new_temp(Ty::I32));
                self.emit(StmtKind::Barrier { kind, pred, dst }, span);
                match dst {
                    Some(d) => value(Expr::new(ExprKind::Local(d), Ty::I32)),
                    None => void(),
                }
            }
            Builtin::SyncWarp => {
                let mask = match args.first() {
                    Some(a) => {
                        let v = self.rvalue(*a);
                        convert(v, Ty::U32)
                    }
                    None => Expr::int(-1, Ty::U32),
                };
                self.emit(StmtKind::SyncWarp { mask }, span);
                void()
            }
            Builtin::Fence(scope) => {
                self.emit(StmtKind::Fence { scope }, span);
                void()
            }
            Builtin::Atomic(op, scope) => self.atomic_call((op, scope), args, ty, span),
            Builtin::Warp(op, has_mask) => {
                let mut vals: Vec<Expr> = args.iter().map(|a| self.rvalue(*a)).collect();
                if !has_mask && op != WarpOp::ActiveMask {
                    vals.insert(0, Expr::int(-1, Ty::U32));
                }
                let dst = self.new_temp(ty);
                self.emit(
                    StmtKind::Warp {
                        op,
                        args: vals,
                        dst,
                    },
                    span,
                );
                value(Expr::new(ExprKind::Local(dst), ty))
            }
            Builtin::Intrinsic(i) => {
                let vals = args.iter().map(|a| self.rvalue(*a)).collect();
                value(Expr::new(ExprKind::Call(i, vals), ty))
            }
            Builtin::Binary(op) => {
                let [a, bb] = args else {
                    return value(Expr::opaque("binary intrinsic", ty));
                };
                let (x, y) = (self.rvalue(*a), self.rvalue(*bb));
                value(make_binary(op, x, y, ty))
            }
            Builtin::Convert(round) => {
                let Some(a) = args.first() else {
                    return value(Expr::opaque("conversion", ty));
                };
                let v = self.rvalue(*a);
                let v = match round {
                    Some(i) => {
                        let vt = v.ty;
                        Expr::new(ExprKind::Call(i, vec![v]), vt)
                    }
                    None => v,
                };
                value(convert(v, ty))
            }
            Builtin::SinCos => self.sincos_call(args, span),
            Builtin::Frexp => self.frexp_call(args, ty, span),
            Builtin::Curand { init } => self.curand_call(init, args, ty, span),
            Builtin::Texture => self.texture_call(e, args, ty, span),
            Builtin::Ldg => {
                let Some(ptr) = args.first() else {
                    return value(Expr::opaque("__ldg", ty));
                };
                let addr = self.rvalue(*ptr);
                let place = Place::Mem {
                    addr,
                    ty: self.ctype(e),
                    array: root_name(*ptr),
                    site: Site::Implicit,
                };
                value(self.read(&place, span))
            }
            Builtin::Printf => {
                let format = string_arg(args).unwrap_or_default();
                let vals = args.iter().skip(1).map(|a| self.rvalue(*a)).collect();
                self.emit(StmtKind::Printf { format, args: vals }, span);
                value(Expr::int(0, Ty::I32))
            }
            Builtin::Trap => {
                let message = string_arg(args).unwrap_or_else(|| "trap".into());
                self.emit(StmtKind::Trap { message }, span);
                void()
            }
            Builtin::Assume(kind) => self.assume_call(kind, args, span),
            Builtin::Special(s) => value(Expr::new(ExprKind::Special(s), Ty::U32)),
            Builtin::Annotation | Builtin::NoOp => void(),
            Builtin::Implies => {
                let [a, bb] = args else {
                    return value(Expr::opaque("__implies", Ty::BOOL));
                };
                let (x, y) = (self.cond(*a), self.cond(*bb));
                let nx = Expr::new(ExprKind::Unary(UnOp::LNot, Box::new(x)), Ty::BOOL);
                value(make_binary(BinOp::LOr, nx, y, Ty::BOOL))
            }
            Builtin::IsPow2 => self.is_pow2_call(args),
        }
    }

    /// An atomic: one access at its pointer argument, the old value in a temporary.
    fn atomic_call(
        &mut self,
        (op, scope): (AtomicOp, SyncScope),
        args: &[Entity<'tu>],
        ty: Ty,
        span: Span,
    ) -> Option<CallValue> {
        let Some(ptr) = args.first() else {
            return value(Expr::opaque("atomic without address", ty));
        };
        let addr = self.rvalue(*ptr);
        let operands: Vec<Expr> = args[1..]
            .iter()
            .map(|a| {
                let v = self.rvalue(*a);
                convert(v, ty)
            })
            .collect();
        let site = self.m.site(*ptr);
        let array = root_name(*ptr);
        let access = self.new_access(AccessKind::Atomic(scope), ty, array, span, site);
        let dst = self.new_temp(ty);
        self.emit(
            StmtKind::Atomic {
                access,
                op,
                addr,
                args: operands,
                dst: Some(dst),
            },
            span,
        );
        value(Expr::new(ExprKind::Local(dst), ty))
    }

    /// `sincos(x, &s, &c)`: two writes through its pointer arguments.
    fn sincos_call(&mut self, args: &[Entity<'tu>], span: Span) -> Option<CallValue> {
        let [x, sp, cp] = args else {
            return value(Expr::opaque("sincos", Ty::Void));
        };
        let x = self.rvalue(*x);
        let x = self.snapshot(x, span);
        for (ptr, f) in [(sp, Intrinsic::Sin), (cp, Intrinsic::Cos)] {
            let place = self.deref_arg(*ptr);
            let v = Expr::new(ExprKind::Call(f, vec![x.clone()]), x.ty);
            self.write(&place, v, span);
        }
        void()
    }

    /// `frexp(x, &e)`: the mantissa, and the exponent written through the pointer.
    fn frexp_call(&mut self, args: &[Entity<'tu>], ty: Ty, span: Span) -> Option<CallValue> {
        let [x, ep] = args else {
            return value(Expr::opaque("frexp", ty));
        };
        let x = self.rvalue(*x);
        let x = self.snapshot(x, span);
        let place = self.deref_arg(*ep);
        let exp = Expr::new(
            ExprKind::Call(Intrinsic::FrexpExp, vec![x.clone()]),
            Ty::I32,
        );
        self.write(&place, exp, span);
        value(Expr::new(ExprKind::Call(Intrinsic::Frexp, vec![x]), ty))
    }

    /// A cuRAND call: the draw reads and rewrites its state (MTGP32: the drawing thread's
    /// words), initialisation writes it.
    fn curand_call(
        &mut self,
        init: bool,
        args: &[Entity<'tu>],
        ty: Ty,
        span: Span,
    ) -> Option<CallValue> {
        let state_arg = if init { args.last() } else { args.first() };
        let Some(state_arg) = state_arg else {
            return value(Expr::opaque("curand call without a state", ty));
        };
        let rest: Vec<Entity<'tu>> = args.iter().copied().filter(|a| a != state_arg).collect();
        for a in &rest {
            self.effect(*a);
        }
        let state = self.deref_arg(*state_arg);
        let state = self.stabilize(state, span);
        let Place::Mem {
            addr,
            ty: st_ty,
            array,
            ..
        } = &state
        else {
            return value(Expr::opaque("curand state", ty));
        };
        if let CType::Record(r) = st_ty {
            if r.name.ends_with("curandStateMtgp32") && !init {
                self.mtgp32_draw(addr, array, span);
                return value(Expr::new(ExprKind::Call(Intrinsic::Random, vec![]), ty));
            }
        }
        for (off, lty) in st_ty.leaves().unwrap_or_default() {
            let leaf = Place::Mem {
                addr: super::ptr_add(addr.clone(), off as i64),
                ty: super::scalar_ctype(lty),
                array: array.clone(),
                site: Site::Implicit,
            };
            if !init {
                // The draw reads the state it then advances.
                let old = self.read(&leaf, span);
                self.snapshot(old, span);
            }
            let next = Expr::new(ExprKind::Call(Intrinsic::Random, vec![]), lty);
            self.write(&leaf, next, span);
        }
        if init || ty == Ty::Void {
            return void();
        }
        value(Expr::new(ExprKind::Call(Intrinsic::Random, vec![]), ty))
    }

    /// A texture fetch: fetched data, one value per component of a vector texel.
    fn texture_call(
        &mut self,
        e: Entity<'tu>,
        args: &[Entity<'tu>],
        ty: Ty,
        span: Span,
    ) -> Option<CallValue> {
        let coords: Vec<Expr> = args.iter().skip(1).map(|a| self.rvalue(*a)).collect();
        let ct = self.ctype(e);
        if !ct.is_aggregate() {
            return value(Expr::new(ExprKind::Call(Intrinsic::Texture, coords), ty));
        }
        // A vector texel (`float4`): every component is fetched data.
        let temp = self.new_local_mem("%texel", ct.clone(), span);
        if let Place::Mem { addr, .. } = &temp {
            for (off, lty) in ct.leaves().unwrap_or_default() {
                let leaf = Place::Mem {
                    addr: super::ptr_add(addr.clone(), off as i64),
                    ty: super::scalar_ctype(lty),
                    array: None,
                    site: Site::Implicit,
                };
                let v = Expr::new(ExprKind::Call(Intrinsic::Texture, coords.clone()), lty);
                self.write(&leaf, v, span);
            }
        }
        Some(CallValue::Place(temp))
    }

    /// `__assume`/`__requires` and GPUVerify's annotations: an assumption the analysis may use,
    /// or a warning when it reads memory.
    fn assume_call(
        &mut self,
        kind: AssumeKind,
        args: &[Entity<'tu>],
        span: Span,
    ) -> Option<CallValue> {
        let Some(a) = args.first() else { return void() };
        let marks = (
            self.accesses.len(),
            self.locals.len(),
            self.local_arrays.len(),
        );
        let saved = std::mem::replace(&mut self.in_annotation, true);
        let (stmts, cond) = self.capture(|s| s.cond(*a));
        self.in_annotation = saved;
        let mut usable = stmts.is_empty();
        cond.walk(&mut |x| {
            usable &= !matches!(x.kind, ExprKind::Load { .. } | ExprKind::Opaque { .. })
        });
        if usable {
            self.emit(StmtKind::Assume { kind, cond }, span);
        } else {
            // An assumption about memory or about GPUVerify's two-thread view cannot be
            // used; dropping it only weakens what the analysis may assume. Its reads are
            // not the program's, so they must not appear as accesses either.
            self.accesses.truncate(marks.0);
            self.locals.truncate(marks.1);
            self.local_arrays.truncate(marks.2);
            self.m.warn(
                span,
                "this assumption reads memory or uses a GPUVerify predicate; gmrace does not use it"
                    .to_string(),
            );
        }
        void()
    }

    /// GPUVerify's `__is_pow2(x)`: `(x & (x - 1)) == 0 && x != 0`.
    fn is_pow2_call(&mut self, args: &[Entity<'tu>]) -> Option<CallValue> {
        let Some(a) = args.first() else {
            return value(Expr::opaque("__is_pow2", Ty::BOOL));
        };
        let x = self.rvalue(*a);
        let t = x.ty;
        let minus1 = make_binary(BinOp::Sub, x.clone(), Expr::int(1, t), t);
        let and = make_binary(BinOp::And, x.clone(), minus1, t);
        let zero_bits = make_binary(BinOp::Eq, and, Expr::int(0, t), Ty::BOOL);
        let nonzero = make_binary(BinOp::Ne, x, Expr::int(0, t), Ty::BOOL);
        value(make_binary(
            BinOp::LAnd,
            to_bool(zero_bits),
            nonzero,
            Ty::BOOL,
        ))
    }
}

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    /// `*p` for a pointer argument of a builtin that writes through it.
    fn deref_arg(&mut self, ptr: Entity<'tu>) -> Place {
        let ty = match self.ctype(ptr) {
            CType::Ptr(inner) => *inner,
            other => other,
        };
        let addr = self.rvalue(ptr);
        Place::Mem {
            addr,
            ty,
            array: root_name(ptr),
            site: Site::Implicit,
        }
    }
}

/// The default argument of a parameter, when the call omits it.
/// Whether `e` is a value with no place of its own (a call returning by value, arithmetic, a
/// literal), rather than an lvalue a reference can bind to as it is.
fn is_prvalue(e: Entity) -> bool {
    let e = skip_transparent(e);
    let kids = e.get_children();
    match e.get_kind() {
        // Also a `const` temporary around a value (MaterializeTemporaryExpr).
        EntityKind::UnexposedExpr | EntityKind::ParenExpr if kids.len() == 1 => is_prvalue(kids[0]),
        EntityKind::DeclRefExpr
        | EntityKind::MemberRefExpr
        | EntityKind::ArraySubscriptExpr
        | EntityKind::ParenExpr
        | EntityKind::UnexposedExpr => false,
        EntityKind::UnaryOperator => unary_op_text(e).as_deref() != Some("*"),
        EntityKind::CallExpr => !e
            .get_reference()
            .and_then(|f| f.get_result_type())
            // Canonical: a reference behind a typedef or `typename X<T>::type` (Thrust's
            // `raw_reference_cast`) is still one, and the call an lvalue.
            .is_some_and(|t| {
                matches!(
                    t.get_canonical_type().get_kind(),
                    TypeKind::LValueReference | TypeKind::RValueReference
                )
            }),
        EntityKind::IntegerLiteral
        | EntityKind::FloatingLiteral
        | EntityKind::CharacterLiteral
        | EntityKind::BinaryOperator => true,
        _ => false,
    }
}

fn default_arg(p: Entity) -> Option<Entity> {
    p.get_children().into_iter().rfind(|c| c.is_expression())
}

/// clang's stand-in for a default argument the call leaves out (`def()` for `def(unsigned t =
/// threadIdx.y)`): an unexposed expression of no place in the source, whose expression is
/// the parameter's.
fn is_default_argument(arg: Entity) -> bool {
    arg.get_kind() == EntityKind::UnexposedExpr
        && arg.get_children().is_empty()
        && arg
            .get_location()
            .is_none_or(|l| l.get_file_location().file.is_none())
}

impl KernelLowerer<'_, '_> {
    /// One draw of cuRAND's MTGP32 generator, which the threads of a block make together (at
    /// most 256 of them): thread `t` computes word `t + N` of the state from words `t`, `t + 1`
    /// and `t + M` (N = 351, M = 84, modulo the state's 1024 words). More threads than that
    /// overwrite words others still read, which these accesses show.
    fn mtgp32_draw(&mut self, state: &Expr, array: &Option<String>, span: Span) {
        const WORDS: i64 = 1024;
        let word = |pos: i64| {
            let index = super::expr::make_binary(
                BinOp::And,
                super::expr::make_binary(
                    BinOp::Add,
                    Expr::linear_thread_id(),
                    Expr::int(pos, Ty::U32),
                    Ty::U32,
                ),
                Expr::int(WORDS - 1, Ty::U32),
                Ty::U32,
            );
            let index = Expr::new(ExprKind::Cast(Box::new(index)), Ty::I64);
            let bytes = super::expr::make_binary(BinOp::Mul, index, Expr::int(4, Ty::I64), Ty::I64);
            Place::Mem {
                addr: Expr::new(
                    ExprKind::Binary(BinOp::PtrAdd, Box::new(state.clone()), Box::new(bytes)),
                    state.ty,
                ),
                ty: super::scalar_ctype(Ty::U32),
                array: array.clone(),
                site: Site::Implicit,
            }
        };
        for pos in [0, 1, 84] {
            let w = word(pos);
            let old = self.read(&w, span);
            self.snapshot(old, span);
        }
        let w = word(351);
        self.write(
            &w,
            Expr::new(ExprKind::Call(Intrinsic::Random, vec![]), Ty::U32),
            span,
        );
    }
}

fn value(v: Expr) -> Option<CallValue> {
    Some(CallValue::Value(v))
}

/// What a call of a `void` function gives.
fn void() -> Option<CallValue> {
    Some(CallValue::Value(Expr::opaque("void", Ty::Void)))
}

/// The first argument as a string literal (a printf format, a trap message).
fn string_arg(args: &[Entity]) -> Option<String> {
    let r = skip_transparent(*args.first()?).evaluate()?;
    match r {
        EvaluationResult::String(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    }
}

/// The outermost namespace a library function is declared in, and the class it is a method of.
fn library_scope(callee: Entity) -> Option<(String, Option<String>)> {
    let parent = callee.get_semantic_parent()?;
    let class = matches!(
        parent.get_kind(),
        EntityKind::ClassDecl | EntityKind::StructDecl | EntityKind::ClassTemplate
    )
    .then(|| parent.get_name())
    .flatten();
    let mut namespace = None;
    let mut at = Some(parent);
    while let Some(e) = at {
        if e.get_kind() == EntityKind::Namespace {
            namespace = e.get_name();
        }
        at = e.get_semantic_parent();
    }
    Some((namespace?, class))
}

/// `Derived::idx`: a method's name with its class's.
fn method_name(method: Entity) -> String {
    let name = method.get_name().unwrap_or_default();
    match method.get_semantic_parent().and_then(|c| c.get_name()) {
        Some(class) => format!("{class}::{name}"),
        None => name,
    }
}
