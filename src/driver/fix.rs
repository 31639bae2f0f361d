//! The `fix` pipeline: synthesize the cheapest barrier placement for a file's kernels, patch the
//! file atomically and print the diff.

use super::load::{load, oracle_for, shape_notes, Loaded};
use super::output::{status_word, FileResult, Out, Tally};
use super::report::{
    benign_diagnostic, finding_json, guard_span, guard_text, label_map, remaining_diagnostic, stmt_span,
    unfixable_diagnostic, verdict_findings,
};
use super::style::SyncStyle;
use super::wording::{Ctx, FixView};
use super::{Budget, Failure, Format, Plan, EXIT_FINDINGS};
use crate::config::{Config, Mode};
use crate::kpl::{self, Kernel, Place};
use crate::maxsat::Engine;
use crate::synth::{self, BarrierKind, SynthOptions, Synthesis, Unfixable};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// What `fix` does with the result, how it reports, and how it synthesizes.
#[derive(Clone, Debug, Default)]
pub struct FixOptions {
    /// Print the diff, write nothing.
    pub diff: bool,
    /// Write the result here instead of in place (one input file only).
    pub output: Option<PathBuf>,
    /// Write nothing; exit 1 if a barrier would be added (for CI).
    pub check: bool,
    /// List each inserted barrier with its cost and the races it separates.
    pub explain: bool,
    /// Report oracle calls, MaxSAT calls, iterations and times.
    pub stats: bool,
    /// Use the naive baseline (a barrier everywhere, then remove one at a time).
    pub naive: bool,
    /// Treat benign write-write races as errors.
    pub strict: bool,
    /// Output format of the report.
    pub format: Format,
    /// Each kernel's wall-time budget (verification and synthesis).
    pub budget: Budget,
    /// How the file is written ([`crate::patch::WriteOptions`]).
    pub write: crate::patch::WriteOptions,
}

/// The synthesis options of `fix`: the configuration's, overridden by `mode`, `engine` and
/// `reoptimize` when given. `fix` fixes what barriers can (`partial`), repairs divergent
/// barriers (unless the caller sets `keep_barriers`), places warp barriers where the
/// configuration's `synthesis.warp` allows and splits statements where `synthesis.split` does.
pub fn synth_options(
    config: &Config,
    mode: Option<Mode>,
    engine: Option<Engine>,
    reoptimize: bool,
) -> SynthOptions {
    SynthOptions {
        mode: mode.unwrap_or(config.synthesis.mode),
        engine: engine.unwrap_or(config.synthesis.solver),
        reoptimize: reoptimize || config.synthesis.reoptimize,
        max_iterations: config.synthesis.max_iterations,
        cost: config.cost_model(),
        budget: None,
        partial: true,
        keep_barriers: config.synthesis.keep_barriers,
        warp: config.synthesis.warp,
        robust_guards: true,
        split: config.synthesis.split,
    }
}

/// Fixes one file of `plan`: synthesizes the cheapest barrier placement for its kernels (kernels
/// sharing source text together), patches the file once and writes it atomically (unless
/// `diff`/`check`).
///
/// Guarantees: the result's `code` is 0 only when the written (or diffed) file is correctly
/// synchronized as far as the oracle can tell. Otherwise (code 1) the file gets every barrier
/// that removes a block-level race or divergence, and the findings it keeps are listed by kind
/// (between blocks, within one statement, undecided, ...): exactly what `check` reports on the
/// written file, except for a kernel whose budget ran out, which is left as it is. A file that
/// cannot be loaded or written is a failed result (code 2), and what it reported before failing
/// stays, in order.
pub fn fix_file(
    path: &Path,
    plan: &Plan,
    flags: &FixOptions,
    opts: &SynthOptions,
    config: &Config,
) -> FileResult {
    let name = path.display().to_string();
    let mut fixing = Fixing::default();
    let result = plan.launch_for(path).and_then(|launch| {
        let config = launch.verifier_config(config);
        let loaded = load(path, &launch, &config)?;
        fixing.name = loaded.name.clone();
        fixing.source = loaded.source.clone();
        for w in &loaded.warnings {
            fixing.human.err(w.clone());
        }
        fix(&loaded, opts, &config, flags, &mut fixing)
    });
    match result {
        Ok(code) => fixing.finish(code),
        Err(f) if plan.many && f.no_kernel().is_some() => {
            FileResult::skipped(&name, &f.no_kernel().unwrap_or_default())
        }
        // What the file printed before failing (diagnostics, --explain) stays, in order.
        Err(f) => {
            let mut failed = FileResult::failed(&name, f);
            let mut human = std::mem::take(&mut fixing.human);
            human.append(failed.human);
            failed.human = human;
            failed
        }
    }
}

