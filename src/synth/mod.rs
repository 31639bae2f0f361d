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

use crate::config::{CostModel, Ratio};
use crate::kpl::{Kernel, Label, LabelTree, StmtKind};
use crate::maxsat::{Engine, Lit, MaxSat, MaxSatError, Outcome, Var};
use crate::verify::{AccessKind, Case, Divergence, Oracle, Race, Relation, Scope, Verdict};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

pub use crate::config::Mode;

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
    /// Every position that would separate the race lies in a block whose guard depends on the
    /// thread (a barrier there diverges) or cannot take a barrier in the source.
    NoValidPosition { race: Race, blocks: Vec<Label> },
    /// A barrier of the input kernel may diverge: synthesis adds barriers, it does not remove
    /// them (except under `reoptimize`, where the input's barriers are candidates like any other).
    DivergentBarrier { divergence: Divergence },
    /// The oracle could not decide these cases of a block-level pair (solver timeout or
    /// `unknown`): a possible race that synthesis does not try to separate, since it may not
    /// exist. Its cases carry the solver's reason.
    Undecided { race: Race },
}

/// One inserted barrier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Inserted {
    /// The barrier goes right after this label.
    pub after: Label,
    pub cost: String,
    /// The races (label pairs) it separates.
    pub separates: Vec<(Label, Label)>,
}

/// The result of a synthesis.
#[derive(Clone, Debug)]
pub enum Synthesis {
    /// The kernel with barriers inserted; the oracle accepted it.
    Done {
        kernel: Box<Kernel>,
        inserted: Vec<Inserted>,
        /// Original barriers dropped under `reoptimize`.
        removed: Vec<Label>,
        cost: Ratio,
        /// Benign write-write races left as they are.
        warnings: Verdict,
        /// What the placement leaves and no barrier can fix, or nobody could decide: grid-level
        /// races ([`Unfixable::GridRace`]) and undecided block-level pairs
        /// ([`Unfixable::Undecided`]). The placement separates every decided block-level race
        /// and leaves no divergence; it is final only when this is empty.
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

/// The cost of a barrier after `l` (AutoSync Sec. III-C): ×LC per enclosing loop, ×IC per
/// enclosing conditional, where the front end's flag guards of the predicated form
/// ([`Kernel::flag_guards`]) are not conditionals: they do not make a barrier rarer.
pub fn barrier_cost(kernel: &Kernel, tree: &LabelTree, model: &CostModel, l: Label) -> Ratio {
    let conds = tree.conds(l).iter().filter(|b| !kernel.flag_guards.contains(b)).count();
    model.cost(tree.loops(l).len(), conds)
}

/// One kernel of a synthesis group, with its candidate positions.
struct Unit<'k> {
    original: &'k Kernel,
    /// The kernel synthesis starts from (the original, without its barriers under `reoptimize`).
    base: Kernel,
    tree: LabelTree,
    /// The site variable of every candidate label.
    var_of: BTreeMap<Label, Var>,
    /// The cost of a barrier after each candidate label.
    cost: HashMap<Label, Ratio>,
    /// Blocks proven thread-dependent (a barrier in them diverges).
    varying: BTreeSet<Label>,
    /// `if`/`else` blocks proven entered by every thread that reaches them (informed mode).
    entered: BTreeSet<Label>,
    /// The blocks the oracle was asked about for `entered`.
    entered_asked: BTreeSet<Label>,
    /// Blocks the syntactic uniformity analysis cannot call uniform (informed mode); the solver
    /// decides those of them in `varying_asked`.
    varying_candidates: BTreeSet<Label>,
    varying_asked: BTreeSet<Label>,
}

impl Unit<'_> {
    /// "A barrier after one of these labels" over this kernel's sites, without excluded sites.
    fn lits(&self, labels: impl IntoIterator<Item = Label>, excluded: &BTreeSet<Var>) -> Vec<Lit> {
        let mut out: Vec<Lit> = Vec::new();
        for l in labels {
            if let Some(v) = self.var_of.get(&l) {
                if !excluded.contains(v) && !out.contains(&Lit::pos(*v)) {
                    out.push(Lit::pos(*v));
                }
            }
        }
        out
    }

    /// The `if`/`else` blocks whose `entered` status [`Unit::conditional_positions`] reads for
    /// `case`.
    fn entered_questions(&self, case: &Case) -> Vec<Label> {
        let tree = &self.tree;
        let enclosing = |x: &Label| tree.blks(case.first).contains(x) || tree.blks(case.second).contains(x);
        let mut out = Vec::new();
        for x in case.separating_positions(tree).iter().filter(|x| !enclosing(x)) {
            out.extend(tree.subtree(*x).into_iter().chain(std::iter::once(*x)).filter(|b| {
                matches!(tree.kind(*b), Some(crate::kpl::NodeKind::If | crate::kpl::NodeKind::Else(_)))
            }));
        }
        out
    }

