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

use super::ast::{assigned_vars, BinOp, Block, Expr, Kernel, Label, StmtKind, WriteMode, MAX_WAIT_PENDING};
use super::tree::LabelTree;
use rustc_hash::FxHashMap;

/// Later iterations counted one by one; the last slot stands for this many and more.
pub const MAX_ITERATIONS_APART: u8 = 6;

/// Set bit `need * ROW + k`: a path on which the copy is in flight, `k` commits ran since it,
/// and `need` more `release`s must run before a `wait oldest` waits for its group (the groups
/// committed and not released when it was issued, less the releases since).
type Flight = u128;
const SATURATED: u32 = MAX_WAIT_PENDING + 1;
/// Bits per value of `need`: one per count of commits, 0 to [`SATURATED`].
const ROW: u32 = SATURATED + 1;
const ROW_BITS: Flight = (1 << ROW) - 1;
/// The last value of `need`: this many releases or more (such a copy never lands at a `wait
/// oldest`: kept in flight, which can only report more).
const NEED_SATURATED: u32 = 6;
const ALL: Flight = (1 << (ROW * (NEED_SATURATED + 1))) - 1;
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

/// Where a position is reached: the context, the iteration of the loop not around the copy it is
/// in (if any), and the position.
type At = (Context, Option<(Label, u8)>, Label);

/// The flight of one asynchronous copy.
#[derive(Clone, Debug, Default)]
struct Copy {
    /// Per context, iteration of the loop not around the copy the position is in (its
    /// outermost such loop, iterations capped as contexts are) and position: the copy's state
    /// right after the position.
    at: FxHashMap<At, Flight>,
    /// Per loop not around the copy: the first iteration at whose start the copy has landed on
    /// every path, wherever the loop is entered (absent: not within [`MAX_ITERATIONS_APART`]).
    entered_landed_by: FxHashMap<Label, u8>,
    /// Loops not around the copy whose first landed iteration differs between their entries.
    entered_unsettled: Vec<Label>,
    /// Per loop around the copy: the first later iteration at whose start the copy has landed on
    /// every path (`None`: not within [`MAX_ITERATIONS_APART`]).
    landed_by: FxHashMap<Label, u8>,
}

/// The flights of every asynchronous copy of a kernel.
#[derive(Clone, Debug, Default)]
pub struct CopyFlights {
    copies: FxHashMap<Label, Copy>,
    /// Per copy and loop around it that runs a constant number of times (a pipeline's prologue,
    /// `for (s = 0; s < STAGES - 1; ++s)`): the flight of the copy of each of the loop's
    /// iterations (after the loop they differ: the copy of the last one has the fewest commits
    /// behind it).
    instances: FxHashMap<(Label, Label), Vec<Copy>>,
}

/// Loops of at most this many iterations have their copies' flights told apart by iteration.
pub const MAX_COUNTED_TRIPS: u32 = 8;

impl CopyFlights {
    /// The analysis of `k` (empty when it has no asynchronous copy).
    pub fn new(k: &Kernel, tree: &LabelTree) -> CopyFlights {
        let mut copies = FxHashMap::default();
        let mut instances = FxHashMap::default();
        let trips = bounded_loops(&k.body);
        let depths = depths_at_copies(k);
        k.walk(&mut |s| {
            if matches!(s.kind, StmtKind::Write { mode: WriteMode::Async, .. }) {
                let around = tree.blks(s.label).to_vec();
                let walk = |exit_after: Option<ExitAfter>, depth: u32| {
                    let mut w = Walk {
                        tree,
                        copy: s.label,
                        around: around.clone(),
                        exit_after,
                        tag: None,
                        issued: issued(depth),
                        out: Copy::default(),
                    };
                    w.walk_from_copy(&k.body);
                    w.out
                };
                let depth = |at: Option<(Label, u32)>| depths.get(&(s.label, at)).copied().unwrap_or(1);
                copies.insert(s.label, walk(None, depth(None)));
                for l in tree.loops(s.label) {
                    if let Some(&(n, exact)) = trips.get(&l) {
                        // The copy of iteration i has n - 1 - i iterations after it (at most, for
                        // a loop whose condition only bounds its trips).
                        let per: Vec<Copy> = (0..n)
                            .map(|i| walk(Some(ExitAfter { l, n: n - 1 - i, exact }), depth(Some((l, i)))))
                            .collect();
                        instances.insert((s.label, l), per);
                    }
                }
            }
        });
        CopyFlights { copies, instances }
    }

