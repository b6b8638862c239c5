//! What C++ runs for an object without a call in the source: constructors' implicit parts and
//! destructors.
//!
//! A constructor constructs its bases, then initialises each member from the constructor's
//! list, else from its default member initializer (`unsigned t = threadIdx.y;`), else with
//! the member's own default constructor; then it runs its body. A constructor the class
//! declares implicitly has no cursor of its own and does the same with no list. A local
//! object whose class (or a member's, or a base's) has a destructor with a body is destroyed
//! at the end of its block. Before, none of this ran: a default member initializer's read of
//! `threadIdx.y` and a destructor's write to global memory were missing from the IR, the
//! kernel ran on one thread and its races were proved away.
//!
//! A copy or move constructor with a body of the user's runs where C++ copies (an argument by
//! value, `T b = a;`); before, every copy was one of bytes. An implicit one copies bytes and
//! its members' own copy constructors run as an opaque statement; so does the copy of
//! `return x;`, which the compiler may elide (NRVO) or not.
//!
//! A jump out of a block (`return`, `break`, `continue`, `goto`) destroys the block's objects
//! too, and a statement's end its temporaries: there the destructors are an opaque statement,
//! and `builtins_read` reads them as dropped code. Bases are built and destroyed in objects of their own (libclang does not
//! give a base's offset): what a thread reads back from its own objects is an unknown value
//! (`symbolic.rs`), so where their bytes lie changes no verdict.

use super::{Frame, KernelLowerer, Place};
use crate::collections::HashSet;
use crate::frontend::cursor::skip_transparent;
use crate::frontend::types::{classify, CType};
use crate::ir::*;
use clang::{Entity, EntityKind};

