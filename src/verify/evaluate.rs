//! One check of a kernel against its analysis: which access pairs race in which cases, and
//! which barriers diverge ([`Z3Oracle::evaluate`]). Under `lazy` (a synthesis loop's checks,
//! [`super::Oracle::check_for_synthesis`]) the cases with the fewest separating positions are
//! asked first and a case is skipped when a race case already found has all its separating
//! positions among its own: any barrier the synthesis places for the found case separates it
//! too, and a check that finds no race skips nothing.

use super::*;

impl Z3Oracle {
    /// The verdict for `kernel` (its barriers `barriers`, its label tree `tree`) from the analysis
    /// `key` of its barrier-free form.
    pub(super) fn evaluate(
        &mut self,
        key: u64,
        tree: &LabelTree,
        barriers: &[Label],
        kernel: &Kernel,
        lazy: bool,
    ) -> Verdict {
        let mut verdict = Verdict::default();
        let acc = accesses(&self.analyses[&key].kernel, tree);
        let syncwarps = kernel.syncwarps();
        let gridsyncs = kernel.gridsyncs();
        // Atomics of block scope: between blocks, plain read-modify-writes.
        let mut block_atomics = BTreeSet::new();
        self.analyses[&key].kernel.walk(&mut |s| {
            if s.is_block_scoped_atomic() {
                block_atomics.insert(s.label);
            }
        });
        let grid_conflicting = |a: Label, ka: (AccessKind, u32), b: Label, kb: (AccessKind, u32)| {
            conflicting(ka, kb) || block_atomics.contains(&a) || block_atomics.contains(&b)
        };
        let grid_possible = self.opts.geometry.grid_dim.is_none_or(|g| g.iter().product::<u32>() > 1);
        // The conflicting access pairs, in program order (also those that conflict between blocks
        // only), and the cases of each that no barrier separates.
        let mut pairs: Vec<(usize, usize, Vec<Case>)> = Vec::new();
        for i in 0..acc.len() {
            for j in i..acc.len() {
                let (a, ref arr_a, ka, _, wa) = acc[i];
                let (b, ref arr_b, kb, _, wb) = acc[j];
                if arr_a != arr_b || !grid_conflicting(a, (ka, wa), b, (kb, wb)) {
                    continue;
                }
                let block_conflict = conflicting((ka, wa), (kb, wb));
                let cases = if !block_conflict || self.apart(key, a, b) {
                    Vec::new()
                } else {
                    cases::cases_of_pair(tree, a, b)
                };
                pairs.push((
                    i,
                    j,
                    cases.into_iter().filter(|c| !c.is_separated_by(tree, barriers)).collect(),
                ));
            }
        }
        // The order the cases are asked in: program order, or under `lazy` the cases with fewer
        // separating positions first, as they are the likelier to make others redundant.
        let mut order: Vec<(usize, usize, Vec<Label>)> = Vec::new();
        for (pi, (_, _, cases)) in pairs.iter().enumerate() {
            for (ci, case) in cases.iter().enumerate() {
                let mut positions = if lazy { case.separating_positions(tree) } else { Vec::new() };
                positions.sort();
                order.push((pi, ci, positions));
            }
        }
        if lazy {
            order.sort_by_key(|(pi, ci, positions)| (positions.len(), *pi, *ci));
        }
        let mut outcomes: Vec<Vec<Option<Outcome>>> =
            pairs.iter().map(|(_, _, cases)| vec![None; cases.len()]).collect();
        // Under `lazy`: the separating positions of the non-benign race cases found so far.
        let mut found: Vec<&[Label]> = Vec::new();
        for (pi, ci, positions) in &order {
            let (i, j, cases) = &pairs[*pi];
            let ((a, _, ka, ..), (b, _, kb, ..)) = (&acc[*i], &acc[*j]);
            let case = cases[*ci];
            // A larger gap needs asking only when every smaller one is impossible.
            if let Relation::Carried { shared_loop, gap, .. } = case.relation {
                let smaller = |c: &Case| {
                    c.first == case.first
                        && c.second == case.second
                        && matches!(c.relation, Relation::Carried { shared_loop: l, gap: g, .. } if l == shared_loop && g < gap)
                };
                let smaller_found = cases.iter().zip(&outcomes[*pi]).any(|(c, o)| {
                    smaller(c) && matches!(o, Some(Outcome::Race { .. } | Outcome::Unknown(_)))
                });
                if smaller_found {
                    continue;
                }
            }
            if found.iter().any(|f| f.iter().all(|l| positions.binary_search(l).is_ok())) {
                continue;
            }
            let refinement = match self.analyses.get(&key) {
                Some(an) => refine::constraints(tree, &an.block.traces, barriers, &case, *a),
                None => (Vec::new(), Vec::new()),
            };
            // A `syncwarp` between every pair of instances of the case orders two threads
            // of one warp (it does not diverge, or that is reported below).
            let warp_separated = case.is_separated_by(tree, &syncwarps);
            let outcome = self.case_outcome(key, tree, *a, *b, &case, *ka, *kb, refinement, warp_separated);
            // A case no barrier separates (no positions) makes no other case redundant: synthesis
            // may keep it aside as possibly benign and go on with the others.
            if lazy && !positions.is_empty() && matches!(outcome, Outcome::Race { benign: false, .. }) {
                found.push(positions);
            }
            outcomes[*pi][*ci] = Some(outcome);
        }
        for ((i, j, cases), outcomes) in pairs.iter().zip(outcomes) {
            let (a, ref arr_a, ka, space, _) = acc[*i];
            let (b, _, kb, ..) = acc[*j];
            let mut cases_found = Vec::new();
            for (case, outcome) in cases.iter().zip(outcomes) {
                match outcome {
                    None | Some(Outcome::None) => {}
                    Some(Outcome::Race { witness, benign }) => cases_found.push(RaceCase {
                        case: *case,
                        witness: Some(witness),
                        undecided: None,
                        benign,
                    }),
                    Some(Outcome::Unknown(why)) => {
                        verdict.undecided += 1;
                        cases_found.push(RaceCase {
                            case: *case,
                            witness: None,
                            undecided: Some(why),
                            benign: false,
                        })
                    }
                }
            }
            if !cases_found.is_empty() {
                let race = Race {
                    first: a,
                    second: b,
                    array: arr_a.clone(),
                    kinds: [ka, kb],
                    scope: Scope::Block,
                    cases: cases_found,
                };
                if race.is_benign() && !self.opts.strict {
                    verdict.benign.push(race);
                } else {
                    verdict.races.push(race);
                }
            }
            let race_of = |scope, outcomes: Vec<(Case, Outcome)>, verdict: &mut Verdict| {
                let cases = race_cases(outcomes, verdict);
                if !cases.is_empty() {
                    verdict.races.push(Race {
                        first: a,
                        second: b,
                        array: arr_a.clone(),
                        kinds: [ka, kb],
                        scope,
                        cases,
                    });
                }
            };
            if tree.is_async_copy(a) || tree.is_async_copy(b) {
                let outcomes = self.own_cases(key, tree, a, b);
                race_of(Scope::Copy, outcomes, &mut verdict);
            }
            if space == Space::Global && grid_possible {
                let outcomes = self.grid_cases(key, tree, &gridsyncs, a, b);
                race_of(Scope::Grid, outcomes, &mut verdict);
            }
        }
        // Divergence of the kernel's barriers (block and grid) within a block, and of its
        // `syncwarp`s within a warp.
        let varying = self.analyses[&key].uniformity.varying_blocks.clone();
        let guards = self.analyses[&key].uniformity.varying_guards.clone();
        let barriers = kernel.block_separators().into_iter().map(|b| (b, false));
        for (b, warp) in barriers.chain(syncwarps.iter().map(|s| (*s, true))) {
            let Some(parent) = tree.parent(b) else { continue };
            if !varying.contains(&parent) {
                continue;
            }
            let culprit = tree.blks(b).iter().rev().copied().find(|x| guards.contains(x)).unwrap_or(parent);
            let outcome = self.block_divergence(key, parent, warp);
            record_divergence(&mut verdict, b, culprit, outcome);
        }
        let (named, undecided) = self.named_divergences(key, tree);
        verdict.divergences.extend(named);
        verdict.undecided += undecided;
        // Grid barriers across blocks: two threads of different blocks that disagree on entering
        // the block that holds one (its loops at the same iterations). Nothing syntactic rules
        // this out: `blockIdx` is uniform within a block only.
        if grid_possible {
            for g in gridsyncs {
                let Some(parent) = tree.parent(g) else { continue };
                if parent == Label::MAIN || verdict.divergences.iter().any(|d| d.barrier == g) {
                    continue;
                }
                let outcome = self.grid_divergence(key, parent);
                record_divergence(&mut verdict, g, parent, outcome);
            }
        }
        verdict
    }
}

