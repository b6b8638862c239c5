//! What `gpu-check.sh` keeps of a GPU check: the machine (GPU, driver, NVRTC) and one row per
//! bundle (`results.json`), and the table it prints. A checked run's time is given over the
//! plain run's of the same kernel and file, when both bundles were run.

use crate::compare::Row;
use gmrace_runtime_cuda::cuda::Gpu;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The GPU that ran the check, as the probe found it.
#[derive(Serialize)]
pub struct Machine {
    pub gpu: String,
    pub compute_capability: String,
    /// As `cuDriverGetVersion` gives it (12040 is CUDA 12.4).
    pub driver_version: i32,
    pub nvrtc_version: String,
}

impl Machine {
    pub fn of(g: &Gpu) -> Machine {
        Machine {
            gpu: g.name.clone(),
            compute_capability: format!("{}.{}", g.compute_capability.0, g.compute_capability.1),
            driver_version: g.driver_version,
            nvrtc_version: format!("{}.{}", g.nvrtc_version.0, g.nvrtc_version.1),
        }
    }

    pub fn text(&self) -> String {
        format!(
            "GPU: {} (compute capability {}), CUDA driver {}.{}, NVRTC {}",
            self.gpu,
            self.compute_capability,
            self.driver_version / 1000,
            self.driver_version % 1000 / 10,
            self.nvrtc_version
        )
    }
}

#[derive(Serialize)]
pub struct Results<'a> {
    pub gpu: Option<&'a Machine>,
    pub rows: &'a [Row],
}

/// The table, one line per row, then how many agree.
pub fn text(rows: &[Row]) -> String {
    let plain: BTreeMap<(&str, &str), f64> = rows
        .iter()
        .filter(|r| r.mode == "off")
        .map(|r| ((r.file.as_str(), r.kernel.as_str()), r.gpu_ms))
        .collect();
    let mut s = format!(
        "{:<24} {:<28} {:<10} {:>9} {:>10} {:<9} {:>10} {:>11}  agree\n",
        "file", "kernel", "mode", "races C/G", "faults C/G", "buffers", "GPU ms", "checked/off"
    );
    for r in rows {
        let over = plain
            .get(&(r.file.as_str(), r.kernel.as_str()))
            .filter(|_| r.mode != "off")
            .map_or("-".to_string(), |off| format!("{:.2}", r.gpu_ms / off));
        let buffers = match (r.buffers_equal, r.schedule_dependent) {
            (Some(true), _) => "equal",
            (Some(false), _) => "DIFFER",
            (None, true) => "sched-dep",
            (None, false) => "faulted",
        };
        let _ = writeln!(
            s,
            "{:<24} {:<28} {:<10} {:>9} {:>10} {:<9} {:>10.3} {:>11}  {}",
            // Twins share their kernel's name: the file tells them apart.
            std::path::Path::new(&r.file)
                .file_stem()
                .map_or(r.file.as_str(), |s| s.to_str().unwrap_or("?")),
            r.kernel,
            r.mode,
            format!("{}/{}", r.races_cpu.len(), r.races_gpu.len()),
            format!("{}/{}", r.faults_cpu.len(), r.faults_gpu.len()),
            buffers,
            r.gpu_ms,
            over,
            if r.agree { "yes" } else { "NO" }
        );
    }
    let agree = rows.iter().filter(|r| r.agree).count();
    let _ = writeln!(s, "{agree} of {} bundles agree", rows.len());
    s
}
