//! Where an asynchronous copy may still be in flight (issue #38).
//!
//! An `async wr` lands at an unknown moment between its statement and the issuing thread's
//! `wait n` that covers it: a `wait n` covers the copy when at least `n + 1` `commit`s ran since
//! the copy (the first closes the copy's own group). A barrier orders the copy before a later
//! access only if it runs after that wait, so the positions that separate a race whose first
//! access is such a copy are those where the copy has landed on *every* path from it
//! ([`crate::verify::cases`] filters by [`CopyFlights::in_flight`]).
//!
//! The analysis is syntactic: an abstract walk of the thread's statements from the copy, the state
//! being the set of possible counts of commits since the copy on paths where it is still in flight
//! (a bit mask; counts saturate one past [`MAX_WAIT_PENDING`]). Every branch of an `if` and every
//! number of iterations of a loop are paths, whatever the conditions: where the commits and waits
//! of a kernel are uniform that is exact, and elsewhere it may keep a copy in flight longer than
//! it is (never shorter), which can only report more races. A position is looked up in a
//! *context*: reached without taking a back edge of any loop around the copy ([`Context::Same`]),
//! or in the `c`-th later iteration of one loop around it ([`Context::Later`]).

use super::ast::{Block, Kernel, Label, StmtKind, MAX_WAIT_PENDING};
use super::tree::LabelTree;
use rustc_hash::FxHashMap;

/// Later iterations counted one by one; the last slot stands for this many and more.
pub const MAX_ITERATIONS_APART: u8 = 6;

/// Set bit `k`: a path on which the copy is in flight and `k` commits ran since it.
type Flight = u32;
const SATURATED: u32 = MAX_WAIT_PENDING + 1;
const ALL: Flight = (1 << (SATURATED + 1)) - 1;
/// Bound on the later iterations a walk follows before it stops at a repeating state.
const MAX_WALKED_ITERATIONS: usize = 64;

/// Where a position is reached from the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// In the same iteration of every loop that encloses both the copy and the position (loops
    /// around the copy only have been left).
    Same,
    /// In the `c`-th iteration after the copy's of loop `l` (which encloses the copy); `c` is
    /// capped at [`MAX_ITERATIONS_APART`], whose slot holds that many and more.
    Later(Label, u8),
}

/// The flight of one asynchronous copy.
#[derive(Clone, Debug, Default)]
struct Copy {
    /// Per context and position: the copy's state right after the position.
    at: FxHashMap<(Context, Label), Flight>,
    /// Per loop around the copy: the first later iteration at whose start the copy has landed on
    /// every path (`None`: not within [`MAX_ITERATIONS_APART`]).
    landed_by: FxHashMap<Label, u8>,
}

/// The flights of every asynchronous copy of a kernel.
#[derive(Clone, Debug, Default)]
pub struct CopyFlights {
    copies: FxHashMap<Label, Copy>,
}

impl CopyFlights {
    /// The analysis of `k` (empty when it has no asynchronous copy).
    pub fn new(k: &Kernel, tree: &LabelTree) -> CopyFlights {
        let mut copies = FxHashMap::default();
        k.walk(&mut |s| {
            if matches!(s.kind, StmtKind::Write { asynchronous: true, .. }) {
                let mut w = Walk { copy: s.label, around: tree.blks(s.label).to_vec(), out: Copy::default() };
                w.from_copy(&k.body);
                copies.insert(s.label, w.out);
            }
        });
        CopyFlights { copies }
    }

    /// Whether `l` labels an asynchronous copy.
    pub fn is_copy(&self, l: Label) -> bool {
        self.copies.contains_key(&l)
    }

    /// Whether the copy `copy` may still be in flight right after position `p` reached in
    /// context `cx`. A position the walk never reached counts as in flight. False for a label that
    /// is no asynchronous copy.
    pub fn in_flight(&self, copy: Label, cx: Context, p: Label) -> bool {
        match self.copies.get(&copy) {
            Some(c) => c.at.get(&(cx, p)).is_none_or(|f| *f != 0),
            None => false,
        }
    }

