//! Memory-space inference: which space each pointer local and each access refers to.
//!
//! The front end knows the space of every base address (a `__shared__` array, a kernel pointer
//! parameter, a `__constant__` variable, ...) but not of pointer locals, which may be assigned
//! several times. A fixpoint over all assignments gives each pointer local the join of what it
//! can hold; `Generic` when that is more than one space or a pointer loaded from memory.

use crate::*;

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

struct Spaces<'a> {
    kernel_params: &'a [Param],
    globals: &'a [GlobalVar],
    locals: Vec<Lattice>,
}

impl Spaces<'_> {
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
    };
    loop {
        let mut changed = false;
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
