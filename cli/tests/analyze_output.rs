//! `gmrace analyze` as other tools consume it: SARIF read back with a typed SARIF library and
//! checked for what GitHub code scanning requires (cross-checked with the JSON report), whole
//! directories (order, a bad file, exit status, JSON, SARIF), the text report (carets, witness,
//! summary, colour) and a closed pipe.

use serde_json::Value;
use serde_sarif::sarif::{ResultLevel, Sarif};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod sarif_check;
use sarif_check::{check_location, check_log};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs gmrace in the workspace root, so that corpus paths are relative to the working directory.
fn gmrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run gmrace")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn sarif(args: &[&str]) -> (Sarif, Output) {
    let mut all = vec!["analyze"];
    all.extend(args);
    all.extend(["--format", "sarif"]);
    let o = gmrace(&all);
    let log: Sarif = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not SARIF ({e}): {}", String::from_utf8_lossy(&o.stdout)));
    (log, o)
}

fn json(args: &[&str]) -> (Value, Output) {
    let mut all = vec!["analyze"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let o = gmrace(&all);
    let v = serde_json::from_slice(&o.stdout).expect("JSON");
    (v, o)
}

#[test]
fn sarif_races_name_both_accesses_like_the_json_report() {
    for file in [
        "tests/kernels/analysis/reduce_seq_race.cu",
        "tests/kernels/analysis/hillis_steele_race.cu",
        "tests/kernels/analysis/global_counter_race.cu",
    ] {
        let (log, o) = sarif(&[file, "--quiet"]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
        let results = check_log(&log);
        let (v, _) = json(&[file]);
        let races: Vec<&Value> = v["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|k| k["races"].as_array().unwrap())
            .collect();
        assert!(!races.is_empty(), "{file}");
        // Same races, same order, each at its first access with the second one related.
        assert_eq!(results.len(), races.len(), "{file}");
        for ((id, name, line, related), race) in results.iter().zip(&races) {
            assert_eq!(id, &format!("race/{}", race["scope"].as_str().unwrap()));
            assert!(file.ends_with(name.as_str()));
            assert_eq!(Value::from(*line), race["first"]["line"]);
            assert_eq!(related.len(), 1);
            assert_eq!(Value::from(related[0]), race["second"]["line"]);
        }
        let first = &log.runs[0].results.as_ref().unwrap()[0];
        assert_eq!(first.level, Some(ResultLevel::Error));
        let text = first.message.text.as_deref().unwrap();
        let witness = &races[0]["witness"];
        assert!(
            text.contains(&format!("byte {}", witness["byte_offset"])),
            "{text}"
        );
        assert!(
            text.contains("thread (") && text.contains("block ("),
            "{text}"
        );
        let props = &first.properties.as_ref().unwrap().additional_properties;
        assert_eq!(&props["witness"], witness);
    }
}

/// The tiled transpose of issue 17, block 16x16 and any grid: its first witness wrote
/// `out[y * h + x]` with h = 2^29, where `y * h` overflows `int`. A witness never relies on
/// signed overflow, and prefers small values: what races is two blocks that differ only in
/// `blockIdx.z`, which the kernel does not read.
#[test]
fn transpose_witness_needs_no_overflow_and_takes_small_values() {
    let dir = std::env::temp_dir().join(format!("gmrace-transpose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("transpose.cu");
    std::fs::write(
        &file,
        "#define TILE 16\n\
         __global__ void transpose(float *out, const float *in, int w, int h) {\n\
         __shared__ float tile[TILE][TILE + 1];\n\
         int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;\n\
         if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];\n\
         __syncthreads();\n\
         x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;\n\
         if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (v, o) = json(&[path, "--block", "16x16"]);
    assert!(o.status.code().is_some_and(|c| c < 2), "{}", stderr(&o));
    for race in v["kernels"][0]["races"].as_array().unwrap() {
        let w = &race["witness"];
        for p in w["params"].as_object().unwrap().values() {
            assert!(p.as_i64().unwrap().abs() <= 1024, "{race}");
        }
        for g in w["grid_dim"].as_array().unwrap() {
            assert!(g.as_u64().unwrap() <= 64, "{race}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A barrier under a thread-dependent branch with no barrier after it: the threads that skip
/// it go on alive, so it diverges, with launch dimensions and without (any launch).
#[test]
fn skipped_barrier_diverges_with_and_without_launch_dims() {
    let dir = std::env::temp_dir().join(format!("gmrace-skip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("skip.cu");
    std::fs::write(
        &file,
        "__global__ void k(int *g) {\n  __shared__ int s[64];\n  int tid = threadIdx.x;\n  \
         s[tid] = g[tid];\n  if (tid < 16) __syncthreads();\n  g[tid] = s[63 - tid];\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    for dims in [&["--block", "64", "--grid", "1"][..], &[]] {
        let (v, o) = json(&[&[path][..], dims].concat());
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let d = &v["kernels"][0]["barrier_divergence"];
        assert_eq!(d.as_array().map(Vec::len), Some(1), "{dims:?}: {v}");
        assert_eq!(d[0]["line"], 5);
        // The other thread reaches no barrier instead.
        assert_eq!(d[0]["witness"]["other_line"], Value::Null);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sarif_divergence_relates_the_other_barrier() {
    let file = "tests/kernels/analysis/divergent_barrier_race.cu";
    let (log, o) = sarif(&[file, "--quiet"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let results = check_log(&log);
    let (v, _) = json(&[file]);
    let d = &v["kernels"][0]["barrier_divergence"][0];
    let div: Vec<_> = results
        .iter()
        .filter(|r| r.0 == "barrier-divergence")
        .collect();
    assert_eq!(div.len(), 1, "{results:?}");
    assert_eq!(Value::from(div[0].2), d["line"]);
    assert_eq!(div[0].3, vec![d["witness"]["other_line"].as_i64().unwrap()]);
    // Without --quiet the accesses left unknown are notes.
    let (log, _) = sarif(&[file]);
    let notes: Vec<_> = log.runs[0]
        .results
        .as_ref()
        .unwrap()
        .iter()
        .filter(|r| r.rule_id.as_deref() == Some("unverified-access"))
        .collect();
    assert!(!notes.is_empty());
    assert!(notes.iter().all(|r| r.level == Some(ResultLevel::Note)));
}

#[test]
fn sarif_of_a_race_free_kernel_has_no_result() {
    let (log, o) = sarif(&["tests/kernels/analysis/reduce_seq_fixed.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(check_log(&log).is_empty());
    assert!(log.runs[0].invocations.as_ref().unwrap()[0].execution_successful);
}

/// A directory with a racy file (in a subdirectory), a race-free one and one that does not parse.
fn project() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-project-{}", std::process::id()));
    let corpus = root().join("tests/kernels/analysis");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(corpus.join("reduce_seq_race.cu"), dir.join("sub/racy.cu")).unwrap();
    std::fs::copy(corpus.join("reduce_seq_fixed.cu"), dir.join("safe.cu")).unwrap();
    std::fs::write(
        dir.join("bad.cu"),
        "__global__ void k(int *a) { a[0] = 1 }\n",
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "not CUDA").unwrap();
    dir
}

#[test]
fn a_directory_reports_every_file_in_order_and_a_bad_file_is_exit_two() {
    let dir = project();
    let d = dir.to_str().unwrap();
    let o = gmrace(&["analyze", d]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("expected ';'") && err.contains("bad.cu:1:"),
        "{err}"
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("inter-warp race on shared memory `s`"),
        "{out}"
    );
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("file "))
        .collect();
    assert_eq!(table.len(), 6, "{out}");
    assert!(
        table[1].contains("bad.cu") && table[1].ends_with("error"),
        "{out}"
    );
    assert!(
        table[2].contains("safe.cu") && table[2].ends_with("ok"),
        "{out}"
    );
    assert!(
        table[3].contains("sub/racy.cu") && table[3].ends_with("problem"),
        "{out}"
    );
    assert!(table[5].starts_with("total (3 files)"), "{out}");
    assert!(table[5].ends_with("1 failed, 1 with problems"), "{out}");

    // JSON: the kernels of the two good files, sorted by path.
    let (v, o) = json(&[d]);
    assert_eq!(o.status.code(), Some(2));
    let files: Vec<&str> = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[0].ends_with("safe.cu") && files[1].ends_with("sub/racy.cu"));
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["file"].as_str().unwrap().ends_with("bad.cu"));
    assert_eq!(errors[0]["line"], 1);
    // Analysed in parallel with the others, the racy file gets the race (and witness) it gets
    // alone.
    let (alone, _) = json(&[dir.join("sub/racy.cu").to_str().unwrap()]);
    assert_eq!(v["kernels"][1]["races"], alone["kernels"][0]["races"]);

    // SARIF: the race as a result, the bad file as a failed invocation's located error.
    let (log, o) = sarif(&[d]);
    assert_eq!(o.status.code(), Some(2));
    let results = check_log(&log);
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0].1, "racy.cu");
    let inv = &log.runs[0].invocations.as_ref().unwrap()[0];
    assert!(!inv.execution_successful);
    let notes = inv.tool_execution_notifications.as_ref().unwrap();
    let bad = notes
        .iter()
        .find(|n| {
            n.message
                .text
                .as_deref()
                .is_some_and(|t| t.contains("expected ';'"))
        })
        .expect("the parse error as a notification");
    assert_eq!(bad.level, Some(Value::from("error")));
    let loc = &bad.locations.as_ref().unwrap()[0];
    assert_eq!(check_location(&log, loc).0, "bad.cu");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_directory_without_problems_is_exit_zero_and_an_empty_one_exit_two() {
    let dir = std::env::temp_dir().join(format!("gmrace-clean-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = gmrace(&["analyze", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no `.cu` file below"), "{}", stderr(&o));
    let corpus = root().join("tests/kernels/analysis");
    for f in ["reduce_seq_fixed.cu", "hillis_steele_fixed.cu"] {
        std::fs::copy(corpus.join(f), dir.join(f)).unwrap();
    }
    let o = gmrace(&["analyze", dir.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Not a terminal: no progress bar on stderr.
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // `--kernel` picks kernels across the files; none anywhere is an error.
    let o = gmrace(&[
        "analyze",
        dir.to_str().unwrap(),
        "--kernel",
        "scan_hs",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kernels"].as_array().unwrap().len(), 1);
    let o = gmrace(&["analyze", dir.to_str().unwrap(), "--kernel", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no kernel named `nope` below"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn text_report_shows_both_accesses_the_witness_and_a_summary_in_colour_only_when_asked() {
    let file = "tests/kernels/analysis/reduce_seq_race.cu";
    let o = gmrace(&["analyze", file]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains('\x1b'), "colour on a pipe: {out}");
    let (v, _) = json(&[file]);
    let race = &v["kernels"][0]["races"][0];
    for access in ["first", "second"] {
        let caret_line = format!("{:>2} |", race[access]["line"]);
        assert!(out.contains(&caret_line), "{out}");
    }
    assert!(
        out.contains("write by thread") && out.contains("read by thread"),
        "{out}"
    );
    assert!(
        out.contains("witness") && out.contains("barriers passed"),
        "{out}"
    );
    let byte = format!("address: byte {} of `s`", race["witness"]["byte_offset"]);
    assert!(out.contains(&byte), "{out}");
    assert!(
        out.contains("7 accesses: 5 safe, 2 racy, 0 unknown; 1 race"),
        "{out}"
    );

    let forced = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["analyze", file])
        .current_dir(root())
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&forced.stdout).contains("\x1b["));
}

/// Under `lockstep` two lanes race by writing in the same execution of a statement: the
/// witness shows the loop iterations that make it one execution, though lane 0 had executed
/// the statement once more than lane 31 by then.
#[test]
fn a_lockstep_witness_shows_the_loop_iterations_of_both_lanes() {
    let file = "tests/kernels/analysis/round_log_race.cu";
    let (v, o) = json(&[file, "--warp-model", "lockstep"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let race = &v["kernels"][0]["races"][0];
    assert_eq!(race["scope"], "intra-warp");
    let w = &race["witness"];
    assert_eq!(w["loop_iterations"][0], w["loop_iterations"][1], "{w}");
    assert_ne!(w["executions"][0], w["executions"][1], "{w}");
    let o = gmrace(&["analyze", file, "--warp-model", "lockstep"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let its = w["loop_iterations"][0][0].to_string();
    let row = format!("loop iterations   {its:<16}{its}");
    assert!(out.contains(&row), "{out}");
    let (log, _) = sarif(&[file, "--warp-model", "lockstep"]);
    let results = log.runs[0].results.as_deref().unwrap_or_default();
    let text = results[0].message.text.as_deref().unwrap_or_default();
    assert_eq!(
        text.matches(&format!("loop iterations {its})")).count(),
        2,
        "{text}"
    );
}

#[test]
fn the_text_report_says_when_solver_work_ran_out_and_only_then() {
    // A launch left symbolic, so the solver has to answer: no budget, nothing asked.
    let file = "tests/kernels/analysis/hillis_steele_fixed.cu";
    let starved = gmrace(&["analyze", file, "--symbolic-only", "--budget", "0"]);
    let out = String::from_utf8_lossy(&starved.stdout);
    assert!(out.contains("unknown: access"), "{out}");
    assert!(
        out.contains("not asked once the kernel's solver budget was spent (`--budget`)"),
        "{out}"
    );
    // A file's budget shared among its kernels: this one's share is nothing.
    let shared = gmrace(&["analyze", file, "--symbolic-only", "--file-budget", "0"]);
    let out = String::from_utf8_lossy(&shared.stdout);
    assert!(
        out.contains("not asked once its share of the file's solver budget was spent"),
        "{out}"
    );
    // Too little work per query to decide anything.
    let tight = gmrace(&["analyze", file, "--symbolic-only", "--rlimit", "1"]);
    let out = String::from_utf8_lossy(&tight.stdout);
    assert!(out.contains("ran out of solver work (`--rlimit`)"), "{out}");
    let fed = gmrace(&[
        "analyze",
        file,
        "--symbolic-only",
        "--budget",
        "100000000000",
    ]);
    assert!(String::from_utf8_lossy(&fed.stdout).contains("9 safe"));
    let out = String::from_utf8_lossy(&fed.stdout);
    assert!(!out.contains("note:"), "{out}");
}

#[test]
fn a_closed_pipe_does_not_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args([
            "analyze",
            "tests/kernels/analysis/reduce_seq_race.cu",
            "--format",
            "sarif",
        ])
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

/// The race's flags in JSON, and the text's note, for each file.
fn race_flags(file: &str) -> (Vec<(bool, bool)>, String) {
    let (v, o) = json(&[file]);
    assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
    let flags = v["kernels"][0]["races"]
        .as_array()
        .expect("races")
        .iter()
        .map(|r| (r["scoped"] == true, r["volatile"] == true))
        .collect();
    let text = gmrace(&["analyze", file]);
    (flags, String::from_utf8_lossy(&text.stdout).into_owned())
}

#[test]
fn scoped_and_volatile_races_say_so_in_json_and_text() {
    let (flags, text) = race_flags("tests/kernels/analysis/block_atomic_mixed_race.cu");
    assert_eq!(flags, vec![(true, false)]);
    assert!(
        text.contains("atomic only among the threads of its block"),
        "{text}"
    );
    assert!(!text.contains("`volatile`"), "{text}");

    let (flags, text) = race_flags("tests/kernels/analysis/volatile_warp_reduce_race.cu");
    assert!(
        !flags.is_empty() && flags.iter().all(|f| *f == (false, true)),
        "{flags:?}"
    );
    assert!(
        text.contains("`volatile` makes each access happen but orders nothing"),
        "{text}"
    );
    assert!(!text.contains("_block` atomic"), "{text}");

    // libcu++'s atomic_ref with its thread scope, reported at the user's call.
    let file = "tests/kernels/frontend/atomic_ref_block_race.cu";
    let (flags, text) = race_flags(file);
    assert_eq!(flags, vec![(true, false)]);
    assert!(text.contains("atomic_ref_block_race.cu:8:5"), "{text}");
    let (v, o) = json(&["tests/kernels/frontend/atomic_ref_block_fixed.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let verdicts: Vec<&Value> = v["kernels"][0]["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .map(|a| &a["verdict"])
        .collect();
    assert!(verdicts.iter().all(|v| *v == "safe"), "{verdicts:?}");

    // A plain race has neither flag, in JSON or in text.
    let (flags, text) = race_flags("tests/kernels/analysis/lock_counter_race.cu");
    assert!(
        !flags.is_empty() && flags.iter().all(|f| *f == (false, false)),
        "{flags:?}"
    );
    assert!(!text.contains("note:"), "{text}");
}

#[test]
fn races_a_lock_may_order_are_left_to_the_run_and_the_text_says_why() {
    let (v, o) = json(&["tests/kernels/analysis/lock_counter_fixed.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let k = &v["kernels"][0];
    assert_eq!(k["races"].as_array().map(Vec::len), Some(0));
    assert_eq!(k["stats"]["protocol_ordered"], 2, "{k}");
    let reasons: Vec<&Value> = k["left_to_run"]
        .as_array()
        .expect("left_to_run")
        .iter()
        .map(|p| &p["reason"])
        .collect();
    assert_eq!(reasons.len(), 2, "{k}");
    assert!(
        reasons
            .iter()
            .all(|r| *r == "ordered by a lock: left to the run"),
        "{reasons:?}"
    );
    let counter: Vec<&Value> = k["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .filter(|a| a["array"] == "counter")
        .collect();
    assert!(
        counter.iter().all(|a| a["verdict"] == "unknown"),
        "{counter:?}"
    );
    let text = gmrace(&["analyze", "tests/kernels/analysis/lock_counter_fixed.cu"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(
        text.matches("ordered by a lock: left to the run").count(),
        2,
        "{text}"
    );
    // A checked run lists the pairs it decides, and finds no race among them.
    let o = gmrace(&[
        "run",
        "tests/kernels/analysis/lock_counter_fixed.cu",
        "--launch",
        "tests/kernels/device/lock_counter_fixed.toml",
        "--mode",
        "flag",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["left_to_run"].as_array().map(Vec::len), Some(2), "{k}");
    assert_eq!(k["races"].as_array().map(Vec::len), Some(0), "{k}");
}

#[test]
fn a_relaxed_atomic_ref_orders_nothing_and_a_release_leaves_the_pair_to_the_run() {
    let (v, o) = json(&["tests/kernels/frontend/atomic_ref_relaxed_race.cu"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let races = v["kernels"][0]["races"].as_array().expect("races");
    assert!(
        !races.is_empty() && races.iter().all(|r| r["witness"]["array"] == "data"),
        "{races:?}"
    );
    let (v, o) = json(&["tests/kernels/frontend/atomic_ref_release_fixed.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let k = &v["kernels"][0];
    assert_eq!(k["races"].as_array().map(Vec::len), Some(0), "{k}");
    let protocols: Vec<&Value> = k["left_to_run"]
        .as_array()
        .expect("left_to_run")
        .iter()
        .map(|p| &p["protocol"])
        .collect();
    assert_eq!(protocols, vec!["flag"], "{k}");
}

#[test]
fn a_warp_sync_header_means_lockstep_unless_the_command_line_says_otherwise() {
    let file = "tests/kernels/analysis/volatile_lockstep_reduce_fixed.cu";
    let (v, o) = json(&[file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let a = &v["kernels"][0]["assumptions"];
    assert_eq!(a["warp_model"], "lockstep", "{a}");
    assert_eq!(
        a["sources"]["warp_model"],
        "header comment, line 2 (--warp-sync)"
    );
    let (v, o) = json(&[file, "--warp-model", "its"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the idiom races under its: {}",
        stderr(&o)
    );
    let a = &v["kernels"][0]["assumptions"];
    assert_eq!(a["warp_model"], "its", "{a}");
    assert!(a["sources"].get("warp_model").is_none(), "{a}");
}

#[test]
fn kernels_that_cannot_be_read_are_listed_and_the_others_analysed() {
    let file = "tests/kernels/realcode/missing_host_headers.cu";
    let (v, o) = json(&[file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<&str> = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|k| k["name"].as_str())
        .collect();
    assert_eq!(names, ["scaleSpectrum"]);
    let skipped = &v["not_analysed"][0];
    assert_eq!(skipped["name"], "conjugate");
    assert_eq!(skipped["line"], 17);
    assert!(
        skipped["reason"].as_str().unwrap().contains("Npp32fc"),
        "{skipped}"
    );
    // The text report says it even when quiet, and that the headers were missing.
    let o = gmrace(&["analyze", file, "--quiet"]);
    assert!(
        stderr(&o).contains("kernel `conjugate` not analysed"),
        "{}",
        stderr(&o)
    );
    let o = gmrace(&["analyze", file]);
    assert!(stderr(&o).contains("`npp.h` not found"), "{}", stderr(&o));
    // Asking for the unreadable kernel alone analyses nothing: exit 2.
    let (v, o) = json(&[file, "--kernel", "conjugate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(v["not_analysed"][0]["name"], "conjugate");
}

#[test]
fn a_file_whose_only_kernel_cannot_be_read_is_refused() {
    let (v, o) = json(&["tests/kernels/realcode/kernel_unreadable.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(v["errors"][0]["line"], 3, "{v}");
}

#[test]
fn a_race_that_needs_particular_pitches_is_conditional() {
    let file = "tests/kernels/realcode/pitch_from_malloc.cu";
    let (v, o) = json(&[file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let race = &v["kernels"][0]["races"][0];
    assert_eq!(race["certainty"], "conditional", "{race}");
    assert_eq!(race["condition"], "pitch = 0", "{race}");
    // Its accesses stay unknown, so that a run checks them.
    let write = v["kernels"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "write")
        .unwrap();
    assert_eq!(write["verdict"], "unknown");
    let o = gmrace(&["analyze", file]);
    assert!(
        stderr(&o).contains("warning: conditional intra-warp race")
            || String::from_utf8_lossy(&o.stdout).contains("warning: conditional intra-warp race"),
        "{}",
        stderr(&o)
    );
    let (_, o) = json(&[file, "--fail-on", "conditional"]);
    assert_eq!(o.status.code(), Some(1));
    let (log, _) = sarif(&[file, "--quiet"]);
    assert_eq!(check_log(&log).len(), 1);
    let result = &log.runs[0].results.as_ref().unwrap()[0];
    assert_eq!(result.level, Some(ResultLevel::Warning));
}

#[test]
fn the_report_names_the_headers_it_read_and_a_directory_that_is_no_toolkit_is_exit_two() {
    let file = "tests/kernels/realcode/launch_api.cu";
    let (v, o) = json(&[file, "--stand-ins"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(v["headers"], "stand-ins");
    let (v, o) = json(&[file, "--cuda-path", "tests/kernels"]);
    assert_eq!(o.status.code(), Some(2));
    let message = v["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("is not a CUDA toolkit"), "{v}");
    let o = gmrace(&["analyze", file, "--cuda-path", "tests/kernels"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a CUDA toolkit"),
        "{}",
        stderr(&o)
    );
    // tests/realcode/toolkit.rs requires the toolkit's headers; here they are the one found through
    // CUDA_PATH.
    let Some(toolkit) = std::env::var_os("GMRACE_TOOLKIT_HEADERS") else {
        return;
    };
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["analyze", file, "--format", "json"])
        .env("CUDA_PATH", &toolkit)
        .current_dir(root())
        .output()
        .expect("run gmrace");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let headers = v["headers"].as_str().unwrap_or_default();
    assert!(headers.starts_with("toolkit 12.4 ("), "{v}");
    assert_eq!(v["kernels"].as_array().map(Vec::len), Some(2), "{v}");
}

/// The race of `realcode/program/kernels.cu`, whose file names it as `// RACE`.
fn program_race_line() -> u64 {
    let text = std::fs::read_to_string(root().join("tests/kernels/realcode/program/kernels.cu"))
        .expect("program corpus");
    text.lines()
        .position(|l| l.contains("// RACE"))
        .expect("marker") as u64
        + 1
}

#[test]
fn a_file_another_includes_is_read_through_its_includer() {
    let dir = "tests/kernels/realcode/program";
    // Named alone: read through main.cu, only its own kernels reported.
    let (v, o) = json(&[&format!("{dir}/kernels.cu")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let names: Vec<&str> = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|k| k["name"].as_str())
        .collect();
    assert_eq!(names, ["swapPairs", "foldPairs"], "{v}");
    assert!(
        stderr(&o).contains(&format!("it is read through `{dir}/main.cu`")),
        "{}",
        stderr(&o)
    );
    let race = &v["kernels"][1]["races"][0];
    assert_eq!(race["first"]["line"], program_race_line(), "{race}");
    // A directory: the fragment is read once, through main.cu, and is not refused.
    let (v, o) = json(&[dir]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(v["kernels"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{v}");
    assert!(
        stderr(&o).contains("its kernels are read through this file"),
        "{}",
        stderr(&o)
    );
}

/// `realcode/host_chain/kernels.cu` is included by `moves.cpp`, which `main.cu` includes:
/// the chain of includes goes through host files, and the kernel is read through `main.cu`.
#[test]
fn a_file_included_through_host_files_is_read_through_the_program() {
    let dir = "tests/kernels/realcode/host_chain";
    for input in [format!("{dir}/kernels.cu"), dir.to_string()] {
        let (v, o) = json(&[&input]);
        assert_eq!(o.status.code(), Some(1), "{input}: {}", stderr(&o));
        assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{v}");
        let k = &v["kernels"][0];
        assert_eq!(k["name"], "countMoves", "{v}");
        assert_eq!(
            k["assumptions"]["block"],
            serde_json::json!([128, 1, 1]),
            "{k}"
        );
        assert_eq!(k["races"][0]["first"]["line"], 5, "{k}");
        assert!(stderr(&o).contains("main.cu"), "{}", stderr(&o));
    }
}

/// The kernels of `realcode/split_program/kernels.cu`, by name, from a JSON report.
fn split_kernel<'v>(v: &'v Value, name: &str) -> &'v Value {
    v["kernels"]
        .as_array()
        .and_then(|ks| ks.iter().find(|k| k["name"] == name))
        .unwrap_or_else(|| panic!("no kernel {name}: {v}"))
}

#[test]
fn a_kernel_gets_the_launches_other_files_of_its_directory_make() {
    let dir = "tests/kernels/realcode/split_program";
    let line = std::fs::read_to_string(root().join(dir).join("main.cu"))
        .expect("main.cu")
        .lines()
        .position(|l| l.contains("tileTranspose<<<"))
        .expect("launch")
        + 1;
    let tile_write = |k: &Value| {
        let accesses = k["accesses"].as_array().expect("accesses");
        let write = accesses
            .iter()
            .find(|a| a["array"] == "tile" && a["kind"] == "write");
        write.expect("the tile write")["verdict"].clone()
    };
    // `kernels.cu` launches no `tileTranspose`: named alone or with its directory, it is
    // analysed under main.cu's launch (8x8 blocks of 64), with no race; without it the block
    // would be open and the tile write `unknown`. The 16x16 launch of `other/main.cu`,
    // another program's, is not taken.
    for input in [format!("{dir}/kernels.cu"), dir.to_string()] {
        let (v, o) = json(&[&input]);
        let launched = split_kernel(&v, "tileTranspose");
        let a = &launched["assumptions"];
        assert_eq!(
            a["block"],
            serde_json::json!([8, 8, 1]),
            "{input}: {launched}"
        );
        assert_eq!(a["grid"], serde_json::json!([64, 1, 1]), "{launched}");
        assert_eq!(a["sources"]["block"], format!("launch at main.cu:{line}"));
        assert_eq!(
            launched["races"].as_array().map(Vec::len),
            Some(0),
            "{launched}"
        );
        assert_eq!(tile_write(launched), "safe", "{launched}");
        // A `static` kernel is launched from its own file only: main.cu's `zeroTile` is
        // another.
        let fixed = split_kernel(&v, "zeroTile");
        assert_eq!(fixed["assumptions"]["block"][0], Value::Null, "{fixed}");
        assert_eq!(fixed["races"].as_array().map(Vec::len), Some(1), "{fixed}");
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    }
}

#[test]
fn a_launch_two_files_could_run_is_given_to_neither() {
    let dir = "tests/kernels/realcode/split_ambiguous";
    for (input, count) in [(dir.to_string(), 2), (format!("{dir}/fill_a.cu"), 1)] {
        let (v, o) = json(&[&input]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let kernels = v["kernels"].as_array().expect("kernels");
        assert_eq!(kernels.len(), count, "{v}");
        for k in kernels {
            // Each keeps the open block it has alone, and its race under blocks over 64
            // threads.
            assert_eq!(k["assumptions"]["block"][0], Value::Null, "{k}");
            assert_eq!(k["races"].as_array().map(Vec::len), Some(1), "{k}");
        }
    }
}

/// Named alone, `kernels.cu` takes main.cu's launch of `fill` only when every file beside it
/// that names `fill` can be read: `draft.cu` does not compile, and could define another.
#[test]
fn no_launch_is_taken_beside_a_file_that_cannot_be_read() {
    let dir = "tests/kernels/realcode/split_unreadable";
    let (v, o) = json(&[&format!("{dir}/kernels.cu")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let fill = split_kernel(&v, "fill");
    assert_eq!(fill["assumptions"]["block"][0], Value::Null, "{fill}");
    assert_eq!(fill["races"].as_array().map(Vec::len), Some(1), "{fill}");
}

/// A header's kernel templates: read one by one, a file lists only what it can instantiate
/// (`sizes.cu`, which launches none, has nothing to analyse); analysed together, the files
/// list each template no file instantiates once, and the run is not refused for it.
#[test]
fn a_headers_templates_no_file_instantiates_are_listed_once_for_the_files_together() {
    let dir = "tests/kernels/realcode/header_program";
    let (v, o) = json(&[&format!("{dir}/sizes.cu")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(v["not_analysed"], serde_json::json!([]), "{v}");
    let (v, o) = json(&[dir]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    split_kernel(&v, "fill<float>");
    let listed: Vec<(&str, &str)> = v["not_analysed"]
        .as_array()
        .expect("not_analysed")
        .iter()
        .map(|n| (n["name"].as_str().unwrap(), n["reason"].as_str().unwrap()))
        .collect();
    let why = "template never instantiated by the files analysed together";
    assert_eq!(listed, [("scale", why), ("clear_first", why)], "{v}");
}

/// A refused file's note on a missing header says what it was read as: here the CUDA header
/// of the `half` the file took from it, which is not the header's own types.
#[test]
fn a_refusal_says_a_missing_header_stood_for_cudas_type_header() {
    let dir = std::env::temp_dir().join(format!("gmrace-standing-for-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tensor_kernels.cu");
    let source = "#include <my_tensor.h>\n\
                  __global__ void scale(half *x, my::Shape s) { x[threadIdx.x] = x[s.n]; }\n";
    std::fs::write(&file, source).unwrap();
    let o = gmrace(&["analyze", file.to_str().unwrap()]);
    let err = stderr(&o);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "`my_tensor.h` not found, read as including only `cuda_fp16.h`, for the types the \
             file takes from it: errors may come from it"
        ),
        "{err}"
    );
}

#[test]
fn a_file_whose_kernels_are_all_uninstantiated_templates_is_not_refused() {
    let file = "tests/kernels/realcode/templates_never_instantiated.cu";
    let (v, o) = json(&[file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<&str> = v["not_analysed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str())
        .collect();
    assert_eq!(names, ["fill", "first_of_block"], "{v}");
    let o = gmrace(&["analyze", file]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("is instantiated in it: analyse the files that launch"),
        "{}",
        stderr(&o)
    );
}

/// A race whose access lies in a header of the project names that header: in the JSON
/// (`file` on the access and on the race's end) and in the text excerpt, whose line is the
/// header's, not the kernel file's line of that number.
#[test]
fn an_access_in_a_project_header_is_reported_in_that_header() {
    let dir = std::env::temp_dir().join(format!("gmrace-header-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("warp_sum.cuh"),
        "// A warp's sum without __syncwarp.\n\
         __device__ void warp_sum(float *s, unsigned t) {\n  s[t] += s[t + 16];\n  s[t] += s[t + 8];\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("total.cu"),
        "#include \"warp_sum.cuh\"\n\
         __global__ void total(float *out, const float *in) {\n\
         \x20 __shared__ float s[64];\n\
         \x20 s[threadIdx.x] = in[threadIdx.x];\n\
         \x20 __syncthreads();\n\
         \x20 if (threadIdx.x < 16) warp_sum(s, threadIdx.x);\n\
         \x20 if (threadIdx.x == 0) out[0] = s[0];\n\
         }\n\
         int main() { float *d = 0; total<<<1, 32>>>(d, d); return 0; }\n",
    )
    .unwrap();
    let file = dir.join("total.cu");
    let (report, _) = json(&[file.to_str().unwrap()]);
    let header = dir.join("warp_sum.cuh");
    let k = &report["kernels"][0];
    let race = &k["races"][0];
    let in_header: Vec<&Value> = [&race["first"], &race["second"]]
        .into_iter()
        .filter(|end| end["file"] == header.to_str().unwrap())
        .collect();
    assert!(!in_header.is_empty(), "{race}");
    assert!(
        in_header
            .iter()
            .all(|end| end["line"] == 3 || end["line"] == 4),
        "{race}"
    );
    let kernel_side = k["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["line"] == 4)
        .unwrap();
    assert!(kernel_side.get("file").is_none(), "{kernel_side}");
    let text = gmrace(&["analyze", file.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains(&format!("{}:3:", header.display())) && out.contains("s[t] += s[t + 8];"),
        "{out}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_launch_takes_what_the_calls_in_other_files_pass() {
    let dir = "tests/kernels/realcode/split_callers";
    let line = std::fs::read_to_string(root().join(dir).join("main.cpp"))
        .expect("main.cpp")
        .lines()
        .position(|l| l.contains("scanDevice("))
        .expect("the call")
        + 1;
    // scan.cu's scanDevice sizes the grid from `length`; main.cpp's one call passes 512: one
    // block, where the scan is right. Named alone or with its directory.
    for input in [format!("{dir}/scan.cu"), dir.to_string()] {
        let (v, o) = json(&[&input]);
        assert_eq!(o.status.code(), Some(0), "{input}: {}", stderr(&o));
        let k = split_kernel(&v, "scanBlock");
        let a = &k["assumptions"];
        assert_eq!(a["grid"], serde_json::json!([1, 1, 1]), "{input}: {k}");
        assert_eq!(a["params"]["length"], 512, "{k}");
        assert_eq!(
            a["sources"]["grid"],
            format!("launch at line 27, with what main.cpp:{line} passes"),
            "{k}"
        );
    }
    // The same for the `dim3` a call passes: main.cpp's 16x16 blocks, one slot per thread.
    let (v, o) = json(&[&format!("{dir}_dim3/tiles.cu")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let k = split_kernel(&v, "rows");
    assert_eq!(
        k["assumptions"]["block"],
        serde_json::json!([16, 16, 1]),
        "{k}"
    );
    assert_eq!(
        k["assumptions"]["sources"]["block"], "launch at line 11, with what main.cpp:7 passes",
        "{k}"
    );
    // Calls that disagree, a directory with no `main` (a library: its calls are not all), a
    // call through a pointer no call names, a call in a file that includes the scan's
    // definition, a call beside the program's main file that defines and calls the scan, a
    // call a template leaves unresolved: the grid stays open, and the scan races.
    for other in [
        "disagree", "library", "pointer", "includer", "main", "template",
    ] {
        let (v, o) = json(&[&format!("{dir}_{other}/scan.cu")]);
        assert_eq!(o.status.code(), Some(1), "{other}: {}", stderr(&o));
        let k = split_kernel(&v, "scanBlock");
        assert_eq!(k["assumptions"]["grid"][0], Value::Null, "{other}: {k}");
        assert_eq!(k["races"].as_array().map(Vec::len), Some(1), "{other}: {k}");
    }
}

/// A directory of more than 64 sources is a library's or many programs': a file named alone
/// takes neither the launches nor the calls of the files beside it there (each file of it
/// analysed on its own would read all the others). The same two programs as above, with 64
/// files more: the block and the grid stay open, and what they prove safe is not.
#[test]
fn a_directory_of_many_sources_is_not_searched_for_launches_or_calls() {
    for (program, file, kernel) in [
        ("split_program", "kernels.cu", "tileTranspose"),
        ("split_callers", "scan.cu", "scanBlock"),
    ] {
        let dir =
            std::env::temp_dir().join(format!("gmrace-many-{program}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let from = root().join("tests/kernels/realcode").join(program);
        for entry in std::fs::read_dir(&from).expect("program").flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), dir.join(entry.file_name())).expect("copy");
            }
        }
        for i in 0..64 {
            std::fs::write(dir.join(format!("unit{i}.cu")), "int unit(void);\n").expect("write");
        }
        let (v, o) = json(&[dir.join(file).to_str().expect("path")]);
        assert_eq!(o.status.code(), Some(1), "{program}: {}", stderr(&o));
        let k = split_kernel(&v, kernel);
        let unsure = k["accesses"]
            .as_array()
            .expect("accesses")
            .iter()
            .any(|a| a["verdict"] != "safe");
        assert!(unsure, "{program}: {k}");
        let open = match program {
            "split_program" => &k["assumptions"]["block"][0],
            _ => &k["assumptions"]["grid"][0],
        };
        assert_eq!(*open, Value::Null, "{program}: {k}");
        std::fs::remove_dir_all(dir).ok();
    }
}

/// A copy of the realcode program `program`'s `file` and `other` in a directory of its own, with
/// a `main` added to `other`: another program's file beside `file`.
fn with_main_beside(program: &str, file: &str, other: &str) -> PathBuf {
    with_tail_beside(program, file, other, b"int main() { return 0; }\n")
}

/// The same with `tail` added to `other`.
fn with_tail_beside(program: &str, file: &str, other: &str, tail: &[u8]) -> PathBuf {
    let tag = tail
        .iter()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(*b)));
    let name = format!("gmrace-{program}-{tag:x}-{}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let from = root().join("tests/kernels/realcode").join(program);
    std::fs::copy(from.join(file), dir.join(file)).expect("copy");
    let mut text = std::fs::read(from.join(other)).expect("the other file");
    text.extend_from_slice(tail);
    std::fs::write(dir.join(other), text).expect("write");
    dir
}

/// A program's main file takes its own calls of its functions as all there are when the files
/// beside it that name them are other programs' (they define `main` too): `split_callers_main`
/// with `extra.cu` a program of its own runs the scan on one block only.
#[test]
fn another_programs_calls_beside_a_main_file_do_not_count() {
    let dir = with_main_beside("split_callers_main", "scan.cu", "extra.cu");
    let (v, o) = json(&[dir.join("scan.cu").to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let k = split_kernel(&v, "scanBlock");
    assert_eq!(
        k["assumptions"]["grid"],
        serde_json::json!([1, 1, 1]),
        "{k}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// A kernel a program's main file launches itself is launched by the files of its program
/// beside it too: named alone, `split_launch_main/main.cu` is analysed under `more.cu`'s 256
/// threads as well as its own 64, and races. When `more.cu` defines `main` it is another
/// program, and the file's own launch stands.
#[test]
fn a_kernel_a_file_launches_takes_its_programs_other_launches_too() {
    let from = root().join("tests/kernels/realcode/split_launch_main");
    let (v, o) = json(&[from.join("main.cu").to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let k = split_kernel(&v, "fill");
    assert_eq!(k["races"].as_array().map(Vec::len), Some(1), "{k}");
    let line = "analysed under each launch's own: line 15 (grid 1x1x1, block 64x1x1); more.cu:6 \
                (grid 1x1x1, block 256x1x1)";
    assert_eq!(k["assumptions"]["sources"]["configurations"], line, "{k}");
    let dir = with_main_beside("split_launch_main", "main.cu", "more.cu");
    let (v, o) = json(&[dir.join("main.cu").to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let k = split_kernel(&v, "fill");
    assert_eq!(
        k["assumptions"]["block"],
        serde_json::json!([64, 1, 1]),
        "{k}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// A file beside that is not UTF-8 (a Latin-1 comment, as old code has) is read all the same:
/// `more.cu`'s launch on 256 threads still counts, and `fill` still races under it.
#[test]
fn a_latin1_file_beside_still_launches() {
    let dir = with_tail_beside(
        "split_launch_main",
        "main.cu",
        "more.cu",
        b"// d\xe9j\xe0 vu\n",
    );
    let (v, o) = json(&[dir.join("main.cu").to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let k = split_kernel(&v, "fill");
    let line = "analysed under each launch's own: line 15 (grid 1x1x1, block 64x1x1); more.cu:6 \
                (grid 1x1x1, block 256x1x1)";
    assert_eq!(k["assumptions"]["sources"]["configurations"], line, "{k}");
    std::fs::remove_dir_all(dir).ok();
}

/// A launch helper with external linkage in a file without `main` may be called from other
/// files with this file's kernels: `split_helper/helpers.cu` passes `fill` with 64 threads,
/// main.cu with 256. Named alone or with its directory, `fill`'s block stays open, and it races.
#[test]
fn a_helper_other_files_call_binds_nothing() {
    let dir = "tests/kernels/realcode/split_helper";
    for input in [format!("{dir}/helpers.cu"), dir.to_string()] {
        let (v, o) = json(&[&input]);
        assert_eq!(o.status.code(), Some(1), "{input}: {}", stderr(&o));
        let k = split_kernel(&v, "fill");
        assert_eq!(k["assumptions"]["block"][0], Value::Null, "{input}: {k}");
        assert_eq!(k["races"].as_array().map(Vec::len), Some(1), "{k}");
    }
}
