//! What GitHub code scanning requires of a SARIF log, checked the same way for every command
//! that writes one (`gmrace analyze`, `gmrace run`).

use serde_json::Value;
use serde_sarif::sarif::Sarif;
use std::path::{Path, PathBuf};

/// A location's file, resolved through `originalUriBaseIds`, exists; its region is 1-based.
/// Returns (file name, line).
pub fn check_location(log: &Sarif, loc: &serde_sarif::sarif::Location) -> (String, i64) {
    let phys = loc.physical_location.as_ref().expect("physicalLocation");
    let art = phys.artifact_location.as_ref().expect("artifactLocation");
    let uri = art.uri.as_deref().expect("uri");
    let path = match art.uri_base_id.as_deref() {
        Some(base) => {
            let bases = log.runs[0]
                .original_uri_base_ids
                .as_ref()
                .expect("base ids");
            let base = bases[base].uri.as_deref().expect("base uri");
            let dir = base.strip_prefix("file://").expect("file URI");
            Path::new(dir).join(uri)
        }
        None => PathBuf::from(uri.strip_prefix("file://").expect("file URI")),
    };
    assert!(
        path.is_file(),
        "{} does not resolve to a file",
        path.display()
    );
    let region = phys.region.as_ref().expect("region");
    let line = region.start_line.expect("startLine");
    assert!(line >= 1 && region.start_column.expect("startColumn") >= 1);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    (name, line)
}

/// Checks the log for what code scanning requires and returns, per result, (rule id, file,
/// line, related lines).
pub fn check_log(log: &Sarif) -> Vec<(String, String, i64, Vec<i64>)> {
    assert_eq!(log.version, Value::from("2.1.0"));
    assert!(log
        .schema
        .as_deref()
        .is_some_and(|s| s.contains("sarif-2.1.0")));
    assert_eq!(log.runs.len(), 1);
    let run = &log.runs[0];
    assert_eq!(run.tool.driver.name, "gmrace");
    let rules = run.tool.driver.rules.as_ref().expect("rules");
    let ids: Vec<&str> = rules.iter().map(|r| r.id.as_str()).collect();
    for id in [
        "race/intra-warp",
        "race/inter-warp",
        "race/inter-block",
        "barrier-divergence",
    ] {
        assert!(ids.contains(&id), "{ids:?}");
    }
    let mut out = Vec::new();
    for r in run.results.as_deref().unwrap_or_default() {
        let id = r.rule_id.clone().expect("ruleId");
        let index = r.rule_index.expect("ruleIndex") as usize;
        assert_eq!(ids[index], id);
        assert!(r.level.is_some());
        assert!(r.message.text.as_deref().is_some_and(|t| t.len() > 20));
        let locs = r.locations.as_deref().expect("locations");
        assert_eq!(locs.len(), 1);
        let (file, line) = check_location(log, &locs[0]);
        let related: Vec<i64> = r
            .related_locations
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|l| {
                assert!(l.message.as_ref().and_then(|m| m.text.as_ref()).is_some());
                check_location(log, l).1
            })
            .collect();
        out.push((id, file, line, related));
    }
    out
}
