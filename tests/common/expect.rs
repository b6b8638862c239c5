//! The one compare-or-rewrite step of every data-driven test: `actual` must equal the
//! expectation file, or, under `UPDATE_EXPECT=1`, becomes it (review the diff before
//! committing). A mismatch is described by its first differing lines.

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
    let (e_lines, a_lines): (Vec<&str>, Vec<&str>) =
        (expected.lines().collect(), actual.lines().collect());
    let shown: Vec<String> = (0..e_lines.len().max(a_lines.len()))
        .filter(|&i| e_lines.get(i) != a_lines.get(i))
        .take(5)
        .map(|i| {
            format!(
                "  line {}: expected `{}`, got `{}`",
                i + 1,
                e_lines.get(i).unwrap_or(&"<none>"),
                a_lines.get(i).unwrap_or(&"<none>")
            )
        })
        .collect();
    failures.push(format!(
        "{} differs ({} vs {} lines; UPDATE_EXPECT=1 rewrites it)\n{}",
        expect_path.display(),
        e_lines.len(),
        a_lines.len(),
        shown.join("\n")
    ));
}
