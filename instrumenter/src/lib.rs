//! gmrace's instrumenter: from the analyzer's verdicts, a source-to-source rewrite of a `.cu`
//! file that records the shared accesses left `unknown` (every shared access with `--all`),
//! plus the device runtime header. It consumes `gmrace_analyzer::ir` and the analysis reports
//! and produces CUDA text and a `Plan`; it never executes anything. API boundary: `instrument`,
//! `Plan`, `RUNTIME_HEADER`.
//!
//! The shape of the output is fixed by the runtime contract (`runtime-contract.md`): the file
//! starts with the mode's `#define`s and `#include "gmrace_runtime.cuh"`; each kernel gets an
//! extra `unsigned int *__gmrace_rt` parameter; a checked kernel runs its body between the
//! runtime's enter and exit (its `return`s call the exit first); recorded lvalues `E` become
//! `(*(decltype(&(E)))__gmrace_at(&(E), sizeof(E), ID, KIND, FLAGS))`; block barriers become the
//! runtime's when some kernel of the file is checked. A kernel that records nothing keeps its
//! body as written (`plan::decide_checked`).
//!
//! The prelude is `GMRACE_MODE_*`, `GMRACE_GRANULE`, `GMRACE_WARP_TABLE_GLOBAL`, the front end's
//! `-D` macros, gmrace's stand-in prelude unless nvcc or NVRTC compiles the file,
//! `#include "gmrace_runtime.cuh"` and, when some kernel is checked, `#define __syncthreads
//! __gmrace_syncthreads` and its variants. It goes after the file's leading `//` comment lines,
//! so a GPUVerify header stays on line 1. Then comes the original text, with each checked
//! kernel split and recorded accesses wrapped. This module turns a checked kernel's own
//! `return;` into `return __gmrace_exit();` (a `return` inside a macro cannot be, and the plan
//! notes it).
//!
//! Invariants: the rewrite never changes what a kernel computes (the only evaluated copy of a
//! wrapped expression is `&(E)`; `decltype`/`sizeof` do not evaluate), which the tests check by
//! running the device corpus instrumented and not; every kernel of an instrumented file gets the
//! runtime parameter, recorded or not; every output compiles with DESIGN.md's clang command and
//! lowers in gmrace's front end with no opaque node.
//!
//! Change to the contract: the body is not moved into a `__gmrace_body_<k>` function. A thread
//! that returns early from such a function stays alive (it goes on to `__gmrace_exit`) instead
//! of exiting, so a barrier the other threads then reach is, by DESIGN.md's definition,
//! divergent, and the CPU device reports it (`early_exit_before_barrier.cu`, found by the
//! behaviour test). The kernel keeps its body and every `return;` becomes
//! `return __gmrace_exit();`, which runs the exit and ends the thread where the original did.
//!
//! Decisions where the contract is silent: `ID` is a *site id* (a number per rewritten
//! expression, unique in the file, in source order), not the analyzer's access id, because one
//! site can stand for several accesses (the read and write of `+=`, struct fields, every inlined
//! copy and every kernel calling a device function) and access ids are per kernel; the plan maps
//! each site id to the analyzer's ids of each kernel. A reference-returning call (`at(i) = v`)
//! is recorded at the call. Block syncs written with cooperative groups (`block.sync()`) are
//! replaced in the text. A kernel whose head is not plain text (defined by a macro, in an
//! included file) is an error.

mod kernels;
mod output;
pub mod plan;
mod rewrite;
mod shared;
mod source;
mod source_map;

pub use kernels::RT_PARAM;
pub use output::{plan_path, write_output, Origin, OutputError, OutputFiles, GENERATED};
pub use plan::{KernelPlan, Plan, PlannedSite, SharedDecl, SiteKind, Unchecked};

use gmrace_analyzer::analysis::KernelReport;
use gmrace_analyzer::ir::{self, Module, Site, Span, StmtKind};
pub use gmrace_ir::source_map::SourceMap;
use rewrite::{Edit, EditKind};
use source::Source;
use source_map::Mapped;

/// The device runtime, written next to every instrumented file.
pub const RUNTIME_HEADER: &str = include_str!("../runtime/gmrace_runtime.cuh");
pub use gmrace_ir::plan::RUNTIME_HEADER_NAME;

pub use gmrace_ir::plan::{Mode, WarpTable};

#[derive(Clone, Debug)]
pub struct Options {
    pub mode: Mode,
    /// Record every shared access, whatever its verdict.
    pub all: bool,
    /// `None`: shared memory unless a kernel's static shared memory plus the warpTable exceeds
    /// the 48 KiB a block has.
    pub warp_table: Option<WarpTable>,
    /// Macros the front end was given (`-D`, and the GPUVerify header's): repeated as
    /// `#define`s so the instrumented file compiles the same without them.
    pub defines: Vec<(String, Option<String>)>,
}

pub struct Instrumented {
    pub source: String,
    pub plan: Plan,
    /// From positions of `source` to the original file's.
    pub map: SourceMap,
}

