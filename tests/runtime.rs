//! The GMRace device runtime (`instrumenter/runtime/gmrace_runtime.cuh`) on the CPU device,
//! with hand-instrumented kernels that follow the runtime contract (`kernels/runtime/*.cu`,
//! each with a launch spec `.toml`). In both modes the decoded race log must match the
//! `.flag.expect` / `.stmt.expect` files (`UPDATE_EXPECT=1` rewrites them; review the diff).
//!
//! Also: the same with the warpTable in device memory, PTX compilation of the kernels, log and
//! table overflow, agreement of the host's and the header's buffer layouts, the reference
//! detector, the shared-layout table the runtime reports (equal to the CPU device's layout) and
//! accesses beyond the bitmaps (the run is then incomplete).

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/reference.rs"]
mod reference;

#[path = "common/design_clang.rs"]
mod design_clang;
#[path = "common/expect.rs"]
mod expect;

use expect::check;
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir::Module;
use gmrace_runtime_cuda::cpu::memory::{Layout, ObjKind};
use gmrace_runtime_cuda::cpu::CpuDevice;
use gmrace_runtime_cuda::launch::LaunchSpec;
use gmrace_runtime_cuda::race_log::{self, CheckedRun, Config, Mode, SharedDecl};
use gmrace_runtime_cuda::{Device, RunOptions};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn runtime_dir() -> PathBuf {
    root().join("../instrumenter/runtime")
}

fn mode_macro(mode: Mode) -> &'static str {
    match mode {
        Mode::Flag => "GMRACE_MODE_FLAG",
        Mode::Stmt => "GMRACE_MODE_STMT",
    }
}

/// How a test varies the runtime's configuration.
#[derive(Default)]
struct Knobs {
    log_capacity: Option<u32>,
    rows: Option<u32>,
    warp_table_global: bool,
    trace: bool,
}

/// Runs hand-instrumented `cu` with its launch spec in `mode`.
fn run(cu: &Path, mode: Mode, knobs: &Knobs) -> CheckedRun {
    run_module(cu, mode, knobs).1
}

