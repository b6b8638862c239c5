//! The `gmrace` binary's contract: exit statuses and located errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gmrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .output()
        .expect("run gmrace")
}

fn corpus(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/kernels")
        .join(rel)
        .display()
        .to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn ir_prints_kernels_and_exits_zero() {
    let o = gmrace(&["ir", &corpus("analysis/reduce_seq_fixed.cu")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("kernel "), "{out}");
    assert!(out.contains("barrier.Sync"), "{out}");
}

#[test]
fn ir_json_is_valid_and_lists_accesses() {
    let o = gmrace(&["ir", &corpus("frontend/atomics.cu"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let accesses = &v["kernels"][0]["accesses"];
    assert!(accesses.as_array().is_some_and(|a| !a.is_empty()), "{v}");
    assert!(accesses
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["kind"] == "atomic"));
}

#[test]
fn syntax_error_is_located_with_caret_and_exit_two() {
    let file = corpus("frontend/errors/syntax_error.cu");
    let o = gmrace(&["ir", &file]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("error: expected ';'"), "{err}");
    assert!(err.contains("syntax_error.cu:8:25"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn unreadable_and_binary_inputs_exit_two_without_panicking() {
    let o = gmrace(&["ir", "/nonexistent/k.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));

    let dir = std::env::temp_dir().join(format!("gmrace-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin: PathBuf = dir.join("garbage.cu");
    std::fs::write(&bin, [0u8, 159, 146, 150, 0, 1, 2, 255]).unwrap();
    let o = gmrace(&["ir", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_kernel_and_bad_usage_exit_two() {
    let o = gmrace(&["ir", &corpus("frontend/atomics.cu"), "--kernel", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no kernel named `nope`"),
        "{}",
        stderr(&o)
    );
    let o = gmrace(&["ir"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gmrace(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn defines_on_the_command_line_reach_the_parse() {
    let dir = std::env::temp_dir().join(format!("gmrace-cli-d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("k.cu");
    std::fs::write(
        &f,
        "#ifndef WIDTH\n#error WIDTH undefined\n#endif\n__global__ void k(float *a) { a[threadIdx.x * WIDTH] = 0; }\n",
    )
    .unwrap();
    let o = gmrace(&["ir", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("WIDTH undefined"), "{}", stderr(&o));
    let o = gmrace(&["ir", f.to_str().unwrap(), "-D", "WIDTH=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(threadIdx.x * 3)"));
    std::fs::remove_dir_all(&dir).ok();
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn analyze_reports_a_race_with_exit_one_and_a_witness() {
    let o = gmrace(&[
        "analyze",
        &corpus("analysis/reduce_seq_race.cu"),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["assumptions"]["block"], serde_json::json!([256, 1, 1]));
    assert_eq!(k["assumptions"]["warp_model"], "its");
    let race = &k["races"][0];
    assert_eq!(race["space"], "shared");
    assert_eq!(race["first"]["line"], 9);
    assert_eq!(race["second"]["line"], 12);
    assert!(race["witness"]["threads"]
        .as_array()
        .is_some_and(|t| t.len() == 2));
    assert!(k["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["verdict"] == "racy"));
}

#[test]
fn analyze_proves_the_fixed_twin_safe_with_exit_zero() {
    let o = gmrace(&["analyze", &corpus("analysis/reduce_seq_fixed.cu")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("7 safe, 0 racy, 0 unknown"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn analyze_rejects_invalid_launches_and_parameters_with_exit_two() {
    let f = corpus("analysis/reduce_seq_fixed.cu");
    let o = gmrace(&["analyze", &f, "--block", "2048"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid launch configuration"),
        "{}",
        stderr(&o)
    );
    let o = gmrace(&["analyze", &f, "--param", "nope=3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no parameter `nope`"), "{}", stderr(&o));
    let o = gmrace(&["analyze", &f, "--block", "16x0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_executes_on_the_cpu_device_and_reports_faults() {
    let spec = corpus("device/reduce_seq_fixed.toml");
    let o = gmrace(&[
        "run",
        &corpus("analysis/reduce_seq_fixed.cu"),
        "--launch",
        &spec,
        "--mode",
        "off",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("no fault"), "{}", stdout(&o));
    let o = gmrace(&[
        "run",
        &corpus("analysis/divergent_barrier_race.cu"),
        "--launch",
        &spec,
        "--mode",
        "off",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("barrier-divergence"), "{}", stdout(&o));
}

#[test]
fn run_rejects_a_spec_missing_an_argument_naming_it() {
    let dir = std::env::temp_dir().join(format!("gmrace-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("s.toml");
    std::fs::write(
        &spec,
        "grid = 4\nblock = 256\n[args]\nin = { len = 1024, init = \"zeros\" }\n",
    )
    .unwrap();
    let o = gmrace(&[
        "run",
        &corpus("analysis/reduce_seq_fixed.cu"),
        "--launch",
        spec.to_str().unwrap(),
        "--mode",
        "off",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("out"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn instrument_writes_the_file_its_headers_and_plan() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-instrument");
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("gather.cu");
    let file = corpus("instrument/unknown_only.cu");
    let o = gmrace(&[
        "instrument",
        &file,
        "--mode",
        "stmt",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let source = std::fs::read_to_string(&out).expect("OUT.cu");
    assert!(source.contains("#define GMRACE_MODE_STMT 1"), "{source}");
    assert!(source.contains("unsigned int *__gmrace_rt"), "{source}");
    for header in [
        "gmrace_runtime.cuh",
        "cuda_runtime.h",
        "gmrace_standalone.h",
    ] {
        assert!(dir.join(header).is_file(), "{header} not written");
    }
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("gather.plan.json")).expect("plan"))
            .expect("plan JSON");
    assert_eq!(plan["mode"], "stmt");
    assert!(plan["kernels"][0]["instrumented"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));

    // Without -o the source goes to stdout.
    let o = gmrace(&["instrument", &file, "--mode", "flag", "--all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("#define GMRACE_MODE_FLAG 1"));
}

#[test]
fn instrument_refuses_a_kernel_it_cannot_rewrite_with_a_location() {
    let o = gmrace(&[
        "instrument",
        &corpus("instrument/errors/macro_kernel.cu"),
        "--mode",
        "flag",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot rewrite kernel `zero`"), "{err}");
    assert!(err.contains("macro_kernel.cu:3:1"), "{err}");
    let o = gmrace(&["instrument", &corpus("instrument/atomics.cu")]);
    assert_eq!(o.status.code(), Some(2), "--mode is required");
}
