//! The driver: the whole pipeline for one file and for many, as library API. The command line
//! (`src/cli/`) only parses flags into the option types here and prints what comes back.
//!
//! - [`load`]: reading a file ([`crate::source::read`]), the front end for its kind (CUDA for
//!   `.cu`/`.cuh`, KPL otherwise) and the launch geometry, with the precedence *command line over
//!   the file's header over the configuration*.
//! - [`check`]: the per-file pipeline of `check` (the oracle per kernel, its verdicts as
//!   diagnostics and JSON).
//! - [`fix`]: the per-file pipeline of `fix` (kernels sharing source text synthesized together,
//!   one patch of the file, the atomic write).
//! - [`output`]: a run over many files: a pool of worker threads, results handed back in input
//!   order as soon as all earlier files are done, the run's counts, and cancellation.
//! - [`report`] / [`sarif`]: verdicts and synthesis results as diagnostics, the JSON document
//!   (docs/json.md) and SARIF 2.1.0.
//! - [`inputs`] / [`compdb`]: which files a run covers, and the `-I`/`-D` flags a compilation
//!   database contributes per file.
//! - [`buffer`]: a text held in memory (an editor's buffer) checked and fixed like a file,
//!   without reading or writing it on disk.
//!
//! Guarantees of the driver: bad input is a [`Failure`] (located when it is in the file), never
//! a panic or a process exit; every kernel is verified under a wall-time [`Budget`], past which
//! its remaining questions are reported as undecided (exit code 1), so a run over many files
//! always ends; and no file's failure stops the others.

pub mod buffer;
pub mod check;
pub mod compdb;
pub mod fix;
pub mod inputs;
pub mod load;
pub mod output;
pub mod report;
pub mod sarif;
pub mod style;
pub mod wording;

use crate::config::Config;
use crate::diag::Diagnostic;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Exit codes are stable: 0 ok, 1 races/divergence remain (or undecided, or a change is needed),
/// 2 bad input.
pub const EXIT_FINDINGS: u8 = 1;
/// Bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;

/// A failure that ends the analysis of a file (or a whole run) with a message.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: the diagnostic is rendered against the file.
    Input { file: String, source: String, diag: Box<Diagnostic> },
    /// Bad usage or an unreadable file.
    Usage(String),
    /// A file without a kernel (or without the one `--kernel` names): the error it is for a
    /// file named on its own; a note in a run over a directory or several files.
    NoKernel(Box<Failure>),
}

impl Failure {
    /// The failure to report: a file without kernels is the error it wraps.
    pub fn reported(self) -> Failure {
        match self {
            Failure::NoKernel(f) => f.reported(),
            f => f,
        }
    }

    /// Why a file has no kernel, for the note of a run over several files (`None`: another failure).
    pub fn no_kernel(&self) -> Option<String> {
        match self {
            Failure::NoKernel(f) => Some(match f.as_ref() {
                Failure::Input { diag, .. } => diag.message.clone(),
                Failure::Usage(m) => m.clone(),
                other => other.no_kernel().unwrap_or_default(),
            }),
            _ => None,
        }
    }
}

/// The output format of `check` and `fix`: `human` (diagnostics on stderr, summaries and diffs
/// on stdout), `json` (one document, docs/json.md), `jsonl` (one JSON object per file as it
/// finishes, then a summary object) or `sarif` (SARIF 2.1.0).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum Format {
    #[default]
    Human,
    Json,
    Jsonl,
    Sarif,
}

/// The wall time a kernel may take in the verifier and the synthesis (`--timeout`). Past it,
/// what is not decided yet is reported as undecided; zero means no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub Duration);

impl Default for Budget {
    /// 10 s, the configuration's default.
    fn default() -> Budget {
        Budget(Duration::from_secs(10))
    }
}

impl Budget {
    /// The deadline of a kernel that starts now (`None`: no limit).
    pub fn deadline(self) -> Option<std::time::Instant> {
        (!self.0.is_zero()).then(|| std::time::Instant::now() + self.0)
    }
    /// `10 s`, `0.5 s`: how messages name the budget.
    pub fn describe(self) -> String {
        let s = self.0.as_secs_f64();
        if s.fract() == 0.0 {
            format!("{s:.0} s")
        } else {
            format!("{s} s")
        }
    }
}

