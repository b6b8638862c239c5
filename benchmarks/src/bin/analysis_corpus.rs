//! `analysis-corpus DIR... [--expect] [--rlimit N] [--budget N] [--free-launch] [--json FILE]`:
//! runs gmrace's static analysis over every `.cu` file below the given directories and reports
//! its verdicts and times (see `../../README.md`). `--free-launch` ignores the dimensions the
//! files state (header comments, launches), as for a user's unannotated code.
//!
//! Each file is parsed with the front end (timed: clang parse and lowering), then every kernel is
//! analysed with default options, so the launch comes from the file (GPUVerify header or a
//! constant launch). With `--expect`, line 1 of each file (`//pass`, `//xfail:...`) says whether
//! a race or barrier divergence is expected, and the report compares; a file without that tag
//! named `race_*.cu` / `norace_*.cu` (ScoR's microbenchmarks) is `//xfail` / `//pass`.
//!
//! A file whose header says `--warp-sync=32` (GPUVerify: warps of 32 threads run in lockstep,
//! which its expectation assumes) is analysed under `--warp-model lockstep`, the others under
//! `its`; `--warp-model its|lockstep` analyses every file under one model instead.

use gmrace_analyzer::analysis::{
    analyze_kernel, AnalysisOptions, Engine, KernelReport, Stats, Verdict, WarpModel,
};
use gmrace_analyzer::frontend::{parse_file, FrontendOptions};
use gmrace_analyzer::ir::Module;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Accesses of one memory space: `[safe, racy, unknown]`.
type Counts = [u64; 3];

#[derive(Serialize)]
struct Problem {
    /// `race` or `divergence`.
    kind: &'static str,
    /// Race scope and space (`inter-warp shared`); empty for divergence.
    scope: String,
    /// Lines and columns of the two accesses, or of the barrier.
    lines: Vec<u32>,
    columns: Vec<u32>,
}

#[derive(Serialize)]
struct KernelResult {
    name: String,
    /// `analyzed`, `invalid configuration: ...` or `panic: ...`.
    status: String,
    analysis_ms: f64,
    /// Pair and solver counts; queries that ran out of time leave their pair `unknown`.
    stats: Stats,
    accesses: BTreeMap<&'static str, Counts>,
    problems: Vec<Problem>,
}

#[derive(Serialize)]
struct FileResult {
    corpus: String,
    path: String,
    /// Line 1's tag, lower case, before any `:` (`pass`, `xfail`).
    expect: Option<String>,
    /// `--warp-sync=N` from the header: GPUVerify assumed lockstep warps of N threads.
    warp_sync: Option<String>,
    /// The model the file was analysed under.
    warp_model: WarpModel,
    /// Not analysed: named by `--skip`.
    skipped: bool,
    parse_ms: f64,
    parse_error: Option<String>,
    kernels: Vec<KernelResult>,
}

impl FileResult {
    fn analysis_ms(&self) -> f64 {
        self.kernels.iter().map(|k| k.analysis_ms).sum()
    }
    /// Why the file has no kernels to show: a parse error, or `--skip`.
    fn unparsed(&self) -> Option<String> {
        let skip = self.skipped.then(|| "skipped (--skip)".to_string());
        let parse = self
            .parse_error
            .as_ref()
            .map(|e| format!("parse error: {e}"));
        skip.or(parse)
    }
    fn analyzed(&self) -> bool {
        self.kernels.iter().any(|k| k.status == "analyzed")
    }
    fn problems(&self) -> impl Iterator<Item = (&KernelResult, &Problem)> {
        self.kernels
            .iter()
            .flat_map(|k| k.problems.iter().map(move |p| (k, p)))
    }
}

