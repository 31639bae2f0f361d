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

use crate::config::{gcd, CostModel, Ratio};
use crate::kpl::{Kernel, Label, LabelTree, StmtKind};
use crate::maxsat::{Engine, Lit, MaxSat, MaxSatError, Outcome, Var};
use crate::verify::{Case, Oracle, Race, Relation, Scope, Verdict};
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
}

impl Default for SynthOptions {
    fn default() -> SynthOptions {
        SynthOptions {
            mode: Mode::Informed,
            engine: Engine::Minisat,
            reoptimize: false,
            max_iterations: 1000,
            cost: CostModel::default(),
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
    #[error("cost weights do not fit 64 bits (loop nests too deep for the cost model)")]
    WeightOverflow,
}

/// The candidate positions of a kernel and their exact integer weights.
struct Positions {
    vars: BTreeMap<Label, Var>,
    weight: HashMap<Label, u64>,
    cost: HashMap<Label, Ratio>,
}

fn positions(
    k: &Kernel,
    tree: &LabelTree,
    model: &CostModel,
    solver: &mut MaxSat,
) -> Result<Positions, SynthError> {
    let mut costs = Vec::new();
    for &l in tree.post_order() {
        if l == Label::MAIN || !k.place(l).is_placeable() {
            continue;
        }
        // A barrier right after a barrier is never needed.
        if matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Barrier)) {
            continue;
        }
        costs.push((l, model.cost(tree.loops(l).len(), tree.conds(l).len())));
    }
    let lcm = costs.iter().try_fold(1u128, |acc, (_, c)| {
        let g = gcd(acc, c.den);
        (acc / g).checked_mul(c.den)
    });
    let lcm = lcm.ok_or(SynthError::WeightOverflow)?;
    let mut p = Positions { vars: BTreeMap::new(), weight: HashMap::new(), cost: HashMap::new() };
    for (l, c) in costs {
        let w = c
            .num
            .checked_mul(lcm / c.den)
            .filter(|w| *w <= u64::MAX as u128 / 1024)
            .ok_or(SynthError::WeightOverflow)?;
        let v = solver.new_var();
        solver.add_soft(Lit::neg(v), w as u64);
        p.vars.insert(l, v);
        p.weight.insert(l, w as u64);
        p.cost.insert(l, c);
    }
    Ok(p)
}

