//! The text form of analysis reports: each race with both accesses in the source, the witness
//! as a small table, the `unknown` accesses with a note when solver work ran out
//! (`Stats::timeouts`, `over_budget`: the note names the flags that give it more), and a summary
//! line per kernel; written through `render::stdout`.

use crate::render;
use gmrace_ir::report::{AccessRef, Certainty, KernelReport, RaceReport, Verdict};
use std::fmt::Write;

pub fn dims(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}

pub fn triple(t: [u32; 3]) -> String {
    format!("({},{},{})", t[0], t[1], t[2])
}

/// On stdout: colour only when it is a terminal.
pub fn print_text(reports: &[KernelReport], quiet: bool) {
    let mut out = String::new();
    for r in reports {
        for race in &r.races {
            out.push_str(&race_text(r, race));
        }
        for d in &r.barrier_divergence {
            let w = &d.witness;
            let title = format!("barrier divergence in `{}`", r.name);
            let mut marks = vec![(
                d.line,
                d.column,
                format!("thread {} waits here", triple(w.threads[0])),
            )];
            let elsewhere = match w.other_line {
                Some(other) => {
                    marks.push((
                        other,
                        w.other_column.unwrap_or(1),
                        format!("thread {} waits here instead", triple(w.threads[1])),
                    ));
                    String::new()
                }
                None => format!("; thread {} does not reach it", triple(w.threads[1])),
            };
            let _ = writeln!(out, "{}", render::excerpt(&title, true, &r.file, &marks));
            let _ = writeln!(
                out,
                "  block {} of a {} launch with blocks of {}{elsewhere}\n",
                triple(w.block),
                dims(w.grid_dim),
                dims(w.block_dim)
            );
        }
        if !quiet {
            for a in r.accesses.iter().filter(|a| a.verdict == Verdict::Unknown) {
                let _ = writeln!(
                    out,
                    "  unknown: access #{} ({} {} of `{}`) at {}:{}:{}",
                    a.id,
                    a.space.name(),
                    a.kind.name(),
                    a.array.as_deref().unwrap_or("?"),
                    a.file.as_deref().unwrap_or(&r.file),
                    a.line,
                    a.column
                );
            }
            if let Some(note) = time_note(r) {
                let _ = writeln!(out, "  {note}");
            }
            for p in &r.left_to_run {
                let _ = writeln!(
                    out,
                    "  unknown: {} pair #{} ({}:{}) and #{} ({}:{}): {} (`gmrace run`)",
                    p.scope.name(),
                    p.first.access,
                    p.first.line,
                    p.first.column,
                    p.second.access,
                    p.second.line,
                    p.second.column,
                    p.reason
                );
            }
        }
        let count = |v: Verdict| r.accesses.iter().filter(|a| a.verdict == v).count();
        let (b, g) = (r.assumptions.block, r.assumptions.grid);
        let launch = match (b.is_symbolic(), g.is_symbolic()) {
            (false, false) => format!("grid {g}, block {b}"),
            (false, true) => format!("block {b}, any grid"),
            (true, false) => format!("grid {g}, any block"),
            (true, true) => "any launch".to_string(),
        };
        let _ = writeln!(
            out,
            "{}: kernel `{}` ({launch}): {} accesses: {} safe, {} racy, {} unknown; {} race{}, {} barrier divergence{}",
            r.file,
            r.name,
            r.accesses.len(),
            count(Verdict::Safe),
            count(Verdict::Racy),
            count(Verdict::Unknown),
            r.races.len(),
            if r.races.len() == 1 { "" } else { "s" },
            r.barrier_divergence.len(),
            if r.barrier_divergence.len() == 1 { "" } else { "s" },
        );
    }
    render::stdout(&out);
}

