//! Lowering of one kernel (a clang function definition) into IR, one kernel at a time.
//!
//! Values live in two kinds of places: IR locals (scalars and pointers whose address is never
//! taken), memory (shared, global, constant, param, and thread-local objects: arrays, records and
//! address-taken scalars), and nothing else — records are never split into locals, so one
//! mechanism (`Place::Mem`) serves struct copies, vector types and `this`. A `Place` is one of
//! those, a read-only value (`Place::Value`: parameters the kernel never assigns, constants), or
//! opaque.
//!
//! `expr.rs` lowers rvalues, lvalues and aggregates; `stmt.rs` statements and structured control
//! flow; `call.rs` builtins and inlined calls; `builtins_read.rs` what the source reads of the
//! built-in variables, lowered or not.

mod asm;
mod builtins_read;
mod call;
mod expr;
pub(crate) use expr::arith_op;
mod lifetime;
pub(crate) mod place;
mod stmt;
mod temporaries;

pub(crate) use place::{CallValue, Place};

use super::context::ModuleCtx;
use super::cursor::{has_attr, skip_transparent, unary_op_text, visit};
use super::types::{classify, CType};
use crate::collections::{HashMap, HashSet};
use crate::ir::*;
use clang::{Entity, EntityKind, StorageClass};

/// Device functions nest at most this deep when inlined; deeper calls become opaque.
const MAX_INLINE_DEPTH: usize = 24;

#[derive(Clone, Copy, PartialEq)]
enum BreakTarget {
    Loop,
    Switch(ScopeId),
}

#[derive(Default)]
struct Frame<'tu> {
    env: HashMap<Entity<'tu>, Place>,
    /// Where `return` goes in an inlined function: its scope and result slot.
    ret: Option<(ScopeId, Option<Place>)>,
    /// The inlined function returns a reference: `return x;` binds the slot to `x`'s place.
    ret_ref: bool,
    this: Option<Place>,
    breaks: Vec<BreakTarget>,
    /// Labels that a forward `goto` can reach: the scope to exit.
    labels: HashMap<String, ScopeId>,
    /// Locals of this function whose address is taken: they live in memory.
    addressed: HashSet<Entity<'tu>>,
    /// The objects of the blocks being lowered that a destructor destroys (`lifetime.rs`).
    /// `None`: a temporary a reference may keep (`temporaries.rs`).
    objects: Vec<(Entity<'tu>, Option<Place>)>,
}

