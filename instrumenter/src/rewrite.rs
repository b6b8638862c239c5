//! The rewrite proper: edits on byte ranges of the original text, properly nested (a wrapped
//! `b[i]` inside a wrapped `a[b[i]]`, wraps inside a kernel), rendered inner-first so each
//! wrapper is built around the already rewritten text of its operand: `a[b[i]]` becomes the
//! wrapper of `a[WRAP(b[i])]`. Edits nest or are disjoint.
//!
//! An lvalue `E` becomes `(*(decltype(&(E)))__gmrace_at(&(E), sizeof(E), ID, KIND, FLAGS))`; the
//! pointer `P` of an atomic becomes
//! `((decltype(&*(P)))__gmrace_at((P), sizeof(*(P)), ID, GMRACE_ATOMIC, FLAGS))`.

use crate::kernels::KernelText;
use crate::plan::{SiteKind, Wrap};
use crate::source::Source;
use crate::source_map::Mapped;

pub enum EditKind<'p> {
    /// Record the access of the expression in the range.
    Wrap(&'p Wrap),
    /// Replace the range by fixed text (its content is not rewritten further).
    Replace(String),
    /// The kernel from its parameter list to its end.
    Kernel(&'p KernelText),
}

pub struct Edit<'p> {
    pub lo: usize,
    pub hi: usize,
    pub kind: EditKind<'p>,
}

/// The text from `lo` on with every edit applied, mapped back to the original. Edits must nest
/// or be disjoint, and start at `lo` or later.
pub fn render(src: &Source, lo: usize, mut edits: Vec<Edit>) -> Mapped {
    edits.sort_by(|a, b| a.lo.cmp(&b.lo).then(b.hi.cmp(&a.hi)));
    render_range(src, lo, src.text.len(), &edits)
}

fn render_range(src: &Source, lo: usize, hi: usize, edits: &[Edit]) -> Mapped {
    let mut out = Mapped::default();
    let mut pos = lo;
    let mut i = 0;
    while i < edits.len() {
        let e = &edits[i];
        let mut j = i + 1;
        while j < edits.len() && edits[j].lo < e.hi {
            j += 1;
        }
        out.copy(src, pos, e.lo);
        out.append(apply(src, e, &edits[i + 1..j]));
        pos = e.hi;
        i = j;
    }
    out.copy(src, pos, hi);
    out
}

/// An edit's text. Wrappers and kernels are built around a NUL placeholder for their rewritten
/// operand or body, so the copies of the user's text inside keep their origin.
fn apply(src: &Source, e: &Edit, inner: &[Edit]) -> Mapped {
    let mut out = Mapped::default();
    match &e.kind {
        EditKind::Wrap(w) => {
            let operand = render_range(src, e.lo, e.hi, inner);
            out.around(&wrapper(w, "\0"), e.lo, &operand);
        }
        EditKind::Replace(text) => out.generated(text, e.lo),
        EditKind::Kernel(k) => {
            let body = render_range(src, k.body_lo, k.body_hi, inner);
            // The body comes last but for gmrace's closing text; the user's parameter list,
            // copied in before it, could hold a NUL of its own.
            let template = k.rewrite(src, "\0");
            match template.rsplit_once('\0') {
                Some((head, tail)) => {
                    out.generated(head, e.lo);
                    out.append(body);
                    out.generated(tail, k.body_hi);
                }
                None => out.generated(&template, e.lo),
            }
        }
    }
    out
}

/// The contract's access rewrite. `E` (or `P`) appears three times but is evaluated once: in
/// `&(E)`; `decltype` and `sizeof` do not evaluate their operands.
fn wrapper(w: &Wrap, e: &str) -> String {
    let flags = match (w.thread_invariant, w.loop_invariant) {
        (false, false) => "0u",
        (true, false) => "GMRACE_THREAD_INVARIANT",
        (false, true) => "GMRACE_LOOP_INVARIANT",
        (true, true) => "GMRACE_THREAD_INVARIANT | GMRACE_LOOP_INVARIANT",
    };
    let id = w.id;
    match w.kind {
        // `decltype(&*(P))` rather than `decltype(P)`: a pointer named by a reference or
        // declared `T *const` still gives the plain pointer type.
        SiteKind::Atomic => format!(
            "((decltype(&*({e})))__gmrace_at(({e}), sizeof(*({e})), {id}, GMRACE_ATOMIC, {flags}))"
        ),
        kind => format!(
            "(*(decltype(&({e})))__gmrace_at(&({e}), sizeof({e}), {id}, {}, {flags}))",
            kind.macro_name()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmrace_analyzer::ir::Span;

    fn wrap(id: u32, kind: SiteKind) -> Wrap {
        Wrap {
            id,
            span: Span::default(),
            kind,
            thread_invariant: false,
            loop_invariant: id == 1,
        }
    }

    #[test]
    fn nested_wraps_are_built_inner_first() {
        let text = "x = a[b[i]];";
        let src = Source::new(text);
        let (outer, inner) = (wrap(0, SiteKind::Read), wrap(1, SiteKind::Read));
        let edits = vec![
            Edit {
                lo: 6,
                hi: 10,
                kind: EditKind::Wrap(&inner),
            },
            Edit {
                lo: 4,
                hi: 11,
                kind: EditKind::Wrap(&outer),
            },
        ];
        let b = "(*(decltype(&(b[i])))__gmrace_at(&(b[i]), sizeof(b[i]), 1, GMRACE_READ, \
                 GMRACE_LOOP_INVARIANT))";
        let expected = format!(
            "x = (*(decltype(&(a[{b}])))__gmrace_at(&(a[{b}]), sizeof(a[{b}]), 0, GMRACE_READ, 0u));"
        );
        assert_eq!(render(&src, 0, edits).text, expected);
    }
}