/// Classes nest (as bases and members) at most this deep here; deeper parts are not built.
const MAX_NESTING: usize = 16;

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    /// Runs a constructor on `target`: bases, members and body, inlined. One without a body
    /// here (implicit, or defined in another file) does what an implicit one does.
    pub(super) fn construct_in(
        &mut self,
        ctor: Entity<'tu>,
        args: &[Entity<'tu>],
        target: Place,
        span: Span,
    ) {
        let Some(def) = ctor.get_definition().filter(|d| has_body(*d)) else {
            if let Some(class) = ctor.get_semantic_parent() {
                self.implicit_construct(class, target, span, 0);
            }
            return;
        };
        if self.call_stack.contains(&def) {
            self.emit(
                StmtKind::Opaque {
                    reason: "recursive constructor".into(),
                },
                span,
            );
            return;
        }
        self.inline(def, args, Some(target), span);
    }

    /// `: Base(a), x(a), y(b)` of the constructor being inlined (libclang lists a base as a
    /// `TypeRef`, a member as a `MemberRef`, each followed by its initializer), then the bases
    /// and members the list leaves out.
    pub(super) fn member_initializers(&mut self, ctor: Entity<'tu>, span: Span) {
        let kids = ctor.get_children();
        let mut listed = HashSet::default();
        for (i, k) in kids.iter().enumerate() {
            let Some(init) = kids.get(i + 1).filter(|x| x.is_expression()) else {
                continue;
            };
            match (k.get_kind(), k.get_reference()) {
                (EntityKind::MemberRef, Some(field)) => {
                    listed.insert(field);
                    self.init_member(field, *init, span);
                }
                (EntityKind::TypeRef, Some(base)) => {
                    listed.insert(base.get_canonical_entity());
                    self.effect(*init);
                }
                _ => {}
            }
        }
        if let Some(class) = ctor.get_semantic_parent() {
            self.implicit_parts(class, &listed, span, 0);
        }
    }

    /// Destroys the objects `frame().objects` holds past `mark`, the last declared first.
    pub(super) fn destroy_objects(&mut self, mark: usize, span: Span) {
        while self.frame().objects.len() > mark {
            match self.frame_mut().objects.pop() {
                Some((class, Some(place))) => self.destroy(class, place, span, 0),
                Some((class, None)) => self.opaque_calls(
                    destructors(class, 0),
                    "destructors of a temporary a reference may keep",
                    span,
                ),
                None => break,
            }
        }
    }

    /// A copy by an implicit copy or move constructor, done as a copy of bytes: its bases' and
    /// members' own copy constructors with a body run too, here opaquely.
    pub(super) fn implicit_copy(&mut self, class: Entity<'tu>, span: Span) {
        let parts = bases(class)
            .into_iter()
            .chain(fields(class).into_iter().filter_map(record_class));
        let found = parts.flat_map(|c| special_members(c, copy_constructors, 0));
        self.opaque_calls(found.collect(), "copy constructors of members", span);
    }

    /// `return x;` of a local object whose class copies or moves with a body of the user's:
    /// the compiler may construct `x` in the caller's slot and run no copy (NRVO, which clang
    /// does), or copy it. Either way: bytes copied, and the constructor an opaque call. Whether
    /// `value` was such a return.
    pub(super) fn elidable_copy(&mut self, slot: &Place, value: Entity<'tu>, span: Span) -> bool {
        let value = skip_transparent(value);
        let Some(ctor) = value.get_reference() else {
            return false;
        };
        let args = value.get_arguments().unwrap_or_default();
        let local = args.first().map(|a| skip_implicit(*a)).filter(|a| {
            a.get_kind() == EntityKind::DeclRefExpr
                && a.get_reference()
                    .is_some_and(|v| v.get_kind() == EntityKind::VarDecl)
        });
        let copies = ctor.get_kind() == EntityKind::Constructor && !copies_bytes(ctor);
        let (true, Some(local)) = (
            copies && (ctor.is_copy_constructor() || ctor.is_move_constructor()),
            local,
        ) else {
            return false;
        };
        let src = self.aggregate(local);
        self.copy_aggregate(slot, &src, span);
        let def = ctor.get_definition().unwrap_or(ctor);
        self.opaque_calls(vec![def], "a copy the compiler may elide", span);
        true
    }

    /// Member `index` of an aggregate initialised by a braced list that leaves it out: from
    /// its default member initializer if it has one (then true). Only for a class without
    /// bases, whose list's items are its members in order.
    pub(super) fn default_member(
        &mut self,
        class: Entity<'tu>,
        object: &Place,
        index: usize,
        span: Span,
    ) -> bool {
        let field = fields(class).get(index).copied();
        let Some((field, init)) = field.and_then(|f| Some((f, default_initializer(f)?))) else {
            return false;
        };
        if !bases(class).is_empty() {
            return false;
        }
        self.with_this(object.clone(), |s| s.init_member(field, init, span));
        true
    }

    /// Special member functions that run at `span` in a way not modelled: an opaque statement,
    /// and code `builtins_read` reads as dropped.
    pub(super) fn opaque_calls(&mut self, found: Vec<Entity<'tu>>, reason: &str, span: Span) {
        if found.is_empty() {
            return;
        }
        self.dropped.extend(found);
        self.emit(
            StmtKind::Opaque {
                reason: reason.into(),
            },
            span,
        );
    }

    /// A jump leaves the blocks of the objects in `frame().objects`: their destructors run
    /// here, unmodelled.
    pub(super) fn jump_past_objects(&mut self, span: Span) {
        let found = self.frame().objects.iter();
        let found = found.flat_map(|(c, _)| destructors(*c, 0)).collect();
        self.opaque_calls(found, "destructors run by a jump", span);
    }

    /// A local object just declared, or a temporary a reference keeps: destroyed at the end of
    /// its block if its class needs it. `None`: a temporary that may or may not be kept.
    pub(super) fn track_object(&mut self, ty: Option<clang::Type<'tu>>, place: Option<Place>) {
        if let Some(class) = ty.and_then(class_of).filter(|c| needs_destruction(*c, 0)) {
            self.frame_mut().objects.push((class, place));
        }
    }

    fn implicit_construct(&mut self, class: Entity<'tu>, target: Place, span: Span, depth: usize) {
        if !needs_construction(class, depth) {
            return;
        }
        self.with_this(target, |s| {
            s.implicit_parts(class, &HashSet::default(), span, depth)
        });
    }

    fn default_construct(&mut self, class: Entity<'tu>, target: Place, span: Span, depth: usize) {
        let ctor = class
            .get_children()
            .into_iter()
            .find(|c| c.get_kind() == EntityKind::Constructor && c.is_default_constructor());
        match ctor
            .and_then(|c| c.get_definition())
            .filter(|d| has_body(*d))
        {
            Some(def) => self.construct_in(def, &[], target, span),
            None => self.implicit_construct(class, target, span, depth + 1),
        }
    }

    /// The bases and members of `class` not in `listed`, built as an implicit constructor
    /// builds them, on `frame().this`.
    fn implicit_parts(
        &mut self,
        class: Entity<'tu>,
        listed: &HashSet<Entity<'tu>>,
        span: Span,
        depth: usize,
    ) {
        if depth > MAX_NESTING {
            return;
        }
        for base in bases(class) {
            if !listed.contains(&base.get_canonical_entity()) && needs_construction(base, depth) {
                let temp = self.new_local_mem("%base", record_type(base), span);
                self.default_construct(base, temp, span, depth + 1);
            }
        }
        for field in fields(class) {
            if listed.contains(&field) {
                continue;
            }
            if let Some(init) = default_initializer(field) {
                self.init_member(field, init, span);
            } else if let Some(member_class) = record_class(field) {
                if needs_construction(member_class, depth) {
                    if let Some(place) = self.member_place(field) {
                        self.default_construct(member_class, place, span, depth + 1);
                    }
                }
            }
        }
    }

    /// Runs `class`'s destructor on `place`: its body, then its members' and bases'.
    fn destroy(&mut self, class: Entity<'tu>, place: Place, span: Span, depth: usize) {
        if depth > MAX_NESTING || !needs_destruction(class, depth) {
            return;
        }
        if let Some(def) = destructor(class) {
            if self.call_stack.contains(&def) {
                return;
            }
            self.inline(def, &[], Some(place.clone()), span);
        }
        self.with_this(place, |s| {
            for field in fields(class).into_iter().rev() {
                if let Some(member_class) = record_class(field) {
                    if let Some(p) = s.member_place(field) {
                        s.destroy(member_class, p, span, depth + 1);
                    }
                }
            }
        });
        for base in bases(class).into_iter().rev() {
            if needs_destruction(base, depth + 1) {
                let temp = self.new_local_mem("%base", record_type(base), span);
                self.destroy(base, temp, span, depth + 1);
            }
        }
    }

    fn init_member(&mut self, field: Entity<'tu>, init: Entity<'tu>, span: Span) {
        let Some(Place::Mem { addr, array, .. }) = self.frame().this.clone() else {
            return;
        };
        let (Ok(bits), Some(fty)) = (field.get_offset_of_field(), field.get_type()) else {
            return;
        };
        let at = super::ptr_add(addr, bits as i64 / 8);
        match classify(fty) {
            CType::Ref(inner) => self.bind_ref_member(at, *inner, init, array, span),
            ty => {
                let target = Place::Mem {
                    addr: at,
                    ty,
                    array,
                    site: Site::Implicit,
                };
                self.init_place(&target, init, span);
            }
        }
    }

    fn member_place(&self, field: Entity<'tu>) -> Option<Place> {
        let Some(Place::Mem { addr, array, .. }) = self.frame().this.clone() else {
            return None;
        };
        let bits = field.get_offset_of_field().ok()?;
        Some(Place::Mem {
            addr: super::ptr_add(addr, bits as i64 / 8),
            ty: classify(field.get_type()?),
            array,
            site: Site::Implicit,
        })
    }

    fn with_this(&mut self, this: Place, f: impl FnOnce(&mut Self)) {
        self.frames.push(Frame {
            this: Some(this),
            ..Frame::default()
        });
        f(self);
        self.frames.pop();
    }
}

