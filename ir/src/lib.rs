//! The kernel IR: the one vocabulary shared by the analyzer, the instrumenter and the CPU device.
//! `Module` → `Kernel` → `Block` of `Stmt`, with `Expr` trees; this is also what
//! `gmrace ir --format json` prints. It is an API boundary.
//!
//! Shape and invariants (relied on downstream):
//! - Control flow is structured (`If`, `Loop`, `Scope`/`Exit`, `Break`, `Continue`, `Return`);
//!   there is no goto and there are no basic blocks.
//! - Expressions have no side effects and never write memory. Every read of memory is an
//!   `ExprKind::Load`; every write is a `Store` or `Atomic` statement. Side effects inside C
//!   expressions (`a[i++] = b[j]`, calls, assignments in conditions) are hoisted into earlier
//!   statements, so one statement's reads happen before its (single) write, as in the lockstep
//!   warp model.
//! - Every memory access has an `AccessId` indexing `Kernel::accesses` (kind, space, scalar type,
//!   base array name, span, site), stable for a given source file and front-end version. An
//!   aggregate (struct, vector) load or store becomes one access per scalar leaf, sharing the
//!   source span; there are no aggregate values.
//! - Values are scalars or pointers. Pointer arithmetic is explicit and in bytes
//!   (`BinOp::PtrAdd`), so a multi-dimensional array index is already linearised.
//! - Device functions are inlined; a `return` inside one becomes `Exit` of the `Scope` that
//!   holds its body.
//! - What the front end cannot model is `ExprKind::Opaque` / `StmtKind::Opaque` with a reason, and
//!   a located warning in `Module::diagnostics`. Later stages answer `unknown` for what it touches:
//!   nothing downstream may treat an opaque node as harmless.
//!
//! Which kinds of access conflict between which threads (`AccessKind::conflict`: two reads never,
//! block-scoped atomics only across blocks) is defined here once, and shared by the analysis's
//! queries, its replays and the brute-force oracle.

pub mod limits;
pub mod plan;
mod print;
pub mod report;
pub mod scalar;
pub mod source;
pub mod source_map;
pub use scalar::sign_extend;
pub mod space;

pub use print::{access_table, print_expr, print_module};
use serde::{Deserialize, Serialize};

/// Index into `Module::files`.
pub type FileId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Span {
    pub file: FileId,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl Span {
    /// Where the span starts, as reports name a place: `line 12` in the main file of `files`,
    /// `main.cu:30` in another.
    pub fn place(&self, files: &[String]) -> String {
        match self.file {
            0 => format!("line {}", self.line),
            f => file_line(files.get(f as usize).map_or("?", String::as_str), self.line),
        }
    }
}

/// `main.cu:30`: a line of a file named by its name alone.
pub fn file_line(path: &str, line: u32) -> String {
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    format!("{name}:{line}")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl Scalar {
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    /// The values an integer (or bool) type holds, inclusive; `None` for floats. The one range
    /// check of values the user gives: launch specs and `--param`.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Scalar::Bool => (0, 1),
            Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
            Scalar::U8 => (0, u8::MAX as i128),
            Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
            Scalar::U16 => (0, u16::MAX as i128),
            Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
            Scalar::U32 => (0, u32::MAX as i128),
            Scalar::I64 => (i64::MIN as i128, i64::MAX as i128),
            Scalar::U64 => (0, u64::MAX as i128),
            Scalar::F16 | Scalar::F32 | Scalar::F64 => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "i8",
            Scalar::U8 => "u8",
            Scalar::I16 => "i16",
            Scalar::U16 => "u16",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
            Scalar::F16 => "f16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
        }
    }
}

/// Memory spaces. `Generic` is a pointer whose space is not known statically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    Global,
    Shared,
    Local,
    Param,
    Constant,
    Generic,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Param => "param",
            Space::Constant => "constant",
            Space::Generic => "generic",
        }
    }
}

