//! Launches that one file of a program makes of kernels another file defines: `main.cu`
//! declares `__global__ void k(float *, int);` (itself or through a header) and launches
//! `k<<<g, dim3(8, 8)>>>`, `kernels.cu` defines `k`. Read alone, `kernels.cu` has no launch of
//! `k` and its block stays open: a kernel written for 8x8 blocks races under blocks no program
//! makes. When files are analysed together (`gmrace analyze DIR`, or the files of a build), the
//! defining file's kernel gets the other file's launch sites as if they were its own: analysed
//! under each, their sources named by file and line (`launch at main.cu:30`).
//!
//! A launch site is given to a kernel only where it can only be that kernel's: same name as
//! clang prints it (an overload's with its parameter types), as many arguments as parameters,
//! external linkage (a `static` kernel or one in an anonymous namespace is launched only from
//! its own file), the two files in one directory (a directory of several programs, or a build
//! of many, keeps each program's kernels apart: a program's files sit together), and exactly one
//! file of that directory defines a kernel of that name (two definitions cannot be linked into
//! one program, so which one the launch runs is not known).
//!
//! Invariant: a file's own launches are never changed, only joined by others; a kernel no other
//! file launches is analysed exactly as when its file is read alone.

use gmrace_analyzer::ir::{LaunchSite, Module, NotAnalysed};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Gives each kernel of `modules` the launch sites of the other modules that can only be its
/// launches (see the module docs).
pub fn share_launches(modules: &mut [Option<&mut Module>]) {
    let dirs: Vec<Option<PathBuf>> = modules
        .iter()
        .map(|m| m.as_deref().and_then(directory))
        .collect();
    let mut definers: HashMap<(&Path, &str), Vec<usize>> = HashMap::new();
    for (i, m) in modules.iter().enumerate() {
        let (Some(m), Some(dir)) = (m.as_deref(), dirs[i].as_deref()) else {
            continue;
        };
        let names = m.kernels.iter().filter(|k| !k.internal).map(|k| &k.name);
        for name in names.chain(m.not_analysed.iter().map(|n| &n.name)) {
            let files = definers.entry((dir, name.as_str())).or_default();
            if !files.contains(&i) {
                files.push(i);
            }
        }
    }
    let mut given: Vec<(usize, LaunchSite, String)> = Vec::new();
    for (i, m) in modules.iter().enumerate() {
        let (Some(m), Some(dir)) = (m.as_deref(), dirs[i].as_deref()) else {
            continue;
        };
        // A launch that never happens is no other file's business.
        for site in m.foreign_launches().filter(|s| !s.ruled_out) {
            let Some(&[target]) = definers
                .get(&(dir, site.kernel.as_str()))
                .map(Vec::as_slice)
            else {
                continue;
            };
            // A foreign launch is of a kernel this file does not define: `target` is another.
            if let Some(file) = m.files.get(site.span.file as usize) {
                given.push((target, site.clone(), file.clone()));
            }
        }
    }
    for (target, mut site, file) in given {
        let Some(m) = modules[target].as_deref_mut() else {
            continue;
        };
        let fits = m
            .kernels
            .iter()
            .any(|k| k.name == site.kernel && k.params.len() == site.args.len());
        if !fits {
            continue;
        }
        site.span.file = file_index(m, file);
        m.launches.push(site);
    }
}

/// Why a header's kernel template is listed by `list_unused_templates`.
pub const UNUSED_IN_PROGRAM: &str = "template never instantiated by the files analysed together";

/// Lists each kernel template of a header that no module instantiates or lists, once, with the
/// first module that includes the header (`Module::unused_templates`): read one by one, such a
/// template is no file's to list, but analysed together the files are the program, and every
/// kernel a program's files define appears.
pub fn list_unused_templates(modules: &mut [Option<&mut Module>]) {
    let mut seen: HashSet<(PathBuf, String)> = HashSet::new();
    for m in modules.iter().flatten() {
        let kernels = m
            .kernels
            .iter()
            .map(|k| (k.span.file, template_name(&k.name)));
        let listed = m
            .not_analysed
            .iter()
            .map(|n| (n.span.file, n.name.as_str()));
        for (file, name) in kernels.chain(listed) {
            if let Some(path) = canonical(m, file) {
                seen.insert((path, name.to_string()));
            }
        }
    }
    for m in modules.iter_mut().flatten() {
        for t in std::mem::take(&mut m.unused_templates) {
            let Some(path) = canonical(m, t.span.file) else {
                continue;
            };
            if seen.insert((path, t.name.clone())) {
                m.not_analysed.push(NotAnalysed {
                    reason: UNUSED_IN_PROGRAM.into(),
                    ..t
                });
            }
        }
    }
}

/// `k` for an instantiation `k<float, 4>`.
fn template_name(kernel: &str) -> &str {
    kernel.split('<').next().unwrap_or(kernel)
}

fn canonical(m: &Module, file: u32) -> Option<PathBuf> {
    Path::new(m.files.get(file as usize)?).canonicalize().ok()
}

/// The directory of the file the module was read from.
fn directory(m: &Module) -> Option<PathBuf> {
    let main = Path::new(m.files.first()?).canonicalize().ok()?;
    main.parent().map(Path::to_path_buf)
}

/// `file`'s index in the module's file table, added if it is not there.
fn file_index(m: &mut Module, file: String) -> u32 {
    let at = match m.files.iter().position(|f| *f == file) {
        Some(at) => at,
        None => {
            m.files.push(file);
            m.files.len() - 1
        }
    };
    at as u32
}
