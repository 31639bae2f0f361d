//! Grid scope: two threads of different blocks on a global array, and the grid barriers
//! (`gridsync`) that order them. Without a grid barrier nothing orders such threads, so one query
//! asks whether they can meet at all. A grid barrier separates a case of a pair exactly as a block
//! barrier does for two threads of one block (the same interval sets, `cases.rs`): every thread
//! of the grid executes the same sequence of grid barrier instances — else one diverges, which
//! the grid divergence query reports — so two instances with a grid barrier instance between them
//! are ordered whichever blocks run them. The cases no grid barrier separates are asked one by
//! one, with their iteration relation.

use super::*;

/// The grid-scope question about a pair: all its cases at once, or one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum GridQuestion {
    AnyCase,
    Case(Case),
}

impl Z3Oracle {
    /// The grid mode of analysis `key`, made on the first grid question.
    fn ensure_grid_mode(&mut self, key: u64) {
        if self.analyses.get(&key).is_some_and(|an| an.grid.is_none()) {
            if let Some(grid) = self.side_mode(key, Pairing::Grid) {
                if let Some(an) = self.analyses.get_mut(&key) {
                    let ranges = grid.ranges(&an.launch, &self.opts.geometry);
                    an.grid = Some((grid, ranges));
                }
            }
        }
    }

    /// A mode of analysis `key`'s kernel for another pairing of threads than its block mode's,
    /// assuming no read uniform (made on the first question that needs it).
    pub(super) fn side_mode(&mut self, key: u64, pairing: Pairing) -> Option<Mode> {
        let timeout = self.opts.timeout_ms;
        let an = self.analyses.get(&key)?;
        let limits = Limits::new(timeout, self.deadline, self.opts.budget, &self.work, &an.kernel.name);
        Some(make_mode(
            &an.kernel,
            &an.uniformity,
            &BTreeSet::new(),
            &an.barrier_loops,
            &an.counters,
            &an.launch,
            pairing,
            limits,
            None,
            &mut self.stats,
        ))
    }

    /// Whether thread 1 doing `a` and thread 2 doing `b`, in different blocks, can touch one
    /// element: in any case, or in the one `question` names (its iteration relation asserted).
    pub(super) fn grid_outcome(
        &mut self,
        key: u64,
        tree: &LabelTree,
        a: Label,
        b: Label,
        question: GridQuestion,
    ) -> Outcome {
        let no_wrap = !self.opts.wrap;
        self.ensure_grid_mode(key);
        let Some(an) = self.analyses.get_mut(&key) else { return Outcome::Unknown("internal".into()) };
        if let Some(o) = an.grid_results.get(&(a, b, question)) {
            self.stats.cache_hits += 1;
            return o.clone();
        }
        let Some((grid, ranges)) = an.grid.as_mut() else { return Outcome::Unknown("internal".into()) };
        let grid = &*grid;
        let (Some(s1), Some(s2)) = (grid.traces[0].accesses.get(&a), grid.traces[1].accesses.get(&b)) else {
            return Outcome::None;
        };
        if self.prefilter && ranges.apart([s1, s2], &grid.traces) {
            self.stats.prefiltered += 1;
            an.grid_results.insert((a, b, question), Outcome::None);
            return Outcome::None;
        }
        let mut extra = meeting(s1, s2, no_wrap, true);
        if let GridQuestion::Case(case) = &question {
            extra.extend(relation(&grid.traces, case, a, b, &tree.shared_loops(a, b)));
        }
        let no_wrap_both = Bool::and(&[&s1.no_wrap, &s2.no_wrap]);
        let loops = [s1.loops.as_slice(), s2.loops.as_slice()];
        let (mut out, wrap_free_model) = query_probing(
            grid,
            &an.launch,
            &extra,
            Some([&s1.index, &s2.index]),
            loops,
            &mut self.stats,
            Some(&no_wrap_both),
        );
        if !no_wrap && !wrap_free_model {
            out = mark_wrap(out, grid, &an.launch, &extra, [s1, s2], &mut self.stats);
        }
        an.grid_results.insert((a, b, question), out.clone());
        out
    }

    /// The grid-scope race cases of the pair `a ≼ b`: none when grid barriers separate every
    /// case; one question over all cases when they separate none (the case reported is the
    /// same-iteration one, standing for them all); else each case they leave open, asked alone.
    pub(super) fn grid_cases(
        &mut self,
        key: u64,
        tree: &LabelTree,
        gridsyncs: &[Label],
        a: Label,
        b: Label,
    ) -> Vec<(Case, Outcome)> {
        let all = cases::cases_of_pair(tree, a, b);
        let open: Vec<Case> = all.iter().copied().filter(|c| !c.is_separated_by(tree, gridsyncs)).collect();
        if open.len() == all.len() {
            let case = Case {
                first: a,
                second: b,
                relation: Relation::SameIteration,
                first_iteration: None,
                second_iteration: None,
            };
            return vec![(case, self.grid_outcome(key, tree, a, b, GridQuestion::AnyCase))];
        }
        open.into_iter().map(|c| (c, self.grid_outcome(key, tree, a, b, GridQuestion::Case(c)))).collect()
    }

    /// Whether two threads of different blocks can disagree on entering `block` at the same
    /// iterations of its loops (a grid barrier in it then diverges across blocks).
    pub(super) fn grid_divergence(&mut self, key: u64, block: Label) -> Outcome {
        self.ensure_grid_mode(key);
        let Some(an) = self.analyses.get_mut(&key) else { return Outcome::Unknown("internal".into()) };
        if let Some(o) = an.grid_divergence.get(&block) {
            self.stats.cache_hits += 1;
            return o.clone();
        }
        let Some((grid, _)) = an.grid.as_ref() else { return Outcome::Unknown("internal".into()) };
        let out = match (grid.traces[0].blocks.get(&block), grid.traces[1].blocks.get(&block)) {
            (Some(b1), Some(b2)) => {
                query(grid, &an.launch, &disagreeing(b1, b2), None, [&b1.loops, &b2.loops], &mut self.stats)
            }
            // A block the walk does not know: nothing shows the threads agree.
            _ => Outcome::Unknown("internal: a block without its condition in the grid walk".into()),
        };
        an.grid_divergence.insert(block, out.clone());
        out
    }
}