/// Whether a function's cursor holds its body (a declaration does not).
pub(super) fn has_body(f: Entity) -> bool {
    f.get_children()
        .iter()
        .any(|c| c.get_kind() == EntityKind::CompoundStmt)
}

fn bases(class: Entity) -> Vec<Entity> {
    class
        .get_children()
        .into_iter()
        .filter(|c| c.get_kind() == EntityKind::BaseSpecifier)
        .filter_map(|b| b.get_type()?.get_canonical_type().get_declaration())
        .filter_map(|d| d.get_definition())
        .collect()
}

fn fields(class: Entity) -> Vec<Entity> {
    class
        .get_children()
        .into_iter()
        .filter(|c| c.get_kind() == EntityKind::FieldDecl)
        .collect()
}

/// A member's default member initializer: its last expression, which is not a bit-field's
/// width nor an array's length (an array's initializer is a list).
fn default_initializer(field: Entity) -> Option<Entity> {
    let exprs: Vec<Entity> = field
        .get_children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect();
    let init = *exprs.last()?;
    let is_array = field
        .get_type()
        .is_some_and(|t| t.get_canonical_type().get_element_type().is_some());
    let sized = field.is_bit_field() || is_array;
    match (sized, exprs.len()) {
        (false, _) => Some(init),
        (true, 2..) => Some(init),
        (true, _) if is_array && init.get_kind() == EntityKind::InitListExpr => Some(init),
        _ => None,
    }
}

/// The class of a member of class type (not of an array of them).
fn record_class(field: Entity) -> Option<Entity> {
    class_of(field.get_type()?)
}

