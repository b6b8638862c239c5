//! The launch assumptions of an analysis and where each came from, strongest source first: the
//! command line, what every launch `k<<<g, b>>>` of the kernel in the file agrees on (extents and
//! scalar arguments; or one site's, `resolve_at`, when `sites.rs` analyses each), the GPUVerify
//! header comment. Without dimensions the block is symbolic
//! within CUDA's limits, and the dimensions a kernel never reads are 1. `Extents` holds each
//! dimension fixed or open. An invalid launch is a `LaunchError` and is never analysed.

use super::report::Extents;
use super::{AnalysisOptions, Assumptions};
use crate::ir::{
    print_expr, walk_stmts, AssumeKind, BinOp, Dim, Expr, ExprKind, Intrinsic, Kernel, LaunchSite,
    Module, Scalar, Span, Special, Stmt, StmtKind, Ty,
};
use std::collections::BTreeMap;

/// An invalid launch configuration or parameter, reported before anything is analysed.
#[derive(Clone, Debug)]
pub struct LaunchError {
    pub message: String,
    /// Where the configuration came from, when it is in the file.
    pub span: Option<Span>,
}

pub use crate::ir::limits::{MAX_BLOCK, MAX_GRID, MAX_THREADS_PER_BLOCK};

pub fn resolve(m: &Module, k: &Kernel, opts: &AnalysisOptions) -> Result<Assumptions, LaunchError> {
    resolve_at(m, k, opts, None)
}

/// `resolve` with the kernel's launch sites, or only `m.launches[site]`.
pub(crate) fn resolve_at(
    m: &Module,
    k: &Kernel,
    opts: &AnalysisOptions,
    site: Option<usize>,
) -> Result<Assumptions, LaunchError> {
    let mut sources = BTreeMap::new();
    let launch = agreed_launch(m, k, site);
    let launch = launch.as_ref();
    let header_src = |h: Option<u32>| format!("header comment, line {}", h.unwrap_or(1));

    let read = dimensions_read(k);
    let header = |e: Option<[u32; 3]>| e.map(|e| (e, header_src(m.header.line)));
    let block = Extent {
        what: "block",
        stated: opts.block,
        launch: launch.map(|l| (l.block, l.source.as_str())),
        header: header(m.header.block),
        read: read.block,
        symbolic: "symbolic within CUDA's limits",
    }
    .resolve(&mut sources);
    let grid = Extent {
        what: "grid",
        stated: opts.grid,
        launch: launch.map(|l| (l.grid, l.source.as_str())),
        header: header(m.header.grid),
        read: read.grid,
        symbolic: "symbolic: every global thread index fits in a signed 32-bit int",
    }
    .resolve(&mut sources);
    let span = launch.map(|l| l.span);
    check(block, MAX_BLOCK, "block")
        .and_then(|()| check(grid, MAX_GRID, "grid"))
        .map_err(|message| LaunchError { message, span })?;

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
    let mut facts = host_facts(k, launch, [block, grid], &params, &mut sources);
    facts.extend(thread_bound(k, block, &mut sources));
    let in_bounds = |s: &Stmt| {
        matches!(
            s.kind,
            StmtKind::Assume {
                kind: AssumeKind::InBounds,
                ..
            }
        )
    };
    if k.body
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Assume { .. }) && !in_bounds(s))
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
        "integer arithmetic wraps as on the GPU, but signed arithmetic does not overflow (undefined behaviour in CUDA C++): no witness relies on it, and signed loop counters and row-major subscripts (`y * w + x`) are assumed not to".into(),
        "data read from memory may hold any value".into(),
    ];
    let mut subscripts = false;
    walk_stmts(&k.body, &mut |s| subscripts |= in_bounds(s));
    if subscripts {
        notes.push(
            "array subscripts stay within their arrays (undefined behaviour in CUDA C++ otherwise): no witness relies on one that does not; the run checks memory".into(),
        );
    }
    let open = block.all().is_none() || grid.all().is_none();
    if open && (subscripts || has_plausibility_facts(k)) {
        notes.push(
            "under the extents left open, a race whose threads go on past an array, need `__mul24` to drop bits or an index computed from the block's position to wrap is left unknown (no program makes such a launch on purpose): the run decides".into(),
        );
    }
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
        facts,
        sources,
        notes,
    })
}

