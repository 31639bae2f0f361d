//! What a loop body does to its variables and which loops hold barriers: the facts the symbolic
//! executor (`symbolic`) and the analysis cache (`Z3Oracle::analysis`) read off the KPL before
//! any term is built.
//!
//! Every function here is a syntactic walk of one kernel or one loop body; none builds a z3 term.

use crate::kpl::{BinOp, Block, Expr, Kernel, Label, StmtKind, UnOp};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

/// Variables assigned anywhere in a block (a syntactic fact of KPL, shared with
/// `kpl::CopyFlights`).
pub use crate::kpl::assigned_vars;

/// If `x` is an induction variable of the loop `while (cond) body` — assigned exactly once, as
/// `x := x op step` with a loop-invariant step — the operator and the step. The assignment is a
/// top-level statement of the body, or of the then block of a top-level `if (!f)` whose flag `f`
/// is an exit flag of the loop (`exit_flags`): a thread that skips the update there has `f` set
/// and leaves the loop before its next iteration, so at every iteration a thread runs, `x` has
/// followed the update at each earlier one (the `for` update after a `break`: `if (!brk) i++`).
/// Only the value inside the loop is that closed form: after it, `x` is frozen wherever the
/// thread left.
pub fn induction_step(
    body: &Block,
    cond: &Expr,
    x: &str,
    assigned: &HashMap<String, usize>,
) -> Option<(BinOp, Expr)> {
    if assigned.get(x) != Some(&1) {
        return None;
    }
    let invariant = |e: &Expr| {
        let mut ok = true;
        e.for_each_var(&mut |v| ok &= !assigned.contains_key(v));
        ok
    };
    loop_updates(body, cond).into_iter().find_map(|s| match &s.kind {
        StmtKind::Assign { name, value: Expr::Binary(op, a, b) } if name == x => {
            let is_x = |e: &Expr| matches!(e, Expr::Var(v) if v == x);
            // The step's operator as the value it computes: an unsigned `uadd` counter steps
            // as `+` does (its no-wrap condition is the counter assumption's business).
            let op = op.machine();
            if is_x(a) && invariant(b) {
                Some((op, (**b).clone()))
            } else if is_x(b) && invariant(a) && matches!(op, BinOp::Add | BinOp::Mul) {
                Some((op, (**a).clone()))
            } else {
                None
            }
        }
        _ => None,
    })
}

/// The statements of `while (cond) body` that every iteration a thread stays in the loop runs:
/// the body's top-level statements, and those of the then block of a top-level `if (!f)` over an
/// exit flag `f` of the loop ([`exit_flags`]; a thread that skips them leaves the loop before its
/// next iteration).
fn loop_updates<'a>(body: &'a Block, cond: &Expr) -> Vec<&'a crate::kpl::Stmt> {
    let flags = exit_flags(body, cond);
    body.stmts
        .iter()
        .flat_map(|s| match &s.kind {
            StmtKind::If { cond: Expr::Unary(UnOp::Not, f), then, els: None }
                if matches!(&**f, Expr::Var(v) if flags.contains(v)) =>
            {
                then.stmts.iter().collect::<Vec<_>>()
            }
            _ => vec![s],
        })
        .collect()
}

