//! The launch assumptions of an analysis, strongest source first: the command line, a constant
//! launch `k<<<g, b>>>` in the file, the GPUVerify header comment. Without dimensions the block
//! is symbolic within CUDA's limits.

use super::{AnalysisOptions, Assumptions};
use crate::ir::{Kernel, Module, Span, Ty};
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
    let launch = m.launches.iter().find(|l| l.kernel == k.name);
    let header_src = |h: Option<u32>| format!("header comment, line {}", h.unwrap_or(1));

    let mut span = None;
    let block = if let Some(b) = opts.block {
        sources.insert("block".into(), "command line".into());
        Some(b)
    } else if let Some(b) = launch.and_then(|l| l.block) {
        sources.insert(
            "block".into(),
            format!("launch at line {}", launch.map_or(0, |l| l.span.line)),
        );
        span = launch.map(|l| l.span);
        Some(b)
    } else if let Some(b) = m.header.block {
        sources.insert("block".into(), header_src(m.header.line));
        Some(b)
    } else {
        sources.insert("block".into(), "symbolic within CUDA's limits".into());
        None
    };
    let grid = if let Some(g) = opts.grid {
        sources.insert("grid".into(), "command line".into());
        Some(g)
    } else if let Some(g) = launch.and_then(|l| l.grid) {
        sources.insert(
            "grid".into(),
            format!("launch at line {}", launch.map_or(0, |l| l.span.line)),
        );
        span = span.or(launch.map(|l| l.span));
        Some(g)
    } else if let Some(g) = m.header.grid {
        sources.insert("grid".into(), header_src(m.header.line));
        Some(g)
    } else {
        sources.insert(
            "grid".into(),
            "symbolic: every global thread index fits in a signed 32-bit int".into(),
        );
        None
    };
    if let Some(b) = block {
        check_block(b).map_err(|message| LaunchError { message, span })?;
    }
    if let Some(g) = grid {
        check_grid(g).map_err(|message| LaunchError { message, span })?;
    }

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