/// What fixing one file produced so far.
#[derive(Default)]
struct Fixing {
    name: String,
    source: String,
    human: Out,
    kernels: Vec<Value>,
    tally: Tally,
    /// The fixed file, when synthesis succeeded.
    fixed: Option<Fixed>,
    /// Where it was written.
    written: Option<PathBuf>,
}

/// A file's fixed text, its unified diff against the source, and the barrier statements written
/// and deleted, each counted once in the file (kernels sharing source text each ask for them).
struct Fixed {
    text: String,
    diff: String,
    inserted: usize,
    removed: usize,
}

impl Fixing {
    fn finish(self, code: u8) -> FileResult {
        let changed = self.fixed.as_ref().is_some_and(|f| f.text != self.source);
        let (diff, edits, inserted, removed) = match self.fixed {
            Some(f) => {
                let edits = edits_json(&self.source, &f.text);
                (f.diff, edits, f.inserted, f.removed)
            }
            None => (String::new(), Vec::new(), 0, 0),
        };
        let doc = json!({
            "file": self.name,
            "status": status_word(code),
            "exit_code": code,
            "kernels": self.kernels,
            "changed": changed,
            "written": self.written.map(|p| p.display().to_string()),
            "diff": diff,
            "edits": edits,
            "barriers_inserted": inserted,
            "barriers_removed": removed,
        });
        FileResult { code, human: self.human, doc, tally: self.tally }
    }
}

/// The changes from `old` to `new` as byte-range replacements of `old` (line granularity), in
/// order: what SARIF `fixes` and the JSON `edits` carry.
fn edits_json(old: &str, new: &str) -> Vec<Value> {
    use similar::{DiffOp, TextDiff};
    let diff = TextDiff::from_lines(old, new);
    let starts = |s: &str| -> Vec<usize> {
        let mut v = vec![0];
        v.extend(s.match_indices('\n').map(|(i, _)| i + 1));
        v
    };
    let (os, ns) = (starts(old), starts(new));
    let at = |v: &[usize], line: usize, len: usize| v.get(line).copied().unwrap_or(len);
    let mut edits = Vec::new();
    for op in diff.ops() {
        let (o, olen, n, nlen) = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, new_index } => (old_index, old_len, new_index, 0),
            DiffOp::Insert { old_index, new_index, new_len } => (old_index, 0, new_index, new_len),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index, old_len, new_index, new_len)
            }
        };
        let (ob, oe) = (at(&os, o, old.len()), at(&os, o + olen, old.len()));
        let (nb, ne) = (at(&ns, n, new.len()), at(&ns, n + nlen, new.len()));
        edits.push(json!({
            "offset": ob,
            "length": oe - ob,
            "line": o + 1,
            "text": new.get(nb..ne).unwrap_or_default(),
        }));
    }
    edits
}

/// Per kernel, what `fix` does to the file and what it leaves.
#[derive(Default)]
struct FixPlan {
    /// (kernel, label, statement text): a barrier after the label.
    inserts: Vec<(usize, kpl::Label, String)>,
    /// (kernel, barrier statement) to delete.
    removes: Vec<(usize, kpl::Label)>,
    /// What the written file still has, per kernel: the finding's kind, rule and diagnostic.
    leftover: Vec<(usize, &'static str, &'static str, crate::diag::Diagnostic)>,
    /// One line per repaired divergent barrier.
    moved: Vec<String>,
}

