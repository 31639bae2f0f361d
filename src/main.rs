//! The `autosync` command line: parses arguments, loads kernels through the front ends, runs the
//! oracle and the synthesis, and reports like a compiler (diagnostics on stderr, diffs on stdout).

use autosync::config::{Config, Mode, Solver};
use autosync::diag::{Diagnostic, Severity};
use autosync::kpl::{self, Geometry, Kernel, LabelTree, NodeKind, Place, StmtKind};
use autosync::maxsat::Engine;
use autosync::synth::{self, SynthOptions, Synthesis, Unfixable};
use autosync::verify::{AccessKind, Oracle, OracleOptions, Race, Relation, Scope, Verdict, Z3Oracle};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes are stable: 0 ok, 1 races/divergence remain or a change is needed, 2 bad input.
const EXIT_FINDINGS: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "autosync",
    version,
    about = "Finds the races and divergent barriers of GPU kernels and inserts the cheapest set of __syncthreads() that removes them, proven by an embedded verifier.",
    after_help = "Examples:\n  autosync check kernel.cu              report races and divergent barriers\n  autosync fix kernel.cu                insert the cheapest barriers, print the diff\n  autosync fix --diff kernel.cu         only print the diff\n  autosync fix --check kernel.cu        exit 1 if a barrier would be added (for CI)\n  autosync run kernel.kpl --block-dim 64   execute on concrete sizes and report races seen\n  autosync tree kernel.kpl              show labels, nesting and barrier costs\n\nExit codes: 0 ok, 1 races or divergence remain (or --check found a change), 2 bad input or usage.\nKernels: CUDA (.cu) or the core language KPL (.kpl, see docs/kpl.md)."
)]
struct Cli {
    /// Configuration file (default: the built-in config/default.yaml)
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone, Default)]
struct LaunchArgs {
    /// Threads per block: `256` or `16,16` (default: the file's `//--blockDim=` header, else symbolic)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    block_dim: Option<String>,
    /// Blocks per grid: `64` or `4,4` (default: the header, else symbolic)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    grid_dim: Option<String>,
    /// Legacy lock-step warps of this size (GPUVerify's --warp-sync)
    #[arg(long, value_name = "N")]
    warp_sync: Option<u32>,
    /// Only this kernel of a CUDA file
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// Check every dimension of a symbolic launch (by default a y/z dimension the kernel never
    /// reads is assumed to be 1)
    #[arg(long)]
    all_dims: bool,
    /// Assume index arithmetic does not wrap around 2^32 (races that need a wrap are dropped)
    #[arg(long)]
    no_wrap: bool,
    /// Search this directory for `#include "…"` files (after the including file's directory;
    /// repeatable, in order)
    #[arg(short = 'I', value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// Define a macro for the CUDA preprocessor: `-D NAME` (as 1) or `-D NAME=VALUE` (repeatable)
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// A template parameter's value for template kernels the file does not instantiate
    /// (`--template-arg blockSize=256 --template-arg T=float`)
    #[arg(long = "template-arg", value_name = "NAME=VALUE")]
    template_arg: Vec<String>,
}

impl LaunchArgs {
    /// `config` with the verifier flags of the command line (`--all-dims`, `--no-wrap`) applied.
    fn verifier_config(&self, config: &Config) -> Config {
        let mut c = config.clone();
        c.verifier.all_dims |= self.all_dims;
        c.verifier.no_wrap |= self.no_wrap;
        c
    }

