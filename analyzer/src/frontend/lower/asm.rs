//! Inline PTX. A read of `%laneid`, or of a thread's or block's index or extent (`%tid.x`,
//! `%ntid.y`, `%ctaid.z`, `%nctaid.x`), into one output is modelled (a common idiom). A statement
//! whose instructions only compute in registers (`dp4a`, `prmt`, `lop3`, `cvt`, moves of
//! special registers such as `%smid` or `%globaltimer`, ...) reads its input operands and gives
//! each output an unknown value: the toolkit's own intrinsics are written so (`__dp4a`,
//! `__dp2a_lo`, half-precision conversions), and a reading that stopped there would make every
//! access of the kernel `unknown`. Anything else is opaque: PTX may load and store through any
//! register operand, or name an operand in memory (`"m"`). A `"memory"` clobber does not make
//! register arithmetic opaque: it keeps the compiler from moving memory accesses across the
//! statement and orders nothing between threads (`asm volatile("" ::: "memory")` is no
//! statement at all here).
//!
//! The output values are unknown even where the instruction is pure arithmetic: gmrace has one
//! semantics of CUDA arithmetic, and a second one for PTX is not worth it for values that index
//! memory only rarely. The IR then does not show what such a statement reads of `%tid` & co.,
//! so it counts as dropped code (`builtins_read`, through `asm_reads`): an extent read only
//! there is not taken as 1.

use super::KernelLowerer;
use crate::frontend::builtins::ptx_special;
use crate::ir::*;
use clang::token::TokenKind;
use clang::Entity;

/// PTX instructions (the opcode before its first `.`) that read and write registers and
/// predicates only.
const REGISTER_OPS: &[&str] = &[
    "abs", "add", "addc", "and", "bfe", "bfi", "bfind", "bmsk", "brev", "clz", "cnot", "copysign",
    "cos", "cvt", "div", "dp2a", "dp4a", "ex2", "fma", "fns", "lg2", "lop3", "mad", "mad24",
    "madc", "max", "min", "mov", "mul", "mul24", "neg", "not", "or", "popc", "prmt", "rcp", "rem",
    "rsqrt", "sad", "selp", "set", "setp", "shf", "shl", "shr", "sin", "slct", "sqrt", "sub",
    "subc", "szext", "tanh", "testp", "xor",
];

/// What an asm statement's tokens say: its template (the string literals joined, `\n` and `\t`
/// as blanks) and its operands as the constraints list them.
#[derive(Debug, Default, PartialEq)]
struct AsmText {
    template: String,
    /// Per output, in order: whether it is read too (`"+r"`).
    outputs: Vec<bool>,
    inputs: usize,
    /// An operand in memory (`"m"`).
    memory_operand: bool,
    /// Whether the tokens are the statement's own (`asm ( "..." ...`), not a macro's name and
    /// arguments, whose expansion they do not show.
    spelled_out: bool,
}

impl AsmText {
    fn of(s: Entity) -> AsmText {
        let tokens: Vec<(TokenKind, String)> = s
            .get_range()
            .map(|r| r.tokenize())
            .unwrap_or_default()
            .iter()
            .map(|t| (t.get_kind(), t.get_spelling()))
            .collect();
        AsmText::read(&tokens)
    }

    /// From the statement's tokens: `asm [volatile] ( template : outputs : inputs : clobbers )`.
    fn read(tokens: &[(TokenKind, String)]) -> AsmText {
        let mut asm = AsmText {
            spelled_out: tokens
                .first()
                .is_some_and(|(_, t)| matches!(t.as_str(), "asm" | "__asm__" | "__asm")),
            ..AsmText::default()
        };
        let (mut depth, mut section) = (0usize, 0usize);
        for (kind, text) in tokens {
            match (kind, text.as_str()) {
                (TokenKind::Punctuation, "(") => depth += 1,
                (TokenKind::Punctuation, ")") => depth = depth.saturating_sub(1),
                (TokenKind::Punctuation, ":") if depth == 1 => section += 1,
                (TokenKind::Punctuation, "::") if depth == 1 => section += 2,
                (TokenKind::Literal, s) if depth == 1 && s.starts_with('"') => {
                    let s = s.trim_matches('"');
                    match section {
                        0 => asm.template += &s.replace("\\n", " ").replace("\\t", " "),
                        1 => asm.outputs.push(s.contains('+')),
                        2 => asm.inputs += 1,
                        _ => {}
                    }
                    asm.memory_operand |= (1..=2).contains(&section) && s.contains('m');
                }
                _ => {}
            }
        }
        asm
    }

