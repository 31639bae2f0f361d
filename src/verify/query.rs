//! One SMT query of the oracle and the witness its model gives: the meeting conditions of two
//! accesses, the first-iteration probe, the wrap marking of a race already found, and the
//! wording of an undecided answer.

use super::launch::Launch;
use super::symbolic::{arbitrary_inputs, AccessSym, BlockSym, IndexInput, W};
use super::{wrap, Mode, OracleStats, Outcome, ThreadWitness, Witness};
use crate::kpl::{AtomicScope, Label};
use crate::limits::{ABSTRACTION_RLIMIT, FIRST_ITERATION_RLIMIT, WRAP_RLIMIT};
use z3::ast::{Bool, BV};
use z3::{Params, SatResult};

/// Why the solver did not decide a query, in the user's words: z3 says `canceled` (or
/// `timeout`) when the per-query time limit stopped it.
pub(super) fn undecided_reason(z3_reason: Option<String>, timeout_ms: u32, query_units: u64) -> String {
    match z3_reason {
        Some(r) if query_units > 0 && r.contains("resource") => {
            format!("the solver ran out of its work limit ({query_units} units) on this pair")
        }
        Some(r) if timeout_ms > 0 && (r.contains("cancel") || r.contains("timeout")) => {
            format!("the solver ran out of time ({timeout_ms} ms) on this pair")
        }
        Some(r) => format!("the solver could not decide this pair ({r})"),
        None => "the solver could not decide this pair".to_string(),
    }
}

/// The conditions under which two threads' accesses meet: both execute them, at one element
/// (their ranges `[index, index + width)` overlap) inside the array where its size is known,
/// under each thread's iteration assumptions. Two atomics of one width that are atomic with each
/// other (in one block, or both of device scope: `between_blocks` says which) race only where
/// they overlap without being the same elements.
pub(super) fn meeting(s1: &AccessSym, s2: &AccessSym, no_wrap: bool, between_blocks: bool) -> Vec<Bool> {
    // The indices without the summands they share (`wrap::without_common_summands`): equal
    // exactly when the indices are, and the lemmas read them besides the indices.
    let rests = wrap::without_common_summands(&s1.index, &s2.index);
    let compared = rests.as_ref().map_or((&s1.index, &s2.index), |(a, b)| (a, b));
    let mut out = vec![
        s1.enabled.clone(),
        s2.enabled.clone(),
        overlap(compared, [s1.width, s2.width]),
        s1.assume.clone(),
        s2.assume.clone(),
    ];
    let atomic_together = match (s1.atomic, s2.atomic) {
        (Some(a), Some(b)) => !between_blocks || (a == AtomicScope::Device && b == AtomicScope::Device),
        _ => false,
    };
    if atomic_together && s1.width == s2.width {
        out.push(s1.index.eq(&s2.index).not());
    }
    if no_wrap {
        out.extend([s1.no_wrap.clone(), s2.no_wrap.clone()]);
    }
    // Out-of-bounds accesses are their own finding (`bounds.rs` checks each access that has a
    // bound): a race that needs one is reported as that access.
    out.extend(s1.in_bounds.iter().chain(&s2.in_bounds).cloned());
    // Both: a shared row base hides the row structure of the rest, and the rest alone loses
    // what the shared terms say.
    for (i1, i2) in std::iter::once((&s1.index, &s2.index)).chain(rests.as_ref().map(|(a, b)| (a, b))) {
        out.extend(wrap::row_lemmas(i1, i2, 3));
        out.extend(wrap::remainder_lemmas(i1, i2));
        out.extend(wrap::quotient_remainder_lemmas(i1, i2));
        out.extend(wrap::quotient_bound_lemmas(i1, i2, &[&s1.enabled, &s2.enabled, &s1.assume, &s2.assume]));
    }
    out
}

