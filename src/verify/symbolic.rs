//! Symbolic execution of one thread of a block under SDV semantics, producing z3 terms.
//!
//! One walk over the kernel per thread computes, for every memory access and every block, the
//! condition under which the thread is enabled there and (for accesses) the linearized address,
//! as functions of the thread's ids, the launch geometry, the parameters, values read from memory
//! and one iteration variable `k` per enclosing loop (the iteration number, counted from 0).
//!
//! `assume c` outside loops becomes the fact `enabled ⇒ c` of the thread ([`ThreadTrace::facts`]).
//!
//! Abstractions (all over-approximations; docs/semantics.md):
//! - predicated execution: an `if` merges the branches' assignments with `ite` on its guard;
//! - a loop's body is entered at a symbolic iteration `k`; a variable the body assigns is either
//!   an induction variable with a closed form in `k` (`x += e`, `x -= e`, `x *= 2^c`, `x <<= c`,
//!   `x >>= c`, `x /= 2^c` with `e`, `c` loop-invariant), one of variables the body rotates in a
//!   cycle of 2, 4, … (the double-buffer swap: the entry value of the member `k mod len` ahead)
//!   or unconstrained
//!   ("havocked"); the
//!   guard must hold at iteration `k` (not necessarily at earlier ones);
//! - after a loop every variable it assigned is unconstrained;
//! - values read from memory are unconstrained, except reads the caller declares uniform: those
//!   yield one value per dynamic instance, shared by the two threads;
//! - a uniform variable the analysis havocs is an uninterpreted function of the iteration vector,
//!   shared by the two threads, so equal iterations give equal values.

use crate::kpl::named;
use crate::kpl::{AtomicOp, AtomicScope, BinOp, Block, Builtin, Expr, Kernel, Label, StmtKind, UnOp, Width};
use crate::verify::launch::{Launch, ThreadIds};
use crate::verify::loops::{
    assigned_vars, carried_condition, decrement_floor, induction_step, memory_valued, rotations, toggle,
    upper_bound, Rotation, Toggle,
};
use crate::verify::pow2::Pow2;
use crate::verify::uniform::Uniformity;
use crate::verify::wrap;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use z3::ast::{Ast, Bool, BV};
use z3::{FuncDecl, Sort};

pub use crate::verify::word::W;

/// What one thread does at one memory access, at symbolic iterations of its loops.
#[derive(Clone)]
pub struct AccessSym {
    /// The thread executes the access (its predicate holds).
    pub enabled: Bool,
    /// The linearized element index (the first element of a wider access).
    pub index: BV,
    /// How many elements from `index` on the access covers (KPL's `Width`, at least 1).
    pub width: u32,
    /// The value written: plain writes, and exchanges (`exch`, also CUDA's CAS) whose result
    /// is unused.
    pub value: Option<BV>,
    /// Enclosing loops (outermost first) and this thread's iteration variables for them.
    pub loops: Vec<(Label, BV)>,
    /// Assumptions on this thread's iterations (loop counters do not wrap around).
    pub assume: Bool,
    /// The integer arithmetic that computed the index did not wrap around: every `+`, `-`, `*`,
    /// `<<` and negation on the index's data flow stayed in the signed 32-bit range
    /// (`wrap::no_wrap`). Implied by "no arithmetic wraps", so assuming it (`--no-wrap`) drops
    /// exactly the executions where some of it wraps.
    pub no_wrap: Bool,
    /// The value an atomic returns to this thread (atomics with a destination only).
    pub result: Option<BV>,
    /// The operand of an atomic (the amount an `atomicAdd` adds).
    pub operand: Option<BV>,
    /// An atomic's scope (`None`: not an atomic).
    pub atomic: Option<AtomicScope>,
    /// The access stays inside its array: every subscript the kernel bounds
    /// (`Kernel::subscript_bounds`) is below its dimension, unsigned. `None` when no subscript
    /// is bounded. Race queries assume it; the out-of-bounds check asks for its negation.
    pub in_bounds: Option<Bool>,
    /// The subscripts' terms, those the source writes (a thread-local array's row left out),
    /// with the dimension each must stay below (`None`: unbounded): the out-of-bounds witness.
    pub subscripts: Vec<(BV, Option<u32>)>,
    /// The thread's named barrier counters when it performs the access (`kpl::named`).
    pub counters: Vec<NamedCounters>,
}

/// One thread's counters of named barrier `id` at a point of its execution: how often it has
/// joined the barrier, and the instance its last waiting participation completed.
#[derive(Clone)]
pub struct NamedCounters {
    pub id: u32,
    pub arrived: BV,
    pub waited: BV,
    /// How many of its participations the thread did not wait at (`bar arrive`).
    pub unwaited: BV,
}

/// One thread at a named barrier statement: its predicate and iterations, and its counters
/// there — `arrived` already counts this participation, `waited` is still the instance of the
/// one before (the waiting update follows the statement).
#[derive(Clone)]
pub struct NamedOp {
    pub enabled: Bool,
    pub loops: Vec<(Label, BV)>,
    pub assume: Bool,
    pub counters: Vec<NamedCounters>,
    /// The instance the statement waits for: its own participation for a `bar sync`, the
    /// instance named for a `bar wait`; `None` for a `bar arrive`.
    pub completes: Option<BV>,
}

/// One thread's predicate on entry to a block.
#[derive(Clone)]
pub struct BlockSym {
    pub enabled: Bool,
    pub loops: Vec<(Label, BV)>,
    pub assume: Bool,
}

/// Everything one walk computes.
#[derive(Default)]
pub struct ThreadTrace {
    pub accesses: HashMap<Label, AccessSym>,
    pub blocks: HashMap<Label, BlockSym>,
    /// Loops whose guard is a constant at every iteration, with their exact trip count (the same
    /// for every thread that enters them).
    pub trips: HashMap<Label, u64>,
    /// The kernel's `assume` statements outside every loop, as `reached ⇒ cond` on this thread's
    /// state: facts of every execution that matters (docs/kpl.md). An `assume` inside a loop is
    /// left out, which only widens what is checked.
    pub facts: Vec<Bool>,
    /// Additive closed-form counters `x0 + k·e` (`StridedCounter`), for `strided_lemmas`.
    pub strided: Vec<StridedCounter>,
    /// The named barrier statements the thread may execute.
    pub named: HashMap<Label, NamedOp>,
    /// The thread's named barrier counters where it ends: how often it joins each in all, and
    /// the last instance it waits for.
    pub named_totals: Vec<NamedCounters>,
}

/// A counter `x := x0 + k·e` of loop `lp` at this thread's iteration `k` (`x += e`, `e`
/// loop-invariant), with the assumption of its closed form that the exact value fits (`exact`).
#[derive(Clone)]
pub struct StridedCounter {
    pub lp: Label,
    pub name: String,
    pub value: BV,
    pub start: BV,
    pub step: BV,
    pub k: BV,
    pub exact: Bool,
}

/// Facts about the same strided counter in two threads: when both starts lie in `[0, e)` (a
/// positive step `e`, the same term in both) and both exact values fit (the closed form's
/// assumption), equal values come from equal iterations and equal starts — `(k1 − k2)·e =
/// x0₂ − x0₁` with `|x0₂ − x0₁| < e`. Valid for every value (each fact states its hypotheses). This
/// is what keeps a grid-stride index `i = gid + k·(blockDim.x·gridDim.x)` of two threads apart
/// without nonlinear reasoning.
///
/// Each lemma comes with its loop: a query asserts only the lemmas of the loops around both of
/// its statements (`query::query_probing`), the only ones whose terms it mentions.
pub fn strided_lemmas(t1: &ThreadTrace, t2: &ThreadTrace) -> Vec<(Label, Bool)> {
    let zero = BV::from_u64(0, W);
    let mut out = Vec::new();
    for c1 in &t1.strided {
        for c2 in t2.strided.iter().filter(|c| c.lp == c1.lp && c.name == c1.name) {
            if !c1.step.ast_eq(&c2.step) {
                continue;
            }
            let e = &c1.step;
            let hyp = Bool::and(&[
                &c1.value.eq(&c2.value),
                &c1.start.bvult(e),
                &c2.start.bvult(e),
                &e.bvsgt(&zero),
                &c1.exact,
                &c2.exact,
            ]);
            out.push((c1.lp, hyp.implies(Bool::and(&[&c1.k.eq(&c2.k), &c1.start.eq(&c2.start)]))));
        }
    }
    out
}

use crate::limits::{MAX_CONST_TRIPS as MAX_TRIPS, MAX_UNROLL};

