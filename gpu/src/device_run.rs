//! One bundle on one device: the plain or the checked run `gmrace run` would have made there,
//! its report printed as `gmrace run` prints it, and what the comparison needs of it.

use gmrace_ir::report::KernelReport;
use gmrace_report::run::checked::Context;
use gmrace_report::run::json::Measured;
use gmrace_report::run::print::{self, Output};
use gmrace_runtime_cuda::bundle::{Bundle, Program};
use gmrace_runtime_cuda::program::CheckedProgram;
use gmrace_runtime_cuda::race_log::CheckedRun;
use gmrace_runtime_cuda::report::RunResult;
use gmrace_runtime_cuda::{Device, DeviceError, RunOptions};
use std::collections::BTreeSet;
use std::time::Instant;

pub enum Ran {
    Plain {
        result: RunResult,
        /// Wall time of the launch alone (compiled and loaded before).
        run_ms: f64,
    },
    Checked(CheckedRun),
}

/// A bundle's run on one device.
pub struct Outcome<'b> {
    pub bundle: &'b Bundle,
    pub program: &'b Program,
    /// `emu` or `cuda`.
    pub backend: &'static str,
    pub ran: Ran,
}

/// Runs `program` of `bundle` on `device` as `gmrace run` would.
pub fn run<'b>(
    bundle: &'b Bundle,
    program: &'b Program,
    device: &dyn Device,
) -> Result<Outcome<'b>, DeviceError> {
    let opts = RunOptions {
        max_steps: bundle.max_steps,
        ..RunOptions::default()
    };
    let ran = match &program.checked {
        Some(c) => Ran::Checked(c.run(device, &program.launch, &opts)?),
        None => {
            // Compiles and loads on a GPU, so that the time is the launch's alone.
            device.shared_window_bytes(&bundle.module, &program.launch)?;
            let start = Instant::now();
            let result = device.run(&bundle.module, &program.launch, &opts)?;
            Ran::Plain {
                result,
                run_ms: start.elapsed().as_secs_f64() * 1e3,
            }
        }
    };
    Ok(Outcome {
        bundle,
        program,
        backend: device.name(),
        ran,
    })
}

impl Outcome<'_> {
    /// The report, exactly as `gmrace run --backend <this device>` prints it.
    pub fn print(&self, out: &Output) -> Result<(), String> {
        let b = self.bundle;
        match (&self.ran, self.analysis()) {
            (Ran::Checked(run), Some((report, program))) => {
                print::checked(out, &self.context(run, report, program), &b.module)
            }
            (Ran::Plain { result, run_ms }, _) => print::plain(
                out,
                &print::Plain {
                    file: &b.file,
                    module: &b.module,
                    result,
                    backend: self.backend,
                    // Nothing is instrumented in a plain run: it executes no check.
                    measured: Measured {
                        run_ms: b.timing.then_some(*run_ms),
                        executed_checks: b.count_checks.then_some(0),
                    },
                },
            ),
            (Ran::Checked(_), None) => Err("a checked run of a plain bundle".to_string()),
        }
    }

    /// A checked run's analysis and program.
    fn analysis(&self) -> Option<(&KernelReport, &CheckedProgram)> {
        self.bundle
            .report
            .as_ref()
            .zip(self.program.checked.as_ref())
    }

    fn context<'a>(
        &'a self,
        run: &'a CheckedRun,
        report: &'a KernelReport,
        program: &'a CheckedProgram,
    ) -> Context<'a> {
        Context::new(
            report,
            program,
            run,
            self.backend,
            self.bundle.timing,
            self.bundle.count_checks,
        )
    }

    pub fn result(&self) -> &RunResult {
        match &self.ran {
            Ran::Plain { result, .. } => result,
            Ran::Checked(run) => &run.result,
        }
    }

    /// Exit status 1 as `gmrace run` gives it: a race or a fault.
    pub fn has_problem(&self) -> bool {
        match (&self.ran, self.analysis()) {
            (Ran::Checked(run), Some((report, program))) => {
                self.context(run, report, program).has_problem()
            }
            _ => !self.result().faults.is_empty(),
        }
    }

    /// The races the run found, each as scope, space and both source locations (flag mode,
    /// which knows no statements: the array).
    pub fn races(&self) -> BTreeSet<String> {
        let (Ran::Checked(run), Some((report, program))) = (&self.ran, self.analysis()) else {
            return BTreeSet::new();
        };
        let ctx = self.context(run, report, program);
        ctx.races()
            .iter()
            .map(|r| {
                let at = match r.first.accesses {
                    // Either access may be the one a device saw first: the pair is unordered.
                    Some(ids) => {
                        let mut at = ids.map(|id| ctx.site(id).map(|s| (s.line, s.column)));
                        at.sort();
                        at.map(|s| s.map_or("?".to_string(), |(l, c)| format!("{l}:{c}")))
                            .join(" and ")
                    }
                    None => format!("`{}`", r.array.as_deref().unwrap_or("?")),
                };
                format!("{} shared {at}", r.first.scope.name())
            })
            .collect()
    }

    /// The faults, each as its kind and where.
    pub fn faults(&self) -> BTreeSet<String> {
        self.result()
            .faults
            .iter()
            .map(|f| match &f.loc {
                Some(l) => format!("{:?} at {}:{}", f.kind, l.line, l.column),
                None => format!("{:?}", f.kind),
            })
            .collect()
    }

    /// The device's time for the launch alone, in milliseconds.
    pub fn run_ms(&self) -> f64 {
        match &self.ran {
            Ran::Plain { run_ms, .. } => *run_ms,
            Ran::Checked(run) => run.run_time.as_secs_f64() * 1e3,
        }
    }
}
