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

use super::{BuildFlags, Headers};
use clang::{Index, Unsaved};
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
        let arch = build.gpu_arch.as_deref().unwrap_or("sm_70");
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
        if self.pch.is_file() {
            return Some(self.pch.clone());
        }
        // Included through the system path, as `-include` does, so that the prelude's
        // declarations stay system declarations.
        let wrapper = self.include.join("gmrace_pch.h");
        let text = format!("#include <{}>\n", self.header);
        let tu = index
            .parser(&wrapper)
            .arguments(&self.args)
            .unsaved(&[Unsaved::new(&wrapper, text)])
            .incomplete(true)
            .parse()
            .ok()?;
        // Written then renamed: another process may be reading it.
        let tmp = self
            .pch
            .with_extension(format!("pch.tmp{}", std::process::id()));
        tu.save(&tmp).ok()?;
        std::fs::rename(&tmp, &self.pch).ok()?;
        Some(self.pch.clone())
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
