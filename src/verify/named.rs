//! Named barriers in the oracle (docs/semantics.md, "Named barriers").
//!
//! Each thread counts its participations in every named barrier (`kpl::named`), and the
//! symbolic execution carries those counters to every access ([`AccessSym::counters`]), to every
//! named barrier statement ([`NamedOp`]) and to the end of the kernel
//! ([`ThreadTrace::named_totals`]). Two threads' accesses are ordered through barrier `id` when
//! the first thread joins an instance after its access that the second thread waited for before
//! its own: `arrived₁ < waited₂`, and the first thread joins the barrier at all after its access
//! (`arrived₁ < total₁`). The race query asks for two accesses that no barrier orders either
//! way ([`unordered`]).
//!
//! That rule needs each instance a thread waits for to be exactly the threads' `j`-th
//! participations. It holds when (a) no thread waits for an instance another thread that joins
//! the barrier never joins (participations past the others' only arrive), (b) as many threads
//! join it as its count says, and (c) no thread joins instance `j + 1` before instance `j`
//! completed (only a thread that did not wait at its `j`-th participation can: `bar.arrive`). [`Z3Oracle::named_checks`]
//! checks the three and reports each failure as a divergence of the barrier, never dropped: an
//! undecided query, or a count that cannot be established, is reported as possible.

use super::query::single_query;
use super::symbolic::{AccessSym, NamedCounters, NamedOp, ThreadTrace, W};
use super::*;

/// The condition that thread 1 at a point with counters `c1` happens before thread 2 at a point
/// with counters `c2` through one barrier (the same id): thread 1 joins an instance after its
/// point, and thread 2 had waited for that instance.
fn before(c1: &NamedCounters, total1: &BV, c2: &NamedCounters) -> Bool {
    Bool::and(&[&c1.arrived.bvult(&c2.waited), &c1.arrived.bvult(total1)])
}

/// Thread `t`'s total participations in barrier `id`.
fn total(trace: &ThreadTrace, id: u32) -> BV {
    final_counters(trace, id).map(|c| c.arrived.clone()).unwrap_or_else(|| BV::from_u64(0, W))
}

/// Thread `t`'s counters of barrier `id` where it ends.
fn final_counters(trace: &ThreadTrace, id: u32) -> Option<&NamedCounters> {
    trace.named_totals.iter().find(|c| c.id == id)
}

/// No named barrier orders thread 1's access `s1` and thread 2's access `s2`, in either
/// direction; `None` when the kernel has no named barrier. An asynchronous copy's write lands
/// after its statement, so nothing after the statement orders the copy before another access
/// (`copy1`, `copy2`): that direction is left open.
pub(super) fn unordered(
    s1: &AccessSym,
    s2: &AccessSym,
    copy: [bool; 2],
    traces: &[ThreadTrace; 2],
) -> Option<Bool> {
    if s1.counters.is_empty() {
        return None;
    }
    let mut apart = Vec::new();
    for (c1, c2) in s1.counters.iter().zip(&s2.counters) {
        if !copy[0] {
            apart.push(before(c1, &total(&traces[0], c1.id), c2).not());
        }
        if !copy[1] {
            apart.push(before(c2, &total(&traces[1], c2.id), c1).not());
        }
    }
    Some(Bool::and(&apart.iter().collect::<Vec<_>>()))
}

/// What is wrong with a named barrier (reported as a divergence of its statement).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum NamedProblem {
    /// Two threads join the barrier a different number of times.
    Unequal,
    /// The number of threads that join it differs from the count it waits for.
    Count { expected: u64, found: u64 },
    /// A thread waits for it, but no statement joins it: no instance completes.
    NeverJoined,
    /// Some threads of a warp join it and others do not (PTX counts arrivals by warps).
    PartialWarp { warp: u64 },
    /// Statements of one barrier wait for different counts.
    Counts { first: u64, second: u64 },
    /// A thread that did not wait at its `j`-th participation may join again before instance
    /// `j` completed (its later arrival would count toward instance `j`).
    Overrun,
    /// The oracle could not count the threads that join it (the divergence's `undecided` says
    /// why).
    Uncounted,
}

/// What a check found of a named barrier: the two threads to show, if it concerns two, and
/// why it is only possible, if the solver could not decide.
#[derive(Default)]
struct Found {
    threads: Option<[ThreadWitness; 2]>,
    undecided: Option<String>,
}

