//! A text held in memory (an editor's buffer) checked and fixed like a file, without touching
//! the disk: what `check` reports on it, and the text `fix` would write, whole and per finding.
//!
//! [`analyse`] guarantees: the findings are `check`'s for the same text, flags and
//! configuration (same oracle, same diagnostics, same rules), located in the buffer's own text
//! (a byte-order mark counted) or, for a kernel written in an included header, in the header's
//! ([`Diagnostic::file`]; no fix: `fix` edits the file it is given only); the whole-file fix is the text `fix` writes (same synthesis
//! options, same patch); nothing is read but the text and what its includes and the
//! compilation database name, and nothing is written but clang's temporary copies.

use super::fix::{barrier_line, patch_file, synth_options, synthesize_file};
use super::load::{lower_text, oracle_for, Loaded};
use super::report::verdict_findings;
use super::style::SyncStyle;
use super::wording::Ctx;
use super::{Budget, Failure, LaunchOptions};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::kpl::{Label, Span};
use crate::synth::{Synthesis, Unfixable};
use crate::verify::Oracle;
use std::path::Path;

/// How a buffer is analysed: the launch options (with the compilation database's flags already
/// merged, [`super::Plan::launch_for`]), the configuration, the budget per kernel and `--strict`.
#[derive(Clone, Debug)]
pub struct BufferOptions {
    /// Launch geometry and front-end flags.
    pub launch: LaunchOptions,
    /// The effective configuration (`--config`, else the built-in one).
    pub config: Config,
    /// Each kernel's wall-time budget, for the check and again for the synthesis.
    pub budget: Budget,
    /// Benign write-write races are errors.
    pub strict: bool,
}

/// One finding of `check` on the buffer.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rule (`data-race`, `barrier-divergence`, `out-of-bounds`, `refused`, …): the JSON
    /// output's `rule`.
    pub rule: &'static str,
    /// The diagnostic, spans into the buffer's text.
    pub diag: Diagnostic,
    /// The fix of this finding, when `fix` fixes it.
    pub fix: Option<FindingFix>,
}

/// A finding's fix: the buffer's whole text after the edit, and what the edit does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindingFix {
    /// The buffer's text with the edit made.
    pub text: String,
    /// What the edit does, for a menu entry: "insert `__syncthreads();` after line 12".
    pub title: String,
    /// The edit is the whole file's fix rather than this finding's own barriers (a moved
    /// divergent barrier, whose replacement serves every race it ordered).
    pub whole_file: bool,
}

/// The whole file's fix: what `fix` would write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFix {
    /// The buffer's text with every barrier `fix` inserts (and the divergent ones it moves).
    pub text: String,
    /// Barrier statements inserted, each once in the file.
    pub inserted: usize,
    /// Barrier statements removed.
    pub removed: usize,
}

/// What [`analyse`] found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The findings in `check`'s order (kernel by kernel; the front end's refusals and warnings
    /// first).
    pub findings: Vec<Finding>,
    /// The whole file's fix, when it changes the text.
    pub file_fix: Option<FileFix>,
    /// The file has no kernel: nothing was checked (not an error in an editor).
    pub no_kernel: bool,
    /// `cancelled` answered true before the synthesis: no fix was computed.
    pub cancelled: bool,
    /// Why no fix was computed although a finding is fixable (the synthesis or the patch
    /// failed); the findings stand.
    pub fix_error: Option<String>,
}

/// The rule of a kernel the front end refuses (clang reported an error in it, or a construct it
/// does not model): the JSON output lists these under `refused`.
pub const REFUSED_RULE: &str = "refused";
/// The rule of a front-end warning.
pub const WARNING_RULE: &str = "front-end";