#[derive(Serialize)]
struct Summary {
    corpus: String,
    files: usize,
    kernels: usize,
    skipped: usize,
    parse_errors: usize,
    invalid_configs: usize,
    panics: usize,
    accesses: BTreeMap<&'static str, Counts>,
    shared_safe_percent: f64,
    kernels_racy: usize,
    kernels_divergent: usize,
    queries: u64,
    timeouts: u64,
    /// Queries not asked because a kernel's solver budget was spent.
    over_budget: u64,
    pairs: u64,
    /// Pairs settled by running every thread of a fixed launch.
    pairs_exhaustive: u64,
    /// Pairs of shared accesses after disjoint barriers: no query.
    pairs_separated: u64,
    /// Queries answered by good_lp (`--solver ilp`).
    ilp_answers: u64,
    /// Over files with at least one analysed kernel.
    analysis_total_ms: f64,
    analysis_median_ms: f64,
    analysis_p99_ms: f64,
    kernel_median_ms: f64,
    kernel_p99_ms: f64,
    parse_median_ms: f64,
    /// Median analysis time over median parse time, both over the analysed files.
    analysis_parse_ratio: f64,
}

#[derive(Serialize)]
struct Report {
    /// Files analysed at a time, and the time the whole run took.
    jobs: usize,
    wall_ms: f64,
    summaries: Vec<Summary>,
    files: Vec<FileResult>,
}

fn main() {
    let mut dirs = Vec::new();
    let mut json = None;
    let mut expect = false;
    let mut skip = Vec::new();
    let mut jobs = 1;
    let mut opts = AnalysisOptions::default();
    // `None`: each file's header chooses.
    let mut model = None;
    let mut free_launch = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = Some(args.next().unwrap_or_else(|| usage())),
            "--expect" => expect = true,
            "--skip" => skip.push(args.next().unwrap_or_else(|| usage())),
            "--jobs" => {
                jobs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--first-round" => {
                let v = args.next().and_then(|v| v.parse().ok());
                opts.first_round_work = v.unwrap_or_else(|| usage());
            }
            "--rlimit" => {
                let v = args.next().and_then(|v| v.parse().ok());
                opts.query_work = v.unwrap_or_else(|| usage());
            }
            "--budget" => {
                let v = args.next().and_then(|v| v.parse().ok());
                opts.kernel_work = v.unwrap_or_else(|| usage());
            }
            "--symbolic-only" => opts.exhaustive = false,
            "--free-launch" => free_launch = true,
            "--warp-model" => {
                model = match args.next().as_deref() {
                    Some("its") => Some(WarpModel::Its),
                    Some("lockstep") => Some(WarpModel::Lockstep),
                    _ => usage(),
                }
            }
            "--solver" => {
                opts.solver = match args.next().as_deref() {
                    Some("z3") => Engine::Z3,
                    Some("ilp") => Engine::Ilp,
                    _ => usage(),
                }
            }
            "--timeout-ms" => {
                let v = args.next().and_then(|v| v.parse().ok());
                opts.timeout_ms = v.unwrap_or_else(|| usage());
            }
            _ if a.starts_with('-') => usage(),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    if dirs.is_empty() {
        usage();
    }
    let mut work = Vec::new();
    for dir in &dirs {
        let mut found = Vec::new();
        find_cu(dir, &mut found);
        found.sort();
        work.extend(found.into_iter().map(|p| (dir.display().to_string(), p)));
    }
    let start = Instant::now();
    let files = run_all(&work, jobs, |(corpus, path)| {
        let f = if skip.iter().any(|s| path.ends_with(s)) {
            skipped(corpus.clone(), path)
        } else {
            run_one(corpus.clone(), path, &opts, model, free_launch)
        };
        eprintln!(
            "{}: parse {:.0} ms, analysis {:.0} ms",
            f.path,
            f.parse_ms,
            f.analysis_ms()
        );
        f
    });
    let wall_ms = ms(start);
    let mut summaries = Vec::new();
    if dirs.len() > 1 {
        for d in &dirs {
            let name = d.display().to_string();
            summaries.push(summary(
                name.clone(),
                files.iter().filter(|f| f.corpus == name),
            ));
        }
    }
    summaries.push(summary("total".into(), files.iter()));
    let report = Report {
        jobs,
        wall_ms,
        summaries,
        files,
    };
    print!("{}", markdown(&report, expect));
    if let Some(out) = json {
        let text = serde_json::to_string_pretty(&report).expect("report serialises");
        if let Err(e) = std::fs::write(&out, text + "\n") {
            eprintln!("analysis-corpus: cannot write `{out}`: {e}");
            std::process::exit(1);
        }
    }
}

