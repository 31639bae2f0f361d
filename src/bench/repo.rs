//! `autosync bench --repo`: `check` over a repository-scale corpus in one run — the test corpora
//! and benchmarks (every `.cu`/`.cuh`/`.kpl` under the directories given) plus generated kernels
//! of the scaling families — through the driver exactly as `autosync check DIRS` runs them
//! (default budget per kernel, `-j` threads), timing each file. The report gives the time per
//! file (median, p95, max), the whole run's wall time and the slowest files, and what the CUDA
//! front end alone costs per file (clang and the model, one file at a time: median, p95, max).

use super::scale::Family;
use crate::config::Config;
use crate::driver::check::{check_file, CheckOptions};
use crate::driver::output::{run_files, Tally};
use crate::driver::{Budget, Format, LaunchOptions, Plan};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The sizes the scaling families are generated at for the corpus.
const GENERATED_SIZES: [usize; 4] = [5, 10, 20, 40];

/// One file's outcome.
#[derive(Clone, Debug)]
pub struct RepoRow {
    pub file: String,
    pub kernels: usize,
    /// 0 ok, 1 findings, 2 bad input.
    pub code: u8,
    /// Kernels with an undecided question (the budget ran out, or the solver gave up).
    pub undecided: usize,
    /// Wall time of the file's analysis, in milliseconds.
    pub ms: f64,
}

/// The whole run.
pub struct RepoRun {
    pub rows: Vec<RepoRow>,
    pub tally: Tally,
    pub wall_s: f64,
    pub threads: usize,
    /// Per CUDA file, the front end's parse alone: (clang's ms, clang and the model's ms).
    pub parse_ms: Vec<(f64, f64)>,
}

/// Writes the generated kernels (every scaling family at [`GENERATED_SIZES`]) into `dir` and
/// returns their paths.
pub fn generate(dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    // A family that synthesizes another's kernels under other options adds no file to check.
    for f in Family::ALL.into_iter().filter(|f| f.kernels_of() == *f) {
        for n in GENERATED_SIZES {
            let path = dir.join(format!("{}_{n}.cu", f.name()));
            std::fs::write(&path, f.source(n))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            files.push(path);
        }
    }
    Ok(files)
}

/// Checks `paths` (files and directories) in one run on `threads` threads (0: one per core),
/// each kernel under `budget`.
pub fn run(paths: &[PathBuf], config: &Config, threads: usize, budget: Budget) -> Result<RepoRun, String> {
    let plan = Arc::new(Plan::new(paths, LaunchOptions::default(), None).map_err(|f| format!("{f:?}"))?);
    let opts = CheckOptions { format: Format::Json, budget, ..CheckOptions::default() };
    let times: Arc<Mutex<Vec<(PathBuf, f64)>>> = Arc::new(Mutex::new(Vec::new()));
    let (in_work, config, timed) = (plan.clone(), config.clone(), times.clone());
    let work = Arc::new(move |path: &Path| {
        let started = std::time::Instant::now();
        let r = check_file(path, &in_work, &opts, &config);
        if let Ok(mut t) = timed.lock() {
            t.push((path.to_path_buf(), started.elapsed().as_secs_f64() * 1e3));
        }
        r
    });
    static NEVER: AtomicBool = AtomicBool::new(false);
    let finished = run_files(&plan.files, threads, work, &NEVER, |_| {}).map_err(|f| format!("{f:?}"))?;
    let times = times.lock().map(|t| t.clone()).unwrap_or_default();
    let rows = plan
        .files
        .iter()
        .zip(&finished.results)
        .map(|(path, r)| RepoRow {
            file: path.display().to_string(),
            kernels: r.tally.kernels,
            code: r.code,
            undecided: r.tally.undecided,
            ms: times.iter().find(|(p, _)| p == path).map_or(f64::NAN, |(_, ms)| *ms),
        })
        .collect();
    Ok(RepoRun {
        rows,
        tally: finished.tally,
        wall_s: finished.elapsed.as_secs_f64(),
        threads: super::worker_threads(threads),
        parse_ms: parse_times(&plan.files),
    })
}

/// The CUDA front end's parse of each `.cu`/`.cuh` file alone, one at a time (the latency a
/// user waits for before any checking): clang's time, and clang's plus the model's. Files clang
/// cannot parse at all are left out.
fn parse_times(files: &[PathBuf]) -> Vec<(f64, f64)> {
    let Ok(exe) = crate::cuda::find_clang(None) else { return Vec::new() };
    let options = crate::cuda::ParseOptions::default();
    files
        .iter()
        .filter(|f| crate::driver::load::is_cuda_path(f))
        .filter_map(|f| crate::cuda::parse_file(&exe, f, &options).ok())
        .map(|p| {
            let clang = p.stats.clang_time.as_secs_f64() * 1e3;
            (clang, clang + p.stats.model_time.as_secs_f64() * 1e3)
        })
        .collect()
}

/// The `q`-quantile (nearest rank) of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The report: counts, time per file (median, p95, max), wall time, the slowest files.
pub fn markdown(run: &RepoRun) -> String {
    let mut ms: Vec<f64> = run.rows.iter().map(|r| r.ms).filter(|m| m.is_finite()).collect();
    ms.sort_by(f64::total_cmp);
    let t = &run.tally;
    let count = |code: u8| run.rows.iter().filter(|r| r.code == code).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} files, {} kernels in one `check` run on {} thread(s): wall {:.1} s.\n",
        run.rows.len(),
        t.kernels,
        run.threads,
        run.wall_s
    );
    let _ = writeln!(
        s,
        "Files: {} ok, {} with findings, {} unsupported or bad input; kernels: {} clean, {} undecided.\n",
        count(0),
        count(1),
        count(2),
        t.clean,
        t.undecided
    );
    let _ = writeln!(
        s,
        "Time per file: median {:.0} ms, p95 {:.0} ms, max {:.0} ms (sum {:.1} s).\n",
        quantile(&ms, 0.5),
        quantile(&ms, 0.95),
        ms.last().copied().unwrap_or(f64::NAN),
        ms.iter().sum::<f64>() / 1e3
    );
    let sorted = |pick: fn(&(f64, f64)) -> f64| {
        let mut v: Vec<f64> = run.parse_ms.iter().map(pick).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let (clang, total) = (sorted(|p| p.0), sorted(|p| p.1));
    let _ = writeln!(
        s,
        "CUDA front end alone, per file ({} files, one at a time): clang and the model median {:.0} ms, \
         p95 {:.0} ms, max {:.0} ms; clang alone median {:.0} ms, p95 {:.0} ms.\n",
        total.len(),
        quantile(&total, 0.5),
        quantile(&total, 0.95),
        total.last().copied().unwrap_or(f64::NAN),
        quantile(&clang, 0.5),
        quantile(&clang, 0.95)
    );
    let mut slow: Vec<&RepoRow> = run.rows.iter().collect();
    slow.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    s.push_str("Slowest files:\n\n| File | Kernels | Exit | Undecided | ms |\n|---|--:|--:|--:|--:|\n");
    for r in slow.iter().take(10) {
        let _ = writeln!(s, "| {} | {} | {} | {} | {:.0} |", r.file, r.kernels, r.code, r.undecided, r.ms);
    }
    s
}
