//! Patching: barrier insertions (and, under `--reoptimize`, removals) applied to the user's
//! ORIGINAL text, a unified diff for review, and atomic writes.
//!
//! Every other byte of the file is preserved. Insertions go where the front end's
//! [`Place`] says; a label with `Place::Not` is never patched (synthesis never chooses one).

mod write;

use crate::kpl::{Kernel, Label, Place};
use crate::source::Input;
use std::io::Write;
use std::path::Path;
pub use write::{interrupt, write_fixed, WriteOptions};

#[derive(Debug, thiserror::Error)]
pub enum PatchError {
    #[error("internal: no source position for a barrier after label `{0}`")]
    NotPlaceable(String),
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}: file changed while fixing; nothing written (run `fix` again)")]
    Changed(String),
    #[error("{0}: the file is read-only; nothing written (use --force to write it anyway)")]
    ReadOnly(String),
    #[error("{0}: interrupted; nothing written")]
    Interrupted(String),
    #[error("cannot write {path}: {why}")]
    Refused { path: String, why: &'static str },
}

/// One edit of the source text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Edit {
    at: usize,
    /// Bytes replaced (removals); 0 for insertions.
    len: usize,
    text: String,
    /// Order among edits at the same offset.
    rank: usize,
    /// The edit that writes or deletes one barrier statement (a braced insertion is two edits,
    /// the brace and the barrier; only the second counts).
    barrier: bool,
}

/// The text with a barrier statement `barrier` (e.g. `__syncthreads();`) after every label of
/// `after` and the barrier statements `remove` deleted. Labels refer to `kernel`, whose places and
/// spans point into `source`.
pub fn apply(
    source: &str,
    kernel: &Kernel,
    after: &[Label],
    remove: &[Label],
    barrier: &str,
) -> Result<String, PatchError> {
    let after: Vec<(Label, String)> = after.iter().map(|l| (*l, barrier.to_string())).collect();
    apply_all(source, &[KernelEdits { kernel, after: &after, remove }])
}

/// The barriers to insert into and remove from one kernel of a file.
#[derive(Clone, Copy, Debug)]
pub struct KernelEdits<'a> {
    pub kernel: &'a Kernel,
    /// Labels after which a synchronization statement goes, with its text (`__syncthreads();`,
    /// `__syncwarp();`, `block.sync();`).
    pub after: &'a [(Label, String)],
    /// Barrier statements to delete.
    pub remove: &'a [Label],
}

/// Like [`apply`] for several kernels of one file at once. Kernels may share source text
/// (template instantiations, inlined device functions): an edit several labels ask for at the
/// same place is made once.
pub fn apply_all(source: &str, parts: &[KernelEdits]) -> Result<String, PatchError> {
    Ok(apply_text(source, &planned(source, parts)?))
}

/// A fixed file: the text (for the diff) and the bytes to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patched {
    /// [`Input::text`] with the edits made.
    pub text: String,
    /// The file's own bytes with the same edits: its BOM and the bytes the reader replaced come
    /// back unchanged ([`Input::restore`]).
    pub bytes: Vec<u8>,
    /// Barrier statements written, each source place once (kernels sharing source text ask
    /// for the same statement: it is one barrier in the file).
    pub inserted: usize,
    /// Barrier statements deleted, each once.
    pub removed: usize,
}

/// Like [`apply_all`] on a file as read by [`crate::source::read`].
pub fn apply_input(input: &Input, parts: &[KernelEdits]) -> Result<Patched, PatchError> {
    let edits = planned(&input.text, parts)?;
    let text = apply_text(&input.text, &edits);
    let spans: Vec<(usize, usize, &str)> = edits.iter().map(|e| (e.at, e.len, e.text.as_str())).collect();
    let count =
        |removal: bool| edits.iter().filter(|e| e.barrier && (e.rank == REMOVAL_RANK) == removal).count();
    Ok(Patched { text, bytes: input.restore(&spans), inserted: count(false), removed: count(true) })
}

/// The edits of all parts, each once, from the end of the text backwards, at char boundaries
/// and inside the text.
fn planned(source: &str, parts: &[KernelEdits]) -> Result<Vec<Edit>, PatchError> {
    let mut edits: Vec<Edit> = Vec::new();
    for part in parts {
        edits.extend(edits_of(source, part)?);
    }
    let mut seen = std::collections::HashSet::new();
    edits.retain(|e| seen.insert((e.at, e.len, e.text.clone())));
    edits.retain(|e| {
        let end = e.at.saturating_add(e.len);
        end <= source.len() && source.is_char_boundary(e.at) && source.is_char_boundary(end)
    });
    // Apply from the end so earlier offsets stay valid; at one offset, keep program order.
    edits.sort_by(|a, b| b.at.cmp(&a.at).then(b.rank.cmp(&a.rank)));
    Ok(edits)
}

fn apply_text(source: &str, edits: &[Edit]) -> String {
    let mut out = source.to_string();
    for e in edits {
        out.replace_range(e.at..e.at + e.len, &e.text);
    }
    out
}

