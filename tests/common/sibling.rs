//! The other binary of a two-binary test (`gmrace` beside `gmrace-gpu`), which cargo builds
//! for its own package's tests only: `cargo test --workspace` builds both before any test runs,
//! a narrower `cargo test -p` may leave the other one stale. A stale binary would test old
//! code, so it is refused: it must be newer than every source file of the crates it is built
//! from.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// `name` beside `built` (a binary cargo built for this test), checked fresh against the
/// sources of `crates` (workspace directories).
pub fn fresh_sibling(built: &str, name: &str, crates: &[&str]) -> PathBuf {
    let path = Path::new(built).with_file_name(name);
    let hint = format!("build it first: `cargo build -p {name}` with this test's profile");
    let made = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|_| panic!("{} is not built: {hint}", path.display()));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for c in crates {
        if let Some(newer) = newest(&root.join(c)).filter(|(t, _)| *t > made) {
            panic!(
                "{} is older than {}: {hint}",
                path.display(),
                newer.1.display()
            );
        }
    }
    path
}

/// The newest source file under `dir` (but its `tests/`) and its time.
fn newest(dir: &Path) -> Option<(SystemTime, PathBuf)> {
    let mut best: Option<(SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        // Tests are not built into the binary.
        let found = if p.is_dir() && !p.ends_with("tests") {
            newest(&p)
        } else if p.is_dir() {
            None
        } else if p
            .extension()
            .is_some_and(|x| ["rs", "toml", "cuh", "h"].iter().any(|k| x == *k))
        {
            e.metadata().and_then(|m| m.modified()).ok().map(|t| (t, p))
        } else {
            None
        };
        if let Some(f) = found.filter(|f| best.as_ref().is_none_or(|b| f.0 > b.0)) {
            best = Some(f);
        }
    }
    best
}
