//! `gmrace-gpu BUNDLE...`: runs bundles that `gmrace run --bundle DIR` prepared, on the GPU
//! and on the CPU device, prints each run's report exactly as `gmrace run --backend cuda`
//! prints it, then the comparison of the two devices (`compare`).
//!
//! Exit status: 0 the devices agree and found nothing; 1 a race or a fault, both agreeing;
//! 3 a disagreement; 2 a bundle that cannot be read or run, or no usable CUDA driver (with
//! `--cpu-only` the CPU device runs alone, and the status is `gmrace run`'s). Over several
//! bundles the worst counts: 2, then 3, then 1. With `--format json|sarif` the report is one
//! document per bundle on stdout and the comparison goes to stderr.
//!
//! Invariant: built from the IR, the runtime and the report crates only: no front end, solver
//! or instrumenter (`ldd` shows the C runtime alone; libcuda and NVRTC load at run time).

mod compare;
mod device_run;
mod resume;
mod table;

use clap::{Parser, ValueEnum};
use gmrace_report::render;
use gmrace_report::run::print::{Format, Output};
use gmrace_runtime_cuda::bundle::Bundle;
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::cuda::{
    exit_leaving_gpu, gpu_held, probe, CudaDevice, Gpu, DEFAULT_TIME_LIMIT,
};
use gmrace_runtime_cuda::report::dump_buffers;
use gmrace_runtime_cuda::Device;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Text,
    Json,
    Sarif,
}

#[derive(Parser)]
#[command(
    name = "gmrace-gpu",
    version,
    about = "Run gmrace bundles on the GPU and the CPU device, and compare"
)]
struct Args {
    /// Bundles written by `gmrace run ... --bundle DIR`.
    #[arg(value_name = "BUNDLE", required_unless_present = "probe")]
    bundles: Vec<PathBuf>,
    /// Say which GPU, driver and NVRTC would run the bundles (exit 0), or why none can (exit 2).
    #[arg(long, conflicts_with = "cpu_only")]
    probe: bool,
    /// Instead of each report, one table of every bundle at the end: kernel, mode, races and
    /// faults on each device, buffers, GPU time, and a checked run's time over the plain run's.
    #[arg(long, conflicts_with = "cpu_only")]
    table: bool,
    /// Run the CPU device alone (no driver needed): the report is `gmrace run --backend emu`'s.
    #[arg(long)]
    cpu_only: bool,
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// Print only faults and races (no summary, no comparison unless the devices disagree).
    #[arg(long)]
    quiet: bool,
    /// Write every buffer after the reported run (the GPU's, or the CPU device's with
    /// `--cpu-only`) to DIR/<name>.bin plus DIR/index.json; with several bundles, to
    /// DIR/<bundle directory's name>/.
    #[arg(long, value_name = "DIR")]
    dump_buffers: Option<PathBuf>,
    /// Write the comparison of every bundle to FILE (JSON, one row per bundle).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Seconds a GPU run waits for its kernel; one still running then is a step-budget fault,
    /// and the bundles left run in a fresh process (nothing stops a kernel on a GPU).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT.as_secs())]
    gpu_timeout: u64,
    /// The rows and status an earlier image of this process handed on (`resume`).
    #[arg(long, hide = true, value_name = "FILE")]
    resume: Option<PathBuf>,
}

/// Exit statuses, worst last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Clean = 0,
    Problem = 1,
    Disagree = 3,
    Bad = 2,
}

impl Status {
    fn from_u8(n: u8) -> Status {
        match n {
            0 => Status::Clean,
            1 => Status::Problem,
            3 => Status::Disagree,
            _ => Status::Bad,
        }
    }
}

/// One bundle's end: its status, and whether the GPU is still usable in this process.
struct Done {
    status: Status,
    gpu_spent: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let gpu = if args.cpu_only {
        None
    } else {
        match probe() {
            Ok(gpu) => Some(gpu),
            Err(e) => {
                eprintln!("error: no usable CUDA driver: {e}");
                eprintln!(" = help: --cpu-only runs the CPU device alone");
                return ExitCode::from(2);
            }
        }
    };
    let about = gpu.as_ref().map(table::Machine::of);
    if args.probe {
        if let Some(m) = &about {
            println!("{}", m.text());
        }
        return ExitCode::SUCCESS;
    }
    let worst = run_all(&args, gpu.as_ref(), about.as_ref());
    if gpu_held() {
        exit_leaving_gpu(worst as u8);
    }
    ExitCode::from(worst as u8)
}

