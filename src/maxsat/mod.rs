//! Weighted partial MaxSAT over plain Boolean variables, incremental across solves.
//!
//! This module knows nothing about kernels: callers create variables, add hard
//! clauses and soft unit literals, and ask for a model of all hard clauses whose
//! total soft cost is a *proven* minimum. Between solves they may add more hard
//! clauses, new variables and new soft units; the backend keeps its state.
//!
//! # Engines
//!
//! * [`Engine::Minisat`] (default): one incremental Minisat instance
//!   (`rustsat-minisat`, core solver without preprocessing, so that clauses can be
//!   added after any solve) driven by a *solution-improving* (SAT-UNSAT linear)
//!   search. The objective is encoded with rustsat's dynamic polynomial watchdog
//!   ([`rustsat::encodings::pb::DynamicPolyWatchdog`]), whose size is
//!   `O(n log n log W)` — independent of the weight *values*, which matters
//!   because loop-nest weights reach ~10^12. Upper bounds are enforced only via
//!   assumptions, so the encoding and the learnt clauses survive every solve.
//!   Two cheap observations do most of the work:
//!   - soft literals get their satisfied phase as the solver's default
//!     polarity, so the first model is usually (near-)optimal;
//!   - adding hard clauses or soft units can only *raise* the optimum, so the
//!     previous optimum is a lower bound: a model reaching it is optimal without
//!     an UNSAT proof (this happens in the synthesis loop when blocking a
//!     wrong `P` assignment leaves an equally cheap alternative);
//!   - a second lower bound comes from the hard clauses themselves: a feasible
//!     dual of the hitting-set LP (each clause charges the least residual cost
//!     of its literals). Our instances are mostly positive clauses over barrier
//!     positions, where the bound is usually tight. Without it, a kernel with
//!     40 independent phases (issue #17's nested-loop family) made the final
//!     `cost ≤ optimum − 1` refutation run for minutes: a pigeonhole-like
//!     counting argument that CDCL over the DPW encoding finds only by
//!     exhaustion.
//!
//!   The DPW encoding cannot take new inputs, so when soft units were added
//!   since it was built, a fresh one is built over all soft units. The stale
//!   one stays in the solver but is inert: an upper-bound encoding only
//!   propagates from inputs to outputs and is only ever activated by
//!   assumptions.
//! * [`Engine::Z3`]: z3's `Optimize` with `assert_soft`, kept alive across
//!   solves; hard clauses are asserted into the same object. It runs z3's
//!   WMax engine: with the system z3 (4.8.12) the default MaxRes engine
//!   returned *non-optimal* models (cost off by a small weight) on about 1 in
//!   2000 random 14-variable incremental instances checked against
//!   [`brute_force`], for small and large weights alike; WMax and the
//!   Minisat engine had no mismatch in 20000 such instances each.
//!
//! # Why this design (measured)
//!
//! Measured with a scratch benchmark (not committed), release build, on the
//! 2-core development container: 10 seeds × 20 incremental solves of
//! instances shaped like ours — 150 line variables with soft `¬L` weights drawn
//! from {1, 2, 4, 50, 100, 200, 10000, 20000}, 12 initial races each adding
//! 1–3 `P` variables with `P0 ∨ P1 ∨ …` and `¬Pj ∨ L_a ∨ … ∨ L_e`, and between
//! solves a blocking clause on one race's `P` assignment, a new race every
//! third round and a new soft variable every seventh (≈190 variables in the
//! end). The z3 numbers replay the identical call sequence; every cost agreed.
//!
//! | weights                       | Minisat + DPW       | SAT calls / solve | z3 `Optimize` (WMax) |
//! |-------------------------------|---------------------|-------------------|----------------------|
//! | as above                      | 3.5 ms / solve      | 11.9              | 42.7 ms / solve      |
//! | 10% of them × 10^8 (up to 2·10^12) | 3.4 ms / solve | 14.4              | 39.8 ms / solve      |
//!
//! Core-guided search (OLL) would need stratification plus weight-aware core
//! exhaustion to cope with these weights and would have to keep its
//! reformulated objective consistent across new soft units; at a few
//! milliseconds per solve the linear search is fast enough and its optimality
//! argument is one line (the last call is UNSAT under `cost ≤ best − 1`).
//!
//! # Determinism
//!
//! Both engines are deterministic: Minisat uses no randomness by default, the
//! encoding is built from ordered maps (and rustsat's `FxHash`, which has no
//! per-process seed), and z3 runs single-threaded with its fixed default seed.
//! The same sequence of calls therefore yields the same models.

