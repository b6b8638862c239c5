//! The progress line a long run draws on a terminal.

use gmrace_runtime_cuda::RunProgress;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `[###   ] block 12/4096, 3% of the step budget` on stderr, at most five times a second,
/// after the first second.
pub(crate) fn bar() -> gmrace_runtime_cuda::Progress {
    let start = Instant::now();
    let last = Mutex::new(start);
    Box::new(move |p| {
        let now = Instant::now();
        if now.duration_since(start) < Duration::from_secs(1) {
            return;
        }
        let Ok(mut l) = last.lock() else { return };
        if now.duration_since(*l) < Duration::from_millis(200) && p.blocks_done < p.blocks {
            return;
        }
        *l = now;
        eprint!("\r{}", progress_line(p));
    })
}

fn progress_line(p: RunProgress) -> String {
    let width = 30;
    let filled = (p.blocks_done as u128 * width as u128 / p.blocks.max(1) as u128) as usize;
    format!(
        "[{}{}] block {}/{}, {}% of the step budget",
        "#".repeat(filled.min(width)),
        " ".repeat(width - filled.min(width)),
        p.blocks_done,
        p.blocks,
        p.steps as u128 * 100 / p.budget.max(1) as u128
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_shows_blocks_and_the_step_budget_spent() {
        let p = RunProgress {
            blocks_done: 1,
            blocks: 2,
            steps: 1 << 20,
            budget: 1 << 26,
        };
        let line = progress_line(p);
        assert_eq!(
            line,
            format!(
                "[{}{}] block 1/2, 1% of the step budget",
                "#".repeat(15),
                " ".repeat(15)
            )
        );
    }
}