/// `f` over every item on `jobs` threads (parsing is serialised by the front end's lock;
/// analyses run in parallel), results in the items' order.
fn run_all<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        done.push((i, f(item)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker catches panics"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

fn usage() -> ! {
    eprintln!(
        "usage: analysis-corpus DIR... [--expect] [--jobs N] [--solver z3|ilp] [--rlimit N] \
         [--first-round N] [--budget N] [--timeout-ms N] [--symbolic-only] [--free-launch] \
         [--warp-model its|lockstep] \
         [--skip FILE]... [--json FILE]"
    );
    std::process::exit(2);
}

fn find_cu(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("analysis-corpus: cannot read directory `{}`", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => find_cu(&path, out),
            Ok(t) if t.is_file() && path.extension().is_some_and(|e| e == "cu") => out.push(path),
            _ => {}
        }
    }
}

/// The expectation tag on line 1 and a `--warp-sync` flag among the leading comment lines.
fn header(path: &Path) -> (Option<String>, Option<String>) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines().map_while(|l| l.trim().strip_prefix("//"));
    let tag = lines.next().and_then(|l| {
        let word = l.split([':', ' ']).next()?.trim();
        (!word.is_empty() && !word.starts_with('-')).then(|| word.to_lowercase())
    });
    // ScoR's scoped-race microbenchmarks say it in the name: `race_*.cu`, `norace_*.cu`.
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let expect = tag.or_else(|| match name.split('_').next() {
        Some("race") => Some("xfail".into()),
        Some("norace") => Some("pass".into()),
        _ => None,
    });
    let warp_sync = text
        .lines()
        .take(8)
        .map_while(|l| l.trim().strip_prefix("//"))
        .flat_map(str::split_whitespace)
        .find(|w| w.starts_with("--warp-sync"))
        .map(str::to_string);
    (expect, warp_sync)
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| p.downcast_ref::<&str>().copied())
        .unwrap_or("?")
        .to_string()
}

fn skipped(corpus: String, path: &Path) -> FileResult {
    let (expect, warp_sync) = header(path);
    FileResult {
        corpus,
        path: path.display().to_string(),
        expect,
        warp_model: match warp_sync.as_deref() {
            Some("--warp-sync=32") => WarpModel::Lockstep,
            _ => WarpModel::Its,
        },
        warp_sync,
        skipped: true,
        parse_ms: 0.0,
        parse_error: None,
        kernels: Vec::new(),
    }
}

fn run_one(
    corpus: String,
    path: &Path,
    opts: &AnalysisOptions,
    model: Option<WarpModel>,
    free_launch: bool,
) -> FileResult {
    let mut result = FileResult {
        skipped: false,
        ..skipped(corpus, path)
    };
    result.warp_model = model.unwrap_or(result.warp_model);
    let opts = &AnalysisOptions {
        warp_model: result.warp_model,
        ..opts.clone()
    };
    let start = Instant::now();
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        parse_file(path, &FrontendOptions::default())
    }));
    result.parse_ms = ms(start);
    let mut module = match parsed {
        Ok(Ok(m)) => m,
        Ok(Err(e)) => {
            let first = e.diagnostics.first().map(|d| d.message.clone());
            result.parse_error = Some(first.unwrap_or_else(|| "error without a message".into()));
            return result;
        }
        Err(p) => {
            result.parse_error = Some(format!("panic: {}", panic_message(&*p)));
            return result;
        }
    };
    if free_launch {
        forget_launches(&mut module);
    }
    for k in &module.kernels {
        let start = Instant::now();
        let analysed = catch_unwind(AssertUnwindSafe(|| analyze_kernel(&module, k, opts)));
        let analysis_ms = ms(start);
        let (status, report) = match analysed {
            Ok(Ok(r)) => ("analyzed".to_string(), Some(r)),
            Ok(Err(e)) => (format!("invalid configuration: {}", e.message), None),
            Err(p) => (format!("panic: {}", panic_message(&*p)), None),
        };
        let (accesses, problems) = report.as_ref().map(tally).unwrap_or_default();
        result.kernels.push(KernelResult {
            name: k.name.clone(),
            status,
            analysis_ms,
            stats: report.map(|r| r.stats).unwrap_or_default(),
            accesses,
            problems,
        });
    }
    result
}

