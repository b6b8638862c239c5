//! Diagnostics on stderr in the rustc style: `error: ...`, `--> file:line:col`, the source line
//! and a caret, with annotate-snippets. Colour only when stderr is a terminal: excerpts are
//! rendered styled and written through anstream, which drops the colour unless the stream is a
//! terminal. A closed stdout (`| head`) ends the output without a panic.

use annotate_snippets::{Level, Renderer, Snippet};
use gmrace_ir::{Diagnostic, NotAnalysed, Severity, Span};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Mutex;

fn renderer() -> Renderer {
    if std::io::stderr().is_terminal() {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
}

pub fn diagnostics(files: &[String], diags: &[Diagnostic]) {
    for d in diags {
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        let file = files.get(d.span.file as usize).map_or("?", String::as_str);
        let shown = d.source_line.as_deref().map(expand_tabs);
        let msg = match (&d.source_line, &shown, d.span.line) {
            (Some(src), Some(shown), line) if line > 0 => {
                let start = byte_offset(src, d.span.column);
                let end = if d.span.end_line == d.span.line {
                    byte_offset(src, d.span.end_column)
                } else {
                    src.len()
                };
                level.title(&d.message).snippet(
                    Snippet::source(shown)
                        .line_start(line as usize)
                        .origin(file)
                        .annotation(level.span(shown_range(src, start, end))),
                )
            }
            _ => level.title(&d.message),
        };
        anstream::eprintln!("{}", renderer().render(msg));
        if d.source_line.is_none() && d.span.line > 0 {
            eprintln!("  --> {file}:{}:{}", d.span.line, d.span.column);
        }
    }
}

/// Byte offset of 1-based column `col` (clang counts bytes).
fn byte_offset(src: &str, col: u32) -> usize {
    (col.saturating_sub(1) as usize).min(src.len())
}

/// annotate-snippets shows a tab as four spaces but places carets as if it were one column:
/// it is given the text with tabs already expanded.
fn expand_tabs(src: &str) -> String {
    src.replace('\t', TAB)
}

const TAB: &str = "    ";

/// The bytes `start..end` of `src` (clang's byte columns) as a range of `expand_tabs(src)`:
/// widened to whole characters, at least one wide where `src` has room, because
/// annotate-snippets slices at these offsets (a column inside a multibyte character would
/// panic there).
fn shown_range(src: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let start = floor_char_boundary(src, start.min(src.len()));
    let end = ceil_char_boundary(src, end.clamp(start, src.len()));
    let end = match src[start..].chars().next() {
        Some(c) if end == start => start + c.len_utf8(),
        _ => end,
    };
    let shown = |i: usize| i + src[..i].matches('\t').count() * (TAB.len() - 1);
    shown(start)..shown(end).max(shown(start) + 1)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Source texts given by name instead of read from disk: bundles', on a machine that has not
/// got the user's files (`gmrace-gpu`). Once any is given, the disk is not read.
static SOURCES: Mutex<Option<BTreeMap<String, String>>> = Mutex::new(None);

/// Excerpts quote `sources` (by the names reports give files) instead of the files on disk.
pub fn quote_from(sources: &BTreeMap<String, String>) {
    // A poisoned lock only means a report panicked: the texts are still whole.
    let mut all = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
    all.get_or_insert_with(BTreeMap::new)
        .extend(sources.iter().map(|(k, v)| (k.clone(), v.clone())));
}

/// A source file's text for excerpts; bytes that are not UTF-8 are shown as U+FFFD (the front
/// end reads the file the same way, so its columns fit this text).
pub fn source_text(file: &str) -> Option<String> {
    if let Some(sources) = &*SOURCES.lock().unwrap_or_else(|e| e.into_inner()) {
        return sources.get(file).cloned();
    }
    gmrace_ir::source::read_source(std::path::Path::new(file))
        .ok()
        .map(|s| s.text)
}

/// Line `line` (1-based) of `file`, as [`source_text`] reads it.
pub fn source_line(file: &str, line: u32) -> Option<String> {
    let text = source_text(file)?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(str::to_string)
}

/// Writes to stdout, without colour unless stdout is a terminal (or `CLICOLOR_FORCE` is set).
/// A closed pipe (`| head`) ends the output quietly instead of panicking.
pub fn stdout(text: &str) {
    let _ = anstream::stdout().write_all(text.as_bytes());
}

pub fn error(message: &str, hint: Option<&str>) {
    let mut msg = Level::Error.title(message);
    if let Some(h) = hint {
        msg = msg.footer(Level::Help.title(h));
    }
    anstream::eprintln!("{}", renderer().render(msg));
}

/// An error on stderr, at `span` when there is one.
pub fn located_error(files: &[String], message: &str, span: Option<Span>) {
    match span {
        Some(span) => diagnostics(files, &[error_at(files, message, span)]),
        None => error(message, None),
    }
}

/// An error diagnostic at `span`, with its source line for the caret.
pub fn error_at(files: &[String], message: &str, span: Span) -> Diagnostic {
    let source_line = files
        .get(span.file as usize)
        .and_then(|f| source_text(f))
        .and_then(|t| {
            t.lines()
                .nth(span.line.saturating_sub(1) as usize)
                .map(str::to_string)
        });
    Diagnostic {
        severity: Severity::Error,
        message: message.to_string(),
        span,
        source_line,
    }
}

/// A kernel the front end could not read: a warning at its definition, since the file's other
/// kernels are analysed.
pub fn not_analysed(files: &[String], n: &NotAnalysed) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        ..error_at(
            files,
            &format!("kernel `{}` not analysed: {}", n.name, n.reason),
            n.span,
        )
    }
}

