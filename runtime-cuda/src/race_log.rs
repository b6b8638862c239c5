//! The GMRace runtime buffer (`instrumenter/runtime/gmrace_runtime.cuh`) seen from the host:
//! its layout, computed from the launch and the checking mode; how a launch gets it as the
//! instrumented kernel's last argument; and the decoding of what the device left in it (races,
//! GMRace's counters, overflow).
//!
//! Layout, in 32-bit words (every index below mirrors a `GMRACE_*` macro of the header; the
//! test suite checks that the two agree):
//! - header (`HEADER_WORDS`): capacities and offsets written by the host, then the race log's
//!   counter, the counters R-Stmt, R-Mem, R-Thd, R-Wp and the overflow flags written by
//!   the device;
//! - the shared-layout table: per shared variable the instrumented code reports
//!   (`__gmrace_shared`), its window offset + 1 (0: never reported) and size, written by block
//!   0. Racy offsets are named with it on every device, because on a GPU ptxas chooses the
//!   layout;
//! - `nslots` block slots: a block claims one for its lifetime (owner word, finished-thread
//!   counter, rows used or the warps that recorded, the device-memory warpTable, the warp pairs
//!   that raced, then the BlockStmtTable rows (`stmt`) or per warp the read, write and atomic
//!   bitmaps (`flag`));
//! - the race log: `log_capacity` records of `RECORD_WORDS` words.
//!
//! R-Stmt, R-Mem and R-Thd count per block and per barrier interval; R-Wp counts distinct
//! pairs of warps that raced (inter-warp), deduplicated on the device per block over the whole
//! run. All go on counting when the log is full.
//!
//! `BufferLayout` is computed from the block size, the block count (slots capped at
//! `MAX_SLOTS`, 16), the mode, the granule, the shared window the device reports (the bitmaps
//! cover the program's shared objects; the runtime's own, placed last on the CPU device, are
//! never recorded), the instrumented file's number of shared variables and the capacities; or
//! it is the header alone, for a kernel the plan left unchecked (`Config::header_only`).
//!
//! `without_runtime_param` + `attach`: a spec written for the original kernel resolves against
//! the instrumented one, then the zeroed buffer is appended as the last argument; both devices
//! hand it back as an ordinary buffer. `decode` turns the words into typed `Race`s (scope,
//! block, window byte range, warps; threads, site ids and kinds when the mode knows them),
//! counters and overflows (log, BlockStmtTable, bitmap window). `shared_places` reads the table
//! the runtime wrote into named window ranges, and `locate` maps a racy offset to an array with
//! them, the same way on both devices (`cpu_shared_window` is the CPU device's own layout: its
//! bitmap bound, and what the tests compare the table with). `take_log`: after a GPU fault
//! nothing comes back, so the log is empty and the fault says why. `run_checked(device, ...)`
//! does all of it on either device.

use crate::launch::{Arg, Buffer, Launch};
use crate::report::RunResult;
use crate::{Device, DeviceError, RunOptions};
use gmrace_ir::{Kernel, Module, Scalar};

/// Name of the runtime buffer parameter the instrumenter appends to every kernel.
pub const RUNTIME_PARAM: &str = "__gmrace_rt";

pub const MAGIC: u32 = 0x474d_5243; // "GMRC"

pub const H_MAGIC: usize = 0;
pub const H_LOG_CAP: usize = 1;
pub const H_LOG_COUNT: usize = 2;
pub const H_R_STMT: usize = 3;
pub const H_R_MEM: usize = 4;
pub const H_R_THD: usize = 5;
pub const H_R_WP: usize = 6;
pub const H_OVERFLOW: usize = 7;
pub const H_NSLOTS: usize = 8;
pub const H_SLOT_WORDS: usize = 9;
pub const H_SLOTS_AT: usize = 10;
pub const H_LOG_AT: usize = 11;
pub const H_ROWS: usize = 12;
pub const H_MAP_WORDS: usize = 13;
/// Warp-level executions of `__gmrace_at`, counted when the instrumented file is compiled with
/// `GMRACE_COUNT_CHECKS` (benchmarks).
pub const H_CHECKS: usize = 14;
pub const H_SHARED_N: usize = 15;
pub const H_SHARED_AT: usize = 16;
pub const HEADER_WORDS: usize = 18;
pub const SHARED_ENTRY_WORDS: usize = 2;
/// `H_OVERFLOW` bits.
pub const OVERFLOW_ROWS: u32 = 1;
pub const OVERFLOW_WINDOW: u32 = 2;

