//! The command line: one file per command, the options they share and the failure type here.
//!
//! `check.rs`, `fix.rs`, `run.rs`, `tree.rs` and `bench.rs` each hold one subcommand's options
//! (a clap `Args` struct) and its body; `load.rs` reads a kernel file through the front ends
//! with the launch options; `report.rs` turns verdicts into diagnostics. Exit codes are
//! decided here and nowhere else.

mod bench;
mod check;
mod compdb;
mod fix;
mod inputs;
mod load;
mod output;
mod report;
mod run;
mod sarif;
mod tree;

use autosync::config::Config;
use autosync::diag::Diagnostic;
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes are stable: 0 ok, 1 races/divergence remain or a change is needed, 2 bad input.
pub const EXIT_FINDINGS: u8 = 1;
/// Bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;

/// The whole command line.
#[derive(Parser)]
#[command(
    name = "autosync",
    version,
    about = "Finds the races and divergent barriers of GPU kernels and inserts the cheapest set of __syncthreads() that removes them, proven by an embedded verifier.",
    after_help = "Examples:\n  autosync check kernel.cu              report races and divergent barriers\n  autosync fix kernel.cu                insert the cheapest barriers, print the diff\n  autosync fix --diff kernel.cu         only print the diff\n  autosync fix --check kernel.cu        exit 1 if a barrier would be added (for CI)\n  autosync run kernel.kpl --block-dim 64   execute on concrete sizes and report races seen\n  autosync tree kernel.kpl              show labels, nesting and barrier costs\n\nExit codes: 0 ok, 1 races or divergence remain (or --check found a change), 2 bad input or usage.\nKernels: CUDA (.cu) or the core language KPL (.kpl, see docs/kpl.md)."
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
    /// (`--template-arg blockSize=256 --template-arg T=float`)
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
}

impl LaunchArgs {
    /// `config` with the verifier flags of the command line (`--all-dims`, `--wrap`) applied.
    pub fn verifier_config(&self, config: &Config) -> Config {
        let mut c = config.clone();
        c.verifier.all_dims |= self.all_dims;
        c.verifier.wrap |= self.wrap;
        c
    }

    /// The CUDA front end's options for the file at `path`.
    pub fn front_end(&self, path: &Path) -> Result<autosync::cuda::FrontEndOptions, Failure> {
        let mut template_args = Vec::new();
        for a in &self.template_arg {
            match a.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
                    template_args.push((n.trim().to_string(), v.trim().to_string()))
                }
                _ => return Err(Failure::Usage(format!("--template-arg `{a}`: expected NAME=VALUE"))),
            }
        }
        Ok(autosync::cuda::FrontEndOptions {
            path: Some(path.to_path_buf()),
            include_dirs: self.include_dirs.clone(),
            defines: self
                .defines
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.clone(), None),
                })
                .collect(),
            template_args,
            only: self.kernel.clone(),
            assumptions: self.assume.clone(),
        })
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

/// The output format of `check` and `fix`: `human` (diagnostics on stderr, summaries and diffs
/// on stdout), `json` (one document on stdout, docs/json.md) or `sarif` (SARIF 2.1.0 on stdout).
#[derive(Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Debug)]
pub enum Format {
    // Variants carry no doc comments: clap would turn them into long help.
    #[default]
    Human,
    Json,
    Sarif,
}

/// The inputs of `check` and `fix`: files and directories, the launch options, the compilation
/// database and the worker count.
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
}

/// Set by a run over several files in the environment of the worker process it starts for one
/// of them (see `output::run_files`): the worker analyses that file only and prints its result
/// for the parent. An environment variable rather than an option, so that it cannot be taken
/// for a path after a user's `--`.
pub const WORKER_ENV: &str = "AUTOSYNC_WORKER_FILE";

/// A run over files, resolved: the file list, how to report, where flags come from.
pub struct Plan {
    /// The files, in input order.
    pub files: Vec<PathBuf>,
    /// Output shape.
    pub shape: output::RunShape<'static>,
    launch: LaunchArgs,
    compdb: compdb::Source,
}

