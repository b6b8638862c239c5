//! Lowering semantics that the corpus expectations alone would not pin down.

use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
use gmrace_analyzer::ir::{self, AccessKind, Module, Space, StmtKind};

fn lower(src: &str) -> Module {
    match parse_source("t.cu", src, &FrontendOptions::default()) {
        Ok(m) => m,
        Err(e) => panic!("{:?}", e.diagnostics),
    }
}

fn ir_text(src: &str) -> String {
    ir::print_module(&lower(src))
}

#[test]
fn short_circuit_guards_the_right_hand_read() {
    // `a[i]` must only be read when `i < n`: an unconditional read could fault out of bounds.
    let m = lower("__global__ void k(int *a, int n) { int i = threadIdx.x; if (i < n && a[i] > 0) a[i] = 0; }");
    let k = &m.kernels[0];
    let mut guarded = false;
    ir::walk_stmts(&k.body, &mut |s| {
        if let StmtKind::If { then_body, .. } = &s.kind {
            for t in then_body {
                for e in t.exprs() {
                    e.walk(&mut |x| guarded |= matches!(x.kind, ir::ExprKind::Load { .. }));
                }
            }
        }
    });
    assert!(guarded, "{}", ir::print_module(&m));
}

#[test]
fn multidimensional_shared_arrays_linearise_with_declared_extents() {
    let t = ir_text(
        "__global__ void k() { __shared__ float s[16][17]; s[threadIdx.y][threadIdx.x] = 1.0f; }",
    );
    assert!(t.contains("* 68)"), "{t}");
    assert!(t.contains("shared s: f32[16][17] (1088 bytes)"), "{t}");
}

#[test]
fn template_instantiations_are_kernels_named_as_clang_prints_them() {
    let m = lower(
        "template <int BS> __global__ void stage(float *a) { __shared__ float s[BS]; s[threadIdx.x % BS] = a[0]; }\n\
         template <typename T> __global__ void fill(T *a) { a[threadIdx.x] = T(1); }\n\
         template __global__ void fill<int>(int *);\n\
         void host(float *d) { stage<512><<<2, 512>>>(d); }\n",
    );
    let names: Vec<&str> = m.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["stage<512>", "fill<int>"]);
    assert_eq!(m.kernels[0].shared[0].size_bytes, Some(2048));
    assert_eq!(m.launches.len(), 1);
    assert_eq!(m.launches[0].kernel, "stage<512>");
    assert_eq!(m.launches[0].grid, [Some(2), Some(1), Some(1)]);
    assert_eq!(m.launches[0].block, [Some(512), Some(1), Some(1)]);
}

#[test]
fn launch_dims_from_dim3_variables_and_dynamic_shared_memory() {
    let m = lower(
        "__global__ void k(float *a) { extern __shared__ float s[]; s[threadIdx.x] = a[0]; }\n\
         void host(float *d) { dim3 g(4, 2); dim3 b(16, 16); k<<<g, b, 1024>>>(d); }\n",
    );
    let l = &m.launches[0];
    assert_eq!(
        (l.grid, l.block),
        ([4, 2, 1].map(Some), [16, 16, 1].map(Some))
    );
    assert_eq!(l.dynamic_shared_bytes, Some(1024));
    assert_eq!(m.kernels[0].shared[0].size_bytes, None);
}

#[test]
fn header_comment_defines_apply_and_launch_is_recorded() {
    let m = lower("//pass\n//--blockDim=[64,2] --gridDim=8 -DN=64\n__global__ void k(int *a) { __shared__ int s[N]; s[threadIdx.x] = a[threadIdx.x]; }\n");
    assert_eq!(m.header.block, Some([64, 2, 1]));
    assert_eq!(m.header.grid, Some([8, 1, 1]));
    assert_eq!(m.kernels[0].shared[0].size_bytes, Some(256));
}

#[test]
fn device_functions_are_inlined_with_pointer_spaces_resolved() {
    let m = lower(
        "__device__ void put(float *p, int i, float v) { if (i < 0) return; p[i] = v; }\n\
         __global__ void k(float *g) { __shared__ float s[32]; put(s, threadIdx.x, 1.0f); put(g, threadIdx.x, s[0]); }\n",
    );
    let k = &m.kernels[0];
    let writes: Vec<Space> = k
        .accesses
        .iter()
        .filter(|a| a.kind == AccessKind::Write)
        .map(|a| a.space)
        .collect();
    assert_eq!(writes, vec![Space::Shared, Space::Global]);
    let t = ir::print_module(&m);
    assert!(
        t.contains("exit "),
        "early return inside the helper exits its scope: {t}"
    );
}

#[test]
fn gpuverify_requires_is_kept_as_an_assumption() {
    let t = ir_text("__global__ void k(int *a, int n) { __requires(n == 128); __assert(n > 0); a[threadIdx.x] = n; }");
    assert!(t.contains("Requires((n == 128))"), "{t}");
    assert!(
        !t.contains("Assert"),
        "GPUVerify proof obligations are dropped: {t}"
    );
}

