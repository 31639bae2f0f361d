//! Barrier synthesis: AutoSync's Algorithm 1 (SYNTHESIZE / REFINE) over an [`Oracle`] and a
//! weighted partial MaxSAT solver, plus the naive baseline of the paper's Sec. IV-B.
//!
//! Every placeable label `ℓ` gets a variable `L_ℓ` ("a barrier after `ℓ`") with the soft unit
//! `¬L_ℓ` weighted by the cost model. Races become placement clauses:
//! - mode `paper`: from race locations only, with the `P` variables of the paper (one intra
//!   option, one inter option per shared loop, pairwise exclusion, at least one; refuted
//!   `P` assignments are blocked);
//! - mode `informed`: each race *case* the oracle reports (same iteration, or which shared loop
//!   carries it) is exactly the clause "a barrier in `case.separating_positions()`", and blocks
//!   the oracle proves thread-dependent are excluded up front, so the first placement the solver
//!   proposes is usually the answer and the loop ends after two oracle calls.
//!
//! Both modes reach the same optimum: the oracle's separation check uses the same interval sets.
//!
//! Extensions of Algorithm 1 (docs/synthesis.md): under `warp`, every position also gets a warp
//! barrier variable `W_ℓ` (`__syncwarp()`, half the cost), offered in a case's clause next to the
//! block barriers and withdrawn for that case once the oracle reports it with one chosen (the
//! race is then between warps); under `partial`, a case no position can separate is left out of
//! the constraints and reported in `remaining` instead of ending the synthesis; unless
//! `keep_barriers`, divergent barriers of the input are removed and synthesis starts again.

mod naive;
mod named;
mod paper;
mod units;

use crate::config::{CostModel, Ratio};
use crate::kpl::{Kernel, Label, StmtKind};
use crate::maxsat::{Engine, Lit, MaxSat, MaxSatError, Outcome, Var};
use crate::verify::{AccessKind, Case, Divergence, Oracle, OutOfBounds, Race, Relation, Scope, Verdict};
use paper::PaperState;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};
use units::{build_units, Sites, Unit};

pub use crate::config::Mode;
pub use naive::naive;
pub use units::{barrier_cost, warp_factor};

/// How to synthesize.
#[derive(Clone, Debug)]
pub struct SynthOptions {
    pub mode: Mode,
    pub engine: Engine,
    /// Existing barriers become removable (and are reported when the optimum drops them).
    pub reoptimize: bool,
    pub max_iterations: u32,
    pub cost: CostModel,
    /// Wall time one synthesis may take (`None`: no limit): past it, the refinement loop stops
    /// and the kernel is reported as given up ([`Synthesis::GaveUp`]), never written.
    pub budget: Option<std::time::Duration>,
    /// Fix what barriers can: a race no barrier separates (or a divergent barrier that stays)
    /// goes to [`Synthesis::Done::remaining`] rather than making the whole synthesis
    /// [`Synthesis::Impossible`] (informed mode; paper mode stays all or nothing).
    pub partial: bool,
    /// Leave divergent barriers of the input where they are (reported); otherwise they are
    /// removed and the races they were meant to separate are separated by barriers every thread
    /// reaches ([`Synthesis::Done::moved`]).
    pub keep_barriers: bool,
    /// Offer warp barriers (`syncwarp`, `__syncwarp()`) next to block barriers (informed mode).
    pub warp: bool,
    /// Prefer positions outside every block whose guard depends on the thread (informed mode):
    /// `if (i < n) { tile[t] = x; }` is entered by all of a block's threads only because of the
    /// launch sizes, so a barrier inside it diverges once they change, and it runs no less
    /// often than one after the `if`. Synthesis first runs with such blocks excluded (the
    /// uniformity analysis's candidates, asked of no solver) and keeps that result when it leaves
    /// no more findings than the unrestricted synthesis, which runs only when the restricted one
    /// leaves a race without a valid position or a kernel unsolved.
    pub robust_guards: bool,
    /// Offer the positions inside a statement that reads and writes one array
    /// ([`crate::kpl::Place::Split`]): a barrier there splits the statement into a read into a
    /// local, the barrier and the write, at [`units::SPLIT_FACTOR`] times a barrier's cost
    /// (what `fix` uses; `--no-split` turns it off).
    pub split: bool,
}

impl Default for SynthOptions {
    fn default() -> SynthOptions {
        SynthOptions {
            mode: Mode::Informed,
            engine: Engine::Minisat,
            reoptimize: false,
            max_iterations: 1000,
            cost: CostModel::default(),
            budget: None,
            partial: false,
            keep_barriers: true,
            warp: false,
            robust_guards: false,
            split: false,
        }
    }
}

/// Work done by one synthesis.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct SynthStats {
    pub oracle_calls: u64,
    pub maxsat_calls: u64,
    pub iterations: u64,
    pub smt_queries: u64,
    #[serde(serialize_with = "ser_ms")]
    pub oracle_time: Duration,
    #[serde(serialize_with = "ser_ms")]
    pub maxsat_time: Duration,
    #[serde(serialize_with = "ser_ms")]
    pub total_time: Duration,
}

