//! The CUDA device against stand-in `libcuda.so` / `libnvrtc.so` built here with clang (found
//! first through `LD_LIBRARY_PATH`): the driver and NVRTC code paths that a machine without a
//! GPU never reaches otherwise.
//! - The probe: every failure (old driver, no NVRTC, old NVRTC, no device) is exit 2 with its
//!   reason for `--backend cuda`, and a one-line note plus a run on the CPU device for
//!   `--backend auto`; never a panic.
//! - The whole host side of a run, on a fake GPU whose memory is host memory and whose
//!   `cuLaunchKernel` writes what it received into the buffers: what NVRTC is given (input
//!   without host code, options, name expressions), the parameter values and layout, launch
//!   configuration (grid, block, shared memory and its opt-in above 48 KiB), `[globals]` upload,
//!   read-back, `--dump-buffers`, `printf` before the report (or on stderr with JSON), a kernel
//!   fault (exit 1) and an NVRTC error (exit 2).
//! - A checked run (`--mode flag`) on the fake GPU, whose `cuLaunchKernel` plays the device
//!   runtime: it reports a layout unlike the CPU device's (1 KiB reserved, its own static size)
//!   and logs one race. The instrumented program (mode, warpTable placement from the fake
//!   device's 64 KiB, `__gmrace_shared` calls) and the runtime header go to NVRTC; the bitmaps
//!   cover reserved + static (`cuFuncGetAttribute`) + dynamic bytes; the race is named by the
//!   layout it reports (not the CPU device's); `--backend auto` picks the GPU; a fault is exit 1
//!   and an incomplete check; without a driver, `--backend cuda --mode flag|stmt` is exit 2 with
//!   the probe's reason.
//!
//! Every run on a fake GPU is made twice: as `gmrace run`, and through a bundle
//! (`gmrace run --bundle`, then `gmrace-gpu` in the same environment), which must give NVRTC the
//! same input, the launch the same parameters (its buffers dumped alike) and print the same
//! report; every refused probe is refused by `gmrace-gpu` too (`through_bundle`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../tests/common/sibling.rs"]
mod sibling;

/// `gmrace-gpu`, built beside `gmrace` (`cargo test --workspace` builds both).
fn gmrace_gpu() -> PathBuf {
    sibling::fresh_sibling(
        env!("CARGO_BIN_EXE_gmrace"),
        "gmrace-gpu",
        &["ir", "runtime-cuda", "report", "gpu"],
    )
}

/// The bytes `file` gained since it had `from` bytes.
fn grown(file: &Path, from: usize) -> String {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.get(from..).unwrap_or("").to_string()
}

fn len(file: &Path) -> usize {
    std::fs::metadata(file).map_or(0, |m| m.len() as usize)
}

/// Runs `gmrace ARGS` (a `gmrace run` of `dir`'s kernel) in `env`, then the same run through a
/// bundle and `gmrace-gpu`: the same NVRTC input, launch parameters (the dumped buffers), report
/// and, where `gmrace run` refused the run, a refusal. Returns `gmrace run`'s output.
fn through_bundle(args: &[OsString], env: &[(&str, OsString)], dir: &Path) -> Output {
    let log = dir.join("nvrtc.log");
    let before = len(&log);
    let direct = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run gmrace");
    let direct_log = grown(&log, before);

    // `--backend` is the machine's business, `--format` and `--dump-buffers` gmrace-gpu's.
    let (mut prepare, mut gpu_args) = (Vec::new(), Vec::<OsString>::new());
    let mut dump = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--backend") => {
                it.next();
            }
            Some("--format") => gpu_args.extend([a.clone(), it.next().unwrap().clone()]),
            Some("--dump-buffers") => dump = it.next().map(PathBuf::from),
            _ => prepare.push(a.clone()),
        }
    }
    let bundle = dir.join("bundle");
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(&prepare)
        .arg("--bundle")
        .arg(&bundle)
        .output()
        .expect("run gmrace --bundle");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bundle_log = dir.join("nvrtc.bundle.log");
    let before = len(&bundle_log);
    let bundle_dump = dump.as_ref().map(|d| d.with_extension("bundle"));
    if let Some(d) = &bundle_dump {
        gpu_args.extend(["--dump-buffers".into(), d.clone().into()]);
    }
    let gpu = Command::new(gmrace_gpu())
        .args(&gpu_args)
        .arg(&bundle)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("FAKE_NVRTC_LOG", &bundle_log)
        .output()
        .expect("run gmrace-gpu");
    let (out, err) = (
        String::from_utf8_lossy(&gpu.stdout),
        String::from_utf8_lossy(&gpu.stderr),
    );
    assert_eq!(
        grown(&bundle_log, before),
        direct_log,
        "NVRTC's input through the bundle"
    );
    if direct.status.code() == Some(2) {
        assert_eq!(gpu.status.code(), Some(2), "{out}{err}");
        let first = String::from_utf8_lossy(&direct.stderr);
        let first = first
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        let first = first.trim_start_matches("--backend cuda: ");
        assert!(err.contains(first), "`{first}` not in gmrace-gpu's:\n{err}");
        return direct;
    }
    // The same report; then the comparison with the CPU device, which the fake GPU's results
    // need not match (exit 3).
    let report = String::from_utf8_lossy(&direct.stdout);
    assert!(
        out.starts_with(&*report),
        "gmrace run:\n{report}\ngmrace-gpu:\n{out}{err}"
    );
    assert!(
        err.starts_with(&*String::from_utf8_lossy(&direct.stderr)),
        "gmrace-gpu's stderr:\n{err}"
    );
    assert!(
        [direct.status.code(), Some(3)].contains(&gpu.status.code()),
        "{out}{err}"
    );
    assert!(
        format!("{out}{err}").contains("comparison: kernel `k`"),
        "{out}{err}"
    );
    if let (Some(a), Some(b)) = (&dump, &bundle_dump) {
        let mut names: Vec<_> = std::fs::read_dir(a)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        for name in names {
            assert_eq!(
                std::fs::read(a.join(&name)).unwrap(),
                std::fs::read(b.join(&name)).unwrap_or_default(),
                "{name:?} through the bundle"
            );
        }
    }
    direct
}

