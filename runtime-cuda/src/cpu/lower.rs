//! IR kernel → `Program` (see `program.rs` for the invariants this establishes).

use super::memory::{address, Layout};
use super::program::*;
use gmrace_ir::scalar::{f32_to_f16, width_mask};
use gmrace_ir::{
    AccessId, AssumeKind, BinOp, Expr, ExprKind, Intrinsic, Kernel, LocalId, Scalar, ScopeId, Span,
    Special, Stmt, StmtKind, Ty, UnOp, WarpOp,
};
use std::collections::HashMap;

/// Why a kernel cannot run on the CPU device.
#[derive(Clone, Debug)]
pub struct LowerError {
    pub message: String,
    pub span: Span,
}

const TEMP: u32 = 1 << 30;

#[derive(Clone, Copy, PartialEq)]
enum FrameKind {
    If,
    Loop,
    Scope(ScopeId),
}

struct Lowerer<'a> {
    kernel: &'a Kernel,
    layout: &'a Layout,
    insts: Vec<Inst>,
    spans: Vec<Span>,
    call_sites: Vec<Span>,
    init: Vec<(Reg, RegInit)>,
    nfixed: u32,
    consts: HashMap<u64, Reg>,
    params: HashMap<u32, Reg>,
    specials: Vec<(Special, Reg)>,
    local_regs: Vec<Reg>,
    temps: u32,
    max_temps: u32,
    frames: Vec<FrameKind>,
    printfs: Vec<PrintfSpec>,
    traps: Vec<String>,
    span: Span,
    /// The last main-file span emitted: for instructions of an inlined header function, the
    /// statement of the main file that called it.
    main_span: Span,
    /// Accesses the IR does not record (the `pred` store of `__match_all_sync`), numbered
    /// after the kernel's.
    extra_accesses: Vec<AccessInfo>,
}

/// Class of a value type: pointers are 64-bit unsigned addresses.
pub fn cls(ty: Ty) -> Scalar {
    match ty {
        Ty::Scalar(s) => s,
        Ty::Ptr(_) | Ty::Void => Scalar::U64,
    }
}

pub fn lower(kernel: &Kernel, layout: &Layout) -> Result<Program, LowerError> {
    let mut l = Lowerer {
        kernel,
        layout,
        insts: Vec::new(),
        spans: Vec::new(),
        call_sites: Vec::new(),
        init: Vec::new(),
        nfixed: 0,
        consts: HashMap::new(),
        params: HashMap::new(),
        specials: Vec::new(),
        local_regs: Vec::new(),
        temps: 0,
        max_temps: 0,
        frames: Vec::new(),
        printfs: Vec::new(),
        traps: Vec::new(),
        span: kernel.span,
        main_span: Span::default(),
        extra_accesses: Vec::new(),
    };
    for _ in &kernel.locals {
        let r = l.fixed(RegInit::Const(0));
        l.local_regs.push(r);
    }
    l.block(&kernel.body)?;
    l.span = kernel.span;
    l.emit(Inst::Halt);
    let nfixed = l.nfixed;
    let fix = |r: Reg| if r >= TEMP { nfixed + (r - TEMP) } else { r };
    for i in &mut l.insts {
        i.map_regs(&fix);
    }
    for p in &mut l.printfs {
        for (r, _) in &mut p.args {
            *r = fix(*r);
        }
    }
    let accesses = kernel
        .accesses
        .iter()
        .map(|a| AccessInfo {
            ty: a.ty,
            span: a.span,
        })
        .chain(l.extra_accesses)
        .collect();
    Ok(Program {
        insts: l.insts,
        spans: l.spans,
        call_sites: l.call_sites,
        nregs: nfixed + l.max_temps,
        init: l.init,
        printfs: l.printfs,
        traps: l.traps,
        accesses,
    })
}

