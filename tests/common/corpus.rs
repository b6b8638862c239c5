//! The `.cu` files of one directory of the kernel corpus, in path order.

use std::path::{Path, PathBuf};

/// `kernels/DIR/*.cu` (`DIR` relative to `tests/kernels`), sorted; panics when the directory
/// cannot be read, since a test without its corpus proves nothing.
pub fn cu_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kernels")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    files
}
