//! Differential property tests: the reference interpreter (`autosync::interp`) against the z3
//! oracle and the synthesis, on generated kernels (`prop/gen.rs`) and on the kept regressions
//! (`prop/regressions/*.kpl`).
//!
//! - **soundness**: every race (label pair in program order, array, scope, and for block races
//!   the case: same iteration, or carried by which loop in which direction) and every divergent
//!   barrier a run observes is reported by `Z3Oracle::check` for the same geometry;
//! - **synthesis**: `synthesize` on the kernel without its barriers gives `Done`, and runs of the
//!   result observe no race (but the benign ones the oracle warns about) and no divergence; an
//!   `Impossible` names reasons, which runs of the barrier-free kernel confirm where they can;
//! - **optimality**: with at most 10 placeable labels, the synthesized cost is the least cost of
//!   any placement the oracle accepts (brute force over all subsets).
//!
//! Cases: `AUTOSYNC_PROP_CASES` (default 16 per property, what `make test` runs; `make test-slow`
//! runs 64, `make fuzz` 3000), seed `AUTOSYNC_PROP_SEED` (default
//! fixed). Runs that go out of bounds or hit the step bound are skipped and counted.
//!
//! Eleven of the 27 generated geometries use warp-sync (`--warp-sync=W`, docs/semantics.md):
//! warps of 32 with blocks of 32 to 128 threads, and warps of 4 or 8 with small blocks so that
//! several warps exist. Both sides then follow the re-sync semantics; the oracle may over-report
//! (it claims re-synchronization only in the cases it can prove), so the properties are the same.
//!
//! Generated kernels also hold `syncwarp;` statements (warp barriers: warps of 32, or of W under
//! warp-sync); the synthesis keeps them, so a divergent one makes it `Impossible`
//! (`Unfixable::DivergentBarrier`). Likewise `gridsync;` (grid barriers: they order threads of
//! different blocks too, and diverge when blocks disagree on reaching them) and block-scope
//! atomics (`atomic block add`: not atomic between blocks).
//!
//! The soundness property's kernels also hold named barriers (`bar sync id, n`, `bar arrive`,
//! `bar wait`; docs/semantics.md, "Named barriers"): barriers of the first warps of the block,
//! hand-overs between warps, counts right or wrong. Runs whose lock-step order is no schedule
//! (`RunReport::unscheduled`) are skipped and counted; a named barrier's divergence counts as
//! reported when the oracle reports a problem of the same barrier id (each side names one
//! statement of it: the oracle the one its first failing check concerns, the interpreter the
//! one the run shows it at). So do the kernels of the synthesis property under `fix`'s options:
//! a named barrier that may not match stays (synthesis never moves one) and must be listed in
//! `remaining`. The other synthesis properties' kernels have none (a mismatch makes the strict
//! synthesis `Impossible`, which they do not compare).

mod gen;

use autosync::config::Ratio;
use autosync::interp::{self, RunConfig, RunReport, Scope as IScope};
use autosync::kpl::{self, Geometry, Kernel, Label, LabelTree, StmtKind};
use autosync::synth::{self, SynthOptions, Synthesis, Unfixable};
use autosync::verify::{Oracle, OracleOptions, Relation, Scope, Verdict, Z3Oracle};
use gen::{arb_kernel, GenKernel};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::RefCell;
use std::path::Path;

/// Interpreter seeds per kernel. The last one runs with large parameters (`n`, `m` near 2^31 and
/// 2^32), where index arithmetic on them wraps.
const SEEDS: u64 = 4;

