//! The instrumenter's plan as data (API boundary: `gmrace instrument --plan` writes it, the
//! run's report reads it, bundles carry it): which source expressions record their accesses,
//! with which id, kind and reductions, and which accesses stay unchecked and why. The
//! instrumenter (`gmrace_instrumenter::plan`) decides it; it is here so that a run's report can
//! be rendered where no instrumenter is (`gmrace-gpu`).

use serde::{Deserialize, Serialize};

/// The include name of gmrace's device runtime header, which instrumented files include.
pub const RUNTIME_HEADER_NAME: &str = "gmrace_runtime.cuh";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Flag,
    Stmt,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Flag => "flag",
            Mode::Stmt => "stmt",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarpTable {
    Shared,
    Global,
}

/// Shared memory the runtime takes when its warpTable lives there: the table, one word (the
/// lane's offset) per thread of a block of up to 1024 threads, and the two pointers the
/// runtime always keeps in shared memory (`gmrace_runtime.cuh`; a test holds the two equal).
pub const WARP_TABLE_SHARED_BYTES: u64 = 1024 * 4 + 2 * 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SiteKind {
    Read,
    Write,
    /// A read then a write of the same bytes (`+=`, `++`, `--`).
    Update,
    Atomic,
}

impl SiteKind {
    /// The runtime's name for the kind (`gmrace_runtime.cuh`).
    pub fn macro_name(self) -> &'static str {
        match self {
            SiteKind::Read => "GMRACE_READ",
            SiteKind::Write => "GMRACE_WRITE",
            SiteKind::Update => "GMRACE_UPDATE",
            SiteKind::Atomic => "GMRACE_ATOMIC",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The instrumented source file, as given.
    pub file: String,
    pub mode: Mode,
    /// Where the warpTable lives, for every kernel of the file (`GMRACE_WARP_TABLE_GLOBAL`).
    pub warp_table: WarpTable,
    /// Bytes per flag-mode bitmap bit (`GMRACE_GRANULE`), one value for the whole file: the
    /// smallest access size among the instrumented shared accesses of all kernels (4 if none).
    pub granule: u32,
    /// `--all`: every shared access instrumented, regardless of verdicts.
    pub all: bool,
    pub kernels: Vec<KernelPlan>,
    /// The shared variables whose place the instrumented code reports to the runtime, by
    /// table index (`__gmrace_shared`).
    pub shared: Vec<SharedDecl>,
}

/// A shared variable whose place in the block's shared window the instrumented code reports
/// (`__gmrace_shared(&var, size, index)`), so that the host names racy offsets on any device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedDecl {
    pub index: u32,
    pub name: String,
    /// Where it is declared.
    pub line: u32,
    pub column: u32,
    /// `extern __shared__`: its size is the launch's dynamic shared memory.
    pub dynamic: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelPlan {
    /// As clang prints it (`stage<512>` for a template instantiation).
    pub name: String,
    pub mode: Mode,
    pub warp_table: WarpTable,
    /// The file's granule (one `#define` serves every kernel).
    pub granule: u32,
    /// Static shared memory of the kernel's own variables, without the runtime's.
    pub static_shared_bytes: u64,
    /// Whether the analyzer's verdicts were available for this kernel (`--kernel` skips others:
    /// they record nothing).
    pub analyzed: bool,
    /// Whether the kernel runs under the device runtime (`__gmrace_enter`, the runtime's
    /// barriers, `__gmrace_exit`). A kernel that records nothing has nothing to check: it keeps
    /// its body as written and ignores the runtime buffer, and its run reports no race but
    /// those the analysis proved.
    pub checked: bool,
    /// Why `checked` is what it is.
    pub checked_because: String,
    pub instrumented: Vec<PlannedSite>,
    pub unchecked: Vec<Unchecked>,
    /// What the rewrite could not do for this kernel.
    pub notes: Vec<String>,
}

/// One rewritten expression as this kernel sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedSite {
    /// The id the instrumented code passes to `__gmrace_at`: a number per rewritten expression,
    /// unique in the file, in source order.
    pub id: u32,
    /// The analyzer's access ids (this kernel's) that the site records.
    pub accesses: Vec<u32>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub kind: SiteKind,
    pub array: Option<String>,
    pub space: String,
    /// Smallest access size at the site, in bytes.
    pub size: u32,
    pub thread_invariant: bool,
    pub loop_invariant: bool,
}

/// An access that needed checking but is not recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unchecked {
    pub access: u32,
    pub line: u32,
    pub column: u32,
    pub kind: String,
    pub array: Option<String>,
    pub space: String,
    pub reason: String,
}
