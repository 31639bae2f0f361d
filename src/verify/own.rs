//! A thread and its own asynchronous copies (issue #38): a copy lands at the issuing thread's
//! wait that covers its group, so the thread itself must not touch the copy's destination before
//! that wait — no barrier helps, only the wait. One query per case whose second access may run
//! while the copy is in flight (`kpl::CopyFlights`), in a mode whose two "threads" are one: the
//! same ids, two symbolic runs (their unknown values named apart, which can only find more).

use super::*;

impl Z3Oracle {
    /// The own-thread mode of analysis `key`, made on the first such question.
    fn ensure_own_mode(&mut self, key: u64) {
        if self.analyses.get(&key).is_some_and(|an| an.own.is_none()) {
            let own = self.side_mode(key, Pairing::OneThread);
            if let Some(an) = self.analyses.get_mut(&key) {
                an.own = own;
            }
        }
    }

    /// The cases of the pair `a ≼ b` (one of them an asynchronous copy of `tree`) in which the
    /// copy's own thread may touch its destination with the copy in flight, with their outcomes.
    pub(super) fn own_cases(
        &mut self,
        key: u64,
        tree: &LabelTree,
        a: Label,
        b: Label,
    ) -> Vec<(Case, Outcome)> {
        let Some(flights) = tree.flights() else { return Vec::new() };
        let open: Vec<Case> = cases::cases_of_pair(tree, a, b)
            .into_iter()
            .filter(|c| flights.is_copy(c.first))
            // The same statement instance: nothing happens between.
            .filter(|c| !(c.first == c.second && c.relation == Relation::SameIteration))
            .filter(|c| second_in_flight(tree, c))
            .collect();
        if open.is_empty() {
            return Vec::new();
        }
        self.ensure_own_mode(key);
        let no_wrap = !self.opts.wrap;
        let mut out = Vec::new();
        for case in open {
            let Some(an) = self.analyses.get_mut(&key) else { break };
            if let Some(o) = an.own_results.get(&case) {
                self.stats.cache_hits += 1;
                out.push((case, o.clone()));
                continue;
            }
            let Some(own) = an.own.as_ref() else { break };
            // Thread 1 performs `a`, thread 2 `b` (the case says which comes first).
            let (Some(s1), Some(s2)) = (own.traces[0].accesses.get(&a), own.traces[1].accesses.get(&b))
            else {
                continue;
            };
            let mut extra = meeting(s1, s2, no_wrap, false);
            extra.extend(relation(&own.traces, &case, a, b, &tree.shared_loops(a, b)));
            let loops = [s1.loops.as_slice(), s2.loops.as_slice()];
            let (o, _) = query_probing(
                own,
                &an.launch,
                &extra,
                Some([&s1.index, &s2.index]),
                loops,
                &mut self.stats,
                None,
            );
            let o = match o {
                Outcome::Race { witness, .. } => Outcome::Race { witness, benign: false },
                other => other,
            };
            an.own_results.insert(case, o.clone());
            out.push((case, o));
        }
        out
    }
}

/// Whether the case's second access may run while its first, a copy, is in flight: the copy's
/// state right after the second's position (its statement changes no flight).
fn second_in_flight(tree: &LabelTree, c: &Case) -> bool {
    c.in_flight_at(tree, &c.second_contexts(), c.second)
}
