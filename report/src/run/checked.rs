//! Reports of checked runs (`gmrace run --mode flag|stmt`): the run's race log grouped into
//! races a reader can act on, next to the analysis' proved races; text and DESIGN.md's JSON.
//!
//! Grouping (decided here, DESIGN.md is silent): a race the run logged with its statements
//! (`stmt` mode, intra-warp races in both modes) is one report per scope and statement pair,
//! with the first logged occurrence as its witness; a `flag` race, which knows no statements,
//! is one report per scope and array, witnessed by its lowest racy byte, with the number of
//! racy bytes. `occurrences` counts the log records behind a report. Each report lists its
//! distinct racy bytes. The JSON adds `found_by`, `bytes`, `occurrences`, `checked_warp_model`
//! (always `lockstep`) and `incomplete` (the reasons a check was incomplete).

use super::json::{self, Measured};
use crate::render;
use gmrace_ir::plan::{KernelPlan, PlannedSite};
use gmrace_ir::report::KernelReport;
use gmrace_runtime_cuda::program::CheckedProgram;
use gmrace_runtime_cuda::race_log::{self, CheckedRun, Mode, Race, Scope};
use gmrace_runtime_cuda::report::{render_fault, RunResult};
use std::collections::{BTreeMap, BTreeSet};

pub struct Context<'a> {
    pub report: &'a KernelReport,
    pub plan: Option<&'a KernelPlan>,
    pub run: &'a CheckedRun,
    pub mode: Mode,
    pub backend: &'static str,
    pub measured: Measured,
}

/// One reported race of the run.
pub struct RunRace<'a> {
    pub first: &'a Race,
    pub array: Option<String>,
    pub byte_offset: Option<u64>,
    /// Racy bytes behind the report.
    pub bytes: u64,
    pub occurrences: u64,
}

/// Scope, then the site pair (statement-level races) or the array (flag races).
type GroupKey = (Scope, Option<(u32, u32)>, Option<String>);

impl<'a> Context<'a> {
    /// The context of `program`'s run; `timing` and `count_checks` as `--timing` and
    /// `--count-checks` ask.
    pub fn new(
        report: &'a KernelReport,
        program: &'a CheckedProgram,
        run: &'a CheckedRun,
        backend: &'static str,
        timing: bool,
        count_checks: bool,
    ) -> Self {
        Context {
            report,
            plan: program.kernel_plan(),
            run,
            mode: program.mode,
            backend,
            measured: Measured {
                run_ms: timing.then_some(run.run_time.as_secs_f64() * 1e3),
                executed_checks: count_checks.then_some(run.log.checks),
            },
        }
    }

    /// Exit status 1: a race the analysis proved or the run found, or a fault.
    pub fn has_problem(&self) -> bool {
        self.report.has_problem()
            || !self.run.log.races.is_empty()
            || !self.run.result.faults.is_empty()
    }
}

impl Context<'_> {
    pub fn site(&self, id: u32) -> Option<&PlannedSite> {
        self.plan?.instrumented.iter().find(|s| s.id == id)
    }

    pub fn thread(&self, tid: u32) -> [u32; 3] {
        let [bx, by, _] = self.run.result.block;
        [tid % bx, (tid / bx) % by, tid / (bx * by)]
    }

    fn place(&self, r: &Race) -> (Option<String>, Option<u64>) {
        match race_log::locate(&self.run.window, r.offset as u64) {
            Some((name, off)) => (
                Some(name.trim_end_matches(" (extern __shared__)").to_string()),
                Some(off),
            ),
            None => (None, None),
        }
    }

    pub fn races(&self) -> Vec<RunRace<'_>> {
        // Statement pairs first (by scope and site ids), then flag races by scope and array.
        let mut groups: BTreeMap<GroupKey, (RunRace, BTreeSet<u64>)> = BTreeMap::new();
        for r in &self.run.log.races {
            let (array, byte_offset) = self.place(r);
            let key = match r.accesses {
                Some([a, b]) => (r.scope, Some((a.min(b), a.max(b))), None),
                None => (r.scope, None, array.clone()),
            };
            let (e, bytes) = groups.entry(key).or_insert_with(|| {
                (
                    RunRace {
                        first: r,
                        array,
                        byte_offset,
                        bytes: 0,
                        occurrences: 0,
                    },
                    BTreeSet::new(),
                )
            });
            e.occurrences += 1;
            bytes.extend(r.offset as u64..(r.offset + r.len) as u64);
            // A flag race is witnessed by its lowest byte.
            if r.accesses.is_none() && r.offset < e.first.offset {
                e.first = r;
                e.byte_offset = self.place(r).1;
            }
        }
        groups
            .into_values()
            .map(|(mut e, bytes)| {
                e.bytes = bytes.len() as u64;
                e
            })
            .collect()
    }

    fn instrumented_accesses(&self) -> usize {
        self.plan.map_or(0, |p| {
            p.instrumented
                .iter()
                .flat_map(|s| &s.accesses)
                .collect::<BTreeSet<_>>()
                .len()
        })
    }

    /// Why the run does not vouch for the absence of other races.
    pub fn incomplete(&self) -> Vec<String> {
        let log = &self.run.log;
        let mut why = Vec::new();
        if log.log_overflow {
            why.push(format!(
                "the race log overflowed: {} races found, {} kept",
                log.found, self.run.layout.log_capacity
            ));
        }
        if log.window_overflow {
            why.push(format!(
                "an access fell outside the {} bytes of shared memory the flag bitmaps cover \
                 (the device laid shared memory out beyond what it announced): it was not \
                 checked",
                self.run.layout.window_bytes
            ));
        }
        if log.table_overflow {
            why.push(format!(
                "a BlockStmtTable overflowed ({} rows per barrier interval): some accesses \
                 were not checked",
                self.run.layout.rows
            ));
        }
        if !self.run.result.faults.is_empty() {
            why.push("the kernel faulted: checking stopped there".to_string());
        }
        why
    }
}

