//! The command line: flags parsed into the library's option types, and printing. The pipeline
//! itself (loading, `check`, `fix`, runs over many files) is `autosync::driver`.
//!
//! `check.rs`, `fix.rs`, `lsp.rs`, `run.rs`, `tree.rs` and `bench.rs` each hold one subcommand's options
//! (a clap `Args` struct) and hand them to the driver; `files.rs` prints a run over files as it
//! goes (human text, JSON Lines, or one JSON/SARIF document at the end), draws the progress bar,
//! handles Ctrl-C and runs each file of a run over several in a worker process of its own.
//! Exit codes are decided by the driver and here, nowhere else.

mod bench;
mod check;
mod files;
mod fix;
mod lsp;
mod run;
mod tree;

use autosync::config::Config;
use autosync::driver::{self, Format, LaunchOptions};
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

pub use autosync::driver::{Failure, EXIT_BAD_INPUT, EXIT_FINDINGS};

/// The whole command line.
#[derive(Parser)]
#[command(
    name = "autosync",
    version,
    about = "Finds the races and divergent barriers of GPU kernels and inserts the cheapest set of __syncthreads() that removes them, proven by an embedded verifier.",
    after_help = "Examples:\n  autosync check kernel.cu              report races and divergent barriers\n  autosync fix kernel.cu                insert the cheapest barriers, print the diff\n  autosync fix --diff kernel.cu         only print the diff\n  autosync fix --check kernel.cu        exit 1 if a barrier would be added (for CI)\n  autosync run kernel.kpl --block-dim 64   execute on concrete sizes and report races seen\n  autosync tree kernel.kpl              show labels, nesting and barrier costs\n  autosync lsp                          language server for editors (see `autosync lsp --help`)\n\nExit codes: 0 ok, 1 races or divergence remain (or --check found a change), 2 bad input or usage.\nKernels: CUDA (.cu) or the core language KPL (.kpl, see docs/kpl.md)."
)]
pub struct Cli {
    /// Configuration file (default: the built-in config/default.yaml)
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// Launch geometry and front-end options shared by every command that loads a kernel.
#[derive(Args, Clone, Default)]
pub struct LaunchArgs {
    /// Threads per block: `256` or `16,16` (default: the file's `//--blockDim=` header, else symbolic)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub block_dim: Option<String>,
    /// Blocks per grid: `64` or `4,4` (default: the header, else symbolic)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub grid_dim: Option<String>,
    /// Legacy lock-step warps of this size (GPUVerify's --warp-sync; a power of two, at least 2)
    #[arg(long, value_name = "N", value_parser = parse_warp_sync)]
    pub warp_sync: Option<u32>,
    /// Only this kernel of a CUDA file
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Search this directory for `#include "…"` files (after the including file's directory;
    /// repeatable, in order)
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Define a macro for the CUDA preprocessor: `-D NAME` (as 1) or `-D NAME=VALUE` (repeatable)
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// A template parameter's value for template kernels the file does not instantiate
    /// (`--template-arg blockSize=256 --template-arg T=float`; a type may be a vector or struct:
    /// `T=float4`)
    #[arg(long = "template-arg", value_name = "NAME=VALUE")]
    pub template_arg: Vec<String>,
    /// Assume a precondition of every kernel, like GPUVerify's `__requires`: a CUDA expression
    /// over the kernel's parameters, e.g. `--assume 'n % 256 == 0'` (repeatable)
    #[arg(long = "assume", value_name = "EXPR")]
    pub assume: Vec<String>,
    /// Check every dimension of a symbolic launch (by default a y/z dimension the kernel never
    /// reads is assumed to be 1)
    #[arg(long)]
    pub all_dims: bool,
    /// Also check executions whose index arithmetic wraps around 2^32 (by default it is assumed
    /// not to, nor atomic counters to pass 2^32; races that need a wrap are then reported as such)
    #[arg(long)]
    pub wrap: bool,
    /// The default (index arithmetic does not wrap); accepted for compatibility
    #[arg(long, conflicts_with = "wrap")]
    pub no_wrap: bool,
    /// Take nothing from the file's host code: by default each kernel's launches in the file
    /// (every one of them agreeing) give its block and grid dimensions and the values of scalar
    /// parameters; reports list each fact used
    #[arg(long)]
    pub no_launch_facts: bool,
}

impl LaunchArgs {
    /// The library's launch options.
    pub fn options(&self) -> LaunchOptions {
        LaunchOptions {
            block_dim: self.block_dim.clone(),
            grid_dim: self.grid_dim.clone(),
            warp_sync: self.warp_sync,
            kernel: self.kernel.clone(),
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            template_arg: self.template_arg.clone(),
            assume: self.assume.clone(),
            all_dims: self.all_dims,
            wrap: self.wrap,
            no_launch_facts: self.no_launch_facts,
        }
    }
}

/// `--warp-sync N`: lanes of a lock-step warp. Warps split a block's threads evenly only for
/// powers of two, and one lane is no warp.
fn parse_warp_sync(s: &str) -> Result<u32, String> {
    let n: u32 = s.trim().parse().map_err(|_| format!("`{s}` is not a number"))?;
    if n >= 2 && n.is_power_of_two() {
        Ok(n)
    } else {
        Err(format!("{n} is not a warp size: expected a power of two, at least 2 (e.g. 32)"))
    }
}

/// `--format`: the command line's names of [`Format`].
#[derive(Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Debug)]
pub enum FormatArg {
    // Variants carry no doc comments: clap would turn them into long help.
    #[default]
    Human,
    Json,
    Jsonl,
    Sarif,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Sarif => Format::Sarif,
        }
    }
}

