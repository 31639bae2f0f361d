//! Paper mode: the P variables and blocking clauses of AutoSync's Algorithm 1, over race
//! locations only.

use super::units::Unit;
use crate::kpl::Label;
use crate::maxsat::{Lit, MaxSat, Var};
use crate::verify::{Case, Race, Relation};
use std::collections::{BTreeSet, HashMap};

/// The paper's P variables and blocking clauses.
#[derive(Default)]
pub(super) struct PaperState {
    /// Per race location (kernel, ℓ, ℓ'): its P variables (index 0 intra, j inter for the j-th
    /// shared loop).
    pvars: HashMap<(usize, Label, Label), Vec<Var>>,
    last_model: Vec<bool>,
}

impl PaperState {
    pub fn remember(&mut self, sol: &crate::maxsat::Solution) {
        self.last_model = sol.model.clone();
    }

    pub fn refine(
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
        let intra = Case {
            first: l,
            second: lp,
            relation: Relation::SameIteration,
            first_iteration: None,
            second_iteration: None,
        };
        let mut c = vec![Lit::neg(p0)];
        c.extend(lits(intra.separating_positions(tree)));
        solver.add_hard(&c);
        for lj in &shared {
            let pj = solver.new_var();
            let inter = Case {
                first: lp,
                second: l,
                relation: Relation::carried(*lj, 1),
                first_iteration: None,
                second_iteration: None,
            };
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