    /// Positions that separate `case` in the executions where they run, beyond the interval set
    /// (the oracle's refinements, src/verify/refine.rs): inside loops between the two accesses,
    /// and directly in the body of a loop around one access only (its next or earlier
    /// iteration). Informed mode offers them to the solver; the oracle decides.
    fn conditional_positions(&self, case: &Case) -> Vec<Label> {
        let tree = &self.tree;
        let direct = case.separating_positions(tree);
        let mut out: BTreeSet<Label> = BTreeSet::new();
        let enclosing = |x: &Label| tree.blks(case.first).contains(x) || tree.blks(case.second).contains(x);
        for x in direct.iter().filter(|x| !enclosing(x)) {
            // Through loops and blocks every thread enters only: a loop between the accesses
            // usually runs (the oracle proves when), a conditional block usually is not
            // provably taken.
            let mut inside: BTreeSet<Label> = tree.subtree(*x).into_iter().collect();
            inside.insert(*x);
            out.extend(inside.iter().copied().filter(|l| {
                tree.blks(*l)
                    .iter()
                    .filter(|b| inside.contains(b))
                    .all(|b| tree.kind(*b) == Some(crate::kpl::NodeKind::While) || self.entered.contains(b))
            }));
        }
        let (around_first, around_second) = (tree.loops(case.first), tree.loops(case.second));
        let one_sided = around_first
            .iter()
            .filter(|l| !around_second.contains(l))
            .chain(around_second.iter().filter(|l| !around_first.contains(l)));
        for lp in one_sided {
            out.extend(tree.children(*lp).iter().copied());
        }
        out.into_iter().filter(|l| !direct.contains(l)).collect()
    }

    fn clause_of(&self, case: &Case, excluded: &BTreeSet<Var>) -> Vec<Lit> {
        self.lits(case.separating_positions(&self.tree), excluded)
    }

    /// The labels of this kernel that take a barrier when the sites `chosen` do, in label order.
    fn labels_at(&self, chosen: &BTreeSet<Var>) -> Vec<Label> {
        self.var_of.iter().filter(|(_, v)| chosen.contains(v)).map(|(l, _)| *l).collect()
    }

    /// The base kernel with a barrier at every label of the sites `chosen`, and per inserted
    /// barrier statement the site it stands for.
    fn with_barriers(&self, chosen: &BTreeSet<Var>) -> (Kernel, Vec<(Var, Label)>) {
        let mut k = self.base.clone();
        let mut barriers = Vec::new();
        for l in self.labels_at(chosen) {
            if let (Some(b), Some(v)) = (k.insert_barrier_after(l), self.var_of.get(&l)) {
                barriers.push((*v, b));
            }
        }
        (k, barriers)
    }

    fn cost_of(&self, labels: &[Label]) -> Ratio {
        labels.iter().fold(Ratio::new(0, 1), |acc, l| acc.plus(&self.cost[l]))
    }
}

/// The candidate positions of a group of kernels: one variable per *site*, a source position
/// that takes a barrier. Labels with the same [`Place`](crate::kpl::Place) share a site, in one
/// kernel (copies of an inlined device function) or across kernels (instantiations of one
/// template): a barrier written there is executed at every one of them, so they are chosen
/// together. A label that cannot take a barrier in the source is its own site only in KPL
/// (never: such labels get no variable). The weight of a site is the sum of its labels' costs.
struct Sites {
    /// Per site variable, its labels as (unit index, label), in allocation order.
    members: BTreeMap<Var, Vec<(usize, Label)>>,
}

