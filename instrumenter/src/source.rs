//! The source text as bytes: offsets of clang's 1-based line/byte-column positions, and the few
//! lexical scans the rewrite needs (matching brackets, identifiers). Comments and
//! string/character literals are skipped, so a name or bracket inside them never matches.

use gmrace_analyzer::ir::Span;

pub struct Source<'a> {
    pub text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Source<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { text, line_starts }
    }

    /// Byte offset of a 1-based line and byte column, if it is inside the text.
    pub fn offset(&self, line: u32, column: u32) -> Option<usize> {
        let start = *self.line_starts.get((line as usize).checked_sub(1)?)?;
        let off = start + (column as usize).checked_sub(1)?;
        (off <= self.text.len() && self.text.is_char_boundary(off)).then_some(off)
    }

    /// The byte range of a span (its end is exclusive, as libclang reports it).
    pub fn range(&self, span: Span) -> Option<(usize, usize)> {
        let lo = self.offset(span.line, span.column)?;
        let hi = self.offset(span.end_line, span.end_column)?;
        (lo < hi).then_some((lo, hi))
    }

    /// Offsets of the code bytes in `lo..hi`: comments and literals are left out.
    pub fn code(&self, lo: usize, hi: usize) -> Vec<usize> {
        let b = self.text.as_bytes();
        let hi = hi.min(b.len());
        let mut out = Vec::new();
        let mut i = lo;
        while i < hi {
            match (b[i], b.get(i + 1)) {
                (b'/', Some(b'/')) => {
                    while i < hi && b[i] != b'\n' {
                        i += 1;
                    }
                }
                (b'/', Some(b'*')) => {
                    i += 2;
                    while i < hi && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                        i += 1;
                    }
                    i += 2;
                }
                (q @ (b'"' | b'\''), _) => {
                    i += 1;
                    while i < hi && b[i] != q {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                _ => {
                    out.push(i);
                    i += 1;
                }
            }
        }
        out
    }

    /// The offset of the bracket closing the one at `open` (`(`, `[`, `{` or `<`).
    pub fn matching(&self, open: usize, hi: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let (o, c) = match b.get(open)? {
            b'(' => (b'(', b')'),
            b'[' => (b'[', b']'),
            b'{' => (b'{', b'}'),
            b'<' => (b'<', b'>'),
            _ => return None,
        };
        let mut depth = 0usize;
        for i in self.code(open, hi) {
            if b[i] == o {
                depth += 1;
            } else if b[i] == c {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    /// Identifiers of `lo..hi` in code, with their offsets.
    pub fn identifiers(&self, lo: usize, hi: usize) -> Vec<(usize, &'a str)> {
        let b = self.text.as_bytes();
        let code = self.code(lo, hi);
        let mut out = Vec::new();
        let mut k = 0;
        while k < code.len() {
            let i = code[k];
            let starts = is_ident(b[i]) && !b[i].is_ascii_digit();
            let follows_ident = i > 0 && is_ident(b[i - 1]) && k > 0 && code[k - 1] == i - 1;
            if starts && !follows_ident {
                let mut j = i;
                while j < hi && is_ident(b[j]) {
                    j += 1;
                }
                out.push((i, &self.text[i..j]));
                while k < code.len() && code[k] < j {
                    k += 1;
                }
            } else {
                k += 1;
            }
        }
        out
    }

    /// The first code byte at or after `off` (before `hi`) that is not white space.
    pub fn next_code(&self, off: usize, hi: usize) -> Option<usize> {
        self.code(off, hi)
            .into_iter()
            .find(|&i| !self.text.as_bytes()[i].is_ascii_whitespace())
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_byte_columns() {
        let s = Source::new("ab\n\tcd\n");
        assert_eq!(s.offset(2, 2), Some(4));
        assert_eq!(s.offset(3, 1), Some(7));
        assert_eq!(s.offset(9, 1), None);
    }

    #[test]
    fn scans_skip_comments_and_literals() {
        let s = Source::new("f(a /* ) */, \")\", ')') { k // {\n }");
        assert_eq!(s.matching(1, s.text.len()), Some(21));
        let names: Vec<&str> = s
            .identifiers(0, s.text.len())
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(names, ["f", "a", "k"]);
    }
}
