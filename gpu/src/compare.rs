//! What the GPU and the CPU device found for one bundle, side by side.
//!
//! Races (scope, space, both source locations) and faults (kind, location) are compared for
//! every kernel. Output buffers are compared only where the result cannot depend on the
//! schedule: a kernel with an atomic access, or one where either device or the analysis found
//! a race, may legitimately end with other values on a GPU than on the CPU device, so for those
//! the race set alone decides (the row says `schedule-dependent`).

use crate::device_run::Outcome;
use gmrace_runtime_cuda::bundle::{Bundle, Program};
use serde::Serialize;
use std::collections::BTreeSet;

/// One row of `results.json` and of the table `gpu-check.sh` prints.
#[derive(Serialize)]
pub struct Row {
    pub bundle: String,
    pub kernel: String,
    pub file: String,
    pub mode: &'static str,
    pub races_cpu: BTreeSet<String>,
    pub races_gpu: BTreeSet<String>,
    pub faults_cpu: BTreeSet<String>,
    pub faults_gpu: BTreeSet<String>,
    /// `None` when the buffers do not count (schedule-dependent).
    pub buffers_equal: Option<bool>,
    pub schedule_dependent: bool,
    /// The launch alone, on each device.
    pub gpu_ms: f64,
    pub cpu_ms: f64,
    pub agree: bool,
}

pub fn row(name: &str, cpu: &Outcome, gpu: &Outcome) -> Row {
    let bundle = cpu.bundle;
    let (races_cpu, races_gpu) = (cpu.races(), gpu.races());
    let schedule_dependent =
        schedule_dependent(bundle, gpu.program) || !races_cpu.is_empty() || !races_gpu.is_empty();
    let same_buffers = cpu.result().buffers.len() == gpu.result().buffers.len()
        && cpu
            .result()
            .buffers
            .iter()
            .zip(&gpu.result().buffers)
            .all(|(a, b)| a.name == b.name && a.bytes == b.bytes);
    let buffers_equal = (!schedule_dependent).then_some(same_buffers);
    let (faults_cpu, faults_gpu) = (cpu.faults(), gpu.faults());
    let agree = races_cpu == races_gpu && faults_cpu == faults_gpu && buffers_equal != Some(false);
    Row {
        bundle: name.to_string(),
        kernel: bundle.kernel().to_string(),
        file: bundle.file.clone(),
        mode: bundle.mode(),
        races_cpu,
        races_gpu,
        faults_cpu,
        faults_gpu,
        buffers_equal,
        schedule_dependent,
        gpu_ms: gpu.run_ms(),
        cpu_ms: cpu.run_ms(),
        agree,
    }
}

/// Whether the launched kernel's result may depend on the schedule before any race is found:
/// it has an atomic access, or the analysis proved a race.
fn schedule_dependent(bundle: &Bundle, program: &Program) -> bool {
    let atomics = program
        .module(bundle)
        .kernels
        .get(program.launch.kernel)
        .is_some_and(|k| k.accesses.iter().any(|a| a.kind.is_atomic()));
    atomics || bundle.report.as_ref().is_some_and(|r| !r.races.is_empty())
}

impl Row {
    /// One line for a person: agreement, or what differs.
    pub fn text(&self) -> String {
        let buffers = match self.buffers_equal {
            Some(true) => "buffers equal",
            Some(false) => "buffers DIFFER",
            None => "buffers not compared (schedule-dependent)",
        };
        let mut s =
            format!(
            "comparison: kernel `{}`, {} mode: {} (races CPU {} / GPU {}, faults CPU {} / GPU {}, \
             {buffers})\n",
            self.kernel,
            self.mode,
            if self.agree { "CPU and GPU agree" } else { "CPU and GPU DISAGREE" },
            self.races_cpu.len(),
            self.races_gpu.len(),
            self.faults_cpu.len(),
            self.faults_gpu.len(),
        );
        let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
            a.difference(b).cloned().collect::<Vec<_>>().join("; ")
        };
        for (what, a, b) in [
            ("race", &self.races_cpu, &self.races_gpu),
            ("fault", &self.faults_cpu, &self.faults_gpu),
        ] {
            if a != b {
                for (dev, x, y) in [("CPU", a, b), ("GPU", b, a)] {
                    let o = only(x, y);
                    if !o.is_empty() {
                        s.push_str(&format!("  {what} only on the {dev}: {o}\n"));
                    }
                }
            }
        }
        s
    }
}
