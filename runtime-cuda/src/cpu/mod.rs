//! The CPU SIMT device: runs kernel IR on the host, faithfully enough to be the project's oracle.
//!
//! A launch: lower the kernel (`lower`) against its object layout (`memory::Layout`), set up
//! global memory from the launch spec, run every block (`exec::BlockRun`), read the buffers back.
//!
//! `lower.rs` turns IR into `program.rs`'s flat instruction list over 32-lane registers, with
//! structured control-flow markers; it refuses `Opaque` with its location. `exec.rs` runs one
//! block: warps with active/exited/parked masks, reconvergence at the innermost frame,
//! round-robin with a fixed quantum, barrier and warp-intrinsic mask checks. Arithmetic is
//! `gmrace_ir::scalar`'s, lane-vectorised, with CUDA's integer and float semantics. `memory.rs`
//! is one address space (object `o` at `(o+1)<<40`), bounds checks, relaxed atomic words for
//! parallel blocks and a shadow that detects inter-block dependences; `printf.rs` is C's format
//! language; `trace.rs` the shared-memory access trace for reference detectors. Shared objects
//! have a `window` offset (declaration order, each at its alignment, the dynamic area last at
//! 16), which `__cvta_generic_to_shared` (`Intrinsic::SharedOffset`) returns.
//!
//! Blocks run in parallel on all cores when there are several, with conflict tracking on global
//! memory (`memory::Shadow`): if a block reads or writes what another block writes, if a block
//! faults, or if the step budget runs out, the parallel attempt is discarded and the launch is
//! run again from its initial memory with blocks one after another in order (x fastest). So the
//! result — buffers, printf output, faults — is always the one of that sequential order, byte for
//! byte, however the threads were scheduled.

pub mod exec;
pub mod lower;
pub mod memory;
pub mod printf;
pub mod program;
pub mod trace;

use crate::launch::{Arg, Buffer, Launch};
use crate::report::{Loc, OutBuffer, RunResult};
use crate::{Device, DeviceError, RunOptions, SharedLimits, StepBudget};
use exec::{BlockEnd, BlockRun, Budget, LaunchEnv};
use gmrace_ir::scalar::{float_bits, width_mask};
use gmrace_ir::{ConstValue, GlobalVar, Kernel, Module, Space};
use memory::{address, GlobalMem, Layout, ObjKind};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// CUDA's limit of local memory per thread.
const MAX_LOCAL_BYTES: u64 = 512 * 1024;

/// Global memory above which blocks do not run in parallel (the conflict tracking doubles it).
const PARALLEL_MAX_BYTES: u64 = 2 << 30;

#[derive(Clone, Debug, Default)]
pub struct CpuDevice;

impl Device for CpuDevice {
    fn name(&self) -> &'static str {
        "emu"
    }

    /// DESIGN.md's limits, which launch specs are checked against.
    fn shared_limits(&self) -> SharedLimits {
        SharedLimits {
            static_bytes: crate::launch::MAX_STATIC_SHARED_BYTES,
            total_bytes: crate::launch::MAX_TOTAL_SHARED_BYTES,
        }
    }

    /// The end of the last shared object in this device's layout (`memory::Layout`).
    fn shared_window_bytes(&self, module: &Module, launch: &Launch) -> Result<u64, DeviceError> {
        let kernel = module
            .kernels
            .get(launch.kernel)
            .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
        Ok(crate::race_log::window_bytes(
            &crate::race_log::cpu_shared_window(module, kernel, launch.dynamic_shared_bytes),
        ))
    }

    fn run(
        &self,
        module: &Module,
        launch: &Launch,
        opts: &RunOptions,
    ) -> Result<RunResult, DeviceError> {
        let (kernel, mut layout, prog) = prepare(module, launch)?;
        let memory = initial_memory(module, kernel, launch, &mut layout)?;
        let setup = Setup {
            prog: &prog,
            layout: &layout,
            module,
            launch,
            memory: &memory,
            opts,
            budget: StepBudget::for_launch(opts.max_steps, launch.num_warps()),
        };
        let mut result = RunResult {
            warnings: memory.warnings.clone(),
            ..RunResult::new(&kernel.name, launch)
        };
        let gmem = match setup.run_parallel(&mut result) {
            Some(gmem) => gmem,
            None => setup.run_in_order(&mut result),
        };
        result.buffers = read_back(module, kernel, launch, &layout, &gmem);
        Ok(result)
    }
}

