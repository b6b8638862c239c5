//! Where each kernel definition is in the text, and what its split into `__gmrace_body_<k>`
//! plus an entry/exit wrapper needs: its declaration start (template header included), its
//! parameter list, its body, and the names to forward.

use crate::source::{split_top_level, Source};
use crate::InstrumentError;
use gmrace_analyzer::ir::{Kernel, Module};

/// One kernel definition in the source (a template's instantiations share one).
#[derive(Clone, Debug)]
pub struct KernelText {
    /// Name without template arguments.
    pub base: String,
    /// Start of the line where the declaration begins (its template header, if any).
    pub decl_lo: usize,
    /// `template <...>` as written, when the kernel is a template.
    pub template: Option<String>,
    /// Explicit template arguments for calling the body function: `<N, T>` or empty.
    pub template_args: String,
    pub open_paren: usize,
    pub close_paren: usize,
    /// The body's braces: `body_lo` at `{`, `body_hi` just after `}`.
    pub body_lo: usize,
    pub body_hi: usize,
    /// The parameter list as both functions declare it (unnamed parameters get names).
    pub params: String,
    /// The argument list that forwards them.
    pub args: String,
}

/// The name of the parameter that carries the runtime buffer.
pub const RT_PARAM: &str = "__gmrace_rt";

/// Every kernel definition of the module, in source order, one per definition.
pub fn locate(src: &Source, module: &Module) -> Result<Vec<KernelText>, InstrumentError> {
    let mut out: Vec<KernelText> = Vec::new();
    for k in &module.kernels {
        let t = locate_one(src, k)?;
        if !out.iter().any(|o| o.body_lo == t.body_lo) {
            out.push(t);
        }
    }
    out.sort_by_key(|t| t.body_lo);
    Ok(out)
}

fn locate_one(src: &Source, k: &Kernel) -> Result<KernelText, InstrumentError> {
    let fail = |what: &str| InstrumentError {
        message: format!("cannot rewrite kernel `{}`: {what}", k.name),
        span: Some(k.span),
    };
    if k.span.file != 0 {
        return Err(fail(
            "it is defined in an included file; only the main file is rewritten",
        ));
    }
    let (lo, hi) = src
        .range(k.span)
        .ok_or_else(|| fail("its definition has no source text"))?;
    let base = k.name.split('<').next().unwrap_or(&k.name).to_string();
    let open = src
        .identifiers(lo, hi)
        .into_iter()
        .filter(|(_, n)| *n == base)
        .find_map(|(at, n)| {
            let next = src.next_code(at + n.len(), hi)?;
            (src.text.as_bytes()[next] == b'(').then_some(next)
        })
        .ok_or_else(|| {
            fail("its name and parameter list are not written in the file (a macro?)")
        })?;
    let close = src
        .matching(open, hi)
        .ok_or_else(|| fail("unbalanced parameter list"))?;
    let body_lo = src
        .code(close, hi)
        .into_iter()
        .find(|&i| src.text.as_bytes()[i] == b'{')
        .ok_or_else(|| fail("no body"))?;
    if src.matching(body_lo, hi) != Some(hi - 1) {
        return Err(fail(
            "its body does not end where the definition ends (a macro?)",
        ));
    }
    let (template, decl_start) = template_header(src, lo, open);
    let template_args = template.as_deref().map(template_args).unwrap_or_default();
    let (params, args) = parameters(&src.text[open + 1..close], k);
    Ok(KernelText {
        base,
        decl_lo: src.line_start(decl_start),
        template,
        template_args,
        open_paren: open,
        close_paren: close,
        body_lo,
        body_hi: hi,
        params,
        args,
    })
}

/// The `template <...>` header of a definition starting at `lo` (libclang's extent may or may
/// not include it), and where the declaration starts.
fn template_header(src: &Source, lo: usize, open: usize) -> (Option<String>, usize) {
    let b = src.text.as_bytes();
    let header_at = |start: usize| -> Option<String> {
        let lt = src.next_code(start + "template".len(), open)?;
        let gt = (b[lt] == b'<').then(|| src.matching(lt, open)).flatten()?;
        Some(src.text[start..=gt].to_string())
    };
    if src.text[lo..].starts_with("template") {
        return (header_at(lo), lo);
    }
    // Before the extent: `template <...>` then white space (comments between are not expected).
    let before = src.text[..lo].trim_end();
    if !before.ends_with('>') {
        return (None, lo);
    }
    let mut depth = 0i32;
    for (i, c) in before.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    let head = before[..i].trim_end();
                    if head.ends_with("template") {
                        let start = head.len() - "template".len();
                        return (header_at(start), start);
                    }
                    return (None, lo);
                }
            }
            _ => {}
        }
    }
    (None, lo)
}

