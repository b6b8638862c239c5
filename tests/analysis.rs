//! The analysis corpus: racy kernels next to their fixed twins (`kernels/analysis/`).
//!
//! - No false alarm: a `//pass` kernel gets no race and no divergence, and every race or
//!   divergence reported is on lines the corpus marks `// RACE` / `// DIVERGENCE`.
//! - No false proof: a brute-force run of every thread of the launch (the oracle) finds no race
//!   involving an access the analysis called `safe`, and finds every race it reports.
//! - The verdicts match the `.analysis` file next to each kernel (`UPDATE_EXPECT=1` rewrites).
//!
//! Every kernel is analysed twice: with the default options (a fixed, small launch is run whole
//! when its threads do not depend on data) and with the solver only (`--symbolic-only`), which
//! is what a kernel without a fixed launch gets; both must pass every check.

use gmrace_analyzer::analysis::{self, oracle, AnalysisOptions, KernelReport, Verdict};
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::{AccessId, Ty};
use std::path::{Path, PathBuf};

fn kernels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/analysis");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    files
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
            "race {} #{}@{} #{}@{}\n",
            race.scope.name(),
            race.first.access,
            race.first.line,
            race.second.access,
            race.second.line
        ));
    }
    for d in &r.barrier_divergence {
        out.push_str(&format!("divergence @{}\n", d.line));
    }
    out
}

#[test]
fn analysis_corpus() {
    let mut failures = Vec::new();
    let files = kernels();
    assert!(
        files.len() >= 60,
        "the analysis corpus has {} kernels",
        files.len()
    );
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read kernel");
        let lines: Vec<&str> = src.lines().collect();
        let marked = |line: u32, mark: &str| {
            lines
                .get(line as usize - 1)
                .is_some_and(|l| l.contains(mark))
        };
        let pass = src.starts_with("//pass");
        let m = frontend::parse_file(f, &FrontendOptions::default()).expect("corpus kernels parse");
        let mut text = String::new();
        // Generous time limits: verdicts must not depend on how busy the machine is.
        let default = AnalysisOptions {
            timeout_ms: 20_000,
            budget_ms: 600_000,
            ..AnalysisOptions::default()
        };
        let solver_only = AnalysisOptions {
            exhaustive: false,
            ..default.clone()
        };
        for (k, opts) in m
            .kernels
            .iter()
            .flat_map(|k| [(k, default.clone()), (k, solver_only.clone())])
        {
            let r = analysis::analyze_kernel(&m, k, &opts).expect("launch is valid");
            if !opts.exhaustive {
                text.push_str("solver only: ");
            }
            text.push_str(&describe(&r));
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            if pass && r.has_problem() {
                failures.push(format!(
                    "{name}: false alarm in a //pass kernel:\n{}",
                    describe(&r)
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
            let (Some(block), Some(grid)) = (r.assumptions.block, r.assumptions.grid) else {
                continue;
            };
            let params: Vec<Option<u64>> = k
                .params
                .iter()
                .map(|p| matches!(p.ty, Ty::Scalar(_)).then_some(1000))
                .collect();
            let Some(real) =
                oracle::exhaustive_races(k, block, grid, &params, r.assumptions.warp_model)
            else {
                continue;
            };
            for (a, b) in &real {
                for id in [a, b] {
                    if r.accesses[id.index()].verdict == Verdict::Safe {
                        failures.push(format!(
                            "{name}: WRONG SAFE: access #{} races in a real run (pair #{} #{})",
                            id.0, a.0, b.0
                        ));
                    }
                }
            }
            for race in &r.races {
                let (x, y) = (AccessId(race.first.access), AccessId(race.second.access));
                if !real.contains(&(x.min(y), x.max(y))) {
                    failures.push(format!(
                        "{name}: race #{} #{} not seen by the oracle",
                        x.0, y.0
                    ));
                }
            }
        }
        let expect = f.with_extension("analysis");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expect, &text).expect("write expectation");
        } else if std::fs::read_to_string(&expect).unwrap_or_default() != text {
            failures.push(format!(
                "{} differs from the analysis:\n{text}",
                expect.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
