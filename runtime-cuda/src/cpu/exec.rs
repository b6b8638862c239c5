//! Executes one block of a `Program`: its warps in lockstep with active masks, a round-robin
//! warp scheduler, block barriers, and every memory access checked.
//!
//! Per warp: `active` (lanes executing now), `exited` (lanes that returned), `parked` (lanes
//! waiting in some frame's mask: the other side of an `if`, `break`/`continue`/scope-exit
//! masks, plus `exited`), and a stack of frames, one per enclosing `if`/loop/scope. A frame
//! remembers the lanes that entered it; when it ends, `active = entry & !parked` — the lanes
//! that entered and did not leave (reconvergence at the construct's end, its immediate
//! post-dominator). When `active` becomes empty the warp jumps to the innermost frame's
//! `resume` point: the `else` part, the loop's continue point, or the construct's end.
//!
//! Scheduling: warps run in order, each up to a quantum of warp-instructions or until it
//! reaches a barrier or finishes; then the next. So warps that spin on each other make
//! progress, and the order is deterministic. When no warp can run, the waiting warps must all
//! be at the same barrier (else: barrier divergence).

mod step;

use super::memory::{resolve, GlobalMem, ObjDesc, ObjKind, Resolved, OFFSET_MASK};
use super::printf;
use super::program::*;
use super::trace::{TraceEvent, TraceKind};
use crate::report::{thread_ranges, Fault, FaultKind, Loc, MemDetail, Note};
use crate::RunProgress;
use gmrace_ir::scalar::{self, width_mask};
use gmrace_ir::{AtomicOp, BarrierKind, BinOp, Dim, Intrinsic, Scalar, Span, Special, WarpOp};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use step::{Cursor, Halt};

/// Warp-instructions a warp runs before the scheduler moves to the next warp.
pub const QUANTUM: u64 = 4096;
/// Quanta between two progress reports within a block (about a million warp-instructions).
const PROGRESS_QUANTA: u64 = 256;

/// What all blocks of a launch share.
pub struct LaunchEnv<'a> {
    pub prog: &'a Program,
    pub objs: &'a [ObjDesc],
    pub gmem: &'a GlobalMem,
    pub files: &'a [String],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    /// Value of each kernel parameter (scalar bits or buffer address).
    pub param_bits: &'a [u64],
    /// Size of each per-block shared slot.
    pub shared_sizes: &'a [u64],
    pub local_frame: u64,
    /// Bytes of printf output a block may produce.
    pub printf_limit: usize,
    /// The launch's step budget (for messages).
    pub budget: crate::StepBudget,
    pub progress: Option<&'a crate::Progress>,
    /// Blocks finished, for progress reports.
    pub blocks_done: &'a AtomicU64,
}

impl LaunchEnv<'_> {
    /// Tells the progress callback, if any, where the launch is (`left`: the budget not spent).
    pub fn report_progress(&self, left: u64) {
        if let Some(cb) = self.progress {
            cb(RunProgress {
                blocks_done: self.blocks_done.load(Ordering::Relaxed),
                blocks: self.grid_dim.iter().map(|&g| g as u64).product(),
                steps: self.budget.steps.saturating_sub(left),
                budget: self.budget.steps,
            });
        }
    }
}

/// The step budget: exact when blocks run in order, shared and approximate (ending in a re-run
/// in order) when they run in parallel.
pub enum Budget<'a> {
    Seq(u64),
    Par {
        remaining: &'a AtomicU64,
        abort: &'a AtomicBool,
    },
}