    /// The later iteration of loop `l` by whose start the copy has landed on every path
    /// (`None`: a non-copy, or not within [`MAX_ITERATIONS_APART`] iterations).
    pub fn landed_by(&self, copy: Label, l: Label) -> Option<u8> {
        self.copies.get(&copy).and_then(|c| c.landed_by.get(&l).copied())
    }
}

struct Walk {
    copy: Label,
    /// The blocks enclosing the copy.
    around: Vec<Label>,
    out: Copy,
}

fn commit(f: Flight) -> Flight {
    let saturated = f & (1 << SATURATED);
    ((f << 1) & ALL) | saturated
}

fn wait(f: Flight, pending: u32) -> Flight {
    let keep = pending.min(SATURATED);
    f & ((1u32 << (keep + 1)) - 1)
}

impl Walk {
    fn record(&mut self, cx: Context, p: Label, f: Flight) {
        *self.out.at.entry((cx, p)).or_insert(0) |= f;
    }

    /// The walk from the copy to the end of the kernel: the rest of each block around it, innermost
    /// first, and the later iterations of each loop around it.
    fn from_copy(&mut self, body: &Block) {
        self.from_copy_in(body, Context::Same);
    }

    /// Runs `b`, which holds the copy, from the copy on; the state at its end.
    fn from_copy_in(&mut self, b: &Block, cx: Context) -> Flight {
        let mut state: Option<Flight> = None;
        for s in &b.stmts {
            match state {
                Some(f) => state = Some(self.stmt(s, f, cx)),
                None if s.label == self.copy => {
                    self.record(cx, s.label, 1);
                    state = Some(1);
                }
                None if self.around.contains(&s.label) => {
                    let f = match &s.kind {
                        StmtKind::If { then, els, .. } => {
                            if then.label == s.label && self.holds(then) {
                                self.from_copy_in(then, cx)
                            } else if let Some(e) = els.as_ref().filter(|e| self.holds(e)) {
                                self.from_copy_in(e, cx)
                            } else {
                                0
                            }
                        }
                        StmtKind::While { body, .. } => self.loop_around_copy(s.label, body, cx),
                        _ => 0,
                    };
                    self.after_if(s, f, cx);
                    state = Some(f);
                }
                None => {
                    // An else block holding the copy is the if statement's: `around` names the
                    // else block's label, not the if's.
                    if let StmtKind::If { els: Some(e), .. } = &s.kind {
                        if self.around.contains(&e.label) {
                            let f = self.from_copy_in(e, cx);
                            self.after_if(s, f, cx);
                            state = Some(f);
                        }
                    }
                }
            }
        }
        state.unwrap_or(0)
    }

    fn holds(&self, b: &Block) -> bool {
        self.around.contains(&b.label)
    }

    /// Records the positions after an if statement (its own label and its else block's), both
    /// after the whole statement. For other statements, its label.
    fn after_if(&mut self, s: &super::ast::Stmt, f: Flight, cx: Context) {
        self.record(cx, s.label, f);
        if let StmtKind::If { els: Some(e), .. } = &s.kind {
            self.record(cx, e.label, f);
        }
    }

    /// A loop around the copy: the rest of the copy's iteration, then later iterations (each a
    /// context of its own) until the state repeats; the state after the loop (it may end after
    /// any of them).
    fn loop_around_copy(&mut self, l: Label, body: &Block, cx: Context) -> Flight {
        let mut f = self.from_copy_in(body, cx);
        let mut exits = f;
        let mut seen_in_last_slot: Vec<Flight> = Vec::new();
        for c in 1..=MAX_WALKED_ITERATIONS {
            let slot = c.min(usize::from(MAX_ITERATIONS_APART)) as u8;
            if f == 0 && !self.out.landed_by.contains_key(&l) {
                self.out.landed_by.insert(l, slot.min(c as u8));
            }
            if slot == MAX_ITERATIONS_APART {
                if seen_in_last_slot.contains(&f) {
                    return exits;
                }
                seen_in_last_slot.push(f);
            }
            f = self.block(body, f, Context::Later(l, slot));
            exits |= f;
        }
        // Not settled within the bound: everything in the loop may be in flight from here on.
        self.out.landed_by.remove(&l);
        for p in body_labels(body) {
            self.record(Context::Later(l, MAX_ITERATIONS_APART), p, ALL);
        }
        ALL
    }

