//! Host-code values at a launch site that are constants in all but name: what clang evaluates
//! (literals, macros, `constexpr`, `const` globals), plus the locals of the launching function
//! that are initialised once and never changed (`int threads = 256;`,
//! `dim3 grid(W / threads.x, H / BLOCK);`), folded through integer arithmetic. A local assigned
//! again folds to the assignment (or declaration) that reaches the read, where one does
//! (`reaching`); one incremented, or whose address escapes or that a non-const reference is
//! bound to before the read, does not. `dim3` locals and their `.x/.y/.z` fold too, each member
//! from what last set it, and the elements of a local array assigned once (`elements`).
//!
//! Invariant: nothing whose value at the launch may differ from what is folded is folded.

use super::cursor::{contains, has_attr, skip_transparent, unary_op_text, visit};
use super::elements;
use super::lower::{arith_op, convert};
use super::objects;
use super::reaching::{
    declares, initializer as declared_initializer, last_assignment, reaching_definition,
    reaching_value, settled_after, whole_assignment, Reaching,
};
use super::returns;
use super::types::{classify, CType};
use super::{CallerValues, Callers};
use crate::collections::{HashMap, HashSet};
use crate::ir::{ArgValue, BinOp, Expr, ExprKind, HostFunction, ParamId, Scalar, Ty};
use clang::{Entity, EntityKind, EvaluationResult, TypeKind};
use std::cell::RefCell;
use std::rc::Rc;

/// Where a launch is: the function that contains it, and the variables whose value is known
/// there though they do not fold (`block_size` inside `if (block_size == 16) { ... }`). Every
/// variable in `known` is one `func` never changes, so it holds that value wherever `func`
/// reads it on a path to the launch.
#[derive(Clone)]
pub(crate) struct Scope<'tu> {
    pub func: Entity<'tu>,
    pub known: Vec<(Entity<'tu>, i64)>,
    /// The same for `dim3` parameters: a launch helper's `grid` under one call of it.
    dims: Vec<(Entity<'tu>, Dims)>,
    memo: Changes<'tu>,
}

/// What `Scope::calls_elsewhere` knows of a function's calls in the program's other files.
enum Elsewhere {
    Nothing,
    Calls(CallerValues),
    Unknown,
}

/// A `dim3`'s members, each that folds.
pub(crate) type Dims = [Option<u32>; 3];

/// A function's calls in the file, each with the function it is in.
type Calls<'tu> = Rc<[(Entity<'tu>, Entity<'tu>)]>;

/// What each function may change of each variable (`find_changes`) and where each function is
/// called (`calls_of`), found once for the whole file: a host function with a hundred launches
/// (a library choosing a template instantiation per case) asks about the same locals and
/// parameters for each launch and for each condition on the way to it, and every answer is a
/// walk of the whole function, or of every function.
pub(crate) type Changes<'tu> = Rc<RefCell<Memo<'tu>>>;

#[derive(Default)]
pub(crate) struct Memo<'tu> {
    changes: HashMap<(Entity<'tu>, Entity<'tu>), Rc<[Entity<'tu>]>>,
    calls: HashMap<Entity<'tu>, Option<Calls<'tu>>>,
    /// The name each unresolved reference spells (`unresolved_name`), read once per file:
    /// every function whose calls are asked for walks the same references.
    spelled: HashMap<Entity<'tu>, Option<String>>,
    defines_main: Option<bool>,
    /// What the calls in the program's other files pass (`FrontendOptions::callers`).
    outside: Rc<Callers>,
    /// The external functions whose callers elsewhere a fold asked for and did not have.
    pub wanted: Vec<HostFunction>,
    /// The places of the calls elsewhere whose values a fold used, since `take_used`.
    used: Vec<String>,
}

impl<'tu> Memo<'tu> {
    pub fn new(outside: &Callers) -> Changes<'tu> {
        Rc::new(RefCell::new(Memo {
            outside: Rc::new(outside.clone()),
            ..Memo::default()
        }))
    }

    /// The places of the calls in other files whose values were folded since the last time.
    pub fn take_used(&mut self) -> Vec<String> {
        let mut used = std::mem::take(&mut self.used);
        used.sort();
        used.dedup();
        used
    }
}

