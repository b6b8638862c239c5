//! What a file's host code tells the other files of its program (`ir::HostCalls`): the calls it
//! makes of functions defined elsewhere, with the integer values their arguments fold to
//! (`main.cu`'s `scan(d, 1024)`), and the functions of its own whose callers elsewhere a launch
//! waited for (`scan.cu`'s `scan`, whose launch has a grid of `length / 1024` blocks). The
//! command line hands the first to the second (`FrontendOptions::callers`).
//!
//! A function whose address the file takes (`auto f = scan;`) may be called where no call names
//! it: its calls are listed with no arguments, which says nothing of any. A file with errors
//! lists no calls: one clang could not read would be missing, not wrong.

use super::context::ModuleCtx;
use super::cursor::visit;
use super::fold::{self, Scope};
use crate::ir::{HostCall, HostCalls, HostFunction};
use clang::{Entity, EntityKind, Linkage};
use std::collections::HashMap;

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
        wanted: match defines_main {
            true => Vec::new(),
            false => memo.borrow().wanted.clone(),
        },
    }
}

fn calls<'tu>(
    root: Entity<'tu>,
    memo: &fold::Changes<'tu>,
    ctx: &mut ModuleCtx<'tu>,
) -> Vec<HostCall> {
    let mut out = Vec::new();
    // References to each function outside the callee position of a call: its address taken.
    let mut references: HashMap<Entity<'tu>, i64> = HashMap::new();
    for caller in fold::user_functions(root) {
        let scope = Scope::of(caller, memo);
        visit(caller, &mut |x| {
            let Some(f) = x.get_reference().and_then(defined_elsewhere) else {
                return;
            };
            match x.get_kind() {
                EntityKind::DeclRefExpr => *references.entry(f).or_default() += 1,
                EntityKind::CallExpr => {
                    *references.entry(f).or_default() -= 1;
                    out.push((f, call(f, x, &scope, ctx)));
                }
                _ => {}
            }
        });
    }
    for (f, call) in &mut out {
        if references.get(f).is_some_and(|n| *n > 0) {
            call.args.clear();
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

fn call<'tu>(
    f: Entity<'tu>,
    call: Entity<'tu>,
    scope: &Scope<'tu>,
    ctx: &mut ModuleCtx<'tu>,
) -> HostCall {
    let span = ctx.span(call);
    HostCall {
        function: HostFunction {
            usr: f.get_usr().map(|u| u.0).unwrap_or_default(),
            name: f.get_name().unwrap_or_default(),
        },
        args: call
            .get_arguments()
            .unwrap_or_default()
            .into_iter()
            .map(|a| fold::integer_arg(a, scope))
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
/// the file declares and does not define.
fn defined_elsewhere(f: Entity) -> Option<Entity> {
    let f = f.get_canonical_entity();
    let plain = f.get_kind() == EntityKind::FunctionDecl && f.get_template_arguments().is_none();
    let elsewhere = f.get_definition().is_none() && f.get_linkage() == Some(Linkage::External);
    let user = f.get_location().is_some_and(|l| !l.is_in_system_header());
    (plain && elsewhere && user).then_some(f)
}
