//! `__launch_bounds__(MAX_THREADS, ...)` on a kernel: a launch of more threads per block fails
//! ("too many resources requested for launch"), so no run of the kernel has a larger block.
//!
//! libclang shows the attribute but not its arguments, so the declaration's tokens are read
//! and the first argument evaluated over integer literals, the instantiation's integral
//! template arguments, object-like macros whose bodies evaluate so, and integer constants
//! (`const`/`constexpr` variables, unscoped enumerators) of the global scope or a namespace
//! (`NUM_WARPS * WARP_SIZE` in `template <int NUM_WARPS> __global__ void
//! __launch_bounds__(NUM_WARPS * WARP_SIZE) k()`). A constant counts only where no other
//! namespace-scope declaration has its name: the name then means that one wherever it is
//! written, so the bound is never another variable's value. Anything else (a member constant
//! such as `Spec::kThreadNum`, a call, the attribute spelled through a macro of its own)
//! leaves the kernel without a bound: the bound only ever narrows what the analysis assumes,
//! so leaving it out is safe.

use super::context::ModuleCtx;
use super::cursor::template_params;
use crate::collections::HashMap;
use crate::ir::limits::MAX_THREADS_PER_BLOCK;
use crate::ir::MaxThreads;
use clang::source::SourceRange;
use clang::{Entity, EntityKind, EvaluationResult, TemplateArgument};

/// How deep macros may refer to macros.
const MAX_EXPANSION: usize = 16;

/// The kernel's bound, where its declaration has one that evaluates to 1..=1024.
pub(crate) fn max_threads(func: Entity, m: &mut ModuleCtx) -> Option<MaxThreads> {
    // The declaration begins in a macro (`__global__`): its tokens are read from the file,
    // between the expansion locations, up to the body.
    let range = func.get_range()?;
    let body = func
        .get_children()
        .into_iter()
        .rfind(|c| c.get_kind() == EntityKind::CompoundStmt)
        .and_then(|b| b.get_range());
    let (start, end) = (
        range.get_start().get_expansion_location(),
        body.map_or(range.get_end(), |b| b.get_start())
            .get_expansion_location(),
    );
    let file = start.file?;
    let tokens = SourceRange::new(
        file.get_offset_location(start.offset),
        file.get_offset_location(end.offset),
    )
    .tokenize();
    let at = tokens
        .iter()
        .take_while(|t| t.get_spelling() != "{")
        .position(|t| t.get_spelling() == "__launch_bounds__")?;
    let line = tokens[at].get_location().get_expansion_location().line;
    let spelled: Vec<String> = tokens[at + 1..].iter().map(|t| t.get_spelling()).collect();
    let first = first_argument(&spelled)?;
    let params = template_values(func);
    let names = m.names.get_or_insert_with(|| Names::of(func));
    let value = Eval {
        params: &params,
        names,
        depth: 0,
    }
    .whole(first)?;
    let threads = u32::try_from(value).ok()?;
    ((1..=MAX_THREADS_PER_BLOCK).contains(&u64::from(threads)))
        .then_some(MaxThreads { threads, line })
}

/// The tokens of the first argument of `( ... )` at the start of `tokens`.
fn first_argument(tokens: &[String]) -> Option<&[String]> {
    if tokens.first()? != "(" {
        return None;
    }
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(1) {
        match t.as_str() {
            "(" => depth += 1,
            ")" if depth == 0 => return Some(&tokens[1..i]),
            ")" => depth -= 1,
            "," if depth == 0 => return Some(&tokens[1..i]),
            _ => {}
        }
    }
    None
}

/// The integral template arguments of an instantiation, by parameter name.
fn template_values(func: Entity) -> HashMap<String, i128> {
    let Some(args) = func.get_template_arguments() else {
        return HashMap::default();
    };
    template_params(func)
        .into_iter()
        .zip(args)
        .filter_map(|(p, a)| match a {
            TemplateArgument::Integral(v, _) => Some((p.get_name()?, i128::from(v))),
            _ => None,
        })
        .collect()
}

