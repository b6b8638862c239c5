//! `gmrace run`'s faults: located in the user's file whatever the mode (a checked run executes
//! an instrumented copy the user never sees), a kernel that does not terminate stopped by a
//! step budget the report names, a deadlock reported when it happens.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory with `NAME.cu` and `NAME.toml` written in it.
fn kernel(name: &str, cu: &str, toml: &str) -> (PathBuf, String, String) {
    let dir = std::env::temp_dir().join(format!("gmrace-run-faults-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cu_path = dir.join(format!("{name}.cu"));
    let spec = dir.join(format!("{name}.toml"));
    std::fs::write(&cu_path, cu).expect("write kernel");
    std::fs::write(&spec, toml).expect("write spec");
    (dir, path(&cu_path), path(&spec))
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

fn run(cu: &str, spec: &str, extra: &[&str]) -> (Option<i32>, String) {
    let o: Output = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["run", cu, "--launch", spec, "--backend", "emu"])
        .args(extra)
        .output()
        .expect("run gmrace");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    (o.status.code(), out)
}

const ONE_BLOCK: &str = "grid = 1\nblock = 32\n\n[args]\na = { len = 32, init = \"zeros\" }\n";

#[test]
fn checked_runs_locate_out_of_bounds_accesses_in_the_users_file() {
    // Line 4 holds a recorded shared write before the faulting read: the column must come
    // through the rewrite of that line.
    let (dir, cu, spec) = kernel(
        "oob",
        "// an out-of-bounds read after an instrumented write\n__global__ void k(int *a) {\n  \
         __shared__ int s[32];\n  s[threadIdx.x] = a[threadIdx.x + 1000];\n}\n",
        ONE_BLOCK,
    );
    for mode in ["flag", "stmt"] {
        let (code, out) = run(&cu, &spec, &["--mode", mode, "--all"]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("error[out-of-bounds]"), "{mode}: {out}");
        assert!(out.contains(&format!("--> {cu}:4:20\n")), "{mode}: {out}");
        assert!(
            out.contains("4 |   s[threadIdx.x] = a[threadIdx.x + 1000];\n"),
            "{mode}: {out}"
        );
        assert!(!out.contains(".gmrace.cu"), "{mode}: {out}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_step_budget_spent_in_gmraces_runtime_names_the_users_line() {
    let (dir, cu, spec) = kernel(
        "spin",
        "__global__ void spin(int *a) {\n  __shared__ int s[32];\n  s[threadIdx.x] = a[0];\n  \
         __syncthreads();\n  while (s[0] == 0) {\n  }\n}\n",
        ONE_BLOCK,
    );
    let (code, out) = run(
        &cu,
        &spec,
        &["--mode", "stmt", "--all", "--max-steps", "3000"],
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "error[step-budget]: the kernel did not finish within the step budget of 3000 \
             warp-instructions given by --max-steps"
        ),
        "{out}"
    );
    assert!(
        out.contains(&format!("in gmrace's runtime, called from {cu}:5")),
        "{out}"
    );
    assert!(out.contains(&format!("--> {cu}:5:")), "{out}");
    assert!(out.contains("5 |   while (s[0] == 0) {\n"), "{out}");
    assert!(!out.contains("gmrace_runtime.cuh"), "{out}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_spinning_kernel_is_stopped_by_the_budget_the_report_names() {
    let (dir, cu, spec) = kernel(
        "flag",
        "__global__ void wait(int *a) {\n  while (a[0] == 0) {\n  }\n}\n",
        ONE_BLOCK,
    );
    for mode in ["off", "flag"] {
        let (code, out) = run(&cu, &spec, &["--mode", mode, "--max-steps", "5000"]);
        assert_eq!(code, Some(1), "{out}");
        assert!(
            out.contains("within the step budget of 5000 warp-instructions given by --max-steps"),
            "{mode}: {out}"
        );
        assert!(out.contains(&format!("--> {cu}:2:3\n")), "{mode}: {out}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Deadlocks end the run at once (a few warp-instructions, not a spent budget) with exit 1 and
/// the barriers' locations.
#[test]
fn deadlocks_are_reported_where_the_threads_wait() {
    let spec = "grid = 1\nblock = 64\n\n[args]\na = { len = 64, init = \"zeros\" }\n";
    let (dir, cu, spec) = kernel(
        "barriers",
        "__global__ void k(int *a) {\n  if (threadIdx.x < 32) {\n    __syncthreads();\n    \
         a[threadIdx.x] = 1;\n  } else {\n    a[threadIdx.x] = 2;\n    __syncthreads();\n  }\n}\n",
        spec,
    );
    for mode in ["off", "flag"] {
        let (code, out) = run(&cu, &spec, &["--mode", mode]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("error[barrier-divergence]"), "{mode}: {out}");
        assert!(out.contains(&format!("--> {cu}:3:5\n")), "{mode}: {out}");
        assert!(
            out.contains(&format!("wait at another barrier (at {cu}:7:5)")),
            "{mode}: {out}"
        );
    }
    let (_, out) = run(&cu, &spec, &["--mode", "off"]);
    assert!(out.contains(", 11 warp-instructions,"), "{out}");
    std::fs::remove_dir_all(dir).ok();
    let (dir, cu, spec) = kernel(
        "syncwarp",
        "__global__ void k(int *a) {\n  if (threadIdx.x < 16) {\n    __syncwarp();\n    \
         a[threadIdx.x] = 1;\n  }\n}\n",
        ONE_BLOCK,
    );
    for mode in ["off", "stmt"] {
        let (code, out) = run(&cu, &spec, &["--mode", mode]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("error[warp-divergence]"), "{mode}: {out}");
        assert!(out.contains("do not arrive"), "{mode}: {out}");
        assert!(out.contains(&format!("--> {cu}:3:5\n")), "{mode}: {out}");
    }
    std::fs::remove_dir_all(dir).ok();
}
