//! The NVRTC input of the CUDA device (`cuda::source`) still compiles as device code once the
//! host code is cut: checked with DESIGN.md's clang PTX command against gmrace's stand-in
//! headers (the preamble includes them when `__CUDACC_RTC__` is not defined), on a file whose
//! host code clang rejects, and on every `.cu` file of the test corpus. With the real NVRTC
//! installed (`pip install nvidia-cuda-nvrtc-cu12`, `LD_LIBRARY_PATH` to its `lib/`; the test
//! skips otherwise), every corpus file compiles to an sm_70 CUBIN with its kernels' lowered
//! names.

use crate::design_clang;
use gmrace_analyzer::frontend::header_comment;
use gmrace_runtime_cuda::cuda::source::device_source;
use std::path::{Path, PathBuf};

/// DESIGN.md's command, `-S` to PTX, with `-D` flags; returns clang's stderr on failure.
fn clang_ptx(file: &Path, defines: &[String]) -> Result<(), String> {
    let include = gmrace_analyzer::frontend::include_dir().expect("stand-in headers");
    let out = design_clang::ptx(file, &[&include], defines, Path::new("/dev/null"))
        .expect("run clang (Debian's `clang`; scripts/setup.sh installs it)");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A test's own scratch directory, removed when the test ends, failed or not: CI runs the
/// suite many times on one machine.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("gmrace-cuda-source-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Host code NVRTC would reject (undeclared host APIs, the standard library without its
/// headers) around device code that uses a constant, a macro qualifier and a template.
const HOST_HEAVY: &str = r#"#define GLOBAL __global__
const int BLOCK = 64;
std::vector<float> host_buffer;
__device__ float twice(float x) { return 2.0f * x; }
template <int S> __global__ void scaled(float *p) { p[threadIdx.x] *= S; }
GLOBAL void k(float *out, int n) {
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = twice(out[i]);
}
void run(float *d, int n) {
  k<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d, n);
  host_only_sync();
}
int main() {
  std::vector<float> h(1000);
  run(nullptr, 1000);
  return 0;
}
"#;

#[test]
fn prepared_source_compiles_where_the_original_does_not() {
    let scratch = Scratch::new("host_heavy");
    let orig = scratch.file("host_heavy.cu");
    std::fs::write(
        &orig,
        format!("#include \"gmrace_prelude.h\"\n{HOST_HEAVY}"),
    )
    .unwrap();
    let err = clang_ptx(&orig, &[]).expect_err("the host code must not compile");
    assert!(
        err.contains("host_only_sync"),
        "unexpected clang error:\n{err}"
    );

    let prepared = device_source(HOST_HEAVY, Path::new("host_heavy.cu"), &[]);
    let names: Vec<_> = prepared
        .removed
        .iter()
        .filter_map(|r| r.name.as_deref())
        .collect();
    assert_eq!(names, ["host_buffer", "run", "main"]);
    let file = scratch.file("host_heavy.device.cu");
    std::fs::write(&file, &prepared.text).unwrap();
    if let Err(e) = clang_ptx(&file, &[]) {
        panic!("prepared source does not compile:\n{e}\n{}", prepared.text);
    }
}

/// The precompiled prelude `design_clang::ptx` uses for prepared source (included under
/// `#ifdef __CUDACC_RTC__ ... #else`) stands for the headers exactly: the plain command gives
/// the same PTX, byte for byte.
#[test]
fn the_precompiled_prelude_gives_the_plain_commands_ptx() {
    let scratch = Scratch::new("pch");
    let include = gmrace_analyzer::frontend::include_dir().expect("stand-in headers");
    let prepared = device_source(HOST_HEAVY, Path::new("host_heavy.cu"), &[]);
    let file = scratch.file("host_heavy.device.cu");
    std::fs::write(&file, &prepared.text).unwrap();
    design_clang::assert_precompiled_is_plain(&file, &[&include], &scratch.0);
}

/// The `.cu` files of the test corpus, except those meant to be rejected.
fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("corpus directory").flatten() {
            let p = e.path();
            // `runtime/` holds hand-instrumented kernels that need the device runtime header
            // and a mode macro; `tests/runtime.rs` compiles them to PTX with both.
            // `realcode/` is files as projects ship them, which do not compile on their own
            // by design (missing library headers, kernels with errors).
            let skipped = ["errors", "runtime", "realcode"];
            if p.is_dir() && !skipped.iter().any(|s| p.ends_with(s)) {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "cu") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 50, "corpus not found");
    files
}

