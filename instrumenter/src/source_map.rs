//! Where each byte of the instrumented text came from in the user's file, so that a location
//! the device reports in the instrumented file (a fault, the step budget) is shown at the
//! user's line and column. The rewrite copies the user's text in pieces between generated
//! ones; a copied piece maps byte for byte, a generated one (a wrapper, the prelude, the
//! runtime's calls) to the user's text it replaced or was inserted at. `Instrumented::map`
//! (`SourceMap::original`) takes a line and column of the instrumented file back to the user's.

use crate::source::Source;
use gmrace_ir::source_map::{Piece, SourceMap};

/// Text being built, with the origin of each piece.
#[derive(Clone, Default)]
pub struct Mapped {
    pub text: String,
    pieces: Vec<Piece>,
}

impl Mapped {
    /// Appends `src.text[lo..hi]`.
    pub fn copy(&mut self, src: &Source, lo: usize, hi: usize) {
        self.piece(&src.text[lo..hi], lo, true);
    }

    /// Appends text of gmrace's own, standing for the original text at `orig`.
    pub fn generated(&mut self, text: &str, orig: usize) {
        self.piece(text, orig, false);
    }

    /// Appends text built from other pieces.
    pub fn append(&mut self, other: Mapped) {
        let base = self.text.len();
        self.pieces.extend(other.pieces.into_iter().map(|p| Piece {
            at: p.at + base,
            ..p
        }));
        self.text.push_str(&other.text);
    }

    /// Appends `template` with each NUL byte replaced by `inner`: the template is gmrace's text
    /// (standing for `orig`) around a rewritten operand.
    pub fn around(&mut self, template: &str, orig: usize, inner: &Mapped) {
        let mut parts = template.split('\0');
        if let Some(first) = parts.next() {
            self.generated(first, orig);
        }
        for part in parts {
            self.append(inner.clone());
            self.generated(part, orig);
        }
    }

    fn piece(&mut self, text: &str, orig: usize, copied: bool) {
        if text.is_empty() {
            return;
        }
        self.pieces.push(Piece {
            at: self.text.len(),
            orig,
            copied,
        });
        self.text.push_str(text);
    }

    /// The map from the built text, read as `instrumented`, back to `original`.
    pub fn into_map(self, original: &str) -> SourceMap {
        SourceMap::new(original, &self.text, self.pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copied_text_maps_exactly_and_generated_text_to_where_it_stands() {
        let original = "int x;\nint y = a[i];\n";
        let src = Source::new(original);
        let mut inner = Mapped::default();
        inner.copy(&src, 15, 19); // a[i]
        let mut m = Mapped::default();
        m.generated("/* prelude */\n", 0);
        m.copy(&src, 0, 15);
        m.around("W(\0, \0)", 15, &inner);
        m.copy(&src, 19, original.len());
        assert_eq!(m.text, "/* prelude */\nint x;\nint y = W(a[i], a[i]);\n");
        let map = m.into_map(original);
        assert_eq!(map.original(2, 5), Some((1, 5)));
        // `W(` stands for `a[i]`; the copy of `a[i]` inside maps byte for byte.
        assert_eq!(map.original(3, 9), Some((2, 9)));
        assert_eq!(map.original(3, 13), Some((2, 11)));
        assert_eq!(map.original(3, 22), Some((2, 13)));
        assert_eq!(map.original(1, 3), Some((1, 1)));
        assert_eq!(map.original(9, 1), None);
    }
}