fn fix(
    loaded: &Loaded,
    opts: &SynthOptions,
    config: &Config,
    flags: &FixOptions,
    f: &mut Fixing,
) -> Result<u8, Failure> {
    let mut plan = FixPlan::default();
    f.tally = Tally { files: 1, kernels: loaded.kernels.len(), ..Tally::default() };
    let groups = sharing_groups(&loaded.kernels);
    let mut results: Vec<Option<(Synthesis, synth::SynthStats)>> = vec![None; loaded.kernels.len()];
    if !flags.naive {
        results = synthesize_file(loaded, opts, config, flags.strict, flags.budget)?;
    } else if let Some(g) = groups.iter().find(|g| g.len() > 1) {
        let names: Vec<&str> = g.iter().map(|i| loaded.kernels[*i].name.as_str()).collect();
        return Err(Failure::Usage(format!(
            "{}: --naive handles one kernel at a time, but kernels {} share source text (a template or a device function)",
            loaded.name,
            names.join(", ")
        )));
    }
    for (ki, k) in loaded.kernels.iter().enumerate() {
        let style = SyncStyle::of(k, k.text(&loaded.source), loaded.is_cuda);
        let cx = Ctx {
            k,
            source: k.text(&loaded.source),
            explain: flags.explain,
            fix: Some(FixView { no_warp: !opts.warp, keep_barriers: opts.keep_barriers }),
        };
        if k.file.is_some() {
            leave_header_kernel(&cx, config, flags, f, &mut plan, ki);
            continue;
        }
        if flags.naive {
            fix_naive(loaded, config, flags, f, &mut plan, ki, &style);
            continue;
        }
        let Some((result, st)) = results[ki].take() else { continue };
        if flags.stats {
            f.human.err(format!(
                "{}: kernel `{}`: oracle calls {}, MaxSAT calls {}, iterations {}, SMT queries {}, oracle {:.1} ms, MaxSAT {:.1} ms, total {:.1} ms\n",
                loaded.name, k.name, st.oracle_calls, st.maxsat_calls, st.iterations, st.smt_queries,
                st.oracle_time.as_secs_f64() * 1e3, st.maxsat_time.as_secs_f64() * 1e3, st.total_time.as_secs_f64() * 1e3
            ));
        }
        match result {
            Synthesis::Done { inserted, removed, moved, cost, warnings, remaining, .. } => {
                let out = &mut f.human;
                let mut findings = Vec::new();
                for r in &warnings.benign {
                    let d = benign_diagnostic(&cx, r);
                    out.err(d.render(&loaded.name, &loaded.source));
                    findings.push(finding_json("benign-race", &d, &loaded.source));
                }
                let separates = |ins: &synth::Inserted| -> Vec<(String, String)> {
                    ins.separates
                        .iter()
                        .map(|(a, b)| (k.label_name(*a).to_string(), k.label_name(*b).to_string()))
                        .collect()
                };
                if flags.explain {
                    if !out.explained_labels {
                        out.explained_labels = true;
                        out.err(format!("{}\n", super::wording::LABELS_EXPLAINED));
                    }
                    for ins in &inserted {
                        let races: Vec<String> =
                            separates(ins).iter().map(|(a, b)| format!("{a}–{b}")).collect();
                        out.err(format!(
                            "  {} after `{}` (line {}): cost {}, separates {}\n",
                            style.text(k, ins.after, ins.kind).trim_end_matches(';'),
                            k.label_name(ins.after),
                            barrier_line(loaded, k, ins.after),
                            ins.cost,
                            if races.is_empty() { "-".to_string() } else { races.join(", ") }
                        ));
                    }
                    for r in removed.iter().filter(|r| !moved.iter().any(|m| m.barrier == **r)) {
                        out.err(format!("  redundant original barrier `{}` removed\n", k.label_name(*r)));
                    }
                    out.err(format!("  total cost {cost}\n"));
                }
                let inserted_json: Vec<Value> = inserted
                    .iter()
                    .map(|ins| json!({"after": k.label_name(ins.after), "line": barrier_line(loaded, k, ins.after), "kind": ins.kind, "text": style.text(k, ins.after, ins.kind), "cost": ins.cost.to_string(), "separates": separates(ins)}))
                    .collect();
                let removed_json: Vec<String> =
                    removed.iter().map(|r| k.label_name(*r).to_string()).collect();
                let mut moved_json = Vec::new();
                for m in &moved {
                    let line = crate::diag::line_col(k.text(&loaded.source), stmt_span(k, m.barrier).start).0;
                    let sentence =
                        moved_sentence(loaded, k, m, line, !inserted.is_empty(), remaining.is_empty());
                    moved_json.push(json!({"line": line, "guard": guard_text(k, k.text(&loaded.source), m.guard), "message": sentence}));
                    plan.moved.push(format!("{}: {sentence}\n", loaded.name));
                }
                let mut remaining_json = Vec::new();
                for u in &remaining {
                    let (rule, d) = remaining_diagnostic(&cx, u);
                    let kind = remaining_kind(u);
                    let mut j = finding_json(rule, &d, &loaded.source);
                    j["kind"] = json!(kind);
                    remaining_json.push(j);
                    count_finding(&mut f.tally, rule);
                    plan.leftover.push((ki, kind, rule, d));
                }
                let result = if remaining.is_empty() { "fixed" } else { "partly_fixed" };
                f.kernels.push(json!({"name": k.name, "result": result, "inserted": inserted_json, "removed": removed_json, "moved": moved_json, "cost": cost.to_string(), "findings": findings, "remaining": remaining_json, "assumed_shape": shape_notes(k, config), "launch_facts": k.launch_facts, "labels": label_map(k)}));
                f.tally.clean += usize::from(remaining.is_empty());
                plan.inserts.extend(inserted.iter().map(|i| (ki, i.after, style.text(k, i.after, i.kind))));
                plan.removes.extend(removed.iter().map(|r| (ki, *r)));
            }
            Synthesis::Impossible { reasons } => {
                // No placement (paper mode, or a group whose constraints conflict): the kernel
                // stays as it is, and what it keeps is what `check` reports on it.
                if reasons.is_empty() {
                    f.human.err(format!(
                        "note: {}: kernel `{}`: no placement exists for the kernels that share its source text; left as it is\n",
                        loaded.name, k.name
                    ));
                }
                let mut oracle = oracle_for(k, config, flags.strict, flags.budget);
                let verdict = crate::verify::Oracle::check(&mut oracle, k);
                let mut remaining_json = Vec::new();
                for (rule, d) in
                    verdict_findings(&cx, &verdict).into_iter().filter(|(r, _)| *r != "benign-race")
                {
                    let kind = rule_kind(rule, &d);
                    let mut j = finding_json(rule, &d, &loaded.source);
                    j["kind"] = json!(kind);
                    remaining_json.push(j);
                    count_finding(&mut f.tally, rule);
                    plan.leftover.push((ki, kind, rule, d));
                }
                let findings: Vec<Value> = reasons
                    .iter()
                    .map(|u| {
                        let (rule, d) = unfixable_diagnostic(&cx, u);
                        finding_json(rule, &d, &loaded.source)
                    })
                    .collect();
                f.tally.clean += usize::from(verdict.is_correct());
                f.kernels.push(json!({"name": k.name, "result": "impossible", "inserted": [], "removed": [], "moved": [], "cost": null, "findings": findings, "remaining": remaining_json, "labels": label_map(k)}));
            }
            Synthesis::GaveUp { iterations } => {
                let budget_spent = !flags.budget.0.is_zero() && st.total_time >= flags.budget.0;
                let why = if budget_spent {
                    format!(
                        "the verifier ran out of its {} wall-clock budget on kernel `{}` (after {iterations} refinement iterations)",
                        flags.budget.describe(),
                        k.name
                    )
                } else {
                    format!(
                        "synthesis gave up on kernel `{}` after {iterations} refinement iterations",
                        k.name
                    )
                };
                f.tally.undecided += 1;
                let d = k.locate(crate::diag::Diagnostic::error(
                    format!("{why}; the kernel is left as it is"),
                    k.body.span,
                ));
                let mut j = finding_json("undecided", &d, &loaded.source);
                j["kind"] = json!("undecided");
                plan.leftover.push((ki, "undecided", "undecided", d));
                f.kernels.push(json!({"name": k.name, "result": "gave_up", "budget_exhausted": budget_spent, "inserted": [], "removed": [], "moved": [], "cost": null, "findings": [], "remaining": [j], "labels": label_map(k)}));
            }
        }
    }
    write_plan(loaded, config, flags, f, plan)
}

