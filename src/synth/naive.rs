//! The naive baseline of the AutoSync paper (Sec. IV-B).

use super::units::build_units;
use super::{BarrierKind, SynthOptions, SynthStats};
use crate::config::Ratio;
use crate::kpl::{Kernel, Label};
use crate::maxsat::{MaxSat, Var};
use crate::verify::Oracle;
use std::collections::BTreeSet;
use std::time::Instant;

/// The naive baseline (AutoSync Sec. IV-B): a barrier at every site, drop the divergent ones,
/// then remove one site at a time unless that makes the oracle complain. Returns the kernel, the
/// labels that took a barrier and the cost, or `None` when even all sites leave a race.
pub fn naive(
    kernel: &Kernel,
    oracle: &mut dyn Oracle,
    opts: &SynthOptions,
) -> (Option<(Kernel, Vec<Label>, Ratio)>, SynthStats) {
    let started = Instant::now();
    let q0 = oracle.stats().smt_queries;
    let mut stats = SynthStats::default();
    let mut solver = MaxSat::new(opts.engine);
    let kernels = std::slice::from_ref(kernel);
    // One barrier kind: the naive baseline is the paper's.
    let opts = SynthOptions { warp: false, ..opts.clone() };
    let (units, sites) = build_units(kernels, &opts, &[], &mut solver);
    let Some(unit) = units.first() else { return (None, stats) };
    let mut chosen: Vec<Var> = sites.members.keys().copied().collect();
    // The candidate kernel and, per inserted barrier, the site it stands for.
    let build = |chosen: &[Var]| unit.with_barriers(&chosen.iter().copied().collect());
    // Drop divergent barriers (their sites) until none diverges.
    loop {
        let (k, barriers) = build(&chosen);
        let v = oracle.check(&k);
        stats.oracle_calls += 1;
        if v.divergences.is_empty() {
            if !v.races.is_empty() {
                stats.total_time = started.elapsed();
                stats.smt_queries = oracle.stats().smt_queries - q0;
                return (None, stats);
            }
            break;
        }
        let bad: BTreeSet<Var> = v
            .divergences
            .iter()
            .filter_map(|d| barriers.iter().find(|(_, b)| *b == d.barrier).map(|(site, _)| *site))
            .collect();
        if bad.is_empty() {
            stats.total_time = started.elapsed();
            return (None, stats);
        }
        chosen.retain(|v| !bad.contains(v));
    }
    let mut i = 0;
    while i < chosen.len() {
        let mut trial = chosen.clone();
        trial.remove(i);
        let v = oracle.check(&build(&trial).0);
        stats.oracle_calls += 1;
        if v.is_clean() {
            chosen = trial;
        } else {
            i += 1;
        }
    }
    let set: BTreeSet<Var> = chosen.iter().copied().collect();
    let labels = unit.labels_at(&set, BarrierKind::Block);
    let cost = unit.cost_of(&labels, BarrierKind::Block);
    stats.total_time = started.elapsed();
    stats.smt_queries = oracle.stats().smt_queries - q0;
    (Some((build(&chosen).0, labels, cost)), stats)
}