/// Two accesses' element ranges overlap: index equality for single elements, else one range's
/// first element lies in the other (modulo 2^32: a range that wraps around is taken to overlap
/// more, never less). `indices` may be the indices without their shared summands, which the
/// solver then does not see at all.
fn overlap((i1, i2): (&BV, &BV), [w1, w2]: [u32; 2]) -> Bool {
    if w1 == 1 && w2 == 1 {
        return i1.eq(i2);
    }
    // `index1 - index2` is one of `-(w1 - 1) ..= w2 - 1`: a disjunction of equalities with
    // constant offsets, which the solver decides like the single-element equality (the
    // global-id facts, the low bits of `8 * i + 1`), where the subtraction's range form left
    // products of ids to bit-blast.
    let plus = |x: &BV, d: u32| x.bvadd(BV::from_u64(u64::from(d), W));
    // index1 in [index2, index2 + w2), or index2 in (index1, index1 + w1).
    let equal: Vec<Bool> =
        (0..w2).map(|d| i1.eq(plus(i2, d))).chain((1..w1).map(|d| i2.eq(plus(i1, d)))).collect();
    Bool::or(&equal.iter().collect::<Vec<_>>())
}

/// The conditions under which two threads disagree on entering a block: thread 1 enters it and
/// thread 2 does not, at the same iterations of its loops, each under its iteration assumptions.
pub(super) fn disagreeing(b1: &BlockSym, b2: &BlockSym) -> Vec<Bool> {
    let mut out = vec![b1.enabled.clone(), b2.enabled.not(), b1.assume.clone(), b2.assume.clone()];
    out.extend(b1.loops.iter().zip(&b2.loops).map(|((_, k1), (_, k2))| k1.eq(k2)));
    out
}

/// Marks a race witness found under `extra` as needing a wrap when the query with the two
/// accesses' no-wrap conditions added has no model (an undecided answer leaves it unmarked:
/// the race is reported plainly).
pub(super) fn mark_wrap(
    outcome: Outcome,
    mode: &Mode,
    launch: &Launch,
    extra: &[Bool],
    s: [&AccessSym; 2],
    stats: &mut OracleStats,
) -> Outcome {
    match outcome {
        Outcome::Race { mut witness, benign } => {
            let mut strict = extra.to_vec();
            strict.extend([s[0].no_wrap.clone(), s[1].no_wrap.clone()]);
            let loops = [s[0].loops.as_slice(), s[1].loops.as_slice()];
            // The no-wrap conditions of products are hard for the solver; this query only
            // refines the wording of a race already found, so it gets a deterministic resource
            // budget (not time: the same input prints the same bytes under any load).
            witness.only_with_wrap = with_rlimit(mode, WRAP_RLIMIT, || {
                matches!(query(mode, launch, &strict, None, loops, stats), Outcome::None)
            });
            Outcome::Race { witness, benign }
        }
        other => other,
    }
}

/// Runs `f` with z3's resource budget (`rlimit`, deterministic under any load) set to `rlimit`
/// on the mode's solver, and without one afterwards (no other query runs under a budget).
fn with_rlimit<T>(mode: &Mode, rlimit: u32, f: impl FnOnce() -> T) -> T {
    let set = |r: u32| {
        let mut p = Params::new();
        p.set_u32("rlimit", r);
        mode.solver.set_params(&p);
    };
    set(rlimit);
    let out = f();
    set(0);
    out
}

/// Runs one query in `mode` under extra assertions; on SAT extracts a witness (with the values
/// of `starts`, the two accesses' first elements, when given).
pub(super) fn query(
    mode: &Mode,
    launch: &Launch,
    extra: &[Bool],
    starts: Option<[&BV; 2]>,
    loops: [&[(Label, BV)]; 2],
    stats: &mut OracleStats,
) -> Outcome {
    query_probing(mode, launch, extra, starts, loops, stats, None).0
}

