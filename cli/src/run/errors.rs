//! Launch-spec and device errors as located diagnostics (exit 2).

use crate::failed::Failed;
use crate::render;
use gmrace_analyzer::ir::{Diagnostic, Severity, Span};
use gmrace_runtime_cuda::launch::{line_col, SpecError};
use gmrace_runtime_cuda::DeviceError;
use std::path::Path;

pub(crate) fn spec_error(path: &Path, text: Option<&str>, e: &SpecError) -> Failed {
    let name = path.display().to_string();
    match (text, &e.span) {
        (Some(text), Some(span)) => {
            let (line, column, line_text) = line_col(text, span.start);
            let end = if span.end > span.start {
                let (el, ec, _) = line_col(text, span.end);
                if el == line {
                    ec
                } else {
                    line_text.len() as u32 + 1
                }
            } else {
                column + 1
            };
            let d = Diagnostic {
                severity: Severity::Error,
                message: format!("launch spec: {}", e.message),
                span: Span {
                    file: 0,
                    line,
                    column,
                    end_line: line,
                    end_column: end,
                },
                source_line: Some(line_text),
            };
            let failed = Failed::diagnostics(&[name], &[d]);
            if let Some(h) = &e.hint {
                eprintln!(" = help: {h}");
            }
            failed
        }
        _ => Failed::error(
            &format!("launch spec `{name}`: {}", e.message),
            e.hint.as_deref(),
        ),
    }
}

pub(crate) fn device_error(e: &DeviceError) -> Failed {
    match &e.loc {
        Some(loc) => {
            let d = Diagnostic {
                severity: Severity::Error,
                message: e.message.clone(),
                span: Span {
                    file: 0,
                    line: loc.line,
                    column: loc.column,
                    end_line: loc.line,
                    end_column: loc.column + 1,
                },
                source_line: render::source_line(&loc.file, loc.line),
            };
            Failed::diagnostics(std::slice::from_ref(&loc.file), &[d])
        }
        None => Failed::error(&e.message, None),
    }
}
