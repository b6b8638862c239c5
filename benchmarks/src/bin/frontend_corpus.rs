//! `frontend-corpus DIR... [--json FILE]`: runs gmrace's front end over every `.cu` file below the
//! given directories and reports how much of it the kernel IR represents (see `../../README.md`).
//!
//! A file is `ok` when it has kernels and no shared, global or generic access depends on an opaque
//! node: in its own statement, through a local assigned from one, or through an enclosing `if` or
//! loop condition; and no kernel holds an opaque statement. Otherwise it is `opaque`, `no-kernel`
//! or `error` (the front end refused it).

use gmrace_analyzer::frontend::{parse_file, FrontendError, FrontendOptions};
use gmrace_analyzer::ir::{Block, Expr, ExprKind, Kernel, LocalId, Module, Space, Stmt, StmtKind};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Class {
    Ok,
    Opaque,
    NoKernel,
    Error,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Ok => "ok",
            Class::Opaque => "opaque",
            Class::NoKernel => "no-kernel",
            Class::Error => "error",
        }
    }
}

/// One thing that kept a file from being `ok`, normalised so that equal causes group together.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct Reason {
    group: String,
    file: String,
    line: u32,
    /// The message before normalisation.
    message: String,
}

#[derive(Serialize)]
struct FileResult {
    corpus: String,
    path: String,
    class: Class,
    parse_ms: f64,
    reasons: Vec<Reason>,
}

#[derive(Serialize)]
struct Summary {
    corpus: String,
    files: usize,
    ok: usize,
    opaque: usize,
    no_kernel: usize,
    error: usize,
    ok_percent: f64,
    median_ms: f64,
    p99_ms: f64,
}

#[derive(Serialize)]
struct Group {
    class: Class,
    reason: String,
    occurrences: usize,
    files: usize,
    /// Up to three distinct `file:line` locations.
    examples: Vec<String>,
}

#[derive(Serialize)]
struct Report {
    summaries: Vec<Summary>,
    groups: Vec<Group>,
    files: Vec<FileResult>,
}

fn main() {
    let mut dirs = Vec::new();
    let mut json = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = Some(args.next().unwrap_or_else(|| usage())),
            "-h" | "--help" => usage(),
            _ if a.starts_with('-') => usage(),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    if dirs.is_empty() {
        usage();
    }
    let mut files = Vec::new();
    for dir in &dirs {
        let mut found = Vec::new();
        find_cu(dir, &mut found);
        found.sort();
        for path in found {
            eprintln!("{}", path.display());
            files.push(run_one(&dir.display().to_string(), &path));
        }
    }
    let report = report(&dirs, files);
    print!("{}", markdown(&report));
    if let Some(out) = json {
        let text = serde_json::to_string_pretty(&report).expect("report serialises");
        if let Err(e) = std::fs::write(&out, text + "\n") {
            eprintln!("frontend-corpus: cannot write `{out}`: {e}");
            std::process::exit(1);
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: frontend-corpus DIR... [--json FILE]");
    std::process::exit(2);
}

fn find_cu(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("frontend-corpus: cannot read directory `{}`", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => find_cu(&path, out),
            Ok(t) if t.is_file() && path.extension().is_some_and(|e| e == "cu") => out.push(path),
            _ => {}
        }
    }
}

fn run_one(corpus: &str, path: &Path) -> FileResult {
    let name = path.display().to_string();
    let start = Instant::now();
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        parse_file(path, &FrontendOptions::default())
    }));
    let parse_ms = start.elapsed().as_secs_f64() * 1e3;
    let (class, reasons) = match parsed {
        Ok(Ok(module)) => classify(&module),
        Ok(Err(e)) => (Class::Error, vec![error_reason(&name, &e)]),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("?");
            let r = reason(format!("panic: {msg}"), normalise, &name, 0);
            (Class::Error, vec![r])
        }
    };
    FileResult {
        corpus: corpus.to_string(),
        path: name,
        class,
        parse_ms,
        reasons,
    }
}

/// A reason whose group is `message` passed through `norm`.
fn reason(message: String, norm: fn(&str) -> String, file: &str, line: u32) -> Reason {
    Reason {
        group: norm(&message),
        message,
        file: file.to_string(),
        line,
    }
}

fn error_reason(name: &str, e: &FrontendError) -> Reason {
    match e.diagnostics.first() {
        Some(d) => {
            let file = e
                .files
                .get(d.span.file as usize)
                .map_or(name, |f| f.as_str());
            reason(d.message.clone(), normalise, file, d.span.line)
        }
        None => reason("error without a message".into(), normalise, name, 0),
    }
}