impl<'tu> Scope<'tu> {
    pub fn of(func: Entity<'tu>, memo: &Changes<'tu>) -> Scope<'tu> {
        Scope {
            func,
            known: Vec::new(),
            dims: Vec::new(),
            memo: memo.clone(),
        }
    }

    /// Another function, with what is known of this one's changes.
    pub fn at(&self, func: Entity<'tu>) -> Scope<'tu> {
        Scope::of(func, &self.memo)
    }

    /// The expressions of the function that may change `var` (see `changed_in`).
    pub(super) fn changes(&self, var: Entity<'tu>) -> Rc<[Entity<'tu>]> {
        let key = (self.func, var);
        if let Some(c) = self.memo.borrow().changes.get(&key) {
            return c.clone();
        }
        let found: Rc<[Entity<'tu>]> = find_changes(self.func, var).into();
        self.memo.borrow_mut().changes.insert(key, found.clone());
        found
    }

    /// Whether the file defines `main`.
    fn defines_main(&self, root: Entity<'tu>) -> bool {
        if let Some(d) = self.memo.borrow().defines_main {
            return d;
        }
        let d = defines_main(root);
        self.memo.borrow_mut().defines_main = Some(d);
        d
    }

    /// The calls of `target` (a canonical function) in the file's functions, each with the
    /// function it is in; none when the file names `target` other than as the function a call
    /// calls (`auto f = run; f(d, 64);`), or `target` is a virtual method (a call of the
    /// method it overrides calls it too): it may be called where no call names it.
    fn calls_of(&self, target: Entity<'tu>) -> Option<Calls<'tu>> {
        if let Some(c) = self.memo.borrow().calls.get(&target) {
            return c.clone();
        }
        if target.is_virtual_method() {
            self.memo.borrow_mut().calls.insert(target, None);
            return None;
        }
        let root = target.get_translation_unit().get_entity();
        let names =
            |x: Entity<'tu>| x.get_reference().map(|r| r.get_canonical_entity()) == Some(target);
        let mut calls = Vec::new();
        let mut callees = HashSet::default();
        let mut references = Vec::new();
        let functions = user_functions(root);
        for caller in &functions {
            visit(*caller, &mut |x| {
                if x.get_kind() == EntityKind::CallExpr && names(x) {
                    calls.push((*caller, x));
                    callees.extend(callee_reference(x));
                } else if self.may_name(x, target) {
                    references.push(x);
                }
            });
        }
        for decl in declarations_outside(root, &functions) {
            visit(decl, &mut |x| {
                if self.may_name(x, target) {
                    references.push(x);
                }
            });
        }
        let escapes = references.iter().any(|r| !callees.contains(r));
        let calls: Option<Calls> = (!escapes).then(|| calls.into());
        self.memo.borrow_mut().calls.insert(target, calls.clone());
        calls
    }

    /// What the calls in the other files of the program pass to `func`, an external function;
    /// asked for (`Memo::wanted`) when not given. Only for plain functions: a method's calls
    /// may go through a base class, and a template's specializations are each file's own.
    fn outside_calls(&self, func: Entity<'tu>) -> Option<CallerValues> {
        if func.get_kind() != EntityKind::FunctionDecl || func.get_template_arguments().is_some() {
            return None;
        }
        let usr = func.get_usr()?.0;
        let mut memo = self.memo.borrow_mut();
        if let Some(v) = memo.outside.get(&usr) {
            return Some(v.clone());
        }
        let name = func.get_name()?;
        let wanted = HostFunction { usr, name };
        if !memo.wanted.contains(&wanted) {
            memo.wanted.push(wanted);
        }
        None
    }

    /// The calls of `func` outside the file's: none where it has internal linkage; the other
    /// files' where the command line gathered them (`outside_calls`); else none only where the
    /// file defines `main` (a program's own file; a library's functions are called from
    /// elsewhere too).
    fn calls_elsewhere(&self, func: Entity<'tu>) -> Elsewhere {
        if func.get_linkage() == Some(clang::Linkage::Internal) {
            return Elsewhere::Nothing;
        }
        match self.outside_calls(func) {
            Some(elsewhere) if elsewhere.calls > 0 => Elsewhere::Calls(elsewhere),
            Some(_) => Elsewhere::Nothing,
            None if self.defines_main(func.get_translation_unit().get_entity()) => {
                Elsewhere::Nothing
            }
            None => Elsewhere::Unknown,
        }
    }

    /// Whether `x` is a reference that may name `target`: one to it, or one a template leaves
    /// unresolved with its name (`run(d, 64)` where `d` has a dependent type, `l.run(d, 64)`
    /// where `l` has): the template's instantiations call what it resolves to, with their values.
    fn may_name(&self, x: Entity<'tu>, target: Entity<'tu>) -> bool {
        let kind = x.get_kind();
        match x.get_reference() {
            Some(r) if kind != EntityKind::OverloadedDeclRef => {
                matches!(kind, EntityKind::DeclRefExpr | EntityKind::MemberRefExpr)
                    && r.get_canonical_entity() == target
            }
            _ => {
                matches!(
                    kind,
                    EntityKind::DeclRefExpr
                        | EntityKind::MemberRefExpr
                        | EntityKind::OverloadedDeclRef
                ) && target.get_name().is_some()
                    && self.unresolved_name(x) == target.get_name()
            }
        }
    }

    /// The name an unresolved reference spells: libclang names no dependent member, whose name
    /// is the first identifier after the last `.`, `->` or `::` (`l.run`, `l.template run<4>`).
    fn unresolved_name(&self, x: Entity<'tu>) -> Option<String> {
        if let Some(name) = x.get_name() {
            return Some(name);
        }
        if let Some(known) = self.memo.borrow().spelled.get(&x) {
            return known.clone();
        }
        let name = spelled_name(x);
        self.memo.borrow_mut().spelled.insert(x, name.clone());
        name
    }

    fn value(&self, var: Entity) -> Option<i64> {
        self.known.iter().find(|(v, _)| *v == var).map(|(_, x)| *x)
    }

    fn dims_of(&self, var: Entity) -> Option<Dims> {
        self.dims.iter().find(|(v, _)| *v == var).map(|(_, d)| *d)
    }
}

/// The integer value of `e`, evaluated in the function `scope` that contains it.
pub(crate) fn int<'tu>(e: Entity<'tu>, scope: &Scope<'tu>) -> Option<i64> {
    int_at(e, scope, 0)
}

/// The value of a call's argument, where the parameter is an integer (a `float` parameter's
/// `2.0f` is no integer value).
pub(crate) fn integer_arg<'tu>(arg: Entity<'tu>, scope: &Scope<'tu>) -> Option<i64> {
    match is_floating(arg) {
        true => None,
        false => int(arg, scope),
    }
}

/// What a call passes for a parameter, for the program's other files (`HostCall`): an integer,
/// or a `dim3` of which a member folds.
pub(crate) fn passed_value<'tu>(arg: Entity<'tu>, scope: &Scope<'tu>) -> Option<ArgValue> {
    if let Some(v) = integer_arg(arg, scope) {
        return Some(ArgValue::Int(v));
    }
    let dims = dim3(arg, scope);
    (is_dim3(arg) && dims.iter().any(Option::is_some)).then_some(ArgValue::Dim3(dims))
}

/// Locals initialised from locals: a chain this long is not a program's launch arithmetic.
const MAX_DEPTH: u32 = 16;