impl Budget<'_> {
    fn take(&mut self, want: u64) -> u64 {
        match self {
            Budget::Seq(r) => {
                let g = want.min(*r);
                *r -= g;
                g
            }
            Budget::Par { remaining, abort } => {
                if abort.load(Ordering::Relaxed) {
                    return 0;
                }
                let mut cur = remaining.load(Ordering::Relaxed);
                loop {
                    if cur < want {
                        abort.store(true, Ordering::Relaxed);
                        return 0;
                    }
                    match remaining.compare_exchange_weak(
                        cur,
                        cur - want,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => return want,
                        Err(c) => cur = c,
                    }
                }
            }
        }
    }
    fn give_back(&mut self, n: u64) {
        match self {
            Budget::Seq(r) => *r += n,
            Budget::Par { remaining, .. } => {
                remaining.fetch_add(n, Ordering::Relaxed);
            }
        }
    }
    pub fn left(&self) -> u64 {
        match self {
            Budget::Seq(r) => *r,
            Budget::Par { remaining, .. } => remaining.load(Ordering::Relaxed),
        }
    }
}

/// How a block ended.
pub enum BlockEnd {
    Done,
    Fault(Box<Fault>),
    /// The step budget ran out (the fault describes where the warps were).
    Budget(Box<Fault>),
    /// Parallel mode only: this block depends on another one, or another block aborted.
    Abort,
}

#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    entry: u32,
    /// Else lanes (if), break lanes (loop), exited lanes (scope).
    a: u32,
    /// Continue lanes (loop).
    b: u32,
    resume: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Ready,
    Barrier,
    Done,
}

struct Warp {
    regs: Vec<Lanes>,
    local: Vec<u8>,
    pc: u32,
    active: u32,
    parked: u32,
    exited: u32,
    present: u32,
    frames: Vec<Frame>,
    state: State,
    /// Lanes whose barrier predicate was true.
    bar_pred: u32,
    /// Block barriers passed and warp-instructions executed (for the access trace).
    barriers: u32,
    executed: u64,
}

impl Warp {
    /// A warp with nothing left to run: what stands in `BlockRun::warps` while its warp runs.
    fn finished() -> Warp {
        Warp {
            regs: Vec::new(),
            local: Vec::new(),
            pc: 0,
            active: 0,
            parked: 0,
            exited: 0,
            present: 0,
            frames: Vec::new(),
            state: State::Done,
            bar_pred: 0,
            barriers: 0,
            executed: 0,
        }
    }
}

enum Stop {
    Quantum,
    Barrier,
    Done,
    Conflict,
}

pub struct BlockRun<'a> {
    env: &'a LaunchEnv<'a>,
    block: [u32; 3],
    /// 1-based block number for conflict tracking (0: no tracking).
    who: u32,
    shared: Vec<Vec<u8>>,
    warps: Vec<Warp>,
    pub printf: String,
    pub printf_truncated: bool,
    pub steps: u64,
    /// Quanta granted since the last progress report.
    quanta: u64,
    pub thread_instructions: u64,
    /// Shared-memory accesses, when the run is traced.
    pub trace: Option<Vec<TraceEvent>>,
    linear: u64,
}

/// A memory access that did not complete.
enum MemErr {
    Fault(Resolved),
    ReadOnly(u32, u64),
    Conflict,
}

/// `__cvta_generic_to_shared`: the offset in the block's shared window of an address in a
/// shared object; any other address gives its offset in its object, as unusable as the value a
/// GPU gives for a non-shared pointer.
fn shared_offset(objs: &[ObjDesc], addr: u64) -> u64 {
    match resolve(objs, addr, 1) {
        Resolved::Ok { obj, offset } => match objs[obj as usize].kind {
            ObjKind::Shared(_) => objs[obj as usize].window + offset,
            _ => offset,
        },
        _ => addr & OFFSET_MASK,
    }
}

#[inline(always)]
fn truth_mask(r: &Lanes, active: u32) -> u32 {
    let mut m = 0u32;
    for (l, v) in r.iter().enumerate() {
        m |= ((*v != 0) as u32) << l;
    }
    m & active
}

#[inline(always)]
fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros();
            m &= m - 1;
            Some(l as usize)
        }
    })
}