impl Found {
    /// A query's answer as a finding (`None`: nothing found).
    fn of(outcome: Outcome) -> Option<Found> {
        match outcome {
            Outcome::None => None,
            Outcome::Race { witness, .. } => Some(Found { threads: Some(witness.threads), undecided: None }),
            Outcome::Unknown(why) => Some(Found { threads: None, undecided: Some(why) }),
        }
    }
}

impl Z3Oracle {
    /// The problems of the kernel's named barriers: one divergence per problem, at the barrier's
    /// first statement (or at the statement concerned), and how many of them are only possible.
    /// They depend on the analysed kernel alone (barriers are not in it and order nothing the
    /// checks ask), so each analysis computes them once.
    pub(super) fn named_divergences(&mut self, key: u64, tree: &LabelTree) -> (Vec<Divergence>, usize) {
        if let Some(done) = self.analyses.get(&key).and_then(|an| an.named.clone()) {
            return done;
        }
        let Some(an) = self.analyses.get(&key) else { return (Vec::new(), 0) };
        // Every named barrier statement: its label, id, count, and whether it joins an instance
        // (`bar sync`/`bar arrive`) and whether it waits (`bar sync`/`bar wait`).
        let mut ops: Vec<NamedStmt> = Vec::new();
        an.kernel.walk(&mut |s| match s.kind {
            StmtKind::NamedBarrier { id, count, wait } => {
                ops.push(NamedStmt { label: s.label, id, count, joins: true, waits: wait })
            }
            StmtKind::NamedWait { id, .. } => {
                ops.push(NamedStmt { label: s.label, id, count: None, joins: false, waits: true })
            }
            _ => {}
        });
        let mut found: Vec<Divergence> = Vec::new();
        let mut report = |at: Label, f: Found, problem: NamedProblem| {
            let block = tree.parent(at).unwrap_or(Label::MAIN);
            let (threads, undecided) = (f.threads, f.undecided);
            found.push(Divergence { barrier: at, block, threads, undecided, named: Some(problem) });
        };
        let ids: BTreeSet<u32> = ops.iter().map(|o| o.id).collect();
        for id in ids {
            let of_id: Vec<NamedStmt> = ops.iter().filter(|o| o.id == id).copied().collect();
            let joins: Vec<NamedStmt> = of_id.iter().filter(|o| o.joins).copied().collect();
            // A barrier nobody waits at orders nothing: no instance of it needs checking.
            if !of_id.iter().any(|o| o.waits) {
                continue;
            }
            // A wait for a barrier no statement joins: no instance ever completes.
            let Some(first) = joins.first().map(|o| o.label) else {
                report(of_id[0].label, Found::default(), NamedProblem::NeverJoined);
                continue;
            };
            let counts: Vec<Option<u32>> = joins.iter().map(|o| o.count).collect();
            if let Some(pos) = counts.iter().position(|c| *c != counts[0]) {
                let as_number = |c: Option<u32>| c.map_or(0, u64::from);
                let problem =
                    NamedProblem::Counts { first: as_number(counts[0]), second: as_number(counts[pos]) };
                report(joins[pos].label, Found::default(), problem);
                continue;
            }
            if let Some(f) = self.named_unequal(key, id) {
                report(first, f, NamedProblem::Unequal);
                continue;
            }
            let expected = match counts[0] {
                Some(n) => Ok(u64::from(n)),
                None => self.block_size().ok_or_else(|| "the block size is not known".to_string()),
            };
            match expected.and_then(|e| self.named_participants(key, id).map(|f| (e, f))) {
                Ok((_, Participants { partial_warp: Some(warp), .. })) => {
                    report(first, Found::default(), NamedProblem::PartialWarp { warp });
                    continue;
                }
                Ok((expected, Participants { count: found, .. })) if found != expected => {
                    report(first, Found::default(), NamedProblem::Count { expected, found });
                    continue;
                }
                Ok(_) => {}
                Err(why) => {
                    report(first, Found { threads: None, undecided: Some(why) }, NamedProblem::Uncounted);
                    continue;
                }
            }
            if let Some((at, outcome)) = self.named_overrun(key, id, &of_id) {
                if let Some(f) = Found::of(outcome) {
                    report(at, f, NamedProblem::Overrun);
                }
            }
        }
        let undecided = found.iter().filter(|d| d.undecided.is_some()).count();
        let done = (found, undecided);
        if let Some(an) = self.analyses.get_mut(&key) {
            an.named = Some(done.clone());
        }
        done
    }

