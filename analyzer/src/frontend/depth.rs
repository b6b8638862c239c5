//! A limit on how deeply code may nest. Lowering, printing, serialising, the analysis (and z3
//! on its terms), the instrumenter and the CPU device all recurse over expression trees, so an
//! expression of thousands of terms (`1+1+...+1`: clang nests a left-associative chain one
//! level per operator) would overflow their stacks. Clang bounds brackets (256), not operator
//! chains: this bound (`MAX_DEPTH`, 2000 levels) is checked on clang's tree, without recursion,
//! before anything recurses over it, and code nested deeper is a located error. Callers run
//! gmrace on stacks big enough for it (the CLI: `cli/src/main.rs`, 256 MiB for the main thread,
//! rayon's workers and libclang's parse, which `LIBCLANG_NOTHREADS` keeps on the calling thread).

use super::context::ModuleCtx;
use crate::ir::{Diagnostic, Severity, Span};
use clang::Entity;

/// Levels of clang's tree (below a declaration) that code may nest. A 1900-term sum passes;
/// the CLI's stacks hold several times this in a debug build.
pub(crate) const MAX_DEPTH: u32 = 2000;

/// An error at the first expression (or, for statements alone, the first node) found with more
/// than [`MAX_DEPTH`] levels below it, or below the declaration holding it.
pub(crate) fn too_deep(decls: &[Entity], ctx: &mut ModuleCtx) -> Option<Diagnostic> {
    for decl in decls {
        // (node, its depth below `decl`, the outermost expression above it and that one's depth)
        let mut stack = vec![(*decl, 0u32, None::<(Entity, u32)>)];
        while let Some((e, depth, outer)) = stack.pop() {
            let outer = outer.or_else(|| e.is_expression().then_some((e, depth)));
            if depth - outer.map_or(0, |(_, start)| start) > MAX_DEPTH {
                let (at, levels) = match outer {
                    Some((expr, _)) => (expr, levels(expr)),
                    None => (e, levels(*decl)),
                };
                return Some(error(at, levels, ctx));
            }
            stack.extend(e.get_children().into_iter().map(|c| (c, depth + 1, outer)));
        }
    }
    None
}

fn error(at: Entity, levels: u32, ctx: &mut ModuleCtx) -> Diagnostic {
    // Its start only: a caret under every term of a long line would be longer still.
    let start = ctx.span(at);
    let span = Span {
        end_line: start.line,
        end_column: start.column,
        ..start
    };
    let what = if at.is_expression() {
        "expression"
    } else {
        "code"
    };
    Diagnostic {
        severity: Severity::Error,
        message: format!("{what} nested too deeply ({levels} levels; limit {MAX_DEPTH})"),
        source_line: ctx.source_line(span),
        span,
    }
}

/// The number of levels of `e`'s tree below it.
fn levels(e: Entity) -> u32 {
    let mut deepest = 0;
    let mut stack = vec![(e, 0u32)];
    while let Some((e, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        stack.extend(e.get_children().into_iter().map(|c| (c, depth + 1)));
    }
    deepest
}