pub fn json<'a>(ctx: &'a Context) -> json::KernelRun<'a> {
    let r = ctx.report;
    let res = &ctx.run.result;
    let log = &ctx.run.log;
    let mut races: Vec<json::Race> = r
        .races
        .iter()
        .map(|race| {
            let w = &race.witness;
            json::Race::Analysis {
                race,
                found_by: "analysis",
                array: &w.array,
                byte_offset: w.byte_offset,
                blocks: w.blocks,
                threads: w.threads,
                warps: w.warps,
                lines: [race.first.line, race.second.line],
            }
        })
        .collect();
    races.extend(
        ctx.races()
            .into_iter()
            .map(|rr| json::Race::Run(run_race(ctx, rr))),
    );
    let mut divergence: Vec<json::Divergence> = r
        .barrier_divergence
        .iter()
        .map(|d| json::Divergence::Analysis {
            divergence: d,
            found_by: "analysis",
        })
        .collect();
    divergence.extend(json::fault_divergences(&res.faults, Some("run")));
    let incomplete = ctx.incomplete();
    json::KernelRun {
        file: r.file.clone(),
        name: &r.name,
        assumptions: json::RunAssumptions::Analysis(&r.assumptions),
        mode: ctx.mode.name(),
        backend: ctx.backend,
        checked_warp_model: Some("lockstep"),
        instrumented_accesses: ctx.instrumented_accesses(),
        complete: incomplete.is_empty(),
        incomplete: Some(incomplete),
        unchecked: ctx.plan.map(|p| &p.unchecked[..]),
        summary: json::Summary {
            r_stmt: log.r_stmt,
            r_mem: log.r_mem,
            r_thd: log.r_thd,
            r_wp: log.r_wp,
        },
        accesses: Some(&r.accesses),
        left_to_run: &r.left_to_run,
        races,
        barrier_divergence: divergence,
        memory_errors: json::memory_errors(&res.faults),
        faults: &res.faults,
        steps: res.steps,
        thread_instructions: res.thread_instructions,
        printf_truncated: None,
        warnings: &res.warnings,
        measured: ctx.measured,
    }
}

/// A logged race with what the mode knows of it: threads, and the statements' sites.
fn run_race<'a>(ctx: &'a Context, rr: RunRace<'_>) -> json::RunRace<'a> {
    let f = rr.first;
    let side = |id: u32, kind: race_log::Kind| {
        let site = ctx.site(id);
        json::RunAccess {
            site: id,
            accesses: site.map(|s| &s.accesses[..]),
            line: site.map(|s| s.line),
            column: site.map(|s| s.column),
            kind: kind.name(),
        }
    };
    let statements = f.accesses.zip(f.kinds);
    let lines = f.accesses.and_then(|ids| match ids.map(|id| ctx.site(id)) {
        [Some(a), Some(b)] => Some([a.line, b.line]),
        _ => None,
    });
    json::RunRace {
        found_by: "run",
        certainty: "definite",
        scope: f.scope.name(),
        space: "shared",
        array: rr.array,
        byte_offset: rr.byte_offset,
        bytes: rr.bytes,
        blocks: [f.block, f.block],
        warps: f.warps,
        occurrences: rr.occurrences,
        threads: f.threads.map(|[a, b]| [ctx.thread(a), ctx.thread(b)]),
        lines: statements.and(lines),
        first: statements.map(|(ids, kinds)| side(ids[0], kinds[0])),
        second: statements.map(|(ids, kinds)| side(ids[1], kinds[1])),
    }
}