    /// The CUDA front end's options for the file at `path`.
    fn front_end(&self, path: &Path) -> Result<autosync::cuda::FrontEndOptions, Failure> {
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
        })
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Debug)]
enum Format {
    #[default]
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Verify a kernel: report every possible data race and divergent barrier.
    Check {
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
    },
    /// Insert the cheapest barriers that make the kernel race- and divergence-free, write the
    /// file (atomically) and print the diff.
    Fix {
        /// The kernel file (.cu or .kpl)
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Print the diff, write nothing
        #[arg(long)]
        diff: bool,
        /// Write the result here instead of in place
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
        /// Synthesis mode (default from the config: informed)
        #[arg(long, value_enum)]
        mode: Option<Mode>,
        /// MaxSAT engine (default from the config: minisat)
        #[arg(long, value_enum)]
        solver: Option<Solver>,
        /// Use the naive baseline (a barrier everywhere, then remove one at a time)
        #[arg(long)]
        naive: bool,
        /// Treat benign write-write races as errors
        #[arg(long)]
        strict: bool,
        /// Output format of the report
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Execute a kernel on concrete sizes with the reference interpreter and report the races
    /// and divergent barriers it observes (a dynamic check; exit 1 when it finds one).
    Run {
        /// The kernel file (.cu or .kpl)
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Seed of the initial memory and of unspecified parameters
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Parameter values, `NAME=VALUE` (repeatable)
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Run the benchmark suite: strip each kernel's barriers, synthesize with the naive
    /// baseline, paper mode and informed mode, verify every result, compare with the hand
    /// placement; print the table and write latest.md, latest.csv and latest.svg.
    Bench {
        /// Benchmark directories (default: benchmarks/micro, benchmarks/plain and benchmarks/sdk, those that exist)
        dirs: Vec<PathBuf>,
        /// Directory the results are written to
        #[arg(long, value_name = "DIR", default_value = "benchmarks/results")]
        out: PathBuf,
        /// Worker threads (default: one per core)
        #[arg(long, value_name = "N", default_value_t = 0)]
        threads: usize,
        /// Also replace the generated results section of this README (between its
        /// `<!-- autosync bench: results start/end -->` markers)
        #[arg(long, value_name = "FILE")]
        readme: Option<PathBuf>,
    },
    /// Print the label tree of a kernel: labels, nesting, placeability and the cost of a
    /// barrier after each label.
    Tree {
        /// The kernel file (.kpl or .cu)
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
    },
}

/// A failure that ends the command with a message.
enum Failure {
    /// Bad input: the diagnostic is rendered against the file.
    Input { file: String, source: String, diag: Box<Diagnostic> },
    /// Bad usage or an unreadable file.
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
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

/// A loaded source file and its kernels.
struct Loaded {
    path: PathBuf,
    name: String,
    source: String,
    kernels: Vec<Kernel>,
    is_cuda: bool,
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))
}

fn parse_dims_arg(s: &str, what: &str) -> Result<[u32; 3], Failure> {
    kpl::header::parse_dims(s, kpl::Span::default()).map_err(|_| {
        Failure::Usage(format!("invalid {what} `{s}`: expected 1 to 3 positive numbers, e.g. 256 or 16,16"))
    })
}

fn load(path: &Path, launch: &LaunchArgs, config: &Config) -> Result<Loaded, Failure> {
    let source = read(path)?;
    let name = path.display().to_string();
    let input = |diag: Diagnostic| Failure::Input {
        file: name.clone(),
        source: source.clone(),
        diag: Box::new(diag),
    };
    let is_cuda = matches!(path.extension().and_then(|e| e.to_str()), Some("cu" | "cuh"));
    let mut kernels = if is_cuda {
        autosync::cuda::lower_file_with(&source, &launch.front_end(path)?).map_err(input)?
    } else if !launch.include_dirs.is_empty() || !launch.defines.is_empty() || !launch.template_arg.is_empty()
    {
        return Err(Failure::Usage(format!(
            "{name}: `-I`, `-D` and `--template-arg` apply to CUDA files only"
        )));
    } else {
        vec![kpl::parse(&source).map_err(input)?]
    };
    if kernels.is_empty() {
        return Err(Failure::Usage(match &launch.kernel {
            Some(k) => format!("{name}: no __global__ kernel named `{k}`"),
            None => format!("{name}: no __global__ kernel found"),
        }));
    }
    // Precedence: command line, then the file's header, then the configuration.
    let from_config = Geometry {
        block_dim: config.launch.block_dim.as_ref().map(|d| dims3(d)),
        grid_dim: config.launch.grid_dim.as_ref().map(|d| dims3(d)),
        warp_sync: config.launch.warp_sync,
    };
    let from_cli = Geometry {
        block_dim: launch.block_dim.as_deref().map(|s| parse_dims_arg(s, "--block-dim")).transpose()?,
        grid_dim: launch.grid_dim.as_deref().map(|s| parse_dims_arg(s, "--grid-dim")).transpose()?,
        warp_sync: launch.warp_sync,
    };
    for k in &mut kernels {
        k.geometry = from_config.overridden_by(&k.geometry).overridden_by(&from_cli);
    }
    Ok(Loaded { path: path.to_path_buf(), name, source, kernels, is_cuda })
}

fn dims3(d: &[u32]) -> [u32; 3] {
    [d.first().copied().unwrap_or(1), d.get(1).copied().unwrap_or(1), d.get(2).copied().unwrap_or(1)]
}

fn oracle_for(k: &Kernel, config: &Config, strict: bool) -> Z3Oracle {
    Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: config.verifier.smt_timeout_ms,
        strict: strict || config.verifier.strict,
        all_dims: config.verifier.all_dims,
        no_wrap: config.verifier.no_wrap,
    })
}

