//! The text form of the IR printed by `gmrace ir`. `access_table` is the line format of the
//! corpus expectations (the front-end corpus's `.accesses` files).

use crate::*;
use std::collections::HashMap;
use std::fmt::Write;

pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    for g in &m.globals {
        let _ = writeln!(
            out,
            "{} {}: {}{} ({} bytes){}",
            g.space.name(),
            g.name,
            g.elem.map_or("?", Scalar::name),
            dims(&g.dims),
            g.size_bytes,
            if g.init.is_some() { " = {...}" } else { "" }
        );
    }
    for l in &m.launches {
        let _ = writeln!(
            out,
            "launch {}<<<{}, {}>>> at line {}",
            l.kernel,
            extent(l.grid),
            extent(l.block),
            l.span.line
        );
    }
    for k in &m.kernels {
        if !out.is_empty() {
            out.push('\n');
        }
        print_kernel(&mut out, m, k);
    }
    out
}

/// `(16,16,1)`, `(?,1,1)` for an extent that does not fold.
fn extent(e: [Option<u32>; 3]) -> String {
    let parts: Vec<String> = e
        .iter()
        .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
        .collect();
    format!("({})", parts.join(","))
}

fn dims(d: &[u64]) -> String {
    d.iter().map(|n| format!("[{n}]")).collect()
}

fn print_kernel(out: &mut String, m: &Module, k: &Kernel) {
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| match (p.ty, p.pointee) {
            (Ty::Ptr(_), Some(e)) => format!(
                "{}: {}{}*{}",
                p.name,
                if p.const_pointee { "const " } else { "" },
                e.name(),
                if p.restrict { " restrict" } else { "" }
            ),
            (ty, _) => format!("{}: {ty}", p.name),
        })
        .collect();
    let _ = writeln!(out, "kernel {}({})", k.name, params.join(", "));
    for s in &k.shared {
        let size = s
            .size_bytes
            .map_or("extern".to_string(), |b| format!("{b} bytes"));
        let _ = writeln!(
            out,
            "  shared {}: {}{} ({size})",
            s.name,
            s.elem.map_or("?", Scalar::name),
            dims(&s.dims)
        );
    }
    for a in &k.local_arrays {
        let _ = writeln!(
            out,
            "  local {}: {}{} ({} bytes)",
            a.name,
            a.elem.map_or("?", Scalar::name),
            dims(&a.dims),
            a.size_bytes
        );
    }
    for a in &k.accesses {
        let file = m
            .files
            .get(a.span.file as usize)
            .map_or("?", String::as_str);
        let _ = writeln!(
            out,
            "  access #{} {:<6} {:<8} {} {} at {}:{}:{}",
            a.id.0,
            kind_name(a.kind),
            a.space.name(),
            a.ty.name(),
            a.array.as_deref().unwrap_or("?"),
            file,
            a.span.line,
            a.span.column
        );
    }
    let p = Printer::new(k);
    p.block(out, &k.body, 1);
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic(SyncScope::Device) => "atomic",
        AccessKind::Atomic(SyncScope::Block) => "atomic_block",
        AccessKind::Atomic(SyncScope::System) => "atomic_system",
    }
}

struct Printer<'a> {
    k: &'a Kernel,
    names: Vec<String>,
}