/// Destination and two sources of a pure instruction (the destination is never a source).
#[inline(always)]
fn dest_and_sources(
    regs: &mut [Lanes],
    d: Reg,
    a: Reg,
    b: Reg,
) -> Option<(&mut Lanes, &Lanes, &Lanes)> {
    let d = d as usize;
    let (lo, rest) = regs.split_at_mut(d);
    let (dst, hi) = rest.split_first_mut()?;
    let (lo, hi) = (&*lo, &*hi);
    let get = |r: Reg| {
        let r = r as usize;
        if r < d {
            lo.get(r)
        } else if r > d {
            hi.get(r - d - 1)
        } else {
            None
        }
    };
    Some((dst, get(a)?, get(b)?))
}

#[inline(always)]
fn dest_and_source(regs: &mut [Lanes], d: Reg, a: Reg) -> Option<(&mut Lanes, &Lanes)> {
    let (dst, x, _) = dest_and_sources(regs, d, a, a)?;
    Some((dst, x))
}

fn read_le(buf: &[u8], at: usize, size: u32) -> u64 {
    let mut w = [0u8; 8];
    if let Some(s) = buf.get(at..at + size as usize) {
        w[..size as usize].copy_from_slice(s);
    }
    u64::from_le_bytes(w)
}

fn write_le(buf: &mut [u8], at: usize, size: u32, bits: u64) {
    if let Some(s) = buf.get_mut(at..at + size as usize) {
        s.copy_from_slice(&bits.to_le_bytes()[..size as usize]);
    }
}

