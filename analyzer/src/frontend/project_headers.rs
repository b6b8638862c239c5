//! A project's own header the include path does not reach. Projects build with `-I` flags their
//! Makefile or CMake file gives (`-I../common`), and a user who runs gmrace on one file rarely
//! repeats them; read as empty, such a header leaves the kernels' block sizes and types undefined
//! and the file refused or analysed under weaker assumptions than the project states. So a header
//! clang did not find is looked for in the project around the file, nearest first: the file's
//! directory and what lies below it, then its parent's, up to `LEVELS_UP` levels and never
//! above a repository's root (a directory holding `.git`); the file system's root, the home
//! directory and the temporary directory hold everyone's files and are never searched (a file
//! in `/tmp/x/` must not take a header from anywhere in `/tmp`). Hidden directories and cache
//! directories (`CACHEDIR.TAG`: cargo's `target`, gmrace's own headers) are not entered, and
//! each directory searched lists at most `MAX_ENTRIES` entries, so the search is bounded and
//! depends only on the files there. The header's directory is then searched after
//! every other (`-idirafter`): it never hides a header the include path has, and the report names
//! the file it read.

use super::cursor::inclusion_directives;
use super::directives::{directives, Directive};
use clang::TranslationUnit;
use std::path::{Component, Path, PathBuf};

/// How many directories above the file's own the search goes.
const LEVELS_UP: usize = 3;

/// Entries one directory's search lists at most, its subdirectories' included.
const MAX_ENTRIES: usize = 20_000;

/// A header found in the project: the directory to search and the file found there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub dir: PathBuf,
    pub file: PathBuf,
}

/// The project's file that `#include`s of `header` in the file `source` most likely mean, if
/// any: the nearest match of its path (`common/sizes.h` matches `.../common/sizes.h`), and among
/// those at one level the one fewest directories down, then the first by name.
pub(crate) fn find(source: &Path, header: &str) -> Option<Found> {
    let wanted = header_components(header)?;
    let mut searched: Option<PathBuf> = None;
    for dir in search_dirs(source) {
        let mut hits = Vec::new();
        let mut entries = 0;
        walk(&dir, searched.as_deref(), &wanted, &mut entries, &mut hits);
        let best = hits
            .into_iter()
            .min_by_key(|f: &PathBuf| (f.components().count(), f.clone()));
        if let Some(file) = best {
            let mut dir = file.clone();
            for _ in &wanted {
                dir.pop();
            }
            return Some(Found { dir, file });
        }
        searched = Some(dir);
    }
    None
}

/// Project files `prefind` reads at most, the file's own headers and theirs.
const MAX_SCANNED: usize = 256;

/// Where `#include "name"` is looked for besides the including file's directory: the project's
/// directories (whose headers `prefind` reads on), gmrace's (whose headers it reads on, for the
/// C++ library headers they include: `<thrust/...>`) and the system's (whose it does not).
pub(crate) struct SearchPath {
    pub project: Vec<PathBuf>,
    pub ours: Vec<PathBuf>,
    pub system: Vec<PathBuf>,
}

/// What `prefind` read in a file and in the project headers it reaches.
#[derive(Debug, Default)]
pub(crate) struct Prefound {
    /// The headers that `find` gives for their `#include "name"` lines, in order.
    pub found: Vec<(String, Found)>,
    /// Their `#include <name>` lines and the macros they define or undefine, in the order
    /// the preprocessor would read them (each project header read at its first `#include`).
    pub read: Vec<Directive>,
}

/// The headers that `find` would give for the file's `#include "name"` lines, and those of the
/// project headers they reach, that neither the including file's directory nor `path` holds:
/// found before the first parse, which otherwise only finds out that they are missing and has
/// to be done again with them. The lines are read without the preprocessor, so an include
/// under `#if` counts too: `included` drops what the parse did not include.
pub(crate) fn prefind(source: &Path, text: &str, path: &SearchPath) -> Prefound {
    let mut pre = Prefound::default();
    let mut scanned = Vec::new();
    scan(source, text, (source, path), &mut scanned, &mut pre);
    pre
}

