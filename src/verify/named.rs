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
    /// Statements of one barrier wait for different counts.
    Counts { first: u64, second: u64 },
    /// A thread that did not wait at its `j`-th participation may join again before instance
    /// `j` completed (its later arrival would count toward instance `j`).
    Overrun,
    /// The oracle could not count the threads that join it (why).
    Uncounted(String),
}

impl Z3Oracle {
    /// The problems of the kernel's named barriers: one divergence per problem, at the barrier's
    /// first statement (or at the statement concerned).
    pub(super) fn named_checks(&mut self, key: u64, tree: &LabelTree, verdict: &mut Verdict) {
        let Some(an) = self.analyses.get(&key) else { return };
        let mut ops: Vec<(Label, u32, Option<u32>, bool)> = Vec::new();
        an.kernel.walk(&mut |s| {
            if let StmtKind::NamedBarrier { id, count, wait } = s.kind {
                ops.push((s.label, id, count, wait));
            }
        });
        let ids: BTreeSet<u32> = ops.iter().map(|o| o.1).collect();
        for id in ids {
            let of_id: Vec<_> = ops.iter().filter(|o| o.1 == id).copied().collect();
            let first = of_id[0].0;
            let block = tree.parent(first).unwrap_or(Label::MAIN);
            // `None`: a problem of the barrier as a whole, without two threads to show.
            let report =
                |verdict: &mut Verdict, at: Label, outcome: Option<Outcome>, problem: NamedProblem| {
                    let (threads, undecided) = match outcome {
                        None => (None, None),
                        Some(Outcome::None) => return,
                        Some(Outcome::Race { witness, .. }) => (Some(witness.threads), None),
                        Some(Outcome::Unknown(why)) => {
                            verdict.undecided += 1;
                            (None, Some(why))
                        }
                    };
                    let block = tree.parent(at).unwrap_or(block);
                    verdict.divergences.push(Divergence {
                        barrier: at,
                        block,
                        threads,
                        undecided,
                        named: Some(problem),
                    });
                };
            // A barrier nobody waits at orders nothing: no instance of it needs checking.
            if !of_id.iter().any(|o| o.3) {
                continue;
            }
            let counts: Vec<Option<u32>> = of_id.iter().map(|o| o.2).collect();
            if let Some(pos) = counts.iter().position(|c| *c != counts[0]) {
                let as_number = |c: Option<u32>| c.map_or(0, u64::from);
                let problem =
                    NamedProblem::Counts { first: as_number(counts[0]), second: as_number(counts[pos]) };
                report(verdict, of_id[pos].0, None, problem);
                continue;
            }
            let unequal = self.named_unequal(key, id);
            if !matches!(unequal, Outcome::None) {
                report(verdict, first, Some(unequal), NamedProblem::Unequal);
                continue;
            }
            match self.named_participants(key, id) {
                Ok(found) => {
                    let expected = match counts[0] {
                        Some(n) => u64::from(n),
                        None => match self.block_size(key) {
                            Some(n) => n,
                            None => {
                                let why = "the block size is not known".to_string();
                                report(
                                    verdict,
                                    first,
                                    Some(Outcome::Unknown(why.clone())),
                                    NamedProblem::Uncounted(why),
                                );
                                continue;
                            }
                        },
                    };
                    if found != expected {
                        let problem = NamedProblem::Count { expected, found };
                        report(verdict, first, None, problem);
                        continue;
                    }
                }
                Err(why) => {
                    report(verdict, first, Some(Outcome::Unknown(why.clone())), NamedProblem::Uncounted(why));
                    continue;
                }
            }
            if of_id.iter().any(|o| !o.3) {
                let waiting: Vec<Label> = of_id.iter().filter(|o| o.3).map(|o| o.0).collect();
                'overrun: for &(y, ..) in &of_id {
                    for &z in &waiting {
                        let outcome = self.named_overrun(key, id, y, z);
                        if !matches!(outcome, Outcome::None) {
                            report(verdict, y, Some(outcome), NamedProblem::Overrun);
                            break 'overrun;
                        }
                    }
                }
            }
        }
    }

    /// The block's size when the launch fixes it.
    fn block_size(&self, _key: u64) -> Option<u64> {
        self.opts.geometry.block_dim.map(|d| d.iter().map(|&x| u64::from(x)).product())
    }

    /// Two threads of a block that both join barrier `id`, where the second waits for an
    /// instance the first never joins (it would wait for ever, or the instance would complete
    /// without the first thread's arrival). Participations past another thread's total that
    /// only arrive are allowed: they join an instance nobody waits for (a consumer releasing
    /// its last stage).
    fn named_unequal(&mut self, key: u64, id: u32) -> Outcome {
        let Some(an) = self.analyses.get(&key) else { return Outcome::Unknown("internal".into()) };
        let t1 = total(&an.block.traces[0], id);
        let Some(c2) = final_counters(&an.block.traces[1], id) else { return Outcome::None };
        let zero = BV::from_u64(0, W);
        let extra = [t1.bvugt(&zero), c2.waited.bvugt(&t1)];
        query(&an.block, &an.launch, &extra, None, [&[], &[]], &mut self.stats)
    }

    /// How many threads of a block join barrier `id`: thread 1's total evaluated at every thread
    /// id of the block (the launch must fix the block's size, and the total must not depend on
    /// anything else that differs between threads or blocks).
    fn named_participants(&mut self, key: u64, id: u32) -> Result<u64, String> {
        let an = self.analyses.get(&key).ok_or("internal")?;
        let dims: Vec<u64> = self
            .opts
            .geometry
            .block_dim
            .ok_or("the block size is not known")?
            .iter()
            .map(|&d| u64::from(d))
            .collect();
        let size: u64 = dims.iter().product();
        if size > crate::limits::MAX_COUNTED_THREADS {
            return Err(format!("the block has {size} threads, more than are counted one by one"));
        }
        let t = total(&an.block.traces[0], id);
        let tid = &an.block.ids[0].tid;
        let mut found = 0;
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    let values = [x, y, z].map(|v| BV::from_u64(v, W));
                    let subst: Vec<(&BV, &BV)> = tid.iter().zip(values.iter()).collect();
                    let n = t.substitute(&subst).simplify();
                    match n.as_u64() {
                        Some(0) => {}
                        Some(_) => found += 1,
                        None => return Err(format!(
                            "how often thread ({x}, {y}, {z}) joins it depends on more than its thread index"
                        )),
                    }
                }
            }
        }
        Ok(found)
    }

    /// Two threads where thread 1 joins barrier `id` at `y` again after a participation it did
    /// not wait at, while thread 2's waiting participation `z` in the instance before may not
    /// have happened yet: no barrier orders `z` before `y`.
    fn named_overrun(&mut self, key: u64, id: u32, y: Label, z: Label) -> Outcome {
        let Some(an) = self.analyses.get(&key) else { return Outcome::Unknown("internal".into()) };
        let traces = &an.block.traces;
        let (Some(oy), Some(oz)) = (traces[0].named.get(&y), traces[1].named.get(&z)) else {
            return Outcome::None;
        };
        let (Some(cy), Some(cz)) = (counters_of(oy, id), counters_of(oz, id)) else { return Outcome::None };
        let one = BV::from_u64(1, W);
        // `arrived` counts the participation at the statement itself.
        let previous = cy.arrived.bvsub(&one);
        let mut extra = vec![
            oy.enabled.clone(),
            oz.enabled.clone(),
            oy.assume.clone(),
            oz.assume.clone(),
            previous.eq(&cz.arrived),
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

fn counters_of(op: &NamedOp, id: u32) -> Option<&NamedCounters> {
    op.counters.iter().find(|c| c.id == id)
}