/// The file cannot be rewritten (a kernel whose definition is not plain text, ...).
#[derive(Clone, Debug)]
pub struct InstrumentError {
    pub message: String,
    pub span: Option<Span>,
}

impl std::fmt::Display for InstrumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Rewrites `text`, the main file of `module`, for the runtime. `reports` are the analyses of
/// the kernels to check (matched by name; kernels without one record nothing and only get the
/// runtime parameter).
pub fn instrument(
    file: &str,
    text: &str,
    module: &Module,
    reports: &[KernelReport],
    opts: &Options,
) -> Result<Instrumented, InstrumentError> {
    let src = Source::new(text);
    let mut kernels = kernels::locate(&src, module)?;
    let sites = writable_sites(&src, module, &kernels);
    let unwritable =
        |s: Span| (!sites.contains(&s)).then_some("its source text cannot be rewritten in place");
    let mut decisions = plan::plan(file, module, reports, opts, &unwritable);
    let definitions: Vec<Vec<usize>> = kernels.iter().map(|k| k.instances.clone()).collect();
    let checked = plan::decide_checked(&mut decisions.plan, module, &definitions);
    for (k, c) in kernels.iter_mut().zip(checked) {
        k.checked = c;
    }
    let any_checked = kernels.iter().any(|k| k.checked);
    let records = shared::records(&src, module, &kernels, &decisions.plan.kernels);
    for k in &mut kernels {
        k.entry = records
            .entry
            .iter()
            .filter(|(at, _)| *at == k.body_lo)
            .map(|(_, call)| call.clone())
            .collect();
    }

    let mut edits: Vec<Edit> = Vec::new();
    for w in &decisions.wraps {
        if let Some((lo, hi)) = src.range(w.span) {
            edits.push(Edit {
                lo,
                hi,
                kind: EditKind::Wrap(w),
            });
        }
    }
    // With no kernel checked the file's barriers stay as written (no barrier macro either).
    let syncs = if any_checked {
        block_sync_calls(&src, module)
    } else {
        Vec::new()
    };
    for (lo, hi) in syncs {
        edits.push(Edit {
            lo,
            hi,
            kind: EditKind::Replace("__gmrace_syncthreads()".into()),
        });
    }
    let declared = kernels::declarations(&src, &mut kernels);
    for (lo, hi, text) in declared
        .into_iter()
        .chain(kernels::instantiations(&src, &kernels))
    {
        edits.push(Edit {
            lo,
            hi,
            kind: EditKind::Replace(text),
        });
    }
    // Two declarators of one declaration share its `;`: one edit reports both.
    let mut semis: Vec<usize> = records.after.iter().map(|(at, _)| *at).collect();
    semis.sort();
    semis.dedup();
    for at in semis {
        let calls: Vec<&str> = records
            .after
            .iter()
            .filter(|(a, _)| *a == at)
            .map(|(_, c)| c.as_str())
            .collect();
        edits.push(Edit {
            lo: at,
            hi: at + 1,
            kind: EditKind::Replace(format!("; {}", calls.join(" "))),
        });
    }
    for k in &kernels {
        edits.push(Edit {
            lo: k.open_paren,
            hi: k.body_hi,
            kind: EditKind::Kernel(k),
        });
    }
    let checked_kernel = |ki: usize| decisions.plan.kernels.get(ki).is_some_and(|k| k.checked);
    let (returns, unrewritten) = kernel_returns(&src, module, &checked_kernel);
    for lo in returns {
        edits.push(Edit {
            lo,
            hi: lo + "return".len(),
            kind: EditKind::Replace("return __gmrace_exit()".into()),
        });
    }
    let mut plan = decisions.plan;
    plan.shared = records.decls;
    for (ki, note) in records.notes {
        plan.kernels[ki].notes.push(note);
    }
    for (ki, line) in unrewritten {
        plan.kernels[ki].notes.push(format!(
            "line {line}: a `return` written inside a macro expansion does not call __gmrace_exit"
        ));
    }
    // The prelude goes after the leading comment, which holds no code and so no edit.
    let top = leading_comment_end(text);
    let mut mapped = Mapped::default();
    mapped.copy(&src, 0, top);
    mapped.generated(
        &prelude(&plan, opts, &module.header.defines, any_checked),
        top,
    );
    mapped.append(rewrite::render(&src, top, edits));
    let source = mapped.text.clone();
    Ok(Instrumented {
        source,
        plan,
        map: mapped.into_map(text),
    })
}

