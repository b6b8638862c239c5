//! NVRTC: device source to a CUBIN for the GPU's own architecture, plus the lowered (mangled)
//! names of the kernel and variables the host looks up.
//!
//! cudarc's safe `compile_ptx` gives PTX only and takes neither in-memory headers nor name
//! expressions, so this goes through `cudarc::nvrtc::sys`. A CUBIN for `sm_XY` rather than
//! PTX: the driver then never has to JIT a PTX version newer than it knows. Kernels are C++
//! functions (not `extern "C"`), and may be template instantiations (`stage<512>`): their
//! symbol is what `nvrtcGetLoweredName` says for the name expression `&name`.

use crate::DeviceError;
use cudarc::nvrtc::sys;
use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};

/// The compiled module and the symbol of each requested name, in request order.
pub struct Compiled {
    pub cubin: Vec<u8>,
    pub lowered: Vec<String>,
}

/// NVRTC options for a device of compute capability `cc`: its real architecture, C++17, line
/// information, include directories (the file's own first, then `-I`, then a CUDA toolkit's
/// headers when one is installed) and macro definitions.
pub fn options(
    cc: (i32, i32),
    file: &Path,
    include_dirs: &[PathBuf],
    defines: &[(String, Option<String>)],
    toolkit_include: Option<&Path>,
) -> Vec<String> {
    let mut o = vec![
        format!("--gpu-architecture=sm_{}{}", cc.0, cc.1),
        "-std=c++17".to_string(),
        "--generate-line-info".to_string(),
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
/// headers NVRTC does not build in (`cooperative_groups.h`, `cuda/std/...`).
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
/// contents) and `options`, and lowers each of `names` (name expressions such as `&k`).
pub fn compile(
    text: &str,
    file: &str,
    headers: &[(String, String)],
    options: &[String],
    names: &[String],
) -> Result<Compiled, DeviceError> {
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
    let mut size = 0usize;
    // SAFETY: a compiled program; writes one usize.
    check(
        unsafe { sys::nvrtcGetCUBINSize(prog.0, &mut size) },
        "nvrtcGetCUBINSize",
    )?;
    let mut cubin = vec![0u8; size];
    // SAFETY: `cubin` has the size NVRTC asked for.
    check(
        unsafe { sys::nvrtcGetCUBIN(prog.0, cubin.as_mut_ptr() as *mut c_char) },
        "nvrtcGetCUBIN",
    )?;
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
    Ok(Compiled { cubin, lowered })
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
            (8, 6),
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
                "--include-path=src",
                "--include-path=/opt/inc",
                "--include-path=/usr/local/cuda/include",
                "--define-macro=N=256",
                "--define-macro=FAST",
            ]
        );
        // A file in the current directory adds no empty include path.
        let o = options((7, 0), Path::new("k.cu"), &[], &[], None);
        assert_eq!(o.len(), 3);
    }
}