mod minisat;
mod z3opt;

use std::fmt;

pub use crate::limits::MAX_MAXSAT_VARS as MAX_VARS;

/// A Boolean variable of a MaxSAT instance (0-based, dense).
///
/// Variables are only meaningful for the [`MaxSat`] that created them (via
/// [`MaxSat::new_var`]) or, for [`brute_force`], when below its `num_vars`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A literal: a variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    /// The underlying variable.
    pub var: Var,
    /// `true` for `¬var`.
    pub negated: bool,
}

impl Lit {
    /// The positive literal `v` (true iff `v` is true).
    pub fn pos(v: Var) -> Lit {
        Lit { var: v, negated: false }
    }

    /// The negative literal `¬v` (true iff `v` is false).
    pub fn neg(v: Var) -> Lit {
        Lit { var: v, negated: true }
    }

    /// The truth value of this literal under `model` (indexed by `Var.0`);
    /// variables outside the model count as false.
    pub fn eval(self, model: &[bool]) -> bool {
        let value = model.get(self.var.0 as usize).copied().unwrap_or(false);
        value != self.negated
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;

    /// The complementary literal.
    fn not(self) -> Lit {
        Lit { var: self.var, negated: !self.negated }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negated {
            write!(f, "¬x{}", self.var.0)
        } else {
            write!(f, "x{}", self.var.0)
        }
    }
}

/// Which backend solves the instance. Both return proven optima. (The configuration's
/// `synthesis.solver` key names one, in lowercase.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Incremental Minisat with a DPW-encoded objective (SAT-UNSAT search).
    #[default]
    Minisat,
    /// z3's `Optimize` (WMax engine), kept alive across solves.
    Z3,
}

/// An optimal assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Total weight of the soft units that `model` falsifies; minimal among
    /// all models of the hard clauses.
    pub cost: u64,
    /// One value per variable, indexed by `Var.0`; `model.len() == num_vars`.
    /// Satisfies every hard clause.
    pub model: Vec<bool>,
}

impl Solution {
    /// The value of `lit` in this model (false for unknown variables).
    pub fn value(&self, lit: Lit) -> bool {
        lit.eval(&self.model)
    }
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A model with proven minimum cost.
    Optimal(Solution),
    /// The hard clauses have no model.
    Unsat,
}

/// Solver failures. The library never panics on these; it reports them.
#[derive(Debug, thiserror::Error)]
pub enum MaxSatError {
    /// The SAT backend (Minisat via rustsat) reported an error.
    #[error("SAT backend error: {0}")]
    Backend(String),
    /// The pseudo-Boolean encoding of the objective could not be built or used.
    #[error("objective encoding error: {0}")]
    Encoding(String),
    /// z3 answered `unknown` (resource limit, interruption, ...).
    #[error("z3 could not decide the instance: {0}")]
    Z3Unknown(String),
    /// z3 answered `sat` but produced no usable model.
    #[error("z3 returned no usable model")]
    Z3NoModel,
    /// A clause or soft unit mentioned a variable that was never created.
    #[error("literal {lit} mentions unknown variable (only {num_vars} variables exist)")]
    UnknownVar {
        /// The offending literal.
        lit: Lit,
        /// Number of variables that exist.
        num_vars: u32,
    },
    /// The sum of soft weights does not fit in `u64`.
    #[error("sum of soft weights overflows u64")]
    WeightOverflow,
    /// Too many variables (for the variable map or [`brute_force`]).
    #[error("too many variables: {got} (limit {limit})")]
    TooManyVars {
        /// Requested number of variables.
        got: u64,
        /// Supported maximum.
        limit: u64,
    },
    /// A backend returned a model that violates a hard clause (a bug there).
    #[error("backend returned a model violating hard clause #{0}")]
    BadModel(usize),
}

/// Counters for how much work the solver did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Calls to the underlying oracle: SAT calls for Minisat, `check` calls
    /// for z3.
    pub sat_calls: u64,
    /// Calls to [`MaxSat::solve`].
    pub solves: u64,
    /// Minisat engine: SAT calls that proved a bound unreachable (`cost ≤ best − 1`), the
    /// expensive end of a solution-improving search; a lower bound met spares them.
    pub refutations: u64,
}