/// The launched kernel, its object layout and its program, once the launch is checked.
fn prepare<'m>(
    module: &'m Module,
    launch: &Launch,
) -> Result<(&'m Kernel, Layout, program::Program), DeviceError> {
    let kernel = module
        .kernels
        .get(launch.kernel)
        .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
    let threads_per_block = launch.block.iter().map(|&b| b as u64).product::<u64>();
    if launch.block.contains(&0)
        || launch.grid.contains(&0)
        || threads_per_block > crate::launch::MAX_THREADS_PER_BLOCK
    {
        return Err(DeviceError::plain(format!(
            "invalid launch configuration: grid {:?}, block {:?}",
            launch.grid, launch.block
        )));
    }
    let layout = Layout::new(module, kernel);
    if layout.local_frame > MAX_LOCAL_BYTES {
        return Err(DeviceError::plain(format!(
            "kernel `{}` needs {} bytes of local memory per thread, more than CUDA's {}",
            kernel.name, layout.local_frame, MAX_LOCAL_BYTES
        )));
    }
    let prog = lower::lower(kernel, &layout).map_err(|e| DeviceError {
        message: format!(
            "kernel `{}` cannot run on the CPU device: {}",
            kernel.name, e.message
        ),
        loc: (e.span.line > 0).then(|| Loc {
            file: module
                .files
                .get(e.span.file as usize)
                .cloned()
                .unwrap_or_default(),
            line: e.span.line,
            column: e.span.column,
            called_from: None,
        }),
    })?;
    Ok((kernel, layout, prog))
}

/// What a launch starts from: global memory (buffers and `__device__` variables), parameter
/// values, the size of each shared slot.
struct InitialMemory {
    contents: Vec<Vec<u8>>,
    param_bits: Vec<u64>,
    shared_sizes: Vec<u64>,
    warnings: Vec<String>,
}

/// Lays the launch's arguments and the module's globals out in `layout`'s slots (buffers and
/// the dynamic shared area take their sizes from the launch).
fn initial_memory(
    module: &Module,
    kernel: &Kernel,
    launch: &Launch,
    layout: &mut Layout,
) -> Result<InitialMemory, DeviceError> {
    let mut warnings = Vec::new();
    let mut contents: Vec<Vec<u8>> = vec![Vec::new(); layout.global_slots as usize];
    let mut param_bits = vec![0u64; kernel.params.len()];
    for (i, arg) in launch.args.iter().enumerate() {
        match arg {
            Arg::Scalar { bits, .. } => {
                if let Some(p) = param_bits.get_mut(i) {
                    *p = *bits;
                }
            }
            Arg::Buffer(b) => {
                let (Some(Some(slot)), Some(obj)) =
                    (layout.param_slot.get(i), layout.param_obj.get(i))
                else {
                    return Err(DeviceError::plain(
                        "launch arguments do not match the kernel",
                    ));
                };
                contents[*slot as usize] = b.bytes.clone();
                layout.objs[*obj as usize].size = b.bytes.len() as u64;
                param_bits[i] = address(*obj, 0);
            }
        }
    }
    for (gi, g) in module.globals.iter().enumerate() {
        let given = launch.globals.get(gi).and_then(|b| b.as_ref());
        contents[layout.global_slot[gi] as usize] = global_bytes(g, given, &mut warnings);
    }
    let mut shared_sizes = vec![0u64; layout.shared_slots as usize];
    if let Some(o) = layout.dyn_shared_obj {
        layout.objs[o as usize].size =
            (launch.dynamic_shared_bytes as u64).min(crate::launch::MAX_TOTAL_SHARED_BYTES);
    }
    for o in &layout.objs {
        if let ObjKind::Shared(s) = o.kind {
            if let Some(x) = shared_sizes.get_mut(s as usize) {
                *x = o.size;
            }
        }
    }
    Ok(InitialMemory {
        contents,
        param_bits,
        shared_sizes,
        warnings,
    })
}

