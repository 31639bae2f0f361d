//! Source-text helpers: line ends, indentation and where a barrier line can go (the places
//! `fix` may insert at, computed from the user's text and clang's ranges).

use crate::kpl::ast::Place;

/// Byte offset of the `\n` ending the line that contains `at` (or the end of the text).
pub(crate) fn line_end(src: &str, at: usize) -> usize {
    src.get(at..).and_then(|s| s.find('\n')).map(|i| at + i).unwrap_or(src.len())
}

/// Byte offset of the start of the line containing `at`.
pub(crate) fn line_start(src: &str, at: usize) -> usize {
    src.get(..at).and_then(|s| s.rfind('\n')).map(|i| i + 1).unwrap_or(0)
}

/// The leading whitespace of the line containing `at`.
pub(crate) fn indent_of(src: &str, at: usize) -> String {
    let start = line_start(src, at);
    src.get(start..).unwrap_or("").chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// Whether `a` and `b` lie on the same line.
pub(crate) fn same_line(src: &str, a: usize, b: usize) -> bool {
    line_start(src, a) == line_start(src, b)
}

/// The place after a statement ending at byte `end` whose first byte is `start`: a new line after
/// the statement's line, unless something other than a `//` comment follows it on that line.
pub(crate) fn line_place(src: &str, start: usize, end: usize) -> Place {
    let eol = line_end(src, end);
    let rest = src.get(end..eol).unwrap_or("").trim();
    if rest.is_empty() || rest.starts_with("//") {
        Place::Line { offset: eol, indent: indent_of(src, start) }
    } else {
        Place::Not("another statement follows on the same line".into())
    }
}

/// The place of a block's start node: just after its `{`, indented like the block's first
/// statement (or the brace line plus four spaces).
pub(crate) fn block_start_place(src: &str, brace: usize, first_stmt: Option<usize>) -> Place {
    let indent = match first_stmt {
        Some(s) if !same_line(src, brace, s) => indent_of(src, s),
        _ => format!("{}    ", indent_of(src, brace)),
    };
    Place::Line { offset: brace + 1, indent }
}

/// The place after a braceless body `start..end` of the compound statement starting at
/// `parent_start`: the patcher wraps the body in braces.
pub(crate) fn braced_place(src: &str, parent_start: usize, start: usize, end: usize) -> Place {
    let outer_indent = indent_of(src, parent_start);
    let indent = if same_line(src, parent_start, start) {
        format!("{outer_indent}    ")
    } else {
        indent_of(src, start)
    };
    Place::Braced { body_start: start, body_end: end, indent, outer_indent }
}