/// The synthesis of every kernel of `loaded`, in kernel order: kernels sharing source text
/// ([`sharing_groups`]) solved as one problem, each member under its own launch and `budget`.
/// Every entry is `Some` on success but a kernel written in an included header's (`None`: `fix`
/// edits the file it is given only); the one definition of what `fix` (and an editor's fix,
/// [`super::buffer`]) synthesizes.
pub(super) fn synthesize_file(
    loaded: &Loaded,
    opts: &SynthOptions,
    config: &Config,
    strict: bool,
    budget: Budget,
) -> Result<Vec<Option<(Synthesis, synth::SynthStats)>>, Failure> {
    let mut results: Vec<Option<(Synthesis, synth::SynthStats)>> = vec![None; loaded.kernels.len()];
    for group in &sharing_groups(&loaded.kernels) {
        // A kernel written in an included header is not edited (`leave_header_kernel`); its
        // places are not placeable, so it shares none with another kernel.
        if group.iter().any(|i| loaded.kernels[*i].file.is_some()) {
            continue;
        }
        let members: Vec<Kernel> = group.iter().map(|i| loaded.kernels[*i].clone()).collect();
        // Each member under its own launch: kernels sharing a device function may be
        // launched with different geometry.
        let mut oracles: Vec<_> = members.iter().map(|k| oracle_for(k, config, strict, budget)).collect();
        let mut refs: Vec<&mut dyn crate::verify::Oracle> =
            oracles.iter_mut().map(|o| o as &mut dyn crate::verify::Oracle).collect();
        let (res, st) = synth::synthesize_group(&members, &mut refs, opts)
            .map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
        for (i, r) in group.iter().zip(res) {
            results[*i] = Some((r, st));
        }
    }
    Ok(results)
}

