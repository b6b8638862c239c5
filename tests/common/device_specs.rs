//! The launch specs of `tests/kernels/device/`, in path order, each with the kernel file its
//! first line names (`# analysis/k_fixed.cu: ...`): what the tests that run the corpus kernels
//! through the binary (`cli/tests/dynamic.rs`, `gpu/tests/bundle.rs`) walk.

use std::path::{Path, PathBuf};

/// `(spec, the first line's file as written)`; a spec whose first line names no file has `None`.
pub fn device_specs(kernels: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(kernels.join("device"))
        .expect("kernels/device")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    specs
        .into_iter()
        .map(|spec| {
            let text = std::fs::read_to_string(&spec).expect("spec");
            let rel = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# "))
                .and_then(|l| l.split([' ', ':']).next())
                .map(str::to_string);
            (spec, rel)
        })
        .collect()
}
