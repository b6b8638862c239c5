//! GMRace's reductions for instrumented accesses: thread-invariant and loop-invariant addresses.

use gmrace_analyzer::analysis::{analyze_kernel, AnalysisOptions, Verdict, QUERY_WORK};
use gmrace_analyzer::frontend::{parse_source, FrontendOptions};

#[test]
fn invariant_addresses_are_recognised_only_when_proved() {
    let src = "//pass\n//--blockDim=64 --gridDim=2\n\
        __global__ void k(int *flag) {\n\
          __shared__ int s[64];\n\
          if (flag[threadIdx.x]) s[3] = 1;\n\
          for (int i = 0; i < 4; i++) if (flag[i]) s[blockIdx.x % 8] += 1;\n\
          for (int i = 0; i < 4; i++) if (flag[i]) s[threadIdx.x + i] = 2;\n\
        }\n";
    let m = parse_source("r.cu", src, &FrontendOptions::default()).expect("parses");
    // Generous work limits: what is proved does not run out.
    let opts = AnalysisOptions {
        query_work: 10 * QUERY_WORK,
        kernel_work: u64::MAX,
        first_round_work: 10 * QUERY_WORK,
        ..AnalysisOptions::default()
    };
    let r = analyze_kernel(&m, &m.kernels[0], &opts).expect("valid launch");
    let on_line = |line: u32| {
        r.accesses
            .iter()
            .filter(|a| a.line == line && a.array.as_deref() == Some("s"))
            .collect::<Vec<_>>()
    };
    for a in on_line(5) {
        assert_eq!(a.verdict, Verdict::Unknown, "{a:?}");
        assert!(a.thread_invariant && !a.loop_invariant, "{a:?}");
    }
    for a in on_line(6) {
        assert!(a.instrumented, "{a:?}");
        assert!(a.thread_invariant && a.loop_invariant, "{a:?}");
    }
    for a in on_line(7) {
        if a.instrumented {
            assert!(!a.thread_invariant && !a.loop_invariant, "{a:?}");
        }
    }
    assert!(!on_line(6).is_empty() && !on_line(5).is_empty());
}
