//! `real-code [--jobs N] [--timeout SECONDS] [--gmrace PATH] [--programs] [-I DIR]... ROOT...`:
//! runs `gmrace analyze FILE --format json` on every `.cu` file below each ROOT and prints a
//! Markdown report. With `--programs`, each ROOT is a program's directory and the unit is the
//! program: `gmrace analyze ROOT --format json`, which also gives a kernel the launches other
//! files of the program make of it.
//!
//! The test suites measure precision on kernels written for gmrace; this measures what a user
//! meets first on code written for something else, shipped as projects ship it (host code,
//! project headers, several kernels a file): does gmrace read the file at all, does it say why
//! when it does not, how long it takes, and how much of what it reads it decides. So the unit is
//! the file, and each file is a separate process, as a user would run it: a crash or a hang costs
//! that file only and is counted rather than hidden, and a file gets 300 s (`--timeout`) of wall
//! clock before it counts as a timeout. A file whose text says `__global__` but which comes back
//! with neither a kernel nor a "not analysed" entry is `silent`: the worst outcome, since the user
//! is told nothing and no exit status reveals it. Shared accesses proved safe is the headline
//! precision figure: shared memory is where intra-block races live, and real code keeps its
//! barrier-synchronised accesses there, so unproved ones are the false alarms users would see.
//!
//! `--gmrace` defaults to `$GMRACE`, else `gmrace` next to this binary, else
//! `target/release/gmrace`. Only a progress count goes to stderr.

use serde_json::Value;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const DEFAULT_TIMEOUT_S: u64 = 300;
const PROGRESS_EVERY: usize = 25;

struct Options {
    gmrace: PathBuf,
    jobs: usize,
    timeout: Duration,
    includes: Vec<PathBuf>,
    roots: Vec<PathBuf>,
    /// Each ROOT is one unit, analysed as a directory.
    programs: bool,
}

/// A `.cu` file and the ROOT it was found under.
struct Input {
    root: PathBuf,
    path: PathBuf,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Exit 0 or 1 with a JSON document on stdout.
    Analysed,
    /// Exit 2: the file could not be analysed.
    Refused,
    /// Any other exit status or a signal, or no JSON document.
    Crashed,
    Timeout,
}

/// What the JSON document says; all zero when there is none.
#[derive(Default)]
struct Counts {
    kernels: usize,
    not_analysed: usize,
    definite: usize,
    conditional: usize,
    divergences: usize,
    shared: usize,
    shared_safe: usize,
    global: usize,
    global_safe: usize,
    /// Kernels with at least one definite race, in report order.
    racy_kernels: Vec<String>,
}

struct Record {
    shown: String,
    outcome: Outcome,
    /// `exit N`, `signal N` or `timeout`.
    status: String,
    seconds: f64,
    counts: Counts,
    mentions_global: bool,
    first_error: Option<String>,
}

impl Record {
    fn silent(&self) -> bool {
        self.outcome == Outcome::Analysed
            && self.counts.kernels == 0
            && self.counts.not_analysed == 0
            && self.mentions_global
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: real-code [--jobs N] [--timeout SECONDS] [--gmrace PATH] [--programs] [-I DIR]... ROOT..."
    );
    std::process::exit(2);
}

fn default_gmrace() -> PathBuf {
    if let Some(p) = std::env::var_os("GMRACE") {
        return PathBuf::from(p);
    }
    let sibling = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join("gmrace")));
    match sibling {
        Some(s) if s.is_file() => s,
        _ => PathBuf::from("target/release/gmrace"),
    }
}