/// Adds to `pre` what `file` includes and defines, in the order of its lines, each project
/// header and each of gmrace's reached read in turn.
fn scan(
    file: &Path,
    text: &str,
    (source, path): (&Path, &SearchPath),
    scanned: &mut Vec<PathBuf>,
    pre: &mut Prefound,
) {
    for d in directives(text) {
        let next = match d {
            Directive::Quoted(header) => quoted(file, header, (source, path), pre),
            Directive::Angled(header) => {
                let ours = first_holding(&path.ours, &header)
                    .filter(|_| first_holding(&path.project, &header).is_none());
                pre.read.push(Directive::Angled(header));
                ours
            }
            Directive::Macro(_) => {
                pre.read.push(d);
                None
            }
        };
        let Some(next) = next else {
            continue;
        };
        let Ok(canonical) = next.canonicalize() else {
            continue;
        };
        if scanned.len() >= MAX_SCANNED || scanned.contains(&canonical) {
            continue;
        }
        scanned.push(canonical);
        if let Ok(text) = std::fs::read(&next) {
            scan(
                &next,
                &String::from_utf8_lossy(&text),
                (source, path),
                scanned,
                pre,
            );
        }
    }
}

/// The file `#include "header"` in `file` reads, if `prefind` reads on through it: next to
/// `file`, in the project's or gmrace's directories, or (not from gmrace's) found in the
/// project, then added to `pre.found`; not one of the system's.
fn quoted(
    file: &Path,
    header: String,
    (source, path): (&Path, &SearchPath),
    pre: &mut Prefound,
) -> Option<PathBuf> {
    if pre.found.iter().any(|(h, _)| *h == header) {
        return None;
    }
    let here = file.parent().map(|d| d.join(&header));
    if let Some(p) = here.filter(|p| p.is_file()) {
        return Some(p);
    }
    if let Some(p) = first_holding(&path.project, &header) {
        return Some(p);
    }
    if let Some(p) = first_holding(&path.ours, &header) {
        return Some(p);
    }
    // gmrace's headers never include a project's.
    let ours = path.ours.iter().any(|d| file.starts_with(d));
    if ours || first_holding(&path.system, &header).is_some() {
        return None;
    }
    let f = find(source, &header)?;
    let p = f.file.clone();
    pre.found.push((header, f));
    Some(p)
}

/// `header` in the first of `dirs` that holds it.
fn first_holding(dirs: &[PathBuf], header: &str) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join(header)).find(|p| p.is_file())
}

/// `found` less the headers the parse `tu` did not include.
pub(crate) fn included(found: Vec<(String, Found)>, tu: &TranslationUnit) -> Vec<(String, Found)> {
    let files: Vec<PathBuf> = inclusion_directives(tu)
        .into_iter()
        .filter_map(|e| e.get_file()?.get_path().canonicalize().ok())
        .collect();
    found
        .into_iter()
        .filter(|(_, f)| f.file.canonicalize().is_ok_and(|c| files.contains(&c)))
        .collect()
}

/// The header name's components, or nothing for a name that could point outside the
/// directory it is found in (`../x.h`, `/usr/include/x.h`).
fn header_components(header: &str) -> Option<Vec<String>> {
    let parts: Vec<String> = Path::new(header)
        .components()
        .map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then_some(parts)
}