    /// The template without blanks: `mov.u32%0,%%laneid;`.
    fn compact(&self) -> String {
        self.template.split_whitespace().collect()
    }

    /// The value of `mov.u32 %0, %%laneid;` and of such a move of `%tid.x` & co.
    fn one_move(&self) -> Option<Expr> {
        let compact = self.compact();
        let register = compact.strip_prefix("mov.u32%0,%%")?;
        let register = register.strip_suffix(';').unwrap_or(register);
        if !register
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.')
        {
            return None;
        }
        if register == "laneid" {
            return Some(super::expr::make_binary(
                BinOp::And,
                Expr::linear_thread_id(),
                Expr::int(31, Ty::U32),
                Ty::U32,
            ));
        }
        match specials_named(&format!("%{register}")).as_slice() {
            [s] => Some(Expr::new(ExprKind::Special(*s), Ty::U32)),
            _ => None,
        }
    }

    /// Whether every instruction computes in registers only, and the operands are the
    /// statement's `operands` expressions.
    fn register_only(&self, operands: usize) -> bool {
        let instructions = self.template.replace(['{', '}'], " ");
        self.spelled_out
            && !self.memory_operand
            && self.outputs.len() + self.inputs == operands
            && !instructions.contains('[')
            && instructions.split(';').all(|i| {
                let mut words = i.split_whitespace().skip_while(|w| w.starts_with('@'));
                match words.next() {
                    None => true,
                    Some(op) if op.starts_with(".reg") => true,
                    Some(op) => REGISTER_OPS.contains(&op.split('.').next().unwrap_or(op)),
                }
            })
    }
}

/// The built-in variables that the asm statement `s` reads through PTX's special registers;
/// every one when its tokens do not show its template (a macro's use).
pub(super) fn asm_reads(s: Entity) -> Vec<Special> {
    let asm = AsmText::of(s);
    match asm.spelled_out {
        true => specials_named(&asm.template),
        false => super::builtins_read::every_dimension(),
    }
}

