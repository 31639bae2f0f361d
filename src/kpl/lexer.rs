//! Tokens of the KPL surface syntax.

use crate::diag::Diagnostic;
use crate::kpl::ast::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Int(u64),
    /// `@name`: an explicit statement label.
    Label(String),
    Punct(&'static str),
    Eof,
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Label(l) => format!("label `@{l}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of file".to_string(),
        }
    }
}

const PUNCTS: [&str; 37] = [
    ":=", "+:", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "{", "}", "[", "]", ";", ",", "+",
    "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~", "?", ":", ".", "=", "#", "$", "`",
];

/// Splits `src` into tokens with their spans. The last token is always `Eof`.
pub fn lex(src: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if src[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if src[i..].starts_with("/*") {
            match src[i + 2..].find("*/") {
                Some(end) => i = i + 2 + end + 2,
                None => {
                    return Err(Diagnostic::error("unterminated block comment", Span::new(i, i + 2))
                        .with_label("this comment is never closed"))
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), Span::new(start, i)));
            continue;
        }
        if c.is_ascii_digit() {
            let (digits, radix) = if src[i..].starts_with("0x") || src[i..].starts_with("0X") {
                i += 2;
                (i, 16)
            } else {
                (i, 10)
            };
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let text = &src[digits..i];
            let value = u64::from_str_radix(text, radix).ok().filter(|v| *v <= u32::MAX as u64);
            match value {
                Some(v) => out.push((Tok::Int(v), Span::new(start, i))),
                None => {
                    return Err(Diagnostic::error(
                        format!("invalid integer literal `{}`", &src[start..i]),
                        Span::new(start, i),
                    )
                    .with_label("not a 32-bit decimal or hexadecimal integer"))
                }
            }
            continue;
        }
        if c == b'@' {
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b':')
            {
                i += 1;
            }
            if i == start + 1 {
                return Err(Diagnostic::error("empty label", Span::new(start, start + 1))
                    .with_label("expected a label name after `@`")
                    .with_note("labels are written `@3` or `@2:4` before a statement"));
            }
            out.push((Tok::Label(src[start + 1..i].to_string()), Span::new(start, i)));
            continue;
        }
        match PUNCTS.iter().find(|p| src[i..].starts_with(**p)) {
            Some(p) if !matches!(*p, "#" | "$" | "`") => {
                i += p.len();
                out.push((Tok::Punct(p), Span::new(start, i)));
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error(
                    format!("unexpected character `{ch}`"),
                    Span::new(i, i + ch.len_utf8()),
                )
                .with_label("not part of KPL"));
            }
        }
    }
    out.push((Tok::Eof, Span::new(src.len(), src.len())));
    Ok(out)
}
