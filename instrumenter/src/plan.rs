//! The plan: which source expressions record their accesses, with which id, kind and
//! reductions, and which accesses stay unchecked and why. The host reads it back (JSON) to map
//! the ids of the race log to source lines.
//!
//! Accesses are grouped by *site* (`ir::Site::Expr`): one occurrence of an lvalue in the text.
//! Several analyzer accesses can share a site: the read and the write of `s[i] += x`, the
//! fields of a struct copy, every inlined copy of a device function, and every kernel (or
//! template instantiation) that calls it. A site is rewritten once, so its decision is a union:
//! it is recorded when any of its accesses needs it (recording more than needed only costs
//! time: every race the runtime reports is a real race of the run), and a reduction applies
//! only when every access that needed the site has it proved. An access needs recording when it
//! is in an `unknown` pair, or is shared under `--all`. So a device function shared by kernels
//! (or inlined twice) is wrapped once for all.
//!
//! Sites that are not all shared, written in a macro, implicit, in another file or not
//! rewritable in place are `unchecked`, with the reason. The granule is the smallest recorded
//! access size, file-wide (one `#define`). The warpTable goes to global memory (`auto`) when a
//! kernel's static shared memory plus what the runtime takes there (`WARP_TABLE_SHARED_BYTES`: a
//! word per thread of a 1024-thread block and two pointers, 4112 bytes, held equal to the
//! header's declarations by a test) exceeds 48 KiB.
//!
//! `decide_checked`: a kernel definition is *checked* (runs under the runtime) when one of its
//! kernels records a site; one that records nothing keeps its body as written — static pruning
//! done fully, so a kernel the analysis decides entirely runs at the speed of the original. The
//! barrier macros rename every barrier of the file (in device functions and macros too), and the
//! runtime's barrier needs `__gmrace_enter`, so when some kernel is checked, a kernel that
//! records nothing but reaches a barrier stays checked (with nothing recorded). The plan gives
//! `checked` and `checked_because` per kernel.

use crate::Options;
use gmrace_analyzer::analysis::KernelReport;
use gmrace_analyzer::ir::{AccessKind, FileId, Kernel, Module, Site, Space, Span, StmtKind};
pub use gmrace_ir::plan::*;
use std::collections::BTreeMap;

/// A site chosen for rewriting, with what the rewrite needs.
#[derive(Clone, Debug)]
pub struct Wrap {
    pub id: u32,
    pub span: Span,
    pub kind: SiteKind,
    pub thread_invariant: bool,
    pub loop_invariant: bool,
}

/// What `plan` decides: the wraps for the rewrite and the plan for the host.
pub struct Decisions {
    pub wraps: Vec<Wrap>,
    pub plan: Plan,
}

/// One access of one kernel with its report entry, if the kernel was analysed.
struct Use<'a> {
    kernel: usize,
    access: &'a gmrace_analyzer::ir::Access,
    selected: bool,
    thread_invariant: bool,
    loop_invariant: bool,
}

/// Sites the rewrite cannot touch, with the reason; checked by `rewrite` too (overlaps).
pub fn site_problem(site: Site, main: FileId) -> Option<&'static str> {
    match site {
        Site::Expr(s) if s.file == main => None,
        Site::Expr(_) => Some("in an included file: only the main file is rewritten"),
        Site::Macro => Some("written inside a macro expansion, which cannot be rewritten in place"),
        Site::Implicit => Some(
            "no source expression of its own (an initialiser, a temporary or a builtin's memory)",
        ),
    }
}

fn space_problem(space: Space) -> &'static str {
    match space {
        Space::Global => "global memory: dynamic checking covers shared memory only",
        Space::Generic => "memory space not known statically (a generic pointer)",
        _ => "not shared memory: dynamic checking covers shared memory only",
    }
}