pub(super) fn int_at<'tu>(e: Entity<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<i64> {
    if depth > MAX_DEPTH {
        return None;
    }
    let e = skip_transparent(e);
    match e.evaluate() {
        Some(EvaluationResult::SignedInteger(v)) => return Some(v),
        Some(EvaluationResult::UnsignedInteger(v)) => return i64::try_from(v).ok(),
        // `float length = 1024;` passed to an `int` parameter: an integer all the same.
        Some(EvaluationResult::Float(v)) => return exact_integer(v),
        _ => {}
    }
    let kids: Vec<Entity> = e
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    let sub = |x: Entity<'tu>| int_at(x, scope, depth + 1);
    match e.get_kind() {
        EntityKind::DeclRefExpr => {
            let var = e.get_reference()?;
            scope
                .value(var)
                .or_else(|| reaching_int(var, e, scope, depth))
                .or_else(|| caller_value(var, scope, depth + 1))
        }
        EntityKind::MemberRefExpr => {
            dim3_member(e, scope, depth).or_else(|| objects::field_value(e, scope, depth))
        }
        EntityKind::ArraySubscriptExpr => {
            elements::value(e, scope.func, &|i: Entity<'tu>| sub(i)).and_then(sub)
        }
        // Floating-point arithmetic is not integer arithmetic (`x / 2`).
        EntityKind::BinaryOperator if !is_floating(e) => {
            let [a, b] = kids.as_slice() else { return None };
            let op = e.get_display_name()?;
            match (op.as_str(), sub(*a), sub(*b)) {
                // One operand decides `&&` and `||` whatever the other's value.
                ("&&", Some(0), _) | ("&&", _, Some(0)) => Some(0),
                ("||", Some(x), _) | ("||", _, Some(x)) if x != 0 => Some(1),
                (op, a, b) => binary(op, a?, b?),
            }
        }
        EntityKind::UnaryOperator => {
            let [a] = kids.as_slice() else { return None };
            match unary_op_text(e)?.as_str() {
                "-" => sub(*a)?.checked_neg(),
                "+" => sub(*a),
                _ => None,
            }
        }
        EntityKind::ConditionalOperator => {
            let [c, a, b] = kids.as_slice() else {
                return None;
            };
            match sub(*c) {
                Some(c) if c != 0 => sub(*a),
                Some(_) => sub(*b),
                None => sub(*a).filter(|x| sub(*b) == Some(*x)),
            }
        }
        EntityKind::CallExpr if e.get_reference().is_some_and(returns::folds_through) => {
            returns::returned_value(e, scope, depth)
        }
        EntityKind::ParenExpr
        | EntityKind::UnexposedExpr
        | EntityKind::CStyleCastExpr
        | EntityKind::StaticCastExpr
        | EntityKind::FunctionalCastExpr
        | EntityKind::CallExpr
            if kids.len() == 1 && is_integral(e) =>
        {
            sub(kids[0])
        }
        // An integer converted to floating point, where even a `float` holds it exactly (and
        // back: a floating-point value folds only when it is such an integer).
        EntityKind::ParenExpr
        | EntityKind::UnexposedExpr
        | EntityKind::CStyleCastExpr
        | EntityKind::StaticCastExpr
        | EntityKind::FunctionalCastExpr
            if kids.len() == 1 && is_floating(e) =>
        {
            sub(kids[0]).filter(|v| v.unsigned_abs() <= EXACT_IN_FLOAT)
        }
        _ => None,
    }
}

/// The integers every `float` holds exactly: up to 2^24.
const EXACT_IN_FLOAT: u64 = 1 << 24;

fn exact_integer(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() <= EXACT_IN_FLOAT as f64).then_some(v as i64)
}

pub(super) fn is_floating(e: Entity) -> bool {
    e.get_type().is_some_and(|t| {
        matches!(
            t.get_canonical_type().get_kind(),
            TypeKind::Float
                | TypeKind::Double
                | TypeKind::LongDouble
                | TypeKind::Half
                | TypeKind::Float16
        )
    })
}

/// The value of `var` where `read` reads it: its initializer where that holds everywhere,
/// else what reaches the read (`reaching`), a choice decided by its condition or by every
/// branch giving the same value.
fn reaching_int<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
) -> Option<i64> {
    if let Some(init) = initializer(var, scope) {
        return int_at(init, scope, depth + 1);
    }
    let local = var.get_kind() == EntityKind::VarDecl && contains(scope.func, var);
    if !local {
        return None;
    }
    let reaching = reaching_value(var, read, scope.func, &scope.changes(var))?;
    choice_int(&reaching, scope, depth + 1)
}

fn choice_int<'tu>(r: &Reaching<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<i64> {
    match r {
        Reaching::Value(e) => int_at(*e, scope, depth),
        Reaching::Choice(cond, then, otherwise) => match int_at(*cond, scope, depth) {
            Some(c) if c != 0 => choice_int(then, scope, depth + 1),
            Some(_) => choice_int(otherwise, scope, depth + 1),
            None => {
                let v = choice_int(then, scope, depth + 1)?;
                (choice_int(otherwise, scope, depth + 1)? == v).then_some(v)
            }
        },
    }
}

/// The value every caller passes for `param` of `func`, which `func` never changes: `gemm(ni)`
/// called from `main` only, with `int ni = NI;`, and the calls of the program's other files
/// (`Scope::calls_elsewhere`). No value when a call does not fold or two calls disagree.
fn caller_value<'tu>(param: Entity<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<i64> {
    agreed_by_callers(
        param,
        scope,
        |elsewhere, index| match elsewhere.args.get(index)? {
            Some(ArgValue::Int(v)) => Some(*v),
            _ => None,
        },
        |arg, at| int_at(arg, at, depth),
    )
}

/// `caller_value` for a `dim3` parameter (`void run(dim3 grid)` called as `run(dim3(4, 4))`):
/// the calls must agree on the whole `dim3`.
fn caller_dims<'tu>(param: Entity<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<Dims> {
    agreed_by_callers(
        param,
        scope,
        |elsewhere, index| match elsewhere.args.get(index)? {
            Some(ArgValue::Dim3(d)) => Some(*d),
            _ => None,
        },
        |arg, at| {
            let leaf = |x: Entity<'tu>, depth: u32| {
                int_at(x, at, depth).and_then(|v| u32::try_from(v).ok())
            };
            dim3_at(arg, at, depth, &leaf, &|v| v)
        },
    )
}

