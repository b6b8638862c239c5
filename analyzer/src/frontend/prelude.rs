//! What every parse with one set of headers shares: the language arguments, the header
//! force-included before the file (the stand-ins' `gmrace_prelude.h`; with a toolkit,
//! `toolkit/gmrace_toolkit_prelude.h`: GPUVerify's specification language and nvcc's reading of
//! the launch templates, since clang's CUDA wrapper includes the toolkit's runtime as nvcc
//! does), and that header precompiled.
//!
//! With a toolkit the stand-ins' directory is not on the search path at all, so that every
//! `#include <cuda_runtime.h>` of the file reaches the toolkit. Only `toolkit/` is, with
//! `-isystem` ahead of the toolkit (its declarations stay system declarations, which lowering
//! leaves alone): the prelude, and gmrace's models of `<cuda/atomic>`, `<cuda_fp16.h>` and
//! `<cuda_bf16.h>`, read instead of the toolkit's inline PTX.
//!
//! The precompiled prelude is saved next to the headers, whose directory is named by their
//! contents, once per libclang (an AST file is only readable by the libclang that wrote it),
//! language standard and GPU architecture (a build's own, else C++17 and `sm_70`), and, with a
//! toolkit, per toolkit root and version.
//!
//! In both cases `pytorch/` is searched last: declarations of PyTorch's C++ API, for the host
//! functions of extensions that take tensors (`pytorch/gmrace_pytorch.h`).

use super::recovery::{precompiled_clash, ClangError};
use super::{library, BuildFlags, Headers};
use clang::{Index, TranslationUnit, Unsaved};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

pub(super) struct Prelude {
    /// Force-included before the file, found through `args`' system path.
    pub header: &'static str,
    /// The language and the headers: all that the precompiled prelude depends on.
    pub args: Vec<String>,
    /// Where the precompiled prelude is kept.
    pch: PathBuf,
    /// The stand-ins' directory, where the wrapper that precompiles the prelude is named.
    include: PathBuf,
}

impl Prelude {
    pub fn new(include: &Path, headers: &Headers, build: &BuildFlags) -> Prelude {
        let std = build.std.as_deref().unwrap_or("c++17");
        let arch = readable_arch(build.gpu_arch.as_deref().unwrap_or("sm_70")).0;
        let mut args = vec![format!("-std={std}"), format!("--cuda-gpu-arch={arch}")];
        args.extend(LANGUAGE.iter().map(|s| s.to_string()));
        // Precompiled once per language: `c++17_sm_70`.
        let language: String = format!("{std}_{arch}")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let clang: String = clang::get_version()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let (header, pch) = match headers {
            Headers::StandIns => {
                args.push("-nocudainc".into());
                args.push(format!("-isystem{}", include.display()));
                let pch = format!("gmrace_prelude.{language}.{clang}.pch");
                ("gmrace_prelude.h", pch)
            }
            Headers::Toolkit { root, version } => {
                args.push(format!("--cuda-path={}", root.display()));
                // In a device-only parse clang takes the launch ABI from the SDK version, which
                // it is not told; CUDA 12 has no `cudaConfigureCall` any more.
                if version.contains('.') {
                    args.push("-Xclang".into());
                    args.push(format!("-target-sdk-version={version}"));
                }
                args.push(format!("-isystem{}", include.join("toolkit").display()));
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                (root, version).hash(&mut hasher);
                let key = hasher.finish();
                (
                    "gmrace_toolkit_prelude.h",
                    format!("gmrace_toolkit.{key:016x}.{clang}.pch"),
                )
            }
        };
        // PyTorch's API for extensions, after every other directory (`gmrace_pytorch.h`).
        args.push(format!("-idirafter{}", include.join("pytorch").display()));
        Prelude {
            header,
            args,
            pch: include.join(pch),
            include: include.to_path_buf(),
        }
    }

    /// The prelude precompiled (most of a small file's parse time is the prelude), made on
    /// first use; `None` when it cannot be made, and every file then includes the prelude
    /// itself.
    pub fn pch(&self, index: &Index) -> Option<PathBuf> {
        self.precompiled(index, &self.pch, &[], &self.args)
    }

