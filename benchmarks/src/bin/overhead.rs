//! Overhead of the dynamic checkers on the CPU device (issue 5's targets), on non-racy inputs:
//! every race-free (`_fixed`) corpus kernel with a launch spec in `tests/kernels/device/`.
//!
//! `cargo run --release -p gmrace-benchmarks --bin overhead [-- --repeat N] [--only NAME]`
//!
//! Per kernel: executed thread-instructions and wall time of the device run (parsing, analysis
//! and instrumentation excluded) for `off`, `flag` and `stmt` with static pruning, and the
//! static and dynamic reduction of pruning against `--all`: instrumented sites, and executed
//! checks (warp-level `__gmrace_at` calls, counted in a separate run compiled with
//! `GMRACE_COUNT_CHECKS` so that counting does not inflate the timed runs), and the cost of
//! checking everything: thread-instructions of `flag --all` and `stmt --all` (from counting
//! runs, so one more atomic per check than a plain `--all` run). Ratios are against
//! `off`; the last row is their geometric mean.
//!
//! Wall times are the fastest of `--repeat` runs (default 20) of each configuration, taken in
//! turns, all with blocks run in order on one thread. The file is analysed and instrumented
//! once; each timed run, plain or checked, is the device run alone on an already parsed module
//! (a checked run's includes setting up and reading back its runtime buffer), so that every
//! configuration is timed alike: warm, and after the same work.

use gmrace::pipeline::{self, Checked, Prepared, Request};
use gmrace_analyzer::analysis::WarpModel;
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::{CheckedRun, Mode};
use gmrace_runtime_cuda::{Device, RunOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

struct Row {
    name: String,
    off: (u64, Duration),
    flag: (u64, Duration),
    stmt: (u64, Duration),
    sites: (usize, usize),
    checks: (u64, u64),
    /// Thread-instructions of the `--all` flag- and stmt-mode runs (the counting runs: one
    /// more atomic per check).
    all_flag: u64,
    all_stmt: u64,
}

fn corpus() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir(root.join("device")) else {
        return out;
    };
    let mut specs: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    specs.sort();
    for spec in specs {
        let first = std::fs::read_to_string(&spec)
            .ok()
            .and_then(|t| t.lines().next().map(str::to_string))
            .unwrap_or_default();
        if let Some(rel) = first
            .strip_prefix("# ")
            .and_then(|l| l.split([' ', ':']).next())
            .filter(|r| r.starts_with("analysis/") && !r.contains("_race"))
        {
            out.push((root.join(rel), spec));
        }
    }
    out
}

fn request<'a>(
    cu: &'a Path,
    front: &'a FrontendOptions,
    spec: &'a LaunchSpec,
    mode: Mode,
    all: bool,
) -> Request<'a> {
    Request {
        all,
        run: one_thread(),
        ..Request::new(cu, front, spec, mode)
    }
}

fn clean(cu: &Path, run: &CheckedRun) -> Result<(), String> {
    if !run.result.faults.is_empty() || !run.log.races.is_empty() {
        return Err(format!("{}: not a clean, race-free run", cu.display()));
    }
    Ok(())
}

/// A counting run (`GMRACE_COUNT_CHECKS`): executed checks and thread-instructions.
fn counted(cu: &Path, spec: &LaunchSpec, mode: Mode, all: bool) -> Result<Checked, String> {
    let front = FrontendOptions {
        defines: vec![(pipeline::COUNT_CHECKS.to_string(), Some("1".to_string()))],
        ..FrontendOptions::default()
    };
    let c = pipeline::check(request(cu, &front, spec, mode, all))
        .map_err(|_| format!("{}: the checked run failed", cu.display()))?;
    clean(cu, &c.run)?;
    Ok(c)
}

/// The fastest of `repeat` runs of each configuration, taken in turns so that all of them
/// meet the same machine; thread-instructions are the same in every run.
fn fastest<const N: usize>(
    repeat: u32,
    mut configs: [&mut dyn FnMut() -> Result<(u64, Duration), String>; N],
) -> Result<[(u64, Duration); N], String> {
    let mut best = [(0, Duration::MAX); N];
    for _ in 0..repeat.max(1) {
        for (b, run) in best.iter_mut().zip(configs.iter_mut()) {
            let (instr, time) = run()?;
            *b = (instr, b.1.min(time));
        }
    }
    Ok(best)
}