fn cases() -> u32 {
    std::env::var("AUTOSYNC_PROP_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(16)
}

fn runner() -> TestRunner {
    let config = Config { cases: cases(), failure_persistence: None, ..Config::default() };
    let seed: u64 = std::env::var("AUTOSYNC_PROP_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// What the properties saw, printed at the end of each property.
#[derive(Debug, Default)]
struct Stats {
    kernels: u64,
    /// Kernels with a warp-sync geometry, and the races their runs observed.
    warp_kernels: u64,
    warp_races: u64,
    runs: u64,
    skipped_oob: u64,
    skipped_truncated: u64,
    races_checked: u64,
    divergences_checked: u64,
    done: u64,
    impossible: u64,
    reasons_confirmed: u64,
    reasons_unconfirmed: u64,
    too_many_labels: u64,
    brute_force_checks: u64,
    /// Runs also checked against the verdict for a symbolic launch (launch-shape inference).
    symbolic_runs: u64,
    /// Runs whose index arithmetic wrapped (outside the default no-wrap assumption): checked
    /// against the `--wrap` verdict by soundness, skipped by synthesis.
    wrapped_runs: u64,
    /// Warp barriers (`syncwarp`) in synthesized kernels (the `fix` options: warp barriers on).
    syncwarps_placed: u64,
    /// Races a partial synthesis left and listed in `remaining` (the `fix` options).
    listed_remaining: u64,
    /// Out-of-bounds accesses runs executed, each checked to be among the oracle's findings.
    oob_checked: u64,
    /// Kernels with named barriers, their runs compared (usable and scheduled), the races and
    /// named barrier divergences those runs observed.
    named_kernels: u64,
    named_runs: u64,
    named_races: u64,
    named_divergences: u64,
    /// Runs whose lock-step order is no schedule (`RunReport::unscheduled`): skipped.
    skipped_unscheduled: u64,
}

fn parse(src: &str) -> Result<Kernel, TestCaseError> {
    kpl::parse(src).map_err(|d| TestCaseError::fail(format!("generated kernel does not parse: {d:?}\n{src}")))
}

fn oracle_options(k: &Kernel) -> OracleOptions {
    OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: 10_000,
        strict: false,
        ..OracleOptions::default()
    }
}

fn oracle_for(k: &Kernel) -> Z3Oracle {
    Z3Oracle::new(oracle_options(k))
}

fn stripped(k: &Kernel) -> Kernel {
    let mut s = k.clone();
    let all = s.barriers();
    s.remove_barriers(&all);
    s
}

/// Runs `k` on its header geometry with seed `seed` (parameters `n`, `m` small and seeded).
fn run(k: &Kernel, seed: u64) -> Result<RunReport, TestCaseError> {
    let cfg =
        RunConfig::new(k.geometry.block_dim.unwrap_or([1, 1, 1]), k.geometry.grid_dim.unwrap_or([1, 1, 1]))
            .with_seed(seed)
            .with_param("n", if seed == 3 { 0x7fff_fffe } else { (seed * 7 % 5) as u32 })
            .with_param("m", if seed == 3 { 0xffff_fffd } else { (seed * 3 % 4) as u32 })
            // A truncated run is skipped, so the bound only decides how long a run that loops on
            // runs before it is dropped: on 64 cases the same runs complete under 20 000 steps as
            // under 200 000 (the generated loops are short but for the huge `n`, `m` of seed 3).
            .with_max_steps(20_000);
    interp::run(k, &cfg).map_err(|e| TestCaseError::fail(format!("interpreter error: {e}")))
}

/// Whether a run is usable: no out-of-bounds access, not truncated, its lock-step order a
/// schedule (counted otherwise).
fn usable(r: &RunReport, stats: &mut Stats) -> bool {
    stats.runs += 1;
    if r.unscheduled.is_some() {
        stats.skipped_unscheduled += 1;
        return false;
    }
    if !r.out_of_bounds.is_empty() {
        stats.skipped_oob += 1;
        return false;
    }
    if r.truncated {
        stats.skipped_truncated += 1;
        return false;
    }
    true
}

/// A label pair in the oracle's convention: program (post-)order.
fn ordered(tree: &LabelTree, a: Label, b: Label) -> (Label, Label) {
    if tree.order(a) <= tree.order(b) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Counts a checked kernel (and whether it runs under warp-sync, or has named barriers).
fn count_kernel(k: &Kernel, stats: &mut Stats) {
    stats.kernels += 1;
    stats.warp_kernels += u64::from(k.geometry.warp_sync.is_some());
    stats.named_kernels += u64::from(!kpl::named::ids(k).is_empty());
}

/// Counts a compared run of a kernel with named barriers, with what it observed.
fn count_named_run(k: &Kernel, r: &RunReport, stats: &mut Stats) {
    if !kpl::named::ids(k).is_empty() {
        stats.named_runs += 1;
        stats.named_races += r.races.len() as u64;
        stats.named_divergences +=
            r.divergences.iter().filter(|d| named_id(k, d.barrier).is_some()).count() as u64;
    }
}

/// The id of the named barrier statement `l` (`None`: another statement).
fn named_id(k: &Kernel, l: Label) -> Option<u32> {
    match k.stmt(l).map(|s| &s.kind) {
        Some(StmtKind::NamedBarrier { id, .. } | StmtKind::NamedWait { id, .. }) => Some(*id),
        _ => None,
    }
}

/// Whether the oracle's divergence `o` reports the run's divergence `d`: the same statement, or
/// for a named barrier the same id — the oracle reports one problem per named barrier, at the
/// statement its first failing check names (the first joining statement for a count, the
/// arrival for an overrun), the interpreter where the run shows it (a wait that hangs, say).
fn reports(k: &Kernel, o: &autosync::verify::Divergence, d: &autosync::interp::DynDivergence) -> bool {
    o.barrier == d.barrier
        || (o.named.is_some() && named_id(k, d.barrier).is_some_and(|id| named_id(k, o.barrier) == Some(id)))
}

/// Counts the races a warp-sync run observed (so a report shows the warp cases are exercised).
fn count_warp_races(k: &Kernel, r: &RunReport, stats: &mut Stats) {
    if k.geometry.warp_sync.is_some() {
        stats.warp_races += r.races.len() as u64;
    }
}

/// Every race and divergence of `r` must be in `v`. Returns the first one that is not.
fn unreported(k: &Kernel, tree: &LabelTree, r: &RunReport, v: &Verdict, stats: &mut Stats) -> Option<String> {
    let name = |l: Label| k.label_name(l).to_string();
    for race in &r.races {
        stats.races_checked += 1;
        let (a, b) = ordered(tree, race.first, race.second);
        let scope = match race.scope {
            IScope::Block => Scope::Block,
            IScope::Grid => Scope::Grid,
            IScope::Copy => Scope::Copy,
        };
        let candidates = v.races.iter().chain(if race.same_value { v.benign.iter() } else { [].iter() });
        let found = candidates
            .filter(|o| o.first == a && o.second == b && o.array == race.array && o.scope == scope)
            .any(|o| {
                scope == Scope::Grid
                    || o.cases.iter().any(|c| match (race.separating_loop(), c.case.relation) {
                        (None, Relation::SameIteration) => true,
                        (Some(l), Relation::Carried { shared_loop, .. }) => {
                            shared_loop == l && c.case.first == race.first && c.case.second == race.second
                        }
                        _ => false,
                    })
            });
        if !found {
            return Some(format!(
                "race not reported by the oracle: {} / {} on {} ({:?}, separating loop {:?}){}\nrun: {}\noracle: {:#?}",
                name(race.first),
                name(race.second),
                race.array,
                race.scope,
                race.separating_loop().map(name),
                if race.same_value { " same value" } else { "" },
                r.render(k),
                v
            ));
        }
    }
    for d in &r.divergences {
        stats.divergences_checked += 1;
        if !v.divergences.iter().any(|o| reports(k, o, d)) {
            return Some(format!(
                "divergent barrier {} not reported by the oracle\nrun: {}\noracle: {:#?}",
                name(d.barrier),
                r.render(k),
                v
            ));
        }
    }
    None
}

/// The first out-of-bounds access of run `r` that verdict `v` does not report (by label and
/// array), as a failure message.
fn unreported_oob(k: &Kernel, r: &RunReport, v: &Verdict, stats: &mut Stats) -> Option<String> {
    for (label, array, index) in &r.out_of_bounds {
        stats.oob_checked += 1;
        if !v.out_of_bounds.iter().any(|o| o.label == *label && o.array == *array) {
            return Some(format!(
                "out-of-bounds access not reported by the oracle: {} on {array} at element {index}\nrun: {}\noracle: {:#?}",
                k.label_name(*label),
                r.render(k),
                v
            ));
        }
    }
    None
}

/// Property (a) on one kernel.
fn soundness(src: &str, stats: &mut Stats) -> Result<(), TestCaseError> {
    let k = parse(src)?;
    count_kernel(&k, stats);
    let tree = LabelTree::new(&k);
    let v = oracle_for(&k).check(&k);
    // The same kernel under a symbolic launch (launch-shape inference on): its verdict must cover
    // every run whose geometry has the inferred shape (a dimension assumed 1 is 1 in the run).
    let symbolic = Geometry { block_dim: None, grid_dim: None, warp_sync: k.geometry.warp_sync };
    let sym_opts =
        OracleOptions { geometry: symbolic, timeout_ms: 10_000, strict: false, ..OracleOptions::default() };
    let shape = sym_opts.shape_of(&k);
    let fits = |dims: Option<[u32; 3]>, free: [bool; 3]| {
        let d = dims.unwrap_or([1, 1, 1]);
        (0..3).all(|i| free[i] || d[i] == 1)
    };
    let sym_v = (fits(k.geometry.block_dim, shape.block) && fits(k.geometry.grid_dim, shape.grid))
        .then(|| Z3Oracle::new(sym_opts).check(&k));
    let mut wrap_v: Option<Verdict> = None;
    let wrap_verdict = |slot: &mut Option<Verdict>| -> Verdict {
        slot.get_or_insert_with(|| {
            Z3Oracle::new(OracleOptions { wrap: true, ..oracle_options(&k) }).check(&k)
        })
        .clone()
    };
    for seed in 0..SEEDS {
        let r = run(&k, seed)?;
        // Every out-of-bounds access a run executes is reported, whatever else the run did (a
        // truncated run executed it too); a run whose index arithmetic wrapped, by `--wrap`.
        if !r.out_of_bounds.is_empty() {
            if r.index_wrapped.is_some() {
                let wv = wrap_verdict(&mut wrap_v);
                if let Some(msg) = unreported_oob(&k, &r, &wv, stats) {
                    return Err(TestCaseError::fail(format!("seed {seed}, --wrap: {msg}")));
                }
            } else {
                if let Some(msg) = unreported_oob(&k, &r, &v, stats) {
                    return Err(TestCaseError::fail(format!("seed {seed}: {msg}")));
                }
                if let Some(sv) = &sym_v {
                    if let Some(msg) = unreported_oob(&k, &r, sv, stats) {
                        return Err(TestCaseError::fail(format!("seed {seed}, symbolic launch: {msg}")));
                    }
                }
            }
        }
        if !usable(&r, stats) {
            continue;
        }
        count_warp_races(&k, &r, stats);
        if r.index_wrapped.is_some() {
            // Outside the default assumption: such a run is covered by the `--wrap` verdict only.
            stats.wrapped_runs += 1;
            let wv = &wrap_verdict(&mut wrap_v);
            if let Some(msg) = unreported(&k, &tree, &r, wv, stats) {
                return Err(TestCaseError::fail(format!("seed {seed}, --wrap: {msg}")));
            }
            continue;
        }
        count_named_run(&k, &r, stats);
        if let Some(msg) = unreported(&k, &tree, &r, &v, stats) {
            return Err(TestCaseError::fail(format!("seed {seed}: {msg}")));
        }
        if let Some(sv) = &sym_v {
            stats.symbolic_runs += 1;
            if let Some(msg) = unreported(&k, &tree, &r, sv, stats) {
                return Err(TestCaseError::fail(format!("seed {seed}, symbolic launch ({shape:?}): {msg}")));
            }
        }
    }
    Ok(())
}

/// Property (b) on one kernel.
fn synthesis(src: &str, stats: &mut Stats) -> Result<(), TestCaseError> {
    synthesis_with(src, stats, &SynthOptions::default())
}

/// Property (b) under the options `fix` uses: warp barriers on, partial fixes, divergent
/// barriers repaired. Every race a run of the result observes is either separated or listed in
/// `remaining`, and no barrier of either kind diverges, under independent thread scheduling.
fn synthesis_as_fix(src: &str, stats: &mut Stats) -> Result<(), TestCaseError> {
    let opts = SynthOptions { partial: true, keep_barriers: false, warp: true, ..SynthOptions::default() };
    synthesis_with(src, stats, &opts)
}

fn synthesis_with(src: &str, stats: &mut Stats, opts: &SynthOptions) -> Result<(), TestCaseError> {
    let k = stripped(&parse(src)?);
    count_kernel(&k, stats);
    let mut o = oracle_for(&k);
    let (res, _) = synth::synthesize(&k, &mut o, opts)
        .map_err(|e| TestCaseError::fail(format!("synthesis error: {e}")))?;
    match res {
        Synthesis::Done { kernel, warnings, remaining, .. } => {
            stats.done += 1;
            stats.syncwarps_placed += kernel.syncwarps().len() as u64;
            let tree = LabelTree::new(&kernel);
            for seed in 0..SEEDS {
                let r = run(&kernel, seed)?;
                if !usable(&r, stats) {
                    continue;
                }
                if r.index_wrapped.is_some() {
                    // The synthesis answers for the executions the default oracle checks.
                    stats.wrapped_runs += 1;
                    continue;
                }
                count_warp_races(&kernel, &r, stats);
                stats.divergences_checked += r.divergences.len() as u64;
                // A divergent barrier of the input that stays (a `syncwarp` or a named barrier,
                // which synthesis does not move) is listed in `remaining`.
                let kept = |d: &autosync::interp::DynDivergence| {
                    remaining.iter().any(|u| {
                        matches!(u, Unfixable::DivergentBarrier { divergence } if reports(&kernel, divergence, d))
                    })
                };
                if r.divergences.iter().any(|d| !kept(d)) {
                    return Err(TestCaseError::fail(format!(
                        "synthesized kernel diverges (seed {seed}):\n{}\n{}",
                        kpl::print(&kernel),
                        r.render(&kernel)
                    )));
                }
                for race in &r.races {
                    stats.races_checked += 1;
                    let (a, b) = ordered(&tree, race.first, race.second);
                    let benign = race.same_value
                        && race.scope == IScope::Block
                        && warnings
                            .benign
                            .iter()
                            .any(|w| w.first == a && w.second == b && w.array == race.array);
                    // Grid-level races are left (and listed) by design: no barrier orders blocks;
                    // under `partial`, so are block-level races no barrier separates.
                    let listed = if race.scope == IScope::Grid {
                        remaining.iter().any(
                            |u| matches!(u, Unfixable::GridRace { race: g } if (g.first, g.second) == (a, b)),
                        )
                    } else if race.scope == IScope::Copy {
                        // Only a wait fixes a thread's race with its own copy: left and listed.
                        remaining.iter().any(
                            |u| matches!(u, Unfixable::CopyInFlight { race: g } if (g.first, g.second) == (a, b)),
                        )
                    } else {
                        opts.partial
                            && remaining.iter().any(|u| match u {
                                Unfixable::SelfRace { race: r }
                                | Unfixable::InOneStatement { race: r }
                                | Unfixable::NoValidPosition { race: r, .. }
                                | Unfixable::CopyInFlight { race: r }
                                | Unfixable::Undecided { race: r } => (r.first, r.second) == (a, b),
                                _ => false,
                            })
                    };
                    stats.listed_remaining += u64::from(listed && race.scope == IScope::Block);
                    if !benign && !listed {
                        return Err(TestCaseError::fail(format!(
                            "synthesized kernel races (seed {seed}):\n{}\n{}",
                            kpl::print(&kernel),
                            r.render(&kernel)
                        )));
                    }
                }
            }
        }
        Synthesis::Impossible { reasons } => {
            stats.impossible += 1;
            if reasons.is_empty() {
                return Err(TestCaseError::fail("Impossible without a reason"));
            }
            let tree = LabelTree::new(&k);
            let mut runs = Vec::new();
            for seed in 0..SEEDS {
                let r = run(&k, seed)?;
                if usable(&r, stats) {
                    runs.push(r);
                }
            }
            for reason in &reasons {
                let confirmed = runs.iter().any(|r| {
                    r.races.iter().any(|x| {
                        let pair = ordered(&tree, x.first, x.second);
                        match reason {
                            Unfixable::SelfRace { race } => {
                                x.scope == IScope::Block
                                    && x.first == race.first
                                    && x.second == race.first
                                    && x.separating_loop().is_none()
                            }
                            Unfixable::GridRace { race } => {
                                x.scope == IScope::Grid && pair == (race.first, race.second)
                            }
                            Unfixable::NoValidPosition { race, .. } | Unfixable::InOneStatement { race } => {
                                x.scope == IScope::Block && pair == (race.first, race.second)
                            }
                            Unfixable::CopyInFlight { race } => {
                                matches!(x.scope, IScope::Block | IScope::Copy)
                                    && pair == (race.first, race.second)
                            }
                            // Not a race; synthesis starts from barrier-free kernels here, so
                            // this reason does not occur (counted as unconfirmed if it does).
                            Unfixable::DivergentBarrier { .. } => false,
                            Unfixable::Undecided { race } => pair == (race.first, race.second),
                            // Not a race, and never a reason of `Impossible` (only of `remaining`).
                            Unfixable::OutOfBounds { .. } => false,
                        }
                    })
                });
                if confirmed {
                    stats.reasons_confirmed += 1;
                } else {
                    stats.reasons_unconfirmed += 1;
                }
            }
        }
        Synthesis::GaveUp { iterations } => {
            return Err(TestCaseError::fail(format!("synthesis gave up after {iterations} iterations")))
        }
    }
    Ok(())
}

/// `a < b` as rationals.
fn less(a: &Ratio, b: &Ratio) -> bool {
    &a.num * &b.den < &b.num * &a.den
}

/// Property (c) on one kernel.
fn optimality(src: &str, stats: &mut Stats) -> Result<(), TestCaseError> {
    let k = stripped(&parse(src)?);
    let tree = LabelTree::new(&k);
    let opts = SynthOptions::default();
    let placeable: Vec<Label> = tree
        .post_order()
        .iter()
        .copied()
        .filter(|&l| l != Label::MAIN && k.place(l).is_placeable())
        .filter(|&l| !matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Barrier)))
        .collect();
    if placeable.len() > 10 {
        // Brute force over more than 2^10 subsets is too slow: the case is rejected and
        // proptest generates another one (every counted case is compared).
        stats.too_many_labels += 1;
        return Err(TestCaseError::reject("more than 10 barrier positions"));
    }
    count_kernel(&k, stats);
    let (res, _) = synth::synthesize(&k, &mut oracle_for(&k), &opts)
        .map_err(|e| TestCaseError::fail(format!("synthesis error: {e}")))?;
    let synthesized = match res {
        Synthesis::Done { cost, .. } => {
            stats.done += 1;
            Some(cost)
        }
        Synthesis::Impossible { .. } => {
            stats.impossible += 1;
            None
        }
        Synthesis::GaveUp { iterations } => {
            return Err(TestCaseError::fail(format!("synthesis gave up after {iterations} iterations")))
        }
    };
    let cost_of = |l: Label| opts.cost.cost(tree.loops(l).len(), tree.conds(l).len());
    let mut subsets: Vec<(Ratio, u32)> = (0u32..1 << placeable.len())
        .map(|m| {
            let c = (0..placeable.len())
                .filter(|i| m >> i & 1 == 1)
                .fold(Ratio::new(0, 1), |acc, i| acc.plus(&cost_of(placeable[i])));
            (c, m)
        })
        .collect();
    subsets.sort_by(|x, y| (&x.0.num * &y.0.den).cmp(&(&y.0.num * &x.0.den)).then(x.1.cmp(&y.1)));
    let mut brute = oracle_for(&k);
    let mut best: Option<(Ratio, u32)> = None;
    for (c, m) in subsets {
        if let Some(s) = &synthesized {
            // Only cheaper placements can contradict the optimum; the synthesized one is accepted.
            if !less(&c, s) {
                break;
            }
        }
        let mut cand = k.clone();
        for (i, l) in placeable.iter().enumerate() {
            if m >> i & 1 == 1 {
                cand.insert_barrier_after(*l);
            }
        }
        stats.brute_force_checks += 1;
        let v = brute.check(&cand);
        if v.is_clean() {
            best = Some((c, m));
            break;
        }
    }
    match (&synthesized, best) {
        (_, Some((c, m))) => {
            let names: Vec<&str> = (0..placeable.len())
                .filter(|i| m >> i & 1 == 1)
                .map(|i| k.label_name(placeable[i]))
                .collect();
            Err(TestCaseError::fail(format!(
                "the oracle accepts barriers after {names:?} at cost {c}, cheaper than synthesis ({synthesized:?})"
            )))
        }
        (Some(_), None) | (None, None) => Ok(()),
    }
}

/// Runs `prop` on `cases()` generated kernels of at most `max_toks` tokens, with named barriers
/// when `named`.
fn check(
    name: &str,
    max_toks: usize,
    named: bool,
    prop: fn(&str, &mut Stats) -> Result<(), TestCaseError>,
) -> Stats {
    let stats = RefCell::new(Stats::default());
    let started = std::time::Instant::now();
    let result =
        runner().run(&arb_kernel(max_toks, named), |g: GenKernel| prop(&g.render(), &mut stats.borrow_mut()));
    println!("{name}: {} cases in {:.1?}: {:?}", cases(), started.elapsed(), stats.borrow());
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    stats.into_inner()
}

#[test]
fn prop_soundness() {
    let stats = check("soundness", 14, true, soundness);
    // The property compares runs with verdicts: it must have compared some, under a concrete
    // and under a symbolic launch.
    assert!(stats.runs > 0 && stats.symbolic_runs > 0, "nothing was compared: {stats:?}");
}

#[test]
fn prop_synthesis() {
    let stats = check("synthesis", 12, false, synthesis);
    // It must have synthesized placements and run them, finding the races they remove.
    assert!(
        stats.done > 0 && stats.runs > 0 && stats.races_checked > 0,
        "nothing was synthesized and run: {stats:?}"
    );
}

#[test]
fn prop_synthesis_with_the_fix_options() {
    let stats = check("synthesis (fix options)", 12, true, synthesis_as_fix);
    assert!(
        stats.done > 0 && stats.runs > 0 && stats.races_checked > 0,
        "nothing was synthesized and run: {stats:?}"
    );
    // Warp barriers must have been placed and run (generated geometries include blocks of one
    // or a few warps).
    assert!(stats.syncwarps_placed > 0, "no warp barrier was synthesized: {stats:?}");
}

#[test]
fn prop_optimality() {
    let stats = check("optimality", 8, false, optimality);
    // Every case that counts was brute-forced (kernels with too many positions are rejected and
    // replaced, not passed).
    assert!(stats.done > 0 && stats.brute_force_checks >= stats.done, "nothing was compared: {stats:?}");
}

/// The kept regressions: every property holds on each kernel of `prop/regressions/`.
#[test]
fn regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prop/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "kpl"));
    files.sort();
    let mut stats = Stats::default();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (pname, prop) in [
            ("soundness", soundness as fn(&str, &mut Stats) -> Result<(), TestCaseError>),
            ("synthesis", synthesis),
            ("synthesis (fix options)", synthesis_as_fix),
            ("optimality", optimality),
        ] {
            match prop(&src, &mut stats) {
                // A kernel outside a property's generator's range (too many positions to brute
                // force) is not a case of it.
                Ok(()) | Err(TestCaseError::Reject(_)) => {}
                Err(e) => panic!("{}: {pname}: {e}", f.display()),
            }
        }
    }
    println!("regressions: {} kernels: {stats:?}", files.len());
}