/// One patch of `loaded`'s text: `inserts` (kernel index, label, statement text) and `removes`
/// (kernel index, barrier label), identical edits of kernels sharing source text made once.
pub(super) fn patch_file(
    loaded: &Loaded,
    inserts: &[(usize, kpl::Label, String)],
    removes: &[(usize, kpl::Label)],
) -> Result<crate::patch::Patched, Failure> {
    type Edits = (Vec<(kpl::Label, String)>, Vec<kpl::Label>);
    let per_kernel: Vec<Edits> = (0..loaded.kernels.len())
        .map(|ki| {
            let after =
                inserts.iter().filter(|(i, _, _)| *i == ki).map(|(_, l, t)| (*l, t.clone())).collect();
            let remove = removes.iter().filter(|(i, _)| *i == ki).map(|(_, l)| *l).collect();
            (after, remove)
        })
        .collect();
    let parts: Vec<crate::patch::KernelEdits> = loaded
        .kernels
        .iter()
        .zip(&per_kernel)
        .map(|(kernel, (after, remove))| crate::patch::KernelEdits { kernel, after, remove })
        .collect();
    crate::patch::apply_input(&loaded.input, &parts).map_err(|e| Failure::Usage(e.to_string()))
}

/// `fix --naive` on kernel `ki`: the baseline's placement, or the kernel left as it is.
fn fix_naive(
    loaded: &Loaded,
    config: &Config,
    flags: &FixOptions,
    f: &mut Fixing,
    plan: &mut FixPlan,
    ki: usize,
    style: &SyncStyle,
) {
    let k = &loaded.kernels[ki];
    let opts = SynthOptions { cost: config.cost_model(), ..SynthOptions::default() };
    let mut oracle = oracle_for(k, config, flags.strict, flags.budget);
    let (res, st) = synth::naive(k, &mut oracle, &opts);
    match res {
        Some((_, chosen, cost)) => {
            if flags.stats {
                f.human.err(format!(
                    "{}: kernel `{}` (naive): {} barrier(s), cost {cost}, oracle calls {}, time {:.1} ms\n",
                    loaded.name,
                    k.name,
                    chosen.len(),
                    st.oracle_calls,
                    st.total_time.as_secs_f64() * 1e3
                ));
            }
            let inserted: Vec<Value> = chosen
                .iter()
                .map(|l| json!({"after": k.label_name(*l), "line": barrier_line(loaded, k, *l), "kind": BarrierKind::Block, "text": style.text(k, *l, BarrierKind::Block), "cost": null, "separates": []}))
                .collect();
            // The baseline separates races only: out-of-bounds accesses (barriers change none of
            // them, so the input's verdict has them) stay, listed as with the other modes.
            let cx = Ctx { k, source: k.text(&loaded.source), explain: flags.explain, fix: None };
            let mut remaining = Vec::new();
            for access in crate::verify::Oracle::check(&mut oracle, k).out_of_bounds {
                let (rule, d) = unfixable_diagnostic(&cx, &Unfixable::OutOfBounds { access });
                let mut j = finding_json(rule, &d, &loaded.source);
                j["kind"] = json!("out of bounds");
                remaining.push(j);
                count_finding(&mut f.tally, rule);
                plan.leftover.push((ki, "out of bounds", rule, d));
            }
            let result = if remaining.is_empty() { "fixed" } else { "partly_fixed" };
            f.tally.clean += usize::from(remaining.is_empty());
            f.kernels.push(json!({"name": k.name, "result": result, "inserted": inserted, "removed": [], "moved": [], "cost": cost.to_string(), "findings": [], "remaining": remaining, "labels": label_map(k)}));
            plan.inserts.extend(chosen.into_iter().map(|l| (ki, l, style.text(k, l, BarrierKind::Block))));
        }
        None => {
            let d = k.locate(crate::diag::Diagnostic::error(
                format!("kernel `{}` left as it is: the naive baseline found no placement", k.name),
                k.body.span,
            ));
            let mut j = finding_json("data-race", &d, &loaded.source);
            j["kind"] = json!("no placement");
            f.tally.races += 1;
            plan.leftover.push((ki, "no placement", "data-race", d));
            f.kernels.push(json!({"name": k.name, "result": "impossible", "inserted": [], "removed": [], "moved": [], "cost": null, "findings": [], "remaining": [j], "labels": label_map(k)}));
        }
    }
}