/// What a user with unannotated code gets: no dimensions from the header comment or from the
/// file's launches.
fn forget_launches(m: &mut Module) {
    m.header.block = None;
    m.header.grid = None;
    for l in &mut m.launches {
        l.block = [None; 3];
        l.grid = [None; 3];
    }
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn tally(r: &KernelReport) -> (BTreeMap<&'static str, Counts>, Vec<Problem>) {
    let mut accesses: BTreeMap<&'static str, Counts> = BTreeMap::new();
    for a in &r.accesses {
        let i = match a.verdict {
            Verdict::Safe => 0,
            Verdict::Racy => 1,
            Verdict::Unknown => 2,
        };
        accesses.entry(a.space.name()).or_default()[i] += 1;
    }
    let races = r.races.iter().map(|race| Problem {
        kind: "race",
        scope: format!("{} {}", race.scope.name(), race.space.name()),
        lines: vec![race.first.line, race.second.line],
        columns: vec![race.first.column, race.second.column],
    });
    let divergence = r.barrier_divergence.iter().map(|d| Problem {
        kind: "divergence",
        scope: String::new(),
        lines: vec![d.line],
        columns: vec![d.column],
    });
    (accesses, races.chain(divergence).collect())
}

/// The `q`-quantile of `v` by the nearest-rank method (0 when empty).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let rank = (q * v.len() as f64).ceil() as usize;
    v.get(rank.clamp(1, v.len().max(1)) - 1)
        .copied()
        .unwrap_or(0.0)
}

fn summary<'a>(corpus: String, files: impl Iterator<Item = &'a FileResult>) -> Summary {
    let files: Vec<&FileResult> = files.collect();
    let kernels: Vec<&KernelResult> = files.iter().flat_map(|f| &f.kernels).collect();
    let analysed: Vec<&&FileResult> = files.iter().filter(|f| f.analyzed()).collect();
    let has = |k: &&KernelResult, kind: &str| k.problems.iter().any(|p| p.kind == kind);
    let mut accesses: BTreeMap<&'static str, Counts> = BTreeMap::new();
    for k in &kernels {
        for (space, c) in &k.accesses {
            let total = accesses.entry(space).or_default();
            for i in 0..3 {
                total[i] += c[i];
            }
        }
    }
    let shared = accesses.get("shared").copied().unwrap_or_default();
    let shared_total = shared.iter().sum::<u64>();
    let mut analysis: Vec<f64> = analysed.iter().map(|f| f.analysis_ms()).collect();
    let mut parse: Vec<f64> = analysed.iter().map(|f| f.parse_ms).collect();
    let mut per_kernel: Vec<f64> = kernels
        .iter()
        .filter(|k| k.status == "analyzed")
        .map(|k| k.analysis_ms)
        .collect();
    let analysis_median_ms = quantile(&mut analysis, 0.5);
    let parse_median_ms = quantile(&mut parse, 0.5);
    Summary {
        corpus,
        files: files.len(),
        kernels: kernels.len(),
        skipped: files.iter().filter(|f| f.skipped).count(),
        parse_errors: files.iter().filter(|f| f.parse_error.is_some()).count(),
        invalid_configs: kernels
            .iter()
            .filter(|k| k.status.starts_with("invalid configuration"))
            .count(),
        panics: kernels
            .iter()
            .filter(|k| k.status.starts_with("panic"))
            .count(),
        accesses,
        shared_safe_percent: if shared_total == 0 {
            0.0
        } else {
            100.0 * shared[0] as f64 / shared_total as f64
        },
        kernels_racy: kernels.iter().filter(|k| has(k, "race")).count(),
        kernels_divergent: kernels.iter().filter(|k| has(k, "divergence")).count(),
        queries: kernels.iter().map(|k| u64::from(k.stats.queries)).sum(),
        timeouts: kernels.iter().map(|k| u64::from(k.stats.timeouts)).sum(),
        over_budget: kernels.iter().map(|k| u64::from(k.stats.over_budget)).sum(),
        pairs: kernels.iter().map(|k| u64::from(k.stats.pairs)).sum(),
        pairs_exhaustive: kernels.iter().map(|k| u64::from(k.stats.exhaustive)).sum(),
        pairs_separated: kernels.iter().map(|k| u64::from(k.stats.separated)).sum(),
        ilp_answers: kernels.iter().map(|k| u64::from(k.stats.ilp_answers)).sum(),
        analysis_total_ms: analysis.iter().sum(),
        analysis_median_ms,
        analysis_p99_ms: quantile(&mut analysis, 0.99),
        kernel_median_ms: quantile(&mut per_kernel, 0.5),
        kernel_p99_ms: quantile(&mut per_kernel, 0.99),
        parse_median_ms,
        analysis_parse_ratio: if parse_median_ms > 0.0 {
            analysis_median_ms / parse_median_ms
        } else {
            0.0
        },
    }
}