fn classify(m: &Module) -> (Class, Vec<Reason>) {
    let main = m.files.first().map_or("?", |f| f.as_str());
    if m.kernels.is_empty() {
        let r = reason("no kernel found".into(), strip_names, main, 0);
        return (Class::NoKernel, vec![r]);
    }
    let mut found = BTreeSet::new();
    for k in &m.kernels {
        let mut check = Checker {
            kernel: k,
            tainted: tainted_locals(k, &m.files),
            files: &m.files,
            out: &mut found,
        };
        check.block(&k.body, None);
    }
    if found.is_empty() {
        return (Class::Ok, Vec::new());
    }
    for d in &m.diagnostics {
        let file = m
            .files
            .get(d.span.file as usize)
            .map_or(main, |f| f.as_str());
        let severity = format!("{:?}", d.severity).to_lowercase();
        let message = format!("{severity}: {}", d.message);
        found.insert(reason(message, strip_names, file, d.span.line));
    }
    (Class::Opaque, found.into_iter().collect())
}

/// Locals that may hold a value computed from an opaque expression (flow-insensitive).
fn tainted_locals(k: &Kernel, files: &[String]) -> HashMap<LocalId, Reason> {
    let mut tainted = HashMap::new();
    loop {
        let mut new = Vec::new();
        gmrace_analyzer::ir::walk_stmts(&k.body, &mut |s| {
            let dst = match &s.kind {
                StmtKind::Assign { dst, .. } | StmtKind::Warp { dst, .. } => *dst,
                _ => return,
            };
            if !tainted.contains_key(&dst) {
                if let Some(o) = first_opaque(s, &tainted, files) {
                    new.push((dst, o));
                }
            }
        });
        if new.is_empty() {
            return tainted;
        }
        tainted.extend(new);
    }
}

/// Where the first opaque node (or tainted local) among the expressions `s` itself evaluates
/// comes from.
fn first_opaque(s: &Stmt, tainted: &HashMap<LocalId, Reason>, files: &[String]) -> Option<Reason> {
    let mut hit = None;
    for e in s.exprs() {
        e.walk(&mut |e: &Expr| {
            if hit.is_some() {
                return;
            }
            match &e.kind {
                ExprKind::Opaque { reason: why } => {
                    let message = format!("opaque expr: {why}");
                    hit = Some(reason(message, strip_names, file_of(files, s), s.span.line));
                }
                ExprKind::Local(l) => hit = tainted.get(l).cloned(),
                _ => {}
            }
        });
    }
    hit
}

struct Checker<'a> {
    kernel: &'a Kernel,
    tainted: HashMap<LocalId, Reason>,
    files: &'a [String],
    out: &'a mut BTreeSet<Reason>,
}

impl Checker<'_> {
    /// `control` is where an enclosing condition's opaque value comes from, if anywhere.
    fn block(&mut self, block: &Block, control: Option<&Reason>) {
        for s in block {
            if let StmtKind::Opaque { reason: why } = &s.kind {
                let message = format!("opaque stmt: {why}");
                let file = file_of(self.files, s);
                self.out
                    .insert(reason(message, strip_names, file, s.span.line));
            }
            let own = first_opaque(s, &self.tainted, self.files);
            if self.touches_memory(s) {
                if let Some(origin) = own.as_ref().or(control) {
                    self.out.insert(origin.clone());
                }
            }
            for b in s.blocks() {
                self.block(b, own.as_ref().or(control));
            }
        }
    }

    /// Whether `s` itself accesses shared, global or generic memory.
    fn touches_memory(&self, s: &Stmt) -> bool {
        let relevant = |id: gmrace_analyzer::ir::AccessId| {
            let space = self.kernel.accesses[id.index()].space;
            matches!(space, Space::Shared | Space::Global | Space::Generic)
        };
        let mut hit = match &s.kind {
            StmtKind::Store { access, .. } | StmtKind::Atomic { access, .. } => relevant(*access),
            _ => false,
        };
        for e in s.exprs() {
            e.walk(&mut |e: &Expr| {
                if let ExprKind::Load { access, .. } = &e.kind {
                    hit |= relevant(*access);
                }
            });
        }
        hit
    }
}

fn file_of<'a>(files: &'a [String], s: &Stmt) -> &'a str {
    files.get(s.span.file as usize).map_or("?", |f| f.as_str())
}

/// Replaces every backticked name with `` `_` ``.
fn strip_names(msg: &str) -> String {
    replace_quoted(msg, '`', |_| true)
}