/// A driver of the given version (`12040` is CUDA 12.4) whose `cuInit` finds no device.
const FAKE_CUDA: &str = r#"
int cuDriverGetVersion(int *v) { *v = DRIVER_VERSION; return 0; }
int cuInit(unsigned int flags) { (void)flags; return 100; /* CUDA_ERROR_NO_DEVICE */ }
int cuGetErrorString(int e, const char **s) {
  *s = e == 100 ? "no CUDA-capable device is detected" : "unknown error";
  return 0;
}
"#;

/// NVRTC of the given version supporting sm_70, sm_75 and sm_80.
const FAKE_NVRTC: &str = r#"
int nvrtcVersion(int *major, int *minor) { *major = MAJOR; *minor = MINOR; return 0; }
int nvrtcGetNumSupportedArchs(int *n) { *n = 3; return 0; }
int nvrtcGetSupportedArchs(int *a) { a[0] = 70; a[1] = 75; a[2] = 80; return 0; }
"#;

fn build(dir: &Path, lib: &str, source: &str, defines: &[String]) {
    let c = dir.join(format!("{lib}.c"));
    std::fs::write(&c, source).unwrap();
    let out = Command::new("clang")
        .args(["-shared", "-fPIC", "-o"])
        .arg(dir.join(format!("lib{lib}.so")))
        .args(defines)
        .arg(&c)
        .output()
        .expect("run clang (Debian's `clang`; scripts/setup.sh installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A directory with a fake driver and, if given, a fake NVRTC `(major, minor)`.
fn fake(name: &str, driver: i32, nvrtc: Option<(i32, i32)>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-fake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    build(
        &dir,
        "cuda",
        FAKE_CUDA,
        &[format!("-DDRIVER_VERSION={driver}")],
    );
    if let Some((major, minor)) = nvrtc {
        build(
            &dir,
            "nvrtc",
            FAKE_NVRTC,
            &[format!("-DMAJOR={major}"), format!("-DMINOR={minor}")],
        );
    }
    dir
}

fn run(libs: &Path, backend: &str, format: &str) -> Output {
    run_mode(libs, "off", backend, format)
}

fn run_mode(libs: &Path, mode: &str, backend: &str, format: &str) -> Output {
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let args: Vec<OsString> = vec![
        "run".into(),
        kernels.join("analysis/reduce_seq_fixed.cu").into(),
        "--launch".into(),
        kernels.join("device/reduce_seq_fixed.toml").into(),
        "--mode".into(),
        mode.into(),
        "--backend".into(),
        backend.into(),
        "--format".into(),
        format.into(),
    ];
    let env = [("LD_LIBRARY_PATH", libs.as_os_str().to_owned())];
    if backend == "cuda" {
        through_bundle(&args, &env, libs)
    } else {
        Command::new(env!("CARGO_BIN_EXE_gmrace"))
            .args(&args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("run gmrace")
    }
}

/// `--backend cuda` fails with `reason` (the start of the message); `--backend auto` notes it
/// in one line and runs on the CPU device.
fn check_unusable(libs: &Path, reason: &str) {
    let o = run(libs, "cuda", "text");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("--backend cuda: {reason}")), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = run(libs, "auto", "text");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("note: running on the CPU device (emu): {reason}")),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("on emu: grid"));

    let o = run(libs, "auto", "json");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["kernels"][0]["backend"], "emu");
}

