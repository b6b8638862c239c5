//! An instrumented program ready to run, as data: the instrumented file's IR, the plan that
//! says what it records, and the map back to the user's file. `gmrace run` builds one from the
//! instrumenter's output; a bundle carries one to a machine with no front end (`gmrace-gpu`),
//! and both run it through [`CheckedProgram::run`], so that the same device gives the same run.
//!
//! A run shows the device's locations in the user's file through the source map. A location
//! inside `gmrace_runtime.cuh` is shown at the user's line that called the runtime
//! (`Loc::called_from`, which the CPU device fills from `Program::call_sites`: per instruction,
//! the last main-file span lowered), and says so. The race log's shared-layout table maps the
//! plan's `shared` (names, `extern`) to the offsets the device reported.

use crate::launch::Launch;
use crate::race_log::{self, CheckedRun, Config, SharedDecl};
use crate::report::{Fault, Loc};
use crate::{Device, DeviceError, RunOptions, SharedLimits};
use gmrace_ir::plan::{
    KernelPlan, Mode, Plan, WarpTable, RUNTIME_HEADER_NAME, WARP_TABLE_SHARED_BYTES,
};
use gmrace_ir::source_map::SourceMap;
use gmrace_ir::Module;
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckedProgram {
    pub mode: Mode,
    /// The launched kernel, as clang prints it.
    pub kernel: String,
    /// The user's file, as its module names it (`Module::files[0]`).
    pub original: String,
    /// The name the instrumented text was parsed and is compiled under: `dir/stem.gmrace.cu`.
    pub name: String,
    /// The instrumented text parsed.
    pub imodule: Module,
    pub plan: Plan,
    pub map: SourceMap,
    /// Race records the log keeps (default: `race_log::Config::new`'s).
    pub log_capacity: Option<u32>,
}

impl CheckedProgram {
    /// The plan of the launched kernel.
    pub fn kernel_plan(&self) -> Option<&KernelPlan> {
        self.plan.kernels.iter().find(|k| k.name == self.kernel)
    }

    /// One run on `device` with a fresh runtime buffer; `launch` was resolved against the
    /// instrumented module without its runtime parameter. Each call runs again.
    pub fn run(
        &self,
        device: &dyn Device,
        launch: &Launch,
        opts: &RunOptions,
    ) -> Result<CheckedRun, DeviceError> {
        let mut cfg = Config::new(self.mode, self.plan.granule);
        if let Some(c) = self.log_capacity {
            cfg.log_capacity = c;
        }
        // A kernel that runs as written never touches the buffer: the header alone comes back
        // (zeroed counters, a complete run), nothing else to allocate, zero and read back.
        cfg.header_only = !self.kernel_plan().is_none_or(|k| k.checked);
        let decls: Vec<SharedDecl> = self
            .plan
            .shared
            .iter()
            .map(|d| SharedDecl {
                name: d.name.clone(),
                dynamic: d.dynamic,
            })
            .collect();
        let mut run =
            race_log::run_checked(device, &self.imodule, launch.clone(), &cfg, &decls, opts)
                .map_err(|mut e| {
                    e.loc = e.loc.map(|l| self.user_loc(l).0);
                    e
                })?;
        for f in &mut run.result.faults {
            self.show_in_user_file(f);
        }
        Ok(run)
    }

    /// Points a fault of the instrumented program at the user's file (the instrumented file
    /// is a temporary one the user never sees); a fault inside gmrace's runtime header is
    /// shown at the user's line that called the runtime, and says so.
    fn show_in_user_file(&self, f: &mut Fault) {
        if let Some((loc, in_runtime)) = f.loc.take().map(|l| self.user_loc(l)) {
            if in_runtime {
                f.message += &format!(
                    " (in gmrace's runtime, called from {}:{})",
                    loc.file, loc.line
                );
            }
            f.loc = Some(loc);
        }
        for n in &mut f.notes {
            if let Some((loc, in_runtime)) = n.loc.take().map(|l| self.user_loc(l)) {
                if in_runtime {
                    n.message += " (in gmrace's runtime)";
                }
                n.loc = Some(loc);
            }
        }
    }

    /// `loc` in the user's file, and whether it was in gmrace's runtime (then it is the
    /// runtime's caller).
    fn user_loc(&self, loc: Loc) -> (Loc, bool) {
        let in_runtime = Path::new(&loc.file).file_name() == Some(OsStr::new(RUNTIME_HEADER_NAME));
        if in_runtime {
            return match loc.called_from {
                Some(site) => (self.user_loc(*site).0, true),
                None => (loc, false),
            };
        }
        match self.map.original(loc.line, loc.column) {
            Some((line, column)) if loc.file == self.name => (
                Loc {
                    file: self.original.clone(),
                    line,
                    column,
                    called_from: None,
                },
                false,
            ),
            _ => (loc, false),
        }
    }
}

/// Where the warpTable goes when `--warp-table` is not given: shared memory when the launched
/// kernel's static shared memory with the table added still fits the device's static limit,
/// and with the launch's dynamic shared memory its total limit; device memory otherwise.
pub fn warp_table_for(static_bytes: u64, dynamic_bytes: u64, limits: SharedLimits) -> WarpTable {
    let with_table = static_bytes + WARP_TABLE_SHARED_BYTES;
    if with_table <= limits.static_bytes && with_table + dynamic_bytes <= limits.total_bytes {
        WarpTable::Shared
    } else {
        WarpTable::Global
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::CpuDevice;
    use crate::Device;
    use gmrace_ir::plan::WarpTable::{Global, Shared};

    #[test]
    fn the_warp_table_stays_in_shared_memory_while_the_device_has_room() {
        let cpu = CpuDevice.shared_limits();
        let turing = SharedLimits {
            static_bytes: 48 * 1024,
            total_bytes: 64 * 1024,
        };
        // 62000 dynamic bytes leave room for it within 96 KiB, not within 64 KiB.
        assert_eq!(warp_table_for(256, 62000, cpu), Shared);
        assert_eq!(warp_table_for(256, 62000, turing), Global);
        // 60000 bytes leave room within 64 KiB too: the runtime takes 4 KiB and 16 bytes.
        assert_eq!(warp_table_for(256, 60000, turing), Shared);
        // 44 KiB of static shared memory leave no room in 48 KiB of static memory.
        assert_eq!(warp_table_for(44 * 1024, 0, cpu), Global);
        assert_eq!(warp_table_for(40 * 1024, 0, turing), Shared);
    }
}