fn parse_args() -> Options {
    let mut opts = Options {
        gmrace: default_gmrace(),
        jobs: 2,
        timeout: Duration::from_secs(DEFAULT_TIMEOUT_S),
        includes: Vec::new(),
        roots: Vec::new(),
        programs: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--jobs" | "-j" => {
                opts.jobs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage());
            }
            "--timeout" => {
                let secs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage());
                opts.timeout = Duration::from_secs(secs);
            }
            "--gmrace" => opts.gmrace = args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "-I" => opts
                .includes
                .push(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            "--programs" => opts.programs = true,
            "-h" | "--help" => usage(),
            _ if a.starts_with("-I") => opts.includes.push(PathBuf::from(&a[2..])),
            _ if a.starts_with('-') => usage(),
            _ => opts.roots.push(PathBuf::from(a)),
        }
    }
    if opts.roots.is_empty() || opts.jobs == 0 {
        usage();
    }
    opts
}

/// Every `.cu` file below `dir`, sorted; symbolic links to directories are not followed.
fn find_cu(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            find_cu(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "cu") && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

fn collect_inputs(roots: &[PathBuf], programs: bool) -> Vec<Input> {
    if programs {
        return roots
            .iter()
            .map(|r| Input {
                root: r.parent().map(Path::to_path_buf).unwrap_or_default(),
                path: r.clone(),
            })
            .collect();
    }
    let mut inputs = Vec::new();
    for root in roots {
        let mut files = Vec::new();
        if let Err(e) = find_cu(root, &mut files) {
            eprintln!("real-code: {}: {e}", root.display());
            std::process::exit(2);
        }
        inputs.extend(files.into_iter().map(|path| Input {
            root: root.clone(),
            path,
        }));
    }
    inputs
}

/// Reads a child's pipe to the end on its own thread, so that a full pipe cannot stall it.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Waits for `child` until `timeout`; `None` when it had to be killed. The whole process group
/// goes, so that no descendant keeps the pipes open.
fn wait_with_timeout(child: &mut Child, start: Instant, timeout: Duration) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                // SAFETY: kill(2) on the group `spawn` created for this child.
                unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Runs gmrace on one file: exit status (`None` on timeout), stdout, stderr, seconds.
fn run_gmrace(opts: &Options, file: &Path) -> (Option<ExitStatus>, Vec<u8>, Vec<u8>, f64) {
    let mut cmd = Command::new(&opts.gmrace);
    cmd.arg("analyze").arg(file).args(["--format", "json"]);
    for dir in &opts.includes {
        cmd.arg("-I").arg(dir);
    }
    let start = Instant::now();
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("real-code: cannot run {}: {e}", opts.gmrace.display());
            std::process::exit(2);
        }
    };
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = wait_with_timeout(&mut child, start, opts.timeout);
    let seconds = start.elapsed().as_secs_f64();
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    (status, out, err, seconds)
}

fn array_len(v: &Value) -> usize {
    v.as_array().map_or(0, Vec::len)
}

fn count(doc: &Value) -> Counts {
    let mut c = Counts {
        not_analysed: array_len(&doc["not_analysed"]),
        ..Counts::default()
    };
    for kernel in doc["kernels"].as_array().into_iter().flatten() {
        c.kernels += 1;
        let races = kernel["races"].as_array().map_or(&[][..], Vec::as_slice);
        let definite = races
            .iter()
            .filter(|r| r["certainty"] == "definite")
            .count();
        c.definite += definite;
        c.conditional += races
            .iter()
            .filter(|r| r["certainty"] == "conditional")
            .count();
        if definite > 0 {
            let name = kernel["name"].as_str().unwrap_or("?");
            c.racy_kernels.push(name.to_string());
        }
        c.divergences += array_len(&kernel["barrier_divergence"]);
        for access in kernel["accesses"].as_array().into_iter().flatten() {
            let (all, safe) = match access["space"].as_str() {
                Some("shared") => (&mut c.shared, &mut c.shared_safe),
                Some("global") => (&mut c.global, &mut c.global_safe),
                _ => continue,
            };
            *all += 1;
            *safe += usize::from(access["verdict"] == "safe");
        }
    }
    c
}

fn first_error(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().find(|l| l.starts_with("error:"))?;
    Some(line.chars().take(120).collect())
}