impl SynthStats {
    /// Adds the work of another synthesis of the same kernels (total time is wall time: the
    /// later one's already counts the earlier one's).
    fn add(&mut self, other: &SynthStats) {
        self.oracle_calls += other.oracle_calls;
        self.maxsat_calls += other.maxsat_calls;
        self.iterations += other.iterations;
        self.smt_queries += other.smt_queries;
        self.oracle_time += other.oracle_time;
        self.maxsat_time += other.maxsat_time;
        self.total_time = self.total_time.max(other.total_time);
    }
}

fn ser_ms<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1e3)
}

/// Why a race cannot be removed by barriers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Unfixable {
    /// Two threads executing the same statement instance (e.g. all write `A[0]`).
    SelfRace { race: Race },
    /// Threads of different blocks: no barrier orders blocks.
    GridRace { race: Race },
    /// Two accesses of one source statement (`a[i] += a[i + 16]`) with no place for a
    /// statement between them: the statement has to be split to put a barrier there.
    InOneStatement { race: Race },
    /// Every position that would separate the race lies in a block whose guard depends on the
    /// thread (a barrier there diverges) or cannot take a barrier in the source.
    NoValidPosition { race: Race, blocks: Vec<Label> },
    /// The first access is an asynchronous copy still in flight at every position that would
    /// separate the race: only a wait for its group (before a barrier) fixes it, and synthesis
    /// never adds or moves a wait.
    CopyInFlight { race: Race },
    /// A barrier of the input kernel may diverge: synthesis adds barriers, it does not remove
    /// them (except under `reoptimize`, where the input's barriers are candidates like any other).
    DivergentBarrier { divergence: Divergence },
    /// The oracle could not decide these cases of a block-level pair (solver timeout or
    /// `unknown`): a possible race that synthesis does not try to separate, since it may not
    /// exist. Its cases carry the solver's reason.
    Undecided { race: Race },
    /// An access that may leave its array: no barrier changes that (the oracle reports it
    /// whatever the placement), so synthesis never pays for it and lists it here.
    OutOfBounds { access: OutOfBounds },
}

impl Unfixable {
    /// The race, for the findings that are one.
    pub fn race(&self) -> Option<&Race> {
        match self {
            Unfixable::SelfRace { race }
            | Unfixable::GridRace { race }
            | Unfixable::InOneStatement { race }
            | Unfixable::NoValidPosition { race, .. }
            | Unfixable::CopyInFlight { race }
            | Unfixable::Undecided { race } => Some(race),
            Unfixable::DivergentBarrier { .. } | Unfixable::OutOfBounds { .. } => None,
        }
    }
}

/// The barrier kinds synthesis places (in JSON: `"block"`, `"warp"`, `"named"`; a named
/// barrier's id and count are in the statement's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BarrierKind {
    /// `__syncthreads()` (`barrier;`): orders every thread of the block.
    Block,
    /// `__syncwarp()` (`syncwarp;`): orders the threads of one warp; legal where every lane of a
    /// warp gets there, even if not every warp of the block does.
    Warp,
    /// Another instance of the kernel's own named barrier (`bar.sync id, count`) in the code
    /// its threads run (a warp role, half of the block): where no `__syncthreads()` fits because
    /// only those threads get there (`named_repair`).
    Named { id: u32, count: u32 },
}

impl Serialize for BarrierKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            BarrierKind::Block => "block",
            BarrierKind::Warp => "warp",
            BarrierKind::Named { .. } => "named",
        })
    }
}

/// A divergent barrier of the input that synthesis removed (the races it was meant to separate
/// are separated by the inserted barriers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moved {
    /// The barrier statement (a label of the original kernel).
    pub barrier: Label,
    /// The thread-dependent block (guard or exit) that not every thread passes.
    pub guard: Label,
}

/// One inserted barrier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Inserted {
    /// The barrier goes right after this label.
    pub after: Label,
    pub kind: BarrierKind,
    pub cost: String,
    /// The races (label pairs) it separates.
    pub separates: Vec<(Label, Label)>,
}

/// The result of a synthesis.
// One per kernel, never stored in bulk: the size difference of the variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Synthesis {
    /// The kernel with barriers inserted; the oracle accepted it.
    Done {
        kernel: Box<Kernel>,
        inserted: Vec<Inserted>,
        /// Original barriers dropped (under `reoptimize`, or divergent ones repaired).
        removed: Vec<Label>,
        /// The divergent barriers of the input among `removed`, with the guard they were under.
        moved: Vec<Moved>,
        cost: Ratio,
        /// Benign write-write races left as they are.
        warnings: Verdict,
        /// What the placement leaves and no barrier can fix, or nobody could decide: grid-level
        /// races ([`Unfixable::GridRace`]), undecided block-level pairs
        /// ([`Unfixable::Undecided`]), accesses that may leave their arrays
        /// ([`Unfixable::OutOfBounds`]) and, under `partial`, self races, races with no valid
        /// position and divergent barriers of the input that stay. Exactly the findings of a full
        /// check of `kernel`; the placement is final only when this is empty.
        remaining: Vec<Unfixable>,
    },
    /// No barrier placement removes these.
    Impossible { reasons: Vec<Unfixable> },
    /// The iteration limit was reached.
    GaveUp { iterations: u32 },
}

