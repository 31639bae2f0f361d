//! Path facts: what the host code has checked whenever a launch runs.
//!
//! A *guard* of a launch is a check on every path to it, in the launch's own function:
//! - an `if` around it (its condition, or the negation in the `else` branch);
//! - a `switch (v)` around it, reached only through `case` labels (no `default`, no fall-through
//!   from a statement that can complete, no label of the switch nested deeper): `v` is one of
//!   the labels' values;
//! - a statement before it in an enclosing `{…}` (not a `switch` body) that completes only when
//!   a condition holds: `if (c) { …; exit(1); }` (then `!c`), `assert(c)` (`c ? (void)0 :
//!   __assert_fail(…)`), an `if` whose branch ends in `return`, `throw`, `break` or `continue`, or
//!   a call of a function that never returns (`exit`, `abort`, a helper of the file whose body
//!   always ends in one); a `do { … } while (0)` (a checking macro) is read through up to its
//!   first `break`/`continue`;
//! - a call, before it, of a helper of the file whose own checks (as above, before any `return`
//!   of the helper) exit the program: they hold on the call's arguments (inlined, bounded);
//! - a `while`/`for` around it: its condition, for variables no definition changes between the
//!   loop's check and the launch ([`Host::settled_in_loop`]);
//! - a `while`/`for` before it with no `break` and no effect in its condition: the condition is
//!   false after it.
//!
//! A condition is read as C over the kernel's arguments and dimensions ([`Rel`]): a variable the
//! launch passes bare as an argument or a dimension whose every definition lies before the guard
//! (and before the dimension reads it: so the launch passes the value the guard checked),
//! constants, values known at the guard, and calls of a helper whose body is `return e;`
//! (inlined, bounded: `is_pow2(n)`); `f(…, n) == 1` for a helper that strips the factors of two
//! of its parameter (`factorRadix2`, [`Host::halves_while_even`]) is `n` a power of two.
//! `a && b` (and `!(a || b)`) is two facts, each used alone; a part that cannot be read is
//! dropped (the rest is still implied). A helper is read inline only when it is the one
//! definition of its name (overloads share a key) and not the launch's own function.
//!
//! Equalities (`v == 512`, `case 512:`) also give values ([`Host::path_value`]): a variable the
//! reaching definitions leave unknown is the guard's value where it is read before the launch in
//! the launch's function, when every definition of it lies before both the guard and the read
//! and the read dominates the launch (so no definition runs between them). The facts are taken
//! only while the launch's own values are computed, and never across a call (a recursive call's
//! variables are another activation's).
//!
//! A function with `goto` has no path facts; a launch inside a lambda takes none from outside it.

use super::{dominates, Body, Host};
use crate::cuda::model::NodeKind;
use crate::launch_facts::Rel;
use std::collections::HashMap;

/// How many helper calls deep conditions and exits are read.
const MAX_INLINE: usize = 3;

/// How deep one condition's expression is read.
const MAX_COND_DEPTH: usize = 24;

/// How many checks of one launch are read (the innermost first), and how many conditions one
/// launch keeps: a host function of thousands of checks before hundreds of launches stays
/// linear, and fewer facts are still sound.
const MAX_GUARDS: usize = 32;
pub(super) const MAX_CONDS: usize = 32;

/// How many statements one launch's path facts may visit inside helpers (their exits and
/// checks): nested helpers of many calls each stay bounded; past it a helper is not read.
pub(super) const HELPER_WORK: usize = 4_000;

/// The C library's functions that never return (recognised by name only where the file does
/// not declare the function itself).
const NORETURN: &[&str] = &[
    "exit",
    "abort",
    "_Exit",
    "quick_exit",
    "__assert_fail",
    "__assert_rtn",
    "__builtin_trap",
    "__builtin_unreachable",
];

/// What leaves the code around a check without reaching what follows it: `return` (in the
/// launch's function; in a helper it returns to the caller, which goes on) and `break`/`continue`
/// (of a loop or `switch` around both the check and the launch).
#[derive(Clone, Copy)]
struct Exits {
    ret: bool,
    jumps: bool,
}

/// One check on every path to a launch (nodes of the launch's body).
#[derive(Debug)]
pub(super) enum Guard {
    /// Condition `cond` is `holds`; `at` is the statement that checks it.
    Cond { at: usize, cond: usize, holds: bool },
    /// The `switch` at `at` on `cond`: its value is one of `values`.
    Cases { at: usize, cond: usize, values: Vec<i64> },
    /// The call statement `at` (call `call`) of a helper that returns only when its checks pass.
    Helper { at: usize, call: usize },
    /// The `while`/`for` loop `at` around the launch (in its body): its condition `cond` held
    /// when the loop last checked it, which is the launch's value of a variable no definition
    /// changes between the check and the launch ([`Host::settled_in_loop`]).
    Loop { at: usize, cond: usize, launch: usize },
    /// The `while`/`for` loop `at` before the launch that leaves only by its condition (no
    /// `break`): `cond` is false after it, for the values from its end on.
    Exit { at: usize, cond: usize },
}

impl Guard {
    fn at(&self) -> usize {
        match self {
            Guard::Cond { at, .. }
            | Guard::Cases { at, .. }
            | Guard::Helper { at, .. }
            | Guard::Loop { at, .. }
            | Guard::Exit { at, .. } => *at,
        }
    }
}