#[test]
fn unsupported_constructs_become_opaque_with_a_located_warning() {
    let m = lower("__device__ int f(int x) { return x ? f(x - 1) : 0; }\n__global__ void k(int *a) { a[0] = f(3); }");
    let w = m
        .diagnostics
        .iter()
        .find(|d| d.message.contains("recursive"))
        .expect("a warning about recursion");
    assert_eq!(w.span.line, 1);
    let t = ir::print_module(&m);
    assert!(t.contains("opaque(recursive call to `f`)"), "{t}");
}

#[test]
fn switch_falls_through_until_break() {
    let t = ir_text(
        "__global__ void k(int *a) { switch (threadIdx.x & 3) { case 0: a[0] = 1; case 1: a[1] = 2; break; default: a[2] = 3; } }",
    );
    // Group i runs when the selected group is at or before it.
    assert!(t.contains("<= 0)"), "{t}");
    assert!(t.contains("<= 1)"), "{t}");
    assert!(t.contains("exit 0"), "{t}");
}

#[test]
fn pragma_unroll_keeps_its_loop() {
    let m = lower("__global__ void k(float *a) {\n#pragma unroll\n for (int i = 0; i < 4; i++) a[threadIdx.x * 4 + i] = 0; }");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert_eq!(m.kernels[0].accesses.len(), 1);
}

#[test]
fn struct_valued_conditional_keeps_its_reads_and_write() {
    // A float4 picked by `?:` and stored to shared memory: one read per leaf on each side, and
    // the shared write, all present (dropping them silently would hide races).
    let m = lower("__global__ void k(float4 *p, int c) { __shared__ float4 s[32]; s[threadIdx.x] = c ? p[0] : p[1]; }");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    let k = &m.kernels[0];
    let count = |space, kind| {
        k.accesses
            .iter()
            .filter(|a| a.space == space && a.kind == kind)
            .count()
    };
    assert_eq!(count(Space::Global, AccessKind::Read), 8);
    assert_eq!(count(Space::Shared, AccessKind::Write), 4);
}

