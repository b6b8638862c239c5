//! The CUDA device's parameter buffer and launch plan (`cuda::marshal`), from kernels the front
//! end parsed: this needs no GPU, and lives here so that the runtime crate does not depend on
//! the analyzer even for its tests.

use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
use gmrace_ir::Module;
use gmrace_runtime_cuda::cuda::marshal::{plan, shared_window_bytes};
use gmrace_runtime_cuda::launch::{Launch, LaunchSpec};
use std::path::Path;

fn module(src: &str) -> Module {
    parse_source("k.cu", src, &FrontendOptions::default()).expect("parses")
}

fn launch(m: &Module, spec: &str) -> Launch {
    LaunchSpec::parse(Path::new("k.toml"), spec.to_string())
        .and_then(|s| s.resolve(m))
        .expect("a valid spec")
}

/// Mixed sizes force padding; the instrumented runtime buffer comes last.
const KERNEL: &str = "__global__ void k(char c, double *d, short s, int n, float f, \
                      unsigned long long u, unsigned int *__gmrace_rt) {\n\
                      __shared__ float tile[256]; extern __shared__ int dyn[];\n\
                      if (threadIdx.x < n) d[threadIdx.x] = c + s + f + u + tile[0] + dyn[0];\n\
                      if (threadIdx.x == 0) __gmrace_rt[0] = 1; }\n";

const SPEC: &str = "grid = [3, 2]\nblock = [32, 4]\ndynamic_shared_bytes = 128\n[args]\n\
                    c = -2\nd = { len = 5, init = \"iota\" }\ns = 7\nn = 100\nf = 1.5\n\
                    u = 4294967296\n__gmrace_rt = { len = 16, init = \"zeros\" }\n";

#[test]
fn parameters_are_laid_out_with_natural_alignment() {
    let m = module(KERNEL);
    let l = launch(&m, SPEC);
    let p = plan(&m.kernels[0], &l).unwrap();
    let layout: Vec<(usize, usize)> = p.params.iter().map(|s| (s.offset, s.size)).collect();
    // char@0, pad to 8 for double*, short@16, int@20, float@24, pad, u64@32, ptr@40.
    assert_eq!(
        layout,
        [(0, 1), (8, 8), (16, 2), (20, 4), (24, 4), (32, 8), (40, 8)]
    );
    assert_eq!(p.param_bytes, 48);
    let names: Vec<(usize, &str)> = p.buffers.iter().map(|(i, b)| (*i, &*b.name)).collect();
    assert_eq!(names, [(1, "d"), (6, "__gmrace_rt")]);
    assert_eq!(
        (p.buffers[0].1.bytes.len(), p.buffers[1].1.bytes.len()),
        (40, 64)
    );
    assert_eq!((p.grid, p.block), ((3, 2, 1), (32, 4, 1)));
    assert_eq!((p.dynamic_shared_bytes, p.shared_opt_in), (128, None));
}

#[test]
fn the_parameter_buffer_holds_values_and_device_pointers() {
    let m = module(KERNEL);
    let l = launch(&m, SPEC);
    let p = plan(&m.kernels[0], &l).unwrap();
    let words = p.pack(&[0xdead_0000, 0xbeef_0000]);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(bytes.len(), 48);
    assert_eq!(bytes[0], 0xfe); // (char)-2
    assert_eq!(&bytes[1..8], &[0; 7]);
    assert_eq!(
        u64::from_le_bytes(bytes[8..16].try_into().unwrap()),
        0xdead_0000
    );
    assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), 7);
    assert_eq!(i32::from_le_bytes(bytes[20..24].try_into().unwrap()), 100);
    assert_eq!(f32::from_le_bytes(bytes[24..28].try_into().unwrap()), 1.5);
    assert_eq!(
        u64::from_le_bytes(bytes[32..40].try_into().unwrap()),
        1 << 32
    );
    assert_eq!(
        u64::from_le_bytes(bytes[40..48].try_into().unwrap()),
        0xbeef_0000
    );
}

#[test]
fn large_shared_memory_needs_the_opt_in() {
    let m = module(KERNEL);
    // 1 KiB static + 47 KiB dynamic = 48 KiB: no opt-in; one more byte needs it.
    let at_limit = SPEC.replace("= 128", &format!("= {}", 47 * 1024));
    let over = SPEC.replace("= 128", &format!("= {}", 47 * 1024 + 1));
    let p = plan(&m.kernels[0], &launch(&m, &at_limit))
        .unwrap()
        .shared_opt_in;
    assert_eq!(p, None);
    let p = plan(&m.kernels[0], &launch(&m, &over))
        .unwrap()
        .shared_opt_in;
    assert_eq!(p, Some(47 * 1024 + 1));
}

#[test]
fn the_shared_window_ends_after_the_reserved_static_and_dynamic_bytes() {
    let m = module(KERNEL);
    let k = &m.kernels[0];
    assert_eq!(shared_window_bytes(0, 1024, k, 128), 1024 + 128);
    // The dynamic area starts at a 16-byte boundary after the reserved and static bytes.
    assert_eq!(shared_window_bytes(1024, 1030, k, 128), 2064 + 128);
    // A type aligned to 64 bytes moves the dynamic area to a 64-byte boundary.
    let aligned = module(
        "struct __align__(64) Big { float v[16]; };\n\
         __global__ void k(float *o) { extern __shared__ Big dyn[]; o[0] = dyn[0].v[0]; }\n",
    );
    assert_eq!(shared_window_bytes(0, 8, &aligned.kernels[0], 4), 64 + 4);
}

#[test]
fn too_many_parameter_bytes_are_refused() {
    let params: Vec<String> = (0..513).map(|i| format!("double a{i}")).collect();
    let m = module(&format!("__global__ void k({}) {{}}\n", params.join(", ")));
    let args: String = (0..513).map(|i| format!("a{i} = 1.0\n")).collect();
    let l = launch(&m, &format!("grid = 1\nblock = 1\n[args]\n{args}"));
    let e = plan(&m.kernels[0], &l).unwrap_err();
    assert!(
        e.message.contains("4104 bytes of parameters"),
        "{}",
        e.message
    );
}