/// Synthesizes the cheapest barrier placement the oracle accepts.
pub fn synthesize(
    kernel: &Kernel,
    oracle: &mut dyn Oracle,
    opts: &SynthOptions,
) -> Result<(Synthesis, SynthStats), SynthError> {
    let started = Instant::now();
    let mut stats = SynthStats::default();
    let queries_before = oracle.stats().smt_queries;
    let mut base = kernel.clone();
    let original_barriers = kernel.barriers();
    if opts.reoptimize {
        base.remove_barriers(&original_barriers);
    }
    let tree = LabelTree::new(&base);
    let mut solver = MaxSat::new(opts.engine);
    let pos = positions(&base, &tree, &opts.cost, &mut solver)?;
    let mut excluded: BTreeSet<Label> = BTreeSet::new();
    let exclude_block = |b: Label, excluded: &mut BTreeSet<Label>, solver: &mut MaxSat| {
        for l in tree.subtree(b) {
            if excluded.insert(l) {
                if let Some(v) = pos.vars.get(&l) {
                    solver.add_hard(&[Lit::neg(*v)]);
                }
            }
        }
    };
    let mut varying = BTreeSet::new();
    if opts.mode == Mode::Informed {
        let t = Instant::now();
        varying = oracle.varying_blocks(&base);
        stats.oracle_time += t.elapsed();
        for b in &varying {
            exclude_block(*b, &mut excluded, &mut solver);
        }
    }
    let mut paper = PaperState::default();
    let mut seen_races: Vec<Race> = Vec::new();
    let mut unfixable: Vec<Unfixable> = Vec::new();
    let mut candidate = base.clone();
    let mut placement: Vec<Label> = Vec::new();
    let mut iterations = 0u32;
    loop {
        let t = Instant::now();
        let verdict = oracle.check(&candidate);
        stats.oracle_calls += 1;
        stats.oracle_time += t.elapsed();
        if !verdict.divergences.is_empty() {
            for d in &verdict.divergences {
                exclude_block(d.block, &mut excluded, &mut solver);
                varying.insert(d.block);
            }
        } else if verdict.races.is_empty() {
            let cost = placement.iter().fold(Ratio::new(0, 1), |acc, l| acc.plus(pos.cost[l]));
            stats.iterations = iterations as u64;
            stats.smt_queries = oracle.stats().smt_queries - queries_before;
            stats.total_time = started.elapsed();
            // Under `reoptimize`, an original barrier whose position the optimum chooses again
            // stays where it is: it is neither removed nor inserted.
            let mut removed = Vec::new();
            let mut restored = BTreeSet::new();
            if opts.reoptimize {
                for b in &original_barriers {
                    match position_of_barrier(kernel, *b)
                        .filter(|p| placement.contains(p) && !restored.contains(p))
                    {
                        Some(p) => {
                            restored.insert(p);
                        }
                        None => removed.push(*b),
                    }
                }
            }
            let new_positions: Vec<Label> =
                placement.iter().copied().filter(|p| !restored.contains(p)).collect();
            let inserted = explain(&new_positions, &pos, &tree, &seen_races);
            return Ok((
                Synthesis::Done { kernel: Box::new(candidate), inserted, removed, cost, warnings: verdict },
                stats,
            ));
        } else {
            for race in &verdict.races {
                if race.scope == Scope::Grid {
                    unfixable.push(Unfixable::GridRace { race: race.clone() });
                    continue;
                }
                seen_races.push(race.clone());
                match opts.mode {
                    Mode::Informed => {
                        for c in &race.cases {
                            let clause = clause_of(&c.case, &tree, &pos, &excluded);
                            if clause.is_empty() {
                                unfixable.push(why_unfixable(race, &c.case, &tree, &varying));
                            }
                            solver.add_hard(&clause);
                        }
                    }
                    Mode::Paper => paper.refine(race, &tree, &pos, &excluded, &mut solver),
                }
            }
            // Barriers never fix grid races: stop once they are all that is left, or as soon as
            // a block race proves unfixable.
            let only_grid_left = verdict.races.iter().all(|r| r.scope == Scope::Grid);
            let hopeless = unfixable.iter().any(|u| !matches!(u, Unfixable::GridRace { .. }));
            if only_grid_left || hopeless {
                return Ok((
                    Synthesis::Impossible { reasons: dedup(unfixable) },
                    finish(stats, started, oracle, queries_before, iterations),
                ));
            }
        }
        iterations += 1;
        if iterations > opts.max_iterations {
            return Ok((
                Synthesis::GaveUp { iterations },
                finish(stats, started, oracle, queries_before, iterations),
            ));
        }
        let t = Instant::now();
        let outcome = solver.solve()?;
        stats.maxsat_calls += 1;
        stats.maxsat_time += t.elapsed();
        match outcome {
            Outcome::Unsat => {
                let mut reasons: Vec<Unfixable> = seen_races
                    .iter()
                    .flat_map(|r| {
                        r.cases
                            .iter()
                            .filter(|c| clause_of(&c.case, &tree, &pos, &excluded).is_empty())
                            .map(|c| why_unfixable(r, &c.case, &tree, &varying))
                    })
                    .collect();
                if reasons.is_empty() {
                    // No race is hopeless alone: together with the excluded thread-dependent
                    // blocks the constraints conflict, so name every race seen.
                    reasons = seen_races
                        .iter()
                        .map(|r| why_unfixable(r, &r.cases[0].case, &tree, &varying))
                        .collect();
                }
                reasons.extend(unfixable.iter().cloned());
                return Ok((
                    Synthesis::Impossible { reasons: dedup(reasons) },
                    finish(stats, started, oracle, queries_before, iterations),
                ));
            }
            Outcome::Optimal(sol) => {
                placement =
                    pos.vars.iter().filter(|(_, v)| sol.value(Lit::pos(**v))).map(|(l, _)| *l).collect();
                paper.remember(&sol);
                candidate = base.clone();
                for l in &placement {
                    candidate.insert_barrier_after(*l);
                }
            }
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

fn finish(
    mut stats: SynthStats,
    started: Instant,
    oracle: &dyn Oracle,
    q0: u64,
    iterations: u32,
) -> SynthStats {
    stats.iterations = iterations as u64;
    stats.smt_queries = oracle.stats().smt_queries - q0;
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

/// "A barrier after one of these labels" for a case, over the candidate positions.
fn clause_of(case: &Case, tree: &LabelTree, pos: &Positions, excluded: &BTreeSet<Label>) -> Vec<Lit> {
    case.separating_positions(tree)
        .into_iter()
        .filter(|l| !excluded.contains(l))
        .filter_map(|l| pos.vars.get(&l).map(|v| Lit::pos(*v)))
        .collect()
}

fn why_unfixable(race: &Race, case: &Case, tree: &LabelTree, varying: &BTreeSet<Label>) -> Unfixable {
    if case.first == case.second && case.relation == Relation::SameIteration {
        return Unfixable::SelfRace { race: race.clone() };
    }
    let blocks: Vec<Label> = case
        .separating_positions(tree)
        .iter()
        .flat_map(|l| tree.blks(*l).iter().copied().chain(std::iter::once(*l)))
        .filter(|b| varying.contains(b))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    Unfixable::NoValidPosition { race: race.clone(), blocks }
}

fn explain(placement: &[Label], pos: &Positions, tree: &LabelTree, races: &[Race]) -> Vec<Inserted> {
    placement
        .iter()
        .map(|l| {
            let mut separates: Vec<(Label, Label)> = races
                .iter()
                .filter(|r| r.cases.iter().any(|c| c.case.separating_positions(tree).contains(l)))
                .map(|r| (r.first, r.second))
                .collect();
            separates.sort();
            separates.dedup();
            Inserted {
                after: *l,
                cost: pos.cost.get(l).map(|c| c.to_string()).unwrap_or_default(),
                separates,
            }
        })
        .collect()
}

/// The paper's P variables and blocking clauses.
#[derive(Default)]
struct PaperState {
    /// Per race location: its P variables (index 0 intra, j inter for the j-th shared loop).
    pvars: HashMap<(Label, Label), Vec<Var>>,
    last_model: Vec<bool>,
}

impl PaperState {
    fn remember(&mut self, sol: &crate::maxsat::Solution) {
        self.last_model = sol.model.clone();
    }

    fn refine(
        &mut self,
        race: &Race,
        tree: &LabelTree,
        pos: &Positions,
        excluded: &BTreeSet<Label>,
        solver: &mut MaxSat,
    ) {
        let key = (race.first, race.second);
        let (l, lp) = key;
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
        let lits = |labels: Vec<Label>| -> Vec<Lit> {
            labels
                .into_iter()
                .filter(|x| !excluded.contains(x))
                .filter_map(|x| pos.vars.get(&x).map(|v| Lit::pos(*v)))
                .collect()
        };
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

/// The naive baseline (AutoSync Sec. IV-B): a barrier after every placeable label, drop the
/// divergent ones, then remove one at a time unless that makes the oracle complain.
pub fn naive(
    kernel: &Kernel,
    oracle: &mut dyn Oracle,
    opts: &SynthOptions,
) -> (Option<(Kernel, Vec<Label>, Ratio)>, SynthStats) {
    let started = Instant::now();
    let q0 = oracle.stats().smt_queries;
    let mut stats = SynthStats::default();
    let mut base = kernel.clone();
    if opts.reoptimize {
        let all = base.barriers();
        base.remove_barriers(&all);
    }
    let tree = LabelTree::new(&base);
    let mut chosen: Vec<Label> = tree
        .post_order()
        .iter()
        .copied()
        .filter(|l| *l != Label::MAIN && base.place(*l).is_placeable())
        .filter(|l| !matches!(base.stmt(*l).map(|s| &s.kind), Some(StmtKind::Barrier)))
        .collect();
    let build = |chosen: &[Label]| -> (Kernel, Vec<(Label, Label)>) {
        let mut k = base.clone();
        let pairs = chosen.iter().filter_map(|l| k.insert_barrier_after(*l).map(|b| (*l, b))).collect();
        (k, pairs)
    };
    // Drop divergent barriers until none diverges.
    loop {
        let (k, pairs) = build(&chosen);
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
        let bad: BTreeSet<Label> = v.divergences.iter().map(|d| d.barrier).collect();
        chosen.retain(|l| !pairs.iter().any(|(p, b)| p == l && bad.contains(b)));
    }
    let mut i = 0;
    while i < chosen.len() {
        let mut trial = chosen.clone();
        trial.remove(i);
        let (k, _) = build(&trial);
        let v = oracle.check(&k);
        stats.oracle_calls += 1;
        if v.is_clean() {
            chosen = trial;
        } else {
            i += 1;
        }
    }
    let (k, _) = build(&chosen);
    let cost = chosen.iter().fold(Ratio::new(0, 1), |acc, l| {
        acc.plus(opts.cost.cost(tree.loops(*l).len(), tree.conds(*l).len()))
    });
    stats.total_time = started.elapsed();
    stats.smt_queries = oracle.stats().smt_queries - q0;
    (Some((k, chosen, cost)), stats)
}