impl Files {
    /// Expands the paths and opens the compilation database.
    pub fn plan(&self, command: &'static str, format: Format) -> Result<Plan, Failure> {
        let worker = std::env::var_os(WORKER_ENV).map(PathBuf::from);
        let (files, any_dir) = match &worker {
            // The parent expanded the paths; a worker is always part of a run over several
            // files (which decides how CUDA-only options apply).
            Some(file) => (vec![file.clone()], true),
            None => inputs::expand(&self.paths)?,
        };
        if files.is_empty() {
            return Err(Failure::Usage(format!(
                "no kernel files (*.cu, *.cuh, *.kpl) under {}",
                self.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(Plan {
            shape: output::RunShape {
                command,
                format,
                jobs: self.jobs,
                summary: any_dir || files.len() > 1,
                worker: worker.is_some(),
            },
            files,
            launch: self.launch.clone(),
            compdb: compdb::Source::new(self.build_path.as_deref())?,
        })
    }
}

impl Plan {
    /// The launch options for `path`: the command line's, then its compilation-database entry's
    /// include directories and definitions (CUDA files only; a later `-D` wins).
    pub fn launch_for(&self, path: &Path) -> Result<LaunchArgs, Failure> {
        let mut launch = self.launch.clone();
        if !load::is_cuda_path(path) && self.shape.summary {
            // In a run over many files the CUDA-only options are meant for the CUDA ones.
            launch.include_dirs.clear();
            launch.defines.clear();
            launch.template_arg.clear();
        } else if load::is_cuda_path(path) {
            if let Some(flags) = self.compdb.flags(path)? {
                launch.include_dirs.extend(flags.include_dirs);
                let mut defines = flags.defines;
                defines.append(&mut launch.defines);
                launch.defines = defines;
            }
        }
        Ok(launch)
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
    /// Print a shell completion script (e.g. `autosync completions bash > /etc/bash_completion.d/autosync`).
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `autosync man | man -l -`).
    Man,
}

/// A failure that ends the command with a message.
pub enum Failure {
    /// Bad input: the diagnostic is rendered against the file.
    Input { file: String, source: String, diag: Box<Diagnostic> },
    /// Bad usage or an unreadable file.
    Usage(String),
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
            let error = output::error_json(None, &failure);
            match format {
                Format::Sarif => output::print_json(&sarif::log(command, &[], Some(&error))),
                _ => output::print_json(&output::document(command, Vec::new(), None, Some(error))),
            }
            report_failure(failure)
        }
        Err(failure) => report_failure(failure),
    }
}

/// Whether the raw arguments ask for machine output (`--format json|sarif` or `--format=…`).
fn wants_json(args: &[std::ffi::OsString]) -> bool {
    args.windows(2).any(|w| w[0] == "--format" && (w[1] == "json" || w[1] == "sarif"))
        || args.iter().any(|a| a == "--format=json" || a == "--format=sarif")
}

/// The one document of a run whose command line did not parse.
fn print_failure_document(args: &[std::ffi::OsString], failure: &Failure) {
    let command = if args.iter().any(|a| a == "fix") { "fix" } else { "check" };
    let error = output::error_json(None, failure);
    let sarif = args.windows(2).any(|w| w[0] == "--format" && w[1] == "sarif")
        || args.iter().any(|a| a == "--format=sarif");
    if sarif {
        output::print_json(&sarif::log(command, &[], Some(&error)));
    } else {
        output::print_json(&output::document(command, Vec::new(), None, Some(error)));
    }
}

/// Prints a failure on stderr; exit 2.
fn report_failure(failure: Failure) -> ExitCode {
    match failure {
        Failure::Input { file, source, diag } => {
            eprint!("{}", diag.render(&file, &source));
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Failure::Usage(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
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
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "autosync", &mut std::io::stdout());
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
            Command::Completions { .. } => "completions",
            Command::Man => "man",
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
