//! The built-in variables a kernel's source reads (`threadIdx.y`, `gridDim.z`, ...), itself or
//! through the functions it calls, whether the lowering kept the code that reads them or not.
//!
//! A launch extent no code of the kernel reads is taken as 1 (`analysis/launch.rs`). Read from
//! the IR alone, that made every construct the lowering leaves opaque a way to lose a read: a
//! `for` header it could not split, an unsupported expression around `threadIdx.x`. The
//! kernel then ran on one thread and its races were proved away. The source says what the code
//! reads even where the IR does not; a read through a call it cannot follow (a function
//! pointer) is as unknown to the IR as to this walk. Functions of system headers are not
//! followed: the lowering models them as a GPU runs them (cooperative groups' lane number reads
//! only `x`, though written with all three), and what it reads of them stands in the IR.

use super::expr::{special_member, Builtin};
use crate::collections::HashSet;
use crate::frontend::cursor::visit;
use crate::ir::*;
use clang::{Entity, EntityKind};

/// At most this many function bodies are read; past it, every dimension counts as read.
const MAX_FUNCTIONS: usize = 4096;

pub(super) fn builtins_read(kernel: Entity) -> Vec<Special> {
    let mut found: Vec<Special> = Vec::new();
    let mut add = |s: Special| {
        if !found.contains(&s) {
            found.push(s);
        }
    };
    let mut seen: HashSet<Entity> = HashSet::default();
    let mut pending = vec![kernel];
    while let Some(f) = pending.pop() {
        if !seen.insert(f) {
            continue;
        }
        if seen.len() > MAX_FUNCTIONS {
            return every_dimension();
        }
        visit(f, &mut |x| match x.get_kind() {
            EntityKind::MemberRefExpr => match special_member(x, Some(f)) {
                Some(Builtin::Member(Expr {
                    kind: ExprKind::Special(s),
                    ..
                })) => add(s),
                Some(Builtin::AnyOf(ctor)) => {
                    for d in [Dim::X, Dim::Y, Dim::Z] {
                        add(ctor(d));
                    }
                }
                _ => {}
            },
            EntityKind::CallExpr => {
                let callee = x.get_reference().and_then(|c| c.get_definition());
                pending.extend(callee.filter(|d| !in_system_header(*d)));
            }
            _ => {}
        });
    }
    found
}

fn in_system_header(e: Entity) -> bool {
    e.get_location().is_some_and(|l| l.is_in_system_header())
}

fn every_dimension() -> Vec<Special> {
    let ctors: [fn(Dim) -> Special; 4] = [
        Special::ThreadIdx,
        Special::BlockIdx,
        Special::BlockDim,
        Special::GridDim,
    ];
    ctors
        .iter()
        .flat_map(|c| [Dim::X, Dim::Y, Dim::Z].map(c))
        .collect()
}