fn build_units<'k>(
    kernels: &'k [Kernel],
    opts: &SynthOptions,
    solver: &mut MaxSat,
) -> Result<(Vec<Unit<'k>>, Sites), SynthError> {
    let mut units = Vec::new();
    let mut by_place: HashMap<crate::kpl::Place, Var> = HashMap::new();
    let mut sites = Sites { members: BTreeMap::new() };
    let mut lcm = BigUint::one();
    for (ui, kernel) in kernels.iter().enumerate() {
        let mut base = kernel.clone();
        if opts.reoptimize {
            base.remove_barriers(&movable_barriers(kernel));
        }
        let tree = LabelTree::new(&base);
        let mut var_of = BTreeMap::new();
        let mut cost = HashMap::new();
        let stmts = base.stmt_index();
        for &l in tree.post_order() {
            if l == Label::MAIN || !base.place(l).is_placeable() {
                continue;
            }
            // A barrier right after a barrier is never needed.
            if matches!(stmts.get(l.0 as usize).copied().flatten().map(|s| &s.kind), Some(StmtKind::Barrier))
            {
                continue;
            }
            let c = barrier_cost(&base, &tree, &opts.cost, l);
            lcm = lcm.lcm(&c.den);
            let v = *by_place.entry(base.place(l).clone()).or_insert_with(|| solver.new_var());
            sites.members.entry(v).or_default().push((ui, l));
            var_of.insert(l, v);
            cost.insert(l, c);
        }
        units.push(Unit {
            original: kernel,
            base,
            tree,
            var_of,
            cost,
            varying: BTreeSet::new(),
            entered: BTreeSet::new(),
            entered_asked: BTreeSet::new(),
            varying_candidates: BTreeSet::new(),
            varying_asked: BTreeSet::new(),
        });
    }
    // Weight = (3 × site count + 1) × cost + 2 + 1 for a site outside the kernel's own body
    // (inside a device function): among placements of equal cost, the one with fewest barriers
    // wins, then the one with fewest in device functions (the user's kernel is where they expect
    // them); a cheaper placement always wins, since the tie-breaks of all sites together (at
    // most 3 each) stay below one cost unit. Exact big integers (costs × the lcm of their
    // denominators), then [`fit_weights`] for the solver's 64 bits.
    let scale = BigUint::from(3 * sites.members.len() as u64 + 1);
    let mut weights: Vec<(Var, BigUint)> = Vec::new();
    for (v, labels) in &sites.members {
        let mut w = BigUint::ZERO;
        for (ui, l) in labels {
            let c = &units[*ui].cost[l];
            w += &c.num * (&lcm / &c.den);
        }
        let outside = labels.iter().any(|(ui, l)| !in_own_body(units[*ui].original, *l));
        weights.push((*v, w * &scale + BigUint::from(2 + u64::from(outside))));
    }
    for (v, w) in fit_weights(weights) {
        solver.add_soft(Lit::neg(v), w);
    }
    Ok((units, sites))
}

/// The solver's weights for exact ones: the same when their sum fits comfortably in 64 bits
/// (below 2^54, leaving the MaxSAT encodings room); otherwise each is scaled down by one power of
/// two so that the largest sum does and rounded up (every weight stays at least 1). Never an
/// error: with 300 nested loops a barrier costs 100^300. Scaled weights keep the order of the
/// weights and their sums up to the rounding (a relative error of at most 2^-40 of the largest
/// weight per site), so the placement found is cheapest up to that rounding: among placements
/// whose costs differ by less, the tie-breaks may pick either. Correctness is unaffected: the
/// placement is verified whatever its weights.
fn fit_weights(weights: Vec<(Var, BigUint)>) -> Vec<(Var, u64)> {
    const LIMIT_BITS: u64 = 54;
    let total: BigUint = weights.iter().map(|(_, w)| w).sum();
    let shift = total.bits().saturating_sub(LIMIT_BITS);
    weights
        .into_iter()
        .map(|(v, w)| {
            let scaled = if shift == 0 {
                w
            } else {
                let rounded_up = (&w >> shift) + u32::from(w.trailing_zeros().unwrap_or(0) < shift);
                rounded_up.max(BigUint::one())
            };
            (v, scaled.to_u64().unwrap_or(u64::MAX >> 10))
        })
        .collect()
}

