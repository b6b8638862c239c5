//! The dynamic checker end to end (`gmrace::pipeline`, what `gmrace run --mode flag|stmt`
//! does), over the analysis corpus kernels that have a launch spec in `kernels/device/` (the
//! spec's first line names the `_fixed` kernel; its `_race` twin runs with the same spec).
//!
//! - Differential soundness: with `--all` under the lock-step model the checkers implement,
//!   in several launch configurations, a kernel the analysis proves racy in shared memory races
//!   at run time in both modes, and a kernel whose shared accesses are all proved safe never
//!   does. Any contradiction fails, naming kernel, configuration and mode.
//! - Both modes report exactly the racy shared-memory granules that a plain-Rust reference
//!   detector finds in the raw access trace of the same run.
//! - Without `--all`, the `unknown` scatter kernel races exactly when its index input repeats a
//!   value (mod the block size), at the repeated slot.
//!
//! The corpus-wide test runs in optimised builds only (`cfg(unoptimised)` from `cli/build.rs`,
//! see its comment): unoptimised it took half an hour on two busy cores. The test suite runs
//! under the `ci` profile (optimised, with debug assertions and overflow checks on), where it
//! takes minutes.

#[path = "../../tests/common/device_specs.rs"]
mod device_specs;
#[path = "../../tests/common/reference.rs"]
mod reference;

use gmrace::pipeline::{self, Checked, Request};
use gmrace_analyzer::analysis::{Verdict, WarpModel};
use gmrace_analyzer::frontend::{BuildFlags, FrontendOptions, Headers};
use gmrace_analyzer::ir::Space;
use gmrace_runtime_cuda::cpu::memory::{Layout, ObjKind};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::Mode;
use gmrace_runtime_cuda::{Device, RunOptions};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

static NO_FRONT_OPTIONS: std::sync::LazyLock<FrontendOptions> =
    std::sync::LazyLock::new(|| FrontendOptions {
        include_dirs: Vec::new(),
        defines: Vec::new(),
        headers: Headers::StandIns,
        build: BuildFlags {
            args: Vec::new(),
            std: None,
            gpu_arch: None,
        },
        callers: Default::default(),
    });

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

/// (kernel file, spec file) for every corpus kernel with a launch spec.
fn corpus() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for (spec, rel) in device_specs::device_specs(&kernels()) {
        let Some(rel) = rel.filter(|r| r.starts_with("analysis/")) else {
            continue;
        };
        let cu = kernels().join(&rel);
        let twin = kernels().join(rel.replace("_fixed.cu", "_race.cu"));
        out.push((cu.clone(), spec.clone()));
        if twin != cu && twin.exists() {
            out.push((twin, spec.clone()));
        }
    }
    out
}