/// Launch geometry and front-end options of a run (what `--block-dim`, `-I`, `-D`, … say).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// Threads per block as written: `256` or `16,16` (`None`: the header's, else symbolic).
    pub block_dim: Option<String>,
    /// Blocks per grid as written (`None`: the header's, else symbolic).
    pub grid_dim: Option<String>,
    /// Legacy lock-step warps of this size.
    pub warp_sync: Option<u32>,
    /// Only this kernel of a CUDA file.
    pub kernel: Option<String>,
    /// `#include "…"` search directories, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `NAME` or `NAME=VALUE` macro definitions, in order (a later one wins).
    pub defines: Vec<String>,
    /// `NAME=VALUE` template parameter values.
    pub template_arg: Vec<String>,
    /// Preconditions of every kernel (CUDA expressions over its parameters).
    pub assume: Vec<String>,
    /// Check every dimension of a symbolic launch.
    pub all_dims: bool,
    /// Also check executions whose index arithmetic wraps around 2^32 (`--wrap`).
    pub wrap: bool,
    /// Take nothing from the file's host code: no launch geometry, no argument values
    /// (`--no-launch-facts`).
    pub no_launch_facts: bool,
}

impl LaunchOptions {
    /// `config` with the verifier options of these launch options (`all_dims`, `wrap`) applied.
    pub fn verifier_config(&self, config: &Config) -> Config {
        let mut c = config.clone();
        c.verifier.all_dims |= self.all_dims;
        c.verifier.wrap |= self.wrap;
        c
    }

    /// The CUDA front end's options for the file at `path`.
    pub fn front_end(&self, path: &Path) -> Result<crate::cuda::FrontEndOptions, Failure> {
        let mut template_args = Vec::new();
        for a in &self.template_arg {
            match a.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
                    template_args.push((n.trim().to_string(), v.trim().to_string()))
                }
                _ => return Err(Failure::Usage(format!("--template-arg `{a}`: expected NAME=VALUE"))),
            }
        }
        Ok(crate::cuda::FrontEndOptions {
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
            no_launch_facts: self.no_launch_facts,
            command_line: crate::kpl::Geometry {
                block_dim: self
                    .block_dim
                    .as_deref()
                    .map(|s| load::parse_dims_arg(s, "--block-dim"))
                    .transpose()?,
                grid_dim: self
                    .grid_dim
                    .as_deref()
                    .map(|s| load::parse_dims_arg(s, "--grid-dim"))
                    .transpose()?,
                warp_sync: self.warp_sync,
            },
        })
    }
}

/// A run over files, resolved: the file list, whether it is a run over several files, where each
/// file's flags come from.
pub struct Plan {
    /// The files, in input order.
    pub files: Vec<PathBuf>,
    /// A run over several files or a directory (prints a summary; CUDA-only options apply to the
    /// CUDA files only).
    pub many: bool,
    launch: LaunchOptions,
    compdb: compdb::Source,
}

impl Plan {
    /// Expands `paths` ([`inputs::expand`]) and opens the compilation database (`build_path`, else
    /// discovery per file). No files at all is a usage failure.
    pub fn new(paths: &[PathBuf], launch: LaunchOptions, build_path: Option<&Path>) -> Result<Plan, Failure> {
        let (files, any_dir) = inputs::expand(paths)?;
        if files.is_empty() {
            return Err(Failure::Usage(format!(
                "no kernel files (*.cu, *.cuh, *.kpl) under {}",
                paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            )));
        }
        let many = any_dir || files.len() > 1;
        Ok(Plan { files, many, launch, compdb: compdb::Source::new(build_path)? })
    }

    /// The plan of one file that is part of a run over several (a worker process's share), or
    /// of one buffer of an editor's session: CUDA-only options are meant for its CUDA files.
    pub fn one_of_many(
        file: PathBuf,
        launch: LaunchOptions,
        build_path: Option<&Path>,
    ) -> Result<Plan, Failure> {
        Ok(Plan { files: vec![file], many: true, launch, compdb: compdb::Source::new(build_path)? })
    }

    /// The launch options for `path`: the run's, then its compilation-database entry's include
    /// directories and definitions (CUDA files only; a later `-D` wins).
    pub fn launch_for(&self, path: &Path) -> Result<LaunchOptions, Failure> {
        let mut launch = self.launch.clone();
        if !load::is_cuda_path(path) && self.many {
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
