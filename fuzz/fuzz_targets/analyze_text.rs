//! Arbitrary bytes, UTF-8 or not, through `gmrace analyze FILE`'s whole text path: written to a
//! file, parsed and analysed as `analyze` does (`project::analyze_all`), then its diagnostics
//! and text report rendered (`print_diagnostics`, `report::print_text`). The CLI's modules are
//! compiled in from `cli/src`, so what is fuzzed is the binary's own renderer. Errors are fine;
//! panics, aborts and stack overflows are bugs.
#![no_main]

#[allow(dead_code)]
#[path = "../../cli/src/analyze/project.rs"]
mod project;
#[allow(dead_code)]
#[path = "../../cli/src/render.rs"]
mod render;
#[allow(dead_code)]
#[path = "../../cli/src/report.rs"]
mod report;
#[allow(dead_code)]
#[path = "../../cli/src/sarif.rs"]
mod sarif;

use gmrace_analyzer::analysis::{AnalysisOptions, QUERY_WORK};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// The stack `project` gives its workers: the CLI's (`cli/src/main.rs`).
const STACK_BYTES: usize = 256 << 20;

fn input_file() -> PathBuf {
    std::env::temp_dir().join(format!("gmrace-fuzz-{}.cu", std::process::id()))
}

fuzz_target!(
    init: {
        // As the CLI does: libclang parses on the calling thread, a worker with STACK_BYTES.
        std::env::set_var("LIBCLANG_NOTHREADS", "1");
    },
    |data: &[u8]| {
        let path = input_file();
        if std::fs::write(&path, data).is_err() {
            return;
        }
        let job = project::Job {
            kernel: None,
            kernel_required: false,
            front: Default::default(),
            // Less solver work than the CLI's default: more inputs a second.
            opts: AnalysisOptions {
                query_work: QUERY_WORK / 20,
                kernel_work: u64::from(QUERY_WORK / 8),
                ..AnalysisOptions::default()
            },
            progress: false,
        };
        for outcome in project::analyze_all(&[path], &job) {
            outcome.print_diagnostics(false);
            report::print_text(&outcome.reports, false);
        }
    }
);