/// The equalities of one launch's guards while its values are computed.
#[derive(Debug)]
pub(super) struct PathCtx {
    /// The launch's body (its address: facts hold in that body alone).
    body: usize,
    launch: usize,
    /// Variable (declaration id), the guard's node, the values the guard allows.
    eqs: Vec<(String, usize, Vec<i64>)>,
    /// The equalities a value was taken from (indices into `eqs`), for the report.
    used: std::cell::RefCell<Vec<usize>>,
}

impl PathCtx {
    /// The equalities the launch's values used: `K == 512` by variable name, and the guard.
    pub(super) fn used(&self, b: &Body) -> Vec<(String, usize)> {
        let mut used = self.used.borrow().clone();
        used.sort_unstable();
        used.dedup();
        used.iter()
            .filter_map(|i| {
                let (id, at, vals) = self.eqs.get(*i)?;
                let name = match b.vars.get(id.as_str()).map(|v| b.kind(*v)) {
                    Some(NodeKind::Var { name, .. }) => name.clone(),
                    _ => b.f?.params.iter().find(|p| p.id == *id)?.name.clone(),
                };
                let vals: Vec<String> = vals.iter().map(i64::to_string).collect();
                Some((format!("{name} == {}", vals.join(" or ")), *at))
            })
            .collect()
    }
}

/// Where a condition is read.
enum Scope<'e> {
    /// In the launch's body: a variable passed bare (argument nodes) whose definitions all lie
    /// before `anchor` is that parameter; one passed bare as a dimension (`dims`: variable,
    /// part, axis, where the dimension reads it) whose definitions all lie before `anchor` and
    /// that read is that dimension. In the condition of a loop around the launch (`within`:
    /// the loop and the launch), a variable is settled when no definition runs between the
    /// loop's check and the launch, and a dimension must read it in the loop's body.
    Launch {
        args: &'e [usize],
        anchor: usize,
        dims: &'e [(String, usize, usize, usize)],
        within: Option<(usize, usize)>,
    },
    /// In a helper's body: its by-value parameters never assigned are the call's arguments.
    Helper { sub: HashMap<String, Rel> },
}

/// A body's identity (its address): path facts belong to the launch's body alone.
pub(super) fn addr(b: &Body) -> usize {
    b as *const Body as *const u8 as usize
}

impl Host<'_, '_> {
    /// The guards of launch node `launch` of `b`, innermost first.
    pub(super) fn guards(&self, b: &Body, launch: usize) -> Vec<Guard> {
        let mut out = Vec::new();
        if b.has_goto {
            return out;
        }
        let mut child = launch;
        for a in b.ancestors(launch) {
            match b.kind(a) {
                NodeKind::If { has_else, .. } => {
                    let kids = b.children(a);
                    if kids.len() == 2 + usize::from(*has_else) {
                        if kids[1] == child {
                            out.push(Guard::Cond { at: a, cond: kids[0], holds: true });
                        } else if kids.get(2) == Some(&child) {
                            out.push(Guard::Cond { at: a, cond: kids[0], holds: false });
                        }
                    }
                }
                NodeKind::Switch => {
                    if let Some(g) = self.switch_guard(b, a, launch) {
                        out.push(g);
                    }
                }
                // The body of a `while`/`for` runs only after its condition held (a `do` body
                // runs once unchecked); a `case` label inside it would enter it unchecked.
                NodeKind::While | NodeKind::For => {
                    let kids = b.children(a);
                    let cond = match (b.kind(a), kids.len()) {
                        (NodeKind::While, 2) => Some(kids[0]),
                        (NodeKind::For, 4) => Some(kids[1]),
                        _ => None,
                    };
                    let in_body = kids.last() == Some(&child);
                    if let Some(cond) = cond.filter(|c| in_body && !matches!(b.kind(*c), NodeKind::Empty)) {
                        if !foreign_label(b, a, launch, &[]) {
                            out.push(Guard::Loop { at: a, cond, launch });
                        }
                    }
                }
                NodeKind::Compound => {
                    let in_switch = b.parent[a].is_some_and(|p| matches!(b.kind(p), NodeKind::Switch));
                    if !in_switch && !foreign_label(b, a, launch, &[]) {
                        for s in b.children(a) {
                            if s == child || out.len() >= MAX_GUARDS {
                                break;
                            }
                            self.after(b, s, Exits { ret: true, jumps: true }, &mut out, 0);
                        }
                    }
                }
                NodeKind::Other { kind } if kind == "LambdaExpr" && !b.invoked_here(a) => break,
                _ => {}
            }
            child = a;
        }
        out.truncate(MAX_GUARDS);
        out
    }

