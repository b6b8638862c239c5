//! Where each byte of an instrumented text came from in the user's file (the instrumenter's
//! `Mapped` builds it), so that a location a device reports in the instrumented file is shown
//! at the user's line and column. Here so that a bundle run maps locations without the
//! instrumenter.

use serde::{Deserialize, Serialize};

/// Maps 1-based line and byte-column positions of the instrumented text to the original's.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SourceMap {
    original_lines: Vec<usize>,
    instrumented_lines: Vec<usize>,
    pieces: Vec<Piece>,
}

/// A piece of the instrumented text and where it came from.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Piece {
    /// Offset in the instrumented text where the piece starts.
    pub at: usize,
    /// Offset in the original text it corresponds to (its start, when copied).
    pub orig: usize,
    /// Copied byte for byte, or gmrace's text standing for the original at `orig`.
    pub copied: bool,
}

impl SourceMap {
    /// The map of `instrumented`, built from `pieces` in order, back to `original`.
    pub fn new(original: &str, instrumented: &str, pieces: Vec<Piece>) -> SourceMap {
        SourceMap {
            original_lines: line_starts(original),
            instrumented_lines: line_starts(instrumented),
            pieces,
        }
    }

    /// The original (line, column) of an instrumented one; `None` outside the text.
    pub fn original(&self, line: u32, column: u32) -> Option<(u32, u32)> {
        let start = *self
            .instrumented_lines
            .get((line as usize).checked_sub(1)?)?;
        let at = start + (column as usize).checked_sub(1)?;
        let i = self.pieces.partition_point(|p| p.at <= at).checked_sub(1)?;
        let p = self.pieces[i];
        let orig = if p.copied {
            p.orig + (at - p.at)
        } else {
            p.orig
        };
        let l = self.original_lines.partition_point(|&s| s <= orig);
        let col = orig - self.original_lines.get(l.checked_sub(1)?)?;
        Some((l as u32, col as u32 + 1))
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    starts
}