    fn block(&mut self, b: &Block, mut f: Flight, cx: Context) -> Flight {
        self.record(cx, b.start, f);
        for s in &b.stmts {
            f = self.stmt(s, f, cx);
        }
        f
    }

    /// Runs one statement (not holding the copy) from state `f`, recording every position in it.
    fn stmt(&mut self, s: &super::ast::Stmt, f: Flight, cx: Context) -> Flight {
        let out = match &s.kind {
            StmtKind::Commit => commit(f),
            StmtKind::Wait { pending } => wait(f, *pending),
            StmtKind::If { then, els, .. } => {
                let t = self.block(then, f, cx);
                let e = match els {
                    Some(e) => self.block(e, f, cx),
                    None => f,
                };
                t | e
            }
            StmtKind::While { body, .. } => {
                // Any number of iterations: the union of the states at the loop's head.
                let mut head = f;
                loop {
                    let next = head | self.block(body, head, cx);
                    if next == head {
                        break head;
                    }
                    head = next;
                }
            }
            _ => f,
        };
        self.after_if(s, out, cx);
        out
    }
}

/// Every position inside `b` (its start and its statements', nested ones included).
fn body_labels(b: &Block) -> Vec<Label> {
    let mut out = vec![b.start];
    for s in &b.stmts {
        out.push(s.label);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                out.extend(body_labels(then));
                if let Some(e) = els {
                    out.push(e.label);
                    out.extend(body_labels(e));
                }
            }
            StmtKind::While { body, .. } => out.extend(body_labels(body)),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kpl::parse;

    fn flights(src: &str) -> (Kernel, LabelTree, CopyFlights) {
        let k = parse(src).expect("parses");
        let t = LabelTree::new(&k);
        let f = CopyFlights::new(&k, &t);
        (k, t, f)
    }

    fn label(k: &Kernel, name: &str) -> Label {
        k.label_by_name(name).expect("label")
    }

    #[test]
    fn a_copy_lands_at_the_wait_that_covers_its_group() {
        let (k, _, f) = flights(
            "kernel k() { shared s[64];
               @c async wr s[tid] := 1; @m commit; @w1 wait 1; @x barrier; @w0 wait 0; @y barrier; }",
        );
        let c = label(&k, "c");
        assert!(f.in_flight(c, Context::Same, label(&k, "m")));
        // One commit ran: `wait 1` leaves the copy's group in flight.
        assert!(f.in_flight(c, Context::Same, label(&k, "w1")));
        assert!(f.in_flight(c, Context::Same, label(&k, "x")));
        assert!(!f.in_flight(c, Context::Same, label(&k, "w0")));
        assert!(!f.in_flight(c, Context::Same, label(&k, "y")));
    }

    #[test]
    fn a_double_buffer_copy_lands_in_the_next_iteration() {
        let (k, _, f) = flights(
            "kernel k(n) { shared s[2][64]; local x; local i := 0;
               async wr s[0][tid] := 1; commit;
               @l while (i < n) {
                 @w wait 1; @b1 barrier; @r x := rd s[i % 2][tid]; @b2 barrier;
                 @c async wr s[(i + 1) % 2][tid] := 1; @m commit; i := i + 1; } }",
        );
        let (c, l) = (label(&k, "c"), label(&k, "l"));
        assert!(f.in_flight(c, Context::Same, label(&k, "m")));
        // The next iteration commits nothing before its wait: `wait 1` leaves the group in flight
        // there; it lands at the wait of the iteration after.
        assert!(f.in_flight(c, Context::Later(l, 1), label(&k, "b1")));
        assert!(!f.in_flight(c, Context::Later(l, 2), label(&k, "b1")));
        assert_eq!(f.landed_by(c, l), Some(3));
    }

    #[test]
    fn a_commit_skipped_on_one_branch_keeps_the_copy_in_flight() {
        let (k, _, f) = flights(
            "kernel k(n) { shared s[64];
               @c async wr s[tid] := 1; if (n > 1) { commit; } @w wait 0; @b barrier; }",
        );
        // Without the commit the copy is in no group that `wait 0` waits for.
        assert!(f.in_flight(label(&k, "c"), Context::Same, label(&k, "b")));
    }
}
