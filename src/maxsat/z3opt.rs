//! The z3 engine: one `Optimize` object (WMax over `assert_soft`) kept for
//! the lifetime of the instance, so that z3 can reuse what it learnt.

use z3::{ast::Bool, Optimize, Params, SatResult};

use super::{cost_of, Backend, Lit, MaxSatError, Outcome, Solution, Stats, Var};

/// z3 state. Uses z3's thread-local context, so it must stay on its thread.
pub(super) struct Z3Backend {
    opt: Optimize,
    /// The z3 constant for each user variable, named by its index.
    vars: Vec<Bool>,
    soft: Vec<(Lit, u64)>,
}

impl Z3Backend {
    pub(super) fn new() -> Z3Backend {
        let opt = Optimize::new();
        // z3 4.8.12's default MaxRes engine returned non-optimal models on
        // about 1 in 2000 small random instances (14 variables, incremental
        // rounds, checked against brute force); WMax never did in 40000.
        let mut params = Params::new();
        params.set_symbol("maxsat_engine", "wmax");
        opt.set_params(&params);
        Z3Backend { opt, vars: Vec::new(), soft: Vec::new() }
    }

    fn lit(&self, lit: Lit) -> Result<Bool, MaxSatError> {
        let var = self
            .vars
            .get(lit.var.0 as usize)
            .ok_or(MaxSatError::UnknownVar { lit, num_vars: self.vars.len() as u32 })?;
        Ok(if lit.negated { var.not() } else { var.clone() })
    }
}

impl Backend for Z3Backend {
    fn new_var(&mut self, v: Var) -> Result<(), MaxSatError> {
        self.vars.push(Bool::new_const(v.0));
        Ok(())
    }

    fn add_hard(&mut self, clause: &[Lit]) -> Result<(), MaxSatError> {
        let lits = clause.iter().map(|&l| self.lit(l)).collect::<Result<Vec<_>, _>>()?;
        self.opt.assert(Bool::or(&lits));
        Ok(())
    }

    fn add_soft(&mut self, lit: Lit, weight: u64) -> Result<(), MaxSatError> {
        self.opt.assert_soft(&self.lit(lit)?, weight, None);
        self.soft.push((lit, weight));
        Ok(())
    }

    fn solve(&mut self, stats: &mut Stats) -> Result<Outcome, MaxSatError> {
        stats.sat_calls += 1;
        match self.opt.check(&[]) {
            SatResult::Unsat => Ok(Outcome::Unsat),
            SatResult::Unknown => Err(MaxSatError::Z3Unknown(
                self.opt.get_reason_unknown().unwrap_or_else(|| "no reason given".into()),
            )),
            SatResult::Sat => {
                let z3_model = self.opt.get_model().ok_or(MaxSatError::Z3NoModel)?;
                let model = self
                    .vars
                    .iter()
                    .map(|v| {
                        // Model completion assigns variables z3 left unconstrained.
                        z3_model.eval(v, true).and_then(|b| b.as_bool()).ok_or(MaxSatError::Z3NoModel)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let cost = cost_of(&self.soft, &model);
                Ok(Outcome::Optimal(Solution { cost, model }))
            }
        }
    }
}