fn markdown(r: &Report, expect: bool) -> String {
    let mut s = String::from(
        "| corpus | files | skipped | kernels | parse errors | invalid configs | panics | \
         kernels racy | kernels divergent | shared safe % |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for m in &r.summaries {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            m.corpus,
            m.files,
            m.skipped,
            m.kernels,
            m.parse_errors,
            m.invalid_configs,
            m.panics,
            m.kernels_racy,
            m.kernels_divergent,
            m.shared_safe_percent
        );
    }
    s += "\n| corpus | space | safe | racy | unknown |\n|---|---|--:|--:|--:|\n";
    for m in &r.summaries {
        for (space, c) in &m.accesses {
            let _ = writeln!(
                s,
                "| {} | {space} | {} | {} | {} |",
                m.corpus, c[0], c[1], c[2]
            );
        }
    }
    s += "\nTimes over the files with at least one analysed kernel (analysis of a file = sum over \
          its kernels; parse = the front end's `parse_file`, clang and lowering).\n\n\
          | corpus | analysis total | per file: median | p99 | per kernel: median | p99 | \
          median parse | median analysis / median parse | pairs | settled by running all threads | \
          after disjoint barriers | solver queries | timeouts | over budget | by good_lp |\n\
          |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
    for m in &r.summaries {
        let _ = writeln!(
            s,
            "| {} | {:.1} s | {:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms | {:.2} | {} | {} | {} | {} | {} | {} | {} |",
            m.corpus,
            m.analysis_total_ms / 1e3,
            m.analysis_median_ms,
            m.analysis_p99_ms,
            m.kernel_median_ms,
            m.kernel_p99_ms,
            m.parse_median_ms,
            m.analysis_parse_ratio,
            m.pairs,
            m.pairs_exhaustive,
            m.pairs_separated,
            m.queries,
            m.timeouts,
            m.over_budget,
            m.ilp_answers
        );
    }
    let _ = writeln!(
        s,
        "\nThe whole run (parse and analysis of every file) took {:.1} s on {} thread(s).",
        r.wall_ms / 1e3,
        r.jobs
    );
    let lockstep: Vec<&str> = r
        .files
        .iter()
        .filter(|f| f.warp_model == WarpModel::Lockstep)
        .map(|f| f.path.as_str())
        .collect();
    let _ = writeln!(
        s,
        "\nAnalysed under `lockstep`: {} file(s){}{}; the others under `its`.",
        lockstep.len(),
        if lockstep.is_empty() { "" } else { ": " },
        lockstep.join(", ")
    );
    s += "\n## Reported races and divergence\n\n";
    s += &problem_table(r.files.iter().filter(|f| f.problems().next().is_some()));
    let failed: Vec<String> = r
        .files
        .iter()
        .flat_map(|f| {
            let file = f.unparsed().map(|why| (f, "-", why));
            let kernels = f.kernels.iter().filter(|k| k.status != "analyzed");
            file.into_iter()
                .chain(kernels.map(move |k| (f, k.name.as_str(), k.status.clone())))
        })
        .map(|(f, kernel, why)| format!("| {} | {kernel} | {} |", f.path, cell(&why)))
        .collect();
    if !failed.is_empty() {
        s += "\n## Not analysed\n\n| file | kernel | why |\n|---|---|---|\n";
        s += &(failed.join("\n") + "\n");
    }
    if expect {
        s += &expectations(&r.files);
    }
    s
}

