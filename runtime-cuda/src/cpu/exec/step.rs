//! One warp-instruction of a warp: the body of `BlockRun::run_warp`'s loop, one method per
//! instruction family. Each returns `Step`: `Ok` to go on, or the reason the warp stops before
//! its quantum is spent (`Halt`: a barrier, the end, an inter-block conflict, a fault).

use super::*;

/// Why a warp stops running before its quantum is spent.
pub(super) enum Halt {
    Stop(Stop),
    Fault(Box<Fault>),
}

pub(super) type Step = Result<(), Halt>;

/// Where a warp is while it runs: its next instruction, its active lanes, and the
/// warp-instructions it ran in this quantum. The instructions that do not move it get a copy,
/// so that it stays in registers.
#[derive(Clone, Copy)]
pub(super) struct Cursor {
    pub pc: usize,
    pub active: u32,
    pub steps: u64,
}

impl Cursor {
    #[inline(always)]
    fn next(&mut self) -> Step {
        self.pc += 1;
        Ok(())
    }

    /// With no lane left active, the warp resumes where its innermost frame says (the other
    /// arm, the loop's continue point, the construct's end), or is done.
    #[inline(always)]
    fn unwind(&mut self, warp: &Warp) -> Step {
        match warp.frames.last() {
            Some(f) => {
                self.pc = f.resume as usize;
                Ok(())
            }
            None => Err(Halt::Stop(Stop::Done)),
        }
    }
}

/// A register's lanes, zeros for an absent operand (`NONE`).
#[inline(always)]
fn operand(regs: &[Lanes], r: Reg) -> Lanes {
    if r == NONE {
        [0; 32]
    } else {
        regs.get(r as usize).copied().unwrap_or([0; 32])
    }
}

/// How one lane of a memory instruction went.
type LaneAccess = Result<(), MemErr>;

/// The outcome of a memory instruction over its active lanes: the first failure (an
/// inter-block conflict stops at once), with the address, and the lanes that faulted.
#[derive(Default)]
struct LaneFailures {
    first: Option<(MemErr, u64)>,
    mask: u32,
}

impl LaneFailures {
    /// Records lane `l`'s result; false when the instruction must stop (a conflict).
    #[inline(always)]
    fn record(&mut self, l: usize, addr: u64, r: LaneAccess) -> bool {
        match r {
            Ok(()) => true,
            Err(MemErr::Conflict) => {
                self.first = Some((MemErr::Conflict, addr));
                false
            }
            Err(e) => {
                self.mask |= 1 << l;
                if self.first.is_none() {
                    self.first = Some((e, addr));
                }
                true
            }
        }
    }
}

