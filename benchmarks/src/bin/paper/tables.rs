//! The Markdown report: Table 1, overhead, static pruning, analyzer time.

use crate::gmrace::RunOutcome;
use crate::{AppResult, VariantResult};
use std::fmt::Write;

/// Ratio of a checked run to the uninstrumented one.
pub fn ratio(checked: f64, off: f64) -> f64 {
    if off > 0.0 {
        checked / off
    } else {
        f64::NAN
    }
}

pub fn geomean(xs: &[f64]) -> f64 {
    let logs: Vec<f64> = xs
        .iter()
        .filter(|x| x.is_finite() && **x > 0.0)
        .map(|x| x.ln())
        .collect();
    if logs.is_empty() {
        return f64::NAN;
    }
    (logs.iter().sum::<f64>() / logs.len() as f64).exp()
}

/// Extra thread-instructions of a checked run over the uninstrumented one: the work of the
/// inserted checkers (recording, intra-warp checks, the inter-warp checks at barriers).
pub fn checking_instructions(v: &VariantResult, mode: &str, all: bool) -> u64 {
    let off = v.get("off", false).thread_instructions;
    v.get(mode, all).thread_instructions.saturating_sub(off)
}

/// Wall time of a run: the device run alone.
pub fn wall(r: &RunOutcome) -> f64 {
    r.run_ms
}

fn found(r: &RunOutcome) -> String {
    match (r.races_by_analysis > 0, r.races_by_run > 0) {
        (true, true) => "yes (analysis + run)".into(),
        (true, false) => "yes (analysis)*".into(),
        (false, true) => "yes (run)".into(),
        (false, false) => "no".into(),
    }
}

fn times(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}x")
    } else {
        "-".into()
    }
}

fn incomplete_note(r: &RunOutcome) -> &'static str {
    if r.complete {
        ""
    } else {
        " (incomplete)"
    }
}

fn table1(s: &mut String, results: &[AppResult], all: bool) {
    s.push_str(
        "| App | racy by | stmt: Found? | R-Stmt# | R-Mem# | R-Thd# | flag: Found? | R-Mem# | R-Wp# |\n\
         |---|---|---|---:|---:|---:|---|---:|---:|\n",
    );
    for a in results {
        let st = a.racy.get("stmt", all);
        let fl = a.racy.get("flag", all);
        let _ = writeln!(
            s,
            "| {} | {} | {}{} | {} | {} | {} | {}{} | {} | {} |",
            a.name,
            a.trigger,
            found(st),
            incomplete_note(st),
            st.summary.r_stmt,
            st.summary.r_mem,
            st.summary.r_thd,
            found(fl),
            incomplete_note(fl),
            fl.summary.r_mem,
            fl.summary.r_wp,
        );
    }
}

fn race_free(s: &mut String, results: &[AppResult]) {
    s.push_str("| App | flag | stmt | flag --all | stmt --all |\n|---|---:|---:|---:|---:|\n");
    for a in results {
        let n = |mode, all| {
            let r = a.safe.get(mode, all);
            r.races_by_analysis + r.races_by_run
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            a.name,
            n("flag", false),
            n("stmt", false),
            n("flag", true),
            n("stmt", true)
        );
    }
}

fn overhead(s: &mut String, results: &[AppResult], metric: fn(&RunOutcome) -> f64, unit: &str) {
    let _ = writeln!(
        s,
        "| App | off ({unit}) | flag | stmt | flag --all | stmt --all |\n|---|---:|---:|---:|---:|---:|"
    );
    let mut cols: [Vec<f64>; 4] = Default::default();
    for a in results {
        let off = metric(a.safe.get("off", false));
        let rs = [
            ("flag", false),
            ("stmt", false),
            ("flag", true),
            ("stmt", true),
        ]
        .map(|(m, all)| ratio(metric(a.safe.get(m, all)), off));
        for (c, r) in cols.iter_mut().zip(rs) {
            c.push(r);
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            a.name,
            if unit == "ms" {
                format!("{off:.1}")
            } else {
                format!("{off:.0}")
            },
            times(rs[0]),
            times(rs[1]),
            times(rs[2]),
            times(rs[3])
        );
    }
    let g = cols.each_ref().map(|c| times(geomean(c)));
    let _ = writeln!(
        s,
        "| geometric mean | | {} | {} | {} | {} |",
        g[0], g[1], g[2], g[3]
    );
}

