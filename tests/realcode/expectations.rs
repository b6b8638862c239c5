//! The real-code corpus: `kernels/realcode/*.cu` are files in the shape projects ship (helper
//! headers with guarded macros, host code against libraries this machine lacks, launches in
//! `main` through locals, macros and `dim3`, kernel templates launched from host templates,
//! self-referential types, `register`). Each is read with `realcode/include` on the include
//! path and analysed with the default options; what it gives (warnings, kernels not analysed,
//! each kernel's launch assumptions with their sources, verdicts and races, or the errors that
//! refused it) must match the `.expect` file next to it (`UPDATE_EXPECT=1` rewrites them).
//! Races must lie exactly on the lines marked `// RACE`. A kernel whose launch stays open is
//! also run whole under small launches: what it calls `safe` must not race there.

use crate::{corpus, expect, params, stand_ins};
use gmrace_analyzer::analysis::{oracle, KernelReport, Verdict};
use gmrace_analyzer::ir::{Diagnostic, Kernel, Module};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

fn diagnostic(files: &[String], d: &Diagnostic) -> String {
    let place = match (d.span.file, d.span.line) {
        (_, 0) => String::new(),
        (0, line) => format!("{line}:{} ", d.span.column),
        (f, line) => {
            let name = files
                .get(f as usize)
                .map_or("?", |p| p.rsplit('/').next().unwrap_or(p.as_str()));
            format!("{name}:{line}:{} ", d.span.column)
        }
    };
    let severity = format!("{:?}", d.severity).to_lowercase();
    // A header found in the project is named by its path, which starts where the clone is.
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/realcode/");
    format!("{severity} {place}{}\n", d.message.replace(corpus, ""))
}

fn describe_module(m: &Module) -> String {
    let mut out = String::new();
    for d in &m.diagnostics {
        out.push_str(&diagnostic(&m.files, d));
    }
    for n in &m.not_analysed {
        let _ = writeln!(
            out,
            "not analysed {} ({}): {}",
            n.name, n.span.line, n.reason
        );
    }
    out
}

fn describe_kernel(r: &KernelReport) -> String {
    let a = &r.assumptions;
    let mut out = format!("kernel {}: block {}, grid {}\n", r.name, a.block, a.grid);
    for (key, source) in &a.sources {
        let _ = writeln!(out, "  {key}: {source}");
    }
    for (name, value) in &a.params {
        let _ = writeln!(out, "  {name} = {value}");
    }
    let count = |v: Verdict| r.accesses.iter().filter(|x| x.verdict == v).count();
    let _ = writeln!(
        out,
        "  accesses: {} safe, {} racy, {} unknown",
        count(Verdict::Safe),
        count(Verdict::Racy),
        count(Verdict::Unknown)
    );
    for race in &r.races {
        let _ = writeln!(
            out,
            "  race {} {:?} lines {} and {}, {:?}{}",
            race.scope.name(),
            race.space,
            race.first.line,
            race.second.line,
            race.certainty,
            race.condition
                .as_ref()
                .map_or(String::new(), |c| format!(" ({c})"))
        );
    }
    for d in &r.barrier_divergence {
        let _ = writeln!(out, "  barrier divergence at line {}", d.line);
    }
    out
}

/// Raced lines must be marked `// RACE`, and every marked line must take part in a race.
fn check_markers(path: &Path, reports: &[&KernelReport], failures: &mut Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let marked: BTreeSet<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("// RACE"))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    let raced: BTreeSet<u32> = reports
        .iter()
        .flat_map(|r| &r.races)
        .flat_map(|r| [r.first.line, r.second.line])
        .collect();
    if marked != raced {
        failures.push(format!(
            "{}: races on lines {raced:?}, marked lines {marked:?}",
            path.display()
        ));
    }
}

/// A kernel whose launch the file leaves open (no launch, no fact from host code) is run whole
/// under small launches its open extents allow, with every scalar parameter 1000, 1 and 0: no
/// access the report calls `safe` races there (what open launches are proved with, the
/// relaxed global-index products among it, holds of these launches too).
fn check_open_launch(path: &Path, k: &Kernel, r: &KernelReport, failures: &mut Vec<String>) {
    let a = &r.assumptions;
    let fixed = a.block.all().is_some() && a.grid.all().is_some();
    if fixed || !a.facts.is_empty() || !a.params.is_empty() {
        return;
    }
    let pick = |fixed: [Option<u32>; 3], open: [u32; 3]| -> [u32; 3] {
        std::array::from_fn(|i| fixed[i].unwrap_or(open[i]))
    };
    for (block, grid) in [([40, 2, 2], [3, 2, 2]), ([64, 1, 1], [2, 1, 1])] {
        let (block, grid) = (pick(a.block.0, block), pick(a.grid.0, grid));
        for value in [1000, 1, 0] {
            let params = params::every_scalar(k, value);
            let Some(real) = oracle::exhaustive_races(k, block, grid, &params, a.warp_model) else {
                continue;
            };
            for id in real.iter().flat_map(|(x, y)| [x, y]) {
                if r.accesses[id.index()].verdict == Verdict::Safe {
                    failures.push(format!(
                        "{}: {}: WRONG SAFE: access #{} races under block {block:?}, grid \
                         {grid:?}, parameters {value}",
                        path.display(),
                        r.name,
                        id.0
                    ));
                }
            }
        }
    }
}

#[test]
fn realcode_corpus_matches_expectations() {
    let files = corpus::cu_files("realcode");
    assert!(
        files.len() >= 12,
        "the realcode corpus has {} files",
        files.len()
    );
    let failures: Vec<String> = files.par_iter().flat_map_iter(|f| check_file(f)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One file's expectation and race markers: the failures.
fn check_file(f: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    let analysed = stand_ins::analysed(f);
    let text = match &analysed.module {
        Err(e) => {
            let mut out = "refused\n".to_string();
            for d in &e.diagnostics {
                out.push_str(&diagnostic(&e.files, d));
            }
            out
        }
        Ok(m) => {
            let mut out = describe_module(m);
            let mut reports = Vec::new();
            for (k, r) in m.kernels.iter().zip(&analysed.reports) {
                match r {
                    Ok(r) => {
                        out.push_str(&describe_kernel(r));
                        check_open_launch(f, k, r, &mut failures);
                        reports.push(r);
                    }
                    Err(e) => {
                        let _ = writeln!(out, "kernel {}: launch error: {}", k.name, e.message);
                    }
                }
            }
            check_markers(f, &reports, &mut failures);
            out
        }
    };
    expect::check(&f.with_extension("expect"), &text, &mut failures);
    failures
}