/// A file without kernels is a warning, not an error: host-only `.cu` files are normal in a
/// project, and `analyze DIR` must not fail on them (it does not warn of them either). One
/// that launches kernels (`launched`) declared here and defined elsewhere says which, and
/// where to look.
pub fn no_kernels(file: &Path, launched: &[&str]) -> Diagnostic {
    let message = match launched {
        [] => format!("no kernels found in {}", file.display()),
        names => format!(
            "no kernels defined in {}: it launches `{}`, defined in another file (analyse \
             that file, or the directory)",
            file.display(),
            names.join("`, `")
        ),
    };
    Diagnostic {
        severity: Severity::Warning,
        message,
        span: Span::default(),
        source_line: None,
    }
}

/// A file whose kernels are all templates its host code never instantiates (a program's
/// `main.cu` including the header of kernels another file launches): read whole, nothing to
/// analyse, not a refusal; the files that launch them are where they are analysed.
pub fn none_instantiated(file: &Path) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message: format!(
            "no kernel of {} is instantiated in it: analyse the files that launch its kernel \
             templates (or the program's directory)",
            file.display()
        ),
        span: Span::default(),
        source_line: None,
    }
}

/// A file whose every kernel is listed as not analysed: nothing in it was read, which is
/// exit status 2 like any file gmrace cannot read; the list says why for each.
pub fn none_analysed(file: &Path) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        message: format!(
            "no kernel of {} could be analysed: each is listed with its reason",
            file.display()
        ),
        span: Span::default(),
        source_line: None,
    }
}

/// A source excerpt with labelled carets at `(line, column, label)`, all in `file`.
pub fn excerpt(
    title: &str,
    level_is_error: bool,
    file: &str,
    marks: &[(u32, u32, String)],
) -> String {
    let marks: Vec<Mark> = marks
        .iter()
        .map(|(line, column, label)| (file, *line, *column, label.clone()))
        .collect();
    excerpt_across(title, level_is_error, &marks)
}

/// A caret: its file, line, column and label.
pub type Mark<'a> = (&'a str, u32, u32, String);

/// `excerpt` with each caret in its own file (an access in a header of the project).
pub fn excerpt_across(title: &str, level_is_error: bool, marks: &[Mark]) -> String {
    let level = if level_is_error {
        Level::Error
    } else {
        Level::Warning
    };
    let mut files: Vec<&str> = Vec::new();
    for m in marks {
        if !files.contains(&m.0) {
            files.push(m.0);
        }
    }
    let mut sources = Vec::new();
    for file in &files {
        let Some(text) = source_text(file) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        let here = || marks.iter().filter(|m| m.0 == *file).map(|m| m.1);
        let first = here().min().unwrap_or(1).max(1);
        let last = here().max().unwrap_or(1).max(first);
        // Far-apart marks get one excerpt each; close ones share the lines between them.
        let groups: Vec<(u32, u32)> = if last - first <= 6 {
            vec![(first, last)]
        } else {
            vec![(first, first), (last, last)]
        };
        for (lo, hi) in groups {
            let body: String = lines
                .iter()
                .skip(lo as usize - 1)
                .take((hi - lo + 1) as usize)
                .map(|l| format!("{l}\n"))
                .collect();
            let shown = expand_tabs(&body);
            sources.push((*file, lo, hi, body, shown));
        }
    }
    if sources.is_empty() {
        return format!("{title}\n  --> {}\n", files.first().copied().unwrap_or("?"));
    }
    let mut msg = level.title(title);
    for (file, lo, hi, body, shown) in &sources {
        let mut snip = Snippet::source(shown)
            .line_start(*lo as usize)
            .origin(file)
            .fold(false);
        let here = marks
            .iter()
            .filter(|m| m.0 == *file && m.1 >= *lo && m.1 <= *hi);
        for (_, line, col, label) in here {
            let line_start: usize = body
                .lines()
                .take((line - lo) as usize)
                .map(|l| l.len() + 1)
                .sum();
            let line_len = body.lines().nth((line - lo) as usize).map_or(0, str::len);
            let start = line_start + (*col as usize).saturating_sub(1).min(line_len);
            let range = shown_range(body, start, start);
            let range = range.start.min(shown.len())..range.end.min(shown.len());
            snip = snip.annotation(level.span(range).label(label));
        }
        msg = msg.snippet(snip);
    }
    // Styled: `stdout` strips the colour unless stdout is a terminal. Bound to a local: a
    // tail-expression temporary would outlive `sources`.
    let text = Renderer::styled().render(msg).to_string();
    text
}
