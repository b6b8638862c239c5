//! The stand-in CUDA headers compile every header test file with the exact clang command that
//! gmrace and DESIGN.md use, both for parsing and for PTX generation, with no CUDA toolkit.

use std::path::Path;
use std::process::Command;

#[test]
fn stand_in_headers_compile_to_ptx_without_a_toolkit() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/check-headers.sh");
    let out = Command::new("sh")
        .arg(&script)
        .env("CLANG", "clang")
        .output()
        .expect("run check-headers.sh (is Debian's `clang` installed? scripts/setup.sh does it)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(", 0 failed"), "{stdout}");
}