/// Every bundle, then the table; `--results` is written again after each bundle, so that a
/// check cut short keeps the rows it has.
fn run_all(args: &Args, gpu: Option<&Gpu>, about: Option<&table::Machine>) -> Status {
    let (mut worst, mut rows) = match &args.resume {
        Some(file) => match resume::take(file) {
            Ok(state) => state,
            Err(e) => {
                eprintln!("error: {e}");
                return Status::Bad;
            }
        },
        None => (Status::Clean, Vec::new()),
    };
    for (i, dir) in args.bundles.iter().enumerate() {
        let done = match Bundle::read(dir) {
            Ok(bundle) => run_one(args, dir, &bundle, gpu, &mut rows),
            Err(e) => Err(e),
        }
        .unwrap_or_else(|e| {
            eprintln!("error: {}: {e}", dir.display());
            Done {
                status: Status::Bad,
                gpu_spent: false,
            }
        });
        worst = worst.max(done.status);
        if let Err(e) = write_results(args, about, &rows) {
            eprintln!("error: {e}");
            worst = Status::Bad;
        }
        let rest = &args.bundles[i + 1..];
        if done.gpu_spent && !rest.is_empty() {
            eprintln!("error: {}", resume::exec(args, rest, worst, rows));
            return Status::Bad;
        }
    }
    if args.table {
        render::stdout(&table::text(&rows));
    }
    worst
}

fn write_results(
    args: &Args,
    about: Option<&table::Machine>,
    rows: &[compare::Row],
) -> Result<(), String> {
    let Some(file) = &args.results else {
        return Ok(());
    };
    let doc = table::Results { gpu: about, rows };
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    std::fs::write(file, format!("{text}\n"))
        .map_err(|e| format!("cannot write `{}`: {e}", file.display()))
}

/// Runs one bundle on the CPU device and, unless `--cpu-only`, on the GPU; prints the report
/// and the comparison.
fn run_one(
    args: &Args,
    dir: &Path,
    bundle: &Bundle,
    gpu: Option<&Gpu>,
    rows: &mut Vec<compare::Row>,
) -> Result<Done, String> {
    render::quote_from(&bundle.sources);
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        FormatArg::Sarif => Format::Sarif,
    };
    let out = Output {
        format,
        quiet: args.quiet,
        headers: &bundle.headers,
    };
    // The CPU device runs the program the GPU runs (the warpTable where the GPU has it).
    let program = bundle.program_for(gpu.map_or(CpuDevice.shared_limits(), |g| g.shared));
    let cpu = device_run::run(bundle, program, &CpuDevice)
        .map_err(|e| format!("on the CPU device: {e}"))?;
    let Some(gpu) = gpu else {
        cpu.print(&out)?;
        dump(args, dir, &cpu)?;
        let status = if cpu.has_problem() {
            Status::Problem
        } else {
            Status::Clean
        };
        return Ok(Done {
            status,
            gpu_spent: false,
        });
    };
    let device = CudaDevice::new(gpu.clone(), program.cuda.clone())
        .printf_to_stderr(format != Format::Text)
        .time_limit(Duration::from_secs(args.gpu_timeout));
    let on_gpu =
        device_run::run(bundle, program, &device).map_err(|e| format!("on the GPU: {e}"))?;
    if !args.table {
        on_gpu.print(&out)?;
    }
    dump(args, dir, &on_gpu)?;
    let row = compare::row(&dir.display().to_string(), &cpu, &on_gpu);
    if !args.table && (!args.quiet || !row.agree) {
        if format == Format::Text {
            render::stdout(&row.text());
        } else {
            eprint!("{}", row.text());
        }
    }
    let status = if !row.agree {
        Status::Disagree
    } else if on_gpu.has_problem() {
        Status::Problem
    } else {
        Status::Clean
    };
    rows.push(row);
    Ok(Done {
        status,
        gpu_spent: !on_gpu.result().faults.is_empty(),
    })
}

/// `--dump-buffers`: the reported run's buffers.
fn dump(args: &Args, bundle_dir: &Path, run: &device_run::Outcome) -> Result<(), String> {
    let Some(root) = &args.dump_buffers else {
        return Ok(());
    };
    let dir = match bundle_dir.file_name() {
        Some(name) if args.bundles.len() > 1 => root.join(name),
        _ => root.clone(),
    };
    dump_buffers(run.result(), &dir)
        .map_err(|e| format!("cannot write buffers to `{}`: {e}", dir.display()))
}