/// The launch-shape assumptions the oracle makes for `k` (empty when none), for every report.
fn shape_notes(k: &Kernel, config: &Config) -> Vec<String> {
    let opts = OracleOptions {
        geometry: k.geometry.clone(),
        all_dims: config.verifier.all_dims,
        ..Default::default()
    };
    opts.shape_of(k).describe()
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let config = match &cli.config {
        Some(path) => Config::load(path).map_err(|e| Failure::Usage(e.to_string()))?,
        None => Config::default_config(),
    };
    match cli.command {
        Command::Tree { file, launch } => {
            let loaded = load(&file, &launch, &config)?;
            for k in &loaded.kernels {
                print!("{}", render_tree(k, &config));
            }
            Ok(0)
        }
        Command::Check { file, launch, strict, stats, format } => {
            let config = launch.verifier_config(&config);
            let loaded = load(&file, &launch, &config)?;
            let mut findings = false;
            let mut json = Vec::new();
            for k in &loaded.kernels {
                let mut oracle = oracle_for(k, &config, strict);
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
                let shape = shape_notes(k, &config);
                match format {
                    Format::Json => json.push(
                        serde_json::json!({"kernel": k.name, "verdict": verdict, "assumed_shape": shape, "labels": label_map(k)}),
                    ),
                    Format::Human => {
                        report_verdict(&loaded, k, &verdict);
                        for n in &shape {
                            println!("  note: {n}");
                        }
                    }
                }
            }
            if format == Format::Json {
                println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
            }
            Ok(if findings { EXIT_FINDINGS } else { 0 })
        }
        Command::Fix {
            file,
            launch,
            diff,
            output,
            check,
            explain,
            stats,
            reoptimize,
            mode,
            solver,
            naive,
            strict,
            format,
        } => {
            let config = launch.verifier_config(&config);
            let loaded = load(&file, &launch, &config)?;
            let opts = SynthOptions {
                mode: mode.unwrap_or(config.synthesis.mode),
                engine: match solver.unwrap_or(config.synthesis.solver) {
                    Solver::Minisat => Engine::Minisat,
                    Solver::Z3 => Engine::Z3,
                },
                reoptimize: reoptimize || config.synthesis.reoptimize,
                max_iterations: config.synthesis.max_iterations,
                cost: config.cost_model(),
            };
            fix(
                &loaded,
                &opts,
                &config,
                FixFlags { diff, output, check, explain, stats, naive, strict, format },
            )
        }
        Command::Bench { dirs, out, threads, readme } => {
            bench(dirs, &out, threads, readme.as_deref(), config)
        }
        Command::Run { file, launch, seed, params } => {
            let loaded = load(&file, &launch, &config)?;
            let mut found = false;
            for k in &loaded.kernels {
                let (Some(block_dim), grid_dim) =
                    (k.geometry.block_dim, k.geometry.grid_dim.unwrap_or([1, 1, 1]))
                else {
                    return Err(Failure::Usage("`run` needs concrete sizes: give --block-dim (and --grid-dim) or a //--blockDim= header".into()));
                };
                let mut cfg = autosync::interp::RunConfig::new(block_dim, grid_dim);
                cfg.seed = seed;
                for p in &params {
                    let (n, v) = p
                        .split_once('=')
                        .ok_or_else(|| Failure::Usage(format!("--param `{p}`: expected NAME=VALUE")))?;
                    let v: i64 = v
                        .trim()
                        .parse()
                        .map_err(|_| Failure::Usage(format!("--param `{p}`: `{v}` is not a number")))?;
                    cfg.params.insert(n.trim().to_string(), v as u32);
                }
                let report = autosync::interp::run(k, &cfg)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
                found |= report_run(&loaded, k, &report);
            }
            Ok(if found { EXIT_FINDINGS } else { 0 })
        }
    }
}

/// `autosync bench`: exit 0 when every kernel loaded and, on every kernel whose hand-placed
/// original the oracle accepts, every method's result verified; 1 otherwise (the table and files
/// are written either way; kernels whose original the oracle rejects are listed in the summary).
fn bench(
    dirs: Vec<PathBuf>,
    out: &Path,
    threads: usize,
    readme: Option<&Path>,
    config: Config,
) -> Result<u8, Failure> {
    use autosync::bench::{self, machine::Machine, report, BenchOptions, Method};
    let dirs = if dirs.is_empty() { bench::discover::default_dirs(Path::new(".")) } else { dirs };
    if dirs.is_empty() {
        return Err(Failure::Usage(
            "no benchmark directories: give some, or run in the repository root".into(),
        ));
    }
    let files = bench::discover(&dirs).map_err(Failure::Usage)?;
    let opts =
        BenchOptions { config, threads, methods: Method::ALL.to_vec(), only_verified_originals: false };
    let bar = bench::progress::Bar::stderr();
    let started = std::time::Instant::now();
    let rows = bench::run(&files, &opts, &bar).map_err(Failure::Usage)?;
    bar.finish();
    let wall = started.elapsed().as_secs_f64();
    let used = bench::worker_threads(threads);
    let machine = Machine::current(used);
    print!("{}", report::text_table(&rows));
    print!("\n{}", report::summary(&rows));
    println!("wall-clock {wall:.2} s for {} kernel(s) on {used} thread(s)", rows.len());
    let write = |name: &str, text: &str| {
        let path = out.join(name);
        // A plain write: new files get the usual permissions (results are regenerated, not edited).
        std::fs::write(&path, text)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
    };
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", out.display())))?;
    let cost = opts.config.cost_model();
    write(
        "latest.md",
        &format!(
            "# autosync benchmark results\n\n{}",
            report::markdown(&rows, &machine, &cost, "latest.svg", 2)
        ),
    )?;
    write("latest.csv", &report::csv(&rows))?;
    write("latest.svg", &bench::plot::svg(&rows).map_err(|e| Failure::Usage(format!("plot: {e}")))?)?;
    eprintln!("wrote {}/latest.md, latest.csv, latest.svg", out.display());
    if let Some(readme) = readme {
        let text = read(readme)?;
        // The plot link is relative to the README's directory.
        let base = readme.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let plot = out.join("latest.svg");
        let href = plot.strip_prefix(base).unwrap_or(&plot).display().to_string();
        let section = report::markdown(&rows, &machine, &cost, &href, 3);
        let text = report::splice_readme(&text, &section)
            .map_err(|e| Failure::Usage(format!("{}: {e}", readme.display())))?;
        autosync::patch::write_atomic(readme, &text).map_err(|e| Failure::Usage(e.to_string()))?;
        eprintln!("updated {}", readme.display());
    }
    let all_good = rows.iter().all(|r| {
        r.result.as_ref().is_ok_and(|k| !k.original.verified || k.methods.iter().all(|o| o.is_verified()))
    });
    Ok(if all_good { 0 } else { EXIT_FINDINGS })
}