/// The value of `param` that every call of its function agrees on (see `caller_value`), each
/// call's argument evaluated by `value` in the calling function's scope, the other files'
/// calls by `outside` (an argument's index).
fn agreed_by_callers<'tu, V: PartialEq>(
    param: Entity<'tu>,
    scope: &Scope<'tu>,
    outside: impl Fn(&CallerValues, usize) -> Option<V>,
    value: impl Fn(Entity<'tu>, &Scope<'tu>) -> Option<V>,
) -> Option<V> {
    let func = scope.func;
    if param.get_kind() != EntityKind::ParmDecl || changed_in(scope, param) {
        return None;
    }
    let index = func.get_arguments()?.iter().position(|p| *p == param)?;
    let mut agreed = None;
    let mut places = Vec::new();
    // Without the other files' calls, the file's own are still folded: a call from another
    // function of the file asks for that function's callers elsewhere in turn.
    let mut known = true;
    match scope.calls_elsewhere(func) {
        Elsewhere::Nothing => {}
        Elsewhere::Calls(elsewhere) => {
            agreed = Some(outside(&elsewhere, index)?);
            places = elsewhere.places;
        }
        Elsewhere::Unknown => known = false,
    }
    for (caller, call) in scope.calls_of(func.get_canonical_entity())?.iter() {
        let arg = *call.get_arguments()?.get(index)?;
        let v = value(arg, &scope.at(*caller))?;
        if agreed.as_ref().is_some_and(|w| *w != v) {
            return None;
        }
        agreed = Some(v);
    }
    if !known {
        return None;
    }
    scope.memo.borrow_mut().used.extend(places);
    agreed
}

pub(crate) fn defines_main(root: Entity) -> bool {
    user_functions(root).iter().any(|f| {
        f.get_kind() == EntityKind::FunctionDecl && f.get_name().as_deref() == Some("main")
    })
}

/// `unresolved_name`'s reading of the tokens of `x`.
fn spelled_name(x: Entity) -> Option<String> {
    let tokens = x.get_range()?.tokenize();
    let spelled: Vec<(clang::token::TokenKind, String)> = tokens
        .iter()
        .map(|t| (t.get_kind(), t.get_spelling()))
        .collect();
    let from = spelled
        .iter()
        .rposition(|(_, s)| matches!(s.as_str(), "." | "->" | "::"))
        .map_or(0, |at| at + 1);
    spelled[from..]
        .iter()
        .find(|(k, _)| *k == clang::token::TokenKind::Identifier)
        .map(|(_, s)| s.clone())
}

/// The reference naming the function a direct call calls (`run` of `run(d, 64)`).
fn callee_reference(call: Entity) -> Option<Entity> {
    let mut e = call.get_children().into_iter().next()?;
    loop {
        match e.get_kind() {
            EntityKind::DeclRefExpr | EntityKind::MemberRefExpr => return Some(e),
            EntityKind::UnexposedExpr | EntityKind::ParenExpr => {
                e = e.get_children().into_iter().next()?
            }
            _ => return None,
        }
    }
}

/// The user's declarations that are not among `functions` (nor hold them: namespaces,
/// classes): globals' initializers, and the functions `user_functions` does not list.
pub(crate) fn declarations_outside<'tu>(
    root: Entity<'tu>,
    functions: &[Entity<'tu>],
) -> Vec<Entity<'tu>> {
    let mut out = Vec::new();
    let mut todo: Vec<Entity> = root.get_children();
    while let Some(e) = todo.pop() {
        if e.get_location().is_none_or(|l| l.is_in_system_header()) || functions.contains(&e) {
            continue;
        }
        match e.get_kind() {
            EntityKind::Namespace
            | EntityKind::LinkageSpec
            | EntityKind::UnexposedDecl
            | EntityKind::StructDecl
            | EntityKind::ClassDecl
            | EntityKind::ClassTemplate => todo.extend(e.get_children()),
            _ => out.push(e),
        }
    }
    out
}

/// The function definitions of the user's files (not system headers), also in namespaces and
/// classes.
pub(crate) fn user_functions(root: Entity) -> Vec<Entity> {
    let mut out = Vec::new();
    let mut todo: Vec<Entity> = root.get_children();
    while let Some(e) = todo.pop() {
        if e.get_location().is_none_or(|l| l.is_in_system_header()) {
            continue;
        }
        match e.get_kind() {
            EntityKind::Namespace
            | EntityKind::LinkageSpec
            | EntityKind::StructDecl
            | EntityKind::ClassDecl
            | EntityKind::ClassTemplate => todo.extend(e.get_children()),
            EntityKind::FunctionDecl
            | EntityKind::FunctionTemplate
            | EntityKind::Method
            | EntityKind::Constructor
                if e.is_definition() =>
            {
                out.push(e)
            }
            _ => {}
        }
    }
    out
}

fn is_integral(e: Entity) -> bool {
    e.get_type().is_some_and(|t| {
        let t = t.get_canonical_type();
        t.is_integer() || t.get_kind() == TypeKind::Bool
    })
}

fn binary(op: &str, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        "+" => a.checked_add(b)?,
        "-" => a.checked_sub(b)?,
        "*" => a.checked_mul(b)?,
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
        ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
        "&" => a & b,
        "|" => a | b,
        "^" => a ^ b,
        "<" => (a < b) as i64,
        "<=" => (a <= b) as i64,
        ">" => (a > b) as i64,
        ">=" => (a >= b) as i64,
        "==" => (a == b) as i64,
        "!=" => (a != b) as i64,
        "&&" => (a != 0 && b != 0) as i64,
        "||" => (a != 0 || b != 0) as i64,
        _ => return None,
    })
}

/// `threads.x` of a local `dim3` that folds where it is read: `dim3 threads(16, 16);`, or
/// what last set that member (`dim3_at`).
fn dim3_member<'tu>(e: Entity<'tu>, scope: &Scope<'tu>, depth: u32) -> Option<i64> {
    let base_is_dim3 = e
        .get_children()
        .into_iter()
        .next()
        .is_some_and(|b| is_dim3(skip_transparent(b)));
    if !base_is_dim3 {
        return None;
    }
    let slot = member_index(e)?;
    let base = e.get_children().into_iter().next().map(skip_transparent)?;
    if base.get_kind() != EntityKind::DeclRefExpr {
        return None;
    }
    let leaf =
        |x: Entity<'tu>, depth: u32| int_at(x, scope, depth).and_then(|v| u32::try_from(v).ok());
    dim3_at(base, scope, depth + 1, &leaf, &|v| v)
        .and_then(|d| d[slot])
        .map(i64::from)
}

