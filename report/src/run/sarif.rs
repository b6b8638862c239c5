//! `gmrace run --format sarif`: a run's races and device faults as SARIF findings, through the
//! shared builder (`sarif`) and with `gmrace analyze`'s race and divergence rules, so that code
//! scanning tracks one alert whichever command found the problem. `RULES` are the analysis's
//! race and divergence rules (from `analyze/findings.rs`) followed by one rule per device fault
//! kind (`memory/out-of-bounds`, `memory/misaligned`, `memory/invalid-address`,
//! `memory/read-only-write`, `warp-divergence`, `step-budget`, `trap`, `requires-violated`; a
//! barrier-divergence fault is `barrier-divergence`). This serves every mode of `gmrace run`;
//! the analysis's races and divergences are `gmrace analyze`'s findings.
//!
//! Locations (decided here): a race the run logged with its statements is at its first
//! statement, the second related; a `flag` race knows only the array and byte, so it is at the
//! array's declaration, or the kernel's when the array is not a declared one; a fault is at its
//! source location when that is in the user's files, or the kernel's otherwise (the device gave
//! none, or, for a checked run's barrier faults, it is in the temporary runtime header). Run
//! findings carry `found_by: run` and the witness (blocks, warps, threads, byte offset, bytes,
//! occurrences; a fault's JSON) as properties. An incomplete check (log or table overflow, a
//! fault) and device warnings are warning notices, so that no finding is silently missing.
//! Printf output goes to stderr.

use super::checked::{Context, RunRace};
use crate::findings::{self, data, props, DIVERGENCE, INTER_BLOCK, INTER_WARP, INTRA_WARP};
use crate::sarif::{self, Finding, Level, Notice, Place, Rule};
use crate::text::triple;
use gmrace_ir::{Kernel, Module, Span};
use gmrace_runtime_cuda::race_log::Scope;
use gmrace_runtime_cuda::report::{Fault, FaultKind, RunResult};
use serde_json::json;
use serde_sarif::sarif::Sarif;

static OUT_OF_BOUNDS: Rule = Rule {
    id: "memory/out-of-bounds",
    name: "OutOfBounds",
    short: "A memory access outside the object its address belongs to",
    help: "The access reads or writes bytes outside every buffer, array or variable its address \
           points into. Check the index against the buffer's length (a bounds test, or a grid \
           that does not exceed the data).",
    level: Level::Error,
};

static MISALIGNED: Rule = Rule {
    id: "memory/misaligned",
    name: "MisalignedAccess",
    short: "A memory access whose offset is not a multiple of its size",
    help: "GPUs require naturally aligned accesses; a misaligned one faults. Check pointer \
           casts and byte offsets.",
    level: Level::Error,
};

static INVALID_ADDRESS: Rule = Rule {
    id: "memory/invalid-address",
    name: "InvalidAddress",
    short: "A memory access through an address that belongs to no object",
    help: "The pointer is null, uninitialised or computed from garbage. Check where it comes \
           from.",
    level: Level::Error,
};

static READ_ONLY_WRITE: Rule = Rule {
    id: "memory/read-only-write",
    name: "ReadOnlyWrite",
    short: "A write or atomic on __constant__ memory",
    help: "__constant__ memory is read-only on the device; write to a __device__ variable or a \
           global buffer instead.",
    level: Level::Error,
};

static WARP_DIVERGENCE: Rule = Rule {
    id: "warp-divergence",
    name: "WarpDivergence",
    short: "A warp synchronisation whose mask names lanes that do not arrive",
    help: "__syncwarp(mask) and the *_sync intrinsics must be reached by every lane of their \
           mask, including the calling lane; otherwise the warp deadlocks or the result is \
           undefined. Use __activemask() or move the call out of the divergent branch.",
    level: Level::Error,
};

static STEP_BUDGET: Rule = Rule {
    id: "step-budget",
    name: "StepBudgetExceeded",
    short: "The kernel did not finish within the step budget",
    help: "The launch executed --max-steps warp-instructions without finishing: a loop that \
           does not terminate for these arguments, or a budget too small for the launch \
           (raise --max-steps).",
    level: Level::Error,
};