/// The kind of the findings of a kernel written in an included header, as the summary counts it.
const IN_HEADER: &str = "in an included header";

/// A kernel written in a header the file includes: `fix` edits the file it is given, never a
/// header (other files include it, and its write would not be one atomic change with the
/// file's), so the kernel is checked and what `check` reports on it is listed as remaining,
/// each finding located in the header and saying so.
fn leave_header_kernel(
    cx: &Ctx,
    config: &Config,
    flags: &FixOptions,
    f: &mut Fixing,
    plan: &mut FixPlan,
    ki: usize,
) {
    let k = cx.k;
    let header = k.file.as_ref().map_or_else(String::new, |h| h.name.clone());
    let mut oracle = oracle_for(k, config, flags.strict, flags.budget);
    let verdict = crate::verify::Oracle::check(&mut oracle, k);
    let mut remaining_json = Vec::new();
    for (rule, d) in verdict_findings(cx, &verdict).into_iter().filter(|(r, _)| *r != "benign-race") {
        let d = d.with_note(format!(
            "left as it is: `fix` edits only the file it is given, not the headers it includes; fix this in `{header}` itself"
        ));
        let mut j = finding_json(rule, &d, cx.source);
        j["kind"] = json!(IN_HEADER);
        remaining_json.push(j);
        count_finding(&mut f.tally, rule);
        plan.leftover.push((ki, IN_HEADER, rule, d));
    }
    f.tally.clean += usize::from(verdict.is_correct());
    f.kernels.push(json!({"name": k.name, "result": "not_edited", "file": header, "inserted": [], "removed": [], "moved": [], "cost": null, "findings": [], "remaining": remaining_json, "assumed_shape": shape_notes(k, config), "launch_facts": k.launch_facts, "labels": label_map(k)}));
}

