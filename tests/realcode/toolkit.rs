//! Both header paths: every file of the front-end and real-code corpora, read with a real CUDA
//! toolkit's headers, gives the same kernels, the same kernels not analysed, the same host code
//! left unread and the same verdict for every shared, global and generic access as with gmrace's stand-ins. Accesses to
//! local memory are left out: the toolkit's cooperative groups go through more temporaries than
//! the stand-ins', and a thread's own locals never race. A file using CUB or Thrust, which the
//! stand-ins model rather than copy, needs the same kernels and no line made racy by the
//! toolkit's library that its model leaves race-free. A file including a library header the
//! toolkit lacks (cuBLAS: the wheels carry none) is read with the stand-ins only.
//!
//! The toolkit is the header tree `scripts/toolkit-headers.sh` installs (CUDA 12.4 from NVIDIA's
//! wheels; `scripts/test.sh` runs it first): `$GMRACE_TOOLKIT_HEADERS`, else the script's cache
//! directory. Without it the test fails and says how to get it.

use crate::corpus;
use crate::stand_ins::{self, Analysed};
use gmrace_analyzer::frontend::{self, Headers};
use gmrace_analyzer::ir::Space;
use rayon::prelude::*;
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
    match headers {
        Headers::StandIns => describe(&stand_ins::analysed(file)),
        _ => describe(&stand_ins::analyse(file, headers)),
    }
}

fn describe(a: &Analysed) -> Vec<String> {
    let m = match &a.module {
        Ok(m) => m,
        Err(_) => return vec!["refused".into()],
    };
    let mut out: Vec<String> = m
        .not_analysed
        .iter()
        .map(|n| format!("not analysed {}", n.name))
        .collect();
    // Host code clang could not read under one set of headers and could under the other.
    out.extend(
        m.diagnostics
            .iter()
            .filter(|d| d.message.contains(" not read"))
            .map(|d| format!("warning at line {}: {}", d.span.line, d.message)),
    );
    for (k, report) in m.kernels.iter().zip(&a.reports) {
        out.push(format!("kernel {}", k.name));
        let report = match report {
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

/// A file that uses a library the stand-ins model rather than copy (CUB, Thrust): the toolkit's
/// own implementation makes other accesses, one by one, than the model.
fn models_a_library(file: &Path) -> bool {
    std::fs::read_to_string(file)
        .is_ok_and(|t| t.contains("#include <cub/") || t.contains("#include <thrust/"))
}

/// A file including a library header the stand-ins declare and the toolkit under test lacks
/// (the header wheels carry the runtime, not cuBLAS's or cuFFT's headers; a full toolkit has
/// them): read as empty there, the host code calling the library is not read, so its launches
/// are not either. Such a file is read with the stand-ins only.
fn needs_a_header_the_toolkit_lacks(file: &Path, toolkit: &Headers) -> bool {
    let Headers::Toolkit { root, .. } = toolkit else {
        return false;
    };
    let stand_ins = frontend::include_dir().expect("the stand-in headers");
    std::fs::read_to_string(file).is_ok_and(|t| {
        t.lines().any(|l| {
            let Some(name) = l
                .trim()
                .strip_prefix("#include <")
                .and_then(|r| r.split_once('>'))
            else {
                return false;
            };
            stand_ins.join(name.0).is_file() && !root.join("include").join(name.0).is_file()
        })
    })
}

/// For such a file: the same kernels and kernels not analysed (the library's host code may read
/// otherwise), and every line the toolkit's
/// library makes racy is racy with the model too (a model that hid a race of the real library
/// would give a wrong `safe`).
fn library_model_agrees(stand_ins: &[String], real: &[String]) -> bool {
    let shape = |r: &[String]| -> Vec<String> {
        r.iter()
            .filter(|l| !l.starts_with("  ") && !l.starts_with("warning"))
            .cloned()
            .collect()
    };
    let racy = |r: &[String]| -> std::collections::BTreeSet<(String, String)> {
        let mut kernel = String::new();
        let mut out = std::collections::BTreeSet::new();
        for l in r {
            if !l.starts_with("  ") {
                kernel = l.clone();
            } else if l.ends_with(": Racy") {
                let line = l.trim().split(':').next().unwrap_or_default().to_string();
                out.insert((kernel.clone(), line));
            }
        }
        out
    };
    shape(stand_ins) == shape(real) && racy(real).is_subset(&racy(stand_ins))
}

#[test]
fn a_toolkits_headers_give_the_verdicts_of_the_stand_ins() {
    let toolkit = toolkit();
    let files: Vec<PathBuf> = corpus::cu_files("frontend")
        .into_iter()
        .chain(corpus::cu_files("realcode"))
        .collect();
    assert!(files.len() >= 50, "{} files", files.len());
    let failures: Vec<String> = files
        .par_iter()
        .filter(|f| !needs_a_header_the_toolkit_lacks(f, &toolkit))
        .filter_map(|f| {
            let stand_ins = reading(f, &Headers::StandIns);
            let real = reading(f, &toolkit);
            let differ = if models_a_library(f) {
                !library_model_agrees(&stand_ins, &real)
            } else {
                stand_ins != real
            };
            differ.then(|| {
                format!(
                    "{}:\n  stand-ins: {stand_ins:?}\n  {}: {real:?}",
                    f.display(),
                    toolkit.describe()
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A project header named `cuda.h` beside the file (darknet's) hides nothing of the toolkit's:
/// the file's directory is searched after the system headers, also where host code has errors
/// (the parses that read its missing header as empty).
#[test]
fn a_projects_own_cuda_h_does_not_hide_the_toolkits() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/realcode/own_cuda_header/scale.cu");
    let reading = reading(&file, &toolkit());
    assert_eq!(
        reading,
        [
            "warning at line 0: `darknet.h` not found: read as empty (the code that needs it is not read)",
            "warning at line 16: `forward_scale_layer` not read (no kernel depends on it): unknown type name 'layer'",
            "kernel scale_kernel",
            "  6:5 Read Global: Safe",
            "  6:5 Write Global: Safe",
        ],
        "{}",
        file.display()
    );
}

/// A member of `threadIdx` & co. the toolkit's tokens do not name (a macro taking the object
/// and the member apart) is any of the three: the kernel keeps its dimensions open and nothing
/// is proved safe; the stand-ins' fields give the race.
#[test]
fn a_builtin_member_no_token_names_is_any_of_the_three() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kernels/realcode/toolkit_members/macro_argument.cu");
    let real = reading(&file, &toolkit());
    assert_eq!(
        real,
        [
            "kernel shift",
            "  11:10 Read Global: Unknown",
            "  11:3 Write Global: Unknown",
        ],
        "{}",
        file.display()
    );
    let stand_ins = reading(&file, &Headers::StandIns);
    assert!(
        stand_ins.iter().any(|l| l.ends_with("Racy")),
        "{stand_ins:?}"
    );
}

/// A library's function of scalars with no body (libdevice's, under a toolkit's math
/// functions) computes an unknown value without a warning; a user's function without a body
/// keeps its warning.
#[test]
fn a_library_function_of_scalars_computes_without_a_warning() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kernels/realcode/toolkit_members/value_functions.cu");
    let analysed = stand_ins::analyse(&file, &toolkit());
    let m = analysed.module.as_ref().expect("the file is read");
    let bodiless: Vec<&str> = m
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .filter(|d| d.contains("which has no body here"))
        .collect();
    assert_eq!(
        bodiless,
        ["call to `scale_of`, which has no body here"],
        "{}",
        file.display()
    );
}