pub const S_WARP_TABLE: usize = 8;
/// R-Wp's table: per warp, the higher warps it raced with (one word per warp, ≤ 32 warps).
pub const S_PAIRS: usize = S_WARP_TABLE + 1024;
pub const S_TABLE: usize = S_PAIRS + 32;
pub const ROW_WORDS: usize = 37;
pub const RECORD_WORDS: usize = 8;
pub const SCOPE_INTRA: u32 = 1;
pub const SCOPE_INTER: u32 = 2;
pub const NO_THREAD: u32 = 0xffff;

/// Blocks that can check at the same time (more blocks take turns for a slot).
pub const MAX_SLOTS: u64 = 16;

pub use gmrace_ir::plan::Mode;

/// What the host decides about the checkers of a launch.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub mode: Mode,
    /// Flag mode: bytes per bitmap bit.
    pub granule: u32,
    /// Race records the log keeps.
    pub log_capacity: u32,
    /// Stmt mode: BlockStmtTable rows per block and barrier interval.
    pub rows: u32,
    /// The kernel is not checked (it records nothing and runs as written, see the
    /// instrumenter's plan): it never touches the buffer, which is then the header alone.
    pub header_only: bool,
}

impl Config {
    pub fn new(mode: Mode, granule: u32) -> Config {
        Config {
            mode,
            granule: granule.max(1),
            log_capacity: 4096,
            rows: 2048,
            header_only: false,
        }
    }
}

/// The buffer's layout for one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferLayout {
    pub mode: Mode,
    pub granule: u32,
    pub log_capacity: u32,
    pub rows: u32,
    /// Bytes of the shared window the flag bitmaps cover.
    pub window_bytes: u64,
    /// Entries of the shared-layout table.
    pub shared_entries: u32,
    pub shared_at: u32,
    pub nslots: u32,
    pub slot_words: u32,
    pub slots_at: u32,
    pub log_at: u32,
    pub map_words: u32,
    pub total_words: u64,
}

/// Buffers the CPU device allocates are bounded (its pointers keep 2^40 bytes per object);
/// the runtime's word indices are 32-bit.
const MAX_WORDS: u64 = u32::MAX as u64;

impl BufferLayout {
    /// `window_bytes`: the block's shared memory, static and dynamic (what the bitmaps cover);
    /// `shared_entries`: the shared variables the instrumented file reports.
    pub fn new(
        cfg: &Config,
        block: [u32; 3],
        nblocks: u64,
        window_bytes: u64,
        shared_entries: u32,
    ) -> Result<BufferLayout, String> {
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        let nwarps = threads.div_ceil(32);
        let granules = window_bytes.div_ceil(cfg.granule as u64);
        let map_words = granules.div_ceil(32).max(1);
        let table = match cfg.mode {
            Mode::Stmt => cfg.rows as u64 * ROW_WORDS as u64,
            Mode::Flag => nwarps * 3 * map_words,
        };
        let slot_words = S_TABLE as u64 + table;
        let (nslots, log_capacity) = if cfg.header_only {
            (0, 0)
        } else {
            (nblocks.clamp(1, MAX_SLOTS), cfg.log_capacity)
        };
        let shared_at = HEADER_WORDS as u64;
        let slots_at = shared_at + shared_entries as u64 * SHARED_ENTRY_WORDS as u64;
        let log_at = slots_at + nslots * slot_words;
        let total = log_at + log_capacity as u64 * RECORD_WORDS as u64;
        if total > MAX_WORDS {
            return Err(format!(
                "the race checker's tables would need {} bytes of device memory",
                total * 4
            ));
        }
        Ok(BufferLayout {
            mode: cfg.mode,
            granule: cfg.granule,
            log_capacity,
            rows: cfg.rows,
            window_bytes,
            shared_entries,
            shared_at: shared_at as u32,
            nslots: nslots as u32,
            slot_words: slot_words as u32,
            slots_at: slots_at as u32,
            log_at: log_at as u32,
            map_words: map_words as u32,
            total_words: total,
        })
    }

