//! The executable form of a kernel: a flat list of warp-instructions over a register file.
//!
//! Invariants (established by `lower`, relied on by `exec`):
//! - A register is 32 lanes of canonical bits (`gmrace_ir::scalar`). Registers `0..fixed` are
//!   locals, constants, parameters and hardware values, initialised once per warp from `init`;
//!   registers `fixed..nregs` are statement temporaries, dead after the statement that computes
//!   them.
//! - *Pure* instructions (`Un`, `Bin`, `Cast`, `Select`, `Call`) compute all 32 lanes, active or
//!   not, and write a temporary distinct from their operands; garbage in inactive lanes is never
//!   observed. Every other instruction touches only active lanes: `Mov` (assignment to a local),
//!   memory accesses, warp operations.
//! - Conditions (`IfBegin`, `LoopTest`, `Select`, `Requires`, barrier predicates) are registers
//!   whose non-zero bits mean true (float conditions are cast to bool first).
//! - Control flow is structured: `IfBegin`/`Else`/`IfEnd`, `LoopBegin`/`LoopTest`/`LoopCont`/
//!   `LoopBack`/`LoopEnd` and `ScopeBegin`/`ScopeEnd` nest properly, and each pushes/pops one
//!   runtime frame. `Break`/`Continue`/`Exit` name their target frame by its distance `up` from
//!   the innermost frame at that point. Every loop iteration executes at least one instruction
//!   (`LoopBack`), so the step budget always ends a non-terminating kernel.

use gmrace_ir::{AtomicOp, BarrierKind, BinOp, Intrinsic, Scalar, Span, Special, UnOp, WarpOp};

pub type Reg = u32;
/// "No register" (an absent predicate or destination).
pub const NONE: Reg = u32::MAX;

/// A warp register: one canonical value (`gmrace_ir::scalar`) per lane.
pub type Lanes = [u64; 32];

#[derive(Clone, Copy, Debug)]
pub enum Inst {
    Un {
        op: UnOp,
        c: Scalar,
        dst: Reg,
        a: Reg,
    },
    Bin {
        op: BinOp,
        c: Scalar,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Cast {
        from: Scalar,
        to: Scalar,
        dst: Reg,
        a: Reg,
    },
    Select {
        dst: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    /// `c`: result class; `ac`: class of the first argument. Unused arguments are `NONE`.
    Call {
        f: Intrinsic,
        c: Scalar,
        ac: Scalar,
        dst: Reg,
        args: [Reg; 3],
    },
    /// Masked copy into a local.
    Mov {
        dst: Reg,
        src: Reg,
    },
    Load {
        dst: Reg,
        addr: Reg,
        access: u32,
    },
    Store {
        addr: Reg,
        val: Reg,
        access: u32,
    },
    /// `b` is the swap value of `Cas` (`a` its compare value); `dst` may be `NONE`.
    Atomic {
        op: AtomicOp,
        dst: Reg,
        addr: Reg,
        a: Reg,
        b: Reg,
        access: u32,
    },
    Barrier {
        kind: BarrierKind,
        pred: Reg,
        dst: Reg,
    },
    SyncWarp {
        mask: Reg,
    },
    /// `args[0]` is the member mask (absent for `ActiveMask`); `c` is the class of `dst`.
    Warp {
        op: WarpOp,
        c: Scalar,
        dst: Reg,
        args: [Reg; 4],
    },
    Printf {
        id: u32,
    },
    Trap {
        id: u32,
    },
    Requires {
        cond: Reg,
    },
    IfBegin {
        cond: Reg,
        else_pc: u32,
        end_pc: u32,
    },
    Else {
        end_pc: u32,
    },
    IfEnd,
    LoopBegin {
        cont_pc: u32,
    },
    LoopTest {
        cond: Reg,
        end_pc: u32,
    },
    LoopCont {
        end_pc: u32,
    },
    LoopBack {
        head_pc: u32,
        cont_pc: u32,
    },
    LoopEnd,
    ScopeBegin {
        end_pc: u32,
    },
    ScopeEnd,
    Break {
        up: u32,
    },
    Continue {
        up: u32,
    },
    Exit {
        up: u32,
    },
    Return,
    Halt,
}

/// How a fixed register is initialised when a warp starts.
#[derive(Clone, Copy, Debug)]
pub enum RegInit {
    Const(u64),
    /// A kernel parameter's value (scalar bits or buffer address).
    Param(u32),
    Special(Special),
}

#[derive(Clone, Debug)]
pub struct PrintfSpec {
    pub format: String,
    pub args: Vec<(Reg, Scalar)>,
}

/// What an instruction's memory access is, for execution and for fault reports.
#[derive(Clone, Debug)]
pub struct AccessInfo {
    pub ty: Scalar,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub insts: Vec<Inst>,
    /// Source location of each instruction.
    pub spans: Vec<Span>,
    /// Per instruction, the main file's location it was reached from (itself in the main
    /// file; the calling statement in an inlined device function of a header).
    pub call_sites: Vec<Span>,
    pub nregs: u32,
    pub init: Vec<(Reg, RegInit)>,
    pub printfs: Vec<PrintfSpec>,
    pub traps: Vec<String>,
    /// By `AccessId`.
    pub accesses: Vec<AccessInfo>,
}

impl Inst {
    /// Applies `f` to every register operand (used to place temporaries after the fixed ones).
    pub fn map_regs(&mut self, f: &impl Fn(Reg) -> Reg) {
        let g = |r: &mut Reg| {
            if *r != NONE {
                *r = f(*r)
            }
        };
        match self {
            Inst::Un { dst, a, .. } | Inst::Cast { dst, a, .. } => {
                g(dst);
                g(a);
            }
            Inst::Bin { dst, a, b, .. } => {
                g(dst);
                g(a);
                g(b);
            }
            Inst::Select { dst, c, a, b } => {
                g(dst);
                g(c);
                g(a);
                g(b);
            }
            Inst::Call { dst, args, .. } => {
                g(dst);
                args.iter_mut().for_each(g);
            }
            Inst::Mov { dst, src } => {
                g(dst);
                g(src);
            }
            Inst::Load { dst, addr, .. } => {
                g(dst);
                g(addr);
            }
            Inst::Store { addr, val, .. } => {
                g(addr);
                g(val);
            }
            Inst::Atomic {
                dst, addr, a, b, ..
            } => {
                g(dst);
                g(addr);
                g(a);
                g(b);
            }
            Inst::Barrier { pred, dst, .. } => {
                g(pred);
                g(dst);
            }
            Inst::SyncWarp { mask } => g(mask),
            Inst::Warp { dst, args, .. } => {
                g(dst);
                args.iter_mut().for_each(g);
            }
            Inst::Requires { cond } | Inst::IfBegin { cond, .. } | Inst::LoopTest { cond, .. } => {
                g(cond)
            }
            Inst::Printf { .. }
            | Inst::Trap { .. }
            | Inst::Else { .. }
            | Inst::IfEnd
            | Inst::LoopBegin { .. }
            | Inst::LoopCont { .. }
            | Inst::LoopBack { .. }
            | Inst::LoopEnd
            | Inst::ScopeBegin { .. }
            | Inst::ScopeEnd
            | Inst::Break { .. }
            | Inst::Continue { .. }
            | Inst::Exit { .. }
            | Inst::Return
            | Inst::Halt => {}
        }
    }
}