/// What names a bound may use besides template parameters.
#[derive(Default)]
pub(crate) struct Names {
    /// Object-like macros, with their bodies' tokens.
    macros: HashMap<String, Vec<String>>,
    /// Integer constants of the global scope and namespaces; `None` where a name is declared
    /// more than once there (or is a variable that is not such a constant).
    constants: HashMap<String, Option<i128>>,
}

impl Names {
    fn of(func: Entity) -> Names {
        let mut names = Names::default();
        let tu = func.get_translation_unit().get_entity();
        for c in tu.get_children() {
            if c.get_kind() == EntityKind::MacroDefinition && !c.is_function_like_macro() {
                let Some((name, range)) = c.get_name().zip(c.get_range()) else {
                    continue;
                };
                let body = range
                    .tokenize()
                    .iter()
                    .skip(1)
                    .map(|t| t.get_spelling())
                    .collect();
                names.macros.insert(name, body);
            }
        }
        names.scope(tu);
        names
    }

    /// The constants declared directly in `scope` and in the namespaces it holds.
    fn scope(&mut self, scope: Entity) {
        for c in scope.get_children() {
            match c.get_kind() {
                EntityKind::Namespace | EntityKind::LinkageSpec => self.scope(c),
                EntityKind::VarDecl => self.declare(c.get_name(), constant(c)),
                EntityKind::EnumDecl if !c.is_scoped() => {
                    for e in c.get_children() {
                        let value = e.get_enum_constant_value().map(|(v, _)| i128::from(v));
                        self.declare(e.get_name(), value);
                    }
                }
                _ => {}
            }
        }
    }

    fn declare(&mut self, name: Option<String>, value: Option<i128>) {
        if let Some(name) = name {
            self.constants
                .entry(name)
                .and_modify(|v| *v = None)
                .or_insert(value);
        }
    }
}

/// The value of a `const` integer variable whose initializer clang evaluates.
fn constant(var: Entity) -> Option<i128> {
    var.get_type()?.is_const_qualified().then_some(())?;
    match var.evaluate()? {
        EvaluationResult::SignedInteger(v) => Some(i128::from(v)),
        EvaluationResult::UnsignedInteger(v) => Some(i128::from(v)),
        _ => None,
    }
}

/// Integer arithmetic over C's precedence levels for `*`, `/`, `%`, `+`, `-`, `<<`, `>>`.
struct Eval<'a> {
    params: &'a HashMap<String, i128>,
    names: &'a Names,
    depth: usize,
}

impl Eval<'_> {
    /// The value of all of `tokens`, or `None`.
    fn whole(&self, tokens: &[String]) -> Option<i128> {
        let mut at = 0;
        let v = self.shift(tokens, &mut at)?;
        (at == tokens.len()).then_some(v)
    }

    fn shift(&self, t: &[String], at: &mut usize) -> Option<i128> {
        let mut v = self.additive(t, at)?;
        while let Some(op) = t.get(*at).filter(|o| *o == "<<" || *o == ">>") {
            let op = op.clone();
            *at += 1;
            let r = u32::try_from(self.additive(t, at)?)
                .ok()
                .filter(|r| *r < 64)?;
            v = if op == "<<" {
                v.checked_shl(r)?
            } else {
                v >> r
            };
        }
        Some(v)
    }

    fn additive(&self, t: &[String], at: &mut usize) -> Option<i128> {
        let mut v = self.term(t, at)?;
        while let Some(op) = t.get(*at).filter(|o| *o == "+" || *o == "-") {
            let plus = op == "+";
            *at += 1;
            let r = self.term(t, at)?;
            v = if plus {
                v.checked_add(r)?
            } else {
                v.checked_sub(r)?
            };
        }
        Some(v)
    }

    fn term(&self, t: &[String], at: &mut usize) -> Option<i128> {
        let mut v = self.unary(t, at)?;
        while let Some(op) = t.get(*at).filter(|o| matches!(o.as_str(), "*" | "/" | "%")) {
            let op = op.clone();
            *at += 1;
            let r = self.unary(t, at)?;
            v = match op.as_str() {
                "*" => v.checked_mul(r)?,
                "/" => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
        }
        Some(v)
    }

    fn unary(&self, t: &[String], at: &mut usize) -> Option<i128> {
        let tok = t.get(*at)?;
        *at += 1;
        match tok.as_str() {
            "-" => self.unary(t, at)?.checked_neg(),
            "+" => self.unary(t, at),
            "(" => {
                let v = self.shift(t, at)?;
                (t.get(*at)? == ")").then(|| *at += 1)?;
                Some(v)
            }
            _ => self.atom(tok),
        }
    }

    /// A literal, a template parameter, a macro or a constant.
    fn atom(&self, tok: &str) -> Option<i128> {
        if tok.starts_with(|c: char| c.is_ascii_digit()) {
            return literal(tok);
        }
        if let Some(v) = self.params.get(tok) {
            return Some(*v);
        }
        let Some(body) = self.names.macros.get(tok) else {
            return *self.names.constants.get(tok)?;
        };
        (self.depth < MAX_EXPANSION).then_some(())?;
        Eval {
            depth: self.depth + 1,
            ..*self
        }
        .whole(body)
    }
}