/// A global variable's initial bytes: the launch spec's `[globals]` entry, else its scalar
/// initialiser, else zeros (a struct or vector initialiser is not applied: a warning).
fn global_bytes(g: &GlobalVar, given: Option<&Buffer>, warnings: &mut Vec<String>) -> Vec<u8> {
    let mut bytes = vec![0u8; g.size_bytes as usize];
    match (given, &g.init, g.elem) {
        (Some(b), _, _) => {
            let n = b.bytes.len().min(bytes.len());
            bytes[..n].copy_from_slice(&b.bytes[..n]);
        }
        (None, Some(init), Some(elem)) => {
            let size = elem.size() as usize;
            for (k, v) in init.iter().enumerate() {
                let bits = match (v, elem.is_float()) {
                    (ConstValue::Int(n), false) => *n as u64 & width_mask(elem.size()),
                    (ConstValue::Int(n), true) => float_bits(*n as f64, elem),
                    (ConstValue::Float(f), true) => float_bits(*f, elem),
                    (ConstValue::Float(f), false) => {
                        gmrace_ir::scalar::cast(f.to_bits(), gmrace_ir::Scalar::F64, elem)
                    }
                };
                if let Some(dst) = bytes.get_mut(k * size..(k + 1) * size) {
                    dst.copy_from_slice(&bits.to_le_bytes()[..size]);
                }
            }
        }
        (None, Some(_), None) => warnings.push(format!(
            "the initialiser of `{}` (a struct or vector) is not applied; it starts zeroed",
            g.name
        )),
        (None, None, _) => {}
    }
    bytes
}

/// Everything a launch's blocks share, before global memory exists.
struct Setup<'a> {
    prog: &'a program::Program,
    layout: &'a Layout,
    module: &'a Module,
    launch: &'a Launch,
    memory: &'a InitialMemory,
    opts: &'a RunOptions,
    budget: StepBudget,
}

/// What a block run in parallel hands back: printf output (and whether it was cut), steps,
/// thread-instructions.
type BlockOutput = (String, bool, u64, u64);

