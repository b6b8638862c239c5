//! Analysis reports as SARIF findings: one per race (both accesses, the witness in words and as
//! data), per barrier divergence, and per access left `unknown` (a note, left out by `--quiet`).
//! The race and divergence rules and findings are shared with `gmrace run` (`run/sarif.rs`).
//! This module holds the analysis's rule catalogue, `RULES`, whose order is SARIF's `ruleIndex`.

use crate::sarif::{Finding, Level, Place, Rule};
use crate::text::{dims, triple};
use gmrace_ir::report::{Certainty, DivergenceReport, KernelReport, RaceReport, Scope, Verdict};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

pub static INTRA_WARP: Rule = Rule {
    id: "race/intra-warp",
    name: "IntraWarpRace",
    short: "Data race between two lanes of one warp",
    help: "Two lanes of one warp access overlapping bytes, at least one writes, and nothing \
           orders them. Under independent thread scheduling (sm_70+) only __syncwarp() orders \
           lanes of a warp; give each lane its own address or separate the accesses with \
           __syncwarp().",
    level: Level::Error,
};

pub static INTER_WARP: Rule = Rule {
    id: "race/inter-warp",
    name: "InterWarpRace",
    short: "Data race between two warps of one block",
    help: "Threads of two warps of one block access overlapping bytes in the same barrier \
           interval, at least one writes. Put a __syncthreads() reached by every thread of the \
           block between the two accesses, or make them touch different bytes.",
    level: Level::Error,
};

pub static INTER_BLOCK: Rule = Rule {
    id: "race/inter-block",
    name: "InterBlockRace",
    short: "Data race between two blocks",
    help: "Threads of two blocks access overlapping bytes of global memory, at least one \
           writes; nothing within a launch orders different blocks. Partition the data by \
           block, use atomics, or split the kernel into two launches.",
    level: Level::Error,
};

pub static DIVERGENCE: Rule = Rule {
    id: "barrier-divergence",
    name: "BarrierDivergence",
    short: "A block barrier not reached by every thread of the block",
    help: "__syncthreads() (and its _count/_and/_or variants) must be reached by every \
           non-exited thread of a block; otherwise the behaviour is undefined (a hang or a \
           barrier that synchronises nothing). Move the barrier out of the branch or loop \
           whose condition differs between the threads.",
    level: Level::Error,
};

static UNKNOWN: Rule = Rule {
    id: "unverified-access",
    name: "UnverifiedAccess",
    short: "An access the static analysis could neither prove race-free nor show racing",
    help: "The address depends on data, the code uses a construct the analysis does not \
           model, or the solver ran out of work. `gmrace run --mode flag|stmt` checks such \
           shared-memory accesses while the kernel runs; --block/--grid/--param or \
           __requires() may let the analysis decide.",
    level: Level::Note,
};

/// Every rule `gmrace analyze` can report, in a fixed order (the logs' `ruleIndex`).
pub static RULES: [&Rule; 5] = [
    &INTRA_WARP,
    &INTER_WARP,
    &INTER_BLOCK,
    &DIVERGENCE,
    &UNKNOWN,
];

pub fn findings(reports: &[&KernelReport], quiet: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in reports {
        out.extend(r.races.iter().map(|race| race_finding(r, race)));
        out.extend(
            r.barrier_divergence
                .iter()
                .map(|d| divergence_finding(r, d)),
        );
        if quiet {
            continue;
        }
        for a in r.accesses.iter().filter(|a| a.verdict == Verdict::Unknown) {
            out.push(Finding {
                level: None,
                rule: &UNKNOWN,
                message: format!(
                    "gmrace could not decide whether this {} {} of `{}` in kernel `{}` races.",
                    a.space.name(),
                    a.kind.name(),
                    a.array.as_deref().unwrap_or("?"),
                    r.name
                ),
                primary: place_in(a.file.as_deref().unwrap_or(&r.file), a.line, a.column),
                related: Vec::new(),
                properties: props(json!({ "kernel": r.name, "access": a.id })),
            });
        }
    }
    out
}

pub fn place(r: &KernelReport, line: u32, column: u32) -> Place {
    place_in(&r.file, line, column)
}

