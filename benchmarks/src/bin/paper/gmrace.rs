//! Runs the `gmrace` binary and reads its JSON (DESIGN.md's interface, nothing else, plus the
//! `run_ms`/`executed_checks` that `--timing`/`--count-checks` add) into `RunOutcome` and
//! `AnalyzeOutcome`. This is the evaluation's API boundary.

use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// GMRace's counts (DESIGN.md: `summary`).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Summary {
    pub r_stmt: u64,
    pub r_mem: u64,
    pub r_thd: u64,
    pub r_wp: u64,
}

/// One `gmrace run --format json` of one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct RunOutcome {
    pub exit: i32,
    /// Best wall time of the whole process over the repeats (parse, analysis, instrumentation
    /// and the device run).
    pub wall_ms: f64,
    /// Best wall time of the device run alone (`run_ms` of `--timing`).
    pub run_ms: f64,
    /// Checks the runtime executed (`executed_checks` of a separate `--count-checks` run: the
    /// counting atomics stay out of the timed and instruction-counted runs).
    pub executed_checks: u64,
    pub thread_instructions: u64,
    pub instrumented_accesses: u64,
    pub complete: bool,
    pub unchecked: usize,
    pub races_by_analysis: usize,
    pub races_by_run: usize,
    pub summary: Summary,
    pub block: Vec<u64>,
    pub grid: Vec<u64>,
    /// Integer scalar arguments the analysis assumed (from the launch spec).
    pub params: Vec<(String, i64)>,
}

/// One `gmrace analyze --format json` of one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeOutcome {
    pub wall_ms: f64,
    /// The analysis's own solver time (`stats.solver_ms`), when the JSON gives it.
    pub solver_ms: Option<u64>,
    pub safe: usize,
    pub racy: usize,
    pub unknown: usize,
    pub races: usize,
}

pub struct Gmrace {
    pub binary: PathBuf,
    pub repeat: u32,
}

impl Gmrace {
    /// Runs `args` `repeat` times (at least once); the last output, the best wall time, and the
    /// best `run_ms` when the output gives one.
    fn json(&self, args: &[String], repeat: u32) -> Result<(i32, Value, f64, f64), String> {
        let mut best = f64::INFINITY;
        let mut best_run = f64::INFINITY;
        let mut last = None;
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            let out = Command::new(&self.binary)
                .args(args)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
            let code = out.status.code().unwrap_or(-1);
            if code != 0 && code != 1 {
                return Err(format!(
                    "`gmrace {}` exited with {code}: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            let v: Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("`gmrace {}`: invalid JSON: {e}", args.join(" ")))?;
            if let Some(ms) = v["kernels"][0]["run_ms"].as_f64() {
                best_run = best_run.min(ms);
            }
            last = Some((code, v));
        }
        let (code, v) = last.expect("at least one repeat");
        Ok((code, v, best, best_run))
    }

    pub fn run(
        &self,
        file: &Path,
        launch: &Path,
        mode: &str,
        all: bool,
        repeat: u32,
    ) -> Result<RunOutcome, String> {
        let mut args = vec![
            "run".to_string(),
            file.display().to_string(),
            "--launch".into(),
            launch.display().to_string(),
            "--mode".into(),
            mode.into(),
            "--backend".into(),
            "emu".into(),
            "--format".into(),
            "json".into(),
        ];
        if all {
            args.push("--all".into());
        }
        let (_, counted, _, _) = self.json(&[&args[..], &["--count-checks".into()]].concat(), 1)?;
        let executed_checks = only_kernel(&counted)?["executed_checks"]
            .as_u64()
            .ok_or("`--count-checks` gave no `executed_checks`")?;
        args.push("--timing".into());
        let (exit, v, wall_ms, run_ms) = self.json(&args, repeat)?;
        if !run_ms.is_finite() {
            return Err("`--timing` gave no `run_ms`".into());
        }
        let k = only_kernel(&v)?;
        let races = k["races"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        let by = |who: &str| races.iter().filter(|r| r["found_by"] == who).count();
        let s = &k["summary"];
        Ok(RunOutcome {
            exit,
            wall_ms,
            run_ms,
            executed_checks,
            thread_instructions: k["thread_instructions"].as_u64().unwrap_or(0),
            instrumented_accesses: k["instrumented_accesses"].as_u64().unwrap_or(0),
            complete: k["complete"].as_bool().unwrap_or(false),
            unchecked: k["unchecked"].as_array().map_or(0, Vec::len),
            races_by_analysis: by("analysis"),
            races_by_run: by("run"),
            summary: Summary {
                r_stmt: s["r_stmt"].as_u64().unwrap_or(0),
                r_mem: s["r_mem"].as_u64().unwrap_or(0),
                r_thd: s["r_thd"].as_u64().unwrap_or(0),
                r_wp: s["r_wp"].as_u64().unwrap_or(0),
            },
            block: dims(&k["assumptions"]["block"]),
            grid: dims(&k["assumptions"]["grid"]),
            params: k["assumptions"]["params"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .filter_map(|(n, v)| Some((n.clone(), v.as_i64()?)))
                        .collect()
                })
                .unwrap_or_default(),
        })
    }

    /// Analyses `file` under the launch a run reported (dimensions and integer arguments): the
    /// same assumptions as the run's own analysis.
    pub fn analyze(&self, file: &Path, run: &RunOutcome) -> Result<AnalyzeOutcome, String> {
        let join = |d: &[u64]| d.iter().map(u64::to_string).collect::<Vec<_>>().join("x");
        let mut args = vec![
            "analyze".to_string(),
            file.display().to_string(),
            "--block".into(),
            join(&run.block),
            "--grid".into(),
            join(&run.grid),
            "--format".into(),
            "json".into(),
            "--timing".into(),
        ];
        for (name, value) in &run.params {
            args.push("--param".into());
            args.push(format!("{name}={value}"));
        }
        let (_, v, wall_ms, _) = self.json(&args, self.repeat)?;
        let k = only_kernel(&v)?;
        let accesses = k["accesses"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        let verdicts = |want: &str| accesses.iter().filter(|a| a["verdict"] == want).count();
        Ok(AnalyzeOutcome {
            wall_ms,
            solver_ms: k["stats"]["solver_ms"].as_u64(),
            safe: verdicts("safe"),
            racy: verdicts("racy"),
            unknown: verdicts("unknown"),
            races: k["races"].as_array().map_or(0, Vec::len),
        })
    }
}

fn only_kernel(v: &Value) -> Result<&Value, String> {
    match v["kernels"].as_array().map(Vec::as_slice) {
        Some([k]) => Ok(k),
        _ => Err("expected exactly one kernel in the JSON report".into()),
    }
}

fn dims(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}