/// The line ending of the line holding `at` (`\r\n` or `\n`): inserted lines use the file's own.
fn line_ending(source: &str, at: usize) -> &'static str {
    let bytes = source.as_bytes();
    let at = at.min(bytes.len());
    let newline = bytes[at..]
        .iter()
        .position(|b| *b == b'\n')
        .map(|i| at + i)
        .or_else(|| bytes[..at].iter().rposition(|b| *b == b'\n'));
    match newline {
        Some(i) if i > 0 && bytes[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// A place at a line's end may lie between its `\r` and `\n`; new text goes before the `\r`,
/// so the line keeps its own `\r\n`.
fn before_cr(source: &str, at: usize) -> usize {
    let b = source.as_bytes();
    if at > 0 && b.get(at - 1) == Some(&b'\r') && b.get(at) == Some(&b'\n') {
        at - 1
    } else {
        at
    }
}

/// The rank of a deletion: applied before an insertion at the same offset (edits are applied
/// from the end, higher ranks first at one offset), so an insertion there is never deleted.
const REMOVAL_RANK: usize = usize::MAX;

fn edits_of(source: &str, part: &KernelEdits) -> Result<Vec<Edit>, PatchError> {
    let KernelEdits { kernel, after, remove } = *part;
    let mut edits: Vec<Edit> = Vec::new();
    for (rank, (l, barrier)) in after.iter().enumerate() {
        match kernel.place(*l) {
            Place::Line { offset, indent } => {
                let nl = line_ending(source, *offset);
                let at = before_cr(source, *offset);
                edits.push(Edit { at, len: 0, text: format!("{nl}{indent}{barrier}"), rank, barrier: true });
            }
            Place::Braced { body_start, body_end, indent, outer_indent } => {
                // `{` ends the header line; a body on the header's line moves to a line of its own.
                let start = (*body_start).min(source.len());
                let nl = line_ending(source, start);
                let header_end = source[..start].trim_end().len();
                if source[header_end..start].contains('\n') {
                    edits.push(Edit { at: header_end, len: 0, text: " {".to_string(), rank, barrier: false });
                } else {
                    edits.push(Edit {
                        at: header_end,
                        len: start - header_end,
                        text: format!(" {{{nl}{indent}"),
                        rank,
                        barrier: false,
                    });
                }
                edits.push(Edit {
                    at: before_cr(source, *body_end),
                    len: 0,
                    text: format!("{nl}{indent}{barrier}{nl}{outer_indent}}}"),
                    rank,
                    barrier: true,
                });
            }
            Place::Split { start, end, before, after, indent, braces } => {
                // The statement's text becomes its read, the barrier and its write, one line each.
                let nl = line_ending(source, *start);
                let inner = match braces {
                    Some(_) => format!("{nl}{indent}"),
                    None => String::new(),
                };
                let lines: Vec<&str> = before
                    .iter()
                    .map(String::as_str)
                    .chain([barrier.as_str()])
                    .chain(after.iter().map(String::as_str))
                    .collect();
                let body = lines.join(&format!("{nl}{indent}"));
                let text = match braces {
                    Some(outer) => format!("{{{inner}{body}{nl}{outer}}}"),
                    None => body,
                };
                let (start, end) = ((*start).min(source.len()), (*end).min(source.len()));
                edits.push(Edit { at: start, len: end.saturating_sub(start), text, rank, barrier: true });
            }
            Place::Not(_) => return Err(PatchError::NotPlaceable(kernel.label_name(*l).to_string())),
        }
    }
    for l in remove {
        if let Some(s) = kernel.stmt(*l) {
            let (start, end) = (s.span.start.min(source.len()), s.span.end.min(source.len()));
            let line_start = source[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
            let line_end = source[end..].find('\n').map(|i| end + i).unwrap_or(source.len());
            let alone =
                source[line_start..start].trim().is_empty() && source[end..line_end].trim().is_empty();
            if alone && line_start > 0 {
                // Delete the whole line including the newline before it.
                edits.push(Edit {
                    at: line_start - 1,
                    len: line_end - line_start + 1,
                    text: String::new(),
                    rank: REMOVAL_RANK,
                    barrier: true,
                });
            } else {
                edits.push(Edit {
                    at: start,
                    len: end - start,
                    text: String::new(),
                    rank: REMOVAL_RANK,
                    barrier: true,
                });
            }
        }
    }
    Ok(edits)
}

/// A unified diff (3 lines of context) from `old` to `new`, with `a/` and `b/` headers.
pub fn unified_diff(old: &str, new: &str, path: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", path.trim_start_matches('/')),
            &format!("b/{}", path.trim_start_matches('/')),
        )
        .to_string()
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed, then
/// renamed over the target. On any failure the original file is untouched.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), PatchError> {
    let err = |source: std::io::Error| PatchError::Io { path: path.display().to_string(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    tmp.write_all(contents.as_bytes()).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}
