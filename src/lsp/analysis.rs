//! One analysis of one document version: the driver's findings ([`crate::driver::buffer`]) as
//! LSP diagnostics, and its fixes as text edits of that version. Runs on the worker thread; the
//! result is plain data the main loop publishes and answers code actions from.

use super::position::{Encoding, LineIndex};
use crate::driver::buffer::{self, BufferOptions, Finding};
use crate::driver::{Budget, Failure, LaunchOptions, Plan};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, TextEdit,
    Uri,
};
use std::path::{Path, PathBuf};

/// The `source` of every diagnostic.
pub const SOURCE: &str = "autosync";

/// What the server was started with: the command line's launch options, compilation database,
/// configuration, budget and `--strict`, as `check` and `fix` take them.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Launch geometry and front-end flags (`--block-dim`, `-I`, `-D`, …).
    pub launch: LaunchOptions,
    /// `-p`: the compilation database; `None`: the nearest `compile_commands.json` above each
    /// file, looked up again for every analysis (a database generated later is found).
    pub build_path: Option<PathBuf>,
    /// The configuration (`--config FILE`, else the built-in one).
    pub config: crate::config::Config,
    /// Each kernel's budget.
    pub budget: Budget,
    /// Benign write-write races are errors.
    pub strict: bool,
}

/// A quick fix: its title and the edits of the analysed version's text.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The menu entry.
    pub title: String,
    /// Non-overlapping edits, in order.
    pub edits: Vec<TextEdit>,
}

/// The outcome of one analysis.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The diagnostics to publish (empty: the file is clean).
    pub diagnostics: Vec<Diagnostic>,
    /// Per diagnostic, its own quick fix.
    pub fixes: Vec<Option<Fix>>,
    /// The whole file's fix ("insert all barriers").
    pub file_fix: Option<Fix>,
    /// The analysis stopped before computing fixes because its version was outdated.
    pub cancelled: bool,
    /// Why fixable findings have no fix (the synthesis failed): for the client's log.
    pub fix_error: Option<String>,
}

/// Whether the server analyses a file of this name: what `check` reads (CUDA `.cu`/`.cuh`,
/// KPL `.kpl`). An editor may send other files; they get no diagnostics.
pub fn is_analysed(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("cu" | "cuh" | "kpl"))
}

/// Analyses `text`, the buffer of `path` (it need not be saved), under `settings`; positions in
/// `encoding`. `cancelled` is asked between the check and the synthesis of the fixes.
/// Never fails: what stops the analysis (a syntax error, bad options) is a diagnostic.
pub fn analyse(
    path: &Path,
    text: &str,
    settings: &Settings,
    encoding: Encoding,
    uri: &Uri,
    cancelled: &dyn Fn() -> bool,
) -> Analysis {
    let index = LineIndex::new(text, encoding);
    let report =
        Plan::one_of_many(path.to_path_buf(), settings.launch.clone(), settings.build_path.as_deref())
            .and_then(|plan| plan.launch_for(path))
            .and_then(|launch| {
                let opts = BufferOptions {
                    launch,
                    config: settings.config.clone(),
                    budget: settings.budget,
                    strict: settings.strict,
                };
                buffer::analyse(path, text, &opts, cancelled)
            });
    let report = match report {
        Ok(r) => r,
        Err(failure) => return failed(failure.reported(), &index, uri),
    };
    let mut analysis =
        Analysis { cancelled: report.cancelled, fix_error: report.fix_error.clone(), ..Analysis::default() };
    for f in &report.findings {
        analysis.diagnostics.push(diagnostic(f.rule, &f.diag, &index, uri));
        analysis.fixes.push(finding_fix(f, text, &index));
    }
    analysis.file_fix = report.file_fix.map(|ff| {
        let removed = if ff.removed == 0 { String::new() } else { format!(", {} removed", ff.removed) };
        Fix {
            title: format!("autosync: insert all barriers ({} inserted{removed})", ff.inserted),
            edits: text_edits(text, &ff.text, &index),
        }
    });
    analysis
}