fn measure(cu: &Path, spec_path: &Path, repeat: u32) -> Result<Row, String> {
    let spec = LaunchSpec::read(spec_path).map_err(|e| e.to_string())?;
    let front = FrontendOptions::default();
    let module = frontend::parse_file(cu, &front)
        .map_err(|_| format!("{}: does not parse", cu.display()))?;
    let launch = spec.resolve(&module).map_err(|e| e.to_string())?;
    let analysed = pipeline::analyse(cu, &front, &spec, WarpModel::Its)
        .map_err(|_| format!("{}: the analysis failed", cu.display()))?;
    let flag_req = request(cu, &front, &spec, Mode::Flag, false);
    let stmt_req = request(cu, &front, &spec, Mode::Stmt, false);
    let prepare = |req: &Request| {
        pipeline::prepare(analysed.clone(), req)
            .map_err(|_| format!("{}: the instrumentation failed", cu.display()))
    };
    let (flag_p, stmt_p) = (prepare(&flag_req)?, prepare(&stmt_req)?);
    let checked = |p: &Prepared, req: &Request| {
        let (run, _) = p
            .run(req)
            .map_err(|_| format!("{}: the checked run failed", cu.display()))?;
        clean(cu, &run)?;
        Ok((run.result.thread_instructions, run.run_time))
    };
    let [off, flag, stmt] = fastest(
        repeat,
        [
            &mut || {
                let start = Instant::now();
                let r = CpuDevice
                    .run(&module, &launch, &one_thread())
                    .map_err(|e| e.to_string())?;
                Ok((r.thread_instructions, start.elapsed()))
            },
            &mut || checked(&flag_p, &flag_req),
            &mut || checked(&stmt_p, &stmt_req),
        ],
    )?;
    let sites = |p: &Prepared| p.program.kernel_plan().map_or(0, |k| k.instrumented.len());
    let pruned = counted(cu, &spec, Mode::Flag, false)?;
    let all = counted(cu, &spec, Mode::Flag, true)?;
    let all_stmt = counted(cu, &spec, Mode::Stmt, true)?;
    Ok(Row {
        name: cu
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        off,
        flag,
        stmt,
        sites: (
            sites(&flag_p),
            all.plan().map_or(0, |p| p.instrumented.len()),
        ),
        checks: (pruned.run.log.checks, all.run.log.checks),
        all_flag: all.run.result.thread_instructions,
        all_stmt: all_stmt.run.result.thread_instructions,
    })
}

/// Blocks in order on one thread: the checked runs touch shared words of the runtime buffer
/// that would make the device fall back to that anyway, so all runs are timed alike.
fn one_thread() -> RunOptions {
    RunOptions {
        threads: Some(1),
        ..RunOptions::default()
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    a as f64 / b.max(1) as f64
}

fn dratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

fn geomean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    (xs.iter().map(|x| x.max(1e-9).ln()).sum::<f64>() / xs.len() as f64).exp()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let repeat: u32 = opt("--repeat").and_then(|r| r.parse().ok()).unwrap_or(20);
    let only = opt("--only");
    let mut rows = Vec::new();
    let mut status = ExitCode::SUCCESS;
    for (cu, spec) in corpus() {
        let name = cu
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        match measure(&cu, &spec, repeat) {
            Ok(r) => rows.push(r),
            Err(e) => {
                eprintln!("skipped: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    println!(
        "| kernel | off thr-instr | flag x | stmt x | off µs | flag x (wall) | stmt x (wall) | \
         sites pruned/all | checks pruned/all | flag --all x | stmt --all x |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut cols: [Vec<f64>; 6] = Default::default();
    for r in &rows {
        let x = [
            ratio(r.flag.0, r.off.0),
            ratio(r.stmt.0, r.off.0),
            dratio(r.flag.1, r.off.1),
            dratio(r.stmt.1, r.off.1),
            ratio(r.all_flag, r.off.0),
            ratio(r.all_stmt, r.off.0),
        ];
        for (c, v) in cols.iter_mut().zip(x) {
            c.push(v);
        }
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.0} | {:.2} | {:.2} | {}/{} | {}/{} | {:.2} | {:.2} |",
            r.name,
            r.off.0,
            x[0],
            x[1],
            r.off.1.as_secs_f64() * 1e6,
            x[2],
            x[3],
            r.sites.0,
            r.sites.1,
            r.checks.0,
            r.checks.1,
            x[4],
            x[5]
        );
    }
    println!(
        "| geometric mean | | {:.2} | {:.2} | | {:.2} | {:.2} | | | {:.2} | {:.2} |",
        geomean(&cols[0]),
        geomean(&cols[1]),
        geomean(&cols[2]),
        geomean(&cols[3]),
        geomean(&cols[4]),
        geomean(&cols[5])
    );
    status
}