/// An integer literal: decimal, hexadecimal, octal or binary, with `u`/`l` suffixes.
fn literal(tok: &str) -> Option<i128> {
    let digits = tok.trim_end_matches(['u', 'U', 'l', 'L']).replace('\'', "");
    let lower = digits.to_ascii_lowercase();
    let (text, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower, 10)
    };
    i128::from_str_radix(&text, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, params: &[(&str, i128)], macros: &[(&str, &str)]) -> Option<i128> {
        let split = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
        let params = params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let mut names = Names {
            macros: macros
                .iter()
                .map(|(n, b)| (n.to_string(), split(b)))
                .collect(),
            ..Names::default()
        };
        names.declare(Some("kWarp".into()), Some(32));
        names.declare(Some("kTwice".into()), Some(1));
        names.declare(Some("kTwice".into()), Some(2));
        Eval {
            params: &params,
            names: &names,
            depth: 0,
        }
        .whole(&split(text))
    }

    #[test]
    fn arguments_evaluate_over_literals_template_arguments_and_macros() {
        assert_eq!(eval("256", &[], &[]), Some(256));
        assert_eq!(eval("0x100u", &[], &[]), Some(256));
        assert_eq!(
            eval(
                "NUM_WARPS * WARP_SIZE",
                &[("NUM_WARPS", 4)],
                &[("WARP_SIZE", "32")]
            ),
            Some(128)
        );
        assert_eq!(eval("( 2 + 2 ) * 64 - 1", &[], &[]), Some(255));
        assert_eq!(eval("1 << 8 >> 1", &[], &[]), Some(128));
        assert_eq!(eval("4 * kWarp", &[], &[]), Some(128));
        // A name declared twice may mean either.
        assert_eq!(eval("kTwice * 64", &[], &[]), None);
        assert_eq!(
            eval("B", &[], &[("B", "( A * 2 )"), ("A", "64")]),
            Some(128)
        );
        // What is not known is no bound.
        assert_eq!(eval("Spec :: kThreadNum", &[], &[]), None);
        assert_eq!(eval("THREADS", &[], &[]), None);
        assert_eq!(eval("256 /", &[], &[]), None);
        assert_eq!(eval("A", &[], &[("A", "A")]), None);
        assert_eq!(eval("8 / 0", &[], &[]), None);
    }

    #[test]
    fn only_the_first_argument_counts() {
        let t: Vec<String> = ["(", "(", "64", ")", ",", "8", ")"]
            .map(String::from)
            .to_vec();
        assert_eq!(first_argument(&t).map(<[String]>::len), Some(3));
        assert_eq!(first_argument(&t[1..]).map(<[String]>::len), Some(1));
        assert_eq!(first_argument(&t[2..]), None);
    }
}