fn shown_path(input: &Input, several_roots: bool) -> String {
    match input.path.strip_prefix(&input.root) {
        Ok(rel) if !several_roots => rel.display().to_string(),
        _ => input.path.display().to_string(),
    }
}

/// Whether a file, or a file below a directory, says `__global__`.
fn mentions_global(path: &Path) -> bool {
    let mut files = Vec::new();
    match path.is_dir() {
        true => {
            let _ = find_cu(path, &mut files);
        }
        false => files.push(path.to_path_buf()),
    }
    files.iter().any(|f| {
        std::fs::read(f).is_ok_and(|t| t.windows(b"__global__".len()).any(|w| w == b"__global__"))
    })
}

fn measure(opts: &Options, input: &Input) -> Record {
    let mentions_global = mentions_global(&input.path);
    let (status, stdout, stderr, seconds) = run_gmrace(opts, &input.path);
    let doc = serde_json::from_slice::<Value>(&stdout).ok();
    let code = status.and_then(|s| s.code());
    let (outcome, status) = match (status, code) {
        (None, _) | (_, Some(124)) => (Outcome::Timeout, "timeout".to_string()),
        (_, Some(c @ (0 | 1))) if doc.is_some() => (Outcome::Analysed, format!("exit {c}")),
        // A program some of whose files were read: what was read counts.
        (_, Some(2))
            if opts.programs && doc.as_ref().is_some_and(|d| array_len(&d["kernels"]) > 0) =>
        {
            (Outcome::Analysed, "exit 2 (partly)".to_string())
        }
        (_, Some(2)) => (Outcome::Refused, "exit 2".to_string()),
        (_, Some(c)) => (Outcome::Crashed, format!("exit {c}")),
        (Some(s), None) => (
            Outcome::Crashed,
            format!("signal {}", s.signal().unwrap_or(0)),
        ),
    };
    Record {
        shown: shown_path(input, opts.roots.len() > 1),
        outcome,
        status,
        seconds,
        counts: doc.as_ref().map(count).unwrap_or_default(),
        mentions_global,
        first_error: first_error(&stderr),
    }
}

/// `measure` over every input on `opts.jobs` threads, in the inputs' order.
fn measure_all(opts: &Options, inputs: &[Input]) -> Vec<Record> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut out: Vec<(usize, Record)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..opts.jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        mine.push((i, measure(opts, input)));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if n.is_multiple_of(PROGRESS_EVERY) {
                            eprintln!("real-code: {n}/{} done", inputs.len());
                        }
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker panicked"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// The `q`-quantile by nearest rank; 0 when there is nothing.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_string()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// The summary table; `unit` is what a record is (`file` or `program`).
fn print_summary(records: &[Record], unit: &str) {
    let n = |o: Outcome| records.iter().filter(|r| r.outcome == o).count();
    let sum = |f: fn(&Counts) -> usize| records.iter().map(|r| f(&r.counts)).sum::<usize>();
    let files_with = |f: fn(&Counts) -> usize| records.iter().filter(|r| f(&r.counts) > 0).count();
    let mut times: Vec<f64> = records.iter().map(|r| r.seconds).collect();
    times.sort_by(f64::total_cmp);
    let (shared, safe) = (sum(|c| c.shared), sum(|c| c.shared_safe));
    let (global, global_safe) = (sum(|c| c.global), sum(|c| c.global_safe));
    let rows: [(String, String); 17] = [
        (format!("{unit}s"), records.len().to_string()),
        (
            "analysed (exit 0/1 with JSON)".into(),
            n(Outcome::Analysed).to_string(),
        ),
        ("refused (exit 2)".into(), n(Outcome::Refused).to_string()),
        ("crashed".into(), n(Outcome::Crashed).to_string()),
        ("timeouts".into(), n(Outcome::Timeout).to_string()),
        (
            "silent (`__global__` but no kernel reported)".into(),
            records.iter().filter(|r| r.silent()).count().to_string(),
        ),
        ("kernels analysed".into(), sum(|c| c.kernels).to_string()),
        (
            "kernels not analysed".into(),
            sum(|c| c.not_analysed).to_string(),
        ),
        (
            format!("{unit}s with a definite race"),
            files_with(|c| c.definite).to_string(),
        ),
        ("definite races".into(), sum(|c| c.definite).to_string()),
        (
            "conditional races".into(),
            sum(|c| c.conditional).to_string(),
        ),
        (
            format!("{unit}s with barrier divergence"),
            files_with(|c| c.divergences).to_string(),
        ),
        (
            "shared accesses proved safe".into(),
            format!("{safe} / {shared} ({})", percent(safe, shared)),
        ),
        (
            "global accesses proved safe".into(),
            format!(
                "{global_safe} / {global} ({})",
                percent(global_safe, global)
            ),
        ),
        (
            format!("median time per {unit} (s)"),
            format!("{:.2}", quantile(&times, 0.5)),
        ),
        (
            format!("90th percentile time per {unit} (s)"),
            format!("{:.2}", quantile(&times, 0.9)),
        ),
        (
            format!("max time per {unit} (s)"),
            format!("{:.2}", times.last().copied().unwrap_or(0.0)),
        ),
    ];
    println!("| measure | value |\n|:--|--:|");
    for (name, value) in rows {
        println!("| {name} | {value} |");
    }
}