/// Whether a barrier after `l` goes into the kernel's own body text (not into a device function
/// inlined into it). KPL kernels and kernels without a body span count as their own body.
fn in_own_body(k: &Kernel, l: Label) -> bool {
    let body = k.body.span;
    let at = match k.place(l) {
        crate::kpl::Place::Line { offset, .. } => *offset,
        crate::kpl::Place::Braced { body_start, .. } => *body_start,
        crate::kpl::Place::Not(_) => return true,
    };
    body.start == body.end || (body.start..=body.end).contains(&at)
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
/// `oracles[i]` answers every question about `kernels[i]`: kernels of one group may be launched
/// with different geometry, and each is verified under its own (an oracle built for one member's
/// launch would accept a placement that races under another's). Fewer oracles than kernels is
/// [`SynthError::OracleCount`].
pub fn synthesize_group(
    kernels: &[Kernel],
    oracles: &mut [&mut dyn Oracle],
    opts: &SynthOptions,
) -> Result<(Vec<Synthesis>, SynthStats), SynthError> {
    if oracles.len() != kernels.len() {
        return Err(SynthError::OracleCount { kernels: kernels.len(), oracles: oracles.len() });
    }
    let started = Instant::now();
    let mut stats = SynthStats::default();
    let queries_before = smt_queries(oracles);
    let mut solver = MaxSat::new(opts.engine);
    let (mut units, sites) = build_units(kernels, opts, &mut solver)?;
    let mut excluded: BTreeSet<Var> = BTreeSet::new();
    if opts.mode == Mode::Informed {
        for (unit, oracle) in units.iter_mut().zip(oracles.iter_mut()) {
            let t = Instant::now();
            unit.varying_candidates = oracle.varying_candidates(&unit.base);
            stats.oracle_time += t.elapsed();
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
    let mut iterations = 0u32;
    let impossible = |reasons: Vec<Vec<Unfixable>>| -> Vec<Synthesis> {
        reasons.into_iter().map(|r| Synthesis::Impossible { reasons: dedup(r) }).collect()
    };
    loop {
        let mut verdicts = Vec::new();
        for (unit, oracle) in units.iter().zip(oracles.iter_mut()) {
            let (candidate, _) = unit.with_barriers(&chosen);
            let t = Instant::now();
            verdicts.push((oracle.check_for_synthesis(&candidate), candidate));
            stats.oracle_calls += 1;
            stats.oracle_time += t.elapsed();
        }
        let diverging = verdicts.iter().any(|(v, _)| !v.divergences.is_empty());
        // Grid-level races and undecided cases are left to the report (`Synthesis::Done::remaining`).
        let racing = verdicts.iter().any(|(v, _)| v.races.iter().any(|r| decided_block_race(r).is_some()));
        if diverging {
            let mut stuck: Vec<Vec<Unfixable>> = vec![Vec::new(); units.len()];
            for (ui, (v, _)) in verdicts.iter().enumerate() {
                // Barriers and `syncwarp`s of the input: synthesis never removes them (without
                // --reoptimize) and never moves a `syncwarp`, so their divergence is the input's.
                let mut original = units[ui].base.barriers();
                original.extend(units[ui].base.syncwarps());
                for d in &v.divergences {
                    if original.contains(&d.barrier) {
                        stuck[ui].push(Unfixable::DivergentBarrier { divergence: d.clone() });
                    } else {
                        exclude_block(&mut units[ui], d.block, &mut excluded, &mut solver);
                    }
                }
            }
            if stuck.iter().any(|s| !s.is_empty()) {
                return Ok((impossible(stuck), finish(stats, started, oracles, queries_before, iterations)));
            }
        } else if !racing {
            let finished = finish(stats, started, oracles, queries_before, iterations);
            let results = units
                .iter()
                .zip(verdicts)
                .zip(&seen_races)
                .map(|((unit, (verdict, candidate)), races)| {
                    unit.done(&chosen, candidate, verdict, races, opts)
                })
                .collect();
            return Ok((results, finished));
        } else {
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
                    let Some(race) = decided_block_race(race) else { continue };
                    let race = &race;
                    seen_races[ui].push(race.clone());
                    match opts.mode {
                        Mode::Informed => {
                            for c in &race.cases {
                                let mut clause = unit.clause_of(&c.case, &excluded);
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
            // Barriers never fix grid races or self races: stop once they are all that is left
            // (nothing new to refine), or as soon as a block race proves unfixable.
            let hopeless = unfixable.iter().flatten().any(|u| !matches!(u, Unfixable::GridRace { .. }));
            if !refined || hopeless {
                for (u, d) in unfixable.iter_mut().zip(&deferred) {
                    u.extend(d.iter().cloned());
                }
                return Ok((
                    impossible(unfixable),
                    finish(stats, started, oracles, queries_before, iterations),
                ));
            }
        }
        iterations += 1;
        let out_of_time = opts.budget.is_some_and(|b| started.elapsed() >= b);
        if iterations > opts.max_iterations || out_of_time {
            let gave_up = units.iter().map(|_| Synthesis::GaveUp { iterations }).collect();
            return Ok((gave_up, finish(stats, started, oracles, queries_before, iterations)));
        }
        let t = Instant::now();
        let outcome = solver.solve()?;
        stats.maxsat_calls += 1;
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
                return Ok((
                    impossible(reasons),
                    finish(stats, started, oracles, queries_before, iterations),
                ));
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
        let placement = self.labels_at(chosen);
        let cost = self.cost_of(&placement);
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
        let new_positions: Vec<Label> = placement.iter().copied().filter(|p| !restored.contains(p)).collect();
        let inserted = explain(&new_positions, self, races);
        let remaining = verdict
            .races
            .iter()
            .map(|r| match r.scope {
                Scope::Grid => Unfixable::GridRace { race: r.clone() },
                Scope::Block => Unfixable::Undecided { race: r.clone() },
            })
            .collect();
        Synthesis::Done { kernel: Box::new(candidate), inserted, removed, cost, warnings: verdict, remaining }
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

fn finish(
    mut stats: SynthStats,
    started: Instant,
    oracles: &[&mut dyn Oracle],
    q0: u64,
    iterations: u32,
) -> SynthStats {
    stats.iterations = iterations as u64;
    stats.smt_queries = smt_queries(oracles) - q0;
    stats.total_time = started.elapsed();
    stats
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

fn explain(placement: &[Label], unit: &Unit, races: &[Race]) -> Vec<Inserted> {
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
            Inserted {
                after: *l,
                cost: unit.cost.get(l).map(|c| c.to_string()).unwrap_or_default(),
                separates,
            }
        })
        .collect()
}

/// The paper's P variables and blocking clauses.
#[derive(Default)]
struct PaperState {
    /// Per race location (kernel, ℓ, ℓ'): its P variables (index 0 intra, j inter for the j-th
    /// shared loop).
    pvars: HashMap<(usize, Label, Label), Vec<Var>>,
    last_model: Vec<bool>,
}

impl PaperState {
    fn remember(&mut self, sol: &crate::maxsat::Solution) {
        self.last_model = sol.model.clone();
    }

    fn refine(
        &mut self,
        unit_index: usize,
        race: &Race,
        unit: &Unit,
        excluded: &BTreeSet<Var>,
        solver: &mut MaxSat,
    ) {
        let tree = &unit.tree;
        let key = (unit_index, race.first, race.second);
        let (l, lp) = (race.first, race.second);
        if let Some(ps) = self.pvars.get(&key) {
            // The current P assignment does not fix this race: block it (Alg. 1 line 29).
            let clause: Vec<Lit> = ps
                .iter()
                .map(|v| {
                    if self.last_model.get(v.0 as usize).copied().unwrap_or(false) {
                        Lit::neg(*v)
                    } else {
                        Lit::pos(*v)
                    }
                })
                .collect();
            solver.add_hard(&clause);
            return;
        }
        let shared = tree.shared_loops(l, lp);
        let lits = |labels: Vec<Label>| unit.lits(labels, excluded);
        let p0 = solver.new_var();
        let mut ps = vec![p0];
        let intra = Case { first: l, second: lp, relation: Relation::SameIteration };
        let mut c = vec![Lit::neg(p0)];
        c.extend(lits(intra.separating_positions(tree)));
        solver.add_hard(&c);
        for lj in &shared {
            let pj = solver.new_var();
            let inter =
                Case { first: lp, second: l, relation: Relation::Carried { shared_loop: *lj, gap2: false } };
            let mut c = vec![Lit::neg(pj)];
            c.extend(lits(inter.separating_positions(tree)));
            solver.add_hard(&c);
            ps.push(pj);
        }
        for j in 1..ps.len() {
            for k in j + 1..ps.len() {
                solver.add_hard(&[Lit::neg(ps[j]), Lit::neg(ps[k])]);
            }
        }
        // The empty placement is known to fail: at least one option (Alg. 1 line 12).
        let any: Vec<Lit> = ps.iter().map(|v| Lit::pos(*v)).collect();
        solver.add_hard(&any);
        self.pvars.insert(key, ps);
    }
}

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
    let Ok((units, sites)) = build_units(kernels, opts, &mut solver) else {
        return (None, stats);
    };
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
    let labels = unit.labels_at(&set);
    let cost = unit.cost_of(&labels);
    stats.total_time = started.elapsed();
    stats.smt_queries = oracle.stats().smt_queries - q0;
    (Some((build(&chosen).0, labels, cost)), stats)
}

/// The input's barriers `reoptimize` may remove: those that are a whole source statement (their
/// label has a place). A barrier inside an expression (`__syncthreads_or(p)`) or a macro
/// expansion cannot be deleted from the text, so it stays, as every barrier does without
/// `reoptimize`.
fn movable_barriers(k: &Kernel) -> Vec<Label> {
    k.barriers().into_iter().filter(|l| k.place(*l).is_placeable()).collect()
}