fn run_module(cu: &Path, mode: Mode, knobs: &Knobs) -> (Module, CheckedRun) {
    let mut defines = vec![(mode_macro(mode).to_string(), Some("1".to_string()))];
    if knobs.warp_table_global {
        defines.push((
            "GMRACE_WARP_TABLE_GLOBAL".to_string(),
            Some("1".to_string()),
        ));
    }
    let opts = FrontendOptions {
        include_dirs: vec![runtime_dir()],
        defines,
        ..FrontendOptions::default()
    };
    let module = frontend::parse_file(cu, &opts)
        .unwrap_or_else(|e| panic!("{}: {:?}", cu.display(), e.diagnostics));
    let spec = LaunchSpec::read(&cu.with_extension("toml")).unwrap_or_else(|e| panic!("{e}"));
    let launch = spec
        .resolve(&race_log::without_runtime_param(&module))
        .unwrap_or_else(|e| panic!("{}: {e}", cu.display()));
    let mut cfg = Config::new(mode, 4);
    if let Some(c) = knobs.log_capacity {
        cfg.log_capacity = c;
    }
    if let Some(r) = knobs.rows {
        cfg.rows = r;
    }
    let opts = RunOptions {
        trace: knobs.trace,
        ..RunOptions::default()
    };
    let run = race_log::run_checked(&CpuDevice, &module, launch, &cfg, &decls(&module), &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", cu.display()));
    (module, run)
}

/// The shared-layout table of a hand-instrumented kernel: its own shared variables in
/// declaration order, each reported with its index (`__gmrace_shared(&s, sizeof(s), 0u)`).
fn decls(module: &Module) -> Vec<SharedDecl> {
    module.kernels[0]
        .shared
        .iter()
        .filter(|s| !s.name.starts_with("__gmrace"))
        .map(|s| SharedDecl {
            name: s.name.clone(),
            dynamic: s.size_bytes.is_none(),
        })
        .collect()
}

/// The decoded log, one race per line, in a stable order.
fn render(run: &CheckedRun) -> String {
    let mut s = String::new();
    let log = &run.log;
    for f in &run.result.faults {
        let _ = writeln!(s, "fault: {} {}", f.kind.name(), f.message);
    }
    let _ = writeln!(
        s,
        "complete={} found={} r_stmt={} r_mem={} r_thd={} r_wp={}",
        log.complete(),
        log.found,
        log.r_stmt,
        log.r_mem,
        log.r_thd,
        log.r_wp
    );
    for r in &log.races {
        let place = match race_log::locate(&run.window, r.offset as u64) {
            Some((name, off)) => format!("{name}+{off}"),
            None => format!("window+{}", r.offset),
        };
        let _ = write!(
            s,
            "{} block {:?} {place} len {} warps {:?}",
            r.scope.name(),
            r.block,
            r.len,
            r.warps
        );
        if let Some(t) = r.threads {
            let _ = write!(s, " threads {t:?}");
        }
        if let Some(a) = r.accesses {
            let _ = write!(s, " ids {a:?}");
        }
        if let Some([a, b]) = r.kinds {
            let _ = write!(s, " {}/{}", a.name(), b.name());
        }
        s.push('\n');
    }
    s
}

#[test]
fn hand_instrumented_kernels_match_expectations_in_both_modes() {
    let mut failures = Vec::new();
    for cu in corpus::cu_files("runtime") {
        for mode in [Mode::Flag, Mode::Stmt] {
            let r = run(&cu, mode, &Knobs::default());
            let expect = cu.with_extension(format!("{}.expect", mode.name()));
            let text = render(&r);
            check(&expect, &text, &mut failures);
            let global = Knobs {
                warp_table_global: true,
                ..Knobs::default()
            };
            let g = render(&run(&cu, mode, &global));
            if g != text {
                failures.push(format!(
                    "{} ({}): the device-memory warpTable finds\n{g}\nthe shared one\n{text}",
                    cu.display(),
                    mode.name()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn case(name: &str) -> PathBuf {
    root().join("kernels/runtime").join(name)
}

#[test]
fn instrumentation_leaves_the_program_result_unchanged() {
    for mode in [Mode::Flag, Mode::Stmt] {
        let r = run(&case("reduction_safe.cu"), mode, &Knobs::default());
        let out = r.result.buffer("out").expect("out").as_i64();
        let want: Vec<i64> = (0..3).map(|b| (b * 128..b * 128 + 128).sum()).collect();
        assert_eq!(out, want, "{}", mode.name());
    }
}

#[test]
fn a_full_log_keeps_counting_and_makes_the_run_incomplete() {
    for mode in [Mode::Flag, Mode::Stmt] {
        let knobs = Knobs {
            log_capacity: Some(3),
            ..Knobs::default()
        };
        let r = run(&case("intra_warp.cu"), mode, &knobs);
        assert_eq!(r.log.races.len(), 3, "{}", mode.name());
        assert_eq!(r.log.found, 32);
        assert_eq!(r.log.r_thd, 32);
        assert!(r.log.log_overflow && !r.log.complete());
    }
}

/// R-Wp is the number of distinct racing warp pairs: `warp_pairs.cu` races on 64 granules in
/// each of its two blocks, but only between warps 0 and 1 and warps 0 and 2. The count is kept
/// on the device, so a log that holds one record does not change it.
#[test]
fn r_wp_counts_distinct_warp_pairs_whatever_the_log_holds() {
    for mode in [Mode::Flag, Mode::Stmt] {
        for cap in [None, Some(1)] {
            let knobs = Knobs {
                log_capacity: cap,
                ..Knobs::default()
            };
            let r = run(&case("warp_pairs.cu"), mode, &knobs);
            assert!(r.result.faults.is_empty(), "{:?}", r.result.faults);
            assert_eq!(r.log.r_wp, 4, "{} with log capacity {cap:?}", mode.name());
            assert_eq!(r.log.complete(), cap.is_none(), "{}", mode.name());
        }
    }
}

#[test]
fn a_full_block_stmt_table_makes_the_run_incomplete() {
    let knobs = Knobs {
        rows: Some(1),
        ..Knobs::default()
    };
    let r = run(&case("inter_warp.cu"), Mode::Stmt, &knobs);
    assert!(r.log.table_overflow && !r.log.complete());
    // With one row per interval the conflicting second statement was never recorded.
    assert!(r.log.races.is_empty());
    let full = run(&case("inter_warp.cu"), Mode::Stmt, &Knobs::default());
    assert!(full.log.complete() && !full.log.races.is_empty());
}

/// On the CPU device the places the runtime reports are the device's own layout: the table
/// and `memory::Layout` agree on every shared variable of the program.
#[test]
fn the_reported_shared_layout_is_the_cpu_devices() {
    for cu in corpus::cu_files("runtime") {
        let (module, run) = run_module(&cu, Mode::Flag, &Knobs::default());
        let kernel = &module.kernels[0];
        let dynamic = run.result.dynamic_shared_bytes;
        let mut expected: Vec<race_log::SharedPlace> =
            race_log::cpu_shared_window(&module, kernel, dynamic)
                .into_iter()
                .filter(|p| !p.name.starts_with("__gmrace"))
                .collect();
        expected.sort_by_key(|p| p.offset);
        assert!(!expected.is_empty(), "{}", cu.display());
        assert_eq!(run.window, expected, "{}", cu.display());
    }
}

/// Bitmaps that cover less than the kernel's shared memory (a layout the host did not
/// foresee) leave the accesses beyond them unchecked, and the run says so.
#[test]
fn accesses_beyond_the_bitmaps_make_the_run_incomplete() {
    let cu = case("inter_warp.cu");
    let (module, full) = run_module(&cu, Mode::Flag, &Knobs::default());
    assert!(full.log.complete() && !full.log.races.is_empty());
    let spec = LaunchSpec::read(&cu.with_extension("toml")).unwrap();
    let mut launch = spec
        .resolve(&race_log::without_runtime_param(&module))
        .unwrap();
    let s = full.window.iter().find(|p| p.name == "s").unwrap();
    // The bitmaps end in the middle of `s`; the racy word (s+128) lies beyond them.
    let cfg = Config::new(Mode::Flag, 4);
    let layout =
        race_log::BufferLayout::new(&cfg, launch.block, launch.num_blocks(), s.offset + 64, 1)
            .unwrap();
    race_log::attach(&mut launch, &layout);
    let mut result = CpuDevice
        .run(&module, &launch, &RunOptions::default())
        .unwrap();
    assert!(result.faults.is_empty(), "{:?}", result.faults);
    let (log, window) = race_log::take_log(&mut result, &layout, &decls(&module)).unwrap();
    assert!(log.window_overflow && !log.complete());
    assert!(log.races.is_empty(), "{:?}", log.races);
    assert_eq!(window, full.window);
}

/// The runtime compiles to PTX, in both modes and with either warpTable, with DESIGN.md's
/// clang command (the stand-in CUDA headers play the toolkit's).
#[test]
fn hand_instrumented_kernels_compile_to_ptx() {
    use rayon::prelude::*;
    let include = root().join("../analyzer/include");
    let runtime = runtime_dir();
    let cases: Vec<(PathBuf, Mode, bool)> = corpus::cu_files("runtime")
        .into_iter()
        .flat_map(|cu| {
            [Mode::Flag, Mode::Stmt]
                .into_iter()
                .flat_map(move |m| [false, true].map(|g| (cu.clone(), m, g)))
        })
        .collect();
    cases.par_iter().for_each(|(cu, mode, global)| {
        let mut defines = vec![format!("-D{}=1", mode_macro(*mode))];
        if *global {
            defines.push("-DGMRACE_WARP_TABLE_GLOBAL=1".into());
        }
        let out = design_clang::ptx(cu, &[&runtime, &include], &defines, Path::new("/dev/null"))
            .expect("run clang (scripts/setup.sh installs it)");
        assert!(
            out.status.success(),
            "{} ({}, global warpTable {global}):\n{}",
            cu.display(),
            mode.name(),
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// The host's word indices (`race_log.rs`) are the header's.
#[test]
fn host_and_device_agree_on_the_buffer_layout() {
    use gmrace_runtime_cuda::race_log as rl;
    let text = std::fs::read_to_string(runtime_dir().join("gmrace_runtime.cuh")).unwrap();
    let value = |name: &str| -> usize {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name) && l.starts_with("#define"))
            .unwrap_or_else(|| panic!("no #define {name}"));
        let v = line
            .split_whitespace()
            .skip(2)
            .collect::<Vec<_>>()
            .join(" ");
        let v = v.split("/*").next().unwrap().trim().trim_end_matches('u');
        match v.strip_prefix("(8u + ").and_then(|r| r.strip_suffix("u)")) {
            Some(rest) => 8 + rest.parse::<usize>().unwrap(),
            None => v.parse().unwrap_or_else(|_| panic!("{name} = {v}")),
        }
    };
    let pairs = [
        ("GMRACE_H_MAGIC", rl::H_MAGIC),
        ("GMRACE_H_LOG_CAP", rl::H_LOG_CAP),
        ("GMRACE_H_LOG_COUNT", rl::H_LOG_COUNT),
        ("GMRACE_H_R_STMT", rl::H_R_STMT),
        ("GMRACE_H_R_MEM", rl::H_R_MEM),
        ("GMRACE_H_R_THD", rl::H_R_THD),
        ("GMRACE_H_R_WP", rl::H_R_WP),
        ("GMRACE_H_OVERFLOW", rl::H_OVERFLOW),
        ("GMRACE_H_NSLOTS", rl::H_NSLOTS),
        ("GMRACE_H_SLOT_WORDS", rl::H_SLOT_WORDS),
        ("GMRACE_H_SLOTS_AT", rl::H_SLOTS_AT),
        ("GMRACE_H_LOG_AT", rl::H_LOG_AT),
        ("GMRACE_H_ROWS", rl::H_ROWS),
        ("GMRACE_H_MAP_WORDS", rl::H_MAP_WORDS),
        ("GMRACE_H_CHECKS", rl::H_CHECKS),
        ("GMRACE_H_SHARED_N", rl::H_SHARED_N),
        ("GMRACE_H_SHARED_AT", rl::H_SHARED_AT),
        ("GMRACE_OVERFLOW_ROWS", rl::OVERFLOW_ROWS as usize),
        ("GMRACE_OVERFLOW_WINDOW", rl::OVERFLOW_WINDOW as usize),
        ("GMRACE_S_WARP_TABLE", rl::S_WARP_TABLE),
        ("GMRACE_S_PAIRS", rl::S_PAIRS),
        ("GMRACE_S_TABLE", rl::S_TABLE),
        ("GMRACE_ROW_WORDS", rl::ROW_WORDS),
        ("GMRACE_REC_WORDS", rl::RECORD_WORDS),
        ("GMRACE_SCOPE_INTRA", rl::SCOPE_INTRA as usize),
        ("GMRACE_SCOPE_INTER", rl::SCOPE_INTER as usize),
    ];
    for (name, host) in pairs {
        assert_eq!(value(name), host, "{name}");
    }
}

/// Racy granules the device runtime logged, as (linear block, window granule).
fn logged_granules(run: &CheckedRun, g: u64) -> BTreeSet<(u64, u64)> {
    let [gx, gy, _] = run.result.grid.map(u64::from);
    let mut out = BTreeSet::new();
    for r in &run.log.races {
        let [x, y, z] = r.block.map(u64::from);
        let block = x + gx * (y + gy * z);
        for byte in r.offset as u64..(r.offset + r.len) as u64 {
            out.insert((block, byte / g));
        }
    }
    out
}

/// Racy granules by the reference detector, from the trace of the run (the runtime's own
/// shared objects left out).
fn reference_granules(module: &Module, run: &CheckedRun, g: u64) -> BTreeSet<(u64, u64)> {
    let kernel = &module.kernels[0];
    let layout = Layout::new(module, kernel);
    let window_of = |obj: u32| {
        let o = layout.objs.get(obj as usize)?;
        (matches!(o.kind, ObjKind::Shared(_)) && !o.name.starts_with("__gmrace"))
            .then_some(o.window)
    };
    reference::granules(&reference::racy_bytes(&run.result.trace, &window_of), g)
}

/// Flag and stmt mode report the same racy granules as the reference detector on every
/// hand-instrumented kernel.
#[test]
fn both_modes_agree_with_the_reference_detector() {
    let knobs = Knobs {
        trace: true,
        log_capacity: Some(1 << 16),
        ..Knobs::default()
    };
    let mut racy_kernels = 0;
    for cu in corpus::cu_files("runtime") {
        let (module, flag) = run_module(&cu, Mode::Flag, &knobs);
        let (_, stmt) = run_module(&cu, Mode::Stmt, &knobs);
        assert!(
            flag.log.complete() && stmt.log.complete(),
            "{}",
            cu.display()
        );
        let want = reference_granules(&module, &flag, 4);
        assert_eq!(logged_granules(&flag, 4), want, "{} flag", cu.display());
        assert_eq!(logged_granules(&stmt, 4), want, "{} stmt", cu.display());
        assert_eq!(
            reference_granules(&module, &stmt, 4),
            want,
            "{} traces",
            cu.display()
        );
        racy_kernels += usize::from(!want.is_empty());
    }
    assert!(
        racy_kernels >= 4,
        "the corpus must exercise races: {racy_kernels}"
    );
}