/// The backend-independent view every engine implements.
trait Backend {
    /// Makes room for a new variable with index `v`.
    fn new_var(&mut self, v: Var) -> Result<(), MaxSatError>;
    /// Adds a hard clause whose literals are known to be in range and which
    /// is not empty.
    fn add_hard(&mut self, clause: &[Lit]) -> Result<(), MaxSatError>;
    /// Adds a soft unit with weight > 0 over a known variable.
    fn add_soft(&mut self, lit: Lit, weight: u64) -> Result<(), MaxSatError>;
    /// Solves; the returned model has one entry per variable and its cost
    /// is computed by [`cost_of`]. The backend counts its oracle calls in
    /// `stats.sat_calls`.
    fn solve(&mut self, stats: &mut Stats) -> Result<Outcome, MaxSatError>;
}

/// An incremental weighted partial MaxSAT instance.
///
/// Guarantees: every [`Outcome::Optimal`] model satisfies all hard clauses
/// added so far and has the minimum total soft cost among all such models;
/// [`Outcome::Unsat`] means no model of the hard clauses exists. The same
/// sequence of calls produces the same answers.
///
/// Misuse reported by `add_hard`/`add_soft` (unknown variables, weight
/// overflow, backend errors) is remembered and returned by the next
/// [`MaxSat::solve`], since those methods return nothing.
pub struct MaxSat {
    engine: Engine,
    backend: Box<dyn Backend>,
    num_vars: u32,
    /// Kept to check every returned model (cheap insurance against backend bugs).
    hard: Vec<Vec<Lit>>,
    soft: Vec<(Lit, u64)>,
    weight_sum: u64,
    /// Set once an empty hard clause was added: the instance stays UNSAT.
    has_empty_clause: bool,
    /// First error from a method that cannot return one.
    pending: Option<MaxSatError>,
    stats: Stats,
}

impl fmt::Debug for MaxSat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MaxSat")
            .field("num_vars", &self.num_vars)
            .field("hard", &self.hard.len())
            .field("soft", &self.soft.len())
            .field("stats", &self.stats)
            .finish()
    }
}

impl MaxSat {
    /// A fresh instance with no variables or constraints, solved by `engine`.
    pub fn new(engine: Engine) -> MaxSat {
        let backend: Box<dyn Backend> = match engine {
            Engine::Minisat => Box::new(minisat::MinisatBackend::new()),
            Engine::Z3 => Box::new(z3opt::Z3Backend::new()),
        };
        MaxSat {
            engine,
            backend,
            num_vars: 0,
            hard: Vec::new(),
            soft: Vec::new(),
            weight_sum: 0,
            has_empty_clause: false,
            pending: None,
            stats: Stats::default(),
        }
    }

    /// Creates the next variable; variables are numbered 0, 1, 2, ...
    pub fn new_var(&mut self) -> Var {
        let v = Var(self.num_vars);
        match self.num_vars.checked_add(1) {
            Some(n) if n <= MAX_VARS => {
                self.num_vars = n;
                let res = self.backend.new_var(v);
                self.remember(res);
            }
            _ => self.remember(Err(MaxSatError::TooManyVars {
                got: u64::from(self.num_vars) + 1,
                limit: u64::from(MAX_VARS),
            })),
        }
        v
    }

    /// A fresh instance (same engine, variables and soft units) with the hard clauses of this
    /// one except those `drop` selects; `None` when it selects none. Incremental solvers cannot
    /// retract a clause, so this is how one is taken back.
    pub fn without_hard(&self, drop: impl Fn(&[Lit]) -> bool) -> Option<MaxSat> {
        if !self.hard.iter().any(|c| drop(c)) {
            return None;
        }
        let mut fresh = MaxSat::new(self.engine);
        for _ in 0..self.num_vars {
            fresh.new_var();
        }
        for c in self.hard.iter().filter(|c| !drop(c)) {
            fresh.add_hard(c);
        }
        for (lit, w) in &self.soft {
            fresh.add_soft(*lit, *w);
        }
        fresh.stats = self.stats;
        Some(fresh)
    }