/// `<N, T>` for the header `template <int N, typename T = float>` (packs expand: `Ts...`).
fn template_args(header: &str) -> String {
    let inner = header
        .split_once('<')
        .and_then(|(_, r)| r.rsplit_once('>'))
        .map_or("", |(i, _)| i);
    let names: Vec<String> = split_top_level(inner)
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let decl = split_top_level_eq(p);
            let name = last_identifier(decl);
            if decl.contains("...") {
                format!("{name}...")
            } else {
                name.to_string()
            }
        })
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("<{}>", names.join(", "))
    }
}

/// The part of a parameter before its default value.
fn split_top_level_eq(p: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in p.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            '=' if depth == 0 => return &p[..i],
            _ => {}
        }
    }
    p
}

fn last_identifier(s: &str) -> &str {
    let s = s.trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    let start = s
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    &s[start..]
}

/// The parameter list for both functions and the forwarding arguments. An unnamed parameter
/// (`int` in `k(float *a, int)`) is named `__gmrace_argN` so it can be forwarded.
fn parameters(list: &str, k: &Kernel) -> (String, String) {
    let pieces = split_top_level(list);
    let void = list.trim().is_empty() || list.trim() == "void";
    if void {
        return (list.to_string(), String::new());
    }
    let mut params = Vec::new();
    let mut args = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        match k.params.get(i).map(|p| p.name.as_str()) {
            Some(name) if !name.is_empty() => {
                params.push(piece.to_string());
                args.push(name.to_string());
            }
            _ => {
                let name = format!("__gmrace_arg{i}");
                params.push(format!("{} {name}", piece.trim_end()));
                args.push(name);
            }
        }
    }
    (params.join(","), args.join(", "))
}

impl KernelText {
    /// The kernel's parameter list followed by the runtime buffer, with a null default so host
    /// code that launches the kernel still compiles (gmrace's launches always pass a buffer).
    pub fn kernel_params(&self) -> String {
        let rt = format!("unsigned int *{RT_PARAM} = 0");
        if self.args.is_empty() {
            rt
        } else {
            format!("{}, {rt}", self.params)
        }
    }

    /// The text that replaces `decl_lo..body_hi`, given the rewritten body (braces included).
    pub fn split(&self, src: &Source, body: &str) -> String {
        let template = self
            .template
            .as_deref()
            .map(|t| format!("{t}\n"))
            .unwrap_or_default();
        let head = &src.text[self.decl_lo..=self.open_paren];
        let between = &src.text[self.close_paren..self.body_lo];
        format!(
            "{template}__device__ void __gmrace_body_{base}({params}) {body}\n\
             {head}{kparams}{between}{{\n    __gmrace_enter({RT_PARAM});\n    \
             __gmrace_body_{base}{targs}({args});\n    __gmrace_exit();\n}}",
            base = self.base,
            params = self.params,
            kparams = self.kernel_params(),
            targs = self.template_args,
            args = self.args,
        )
    }
}

/// Explicit instantiations of template kernels (`template __global__ void k<128>(float *);`)
/// name the kernel's type, which now ends with the runtime parameter: the edits (byte range
/// and replacement) that add it.
pub fn instantiations(src: &Source, kernels: &[KernelText]) -> Vec<(usize, usize, String)> {
    let b = src.text.as_bytes();
    let len = src.text.len();
    let ids = src.identifiers(0, len);
    let mut out = Vec::new();
    for (i, (at, word)) in ids.iter().enumerate() {
        if *word != "template" {
            continue;
        }
        let Some(next) = src.next_code(at + word.len(), len) else {
            continue;
        };
        if b[next] == b'<' {
            continue;
        }
        let end = src
            .code(next, len)
            .into_iter()
            .find(|&j| b[j] == b';' || b[j] == b'{');
        let Some(end) = end.filter(|&e| b[e] == b';') else {
            continue;
        };
        for (name_at, name) in ids[i + 1..].iter().take_while(|(o, _)| *o < end) {
            if !kernels
                .iter()
                .any(|k| k.template.is_some() && k.base == *name)
            {
                continue;
            }
            let Some(lt) = src
                .next_code(name_at + name.len(), end)
                .filter(|&j| b[j] == b'<')
            else {
                continue;
            };
            let open = src
                .matching(lt, end)
                .and_then(|gt| src.next_code(gt + 1, end))
                .filter(|&j| b[j] == b'(');
            if let Some((o, c)) = open.and_then(|o| src.matching(o, end).map(|c| (o, c))) {
                let inner = src.text[o + 1..c].trim();
                out.push(if inner.is_empty() || inner == "void" {
                    (o + 1, c, "unsigned int *".to_string())
                } else {
                    (c, c, ", unsigned int *".to_string())
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_arguments_forward_every_parameter() {
        assert_eq!(
            template_args("template <int N, typename T = float>"),
            "<N, T>"
        );
        assert_eq!(template_args("template <class... Ts>"), "<Ts...>");
        assert_eq!(template_args("template <>"), "");
    }
}
