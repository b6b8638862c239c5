//! What a GPU compiles for a checked run (`gmrace run --backend cuda --mode flag|stmt`): the
//! instrumented program with its host code cut and the device runtime header in memory, as
//! `pipeline::Prepared::cuda_source` and `cuda::nvrtc_input` give it to NVRTC. No GPU and no
//! NVRTC here, so it is compiled with DESIGN.md's clang command instead: the runtime header and
//! the user headers NVRTC gets in memory written next to the main file, gmrace's stand-in
//! headers on the include path (the preamble includes them when `__CUDACC_RTC__` is not
//! defined; NVRTC's own empty stand-ins for `<cmath>` and the like would hide what clang's
//! CUDA wrappers need). Where NVRTC is installed (no GPU needed), NVRTC compiles it too, to an
//! sm_70 CUBIN with the kernel's lowered name.
//!
//! Checked for the device corpus in both modes, and for a file with host code and
//! namespace-scope, dynamic and device-function shared arrays.

#[path = "../../tests/common/design_clang.rs"]
mod design_clang;

use gmrace::pipeline::{self, Request};
use gmrace_analyzer::analysis::WarpModel;
use gmrace_analyzer::frontend::FrontendOptions;
use gmrace_runtime_cuda::cuda::{nvrtc, nvrtc_input, probe};
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::Mode;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gmrace-cuda-checked-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Prepares the checked run of `cu` under `spec` in both modes, writes what NVRTC would get
/// into a directory of its own and compiles it to PTX; returns the failures and the NVRTC
/// input's main text per mode.
fn compile_checked(cu: &Path, spec: &LaunchSpec, all: bool) -> (Vec<String>, Vec<String>) {
    let front = FrontendOptions::default();
    let analysed = pipeline::analyse(cu, &front, spec, WarpModel::Its)
        .unwrap_or_else(|_| panic!("{}: analysis failed", cu.display()));
    let mut failures = Vec::new();
    let mut texts = Vec::new();
    for mode in [Mode::Flag, Mode::Stmt] {
        let req = Request {
            all,
            ..Request::new(cu, &front, spec, mode)
        };
        let Ok(p) = pipeline::prepare(analysed.clone(), &req) else {
            failures.push(format!("{} ({}): not prepared", cu.display(), mode.name()));
            continue;
        };
        let source = p.cuda_source(&front);
        let (device, headers) = nvrtc_input(&source);
        let runtime = headers.iter().find(|(n, _)| n == "gmrace_runtime.cuh");
        assert_eq!(
            runtime.map(|(_, t)| t.as_str()),
            Some(gmrace_instrumenter::RUNTIME_HEADER),
            "NVRTC gets the runtime header"
        );
        let stem = cu.file_stem().unwrap().to_string_lossy();
        let dir = scratch(&format!("{stem}-{}", mode.name()));
        for (name, text) in source.headers.iter().chain(&device.headers) {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        // Included only when neither NVRTC nor nvcc compiles the file (gmrace's prelude for
        // `gmrace instrument -o`); the preamble has already included the prelude here.
        std::fs::write(dir.join("gmrace_standalone.h"), "").unwrap();
        let main = dir.join(Path::new(&p.program.name).file_name().unwrap());
        std::fs::write(&main, &device.text).unwrap();
        let include = gmrace_analyzer::frontend::include_dir().expect("stand-in headers");
        let out = design_clang::ptx(&main, &[&dir, &include], &[], Path::new("/dev/null"))
            .expect("run clang (Debian's `clang`; scripts/setup.sh installs it)");
        if probe::nvrtc_present() {
            let mut defines = front.defines.clone();
            defines.extend(p.program.imodule.header.defines.iter().cloned());
            let opts = nvrtc::options(
                nvrtc::Target::Cubin(70),
                &source.path,
                &[],
                &defines,
                nvrtc::toolkit_include().as_deref(),
            );
            let names = [format!("&{}", p.report.name)];
            match nvrtc::compile(&device.text, &p.program.name, &headers, &opts, &names) {
                Ok(c) => assert_eq!(c.lowered.len(), 1),
                Err(e) => failures.push(format!("{} ({}) NVRTC: {e}", cu.display(), mode.name())),
            }
        }
        if out.status.success() {
            std::fs::remove_dir_all(&dir).ok();
        } else {
            failures.push(format!(
                "{} ({}):\n{}",
                cu.display(),
                mode.name(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        texts.push(device.text);
    }
    (failures, texts)
}

/// Host code around the kernel (which NVRTC would reject), a namespace-scope and a dynamic
/// shared array, and a device function with a shared array of its own.
const WITH_HOST_CODE: &str = r#"#include <cstdio>
#include <vector>
namespace buf {
__shared__ float tile[64];
}
extern __shared__ float dyn[];
__device__ float pass(float v) {
  __shared__ float scratch[64];
  scratch[threadIdx.x] = v;
  __syncthreads();
  return scratch[(threadIdx.x + 1) % 64];
}
__global__ void k(float *out) {
  int t = threadIdx.x;
  buf::tile[t] = out[t];
  dyn[t] = pass(buf::tile[(t + 1) % 64]);
  __syncthreads();
  out[t] = dyn[63 - t];
}
int main() {
  std::vector<float> h(64);
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  k<<<1, 64, 256>>>(d);
  std::printf("%f\n", h[0]);
  return 0;
}
"#;

#[test]
fn the_checked_program_a_gpu_compiles_has_no_host_code_and_compiles() {
    let dir = scratch("host");
    let cu = dir.join("host.cu");
    std::fs::write(&cu, WITH_HOST_CODE).unwrap();
    let spec = LaunchSpec::parse(
        &dir.join("host.toml"),
        "grid = 1\nblock = 64\ndynamic_shared_bytes = 256\n[args]\n\
         out = { len = 64, init = \"iota\" }\n"
            .to_string(),
    )
    .unwrap();
    let (failures, texts) = compile_checked(&cu, &spec, true);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for text in &texts {
        assert!(!text.contains("cudaMalloc") && !text.contains("std::vector"));
        // Every shared variable reports its place to the runtime.
        for call in [
            "__gmrace_shared(&::buf::tile, sizeof(::buf::tile), ",
            "__gmrace_shared(&::dyn, 0u, ",
            "__gmrace_shared(&scratch, sizeof(scratch), ",
        ] {
            assert!(text.contains(call), "no `{call}` in:\n{text}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Every kernel of the device corpus with a launch spec, instrumented with `--all` in both
/// modes, compiles as the GPU would get it.
#[test]
fn every_corpus_checked_program_compiles() {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(kernels().join("device"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    // Per spec: the failures of its kernel's compilation, or `None` for a spec of another corpus.
    let outcomes: Vec<Option<Vec<String>>> = specs
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            // A spec's first line names its kernel file.
            let rel = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# "))
                .and_then(|l| l.split([' ', ':']).next())
                .filter(|r| r.starts_with("analysis/"))?;
            let spec = LaunchSpec::parse(path, text.clone()).unwrap();
            Some(compile_checked(&kernels().join(rel), &spec, true).0)
        })
        .collect();
    let compiled = outcomes.iter().flatten().count();
    let failures: Vec<String> = outcomes.into_iter().flatten().flatten().collect();
    assert!(compiled >= 30, "only {compiled} corpus kernels");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