/// The launch configurations of a spec: one block, and two blocks with other random inputs.
fn variants(spec: &Path) -> Vec<(String, LaunchSpec)> {
    let text = std::fs::read_to_string(spec).expect("spec");
    let with_grid = |grid: &str, reseed: bool| -> String {
        text.lines()
            .map(|l| {
                if l.starts_with("grid =") {
                    format!("grid = {grid}")
                } else if reseed && l.contains("seed = ") {
                    l.replace("seed = ", "seed = 100")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    [
        ("grid 1", with_grid("1", false)),
        ("grid 2, reseeded", with_grid("2", true)),
    ]
    .into_iter()
    .map(|(name, t)| {
        let s = LaunchSpec::parse(spec, t).unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
        (name.to_string(), s)
    })
    .collect()
}

fn request<'a>(
    cu: &'a Path,
    spec: &'a LaunchSpec,
    mode: Mode,
    all: bool,
    trace: bool,
) -> Request<'a> {
    Request {
        all,
        warp_model: WarpModel::Lockstep,
        log_capacity: Some(1 << 20),
        run: RunOptions {
            trace,
            ..RunOptions::default()
        },
        ..Request::new(cu, &NO_FRONT_OPTIONS, spec, mode)
    }
}

fn check(cu: &Path, spec: &LaunchSpec, mode: Mode, all: bool, trace: bool) -> Checked {
    pipeline::check(request(cu, spec, mode, all, trace))
        .unwrap_or_else(|_| panic!("{}: the checked run failed", cu.display()))
}

/// Fault kinds of the original kernel's run (`--mode off`).
fn original_faults(a: &pipeline::Analysed, spec: &LaunchSpec) -> Vec<String> {
    let launch = spec.resolve(&a.module).expect("the spec resolves");
    let r = CpuDevice
        .run(&a.module, &launch, &RunOptions::default())
        .expect("the original runs");
    r.faults.iter().map(|f| f.kind.name().to_string()).collect()
}

/// Racy (linear block, granule) pairs the run logged.
fn logged(c: &Checked, g: u64) -> BTreeSet<(u64, u64)> {
    let [gx, gy, _] = c.run.result.grid.map(u64::from);
    c.run
        .log
        .races
        .iter()
        .flat_map(|r| {
            let [x, y, z] = r.block.map(u64::from);
            let block = x + gx * (y + gy * z);
            (r.offset as u64..(r.offset + r.len) as u64).map(move |b| (block, b / g))
        })
        .collect()
}

/// Racy granules by the reference detector, from the run's trace without the runtime's own
/// shared objects.
fn reference(c: &Checked, g: u64) -> BTreeSet<(u64, u64)> {
    let kernel = c
        .program
        .imodule
        .kernels
        .iter()
        .find(|k| k.name == c.report.name)
        .expect("the instrumented kernel");
    let layout = Layout::new(&c.program.imodule, kernel);
    let window_of = |obj: u32| {
        let o = layout.objs.get(obj as usize)?;
        (matches!(o.kind, ObjKind::Shared(_)) && !o.name.starts_with("__gmrace"))
            .then_some(o.window)
    };
    reference::granules(&reference::racy_bytes(&c.run.result.trace, &window_of), g)
}

/// Under a minute optimised, half an hour in a debug build on two busy cores: the test
/// suite (`scripts/test.sh`) runs it optimised; by hand,
/// `cargo test --profile ci -p gmrace --test dynamic`.
#[test]
#[cfg_attr(
    unoptimised,
    ignore = "slow unoptimised: cargo test --profile ci -p gmrace --test dynamic"
)]
fn analysis_verdicts_and_runs_never_contradict_and_both_modes_match_the_reference() {
    let runs: Vec<(PathBuf, String, LaunchSpec)> = corpus()
        .into_iter()
        .flat_map(|(cu, spec)| {
            variants(&spec)
                .into_iter()
                .map(move |(config, spec)| (cu.clone(), config, spec))
        })
        .collect();
    let outcomes: Vec<Outcome> = runs
        .par_iter()
        .map(|(cu, config, spec)| check_variant(cu, config, spec))
        .collect();
    let failures: Vec<String> = outcomes.iter().flat_map(|o| o.failures.clone()).collect();
    let racy_runs: usize = outcomes.iter().map(|o| o.racy_runs).sum();
    let safe_runs: usize = outcomes.iter().map(|o| o.safe_runs).sum();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The corpus must exercise both directions.
    assert!(
        racy_runs >= 8 && safe_runs >= 8,
        "racy {racy_runs}, safe {safe_runs}"
    );
}

/// What the runs of one kernel in one configuration found.
#[derive(Default)]
struct Outcome {
    failures: Vec<String>,
    racy_runs: usize,
    safe_runs: usize,
}

