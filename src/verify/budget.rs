//! A query's limits: the solver work (z3's resource units) a kernel and each of its queries may
//! spend, and the wall-clock safety nets above them (the per-query time limit and the oracle's
//! deadline), with the solver's limits kept in step.
//!
//! Why work and not time: a wall-clock budget gives a kernel another verdict beside other work
//! or on a slower machine (held-out ML files: 21 undecided kernels in one run, 12 in the next).
//! z3's resource count is the same for the same queries in the same order, which the oracle
//! guarantees (module docs of `verify`), so a verdict under a work budget is the same alone, in
//! parallel and under load.

use super::OracleStats;
use std::cell::Cell;
use std::rc::Rc;
use z3::{Params, Solver, StatisticsValue};

/// The solver work one oracle (one kernel) may spend, shared by all its modes.
#[derive(Clone, Debug)]
pub(super) struct Work {
    /// Units for the kernel (0: no limit).
    pub(super) kernel: u64,
    /// Units for one query (0: no limit).
    pub(super) query: u64,
    /// This thread's z3 resource count at the oracle's first query (z3 counts per context, and
    /// each thread has its own), and whether the kernel's units ran out.
    state: Rc<WorkState>,
}

#[derive(Debug, Default)]
struct WorkState {
    start: Cell<Option<u64>>,
    used: Cell<u64>,
    spent: Cell<bool>,
}

impl Work {
    /// A fresh budget of `kernel` units, at most `query` per query (0: no limit for either).
    pub(super) fn new(kernel: u64, query: u64) -> Work {
        Work { kernel, query, state: Rc::new(WorkState::default()) }
    }

    /// Whether the kernel's units ran out.
    pub(super) fn spent(&self) -> bool {
        self.state.spent.get()
    }

    /// Reads the count through `solver` and returns the units spent since the first query.
    fn observe(&self, solver: &Solver) -> u64 {
        let now = resource_count(solver);
        let start = self.state.start.get().unwrap_or_else(|| {
            self.state.start.set(Some(now));
            now
        });
        let used = now.saturating_sub(start).max(self.state.used.get());
        self.state.used.set(used);
        used
    }
}

/// z3's resource count of the context `solver` lives in (cumulative; it only grows).
fn resource_count(solver: &Solver) -> u64 {
    match solver.get_statistics().value("rlimit count") {
        Some(StatisticsValue::UInt(v)) => u64::from(v),
        Some(StatisticsValue::Double(v)) if v.is_finite() && v >= 0.0 => v as u64,
        _ => 0,
    }
}

/// How long a query may run: the per-query limit, and the oracle's deadline with what the
/// undecided reason says about it.
#[derive(Clone, Debug)]
pub(super) struct Limits {
    /// The per-query time limit (0: none), for the undecided reason.
    pub(super) timeout_ms: u32,
    /// The deadline and the message of an answer it cut short.
    pub(super) deadline: Option<(std::time::Instant, String)>,
    /// The time limit the mode's solver holds now (`arm`; 0: none).
    armed_ms: std::cell::Cell<u32>,
    /// The kernel's work budget and the message of an answer it cut short.
    work: Option<(Work, String)>,
    /// The resource limit the mode's solver holds now (`arm`; 0: none).
    armed_units: Cell<u64>,
}

impl Limits {
    pub(super) fn new(
        timeout_ms: u32,
        deadline: Option<std::time::Instant>,
        budget: Option<std::time::Duration>,
        work: &Work,
        kernel: &str,
    ) -> Limits {
        let describe = |b: std::time::Duration| {
            let s = b.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{s:.0} s")
            } else {
                format!("{s} s")
            }
        };
        Limits {
            timeout_ms,
            armed_ms: std::cell::Cell::new(timeout_ms),
            deadline: deadline.zip(budget).map(|(d, b)| {
                (
                    d,
                    format!(
                        "the verifier ran out of its {} wall-clock budget on kernel `{kernel}`",
                        describe(b)
                    ),
                )
            }),
            work: (work.kernel > 0 || work.query > 0).then(|| {
                (
                    work.clone(),
                    format!(
                        "the verifier ran out of its work budget ({} units) on kernel `{kernel}`",
                        work.kernel
                    ),
                )
            }),
            armed_units: Cell::new(0),
        }
    }

    /// The time limit of the next query in milliseconds (0: none), or the budget message when
    /// nothing is left.
    pub(super) fn next_query(&self) -> Result<u32, String> {
        let Some((at, why)) = &self.deadline else { return Ok(self.timeout_ms) };
        let left = at.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(why.clone());
        }
        let left_ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
        Ok(if self.timeout_ms > 0 { left_ms.min(self.timeout_ms) } else { left_ms })
    }

    /// Readies `solver` (the mode's) for the next query: under a deadline, it gets about the
    /// time that is left (the per-query limit set at its making otherwise stands). Counts the
    /// query in `stats`; the budget message when nothing is left (and then no query is asked).
    ///
    /// The limit is changed only when the one the solver holds would overrun the deadline by
    /// more than 1/16 of what is left: z3 re-reads all of a solver's parameters on each change
    /// (about a millisecond), and with the default budget every query would pay it. The limits
    /// armed fall geometrically, so a budget sees a few dozen changes at most.
    pub(super) fn arm(&self, solver: &Solver, stats: &mut OracleStats) -> Result<(), String> {
        let timeout_ms = self.next_query()?;
        let armed = self.armed_ms.get();
        if self.deadline.is_some() && (armed == 0 || armed > timeout_ms.saturating_add(timeout_ms / 16)) {
            let mut p = Params::new();
            p.set_u32("timeout", timeout_ms);
            solver.set_params(&p);
            self.armed_ms.set(timeout_ms);
        }
        if let Some((work, why)) = &self.work {
            let used = work.observe(solver);
            stats.solver_work = stats.solver_work.max(used);
            let left = if work.kernel > 0 {
                if used >= work.kernel {
                    work.state.spent.set(true);
                    return Err(why.clone());
                }
                work.kernel - used
            } else {
                u64::MAX
            };
            let units = if work.query > 0 { left.min(work.query) } else { left };
            // z3's limit counts from the start of each check. Same hysteresis as the time limit.
            let armed = self.armed_units.get();
            if armed == 0 || armed > units.saturating_add(units / 16) {
                let mut p = Params::new();
                p.set_u32("rlimit", u32::try_from(units).unwrap_or(u32::MAX));
                solver.set_params(&p);
                self.armed_units.set(units);
            }
        }
        stats.smt_queries += 1;
        Ok(())
    }

    /// The budget message if the deadline has passed or the kernel's work ran out (read through
    /// `solver`, the one that just answered).
    pub(super) fn spent(&self, solver: &Solver) -> Option<String> {
        if let Some((work, why)) = &self.work {
            if work.kernel > 0 && work.observe(solver) >= work.kernel {
                work.state.spent.set(true);
                return Some(why.clone());
            }
        }
        let (at, why) = self.deadline.as_ref()?;
        (std::time::Instant::now() >= *at).then(|| why.clone())
    }

    /// The per-query work limit (0: none), for the undecided reason.
    pub(super) fn query_units(&self) -> u64 {
        self.work.as_ref().map_or(0, |(w, _)| w.query)
    }
}
