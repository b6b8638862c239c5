//! Array subscripts as the pair queries can use them: `a[s]` with a 32-bit `s` is the byte
//! offset `p + ext(s) * sizeof(*a)`, and two such accesses of one element size at the same `p`
//! touch common bytes exactly when their subscripts are equal (the 64-bit product of a 32-bit
//! value and an element size does not wrap). Said as `s1 == s2`, the pair query compares two
//! 32-bit terms instead of two 64-bit byte ranges. That is done only for the pairs the lemma
//! below is for, which needs the equality as an atom of the query: elsewhere the queries, and
//! so z3's models, witnesses and work, stay those of the byte ranges.
//!
//! Row-major subscripts `y * w + x` with `0 <= x < w` (a matrix of a width the kernel is given)
//! are equal only for equal rows and columns, unless a signed product or sum overflows, which
//! is undefined in CUDA C++ and assumed away (DESIGN.md, Semantics). z3 does not find that from
//! the products' bits within any budget a kernel has (a tiled transpose with a symbolic width
//! stayed `unknown`), so each such pair gets the implication as a lemma, valid for every
//! bit-vector value (the no-overflow conditions are in its premise), and each access the
//! no-overflow of its own subscript: the subscript is computed whenever the access runs. Only
//! for a width that is a variable: z3 handles a constant one as it is.
//!
//! The subscript is read off the access's IR address (`PtrAdd(p, Cast(s) * size)`, as the
//! front end lowers `a[s]`) and the symbolic offset built from it, walked together: the IR says
//! which operations are signed `int` arithmetic, the terms are what the thread computed.
//! Anything else (a 64-bit subscript, whose scaled value can wrap; an unsigned product, which
//! wraps by definition) keeps the byte ranges.

use crate::ir::{BinOp, Expr, ExprKind, Scalar, Ty};
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::DeclKind;

/// The shape of an access `a[f0 * f1 + x]` of one whole element, all signed `int`: where the
/// terms are in its symbolic offset. No term is kept: z3 terms held past their use change
/// which terms z3 frees, and with them z3's choices in the queries of other pairs.
#[derive(Clone, Copy)]
pub struct Subscript {
    element: u64,
    /// The subscript is scaled by a multiplication (not for one-byte elements).
    scaled: bool,
    /// The product is the sum's left operand.
    product_first: bool,
}

/// The terms of a subscript in one thread's offset.
struct Terms {
    /// The byte offset of `a` itself.
    base: BV,
    index: BV,
    factors: [BV; 2],
    product: BV,
    x: BV,
}

impl Terms {
    fn of(offset: &BV, shape: Subscript) -> Option<Terms> {
        let [base, scaled] = app(offset, DeclKind::Badd)?;
        let extended = match shape.scaled {
            true => app(&scaled, DeclKind::Bmul)?[0].clone(),
            false => scaled,
        };
        let index = extended.as_app(DeclKind::SignExt)?.pop()?;
        let [l, r] = app(&index, DeclKind::Badd)?;
        let (product, x) = if shape.product_first { (l, r) } else { (r, l) };
        Some(Terms {
            base,
            factors: app(&product, DeclKind::Bmul)?,
            index,
            product,
            x,
        })
    }

    /// Neither the product nor the sum overflows.
    fn no_overflow(&self) -> Bool {
        let [f0, f1] = &self.factors;
        Bool::and(&[
            f0.bvmul_no_overflow(f1, true),
            f0.bvmul_no_underflow(f1),
            self.product.bvadd_no_overflow(&self.x, true),
            self.product.bvadd_no_underflow(&self.x),
        ])
    }
}

/// The shape of an access of `size` bytes at `addr`, whose symbolic offset is `offset`, when it
/// is a row-major subscript of one element.
pub fn of(addr: &Expr, offset: &BV, size: u32) -> Option<Subscript> {
    let ExprKind::Binary(BinOp::PtrAdd, _, scaled) = &addr.kind else {
        return None;
    };
    let (ext, element) = match &scaled.kind {
        ExprKind::Binary(BinOp::Mul, ext, elem) => match elem.kind {
            ExprKind::Int(e) => (ext.as_ref(), e),
            _ => return None,
        },
        _ => (scaled.as_ref(), 1),
    };
    let ExprKind::Cast(s) = &ext.kind else {
        return None;
    };
    let signed_int = |e: &Expr| e.ty == Ty::Scalar(Scalar::I32);
    let ExprKind::Binary(BinOp::Add, l, r) = &s.kind else {
        return None;
    };
    if element != u64::from(size) || !signed_int(s) || !signed_int(l) {
        return None;
    }
    let is_product =
        |e: &Expr| matches!(&e.kind, ExprKind::Binary(BinOp::Mul, a, _) if signed_int(a));
    let shape = Subscript {
        element,
        scaled: element != 1,
        product_first: is_product(l),
    };
    // The terms are what the IR says (the same operations, unsimplified), or nothing is used.
    let fits = (is_product(l) || is_product(r)) && Terms::of(offset, shape).is_some();
    fits.then_some(shape)
}

