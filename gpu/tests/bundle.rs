//! `gmrace run --bundle` and `gmrace-gpu` on this machine, which has no GPU: the CPU device
//! runs every bundle (`--cpu-only`), and its report must be `gmrace run --backend emu`'s, byte
//! for byte: for every spec of the device corpus in every mode, as text and JSON (SARIF in
//! `stmt` mode), and for the race twins of `cli/tests/dynamic.rs` in the checked modes, as text
//! (their races quote the source); bad bundles are exit 2 with the reason; without a driver the GPU
//! run is refused; the binary needs no front end. `cli/tests/fake_driver.rs` runs its GPU tests
//! through bundles too.
//!
//! The `gmrace` binary is the one built beside `gmrace-gpu` (`cargo test --workspace` builds
//! both before any test runs).

use gmrace_runtime_cuda::bundle::{PAYLOAD, VERSION};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gmrace_gpu() -> &'static str {
    env!("CARGO_BIN_EXE_gmrace-gpu")
}

#[path = "../../tests/common/device_specs.rs"]
mod device_specs;
#[path = "../../tests/common/sibling.rs"]
mod sibling;

fn gmrace() -> PathBuf {
    sibling::fresh_sibling(
        gmrace_gpu(),
        "gmrace",
        &[
            "ir",
            "analyzer",
            "instrumenter",
            "runtime-cuda",
            "report",
            "cli",
        ],
    )
}

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-bundle-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every device-corpus spec with its kernel, and whether it is the `_race` twin of the spec's
/// `_fixed` kernel.
fn corpus() -> Vec<(PathBuf, PathBuf, bool)> {
    let mut out = Vec::new();
    for (spec, rel) in device_specs::device_specs(&kernels()) {
        let rel = rel
            .map(|r| r.trim_start_matches("tests/kernels/").to_string())
            .unwrap_or_else(|| panic!("{}: no kernel file on its first line", spec.display()));
        let cu = kernels().join(&rel);
        let twin = kernels().join(rel.replace("_fixed.cu", "_race.cu"));
        out.push((cu.clone(), spec.clone(), false));
        if twin != cu && twin.exists() {
            out.push((twin, spec, true));
        }
    }
    out
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run a gmrace binary")
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `gmrace run CU --launch SPEC --mode MODE` plus `extra`.
fn gmrace_run(cu: &Path, spec: &Path, mode: &str, extra: &[&str]) -> Output {
    run(Command::new(gmrace())
        .arg("run")
        .arg(cu)
        .arg("--launch")
        .arg(spec)
        .args(["--mode", mode])
        .args(extra))
}

/// One case: a kernel, its spec and a mode, bundled into `dir`; the direct runs' outputs in
/// the formats it is compared in.
struct Case {
    name: String,
    bundle: PathBuf,
    direct: Vec<(&'static str, Output)>,
}

fn prepare(cu: &Path, spec: &Path, mode: &str, formats: &[&'static str], root: &Path) -> Case {
    let name = format!("{}-{mode}", cu.file_stem().unwrap().to_string_lossy());
    let bundle = root.join(&name);
    let o = gmrace_run(cu, spec, mode, &["--bundle", bundle.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o));
    let direct = formats
        .iter()
        .map(|f| {
            (
                *f,
                gmrace_run(cu, spec, mode, &["--backend", "emu", "--format", f]),
            )
        })
        .collect();
    Case {
        name,
        bundle,
        direct,
    }
}

/// The formats each case is compared in: see the module's docs.
fn formats(mode: &str, twin: bool) -> &'static [&'static str] {
    match (twin, mode) {
        (true, _) => &["text"],
        (false, "stmt") => &["text", "json", "sarif"],
        (false, _) => &["text", "json"],
    }
}

#[test]
fn every_corpus_run_reads_the_same_through_a_bundle() {
    let root = scratch("corpus");
    let cases: Vec<(PathBuf, PathBuf, &str, bool)> = corpus()
        .into_iter()
        .flat_map(|(cu, spec, twin)| {
            let modes: &[&str] = if twin {
                &["flag", "stmt"]
            } else {
                &["off", "flag", "stmt"]
            };
            modes
                .iter()
                .map(|m| (cu.clone(), spec.clone(), *m, twin))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(cases.len() > 150, "{} cases", cases.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = cases.len().div_ceil(threads);
    let prepared: Vec<Case> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                let root = &root;
                s.spawn(move || {
                    part.iter()
                        .map(|(cu, spec, mode, twin)| {
                            prepare(cu, spec, mode, formats(mode, *twin), root)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    // One gmrace-gpu per format over every bundle compared in it: its reports, in order, are
    // the direct runs' reports, in order; its status is the worst.
    for format in ["text", "json", "sarif"] {
        let these: Vec<(&Case, &Output)> = prepared
            .iter()
            .filter_map(|c| c.direct.iter().find(|d| d.0 == format).map(|d| (c, &d.1)))
            .collect();
        let o = run(Command::new(gmrace_gpu())
            .args(["--cpu-only", "--format", format])
            .args(these.iter().map(|(c, _)| &c.bundle)));
        let expected: Vec<u8> = these.iter().flat_map(|(_, d)| d.stdout.clone()).collect();
        if o.stdout != expected {
            // Name the first case that differs.
            for (c, direct) in &these {
                let one = run(Command::new(gmrace_gpu())
                    .args(["--cpu-only", "--format", format])
                    .arg(&c.bundle));
                assert_eq!(
                    String::from_utf8_lossy(&one.stdout),
                    String::from_utf8_lossy(&direct.stdout),
                    "{} ({format}) through its bundle",
                    c.name
                );
            }
            panic!("the reports differ only when read together ({format})");
        }
        let worst = these
            .iter()
            .map(|(_, d)| d.status.code().unwrap())
            .max()
            .unwrap();
        assert_eq!(o.status.code(), Some(worst), "{format}: {}", text(&o));
    }
    // The corpus has races, faults and clean runs.
    let statuses: std::collections::BTreeSet<i32> = prepared
        .iter()
        .map(|c| c.direct[0].1.status.code().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [0, 1].into(),
        "the corpus should have clean and racy runs"
    );
    std::fs::remove_dir_all(root).ok();
}

/// A bundle of one racy kernel in stmt mode, in `root/name`.
fn small_bundle(root: &Path) -> PathBuf {
    let k = kernels();
    let bundle = root.join("b");
    let o = gmrace_run(
        &k.join("analysis/reduce_seq_race.cu"),
        &k.join("device/reduce_seq_fixed.toml"),
        "stmt",
        &["--bundle", bundle.to_str().unwrap(), "--quiet"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    bundle
}

fn gpu_on(bundle: &Path, extra: &[&str]) -> Output {
    run(Command::new(gmrace_gpu()).args(extra).arg(bundle))
}

fn refused(o: &Output, reason: &str) {
    let t = text(o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains(reason), "no `{reason}` in:\n{t}");
    assert!(!t.contains("panicked"), "{t}");
}

#[test]
fn bad_bundles_are_refused_with_the_reason() {
    let root = scratch("bad");
    let good = small_bundle(&root);
    assert_eq!(
        gpu_on(&good, &["--cpu-only", "--quiet"]).status.code(),
        Some(1)
    );
    let copy = |name: &str| {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["manifest.json", PAYLOAD] {
            std::fs::copy(good.join(f), dir.join(f)).unwrap();
        }
        dir
    };
    let payload = std::fs::read(good.join(PAYLOAD)).unwrap();

    let truncated = copy("truncated");
    std::fs::write(truncated.join(PAYLOAD), &payload[..payload.len() / 2]).unwrap();
    refused(
        &gpu_on(&truncated, &["--cpu-only"]),
        "is truncated or corrupted",
    );

    let corrupted = copy("corrupted");
    let mut bytes = payload.clone();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x5a;
    std::fs::write(corrupted.join(PAYLOAD), bytes).unwrap();
    refused(
        &gpu_on(&corrupted, &["--cpu-only"]),
        "is truncated or corrupted",
    );

    let foreign = copy("foreign");
    let manifest = std::fs::read_to_string(foreign.join("manifest.json")).unwrap();
    std::fs::write(
        foreign.join("manifest.json"),
        manifest.replace(&format!("\"version\": {VERSION}"), "\"version\": 999"),
    )
    .unwrap();
    refused(
        &gpu_on(&foreign, &["--cpu-only"]),
        "bundle format version 999 is not this gmrace-gpu's",
    );

    let other = copy("other");
    std::fs::write(other.join("manifest.json"), "{\"format\": \"zip\"}").unwrap();
    refused(&gpu_on(&other, &["--cpu-only"]), "not a gmrace bundle");

    refused(
        &gpu_on(&root.join("missing"), &["--cpu-only"]),
        "not a gmrace bundle",
    );

    // A payload whose hash was recomputed but which decodes to something else.
    let forged = copy("forged");
    std::fs::write(forged.join(PAYLOAD), b"\xa1\x61x\x01").unwrap();
    let manifest = std::fs::read_to_string(good.join("manifest.json")).unwrap();
    let hash = gmrace_runtime_cuda::bundle::payload_hash(b"\xa1\x61x\x01");
    let start = manifest.find("\"payload_hash\": \"").unwrap() + 17;
    let forged_manifest = format!("{}{hash}{}", &manifest[..start], &manifest[start + 16..]);
    std::fs::write(forged.join("manifest.json"), forged_manifest).unwrap();
    refused(&gpu_on(&forged, &["--cpu-only"]), "cannot decode");

    // A bad bundle among good ones: those run, the status is 2.
    let o = run(Command::new(gmrace_gpu())
        .args(["--cpu-only", "--quiet"])
        .arg(&good)
        .arg(&truncated));
    refused(&o, "is truncated or corrupted");
    assert!(String::from_utf8_lossy(&o.stdout).contains("inter-warp race on shared memory `s`"));
    std::fs::remove_dir_all(root).ok();
}

#[test]
fn without_a_driver_the_gpu_run_is_refused() {
    if gmrace_runtime_cuda::cuda::probe::driver_present() {
        eprintln!("a CUDA driver is installed on this machine: its absence cannot be tested");
        return;
    }
    let root = scratch("no-driver");
    let bundle = small_bundle(&root);
    refused(
        &gpu_on(&bundle, &[]),
        "no usable CUDA driver: no CUDA driver",
    );
    let o = gpu_on(&bundle, &[]);
    assert!(text(&o).contains("--cpu-only runs the CPU device alone"));
    std::fs::remove_dir_all(root).ok();
}

#[test]
fn dump_buffers_writes_the_reported_runs_buffers() {
    let root = scratch("dump");
    let bundle = small_bundle(&root);
    let dump = root.join("dump");
    let o = gpu_on(
        &bundle,
        &[
            "--cpu-only",
            "--quiet",
            "--dump-buffers",
            dump.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let index = std::fs::read_to_string(dump.join("index.json")).unwrap();
    assert!(index.contains("\"out\""), "{index}");
    assert!(dump.join("out.bin").exists());
    std::fs::remove_dir_all(root).ok();
}

/// What the GPU machine needs: the C runtime (libcuda and NVRTC are loaded when it runs), and
/// nothing of the front end, the solvers or the instrumenter in the build.
#[test]
fn gmrace_gpu_needs_only_the_c_runtime() {
    let o = run(Command::new("ldd").arg(gmrace_gpu()));
    let libs = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", text(&o));
    for line in libs.lines() {
        let name = line.split_whitespace().next().unwrap_or("");
        assert!(
            [
                "linux-vdso",
                "libc.so",
                "libm.so",
                "libgcc_s.so",
                "ld-linux",
                "/lib64/ld-linux"
            ]
            .iter()
            .any(|ok| name.starts_with(ok)),
            "`{name}` in ldd:\n{libs}"
        );
    }
    let o = run(Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            "gmrace-gpu",
            "-e",
            "normal,build",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    let tree = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", text(&o));
    assert!(tree.contains("gmrace-runtime-cuda"), "{tree}");
    for banned in [
        "clang-sys",
        "z3-sys",
        "good_lp",
        "gmrace-analyzer",
        "gmrace-instrumenter",
    ] {
        assert!(
            !tree.contains(banned),
            "`{banned}` in gmrace-gpu's tree:\n{tree}"
        );
    }
}

/// A bundle carries what it needs: made from a copy of a kernel (with a user header) that is
/// then deleted, it prints the same report, excerpts included.
#[test]
fn a_bundle_runs_where_the_users_files_are_not() {
    let root = scratch("moved");
    let src = root.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let k = kernels();
    let kernel = std::fs::read_to_string(k.join("analysis/reduce_seq_race.cu")).unwrap();
    std::fs::write(src.join("size.h"), "#define EXTRA 0\n").unwrap();
    std::fs::write(src.join("k.cu"), format!("#include \"size.h\"\n{kernel}")).unwrap();
    std::fs::copy(k.join("device/reduce_seq_fixed.toml"), src.join("k.toml")).unwrap();
    let (cu, spec) = (src.join("k.cu"), src.join("k.toml"));
    let bundle = root.join("b");
    let args = ["--all", "--bundle", bundle.to_str().unwrap()];
    assert_eq!(gmrace_run(&cu, &spec, "stmt", &args).status.code(), Some(0));
    let direct = gmrace_run(&cu, &spec, "stmt", &["--all", "--backend", "emu"]);
    assert_eq!(direct.status.code(), Some(1), "{}", text(&direct));
    let report = String::from_utf8_lossy(&direct.stdout).into_owned();
    assert!(report.contains("race found by the run"), "{report}");
    assert!(
        report.contains("s[t] += s[t + stride]; // RACE"),
        "{report}"
    );
    std::fs::remove_dir_all(&src).unwrap();
    let o = gpu_on(&bundle, &["--cpu-only"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), report);
    assert_eq!(o.status.code(), Some(1));
    std::fs::remove_dir_all(root).ok();
}
