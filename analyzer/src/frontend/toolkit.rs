//! Which CUDA headers a parse reads: a real toolkit's when one is found (DESIGN.md's order:
//! `--cuda-path`, `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`), gmrace's stand-ins otherwise.
//!
//! A toolkit is handed to clang as `--cuda-path`, so clang's own CUDA wrapper headers include
//! it exactly as a clang build of the project would; clang wants the root's `include/` and
//! `bin/`. Its version is read from `include/cuda.h` (`CUDA_VERSION 12040` is "12.4"), for
//! the report and to key the precompiled prelude. A directory named explicitly that is not a
//! toolkit is an error; one found through the environment that is not is skipped, since a
//! stale variable should not stop an analysis that the stand-ins can do.

use std::path::{Path, PathBuf};

/// The CUDA headers the front end reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Headers {
    #[default]
    StandIns,
    /// A toolkit's root directory and its version (`12.4`, or `unknown version`).
    Toolkit { root: PathBuf, version: String },
}

impl Headers {
    /// As reports name them: `stand-ins`, or `toolkit 12.4 (/usr/local/cuda)`.
    pub fn describe(&self) -> String {
        match self {
            Headers::StandIns => "stand-ins".to_string(),
            Headers::Toolkit { root, version } => {
                format!("toolkit {version} ({})", root.display())
            }
        }
    }

    /// The toolkit at `root`, or why it is not one.
    pub fn toolkit(root: &Path) -> Result<Headers, String> {
        let shown = root.display();
        let runtime = root.join("include").join("cuda_runtime.h");
        if !runtime.is_file() {
            return Err(format!(
                "`{shown}` is not a CUDA toolkit: `{}` not found",
                runtime.display()
            ));
        }
        if !root.join("bin").is_dir() {
            return Err(format!(
                "`{shown}` is not a CUDA toolkit: it has no `bin` directory (clang looks for one)"
            ));
        }
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let version = std::fs::read_to_string(root.join("include").join("cuda.h"))
            .ok()
            .and_then(|h| version_of(&h))
            .unwrap_or_else(|| "unknown version".to_string());
        Ok(Headers::Toolkit { root, version })
    }

    /// The headers DESIGN.md's search finds: `explicit` (an error when it is not a toolkit),
    /// else the first toolkit named by `CUDA_PATH`, `CUDA_HOME` or at `/usr/local/cuda`, else
    /// the stand-ins.
    pub fn find(explicit: Option<&Path>) -> Result<Headers, String> {
        if let Some(root) = explicit {
            return Headers::toolkit(root);
        }
        let from_env = ["CUDA_PATH", "CUDA_HOME"]
            .into_iter()
            .filter_map(std::env::var_os)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        Ok(from_env
            .chain(std::iter::once(PathBuf::from("/usr/local/cuda")))
            .find_map(|root| Headers::toolkit(&root).ok())
            .unwrap_or_default())
    }
}

/// `#define CUDA_VERSION 12040` as `12.4`.
fn version_of(cuda_h: &str) -> Option<String> {
    let n: u32 = cuda_h.lines().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some("#define") && words.next() == Some("CUDA_VERSION"))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })?;
    Some(format!("{}.{}", n / 1000, n % 1000 / 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_as_nvcc_prints_them() {
        assert_eq!(
            version_of("#ifndef X\n#define CUDA_VERSION 12040\n").as_deref(),
            Some("12.4")
        );
        assert_eq!(
            version_of("#define CUDA_VERSION 13000").as_deref(),
            Some("13.0")
        );
        assert_eq!(version_of("#define CUDA_VERSION_X 1"), None);
    }

    #[test]
    fn a_directory_without_the_runtime_header_is_not_a_toolkit() {
        let dir = std::env::temp_dir().join(format!("gmrace-not-a-toolkit-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("include")).unwrap();
        let err = Headers::toolkit(&dir).unwrap_err();
        assert!(err.contains("cuda_runtime.h"), "{err}");
        std::fs::write(dir.join("include/cuda_runtime.h"), "").unwrap();
        let err = Headers::toolkit(&dir).unwrap_err();
        assert!(err.contains("bin"), "{err}");
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("include/cuda.h"), "#define CUDA_VERSION 12040\n").unwrap();
        let found = Headers::toolkit(&dir).unwrap();
        assert!(found.describe().starts_with("toolkit 12.4 ("), "{found:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