pub fn plan(
    file: &str,
    module: &Module,
    reports: &[KernelReport],
    opts: &Options,
    unwritable: &dyn Fn(Span) -> Option<&'static str>,
) -> Decisions {
    let report_of = |k: &Kernel| reports.iter().find(|r| r.name == k.name);
    // Every access of every kernel, grouped by site.
    let mut by_site: BTreeMap<(u32, u32, u32, u32), Vec<Use>> = BTreeMap::new();
    let mut elsewhere: Vec<(Use, &'static str)> = Vec::new();
    for (ki, k) in module.kernels.iter().enumerate() {
        let report = report_of(k);
        for a in &k.accesses {
            let r = report.and_then(|r| r.accesses.get(a.id.index()));
            // Kernels left out of the analysis (`--kernel`) record nothing.
            let selected = report.is_some()
                && (r.is_some_and(|r| r.instrumented) || opts.all && a.space == Space::Shared);
            let u = Use {
                kernel: ki,
                access: a,
                selected,
                thread_invariant: r.is_some_and(|r| r.thread_invariant),
                loop_invariant: r.is_some_and(|r| r.loop_invariant),
            };
            match site_problem(a.site, 0).or_else(|| match a.site {
                Site::Expr(s) => unwritable(s),
                _ => None,
            }) {
                None => {
                    let Site::Expr(s) = a.site else { continue };
                    by_site
                        .entry((s.line, s.column, s.end_line, s.end_column))
                        .or_default()
                        .push(u);
                }
                Some(why) => elsewhere.push((u, why)),
            }
        }
    }

    let mut kernels: Vec<KernelPlan> = module
        .kernels
        .iter()
        .map(|k| KernelPlan {
            name: k.name.clone(),
            mode: opts.mode,
            warp_table: WarpTable::Shared,
            granule: 0,
            static_shared_bytes: k.shared.iter().filter_map(|s| s.size_bytes).sum(),
            analyzed: report_of(k).is_some(),
            // Decided by `decide_checked` once the sites are known.
            checked: true,
            checked_because: String::new(),
            instrumented: Vec::new(),
            unchecked: Vec::new(),
            notes: Vec::new(),
        })
        .collect();
    let mut wraps = Vec::new();
    for (key, uses) in &by_site {
        if !uses.iter().any(|u| u.selected) {
            continue;
        }
        if let Some(other) = uses.iter().find(|u| u.access.space != Space::Shared) {
            let why = if uses.iter().all(|u| u.access.space == other.access.space) {
                space_problem(other.access.space)
            } else {
                "the same expression also accesses memory that is not shared (another call)"
            };
            for u in uses.iter().filter(|u| u.selected) {
                kernels[u.kernel].unchecked.push(unchecked(u, why));
            }
            continue;
        }
        let id = wraps.len() as u32;
        let needed = uses.iter().filter(|u| u.selected);
        let wrap = Wrap {
            id,
            span: Span {
                file: 0,
                line: key.0,
                column: key.1,
                end_line: key.2,
                end_column: key.3,
            },
            kind: site_kind(uses),
            thread_invariant: needed.clone().all(|u| u.thread_invariant),
            loop_invariant: needed.clone().all(|u| u.loop_invariant),
        };
        for (ki, kplan) in kernels.iter_mut().enumerate() {
            let mine: Vec<&Use> = uses.iter().filter(|u| u.kernel == ki).collect();
            let Some(first) = mine.first() else { continue };
            kplan.instrumented.push(PlannedSite {
                id,
                accesses: mine.iter().map(|u| u.access.id.0).collect(),
                line: wrap.span.line,
                column: wrap.span.column,
                end_line: wrap.span.end_line,
                end_column: wrap.span.end_column,
                kind: wrap.kind,
                array: first.access.array.clone(),
                space: Space::Shared.name().to_string(),
                size: mine.iter().map(|u| u.access.ty.size()).min().unwrap_or(4),
                thread_invariant: wrap.thread_invariant,
                loop_invariant: wrap.loop_invariant,
            });
        }
        wraps.push(wrap);
    }
    for (u, why) in elsewhere.iter().filter(|(u, _)| u.selected) {
        kernels[u.kernel].unchecked.push(unchecked(u, why));
    }

    let granule = kernels
        .iter()
        .flat_map(|k| k.instrumented.iter().map(|s| s.size))
        .min()
        .unwrap_or(4);
    let warp_table = match opts.warp_table {
        Some(w) => w,
        None if kernels.iter().any(|k| {
            k.static_shared_bytes + WARP_TABLE_SHARED_BYTES
                > gmrace_analyzer::ir::limits::MAX_STATIC_SHARED_BYTES
        }) =>
        {
            WarpTable::Global
        }
        None => WarpTable::Shared,
    };
    for k in &mut kernels {
        k.granule = granule;
        k.warp_table = warp_table;
        k.unchecked.sort_by_key(|u| u.access);
    }
    Decisions {
        wraps,
        plan: Plan {
            file: file.to_string(),
            mode: opts.mode,
            warp_table,
            granule,
            all: opts.all,
            kernels,
            shared: Vec::new(),
        },
    }
}

/// Decides which kernels run under the runtime, per definition in the text (`definitions`:
/// the kernels each one defines, several for a template, whose instantiations share one body),
/// and returns that choice per definition. A definition is checked when one of its kernels
/// records a site. The barrier macros of the prelude rename every block barrier of the file,
/// device functions and macros included, and the runtime's barrier needs `__gmrace_enter`:
/// so when some kernel of the file is checked, a kernel that records nothing but reaches a
/// barrier stays under the runtime (it checks nothing there, at the runtime's cost).
pub fn decide_checked(plan: &mut Plan, module: &Module, definitions: &[Vec<usize>]) -> Vec<bool> {
    let records: Vec<bool> = definitions
        .iter()
        .map(|def| {
            def.iter().any(|&k| {
                plan.kernels
                    .get(k)
                    .is_some_and(|p| !p.instrumented.is_empty())
            })
        })
        .collect();
    let any_checked = records.contains(&true);
    let mut out = Vec::with_capacity(definitions.len());
    for (def, records) in definitions.iter().zip(records) {
        let (checked, because) = if records {
            (true, None)
        } else if any_checked && def.iter().any(|&k| reaches_barrier(&module.kernels[k])) {
            (
                true,
                Some(
                    "it records nothing, but it reaches a block barrier, and the barriers of \
                     this file are the runtime's (another kernel is checked)"
                        .to_string(),
                ),
            )
        } else {
            (false, None)
        };
        for &k in def {
            let Some(kp) = plan.kernels.get_mut(k) else {
                continue;
            };
            kp.checked = checked;
            kp.checked_because = because.clone().unwrap_or_else(|| why(kp, plan.all));
        }
        out.push(checked);
    }
    out
}

fn reaches_barrier(k: &Kernel) -> bool {
    let mut found = false;
    gmrace_analyzer::ir::walk_stmts(&k.body, &mut |s| {
        found |= matches!(s.kind, StmtKind::Barrier { .. });
    });
    found
}

/// `checked_because` of a kernel that is checked for its own sites, or not at all.
fn why(k: &KernelPlan, all: bool) -> String {
    match k.instrumented.len() {
        1 => "it records 1 site".to_string(),
        n if n > 1 => format!("it records {n} sites"),
        _ if !k.analyzed => {
            "nothing to record: the kernel was not analysed (another was selected)".to_string()
        }
        _ if !k.unchecked.is_empty() => "nothing to record: the accesses that need checking \
             cannot be checked at run time (see `unchecked`)"
            .to_string(),
        _ if all => "nothing to record: the kernel makes no shared access".to_string(),
        _ => "nothing to record: the analysis decided every pair of accesses".to_string(),
    }
}

fn site_kind(uses: &[Use]) -> SiteKind {
    let has = |k: AccessKind| uses.iter().any(|u| u.access.kind == k);
    if uses.iter().any(|u| u.access.kind.is_atomic()) {
        SiteKind::Atomic
    } else if has(AccessKind::Read) && has(AccessKind::Write) {
        SiteKind::Update
    } else if has(AccessKind::Write) {
        SiteKind::Write
    } else {
        SiteKind::Read
    }
}

fn unchecked(u: &Use, why: &str) -> Unchecked {
    let kind = u.access.kind.name();
    Unchecked {
        access: u.access.id.0,
        line: u.access.span.line,
        column: u.access.span.column,
        kind: kind.to_string(),
        array: u.access.array.clone(),
        space: u.access.space.name().to_string(),
        reason: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::WARP_TABLE_SHARED_BYTES;

    /// What the runtime header declares `__shared__` (the table, when not in device memory).
    fn header_shared_bytes() -> u64 {
        crate::RUNTIME_HEADER
            .lines()
            .map(str::trim)
            .filter_map(|l| l.strip_prefix("__shared__ unsigned int "))
            .map(|decl| match decl.split_once('[') {
                Some((_, n)) => 4 * n.trim_end_matches("];").parse::<u64>().unwrap_or(0),
                None if decl.starts_with('*') => 8,
                None => 4,
            })
            .sum()
    }

    #[test]
    fn the_reserved_shared_bytes_are_what_the_runtime_declares() {
        assert_eq!(header_shared_bytes(), WARP_TABLE_SHARED_BYTES);
    }
}
