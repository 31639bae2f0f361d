//! `autosync check`: verify every kernel of a file and report its races and divergent barriers.

use super::load::{load, oracle_for};
use super::report::{label_map, report_verdict};
use super::{Failure, Format, LaunchArgs, EXIT_FINDINGS};
use autosync::config::Config;
use autosync::verify::Oracle;
use clap::Args;
use std::path::PathBuf;

/// Options of `autosync check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The kernel file (.cu or .kpl)
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
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

/// Checks the file; exit 1 when a kernel has a race or divergent barrier.
pub fn run(args: CheckArgs, config: &Config) -> Result<u8, Failure> {
    let CheckArgs { file, launch, strict, stats, format } = args;
    let loaded = load(&file, &launch, config)?;
    let mut findings = false;
    let mut json = Vec::new();
    for k in &loaded.kernels {
        let mut oracle = oracle_for(k, config, strict);
        let started = std::time::Instant::now();
        let verdict = oracle.check(k);
        if stats {
            let st = oracle.stats();
            eprintln!(
                "{}: kernel `{}`: SMT queries {}, cache hits {}, time {:.1} ms",
                loaded.name,
                k.name,
                st.smt_queries,
                st.cache_hits,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        findings |= !verdict.is_clean();
        match format {
            Format::Json => {
                json.push(serde_json::json!({"kernel": k.name, "verdict": verdict, "labels": label_map(k)}))
            }
            Format::Human => report_verdict(&loaded, k, &verdict),
        }
    }
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
    }
    Ok(if findings { EXIT_FINDINGS } else { 0 })
}