    /// Number of variables created so far.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Hard clause: every returned model satisfies it. Empty clause => Unsat.
    pub fn add_hard(&mut self, clause: &[Lit]) {
        if let Some(&lit) = clause.iter().find(|l| l.var.0 >= self.num_vars) {
            self.remember(Err(MaxSatError::UnknownVar { lit, num_vars: self.num_vars }));
            return;
        }
        if clause.is_empty() {
            self.has_empty_clause = true;
            return;
        }
        self.hard.push(clause.to_vec());
        let res = self.backend.add_hard(clause);
        self.remember(res);
    }

    /// Soft unit: the cost of a model includes `weight` when `lit` is false in
    /// it. A weight of 0 has no effect and is ignored.
    pub fn add_soft(&mut self, lit: Lit, weight: u64) {
        if lit.var.0 >= self.num_vars {
            self.remember(Err(MaxSatError::UnknownVar { lit, num_vars: self.num_vars }));
            return;
        }
        if weight == 0 {
            return;
        }
        let Some(sum) = self.weight_sum.checked_add(weight) else {
            self.remember(Err(MaxSatError::WeightOverflow));
            return;
        };
        self.weight_sum = sum;
        self.soft.push((lit, weight));
        let res = self.backend.add_soft(lit, weight);
        self.remember(res);
    }

    /// A model of all hard clauses with the minimum total soft cost (proven
    /// minimum), or Unsat. Errors remembered from earlier `add_*` calls are
    /// returned here (and the instance should then be discarded).
    pub fn solve(&mut self) -> Result<Outcome, MaxSatError> {
        self.stats.solves += 1;
        if let Some(err) = self.pending.take() {
            return Err(err);
        }
        if self.has_empty_clause {
            return Ok(Outcome::Unsat);
        }
        let outcome = self.backend.solve(&mut self.stats)?;
        if let Outcome::Optimal(sol) = &outcome {
            if let Some(i) = first_violated(&self.hard, &sol.model) {
                return Err(MaxSatError::BadModel(i));
            }
        }
        Ok(outcome)
    }

    /// Work counters accumulated over the lifetime of this instance.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Stores the first error of a method that cannot return it.
    fn remember(&mut self, res: Result<(), MaxSatError>) {
        if let Err(e) = res {
            self.pending.get_or_insert(e);
        }
    }
}

/// Index of the first hard clause that `model` falsifies, if any.
fn first_violated(hard: &[Vec<Lit>], model: &[bool]) -> Option<usize> {
    hard.iter().position(|clause| !clause.iter().any(|l| l.eval(model)))
}

/// Total weight of the soft units falsified by `model`. Saturates instead of
/// overflowing (callers guarantee the sum of weights fits in `u64`).
pub fn cost_of(soft: &[(Lit, u64)], model: &[bool]) -> u64 {
    soft.iter().filter(|(l, _)| !l.eval(model)).fold(0u64, |acc, (_, w)| acc.saturating_add(*w))
}

/// Largest `num_vars` that [`brute_force`] accepts.
pub const BRUTE_FORCE_MAX_VARS: u32 = 24;

/// Reference solver: enumerates all `2^num_vars` assignments (in increasing
/// binary order, variable 0 as least significant bit) and returns the first
/// one of minimum cost, or `Unsat`. Refuses more than
/// [`BRUTE_FORCE_MAX_VARS`] variables and literals over unknown variables.
pub fn brute_force(num_vars: u32, hard: &[Vec<Lit>], soft: &[(Lit, u64)]) -> Result<Outcome, MaxSatError> {
    if num_vars > BRUTE_FORCE_MAX_VARS {
        return Err(MaxSatError::TooManyVars {
            got: u64::from(num_vars),
            limit: u64::from(BRUTE_FORCE_MAX_VARS),
        });
    }
    let all_lits = hard.iter().flatten().chain(soft.iter().map(|(l, _)| l));
    if let Some(&lit) = all_lits.into_iter().find(|l| l.var.0 >= num_vars) {
        return Err(MaxSatError::UnknownVar { lit, num_vars });
    }
    let mut best: Option<Solution> = None;
    let mut model = vec![false; num_vars as usize];
    for bits in 0u32..(1u32 << num_vars) {
        for (i, value) in model.iter_mut().enumerate() {
            *value = bits >> i & 1 == 1;
        }
        if first_violated(hard, &model).is_some() {
            continue;
        }
        let cost = cost_of(soft, &model);
        if best.as_ref().is_none_or(|b| cost < b.cost) {
            best = Some(Solution { cost, model: model.clone() });
        }
    }
    Ok(best.map_or(Outcome::Unsat, Outcome::Optimal))
}