#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    #[error(transparent)]
    MaxSat(#[from] MaxSatError),
    /// A caller bug: [`synthesize_group`] needs one oracle per kernel.
    #[error("{kernels} kernel(s) but {oracles} oracle(s): synthesis needs one oracle per kernel")]
    OracleCount { kernels: usize, oracles: usize },
}

/// Synthesizes the cheapest barrier placement the oracle accepts.
pub fn synthesize(
    kernel: &Kernel,
    oracle: &mut dyn Oracle,
    opts: &SynthOptions,
) -> Result<(Synthesis, SynthStats), SynthError> {
    let (mut results, stats) = synthesize_group(std::slice::from_ref(kernel), &mut [oracle], opts)?;
    let result = results.pop().unwrap_or(Synthesis::GaveUp { iterations: 0 });
    Ok((result, stats))
}

/// Synthesizes one placement for kernels that share source text (instantiations of one
/// template, kernels calling one device function): a site chosen for one is chosen for all, and
/// the total cost over all kernels is minimal. Returns one result per kernel, in order. When the
/// group is impossible, each kernel lists the reasons found in it; a kernel with an empty list
/// is impossible only because a kernel sharing its source is.
///
/// Unless `keep_barriers`, a barrier of the input that diverges (and is a statement of its own)
/// is repaired: synthesis starts again without it, and the result lists it in `moved`.
///
/// `oracles[i]` answers every question about `kernels[i]`: kernels of one group may be launched
/// with different geometry, and each is verified under its own (an oracle built for one member's
/// launch would accept a placement that races under another's). Fewer oracles than kernels is
/// [`SynthError::OracleCount`].
pub fn synthesize_group(
    kernels: &[Kernel],
    oracles: &mut [&mut dyn Oracle],
    opts: &SynthOptions,
) -> Result<(Vec<Synthesis>, SynthStats), SynthError> {
    let (results, stats) = synthesize_group_placed(kernels, oracles, opts)?;
    // A race in code only some warps run, repaired with the kernel's own named barrier: only
    // for a kernel that shares its source with no other (an instance there would be every
    // sharer's, verified under one launch only).
    if kernels.len() != 1 {
        return Ok((results, stats));
    }
    let repaired = results
        .into_iter()
        .zip(oracles.iter_mut())
        .map(|(r, o)| named::named_repair(r, &mut **o, &opts.cost))
        .collect();
    Ok((repaired, stats))
}

/// [`synthesize_group`] before named barriers repair what no block barrier can.
fn synthesize_group_placed(
    kernels: &[Kernel],
    oracles: &mut [&mut dyn Oracle],
    opts: &SynthOptions,
) -> Result<(Vec<Synthesis>, SynthStats), SynthError> {
    if oracles.len() != kernels.len() {
        return Err(SynthError::OracleCount { kernels: kernels.len(), oracles: oracles.len() });
    }
    let started = Instant::now();
    if !(opts.robust_guards && opts.mode == Mode::Informed) {
        return synthesize_group_from(kernels, oracles, opts, false, started);
    }
    let (robust, robust_stats) = synthesize_group_from(kernels, oracles, opts, true, started)?;
    let left = |results: &[Synthesis]| -> (usize, usize) {
        let unfinished = results.iter().filter(|r| !matches!(r, Synthesis::Done { .. })).count();
        let remaining = results
            .iter()
            .map(|r| match r {
                Synthesis::Done { remaining, .. } => remaining.len(),
                _ => 0,
            })
            .sum();
        (unfinished, remaining)
    };
    // Excluding blocks only takes positions away: what it can cost is races left without a
    // valid position (or a kernel unsolved). Races between blocks or within one statement no
    // placement fixes, so a file with only those left needs no second synthesis.
    let excluded_a_fix = robust.iter().any(|r| match r {
        Synthesis::Done { remaining, .. } => {
            remaining.iter().any(|u| matches!(u, Unfixable::NoValidPosition { .. }))
        }
        _ => true,
    });
    if !excluded_a_fix {
        return Ok((robust, robust_stats));
    }
    let (free, mut stats) = synthesize_group_from(kernels, oracles, opts, false, started)?;
    stats.add(&robust_stats);
    let (robust_left, free_left) = (left(&robust), left(&free));
    let robust_is_as_good = robust_left.0 <= free_left.0 && robust_left.1 <= free_left.1;
    Ok((if robust_is_as_good { robust } else { free }, stats))
}

