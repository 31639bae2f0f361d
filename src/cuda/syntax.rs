//! Syntax errors anywhere in the file, located where a person would look first.
//!
//! # Guarantees
//! - A file whose syntax tree has an ERROR or MISSING node anywhere (inside a kernel, in host
//!   code, stray tokens such as `foo bar baz` or a `}` at file scope) is a syntax error at that
//!   node; nothing the parser could not read is skipped.
//! - When brackets do not balance, the error is at the bracket: an unclosed `(`, `[` or `{` is
//!   reported where the first unclosed one opens (for 100 unclosed parentheses, the first of
//!   them), an unmatched closing bracket where it stands.
//! - Otherwise the error names what was expected where the text tells it: a MISSING token
//!   (tree-sitter's own), a `;` missing at the end of the line before the construct the parser
//!   could not read (reported at that line, not the next one), parentheses missing around an
//!   `if`/`while`/`for`/`switch` condition, a `for` header without its two `;`, an operator
//!   without its right operand; anything else at the first line of the construct, named.

use super::span;
use crate::diag::Diagnostic;
use crate::kpl::ast::Span;
use tree_sitter::Node;

/// The first syntax error of the file, or `None` when the tree has no ERROR/MISSING node.
pub(crate) fn file_error(root: Node, src: &str) -> Option<Diagnostic> {
    if !root.has_error() {
        return None;
    }
    Some(unbalanced(src).unwrap_or_else(|| syntax_error(root, src)))
}

