//! The benchmark driver behind `autosync bench`: for every benchmark kernel, strip its hand-placed
//! barriers, synthesize a placement with the naive baseline, `paper` mode and `informed` mode,
//! verify every result with a fresh oracle, and compare with the hand placement (the columns of
//! the AutoSync paper's Table II).
//!
//! # Guarantees
//! - Every kernel found becomes a [`Row`]; a file that fails to load and a method that fails to
//!   synthesize are recorded with their error, never dropped.
//! - A method's result counts as verified only if a fresh [`Z3Oracle`] (one that has seen none of
//!   the synthesis queries) finds it clean.
//! - Rows come out in discovery order (directories in the order given, files sorted by name,
//!   kernels in source order), whatever the number of threads.
//! - Times are per method (oracle construction + synthesis, verification excluded), both
//!   wall-clock and the CPU time of the thread that ran it; everything else in a row is
//!   deterministic.
//!
//! Submodules: [`discover`] finds the kernels, [`report`] renders tables and totals, [`plot`]
//! draws the SVG, [`machine`] describes the host.

pub mod discover;
pub mod machine;
pub mod plot;
pub mod progress;
pub mod repo;
pub mod report;
pub mod scale;

use crate::config::{Config, Ratio};
use crate::kpl::{Kernel, LabelTree};
use crate::synth::{self, Mode, SynthOptions, Synthesis};
use crate::verify::{Oracle, Z3Oracle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use discover::{discover, BenchFile};

/// The three synthesis methods compared, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// A barrier after every placeable label, then remove one at a time (paper Sec. IV-B).
    Naive,
    /// Algorithm 1 with the oracle as a black box returning race locations.
    Paper,
    /// Algorithm 1 with the oracle's race cases and uniformity analysis as exact constraints.
    Informed,
}

impl Method {
    /// All methods in table order.
    pub const ALL: [Method; 3] = [Method::Naive, Method::Paper, Method::Informed];

    /// The lower-case name used in tables and the CSV.
    pub fn name(self) -> &'static str {
        match self {
            Method::Naive => "naive",
            Method::Paper => "paper",
            Method::Informed => "informed",
        }
    }

    /// Whether the method places `__syncwarp()` as well as `__syncthreads()`: informed mode does;
    /// the paper's algorithm and its naive baseline know one barrier kind.
    pub fn places_warp_barriers(self) -> bool {
        self == Method::Informed
    }
}

/// What one method achieved on one kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A placement was found.
    Placed {
        /// Barriers in the synthesized kernel.
        barriers: usize,
        /// Warp barriers (`__syncwarp()`) in it (warp-synchronous suites only; else 0).
        syncwarps: usize,
        /// Cost of those barriers under the configured cost model.
        cost: Ratio,
        /// Oracle calls made by the synthesis (the paper's V).
        oracle_calls: u64,
        /// Wall-clock time of oracle construction and synthesis, in milliseconds.
        time_ms: f64,
        /// CPU time of the same work on its thread, in milliseconds (insensitive to other load).
        cpu_ms: f64,
        /// A fresh oracle found the synthesized kernel clean.
        verified: bool,
    },
    /// No placement: the synthesis proved none exists, gave up, or failed; the text says which.
    Failed { error: String, oracle_calls: u64, time_ms: f64, cpu_ms: f64 },
}

impl Outcome {
    /// A placement the fresh oracle accepted.
    pub fn is_verified(&self) -> bool {
        matches!(self, Outcome::Placed { verified: true, .. })
    }
    /// Oracle calls, whether or not a placement was found.
    pub fn oracle_calls(&self) -> u64 {
        match self {
            Outcome::Placed { oracle_calls, .. } | Outcome::Failed { oracle_calls, .. } => *oracle_calls,
        }
    }
    /// Wall-clock time in milliseconds, whether or not a placement was found.
    pub fn time_ms(&self) -> f64 {
        match self {
            Outcome::Placed { time_ms, .. } | Outcome::Failed { time_ms, .. } => *time_ms,
        }
    }
    /// Thread CPU time in milliseconds, whether or not a placement was found.
    pub fn cpu_ms(&self) -> f64 {
        match self {
            Outcome::Placed { cpu_ms, .. } | Outcome::Failed { cpu_ms, .. } => *cpu_ms,
        }
    }
}