    /// The prelude and the C++ library `headers` precompiled (`library`), for a file whose
    /// command line adds `extra` to the prelude's arguments (all of it but the file's own
    /// directory: the library is found before it); `None` as `pch`, and `None` the first time
    /// a set is asked for, unless it was made before. Precompiling and reading back takes
    /// longer than the file reading its headers itself (0.4 s at the median of 80 HeCBench
    /// files); it pays from a set's second file on, and most sets of a collection of small
    /// programs have one file.
    pub fn library_pch(
        &self,
        index: &Index,
        headers: &[&str],
        extra: &[String],
    ) -> Option<PathBuf> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.pch, headers, extra).hash(&mut hasher);
        let name = format!("{LIBRARY_PCH}{:016x}.pch", hasher.finish());
        let pch = self.include.join(name);
        let made = !pch.is_file();
        if !recently_used(&pch.with_extension(SEEN)) && made {
            forget_least_used(&self.include, SEEN, MAX_SETS_SEEN);
            return None;
        }
        let mut args = self.args.clone();
        args.extend(extra.iter().cloned());
        let pch = self.precompiled(index, &pch, headers, &args)?;
        match made {
            true => forget_least_used(&self.include, "pch", MAX_LIBRARY_PCHS),
            false => _ = recently_used(&pch),
        }
        Some(pch)
    }

    /// `pch`, made from the prelude and `headers` parsed with `args` unless it exists; `None`
    /// when clang cannot make it or reports an error.
    fn precompiled(
        &self,
        index: &Index,
        pch: &Path,
        headers: &[&str],
        args: &[String],
    ) -> Option<PathBuf> {
        if pch.is_file() {
            return Some(pch.to_path_buf());
        }
        // Included through the system path, as `-include` does, so that the prelude's
        // declarations stay system declarations.
        let wrapper = self.include.join("gmrace_pch.h");
        let text: String = std::iter::once(self.header)
            .chain(headers.iter().copied())
            .map(|h| format!("#include <{h}>\n"))
            .collect();
        let tu = index
            .parser(&wrapper)
            .arguments(args)
            .unsaved(&[Unsaved::new(&wrapper, text)])
            .incomplete(true)
            .parse()
            .ok()?;
        let failed = tu.get_diagnostics().iter().any(|d| {
            use clang::diagnostic::Severity as S;
            matches!(d.get_severity(), S::Error | S::Fatal)
        });
        if failed {
            return None;
        }
        // Written then renamed: another process may be reading it.
        let tmp = pch.with_extension(format!("pch.tmp{}", std::process::id()));
        tu.save(&tmp).ok()?;
        std::fs::rename(&tmp, pch).ok()?;
        Some(pch.to_path_buf())
    }
}

/// The names of the precompiled library headers begin so.
const LIBRARY_PCH: &str = "gmrace_library.";

/// Precompiled library headers kept at most (each holds megabytes): a project's files include
/// a few sets of them.
const MAX_LIBRARY_PCHS: usize = 32;

/// What marks a set of library headers asked for before (an empty file beside where its
/// precompiled headers go), and how many such marks are kept.
const SEEN: &str = "seen";
const MAX_SETS_SEEN: usize = 1024;

/// Marks `file` used now, making it empty if it does not exist; whether it existed.
fn recently_used(file: &Path) -> bool {
    match std::fs::File::options().write(true).open(file) {
        Ok(f) => {
            // Kept when the least recently used are forgotten.
            let _ = f.set_modified(std::time::SystemTime::now());
            true
        }
        Err(_) => {
            let _ = std::fs::File::create(file);
            false
        }
    }
}

/// Removes the least recently used of the library's files with `extension` past `max`.
fn forget_least_used(include: &Path, extension: &str, max: usize) {
    let Ok(entries) = std::fs::read_dir(include) else {
        return;
    };
    let suffix = format!(".{extension}");
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(LIBRARY_PCH) && name.ends_with(&suffix)
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort();
    let excess = files.len().saturating_sub(max);
    for (_, p) in files.into_iter().take(excess) {
        // Another process may be reading it: it keeps its open file.
        let _ = std::fs::remove_file(p);
    }
}

/// The language, whatever the headers, the standard and the architecture.
const LANGUAGE: [&str; 9] = [
    "-x",
    "cuda",
    "--cuda-device-only",
    "-nocudalib",
    // Host code is allowed errors: every one is needed to tell which kernels they touch.
    "-ferror-limit=0",
    // `register` is gone from C++17; nvcc accepts it with a warning, and so does gmrace.
    "-Wno-error=register",
    "-D__GMRACE__=1",
    // threadIdx & co. as plain `uint3`/`dim3` variables (stand-ins only): clang's property-based
    // builtins lose the `.x` member in libclang when they come from a macro (`#define TX
    // threadIdx.x`).
    "-DGMRACE_PLAIN_BUILTIN_VARS",
    // clang 19 reads CUDA up to 12.5 fully and newer toolkits with a warning, not an error.
    "-Wno-unknown-cuda-version",
];

/// What each parse of a file reads before it: the prelude and the file's C++ library headers
/// precompiled, else the prelude precompiled, else the prelude itself.
pub(super) struct Precompiled {
    library: Vec<&'static str>,
    pch: Option<PathBuf>,
    with_library: bool,
}

impl Precompiled {
    /// `library`: the headers to precompile with the prelude (`library::headers`), for a file
    /// whose arguments add `extra` to the prelude's.
    pub fn new(
        prelude: &Prelude,
        index: &Index,
        library: Vec<&'static str>,
        extra: &[String],
    ) -> Precompiled {
        let pch = (!library.is_empty())
            .then(|| prelude.library_pch(index, &library, extra))
            .flatten();
        let with_library = pch.is_some();
        Precompiled {
            library,
            pch: pch.or_else(|| prelude.pch(index)),
            with_library,
        }
    }