static TRAP: Rule = Rule {
    id: "trap",
    name: "Trap",
    short: "The kernel trapped (__trap, a failed assert, abort)",
    help: "A thread executed __trap(), abort() or a failing assert(): the kernel's own check \
           failed for these arguments.",
    level: Level::Error,
};

static REQUIRES_VIOLATED: Rule = Rule {
    id: "requires-violated",
    name: "RequiresViolated",
    short: "A __requires() precondition false for the launch's arguments",
    help: "The kernel states a precondition that the launch spec's dimensions or arguments do \
           not meet; fix the launch or the precondition.",
    level: Level::Error,
};

/// Every rule `gmrace run` can report, in a fixed order (the logs' `ruleIndex`).
pub static RULES: [&Rule; 12] = [
    &INTRA_WARP,
    &INTER_WARP,
    &INTER_BLOCK,
    &DIVERGENCE,
    &OUT_OF_BOUNDS,
    &MISALIGNED,
    &INVALID_ADDRESS,
    &READ_ONLY_WRITE,
    &WARP_DIVERGENCE,
    &STEP_BUDGET,
    &TRAP,
    &REQUIRES_VIOLATED,
];

fn fault_rule(kind: FaultKind) -> &'static Rule {
    match kind {
        FaultKind::OutOfBounds => &OUT_OF_BOUNDS,
        FaultKind::Misaligned => &MISALIGNED,
        FaultKind::InvalidAddress => &INVALID_ADDRESS,
        FaultKind::ReadOnlyWrite => &READ_ONLY_WRITE,
        FaultKind::BarrierDivergence => &DIVERGENCE,
        FaultKind::WarpDivergence => &WARP_DIVERGENCE,
        FaultKind::StepBudget => &STEP_BUDGET,
        FaultKind::Trap => &TRAP,
        FaultKind::RequiresViolated => &REQUIRES_VIOLATED,
    }
}

fn span_place(module: &Module, span: &Span) -> Place {
    Place {
        file: module
            .files
            .get(span.file as usize)
            .cloned()
            .unwrap_or_default(),
        line: span.line,
        column: span.column,
    }
}

fn kernel_place(module: &Module, kernel: &str) -> Place {
    match module.kernels.iter().find(|k| k.name == kernel) {
        Some(k) => span_place(module, &k.span),
        None => Place {
            file: module.files.first().cloned().unwrap_or_default(),
            line: 1,
            column: 1,
        },
    }
}

/// A fault inside gmrace's own runtime header (a checked run's barrier) is located at the
/// kernel: the header is a temporary file the reader never sees.
fn fault_finding(f: &Fault, kernel: &str, module: &Module) -> Finding {
    let primary = match &f.loc {
        Some(l) if module.files.contains(&l.file) => Place {
            file: l.file.clone(),
            line: l.line,
            column: l.column,
        },
        _ => kernel_place(module, kernel),
    };
    let block = f.block.map(|b| format!(" in block {}", triple(b)));
    Finding {
        level: None,
        rule: fault_rule(f.kind),
        message: format!(
            "{} in kernel `{kernel}`{}: {}",
            f.kind.name(),
            block.unwrap_or_default(),
            f.message
        ),
        primary,
        related: Vec::new(),
        properties: props(json!({ "kernel": kernel, "found_by": "run", "fault": data(f) })),
    }
}