/// The hand-placed original of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Original {
    pub barriers: usize,
    /// Its warp barriers (`__syncwarp()`, a tile's `sync()`).
    pub syncwarps: usize,
    pub cost: Ratio,
    /// The oracle finds the original (with its barriers) clean. `false` is either a real bug of
    /// the benchmark or an oracle false alarm; the report lists these kernels.
    pub verified: bool,
}

/// One benchmark kernel and its results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The benchmark directory's name (`micro`, `plain`, `sdk`).
    pub suite: String,
    /// The file stem, with `::kernel` appended when the file has several kernels.
    pub name: String,
    pub path: PathBuf,
    /// Lines of the file that are neither blank nor only a `//` comment.
    pub loc: usize,
    /// The original and the per-method results, or why the file could not be loaded.
    pub result: Result<KernelResult, String>,
}

/// Results of a kernel that loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelResult {
    pub original: Original,
    /// Indexed like [`Method::ALL`].
    pub methods: [Outcome; 3],
}

impl KernelResult {
    /// The outcome of one method.
    pub fn get(&self, m: Method) -> &Outcome {
        &self.methods[Method::ALL.iter().position(|x| *x == m).unwrap_or(0)]
    }
}

impl Row {
    /// The outcome of one method, if the kernel loaded.
    pub fn outcome(&self, m: Method) -> Option<&Outcome> {
        self.result.as_ref().ok().map(|r| r.get(m))
    }

    /// A kernel of the warp-synchronous suite that a one-kind method found no placement for: the
    /// repair needs `__syncwarp()` (a `__syncthreads()` under `if (tid < 32)` diverges), which the
    /// method cannot place. Reported on its own line, not as a failure of the tool.
    pub fn out_of_reach(&self, m: Method) -> bool {
        self.suite == WARP_SUITE
            && !m.places_warp_barriers()
            && matches!(self.outcome(m), Some(Outcome::Failed { .. }))
    }
}

/// How to run the benchmarks.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub config: Config,
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// The methods to run; the others are not run and reported as failed with "not run".
    pub methods: Vec<Method>,
    /// Run no method on a kernel whose hand-placed original the oracle rejects (reported as
    /// failed with "not run: …"); for regression tests that compare with the original.
    pub only_verified_originals: bool,
}

/// One kernel ready to run: its original (with barriers) and where it came from.
struct Job {
    suite: String,
    name: String,
    path: PathBuf,
    loc: usize,
    kernel: Result<Kernel, String>,
}

/// Loads a benchmark file the way `autosync fix` does (CUDA front end or KPL parser, geometry
/// from the configuration overridden by the file's header); a load error becomes one row.
fn jobs_of(file: &BenchFile, config: &Config) -> Vec<Job> {
    let suite = file.suite.clone();
    let stem = file.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let job = |name: String, loc: usize, kernel: Result<Kernel, String>| Job {
        suite: suite.clone(),
        name,
        path: file.path.clone(),
        loc,
        kernel,
    };
    // Read like every other command reads a file (BOM, size limit, stray bytes).
    let source = match crate::source::read(&file.path) {
        Ok(input) => input.text,
        Err(e) => return vec![job(stem, 0, Err(format!("cannot read: {e}")))],
    };
    let loc = lines_of_code(&source);
    match load_kernels(&file.path, &source, config) {
        Err(e) => vec![job(stem, loc, Err(e))],
        Ok(kernels) => {
            let many = kernels.len() > 1;
            kernels
                .into_iter()
                .map(|k| {
                    let name = if many { format!("{stem}::{}", k.name) } else { stem.clone() };
                    job(name, loc, Ok(k))
                })
                .collect()
        }
    }
}

/// The kernels of a file with their launch geometry: header over configuration (the driver's
/// loading, [`crate::driver::load::lower_source`], without command-line options); an error is one
/// line with its position.
pub fn load_kernels(path: &Path, source: &str, config: &Config) -> Result<Vec<Kernel>, String> {
    let launch = crate::driver::LaunchOptions::default();
    crate::driver::load::lower_source(path, source, &launch, config).map(|(k, _)| k).map_err(|f| {
        match f.reported() {
            crate::driver::Failure::Input { diag, .. } => {
                let at = diag
                    .span
                    .map(|s| crate::diag::line_col(source, s.start))
                    .map(|(l, c)| format!("{l}:{c}: "));
                format!("{}{}", at.unwrap_or_default(), diag.message)
            }
            crate::driver::Failure::Usage(msg) => msg,
            crate::driver::Failure::NoKernel(_) => String::new(),
        }
    })
}