#[test]
fn calls_through_function_pointers_choose_among_this_files_functions() {
    let m = lower(
        "__device__ float twice(float x) { return 2 * x; }\n\
         __device__ float half(float x) { return x / 2; }\n\
         __device__ int other(int x) { return x; }\n\
         typedef float (*op_t)(float);\n\
         __global__ void k(float *v, op_t f) { __requires(f == twice | f == half); v[threadIdx.x] = (*f)(v[threadIdx.x]); }",
    );
    let t = ir::print_module(&m);
    assert_eq!(m.functions, vec!["twice", "half"], "{t}");
    assert!(t.contains("scope"), "both candidates are inlined: {t}");
    assert!(
        !t.contains("other"),
        "a function of another type is no target: {t}"
    );
    assert!(m
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`twice` or `half`")));
}

#[test]
fn assumptions_about_memory_are_dropped_with_their_reads() {
    let m = lower("__global__ void k(int *a) { __requires(a[0] == 1); a[threadIdx.x] = 0; }");
    let k = &m.kernels[0];
    assert_eq!(k.accesses.len(), 1, "{}", ir::print_module(&m));
    assert_eq!(k.accesses[0].kind, AccessKind::Write);
    assert!(m.diagnostics[0].message.contains("does not use it"));
}

#[test]
fn calls_without_a_body_keep_their_argument_reads() {
    let m = lower(
        "__device__ float ext(float x);\n__device__ void extp(float *x);\n\
         __global__ void k(float *a) { a[0] = ext(a[1]); extp(a); }",
    );
    let t = ir::print_module(&m);
    assert_eq!(m.kernels[0].accesses.len(), 2, "{t}");
    // A by-value call cannot reach this kernel's memory; one given a pointer can.
    assert!(t.contains("opaque(result of `ext`)"), "{t}");
    assert!(!t.contains("opaque(call to `ext`)"), "{t}");
    assert!(t.contains("opaque(call to `extp`)"), "{t}");
}

#[test]
fn forward_gotos_exit_a_scope_ending_at_their_label() {
    let m = lower(
        "__global__ void k(int *a, int n) {\n  for (int i = 0; i < n; i++) {\n    if (a[i] < 0) goto skip;\n    a[i] = 1;\n  skip:\n    a[i] += 3;\n  }\n}",
    );
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    let t = ir::print_module(&m);
    assert!(t.contains("exit 0"), "{t}");
    // The store after the label is outside the scope the goto leaves.
    let after_scope = t.split("scope 0").nth(1).unwrap_or_default();
    assert!(after_scope.contains("line 6"), "{t}");
    let m =
        lower("__global__ void k(int *a) {\n again:\n  a[0]++;\n  if (a[0] < 3) goto again;\n}");
    assert!(m
        .diagnostics
        .iter()
        .any(|d| d.message.contains("goto backwards")));
}

#[test]
fn inline_ptx_reading_laneid_is_modelled_and_other_asm_is_opaque() {
    let m = lower("__global__ void k(int *a) { unsigned l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); a[threadIdx.x] = l; }");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert!(ir::print_module(&m).contains("& 31)"));
    // Another special register is an unknown value, and touches no memory.
    let m = lower("__global__ void k(int *a) { unsigned l; asm(\"mov.u32 %0, %%smid;\" : \"=r\"(l)); a[0] = l; }");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert!(ir::print_module(&m).contains("opaque(inline PTX result)"));
    // Register arithmetic reads its inputs (here `a[threadIdx.x]`) and gives an unknown.
    let m = lower("__global__ void k(int *a) { int r; asm volatile(\"dp4a.s32.s32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(a[threadIdx.x]), \"r\"(1), \"r\"(0)); a[threadIdx.x] = r; }");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    let k = &m.kernels[0];
    assert_eq!(k.accesses.len(), 2, "{}", ir::print_module(&m));
    assert!(ir::print_module(&m).contains("opaque(inline PTX result)"));
    // Asm behind a macro shows the macro's tokens, not its instructions.
    let m = lower("#define FENCE() asm volatile(\"membar.gl;\")\n__global__ void k(int *a) { a[0] = 1; FENCE(); }");
    assert!(m
        .diagnostics
        .iter()
        .any(|d| d.message.contains("inline assembly")));
    let m = lower("__global__ void k(int *a) { asm(\"st.global.u32 [%0], 1;\" :: \"l\"(a)); }");
    assert!(m
        .diagnostics
        .iter()
        .any(|d| d.message.contains("inline assembly")));
}

#[test]
fn a_file_redefining_size_t_uses_its_own_definition_with_a_warning() {
    let m = lower("typedef unsigned int size_t;\n__global__ void k(float *a) { size_t i = threadIdx.x; a[i] = 0; }");
    let w = &m.diagnostics[0];
    assert!(w.message.contains("`size_t`"), "{w:?}");
    assert_eq!(
        (w.span.line, m.files[w.span.file as usize].as_str()),
        (1, "t.cu")
    );
    let k = &m.kernels[0];
    assert!(k
        .locals
        .iter()
        .any(|l| l.name == "i" && l.ty == gmrace_analyzer::ir::Ty::U32));
    // Other clang errors are still errors: in the only kernel, the file is refused.
    assert!(parse_source(
        "t.cu",
        "typedef int size_t;\n__global__ void k(int *a) { a[0] = ; }",
        &FrontendOptions::default()
    )
    .is_err());
}

/// The prelude is precompiled once; a file whose command line clashes with it (here, a macro
/// the prelude's command line defines, given another value) is parsed with the plain prelude
/// and lowers as any other file.
#[test]
fn a_clash_with_the_precompiled_prelude_falls_back_to_the_plain_one() {
    let src = "__global__ void k(int *a) { __shared__ int s[64]; s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[63 - threadIdx.x]; }";
    let clash = FrontendOptions {
        defines: vec![("__GMRACE__".into(), Some("2".into()))],
        ..FrontendOptions::default()
    };
    let m = match parse_source("t.cu", src, &clash) {
        Ok(m) => m,
        Err(e) => panic!("{:?}", e.diagnostics),
    };
    assert_eq!(ir::print_module(&m), ir_text(src));
}

/// A set of C++ library headers is precompiled from its second file on; a file that does not
/// include each header of its set (`<map>` only on Windows) is read without them either way.
/// Were `<map>` read, `map` would be ambiguous and the kernel refused.
#[test]
fn a_library_set_precompiled_or_not_gives_one_module() {
    let src = "#ifdef _WIN32\n#include <map>\n#endif\n#include <vector>\n\
               using namespace std;\nconst int map = 1;\n\
               void host() { vector<int> v(3); }\n\
               __global__ void k(int *a) { a[threadIdx.x] = a[threadIdx.x + map]; }\n";
    let parse = || match parse_source("t.cu", src, &FrontendOptions::default()) {
        Ok(m) => ir::print_module(&m),
        Err(e) => panic!("{:?}", e.diagnostics),
    };
    let first = parse();
    assert!(first.contains("kernel k"), "{first}");
    assert_eq!(parse(), first);
}

/// Every missing header is named once, however many includes of it clang goes on past (one
/// parse finds them all), and the file's kernel lowers with both read as empty.
#[test]
fn each_missing_header_is_named_once() {
    let src = "#include \"gone_a.h\"\n#include <gone_b.h>\n#include \"gone_a.h\"\n\
               void host() { gone_helper(); }\n\
               __global__ void k(int *a) { a[threadIdx.x] = 1; }\n";
    let m = lower(src);
    let named = |h: &str| {
        m.diagnostics
            .iter()
            .filter(|d| d.message.starts_with(&format!("`{h}` not found")))
            .count()
    };
    assert_eq!(
        (named("gone_a.h"), named("gone_b.h")),
        (1, 1),
        "{:?}",
        m.diagnostics
    );
    assert_eq!(m.kernels.len(), 1);
}