/// The iteration at which `guard` (a function of the iteration variable `k`) first fails, when it
/// is a constant at every iteration up to there.
/// A term over the iteration variable `k` whose value at iteration `j` is `table[j]`: a
/// closed form `a + j·b` where the table is one, else a chain of `if`s.
fn table_term(table: &[u64], k: &BV) -> BV {
    let c = |v: u64| BV::from_u64(v, W);
    if let [a, b, ..] = table {
        let step = b.wrapping_sub(*a);
        if table
            .iter()
            .enumerate()
            .all(|(j, v)| a.wrapping_add(step.wrapping_mul(j as u64)) & 0xffff_ffff == *v)
        {
            return c(*a).bvadd(k.bvmul(c(step & 0xffff_ffff)));
        }
    }
    let mut out = c(*table.last().unwrap_or(&0));
    for (j, v) in table.iter().enumerate().rev().skip(1) {
        out = k.eq(c(j as u64)).ite(&c(*v), &out);
    }
    out
}

fn constant_trip_count(guard: &Bool, k: &BV) -> Option<u64> {
    for j in 0..=MAX_TRIPS {
        match guard.substitute(&[(k, &BV::from_u64(j, W))]).simplify().as_bool()? {
            true => continue,
            false => return Some(j),
        }
    }
    None
}

/// Walks the kernel for one thread.
pub struct SymExec<'a> {
    kernel: &'a Kernel,
    uniformity: &'a Uniformity,
    uniform_reads: &'a BTreeSet<Label>,
    /// The loops that hold a barrier (block, grid or warp) in the kernel checked: a uniform read's
    /// value depends on the iterations of these only (see [`SymExec::read_value`]).
    barrier_loops: &'a BTreeSet<Label>,
    theta: u8,
    ids: &'a ThreadIds,
    launch: &'a Launch,
    /// Block scope: uniform values are shared with the other thread; grid scope: not (the
    /// other thread is in another block).
    share_uniform: bool,
    env: HashMap<String, BV>,
    /// Power-of-two facts about variables, valid while the variable still holds the term.
    pow2: HashMap<String, (BV, Pow2)>,
    /// Set by `closed_form` when the counter it closed is a power of two.
    closed_pow2: Option<Pow2>,
    loops: Vec<(Label, BV)>,
    /// Assumptions of the enclosing loops' closed forms.
    assume: Vec<Bool>,
    /// Per variable, that the arithmetic computing its current value did not wrap (absent:
    /// nothing known, i.e. true — a value read from memory, a havoc, a loop's variable).
    nowrap: HashMap<String, Bool>,
    /// Operator nodes behind each variable's value (through the variables its expression read),
    /// at least 1: how big its terms are, for [`SymExec::no_wrap`].
    sizes: HashMap<String, usize>,
    /// The no-wrap conditions of the enclosing `if` and loop guards: part of an access's no-wrap
    /// condition (the arithmetic that decides whether the access runs, `x < nx - 1`).
    guard_wrap: Vec<Bool>,
    /// The iteration variables and counters of the enclosing loops whose guards read memory
    /// (`for (j = t; j < len; j += n)` with `len` read): an index computed from one ranges as
    /// far as memory's contents allow, so it is neither checked nor assumed in bounds, like an
    /// index read from memory.
    data_bounded: Vec<BV>,
    trace: ThreadTrace,
    /// The kernel's named barrier ids, ascending.
    named_ids: Vec<u32>,
}

/// Up to this size ([`SymExec::expr_size`]) a no-wrap condition is simplified when built.
const SIMPLIFY_SIZE: usize = 256;

