//! Reading a kernel source file into the text the front ends analyse.
//!
//! # Guarantees
//! - Only regular files are read: a directory, FIFO, socket or device (`/dev/zero`) is refused
//!   before a byte is read (a FIFO is opened non-blocking, so `check FIFO` never waits).
//! - At most [`MAX_SOURCE_BYTES`] are read; a larger file is an error saying the limit.
//! - A leading UTF-8 byte-order mark is not part of [`Input::text`], so a `//--blockDim=` header on
//!   the first line still counts; `fix` writes it back ([`Input::restore`]).
//! - Bytes that are not UTF-8, and NUL bytes, are accepted inside comments and string or character
//!   literals: each such byte becomes one `?` in the text, so every byte offset of the text is the
//!   offset in the file after the BOM, and spans, places and patches stay exact. Elsewhere such a
//!   byte is an error at its `file:line:col`.
//! - [`Input::restore`] gives back the file's own bytes (BOM and replaced bytes included) around the
//!   edits `fix` makes; [`Input::unchanged_on_disk`] says whether the file still holds exactly the
//!   bytes that were read.

use crate::diag::Diagnostic;
use crate::kpl::ast::Span;
use std::io::Read;
use std::path::Path;
use std::time::SystemTime;

pub use crate::limits::MAX_SOURCE_BYTES;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why a source file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: not a regular file (a {kind}); autosync reads kernels from regular files only")]
    NotRegular { path: String, kind: &'static str },
    #[error("{path}: file too large ({size} bytes; the limit is {limit} bytes)")]
    TooLarge { path: String, size: u64, limit: u64 },
    /// A byte the front ends cannot read, located in `text` (the file with each bad byte as `?`).
    #[error("{path}: {}", diag.message)]
    Bytes { path: String, text: String, diag: Box<Diagnostic> },
}

/// What `fix` compares before it replaces the file: the file must still be this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Size in bytes when read.
    pub len: u64,
    /// Modification time when read (`None` where the platform has none).
    pub modified: Option<SystemTime>,
}

/// A source file as read: the analysed text plus what is needed to write it back byte-exactly.
#[derive(Clone, Debug)]
pub struct Input {
    /// The text the front ends analyse (see the module guarantees).
    pub text: String,
    /// The file's bytes exactly as read.
    raw: Vec<u8>,
    /// Length of the BOM at the start of `raw` (0 or 3).
    bom_len: usize,
    /// Size and time when read; `None` for text that did not come from a file.
    snapshot: Option<Snapshot>,
}

impl Input {
    /// The input for bytes that did not come from a file (tests, generated text).
    ///
    /// Errors: a byte outside comments and literals that is not UTF-8, or a NUL there.
    pub fn from_bytes(raw: Vec<u8>) -> Result<Input, (String, Diagnostic)> {
        let bom_len = if raw.starts_with(BOM) { BOM.len() } else { 0 };
        let (text, bad) = sanitize(&raw[bom_len..]);
        if let Some(d) = bad {
            return Err((text, d));
        }
        Ok(Input { text, raw, bom_len, snapshot: None })
    }

    /// Whether the file started with a UTF-8 byte-order mark.
    pub fn has_bom(&self) -> bool {
        self.bom_len > 0
    }

