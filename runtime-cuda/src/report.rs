//! What a run produces: faults, printf output, final buffers, counts; their text and JSON forms,
//! and `--dump-buffers`. Fault kinds: `out-of-bounds`, `misaligned`, `invalid-address`,
//! `read-only-write`, `barrier-divergence`, `warp-divergence`, `step-budget`, `trap`,
//! `requires-violated`.

use gmrace_ir::Scalar;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// Fault classes. Every fault ends the launch (as on a GPU, where the context is then lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// An access outside every byte of the object its address belongs to.
    OutOfBounds,
    /// An access whose offset is not a multiple of its size.
    Misaligned,
    /// An address that belongs to no object (null, garbage).
    InvalidAddress,
    /// A write or atomic on `__constant__` memory.
    ReadOnlyWrite,
    /// A block barrier reached by some but not all non-exited threads of a block.
    BarrierDivergence,
    /// `__syncwarp` or a `*_sync` intrinsic whose mask names lanes on another path (they would
    /// never arrive: deadlock or undefined behaviour on a GPU), or that the calling lane is not in.
    WarpDivergence,
    /// The launch executed `--max-steps` warp-instructions without finishing.
    StepBudget,
    /// `__trap()`, `assert` failure, `abort()`.
    Trap,
    /// A `__requires(c)` that is false for the launch's arguments.
    RequiresViolated,
}

impl FaultKind {
    /// A bad memory access (the JSON's `memory_errors`), as opposed to a control fault.
    pub fn is_memory_error(self) -> bool {
        matches!(
            self,
            FaultKind::OutOfBounds
                | FaultKind::Misaligned
                | FaultKind::InvalidAddress
                | FaultKind::ReadOnlyWrite
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::OutOfBounds => "out-of-bounds",
            FaultKind::Misaligned => "misaligned",
            FaultKind::InvalidAddress => "invalid-address",
            FaultKind::ReadOnlyWrite => "read-only-write",
            FaultKind::BarrierDivergence => "barrier-divergence",
            FaultKind::WarpDivergence => "warp-divergence",
            FaultKind::StepBudget => "step-budget",
            FaultKind::Trap => "trap",
            FaultKind::RequiresViolated => "requires-violated",
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// Outside the main file (an inlined device function of a header): where the main file
    /// called it, so that a report about a header gmrace wrote can point at the user's line.
    #[serde(skip)]
    pub called_from: Option<Box<Loc>>,
}

/// The memory side of an access fault.
#[derive(Clone, Debug, Serialize)]
pub struct MemDetail {
    /// `read`, `write` or `atomic`.
    pub kind: &'static str,
    pub size: u32,
    pub address: u64,
    /// The object the address belongs to (or is nearest to), with its space and size.
    pub object: Option<String>,
    pub space: Option<&'static str>,
    pub byte_offset: Option<i64>,
    pub object_size: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Note {
    pub message: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub message: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
    pub block: Option<[u32; 3]>,
    /// Threads involved (the first ones, in thread order; the first is the one reported).
    pub threads: Vec<[u32; 3]>,
    /// How many threads are involved in all.
    pub thread_count: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemDetail>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A buffer's contents after the run.
#[derive(Clone, Debug)]
pub struct OutBuffer {
    pub name: String,
    /// `param` or `global`.
    pub kind: &'static str,
    pub elem: Scalar,
    pub len: u64,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: u32,
    pub faults: Vec<Fault>,
    /// Kernel `printf` output, each call prefixed with its block and thread, in block order.
    pub printf: String,
    pub printf_truncated: bool,
    /// Warp-instructions executed (the unit of `--max-steps`).
    pub steps: u64,
    /// Instructions times active lanes.
    pub thread_instructions: u64,
    /// Whether blocks ran on several threads (else in block order on one).
    pub parallel: bool,
    /// Buffer arguments (in parameter order), then `__device__` variables.
    pub buffers: Vec<OutBuffer>,
    pub warnings: Vec<String>,
    /// Shared-memory accesses in execution order (with `RunOptions::trace`).
    pub trace: Vec<crate::cpu::trace::TraceEvent>,
}

impl RunResult {
    /// A run of `launch`'s kernel `kernel` that has not started: no output, no fault.
    pub fn new(kernel: &str, launch: &crate::launch::Launch) -> RunResult {
        RunResult {
            kernel: kernel.to_string(),
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: launch.dynamic_shared_bytes,
            faults: Vec::new(),
            printf: String::new(),
            printf_truncated: false,
            steps: 0,
            thread_instructions: 0,
            parallel: false,
            buffers: Vec::new(),
            warnings: Vec::new(),
            trace: Vec::new(),
        }
    }

    pub fn buffer(&self, name: &str) -> Option<&OutBuffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}

impl OutBuffer {
    /// Elements as canonical bits (see `gmrace_ir::scalar`).
    pub fn bits(&self) -> Vec<u64> {
        let size = self.elem.size() as usize;
        self.bytes
            .chunks_exact(size)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..size].copy_from_slice(c);
                u64::from_le_bytes(w)
            })
            .collect()
    }
    pub fn as_f32(&self) -> Vec<f32> {
        self.bits()
            .iter()
            .map(|b| f32::from_bits(*b as u32))
            .collect()
    }
    pub fn as_f64(&self) -> Vec<f64> {
        self.bits().iter().map(|b| f64::from_bits(*b)).collect()
    }
    pub fn as_i64(&self) -> Vec<i64> {
        let size = self.elem.size();
        self.bits()
            .iter()
            .map(|b| {
                if self.elem.is_signed() {
                    gmrace_ir::scalar::sign_extend(*b, size)
                } else {
                    *b as i64
                }
            })
            .collect()
    }
}

/// `threads (0,0,0)-(15,0,0), (32,0,0)` from linear thread ids.
pub fn thread_ranges(tids: &[u32], block: [u32; 3]) -> String {
    let block = block.map(|b| b.max(1));
    let t = |id: u32| {
        let x = id % block[0];
        let y = (id / block[0]) % block[1].max(1);
        let z = id / (block[0] * block[1]).max(1);
        format!("({x},{y},{z})")
    };
    let mut parts = Vec::new();
    let mut i = 0;
    while i < tids.len() {
        let mut j = i;
        while j + 1 < tids.len() && tids[j + 1] == tids[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            t(tids[i])
        } else {
            format!("{}-{}", t(tids[i]), t(tids[j]))
        });
        i = j + 1;
    }
    const MAX: usize = 6;
    let more = parts.len().saturating_sub(MAX);
    parts.truncate(MAX);
    let mut s = parts.join(", ");
    if more > 0 {
        let _ = write!(s, " and {more} more ranges");
    }
    s
}

