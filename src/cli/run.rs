//! `autosync run`: execute a kernel with the reference interpreter on concrete sizes.

use super::{Failure, LaunchArgs, EXIT_FINDINGS};
use autosync::config::Config;
use autosync::diag::Diagnostic;
use autosync::driver::load::{load, Loaded};
use autosync::driver::report::{is_syncwarp, stmt_span};
use autosync::kpl::{Kernel, StmtKind};
use clap::Args;
use std::path::PathBuf;

/// Options of `autosync run`.
#[derive(Args)]
pub struct RunArgs {
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
}

/// Runs every kernel of the file; exit 1 when a race or divergence was observed.
pub fn run(args: RunArgs, config: &Config) -> Result<u8, Failure> {
    let RunArgs { file, launch, seed, params } = args;
    let loaded = load(&file, &launch.options(), config)?;
    for w in &loaded.warnings {
        eprint!("{w}");
    }
    // A misspelt name would silently leave the real parameter at its seeded default.
    let mut values: Vec<(String, u32)> = Vec::new();
    for p in &params {
        let name = p.split_once('=').map_or(p.as_str(), |(n, _)| n).trim();
        if !loaded.kernels.iter().any(|k| k.params.iter().any(|q| q == name)) {
            let known: Vec<&str> =
                loaded.kernels.iter().flat_map(|k| k.params.iter().map(String::as_str)).collect();
            return Err(Failure::Usage(format!(
                "--param `{p}`: no kernel of {} has a parameter `{name}` ({})",
                loaded.name,
                if known.is_empty() {
                    "it has no scalar parameters".to_string()
                } else {
                    format!("its parameters: {}", known.join(", "))
                }
            )));
        }
        let (_, v) =
            p.split_once('=').ok_or_else(|| Failure::Usage(format!("--param `{p}`: expected NAME=VALUE")))?;
        let v: i64 =
            v.trim().parse().map_err(|_| Failure::Usage(format!("--param `{p}`: `{v}` is not a number")))?;
        values.push((name.to_string(), v as u32));
    }
    let mut found = false;
    for k in &loaded.kernels {
        let (Some(block_dim), grid_dim) = (k.geometry.block_dim, k.geometry.grid_dim.unwrap_or([1, 1, 1]))
        else {
            return Err(Failure::Usage(
                "`run` needs concrete sizes: give --block-dim (and --grid-dim) or a //--blockDim= header"
                    .into(),
            ));
        };
        let mut cfg = autosync::interp::RunConfig::new(block_dim, grid_dim);
        cfg.seed = seed;
        cfg.params.extend(values.iter().cloned());
        let report =
            autosync::interp::run(k, &cfg).map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
        found |= report_run(&loaded, k, &report);
    }
    Ok(if found { EXIT_FINDINGS } else { 0 })
}

/// Prints what an interpreter run observed; true when it saw a race or divergence.
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
        eprint!("{}", k.locate(d).render(&loaded.name, &loaded.source));
    }
    for dv in &report.divergences {
        let named = k
            .stmt(dv.barrier)
            .is_some_and(|s| matches!(s.kind, StmtKind::NamedBarrier { .. } | StmtKind::NamedWait { .. }));
        if named {
            let d = Diagnostic::error(
                "named barrier mismatch observed (a count that does not match, a wait that never returns, or an arrival that runs ahead)",
                stmt_span(k, dv.barrier),
            )
            .with_label(format!(
                "thread {:?} of block {:?} here; thread {:?} never joins the instance concerned",
                dv.enabled_thread, dv.block, dv.disabled_thread
            ));
            eprint!("{}", k.locate(d).render(&loaded.name, &loaded.source));
            continue;
        }
        let what = if is_syncwarp(k, dv.barrier) {
            "warp barrier divergence observed (within one warp)"
        } else if dv.enabled_block != dv.block {
            "grid barrier divergence observed (some blocks reach it, others do not)"
        } else {
            "barrier divergence observed"
        };
        let d = Diagnostic::error(what, stmt_span(k, dv.barrier)).with_label(format!(
            "thread {:?} of block {:?} reached it, thread {:?} of block {:?} did not",
            dv.enabled_thread, dv.enabled_block, dv.disabled_thread, dv.block
        ));
        eprint!("{}", k.locate(d).render(&loaded.name, &loaded.source));
    }
    if let Some((l, b, t)) = report.unscheduled {
        let d = Diagnostic::warning(
            "the run shows nothing: this named barrier wait was passed before its instance completed, which happened later",
            stmt_span(k, l),
        )
        .with_label(format!("thread {t:?} of block {b:?}"))
        .with_note("the interpreter's lock-step order is no schedule of this kernel (a thread would block here)");
        eprint!("{}", k.locate(d).render(&loaded.name, &loaded.source));
    }
    if let Some((l, b, t)) = report.infeasible {
        let d = Diagnostic::warning("the run shows nothing: this assumption fails", stmt_span(k, l))
            .with_label(format!("for thread {t:?} of block {b:?}"));
        eprint!("{}", k.locate(d).render(&loaded.name, &loaded.source));
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