/// The race cases among `outcomes` (an undecided one counted in `verdict`): the cases of a
/// scope asked one by one (a thread and its own copy, threads of different blocks).
fn race_cases(outcomes: Vec<(Case, Outcome)>, verdict: &mut Verdict) -> Vec<RaceCase> {
    let mut cases = Vec::new();
    for (case, outcome) in outcomes {
        let (witness, undecided) = match outcome {
            Outcome::None => continue,
            Outcome::Race { witness, .. } => (Some(witness), None),
            Outcome::Unknown(why) => {
                verdict.undecided += 1;
                (None, Some(why))
            }
        };
        cases.push(RaceCase { case, witness, undecided, benign: false });
    }
    cases
}

/// Adds the divergence of `barrier` (in `block`) that a divergence query answered, if any: with
/// the witness's threads, or undecided with the reason.
fn record_divergence(verdict: &mut Verdict, barrier: Label, block: Label, outcome: Outcome) {
    let (threads, undecided) = match outcome {
        Outcome::None => return,
        Outcome::Race { witness, .. } => (Some(witness.threads), None),
        Outcome::Unknown(why) => {
            verdict.undecided += 1;
            (None, Some(why))
        }
    };
    verdict.divergences.push(Divergence { barrier, block, threads, undecided, named: None });
}