/// The class a type names, defined.
pub(super) fn class_of(t: clang::Type) -> Option<Entity> {
    t.get_canonical_type()
        .get_declaration()
        .filter(|d| matches!(d.get_kind(), EntityKind::StructDecl | EntityKind::ClassDecl))
        .and_then(|d| d.get_definition())
}

fn record_type(class: Entity) -> CType {
    class.get_type().map(classify).unwrap_or(CType::Void)
}

/// The destructor `class` defines with a body.
fn destructor(class: Entity) -> Option<Entity> {
    class
        .get_children()
        .into_iter()
        .find(|c| c.get_kind() == EntityKind::Destructor)
        .and_then(|d| d.get_definition())
        .filter(|d| has_body(*d))
}

/// The destructors with a body that destroying `class` runs.
pub(super) fn destructors(class: Entity, depth: usize) -> Vec<Entity> {
    special_members(class, |c| destructor(c).into_iter().collect(), depth)
}

/// What `own` picks from `class` and, recursively, from its bases and members of class type:
/// the special member functions that building, copying or destroying it runs.
fn special_members<'tu>(
    class: Entity<'tu>,
    own: fn(Entity<'tu>) -> Vec<Entity<'tu>>,
    depth: usize,
) -> Vec<Entity<'tu>> {
    if depth > MAX_NESTING {
        return Vec::new();
    }
    let parts = bases(class)
        .into_iter()
        .chain(fields(class).into_iter().filter_map(record_class));
    own(class)
        .into_iter()
        .chain(parts.flat_map(|c| special_members(c, own, depth + 1)))
        .collect()
}

/// The default member initializers building `class` may run: its own, its bases' and its
/// members'.
pub(super) fn default_initializers(class: Entity) -> Vec<Entity> {
    let own = |c| {
        fields(c)
            .into_iter()
            .filter_map(default_initializer)
            .collect()
    };
    special_members(class, own, 0)
}

/// The copy and move constructors with a body of the user's that `class` declares.
fn copy_constructors(class: Entity) -> Vec<Entity> {
    let ctors = class.get_children().into_iter().filter(|c| {
        c.get_kind() == EntityKind::Constructor
            && (c.is_copy_constructor() || c.is_move_constructor())
    });
    ctors
        .filter_map(|c| c.get_definition())
        .filter(|d| has_body(*d) && !is_implicit(*d))
        .collect()
}

/// Whether constructor `ctor` copies bytes: a copy or move constructor with no body of the
/// user's (defaulted, or implicit: libclang shows an implicit one's body, empty, but not the
/// member copies it makes).
pub(super) fn copies_bytes(ctor: Entity) -> bool {
    let def = ctor.get_definition().unwrap_or(ctor);
    (ctor.is_copy_constructor() || ctor.is_move_constructor())
        && (!has_body(def) || is_implicit(def))
}

/// `e` under parentheses and clang's implicit nodes (`std::move`'s cast of `return x;`).
fn skip_implicit(e: Entity) -> Entity {
    match e.get_children().as_slice() {
        [k] if matches!(
            e.get_kind(),
            EntityKind::ParenExpr | EntityKind::UnexposedExpr
        ) =>
        {
            skip_implicit(*k)
        }
        _ => e,
    }
}

/// Whether member `f` is one the compiler declared: it stands where its class's name does.
fn is_implicit(f: Entity) -> bool {
    let parent = f.get_semantic_parent();
    parent.is_some_and(|c| c.get_location() == f.get_location())
}

/// Whether building `class` by default runs code: a default member initializer, or a base or
/// member whose default constructor has a body or needs the same.
fn needs_construction(class: Entity, depth: usize) -> bool {
    if depth > MAX_NESTING {
        return false;
    }
    let user_default = |c: Entity| {
        c.get_children().into_iter().any(|k| {
            k.get_kind() == EntityKind::Constructor
                && k.is_default_constructor()
                && k.get_definition().is_some_and(has_body)
        })
    };
    let part = |c: Entity| user_default(c) || needs_construction(c, depth + 1);
    bases(class).into_iter().any(part)
        || fields(class)
            .into_iter()
            .any(|f| default_initializer(f).is_some() || record_class(f).is_some_and(part))
}

/// Whether destroying `class` runs code: a destructor with a body, its own, a base's or a
/// member's.
pub(super) fn needs_destruction(class: Entity, depth: usize) -> bool {
    !destructors(class, depth).is_empty()
}