/// [`query`], also saying whether the model found satisfies `probe` (false without a model or
/// a probe). A race query probes the accesses' no-wrap conditions: when its witness needs no
/// wrap, the race is not wrap-only and [`mark_wrap`]'s extra query is not needed.
///
/// A race query (one with a `probe`) in loops first asks for a witness at the first iteration of
/// every loop (each iteration variable 0), under a small deterministic resource budget: most
/// races happen there, and with the iterations fixed the strided indices `tid + k·blockDim.x`
/// lose their products, which the full query has to bit-blast (10 s and more with a symbolic
/// block and grid size). A model of the narrowed query is a model of the query, so this only
/// finds witnesses sooner; when it finds none, the full query decides.
pub(super) fn query_probing(
    mode: &Mode,
    launch: &Launch,
    extra: &[Bool],
    starts: Option<[&BV; 2]>,
    loops: [&[(Label, BV)]; 2],
    stats: &mut OracleStats,
    probe: Option<&Bool>,
) -> (Outcome, bool) {
    if let Err(why) = mode.limits.arm(&mode.solver, stats) {
        return (Outcome::Unknown(why), false);
    }
    let around_both = |l: &Label| loops.iter().all(|ls| ls.iter().any(|(m, _)| m == l));
    let lemmas: Vec<Bool> =
        mode.strided_lemmas.iter().filter(|(l, _)| around_both(l)).map(|(_, b)| b.clone()).collect();
    let extra: Vec<Bool> = extra.iter().cloned().chain(lemmas).collect();
    let extra = extra.as_slice();
    let in_loops = loops.iter().any(|l| !l.is_empty());
    if probe.is_some() && in_loops {
        let zero = BV::from_u64(0, W);
        let first: Vec<Bool> = loops.iter().flat_map(|l| l.iter().map(|(_, k)| k.eq(&zero))).collect();
        let solver = mode.probe_solver.get_or_init(|| {
            super::new_solver(&mode.base_facts, mode.limits.timeout_ms, FIRST_ITERATION_RLIMIT)
        });
        solver.push();
        for e in extra.iter().chain(&first) {
            solver.assert(e);
        }
        let found = match solver.check() {
            SatResult::Sat => solver.get_model().map(|m| witness_of(mode, launch, &m, starts, loops, probe)),
            _ => None,
        };
        solver.pop(1);
        if let Some(found) = found {
            return found;
        }
    }
    if abstraction_refutes(mode, extra) {
        return (Outcome::None, false);
    }
    mode.solver.push();
    for e in extra {
        mode.solver.assert(e);
    }
    let result = mode.solver.check();
    let out = match result {
        SatResult::Unsat => (Outcome::None, false),
        SatResult::Unknown => (
            Outcome::Unknown(mode.limits.spent(&mode.solver).unwrap_or_else(|| {
                undecided_reason(
                    mode.solver.get_reason_unknown(),
                    mode.limits.timeout_ms,
                    mode.limits.query_units(),
                )
            })),
            false,
        ),
        SatResult::Sat => match mode.solver.get_model() {
            None => (Outcome::Unknown("no model".to_string()), false),
            Some(m) => witness_of(mode, launch, &m, starts, loops, probe),
        },
    };
    mode.solver.pop(1);
    out
}

/// Whether the query of `mode` under `extra` is unsatisfiable with its nonlinear operations
/// abstracted (`abstraction.rs`): a proof that the query is, under a small deterministic budget.
/// Skipped (false) where there is nothing to abstract: the attempt would be the query itself.
fn abstraction_refutes(mode: &Mode, extra: &[Bool]) -> bool {
    let (abstraction, solver) = mode.abstract_solver.get_or_init(|| {
        let a = super::abstraction::Abstraction::new(&mode.base_facts);
        let solver = super::new_solver(&a.facts, mode.limits.timeout_ms, ABSTRACTION_RLIMIT);
        (std::cell::RefCell::new(a), solver)
    });
    let mut abstraction = abstraction.borrow_mut();
    let abstracted: Vec<Bool> = extra.iter().map(|e| abstraction.apply(e)).collect();
    if !abstraction.changes_facts && abstracted.iter().zip(extra).all(|(a, e)| a.ast_eq(e)) {
        return false;
    }
    let extra = abstracted;
    solver.push();
    for e in &extra {
        solver.assert(e);
    }
    let refuted = solver.check() == SatResult::Unsat;
    solver.pop(1);
    refuted
}