/// A launch extent, each dimension that folds: an integer, `dim3(a, b, c)` (missing
/// arguments are 1), or a local `dim3` initialised once.
pub(crate) fn dim3<'tu>(e: Entity<'tu>, scope: &Scope<'tu>) -> [Option<u32>; 3] {
    let leaf =
        |x: Entity<'tu>, depth: u32| int_at(x, scope, depth).and_then(|v| u32::try_from(v).ok());
    dim3_at(e, scope, 0, &leaf, &|v| v).unwrap_or([None; 3])
}

/// A launch extent, each dimension as the host computes it from the arguments `args` names
/// (`host_expr`), as the dimension's `unsigned int`.
pub(crate) fn dim3_exprs<'tu>(
    e: Entity<'tu>,
    scope: &Scope<'tu>,
    args: &[Arg],
) -> [Option<Expr>; 3] {
    let u32_ty = Ty::Scalar(Scalar::U32);
    let leaf = |x: Entity<'tu>, depth: u32| {
        let v = host_expr_at(x, scope, args, depth)?;
        Some(convert(v, u32_ty))
    };
    let lift = |v: u32| Expr::int(i64::from(v), u32_ty);
    dim3_at(e, scope, 0, &leaf, &lift).unwrap_or([None, None, None])
}

/// `dim3`'s structure, each dimension's value from `leaf`, or from `lift` where it is a known
/// number (1 where an argument is missing, a parameter's value under its calls).
fn dim3_at<'tu, T>(
    e: Entity<'tu>,
    scope: &Scope<'tu>,
    depth: u32,
    leaf: &impl Fn(Entity<'tu>, u32) -> Option<T>,
    lift: &impl Fn(u32) -> T,
) -> Option<[Option<T>; 3]> {
    if depth > MAX_DEPTH {
        return None;
    }
    // An integer extent `n` is `dim3(n, 1, 1)`, whether `n` folds or not.
    if is_integral(e) {
        return Some([leaf(e, depth), Some(lift(1)), Some(lift(1))]);
    }
    let e = skip_transparent(e);
    match e.get_kind() {
        EntityKind::CallExpr | EntityKind::FunctionalCastExpr | EntityKind::UnexposedExpr => {
            let args: Vec<Entity> = match e.get_arguments() {
                Some(a) if !a.is_empty() => a,
                _ => e
                    .get_children()
                    .into_iter()
                    .filter(|c| c.is_expression())
                    .collect(),
            };
            // A copy or conversion of another dim3.
            if args.len() == 1 && !is_integral(args[0]) {
                return dim3_at(args[0], scope, depth + 1, leaf, lift);
            }
            if args.len() > 3 || !is_dim3(e) {
                return None;
            }
            let mut out = [Some(lift(1)), Some(lift(1)), Some(lift(1))];
            for (slot, a) in out.iter_mut().zip(&args) {
                *slot = leaf(*a, depth + 1);
            }
            Some(out)
        }
        EntityKind::DeclRefExpr => {
            let var = e.get_reference()?;
            if var.get_kind() == EntityKind::ParmDecl && is_dim3(e) && !changed_in(scope, var) {
                let dims = scope
                    .dims_of(var)
                    .or_else(|| caller_dims(var, scope, depth + 1))?;
                return Some(dims.map(|v| v.map(lift)));
            }
            if let Some(init) = value_at(var, e, scope) {
                return dim3_at(init, scope, depth + 1, leaf, lift);
            }
            let mut out = [None, None, None];
            for (slot, value) in out.iter_mut().enumerate() {
                *value = match member_value(var, e, scope, slot)? {
                    Member::Whole(d) => dim3_at(d, scope, depth + 1, leaf, lift)
                        .and_then(|d| d.into_iter().nth(slot).flatten()),
                    Member::Own(rhs) => leaf(rhs, depth + 1),
                };
            }
            Some(out)
        }
        _ => None,
    }
}

/// A launch argument that is a variable of the launching function holding one value wherever
/// the host computes the launch from it: nothing in the function changes it, or nothing after
/// `from` (an offset in the file; `reaching::settled_after`), where only reads past `from` are
/// the parameter.
#[derive(Clone)]
pub(crate) struct Arg<'tu> {
    pub var: Entity<'tu>,
    pub param: ParamId,
    pub from: u32,
}

impl Arg<'_> {
    /// Whether the reference `e` to the variable reads the value the kernel gets.
    fn reads_final(&self, e: Entity) -> bool {
        self.from == 0
            || e.get_range()
                .is_some_and(|r| r.get_start().get_file_location().offset > self.from)
    }
}

/// The arguments of the launch `call` in `scope` that are such variables, each of the type of
/// the kernel's parameter (`params`), so that the parameter holds the variable's value.
pub(crate) fn plain_args<'tu>(
    args: &[Entity<'tu>],
    params: &[Entity<'tu>],
    scope: &Scope<'tu>,
    call: Entity<'tu>,
) -> Vec<Arg<'tu>> {
    let scalar = |t: Option<clang::Type>| match t.map(classify) {
        Some(CType::Scalar(s)) if !s.is_float() && s != Scalar::Bool => Some(s),
        _ => None,
    };
    args.iter()
        .zip(params)
        .enumerate()
        .filter_map(|(i, (a, p))| {
            let a = skip_transparent(*a);
            let var = a
                .get_reference()
                .filter(|_| a.get_kind() == EntityKind::DeclRefExpr)?;
            let typed = matches!(var.get_kind(), EntityKind::VarDecl | EntityKind::ParmDecl)
                && scalar(var.get_type()).is_some()
                && scalar(var.get_type()) == scalar(p.get_type());
            let changes = scope.changes(var);
            let from = match changes.is_empty() {
                true => 0,
                false => settled_after(scope.func, call, &changes)?,
            };
            typed.then_some(Arg {
                var,
                param: ParamId(i as u32),
                from,
            })
        })
        .collect()
}

/// `host_expr_at` from the top.
pub(crate) fn host_expr<'tu>(e: Entity<'tu>, scope: &Scope<'tu>, args: &[Arg]) -> Option<Expr> {
    host_expr_at(e, scope, args, 0)
}