    /// The buffer as the host hands it to the device: zeroed, with the header filled in.
    pub fn initial_words(&self) -> Vec<u32> {
        let mut w = vec![0u32; self.total_words as usize];
        w[H_MAGIC] = MAGIC;
        w[H_LOG_CAP] = self.log_capacity;
        w[H_NSLOTS] = self.nslots;
        w[H_SLOT_WORDS] = self.slot_words;
        w[H_SLOTS_AT] = self.slots_at;
        w[H_LOG_AT] = self.log_at;
        w[H_ROWS] = self.rows;
        w[H_MAP_WORDS] = self.map_words;
        w[H_SHARED_N] = self.shared_entries;
        w[H_SHARED_AT] = self.shared_at;
        w
    }
}

/// A copy of `module` whose kernels lack the runtime parameter, so that a launch spec written
/// for the original kernel resolves against the instrumented one.
pub fn without_runtime_param(module: &Module) -> Module {
    let mut m = module.clone();
    for k in &mut m.kernels {
        if k.params.last().is_some_and(|p| p.name == RUNTIME_PARAM) {
            k.params.pop();
        }
    }
    m
}

/// Appends the runtime buffer to a launch resolved with [`without_runtime_param`].
pub fn attach(launch: &mut Launch, layout: &BufferLayout) {
    let bytes = layout
        .initial_words()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    launch.args.push(Arg::Buffer(Buffer {
        name: RUNTIME_PARAM.to_string(),
        elem: Scalar::U32,
        len: layout.total_words,
        bytes,
    }));
}

/// A shared object's place in the block's shared window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedPlace {
    pub name: String,
    pub offset: u64,
    pub size: u64,
}

/// A shared variable the instrumented file reports to the runtime (`__gmrace_shared`), by
/// its index in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedDecl {
    pub name: String,
    /// `extern __shared__`: as large as the launch's dynamic shared memory.
    pub dynamic: bool,
}

/// The shared variables as the device reported their places, by offset. A variable no thread
/// of block 0 declared (or whose declaration it never passed) is absent.
pub fn shared_places(
    layout: &BufferLayout,
    words: &[u32],
    decls: &[SharedDecl],
    dynamic_bytes: u32,
) -> Result<Vec<SharedPlace>, String> {
    if decls.len() as u64 != layout.shared_entries as u64 {
        return Err(format!(
            "the shared-layout table has {} entries for {} shared variables",
            layout.shared_entries,
            decls.len()
        ));
    }
    let mut places = Vec::new();
    for (i, d) in decls.iter().enumerate() {
        let at = layout.shared_at as usize + i * SHARED_ENTRY_WORDS;
        let (Some(&plus_one), Some(&size)) = (words.get(at), words.get(at + 1)) else {
            return Err("the race checker's buffer came back damaged".to_string());
        };
        let Some(offset) = plus_one.checked_sub(1) else {
            continue;
        };
        places.push(SharedPlace {
            name: d.name.clone(),
            offset: offset as u64,
            size: if d.dynamic {
                dynamic_bytes as u64
            } else {
                size as u64
            },
        });
    }
    places.sort_by_key(|p| p.offset);
    Ok(places)
}

/// The shared window of `kernel` on the CPU device (the runtime's own objects included).
pub fn cpu_shared_window(module: &Module, kernel: &Kernel, dynamic_bytes: u32) -> Vec<SharedPlace> {
    let layout = crate::cpu::memory::Layout::new(module, kernel);
    layout
        .objs
        .iter()
        .enumerate()
        .filter(|(_, o)| matches!(o.kind, crate::cpu::memory::ObjKind::Shared(_)))
        .map(|(i, o)| SharedPlace {
            name: o.name.clone(),
            offset: o.window,
            size: if Some(i as u32) == layout.dyn_shared_obj {
                dynamic_bytes as u64
            } else {
                o.size
            },
        })
        .collect()
}