/// The race witness a model gives (with the values of `starts` when given), and whether the
/// model satisfies `probe`.
fn witness_of(
    mode: &Mode,
    launch: &Launch,
    m: &z3::Model,
    starts: Option<[&BV; 2]>,
    loops: [&[(Label, BV)]; 2],
    probe: Option<&Bool>,
) -> (Outcome, bool) {
    let probe_holds = probe.and_then(|p| m.eval(p, true)).and_then(|v| v.as_bool()) == Some(true);
    let val = |b: &BV| m.eval(b, true).and_then(|v| v.as_u64()).unwrap_or(0);
    let thread = |i: usize| ThreadWitness {
        tid: std::array::from_fn(|d| val(&mode.ids[i].tid[d])),
        bid: std::array::from_fn(|d| val(&mode.ids[i].bid[d])),
        iterations: loops[i].iter().map(|(l, k)| (*l, val(k))).collect(),
    };
    let starts_terms = starts;
    let starts = starts.map(|[a, b]| [val(a), val(b)]);
    // An element both touch: the later first element (the same one for single elements).
    let index = starts.map_or(0, |[a, b]| a.max(b));
    // Only the parameters the model gives a value (without completion): those the query reads.
    let params = mode
        .params
        .iter()
        .filter_map(|(name, c)| Some((name.clone(), m.eval(c, false)?.as_u64()?)))
        .collect();
    let witness = Witness {
        threads: [thread(0), thread(1)],
        index,
        starts,
        block_dim: std::array::from_fn(|d| val(&launch.block_dim[d])),
        grid_dim: std::array::from_fn(|d| val(&launch.grid_dim[d])),
        params,
        only_with_wrap: false,
        index_inputs: index_inputs(starts_terms.as_ref().map_or(&[][..], |s| &s[..])),
    };
    (Outcome::Race { witness, benign: false }, probe_holds)
}

/// The arbitrary values (memory's, loop variables not followed) the two indices are computed
/// from.
pub(super) fn index_inputs(indices: &[&BV]) -> Vec<IndexInput> {
    let inputs = indices.iter().flat_map(|t| arbitrary_inputs(*t));
    inputs.collect::<std::collections::BTreeSet<_>>().into_iter().collect()
}

/// Runs `f` on `mode`'s one-thread solver (`Mode::single_facts`: the launch and thread 1's
/// facts, no second thread; made on first use with the mode's per-query limits) with `extra`
/// asserted in a scope of its own, for questions about one thread (an access leaving its
/// array, a named barrier's lone participant). `Err` with the reason when the kernel's budget
/// is spent.
pub(super) fn single_query<T>(
    mode: &Mode,
    extra: &[Bool],
    stats: &mut OracleStats,
    f: impl FnOnce(&z3::Solver) -> T,
) -> Result<T, String> {
    // The budget's accounting (and its end) is the mode's; the single solver gets the per-query
    // limits once, when made (changing a solver's parameters per query costs a millisecond).
    mode.limits.arm(&mode.solver, stats)?;
    let solver = mode.single_solver.get_or_init(|| {
        let units = u32::try_from(mode.limits.query_units()).unwrap_or(u32::MAX);
        super::new_solver(&mode.single_facts, mode.limits.timeout_ms, units)
    });
    solver.push();
    for e in extra {
        solver.assert(e);
    }
    let out = f(solver);
    solver.pop(1);
    Ok(out)
}
