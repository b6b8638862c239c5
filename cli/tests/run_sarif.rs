//! `gmrace run --format sarif` read back with a typed SARIF library and put through the same
//! checks as `gmrace analyze`'s (`sarif_check/`): the run's races (with both statements in `stmt`
//! mode, at the array in `flag` mode), device faults (a divergence, an out-of-bounds access),
//! race-free runs in every mode, and kernel printf output kept off stdout.

use serde_sarif::sarif::{ResultLevel, Sarif};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod sarif_check;
use sarif_check::check_log;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `gmrace run ARGS --format sarif` in the workspace root: the log and the process output.
fn run(args: &[&str]) -> (Sarif, Output) {
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .arg("run")
        .args(args)
        .args(["--format", "sarif"])
        .current_dir(root())
        .output()
        .expect("run gmrace");
    let log: Sarif = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not SARIF ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (log, o)
}

fn found_by_run(log: &Sarif) -> Vec<&serde_sarif::sarif::Result> {
    log.runs[0]
        .results
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter(|r| {
            r.properties
                .as_ref()
                .and_then(|p| p.additional_properties.get("found_by"))
                .is_some_and(|v| v == "run")
        })
        .collect()
}

const RACE: &str = "tests/kernels/analysis/reduce_seq_race.cu";
const FIXED: &str = "tests/kernels/analysis/reduce_seq_fixed.cu";
const SPEC: &str = "tests/kernels/device/reduce_seq_fixed.toml";

#[test]
fn stmt_mode_races_are_at_their_first_statement_with_the_second_related() {
    let (log, o) = run(&[RACE, "--launch", SPEC, "--mode", "stmt", "--all"]);
    assert_eq!(o.status.code(), Some(1));
    let results = check_log(&log);
    let run_races = found_by_run(&log);
    assert!(!run_races.is_empty(), "{results:?}");
    for r in &run_races {
        assert!(r.rule_id.as_deref().unwrap().starts_with("race/"));
        assert_eq!(r.level, Some(ResultLevel::Error));
        assert_eq!(r.related_locations.as_ref().map(Vec::len), Some(1));
        let props = &r.properties.as_ref().unwrap().additional_properties;
        assert_eq!(props["mode"], "stmt");
        let lines = props["lines"].as_array().expect("lines");
        let loc = |l: &serde_sarif::sarif::Location| {
            l.physical_location
                .as_ref()
                .unwrap()
                .region
                .as_ref()
                .unwrap()
                .start_line
        };
        assert_eq!(
            Some(lines[0].as_i64().unwrap()),
            loc(&r.locations.as_ref().unwrap()[0])
        );
        assert_eq!(
            Some(lines[1].as_i64().unwrap()),
            loc(&r.related_locations.as_ref().unwrap()[0])
        );
        assert_eq!(props["threads"].as_array().map(Vec::len), Some(2));
    }
}

#[test]
fn flag_mode_races_are_at_the_arrays_declaration_and_say_statements_are_unknown() {
    let (log, o) = run(&[RACE, "--launch", SPEC, "--mode", "flag", "--all"]);
    assert_eq!(o.status.code(), Some(1));
    let results = check_log(&log);
    let run_races = found_by_run(&log);
    assert!(!run_races.is_empty(), "{results:?}");
    // `__shared__ float s[...]` is declared on line 7 of the kernel.
    let text = std::fs::read_to_string(root().join(RACE)).unwrap();
    let decl = text.lines().position(|l| l.contains("__shared__")).unwrap() as i64 + 1;
    for r in &run_races {
        assert_eq!(r.level, Some(ResultLevel::Error));
        assert!(r.related_locations.is_none());
        let region = r.locations.as_ref().unwrap()[0]
            .physical_location
            .as_ref()
            .unwrap()
            .region
            .as_ref()
            .unwrap();
        assert_eq!(region.start_line, Some(decl));
        let msg = r.message.text.as_deref().unwrap();
        assert!(
            msg.contains("flag mode does not know the racing statements"),
            "{msg}"
        );
        let props = &r.properties.as_ref().unwrap().additional_properties;
        assert_eq!(props["array"], "s");
        assert!(props["byte_offset"].is_u64());
    }
}

#[test]
fn race_free_runs_have_no_result_and_exit_zero() {
    for mode in ["off", "flag", "stmt"] {
        let (log, o) = run(&[FIXED, "--launch", SPEC, "--mode", mode, "--all"]);
        assert_eq!(o.status.code(), Some(0), "{mode}");
        assert!(check_log(&log).is_empty(), "{mode}");
    }
}

#[test]
fn a_barrier_divergence_fault_is_a_result_in_the_kernel_source() {
    let file = "tests/kernels/analysis/divergent_barrier_race.cu";
    let spec = "tests/kernels/device/divergent_barrier_fixed.toml";
    for mode in ["off", "stmt"] {
        let (log, o) = run(&[file, "--launch", spec, "--mode", mode]);
        assert_eq!(o.status.code(), Some(1), "{mode}");
        let results = check_log(&log);
        let faults = found_by_run(&log);
        assert!(!faults.is_empty(), "{mode}: {results:?}");
        for f in faults {
            assert_eq!(f.rule_id.as_deref(), Some("barrier-divergence"));
            let props = &f.properties.as_ref().unwrap().additional_properties;
            assert_eq!(props["fault"]["kind"], "barrier-divergence");
        }
        // A checked run that faulted vouches for nothing after the fault: a warning says so.
        let notes = log.runs[0].invocations.as_ref().unwrap()[0]
            .tool_execution_notifications
            .clone()
            .unwrap_or_default();
        let incomplete = notes.iter().any(|n| {
            n.level == Some(serde_json::Value::from("warning"))
                && n.message
                    .text
                    .as_deref()
                    .is_some_and(|t| t.contains("incomplete"))
        });
        assert_eq!(incomplete, mode == "stmt", "{mode}: {notes:?}");
        // Every location, the runtime's own barriers included, is in the kernel's file.
        assert!(results
            .iter()
            .all(|(_, name, _, _)| name == "divergent_barrier_race.cu"));
    }
}

#[test]
fn an_out_of_bounds_write_is_located_and_printf_goes_to_stderr() {
    let dir = std::env::temp_dir().join(format!("gmrace-run-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("oob.cu");
    std::fs::write(
        &cu,
        "__global__ void scale(float *a) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    \
         if (i == 0) printf(\"hello from the kernel\\n\");\n    a[i] = 2.0f * i;\n}\n",
    )
    .unwrap();
    let toml = dir.join("oob.toml");
    std::fs::write(
        &toml,
        "grid = 2\nblock = 100\n[args]\na = { len = 150, init = \"zeros\" }\n",
    )
    .unwrap();
    let (log, o) = run(&[
        cu.to_str().unwrap(),
        "--launch",
        toml.to_str().unwrap(),
        "--mode",
        "off",
        "--backend",
        "emu",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("hello from the kernel"));
    let results = check_log(&log);
    assert_eq!(results.len(), 1, "{results:?}");
    let (rule, file, line, _) = &results[0];
    assert_eq!(
        (rule.as_str(), file.as_str(), *line),
        ("memory/out-of-bounds", "oob.cu", 4)
    );
    let r = &log.runs[0].results.as_ref().unwrap()[0];
    let fault = &r.properties.as_ref().unwrap().additional_properties["fault"];
    assert_eq!(fault["block"], serde_json::json!([1, 0, 0]));
    assert_eq!(fault["threads"][0], serde_json::json!([50, 0, 0]));
    std::fs::remove_dir_all(&dir).ok();
}