/// The directories searched, nearest first: the file's own, then each parent while allowed.
fn search_dirs(source: &Path) -> Vec<PathBuf> {
    let start = match source.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let Ok(start_abs) = start.canonicalize() else {
        return Vec::new();
    };
    // Directories that hold everyone's files, not a project's.
    let home = std::env::var_os("HOME").and_then(|h| PathBuf::from(h).canonicalize().ok());
    let temp = std::env::temp_dir().canonicalize().ok();
    let shared =
        |d: &Path| d.parent().is_none() || home.as_deref() == Some(d) || temp.as_deref() == Some(d);
    if shared(&start_abs) {
        return Vec::new();
    }
    let mut dirs = vec![start.clone()];
    let (mut rel, mut abs) = (start, start_abs);
    for _ in 0..LEVELS_UP {
        if abs.join(".git").exists() {
            break;
        }
        let Some(parent) = abs.parent() else { break };
        if shared(parent) {
            break;
        }
        abs = parent.to_path_buf();
        rel = parent_of(rel);
        dirs.push(rel.clone());
    }
    dirs
}

/// `dir`'s parent, spelled as short as `dir` was (`a/b` → `a`, `a` → `.`, `.` → `..`).
fn parent_of(mut dir: PathBuf) -> PathBuf {
    match dir.components().next_back() {
        Some(Component::Normal(_)) => {
            dir.pop();
            if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            }
        }
        Some(Component::CurDir) if dir.components().count() == 1 => PathBuf::from(".."),
        _ => dir.join(".."),
    }
}

/// Collects into `hits` the files below `dir` (not below `skip`, searched already) whose path
/// ends with `wanted`, in name order, while `entries` stays within `MAX_ENTRIES`.
fn walk(
    dir: &Path,
    skip: Option<&Path>,
    wanted: &[String],
    entries: &mut usize,
    hits: &mut Vec<PathBuf>,
) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<_> = read.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    names.sort();
    for path in names {
        *entries += 1;
        if *entries > MAX_ENTRIES {
            return;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_file() && ends_with(&path, wanted) {
            hits.push(path);
        } else if meta.is_dir() && !is_same(&path, skip) && enterable(&path) {
            walk(&path, skip, wanted, entries, hits);
        }
    }
}

fn is_same(dir: &Path, skip: Option<&Path>) -> bool {
    skip.is_some_and(|s| match (dir.canonicalize(), s.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    })
}

fn ends_with(path: &Path, wanted: &[String]) -> bool {
    let names: Vec<_> = path.components().rev().take(wanted.len()).collect();
    names.len() == wanted.len()
        && names
            .iter()
            .zip(wanted.iter().rev())
            .all(|(c, w)| c.as_os_str() == w.as_str())
}

