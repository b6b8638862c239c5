//! The instrumenter. `kernels/instrument/*.cu` are rewritten (flag mode, plus the options of
//! their `// instrument:` line) into exactly `NAME.cu.expected` and `NAME.plan.json`
//! (`UPDATE_EXPECT=1` rewrites them; review the diff); `errors/*.cu` are refused at the
//! location their `.error` file names. Every instrumented file, both modes, and the analysis
//! corpus instrumented with `--all`, must compile to PTX with DESIGN.md's clang command and
//! lower in gmrace's own front end with no opaque construct; and the device corpus run on the
//! CPU device gives the same buffers instrumented (with the placeholder runtime, which checks
//! nothing) as not.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/design_clang.rs"]
mod design_clang;
#[path = "common/expect.rs"]
mod expect;

use expect::check;
use gmrace_analyzer::analysis::{self, AnalysisOptions, KernelReport, QUERY_WORK};
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::{self, Module, Space, StmtKind};
use gmrace_instrumenter::{self as instrumenter, Instrumented, Mode, Options, WarpTable};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::report::RunResult;
use gmrace_runtime_cuda::{Device, RunOptions};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

fn parse(path: &Path, include: &[PathBuf]) -> Result<Module, String> {
    let opts = FrontendOptions {
        include_dirs: include.to_vec(),
        ..FrontendOptions::default()
    };
    frontend::parse_file(path, &opts).map_err(|e| {
        let msgs: Vec<String> = e.diagnostics.iter().map(|d| d.message.clone()).collect();
        format!("{}: {}", path.display(), msgs.join("; "))
    })
}

/// The options of a corpus file's `// instrument: --all --mode stmt --warp-table global` line.
fn file_options(text: &str, mode: Mode) -> Options {
    let flags: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("// instrument:"))
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let value = |name: &str| {
        flags
            .iter()
            .position(|f| *f == name)
            .and_then(|i| flags.get(i + 1))
    };
    Options {
        mode,
        all: flags.contains(&"--all"),
        warp_table: value("--warp-table").map(|w| match *w {
            "global" => WarpTable::Global,
            _ => WarpTable::Shared,
        }),
        defines: Vec::new(),
    }
}

/// A corpus file parsed and analysed (every kernel, default assumptions).
struct Analysed {
    path: PathBuf,
    text: String,
    module: Module,
    reports: Vec<KernelReport>,
}

/// Analysis for the expectations: generous solver work, so that what is recorded is what
/// the analysis can prove, and a wall-clock safety net that grows with it (as `analysis.rs`'s:
/// a loaded machine must not change what is recorded).
fn analyse(path: &Path) -> Result<Analysed, String> {
    let opts = AnalysisOptions {
        timeout_ms: 10 * AnalysisOptions::default().timeout_ms,
        query_work: 5 * QUERY_WORK,
        kernel_work: u64::MAX,
        first_round_work: 5 * QUERY_WORK,
        ..AnalysisOptions::default()
    };
    analyse_with(path, &opts)
}

/// With `--all` the verdicts only decide the reductions: little solver work per query keeps
/// the tests over whole corpora fast (running out only leaves a reduction unproved).
fn analyse_for_all(path: &Path) -> Result<Analysed, String> {
    let opts = AnalysisOptions {
        query_work: QUERY_WORK / 10,
        ..AnalysisOptions::default()
    };
    analyse_with(path, &opts)
}

fn analyse_with(path: &Path, opts: &AnalysisOptions) -> Result<Analysed, String> {
    let module = parse(path, &[])?;
    let reports: Vec<KernelReport> = module
        .kernels
        .iter()
        .map(|k| analysis::analyze_kernel(&module, k, opts))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {}", path.display(), e.message))?;
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    Ok(Analysed {
        path: path.to_path_buf(),
        text,
        module,
        reports,
    })
}

