//! The `fix` pipeline: synthesize the cheapest barrier placement for a file's kernels, patch the
//! file atomically and print the diff.

use super::load::{load, oracle_for, shape_notes, Loaded};
use super::output::{status_word, FileResult, Out, Tally};
use super::report::{
    benign_diagnostic, finding_json, label_map, remaining_diagnostic, stmt_span, unfixable_diagnostic,
};
use super::{Budget, Failure, Format, Plan, EXIT_FINDINGS};
use crate::config::{Config, Mode};
use crate::kpl::{self, Kernel, Place};
use crate::maxsat::Engine;
use crate::synth::{self, SynthOptions, Synthesis, Unfixable};
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

/// The synthesis options of a run: the configuration's, overridden by `mode`, `engine` and
/// `reoptimize` when given.
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
        ..SynthOptions::default()
    }
}

/// Fixes one file of `plan`: synthesizes the cheapest barrier placement for its kernels (kernels
/// sharing source text together), patches the file once and writes it atomically (unless
/// `diff`/`check`).
///
/// Guarantees: the result's `code` is 0 only when the written (or diffed) file is correctly
/// synchronized as far as the oracle can tell; a kernel for which no placement exists, or whose
/// budget ran out, leaves the whole file unwritten (code 1); a file that cannot be loaded or
/// written is a failed result (code 2), and what it reported before failing stays, in order.
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
    /// The fixed text and its unified diff against the source, when synthesis succeeded.
    fixed: Option<(String, String)>,
    /// Where it was written.
    written: Option<PathBuf>,
}

