//! The shared-layout records: for each shared variable of a kernel that records accesses, a
//! call `__gmrace_shared(&var, sizeof(var), index)` (`0u` for the size of an `extern __shared__`
//! array) that reports where the device put it. The host names a racy shared-window offset with
//! this table, the same way on every device: on a GPU ptxas places the shared variables (and
//! sm_80 and later reserve the window's first KiB), so only the running program can tell the
//! host; the CPU device places them its own way.
//!
//! A variable at namespace scope is reported at kernel entry, by its qualified name
//! (`ir::SharedVar::qualified`, from libclang's lexical and semantic parents), if declared
//! before the kernel; one declared in a function (kernel or device function), right after the
//! `;` of its declaration, where its name is in scope (two declarators share one edit). Indices
//! are per declaration, in source order, file-wide (the plan's `shared`).
//!
//! A variable neither way can name is not reported: its racy bytes are reported by window
//! offset, and the kernel's plan says why. That is a declaration in an included file, after the
//! kernel, or written by a macro (the statement must say `__shared__` and the name: a macro may
//! have opened a scope of its own), or one in a function that a kernel recording nothing also
//! runs (such a kernel need not enter the runtime).

use crate::kernels::KernelText;
use crate::plan::{KernelPlan, SharedDecl};
use crate::source::Source;
use gmrace_analyzer::ir::{Module, SharedVar};

/// What the rewrite adds.
#[derive(Default)]
pub struct Records {
    /// The table, by index.
    pub decls: Vec<SharedDecl>,
    /// Calls to insert right after the `;` at each offset (a declaration's end).
    pub after: Vec<(usize, String)>,
    /// Calls to make at entry, per kernel definition (`KernelText::body_lo`).
    pub entry: Vec<(usize, String)>,
    /// Per kernel (index in the module): the variables it cannot report, and why.
    pub notes: Vec<(usize, String)>,
}

/// Where a variable is reported.
enum Place {
    Entry(String),
    /// The offset of the `;` that ends the declaration.
    AfterDeclaration(usize),
}

/// The records for every kernel that runs under the runtime (`KernelPlan::checked`; the others
/// need no table and never enter the runtime). A declaration in a function is reported where
/// it is, for every kernel that reaches it, so it is reported only when every kernel that uses
/// it runs under the runtime.
pub fn records(
    src: &Source,
    module: &Module,
    kernels: &[KernelText],
    plans: &[KernelPlan],
) -> Records {
    let mut r = Records::default();
    let checking = |ki: usize| plans.get(ki).is_some_and(|p| p.checked);
    // (variable, where the call goes, how it is named there, at entry)
    let mut found: Vec<(&SharedVar, usize, String, bool)> = Vec::new();
    for (ki, k) in module.kernels.iter().enumerate() {
        if !checking(ki) {
            continue;
        }
        let Some(text) = src
            .range(k.span)
            .and_then(|(_, hi)| kernels.iter().find(|t| t.body_hi == hi))
        else {
            continue;
        };
        for s in &k.shared {
            let used_unchecked =
                module.kernels.iter().enumerate().any(|(kj, other)| {
                    !checking(kj) && other.shared.iter().any(|o| o.span == s.span)
                });
            match place(src, s, text) {
                Ok(Place::AfterDeclaration(_)) if used_unchecked => Err(
                    "it is declared in a function that a kernel running as written also runs"
                        .to_string(),
                ),
                p => p,
            }
            .map_or_else(
                |why| {
                    let note = format!(
                        "shared variable `{}` (line {}) cannot report its place to the runtime \
                         ({why}): its racy bytes are reported by shared-window offset",
                        s.name, s.span.line
                    );
                    if !r.notes.contains(&(ki, note.clone())) {
                        r.notes.push((ki, note));
                    }
                },
                |p| match p {
                    Place::Entry(q) => found.push((s, text.body_lo, q, true)),
                    Place::AfterDeclaration(semi) => found.push((s, semi, s.name.clone(), false)),
                },
            );
        }
    }
    // Indices in source order, one per declaration.
    let mut spans: Vec<_> = found.iter().map(|(s, ..)| (s.span, &s.name)).collect();
    spans.sort_by_key(|(sp, name)| (sp.file, sp.line, sp.column, name.as_str()));
    spans.dedup();
    for (span, name) in &spans {
        let s = found.iter().find(|(s, ..)| s.span == *span).map(|f| f.0);
        r.decls.push(SharedDecl {
            index: r.decls.len() as u32,
            name: name.to_string(),
            line: span.line,
            column: span.column,
            dynamic: s.is_some_and(|s| s.size_bytes.is_none()),
        });
    }
    for (s, at, name, entry) in &found {
        let index = spans
            .iter()
            .position(|(sp, n)| *sp == s.span && **n == s.name)
            .unwrap_or_default();
        // An `extern __shared__` array has no size of its own: the launch gives it.
        let size = match s.size_bytes {
            Some(_) => format!("sizeof({name})"),
            None => "0u".to_string(),
        };
        let call = (*at, format!("__gmrace_shared(&{name}, {size}, {index}u);"));
        let list = if *entry { &mut r.entry } else { &mut r.after };
        if !list.contains(&call) {
            list.push(call);
        }
    }
    r
}

/// Where `s`, a shared variable of the kernel written at `text`, can be named.
fn place(src: &Source, s: &SharedVar, text: &KernelText) -> Result<Place, String> {
    if s.span.file != 0 {
        return Err("it is declared in an included file".into());
    }
    let (lo, hi) = src
        .range(s.span)
        .ok_or_else(|| "its declaration has no source text".to_string())?;
    if let Some(q) = &s.qualified {
        // Named at the kernel's entry, so it must be declared before the kernel.
        return if hi <= text.open_paren {
            Ok(Place::Entry(q.clone()))
        } else {
            Err("it is declared after the kernel".into())
        };
    }
    let end = declaration_end(src, hi).ok_or_else(|| "its declaration has no `;`".to_string())?;
    // The whole statement (a second declarator's span starts at its name) must say
    // `__shared__` and the name: else a macro wrote the declaration, and may have put it in
    // a scope of its own.
    let b = src.text.as_bytes();
    let start = src
        .code(0, lo)
        .into_iter()
        .rfind(|&i| matches!(b[i], b';' | b'{' | b'}'))
        .map_or(0, |i| i + 1);
    let in_name = src.identifiers(lo, hi).iter().any(|(_, n)| *n == s.name);
    let written = src.identifiers(start, end);
    if !in_name || !written.iter().any(|(_, n)| *n == "__shared__") {
        return Err("its declaration is written inside a macro expansion".into());
    }
    Ok(Place::AfterDeclaration(end))
}

/// The `;` ending the declaration whose declarator ends at `from` (other declarators may
/// follow: `__shared__ int a[4], b[4];`).
fn declaration_end(src: &Source, from: usize) -> Option<usize> {
    let b = src.text.as_bytes();
    let mut depth = 0i32;
    for i in src.code(from, src.text.len()) {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return None,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_ends_at_its_own_semicolon() {
        // From the end of `a`'s declarator, past the second one and its call's commas.
        let text = "__shared__ int a[4], b[f(1, 2)]; int c;";
        let after_a = text.find("a[4]").unwrap() + "a[4]".len();
        let end = declaration_end(&Source::new(text), after_a);
        assert_eq!(end, text.find(';'));
        // Never past the block the declaration is in.
        let text = "{ __shared__ int a[4] } ;";
        let after_a = text.find("a[4]").unwrap() + "a[4]".len();
        assert_eq!(declaration_end(&Source::new(text), after_a), None);
    }
}