impl<'a> SymExec<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        kernel: &'a Kernel,
        uniformity: &'a Uniformity,
        uniform_reads: &'a BTreeSet<Label>,
        barrier_loops: &'a BTreeSet<Label>,
        theta: u8,
        ids: &'a ThreadIds,
        launch: &'a Launch,
        params: &'a HashMap<String, BV>,
        share_uniform: bool,
    ) -> ThreadTrace {
        let mut s = SymExec {
            kernel,
            uniformity,
            uniform_reads,
            barrier_loops,
            theta,
            ids,
            launch,
            share_uniform,
            env: params.clone(),
            pow2: HashMap::default(),
            closed_pow2: None,
            loops: Vec::new(),
            assume: Vec::new(),
            nowrap: HashMap::default(),
            sizes: HashMap::default(),
            guard_wrap: Vec::new(),
            data_bounded: Vec::new(),
            trace: ThreadTrace::default(),
            named_ids: named::ids(kernel).into_iter().collect(),
        };
        let t = Bool::from_bool(true);
        s.block(&kernel.body, &t);
        s.trace.named_totals = s.counters();
        s.trace
    }

    /// The thread's named barrier counters now, by ascending id.
    fn counters(&self) -> Vec<NamedCounters> {
        let value = |name: String| self.env.get(&name).cloned().unwrap_or_else(|| BV::from_u64(0, W));
        self.named_ids
            .iter()
            .map(|&id| NamedCounters {
                id,
                arrived: value(named::arrived(id)),
                waited: value(named::waited(id)),
                unwaited: value(named::unwaited(id)),
            })
            .collect()
    }

    fn tag(&self, base: String) -> String {
        if self.share_uniform {
            base
        } else {
            format!("{base}@{}", self.theta)
        }
    }

    fn assumption(&self) -> Bool {
        let refs: Vec<&Bool> = self.assume.iter().collect();
        Bool::and(&refs)
    }

    fn kvars(&self) -> Vec<BV> {
        self.loops.iter().map(|(_, k)| k.clone()).collect()
    }

    /// A value that is the same in both threads at equal iterations of the enclosing loops.
    fn uniform_value(&self, name: String) -> BV {
        self.shared_function(name, self.kvars())
    }

    /// `name(args…)`: one uninterpreted function of the iteration counters `args`, shared by
    /// both threads in block scope ([`SymExec::tag`]).
    fn shared_function(&self, name: String, args: Vec<BV>) -> BV {
        let name = self.tag(name);
        if args.is_empty() {
            return BV::new_const(name, W);
        }
        let sort = Sort::bitvector(W);
        let domain: Vec<&Sort> = args.iter().map(|_| &sort).collect();
        let f = FuncDecl::new(name.clone(), &domain, &sort);
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        f.apply(&refs).as_bv().unwrap_or_else(|| BV::new_const(name, W))
    }

    /// The value of a read assumed uniform: the same in both threads whenever they execute it
    /// in one barrier interval, i.e. at equal iterations of the enclosing loops that hold a
    /// barrier. A loop without one runs all its iterations, in every thread, inside one barrier
    /// interval, and a write that changed the word between two of them would race with a read
    /// (reported, retracting the assumption: `Z3Oracle::check_with`).
    fn read_value(&self, name: String) -> BV {
        let args = self.loops.iter().filter(|(l, _)| self.barrier_loops.contains(l)).map(|(_, k)| k.clone());
        self.shared_function(name, args.collect())
    }

    /// A value private to this thread.
    fn private_value(&self, name: String) -> BV {
        BV::new_const(format!("{name}#{}", self.theta), W)
    }

    fn block(&mut self, b: &Block, enabled: &Bool) {
        let assume = self.assumption();
        self.trace
            .blocks
            .insert(b.label, BlockSym { enabled: enabled.clone(), loops: self.loops.clone(), assume });
        for s in &b.stmts {
            let l = s.label;
            match &s.kind {
                StmtKind::Local { name, init } => {
                    self.track_wrap(name, init.as_ref());
                    let v = match init {
                        Some(e) => self.eval(e),
                        None => self.private_value(format!("undef_{}_{}", l.0, name)),
                    };
                    if let Some(p) = init.as_ref().and_then(|e| self.pow2_of(e)) {
                        self.pow2.insert(name.clone(), (v.clone(), p));
                    }
                    self.env.insert(name.clone(), v);
                }
                StmtKind::Assign { name, value } => {
                    self.track_wrap(name, Some(value));
                    let v = self.eval(value);
                    if let Some(p) = self.pow2_of(value) {
                        self.pow2.insert(name.clone(), (v.clone(), p));
                    }
                    self.env.insert(name.clone(), v);
                }
                StmtKind::Read { dst, array, index, width } => {
                    self.access(l, (array, index, *width), None, enabled);
                    self.nowrap.remove(dst);
                    self.sizes.remove(dst);
                    let v = if self.uniform_reads.contains(&l) {
                        self.read_value(format!("rd_{}", l.0))
                    } else {
                        self.private_value(format!("rd_{}", l.0))
                    };
                    self.env.insert(dst.clone(), v);
                }
                StmtKind::Write { array, index, value, width, .. } => {
                    let v = self.eval(value);
                    self.access(l, (array, index, *width), Some(v), enabled);
                }
                StmtKind::Atomic { dst, op, array, index, value, width, scope } => {
                    // An exchange (or compare-and-swap: KPL `exch`) whose result is unused leaves
                    // `value` or the word unchanged: against a plain store of the same value, the
                    // word ends the same in either order (`mod.rs`'s benign check).
                    let stored = (*op == AtomicOp::Exch && dst.is_none()).then(|| self.eval(value));
                    self.access(l, (array, index, *width), stored, enabled);
                    let operand = self.eval(value);
                    if let Some(a) = self.trace.accesses.get_mut(&l) {
                        a.operand = Some(operand);
                        a.atomic = Some(*scope);
                    }
                    if let Some(d) = dst {
                        self.nowrap.remove(d);
                        self.sizes.remove(d);
                        let v = self.private_value(format!("atomic_{}", l.0));
                        if let Some(a) = self.trace.accesses.get_mut(&l) {
                            a.result = Some(v.clone());
                        }
                        self.env.insert(d.clone(), v);
                    }
                }
                StmtKind::Barrier
                | StmtKind::Syncwarp
                | StmtKind::Gridsync
                | StmtKind::Commit
                | StmtKind::Wait { .. }
                | StmtKind::WaitOldest
                | StmtKind::Release => {}
                StmtKind::NamedBarrier { .. } | StmtKind::NamedWait { .. } => {
                    let counters = self.counters();
                    let completes = match &s.kind {
                        StmtKind::NamedBarrier { id, wait: true, .. } => {
                            counters.iter().find(|c| c.id == *id).map(|c| c.arrived.clone())
                        }
                        StmtKind::NamedWait { instance, .. } => Some(self.eval(instance)),
                        _ => None,
                    };
                    let op = NamedOp {
                        enabled: enabled.clone(),
                        loops: self.loops.clone(),
                        assume: self.assumption(),
                        counters,
                        completes,
                    };
                    self.trace.named.insert(l, op);
                }
                StmtKind::Assume { cond } => {
                    if self.loops.is_empty() {
                        let c = self.eval_bool(cond);
                        self.trace.facts.push(enabled.implies(&c));
                    }
                }
                StmtKind::If { cond, then, els } => {
                    let c = self.eval_bool(cond);
                    let before = self.env.clone();
                    let wrap_before = self.nowrap.clone();
                    self.guard_wrap.push(self.no_wrap(cond));
                    self.block(then, &Bool::and(&[enabled, &c]));
                    let after_then = std::mem::replace(&mut self.env, before.clone());
                    let wrap_then = std::mem::replace(&mut self.nowrap, wrap_before.clone());
                    let wrap_merged = wrap::merge(&c, wrap_then, wrap_before);
                    // The else block starts from the values before the `if` (where it runs they
                    // are the merged ones, but unmerged its terms stay as simple as they were:
                    // a loop's guard there still has a constant trip count).
                    if let Some(e) = els {
                        let nc = c.not();
                        self.block(e, &Bool::and(&[enabled, &nc]));
                        let after_else = std::mem::take(&mut self.env);
                        self.env = merge_both(&c, after_then, after_else, before);
                        let wrap_else = std::mem::take(&mut self.nowrap);
                        self.nowrap = wrap::merge(&nc, wrap_else, wrap_merged);
                    } else {
                        self.env = merge(&c, after_then, before);
                        self.nowrap = wrap_merged;
                    }
                    self.guard_wrap.pop();
                }
                StmtKind::While { cond, body } => self.while_loop(l, cond, body, enabled),
            }
        }
    }

    fn while_loop(&mut self, l: Label, cond: &Expr, body: &Block, enabled: &Bool) {
        let assigned = assigned_vars(body);
        // The no-wrap facts of the values entering the loop, for closed-form counters below.
        let entry_wrap = self.nowrap.clone();
        // Nothing is known about wraps in values a loop computes (dropping a no-wrap fact only
        // makes the no-wrap assumption weaker), except for closed-form counters below.
        for name in assigned.keys() {
            self.nowrap.remove(name.as_str());
            self.sizes.remove(name.as_str());
        }
        let k = BV::new_const(format!("k{}_{}", self.theta, l.0), W);
        let entry = self.env.clone();
        // Counters that keep a floor (`decrement_floor`): their entry value, the floor and
        // whether the first iteration needs the floor exceeded (the condition on entry).
        let entry_guard = self.eval_bool(cond);
        let mut floors: Vec<(String, BV, BV)> = Vec::new();
        {
            let mut names: Vec<&String> = assigned.keys().collect();
            names.sort();
            for name in names {
                if let (Some(x0), Some(l)) =
                    (entry.get(name.as_str()), decrement_floor(body, cond, name, &assigned))
                {
                    floors.push((name.clone(), x0.clone(), self.eval(&l)));
                }
            }
        }
        // Closed forms and havocs are functions of the iteration vector including this loop.
        self.loops.push((l, k.clone()));
        let assumed_before = self.assume.len();
        // Fewer than 2^31 iterations (a loop counter would overflow first).
        self.assume.push(k.bvult(BV::from_u64(1 << 31, W)));
        let rotated = rotations(body, &assigned);
        let mut names: Vec<&String> = assigned.keys().collect();
        names.sort();
        let mut havocked: Vec<&String> = Vec::new();
        let mut bounded: Vec<(String, BV, BV)> = Vec::new();
        let from_memory = memory_valued(body);
        for name in names {
            let Some(x0) = entry.get(name.as_str()) else { continue };
            if let Some(v) = rotated.get(name.as_str()).and_then(|r| rotation_value(r, &entry, &k)) {
                self.env.insert(name.clone(), v);
                continue;
            }
            if let Some(t) = toggle(body, cond, name, &assigned) {
                let flipped = match t {
                    Toggle::SubFrom(c) => self.eval(c).bvsub(x0),
                    Toggle::Xor(c) => x0.bvxor(self.eval(c)),
                };
                let even = k.bvand(BV::from_u64(1, W)).eq(BV::from_u64(0, W));
                self.env.insert(name.clone(), even.ite(x0, &flipped));
                continue;
            }
            let start = self.pow2.get(name.as_str()).filter(|(t, _)| t.ast_eq(x0)).map(|(_, p)| p.clone());
            let step = induction_step(body, cond, name, &assigned);
            let assumed_before_closed = self.assume.len();
            let closed = step.as_ref().and_then(|(op, step)| {
                self.closed_form(*op, (x0, start), step, &k, &format!("ind_{}_{name}", l.0))
            });
            if let (Some(v), Some((BinOp::Add, e))) = (&closed, &step) {
                let exact = Bool::and(&self.assume[assumed_before_closed..].iter().collect::<Vec<_>>());
                self.trace.strided.push(StridedCounter {
                    lp: l,
                    name: name.clone(),
                    value: v.clone(),
                    start: x0.clone(),
                    step: self.eval(e),
                    k: k.clone(),
                    exact,
                });
            }
            // A closed-form counter `x0 + k·e` (whose exact value fits, an assumption of the
            // closed form) was computed without a wrap when `x0` and the step `e` were: the
            // grid-stride step `blockDim.x * gridDim.x` must not wrap either.
            if let (Some(_), Some((BinOp::Add | BinOp::Sub, e))) = (&closed, &step) {
                let mut c = self.no_wrap(e);
                if let Some(w) = entry_wrap.get(name.as_str()) {
                    c = Bool::and(&[w, &c]);
                }
                self.nowrap.insert(name.clone(), c);
            }
            if let (Some(v), Some(p)) = (&closed, self.closed_pow2.take()) {
                self.pow2.insert(name.clone(), (v.clone(), p));
            }
            let v = match closed {
                Some(v) => v,
                None => {
                    havocked.push(name);
                    // Memory's values in and out: as unconstrained as a read (`opaque_input`).
                    let prefix =
                        if from_memory.contains(name.as_str()) && opaque_input(x0) { "rd_" } else { "" };
                    let v = self.havoc(name, &format!("{prefix}loop_{}_{name}", l.0));
                    // An invariant bound: at most `B` at every iteration when at most `B` on entry.
                    if let Some(b) = upper_bound(body, name, &assigned) {
                        let b = self.eval(&b);
                        self.assume.push(x0.bvule(&b).implies(v.bvule(&b)));
                        bounded.push((name.clone(), x0.clone(), b));
                    }
                    v
                }
            };
            self.env.insert(name.clone(), v);
        }
        // A condition flag the body recomputes from the loop's variables at its end has, from
        // the second iteration on, that value at the iteration's start.
        // So has a named barrier's last waited instance (`kpl::named`), set from its
        // participation counter after the barrier statement.
        let mut carried: Vec<String> =
            havocked.iter().filter(|h| named::is_counter(h.as_str())).map(|h| h.to_string()).collect();
        cond.for_each_var(&mut |v| {
            if havocked.iter().any(|h| h.as_str() == v) && !carried.iter().any(|c| c == v) {
                carried.push(v.to_string());
            }
        });
        for name in carried {
            let (Some(x0), Some(e)) = (entry.get(name.as_str()), carried_condition(body, cond, &name)) else {
                continue;
            };
            let first = k.eq(BV::from_u64(0, W));
            let v = first.ite(x0, &self.eval(&e));
            self.env.insert(name, v);
        }
        let guard = self.eval_bool(cond);
        // Named barrier counters the body updates under conditions (a stage chosen by the
        // iteration's parity): with a constant trip count, their values at every iteration from
        // running the statements that compute them on that iteration's values.
        let counters: Vec<String> = {
            let mut c: Vec<String> = assigned.keys().filter(|n| named::is_counter(n)).cloned().collect();
            c.sort();
            c
        };
        if !counters.is_empty() {
            if let Some(n) = constant_trip_count(&guard, &k) {
                if let Some(values) = self.simulated_counters(body, (&counters, &entry), &k, n) {
                    for (name, v) in values {
                        self.env.insert(name, v);
                    }
                }
            }
        }
        // Closed forms at the start of iteration k, to evaluate them at the exit iteration.
        let at_k: HashMap<String, BV> = assigned
            .keys()
            .filter_map(|n| self.env.get(n.as_str()).map(|v| (n.clone(), v.clone())))
            .collect();
        let bounded_before = self.data_bounded.len();
        if opaque_input(&guard) {
            self.data_bounded.push(k.clone());
            for name in assigned.keys() {
                if !havocked.contains(&name) {
                    self.data_bounded.extend(self.env.get(name.as_str()).cloned());
                }
            }
        }
        self.guard_wrap.push(self.no_wrap(cond));
        self.block(body, &Bool::and(&[enabled, &guard]));
        self.guard_wrap.pop();
        self.data_bounded.truncate(bounded_before);
        self.loops.pop();
        self.assume.truncate(assumed_before);
        let trips = constant_trip_count(&guard, &k);
        if let Some(n) = trips {
            self.trace.trips.insert(l, n);
        }
        // After the loop: exact values when the trip count is a constant (the same for every
        // thread: the guard does not depend on anything but constants) and the value is known —
        // a closed form evaluated at the exit iteration, or the body unrolled when it only
        // computes locals; otherwise unconstrained.
        self.env = entry.clone();
        let unrolled = match trips {
            Some(n) if n <= MAX_UNROLL => self.unroll_pure(body, n, &entry),
            _ => None,
        };
        let mut names: Vec<&String> = assigned.keys().collect();
        names.sort();
        for name in names {
            if !self.env.contains_key(name.as_str()) {
                continue;
            }
            let exact = match (&unrolled, trips) {
                (Some(env), _) => env.get(name.as_str()).cloned(),
                (None, Some(n)) => at_k.get(name.as_str()).and_then(|v| {
                    let v = v.substitute(&[(&k, &BV::from_u64(n, W))]).simplify();
                    v.as_u64().map(|_| v)
                }),
                (None, None) => None,
            };
            let prefix = match entry.get(name.as_str()) {
                Some(x0) if from_memory.contains(name.as_str()) && opaque_input(x0) => "rd_",
                _ => "",
            };
            let v = exact.unwrap_or_else(|| self.havoc(name, &format!("{prefix}exit_{}_{name}", l.0)));
            // The bound holds where the thread left the loop too.
            if let Some((_, x0, b)) = bounded.iter().find(|(n, ..)| n == name) {
                self.assume.push(x0.bvule(b).implies(v.bvule(b)));
            }
            // A decremented counter leaves between its floor and its entry value.
            if let Some((_, x0, l)) = floors.iter().find(|(n, ..)| n == name) {
                let starts = Bool::and(&[&x0.bvsge(l), &entry_guard.implies(x0.bvsgt(l))]);
                self.assume.push(starts.implies(Bool::and(&[&v.bvsge(l), &v.bvsle(x0)])));
            }
            self.env.insert(name.clone(), v);
        }
        for name in assigned.keys() {
            self.nowrap.remove(name.as_str());
            self.sizes.remove(name.as_str());
        }
    }

    /// Records whether the arithmetic computing `name`'s new value wraps (before `name` changes).
    fn track_wrap(&mut self, name: &str, value: Option<&Expr>) {
        match value {
            Some(e) => {
                let c = self.no_wrap(e);
                self.nowrap.insert(name.to_string(), c);
                let size = self.expr_size(e);
                self.sizes.insert(name.to_string(), size);
            }
            None => {
                self.nowrap.remove(name);
                self.sizes.remove(name);
            }
        }
    }

    /// That no `+`, `-`, `*`, `<<` or negation on `e`'s data flow (its operators and the
    /// values of the variables it reads) leaves the signed 32-bit range (for `uadd`/`umul`:
    /// an operand or the result, as unsigned numbers, reaches 2^31).
    pub fn no_wrap(&self, e: &Expr) -> Bool {
        let mut conds = Vec::new();
        self.collect_no_wrap(e, &mut conds);
        let refs: Vec<&Bool> = conds.iter().collect();
        let all = Bool::and(&refs);
        // Big terms are left to the solver: a condition on `a + c` holds the whole term of `a`,
        // so simplifying at every assignment made a chain of `a = a + c` quadratic (40,000
        // statements took a minute).
        if self.expr_size(e) <= SIMPLIFY_SIZE {
            all.simplify()
        } else {
            all
        }
    }

    /// Operator nodes of `e`, counting each variable as the size of its value.
    fn expr_size(&self, e: &Expr) -> usize {
        match e {
            Expr::Const(_) | Expr::Builtin(_) => 1,
            Expr::Var(v) => self.sizes.get(v).copied().unwrap_or(1),
            Expr::Unary(_, a) => self.expr_size(a).saturating_add(1),
            Expr::Binary(_, a, b) => self.expr_size(a).saturating_add(self.expr_size(b)).saturating_add(1),
            Expr::Select(c, a, b) => self
                .expr_size(c)
                .saturating_add(self.expr_size(a))
                .saturating_add(self.expr_size(b))
                .saturating_add(1),
            Expr::Call(_, args) => args.iter().fold(1usize, |n, a| n.saturating_add(self.expr_size(a))),
        }
    }

    fn collect_no_wrap(&self, e: &Expr, out: &mut Vec<Bool>) {
        match e {
            Expr::Const(_) | Expr::Builtin(_) | Expr::Call(..) => {}
            Expr::Var(v) => out.extend(self.nowrap.get(v).cloned()),
            Expr::Unary(op, a) => {
                self.collect_no_wrap(a, out);
                if *op == UnOp::Neg {
                    out.push(self.eval(a).bvneg_no_overflow());
                }
            }
            Expr::Binary(op, a, b) => {
                self.collect_no_wrap(a, out);
                self.collect_no_wrap(b, out);
                out.extend(wrap::op_no_wrap(*op, &self.eval(a), &self.eval(b)));
            }
            Expr::Select(c, a, b) => {
                let (mut ta, mut tb) = (Vec::new(), Vec::new());
                self.collect_no_wrap(a, &mut ta);
                self.collect_no_wrap(b, &mut tb);
                let all = |v: &Vec<Bool>| Bool::and(&v.iter().collect::<Vec<_>>());
                out.push(self.eval_bool(c).ite(&all(&ta), &all(&tb)));
            }
        }
    }

    /// The environment after `n` iterations of a body that only assigns locals (no memory
    /// access, no loop), started from `entry`; `None` when the body does anything else.
    fn unroll_pure(
        &mut self,
        body: &Block,
        n: u64,
        entry: &HashMap<String, BV>,
    ) -> Option<HashMap<String, BV>> {
        let saved = std::mem::replace(&mut self.env, entry.clone());
        let mut ok = true;
        for _ in 0..n {
            ok = self.pure_block(body);
            if !ok {
                break;
            }
            for v in self.env.values_mut() {
                *v = v.simplify();
            }
            // Simplified, the values are small again (usually numerals).
            self.sizes.clear();
        }
        let out = std::mem::replace(&mut self.env, saved);
        ok.then_some(out)
    }

    /// The values of the named barrier counters `names` at the start of iteration `k` of a loop
    /// of `trips` iterations whose body is `body` (`self.env` holds the loop's variables at
    /// iteration `k`, `entry` at the loop's entry), as a term over `k`: each iteration's counters computed from the previous
    /// one's by running the body on concrete values. `None` when a counter's update depends on
    /// anything but constants and closed forms (a value read from memory, a branch whose condition
    /// is not a constant there, a nested loop that joins a barrier), or the loop is too long.
    fn simulated_counters(
        &mut self,
        body: &Block,
        (names, entry): (&[String], &HashMap<String, BV>),
        k: &BV,
        trips: u64,
    ) -> Option<Vec<(String, BV)>> {
        if trips > crate::limits::MAX_SIMULATED_TRIPS {
            return None;
        }
        let at_k = self.env.clone();
        let mut current: Vec<BV> =
            names.iter().map(|n| entry.get(n).map(|v| v.simplify())).collect::<Option<_>>()?;
        let mut table: Vec<Vec<u64>> = vec![Vec::new(); names.len()];
        let saved = std::mem::take(&mut self.env);
        let mut ok = true;
        for j in 0..=trips {
            for (t, v) in table.iter_mut().zip(&current) {
                match v.as_u64() {
                    Some(x) => t.push(x),
                    None => ok = false,
                }
            }
            if !ok || j == trips {
                break;
            }
            let jv = BV::from_u64(j, W);
            self.env = at_k.iter().map(|(n, v)| (n.clone(), v.substitute(&[(k, &jv)]).simplify())).collect();
            for (n, v) in names.iter().zip(&current) {
                self.env.insert(n.clone(), v.clone());
            }
            if !self.counter_block(body, names) {
                ok = false;
                break;
            }
            current = names
                .iter()
                .map(|n| self.env.get(n).cloned().unwrap_or_else(|| BV::from_u64(0, W)))
                .collect();
        }
        self.env = saved;
        if !ok {
            return None;
        }
        Some(names.iter().zip(table).map(|(n, t)| (n.clone(), table_term(&t, k))).collect())
    }

    /// Runs `b` on `self.env` for [`SymExec::simulated_counters`]: locals and assignments
    /// evaluated, a branch taken when its condition is a constant; false when a counter update
    /// cannot be followed.
    fn counter_block(&mut self, b: &Block, names: &[String]) -> bool {
        let unknown = |name: &str| BV::new_const(format!("sim_{name}"), W);
        let touches = |b: &Block| {
            let assigned = assigned_vars(b);
            names.iter().any(|n| assigned.contains_key(n))
        };
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Local { name, init: Some(e) } | StmtKind::Assign { name, value: e } => {
                    let v = self.eval(e).simplify();
                    self.env.insert(name.clone(), v);
                }
                StmtKind::Local { name, init: None } => {
                    self.env.insert(name.clone(), unknown(name));
                }
                StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => {
                    self.env.insert(dst.clone(), unknown(dst));
                }
                StmtKind::If { cond, then, els } => match self.eval_bool(cond).simplify().as_bool() {
                    Some(true) => {
                        if !self.counter_block(then, names) {
                            return false;
                        }
                    }
                    Some(false) => {
                        if let Some(e) = els {
                            if !self.counter_block(e, names) {
                                return false;
                            }
                        }
                    }
                    None => {
                        if touches(then) || els.as_ref().is_some_and(touches) {
                            return false;
                        }
                        for blk in std::iter::once(then).chain(els.iter()) {
                            for n in assigned_vars(blk).keys() {
                                self.env.insert(n.clone(), unknown(n));
                            }
                        }
                    }
                },
                StmtKind::While { body, .. } => {
                    if touches(body) {
                        return false;
                    }
                    for n in assigned_vars(body).keys() {
                        self.env.insert(n.clone(), unknown(n));
                    }
                }
                _ => {}
            }
        }
        true
    }

    /// Executes a block of local computations on `self.env` (if/else merged as in `block`);
    /// false on a memory access, barrier or loop.
    fn pure_block(&mut self, b: &Block) -> bool {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Local { name, init: Some(e) } | StmtKind::Assign { name, value: e } => {
                    let v = self.eval(e);
                    self.env.insert(name.clone(), v);
                }
                StmtKind::If { cond, then, els } => {
                    let c = self.eval_bool(cond);
                    let before = self.env.clone();
                    if !self.pure_block(then) {
                        return false;
                    }
                    let after_then = std::mem::replace(&mut self.env, before.clone());
                    self.env = merge(&c, after_then, before);
                    if let Some(e) = els {
                        let before = self.env.clone();
                        if !self.pure_block(e) {
                            return false;
                        }
                        let after_else = std::mem::replace(&mut self.env, before.clone());
                        self.env = merge(&c.not(), after_else, before);
                    }
                }
                _ => return false,
            }
        }
        true
    }

    fn havoc(&self, var: &str, name: &str) -> BV {
        if self.uniformity.varying_vars.contains(var) {
            self.private_value(name.to_string())
        } else {
            self.uniform_value(name.to_string())
        }
    }

    /// The value at iteration `k` of an additive counter `x := x0 ± k·e` whose step `e` is not a
    /// numeral (a block- or grid-stride loop: `j += blockDim.x`, `i += blockDim.x * gridDim.x`),
    /// as a variable `v` of its own, tied to the iteration by one equation of 64-bit exact
    /// values, `sext(v) = sext(x0) ± zext(k)·sext(e)`. That equation is the closed form's
    /// assumption and its value at once: it holds exactly when the exact value fits an `int`
    /// (what the term encoding assumes) and `v` is then that value. The term encoding had two
    /// multipliers for the same product (`k·e` in 32 bits and in 64 bits), which the solver had
    /// to prove equal bit by bit: seconds per query with a symbolic block size. The linear facts
    /// added beside it are consequences of the equation (so they change no model) that settle
    /// most queries without the multiplier: `k = 0` gives `v = x0`; with `e ≥ 0` the counter
    /// moves away from `x0` (up for `+=`, down for `-=`), at least by `e` once `k ≥ 1` when
    /// `e > 0` (`x0 ± e` cannot wrap: it lies between `x0` and `v`, both ints).
    fn counter_variable(&mut self, sub: bool, x0: &BV, e: &BV, k: &BV, name: &str) -> BV {
        let v = self.private_value(format!("{name}_at_k"));
        let wide = |t: &BV| t.sign_ext(32);
        let product = k.zero_ext(32).bvmul(wide(e));
        let exact = if sub { wide(x0).bvsub(&product) } else { wide(x0).bvadd(&product) };
        let zero = BV::from_u64(0, W);
        let first = k.eq(&zero);
        let (beyond, moved_by_e) =
            if sub { (v.bvsle(x0), v.bvsle(x0.bvsub(e))) } else { (v.bvsge(x0), v.bvsge(x0.bvadd(e))) };
        let positive = e.bvsgt(&zero);
        self.assume.push(wide(&v).eq(&exact));
        self.assume.push(first.implies(v.eq(x0)));
        self.assume.push(e.bvsge(&zero).implies(&beyond));
        self.assume.push(Bool::and(&[&positive, &first.not()]).implies(&moved_by_e));
        v
    }

    /// The value at the start of iteration `k` of `x := x op step`, started from `x0`.
    fn closed_form(
        &mut self,
        op: BinOp,
        (x0, start): (&BV, Option<Pow2>),
        step: &Expr,
        k: &BV,
        name: &str,
    ) -> Option<BV> {
        let e = self.eval(step);
        let c = match step {
            Expr::Const(c) => Some(*c),
            _ => None,
        };
        // Shift amounts saturate at 32: shifting further changes nothing.
        let sat = |per: u32| -> BV {
            let capped = k.bvugt(BV::from_u64(32, W)).ite(&BV::from_u64(32, W), k);
            capped.bvmul(BV::from_u64(per as u64, W))
        };
        let log2 = |v: u32| if v.is_power_of_two() { Some(v.trailing_zeros()) } else { None };
        // Additive counters do not wrap around: the exact value x0 ± k·e, computed in 64 bits,
        // fits a signed 32-bit int (signed overflow is undefined behaviour in C).
        let mut no_wrap = |sub: bool| {
            let wide = |v: &BV| v.sign_ext(32);
            let step = k.zero_ext(32).bvmul(wide(&e));
            let exact = if sub { wide(x0).bvsub(&step) } else { wide(x0).bvadd(&step) };
            self.assume.push(exact.bvsge(BV::from_i64(i32::MIN as i64, 64)));
            self.assume.push(exact.bvsle(BV::from_i64(i32::MAX as i64, 64)));
        };
        // A counter started at a power of two (a constant, or a value known to be one, like
        // `k = p` for a doubling `p`) stays one (doubling counters do not overflow, halving ones
        // until they reach 0).
        self.closed_pow2 = None;
        let start = x0.as_u64().and_then(|v| u32::try_from(v).ok()).and_then(Pow2::constant).or(start);
        let amount_pow2 = |amount: &BV| {
            // Small: `2^exp <= 2^30` at the start, and no_shift_overflow keeps it a positive int.
            start.as_ref().filter(|p| p.small).map(|p| Pow2 {
                exp: p.exp.bvadd(amount),
                cond: p.cond.clone(),
                small: true,
            })
        };
        let halved = |amount: &BV| {
            start.as_ref().filter(|p| p.small).map(|p| Pow2 {
                exp: p.exp.bvsub(amount),
                cond: Bool::and(&[&p.cond, &p.exp.bvuge(amount)]),
                small: true,
            })
        };
        Some(match op {
            BinOp::Add | BinOp::Sub if e.as_u64().is_none() => {
                self.counter_variable(op == BinOp::Sub, x0, &e, k, name)
            }
            BinOp::Add => {
                no_wrap(false);
                x0.bvadd(k.bvmul(&e))
            }
            BinOp::Sub => {
                no_wrap(true);
                x0.bvsub(k.bvmul(&e))
            }
            BinOp::Mul | BinOp::Shl => {
                let per = if op == BinOp::Mul { log2(c?)? } else { c.filter(|c| *c < 32)? };
                let amount = sat(per);
                self.no_shift_overflow(x0, &amount);
                self.closed_pow2 = amount_pow2(&amount);
                x0.bvshl(&amount)
            }
            BinOp::Shr | BinOp::UShr | BinOp::UDiv => {
                let per = if op == BinOp::UDiv { log2(c?)? } else { c.filter(|c| *c < 32)? };
                let amount = sat(per);
                self.closed_pow2 = halved(&amount);
                if op == BinOp::Shr {
                    x0.bvashr(&amount)
                } else {
                    x0.bvlshr(&amount)
                }
            }
            BinOp::Div => {
                let s = log2(c?)?;
                let nonneg = x0.bvsge(BV::from_u64(0, W));
                nonneg.ite(&x0.bvlshr(sat(s)), &self.private_value(name.to_string()))
            }
            _ => return None,
        })
    }

    /// Doubling counters do not overflow: `x0 << amount` keeps its exact value as a signed
    /// 32-bit int (or `x0` is 0).
    fn no_shift_overflow(&mut self, x0: &BV, amount: &BV) {
        let wide = x0.sign_ext(32);
        let amount64 = amount.zero_ext(32);
        let shifted = wide.bvshl(&amount64);
        let fits = Bool::and(&[
            &amount.bvult(BV::from_u64(32, W)),
            &shifted.bvsge(BV::from_i64(i32::MIN as i64, 64)),
            &shifted.bvsle(BV::from_i64(i32::MAX as i64, 64)),
        ]);
        let zero = x0.eq(BV::from_u64(0, W));
        self.assume.push(Bool::or(&[&zero, &fits]));
    }

    fn access(
        &mut self,
        l: Label,
        (array, index, width): (&str, &[Expr], Width),
        value: Option<BV>,
        enabled: &Bool,
    ) {
        let width = width.get();
        let last = index.len().saturating_sub(1);
        let dims = self.kernel.array(array).map(|a| a.dims.clone()).unwrap_or_default();
        let bounds = self.kernel.subscript_bounds(array, index);
        let hidden = self.kernel.hidden_subscripts(array, index);
        let mut lin: Option<BV> = None;
        let mut within: Vec<Bool> = Vec::new();
        let mut subscripts = Vec::new();
        for (i, e) in index.iter().enumerate() {
            let v = self.eval(e);
            // A subscript computed from a value the oracle knows nothing of is neither checked
            // nor assumed in bounds: values read from memory are unconstrained here (an
            // `unsigned char` read included), as are opaque calls' results and the arbitrary
            // element an opaque function may touch, so the check would only say that they could
            // be anything.
            let bound = bounds.get(i).copied().flatten().filter(|b| {
                // A value from memory reduced below the bound (`data[i] % BINS`) is inside
                // whatever memory holds: checked (trivially) and assumed like any other.
                // One that memory gives only through a mask (a narrow integer type's value:
                // `tab[c]` of an `int8_t c` is -128..127 whatever memory holds, `c + 128`
                // 0..255) ranges over what the type allows: checked like any other.
                below(&v).is_some_and(|m| m <= u64::from(*b))
                    || (!opaque_unmasked(&v) && !mentions_any(&v, &self.data_bounded))
            });
            if let Some(b) = bound {
                // The last subscript's access covers `width` elements: `v + width <= b`.
                let w = if i == last { width } else { 1 };
                within.push(match b.checked_sub(w.saturating_sub(1)) {
                    Some(room) => v.bvult(BV::from_u64(u64::from(room), W)),
                    None => Bool::from_bool(false),
                });
            }
            if i >= hidden {
                subscripts.push((v.clone(), bound));
            }
            lin = Some(match lin {
                None => v,
                Some(acc) => {
                    let d = dims.get(i).copied().flatten().unwrap_or(1) as u64;
                    recombined(&acc, d, &v).unwrap_or_else(|| acc.bvmul(BV::from_u64(d, W)).bvadd(&v))
                }
            });
        }
        let mut wraps: Vec<Bool> = index.iter().map(|e| self.no_wrap(e)).collect();
        wraps.extend(self.guard_wrap.iter().cloned());
        let no_wrap = Bool::and(&wraps.iter().collect::<Vec<_>>());
        let index = lin.unwrap_or_else(|| BV::from_u64(0, W));
        let assume = self.assumption();
        self.trace.accesses.insert(
            l,
            AccessSym {
                enabled: enabled.clone(),
                index,
                width,
                value,
                loops: self.loops.clone(),
                assume,
                no_wrap,
                result: None,
                operand: None,
                atomic: None,
                in_bounds: (!within.is_empty()).then(|| Bool::and(&within.iter().collect::<Vec<_>>())),
                subscripts,
                counters: self.counters(),
            },
        );
    }

    /// The term of an expression.
    pub fn eval(&self, e: &Expr) -> BV {
        let one = || BV::from_u64(1, W);
        let zero = || BV::from_u64(0, W);
        let of_bool = |b: Bool| b.ite(&one(), &zero());
        match e {
            Expr::Const(v) => BV::from_u64(*v as u64, W),
            Expr::Var(v) => {
                self.env.get(v).cloned().unwrap_or_else(|| self.private_value(format!("unbound_{v}")))
            }
            Expr::Builtin(b) => match b {
                Builtin::Tid(d) => self.ids.tid[d.index()].clone(),
                Builtin::Bid(d) => self.ids.bid[d.index()].clone(),
                Builtin::BlockDim(d) => self.launch.block_dim[d.index()].clone(),
                Builtin::GridDim(d) => self.launch.grid_dim[d.index()].clone(),
            },
            Expr::Unary(op, a) => match op {
                UnOp::Neg => self.eval(a).bvneg(),
                UnOp::BitNot => self.eval(a).bvnot(),
                UnOp::Not => of_bool(self.eval_bool(a).not()),
            },
            Expr::Binary(op, a, b) => {
                use BinOp::*;
                if matches!(op, And | Or | Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe) {
                    return of_bool(self.eval_bool(e));
                }
                if let Some(v) = self.pow2_arith(*op, a, b) {
                    return v;
                }
                let (x, y) = (self.eval(a), self.eval(b));
                match op {
                    Add | UAdd | IUAdd | UIAdd => x.bvadd(&y),
                    Sub => x.bvsub(&y),
                    Mul | UMul | IUMul | UIMul => x.bvmul(&y),
                    Div => x.bvsdiv(&y),
                    Rem => x.bvsrem(&y),
                    UDiv => x.bvudiv(&y),
                    URem => x.bvurem(&y),
                    Shl => x.bvshl(&y),
                    Shr => x.bvashr(&y),
                    UShr => x.bvlshr(&y),
                    BitAnd => x.bvand(&y),
                    BitOr => x.bvor(&y),
                    BitXor => x.bvxor(&y),
                    Min => x.bvslt(&y).ite(&x, &y),
                    Max => x.bvsgt(&y).ite(&x, &y),
                    _ => zero(),
                }
            }
            Expr::Select(c, a, b) => self.eval_bool(c).ite(&self.eval(a), &self.eval(b)),
            Expr::Call(f, args) => {
                let sort = Sort::bitvector(W);
                let domain: Vec<&Sort> = args.iter().map(|_| &sort).collect();
                let name = format!("fn_{f}_{}", args.len());
                let vals: Vec<BV> = args.iter().map(|a| self.eval(a)).collect();
                if vals.is_empty() {
                    return BV::new_const(name, W);
                }
                let refs: Vec<&dyn Ast> = vals.iter().map(|a| a as &dyn Ast).collect();
                FuncDecl::new(name.clone(), &domain, &sort)
                    .apply(&refs)
                    .as_bv()
                    .unwrap_or_else(|| BV::new_const(name, W))
            }
        }
    }

    /// A power-of-two fact about an expression's value.
    fn pow2_of(&self, e: &Expr) -> Option<Pow2> {
        match e {
            Expr::Const(c) => Pow2::constant(*c),
            Expr::Var(v) => {
                let (term, p) = self.pow2.get(v)?;
                self.env.get(v).filter(|cur| cur.ast_eq(term)).map(|_| p.clone())
            }
            Expr::Binary(BinOp::Mul | BinOp::UMul | BinOp::IUMul | BinOp::UIMul, a, b) => {
                Some(self.pow2_of(a)?.times(&self.pow2_of(b)?))
            }
            Expr::Binary(BinOp::Shl, a, b) => match **b {
                Expr::Const(c) if c < 32 => Some(self.pow2_of(a)?.times(&Pow2::constant(1 << c)?)),
                _ => None,
            },
            Expr::Binary(BinOp::Shr | BinOp::UShr, a, b) => match **b {
                Expr::Const(c) if c < 32 => self.pow2_of(a)?.shifted_right(c),
                _ => None,
            },
            Expr::Binary(BinOp::Div | BinOp::UDiv, a, b) => match **b {
                Expr::Const(c) if c.is_power_of_two() => self.pow2_of(a)?.shifted_right(c.trailing_zeros()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Multiplication, division and remainder by a power of two, as shifts and masks.
    fn pow2_arith(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<BV> {
        // Constant operands are left to z3, which handles them well (measured: encoding `% 2` as
        // a mask made the Sec. III-E kernel slower).
        let symbolic = |e: &Expr| !matches!(e, Expr::Const(_));
        match op.machine() {
            BinOp::Mul if symbolic(b) && self.pow2_of(b).is_some() => {
                self.pow2_of(b).map(|p| p.mul(&self.eval(a)))
            }
            BinOp::Mul if symbolic(a) && self.pow2_of(a).is_some() => {
                self.pow2_of(a).map(|p| p.mul(&self.eval(b)))
            }
            BinOp::Div | BinOp::Rem | BinOp::UDiv | BinOp::URem if symbolic(b) => {
                let p = self.pow2_of(b)?;
                let x = self.eval(a);
                Some(match op {
                    BinOp::Div => p.sdiv(&x),
                    BinOp::Rem => p.srem(&x),
                    BinOp::UDiv => p.udiv(&x),
                    _ => p.urem(&x),
                })
            }
            _ => None,
        }
    }

    /// The truth of an expression used as a condition (non-zero).
    pub fn eval_bool(&self, e: &Expr) -> Bool {
        use BinOp::*;
        match e {
            Expr::Unary(UnOp::Not, a) => self.eval_bool(a).not(),
            Expr::Binary(op, a, b) => {
                let cmp = |f: fn(&BV, &BV) -> Bool| f(&self.eval(a), &self.eval(b));
                match op {
                    And => Bool::and(&[&self.eval_bool(a), &self.eval_bool(b)]),
                    Or => Bool::or(&[&self.eval_bool(a), &self.eval_bool(b)]),
                    Eq => cmp(|x, y| x.eq(y)),
                    Ne => cmp(|x, y| x.eq(y).not()),
                    Lt => cmp(|x, y| x.bvslt(y)),
                    Le => cmp(|x, y| x.bvsle(y)),
                    Gt => cmp(|x, y| x.bvsgt(y)),
                    Ge => cmp(|x, y| x.bvsge(y)),
                    ULt => cmp(|x, y| x.bvult(y)),
                    ULe => cmp(|x, y| x.bvule(y)),
                    UGt => cmp(|x, y| x.bvugt(y)),
                    UGe => cmp(|x, y| x.bvuge(y)),
                    _ => self.eval(e).eq(BV::from_u64(0, W)).not(),
                }
            }
            Expr::Const(v) => Bool::from_bool(*v != 0),
            _ => self.eval(e).eq(BV::from_u64(0, W)).not(),
        }
    }
}

/// `q * d + r` when it is `(x / d) * d + x % d` (signed or unsigned, `d` the constant dimension):
/// exactly `x`. The identity holds for every bit-vector `x` under SMT-LIB's division, so the
/// rewrite is exact; it spares the solver two divider circuits it would have to relate (an index
/// `a[k / 14][k % 14]` made queries take 200 ms instead of 2 ms).
fn recombined(q: &BV, d: u64, r: &BV) -> Option<BV> {
    use z3::DeclKind;
    let parts = |t: &BV, kinds: [DeclKind; 2]| -> Option<(DeclKind, BV, u64)> {
        if !t.is_app() || t.num_children() != 2 {
            return None;
        }
        let kind = super::kind::of(&t.safe_decl().ok()?);
        if !kinds.contains(&kind) {
            return None;
        }
        let x = t.nth_child(0)?.as_bv()?;
        let c = t.nth_child(1)?.as_bv()?.as_u64()?;
        Some((kind, x, c))
    };
    let (qk, qx, qc) = parts(q, [DeclKind::Bsdiv, DeclKind::Budiv])?;
    let (rk, rx, rc) = parts(r, [DeclKind::Bsrem, DeclKind::Burem])?;
    let same_sign = (qk == DeclKind::Bsdiv) == (rk == DeclKind::Bsrem);
    (same_sign && qc == d && rc == d && qx.ast_eq(&rx)).then_some(qx)
}

/// The values after an `if` with both branches: each branch ran from the values `before`.
fn merge_both(
    cond: &Bool,
    then: HashMap<String, BV>,
    els: HashMap<String, BV>,
    before: HashMap<String, BV>,
) -> HashMap<String, BV> {
    let mut out = HashMap::default();
    for (name, old) in before {
        let t = then.get(&name).unwrap_or(&old);
        let e = els.get(&name).unwrap_or(&old);
        let v = if t.ast_eq(e) { t.clone() } else { choose(cond, t, e) };
        out.insert(name, v);
    }
    out
}

fn merge(cond: &Bool, taken: HashMap<String, BV>, before: HashMap<String, BV>) -> HashMap<String, BV> {
    let mut out = before.clone();
    for (name, v) in taken {
        match before.get(&name) {
            Some(old) if old.ast_eq(&v) => {}
            Some(old) => {
                out.insert(name, choose(cond, &v, old));
            }
            // Declared inside the branch: out of scope afterwards.
            None => {}
        }
    }
    out
}

/// Whether `t` depends on a value the oracle knows nothing of: one read from memory or returned
/// by an atomic (`rd_`, `atomic_`), an opaque call's result (`fn_`), an uninitialized local
/// (`undef_`, also the arbitrary index of an access the front end models for an opaque function)
/// or an unbound name (`unbound_`) — the names [`SymExec`] gives them. A walk of the DAG, each
/// node once.
fn opaque_input(t: &impl Ast) -> bool {
    opaque_leaf(t, false)
}

/// Whether `t` has an opaque input (as [`opaque_input`]) outside every `bvand` with a numeral:
/// a masked input (`rd & 255`, a narrow integer type's value) is bounded by its mask.
fn opaque_unmasked(t: &impl Ast) -> bool {
    opaque_leaf(t, true)
}

fn opaque_leaf(t: &impl Ast, skip_masked: bool) -> bool {
    let mut found = false;
    walk_dag(t, &mut |n, name| {
        // By name: interpreted operators are named by SMT-LIB (`bvadd`, …), never like these.
        if ["rd_", "atomic_", "fn_", "undef_", "unbound_"].iter().any(|p| name.starts_with(p)) {
            found = true;
            return Walk::Stop;
        }
        let masked = skip_masked
            && n.safe_decl().is_ok_and(|d| super::kind::of(&d) == z3::DeclKind::Band)
            && n.children().iter().any(|c| c.as_bv().is_some_and(|c| c.as_u64().is_some()));
        if masked {
            Walk::Skip
        } else {
            Walk::Into
        }
    });
    found
}

/// What [`walk_dag`] does after a node.
pub(crate) enum Walk {
    /// Visit its children.
    Into,
    /// Not its children.
    Skip,
    /// Nothing more.
    Stop,
}

/// Visits `t`'s DAG, each node once, with its declaration's name (unquoted: z3 may write
/// `|rd_3#1|`; empty for a node without one).
pub(crate) fn walk_dag(t: &impl Ast, visit: &mut dyn FnMut(&z3::ast::Dynamic, &str) -> Walk) {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut todo = vec![z3::ast::Dynamic::from_ast(t)];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        let name = n.safe_decl().map(|d| d.name()).unwrap_or_default();
        match visit(&n, name.trim_start_matches('|')) {
            Walk::Into => todo.extend(n.children()),
            Walk::Skip => {}
            Walk::Stop => return,
        }
    }
}

/// The values `t` is computed from that the oracle takes as arbitrary: values read from memory
/// (`rd_L`), atomics' results (`atomic_L`), and loop variables it could not follow through their
/// loop (`loop_L_v`, `exit_L_v`, with or without `rd_`: no closed form, e.g. updated under a
/// condition on memory) — what a race's indices need of the state beyond the threads' ids and
/// the launch. A walk of the DAG, each node once.
pub(crate) fn arbitrary_inputs(t: &impl Ast) -> BTreeSet<IndexInput> {
    let mut out = BTreeSet::new();
    walk_dag(t, &mut |_, name| {
        out.extend(IndexInput::of_name(name));
        Walk::Into
    });
    out
}

/// One arbitrary value an index is computed from ([`arbitrary_inputs`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum IndexInput {
    /// The value of the read (or the atomic's result) labelled so.
    Read(Label),
    /// The variable, changed by the loop labelled so in a way the oracle does not follow.
    LoopVar(Label, String),
}

impl IndexInput {
    /// From a constant's name as [`SymExec`] makes them (`rd_12`, `rd_loop_7_pos#1`, …).
    fn of_name(name: &str) -> Option<IndexInput> {
        let name = name.split(['#', '|']).next().unwrap_or(name);
        let name = name.strip_prefix("rd_").map_or(name, |rest| {
            if rest.starts_with("loop_") || rest.starts_with("exit_") {
                rest
            } else {
                name
            }
        });
        let label_then = |rest: &str| -> Option<(Label, String)> {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let label = Label(digits.parse().ok()?);
            Some((label, rest[digits.len()..].trim_start_matches('_').to_string()))
        };
        if let Some(rest) = name.strip_prefix("loop_").or_else(|| name.strip_prefix("exit_")) {
            let (l, var) = label_then(rest)?;
            return (!var.is_empty()).then_some(IndexInput::LoopVar(l, var));
        }
        let rest = name.strip_prefix("rd_").or_else(|| name.strip_prefix("atomic_"))?;
        let (l, tail) = label_then(rest)?;
        tail.is_empty().then_some(IndexInput::Read(l))
    }
}

/// `cond ? v : old`, where `old` chooses by the negation of `cond` (`old = ¬cond ? a : b`, the
/// value before a guard that skips the rest of a function after its early return): then
/// `¬cond ? a : v`, exactly — `b` is unreachable. Without it the uninitialized result slot behind
/// `b` would stay in the term, and an index computed from it would count as opaque.
fn choose(cond: &Bool, v: &BV, old: &BV) -> BV {
    use z3::DeclKind;
    if let Ok(decl) = old.safe_decl() {
        if super::kind::of(&decl) == DeclKind::Ite {
            if let [oc, a, _] = old.children().as_slice() {
                if let (Some(oc), Some(a)) = (oc.as_bool(), a.as_bv()) {
                    let (c, oc) = (flag_test(&cond.simplify()), flag_test(&oc.simplify()));
                    if c.not().simplify().ast_eq(&oc) || oc.not().simplify().ast_eq(&c) {
                        return oc.ite(&a, v);
                    }
                }
            }
        }
    }
    cond.ite(v, old)
}

/// A test of a flag set by a condition, `(d ? 1 : 0) == 0`, as the condition itself (`¬d`; `d`
/// for `== 1`), which z3's simplifier leaves as it is. Other terms unchanged.
fn flag_test(c: &Bool) -> Bool {
    use z3::DeclKind;
    let Ok(decl) = c.safe_decl() else { return c.clone() };
    let parts = c.children();
    match (super::kind::of(&decl), parts.as_slice()) {
        (DeclKind::Not, [x]) => match x.as_bool() {
            Some(x) => flag_test(&x).not().simplify(),
            None => c.clone(),
        },
        (DeclKind::Eq, [l, r]) => {
            let (Some(l), Some(k)) = (l.as_bv(), r.as_bv().and_then(|r| r.as_u64())) else {
                return c.clone();
            };
            let Ok(ld) = l.safe_decl() else { return c.clone() };
            match (super::kind::of(&ld), l.children().as_slice()) {
                (DeclKind::Ite, [d, a, b]) => {
                    let (Some(d), Some(a), Some(b)) =
                        (d.as_bool(), a.as_bv().and_then(|a| a.as_u64()), b.as_bv().and_then(|b| b.as_u64()))
                    else {
                        return c.clone();
                    };
                    match (a == k, b == k) {
                        (true, false) => flag_test(&d.simplify()),
                        (false, true) => flag_test(&d.simplify()).not().simplify(),
                        (false, false) => Bool::from_bool(false),
                        (true, true) => Bool::from_bool(true),
                    }
                }
                _ => c.clone(),
            }
        }
        _ => c.clone(),
    }
}

/// An exclusive upper bound (unsigned) of `t` that its outermost operation guarantees whatever
/// its operands: `x urem c` is below `c`, `x & m` at most `m`.
fn below(t: &BV) -> Option<u64> {
    use z3::DeclKind;
    let decl = t.safe_decl().ok()?;
    let kids: Vec<BV> = t.children().iter().filter_map(|c| c.as_bv()).collect();
    match (super::kind::of(&decl), kids.as_slice()) {
        (DeclKind::Burem | DeclKind::BuremI, [_, c]) => c.as_u64().filter(|c| *c > 0),
        (DeclKind::Band, ks) => ks.iter().filter_map(|k| k.as_u64()).min().map(|m| m + 1),
        _ => None,
    }
}

/// Whether `t` has one of `terms` as a subterm. A walk of the DAG, each node once.
fn mentions_any(t: &BV, terms: &[BV]) -> bool {
    if terms.is_empty() {
        return false;
    }
    let terms: Vec<z3::ast::Dynamic> = terms.iter().map(|t| z3::ast::Dynamic::from_ast(t)).collect();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut todo = vec![z3::ast::Dynamic::from_ast(t)];
    while let Some(n) = todo.pop() {
        if terms.contains(&n) {
            return true;
        }
        if seen.insert(n.clone()) {
            todo.extend(n.children());
        }
    }
    false
}

/// A rotated variable at the start of iteration `k`: the entry value of the member `k mod len`
/// ahead. `None` without entry values or for lengths not powers of two (`k mod 3` timed out).
fn rotation_value(r: &Rotation, entry: &HashMap<String, BV>, k: &BV) -> Option<BV> {
    let len = r.cycle.len();
    if !len.is_power_of_two() {
        return None;
    }
    let phase = k.bvand(BV::from_u64(len as u64 - 1, W));
    let mut v = entry.get(r.source(len - 1))?.clone();
    for j in (0..len - 1).rev() {
        v = phase.eq(BV::from_u64(j as u64, W)).ite(entry.get(r.source(j))?, &v);
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbitrary_inputs_are_named_by_their_statements() {
        let name = |n: &str| BV::new_const(n, W);
        let t =
            name("rd_12").bvadd(name("rd_loop_7_pos#1")).bvadd(name("exit_9_j")).bvadd(name("atomic_3#2"));
        let t = t.bvadd(name("tid_x")).bvadd(name("loop_5")).bvadd(name("rd_12x"));
        let got: Vec<IndexInput> = arbitrary_inputs(&t).into_iter().collect();
        assert_eq!(
            got,
            vec![
                IndexInput::Read(Label(3)),
                IndexInput::Read(Label(12)),
                IndexInput::LoopVar(Label(7), "pos".into()),
                IndexInput::LoopVar(Label(9), "j".into()),
            ]
        );
    }

    #[test]
    fn quotient_and_remainder_by_the_dimension_recombine() {
        let x = BV::new_const("x", W);
        let c = |v: u64| BV::from_u64(v, W);
        let r = recombined(&x.bvsdiv(c(14)), 14, &x.bvsrem(c(14)));
        assert!(r.is_some_and(|r| r.ast_eq(&x)));
        let r = recombined(&x.bvudiv(c(8)), 8, &x.bvurem(c(8)));
        assert!(r.is_some_and(|r| r.ast_eq(&x)));
        // Another dimension, mixed signedness or different dividends: no rewrite.
        assert!(recombined(&x.bvsdiv(c(14)), 16, &x.bvsrem(c(14))).is_none());
        assert!(recombined(&x.bvsdiv(c(14)), 14, &x.bvurem(c(14))).is_none());
        let y = BV::new_const("y", W);
        assert!(recombined(&x.bvsdiv(c(14)), 14, &y.bvsrem(c(14))).is_none());
        assert!(recombined(&x, 14, &y).is_none());
    }
}
