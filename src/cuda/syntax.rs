//! Syntax errors anywhere in the file, located where a person would look first.
//!
//! # Guarantees
//! - A file whose syntax tree has an ERROR or MISSING node anywhere (inside a kernel, in host
//!   code, stray tokens such as `foo bar baz` or a `}` at file scope) is a syntax error at that
//!   node; nothing the parser could not read is skipped.
//! - When brackets do not balance, the error is at the bracket: an unclosed `(`, `[` or `{` is
//!   reported where the first unclosed one opens (for 100 unclosed parentheses, the first of
//!   them), an unmatched closing bracket where it stands.

use super::span;
use crate::diag::Diagnostic;
use crate::kpl::ast::Span;
use tree_sitter::Node;

/// The first syntax error of the file, or `None` when the tree has no ERROR/MISSING node.
pub(crate) fn file_error(root: Node, src: &str) -> Option<Diagnostic> {
    if !root.has_error() {
        return None;
    }
    Some(unbalanced(src).unwrap_or_else(|| syntax_error(root)))
}

fn first_error(n: Node) -> Option<Node> {
    if n.is_error() || n.is_missing() {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().filter(|ch| ch.has_error()).find_map(first_error)
}

/// A syntax error at the first ERROR or MISSING node under `n`.
pub(crate) fn syntax_error(n: Node) -> Diagnostic {
    let at = first_error(n).unwrap_or(n);
    let msg = if at.is_missing() {
        format!("syntax error: expected `{}`", at.kind())
    } else {
        "syntax error: the CUDA parser cannot read this".to_string()
    };
    Diagnostic::error(msg, span(at)).with_label("here")
}

/// The first bracket that does not balance, skipping comments and literals.
fn unbalanced(src: &str) -> Option<Diagnostic> {
    let b = src.as_bytes();
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr(b, i, b'\n');
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..].find("*/").map_or(b.len(), |j| i + 2 + j + 2);
                continue;
            }
            q @ (b'"' | b'\'') if q == b'"' || i == 0 || !b[i - 1].is_ascii_alphanumeric() => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            c @ (b'(' | b'[' | b'{') => open.push((c, i)),
            c @ (b')' | b']' | b'}') => {
                let want = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.last() {
                    Some((o, _)) if *o == want => {
                        open.pop();
                    }
                    Some(_) => {
                        // The run of other brackets above the nearest `want` is unclosed; the
                        // first of them is where the mistake starts.
                        // Nothing opens it at all: the closing bracket is the extra one.
                        let Some(keep) = open.iter().rposition(|(o, _)| *o == want) else {
                            return Some(unmatched(c, i));
                        };
                        let (o, at) = open[keep + 1];
                        return Some(unclosed(o, at));
                    }
                    None => return Some(unmatched(c, i)),
                }
            }
            _ => {}
        }
        i += 1;
    }
    open.first().map(|(o, at)| unclosed(*o, *at))
}

fn unmatched(c: u8, at: usize) -> Diagnostic {
    Diagnostic::error(format!("unmatched `{}`", c as char), Span::new(at, at + 1))
        .with_label("nothing opens this")
}

fn unclosed(o: u8, at: usize) -> Diagnostic {
    Diagnostic::error(format!("unclosed `{}`", o as char), Span::new(at, at + 1))
        .with_label("opened here, never closed")
}

fn memchr(b: &[u8], from: usize, c: u8) -> usize {
    b[from..].iter().position(|x| *x == c).map_or(b.len(), |j| from + j)
}
