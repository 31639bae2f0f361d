//! `autosync fix`: the options of the `fix` pipeline (`autosync::driver::fix`).

use super::{files, Failure, Files, FormatArg};
use autosync::config::{Config, Mode};
use autosync::driver::fix::{fix_file, synth_options, FixOptions};
use autosync::driver::Format;
use autosync::maxsat::Engine;
use autosync::patch::WriteOptions;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Options of `autosync fix`.
#[derive(Args)]
pub struct FixArgs {
    #[command(flatten)]
    files: Files,
    #[command(flatten)]
    flags: FixFlags,
}

impl FixArgs {
    /// The output format asked for.
    pub fn format(&self) -> Format {
        self.flags.format.into()
    }
}

/// `--mode`: the command line's names of [`Mode`].
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum, Debug)]
enum ModeArg {
    /// The oracle's witnesses and the up-front uniformity analysis become exact constraints.
    Informed,
    /// The oracle as a black box returning race locations only, as in the AutoSync paper.
    Paper,
}

/// `--solver`: the command line's names of [`Engine`].
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum, Debug)]
enum SolverArg {
    /// rustsat + minisat, solution-improving search.
    Minisat,
    /// z3's Optimize (νZ), the paper's solver.
    Z3,
}

/// What `fix` does with the result, how it reports, and how it synthesizes.
#[derive(Args)]
struct FixFlags {
    /// Print the diff, write nothing
    #[arg(long)]
    diff: bool,
    /// Write the result here instead of in place (one input file only)
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Write nothing; exit 1 if a barrier would be added (for CI)
    #[arg(long)]
    check: bool,
    /// List each inserted barrier with its cost and the races it separates
    #[arg(long)]
    explain: bool,
    /// Print oracle calls, MaxSAT calls, iterations and times
    #[arg(long)]
    stats: bool,
    /// Make the kernel's own barriers removable and drop the redundant ones
    #[arg(long)]
    reoptimize: bool,
    /// Leave the kernel's divergent barriers where they are (by default a barrier not every
    /// thread reaches is moved out of the thread-dependent code)
    #[arg(long)]
    keep_barriers: bool,
    /// Place only __syncthreads(), never __syncwarp()
    #[arg(long)]
    no_warp: bool,
    /// Never split a statement that races inside itself (`a[i] += a[j];` into a read into a
    /// local, a barrier and the write); such races are then listed as remaining
    #[arg(long)]
    no_split: bool,
    /// Synthesis mode (default from the config: informed)
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// MaxSAT engine (default from the config: minisat)
    #[arg(long, value_enum)]
    solver: Option<SolverArg>,
    /// Use the naive baseline (a barrier everywhere, then remove one at a time)
    #[arg(long)]
    naive: bool,
    /// Treat benign write-write races as errors
    #[arg(long)]
    strict: bool,
    /// Output format of the report (jsonl: one JSON object per file as it finishes, then a
    /// summary object)
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Write a read-only file anyway (its mode stays read-only)
    #[arg(long)]
    force: bool,
    /// For tests: wait this many milliseconds between writing the temporary file and the final
    /// check and rename (so a test can edit the input or send a signal inside that window)
    #[arg(long, value_name = "MS", hide = true)]
    test_pause_before_rename: Option<u64>,
}

/// Fixes the files, each on its own (one failing file never stops the others); the exit code is
/// the worst of the files' (1: findings remain that no barrier fixes — the file still gets the
/// barriers that fix the rest —, a kernel ran out of its budget, or `--check` finds a change;
/// 2: a file could not be analysed or written).
pub fn run(args: FixArgs, config: &Config) -> Result<u8, Failure> {
    let FixArgs { files: inputs, flags } = args;
    let plan = Arc::new(inputs.plan()?);
    if flags.output.is_some() && plan.files.len() != 1 {
        return Err(Failure::Usage(
            "`-o` takes one input file; without it each file is fixed in place".into(),
        ));
    }
    let budget = inputs.budget(config);
    let mode = flags.mode.map(|m| match m {
        ModeArg::Informed => Mode::Informed,
        ModeArg::Paper => Mode::Paper,
    });
    let engine = flags.solver.map(|s| match s {
        SolverArg::Minisat => Engine::Minisat,
        SolverArg::Z3 => Engine::Z3,
    });
    let mut synth = synth_options(config, mode, engine, flags.reoptimize);
    synth.keep_barriers |= flags.keep_barriers;
    synth.warp &= !flags.no_warp;
    synth.split &= !flags.no_split;
    synth.budget = (!budget.0.is_zero()).then_some(budget.0);
    let format: Format = flags.format.into();
    let opts = FixOptions {
        diff: flags.diff,
        output: flags.output,
        check: flags.check,
        explain: flags.explain,
        stats: flags.stats,
        naive: flags.naive,
        strict: flags.strict,
        format,
        budget,
        write: WriteOptions {
            force: flags.force,
            pause_before_rename: flags.test_pause_before_rename.map(std::time::Duration::from_millis),
        },
    };
    let config = config.clone();
    let in_work = plan.clone();
    let work = Arc::new(move |path: &Path| fix_file(path, &in_work, &opts, &synth, &config));
    files::run(&plan, "fix", format, inputs.jobs, work)
}
