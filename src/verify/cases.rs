//! Race cases and what separates them.
//!
//! Under SDV all threads execute the same statement sequence, so the dynamic instances of two
//! accesses are ordered by their loop-iteration vectors and, within the same iterations, by
//! program text. A case names which instance comes first and how far apart they are; the labels
//! after which a barrier separates *every* pair of instances of that case are an interval set of
//! the label tree (AutoSync Sec. III-B). The oracle uses these sets to decide whether a kernel's
//! barriers separate a case, and the synthesis uses the very same sets as placement clauses.

use crate::kpl::{FlightContext, Label, LabelTree, MAX_ITERATIONS_APART};
use serde::Serialize;

/// How the two instances of a race relate in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Relation {
    /// Same iteration of every shared loop; `first` precedes `second` in program text.
    SameIteration,
    /// Equal iterations of the loops outside `shared_loop`; `first` runs `gap` iterations of
    /// `shared_loop` before `second` (`or_more`: `gap` or more). Every pair gets gap 1 and gap 2
    /// or more; a pair whose first access is an asynchronous copy gets each gap up to the
    /// iteration its copy has landed by (issue #38), then that many or more.
    Carried { shared_loop: Label, gap: u8, or_more: bool },
}

impl Relation {
    /// The carried relation of `gap` iterations exactly.
    pub fn carried(shared_loop: Label, gap: u8) -> Relation {
        Relation::Carried { shared_loop, gap, or_more: false }
    }
}

/// One way two accesses can meet: `first` executes before `second`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Case {
    pub first: Label,
    pub second: Label,
    pub relation: Relation,
    /// For an asynchronous copy `first` in a loop of a constant number of iterations that does
    /// not hold `second` (a pipeline's prologue): that loop and the iteration whose copy this
    /// case is about — after the loop, the copies of its iterations are in flight differently.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_iteration: Option<(Label, u8)>,
    /// For an asynchronous copy `first` and a `second` inside a loop that is not around the copy
    /// (the outermost such): that loop and the iteration `second` runs in (`true`: or a later
    /// one) — the barriers of its body may run before or after the copy lands, by iteration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_iteration: Option<(Label, u8, bool)>,
}

impl Case {
    /// The labels after which a barrier separates every pair of instances of this case. Empty
    /// when nothing can (a statement meeting itself in the same iteration). When `first` is an
    /// asynchronous copy, only positions where it has landed on every path count: a barrier
    /// orders the copy only after its wait (`kpl::CopyFlights`).
    pub fn separating_positions(&self, tree: &LabelTree) -> Vec<Label> {
        let landed = |cx: &[FlightContext], p: &Label| !self.in_flight_at(tree, cx, *p);
        let same = [FlightContext::Same];
        match self.relation {
            Relation::SameIteration => {
                let mut out = tree.interval(self.first, self.second);
                out.retain(|p| landed(&same, p));
                out
            }
            Relation::Carried { shared_loop, gap, or_more } => {
                let mut out = tree.interval(self.first, shared_loop);
                out.retain(|p| landed(&same, p));
                if let Some(start) = tree.start_of(shared_loop) {
                    let mut before = tree.interval(start, self.second);
                    let second = self.second_contexts();
                    before.retain(|p| landed(&second, p));
                    out.extend(before);
                }
                if gap >= 2 || or_more {
                    // A whole iteration lies between: any barrier directly in the loop body, in
                    // the iteration just before the second's at the earliest.
                    let middle = [later(shared_loop, gap.max(2) - 1)];
                    out.extend(tree.children(shared_loop).iter().copied().filter(|p| landed(&middle, p)));
                }
                out.sort_by_key(|l| tree.order(*l));
                out.dedup();
                out
            }
        }
    }

    /// The flight contexts the second access's instance may be reached in from the first's: the
    /// same iteration, or each later iteration of the carrying loop the relation allows (capped
    /// as the flights count them).
    pub fn second_contexts(&self) -> Vec<FlightContext> {
        match self.relation {
            Relation::SameIteration => vec![FlightContext::Same],
            Relation::Carried { shared_loop, gap, or_more } => {
                let last = if or_more { MAX_ITERATIONS_APART.max(gap) } else { gap };
                (gap..=last).map(|g| later(shared_loop, g)).collect()
            }
        }
    }