/// The integer the host computes for `e` in `scope`, as an IR expression in the host's types:
/// constants fold, the variables `args` names are their kernel parameters, locals initialised
/// once are their initializers, and `+ - * / % << >> & | ^` and conversions are the IR's (the
/// one semantics of CUDA arithmetic). Anything else (a call, a value read from memory, a
/// variable that changes) gives `None`: what the host does there is not known.
fn host_expr_at<'tu>(e: Entity<'tu>, scope: &Scope<'tu>, args: &[Arg], depth: u32) -> Option<Expr> {
    if depth > MAX_DEPTH {
        return None;
    }
    let ty = int_ty(e)?;
    if let Some(v) = int_at(e, scope, depth) {
        return Some(Expr::int(v, ty));
    }
    let kids: Vec<Entity> = e
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    let sub = |x: Entity<'tu>| host_expr_at(x, scope, args, depth + 1);
    let value = match e.get_kind() {
        EntityKind::DeclRefExpr => {
            let var = e.get_reference()?;
            match args.iter().find(|a| a.var == var && a.reads_final(e)) {
                Some(a) => Expr::new(ExprKind::Param(a.param), ty),
                None => sub(value_at(var, e, scope)?)?,
            }
        }
        // Floating-point arithmetic is not integer arithmetic (`x / 2`).
        EntityKind::BinaryOperator if !is_floating(e) => {
            let [a, b] = kids.as_slice() else { return None };
            let op = arith_op(&e.get_display_name()?).filter(|op| {
                use BinOp::*;
                matches!(op, Add | Sub | Mul | Div | Rem | Shl | Shr | And | Or | Xor)
            })?;
            Expr::new(
                ExprKind::Binary(op, Box::new(sub(*a)?), Box::new(sub(*b)?)),
                ty,
            )
        }
        EntityKind::ParenExpr
        | EntityKind::UnexposedExpr
        | EntityKind::CStyleCastExpr
        | EntityKind::StaticCastExpr
        | EntityKind::FunctionalCastExpr
            if kids.len() == 1 =>
        {
            sub(kids[0])?
        }
        _ => return None,
    };
    Some(convert(value, ty))
}

/// The IR type of an integer (not `bool`) expression.
fn int_ty(e: Entity) -> Option<Ty> {
    match classify(e.get_type()?) {
        CType::Scalar(s) if !s.is_float() && s != Scalar::Bool => Some(Ty::Scalar(s)),
        _ => None,
    }
}

/// Whether `e` is a `dim3` (or `uint3`), or a parameter referring to one: only their
/// constructors put arguments in `x, y, z` order; another class's could put them anywhere.
fn is_dim3(e: Entity) -> bool {
    e.get_type().and_then(referred).is_some_and(|t| {
        let name = t.get_canonical_type().get_display_name();
        let name = name.trim_start_matches("const ");
        matches!(name, "dim3" | "uint3")
    })
}

/// The initializer of a variable whose value is that initializer wherever `scope` reads it:
/// a `const` variable, or a local of `scope` that nothing in `scope` changes.
pub(super) fn initializer<'tu>(var: Entity<'tu>, scope: &Scope<'tu>) -> Option<Entity<'tu>> {
    if var.get_kind() != EntityKind::VarDecl {
        return None;
    }
    let init = declared_initializer(var)?;
    let is_const = var
        .get_type()
        .is_some_and(|t| t.is_const_qualified() && !t.get_canonical_type().is_volatile_qualified());
    let local_of_scope = var.get_semantic_parent() == Some(scope.func)
        || var.get_lexical_parent() == Some(scope.func)
        || contains(scope.func, var);
    if is_const || (local_of_scope && !changed_in(scope, var)) {
        Some(init)
    } else {
        None
    }
}

/// The expression whose value `var` has where `read` (a reference to it in `scope`) reads it:
/// its initializer when that holds everywhere, else the assignment that reaches the read
/// (`reaching`).
pub(crate) fn value_at<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: &Scope<'tu>,
) -> Option<Entity<'tu>> {
    initializer(var, scope).or_else(|| {
        let local = var.get_kind() == EntityKind::VarDecl && contains(scope.func, var);
        local
            .then(|| last_assignment(var, read, scope.func, &scope.changes(var)))
            .flatten()
    })
}

/// Whether `var` keeps one value throughout `scope`: nothing there changes it.
pub(crate) fn unchanged<'tu>(scope: &Scope<'tu>, var: Entity<'tu>) -> bool {
    matches!(var.get_kind(), EntityKind::VarDecl | EntityKind::ParmDecl) && !changed_in(scope, var)
}

/// Whether `scope` may change `var` after its initialisation: an assignment to it or to a part
/// of it, `++`/`--`, its address taken, or a call binding it to a non-const reference.
fn changed_in<'tu>(scope: &Scope<'tu>, var: Entity<'tu>) -> bool {
    !scope.changes(var).is_empty()
}

/// The expressions of `scope` that may change `var` (see `changed_in`).
fn find_changes<'tu>(scope: Entity<'tu>, var: Entity<'tu>) -> Vec<Entity<'tu>> {
    let mut out = Vec::new();
    visit(scope, &mut |x| {
        let first = || x.get_children().into_iter().next();
        let changed = match x.get_kind() {
            EntityKind::BinaryOperator if x.get_display_name().as_deref() == Some("=") => {
                first().is_some_and(|l| root_var(l) == Some(var))
            }
            EntityKind::CompoundAssignOperator => first().is_some_and(|l| root_var(l) == Some(var)),
            EntityKind::UnaryOperator => {
                matches!(
                    unary_op_text(x).as_deref(),
                    Some("++" | "--" | "++post" | "--post" | "&")
                ) && first().is_some_and(|l| root_var(l) == Some(var))
            }
            EntityKind::CallExpr => binds_by_reference(x, var),
            // `int &r = n;`: whatever changes `r` later changes `n`.
            EntityKind::VarDecl => {
                is_mutable_reference(x) && declared_initializer(x).and_then(root_var) == Some(var)
            }
            _ => false,
        };
        if changed {
            out.push(x);
        }
    });
    out
}

