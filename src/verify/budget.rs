//! A query's time: the per-query limit and the oracle's deadline (the per-kernel budget), and
//! the solver's time limit kept in step with them.

use super::OracleStats;
use z3::{Params, Solver};

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
}

impl Limits {
    pub(super) fn new(
        timeout_ms: u32,
        deadline: Option<std::time::Instant>,
        budget: Option<std::time::Duration>,
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
                (d, format!("the verifier ran out of its {} budget on kernel `{kernel}`", describe(b)))
            }),
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
        stats.smt_queries += 1;
        Ok(())
    }

    /// The budget message if the deadline has passed.
    pub(super) fn spent(&self) -> Option<String> {
        let (at, why) = self.deadline.as_ref()?;
        (std::time::Instant::now() >= *at).then(|| why.clone())
    }
}
