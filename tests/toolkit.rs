//! Both header paths: every file of the front-end and real-code corpora, read with a real CUDA
//! toolkit's headers, gives the same kernels, the same kernels not analysed and the same
//! verdict for every shared, global and generic access as with gmrace's stand-ins. Accesses to
//! local memory are left out: the toolkit's cooperative groups go through more temporaries than
//! the stand-ins', and a thread's own locals never race.
//!
//! The toolkit is the header tree `scripts/toolkit-headers.sh` installs (CUDA 12.4 from NVIDIA's
//! wheels; `scripts/test.sh` runs it first): `$GMRACE_TOOLKIT_HEADERS`, else the script's cache
//! directory. Without it the test fails and says how to get it.

#[path = "common/corpus.rs"]
mod corpus;

use gmrace_analyzer::analysis::{self, AnalysisOptions};
use gmrace_analyzer::frontend::{self, FrontendOptions, Headers};
use gmrace_analyzer::ir::Space;
use std::path::{Path, PathBuf};

fn toolkit() -> Headers {
    let root = std::env::var_os("GMRACE_TOOLKIT_HEADERS")
        .map(PathBuf::from)
        .or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
            Some(cache.join("gmrace/cuda-12.4"))
        })
        .expect("neither GMRACE_TOOLKIT_HEADERS nor HOME is set");
    Headers::toolkit(&root).unwrap_or_else(|e| {
        panic!("{e}; run `bash scripts/toolkit-headers.sh` to install a toolkit's headers")
    })
}

/// What must not depend on the headers: kernels, kernels not analysed, and each kernel's
/// non-local accesses with their verdicts; or the refusal.
fn reading(file: &Path, headers: &Headers) -> Vec<String> {
    let opts = FrontendOptions {
        include_dirs: vec![file.with_file_name("include")],
        headers: headers.clone(),
        ..FrontendOptions::default()
    };
    let m = match frontend::parse_file(file, &opts) {
        Ok(m) => m,
        Err(_) => return vec!["refused".into()],
    };
    let mut out: Vec<String> = m
        .not_analysed
        .iter()
        .map(|n| format!("not analysed {}", n.name))
        .collect();
    for k in &m.kernels {
        out.push(format!("kernel {}", k.name));
        let report = match analysis::analyze_kernel(&m, k, &AnalysisOptions::default()) {
            Ok(r) => r,
            Err(e) => {
                out.push(format!("  launch error: {}", e.message));
                continue;
            }
        };
        for a in report.accesses.iter().filter(|a| a.space != Space::Local) {
            out.push(format!(
                "  {}:{} {:?} {:?}: {:?}",
                a.line, a.column, a.kind, a.space, a.verdict
            ));
        }
    }
    out
}

#[test]
fn a_toolkits_headers_give_the_verdicts_of_the_stand_ins() {
    let toolkit = toolkit();
    let files: Vec<PathBuf> = corpus::cu_files("frontend")
        .into_iter()
        .chain(corpus::cu_files("realcode"))
        .collect();
    assert!(files.len() >= 50, "{} files", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let stand_ins = reading(f, &Headers::StandIns);
        let real = reading(f, &toolkit);
        if stand_ins != real {
            failures.push(format!(
                "{}:\n  stand-ins: {stand_ins:?}\n  {}: {real:?}",
                f.display(),
                toolkit.describe()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