impl<'a> Printer<'a> {
    fn new(k: &'a Kernel) -> Self {
        let mut count: HashMap<&str, u32> = HashMap::new();
        for l in &k.locals {
            *count.entry(l.name.as_str()).or_default() += 1;
        }
        let names = k
            .locals
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if count[l.name.as_str()] > 1 {
                    format!("{}_{i}", l.name)
                } else {
                    l.name.clone()
                }
            })
            .collect();
        Printer { k, names }
    }

    fn local(&self, l: LocalId) -> &str {
        self.names.get(l.index()).map_or("?", String::as_str)
    }

    fn block(&self, out: &mut String, b: &Block, depth: usize) {
        let pad = "  ".repeat(depth);
        let _ = writeln!(out, "{{");
        for s in b {
            let _ = write!(out, "{pad}  ");
            self.stmt(out, s, depth + 1);
        }
        let _ = writeln!(out, "{pad}}}");
    }

    fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let line = s.span.line;
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                let _ = writeln!(out, "{} = {}", self.local(*dst), self.expr(value));
            }
            StmtKind::Store {
                access,
                addr,
                value,
            } => {
                let _ = writeln!(
                    out,
                    "store#{}[{}] = {}    // line {line}",
                    access.0,
                    self.expr(addr),
                    self.expr(value)
                );
            }
            StmtKind::Atomic {
                access,
                op,
                addr,
                args,
                dst,
            } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let dst = dst.map_or(String::new(), |d| format!("{} = ", self.local(d)));
                let _ = writeln!(
                    out,
                    "{dst}atomic#{}.{op:?}[{}]({})    // line {line}",
                    access.0,
                    self.expr(addr),
                    args.join(", ")
                );
            }
            StmtKind::Barrier { kind, pred, dst } => {
                let dst = dst.map_or(String::new(), |d| format!("{} = ", self.local(d)));
                let pred = pred.as_ref().map_or(String::new(), |p| self.expr(p));
                let _ = writeln!(out, "{dst}barrier.{kind:?}({pred})    // line {line}");
            }
            StmtKind::SyncWarp { mask } => {
                let _ = writeln!(out, "syncwarp({})", self.expr(mask));
            }
            StmtKind::Fence { scope } => {
                let _ = writeln!(out, "fence.{scope:?}");
            }
            StmtKind::Warp { op, args, dst } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let _ = writeln!(
                    out,
                    "{} = warp.{op:?}({})",
                    self.local(*dst),
                    args.join(", ")
                );
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let _ = write!(out, "if {} ", self.expr(cond));
                self.block(out, then_body, depth);
                if !else_body.is_empty() {
                    let _ = write!(out, "{}else ", "  ".repeat(depth));
                    self.block(out, else_body, depth);
                }
            }
            StmtKind::Loop {
                cond,
                cond_prelude,
                test_first,
                body,
                step,
            } => {
                let cond = cond.as_ref().map_or("true".to_string(), |c| self.expr(c));
                let kw = if *test_first { "while" } else { "do-while" };
                if !cond_prelude.is_empty() {
                    let _ = write!(out, "loop-prelude ");
                    self.block(out, cond_prelude, depth);
                    let _ = write!(out, "{}", "  ".repeat(depth));
                }
                let _ = write!(out, "{kw} {cond} ");
                self.block(out, body, depth);
                if !step.is_empty() {
                    let _ = write!(out, "{}step ", "  ".repeat(depth));
                    self.block(out, step, depth);
                }
            }
            StmtKind::Break => out.push_str("break\n"),
            StmtKind::Continue => out.push_str("continue\n"),
            StmtKind::Return => out.push_str("return\n"),
            StmtKind::Scope { id, body } => {
                let _ = write!(out, "scope {} ", id.0);
                self.block(out, body, depth);
            }
            StmtKind::Exit(id) => {
                let _ = writeln!(out, "exit {}", id.0);
            }
            StmtKind::Assume { kind, cond } => {
                let _ = writeln!(out, "{kind:?}({})", self.expr(cond));
            }
            StmtKind::Printf { format, args } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let _ = writeln!(
                    out,
                    "printf({format:?}{}{})",
                    if args.is_empty() { "" } else { ", " },
                    args.join(", ")
                );
            }
            StmtKind::Trap { message } => {
                let _ = writeln!(out, "trap({message:?})");
            }
            StmtKind::Opaque { reason } => {
                let _ = writeln!(out, "opaque({reason})    // line {line}");
            }
        }
    }

    fn expr(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(bits) => match e.ty {
                Ty::Scalar(s) if s.is_signed() => sign_extend(*bits, s.size()).to_string(),
                Ty::Scalar(Scalar::Bool) => (*bits != 0).to_string(),
                _ => bits.to_string(),
            },
            ExprKind::Float(f) => format!("{f:?}"),
            ExprKind::Local(l) => self.local(*l).to_string(),
            ExprKind::Param(p) => self
                .k
                .params
                .get(p.index())
                .map_or("?".into(), |p| p.name.clone()),
            ExprKind::Special(s) => match s {
                Special::ThreadIdx(d) => format!("threadIdx.{}", dim(*d)),
                Special::BlockIdx(d) => format!("blockIdx.{}", dim(*d)),
                Special::BlockDim(d) => format!("blockDim.{}", dim(*d)),
                Special::GridDim(d) => format!("gridDim.{}", dim(*d)),
                Special::WarpSize => "warpSize".into(),
            },
            ExprKind::SharedAddr(id) => format!(
                "&{}",
                self.k
                    .shared
                    .get(id.index())
                    .map_or("?", |s| s.name.as_str())
            ),
            ExprKind::GlobalAddr(id) => format!("&global{}", id.0),
            ExprKind::LocalAddr(id) => format!(
                "&{}",
                self.k
                    .local_arrays
                    .get(id.index())
                    .map_or("?", |s| s.name.as_str())
            ),
            ExprKind::Unary(op, a) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "~",
                    UnOp::LNot => "!",
                };
                format!("{o}{}", self.expr(a))
            }
            ExprKind::Binary(op, a, b) => {
                let o = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                    BinOp::Rem => "%",
                    BinOp::Shl => "<<",
                    BinOp::Shr => ">>",
                    BinOp::And => "&",
                    BinOp::Or => "|",
                    BinOp::Xor => "^",
                    BinOp::Eq => "==",
                    BinOp::Ne => "!=",
                    BinOp::Lt => "<",
                    BinOp::Le => "<=",
                    BinOp::Gt => ">",
                    BinOp::Ge => ">=",
                    BinOp::LAnd => "&&",
                    BinOp::LOr => "||",
                    BinOp::Min => return format!("min({}, {})", self.expr(a), self.expr(b)),
                    BinOp::Max => return format!("max({}, {})", self.expr(a), self.expr(b)),
                    BinOp::PtrAdd => "+ptr",
                    BinOp::PtrDiff => "-ptr",
                };
                format!("({} {o} {})", self.expr(a), self.expr(b))
            }
            ExprKind::Cast(a) => format!("({}){}", e.ty, self.expr(a)),
            ExprKind::Select(c, a, b) => {
                format!("({} ? {} : {})", self.expr(c), self.expr(a), self.expr(b))
            }
            ExprKind::Load { access, addr } => format!("load#{}[{}]", access.0, self.expr(addr)),
            ExprKind::Call(i, args) => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{i:?}({})", args.join(", "))
            }
            ExprKind::Opaque { reason } => format!("opaque({reason})"),
        }
    }
}

fn dim(d: Dim) -> &'static str {
    match d {
        Dim::X => "x",
        Dim::Y => "y",
        Dim::Z => "z",
    }
}

/// One line per access — `#id line:col space kind type array` — the form the front-end corpus
/// expectations are written in.
/// An expression of `k` as `gmrace ir` prints it.
pub fn print_expr(k: &Kernel, e: &Expr) -> String {
    Printer::new(k).expr(e)
}

pub fn access_table(k: &Kernel) -> String {
    let mut out = String::new();
    for a in &k.accesses {
        let _ = writeln!(
            out,
            "#{} {}:{} {} {} {} {}",
            a.id.0,
            a.span.line,
            a.span.column,
            a.space.name(),
            kind_name(a.kind),
            a.ty.name(),
            a.array.as_deref().unwrap_or("?")
        );
    }
    out
}