    /// The arguments that make a parse read it, first on its command line.
    pub fn args(&self, prelude: &Prelude) -> Vec<String> {
        match &self.pch {
            Some(p) => vec!["-include-pch".to_string(), p.display().to_string()],
            None => vec!["-include".to_string(), prelude.header.to_string()],
        }
    }

    /// Whether the file must be parsed again with less precompiled, after a parse (its tree
    /// and errors, if clang gave one): when the parse could not use what was precompiled, or
    /// did not include each library header precompiled.
    pub fn parse_again(
        &mut self,
        (prelude, index): (&Prelude, &Index),
        tu: Option<&TranslationUnit>,
        errors: Option<&[ClangError]>,
    ) -> bool {
        let Some(pch) = &self.pch else {
            return false;
        };
        if errors.is_none_or(precompiled_clash) {
            if self.with_library {
                // Made for this command line: only a change of the headers it read (a system
                // update) can make it unusable, and the next file makes it anew.
                let _ = std::fs::remove_file(pch);
                self.without_library(prelude, index);
            } else {
                self.pch = None;
            }
            return true;
        }
        if self.with_library && !tu.is_some_and(|tu| library::all_included(tu, &self.library)) {
            self.without_library(prelude, index);
            return true;
        }
        false
    }

    /// From now on the prelude only: the file's library headers are read where it includes
    /// them.
    pub fn without_library(&mut self, prelude: &Prelude, index: &Index) {
        if std::mem::take(&mut self.with_library) {
            self.pch = prelude.pch(index);
        }
    }
}

/// The architecture libclang reads `arch` as, and why where it is not `arch` itself: the
/// newest this libclang knows. clang 19, which Debian's `libclang-19-dev` gives, knows nothing
/// past `sm_90a`, and a parse for `sm_100` fails without saying why ("AST deserialization
/// failed"); read as `sm_90`, only code under `__CUDA_ARCH__ >= 1000` differs, which the
/// reason says.
pub fn readable_arch(arch: &str) -> (String, Option<String>) {
    let number = |a: &str| -> Option<u32> {
        let digits: String = a
            .strip_prefix("sm_")?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    let major: Option<u32> = clang::get_version()
        .split("version ")
        .nth(1)
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse().ok());
    match (number(arch), major) {
        (Some(n), Some(m)) if m < 20 && n > 90 => (
            "sm_90".to_string(),
            Some(format!(
                "`{arch}` read as `sm_90`, the newest architecture libclang {m} knows: code only for `__CUDA_ARCH__ >= {}` is not read",
                n * 10
            )),
        ),
        _ => (arch.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    /// A set not asked for before is not precompiled; the second file that asks makes it.
    #[test]
    fn a_library_set_is_precompiled_when_asked_for_again() {
        let include = crate::frontend::include_dir().unwrap();
        let prelude = Prelude::new(&include, &Headers::StandIns, &BuildFlags::default());
        let _guard = super::super::CLANG_LOCK
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let clang = clang::Clang::new().unwrap();
        let index = Index::new(&clang, false, false);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        // A command line of its own: a set no other file asked for.
        let extra = [format!("-DGMRACE_SET_{}_{now}", std::process::id())];
        assert_eq!(prelude.library_pch(&index, &["vector"], &extra), None);
        let made = prelude.library_pch(&index, &["vector"], &extra).unwrap();
        assert!(made.is_file());
        assert_eq!(
            prelude.library_pch(&index, &["vector"], &extra),
            Some(made.clone())
        );
        std::fs::remove_file(made.with_extension(SEEN)).unwrap();
        assert_eq!(
            prelude.library_pch(&index, &["vector"], &extra),
            Some(made.clone()),
            "made before, by another file"
        );
        std::fs::remove_file(&made).unwrap();
        std::fs::remove_file(made.with_extension(SEEN)).unwrap();
    }

    #[test]
    fn the_least_recently_used_library_pchs_are_forgotten() {
        let dir = std::env::temp_dir().join(format!("gmrace-library-pchs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let count = MAX_LIBRARY_PCHS + 2;
        for i in 0..count {
            let p = dir.join(format!("{LIBRARY_PCH}{i:02}.pch"));
            let f = std::fs::File::create(p).unwrap();
            // The first file was used last, the others in their order.
            let hours = if i == 0 { count } else { i };
            f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(3600 * hours as u64))
                .unwrap();
        }
        std::fs::write(dir.join("gmrace_prelude.h"), "").unwrap();
        forget_least_used(&dir, "pch", MAX_LIBRARY_PCHS);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), MAX_LIBRARY_PCHS + 1, "{left:?}");
        assert!(left.contains(&format!("{LIBRARY_PCH}00.pch")), "used last");
        for gone in ["01", "02"] {
            assert!(
                !left.contains(&format!("{LIBRARY_PCH}{gone}.pch")),
                "{gone}"
            );
        }
        assert!(left.contains(&"gmrace_prelude.h".to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