fn label_map(k: &Kernel) -> serde_json::Value {
    let m: serde_json::Map<String, serde_json::Value> = (0..k.label_count())
        .map(|i| (i.to_string(), serde_json::Value::String(k.label_name(kpl::Label(i)).to_string())))
        .collect();
    serde_json::Value::Object(m)
}

fn stmt_span(k: &Kernel, l: kpl::Label) -> kpl::Span {
    k.stmt(l).map(|s| s.span).unwrap_or_default()
}

fn kind_word(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic => "atomic",
    }
}

fn fmt_tid(t: &[u64; 3]) -> String {
    if t[1] == 0 && t[2] == 0 {
        format!("{}", t[0])
    } else {
        format!("({},{},{})", t[0], t[1], t[2])
    }
}

fn race_diagnostic(k: &Kernel, r: &Race, severity: Severity) -> Diagnostic {
    let space = k.array(&r.array).map(|a| a.space.to_string()).unwrap_or_default();
    let (what, scope_note) = match r.scope {
        Scope::Block => ("data race", None),
        Scope::Grid => {
            ("grid-level data race", Some("threads of different blocks: no __syncthreads() can order them"))
        }
    };
    let wraps = r.only_with_wrap();
    let certainty = if r.is_possible() || wraps { "possible " } else { "" };
    let msg = if r.first == r.second {
        format!(
            "{certainty}{what} on {space} array `{}`: a {} races with itself",
            r.array,
            kind_word(r.kinds[0])
        )
    } else {
        format!(
            "{certainty}{what} on {space} array `{}` between a {} and a {}",
            r.array,
            kind_word(r.kinds[0]),
            kind_word(r.kinds[1])
        )
    };
    let msg = if wraps { format!("{msg} (only if the index arithmetic wraps around 2^32)") } else { msg };
    let mut d = Diagnostic::error(msg, stmt_span(k, r.first));
    d.severity = severity;
    if wraps {
        d = d.with_note(
            "every execution with this race computes an index whose +, -, * or << leaves the signed 32-bit range; \
             `--no-wrap` assumes index arithmetic never does (docs/semantics.md)",
        );
    }
    let case0 = &r.cases[0];
    if let Some(w) = &case0.witness {
        d = d.with_label(format!("{} by thread {}", kind_word(r.kinds[0]), fmt_tid(&w.threads[0].tid)));
        if r.first != r.second {
            d = d.with_secondary(
                stmt_span(k, r.second),
                format!("{} by thread {}", kind_word(r.kinds[1]), fmt_tid(&w.threads[1].tid)),
            );
        }
        d = d.with_note(format!("both access element {} of `{}`", w.index, r.array));
        if r.scope == Scope::Grid {
            d = d.with_note(format!(
                "threads are in blocks {} and {}",
                fmt_tid(&w.threads[0].bid),
                fmt_tid(&w.threads[1].bid)
            ));
        }
    } else if let Some(why) = &case0.undecided {
        d = d
            .with_label("the solver could not decide this pair")
            .with_note(format!("reported as possible: {why}"));
        if why.contains("ran out of time") {
            d = d.with_note(
                "help: give the solver more time: raise `verifier.smt_timeout_ms` in a configuration file (--config FILE)",
            );
        }
        if r.first != r.second {
            d = d.with_secondary(stmt_span(k, r.second), "second access");
        }
    }
    for c in &r.cases {
        let note = match c.case.relation {
            Relation::SameIteration if r.first == r.second => {
                "in the same execution of the statement: no barrier can separate it".to_string()
            }
            Relation::SameIteration => "in the same iteration of every enclosing loop".to_string(),
            Relation::Carried { shared_loop, gap2 } => format!(
                "across iterations of loop `{}`: `{}` in one iteration, `{}` in {}",
                k.label_name(shared_loop),
                k.label_name(c.case.first),
                k.label_name(c.case.second),
                if gap2 { "a later one" } else { "the next" }
            ),
        };
        d = d.with_note(note);
    }
    if let Some(n) = scope_note {
        d = d.with_note(n);
    }
    // A symbolic block size admits 2-D and 3-D blocks, where threads differing only in y or z
    // share `threadIdx.x`: the usual cause of a surprising race in a kernel written for 1-D.
    let beyond_x = |t: &[u64; 3]| t[1] != 0 || t[2] != 0;
    let witness_beyond_x = case0.witness.as_ref().is_some_and(|w| w.threads.iter().any(|t| beyond_x(&t.tid)));
    if k.geometry.block_dim.is_none() && witness_beyond_x {
        d = d.with_note(
            "help: the block size is unknown and the kernel reads threadIdx.y/z or blockDim.y/z (or \
             --all-dims is on), so 2-D and 3-D blocks are checked; if the kernel is launched with 1-D \
             blocks, say so with `--block-dim N` or a `//--blockDim=N` header line",
        );
    }
    d
}

