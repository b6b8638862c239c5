//! The one compare-or-rewrite step of every data-driven test: `actual` must equal the
//! expectation file, or, under `UPDATE_EXPECT=1`, becomes it (review the diff before
//! committing). A mismatch is shown as a unified diff, each failing file on a line of its own.

use std::path::Path;

/// Compares `actual` with the file at `expect_path`, or rewrites it under `UPDATE_EXPECT=1`;
/// a mismatch is pushed onto `failures`.
pub fn check(expect_path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expect_path, actual).expect("write expectation");
        return;
    }
    let expected = std::fs::read_to_string(expect_path).unwrap_or_default();
    if expected == actual {
        return;
    }
    let diff = similar::TextDiff::from_lines(&expected, actual);
    let mut shown = diff
        .unified_diff()
        .context_radius(2)
        .header("expected", "actual")
        .to_string();
    // A whole corpus file rewritten would drown the other failures.
    if let Some((cut, _)) = shown.match_indices('\n').nth(MAX_DIFF_LINES) {
        shown.truncate(cut + 1);
        shown.push_str("...\n");
    }
    failures.push(format!(
        "{} differs (UPDATE_EXPECT=1 rewrites it):\n{shown}",
        expect_path.display()
    ));
}

/// Lines of unified diff shown per failing file.
const MAX_DIFF_LINES: usize = 40;