/// The first ERROR or MISSING node under `n` (an ERROR node's own first error inside it, when
/// it has one: the smaller construct).
fn first_error(n: Node) -> Option<Node> {
    if n.is_missing() {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    let inner = children.into_iter().filter(|ch| ch.has_error()).find_map(first_error);
    if n.is_error() {
        return Some(inner.unwrap_or(n));
    }
    inner
}

/// A syntax error at the first ERROR or MISSING node under `n`, saying what was expected
/// where the text tells it.
pub(crate) fn syntax_error(n: Node, src: &str) -> Diagnostic {
    let at = first_error(n).unwrap_or(n);
    if at.is_missing() {
        return Diagnostic::error(format!("syntax error: expected `{}`", at.kind()), span(at))
            .with_label(format!("`{}` expected here", at.kind()));
    }
    let sp = span(at);
    let text = src.get(sp.start..sp.end.min(src.len())).unwrap_or("");
    if let Some(d) = missing_semicolon(src, sp.start) {
        return d;
    }
    // A statement header the parser gave up on: at the outermost construct it could not read,
    // line by line up to the line of the first error.
    let mut outer = at;
    let mut up = at.parent();
    while let Some(p) = up {
        if p.is_error() {
            outer = p;
        }
        up = p.parent();
    }
    let osp = span(outer);
    let limit = src[sp.start..].find('\n').map_or(src.len(), |i| sp.start + i);
    let mut line = osp.start;
    while line < limit.min(osp.end) {
        let rest = &src[line..osp.end];
        let t = rest.trim_start();
        let start = line + (rest.len() - t.len());
        if let Some(d) = condition_without_parens(t, start).or_else(|| for_header(t, start)) {
            return d;
        }
        line = match src[line..].find('\n') {
            Some(i) => line + i + 1,
            None => break,
        };
    }
    if let Some(d) = dangling_operator(src, text, sp) {
        return d;
    }
    // The first line of the construct: where the reader looks, not the whole function.
    let first_line_end = text.find('\n').map_or(sp.end, |i| sp.start + text[..i].trim_end().len());
    let first = text.split_whitespace().next().unwrap_or("");
    let what = match first {
        "if" | "for" | "while" | "switch" | "do" | "return" => format!("this `{first}` statement"),
        _ if text.contains('\n') && text.trim_end().ends_with('}') => "this definition".to_string(),
        "" => "this".to_string(),
        _ => format!("the text from `{}`", first.chars().take(24).collect::<String>()),
    };
    Diagnostic::error(
        format!("syntax error: the CUDA parser cannot read {what}"),
        Span::new(sp.start, first_line_end.max(sp.start + 1)),
    )
    .with_label("not valid C++/CUDA from here")
}

/// `int i = threadIdx.x` with no `;` before the next line's statement: tree-sitter reports the
/// next line; the `;` is missing at the end of this one.
fn missing_semicolon(src: &str, at: usize) -> Option<Diagnostic> {
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    if !src[line_start..at].trim().is_empty() {
        return None;
    }
    let before = without_line_comment(src[..line_start].trim_end_matches(['\n', '\r', ' ', '\t']));
    let prev_line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let prev = before[prev_line_start..].trim();
    let last = prev.chars().last()?;
    if prev.starts_with('#') || prev.starts_with("//") || prev.ends_with("*/") {
        return None;
    }
    let ends_statement = last.is_alphanumeric() || matches!(last, ')' | ']' | '_' | '"' | '\'');
    let opens_block = ["if", "for", "while", "switch", "else", "do"].iter().any(|kw| {
        prev.starts_with(kw) && !prev[kw.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    });
    if !ends_statement || opens_block || prev.contains("__global__") || prev.contains("__device__") {
        return None;
    }
    let end = prev_line_start + before[prev_line_start..].trim_end().len();
    Some(
        Diagnostic::error(
            format!("syntax error: expected `;` after `{}`", shorten(prev)),
            Span::new(end - last.len_utf8(), end),
        )
        .with_label("`;` expected after this"),
    )
}

/// `if i < n {`: C requires parentheses around the condition.
fn condition_without_parens(text: &str, at: usize) -> Option<Diagnostic> {
    let t = text.trim_start();
    let kw = ["if", "while", "switch", "for"]
        .into_iter()
        .find(|kw| t.starts_with(kw) && t[kw.len()..].starts_with(char::is_whitespace))?;
    if t[kw.len()..].trim_start().starts_with('(') {
        return None;
    }
    let start = at + (text.len() - t.len());
    Some(
        Diagnostic::error(
            format!("syntax error: expected `(` after `{kw}`"),
            Span::new(start, start + kw.len()),
        )
        .with_label(format!("the condition of `{kw}` goes in parentheses: `{kw} (…)`")),
    )
}

/// `for (int i = 0; i < n i++)`: the header needs two `;` at its top level.
fn for_header(text: &str, at: usize) -> Option<Diagnostic> {
    let t = text.trim_start();
    let off = at + (text.len() - t.len());
    let rest = t.strip_prefix("for")?.trim_start();
    let open = off + (t.len() - rest.len());
    if !rest.starts_with('(') {
        return None;
    }
    let (mut depth, mut semis) = (0i32, 0);
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    // `for (auto x : v)`, a range-based `for`, has none.
                    if semis == 2 || (semis == 0 && rest[..i].contains(':')) {
                        return None;
                    }
                    return Some(
                        Diagnostic::error(
                            format!("syntax error: a `for` header needs two `;` (init; condition; step), this one has {semis}"),
                            Span::new(open, open + i + 1),
                        )
                        .with_label("in this header"),
                    );
                }
            }
            ';' if depth == 1 => semis += 1,
            _ => {}
        }
    }
    None
}

/// `a[i] + ;`: an operator with nothing after it.
fn dangling_operator(src: &str, text: &str, sp: Span) -> Option<Diagnostic> {
    let op = text.trim();
    let ops = [
        "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", ">", "<=", ">=", "==", "!=", "=",
    ];
    if !ops.contains(&op) {
        return None;
    }
    let next = src.get(sp.end..)?.trim_start().chars().next()?;
    if !matches!(next, ';' | ')' | ']' | ',' | '}') {
        return None;
    }
    Some(
        Diagnostic::error(format!("syntax error: expected an expression after `{op}`"), sp)
            .with_label(format!("`{op}` has no right operand")),
    )
}

/// A line without its trailing `// comment`.
fn without_line_comment(text: &str) -> &str {
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    match text[start..].find("//") {
        Some(i) => text[..start + i].trim_end(),
        None => text,
    }
}

/// At most 40 characters of a line, for a message.
fn shorten(line: &str) -> String {
    if line.chars().count() <= 40 {
        line.to_string()
    } else {
        format!("…{}", line.chars().rev().take(39).collect::<Vec<_>>().into_iter().rev().collect::<String>())
    }
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
