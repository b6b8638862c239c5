//! `gmrace analyze -p BUILD_DIR` / `--compile-commands FILE`: each file is read with its own
//! build's `-I`, `-D`, `-std` and `-arch`, given in nvcc's spellings. The kernel below is safe
//! only when all four are used: its tile size comes from `-D`, through a header only `-I`
//! finds, and the race-free indexing is compiled only for `sm_80` in C++14.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KERNEL: &str = r#"#include "tile.h"
__global__ void stage(int *d) {
  __shared__ int s[TILE];
#if __CUDA_ARCH__ == 800 && __cplusplus == 201402L
  s[threadIdx.x] = d[threadIdx.x];
#else
  s[0] = d[threadIdx.x];
#endif
  __syncthreads();
  d[threadIdx.x] = s[(threadIdx.x + 1) % TILE];
}
int main() {
  int *d;
  stage<<<1, TILE>>>(d);
  return 0;
}
"#;

/// A project in a directory of its own: `src/stage.cu`, `src/other.cu` (not in the build),
/// `inc/tile.h`, and `build/compile_commands.json` compiling the first with nvcc.
fn project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-cdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["src", "inc", "build"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("src/stage.cu"), KERNEL).unwrap();
    std::fs::write(dir.join("src/other.cu"), KERNEL).unwrap();
    std::fs::write(dir.join("inc/tile.h"), "#pragma once\n").unwrap();
    let command = "/usr/local/cuda/bin/nvcc --include-path ../inc -DTILE=64 --std c++14 \
                   -gencode arch=compute_80,code=sm_80 -O3 --expt-relaxed-constexpr \
                   -Xcompiler -fopenmp -c ../src/stage.cu -o stage.o --frobnicate";
    let db = serde_json::json!([{
        "directory": dir.join("build"),
        "file": "../src/stage.cu",
        "command": command,
    }]);
    std::fs::write(dir.join("build/compile_commands.json"), db.to_string()).unwrap();
    dir
}

fn gmrace(dir: &Path, args: &[&str]) -> (Value, Output) {
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["analyze", "--format", "json", "--stand-ins"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run gmrace");
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)));
    (v, o)
}

fn races(v: &Value) -> usize {
    v["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| k["races"].as_array().map_or(0, Vec::len))
        .sum()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn every_file_of_the_build_is_read_with_its_own_flags() {
    let dir = project("all");
    let (v, o) = gmrace(&dir, &["-p", "build"]);
    assert_eq!(o.status.code(), Some(0), "{v}\n{}", stderr(&o));
    assert_eq!(v["kernels"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(races(&v), 0, "{v}");
    let file = v["kernels"][0]["file"].as_str().unwrap_or_default();
    assert!(file.ends_with("src/stage.cu"), "{v}");
    // What the build says and gmrace does not use is named.
    assert!(
        stderr(&o).contains("does not use for this file: --frobnicate"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_the_build_the_same_file_races_and_a_file_outside_it_is_said_so() {
    let dir = project("one");
    let (v, o) = gmrace(&dir, &["src/stage.cu", "-I", "inc", "-DTILE=64"]);
    assert_eq!(o.status.code(), Some(1), "{v}");
    assert!(races(&v) > 0, "{v}");
    let (v, o) = gmrace(
        &dir,
        &[
            "src/stage.cu",
            "--compile-commands",
            "build/compile_commands.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{v}\n{}", stderr(&o));
    assert_eq!(races(&v), 0, "{v}");
    let (v, o) = gmrace(
        &dir,
        &["src/other.cu", "-p", "build", "-I", "inc", "-DTILE=64"],
    );
    assert_eq!(o.status.code(), Some(1), "{v}");
    assert!(
        stderr(&o).contains("is not compiled by `build/compile_commands.json`"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_directory_without_a_database_is_exit_two() {
    let dir = project("none");
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["analyze", "-p", "src"])
        .current_dir(&dir)
        .output()
        .expect("run gmrace");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("compile_commands.json"),
        "{}",
        stderr(&o)
    );
    std::fs::write(
        dir.join("build/compile_commands.json"),
        "{\"not\": \"a list\"}",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(["analyze", "-p", "build"])
        .current_dir(&dir)
        .output()
        .expect("run gmrace");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a compilation database"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each architecture a build names reads the file's host code, and so its launches: clang's
/// own intrinsics for sm_90 and later call functions that CUDA's headers declare first, and
/// the stand-ins once declared them too late, so for `-arch=sm_90` every launch was lost.
/// An architecture newer than libclang knows is read as the newest it does.
#[test]
fn the_host_code_is_read_under_every_architecture() {
    let dir = std::env::temp_dir().join(format!("gmrace-cdb-arch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = "__global__ void k(int *d) { d[threadIdx.x] = 1; }\n\
                  int main() { int *d; k<<<2, 96>>>(d); return 0; }\n";
    std::fs::write(dir.join("k.cu"), kernel).unwrap();
    for arch in ["sm_60", "sm_80", "sm_90", "sm_90a", "sm_100"] {
        let db = serde_json::json!([{
            "directory": dir,
            "file": "k.cu",
            "arguments": ["nvcc", format!("-arch={arch}"), "-c", "k.cu"],
        }]);
        std::fs::write(dir.join("compile_commands.json"), db.to_string()).unwrap();
        let (v, o) = gmrace(&dir, &["k.cu", "-p", "."]);
        assert!(
            !stderr(&o).contains("host code not read"),
            "{arch}: {}",
            stderr(&o)
        );
        let block = &v["kernels"][0]["assumptions"]["block"];
        assert_eq!(block, &serde_json::json!([96, 1, 1]), "{arch}: {v}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
