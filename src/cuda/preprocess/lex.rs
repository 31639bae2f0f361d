//! Preprocessing tokens of one file, with byte offsets into that file's text.
//!
//! Comments and line splices (`\` + newline) are whitespace; newlines outside comments are tokens
//! of their own so that directives can be told apart from text lines. An unterminated string or
//! character literal is an [`Kind::Other`] token running to the end of its line (text in `#if 0`
//! groups need not be C).

use crate::diag::Diagnostic;
use crate::kpl::ast::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The class of a preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
    Newline,
    /// A stray character or an unterminated literal.
    Other,
    /// The empty result of `##` with an empty argument; removed after substitution.
    Placemarker,
}

/// Names whose expansion produced a token and which therefore must not expand it again (the
/// "blue paint" of the C standard).
pub(crate) type HideSet = Rc<BTreeSet<String>>;

/// One preprocessing token.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub text: Rc<str>,
    /// Byte range in the file the token was read from (meaningful only when `src`).
    pub start: usize,
    pub end: usize,
    /// Whitespace or a comment precedes the token.
    pub ws: bool,
    /// Read from the file text itself (not produced by a macro expansion).
    pub src: bool,
    pub hide: HideSet,
}

impl Tok {
    /// A token made by the preprocessor (not read from a file).
    pub fn made(kind: Kind, text: &str, ws: bool) -> Tok {
        Tok { kind, text: text.into(), start: 0, end: 0, ws, src: false, hide: HideSet::default() }
    }
    pub fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == punct
    }
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }
}

const PUNCTS: [&str; 26] = [
    "...", "<<=", ">>=", "->*", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", ".*",
];

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Length of a line splice (`\` + `\n` or `\` + `\r\n`) at `i`, or 0.
fn splice_at(b: &[u8], i: usize) -> usize {
    match (b.get(i), b.get(i + 1), b.get(i + 2)) {
        (Some(b'\\'), Some(b'\n'), _) => 2,
        (Some(b'\\'), Some(b'\r'), Some(b'\n')) => 3,
        _ => 0,
    }
}

/// Tokenizes `text`. Errors: an unterminated `/* … */` comment.
pub(crate) fn lex(text: &str) -> Result<Vec<Tok>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut ws = false;
    let tok = |kind, start: usize, end: usize, ws: bool| Tok {
        kind,
        text: text.get(start..end).unwrap_or("").into(),
        start,
        end,
        ws,
        src: true,
        hide: HideSet::default(),
    };
    while i < b.len() {
        let c = b[i];
        let splice = splice_at(b, i);
        if splice > 0 {
            i += splice;
            ws = true;
            continue;
        }
        match c {
            b'\n' => {
                out.push(tok(Kind::Newline, i, i + 1, ws));
                ws = false;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                ws = true;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // A `//` comment runs to the end of the line; a splice continues it.
                while i < b.len() && b[i] != b'\n' {
                    i += splice_at(b, i).max(1);
                }
                ws = true;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text.get(i + 2..).and_then(|s| s.find("*/")).ok_or_else(|| {
                    Diagnostic::error("unterminated `/*` comment", Span::new(i, i + 2))
                        .with_label("opened here")
                })?;
                i = i + 2 + end + 2;
                ws = true;
            }
            b'"' | b'\'' => {
                let start = i;
                let mut j = i + 1;
                let mut closed = false;
                while j < b.len() && b[j] != b'\n' {
                    if b[j] == b'\\' {
                        j += 2;
                        continue;
                    }
                    if b[j] == c {
                        closed = true;
                        j += 1;
                        break;
                    }
                    j += 1;
                }
                let j = j.min(b.len());
                let kind = match (closed, c) {
                    (false, _) => Kind::Other,
                    (true, b'"') => Kind::Str,
                    _ => Kind::Char,
                };
                out.push(tok(kind, start, j, ws));
                ws = false;
                i = j;
            }
            _ if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                let start = i;
                i += 1;
                while i < b.len() {
                    let d = b[i];
                    let exp = matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                    if ident_byte(d) || d == b'.' || d == b'\'' || exp {
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push(tok(Kind::Number, start, i, ws));
                ws = false;
            }
            _ if ident_byte(c) && !c.is_ascii_digit() => {
                let start = i;
                while i < b.len() && ident_byte(b[i]) {
                    i += 1;
                }
                out.push(tok(Kind::Ident, start, i, ws));
                ws = false;
            }
            _ => {
                let start = i;
                let len = PUNCTS
                    .iter()
                    .find(|p| b[i..].starts_with(p.as_bytes()))
                    .map(|p| p.len())
                    .unwrap_or_else(|| text[i..].chars().next().map(char::len_utf8).unwrap_or(1));
                let kind = if c.is_ascii_punctuation() { Kind::Punct } else { Kind::Other };
                i += len;
                out.push(tok(kind, start, i, ws));
                ws = false;
            }
        }
    }
    Ok(out)
}

/// A logical source line: its tokens (without the newline) and its byte range, newline excluded.
pub(crate) struct Line {
    pub toks: Vec<Tok>,
    pub start: usize,
    pub end: usize,
}

impl Line {
    /// Whether the line is a directive (its first token is `#`).
    pub fn is_directive(&self) -> bool {
        self.toks.first().is_some_and(|t| t.is("#"))
    }
}

/// Splits a token list into logical lines (a comment spanning lines belongs to the line it starts
/// on, as in C).
pub(crate) fn lines(text: &str, toks: Vec<Tok>) -> Vec<Line> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut start = 0;
    for t in toks {
        if t.kind == Kind::Newline {
            out.push(Line { toks: std::mem::take(&mut cur), start, end: t.start });
            start = t.end;
        } else {
            cur.push(t);
        }
    }
    if start < text.len() || !cur.is_empty() {
        out.push(Line { toks: cur, start, end: text.len() });
    }
    out
}

/// Renders tokens as text: one space where the source had whitespace, and where two tokens would
/// otherwise run together into one.
pub(crate) fn spell(toks: &[Tok]) -> String {
    let mut s = String::new();
    let mut prev: Option<&Tok> = None;
    for t in toks {
        if t.kind == Kind::Placemarker {
            continue;
        }
        if let Some(p) = prev {
            if t.ws || would_merge(p, t) {
                s.push(' ');
            }
        }
        s.push_str(&t.text);
        prev = Some(t);
    }
    s
}

/// Whether `a` written right before `b` would read back as different tokens.
fn would_merge(a: &Tok, b: &Tok) -> bool {
    let joined = format!("{}{}", a.text, b.text);
    match lex(&joined) {
        Ok(t) => t.len() != 2 || *t[0].text != *a.text,
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_splices_are_whitespace() {
        let t = lex("a/* x\n y */b // c \\\n d\ne\\\nf").expect("lexes");
        let texts: Vec<&str> = t.iter().map(|t| &*t.text).collect();
        assert_eq!(texts, ["a", "b", "\n", "e", "f"]);
        assert!(t[1].ws && t[4].ws);
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        let t = lex("a<<=b##c...").expect("lexes");
        let texts: Vec<&str> = t.iter().map(|t| &*t.text).collect();
        assert_eq!(texts, ["a", "<<=", "b", "##", "c", "..."]);
    }

    #[test]
    fn unterminated_comment_is_an_error_at_its_start() {
        let e = lex("int a; /* oops").expect_err("unterminated");
        assert_eq!(e.span, Some(Span::new(7, 9)));
    }
}
