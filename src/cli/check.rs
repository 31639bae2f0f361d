//! `autosync check`: verify every kernel of the given files and report races and divergent
//! barriers.

use super::load::{load, oracle_for};
use super::output::{run_files, status_word, FileResult, Out, Tally};
use super::report::{finding_json, label_map, report_verdict, verdict_findings};
use super::{Failure, Files, Format, EXIT_FINDINGS};
use autosync::config::Config;
use autosync::verify::Oracle;
use clap::Args;
use serde_json::json;
use std::path::Path;

/// Options of `autosync check`.
#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    files: Files,
    /// Treat benign write-write races (same value) as errors
    #[arg(long)]
    strict: bool,
    /// Print the verifier's work per kernel on stderr (SMT queries, cache hits, time)
    #[arg(long)]
    stats: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

impl CheckArgs {
    /// The output format asked for.
    pub fn format(&self) -> Format {
        self.format
    }
}

/// Checks the files; the exit code is the worst of the files' (1: a race or divergent barrier,
/// 2: a file could not be analysed).
pub fn run(args: CheckArgs, config: &Config) -> Result<u8, Failure> {
    let plan = args.files.plan("check", args.format)?;
    run_files(&plan.files, &plan.shape, |path| {
        let name = path.display().to_string();
        check_file(path, &plan, &args, config).unwrap_or_else(|f| FileResult::failed(&name, f))
    })
}

fn check_file(
    path: &Path,
    plan: &super::Plan,
    args: &CheckArgs,
    config: &Config,
) -> Result<FileResult, Failure> {
    let launch = plan.launch_for(path)?;
    let loaded = load(path, &launch, config)?;
    let mut human = Out::default();
    let mut tally = Tally { files: 1, kernels: loaded.kernels.len(), ..Tally::default() };
    let mut kernels = Vec::new();
    for k in &loaded.kernels {
        let mut oracle = oracle_for(k, config, args.strict);
        let started = std::time::Instant::now();
        let verdict = oracle.check(k);
        if args.stats {
            let st = oracle.stats();
            human.err(format!(
                "{}: kernel `{}`: SMT queries {}, cache hits {}, time {:.1} ms\n",
                loaded.name,
                k.name,
                st.smt_queries,
                st.cache_hits,
                started.elapsed().as_secs_f64() * 1e3
            ));
        }
        tally.races += verdict.races.len();
        tally.divergences += verdict.divergences.len();
        tally.clean += usize::from(verdict.is_clean());
        if args.format == Format::Human {
            report_verdict(&mut human, &loaded, k, &verdict);
        } else {
            let findings: Vec<_> = verdict_findings(k, &verdict)
                .iter()
                .map(|(rule, d)| finding_json(rule, d, &loaded.source))
                .collect();
            kernels.push(json!({
                "name": k.name,
                "clean": verdict.is_clean(),
                "findings": findings,
                "undecided": verdict.undecided,
                "labels": label_map(k),
            }));
        }
    }
    let code = if tally.clean < tally.kernels { EXIT_FINDINGS } else { 0 };
    let doc =
        json!({"file": loaded.name, "status": status_word(code), "exit_code": code, "kernels": kernels});
    Ok(FileResult { code, human, doc, tally })
}