/// The soundness comparison fails when the oracle misses something: a racy, divergent kernel
/// against an empty verdict, and against a verdict whose race has the wrong case.
#[test]
fn soundness_comparison_detects_missing_reports() {
    let src = "//--blockDim=[8,1,1]\nkernel k() { shared A[16]; local x; local i := 0;\n while (i < 2) { x := rd A[tid.x + 1]; wr A[tid.x] := x; i := i + 1; }\n if (tid.x < 3) { barrier; } }";
    let k = kpl::parse(src).expect("parses");
    let tree = LabelTree::new(&k);
    let mut stats = Stats::default();
    let r = run(&k, 0).expect("runs");
    assert!(!r.races.is_empty() && !r.divergences.is_empty(), "{}", r.render(&k));
    let full = oracle_for(&k).check(&k);
    assert_eq!(unreported(&k, &tree, &r, &full, &mut stats), None);
    assert!(unreported(&k, &tree, &r, &Verdict::default(), &mut stats).is_some());
    let mut no_div = full.clone();
    no_div.divergences.clear();
    assert!(unreported(&k, &tree, &r, &no_div, &mut stats).is_some());
    let mut only_same_iteration = full.clone();
    for race in &mut only_same_iteration.races {
        race.cases.retain(|c| c.case.relation == Relation::SameIteration);
    }
    assert!(unreported(&k, &tree, &r, &only_same_iteration, &mut stats).is_some());
}