/// The exit flags of `while (cond) body`: locals `f` with a top-level conjunct `!f` in `cond`
/// that the body only ever sets to a non-zero constant (at any depth) — once a thread sets one,
/// it leaves the loop at the next guard.
fn exit_flags(body: &Block, cond: &Expr) -> Vec<String> {
    fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match e {
            Expr::Binary(BinOp::And, a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            _ => out.push(e),
        }
    }
    fn only_set(b: &Block, f: &str) -> bool {
        b.stmts.iter().all(|s| match &s.kind {
            StmtKind::Assign { name, value } if name == f => matches!(value, Expr::Const(c) if *c != 0),
            StmtKind::Local { name, .. } => name != f,
            StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => dst != f,
            StmtKind::If { then, els, .. } => {
                only_set(then, f) && els.as_ref().is_none_or(|e| only_set(e, f))
            }
            StmtKind::While { body, .. } => only_set(body, f),
            _ => true,
        })
    }
    let mut cs = Vec::new();
    conjuncts(cond, &mut cs);
    cs.into_iter()
        .filter_map(|c| match c {
            Expr::Unary(UnOp::Not, f) => match &**f {
                Expr::Var(v) if only_set(body, v) => Some(v.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The `while` loops of `k` whose bodies hold a barrier, a `gridsync` or a `syncwarp` (at any
/// depth).
pub fn loops_with_barriers(k: &Kernel) -> BTreeSet<Label> {
    fn walk(b: &Block, out: &mut BTreeSet<Label>) -> bool {
        let mut holds = false;
        for s in &b.stmts {
            holds |= match &s.kind {
                StmtKind::Barrier | StmtKind::Syncwarp | StmtKind::Gridsync => true,
                StmtKind::If { then, els, .. } => {
                    walk(then, out) | els.as_ref().is_some_and(|e| walk(e, out))
                }
                StmtKind::While { body, .. } => {
                    let inner = walk(body, out);
                    if inner {
                        out.insert(s.label);
                    }
                    inner
                }
                _ => false,
            };
        }
        holds
    }
    let mut out = BTreeSet::new();
    walk(&k.body, &mut out);
    out
}

/// The `while` loops of `k` around one of `reads` (at any depth).
pub fn loops_around_reads(k: &Kernel, reads: &BTreeSet<Label>) -> BTreeSet<Label> {
    fn walk(b: &Block, reads: &BTreeSet<Label>, around: &mut Vec<Label>, out: &mut BTreeSet<Label>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Read { .. } if reads.contains(&s.label) => out.extend(around.iter().copied()),
                StmtKind::If { then, els, .. } => {
                    walk(then, reads, around, out);
                    if let Some(e) = els {
                        walk(e, reads, around, out);
                    }
                }
                StmtKind::While { body, .. } => {
                    around.push(s.label);
                    walk(body, reads, around, out);
                    around.pop();
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&k.body, reads, &mut Vec::new(), &mut out);
    out
}

/// Variables that a loop body permutes: each iteration, every variable of a cycle takes the value
/// the next one had at the start of the iteration (`tmp = cur; cur = nxt; nxt = tmp;`, the
/// double-buffer swap, is the cycle `[cur, nxt]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotation {
    /// The cycle: `cycle[i]` takes the value of `cycle[(i + 1) % len]` each iteration.
    pub cycle: Vec<String>,
    /// This variable's position in `cycle`.
    pub at: usize,
}

impl Rotation {
    /// The variable whose value at the loop's entry this one holds at the start of iteration
    /// `k`, for `k mod len` given as `r`.
    pub fn source(&self, r: usize) -> &str {
        &self.cycle[(self.at + r) % self.cycle.len()]
    }
}

/// How a loop body flips a variable each iteration (see [`toggle`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle<'a> {
    /// `x := c - x`.
    SubFrom(&'a Expr),
    /// `x := x ^ c` (or `c ^ x`).
    Xor(&'a Expr),
}

/// Whether the loop `while (cond) body` flips `name` with an involution once per iteration: its
/// only assignment of `name` is `name := c - name` or `name := name ^ c` (`c` a constant), the
/// double-buffer index `src = 1 - src`, among the statements every iteration runs
/// ([`loop_updates`]). Then, at every iteration a thread runs, `name` holds its entry value when
/// the iteration is even and the flipped entry value when it is odd — exactly, as applying the
/// flip twice gives the value back in 32-bit arithmetic. A flip under any other `if` (a
/// `continue` flag guards everything after it) does not qualify.
pub fn toggle<'a>(
    body: &'a Block,
    cond: &Expr,
    name: &str,
    assigned: &HashMap<String, usize>,
) -> Option<Toggle<'a>> {
    if assigned.get(name) != Some(&1) {
        return None;
    }
    let is_var = |e: &Expr| matches!(e, Expr::Var(v) if v == name);
    let flip = |e: &'a Expr| match e {
        Expr::Binary(op, a, b) => match (op, &**a, &**b) {
            (BinOp::Sub, c @ Expr::Const(_), x) if is_var(x) => Some(Toggle::SubFrom(c)),
            (BinOp::BitXor, x, c @ Expr::Const(_)) | (BinOp::BitXor, c @ Expr::Const(_), x) if is_var(x) => {
                Some(Toggle::Xor(c))
            }
            _ => None,
        },
        _ => None,
    };
    let updates = loop_updates(body, cond);
    updates.iter().find_map(|s| match &s.kind {
        StmtKind::Assign { name: n, value } if n == name => flip(value).or_else(|| {
            // `out = 1 - in; … in = out;`: through a body local given the flip once, before
            // (`name` itself changes only here, so the local still holds its flip).
            let Expr::Var(t) = value else { return None };
            if assigned.get(t.as_str()) != Some(&1) {
                return None;
            }
            updates.iter().find_map(|d| match &d.kind {
                StmtKind::Local { name: l, init: Some(e) } if l == t => flip(e),
                _ => None,
            })
        }),
        _ => None,
    })
}

/// The rotations of `body` (see [`Rotation`]), keyed by variable. Only variables the body assigns
/// exclusively by unconditional top-level copies of another variable qualify (a copy under an
/// `if` — a `break`, `continue` or `return` flag guards everything after it — or any other
/// assignment disqualifies it), and only when the copies form a permutation of them; variables
/// declared in the body (the swap's temporary) are the body's own and never part of a cycle.
pub fn rotations(body: &Block, assigned: &HashMap<String, usize>) -> HashMap<String, Rotation> {
    #[derive(Clone, PartialEq)]
    enum Source {
        /// The value the variable had at the start of the iteration.
        Entry(String),
        Other,
    }
    let mut now: HashMap<String, Source> = HashMap::default();
    let mut body_locals = HashSet::default();
    for s in &body.stmts {
        let copy = |now: &HashMap<String, Source>, y: &str| {
            now.get(y).cloned().unwrap_or_else(|| Source::Entry(y.to_string()))
        };
        match &s.kind {
            StmtKind::Local { name, init } => {
                body_locals.insert(name.clone());
                let v = match init {
                    Some(Expr::Var(y)) => copy(&now, y),
                    _ => Source::Other,
                };
                now.insert(name.clone(), v);
            }
            StmtKind::Assign { name, value } => {
                let v = match value {
                    Expr::Var(y) => copy(&now, y),
                    _ => Source::Other,
                };
                now.insert(name.clone(), v);
            }
            StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => {
                now.insert(dst.clone(), Source::Other);
            }
            StmtKind::If { then, els, .. } => {
                let mut inner = assigned_vars(then);
                if let Some(e) = els {
                    inner.extend(assigned_vars(e));
                }
                for name in inner.into_keys() {
                    now.insert(name, Source::Other);
                }
            }
            StmtKind::While { body, .. } => {
                for name in assigned_vars(body).into_keys() {
                    now.insert(name, Source::Other);
                }
            }
            _ => {}
        }
    }
    // x ↦ the variable whose entry value x ends the iteration with.
    let mut next: HashMap<&str, &str> = HashMap::default();
    for name in assigned.keys() {
        if body_locals.contains(name) {
            continue;
        }
        if let Some(Source::Entry(y)) = now.get(name) {
            if y != name && assigned.contains_key(y) && !body_locals.contains(y) {
                next.insert(name.as_str(), y.as_str());
            }
        }
    }
    // Keep a permutation: drop variables whose source left the set or is shared, until none do.
    loop {
        let mut taken: HashMap<&str, usize> = HashMap::default();
        for y in next.values() {
            *taken.entry(y).or_insert(0) += 1;
        }
        let before = next.len();
        let keep: HashMap<&str, &str> = next
            .iter()
            .filter(|(x, y)| next.contains_key(*y) && taken.get(*y) == Some(&1) && taken.contains_key(*x))
            .map(|(x, y)| (*x, *y))
            .collect();
        next = keep;
        if next.len() == before {
            break;
        }
    }
    let mut out = HashMap::default();
    let mut starts: Vec<&str> = next.keys().copied().collect();
    starts.sort_unstable();
    for start in starts {
        if out.contains_key(start) {
            continue;
        }
        let mut cycle = vec![start.to_string()];
        let mut x = next[start];
        while x != start {
            cycle.push(x.to_string());
            x = next[x];
        }
        for (at, name) in cycle.iter().enumerate() {
            out.insert(name.clone(), Rotation { cycle: cycle.clone(), at });
        }
    }
    out
}

/// The value a loop-condition variable `f` of `while (cond) body` has at the start of every
/// iteration after the first, as an expression over the values the loop's variables have at the
/// start of that iteration — when the body recomputes it from them at its end. That is how a
/// `for` whose condition needs statements is lowered (`for (…; inRange(i, n); i += s)`: the
/// call's inlined locals compute a flag before the loop and again after the update), and a
/// `while` whose flag is set from the loop's counters last.
///
/// `f`'s last top-level assignment (among the statements every continuing iteration runs,
/// [`loop_updates`]) is followed by no other assignment of it; every variable its value reads
/// is either declared in the body and assigned exactly once, by a top-level statement before the
/// read (substituted by its definition, recursively), or declared outside the body and assigned
/// by no statement from the read on. Such an expression, read at the body's end, holds each
/// variable's final value of the iteration — its value at the start of the next one.
pub fn carried_condition(body: &Block, cond: &Expr, f: &str) -> Option<Expr> {
    let stmts = loop_updates(body, cond);
    let mut declared = HashSet::default();
    let mut values: HashMap<String, usize> = HashMap::default();
    count_values(body, &mut declared, &mut values);
    // The variables each top-level statement assigns, at any depth.
    let assigns: Vec<HashSet<String>> = stmts
        .iter()
        .map(|s| {
            let mut out = HashSet::default();
            assigned_by(s, &mut out);
            out
        })
        .collect();
    let last = assigns.iter().rposition(|a| a.contains(f))?;
    let value = definition(stmts[last], f)?;
    let body_facts = BodyFacts { stmts: &stmts, assigns: &assigns, declared: &declared, values: &values };
    body_facts.at_end(&value, last, 0)
}

/// What [`carried_condition`] knows of a loop body: its top-level statements (every continuing
/// iteration runs them), the variables each gives a value, the body's own locals and how many
/// times each variable is given a value.
struct BodyFacts<'a> {
    stmts: &'a [&'a crate::kpl::Stmt],
    assigns: &'a [HashSet<String>],
    declared: &'a HashSet<String>,
    values: &'a HashMap<String, usize>,
}

impl BodyFacts<'_> {
    /// `e`, as read by top-level statement `at`, over the values the variables have at the
    /// body's end; `None` when some variable changes after the read.
    fn at_end(&self, e: &Expr, at: usize, depth: usize) -> Option<Expr> {
        if depth > 64 {
            return None;
        }
        let mut vars = Vec::new();
        e.for_each_var(&mut |v| vars.push(v.to_string()));
        let mut out = e.clone();
        for x in vars {
            if self.declared.contains(&x) {
                if self.values.get(&x) != Some(&1) {
                    return None;
                }
                let q = (0..at).rev().find(|&q| self.assigns[q].contains(&x))?;
                let by = self.at_end(&definition(self.stmts[q], &x)?, q, depth + 1)?;
                out = substitute(&out, &x, &by);
            } else if self.assigns[at..].iter().any(|a| a.contains(&x)) {
                return None;
            }
        }
        Some(out)
    }
}

/// The value statement `s` gives `x`, when it is a plain assignment or initialized declaration.
fn definition(s: &crate::kpl::Stmt, x: &str) -> Option<Expr> {
    match &s.kind {
        StmtKind::Assign { name, value } | StmtKind::Local { name, init: Some(value) } if name == x => {
            Some(value.clone())
        }
        _ => None,
    }
}

/// The locals a block declares (at any depth), and how many times each variable is given a
/// value (an assignment, an initialized declaration, a read or an atomic's result).
fn count_values(b: &Block, declared: &mut HashSet<String>, values: &mut HashMap<String, usize>) {
    for s in &b.stmts {
        s.walk(&mut |t| {
            if let StmtKind::Local { name, .. } = &t.kind {
                declared.insert(name.clone());
            }
            if let Some((name, _)) = t.value_target() {
                *values.entry(name.to_string()).or_insert(0) += 1;
            }
        });
    }
}

/// The variables statement `s` gives a value or declares (at any depth).
fn assigned_by(s: &crate::kpl::Stmt, out: &mut HashSet<String>) {
    s.walk(&mut |t| {
        if let Some((name, _)) = t.value_target() {
            out.insert(name.to_string());
        } else if let StmtKind::Local { name, .. } = &t.kind {
            out.insert(name.clone());
        }
    });
}

/// `e` with every occurrence of the variable `x` replaced by `by`.
fn substitute(e: &Expr, x: &str, by: &Expr) -> Expr {
    let go = |e: &Expr| Box::new(substitute(e, x, by));
    match e {
        Expr::Var(v) if v == x => by.clone(),
        Expr::Const(_) | Expr::Var(_) | Expr::Builtin(_) => e.clone(),
        Expr::Unary(op, a) => Expr::Unary(*op, go(a)),
        Expr::Binary(op, a, b) => Expr::Binary(*op, go(a), go(b)),
        Expr::Select(c, a, b) => Expr::Select(go(c), go(a), go(b)),
        Expr::Call(name, args) => {
            Expr::Call(name.clone(), args.iter().map(|a| substitute(a, x, by)).collect())
        }
    }
}

/// A loop-invariant upper bound `B` (unsigned) that every value the body gives `x` respects
/// when `x` does: each assignment of `x` (at any depth) is `x` itself or an unsigned minimum
/// with `B` (`ult(a, b) ? a : b` is at most `b`), through the body's temporaries defined once at
/// its top level before the statement that reads them. Then `x <= B` holds at every iteration
/// and after the loop whenever it held on entry (a binary search's `pos = min(pos + step, len)`).
/// `assigned` is the body's [`assigned_vars`].
pub fn upper_bound(body: &Block, x: &str, assigned: &HashMap<String, usize>) -> Option<Expr> {
    let mut declared = HashSet::default();
    let mut values: HashMap<String, usize> = HashMap::default();
    count_values(body, &mut declared, &mut values);
    // The body's temporaries defined once at its top level: their definitions and positions.
    let mut defs: HashMap<String, (usize, Expr)> = HashMap::default();
    for (at, s) in body.stmts.iter().enumerate() {
        if let StmtKind::Assign { name, value } | StmtKind::Local { name, init: Some(value) } = &s.kind {
            if declared.contains(name) && values.get(name) == Some(&1) {
                defs.insert(name.clone(), (at, value.clone()));
            }
        }
    }
    // The bound of `e` read by top-level statement `at`; `Some(None)` is `x` itself.
    fn bound(
        e: &Expr,
        at: usize,
        x: &str,
        defs: &HashMap<String, (usize, Expr)>,
        assigned: &HashMap<String, usize>,
        depth: usize,
    ) -> Option<Option<Expr>> {
        if depth > 32 {
            return None;
        }
        match e {
            Expr::Var(v) if v == x => Some(None),
            Expr::Var(v) => match defs.get(v) {
                Some((q, def)) if *q < at => bound(def, *q, x, defs, assigned, depth + 1),
                Some(_) => None,
                None if !assigned.contains_key(v) => Some(Some(e.clone())),
                None => None,
            },
            Expr::Const(_) => Some(Some(e.clone())),
            // `a < b ? a : b` (unsigned): at most `b`.
            Expr::Select(c, a, b) => match &**c {
                Expr::Binary(BinOp::ULt | BinOp::ULe, p, q) if p == a && q == b => {
                    bound(b, at, x, defs, assigned, depth + 1)
                }
                _ => None,
            },
            _ => None,
        }
    }
    let mut found: Option<Expr> = None;
    let mut any = false;
    for (at, s) in body.stmts.iter().enumerate() {
        let mut here = Vec::new();
        s.walk(&mut |t| match t.value_target() {
            Some((name, value)) if name == x => here.push(value),
            _ => {}
        });
        for value in here {
            any = true;
            match bound(value?, at, x, &defs, assigned, 0)? {
                None => {}
                Some(b) => match &found {
                    None => found = Some(b),
                    Some(f) if *f == b => {}
                    Some(_) => return None,
                },
            }
        }
    }
    if !any || declared.contains(x) {
        return None;
    }
    found
}

/// The variables a loop body only ever gives values computed from memory: each is given a value
/// by a read or an atomic, or by expressions that each read at least one such variable (the
/// largest such set, so values passed around a cycle stay in it). A loop-carried one whose value
/// on entry is also computed from memory holds, at every iteration and after the loop, a value
/// computed from memory — unconstrained to the oracle, like the value of a read.
pub fn memory_valued(body: &Block) -> HashSet<String> {
    let mut all: Vec<(&str, Option<&Expr>)> = Vec::new();
    for s in &body.stmts {
        s.walk(&mut |t| all.extend(t.value_target()));
    }
    let mut set: HashSet<String> = all.iter().map(|(n, _)| n.to_string()).collect();
    loop {
        let before = set.len();
        for (name, value) in &all {
            if let Some(e) = value {
                let mut reads_memory = false;
                e.for_each_var(&mut |v| reads_memory |= set.contains(v));
                if !reads_memory {
                    set.remove(*name);
                }
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// A floor `L` (loop-invariant) that `x` keeps when it starts at or above it: `x`'s one change in
/// the body is the top-level `x := x - 1`, and every iteration runs only with `x > L` at its
/// start — a conjunct of the condition, or, for a condition flag `f` the body sets last from a
/// local `g` (`g := x > L && …` as the short-circuit `while (j > 0 && a[j - 1] < v)` is lowered:
/// `local g := x > L != 0; if (g) { …; g := … }; f := g`), computed after the decrement. Then
/// `x > L` held when the iteration started (the first: when the condition held on entry), so
/// `x >= L` after its decrement, and at the exit; and `x` never grows.
pub fn decrement_floor(
    body: &Block,
    cond: &Expr,
    x: &str,
    assigned: &HashMap<String, usize>,
) -> Option<Expr> {
    if assigned.get(x) != Some(&1) {
        return None;
    }
    let is_decrement = |s: &crate::kpl::Stmt| {
        matches!(&s.kind, StmtKind::Assign { name, value: Expr::Binary(BinOp::Sub, a, b) }
            if name == x && matches!(&**a, Expr::Var(v) if v == x) && matches!(&**b, Expr::Const(1)))
    };
    let at = body.stmts.iter().position(is_decrement)?;
    let invariant = |e: &Expr| {
        let mut ok = true;
        e.for_each_var(&mut |v| ok &= !assigned.contains_key(v));
        ok
    };
    // The floor of a condition: a conjunct `x > L`, through `c != 0`.
    fn floor_of(c: &Expr, x: &str) -> Option<Expr> {
        match c {
            Expr::Binary(BinOp::Gt, a, l) if matches!(&**a, Expr::Var(v) if v == x) => Some((**l).clone()),
            Expr::Binary(BinOp::And, a, b) => floor_of(a, x).or_else(|| floor_of(b, x)),
            Expr::Binary(BinOp::Ne, a, z) if matches!(&**z, Expr::Const(0)) => floor_of(a, x),
            _ => None,
        }
    }
    if let Some(l) = floor_of(cond, x).filter(|l| invariant(l)) {
        return Some(l);
    }
    let Expr::Var(f) = cond else { return None };
    if assigned.get(f) != Some(&1) {
        return None;
    }
    let last =
        body.stmts.iter().rposition(|s| matches!(&s.kind, StmtKind::Assign { name, .. } if name == f))?;
    let StmtKind::Assign { value: Expr::Var(g), .. } = &body.stmts[last].kind else { return None };
    let decl = body.stmts[..last]
        .iter()
        .position(|s| matches!(&s.kind, StmtKind::Local { name, init: Some(_) } if name == g))?;
    let StmtKind::Local { init: Some(p), .. } = &body.stmts[decl].kind else { return None };
    if decl < at {
        return None;
    }
    // Between the declaration and `f := g`, `g` changes only inside `if (g) { … }`, and nothing
    // changes `x` (its one change is the decrement, before).
    for s in &body.stmts[decl + 1..last] {
        let mut changed = HashSet::default();
        assigned_by(s, &mut changed);
        if !changed.contains(g) {
            continue;
        }
        match &s.kind {
            StmtKind::If { cond: Expr::Var(c), els: None, .. } if c == g => {}
            _ => return None,
        }
    }
    floor_of(p, x).filter(|l| invariant(l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kpl::parse;

    fn loop_body(src: &str) -> Block {
        let k = parse(src).expect("parses");
        k.body
            .stmts
            .iter()
            .find_map(|s| match &s.kind {
                StmtKind::While { body, .. } => Some(body.clone()),
                _ => None,
            })
            .expect("a loop")
    }

    fn cycles(src: &str) -> Vec<Vec<String>> {
        let body = loop_body(src);
        let mut out: Vec<Vec<String>> = rotations(&body, &assigned_vars(&body))
            .into_values()
            .filter(|r| r.at == 0)
            .map(|r| r.cycle)
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_swap_through_a_temporary_is_a_two_cycle() {
        let src = "kernel k() { local a := 0; local b := 1; local i := 0;
            while (i < 8) { local t := a; a := b; b := t; i := i + 1; } }";
        assert_eq!(cycles(src), vec![vec!["a".to_string(), "b".to_string()]]);
    }

    #[test]
    fn a_three_way_rotation_is_one_cycle() {
        let src = "kernel k() { local a := 0; local b := 1; local c := 2; local i := 0;
            while (i < 8) { local t := a; a := b; b := c; c := t; i := i + 1; } }";
        assert_eq!(cycles(src), vec![vec!["a".to_string(), "b".to_string(), "c".to_string()]]);
    }

    #[test]
    fn a_conditional_or_computed_assignment_is_no_rotation() {
        let guarded = "kernel k() { local a := 0; local b := 1; local i := 0;
            while (i < 8) { local t := a; if (i < 3) { a := b; } b := t; i := i + 1; } }";
        assert!(cycles(guarded).is_empty());
        let computed = "kernel k() { local a := 0; local b := 1; local i := 0;
            while (i < 8) { local t := a; a := b + 1; b := t; i := i + 1; } }";
        assert!(cycles(computed).is_empty());
        // `a := b; b := a` copies, it does not swap: both end with b's entry value.
        let copy = "kernel k() { local a := 0; local b := 1; local i := 0;
            while (i < 8) { a := b; b := a; i := i + 1; } }";
        assert!(cycles(copy).is_empty());
    }

    fn the_loop(src: &str) -> (Block, Expr) {
        let k = parse(src).expect("parses");
        k.body
            .stmts
            .iter()
            .find_map(|s| match &s.kind {
                StmtKind::While { cond, body } => Some((body.clone(), cond.clone())),
                _ => None,
            })
            .expect("a loop")
    }

    #[test]
    fn a_flip_by_an_involution_is_a_toggle() {
        let sub = "kernel k() { local s := 0; local i := 0; while (i < 8) { i := i + 1; s := 1 - s; } }";
        let (body, cond) = the_loop(sub);
        assert!(matches!(
            toggle(&body, &cond, "s", &assigned_vars(&body)),
            Some(Toggle::SubFrom(Expr::Const(1)))
        ));
        let xor = "kernel k() { local s := 0; local i := 0; while (i < 8) { s := s ^ 1; i := i + 1; } }";
        let (body, cond) = the_loop(xor);
        assert!(matches!(
            toggle(&body, &cond, "s", &assigned_vars(&body)),
            Some(Toggle::Xor(Expr::Const(1)))
        ));
        // Under an `if`, twice, or not an involution: no toggle.
        for src in [
            "kernel k() { local s := 0; local i := 0; while (i < 8) { if (i < 3) { s := 1 - s; } i := i + 1; } }",
            "kernel k() { local s := 0; local i := 0; while (i < 8) { s := 1 - s; s := 1 - s; i := i + 1; } }",
            "kernel k() { local s := 0; local i := 0; while (i < 8) { s := s - 1; i := i + 1; } }",
        ] {
            let (body, cond) = the_loop(src);
            assert_eq!(toggle(&body, &cond, "s", &assigned_vars(&body)), None, "{src}");
        }
    }

    #[test]
    fn an_update_skipped_only_by_an_exit_flag_is_an_induction_step() {
        let src = "kernel k(n) { local d := 1; local brk := 0;
            while (d < 64 && !brk) { if (d > n) { brk := 1; } if (!brk) { d := d * 2; } } }";
        let (body, cond) = the_loop(src);
        let step = induction_step(&body, &cond, "d", &assigned_vars(&body));
        assert_eq!(step, Some((BinOp::Mul, Expr::Const(2))));
        // Not an exit flag: absent from the guard, or reset to 0 in the body (a `continue` flag).
        for src in [
            "kernel k(n) { local d := 1; local f := 0;
                while (d < 64) { if (d > n) { f := 1; } if (!f) { d := d * 2; } } }",
            "kernel k(n) { local d := 1; local f := 0;
                while (d < 64 && !f) { f := 0; if (d > n) { f := 1; } if (!f) { d := d * 2; } } }",
        ] {
            let (body, cond) = the_loop(src);
            assert_eq!(induction_step(&body, &cond, "d", &assigned_vars(&body)), None, "{src}");
        }
    }
}
