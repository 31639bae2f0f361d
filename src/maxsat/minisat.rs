//! The Minisat engine: SAT-UNSAT linear search over a DPW-encoded objective,
//! on a single incremental Minisat instance (see the module docs of
//! [`crate::maxsat`] for why).

use std::collections::BTreeMap;

use rustsat::{
    encodings::pb::{BoundUpper, BoundUpperIncremental, DynamicPolyWatchdog},
    instances::{BasicVarManager, Cnf, ManageVars},
    solvers::{PhaseLit, Solve, SolveIncremental, SolverResult},
    types::{Lit as RsLit, TernaryVal, Var as RsVar},
};
use rustsat_minisat::core::Minisat;

use super::{cost_of, Backend, Lit, MaxSatError, Outcome, Solution, Stats, Var};

/// Improving SAT calls of one solve before the model of the dual bound may replace the search's
/// model (`MinisatBackend::dual_bound_and_model`). Measured: 0 changed 13 fix goldens to other
/// placements of the same cost; 4 left a chain of 80 warp-local phases 4 s in MaxSAT (each
/// step encodes a new bound over every soft unit); 1 changes no golden and takes 18 ms there.
const SAT_STEPS_BEFORE_PRIMAL: u32 = 1;

/// The objective encoding and how many soft units (a prefix of `soft`) it covers.
struct Objective {
    dpw: DynamicPolyWatchdog,
    covers: usize,
}

/// Incremental Minisat plus the bookkeeping to map our variables onto it.
pub(super) struct MinisatBackend {
    solver: Minisat,
    /// Allocates solver variables for both user variables and encoding
    /// auxiliaries, which interleave as the instance grows.
    vars: BasicVarManager,
    /// Solver variable of each user variable (`map[v.0]`).
    map: Vec<RsVar>,
    soft: Vec<(Lit, u64)>,
    /// The hard clauses as given, for [`MinisatBackend::dual_bound_and_model`].
    hard: Vec<Vec<Lit>>,
    /// How many soft units already had their preferred phase set.
    phased: usize,
    objective: Option<Objective>,
    /// Optimum of the previous solve: constraints only ever get added and
    /// weights are positive, so no later model can be cheaper.
    lower_bound: u64,
    /// The hard clauses alone were found UNSAT; adding more keeps them UNSAT.
    unsat: bool,
}

fn backend_err(e: impl std::fmt::Display) -> MaxSatError {
    MaxSatError::Backend(e.to_string())
}

impl MinisatBackend {
    pub(super) fn new() -> MinisatBackend {
        MinisatBackend {
            solver: Minisat::default(),
            vars: BasicVarManager::default(),
            map: Vec::new(),
            soft: Vec::new(),
            hard: Vec::new(),
            phased: 0,
            objective: None,
            lower_bound: 0,
            unsat: false,
        }
    }

    /// The solver literal for `lit`; the caller checked the variable exists.
    fn lit(&self, lit: Lit) -> Result<RsLit, MaxSatError> {
        let var = self
            .map
            .get(lit.var.0 as usize)
            .ok_or(MaxSatError::UnknownVar { lit, num_vars: self.map.len() as u32 })?;
        Ok(var.lit(lit.negated))
    }

    /// Reads the user-variable part of the current SAT model.
    fn model(&self) -> Result<Vec<bool>, MaxSatError> {
        self.map
            .iter()
            .map(|&v| {
                // An unassigned variable cannot matter to any clause; call it false.
                let val = self.solver.var_val(v).map_err(backend_err)?;
                Ok(val == TernaryVal::True)
            })
            .collect()
    }

    /// Makes the solver try the satisfied polarity of new soft literals
    /// first, so that first models are already cheap.
    fn set_phases(&mut self) -> Result<(), MaxSatError> {
        for i in self.phased..self.soft.len() {
            let lit = self.lit(self.soft[i].0)?;
            self.solver.phase_lit(lit).map_err(backend_err)?;
        }
        self.phased = self.soft.len();
        Ok(())
    }

    /// Assumptions enforcing `cost <= ub`, encoding what is still missing.
    fn bound(&mut self, ub: u64) -> Result<Vec<RsLit>, MaxSatError> {
        let ub = usize::try_from(ub).map_err(|_| MaxSatError::WeightOverflow)?;
        if self.objective.as_ref().is_none_or(|o| o.covers != self.soft.len()) {
            // DPW cannot grow; build a fresh one over every soft unit. The old
            // one stays in the solver, inert (see module docs).
            let mut inputs: BTreeMap<RsLit, usize> = BTreeMap::new();
            for &(lit, w) in &self.soft {
                // The objective counts falsified soft literals.
                let violated = !self.lit(lit)?;
                let w = usize::try_from(w).map_err(|_| MaxSatError::WeightOverflow)?;
                let entry = inputs.entry(violated).or_insert(0);
                *entry = entry.checked_add(w).ok_or(MaxSatError::WeightOverflow)?;
            }
            self.objective = Some(Objective { dpw: inputs.into_iter().collect(), covers: self.soft.len() });
        }
        let Some(objective) = self.objective.as_mut() else {
            return Err(MaxSatError::Encoding("objective missing".into()));
        };
        let mut cnf = Cnf::new();
        objective
            .dpw
            .encode_ub_change(ub..=ub, &mut cnf, &mut self.vars)
            .map_err(|e| MaxSatError::Encoding(e.to_string()))?;
        let assumps = objective.dpw.enforce_ub(ub).map_err(|e| MaxSatError::Encoding(e.to_string()))?;
        self.solver.add_cnf(cnf).map_err(backend_err)?;
        Ok(assumps)
    }

