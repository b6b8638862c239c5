//! The `gmrace` binary's contract: exit statuses and located errors.

#[path = "../../tests/common/design_clang.rs"]
mod design_clang;

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
    // The IR keeps an atomic's scope (reports name the kind alone).
    assert!(accesses
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["kind"] == serde_json::json!({"atomic": "device"})));
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

/// `--solver ilp` answers with good_lp where it can and gives z3's exit status and verdicts
/// (the library test compares the two engines over the whole corpus).
#[test]
fn analyze_with_the_ilp_engine_gives_the_z3_verdicts() {
    for f in [
        "reduce_seq_race.cu",
        "reduce_seq_fixed.cu",
        "block3d_fixed.cu",
        "hillis_steele_race.cu",
    ] {
        let path = corpus(&format!("analysis/{f}"));
        let run = |solver: &str| {
            let o = gmrace(&["analyze", &path, "--format", "json", "--solver", solver]);
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
            let k = v["kernels"][0].clone();
            let verdicts: Vec<serde_json::Value> = k["accesses"]
                .as_array()
                .expect("accesses")
                .iter()
                .map(|a| a["verdict"].clone())
                .collect();
            let notes = k["assumptions"]["notes"].to_string();
            (
                o.status.code(),
                verdicts,
                k["stats"]["ilp_answers"].clone(),
                notes,
            )
        };
        let (z3_status, z3_verdicts, z3_by_ilp, z3_notes) = run("z3");
        let (ilp_status, ilp_verdicts, ilp_by_ilp, ilp_notes) = run("ilp");
        assert_eq!(z3_status, ilp_status, "{f}");
        assert_eq!(z3_verdicts, ilp_verdicts, "{f}");
        assert_eq!(z3_by_ilp, 0, "{f}");
        assert!(ilp_by_ilp.as_u64().is_some_and(|n| n > 0), "{f}");
        assert!(!z3_notes.contains("good_lp") && ilp_notes.contains("good_lp"));
    }
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

/// A launch spec whose block has more threads than the kernel's `__launch_bounds__` is a launch
/// CUDA refuses: exit 2 with the bound and its line, as for a block beyond CUDA's own limit.
#[test]
fn run_refuses_a_block_beyond_the_kernels_launch_bounds() {
    let dir = std::env::temp_dir().join(format!("gmrace-cli-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("k.cu");
    std::fs::write(
        &cu,
        "#define THREADS 64\n__global__ void __launch_bounds__(THREADS) k(int *out) {\n  \
         out[threadIdx.x] = threadIdx.x;\n}\n",
    )
    .unwrap();
    let run = |block: u32| {
        let spec = dir.join(format!("k{block}.toml"));
        let text =
            format!("grid = 1\nblock = {block}\n[args]\nout = {{ len = 128, init = \"zeros\" }}\n");
        std::fs::write(&spec, text).unwrap();
        gmrace(&[
            "run",
            cu.to_str().unwrap(),
            "--launch",
            spec.to_str().unwrap(),
            "--mode",
            "off",
        ])
    };
    let o = run(128);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("a block of 128 threads exceeds kernel `k`'s __launch_bounds__(64) (line 2)"),
        "{}",
        stderr(&o)
    );
    let o = run(64);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(dir).ok();
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

/// `gmrace run --mode flag|stmt --format json`: DESIGN.md's fields, races found by the run with
/// what each mode knows, exit status 1.
#[test]
fn checked_runs_report_run_races_in_json_and_exit_one() {
    let spec = corpus("device/hillis_steele_fixed.toml");
    let cu = corpus("analysis/hillis_steele_race.cu");
    for mode in ["flag", "stmt"] {
        let o = gmrace(&[
            "run", &cu, "--launch", &spec, "--mode", mode, "--all", "--format", "json",
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let k = &v["kernels"][0];
        assert_eq!(k["mode"], mode);
        assert_eq!(k["backend"], "emu");
        assert_eq!(k["complete"], true);
        assert!(k["instrumented_accesses"].as_u64().unwrap() >= 2, "{k}");
        for key in ["r_stmt", "r_mem", "r_thd", "r_wp"] {
            assert!(k["summary"][key].is_u64(), "{key}: {k}");
        }
        let runs: Vec<&serde_json::Value> = k["races"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["found_by"] == "run")
            .collect();
        assert!(!runs.is_empty(), "{k}");
        for r in &runs {
            assert_eq!(r["space"], "shared");
            assert_eq!(r["array"], "s");
            assert!(r["byte_offset"].is_u64() && r["blocks"].is_array() && r["warps"].is_array());
            // Only stmt mode knows the statements and threads of an inter-warp race.
            let knows = mode == "stmt" || r["scope"] == "intra-warp";
            assert_eq!(r["lines"].is_array(), knows, "{r}");
            assert_eq!(r["threads"].is_array(), knows, "{r}");
            if knows {
                assert_eq!(r["lines"], serde_json::json!([14, 14]), "{r}");
            }
        }
    }
}

/// Without `--all` only what the analysis left undecided is checked: the scatter with
/// distinct indices runs clean.
#[test]
fn checked_runs_of_race_free_inputs_exit_zero() {
    let o = gmrace(&[
        "run",
        &corpus("analysis/scatter_fixed.cu"),
        "--launch",
        &corpus("device/scatter_fixed.toml"),
        "--mode",
        "stmt",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 instrumented access;"), "{out}");
    assert!(
        out.contains("0 found by the run") && out.contains("complete"),
        "{out}"
    );
}

/// A kernel whose races the analysis proves and whose other accesses it decides records
/// nothing: the checked run executes it as written (the thread-instructions of `--mode off`),
/// complete with zero counters, and still reports the proved races, found by the analysis.
#[test]
fn checked_runs_of_kernels_with_nothing_to_record_run_them_as_written() {
    let run = |mode: &str| {
        let o = gmrace(&[
            "run",
            &corpus("analysis/bitonic_race.cu"),
            "--launch",
            &corpus("device/bitonic_fixed.toml"),
            "--mode",
            mode,
            "--format",
            "json",
        ]);
        // A plain run does not analyse: only the checked runs know of the races.
        let status = if mode == "off" { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(status), "{mode}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["kernels"][0].clone()
    };
    let off = run("off");
    for mode in ["flag", "stmt"] {
        let k = run(mode);
        assert_eq!(k["instrumented_accesses"], 0, "{k}");
        assert_eq!(
            k["thread_instructions"], off["thread_instructions"],
            "{mode}"
        );
        assert_eq!(k["complete"], true, "{k}");
        for key in ["r_stmt", "r_mem", "r_thd", "r_wp"] {
            assert_eq!(k["summary"][key], 0, "{key}: {k}");
        }
        let races = k["races"].as_array().expect("races");
        assert!(!races.is_empty(), "{k}");
        assert!(races.iter().all(|r| r["found_by"] == "analysis"), "{k}");
    }
}

/// `--count-checks` and `--timing` add `executed_checks` and `run_ms`; without them a report is
/// the same for the same input, byte for byte.
#[test]
fn checked_runs_count_checks_and_time_only_when_asked() {
    let kernel = |mode: &str, extra: &[&str]| {
        let mut args = vec!["run", "--format", "json", "--mode", mode, "--launch"];
        let launch = corpus("device/hillis_steele_fixed.toml");
        let cu = corpus("analysis/hillis_steele_fixed.cu");
        args.push(&launch);
        args.push(&cu);
        args.extend_from_slice(extra);
        let o = gmrace(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        (o.stdout, v["kernels"][0].clone())
    };
    let (plain, k) = kernel("flag", &[]);
    assert!(
        k.get("run_ms").is_none() && k.get("executed_checks").is_none(),
        "{k}"
    );
    assert_eq!(plain, kernel("flag", &[]).0, "two runs of one input differ");

    // The analysis proves every shared access safe: with pruning nothing is checked.
    let (_, pruned) = kernel("flag", &["--count-checks"]);
    assert_eq!(pruned["executed_checks"], 0, "{pruned}");
    let (_, all) = kernel("flag", &["--count-checks", "--all"]);
    let checks = all["executed_checks"].as_u64().expect("executed_checks");
    // At least one warp-level check per warp (two blocks of 8 warps) for each of the 7
    // instrumented accesses.
    assert!(checks >= 7 * 16, "{checks} checks");
    let (_, off) = kernel("off", &["--count-checks", "--timing"]);
    assert_eq!(off["executed_checks"], 0, "{off}");
    assert!(off["run_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{off}");
}

/// Without a CUDA driver (every machine this project is tested on): `--backend cuda` is exit 2
/// naming the missing library, `--backend auto` runs on the CPU device and says so.
#[test]
fn backends_without_a_gpu() {
    if gmrace_runtime_cuda::cuda::probe::driver_present() {
        eprintln!("a CUDA driver is present: the no-GPU behaviour cannot be checked here");
        return;
    }
    let file = corpus("analysis/reduce_seq_fixed.cu");
    let spec = corpus("device/reduce_seq_fixed.toml");
    let run = |backend: &str, format: &str| {
        gmrace(&[
            "run",
            &file,
            "--launch",
            &spec,
            "--mode",
            "off",
            "--backend",
            backend,
            "--format",
            format,
        ])
    };
    let o = run("cuda", "text");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--backend cuda: no CUDA driver"), "{err}");
    assert!(err.contains("libcuda.so.1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = run("auto", "text");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("on emu"), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("note: running on the CPU device (emu): no CUDA driver"),
        "{err}"
    );

    let o = run("auto", "json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["kernels"][0]["backend"], "emu");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
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

/// An instrumented file written elsewhere still finds the user's headers, next to the original
/// (`#include "..."`, relative paths included) or in a `-I` directory: DESIGN.md's clang
/// command compiles it with only the output directory on the include path.
#[test]
fn instrument_output_elsewhere_compiles_with_the_users_headers() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-instrument-includes");
    let _ = std::fs::remove_dir_all(&root);
    let (src, inc, out) = (root.join("src"), root.join("inc"), root.join("out"));
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::create_dir_all(&inc).expect("mkdir");
    std::fs::write(root.join("sizes.h"), "#define TILE 64\n").expect("write");
    std::fs::write(
        inc.join("ops.h"),
        "__device__ float twice(float x) { return 2 * x; }\n",
    )
    .expect("write");
    let kernel = src.join("k.cu");
    std::fs::write(
        &kernel,
        "#include \"../sizes.h\"\n#include <ops.h>\n\
         __global__ void k(float *a) {\n    __shared__ float s[TILE];\n\
         \x20   s[threadIdx.x] = twice(a[threadIdx.x]);\n    __syncthreads();\n\
         \x20   a[threadIdx.x] = s[(threadIdx.x + 1) % TILE];\n}\n",
    )
    .expect("write");
    let out_file = out.join("k.cu");
    let o = gmrace(&[
        "instrument",
        &kernel.display().to_string(),
        "--mode",
        "flag",
        "--all",
        "-I",
        &inc.display().to_string(),
        "-o",
        &out_file.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let compiled = design_clang::plain_ptx(&out_file, &[&out], &out.join("k.s"));
    match compiled {
        Ok(c) => assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr)),
        Err(e) => eprintln!("clang not run ({e}): the compile check is skipped"),
    }
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