    /// Whether some thread may join barrier `id` before the instance of its previous
    /// participation completed (its arrival would count toward that instance): the statement
    /// and the answer, or `None`. A thread that waited for its previous instance itself (a
    /// `bar sync`, or `bar wait` on its token) cannot; otherwise the instance must be shown
    /// complete through another thread: some thread waits at every instance (it joins every one
    /// and only with `bar sync`), and every thread's wait at exactly that instance happens
    /// before the new arrival through another barrier. Asking about every waiting thread rather
    /// than one that exists only reports more.
    fn named_overrun(&mut self, key: u64, id: u32, of_id: &[NamedStmt]) -> Option<(Label, Outcome)> {
        let early: Vec<(Label, Outcome)> = of_id
            .iter()
            .filter(|o| o.joins)
            .map(|o| (o.label, self.named_unwaited_previous(key, id, o.label)))
            .filter(|(_, out)| !matches!(out, Outcome::None))
            .collect();
        let (at, _) = early.first()?.clone();
        let waiter = self.named_full_waiter(key, id);
        if !matches!(waiter, Outcome::Race { .. }) {
            let outcome = match waiter {
                Outcome::Unknown(why) => Outcome::Unknown(why),
                _ => early[0].1.clone(),
            };
            return Some((at, outcome));
        }
        for (y, _) in &early {
            for z in of_id.iter().filter(|o| o.waits) {
                let outcome = self.named_overrun_pair(key, id, *y, z.label);
                if !matches!(outcome, Outcome::None) {
                    return Some((*y, outcome));
                }
            }
        }
        None
    }

    /// A thread at participation `y` of barrier `id` whose previous participation it did not
    /// wait for.
    fn named_unwaited_previous(&mut self, key: u64, id: u32, y: Label) -> Outcome {
        let Some(an) = self.analyses.get(&key) else { return Outcome::Unknown("internal".into()) };
        let Some(oy) = an.block.traces[0].named.get(&y) else { return Outcome::None };
        let Some(cy) = counters_of(oy, id) else { return Outcome::None };
        let one = BV::from_u64(1, W);
        let previous = cy.arrived.bvsub(&one);
        let extra = [oy.enabled.clone(), oy.assume.clone(), previous.bvuge(&one), cy.waited.bvult(&previous)];
        query(&an.block, &an.launch, &extra, None, [&oy.loops, &[]], &mut self.stats)
    }

    /// A thread that joins barrier `id` and never without waiting: it waits at every instance.
    fn named_full_waiter(&mut self, key: u64, id: u32) -> Outcome {
        let Some(an) = self.analyses.get(&key) else { return Outcome::Unknown("internal".into()) };
        let Some(c) = final_counters(&an.block.traces[1], id) else { return Outcome::None };
        let zero = BV::from_u64(0, W);
        let extra = [c.arrived.bvugt(&zero), c.unwaited.eq(&zero)];
        query(&an.block, &an.launch, &extra, None, [&[], &[]], &mut self.stats)
    }

    /// The block's size when the launch fixes it.
    fn block_size(&self) -> Option<u64> {
        self.opts.geometry.block_dim.map(|d| d.iter().map(|&x| u64::from(x)).product())
    }

    /// Two threads of a block that both join barrier `id`, where the second waits for an
    /// instance the first never joins (it would wait for ever, or the instance would complete
    /// without the first thread's arrival). Participations past another thread's total that
    /// only arrive are allowed: they join an instance nobody waits for (a consumer releasing
    /// its last stage).
    fn named_unequal(&mut self, key: u64, id: u32) -> Option<Found> {
        let Some(an) = self.analyses.get(&key) else {
            return Some(Found { threads: None, undecided: Some("internal".into()) });
        };
        let t1 = total(&an.block.traces[0], id);
        let c2 = final_counters(&an.block.traces[1], id)?;
        let zero = BV::from_u64(0, W);
        let extra = [t1.bvugt(&zero), c2.waited.bvugt(&t1)];
        if let Some(f) = Found::of(query(&an.block, &an.launch, &extra, None, [&[], &[]], &mut self.stats)) {
            return Some(f);
        }
        // The only participant may be the waiting thread itself: asked of one thread (a block
        // may have one), with no pair to show.
        let c1 = final_counters(&an.block.traces[0], id)?;
        let alone = [c1.arrived.bvugt(&zero), c1.waited.bvugt(&c1.arrived)];
        self.stats.smt_queries += 1;
        let limits = &an.block.limits;
        match single_query(&an.block, &alone, &mut self.stats, |s| (s.check(), limits.spent(s))) {
            Ok((z3::SatResult::Unsat, _)) => None,
            Ok((z3::SatResult::Sat, _)) => Some(Found::default()),
            Ok((z3::SatResult::Unknown, spent)) => Some(Found {
                threads: None,
                undecided: Some(spent.unwrap_or_else(|| "the solver could not decide it".into())),
            }),
            Err(why) => Some(Found { threads: None, undecided: Some(why) }),
        }
    }