/// Why some of a kernel's verdicts may be `unknown` for lack of solver work, and what gives
/// the solver more: the answer may then change from `unknown` to a decided one. Only where
/// something is undecided: a query that ran out in the first round may be settled later.
fn time_note(r: &KernelReport) -> Option<String> {
    let undecided = r.accesses.iter().any(|a| a.verdict == Verdict::Unknown)
        || r.races
            .iter()
            .any(|x| x.certainty == Certainty::Conditional);
    if !undecided {
        return None;
    }
    let s = &r.stats;
    let plural = |n: u32, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let mut why = Vec::new();
    if s.timeouts > 0 {
        why.push(format!(
            "{} quer{} ran out of solver work (`--rlimit`)",
            s.timeouts,
            plural(s.timeouts, "y", "ies")
        ));
    }
    if s.over_budget > 0 {
        let budget = match s.budget_share {
            Some(_) => "its share of the file's solver budget was spent (`--file-budget`)",
            None => "the kernel's solver budget was spent (`--budget`)",
        };
        why.push(format!(
            "{} pair{} or quer{} not asked once {budget}",
            s.over_budget,
            plural(s.over_budget, "", "s"),
            plural(s.over_budget, "y", "ies")
        ));
    }
    if s.wall_timeouts > 0 {
        why.push(format!(
            "{} quer{} stopped by the wall-clock safety net (`--timeout-ms`): these verdicts \
             may differ on another machine",
            s.wall_timeouts,
            plural(s.wall_timeouts, "y", "ies")
        ));
    }
    (!why.is_empty()).then(|| format!("note: {}; more work may decide more", why.join(", ")))
}

pub fn race_text(r: &KernelReport, race: &RaceReport) -> String {
    let w = &race.witness;
    let conditional = race.certainty == Certainty::Conditional;
    let title = format!(
        "{}{} race on {} memory `{}` in `{}`",
        if conditional { "conditional " } else { "" },
        race.scope.name(),
        race.space.name(),
        w.array.as_deref().unwrap_or("?"),
        r.name
    );
    let file_of = |end: &AccessRef| end.file.as_deref().unwrap_or(&r.file).to_string();
    let files = [file_of(&race.first), file_of(&race.second)];
    let marks = vec![
        (
            files[0].as_str(),
            race.first.line,
            race.first.column,
            format!(
                "{} by thread {}",
                race.first.kind.name(),
                triple(w.threads[0])
            ),
        ),
        (
            files[1].as_str(),
            race.second.line,
            race.second.column,
            format!(
                "{} by thread {}",
                race.second.kind.name(),
                triple(w.threads[1])
            ),
        ),
    ];
    let mut out = render::excerpt_across(&title, !conditional, &marks);
    out.push('\n');
    let mut row = |name: &str, a: &str, b: &str| {
        out.push_str(format!("  {name:<18}{a:<16}{b}").trim_end());
        out.push('\n');
    };
    row("witness", "first access", "second access");
    let rows = [
        ("block", triple(w.blocks[0]), triple(w.blocks[1])),
        ("thread", triple(w.threads[0]), triple(w.threads[1])),
        ("warp", w.warps[0].to_string(), w.warps[1].to_string()),
        (
            "barriers passed",
            w.barrier_interval[0].to_string(),
            w.barrier_interval[1].to_string(),
        ),
        (
            "execution #",
            w.executions[0].to_string(),
            w.executions[1].to_string(),
        ),
    ];
    for (name, a, b) in rows {
        row(name, &a, &b);
    }
    let iterations = |i: usize| {
        let its: Vec<String> = w.loop_iterations[i].iter().map(u32::to_string).collect();
        if its.is_empty() {
            "-".to_string()
        } else {
            its.join(", ")
        }
    };
    if w.loop_iterations.iter().any(|l| !l.is_empty()) {
        row("loop iterations", &iterations(0), &iterations(1));
    }
    let params: Vec<String> = w.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    out.push_str(&format!(
        "  address: byte {} of `{}`; launch: grid {}, block {}{}\n\n",
        w.byte_offset,
        w.array.as_deref().unwrap_or("?"),
        dims(w.grid_dim),
        dims(w.block_dim),
        if params.is_empty() {
            String::new()
        } else {
            format!("; {}", params.join(", "))
        }
    ));
    if race.volatile {
        out.insert_str(
            out.len() - 1,
            "  note: `volatile` makes each access happen but orders nothing between threads: \
             use `__syncwarp()` between the lanes of a warp, a barrier or a fence between \
             others\n",
        );
    }
    if let (true, Some(condition)) = (conditional, &race.condition) {
        out.insert_str(
            out.len() - 1,
            &format!(
                "  note: only for some values of the parameters its addresses depend on (here \
                 {condition}): `gmrace run` decides with the real values; \
                 `--fail-on conditional` counts it\n"
            ),
        );
    }
    if race.scoped {
        out.insert_str(
            out.len() - 1,
            "  note: a `_block` atomic is atomic only among the threads of its block; memory \
             other blocks update needs the device-scoped atomic (`atomicAdd`, not \
             `atomicAdd_block`)\n",
        );
    }
    out
}