/// Every corpus kernel file, prepared, compiles to PTX (with its GPUVerify `-D` flags). One
/// clang per file, as many at a time as there are cores, each given the prelude precompiled
/// once per set of `-D` flags (`design_clang::ptx`).
#[test]
fn every_corpus_file_still_compiles_after_preparation() {
    use rayon::prelude::*;
    let scratch = Scratch::new("corpus");
    let failures: Vec<String> = corpus_files()
        .par_iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let text = std::fs::read_to_string(f).unwrap();
            let defines: Vec<String> = header_comment::parse(&text)
                .defines
                .iter()
                .map(|(n, v)| match v {
                    Some(v) => format!("-D{n}={v}"),
                    None => format!("-D{n}"),
                })
                .collect();
            // Numbered: two directories of the corpus hold files of one name.
            let name = format!("{i}-{}", f.file_name().unwrap().to_string_lossy());
            let prepared = device_source(&text, f, &[]);
            let out = scratch.file(&name);
            std::fs::write(&out, &prepared.text).unwrap();
            clang_ptx(&out, &defines)
                .err()
                .map(|e| format!("{}:\n{e}", f.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With NVRTC installed, every corpus file that gmrace can run on a device (it lowers without
/// errors) compiles through the CUDA device's path: preparation, in-memory headers, GPUVerify
/// defines, the symbol of every kernel.
#[test]
fn every_corpus_kernel_compiles_with_nvrtc_when_installed() {
    use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
    use gmrace_runtime_cuda::cuda::{nvrtc, probe};
    if !probe::nvrtc_present() {
        eprintln!("NVRTC is not installed: compilation not checked");
        return;
    }
    let mut failures = Vec::new();
    let mut compiled = 0;
    for f in corpus_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        // NVRTC has no cooperative groups of its own: they come from a CUDA toolkit.
        if text.contains("<cooperative_groups.h>") && nvrtc::toolkit_include().is_none() {
            continue;
        }
        let name = f.display().to_string();
        let Ok(module) = parse_source(&name, &text, &FrontendOptions::default()) else {
            continue;
        };
        let names: Vec<String> = module
            .kernels
            .iter()
            .map(|k| format!("&{}", k.name))
            .collect();
        let toolkit = nvrtc::toolkit_include();
        let opts = nvrtc::options(
            nvrtc::Target::Cubin(70),
            &f,
            &[],
            &module.header.defines,
            toolkit.as_deref(),
        );
        let prepared = device_source(&text, &f, &[]);
        match nvrtc::compile(
            &prepared.text,
            &name,
            &prepared.nvrtc_headers(&[]),
            &opts,
            &names,
        ) {
            Ok(c) => {
                assert_eq!(c.lowered.len(), names.len());
                compiled += 1;
            }
            Err(e) => failures.push(e.message),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compiled > 50, "only {compiled} files compiled");
}

/// With NVRTC installed (no GPU needed), the prepared source compiles to a CUBIN for sm_70
/// and the kernels' lowered names come back, template instantiation included.
#[test]
fn nvrtc_compiles_the_prepared_source_when_installed() {
    use gmrace_runtime_cuda::cuda::{nvrtc, probe};
    if !probe::nvrtc_present() {
        eprintln!("NVRTC is not installed: compilation not checked");
        return;
    }
    let prepared = device_source(HOST_HEAVY, Path::new("host_heavy.cu"), &[]);
    let (_, archs) = nvrtc::version_and_archs().unwrap_or_else(|e| panic!("{e}"));
    let sm70 = nvrtc::target((7, 0), &archs).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sm70, nvrtc::Target::Cubin(70));
    let opts = nvrtc::options(sm70, Path::new("host_heavy.cu"), &[], &[], None);
    let names = ["&k".to_string(), "&scaled<4>".to_string()];
    let c = nvrtc::compile(
        &prepared.text,
        "host_heavy.cu",
        &prepared.nvrtc_headers(&[]),
        &opts,
        &names,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(&c.image, nvrtc::Image::Cubin(b) if b.starts_with(b"\x7fELF")),
        "not a CUBIN"
    );
    assert_eq!(c.lowered, ["_Z1kPfi", "_Z6scaledILi4EEvPf"]);
    // PTX for a GPU newer than this NVRTC knows.
    let opts = nvrtc::options(
        nvrtc::Target::Ptx(70),
        Path::new("host_heavy.cu"),
        &[],
        &[],
        None,
    );
    let c = nvrtc::compile(
        &prepared.text,
        "host_heavy.cu",
        &prepared.nvrtc_headers(&[]),
        &opts,
        &names,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(&c.image, nvrtc::Image::Ptx(t) if t.contains(".target sm_70") && t.contains(".entry _Z1kPfi")),
        "not PTX for sm_70"
    );
    // The original, host code and all, is rejected: the preparation is what makes it work.
    let e = nvrtc::compile(HOST_HEAVY, "host_heavy.cu", &[], &opts, &[])
        .err()
        .expect("NVRTC rejects host code");
    assert!(
        e.message.contains("host_only_sync") || e.message.contains("vector"),
        "{e}"
    );
}