/// Checks `text`, the buffer of the file at `path` (whose extension picks the front end; the file
/// need not exist or hold this text), and computes `fix`'s edits when a finding is fixable.
/// `cancelled` is asked between the check and the synthesis: an outdated buffer's analysis
/// stops there.
///
/// Errors: a text the front end cannot read at all (a syntax error, a bad byte) is a located
/// [`Failure::Input`]; bad options are [`Failure::Usage`]. A file without kernels is a report
/// with `no_kernel` set, never an error.
pub fn analyse(
    path: &Path,
    text: &str,
    opts: &BufferOptions,
    cancelled: &dyn Fn() -> bool,
) -> Result<Report, Failure> {
    let name = path.display().to_string();
    // Spans are into the text without its BOM (`Input::text`); the buffer holds the BOM.
    let shift = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let located = |diag: Diagnostic| Failure::Input {
        file: name.clone(),
        source: text.to_string(),
        diag: Box::new(shifted(diag, shift)),
    };
    let input = crate::source::Input::from_bytes(text.as_bytes().to_vec()).map_err(|(_, d)| located(d))?;
    let config = opts.launch.verifier_config(&opts.config);
    let lowered = match lower_text(path, &input.text, &opts.launch, &config) {
        Ok(l) => l,
        Err(Failure::NoKernel(_)) => return Ok(Report { no_kernel: true, ..Report::default() }),
        Err(Failure::Input { diag, .. }) => return Err(located(*diag)),
        Err(f) => return Err(f),
    };
    let mut report = Report::default();
    for d in &lowered.refused {
        report.findings.push(Finding { rule: REFUSED_RULE, diag: shifted(d.clone(), shift), fix: None });
    }
    for d in &lowered.warnings {
        report.findings.push(Finding { rule: WARNING_RULE, diag: shifted(d.clone(), shift), fix: None });
    }
    let loaded = Loaded {
        path: path.to_path_buf(),
        name,
        source: input.text.clone(),
        is_cuda: super::load::is_cuda_path(path),
        kernels: lowered.kernels,
        input,
        warnings: Vec::new(),
        refused: lowered.refused,
    };
    let mut subjects = Vec::new();
    let first_checked = report.findings.len();
    for (ki, k) in loaded.kernels.iter().enumerate() {
        let mut oracle = oracle_for(k, &config, opts.strict, opts.budget);
        let verdict = oracle.check(k);
        let cx = Ctx { k, source: k.text(&loaded.source), explain: false, fix: None };
        // What each finding is about, in `verdict_findings`' order: races, benign races,
        // divergences, out-of-bounds accesses.
        let about = verdict
            .races
            .iter()
            .map(|r| Subject::Race(r.first, r.second))
            .chain(verdict.benign.iter().map(|_| Subject::Other))
            .chain(verdict.divergences.iter().map(|dv| Subject::Divergence(dv.barrier)))
            .chain(verdict.out_of_bounds.iter().map(|_| Subject::Other));
        for ((rule, d), subject) in verdict_findings(&cx, &verdict).into_iter().zip(about) {
            report.findings.push(Finding { rule, diag: shifted(d, shift), fix: None });
            subjects.push((ki, subject));
        }
    }
    let fixable = subjects.iter().any(|(_, s)| !matches!(s, Subject::Other));
    if !fixable {
        return Ok(report);
    }
    if cancelled() {
        report.cancelled = true;
        return Ok(report);
    }
    if let Err(f) = add_fixes(&mut report, &loaded, text, &config, opts, first_checked, &subjects) {
        report.fix_error = Some(match f.reported() {
            Failure::Input { diag, .. } => diag.message,
            Failure::Usage(m) => m,
            // `reported` unwraps it.
            other => format!("{other:?}"),
        });
    }
    Ok(report)
}

/// What each finding is, for its fix: a race's label pair or a divergent barrier.
enum Subject {
    Race(Label, Label),
    Divergence(Label),
    Other,
}

