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

use super::memory::{resolve, GlobalMem, ObjDesc, ObjKind, Resolved, OFFSET_MASK};
use super::printf;
use super::program::*;
use super::trace::{TraceEvent, TraceKind};
use crate::report::{thread_ranges, Fault, FaultKind, Loc, MemDetail, Note};
use crate::RunProgress;
use gmrace_ir::scalar::{self, sign_extend, width_mask};
use gmrace_ir::{AtomicOp, BarrierKind, Dim, Intrinsic, Scalar, Span, Special, WarpOp};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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

/// New value of an atomic read-modify-write.
fn atomic_new(op: AtomicOp, ty: Scalar, old: u64, a: u64, b: u64) -> u64 {
    let m = width_mask(ty.size());
    let fl = |f: fn(f64, f64) -> f64| {
        let x = gmrace_ir::scalar::float_value(old, ty);
        let y = gmrace_ir::scalar::float_value(a, ty);
        gmrace_ir::scalar::float_bits(f(x, y), ty)
    };
    match op {
        AtomicOp::Add if ty.is_float() => match ty {
            Scalar::F32 => (f32::from_bits(old as u32) + f32::from_bits(a as u32)).to_bits() as u64,
            _ => fl(|x, y| x + y),
        },
        AtomicOp::Sub if ty.is_float() => match ty {
            Scalar::F32 => (f32::from_bits(old as u32) - f32::from_bits(a as u32)).to_bits() as u64,
            _ => fl(|x, y| x - y),
        },
        AtomicOp::Min if ty.is_float() => fl(f64::min),
        AtomicOp::Max if ty.is_float() => fl(f64::max),
        AtomicOp::Add => old.wrapping_add(a) & m,
        AtomicOp::Sub => old.wrapping_sub(a) & m,
        AtomicOp::Exch => a,
        AtomicOp::Min => {
            if ty.is_signed() {
                if sign_extend(old, ty.size()) <= sign_extend(a, ty.size()) {
                    old
                } else {
                    a
                }
            } else {
                old.min(a)
            }
        }
        AtomicOp::Max => {
            if ty.is_signed() {
                if sign_extend(old, ty.size()) >= sign_extend(a, ty.size()) {
                    old
                } else {
                    a
                }
            } else {
                old.max(a)
            }
        }
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
        AtomicOp::And => old & a,
        AtomicOp::Or => old | a,
        AtomicOp::Xor => old ^ a,
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

    /// Runs warp `w` for at most `quantum` warp-instructions.
    fn run_warp(&mut self, w: usize, quantum: u64) -> Result<(Stop, u64), (Box<Fault>, u64)> {
        let env = self.env;
        let prog = env.prog;
        let insts = &prog.insts[..];
        let objs = env.objs;
        let gmem = env.gmem;
        let who = self.who;
        let frame = env.local_frame as usize;
        let block_steps = self.steps;
        let mut warp_taken = std::mem::replace(
            &mut self.warps[w],
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
            },
        );
        let warp = &mut warp_taken;
        let mut pc = warp.pc as usize;
        let mut active = warp.active;
        let mut steps = 0u64;
        let mut tinstr = 0u64;
        let mut fault: Option<Box<Fault>> = None;

        macro_rules! unwind {
            () => {
                match warp.frames.last() {
                    Some(f) => pc = f.resume as usize,
                    None => break Stop::Done,
                }
            };
        }
        macro_rules! bail {
            ($f:expr) => {{
                fault = Some(Box::new($f));
                break Stop::Done;
            }};
        }
        macro_rules! internal {
            ($what:expr) => {
                bail!(self.internal($what))
            };
        }

        let stop = loop {
            if steps >= quantum {
                break Stop::Quantum;
            }
            let Some(inst) = insts.get(pc) else {
                internal!("program counter out of range");
            };
            steps += 1;
            tinstr += active.count_ones() as u64;
            match *inst {
                Inst::Bin { op, c, dst, a, b } => {
                    let Some((d, x, y)) = dest_and_sources(&mut warp.regs, dst, a, b) else {
                        internal!("register operands");
                    };
                    scalar::binary_lanes(op, c, d, x, y);
                    pc += 1;
                }
                Inst::Un { op, c, dst, a } => {
                    let Some((d, x)) = dest_and_source(&mut warp.regs, dst, a) else {
                        internal!("register operands");
                    };
                    scalar::unary_lanes(op, c, d, x);
                    pc += 1;
                }
                Inst::Cast { from, to, dst, a } => {
                    let Some((d, x)) = dest_and_source(&mut warp.regs, dst, a) else {
                        internal!("register operands");
                    };
                    scalar::cast_lanes(from, to, d, x);
                    pc += 1;
                }
                Inst::Select { dst, c, a, b } => {
                    let Some(cv) = warp.regs.get(c as usize).copied() else {
                        internal!("register operands");
                    };
                    let Some((d, x, y)) = dest_and_sources(&mut warp.regs, dst, a, b) else {
                        internal!("register operands");
                    };
                    for l in 0..32 {
                        d[l] = if cv[l] != 0 { x[l] } else { y[l] };
                    }
                    pc += 1;
                }
                Inst::Call {
                    f,
                    c,
                    ac,
                    dst,
                    args,
                } => {
                    let get = |r: Reg| -> Lanes {
                        if r == NONE {
                            [0; 32]
                        } else {
                            warp.regs.get(r as usize).copied().unwrap_or([0; 32])
                        }
                    };
                    let (x, y, z) = (get(args[0]), get(args[1]), get(args[2]));
                    let clock = block_steps + steps;
                    let Some(d) = warp.regs.get_mut(dst as usize) else {
                        internal!("register operands");
                    };
                    if f == Intrinsic::SharedOffset {
                        for l in lanes(active) {
                            d[l] = shared_offset(objs, x[l]) & width_mask(c.size());
                        }
                    } else {
                        for l in lanes(active) {
                            d[l] = if f == Intrinsic::Clock {
                                clock
                            } else {
                                scalar::intrinsic(f, c, ac, x[l], y[l], z[l])
                            };
                        }
                    }
                    pc += 1;
                }
                Inst::Mov { dst, src } => {
                    let Some((d, s)) = dest_and_source(&mut warp.regs, dst, src) else {
                        internal!("register operands");
                    };
                    if active == u32::MAX {
                        *d = *s;
                    } else {
                        for l in 0..32 {
                            if active >> l & 1 != 0 {
                                d[l] = s[l];
                            }
                        }
                    }
                    pc += 1;
                }
                Inst::Load { dst, addr, access } => {
                    let ty = prog
                        .accesses
                        .get(access as usize)
                        .map_or(Scalar::U32, |a| a.ty);
                    let size = ty.size();
                    let Some(av) = warp.regs.get(addr as usize).copied() else {
                        internal!("register operands");
                    };
                    let mut out = [0u64; 32];
                    let mut bad: Option<(MemErr, u64)> = None;
                    let mut bad_mask = 0u32;
                    for l in lanes(active) {
                        let a = av[l];
                        let r = match resolve(objs, a, size) {
                            Resolved::Ok { obj, offset } => match objs[obj as usize].kind {
                                ObjKind::Global(slot) => {
                                    if who != 0 && !gmem.track(slot, offset, size, false, who) {
                                        Err(MemErr::Conflict)
                                    } else {
                                        Ok(gmem.load(slot, offset, size))
                                    }
                                }
                                ObjKind::Shared(slot) => {
                                    if let Some(t) = &mut self.trace {
                                        t.push(TraceEvent {
                                            block: self.linear,
                                            tid: (w * 32 + l) as u32,
                                            access,
                                            obj,
                                            offset,
                                            size,
                                            kind: TraceKind::Read,
                                            interval: warp.barriers,
                                            stamp: warp.executed + steps,
                                        });
                                    }
                                    Ok(self
                                        .shared
                                        .get(slot as usize)
                                        .map_or(0, |s| read_le(s, offset as usize, size)))
                                }
                                ObjKind::Local(base) => Ok(read_le(
                                    &warp.local,
                                    l * frame + base as usize + offset as usize,
                                    size,
                                )),
                            },
                            other => Err(MemErr::Fault(other)),
                        };
                        match r {
                            Ok(v) => out[l] = v,
                            Err(MemErr::Conflict) => {
                                bad = Some((MemErr::Conflict, a));
                                break;
                            }
                            Err(e) => {
                                bad_mask |= 1 << l;
                                if bad.is_none() {
                                    bad = Some((e, a));
                                }
                            }
                        }
                    }
                    match bad {
                        Some((MemErr::Conflict, _)) => break Stop::Conflict,
                        Some((e, a)) => {
                            bail!(self.mem_fault(&e, a, size, "read", (access, pc), w, bad_mask))
                        }
                        None => {}
                    }
                    let Some(d) = warp.regs.get_mut(dst as usize) else {
                        internal!("register operands");
                    };
                    for l in lanes(active) {
                        d[l] = out[l];
                    }
                    pc += 1;
                }
                Inst::Store { addr, val, access }
                | Inst::Atomic {
                    addr,
                    a: val,
                    access,
                    ..
                } => {
                    let atomic = match *inst {
                        Inst::Atomic { op, dst, b, .. } => Some((op, dst, b)),
                        _ => None,
                    };
                    let ty = prog
                        .accesses
                        .get(access as usize)
                        .map_or(Scalar::U32, |a| a.ty);
                    let size = ty.size();
                    let get = |r: Reg| -> Lanes {
                        if r == NONE {
                            [0; 32]
                        } else {
                            warp.regs.get(r as usize).copied().unwrap_or([0; 32])
                        }
                    };
                    let av = get(addr);
                    let vv = get(val);
                    let bv = atomic.map_or([0; 32], |(_, _, b)| get(b));
                    let mut old = [0u64; 32];
                    let mut bad: Option<(MemErr, u64)> = None;
                    let mut bad_mask = 0u32;
                    for l in lanes(active) {
                        let a = av[l];
                        let v = vv[l] & width_mask(size);
                        let r = match resolve(objs, a, size) {
                            Resolved::Ok { obj, offset } => {
                                let o = &objs[obj as usize];
                                if !o.writable {
                                    Err(MemErr::ReadOnly(obj, offset))
                                } else {
                                    match o.kind {
                                        ObjKind::Global(slot) => {
                                            if who != 0
                                                && !gmem.track(slot, offset, size, true, who)
                                            {
                                                Err(MemErr::Conflict)
                                            } else {
                                                let new = match atomic {
                                                    Some((op, _, _)) => {
                                                        let prev = gmem.load(slot, offset, size);
                                                        old[l] = prev;
                                                        atomic_new(
                                                            op,
                                                            ty,
                                                            prev,
                                                            v,
                                                            bv[l] & width_mask(size),
                                                        )
                                                    }
                                                    None => v,
                                                };
                                                gmem.store(slot, offset, size, new);
                                                Ok(())
                                            }
                                        }
                                        ObjKind::Shared(slot) => {
                                            if let Some(t) = &mut self.trace {
                                                t.push(TraceEvent {
                                                    block: self.linear,
                                                    tid: (w * 32 + l) as u32,
                                                    access,
                                                    obj,
                                                    offset,
                                                    size,
                                                    kind: if atomic.is_some() {
                                                        TraceKind::Atomic
                                                    } else {
                                                        TraceKind::Write
                                                    },
                                                    interval: warp.barriers,
                                                    stamp: warp.executed + steps,
                                                });
                                            }
                                            if let Some(s) = self.shared.get_mut(slot as usize) {
                                                let new = match atomic {
                                                    Some((op, _, _)) => {
                                                        let prev =
                                                            read_le(s, offset as usize, size);
                                                        old[l] = prev;
                                                        atomic_new(
                                                            op,
                                                            ty,
                                                            prev,
                                                            v,
                                                            bv[l] & width_mask(size),
                                                        )
                                                    }
                                                    None => v,
                                                };
                                                write_le(s, offset as usize, size, new);
                                            }
                                            Ok(())
                                        }
                                        ObjKind::Local(base) => {
                                            let at = l * frame + base as usize + offset as usize;
                                            let new = match atomic {
                                                Some((op, _, _)) => {
                                                    let prev = read_le(&warp.local, at, size);
                                                    old[l] = prev;
                                                    atomic_new(
                                                        op,
                                                        ty,
                                                        prev,
                                                        v,
                                                        bv[l] & width_mask(size),
                                                    )
                                                }
                                                None => v,
                                            };
                                            write_le(&mut warp.local, at, size, new);
                                            Ok(())
                                        }
                                    }
                                }
                            }
                            other => Err(MemErr::Fault(other)),
                        };
                        match r {
                            Ok(()) => {}
                            Err(MemErr::Conflict) => {
                                bad = Some((MemErr::Conflict, a));
                                break;
                            }
                            Err(e) => {
                                bad_mask |= 1 << l;
                                if bad.is_none() {
                                    bad = Some((e, a));
                                }
                            }
                        }
                    }
                    let kind = if atomic.is_some() { "atomic" } else { "write" };
                    match bad {
                        Some((MemErr::Conflict, _)) => break Stop::Conflict,
                        Some((e, a)) => {
                            bail!(self.mem_fault(&e, a, size, kind, (access, pc), w, bad_mask))
                        }
                        None => {}
                    }
                    if let Some((_, dst, _)) = atomic {
                        if dst != NONE {
                            let Some(d) = warp.regs.get_mut(dst as usize) else {
                                internal!("register operands");
                            };
                            for l in lanes(active) {
                                d[l] = old[l];
                            }
                        }
                    }
                    pc += 1;
                }
                Inst::Barrier { pred, .. } => {
                    let expected = warp.present & !warp.exited;
                    if active != expected {
                        let missing = expected & !active;
                        let mut f = self.fault(
                            FaultKind::BarrierDivergence,
                            format!(
                                "barrier divergence: threads {} reach this barrier but threads {} \
                                 of the same warp do not (they are on another path)",
                                thread_ranges(&Self::tids(w, active), env.block_dim),
                                thread_ranges(&Self::tids(w, missing), env.block_dim),
                            ),
                            pc,
                            w,
                            active,
                        );
                        f.notes.push(Note {
                            message: format!(
                                "in warp {w} of block ({},{},{}), {} threads reach it and {} do not",
                                self.block[0],
                                self.block[1],
                                self.block[2],
                                active.count_ones(),
                                missing.count_ones()
                            ),
                            loc: None,
                        });
                        bail!(f);
                    }
                    warp.bar_pred = if pred == NONE {
                        active
                    } else {
                        match warp.regs.get(pred as usize) {
                            Some(r) => truth_mask(r, active),
                            None => internal!("register operands"),
                        }
                    };
                    break Stop::Barrier;
                }
                Inst::SyncWarp { mask } => {
                    let Some(mv) = warp.regs.get(mask as usize).copied() else {
                        internal!("register operands");
                    };
                    if let Some(f) = self.check_warp_mask(warp, w, active, &mv, pc, "__syncwarp") {
                        bail!(f);
                    }
                    pc += 1;
                }
                Inst::Warp { op, c, dst, args } => {
                    let get = |r: Reg| -> Lanes {
                        if r == NONE {
                            [0; 32]
                        } else {
                            warp.regs.get(r as usize).copied().unwrap_or([0; 32])
                        }
                    };
                    let mv = if op == WarpOp::ActiveMask {
                        [active as u64; 32]
                    } else {
                        get(args[0])
                    };
                    if op != WarpOp::ActiveMask {
                        let name = warp_op_name(op);
                        if let Some(f) = self.check_warp_mask(warp, w, active, &mv, pc, name) {
                            bail!(f);
                        }
                    }
                    let x = get(args[1]);
                    let y = get(args[2]);
                    let width = if args[3] == NONE {
                        [32u64; 32]
                    } else {
                        get(args[3])
                    };
                    let mut out = [0u64; 32];
                    let pmask = truth_mask(&x, active);
                    let cm = width_mask(c.size());
                    for l in lanes(active) {
                        let m = (mv[l] as u32) & active;
                        out[l] = match op {
                            WarpOp::ActiveMask => active as u64,
                            WarpOp::Ballot => (pmask & m) as u64,
                            WarpOp::Any => ((pmask & m) != 0) as u64,
                            WarpOp::All => ((m & !pmask) == 0) as u64,
                            WarpOp::Uni => {
                                let p = pmask & m;
                                (p == 0 || p == m) as u64
                            }
                            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
                                let wd = width[l] as u32;
                                let wd = if wd.is_power_of_two() && wd <= 32 {
                                    wd
                                } else {
                                    32
                                };
                                let base = (l as u32 / wd) * wd;
                                let v = y[l] as u32;
                                let src = match op {
                                    WarpOp::Shfl => Some(base + (v % wd)),
                                    WarpOp::ShflUp => {
                                        let s = l as i64 - v as i64;
                                        (s >= base as i64).then_some(s as u32)
                                    }
                                    WarpOp::ShflDown => {
                                        let s = l as u64 + v as u64;
                                        (s < (base + wd) as u64).then_some(s as u32)
                                    }
                                    _ => {
                                        let s = l as u32 ^ v;
                                        (s < base + wd).then_some(s)
                                    }
                                };
                                match src {
                                    Some(s) if s < 32 => x[s as usize],
                                    _ => x[l],
                                }
                            }
                            WarpOp::MatchAny => {
                                let mut r = 0u32;
                                for j in lanes(m) {
                                    if x[j] == x[l] {
                                        r |= 1 << j;
                                    }
                                }
                                r as u64
                            }
                            WarpOp::MatchAll => {
                                if lanes(m).all(|j| x[j] == x[l]) {
                                    m as u64
                                } else {
                                    0
                                }
                            }
                        } & cm;
                    }
                    let Some(d) = warp.regs.get_mut(dst as usize) else {
                        internal!("register operands");
                    };
                    for l in lanes(active) {
                        d[l] = out[l];
                    }
                    pc += 1;
                }
                Inst::Printf { id } => {
                    let Some(spec) = prog.printfs.get(id as usize) else {
                        internal!("printf table");
                    };
                    for l in lanes(active) {
                        if self.printf.len() >= env.printf_limit {
                            self.printf_truncated = true;
                            break;
                        }
                        let args: Vec<printf::ArgVal> = spec
                            .args
                            .iter()
                            .map(|(r, c)| (warp.regs.get(*r as usize).map_or(0, |x| x[l]), *c))
                            .collect();
                        let t = self.thread(w, l);
                        let b = self.block;
                        let text = printf::format(&spec.format, &args);
                        self.printf.push_str(&format!(
                            "[block ({},{},{}) thread ({},{},{})] {text}",
                            b[0], b[1], b[2], t[0], t[1], t[2]
                        ));
                    }
                    pc += 1;
                }
                Inst::Trap { id } => {
                    let msg = prog.traps.get(id as usize).cloned().unwrap_or_default();
                    bail!(self.fault(
                        FaultKind::Trap,
                        format!("the kernel trapped: {msg}"),
                        pc,
                        w,
                        active
                    ));
                }
                Inst::Requires { cond } => {
                    let Some(r) = warp.regs.get(cond as usize) else {
                        internal!("register operands");
                    };
                    let bad = active & !truth_mask(r, active);
                    if bad != 0 {
                        bail!(self.fault(
                            FaultKind::RequiresViolated,
                            "`__requires` is false for this launch".to_string(),
                            pc,
                            w,
                            bad
                        ));
                    }
                    pc += 1;
                }
                Inst::IfBegin {
                    cond,
                    else_pc,
                    end_pc,
                } => {
                    let Some(r) = warp.regs.get(cond as usize) else {
                        internal!("register operands");
                    };
                    let t = truth_mask(r, active);
                    let e = active & !t;
                    warp.frames.push(Frame {
                        entry: active,
                        a: if else_pc != end_pc { e } else { 0 },
                        b: 0,
                        resume: else_pc,
                    });
                    if t != 0 {
                        active = t;
                        pc += 1;
                    } else {
                        active = 0;
                        pc = else_pc as usize;
                    }
                }
                Inst::Else { end_pc } => {
                    let Some(f) = warp.frames.last_mut() else {
                        internal!("frame stack");
                    };
                    f.resume = end_pc;
                    if f.a != 0 {
                        active = f.a;
                        f.a = 0;
                        pc += 1;
                    } else {
                        pc = end_pc as usize;
                    }
                }
                Inst::IfEnd => {
                    let Some(f) = warp.frames.pop() else {
                        internal!("frame stack");
                    };
                    active = f.entry & !warp.parked;
                    if active == 0 {
                        unwind!();
                    } else {
                        pc += 1;
                    }
                }
                Inst::LoopBegin { cont_pc } => {
                    warp.frames.push(Frame {
                        entry: active,
                        a: 0,
                        b: 0,
                        resume: cont_pc,
                    });
                    pc += 1;
                }
                Inst::LoopTest { cond, end_pc } => {
                    let Some(r) = warp.regs.get(cond as usize) else {
                        internal!("register operands");
                    };
                    let t = truth_mask(r, active);
                    let out = active & !t;
                    let Some(f) = warp.frames.last_mut() else {
                        internal!("frame stack");
                    };
                    f.a |= out;
                    warp.parked |= out;
                    active = t;
                    if active == 0 {
                        pc = end_pc as usize;
                    } else {
                        pc += 1;
                    }
                }
                Inst::LoopCont { end_pc } => {
                    let Some(f) = warp.frames.last_mut() else {
                        internal!("frame stack");
                    };
                    active |= f.b;
                    warp.parked &= !f.b;
                    f.b = 0;
                    f.resume = end_pc;
                    if active == 0 {
                        pc = end_pc as usize;
                    } else {
                        pc += 1;
                    }
                }
                Inst::LoopBack { head_pc, cont_pc } => {
                    let Some(f) = warp.frames.last_mut() else {
                        internal!("frame stack");
                    };
                    f.resume = cont_pc;
                    pc = head_pc as usize;
                }
                Inst::LoopEnd | Inst::ScopeEnd => {
                    let Some(f) = warp.frames.pop() else {
                        internal!("frame stack");
                    };
                    warp.parked &= !f.a;
                    active = f.entry & !warp.parked;
                    if active == 0 {
                        unwind!();
                    } else {
                        pc += 1;
                    }
                }
                Inst::ScopeBegin { end_pc } => {
                    warp.frames.push(Frame {
                        entry: active,
                        a: 0,
                        b: 0,
                        resume: end_pc,
                    });
                    pc += 1;
                }
                Inst::Break { up } | Inst::Exit { up } | Inst::Continue { up } => {
                    let n = warp.frames.len();
                    let Some(f) = (up as usize)
                        .checked_add(1)
                        .and_then(|k| n.checked_sub(k))
                        .and_then(|i| warp.frames.get_mut(i))
                    else {
                        internal!("frame stack");
                    };
                    if matches!(*inst, Inst::Continue { .. }) {
                        f.b |= active;
                    } else {
                        f.a |= active;
                    }
                    warp.parked |= active;
                    active = 0;
                    unwind!();
                }
                Inst::Return => {
                    warp.exited |= active;
                    warp.parked |= active;
                    active = 0;
                    unwind!();
                }
                Inst::Halt => {
                    warp.exited |= active;
                    warp.parked |= active;
                    active = 0;
                    break Stop::Done;
                }
            }
        };
        warp.pc = pc as u32;
        warp.active = active;
        warp.executed += steps;
        self.thread_instructions += tinstr;
        self.warps[w] = warp_taken;
        match fault {
            Some(f) => Err((f, steps)),
            None => Ok((stop, steps)),
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
