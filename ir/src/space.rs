//! Memory-space inference: which space each pointer local and each access refers to.
//!
//! The front end knows the space of every base address (a `__shared__` array, a kernel pointer
//! parameter, a `__constant__` variable, ...) but not of pointer locals, which may be assigned
//! several times. A fixpoint over all assignments gives each pointer local the join of what it
//! can hold; `Generic` when that is more than one space or a pointer loaded from memory.
//!
//! Pointers kept in a thread's local objects are followed too: a member holding a shared
//! array's address (a helper object bound to a block's tile, CUB's TempStorage reference)
//! points into shared memory. A slot (a local object and a constant offset) holds the join of
//! every pointer stored at exactly that slot; it is `Generic` if anything else is stored over
//! it, and every slot of an object is `Generic` once the object's address is used other than
//! as a constant-offset load or store address (it may then be written through anything).

use crate::*;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, PartialEq)]
enum Lattice {
    None,
    One(Space),
}

fn join(a: Lattice, b: Lattice) -> Lattice {
    match (a, b) {
        (Lattice::None, x) | (x, Lattice::None) => x,
        (Lattice::One(x), Lattice::One(y)) if x == y => a,
        _ => Lattice::One(Space::Generic),
    }
}

/// The local object and byte offset an address names, when it is one (`&obj` or `&obj + c`).
pub fn local_slot(addr: &Expr) -> Option<(LocalArrayId, i64)> {
    match &addr.kind {
        ExprKind::LocalAddr(id) => Some((*id, 0)),
        ExprKind::Binary(BinOp::PtrAdd, base, off) => match (&base.kind, &off.kind) {
            (ExprKind::LocalAddr(id), ExprKind::Int(c)) => Some((*id, *c as i64)),
            _ => None,
        },
        _ => None,
    }
}

/// What was stored in local objects: per object, each store's offset, size and what it held.
type SlotStores = HashMap<LocalArrayId, Vec<(i64, i64, Lattice)>>;

struct Spaces<'a> {
    kernel_params: &'a [Param],
    globals: &'a [GlobalVar],
    locals: Vec<Lattice>,
    /// Local objects whose address is used other than as a slot.
    escaped: HashSet<LocalArrayId>,
    stores: SlotStores,
}

impl Spaces<'_> {
    /// A pointer loaded from a local slot.
    fn slot(&self, id: LocalArrayId, off: i64) -> Lattice {
        if self.escaped.contains(&id) {
            return Lattice::One(Space::Generic);
        }
        let mut held = Lattice::None;
        for &(o, size, l) in self.stores.get(&id).into_iter().flatten() {
            if o == off && size == 8 {
                held = join(held, l);
            } else if o < off + 8 && off < o + size {
                return Lattice::One(Space::Generic);
            }
        }
        held
    }

    /// Every store into a local slot, with what it stores as things stand.
    fn slot_stores(&self, body: &Block) -> SlotStores {
        let mut out = SlotStores::new();
        walk_stmts(body, &mut |st| {
            let StmtKind::Store { addr, value, .. } = &st.kind else {
                return;
            };
            let Some((id, off)) = local_slot(addr) else {
                return;
            };
            // A store of anything but a scalar or a pointer covers what follows its offset.
            let size = match value.ty {
                Ty::Ptr(_) => 8,
                Ty::Scalar(s) => i64::from(s.size()),
                _ => i64::MAX / 4,
            };
            let held = match value.ty {
                Ty::Ptr(_) => self.of(value),
                _ => Lattice::One(Space::Generic),
            };
            out.entry(id).or_default().push((off, size, held));
        });
        out
    }

    fn of(&self, e: &Expr) -> Lattice {
        if !matches!(e.ty, Ty::Ptr(_)) {
            return Lattice::None;
        }
        match &e.kind {
            ExprKind::Param(p) => match self.kernel_params.get(p.index()).map(|p| p.ty) {
                Some(Ty::Ptr(s)) => Lattice::One(s),
                _ => Lattice::One(Space::Generic),
            },
            ExprKind::SharedAddr(_) => Lattice::One(Space::Shared),
            ExprKind::GlobalAddr(g) => Lattice::One(
                self.globals
                    .get(g.index())
                    .map_or(Space::Global, |g| g.space),
            ),
            ExprKind::LocalAddr(_) => Lattice::One(Space::Local),
            ExprKind::Local(l) => self.locals.get(l.index()).copied().unwrap_or(Lattice::None),
            ExprKind::Binary(BinOp::PtrAdd, a, _) => self.of(a),
            ExprKind::Cast(a) if matches!(a.ty, Ty::Ptr(_)) => self.of(a),
            // The null pointer says nothing about where a pointer points.
            ExprKind::Int(0) => Lattice::None,
            ExprKind::Select(_, a, b) => join(self.of(a), self.of(b)),
            ExprKind::Load { addr, .. } => match local_slot(addr) {
                Some((id, off)) => self.slot(id, off),
                None => Lattice::One(Space::Generic),
            },
            _ => Lattice::One(Space::Generic),
        }
    }
}