fn finding_fix(f: &Finding, text: &str, index: &LineIndex) -> Option<Fix> {
    let fix = f.fix.as_ref()?;
    Some(Fix { title: fix.title.clone(), edits: text_edits(text, &fix.text, index) })
}

/// The diagnostic of a failure that stopped the analysis: located when the front end said
/// where (a syntax error), else at the start of the file.
fn failed(failure: Failure, index: &LineIndex, uri: &Uri) -> Analysis {
    let d = match failure {
        Failure::Input { diag, .. } => diagnostic("bad-input", &diag, index, uri),
        Failure::Usage(message) => Diagnostic {
            range: index.range(0, 0),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String("usage".into())),
            source: Some(SOURCE.into()),
            message,
            ..Diagnostic::default()
        },
        // `reported` unwraps it, and `buffer::analyse` reports no kernel as a report.
        Failure::NoKernel(_) => return Analysis::default(),
    };
    Analysis { diagnostics: vec![d], fixes: vec![None], ..Analysis::default() }
}

/// An autosync diagnostic as the protocol's: the primary span is the range, its label and every
/// secondary location are related information (a race's two accesses), notes follow the
/// message on lines of their own.
pub fn diagnostic(rule: &str, d: &crate::diag::Diagnostic, index: &LineIndex, uri: &Uri) -> Diagnostic {
    if let Some(header) = &d.file {
        return in_header(rule, d, header, index);
    }
    let range = d.span.map_or_else(|| index.range(0, 0), |s| index.range(s.start, s.end));
    let at = |range: Range, message: &str| DiagnosticRelatedInformation {
        location: Location { uri: uri.clone(), range },
        message: message.to_string(),
    };
    let mut related = Vec::new();
    if !d.label.is_empty() {
        related.push(at(range, &d.label));
    }
    for (s, text) in &d.secondary {
        related.push(at(index.range(s.start, s.end), text));
    }
    Diagnostic {
        range,
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(rule.to_string())),
        source: Some(SOURCE.into()),
        message: with_notes(d),
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// A diagnostic located in an included header (a kernel written there), as clangd shows one:
/// at the document's `#include` that brings the header in, the message prefixed with the
/// header's `file:line:col`, and the locations in the header (when its path makes a URI) as
/// related information.
fn in_header(
    rule: &str,
    d: &crate::diag::Diagnostic,
    header: &crate::diag::SourceFile,
    index: &LineIndex,
) -> Diagnostic {
    let header_index = LineIndex::new(&header.text, index.encoding());
    let header_uri = std::path::absolute(&header.name).ok().and_then(|p| super::uri::from_path(&p));
    let related = header_uri.map(|hu| {
        let at = |s: crate::span::Span, message: &str| DiagnosticRelatedInformation {
            location: Location { uri: hu.clone(), range: header_index.range(s.start, s.end) },
            message: message.to_string(),
        };
        let mut related = Vec::new();
        if let Some(s) = d.span {
            related.push(at(s, if d.label.is_empty() { &d.message } else { &d.label }));
        }
        for (s, text) in &d.secondary {
            related.push(at(*s, text));
        }
        related
    });
    Diagnostic {
        range: index.range(header.include_span.start, header.include_span.end),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(rule.to_string())),
        source: Some(SOURCE.into()),
        message: format!("in {}: {}", d.location(&header.name, &header.text), with_notes(d)),
        related_information: related.filter(|r| !r.is_empty()),
        ..Diagnostic::default()
    }
}

/// The protocol's severity of an autosync severity.
fn severity(s: crate::diag::Severity) -> DiagnosticSeverity {
    match s {
        crate::diag::Severity::Error => DiagnosticSeverity::ERROR,
        crate::diag::Severity::Warning => DiagnosticSeverity::WARNING,
        crate::diag::Severity::Note => DiagnosticSeverity::INFORMATION,
    }
}