    /// A lower bound on the cost of every model of the hard clauses (a feasible solution of the
    /// dual of the hitting-set LP), and a model built from that dual when one is found (the
    /// primal-dual heuristic for hitting sets).
    ///
    /// The bound: making a literal true costs the weight of the soft units it falsifies; each
    /// clause, shortest first, takes the least residual cost among its literals and charges it
    /// to all of them. A model pays at least the charges of the clauses its true literals serve,
    /// and every clause has a true literal, so it pays at least their sum.
    ///
    /// The model: every soft unit satisfied, then each clause still false (shortest first) made
    /// true by its literal of least residual cost (a literal the charges made tight; among
    /// those, one true in `hint`, the SAT solver's model, so that equally cheap placements come
    /// out as the SAT search would give them), then each
    /// true variable of a soft unit, heaviest first, set back where every clause stays true. It
    /// is returned only when it satisfies every hard clause.
    ///
    /// Why: the SAT-UNSAT search ends with a refutation of `cost ≤ optimum − 1`, which Minisat
    /// finds only by exhaustion when the optimum is a sum over many disjoint races (issue #17's
    /// nested-loop family: over two minutes at 40 phases). When the bound meets a model's cost,
    /// that refutation is not needed. And its descent from a first model to the optimum takes
    /// one SAT call per improvement, each over a larger cardinality encoding: with a cheaper
    /// kind of barrier beside each position, the first model often chose every expensive one
    /// (a phase chain of 160 warp-local steps: 170 s in MaxSAT), while this model is the
    /// optimum (issue #39).
    fn dual_bound_and_model(&self, hint: &[bool]) -> (u64, Option<Vec<bool>>) {
        let mut residual: BTreeMap<Lit, u64> = BTreeMap::new();
        for &(lit, w) in &self.soft {
            let e = residual.entry(!lit).or_insert(0);
            *e = e.saturating_add(w);
        }
        // Literals a unit clause makes false cannot serve a clause.
        let fixed_false: std::collections::BTreeSet<Lit> =
            self.hard.iter().filter(|c| c.len() == 1).map(|c| !c[0]).collect();
        let mut clauses: Vec<Vec<Lit>> = self
            .hard
            .iter()
            .map(|c| {
                // A literal listed twice is charged once.
                let lits: std::collections::BTreeSet<Lit> =
                    c.iter().copied().filter(|l| !fixed_false.contains(l)).collect();
                lits.into_iter().collect::<Vec<Lit>>()
            })
            .filter(|c| !c.is_empty())
            .collect();
        clauses.sort_by_key(Vec::len);
        let mut bound: u64 = 0;
        for clause in &clauses {
            let charge = clause.iter().map(|l| residual.get(l).copied().unwrap_or(0)).min().unwrap_or(0);
            if charge == 0 {
                continue;
            }
            bound = bound.saturating_add(charge);
            for l in clause {
                if let Some(r) = residual.get_mut(l) {
                    *r -= charge;
                }
            }
        }
        (bound, self.primal_model(&clauses, &residual, hint))
    }

    /// The model of [`MinisatBackend::dual_bound_and_model`], if it satisfies every hard clause.
    fn primal_model(
        &self,
        clauses: &[Vec<Lit>],
        residual: &BTreeMap<Lit, u64>,
        hint: &[bool],
    ) -> Option<Vec<bool>> {
        let mut model = vec![false; self.map.len()];
        for &(lit, _) in &self.soft {
            *model.get_mut(lit.var.0 as usize)? = !lit.negated;
        }
        let cost = |l: &Lit| residual.get(l).copied().unwrap_or(0);
        for clause in clauses {
            if clause.iter().any(|l| l.eval(&model)) {
                continue;
            }
            let pick = clause.iter().min_by_key(|l| (cost(l), !l.eval(hint), **l))?;
            *model.get_mut(pick.var.0 as usize)? = !pick.negated;
        }
        // Undo what a later choice made unnecessary, the heaviest first.
        let mut weights: BTreeMap<Var, u64> = BTreeMap::new();
        for &(lit, w) in &self.soft {
            let e = weights.entry(lit.var).or_insert(0);
            *e = e.saturating_add(w);
        }
        let mut flippable: Vec<(u64, Var)> = self
            .soft
            .iter()
            .filter(|(lit, _)| !lit.eval(&model))
            .map(|(lit, _)| (weights.get(&lit.var).copied().unwrap_or(0), lit.var))
            .collect();
        flippable.sort_by(|a, b| b.cmp(a));
        flippable.dedup();
        for (_, var) in flippable {
            let i = var.0 as usize;
            model[i] = !model[i];
            let broken =
                self.hard.iter().any(|c| c.iter().any(|l| l.var == var) && !c.iter().any(|l| l.eval(&model)));
            if broken {
                model[i] = !model[i];
            }
        }
        self.hard.iter().all(|c| c.iter().any(|l| l.eval(&model))).then_some(model)
    }