/// Under warp-sync the comparison is as strict: the oracle's verdict for a kernel whose races
/// are all ordered by the warp (one warp, straight-line code) covers a warp-sync run, but not a
/// run of the same kernel without warp-sync, whose race the oracle rightly left out.
#[test]
fn soundness_comparison_detects_missing_reports_under_warp_sync() {
    let src = "//--blockDim=[32,1,1] --warp-sync=32\nkernel k() { shared A[64]; local x;\n wr A[tid.x] := 1; x := rd A[tid.x + 1]; }";
    let k = kpl::parse(src).expect("parses");
    assert_eq!(k.geometry.warp_sync, Some(32));
    let tree = LabelTree::new(&k);
    let mut stats = Stats::default();
    let v = oracle_for(&k).check(&k);
    let synced = run(&k, 0).expect("runs");
    assert!(synced.races.is_empty(), "{}", synced.render(&k));
    assert_eq!(unreported(&k, &tree, &synced, &v, &mut stats), None);
    let mut unsynced = k.clone();
    unsynced.geometry.warp_sync = None;
    let r = run(&unsynced, 0).expect("runs");
    assert!(!r.races.is_empty(), "{}", r.render(&k));
    assert!(unreported(&k, &tree, &r, &v, &mut stats).is_some(), "{v:#?}");
}

