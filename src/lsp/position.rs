//! LSP positions against byte offsets of a document's text.
//!
//! A position is a zero-based line and a column counted in the negotiated encoding's units
//! (UTF-16 code units unless the client offers UTF-8). Lines end at `\n`, `\r\n` or `\r`, as
//! the protocol says. Guarantees: every conversion is total — a position past a line's end is
//! that line's end, one past the last line is the end of the text, an offset inside a character
//! or between the `\r` and `\n` of a line break moves back to a boundary — so no client input
//! can make a conversion panic.

use lsp_types::Position;

/// How a position's column counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units: the protocol's default.
    Utf16,
    /// Bytes of UTF-8.
    Utf8,
}

impl Encoding {
    /// The units of `c` in this encoding.
    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf8 => c.len_utf8(),
        }
    }
}

/// The line starts of one text, for many conversions.
pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset of each line's first character; `starts[0] == 0`.
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'t> LineIndex<'t> {
    /// The index of `text`, counting columns in `encoding`.
    pub fn new(text: &'t str, encoding: Encoding) -> LineIndex<'t> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 2;
                    continue;
                }
                b'\r' | b'\n' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { text, starts, encoding }
    }

    /// Byte offset where line `line` ends, before its line break.
    fn line_end(&self, line: usize) -> usize {
        match self.starts.get(line + 1) {
            Some(&next) => {
                let before = &self.text.as_bytes()[..next];
                if before.ends_with(b"\r\n") {
                    next - 2
                } else {
                    next - 1
                }
            }
            None => self.text.len(),
        }
    }

    /// The position of byte `offset` (clamped to the text, moved back to a character boundary
    /// and out of a line break).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts[line];
        let offset = offset.min(self.line_end(line));
        let column: usize = self.text[start..offset].chars().map(|c| self.encoding.units(c)).sum();
        Position { line: saturate(line), character: saturate(column) }
    }

    /// The byte offset of `pos` (clamped: past a line's end is its end, past the last line is
    /// the text's end; a column inside a character is that character's start).
    pub fn offset(&self, pos: Position) -> usize {
        let line = pos.line as usize;
        let Some(&start) = self.starts.get(line) else { return self.text.len() };
        let end = self.line_end(line);
        let want = pos.character as usize;
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            let next = units + self.encoding.units(c);
            if next > want {
                return start + i;
            }
            units = next;
        }
        end
    }

    /// The range of a byte span.
    /// How this index counts columns.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    pub fn range(&self, start: usize, end: usize) -> lsp_types::Range {
        lsp_types::Range { start: self.position(start), end: self.position(end.max(start)) }
    }
}

/// `n` as a protocol integer (a document of more than 2^32 lines or columns cannot be sent).
fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_columns_count_code_units() {
        // `é` is 2 bytes / 1 unit, `😀` 4 bytes / 2 units.
        let text = "aé😀b\nx";
        let ix = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(ix.position(0), pos(0, 0));
        assert_eq!(ix.position(1), pos(0, 1));
        assert_eq!(ix.position(3), pos(0, 2));
        assert_eq!(ix.position(7), pos(0, 4));
        assert_eq!(ix.position(8), pos(0, 5));
        assert_eq!(ix.offset(pos(0, 4)), 7);
        assert_eq!(ix.offset(pos(0, 2)), 3);
        // Inside the surrogate pair: the emoji's start.
        assert_eq!(ix.offset(pos(0, 3)), 3);
        assert_eq!(ix.offset(pos(1, 0)), 9);
        // An offset inside a character moves back to its start.
        assert_eq!(ix.position(5), pos(0, 2));
    }

    #[test]
    fn utf8_columns_count_bytes() {
        let text = "aé😀b";
        let ix = LineIndex::new(text, Encoding::Utf8);
        assert_eq!(ix.position(7), pos(0, 7));
        assert_eq!(ix.offset(pos(0, 3)), 3);
        assert_eq!(ix.offset(pos(0, 2)), 1);
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        let text = "ab\r\ncd\re\n\nf";
        let ix = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(ix.position(4), pos(1, 0));
        assert_eq!(ix.position(7), pos(2, 0));
        assert_eq!(ix.position(10), pos(4, 0));
        // Between `\r` and `\n`: the end of the line.
        assert_eq!(ix.position(3), pos(0, 2));
        assert_eq!(ix.offset(pos(0, 2)), 2);
        // Past a line's end: its end, before the break.
        assert_eq!(ix.offset(pos(0, 99)), 2);
        assert_eq!(ix.offset(pos(1, 5)), 6);
        assert_eq!(ix.offset(pos(3, 0)), 9);
        for offset in 0..=text.len() {
            let p = ix.position(offset);
            assert!(ix.offset(p) <= offset, "offset {offset}");
        }
    }

    #[test]
    fn out_of_range_is_clamped() {
        let text = "ab\n";
        let ix = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(ix.offset(pos(7, 3)), 3);
        assert_eq!(ix.position(100), pos(1, 0));
        assert_eq!(ix.range(2, 1), lsp_types::Range { start: pos(0, 2), end: pos(0, 2) });
        let empty = LineIndex::new("", Encoding::Utf16);
        assert_eq!(empty.position(5), pos(0, 0));
        assert_eq!(empty.offset(pos(0, 5)), 0);
    }
}