    /// The file's bytes for `patched`, a text made from [`Input::text`] by the edits `edits`
    /// (`(offset, removed length, inserted text)` into `text`, non-overlapping, any order): the
    /// BOM and every replaced byte come back as they were in the file.
    pub fn restore(&self, edits: &[(usize, usize, &str)]) -> Vec<u8> {
        let body = &self.raw[self.bom_len..];
        let mut sorted: Vec<&(usize, usize, &str)> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.0, e.1));
        let mut out = Vec::with_capacity(self.raw.len() + edits.iter().map(|e| e.2.len()).sum::<usize>());
        out.extend_from_slice(&self.raw[..self.bom_len]);
        let mut at = 0;
        for (offset, len, text) in sorted {
            let start = (*offset).clamp(at, body.len());
            out.extend_from_slice(&body[at..start]);
            out.extend_from_slice(text.as_bytes());
            at = (start + len).min(body.len());
        }
        out.extend_from_slice(&body[at..]);
        out
    }

    /// Whether the file at `path` still holds exactly the bytes read (same size, same
    /// modification time, same content compared byte for byte). Text not read from a file is
    /// always unchanged.
    pub fn unchanged_on_disk(&self, path: &Path) -> std::io::Result<bool> {
        let Some(snap) = &self.snapshot else { return Ok(true) };
        let meta = std::fs::metadata(path)?;
        if meta.len() != snap.len || meta.modified().ok() != snap.modified {
            return Ok(false);
        }
        let now = std::fs::read(path)?;
        Ok(now == self.raw)
    }
}

/// Reads the source file at `path` (see the module guarantees).
pub fn read(path: &Path) -> Result<Input, SourceError> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = path.display().to_string();
    let io = |source: std::io::Error| SourceError::Io { path: name.clone(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    check_regular(&meta, &name)?;
    // Non-blocking: if the path was swapped for a FIFO after the check, opening does not wait.
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check_regular(&meta, &name)?;
    let too_large = |size| SourceError::TooLarge { path: name.clone(), size, limit: MAX_SOURCE_BYTES };
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut raw = Vec::with_capacity(meta.len() as usize);
    // One byte over the limit tells a file that grew while being read.
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut raw).map_err(io)?;
    if raw.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_large(raw.len() as u64));
    }
    let snapshot = Snapshot { len: raw.len() as u64, modified: meta.modified().ok() };
    let mut input = Input::from_bytes(raw).map_err(|(text, diag)| SourceError::Bytes {
        path: name.clone(),
        text,
        diag: Box::new(diag),
    })?;
    input.snapshot = Some(snapshot);
    Ok(input)
}

fn check_regular(meta: &std::fs::Metadata, name: &str) -> Result<(), SourceError> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    let kind = if t.is_file() {
        return Ok(());
    } else if t.is_dir() {
        "directory"
    } else if t.is_fifo() {
        "FIFO"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_block_device() {
        "block device"
    } else if t.is_socket() {
        "socket"
    } else {
        "special file"
    };
    Err(SourceError::NotRegular { path: name.to_string(), kind })
}

/// Where a byte is, lexically: only what decides whether a stray byte is harmless.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lex {
    Code,
    LineComment,
    BlockComment,
    Str,
    Char,
}

/// The text with every non-UTF-8 byte and NUL replaced by one `?`, and the first such byte that
/// lies outside comments and literals (an error).
fn sanitize(body: &[u8]) -> (String, Option<Diagnostic>) {
    let mut out = body.to_vec();
    let mut first_bad: Option<(usize, u8)> = None;
    let mut state = Lex::Code;
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        let next = body.get(i + 1).copied();
        if b >= 0x80 || b == 0 {
            let len = utf8_len(&body[i..]);
            if len == 0 {
                out[i] = b'?';
                if state == Lex::Code && first_bad.is_none() {
                    first_bad = Some((i, b));
                }
                i += 1;
            } else {
                i += len;
            }
            continue;
        }
        match state {
            Lex::Code => match (b, next) {
                (b'/', Some(b'/')) => {
                    state = Lex::LineComment;
                    i += 1;
                }
                (b'/', Some(b'*')) => {
                    state = Lex::BlockComment;
                    i += 1;
                }
                (b'"', _) => state = Lex::Str,
                // `1'000` is a digit separator, not a character literal.
                (b'\'', _) if i == 0 || !body[i - 1].is_ascii_alphanumeric() => state = Lex::Char,
                _ => {}
            },
            Lex::LineComment if b == b'\n' && (i == 0 || body[i - 1] != b'\\') => state = Lex::Code,
            Lex::BlockComment if b == b'*' && next == Some(b'/') => {
                state = Lex::Code;
                i += 1;
            }
            // An escape skips one ASCII byte; a stray byte after `\\` is replaced like any other.
            Lex::Str | Lex::Char if b == b'\\' && next.is_some_and(|n| n != 0 && n < 0x80) => i += 1,
            Lex::Str if b == b'"' || b == b'\n' => state = Lex::Code,
            Lex::Char if b == b'\'' || b == b'\n' => state = Lex::Code,
            _ => {}
        }
        i += 1;
    }
    let text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let diag = first_bad.map(|(at, b)| {
        let what = if b == 0 { "a NUL byte".to_string() } else { format!("byte 0x{b:02X}, not UTF-8,") };
        Diagnostic::error(format!("{what} outside a comment or string literal"), Span::new(at, at + 1))
            .with_label("this byte")
            .with_note(
                "autosync reads UTF-8 source; other bytes are accepted only inside comments and literals",
            )
    });
    (text, diag)
}