fn pruning(s: &mut String, results: &[AppResult]) {
    s.push_str(
        "| App | instrumented accesses | with --all | executed checks | with --all | \
         checking thread-instr. flag | with --all | stmt | with --all |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for a in results {
        let v = &a.safe;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            a.name,
            v.get("flag", false).instrumented_accesses,
            v.get("flag", true).instrumented_accesses,
            v.get("flag", false).executed_checks,
            v.get("flag", true).executed_checks,
            checking_instructions(v, "flag", false),
            checking_instructions(v, "flag", true),
            checking_instructions(v, "stmt", false),
            checking_instructions(v, "stmt", true),
        );
    }
}

fn analyzer(s: &mut String, results: &[AppResult]) {
    s.push_str(
        "| App | variant | analyze wall (ms) | solver (ms) | safe | racy | unknown | races |\n\
         |---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for a in results {
        for (name, v) in [("race-free", &a.safe), ("racy", &a.racy)] {
            let x = &v.analysis;
            let _ = writeln!(
                s,
                "| {} | {name} | {:.0} | {} | {} | {} | {} | {} |",
                a.name,
                x.wall_ms,
                x.solver_ms.map_or("-".into(), |m| m.to_string()),
                x.safe,
                x.racy,
                x.unknown,
                x.races
            );
        }
    }
}

pub fn markdown(results: &[AppResult], repeat: u32) -> String {
    let mut s = String::new();
    s.push_str(include_str!("preamble.md"));
    let _ = writeln!(
        s,
        "Wall times are the best of {repeat} runs of the device run alone (`run_ms` of \
         `gmrace run --timing`).\n"
    );
    s.push_str("## Table 1: racy variants, default (static pruning)\n\n");
    table1(&mut s, results, false);
    s.push_str(
        "\n\\* found by the static analyzer alone; the run then checks nothing, so the dynamic \
         counts are 0 (the paper's \"-\"). Counts are the run's `summary`.\n\n\
         ## Table 1 with `--all` (every shared access checked at run time)\n\n",
    );
    table1(&mut s, results, true);
    s.push_str("\n## Race-free variants: races reported (must be 0)\n\n");
    race_free(&mut s, results);
    s.push_str(
        "\n## Overhead on race-free variants (Fig. 4): executed thread-instructions, \
         relative to the uninstrumented run\n\n",
    );
    overhead(
        &mut s,
        results,
        |r| r.thread_instructions as f64,
        "thread-instr.",
    );
    s.push_str(
        "\n## Overhead on race-free variants: wall time, relative to the uninstrumented run\n\n",
    );
    overhead(&mut s, results, wall, "ms");
    s.push_str(
        "\n## Static pruning (Appendix F): with the analyzer (default) and without it (`--all`)\n\n\
         Instrumented accesses are the plan's (static); executed checks are the warp-level calls \
         of the recording hook in `flag` mode (`executed_checks` of `gmrace run --count-checks`); \
         checking thread-instructions are the \
         executed thread-instructions of the checked run minus those of the uninstrumented run \
         (the dynamic cost of recording and checking).\n\n",
    );
    pruning(&mut s, results);
    s.push_str(
        "\n## Analyzer time per kernel (`gmrace analyze` under the launch's dimensions)\n\n",
    );
    analyzer(&mut s, results);
    s.push_str(
        "\nPlots: `paper-fig4-overhead.svg` (thread-instructions, log scale), \
         `paper-overhead-wall.svg` (wall time, log scale), `paper-pruning.svg`, \
         `paper-analyzer-time.svg`.\n",
    );
    s
}
