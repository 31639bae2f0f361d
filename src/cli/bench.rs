//! `autosync bench`: the benchmark suite (the work is in the library's `bench` module).

use super::{Failure, EXIT_FINDINGS};
use autosync::config::Config;
use autosync::driver::load::read;
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `autosync bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Benchmark directories (default: benchmarks/micro, plain, sdk, sdk-annotated, warp and ml, those that exist)
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
    /// Instead of the suite: the scaling experiment (generated kernels of N = 5 … 160 phases,
    /// and informed vs naive CPU on the Table II kernels); writes scale.md, scale.csv, scale.svg
    #[arg(long)]
    scale: bool,
    /// With --scale: only these families (chain, chain-loop, nested-loop, many-arrays, strided,
    /// chain-warp, chain-loop-warp, warp-local; repeatable), and no Table II comparison
    #[arg(long, value_name = "NAME", requires = "scale")]
    family: Vec<String>,
    /// Instead of the suite: `check` over a repository-scale corpus (the DIRS given, default
    /// tests/cuda/realworld, tests/cuda/apps and benchmarks, plus generated kernels) in one run, with the time per file
    /// (median, p95, max); writes repo.md
    #[arg(long, conflicts_with = "scale")]
    repo: bool,
}

/// Runs the suite (or, with `--scale`, the scaling experiment) with the options of `args`.
pub fn run(args: BenchArgs, config: Config) -> Result<u8, Failure> {
    if args.scale {
        let mut families = Vec::new();
        for name in &args.family {
            families.push(autosync::bench::scale::Family::named(name).ok_or_else(|| {
                Failure::Usage(format!(
                    "--family `{name}`: expected chain, chain-loop, nested-loop, many-arrays or strided"
                ))
            })?);
        }
        return bench_scale(args.dirs, &args.out, &families, config);
    }
    if args.repo {
        return bench_repo(args.dirs, &args.out, args.threads, config);
    }
    bench(args.dirs, &args.out, args.threads, args.readme.as_deref(), config)
}

/// `autosync bench --scale`: exit 0 when every generated kernel that ran was synthesized and
/// verified (sizes skipped for time are reported, not failures).
fn bench_scale(
    dirs: Vec<PathBuf>,
    out: &Path,
    families: &[autosync::bench::scale::Family],
    config: Config,
) -> Result<u8, Failure> {
    use autosync::bench::{self, machine::Machine, scale};
    let progress = |r: &scale::ScaleRow| {
        eprintln!("{} N={}: {:.0} ms, {} SMT queries", r.family.name(), r.n, r.time_ms, r.smt_queries)
    };
    let only = !families.is_empty();
    let families = if only { families.to_vec() } else { scale::Family::ALL.to_vec() };
    let rows = scale::run(&config, &families, scale::BUDGET_MS, &progress);
    let table = scale::markdown(&rows);
    print!("{table}");
    let dirs = if dirs.is_empty() { bench::discover::default_dirs(Path::new(".")) } else { dirs };
    let table_ii = if only {
        "(not run: --family)\n".to_string()
    } else {
        scale::table_ii(&dirs, &config).map_err(Failure::Usage)?
    };
    print!("\nTable II kernels, naive vs informed (one thread, same run):\n\n{table_ii}");
    let m = Machine::current(1);
    let load = m.load.map(|l| format!(", 1-minute load average {l}")).unwrap_or_default();
    let doc = format!(
        "# autosync scaling results\n\n{}, {}, {} core(s), one thread{load}.\n\n\
         ![time vs N](scale.svg)\n\n{table}\n## Table II kernels: naive vs informed CPU \
         (one thread, same run)\n\n{table_ii}",
        m.date, m.cpu, m.cores
    );
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", out.display())))?;
    let svg = scale::svg(&rows).map_err(|e| Failure::Usage(format!("plot: {e}")))?;
    for (name, text) in [("scale.md", doc.as_str()), ("scale.csv", &scale::csv(&rows)), ("scale.svg", &svg)] {
        let path = out.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
    }
    eprintln!("wrote {}/scale.md, scale.csv, scale.svg", out.display());
    Ok(if rows.iter().all(|r| r.verified || r.time_ms == 0.0) { 0 } else { EXIT_FINDINGS })
}

/// `autosync bench`: exit 0 when every kernel loaded and, on every kernel whose hand-placed
/// original the oracle accepts, every method's result verified (a one-kind method's failure on a
/// warp-suite kernel is out of its reach, not a failure: [`autosync::bench::Row::out_of_reach`]);
/// 1 otherwise (the table and files
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
        let text = read(readme)?.text;
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
        r.result.as_ref().is_ok_and(|k| {
            !k.original.verified || Method::ALL.iter().all(|&m| k.get(m).is_verified() || r.out_of_reach(m))
        })
    });
    Ok(if all_good { 0 } else { EXIT_FINDINGS })
}

/// `autosync bench --repo`: exit 0 when the run ended (findings in the corpus are its content,
/// not failures); writes repo.md.
fn bench_repo(dirs: Vec<PathBuf>, out: &Path, threads: usize, config: Config) -> Result<u8, Failure> {
    use autosync::bench::{machine::Machine, repo};
    let mut paths = if dirs.is_empty() {
        ["tests/cuda/realworld", "tests/cuda/apps", "benchmarks"]
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .collect()
    } else {
        dirs
    };
    let generated =
        tempfile::tempdir().map_err(|e| Failure::Usage(format!("cannot make a temp dir: {e}")))?;
    paths.extend(repo::generate(generated.path()).map_err(Failure::Usage)?);
    let budget =
        autosync::driver::Budget(std::time::Duration::from_secs_f64(config.verifier.kernel_timeout_s));
    let mut run = repo::run(&paths, &config, threads, budget).map_err(Failure::Usage)?;
    // The generated kernels live in a temp dir: name them by a stable prefix in the report.
    let temp = format!("{}/", generated.path().display());
    for row in &mut run.rows {
        if let Some(name) = row.file.strip_prefix(&temp) {
            row.file = format!("(generated) {name}");
        }
    }
    let report = repo::markdown(&run);
    print!("{report}");
    let m = Machine::current(run.threads);
    let load = m.load.map(|l| format!(", 1-minute load average {l}")).unwrap_or_default();
    let doc = format!(
        "# autosync repository-scale run\n\n{}, {}, {} core(s){load}; budget {} s per kernel.\n\n{report}",
        m.date, m.cpu, m.cores, config.verifier.kernel_timeout_s
    );
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", out.display())))?;
    let path = out.join("repo.md");
    std::fs::write(&path, doc)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
    eprintln!("wrote {}", path.display());
    Ok(0)
}