fn report_verdict(loaded: &Loaded, k: &Kernel, v: &Verdict) {
    for r in &v.races {
        eprint!("{}", race_diagnostic(k, r, Severity::Error).render(&loaded.name, &loaded.source));
    }
    for r in &v.benign {
        let d = race_diagnostic(k, r, Severity::Warning)
            .with_note("both threads write the same value (benign; an error under --strict)");
        eprint!("{}", d.render(&loaded.name, &loaded.source));
    }
    for dv in &v.divergences {
        eprint!("{}", divergence_diagnostic(k, dv).render(&loaded.name, &loaded.source));
    }
    let summary = format!(
        "{}: kernel `{}`: {} race(s), {} divergent barrier(s), {} warning(s)",
        loaded.name,
        k.name,
        v.races.len(),
        v.divergences.len(),
        v.benign.len()
    );
    if v.is_clean() {
        println!("{summary} — correctly synchronized");
    } else {
        println!("{summary}");
    }
}

/// The span of the statement owning block `b` (an if, else or while).
fn guard_span(k: &Kernel, b: kpl::Label) -> kpl::Span {
    if let Some(s) = k.stmt(b) {
        return kpl::Span::new(s.span.start, s.span.start.saturating_add(2).min(s.span.end));
    }
    let mut span = kpl::Span::default();
    k.walk(&mut |s| {
        if let StmtKind::If { els: Some(e), .. } = &s.kind {
            if e.label == b {
                span = s.span;
            }
        }
    });
    span
}

struct FixFlags {
    diff: bool,
    output: Option<PathBuf>,
    check: bool,
    explain: bool,
    stats: bool,
    naive: bool,
    strict: bool,
    format: Format,
}

