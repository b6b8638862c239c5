//! The front-end corpus. Every `kernels/frontend/*.cu` lowers to the accesses and warnings in
//! the `.accesses` file next to it (`UPDATE_EXPECT=1 cargo test -p gmrace-tests` rewrites them;
//! review the diff). Files in `kernels/frontend/errors/` must be rejected at the location their
//! `.error` file names. The analysis corpus and the paper's applications in `benchmarks/` must
//! lower with no opaque construct at all. The corpus convention is in `kernels/README.md`.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/expect.rs"]
mod expect;

use expect::check;
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::{self, Module, Space, StmtKind};
use std::path::{Path, PathBuf};

fn parse(path: &Path) -> Result<Module, frontend::FrontendError> {
    frontend::parse_file(path, &FrontendOptions::default())
}

/// What a front-end expectation records: per kernel, its accesses; then the warnings located in
/// the kernel's own file.
fn describe(m: &Module) -> String {
    let mut out = String::new();
    for k in &m.kernels {
        out.push_str(&format!("kernel {}\n", k.name));
        out.push_str(&ir::access_table(k));
    }
    for d in m.diagnostics.iter().filter(|d| d.span.file == 0) {
        out.push_str(&format!(
            "warning {}:{} {}\n",
            d.span.line, d.span.column, d.message
        ));
    }
    out
}

#[test]
fn frontend_corpus_matches_expectations() {
    let files = corpus::cu_files("frontend");
    assert!(
        files.len() >= 25,
        "the front-end corpus has {} kernels",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        match parse(f) {
            Ok(m) => check(&f.with_extension("accesses"), &describe(&m), &mut failures),
            Err(e) => failures.push(format!("{}: {:?}", f.display(), e.diagnostics)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_files_are_rejected_at_their_location() {
    let mut failures = Vec::new();
    for f in corpus::cu_files("frontend/errors") {
        match parse(&f) {
            Ok(_) => failures.push(format!("{} parsed", f.display())),
            Err(e) => {
                let d = &e.diagnostics[0];
                assert!(d.source_line.is_some(), "{}: no source line", f.display());
                let actual = format!("{}:{} {}\n", d.span.line, d.span.column, d.message);
                check(&f.with_extension("error"), &actual, &mut failures);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn analysis_corpus_lowers_without_opaque_constructs() {
    assert_lower_cleanly(&corpus::cu_files("analysis"));
}

/// The paper's applications (`benchmarks/kernels/paper/`) must run on the CPU device, which
/// refuses opaque nodes.
#[test]
fn paper_kernels_lower_without_opaque_constructs() {
    assert_lower_cleanly(&corpus::cu_files("../../benchmarks/kernels/paper"));
}

/// Every file lowers to at least one kernel, with no warning, no opaque statement and no access
/// of unknown memory space.
fn assert_lower_cleanly(files: &[PathBuf]) {
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in files {
        let m = match parse(f) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {:?}", f.display(), e.diagnostics));
                continue;
            }
        };
        if m.kernels.is_empty() {
            failures.push(format!("{}: no kernel", f.display()));
        }
        for d in &m.diagnostics {
            failures.push(format!("{}:{}: {}", f.display(), d.span.line, d.message));
        }
        for k in &m.kernels {
            for a in &k.accesses {
                if a.space == Space::Generic {
                    failures.push(format!(
                        "{}:{}: access #{} has no known memory space",
                        f.display(),
                        a.span.line,
                        a.id.0
                    ));
                }
            }
            ir::walk_stmts(&k.body, &mut |s| {
                if let StmtKind::Opaque { reason } = &s.kind {
                    failures.push(format!("{}:{}: opaque {reason}", f.display(), s.span.line));
                }
            });
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