/// A run whose index arithmetic wraps is flagged by the interpreter: the default verdict (which
/// assumes no wrap) rightly misses its race, the `--wrap` verdict reports it.
#[test]
fn wrapping_runs_are_flagged_and_covered_by_the_wrap_verdict() {
    let src = "//--blockDim=[8,1,1] --gridDim=[1,1,1]\nkernel k() { global A[]; wr A[tid.x * 1073741824] := tid.x; }";
    let k = kpl::parse(src).expect("parses");
    let tree = LabelTree::new(&k);
    let mut stats = Stats::default();
    let r = run(&k, 0).expect("runs");
    assert!(r.index_wrapped.is_some() && !r.races.is_empty(), "{}", r.render(&k));
    let default = oracle_for(&k).check(&k);
    assert!(default.races.is_empty(), "the race needs a wrap: {default:?}");
    assert!(unreported(&k, &tree, &r, &default, &mut stats).is_some());
    let wrap = Z3Oracle::new(OracleOptions { wrap: true, ..oracle_options(&k) }).check(&k);
    assert_eq!(unreported(&k, &tree, &r, &wrap, &mut stats), None);
}

/// `iuadd`/`uiadd`/`iumul`/`uimul` (a converted `int` beside an unsigned number) read the
/// unsigned operand as an unsigned number and the other as a signed one, in the interpreter's
/// wrap flag and the oracle's no-wrap condition alike: `tid + 4294967295` with the big number the
/// unsigned operand needs a wrap to be `tid - 1`, with it the signed one (`int d = -1`) it is
/// `tid - 1` outright.
#[test]
fn mixed_sums_read_one_operand_as_unsigned() {
    let kernel = |read: &str| {
        let src = format!(
            "//--blockDim=[8,1,1] --gridDim=[1,1,1]\nkernel k() {{ global A[]; local x; local d := 0 - 1; local u := 4294967295;\n wr A[tid.x] := 1; if (tid.x > 0) {{ x := rd A[{read}]; }} }}"
        );
        kpl::parse(&src).expect("parses")
    };
    for (read, needs_wrap) in [
        ("iuadd(tid.x, u)", true),
        ("uiadd(u, tid.x)", true),
        ("iuadd(d, tid.x)", false),
        ("uiadd(tid.x, d)", false),
        ("iumul(d, tid.x) + 3 * tid.x", false),
        ("uimul(u, tid.x) + 3 * tid.x", true),
    ] {
        let k = kernel(read);
        let tree = LabelTree::new(&k);
        let mut stats = Stats::default();
        let r = run(&k, 0).expect("runs");
        assert!(!r.races.is_empty(), "{read}: {}", r.render(&k));
        assert_eq!(r.index_wrapped.is_some(), needs_wrap, "{read}: {}", r.render(&k));
        let default = oracle_for(&k).check(&k);
        assert_eq!(default.races.is_empty(), needs_wrap, "{read}: {default:?}");
        let wrap = Z3Oracle::new(OracleOptions { wrap: true, ..oracle_options(&k) }).check(&k);
        assert_eq!(unreported(&k, &tree, &r, &wrap, &mut stats), None, "{read}");
        if !needs_wrap {
            assert_eq!(unreported(&k, &tree, &r, &default, &mut stats), None, "{read}");
        }
    }
}