/// The inputs of `check` and `fix`: files and directories, the launch options, the compilation
/// database, the worker count and the budget per kernel.
#[derive(Args)]
pub struct Files {
    /// Kernel files (.cu, .cuh or .kpl) and directories (searched recursively for those,
    /// honouring .gitignore)
    #[arg(value_name = "PATHS", required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    launch: LaunchArgs,
    /// Directory holding compile_commands.json (or the file itself); without it, the nearest
    /// compile_commands.json above each file is used. Its -I, -isystem and -D flags apply
    #[arg(short = 'p', long = "build-path", value_name = "DIR")]
    build_path: Option<PathBuf>,
    /// Files processed in parallel (default: one per core)
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// Wall time per kernel in seconds (default: the config's verifier.kernel_timeout_s, 60): a
    /// safety net above the kernel's solver-work budget (verifier.kernel_work), which decides
    /// verdicts the same way on any load; past it, what is not decided is reported as undecided
    /// (exit 1). 0: no limit
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<f64>,
}

/// `--timeout SECONDS`: a non-negative number (fractions allowed).
pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1e7).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a number of seconds (e.g. 10 or 0.5)")),
    }
}

/// Set by a run over several files in the environment of the worker process it starts for one
/// of them (see `files::in_worker`): the worker analyses that file only and prints its result
/// for the parent. An environment variable rather than an option, so that it cannot be taken
/// for a path after a user's `--`.
pub const WORKER_ENV: &str = "AUTOSYNC_WORKER_FILE";

impl Files {
    /// The library's plan of the run: the paths expanded, the compilation database opened; in a
    /// worker process, the one file its parent gave it.
    pub fn plan(&self) -> Result<driver::Plan, Failure> {
        match files::worker_file() {
            Some(file) => driver::Plan::one_of_many(file, self.launch.options(), self.build_path.as_deref()),
            None => driver::Plan::new(&self.paths, self.launch.options(), self.build_path.as_deref()),
        }
    }

    /// Each kernel's budget: `--timeout`, else the configuration's.
    pub fn budget(&self, config: &Config) -> driver::Budget {
        let secs = self.timeout.unwrap_or(config.verifier.kernel_timeout_s);
        driver::Budget(std::time::Duration::from_secs_f64(secs))
    }
}

#[derive(Subcommand)]
enum Command {
    /// Verify a kernel: report every possible data race and divergent barrier.
    Check(check::CheckArgs),
    /// Insert the cheapest barriers that make the kernel race- and divergence-free, write the
    /// file (atomically) and print the diff.
    Fix(fix::FixArgs),
    /// Execute a kernel on concrete sizes with the reference interpreter and report the races
    /// and divergent barriers it observes (a dynamic check; exit 1 when it finds one).
    Run(run::RunArgs),
    /// Run the benchmark suite: strip each kernel's barriers, synthesize with the naive
    /// baseline, paper mode and informed mode, verify every result, compare with the hand
    /// placement; print the table and write latest.md, latest.csv and latest.svg.
    Bench(bench::BenchArgs),
    /// Print the label tree of a kernel: labels, nesting, placeability and the cost of a
    /// barrier after each label.
    Tree(tree::TreeArgs),
    /// Run the language server on stdin/stdout, for editors: `check`'s findings as diagnostics
    /// while you type, `fix`'s barriers as quick fixes (`--help` says how an editor starts it).
    Lsp(lsp::LspArgs),
    /// Print a shell completion script (e.g. `autosync completions bash > /etc/bash_completion.d/autosync`).
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `autosync man | man -l -`).
    Man,
    /// Print the effective configuration as YAML: the built-in defaults with the keys of
    /// `--config FILE` applied (`autosync config > my.yaml` is a complete file to edit).
    Config,
}