    /// How many threads of a block join barrier `id`: thread 1's total evaluated at every thread
    /// id of the block (the launch must fix the block's size, and the total must not depend on
    /// anything else that differs between threads or blocks).
    fn named_participants(&mut self, key: u64, id: u32) -> Result<Participants, String> {
        let an = self.analyses.get(&key).ok_or("internal")?;
        let dims: [u64; 3] =
            self.opts.geometry.block_dim.ok_or("the block size is not known")?.map(u64::from);
        let size: u64 = dims.iter().product();
        if size > crate::limits::MAX_COUNTED_THREADS {
            return Err(format!("the block has {size} threads, more than are counted one by one"));
        }
        let t = total(&an.block.traces[0], id);
        let tid = &an.block.ids[0].tid;
        let block_dim = &an.launch.block_dim;
        let dim_values = dims.map(|d| BV::from_u64(d, W));
        // Linear thread ids in CUDA's order: x fastest.
        let mut joins = Vec::with_capacity(size as usize);
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    let values = [x, y, z].map(|v| BV::from_u64(v, W));
                    let subst: Vec<(&BV, &BV)> = tid
                        .iter()
                        .zip(values.iter())
                        .chain(block_dim.iter().zip(dim_values.iter()))
                        .collect();
                    match t.substitute(&subst).simplify().as_u64() {
                        Some(n) => joins.push(n > 0),
                        None => {
                            return Err(format!(
                            "how often thread ({x}, {y}, {z}) joins it depends on more than its thread index"
                        ))
                        }
                    }
                }
            }
        }
        let count = joins.iter().filter(|j| **j).count() as u64;
        // PTX counts a named barrier's arrivals by warps: a warp partly in is not modelled
        // (libcu++'s barrier objects count threads).
        let partial_warp = (id < crate::kpl::named::FIRST_OBJECT_ID)
            .then(|| joins.chunks(32).position(|w| w.iter().any(|j| *j) && !w.iter().all(|j| *j)))
            .flatten();
        Ok(Participants { count, partial_warp: partial_warp.map(|w| w as u64) })
    }

    /// Two threads where thread 1 joins barrier `id` at `y` again after a participation it did
    /// not wait at, while thread 2's wait `z` for the instance of that participation may not
    /// have returned yet: no other barrier orders `z` before `y`.
    fn named_overrun_pair(&mut self, key: u64, id: u32, y: Label, z: Label) -> Outcome {
        let Some(an) = self.analyses.get(&key) else { return Outcome::Unknown("internal".into()) };
        let traces = &an.block.traces;
        let (Some(oy), Some(oz)) = (traces[0].named.get(&y), traces[1].named.get(&z)) else {
            return Outcome::None;
        };
        let (Some(cy), Some(completes)) = (counters_of(oy, id), oz.completes.as_ref()) else {
            return Outcome::None;
        };
        let one = BV::from_u64(1, W);
        // `arrived` counts the participation at the statement itself.
        let previous = cy.arrived.bvsub(&one);
        let mut extra = vec![
            oy.enabled.clone(),
            oz.enabled.clone(),
            oy.assume.clone(),
            oz.assume.clone(),
            previous.bvuge(&one),
            previous.eq(completes),
            // Thread 1 did not wait at its previous participation.
            cy.waited.bvult(&previous),
        ];
        // No other barrier orders `z` (thread 2) before `y` (thread 1).
        for (c2, c1) in oz.counters.iter().zip(&oy.counters).filter(|(c, _)| c.id != id) {
            extra.push(before(c2, &total(&traces[1], c2.id), c1).not());
        }
        query(&an.block, &an.launch, &extra, None, [&oy.loops, &oz.loops], &mut self.stats)
    }
}

/// The threads of a block that join a named barrier.
struct Participants {
    count: u64,
    /// A warp some of whose threads join it and others do not.
    partial_warp: Option<u64>,
}

/// A named barrier statement, for the checks.
#[derive(Clone, Copy)]
struct NamedStmt {
    label: Label,
    id: u32,
    count: Option<u32>,
    /// It joins an instance (`bar sync`, `bar arrive`).
    joins: bool,
    /// It waits for an instance (`bar sync`, `bar wait`).
    waits: bool,
}

fn counters_of(op: &NamedOp, id: u32) -> Option<&NamedCounters> {
    op.counters.iter().find(|c| c.id == id)
}