/// What goes before a caret under byte column `column` (clang's) of `src`: a tab where `src`
/// has one, so the terminal expands both alike, and one space per other character, however
/// many bytes it takes.
fn caret_padding(src: &str, column: u32) -> String {
    let mut end = (column.saturating_sub(1) as usize).min(src.len());
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    src[..end]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect()
}

/// Renders a fault for a terminal: `error[kind]: message`, location with the source line, notes.
/// `source_line(file, line)` supplies source text when available.
pub fn render_fault(f: &Fault, source_line: &dyn Fn(&str, u32) -> Option<String>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "error[{}]: {}", f.kind.name(), f.message);
    if let Some(loc) = &f.loc {
        let _ = writeln!(s, "  --> {}:{}:{}", loc.file, loc.line, loc.column);
        if let Some(src) = source_line(&loc.file, loc.line) {
            let num = loc.line.to_string();
            let pad = " ".repeat(num.len());
            let _ = writeln!(s, "{pad} |");
            let _ = writeln!(s, "{num} | {src}");
            let _ = writeln!(s, "{pad} | {}^", caret_padding(&src, loc.column));
        }
    }
    if let Some(b) = f.block {
        let first = f
            .threads
            .first()
            .map(|t| format!(", thread ({},{},{})", t[0], t[1], t[2]))
            .unwrap_or_default();
        let more = if f.thread_count > 1 {
            format!(" and {} more", f.thread_count - 1)
        } else {
            String::new()
        };
        let _ = writeln!(s, "  = block ({},{},{}){first}{more}", b[0], b[1], b[2]);
    }
    if let Some(m) = &f.memory {
        let mut line = format!(
            "  = {} of {} bytes at address {:#x}",
            m.kind, m.size, m.address
        );
        if let (Some(o), Some(sp)) = (&m.object, m.space) {
            let _ = write!(line, ": {sp} `{o}`");
            if let Some(off) = m.byte_offset {
                let _ = write!(line, ", byte offset {off}");
            }
            if let Some(sz) = m.object_size {
                let _ = write!(line, " (object size {sz} bytes)");
            }
        }
        let _ = writeln!(s, "{line}");
    }
    for n in &f.notes {
        match &n.loc {
            Some(l) => {
                let _ = writeln!(
                    s,
                    "  = note: {} (at {}:{}:{})",
                    n.message, l.file, l.line, l.column
                );
            }
            None => {
                let _ = writeln!(s, "  = note: {}", n.message);
            }
        }
    }
    s
}

/// Writes `DIR/<name>.bin` for every buffer and `DIR/index.json` listing them
/// (`{"buffers": [{"name", "kind", "type", "len", "file"}]}`).
pub fn dump_buffers(result: &RunResult, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[derive(Serialize)]
    struct Entry<'a> {
        name: &'a str,
        kind: &'a str,
        #[serde(rename = "type")]
        ty: &'a str,
        len: u64,
        file: String,
    }
    let mut entries = Vec::new();
    let mut used = std::collections::HashSet::new();
    for b in &result.buffers {
        // A global with a parameter's name would overwrite it: give it a prefix.
        let stem = if used.contains(&b.name) {
            format!("global.{}", b.name)
        } else {
            b.name.clone()
        };
        used.insert(stem.clone());
        let file = format!("{stem}.bin");
        std::fs::write(dir.join(&file), &b.bytes)?;
        entries.push(Entry {
            name: &b.name,
            kind: b.kind,
            ty: b.elem.name(),
            len: b.len,
            file,
        });
    }
    let json = serde_json::json!({ "buffers": entries });
    let text = serde_json::to_string_pretty(&json).map_err(std::io::Error::other)?;
    std::fs::write(dir.join("index.json"), text + "\n")
}