/// The built-in variables a PTX template names (`%tid.y`, `%%tid.y` with operands).
fn specials_named(template: &str) -> Vec<Special> {
    template
        .split('%')
        .skip(1)
        .filter_map(|after| {
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let (register, axis) = name.split_once('.')?;
            ptx_special(register, axis)
        })
        .collect()
}

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    pub(super) fn asm_stmt(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        let asm = AsmText::of(s);
        match (kids, asm.one_move()) {
            ([out], Some(value)) => {
                let place = self.lvalue(*out);
                self.write(&place, value, span);
            }
            _ if asm.register_only(kids.len()) => {
                self.dropped.push(s);
                self.register_asm(&asm, kids, span);
            }
            _ => self.unsupported(s, "inline assembly"),
        }
    }

    /// The reads of the inputs (and of the `"+"` outputs) first, then each output an unknown.
    fn register_asm(&mut self, asm: &AsmText, kids: &[Entity<'tu>], span: Span) {
        let (outs, ins) = kids.split_at(asm.outputs.len());
        for (out, _) in outs.iter().zip(&asm.outputs).filter(|(_, read)| **read) {
            self.reads_of(*out);
        }
        for input in ins {
            self.reads_of(*input);
        }
        for out in outs {
            let place = self.lvalue(*out);
            let ty = place.ctype().value_ty().unwrap_or(Ty::U32);
            self.write(&place, Expr::opaque("inline PTX result", ty), span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{specials_named, AsmText};
    use crate::ir::{Dim, ExprKind, Special};
    use clang::token::TokenKind::{self, *};

    fn tokens(text: &[(TokenKind, &str)]) -> Vec<(TokenKind, String)> {
        text.iter().map(|(k, s)| (*k, s.to_string())).collect()
    }

    #[test]
    fn constraints_give_the_operands_and_the_memory_they_touch() {
        let dp4a = AsmText::read(&tokens(&[
            (Keyword, "asm"),
            (Keyword, "volatile"),
            (Punctuation, "("),
            (Literal, "\"dp4a.s32.s32 %0, %1, \""),
            (Literal, "\"%2, %3;\""),
            (Punctuation, ":"),
            (Literal, "\"=r\""),
            (Punctuation, "("),
            (Identifier, "ret"),
            (Punctuation, ")"),
            (Punctuation, ":"),
            (Literal, "\"r\""),
            (Punctuation, "("),
            (Identifier, "a"),
            (Punctuation, ")"),
            (Punctuation, ","),
            (Literal, "\"+r\""),
            (Punctuation, "("),
            (Identifier, "c"),
            (Punctuation, ")"),
            (Punctuation, ")"),
        ]));
        assert_eq!(dp4a.template, "dp4a.s32.s32 %0, %1, %2, %3;");
        assert_eq!((dp4a.outputs.as_slice(), dp4a.inputs), (&[false][..], 2));
        assert!(!dp4a.memory_operand && dp4a.register_only(3));
        assert!(!dp4a.register_only(2));
        let compiler_barrier = AsmText::read(&tokens(&[
            (Keyword, "asm"),
            (Punctuation, "("),
            (Literal, "\"\""),
            (Punctuation, "::"),
            (Punctuation, ":"),
            (Literal, "\"memory\""),
            (Punctuation, ")"),
        ]));
        assert!(!compiler_barrier.memory_operand && compiler_barrier.register_only(0));
        let in_memory = AsmText::read(&tokens(&[
            (Keyword, "asm"),
            (Punctuation, "("),
            (Literal, "\"mov.u32 %0, 1;\""),
            (Punctuation, ":"),
            (Literal, "\"=m\""),
            (Punctuation, "("),
            (Identifier, "x"),
            (Punctuation, ")"),
            (Punctuation, ")"),
        ]));
        assert!(in_memory.memory_operand && !in_memory.register_only(1));
        // `#define FENCE() asm volatile("membar.gl;")`: the tokens are the macro's.
        let in_macro = AsmText::read(&tokens(&[
            (Identifier, "FENCE"),
            (Punctuation, "("),
            (Punctuation, ")"),
        ]));
        assert!(!in_macro.register_only(0));
    }

    #[test]
    fn only_register_instructions_are_register_only() {
        let asm = |template: &str, outputs: usize| AsmText {
            template: template.into(),
            outputs: vec![false; outputs],
            spelled_out: true,
            ..AsmText::default()
        };
        assert!(asm("mov.u32 %0, %%smid;", 1).register_only(1));
        assert!(asm("mov.u64 %0, globaltimer;", 1).register_only(1));
        assert!(asm(
            "{ .reg .pred p; setp.ne.u32 p, %0, 0; @p add.u32 %0, %0, 1; }",
            1
        )
        .register_only(1));
        assert!(!asm("ld.shared.u32 %0, [%1];", 1).register_only(1));
        assert!(!asm("mov.u32 %0, [%1];", 1).register_only(1));
        assert!(!asm("shfl.sync.idx.b32 %0, %1, 0, 31, -1;", 1).register_only(1));
        assert!(!asm("atom.add.u32 %0, %1, 1;", 1).register_only(1));
        assert!(!asm("bar.sync 0;", 0).register_only(0));
    }

    #[test]
    fn special_registers_name_the_builtin_variables() {
        assert_eq!(
            specials_named(
                "mov.u32 %0, %%tid.y; add.u32 %1, %%nctaid.x, %2; mov.u32 %r, %ctaid.z;"
            ),
            [
                Special::ThreadIdx(Dim::Y),
                Special::GridDim(Dim::X),
                Special::BlockIdx(Dim::Z)
            ]
        );
        assert_eq!(
            specials_named("mov.u32 %0, %%ntid.x;"),
            [Special::BlockDim(Dim::X)]
        );
        assert!(specials_named("mov.u32 %0, %%laneid; mov.u32 %1, %%smid;").is_empty());
    }

    #[test]
    fn one_move_of_a_special_register_is_its_value() {
        let asm = |template: &str| AsmText {
            template: template.into(),
            outputs: vec![false],
            spelled_out: true,
            ..AsmText::default()
        };
        let special = |template: &str| match asm(template).one_move().map(|e| e.kind) {
            Some(ExprKind::Special(s)) => Some(s),
            _ => None,
        };
        assert_eq!(
            special("mov.u32 %0, %%tid.z;"),
            Some(Special::ThreadIdx(Dim::Z))
        );
        assert_eq!(
            special("mov.u32 %0, %%nctaid.y"),
            Some(Special::GridDim(Dim::Y))
        );
        assert!(asm("mov.u32 %0, %%laneid;").one_move().is_some());
        assert!(asm("mov.u32 %0, %%tid.x; add.u32 %0, %0, 1;")
            .one_move()
            .is_none());
        assert!(asm("mov.u32 %0, %%smid;").one_move().is_none());
    }
}