/// Type of an IR value. Pointers are 64-bit byte addresses into one memory space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ty {
    Void,
    Scalar(Scalar),
    Ptr(Space),
}

impl Ty {
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const I32: Ty = Ty::Scalar(Scalar::I32);
    pub const U32: Ty = Ty::Scalar(Scalar::U32);
    pub const I64: Ty = Ty::Scalar(Scalar::I64);
    pub const U64: Ty = Ty::Scalar(Scalar::U64);

    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::Scalar(s) => f.write_str(s.name()),
            Ty::Ptr(sp) => write!(f, "ptr<{}>", sp.name()),
        }
    }
}

macro_rules! id_type {
    ($($name:ident),*) => {$(
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}
id_type!(
    AccessId,
    LocalId,
    ParamId,
    SharedId,
    GlobalId,
    LocalArrayId,
    ScopeId
);

/// A parsed translation unit: its kernels and what the host code and header say about launches.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Module {
    /// Source files; `Span::file` indexes this. Entry 0 is the main file.
    pub files: Vec<String>,
    pub kernels: Vec<Kernel>,
    /// `__device__` and `__constant__` variables at file scope.
    pub globals: Vec<GlobalVar>,
    /// Launches `k<<<g, b>>>(...)` found in host code.
    pub launches: Vec<LaunchSite>,
    /// GPUVerify-style header comment on the first lines of the main file.
    pub header: HeaderConfig,
    /// Device functions whose address a kernel uses: a function pointer value `k` (u64)
    /// denotes `functions[k - 1]`; 0 is the null function pointer.
    pub functions: Vec<String>,
    /// Kernels the file defines that could not be read, and why.
    pub not_analysed: Vec<NotAnalysed>,
    /// Kernel templates of an included file that this file neither instantiates nor could
    /// (no text of it names them): not this file's to list; files analysed together list each
    /// one no file instantiates (`gmrace analyze DIR`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unused_templates: Vec<NotAnalysed>,
    pub diagnostics: Vec<Diagnostic>,
    /// What the file's host code tells other files of its program (`HostCalls`).
    #[serde(default)]
    pub host: HostCalls,
}

/// The calls a file's host code makes of functions defined in other files, and the functions
/// of its own whose callers, in other files, a launch's values wait for: `scan.cu`'s `main`
/// calls `scan(d, 1024)`, which `scan_kernels.cu` defines and where `scan` launches a kernel
/// with a grid of `length / 1024` blocks.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct HostCalls {
    /// The file defines `main`: its functions are a program's, not a library's.
    pub defines_main: bool,
    /// The calls of functions the file declares and does not define; `None` when its host code
    /// has errors (a call clang could not read is missing, not wrong).
    pub calls: Option<Vec<HostCall>>,
    /// The file's external functions whose parameters a launch needed: its calls of them need
    /// not be all the calls there are (where it defines `main`, they are unless a file of the
    /// same program calls them too).
    pub wanted: Vec<HostFunction>,
}

/// A host function as every translation unit names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HostFunction {
    /// clang's unified symbol resolution: one function, overloads and namespaces apart.
    pub usr: String,
    /// As written, for finding the files that name it.
    pub name: String,
}

/// One call of a function defined elsewhere.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HostCall {
    pub function: HostFunction,
    /// Each argument's value where it folds at the call; empty when the file takes the
    /// function's address or calls it outside a function (its calls are not all seen).
    pub args: Vec<Option<ArgValue>>,
    /// Where the call is: the file's path and the line.
    pub file: String,
    pub line: u32,
}

/// What a host call passes a parameter: an integer, or a `dim3` with each member that folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgValue {
    Int(i64),
    Dim3([Option<u32>; 3]),
}

/// The reason of a kernel template no host code of the file instantiates (read without errors).
pub const NEVER_INSTANTIATED: &str = "template never instantiated in this file";