/// Counts a finding the written file keeps in the tally.
fn count_finding(tally: &mut Tally, rule: &str) {
    if rule.ends_with("divergence") {
        tally.divergences += 1;
    } else if rule == super::report::OUT_OF_BOUNDS_RULE {
        tally.out_of_bounds += 1;
    } else {
        tally.races += 1;
    }
}

/// Patches the file with `plan`, prints the diff and what remains, and writes it (unless
/// `--diff`/`--check`). Exit 1 while anything remains (or, under `--check`, a change is due).
fn write_plan(
    loaded: &Loaded,
    config: &Config,
    flags: &FixOptions,
    f: &mut Fixing,
    plan: FixPlan,
) -> Result<u8, Failure> {
    // One patch of the file for all kernels; kernels sharing source text ask for the same edits.
    let patched = patch_file(loaded, &plan.inserts, &plan.removes)?;
    let text = patched.text.clone();
    let changed = text != loaded.source;
    let diff = crate::patch::unified_diff(&loaded.source, &text, &loaded.name);
    f.fixed = Some(Fixed {
        text: text.clone(),
        diff: diff.clone(),
        inserted: patched.inserted,
        removed: patched.removed,
    });
    let out = &mut f.human;
    out.out(diff);
    for k in &loaded.kernels {
        for n in &k.launch_facts {
            out.err(format!("note: kernel `{}`: launch: {n}\n", k.name));
        }
        for n in shape_notes(k, config) {
            out.err(format!("note: kernel `{}`: {n}\n", k.name));
        }
    }
    for m in &plan.moved {
        out.err(m.clone());
    }
    for (_, _, _, d) in &plan.leftover {
        out.err(d.render(&loaded.name, &loaded.source));
    }
    let left = if plan.leftover.is_empty() { 0 } else { EXIT_FINDINGS };
    let summary = remaining_summary(&plan.leftover);
    if flags.check {
        if changed {
            out.err(format!("{}: barriers are missing (run `autosync fix {}`)\n", loaded.name, loaded.name));
        }
        if let Some(s) = &summary {
            out.err(format!("{}: {s}\n", loaded.name));
        }
        return Ok(if changed { EXIT_FINDINGS } else { left });
    }
    if flags.diff {
        if let Some(s) = &summary {
            out.err(format!("{}: {s}\n", loaded.name));
        }
        return Ok(left);
    }
    let target = flags.output.clone().unwrap_or_else(|| loaded.path.clone());
    if changed || flags.output.is_some() {
        crate::patch::write_fixed(
            &loaded.path,
            flags.output.as_deref(),
            &loaded.input,
            &patched.bytes,
            &flags.write,
        )
        .map_err(|e| Failure::Usage(e.to_string()))?;
        f.written = Some(target.clone());
    }
    if changed {
        // Counted in the file: kernels sharing source text each ask for the same statement.
        out.err(format!(
            "{}: inserted {} barrier(s){}, wrote {}\n",
            loaded.name,
            patched.inserted,
            if patched.removed == 0 { String::new() } else { format!(", removed {}", patched.removed) },
            target.display()
        ));
    } else if plan.leftover.is_empty() {
        out.err(format!("{}: already correctly synchronized; nothing to change\n", loaded.name));
    }
    if let Some(s) = summary {
        out.err(format!("{}: {s}\n", loaded.name));
    }
    Ok(left)
}