/// A place in `file`, where an access lies outside the kernel's (`AccessReport::file`).
pub fn place_in(file: &str, line: u32, column: u32) -> Place {
    Place {
        file: file.to_string(),
        line,
        column,
    }
}

pub fn props(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

pub fn race_finding(r: &KernelReport, race: &RaceReport) -> Finding {
    let w = &race.witness;
    let array = w.array.as_deref().unwrap_or("?");
    let rule = match race.scope {
        Scope::IntraWarp => &INTRA_WARP,
        Scope::InterWarp => &INTER_WARP,
        Scope::InterBlock => &INTER_BLOCK,
    };
    let who = |i: usize| {
        format!(
            "thread {} of block {} (warp {}{}{})",
            triple(w.threads[i]),
            triple(w.blocks[i]),
            w.warps[i],
            match w.executions[i] {
                0 => String::new(),
                n => format!(", execution #{n}"),
            },
            match w.loop_iterations[i].as_slice() {
                [] => String::new(),
                its => format!(
                    ", loop iterations {}",
                    its.iter().map(u32::to_string).collect::<Vec<_>>().join("/")
                ),
            }
        )
    };
    let conditional = race.certainty == Certainty::Conditional;
    let message = format!(
        "{}{} race on {} memory `{array}` in kernel `{}`: this {} by {} and the [{} at line {}](1) \
         by {} both touch byte {} of `{array}`, {} ({}).",
        if conditional { "conditional " } else { "" },
        race.scope.name(),
        race.space.name(),
        r.name,
        race.first.kind.name(),
        who(0),
        race.second.kind.name(),
        race.second.line,
        who(1),
        w.byte_offset,
        match w.barrier_interval[0] {
            0 => "before any barrier".to_string(),
            1 => "after 1 barrier".to_string(),
            n => format!("after {n} barriers"),
        },
        launch(w.grid_dim, w.block_dim, &w.params),
    );
    Finding {
        level: conditional.then_some(Level::Warning),
        rule,
        message: match &race.condition {
            Some(c) if conditional => format!("{message} Only for some values of the parameters its addresses depend on (the witness has {c}): `gmrace run` decides with the real ones."),
            _ => message,
        },
        primary: place_in(race.first.file.as_deref().unwrap_or(&r.file), race.first.line, race.first.column),
        related: vec![(
            place_in(race.second.file.as_deref().unwrap_or(&r.file), race.second.line, race.second.column),
            format!(
                "{} of `{array}` by thread {}",
                race.second.kind.name(),
                triple(w.threads[1])
            ),
        )],
        properties: props(json!({
            "kernel": r.name,
            "scope": race.scope.name(),
            "space": race.space.name(),
            "certainty": race.certainty,
            "accesses": [race.first.access, race.second.access],
            "witness": data(w),
        })),
    }
}

pub fn data<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

pub fn divergence_finding(r: &KernelReport, d: &DivergenceReport) -> Finding {
    let w = &d.witness;
    let (elsewhere, related) = match (w.other_line, w.other_column) {
        (Some(line), column) => (
            format!("waits at [another barrier at line {line}](1)"),
            vec![(
                place(r, line, column.unwrap_or(1)),
                format!("thread {} waits here instead", triple(w.threads[1])),
            )],
        ),
        (None, _) => ("does not reach it".to_string(), Vec::new()),
    };
    Finding {
        level: None,
        rule: &DIVERGENCE,
        message: format!(
            "barrier divergence in kernel `{}`: in block {}, thread {} waits at this barrier \
             while thread {} {elsewhere} ({}).",
            r.name,
            triple(w.block),
            triple(w.threads[0]),
            triple(w.threads[1]),
            launch(w.grid_dim, w.block_dim, &w.params),
        ),
        primary: place(r, d.line, d.column),
        related,
        properties: props(json!({ "kernel": r.name, "witness": data(w) })),
    }
}

fn launch(grid: [u32; 3], block: [u32; 3], params: &BTreeMap<String, i64>) -> String {
    let mut s = format!("launch: grid {}, block {}", dims(grid), dims(block));
    for (k, v) in params {
        s.push_str(&format!(", {k}={v}"));
    }
    s
}
