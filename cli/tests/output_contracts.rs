//! What every command prints, whether it succeeds or fails: a JSON or SARIF document on stdout
//! even for an error, each warning once, files without kernels said to be so, `-o` never
//! overwriting the user's files, values checked against the parameter's type and CUDA's limits.
//! The error documents checked are those of `ir` and `run`; the values, those of `--param` and
//! `--grid`.

use serde_json::Value;
use serde_sarif::sarif::Sarif;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod sarif_check;

fn gmrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .output()
        .expect("run gmrace")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory for one test, holding `files` (name, contents).
fn scratch(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("contracts-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    dir
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

const NO_BODY: &str = "__device__ int f(int);\n\
                       __global__ void k(int *a) { a[threadIdx.x] = f(1); }\n";

const LAUNCH_A: &str = "grid = 1\nblock = 32\n[args]\na = { len = 32, init = \"zeros\" }\n";

#[test]
fn run_prints_a_front_end_warning_once_in_every_mode_and_format() {
    let dir = scratch("warning-once", &[("k.cu", NO_BODY), ("k.toml", LAUNCH_A)]);
    shown_once_in_every_mode_and_format(&dir, "which has no body here");
}

/// `gmrace run` of `DIR/k.cu` with `DIR/k.toml` says `message` exactly once, on stdout and
/// stderr together, in every mode and format.
fn shown_once_in_every_mode_and_format(dir: &Path, message: &str) {
    let (file, launch) = (path(dir, "k.cu"), path(dir, "k.toml"));
    for mode in ["off", "flag", "stmt"] {
        for format in ["text", "json", "sarif"] {
            let o = gmrace(&[
                "run",
                &file,
                "--launch",
                &launch,
                "--mode",
                mode,
                "--backend",
                "emu",
                "--format",
                format,
            ]);
            let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
            assert_eq!(
                all.matches(message).count(),
                1,
                "--mode {mode} --format {format}:\n{all}"
            );
        }
    }
}

#[test]
fn every_report_names_the_headers_it_read() {
    let body = "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n";
    let dir = scratch("headers", &[("k.cu", body), ("k.toml", LAUNCH_A)]);
    let (file, launch) = (path(&dir, "k.cu"), path(&dir, "k.toml"));
    let runs = ["off", "flag", "stmt"].map(|mode| {
        vec![
            "run",
            &file,
            "--launch",
            &launch,
            "--backend",
            "emu",
            "--mode",
            mode,
        ]
    });
    let analyze = vec!["analyze", &file, "--block", "32"];
    for command in runs.iter().chain([&analyze]) {
        for (format, said) in [
            ("text", "CUDA headers: stand-ins\n"),
            ("json", "\"headers\": \"stand-ins\""),
            ("sarif", "\"headers\": \"stand-ins\""),
        ] {
            let mut args = command.clone();
            args.extend(["--stand-ins", "--format", format]);
            let o = gmrace(&args);
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            assert_eq!(out.matches(said).count(), 1, "{args:?}:\n{out}");
        }
    }
}

const GUARDED: &str =
    "__global__ void k(int *a, int n) { if (threadIdx.x < n) a[threadIdx.x] = 1; }\n";

#[test]
fn a_param_value_must_fit_the_parameters_type() {
    let dir = scratch("param-range", &[("k.cu", GUARDED)]);
    let file = path(&dir, "k.cu");
    let o = gmrace(&["analyze", &file, "--param", "n=99999999999"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("`--param n=99999999999` is out of range for i32"),
        "{err}"
    );
    assert!(err.contains("k.cu:1:27"), "{err}");
    // In range: accepted (the verdict is the analysis's business).
    let o = gmrace(&["analyze", &file, "--param", "n=2147483647"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert!(!stderr(&o).contains("out of range"), "{}", stderr(&o));
}

#[test]
fn a_dimension_too_large_for_32_bits_is_too_large_not_malformed() {
    let dir = scratch("dims-too-large", &[("k.cu", GUARDED)]);
    let file = path(&dir, "k.cu");
    for (flag, value, axis, limit) in [
        ("--grid", "99999999999", "grid dimension x", "2147483647"),
        ("--grid", "4x99999999999", "grid dimension y", "65535"),
        ("--block", "1x1x99999999999", "block dimension z", "64"),
    ] {
        let o = gmrace(&["analyze", &file, flag, value]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("{axis} is ")), "{err}");
        assert!(
            err.contains(&format!("too large, CUDA allows at most {limit}")),
            "{err}"
        );
        assert!(!err.contains("not a dimension"), "{err}");
    }
}

const SPEC_UNKNOWN_KERNEL: &str =
    "kernel = \"nope\"\ngrid = 1\nblock = 32\n[args]\na = { len = 32, init = \"zeros\" }\n";
const SPEC_MISSING_ARG: &str = "grid = 1\nblock = 32\n";
const SYNTAX_ERROR: &str = "__global__ void k(int *a) { a[0] = 1 }\n";

/// The document a failed command printed: JSON with no kernels and the errors, each naming a
/// file and saying what went wrong; or a SARIF log, valid for code scanning, without results
/// and with the errors as notifications of an unsuccessful invocation.
fn check_error_document(o: &Output, format: &str, what: &str) {
    assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(o));
    let messages: Vec<String> = match format {
        "json" => {
            let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
                panic!(
                    "{what}: not JSON ({e}): {:?}",
                    String::from_utf8_lossy(&o.stdout)
                )
            });
            assert_eq!(v["kernels"], Value::Array(Vec::new()), "{what}: {v}");
            let errors = v["errors"].as_array().cloned().unwrap_or_default();
            for e in &errors {
                assert!(e["file"].is_string(), "{what}: {e}");
            }
            errors.iter().map(|e| e["message"].to_string()).collect()
        }
        _ => {
            let log: Sarif = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
                panic!(
                    "{what}: not SARIF ({e}): {:?}",
                    String::from_utf8_lossy(&o.stdout)
                )
            });
            assert!(sarif_check::check_log(&log).is_empty(), "{what}");
            let inv = &log.runs[0].invocations.as_deref().expect("invocations")[0];
            assert!(!inv.execution_successful, "{what}");
            let notes = inv
                .tool_execution_notifications
                .as_deref()
                .unwrap_or_default();
            assert!(notes.iter().all(|n| n.level == Some(Value::from("error"))));
            notes
                .iter()
                .map(|n| n.message.text.clone().unwrap_or_default())
                .collect()
        }
    };
    assert!(!messages.is_empty(), "{what}: no error in the document");
    let err = stderr(o);
    for m in &messages {
        let first_words: String = m.trim_matches('"').chars().take(20).collect();
        assert!(
            err.contains(&first_words),
            "{what}: {m} not on stderr: {err}"
        );
    }
}