fn fix(loaded: &Loaded, opts: &SynthOptions, config: &Config, flags: FixFlags) -> Result<u8, Failure> {
    let barrier_text = if loaded.is_cuda { "__syncthreads();" } else { "barrier;" };
    let mut inserts: Vec<(usize, kpl::Label)> = Vec::new();
    let mut removes: Vec<(usize, kpl::Label)> = Vec::new();
    let mut impossible = false;
    // What the written placement leaves: grid-level races and undecided pairs, per kernel.
    let mut leftover: Vec<(usize, Unfixable)> = Vec::new();
    let mut json = Vec::new();
    let groups = sharing_groups(&loaded.kernels);
    let mut results: Vec<Option<(Synthesis, synth::SynthStats)>> = vec![None; loaded.kernels.len()];
    if !flags.naive {
        for group in &groups {
            let members: Vec<Kernel> = group.iter().map(|i| loaded.kernels[*i].clone()).collect();
            let mut oracle = oracle_for(&members[0], config, flags.strict);
            let (res, st) = synth::synthesize_group(&members, &mut oracle, opts)
                .map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
            for (i, r) in group.iter().zip(res) {
                results[*i] = Some((r, st));
            }
        }
    } else if let Some(g) = groups.iter().find(|g| g.len() > 1) {
        let names: Vec<&str> = g.iter().map(|i| loaded.kernels[*i].name.as_str()).collect();
        return Err(Failure::Usage(format!(
            "{}: --naive handles one kernel at a time, but kernels {} share source text (a template or a device function)",
            loaded.name,
            names.join(", ")
        )));
    }
    for (ki, k) in loaded.kernels.iter().enumerate() {
        if flags.naive {
            let mut oracle = oracle_for(k, config, flags.strict);
            let (res, st) = synth::naive(k, &mut oracle, opts);
            match res {
                Some((_, chosen, cost)) => {
                    if flags.stats {
                        eprintln!("{}: kernel `{}` (naive): {} barrier(s), cost {cost}, oracle calls {}, time {:.1} ms", loaded.name, k.name, chosen.len(), st.oracle_calls, st.total_time.as_secs_f64() * 1e3);
                    }
                    inserts.extend(chosen.into_iter().map(|l| (ki, l)));
                }
                None => impossible = true,
            }
            continue;
        }
        let Some((result, st)) = results[ki].take() else { continue };
        if flags.stats {
            eprintln!(
                "{}: kernel `{}`: oracle calls {}, MaxSAT calls {}, iterations {}, SMT queries {}, oracle {:.1} ms, MaxSAT {:.1} ms, total {:.1} ms",
                loaded.name, k.name, st.oracle_calls, st.maxsat_calls, st.iterations, st.smt_queries,
                st.oracle_time.as_secs_f64() * 1e3, st.maxsat_time.as_secs_f64() * 1e3, st.total_time.as_secs_f64() * 1e3
            );
        }
        match result {
            Synthesis::Done { inserted, removed, cost, warnings, remaining, .. } => {
                leftover.extend(remaining.iter().map(|u| (ki, u.clone())));
                for r in &warnings.benign {
                    let d = race_diagnostic(k, r, Severity::Warning)
                        .with_note("both threads write the same value (benign; an error under --strict)");
                    eprint!("{}", d.render(&loaded.name, &loaded.source));
                }
                if flags.explain {
                    for ins in &inserted {
                        let races: Vec<String> = ins
                            .separates
                            .iter()
                            .map(|(a, b)| format!("{}–{}", k.label_name(*a), k.label_name(*b)))
                            .collect();
                        // The line the new barrier follows in the source.
                        let at = match k.place(ins.after) {
                            Place::Line { offset, .. } => *offset,
                            Place::Braced { body_end, .. } => *body_end,
                            Place::Not(_) => stmt_span(k, ins.after).end,
                        };
                        let line = autosync::diag::line_col(&loaded.source, at.saturating_sub(1)).0;
                        eprintln!(
                            "  barrier after `{}` (line {line}): cost {}, separates {}",
                            k.label_name(ins.after),
                            ins.cost,
                            if races.is_empty() { "-".to_string() } else { races.join(", ") }
                        );
                    }
                    for r in &removed {
                        eprintln!("  redundant original barrier `{}` removed", k.label_name(*r));
                    }
                    eprintln!("  total cost {cost}");
                }
                json.push(serde_json::json!({"kernel": k.name, "inserted": inserted, "removed": removed, "cost": cost.to_string(), "remaining": remaining, "assumed_shape": shape_notes(k, config), "stats": st, "labels": label_map(k)}));
                inserts.extend(inserted.iter().map(|i| (ki, i.after)));
                removes.extend(removed.iter().map(|r| (ki, *r)));
            }
            Synthesis::Impossible { reasons } => {
                impossible = true;
                if reasons.is_empty() {
                    eprintln!(
                        "error: {}: kernel `{}`: no placement exists for the kernels that share its source text",
                        loaded.name, k.name
                    );
                }
                for u in &reasons {
                    report_unfixable(loaded, k, u);
                }
                json.push(
                    serde_json::json!({"kernel": k.name, "impossible": reasons, "labels": label_map(k)}),
                );
            }
            Synthesis::GaveUp { iterations } => {
                impossible = true;
                eprintln!(
                    "error: {}: kernel `{}`: gave up after {iterations} refinement iterations",
                    loaded.name, k.name
                );
            }
        }
    }
    if flags.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
    }
    if impossible {
        eprintln!(
            "error: {}: no barrier placement makes this file correctly synchronized; nothing written",
            loaded.name
        );
        return Ok(EXIT_FINDINGS);
    }
    // One patch of the file for all kernels; kernels sharing source text ask for the same edits.
    let per_kernel: Vec<(Vec<kpl::Label>, Vec<kpl::Label>)> = (0..loaded.kernels.len())
        .map(|ki| {
            let pick =
                |v: &[(usize, kpl::Label)]| v.iter().filter(|(i, _)| *i == ki).map(|(_, l)| *l).collect();
            (pick(&inserts), pick(&removes))
        })
        .collect();
    let parts: Vec<autosync::patch::KernelEdits> = loaded
        .kernels
        .iter()
        .zip(&per_kernel)
        .map(|(kernel, (after, remove))| autosync::patch::KernelEdits { kernel, after, remove })
        .collect();
    let text = autosync::patch::apply_all(&loaded.source, &parts, barrier_text)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let changed = text != loaded.source;
    let diff = autosync::patch::unified_diff(&loaded.source, &text, &loaded.name);
    if flags.format == Format::Human {
        print!("{diff}");
        for k in &loaded.kernels {
            for n in shape_notes(k, config) {
                eprintln!("note: kernel `{}`: {n}", k.name);
            }
        }
        for (ki, u) in &leftover {
            report_remaining(loaded, &loaded.kernels[*ki], u);
        }
    }
    let left = if leftover.is_empty() { 0 } else { EXIT_FINDINGS };
    if flags.check {
        if changed && flags.format == Format::Human {
            eprintln!("{}: barriers are missing (run `autosync fix {}`)", loaded.name, loaded.name);
        }
        return Ok(if changed { EXIT_FINDINGS } else { left });
    }
    if flags.diff {
        return Ok(left);
    }
    let target = flags.output.clone().unwrap_or_else(|| loaded.path.clone());
    if changed || flags.output.is_some() {
        autosync::patch::write_atomic(&target, &text).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    if flags.format == Format::Human {
        let n = inserts.len();
        if changed {
            eprintln!(
                "{}: inserted {n} barrier(s){}, wrote {}",
                loaded.name,
                if removes.is_empty() { String::new() } else { format!(", removed {}", removes.len()) },
                target.display()
            );
        } else if leftover.is_empty() {
            eprintln!("{}: already correctly synchronized; nothing to change", loaded.name);
        }
        if !leftover.is_empty() {
            eprintln!(
                "{}: {} finding(s) remain that barriers cannot fix or the solver could not decide (listed above)",
                loaded.name,
                leftover.len()
            );
        }
    }
    Ok(left)
}