/// Without any driver a checked run on `cuda` is refused the same way, and `auto` checks on
/// the CPU device.
#[test]
fn a_checked_run_without_a_driver_is_refused_or_falls_back() {
    if gmrace_runtime_cuda::cuda::probe::driver_present() {
        eprintln!("a CUDA driver is installed on this machine: its absence cannot be tested");
        return;
    }
    let empty = std::env::temp_dir().join(format!("gmrace-fake-{}-none", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    for mode in ["flag", "stmt"] {
        let o = run_mode(&empty, mode, "cuda", "text");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--backend cuda: no CUDA driver: none of libcuda.so"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = run_mode(&empty, "flag", "auto", "json");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["kernels"][0]["backend"], "emu");
    assert_eq!(v["kernels"][0]["mode"], "flag");
    std::fs::remove_dir_all(empty).ok();
}

#[test]
fn a_driver_older_than_cuda_12_is_refused() {
    let libs = fake("old-driver", 11080, Some((12, 4)));
    check_unusable(
        &libs,
        "the CUDA driver supports CUDA 11.8; gmrace needs 12.0 or later",
    );
    std::fs::remove_dir_all(libs).ok();
}

#[test]
fn a_driver_without_nvrtc_is_refused() {
    if gmrace_runtime_cuda::cuda::probe::nvrtc_present() {
        eprintln!("NVRTC is installed on this machine: a missing NVRTC cannot be faked");
        return;
    }
    let libs = fake("no-nvrtc", 12040, None);
    check_unusable(
        &libs,
        "a CUDA driver is present but NVRTC is not: none of libnvrtc.so",
    );
    std::fs::remove_dir_all(libs).ok();
}

#[test]
fn an_nvrtc_older_than_11_2_is_refused() {
    let libs = fake("old-nvrtc", 12040, Some((11, 0)));
    check_unusable(&libs, "NVRTC 11.0 is too old: gmrace needs 11.2 or later");
    std::fs::remove_dir_all(libs).ok();
}

#[test]
fn a_driver_without_a_device_is_refused_with_the_drivers_words() {
    let libs = fake("no-device", 12040, Some((12, 4)));
    check_unusable(
        &libs,
        "the CUDA driver offers no usable GPU: no CUDA-capable device is detected \
         (CUDA_ERROR_NO_DEVICE)",
    );
    std::fs::remove_dir_all(libs).ok();
}

/// A driver with one device of compute capability 7.5 whose memory is host memory. Its
/// `cuLaunchKernel` knows the one kernel of `RUN_KERNEL` and records, in `out`, what it was
/// given; with `n < 0` it fails as a kernel touching a bad address would.
const FAKE_GPU: &str = r#"
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned long long ptr_t;
static void *current;
static int table[4];
static void wait_for_gpu(const char *call);
int cuInit(unsigned int f) { (void)f; return 0; }
int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuGetErrorString(int e, const char **s) {
  *s = e == 700 ? "an illegal memory access was encountered" : "fake error";
  return 0;
}
int cuDeviceGet(int *d, int o) { *d = o; return o == 0 ? 0 : 101; }
int cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  switch (attr) {
  case 75: *v = 7; break;           /* compute capability 7.5 */
  case 76: *v = 5; break;
  case 8: *v = 48 * 1024; break;    /* static shared memory per block */
  case 97: *v = 64 * 1024; break;   /* with the opt-in (sm_75's) */
  case 111: *v = 1024; break;       /* reserved by the driver (as from sm_80 on) */
  default: *v = 0;
  }
  return 0;
}
int cuDeviceGetName(char *n, int len, int d) { (void)d; strncpy(n, "Fake GPU", len); return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)1; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { wait_for_gpu("cuDevicePrimaryCtxRelease_v2"); (void)d; return 0; }
int cuCtxGetCurrent(void **c) { *c = current; return 0; }
int cuCtxSetCurrent(void *c) { current = c; return 0; }
int cuModuleLoadData(void **m, const void *image) {
  *m = (void *)2;
  return memcmp(image, "\x7f" "ELF", 4) == 0 ? 0 : 200; /* CUDA_ERROR_INVALID_IMAGE */
}
int cuModuleUnload(void *m) { wait_for_gpu("cuModuleUnload"); (void)m; return 0; }
int cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m;
  *f = (void *)3;
  return strcmp(name, "_Z1kcPdsifPjPi") == 0 ? 0 : 500; /* CUDA_ERROR_NOT_FOUND */
}
int cuModuleGetGlobal_v2(ptr_t *p, size_t *bytes, void *m, const char *name) {
  (void)m;
  if (strcmp(name, "table") != 0) return 500;
  *p = (ptr_t)table;
  *bytes = sizeof table;
  return 0;
}
int cuMemAlloc_v2(ptr_t *p, size_t n) { *p = (ptr_t)malloc(n); return 0; }
int cuMemFree_v2(ptr_t p) { wait_for_gpu("cuMemFree_v2"); free((void *)p); return 0; }
int cuMemcpyHtoDAsync_v2(ptr_t d, const void *h, size_t n, void *s) {
  (void)s; memcpy((void *)d, h, n); return 0;
}
int cuMemcpyDtoHAsync_v2(void *h, ptr_t d, size_t n, void *s) {
  (void)s; memcpy(h, (void *)d, n); return 0;
}
static int launched;
/* A kernel launched with n = $FAKE_HANG never finishes: the GPU stays busy until the process
 * ends, as a real one does. */
static int hanging;
int cuStreamQuery(void *s) { (void)s; return hanging ? 600 : 0; /* CUDA_ERROR_NOT_READY */ }
/* What waits for the GPU then never returns: that is exit status 99 here. */
static void wait_for_gpu(const char *call) {
  if (!hanging) return;
  fprintf(stderr, "fake GPU: %s waits for a kernel that never finishes\n", call);
  fflush(NULL);
  _exit(99);
}
__attribute__((destructor)) static void at_exit(void) { wait_for_gpu("the driver's exit handler"); }
/* Like the real driver, prints the kernel's printf output when the launch is waited for. */
int cuStreamSynchronize(void *s) {
  (void)s;
  wait_for_gpu("cuStreamSynchronize");
  if (launched) printf("[device printf] n was %d\n", launched);
  launched = 0;
  return 0;
}
int cuStreamWaitEvent(void *s, void *e, unsigned int f) { (void)s; (void)e; (void)f; return 0; }
int cuEventCreate(void **e, unsigned int f) { (void)f; *e = malloc(1); return 0; }
int cuEventRecord(void *e, void *s) { (void)e; (void)s; return 0; }
int cuEventSynchronize(void *e) { wait_for_gpu("cuEventSynchronize"); (void)e; return 0; }
int cuEventDestroy_v2(void *e) { free(e); return 0; }
/* The static shared memory ptxas gave the kernel. */
#define STATIC_SHARED 4352
int cuFuncGetAttribute(int *v, int attr, void *f) {
  (void)f;
  *v = attr == 1 ? STATIC_SHARED : 0; /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  return 0;
}
/* With $FAKE_GMRACE the launched kernel is CHECKED_KERNEL instrumented, k(int *out, unsigned
 * *rt), and this plays the device runtime of a GPU that put `s` (table entry 0) after the
 * reserved KiB and 16 bytes of the runtime's own, and the dynamic area (entry 1) after the
 * static bytes: it reports that layout, and logs one flag-mode race between warps 0 and 1 on
 * s[32]. It also tells, in `out`, what the host wrote in the buffer's header. With
 * FAKE_GMRACE=window it also says that an access fell beyond the bitmaps; with
 * FAKE_GMRACE=fault the kernel faults instead. */
static int checked_launch(const char *how, unsigned shmem, void **p) {
  if (strcmp(how, "fault") == 0) return 700; /* CUDA_ERROR_ILLEGAL_ADDRESS */
  unsigned *out = *(unsigned **)p[0];
  unsigned *rt = *(unsigned **)p[1];
  unsigned s_at = 1024 + 16, dyn_at = 1024 + STATIC_SHARED;
  out[0] = rt[13]; /* words per bitmap */
  out[1] = rt[15]; /* shared-layout entries */
  out[2] = shmem;
  unsigned *table = rt + rt[16];
  table[0] = s_at + 1; table[1] = 64 * 4;
  table[2] = dyn_at + 1; table[3] = 0;
  unsigned *r = rt + rt[11];
  unsigned record[8] = {2 /* inter-warp */, 0, 0, 0, 1, 0xffff | (0xffffu << 16), s_at + 128, 4};
  memcpy(r, record, sizeof record);
  rt[2] = 1; /* logged */
  rt[4] = 1; /* R-Mem */
  rt[6] = 1; /* R-Wp */
  if (strcmp(how, "window") == 0) rt[7] |= 2; /* GMRACE_OVERFLOW_WINDOW */
  return 0;
}
static int opt_in;
int cuFuncSetAttribute(void *f, int attr, int v) {
  (void)f;
  if (attr == 8) opt_in = v; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
  return 0;
}
/* k(char c, double *d, short s, int n, float f, unsigned int *out, int *rt) */
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shmem, void *stream, void **p, void **extra) {
  (void)f; (void)stream; (void)extra;
  if (getenv("FAKE_GMRACE")) return checked_launch(getenv("FAKE_GMRACE"), shmem, p);
  int n = *(int *)p[3];
  if (n < 0) return 700; /* CUDA_ERROR_ILLEGAL_ADDRESS */
  if (getenv("FAKE_HANG") && n == atoi(getenv("FAKE_HANG"))) hanging = 1;
  double *d = *(double **)p[1];
  unsigned int *out = *(unsigned int **)p[5];
  int *rt = *(int **)p[6];
  unsigned int got[] = {(unsigned)*(signed char *)p[0], (unsigned)*(short *)p[2], (unsigned)n,
                        gx, gy, gz, bx, by, bz, shmem, (unsigned)table[3], (unsigned)opt_in};
  memcpy(out, got, sizeof got);
  d[0] = d[1] + *(float *)p[4];
  rt[0] = 42;
  table[0] = -1;
  launched = n;
  return 0;
}
"#;