/// Sets the space of pointer locals, pointer-typed expressions and accesses of `k`.
pub fn infer(k: &mut Kernel, globals: &[GlobalVar]) {
    let mut s = Spaces {
        kernel_params: &k.params,
        globals,
        locals: vec![Lattice::None; k.locals.len()],
        escaped: escaped_objects(&k.body),
        stores: SlotStores::new(),
    };
    loop {
        let stores = s.slot_stores(&k.body);
        let mut changed = stores != s.stores;
        s.stores = stores;
        walk_stmts(&k.body, &mut |st| {
            let (dst, value) = match &st.kind {
                StmtKind::Assign { dst, value } => (*dst, value),
                _ => return,
            };
            let new = join(s.locals[dst.index()], s.of(value));
            if new != s.locals[dst.index()] {
                s.locals[dst.index()] = new;
                changed = true;
            }
        });
        if !changed {
            break;
        }
    }
    let space_of = |l: Lattice| match l {
        Lattice::One(sp) => sp,
        Lattice::None => Space::Generic,
    };
    for (local, l) in k.locals.iter_mut().zip(&s.locals) {
        if let Ty::Ptr(_) = local.ty {
            local.ty = Ty::Ptr(space_of(*l));
        }
    }
    let mut access_spaces = Vec::new();
    for_each_expr_mut(&mut k.body, &mut |e| {
        if let Ty::Ptr(_) = e.ty {
            let l = s.of(e);
            if l != Lattice::None {
                e.ty = Ty::Ptr(space_of(l));
            }
        }
        if let ExprKind::Load { access, addr } = &e.kind {
            access_spaces.push((*access, space_of(s.of(addr))));
        }
    });
    walk_stmts(&k.body, &mut |st| match &st.kind {
        StmtKind::Store { access, addr, .. } | StmtKind::Atomic { access, addr, .. } => {
            access_spaces.push((*access, space_of(s.of(addr))))
        }
        _ => {}
    });
    for (id, sp) in access_spaces {
        if let Some(a) = k.accesses.get_mut(id.index()) {
            a.space = sp;
        }
    }
}

/// Local objects whose address is used other than as the whole address of a load or store
/// (`local_slot`).
fn escaped_objects(body: &Block) -> HashSet<LocalArrayId> {
    fn scan(e: &Expr, out: &mut HashSet<LocalArrayId>) {
        match &e.kind {
            ExprKind::LocalAddr(id) => {
                out.insert(*id);
            }
            ExprKind::Load { addr, .. } if local_slot(addr).is_some() => {}
            ExprKind::Load { addr, .. } | ExprKind::Unary(_, addr) | ExprKind::Cast(addr) => {
                scan(addr, out)
            }
            ExprKind::Binary(_, a, b) => {
                scan(a, out);
                scan(b, out);
            }
            ExprKind::Select(c, a, b) => {
                scan(c, out);
                scan(a, out);
                scan(b, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| scan(a, out)),
            _ => {}
        }
    }
    let mut out = HashSet::new();
    walk_stmts(body, &mut |st| match &st.kind {
        StmtKind::Store { addr, value, .. } => {
            if local_slot(addr).is_none() {
                scan(addr, &mut out);
            }
            scan(value, &mut out);
        }
        _ => st.exprs().into_iter().for_each(|e| scan(e, &mut out)),
    });
    out
}

/// Applies `f` to every expression of a block, children before parents.
pub fn for_each_expr_mut(block: &mut Block, f: &mut impl FnMut(&mut Expr)) {
    for st in block {
        match &mut st.kind {
            StmtKind::Assign { value, .. } => expr_mut(value, f),
            StmtKind::Store { addr, value, .. } => {
                expr_mut(addr, f);
                expr_mut(value, f);
            }
            StmtKind::Atomic { addr, args, .. } => {
                expr_mut(addr, f);
                args.iter_mut().for_each(|a| expr_mut(a, f));
            }
            StmtKind::Barrier { pred: Some(p), .. } => expr_mut(p, f),
            StmtKind::SyncWarp { mask } => expr_mut(mask, f),
            StmtKind::Warp { args, .. } | StmtKind::Printf { args, .. } => {
                args.iter_mut().for_each(|a| expr_mut(a, f))
            }
            StmtKind::Assume { cond, .. } => expr_mut(cond, f),
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                expr_mut(cond, f);
                for_each_expr_mut(then_body, f);
                for_each_expr_mut(else_body, f);
            }
            StmtKind::Loop {
                cond,
                cond_prelude,
                body,
                step,
                ..
            } => {
                for_each_expr_mut(cond_prelude, f);
                if let Some(c) = cond {
                    expr_mut(c, f);
                }
                for_each_expr_mut(body, f);
                for_each_expr_mut(step, f);
            }
            StmtKind::Scope { body, .. } => for_each_expr_mut(body, f),
            _ => {}
        }
    }
}

fn expr_mut(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => expr_mut(a, f),
        ExprKind::Load { addr, .. } => expr_mut(addr, f),
        ExprKind::Binary(_, a, b) => {
            expr_mut(a, f);
            expr_mut(b, f);
        }
        ExprKind::Select(c, a, b) => {
            expr_mut(c, f);
            expr_mut(a, f);
            expr_mut(b, f);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(|a| expr_mut(a, f)),
        _ => {}
    }
    f(e);
}
