//! SARIF 2.1.0 logs (GitHub code scanning, editors' SARIF viewers) from a neutral list of
//! findings, so that every command reporting problems in source code shares one builder (an
//! API boundary: `analyze/findings.rs` and `run/sarif.rs` feed it). The neutral input is `Rule`
//! (stable id, level), `Finding` (rule, message, primary `Place`, related places with labels
//! that the message links as `[text](1)`, properties) and `Notice` (tool errors and warnings);
//! the output is built with the typed `serde-sarif` structures.
//!
//! Invariants: every result names a rule of the log's `tool.driver.rules` (by `ruleId` and
//! `ruleIndex`); lines and columns are 1-based, columns in UTF-16 code units (SARIF's default)
//! converted from clang's byte columns; a file below the working directory is a relative `uri`
//! with `uriBaseId` `%SRCROOT%` (the working directory, in `originalUriBaseIds`), any other file an
//! absolute `file://` URI.

use gmrace_ir::{Diagnostic, Severity};
use serde_json::{Map, Value};
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification,
    PhysicalLocation, PropertyBag, Region, ReportingConfiguration, ReportingDescriptor,
    Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

const SRCROOT: &str = "%SRCROOT%";
/// The schema address GitHub's code-scanning documentation uses.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }

    fn result_level(self) -> ResultLevel {
        match self {
            Level::Error => ResultLevel::Error,
            Level::Warning => ResultLevel::Warning,
            Level::Note => ResultLevel::Note,
        }
    }
}

/// A kind of problem, with a stable id (`race/inter-warp`): code scanning tracks alerts by it.
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub short: &'static str,
    pub help: &'static str,
    pub level: Level,
}

/// A point in a source file: clang's 1-based line and byte column.
#[derive(Clone, Debug)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// One problem: where it is, and the other places that explain it (the second access of a
/// race), which the message may link to as `[text](1)`, `[text](2)`, ... in order.
pub struct Finding {
    pub rule: &'static Rule,
    /// The rule's level unless set (a conditional race is a warning).
    pub level: Option<Level>,
    pub message: String,
    pub primary: Place,
    pub related: Vec<(Place, String)>,
    /// Machine-readable details (the witness), under the result's `properties`.
    pub properties: Map<String, Value>,
}

/// Something that kept the tool from analysing part of its input, or a warning about it.
pub struct Notice {
    pub level: Level,
    pub message: String,
    pub place: Option<Place>,
}