    /// The guard of `switch` node `sw` around `launch`: the case labels through which alone the
    /// launch is reached.
    fn switch_guard(&self, b: &Body, sw: usize, launch: usize) -> Option<Guard> {
        let [cond, body] = b.children(sw)[..] else { return None };
        let (siblings, top) = match b.kind(body) {
            NodeKind::Compound => {
                let kids = b.children(body);
                let top = kids.iter().position(|c| b.inside(launch, *c))?;
                (kids, top)
            }
            _ => (vec![body], 0),
        };
        // The statement holding the labels: the launch's own, or the nearest labelled one before.
        let mut labelled = top;
        while !matches!(b.kind(siblings[labelled]), NodeKind::Case | NodeKind::Default) {
            labelled = labelled.checked_sub(1)?;
        }
        let mut values = Vec::new();
        let mut chain = Vec::new();
        let mut n = siblings[labelled];
        while matches!(b.kind(n), NodeKind::Case | NodeKind::Default) {
            let [value, stmt] = b.children(n)[..] else { return None };
            if matches!(b.kind(n), NodeKind::Default) {
                return None;
            }
            values.push(self.int(b, value, 0)?);
            chain.push(n);
            n = stmt;
        }
        if !b.inside(launch, n) && labelled == top {
            return None;
        }
        // No fall-through into the labels from a statement that can complete.
        if let Some(prev) = labelled.checked_sub(1) {
            if !self.exits(b, siblings[prev], Exits { ret: true, jumps: true }, 0) {
                return None;
            }
        }
        if foreign_label(b, siblings[labelled], launch, &chain) {
            return None;
        }
        Some(Guard::Cases { at: sw, cond, values })
    }

    /// The guards a statement `s` gives what follows it when it completes.
    fn after(&self, b: &Body, s: usize, m: Exits, out: &mut Vec<Guard>, depth: usize) {
        let e = strip_stmt(b, s);
        match b.kind(e) {
            NodeKind::If { has_else, .. } => {
                let kids = b.children(e);
                if kids.len() != 2 + usize::from(*has_else) {
                    return;
                }
                let then = self.exits(b, kids[1], m, 0);
                let els = kids.get(2).is_some_and(|x| self.exits(b, *x, m, 0));
                if then != els {
                    out.push(Guard::Cond { at: s, cond: kids[0], holds: els });
                }
            }
            NodeKind::Conditional => {
                let [c, x, y] = b.children(e)[..] else { return };
                let (nx, ny) = (self.noreturn(b, x, 0), self.noreturn(b, y, 0));
                if nx != ny {
                    out.push(Guard::Cond { at: s, cond: c, holds: ny });
                }
            }
            NodeKind::Do if depth < MAX_INLINE => {
                let [body, cond] = b.children(e)[..] else { return };
                if self.int(b, cond, 0) != Some(0) || !matches!(b.kind(body), NodeKind::Compound) {
                    return;
                }
                // `do { … } while (0)` runs once; a `break`/`continue` in it goes on after it.
                for c in b.children(body) {
                    if contains(b, c, |k| matches!(k, NodeKind::Break | NodeKind::Continue)) {
                        break;
                    }
                    self.after(b, c, Exits { ret: m.ret, jumps: false }, out, depth + 1);
                }
            }
            NodeKind::Call { .. } if self.helper(b, e).is_some() => {
                out.push(Guard::Helper { at: s, call: e })
            }
            // A loop that leaves only when its condition fails (no `break` in it: one of a
            // nested loop or `switch` is counted too; `return`, `exit`, `throw` do not reach
            // what follows): after it the condition is false. Not when checking it changes a
            // variable (`while (n-- > 0)`: the value after differs from the one checked).
            NodeKind::While | NodeKind::For => {
                let kids = b.children(e);
                let cond = match (b.kind(e), kids.len()) {
                    (NodeKind::While, 2) => kids[0],
                    (NodeKind::For, 4) => kids[1],
                    _ => return,
                };
                let effect = |k: &NodeKind| match k {
                    NodeKind::CompoundAssign { .. }
                    | NodeKind::Call { .. }
                    | NodeKind::MemberCall { .. }
                    | NodeKind::OperatorCall { .. } => true,
                    NodeKind::Binary { op } => op == "=",
                    NodeKind::Unary { op, .. } => op == "++" || op == "--",
                    _ => false,
                };
                if !matches!(b.kind(cond), NodeKind::Empty)
                    && !contains(b, e, |k| matches!(k, NodeKind::Break))
                    && !contains(b, cond, effect)
                {
                    out.push(Guard::Exit { at: s, cond });
                }
            }
            _ => {}
        }
    }

    /// Whether statement `s` never completes normally under `m` (it exits the program, or leaves
    /// by a way `m` counts).
    fn exits(&self, b: &Body, s: usize, m: Exits, depth: usize) -> bool {
        let e = strip_stmt(b, s);
        match b.kind(e) {
            NodeKind::Return => m.ret,
            NodeKind::Break | NodeKind::Continue => m.jumps,
            NodeKind::Compound => {
                for c in b.children(e) {
                    if !self.spend() {
                        return false;
                    }
                    if self.exits(b, c, m, depth) {
                        return true;
                    }
                    // A way out before the exit that `m` does not count: the rest may be skipped.
                    let out = |k: &NodeKind| {
                        (!m.ret && matches!(k, NodeKind::Return))
                            || (!m.jumps && matches!(k, NodeKind::Break | NodeKind::Continue))
                    };
                    if contains(b, c, out) {
                        return false;
                    }
                }
                false
            }
            NodeKind::If { has_else: true, .. } => {
                let kids = b.children(e);
                kids.len() == 3 && self.exits(b, kids[1], m, depth) && self.exits(b, kids[2], m, depth)
            }
            NodeKind::Case | NodeKind::Default | NodeKind::Label { .. } => {
                b.children(e).last().is_some_and(|c| self.exits(b, *c, m, depth))
            }
            _ => self.noreturn(b, e, depth),
        }
    }

