//! The candidate positions of a synthesis: one MaxSAT variable per *site* and barrier kind, the
//! kernels of a group with their label trees, and the exact integer weights of the costs.

use super::{BarrierKind, SynthOptions};
use crate::config::{CostModel, Ratio};
use crate::kpl::{Kernel, Label, LabelTree, StmtKind};
use crate::maxsat::{Lit, MaxSat, Var};
use crate::verify::Case;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The cost of a barrier after `l` (AutoSync Sec. III-C): ×LC per enclosing loop, ×IC per
/// enclosing conditional, where the front end's flag guards of the predicated form
/// ([`Kernel::flag_guards`]) are not conditionals: they do not make a barrier rarer.
pub fn barrier_cost(kernel: &Kernel, tree: &LabelTree, model: &CostModel, l: Label) -> Ratio {
    let conds = tree.conds(l).iter().filter(|b| !kernel.flag_guards.contains(b)).count();
    model.cost(tree.loops(l).len(), conds)
}

/// The cost of a warp barrier (`__syncwarp()`) relative to a block barrier at the same position:
/// it waits for the 32 lanes of one warp rather than every warp of the block.
pub fn warp_factor() -> Ratio {
    Ratio::new(1, 2)
}

/// What a barrier that splits a statement costs, in barriers at its position: a split rewrites
/// the statement (a local, the barrier, the write), so it is chosen only where no barrier
/// between statements separates a race.
pub const SPLIT_FACTOR: u64 = 2;

/// One kernel of a synthesis group, with its candidate positions.
pub(super) struct Unit<'k> {
    pub original: &'k Kernel,
    /// The kernel synthesis starts from (the original, without its barriers under `reoptimize`
    /// and without the divergent barriers being repaired).
    pub base: Kernel,
    /// The original's barriers removed from `base` because they diverge (repaired).
    pub dropped: Vec<Label>,
    pub tree: LabelTree,
    /// The block-barrier site variable of every candidate label.
    pub var_of: BTreeMap<Label, Var>,
    /// The warp-barrier site variable of every candidate label (warp synthesis only).
    pub warp_var_of: BTreeMap<Label, Var>,
    /// The cost of a block barrier after each candidate label.
    pub cost: HashMap<Label, Ratio>,
    /// Blocks proven thread-dependent (a barrier in them diverges).
    pub varying: BTreeSet<Label>,
    /// Blocks proven to vary within a warp (a `syncwarp` in them diverges).
    pub warp_varying: BTreeSet<Label>,
    /// `if`/`else` blocks proven entered by every thread that reaches them (informed mode).
    pub entered: BTreeSet<Label>,
    /// The blocks the oracle was asked about for `entered`.
    pub entered_asked: BTreeSet<Label>,
    /// Blocks the syntactic uniformity analysis cannot call uniform (informed mode); the solver
    /// decides those of them in `varying_asked`.
    pub varying_candidates: BTreeSet<Label>,
    pub varying_asked: BTreeSet<Label>,
    /// Positions that split a statement are candidates ([`super::SynthOptions::split`]).
    pub split: bool,
}