/// `blockDim.x * blockDim.y * blockDim.z <= N` for a kernel declared `__launch_bounds__(N)`
/// whose block is left open: a launch of more threads fails. Where the dimensions already
/// fixed exceed it, the analysis is of a launch that fails on a GPU: the sources say so, and
/// no fact is added (it would make every pair vacuously safe).
fn thread_bound(
    k: &Kernel,
    block: Extents,
    sources: &mut BTreeMap<String, String>,
) -> Option<Expr> {
    let bound = k.max_threads?;
    let fixed: u64 = block.0.iter().flatten().map(|&d| u64::from(d)).product();
    if fixed > u64::from(bound.threads) {
        sources.insert(
            "block threads".into(),
            format!(
                "{fixed}, over __launch_bounds__({}) (line {}): this launch fails on a GPU (too \
                 many resources requested); the CPU device runs it",
                bound.threads, bound.line
            ),
        );
        return None;
    }
    block.all().is_none().then_some(())?;
    let u32_ty = Ty::Scalar(Scalar::U32);
    let dim = |d| Expr::new(ExprKind::Special(Special::BlockDim(d)), u32_ty);
    let mul = |a, b| {
        Expr::new(
            ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)),
            u32_ty,
        )
    };
    let threads = mul(mul(dim(Dim::X), dim(Dim::Y)), dim(Dim::Z));
    let limit = Expr::int(i64::from(bound.threads), u32_ty);
    sources.insert(
        "block threads".into(),
        format!(
            "at most {} (__launch_bounds__, line {}: a larger launch fails)",
            bound.threads, bound.line
        ),
    );
    let fact = ExprKind::Binary(BinOp::Le, Box::new(threads), Box::new(limit));
    Some(Expr::new(fact, Ty::Scalar(Scalar::Bool)))
}

/// What the launches compute for the dimensions left open from the kernel's own arguments:
/// `gridDim.x == (n + 255) / 256` for `k<<<(n + 255) / 256, 256>>>(d, n)`, as the host's
/// arithmetic does it; and what the host checks of them before every launch (`!(n < 64)` for
/// `if (n < 64) return;`). None where a parameter it reads is fixed (by the command line, say):
/// the two could contradict each other, and a contradiction would make every pair vacuously
/// safe.
fn host_facts(
    k: &Kernel,
    launch: Option<&AgreedLaunch>,
    [block, grid]: [Extents; 2],
    params: &BTreeMap<String, i64>,
    sources: &mut BTreeMap<String, String>,
) -> Vec<Expr> {
    let Some(launch) = launch else {
        return Vec::new();
    };
    let fixed_param = |e: &Expr| {
        let mut fixed = false;
        e.walk(&mut |x| {
            if let ExprKind::Param(p) = x.kind {
                fixed |= k
                    .params
                    .get(p.index())
                    .is_none_or(|p| params.contains_key(&p.name));
            }
        });
        fixed
    };
    let mut facts = Vec::new();
    let extents = [
        (
            "block",
            block,
            &launch.block_exprs,
            Special::BlockDim as fn(Dim) -> Special,
        ),
        ("grid", grid, &launch.grid_exprs, Special::GridDim),
    ];
    for (what, extents, exprs, special) in extents {
        for (i, dim) in [Dim::X, Dim::Y, Dim::Z].into_iter().enumerate() {
            let Some(e) = exprs[i]
                .as_ref()
                .filter(|e| extents.0[i].is_none() && !fixed_param(e))
            else {
                continue;
            };
            let u32_ty = Ty::Scalar(Scalar::U32);
            let extent = Expr::new(ExprKind::Special(special(dim)), u32_ty);
            let fact = ExprKind::Binary(BinOp::Eq, Box::new(extent), Box::new(e.clone()));
            facts.push(Expr::new(fact, Ty::Scalar(Scalar::Bool)));
            let axis = ["x", "y", "z"][i];
            sources.insert(
                format!("{what}.{axis}"),
                format!("{} ({})", print_expr(k, e), launch.source),
            );
        }
    }
    for (guard, line) in launch.guards.iter().filter(|(g, _)| !fixed_param(g)) {
        facts.push(guard.clone());
        sources.insert(
            format!("host: {}", print_expr(k, guard)),
            format!("checked at line {line}, before the {}", launch.source),
        );
    }
    facts
}

/// What every launch of a kernel in the file agrees on: an extent or an argument that two
/// launches give different values, or that one of them does not fold to, stays open.
struct AgreedLaunch {
    block: [Option<u32>; 3],
    grid: [Option<u32>; 3],
    /// What the host computes for a dimension that does not fold (`LaunchSite::grid_exprs`),
    /// where every launch computes it alike.
    block_exprs: [Option<Expr>; 3],
    grid_exprs: [Option<Expr>; 3],
    /// What the host checks before every launch (`LaunchSite::guards`), with the first
    /// launch's line for each.
    guards: Vec<(Expr, u32)>,
    args: Vec<Option<i64>>,
    /// `launch at line 12`, `launches at lines 12, 30`.
    source: String,
    span: Span,
}