/// Bytes the bitmaps must cover: up to the end of the program's own shared objects. The
/// runtime never records its own (`__gmrace_*`: its pointers and warpTable), so when they come
/// last the bitmaps, and every scan of them, stop before.
pub fn window_bytes(window: &[SharedPlace]) -> u64 {
    window
        .iter()
        .filter(|p| !p.name.starts_with("__gmrace_"))
        .map(|p| p.offset + p.size)
        .max()
        .unwrap_or(0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    IntraWarp,
    InterWarp,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::IntraWarp => "intra-warp",
            Scope::InterWarp => "inter-warp",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Read,
    Write,
    Atomic,
    /// Compound assignment: a read then a write.
    Update,
}

impl Kind {
    fn from_bits(b: u32) -> Kind {
        match b & 3 {
            0 => Kind::Read,
            1 => Kind::Write,
            2 => Kind::Atomic,
            _ => Kind::Update,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Write | Kind::Update => "write",
            Kind::Atomic => "atomic",
        }
    }
}

/// One race the device logged.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Race {
    pub scope: Scope,
    pub block: [u32; 3],
    /// Byte range in the block's shared window.
    pub offset: u32,
    pub len: u32,
    /// The two warps (within the block).
    pub warps: [u32; 2],
    /// The two threads (linear ids within the block), when the mode knows them: `stmt`, and
    /// intra-warp races in both modes.
    pub threads: Option<[u32; 2]>,
    /// The two access ids of the instrumented kernel, when the mode knows them.
    pub accesses: Option<[u32; 2]>,
    pub kinds: Option<[Kind; 2]>,
}

/// What the device left in the buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceLog {
    pub races: Vec<Race>,
    /// Races the device found, logged or not.
    pub found: u64,
    pub r_stmt: u64,
    pub r_mem: u64,
    pub r_thd: u64,
    /// Distinct pairs of warps that raced (warps of different blocks never race in shared
    /// memory, so this is per block, summed).
    pub r_wp: u64,
    /// More races than the log holds.
    pub log_overflow: bool,
    /// A BlockStmtTable filled up: some accesses went unchecked.
    pub table_overflow: bool,
    /// An access fell outside the bytes the flag bitmaps cover: it went unchecked.
    pub window_overflow: bool,
    /// See [`H_CHECKS`].
    pub checks: u64,
}

impl RaceLog {
    pub fn complete(&self) -> bool {
        !self.log_overflow && !self.table_overflow && !self.window_overflow
    }
}

/// Decodes the buffer read back after the run.
pub fn decode(layout: &BufferLayout, words: &[u32]) -> Result<RaceLog, String> {
    if words.len() as u64 != layout.total_words || words.get(H_MAGIC) != Some(&MAGIC) {
        return Err("the race checker's buffer came back damaged".to_string());
    }
    let found = words[H_LOG_COUNT] as u64;
    let logged = found.min(layout.log_capacity as u64) as usize;
    let mut races = Vec::with_capacity(logged);
    for i in 0..logged {
        let at = layout.log_at as usize + i * RECORD_WORDS;
        let r = &words[at..at + RECORD_WORDS];
        let scope = match r[0] & 0xff {
            SCOPE_INTRA => Scope::IntraWarp,
            SCOPE_INTER => Scope::InterWarp,
            other => return Err(format!("race record {i} has an unknown scope {other}")),
        };
        let block = [r[1], r[2] & 0xffff, r[2] >> 16];
        let (t0, t1) = (r[5] & 0xffff, r[5] >> 16);
        let threads = (t0 != NO_THREAD).then_some([t0, t1]);
        let kinds =
            (threads.is_some()).then(|| [Kind::from_bits(r[0] >> 8), Kind::from_bits(r[0] >> 12)]);
        let (warps, accesses) = match threads {
            Some([a, b]) => ([a / 32, b / 32], Some([r[3], r[4]])),
            None => ([r[3], r[4]], None),
        };
        races.push(Race {
            scope,
            block,
            offset: r[6],
            len: r[7],
            warps,
            threads,
            accesses,
            kinds,
        });
    }
    races.sort();
    Ok(RaceLog {
        races,
        found,
        r_stmt: words[H_R_STMT] as u64,
        r_mem: words[H_R_MEM] as u64,
        r_thd: words[H_R_THD] as u64,
        r_wp: words[H_R_WP] as u64,
        log_overflow: found > layout.log_capacity as u64,
        table_overflow: words[H_OVERFLOW] & OVERFLOW_ROWS != 0,
        window_overflow: words[H_OVERFLOW] & OVERFLOW_WINDOW != 0,
        checks: words[H_CHECKS] as u64,
    })
}

