//! Helpers over libclang's cursors that every part of the front end uses: walking a subtree,
//! skipping transparent wrappers, reading an operator's spelling, the variable an address is
//! based on, and a file's bytes as clang parsed them. They depend on nothing of the lowering,
//! so the lowering, the launch scan and the error recovery all share them without a cycle.

use super::builtins::{self, Builtin};
use super::types::{classify, CType};
use clang::{Entity, EntityKind, TranslationUnit};

/// The `#include` directives the parse `tu` read (in the file and in the headers it read,
/// not in what was precompiled).
pub(crate) fn inclusion_directives<'tu>(tu: &'tu TranslationUnit<'tu>) -> Vec<Entity<'tu>> {
    tu.get_entity()
        .get_children()
        .into_iter()
        .filter(|e| e.get_kind() == EntityKind::InclusionDirective)
        .collect()
}

/// Whether `e` is `scope` or among the cursors below it.
pub(crate) fn contains(scope: Entity, e: Entity) -> bool {
    let mut found = false;
    visit(scope, &mut |x| found |= x == e);
    found
}

/// The statements of a function's own body, not those of blocks nested in it: without jumps,
/// each runs once, in order, on every path through the function.
pub(crate) fn body_statements(func: Entity) -> Option<Vec<Entity>> {
    let body = func
        .get_children()
        .into_iter()
        .find(|c| c.get_kind() == EntityKind::CompoundStmt)?;
    Some(body.get_children())
}

/// Where `e` starts in its file, as a byte offset: the order of two cursors of one function.
pub(crate) fn start_offset(e: Entity) -> Option<u32> {
    e.get_range()
        .map(|r| r.get_start().get_file_location().offset)
}

pub(crate) fn visit<'tu>(e: Entity<'tu>, f: &mut impl FnMut(Entity<'tu>)) {
    f(e);
    for c in e.get_children() {
        visit(c, f);
    }
}

/// Skips parentheses and clang's unexposed wrappers that keep the type unchanged.
pub(crate) fn skip_transparent(mut e: Entity) -> Entity {
    loop {
        let kids = e.get_children();
        let same_ty = |c: &Entity| {
            c.get_type().map(|t| t.get_canonical_type())
                == e.get_type().map(|t| t.get_canonical_type())
        };
        match e.get_kind() {
            EntityKind::ParenExpr if kids.len() == 1 => e = kids[0],
            EntityKind::UnexposedExpr if kids.len() == 1 && same_ty(&kids[0]) => e = kids[0],
            _ => return e,
        }
    }
}

/// The parameters of the template `f` is an instantiation of, in order (the order of its
/// template arguments).
pub(crate) fn template_params(f: Entity) -> Vec<Entity> {
    let children = f.get_template().map(|t| t.get_children());
    children
        .unwrap_or_default()
        .into_iter()
        .filter(|c| {
            matches!(
                c.get_kind(),
                EntityKind::TemplateTypeParameter
                    | EntityKind::NonTypeTemplateParameter
                    | EntityKind::TemplateTemplateParameter
            )
        })
        .collect()
}

pub(crate) fn has_attr(e: Entity, kind: EntityKind) -> bool {
    e.get_children().iter().any(|c| c.get_kind() == kind)
}

/// The operator of a unary expression, read from the source at the operator's location
/// (libclang names binary operators but not unary ones). Postfix forms get a `post` suffix.
pub(crate) fn unary_op_text(e: Entity) -> Option<String> {
    let child = e.get_children().into_iter().next()?;
    op_at_source(e, child).or_else(|| op_from_types(e, child))
}

/// `*` or `&` told from the operand's and the result's types, for an operator with no source
/// of its own (`*this` in an implicit `operator=`).
fn op_from_types(e: Entity, child: Entity) -> Option<String> {
    let (t, ct) = (
        e.get_type()?.get_canonical_type(),
        child.get_type()?.get_canonical_type(),
    );
    if pointee(ct) == Some(t) {
        Some("*".into())
    } else if pointee(t) == Some(ct) {
        Some("&".into())
    } else {
        None
    }
}

fn pointee(p: clang::Type) -> Option<clang::Type> {
    p.get_pointee_type().map(|x| x.get_canonical_type())
}