/// Site spans the rewrite can wrap: inside the text, nested properly with every other site,
/// and, when in a kernel, inside its body (never its parameter list).
fn writable_sites(src: &Source, module: &Module, kernels: &[kernels::KernelText]) -> Vec<Span> {
    let mut spans: Vec<(Span, (usize, usize))> = module
        .kernels
        .iter()
        .flat_map(|k| &k.accesses)
        .filter_map(|a| match a.site {
            Site::Expr(s) if s.file == 0 => src.range(s).map(|r| (s, r)),
            _ => None,
        })
        .collect();
    spans.sort_by_key(|(_, r)| *r);
    spans.dedup();
    let crosses = |(a, b): (usize, usize), (c, d): (usize, usize)| a < c && c < b && b < d;
    spans
        .iter()
        .filter(|(_, r)| {
            !spans
                .iter()
                .any(|(_, o)| crosses(*r, *o) || crosses(*o, *r))
                && !kernels.iter().any(|k| {
                    crosses(*r, (k.body_lo, k.body_hi)) || (r.0 >= k.open_paren && r.1 <= k.body_lo)
                })
        })
        .map(|(s, _)| *s)
        .collect()
}

/// The checked kernels' own `return`s (offsets of the keyword): a returning thread must call
/// `__gmrace_exit` first, as `return __gmrace_exit();`. With the kernel's line of each one
/// that is not written as `return;` in the file (a macro).
fn kernel_returns(
    src: &Source,
    module: &Module,
    checked: &dyn Fn(usize) -> bool,
) -> (Vec<usize>, Vec<(usize, u32)>) {
    let mut found = Vec::new();
    let mut unrewritten = Vec::new();
    for (ki, k) in module.kernels.iter().enumerate() {
        if !checked(ki) {
            continue;
        }
        ir::walk_stmts(&k.body, &mut |s| {
            if !matches!(s.kind, StmtKind::Return) {
                return;
            }
            let keyword = src
                .range(s.span)
                .map(|(lo, hi)| (lo, src.text[lo..hi].trim_end()))
                .filter(|(lo, text)| {
                    *text == "return"
                        && src
                            .next_code(lo + text.len(), src.text.len())
                            .is_some_and(|i| src.text.as_bytes()[i] == b';')
                });
            match keyword {
                Some((lo, _)) if s.span.file == 0 => {
                    if !found.contains(&lo) {
                        found.push(lo);
                    }
                }
                _ => unrewritten.push((ki, s.span.line)),
            }
        });
    }
    (found, unrewritten)
}

/// Cooperative-groups block syncs written in the file (`block.sync()`,
/// `cg::this_thread_block().sync()`): `__syncthreads` and its variants are renamed by the
/// prelude's macros, but these are calls the front end models as barriers by their method.
fn block_sync_calls(src: &Source, module: &Module) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in &module.kernels {
        ir::walk_stmts(&k.body, &mut |s| {
            if !matches!(s.kind, StmtKind::Barrier { .. }) || s.span.file != 0 {
                return;
            }
            let Some((lo, hi)) = src.range(s.span) else {
                return;
            };
            let call: String = src.text[lo..hi].split_whitespace().collect();
            let method = call.ends_with(".sync()") || call.ends_with("->sync()");
            // A macro use is never replaced: it may hold more than the barrier.
            if method && !call.contains(';') && !out.contains(&(lo, hi)) {
                out.push((lo, hi));
            }
        });
    }
    out
}

/// Where the prelude goes: after the leading `//` comment lines (a GPUVerify header such as
/// `//pass` / `//--blockDim=...` must stay on the first lines).
fn leading_comment_end(text: &str) -> usize {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if !line.starts_with("//") {
            break;
        }
        end += line.len();
    }
    end
}

fn prelude(
    plan: &Plan,
    opts: &Options,
    module_defines: &[(String, Option<String>)],
    any_checked: bool,
) -> String {
    let mode = match plan.mode {
        Mode::Flag => "GMRACE_MODE_FLAG",
        Mode::Stmt => "GMRACE_MODE_STMT",
    };
    let mut p = format!(
        "/* Instrumented by gmrace ({} mode{}); the plan maps access ids to lines. */\n\
         #define {mode} 1\n#define GMRACE_GRANULE {}\n",
        plan.mode.name(),
        if plan.all { ", --all" } else { "" },
        plan.granule
    );
    if plan.warp_table == WarpTable::Global {
        p.push_str("#define GMRACE_WARP_TABLE_GLOBAL 1\n");
    }
    for (name, value) in opts.defines.iter().chain(module_defines) {
        let value = value.as_deref().unwrap_or("1");
        p.push_str(&format!("#ifndef {name}\n#define {name} {value}\n#endif\n"));
    }
    p.push_str(&format!(
        "#if !defined(__NVCC__) && !defined(__CUDACC_RTC__)\n\
         #include \"{}\" /* gmrace's stand-in CUDA headers; toolkits bring theirs */\n\
         #endif\n",
        output::PRELUDE_COPY
    ));
    p.push_str(&format!("#include \"{RUNTIME_HEADER_NAME}\"\n"));
    // Every block barrier of the file, wherever written (device functions and macros too),
    // becomes the runtime's: a barrier, the inter-warp check, a barrier. Unless no kernel is
    // checked: then no kernel calls `__gmrace_enter`, which the runtime's barrier needs.
    if !any_checked {
        return p;
    }
    for v in ["", "_count", "_and", "_or"] {
        p.push_str(&format!(
            "#define __syncthreads{v} __gmrace_syncthreads{v}\n"
        ));
    }
    p
}
