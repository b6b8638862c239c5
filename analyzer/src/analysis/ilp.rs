//! The good_lp engine (`--solver ilp`): a query whose every term is affine in bounded integers is
//! translated exactly into a mixed-integer linear program and solved with microlp (pure Rust), or
//! declined.
//!
//! Exactness: a bit-vector term of width `w` is an integer expression `e` whose value is
//! `e mod 2^w` ("lazy" wraparound: `+ - *c <<c` need nothing more). Where the value itself is
//! needed (comparisons, division, extensions) `e` is normalized into the unsigned or signed
//! range: kept as is when interval arithmetic over the variables' bounds proves it already lies
//! there, else as `r = e - 2^w k` with integer `k` bounded by the interval. Boolean structure is
//! reified with binary variables and big-M rows whose M comes from the same intervals.
//! Uninterpreted functions become one variable per application plus Ackermann's constraints
//! (equal arguments, equal results). A term with few possible values (a shift by a variable
//! with a small range) is a choice among cases, which makes products and divisions by a
//! constant shifted that way exact too (a geometric loop counter, `1 << j`). Division and shifts
//! by constants use quotient and remainder variables; `& | ^` of two values take them apart into
//! bits. Anything else (other products and divisions by variables, wide shifts, systems over 200
//! variables, ranges wider than microlp's 32-bit integers) is declined and z3 answers it.
//!
//! Variable bounds are tightened between translation passes by propagating the rows of the
//! previous pass (they hold in every model, the translation being exact), which both proves
//! some queries infeasible outright and removes wrap variables.
//!
//! A feasible solution is handed to z3 with every constant fixed: only a z3 model (checked
//! against the formula) is returned, else the query goes to z3 (`ilp_bad_models`, a bug).
//! microlp may explore `MAX_NODES` branch-and-bound nodes, a count of work and not of time, so
//! that its answers do not depend on the machine's load; then z3 answers (`ilp_gave_up`).
//! Infeasibility is microlp's floating-point verdict: the cross-check test is what vouches for
//! it on the corpus.
//!
//! libz3 4.8 numbers the declaration kinds after `bvashr` (uninterpreted symbols,
//! `bvsmul_noovfl`, ...) differently from z3-sys's table, so those kinds are probed at run time,
//! never compared with `DeclKind` constants.

use crate::collections::HashMap;
use good_lp::{solvers::microlp::microlp, variable, Expression, ProblemVariables, SolverModel};
use microlp::SolveOptions;
use std::collections::BTreeMap;
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{AstKind, DeclKind, Model, Params, SatResult, SortKind};