fn op_at_source(e: Entity, child: Entity) -> Option<String> {
    let tu = e.get_translation_unit();
    let at = |loc: clang::source::SourceLocation| -> Option<(Vec<u8>, usize)> {
        let l = loc.get_spelling_location();
        Some((clang_file_bytes(tu, l.file?), l.offset as usize))
    };
    let (bytes, op_off) = at(e.get_location()?)?;
    // A postfix operator's operand starts where the expression does (the operand's own
    // location is not its start: `n` in `s->n++`).
    let start = |x: Entity| {
        x.get_range()
            .map(|r| r.get_start().get_spelling_location().offset)
    };
    let prefix = |off: usize| -> Option<String> {
        let s = bytes.get(off..(off + 3).min(bytes.len()))?;
        for op in ["++", "--", "&", "*", "-", "+", "!", "~"] {
            if s.starts_with(op.as_bytes()) {
                return Some(op.to_string());
            }
        }
        if s.starts_with(b"__e") {
            return Some("__extension__".into());
        }
        None
    };
    if start(e) != start(child) {
        return prefix(op_off);
    }
    // Postfix: the operator follows the operand's extent.
    let end = child.get_range()?.get_end().get_spelling_location().offset as usize;
    let mut i = end;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    prefix(i).map(|op| format!("{op}post"))
}

/// The variable an address expression is based on, for reports (`s` in `s[i][j]`).
pub(crate) fn root_name(e: Entity) -> Option<String> {
    let e = skip_transparent(e);
    match e.get_kind() {
        EntityKind::DeclRefExpr => e.get_name(),
        EntityKind::ArraySubscriptExpr | EntityKind::UnexposedExpr | EntityKind::ParenExpr => {
            root_name(*e.get_children().first()?)
        }
        EntityKind::CStyleCastExpr
        | EntityKind::StaticCastExpr
        | EntityKind::ReinterpretCastExpr => {
            root_name(e.get_children().into_iter().rfind(|k| k.is_expression())?)
        }
        EntityKind::MemberRefExpr => {
            let field = e.get_name()?;
            match e.get_children().into_iter().find(|c| c.is_expression()) {
                Some(b) => Some(format!("{}.{field}", root_name(b)?)),
                None => Some(field),
            }
        }
        EntityKind::BinaryOperator => {
            let kids = e.get_children();
            kids.iter()
                .find(|k| {
                    matches!(
                        classify_opt(**k),
                        Some(CType::Ptr(_)) | Some(CType::Array { .. })
                    )
                })
                .and_then(|k| root_name(*k))
        }
        EntityKind::UnaryOperator => root_name(*e.get_children().first()?),
        _ => None,
    }
}

fn classify_opt(e: Entity) -> Option<CType> {
    e.get_type().map(classify)
}

/// Whether evaluating `e` may write memory or variables (assignments, `++`, non-pure calls).
pub(crate) fn has_side_effects(e: Entity) -> bool {
    let mut found = false;
    visit(e, &mut |x| {
        found |= match x.get_kind() {
            EntityKind::BinaryOperator => x.get_display_name().as_deref() == Some("="),
            EntityKind::CompoundAssignOperator => true,
            EntityKind::UnaryOperator => matches!(
                unary_op_text(x).as_deref(),
                Some("++" | "--" | "++post" | "--post")
            ),
            EntityKind::CallExpr => !x
                .get_reference()
                .and_then(|d| d.get_name())
                .and_then(|n| builtins::lookup(&n))
                .is_some_and(|b| {
                    matches!(
                        b,
                        Builtin::Intrinsic(_) | Builtin::Binary(_) | Builtin::Convert(_)
                    )
                }),
            _ => false,
        }
    });
    found
}

/// The bytes of `file` as the user wrote them, at the offsets clang parsed. The main file was
/// given to clang as text (with instantiations appended and respelled), so clang's copy is
/// read; an included file is read from disk: clang's copy of a header may be respelled (the
/// same offsets, other bytes), and `File::get_contents` panics on one that is not UTF-8.
pub(crate) fn clang_file_bytes(tu: &TranslationUnit, file: clang::source::File) -> Vec<u8> {
    let is_main = || {
        tu.get_entity()
            .get_name()
            .and_then(|main| tu.get_file(main))
            .is_some_and(|main| main == file)
    };
    match std::fs::read(file.get_path()) {
        Ok(bytes) if !is_main() => bytes,
        _ => file.get_contents().unwrap_or_default().into_bytes(),
    }
}