pub(crate) struct KernelLowerer<'m, 'tu> {
    m: &'m mut ModuleCtx<'tu>,
    params: Vec<Param>,
    shared: Vec<SharedVar>,
    shared_ids: HashMap<Entity<'tu>, SharedId>,
    locals: Vec<Local>,
    local_arrays: Vec<LocalArray>,
    accesses: Vec<Access>,
    frames: Vec<Frame<'tu>>,
    out: Vec<Block>,
    call_stack: Vec<Entity<'tu>>,
    next_scope: u32,
    /// Inside `__requires`/`__assume`: GPUVerify predicates are opaque without a warning.
    in_annotation: bool,
    /// The sites of lvalues of `volatile` type: their accesses are volatile.
    volatile_sites: HashSet<Span>,
    /// For each reference member of a local object (the object, the member's offset), the
    /// pointer local its constructor bound it with (`call::member_initializers`).
    ref_members: HashMap<(LocalArrayId, i64), LocalId>,
    /// Expressions and statements left out of the IR: what they read of the built-in
    /// variables, even through the library's functions, still counts (`builtins_read`).
    dropped: Vec<Entity<'tu>>,
    /// A call reaches code this file does not hold (a function only declared, a pointer no
    /// function of the file matches): it may read any built-in variable.
    unseen_code: bool,
}

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    pub fn lower(m: &'m mut ModuleCtx<'tu>, func: Entity<'tu>, name: String) -> Kernel {
        let mut l = KernelLowerer {
            m,
            params: Vec::new(),
            shared: Vec::new(),
            shared_ids: HashMap::default(),
            locals: Vec::new(),
            local_arrays: Vec::new(),
            accesses: Vec::new(),
            frames: Vec::new(),
            out: vec![Vec::new()],
            call_stack: vec![func],
            next_scope: 0,
            in_annotation: false,
            volatile_sites: HashSet::default(),
            ref_members: HashMap::default(),
            dropped: Vec::new(),
            unseen_code: false,
        };
        let body = func
            .get_children()
            .into_iter()
            .rfind(|c| c.get_kind() == EntityKind::CompoundStmt);
        l.frames.push(Frame {
            addressed: body.map(addressed_locals).unwrap_or_default(),
            ..Frame::default()
        });
        let assigned = body.map(assigned_locals).unwrap_or_default();
        for p in func.get_arguments().unwrap_or_default() {
            l.kernel_param(p, &assigned);
        }
        if let Some(b) = body {
            l.stmt(b);
        }
        let span = l.m.span(func);
        let body = l.out.pop().unwrap_or_default();
        Kernel {
            name,
            params: l.params,
            shared: l.shared,
            locals: l.locals,
            local_arrays: l.local_arrays,
            accesses: l.accesses,
            body,
            span,
            internal: func.get_linkage() == Some(clang::Linkage::Internal),
            max_threads: super::launch_bounds::max_threads(func, l.m),
            builtins_read: match l.unseen_code {
                true => builtins_read::every_dimension(),
                false => builtins_read::builtins_read(func, &l.dropped),
            },
        }
    }

    fn kernel_param(&mut self, p: Entity<'tu>, assigned: &HashSet<Entity<'tu>>) {
        let name = p
            .get_name()
            .unwrap_or_else(|| format!("arg{}", self.params.len()));
        let span = self.m.span(p);
        let Some(ty) = p.get_type() else { return };
        let ct = classify(ty);
        let id = ParamId(self.params.len() as u32);
        let (ir_ty, pointee) = match &ct {
            CType::Ptr(inner) => (
                Ty::Ptr(Space::Global),
                match **inner {
                    CType::Scalar(s) => Some(s),
                    _ => None,
                },
            ),
            CType::Scalar(s) => (Ty::Scalar(*s), None),
            CType::FnPtr(_) => (Ty::U64, None),
            CType::Record(_) => (Ty::Ptr(Space::Param), None),
            other => {
                self.m.warn(
                    span,
                    format!("unsupported kernel parameter type `{other:?}`"),
                );
                (Ty::Ptr(Space::Param), None)
            }
        };
        self.params.push(Param {
            name: name.clone(),
            ty: ir_ty,
            pointee,
            restrict: ty.is_restrict_qualified(),
            const_pointee: super::types::pointee_is_const(ty),
            span,
        });
        let value = Expr::new(ExprKind::Param(id), ir_ty);
        let place = match ct {
            // A struct passed by value lives in param space; the parameter is its address.
            CType::Record(_) | CType::Unsupported(_) => Place::Mem {
                addr: value,
                ty: ct,
                array: Some(name),
                site: Site::Implicit,
            },
            _ if assigned.contains(&p) || self.frame().addressed.contains(&p) => {
                let place = self.new_var(&name, ct, span);
                self.write(&place, value, span);
                place
            }
            // Unassigned scalar parameters are read directly, keeping the IR close to the
            // source; a local copy only exists when the kernel writes the parameter.
            _ => Place::Value(value, ct),
        };
        self.frame_mut().env.insert(p, place);
    }

    fn frame(&self) -> &Frame<'tu> {
        self.frames.last().expect("a frame is always pushed")
    }
    fn frame_mut(&mut self) -> &mut Frame<'tu> {
        self.frames.last_mut().expect("a frame is always pushed")
    }

    fn emit(&mut self, kind: StmtKind, span: Span) {
        self.out
            .last_mut()
            .expect("an output block is always open")
            .push(Stmt { kind, span });
    }

    /// Lowers `f` into a fresh block and returns it.
    fn block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.out.push(Vec::new());
        f(self);
        self.out.pop().unwrap_or_default()
    }

    fn new_local(&mut self, name: &str, ty: Ty) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local {
            name: name.to_string(),
            ty,
        });
        id
    }

    fn new_temp(&mut self, ty: Ty) -> LocalId {
        let n = self.locals.len();
        self.new_local(&format!("%t{n}"), ty)
    }

    fn new_scope(&mut self) -> ScopeId {
        self.next_scope += 1;
        ScopeId(self.next_scope - 1)
    }

    /// A thread-private memory object for an array, record or address-taken scalar.
    fn new_local_mem(&mut self, name: &str, ct: CType, span: Span) -> Place {
        let Some(size) = ct.size() else {
            self.m
                .warn(span, format!("local `{name}` has a type of unknown size"));
            return Place::Opaque(format!("local `{name}` of unknown size"));
        };
        let (elem, dims) = ct.array_shape();
        let id = LocalArrayId(self.local_arrays.len() as u32);
        self.local_arrays.push(LocalArray {
            name: name.to_string(),
            size_bytes: size,
            elem,
            dims,
        });
        Place::Mem {
            addr: Expr::new(ExprKind::LocalAddr(id), Ty::Ptr(Space::Local)),
            ty: ct,
            array: Some(name.to_string()),
            site: Site::Implicit,
        }
    }

    /// A variable of C type `ct`: an IR local if it is a scalar or pointer, memory otherwise.
    fn new_var(&mut self, name: &str, ct: CType, span: Span) -> Place {
        match ct.value_ty() {
            Some(ty) if ty != Ty::Void => Place::Local(self.new_local(name, ty), ct),
            _ => self.new_local_mem(name, ct, span),
        }
    }

    fn new_access(
        &mut self,
        kind: AccessKind,
        ty: Ty,
        array: Option<String>,
        span: Span,
        site: Site,
    ) -> AccessId {
        let id = AccessId(self.accesses.len() as u32);
        let scalar = match ty {
            Ty::Scalar(s) => s,
            // Pointers are stored as 64-bit integers.
            _ => Scalar::U64,
        };
        self.accesses.push(Access {
            id,
            kind,
            // Fixed up by `ir::space::infer` once all pointer locals are known.
            space: Space::Generic,
            ty: scalar,
            array,
            span,
            site,
            volatile: matches!(site, Site::Expr(s) if self.volatile_sites.contains(&s)),
        });
        id
    }

    /// Reads a scalar place.
    fn read(&mut self, place: &Place, span: Span) -> Expr {
        match place {
            Place::Local(id, ct) => {
                Expr::new(ExprKind::Local(*id), ct.value_ty().unwrap_or(Ty::Void))
            }
            Place::Mem {
                addr,
                ty,
                array,
                site,
            } => {
                let Some(vty) = ty.value_ty().filter(|t| *t != Ty::Void) else {
                    return Expr::opaque(format!("read of aggregate `{ty:?}`"), Ty::Void);
                };
                let access = self.new_access(AccessKind::Read, vty, array.clone(), span, *site);
                Expr::new(
                    ExprKind::Load {
                        access,
                        addr: Box::new(addr.clone()),
                    },
                    vty,
                )
            }
            Place::Value(v, _) => v.clone(),
            Place::Opaque(r) => {
                // What the place is may be memory another thread writes: the read must not
                // vanish from the IR, or that write would be proved race-free.
                if may_be_memory(r) {
                    let reason = read_reason(r);
                    self.emit(StmtKind::Opaque { reason }, span);
                }
                Expr::opaque(r.clone(), Ty::Void)
            }
        }
    }

    /// Writes a scalar value, or copies an aggregate when `value` is the address of one.
    fn write(&mut self, place: &Place, value: Expr, span: Span) {
        match place {
            Place::Local(id, ct) => {
                let ty = ct.value_ty().unwrap_or(value.ty);
                let value = convert(value, ty);
                self.emit(StmtKind::Assign { dst: *id, value }, span);
            }
            Place::Mem {
                addr,
                ty,
                array,
                site,
            } => {
                let vty = ty.value_ty().unwrap_or(value.ty);
                let access = self.new_access(AccessKind::Write, vty, array.clone(), span, *site);
                self.emit(
                    StmtKind::Store {
                        access,
                        addr: addr.clone(),
                        value: convert(value, vty),
                    },
                    span,
                );
            }
            Place::Value(..) => self.emit(
                StmtKind::Opaque {
                    reason: "write to a read-only value".into(),
                },
                span,
            ),
            Place::Opaque(r) => self.emit(StmtKind::Opaque { reason: r.clone() }, span),
        }
    }

    /// Copies an aggregate leaf by leaf: one read and one write access per scalar.
    fn copy_aggregate(&mut self, dst: &Place, src: &Place, span: Span) {
        let leaves = dst.ctype().leaves();
        match (dst, src, leaves) {
            (
                Place::Mem {
                    addr: da,
                    array: dn,
                    site: ds,
                    ..
                },
                Place::Mem {
                    addr: sa,
                    array: sn,
                    site: ss,
                    ..
                },
                Some(leaves),
            ) => {
                // Each field's access keeps the site of the whole aggregate lvalue.
                for (off, ty) in leaves {
                    let s = Place::Mem {
                        addr: ptr_add(sa.clone(), off as i64),
                        ty: scalar_ctype(ty),
                        array: sn.clone(),
                        site: *ss,
                    };
                    let d = Place::Mem {
                        addr: ptr_add(da.clone(), off as i64),
                        ty: scalar_ctype(ty),
                        array: dn.clone(),
                        site: *ds,
                    };
                    let v = self.read(&s, span);
                    self.write(&d, v, span);
                }
            }
            (dst, src, _) => {
                // Never drop a copy silently: the write (and the reads) must stay visible.
                let reason = match (dst, src) {
                    (Place::Opaque(r), _) | (_, Place::Opaque(r)) => {
                        format!("aggregate copy ({r})")
                    }
                    _ => "aggregate copy".to_string(),
                };
                self.m.warn(span, format!("unsupported {reason}"));
                self.emit(StmtKind::Opaque { reason }, span);
            }
        }
    }

    /// Binds a declared variable, handling `__shared__`, references and memory-resident locals.
    fn declare_var(&mut self, v: Entity<'tu>) {
        let span = self.m.span(v);
        let name = v.get_name().unwrap_or_default();
        let Some(t) = v.get_type() else { return };
        let ct = classify(t);
        if has_attr(v, EntityKind::CudaSharedAttr) {
            let place = self.shared_var(v);
            self.frame_mut().env.insert(v, place);
            return;
        }
        if v.get_storage_class() == Some(StorageClass::Static)
            || has_attr(v, EntityKind::CudaDeviceAttr)
        {
            // A static local is one object for the whole grid, like a `__device__` global.
            let place = self.m.global_place(v);
            self.frame_mut().env.insert(v, place);
            return;
        }
        // Array declarations also carry their size expressions as children; only an init list,
        // a string or an expression of the variable's own type initialises.
        let init = v
            .get_children()
            .into_iter()
            .rfind(|c| c.is_expression())
            .filter(|c| {
                !ct.is_aggregate()
                    || matches!(
                        c.get_kind(),
                        EntityKind::InitListExpr | EntityKind::StringLiteral
                    )
                    || c.get_type().map(|t| t.get_canonical_type()) == Some(t.get_canonical_type())
            });
        if let CType::Ref(_) = ct {
            let place = match init {
                Some(i) => self.bind_reference(v, i, span),
                None => Place::Opaque(format!("reference `{name}` without initializer")),
            };
            self.frame_mut().env.insert(v, place);
            return;
        }
        let place = if self.frame().addressed.contains(&v) || ct.is_aggregate() {
            self.new_local_mem(&name, ct.clone(), span)
        } else {
            self.new_var(&name, ct.clone(), span)
        };
        self.frame_mut().env.insert(v, place.clone());
        if let Some(i) = init {
            self.init_place(&place, i, span);
        }
        self.track_object(v.get_type(), Some(place));
    }

    /// Initialises a place from an initializer expression (scalar, init list or aggregate).
    fn init_place(&mut self, place: &Place, init: Entity<'tu>, span: Span) {
        let ct = place.ctype();
        if ct.is_aggregate() {
            self.init_aggregate(place, init, span);
        } else {
            let v = self.rvalue(init);
            self.write(place, v, span);
        }
    }

    fn init_aggregate(&mut self, place: &Place, init: Entity<'tu>, span: Span) {
        let init = skip_transparent(init);
        if init.get_kind() == EntityKind::InitListExpr {
            let Place::Mem {
                addr,
                ty,
                array,
                site,
            } = place
            else {
                return;
            };
            let items = init.get_children();
            let slots: Vec<(u64, CType)> = match ty {
                CType::Record(r) => r.fields.iter().map(|f| (f.offset, f.ty.clone())).collect(),
                CType::Array { elem, len } => {
                    let size = elem.size().unwrap_or(0);
                    (0..len.unwrap_or(items.len() as u64))
                        .map(|i| (i * size, (**elem).clone()))
                        .collect()
                }
                _ => Vec::new(),
            };
            for (i, (off, fty)) in slots.into_iter().enumerate() {
                let sub = Place::Mem {
                    addr: ptr_add(addr.clone(), off as i64),
                    ty: fty.clone(),
                    array: array.clone(),
                    site: *site,
                };
                let class = init.get_type().and_then(lifetime::class_of);
                match items.get(i) {
                    Some(item) => self.init_place(&sub, *item, span),
                    None if class.is_some_and(|c| self.default_member(c, place, i, span)) => {}
                    // C zero-fills the members an init list leaves out.
                    None => self.zero_fill(&sub, span),
                }
            }
            return;
        }
        let ctor = init
            .get_reference()
            .filter(|c| c.get_kind() == EntityKind::Constructor);
        if let Some(ctor) = ctor.filter(|c| !lifetime::copies_bytes(*c)) {
            // `T x(a, b);` constructs in place rather than copying from a temporary; so does a
            // copy constructor with a body.
            let args = init.get_arguments().unwrap_or_default();
            self.construct_in(ctor, &args, place.clone(), span);
            return;
        }
        let src = self.aggregate(init);
        self.copy_aggregate(place, &src, span);
        if let Some(class) = ctor.and_then(|c| c.get_semantic_parent()) {
            self.implicit_copy(class, span);
        }
    }

    fn zero_fill(&mut self, place: &Place, span: Span) {
        let Place::Mem {
            addr,
            ty,
            array,
            site,
        } = place
        else {
            return;
        };
        for (off, lty) in ty.leaves().unwrap_or_default() {
            let sub = Place::Mem {
                addr: ptr_add(addr.clone(), off as i64),
                ty: scalar_ctype(lty),
                array: array.clone(),
                site: *site,
            };
            self.write(&sub, Expr::int(0, lty), span);
        }
    }

    /// The place of a `__shared__` variable, declared once per kernel.
    fn shared_var(&mut self, v: Entity<'tu>) -> Place {
        let name = v.get_name().unwrap_or_default();
        let ct = v.get_type().map(classify).unwrap_or(CType::Void);
        let id = match self.shared_ids.get(&v) {
            Some(id) => *id,
            None => {
                let id = SharedId(self.shared.len() as u32);
                let (elem, dims) = ct.array_shape();
                let is_extern = v.get_storage_class() == Some(StorageClass::Extern)
                    || matches!(ct, CType::Array { len: None, .. });
                self.shared.push(SharedVar {
                    name: name.clone(),
                    size_bytes: if is_extern { None } else { ct.size() },
                    elem,
                    dims,
                    align: v.get_type().and_then(|t| t.get_alignof().ok()).unwrap_or(4) as u32,
                    span: self.m.span(v),
                    qualified: namespace_qualified(v),
                });
                self.shared_ids.insert(v, id);
                id
            }
        };
        Place::Mem {
            addr: Expr::new(ExprKind::SharedAddr(id), Ty::Ptr(Space::Shared)),
            ty: ct,
            array: Some(name),
            site: Site::Implicit,
        }
    }
}