/// What sets one member of a `dim3` local where `read` reads it: a whole `dim3` (its
/// declaration or an assignment) or an assignment to that member.
enum Member<'tu> {
    Whole(Entity<'tu>),
    Own(Entity<'tu>),
}

/// What last sets member `slot` (0 for `x`) of the `dim3` local `var` of `scope` where `read`
/// reads it (`reaching`): `dim3 threads(32); k<<<g, threads>>>(); threads.x = 128;` launches
/// 32 threads, and `dim3 threads; threads.x = N;` sets `y` and `z` to 1. Assignments to the
/// other members do not change this one; anything else that changes `var` does.
fn member_value<'tu>(
    var: Entity<'tu>,
    read: Entity<'tu>,
    scope: &Scope<'tu>,
    slot: usize,
) -> Option<Member<'tu>> {
    if var.get_kind() != EntityKind::VarDecl || !contains(scope.func, var) || !is_dim3_var(var) {
        return None;
    }
    let changes: Vec<Entity> = scope
        .changes(var)
        .iter()
        .copied()
        .filter(|c| member_assignment(*c, var).is_none_or(|(s, _)| s == slot))
        .collect();
    let stmt = reaching_definition(var, read, scope.func, &changes)?;
    if declares(stmt, var) {
        return declared_initializer(var).map(Member::Whole);
    }
    if let Some((_, rhs)) = member_assignment(stmt, var) {
        return Some(Member::Own(rhs));
    }
    whole_assignment(stmt, var).map(|(_, rhs)| Member::Whole(rhs))
}

/// `var.x = rhs` (or `.y`, `.z`): the member's index and `rhs`.
fn member_assignment<'tu>(change: Entity<'tu>, var: Entity) -> Option<(usize, Entity<'tu>)> {
    let (member, rhs) = assigned_member(change, var)?;
    Some((member_index(member)?, rhs))
}

/// `var.m = rhs`: the member expression `var.m` and `rhs`.
pub(super) fn assigned_member<'tu>(
    change: Entity<'tu>,
    var: Entity,
) -> Option<(Entity<'tu>, Entity<'tu>)> {
    let is_assign = change.get_kind() == EntityKind::BinaryOperator
        && change.get_display_name().as_deref() == Some("=");
    let [lhs, rhs] = change.get_children()[..] else {
        return None;
    };
    let lhs = skip_transparent(lhs);
    if !is_assign || lhs.get_kind() != EntityKind::MemberRefExpr {
        return None;
    }
    let base = skip_transparent(lhs.get_children().into_iter().next()?);
    (base.get_kind() == EntityKind::DeclRefExpr && base.get_reference() == Some(var))
        .then_some((lhs, rhs))
}

/// 0, 1 or 2 for a reference to member `x`, `y` or `z`.
fn member_index(member: Entity) -> Option<usize> {
    ["x", "y", "z"]
        .iter()
        .position(|n| member.get_name().as_deref() == Some(n))
}

/// The type a reference refers to; any other type itself.
fn referred(t: clang::Type) -> Option<clang::Type> {
    match t.get_kind() {
        TypeKind::LValueReference | TypeKind::RValueReference => t.get_pointee_type(),
        _ => Some(t),
    }
}

/// Whether `var` is a reference through which its referent may be changed.
fn is_mutable_reference(var: Entity) -> bool {
    var.get_type().is_some_and(|t| {
        matches!(
            t.get_kind(),
            TypeKind::LValueReference | TypeKind::RValueReference
        ) && t
            .get_pointee_type()
            .is_some_and(|p| !p.is_const_qualified())
    })
}

pub(super) fn is_dim3_var(var: Entity) -> bool {
    var.get_type()
        .and_then(|t| t.get_declaration())
        .and_then(|d| d.get_name())
        .is_some_and(|n| n == "dim3")
}

/// The kernels whose address `scope` stores in the function pointer `var` (its initializer
/// and every assignment): what a launch through `var` may launch.
pub(crate) fn kernels_assigned<'tu>(scope: Entity<'tu>, var: Entity<'tu>) -> Vec<Entity<'tu>> {
    let mut values: Vec<Entity> = var
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    visit(scope, &mut |x| {
        let kids = x.get_children();
        let assigns = x.get_kind() == EntityKind::BinaryOperator
            && x.get_display_name().as_deref() == Some("=")
            && kids.first().is_some_and(|l| root_var(*l) == Some(var));
        if assigns {
            values.extend(kids.get(1).copied());
        }
    });
    let mut out = Vec::new();
    for v in values {
        visit(v, &mut |x| {
            let kernel = x.get_reference().filter(|k| {
                x.get_kind() == EntityKind::DeclRefExpr
                    && k.get_kind() == EntityKind::FunctionDecl
                    && is_kernel(*k)
            });
            if let Some(k) = kernel.filter(|k| !out.contains(k)) {
                out.push(k);
            }
        });
    }
    out
}

/// A kernel a call passes a launch helper, and the helper's scope under that call.
pub(crate) struct Passed<'tu> {
    pub kernel: Entity<'tu>,
    /// The helper, with the integer and `dim3` parameters it never changes bound to what the
    /// call passes.
    pub scope: Scope<'tu>,
    /// The call, where it bound them.
    pub call: Option<Entity<'tu>>,
}

/// The kernels the file's calls of `scope.func` pass for its parameter `param`, which it
/// never changes: a launch helper `launch(kernel, blocks, threads, args...)` that runs
/// `kernel<<<blocks, threads>>>(args...)`, called as `launch(scan<256>, n / 256, 256, d, n)`
/// or with a local holding the kernel. Each call is its own launch: the helper's other
/// parameters take that call's values (the helper's parameter pack is expanded per call, so
/// the kernel's arguments are parameters of the helper too). Where other files may call the
/// helper (`Scope::calls_elsewhere`), no call binds anything.
pub(crate) fn kernels_passed<'tu>(param: Entity<'tu>, scope: &Scope<'tu>) -> Vec<Passed<'tu>> {
    let func = scope.func;
    let params = func.get_arguments().unwrap_or_default();
    let Some(index) = params.iter().position(|p| *p == param) else {
        return Vec::new();
    };
    if changed_in(scope, param) {
        return Vec::new();
    }
    let Some(calls) = scope.calls_of(func.get_canonical_entity()) else {
        return Vec::new();
    };
    // Calls in other files may pass this file's kernels too, with other values.
    let all_calls = matches!(scope.calls_elsewhere(func), Elsewhere::Nothing);
    let mut out = Vec::new();
    for (caller, call) in calls.iter() {
        let args = call.get_arguments().unwrap_or_default();
        let Some(named) = args.get(index) else {
            continue;
        };
        let bound = match all_calls {
            true => bound_by(scope, *caller, *call),
            false => scope.clone(),
        };
        for kernel in kernels_named(*named, *caller) {
            out.push(Passed {
                kernel,
                scope: bound.clone(),
                call: all_calls.then_some(*call),
            });
        }
    }
    out
}