    /// Whether expression `e` never returns: a `throw`, a call of a function that never returns,
    /// or `c ? x : y` with both never returning.
    fn noreturn(&self, b: &Body, e: usize, depth: usize) -> bool {
        let e = strip_stmt(b, e);
        match b.kind(e) {
            NodeKind::Other { kind } if kind == "CXXThrowExpr" => true,
            NodeKind::Conditional => {
                let kids = b.children(e);
                kids.len() == 3 && self.noreturn(b, kids[1], depth) && self.noreturn(b, kids[2], depth)
            }
            NodeKind::Call { callee } => {
                if let Some(h) = self.helper(b, e) {
                    let root = 0;
                    return depth < MAX_INLINE
                        && self.exits(h, root, Exits { ret: false, jumps: false }, depth + 1);
                }
                // By name only for the C library's functions: a function the file declares
                // itself (an `exit` of its own without a body here) may return.
                let declared = b.child(e, 0).and_then(|c| b.function_ref(c)).is_some_and(|r| {
                    matches!(b.kind(r), NodeKind::DeclRef { decl_id, .. } if self.keys.contains_key(decl_id.as_str()))
                });
                !declared && callee.as_deref().is_some_and(|n| NORETURN.contains(&n))
            }
            _ => false,
        }
    }

    /// One unit of [`HELPER_WORK`]: whether any was left.
    fn spend(&self) -> bool {
        let left = self.helper_work.get();
        self.helper_work.set(left.saturating_sub(1));
        left > 0
    }

