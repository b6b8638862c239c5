//! What a file's host code tells the other files of its program (`ir::HostCalls`): the calls it
//! makes of functions defined in other files (also one it includes), with the integer values their arguments fold to
//! (`main.cu`'s `scan(d, 1024)`), and the functions of its own whose callers elsewhere a launch
//! waited for (`scan.cu`'s `scan`, whose launch has a grid of `length / 1024` blocks). The
//! command line hands the first to the second (`FrontendOptions::callers`).
//!
//! A function whose address the file takes (`auto f = scan;`) may be called where no call names
//! it, a call a template leaves unresolved is made by its instantiations, and a call outside a
//! function (a global's initializer) is not read: each is listed as a call with no arguments,
//! which says nothing of any. A file with errors lists no calls: one
//! clang could not read would be missing, not wrong.

use super::context::ModuleCtx;
use super::cursor::visit;
use super::fold::{self, Scope};
use crate::collections::HashMap;
use crate::ir::{HostCall, HostCalls, HostFunction};
use clang::{Entity, EntityKind, Linkage};

pub(crate) fn of<'tu>(
    root: Entity<'tu>,
    memo: &fold::Changes<'tu>,
    has_errors: bool,
    ctx: &mut ModuleCtx<'tu>,
) -> HostCalls {
    let defines_main = fold::defines_main(root);
    HostCalls {
        defines_main,
        calls: (!has_errors).then(|| calls(root, memo, ctx)),
        wanted: memo.borrow().wanted.clone(),
    }
}

fn calls<'tu>(
    root: Entity<'tu>,
    memo: &fold::Changes<'tu>,
    ctx: &mut ModuleCtx<'tu>,
) -> Vec<HostCall> {
    let mut out = Vec::new();
    // References to each function outside the callee position of a call: its address taken.
    let mut references: HashMap<Entity<'tu>, i64> = HashMap::default();
    let functions = fold::user_functions(root);
    for caller in &functions {
        let scope = Scope::of(*caller, memo);
        visit(*caller, &mut |x| {
            if x.get_kind() == EntityKind::OverloadedDeclRef {
                for f in unresolved(x) {
                    *references.entry(f).or_default() += 1;
                }
                return;
            }
            let Some(f) = x.get_reference().and_then(defined_elsewhere) else {
                return;
            };
            match x.get_kind() {
                EntityKind::DeclRefExpr => *references.entry(f).or_default() += 1,
                EntityKind::CallExpr => {
                    *references.entry(f).or_default() -= 1;
                    out.push(call(f, x, &scope, ctx));
                }
                _ => {}
            }
        });
    }
    // Outside those functions (a global's initializer, a destructor), even a call is not read.
    for decl in fold::declarations_outside(root, &functions) {
        visit(decl, &mut |x| {
            let f = x.get_reference().and_then(defined_elsewhere);
            if let (Some(f), EntityKind::DeclRefExpr) = (f, x.get_kind()) {
                *references.entry(f).or_default() += 1;
            }
            if x.get_kind() == EntityKind::OverloadedDeclRef {
                for f in unresolved(x) {
                    *references.entry(f).or_default() += 1;
                }
            }
        });
    }
    let mut escaped: Vec<Entity> = references
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(f, _)| f)
        .collect();
    escaped.sort_by_key(|f| f.get_usr().map(|u| u.0));
    for f in escaped {
        out.push(HostCall {
            function: function(f),
            args: Vec::new(),
            file: ctx.files.first().cloned().unwrap_or_default(),
            line: 0,
        });
    }
    out
}

fn function(f: Entity) -> HostFunction {
    HostFunction {
        usr: f.get_usr().map(|u| u.0).unwrap_or_default(),
        name: f.get_name().unwrap_or_default(),
    }
}

fn call<'tu>(
    f: Entity<'tu>,
    call: Entity<'tu>,
    scope: &Scope<'tu>,
    ctx: &mut ModuleCtx<'tu>,
) -> HostCall {
    let span = ctx.span(call);
    HostCall {
        function: function(f),
        args: call
            .get_arguments()
            .unwrap_or_default()
            .into_iter()
            .map(|a| fold::passed_value(a, scope))
            .collect(),
        file: ctx
            .files
            .get(span.file as usize)
            .cloned()
            .unwrap_or_default(),
        line: span.line,
    }
}

/// `f` as the function it names, when it is a plain host function with external linkage that
/// the file does not define: declared only, or defined in a file it includes (`main.cpp` that
/// includes `scan.cu`: its calls are calls of `scan.cu`'s function too).
/// The functions defined elsewhere that a reference a template leaves unresolved may name
/// (`scan(d, n)` where `d` has a dependent type): its instantiations call one of them with
/// values this file does not list.
fn unresolved<'tu>(x: Entity<'tu>) -> Vec<Entity<'tu>> {
    x.get_overloaded_declarations()
        .unwrap_or_default()
        .into_iter()
        .filter_map(defined_elsewhere)
        .collect()
}

fn defined_elsewhere(f: Entity) -> Option<Entity> {
    let f = f.get_canonical_entity();
    let plain = f.get_kind() == EntityKind::FunctionDecl && f.get_template_arguments().is_none();
    let here = f
        .get_definition()
        .and_then(|d| d.get_location())
        .is_some_and(|l| l.is_in_main_file());
    let elsewhere = !here && f.get_linkage() == Some(Linkage::External);
    let user = f.get_location().is_some_and(|l| !l.is_in_system_header());
    (plain && elsewhere && user).then_some(f)
}