fn triple(t: [u32; 3]) -> String {
    format!("({},{},{})", t[0], t[1], t[2])
}

pub fn text(ctx: &Context, quiet: bool) -> String {
    let mut s = String::new();
    let file = &ctx.report.file;
    let races = ctx.races();
    for rr in &races {
        let f = rr.first;
        let place = format!(
            "shared memory `{}`, byte {}",
            rr.array.as_deref().unwrap_or("?"),
            rr.byte_offset
                .map_or_else(|| format!("{} of the window", f.offset), |o| o.to_string())
        );
        let title = format!(
            "{} race found by the run ({} mode) on {place}, block {}",
            f.scope.name(),
            ctx.mode.name(),
            triple(f.block)
        );
        let marks: Vec<(u32, u32, String)> = match (f.accesses, f.threads, f.kinds) {
            (Some(ids), Some(tids), Some(kinds)) => ids
                .iter()
                .zip(tids)
                .zip(kinds)
                .filter_map(|((id, tid), kind)| {
                    let site = ctx.site(*id)?;
                    Some((
                        site.line,
                        site.column,
                        format!("{} by thread {}", kind.name(), triple(ctx.thread(tid))),
                    ))
                })
                .collect(),
            _ => Vec::new(),
        };
        if marks.is_empty() {
            s.push_str(&format!("error: {title}\n"));
        } else {
            s.push_str(&render::excerpt(&title, true, file, &marks));
            s.push('\n');
        }
        s.push_str(&format!(
            "  warps {} and {}; {} racy byte{}, {} occurrence{} in the log\n\n",
            f.warps[0],
            f.warps[1],
            rr.bytes,
            if rr.bytes == 1 { "" } else { "s" },
            rr.occurrences,
            if rr.occurrences == 1 { "" } else { "s" },
        ));
    }
    for f in &ctx.run.result.faults {
        s.push_str(&render_fault(f, &|file, line| {
            crate::render::source_text(file)?
                .lines()
                .nth(line.checked_sub(1)? as usize)
                .map(str::to_string)
        }));
    }
    s.push_str(&warnings_text(&ctx.run.result));
    if let Some(p) = ctx.plan {
        for u in &p.unchecked {
            if !quiet {
                s.push_str(&format!(
                    "note: {} of `{}` at line {}:{} is not checked: {}\n",
                    u.kind,
                    u.array.as_deref().unwrap_or("?"),
                    u.line,
                    u.column,
                    u.reason
                ));
            }
        }
    }
    let incomplete = ctx.incomplete();
    for why in &incomplete {
        s.push_str(&format!("warning: the check is incomplete: {why}\n"));
    }
    if !quiet {
        let log = &ctx.run.log;
        let res = &ctx.run.result;
        s.push_str(&format!(
            "kernel `{}` on {}, {} mode: {} instrumented access{}; races: {} found by the run, \
             {} by the analysis; R-Stmt {}, R-Mem {}, R-Thd {}, R-Wp {}{}{}; {}\n",
            ctx.report.name,
            ctx.backend,
            ctx.mode.name(),
            ctx.instrumented_accesses(),
            if ctx.instrumented_accesses() == 1 {
                ""
            } else {
                "es"
            },
            races.len(),
            ctx.report.races.len(),
            log.r_stmt,
            log.r_mem,
            log.r_thd,
            log.r_wp,
            // A GPU does not count instructions.
            if ctx.backend == "emu" {
                format!("; {} thread-instructions", res.thread_instructions)
            } else {
                String::new()
            },
            ctx.measured.text(),
            if incomplete.is_empty() {
                "complete"
            } else {
                "incomplete"
            }
        ));
    }
    s
}

/// The device's warnings, one line each, in the text reports of plain and checked runs.
pub fn warnings_text(r: &RunResult) -> String {
    r.warnings
        .iter()
        .map(|w| format!("warning: {w}\n"))
        .collect()
}