    /// The loops around the copy that run a constant number of times (at most
    /// [`MAX_COUNTED_TRIPS`]), outermost first, with that number: [`CopyFlights::in_flight_of`]
    /// tells their iterations' copies apart.
    pub fn counted_loops(&self, copy: Label, tree: &LabelTree) -> Vec<(Label, u32)> {
        tree.loops(copy)
            .into_iter()
            .filter_map(|l| self.instances.get(&(copy, l)).map(|per| (l, per.len() as u32)))
            .collect()
    }

    /// [`CopyFlights::in_flight`] of the copy issued in iteration `i` of its counted loop `l`
    /// (`None`: of any iteration).
    /// With `entered`, of a position in loop `l` not around the copy reached in iteration `c`
    /// of it (`or_more`: or a later one).
    pub fn in_flight_of(
        &self,
        copy: Label,
        iteration: Option<(Label, u8)>,
        entered: Option<(Label, u8, bool)>,
        cx: Context,
        p: Label,
    ) -> bool {
        let per = iteration
            .and_then(|(l, i)| self.instances.get(&(copy, l)).and_then(|per| per.get(usize::from(i))));
        let Some(c) = per.or_else(|| self.copies.get(&copy)) else { return false };
        match entered {
            None => c.in_flight(cx, None, p),
            Some((l, first, or_more)) => {
                let last = if or_more { MAX_ITERATIONS_APART } else { first.min(MAX_ITERATIONS_APART) };
                (first.min(MAX_ITERATIONS_APART)..=last).any(|k| c.in_flight(cx, Some((l, k)), p))
            }
        }
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
            Some(c) => c.in_flight(cx, None, p),
            None => false,
        }
    }

    /// The iteration of loop `l` (not around the copy) from whose start on the copy has landed
    /// on every path, wherever `l` is entered: [`Copy`]'s iterations before it are told apart
    /// (`None`: not within [`MAX_ITERATIONS_APART`], or different between entries).
    pub fn entered_landed_by(&self, copy: Label, l: Label) -> Option<u8> {
        let c = self.copies.get(&copy)?;
        if c.entered_unsettled.contains(&l) {
            return None;
        }
        c.entered_landed_by.get(&l).copied()
    }

    /// The later iteration of loop `l` by whose start the copy has landed on every path
    /// (`None`: a non-copy, or not within [`MAX_ITERATIONS_APART`] iterations).
    pub fn landed_by(&self, copy: Label, l: Label) -> Option<u8> {
        self.copies.get(&copy).and_then(|c| c.landed_by.get(&l).copied())
    }
}

impl Copy {
    fn in_flight(&self, cx: Context, tag: Option<(Label, u8)>, p: Label) -> bool {
        self.at.get(&(cx, tag, p)).is_none_or(|f| *f != 0)
    }
}

/// A loop around the copy left after `n` further iterations: exactly (`exact`), or at most.
#[derive(Clone, Copy)]
struct ExitAfter {
    l: Label,
    n: u32,
    exact: bool,
}

struct Walk<'t> {
    tree: &'t LabelTree,
    copy: Label,
    /// The blocks enclosing the copy.
    around: Vec<Label>,
    /// A loop around the copy left after this many further iterations (`None`: after any
    /// number).
    exit_after: Option<ExitAfter>,
    /// While inside a loop not around the copy: that loop and its iteration (capped).
    tag: Option<(Label, u8)>,
    /// The state right after the copy.
    issued: Flight,
    out: Copy,
}

/// The row of `f` for `need`: bit `k` set where `k` commits ran.
fn row(f: Flight, need: u32) -> Flight {
    (f >> (need * ROW)) & ROW_BITS
}

/// `f` with each row rewritten by `each`.
fn per_row(f: Flight, each: impl Fn(Flight) -> Flight) -> Flight {
    (0..=NEED_SATURATED).fold(0, |acc, need| acc | (each(row(f, need)) & ROW_BITS) << (need * ROW))
}

fn commit(f: Flight) -> Flight {
    per_row(f, |r| (r << 1) | (r & (1 << SATURATED)))
}

fn wait(f: Flight, pending: u32) -> Flight {
    let keep = pending.min(SATURATED);
    per_row(f, |r| r & ((1 << (keep + 1)) - 1))
}

/// `wait oldest`: a committed copy no release is still needed for has landed.
fn wait_oldest(f: Flight) -> Flight {
    f & !(ROW_BITS & !1)
}

/// `release`: one release fewer needed — each row moves down one, row 0 stays (nothing more is
/// needed) and the saturated row also stays (that many or more, less one, is either).
fn release(f: Flight) -> Flight {
    (f >> ROW) | (f & ROW_BITS) | (f & (ROW_BITS << (NEED_SATURATED * ROW)))
}