/// The length of the UTF-8 character at the start of `s` (a NUL is one), 0 if it is not one.
fn utf8_len(s: &[u8]) -> usize {
    let len = match s.first() {
        Some(0) => return 0,
        Some(0x01..=0x7F) => 1,
        Some(0xC2..=0xDF) => 2,
        Some(0xE0..=0xEF) => 3,
        Some(0xF0..=0xF4) => 4,
        _ => return 0,
    };
    match s.get(..len) {
        Some(c) if std::str::from_utf8(c).is_ok() => len,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_stripped_and_restored() {
        let input = Input::from_bytes(b"\xEF\xBB\xBF//--blockDim=32\nx;\n".to_vec()).expect("reads");
        assert!(input.has_bom());
        assert_eq!(input.text, "//--blockDim=32\nx;\n");
        assert_eq!(input.restore(&[(18, 0, "\ny;")]), b"\xEF\xBB\xBF//--blockDim=32\nx;\ny;\n".to_vec());
    }

    #[test]
    fn bad_bytes_in_comments_and_strings_keep_offsets() {
        let raw = b"// caf\xE9 \0\nint a; /* \xFF */ char *s = \"\xC3\";\n".to_vec();
        let input = Input::from_bytes(raw.clone()).expect("reads");
        assert_eq!(input.text.len(), raw.len());
        assert_eq!(input.text, "// caf? ?\nint a; /* ? */ char *s = \"?\";\n");
        assert_eq!(input.restore(&[]), raw);
        assert_eq!(input.restore(&[(10, 0, "X")])[..11], b"// caf\xE9 \0\nX"[..]);
    }

    #[test]
    fn bad_bytes_in_code_are_located() {
        let (text, d) = Input::from_bytes(b"int a;\nint \xE9b;\n".to_vec()).expect_err("rejects");
        assert_eq!(d.span, Some(Span::new(11, 12)));
        assert_eq!(crate::diag::line_col(&text, 11), (2, 5));
        assert!(d.message.contains("0xE9"), "{}", d.message);
        let (_, d) = Input::from_bytes(b"int\0 a;".to_vec()).expect_err("rejects");
        assert!(d.message.contains("NUL"), "{}", d.message);
    }

    #[test]
    fn valid_multibyte_characters_stay() {
        let input = Input::from_bytes("// é ✓ 😀\nint a; // \u{1}".as_bytes().to_vec()).expect("reads");
        assert_eq!(input.text, "// é ✓ 😀\nint a; // \u{1}");
    }

    #[test]
    fn digit_separators_do_not_open_a_literal() {
        // After `1'000` the comment must still be recognised as a comment.
        let input = Input::from_bytes(b"int a = 1'000; // \xE9\n".to_vec()).expect("reads");
        assert!(input.text.ends_with("// ?\n"));
        assert!(Input::from_bytes(b"int a = 1'000; \xE9\n".to_vec()).is_err());
    }
}