/// The two operands of `term` when it applies `kind` to exactly two bit-vectors.
fn app(term: &BV, kind: DeclKind) -> Option<[BV; 2]> {
    let mut kids = term.as_app(kind)?;
    let second = kids.pop()?;
    let first = kids.pop()?;
    kids.is_empty().then_some([first, second])
}

trait App {
    fn as_app(&self, kind: DeclKind) -> Option<Vec<BV>>;
}

impl App for BV {
    fn as_app(&self, kind: DeclKind) -> Option<Vec<BV>> {
        if !self.is_app() || self.decl().kind() != kind {
            return None;
        }
        self.children().iter().map(Dynamic::as_bv).collect()
    }
}

/// An access of a thread: its offset, subscript shape and path condition.
pub type Side<'a> = (&'a BV, Subscript, &'a Bool);

/// When `x` and `y` are accesses of one element each, of one size, from the same start, at
/// row-major subscripts of one width, what replaces the overlap of their bytes: the subscripts
/// are equal, with the no-overflow facts and the lemma (module docs).
pub fn same_element((ox, sx, pcx): Side, (oy, sy, pcy): Side) -> Option<Vec<Bool>> {
    if sx.element != sy.element {
        return None;
    }
    let (tx, ty) = (Terms::of(ox, sx)?, Terms::of(oy, sy)?);
    if tx.base != ty.base {
        return None;
    }
    let width = common_width(&tx, &ty)?;
    let equal = tx.index.eq(&ty.index);
    let (no_overflow_x, no_overflow_y) = (tx.no_overflow(), ty.no_overflow());
    let lemma = rows_equal(width, (&tx, &no_overflow_x), (&ty, &no_overflow_y), &equal);
    Some(vec![
        equal,
        pcx.implies(&no_overflow_x),
        pcy.implies(&no_overflow_y),
        lemma,
    ])
}

/// Which factor of each subscript is the width: one term in both, not a constant (a constant
/// width z3 handles as it is, and the lemma's terms would only add to its work).
fn common_width(a: &Terms, b: &Terms) -> Option<[usize; 2]> {
    (0..2)
        .flat_map(|i| (0..2).map(move |j| [i, j]))
        .find(|&[i, j]| a.factors[i] == b.factors[j] && a.factors[i].as_u64().is_none())
}

/// `f * w + x == g * w + z ∧ 0 <= x, z < w ∧ no overflow ⇒ f == g ∧ x == z`, with `w` the
/// factors `[i, j]` of `a` and `b`.
fn rows_equal(
    [i, j]: [usize; 2],
    (a, no_overflow_a): (&Terms, &Bool),
    (b, no_overflow_b): (&Terms, &Bool),
    equal: &Bool,
) -> Bool {
    let (width, fa, fb) = (&a.factors[i], &a.factors[1 - i], &b.factors[1 - j]);
    let zero = BV::from_u64(0, width.get_size());
    let within = |x: &BV| Bool::and(&[x.bvsge(&zero), x.bvslt(width)]);
    let premise = Bool::and(&[
        equal.clone(),
        no_overflow_a.clone(),
        no_overflow_b.clone(),
        within(&a.x),
        within(&b.x),
    ]);
    premise.implies(Bool::and(&[fa.eq(fb), a.x.eq(&b.x)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    /// The lemma holds for every value (checked at 8 bits, where z3 decides it at once).
    #[test]
    fn the_row_major_lemma_is_valid() {
        let v = |n: &str| BV::new_const(n, 8);
        let (w, f, g, x, z) = (v("w"), v("f"), v("g"), v("x"), v("z"));
        let row = |f: &BV, x: &BV| Terms {
            base: BV::from_u64(0, 64),
            index: f.bvmul(&w).bvadd(x),
            factors: [f.clone(), w.clone()],
            product: f.bvmul(&w),
            x: x.clone(),
        };
        let (a, b) = (row(&f, &x), row(&g, &z));
        let equal = a.index.eq(&b.index);
        let (na, nb) = (a.no_overflow(), b.no_overflow());
        let width = common_width(&a, &b).expect("one width");
        let lemma = rows_equal(width, (&a, &na), (&b, &nb), &equal);
        let s = Solver::new();
        s.assert(lemma.not());
        assert_eq!(s.check(), SatResult::Unsat);
    }
}