#[test]
fn run_prints_its_document_with_the_error_when_it_fails() {
    let dir = scratch(
        "run-error-document",
        &[
            ("k.cu", GUARDED),
            ("bad.cu", SYNTAX_ERROR),
            ("k.toml", LAUNCH_A),
            ("nope.toml", SPEC_UNKNOWN_KERNEL),
            ("missing_arg.toml", SPEC_MISSING_ARG),
            ("not_toml.toml", "grid = = 1\n"),
        ],
    );
    let cases = [
        ("missing file", "missing.cu", "k.toml"),
        ("syntax error", "bad.cu", "k.toml"),
        ("missing spec", "k.cu", "missing.toml"),
        ("unknown kernel", "k.cu", "nope.toml"),
        ("missing argument", "k.cu", "missing_arg.toml"),
        ("invalid TOML", "k.cu", "not_toml.toml"),
    ];
    for (what, file, spec) in cases {
        for mode in ["off", "flag", "stmt"] {
            for format in ["json", "sarif"] {
                let o = gmrace(&[
                    "run",
                    &path(&dir, file),
                    "--launch",
                    &path(&dir, spec),
                    "--mode",
                    mode,
                    "--backend",
                    "emu",
                    "--format",
                    format,
                ]);
                check_error_document(
                    &o,
                    format,
                    &format!("{what}, --mode {mode} --format {format}"),
                );
            }
        }
    }
    // A backend that cannot be had fails before anything is read.
    let o = gmrace(&[
        "run",
        &path(&dir, "k.cu"),
        "--launch",
        &path(&dir, "k.toml"),
        "--mode",
        "off",
        "--backend",
        "cuda",
        "--format",
        "sarif",
    ]);
    check_error_document(&o, "sarif", "--backend cuda without a GPU");
}