/// For front-end errors: also clang's 'quoted' names and types, and numbers.
fn normalise(msg: &str) -> String {
    let msg = replace_quoted(&strip_names(msg), '\'', |q| {
        q.chars().any(|c| c.is_alphanumeric() || c == '_')
    });
    let mut out = String::new();
    let mut prev_digit = false;
    for c in msg.chars() {
        let digit = c.is_ascii_digit();
        if !digit {
            out.push(c);
        } else if !prev_digit {
            out.push('N');
        }
        prev_digit = digit;
    }
    out
}

fn replace_quoted(msg: &str, quote: char, replace: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(start) = rest.find(quote) {
        let after = &rest[start + 1..];
        let Some(len) = after.find(quote) else { break };
        out.push_str(&rest[..=start]);
        out.push_str(if replace(&after[..len]) {
            "_"
        } else {
            &after[..len]
        });
        out.push(quote);
        rest = &after[len + 1..];
    }
    out.push_str(rest);
    out
}

fn report(dirs: &[PathBuf], files: Vec<FileResult>) -> Report {
    let mut summaries = Vec::new();
    if dirs.len() > 1 {
        for d in dirs {
            let name = d.display().to_string();
            let of_dir: Vec<&FileResult> = files.iter().filter(|f| f.corpus == name).collect();
            summaries.push(summary(name, &of_dir));
        }
    }
    summaries.push(summary("total".into(), &files.iter().collect::<Vec<_>>()));

    let mut by_group: BTreeMap<(Class, &str), Vec<(&str, &Reason)>> = BTreeMap::new();
    for f in &files {
        for r in &f.reasons {
            let at = by_group.entry((f.class, &r.group)).or_default();
            at.push((&f.path, r));
        }
    }
    let mut groups: Vec<Group> = by_group
        .into_iter()
        .map(|((class, reason), rs)| {
            let distinct: BTreeSet<&str> = rs.iter().map(|(path, _)| *path).collect();
            let mut examples: Vec<String> = Vec::new();
            let mut seen = BTreeSet::new();
            for (path, r) in &rs {
                if examples.len() == 3 || !seen.insert((&r.file, r.line)) {
                    continue;
                }
                let at = match r.line {
                    0 => r.file.clone(),
                    l => format!("{}:{l}", r.file),
                };
                examples.push(if r.file == *path {
                    at
                } else {
                    format!("{at} (from {path})")
                });
            }
            Group {
                class,
                reason: reason.to_string(),
                occurrences: rs.len(),
                files: distinct.len(),
                examples,
            }
        })
        .collect();
    groups.sort_by(|a, b| (a.class, b.files, &a.reason).cmp(&(b.class, a.files, &b.reason)));
    Report {
        summaries,
        groups,
        files,
    }
}

fn summary(corpus: String, files: &[&FileResult]) -> Summary {
    let count = |c: Class| files.iter().filter(|f| f.class == c).count();
    let mut times: Vec<f64> = files.iter().map(|f| f.parse_ms).collect();
    times.sort_by(f64::total_cmp);
    let rank = |q: f64| {
        let i = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len().max(1)) - 1;
        times.get(i).copied().unwrap_or(0.0)
    };
    let ok = count(Class::Ok);
    Summary {
        corpus,
        files: files.len(),
        ok,
        opaque: count(Class::Opaque),
        no_kernel: count(Class::NoKernel),
        error: count(Class::Error),
        ok_percent: if files.is_empty() {
            0.0
        } else {
            100.0 * ok as f64 / files.len() as f64
        },
        median_ms: rank(0.5),
        p99_ms: rank(0.99),
    }
}

fn markdown(r: &Report) -> String {
    let mut s = String::from(
        "| corpus | files | ok | opaque | no-kernel | error | ok % | median parse | p99 parse |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for m in &r.summaries {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.0} ms | {:.0} ms |\n",
            m.corpus,
            m.files,
            m.ok,
            m.opaque,
            m.no_kernel,
            m.error,
            m.ok_percent,
            m.median_ms,
            m.p99_ms
        );
    }
    if r.groups.is_empty() {
        return s;
    }
    s += "\n| class | reason | occurrences | files | examples |\n|---|---|--:|--:|---|\n";
    for g in &r.groups {
        s += &format!(
            "| {} | {} | {} | {} | {} |\n",
            g.class.name(),
            g.reason.replace('|', "\\|"),
            g.occurrences,
            g.files,
            g.examples.join("<br>")
        );
    }
    s
}