/// Lines that are neither blank nor only a `//` comment (the paper's LoC counts code lines).
pub fn lines_of_code(source: &str) -> usize {
    source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).count()
}

/// The driver's oracle for `k`, without a budget (the benchmark measures whole runs).
pub(super) fn oracle_for(k: &Kernel, config: &Config) -> Z3Oracle {
    crate::driver::load::oracle_for(k, config, false, crate::driver::Budget(std::time::Duration::ZERO))
}

/// The cost of a kernel's own barriers under the cost model (each as synthesis prices its
/// position: [`synth::barrier_cost`](crate::synth::barrier_cost)).
pub fn barrier_cost(k: &Kernel, config: &Config) -> Ratio {
    let tree = LabelTree::new(k);
    let model = config.cost_model();
    let block = k
        .barriers()
        .iter()
        .fold(Ratio::new(0, 1), |acc, b| acc.plus(&crate::synth::barrier_cost(k, &tree, &model, *b)));
    // A warp barrier costs `warp_factor` of a block barrier at the same position.
    k.syncwarps().iter().fold(block, |acc, w| {
        acc.plus(&crate::synth::barrier_cost(k, &tree, &model, *w).times(&crate::synth::warp_factor()))
    })
}

/// The synthesis options of a benchmark run in `mode` (the configuration's engine and limits):
/// Algorithm 1 as the paper has it (all or nothing, the input's barriers kept, one barrier kind,
/// the cost model's optimum even under a thread-dependent guard), with warp barriers only for
/// the warp-synchronous suite ([`WARP_SUITE`]).
pub(super) fn synth_options(config: &Config, mode: Mode) -> SynthOptions {
    SynthOptions {
        partial: false,
        keep_barriers: true,
        warp: false,
        robust_guards: false,
        split: false,
        ..crate::driver::fix::synth_options(config, Some(mode), None, false)
    }
}

/// The suite of warp-synchronous kernels (`benchmarks/warp`): synthesized with `__syncwarp()`
/// as a second barrier kind, and its hand-placed `__syncwarp()`s stripped as well.
pub const WARP_SUITE: &str = "warp";

/// Runs one method on the barrier-free kernel and verifies its result with a fresh oracle.
fn run_method(stripped: &Kernel, method: Method, config: &Config, warp: bool) -> Outcome {
    let mut opts = synth_options(config, if method == Method::Paper { Mode::Paper } else { Mode::Informed });
    opts.warp = warp;
    let started = Instant::now();
    // The whole synthesis runs on this thread (z3 and minisat included), so the thread's CPU
    // time measures its work even when other processes compete for the cores.
    let cpu_started = cpu_time::ThreadTime::try_now().ok();
    let mut oracle = oracle_for(stripped, config);
    let (kernel, oracle_calls, error) = if method == Method::Naive {
        let (res, st) = synth::naive(stripped, &mut oracle, &opts);
        match res {
            Some((k, _, _)) => (Some(k), st.oracle_calls, None),
            None => {
                (None, st.oracle_calls, Some("no placement: races remain with every barrier".to_string()))
            }
        }
    } else {
        match synth::synthesize(stripped, &mut oracle, &opts) {
            Ok((Synthesis::Done { kernel, .. }, st)) => (Some(*kernel), st.oracle_calls, None),
            Ok((Synthesis::Impossible { reasons }, st)) => {
                (None, st.oracle_calls, Some(format!("no placement: {} unfixable race(s)", reasons.len())))
            }
            Ok((Synthesis::GaveUp { iterations }, st)) => {
                (None, st.oracle_calls, Some(format!("gave up after {iterations} iterations")))
            }
            Err(e) => (None, 0, Some(e.to_string())),
        }
    };
    let time_ms = started.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = cpu_started.and_then(|t| t.try_elapsed().ok()).map_or(f64::NAN, |d| d.as_secs_f64() * 1e3);
    match (kernel, error) {
        (Some(k), _) => {
            let verified = oracle_for(&k, config).check(&k).is_clean();
            Outcome::Placed {
                barriers: k.barriers().len(),
                syncwarps: k.syncwarps().len(),
                cost: barrier_cost(&k, config),
                oracle_calls,
                time_ms,
                cpu_ms,
                verified,
            }
        }
        (None, e) => Outcome::Failed { error: e.unwrap_or_default(), oracle_calls, time_ms, cpu_ms },
    }
}