fn agreed_launch(m: &Module, k: &Kernel, only: Option<usize>) -> Option<AgreedLaunch> {
    let sites: Vec<&LaunchSite> = m
        .launches
        .iter()
        .enumerate()
        .filter(|(i, l)| l.kernel == k.name && only.is_none_or(|o| o == *i))
        .map(|(_, l)| l)
        .collect();
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
    // Expressions agree when they print alike (`Expr` holds floats, so has no `Eq`).
    let agree_expr = |exprs: Vec<&Option<Expr>>| -> Option<Expr> {
        let first = exprs.first().copied().cloned().flatten()?;
        let text = format!("{first:?}");
        exprs
            .iter()
            .all(|e| e.as_ref().is_some_and(|e| format!("{e:?}") == text))
            .then_some(first)
    };
    let here = sites.iter().all(|l| l.span.file == 0);
    let mut places: Vec<String> = sites
        .iter()
        .map(|l| match here {
            true => l.span.line.to_string(),
            false => site_place(m, l),
        })
        .collect();
    // One launch made once per call of its function.
    places.dedup();
    Some(AgreedLaunch {
        block: std::array::from_fn(|i| agree(sites.iter().map(|l| l.block[i]))),
        grid: std::array::from_fn(|i| agree(sites.iter().map(|l| l.grid[i]))),
        block_exprs: std::array::from_fn(|i| {
            agree_expr(sites.iter().map(|l| &l.block_exprs[i]).collect())
        }),
        grid_exprs: std::array::from_fn(|i| {
            agree_expr(sites.iter().map(|l| &l.grid_exprs[i]).collect())
        }),
        guards: first
            .guards
            .iter()
            .filter(|(g, _)| {
                let text = format!("{g:?}");
                sites
                    .iter()
                    .all(|l| l.guards.iter().any(|(h, _)| format!("{h:?}") == text))
            })
            .cloned()
            .collect(),
        args: (0..first.args.len())
            .map(|i| agree(sites.iter().map(|l| l.args.get(i).copied().flatten())))
            .collect(),
        source: match (places.as_slice(), here) {
            ([one], true) => format!("launch at line {one}"),
            (many, true) => format!("launches at lines {}", many.join(", ")),
            ([one], false) => format!("launch at {one}"),
            (many, false) => format!("launches at {}", many.join(", ")),
        } + match sites.iter().all(|l| l.ruled_out) {
            true => ", in a branch the file's constants rule out",
            false => "",
        } + &callers_note(&sites),
        span: first.span,
    })
}

/// `, with what main.cu:49 passes`: the calls in other files whose values the launches fold.
pub(crate) fn callers_note(sites: &[&LaunchSite]) -> String {
    let mut places: Vec<&str> = sites
        .iter()
        .flat_map(|l| l.callers.iter().map(String::as_str))
        .collect();
    places.sort();
    places.dedup();
    match places.as_slice() {
        [] => String::new(),
        places => format!(
            ", with what {} pass{}",
            places.join(", "),
            match places.len() {
                1 => "es",
                _ => "",
            }
        ),
    }
}

/// The kernel calls `__mul24`/`__umul24` or scales the block's position in unsigned
/// arithmetic (whose witnesses `pairs.rs` keeps plausible: `wraps::scales_position`).
fn has_plausibility_facts(k: &Kernel) -> bool {
    let mut found = false;
    walk_stmts(&k.body, &mut |s| {
        for e in s.exprs() {
            e.walk(&mut |x| {
                found |= match &x.kind {
                    ExprKind::Call(Intrinsic::Mul24, _) => true,
                    ExprKind::Binary(op, a, b) => {
                        super::wraps::scales_position(*op, a, b).is_some()
                    }
                    _ => false,
                }
            });
        }
    });
    found
}

/// Where a launch site is, as reports name it: `line 12` in the file analysed, `main.cu:30` in
/// a header or in another file of the program (`gmrace analyze DIR`).
pub(crate) fn site_place(m: &Module, site: &LaunchSite) -> String {
    site.span.place(&m.files)
}

/// Where one extent (the block or the grid) can come from, strongest first: the command line,
/// the file's launches when they fix all three dimensions, the header comment, and otherwise
/// dimension by dimension what the launches fix, 1 where the kernel never reads the dimension,
/// symbolic elsewhere.
struct Extent<'a> {
    what: &'static str,
    stated: Option<[u32; 3]>,
    launch: Option<([Option<u32>; 3], &'a str)>,
    header: Option<([u32; 3], String)>,
    read: [bool; 3],
    symbolic: &'static str,
}

