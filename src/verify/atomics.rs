//! Atomic counters: what the values returned by `atomicAdd`/`atomicSub`/`atomicInc` are known to
//! satisfy (docs/semantics.md, "Atomic results").
//!
//! An array element that the kernel changes only by atomic additions of constant steps of one
//! sign (`atomicAdd(&count, 1)`, `atomicSub(&left, 2)`, `atomicInc(&c, 0xffffffff)`) moves
//! monotonically during a launch, so every atomic on it returns a different old value — as long
//! as the sum of the steps stays below 2^32 in magnitude (the bounded-size assumption that
//! `--wrap` lifts). Two threads whose atomics hit the same element of such a *counter* array get
//! different results; that is the only fact the oracle adds ([`distinct_results`]): the worklist
//! push `pos = atomicAdd(&n, 1); out[pos] = v;` is then race-free.
//!
//! A counter may also be advanced by `atomicAdd` of a variable amount (the worklist push of a
//! vertex's neighbours, `base = atomicAdd(&n, deg); for (j < deg) out[base + j] = …`) when the
//! oracle proves every such amount non-negative in every thread ([`unproven_steps`]: a guard
//! like `if (deg > 0)` does it; an amount read from memory alone does not). Of an up-counting
//! counter the oracle then knows more than distinct results: the two threads' slot ranges
//! `[r, r + amount)` do not overlap (the earlier atomic's range ends where the later one may
//! start at the earliest).
//!
//! Plain writes to a counter could reset it between two atomics (two equal results). A global
//! array with a plain write is never a counter. A shared one may be written (reset, usually by
//! one thread) when every such write is in a statement of the kernel's body that precedes a
//! top-level barrier, and every atomic on it follows that barrier: under SDV all writes then
//! happen before all atomics (a divergent barrier is reported on its own). A global array with an
//! atomic of block scope (`atomicAdd_block`) is never a counter: another block's atomics may
//! interleave with its read and write.

use crate::kpl::{AtomicOp, AtomicScope, Block, Expr, Kernel, Space, Stmt, StmtKind};
use crate::verify::budget::Limits;
use crate::verify::symbolic::{AccessSym, ThreadTrace, W};
use crate::verify::OracleStats;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Bool, BV};
use z3::{SatResult, Solver};

/// The direction of an atomic that moves a counter by a constant nonzero step (`true`: up).
fn direction(op: AtomicOp, value: &Expr) -> Option<bool> {
    // A variable amount counts up if it is never negative, which the oracle must prove
    // (`unproven_steps`); the counter is dropped otherwise.
    let Expr::Const(c) = value else { return (op == AtomicOp::Add).then_some(true) };
    let signed = *c as i32;
    match op {
        AtomicOp::Add if signed != 0 => Some(signed > 0),
        AtomicOp::Sub if signed != 0 => Some(signed < 0),
        // `atomicInc(&c, 0xffffffff)` never resets below its limit: `c + 1` (wrapping at 2^32).
        AtomicOp::Inc if *c == u32::MAX => Some(true),
        _ => None,
    }
}

/// What one top-level statement does to each array: (plain write, atomic, atomic direction).
#[derive(Default, Clone, Copy)]
struct Use {
    write: bool,
    atomic: bool,
    /// `Some(Some(dir))`: every atomic seen moves it in `dir`; `Some(None)`: some atomic does not
    /// qualify or directions disagree.
    dir: Option<Option<bool>>,
    /// Some atomic is of block scope (`atomicAdd_block`).
    block_scoped: bool,
    /// Some access covers more than one element (a wider view): the array's words are not
    /// one counter each.
    wide: bool,
}

fn note(uses: &mut BTreeMap<String, Use>, s: &Stmt) {
    if let (Some((array, ..)), false) = (s.access(), s.width().is_one()) {
        uses.entry(array.to_string()).or_default().wide = true;
    }
    match &s.kind {
        StmtKind::Write { array, .. } => uses.entry(array.clone()).or_default().write = true,
        StmtKind::Atomic { op, array, value, scope, .. } => {
            let u = uses.entry(array.clone()).or_default();
            u.atomic = true;
            u.block_scoped |= *scope == AtomicScope::Block;
            let d = direction(*op, value);
            u.dir = Some(match u.dir {
                None => d,
                Some(prev) => prev.zip(d).filter(|(a, b)| a == b).map(|(a, _)| a),
            });
        }
        StmtKind::If { then, els, .. } => {
            block_uses(uses, then);
            if let Some(e) = els {
                block_uses(uses, e);
            }
        }
        StmtKind::While { body, .. } => block_uses(uses, body),
        _ => {}
    }
}

fn block_uses(uses: &mut BTreeMap<String, Use>, b: &Block) {
    for s in &b.stmts {
        note(uses, s);
    }
}