/// `::ns::name` for a variable declared at namespace scope (an anonymous namespace adds
/// nothing: its members are found through the enclosing one), `None` for one declared in a
/// function (an `extern __shared__` declared there too: its name is not visible outside) or
/// class.
fn namespace_qualified(v: Entity) -> Option<String> {
    // libclang 19's translation-unit cursor has a kind the `clang` crate does not know, so the
    // top is recognised by identity.
    let top = v.get_translation_unit().get_entity();
    let lexical = v.get_lexical_parent()?;
    if lexical != top
        && !matches!(
            lexical.get_kind(),
            EntityKind::Namespace | EntityKind::LinkageSpec
        )
    {
        return None;
    }
    let mut parts = vec![v.get_name()?];
    let mut parent = v.get_semantic_parent()?;
    while parent != top {
        match parent.get_kind() {
            EntityKind::Namespace if !parent.is_anonymous() => parts.push(parent.get_name()?),
            EntityKind::Namespace | EntityKind::LinkageSpec => {}
            _ => return None,
        }
        parent = parent.get_semantic_parent()?;
    }
    parts.reverse();
    Some(format!("::{}", parts.join("::")))
}

pub(crate) fn scalar_ctype(ty: Ty) -> CType {
    match ty {
        Ty::Scalar(s) => CType::Scalar(s),
        _ => CType::Ptr(Box::new(CType::Void)),
    }
}