/// A kernel of the file left out of the analysis: its name, why, and where it is defined.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NotAnalysed {
    pub name: String,
    pub reason: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct HeaderConfig {
    /// `pass`, `xfail`, ... from line 1, as written.
    pub expect: Option<String>,
    pub block: Option<[u32; 3]>,
    pub grid: Option<[u32; 3]>,
    /// `-DNAME[=VALUE]` from the header line; already applied to the parse.
    pub defines: Vec<(String, Option<String>)>,
    /// Line the launch configuration was read from (1-based).
    pub line: Option<u32>,
    /// `--warp-sync=N` (GPUVerify: warps run in lockstep) and the line it is on.
    pub warp_sync: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LaunchSite {
    /// Kernel name as clang prints it, with template arguments (`stage<512>`).
    pub kernel: String,
    /// Each dimension of each extent that folds to a constant (`dim3 b(threads, 1, 1)` with
    /// `threads` unknown: `[None, Some(1), Some(1)]`).
    pub grid: [Option<u32>; 3],
    pub block: [Option<u32>; 3],
    pub dynamic_shared_bytes: Option<u64>,
    /// Each argument's value when it folds to an integer constant at the launch.
    pub args: Vec<Option<i64>>,
    /// Each dimension that does not fold but that the host computes from values it passes as
    /// arguments (`k<<<(n + 255) / 256, 256>>>(d, n)`): that computation over the kernel's
    /// parameters, in the host's types, converted to the dimension's `unsigned int`.
    pub grid_exprs: [Option<Expr>; 3],
    pub block_exprs: [Option<Expr>; 3],
    /// Conditions over the kernel's parameters that the launching function checks before the
    /// launch on every path to it (`if (n < 64) return;` gives `!(n < 64)`), each with the
    /// line that checks it.
    pub guards: Vec<(Expr, u32)>,
    pub span: Span,
    /// In a branch the launching function's constants rule out (`if (USE_OPTIMIZED)` with the
    /// macro 0): the launch the file would make with other constants. Kept only for a kernel
    /// the file launches nowhere else, with no guard.
    #[serde(default)]
    pub ruled_out: bool,
    /// The calls in other files (`main.cu:30`) whose arguments gave values the launch folds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// The text of the span's first line, for rendering with a caret.
    #[serde(skip)]
    pub source_line: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GlobalVar {
    pub name: String,
    /// `Global` for `__device__`, `Constant` for `__constant__`.
    pub space: Space,
    pub size_bytes: u64,
    /// Scalar leaf type when the variable is a scalar or an array of scalars.
    pub elem: Option<Scalar>,
    /// Declared array extents, outermost first; empty for a scalar.
    pub dims: Vec<u64>,
    /// Flattened constant initialiser, when it has one the front end could evaluate.
    pub init: Option<Vec<ConstValue>>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ConstValue {
    Int(i64),
    Float(f64),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Kernel {
    /// As clang prints it; a template instantiation includes its arguments.
    pub name: String,
    pub params: Vec<Param>,
    pub shared: Vec<SharedVar>,
    pub locals: Vec<Local>,
    pub local_arrays: Vec<LocalArray>,
    /// Indexed by `AccessId`.
    pub accesses: Vec<Access>,
    pub body: Block,
    pub span: Span,
    /// `static` or in an anonymous namespace: only its own file can launch it.
    #[serde(default)]
    pub internal: bool,
    /// `__launch_bounds__`'s first argument, where it evaluates: no launch of the kernel runs
    /// more threads per block (a larger one fails).
    #[serde(default)]
    pub max_threads: Option<MaxThreads>,
    /// The built-in variables the kernel's source reads, itself or through the functions it
    /// calls, whether or not the body above kept the code that reads them: a launch extent is
    /// taken as 1 only where neither reads it.
    #[serde(default)]
    pub builtins_read: Vec<Special>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaxThreads {
    pub threads: u32,
    /// The attribute's line in the kernel's file.
    pub line: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    /// Element type of a pointer parameter (what a launch spec's buffer holds), if scalar.
    pub pointee: Option<Scalar>,
    pub restrict: bool,
    pub const_pointee: bool,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SharedVar {
    pub name: String,
    /// `None` for `extern __shared__` (sized by the launch's dynamic shared memory).
    pub size_bytes: Option<u64>,
    pub elem: Option<Scalar>,
    pub dims: Vec<u64>,
    pub align: u32,
    pub span: Span,
    /// For a variable declared at namespace scope, its name qualified from the global
    /// namespace (`::buf`, `::ns::buf`), by which code anywhere after it can name it; `None`
    /// for one declared in a function.
    pub qualified: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Local {
    /// Source name; inlined copies and scalarised struct fields get a suffix.
    pub name: String,
    pub ty: Ty,
}

/// A thread-private object in memory: a local array or a local whose address is taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LocalArray {
    pub name: String,
    pub size_bytes: u64,
    pub elem: Option<Scalar>,
    pub dims: Vec<u64>,
}

/// Reports name it `read`, `write` or `atomic` (`name`, DESIGN.md's JSON); an atomic's scope
/// shows in the race it takes part in (`scoped`). The IR keeps the scope (`gmrace ir`, bundles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    Read,
    Write,
    /// Atomic with the other atomics of its scope only: `atomicAdd_block` on memory another
    /// block also updates atomically is a (scoped) race.
    Atomic(SyncScope),
}

/// Between which threads two accesses to overlapping bytes conflict (DESIGN.md, Semantics): the
/// one rule the static queries, the replays and the oracle share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// Two reads, or two atomics of a scope that holds both threads.
    Never,
    /// Two atomics, one of them block-scoped: atomic within a block, a scoped race across.
    AcrossBlocks,
    /// A write, or an atomic and a plain read: any two threads.
    Always,
}

impl Conflict {
    /// Whether the accesses conflict between two threads of one block (`same_block`) or of two.
    pub fn between(self, same_block: bool) -> bool {
        match self {
            Conflict::Never => false,
            Conflict::AcrossBlocks => !same_block,
            Conflict::Always => true,
        }
    }
}

impl AccessKind {
    /// `read`, `write` or `atomic`: the kind as reports name it.
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic(_) => "atomic",
        }
    }

    pub fn is_atomic(self) -> bool {
        matches!(self, AccessKind::Atomic(_))
    }

    pub fn conflict(self, other: AccessKind) -> Conflict {
        use AccessKind::*;
        match (self, other) {
            (Read, Read) => Conflict::Never,
            (Atomic(x), Atomic(y)) if x == SyncScope::Block || y == SyncScope::Block => {
                Conflict::AcrossBlocks
            }
            (Atomic(_), Atomic(_)) => Conflict::Never,
            _ => Conflict::Always,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Access {
    pub id: AccessId,
    pub kind: AccessKind,
    pub space: Space,
    pub ty: Scalar,
    /// The variable or parameter the address is based on, when the front end can tell.
    pub array: Option<String>,
    pub span: Span,
    /// The source text that names the accessed memory, for the instrumenter's rewrite.
    pub site: Site,
    /// Through a `volatile` lvalue: strong in PTX, but it orders nothing (DESIGN.md).
    pub volatile: bool,
}

/// Where the memory of an access is named in the source. Accesses of one lvalue occurrence
/// (`s[i] += x` reads and writes `s[i]`; inlined copies of a device function; the fields of a
/// struct copy) share one site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Site {
    /// The full extent of the lvalue expression read or written (for an atomic, of its pointer
    /// argument), in the file where it is written.
    Expr(Span),
    /// The expression is written (partly) inside a macro expansion: no text to rewrite in place.
    Macro,
    /// No expression of its own: initialisers, temporaries, memory a builtin reads or writes.
    Implicit,
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BarrierKind {
    Sync,
    Count,
    And,
    Or,
}

/// The threads a fence orders or an atomic is atomic with (PTX's `.cta`, `.gpu`, `.sys`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncScope {
    Block,
    Device,
    System,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtomicOp {
    Add,
    Sub,
    Exch,
    Min,
    Max,
    Inc,
    Dec,
    Cas,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarpOp {
    ActiveMask,
    Ballot,
    Any,
    All,
    Uni,
    Shfl,
    ShflUp,
    ShflDown,
    ShflXor,
    MatchAny,
    MatchAll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssumeKind {
    /// `__requires(c)`: a precondition on the launch.
    Requires,
    /// `__assume(c)`.
    Assume,
    /// `__assert(c)` / `__invariant(c)`: GPUVerify proof obligations, kept for the record.
    Assert,
    /// An array subscript stays within its array (`a[i]` of `T a[N]`: `0 <= i < N`). C++
    /// leaves anything else undefined, so no race witness may rely on it; the run checks
    /// memory separately, so an out-of-bounds access is still found there.
    InBounds,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    Assign {
        dst: LocalId,
        value: Expr,
    },
    Store {
        access: AccessId,
        addr: Expr,
        value: Expr,
    },
    /// Read-modify-write. `args` holds the operand (the compare and swap values for `Cas`).
    Atomic {
        access: AccessId,
        op: AtomicOp,
        addr: Expr,
        args: Vec<Expr>,
        dst: Option<LocalId>,
    },
    /// `__syncthreads` and its `_count/_and/_or` variants.
    Barrier {
        kind: BarrierKind,
        pred: Option<Expr>,
        dst: Option<LocalId>,
    },
    SyncWarp {
        mask: Expr,
    },
    Fence {
        scope: SyncScope,
    },
    Warp {
        op: WarpOp,
        args: Vec<Expr>,
        /// Receives the result; its type is the shuffled value's.
        dst: LocalId,
    },
    If {
        cond: Expr,
        then_body: Block,
        else_body: Block,
    },
    /// `for`, `while` (test_first) and `do`-`while` (!test_first). `continue` runs `step` then
    /// re-tests `cond`; a missing condition is `true`.
    Loop {
        cond: Option<Expr>,
        /// Statements evaluating `cond`'s side effects, run before every test.
        cond_prelude: Block,
        test_first: bool,
        body: Block,
        step: Block,
    },
    Break,
    Continue,
    /// Ends the thread (a `return` in the kernel body).
    Return,
    /// A labelled block; `Exit(id)` leaves it. Inlined function bodies and `switch` use it.
    Scope {
        id: ScopeId,
        body: Block,
    },
    Exit(ScopeId),
    Assume {
        kind: AssumeKind,
        cond: Expr,
    },
    Printf {
        format: String,
        args: Vec<Expr>,
    },
    /// `assert` failure or `__trap()`: aborts the launch.
    Trap {
        message: String,
    },
    Opaque {
        reason: String,
    },
}

/// What an opaque statement may do to memory, read from its reason (the front end writes the
/// reasons through [`sync_reason`], [`ASYNC_COPY`], [`device_launch_reason`] and
/// [`read_reason`]; any other reason is `Here`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpaqueEffect {
    /// Only synchronises (a grid-wide barrier, `cuda::barrier`): touches no memory.
    None,
    /// Touches any memory it can reach, where the thread runs it.
    Here,
    /// An asynchronous copy (`memcpy_async`): writes any memory beside every later statement of
    /// every thread of the block (other blocks too outside shared memory), across barriers.
    Async,
    /// A kernel launched from device code: the child grid touches global memory beside every
    /// later statement of the parent grid, across its barriers, until the parent grid ends.
    Concurrent,
    /// Reads any memory it can reach, where the thread runs it (a read through a place the
    /// front end does not know): it races only with writes.
    Reads,
}

pub const ASYNC_COPY: &str = "asynchronous copy";
const SYNC: &str = " synchronization";

/// The reason of an opaque statement that only synchronises: `{what} synchronization`.
pub fn sync_reason(what: &str) -> String {
    format!("{what}{SYNC}")
}

pub fn device_launch_reason(kernel: &str) -> String {
    format!("launch of `{kernel}` from device code")
}

/// The reason of an opaque statement that only reads: `read through {what}`.
pub fn read_reason(what: &str) -> String {
    format!("{READ}{what}")
}

const READ: &str = "read through ";

pub fn opaque_effect(reason: &str) -> OpaqueEffect {
    if reason.starts_with(READ) {
        OpaqueEffect::Reads
    } else if reason.ends_with(SYNC) {
        OpaqueEffect::None
    } else if reason == ASYNC_COPY {
        OpaqueEffect::Async
    } else if reason.starts_with("launch of `") && reason.ends_with("` from device code") {
        OpaqueEffect::Concurrent
    } else {
        OpaqueEffect::Here
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dim {
    X,
    Y,
    Z,
}

/// Hardware-provided values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    WarpSize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnOp {
    Neg,
    /// Bitwise complement.
    Not,
    /// Logical negation; result `bool`.
    LNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    /// Arithmetic for signed operands, logical for unsigned.
    Shr,
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Both operands are pure, so no short circuit is needed.
    LAnd,
    LOr,
    Min,
    Max,
    /// Pointer plus a signed 64-bit byte offset.
    PtrAdd,
    /// Byte difference of two pointers (i64).
    PtrDiff,
}

/// Pure functions of their arguments (math and bit intrinsics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intrinsic {
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Pow,
    Sin,
    Cos,
    Tan,
    Tanh,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Cbrt,
    Hypot,
    Expm1,
    Log1p,
    Erf,
    Abs,
    Floor,
    Ceil,
    Round,
    Trunc,
    Rint,
    Fma,
    Fmod,
    Saturate,
    IsNan,
    IsInf,
    Popc,
    Clz,
    Ffs,
    Brev,
    MulHi,
    Mul24,
    Sad,
    /// `__usad4(a, b, c)`: `c` plus the absolute differences of the four byte pairs.
    Usad4,
    /// Reinterpret the bits as the result type (`__float_as_int`, `__int_as_float`).
    Bitcast,
    /// `clock()`/`clock64()`: a value the program cannot predict.
    Clock,
    /// Mantissa of `frexp` (`Frexp`) and its exponent (`FrexpExp`, i32); `ldexp(x, e)`.
    Frexp,
    FrexpExp,
    Ldexp,
    /// A pseudo-random number drawn by cuRAND from a generator state (the state's update is
    /// explicit in the IR as reads and writes of the state).
    Random,
    /// A fetch from texture memory (`tex2D(tex, x, y)`; the arguments are the coordinates).
    /// Textures are read-only during a launch, so a fetch never races; its value is data.
    Texture,
    /// `__cvta_generic_to_shared(p)`: the byte offset of `p` in the block's shared-memory
    /// window (the block's shared objects laid out in declaration order, each at its
    /// alignment, dynamic shared memory last).
    SharedOffset,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// Integer constant, stored as the two's-complement bits of `ty`.
    Int(u64),
    Float(f64),
    Local(LocalId),
    Param(ParamId),
    Special(Special),
    /// Base address of a memory object.
    SharedAddr(SharedId),
    GlobalAddr(GlobalId),
    LocalAddr(LocalArrayId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty`.
    Cast(Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    Load {
        access: AccessId,
        addr: Box<Expr>,
    },
    Call(Intrinsic, Vec<Expr>),
    Opaque {
        reason: String,
    },
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Ty) -> Expr {
        Expr { kind, ty }
    }
    pub fn int(v: i64, ty: Ty) -> Expr {
        let bits = match ty.scalar().map(Scalar::size) {
            Some(1) => v as u64 & 0xff,
            Some(2) => v as u64 & 0xffff,
            Some(4) => v as u64 & 0xffff_ffff,
            _ => v as u64,
        };
        Expr::new(ExprKind::Int(bits), ty)
    }
    /// DESIGN.md's `tid = x + y*Dx + z*Dx*Dy`, in `u32`: what cooperative groups' ranks and
    /// PTX's `%laneid` are computed from.
    pub fn linear_thread_id() -> Expr {
        let d = |s| Expr::new(ExprKind::Special(s), Ty::U32);
        let bin = |op, a, b| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), Ty::U32);
        let (x, y, z) = (Dim::X, Dim::Y, Dim::Z);
        let dims_xy = bin(BinOp::Mul, d(Special::BlockDim(x)), d(Special::BlockDim(y)));
        bin(
            BinOp::Add,
            bin(
                BinOp::Add,
                d(Special::ThreadIdx(x)),
                bin(
                    BinOp::Mul,
                    d(Special::ThreadIdx(y)),
                    d(Special::BlockDim(x)),
                ),
            ),
            bin(BinOp::Mul, d(Special::ThreadIdx(z)), dims_xy),
        )
    }
    pub fn opaque(reason: impl Into<String>, ty: Ty) -> Expr {
        Expr::new(
            ExprKind::Opaque {
                reason: reason.into(),
            },
            ty,
        )
    }
    /// Visits this expression and its subexpressions, parents first.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => a.walk(f),
            ExprKind::Load { addr, .. } => addr.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Select(c, a, b) => {
                c.walk(f);
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.walk(f)),
            _ => {}
        }
    }
}

impl Stmt {
    /// The expressions this statement evaluates itself (not those of nested blocks).
    pub fn exprs(&self) -> Vec<&Expr> {
        match &self.kind {
            StmtKind::Assign { value, .. } => vec![value],
            StmtKind::Store { addr, value, .. } => vec![addr, value],
            StmtKind::Atomic { addr, args, .. } => std::iter::once(addr).chain(args).collect(),
            StmtKind::Barrier { pred, .. } => pred.iter().collect(),
            StmtKind::SyncWarp { mask } => vec![mask],
            StmtKind::Warp { args, .. } => args.iter().collect(),
            StmtKind::If { cond, .. } | StmtKind::Assume { cond, .. } => vec![cond],
            StmtKind::Loop { cond, .. } => cond.iter().collect(),
            StmtKind::Printf { args, .. } => args.iter().collect(),
            _ => vec![],
        }
    }
    /// Nested blocks, in source order.
    pub fn blocks(&self) -> Vec<&Block> {
        match &self.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => vec![then_body, else_body],
            StmtKind::Loop {
                cond_prelude,
                body,
                step,
                ..
            } => vec![cond_prelude, body, step],
            StmtKind::Scope { body, .. } => vec![body],
            _ => vec![],
        }
    }
}

/// Visits every statement of a block, nested ones included, parents first.
pub fn walk_stmts<'a>(block: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in block {
        f(s);
        for b in s.blocks() {
            walk_stmts(b, f);
        }
    }
}

impl Module {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
    /// Whether the file defines a kernel of that name (analysed or not).
    pub fn defines(&self, kernel: &str) -> bool {
        self.kernel(kernel).is_some() || self.not_analysed.iter().any(|n| n.name == kernel)
    }
    /// Whether every kernel left out is a template the file's host code, read without errors,
    /// never instantiates: nothing was left unread, there was nothing to analyse.
    pub fn only_uninstantiated(&self) -> bool {
        self.not_analysed
            .iter()
            .all(|n| n.reason == NEVER_INSTANTIATED)
    }
    /// The launches of kernels the file does not define (declared only).
    pub fn foreign_launches(&self) -> impl Iterator<Item = &LaunchSite> {
        self.launches.iter().filter(|l| !self.defines(&l.kernel))
    }
    /// The kernels the file launches that it does not define, each once.
    pub fn launched_elsewhere(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for l in self.foreign_launches() {
            if !out.contains(&l.kernel.as_str()) {
                out.push(&l.kernel);
            }
        }
        out
    }
}