impl Extent<'_> {
    fn resolve(self, sources: &mut BTreeMap<String, String>) -> Extents {
        let (extents, source) = self.choose();
        sources.insert(self.what.to_string(), source);
        extents
    }

    fn choose(&self) -> (Extents, String) {
        if let Some(e) = self.stated {
            return (Extents::fixed(e), "command line".into());
        }
        if let Some((e @ [Some(_), Some(_), Some(_)], source)) = self.launch {
            return (Extents(e), source.to_string());
        }
        if let Some((e, source)) = &self.header {
            return (Extents::fixed(*e), source.clone());
        }
        let from_launch = self.launch.map_or([None; 3], |(e, _)| e);
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        let mut dims = [None; 3];
        for (i, axis) in ["x", "y", "z"].into_iter().enumerate() {
            let (value, why) = match (from_launch[i], self.read[i]) {
                (Some(v), _) => (Some(v), self.launch.map_or("", |(_, s)| s).to_string()),
                (None, false) => (Some(1), "1, never read by the kernel".to_string()),
                (None, true) => (None, self.symbolic.to_string()),
            };
            dims[i] = value;
            match groups.iter_mut().find(|(w, _)| *w == why) {
                Some((_, axes)) => axes.push(axis),
                None => groups.push((why, vec![axis])),
            }
        }
        let source = match groups.as_slice() {
            [(why, _)] => why.clone(),
            _ => groups
                .iter()
                .map(|(why, axes)| format!("{}: {why}", axes.join(", ")))
                .collect::<Vec<_>>()
                .join("; "),
        };
        (Extents(dims), source)
    }
}

/// Each fixed dimension within CUDA's limits, and a fixed block within its thread count.
fn check(e: Extents, max: [u32; 3], what: &str) -> Result<(), String> {
    match (e.all(), what) {
        (Some(b), "block") => return check_block(b),
        (Some(g), _) => return check_grid(g),
        (None, _) => {}
    }
    for (i, (v, max)) in e.0.iter().zip(max).enumerate() {
        if let Some(v) = v.filter(|v| *v == 0 || *v > max) {
            return Err(format!(
                "invalid launch configuration: {what} dimension {} is {v}; CUDA allows 1 to {max}",
                ["x", "y", "z"][i]
            ));
        }
    }
    Ok(())
}

/// Which of `x, y, z` a kernel reads, of its block (`threadIdx`, `blockDim`) and of its grid
/// (`blockIdx`, `gridDim`), itself or through what it inlines (cooperative groups' ranks read
/// all three), or in code the front end did not lower (`Kernel::builtins_read`). A lane number (PTX's `%laneid`, which the front end computes from the linear
/// thread index) reads only `x`: it says where a thread is in its warp, which code indexing
/// its data by `threadIdx.x` alone asks in any block shape.
struct DimensionsRead {
    block: [bool; 3],
    grid: [bool; 3],
}

impl DimensionsRead {
    fn mark(&mut self, sp: &Special) {
        match sp {
            Special::ThreadIdx(d) | Special::BlockDim(d) => self.block[*d as usize] = true,
            Special::BlockIdx(d) | Special::GridDim(d) => self.grid[*d as usize] = true,
            Special::WarpSize => {}
        }
    }
}

fn dimensions_read(k: &Kernel) -> DimensionsRead {
    let mut read = DimensionsRead {
        block: [false; 3],
        grid: [false; 3],
    };
    for sp in &k.builtins_read {
        read.mark(sp);
    }
    let mut in_lane: crate::collections::HashSet<*const Expr> = Default::default();
    walk_stmts(&k.body, &mut |s| {
        for e in s.exprs() {
            e.walk(&mut |x| {
                if is_lane_number(x) {
                    x.walk(&mut |inner| {
                        in_lane.insert(inner as *const Expr);
                    });
                    read.block[0] = true;
                }
            });
        }
    });
    walk_stmts(&k.body, &mut |s| {
        for e in s.exprs() {
            e.walk(&mut |x| {
                if in_lane.contains(&(x as *const Expr)) {
                    return;
                }
                if let ExprKind::Special(sp) = &x.kind {
                    read.mark(sp);
                }
            });
        }
    });
    read
}

/// `linear thread index & 31`, as the front end lowers `%laneid`.
fn is_lane_number(e: &Expr) -> bool {
    let ExprKind::Binary(BinOp::And, a, b) = &e.kind else {
        return false;
    };
    matches!(b.kind, ExprKind::Int(31)) && same_shape(a, &Expr::linear_thread_id())
}

/// Structural equality of the expressions a linear thread index is made of.
fn same_shape(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Special(x), ExprKind::Special(y)) => x == y,
        (ExprKind::Binary(o, a1, a2), ExprKind::Binary(p, b1, b2)) => {
            o == p && same_shape(a1, b1) && same_shape(a2, b2)
        }
        _ => false,
    }
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