    /// The body of a helper whose checks are read inline, unless it is the launch's own function
    /// (a recursive call: the launch's path equalities are not that activation's).
    fn inlined(&self, b: &Body, call: usize) -> Option<&Body<'_>> {
        let h = self.helper(b, call)?;
        let own = self.path.borrow().as_ref().is_some_and(|c| c.body == addr(h));
        (!own).then_some(h)
    }

    /// The body of the file's host function that call `call` of `b` calls (not a kernel).
    fn helper(&self, b: &Body, call: usize) -> Option<&Body<'_>> {
        let r = b.function_ref(b.child(call, 0)?)?;
        let NodeKind::DeclRef { decl_id, .. } = b.kind(r) else { return None };
        let (k, kernel) = self.keys.get(decl_id.as_str())?;
        if *kernel {
            return None;
        }
        // Overloads share a key: only a function with one definition is known to be the callee.
        match self.by_key.get(k)?.as_slice() {
            [one] => self.bodies.get(*one),
            _ => None,
        }
    }

    /// The path context of launch `launch` of `b` (its guards' equalities).
    pub(super) fn path_ctx(&self, b: &Body, launch: usize, guards: &[Guard]) -> PathCtx {
        let mut eqs = Vec::new();
        for g in guards {
            match g {
                Guard::Cond { at, cond, holds } => {
                    for (piece, h) in split(b, *cond, *holds) {
                        if let Some((v, vals)) = self.eq_set(b, piece, h, 0) {
                            eqs.push((v, *at, vals));
                        }
                    }
                }
                Guard::Cases { at, cond, values } => {
                    if let NodeKind::DeclRef { decl_id, .. } = b.kind(b.strip_int(*cond)) {
                        eqs.push((decl_id.clone(), *at, values.clone()));
                    }
                }
                Guard::Helper { .. } | Guard::Loop { .. } | Guard::Exit { .. } => {}
            }
        }
        PathCtx { body: addr(b), launch, eqs, used: Default::default() }
    }

    /// `v == c` (holding) or `v != c` (not holding), and `||` of such on one variable: the
    /// variable and its values.
    fn eq_set(&self, b: &Body, n: usize, holds: bool, depth: usize) -> Option<(String, Vec<i64>)> {
        if depth > MAX_COND_DEPTH {
            return None;
        }
        let s = b.strip(n);
        match (b.kind(s), holds) {
            (NodeKind::Binary { op }, true) if op == "||" => {
                let (v, mut a) = self.eq_set(b, b.child(s, 0)?, true, depth + 1)?;
                let (w, c) = self.eq_set(b, b.child(s, 1)?, true, depth + 1)?;
                (v == w).then(|| {
                    a.extend(c);
                    (v, a)
                })
            }
            (NodeKind::Binary { op }, _) if (op == "==" && holds) || (op == "!=" && !holds) => {
                let (l, r) = (b.child(s, 0)?, b.child(s, 1)?);
                let var = |x: usize| match b.kind(b.strip_int(x)) {
                    NodeKind::DeclRef { decl_id, decl_kind, .. }
                        if matches!(decl_kind.as_str(), "VarDecl" | "ParmVarDecl") =>
                    {
                        Some(decl_id.clone())
                    }
                    _ => None,
                };
                match (var(l), var(r)) {
                    (Some(v), _) if self.int(b, r, 0).is_some() => Some((v, vec![self.int(b, r, 0)?])),
                    (_, Some(v)) => Some((v, vec![self.int(b, l, 0)?])),
                    _ => None,
                }
            }
            (NodeKind::Unary { op, .. }, _) if op == "!" => self.eq_set(b, b.child(s, 0)?, !holds, depth + 1),
            _ => None,
        }
    }

    /// The value variable `id` of `b` (definitions `defs`) has at read `at`, by the current
    /// launch's path equalities (the module comment's rule).
    pub(super) fn path_value(&self, b: &Body, id: &str, defs: &[super::Def], at: usize) -> Option<i64> {
        let ctx = self.path.borrow();
        let ctx = ctx.as_ref().filter(|c| c.body == addr(b))?;
        if !(b.inside(at, ctx.launch) || dominates(b, Some(at), ctx.launch)) {
            return None;
        }
        let mut set: Option<Vec<i64>> = None;
        let mut from = Vec::new();
        for (i, (v, g, vals)) in ctx.eqs.iter().enumerate() {
            let settled = defs.iter().all(|d| d.at.is_none_or(|x| b.end[x] <= *g && b.end[x] <= at));
            if v == id && settled {
                from.push(i);
                set = Some(match set {
                    None => vals.clone(),
                    Some(s) => s.into_iter().filter(|x| vals.contains(x)).collect(),
                });
            }
        }
        match set.as_deref() {
            Some([one]) => {
                ctx.used.borrow_mut().extend(from);
                Some(*one)
            }
            _ => None,
        }
    }

    /// The conditions over the launch's arguments (`args`) that its guards ensure.
    pub(super) fn guard_rels(
        &self,
        b: &Body,
        guards: &[Guard],
        args: &[usize],
        dims: &[(String, usize, usize, usize)],
    ) -> Vec<(Rel, usize)> {
        let mut out = Vec::new();
        for g in guards {
            let scope = Scope::Launch { args, anchor: g.at(), dims, within: None };
            match g {
                Guard::Cond { at, cond, holds } => {
                    out.extend(self.cond_rels(b, *cond, *holds, &scope).into_iter().map(|r| (r, *at)));
                }
                Guard::Loop { at, cond, launch } => {
                    let scope = Scope::Launch { args, anchor: *at, dims, within: Some((*at, *launch)) };
                    out.extend(self.cond_rels(b, *cond, true, &scope).into_iter().map(|r| (r, *at)));
                }
                Guard::Exit { at, cond } => {
                    // Every definition before the loop's end: the values it exits with stay.
                    let scope = Scope::Launch { args, anchor: b.end[*at], dims, within: None };
                    out.extend(self.cond_rels(b, *cond, false, &scope).into_iter().map(|r| (r, *at)));
                }
                Guard::Cases { at, cond, values } => {
                    let Some(v) = self.to_rel(b, *cond, &scope, 0) else { continue };
                    let eq = |x: &i64| Rel::Bin("==", Box::new(v.clone()), Box::new(Rel::Const(*x)));
                    if let Some(any) =
                        values.iter().map(eq).reduce(|a, c| Rel::Bin("||", Box::new(a), Box::new(c)))
                    {
                        out.push((any, *at));
                    }
                }
                Guard::Helper { at, call } => {
                    out.extend(self.helper_rels(b, *call, &scope, 0).into_iter().map(|r| (r, *at)));
                }
            }
        }
        out.retain(|(r, _)| r.has_atom());
        out.truncate(MAX_CONDS);
        out
    }

    /// Condition `cond` of `b` being `holds`, as facts (one per conjunct that can be read).
    fn cond_rels(&self, b: &Body, cond: usize, holds: bool, scope: &Scope) -> Vec<Rel> {
        split(b, cond, holds)
            .into_iter()
            .filter_map(|(n, h)| {
                if let Some(r) = self.power_of_two_result(b, n, h, scope) {
                    return Some(r);
                }
                let r = self.to_rel(b, n, scope, 0)?;
                Some(if h { r.truth() } else { r.negated() }.folded())
            })
            .flat_map(Rel::conjuncts)
            .collect()
    }

    /// `f(…, x, …) == 1` holding (or `!= 1` failing) for a helper `f` that returns 1 only when
    /// its parameter is a power of two ([`Self::halves_while_even`]): `x != 0 && (x & (x - 1))
    /// == 0`. Also through a local whose one definition is its initializer, that call
    /// (`unsigned rem = factorRadix2(log2L, L); assert(rem == 1);`), when the argument's every
    /// definition lies before the call (the launch passes the value the helper saw). The
    /// helper's other results say nothing: only this direction is a fact.
    fn power_of_two_result(&self, b: &Body, n: usize, holds: bool, scope: &Scope) -> Option<Rel> {
        let s = b.strip(n);
        match b.kind(s) {
            NodeKind::Binary { op } if (op == "==" && holds) || (op == "!=" && !holds) => {}
            _ => return None,
        }
        let (l, r) = (b.child(s, 0)?, b.child(s, 1)?);
        let side = if self.int(b, r, 0) == Some(1) {
            l
        } else if self.int(b, l, 0) == Some(1) {
            r
        } else {
            return None;
        };
        let side = b.strip_int(side);
        let (call, at_call) = match b.kind(side) {
            NodeKind::Call { .. } => (side, None),
            NodeKind::DeclRef { decl_id, .. } if b.vars.contains_key(decl_id.as_str()) => {
                let Some((super::VarKind::Int, defs)) = self.definitions(b, decl_id, None) else {
                    return None;
                };
                let [super::Def { at: Some(at), what: super::DefValue::Expr(e) }] = defs[..] else {
                    return None;
                };
                let call = b.strip_int(e);
                (matches!(b.kind(call), NodeKind::Call { .. }) && at < n).then_some((call, Some(call)))?
            }
            _ => return None,
        };
        let h = self.inlined(b, call)?;
        let p = self.halves_while_even(h)?;
        let arg = b.child(call, p + 1)?;
        let x = match (scope, at_call) {
            (_, None) => self.to_rel(b, arg, scope, 1)?,
            (Scope::Launch { args, dims, within: None, .. }, Some(call)) => {
                let scope = Scope::Launch { args, anchor: call, dims, within: None };
                self.to_rel(b, arg, &scope, 1)?
            }
            _ => return None,
        };
        let bin = |op, a: Rel, c: Rel| Rel::Bin(op, Box::new(a), Box::new(c));
        let low = bin("&", x.clone(), bin("-", x.clone(), Rel::Const(1)));
        Some(bin("&&", bin("!=", x, Rel::Const(0)), bin("==", low, Rel::Const(0))))
    }

    /// The parameter of helper `h` (its index) such that `h` returns 1 only when that
    /// parameter's value on entry is a power of two, like `factorRadix2(log2L, L)` of the SDK
    /// samples, which strips L's factors of two. The parameter `x` (a by-value 32-bit integer)
    /// changes only by one halving (`x >>= 1`, `x /= 2`, `x = x >> 1`, `x = x / 2`) that runs
    /// only while `x` is even: the increment of a `for` (alone or in a comma list), or a
    /// statement of a `while` body (nothing else changes `x` between the check and it), whose
    /// condition is `(x & 1) == 0`, `!(x & 1)` or `x % 2 == 0`; and every `return` gives `x`
    /// (in a type of at least 32 bits) or a constant other than 1. Then a returned `x` is `x0 /
    /// 2^j` with `x0` divisible by `2^j`, so 1 means `x0 == 2^j`. Bounded: one pass over the
    /// helper's nodes.
    fn halves_while_even(&self, h: &Body) -> Option<usize> {
        let f = h.f?;
        if h.has_goto {
            return None;
        }
        let wide = |t: &str| {
            self.int_range(t)
                .is_some_and(|(lo, hi)| lo <= i64::from(i32::MIN) || (lo == 0 && hi >= i64::from(u32::MAX)))
        };
        let is_x = |n: usize, id: &str| matches!(h.kind(h.strip_int(n)), NodeKind::DeclRef { decl_id, .. } if decl_id == id);
        f.params.iter().enumerate().find_map(|(i, p)| {
            let (lo, hi) = self.int_range(super::param_type(p))?;
            if !((lo, hi) == (i32::MIN.into(), i32::MAX.into()) || (lo, hi) == (0, u32::MAX.into())) {
                return None;
            }
            let Some((super::VarKind::Int, defs)) = self.definitions(h, &p.id, None) else { return None };
            let [halving] = defs.iter().filter_map(|d| d.at).collect::<Vec<_>>()[..] else { return None };
            // The one definition halves x.
            let halves = match h.kind(halving) {
                NodeKind::CompoundAssign { op } => {
                    let rhs = h.child(halving, 1)?;
                    (op == ">>=" && self.int(h, rhs, 0) == Some(1)) || (op == "/=" && self.int(h, rhs, 0) == Some(2))
                }
                NodeKind::Binary { op } if op == "=" => {
                    let rhs = h.strip_int(h.child(halving, 1)?);
                    match h.kind(rhs) {
                        NodeKind::Binary { op } if op == ">>" || op == "/" => {
                            let by = if op == ">>" { 1 } else { 2 };
                            is_x(h.child(rhs, 0)?, &p.id) && self.int(h, h.child(rhs, 1)?, 0) == Some(by)
                        }
                        _ => false,
                    }
                }
                _ => false,
            };
            if !halves {
                return None;
            }
            // It runs once per iteration of the nearest loop, right after that loop checked
            // that x is even.
            let l = h.ancestors(halving).find(|a| h.is_loop(*a))?;
            let kids = h.children(l);
            let cond = match (h.kind(l), kids.as_slice()) {
                (NodeKind::For, &[_, cond, inc, _]) => {
                    let mut up = halving;
                    while up != inc {
                        up = h.parent[up]?;
                        if !matches!(h.kind(up), NodeKind::Binary { op } if op == ",") {
                            return None;
                        }
                    }
                    cond
                }
                (NodeKind::While, &[cond, body]) => {
                    let direct = h.parent[halving] == Some(body) || halving == body;
                    direct.then_some(cond)?
                }
                _ => return None,
            };
            let c = h.strip_int(cond);
            let low_bit = |n: usize| {
                let n = h.strip_int(n);
                match h.kind(n) {
                    NodeKind::Binary { op } if op == "&" => {
                        let (a, b) = (h.child(n, 0), h.child(n, 1));
                        matches!((a, b), (Some(a), Some(b)) if (is_x(a, &p.id) && self.int(h, b, 0) == Some(1))
                            || (is_x(b, &p.id) && self.int(h, a, 0) == Some(1)))
                    }
                    NodeKind::Binary { op } if op == "%" => {
                        matches!((h.child(n, 0), h.child(n, 1)), (Some(a), Some(b)) if is_x(a, &p.id) && self.int(h, b, 0) == Some(2))
                    }
                    _ => false,
                }
            };
            let even = match h.kind(c) {
                NodeKind::Unary { op, postfix: false } if op == "!" => {
                    h.child(c, 0).is_some_and(low_bit)
                }
                NodeKind::Binary { op } if op == "==" => match (h.child(c, 0), h.child(c, 1)) {
                    (Some(a), Some(b)) => {
                        (low_bit(a) && self.int(h, b, 0) == Some(0)) || (low_bit(b) && self.int(h, a, 0) == Some(0))
                    }
                    _ => false,
                },
                _ => false,
            };
            if !even {
                return None;
            }
            // Every return gives x or a constant other than 1.
            let returns_ok = (0..h.nodes.len()).filter(|n| matches!(h.kind(*n), NodeKind::Return)).all(|r| {
                h.child(r, 0).is_some_and(|e| {
                    (is_x(e, &p.id) && wide(h.ty(e))) || self.int(h, e, 0).is_some_and(|v| v != 1)
                })
            });
            returns_ok.then_some(i)
        })
    }

    /// What a call of a helper that returns only when its checks pass ensures about its
    /// arguments (read in `scope`).
    fn helper_rels(&self, b: &Body, call: usize, scope: &Scope, depth: usize) -> Vec<Rel> {
        let Some(h) = self.inlined(b, call).filter(|_| depth < MAX_INLINE) else { return Vec::new() };
        let Some(sub) = self.arguments(b, call, h, scope, depth) else { return Vec::new() };
        let inner = Scope::Helper { sub };
        let mut out = Vec::new();
        let Some(root) = h.nodes.first().map(|_| 0) else { return out };
        for c in h.children(root) {
            if !self.spend() {
                break;
            }
            // A `return` before a check: the helper may return without it.
            if contains(h, c, |k| matches!(k, NodeKind::Return)) {
                break;
            }
            let mut gs = Vec::new();
            self.after(h, c, Exits { ret: false, jumps: false }, &mut gs, 0);
            for g in gs {
                match g {
                    Guard::Cond { cond, holds, .. } => out.extend(self.cond_rels(h, cond, holds, &inner)),
                    // The helper's parameters read here are never assigned: their values stay.
                    Guard::Exit { cond, .. } => out.extend(self.cond_rels(h, cond, false, &inner)),
                    Guard::Helper { call, .. } => out.extend(self.helper_rels(h, call, &inner, depth + 1)),
                    Guard::Cases { .. } | Guard::Loop { .. } => {}
                }
            }
        }
        out
    }

    /// The parameters of helper `h` as relations of call `call`'s arguments (`None` when a
    /// by-value integer parameter's argument cannot be read: the parameter is then unknown).
    fn arguments(
        &self,
        b: &Body,
        call: usize,
        h: &Body,
        scope: &Scope,
        depth: usize,
    ) -> Option<HashMap<String, Rel>> {
        let f = h.f?;
        let mut sub = HashMap::new();
        for (i, p) in f.params.iter().enumerate() {
            let a = b.child(call, i + 1)?;
            // A parameter the helper assigns is not its argument where it is checked.
            let only_entry = matches!(self.definitions(h, &p.id, None), Some((super::VarKind::Int, d)) if d.iter().all(|d| d.at.is_none()));
            if only_entry {
                if let Some(r) = self.to_rel(b, a, scope, depth + 1) {
                    sub.insert(p.id.clone(), r);
                }
            }
        }
        Some(sub)
    }

    /// Node `n` of `b` as a [`Rel`] in `scope`.
    fn to_rel(&self, b: &Body, n: usize, scope: &Scope, depth: usize) -> Option<Rel> {
        if depth > MAX_COND_DEPTH {
            return None;
        }
        let s = b.strip_int(n);
        let d = depth + 1;
        match b.kind(s) {
            NodeKind::ImplicitCast { cast } if cast == "IntegralToBoolean" => {
                Some(self.to_rel(b, b.child(s, 0)?, scope, d)?.truth())
            }
            NodeKind::ImplicitCast { cast } if cast == "IntegralCast" => {
                self.to_rel(b, b.child(s, 0)?, scope, d)
            }
            NodeKind::DeclRef { decl_id, .. } => {
                let param = match scope {
                    Scope::Launch { args, anchor, dims, within } => {
                        let bare = |a: &usize| self.passes(b, *a, decl_id);
                        let settled = match within {
                            None => self.settled_before(b, decl_id, *anchor),
                            Some((l, launch)) => self.settled_in_loop(b, decl_id, *l, *launch),
                        };
                        // Where a dimension reads the value the check saw: after every
                        // definition, or in the loop's body (no definition between its check
                        // and the launch).
                        let reads_checked = |at: usize| match within {
                            None => self.settled_before(b, decl_id, at),
                            Some((l, launch)) => {
                                b.children(*l).last().is_some_and(|body| b.inside(at, *body))
                                    && at < b.end[*launch]
                            }
                        };
                        let dim = || {
                            let mut read = dims.iter().filter(|(v, ..)| v == decl_id);
                            let (_, p, d, _) = read.find(|(.., at)| reads_checked(*at))?;
                            Some(Rel::Dim(*p, *d))
                        };
                        args.iter().position(bare).map(Rel::Param).or_else(dim).filter(|_| settled)
                    }
                    Scope::Helper { sub } => sub.get(decl_id.as_str()).cloned(),
                };
                param
                    .or_else(|| self.int(b, s, 0).map(Rel::Const))
                    .or_else(|| self.defined_rel(b, decl_id, scope, d))
            }
            NodeKind::Binary { op } => {
                let op: &'static str = match op.as_str() {
                    "+" => "+",
                    "-" => "-",
                    "*" => "*",
                    "/" => "/",
                    "%" => "%",
                    "<<" => "<<",
                    ">>" => ">>",
                    "&" => "&",
                    "|" => "|",
                    "^" => "^",
                    "==" => "==",
                    "!=" => "!=",
                    "<" => "<",
                    "<=" => "<=",
                    ">" => ">",
                    ">=" => ">=",
                    "&&" => "&&",
                    "||" => "||",
                    _ => return self.int(b, s, 0).map(Rel::Const),
                };
                let l = self.to_rel(b, b.child(s, 0)?, scope, d)?;
                let r = self.to_rel(b, b.child(s, 1)?, scope, d)?;
                match (&l, &r) {
                    (Rel::Const(x), Rel::Const(y)) => super::binary(op, *x, *y).map(Rel::Const),
                    // `n + 0` (a helper called with an offset of 0) reads as `n`.
                    (_, Rel::Const(0)) if matches!(op, "+" | "-") => Some(l),
                    _ => Some(Rel::Bin(op, Box::new(l), Box::new(r))),
                }
            }
            NodeKind::Unary { op, postfix: false } if op == "!" => {
                Some(Rel::Not(Box::new(self.to_rel(b, b.child(s, 0)?, scope, d)?)))
            }
            NodeKind::Unary { op, postfix: false } if op == "-" => {
                let a = self.to_rel(b, b.child(s, 0)?, scope, d)?;
                Some(Rel::Bin("-", Box::new(Rel::Const(0)), Box::new(a)))
            }
            NodeKind::Call { .. } => {
                self.inline_return(b, s, scope, d).or_else(|| self.int(b, s, 0).map(Rel::Const))
            }
            _ => self.int(b, s, 0).map(Rel::Const),
        }
    }

    /// A local of the launch's function defined once, by its declaration, as its initializer
    /// over the launch's arguments (`const int chunks = (cols + 31) / 32;` checked by `if
    /// (chunks <= 1)` before a launch passing `cols`): each variable the initializer reads must
    /// have its every definition before the declaration, so the value it had there is the one
    /// the launch passes.
    fn defined_rel(&self, b: &Body, id: &str, scope: &Scope, depth: usize) -> Option<Rel> {
        let Scope::Launch { args, anchor, dims, within: None } = scope else { return None };
        let (init, decl) = self.only_init(b, id)?;
        if decl >= *anchor || b.in_lambda(decl) {
            return None;
        }
        let at_decl = Scope::Launch { args, anchor: decl, dims, within: None };
        self.to_rel(b, init, &at_decl, depth + 1)
    }

    /// A call of a helper whose body is `{ return e; }` as `e` over the call's arguments.
    fn inline_return(&self, b: &Body, call: usize, scope: &Scope, depth: usize) -> Option<Rel> {
        let h = self.inlined(b, call)?;
        let [ret] = h.children(0)[..] else { return None };
        if !matches!(h.kind(ret), NodeKind::Return) || depth / 4 >= MAX_INLINE {
            return None;
        }
        let e = h.child(ret, 0)?;
        let sub = self.arguments(b, call, h, scope, depth)?;
        if sub.len() != h.f?.params.len() {
            return None;
        }
        self.to_rel(h, e, &Scope::Helper { sub }, depth + 4)
    }
}

