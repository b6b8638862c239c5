//! The launch assumptions of an analysis, strongest source first: the command line, a constant
//! launch `k<<<g, b>>>` in the file, the GPUVerify header comment. Without dimensions the block
//! is symbolic within CUDA's limits.

use super::report::Extents;
use super::{AnalysisOptions, Assumptions};
use crate::ir::{walk_stmts, ExprKind, Kernel, Module, Span, Special, Ty};
use std::collections::BTreeMap;

/// An invalid launch configuration or parameter, reported before anything is analysed.
#[derive(Clone, Debug)]
pub struct LaunchError {
    pub message: String,
    /// Where the configuration came from, when it is in the file.
    pub span: Option<Span>,
}

pub const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
pub const MAX_THREADS_PER_BLOCK: u64 = 1024;
pub const MAX_GRID: [u32; 3] = [i32::MAX as u32, 65535, 65535];

pub fn resolve(m: &Module, k: &Kernel, opts: &AnalysisOptions) -> Result<Assumptions, LaunchError> {
    let mut sources = BTreeMap::new();
    let launch = agreed_launch(m, k);
    let launch = launch.as_ref();
    let header_src = |h: Option<u32>| format!("header comment, line {}", h.unwrap_or(1));

    let mut span = None;
    let block = if let Some(b) = opts.block {
        sources.insert("block".into(), "command line".into());
        Some(b)
    } else if let Some(b) = launch.and_then(|l| l.block) {
        sources.insert(
            "block".into(),
            launch.map_or_else(String::new, |l| l.source.clone()),
        );
        span = launch.map(|l| l.span);
        Some(b)
    } else if let Some(b) = m.header.block {
        sources.insert("block".into(), header_src(m.header.line));
        Some(b)
    } else {
        None
    };
    let grid = if let Some(g) = opts.grid {
        sources.insert("grid".into(), "command line".into());
        Some(g)
    } else if let Some(g) = launch.and_then(|l| l.grid) {
        sources.insert(
            "grid".into(),
            launch.map_or_else(String::new, |l| l.source.clone()),
        );
        span = span.or(launch.map(|l| l.span));
        Some(g)
    } else if let Some(g) = m.header.grid {
        sources.insert("grid".into(), header_src(m.header.line));
        Some(g)
    } else {
        None
    };
    if let Some(b) = block {
        check_block(b).map_err(|message| LaunchError { message, span })?;
    }
    if let Some(g) = grid {
        check_grid(g).map_err(|message| LaunchError { message, span })?;
    }
    let read = dimensions_read(k);
    let block = block.map_or_else(
        || {
            let (e, source) = unread_are_one(read.block, "symbolic within CUDA's limits");
            sources.insert("block".into(), source);
            e
        },
        Extents::fixed,
    );
    let grid = grid.map_or_else(
        || {
            let (e, source) = unread_are_one(
                read.grid,
                "symbolic: every global thread index fits in a signed 32-bit int",
            );
            sources.insert("grid".into(), source);
            e
        },
        Extents::fixed,
    );

    let mut params = BTreeMap::new();
    for (name, value) in &opts.params {
        let Some(p) = k.params.iter().find(|p| &p.name == name) else {
            let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
            return Err(LaunchError {
                message: format!(
                    "kernel `{}` has no parameter `{name}` (its parameters: {})",
                    k.name,
                    names.join(", ")
                ),
                span: None,
            });
        };
        let Ty::Scalar(scalar) = p.ty else {
            return Err(LaunchError {
                message: format!(
                    "`--param {name}` names a pointer parameter; only scalars can be fixed"
                ),
                span: None,
            });
        };
        if let Some((lo, hi)) = scalar.int_range() {
            if !(lo..=hi).contains(&i128::from(*value)) {
                return Err(LaunchError {
                    message: format!(
                        "`--param {name}={value}` is out of range for {} ({lo} to {hi})",
                        scalar.name()
                    ),
                    span: Some(p.span),
                });
            }
        }
        params.insert(name.clone(), *value);
        sources.insert(format!("param {name}"), "command line".into());
    }
    for (p, value) in k.params.iter().zip(launch.map_or(&[][..], |l| &l.args[..])) {
        let (Some(v), Ty::Scalar(scalar)) = (value, p.ty) else {
            continue;
        };
        let fits = scalar
            .int_range()
            .is_some_and(|(lo, hi)| (lo..=hi).contains(&i128::from(*v)));
        if fits && !params.contains_key(&p.name) {
            params.insert(p.name.clone(), *v);
            let source = launch.map_or_else(String::new, |l| l.source.clone());
            sources.insert(format!("param {}", p.name), source);
        }
    }
    if k.body
        .iter()
        .any(|s| matches!(s.kind, crate::ir::StmtKind::Assume { .. }))
    {
        sources.insert(
            "requires".into(),
            "__requires/__assume in the kernel".into(),
        );
    }
    if let (true, Some(line)) = (opts.header_warp_model, m.header.warp_sync) {
        sources.insert(
            "warp_model".into(),
            format!("header comment, line {line} (--warp-sync)"),
        );
    }
    let mut notes: Vec<String> = vec![
        "distinct pointer parameters point to distinct buffers".into(),
        "integer arithmetic wraps as on the GPU, but signed arithmetic does not overflow (undefined behaviour in CUDA C++): no witness relies on it, and signed loop counters are assumed not to".into(),
        "data read from memory may hold any value".into(),
    ];
    if opts.solver == super::Engine::Ilp {
        notes.push(
            "solver: good_lp (microlp) for the purely affine queries, z3 for the others".into(),
        );
    }
    Ok(Assumptions {
        block,
        grid,
        warp_model: opts.warp_model,
        params,
        sources,
        notes,
    })
}