    /// Whether the case's first access, an asynchronous copy, may still be in flight right after
    /// position `p` reached in one of the contexts `cx` (false when the first is no copy). The
    /// case's iterations — of the copy's counted loop, of the second's loop entered after the copy
    /// (for positions inside that loop) — pick the flights.
    pub fn in_flight_at(&self, tree: &LabelTree, cx: &[FlightContext], p: Label) -> bool {
        let Some(f) = tree.flights().filter(|f| f.is_copy(self.first)) else { return false };
        let entered = self.second_iteration.filter(|(l, ..)| tree.is_inside(p, *l));
        cx.iter().any(|c| f.in_flight_of(self.first, self.first_iteration, entered, *c, p))
    }

    /// Whether one of `barriers` (labels of barrier statements in the tree) separates the case.
    pub fn is_separated_by(&self, tree: &LabelTree, barriers: &[Label]) -> bool {
        if barriers.is_empty() {
            return false;
        }
        self.separating_positions(tree).iter().any(|l| barriers.contains(l))
    }

    /// Whether the case's first access is an asynchronous copy: its barriers count only after
    /// the copy's wait, which the refinements that count barriers outside the syntactic set do
    /// not know.
    pub fn first_is_async_copy(&self, tree: &LabelTree) -> bool {
        tree.is_async_copy(self.first)
    }
}

/// The context of the `c`-th later iteration of loop `l`, capped as the flights count them.
fn later(l: Label, c: u8) -> FlightContext {
    FlightContext::Later(l, c.min(MAX_ITERATIONS_APART))
}

/// The cases of an access pair `a ≼ b` (by program order): the same-iteration case, then for
/// every shared loop (outermost first) the cases where `a`'s instance is earlier and where `b`'s
/// is (only one direction when `a == b`), each with a gap of one iteration and of more — gaps
/// counted one by one up to the iteration an asynchronous first access has landed by.
pub fn cases_of_pair(tree: &LabelTree, a: Label, b: Label) -> Vec<Case> {
    let case = |first, second, relation| Case {
        first,
        second,
        relation,
        first_iteration: None,
        second_iteration: None,
    };
    let mut out = vec![case(a, b, Relation::SameIteration)];
    for l in tree.shared_loops(a, b) {
        let dirs: &[(Label, Label)] = if a == b { &[(a, a)] } else { &[(a, b), (b, a)] };
        for &(first, second) in dirs {
            let exact = match tree.flights().filter(|f| f.is_copy(first)) {
                Some(f) => f.landed_by(first, l).unwrap_or(MAX_ITERATIONS_APART).max(1),
                None => 1,
            };
            for gap in 1..=exact {
                out.push(case(first, second, Relation::carried(l, gap)));
            }
            out.push(case(
                first,
                second,
                Relation::Carried { shared_loop: l, gap: exact + 1, or_more: true },
            ));
        }
    }
    // A copy of a counted loop that does not hold the other access: one case per iteration.
    // The outermost counted loop around the copy that does not hold the other access.
    let counted = |first: Label, second: Label| {
        let f = tree.flights()?;
        f.counted_loops(first, tree).into_iter().find(|(l, _)| !tree.is_inside(second, *l))
    };
    // The second's iteration of the outermost loop around it that is not around the copy: one
    // case per iteration before the copy has landed at the loop's start, then one for the rest.
    let entered = |first: Label, second: Label| {
        let f = tree.flights().filter(|f| f.is_copy(first))?;
        let around_first = tree.loops(first);
        let l = tree.loops(second).into_iter().find(|l| !around_first.contains(l))?;
        Some((l, f.entered_landed_by(first, l).unwrap_or(MAX_ITERATIONS_APART)))
    };
    out.into_iter()
        .flat_map(|c| match counted(c.first, c.second) {
            Some((l, n)) => (0..n.min(u32::from(u8::MAX)) as u8)
                .map(|i| Case { first_iteration: Some((l, i)), ..c })
                .collect::<Vec<_>>(),
            None => vec![c],
        })
        .flat_map(|c| match entered(c.first, c.second) {
            Some((l, d)) => {
                (0..=d).map(|k| Case { second_iteration: Some((l, k, k == d)), ..c }).collect::<Vec<_>>()
            }
            None => vec![c],
        })
        .collect()
}