/// The worker threads a run with `requested` threads uses: `requested`, or for 0 rayon's default
/// (one per core, or `RAYON_NUM_THREADS`).
pub fn worker_threads(requested: usize) -> usize {
    if requested == 0 {
        rayon::current_num_threads()
    } else {
        requested
    }
}

/// Told about the progress of [`run`] (from worker threads).
pub trait Progress: Sync {
    /// Called once, before any work, with the number of steps to come (one check of each
    /// original, one synthesis per kernel and selected method).
    fn start(&self, total: usize);
    /// Called once per finished step, in completion order, with what it was.
    fn done(&self, what: &str);
}

/// A [`Progress`] that shows nothing.
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: usize) {}
    fn done(&self, _: &str) {}
}

/// A loaded kernel after the check of its original.
struct Checked {
    original: Original,
    stripped: Kernel,
}

/// Runs every selected method on every kernel of `files`. Work is parallel over kernels (checking
/// the originals) and then over kernel × method pairs (so one slow kernel does not serialize its
/// methods). The rows are in input order whatever the number of threads.
///
/// Errors: the worker threads cannot be started.
pub fn run(files: &[BenchFile], opts: &BenchOptions, progress: &dyn Progress) -> Result<Vec<Row>, String> {
    let jobs: Vec<Job> = files.iter().flat_map(|f| jobs_of(f, &opts.config)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(opts.threads))
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    let loaded = jobs.iter().filter(|j| j.kernel.is_ok()).count();
    progress.start(loaded * (1 + opts.methods.len()));
    Ok(pool.install(|| {
        let checked: Vec<Option<Checked>> = jobs
            .par_iter()
            .map(|j| {
                let k = j.kernel.as_ref().ok()?;
                let original = Original {
                    barriers: k.barriers().len(),
                    syncwarps: k.syncwarps().len(),
                    cost: barrier_cost(k, &opts.config),
                    verified: oracle_for(k, &opts.config).check(k).is_clean(),
                };
                let mut stripped = k.clone();
                stripped.remove_barriers(&k.barriers());
                if j.suite == WARP_SUITE {
                    stripped.remove_barriers(&k.syncwarps());
                }
                progress.done(&format!("{}/{} original", j.suite, j.name));
                Some(Checked { original, stripped })
            })
            .collect();
        let tasks: Vec<(usize, Method)> =
            (0..jobs.len()).flat_map(|i| Method::ALL.into_iter().map(move |m| (i, m))).collect();
        let outcomes: Vec<Option<Outcome>> = tasks
            .par_iter()
            .map(|&(i, m)| {
                let c = checked[i].as_ref()?;
                let skip = |why: &str| Outcome::Failed {
                    error: why.into(),
                    oracle_calls: 0,
                    time_ms: 0.0,
                    cpu_ms: 0.0,
                };
                Some(if !opts.methods.contains(&m) {
                    skip("not run")
                } else if opts.only_verified_originals && !c.original.verified {
                    progress.done(&format!("{}/{} {} (skipped)", jobs[i].suite, jobs[i].name, m.name()));
                    skip("not run: the original does not verify")
                } else {
                    let o = run_method(&c.stripped, m, &opts.config, jobs[i].suite == WARP_SUITE);
                    progress.done(&format!("{}/{} {}", jobs[i].suite, jobs[i].name, m.name()));
                    o
                })
            })
            .collect();
        let mut outcomes = outcomes.into_iter();
        jobs.into_iter()
            .zip(checked)
            .map(|(j, c)| {
                // Exactly `Method::ALL.len()` outcomes per job, in task order.
                let mine: Vec<Option<Outcome>> = outcomes.by_ref().take(Method::ALL.len()).collect();
                let result = match (j.kernel, c) {
                    (Err(e), _) => Err(e),
                    (Ok(_), None) => Err("internal error: kernel not checked".to_string()),
                    (Ok(_), Some(c)) => {
                        let mut it = mine.into_iter().flatten();
                        let mut next = || {
                            it.next().unwrap_or_else(|| Outcome::Failed {
                                error: "internal error: no outcome".into(),
                                oracle_calls: 0,
                                time_ms: 0.0,
                                cpu_ms: 0.0,
                            })
                        };
                        let methods = [next(), next(), next()];
                        Ok(KernelResult { original: c.original, methods })
                    }
                };
                Row { suite: j.suite, name: j.name, path: j.path, loc: j.loc, result }
            })
            .collect()
    }))
}