#[test]
fn ir_prints_its_document_with_the_error_when_it_fails() {
    let dir = scratch(
        "ir-error-document",
        &[("k.cu", GUARDED), ("bad.cu", SYNTAX_ERROR)],
    );
    for (what, args) in [
        ("missing file", vec!["ir", "missing.cu"]),
        ("syntax error", vec!["ir", "bad.cu"]),
        ("unknown kernel", vec!["ir", "k.cu", "--kernel", "nope"]),
    ] {
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args[1] = path(&dir, &args[1]);
        args.extend(["--format".to_string(), "json".to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        check_error_document(&gmrace(&args), "json", what);
    }
}

/// Exit status 0 with a warning: host-only `.cu` files are normal in a project.
#[test]
fn a_file_without_kernels_is_said_to_have_none() {
    let dir = scratch(
        "no-kernels",
        &[("empty.cu", ""), ("host.cu", "int main() { return 0; }\n")],
    );
    for name in ["empty.cu", "host.cu"] {
        let file = path(&dir, name);
        let said = format!("warning: no kernels found in {file}");
        for args in [
            vec!["analyze", &file],
            vec!["ir", &file],
            vec!["instrument", &file, "--mode", "flag"],
        ] {
            let o = gmrace(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            assert_eq!(
                stderr(&o).matches(&said).count(),
                1,
                "{args:?}: {}",
                stderr(&o)
            );
        }
        let o = gmrace(&["analyze", &file, "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert_eq!(v["kernels"], Value::Array(Vec::new()));
        let o = gmrace(&["ir", &file, "--format", "json"]);
        let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert!(v["diagnostics"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d["severity"] == "warning"
                && d["message"] == format!("no kernels found in {file}"))));
        let o = gmrace(&["analyze", &file, "--format", "sarif"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let log: Sarif = serde_json::from_slice(&o.stdout).expect("SARIF");
        let inv = &log.runs[0].invocations.as_deref().expect("invocations")[0];
        assert!(inv.execution_successful);
        let notes = inv
            .tool_execution_notifications
            .as_deref()
            .unwrap_or_default();
        assert!(notes.iter().any(|n| n.level == Some(Value::from("warning"))
            && n.message.text.as_deref() == Some(&format!("no kernels found in {file}"))));
    }
    // In a directory they are not worth a warning.
    let o = gmrace(&["analyze", &dir.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("no kernels found"), "{}", stderr(&o));
}

/// A program's `main.cu` that launches a kernel another file defines (HeCBench's minibude)
/// says so: "no kernels found" alone reads as if gmrace had missed it.
#[test]
fn a_file_launching_a_kernel_defined_elsewhere_says_where_to_look() {
    const MAIN: &str = "__global__ void step(float *d);\n\
                        int main() { float *d = 0; step<<<1, 32>>>(d); return 0; }\n";
    let dir = scratch("launch-only", &[("main.cu", MAIN)]);
    let file = path(&dir, "main.cu");
    let o = gmrace(&["analyze", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = format!(
        "warning: no kernels defined in {file}: it launches `step`, defined in another file \
         (analyse that file, or the directory)"
    );
    assert!(stderr(&o).contains(&said), "{}", stderr(&o));
}

fn instrument_into(file: &str, out: &str) -> Output {
    gmrace(&["instrument", file, "--mode", "flag", "-o", out])
}

#[test]
fn instrument_never_overwrites_a_file_it_did_not_write() {
    let dir = scratch("instrument-no-overwrite", &[("k.cu", GUARDED)]);
    let (file, out) = (path(&dir, "k.cu"), dir.join("out"));
    std::fs::create_dir_all(&out).expect("mkdir");
    let users = "/* the user's own cuda.h */\n";
    std::fs::write(out.join("cuda.h"), users).expect("write");
    let o = instrument_into(&file, &path(&out, "x.cu"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let cuda_h = out.join("cuda.h").display().to_string();
    assert!(
        stderr(&o).contains(&format!("`{cuda_h}` exists and gmrace did not write it")),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("cuda.h")).expect("read"),
        users
    );
    // Nothing else was written either.
    assert_eq!(std::fs::read_dir(&out).expect("ls").count(), 1);

    // The same goes for the plan: a JSON file of the user's in its place is refused.
    std::fs::remove_file(out.join("cuda.h")).expect("rm");
    std::fs::write(out.join("x.plan.json"), "{\"mine\": true}\n").expect("write");
    let o = instrument_into(&file, &path(&out, "x.cu"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("x.plan.json` exists"), "{}", stderr(&o));
}

#[test]
fn instrument_refuses_an_output_that_is_its_input() {
    let dir = scratch("instrument-onto-input", &[("k.cu", GUARDED)]);
    let file = path(&dir, "k.cu");
    let same = format!("{}/./k.cu", dir.display());
    let o = instrument_into(&file, &same);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("names the file being instrumented"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), GUARDED);
}

#[test]
fn instrument_runs_again_into_its_own_output_directory() {
    let dir = scratch("instrument-again", &[("k.cu", GUARDED)]);
    let (file, out) = (path(&dir, "k.cu"), dir.join("out"));
    for _ in 0..2 {
        let o = instrument_into(&file, &path(&out, "x.cu"));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // A second file beside the first shares its headers.
    let o = instrument_into(&file, &path(&out, "y.cu"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.join("cuda.h").is_file() && out.join("y.plan.json").is_file());
}

#[test]
fn a_command_line_error_still_gives_the_document_asked_for() {
    let dir = scratch(
        "usage-error-document",
        &[("k.cu", GUARDED), ("k.toml", LAUNCH_A)],
    );
    let (file, launch) = (path(&dir, "k.cu"), path(&dir, "k.toml"));
    for format in ["json", "sarif"] {
        let o = gmrace(&[
            "analyze",
            &file,
            "--grid",
            "99999999999",
            "--format",
            format,
        ]);
        check_error_document(&o, format, &format!("analyze --grid, {format}"));
        let o = gmrace(&[
            "run",
            &file,
            "--launch",
            &launch,
            "--mode",
            "bogus",
            &format!("--format={format}"),
        ]);
        check_error_document(&o, format, &format!("run --mode bogus, {format}"));
    }
    let o = gmrace(&["ir", &file, "--kernel", "--format", "json"]);
    check_error_document(&o, "json", "ir --kernel without a value");
    // Help is no error, and text asks for no document.
    let o = gmrace(&["run", "--help", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let o = gmrace(&["analyze", &file, "--grid", "x", "--format", "text"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

/// The CPU device's own warnings (here: a struct initialiser it does not apply) reach the text
/// report of checked runs too, once.
#[test]
fn run_prints_a_device_warning_once_in_every_mode_and_format() {
    let kernel = "struct P { int x, y; };\n__device__ P g = {1, 2};\n\
                  __global__ void k(int *a) { __shared__ int s[32]; s[threadIdx.x] = g.x;\n\
                  a[threadIdx.x] = s[(threadIdx.x + 1) % 32]; }\n";
    let dir = scratch(
        "device-warning-once",
        &[("k.cu", kernel), ("k.toml", LAUNCH_A)],
    );
    shown_once_in_every_mode_and_format(
        &dir,
        "the initialiser of `g` (a struct or vector) is not applied",
    );
}