impl Unit<'_> {
    /// "A barrier after one of these labels" over this kernel's block-barrier sites, without
    /// excluded sites.
    pub fn lits(&self, labels: impl IntoIterator<Item = Label>, excluded: &BTreeSet<Var>) -> Vec<Lit> {
        lits_of(&self.var_of, labels, excluded)
    }

    /// Like [`Unit::lits`] for warp barriers.
    pub fn warp_lits(&self, labels: impl IntoIterator<Item = Label>, excluded: &BTreeSet<Var>) -> Vec<Lit> {
        lits_of(&self.warp_var_of, labels, excluded)
    }

    /// The `if`/`else` blocks whose `entered` status [`Unit::conditional_positions`] reads for
    /// `case`.
    pub fn entered_questions(&self, case: &Case) -> Vec<Label> {
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
    pub fn conditional_positions(&self, case: &Case) -> Vec<Label> {
        let tree = &self.tree;
        // The refinements do not count barriers for a copy in flight (refine.rs).
        if case.first_is_async_copy(tree) {
            return Vec::new();
        }
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

    /// The block-barrier clause of `case`: a barrier at one of its separating positions.
    pub fn clause_of(&self, case: &Case, excluded: &BTreeSet<Var>) -> Vec<Lit> {
        self.lits(case.separating_positions(&self.tree), excluded)
    }

    /// The labels of this kernel that take a barrier of `kind` when the sites `chosen` do, in
    /// label order.
    pub fn labels_at(&self, chosen: &BTreeSet<Var>, kind: BarrierKind) -> Vec<Label> {
        let vars = match kind {
            BarrierKind::Block | BarrierKind::Named { .. } => &self.var_of,
            BarrierKind::Warp => &self.warp_var_of,
        };
        vars.iter().filter(|(_, v)| chosen.contains(v)).map(|(l, _)| *l).collect()
    }

    /// The base kernel with a barrier at every label of the sites `chosen` (a `syncwarp` for
    /// warp sites), and per inserted statement the site it stands for.
    pub fn with_barriers(&self, chosen: &BTreeSet<Var>) -> (Kernel, Vec<(Var, Label)>) {
        let mut k = self.base.clone();
        let mut barriers = Vec::new();
        for l in self.labels_at(chosen, BarrierKind::Block) {
            if let (Some(b), Some(v)) = (k.insert_barrier_after(l), self.var_of.get(&l)) {
                barriers.push((*v, b));
            }
        }
        for l in self.labels_at(chosen, BarrierKind::Warp) {
            if let (Some(b), Some(v)) = (k.insert_syncwarp_after(l), self.warp_var_of.get(&l)) {
                barriers.push((*v, b));
            }
        }
        (k, barriers)
    }

    /// The cost of a barrier of `kind` after `l`.
    pub fn cost_at(&self, l: Label, kind: BarrierKind) -> Ratio {
        let c = self.cost.get(&l).cloned().unwrap_or_else(|| Ratio::new(0, 1));
        match kind {
            BarrierKind::Block | BarrierKind::Named { .. } => c,
            BarrierKind::Warp => c.times(&warp_factor()),
        }
    }

    /// The total cost of barriers of `kind` after `labels`.
    pub fn cost_of(&self, labels: &[Label], kind: BarrierKind) -> Ratio {
        labels.iter().fold(Ratio::new(0, 1), |acc, l| acc.plus(&self.cost_at(*l, kind)))
    }
}

fn lits_of(
    vars: &BTreeMap<Label, Var>,
    labels: impl IntoIterator<Item = Label>,
    excluded: &BTreeSet<Var>,
) -> Vec<Lit> {
    let mut out: Vec<Lit> = Vec::new();
    for l in labels {
        if let Some(v) = vars.get(&l) {
            if !excluded.contains(v) && !out.contains(&Lit::pos(*v)) {
                out.push(Lit::pos(*v));
            }
        }
    }
    out
}

/// The candidate positions of a group of kernels: one variable per *site* and kind, a source
/// position that takes a barrier. Labels with the same [`Place`](crate::kpl::Place) share a
/// site, in one kernel (copies of an inlined device function) or across kernels (instantiations
/// of one template): a barrier written there is executed at every one of them, so they are
/// chosen together. A label that cannot take a barrier in the source gets no variable. The
/// weight of a site is the sum of its labels' costs.
pub(super) struct Sites {
    /// Per site variable, its labels as (unit index, label), in allocation order.
    pub members: BTreeMap<Var, Vec<(usize, Label)>>,
    /// The sites that stand for a warp barrier (`syncwarp`) rather than a block barrier.
    pub warp: BTreeSet<Var>,
}

/// The units of `kernels` (the barriers `dropped[i]` removed from kernel `i`), their sites as
/// solver variables with soft costs, and at most one barrier kind per position.
pub(super) fn build_units<'k>(
    kernels: &'k [Kernel],
    opts: &SynthOptions,
    dropped: &[Vec<Label>],
    solver: &mut MaxSat,
) -> (Vec<Unit<'k>>, Sites) {
    let mut units = Vec::new();
    let mut by_place: HashMap<(crate::kpl::Place, BarrierKind), Var> = HashMap::new();
    let mut sites = Sites { members: BTreeMap::new(), warp: BTreeSet::new() };
    let mut lcm = BigUint::one();
    // Warp barriers in informed mode only: the paper's algorithm knows one kind.
    let warp = opts.warp && opts.mode == crate::config::Mode::Informed;
    for (ui, kernel) in kernels.iter().enumerate() {
        let mut base = kernel.clone();
        if opts.reoptimize {
            base.remove_barriers(&super::movable_barriers(kernel));
        }
        let drop = dropped.get(ui).cloned().unwrap_or_default();
        base.remove_barriers(&drop);
        let tree = LabelTree::new(&base);
        let mut var_of = BTreeMap::new();
        let mut warp_var_of = BTreeMap::new();
        let mut cost = HashMap::new();
        let stmts = base.stmt_index();
        for &l in tree.post_order() {
            let place = base.place(l);
            if l == Label::MAIN || !place.is_placeable() || (place.is_split() && !opts.split) {
                continue;
            }
            // A barrier right after a barrier is never needed.
            if matches!(stmts.get(l.0 as usize).copied().flatten().map(|s| &s.kind), Some(StmtKind::Barrier))
            {
                continue;
            }
            let mut c = barrier_cost(&base, &tree, &opts.cost, l);
            if base.place(l).is_split() {
                c = c.times(&Ratio::new(u128::from(SPLIT_FACTOR), 1));
            }
            lcm = lcm.lcm(&c.den);
            let mut site = |kind: BarrierKind| {
                let v = *by_place.entry((base.place(l).clone(), kind)).or_insert_with(|| solver.new_var());
                sites.members.entry(v).or_default().push((ui, l));
                if kind == BarrierKind::Warp {
                    sites.warp.insert(v);
                }
                v
            };
            var_of.insert(l, site(BarrierKind::Block));
            if warp {
                warp_var_of.insert(l, site(BarrierKind::Warp));
                lcm = lcm.lcm(&c.times(&warp_factor()).den);
            }
            cost.insert(l, c);
        }
        units.push(Unit {
            original: kernel,
            base,
            dropped: drop,
            tree,
            var_of,
            warp_var_of,
            cost,
            varying: BTreeSet::new(),
            warp_varying: BTreeSet::new(),
            entered: BTreeSet::new(),
            entered_asked: BTreeSet::new(),
            varying_candidates: BTreeSet::new(),
            varying_asked: BTreeSet::new(),
            split: opts.split,
        });
    }
    // Never both kinds at one position: the block barrier orders everything the warp barrier does.
    for ((place, kind), v) in &by_place {
        if *kind == BarrierKind::Block {
            if let Some(w) = by_place.get(&(place.clone(), BarrierKind::Warp)) {
                solver.add_hard(&[Lit::neg(*v), Lit::neg(*w)]);
            }
        }
    }
    // Weight = (3 × site count + 1) × cost + 2 + 1 for a site outside the kernel's own body
    // (inside a device function): among placements of equal cost, the one with fewest barriers
    // wins, then the one with fewest in device functions (the user's kernel is where they expect
    // them); a cheaper placement always wins, since the tie-breaks of all sites together (at
    // most 3 each) stay below one cost unit. Exact big integers (costs × the lcm of their
    // denominators), then [`fit_weights`] for the solver's 64 bits.
    let scale = BigUint::from(3 * sites.members.len() as u64 + 1);
    // Last, among placements equal in all of that, the earliest positions win (each site's
    // rank in program order, all ranks together below one unit of the rest): the placement
    // does not depend on the order in which refinement met the races (the check a language
    // server ran first, a witness the solver picked).
    let n = sites.members.len() as u64;
    let order_scale = BigUint::from(n * n + 1);
    let mut by_position: Vec<(&(usize, Label), Var)> =
        sites.members.iter().filter_map(|(v, labels)| Some((labels.first()?, *v))).collect();
    by_position.sort();
    let rank: BTreeMap<Var, u64> = by_position.iter().enumerate().map(|(i, (_, v))| (*v, i as u64)).collect();
    let mut weights: Vec<(Var, BigUint)> = Vec::new();
    for (v, labels) in &sites.members {
        let kind = if sites.warp.contains(v) { BarrierKind::Warp } else { BarrierKind::Block };
        let mut w = BigUint::ZERO;
        for (ui, l) in labels {
            let c = units[*ui].cost_at(*l, kind);
            w += &c.num * (&lcm / &c.den);
        }
        let outside = labels.iter().any(|(ui, l)| !in_own_body(units[*ui].original, *l));
        let tie = w * &scale + BigUint::from(2 + u64::from(outside));
        weights.push((*v, tie * &order_scale + BigUint::from(rank.get(v).copied().unwrap_or(0))));
    }
    for (v, w) in fit_weights(weights) {
        solver.add_soft(Lit::neg(v), w);
    }
    (units, sites)
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
    let Some(at) = k.place(l).anchor() else { return true };
    body.start == body.end || (body.start..=body.end).contains(&at)
}