/// The counter arrays of `kernel` (the kernel with its barriers).
pub fn counters(kernel: &Kernel) -> BTreeSet<String> {
    // Per top-level statement, what it does to each array.
    let per_stmt: Vec<BTreeMap<String, Use>> = kernel
        .body
        .stmts
        .iter()
        .map(|s| {
            let mut m = BTreeMap::new();
            note(&mut m, s);
            m
        })
        .collect();
    let mut all: BTreeMap<String, Use> = BTreeMap::new();
    for m in &per_stmt {
        for (a, u) in m {
            let e = all.entry(a.clone()).or_default();
            e.write |= u.write;
            e.atomic |= u.atomic;
            e.block_scoped |= u.block_scoped;
            e.wide |= u.wide;
            e.dir = match (e.dir, u.dir) {
                (None, d) | (d, None) => d,
                (Some(x), Some(y)) => Some(x.zip(y).filter(|(a, b)| a == b).map(|(a, _)| a)),
            };
        }
    }
    let mut out = BTreeSet::new();
    for (name, u) in all {
        if !u.atomic || u.wide || !matches!(u.dir, Some(Some(_))) {
            continue;
        }
        let Some(decl) = kernel.array(&name) else { continue };
        // Threads of other blocks may interleave with a block-scope atomic on a global word
        // (lost updates): two of its results may be equal, even within one block.
        if u.block_scoped && decl.space != Space::Shared {
            continue;
        }
        if u.write {
            if decl.space != Space::Shared {
                continue;
            }
            let last_write = per_stmt.iter().rposition(|m| m.get(&name).is_some_and(|u| u.write));
            let first_atomic = per_stmt.iter().position(|m| m.get(&name).is_some_and(|u| u.atomic));
            let (Some(w), Some(a)) = (last_write, first_atomic) else { continue };
            let separated =
                w < a && kernel.body.stmts[w + 1..a].iter().any(|s| matches!(s.kind, StmtKind::Barrier));
            if !separated {
                continue;
            }
        }
        out.insert(name);
    }
    out
}

/// The counters among `counters` advanced somewhere by an `atomicAdd` whose amount (a variable)
/// may be negative: `solver` (holding the launch's facts) finds, for some atomic of `trace`'s
/// thread (any thread), an execution with the amount below 0 — or cannot decide. Those are no
/// counters (their atomics may move both ways). Each proof is one query of the oracle's budget
/// (`limits`, counted in `stats`); once the budget is spent, what is left is unproven.
pub(super) fn unproven_steps(
    kernel: &Kernel,
    counters: &BTreeSet<String>,
    trace: &ThreadTrace,
    solver: &Solver,
    limits: &Limits,
    stats: &mut OracleStats,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    kernel.walk(&mut |s| {
        let StmtKind::Atomic { array, value, .. } = &s.kind else { return };
        if !counters.contains(array) || out.contains(array) || matches!(value, Expr::Const(_)) {
            return;
        }
        // An atomic without a term in the trace is not proven.
        let negative = match trace.accesses.get(&s.label).and_then(|a| Some((a, a.operand.as_ref()?))) {
            Some((a, amount)) if limits.arm(solver, stats).is_ok() => {
                solver.push();
                solver.assert(Bool::and(&[&a.enabled, &a.assume, &amount.bvslt(BV::from_u64(0, W))]));
                let r = solver.check();
                solver.pop(1);
                r != SatResult::Unsat
            }
            _ => true,
        };
        if negative {
            out.insert(array.clone());
        }
    });
    out
}

/// The amount a counter's atomic adds each time, as a term (`None`: it counts down; atomics
/// without a destination do not matter here).
fn up_amount(op: AtomicOp, value: &Expr, operand: Option<&BV>) -> Option<BV> {
    match (op, value) {
        (AtomicOp::Inc, _) => Some(BV::from_u64(1, W)),
        (AtomicOp::Add, Expr::Const(c)) if (*c as i32) > 0 => Some(BV::from_u64(u64::from(*c), W)),
        (AtomicOp::Add, Expr::Const(_)) => None,
        (AtomicOp::Add, _) => operand.cloned(),
        _ => None,
    }
}

/// The facts about two threads' atomics on one element of a counter, for every pair of atomic
/// statements on a counter (`grid`: the threads are in different blocks, where a shared counter
/// is not one word): their results differ, and of an up-counting counter the slot ranges
/// `[result, result + amount)` do not overlap (modulo 2^32, under the counter assumption that
/// the steps sum below 2^32).
pub fn distinct_results(
    kernel: &Kernel,
    counters: &BTreeSet<String>,
    traces: [&ThreadTrace; 2],
    grid: bool,
) -> Vec<Bool> {
    // Per site and thread: its access and the amount it adds (`None`: not up-counting).
    struct Site<'t> {
        array: String,
        at: [Option<&'t AccessSym>; 2],
        up: [Option<BV>; 2],
    }
    let mut sites = Vec::new();
    kernel.walk(&mut |s| {
        if let StmtKind::Atomic { array, dst: Some(_), op, value, .. } = &s.kind {
            let shared = kernel.array(array).is_some_and(|a| a.space == Space::Shared);
            if counters.contains(array) && !(grid && shared) {
                let at = traces.map(|t| t.accesses.get(&s.label));
                let up = at.map(|a| up_amount(*op, value, a.and_then(|a| a.operand.as_ref())));
                sites.push(Site { array: array.clone(), at, up });
            }
        }
    });
    // 64 bits, where `d + amount` cannot wrap (a 32-bit form of the same bound was 3x slower).
    let wide = |v: &BV| v.zero_ext(W);
    let mut out = Vec::new();
    for a in &sites {
        for b in &sites {
            if a.array != b.array {
                continue;
            }
            let (Some(x), Some(y)) = (a.at[0], b.at[1]) else { continue };
            let (Some(rx), Some(ry)) = (&x.result, &y.result) else { continue };
            let meet = Bool::and(&[&x.enabled, &y.enabled, &x.index.eq(&y.index)]);
            let apart = match (&a.up[0], &b.up[1]) {
                // Modulo 2^32 (the counter's start is unknown and may wrap): the distance
                // `d = ry - rx` covers the earlier atomic's amount whichever came first — x
                // first: ax <= d, and d + ay <= 2^32 since all steps sum below 2^32; y first:
                // the same two bounds seen from the other side.
                (Some(ax), Some(ay)) => {
                    let d = wide(&ry.bvsub(rx));
                    Bool::and(&[&d.bvuge(wide(ax)), &d.bvadd(wide(ay)).bvule(BV::from_u64(1 << 32, 2 * W))])
                }
                _ => rx.eq(ry).not(),
            };
            out.push(meet.implies(apart));
        }
    }
    out
}