#[test]
fn out_of_bounds_runs_are_compared_with_the_oracle() {
    // The write leaves row 0 of `T` for threads 8..15 — into row 1, where the guarded read is:
    // a race only out of bounds, reported as the out-of-bounds write and not as a race.
    let src = "//--blockDim=[16,1,1]\nkernel k() { shared T[4][8]; local x;\n wr T[0][tid.x] := 1;\n if (tid.x < 8) { x := rd T[1][tid.x]; } }";
    let k = kpl::parse(src).expect("parses");
    let mut writes = Vec::new();
    k.walk(&mut |s| {
        if matches!(s.kind, StmtKind::Write { .. }) {
            writes.push(s.label);
        }
    });
    let write = writes[0];
    let mut stats = Stats::default();
    let r = run(&k, 0).expect("runs");
    assert_eq!(
        r.out_of_bounds.iter().map(|(l, a, _)| (*l, a.as_str())).collect::<Vec<_>>(),
        vec![(write, "T")]
    );
    let full = oracle_for(&k).check(&k);
    assert!(full.races.is_empty(), "{full:#?}");
    assert_eq!(full.out_of_bounds.iter().map(|o| o.label).collect::<Vec<_>>(), vec![write]);
    let w = full.out_of_bounds[0].witness.as_ref().expect("a decided finding");
    assert!(w.thread.tid[0] >= 8 && w.subscripts[0] == 0 && w.subscripts[1] >= 8, "{w:?}");
    assert_eq!(unreported_oob(&k, &r, &full, &mut stats), None);
    assert!(unreported_oob(&k, &r, &Verdict::default(), &mut stats).is_some());
    assert_eq!(stats.oob_checked, 2);
    // The whole property on this kernel: runs compared under the concrete and symbolic launches.
    soundness(src, &mut stats).expect("the oracle reports every out-of-bounds access");
    assert!(stats.oob_checked > 2, "{stats:?}");
}

