//! The out-of-bounds check: can an access leave an array whose size the kernel knows?
//!
//! Race queries assume every access inside its array (`AccessSym::in_bounds`, asserted by
//! `query::meeting`): an index outside it is undefined behaviour, and a race witness indexing
//! `s_key[2147484160]` of a 1024-element array reads as nonsense. That assumption is sound only
//! because this module checks the very same condition on its own, per access: a race that needs
//! an out-of-bounds index is reported as the out-of-bounds access it needs. One query per access
//! with a bound, for one thread alone (a block of one thread can go out of bounds too), asking
//! for the negation of `in_bounds` under the access's predicate, its iteration assumptions and
//! (unless `--wrap`) its no-wrap condition. The interval pre-filter answers the accesses it
//! proves in bounds without a query; an undecided query is a possible finding, never dropped.

use super::query::{single_query, undecided_reason};
use super::symbolic::{AccessSym, W};
use super::*;
use z3::SatResult;

impl Z3Oracle {
    /// The out-of-bounds findings of the analysis `key` (its kernel is barrier-free: barriers
    /// change none of them), in program order, with how many queries were undecided. Computed
    /// once per analysis.
    pub(super) fn out_of_bounds(&mut self, key: u64, tree: &LabelTree) -> (Vec<OutOfBounds>, usize) {
        let Some(an) = self.analyses.get_mut(&key) else { return (Vec::new(), 0) };
        if let Some(done) = &an.out_of_bounds {
            return done.clone();
        }
        let mut labels: Vec<(Label, String, AccessKind)> = Vec::new();
        an.kernel.walk(&mut |s| {
            let kind = match &s.kind {
                StmtKind::Read { .. } => AccessKind::Read,
                StmtKind::Write { .. } => AccessKind::Write,
                StmtKind::Atomic { .. } => AccessKind::Atomic,
                _ => return,
            };
            if let Some((array, ..)) = s.access() {
                labels.push((s.label, array.to_string(), kind));
            }
        });
        labels.sort_by_key(|(l, ..)| tree.order(*l));
        let mut found = Vec::new();
        let mut undecided = 0;
        for (label, array, kind) in labels {
            let Some(s) = an.block.traces[0].accesses.get(&label) else { continue };
            let Some(in_bounds) = &s.in_bounds else { continue };
            if self.prefilter && an.ranges.within_bounds(s, &an.block.traces[0].strided) {
                self.stats.prefiltered += 1;
                continue;
            }
            let dims: Vec<Option<u32>> = s.subscripts.iter().map(|(_, b)| *b).collect();
            let mut extra = vec![s.enabled.clone(), s.assume.clone(), in_bounds.not()];
            if !self.opts.wrap {
                extra.push(s.no_wrap.clone());
            }
            let (witness, why) = match leaves_array(&an.block, &an.launch, &extra, s, &mut self.stats) {
                Answer::Inside => continue,
                Answer::Outside(w) => (Some(w), None),
                Answer::Unknown(why) => {
                    undecided += 1;
                    (None, Some(why))
                }
            };
            found.push(OutOfBounds { label, array, kind, dims, witness, undecided: why });
        }
        an.out_of_bounds = Some((found.clone(), undecided));
        (found, undecided)
    }
}

/// What the solver says of one access.
enum Answer {
    Inside,
    Outside(BoundsWitness),
    Unknown(String),
}

/// Asks `mode`'s single-thread solver whether thread 1 can satisfy `extra` (its access `s` out
/// of bounds), under the mode's limits.
fn leaves_array(
    mode: &Mode,
    launch: &Launch,
    extra: &[Bool],
    s: &AccessSym,
    stats: &mut OracleStats,
) -> Answer {
    let answer = single_query(mode, extra, stats, |solver| match solver.check() {
        SatResult::Unsat => Answer::Inside,
        // The first element past the end where it can be (`buf[128]` of 128): the witness a
        // reader expects, and the same one whatever the solver met before (`fix` and `check`
        // ask after different queries).
        SatResult::Sat => {
            let first = solver.get_model();
            let pinned = pin_past_end(solver, s).then(|| {
                let m = solver.get_model();
                solver.pop(1);
                m
            });
            match pinned.flatten().or(first) {
                None => Answer::Unknown("no model".to_string()),
                Some(m) => Answer::Outside(witness(mode, launch, &m, s)),
            }
        }
        SatResult::Unknown => Answer::Unknown(mode.limits.spent(solver).unwrap_or_else(|| {
            undecided_reason(solver.get_reason_unknown(), mode.limits.timeout_ms, mode.limits.query_units())
                .replace("this pair", "this access")
        })),
    });
    answer.unwrap_or_else(Answer::Unknown)
}

/// Whether `s` can leave its array at the first element past the end of one of its bounded
/// subscripts (tried in order; the last one's access covers `width` elements). On `true` the
/// solver holds that choice in a scope of its own, its model current: the caller pops it.
fn pin_past_end(solver: &z3::Solver, s: &AccessSym) -> bool {
    let last = s.subscripts.len().saturating_sub(1);
    for (i, (v, bound)) in s.subscripts.iter().enumerate() {
        let Some(b) = *bound else { continue };
        let w = if i == last { s.width } else { 1 };
        let past = u64::from(b.saturating_sub(w.saturating_sub(1)));
        solver.push();
        solver.assert(v.eq(BV::from_u64(past, W)));
        if solver.check() == SatResult::Sat {
            return true;
        }
        solver.pop(1);
    }
    false
}

/// The out-of-bounds witness a model gives.
fn witness(mode: &Mode, launch: &Launch, m: &z3::Model, s: &AccessSym) -> BoundsWitness {
    let val = |b: &BV| m.eval(b, true).and_then(|v| v.as_u64()).unwrap_or(0);
    let thread = ThreadWitness {
        tid: std::array::from_fn(|d| val(&mode.ids[0].tid[d])),
        bid: std::array::from_fn(|d| val(&mode.ids[0].bid[d])),
        iterations: s.loops.iter().map(|(l, k)| (*l, val(k))).collect(),
    };
    let params = mode
        .params
        .iter()
        .filter_map(|(name, c)| Some((name.clone(), m.eval(c, false)?.as_u64()?)))
        .collect();
    let mask = (1u64 << W) - 1;
    BoundsWitness {
        thread,
        subscripts: s.subscripts.iter().map(|(t, _)| val(t) & mask).collect(),
        block_dim: std::array::from_fn(|d| val(&launch.block_dim[d])),
        grid_dim: std::array::from_fn(|d| val(&launch.grid_dim[d])),
        params,
        index_inputs: super::query::index_inputs(&[&s.index]),
    }
}