/// NVRTC 12.4 that keeps the source and options it was given (in `$FAKE_NVRTC_LOG`) and
/// "compiles" to a stub CUBIN, or fails as NVRTC does when the source uses `undefined_thing`;
/// a name expression `&x` lowers to the symbol of `RUN_KERNEL`'s kernel or to `x`.
const FAKE_NVRTC_COMPILER: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int nvrtcVersion(int *a, int *b) { *a = 12; *b = 4; return 0; }
int nvrtcGetNumSupportedArchs(int *n) { *n = 3; return 0; }
int nvrtcGetSupportedArchs(int *a) { a[0] = 70; a[1] = 75; a[2] = 80; return 0; }
static FILE *log_file(void) { return fopen(getenv("FAKE_NVRTC_LOG"), "a"); }
static const char *error = "";
int nvrtcCreateProgram(void **p, const char *src, const char *name, int nh,
                       const char *const *h, const char *const *names) {
  if (strstr(src, "undefined_thing"))
    error = "k.cu(3): error: identifier \"undefined_thing\" is undefined\n";
  FILE *f = log_file();
  fprintf(f, "name %s\nheaders %d\n%s\n", name, nh, src);
  for (int i = 0; i < nh; i++) fprintf(f, "header %s\n", names[i]);
  fclose(f);
  (void)h;
  *p = malloc(1);
  return 0;
}
int nvrtcAddNameExpression(void *p, const char *e) {
  (void)p; FILE *f = log_file(); fprintf(f, "expression %s\n", e); fclose(f); return 0;
}
int nvrtcCompileProgram(void *p, int n, const char *const *o) {
  (void)p; FILE *f = log_file();
  for (int i = 0; i < n; i++) fprintf(f, "option %s\n", o[i]);
  fclose(f);
  return *error ? 6 /* NVRTC_ERROR_COMPILATION */ : 0;
}
int nvrtcGetProgramLogSize(void *p, size_t *n) { (void)p; *n = strlen(error) + 1; return 0; }
int nvrtcGetProgramLog(void *p, char *l) { (void)p; strcpy(l, error); return 0; }
int nvrtcGetCUBINSize(void *p, size_t *n) { (void)p; *n = 4; return 0; }
int nvrtcGetCUBIN(void *p, char *c) { (void)p; memcpy(c, "\x7f" "ELF", 4); return 0; }
int nvrtcGetLoweredName(void *p, const char *e, const char **out) {
  (void)p;
  *out = strcmp(e, "&k") == 0 ? "_Z1kcPdsifPjPi" : e + 1;
  return 0;
}
int nvrtcDestroyProgram(void **p) { free(*p); *p = 0; return 0; }
"#;