/// `Files`, `Programs`: a heading's plural of `unit`.
fn title(unit: &str) -> String {
    let mut s = unit.to_string();
    s[..1].make_ascii_uppercase();
    s + "s"
}

/// Text safe inside a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('`', "'")
}

fn print_problems(records: &[Record], unit: &str) {
    let problems: Vec<&Record> = records
        .iter()
        .filter(|r| r.outcome != Outcome::Analysed || r.silent())
        .collect();
    println!("\n## {} not analysed\n", title(unit));
    if problems.is_empty() {
        println!("None.");
        return;
    }
    println!("| {unit} | status | first error |\n|:--|:--|:--|");
    for r in problems {
        let status = if r.silent() {
            "silent"
        } else {
            r.status.as_str()
        };
        let error = r.first_error.as_deref().map(cell).unwrap_or_default();
        println!("| {} | {status} | {error} |", cell(&r.shown));
    }
}

fn print_races(records: &[Record], unit: &str) {
    let racy: Vec<&Record> = records.iter().filter(|r| r.counts.definite > 0).collect();
    println!("\n## {} with a definite race\n", title(unit));
    if racy.is_empty() {
        println!("None.");
        return;
    }
    println!("| {unit} | definite races | kernels |\n|:--|--:|:--|");
    for r in racy {
        let names = &r.counts.racy_kernels;
        let shown: Vec<String> = names
            .iter()
            .take(3)
            .map(|k| format!("`{}`", cell(k)))
            .collect();
        let mut list = shown.join(", ");
        if names.len() > 3 {
            list += &format!(" and {} more", names.len() - 3);
        }
        println!("| {} | {} | {list} |", cell(&r.shown), r.counts.definite);
    }
}

fn main() {
    let opts = parse_args();
    if !opts.gmrace.is_file() {
        eprintln!(
            "real-code: no gmrace binary at {} (build it, or pass --gmrace)",
            opts.gmrace.display()
        );
        std::process::exit(2);
    }
    let inputs = collect_inputs(&opts.roots, opts.programs);
    let records = measure_all(&opts, &inputs);
    let roots: Vec<String> = opts
        .roots
        .iter()
        .map(|r| format!("`{}`", r.display()))
        .collect();
    println!("# gmrace on real code: {}\n", roots.join(", "));
    let unit = if opts.programs { "program" } else { "file" };
    print_summary(&records, unit);
    print_problems(&records, unit);
    print_races(&records, unit);
}
