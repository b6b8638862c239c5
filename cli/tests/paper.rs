//! The paper's applications in `benchmarks/kernels/paper/`: every launch spec fits its kernel,
//! and checked runs of the `gmrace` binary, in both modes, with and without `--all`, find races
//! exactly in the racy variants. (`tests/frontend.rs` checks that the paper kernels lower with
//! no opaque node.)
//!
//! Naming: `NAME.cu` is launched by `NAME.toml`, `NAME.safe.toml` or `NAME.racy.toml`; a variant
//! is racy when its spec's or its file's name says `racy`.

use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_runtime_cuda::launch::LaunchSpec;
use std::path::{Path, PathBuf};
use std::process::Command;

fn paper_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/kernels/paper")
}

/// Every launch spec with the kernel file it launches.
fn variants() -> Vec<(PathBuf, PathBuf)> {
    let dir = paper_dir();
    let mut specs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    specs
        .into_iter()
        .map(|spec| {
            let stem = spec
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let name = stem.trim_end_matches(".safe").trim_end_matches(".racy");
            (dir.join(format!("{name}.cu")), spec)
        })
        .collect()
}

fn is_racy(spec: &Path) -> bool {
    spec.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.contains("racy"))
}

#[test]
fn every_kernel_has_a_race_free_and_a_racy_launch_that_fit_it() {
    let vs = variants();
    let mut failures = Vec::new();
    for (cu, spec) in &vs {
        let module = match frontend::parse_file(cu, &FrontendOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {:?}", cu.display(), e.diagnostics));
                continue;
            }
        };
        let resolved = LaunchSpec::read(spec).and_then(|s| s.resolve(&module));
        if let Err(e) = resolved {
            failures.push(format!("{}: {}", spec.display(), e.message));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Five applications, each with both kinds of variant.
    assert_eq!(vs.iter().filter(|(_, s)| is_racy(s)).count(), 5);
    assert_eq!(vs.iter().filter(|(_, s)| !is_racy(s)).count(), 5);
}

/// Runs `gmrace run --format json` and returns its exit status and the number of races reported,
/// all of them and those the run itself observed.
fn run(gmrace: &Path, cu: &Path, spec: &Path, mode: &str, all: bool) -> (i32, usize, usize) {
    let mut cmd = Command::new(gmrace);
    cmd.arg("run").arg(cu).arg("--launch").arg(spec);
    cmd.args(["--mode", mode, "--backend", "emu", "--format", "json"]);
    if all {
        cmd.arg("--all");
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", gmrace.display()));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: invalid JSON ({e}): {}",
            spec.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let races = v["kernels"][0]["races"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let by_run = races.iter().filter(|r| r["found_by"] == "run").count();
    (out.status.code().unwrap_or(-1), races.len(), by_run)
}

/// Checked runs in `mode` find races exactly in the racy variants, with static pruning and with
/// every shared access checked.
fn races_exactly_in_the_racy_variants(mode: &str) {
    let gmrace = Path::new(env!("CARGO_BIN_EXE_gmrace"));
    let mut failures = Vec::new();
    for (cu, spec) in variants() {
        let (status, races, _) = run(gmrace, &cu, &spec, mode, false);
        // Every shared access checked: the dynamic checker must see the race itself.
        let (status_all, _, by_run_all) = run(gmrace, &cu, &spec, mode, true);
        let ok = if is_racy(&spec) {
            status == 1 && races > 0 && status_all == 1 && by_run_all > 0
        } else {
            status == 0 && races == 0 && status_all == 0 && by_run_all == 0
        };
        if !ok {
            failures.push(format!(
                "{} {mode}: status {status}, {races} races; --all: status {status_all}, \
                 {by_run_all} found by the run",
                spec.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// One test per mode, so that the test harness runs them in parallel.
#[test]
fn flag_runs_find_races_exactly_in_the_racy_variants() {
    races_exactly_in_the_racy_variants("flag");
}

#[test]
fn stmt_runs_find_races_exactly_in_the_racy_variants() {
    races_exactly_in_the_racy_variants("stmt");
}