    fn sat_call(&mut self, assumps: &[RsLit], stats: &mut Stats) -> Result<Option<Vec<bool>>, MaxSatError> {
        stats.sat_calls += 1;
        let res = if assumps.is_empty() { self.solver.solve() } else { self.solver.solve_assumps(assumps) };
        match res.map_err(backend_err)? {
            SolverResult::Sat => Ok(Some(self.model()?)),
            SolverResult::Unsat => Ok(None),
            SolverResult::Interrupted => Err(MaxSatError::Backend("minisat was interrupted".into())),
        }
    }
}

impl Backend for MinisatBackend {
    fn new_var(&mut self, v: Var) -> Result<(), MaxSatError> {
        debug_assert_eq!(v.0 as usize, self.map.len());
        let var = self.vars.new_var();
        self.map.push(var);
        // Make Minisat aware of the variable so every model assigns it.
        self.solver.reserve(var).map_err(backend_err)
    }

    fn add_hard(&mut self, clause: &[Lit]) -> Result<(), MaxSatError> {
        let lits = clause.iter().map(|&l| self.lit(l)).collect::<Result<Vec<_>, _>>()?;
        self.hard.push(clause.to_vec());
        self.solver.add_clause(lits.into_iter().collect()).map_err(backend_err)
    }

    fn add_soft(&mut self, lit: Lit, weight: u64) -> Result<(), MaxSatError> {
        self.soft.push((lit, weight));
        Ok(())
    }

    fn solve(&mut self, stats: &mut Stats) -> Result<Outcome, MaxSatError> {
        if self.unsat {
            return Ok(Outcome::Unsat);
        }
        self.set_phases()?;
        let Some(mut model) = self.sat_call(&[], stats)? else {
            self.unsat = true;
            return Ok(Outcome::Unsat);
        };
        let mut cost = cost_of(&self.soft, &model);
        // The dual bound and its model, computed when the SAT model is not already optimal.
        let mut primal: Option<Vec<bool>> = None;
        if cost > self.lower_bound {
            let (dual, model_of_dual) = self.dual_bound_and_model(&model);
            self.lower_bound = self.lower_bound.max(dual);
            primal = model_of_dual;
            // A model of the dual that meets the bound is optimal: no SAT step can beat it, and
            // the first one encodes the whole objective (a phase chain of 80 nested loops with
            // warp barriers offered: 5 s of 6 in MaxSAT). With the rank term of the weights
            // (`synth::units`) an optimum is one placement, the one the search would reach.
            if let Some(p) = primal.take() {
                let p_cost = cost_of(&self.soft, &p);
                if p_cost <= self.lower_bound && p_cost < cost {
                    (model, cost) = (p, p_cost);
                } else {
                    primal = Some(p);
                }
            }
        }
        // Improve until no cheaper model exists or the lower bound is met.
        let mut steps = 0;
        while cost > self.lower_bound {
            // After the first improving step, jump to the model of the dual when it is cheaper: each
            // step is one SAT call over a larger encoding, and a search that needs many walks down
            // one barrier at a time (issue #39). The first steps stay the SAT search's, whose
            // models are the placements `fix` has always given among equally cheap ones.
            if steps == SAT_STEPS_BEFORE_PRIMAL {
                if let Some(p) = primal.take() {
                    let p_cost = cost_of(&self.soft, &p);
                    if p_cost < cost {
                        (model, cost) = (p, p_cost);
                        continue;
                    }
                }
            }
            steps += 1;
            let assumps = self.bound(cost - 1)?;
            let Some(better) = self.sat_call(&assumps, stats)? else {
                stats.refutations += 1;
                break;
            };
            let better_cost = cost_of(&self.soft, &better);
            if better_cost >= cost {
                // The bound was not enforced: continuing could loop forever.
                return Err(MaxSatError::Encoding(format!(
                    "model of cost {better_cost} under bound {}",
                    cost - 1
                )));
            }
            model = better;
            cost = better_cost;
        }
        self.lower_bound = cost;
        Ok(Outcome::Optimal(Solution { cost, model }))
    }
}