/// Takes the runtime buffer out of a run's results and decodes it: the log, and the shared
/// variables' places as the device reported them. A GPU gives nothing back after a kernel
/// fault (its context is lost): the log is then empty and the fault, reported by the caller,
/// says why.
pub fn take_log(
    result: &mut RunResult,
    layout: &BufferLayout,
    decls: &[SharedDecl],
) -> Result<(RaceLog, Vec<SharedPlace>), String> {
    let Some(i) = result.buffers.iter().position(|b| b.name == RUNTIME_PARAM) else {
        if result.faults.is_empty() {
            return Err("the run gave no race checker buffer back".to_string());
        }
        return Ok((decode(layout, &layout.initial_words())?, Vec::new()));
    };
    let buf = result.buffers.remove(i);
    let words: Vec<u32> = buf
        .bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let log = decode(layout, &words)?;
    let places = shared_places(layout, &words, decls, result.dynamic_shared_bytes)?;
    Ok((log, places))
}

/// A run with the race checkers, and what they found.
pub struct CheckedRun {
    pub result: RunResult,
    pub log: RaceLog,
    pub layout: BufferLayout,
    /// The shared variables' places as the device reported them (to name the arrays of racy
    /// offsets).
    pub window: Vec<SharedPlace>,
    /// Wall time of the device run alone (a GPU's compilation, done when the shared window
    /// was asked for, is not in it).
    pub run_time: std::time::Duration,
}

/// Runs an instrumented kernel on `device` with a fresh runtime buffer: `launch` was resolved
/// against [`without_runtime_param`] of `module`; `decls` is the instrumented file's
/// shared-layout table.
pub fn run_checked(
    device: &dyn Device,
    module: &Module,
    mut launch: Launch,
    cfg: &Config,
    decls: &[SharedDecl],
    opts: &RunOptions,
) -> Result<CheckedRun, DeviceError> {
    let kernel = module
        .kernels
        .get(launch.kernel)
        .ok_or_else(|| DeviceError::plain("the launch names no kernel of this module"))?;
    if kernel.params.last().is_none_or(|p| p.name != RUNTIME_PARAM) {
        return Err(DeviceError::plain(format!(
            "kernel `{}` is not instrumented (no `{RUNTIME_PARAM}` parameter)",
            kernel.name
        )));
    }
    let entries = u32::try_from(decls.len())
        .map_err(|_| DeviceError::plain("too many shared variables to report"))?;
    let layout = BufferLayout::new(
        cfg,
        launch.block,
        launch.num_blocks(),
        device.shared_window_bytes(module, &launch)?,
        entries,
    )
    .map_err(DeviceError::plain)?;
    attach(&mut launch, &layout);
    let start = std::time::Instant::now();
    let mut result = device.run(module, &launch, opts)?;
    let run_time = start.elapsed();
    // After a fault the checkers saw only part of the run; the caller reports the fault.
    let (log, window) = take_log(&mut result, &layout, decls).map_err(DeviceError::plain)?;
    Ok(CheckedRun {
        result,
        log,
        layout,
        window,
        run_time,
    })
}

