//! Explicit instantiations, which libclang does not show: each becomes a reference in a host
//! function appended after the file's last line (whose errors are not reported), so that the
//! parse instantiates what the file instantiates and the kernels and launches there are found.
//! `template __global__ void k<float>(float*);` is referred to as `&k<float>`; a class template's
//! explicit instantiation `template class Est<float>;` by each public method of `Est<float>`,
//! named after a first parse (`class_members`) shows them.

use super::launches::strip_comments;
use clang::{Accessibility, Entity, EntityKind};

/// The source text the parse reads: `source` and a reference to each explicit instantiation,
/// and to each method of the classes in `members` (`class_members`' result).
pub(crate) fn with_instantiations(source: &str, members: &[String]) -> String {
    let mut text = source.to_string();
    let refs = explicit_instantiations(source);
    for (i, inst) in refs.iter().chain(members).enumerate() {
        text.push_str(&format!(
            "\nstatic void __gmrace_instantiation_{i}() {{ (void){inst}; }}"
        ));
    }
    text
}

/// An expression naming each explicitly instantiated function, for the parse to refer to (libclang
/// does not show explicit instantiations): `template __global__ void k<float>(float*);` →
/// `&k<float>`; with deduced arguments, `template vector<float> solve(const csr<float> &);` →
/// `static_cast<vector<float> (*)(const csr<float> &)>(&solve)`.
pub(crate) fn explicit_instantiations(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let stripped = strip_comments(source);
    let mut rest = stripped.as_str();
    while let Some(pos) = rest.find("template") {
        let before_ok = pos == 0
            || !rest[..pos]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = &rest[pos + "template".len()..];
        rest = after;
        let after_trim = after.trim_start();
        if !before_ok
            || after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            || after_trim.starts_with('<')
        {
            continue;
        }
        let Some(end) = after.find(';') else { break };
        out.extend(instantiation_ref(&after[..end]));
    }
    out
}

/// The expression for one explicit instantiation's declaration (`RET NAME<ARGS>(PARAMS)`).
fn instantiation_ref(decl: &str) -> Option<String> {
    let paren = declarator_paren(decl)?;
    let head = decl[..paren].trim_end();
    let name_end = match head.ends_with('>') {
        true => opening_angle(head)?,
        false => head.len(),
    };
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let start = head[..name_end]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name(*c))
        .last()?
        .0;
    let name = &head[start..];
    if name_end < head.len() {
        return Some(format!("&{name}"));
    }
    let qualifiers = [
        "__global__",
        "__host__",
        "__device__",
        "inline",
        "static",
        "extern",
    ];
    let ret: Vec<&str> = head[..start]
        .split_whitespace()
        .filter(|w| !qualifiers.contains(w))
        .collect();
    let params = &decl[paren + 1..closing_paren(decl, paren)?];
    Some(format!(
        "static_cast<{} (*)({params})>(&{name})",
        ret.join(" ")
    ))
}

/// The declarator's `(`: the first one outside template arguments.
fn declarator_paren(decl: &str) -> Option<usize> {
    let mut angle = 0usize;
    for (i, c) in decl.char_indices() {
        match c {
            '<' => angle += 1,
            '>' => angle = angle.saturating_sub(1),
            '(' if angle == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// The `)` that closes the `(` at `open`.
pub(crate) fn closing_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `<` that opens the template arguments `head` ends with.
fn opening_angle(head: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in head.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The classes `template class NAME<ARGS>;` instantiates (not `extern template`): `NAME<ARGS>`.
pub(crate) fn explicit_class_instantiations(source: &str) -> Vec<String> {
    let stripped = strip_comments(source);
    let mut out = Vec::new();
    for statement in stripped.split(';') {
        let words: Vec<&str> = statement.split_whitespace().collect();
        let Some(at) = words
            .windows(2)
            .position(|w| w[0] == "template" && matches!(w[1], "class" | "struct"))
        else {
            continue;
        };
        let after_extern = at > 0 && words[at - 1] == "extern";
        let rest: String = words[at + 2..].join(" ");
        if after_extern || !rest.ends_with('>') || rest.contains(['{', '(', '=']) {
            continue;
        }
        out.push(rest);
    }
    out
}

/// `&C<A>::m` for each public, non-template, non-overloaded method `m` of the class template
/// each instantiated class names, found among `decls`.
pub(crate) fn class_members(decls: &[Entity], classes: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for class in classes {
        let Some(open) = class.find('<') else {
            continue;
        };
        let name = class[..open].trim();
        let base = name.rsplit("::").next().unwrap_or(name);
        let Some(template) = decls.iter().find(|d| {
            d.get_kind() == EntityKind::ClassTemplate && d.get_name().as_deref() == Some(base)
        }) else {
            continue;
        };
        let methods: Vec<String> = template
            .get_children()
            .into_iter()
            .filter(|m| m.get_kind() == EntityKind::Method)
            .filter(|m| m.get_accessibility() == Some(Accessibility::Public))
            .filter_map(|m| m.get_name())
            .collect();
        for m in &methods {
            if methods.iter().filter(|n| *n == m).count() == 1 {
                out.push(format!("&{class}::{m}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_explicit_instantiations() {
        let src = "template <int N> __global__ void k(float*);\n\
                   template __global__ void k<128>(float*);\n\
                   // template __global__ void k<7>(float*);\n\
                   template void helper<float, 2>(float *);";
        assert_eq!(
            explicit_instantiations(src),
            vec!["&k<128>", "&helper<float, 2>"]
        );
        let deduced = "template std::vector<float> solve(const Csr<float> &m, int k);";
        assert_eq!(
            explicit_class_instantiations(
                "template class Est<float>;\nextern template class Est<int>;\n\
                 template struct ns::Pair<float, Vec<2>>; template <class T> class X;"
            ),
            vec!["Est<float>", "ns::Pair<float, Vec<2>>"]
        );
        assert_eq!(
            explicit_instantiations(deduced),
            vec!["static_cast<std::vector<float> (*)(const Csr<float> &m, int k)>(&solve)"]
        );
    }
}
