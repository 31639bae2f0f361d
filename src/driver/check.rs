//! The `check` pipeline: verify every kernel of the given files and report races, divergent
//! barriers and out-of-bounds accesses.

use super::load::{load_partial, oracle_for, shape_notes};
use super::output::{diagnostic_json, status_word, FileResult, Out, Tally};
use super::report::{finding_json, label_map, report_verdict, verdict_findings};
use super::wording::Ctx;
use super::{Budget, Failure, Format, Plan, EXIT_BAD_INPUT, EXIT_FINDINGS};
use crate::config::Config;
use crate::verify::Oracle;
use serde_json::json;
use std::path::Path;

/// Options of the `check` pipeline.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Treat benign write-write races (same value) as errors.
    pub strict: bool,
    /// Add the verifier's work per kernel (SMT queries, cache hits, time) to the human output.
    pub stats: bool,
    /// Output format: the human text or the JSON object of the file is built, not both.
    pub format: Format,
    /// Each kernel's wall-time budget.
    pub budget: Budget,
    /// Name the KPL labels of each finding too (and say once what they are).
    pub explain: bool,
}

/// Checks one file of `plan`: every kernel through the oracle, under `opts.budget` each.
///
/// Guarantees: the result's `code` is 0 only when every kernel is proven free of races,
/// divergent barriers and out-of-bounds accesses of arrays of known size; a kernel whose budget ran out is reported with the questions it did not
/// decide as possible findings (code 1); a file that cannot be loaded is a failed result
/// (code 2), never a panic.
///
/// A kernel the front end refuses is reported (every unsupported construct it found) and the
/// file's other kernels are checked; the file's code is then 2. In a run over several files, a
/// file without kernels is a note (code 0).
pub fn check_file(path: &Path, plan: &Plan, opts: &CheckOptions, config: &Config) -> FileResult {
    let name = path.display().to_string();
    match check(path, plan, opts, config) {
        Ok(r) => r,
        Err(f) if plan.many && f.no_kernel().is_some() => {
            FileResult::skipped(&name, &f.no_kernel().unwrap_or_default())
        }
        Err(f) => FileResult::failed(&name, f),
    }
}

fn check(path: &Path, plan: &Plan, args: &CheckOptions, config: &Config) -> Result<FileResult, Failure> {
    let launch = plan.launch_for(path)?;
    let config = &launch.verifier_config(config);
    let loaded = load_partial(path, &launch, config)?;
    let mut human = Out::default();
    for d in &loaded.refused {
        human.err(d.render(&loaded.name, &loaded.source));
    }
    for w in &loaded.warnings {
        human.err(w.clone());
    }
    let mut tally = Tally {
        files: 1,
        kernels: loaded.kernels.len(),
        unsupported: usize::from(!loaded.refused.is_empty()),
        ..Tally::default()
    };
    let mut kernels = Vec::new();
    for k in &loaded.kernels {
        let mut oracle = oracle_for(k, config, args.strict, args.budget);
        let started = std::time::Instant::now();
        let verdict = oracle.check(k);
        if args.stats {
            let st = oracle.stats();
            human.err(format!(
                "{}: kernel `{}`: SMT queries {}, cache hits {}, solver work {} units, time {:.1} ms\n",
                loaded.name,
                k.name,
                st.smt_queries,
                st.cache_hits,
                st.solver_work,
                started.elapsed().as_secs_f64() * 1e3
            ));
        }
        // Ran out of budget: the undecided questions are among the findings, as possible ones.
        let budget_spent = verdict.undecided > 0 && oracle.out_of_budget();
        if budget_spent {
            let budget = if oracle.out_of_work() {
                format!("work budget ({} units)", config.verifier.kernel_work)
            } else {
                format!("{} wall-clock budget", args.budget.describe())
            };
            human.err(format!(
                "warning: {}: the verifier ran out of its {budget} on kernel `{}`; what it did not decide is reported as possible\n",
                loaded.name,
                k.name
            ));
        }
        tally.undecided += usize::from(verdict.undecided > 0);
        tally.races += verdict.races.len();
        tally.divergences += verdict.divergences.len();
        tally.out_of_bounds += verdict.out_of_bounds.len();
        tally.clean += usize::from(verdict.is_correct());
        let shape = shape_notes(k, config);
        let cx = Ctx { k, source: k.text(&loaded.source), explain: args.explain, fix: None };
        if args.format == Format::Human {
            report_verdict(&mut human, &loaded, &cx, &verdict);
            for n in &k.launch_facts {
                human.out(format!("  note: launch: {n}\n"));
            }
            for n in &shape {
                human.out(format!("  note: {n}\n"));
            }
        } else {
            let findings: Vec<_> = verdict_findings(&cx, &verdict)
                .iter()
                .map(|(rule, d)| finding_json(rule, d, &loaded.source))
                .collect();
            kernels.push(json!({
                "name": k.name,
                "clean": verdict.is_correct(),
                "findings": findings,
                "undecided": verdict.undecided,
                "budget_exhausted": budget_spent,
                "assumed_shape": shape,
                "launch_facts": k.launch_facts,
                "labels": label_map(k),
            }));
        }
    }
    let code = if !loaded.refused.is_empty() {
        EXIT_BAD_INPUT
    } else if tally.clean < tally.kernels {
        EXIT_FINDINGS
    } else {
        0
    };
    let mut doc =
        json!({"file": loaded.name, "status": status_word(code), "exit_code": code, "kernels": kernels});
    if let Some(first) = loaded.refused.first() {
        let refused: Vec<_> =
            loaded.refused.iter().map(|d| diagnostic_json(&loaded.name, &loaded.source, d)).collect();
        doc["error"] = diagnostic_json(&loaded.name, &loaded.source, first);
        doc["refused"] = json!(refused);
    }
    Ok(FileResult { code, human, doc, tally })
}