/// `scope.func` under each of its calls, each with the call (`bound_by`): a launching function
/// `run(d, n)` called as `run(d, 256)` and `run(d, 1024)` makes two launches, where the values
/// the calls agree on would leave `n` open. None where the function may be called where no
/// call in the file names it (`calls_of`, `calls_elsewhere`), or has one call (whose values
/// `caller_value` folds already).
pub(crate) fn per_call<'tu>(scope: &Scope<'tu>) -> Option<Vec<(Scope<'tu>, Entity<'tu>)>> {
    let func = scope.func;
    if !matches!(scope.calls_elsewhere(func), Elsewhere::Nothing) {
        return None;
    }
    let calls = scope.calls_of(func.get_canonical_entity())?;
    if calls.len() < 2 {
        return None;
    }
    let scopes = calls
        .iter()
        .map(|(caller, call)| (bound_by(scope, *caller, *call), *call))
        .collect();
    Some(scopes)
}

/// `scope` with the integer and `dim3` parameters of its function that it never changes bound
/// to what `call` (in `caller`) passes; a call whose arguments are not the parameters one by
/// one (a default argument, a parameter pack) binds none.
fn bound_by<'tu>(scope: &Scope<'tu>, caller: Entity<'tu>, call: Entity<'tu>) -> Scope<'tu> {
    let params = scope.func.get_arguments().unwrap_or_default();
    let args = call.get_arguments().unwrap_or_default();
    let mut bound = scope.clone();
    if args.len() != params.len() {
        return bound;
    }
    let at = scope.at(caller);
    for (p, a) in params.iter().zip(&args) {
        if changed_in(scope, *p) {
            continue;
        }
        if is_dim3(*p) {
            bound.dims.push((*p, dim3(*a, &at)));
        } else if let Some(v) = integer_arg(*a, &at) {
            bound.known.push((*p, v));
        }
    }
    bound
}

/// The kernels `arg` names: itself (`scan<256>`), or a local of `caller` it reads that holds
/// kernels (`auto kernel = scan<256>;`).
fn kernels_named<'tu>(arg: Entity<'tu>, caller: Entity<'tu>) -> Vec<Entity<'tu>> {
    let mut out = Vec::new();
    visit(arg, &mut |x| {
        let Some(r) = x
            .get_reference()
            .filter(|_| x.get_kind() == EntityKind::DeclRefExpr)
        else {
            return;
        };
        let found = match r.get_kind() {
            EntityKind::VarDecl if contains(caller, r) => kernels_assigned(caller, r),
            EntityKind::FunctionDecl if is_kernel(r) => vec![r],
            _ => Vec::new(),
        };
        for k in found {
            if !out.contains(&k) {
                out.push(k);
            }
        }
    });
    out
}

fn is_kernel(f: Entity) -> bool {
    has_attr(f, EntityKind::CudaGlobalAttr)
}

/// The variable an lvalue names or is part of: `v`, `v.x`, `v[i]`.
fn root_var(e: Entity) -> Option<Entity> {
    let mut e = skip_transparent(e);
    loop {
        match e.get_kind() {
            EntityKind::DeclRefExpr => return e.get_reference(),
            EntityKind::MemberRefExpr | EntityKind::ArraySubscriptExpr => {
                e = skip_transparent(e.get_children().into_iter().next()?)
            }
            _ => return None,
        }
    }
}

/// A call passing `var` where the callee takes a reference to non-const (or, not knowing the
/// callee, anywhere), or calling a method on it (also as a member operator's object: `in >> n`
/// changes `in` and, through `istream::operator>>(int &)`, `n`).
fn binds_by_reference(call: Entity, var: Entity) -> bool {
    let args = call.get_arguments().unwrap_or_default();
    let callee = call.get_reference();
    let params = callee.and_then(|f| f.get_arguments()).unwrap_or_default();
    // A member operator's call lists its object first; its parameters start at the second.
    let object = usize::from(is_member_operator_call(call));
    let by_ref = args.iter().enumerate().skip(object).any(|(i, a)| {
        if root_var(*a) != Some(var) {
            return false;
        }
        match (callee, params.get(i - object).and_then(|p| p.get_type())) {
            (None, _) => true,
            // Past the named parameters of a variadic function: by value.
            (Some(_), None) => false,
            (Some(_), Some(t)) => {
                t.get_kind() == TypeKind::LValueReference
                    && !t.get_pointee_type().is_some_and(|p| p.is_const_qualified())
            }
        }
    });
    let object_is_var = object == 1 && args.first().is_some_and(|a| root_var(*a) == Some(var));
    let method_on = call
        .get_children()
        .into_iter()
        .next()
        .filter(|c| c.get_kind() == EntityKind::MemberRefExpr)
        .is_some_and(|m| {
            m.get_children()
                .into_iter()
                .next()
                .is_some_and(|b| root_var(b) == Some(var))
        });
    by_ref || method_on || object_is_var
}

/// Whether `call` is an operator written as an operator (`a >> b`, `f(x)` on an object) that
/// calls a non-static member: clang gives its object as the first argument, which the
/// callee's parameters do not list. `a.operator>>(b)` is a member call: its arguments are the
/// parameters'.
fn is_member_operator_call(call: Entity) -> bool {
    let Some(callee) = call.get_reference() else {
        return false;
    };
    let member_operator = callee.get_kind() == EntityKind::Method
        && !callee.is_static_method()
        && callee.get_name().is_some_and(|n| n.starts_with("operator"));
    let member_syntax = call.get_children().into_iter().next().is_some_and(|c| {
        c.get_kind() == EntityKind::MemberRefExpr && c.get_reference() == Some(callee)
    });
    let params = callee.get_arguments().map_or(0, |p| p.len());
    let args = call.get_arguments().map_or(0, |a| a.len());
    member_operator && !member_syntax && args == params + 1
}