/// Parses the command line, runs the command and maps the outcome to the process exit code.
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = wants_json(&args);
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            // A usage error still answers a `--format json|sarif` caller with one document.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            let failure = Failure::Usage(first.trim_start_matches("error: ").to_string());
            print_failure_document(&args, &failure);
            eprint!("{e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(e) => e.exit(),
    };
    let command = cli.command.name();
    let format = cli.command.format();
    match dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(failure) if format != Format::Human => {
            let error = driver::output::error_json(None, &failure);
            match format {
                Format::Sarif => files::print_json(&driver::sarif::log(command, &[], Some(&error), false)),
                _ => files::print_json(&driver::output::document(
                    command,
                    Vec::new(),
                    None,
                    Some(error),
                    false,
                )),
            }
            report_failure(failure)
        }
        Err(failure) => report_failure(failure),
    }
}

/// Whether the raw arguments ask for machine output (`--format json|jsonl|sarif` or `--format=…`).
fn wants_json(args: &[std::ffi::OsString]) -> bool {
    let machine = |v: &std::ffi::OsStr| v == "json" || v == "jsonl" || v == "sarif";
    args.windows(2).any(|w| w[0] == "--format" && machine(&w[1]))
        || args.iter().any(|a| a == "--format=json" || a == "--format=jsonl" || a == "--format=sarif")
}

/// The one document of a run whose command line did not parse.
fn print_failure_document(args: &[std::ffi::OsString], failure: &Failure) {
    let command = if args.iter().any(|a| a == "fix") { "fix" } else { "check" };
    let error = driver::output::error_json(None, failure);
    let sarif = args.windows(2).any(|w| w[0] == "--format" && w[1] == "sarif")
        || args.iter().any(|a| a == "--format=sarif");
    if sarif {
        files::print_json(&driver::sarif::log(command, &[], Some(&error), false));
    } else {
        files::print_json(&driver::output::document(command, Vec::new(), None, Some(error), false));
    }
}

/// Prints a failure on stderr; exit 2.
fn report_failure(failure: Failure) -> ExitCode {
    match failure.reported() {
        Failure::Input { file, source, diag } => {
            eprint!("{}", diag.render(&file, &source));
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Failure::Usage(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
        // `reported` unwraps it.
        Failure::NoKernel(_) => ExitCode::from(EXIT_BAD_INPUT),
    }
}

fn dispatch(cli: Cli) -> Result<u8, Failure> {
    let config = match &cli.config {
        Some(path) => Config::load(path).map_err(|e| Failure::Usage(e.to_string()))?,
        None => Config::default_config(),
    };
    match cli.command {
        Command::Tree(args) => tree::run(args, &config),
        Command::Check(args) => check::run(args, &config),
        Command::Fix(args) => fix::run(args, &config),
        Command::Bench(args) => bench::run(args, config),
        Command::Run(args) => run::run(args, &config),
        Command::Lsp(args) => lsp::run(args, &config),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "autosync", &mut std::io::stdout());
            Ok(0)
        }
        Command::Config => {
            let from = match &cli.config {
                Some(p) => format!("the built-in defaults with {} applied", p.display()),
                None => "the built-in defaults".to_string(),
            };
            print!("# autosync configuration: {from}\n{}", config.to_yaml());
            Ok(0)
        }
        Command::Man => {
            clap_mangen::Man::new(Cli::command())
                .render(&mut std::io::stdout())
                .map_err(|e| Failure::Usage(format!("cannot write the manual page: {e}")))?;
            Ok(0)
        }
    }
}

impl Command {
    /// The command's name in a JSON document.
    fn name(&self) -> &'static str {
        match self {
            Command::Check(_) => "check",
            Command::Fix(_) => "fix",
            Command::Run(_) => "run",
            Command::Bench(_) => "bench",
            Command::Tree(_) => "tree",
            Command::Lsp(_) => "lsp",
            Command::Completions { .. } => "completions",
            Command::Man => "man",
            Command::Config => "config",
        }
    }
    /// The output format the command was asked for.
    fn format(&self) -> Format {
        match self {
            Command::Check(a) => a.format(),
            Command::Fix(a) => a.format(),
            _ => Format::Human,
        }
    }
}
