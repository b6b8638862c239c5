//! Reproduces GMRace's evaluation (Table 1, Fig. 4, Appendix F) on the paper's five
//! applications as re-created in `benchmarks/kernels/paper/`, by running the `gmrace` binary and
//! reading its JSON (DESIGN.md's interface only).
//!
//! `cargo run --release -p gmrace-benchmarks --bin paper -- [--gmrace PATH] [--kernels DIR]
//!  [--out DIR] [--repeat N]`
//!
//! `--gmrace` defaults to `$GMRACE`, else `target/release/gmrace`. Writes `paper.json`,
//! `paper.md` and the SVG plots into `--out` (default `benchmarks/results`).
//!
//! Every variant runs in every configuration of `CONFIGS` (off, flag, stmt, and flag and stmt
//! with `--all`); only race-free variants are repeated for wall time. The analyzer is timed with
//! `gmrace analyze` under the launch a run reported (dimensions and integer arguments), because
//! without the arguments the analysis is a different, symbolic problem. `apps.rs` is the
//! application table, `tables.rs` the Markdown, `plots.rs` the SVGs, `gmrace.rs` the interface
//! to the binary.

mod apps;
mod gmrace;
mod plots;
mod tables;

use apps::{Variant, APPS};
use gmrace::{AnalyzeOutcome, Gmrace, RunOutcome};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The configurations every variant runs in: (mode, `--all`).
pub const CONFIGS: &[(&str, bool)] = &[
    ("off", false),
    ("flag", false),
    ("stmt", false),
    ("flag", true),
    ("stmt", true),
];

/// Every run of one variant, in `CONFIGS` order, and its analysis.
#[derive(Serialize)]
pub struct VariantResult {
    pub file: String,
    pub launch: String,
    pub runs: Vec<ConfigRun>,
    pub analysis: AnalyzeOutcome,
}

#[derive(Serialize)]
pub struct ConfigRun {
    pub mode: &'static str,
    pub all: bool,
    #[serde(flatten)]
    pub outcome: RunOutcome,
}

impl VariantResult {
    pub fn get(&self, mode: &str, all: bool) -> &RunOutcome {
        let r = self.runs.iter().find(|r| r.mode == mode && r.all == all);
        &r.expect("every configuration is run").outcome
    }
}

#[derive(Serialize)]
pub struct AppResult {
    pub name: &'static str,
    pub trigger: &'static str,
    pub safe: VariantResult,
    pub racy: VariantResult,
}

struct Args {
    gmrace: PathBuf,
    kernels: PathBuf,
    out: PathBuf,
    repeat: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        gmrace: std::env::var_os("GMRACE")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("target/release/gmrace")),
        kernels: PathBuf::from("benchmarks/kernels/paper"),
        out: PathBuf::from("benchmarks/results"),
        repeat: 3,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--gmrace" => args.gmrace = value()?.into(),
            "--kernels" => args.kernels = value()?.into(),
            "--out" => args.out = value()?.into(),
            "--repeat" => args.repeat = value()?.parse().map_err(|e| format!("--repeat: {e}"))?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(args)
}

fn measure(g: &Gmrace, dir: &Path, v: &Variant, repeat: u32) -> Result<VariantResult, String> {
    let file = dir.join(v.file);
    let launch = dir.join(v.launch);
    let mut runs = Vec::new();
    for &(mode, all) in CONFIGS {
        eprintln!(
            "  {} {} --mode {mode}{}",
            v.file,
            v.launch,
            if all { " --all" } else { "" }
        );
        let outcome = g.run(&file, &launch, mode, all, repeat)?;
        runs.push(ConfigRun { mode, all, outcome });
    }
    // The checked runs report the launch's integer arguments among their assumptions; `off`
    // does not analyse.
    let analysis = g.analyze(&file, &runs[1].outcome)?;
    Ok(VariantResult {
        file: v.file.into(),
        launch: v.launch.into(),
        runs,
        analysis,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let g = Gmrace {
        binary: args.gmrace.clone(),
        repeat: args.repeat,
    };
    let mut results = Vec::new();
    for app in APPS {
        eprintln!("{}", app.name);
        // Overhead is measured on the race-free variant (the paper's normal inputs): only it is
        // repeated for wall time.
        let measured = measure(&g, &args.kernels, &app.safe, args.repeat)
            .and_then(|safe| Ok((safe, measure(&g, &args.kernels, &app.racy, 1)?)));
        match measured {
            Ok((safe, racy)) => results.push(AppResult {
                name: app.name,
                trigger: app.trigger,
                safe,
                racy,
            }),
            Err(e) => {
                eprintln!("error: {}: {e}", app.name);
                return ExitCode::from(2);
            }
        }
    }
    if let Err(e) = write_outputs(&args, &results) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

fn write_outputs(args: &Args, results: &[AppResult]) -> Result<(), String> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let write = |name: &str, text: String| {
        let p = args.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    let json = serde_json::json!({ "repeat": args.repeat, "apps": results });
    write(
        "paper.json",
        serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?,
    )?;
    write("paper.md", tables::markdown(results, args.repeat))?;
    for (name, svg) in plots::all(results)? {
        write(name, svg)?;
    }
    eprintln!(
        "wrote paper.json, paper.md and the plots into {}",
        args.out.display()
    );
    Ok(())
}