/// A kernel with host code around it, every scalar size, a global and a trailing runtime
/// buffer (as an instrumented kernel has).
const RUN_KERNEL: &str = r#"#include <cstdio>
__device__ int table[4];
__global__ void k(char c, double *d, short s, int n, float f, unsigned int *out, int *rt) {
  if (threadIdx.x == 0) { out[0] = c + s + n + table[3]; d[0] = d[1] + f; rt[0] = 42; }
}
int main() { std::printf("host\n"); return 0; }
"#;

const RUN_SPEC: &str = "grid = [3, 2]\nblock = [32, 4]\ndynamic_shared_bytes = 256\n[args]\n\
    c = -2\nd = { values = [0.0, 2.5] }\ns = 7\nn = N\nf = 0.25\n\
    out = { len = 12, init = \"zeros\" }\nrt = { len = 4, init = \"zeros\" }\n\
    [globals]\ntable = { values = [1, 2, 3, 9] }\n";

fn fake_gpu(name: &str, kernel: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gmrace-fake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    build(&dir, "cuda", FAKE_GPU, &[]);
    build(&dir, "nvrtc", FAKE_NVRTC_COMPILER, &[]);
    std::fs::write(dir.join("k.cu"), kernel).unwrap();
    dir
}

fn run_on_fake_gpu(dir: &Path, n: i32, extra: &[&str]) -> Output {
    run_spec_on_fake_gpu(dir, &RUN_SPEC.replace("N", &n.to_string()), extra)
}

/// `gmrace run` of `dir`'s kernel with `spec_text` as its launch spec, then `flags`, `extra`.
fn fake_gpu_args(dir: &Path, spec_text: &str, flags: &[&str], extra: &[&str]) -> Vec<OsString> {
    let spec = dir.join("k.toml");
    std::fs::write(&spec, spec_text).unwrap();
    let mut args: Vec<OsString> = vec![
        "run".into(),
        dir.join("k.cu").into(),
        "--launch".into(),
        spec.into(),
    ];
    args.extend(flags.iter().chain(extra).map(OsString::from));
    args
}

/// The fake GPU's libraries first, and where its NVRTC keeps what it was given.
fn fake_gpu_env(dir: &Path) -> Vec<(&'static str, OsString)> {
    vec![
        ("LD_LIBRARY_PATH", dir.as_os_str().to_owned()),
        ("FAKE_NVRTC_LOG", dir.join("nvrtc.log").into()),
    ]
}

fn run_spec_on_fake_gpu(dir: &Path, spec_text: &str, extra: &[&str]) -> Output {
    let flags = ["--mode", "off", "--backend", "cuda", "--stand-ins"];
    let args = fake_gpu_args(dir, spec_text, &flags, extra);
    through_bundle(&args, &fake_gpu_env(dir), dir)
}

