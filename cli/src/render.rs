//! Diagnostics on stderr in the rustc style: `error: ...`, `--> file:line:col`, the source line
//! and a caret. Colour only when stderr is a terminal.

use annotate_snippets::{Level, Renderer, Snippet};
use gmrace_analyzer::ir::{Diagnostic, Severity};
use std::io::IsTerminal;

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

pub fn error(message: &str, hint: Option<&str>) {
    let mut msg = Level::Error.title(message);
    if let Some(h) = hint {
        msg = msg.footer(Level::Help.title(h));
    }
    anstream::eprintln!("{}", renderer().render(msg));
}