/// The message with the notes on lines of their own.
fn with_notes(d: &crate::diag::Diagnostic) -> String {
    let mut message = d.message.clone();
    for n in &d.notes {
        message.push_str("\n= ");
        message.push_str(n);
    }
    message
}

/// The edits that turn `old` into `new`, one per changed run of lines, ranges in `old`.
pub fn text_edits(old: &str, new: &str, index: &LineIndex) -> Vec<TextEdit> {
    use similar::DiffOp;
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let starts = |lines: &[&str]| -> Vec<usize> {
        let mut v = Vec::with_capacity(lines.len() + 1);
        let mut at = 0;
        v.push(0);
        for l in lines {
            at += l.len();
            v.push(at);
        }
        v
    };
    let (os, ns) = (starts(&old_lines), starts(&new_lines));
    let mut edits = Vec::new();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old_lines, &new_lines) {
        let (o, olen, n, nlen) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, new_index } => (old_index, old_len, new_index, 0),
            DiffOp::Insert { old_index, new_index, new_len } => (old_index, 0, new_index, new_len),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index, old_len, new_index, new_len)
            }
        };
        let (ob, oe) = (os[o], os[o + olen]);
        let (nb, ne) = (ns[n], ns[n + nlen]);
        edits.push(TextEdit { range: index.range(ob, oe), new_text: new[nb..ne].to_string() });
    }
    edits
}

/// Applies `edits` (non-overlapping, positions in `text`) to `text`: what a client does with a
/// quick fix. For tests and for checking that an action's edits reproduce the fixed text.
pub fn apply_edits(text: &str, edits: &[TextEdit], encoding: Encoding) -> String {
    let index = LineIndex::new(text, encoding);
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| (index.offset(e.range.start), index.offset(e.range.end), e.new_text.as_str()))
        .collect();
    spans.sort_by_key(|s| (s.0, s.1));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, new) in spans {
        let start = start.max(at);
        out.push_str(&text[at..start]);
        out.push_str(new);
        at = end.max(start);
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_reproduce_the_new_text() {
        let cases = [
            ("a\nb\nc\n", "a\n__syncthreads();\nb\nc\n"),
            ("a\r\nb\r\nc", "a\r\nb\r\n  x;\r\nc"),
            ("α😀\nb\nc\nd\n", "α😀\nX\nb\nc\nY\nd\n"),
            ("no newline", "no newline\nadded"),
            ("x\ny\n", "y\n"),
        ];
        for (old, new) in cases {
            for enc in [Encoding::Utf16, Encoding::Utf8] {
                let edits = text_edits(old, new, &LineIndex::new(old, enc));
                assert_eq!(apply_edits(old, &edits, enc), new, "{old:?} -> {new:?}");
            }
        }
        // Only the changed lines are replaced.
        let edits = text_edits("a\nb\nc\n", "a\nb\nX\nc\n", &LineIndex::new("a\nb\nc\n", Encoding::Utf16));
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range.start, edits[0].range.end);
        assert_eq!(edits[0].range.start.line, 2);
    }

    #[test]
    fn notes_and_secondary_locations_are_kept() {
        let text = "x = 1;\ny = x;\n";
        let d = crate::diag::Diagnostic::error("data race", crate::span::Span::new(0, 6))
            .with_label("write by thread 1")
            .with_secondary(crate::span::Span::new(7, 13), "read by thread 0")
            .with_note("both access `x`");
        let uri: Uri = "file:///k.cu".parse().unwrap_or_else(|_| unreachable!());
        let out = diagnostic("data-race", &d, &LineIndex::new(text, Encoding::Utf16), &uri);
        assert_eq!(out.code, Some(NumberOrString::String("data-race".into())));
        assert_eq!(out.message, "data race\n= both access `x`");
        let related = out.related_information.unwrap_or_default();
        assert_eq!(related.len(), 2);
        assert_eq!(related[1].location.range.start.line, 1);
        assert_eq!(related[1].message, "read by thread 0");
    }
}