impl Analysed {
    /// Instruments the file; the plan names it by its file name.
    fn instrument(&self, opts: &Options) -> Result<Instrumented, String> {
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        instrumenter::instrument(&name, &self.text, &self.module, &self.reports, opts)
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

fn corpus() -> Vec<PathBuf> {
    let files = corpus::cu_files("instrument");
    assert!(
        files.len() >= 12,
        "the instrument corpus has {} files",
        files.len()
    );
    files
}

#[test]
fn instrument_corpus_matches_expectations() {
    let mut failures = Vec::new();
    for f in corpus() {
        match analyse(&f).and_then(|a| a.instrument(&file_options(&a.text, Mode::Flag))) {
            Ok(inst) => {
                check(
                    &f.with_extension("cu.expected"),
                    &inst.source,
                    &mut failures,
                );
                let plan = serde_json::to_string_pretty(&inst.plan).expect("plan json") + "\n";
                check(&f.with_extension("plan.json"), &plan, &mut failures);
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn files_that_cannot_be_rewritten_are_refused_at_their_location() {
    let files = corpus::cu_files("instrument/errors");
    assert!(!files.is_empty());
    for f in files {
        let module = parse(&f, &[]).expect("parses");
        let text = std::fs::read_to_string(&f).expect("read");
        let opts = file_options(&text, Mode::Flag);
        let err = match instrumenter::instrument("x.cu", &text, &module, &[], &opts) {
            Ok(_) => panic!("{}: instrumented", f.display()),
            Err(e) => e,
        };
        let span = err.span.expect("located");
        let actual = format!("{}:{} {}\n", span.line, span.column, err.message);
        let mut failures = Vec::new();
        check(&f.with_extension("error"), &actual, &mut failures);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// Writes an instrumented file with its headers into a fresh directory.
fn write(inst: &Instrumented, dir_name: &str, file_name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("instrument")
        .join(dir_name);
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join(file_name);
    // The corpus files include no header of their own.
    let origin = instrumenter::Origin {
        file: &out,
        include_dirs: &[],
    };
    instrumenter::write_output(&out, inst, &origin).expect("write output");
    out
}

/// DESIGN.md's PTX command; `None` when clang is not installed.
fn clang_ptx(out: &Path) -> Option<Result<(), String>> {
    let dir = out.parent().expect("dir");
    let result = design_clang::ptx(out, &[dir], &[], &dir.join("out.ptx"));
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(format!("clang: {e}"))),
        Ok(o) if o.status.success() => Some(Ok(())),
        Ok(o) => Some(Err(String::from_utf8_lossy(&o.stderr).into_owned())),
    }
}

/// Problems of an instrumented file in gmrace's own front end: it must lower with no new
/// warning and no opaque construct, keep every kernel (with the runtime parameter last), and call the
/// runtime at every planned site.
fn front_end_problems(out: &Path, original: &Module, inst: &Instrumented) -> Vec<String> {
    let dir = out.parent().expect("dir").to_path_buf();
    let m = match parse(out, &[dir]) {
        Ok(m) => m,
        Err(e) => return vec![e],
    };
    // Warnings the original file has too (a call through a function pointer) are not new.
    let mut problems: Vec<String> = m
        .diagnostics
        .iter()
        .filter(|d| !original.diagnostics.iter().any(|o| o.message == d.message))
        .map(|d| format!("{}:{}: {}", out.display(), d.span.line, d.message))
        .collect();
    for k in &m.kernels {
        ir::walk_stmts(&k.body, &mut |s| {
            if let StmtKind::Opaque { reason } = &s.kind {
                problems.push(format!(
                    "{}:{}: opaque {reason}",
                    out.display(),
                    s.span.line
                ));
            }
        });
        if k.params.last().map(|p| p.name.as_str()) != Some(instrumenter::RT_PARAM) {
            problems.push(format!(
                "{}: kernel {} lacks the runtime parameter",
                out.display(),
                k.name
            ));
        }
    }
    let names = |m: &Module| m.kernels.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    if names(&m) != names(original) {
        problems.push(format!(
            "{}: kernels {:?}, originally {:?}",
            out.display(),
            names(&m),
            names(original)
        ));
    }
    for site in inst.plan.kernels.iter().flat_map(|k| &k.instrumented) {
        let call = format!(", {}, GMRACE_", site.id);
        if !inst.source.contains(&call) {
            problems.push(format!(
                "{}: no runtime call for site {}",
                out.display(),
                site.id
            ));
        }
        // Recorded accesses stay in shared memory (the runtime returns the pointer it got);
        // the runtime's own accesses (its tables, through pointers it keeps) are not the
        // program's.
        let in_runtime = |a: &&gmrace_analyzer::ir::Access| {
            m.files
                .get(a.span.file as usize)
                .is_some_and(|f| f.ends_with("gmrace_runtime.cuh"))
        };
        let shared = m
            .kernels
            .iter()
            .flat_map(|k| &k.accesses)
            .filter(|a| !in_runtime(a))
            .all(|a| a.space != Space::Generic);
        if !shared {
            problems.push(format!(
                "{}: an access lost its memory space",
                out.display()
            ));
        }
    }
    problems
}

/// Instruments `files` in both modes, then compiles and re-parses each output.
fn compile_and_lower(files: &[PathBuf], all: bool) {
    let outcomes: Vec<Compiled> = files.par_iter().map(|f| compile_one(f, all)).collect();
    let failures: Vec<String> = outcomes.iter().flat_map(|o| o.failures.clone()).collect();
    if outcomes.iter().any(|o| o.clang_missing) {
        eprintln!("SKIPPED the PTX compilation: `clang` is not installed");
    } else {
        let compiled: usize = outcomes.iter().map(|o| o.compiled).sum();
        assert_eq!(compiled, files.len() * 2, "{}", failures.join("\n"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What compiling one file's instrumented outputs gave.
#[derive(Default)]
struct Compiled {
    failures: Vec<String>,
    compiled: usize,
    clang_missing: bool,
}

fn compile_one(f: &Path, all: bool) -> Compiled {
    let mut out = Compiled::default();
    let analysed = match if all { analyse_for_all(f) } else { analyse(f) } {
        Ok(a) => a,
        Err(e) => {
            out.failures.push(e);
            return out;
        }
    };
    for mode in [Mode::Flag, Mode::Stmt] {
        let mut opts = file_options(&analysed.text, mode);
        opts.all |= all;
        let inst = match analysed.instrument(&opts) {
            Ok(x) => x,
            Err(e) => {
                out.failures.push(e);
                continue;
            }
        };
        let stem = f.file_stem().unwrap_or_default().to_string_lossy();
        let file = write(
            &inst,
            &format!("{stem}-{}", mode_name(mode)),
            &format!("{stem}.cu"),
        );
        match clang_ptx(&file) {
            None => out.clang_missing = true,
            Some(Ok(())) => out.compiled += 1,
            Some(Err(e)) => out
                .failures
                .push(format!("{}: clang failed:\n{e}", file.display())),
        }
        out.failures
            .extend(front_end_problems(&file, &analysed.module, &inst));
    }
    out
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Flag => "flag",
        Mode::Stmt => "stmt",
    }
}

#[test]
fn instrumented_corpus_compiles_and_lowers_in_both_modes() {
    compile_and_lower(&corpus(), false);
}

#[test]
fn analysis_corpus_instrumented_with_all_compiles_and_lowers() {
    let files = corpus::cu_files("analysis");
    assert!(files.len() >= 20);
    compile_and_lower(&files, true);
}

/// The precompiled prelude `design_clang::ptx` uses stands for the headers exactly: the plain
/// command gives the same PTX, byte for byte, in both modes.
#[test]
fn the_precompiled_prelude_gives_the_plain_commands_ptx() {
    let f = kernels().join("analysis/bitonic_fixed.cu");
    let analysed = analyse_for_all(&f).expect("analysed");
    for mode in [Mode::Flag, Mode::Stmt] {
        let mut opts = file_options(&analysed.text, mode);
        opts.all = true;
        let inst = analysed.instrument(&opts).expect("instrumented");
        let file = write(&inst, &format!("pch-{}", mode_name(mode)), "k.cu");
        let dir = file.parent().expect("dir");
        design_clang::assert_precompiled_is_plain(&file, &[dir], dir);
    }
}

/// The `.cu` file a device-corpus launch spec runs, from its first line (`# analysis/x.cu: ...`).
fn spec_kernel(spec: &Path) -> PathBuf {
    let text = std::fs::read_to_string(spec).expect("read spec");
    let first = text.lines().next().unwrap_or_default();
    let path = first
        .trim_start_matches("# ")
        .split([':', ' '])
        .next()
        .unwrap_or_default()
        .trim_start_matches("tests/kernels/");
    kernels().join(path)
}

/// Runs `module` with the spec; for an instrumented module the runtime buffer is one more
/// (zeroed) argument, added to the spec's `[args]`.
fn run(module: &Module, spec: &Path, instrumented: bool) -> RunResult {
    let mut text = std::fs::read_to_string(spec).expect("read spec");
    if instrumented {
        text = text.replacen(
            "[args]\n",
            &format!(
                "[args]\n{} = {{ len = 4096, init = \"zeros\" }}\n",
                instrumenter::RT_PARAM
            ),
            1,
        );
    }
    let spec = LaunchSpec::parse(spec, text).unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
    let launch = spec.resolve(module).unwrap_or_else(|e| panic!("{e}"));
    CpuDevice
        .run(module, &launch, &RunOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn instrumentation_does_not_change_what_kernels_compute() {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(kernels().join("device"))
        .expect("device corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 10);
    for spec in specs {
        let cu = spec_kernel(&spec);
        let opts = Options {
            mode: Mode::Flag,
            all: true,
            warp_table: None,
            defines: Vec::new(),
        };
        let analysed = analyse_for_all(&cu).unwrap_or_else(|e| panic!("{e}"));
        let inst = analysed.instrument(&opts).unwrap_or_else(|e| panic!("{e}"));
        let original = &analysed.module;
        let stem = spec.file_stem().unwrap_or_default().to_string_lossy();
        let out = write(&inst, &format!("run-{stem}"), "kernel.cu");
        let instrumented = parse(&out, &[out.parent().expect("dir").to_path_buf()])
            .unwrap_or_else(|e| panic!("{e}"));
        let (before, after) = (run(original, &spec, false), run(&instrumented, &spec, true));
        assert!(
            before.faults.is_empty(),
            "{}: {:#?}",
            cu.display(),
            before.faults
        );
        assert!(
            after.faults.is_empty(),
            "{}: instrumented: {:#?}",
            cu.display(),
            after.faults
        );
        assert_eq!(before.printf, after.printf, "{}: printf", cu.display());
        let recorded: usize = inst.plan.kernels.iter().map(|k| k.instrumented.len()).sum();
        assert!(recorded > 0 || original.kernels.iter().all(|k| k.shared.is_empty()));
        for b in &before.buffers {
            let a = after
                .buffer(&b.name)
                .unwrap_or_else(|| panic!("{}: no buffer {}", cu.display(), b.name));
            assert!(
                a.bytes == b.bytes,
                "{}: buffer `{}` differs",
                cu.display(),
                b.name
            );
        }
    }
}