/// What every launch of a kernel in the file agrees on: an extent or an argument that two
/// launches give different values, or that one of them does not fold to, stays open.
struct AgreedLaunch {
    block: Option<[u32; 3]>,
    grid: Option<[u32; 3]>,
    args: Vec<Option<i64>>,
    /// `launch at line 12`, `launches at lines 12, 30`.
    source: String,
    span: Span,
}

fn agreed_launch(m: &Module, k: &Kernel) -> Option<AgreedLaunch> {
    let sites: Vec<&crate::ir::LaunchSite> =
        m.launches.iter().filter(|l| l.kernel == k.name).collect();
    let first = sites.first()?;
    fn agree<T: PartialEq + Copy>(values: impl Iterator<Item = Option<T>>) -> Option<T> {
        let mut out: Option<Option<T>> = None;
        for v in values {
            match out {
                None => out = Some(v),
                Some(prev) if prev == v => {}
                Some(_) => return None,
            }
        }
        out.flatten()
    }
    let lines: Vec<String> = sites.iter().map(|l| l.span.line.to_string()).collect();
    Some(AgreedLaunch {
        block: agree(sites.iter().map(|l| l.block)),
        grid: agree(sites.iter().map(|l| l.grid)),
        args: (0..first.args.len())
            .map(|i| agree(sites.iter().map(|l| l.args.get(i).copied().flatten())))
            .collect(),
        source: match lines.as_slice() {
            [one] => format!("launch at line {one}"),
            many => format!("launches at lines {}", many.join(", ")),
        },
        span: first.span,
    })
}

/// Which of `x, y, z` a kernel reads, of its block (`threadIdx`, `blockDim`) and of its grid
/// (`blockIdx`, `gridDim`), itself or through what it inlines (cooperative groups' ranks read
/// all three).
struct DimensionsRead {
    block: [bool; 3],
    grid: [bool; 3],
}

fn dimensions_read(k: &Kernel) -> DimensionsRead {
    let mut read = DimensionsRead {
        block: [false; 3],
        grid: [false; 3],
    };
    walk_stmts(&k.body, &mut |s| {
        for e in s.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Special(sp) = &x.kind {
                    match sp {
                        Special::ThreadIdx(d) | Special::BlockDim(d) => {
                            read.block[*d as usize] = true
                        }
                        Special::BlockIdx(d) | Special::GridDim(d) => read.grid[*d as usize] = true,
                        Special::WarpSize => {}
                    }
                }
            });
        }
    });
    read
}

/// A symbolic extent whose dimensions the kernel never reads are 1: a kernel that reads only
/// `threadIdx.x` is launched 1-D, or its threads that differ only in `y` would do the same
/// work and race with each other in every witness.
fn unread_are_one(read: [bool; 3], symbolic: &str) -> (Extents, String) {
    let e = Extents(std::array::from_fn(|i| (!read[i]).then_some(1)));
    let names = |want: bool| -> Vec<&str> {
        (0..3)
            .filter(|&i| read[i] == want)
            .map(|i| ["x", "y", "z"][i])
            .collect()
    };
    let source = match (names(true), names(false)) {
        (_, unread) if unread.is_empty() => symbolic.to_string(),
        (read, unread) if read.is_empty() => {
            format!("{}: 1, the kernel never reads them", unread.join(", "))
        }
        (read, unread) => format!(
            "{} {symbolic}; {}: 1, the kernel never reads {}",
            read.join(", "),
            unread.join(", "),
            if unread.len() == 1 { "it" } else { "them" }
        ),
    };
    (e, source)
}

pub fn check_block(b: [u32; 3]) -> Result<(), String> {
    for (i, (v, max)) in b.iter().zip(MAX_BLOCK).enumerate() {
        if *v == 0 || *v > max {
            return Err(format!(
                "invalid launch configuration: block dimension {} is {v}; CUDA allows 1 to {max}",
                ["x", "y", "z"][i]
            ));
        }
    }
    let total = b.iter().map(|v| *v as u64).product::<u64>();
    if total > MAX_THREADS_PER_BLOCK {
        return Err(format!(
            "invalid launch configuration: {total} threads per block; CUDA allows at most {MAX_THREADS_PER_BLOCK}"
        ));
    }
    Ok(())
}

pub fn check_grid(g: [u32; 3]) -> Result<(), String> {
    for (i, (v, max)) in g.iter().zip(MAX_GRID).enumerate() {
        if *v == 0 || *v > max {
            return Err(format!(
                "invalid launch configuration: grid dimension {} is {v}; CUDA allows 1 to {max}",
                ["x", "y", "z"][i]
            ));
        }
    }
    Ok(())
}
