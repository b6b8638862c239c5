//! NVRTC: device source to a module image for the GPU, plus the lowered (mangled) names of the
//! kernel and variables the host looks up.
//!
//! cudarc's safe `compile_ptx` gives PTX only and takes neither in-memory headers nor name
//! expressions, so this goes through `cudarc::nvrtc::sys`. The image is a CUBIN for the GPU's
//! architecture (`sm_XY`) when NVRTC knows it (the driver then never has to JIT a PTX version
//! newer than it knows), else a CUBIN of the same major and a lower minor (binary compatible),
//! else PTX for the newest architecture NVRTC knows, which the (newer) driver JITs.
//!
//! Options: `-std=c++17`, line info, no float contraction (so that both devices compute the
//! same bits), the file's directory, `-I`, a toolkit's `include/` when one
//! is installed (for `cooperative_groups.h`), `-D` and the GPUVerify header's defines. Name
//! expressions give the lowered name of the kernel and of each global the launch writes or the
//! run reads.
//!
//! What NVRTC cannot compile without a toolkit: texture references (gone from CUDA 12),
//! GPUVerify's vector operators, cuRAND, and pre-Volta warp intrinsics.
//! Kernels are C++ functions (not `extern "C"`), and may be template instantiations
//! (`stage<512>`): their symbol is what `nvrtcGetLoweredName` says for the name expression
//! `&name`.

use crate::DeviceError;
use cudarc::nvrtc::sys;
use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};

/// What NVRTC is asked to produce, by architecture number (`86` for sm_86).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Cubin(i32),
    Ptx(i32),
}

impl Target {
    fn option(self) -> String {
        match self {
            Target::Cubin(a) => format!("--gpu-architecture=sm_{a}"),
            Target::Ptx(a) => format!("--gpu-architecture=compute_{a}"),
        }
    }
}

