//! A corpus file read with gmrace's stand-in headers and its kernels analysed with the default
//! options, computed once per file and shared by the tests of this binary: both need exactly
//! this, and it is most of their time.

use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport, LaunchError};
use gmrace_analyzer::frontend::{self, FrontendError, FrontendOptions, Headers};
use gmrace_analyzer::ir::Module;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// What reading and analysing a file gave.
pub struct Analysed {
    pub module: Result<Module, FrontendError>,
    /// Each kernel's report, in the module's order (empty when the file was refused).
    pub reports: Vec<Result<KernelReport, LaunchError>>,
}

/// `file` read with `include/` beside it on the include path, analysed; the first test to ask
/// computes it, a test asking meanwhile waits for it.
pub fn analysed(file: &Path) -> Arc<Analysed> {
    type Cell = Arc<OnceLock<Arc<Analysed>>>;
    static FILES: OnceLock<Mutex<HashMap<PathBuf, Cell>>> = OnceLock::new();
    let cell: Cell = FILES
        .get_or_init(Default::default)
        .lock()
        .expect("the file table")
        .entry(file.to_path_buf())
        .or_default()
        .clone();
    cell.get_or_init(|| Arc::new(analyse(file, &Headers::StandIns)))
        .clone()
}

/// `file` read with `headers` and `include/` beside it on the include path, analysed.
pub fn analyse(file: &Path, headers: &Headers) -> Analysed {
    let opts = FrontendOptions {
        include_dirs: vec![file.with_file_name("include")],
        headers: headers.clone(),
        ..FrontendOptions::default()
    };
    let module = frontend::parse_file(file, &opts);
    let reports = match &module {
        Ok(m) => m
            .kernels
            .iter()
            .map(|k| analysis::analyze_kernel(m, k, &AnalysisOptions::default()))
            .collect(),
        Err(_) => Vec::new(),
    };
    Analysed { module, reports }
}