/// The shared object and offset within it of a window offset, if one covers it.
pub fn locate(window: &[SharedPlace], offset: u64) -> Option<(&str, u64)> {
    window
        .iter()
        .find(|p| offset >= p.offset && offset < p.offset + p.size)
        .map(|p| (p.name.as_str(), offset - p.offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(mode: Mode) -> BufferLayout {
        BufferLayout::new(&Config::new(mode, 4), [64, 1, 1], 3, 300, 2).unwrap()
    }

    #[test]
    fn flag_layout_covers_every_granule_of_every_warp() {
        let l = layout(Mode::Flag);
        // 300 bytes at 4 bytes a bit: 75 bits, 3 words per bitmap; 2 warps, 3 bitmaps each.
        assert_eq!(l.map_words, 3);
        assert_eq!(l.slot_words as usize, S_TABLE + 2 * 3 * 3);
        assert_eq!(l.nslots, 3);
        // The shared-layout table (2 entries) sits between the header and the slots.
        assert_eq!(l.shared_at as usize, HEADER_WORDS);
        assert_eq!(l.slots_at as usize, HEADER_WORDS + 2 * SHARED_ENTRY_WORDS);
        assert_eq!(
            l.log_at as usize,
            l.slots_at as usize + 3 * l.slot_words as usize
        );
        assert_eq!(l.total_words, l.log_at as u64 + 4096 * RECORD_WORDS as u64);
    }

    #[test]
    fn stmt_layout_has_rows_per_slot_and_slots_are_capped() {
        let l = BufferLayout::new(&Config::new(Mode::Stmt, 4), [32, 1, 1], 1000, 64, 0).unwrap();
        assert_eq!(l.nslots as u64, MAX_SLOTS);
        assert_eq!(l.slot_words as usize, S_TABLE + 2048 * ROW_WORDS);
    }

    #[test]
    fn an_unchecked_kernel_gets_the_header_alone_and_decodes_as_a_clean_run() {
        let mut cfg = Config::new(Mode::Stmt, 4);
        cfg.header_only = true;
        let l = BufferLayout::new(&cfg, [256, 1, 1], 8, 4096, 0).unwrap();
        assert_eq!(l.total_words, HEADER_WORDS as u64);
        let log = decode(&l, &l.initial_words()).unwrap();
        assert!(log.complete() && log.races.is_empty() && log.found == 0);
    }

    #[test]
    fn decode_reads_records_counters_and_overflow() {
        let mut cfg = Config::new(Mode::Stmt, 4);
        cfg.log_capacity = 1;
        let l = BufferLayout::new(&cfg, [64, 1, 1], 1, 64, 0).unwrap();
        let mut w = l.initial_words();
        w[H_LOG_COUNT] = 2;
        w[H_R_THD] = 5;
        let at = l.log_at as usize;
        w[at..at + RECORD_WORDS].copy_from_slice(&[
            SCOPE_INTER | (1 << 8),
            3,
            1 | (2 << 16),
            7,
            9,
            5 | (40 << 16),
            16,
            4,
        ]);
        let log = decode(&l, &w).unwrap();
        assert!(log.log_overflow && !log.complete());
        assert_eq!(log.r_thd, 5);
        assert_eq!(
            log.races,
            vec![Race {
                scope: Scope::InterWarp,
                block: [3, 1, 2],
                offset: 16,
                len: 4,
                warps: [0, 1],
                threads: Some([5, 40]),
                accesses: Some([7, 9]),
                kinds: Some([Kind::Write, Kind::Read]),
            }]
        );
        w[H_OVERFLOW] = OVERFLOW_WINDOW;
        let log = decode(&l, &w).unwrap();
        assert!(log.window_overflow && !log.table_overflow);
        w[H_MAGIC] = 0;
        assert!(decode(&l, &w).is_err());
    }

    /// The host names offsets by what the device reported: a GPU's layout (here ptxas put `b`
    /// first, after 1 KiB the driver reserves) decodes like the CPU device's.
    #[test]
    fn shared_places_come_from_the_table_the_device_wrote() {
        let l = layout(Mode::Flag);
        let decls = [
            SharedDecl {
                name: "a".into(),
                dynamic: false,
            },
            SharedDecl {
                name: "dyn".into(),
                dynamic: true,
            },
        ];
        let mut w = l.initial_words();
        assert_eq!(
            (w[H_SHARED_N], w[H_SHARED_AT]),
            (2, l.shared_at),
            "the header tells the device where the table is"
        );
        let at = l.shared_at as usize;
        // Nothing reported yet: no place known.
        assert_eq!(shared_places(&l, &w, &decls, 64), Ok(Vec::new()));
        w[at..at + 4].copy_from_slice(&[1024 + 256 + 1, 40, 1024 + 1, 0]);
        let places = shared_places(&l, &w, &decls, 64).unwrap();
        assert_eq!(
            places,
            vec![
                SharedPlace {
                    name: "dyn".into(),
                    offset: 1024,
                    size: 64,
                },
                SharedPlace {
                    name: "a".into(),
                    offset: 1280,
                    size: 40,
                },
            ]
        );
        assert_eq!(locate(&places, 1300), Some(("a", 20)));
        assert_eq!(locate(&places, 1030), Some(("dyn", 6)));
        assert_eq!(locate(&places, 1320), None);
        // The plan and the buffer must agree on the table's size.
        assert!(shared_places(&l, &w, &decls[..1], 64).is_err());
    }

    #[test]
    fn locate_maps_window_offsets_to_arrays() {
        let win = vec![
            SharedPlace {
                name: "a".into(),
                offset: 0,
                size: 8,
            },
            SharedPlace {
                name: "b".into(),
                offset: 16,
                size: 16,
            },
        ];
        assert_eq!(locate(&win, 20), Some(("b", 4)));
        assert_eq!(locate(&win, 10), None);
        assert_eq!(window_bytes(&win), 32);
        let mut with_runtime = win.clone();
        with_runtime.push(SharedPlace {
            name: "__gmrace_warp_table".into(),
            offset: 32,
            size: 4096,
        });
        assert_eq!(window_bytes(&with_runtime), 32);
    }
}