fn enterable(dir: &Path) -> bool {
    let hidden = dir
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
    !hidden && !dir.join("CACHEDIR.TAG").exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> PathBuf {
        let root = std::env::temp_dir().join(format!(
            "gmrace-project-headers-{}-{}",
            std::process::id(),
            files.len()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(".git")).unwrap();
        for f in files {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        root
    }

    #[test]
    fn the_nearest_header_of_that_path_is_found_and_never_above_the_repository() {
        let root = tree(&[
            "src/level1/bfs/bfs.cu",
            "src/common/cudacommon.h",
            "other/common/cudacommon.h",
            "src/level1/inc/deep/sub/util.h",
            "src/level1/util.h",
            "src/level1/bfs/gen/sizes.h",
            "target/CACHEDIR.TAG",
            "target/debug/kept.h",
            ".cache/hidden.h",
        ]);
        let cu = root.join("src/level1/bfs/bfs.cu");
        let found = |h| find(&cu, h).map(|f| f.file.canonicalize().unwrap());
        assert_eq!(
            found("cudacommon.h"),
            Some(root.join("src/common/cudacommon.h").canonicalize().unwrap())
        );
        assert_eq!(
            found("common/cudacommon.h"),
            found("cudacommon.h"),
            "a path is matched by its last components"
        );
        assert_eq!(
            found("util.h"),
            Some(root.join("src/level1/util.h").canonicalize().unwrap()),
            "at one level, the shallowest"
        );
        assert_eq!(
            found("sizes.h"),
            Some(
                root.join("src/level1/bfs/gen/sizes.h")
                    .canonicalize()
                    .unwrap()
            )
        );
        let dir = find(&cu, "gen/sizes.h")
            .unwrap()
            .dir
            .canonicalize()
            .unwrap();
        assert_eq!(dir, root.join("src/level1/bfs").canonicalize().unwrap());
        assert_eq!(found("kept.h"), None, "cache directories are not entered");
        assert_eq!(
            found("hidden.h"),
            None,
            "hidden directories are not entered"
        );
        assert_eq!(found("../common/cudacommon.h"), None);
        assert_eq!(found("absent.h"), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_temporary_directory_is_never_searched() {
        let temp = std::env::temp_dir().canonicalize().unwrap();
        let project = temp.join(format!("gmrace-shared-dirs-{}", std::process::id()));
        std::fs::create_dir_all(project.join("a/b")).unwrap();
        let dirs: Vec<PathBuf> = search_dirs(&project.join("a/b/k.cu"))
            .iter()
            .map(|d| d.canonicalize().unwrap())
            .collect();
        assert_eq!(
            dirs,
            [project.join("a/b"), project.join("a"), project.clone()]
        );
        assert!(search_dirs(&temp.join("k.cu")).is_empty());
        std::fs::remove_dir_all(&project).unwrap();
    }

    #[test]
    fn prefind_reads_on_through_found_local_and_gmrace_headers_but_not_system_ones() {
        let root = tree(&[
            "app/main.cu",
            "app/local.h",
            "common/sizes.h",
            "common/near_sizes.h",
            "warp/lanes.h",
            "warp/from_local.h",
            "sys/cuda_runtime.h",
            "sys/hidden_by_system.h",
            "other/cuda_runtime.h",
            "other/unread.h",
            "ours/thrust/reduce.h",
            "ours/thrust/gmrace_thrust.h",
        ]);
        let write = |f: &str, text: &str| std::fs::write(root.join(f), text).unwrap();
        write(
            "common/sizes.h",
            "#include \"near_sizes.h\"\n#include \"lanes.h\"\n#include <vector>\n#define N 4\n",
        );
        write("app/local.h", "  #  include \"from_local.h\" // why\n");
        write(
            "sys/cuda_runtime.h",
            "#include \"hidden_by_system.h\"\n#include <map>\n#define M 1\n",
        );
        write("ours/thrust/reduce.h", "#include \"gmrace_thrust.h\"\n");
        write("ours/thrust/gmrace_thrust.h", "#include <tuple>\n");
        let source = root.join("app/main.cu");
        let text = "#include \"cuda_runtime.h\"\n#include <sizes.h>\n#include \"sizes.h\"\n\
                    #include \"local.h\"\n#include \"absent.h\"\n#include \"sizes.h\"\n\
                    #include <thrust/reduce.h>\n";
        let path = SearchPath {
            project: Vec::new(),
            ours: vec![root.join("ours")],
            system: vec![root.join("sys")],
        };
        let pre = prefind(&source, text, &path);
        assert_eq!(
            pre.read,
            [
                Directive::Angled("sizes.h".into()),
                Directive::Angled("vector".into()),
                Directive::Macro("N".into()),
                Directive::Angled("thrust/reduce.h".into()),
                Directive::Angled("tuple".into()),
            ],
            "as the preprocessor reads them, gmrace's headers too; the system's are not read"
        );
        let found: Vec<String> = pre
            .found
            .into_iter()
            .map(|(h, f)| {
                let rel = f.file.strip_prefix(&root).unwrap().display().to_string();
                format!("{h}={rel}")
            })
            .collect();
        assert_eq!(
            found,
            [
                "sizes.h=common/sizes.h",
                "lanes.h=warp/lanes.h",
                "from_local.h=warp/from_local.h"
            ],
            "in the order of the lines, each once; `near_sizes.h` is next to its includer, \
             `<sizes.h>` is clang's to look for, and the system's headers are not read"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