/// The log of one run of gmrace: the rules (all of `rules`, whether found or not), the
/// findings as results, and the notices in the invocation, which is successful when no notice
/// is an error.
pub fn log(rules: &[&'static Rule], findings: &[Finding], notices: &[Notice]) -> Sarif {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut files = Files::new(&cwd);
    let results: Vec<SarifResult> = findings
        .iter()
        .map(|f| result(rules, f, &mut files))
        .collect();
    let notifications: Vec<Notification> = notices
        .iter()
        .map(|n| {
            let mut note = Notification::builder()
                .level(Value::from(n.level.name()))
                .message(Message::from(n.message.as_str()))
                .build();
            note.locations = n.place.as_ref().map(|p| vec![files.location(p, None)]);
            note
        })
        .collect();
    let invocation = Invocation::builder()
        .execution_successful(!notices.iter().any(|n| n.level == Level::Error))
        .tool_execution_notifications(notifications)
        .build();
    let driver = ToolComponent::builder()
        .name("gmrace")
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .rules(rules.iter().map(|r| descriptor(r)).collect::<Vec<_>>())
        .build();
    let mut run = Run::builder()
        .tool(Tool::from(driver))
        .results(results)
        .invocations(vec![invocation])
        .column_kind(Value::from("utf16CodeUnits"))
        .build();
    if files.used_srcroot {
        let root = ArtifactLocation::builder()
            .uri(file_uri(&cwd, true))
            .build();
        run.original_uri_base_ids = Some(BTreeMap::from([(SRCROOT.to_string(), root)]));
    }
    Sarif::builder()
        .schema(SCHEMA)
        .version(Value::from("2.1.0"))
        .runs(vec![run])
        .build()
}

/// The log with the CUDA headers the front end read (`"stand-ins"` or `"toolkit 12.4 (DIR)"`)
/// under its run's `properties`, as the JSON reports say it.
pub fn with_headers(mut log: Sarif, headers: &str) -> Sarif {
    for run in &mut log.runs {
        run.properties = Some(
            PropertyBag::builder()
                .additional_properties(BTreeMap::from([(
                    "headers".to_string(),
                    Value::from(headers),
                )]))
                .build(),
        );
    }
    log
}

/// The log as pretty JSON.
pub fn to_string(log: &Sarif) -> String {
    serde_json::to_string_pretty(log).unwrap_or_default()
}

fn descriptor(r: &Rule) -> ReportingDescriptor {
    ReportingDescriptor::builder()
        .id(r.id)
        .name(r.name)
        .short_description(MultiformatMessageString::builder().text(r.short).build())
        .help(MultiformatMessageString::builder().text(r.help).build())
        .default_configuration(
            ReportingConfiguration::builder()
                .level(Value::from(r.level.name()))
                .build(),
        )
        .build()
}

fn result(rules: &[&'static Rule], f: &Finding, files: &mut Files) -> SarifResult {
    let index = rules.iter().position(|r| r.id == f.rule.id);
    debug_assert!(index.is_some(), "rule {} missing from the log", f.rule.id);
    let related: Vec<Location> = f
        .related
        .iter()
        .enumerate()
        .map(|(i, (p, msg))| files.location(p, Some((i as i64 + 1, msg))))
        .collect();
    let mut r = SarifResult::builder()
        .rule_id(f.rule.id)
        .level(f.level.unwrap_or(f.rule.level).result_level())
        .message(Message::from(f.message.as_str()))
        .locations(vec![files.location(&f.primary, None)])
        .build();
    r.rule_index = index.map(|i| i as i64);
    if !related.is_empty() {
        r.related_locations = Some(related);
    }
    if !f.properties.is_empty() {
        r.properties = Some(
            PropertyBag::builder()
                .additional_properties(f.properties.clone().into_iter().collect::<BTreeMap<_, _>>())
                .build(),
        );
    }
    r
}

/// Source files as SARIF sees them: URIs, and lines read once to convert columns.
struct Files {
    cwd: PathBuf,
    lines: HashMap<String, Vec<String>>,
    used_srcroot: bool,
}

impl Files {
    fn new(cwd: &Path) -> Self {
        Files {
            cwd: cwd.to_path_buf(),
            lines: HashMap::new(),
            used_srcroot: false,
        }
    }

    fn location(&mut self, p: &Place, related: Option<(i64, &String)>) -> Location {
        let (uri, base) = self.uri(&p.file);
        let mut artifact = ArtifactLocation::builder().uri(uri).build();
        if base {
            artifact.uri_base_id = Some(SRCROOT.to_string());
            self.used_srcroot = true;
        }
        let column = self.utf16_column(&p.file, p.line, p.column);
        let region = Region::builder()
            .start_line(i64::from(p.line.max(1)))
            .start_column(column)
            .build();
        let physical = PhysicalLocation::builder()
            .artifact_location(artifact)
            .region(region)
            .build();
        let mut loc = Location::builder().physical_location(physical).build();
        if let Some((id, msg)) = related {
            loc.id = Some(id);
            loc.message = Some(Message::from(msg.as_str()));
        }
        loc
    }

    /// A relative URI under `%SRCROOT%` when the file is below the working directory.
    fn uri(&self, file: &str) -> (String, bool) {
        let path = Path::new(file);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        };
        let absolute = normalise(&absolute);
        match absolute.strip_prefix(normalise(&self.cwd)) {
            Ok(rel) if !rel.as_os_str().is_empty() => (encode(&rel.to_string_lossy()), true),
            _ => (file_uri(&absolute, false), false),
        }
    }

    /// Clang counts columns in bytes; SARIF in UTF-16 code units. Without the source the byte
    /// column is kept (exact for ASCII).
    fn utf16_column(&mut self, file: &str, line: u32, column: u32) -> i64 {
        let lines = self.lines.entry(file.to_string()).or_insert_with(|| {
            crate::render::source_text(file)
                .map(|t| t.lines().map(str::to_string).collect())
                .unwrap_or_default()
        });
        let byte = column.max(1) as usize - 1;
        match lines.get(line.max(1) as usize - 1) {
            Some(text) => {
                let prefix: String =
                    String::from_utf8_lossy(&text.as_bytes()[..byte.min(text.len())]).into_owned();
                (prefix.encode_utf16().count() + byte.saturating_sub(text.len()) + 1) as i64
            }
            None => column.max(1) as i64,
        }
    }
}

/// `.` and `..` resolved lexically (the file may not exist any more).
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn file_uri(p: &Path, directory: bool) -> String {
    let mut s = format!("file://{}", encode(&p.to_string_lossy()));
    if directory && !s.ends_with('/') {
        s.push('/');
    }
    s
}

/// Percent-encoding of a path for a URI (RFC 3986 unreserved characters and `/` stay).
fn encode(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A diagnostic as a notice; `file` names the input when the span's file is unknown.
pub fn notice(files: &[String], d: &Diagnostic, file: &str) -> Notice {
    Notice {
        level: match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        },
        message: d.message.clone(),
        place: (d.span.line > 0).then(|| Place {
            file: files
                .get(d.span.file as usize)
                .cloned()
                .unwrap_or_else(|| file.to_string()),
            line: d.span.line,
            column: d.span.column,
        }),
    }
}

/// The errors among `notices`, for a JSON document: `{"file", "line", "column", "message"}`,
/// the position null when the error has none (then `file` is the input's).
pub fn errors_json(notices: &[Notice], file: &str) -> Vec<Value> {
    notices
        .iter()
        .filter(|n| n.level == Level::Error)
        .map(|n| {
            serde_json::json!({
                "file": n.place.as_ref().map_or(file, |p| p.file.as_str()),
                "line": n.place.as_ref().map(|p| p.line),
                "column": n.place.as_ref().map(|p| p.column),
                "message": n.message,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uris_relative_to_the_working_directory() {
        let files = Files::new(Path::new("/home/u/proj"));
        assert_eq!(files.uri("src/k.cu"), ("src/k.cu".to_string(), true));
        assert_eq!(files.uri("./src/../k.cu"), ("k.cu".to_string(), true));
        assert_eq!(
            files.uri("/home/u/proj/a b.cu"),
            ("a%20b.cu".to_string(), true)
        );
        assert_eq!(
            files.uri("/tmp/k#1.cu"),
            ("file:///tmp/k%231.cu".to_string(), false)
        );
        assert_eq!(
            files.uri("../other/k.cu"),
            ("file:///home/u/other/k.cu".to_string(), false)
        );
    }

    #[test]
    fn byte_columns_become_utf16_columns() {
        let mut files = Files::new(Path::new("/"));
        files
            .lines
            .insert("k.cu".into(), vec!["/* é𝄞 */ s[t] = 0;".into()]);
        // `s` is byte 14 (1-based), after a 2-byte and a 4-byte character: UTF-16 column 11
        // (é is one unit, the clef two).
        assert_eq!(files.utf16_column("k.cu", 1, 14), 11);
        assert_eq!(files.utf16_column("k.cu", 1, 1), 1);
        assert_eq!(files.utf16_column("missing.cu", 3, 7), 7);
    }
}
