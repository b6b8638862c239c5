//! Diagnostics on stderr in the rustc style: `error: ...`, `--> file:line:col`, the source line
//! and a caret. Colour only when stderr is a terminal.

use annotate_snippets::{Level, Renderer, Snippet};
use gmrace_analyzer::ir::{Diagnostic, Severity, Span};
use std::io::{IsTerminal, Write};
use std::path::Path;

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
        let msg = match (&d.source_line, d.span.line) {
            (Some(src), line) if line > 0 => {
                let start = char_offset(src, d.span.column);
                let end = if d.span.end_line == d.span.line {
                    char_offset(src, d.span.end_column).max(start + 1)
                } else {
                    src.len()
                }
                .min(src.len().max(start + 1));
                level.title(&d.message).snippet(
                    Snippet::source(src)
                        .line_start(line as usize)
                        .origin(file)
                        .annotation(level.span(start..end)),
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
fn char_offset(src: &str, col: u32) -> usize {
    (col.saturating_sub(1) as usize).min(src.len())
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
        .and_then(|f| std::fs::read_to_string(f).ok())
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

/// A file without kernels is a warning, not an error: host-only `.cu` files are normal in a
/// project, and `analyze DIR` must not fail on them (it does not warn of them either).
pub fn no_kernels(file: &Path) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message: format!("no kernels found in {}", file.display()),
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
    let Ok(text) = std::fs::read_to_string(file) else {
        return format!("{title}\n  --> {file}\n");
    };
    let lines: Vec<&str> = text.lines().collect();
    let first = marks.iter().map(|m| m.0).min().unwrap_or(1).max(1);
    let last = marks.iter().map(|m| m.0).max().unwrap_or(1).max(first);
    let level = if level_is_error {
        Level::Error
    } else {
        Level::Warning
    };
    // Far-apart marks get one excerpt each; close ones share the lines between them.
    let groups: Vec<(u32, u32)> = if last - first <= 6 {
        vec![(first, last)]
    } else {
        vec![(first, first), (last, last)]
    };
    let mut sources = Vec::new();
    for (lo, hi) in &groups {
        let body: String = lines
            .iter()
            .skip(*lo as usize - 1)
            .take((*hi - *lo + 1) as usize)
            .map(|l| format!("{l}\n"))
            .collect();
        sources.push((*lo, *hi, body));
    }
    let mut msg = level.title(title);
    for (lo, hi, body) in &sources {
        let mut snip = Snippet::source(body)
            .line_start(*lo as usize)
            .origin(file)
            .fold(false);
        for (line, col, label) in marks.iter().filter(|m| m.0 >= *lo && m.0 <= *hi) {
            let line_start: usize = body
                .lines()
                .take((line - lo) as usize)
                .map(|l| l.len() + 1)
                .sum();
            let line_len = body.lines().nth((line - lo) as usize).map_or(0, str::len);
            let start = line_start + (*col as usize).saturating_sub(1).min(line_len);
            let end = (start + 1).min(line_start + line_len.max(1));
            snip = snip.annotation(
                level
                    .span(start..end.max(start + 1).min(body.len()))
                    .label(label),
            );
        }
        msg = msg.snippet(snip);
    }
    // Styled: `stdout` strips the colour unless stdout is a terminal. Bound to a local: a
    // tail-expression temporary would outlive `sources`.
    let text = Renderer::styled().render(msg).to_string();
    text
}