impl Setup<'_> {
    fn env<'e>(&'e self, gmem: &'e GlobalMem, blocks_done: &'e AtomicU64) -> LaunchEnv<'e> {
        LaunchEnv {
            prog: self.prog,
            objs: &self.layout.objs,
            gmem,
            files: &self.module.files,
            block_dim: self.launch.block,
            grid_dim: self.launch.grid,
            param_bits: &self.memory.param_bits,
            shared_sizes: &self.memory.shared_sizes,
            local_frame: self.layout.local_frame,
            printf_limit: self.opts.printf_limit,
            budget: self.budget,
            progress: self.opts.progress.as_ref(),
            blocks_done,
        }
    }

    /// Runs every block at once with conflict tracking; `None` when the attempt is discarded
    /// (not tried, a dependence between blocks, a fault, the budget): see the module docs.
    fn run_parallel(&self, result: &mut RunResult) -> Option<GlobalMem> {
        let (opts, nblocks) = (self.opts, self.launch.num_blocks());
        let total_bytes: u64 = self.memory.contents.iter().map(|c| c.len() as u64).sum();
        let threads = opts.threads.unwrap_or_else(rayon::current_num_threads);
        if opts.trace
            || threads <= 1
            || nblocks <= 1
            || nblocks >= u32::MAX as u64 - 1
            || total_bytes > PARALLEL_MAX_BYTES
        {
            return None;
        }
        let gmem = GlobalMem::new(&self.memory.contents, true);
        let done = AtomicU64::new(0);
        let env = self.env(&gmem, &done);
        let remaining = AtomicU64::new(self.budget.steps);
        let abort = AtomicBool::new(false);
        let run_block = |b: u64| -> Option<BlockOutput> {
            if abort.load(Ordering::Relaxed) {
                return None;
            }
            let mut run = BlockRun::new(&env, b, true);
            let mut budget = Budget::Par {
                remaining: &remaining,
                abort: &abort,
            };
            match run.run(&mut budget) {
                BlockEnd::Done => {
                    done.fetch_add(1, Ordering::Relaxed);
                    env.report_progress(remaining.load(Ordering::Relaxed));
                    Some((
                        std::mem::take(&mut run.printf),
                        run.printf_truncated,
                        run.steps,
                        run.thread_instructions,
                    ))
                }
                _ => {
                    abort.store(true, Ordering::Relaxed);
                    None
                }
            }
        };
        let par = || (0..nblocks).into_par_iter().map(run_block).collect();
        let outcomes: Vec<Option<BlockOutput>> = match opts.threads {
            // The global pool has one thread per core.
            None => par(),
            Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                Ok(p) => p.install(par),
                Err(_) => (0..nblocks).map(run_block).collect(),
            },
        };
        if abort.load(Ordering::Relaxed) || !outcomes.iter().all(Option::is_some) {
            return None;
        }
        for (text, trunc, steps, ti) in outcomes.into_iter().flatten() {
            if result.printf.len() + text.len() > opts.printf_limit {
                result.printf_truncated = true;
                let room = opts.printf_limit.saturating_sub(result.printf.len());
                result.printf.push_str(truncate_str(&text, room));
            } else {
                result.printf.push_str(&text);
            }
            result.printf_truncated |= trunc;
            result.steps += steps;
            result.thread_instructions += ti;
        }
        result.parallel = true;
        Some(gmem)
    }

    /// Runs the blocks one after another from the initial memory, up to the first fault.
    fn run_in_order(&self, result: &mut RunResult) -> GlobalMem {
        let gmem = GlobalMem::new(&self.memory.contents, false);
        let blocks_done = AtomicU64::new(0);
        let env = self.env(&gmem, &blocks_done);
        let mut budget = Budget::Seq(self.budget.steps);
        for b in 0..self.launch.num_blocks() {
            let room = self.opts.printf_limit.saturating_sub(result.printf.len());
            let env_b = LaunchEnv {
                printf_limit: room,
                ..env
            };
            let mut run = BlockRun::new(&env_b, b, false);
            if self.opts.trace {
                run.trace = Some(Vec::new());
            }
            let end = run.run(&mut budget);
            result.trace.extend(run.trace.take().unwrap_or_default());
            result.printf.push_str(&run.printf);
            result.printf_truncated |= run.printf_truncated;
            result.steps += run.steps;
            result.thread_instructions += run.thread_instructions;
            match end {
                BlockEnd::Done => {}
                BlockEnd::Fault(f) | BlockEnd::Budget(f) => {
                    result.faults.push(*f);
                    break;
                }
                BlockEnd::Abort => break,
            }
            blocks_done.store(b + 1, Ordering::Relaxed);
            env.report_progress(budget.left());
        }
        gmem
    }
}

/// Every buffer argument and `__device__` scalar-typed global, as the run left them.
fn read_back(
    module: &Module,
    kernel: &Kernel,
    launch: &Launch,
    layout: &Layout,
    gmem: &GlobalMem,
) -> Vec<OutBuffer> {
    let mut out = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        if let (Some(Arg::Buffer(b)), Some(Some(slot))) =
            (launch.args.get(i), layout.param_slot.get(i))
        {
            out.push(OutBuffer {
                name: p.name.clone(),
                kind: "param",
                elem: b.elem,
                len: b.len,
                bytes: gmem.bytes(*slot, b.bytes.len() as u64),
            });
        }
    }
    for (gi, g) in module.globals.iter().enumerate() {
        if let (Space::Global, Some(elem)) = (g.space, g.elem) {
            let size = elem.size() as u64;
            out.push(OutBuffer {
                name: g.name.clone(),
                kind: "global",
                elem,
                len: g.size_bytes / size,
                bytes: gmem.bytes(layout.global_slot[gi], g.size_bytes),
            });
        }
    }
    out
}

fn truncate_str(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
