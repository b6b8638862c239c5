//! The analysis corpus: racy kernels next to their fixed twins (`kernels/analysis/`).
//!
//! - No false alarm: a `//pass` kernel gets no race and no divergence, and every race or
//!   divergence reported is on lines the corpus marks `// RACE` / `// DIVERGENCE`.
//! - No false proof: a brute-force run of every thread of the launch (the oracle), with every
//!   scalar parameter 1000, 1 and 0, finds no race involving an access the analysis called
//!   `safe`; and a brute-force run of each reported race's witness launch finds that race.
//! - The verdicts match the `.analysis` file next to each kernel (`UPDATE_EXPECT=1` rewrites).
//! - Each kernel is analysed under its header's warp model (`its`, or `lockstep` for
//!   `--warp-sync=32`) with expectations, and under the other model with the soundness checks
//!   alone (under `lockstep` the `// RACE` markers too: its races are a subset of `its`'s).
//! - The engines: every solver-only run cross-checks z3 with good_lp (`Engine::CrossCheck`,
//!   whose report is z3's): no SAT/UNSAT disagreement on any query good_lp answers, no
//!   rejected good_lp model, at least 60% of each warp model's queries answered by good_lp;
//!   and with `Engine::Ilp` the same access verdicts and divergences as the `.analysis` files.
//!
//! Every kernel is analysed twice: with the default options (a fixed, small launch is run whole
//! when its threads do not depend on data) and with the solver only (`--symbolic-only`), which
//! is what a kernel without a fixed launch gets; both must pass every check.

#[path = "common/expect.rs"]
mod expect;
#[path = "common/params.rs"]
mod params;

use gmrace_analyzer::analysis::{
    self, oracle, AnalysisOptions, Certainty, Engine, KernelReport, Verdict, WarpModel, QUERY_WORK,
};
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::{AccessId, Kernel, Module, Ty};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Marks the kernels analysed with the solver only in the expectations.
const SOLVER_ONLY: &str = "solver only: ";

/// The solver only, with generous work limits: four times the default per query, and per
/// kernel a little more than one such query (the budget only decides whether a query starts).
/// No verdict of the corpus needs more: ten times as much changed none. The wall-clock safety
/// net grows with the work: at its default minute, a query that runs out of four times the
/// default work (20 s alone) hit it beside another test binary, and the verdicts compared here
/// are the work limits' (DESIGN.md, Static verdicts).
fn solver_only() -> AnalysisOptions {
    AnalysisOptions {
        timeout_ms: 10 * AnalysisOptions::default().timeout_ms,
        query_work: 4 * QUERY_WORK,
        kernel_work: 5 * QUERY_WORK as u64,
        first_round_work: 4 * QUERY_WORK,
        exhaustive: false,
        solver: Engine::CrossCheck,
        ..AnalysisOptions::default()
    }
}

/// What the cross-checked runs of one test saw of good_lp.
#[derive(Default)]
struct CrossCheck {
    queries: u32,
    affine: u32,
    declined: BTreeMap<String, u32>,
}

impl CrossCheck {
    /// good_lp agreed with z3 on every query it answered, and every model it gave is one.
    fn add(&mut self, name: &str, r: &KernelReport, failures: &mut Vec<String>) {
        let (s, model) = (&r.stats, r.assumptions.warp_model);
        self.queries += s.queries;
        self.affine += s.ilp_answers;
        for (why, n) in &s.ilp_declined {
            *self.declined.entry(why.clone()).or_default() += n;
        }
        for d in &s.disagreements {
            failures.push(format!("{name} {} ({model:?}): {d}", r.name));
        }
        if s.ilp_bad_models > 0 {
            failures.push(format!(
                "{name} {}: {} good_lp solutions are not models",
                r.name, s.ilp_bad_models
            ));
        }
    }

    /// Most queries are affine, so that good_lp is a real second opinion.
    fn most_were_affine(&self, failures: &mut Vec<String>) {
        let (affine, queries) = (self.affine, self.queries);
        println!(
            "good_lp answered {affine} of {queries} queries; declined: {:?}",
            self.declined
        );
        if affine * 10 < queries * 6 && std::env::var_os("CORPUS_FILTER").is_none() {
            failures.push(format!(
                "only {affine} of {queries} queries were answered by good_lp: {:?}",
                self.declined
            ));
        }
    }
}

