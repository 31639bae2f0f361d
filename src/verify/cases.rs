//! Race cases and what separates them.
//!
//! Under SDV all threads execute the same statement sequence, so the dynamic instances of two
//! accesses are ordered by their loop-iteration vectors and, within the same iterations, by
//! program text. A case names which instance comes first and how far apart they are; the labels
//! after which a barrier separates *every* pair of instances of that case are an interval set of
//! the label tree (AutoSync Sec. III-B). The oracle uses these sets to decide whether a kernel's
//! barriers separate a case, and the synthesis uses the very same sets as placement clauses.

use crate::kpl::{Label, LabelTree};
use serde::Serialize;

/// How the two instances of a race relate in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Relation {
    /// Same iteration of every shared loop; `first` precedes `second` in program text.
    SameIteration,
    /// Equal iterations of the loops outside `shared_loop`; `first` runs in an earlier iteration
    /// of `shared_loop` than `second`: the next one (`gap2 == false`) or a later one.
    Carried { shared_loop: Label, gap2: bool },
}

/// One way two accesses can meet: `first` executes before `second`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Case {
    pub first: Label,
    pub second: Label,
    pub relation: Relation,
}

impl Case {
    /// The labels after which a barrier separates every pair of instances of this case. Empty
    /// when nothing can (a statement meeting itself in the same iteration).
    pub fn separating_positions(&self, tree: &LabelTree) -> Vec<Label> {
        match self.relation {
            Relation::SameIteration => tree.interval(self.first, self.second),
            Relation::Carried { shared_loop, gap2 } => {
                let mut out = tree.interval(self.first, shared_loop);
                if let Some(start) = tree.start_of(shared_loop) {
                    out.extend(tree.interval(start, self.second));
                }
                if gap2 {
                    // A whole iteration lies between: any barrier directly in the loop body.
                    out.extend(tree.children(shared_loop).iter().copied());
                }
                out.sort_by_key(|l| tree.order(*l));
                out.dedup();
                out
            }
        }
    }

    /// Whether one of `barriers` (labels of barrier statements in the tree) separates the case.
    pub fn is_separated_by(&self, tree: &LabelTree, barriers: &[Label]) -> bool {
        if barriers.is_empty() {
            return false;
        }
        self.separating_positions(tree).iter().any(|l| barriers.contains(l))
    }
}

/// The cases of an access pair `a ≼ b` (by program order): the same-iteration case, then for
/// every shared loop (outermost first) the cases where `a`'s instance is earlier and where `b`'s
/// is (only one direction when `a == b`), each with a gap of one iteration and of more.
pub fn cases_of_pair(tree: &LabelTree, a: Label, b: Label) -> Vec<Case> {
    let mut out = vec![Case { first: a, second: b, relation: Relation::SameIteration }];
    for l in tree.shared_loops(a, b) {
        let dirs: &[(Label, Label)] = if a == b { &[(a, a)] } else { &[(a, b), (b, a)] };
        for &(first, second) in dirs {
            for gap2 in [false, true] {
                out.push(Case { first, second, relation: Relation::Carried { shared_loop: l, gap2 } });
            }
        }
    }
    out
}