pub(crate) fn ptr_add(base: Expr, bytes: i64) -> Expr {
    if bytes == 0 {
        return base;
    }
    let ty = base.ty;
    // Fold `(p + c1) + c2`, so struct fields of array elements print as one offset.
    if let ExprKind::Binary(BinOp::PtrAdd, inner, off) = &base.kind {
        if let ExprKind::Int(c) = off.kind {
            return ptr_add((**inner).clone(), (c as i64).wrapping_add(bytes));
        }
    }
    Expr::new(
        ExprKind::Binary(
            BinOp::PtrAdd,
            Box::new(base),
            Box::new(Expr::int(bytes, Ty::I64)),
        ),
        ty,
    )
}

/// Converts a value to `ty` (integer width and sign, int/float, bool as `!= 0`).
pub(crate) fn convert(e: Expr, ty: Ty) -> Expr {
    if e.ty == ty || ty == Ty::Void || e.ty == Ty::Void {
        return e;
    }
    if let (Ty::Ptr(_), Ty::Ptr(_)) = (e.ty, ty) {
        return e;
    }
    if let ExprKind::Int(bits) = e.kind {
        if let Ty::Scalar(s) = ty {
            if !s.is_float() && s != Scalar::Bool {
                let v = match e.ty.scalar() {
                    Some(src) if src.is_signed() => sign_extend(bits, src.size()),
                    _ => bits as i64,
                };
                return Expr::int(v, ty);
            }
        }
    }
    Expr::new(ExprKind::Cast(Box::new(e)), ty)
}