/// Through expression wrappers that keep a statement's meaning (`(void)`, cleanups, parens).
fn strip_stmt(b: &Body, mut i: usize) -> usize {
    loop {
        let next = match b.kind(i) {
            NodeKind::Paren => b.child(i, 0),
            NodeKind::CStyleCast { .. } | NodeKind::ImplicitCast { .. } if b.ty(i) == "void" => b.child(i, 0),
            NodeKind::Other { kind } if kind == "ExprWithCleanups" => b.child(i, 0),
            _ => None,
        };
        match next {
            Some(n) => i = n,
            None => return i,
        }
    }
}

/// `a && b` holding (or `a || b` not holding, or `!x`) as its parts, each with whether it holds.
fn split(b: &Body, n: usize, holds: bool) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![(n, holds)];
    while let Some((n, h)) = stack.pop() {
        let s = b.strip(n);
        match b.kind(s) {
            NodeKind::Binary { op } if (op == "&&" && h) || (op == "||" && !h) => {
                if let [l, r] = b.children(s)[..] {
                    stack.push((r, h));
                    stack.push((l, h));
                    continue;
                }
                out.push((s, h));
            }
            NodeKind::Unary { op, postfix: false } if op == "!" => match b.child(s, 0) {
                Some(c) => stack.push((c, !h)),
                None => out.push((s, h)),
            },
            NodeKind::ImplicitCast { cast } if cast == "IntegralToBoolean" => out.push((s, h)),
            _ => out.push((s, h)),
        }
    }
    out
}

/// Whether a node of the subtree of `i` has a kind `pred` accepts.
fn contains(b: &Body, i: usize, pred: impl Fn(&NodeKind) -> bool) -> bool {
    (i..b.end[i]).any(|n| pred(b.kind(n)))
}

/// Whether a `case`/`default` label between `from` and `to` (not one of `chain`) belongs to a
/// `switch` around `from`: a jump into the code between them that skips its checks.
fn foreign_label(b: &Body, from: usize, to: usize, chain: &[usize]) -> bool {
    (from..to).any(|n| {
        matches!(b.kind(n), NodeKind::Case | NodeKind::Default)
            && !chain.contains(&n)
            && b.ancestors(n).find(|a| matches!(b.kind(*a), NodeKind::Switch)).is_some_and(|sw| sw < from)
    })
}
