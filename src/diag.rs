//! Diagnostics: every user-facing error or finding carries a file, a byte span, a message and
//! notes, and renders like rustc/clang (file:line:col, the source line, carets).

use crate::span::Span;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A file a diagnostic is located in that is not the input it is reported for: a header the
/// input includes, where a kernel is written. Its spans are offsets into `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Its path as reports print it: the including file's directory as printed joined with the
    /// `#include`'s name (`kernels/sgemm.cuh`), so relative when the input's path is.
    pub name: String,
    /// Its text, read as an input is (`crate::source`: byte-order mark left out).
    pub text: String,
    /// The `#include` lines that bring it in, outermost first: the including file's name as
    /// printed and the 1-based line of the directive.
    pub included_from: Vec<(String, usize)>,
    /// The outermost `#include` directive in the input: where a client that shows only the
    /// input (an editor) puts what is located in this file.
    pub include_span: Span,
}

impl SourceFile {
    /// The include chain as notes, innermost first (as a compiler prints it): "in the header
    /// included from kernel.cu:3".
    pub fn chain_notes(&self) -> Vec<String> {
        self.included_from
            .iter()
            .rev()
            .map(|(file, line)| format!("in the header included from {file}:{line}"))
            .collect()
    }
}

/// A message about a place in a source file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The primary location and the text shown under the carets.
    pub span: Option<Span>,
    pub label: String,
    /// Further locations with their own short text.
    pub secondary: Vec<(Span, String)>,
    pub notes: Vec<String>,
    /// The file the spans point into when it is not the input (a header it includes); `None`:
    /// the input, whose name and text the caller gives [`Diagnostic::render`].
    #[serde(skip)]
    pub file: Option<Arc<SourceFile>>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: Some(span),
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
            file: None,
        }
    }
    pub fn warning(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message, span) }
    }
    /// A diagnostic with no source location.
    pub fn bare(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity, span: None, ..Diagnostic::error(message, Span::default()) }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, text.into()));
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Locates the diagnostic in `file` (its spans are offsets into that file's text) and adds
    /// the include chain as notes (before its others); a diagnostic already located in a file is returned as it is.
    pub fn in_file(mut self, file: &Arc<SourceFile>) -> Diagnostic {
        if self.file.is_none() {
            // The chain first, so it reads the same whatever notes follow.
            let mut notes = file.chain_notes();
            notes.append(&mut self.notes);
            self.notes = notes;
            self.file = Some(Arc::clone(file));
        }
        self
    }

    /// The name and text the spans point into: the diagnostic's own file, else the input's
    /// (`file_name`, `source`).
    pub fn source_of<'a>(&'a self, file_name: &'a str, source: &'a str) -> (&'a str, &'a str) {
        match &self.file {
            Some(f) => (&f.name, &f.text),
            None => (file_name, source),
        }
    }

    /// Renders the diagnostic against the source text, rustc style, without colour; against
    /// its own file's text when it has one ([`Diagnostic::file`]).
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let (file_name, source) = self.source_of(file_name, source);
        let file = SimpleFile::new(file_name, source);
        let severity = match self.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
            Severity::Note => CsSeverity::Note,
        };
        let clamp = |s: Span| {
            let end = s.end.min(source.len());
            let start = s.start.min(end);
            start..end
        };
        let mut labels = Vec::new();
        if let Some(span) = self.span {
            labels.push(CsLabel::primary((), clamp(span)).with_message(self.label.clone()));
        }
        for (span, text) in &self.secondary {
            labels.push(CsLabel::secondary((), clamp(*span)).with_message(text.clone()));
        }
        let d = CsDiagnostic::new(severity)
            .with_message(self.message.clone())
            .with_labels(labels)
            .with_notes(self.notes.clone());
        let config = term::Config { chars: term::Chars::ascii(), ..term::Config::default() };
        term::emit_into_string(&config, &file, &d)
            .unwrap_or_else(|_| format!("{file_name}: {}", self.message))
    }

    /// `file:line:col` of the primary span (1-based), for one-line output.
    pub fn location(&self, file_name: &str, source: &str) -> String {
        let (file_name, source) = self.source_of(file_name, source);
        match self.span {
            Some(span) => {
                let (line, col) = line_col(source, span.start);
                format!("{file_name}:{line}:{col}")
            }
            None => file_name.to_string(),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset. Scans `source` once; for many
/// lookups into one text build a [`LineIndex`] instead.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(source).line_col(offset)
}

/// The start offsets of a text's lines, so that each location lookup is a binary search plus a
/// scan of one line (the whole text is scanned once, in [`LineIndex::new`]).
#[derive(Clone, Debug)]
pub struct LineIndex<'s> {
    source: &'s str,
    /// Byte offset of the first byte of every line; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    /// Indexes the lines of `source` (a line ends after each `\n`).
    pub fn new(source: &'s str) -> LineIndex<'s> {
        let starts = std::iter::once(0)
            .chain(source.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { source, starts }
    }

    /// 1-based line of a byte offset (offsets past the end count as the end).
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.source.len());
        self.starts.partition_point(|s| *s <= offset)
    }

    /// 1-based line and column (in characters) of a byte offset; equal to [`line_col`]. An offset
    /// inside a multi-byte character counts the characters that start before it.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.source.len());
        let line = self.line(offset);
        let start = self.starts[line - 1];
        let col = self.source.as_bytes()[start..offset].iter().filter(|b| (**b & 0xC0) != 0x80).count() + 1;
        (line, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index agrees with a direct count at every offset, multi-byte characters included.
    #[test]
    fn line_index_matches_a_rescan() {
        let src = "a\nbé c\n\n  x\u{1F600}y\nlast";
        let index = LineIndex::new(src);
        for offset in 0..=src.len() + 2 {
            let o = offset.min(src.len());
            let before = &src.as_bytes()[..o];
            let line = before.iter().filter(|b| **b == b'\n').count() + 1;
            let line_start = before.iter().rposition(|b| *b == b'\n').map(|i| i + 1).unwrap_or(0);
            let col = before[line_start..].iter().filter(|b| (**b & 0xC0) != 0x80).count() + 1;
            assert_eq!(index.line_col(offset), (line, col), "offset {offset}");
        }
    }
}
