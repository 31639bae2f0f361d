//! Races in code that only some warps run, repaired with the kernel's own named barriers.
//!
//! A race between two threads of one warp role (`if (warp < 4) { … }`, half of the block) has
//! no `__syncthreads()` position: every separating position is inside the role's conditional,
//! which the other threads never reach (`Unfixable::NoValidPosition`). Where the kernel already
//! synchronizes that role with a named barrier (`bar.sync id, n` directly under the same
//! conditional), another instance of that barrier at a separating position is what its author
//! would write: the same threads reach it the same number of times — at a place no other label
//! shares (the statement is written `asm volatile("bar.sync id, n;")` with this copy's id: a
//! device function inlined once per role would take every role's instance). The oracle decides: the
//! instance is kept only when the race is gone and nothing new is reported (its count, the
//! role's unequal participation, an arrival running ahead: docs/semantics.md, "Named barriers").

use super::{Inserted, Synthesis, Unfixable};
use crate::config::CostModel;
use crate::kpl::named::{self, FIRST_OBJECT_ID};
use crate::kpl::{Kernel, Label, LabelTree, Place, StmtKind};
use crate::verify::Oracle;
use std::collections::BTreeSet;

/// [`Synthesis::Done`] with each race that no block barrier position separates repaired by an
/// instance of the kernel's own named barrier where the oracle accepts one; anything else as it is.
pub(super) fn named_repair(result: Synthesis, oracle: &mut dyn Oracle, model: &CostModel) -> Synthesis {
    let Synthesis::Done { mut kernel, mut inserted, removed, moved, mut cost, warnings, mut remaining } =
        result
    else {
        return result;
    };
    let mut i = 0;
    while i < remaining.len() {
        let Unfixable::NoValidPosition { race, .. } = &remaining[i] else {
            i += 1;
            continue;
        };
        let pair = (race.first, race.second);
        let tree = LabelTree::new(&kernel);
        let region = |l: Label| tree.conds(l).into_iter().rev().find(|b| !kernel.flag_guards.contains(b));
        let own = own_barriers(&kernel);
        let mut candidates: Vec<(Label, u32, u32)> = Vec::new();
        for case in &race.cases {
            for p in case.case.separating_positions(&tree) {
                // A place the source shares with other labels (a device function inlined twice,
                // once per role with its own barrier id) would take the literal instance in
                // every copy: not repaired.
                let shared = kernel.places.iter().filter(|q| *q == kernel.place(p)).count() > 1;
                if matches!(kernel.place(p), Place::Not(_)) || shared || region(p).is_none() {
                    continue;
                }
                for &(b, id, count) in &own {
                    if region(b) == region(p) && !candidates.contains(&(p, id, count)) {
                        candidates.push((p, id, count));
                    }
                }
            }
        }
        candidates
            .sort_by_key(|(p, id, _)| (super::units::barrier_cost(&kernel, &tree, model, *p), p.0, *id));
        let before = race_pairs(&remaining);
        let divergent = remaining.iter().filter(|u| matches!(u, Unfixable::DivergentBarrier { .. })).count();
        let mut repaired = None;
        for (p, id, count) in candidates {
            let mut candidate = (*kernel).clone();
            if candidate.insert_named_after(p, id, count).is_none()
                || named::add_counters(&mut candidate).is_err()
            {
                continue;
            }
            let v = oracle.check(&candidate);
            let after: BTreeSet<(Label, Label)> =
                v.races.iter().filter(|r| !r.is_benign()).map(|r| (r.first, r.second)).collect();
            let nothing_new =
                after.is_subset(&before) && v.divergences.len() <= divergent && v.undecided == 0;
            if nothing_new && !after.contains(&pair) {
                let c = super::units::barrier_cost(&candidate, &LabelTree::new(&candidate), model, p);
                repaired = Some((candidate, p, id, count, c, after));
                break;
            }
        }
        let Some((candidate, p, id, count, c, after)) = repaired else {
            i += 1;
            continue;
        };
        let fixed: Vec<(Label, Label)> = before.difference(&after).copied().collect();
        inserted.push(Inserted {
            after: p,
            kind: super::BarrierKind::Named { id, count },
            cost: c.to_string(),
            separates: fixed,
        });
        cost = cost.plus(&c);
        *kernel = candidate;
        // The races the instance separated leave the list (one instance may separate several).
        remaining.retain(|u| u.race().is_none_or(|r| after.contains(&(r.first, r.second))));
        i = 0;
    }
    Synthesis::Done { kernel, inserted, removed, moved, cost, warnings, remaining }
}

/// The kernel's own waiting PTX named barriers with a count: label, id, count.
fn own_barriers(k: &Kernel) -> Vec<(Label, u32, u32)> {
    let mut out = Vec::new();
    k.walk(&mut |s| {
        if let StmtKind::NamedBarrier { id, count: Some(n), wait: true } = s.kind {
            if id < FIRST_OBJECT_ID {
                out.push((s.label, id, n));
            }
        }
    });
    out
}

/// The access pairs of the races among `remaining`.
fn race_pairs(remaining: &[Unfixable]) -> BTreeSet<(Label, Label)> {
    remaining.iter().filter_map(Unfixable::race).map(|r| (r.first, r.second)).collect()
}