impl Fixing {
    fn finish(self, code: u8) -> FileResult {
        let changed = self.fixed.as_ref().is_some_and(|(t, _)| *t != self.source);
        let (diff, edits) = match self.fixed {
            Some((text, diff)) => {
                let edits = edits_json(&self.source, &text);
                (diff, edits)
            }
            None => (String::new(), Vec::new()),
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

fn fix(
    loaded: &Loaded,
    opts: &SynthOptions,
    config: &Config,
    flags: &FixOptions,
    f: &mut Fixing,
) -> Result<u8, Failure> {
    let barrier_text = if loaded.is_cuda { "__syncthreads();" } else { "barrier;" };
    let mut inserts: Vec<(usize, kpl::Label)> = Vec::new();
    let mut removes: Vec<(usize, kpl::Label)> = Vec::new();
    let mut impossible = false;
    // What the written placement leaves: grid-level races and undecided pairs, per kernel.
    let mut leftover: Vec<(usize, Unfixable)> = Vec::new();
    f.tally = Tally { files: 1, kernels: loaded.kernels.len(), ..Tally::default() };
    let groups = sharing_groups(&loaded.kernels);
    let mut results: Vec<Option<(Synthesis, synth::SynthStats)>> = vec![None; loaded.kernels.len()];
    if !flags.naive {
        for group in &groups {
            let members: Vec<Kernel> = group.iter().map(|i| loaded.kernels[*i].clone()).collect();
            // Each member under its own launch: kernels sharing a device function may be
            // launched with different geometry.
            let mut oracles: Vec<_> =
                members.iter().map(|k| oracle_for(k, config, flags.strict, flags.budget)).collect();
            let mut refs: Vec<&mut dyn crate::verify::Oracle> =
                oracles.iter_mut().map(|o| o as &mut dyn crate::verify::Oracle).collect();
            let (res, st) = synth::synthesize_group(&members, &mut refs, opts)
                .map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
            for (i, r) in group.iter().zip(res) {
                results[*i] = Some((r, st));
            }
        }
    } else if let Some(g) = groups.iter().find(|g| g.len() > 1) {
        let names: Vec<&str> = g.iter().map(|i| loaded.kernels[*i].name.as_str()).collect();
        return Err(Failure::Usage(format!(
            "{}: --naive handles one kernel at a time, but kernels {} share source text (a template or a device function)",
            loaded.name,
            names.join(", ")
        )));
    }
    let out = &mut f.human;
    for (ki, k) in loaded.kernels.iter().enumerate() {
        if flags.naive {
            let mut oracle = oracle_for(k, config, flags.strict, flags.budget);
            let (res, st) = synth::naive(k, &mut oracle, opts);
            match res {
                Some((_, chosen, cost)) => {
                    if flags.stats {
                        out.err(format!("{}: kernel `{}` (naive): {} barrier(s), cost {cost}, oracle calls {}, time {:.1} ms\n", loaded.name, k.name, chosen.len(), st.oracle_calls, st.total_time.as_secs_f64() * 1e3));
                    }
                    let inserted: Vec<Value> = chosen
                        .iter()
                        .map(|l| json!({"after": k.label_name(*l), "line": barrier_line(loaded, k, *l), "cost": null, "separates": []}))
                        .collect();
                    f.kernels.push(json!({"name": k.name, "result": "fixed", "inserted": inserted, "removed": [], "cost": cost.to_string(), "findings": [], "labels": label_map(k)}));
                    f.tally.clean += 1;
                    inserts.extend(chosen.into_iter().map(|l| (ki, l)));
                }
                None => {
                    impossible = true;
                    f.kernels.push(json!({"name": k.name, "result": "impossible", "inserted": [], "removed": [], "cost": null, "findings": [], "labels": label_map(k)}));
                }
            }
            continue;
        }
        let Some((result, st)) = results[ki].take() else { continue };
        if flags.stats {
            out.err(format!(
                "{}: kernel `{}`: oracle calls {}, MaxSAT calls {}, iterations {}, SMT queries {}, oracle {:.1} ms, MaxSAT {:.1} ms, total {:.1} ms\n",
                loaded.name, k.name, st.oracle_calls, st.maxsat_calls, st.iterations, st.smt_queries,
                st.oracle_time.as_secs_f64() * 1e3, st.maxsat_time.as_secs_f64() * 1e3, st.total_time.as_secs_f64() * 1e3
            ));
        }
        match result {
            Synthesis::Done { inserted, removed, cost, warnings, remaining, .. } => {
                leftover.extend(remaining.iter().map(|u| (ki, u.clone())));
                let remaining_json: Vec<Value> = remaining
                    .iter()
                    .map(|u| {
                        let (rule, d) = remaining_diagnostic(k, u);
                        finding_json(rule, &d, &loaded.source)
                    })
                    .collect();
                let mut findings = Vec::new();
                for r in &warnings.benign {
                    let d = benign_diagnostic(k, r);
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
                    for ins in &inserted {
                        let races: Vec<String> =
                            separates(ins).iter().map(|(a, b)| format!("{a}–{b}")).collect();
                        out.err(format!(
                            "  barrier after `{}` (line {}): cost {}, separates {}\n",
                            k.label_name(ins.after),
                            barrier_line(loaded, k, ins.after),
                            ins.cost,
                            if races.is_empty() { "-".to_string() } else { races.join(", ") }
                        ));
                    }
                    for r in &removed {
                        out.err(format!("  redundant original barrier `{}` removed\n", k.label_name(*r)));
                    }
                    out.err(format!("  total cost {cost}\n"));
                }
                let inserted_json: Vec<Value> = inserted
                    .iter()
                    .map(|ins| json!({"after": k.label_name(ins.after), "line": barrier_line(loaded, k, ins.after), "cost": ins.cost.to_string(), "separates": separates(ins)}))
                    .collect();
                let removed_json: Vec<String> =
                    removed.iter().map(|r| k.label_name(*r).to_string()).collect();
                let result = if remaining.is_empty() { "fixed" } else { "partly_fixed" };
                f.kernels.push(json!({"name": k.name, "result": result, "inserted": inserted_json, "removed": removed_json, "cost": cost.to_string(), "findings": findings, "remaining": remaining_json, "assumed_shape": shape_notes(k, config), "launch_facts": k.launch_facts, "labels": label_map(k)}));
                f.tally.clean += usize::from(remaining.is_empty());
                f.tally.races += remaining.len();
                inserts.extend(inserted.iter().map(|i| (ki, i.after)));
                removes.extend(removed.iter().map(|r| (ki, *r)));
            }
            Synthesis::Impossible { reasons } => {
                impossible = true;
                if reasons.is_empty() {
                    out.err(format!(
                        "error: {}: kernel `{}`: no placement exists for the kernels that share its source text\n",
                        loaded.name, k.name
                    ));
                }
                let mut findings = Vec::new();
                for u in &reasons {
                    let (rule, d) = unfixable_diagnostic(k, u);
                    out.err(d.render(&loaded.name, &loaded.source));
                    if rule.ends_with("divergence") {
                        f.tally.divergences += 1;
                    } else {
                        f.tally.races += 1;
                    }
                    findings.push(finding_json(rule, &d, &loaded.source));
                }
                f.kernels.push(json!({"name": k.name, "result": "impossible", "inserted": [], "removed": [], "cost": null, "findings": findings, "labels": label_map(k)}));
            }
            Synthesis::GaveUp { iterations } => {
                impossible = true;
                let budget_spent = !flags.budget.0.is_zero() && st.total_time >= flags.budget.0;
                if budget_spent {
                    f.tally.undecided += 1;
                    out.err(format!(
                        "error: {}: the verifier ran out of its {} budget on kernel `{}` (after {iterations} refinement iterations)\n",
                        loaded.name,
                        flags.budget.describe(),
                        k.name
                    ));
                } else {
                    out.err(format!(
                        "error: {}: kernel `{}`: gave up after {iterations} refinement iterations\n",
                        loaded.name, k.name
                    ));
                }
                f.kernels.push(json!({"name": k.name, "result": "gave_up", "budget_exhausted": budget_spent, "inserted": [], "removed": [], "cost": null, "findings": [], "labels": label_map(k)}));
            }
        }
    }
    if impossible {
        out.err(format!(
            "error: {}: no barrier placement makes this file correctly synchronized; nothing written\n",
            loaded.name
        ));
        return Ok(EXIT_FINDINGS);
    }
    // One patch of the file for all kernels; kernels sharing source text ask for the same edits.
    let per_kernel: Vec<(Vec<kpl::Label>, Vec<kpl::Label>)> = (0..loaded.kernels.len())
        .map(|ki| {
            let pick =
                |v: &[(usize, kpl::Label)]| v.iter().filter(|(i, _)| *i == ki).map(|(_, l)| *l).collect();
            (pick(&inserts), pick(&removes))
        })
        .collect();
    let parts: Vec<crate::patch::KernelEdits> = loaded
        .kernels
        .iter()
        .zip(&per_kernel)
        .map(|(kernel, (after, remove))| crate::patch::KernelEdits { kernel, after, remove })
        .collect();
    let patched = crate::patch::apply_input(&loaded.input, &parts, barrier_text)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let text = patched.text.clone();
    let changed = text != loaded.source;
    let diff = crate::patch::unified_diff(&loaded.source, &text, &loaded.name);
    f.fixed = Some((text.clone(), diff.clone()));
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
    for (ki, u) in &leftover {
        let (_, d) = remaining_diagnostic(&loaded.kernels[*ki], u);
        out.err(d.render(&loaded.name, &loaded.source));
    }
    let left = if leftover.is_empty() { 0 } else { EXIT_FINDINGS };
    if flags.check {
        if changed {
            out.err(format!("{}: barriers are missing (run `autosync fix {}`)\n", loaded.name, loaded.name));
        }
        return Ok(if changed { EXIT_FINDINGS } else { left });
    }
    if flags.diff {
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
    let n = inserts.len();
    if changed {
        out.err(format!(
            "{}: inserted {n} barrier(s){}, wrote {}\n",
            loaded.name,
            if removes.is_empty() { String::new() } else { format!(", removed {}", removes.len()) },
            target.display()
        ));
    } else if leftover.is_empty() {
        out.err(format!("{}: already correctly synchronized; nothing to change\n", loaded.name));
    }
    if !leftover.is_empty() {
        out.err(format!(
            "{}: {} finding(s) remain that barriers cannot fix or the solver could not decide (listed above)\n",
            loaded.name,
            leftover.len()
        ));
    }
    Ok(left)
}

/// The source line a barrier after label `l` follows.
fn barrier_line(loaded: &Loaded, k: &Kernel, l: kpl::Label) -> usize {
    let at = match k.place(l) {
        Place::Line { offset, .. } => *offset,
        Place::Braced { body_end, .. } => *body_end,
        Place::Not(_) => stmt_span(k, l).end,
    };
    crate::diag::line_col(&loaded.source, at.saturating_sub(1)).0
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
