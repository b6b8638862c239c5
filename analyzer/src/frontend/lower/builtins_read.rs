//! The built-in variables a kernel's source reads (`threadIdx.y`, `gridDim.z`, ...), itself or
//! through the functions it calls, whether the lowering kept the code that reads them or not.
//!
//! A launch extent no code of the kernel reads is taken as 1 (`analysis/launch.rs`). Read from
//! the IR alone, that made every construct the lowering leaves opaque a way to lose a read: a
//! `for` header it could not split, an unsupported expression around `threadIdx.x`. The
//! kernel then ran on one thread and its races were proved away. The source says what the code
//! reads even where the IR does not. A virtual call may run any overrider of its method in the
//! file (`virtuals.rs`): each is followed. Every object is built and destroyed, so the default
//! member initializers and the destructors of the class of every value and variable are
//! followed (for `delete`, the overriders' destructors too). A call
//! into code the file does not hold (a function only declared, a pointer no function of the
//! file matches) may read anything: the lowering then counts every dimension as read
//! (`KernelLowerer::unseen_code`). A variable used whole (`uint3 t = threadIdx;`,
//! `f(threadIdx)`) reads its three members; the special registers an inline PTX statement names
//! (`asm.rs`) and clang's `__nvvm_read_ptx_sreg_*` builtins are reads too.
//!
//! Functions of system headers are not followed from the code the IR holds: the lowering
//! models them as a GPU runs them (cooperative groups' lane number reads only `x`, though
//! written with all three), and what it reads of them stands in the IR. From the expressions
//! and statements the lowering dropped (`KernelLowerer::dropped`) every call is followed, the
//! library's too: nothing of what they read stands in the IR
//! (`cg::this_thread_block().thread_rank()` in a structured binding).

use super::expr::{builtin_variable, member_base, special_member, Builtin};
use super::lifetime::{class_of, default_initializers, destructors};
use crate::collections::HashSet;
use crate::frontend::builtins::special_register;
use crate::frontend::cursor::visit;
use crate::frontend::virtuals::{dynamic_targets, implementations};
use crate::ir::*;
use clang::{Entity, EntityKind};

/// At most this many function bodies are read; past it, every dimension counts as read.
const MAX_FUNCTIONS: usize = 4096;

pub(super) fn builtins_read(kernel: Entity, dropped: &[Entity]) -> Vec<Special> {
    let mut reads = Reads::default();
    // The library's functions are what the IR inlines, except where the lowering dropped
    // their call.
    let complete = reads.walk(vec![(kernel, Some(kernel))], |f| !in_system_header(f))
        && reads.walk(dropped.iter().map(|d| (*d, None)).collect(), |_| true);
    match complete {
        true => reads.found,
        false => every_dimension(),
    }
}

#[derive(Default)]
struct Reads {
    found: Vec<Special>,
    functions: usize,
}

impl Reads {
    /// Adds what `pending` read (each with the function whose body it is, if it is one),
    /// following the calls to the functions `follow` accepts; false past `MAX_FUNCTIONS`.
    fn walk<'tu>(
        &mut self,
        mut pending: Vec<(Entity<'tu>, Option<Entity<'tu>>)>,
        follow: impl Fn(Entity) -> bool,
    ) -> bool {
        let mut seen: HashSet<Entity> = HashSet::default();
        // The names that are the object of a member read: the member says what is read.
        let mut members_read: HashSet<Entity> = HashSet::default();
        while let Some((root, inlined)) = pending.pop() {
            if !seen.insert(root) {
                continue;
            }
            self.functions += 1;
            if self.functions > MAX_FUNCTIONS {
                return false;
            }
            visit(root, &mut |x| {
                // Every object is destroyed: its class's destructors run where it is.
                let destroyed = match x.get_kind() {
                    EntityKind::DeleteExpr => deleted_class(x).map(|c| (c, true)),
                    _ => x.get_type().and_then(class_of).map(|c| (c, false)),
                };
                if let Some((class, dynamic)) = destroyed {
                    let runs = destructors_run(class, dynamic).into_iter();
                    pending.extend(runs.filter(|d| follow(*d)).map(|d| (d, Some(d))));
                    // ... and built, maybe by default member initializers (`P p{1};` runs
                    // `unsigned t = threadIdx.y;`, which no constructor's body shows).
                    if !dynamic {
                        pending.extend(default_initializers(class).into_iter().map(|i| (i, None)));
                    }
                }
                match x.get_kind() {
                    EntityKind::MemberRefExpr if self.member(x, inlined) => {
                        members_read.extend(member_base(x));
                    }
                    // A whole variable copied or passed on (`uint3 t = threadIdx;`): each of its
                    // members may be read.
                    EntityKind::DeclRefExpr if !members_read.contains(&x) => {
                        if let Some(ctor) = builtin_variable(x) {
                            self.add([Dim::X, Dim::Y, Dim::Z].map(ctor).to_vec());
                        }
                    }
                    EntityKind::AsmStmt => self.add(super::asm::asm_reads(x)),
                    EntityKind::CallExpr => {
                        let register = x.get_name().as_deref().and_then(special_register);
                        self.add(register.into_iter().collect());
                        let callee = x.get_reference().and_then(|c| c.get_definition());
                        let callees = dynamic_targets(x).unwrap_or(callee.into_iter().collect());
                        let followed = callees.into_iter().filter(|d| follow(*d));
                        pending.extend(followed.map(|d| (d, Some(d))));
                    }
                    _ => {}
                }
            });
        }
        true
    }

    /// Adds what the member expression `x` reads of a built-in variable; whether it is one.
    fn member(&mut self, x: Entity, inlined: Option<Entity>) -> bool {
        match special_member(x, inlined) {
            Some(Builtin::Member(Expr {
                kind: ExprKind::Special(s),
                ..
            })) => self.add(vec![s]),
            Some(Builtin::AnyOf(ctor)) => self.add([Dim::X, Dim::Y, Dim::Z].map(ctor).to_vec()),
            _ => return false,
        }
        true
    }

    fn add(&mut self, specials: Vec<Special>) {
        for s in specials {
            if !self.found.contains(&s) {
                self.found.push(s);
            }
        }
    }
}

/// The class of the object `delete p` destroys: `p`'s pointee.
fn deleted_class(delete: Entity) -> Option<Entity> {
    let pointer = delete
        .get_children()
        .into_iter()
        .find(|c| c.is_expression())?;
    class_of(
        pointer
            .get_type()?
            .get_canonical_type()
            .get_pointee_type()?,
    )
}

/// The destructors destroying an object of `class` runs; with `dynamic`, also those of the
/// classes that override its virtual destructor (`delete base`).
fn destructors_run(class: Entity, dynamic: bool) -> Vec<Entity> {
    let mut classes = vec![class];
    let virtual_destructor = class
        .get_children()
        .into_iter()
        .find(|c| c.get_kind() == EntityKind::Destructor && c.is_virtual_method());
    if let Some(d) = virtual_destructor.filter(|_| dynamic) {
        let overriders = implementations(d).into_iter();
        classes.extend(overriders.filter_map(|o| o.get_semantic_parent()));
    }
    classes
        .into_iter()
        .flat_map(|c| destructors(c, 0))
        .collect()
}

fn in_system_header(e: Entity) -> bool {
    e.get_location().is_some_and(|l| l.is_in_system_header())
}

pub(super) fn every_dimension() -> Vec<Special> {
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