fn model_name(m: WarpModel) -> &'static str {
    match m {
        WarpModel::Its => "its",
        WarpModel::Lockstep => "lockstep",
    }
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// One row per file, kernel and kind of problem: how many, and the distinct source lines
/// (`12/11` for a race between lines 12 and 11).
fn problem_table<'a>(files: impl Iterator<Item = &'a FileResult>) -> String {
    let mut s = String::from(
        "| file | expect | warp model | kernel | kind | scope | count | lines |\n\
         |---|---|---|---|---|---|--:|---|\n",
    );
    for f in files {
        for k in &f.kernels {
            let mut groups: BTreeMap<(&str, &str), (usize, Vec<String>)> = BTreeMap::new();
            for p in &k.problems {
                let g = groups.entry((p.kind, &p.scope)).or_default();
                g.0 += 1;
                let lines: Vec<String> = p.lines.iter().map(u32::to_string).collect();
                let lines = lines.join("/");
                if !g.1.contains(&lines) {
                    g.1.push(lines);
                }
            }
            for ((kind, scope), (count, lines)) in groups {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {kind} | {scope} | {count} | {} |",
                    f.path,
                    f.expect.as_deref().unwrap_or("-"),
                    model_name(f.warp_model),
                    cell(&k.name),
                    lines.join(", ")
                );
            }
        }
    }
    s
}

fn expectations(files: &[FileResult]) -> String {
    let tagged = |tag: &'static str| {
        files
            .iter()
            .filter(move |f| f.expect.as_deref() == Some(tag))
    };
    let alarms: Vec<&FileResult> = tagged("pass")
        .filter(|f| f.problems().next().is_some())
        .collect();
    let mut s = format!(
        "\n## Expectations\n\n`//pass` files: {}, with a reported race or divergence (potential \
         false alarms, to review): {}.\n\n",
        tagged("pass").count(),
        alarms.len()
    );
    if !alarms.is_empty() {
        s += &problem_table(alarms.into_iter());
    }
    let xfail: Vec<&FileResult> = tagged("xfail").collect();
    let found = xfail
        .iter()
        .filter(|f| f.problems().next().is_some())
        .count();
    let _ = write!(
        s,
        "\n`//xfail` files: {}, with a race or divergence found: {found}. The others:\n\n\
         | file | outcome | safe | racy | unknown |\n|---|---|--:|--:|--:|\n",
        xfail.len()
    );
    for f in xfail.iter().filter(|f| f.problems().next().is_none()) {
        let mut c: Counts = [0; 3];
        for k in &f.kernels {
            for v in k.accesses.values() {
                for i in 0..3 {
                    c[i] += v[i];
                }
            }
        }
        let outcome = match (
            f.unparsed(),
            f.kernels.iter().find(|k| k.status != "analyzed"),
        ) {
            (Some(why), _) => cell(&why),
            (None, Some(k)) => cell(&k.status),
            (None, None) if f.kernels.is_empty() => "no kernel".into(),
            (None, None) if c[2] > 0 => "nothing proved racy; some accesses unknown".into(),
            (None, None) => "every access safe".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {outcome} | {} | {} | {} |",
            f.path, c[0], c[1], c[2]
        );
    }
    let other: BTreeMap<&str, usize> = files
        .iter()
        .filter_map(|f| f.expect.as_deref())
        .filter(|t| !matches!(*t, "pass" | "xfail"))
        .fold(BTreeMap::new(), |mut m, t| {
            *m.entry(t).or_default() += 1;
            m
        });
    for (tag, n) in other {
        let _ = write!(s, "\nOther tag `//{tag}`: {n} files.\n");
    }
    s
}