/// What the ILP engine made of a query.
pub enum Answer<M = Model> {
    Unsat,
    /// A model of the original z3 formula (the ILP solution, checked by z3).
    Sat(M),
    /// Not purely affine, or too large for microlp: why, for the statistics.
    Declined(&'static str),
    /// microlp gave no answer (node limit, numerical failure).
    GaveUp,
    /// microlp's solution is not a model of the z3 formula: a bug of the translation or a
    /// numerical error.
    BadModel,
}

impl<M> Answer<M> {
    pub fn map_model<N>(self, f: impl FnOnce(M) -> N) -> Answer<N> {
        match self {
            Answer::Unsat => Answer::Unsat,
            Answer::Sat(m) => Answer::Sat(f(m)),
            Answer::Declined(why) => Answer::Declined(why),
            Answer::GaveUp => Answer::GaveUp,
            Answer::BadModel => Answer::BadModel,
        }
    }
}

/// Solves the query; `work` is z3's resource limit for checking a solution as a model.
pub fn solve(assertions: &[&Bool], work: u32) -> Answer {
    let sys = match translate(assertions) {
        Ok(Some(s)) => s,
        Ok(None) => return Answer::Unsat,
        Err(NotAffine(why)) => return Answer::Declined(why),
    };
    let values = match sys.solve() {
        Ok(Some(v)) => v,
        Ok(None) => return Answer::Unsat,
        Err(Failure::Declined(why)) => return Answer::Declined(why),
        Err(Failure::GaveUp) => return Answer::GaveUp,
    };
    match model_of(assertions, &sys.leaves, &values, work) {
        Some(m) => Answer::Sat(m),
        None => Answer::BadModel,
    }
}

/// The z3 model fixing every constant and function application to the ILP's value; `None` if
/// the values do not satisfy the formula.
fn model_of(
    assertions: &[&Bool],
    leaves: &[(Dynamic, usize)],
    values: &[i128],
    work: u32,
) -> Option<Model> {
    let s = z3::Solver::new();
    let mut p = Params::new();
    p.set_u32("rlimit", work);
    s.set_params(&p);
    for a in assertions {
        s.assert(*a);
    }
    for (ast, id) in leaves {
        let v = values[*id];
        if let Some(b) = ast.as_bool() {
            s.assert(b.eq(Bool::from_bool(v != 0)));
        } else if let Some(x) = ast.as_bv() {
            let w = x.get_size();
            s.assert(x.eq(BV::from_u64(u64::try_from(v).ok()? & mask(w), w)));
        }
    }
    match s.check() {
        SatResult::Sat => s.get_model(),
        _ => None,
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

struct NotAffine(&'static str);

enum Failure {
    Declined(&'static str),
    GaveUp,
}

type R<T> = Result<T, NotAffine>;

/// An affine integer expression over the system's variables.
#[derive(Clone, Debug, Default)]
struct Lin {
    coef: BTreeMap<usize, i128>,
    c: i128,
}

impl Lin {
    fn constant(c: i128) -> Lin {
        Lin {
            coef: BTreeMap::new(),
            c,
        }
    }

    fn var(v: usize) -> Lin {
        Lin {
            coef: BTreeMap::from([(v, 1)]),
            c: 0,
        }
    }

    fn as_const(&self) -> Option<i128> {
        self.coef.is_empty().then_some(self.c)
    }

    fn add_scaled(&self, k: i128, o: &Lin) -> R<Lin> {
        let mut r = self.clone();
        r.c = checked(o.c.checked_mul(k).and_then(|x| x.checked_add(r.c)))?;
        for (v, a) in &o.coef {
            let e = r.coef.entry(*v).or_insert(0);
            *e = checked(a.checked_mul(k).and_then(|x| x.checked_add(*e)))?;
            if *e == 0 {
                r.coef.remove(v);
            }
        }
        Ok(r)
    }

    fn plus(&self, o: &Lin) -> R<Lin> {
        self.add_scaled(1, o)
    }

    fn minus(&self, o: &Lin) -> R<Lin> {
        self.add_scaled(-1, o)
    }

    fn scale(&self, k: i128) -> R<Lin> {
        Lin::default().add_scaled(k, self)
    }

    fn offset(&self, k: i128) -> R<Lin> {
        self.plus(&Lin::constant(k))
    }
}

fn checked(x: Option<i128>) -> R<i128> {
    // Far beyond anything f64 represents exactly; such a query is not one for an LP solver.
    x.filter(|v| v.abs() < 1 << 70)
        .ok_or(NotAffine("arithmetic beyond 2^70"))
}

/// A bit-vector value: `e mod 2^w`.
#[derive(Clone)]
struct Val {
    e: Lin,
    w: u32,
}

/// A value that is one of few constants: `c_i` when `l_i` holds, exactly one `l_i` holding.
type Cases = Rc<Vec<(Lit, i128)>>;

/// A Boolean as a constant or a binary variable (or its negation).
#[derive(Clone, Copy)]
enum Lit {
    Const(bool),
    Var(usize, bool),
}

impl Lit {
    fn not(self) -> Lit {
        match self {
            Lit::Const(b) => Lit::Const(!b),
            Lit::Var(v, p) => Lit::Var(v, !p),
        }
    }

    fn lin(self) -> Lin {
        match self {
            Lit::Const(b) => Lin::constant(b as i128),
            Lit::Var(v, true) => Lin::var(v),
            Lit::Var(v, false) => Lin {
                coef: BTreeMap::from([(v, -1)]),
                c: 1,
            },
        }
    }
}

/// A row: `e <= 0`, or `e = 0`.
struct Row {
    e: Lin,
    eq: bool,
}

/// The linear system of one query.
#[derive(Default)]
struct System {
    bounds: Vec<(i128, i128)>,
    rows: Vec<Row>,
    /// Constants and function applications of the formula, with their variables.
    leaves: Vec<(Dynamic, usize)>,
}

/// At most this many Ackermann constraints per query.
const MAX_ACKERMANN: usize = 2000;
/// Larger systems are left to z3: on the corpus microlp solves nearly every system up to this
/// size within milliseconds (measured with the time limit it had before its node limit).
const MAX_VARS: usize = 200;
/// Branch-and-bound nodes microlp may explore per query before z3 answers it instead.
const MAX_NODES: u64 = 3000;
/// Widest value taken apart into bits for a bitwise operator.
const MAX_BITS: u32 = 32;
/// Translation passes, each with the bounds the previous one propagated.
const PASSES: usize = 3;

/// The exact system of the query, `None` if bound propagation already shows it infeasible.
fn translate(assertions: &[&Bool]) -> R<Option<System>> {
    let mut known: HashMap<Dynamic, (i128, i128)> = HashMap::default();
    let mut last = None;
    for _ in 0..PASSES {
        let mut t = Translator::new(&known);
        for a in assertions {
            t.assert(&Dynamic::from_ast(*a), true)?;
        }
        t.ackermann()?;
        let mut sys = t.sys;
        if !sys.propagate() {
            return Ok(None);
        }
        let tightened: HashMap<Dynamic, (i128, i128)> = sys
            .leaves
            .iter()
            .map(|(ast, id)| (ast.clone(), sys.bounds[*id]))
            .collect();
        let stable = tightened == known;
        known = tightened;
        last = Some(sys);
        if stable {
            break;
        }
    }
    Ok(last)
}

struct Translator<'a> {
    sys: System,
    known: &'a HashMap<Dynamic, (i128, i128)>,
    terms: HashMap<Dynamic, Val>,
    lits: HashMap<Dynamic, Lit>,
    leaf_ids: HashMap<Dynamic, usize>,
    /// Applications of uninterpreted functions, by function name.
    apps: BTreeMap<String, Vec<Dynamic>>,
    norms: HashMap<(Dynamic, bool), Lin>,
    case_lists: HashMap<Dynamic, Cases>,
    bit_cache: HashMap<Dynamic, Vec<Lit>>,
    kinds: Probed,
}

/// Declaration kinds as the linked libz3 numbers them: z3-sys's table is generated for a newer
/// z3 and numbers these (every kind after `bvashr`) differently from libz3 4.8.
struct Probed {
    uninterpreted: DeclKind,
    smul_no_overflow: DeclKind,
    smul_no_underflow: DeclKind,
    umul_no_overflow: DeclKind,
}

impl Probed {
    fn new() -> Probed {
        let p = BV::new_const("gmrace!probe", 2);
        Probed {
            uninterpreted: p.decl().kind(),
            smul_no_overflow: p.bvmul_no_overflow(&p, true).decl().kind(),
            smul_no_underflow: p.bvmul_no_underflow(&p).decl().kind(),
            umul_no_overflow: p.bvmul_no_overflow(&p, false).decl().kind(),
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

fn width(ast: &Dynamic) -> R<u32> {
    let w = ast
        .as_bv()
        .ok_or(NotAffine("sort other than bit-vector"))?
        .get_size();
    if w > 64 {
        return Err(NotAffine("bit-vector wider than 64 bits"));
    }
    Ok(w)
}

fn pow2(n: u32) -> i128 {
    1i128 << n
}

impl<'a> Translator<'a> {
    fn new(known: &'a HashMap<Dynamic, (i128, i128)>) -> Self {
        Translator {
            sys: System::default(),
            known,
            terms: HashMap::default(),
            lits: HashMap::default(),
            leaf_ids: HashMap::default(),
            apps: BTreeMap::new(),
            norms: HashMap::default(),
            case_lists: HashMap::default(),
            bit_cache: HashMap::default(),
            kinds: Probed::new(),
        }
    }

    fn new_var(&mut self, lo: i128, hi: i128) -> usize {
        self.sys.bounds.push((lo, hi));
        self.sys.bounds.len() - 1
    }

    fn binary(&mut self) -> usize {
        self.new_var(0, 1)
    }

    fn row(&mut self, e: Lin, eq: bool) {
        self.sys.rows.push(Row { e, eq });
    }

    fn interval(&self, e: &Lin) -> R<(i128, i128)> {
        let (mut lo, mut hi) = (e.c, e.c);
        for (v, a) in &e.coef {
            let (l, h) = self.sys.bounds[*v];
            let (x, y) = (checked(a.checked_mul(l))?, checked(a.checked_mul(h))?);
            lo = checked(lo.checked_add(x.min(y)))?;
            hi = checked(hi.checked_add(x.max(y)))?;
        }
        Ok((lo, hi))
    }

    /// The variable of a constant or function application (one per distinct term).
    fn leaf(&mut self, ast: &Dynamic, lo: i128, hi: i128) -> usize {
        if let Some(id) = self.leaf_ids.get(ast) {
            return *id;
        }
        let (lo, hi) = match self.known.get(ast) {
            Some(&(l, h)) => (l.max(lo), h.min(hi)),
            None => (lo, hi),
        };
        let id = self.new_var(lo, hi);
        self.leaf_ids.insert(ast.clone(), id);
        self.sys.leaves.push((ast.clone(), id));
        let d = ast.decl();
        if d.arity() > 0 {
            self.apps.entry(d.name()).or_default().push(ast.clone());
        }
        id
    }

    /// `e` brought into `[a, a + 2^w)` (unsigned: `a = 0`; signed: `a = -2^(w-1)`).
    fn normalize(&mut self, v: &Val, signed: bool) -> R<Lin> {
        let m = pow2(v.w);
        let a = if signed { -m / 2 } else { 0 };
        let (lo, hi) = self.interval(&v.e)?;
        if lo >= a && hi < a + m {
            return Ok(v.e.clone());
        }
        let (kmin, kmax) = (floor_div(lo - a, m), floor_div(hi - a, m));
        if kmin == kmax {
            return v.e.offset(checked(kmin.checked_mul(-m))?);
        }
        let k = self.new_var(kmin, kmax);
        let r = self.new_var(a, a + m - 1);
        // r = e - m k
        let e = v.e.add_scaled(-m, &Lin::var(k))?.minus(&Lin::var(r))?;
        self.row(e, true);
        Ok(Lin::var(r))
    }

    fn unsigned(&mut self, ast: &Dynamic) -> R<Lin> {
        self.normalized(ast, false)
    }

    fn signed(&mut self, ast: &Dynamic) -> R<Lin> {
        self.normalized(ast, true)
    }

    fn normalized(&mut self, ast: &Dynamic, signed: bool) -> R<Lin> {
        let key = (ast.clone(), signed);
        if let Some(e) = self.norms.get(&key) {
            return Ok(e.clone());
        }
        let v = self.term(ast)?;
        let e = self.normalize(&v, signed)?;
        self.norms.insert(key, e.clone());
        Ok(e)
    }

    /// The value of a constant operand, in `[0, 2^w)`.
    fn constant(&mut self, ast: &Dynamic) -> R<Option<i128>> {
        let v = self.term(ast)?;
        Ok(v.e.as_const().map(|c| c.rem_euclid(pow2(v.w))))
    }

    /// `(floor(x / d), x mod d)` of a non-negative `x` and `d > 0`.
    fn divmod(&mut self, x: &Lin, d: i128) -> R<(Lin, Lin)> {
        let (lo, hi) = self.interval(x)?;
        let (qlo, qhi) = (floor_div(lo, d), floor_div(hi, d));
        if qlo == qhi {
            let q = Lin::constant(qlo);
            let r = x.offset(-qlo * d)?;
            return Ok((q, r));
        }
        let q = self.new_var(qlo, qhi);
        let r = self.new_var(0, d - 1);
        let e = x.add_scaled(-d, &Lin::var(q))?.minus(&Lin::var(r))?;
        self.row(e, true);
        Ok((Lin::var(q), Lin::var(r)))
    }

    /// C's truncating division and remainder of a signed `x` by `d != 0`.
    fn sdivrem(&mut self, x: &Lin, d: i128, w: u32) -> R<(Lin, Lin)> {
        let (lo, hi) = self.interval(x)?;
        let (q, r) = if lo >= 0 {
            self.divmod(x, d.abs())?
        } else if hi <= 0 {
            let (q, r) = self.divmod(&x.scale(-1)?, d.abs())?;
            (q.scale(-1)?, r.scale(-1)?)
        } else {
            // Either sign: the one that holds, chosen by `x < 0`.
            let (qp, rp) = self.divmod(x, d.abs())?;
            let (qn, rn) = self.divmod(&x.scale(-1)?, d.abs())?;
            let negative = self.reify_le(&x.offset(1)?)?;
            (
                self.select(negative, &qn.scale(-1)?, &qp, w)?,
                self.select(negative, &rn.scale(-1)?, &rp, w)?,
            )
        };
        Ok((if d < 0 { q.scale(-1)? } else { q }, r))
    }

    /// `x / d` or `x % d` (unsigned or signed as `kind` says) by the `w`-bit constant `d`.
    fn divide(&mut self, kind: DeclKind, x: &Dynamic, d: i128, w: u32) -> R<Lin> {
        let m = pow2(w);
        let rem = matches!(kind, DeclKind::Burem | DeclKind::Bsrem);
        if matches!(kind, DeclKind::Budiv | DeclKind::Burem) {
            if d == 0 {
                // z3's (and the replay's) division by zero: all ones, remainder x.
                return Ok(if rem {
                    self.term(x)?.e
                } else {
                    Lin::constant(m - 1)
                });
            }
            let u = self.unsigned(x)?;
            let (q, r) = self.divmod(&u, d)?;
            return Ok(if rem { r } else { q });
        }
        if d == 0 {
            return Err(NotAffine("signed division by zero"));
        }
        let d = if d >= m / 2 { d - m } else { d };
        let v = self.signed(x)?;
        let (q, r) = self.sdivrem(&v, d, w)?;
        Ok(if rem { r } else { q })
    }

    /// `x * y` where one of them takes few constant values.
    fn product(&mut self, x: &Dynamic, y: &Dynamic, w: u32) -> R<Lin> {
        let (cases, other) = match (self.cases(x)?, self.cases(y)?) {
            (Some(c), _) => (c, y),
            (_, Some(c)) => (c, x),
            _ => return Err(NotAffine("product of two variables")),
        };
        let e = self.term(other)?.e;
        self.by_cases(&cases, w, |_, c| e.scale(c))
    }

    /// The value `f(c_i)` for the case `c_i` that holds.
    fn by_cases(
        &mut self,
        cases: &[(Lit, i128)],
        w: u32,
        mut f: impl FnMut(&mut Self, i128) -> R<Lin>,
    ) -> R<Lin> {
        let Some(((_, last), rest)) = cases.split_last() else {
            return Err(NotAffine("no case"));
        };
        let mut v = f(self, *last)?;
        for (l, c) in rest.iter().rev() {
            v = match l {
                Lit::Const(false) => v,
                Lit::Const(true) => f(self, *c)?,
                Lit::Var(..) => {
                    let x = f(self, *c)?;
                    self.select(*l, &x, &v, w)?
                }
            };
        }
        Ok(v)
    }

    /// The few constant values (in `[0, 2^w)`) a term takes, each with the literal that holds
    /// exactly when it does: a constant shifted by a variable, and what extensions, truncations
    /// and constant steps make of one.
    fn cases(&mut self, ast: &Dynamic) -> R<Option<Cases>> {
        self.term(ast)?;
        if let Some(c) = self.case_lists.get(ast) {
            return Ok(Some(c.clone()));
        }
        if ast.kind() != AstKind::App || ast.children().is_empty() {
            return Ok(None);
        }
        let kids = ast.children();
        let w = width(ast)?;
        let m = pow2(w);
        let child = |t: &mut Self, k: &Dynamic| -> R<Option<(Cases, u32)>> {
            Ok(t.cases(k)?.map(|c| (c, width(k).unwrap_or(w))))
        };
        let (from, f): (Cases, Box<dyn Fn(i128) -> i128>) = match ast.decl().kind() {
            DeclKind::ZeroExt | DeclKind::Extract if self.low_bit(ast)? == 0 => {
                match child(self, &kids[0])? {
                    Some((c, _)) => (c, Box::new(|v| v)),
                    None => return Ok(None),
                }
            }
            DeclKind::SignExt => match child(self, &kids[0])? {
                Some((c, cw)) => {
                    let half = pow2(cw - 1);
                    (
                        c,
                        Box::new(move |v| if v >= half { v - 2 * half } else { v }),
                    )
                }
                None => return Ok(None),
            },
            kind @ (DeclKind::Bmul | DeclKind::Badd | DeclKind::Bsub) if kids.len() == 2 => {
                let (k0, k1) = (self.constant(&kids[0])?, self.constant(&kids[1])?);
                let (c, k, first) = match (k0, k1) {
                    (Some(k), None) => (self.cases(&kids[1])?, k, false),
                    (None, Some(k)) => (self.cases(&kids[0])?, k, true),
                    _ => return Ok(None),
                };
                let Some(c) = c else { return Ok(None) };
                let f: Box<dyn Fn(i128) -> i128> = match kind {
                    // Arithmetic modulo 2^128 is exact modulo 2^w.
                    DeclKind::Bmul => Box::new(move |v| v.wrapping_mul(k)),
                    DeclKind::Badd => Box::new(move |v| v.wrapping_add(k)),
                    _ if first => Box::new(move |v| v.wrapping_sub(k)),
                    _ => Box::new(move |v| k.wrapping_sub(v)),
                };
                (c, f)
            }
            _ => return Ok(None),
        };
        let mapped: Cases = Rc::new(
            from.iter()
                .map(|(l, v)| (*l, f(*v).rem_euclid(m)))
                .collect(),
        );
        self.case_lists.insert(ast.clone(), mapped.clone());
        Ok(Some(mapped))
    }

    fn term(&mut self, ast: &Dynamic) -> R<Val> {
        if let Some(v) = self.terms.get(ast) {
            return Ok(v.clone());
        }
        let v = self.term_uncached(ast)?;
        self.terms.insert(ast.clone(), v.clone());
        Ok(v)
    }

    fn term_uncached(&mut self, ast: &Dynamic) -> R<Val> {
        let w = width(ast)?;
        let m = pow2(w);
        let val = |e: Lin| Ok(Val { e, w });
        if ast.kind() == AstKind::Numeral {
            let x = ast
                .as_bv()
                .and_then(|b| b.as_u64())
                .ok_or(NotAffine("numeral"))? as i128;
            // The representative of least magnitude keeps intervals (and wraps) small.
            return val(Lin::constant(if x >= m / 2 { x - m } else { x }));
        }
        if ast.kind() != AstKind::App {
            return Err(NotAffine("bound variable or quantifier"));
        }
        let kids = ast.children();
        let kind = ast.decl().kind();
        match kind {
            k if k == self.kinds.uninterpreted => {
                let id = self.leaf(ast, 0, m - 1);
                val(Lin::var(id))
            }
            DeclKind::Badd | DeclKind::Bsub => {
                let mut e = self.term(&kids[0])?.e;
                for k in &kids[1..] {
                    let x = self.term(k)?.e;
                    e = if kind == DeclKind::Badd {
                        e.plus(&x)?
                    } else {
                        e.minus(&x)?
                    };
                }
                val(e)
            }
            DeclKind::Bneg => val(self.term(&kids[0])?.e.scale(-1)?),
            DeclKind::Bnot => val(self.term(&kids[0])?.e.scale(-1)?.offset(-1)?),
            DeclKind::Bmul => {
                let mut e = Lin::constant(1);
                for k in &kids {
                    let x = self.term(k)?.e;
                    e = match (e.as_const(), x.as_const()) {
                        (Some(c), _) => x.scale(c)?,
                        (_, Some(c)) => e.scale(c)?,
                        _ if kids.len() == 2 => return val(self.product(&kids[0], &kids[1], w)?),
                        _ => return Err(NotAffine("product of two variables")),
                    };
                }
                val(e)
            }
            DeclKind::Bshl | DeclKind::Blshr | DeclKind::Bashr => {
                val(self.shift(ast, kind, &kids[0], &kids[1], w)?)
            }
            DeclKind::Budiv | DeclKind::Burem | DeclKind::Bsdiv | DeclKind::Bsrem => {
                let cases = match self.constant(&kids[1])? {
                    Some(d) => Rc::new(vec![(Lit::Const(true), d)]),
                    None => self
                        .cases(&kids[1])?
                        .ok_or(NotAffine("division by a variable"))?,
                };
                let x = &kids[0];
                val(self.by_cases(&cases, w, |t, d| t.divide(kind, x, d, w))?)
            }
            DeclKind::Band | DeclKind::Bor | DeclKind::Bxor if kids.len() == 2 => {
                let masked = match (self.constant(&kids[0])?, self.constant(&kids[1])?) {
                    (Some(c), _) => self.masked(kind, c, &kids[1], w)?,
                    (_, Some(c)) => self.masked(kind, c, &kids[0], w)?,
                    _ => None,
                };
                match masked {
                    Some(e) => val(e),
                    None => val(self.bitwise(kind, &kids[0], &kids[1])?),
                }
            }
            DeclKind::Extract => {
                let x = &kids[0];
                let lo = self.low_bit(ast)?;
                if lo == 0 {
                    return val(self.term(x)?.e);
                }
                let u = self.unsigned(x)?;
                val(self.divmod(&u, pow2(lo))?.0)
            }
            DeclKind::ZeroExt => val(self.unsigned(&kids[0])?),
            DeclKind::SignExt => val(self.signed(&kids[0])?),
            DeclKind::Concat => {
                let mut e = Lin::default();
                for k in &kids {
                    let kw = width(k)?;
                    let low = self.unsigned(k)?;
                    e = e.scale(pow2(kw))?.plus(&low)?;
                }
                val(e)
            }
            DeclKind::Ite => {
                let c = self.lit(&kids[0])?;
                match c {
                    Lit::Const(true) => self.term(&kids[1]),
                    Lit::Const(false) => self.term(&kids[2]),
                    Lit::Var(..) => {
                        let t = self.term(&kids[1])?.e;
                        let f = self.term(&kids[2])?.e;
                        val(self.select(c, &t, &f, w)?)
                    }
                }
            }
            _ => Err(NotAffine("bit-vector operator")),
        }
    }

    /// `x << s`, `x >> s`: a constant amount is a multiplication or division; a variable one
    /// with few possible values is a choice among the shifts by each value.
    fn shift(&mut self, ast: &Dynamic, kind: DeclKind, x: &Dynamic, s: &Dynamic, w: u32) -> R<Lin> {
        if let Some(s) = self.constant(s)? {
            return self.shift_by(kind, x, s.min(w as i128) as u32, w);
        }
        let amount = self.unsigned(s)?;
        let (lo, hi) = self.interval(&amount)?;
        // Every amount from `w` on shifts everything out: one case.
        let (lo, hi) = (lo.min(w as i128), hi.min(w as i128));
        if hi - lo > 64 {
            return Err(NotAffine("shift by a variable of wide range"));
        }
        let mut cases = Vec::new();
        for i in lo..hi {
            let d = amount.offset(-i)?;
            let le = self.reify_le(&d)?;
            let ge = self.reify_le(&d.scale(-1)?)?;
            cases.push((self.and(&[le, ge])?, i));
        }
        let lits: Vec<Lit> = cases.iter().map(|c| c.0).collect();
        cases.push((self.or(&lits)?.not(), hi));
        let v = self.by_cases(&cases, w, |t, i| t.shift_by(kind, x, i as u32, w))?;
        if self.constant(x)?.is_some() {
            // A constant shifted by a variable: a few constants, for products and divisions.
            let mut values = Vec::new();
            for (l, i) in &cases {
                let c = self.shift_by(kind, x, *i as u32, w)?.as_const();
                values.push((*l, c.ok_or(NotAffine("shift"))?.rem_euclid(pow2(w))));
            }
            self.case_lists.insert(ast.clone(), Rc::new(values));
        }
        Ok(v)
    }

    /// `x` shifted by the constant `s <= w`.
    fn shift_by(&mut self, kind: DeclKind, x: &Dynamic, s: u32, w: u32) -> R<Lin> {
        match kind {
            DeclKind::Bshl if s >= w => Ok(Lin::constant(0)),
            DeclKind::Bshl => self.term(x)?.e.scale(pow2(s)),
            DeclKind::Blshr if s >= w => Ok(Lin::constant(0)),
            DeclKind::Blshr => {
                let u = self.unsigned(x)?;
                Ok(self.divmod(&u, pow2(s))?.0)
            }
            _ => {
                let v = self.signed(x)?;
                self.divmod_signed_floor(&v, pow2(s.min(w - 1)))
            }
        }
    }

    /// The lowest bit an `extract` keeps (0 for any other term): a parameter of the declaration,
    /// found by rebuilding the term.
    fn low_bit(&self, ast: &Dynamic) -> R<u32> {
        if ast.decl().kind() != DeclKind::Extract {
            return Ok(0);
        }
        let x = &ast.children()[0];
        let (w, xw) = (width(ast)?, width(x)?);
        let xbv = x.as_bv().ok_or(NotAffine("extract"))?;
        (0..=xw - w)
            .find(|l| Dynamic::from_ast(&xbv.extract(l + w - 1, *l)) == *ast)
            .ok_or(NotAffine("extract"))
    }

    /// `floor(x / d)` of a signed `x` (an arithmetic shift right).
    fn divmod_signed_floor(&mut self, x: &Lin, d: i128) -> R<Lin> {
        // Shift into the non-negative range, divide, shift back: floor((x + d*c) / d) - c.
        let (lo, _) = self.interval(x)?;
        let c = if lo < 0 { floor_div(-lo, d) + 1 } else { 0 };
        let (q, _) = self.divmod(&x.offset(checked(c.checked_mul(d))?)?, d)?;
        q.offset(-c)
    }

    /// The bitwise operators with a constant whose result is affine without bits.
    fn masked(&mut self, kind: DeclKind, c: i128, x: &Dynamic, w: u32) -> R<Option<Lin>> {
        let ones = pow2(w) - 1;
        let low_mask = |c: i128| (c + 1).count_ones() == 1;
        Ok(Some(match kind {
            DeclKind::Band if c == 0 => Lin::constant(0),
            DeclKind::Band if c == ones => self.term(x)?.e,
            // x & (2^n - 1) = x mod 2^n
            DeclKind::Band if low_mask(c) => {
                let u = self.unsigned(x)?;
                self.divmod(&u, c + 1)?.1
            }
            // x & ~(2^n - 1) = x - x mod 2^n
            DeclKind::Band if low_mask(ones - c) => {
                let u = self.unsigned(x)?;
                let r = self.divmod(&u, ones - c + 1)?.1;
                u.minus(&r)?
            }
            DeclKind::Bor | DeclKind::Bxor if c == 0 => self.term(x)?.e,
            DeclKind::Bxor if c == ones => self.term(x)?.e.scale(-1)?.offset(-1)?,
            _ => return Ok(None),
        }))
    }

    /// `x & y`, `x | y`, `x ^ y` bit by bit.
    fn bitwise(&mut self, kind: DeclKind, x: &Dynamic, y: &Dynamic) -> R<Lin> {
        let (bx, by) = (self.bits(x)?, self.bits(y)?);
        let mut e = Lin::default();
        for i in 0..bx.len().max(by.len()) {
            let a = bx.get(i).copied().unwrap_or(Lit::Const(false));
            let b = by.get(i).copied().unwrap_or(Lit::Const(false));
            let bit = match kind {
                DeclKind::Band => self.and(&[a, b])?,
                DeclKind::Bor => self.or(&[a, b])?,
                _ => self.ite(a, b.not(), b)?,
            };
            e = e.add_scaled(pow2(i as u32), &bit.lin())?;
        }
        Ok(e)
    }

    /// The bits of the unsigned value of `x`, least significant first, up to its highest
    /// possible one.
    fn bits(&mut self, x: &Dynamic) -> R<Vec<Lit>> {
        if let Some(bits) = self.bit_cache.get(x) {
            return Ok(bits.clone());
        }
        let u = self.unsigned(x)?;
        let (_, hi) = self.interval(&u)?;
        let n = 128 - hi.leading_zeros();
        if n > MAX_BITS {
            return Err(NotAffine("bitwise operator on values of more than 32 bits"));
        }
        let bits: Vec<Lit> = match u.as_const() {
            Some(c) => (0..n).map(|i| Lit::Const(c >> i & 1 == 1)).collect(),
            None => {
                let bits: Vec<Lit> = (0..n).map(|_| Lit::Var(self.binary(), true)).collect();
                // u = Σ 2^i b_i
                let mut e = u.clone();
                for (i, b) in bits.iter().enumerate() {
                    e = e.add_scaled(-pow2(i as u32), &b.lin())?;
                }
                self.row(e, true);
                bits
            }
        };
        self.bit_cache.insert(x.clone(), bits.clone());
        Ok(bits)
    }

    /// A `w`-bit value equal to `t` when `c` holds and to `f` otherwise.
    fn select(&mut self, c: Lit, t: &Lin, f: &Lin, w: u32) -> R<Lin> {
        let (tl, th) = self.interval(t)?;
        let (fl, fh) = self.interval(f)?;
        let (lo, hi) = (tl.min(fl), th.max(fh));
        if hi - lo >= pow2(w) {
            // Together the two range over more than the values of the width: take the values.
            let t = self.normalize(&Val { e: t.clone(), w }, false)?;
            let f = self.normalize(&Val { e: f.clone(), w }, false)?;
            return self.select(c, &t, &f, w);
        }
        let v = Lin::var(self.new_var(lo, hi));
        for (e, when) in [(t, c), (f, c.not())] {
            // when → v = e, as v - e <= M (1 - when) and e - v <= M (1 - when)
            for d in [v.minus(e)?, e.minus(&v)?] {
                let (_, hi) = self.interval(&d)?;
                let row = d.add_scaled(hi.max(0), &when.lin())?.offset(-hi.max(0))?;
                self.row(row, false);
            }
        }
        Ok(v)
    }

    /// Asserts `b` (or its negation): conjunctions and atoms become rows directly.
    fn assert(&mut self, b: &Dynamic, positive: bool) -> R<()> {
        if b.kind() == AstKind::App {
            let kind = b.decl().kind();
            match (kind, positive) {
                (DeclKind::And, true) | (DeclKind::Or, false) => {
                    for k in b.children() {
                        self.assert(&k, positive)?;
                    }
                    return Ok(());
                }
                (DeclKind::Not, _) => return self.assert(&b.children()[0], !positive),
                _ => {}
            }
            if let Some(e) = self.comparison(b)? {
                let e = if positive { e } else { negate(&e)? };
                self.row(e, false);
                return Ok(());
            }
            if kind == DeclKind::Eq && positive && b.children()[0].sort_kind() == SortKind::Bv {
                return self.assert_equal(&b.children()[0], &b.children()[1]);
            }
        }
        let l = self.lit(b)?;
        let l = if positive { l } else { l.not() };
        self.row(l.lin().offset(-1)?, true);
        Ok(())
    }

    fn assert_equal(&mut self, x: &Dynamic, y: &Dynamic) -> R<()> {
        let w = width(x)?;
        let m = pow2(w);
        let d = self.term(x)?.e.minus(&self.term(y)?.e)?;
        let (lo, hi) = self.interval(&d)?;
        if lo > -m && hi < m {
            self.row(d, true);
        } else {
            // d = m k
            let k = self.new_var(-floor_div(-lo, m), floor_div(hi, m));
            self.row(d.add_scaled(-m, &Lin::var(k))?, true);
        }
        Ok(())
    }

    /// An ordering atom as `e <= 0`; `None` if `b` is not one.
    fn comparison(&mut self, b: &Dynamic) -> R<Option<Lin>> {
        let kind = b.decl().kind();
        if let Some(e) = self.no_overflow(b, kind)? {
            return Ok(Some(e));
        }
        let signed = matches!(
            kind,
            DeclKind::Sleq | DeclKind::Slt | DeclKind::Sgeq | DeclKind::Sgt
        );
        let (lt, swap) = match kind {
            DeclKind::Uleq | DeclKind::Sleq => (false, false),
            DeclKind::Ult | DeclKind::Slt => (true, false),
            DeclKind::Ugeq | DeclKind::Sgeq => (false, true),
            DeclKind::Ugt | DeclKind::Sgt => (true, true),
            _ => return Ok(None),
        };
        let kids = b.children();
        let (x, y) = if swap {
            (&kids[1], &kids[0])
        } else {
            (&kids[0], &kids[1])
        };
        let (x, y) = if signed {
            (self.signed(x)?, self.signed(y)?)
        } else {
            (self.unsigned(x)?, self.unsigned(y)?)
        };
        Ok(Some(x.minus(&y)?.offset(lt as i128)?))
    }

    /// z3's "this product does not overflow" predicates as `e <= 0`, over the exact product.
    fn no_overflow(&mut self, b: &Dynamic, kind: DeclKind) -> R<Option<Lin>> {
        let k = &self.kinds;
        let (signed, upper) = match kind {
            _ if kind == k.smul_no_overflow => (true, true),
            _ if kind == k.smul_no_underflow => (true, false),
            _ if kind == k.umul_no_overflow => (false, true),
            _ => return Ok(None),
        };
        let kids = b.children();
        let w = width(&kids[0])?;
        let (x, y) = if signed {
            (self.signed(&kids[0])?, self.signed(&kids[1])?)
        } else {
            (self.unsigned(&kids[0])?, self.unsigned(&kids[1])?)
        };
        let p = match (x.as_const(), y.as_const()) {
            (Some(c), _) => y.scale(c)?,
            (_, Some(c)) => x.scale(c)?,
            _ => return Err(NotAffine("product of two variables")),
        };
        let max = if signed { pow2(w - 1) - 1 } else { pow2(w) - 1 };
        Ok(Some(if upper {
            // p <= max
            p.offset(-max)?
        } else {
            // p >= -2^(w-1)
            p.scale(-1)?.offset(-pow2(w - 1))?
        }))
    }

    fn lit(&mut self, b: &Dynamic) -> R<Lit> {
        if let Some(l) = self.lits.get(b) {
            return Ok(*l);
        }
        let l = self.lit_uncached(b)?;
        self.lits.insert(b.clone(), l);
        Ok(l)
    }

    fn lit_uncached(&mut self, b: &Dynamic) -> R<Lit> {
        if b.kind() != AstKind::App {
            return Err(NotAffine("bound variable or quantifier"));
        }
        if let Some(e) = self.comparison(b)? {
            return self.reify_le(&e);
        }
        let kids = b.children();
        let lits = |t: &mut Self| kids.iter().map(|k| t.lit(k)).collect::<R<Vec<_>>>();
        match b.decl().kind() {
            DeclKind::True => Ok(Lit::Const(true)),
            DeclKind::False => Ok(Lit::Const(false)),
            k if k == self.kinds.uninterpreted => Ok(Lit::Var(self.leaf(b, 0, 1), true)),
            DeclKind::Not => Ok(self.lit(&kids[0])?.not()),
            DeclKind::And => {
                let ls = lits(self)?;
                self.and(&ls)
            }
            DeclKind::Or => {
                let ls = lits(self)?;
                self.or(&ls)
            }
            DeclKind::Implies => {
                let ls = lits(self)?;
                self.or(&[ls[0].not(), ls[1]])
            }
            DeclKind::Ite => {
                let ls = lits(self)?;
                self.ite(ls[0], ls[1], ls[2])
            }
            DeclKind::Iff | DeclKind::Eq if kids[0].sort_kind() == SortKind::Bool => {
                let ls = lits(self)?;
                self.ite(ls[0], ls[1], ls[1].not())
            }
            DeclKind::Xor if kids.len() == 2 => {
                let ls = lits(self)?;
                self.ite(ls[0], ls[1].not(), ls[1])
            }
            DeclKind::Eq | DeclKind::Distinct if kids.len() == 2 => {
                let w = width(&kids[0])?;
                let d = self.term(&kids[0])?.e.minus(&self.term(&kids[1])?.e)?;
                let (lo, hi) = self.interval(&d)?;
                let m = pow2(w);
                let eq = if lo > -m && hi < m {
                    let le = self.reify_le(&d)?;
                    let ge = self.reify_le(&d.scale(-1)?)?;
                    self.and(&[le, ge])?
                } else {
                    let r = self.normalize(&Val { e: d, w }, false)?;
                    self.reify_le(&r)?
                };
                Ok(if b.decl().kind() == DeclKind::Eq {
                    eq
                } else {
                    eq.not()
                })
            }
            _ => Err(NotAffine("Boolean operator")),
        }
    }

    /// A literal equivalent to `e <= 0`.
    fn reify_le(&mut self, e: &Lin) -> R<Lit> {
        let (lo, hi) = self.interval(e)?;
        if hi <= 0 {
            return Ok(Lit::Const(true));
        }
        if lo > 0 {
            return Ok(Lit::Const(false));
        }
        let d = self.binary();
        // d → e <= 0:  e + hi d - hi <= 0
        self.row(e.add_scaled(hi, &Lin::var(d))?.offset(-hi)?, false);
        // ¬d → e >= 1:  1 - (1 - lo) d - e <= 0
        let row = Lin::constant(1)
            .add_scaled(lo - 1, &Lin::var(d))?
            .minus(e)?;
        self.row(row, false);
        Ok(Lit::Var(d, true))
    }

    fn and(&mut self, ls: &[Lit]) -> R<Lit> {
        if ls.iter().any(|l| matches!(l, Lit::Const(false))) {
            return Ok(Lit::Const(false));
        }
        let vars: Vec<Lit> = ls
            .iter()
            .copied()
            .filter(|l| !matches!(l, Lit::Const(true)))
            .collect();
        match vars.as_slice() {
            [] => Ok(Lit::Const(true)),
            [l] => Ok(*l),
            _ => {
                let id = self.binary();
                let d = Lin::var(id);
                let mut sum = Lin::constant(-(vars.len() as i128 - 1));
                for l in &vars {
                    self.row(d.minus(&l.lin())?, false);
                    sum = sum.plus(&l.lin())?;
                }
                // d >= Σ l - (n - 1)
                self.row(sum.minus(&d)?, false);
                Ok(Lit::Var(id, true))
            }
        }
    }

    fn or(&mut self, ls: &[Lit]) -> R<Lit> {
        let negated: Vec<Lit> = ls.iter().map(|l| l.not()).collect();
        Ok(self.and(&negated)?.not())
    }

    fn ite(&mut self, c: Lit, t: Lit, f: Lit) -> R<Lit> {
        let a = self.and(&[c, t])?;
        let b = self.and(&[c.not(), f])?;
        self.or(&[a, b])
    }

    /// Functional consistency of the applications of each uninterpreted function.
    fn ackermann(&mut self) -> R<()> {
        let groups: Vec<Vec<Dynamic>> = self.apps.values().cloned().collect();
        let pairs: usize = groups.iter().map(|g| g.len() * g.len() / 2).sum();
        if pairs > MAX_ACKERMANN {
            return Err(NotAffine("too many function applications"));
        }
        for g in groups {
            for (i, x) in g.iter().enumerate() {
                for y in &g[i + 1..] {
                    let args: Vec<Bool> = x
                        .children()
                        .iter()
                        .zip(y.children())
                        .map(|(a, b)| a.eq(&b))
                        .collect();
                    let f = Bool::and(&args).implies(x.eq(y));
                    self.assert(&Dynamic::from_ast(&f), true)?;
                }
            }
        }
        Ok(())
    }
}

/// `¬(e <= 0)` as `1 - e <= 0` (integers).
fn negate(e: &Lin) -> R<Lin> {
    e.scale(-1)?.offset(1)
}

impl System {
    /// Tightens the bounds by the rows until nothing changes (or a round limit); false if some
    /// variable has no value left.
    fn propagate(&mut self) -> bool {
        for _ in 0..20 {
            let mut changed = false;
            for row in &self.rows {
                let dirs: &[i128] = if row.eq { &[1, -1] } else { &[1] };
                for &s in dirs {
                    match tighten(&mut self.bounds, &row.e, s) {
                        None => return false,
                        Some(c) => changed |= c,
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.rows
            .iter()
            .filter(|r| r.eq)
            .all(|r| divisible(&self.bounds, &r.e))
    }

    /// Solves with microlp; the value of every variable, `None` if infeasible.
    fn solve(&self) -> Result<Option<Vec<i128>>, Failure> {
        const I32: i128 = 1 << 31;
        const EXACT: i128 = 1 << 53;
        if self.bounds.len() > MAX_VARS {
            return Err(Failure::Declined("more than 200 variables"));
        }
        let mut vars = ProblemVariables::new();
        // microlp's integers are i32: a variable is `offset + v` with `v` in i32's range.
        let mut lp = Vec::with_capacity(self.bounds.len());
        for &(lo, hi) in &self.bounds {
            if hi - lo >= 2 * I32 {
                return Err(Failure::Declined("a range wider than 2^32"));
            }
            let off = if lo >= -I32 && hi < I32 { 0 } else { lo + I32 };
            let v = vars.add(
                variable()
                    .integer()
                    .min((lo - off) as f64)
                    .max((hi - off) as f64),
            );
            lp.push((v, off));
        }
        let mut model = vars.minimise(Expression::from(0.0)).using(microlp);
        for row in &self.rows {
            let mut e = Expression::from(0.0);
            let mut c = row.e.c;
            for (v, a) in &row.e.coef {
                let (var, off) = lp[*v];
                if a.abs() >= EXACT {
                    return Err(Failure::Declined("a coefficient beyond f64's precision"));
                }
                e.add_mul(*a as f64, var);
                c += a * off;
            }
            if c.abs() >= EXACT {
                return Err(Failure::Declined("a constant beyond f64's precision"));
            }
            let e = e + c as f64;
            model = model.with(if row.eq { e.eq(0.0) } else { e.leq(0.0) });
        }
        // good_lp offers only a wall-clock limit; microlp's own node limit counts work, so
        // that what it answers does not depend on the machine's load.
        let mut options = SolveOptions::default();
        options.node_limit = Some(MAX_NODES);
        let solution = match model.as_inner().solve_with(options) {
            Ok(outcome) => outcome.into_solution().map_err(|_| Failure::GaveUp)?,
            Err(microlp::Error::Infeasible) => return Ok(None),
            Err(_) => return Err(Failure::GaveUp),
        };
        // microlp numbers the variables in the order good_lp created them, which is `lp`'s.
        Ok(Some(
            solution
                .iter()
                .zip(&lp)
                .map(|((_, x), (_, off))| x.round() as i128 + off)
                .collect(),
        ))
    }
}

/// Whether the integer equation `e = 0` can hold as far as divisibility tells: the gcd of the
/// coefficients of its unfixed variables divides the rest (LP branching cannot see parity).
fn divisible(bounds: &[(i128, i128)], e: &Lin) -> bool {
    let (mut rest, mut g) = (Some(e.c), 0i128);
    for (v, a) in &e.coef {
        let (l, h) = bounds[*v];
        if l == h {
            rest = rest.and_then(|r| r.checked_add(a.checked_mul(l)?));
        } else {
            g = gcd(g, a.abs());
        }
    }
    match rest {
        Some(r) if g == 0 => r == 0,
        Some(r) => r % g == 0,
        None => true,
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One propagation step of `s·e <= 0` over every variable of `e`: whether a bound moved, `None`
/// if a variable's range became empty. Arithmetic that would overflow tightens nothing.
fn tighten(bounds: &mut [(i128, i128)], e: &Lin, s: i128) -> Option<bool> {
    let min_of = |a: i128, (l, h): (i128, i128)| Some(a.checked_mul(l)?.min(a.checked_mul(h)?));
    let coef: Vec<(usize, i128)> = e.coef.iter().map(|(v, a)| (*v, a * s)).collect();
    let mut total = Some(s * e.c);
    for (v, a) in &coef {
        total = total.and_then(|t| t.checked_add(min_of(*a, bounds[*v])?));
    }
    let Some(total) = total else {
        return Some(false);
    };
    let mut changed = false;
    for (v, a) in coef {
        // a x <= min(a x) - total
        let Some(rest) = min_of(a, bounds[v]).and_then(|m| m.checked_sub(total)) else {
            continue;
        };
        let (l, h) = bounds[v];
        let (nl, nh) = if a > 0 {
            (l, h.min(floor_div(rest, a)))
        } else {
            (l.max(-floor_div(rest, -a)), h)
        };
        if nl > nh {
            return None;
        }
        if (nl, nh) != (l, h) {
            bounds[v] = (nl, nh);
            changed = true;
        }
    }
    Some(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: i64, w: u32) -> BV {
        BV::from_i64(v, w)
    }

    /// z3's answer (true: SAT), which good_lp's must be when it gives one; microlp may run out
    /// of time (parity arguments are hard for branching), never answer wrongly.
    fn agree(formula: &[Bool]) -> bool {
        let refs: Vec<&Bool> = formula.iter().collect();
        let s = z3::Solver::new();
        for f in formula {
            s.assert(f);
        }
        let by_z3 = s.check();
        match solve(&refs, 2000) {
            Answer::Unsat => assert_eq!(by_z3, SatResult::Unsat, "{formula:?}"),
            Answer::Sat(_) => assert_eq!(by_z3, SatResult::Sat, "{formula:?}"),
            Answer::Declined(why) => panic!("declined ({why}): {formula:?}"),
            Answer::GaveUp => {}
            Answer::BadModel => panic!("not a model: {formula:?}"),
        }
        by_z3 == SatResult::Sat
    }

    #[test]
    fn wraparound_signedness_and_extensions_are_exact() {
        z3::with_z3_config(&z3::Config::new(), || {
            let x = BV::new_const("x", 32);
            let y = BV::new_const("y", 32);
            // x + 1 wraps to 0 only at 0xffffffff.
            assert!(agree(&[x.bvadd(c(1, 32)).eq(c(0, 32))]));
            assert!(!agree(&[
                x.bvadd(c(1, 32)).eq(c(0, 32)),
                x.bvult(c(0xffff_ffff, 32))
            ]));
            // Unsigned and signed orders differ on negative values.
            assert!(agree(&[x.bvslt(c(0, 32)), x.bvugt(c(5, 32))]));
            assert!(!agree(&[x.bvslt(c(0, 32)), x.bvult(c(5, 32))]));
            // Sign extension keeps the signed value, zero extension the unsigned one.
            let sx = x.sign_ext(32);
            let zx = x.zero_ext(32);
            assert!(!agree(&[x.bvslt(c(0, 32)), sx.bvsge(c(0, 64))]));
            assert!(!agree(&[x.bvslt(c(0, 32)), zx.bvslt(c(0, 64))]));
            // Truncation keeps the low bits: (x * 2^16) truncated to 16 bits is 0.
            let low = x.bvmul(c(1 << 16, 32)).extract(15, 0);
            assert!(!agree(&[low.eq(c(1, 16)).not().not()]));
            // Two bounded thread ids: a disequality needs a disjunction.
            assert!(agree(&[
                x.bvult(c(32, 32)),
                y.bvult(c(32, 32)),
                x.eq(&y).not(),
                x.bvudiv(c(8, 32)).eq(y.bvudiv(c(8, 32)))
            ]));
            assert!(!agree(&[
                x.bvult(c(32, 32)),
                y.bvult(c(32, 32)),
                x.bvurem(c(8, 32)).eq(y.bvurem(c(8, 32))),
                x.bvudiv(c(8, 32)).eq(y.bvudiv(c(8, 32))),
                x.eq(&y).not()
            ]));
        });
    }

    #[test]
    fn signed_division_shifts_and_geometric_products_are_exact() {
        z3::with_z3_config(&z3::Config::new(), || {
            let x = BV::new_const("x", 32);
            let j = BV::new_const("j", 32);
            let t = BV::new_const("t", 32);
            let small = |v: &BV| Bool::and(&[v.bvsge(c(-100, 32)), v.bvsle(c(100, 32))]);
            // C division truncates toward zero: -7 / 2 = -3, -7 % 2 = -1.
            assert!(agree(&[x.eq(c(-7, 32)), x.bvsdiv(c(2, 32)).eq(c(-3, 32))]));
            assert!(!agree(&[x.eq(c(-7, 32)), x.bvsdiv(c(2, 32)).eq(c(-4, 32))]));
            assert!(!agree(&[
                small(&x),
                x.bvsrem(c(4, 32)).bvsgt(c(0, 32)),
                x.bvslt(c(0, 32))
            ]));
            // An arithmetic shift right floors.
            assert!(agree(&[x.eq(c(-7, 32)), x.bvashr(c(1, 32)).eq(c(-4, 32))]));
            // A geometric value 1 << j times a thread id: (1 << j) * (2t + 1) is odd only at j = 0.
            let offset = c(1, 32).bvshl(&j);
            let index = offset.bvmul(t.bvmul(c(2, 32)).bvadd(c(1, 32)));
            let bounded = [j.bvult(c(8, 32)), t.bvult(c(128, 32))];
            let odd = index.bvurem(c(2, 32)).eq(c(1, 32));
            assert!(agree(
                &[&bounded[..], &[odd.clone(), j.eq(c(0, 32))]].concat()
            ));
            assert!(!agree(&[&bounded[..], &[odd, j.bvugt(c(0, 32))]].concat()));
            // t % (2 << j) with a geometric divisor.
            let m = t.bvurem(c(2, 32).bvshl(&j));
            assert!(!agree(&[&bounded[..], &[m.bvuge(c(256, 32))]].concat()));
            // Bits: t ^ 1 differs from t.
            assert!(!agree(&[bounded[1].clone(), t.bvxor(c(1, 32)).eq(&t)]));
            assert!(!agree(&[
                bounded[1].clone(),
                t.bvxor(&j).eq(&t),
                j.eq(c(4, 32))
            ]));
        });
    }

    #[test]
    fn products_of_two_variables_are_declined() {
        z3::with_z3_config(&z3::Config::new(), || {
            let x = BV::new_const("x", 32);
            let y = BV::new_const("y", 32);
            let q = x.bvmul(&y).eq(c(6, 32));
            assert!(matches!(solve(&[&q], 2000), Answer::Declined(_)));
        });
    }
}
