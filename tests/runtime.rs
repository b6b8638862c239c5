//! The GMRace device runtime (`instrumenter/runtime/gmrace_runtime.cuh`) on the CPU device,
//! with hand-instrumented kernels that follow the runtime contract (`kernels/runtime/*.cu`,
//! each with a launch spec `.toml`). In both modes the decoded race log must match the
//! `.flag.expect` / `.stmt.expect` files (`UPDATE_EXPECT=1` rewrites them; review the diff).

use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::{self, CheckedRun, Config, Mode};
use gmrace_runtime_cuda::RunOptions;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn runtime_dir() -> PathBuf {
    root().join("../instrumenter/runtime")
}

fn cases() -> Vec<PathBuf> {
    let dir = root().join("kernels/runtime");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    v.sort();
    v
}

/// Runs hand-instrumented `cu` with its launch spec in `mode`.
fn run(cu: &Path, mode: Mode, log_capacity: Option<u32>, rows: Option<u32>) -> CheckedRun {
    let define = match mode {
        Mode::Flag => "GMRACE_MODE_FLAG",
        Mode::Stmt => "GMRACE_MODE_STMT",
    };
    let opts = FrontendOptions {
        include_dirs: vec![runtime_dir()],
        defines: vec![(define.to_string(), Some("1".to_string()))],
    };
    let module = frontend::parse_file(cu, &opts)
        .unwrap_or_else(|e| panic!("{}: {:?}", cu.display(), e.diagnostics));
    let spec = LaunchSpec::read(&cu.with_extension("toml")).unwrap_or_else(|e| panic!("{e}"));
    let launch = spec
        .resolve(&race_log::without_runtime_param(&module))
        .unwrap_or_else(|e| panic!("{}: {e}", cu.display()));
    let mut cfg = Config::new(mode, 4);
    if let Some(c) = log_capacity {
        cfg.log_capacity = c;
    }
    if let Some(r) = rows {
        cfg.rows = r;
    }
    race_log::run_checked(&module, launch, &cfg, &RunOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", cu.display()))
}

/// The decoded log, one race per line, in a stable order.
fn render(run: &CheckedRun) -> String {
    let mut s = String::new();
    let log = &run.log;
    for f in &run.result.faults {
        let _ = writeln!(s, "fault: {} {}", f.kind.name(), f.message);
    }
    let _ = writeln!(
        s,
        "complete={} found={} r_stmt={} r_mem={} r_thd={} r_wp={}",
        log.complete(),
        log.found,
        log.r_stmt,
        log.r_mem,
        log.r_thd,
        log.r_wp
    );
    for r in &log.races {
        let place = match race_log::locate(&run.window, r.offset as u64) {
            Some((name, off)) => format!("{name}+{off}"),
            None => format!("window+{}", r.offset),
        };
        let _ = write!(
            s,
            "{} block {:?} {place} len {} warps {:?}",
            r.scope.name(),
            r.block,
            r.len,
            r.warps
        );
        if let Some(t) = r.threads {
            let _ = write!(s, " threads {t:?}");
        }
        if let Some(a) = r.accesses {
            let _ = write!(s, " ids {a:?}");
        }
        if let Some([a, b]) = r.kinds {
            let _ = write!(s, " {}/{}", a.name(), b.name());
        }
        s.push('\n');
    }
    s
}

fn check(expect: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expect, actual).expect("write expectation");
        return;
    }
    let expected = std::fs::read_to_string(expect).unwrap_or_default();
    if expected != actual {
        failures.push(format!(
            "{}: expected\n{expected}\ngot\n{actual}",
            expect.display()
        ));
    }
}

#[test]
fn hand_instrumented_kernels_match_expectations_in_both_modes() {
    let mut failures = Vec::new();
    for cu in cases() {
        for mode in [Mode::Flag, Mode::Stmt] {
            let r = run(&cu, mode, None, None);
            let expect = cu.with_extension(format!("{}.expect", mode.name()));
            check(&expect, &render(&r), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
