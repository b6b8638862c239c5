//! A run's report on stdout, as `gmrace run` prints it and `gmrace-gpu` prints it again for a
//! bundle: in text mode the kernel's printf output, then the report, then which CUDA headers
//! the front end read; with JSON or SARIF the document on stdout and printf output on stderr.

use super::checked::{self, Context};
use super::json::Measured;
use super::{json, sarif};
use crate::render;
use gmrace_ir::Module;
use gmrace_runtime_cuda::report::{render_fault, RunResult};
use std::io::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

/// How to print: the format, `--quiet`, and the headers' description (`CUDA headers: ...`).
pub struct Output<'a> {
    pub format: Format,
    pub quiet: bool,
    pub headers: &'a str,
}

/// What a plain run (`--mode off`) reports on.
pub struct Plain<'a> {
    /// The file as the user named it (when the module names none).
    pub file: &'a str,
    pub module: &'a Module,
    pub result: &'a RunResult,
    /// `emu` or `cuda`.
    pub backend: &'a str,
    pub measured: Measured,
}

/// The report of a plain run; `Err` when the document cannot be serialised.
pub fn plain(out: &Output, run: &Plain) -> Result<(), String> {
    let result = run.result;
    match out.format {
        Format::Text => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(result.printf.as_bytes());
            if result.printf_truncated {
                let _ = writeln!(stdout, "[gmrace] printf output truncated");
            }
            drop(stdout);
            render::stdout(&plain_text(out.quiet, run));
            headers_line(out);
        }
        Format::Json => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let doc = json::Document {
                kernels: vec![plain_json(run)],
                headers: out.headers.to_string(),
            };
            print_json(&doc)?;
        }
        Format::Sarif => {
            let _ = std::io::stderr().write_all(result.printf.as_bytes());
            let log = crate::sarif::with_headers(sarif::plain_log(result, run.module), out.headers);
            println!("{}", crate::sarif::to_string(&log));
        }
    }
    Ok(())
}

/// The report of a checked run: the analysis' races, the run's, faults and the summary.
pub fn checked(out: &Output, ctx: &Context, module: &Module) -> Result<(), String> {
    let run = ctx.run;
    match out.format {
        Format::Text => {
            let _ = std::io::stdout().write_all(run.result.printf.as_bytes());
            // Reports go through `render::stdout`: colour only on a terminal.
            for race in &ctx.report.races {
                render::stdout(&crate::text::race_text(ctx.report, race));
            }
            render::stdout(&checked::text(ctx, out.quiet));
            headers_line(out);
        }
        Format::Json => {
            let _ = std::io::stderr().write_all(run.result.printf.as_bytes());
            let doc = json::Document {
                kernels: vec![checked::json(ctx)],
                headers: out.headers.to_string(),
            };
            print_json(&doc)?;
        }
        Format::Sarif => {
            let _ = std::io::stderr().write_all(run.result.printf.as_bytes());
            let log = crate::sarif::with_headers(sarif::checked_log(ctx, module), out.headers);
            println!("{}", crate::sarif::to_string(&log));
        }
    }
    Ok(())
}

fn print_json(doc: &json::Document) -> Result<(), String> {
    let s = serde_json::to_string_pretty(&doc.value())
        .map_err(|e| format!("cannot serialise the report: {e}"))?;
    println!("{s}");
    Ok(())
}

/// The text reports' last line: which CUDA headers the front end read.
fn headers_line(out: &Output) {
    if !out.quiet {
        render::stdout(&format!("CUDA headers: {}\n", out.headers));
    }
}

fn plain_text(quiet: bool, run: &Plain) -> String {
    let r = run.result;
    let mut s = String::new();
    for f in &r.faults {
        s.push_str(&render_fault(f, &render::source_line));
    }
    s.push_str(&checked::warnings_text(r));
    if !quiet {
        let [gx, gy, gz] = r.grid;
        let [bx, by, bz] = r.block;
        // A GPU does not count instructions.
        let counts = if run.backend == "emu" {
            format!(
                ", {} warp-instructions, {} thread-instructions",
                r.steps, r.thread_instructions
            )
        } else {
            String::new()
        };
        s.push_str(&format!(
            "kernel `{}` on {}: grid ({gx},{gy},{gz}) block ({bx},{by},{bz}){counts}: {}{}\n",
            r.kernel,
            run.backend,
            match r.faults.len() {
                0 => "no fault".to_string(),
                1 => "1 fault".to_string(),
                n => format!("{n} faults"),
            },
            run.measured.text(),
        ));
    }
    s
}

fn plain_json<'a>(run: &Plain<'a>) -> json::KernelRun<'a> {
    let r = run.result;
    json::KernelRun {
        file: run
            .module
            .files
            .first()
            .cloned()
            .unwrap_or_else(|| run.file.to_string()),
        name: &r.kernel,
        assumptions: json::RunAssumptions::Launch {
            block: r.block,
            grid: r.grid,
            dynamic_shared_bytes: r.dynamic_shared_bytes,
            warp_model: "its",
            sources: [("block", "launch spec"), ("grid", "launch spec")].into(),
        },
        mode: "off",
        backend: run.backend,
        checked_warp_model: None,
        instrumented_accesses: 0,
        complete: r.faults.is_empty(),
        incomplete: None,
        unchecked: Some(&[]),
        summary: json::Summary::default(),
        accesses: None,
        left_to_run: &[],
        races: Vec::new(),
        barrier_divergence: json::fault_divergences(&r.faults, None),
        memory_errors: json::memory_errors(&r.faults),
        faults: &r.faults,
        steps: r.steps,
        thread_instructions: r.thread_instructions,
        printf_truncated: Some(r.printf_truncated),
        warnings: &r.warnings,
        measured: run.measured,
    }
}
