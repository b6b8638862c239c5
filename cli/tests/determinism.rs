//! The same input and flags give the same report, byte for byte, however busy the machine is
//! (DESIGN.md, Static verdicts): solver limits are counted in z3's resource units, not in
//! seconds, and times stay out of the default output.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .arg("analyze")
        .args(args)
        .args(["--format", "json"])
        .current_dir(root())
        .output()
        .expect("run gmrace")
}

fn analyze_corpus() -> Output {
    analyze(&["tests/kernels/analysis"])
}

/// A process that keeps one core busy until it is killed.
struct Busy(Child);

impl Busy {
    fn start() -> Busy {
        let child = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("start a busy loop");
        Busy(child)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_analysis_corpus_report_is_the_same_on_a_busy_machine() {
    let quiet = analyze_corpus();
    let busy = {
        let _load = [Busy::start(), Busy::start()];
        analyze_corpus()
    };
    let a = String::from_utf8_lossy(&quiet.stdout);
    assert!(!a.contains("solver_ms"), "times are left out by default");
    assert!(!a.contains("solver_work"), "so is z3's count of its work");
    same_report(&quiet, &busy);
}

/// good_lp's limit counts branch-and-bound nodes, not seconds: with a clock, which queries it
/// left to z3 (whose work counts against the kernel's budget) would depend on load. These two
/// files have queries that reach the limit in a second.
#[test]
fn the_ilp_engine_report_is_the_same_on_a_busy_machine() {
    for file in ["data_loop_fixed.cu", "flag_loop_race.cu"] {
        let path = format!("tests/kernels/analysis/{file}");
        let args = ["--solver", "ilp", "--symbolic-only", &path];
        let quiet = analyze(&args);
        let busy = {
            let _load = [Busy::start(), Busy::start()];
            analyze(&args)
        };
        same_report(&quiet, &busy);
    }
}

fn same_report(quiet: &Output, busy: &Output) {
    assert_eq!(quiet.status.code(), busy.status.code());
    let (a, b) = (
        String::from_utf8_lossy(&quiet.stdout),
        String::from_utf8_lossy(&busy.stdout),
    );
    assert!(a.contains("\"kernels\""), "{a}");
    if a != b {
        let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
        panic!(
            "the two reports differ (first at line {}):\n{}",
            line.map_or(0, |l| l + 1),
            line.map_or(String::new(), |l| format!(
                "quiet: {}\nbusy:  {}",
                a.lines().nth(l).unwrap_or(""),
                b.lines().nth(l).unwrap_or("")
            ))
        );
    }
}

/// A kernel that spends its solver budget (thrust's segment sort in the real-code corpus) gets
/// as far, and so the same verdicts, in every run: the symbolic executor's cache of path
/// conditions once released its z3 terms in a random order, which changed the ids of later
/// terms and so the work of later queries.
#[test]
fn a_kernel_that_spends_its_budget_gets_the_same_report_every_run() {
    same_every_run(&[
        "tests/kernels/realcode/thrust_in_kernels.cu",
        "-I",
        "tests/kernels/realcode/include",
        "--kernel",
        "sort_segments",
    ]);
}

/// The same with every map of the analyzer: any std map holding z3 terms (loop counters,
/// accesses, the ILP engine's terms) dropped them in a random order. This file's reports
/// differed in each of six runs before `collections` fixed the hasher.
#[test]
fn every_map_of_the_analysis_keeps_its_order_from_run_to_run() {
    same_every_run(&["tests/kernels/realcode/restart_tours.cu"]);
}

fn same_every_run(args: &[&str]) {
    let run = || analyze(args).stdout;
    let first = run();
    assert!(String::from_utf8_lossy(&first).contains("over_budget"));
    for _ in 0..3 {
        assert!(run() == first, "two runs of one kernel differ");
    }
}