/// "3 finding(s) remain that no barrier fixes (listed above): 2 between blocks, 1 undecided",
/// or `None` when nothing remains.
fn remaining_summary(
    leftover: &[(usize, &'static str, &'static str, crate::diag::Diagnostic)],
) -> Option<String> {
    if leftover.is_empty() {
        return None;
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for (_, kind, _, _) in leftover.iter().filter(|l| l.1 != IN_HEADER) {
        match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let mut parts = Vec::new();
    if !kinds.is_empty() {
        let by_kind: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let n: usize = kinds.iter().map(|(_, n)| n).sum();
        parts.push(format!(
            "{n} finding(s) remain that barriers cannot fix or the solver could not decide (listed above): {}",
            by_kind.join(", ")
        ));
    }
    let in_headers = leftover.iter().filter(|l| l.1 == IN_HEADER).count();
    if in_headers > 0 {
        parts.push(format!(
            "{in_headers} finding(s) of kernels written in included headers remain (listed above): `fix` edits only this file, not the headers it includes"
        ));
    }
    Some(parts.join("; "))
}

/// The kind of a finding `fix` leaves, as the summary counts it.
fn remaining_kind(u: &Unfixable) -> &'static str {
    match u {
        Unfixable::GridRace { .. } => "between blocks",
        Unfixable::SelfRace { .. } | Unfixable::InOneStatement { .. } => "within one statement",
        Unfixable::Undecided { .. } => "undecided",
        Unfixable::NoValidPosition { .. } => "with no position every thread reaches",
        Unfixable::CopyInFlight { .. } => "needing a wait",
        Unfixable::DivergentBarrier { .. } => "divergent barrier kept",
        Unfixable::OutOfBounds { .. } => "out of bounds",
    }
}

/// The kind of a finding of a kernel left as it is, from its rule.
fn rule_kind(rule: &str, d: &crate::diag::Diagnostic) -> &'static str {
    match rule {
        "grid-race" => "between blocks",
        super::report::COPY_IN_FLIGHT_RULE => "needing a wait",
        super::report::OUT_OF_BOUNDS_RULE => "out of bounds",
        r if r.ends_with("divergence") => "divergent barrier kept",
        // Undecided by the solver, or wrap-only; a race whose indices need arbitrary values is a
        // race all the same for the placement.
        _ if d.notes.iter().any(|n| n.starts_with("reported as possible"))
            || d.message.contains("only if the index arithmetic wraps") =>
        {
            "undecided"
        }
        _ => "no placement",
    }
}

/// The sentence for a repaired divergent barrier: "moved the barrier at line 47 out of
/// `if (tid < s)`: not all threads reach it".
fn moved_sentence(
    loaded: &Loaded,
    k: &Kernel,
    m: &synth::Moved,
    line: usize,
    replaced: bool,
    nothing_left: bool,
) -> String {
    let guard = guard_text(k, k.text(&loaded.source), m.guard);
    let guard_line = crate::diag::line_col(k.text(&loaded.source), guard_span(k, m.guard).start).0;
    let region = if k.flag_guards.contains(&m.guard) {
        format!("the code after `{guard}` (line {guard_line})")
    } else {
        format!("`{guard}`")
    };
    if replaced {
        format!("moved the barrier at line {line} out of {region}: not all threads reach it")
    } else if nothing_left {
        format!("removed the barrier at line {line} inside {region}: not all threads reach it, and no race needs it")
    } else {
        format!(
            "removed the barrier at line {line} inside {region}: not all threads reach it (what it may have been meant to order is listed below)"
        )
    }
}

/// The source line a barrier after label `l` follows.
pub(super) fn barrier_line(loaded: &Loaded, k: &Kernel, l: kpl::Label) -> usize {
    let at = match k.place(l) {
        Place::Line { offset, .. } => *offset,
        Place::Braced { body_end, .. } => *body_end,
        Place::Split { start, .. } => *start,
        Place::Not(_) => stmt_span(k, l).end,
    };
    crate::diag::line_col(k.text(&loaded.source), at.saturating_sub(1)).0
}

/// The kernels of a file grouped by shared barrier positions: two kernels are in one group when
/// some source position can take a barrier in both (template instantiations, kernels inlining one
/// device function). Groups and their members are in file order.
fn sharing_groups(kernels: &[Kernel]) -> Vec<Vec<usize>> {
    let mut owner: std::collections::HashMap<&Place, usize> = std::collections::HashMap::new();
    let mut parent: Vec<usize> = (0..kernels.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (ki, k) in kernels.iter().enumerate() {
        for p in k.places.iter().filter(|p| p.is_placeable()) {
            let other = *owner.entry(p).or_insert(ki);
            let (a, b) = (root(&mut parent, other), root(&mut parent, ki));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for ki in 0..kernels.len() {
        let r = root(&mut parent, ki);
        let gi = *index_of.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[gi].push(ki);
    }
    groups
}