#[test]
fn a_counter_skipped_only_after_break_keeps_its_closed_form() {
    // `d` is doubled only while the thread's `break` flag is clear, and a thread that sets it
    // leaves the loop: inside the loop `d` is 2^k < 64 (`loops::induction_step` with an exit
    // flag), so `S[tid.x % 64 + d]` leaves `S[80]` only past its end (runs with the large `n` of
    // seed 3 observe it), never at a negative index (a havocked `d` gave `S[-63]`-style
    // witnesses). Too many barrier positions for the regression files' optimality property.
    let src = "//--blockDim=[64,1,1] --gridDim=[1,1,1]\nkernel gen(n, m) {\n  shared S[80];\n  local d := 1;\n  local brk := 0;\n  while (d < 64 && !brk) {\n    if (d > n) { brk := 1; }\n    if (!brk) { wr S[tid.x % 64 + d] := 1; d := d * 2; }\n  }\n}\n";
    let k = kpl::parse(src).expect("parses");
    let v = oracle_for(&k).check(&k);
    assert_eq!(v.out_of_bounds.len(), 1, "{v:#?}");
    let w = v.out_of_bounds[0].witness.as_ref().expect("decided");
    assert!((80..=95).contains(&w.subscripts[0]), "{w:?}");
    let mut stats = Stats::default();
    soundness(src, &mut stats).expect("the oracle reports what the runs observe");
    assert!(stats.oob_checked > 0, "{stats:?}");
}
