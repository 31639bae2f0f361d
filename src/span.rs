//! Byte ranges of the user's source text: the one location type every layer shares, at the
//! bottom of the crate so that `diag` (which renders locations) and the front ends (which make
//! them) depend on it and not on each other.

/// A half-open byte range `[start, end)` of the source file. Line and column are computed only
/// when a diagnostic is rendered (`diag::line_col`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}
