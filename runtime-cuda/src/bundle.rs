//! A run prepared on one machine and run on another (`gmrace run --bundle DIR`, then
//! `gmrace-gpu DIR`): everything the run needs and its report quotes, so that the machine that
//! runs it needs a CUDA driver and nothing of the front end.
//!
//! On disk, a directory: `manifest.json` (format name, version, kernel, file, mode, and a hash
//! of the payload) and `program.cbor.gz` (the [`Bundle`], CBOR: the IR's floats include NaN and
//! infinities, which JSON cannot hold; gzip, since the IR's field names repeat: a `--all`
//! bundle shrinks from about 500 KiB to about 60). Reading checks the format, the version and the hash
//! before decoding, so a bundle of another version, a truncated or a corrupted one is refused
//! with the reason; a decoded bundle is checked for consistency (kernel index, arguments)
//! before anything runs.

use crate::cuda::CudaSource;
use crate::launch::{Arg, Launch};
use crate::program::{warp_table_for, CheckedProgram};
use crate::SharedLimits;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use gmrace_ir::report::KernelReport;
use gmrace_ir::Module;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// What `manifest.json`'s `format` says.
pub const FORMAT: &str = "gmrace-bundle";
/// Bumped whenever [`Bundle`] changes shape: a bundle of another version is refused.
pub const VERSION: u32 = 2;
const MANIFEST: &str = "manifest.json";
pub const PAYLOAD: &str = "program.cbor.gz";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    /// The launched kernel, the user's file and the mode (`off`, `flag`, `stmt`), for people.
    pub kernel: String,
    pub file: String,
    pub mode: String,
    /// FNV-1a of `program.cbor.gz`, in hex.
    pub payload_hash: String,
}

/// One prepared run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bundle {
    /// The user's file, as `gmrace run` was given it.
    pub file: String,
    /// The user's file parsed: what the report locates and names.
    pub module: Module,
    /// The analysis a checked run's report shows beside the run's races; `None` for
    /// `--mode off`.
    pub report: Option<KernelReport>,
    /// What runs: one program, or for a checked run whose warpTable place was left to the
    /// device, one per place ([`Bundle::program_for`] picks as `gmrace run` would there).
    pub programs: Vec<Program>,
    /// The launched kernel's static shared memory and the launch's dynamic shared memory.
    pub shared_bytes: (u64, u64),
    /// The texts reports quote, by the names reports give files.
    pub sources: BTreeMap<String, String>,
    /// Which CUDA headers the front end read (`CUDA headers: ...`).
    pub headers: String,
    /// Whether the analysis proved every access of the launch safe and found no divergent
    /// barrier: the result of an `off` run, which checks nothing, then cannot depend on the
    /// schedule but through atomics.
    pub proved_race_free: bool,
    /// `--max-steps`, `--timing`, `--count-checks` as `gmrace run` was given them.
    pub max_steps: Option<u64>,
    pub timing: bool,
    pub count_checks: bool,
}

/// A program and its launch.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Program {
    /// Resolved against the module that runs (the instrumented one, without the runtime's
    /// parameter, for a checked run).
    pub launch: Launch,
    /// What NVRTC compiles, the user headers captured.
    pub cuda: CudaSource,
    /// `None` for `--mode off`.
    pub checked: Option<CheckedProgram>,
}

impl Program {
    /// The module the launch runs.
    pub fn module<'a>(&'a self, bundle: &'a Bundle) -> &'a Module {
        self.checked.as_ref().map_or(&bundle.module, |c| &c.imodule)
    }
}

impl Bundle {
    /// `off`, `flag` or `stmt`, followed by ` --all` where every shared access is checked.
    pub fn mode(&self) -> String {
        match self.programs.first().and_then(|p| p.checked.as_ref()) {
            None => "off".to_string(),
            Some(c) if c.plan.all => format!("{} --all", c.mode.name()),
            Some(c) => c.mode.name().to_string(),
        }
    }

    /// The program a device with `limits` runs: where the warpTable was left to the device,
    /// the one `gmrace run` would instrument for it.
    pub fn program_for(&self, limits: SharedLimits) -> &Program {
        let (static_bytes, dynamic_bytes) = self.shared_bytes;
        let want = warp_table_for(static_bytes, dynamic_bytes, limits);
        self.programs
            .iter()
            .find(|p| {
                p.checked
                    .as_ref()
                    .is_some_and(|c| c.plan.warp_table == want)
            })
            .unwrap_or(&self.programs[0])
    }

