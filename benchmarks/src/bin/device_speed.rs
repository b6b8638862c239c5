//! Speed of the CPU SIMT device (issue 4's targets): thread-instructions per second on a
//! compute-bound kernel, and the wall time of a 1024-block x 256-thread launch of a simple one.
//!
//! `cargo run --release -p gmrace-benchmarks --bin device-speed [-- --threads N] [--repeat N]`
//!
//! Prints a Markdown table. A thread-instruction is one executed warp-instruction of the lowered
//! kernel times its active lanes (DESIGN.md "CPU SIMT device"); wall times include lowering and
//! buffer set-up, not parsing. Each row is the best of `--repeat` runs (default 3).

use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::{Device, RunOptions};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

const COMPUTE: &str = r#"
__global__ void compute(float *out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i * 0.001f, y = 1.0f;
    for (int k = 0; k < iters; ++k) {
        x = x * 0.999f + 0.5f;
        y = y * 0.5f + x;
        if (y > 100.0f)
            y = y - 100.0f;
    }
    out[i] = x + y;
}
"#;

const COMPUTE_SPEC: &str = r#"
grid = 64
block = 256
[args]
out = { len = 16384, init = "zeros" }
iters = 2000
"#;

const MATMUL: &str = r#"
#define TILE 16
__global__ void matmul(const float *A, const float *B, float *C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
"#;

const MATMUL_SPEC: &str = r#"
grid = [16, 16]
block = [16, 16]
[args]
A = { len = 65536, init = "random", min = -1.0, max = 1.0, seed = 1 }
B = { len = 65536, init = "random", min = -1.0, max = 1.0, seed = 2 }
C = { len = 65536, init = "zeros" }
n = 256
"#;

const SIMPLE: &str = r#"
__global__ void saxpy(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"#;

const SIMPLE_SPEC: &str = r#"
grid = 1024
block = 256
[args]
x = { len = 262144, init = "iota" }
y = { len = 262144, init = "fill", value = 1.0 }
a = 2.0
n = 262144
"#;

struct Row {
    name: &'static str,
    launch: String,
    seconds: f64,
    steps: u64,
    thread_instructions: u64,
    parallel: bool,
}

fn measure(
    name: &'static str,
    src: &str,
    spec: &str,
    threads: Option<usize>,
    repeat: usize,
) -> Result<Row, String> {
    let module = frontend::parse_source(&format!("{name}.cu"), src, &FrontendOptions::default())
        .map_err(|e| format!("{name}: {:?}", e.diagnostics))?;
    let launch = LaunchSpec::parse(Path::new("bench.toml"), spec.to_string())
        .and_then(|s| s.resolve(&module))
        .map_err(|e| format!("{name}: {e}"))?;
    let opts = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let mut best: Option<Row> = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let r = CpuDevice
            .run(&module, &launch, &opts)
            .map_err(|e| format!("{name}: {e}"))?;
        let seconds = start.elapsed().as_secs_f64();
        if !r.faults.is_empty() {
            return Err(format!(
                "{name}: the kernel faulted: {}",
                r.faults[0].message
            ));
        }
        if best.as_ref().is_none_or(|b| seconds < b.seconds) {
            best = Some(Row {
                name,
                launch: format!("{:?} x {:?}", launch.grid, launch.block),
                seconds,
                steps: r.steps,
                thread_instructions: r.thread_instructions,
                parallel: r.parallel,
            });
        }
    }
    best.ok_or_else(|| format!("{name}: no run"))
}

fn main() -> ExitCode {
    let mut threads = None;
    let mut repeat = 3;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<usize>().ok());
        match (args[i].as_str(), value) {
            ("--threads", Some(n)) => threads = Some(n),
            ("--repeat", Some(n)) => repeat = n,
            _ => {
                eprintln!("usage: device-speed [--threads N] [--repeat N]");
                return ExitCode::from(2);
            }
        }
        i += 2;
    }
    let rows = [
        measure("compute", COMPUTE, COMPUTE_SPEC, threads, repeat),
        measure("matmul", MATMUL, MATMUL_SPEC, threads, repeat),
        measure("simple", SIMPLE, SIMPLE_SPEC, threads, repeat),
    ];
    println!(
        "| kernel | launch | blocks in parallel | wall time | warp-instructions | \
         thread-instructions | thread-instructions/s |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut failed = false;
    for r in rows {
        match r {
            Ok(r) => println!(
                "| {} | {} | {} | {:.3} s | {} | {} | {:.1} M |",
                r.name,
                r.launch,
                if r.parallel { "yes" } else { "no" },
                r.seconds,
                r.steps,
                r.thread_instructions,
                r.thread_instructions as f64 / r.seconds / 1e6
            ),
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
            }
        }
    }
    println!(
        "\nthreads: {}",
        threads.map_or_else(
            || format!(
                "{} (all)",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            ),
            |n| n.to_string()
        )
    );
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