/// New value of an atomic read-modify-write; its arithmetic is `gmrace_ir::scalar`'s.
fn atomic_new(op: AtomicOp, ty: Scalar, old: u64, a: u64, b: u64) -> u64 {
    let m = width_mask(ty.size());
    let arith = |op| scalar::binary(op, ty, old, a);
    match op {
        AtomicOp::Add => arith(BinOp::Add),
        AtomicOp::Sub => arith(BinOp::Sub),
        AtomicOp::Min => arith(BinOp::Min),
        AtomicOp::Max => arith(BinOp::Max),
        AtomicOp::And => arith(BinOp::And),
        AtomicOp::Or => arith(BinOp::Or),
        AtomicOp::Xor => arith(BinOp::Xor),
        AtomicOp::Exch => a,
        AtomicOp::Inc => {
            if old >= a {
                0
            } else {
                (old + 1) & m
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
        AtomicOp::Cas => {
            if old == a {
                b
            } else {
                old
            }
        }
    }
}

impl<'a> BlockRun<'a> {
    /// Sets up block `linear` (x fastest) with its warps' registers and memory.
    pub fn new(env: &'a LaunchEnv<'a>, linear: u64, track: bool) -> BlockRun<'a> {
        let [gx, gy, _] = env.grid_dim.map(|g| g.max(1) as u64);
        let block = [
            (linear % gx) as u32,
            ((linear / gx) % gy) as u32,
            (linear / (gx * gy)) as u32,
        ];
        let [bx, by, bz] = env.block_dim;
        let threads = bx * by * bz;
        let nwarps = threads.div_ceil(32);
        let prog = env.prog;
        let mut template = vec![[0u64; 32]; prog.nregs as usize];
        let mut tid_regs = Vec::new();
        for (r, init) in &prog.init {
            let v = match init {
                RegInit::Const(b) => *b,
                RegInit::Param(p) => env.param_bits.get(*p as usize).copied().unwrap_or(0),
                RegInit::Special(s) => match s {
                    Special::BlockIdx(d) => block[dim(*d)] as u64,
                    Special::BlockDim(d) => env.block_dim[dim(*d)] as u64,
                    Special::GridDim(d) => env.grid_dim[dim(*d)] as u64,
                    Special::WarpSize => 32,
                    Special::ThreadIdx(d) => {
                        tid_regs.push((*r, *d));
                        0
                    }
                },
            };
            if let Some(reg) = template.get_mut(*r as usize) {
                *reg = [v; 32];
            }
        }
        let frame = env.local_frame as usize;
        let warps = (0..nwarps)
            .map(|w| {
                let mut regs = template.clone();
                for (r, d) in &tid_regs {
                    if let Some(reg) = regs.get_mut(*r as usize) {
                        for (l, v) in reg.iter_mut().enumerate() {
                            let t = w * 32 + l as u32;
                            *v = match d {
                                Dim::X => t % bx,
                                Dim::Y => (t / bx) % by,
                                Dim::Z => t / (bx * by),
                            } as u64;
                        }
                    }
                }
                let n = (threads - w * 32).min(32);
                let present = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
                Warp {
                    regs,
                    local: vec![0u8; frame * 32],
                    pc: 0,
                    active: present,
                    parked: 0,
                    exited: 0,
                    present,
                    frames: Vec::new(),
                    state: State::Ready,
                    bar_pred: 0,
                    barriers: 0,
                    executed: 0,
                }
            })
            .collect();
        BlockRun {
            env,
            block,
            who: if track { (linear + 1) as u32 } else { 0 },
            shared: env
                .shared_sizes
                .iter()
                .map(|s| vec![0u8; *s as usize])
                .collect(),
            warps,
            printf: String::new(),
            printf_truncated: false,
            steps: 0,
            quanta: 0,
            thread_instructions: 0,
            trace: None,
            linear,
        }
    }

    fn thread(&self, w: usize, lane: usize) -> [u32; 3] {
        let [bx, by, _] = self.env.block_dim;
        let t = (w * 32 + lane) as u32;
        [t % bx, (t / bx) % by, t / (bx * by)]
    }

    fn file_loc(&self, span: Span) -> Option<Loc> {
        (span.line > 0).then(|| Loc {
            file: self
                .env
                .files
                .get(span.file as usize)
                .cloned()
                .unwrap_or_else(|| "?".into()),
            line: span.line,
            column: span.column,
            called_from: None,
        })
    }

    /// The location of `span`, reached at instruction `pc`: outside the main file (a device
    /// function of a header, inlined) it also says where the main file called it.
    fn loc(&self, span: Span, pc: usize) -> Option<Loc> {
        let mut loc = self.file_loc(span)?;
        if span.file != 0 {
            let site = self.env.prog.call_sites.get(pc).copied();
            loc.called_from = site.and_then(|s| self.file_loc(s)).map(Box::new);
        }
        Some(loc)
    }

    /// A fault at instruction `pc` (its span is the location).
    fn fault(&self, kind: FaultKind, message: String, pc: usize, w: usize, mask: u32) -> Fault {
        let threads: Vec<[u32; 3]> = lanes(mask).take(32).map(|l| self.thread(w, l)).collect();
        let span = self.env.prog.spans.get(pc).copied().unwrap_or_default();
        Fault {
            kind,
            message,
            loc: self.loc(span, pc),
            block: Some(self.block),
            threads,
            thread_count: mask.count_ones(),
            memory: None,
            notes: Vec::new(),
        }
    }

    fn tids(w: usize, mask: u32) -> Vec<u32> {
        lanes(mask).map(|l| (w * 32 + l) as u32).collect()
    }

    /// Runs the block to completion, a fault, or the end of the budget.
    pub fn run(&mut self, budget: &mut Budget) -> BlockEnd {
        loop {
            let mut ran = false;
            for w in 0..self.warps.len() {
                if self.warps[w].state != State::Ready {
                    continue;
                }
                ran = true;
                let grant = budget.take(QUANTUM);
                if grant == 0 {
                    return match budget {
                        Budget::Seq(_) => BlockEnd::Budget(Box::new(self.budget_fault())),
                        Budget::Par { .. } => BlockEnd::Abort,
                    };
                }
                self.quanta += 1;
                if self.quanta == PROGRESS_QUANTA {
                    self.quanta = 0;
                    self.env.report_progress(budget.left());
                }
                match self.run_warp(w, grant) {
                    Ok((stop, used)) => {
                        budget.give_back(grant - used);
                        self.steps += used;
                        match stop {
                            Stop::Conflict => return BlockEnd::Abort,
                            Stop::Done => self.warps[w].state = State::Done,
                            Stop::Barrier => self.warps[w].state = State::Barrier,
                            Stop::Quantum => {}
                        }
                    }
                    Err((f, used)) => {
                        self.steps += used;
                        return BlockEnd::Fault(f);
                    }
                }
            }
            if !ran {
                let waiting: Vec<usize> = (0..self.warps.len())
                    .filter(|w| self.warps[*w].state == State::Barrier)
                    .collect();
                if waiting.is_empty() {
                    return BlockEnd::Done;
                }
                if let Err(f) = self.release_barrier(&waiting) {
                    return BlockEnd::Fault(f);
                }
            }
        }
    }

    fn budget_fault(&self) -> Fault {
        let mut notes = Vec::new();
        for (w, warp) in self.warps.iter().enumerate() {
            let span = self
                .env
                .prog
                .spans
                .get(warp.pc as usize)
                .copied()
                .unwrap_or_default();
            let what = match warp.state {
                State::Done => continue,
                State::Barrier => "waits at the barrier",
                State::Ready => "is running",
            };
            notes.push(Note {
                message: format!(
                    "warp {w} (threads {}) {what} here",
                    thread_ranges(
                        &Self::tids(w, warp.present & !warp.exited),
                        self.env.block_dim
                    )
                ),
                loc: self.loc(span, warp.pc as usize),
            });
        }
        let running = self
            .warps
            .iter()
            .position(|w| w.state == State::Ready)
            .unwrap_or(0);
        let (pc, active) = self.warps.get(running).map_or((0, 0), |w| (w.pc, w.active));
        let waiting = self.warps.iter().any(|w| w.state == State::Barrier);
        let mut f = self.fault(
            FaultKind::StepBudget,
            format!(
                "the kernel did not finish within {}{}",
                self.env.budget.describe(),
                if waiting {
                    "; some warps wait at a barrier while others keep running (a deadlock if \
                     they wait for each other)"
                } else {
                    ""
                }
            ),
            pc as usize,
            running,
            active,
        );
        f.notes = notes;
        f
    }

    fn release_barrier(&mut self, waiting: &[usize]) -> Result<(), Box<Fault>> {
        let pc0 = self.warps[waiting[0]].pc;
        if waiting.iter().any(|w| self.warps[*w].pc != pc0) {
            // Group the waiting threads by barrier; the one with the fewest is the divergent one.
            let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
            for &w in waiting {
                let warp = &self.warps[w];
                let tids = Self::tids(w, warp.active);
                match groups.iter_mut().find(|g| g.0 == warp.pc) {
                    Some(g) => g.1.extend(tids),
                    None => groups.push((warp.pc, tids)),
                }
            }
            groups.sort_by_key(|g| (g.1.len(), g.0));
            let span_of = |pc: u32| {
                self.env
                    .prog
                    .spans
                    .get(pc as usize)
                    .copied()
                    .unwrap_or_default()
            };
            let (pc, tids) = &groups[0];
            let first_w = waiting
                .iter()
                .copied()
                .find(|w| self.warps[*w].pc == *pc)
                .unwrap_or(0);
            let mut f = self.fault(
                FaultKind::BarrierDivergence,
                format!(
                    "barrier divergence: threads {} of block ({},{},{}) wait at this barrier, \
                     the block's other threads do not reach it",
                    thread_ranges(tids, self.env.block_dim),
                    self.block[0],
                    self.block[1],
                    self.block[2]
                ),
                *pc as usize,
                first_w,
                self.warps[first_w].active,
            );
            f.thread_count = tids.len() as u32;
            for (opc, otids) in &groups[1..] {
                f.notes.push(Note {
                    message: format!(
                        "threads {} wait at another barrier",
                        thread_ranges(otids, self.env.block_dim)
                    ),
                    loc: self.loc(span_of(*opc), *opc as usize),
                });
            }
            return Err(Box::new(f));
        }
        let Some(Inst::Barrier { kind, dst, .. }) = self.env.prog.insts.get(pc0 as usize).copied()
        else {
            return Err(Box::new(self.internal("barrier state without a barrier")));
        };
        let mut count = 0u64;
        let mut all = 0u64;
        for &w in waiting {
            count += self.warps[w].bar_pred.count_ones() as u64;
            all += self.warps[w].active.count_ones() as u64;
        }
        let result = match kind {
            BarrierKind::Sync | BarrierKind::Count => count,
            BarrierKind::And => (count == all) as u64,
            BarrierKind::Or => (count > 0) as u64,
        };
        for &w in waiting {
            let warp = &mut self.warps[w];
            if dst != NONE {
                if let Some(r) = warp.regs.get_mut(dst as usize) {
                    for l in lanes(warp.active) {
                        r[l] = result;
                    }
                }
            }
            warp.pc += 1;
            warp.state = State::Ready;
            warp.barriers += 1;
        }
        Ok(())
    }

    fn internal(&self, what: &str) -> Fault {
        Fault {
            kind: FaultKind::Trap,
            message: format!("internal error of the CPU device: {what}"),
            loc: None,
            block: Some(self.block),
            threads: Vec::new(),
            thread_count: 0,
            memory: None,
            notes: Vec::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mem_fault(
        &self,
        e: &MemErr,
        addr: u64,
        size: u32,
        kind: &'static str,
        (access, pc): (u32, usize),
        w: usize,
        mask: u32,
    ) -> Fault {
        let span = self
            .env
            .prog
            .accesses
            .get(access as usize)
            .map_or(Span::default(), |a| a.span);
        let objs = self.env.objs;
        let (fk, what, obj, off) = match e {
            MemErr::Fault(Resolved::OutOfBounds { obj, offset }) => (
                FaultKind::OutOfBounds,
                "out-of-bounds",
                Some(*obj),
                Some(*offset),
            ),
            MemErr::Fault(Resolved::Misaligned { obj, offset }) => (
                FaultKind::Misaligned,
                "misaligned",
                Some(*obj),
                Some(*offset as i64),
            ),
            MemErr::ReadOnly(obj, offset) => (
                FaultKind::ReadOnlyWrite,
                "read-only",
                Some(*obj),
                Some(*offset as i64),
            ),
            _ => (FaultKind::InvalidAddress, "invalid-address", None, None),
        };
        let o = obj.and_then(|o| objs.get(o as usize));
        let message = match (fk, o, off) {
            (FaultKind::OutOfBounds, Some(o), Some(off)) => format!(
                "out-of-bounds {kind} of {size} bytes: {} {} `{}` ({} bytes)",
                if off < 0 {
                    format!("{} bytes before the start of", -off)
                } else {
                    format!("byte offset {off} of")
                },
                o.space.name(),
                o.name,
                o.size
            ),
            (FaultKind::Misaligned, Some(o), Some(off)) => format!(
                "misaligned {kind} of {size} bytes at byte offset {off} of {} `{}`",
                o.space.name(),
                o.name
            ),
            (FaultKind::ReadOnlyWrite, Some(o), _) => {
                format!("{kind} to read-only {} memory `{}`", o.space.name(), o.name)
            }
            _ => format!(
                "{kind} of {size} bytes at address {addr:#x}, which belongs to no object ({what})"
            ),
        };
        let mut f = self.fault(fk, message, pc, w, mask);
        // The access names the expression, more precisely than the instruction's statement.
        f.loc = self.loc(span, pc);
        f.memory = Some(MemDetail {
            kind,
            size,
            address: addr,
            object: o.map(|o| o.name.clone()),
            space: o.map(|o| o.space.name()),
            byte_offset: off,
            object_size: o.map(|o| o.size),
        });
        f
    }

    /// Runs warp `w` for at most `quantum` warp-instructions (`step.rs` executes each).
    fn run_warp(&mut self, w: usize, quantum: u64) -> Result<(Stop, u64), (Box<Fault>, u64)> {
        let insts = &self.env.prog.insts[..];
        // Out of `self.warps` while it runs, so that an instruction may borrow the block too.
        let mut warp = std::mem::replace(&mut self.warps[w], Warp::finished());
        let mut at = Cursor {
            pc: warp.pc as usize,
            active: warp.active,
            steps: 0,
        };
        let mut thread_instructions = 0u64;
        let halt = loop {
            if at.steps >= quantum {
                break Halt::Stop(Stop::Quantum);
            }
            let Some(&inst) = insts.get(at.pc) else {
                break Halt::Fault(Box::new(self.internal("program counter out of range")));
            };
            at.steps += 1;
            thread_instructions += at.active.count_ones() as u64;
            if let Err(halt) = self.step(w, &mut warp, &mut at, inst) {
                break halt;
            }
        };
        warp.pc = at.pc as u32;
        warp.active = at.active;
        warp.executed += at.steps;
        self.thread_instructions += thread_instructions;
        self.warps[w] = warp;
        match halt {
            Halt::Fault(f) => Err((f, at.steps)),
            Halt::Stop(stop) => Ok((stop, at.steps)),
        }
    }

    /// Checks the member mask of `__syncwarp`/`*_sync`: each calling lane is in its mask, and
    /// every non-exited lane its mask names is here.
    fn check_warp_mask(
        &self,
        warp: &Warp,
        w: usize,
        active: u32,
        mv: &Lanes,
        pc: usize,
        what: &str,
    ) -> Option<Fault> {
        let live = warp.present & !warp.exited;
        let mut not_in = 0u32;
        let mut missing = 0u32;
        for l in lanes(active) {
            let m = mv[l] as u32;
            if m >> l & 1 == 0 {
                not_in |= 1 << l;
            }
            missing |= m & live & !active;
        }
        if not_in == 0 && missing == 0 {
            return None;
        }
        let bd = self.env.block_dim;
        Some(if not_in != 0 {
            self.fault(
                FaultKind::WarpDivergence,
                format!(
                    "threads {} call {what} with a mask that does not include themselves",
                    thread_ranges(&Self::tids(w, not_in), bd)
                ),
                pc,
                w,
                not_in,
            )
        } else {
            self.fault(
                FaultKind::WarpDivergence,
                format!(
                    "threads {} call {what} with a mask naming threads {}, which are on another \
                     path and do not arrive",
                    thread_ranges(&Self::tids(w, active), bd),
                    thread_ranges(&Self::tids(w, missing), bd)
                ),
                pc,
                w,
                active,
            )
        })
    }
}

fn warp_op_name(op: WarpOp) -> &'static str {
    match op {
        WarpOp::ActiveMask => "__activemask",
        WarpOp::Ballot => "__ballot_sync",
        WarpOp::Any => "__any_sync",
        WarpOp::All => "__all_sync",
        WarpOp::Uni => "__uni_sync",
        WarpOp::Shfl => "__shfl_sync",
        WarpOp::ShflUp => "__shfl_up_sync",
        WarpOp::ShflDown => "__shfl_down_sync",
        WarpOp::ShflXor => "__shfl_xor_sync",
        WarpOp::MatchAny => "__match_any_sync",
        WarpOp::MatchAll => "__match_all_sync",
    }
}

fn dim(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}