    /// The launched kernel's name.
    pub fn kernel(&self) -> &str {
        let p = &self.programs[0];
        p.module(self)
            .kernels
            .get(p.launch.kernel)
            .map_or("?", |k| k.name.as_str())
    }

    /// Writes the bundle into `dir` (created if needed; its two files replaced).
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        self.check()?;
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        ciborium::into_writer(self, &mut gz)
            .map_err(|e| format!("cannot encode the bundle: {e}"))?;
        let payload = gz
            .finish()
            .map_err(|e| format!("cannot compress the bundle: {e}"))?;
        let manifest = Manifest {
            format: FORMAT.to_string(),
            version: VERSION,
            kernel: self.kernel().to_string(),
            file: self.file.clone(),
            mode: self.mode(),
            payload_hash: payload_hash(&payload),
        };
        let text = serde_json::to_string_pretty(&manifest)
            .map_err(|e| format!("cannot encode the manifest: {e}"))?;
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.join(name), bytes)
                .map_err(|e| format!("cannot write `{}`: {e}", dir.join(name).display()))
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        write(PAYLOAD, &payload)?;
        write(MANIFEST, format!("{text}\n").as_bytes())
    }

    /// Reads a bundle written by [`Bundle::write`] of this version; `Err` says why not.
    pub fn read(dir: &Path) -> Result<Bundle, String> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("not a gmrace bundle: cannot read `{}`: {e}", path.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| format!("not a gmrace bundle: `{}`: {e}", path.display()))?;
        if manifest.format != FORMAT {
            return Err(format!(
                "not a gmrace bundle: `{}` says format `{}`",
                path.display(),
                manifest.format
            ));
        }
        if manifest.version != VERSION {
            return Err(format!(
                "bundle format version {} is not this gmrace-gpu's ({VERSION}): prepare it \
                 again with the gmrace of the same release",
                manifest.version
            ));
        }
        let path = dir.join(PAYLOAD);
        let payload =
            std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        if payload_hash(&payload) != manifest.payload_hash {
            return Err(format!(
                "`{}` is truncated or corrupted (its hash is not the manifest's)",
                path.display()
            ));
        }
        let bundle: Bundle = ciborium::from_reader(GzDecoder::new(payload.as_slice()))
            .map_err(|e| format!("cannot decode `{}`: {e}", path.display()))?;
        bundle.check()?;
        Ok(bundle)
    }

    /// What the devices rely on: a program, and each program's launch names a kernel of the
    /// module that runs, with an argument of the right kind per parameter and buffers of their
    /// stated size; a checked run has its analysis.
    fn check(&self) -> Result<(), String> {
        if self.programs.is_empty() {
            return Err("inconsistent bundle: no program".to_string());
        }
        if self.programs.iter().any(|p| p.checked.is_some()) != self.report.is_some() {
            return Err("inconsistent bundle: a checked run without its analysis".to_string());
        }
        self.programs.iter().try_for_each(|p| self.check_program(p))
    }

    fn check_program(&self, p: &Program) -> Result<(), String> {
        let module = p.module(self);
        let kernel = module
            .kernels
            .get(p.launch.kernel)
            .ok_or("inconsistent bundle: the launch names no kernel of its module")?;
        // A checked run's launch leaves out the runtime's parameter, which the run attaches.
        let params = kernel
            .params
            .len()
            .saturating_sub(usize::from(p.checked.is_some()));
        if params != p.launch.args.len() {
            return Err(format!(
                "inconsistent bundle: kernel `{}` has {params} parameters, the launch {} arguments",
                kernel.name,
                p.launch.args.len()
            ));
        }
        let buffers = p.launch.args.iter().filter_map(|a| match a {
            Arg::Buffer(b) => Some(b),
            Arg::Scalar { .. } => None,
        });
        for b in buffers.chain(p.launch.globals.iter().flatten()) {
            if Some(b.bytes.len() as u64) != b.len.checked_mul(b.elem.size() as u64) {
                return Err(format!(
                    "inconsistent bundle: buffer `{}` does not hold {} elements",
                    b.name, b.len
                ));
            }
        }
        if p.launch.globals.len() > module.globals.len() {
            return Err("inconsistent bundle: more global buffers than globals".to_string());
        }
        Ok(())
    }
}

/// The manifest's `payload_hash`: 64-bit FNV-1a in hex, enough to tell a damaged payload from
/// the one the manifest describes.
pub fn payload_hash(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}
