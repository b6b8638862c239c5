//! What the GPU and the CPU device found for one bundle, side by side.
//!
//! Races (scope, space, both source locations) and faults (kind, location) are compared for
//! every kernel. Output buffers are compared only where the result cannot depend on the
//! schedule: a kernel with an atomic access, or one where either device or the analysis found
//! a race, may legitimately end with other values on a GPU than on the CPU device, so for those
//! the race set alone decides (the row says `schedule-dependent`).

use crate::device_run::Outcome;
use gmrace_runtime_cuda::bundle::{Bundle, Program};
use gmrace_runtime_cuda::report::FaultKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One row of `results.json` and of the table `gpu-check.sh` prints.
#[derive(Serialize, Deserialize)]
pub struct Row {
    pub bundle: String,
    pub kernel: String,
    pub file: String,
    pub mode: String,
    pub races_cpu: BTreeSet<String>,
    pub races_gpu: BTreeSet<String>,
    pub faults_cpu: BTreeSet<String>,
    pub faults_gpu: BTreeSet<String>,
    /// `None` when the buffers do not count (schedule-dependent, or a device faulted).
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
    let (faults_cpu, faults_gpu) = (cpu.faults(), gpu.faults());
    let faulted = !faults_cpu.is_empty() || !faults_gpu.is_empty();
    let buffers_equal = (!schedule_dependent && !faulted).then_some(same_buffers);
    let kinds = |o: &Outcome| o.result().faults.iter().map(|f| f.kind).collect::<Vec<_>>();
    let agree = races_cpu == races_gpu
        && faults_agree(&kinds(cpu), &kinds(gpu))
        && buffers_equal != Some(false);
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
/// it has an atomic access, or the analysis proved a race, or (an `off` run, which finds no
/// race) the analysis did not prove it free of races.
fn schedule_dependent(bundle: &Bundle, program: &Program) -> bool {
    // The user's kernel: an instrumented one's accesses include the checkers' own atomics.
    let name = program
        .module(bundle)
        .kernels
        .get(program.launch.kernel)
        .map(|k| &k.name);
    let atomics = bundle
        .module
        .kernels
        .iter()
        .filter(|k| Some(&k.name) == name)
        .any(|k| k.accesses.iter().any(|a| a.kind.is_atomic()));
    atomics
        || match &bundle.report {
            Some(r) => !r.races.is_empty(),
            None => !bundle.proved_race_free,
        }
}

/// Whether the GPU's faults are what the CPU device's explain, and every CPU fault a GPU
/// always reports is among them (module docs).
fn faults_agree(cpu: &[FaultKind], gpu: &[FaultKind]) -> bool {
    let stands_for = |g: FaultKind, c: FaultKind| match g {
        FaultKind::InvalidAddress => c.is_memory_error(),
        FaultKind::StepBudget => matches!(
            c,
            FaultKind::StepBudget | FaultKind::BarrierDivergence | FaultKind::WarpDivergence
        ),
        // An H200 traps on `__syncthreads` and `__syncthreads_count` met by diverged threads.
        FaultKind::Trap => matches!(
            c,
            FaultKind::Trap | FaultKind::BarrierDivergence | FaultKind::WarpDivergence
        ),
        g => g == c,
    };
    let always_reported = |c: FaultKind| matches!(c, FaultKind::Trap | FaultKind::Misaligned);
    gpu.iter().all(|&g| cpu.iter().any(|&c| stands_for(g, c)))
        && cpu
            .iter()
            .filter(|&&c| always_reported(c))
            .all(|&c| gpu.iter().any(|&g| stands_for(g, c)))
}

impl Row {
    /// One line for a person: agreement, or what differs.
    pub fn text(&self) -> String {
        let buffers = match (self.buffers_equal, self.schedule_dependent) {
            (Some(true), _) => "buffers equal",
            (Some(false), _) => "buffers DIFFER",
            (None, true) => "buffers not compared (schedule-dependent)",
            (None, false) => "buffers not compared (a device faulted)",
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

#[cfg(test)]
mod tests {
    use super::faults_agree;
    use gmrace_runtime_cuda::report::FaultKind::*;

    #[test]
    fn gpu_faults_agree_with_the_cpu_faults_they_can_stand_for() {
        assert!(faults_agree(&[], &[]));
        // A GPU cannot see a divergent barrier: it goes on, or never finishes.
        assert!(faults_agree(&[BarrierDivergence], &[]));
        assert!(faults_agree(&[BarrierDivergence], &[StepBudget]));
        assert!(faults_agree(&[WarpDivergence], &[StepBudget]));
        // An out-of-bounds access faults on a GPU only where nothing is mapped.
        assert!(faults_agree(&[OutOfBounds], &[]));
        assert!(faults_agree(&[OutOfBounds], &[InvalidAddress]));
        // What the CPU device did not find, the GPU must not report.
        assert!(!faults_agree(&[], &[InvalidAddress]));
        assert!(!faults_agree(&[], &[StepBudget]));
        assert!(!faults_agree(&[OutOfBounds], &[StepBudget]));
        // Every GPU reports a trap and a misaligned access.
        assert!(!faults_agree(&[Trap], &[]));
        assert!(!faults_agree(&[Misaligned], &[]));
        assert!(faults_agree(&[Misaligned], &[Misaligned]));
        // A GPU may trap on a divergent barrier, but a trap stands for nothing else.
        assert!(faults_agree(&[BarrierDivergence], &[Trap]));
        assert!(!faults_agree(&[OutOfBounds], &[Trap]));
        assert!(!faults_agree(&[], &[Trap]));
    }
}
