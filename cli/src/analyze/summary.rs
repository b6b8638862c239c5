//! The table that ends `gmrace analyze DIR` in text mode: one row per file, then the totals.

use super::project::FileOutcome;
use gmrace_analyzer::analysis::Verdict;
use std::time::Duration;

#[derive(Default)]
struct Row {
    kernels: usize,
    safe: usize,
    racy: usize,
    unknown: usize,
    races: usize,
    divergence: usize,
    time: Duration,
}

impl Row {
    fn of(o: &FileOutcome) -> Row {
        let count = |v: Verdict| {
            o.reports
                .iter()
                .flat_map(|r| &r.accesses)
                .filter(|a| a.verdict == v)
                .count()
        };
        Row {
            kernels: o.reports.len(),
            safe: count(Verdict::Safe),
            racy: count(Verdict::Racy),
            unknown: count(Verdict::Unknown),
            races: o.reports.iter().map(|r| r.races.len()).sum(),
            divergence: o.reports.iter().map(|r| r.barrier_divergence.len()).sum(),
            time: o.time,
        }
    }

    fn add(&mut self, r: &Row) {
        self.kernels += r.kernels;
        self.safe += r.safe;
        self.racy += r.racy;
        self.unknown += r.unknown;
        self.races += r.races;
        self.divergence += r.divergence;
        self.time += r.time;
    }

    fn cells(&self, status: &str) -> [String; 8] {
        [
            self.kernels.to_string(),
            self.safe.to_string(),
            self.racy.to_string(),
            self.unknown.to_string(),
            self.races.to_string(),
            self.divergence.to_string(),
            format!("{:.2}s", self.time.as_secs_f64()),
            status.to_string(),
        ]
    }
}

/// The time column's index in a row.
const TIME: usize = 7;

const HEADER: [&str; 9] = [
    "file",
    "kernels",
    "safe",
    "racy",
    "unknown",
    "races",
    "divergence",
    "time",
    "status",
];

/// Status per file: `error` (not or not fully analysed), `problem` (races or divergence),
/// `ok`. Times (with `timing` only: they differ from run to run) are parse plus analysis,
/// summed over kernels.
pub fn table(outcomes: &[FileOutcome], timing: bool) -> String {
    let mut total = Row::default();
    let mut rows: Vec<[String; 9]> = Vec::new();
    let (mut failed, mut problems) = (0, 0);
    for o in outcomes {
        let row = Row::of(o);
        total.add(&row);
        let status = if o.failed() {
            failed += 1;
            "error"
        } else if row.races + row.divergence > 0 {
            problems += 1;
            "problem"
        } else {
            "ok"
        };
        rows.push(line(o.path.display().to_string(), row.cells(status)));
    }
    let status = format!("{failed} failed, {problems} with problems");
    rows.push(line(
        format!("total ({} files)", outcomes.len()),
        total.cells(&status),
    ));
    let header = HEADER.map(str::to_string);
    let mut widths = [0; 9];
    for r in std::iter::once(&header).chain(&rows) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let render = |r: &[String; 9]| {
        let mut s = format!("{:<w$}", r[0], w = widths[0]);
        for (i, (c, w)) in r.iter().zip(&widths).enumerate().take(8).skip(1) {
            if i != TIME || timing {
                s.push_str(&format!("  {c:>w$}"));
            }
        }
        s.push_str(&format!("  {}", r[8]));
        s.trim_end().to_string() + "\n"
    };
    let mut out = render(&header);
    let time_width = if timing { 0 } else { widths[TIME] + 2 };
    let rule: usize = widths.iter().sum::<usize>() + 2 * 8 - time_width;
    let n = rows.len();
    for (i, r) in rows.iter().enumerate() {
        if i + 1 == n {
            out.push_str(&"-".repeat(rule));
            out.push('\n');
        }
        out.push_str(&render(r));
    }
    out
}

fn line(file: String, cells: [String; 8]) -> [String; 9] {
    let [a, b, c, d, e, f, g, h] = cells;
    [file, a, b, c, d, e, f, g, h]
}
