//! Source text as it comes: bytes that are not UTF-8, tabs and multibyte characters before a
//! located access.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gmrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .output()
        .expect("run gmrace")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory of its own for each test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.display().to_string()
}

/// A run that ended by itself (no signal, no panic) with `code`.
fn assert_exit(o: &Output, code: i32, what: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// Latin-1 `é` (0xE9) in comments of a kernel and of the header it includes.
const LATIN1_KERNEL: &[u8] =
    b"// caf\xe9\n#include \"latin1.h\"\n__global__ void k(int *a) {\n  /* d\xe9j\xe0 */ a[0] = threadIdx.x;\n  put(a);\n}\n";
const LATIN1_HEADER: &[u8] =
    b"// ent\xeate\n__device__ void put(int *a) { a[1] = -(int)threadIdx.x; }\n";

#[test]
fn latin1_sources_are_shown_with_replacement_characters_in_every_command_and_format() {
    let dir = temp_dir("latin1");
    write(&dir, "latin1.h", LATIN1_HEADER);
    let cu = write(&dir, "latin1.cu", LATIN1_KERNEL);
    let launch = ["--block", "32", "--grid", "1"];
    let warned = |o: &Output, file: &str| {
        let err = text(&o.stderr);
        let expected = format!("{file}` is not valid UTF-8; invalid bytes shown as U+FFFD");
        assert!(err.contains(&expected), "{err}");
    };

    let o = gmrace(&[&["analyze", cu.as_str()][..], &launch].concat());
    assert_exit(&o, 1, "analyze");
    warned(&o, "latin1.cu");
    warned(&o, "latin1.h");
    let out = text(&o.stdout);
    assert!(out.contains("intra-warp race"), "{out}");
    assert!(out.contains("/* d\u{fffd}j\u{fffd} */ a[0]"), "{out}");

    for format in ["json", "sarif"] {
        let o = gmrace(&[&["analyze", cu.as_str(), "--format", format][..], &launch].concat());
        assert_exit(&o, 1, format);
        warned(&o, "latin1.cu");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect(format);
        assert!(v.to_string().contains("intra-warp"), "{v}");
    }

    let o = gmrace(&["ir", &cu]);
    assert_exit(&o, 0, "ir");
    warned(&o, "latin1.h");
    assert!(text(&o.stdout).contains("kernel k"), "{}", text(&o.stdout));

    let o = gmrace(&[&["analyze", dir.to_str().expect("path")][..], &launch].concat());
    assert_exit(&o, 1, "analyze DIR");
    warned(&o, "latin1.cu");
    assert!(text(&o.stdout).contains("intra-warp race"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_invalid_byte_in_code_is_a_located_error() {
    let dir = temp_dir("latin1-code");
    let cu = write(
        &dir,
        "k.cu",
        b"__global__ void k(int *a) {\n  a[0] = 1; \xe9\n}\n",
    );
    let o = gmrace(&["analyze", &cu]);
    assert_exit(&o, 2, "analyze");
    let err = text(&o.stderr);
    assert!(err.contains("error: "), "{err}");
    assert!(err.contains("k.cu:2:"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether, in `out`, the caret (`^`, or `-` for a warning) on the line after the source line
/// containing `line` sits under the first `under` of that line, character by character (the
/// renderers print both lines with prefixes of one width).
fn caret_under(out: &str, line: &str, under: &str) -> bool {
    let lines: Vec<&str> = out.lines().collect();
    let Some(at) = lines.iter().position(|l| l.contains(line)) else {
        return false;
    };
    let Some(caret) = lines.get(at + 1) else {
        return false;
    };
    let chars_before = |s: &str, b: Option<usize>| b.map(|b| s[..b].chars().count());
    let target = chars_before(lines[at], lines[at].find(under));
    target.is_some() && target == chars_before(caret, caret.find(['^', '-']))
}

#[test]
fn carets_sit_under_the_access_after_tabs_and_multibyte_characters() {
    let dir = temp_dir("carets");
    let launch = ["--block", "32", "--grid", "1"];
    let tabs = write(
        &dir,
        "tabs.cu",
        b"__global__ void k(int *a) {\n\tif (threadIdx.x < 64) {\n\t\ta[0] = threadIdx.x;\n\t}\n}\n",
    );
    let o = gmrace(&[&["analyze", tabs.as_str()][..], &launch].concat());
    let out = text(&o.stdout);
    assert!(caret_under(&out, "a[0] = threadIdx.x;", "a[0]"), "{out}");

    let umlaut = write(
        &dir,
        "umlaut.cu",
        "__global__ void k(int *a) {\n  /* üü */ a[0] = threadIdx.x;\n}\n".as_bytes(),
    );
    let o = gmrace(&[&["analyze", umlaut.as_str()][..], &launch].concat());
    let out = text(&o.stdout);
    assert!(caret_under(&out, "/* üü */", "a[0]"), "{out}");

    // A front-end warning (rendered on stderr) on a tab-indented line.
    let asm = write(
        &dir,
        "asm.cu",
        b"__global__ void k(int *a) {\n\t\tasm(\"nop\");\n}\n",
    );
    let o = gmrace(&["ir", &asm]);
    let err = text(&o.stderr);
    assert!(
        err.contains("inline assembly") && caret_under(&err, "asm(\"nop\")", "asm"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_faults_put_the_caret_under_the_access_after_tabs_and_multibyte_characters() {
    let dir = temp_dir("fault-caret");
    let cu = write(
        &dir,
        "oob.cu",
        "__global__ void k(int *a) {\n\tif (threadIdx.x < 64) {\n\t\t/* ü */ a[threadIdx.x + 100] = 1;\n\t}\n}\n"
            .as_bytes(),
    );
    let spec = write(
        &dir,
        "oob.toml",
        b"grid = 1\nblock = 32\n[args]\na = { len = 4, init = \"zeros\" }\n",
    );
    let o = gmrace(&[
        "run",
        &cu,
        "--launch",
        &spec,
        "--mode",
        "off",
        "--backend",
        "emu",
    ]);
    let out = text(&o.stdout);
    assert!(out.contains("out-of-bounds"), "{out}{}", text(&o.stderr));
    assert!(caret_under(&out, "/* ü */", "a[threadIdx"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs gmrace, failing the test if it is still running after a minute.
fn gmrace_within_a_minute(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run gmrace");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().ok();
            panic!("gmrace {args:?} still running after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
#[test]
fn a_directory_with_link_cycles_reports_each_real_file_once() {
    let dir = temp_dir("link-cycles");
    write(
        &dir,
        "k.cu",
        b"__global__ void k(int *a) {\n  a[0] = threadIdx.x;\n}\n",
    );
    for (link, target) in [("loop", "."), ("loop2", "."), ("alias.cu", "k.cu")] {
        std::os::unix::fs::symlink(target, dir.join(link)).expect("symlink");
    }
    let o = gmrace_within_a_minute(&[
        "analyze",
        dir.to_str().expect("path"),
        "--block",
        "32",
        "--grid",
        "1",
        "--format",
        "json",
    ]);
    assert_exit(&o, 1, "analyze DIR");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let kernels = v["kernels"].as_array().expect("kernels");
    assert_eq!(kernels.len(), 1, "{v}");
    let file = kernels[0]["file"].as_str().expect("file");
    assert_eq!(Path::new(file), dir.join("k.cu"), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A kernel whose shared write's value is a sum of `terms` terms (clang nests it `terms` deep).
fn sum_kernel(terms: usize) -> Vec<u8> {
    format!(
        "__global__ void k(int *a) {{\n  __shared__ int s[32];\n  s[threadIdx.x] = s[0]{};\n  a[threadIdx.x] = s[threadIdx.x];\n}}\n",
        "+1".repeat(terms - 1)
    )
    .into_bytes()
}

#[test]
fn expressions_nested_too_deeply_are_a_located_error_not_a_crash() {
    let dir = temp_dir("deep");
    for terms in [6000, 100_000] {
        let cu = write(&dir, &format!("sum{terms}.cu"), &sum_kernel(terms));
        for command in ["ir", "analyze"] {
            let o = gmrace(&[command, &cu]);
            assert_exit(&o, 2, command);
            let err = text(&o.stderr);
            let levels = format!("error: expression nested too deeply ({}", terms + 3);
            assert!(err.contains(&levels), "{err:.2000}");
            assert!(err.contains(" levels; limit 2000)"), "{err:.2000}");
            assert!(err.contains(&format!("sum{terms}.cu:3:3")), "{err:.2000}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// An expression just within the limit goes through every stage that recurses over it.
#[test]
fn an_expression_just_within_the_nesting_limit_survives_every_command() {
    let dir = temp_dir("deep-ok");
    let cu = write(&dir, "sum.cu", &sum_kernel(1990));
    let spec = write(
        &dir,
        "sum.toml",
        b"grid = 1\nblock = 32\n[args]\na = { len = 32, init = \"zeros\" }\n",
    );
    let out = dir.join("sum.gmrace.cu").display().to_string();
    let runs: [&[&str]; 7] = [
        &["ir"],
        &["ir", "--format", "json"],
        &["analyze", "--format", "json"],
        &[
            "analyze", "--format", "sarif", "--block", "32", "--grid", "1",
        ],
        &["instrument", "--mode", "stmt", "--block", "32", "-o", &out],
        &[
            "run",
            "--launch",
            &spec,
            "--mode",
            "stmt",
            "--all",
            "--backend",
            "emu",
        ],
        &[
            "run",
            "--launch",
            &spec,
            "--mode",
            "off",
            "--backend",
            "emu",
        ],
    ];
    for args in runs {
        let o = gmrace(&[&[args[0], cu.as_str()][..], &args[1..]].concat());
        // 0 or 1 (a race, as far as the solver gets in its time): the command did its job.
        let err = text(&o.stderr);
        let what = args.join(" ");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Clang counts an included file's invalid bytes as one column each; the text shown has a
/// three-byte U+FFFD for each, and the caret must still land on the code.
#[test]
fn carets_in_a_latin1_header_sit_under_the_code() {
    let dir = temp_dir("latin1-header-caret");
    write(
        &dir,
        "asm.h",
        b"// \xe9\n__device__ void f(int *a) {\n  /* \xe9\xe9 */ asm(\"nop\"); a[1] = 2;\n}\n",
    );
    let cu = write(
        &dir,
        "k.cu",
        b"#include \"asm.h\"\n__global__ void k(int *a) { f(a); }\n",
    );
    let o = gmrace(&["ir", &cu]);
    assert_exit(&o, 0, "ir");
    let err = text(&o.stderr);
    assert!(caret_under(&err, "asm(\"nop\")", "asm"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
