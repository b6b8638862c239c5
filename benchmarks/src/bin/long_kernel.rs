//! `long-kernel [N...]`: time and peak memory of `gmrace analyze` on kernels of N statements
//! `a[threadIdx.x] += i;` (default 500, 1000, 2000, 5000), with no launch dimensions: the
//! shape that once made the analysis quadratic in memory. `--gmrace` defaults to `$GMRACE`,
//! else `target/release/gmrace`. Prints a Markdown table.

use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn kernel(statements: usize) -> String {
    let mut s = String::from("__global__ void k(int *a) {\n");
    for i in 0..statements {
        let _ = writeln!(s, "  a[threadIdx.x] += {i};");
    }
    s + "}\n"
}

/// The largest resident set of any child waited for so far, in MiB.
fn children_peak_mib() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

fn row(gmrace: &Path, dir: &Path, statements: usize) -> Result<String, String> {
    let file = dir.join(format!("long{statements}.cu"));
    std::fs::write(&file, kernel(statements)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let out = Command::new(gmrace)
        .args(["analyze", &file.display().to_string(), "--format", "json"])
        .output()
        .map_err(|e| format!("{}: {e}", gmrace.display()))?;
    let wall = start.elapsed().as_secs_f64();
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let accesses = v["kernels"][0]["accesses"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let count = |verdict: &str| accesses.iter().filter(|a| a["verdict"] == verdict).count();
    Ok(format!(
        "| {statements} | {} | {} | {} | {} | {wall:.2} | {:.0} |",
        accesses.len(),
        count("safe"),
        count("racy"),
        count("unknown"),
        children_peak_mib()
    ))
}

fn main() {
    let mut gmrace = std::env::var_os("GMRACE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/release/gmrace"));
    let mut sizes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), a.parse::<usize>()) {
            ("--gmrace", _) => gmrace = args.next().map(PathBuf::from).unwrap_or(gmrace),
            (_, Ok(n)) => sizes.push(n),
            _ => {
                eprintln!("usage: long-kernel [--gmrace PATH] [N...]");
                std::process::exit(2);
            }
        }
    }
    if sizes.is_empty() {
        sizes = vec![500, 1000, 2000, 5000];
    }
    sizes.sort();
    let dir = std::env::temp_dir().join(format!("gmrace-long-kernel-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(2);
    }
    println!("| statements | accesses | safe | racy | unknown | wall s | peak MiB |");
    println!("|--:|--:|--:|--:|--:|--:|--:|");
    // Increasing sizes: the children's peak is then the last one's.
    for n in sizes {
        match row(&gmrace, &dir, n) {
            Ok(r) => println!("{r}"),
            Err(e) => eprintln!("{n} statements: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