/// Locals and parameters whose address is taken with `&`: they must live in memory.
fn addressed_locals(body: Entity) -> HashSet<Entity> {
    let mut out = HashSet::default();
    visit(body, &mut |e| {
        if e.get_kind() == EntityKind::UnaryOperator {
            if let Some(c) = e.get_children().first() {
                let c = skip_transparent(*c);
                if c.get_kind() == EntityKind::DeclRefExpr
                    && unary_op_text(e).as_deref() == Some("&")
                {
                    if let Some(d) = c.get_reference() {
                        out.insert(d);
                    }
                }
            }
        }
    });
    out
}

/// Declarations that are assigned to (`=`, compound assignment, `++`/`--`).
fn assigned_locals(body: Entity) -> HashSet<Entity> {
    let mut out = HashSet::default();
    visit(body, &mut |e| {
        let target = match e.get_kind() {
            EntityKind::BinaryOperator if e.get_display_name().as_deref() == Some("=") => {
                e.get_children().first().copied()
            }
            EntityKind::CompoundAssignOperator => e.get_children().first().copied(),
            EntityKind::UnaryOperator
                if matches!(unary_op_text(e).as_deref(), Some("++") | Some("--")) =>
            {
                e.get_children().first().copied()
            }
            _ => None,
        };
        if let Some(t) = target.map(skip_transparent) {
            if t.get_kind() == EntityKind::DeclRefExpr {
                if let Some(d) = t.get_reference() {
                    out.insert(d);
                }
            }
        }
    });
    out
}

/// Whether an opaque place may be memory other threads reach: not a texture handle, a method
/// named as a member, or a thread's own local.
fn may_be_memory(reason: &str) -> bool {
    !(reason.starts_with("texture")
        || reason == "method reference"
        || reason.starts_with("local `"))
}
