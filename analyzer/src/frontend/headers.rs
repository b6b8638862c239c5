//! gmrace's stand-in CUDA headers, embedded in the binary and written once to a cache directory
//! named after their content, so concurrent processes and different versions never collide.
//! The headers are the sources of `analyzer/include/`: qualifiers, clang's builtin variables,
//! vector types, atomics, warp intrinsics, device math, textures, cooperative groups, the host
//! runtime and driver API, GPUVerify annotations. They must compile to PTX with DESIGN.md's clang
//! command (`analyzer/tests/headers.rs` runs `check-headers.sh`).
//!
//! They are passed with `-isystem`, so "declared in a system header" is what identifies a CUDA
//! library function.
//!
//! The directory holds a `CACHEDIR.TAG`: the search for a project's headers
//! (`project_headers`), which may go up into the temporary directory from a file there, never
//! takes gmrace's own headers for the project's.

use include_dir::{include_dir, Dir};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::OnceLock;

static HEADERS: Dir = include_dir!("$CARGO_MANIFEST_DIR/include");

/// The directory holding the headers, written on first use.
pub fn include_dir() -> std::io::Result<PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| materialize().map_err(|e| e.to_string()))
        .clone()
        .map_err(std::io::Error::other)
}

fn headers() -> impl Iterator<Item = &'static include_dir::File<'static>> {
    fn walk(d: &'static Dir<'static>, out: &mut Vec<&'static include_dir::File<'static>>) {
        out.extend(
            d.files()
                .filter(|f| f.path().extension().is_none_or(|e| e != "sh")),
        );
        for sub in d
            .dirs()
            .filter(|s| s.path() != std::path::Path::new("tests"))
        {
            walk(sub, out);
        }
    }
    let mut out = Vec::new();
    walk(&HEADERS, &mut out);
    out.into_iter()
}

fn materialize() -> std::io::Result<PathBuf> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in headers() {
        f.path().hash(&mut hasher);
        f.contents().hash(&mut hasher);
    }
    let dir = std::env::temp_dir().join(format!("gmrace-include-{:016x}", hasher.finish()));
    for f in headers() {
        let dest = dir.join(f.path());
        if std::fs::read(&dest).ok().as_deref() == Some(f.contents()) {
            continue;
        }
        std::fs::create_dir_all(dest.parent().unwrap_or(&dir))?;
        // Write then rename: another process may be reading the same file right now.
        let tmp = dest.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, f.contents())?;
        std::fs::rename(&tmp, &dest)?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_header_directory_is_tagged_as_a_cache() {
        let tag = std::fs::read_to_string(super::include_dir().unwrap().join("CACHEDIR.TAG"));
        assert!(tag
            .unwrap()
            .starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
    }
}