/// The target for a GPU of compute capability `cc`, given the architectures NVRTC supports:
/// its own; else a CUBIN of the same major version and a lower minor (binary compatible);
/// else PTX for the newest supported architecture below it, from sm_70 on.
pub fn target(cc: (i32, i32), supported: &[i32]) -> Result<Target, DeviceError> {
    let sm = cc.0 * 10 + cc.1;
    if supported.contains(&sm) {
        return Ok(Target::Cubin(sm));
    }
    match supported
        .iter()
        .copied()
        .filter(|&a| (70..sm).contains(&a))
        .max()
    {
        Some(a) if a / 10 == sm / 10 => Ok(Target::Cubin(a)),
        Some(a) => Ok(Target::Ptx(a)),
        None => Err(DeviceError::plain(format!(
            "this NVRTC compiles for none of sm_70 to sm_{sm} (it supports {}); install the \
             NVRTC of a CUDA 12 toolkit",
            supported
                .iter()
                .map(|a| format!("sm_{a}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// A loadable module image.
pub enum Image {
    Cubin(Vec<u8>),
    Ptx(String),
}

/// The compiled module and the symbol of each requested name, in request order.
pub struct Compiled {
    pub image: Image,
    pub lowered: Vec<String>,
}

/// NVRTC's version and the architectures it compiles for (`nvrtcGetSupportedArchs`, NVRTC
/// 11.2 and later; older ones are refused before any other call).
pub fn version_and_archs() -> Result<((i32, i32), Vec<i32>), DeviceError> {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loadable (the caller checked); nvrtcVersion exists in every NVRTC and
    // writes two ints.
    check(
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) },
        "nvrtcVersion",
    )?;
    if (major, minor) < (11, 2) {
        return Err(DeviceError::plain(format!(
            "NVRTC {major}.{minor} is too old: gmrace needs 11.2 or later"
        )));
    }
    let mut n = 0;
    // SAFETY: present from NVRTC 11.2 on (checked above); writes one int.
    check(
        unsafe { sys::nvrtcGetNumSupportedArchs(&mut n) },
        "nvrtcGetNumSupportedArchs",
    )?;
    let mut archs = vec![0i32; n.max(0) as usize];
    // SAFETY: `archs` has the length NVRTC gave.
    check(
        unsafe { sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) },
        "nvrtcGetSupportedArchs",
    )?;
    Ok(((major, minor), archs))
}

/// NVRTC options for `target`: the architecture, C++17, line information, include
/// directories (the file's own first, then `-I`, then a CUDA toolkit's headers when one is
/// installed) and macro definitions.
pub fn options(
    target: Target,
    file: &Path,
    include_dirs: &[PathBuf],
    defines: &[(String, Option<String>)],
    toolkit_include: Option<&Path>,
) -> Vec<String> {
    let mut o = vec![
        target.option(),
        "-std=c++17".to_string(),
        "--generate-line-info".to_string(),
        // The CPU device rounds every float operation (`-fmad=false` in nvcc's terms); with
        // contraction (nvcc's default) an H200's matmul differed from it in the last bits.
        "--fmad=false".to_string(),
    ];
    let own_dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    for d in own_dir
        .into_iter()
        .chain(include_dirs.iter().map(PathBuf::as_path))
    {
        o.push(format!("--include-path={}", d.display()));
    }
    if let Some(t) = toolkit_include {
        o.push(format!("--include-path={}", t.display()));
        // CUDA 13 moved CCCL (`cuda/atomic`, `cub/`, `thrust/`) into `include/cccl`.
        let cccl = t.join("cccl");
        if cccl.is_dir() {
            o.push(format!("--include-path={}", cccl.display()));
        }
    }
    for (n, v) in defines {
        o.push(match v {
            Some(v) => format!("--define-macro={n}={v}"),
            None => format!("--define-macro={n}"),
        });
    }
    o
}

/// A CUDA toolkit's include directory (`$CUDA_HOME`, `$CUDA_PATH`, `/usr/local/cuda`), for
/// headers NVRTC does not build in (`cooperative_groups.h`, `cuda/std/...`; CUDA 13 keeps the
/// latter in its `cccl/` subdirectory, which `options` adds).
pub fn toolkit_include() -> Option<PathBuf> {
    ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var_os(v).map(PathBuf::from))
        .chain([PathBuf::from("/usr/local/cuda")])
        .map(|root| root.join("include"))
        .find(|d| d.join("cuda_runtime.h").is_file())
}

/// Destroys the program however compilation ends.
struct Program(sys::nvrtcProgram);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the handle came from nvrtcCreateProgram and is destroyed once.
        unsafe {
            sys::nvrtcDestroyProgram(&mut self.0);
        }
    }
}

fn cstring(what: &str, s: &str) -> Result<CString, DeviceError> {
    CString::new(s).map_err(|_| DeviceError::plain(format!("{what} contains a NUL byte")))
}

fn check(r: sys::nvrtcResult, call: &str) -> Result<(), DeviceError> {
    r.result()
        .map_err(|e| DeviceError::plain(format!("NVRTC: {call} failed: {e:?}")))
}

/// Compiles `text` (named `file` in messages) with in-memory `headers` (include name,
/// contents) and `options` (from [`options`], whose target decides between CUBIN and PTX),
/// and lowers each of `names` (name expressions such as `&k`).
pub fn compile(
    text: &str,
    file: &str,
    headers: &[(String, String)],
    options: &[String],
    names: &[String],
) -> Result<Compiled, DeviceError> {
    let want_ptx = options
        .iter()
        .any(|o| o.starts_with("--gpu-architecture=compute_"));
    let src = cstring("the source", text)?;
    let file_c = cstring("the file name", file)?;
    let header_text = headers
        .iter()
        .map(|(n, t)| cstring(&format!("header `{n}`"), t))
        .collect::<Result<Vec<_>, _>>()?;
    let header_names = headers
        .iter()
        .map(|(n, _)| cstring("a header name", n))
        .collect::<Result<Vec<_>, _>>()?;
    let text_ptrs: Vec<*const c_char> = header_text.iter().map(|c| c.as_ptr()).collect();
    let name_ptrs: Vec<*const c_char> = header_names.iter().map(|c| c.as_ptr()).collect();
    let exprs = names
        .iter()
        .map(|n| cstring("a name expression", n))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = options
        .iter()
        .map(|o| cstring("an option", o))
        .collect::<Result<Vec<_>, _>>()?;
    let opt_ptrs: Vec<*const c_char> = opts.iter().map(|c| c.as_ptr()).collect();

    let mut prog = Program(std::ptr::null_mut());
    // SAFETY: every pointer is to a live NUL-terminated string; the arrays have
    // `headers.len()` entries each; NVRTC copies what it keeps.
    check(
        unsafe {
            sys::nvrtcCreateProgram(
                &mut prog.0,
                src.as_ptr(),
                file_c.as_ptr(),
                headers.len() as i32,
                text_ptrs.as_ptr(),
                name_ptrs.as_ptr(),
            )
        },
        "nvrtcCreateProgram",
    )?;
    for e in &exprs {
        // SAFETY: a live program and a NUL-terminated string.
        check(
            unsafe { sys::nvrtcAddNameExpression(prog.0, e.as_ptr()) },
            "nvrtcAddNameExpression",
        )?;
    }
    // SAFETY: `opt_ptrs` has `opts.len()` live strings.
    let compiled =
        unsafe { sys::nvrtcCompileProgram(prog.0, opts.len() as i32, opt_ptrs.as_ptr()) };
    if compiled != sys::nvrtcResult::NVRTC_SUCCESS {
        return Err(DeviceError::plain(format!(
            "NVRTC could not compile the device code of `{file}` ({compiled:?}):\n{}",
            log(&prog).trim_end()
        )));
    }
    let image = if want_ptx { ptx(&prog)? } else { cubin(&prog)? };
    let mut lowered = Vec::with_capacity(exprs.len());
    for (e, n) in exprs.iter().zip(names) {
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: the expression was added before compiling; NVRTC owns the result string
        // until the program is destroyed, and it is copied before that.
        let r = unsafe { sys::nvrtcGetLoweredName(prog.0, e.as_ptr(), &mut p) };
        if r != sys::nvrtcResult::NVRTC_SUCCESS || p.is_null() {
            return Err(DeviceError::plain(format!(
                "NVRTC found no symbol for `{n}` in `{file}` ({r:?})"
            )));
        }
        // SAFETY: non-null and NUL-terminated (NVRTC's contract).
        lowered.push(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned());
    }
    Ok(Compiled { image, lowered })
}

fn cubin(prog: &Program) -> Result<Image, DeviceError> {
    let mut size = 0usize;
    // SAFETY: a compiled program; writes one usize.
    check(
        unsafe { sys::nvrtcGetCUBINSize(prog.0, &mut size) },
        "nvrtcGetCUBINSize",
    )?;
    let mut bytes = vec![0u8; size];
    // SAFETY: `bytes` has the size NVRTC asked for.
    check(
        unsafe { sys::nvrtcGetCUBIN(prog.0, bytes.as_mut_ptr() as *mut c_char) },
        "nvrtcGetCUBIN",
    )?;
    Ok(Image::Cubin(bytes))
}

fn ptx(prog: &Program) -> Result<Image, DeviceError> {
    let mut size = 0usize;
    // SAFETY: a compiled program; writes one usize.
    check(
        unsafe { sys::nvrtcGetPTXSize(prog.0, &mut size) },
        "nvrtcGetPTXSize",
    )?;
    let mut bytes = vec![0u8; size];
    // SAFETY: `bytes` has the size NVRTC asked for (the text and its NUL).
    check(
        unsafe { sys::nvrtcGetPTX(prog.0, bytes.as_mut_ptr() as *mut c_char) },
        "nvrtcGetPTX",
    )?;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Ok(Image::Ptx(
        String::from_utf8_lossy(&bytes[..end]).into_owned(),
    ))
}

/// The compilation log (errors and warnings), empty if NVRTC cannot give it.
fn log(prog: &Program) -> String {
    let mut size = 0usize;
    // SAFETY: a live program; writes one usize.
    if unsafe { sys::nvrtcGetProgramLogSize(prog.0, &mut size) } != sys::nvrtcResult::NVRTC_SUCCESS
    {
        return String::new();
    }
    let mut buf = vec![0u8; size.max(1)];
    // SAFETY: `buf` has the size NVRTC asked for.
    if unsafe { sys::nvrtcGetProgramLog(prog.0, buf.as_mut_ptr() as *mut c_char) }
        != sys::nvrtcResult::NVRTC_SUCCESS
    {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_name_the_real_architecture_and_every_include_and_define() {
        let o = options(
            Target::Cubin(86),
            Path::new("src/scan.cu"),
            &[PathBuf::from("/opt/inc")],
            &[("N".into(), Some("256".into())), ("FAST".into(), None)],
            Some(Path::new("/usr/local/cuda/include")),
        );
        assert_eq!(
            o,
            [
                "--gpu-architecture=sm_86",
                "-std=c++17",
                "--generate-line-info",
                "--fmad=false",
                "--include-path=src",
                "--include-path=/opt/inc",
                "--include-path=/usr/local/cuda/include",
                "--define-macro=N=256",
                "--define-macro=FAST",
            ]
        );
        // A file in the current directory adds no empty include path.
        let o = options(Target::Ptx(90), Path::new("k.cu"), &[], &[], None);
        assert_eq!(
            o,
            [
                "--gpu-architecture=compute_90",
                "-std=c++17",
                "--generate-line-info",
                "--fmad=false"
            ]
        );
    }

    #[test]
    fn a_cuda_13_toolkit_adds_its_cccl_directory() {
        let include = std::env::temp_dir().join(format!("gmrace-cccl-{}", std::process::id()));
        std::fs::create_dir_all(include.join("cccl")).unwrap();
        let o = options(
            Target::Cubin(90),
            Path::new("k.cu"),
            &[],
            &[],
            Some(&include),
        );
        std::fs::remove_dir_all(&include).ok();
        assert_eq!(
            o[4..],
            [
                format!("--include-path={}", include.display()),
                format!("--include-path={}", include.join("cccl").display()),
            ]
        );
    }

    #[test]
    fn the_target_is_the_gpus_own_architecture_or_a_compatible_one() {
        let nvrtc_12_0 = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90];
        assert_eq!(target((8, 6), &nvrtc_12_0).unwrap(), Target::Cubin(86));
        // sm_88 does not exist in that list: sm_87's CUBIN runs on it.
        assert_eq!(target((8, 8), &nvrtc_12_0).unwrap(), Target::Cubin(87));
        // A newer major version: PTX for sm_90, JIT-compiled by the driver.
        assert_eq!(target((10, 0), &nvrtc_12_0).unwrap(), Target::Ptx(90));
        // Nothing from sm_70 up to the GPU: refused, naming what NVRTC has.
        let e = target((7, 5), &[50, 52, 60]).unwrap_err();
        assert!(e.message.contains("sm_50, sm_52, sm_60"), "{}", e.message);
    }
}
