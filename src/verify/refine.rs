//! Barriers that separate a race case only in some executions: the facts that let the oracle
//! count them anyway, as extra constraints on the race query (the case races only in executions
//! where the barrier did not run between the two accesses).
//!
//! The syntactic check (`Case::is_separated_by`) counts a barrier only when it lies directly in a
//! block on the path between the two accesses, where SDV executes it between every pair of
//! instances of the case. Three more situations are handled here, each sound by the argument
//! given (docs/semantics.md, "Barriers in nested blocks"):
//!
//! - **Nested blocks.** A barrier inside blocks `B1 ⊇ … ⊇ P` (ifs, elses, whiles) where `B1` is a
//!   statement between the accesses and encloses neither: if the thread `θ` performing an access
//!   whose loops enclose `B1` is enabled at `P` (at the iteration of the shared loops, and at
//!   iteration 0 of whiles inside `B1`), the barrier runs between. Query constraint: `θ` is not
//!   enabled there. (A real race with the barrier skipped has `θ` disabled there; the symbolic
//!   predicate is exact for the values of that execution, and iteration 0 of an inner loop uses
//!   its own havocs, which no access term mentions.)
//! - **A later iteration of a loop around the first access only.** A barrier directly in the body
//!   of a loop `L` that encloses the first access but not the second runs in the next iteration
//!   of `L`, if there is one. With a constant trip count `N` the case needs the first access in
//!   iteration `N − 1`.
//! - **An earlier iteration of a loop around the second access only.** A barrier directly in the
//!   body of a loop that encloses the second access but not the first ran in iteration 0 if the
//!   second access is in a later iteration (its thread was enabled in iteration 0, and the first
//!   access precedes the loop). The case needs the second access in iteration 0.

use super::cases::{Case, Relation};
use super::symbolic::{ThreadTrace, W};
use crate::kpl::{Label, LabelTree, NodeKind};
use z3::ast::{Ast, Bool, BV};

/// What identifies one refinement constraint (for caching): its rule, the thread and a label.
pub type RefineKey = (u8, u8, Label);

/// The constraints under which `case` of a pair whose first label `a` thread 0 performs (the
/// second, thread 1) is not separated by the kernel's `barriers`, beyond the syntactic check.
pub fn constraints(
    tree: &LabelTree,
    traces: &[ThreadTrace; 2],
    barriers: &[Label],
    case: &Case,
    a: Label,
) -> (Vec<RefineKey>, Vec<Bool>) {
    let mut keys = Vec::new();
    let mut out = Vec::new();
    // A barrier orders an asynchronous copy only after its wait: none of these situations
    // knows where that is, so a copy's cases count only the syntactic set (which does).
    if barriers.is_empty() || case.first_is_async_copy(tree) {
        return (keys, out);
    }
    // The thread performing the case's first and second access.
    let (tf, ts) = if case.first == a { (0usize, 1usize) } else { (1, 0) };
    let (first, second) = (case.first, case.second);
    let loops_of = |l: Label| tree.loops(l);
    let subset = |x: &[Label], y: &[Label]| x.iter().all(|l| y.contains(l));
    // Parts of the separating set, each with the thread whose iteration places it (None: the
    // thread whose access's loops enclose the block).
    let parts: Vec<(Vec<Label>, Option<usize>)> = match case.relation {
        Relation::SameIteration => vec![(tree.interval(first, second), None)],
        Relation::Carried { shared_loop, .. } => {
            let mut v = vec![(tree.interval(first, shared_loop), Some(tf))];
            if let Some(start) = tree.start_of(shared_loop) {
                v.push((tree.interval(start, second), Some(ts)));
            }
            v
        }
    };
    let around: Vec<Label> = tree.blks(first).iter().chain(tree.blks(second).iter()).copied().collect();
    for &bar in barriers {
        let chain = tree.blks(bar);
        // Nested blocks.
        if let Some(pos) = chain.iter().position(|blk| !around.contains(blk)) {
            let b1 = chain[pos];
            let inner = &chain[pos..];
            let Some(&p) = inner.last() else { continue };
            for (part, who) in &parts {
                if !part.contains(&b1) {
                    continue;
                }
                let theta = match who {
                    Some(t) => Some(*t),
                    None if subset(&loops_of(b1), &loops_of(first)) => Some(tf),
                    None if subset(&loops_of(b1), &loops_of(second)) => Some(ts),
                    None => None,
                };
                let Some(theta) = theta else { continue };
                let Some(block) = traces[theta].blocks.get(&p) else { continue };
                let zero = BV::from_u64(0, W);
                let subst: Vec<(&BV, &BV)> = block
                    .loops
                    .iter()
                    .filter(|(l, _)| inner.contains(l) && tree.kind(*l) == Some(NodeKind::While))
                    .map(|(_, k)| (k, &zero))
                    .collect();
                keys.push((0, theta as u8, p));
                out.push(block.enabled.substitute(&subst).not());
            }
        }
        // Loops around one access only, with the barrier directly in their body.
        let Some(parent) = tree.parent(bar) else { continue };
        if tree.kind(parent) != Some(NodeKind::While) {
            continue;
        }
        let lf = loops_of(first);
        let ls = loops_of(second);
        if lf.contains(&parent) && !ls.contains(&parent) {
            let acc = traces[tf].accesses.get(&first);
            let trips = traces[tf].trips.get(&parent);
            if let (Some(acc), Some(&n)) = (acc, trips) {
                if let Some((_, k)) = acc.loops.iter().find(|(l, _)| *l == parent) {
                    keys.push((1, tf as u8, parent));
                    out.push(k.eq(BV::from_u64(n.saturating_sub(1), W)));
                }
            }
        }
        if ls.contains(&parent) && !lf.contains(&parent) {
            if let Some(acc) = traces[ts].accesses.get(&second) {
                if let Some((_, k)) = acc.loops.iter().find(|(l, _)| *l == parent) {
                    keys.push((2, ts as u8, parent));
                    out.push(k.eq(BV::from_u64(0, W)));
                }
            }
        }
    }
    // One constraint per key.
    let mut seen = std::collections::BTreeSet::new();
    let mut pairs: Vec<(RefineKey, Bool)> =
        keys.into_iter().zip(out).filter(|(k, _)| seen.insert(*k)).collect();
    pairs.sort_by_key(|(k, _)| *k);
    pairs.into_iter().unzip()
}