/// One analysis, then a checked run in each mode, compared with the analysis, with the
/// reference detector and with each other.
fn check_variant(cu: &Path, config: &str, spec: &LaunchSpec) -> Outcome {
    let mut out = Outcome::default();
    let name = cu.file_name().unwrap().to_string_lossy().into_owned();
    let mut granules = Vec::new();
    // One analysis serves both modes.
    let analysed = pipeline::analyse(cu, &NO_FRONT_OPTIONS, spec, WarpModel::Lockstep)
        .unwrap_or_else(|_| panic!("{}: the analysis failed", cu.display()));
    let original_faults = original_faults(&analysed, spec);
    for mode in [Mode::Flag, Mode::Stmt] {
        let req = request(cu, spec, mode, true, true);
        let c = pipeline::check_analysed(analysed.clone(), &req)
            .unwrap_or_else(|_| panic!("{}: the checked run failed", cu.display()));
        let what = format!("{name} ({config}, {} mode)", mode.name());
        let shared_racy = c.report.races.iter().any(|r| r.space == Space::Shared);
        let shared_safe = c
            .report
            .accesses
            .iter()
            .filter(|a| a.space == Space::Shared)
            .all(|a| a.verdict == Verdict::Safe);
        let ran_clean = c.run.result.faults.is_empty();
        let faults: Vec<String> = c
            .run
            .result
            .faults
            .iter()
            .map(|f| f.kind.name().to_string())
            .collect();
        if faults != original_faults {
            out.failures.push(format!(
                "{what}: the instrumented run faults with {faults:?}, the original \
                 with {original_faults:?}"
            ));
            continue;
        }
        let raced = !c.run.log.races.is_empty();
        if shared_racy && ran_clean && !raced {
            out.failures.push(format!(
                "{what}: the analysis proves a shared race, the run saw none"
            ));
        }
        if shared_safe && raced {
            out.failures.push(format!(
                "{what}: the analysis proves every shared access safe, the run logged {:?}",
                c.run.log.races.first()
            ));
        }
        out.racy_runs += usize::from(shared_racy && raced);
        out.safe_runs += usize::from(shared_safe && !raced);
        if !c.run.log.complete() {
            out.failures.push(format!("{what}: the run is incomplete"));
            continue;
        }
        let g = c.program.plan.granule as u64;
        let want = reference(&c, g);
        let got = logged(&c, g);
        if got != want {
            out.failures.push(format!(
                "{what}: the run logged {} racy granules, the reference finds {} \
                 (only logged: {:?}; only reference: {:?})",
                got.len(),
                want.len(),
                got.difference(&want).take(3).collect::<Vec<_>>(),
                want.difference(&got).take(3).collect::<Vec<_>>()
            ));
        }
        granules.push(got);
    }
    if granules.len() == 2 && granules[0] != granules[1] {
        out.failures
            .push(format!("{name} ({config}): flag and stmt disagree"));
    }
    out
}

fn scatter(idx: &str) -> LaunchSpec {
    let text = format!(
        "grid = 2\nblock = 128\n[args]\nidx = {idx}\n\
         in = {{ len = 256, init = \"iota\" }}\nout = {{ len = 256, init = \"zeros\" }}\n"
    );
    LaunchSpec::parse(Path::new("scatter.toml"), text).expect("spec")
}

#[test]
fn an_unknown_scatter_races_exactly_when_its_index_repeats() {
    let cu = kernels().join("analysis/scatter_fixed.cu");
    // Block 1's thread 5 writes slot 7, as thread 7 does.
    let mut values: Vec<String> = (0..256).map(|i| (i % 128).to_string()).collect();
    values[128 + 5] = "7".to_string();
    let repeated = scatter(&format!("{{ values = [{}] }}", values.join(", ")));
    let distinct = scatter("{ len = 256, init = \"iota\" }");
    for mode in [Mode::Flag, Mode::Stmt] {
        let c = check(&cu, &distinct, mode, false, false);
        assert!(c.report.races.is_empty());
        assert!(
            c.plan().is_some_and(|p| !p.instrumented.is_empty()),
            "the unknown scatter must be instrumented"
        );
        assert!(
            c.run.log.races.is_empty(),
            "{}: {:?}",
            mode.name(),
            c.run.log.races
        );
        let c = check(&cu, &repeated, mode, false, false);
        let g = c.program.plan.granule as u64;
        let slot7 = (c.run.window.iter().find(|p| p.name == "s").unwrap().offset + 28) / g;
        assert_eq!(
            logged(&c, g),
            BTreeSet::from([(1, slot7)]),
            "{}",
            mode.name()
        );
    }
}
