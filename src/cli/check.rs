//! `autosync check`: the options of the `check` pipeline (`autosync::driver::check`).

use super::{files, Failure, Files, FormatArg};
use autosync::config::Config;
use autosync::driver::check::{check_file, CheckOptions};
use autosync::driver::Format;
use clap::Args;
use std::path::Path;
use std::sync::Arc;

/// Options of `autosync check`.
#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    files: Files,
    /// Treat benign write-write races (same value) as errors
    #[arg(long)]
    strict: bool,
    /// Also name the KPL labels of each finding (the statements the verifier sees)
    #[arg(long)]
    explain: bool,
    /// Print the verifier's work per kernel on stderr (SMT queries, cache hits, time)
    #[arg(long)]
    stats: bool,
    /// Output format (jsonl: one JSON object per file as it finishes, then a summary object)
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
}

impl CheckArgs {
    /// The output format asked for.
    pub fn format(&self) -> Format {
        self.format.into()
    }
}

/// Checks the files; the exit code is the worst of the files' (1: a race or divergent barrier,
/// or a kernel not decided within its budget; 2: a file could not be analysed).
pub fn run(args: CheckArgs, config: &Config) -> Result<u8, Failure> {
    let plan = Arc::new(args.files.plan()?);
    let opts = CheckOptions {
        strict: args.strict,
        stats: args.stats,
        format: args.format(),
        budget: args.files.budget(config),
        explain: args.explain,
    };
    let config = config.clone();
    let in_work = plan.clone();
    let work = Arc::new(move |path: &Path| check_file(path, &in_work, &opts, &config));
    files::run(&plan, "check", args.format(), args.files.jobs, work)
}