/// One corpus file, read and parsed once for every test of this binary: libclang parses one
/// file at a time in a process, so four tests parsing the corpus each would wait on each other.
struct CorpusFile {
    path: PathBuf,
    name: String,
    src: String,
    module: Module,
}

impl CorpusFile {
    fn lines(&self) -> Vec<&str> {
        self.src.lines().collect()
    }
}

/// The corpus, or with `CORPUS_FILTER=TEXT` the files whose names contain TEXT (to work on a
/// few kernels; the suite runs them all).
fn kernels() -> &'static [CorpusFile] {
    static CORPUS: OnceLock<Vec<CorpusFile>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/analysis");
        let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("corpus directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cu"))
            .filter(|p| p.to_string_lossy().contains(&filter))
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|path| CorpusFile {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into(),
                src: std::fs::read_to_string(&path).expect("read kernel"),
                module: frontend::parse_file(&path, &FrontendOptions::default())
                    .expect("corpus kernels parse"),
                path,
            })
            .collect()
    })
}

/// The model the header's verdict is under: `lockstep` where line 2 says `--warp-sync=32`, as
/// GPUVerify's flag for warps run in lockstep does.
fn warp_model(lines: &[&str]) -> WarpModel {
    match lines.get(1).is_some_and(|l| l.contains("--warp-sync=32")) {
        true => WarpModel::Lockstep,
        false => WarpModel::Its,
    }
}

fn describe(r: &KernelReport) -> String {
    let mut out = format!("kernel {}\n", r.name);
    for a in &r.accesses {
        out.push_str(
            &format!("#{} {}:{} {:?}\n", a.id, a.line, a.column, a.verdict).to_lowercase(),
        );
    }
    for race in &r.races {
        out.push_str(&format!(
            "race {} #{}@{} #{}@{}{}\n",
            race.scope.name(),
            race.first.access,
            race.first.line,
            race.second.access,
            race.second.line,
            match (race.certainty, &race.condition) {
                (Certainty::Definite, _) => String::new(),
                (Certainty::Conditional, c) =>
                    format!(" conditional ({})", c.as_deref().unwrap_or("?")),
            }
        ));
    }
    for d in &r.barrier_divergence {
        out.push_str(&format!("divergence @{}\n", d.line));
    }
    out
}

