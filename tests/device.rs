//! The CPU SIMT device against plain Rust: corpus kernels run with the launch specs of
//! `kernels/device/` must produce exactly the buffers a reference computes (same float operation
//! order, so equality is bitwise); faults (out-of-bounds, barrier divergence, step budget, trap)
//! are reported at the right line; bad launch specs are rejected naming the argument; divergent
//! lanes reconverge as CUDA defines; results do not depend on how blocks are scheduled.
//!
//! A spec's first line names its kernel file (a comment); `cli/tests/dynamic.rs` launches the
//! `_race` twin of a `_fixed` kernel with the same spec.

use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::Module;
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::{line_col, LaunchSpec, SpecError};
use gmrace_runtime_cuda::report::{FaultKind, RunResult};
use gmrace_runtime_cuda::{Device, RunOptions};
use std::path::{Path, PathBuf};

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

/// Runs corpus kernel `cu` (relative to `kernels/`) with `kernels/device/<spec>`.
fn run_corpus(cu: &str, spec: &str) -> RunResult {
    run_corpus_with(cu, spec, &RunOptions::default())
}

fn run_corpus_with(cu: &str, spec: &str, opts: &RunOptions) -> RunResult {
    let module = frontend::parse_file(&kernels().join(cu), &FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{cu}: {:?}", e.diagnostics));
    let spec = LaunchSpec::read(&kernels().join("device").join(spec))
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let launch = spec.resolve(&module).unwrap_or_else(|e| panic!("{e}"));
    CpuDevice
        .run(&module, &launch, opts)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn parse_inline(name: &str, src: &str) -> Module {
    frontend::parse_source(name, src, &FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostics))
}

fn resolve_inline(
    module: &Module,
    spec: &str,
) -> Result<gmrace_runtime_cuda::launch::Launch, SpecError> {
    LaunchSpec::parse(Path::new("inline.toml"), spec.to_string())?.resolve(module)
}

/// Runs an inline kernel with an inline spec.
fn run_inline(name: &str, src: &str, spec: &str, opts: &RunOptions) -> RunResult {
    let module = parse_inline(name, src);
    let launch = resolve_inline(&module, spec).unwrap_or_else(|e| panic!("{e}"));
    CpuDevice
        .run(&module, &launch, opts)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn f32s(r: &RunResult, name: &str) -> Vec<f32> {
    r.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .as_f32()
}

fn ints(r: &RunResult, name: &str) -> Vec<i64> {
    r.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .as_i64()
}

fn assert_clean(r: &RunResult) {
    assert!(r.faults.is_empty(), "unexpected faults: {:#?}", r.faults);
}

fn assert_bits_eq(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: got {g}, want {w}");
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus kernels against references.

#[test]
fn reduce_seq_sums_each_block_in_tree_order() {
    let r = run_corpus("analysis/reduce_seq_fixed.cu", "reduce_seq_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let want: Vec<f32> = input
        .chunks(256)
        .map(|c| {
            let mut s = c.to_vec();
            let mut stride = 128;
            while stride > 0 {
                for t in 0..stride {
                    s[t] += s[t + stride];
                }
                stride /= 2;
            }
            s[0]
        })
        .collect();
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn blelloch_computes_exclusive_prefix_sums() {
    let r = run_corpus("analysis/blelloch_fixed.cu", "blelloch_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let mut want = Vec::new();
    for c in input.chunks(256) {
        let mut acc = 0.0f32;
        for x in c {
            want.push(acc);
            acc += x;
        }
    }
    // iota inputs: every partial sum is an integer below 2^24, exact in any order.
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn hillis_steele_computes_inclusive_prefix_sums() {
    let r = run_corpus(
        "analysis/hillis_steele_fixed.cu",
        "hillis_steele_fixed.toml",
    );
    assert_clean(&r);
    let input = ints(&r, "in");
    assert!(
        input.iter().any(|v| *v < 0),
        "random init gives negative values"
    );
    let mut want = Vec::new();
    for c in input.chunks(256) {
        let mut acc = 0i64;
        for x in c {
            acc += x;
            want.push(acc);
        }
    }
    assert_eq!(ints(&r, "out"), want);
}

#[test]
fn transpose_transposes() {
    let r = run_corpus("analysis/transpose_fixed.cu", "transpose_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let out = f32s(&r, "out");
    for y in 0..128 {
        for x in 0..128 {
            assert_eq!(out[x * 128 + y], input[y * 128 + x], "out[{x}][{y}]");
        }
    }
}

#[test]
fn matmul_multiplies() {
    let r = run_corpus("analysis/matmul_fixed.cu", "matmul_fixed.toml");
    assert_clean(&r);
    let (a, b) = (f32s(&r, "A"), f32s(&r, "B"));
    let mut want = vec![0f32; 4096];
    for row in 0..64 {
        for col in 0..64 {
            let mut acc = 0f32;
            for k in 0..64 {
                acc += a[row * 64 + k] * b[k * 64 + col];
            }
            want[row * 64 + col] = acc;
        }
    }
    assert_bits_eq(&f32s(&r, "C"), &want, "C");
}

#[test]
fn histogram_with_shared_atomics_counts() {
    let r = run_corpus("analysis/histogram_fixed.cu", "histogram_fixed.toml");
    assert_clean(&r);
    let input = ints(&r, "in");
    let mut want = vec![0i64; 64];
    for (i, v) in input.iter().enumerate() {
        let block = i / (256 * 4);
        want[block * 16 + (*v as usize % 16)] += 1;
    }
    assert_eq!(ints(&r, "hist"), want);
}

#[test]
fn stencil1d_sums_seven_neighbours() {
    let r = run_corpus("analysis/stencil1d_fixed.cu", "stencil1d_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let want: Vec<f32> = (0..512)
        .map(|g| {
            let mut acc = 0f32;
            for k in 0..7 {
                acc += input[g + k];
            }
            acc
        })
        .collect();
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn stencil2d_averages_five_points() {
    let r = run_corpus("analysis/stencil2d_fixed.cu", "stencil2d_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let at = |y: usize, x: usize| input[y * 66 + x];
    let mut want = vec![0f32; 4096];
    for gy in 0..64 {
        for gx in 0..64 {
            let (y, x) = (gy + 1, gx + 1);
            let c = at(y, x);
            let ns = at(y - 1, x) + at(y + 1, x);
            let ew = at(y, x - 1) + at(y, x + 1);
            want[gy * 64 + gx] = 0.2f32 * (c + ns + ew);
        }
    }
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn bitonic_sorts_each_block() {
    let r = run_corpus("analysis/bitonic_fixed.cu", "bitonic_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let mut want = Vec::new();
    for c in input.chunks(256) {
        let mut v = c.to_vec();
        v.sort_by(f32::total_cmp);
        want.extend(v);
    }
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn warp_reduce_with_syncwarp() {
    let r = run_corpus("analysis/warp_reduce_fixed.cu", "warp_reduce_fixed.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let want: Vec<f32> = input
        .chunks(256)
        .map(|c| {
            let mut s = c.to_vec();
            let mut stride = 128;
            while stride > 32 {
                for t in 0..stride {
                    s[t] += s[t + stride];
                }
                stride /= 2;
            }
            // The last warp: each lane reads v = s[t] once, then at every step adds
            // s[t + off] and writes back (syncwarps in between).
            let mut v: Vec<f32> = s[..32].to_vec();
            let mut off = 32;
            while off > 0 {
                for (t, vt) in v.iter_mut().enumerate() {
                    *vt += s[t + off];
                }
                s[..32].copy_from_slice(&v);
                off /= 2;
            }
            s[0]
        })
        .collect();
    assert_bits_eq(&f32s(&r, "out"), &want, "out");
}

#[test]
fn warp_shuffle_reduction_ballot_any_activemask() {
    let r = run_corpus("frontend/warp_intrinsics.cu", "warp_intrinsics.toml");
    assert_clean(&r);
    let input = f32s(&r, "in");
    let (sums, ballots) = (f32s(&r, "sums"), ints(&r, "ballots"));
    let (any_neg, counts) = (ints(&r, "any_neg"), ints(&r, "active_counts"));
    for w in 0..8 {
        let x = &input[w * 32..w * 32 + 32];
        // __shfl_down_sync tree: lanes whose source is past lane 31 keep their own value.
        let mut v = x.to_vec();
        let mut off = 16;
        while off > 0 {
            let prev = v.clone();
            for l in 0..32 {
                let src = if l + off < 32 { l + off } else { l };
                v[l] = prev[l] + prev[src];
            }
            off /= 2;
        }
        let total = v[0];
        assert_eq!(sums[w].to_bits(), total.to_bits(), "sums[{w}]");
        let ballot: u32 = (0..32)
            .filter(|l| x[*l] > total / 32.0)
            .map(|l| 1u32 << l)
            .sum();
        assert_eq!(ballots[w], ballot as i64, "ballots[{w}]");
        assert_eq!(
            any_neg[w],
            x.iter().any(|v| *v < 0.0) as i64,
            "any_neg[{w}]"
        );
        let above = x.iter().filter(|v| **v > 1.0).count() as i64;
        for l in 0..32 {
            let want = if x[l] > 1.0 { above } else { 0 };
            assert_eq!(counts[w * 32 + l], want, "active_counts[{}]", w * 32 + l);
        }
    }
}

#[test]
fn dynamic_shared_memory_is_sized_by_the_launch() {
    let r = run_corpus("analysis/dyn_shared_fixed.cu", "dyn_shared_fixed.toml");
    assert_clean(&r);
    let (a, b, out) = (f32s(&r, "a"), f32s(&r, "b"), f32s(&r, "out"));
    for g in 0..256 {
        let (blk, t) = (g / 128, g % 128);
        let want = a[g] + b[blk * 128 + 127 - t];
        assert_eq!(out[g].to_bits(), want.to_bits(), "out[{g}]");
    }
}

#[test]
fn global_atomics_across_blocks_count_and_stay_deterministic() {
    let r = run_corpus(
        "analysis/global_counter_fixed.cu",
        "global_counter_fixed.toml",
    );
    assert_clean(&r);
    let input = ints(&r, "in");
    let want = input.iter().filter(|v| **v == 2).count() as i64;
    assert_eq!(ints(&r, "count"), vec![want]);
    // Blocks touching one word cannot run in parallel without changing what they see.
    assert!(!r.parallel, "cross-block atomics fall back to block order");
}

#[test]
fn block_scoped_atomics_locks_and_flags_compute_what_they_should() {
    let bins = run_corpus(
        "analysis/block_atomic_bins_fixed.cu",
        "block_atomic_bins_fixed.toml",
    );
    assert_clean(&bins);
    assert_eq!(
        ints(&bins, "bins"),
        vec![64; 16],
        "4 blocks x 256 threads over 16 bins"
    );
    let mixed = run_corpus(
        "analysis/block_atomic_mixed_fixed.cu",
        "block_atomic_mixed_fixed.toml",
    );
    assert_clean(&mixed);
    assert_eq!(ints(&mixed, "count"), vec![128, 64, 64]);
    let aref = run_corpus(
        "frontend/atomic_ref_block_fixed.cu",
        "atomic_ref_block_fixed.toml",
    );
    assert_clean(&aref);
    assert_eq!(ints(&aref, "counter"), vec![256, 64, 64, 64, 64]);
    let lock = run_corpus("analysis/lock_counter_fixed.cu", "lock_counter_fixed.toml");
    assert_clean(&lock);
    assert_eq!(ints(&lock, "counter"), vec![4], "one increment per block");
    assert_eq!(ints(&lock, "lock"), vec![0], "the lock is released");
    let handed = run_corpus(
        "analysis/lock_handed_on_fixed.cu",
        "lock_handed_on_fixed.toml",
    );
    assert_clean(&handed);
    assert_eq!(ints(&handed, "table"), vec![7 + 1 + 2 + 3]);
    let last = run_corpus("analysis/last_block_fixed.cu", "last_block_fixed.toml");
    assert_clean(&last);
    assert_eq!(ints(&last, "total"), vec![1 + 2 + 3]);
    let message = run_corpus(
        "analysis/message_passing_fixed.cu",
        "message_passing_fixed.toml",
    );
    assert_clean(&message);
    assert_eq!(ints(&message, "out"), vec![42]);
}

// ---------------------------------------------------------------------------------------------
// Half precision.

const HALVES: &str = r#"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void halves(const float *in, float *h, float *b, float *s) {
    int t = threadIdx.x;
    h[t] = __half2float(__float2half(in[t]));
    b[t] = __bfloat162float(__float2bfloat16(in[t]));
    half2 p = __floats2half2_rn(in[t], in[(t + 1) % 8]);
    s[t] = __half2float(__low2half(p) + __high2half(p));
}
"#;

/// The stand-in `cuda_fp16.h`/`cuda_bf16.h` round to nearest even as a GPU does: overflow to
/// infinity, ties to even, subnormals. The expected bits are numpy's float16, and bfloat16's
/// round-to-nearest-even, of the same floats (0.1 is 0x3dccc000 as a half, infinity for 65520,
/// 1.0 for the tie 1 + 2^-11, 2^-24 for 5.96e-8).
#[test]
fn half_and_bfloat16_round_on_the_cpu_device_as_on_a_gpu() {
    let spec = "grid = 1\nblock = 8\n[args]\nin = { values = [0.1, 65520.0, 1.00048828125, \
                1.00146484375, 5.96e-8, -3.14159, 1e-3, 300.7] }\nh = { len = 8, init = \"zeros\" }\n\
                b = { len = 8, init = \"zeros\" }\ns = { len = 8, init = \"zeros\" }\n";
    let r = run_inline("halves.cu", HALVES, spec, &RunOptions::default());
    assert_clean(&r);
    let floats = |bits: [u32; 8]| bits.map(f32::from_bits);
    let h = [
        0x3dccc000, 0x7f800000, 0x3f800000, 0x3f804000, 0x33800000, 0xc0490000, 0x3a832000,
        0x43966000,
    ];
    assert_bits_eq(&f32s(&r, "h"), &floats(h), "half");
    let b = [
        0x3dcd0000, 0x47800000, 0x3f800000, 0x3f800000, 0x33800000, 0xc0490000, 0x3a830000,
        0x43960000,
    ];
    assert_bits_eq(&f32s(&r, "b"), &floats(b), "bfloat16");
    let s = [
        0x7f800000, 0x7f800000, 0x40002000, 0x3f804000, 0xc0490000, 0xc048e000, 0x43966000,
        0x43966000,
    ];
    assert_bits_eq(&f32s(&r, "s"), &floats(s), "half sums");
}

const FP8: &str = r#"
#include <cuda_fp8.h>
__global__ void fp8(const float *in, unsigned char *e4m3, unsigned char *e5m2,
                    unsigned char *e4m3_nosat, unsigned char *e5m2_nosat, float *back4,
                    float *back5) {
    int t = threadIdx.x;
    __nv_fp8_e4m3 a(in[t]);
    __nv_fp8_e5m2 b(in[t]);
    e4m3[t] = a.__x;
    e5m2[t] = b.__x;
    e4m3_nosat[t] = __nv_cvt_float_to_fp8(in[t], __NV_NOSAT, __NV_E4M3);
    e5m2_nosat[t] = __nv_cvt_float_to_fp8(in[t], __NV_NOSAT, __NV_E5M2);
    back4[t] = float(a);
    back5[t] = float(b);
}
"#;

/// The stand-in `cuda_fp8.h` rounds to nearest even and saturates as nvcc's header does: the
/// expected bits are what CUDA 12.4's `cuda_fp8.hpp` gives for the same floats (its host path,
/// compiled with g++): 448 and the tie 464 stay E4M3's largest finite value 0x7e, 465 overflows
/// (to the NaN 0x7f without saturation), 61440 rounds E5M2 up to infinity 0x7c, 2^-10 is a tie
/// that E4M3 rounds to 0, 2^-16 is E5M2's smallest subnormal, -0 keeps its sign.
#[test]
fn fp8_conversions_round_and_saturate_as_nvcc_defines_them() {
    let spec = "grid = 1\nblock = 16\n[args]\nin = { values = [0.0, -0.0, 1.0, 0.1, 448.0, \
                464.0, 465.0, 57344.0, 61440.0, 1e9, 0.001953125, 0.0009765625, 0.0009766, -3.3, \
                1.52587890625e-05, 240.0] }\n\
                e4m3 = { len = 16, init = \"zeros\" }\ne5m2 = { len = 16, init = \"zeros\" }\n\
                e4m3_nosat = { len = 16, init = \"zeros\" }\n\
                e5m2_nosat = { len = 16, init = \"zeros\" }\n\
                back4 = { len = 16, init = \"zeros\" }\nback5 = { len = 16, init = \"zeros\" }\n";
    let r = run_inline("fp8.cu", FP8, spec, &RunOptions::default());
    assert_clean(&r);
    let e4m3 = [
        0x00, 0x80, 0x38, 0x1d, 0x7e, 0x7e, 0x7e, 0x7e, 0x7e, 0x7e, 0x01, 0x00, 0x01, 0xc5, 0x00,
        0x77,
    ];
    let e5m2 = [
        0x00, 0x80, 0x3c, 0x2e, 0x5f, 0x5f, 0x5f, 0x7b, 0x7b, 0x7b, 0x18, 0x14, 0x14, 0xc3, 0x01,
        0x5c,
    ];
    let e4m3_nosat = [
        0x00, 0x80, 0x38, 0x1d, 0x7e, 0x7e, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x00, 0x01, 0xc5, 0x00,
        0x77,
    ];
    let e5m2_nosat = [
        0x00, 0x80, 0x3c, 0x2e, 0x5f, 0x5f, 0x5f, 0x7b, 0x7c, 0x7c, 0x18, 0x14, 0x14, 0xc3, 0x01,
        0x5c,
    ];
    for (name, want) in [
        ("e4m3", e4m3),
        ("e5m2", e5m2),
        ("e4m3_nosat", e4m3_nosat),
        ("e5m2_nosat", e5m2_nosat),
    ] {
        assert_eq!(ints(&r, name), want.map(i64::from), "{name}");
    }
    let floats = |bits: [u32; 16]| bits.map(f32::from_bits);
    let back4 = [
        0x00000000, 0x80000000, 0x3f800000, 0x3dd00000, 0x43e00000, 0x43e00000, 0x43e00000,
        0x43e00000, 0x43e00000, 0x43e00000, 0x3b000000, 0x00000000, 0x3b000000, 0xc0500000,
        0x00000000, 0x43700000,
    ];
    assert_bits_eq(&f32s(&r, "back4"), &floats(back4), "e4m3 to float");
    let back5 = [
        0x00000000, 0x80000000, 0x3f800000, 0x3dc00000, 0x43e00000, 0x43e00000, 0x43e00000,
        0x47600000, 0x47600000, 0x47600000, 0x3b000000, 0x3a800000, 0x3a800000, 0xc0600000,
        0x37800000, 0x43800000,
    ];
    assert_bits_eq(&f32s(&r, "back5"), &floats(back5), "e5m2 to float");
}

const DPX: &str = r#"
__global__ void dpx(const unsigned int *a, const unsigned int *b, const unsigned int *c,
                    unsigned int *out) {
    int t = threadIdx.x;
    unsigned int x = a[t], y = b[t], z = c[t];
    bool p, hi, lo;
    out[8 * t] = __viaddmax_s16x2(x, y, z);
    out[8 * t + 1] = __viaddmin_u16x2(x, y, z);
    out[8 * t + 2] = __viaddmax_s32_relu(x, y, z);
    out[8 * t + 3] = __vimin3_s16x2_relu(x, y, z);
    out[8 * t + 4] = __vimax3_u32(x, y, z);
    out[8 * t + 5] = __vibmax_s32(x, y, &p);
    out[8 * t + 6] = __vibmin_u16x2(x, y, &hi, &lo);
    out[8 * t + 7] = p * 4 + hi * 2 + lo;
}
"#;

/// The DPX intrinsics compute what the toolkit documents for them (crt/device_functions.h):
/// halfword lanes independent, sums wrapping, _relu clamping at 0, __vib* telling whether the
/// result is `a`. The reference is written here from that documentation.
#[test]
fn dpx_intrinsics_compute_what_the_toolkit_documents() {
    // (a, b, c) per thread: zeros, halfword overflows, sign boundaries, mixed lanes.
    let abc: [(u32, u32, u32); 8] = [
        (0, 0, 0),
        (0x7fff_7fff, 0x0001_0001, 0x8000_8000),
        (0x8000_0001, 0xffff_0002, 0x0000_0003),
        (0xffff_ffff, 0x0000_0001, 0x7fff_7fff),
        (0x7fff_ffff, 0x0000_0001, 0x8000_0000),
        (0x1234_5678, 0x8765_4321, 0x1111_2222),
        (5, 0xffff_fff0, 3),
        (0x0001_8000, 0x7fff_8000, 0xffff_0000),
    ];
    let a = abc.map(|t| t.0);
    let b = abc.map(|t| t.1);
    let c = abc.map(|t| t.2);
    let list = |v: &[u32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let spec = format!(
        "grid = 1\nblock = 8\n[args]\na = {{ values = [{}] }}\nb = {{ values = [{}] }}\n\
         c = {{ values = [{}] }}\nout = {{ len = 64, init = \"zeros\" }}\n",
        list(&a),
        list(&b),
        list(&c)
    );
    let r = run_inline("dpx.cu", DPX, &spec, &RunOptions::default());
    assert_clean(&r);
    let s16 = |v: u32, i: u32| (v >> (16 * i)) as u16 as i16 as i32;
    let u16_ = |v: u32, i: u32| (v >> (16 * i)) & 0xffff;
    let pack = |f: &dyn Fn(u32) -> u32| (f(0) & 0xffff) | ((f(1) & 0xffff) << 16);
    let got = ints(&r, "out");
    for t in 0..8 {
        let (x, y, z) = (a[t], b[t], c[t]);
        let (sx, sy, sz) = (x as i32, y as i32, z as i32);
        let want = [
            pack(&|i| {
                (s16(x, i) as i16)
                    .wrapping_add(s16(y, i) as i16)
                    .max(s16(z, i) as i16) as u32
            }),
            pack(&|i| ((u16_(x, i) + u16_(y, i)) & 0xffff).min(u16_(z, i))),
            sx.wrapping_add(sy).max(sz).max(0) as u32,
            pack(&|i| s16(x, i).min(s16(y, i)).min(s16(z, i)).max(0) as u32),
            x.max(y).max(z),
            sx.max(sy) as u32,
            pack(&|i| u16_(x, i).min(u16_(y, i))),
            u32::from(sx >= sy) * 4
                + u32::from(u16_(x, 1) <= u16_(y, 1)) * 2
                + u32::from(u16_(x, 0) <= u16_(y, 0)),
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(got[8 * t + k] as u32, *w, "thread {t}, result {k}");
        }
    }
}

/// An atomicAdd on a `__half2` (or any 16-bit float type) is not run as an integer add: the
/// front end does not model the value of such an atomic, and the CPU device refuses the kernel
/// rather than compute a wrong sum.
#[test]
fn a_half_atomic_add_is_refused_not_miscomputed() {
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(unsigned int *acc) {
    atomicAdd((__half2 *)&acc[threadIdx.x % 4], __floats2half2_rn(1.0f, 0.5f));
}
"#;
    let module = parse_inline("half_atomic.cu", src);
    let launch = resolve_inline(
        &module,
        "grid = 1\nblock = 32\n[args]\nacc = { len = 4, init = \"zeros\" }\n",
    )
    .expect("valid spec");
    let e = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .expect_err("the value of a half2 atomic is not modelled");
    assert!(e.message.contains("unsupported"), "{}", e.message);
    assert_eq!(e.loc.map(|l| l.line), Some(4));
}

const PARTITION: &str = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void odd_even(const int *in, int *out) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    cg::coalesced_group part = cg::binary_partition(tile, v & 1);
    int sum = cg::reduce(part, v, cg::plus<int>());
    if (part.thread_rank() == 0)
        out[threadIdx.x] = sum;
}
"#;

/// `binary_partition` splits a warp by a predicate and `reduce` over the coalesced group it
/// gives sums each half: lane 0 leads the even values (0 + 2 + ... + 30), lane 1 the odd ones.
#[test]
fn a_binary_partition_reduces_each_half_of_the_warp() {
    let spec = "grid = 1\nblock = 32\n[args]\nin = { len = 32, init = \"iota\" }\n\
                out = { len = 32, init = \"zeros\" }\n";
    let r = run_inline("odd_even.cu", PARTITION, spec, &RunOptions::default());
    assert_clean(&r);
    let mut want = vec![0; 32];
    want[0] = (0..32).step_by(2).sum::<i64>();
    want[1] = (1..32).step_by(2).sum::<i64>();
    assert_eq!(ints(&r, "out"), want);
}

// ---------------------------------------------------------------------------------------------
// Faults.

const OOB_GLOBAL: &str = r#"
__global__ void scale(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = 2.0f * i;
}
"#;

#[test]
fn out_of_bounds_global_write_is_reported_at_its_line() {
    let spec = "grid = 2\nblock = 100\n[args]\na = { len = 150, init = \"zeros\" }\nn = 150\n";
    let r = run_inline("oob_global.cu", OOB_GLOBAL, spec, &RunOptions::default());
    assert_eq!(r.faults.len(), 1, "{:#?}", r.faults);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::OutOfBounds);
    let loc = f.loc.as_ref().expect("located");
    assert_eq!((loc.line, loc.column), (4, 5));
    // Block 0 is in bounds; the first faulting thread is global index 150.
    assert_eq!(f.block, Some([1, 0, 0]));
    assert_eq!(f.threads.first(), Some(&[50, 0, 0]));
    let m = f.memory.as_ref().expect("memory detail");
    assert_eq!(
        (m.kind, m.byte_offset, m.object_size),
        ("write", Some(600), Some(600))
    );
    assert_eq!(m.object.as_deref(), Some("a"));
}

#[test]
fn out_of_bounds_shared_read_and_negative_offsets_are_reported() {
    let src = r#"
__global__ void shift(int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[t + 1];
}

__global__ void before(int *out) {
    int t = threadIdx.x;
    out[t - 1] = t;
}
"#;
    let spec =
        "kernel = \"shift\"\ngrid = 1\nblock = 32\n[args]\nout = { len = 32, init = \"zeros\" }\n";
    let r = run_inline("oob_shared.cu", src, spec, &RunOptions::default());
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::OutOfBounds);
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(7));
    assert_eq!(f.threads, vec![[31, 0, 0]]);
    let m = f.memory.as_ref().expect("memory detail");
    assert_eq!(
        (m.kind, m.space, m.byte_offset),
        ("read", Some("shared"), Some(128))
    );

    let spec =
        "kernel = \"before\"\ngrid = 1\nblock = 32\n[args]\nout = { len = 32, init = \"zeros\" }\n";
    let r = run_inline("oob_before.cu", src, spec, &RunOptions::default());
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::OutOfBounds);
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(12));
    assert_eq!(f.memory.as_ref().and_then(|m| m.byte_offset), Some(-4));
    assert_eq!(f.threads, vec![[0, 0, 0]]);
}

#[test]
fn misaligned_and_null_accesses_are_faults() {
    let src = r#"
__global__ void odd(char *bytes, int *out) {
    int *p = (int *)(bytes + 2);
    out[threadIdx.x] = *p;
}
__global__ void null(int *out) {
    int *p = 0;
    out[threadIdx.x] = *p;
}
"#;
    let spec = "kernel = \"odd\"\ngrid = 1\nblock = 1\n[args]\nbytes = { len = 16, init = \"iota\" }\nout = { len = 1, init = \"zeros\" }\n";
    let r = run_inline("misaligned.cu", src, spec, &RunOptions::default());
    assert_eq!(r.faults[0].kind, FaultKind::Misaligned, "{:#?}", r.faults);
    assert_eq!(r.faults[0].loc.as_ref().map(|l| l.line), Some(4));
    let spec =
        "kernel = \"null\"\ngrid = 1\nblock = 1\n[args]\nout = { len = 1, init = \"zeros\" }\n";
    let r = run_inline("misaligned.cu", src, spec, &RunOptions::default());
    assert_eq!(
        r.faults[0].kind,
        FaultKind::InvalidAddress,
        "{:#?}",
        r.faults
    );
}

#[test]
fn divergent_barrier_is_reported_with_its_threads() {
    let module = frontend::parse_file(
        &kernels().join("analysis/divergent_barrier_race.cu"),
        &FrontendOptions::default(),
    )
    .expect("parses");
    let spec = "grid = 2\nblock = 64\n[args]\nin = { len = 128, init = \"iota\" }\nout = { len = 128, init = \"zeros\" }\n";
    let launch = resolve_inline(&module, spec).expect("valid spec");
    let r = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .expect("runs");
    assert_eq!(r.faults.len(), 1);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::BarrierDivergence);
    // The barrier marked `// DIVERGENCE` on line 11, reached by threads 0..15 only.
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(11));
    assert_eq!(f.block, Some([0, 0, 0]));
    assert_eq!(f.thread_count, 16);
    assert_eq!(f.threads.first(), Some(&[0, 0, 0]));
    assert_eq!(f.threads.last(), Some(&[15, 0, 0]));
}

/// The device agrees with the analysis (`skipped_barrier_race.cu`): threads that skip a barrier
/// and run on to the end of the kernel are not exited when the others reach it.
#[test]
fn a_barrier_skipped_by_threads_that_run_on_is_divergent() {
    let spec = "grid = 1\nblock = 64\n[args]\ng = { len = 64, init = \"iota\" }\n";
    let run = |file: &str| {
        let module = frontend::parse_file(&kernels().join(file), &FrontendOptions::default())
            .expect("parses");
        let launch = resolve_inline(&module, spec).expect("valid spec");
        CpuDevice
            .run(&module, &launch, &RunOptions::default())
            .expect("runs")
    };
    let r = run("analysis/skipped_barrier_race.cu");
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::BarrierDivergence, "{:#?}", r.faults);
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(9));
    assert_eq!(f.threads.first(), Some(&[0, 0, 0]));
    assert_eq!(f.threads.last(), Some(&[15, 0, 0]));
    assert_clean(&run("analysis/skipped_barrier_fixed.cu"));
}

#[test]
fn warps_waiting_at_different_barriers_are_divergent() {
    let src = r#"
__global__ void split(int *out) {
    int t = threadIdx.x;
    if (t < 32) {
        out[t] = 1;
        __syncthreads();
    } else {
        out[t] = 2;
        __syncthreads();
    }
}
"#;
    let spec = "grid = 1\nblock = 96\n[args]\nout = { len = 96, init = \"zeros\" }\n";
    let r = run_inline("split.cu", src, spec, &RunOptions::default());
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::BarrierDivergence);
    // The barrier with fewer threads (warp 0, line 6) is the divergent one; the note names the
    // other (line 9).
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(6));
    assert_eq!(f.thread_count, 32);
    assert_eq!(
        f.notes.first().and_then(|n| n.loc.as_ref()).map(|l| l.line),
        Some(9)
    );
}

#[test]
fn early_exit_before_barrier_is_not_divergence() {
    let r = run_corpus(
        "analysis/early_exit_before_barrier.cu",
        "early_exit_before_barrier.toml",
    );
    assert_clean(&r);
    let (input, out) = (f32s(&r, "in"), f32s(&r, "out"));
    for (g, o) in out.iter().enumerate() {
        let (b, t) = (g / 128, g % 128);
        let count = 128.min(200 - b * 128);
        assert_eq!(*o, input[b * 128 + count - 1 - t], "out[{g}]");
    }
}

#[test]
fn non_terminating_kernel_ends_at_the_step_budget() {
    let src = r#"
__global__ void spin(int *a) {
    while (1) {
        a[threadIdx.x] += 1;
    }
}
"#;
    let spec = "grid = 3\nblock = 64\n[args]\na = { len = 64, init = \"zeros\" }\n";
    let opts = RunOptions {
        max_steps: Some(10_000),
        ..RunOptions::default()
    };
    let r = run_inline("spin.cu", src, spec, &opts);
    assert_eq!(r.faults.len(), 1);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::StepBudget);
    assert_eq!(r.steps, 10_000, "the budget is exact");
    assert_eq!(f.block, Some([0, 0, 0]));
    assert!(matches!(f.loc.as_ref().map(|l| l.line), Some(3 | 4)));
    assert!(f.message.contains("10000"), "{}", f.message);
}

/// A long block is not silent until it ends: the progress callback hears about the budget it
/// spends every million or so warp-instructions.
#[test]
fn a_long_block_reports_its_progress_while_it_runs() {
    let src = "__global__ void spin(int *a) {\n    while (a[0] == 0) {\n    }\n}\n";
    let spec = "grid = 1\nblock = 32\n[args]\na = { len = 1, init = \"zeros\" }\n";
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let opts = RunOptions {
        max_steps: Some(3 << 20),
        progress: Some(Box::new(move |p| log.lock().expect("progress log").push(p))),
        ..RunOptions::default()
    };
    let r = run_inline("spin.cu", src, spec, &opts);
    assert_eq!(r.faults[0].kind, FaultKind::StepBudget);
    let seen = seen.lock().expect("progress log");
    let steps: Vec<u64> = seen.iter().map(|p| p.steps).collect();
    assert_eq!(steps, [1 << 20, 2 << 20, 3 << 20], "{seen:?}");
    assert!(
        seen.iter()
            .all(|p| p.blocks_done == 0 && p.blocks == 1 && p.budget == 3 << 20),
        "{seen:?}"
    );
}

#[test]
fn trap_and_requires_are_faults() {
    let src = r#"
__global__ void checked(int *a, int n) {
    __requires(n > 0);
    if (threadIdx.x == 5) __trap();
    a[threadIdx.x] = n;
}
"#;
    let spec = "grid = 1\nblock = 32\n[args]\na = { len = 32, init = \"zeros\" }\nn = 0\n";
    let r = run_inline("trap.cu", src, spec, &RunOptions::default());
    assert_eq!(
        r.faults[0].kind,
        FaultKind::RequiresViolated,
        "{:#?}",
        r.faults
    );
    assert_eq!(r.faults[0].loc.as_ref().map(|l| l.line), Some(3));
    let spec = "grid = 1\nblock = 32\n[args]\na = { len = 32, init = \"zeros\" }\nn = 3\n";
    let r = run_inline("trap.cu", src, spec, &RunOptions::default());
    assert_eq!(r.faults[0].kind, FaultKind::Trap, "{:#?}", r.faults);
    assert_eq!(r.faults[0].threads, vec![[5, 0, 0]]);
}

#[test]
fn shuffle_with_a_lane_on_another_path_is_warp_divergence() {
    let src = r#"
__global__ void half(int *out) {
    int t = threadIdx.x;
    int v = t;
    if (t < 16)
        v = __shfl_xor_sync(0xffffffffu, v, 1);
    out[t] = v;
}
"#;
    let spec = "grid = 1\nblock = 32\n[args]\nout = { len = 32, init = \"zeros\" }\n";
    let r = run_inline("half.cu", src, spec, &RunOptions::default());
    assert_eq!(
        r.faults[0].kind,
        FaultKind::WarpDivergence,
        "{:#?}",
        r.faults
    );
    assert_eq!(r.faults[0].loc.as_ref().map(|l| l.line), Some(6));
}

// ---------------------------------------------------------------------------------------------
// Launch specs.

fn spec_error(spec: &str) -> (SpecError, String) {
    let module = parse_inline(
        "two.cu",
        "__global__ void k(float *x, int n) { x[0] = n; }\n",
    );
    let e = resolve_inline(&module, spec).expect_err("spec must be rejected");
    let line = e
        .span
        .clone()
        .map(|s| line_col(spec, s.start).0)
        .unwrap_or(0);
    (e, line.to_string())
}

#[test]
fn bad_launch_specs_name_the_argument_and_line() {
    let ok = "grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\n";
    let module = parse_inline(
        "two.cu",
        "__global__ void k(float *x, int n) { x[0] = n; }\n",
    );
    resolve_inline(&module, ok).expect("the good spec resolves");

    let (e, _) = spec_error("grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\n");
    assert!(e.message.contains("missing argument `n`"), "{}", e.message);

    let (e, line) = spec_error(
        "grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\nm = 4\n",
    );
    assert!(e.message.contains("extra argument `m`"), "{}", e.message);
    assert_eq!(line, "6");

    let (e, line) =
        spec_error("grid = 1\nblock = 2048\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\n");
    assert!(e.message.contains("block x extent 2048"), "{}", e.message);
    assert_eq!(line, "2");

    let (e, _) = spec_error(
        "grid = 1\nblock = [64, 32]\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\n",
    );
    assert!(e.message.contains("2048 threads"), "{}", e.message);

    let (e, line) =
        spec_error("grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 2.5\n");
    assert!(
        e.message.contains("argument `n`") && e.message.contains("integer"),
        "{}",
        e.message
    );
    assert_eq!(line, "5");

    let (e, _) = spec_error("grid = 1\nblock = 32\n[args]\nx = 3\nn = 3\n");
    assert!(
        e.message.contains("argument `x`") && e.message.contains("buffer"),
        "{}",
        e.message
    );

    let (e, _) =
        spec_error("grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"fil\" }\nn = 3\n");
    assert!(e.message.contains("fil"), "{}", e.message);

    let (e, _) = spec_error(
        "grid = 1\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3000000000\n",
    );
    assert!(e.message.contains("out of range for i32"), "{}", e.message);

    let (e, line) =
        spec_error("grid = 1\nblok = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\n");
    assert!(e.message.contains("blok"), "{}", e.message);
    assert_eq!(line, "2");

    let (e, _) = spec_error(
        "grid = [1, 70000]\nblock = 32\n[args]\nx = { len = 4, init = \"zeros\" }\nn = 3\n",
    );
    assert!(e.message.contains("grid y extent 70000"), "{}", e.message);

    let (e, _) = spec_error(
        "grid = 1\nblock = 32\n[args]\nx = { len = 100000000000000, init = \"zeros\" }\nn = 3\n",
    );
    assert!(e.message.contains("bytes"), "{}", e.message);

    let (e, _) =
        spec_error("grid = 1\nblock = 32\n[args]\nx = { file = \"no/such/file.bin\" }\nn = 3\n");
    assert!(
        e.message.contains("argument `x`") && e.message.contains("cannot read"),
        "{}",
        e.message
    );
}

#[test]
fn buffer_forms_fill_as_documented() {
    let dir = std::env::temp_dir().join(format!("gmrace-device-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data: Vec<u8> = (0..10u32).flat_map(|v| (v * 3).to_le_bytes()).collect();
    std::fs::write(dir.join("data.bin"), &data).expect("write");
    let src = "__global__ void k(const unsigned *f, const unsigned char *i, const float *r, const int *v, const double *z) {}\n";
    let module = parse_inline("forms.cu", src);
    let spec = r#"
grid = 1
block = 1
[args]
f = { file = "data.bin", offset = 8 }
i = { len = 300, init = "iota" }
r = { len = 1000, init = "random", min = -2, max = 2.5, seed = 7 }
v = { values = [1, -2, 3] }
z = { len = 3, init = "fill", value = 0.25 }
"#;
    let launch = LaunchSpec::parse(&dir.join("spec.toml"), spec.to_string())
        .and_then(|s| s.resolve(&module))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .expect("runs");
    assert_eq!(ints(&r, "f"), (2..10).map(|v| v * 3).collect::<Vec<i64>>());
    assert_eq!(ints(&r, "i")[255..258], [255, 0, 1]);
    let rs = f32s(&r, "r");
    assert!(rs.iter().all(|x| (-2.0..=2.5).contains(x)));
    assert!(rs.iter().any(|x| *x < -1.5) && rs.iter().any(|x| *x > 2.0));
    assert_eq!(ints(&r, "v"), vec![1, -2, 3]);
    assert_eq!(r.buffer("z").map(|b| b.as_f64()), Some(vec![0.25; 3]));
    // The same seed gives the same buffer.
    let again = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .expect("runs");
    assert_eq!(f32s(&again, "r"), rs);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Divergence and reconvergence, determinism, printf.

const PATHS: &str = r#"
__global__ void paths(int *out, unsigned *masks) {
    int t = threadIdx.x;
    int v = 0;
    if (t % 2 == 0) {
        v = t * 3;
    } else if (t % 3 == 0) {
        v = -t;
    } else {
        v = 100;
    }
    for (int i = 0; i < 10; ++i) {
        if (i == t % 7)
            continue;
        if (i > t % 5 + 3)
            break;
        v += i;
        if (t == 13 && i == 2)
            v *= 2;
    }
    int w = 0;
    do {
        w += 3;
    } while (w < t % 4 * 3);
    switch (t % 3) {
    case 0:
        v += 1000;
    case 1:
        v += w;
        break;
    default:
        v -= 1;
    }
    masks[t] = __activemask();
    unsigned b = __ballot_sync(0xffffffffu, v > 50);
    masks[96 + t] = b;
    if (t >= 40)
        return;
    masks[192 + t] = __activemask();
    out[t] = v;
}
"#;

fn paths_reference(t: i64) -> i64 {
    let mut v = if t % 2 == 0 {
        t * 3
    } else if t % 3 == 0 {
        -t
    } else {
        100
    };
    for i in 0..10 {
        if i == t % 7 {
            continue;
        }
        if i > t % 5 + 3 {
            break;
        }
        v += i;
        if t == 13 && i == 2 {
            v *= 2;
        }
    }
    let mut w = 0;
    loop {
        w += 3;
        if w >= t % 4 * 3 {
            break;
        }
    }
    match t % 3 {
        0 => v += 1000 + w,
        1 => v += w,
        _ => v -= 1,
    }
    v
}

#[test]
fn divergent_lanes_compute_what_cuda_defines_and_reconverge() {
    let spec = "grid = 1\nblock = 64\n[args]\nout = { len = 64, init = \"fill\", value = -1 }\nmasks = { len = 288, init = \"zeros\" }\n";
    let r = run_inline("paths.cu", PATHS, spec, &RunOptions::default());
    assert_clean(&r);
    let out = ints(&r, "out");
    let masks = ints(&r, "masks");
    for t in 0..64usize {
        let want = if t < 40 {
            paths_reference(t as i64)
        } else {
            -1
        };
        assert_eq!(out[t], want, "out[{t}]");
        // Every lane is back after the branches, loops, do-while and switch.
        assert_eq!(
            masks[t], 0xffff_ffff,
            "activemask after reconvergence, thread {t}"
        );
        let warp = t / 32;
        let ballot: u32 = (0..32)
            .filter(|l| paths_reference((warp * 32 + l) as i64) > 50)
            .map(|l| 1u32 << l)
            .sum();
        assert_eq!(masks[96 + t], ballot as i64, "ballot, thread {t}");
    }
    // After `return` of threads 40..63, warp 1 has lanes 0..7 only.
    for t in 0..40usize {
        let want: i64 = if t < 32 { 0xffff_ffff } else { 0xff };
        assert_eq!(masks[192 + t], want, "activemask after return, thread {t}");
    }
}

#[test]
fn integer_semantics_are_cudas() {
    let src = r#"
__global__ void ints(int *o, unsigned *u, int a, int z, unsigned ua) {
    o[0] = a / z;
    o[1] = a % z;
    o[2] = (-2147483647 - 1) / (z - 1);
    o[3] = a >> 40;
    o[4] = -a >> 1;
    o[5] = a << 31;
    u[0] = ua / 0u + (unsigned)z;
    u[1] = ua >> 33;
    u[2] = ua * 3u;
    u[3] = (unsigned)(-1.5f);
    o[6] = (int)3e10f;
    o[7] = (int)(-2.7f);
    o[8] = __popc(ua) + __clz(1u) * 100 + __ffs(8) * 10000;
    o[9] = (char)300;
}
"#;
    let spec = "grid = 1\nblock = 1\n[args]\no = { len = 10, init = \"zeros\" }\nu = { len = 4, init = \"zeros\" }\na = 7\nz = 0\nua = 4000000000\n";
    let r = run_inline("ints.cu", src, spec, &RunOptions::default());
    assert_clean(&r);
    assert_eq!(
        ints(&r, "o"),
        vec![
            -1,
            7,
            i32::MIN as i64,
            0,
            -4,
            i32::MIN as i64,
            i32::MAX as i64,
            -2,
            13 + 3100 + 40000,
            44
        ]
    );
    assert_eq!(
        ints(&r, "u"),
        vec![
            u32::MAX as i64,
            0,
            (4_000_000_000u32.wrapping_mul(3)) as i64,
            0
        ]
    );
}

#[test]
fn parallel_and_sequential_runs_agree_byte_for_byte() {
    let par = run_corpus("analysis/matmul_fixed.cu", "matmul_fixed.toml");
    let seq = run_corpus_with(
        "analysis/matmul_fixed.cu",
        "matmul_fixed.toml",
        &RunOptions {
            threads: Some(1),
            ..RunOptions::default()
        },
    );
    assert!(!seq.parallel);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 && std::env::var_os("RAYON_NUM_THREADS").is_none() {
        assert!(par.parallel, "independent blocks run in parallel");
    }
    assert_eq!(
        par.buffer("C").map(|b| &b.bytes),
        seq.buffer("C").map(|b| &b.bytes)
    );
    assert_eq!(
        (par.steps, par.thread_instructions),
        (seq.steps, seq.thread_instructions)
    );
}

#[test]
fn printf_is_prefixed_and_in_block_order() {
    let src = r#"
__global__ void hello(int *a) {
    if (threadIdx.x % 16 == 3)
        printf("x=%d %5.2f %s|\n", a[blockIdx.x], 0.5f * threadIdx.x, "s");
}
"#;
    let spec = "grid = 4\nblock = 32\n[args]\na = { values = [10, 20, 30, 40] }\n";
    let expected: String = (0..4)
        .flat_map(|b| {
            [3, 19].map(move |t| {
                format!(
                    "[block ({b},0,0) thread ({t},0,0)] x={} {:5.2} (string)|\n",
                    (b + 1) * 10,
                    0.5 * t as f32
                )
            })
        })
        .collect();
    for _ in 0..3 {
        let r = run_inline("hello.cu", src, spec, &RunOptions::default());
        assert_clean(&r);
        assert_eq!(r.printf, expected);
    }
}

#[test]
fn opaque_constructs_are_refused_with_their_line() {
    let src = r#"
__device__ int ext(int x);
__global__ void k(int *a) {
    a[threadIdx.x] = ext(threadIdx.x);
}
"#;
    let module = parse_inline("opaque.cu", src);
    let launch = resolve_inline(
        &module,
        "grid = 1\nblock = 1\n[args]\na = { len = 1, init = \"zeros\" }\n",
    )
    .expect("valid spec");
    let e = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .expect_err("an opaque call cannot run");
    assert!(e.message.contains("ext"), "{}", e.message);
    assert_eq!(e.loc.map(|l| l.line), Some(4));
}

#[test]
fn shuffles_votes_atomics_globals_and_local_arrays() {
    let src = r#"
__device__ int g_counter;
__constant__ int c_table[4] = {10, 20, 30, 40};
__global__ void mix(int *out, unsigned *u, float *f) {
    int t = threadIdx.x;
    int lane = t & 31;
    out[t] = __shfl_up_sync(0xffffffffu, t, 3, 8);
    out[64 + t] = __shfl_xor_sync(0xffffffffu, t, 5, 16);
    out[128 + t] = __shfl_sync(0xffffffffu, t, lane + 33);
    u[t] = __match_any_sync(0xffffffffu, t % 3);
    int pred = 5;
    u[64 + t] = __match_all_sync(0xffffffffu, t / 32, &pred);
    out[320 + t] = pred;
    int c = __syncthreads_count(t % 5 == 0);
    int a = __syncthreads_and(t < 100);
    int o = __syncthreads_or(t == 63);
    out[192 + t] = c * 100 + a * 10 + o;
    atomicAdd(&g_counter, c_table[t % 4]);
    atomicMax((int *)&u[128], t * 7 % 61);
    atomicInc(&u[129], 9u);
    atomicDec(&u[130], 5u);
    atomicCAS(&u[131], (unsigned)t, (unsigned)(t + 1));
    atomicAdd(&f[0], 0.5f);
    atomicExch(&u[132], (unsigned)t);
    int loc[5];
    for (int i = 0; i < 5; ++i)
        loc[i] = t * i;
    int s = 0;
    for (int i = 4; i >= 0; --i)
        s = s * 2 + loc[i];
    out[256 + t] = s;
}
"#;
    let spec = "grid = 1\nblock = 64\n[args]\nout = { len = 384, init = \"zeros\" }\nu = { len = 133, init = \"zeros\" }\nf = { len = 1, init = \"zeros\" }\n";
    let r = run_inline("mix.cu", src, spec, &RunOptions::default());
    assert_clean(&r);
    let (out, u) = (ints(&r, "out"), ints(&r, "u"));
    for t in 0..64i64 {
        let (w, l) = (t / 32 * 32, t % 32);
        let ti = t as usize;
        let base = l / 8 * 8;
        let up = if l - 3 >= base { w + l - 3 } else { t };
        assert_eq!(out[ti], up, "shfl_up, thread {t}");
        assert_eq!(out[64 + ti], w + (l ^ 5), "shfl_xor, thread {t}");
        assert_eq!(out[128 + ti], w + (l + 1) % 32, "shfl, thread {t}");
        let any: i64 = (0..32)
            .filter(|j| (w + j) % 3 == t % 3)
            .map(|j| 1i64 << j)
            .sum();
        assert_eq!(u[ti], any, "match_any, thread {t}");
        assert_eq!(u[64 + ti], 0xffff_ffff, "match_all, thread {t}");
        assert_eq!(out[320 + ti], 1, "match_all pred, thread {t}");
        assert_eq!(out[192 + ti], 1311, "syncthreads_count/and/or, thread {t}");
        assert_eq!(out[256 + ti], t * 98, "local array, thread {t}");
    }
    assert_eq!(u[128], (0..64).map(|t| t * 7 % 61).max().unwrap_or(0));
    assert_eq!(u[129], 64 % 10, "atomicInc wraps after 9");
    assert_eq!(u[130], 2, "atomicDec wraps to 5 at 0");
    assert_eq!(u[131], 64, "lanes apply atomics in thread order");
    assert_eq!(u[132], 63);
    assert_eq!(f32s(&r, "f"), vec![32.0]);
    assert_eq!(ints(&r, "g_counter"), vec![1600]);
}

#[test]
fn warp_spinning_on_a_barrier_waiter_is_reported_with_both_lines() {
    let src = r#"
__global__ void wait(volatile int *flag) {
    if (threadIdx.x < 32) {
        while (flag[0] == 0) {
        }
    }
    __syncthreads();
    flag[0] = 1;
}
"#;
    let spec = "grid = 1\nblock = 64\n[args]\nflag = { len = 1, init = \"zeros\" }\n";
    let opts = RunOptions {
        max_steps: Some(100_000),
        ..RunOptions::default()
    };
    let r = run_inline("deadlock.cu", src, spec, &opts);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::StepBudget);
    assert!(f.message.contains("wait at a barrier"), "{}", f.message);
    let lines: Vec<u32> = f
        .notes
        .iter()
        .filter_map(|n| n.loc.as_ref().map(|l| l.line))
        .collect();
    assert_eq!(lines.len(), 2, "{:#?}", f.notes);
    assert!(
        matches!(lines[0], 3 | 4),
        "warp 0 spins in the loop: {lines:?}"
    );
    assert_eq!(lines[1], 7, "warp 1 waits at the barrier");
}