fn run_race_finding(
    ctx: &Context,
    module: &Module,
    kernel: Option<&Kernel>,
    rr: &RunRace,
) -> Finding {
    let f = rr.first;
    let array = rr.array.as_deref().unwrap_or("?");
    let rule = match f.scope {
        Scope::IntraWarp => &INTRA_WARP,
        Scope::InterWarp => &INTER_WARP,
    };
    let byte = rr.byte_offset.map_or_else(
        || format!("byte {} of the shared window", f.offset),
        |o| format!("byte {o}"),
    );
    let mut properties = props(json!({
        "kernel": ctx.report.name,
        "found_by": "run",
        "mode": ctx.mode.name(),
        "scope": f.scope.name(),
        "space": "shared",
        "array": rr.array,
        "byte_offset": rr.byte_offset,
        "bytes": rr.bytes,
        "occurrences": rr.occurrences,
        "blocks": [f.block, f.block],
        "warps": f.warps,
    }));
    if let Some([a, b]) = f.threads {
        properties.insert("threads".into(), json!([ctx.thread(a), ctx.thread(b)]));
    }
    let head = format!(
        "{} race found by the run ({} mode) on shared memory `{array}` in kernel `{}`, block {}",
        f.scope.name(),
        ctx.mode.name(),
        ctx.report.name,
        triple(f.block)
    );
    let tail = format!(
        "warps {} and {}; {} racy byte(s), {} occurrence(s) in the log",
        f.warps[0], f.warps[1], rr.bytes, rr.occurrences
    );
    let sites = f.accesses.map(|ids| ids.map(|id| ctx.site(id)));
    if let (Some([Some(a), Some(b)]), Some(kinds)) = (sites, f.kinds) {
        let who = |i: usize| {
            f.threads
                .map(|t| format!(" by thread {}", triple(ctx.thread(t[i]))))
                .unwrap_or_default()
        };
        properties.insert("lines".into(), json!([a.line, b.line]));
        return Finding {
            level: None,
            rule,
            message: format!(
                "{head}: this {}{} and the [{} at line {}](1){} both touch {byte} of `{array}`; \
                 {tail}.",
                kinds[0].name(),
                who(0),
                kinds[1].name(),
                b.line,
                who(1),
            ),
            primary: findings::place(ctx.report, a.line, a.column),
            related: vec![(
                findings::place(ctx.report, b.line, b.column),
                format!("{} of `{array}`{}", kinds[1].name(), who(1)),
            )],
            properties,
        };
    }
    let declared =
        kernel.and_then(|k| k.shared.iter().find(|s| Some(&s.name) == rr.array.as_ref()));
    let (primary, at) = match (declared, kernel) {
        (Some(s), _) => (span_place(module, &s.span), "declared here"),
        (None, Some(k)) => (span_place(module, &k.span), "located at the kernel"),
        (None, None) => (
            kernel_place(module, &ctx.report.name),
            "located at the kernel",
        ),
    };
    Finding {
        level: None,
        rule,
        message: format!(
            "{head}: {byte} of `{array}` ({at}); {} mode does not know the racing statements, \
             run with --mode stmt to find them; {tail}.",
            ctx.mode.name()
        ),
        primary,
        related: Vec::new(),
        properties,
    }
}

/// The log of a checked run (`--mode flag|stmt`): the analysis' races and divergences as
/// `gmrace analyze` reports them, then the run's races and faults.
pub fn checked_log(ctx: &Context, module: &Module) -> Sarif {
    let r = ctx.report;
    let kernel = module.kernels.iter().find(|k| k.name == r.name);
    let mut out: Vec<Finding> = r
        .races
        .iter()
        .map(|race| findings::race_finding(r, race))
        .chain(
            r.barrier_divergence
                .iter()
                .map(|d| findings::divergence_finding(r, d)),
        )
        .collect();
    out.extend(
        ctx.races()
            .iter()
            .map(|rr| run_race_finding(ctx, module, kernel, rr)),
    );
    out.extend(
        ctx.run
            .result
            .faults
            .iter()
            .map(|f| fault_finding(f, &r.name, module)),
    );
    let mut notices: Vec<Notice> = ctx
        .incomplete()
        .into_iter()
        .map(|why| Notice {
            level: Level::Warning,
            message: format!("the check is incomplete: {why}"),
            place: None,
        })
        .collect();
    notices.extend(warnings(&ctx.run.result));
    sarif::log(&RULES, &out, &notices)
}

/// The log of an unchecked run (`--mode off`): its faults.
pub fn plain_log(result: &RunResult, module: &Module) -> Sarif {
    let out: Vec<Finding> = result
        .faults
        .iter()
        .map(|f| fault_finding(f, &result.kernel, module))
        .collect();
    sarif::log(&RULES, &out, &warnings(result).collect::<Vec<_>>())
}

fn warnings(result: &RunResult) -> impl Iterator<Item = Notice> + '_ {
    let truncated = result.printf_truncated.then(|| Notice {
        level: Level::Note,
        message: "the kernel's printf output was truncated".to_string(),
        place: None,
    });
    result
        .warnings
        .iter()
        .map(|w| Notice {
            level: Level::Warning,
            message: w.to_string(),
            place: None,
        })
        .chain(truncated)
}