/// A finding the written placement leaves (`Synthesis::Done::remaining`), after the diff.
fn report_remaining(loaded: &Loaded, k: &Kernel, u: &Unfixable) {
    let d = match u {
        Unfixable::GridRace { race } => {
            let space = k.array(&race.array).map(|a| a.space.to_string()).unwrap_or_default();
            race_diagnostic(k, race, Severity::Error).with_note(format!(
                "not fixable by `__syncthreads()`: race between blocks on {space} array `{}` (give each block its own elements, or use atomics)",
                race.array
            ))
        }
        Unfixable::Undecided { race } => race_diagnostic(k, race, Severity::Error).with_note(
            "left as it is: the barriers written separate every race the solver decided, not this pair",
        ),
        other => {
            report_unfixable(loaded, k, other);
            return;
        }
    };
    eprint!("{}", d.render(&loaded.name, &loaded.source));
}

/// The kernels of a file grouped by shared barrier positions: two kernels are in one group when
/// some source position can take a barrier in both (template instantiations, kernels inlining one
/// device function). Groups and their members are in file order.
fn sharing_groups(kernels: &[Kernel]) -> Vec<Vec<usize>> {
    let mut owner: std::collections::HashMap<&Place, usize> = std::collections::HashMap::new();
    let mut parent: Vec<usize> = (0..kernels.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (ki, k) in kernels.iter().enumerate() {
        for p in k.places.iter().filter(|p| p.is_placeable()) {
            let other = *owner.entry(p).or_insert(ki);
            let (a, b) = (root(&mut parent, other), root(&mut parent, ki));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for ki in 0..kernels.len() {
        let r = root(&mut parent, ki);
        let gi = *index_of.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[gi].push(ki);
    }
    groups
}

/// Whether `l` labels a `syncwarp` statement (a warp barrier) rather than a block barrier.
fn is_syncwarp(k: &Kernel, l: autosync::kpl::Label) -> bool {
    matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Syncwarp))
}

fn divergence_diagnostic(k: &Kernel, dv: &autosync::verify::Divergence) -> Diagnostic {
    let warp = is_syncwarp(k, dv.barrier);
    let (message, label) = if warp {
        (
            "warp barrier may be reached by only some threads of a warp (warp barrier divergence)",
            "divergent warp barrier",
        )
    } else {
        ("barrier may be reached by only some threads of a block (barrier divergence)", "divergent barrier")
    };
    let mut d = Diagnostic::error(message, stmt_span(k, dv.barrier)).with_label(label);
    if k.flag_guards.contains(&dv.block) {
        d = d.with_secondary(guard_span(k, dv.block), "this exit depends on the thread").with_note(
            "threads that leave here (`return`, `break`, `continue`, `goto`) never reach the barrier",
        );
    } else {
        d = d.with_secondary(guard_span(k, dv.block), "this guard depends on the thread");
    }
    if let Some(t) = &dv.threads {
        d = d.with_note(format!(
            "thread {} reaches the barrier, thread {} does not",
            fmt_tid(&t[0].tid),
            fmt_tid(&t[1].tid)
        ));
    }
    if let Some(why) = &dv.undecided {
        d = d.with_note(format!("reported as possible: {why}"));
    }
    d
}

fn report_unfixable(loaded: &Loaded, k: &Kernel, u: &Unfixable) {
    let d = match u {
        Unfixable::SelfRace { race } => race_diagnostic(k, race, Severity::Error)
            .with_note("no barrier can fix this: two threads perform the same statement at the same element"),
        Unfixable::GridRace { race } => race_diagnostic(k, race, Severity::Error)
            .with_note("no barrier can fix this: __syncthreads() orders threads of one block only"),
        Unfixable::NoValidPosition { race, blocks } => {
            let mut d = race_diagnostic(k, race, Severity::Error)
                .with_note("no barrier can fix this: every position that would separate the accesses is inside a thread-dependent region (a barrier there diverges) or cannot take a statement");
            for b in blocks {
                if k.flag_guards.contains(b) {
                    d = d
                        .with_secondary(guard_span(k, *b), "a thread-dependent exit: later barriers diverge");
                } else {
                    d = d.with_secondary(guard_span(k, *b), "thread-dependent guard");
                }
            }
            d
        }
        Unfixable::DivergentBarrier { divergence } if is_syncwarp(k, divergence.barrier) => {
            divergence_diagnostic(k, divergence)
                .with_note("this warp barrier is in the kernel already and `fix` never moves or removes one")
        }
        Unfixable::DivergentBarrier { divergence } => divergence_diagnostic(k, divergence).with_note(
            "this barrier is in the kernel already and `fix` does not remove barriers (try --reoptimize)",
        ),
        Unfixable::Undecided { race } => race_diagnostic(k, race, Severity::Error)
            .with_note("the solver did not decide this pair, so no barrier was placed for it"),
    };
    eprint!("{}", d.render(&loaded.name, &loaded.source));
}

fn report_run(loaded: &Loaded, k: &Kernel, report: &autosync::interp::RunReport) -> bool {
    for r in &report.races {
        let d = Diagnostic::error(
            format!("data race observed on `{}` element {} ({:?} scope)", r.array, r.index, r.scope),
            stmt_span(k, r.first),
        )
        .with_label(format!("{:?} by thread {:?} of block {:?}", r.kinds[0], r.threads[0], r.blocks[0]))
        .with_secondary(
            stmt_span(k, r.second),
            format!("{:?} by thread {:?} of block {:?}", r.kinds[1], r.threads[1], r.blocks[1]),
        );
        eprint!("{}", d.render(&loaded.name, &loaded.source));
    }
    for dv in &report.divergences {
        let what = if is_syncwarp(k, dv.barrier) {
            "warp barrier divergence observed (within one warp)"
        } else {
            "barrier divergence observed"
        };
        let d = Diagnostic::error(what, stmt_span(k, dv.barrier)).with_label(format!(
            "thread {:?} reached it, thread {:?} did not",
            dv.enabled_thread, dv.disabled_thread
        ));
        eprint!("{}", d.render(&loaded.name, &loaded.source));
    }
    println!(
        "{}: kernel `{}`: {} race(s), {} divergent barrier(s) observed in {} steps{}",
        loaded.name,
        k.name,
        report.races.len(),
        report.divergences.len(),
        report.steps,
        if report.truncated { " (stopped at the step limit)" } else { "" }
    );
    !report.races.is_empty() || !report.divergences.is_empty()
}

/// The label tree as an indented table.
fn render_tree(k: &Kernel, config: &Config) -> String {
    let tree = LabelTree::new(k);
    let model = config.cost_model();
    let mut rows: Vec<[String; 5]> = Vec::new();
    fn visit(
        k: &Kernel,
        tree: &LabelTree,
        l: kpl::Label,
        depth: usize,
        rows: &mut Vec<[String; 5]>,
        model: &autosync::config::CostModel,
    ) {
        let kind = tree.kind(l);
        let what = match kind {
            Some(NodeKind::Main) => "block".to_string(),
            Some(NodeKind::Start(_)) => "start".to_string(),
            Some(NodeKind::If) => "if".to_string(),
            Some(NodeKind::Else(_)) => "else".to_string(),
            Some(NodeKind::While) => "while".to_string(),
            Some(NodeKind::Leaf) => match k.stmt(l).map(|s| &s.kind) {
                Some(StmtKind::Read { .. }) => "read",
                Some(StmtKind::Write { .. }) => "write",
                Some(StmtKind::Atomic { .. }) => "atomic",
                Some(StmtKind::Barrier) => "barrier",
                Some(StmtKind::Syncwarp) => "syncwarp",
                Some(StmtKind::Local { .. }) => "local",
                _ => "assign",
            }
            .to_string(),
            None => "?".to_string(),
        };
        let (place, cost) = match k.place(l) {
            Place::Not(why) if why.is_empty() => ("no".to_string(), "-".to_string()),
            Place::Not(why) => (format!("no ({why})"), "-".to_string()),
            _ => ("yes".to_string(), synth::barrier_cost(k, tree, model, l).to_string()),
        };
        // Compound statements show their header without the opening brace.
        let text = k
            .stmt(l)
            .map(|s| kpl::printer::statement_head(s).trim_end_matches(" {").to_string())
            .unwrap_or_default();
        rows.push([format!("{}{}", "  ".repeat(depth), k.label_name(l)), what, place, cost, text]);
        for c in tree.children(l) {
            visit(k, tree, *c, depth + 1, rows, model);
        }
    }
    visit(k, &tree, kpl::Label::MAIN, 0, &mut rows, &model);
    let headers = ["label", "kind", "barrier after", "cost", "statement"];
    let mut widths = headers.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = format!("kernel {} — label tree (post-order is program-text order)\n", k.name);
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i == 4 {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(headers));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out
}