#[test]
fn analysis_corpus() {
    let files = kernels();
    assert!(
        files.len() >= 60 || std::env::var_os("CORPUS_FILTER").is_some(),
        "the analysis corpus has {} kernels",
        files.len()
    );
    let (mut failures, engines) = merged(files.par_iter().map(check_file).collect());
    engines.most_were_affine(&mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One file of `analysis_corpus`: each kernel under the default options and the solver only.
fn check_file(f: &CorpusFile) -> (Vec<String>, CrossCheck) {
    let (mut failures, mut engines) = (Vec::new(), CrossCheck::default());
    let (lines, m) = (f.lines(), &f.module);
    let mut text = String::new();
    let solver = AnalysisOptions {
        warp_model: warp_model(&lines),
        ..solver_only()
    };
    let default = AnalysisOptions {
        exhaustive: true,
        solver: Engine::Z3,
        ..solver.clone()
    };
    for (k, opts) in m
        .kernels
        .iter()
        .flat_map(|k| [(k, default.clone()), (k, solver.clone())])
    {
        let r = analysis::analyze_kernel(m, k, &opts).expect("launch is valid");
        if !opts.exhaustive {
            text.push_str(SOLVER_ONLY);
            engines.add(&f.name, &r, &mut failures);
        }
        text.push_str(&describe(&r));
        check_markers(&f.name, &r, &lines, &mut failures);
        check_with_oracle(&f.name, k, &r, &mut failures);
    }
    expect::check(&f.path.with_extension("analysis"), &text, &mut failures);
    (failures, engines)
}

/// The failures and good_lp's figures of every file, in corpus order.
fn merged(per_file: Vec<(Vec<String>, CrossCheck)>) -> (Vec<String>, CrossCheck) {
    let mut all = (Vec::new(), CrossCheck::default());
    for (failures, engines) in per_file {
        all.0.extend(failures);
        all.1.queries += engines.queries;
        all.1.affine += engines.affine;
        for (why, n) in engines.declined {
            *all.1.declined.entry(why).or_default() += n;
        }
    }
    all
}

/// No race or divergence in a `//pass` kernel, and only on the lines marked for it.
fn check_markers(name: &str, r: &KernelReport, lines: &[&str], failures: &mut Vec<String>) {
    let marked = |line: u32, mark: &str| {
        lines
            .get(line as usize - 1)
            .is_some_and(|l| l.contains(mark))
    };
    if lines.first().is_some_and(|l| l.starts_with("//pass")) && r.has_problem() {
        failures.push(format!(
            "{name}: false alarm in a //pass kernel:\n{}",
            describe(r)
        ));
    }
    for race in &r.races {
        for l in [race.first.line, race.second.line] {
            if !marked(l, "// RACE") {
                failures.push(format!("{name}: race reported on unmarked line {l}"));
            }
        }
    }
    for d in &r.barrier_divergence {
        if !marked(d.line, "// DIVERGENCE") {
            failures.push(format!(
                "{name}: divergence reported on unmarked line {}",
                d.line
            ));
        }
    }
}

/// The brute-force runs, under the report's warp model: with every scalar parameter 1000, 1
/// and 0 (a loop bound of 0 runs a loop zero times) under the launch the kernel states, no
/// access the report calls `safe` races; each reported race happens in a run of its own
/// witness's launch.
fn check_with_oracle(name: &str, k: &Kernel, r: &KernelReport, failures: &mut Vec<String>) {
    let model = r.assumptions.warp_model;
    if let (Some(block), Some(grid)) = (r.assumptions.block.all(), r.assumptions.grid.all()) {
        for value in [1000, 1, 0] {
            let params = params::every_scalar(k, value);
            let Some(real) = oracle_races(name, k, block, grid, &params, model) else {
                continue;
            };
            for (a, b) in &real {
                for id in [a, b] {
                    if r.accesses[id.index()].verdict == Verdict::Safe {
                        failures.push(format!(
                            "{name} ({model:?}): WRONG SAFE: access #{} races in a real run with \
                             parameters {value} (pair #{} #{})",
                            id.0, a.0, b.0
                        ));
                    }
                }
            }
        }
    }
    for race in &r.races {
        let w = &race.witness;
        let params: Vec<Option<u64>> = k
            .params
            .iter()
            .map(|p| {
                matches!(p.ty, Ty::Scalar(_))
                    .then(|| w.params.get(&p.name).map_or(0, |v| *v as u64))
            })
            .collect();
        let (x, y) = (AccessId(race.first.access), AccessId(race.second.access));
        let real = oracle_races(name, k, w.block_dim, w.grid_dim, &params, model);
        if real.is_some_and(|real| !real.contains(&(x.min(y), x.max(y)))) {
            failures.push(format!(
                "{name} ({model:?}): race #{} #{} not seen by the oracle",
                x.0, y.0
            ));
        }
    }
}

/// `oracle::exhaustive_races`, run once per kernel, launch, parameters and model in this test
/// binary: each kernel's two analyses under a model, and the two tests under the other model,
/// check against the same runs.
fn oracle_races(
    file: &str,
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
) -> Option<BTreeSet<(AccessId, AccessId)>> {
    type Key = (String, String, [u32; 3], [u32; 3], Vec<Option<u64>>, String);
    type Runs = HashMap<Key, Option<BTreeSet<(AccessId, AccessId)>>>;
    static RUNS: OnceLock<Mutex<Runs>> = OnceLock::new();
    let key = (
        file.to_string(),
        k.name.clone(),
        block,
        grid,
        params.to_vec(),
        format!("{model:?}"),
    );
    let runs = RUNS.get_or_init(Default::default);
    if let Some(known) = runs.lock().expect("oracle cache").get(&key) {
        return known.clone();
    }
    let real = oracle::exhaustive_races(k, block, grid, params, model);
    runs.lock().expect("oracle cache").insert(key, real.clone());
    real
}

/// Every kernel under the warp model its header does not state, with the solver only
/// (cross-checked by good_lp): no wrong `safe` and no unconfirmed race against the oracle
/// under that model. Under `lockstep` a kernel races on fewer pairs than under `its` (one
/// warp's statements are ordered, and what still races, two lanes writing in one execution of
/// a statement, races under `its` too), so the `its` markers bound its races as well.
#[test]
fn the_other_warp_model_is_sound_too() {
    let (mut failures, engines) = under_the_other_model(Engine::CrossCheck, false);
    engines.most_were_affine(&mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same, with the runs of a fixed launch (a test of its own, so that the two halves run
/// side by side).
#[test]
fn the_other_warp_model_is_sound_with_fixed_launches() {
    let (failures, _) = under_the_other_model(Engine::Z3, true);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Analyses every kernel under the other warp model and checks it; with `Engine::CrossCheck`,
/// good_lp's figures too.
fn under_the_other_model(solver: Engine, exhaustive: bool) -> (Vec<String>, CrossCheck) {
    let per_file = kernels().par_iter().map(|f| {
        let (mut failures, mut engines) = (Vec::new(), CrossCheck::default());
        let (lines, m, name) = (f.lines(), &f.module, &f.name);
        let warp_model = match warp_model(&lines) {
            WarpModel::Its => WarpModel::Lockstep,
            WarpModel::Lockstep => WarpModel::Its,
        };
        for k in &m.kernels {
            let opts = AnalysisOptions {
                warp_model,
                exhaustive,
                solver,
                ..solver_only()
            };
            let r = analysis::analyze_kernel(m, k, &opts).expect("launch is valid");
            if solver == Engine::CrossCheck {
                engines.add(name, &r, &mut failures);
            }
            if warp_model == WarpModel::Lockstep {
                check_markers(name, &r, &lines, &mut failures);
            }
            check_with_oracle(name, k, &r, &mut failures);
        }
        (failures, engines)
    });
    merged(per_file.collect())
}

/// `--solver ilp` gives the access verdicts and divergences z3 gives (the solver-only part of
/// the `.analysis` expectations), up to `racy` against `unknown`. The races listed may differ:
/// each is a replayed witness, and the engines' models lead the replay to different (equally
/// real) ones first. A kernel where a z3 query or the kernel's budget ran out of work (z3 still
/// answers what good_lp declines, and the engines spend the budget differently) has verdicts
/// that depend on the limits under either engine and is not compared; there must be few.
#[test]
fn ilp_verdicts_match_z3() {
    // The solver-only sections, without their races. `racy` needs a replay to confirm one of
    // the engine's models, so an engine may leave `unknown` what the other confirms: the two
    // compare equal; `safe` must match exactly.
    let verdicts = |text: &str| -> String {
        let mut solver_only = false;
        let mut out = String::new();
        for l in text.lines() {
            if l.starts_with("kernel ") || l.starts_with(SOLVER_ONLY) {
                solver_only = l.starts_with(SOLVER_ONLY);
            }
            if solver_only && !l.starts_with("race ") {
                out += &l.replace(" racy", " unknown");
                out += "\n";
            }
        }
        out
    };
    let per_file: Vec<Result<Option<String>, String>> = kernels()
        .par_iter()
        .map(|f| ilp_matches_z3(f, &verdicts))
        .collect();
    let failures: Vec<String> = per_file
        .iter()
        .filter_map(|r| r.clone().ok().flatten())
        .collect();
    let timed_out: Vec<String> = per_file.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(timed_out.len() <= 6, "z3 ran out of work in {timed_out:?}");
}

/// One file under `--solver ilp`: `Err(path)` where a query or the budget ran out of work (or,
/// far beyond it, of time), else the failure, if the verdicts differ from z3's.
fn ilp_matches_z3(
    f: &CorpusFile,
    verdicts: &impl Fn(&str) -> String,
) -> Result<Option<String>, String> {
    let m = &f.module;
    let opts = AnalysisOptions {
        solver: Engine::Ilp,
        warp_model: warp_model(&f.lines()),
        ..solver_only()
    };
    let reports: Vec<KernelReport> = m
        .kernels
        .iter()
        .map(|k| analysis::analyze_kernel(m, k, &opts).expect("launch is valid"))
        .collect();
    if reports
        .iter()
        .any(|r| r.stats.timeouts + r.stats.wall_timeouts + r.stats.over_budget > 0)
    {
        return Err(f.path.display().to_string());
    }
    let text: String = reports
        .iter()
        .map(|r| format!("{SOLVER_ONLY}{}", describe(r)))
        .collect();
    let expect = std::fs::read_to_string(f.path.with_extension("analysis")).unwrap_or_default();
    let stats: Vec<String> = reports
        .iter()
        .map(|r| serde_json::to_string(&r.stats).unwrap_or_default())
        .collect();
    Ok((verdicts(&text) != verdicts(&expect)).then(|| {
        format!(
            "{}: with good_lp:\n{text}stats: {}",
            f.path.display(),
            stats.join("\n")
        )
    }))
}