/// Synthesizes as `fix` does and gives the report the whole file's fix and each fixable
/// finding's (`subjects[i]` is about `report.findings[first_checked + i]`, of kernel `.0`).
fn add_fixes(
    report: &mut Report,
    loaded: &Loaded,
    text: &str,
    config: &Config,
    opts: &BufferOptions,
    first_checked: usize,
    subjects: &[(usize, Subject)],
) -> Result<(), Failure> {
    let mut synth = synth_options(config, None, None, false);
    synth.budget = (!opts.budget.0.is_zero()).then_some(opts.budget.0);
    let results = synthesize_file(loaded, &synth, config, opts.strict, opts.budget)?;
    // The whole file's edits, as `fix` makes them.
    let mut inserts = Vec::new();
    let mut removes = Vec::new();
    for (ki, r) in results.iter().enumerate() {
        if let Some((Synthesis::Done { inserted, removed, .. }, _)) = r {
            let k = &loaded.kernels[ki];
            let style = SyncStyle::of(k, k.text(&loaded.source), loaded.is_cuda);
            inserts.extend(inserted.iter().map(|i| (ki, i.after, style.text(k, i.after, i.kind))));
            removes.extend(removed.iter().map(|l| (ki, *l)));
        }
    }
    let buffer_text = |p: crate::patch::Patched| {
        String::from_utf8(p.bytes)
            .map_err(|_| Failure::Usage(format!("{}: the fix is not UTF-8", loaded.name)))
    };
    let whole = patch_file(loaded, &inserts, &removes)?;
    let (n_inserted, n_removed) = (whole.inserted, whole.removed);
    let whole_text = buffer_text(whole)?;
    if whole_text == text {
        return Ok(());
    }
    report.file_fix = Some(FileFix { text: whole_text.clone(), inserted: n_inserted, removed: n_removed });
    for (finding, (ki, subject)) in report.findings[first_checked..].iter_mut().zip(subjects) {
        let Some((Synthesis::Done { inserted, moved, remaining, .. }, _)) = &results[*ki] else { continue };
        let k = &loaded.kernels[*ki];
        match subject {
            Subject::Race(a, b) => {
                let same = |x: Label, y: Label| (x, y) == (*a, *b) || (y, x) == (*a, *b);
                // A pair some case of which stays (split statement, no position) is not fixed by
                // its barriers alone: no action claims it is.
                let left = remaining.iter().any(|u| match u {
                    Unfixable::SelfRace { race }
                    | Unfixable::GridRace { race }
                    | Unfixable::InOneStatement { race }
                    | Unfixable::NoValidPosition { race, .. }
                    | Unfixable::CopyInFlight { race }
                    | Unfixable::Undecided { race } => same(race.first, race.second),
                    _ => false,
                });
                let own: Vec<_> =
                    inserted.iter().filter(|i| i.separates.iter().any(|(x, y)| same(*x, *y))).collect();
                if left || own.is_empty() {
                    continue;
                }
                let style = SyncStyle::of(k, k.text(&loaded.source), loaded.is_cuda);
                let mine: Vec<_> =
                    own.iter().map(|i| (*ki, i.after, style.text(k, i.after, i.kind))).collect();
                let title = barriers_title(loaded, &mine);
                let text = buffer_text(patch_file(loaded, &mine, &[])?)?;
                finding.fix = Some(FindingFix { text, title, whole_file: false });
            }
            Subject::Divergence(barrier) if moved.iter().any(|m| m.barrier == *barrier) => {
                let line = crate::diag::line_col(
                    k.text(&loaded.source),
                    super::report::stmt_span(k, *barrier).start,
                )
                .0;
                finding.fix = Some(FindingFix {
                    text: whole_text.clone(),
                    title: format!(
                        "autosync: fix the whole file (moves the barrier at line {line} out of thread-dependent code; {})",
                        counts(n_inserted, n_removed)
                    ),
                    whole_file: true,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

/// "insert `__syncthreads();` after line 12", or after several lines.
fn barriers_title(loaded: &Loaded, edits: &[(usize, Label, String)]) -> String {
    let mut lines: Vec<usize> =
        edits.iter().map(|(ki, l, _)| barrier_line(loaded, &loaded.kernels[*ki], *l)).collect();
    lines.sort_unstable();
    lines.dedup();
    let mut texts: Vec<&str> = edits.iter().map(|(_, _, t)| t.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    let what = match texts.as_slice() {
        [one] if edits.len() == 1 => format!("`{one}`"),
        [one] => format!("{} × `{one}`", edits.len()),
        _ => format!("{} barriers", edits.len()),
    };
    let at: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let s = if lines.len() == 1 { "" } else { "s" };
    format!("autosync: insert {what} after line{s} {} (fixes this race)", at.join(", "))
}

/// "inserts 2 barrier(s), removes 1".
fn counts(inserted: usize, removed: usize) -> String {
    format!("inserts {inserted} barrier(s), removes {removed}")
}

/// `d` with every span into the buffer moved `by` bytes later (a diagnostic located in a header
/// keeps its spans, and the `#include` it is shown at moves).
fn shifted(mut d: Diagnostic, by: usize) -> Diagnostic {
    if by == 0 {
        return d;
    }
    let move_span = |s: Span| Span::new(s.start.saturating_add(by), s.end.saturating_add(by));
    if let Some(f) = &d.file {
        let mut moved = (**f).clone();
        moved.include_span = move_span(moved.include_span);
        d.file = Some(std::sync::Arc::new(moved));
        return d;
    }
    d.span = d.span.map(move_span);
    for (s, _) in &mut d.secondary {
        *s = move_span(*s);
    }
    d
}