/// [`synthesize_group`] in one configuration: with every block whose guard the uniformity
/// analysis finds thread-dependent excluded (`exclude_guarded`), or with only those the oracle
/// proves thread-dependent.
fn synthesize_group_from(
    kernels: &[Kernel],
    oracles: &mut [&mut dyn Oracle],
    opts: &SynthOptions,
    exclude_guarded: bool,
    started: Instant,
) -> Result<(Vec<Synthesis>, SynthStats), SynthError> {
    let mut stats = SynthStats::default();
    let queries_before = smt_queries(oracles);
    let mut dropped: Vec<Vec<Label>> = vec![Vec::new(); kernels.len()];
    let mut moved: Vec<Vec<Moved>> = vec![Vec::new(); kernels.len()];
    loop {
        match synthesize_round(kernels, oracles, opts, exclude_guarded, &dropped, &mut stats, started)? {
            Round::Finished(mut results) => {
                for (r, m) in results.iter_mut().zip(moved) {
                    if let Synthesis::Done { moved, .. } = r {
                        *moved = m;
                    }
                }
                stats.smt_queries = smt_queries(oracles) - queries_before;
                stats.total_time = started.elapsed();
                return Ok((results, stats));
            }
            // Each repair removes at least one more barrier of the input, so this ends.
            Round::Repair(divergent) => {
                for (ui, d) in divergent {
                    if dropped[ui].contains(&d.barrier) {
                        continue;
                    }
                    moved[ui].push(Moved { barrier: d.barrier, guard: d.block });
                    // Deleting the statement deletes it from every kernel and every inlined copy
                    // that shares its source text: each of those is synthesized without it.
                    let place = kernels[ui].place(d.barrier).clone();
                    for (uj, k) in kernels.iter().enumerate() {
                        for b in movable_barriers(k).into_iter().filter(|b| *k.place(*b) == place) {
                            if !dropped[uj].contains(&b) {
                                dropped[uj].push(b);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// What one round of synthesis from a fixed base kernel ended with.
enum Round {
    Finished(Vec<Synthesis>),
    /// These barriers of the input diverge (per unit index): start again without them.
    Repair(Vec<(usize, Divergence)>),
}

/// Algorithm 1 from the kernels without the barriers `dropped`.
fn synthesize_round(
    kernels: &[Kernel],
    oracles: &mut [&mut dyn Oracle],
    opts: &SynthOptions,
    exclude_guarded: bool,
    dropped: &[Vec<Label>],
    stats: &mut SynthStats,
    started: Instant,
) -> Result<Round, SynthError> {
    let mut solver = MaxSat::new(opts.engine);
    let (mut units, sites) = build_units(kernels, opts, dropped, &mut solver);
    let mut excluded: BTreeSet<Var> = BTreeSet::new();
    if opts.mode == Mode::Informed {
        for (unit, oracle) in units.iter_mut().zip(oracles.iter_mut()) {
            let t = Instant::now();
            unit.varying_candidates = oracle.varying_candidates(&unit.base);
            stats.oracle_time += t.elapsed();
            if exclude_guarded {
                for b in unit.varying_candidates.clone() {
                    exclude_block(unit, b, &mut excluded, &mut solver);
                }
            }
        }
    }
    let mut paper = PaperState::default();
    let mut seen_races: Vec<Vec<Race>> = vec![Vec::new(); units.len()];
    let mut unfixable: Vec<Vec<Unfixable>> = vec![Vec::new(); units.len()];
    // Write-write self races no barrier separates, kept aside: separating other races may make
    // the values written uniform, and the race benign. Reported only if they stay.
    let mut deferred: Vec<Vec<Unfixable>> = vec![Vec::new(); units.len()];
    let mut chosen: BTreeSet<Var> = BTreeSet::new();
    // Per race case, the conditional positions (`Unit::conditional_positions`) the oracle has
    // seen fail to separate it.
    let mut withdrawn: HashMap<(usize, Case), BTreeSet<Var>> = HashMap::new();
    // Race cases a chosen warp barrier did not separate: threads of different warps race, so
    // only block barriers are offered for them from then on.
    let mut warp_withdrawn: HashSet<(usize, Case)> = HashSet::new();
    // Under `partial`: whether this round's verdicts come from a full check (`Oracle::check`),
    // asked once only unfixable races are left.
    let mut full = false;
    let mut iterations = 0u32;
    let impossible = |reasons: Vec<Vec<Unfixable>>| -> Round {
        Round::Finished(reasons.into_iter().map(|r| Synthesis::Impossible { reasons: dedup(r) }).collect())
    };
    loop {
        let mut verdicts = Vec::new();
        for (unit, oracle) in units.iter().zip(oracles.iter_mut()) {
            let (candidate, _) = unit.with_barriers(&chosen);
            let t = Instant::now();
            let verdict =
                if full { oracle.check(&candidate) } else { oracle.check_for_synthesis(&candidate) };
            verdicts.push((verdict, candidate));
            stats.oracle_calls += 1;
            stats.oracle_time += t.elapsed();
        }
        // Divergence of inserted barriers excludes their block; of the input's barriers, it is
        // repaired, kept (reported in `remaining`) or, without `partial`, the end.
        let mut diverging = false;
        let mut stuck: Vec<Vec<Unfixable>> = vec![Vec::new(); units.len()];
        let mut repair: Vec<(usize, Divergence)> = Vec::new();
        for (ui, (v, candidate)) in verdicts.iter().enumerate() {
            for d in &v.divergences {
                // A statement of the base kernel is the input's own (a block, warp, grid or named
                // barrier); inserted barriers are the candidate's alone.
                if units[ui].base.stmt(d.barrier).is_some() {
                    if !opts.keep_barriers && movable_barriers(units[ui].original).contains(&d.barrier) {
                        repair.push((ui, d.clone()));
                    } else if !opts.partial {
                        stuck[ui].push(Unfixable::DivergentBarrier { divergence: d.clone() });
                    }
                } else if matches!(candidate.stmt(d.barrier).map(|s| &s.kind), Some(StmtKind::Syncwarp)) {
                    exclude_warp_block(&mut units[ui], d.block, &mut excluded, &mut solver);
                    diverging = true;
                } else {
                    exclude_block(&mut units[ui], d.block, &mut excluded, &mut solver);
                    diverging = true;
                }
            }
        }
        if !repair.is_empty() {
            return Ok(Round::Repair(repair));
        }
        if stuck.iter().any(|s| !s.is_empty()) {
            return Ok(impossible(stuck));
        }
        // Grid-level races and undecided cases are left to the report (`Synthesis::Done::remaining`).
        let racing = verdicts.iter().any(|(v, _)| v.races.iter().any(|r| decided_block_race(r).is_some()));
        if !diverging && !racing {
            let results = units
                .iter()
                .zip(verdicts)
                .zip(&seen_races)
                .map(|((unit, (verdict, candidate)), races)| {
                    unit.done(&chosen, candidate, verdict, races, opts)
                })
                .collect();
            return Ok(Round::Finished(results));
        }
        if !diverging {
            let mut refined = false;
            if opts.mode == Mode::Informed {
                let t = Instant::now();
                let races: Vec<&[Race]> = verdicts.iter().map(|(v, _)| v.races.as_slice()).collect();
                ask_about_offered_blocks(&mut units, &sites, &races, oracles, &mut excluded, &mut solver);
                stats.oracle_time += t.elapsed();
            }
            for (ui, (verdict, _)) in verdicts.iter().enumerate() {
                let unit = &units[ui];
                deferred[ui].clear();
                for race in &verdict.races {
                    if race.scope == Scope::Grid {
                        unfixable[ui].push(Unfixable::GridRace { race: race.clone() });
                        continue;
                    }
                    if race.scope == Scope::Copy {
                        unfixable[ui].push(Unfixable::CopyInFlight { race: race.clone() });
                        continue;
                    }
                    let Some(race) = decided_block_race(race) else { continue };
                    let race = &race;
                    seen_races[ui].push(race.clone());
                    match opts.mode {
                        Mode::Informed => {
                            for c in &race.cases {
                                let mut clause = unit.clause_of(&c.case, &excluded);
                                // Warp barriers at the separating positions, until one chosen
                                // leaves the case racing between warps.
                                // A witness between two warps is one no `__syncwarp()` orders:
                                // offering warp barriers for it would cost an oracle round to learn.
                                let across_warps = c.witness.as_ref().is_some_and(|w| {
                                    !w.in_one_warp(Kernel::syncwarp_width(&unit.base.geometry))
                                });
                                if across_warps {
                                    warp_withdrawn.insert((ui, c.case));
                                }
                                if !warp_withdrawn.contains(&(ui, c.case)) {
                                    let warp =
                                        unit.warp_lits(c.case.separating_positions(&unit.tree), &excluded);
                                    if warp.iter().any(|l| chosen.contains(&l.var)) {
                                        warp_withdrawn.insert((ui, c.case));
                                    } else {
                                        clause.extend(warp);
                                    }
                                }
                                // Positions that separate the case only in some executions: offered
                                // until the oracle reports the case with them chosen.
                                let tried = withdrawn.entry((ui, c.case)).or_default();
                                let positions = unit.conditional_positions(&c.case);
                                // A rejected position rejects its class: the positions directly in
                                // the same block, on the same side of both accesses, run in the
                                // same executions, so they fail to separate the case alike.
                                let class = |l: &Label| {
                                    let tree = &unit.tree;
                                    (
                                        tree.parent(*l),
                                        tree.precedes(*l, c.case.first),
                                        tree.precedes(*l, c.case.second),
                                    )
                                };
                                let site = |l: &Label| unit.var_of.get(l).copied();
                                let rejected: BTreeSet<_> = positions
                                    .iter()
                                    .filter(|l| site(l).is_some_and(|v| chosen.contains(&v)))
                                    .map(class)
                                    .collect();
                                tried.extend(
                                    positions
                                        .iter()
                                        .filter(|l| rejected.contains(&class(l)))
                                        .filter_map(site),
                                );
                                let conditional = unit.lits(positions, &excluded);
                                for lit in conditional {
                                    if !tried.contains(&lit.var) && !clause.contains(&lit) {
                                        clause.push(lit);
                                    }
                                }
                                if clause.is_empty() && is_write_self_case(race, &c.case) {
                                    deferred[ui].push(Unfixable::SelfRace { race: race.clone() });
                                    continue;
                                }
                                if clause.is_empty() {
                                    unfixable[ui].push(why_unfixable(race, &c.case, unit));
                                    if opts.partial {
                                        // Left to `remaining`: no barrier fixes this case.
                                        continue;
                                    }
                                }
                                solver.add_hard(&clause);
                                refined = true;
                            }
                        }
                        Mode::Paper if race.cases.iter().all(|c| is_write_self_case(race, &c.case)) => {
                            deferred[ui].push(Unfixable::SelfRace { race: race.clone() });
                        }
                        Mode::Paper => {
                            paper.refine(ui, race, unit, &excluded, &mut solver);
                            refined = true;
                        }
                    }
                }
            }
            if opts.partial && !refined {
                // Only races no barrier fixes are left: settle on this placement once a full
                // check (the lazy one skips cases and keeps uniform-read assumptions) agrees.
                if full {
                    let results = units
                        .iter()
                        .zip(verdicts)
                        .zip(&seen_races)
                        .map(|((unit, (verdict, candidate)), races)| {
                            unit.done(&chosen, candidate, verdict, races, opts)
                        })
                        .collect();
                    return Ok(Round::Finished(results));
                }
                full = true;
                continue;
            }
            // Barriers never fix grid races or self races: stop once they are all that is left
            // (nothing new to refine), or as soon as a block race proves unfixable.
            let hopeless = unfixable.iter().flatten().any(|u| !matches!(u, Unfixable::GridRace { .. }));
            if !opts.partial && (!refined || hopeless) {
                for (u, d) in unfixable.iter_mut().zip(&deferred) {
                    u.extend(d.iter().cloned());
                }
                return Ok(impossible(unfixable));
            }
        }
        full = false;
        iterations += 1;
        stats.iterations += 1;
        let out_of_time = opts.budget.is_some_and(|b| started.elapsed() >= b);
        if iterations > opts.max_iterations || out_of_time {
            let gave_up = units.iter().map(|_| Synthesis::GaveUp { iterations }).collect();
            return Ok(Round::Finished(gave_up));
        }
        let t = Instant::now();
        let mut outcome = solver.solve()?;
        stats.maxsat_calls += 1;
        if outcome == Outcome::Unsat && opts.partial && opts.mode == Mode::Informed {
            // Clauses added before all their positions were excluded: their cases are unfixable
            // now, and the next check reports them again as such.
            let hopeless_clause = |c: &[Lit]| c.iter().all(|l| !l.negated && excluded.contains(&l.var));
            if let Some(rebuilt) = solver.without_hard(hopeless_clause) {
                solver = rebuilt;
                outcome = solver.solve()?;
                stats.maxsat_calls += 1;
            }
        }
        stats.maxsat_time += t.elapsed();
        match outcome {
            Outcome::Unsat => {
                let mut reasons: Vec<Vec<Unfixable>> = units
                    .iter()
                    .zip(&seen_races)
                    .map(|(unit, races)| {
                        races
                            .iter()
                            .flat_map(|r| {
                                r.cases
                                    .iter()
                                    .filter(|c| unit.clause_of(&c.case, &excluded).is_empty())
                                    .map(|c| why_unfixable(r, &c.case, unit))
                            })
                            .collect()
                    })
                    .collect();
                if reasons.iter().all(Vec::is_empty) {
                    // No race is hopeless alone: together with the excluded thread-dependent
                    // blocks the constraints conflict, so name every race seen.
                    for ((r, unit), races) in reasons.iter_mut().zip(&units).zip(&seen_races) {
                        r.extend(races.iter().map(|race| why_unfixable(race, &race.cases[0].case, unit)));
                    }
                }
                for ((r, u), d) in reasons.iter_mut().zip(unfixable).zip(deferred) {
                    r.extend(u);
                    r.extend(d);
                }
                return Ok(impossible(reasons));
            }
            Outcome::Optimal(sol) => {
                chosen = sites.members.keys().filter(|v| sol.value(Lit::pos(**v))).copied().collect();
                paper.remember(&sol);
            }
        }
    }
}

/// Excludes every position inside `b`, a block proven thread-dependent: a barrier there diverges.
fn exclude_block(unit: &mut Unit, b: Label, excluded: &mut BTreeSet<Var>, solver: &mut MaxSat) {
    unit.varying.insert(b);
    for l in unit.tree.subtree(b) {
        if let Some(v) = unit.var_of.get(&l) {
            if excluded.insert(*v) {
                solver.add_hard(&[Lit::neg(*v)]);
            }
        }
    }
}

/// Excludes every warp-barrier position inside `b`, a block proven to vary within a warp.
fn exclude_warp_block(unit: &mut Unit, b: Label, excluded: &mut BTreeSet<Var>, solver: &mut MaxSat) {
    unit.warp_varying.insert(b);
    for l in unit.tree.subtree(b) {
        if let Some(v) = unit.warp_var_of.get(&l) {
            if excluded.insert(*v) {
                solver.add_hard(&[Lit::neg(*v)]);
            }
        }
    }
}

/// Informed mode's questions about blocks, asked only for what this round's races (`races`, per
/// unit) can offer: which `if` blocks every thread enters (read by `conditional_positions`), and
/// which blocks around an offered position vary (their positions are excluded). A position in
/// no clause is never chosen, as every position costs something, so nothing else needs asking.
fn ask_about_offered_blocks(
    units: &mut [Unit],
    sites: &Sites,
    races: &[&[Race]],
    oracles: &mut [&mut dyn Oracle],
    excluded: &mut BTreeSet<Var>,
    solver: &mut MaxSat,
) {
    let cases = |races: &[Race]| -> Vec<Case> {
        races.iter().filter_map(decided_block_race).flat_map(|r| r.cases).map(|c| c.case).collect()
    };
    for ((unit, races), oracle) in units.iter_mut().zip(races).zip(oracles.iter_mut()) {
        let questions: BTreeSet<Label> = cases(races)
            .iter()
            .flat_map(|c| unit.entered_questions(c))
            .filter(|b| !unit.entered_asked.contains(b))
            .collect();
        if !questions.is_empty() {
            let entered = oracle.entered_blocks(&unit.base, &questions);
            unit.entered.extend(entered);
            unit.entered_asked.extend(questions);
        }
    }
    // The sites this round's clauses may offer, and through them every label (of any kernel of
    // the group) a chosen site puts a barrier at.
    let mut offered: BTreeSet<Var> = BTreeSet::new();
    for (unit, races) in units.iter().zip(races) {
        for c in cases(races) {
            let labels = c.separating_positions(&unit.tree).into_iter().chain(unit.conditional_positions(&c));
            offered.extend(labels.filter_map(|l| unit.var_of.get(&l).copied()));
        }
    }
    let mut to_ask: Vec<BTreeSet<Label>> = vec![BTreeSet::new(); units.len()];
    for (ui, l) in offered.iter().flat_map(|v| sites.members.get(v).into_iter().flatten()) {
        let unit = &units[*ui];
        let around = unit.tree.blks(*l).iter().copied().chain(std::iter::once(*l));
        to_ask[*ui].extend(
            around.filter(|b| unit.varying_candidates.contains(b) && !unit.varying_asked.contains(b)),
        );
    }
    for ((unit, blocks), oracle) in units.iter_mut().zip(to_ask).zip(oracles.iter_mut()) {
        if blocks.is_empty() {
            continue;
        }
        let varying = oracle.varying_among(&unit.base, &blocks);
        unit.varying_asked.extend(blocks);
        for b in varying {
            exclude_block(unit, b, excluded, solver);
        }
    }
}

impl Unit<'_> {
    /// The result for this kernel once the oracle accepts the placement `chosen`.
    fn done(
        &self,
        chosen: &BTreeSet<Var>,
        candidate: Kernel,
        verdict: Verdict,
        races: &[Race],
        opts: &SynthOptions,
    ) -> Synthesis {
        let placement = self.labels_at(chosen, BarrierKind::Block);
        let warp = self.labels_at(chosen, BarrierKind::Warp);
        let cost = self.cost_of(&placement, BarrierKind::Block).plus(&self.cost_of(&warp, BarrierKind::Warp));
        // Under `reoptimize`, an original barrier whose position the optimum chooses again
        // stays where it is: it is neither removed nor inserted.
        let mut removed = Vec::new();
        let mut restored = BTreeSet::new();
        if opts.reoptimize {
            for b in &movable_barriers(self.original) {
                match position_of_barrier(self.original, *b)
                    .filter(|p| placement.contains(p) && !restored.contains(p))
                {
                    Some(p) => {
                        restored.insert(p);
                    }
                    None => removed.push(*b),
                }
            }
        }
        for b in &self.dropped {
            if !removed.contains(b) {
                removed.push(*b);
            }
        }
        let new_positions: Vec<Label> = placement.iter().copied().filter(|p| !restored.contains(p)).collect();
        let mut inserted = explain(&new_positions, BarrierKind::Block, self, races);
        inserted.extend(explain(&warp, BarrierKind::Warp, self, races));
        inserted.sort_by_key(|i| i.after);
        let mut remaining: Vec<Unfixable> = verdict.races.iter().map(|r| self.leftover(r)).collect();
        remaining.extend(
            verdict.divergences.iter().map(|d| Unfixable::DivergentBarrier { divergence: d.clone() }),
        );
        remaining.extend(verdict.out_of_bounds.iter().map(|a| Unfixable::OutOfBounds { access: a.clone() }));
        Synthesis::Done {
            kernel: Box::new(candidate),
            inserted,
            removed,
            moved: Vec::new(),
            cost,
            warnings: verdict,
            remaining,
        }
    }

    /// Why a race of the final placement's verdict is left: between blocks, undecided, in one
    /// statement instance, or with no position a barrier may take.
    fn leftover(&self, r: &Race) -> Unfixable {
        if r.scope == Scope::Grid {
            return Unfixable::GridRace { race: r.clone() };
        }
        if r.scope == Scope::Copy {
            return Unfixable::CopyInFlight { race: r.clone() };
        }
        match decided_block_race(r) {
            None => Unfixable::Undecided { race: r.clone() },
            Some(decided) => why_unfixable(r, &decided.cases[0].case, self),
        }
    }
}

/// The label after which barrier statement `b` stands (the previous non-barrier statement of its
/// block, or the block's start node).
fn position_of_barrier(original: &Kernel, b: Label) -> Option<Label> {
    fn find(bl: &crate::kpl::Block, b: Label) -> Option<Label> {
        let mut prev = bl.start;
        for s in &bl.stmts {
            if s.label == b {
                return Some(prev);
            }
            let inner = match &s.kind {
                StmtKind::If { then, els, .. } => {
                    find(then, b).or_else(|| els.as_ref().and_then(|e| find(e, b)))
                }
                StmtKind::While { body, .. } => find(body, b),
                _ => None,
            };
            if inner.is_some() {
                return inner;
            }
            if !matches!(s.kind, StmtKind::Barrier) {
                prev = match &s.kind {
                    // After an if with an else, the position is the else block's label.
                    StmtKind::If { els: Some(e), .. } => e.label,
                    _ => s.label,
                };
            }
        }
        None
    }
    find(&original.body, b)
}

/// The SMT queries the oracles have asked so far, together.
fn smt_queries(oracles: &[&mut dyn Oracle]) -> u64 {
    oracles.iter().map(|o| o.stats().smt_queries).sum()
}

fn dedup(v: Vec<Unfixable>) -> Vec<Unfixable> {
    let mut out: Vec<Unfixable> = Vec::new();
    for u in v {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// A block-level race restricted to its decided cases (`None` for grid-level races and races
/// the solver decided no case of). Synthesis separates only these: an undecided case may not be
/// a race at all, so it is reported rather than paid for with a barrier.
fn decided_block_race(race: &Race) -> Option<Race> {
    if race.scope != Scope::Block {
        return None;
    }
    let cases: Vec<_> = race.cases.iter().filter(|c| c.undecided.is_none()).cloned().collect();
    (!cases.is_empty()).then(|| Race { cases, ..race.clone() })
}

/// A write meeting itself in the same statement instance: no barrier separates it, but it may
/// become benign (both threads write the same value) once the reads feeding it are separated from
/// their writers and the oracle can assume them uniform.
fn is_write_self_case(race: &Race, case: &Case) -> bool {
    race.kinds == [AccessKind::Write, AccessKind::Write]
        && case.first == case.second
        && case.relation == Relation::SameIteration
}

fn why_unfixable(race: &Race, case: &Case, unit: &Unit) -> Unfixable {
    if case.first == case.second && case.relation == Relation::SameIteration {
        return Unfixable::SelfRace { race: race.clone() };
    }
    let tree = &unit.tree;
    let positions = case.separating_positions(tree);
    if positions.is_empty() && case.first_is_async_copy(tree) {
        return Unfixable::CopyInFlight { race: race.clone() };
    }
    let placeable =
        |l: &Label| unit.base.place(*l).is_placeable() && (unit.split || !unit.base.place(*l).is_split());
    if !positions.is_empty() && !positions.iter().any(placeable) {
        return Unfixable::InOneStatement { race: race.clone() };
    }
    let blocks: Vec<Label> = case
        .separating_positions(tree)
        .iter()
        .flat_map(|l| tree.blks(*l).iter().copied().chain(std::iter::once(*l)))
        .filter(|b| unit.varying.contains(b))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    Unfixable::NoValidPosition { race: race.clone(), blocks }
}

fn explain(placement: &[Label], kind: BarrierKind, unit: &Unit, races: &[Race]) -> Vec<Inserted> {
    placement
        .iter()
        .map(|l| {
            let mut separates: Vec<(Label, Label)> = races
                .iter()
                .filter(|r| r.cases.iter().any(|c| c.case.separating_positions(&unit.tree).contains(l)))
                .map(|r| (r.first, r.second))
                .collect();
            separates.sort();
            separates.dedup();
            Inserted { after: *l, kind, cost: unit.cost_at(*l, kind).to_string(), separates }
        })
        .collect()
}

/// The input's barriers `reoptimize` may remove: those that are a whole source statement (their
/// label has a place). A barrier inside an expression (`__syncthreads_or(p)`) or a macro
/// expansion cannot be deleted from the text, so it stays, as every barrier does without
/// `reoptimize`.
pub(super) fn movable_barriers(k: &Kernel) -> Vec<Label> {
    k.barriers().into_iter().filter(|l| k.place(*l).is_placeable()).collect()
}
