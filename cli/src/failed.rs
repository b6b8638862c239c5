//! A command that could not do its job (exit status 2). Its errors are shown on stderr where
//! they happen; with `--format json|sarif` they also make the document on stdout, the one
//! `gmrace analyze` prints (`{"kernels": [], "errors": [...]}`, or a SARIF log whose
//! invocation carries them as notifications), so that `> report.sarif` never leaves an empty or
//! invalid file behind. `Failed` keeps the errors as `Notice`s, so that every command (`ir`,
//! `run`, as `analyze`) prints that document; `json_document` (and `sarif::errors_json`) are
//! shared with `analyze`. A command line clap rejects gets its document too when its raw
//! arguments ask for one (`requested_document`).

use crate::render;
use crate::sarif::{self, errors_json, notice, Level, Notice, Rule};
use gmrace_analyzer::ir::{Diagnostic, Span};
use serde::Serialize;
use serde_json::Value;
use std::process::ExitCode;

/// The errors that stopped a command, already shown on stderr.
pub struct Failed(Vec<Notice>);

/// The document a command prints on stdout, when not text.
#[derive(Clone, Copy)]
pub enum Document {
    Json,
    /// A SARIF log with these rules (the command's, whether found or not).
    Sarif(&'static [&'static Rule]),
}

impl Failed {
    /// `error: message`, and its hint, on stderr.
    pub fn error(message: &str, hint: Option<&str>) -> Failed {
        render::error(message, hint);
        Failed(vec![Notice {
            level: Level::Error,
            message: message.to_string(),
            place: None,
        }])
    }

    /// Located diagnostics on stderr (`files` is the table their spans index).
    pub fn diagnostics(files: &[String], diags: &[Diagnostic]) -> Failed {
        render::diagnostics(files, diags);
        Failed(diags.iter().map(|d| notice(files, d, "?")).collect())
    }

    /// An error on stderr, at `span` when there is one.
    pub fn located(files: &[String], message: &str, span: Option<Span>) -> Failed {
        match span {
            Some(span) => Failed::diagnostics(files, &[render::error_at(files, message, span)]),
            None => Failed::error(message, None),
        }
    }

    /// A usage error, which clap has already shown on stderr.
    pub fn usage(e: &clap::Error) -> Failed {
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or_default();
        Failed(vec![Notice {
            level: Level::Error,
            message: first.strip_prefix("error: ").unwrap_or(first).to_string(),
            place: None,
        }])
    }

    /// Prints the document of the failure, if any, and gives exit status 2. `file` is the
    /// command's input, where an error without a location is reported.
    pub fn exit(self, document: Option<Document>, file: &str) -> ExitCode {
        match document {
            None => {}
            Some(Document::Json) => render::stdout(&json_document(
                &[] as &[Value],
                &[],
                &errors_json(&self.0, file),
                None,
            )),
            Some(Document::Sarif(rules)) => render::stdout(&format!(
                "{}\n",
                sarif::to_string(&sarif::log(rules, &[], &self.0))
            )),
        }
        ExitCode::from(2)
    }
}

/// The document a command line that clap could not parse asks for (`--format json|sarif` of
/// `ir`, `analyze` or `run`), read from the raw arguments, and the input they name, if any.
pub fn requested_document(args: &[String]) -> Option<(Document, String)> {
    let command = args.get(1)?.as_str();
    let format = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--format") {
            Some("") => args.get(i + 1).map(String::as_str),
            Some(v) => v.strip_prefix('='),
            None => None,
        })?;
    let document = match (command, format) {
        ("ir" | "analyze" | "run", "json") => Document::Json,
        ("analyze", "sarif") => Document::Sarif(&gmrace_report::findings::RULES),
        ("run", "sarif") => Document::Sarif(&gmrace_report::run::sarif::RULES),
        _ => return None,
    };
    let input = args.get(2).filter(|a| !a.starts_with('-')).cloned();
    Some((document, input.unwrap_or_default()))
}

/// `{"kernels": ..., "not_analysed": ..., "errors": ...}`, pretty, with a final newline, and
/// `"headers"` (which CUDA headers the front end read) when the files were read.
pub fn json_document<K: Serialize + ?Sized>(
    kernels: &K,
    not_analysed: &[Value],
    errors: &[Value],
    headers: Option<&str>,
) -> String {
    let mut doc = serde_json::json!({
        "kernels": kernels,
        "not_analysed": not_analysed,
        "errors": errors,
    });
    if let Some(h) = headers {
        doc["headers"] = h.into();
    }
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