fn words(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn a_run_on_a_fake_gpu_marshals_launches_and_reads_back() {
    let dir = fake_gpu("run", RUN_KERNEL);
    let dump = dir.join("dump");
    let o = run_on_fake_gpu(&dir, 100, &["--dump-buffers", dump.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out,
        "[device printf] n was 100\nkernel `k` on cuda: grid (3,2,1) block (32,4,1): no fault\n\
         CUDA headers: stand-ins\n"
    );

    // NVRTC got the device code only, for sm_75, and the kernel's and global's names.
    let log = std::fs::read_to_string(dir.join("nvrtc.log")).unwrap();
    assert!(log.contains("__global__ void k(char c"), "{log}");
    assert!(
        !log.contains("int main") && !log.contains("printf(\"host"),
        "{log}"
    );
    assert!(log.contains("#line 1 \""), "{log}");
    for line in [
        "option --gpu-architecture=sm_75",
        "expression &k",
        "expression &table",
        "header cstdio",
        "header gmrace_nvrtc.h",
    ] {
        assert!(log.lines().any(|l| l == line), "no `{line}` in:\n{log}");
    }

    // What the launch received: scalars, grid, block, dynamic shared memory, the global, and
    // no shared-memory opt-in (256 bytes need none).
    assert_eq!(
        words(&dump.join("out.bin")),
        [(-2i32) as u32, 7, 100, 3, 2, 1, 32, 4, 1, 256, 9, 0]
    );
    // Buffers went up and came back (the fake kernel wrote d[0] = d[1] + f, rt[0] = 42).
    let d: Vec<f64> = std::fs::read(dump.join("d.bin"))
        .unwrap()
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(d, [2.75, 2.5]);
    assert_eq!(words(&dump.join("rt.bin")), [42, 0, 0, 0]);
    // `__device__` globals are read back too.
    assert_eq!(words(&dump.join("table.bin")), [u32::MAX, 2, 3, 9]);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_kernel_fault_on_a_fake_gpu_is_exit_one() {
    let dir = fake_gpu("fault", RUN_KERNEL);
    let o = run_on_fake_gpu(&dir, -1, &["--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["backend"], "cuda");
    assert_eq!(k["memory_errors"][0]["kind"], "invalid-address");
    let msg = k["memory_errors"][0]["message"].as_str().unwrap();
    assert!(msg.contains("--backend emu"), "{msg}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn an_nvrtc_error_is_exit_two_with_its_log() {
    // Parses for gmrace's front end (a macro it is given), not for NVRTC (which is not).
    let kernel = RUN_KERNEL.replace("rt[0] = 42;", "rt[0] = GMRACE_ONLY;");
    let dir = fake_gpu("nvrtc-error", &format!("#ifndef __CUDACC_RTC__\n#define GMRACE_ONLY 42\n#else\n#define GMRACE_ONLY undefined_thing\n#endif\n{kernel}"));
    let o = run_on_fake_gpu(&dir, 100, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("NVRTC could not compile the device code of"),
        "{err}"
    );
    assert!(
        err.contains("identifier \"undefined_thing\" is undefined"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// With JSON on stdout, the kernel's printf output (written by the driver) goes to stderr.
#[test]
fn kernel_printf_leaves_json_stdout_alone() {
    let dir = fake_gpu("printf", RUN_KERNEL);
    let o = run_on_fake_gpu(&dir, 5, &["--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("only JSON on stdout");
    assert_eq!(v["kernels"][0]["backend"], "cuda");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "[device printf] n was 5\n"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Above 48 KiB of shared memory per block the kernel opts in before the launch.
#[test]
fn large_dynamic_shared_memory_is_opted_in() {
    let dir = fake_gpu("opt-in", RUN_KERNEL);
    let dump = dir.join("dump");
    let spec = RUN_SPEC
        .replace("N", "1")
        .replace("dynamic_shared_bytes = 256", "dynamic_shared_bytes = 60000");
    let o = run_spec_on_fake_gpu(&dir, &spec, &["--dump-buffers", dump.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = words(&dump.join("out.bin"));
    assert_eq!((out[9], out[11]), (60000, 60000));
    std::fs::remove_dir_all(dir).ok();
}

/// A kernel whose shared array races between warps (each thread reads its neighbour's slot
/// before the barrier), with dynamic shared memory and host code around it.
const CHECKED_KERNEL: &str = r#"#include <cstdio>
__global__ void k(int *out) {
  __shared__ int s[64];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  s[t] = t;
  dyn[t] = s[(t + 1) % 64];
  __syncthreads();
  out[t] = dyn[t];
}
int main() { std::printf("host\n"); return 0; }
"#;

/// 62000 dynamic bytes fit DESIGN.md's 96 KiB with the warpTable in shared memory, but not
/// the fake GPU's 64 KiB.
const CHECKED_SPEC: &str = "grid = 1\nblock = 64\ndynamic_shared_bytes = 62000\n[args]\n\
    out = { len = 64, init = \"zeros\" }\n";

fn checked_on_fake_gpu(dir: &Path, how: &str, format: &str, extra: &[&str]) -> Output {
    let flags = ["--mode", "flag", "--all", "--format", format];
    let args = fake_gpu_args(dir, CHECKED_SPEC, &flags, extra);
    let mut env = fake_gpu_env(dir);
    env.push(("FAKE_GMRACE", how.into()));
    through_bundle(&args, &env, dir)
}

#[test]
fn a_checked_run_on_a_fake_gpu_runs_the_instrumented_program_and_decodes_its_layout() {
    let dir = fake_gpu("checked", CHECKED_KERNEL);
    let dump = dir.join("dump");
    let o = checked_on_fake_gpu(
        &dir,
        "race",
        "json",
        &[
            "--backend",
            "cuda",
            "--dump-buffers",
            dump.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["backend"], "cuda");
    assert_eq!(k["mode"], "flag");
    assert_eq!(k["complete"], true, "{k}");
    // The race the device logged at window offset 1040 + 128, named by the layout the device
    // reported (the CPU device puts `s` elsewhere: after the runtime's 4 KiB warpTable).
    let run: Vec<&serde_json::Value> = k["races"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["found_by"] == "run")
        .collect();
    assert_eq!(run.len(), 1, "{k}");
    assert_eq!(run[0]["array"], "s");
    assert_eq!(run[0]["byte_offset"], 128);
    assert_eq!(run[0]["warps"], serde_json::json!([0, 1]));
    assert_eq!(k["summary"]["r_wp"], 1);

    // The bitmaps cover the reserved, static (as the driver says) and dynamic bytes, at 4
    // bytes a bit; the table has one entry per shared variable; the launch got the dynamic
    // shared memory.
    let out = words(&dump.join("out.bin"));
    let covered: u32 = 1024 + 4352 + 62000;
    assert_eq!(out[..3], [covered.div_ceil(4).div_ceil(32), 2, 62000]);
    assert!(
        !dump.join("__gmrace_rt.bin").exists(),
        "the runtime buffer is not the program's"
    );

    // NVRTC compiled the instrumented device code with the runtime header in memory, and the
    // warpTable in device memory: 62000 dynamic bytes leave it no room in this GPU's 64 KiB.
    let log = std::fs::read_to_string(dir.join("nvrtc.log")).unwrap();
    let name = log.lines().find_map(|l| l.strip_prefix("name ")).unwrap();
    assert!(name.ends_with("k.gmrace.cu"), "{name}");
    for line in [
        "header gmrace_runtime.cuh",
        "#define GMRACE_MODE_FLAG 1",
        "#define GMRACE_WARP_TABLE_GLOBAL 1",
        "    __gmrace_enter(__gmrace_rt);",
        "  __shared__ int s[64]; __gmrace_shared(&s, sizeof(s), 0u);",
        "  extern __shared__ int dyn[]; __gmrace_shared(&dyn, 0u, 1u);",
        "expression &k",
    ] {
        assert!(log.lines().any(|l| l == line), "no `{line}` in:\n{log}");
    }
    assert!(!log.contains("int main"), "{log}");
    std::fs::remove_file(dir.join("nvrtc.log")).unwrap();

    // `auto` takes the GPU for checked runs too.
    let o = checked_on_fake_gpu(&dir, "race", "json", &["--backend", "auto"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["kernels"][0]["backend"], "cuda");

    // A device that used shared memory beyond what the host sized the bitmaps for: the text
    // report says the check is incomplete, and counts no instructions (a GPU does not).
    let o = checked_on_fake_gpu(&dir, "window", "text", &["--backend", "cuda"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "warning: the check is incomplete: an access fell outside the {covered} bytes"
        )),
        "{out}"
    );
    assert!(out.contains("kernel `k` on cuda, flag mode: "), "{out}");
    assert!(out.contains("; incomplete\n") && !out.contains("thread-instructions"));
    std::fs::remove_dir_all(dir).ok();
}

/// A kernel fault on the GPU leaves nothing to read back: the run reports the fault (exit 1)
/// and says that the check is incomplete.
#[test]
fn a_checked_run_that_faults_on_a_fake_gpu_is_exit_one_and_incomplete() {
    let dir = fake_gpu("checked-fault", CHECKED_KERNEL);
    let o = checked_on_fake_gpu(&dir, "fault", "json", &["--backend", "cuda"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["complete"], false);
    assert!(
        k["incomplete"].to_string().contains("the kernel faulted"),
        "{k}"
    );
    assert_eq!(k["memory_errors"][0]["kind"], "invalid-address");
    assert!(k["races"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["found_by"] != "run"));
    std::fs::remove_dir_all(dir).ok();
}

/// The GPU check's second step (`scripts/gpu-check-run.sh`, as `prepare` lays it out) on the
/// fake GPU: it names the GPU and driver, runs every bundle, prints the table and writes
/// `gmrace run --mode off --bundle OUT` of `dir`'s kernel with `spec_text` as its launch spec.
/// `RUN_KERNEL` run by one thread, with a shared access: proved free of races.
const RACE_FREE_KERNEL: &str = r#"#include <cstdio>
__device__ int table[4];
__global__ void k(char c, double *d, short s, int n, float f, unsigned int *out, int *rt) {
  __shared__ int sh[1];
  if (threadIdx.x == 0 && threadIdx.y == 0 && blockIdx.x == 0 && blockIdx.y == 0) {
    sh[0] = n;
    out[0] = c + s + sh[0] + table[3]; d[0] = d[1] + f; rt[0] = 42;
  }
}
int main() { std::printf("host\n"); return 0; }
"#;

/// A bundle of `kernel` (written to `dir/k.cu`) in `mode` (`off`, or `stmt --all`).
fn write_bundle(dir: &Path, kernel: &str, mode: &str, spec_text: &str, out: &Path) {
    std::fs::write(dir.join("k.cu"), kernel).unwrap();
    let mut flags: Vec<&str> = mode.split(' ').collect();
    flags.splice(0..0, ["--mode"]);
    flags.extend(["--stand-ins", "--bundle"]);
    let o = Command::new(env!("CARGO_BIN_EXE_gmrace"))
        .args(fake_gpu_args(dir, spec_text, &flags, &[]))
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
}

/// `results.json`; the fake GPU's buffers are not the CPU device's, which is a disagreement
/// (non-zero exit) where the result cannot depend on the schedule: a kernel proved free of
/// races, plain or checked (whose checkers' atomics are not the kernel's), not a racy one.
/// Without a driver it says so and exits 0.
#[test]
fn the_gpu_check_names_the_gpu_and_fails_on_a_disagreement() {
    let dir = fake_gpu("gpu-check", RUN_KERNEL);
    let check = dir.join("check");
    std::fs::create_dir_all(check.join("bundles")).unwrap();
    let spec = RUN_SPEC.replace("N", "3");
    for (kernel, mode, name) in [
        (RACE_FREE_KERNEL, "off", "k-off"),
        (RACE_FREE_KERNEL, "stmt --all", "k-stmt-all"),
        (RUN_KERNEL, "off", "racy-off"),
    ] {
        write_bundle(&dir, kernel, mode, &spec, &check.join("bundles").join(name));
    }
    std::fs::copy(gmrace_gpu(), check.join("gmrace-gpu")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/gpu-check-run.sh");
    std::fs::copy(script, check.join("gpu-check.sh")).unwrap();
    let step_two = |libs: &Path| {
        Command::new("bash")
            .arg(check.join("gpu-check.sh"))
            .env("LD_LIBRARY_PATH", libs)
            .env("FAKE_NVRTC_LOG", dir.join("nvrtc.log"))
            .output()
            .unwrap()
    };

    let o = step_two(&dir);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(3),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.starts_with("GPU: Fake GPU (compute capability 7.5), CUDA driver 12.4, NVRTC 12.4\n"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("k ")).collect();
    assert_eq!(rows.len(), 3, "{out}");
    for (row, mode) in rows[..2].iter().zip([" off ", " stmt --all "]) {
        assert!(
            row.contains(mode) && row.contains("DIFFER") && row.ends_with("NO"),
            "{row}"
        );
    }
    assert!(
        rows[2].contains(" off ") && rows[2].contains("sched-dep") && rows[2].ends_with("yes"),
        "{}",
        rows[2]
    );
    assert!(out.contains("1 of 3 bundles agree"), "{out}");
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(check.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["gpu"]["gpu"], "Fake GPU");
    assert_eq!(results["gpu"]["driver_version"], 12040);
    let rows = results["rows"].as_array().unwrap();
    assert_eq!(rows[0]["buffers_equal"], false);
    assert_eq!(rows[0]["agree"], false);
    assert_eq!(rows[1]["mode"], "stmt --all");
    assert_eq!(rows[1]["buffers_equal"], false, "{}", rows[1]);
    assert_eq!(rows[2]["buffers_equal"], serde_json::Value::Null);
    assert_eq!(rows[2]["schedule_dependent"], true);

    racecheck_step(&dir, &check);

    let none = dir.join("no-driver");
    std::fs::create_dir_all(&none).unwrap();
    if !gmrace_runtime_cuda::cuda::probe::driver_present() {
        let o = step_two(&none);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(
            out.starts_with("no GPU to check on: error: no usable CUDA driver"),
            "{out}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `gpu-check.sh racecheck` with a stand-in `compute-sanitizer` first on the path (one that
/// names the bundle it was given in its hazard): each `off` bundle, and only those, runs under
/// racecheck's tool, and `racecheck.txt` keeps each one's summary and its hazards without the
/// instruction offsets.
fn racecheck_step(dir: &Path, check: &Path) {
    let bin = dir.join("sanitizer-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sanitizer = bin.join("compute-sanitizer");
    std::fs::write(
        &sanitizer,
        "#!/bin/sh\n[ \"$1 $2\" = '--tool racecheck' ] || exit 9\n\
         echo \"========= Error: Race reported between Write access at k(int *)+0x50 in $(basename \"$5\").cu:6\"\n\
         echo '========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)'\n",
    )
    .unwrap();
    std::fs::set_permissions(
        &sanitizer,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o = Command::new("bash")
        .arg(check.join("gpu-check.sh"))
        .arg("racecheck")
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(check.join("racecheck.txt")).unwrap();
    assert_eq!(
        text,
        "k-off: 1 hazard displayed (1 error, 0 warnings)\n      \
         1 Error: Race reported between Write access at k(int *) in k-off.cu:6\n\
         racy-off: 1 hazard displayed (1 error, 0 warnings)\n      \
         1 Error: Race reported between Write access at k(int *) in racy-off.cu:6\n"
    );
}

/// A kernel still running at `--gpu-timeout` is a step-budget fault on the GPU, and the bundles
/// after it run in a fresh process (on the fake GPU, as on a real one, the GPU stays busy until
/// the process that launched the kernel ends); the table and `results.json` hold every bundle.
#[test]
fn a_kernel_that_never_finishes_ends_its_process_and_the_rest_run_in_a_fresh_one() {
    let dir = fake_gpu("hang", RUN_KERNEL);
    let bundles: Vec<PathBuf> = [7, 3, 5]
        .iter()
        .map(|n| {
            let bundle = dir.join(format!("k{n}"));
            let spec = RUN_SPEC.replace("N", &n.to_string());
            write_bundle(&dir, RACE_FREE_KERNEL, "off", &spec, &bundle);
            bundle
        })
        .collect();
    let results = dir.join("results.json");
    let child = Command::new(gmrace_gpu())
        .args(["--gpu-timeout", "1", "--table", "--results"])
        .arg(&results)
        .args(&bundles)
        .envs(fake_gpu_env(&dir))
        .env("FAKE_HANG", "7")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let state = std::env::temp_dir().join(format!("gmrace-gpu-{}.json", child.id()));
    let o = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    // The hang is a GPU fault the CPU device does not explain; the fake GPU's buffers are not
    // the CPU device's: disagreements.
    assert_eq!(o.status.code(), Some(3), "{out}{err}");
    assert!(out.contains("0 of 3 bundles agree"), "{out}");
    let rows: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
    let rows = rows["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[0]["faults_gpu"], serde_json::json!(["StepBudget"]));
    assert_eq!(rows[0]["buffers_equal"], serde_json::Value::Null);
    // Had the later bundles run in the hung process, they would never have finished either.
    for row in &rows[1..] {
        assert_eq!(row["faults_gpu"], serde_json::json!([]), "{row}");
        assert_eq!(row["buffers_equal"], false, "{row}");
    }
    assert!(!state.exists(), "the handed-on state was not deleted");
    // The last bundle's kernel never finishes: the process ends without waiting for it.
    let o = Command::new(gmrace_gpu())
        .args(["--gpu-timeout", "1"])
        .arg(&bundles[0])
        .envs(fake_gpu_env(&dir))
        .env("FAKE_HANG", "7")
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(3), "{out}{err}");
    assert!(
        out.contains("error[step-budget]: the kernel did not finish within 1 s")
            && out.contains("fault only on the GPU: StepBudget"),
        "{out}"
    );
    std::fs::remove_dir_all(dir).ok();
}
