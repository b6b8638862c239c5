//! Where each kernel definition is in the text (its parameter list and body), and its rewrite:
//! the runtime buffer parameter, and, for a checked kernel, the body between the runtime's
//! enter and exit.
//!
//! `unsigned int *__gmrace_rt = 0` is appended to the parameters of every kernel: the null
//! default keeps host launches compiling, and an unchecked kernel ignores it, so launches need
//! not know the plan. A checked kernel's original body becomes a block between
//! `__gmrace_enter(__gmrace_rt);` (then the kernel's entry calls of `shared.rs`) and
//! `__gmrace_exit();`. Explicit instantiations of template kernels get the extra parameter type,
//! and so do declarations without a body (else they declare another overload, which an
//! instantiation before the definition names); the first such declaration before the definition
//! carries the null default instead (C++ allows it once). Overloaded kernel names keep their
//! declarations as written.

use crate::source::Source;
use crate::InstrumentError;
use gmrace_analyzer::ir::{Kernel, Module};

/// One kernel definition in the source (a template's instantiations share one).
#[derive(Clone, Debug)]
pub struct KernelText {
    /// Name without template arguments.
    pub base: String,
    pub template: bool,
    pub open_paren: usize,
    pub close_paren: usize,
    /// The body's braces: `body_lo` at `{`, `body_hi` just after `}`.
    pub body_lo: usize,
    pub body_hi: usize,
    /// The parameter list is empty or `void`.
    pub no_params: bool,
    /// Calls the kernel makes right after entering the runtime (`shared::records`).
    pub entry: Vec<String>,
    /// Indices in `Module::kernels` of the kernels this text defines (several for a template).
    pub instances: Vec<usize>,
    /// Whether the body runs under the device runtime (set from the plan).
    pub checked: bool,
    /// A declaration before the definition gives the runtime parameter its default
    /// (`declarations`), which C++ allows once.
    pub default_declared: bool,
}

/// The name of the parameter that carries the runtime buffer.
pub const RT_PARAM: &str = "__gmrace_rt";

/// Every kernel definition of the module, in source order, one per definition.
pub fn locate(src: &Source, module: &Module) -> Result<Vec<KernelText>, InstrumentError> {
    let mut out: Vec<KernelText> = Vec::new();
    for (i, k) in module.kernels.iter().enumerate() {
        let t = locate_one(src, k)?;
        match out.iter_mut().find(|o| o.body_lo == t.body_lo) {
            Some(o) => o.instances.push(i),
            None => out.push(KernelText {
                instances: vec![i],
                ..t
            }),
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
    let params = src.text[open + 1..close].trim();
    Ok(KernelText {
        base,
        template: k.name.contains('<'),
        open_paren: open,
        close_paren: close,
        body_lo,
        body_hi: hi,
        no_params: params.is_empty() || params == "void",
        entry: Vec::new(),
        instances: Vec::new(),
        checked: true,
        default_declared: false,
    })
}

impl KernelText {
    /// The kernel from its parameter list to its end, given its rewritten body (braces
    /// included): the runtime buffer joins the parameters, with a null default so host code
    /// that launches the kernel still compiles (gmrace's launches always pass a buffer); a
    /// checked body runs, in its own block, between the runtime's enter and exit. An unchecked
    /// kernel keeps its body and ignores the buffer: every kernel of an instrumented file has
    /// the same parameters, whatever the plan decided, so launches need not know.
    pub fn rewrite(&self, src: &Source, body: &str) -> String {
        let default = if self.default_declared { "" } else { " = 0" };
        let rt = format!("unsigned int *{RT_PARAM}{default}");
        let params = if self.no_params {
            rt
        } else {
            format!("{}, {rt}", &src.text[self.open_paren + 1..self.close_paren])
        };
        let between = &src.text[self.close_paren + 1..self.body_lo];
        if !self.checked {
            return format!("({params}){between}{body}");
        }
        let entry: String = self.entry.iter().map(|c| format!("    {c}\n")).collect();
        format!(
            "({params}){between}{{\n    __gmrace_enter({RT_PARAM});\n{entry}    {body}\n    \
             __gmrace_exit();\n}}"
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
            if !kernels.iter().any(|k| k.template && k.base == *name) {
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
                out.push(add_param(src, o, c, "unsigned int *"));
            }
        }
    }
    out
}

/// Declarations of a kernel the file defines, without a body (`__global__ void k(float *);`, a
/// template's too): they get the runtime parameter as well, or they would declare another
/// overload, which an explicit instantiation before the definition names. The first, when it
/// comes before the definition, carries the parameter's null default instead of the definition.
/// A name several definitions share (overloads) is left alone: which one a declaration declares
/// is not read here.
pub fn declarations(src: &Source, kernels: &mut [KernelText]) -> Vec<(usize, usize, String)> {
    let b = src.text.as_bytes();
    let len = src.text.len();
    let ids = src.identifiers(0, len);
    let mut out = Vec::new();
    for (i, &(at, name)) in ids.iter().enumerate() {
        let mut same = kernels.iter().enumerate().filter(|(_, k)| k.base == name);
        let (Some((ki, _)), None) = (same.next(), same.next()) else {
            continue;
        };
        let Some(open) = src
            .next_code(at + name.len(), len)
            .filter(|&j| b[j] == b'(')
        else {
            continue;
        };
        let inside = |k: &KernelText| (k.open_paren..k.body_hi).contains(&at);
        if open == kernels[ki].open_paren || kernels.iter().any(inside) {
            continue;
        }
        let Some(close) = src.matching(open, len) else {
            continue;
        };
        if src.next_code(close + 1, len).map(|j| b[j]) != Some(b';') {
            continue;
        }
        // `__global__` earlier in the same declaration: not a call or another use.
        let global = ids[..i]
            .iter()
            .rev()
            .take(16)
            .find(|(_, w)| *w == "__global__");
        let same_decl = global.is_some_and(|&(g, _)| {
            src.code(g, at)
                .into_iter()
                .all(|j| !matches!(b[j], b';' | b'{' | b'}'))
        });
        if !same_decl {
            continue;
        }
        let k = &mut kernels[ki];
        let default = if at < k.open_paren && !k.default_declared {
            k.default_declared = true;
            " = 0"
        } else {
            ""
        };
        out.push(add_param(
            src,
            open,
            close,
            &format!("unsigned int *{default}"),
        ));
    }
    out
}

/// The edit (byte range, replacement) that ends the parameter list between `open` and `close`
/// with `param`.
fn add_param(src: &Source, open: usize, close: usize, param: &str) -> (usize, usize, String) {
    let inner = src.text[open + 1..close].trim();
    if inner.is_empty() || inner == "void" {
        (open + 1, close, param.to_string())
    } else {
        (close, close, format!(", {param}"))
    }
}