impl BlockRun<'_> {
    fn broken(&self, what: &str) -> Halt {
        Halt::Fault(Box::new(self.internal(what)))
    }

    /// Executes `inst` for the active lanes of warp `w`.
    #[inline(always)]
    pub(super) fn step(&mut self, w: usize, warp: &mut Warp, at: &mut Cursor, inst: Inst) -> Step {
        match inst {
            Inst::Bin { .. }
            | Inst::Un { .. }
            | Inst::Cast { .. }
            | Inst::Select { .. }
            | Inst::Call { .. }
            | Inst::Mov { .. } => self.compute(warp, at, inst),
            Inst::Load { dst, addr, access } => {
                self.load(w, warp, *at, dst, addr, access)?;
                at.next()
            }
            Inst::Store { .. } | Inst::Atomic { .. } => {
                self.store(w, warp, *at, inst)?;
                at.next()
            }
            Inst::Barrier { pred, .. } => self.barrier(w, warp, *at, pred),
            Inst::SyncWarp { mask } => {
                let Some(mv) = warp.regs.get(mask as usize).copied() else {
                    return Err(self.broken("register operands"));
                };
                if let Some(f) = self.check_warp_mask(warp, w, at.active, &mv, at.pc, "__syncwarp")
                {
                    return Err(Halt::Fault(Box::new(f)));
                }
                at.next()
            }
            Inst::Warp { op, c, dst, args } => {
                self.warp_op(w, warp, *at, (op, c, dst, args))?;
                at.next()
            }
            Inst::Printf { id } => {
                self.printf(w, warp, *at, id)?;
                at.next()
            }
            Inst::Trap { id } => {
                let msg = self.env.prog.traps.get(id as usize).cloned();
                let f = self.fault(
                    FaultKind::Trap,
                    format!("the kernel trapped: {}", msg.unwrap_or_default()),
                    at.pc,
                    w,
                    at.active,
                );
                Err(Halt::Fault(Box::new(f)))
            }
            Inst::Requires { cond } => {
                let Some(r) = warp.regs.get(cond as usize) else {
                    return Err(self.broken("register operands"));
                };
                let bad = at.active & !truth_mask(r, at.active);
                if bad != 0 {
                    let f = self.fault(
                        FaultKind::RequiresViolated,
                        "`__requires` is false for this launch".to_string(),
                        at.pc,
                        w,
                        bad,
                    );
                    return Err(Halt::Fault(Box::new(f)));
                }
                at.next()
            }
            _ => self.control(warp, at, inst),
        }
    }

    /// Register-to-register instructions: arithmetic (`gmrace_ir::scalar`), select,
    /// intrinsics, moves.
    #[inline(always)]
    fn compute(&self, warp: &mut Warp, at: &mut Cursor, inst: Inst) -> Step {
        let regs = &mut warp.regs;
        let broken = || self.broken("register operands");
        match inst {
            Inst::Bin { op, c, dst, a, b } => {
                let (d, x, y) = dest_and_sources(regs, dst, a, b).ok_or_else(broken)?;
                scalar::binary_lanes(op, c, d, x, y);
            }
            Inst::Un { op, c, dst, a } => {
                let (d, x) = dest_and_source(regs, dst, a).ok_or_else(broken)?;
                scalar::unary_lanes(op, c, d, x);
            }
            Inst::Cast { from, to, dst, a } => {
                let (d, x) = dest_and_source(regs, dst, a).ok_or_else(broken)?;
                scalar::cast_lanes(from, to, d, x);
            }
            Inst::Select { dst, c, a, b } => {
                let cv = regs.get(c as usize).copied().ok_or_else(broken)?;
                let (d, x, y) = dest_and_sources(regs, dst, a, b).ok_or_else(broken)?;
                for l in 0..32 {
                    d[l] = if cv[l] != 0 { x[l] } else { y[l] };
                }
            }
            Inst::Call {
                f,
                c,
                ac,
                dst,
                args,
            } => {
                let [x, y, z] = [0, 1, 2].map(|i| operand(regs, args[i]));
                let clock = self.steps + at.steps;
                let d = regs.get_mut(dst as usize).ok_or_else(broken)?;
                for l in lanes(at.active) {
                    d[l] = match f {
                        Intrinsic::SharedOffset => {
                            shared_offset(self.env.objs, x[l]) & width_mask(c.size())
                        }
                        Intrinsic::Clock => clock,
                        _ => scalar::intrinsic(f, c, ac, x[l], y[l], z[l]),
                    };
                }
            }
            Inst::Mov { dst, src } => {
                let (d, s) = dest_and_source(regs, dst, src).ok_or_else(broken)?;
                if at.active == u32::MAX {
                    *d = *s;
                } else {
                    for l in lanes(at.active) {
                        d[l] = s[l];
                    }
                }
            }
            _ => return Err(self.broken("not a register instruction")),
        }
        at.next()
    }

    /// Records a shared-memory access in the trace, when the run is traced.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn trace(
        &mut self,
        w: usize,
        l: usize,
        warp: &Warp,
        at: Cursor,
        access: u32,
        obj: u32,
        offset: u64,
        size: u32,
        kind: TraceKind,
    ) {
        if let Some(t) = &mut self.trace {
            t.push(TraceEvent {
                block: self.linear,
                tid: (w * 32 + l) as u32,
                access,
                obj,
                offset,
                size,
                kind,
                interval: warp.barriers,
                stamp: warp.executed + at.steps,
            });
        }
    }

    /// Stops the warp on the failure of a memory instruction, if any.
    #[inline(always)]
    fn memory_outcome(
        &self,
        failed: LaneFailures,
        w: usize,
        at: Cursor,
        what: (u32, u32, &'static str),
    ) -> Step {
        let (access, size, kind) = what;
        match failed.first {
            Some((MemErr::Conflict, _)) => Err(Halt::Stop(Stop::Conflict)),
            Some((e, a)) => {
                let f = self.mem_fault(&e, a, size, kind, (access, at.pc), w, failed.mask);
                Err(Halt::Fault(Box::new(f)))
            }
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn access_type(&self, access: u32) -> Scalar {
        self.env
            .prog
            .accesses
            .get(access as usize)
            .map_or(Scalar::U32, |a| a.ty)
    }

    fn load(
        &mut self,
        w: usize,
        warp: &mut Warp,
        at: Cursor,
        dst: Reg,
        addr: Reg,
        access: u32,
    ) -> Step {
        let (objs, gmem, who) = (self.env.objs, self.env.gmem, self.who);
        let frame = self.env.local_frame as usize;
        let size = self.access_type(access).size();
        let Some(av) = warp.regs.get(addr as usize).copied() else {
            return Err(self.broken("register operands"));
        };
        let mut out = [0u64; 32];
        let mut failed = LaneFailures::default();
        for l in lanes(at.active) {
            let a = av[l];
            let r = match resolve(objs, a, size) {
                Resolved::Ok { obj, offset } => match objs[obj as usize].kind {
                    ObjKind::Global(slot) => {
                        if who != 0 && !gmem.track(slot, offset, size, false, who) {
                            Err(MemErr::Conflict)
                        } else {
                            out[l] = gmem.load(slot, offset, size);
                            Ok(())
                        }
                    }
                    ObjKind::Shared(slot) => {
                        self.trace(w, l, warp, at, access, obj, offset, size, TraceKind::Read);
                        out[l] = self
                            .shared
                            .get(slot as usize)
                            .map_or(0, |s| read_le(s, offset as usize, size));
                        Ok(())
                    }
                    ObjKind::Local(base) => {
                        let at = l * frame + base as usize + offset as usize;
                        out[l] = read_le(&warp.local, at, size);
                        Ok(())
                    }
                },
                other => Err(MemErr::Fault(other)),
            };
            if !failed.record(l, a, r) {
                break;
            }
        }
        self.memory_outcome(failed, w, at, (access, size, "read"))?;
        let Some(d) = warp.regs.get_mut(dst as usize) else {
            return Err(self.broken("register operands"));
        };
        for l in lanes(at.active) {
            d[l] = out[l];
        }
        Ok(())
    }

    /// A store, or an atomic read-modify-write whose old value goes to its destination.
    fn store(&mut self, w: usize, warp: &mut Warp, at: Cursor, inst: Inst) -> Step {
        let (addr, val, access, atomic) = match inst {
            Inst::Store { addr, val, access } => (addr, val, access, None),
            Inst::Atomic {
                op,
                dst,
                addr,
                a,
                b,
                access,
                ..
            } => (addr, a, access, Some((op, dst, b))),
            _ => return Err(self.broken("not a memory instruction")),
        };
        let (objs, gmem, who) = (self.env.objs, self.env.gmem, self.who);
        let frame = self.env.local_frame as usize;
        let ty = self.access_type(access);
        let size = ty.size();
        let (av, vv) = (operand(&warp.regs, addr), operand(&warp.regs, val));
        let bv = atomic.map_or([0; 32], |(_, _, b)| operand(&warp.regs, b));
        let trace_kind = if atomic.is_some() {
            TraceKind::Atomic
        } else {
            TraceKind::Write
        };
        let mut old = [0u64; 32];
        let mut failed = LaneFailures::default();
        for l in lanes(at.active) {
            let a = av[l];
            let v = vv[l] & width_mask(size);
            // The value to write over `prev`: the stored one, or the atomic's result.
            let mut update = |prev: u64| match atomic {
                Some((op, _, _)) => {
                    old[l] = prev;
                    atomic_new(op, ty, prev, v, bv[l] & width_mask(size))
                }
                None => v,
            };
            let r = match resolve(objs, a, size) {
                Resolved::Ok { obj, offset } if !objs[obj as usize].writable => {
                    Err(MemErr::ReadOnly(obj, offset))
                }
                Resolved::Ok { obj, offset } => match objs[obj as usize].kind {
                    ObjKind::Global(slot) => {
                        if who != 0 && !gmem.track(slot, offset, size, true, who) {
                            Err(MemErr::Conflict)
                        } else {
                            let new = update(gmem.load(slot, offset, size));
                            gmem.store(slot, offset, size, new);
                            Ok(())
                        }
                    }
                    ObjKind::Shared(slot) => {
                        self.trace(w, l, warp, at, access, obj, offset, size, trace_kind);
                        if let Some(s) = self.shared.get_mut(slot as usize) {
                            let new = update(read_le(s, offset as usize, size));
                            write_le(s, offset as usize, size, new);
                        }
                        Ok(())
                    }
                    ObjKind::Local(base) => {
                        let at = l * frame + base as usize + offset as usize;
                        let new = update(read_le(&warp.local, at, size));
                        write_le(&mut warp.local, at, size, new);
                        Ok(())
                    }
                },
                other => Err(MemErr::Fault(other)),
            };
            if !failed.record(l, a, r) {
                break;
            }
        }
        let kind = if atomic.is_some() { "atomic" } else { "write" };
        self.memory_outcome(failed, w, at, (access, size, kind))?;
        if let Some((_, dst, _)) = atomic.filter(|&(_, dst, _)| dst != NONE) {
            let Some(d) = warp.regs.get_mut(dst as usize) else {
                return Err(self.broken("register operands"));
            };
            for l in lanes(at.active) {
                d[l] = old[l];
            }
        }
        Ok(())
    }

    /// A block barrier: every non-exited lane of the warp must reach it together; the warp
    /// then waits for the block (`release_barrier`).
    fn barrier(&mut self, w: usize, warp: &mut Warp, at: Cursor, pred: Reg) -> Step {
        let active = at.active;
        let expected = warp.present & !warp.exited;
        if active != expected {
            let missing = expected & !active;
            let mut f = self.fault(
                FaultKind::BarrierDivergence,
                format!(
                    "barrier divergence: threads {} reach this barrier but threads {} \
                     of the same warp do not (they are on another path)",
                    thread_ranges(&Self::tids(w, active), self.env.block_dim),
                    thread_ranges(&Self::tids(w, missing), self.env.block_dim),
                ),
                at.pc,
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
            return Err(Halt::Fault(Box::new(f)));
        }
        warp.bar_pred = if pred == NONE {
            active
        } else {
            match warp.regs.get(pred as usize) {
                Some(r) => truth_mask(r, active),
                None => return Err(self.broken("register operands")),
            }
        };
        Err(Halt::Stop(Stop::Barrier))
    }

    /// Warp-level intrinsics: votes, shuffles, matches, `__activemask`.
    fn warp_op(
        &self,
        w: usize,
        warp: &mut Warp,
        at: Cursor,
        (op, c, dst, args): (WarpOp, Scalar, Reg, [Reg; 4]),
    ) -> Step {
        let active = at.active;
        let mv = if op == WarpOp::ActiveMask {
            [active as u64; 32]
        } else {
            operand(&warp.regs, args[0])
        };
        if op != WarpOp::ActiveMask {
            let name = warp_op_name(op);
            if let Some(f) = self.check_warp_mask(warp, w, active, &mv, at.pc, name) {
                return Err(Halt::Fault(Box::new(f)));
            }
        }
        let x = operand(&warp.regs, args[1]);
        let y = operand(&warp.regs, args[2]);
        let width = if args[3] == NONE {
            [32u64; 32]
        } else {
            operand(&warp.regs, args[3])
        };
        let pmask = truth_mask(&x, active);
        let cm = width_mask(c.size());
        let Some(d) = warp.regs.get_mut(dst as usize) else {
            return Err(self.broken("register operands"));
        };
        for l in lanes(active) {
            let m = (mv[l] as u32) & active;
            d[l] = warp_lane(op, l, m, active, pmask, &x, y[l] as u32, width[l] as u32) & cm;
        }
        Ok(())
    }

    fn printf(&mut self, w: usize, warp: &Warp, at: Cursor, id: u32) -> Step {
        let env = self.env;
        let Some(spec) = env.prog.printfs.get(id as usize) else {
            return Err(self.broken("printf table"));
        };
        for l in lanes(at.active) {
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
        Ok(())
    }

    /// Structured control flow over the active mask and the frame stack (see the module docs).
    #[inline(always)]
    fn control(&self, warp: &mut Warp, at: &mut Cursor, inst: Inst) -> Step {
        let no_frame = || self.broken("frame stack");
        match inst {
            Inst::IfBegin {
                cond,
                else_pc,
                end_pc,
            } => {
                let Some(r) = warp.regs.get(cond as usize) else {
                    return Err(self.broken("register operands"));
                };
                let t = truth_mask(r, at.active);
                let e = at.active & !t;
                warp.frames.push(Frame {
                    entry: at.active,
                    a: if else_pc != end_pc { e } else { 0 },
                    b: 0,
                    resume: else_pc,
                });
                at.active = t;
                if t != 0 {
                    at.next()
                } else {
                    at.pc = else_pc as usize;
                    Ok(())
                }
            }
            Inst::Else { end_pc } => {
                let f = warp.frames.last_mut().ok_or_else(no_frame)?;
                f.resume = end_pc;
                if f.a != 0 {
                    at.active = f.a;
                    f.a = 0;
                    at.next()
                } else {
                    at.pc = end_pc as usize;
                    Ok(())
                }
            }
            Inst::IfEnd => {
                let f = warp.frames.pop().ok_or_else(no_frame)?;
                at.active = f.entry & !warp.parked;
                self.resume_or_next(warp, at)
            }
            Inst::LoopBegin { cont_pc: resume } | Inst::ScopeBegin { end_pc: resume } => {
                warp.frames.push(Frame {
                    entry: at.active,
                    a: 0,
                    b: 0,
                    resume,
                });
                at.next()
            }
            Inst::LoopTest { cond, end_pc } => {
                let Some(r) = warp.regs.get(cond as usize) else {
                    return Err(self.broken("register operands"));
                };
                let t = truth_mask(r, at.active);
                let out = at.active & !t;
                let f = warp.frames.last_mut().ok_or_else(no_frame)?;
                f.a |= out;
                warp.parked |= out;
                at.active = t;
                Self::next_or_jump(at, end_pc)
            }
            Inst::LoopCont { end_pc } => {
                let f = warp.frames.last_mut().ok_or_else(no_frame)?;
                at.active |= f.b;
                warp.parked &= !f.b;
                f.b = 0;
                f.resume = end_pc;
                Self::next_or_jump(at, end_pc)
            }
            Inst::LoopBack { head_pc, cont_pc } => {
                let f = warp.frames.last_mut().ok_or_else(no_frame)?;
                f.resume = cont_pc;
                at.pc = head_pc as usize;
                Ok(())
            }
            Inst::LoopEnd | Inst::ScopeEnd => {
                let f = warp.frames.pop().ok_or_else(no_frame)?;
                warp.parked &= !f.a;
                at.active = f.entry & !warp.parked;
                self.resume_or_next(warp, at)
            }
            Inst::Break { up } | Inst::Exit { up } | Inst::Continue { up } => {
                let n = warp.frames.len();
                let f = (up as usize)
                    .checked_add(1)
                    .and_then(|k| n.checked_sub(k))
                    .and_then(|i| warp.frames.get_mut(i))
                    .ok_or_else(no_frame)?;
                if matches!(inst, Inst::Continue { .. }) {
                    f.b |= at.active;
                } else {
                    f.a |= at.active;
                }
                warp.parked |= at.active;
                at.active = 0;
                at.unwind(warp)
            }
            Inst::Return | Inst::Halt => {
                warp.exited |= at.active;
                warp.parked |= at.active;
                at.active = 0;
                match inst {
                    Inst::Halt => Err(Halt::Stop(Stop::Done)),
                    _ => at.unwind(warp),
                }
            }
            _ => Err(self.broken("not a control instruction")),
        }
    }

    /// After a construct ends: on with the lanes that reconverged, or resume elsewhere.
    #[inline(always)]
    fn resume_or_next(&self, warp: &Warp, at: &mut Cursor) -> Step {
        if at.active == 0 {
            at.unwind(warp)
        } else {
            at.next()
        }
    }

    #[inline(always)]
    fn next_or_jump(at: &mut Cursor, target: u32) -> Step {
        if at.active == 0 {
            at.pc = target as usize;
            Ok(())
        } else {
            at.next()
        }
    }
}

/// One lane's result of a warp intrinsic: `m` its member mask among the active lanes, `pmask`
/// the lanes whose predicate (`x`) holds, `v` its shuffle operand, `width` its shuffle width.
#[allow(clippy::too_many_arguments)]
fn warp_lane(
    op: WarpOp,
    l: usize,
    m: u32,
    active: u32,
    pmask: u32,
    x: &Lanes,
    v: u32,
    width: u32,
) -> u64 {
    match op {
        WarpOp::ActiveMask => active as u64,
        WarpOp::Ballot => (pmask & m) as u64,
        WarpOp::Any => ((pmask & m) != 0) as u64,
        WarpOp::All => ((m & !pmask) == 0) as u64,
        WarpOp::Uni => {
            let p = pmask & m;
            (p == 0 || p == m) as u64
        }
        WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
            let wd = if width.is_power_of_two() && width <= 32 {
                width
            } else {
                32
            };
            let base = (l as u32 / wd) * wd;
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
    }
}
