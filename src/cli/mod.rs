//! The command line: one file per command, the options they share and the failure type here.
//!
//! `check.rs`, `fix.rs`, `run.rs`, `tree.rs` and `bench.rs` each hold one subcommand's options
//! (a clap `Args` struct) and its body; `load.rs` reads a kernel file through the front ends
//! with the launch options; `report.rs` turns verdicts into diagnostics. Exit codes are
//! decided here and nowhere else.

mod bench;
mod check;
mod fix;
mod load;
mod report;
mod run;
mod tree;

use autosync::config::Config;
use autosync::diag::Diagnostic;
use clap::{Args, Parser, Subcommand};
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
    /// Legacy lock-step warps of this size (GPUVerify's --warp-sync)
    #[arg(long, value_name = "N")]
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
}

impl LaunchArgs {
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

/// The output format of `check` and `fix`: `human` (diagnostics on stderr, summaries and diffs
/// on stdout) or `json` (one document on stdout).
#[derive(Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Debug)]
pub enum Format {
    // Variants carry no doc comments: clap would turn them into long help.
    #[default]
    Human,
    Json,
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
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure::Input { file, source, diag }) => {
            eprint!("{}", diag.render(&file, &source));
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Err(Failure::Usage(msg)) => {
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
    }
}