impl Lowerer<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, LowerError> {
        Err(LowerError {
            message: message.into(),
            span: self.span,
        })
    }

    fn fixed(&mut self, init: RegInit) -> Reg {
        let r = self.nfixed;
        self.nfixed += 1;
        self.init.push((r, init));
        r
    }

    fn konst(&mut self, bits: u64) -> Reg {
        if let Some(r) = self.consts.get(&bits) {
            return *r;
        }
        let r = self.fixed(RegInit::Const(bits));
        self.consts.insert(bits, r);
        r
    }

    fn temp(&mut self) -> Reg {
        let r = TEMP + self.temps;
        self.temps += 1;
        self.max_temps = self.max_temps.max(self.temps);
        r
    }

    fn emit(&mut self, i: Inst) -> u32 {
        self.insts.push(i);
        self.spans.push(self.span);
        if self.span.file == 0 {
            self.main_span = self.span;
        }
        self.call_sites.push(self.main_span);
        (self.insts.len() - 1) as u32
    }

    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn patch(&mut self, at: u32, f: impl FnOnce(&mut Inst)) {
        if let Some(i) = self.insts.get_mut(at as usize) {
            f(i)
        }
    }

    fn up(&self, target: impl Fn(&FrameKind) -> bool, what: &str) -> Result<u32, LowerError> {
        match self.frames.iter().rev().position(target) {
            Some(p) => Ok(p as u32),
            None => self.err(format!("`{what}` outside of its construct")),
        }
    }

    fn block(&mut self, b: &[Stmt]) -> Result<(), LowerError> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), LowerError> {
        self.span = s.span;
        self.temps = 0;
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                let src = self.expr(value)?;
                let dst = self.local(dst.index())?;
                if src != dst {
                    self.emit(Inst::Mov { dst, src });
                }
            }
            StmtKind::Store {
                access,
                addr,
                value,
            } => {
                self.check_access(access.index())?;
                let addr = self.expr(addr)?;
                let val = self.expr(value)?;
                self.emit(Inst::Store {
                    addr,
                    val,
                    access: access.0,
                });
            }
            StmtKind::Atomic {
                access,
                op,
                addr,
                args,
                dst,
            } => return self.atomic(*access, *op, addr, args, *dst),
            StmtKind::Barrier { kind, pred, dst } => {
                let pred = match pred {
                    Some(p) => self.cond(p)?,
                    None => NONE,
                };
                let dst = match dst {
                    Some(d) => self.local(d.index())?,
                    None => NONE,
                };
                self.emit(Inst::Barrier {
                    kind: *kind,
                    pred,
                    dst,
                });
            }
            StmtKind::SyncWarp { mask } => {
                let mask = self.expr(mask)?;
                self.emit(Inst::SyncWarp { mask });
            }
            // Memory is sequentially consistent on this device: fences change nothing.
            StmtKind::Fence { .. } => {}
            StmtKind::Warp { op, args, dst } => return self.warp(*op, args, *dst, s.span),
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => return self.if_stmt(cond, then_body, else_body, s.span),
            StmtKind::Loop { .. } => return self.loop_stmt(s),
            StmtKind::Break => {
                let up = self.up(|f| *f == FrameKind::Loop, "break")?;
                self.emit(Inst::Break { up });
            }
            StmtKind::Continue => {
                let up = self.up(|f| *f == FrameKind::Loop, "continue")?;
                self.emit(Inst::Continue { up });
            }
            StmtKind::Return => {
                self.emit(Inst::Return);
            }
            StmtKind::Scope { id, body } => {
                let mut exits = false;
                gmrace_ir::walk_stmts(body, &mut |x| {
                    exits |= matches!(x.kind, StmtKind::Exit(e) if e == *id)
                });
                if !exits {
                    return self.block(body);
                }
                let begin = self.emit(Inst::ScopeBegin { end_pc: 0 });
                self.frames.push(FrameKind::Scope(*id));
                self.block(body)?;
                self.frames.pop();
                self.span = s.span;
                let end = self.emit(Inst::ScopeEnd);
                self.patch(begin, |i| {
                    if let Inst::ScopeBegin { end_pc } = i {
                        *end_pc = end;
                    }
                });
            }
            StmtKind::Exit(id) => {
                let up = self.up(|f| *f == FrameKind::Scope(*id), "exit of a scope")?;
                self.emit(Inst::Exit { up });
            }
            StmtKind::Assume { kind, cond } => {
                let mut opaque = false;
                cond.walk(&mut |e| opaque |= matches!(e.kind, ExprKind::Opaque { .. }));
                // GPUVerify-only predicates cannot be evaluated; plain `__assume`s and proof
                // annotations are not checked at run time.
                if *kind == AssumeKind::Requires && !opaque {
                    let cond = self.cond(cond)?;
                    self.emit(Inst::Requires { cond });
                }
            }
            StmtKind::Printf { format, args } => {
                let mut regs = Vec::new();
                for a in args {
                    let r = self.expr(a)?;
                    regs.push((r, cls(a.ty)));
                }
                let id = self.printfs.len() as u32;
                self.printfs.push(PrintfSpec {
                    format: format.clone(),
                    args: regs,
                });
                self.emit(Inst::Printf { id });
            }
            StmtKind::Trap { message } => {
                let id = self.traps.len() as u32;
                self.traps.push(message.clone());
                self.emit(Inst::Trap { id });
            }
            StmtKind::Opaque { reason } => {
                return self.err(format!(
                    "the kernel contains an unsupported construct ({reason})"
                ))
            }
        }
        Ok(())
    }

    /// An atomic read-modify-write; `atomicCAS` needs its swap value.
    fn atomic(
        &mut self,
        access: AccessId,
        op: gmrace_ir::AtomicOp,
        addr: &Expr,
        args: &[Expr],
        dst: Option<LocalId>,
    ) -> Result<(), LowerError> {
        self.check_access(access.index())?;
        let addr = self.expr(addr)?;
        let mut regs = [NONE; 2];
        for (i, a) in args.iter().enumerate().take(2) {
            regs[i] = self.expr(a)?;
        }
        if regs[0] == NONE {
            return self.err("atomic operation without an operand");
        }
        if op == gmrace_ir::AtomicOp::Cas && regs[1] == NONE {
            return self.err("atomicCAS without its swap value");
        }
        let dst = match dst {
            Some(d) => self.local(d.index())?,
            None => NONE,
        };
        self.emit(Inst::Atomic {
            op,
            dst,
            addr,
            a: regs[0],
            b: regs[1],
            access: access.0,
        });
        Ok(())
    }

    /// A warp intrinsic; `__match_all_sync`'s predicate pointer becomes a store.
    fn warp(
        &mut self,
        op: WarpOp,
        args: &[Expr],
        dst: LocalId,
        span: Span,
    ) -> Result<(), LowerError> {
        // `__match_all_sync(mask, value, &pred)` also stores `pred` (an int).
        let (args, pred_ptr) = match (op, args) {
            (WarpOp::MatchAll, [m, v, p, ..]) => (vec![m.clone(), v.clone()], Some(p)),
            _ => (args.to_vec(), None),
        };
        let mut regs = [NONE; 4];
        for (i, a) in args.iter().enumerate() {
            if i >= 4 {
                return self.err("warp intrinsic with too many arguments");
            }
            regs[i] = self.expr(a)?;
        }
        let pred_addr = match pred_ptr {
            Some(p) => Some(self.expr(p)?),
            None => None,
        };
        let c = self
            .kernel
            .locals
            .get(dst.index())
            .map_or(Scalar::U32, |l| cls(l.ty));
        let dst = self.local(dst.index())?;
        self.emit(Inst::Warp {
            op,
            c,
            dst,
            args: regs,
        });
        if let Some(addr) = pred_addr {
            let zero = self.konst(0);
            let t = self.temp();
            self.emit(Inst::Bin {
                op: BinOp::Ne,
                c,
                dst: t,
                a: dst,
                b: zero,
            });
            let access = (self.kernel.accesses.len() + self.extra_accesses.len()) as u32;
            self.extra_accesses.push(AccessInfo {
                ty: Scalar::I32,
                span,
            });
            self.emit(Inst::Store {
                addr,
                val: t,
                access,
            });
        }
        Ok(())
    }

    fn if_stmt(
        &mut self,
        cond: &Expr,
        then_body: &[Stmt],
        else_body: &[Stmt],
        span: Span,
    ) -> Result<(), LowerError> {
        let cond = self.cond(cond)?;
        let begin = self.emit(Inst::IfBegin {
            cond,
            else_pc: 0,
            end_pc: 0,
        });
        self.frames.push(FrameKind::If);
        self.block(then_body)?;
        let else_pc = if else_body.is_empty() {
            None
        } else {
            self.span = span;
            let e = self.emit(Inst::Else { end_pc: 0 });
            self.block(else_body)?;
            Some(e)
        };
        self.frames.pop();
        self.span = span;
        let end = self.emit(Inst::IfEnd);
        self.patch(begin, |i| {
            if let Inst::IfBegin {
                else_pc: e,
                end_pc: x,
                ..
            } = i
            {
                *e = else_pc.unwrap_or(end);
                *x = end;
            }
        });
        if let Some(e) = else_pc {
            self.patch(e, |i| {
                if let Inst::Else { end_pc } = i {
                    *end_pc = end;
                }
            });
        }
        Ok(())
    }

    /// A loop: its test before the body (`test_first`) or after the step, `continue` to the
    /// step.
    fn loop_stmt(&mut self, s: &Stmt) -> Result<(), LowerError> {
        let StmtKind::Loop {
            cond,
            cond_prelude,
            test_first,
            body,
            step,
        } = &s.kind
        else {
            return self.err("not a loop");
        };
        let span = s.span;
        let begin = self.emit(Inst::LoopBegin { cont_pc: 0 });
        self.frames.push(FrameKind::Loop);
        let head = self.pc();
        let mut tests = Vec::new();
        if *test_first {
            tests.extend(self.loop_test(cond_prelude, cond.as_ref(), span)?);
        }
        self.block(body)?;
        self.span = span;
        let cont = self.emit(Inst::LoopCont { end_pc: 0 });
        self.block(step)?;
        if !*test_first {
            tests.extend(self.loop_test(cond_prelude, cond.as_ref(), span)?);
        }
        self.span = span;
        self.emit(Inst::LoopBack {
            head_pc: head,
            cont_pc: cont,
        });
        self.frames.pop();
        let end = self.emit(Inst::LoopEnd);
        self.patch(begin, |i| {
            if let Inst::LoopBegin { cont_pc } = i {
                *cont_pc = cont;
            }
        });
        self.patch(cont, |i| {
            if let Inst::LoopCont { end_pc } = i {
                *end_pc = end;
            }
        });
        for t in tests {
            self.patch(t, |i| {
                if let Inst::LoopTest { end_pc, .. } = i {
                    *end_pc = end;
                }
            });
        }
        Ok(())
    }

    fn check_access(&self, a: usize) -> Result<(), LowerError> {
        if a < self.kernel.accesses.len() {
            Ok(())
        } else {
            self.err("memory access without an access record")
        }
    }

    fn local(&self, i: usize) -> Result<Reg, LowerError> {
        match self.local_regs.get(i) {
            Some(r) => Ok(*r),
            None => self.err(format!("reference to undeclared local #{i}")),
        }
    }

    /// A condition register: non-zero bits are true.
    /// A loop's test: its prelude, then a `LoopTest` (to be patched with the loop's end) where
    /// the loop has a condition.
    fn loop_test(
        &mut self,
        prelude: &[Stmt],
        cond: Option<&Expr>,
        span: Span,
    ) -> Result<Option<u32>, LowerError> {
        self.block(prelude)?;
        let Some(c) = cond else { return Ok(None) };
        self.span = span;
        self.temps = 0;
        let c = self.cond(c)?;
        Ok(Some(self.emit(Inst::LoopTest { cond: c, end_pc: 0 })))
    }

    fn cond(&mut self, e: &Expr) -> Result<Reg, LowerError> {
        let r = self.expr(e)?;
        Ok(self.truth(r, cls(e.ty)))
    }

    fn truth(&mut self, r: Reg, c: Scalar) -> Reg {
        if c.is_float() {
            let dst = self.temp();
            self.emit(Inst::Cast {
                from: c,
                to: Scalar::Bool,
                dst,
                a: r,
            });
            dst
        } else {
            r
        }
    }

    fn expr(&mut self, e: &Expr) -> Result<Reg, LowerError> {
        let c = cls(e.ty);
        Ok(match &e.kind {
            ExprKind::Int(bits) => {
                let v = if c.is_float() {
                    gmrace_ir::scalar::float_bits(*bits as i64 as f64, c)
                } else {
                    bits & width_mask(c.size())
                };
                self.konst(v)
            }
            ExprKind::Float(f) => {
                let v = match c {
                    Scalar::F16 => f32_to_f16(*f as f32) as u64,
                    Scalar::F32 => (*f as f32).to_bits() as u64,
                    Scalar::F64 => f.to_bits(),
                    _ => gmrace_ir::scalar::cast(f.to_bits(), Scalar::F64, c),
                };
                self.konst(v)
            }
            ExprKind::Local(id) => self.local(id.index())?,
            ExprKind::Param(id) => {
                if id.index() >= self.kernel.params.len() {
                    return self.err("reference to an unknown parameter");
                }
                match self.params.get(&id.0) {
                    Some(r) => *r,
                    None => {
                        let r = self.fixed(RegInit::Param(id.0));
                        self.params.insert(id.0, r);
                        r
                    }
                }
            }
            ExprKind::Special(sp) => match self.specials.iter().find(|(s, _)| s == sp) {
                Some((_, r)) => *r,
                None => {
                    let r = self.fixed(RegInit::Special(*sp));
                    self.specials.push((*sp, r));
                    r
                }
            },
            ExprKind::SharedAddr(id) => match self.layout.shared_obj.get(id.index()) {
                Some(o) => self.konst(address(*o, 0)),
                None => return self.err("reference to an unknown shared variable"),
            },
            ExprKind::GlobalAddr(id) => match self.layout.global_obj.get(id.index()) {
                Some(o) => self.konst(address(*o, 0)),
                None => return self.err("reference to an unknown global variable"),
            },
            ExprKind::LocalAddr(id) => match self.layout.local_obj.get(id.index()) {
                Some(o) => self.konst(address(*o, 0)),
                None => return self.err("reference to an unknown local array"),
            },
            ExprKind::Unary(op, a) => {
                let ac = cls(a.ty);
                let ra = self.expr(a)?;
                let (ra, c) = match op {
                    UnOp::LNot => (self.truth(ra, ac), Scalar::Bool),
                    UnOp::Neg | UnOp::Not => (ra, c),
                };
                let dst = self.temp();
                self.emit(Inst::Un {
                    op: *op,
                    c,
                    dst,
                    a: ra,
                });
                dst
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, c)?,
            ExprKind::Cast(a) => {
                let ra = self.expr(a)?;
                self.convert(ra, cls(a.ty), c)
            }
            ExprKind::Select(cond, a, b) => {
                let rc = self.cond(cond)?;
                let ra = self.expr(a)?;
                let rb = self.expr(b)?;
                let ra = self.convert(ra, cls(a.ty), c);
                let rb = self.convert(rb, cls(b.ty), c);
                let dst = self.temp();
                self.emit(Inst::Select {
                    dst,
                    c: rc,
                    a: ra,
                    b: rb,
                });
                dst
            }
            ExprKind::Load { access, addr } => {
                self.check_access(access.index())?;
                let addr = self.expr(addr)?;
                let dst = self.temp();
                self.emit(Inst::Load {
                    dst,
                    addr,
                    access: access.0,
                });
                dst
            }
            ExprKind::Call(f, args) => self.call(*f, args, c)?,
            ExprKind::Opaque { reason } => {
                return self.err(format!(
                    "the kernel contains an unsupported expression ({reason})"
                ))
            }
        })
    }

    /// `a op b` of class `c`: comparisons in their operands' class, logical operators on
    /// truth values, pointer arithmetic on 64-bit addresses, the rest in `c` with the operands
    /// converted to it.
    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, c: Scalar) -> Result<Reg, LowerError> {
        let ac = cls(a.ty);
        let bc = cls(b.ty);
        let mut ra = self.expr(a)?;
        let mut rb = self.expr(b)?;
        let (k, class) = match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (op, ac),
            BinOp::LAnd | BinOp::LOr => {
                ra = self.truth(ra, ac);
                rb = self.truth(rb, bc);
                (op, Scalar::Bool)
            }
            BinOp::PtrAdd => {
                // The offset is a signed byte count; widen it to 64 bits first.
                if bc.size() < 8 {
                    let w = self.temp();
                    let to = if bc.is_signed() {
                        Scalar::I64
                    } else {
                        Scalar::U64
                    };
                    self.emit(Inst::Cast {
                        from: bc,
                        to,
                        dst: w,
                        a: rb,
                    });
                    rb = w;
                }
                (BinOp::Add, Scalar::U64)
            }
            BinOp::PtrDiff => (BinOp::Sub, Scalar::I64),
            _ => (op, c),
        };
        // Operands of a different class than the operation (e.g. a shift amount of
        // another width) are converted, as C's conversions would have.
        if !matches!(k, BinOp::LAnd | BinOp::LOr) && op != BinOp::PtrAdd && op != BinOp::PtrDiff {
            ra = self.convert(ra, ac, class);
            rb = self.convert(rb, bc, class);
        }
        let dst = self.temp();
        self.emit(Inst::Bin {
            op: k,
            c: class,
            dst,
            a: ra,
            b: rb,
        });
        Ok(dst)
    }

    /// A pure intrinsic call: its arguments (float math takes them in the first one's class).
    fn call(&mut self, f: Intrinsic, args: &[Expr], c: Scalar) -> Result<Reg, LowerError> {
        let need = match f {
            Intrinsic::Clock => 0,
            Intrinsic::Pow
            | Intrinsic::Fmod
            | Intrinsic::MulHi
            | Intrinsic::Mul24
            | Intrinsic::Ldexp
            | Intrinsic::Atan2
            | Intrinsic::Hypot => 2,
            Intrinsic::Fma | Intrinsic::Sad | Intrinsic::Usad4 => 3,
            Intrinsic::Random => return self.err("cuRAND is not supported by the CPU device yet"),
            Intrinsic::Texture => {
                return self.err(
                    "texture fetches are not supported by the CPU device (the launch \
                     spec cannot give texture contents yet)",
                )
            }
            _ => 1,
        };
        if args.len() < need {
            return self.err(format!(
                "call of {f:?} with {} arguments, expected {need}",
                args.len()
            ));
        }
        let ac = args.first().map_or(c, |a| cls(a.ty));
        let mut regs = [NONE; 3];
        for (i, a) in args.iter().take(need).enumerate() {
            let r = self.expr(a)?;
            // Float math takes all its operands in the first one's class (except
            // `ldexp`'s exponent); integer intrinsics keep theirs.
            regs[i] = if i > 0 && ac.is_float() && f != Intrinsic::Ldexp {
                self.convert(r, cls(a.ty), ac)
            } else {
                r
            };
        }
        let dst = self.temp();
        self.emit(Inst::Call {
            f,
            c,
            ac,
            dst,
            args: regs,
        });
        Ok(dst)
    }

    fn convert(&mut self, r: Reg, from: Scalar, to: Scalar) -> Reg {
        if from == to
            || (!from.is_float()
                && !to.is_float()
                && from.size() == to.size()
                && from != Scalar::Bool
                && to != Scalar::Bool)
        {
            // Same bits (signedness is a matter of the operation).
            return r;
        }
        let dst = self.temp();
        self.emit(Inst::Cast {
            from,
            to,
            dst,
            a: r,
        });
        dst
    }
}
