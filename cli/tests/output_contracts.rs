//! What every command prints, whether it succeeds or fails: a JSON or SARIF document on stdout
//! even for an error, each warning once, files without kernels said to be so, `-o` never
//! overwriting the user's files, values checked against the parameter's type and CUDA's limits.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let (file, launch) = (path(&dir, "k.cu"), path(&dir, "k.toml"));
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
                all.matches("which has no body here").count(),
                1,
                "--mode {mode} --format {format}:\n{all}"
            );
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
    let o = gmrace(&["analyze", &file, "--param", "n=2147483647"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
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