/// The state right after a copy issued with `depths` (bit `d`: `d` groups committed and not
/// released; the last bit, that many or more).
fn issued(depths: u32) -> Flight {
    (0..=NEED_SATURATED).filter(|d| depths & (1 << d) != 0).fold(0, |acc, d| acc | 1 << (d * ROW))
}

impl Walk<'_> {
    fn record(&mut self, cx: Context, p: Label, f: Flight) {
        *self.out.at.entry((cx, self.tag, p)).or_insert(0) |= f;
    }

    /// The walk from the copy to the end of the kernel: the rest of each block around it, innermost
    /// first, and the later iterations of each loop around it.
    fn walk_from_copy(&mut self, body: &Block) {
        self.walk_block_with_copy(body, Context::Same);
    }

    /// Runs `b`, which holds the copy, from the copy on; the state at its end.
    fn walk_block_with_copy(&mut self, b: &Block, cx: Context) -> Flight {
        let mut state: Option<Flight> = None;
        for s in &b.stmts {
            match state {
                Some(f) => state = Some(self.stmt(s, f, cx)),
                None if s.label == self.copy => {
                    self.record(cx, s.label, self.issued);
                    state = Some(self.issued);
                }
                None if self.around.contains(&s.label) => {
                    let f = match &s.kind {
                        StmtKind::If { then, els, .. } => {
                            if then.label == s.label && self.holds(then) {
                                self.walk_block_with_copy(then, cx)
                            } else if let Some(e) = els.as_ref().filter(|e| self.holds(e)) {
                                self.walk_block_with_copy(e, cx)
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
                            let f = self.walk_block_with_copy(e, cx);
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
        let mut f = self.walk_block_with_copy(body, cx);
        let exit = self.exit_after.filter(|e| e.l == l);
        let exit_after = exit.map(|e| e.n as usize);
        // Whether the loop may end after `c` further iterations.
        let may_end_after =
            |c: usize| exit.is_none_or(|e| c == e.n as usize || (!e.exact && c < e.n as usize));
        let mut exits = if may_end_after(0) { f } else { 0 };
        let mut seen_in_last_slot: Vec<Flight> = Vec::new();
        for c in 1..=MAX_WALKED_ITERATIONS {
            let slot = c.min(usize::from(MAX_ITERATIONS_APART)) as u8;
            if f == 0 && !self.out.landed_by.contains_key(&l) {
                self.out.landed_by.insert(l, slot);
            }
            if exit_after.is_some_and(|n| c > n) {
                return exits;
            }
            if slot == MAX_ITERATIONS_APART && exit_after.is_none() {
                if seen_in_last_slot.contains(&f) {
                    return exits;
                }
                seen_in_last_slot.push(f);
            }
            f = self.block(body, f, Context::Later(l, slot));
            if may_end_after(c) {
                exits |= f;
            }
        }
        // Not settled within the bound: everything in the loop may be in flight from here on.
        self.out.landed_by.remove(&l);
        for p in self.tree.subtree(l) {
            self.record(Context::Later(l, MAX_ITERATIONS_APART), p, ALL);
        }
        ALL
    }

    /// A loop not around the copy, entered with state `f` outside any such loop: its positions
    /// recorded per iteration (the last slot standing for that many and more); the state after
    /// it (it may end after any iteration).
    fn entered_loop(&mut self, l: Label, body: &Block, mut f: Flight, cx: Context) -> Flight {
        let mut exits = f;
        let mut landed = None;
        let mut seen_in_last_slot: Vec<Flight> = Vec::new();
        for c in 0..MAX_WALKED_ITERATIONS {
            let slot = c.min(usize::from(MAX_ITERATIONS_APART)) as u8;
            if f == 0 && landed.is_none() {
                landed = Some(slot);
            }
            if slot == MAX_ITERATIONS_APART {
                if seen_in_last_slot.contains(&f) {
                    break;
                }
                seen_in_last_slot.push(f);
            }
            self.tag = Some((l, slot));
            f = self.block(body, f, cx);
            self.tag = None;
            exits |= f;
            if c + 1 == MAX_WALKED_ITERATIONS {
                // Not settled within the bound: every iteration from here may hold anything.
                self.tag = Some((l, MAX_ITERATIONS_APART));
                for p in self.tree.subtree(l) {
                    self.record(cx, p, ALL);
                }
                self.tag = None;
                landed = None;
                exits = ALL;
            }
        }
        let known = self.out.entered_landed_by.get(&l).copied();
        match (landed, known) {
            (Some(d), Some(k)) if d != k => self.out.entered_unsettled.push(l),
            (Some(d), None) if !self.out.entered_unsettled.contains(&l) => {
                self.out.entered_landed_by.insert(l, d);
            }
            (None, _) => self.out.entered_unsettled.push(l),
            _ => {}
        }
        exits
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
            StmtKind::WaitOldest => wait_oldest(f),
            StmtKind::Release => release(f),
            StmtKind::If { then, els, .. } => {
                let t = self.block(then, f, cx);
                let e = match els {
                    Some(e) => self.block(e, f, cx),
                    None => f,
                };
                t | e
            }
            // A loop not around the copy: its iterations told apart (a loop around the copy, run
            // again in a later iteration of an outer loop, is not: the cases never name its
            // iteration).
            StmtKind::While { body, .. } if self.tag.is_none() && !self.around.contains(&s.label) => {
                self.entered_loop(s.label, body, f, cx)
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

/// Per asynchronous copy of a kernel that has `wait oldest`: the possible numbers of groups its
/// thread has committed and not released when it issues the copy (bit `d`; the last bit,
/// [`NEED_SATURATED`] or more). Every branch and every number of iterations of a loop is a path,
/// except that a loop whose condition bounds its trips ([`bound`]) runs at most that
/// many; the sets hold every depth a run can have, so a copy is never taken to land sooner than
/// it can. Empty when the kernel has no `wait oldest` (the depth then matters nowhere).
fn depths_at_copies(k: &Kernel) -> FxHashMap<(Label, Option<(Label, u32)>), u32> {
    let mut out = DepthWalk::default();
    let mut oldest = false;
    k.walk(&mut |s| oldest |= matches!(s.kind, StmtKind::WaitOldest));
    if oldest {
        out.block(&k.body, 1);
    }
    out.at
}

/// The depth pre-pass: per copy, the depths before it (key `None`), and before it in each
/// iteration of each bounded loop around it (key `Some((loop, iteration))`: what
/// [`CopyFlights`]' instances start from).
#[derive(Default)]
struct DepthWalk {
    at: FxHashMap<(Label, Option<(Label, u32)>), u32>,
    /// The bounded loops being walked, with their current iteration.
    iterations: Vec<(Label, u32)>,
}

impl DepthWalk {
    /// The depths after `b` run from `d`, recording those before each copy.
    fn block(&mut self, b: &Block, mut d: u32) -> u32 {
        const TOP: u32 = 1 << NEED_SATURATED;
        const ALL_DEPTHS: u32 = (TOP << 1) - 1;
        for (i, s) in b.stmts.iter().enumerate() {
            d = match &s.kind {
                StmtKind::Write { mode: WriteMode::Async, .. } => {
                    *self.at.entry((s.label, None)).or_insert(0) |= d;
                    for &it in &self.iterations {
                        *self.at.entry((s.label, Some(it))).or_insert(0) |= d;
                    }
                    d
                }
                StmtKind::Commit => ((d << 1) | (d & TOP)) & ALL_DEPTHS,
                // As [`release`] on the rows of a flight.
                StmtKind::Release => (d >> 1) | (d & 1) | (d & TOP),
                StmtKind::If { then, els, .. } => {
                    let t = self.block(then, d);
                    t | els.as_ref().map_or(d, |e| self.block(e, d))
                }
                StmtKind::While { cond, body } => {
                    let bound = i.checked_sub(1).and_then(|j| bound(&b.stmts[j], cond, body));
                    let (mut head, mut exits) = (d, d);
                    match bound {
                        Some((n, exact)) => {
                            for it in 0..n {
                                self.iterations.push((s.label, it));
                                head = self.block(body, head);
                                self.iterations.pop();
                                exits = if exact { head } else { exits | head };
                            }
                            exits
                        }
                        None => loop {
                            let next = head | self.block(body, head);
                            if next == head {
                                break head;
                            }
                            head = next;
                        },
                    }
                }
                _ => d,
            };
        }
        d
    }
}

/// How many iterations a loop runs, and whether exactly that many (`false`: at most): [`trips`]
/// of its condition, or of the first conjunct of a condition `a && b` (a pipeline's prologue,
/// `s < STAGES && s < tiles`), at most.
fn bound(before: &super::ast::Stmt, cond: &Expr, body: &Block) -> Option<(u32, bool)> {
    match cond {
        Expr::Binary(BinOp::And, a, _) => bound(before, a, body).map(|(n, _)| (n, false)),
        _ => trips(before, cond, body).map(|n| (n, true)),
    }
}

/// The loops of `b` (at any depth) whose condition bounds their trips ([`bound`]), with the
/// bound and whether it is exact.
fn bounded_loops(b: &Block) -> FxHashMap<Label, (u32, bool)> {
    let mut out = FxHashMap::default();
    let mut stack = vec![b];
    while let Some(b) = stack.pop() {
        for (i, s) in b.stmts.iter().enumerate() {
            match &s.kind {
                StmtKind::If { then, els, .. } => {
                    stack.push(then);
                    stack.extend(els.iter());
                }
                StmtKind::While { cond, body } => {
                    if let Some(n) = i.checked_sub(1).and_then(|j| bound(&b.stmts[j], cond, body)) {
                        out.insert(s.label, n);
                    }
                    stack.push(body);
                }
                _ => {}
            }
        }
    }
    out
}

/// The number of iterations of a loop that runs a constant number of times, at most
/// [`MAX_COUNTED_TRIPS`]: `x := c0;` (or `local x := c0;`) right before `while (x < c1)`
/// (`<=`, `!=`, unsigned too) whose body assigns `x` only in its last statement, `x := x + s`.
/// The same number for every thread: it depends on constants only.
fn trips(before: &super::ast::Stmt, cond: &Expr, body: &Block) -> Option<u32> {
    let (x, start) = match &before.kind {
        StmtKind::Local { name, init: Some(e) } | StmtKind::Assign { name, value: e } => {
            (name, e.constant_value()?)
        }
        _ => return None,
    };
    let Expr::Binary(op, lhs, rhs) = cond else { return None };
    let (Expr::Var(v), Some(end)) = (lhs.as_ref(), rhs.constant_value()) else { return None };
    let last = body.stmts.last()?;
    let step = match &last.kind {
        StmtKind::Assign { name, value: Expr::Binary(BinOp::Add | BinOp::UAdd, a, c) } if name == x => {
            match (a.as_ref(), c.constant_value()) {
                (Expr::Var(y), Some(step)) if y == x && step > 0 => step,
                _ => return None,
            }
        }
        _ => return None,
    };
    // The last statement is the only one assigning `x`.
    if v != x || assigned_vars(body).get(x.as_str()) != Some(&1) {
        return None;
    }
    let holds = |k: u32| -> bool {
        let (ks, ke) = (k as i32, end as i32);
        match op {
            BinOp::Lt => ks < ke,
            BinOp::Le => ks <= ke,
            BinOp::ULt => k < end,
            BinOp::ULe => k <= end,
            BinOp::Ne => k != end,
            _ => false,
        }
    };
    if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::ULt | BinOp::ULe | BinOp::Ne) {
        return None;
    }
    let (mut k, mut n) = (start, 0u32);
    while holds(k) {
        n += 1;
        if n > MAX_COUNTED_TRIPS {
            return None;
        }
        k = k.wrapping_add(step);
    }
    Some(n)
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
    fn wait_oldest_lands_a_copy_once_the_stages_ahead_of_it_are_released() {
        // A 2-stage pipeline: the refill of iteration i has one stage ahead of it (tile i + 1)
        // and lands at the `wait oldest` of iteration i + 2, after one release.
        let (k, _, f) = flights(
            "kernel k(n) { shared s[2][64]; local x; local t := 0;
               local p := 0;
               while (p < 2 && p < n) { async wr s[p][tid] := 1; commit; p := p + 1; }
               @l while (t < n) {
                 @w wait oldest; @b1 barrier; @r x := rd s[t % 2][tid]; @b2 barrier; @rel release;
                 if (t + 2 < n) { @c async wr s[t % 2][tid] := 1; commit; }
                 t := t + 1; } }",
        );
        let (c, l) = (label(&k, "c"), label(&k, "l"));
        assert!(f.in_flight(c, Context::Later(l, 1), label(&k, "b1")));
        assert!(f.in_flight(c, Context::Later(l, 1), label(&k, "rel")));
        assert!(!f.in_flight(c, Context::Later(l, 2), label(&k, "w")));
        assert_eq!(f.landed_by(c, l), Some(3));
    }

    #[test]
    fn wait_oldest_without_a_release_keeps_later_stages_in_flight() {
        // Nothing released: every `wait oldest` waits for the first stage only.
        let (k, _, f) = flights(
            "kernel k() { shared s[2][64];
               async wr s[0][tid] := 1; commit; @c async wr s[1][tid] := 1; commit;
               @w1 wait oldest; @b barrier; @w2 wait oldest; release; @w3 wait oldest; @e barrier; }",
        );
        let c = label(&k, "c");
        assert!(f.in_flight(c, Context::Same, label(&k, "w1")));
        assert!(f.in_flight(c, Context::Same, label(&k, "w2")));
        assert!(!f.in_flight(c, Context::Same, label(&k, "w3")));
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
