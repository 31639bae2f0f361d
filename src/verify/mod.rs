//! The verifier oracle: which statement pairs may race and which barriers may diverge.
//!
//! [`Z3Oracle`] is the embedded, z3-backed implementation of [`Oracle`]. For every pair of
//! accesses to one array (at least one a write, not both atomic) and every [`Case`] of how their
//! dynamic instances can meet, it asks z3 whether two distinct threads of a block can perform
//! them at the same element; a case counts only when no barrier of the kernel separates it
//! (a syntactic check over the label tree, exact under SDV). Global arrays are also checked for
//! threads of different blocks (grid scope: no barrier helps).
//!
//! Soundness: every race of a feasible SDV trace is reported (the symbolic execution
//! over-approximates, see `symbolic`); an SMT `unknown` or timeout is reported as a possible race
//! or divergence, never dropped. SMT answers depend only on the kernel without its barriers, so
//! they are cached across checks of the same kernel with different barrier placements: the
//! synthesis loop's re-checks cost only the cases its new barriers leave unseparated.
//!
//! Determinism: the same kernel gets the same verdict and witnesses in every run. z3 numbers
//! terms in the order they are made and its models follow that numbering, so every map this
//! module iterates while making terms hashes with `FxHash` (no per-process seed); with the
//! standard library's seeded maps `check` printed other witnesses, and under `fix` other
//! placements, from run to run.

mod abstraction;
pub mod atomics;
mod bounds;
mod budget;
pub mod cases;
mod congruence;
mod evaluate;
mod grid;
mod kind;
pub mod launch;
mod loops;
mod named;
mod own;
pub mod pow2;
pub mod prefilter;
mod query;
pub mod refine;
pub mod shape;
pub mod symbolic;
pub mod uniform;
pub mod verdict;
pub mod word;
pub mod wrap;

pub use cases::{Case, Relation};
pub use named::NamedProblem;
pub use verdict::*;

use crate::kpl::{Geometry, Kernel, Label, LabelTree, NodeKind, Space, StmtKind, WriteMode};
use budget::Limits;
use launch::{Launch, ThreadIds};
use loops::{loops_around_reads, loops_with_barriers};
use query::{disagreeing, mark_wrap, meeting, query, query_probing};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use symbolic::{SymExec, ThreadTrace, W};
use uniform::Uniformity;
use z3::ast::{Ast, Bool, BV};
use z3::{Params, Solver};

/// Counters of an oracle's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OracleStats {
    /// Calls of `check`.
    pub checks: u64,
    pub smt_queries: u64,
    /// Case answers served from the cache.
    pub cache_hits: u64,
    /// Access pairs the pre-filter proved apart without a query (`prefilter`).
    pub prefiltered: u64,
    /// z3's resource units the kernel's queries spent (counted when a work budget is set).
    pub solver_work: u64,
}

/// A verifier: reports races and divergent barriers of a kernel, soundly.
pub trait Oracle {
    fn check(&mut self, kernel: &Kernel) -> Verdict;
    /// [`Oracle::check`] for a synthesis loop, which needs every race only once barriers separate
    /// all it was told of: the verdict may leave out a block-scope race case when it reports a
    /// decided, non-benign race case whose (non-empty) separating positions are among the left-out case's
    /// (a barrier that separates the reported case separates the left-out one too). It leaves
    /// nothing out when it reports no such race, so a verdict without block races is the full
    /// verdict of [`Oracle::check`]. Likewise, a verdict with a block race may come from reads
    /// assumed uniform that race (not retracted as [`Oracle::check`] does).
    fn check_for_synthesis(&mut self, kernel: &Kernel) -> Verdict {
        self.check(kernel)
    }
    /// Blocks (if, else, while) whose threads may disagree on entering them, confirmed by the
    /// solver (a barrier anywhere inside them diverges).
    fn varying_blocks(&mut self, kernel: &Kernel) -> BTreeSet<Label> {
        let candidates = self.varying_candidates(kernel);
        self.varying_among(kernel, &candidates)
    }
    /// The blocks whose entering may depend on the thread by the syntactic uniformity analysis
    /// alone (no solver call): a superset of [`Oracle::varying_blocks`].
    fn varying_candidates(&mut self, kernel: &Kernel) -> BTreeSet<Label>;
    /// Those of `blocks` that [`Oracle::varying_blocks`] holds: for a caller that needs the
    /// answer for a few blocks only.
    fn varying_among(&mut self, kernel: &Kernel, blocks: &BTreeSet<Label>) -> BTreeSet<Label>;
    /// `if`/`else` blocks that every thread executing the enclosing block enters (at the same
    /// iterations), proven by the solver — like `if (tid.x < 32)` in a block of 32 threads or
    /// fewer. A barrier directly inside one runs whenever the enclosing block runs. A hint for
    /// synthesis: the final placement is verified by [`Oracle::check`] regardless. Only the
    /// blocks `among` are asked about.
    fn entered_blocks(&mut self, kernel: &Kernel, among: &BTreeSet<Label>) -> BTreeSet<Label>;
    fn stats(&self) -> OracleStats;
}

/// Options of the embedded oracle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OracleOptions {
    /// The launch geometry to verify for (fields left `None` are symbolic).
    pub geometry: Geometry,
    /// Per-query timeout in milliseconds (0: none).
    pub timeout_ms: u32,
    /// Benign write-write races count as races.
    pub strict: bool,
    /// Leave every symbolic dimension free (no launch-shape inference, `shape`).
    pub all_dims: bool,
    /// Check executions whose index arithmetic wraps around 2^32 (`--wrap`; by default they are
    /// assumed away: docs/semantics.md, "Integer model").
    pub wrap: bool,
    /// The wall time the oracle may spend, counted from its creation (`None`: no limit). Past it,
    /// every query not yet answered is undecided ("the verifier ran out of its budget"), which
    /// reports it as a possible race or divergence: sound, and the oracle never runs long.
    pub budget: Option<std::time::Duration>,
    /// The solver work the oracle may spend, in z3's resource units (0: no limit): the budget
    /// that decides a verdict, the same in every run (`budget`'s wall time is the safety net
    /// above it). Past it, what is not decided is undecided, as with `budget`.
    pub work_units: u64,
    /// The solver work one query may spend (0: no limit; `timeout_ms` is the net above it).
    pub query_units: u64,
}

impl OracleOptions {
    /// The launch shape the oracle verifies `kernel` for ([`shape::LaunchShape::infer`]).
    pub fn shape_of(&self, kernel: &Kernel) -> shape::LaunchShape {
        shape::LaunchShape::infer(kernel, &self.geometry, self.all_dims)
    }
}

/// The embedded z3 oracle. Not `Send`: z3 terms live in the creating thread's context.
pub struct Z3Oracle {
    opts: OracleOptions,
    /// When the budget runs out (from `opts.budget`).
    deadline: Option<std::time::Instant>,
    /// The solver work spent and left (from `opts.work_units` and `opts.query_units`).
    work: budget::Work,
    analyses: HashMap<u64, Analysis>,
    stats: OracleStats,
    /// Ask the interval pre-filter before SMT (`prefilter`); off only to test that it changes
    /// no verdict.
    prefilter: bool,
}

// One answer per query, moved into a `RaceCase` at once and never stored in bulk: boxing the
// witness would only add an allocation per race found.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Outcome {
    None,
    Race { witness: Witness, benign: bool },
    Unknown(String),
}

/// The solver state for one barrier-free kernel and one set of reads assumed uniform.
struct Analysis {
    kernel: Kernel,
    /// The loops holding a barrier (block or warp) in the kernel analysed (`loops_with_barriers`).
    barrier_loops: BTreeSet<Label>,
    /// The counter arrays whose atomics return distinct values (`atomics::counters`).
    counters: BTreeSet<String>,
    uniformity: Uniformity,
    launch: Launch,
    block: Mode,
    /// The grid mode and its pre-filter ranges, made on the first grid question.
    grid: Option<(Mode, prefilter::Ranges)>,
    /// Case answers, keyed by the case and the barrier refinements its query used.
    case_results: HashMap<(Case, Vec<refine::RefineKey>), Outcome>,
    /// Whether two accesses can meet at all: asked of the solver for a pair with several cases,
    /// or `false` from the pre-filter ([`Z3Oracle::apart`]).
    pair_possible: HashMap<(Label, Label), bool>,
    /// Pairs the pre-filter could not prove apart (it is not asked again).
    prefilter_failed: rustc_hash::FxHashSet<(Label, Label)>,
    /// The model of a pair's meeting query, when it had one: a witness for the case whose
    /// relation its iterations satisfy (`witness_in_case`).
    /// With it, whether that model satisfies both accesses' no-wrap conditions.
    meet_witness: HashMap<(Label, Label), (Witness, bool)>,
    /// The warp-collective stores (`warp wr`) of the kernel: an instance of one by the lanes of
    /// one warp is one store.
    warp_stores: BTreeSet<Label>,
    /// The mode whose two threads are one, made on the first question about a thread and its
    /// own asynchronous copies (`own.rs`), and its answers per case.
    own: Option<Mode>,
    own_results: HashMap<Case, Outcome>,
    /// Grid-scope answers, per pair and question (`grid.rs`).
    grid_results: HashMap<(Label, Label, grid::GridQuestion), Outcome>,
    /// Whether two threads of different blocks can disagree on entering a block (`grid.rs`).
    grid_divergence: HashMap<Label, Outcome>,
    /// Value ranges of the block mode's terms, for the pre-filter.
    ranges: prefilter::Ranges,
    block_divergence: HashMap<Label, Outcome>,
    /// The out-of-bounds findings of the analysed kernel (`bounds.rs`), made on the first check
    /// that asks: barriers do not change them.
    out_of_bounds: Option<(Vec<OutOfBounds>, usize)>,
    /// Like `block_divergence`, for two threads of one `syncwarp` warp.
    warp_divergence: HashMap<Label, Outcome>,
    /// The named barriers' problems (`named.rs`) and how many are undecided, made on the first
    /// check: barriers do not change them.
    named: Option<(Vec<Divergence>, usize)>,
}

/// Two threads, their traces and a solver holding the launch and thread facts.
struct Mode {
    ids: [ThreadIds; 2],
    traces: [ThreadTrace; 2],
    solver: Solver,
    /// What `solver` holds at its base (launch, thread and counter facts).
    base_facts: Vec<Bool>,
    /// A second solver with `base_facts` and the first-iteration probe's resource budget, made on
    /// the first probe (`query::query_probing`). Its own solver because changing a solver's
    /// parameters for each probe and back cost more than the probes (z3 re-reads every parameter
    /// of the solver on each change: 45 % of the nested-loop family's time).
    probe_solver: std::cell::OnceCell<Solver>,
    /// `base_facts` with their nonlinear operations abstracted, and a solver holding them under
    /// the abstract attempt's resource budget, made on the first query (`abstraction.rs`).
    abstract_solver: std::cell::OnceCell<(std::cell::RefCell<abstraction::Abstraction>, Solver)>,
    /// The launch facts and thread 1's facts alone (no second thread), for questions about one
    /// thread (`bounds.rs`).
    single_facts: Vec<Bool>,
    /// A solver holding `single_facts`, made on the first such question.
    single_solver: std::cell::OnceCell<Solver>,
    /// Under `--warp-sync=W` (block scope only): the two threads are in one warp.
    same_warp: Option<Bool>,
    /// Block scope only: the two threads are in one warp of the size `syncwarp` synchronizes
    /// ([`Kernel::syncwarp_width`]: the `--warp-sync` size, else 32).
    syncwarp_mates: Option<Bool>,
    /// The per-query time limit and the oracle's deadline.
    limits: Limits,
    /// The kernel's scalar parameters as the query's constants (for the witness's values).
    params: Vec<(String, BV)>,
    /// `symbolic::strided_lemmas` of the two traces, by loop: asserted per query, for the loops
    /// around both of its statements (as base facts, every query would carry every loop's
    /// counter equations and their multipliers).
    strided_lemmas: Vec<(Label, Bool)>,
}

impl Z3Oracle {
    pub fn new(opts: OracleOptions) -> Z3Oracle {
        let deadline = opts.budget.map(|b| std::time::Instant::now() + b);
        let work = budget::Work::new(opts.work_units, opts.query_units);
        Z3Oracle {
            opts,
            deadline,
            work,
            analyses: HashMap::default(),
            stats: OracleStats::default(),
            prefilter: true,
        }
    }

    /// Whether the budget ran out: some answer of this oracle may be undecided for lack of time.
    pub fn out_of_budget(&self) -> bool {
        self.work.spent() || self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// Whether the work budget ran out (rather than the wall-clock safety net).
    pub fn out_of_work(&self) -> bool {
        self.work.spent()
    }

    /// The same oracle without the pre-filter: every pair is asked of the solver. For tests that
    /// hold the pre-filter to changing no verdict.
    pub fn without_prefilter(mut self) -> Z3Oracle {
        self.prefilter = false;
        self
    }

    fn analysis_key(
        kernel: &Kernel,
        assumed: &BTreeSet<Label>,
        barrier_loops: &BTreeSet<Label>,
        counters: &BTreeSet<String>,
    ) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            kernel.body, kernel.arrays, kernel.params, assumed, barrier_loops, counters
        )
        .hash(&mut h);
        h.finish()
    }

    /// The counter arrays of `kernel` (with its barriers) whose atomics return distinct values
    /// (`atomics`), none when wrapping index arithmetic is checked (`--wrap`).
    fn counters(&self, kernel: &Kernel) -> BTreeSet<String> {
        if !self.opts.wrap {
            atomics::counters(kernel)
        } else {
            BTreeSet::new()
        }
    }

    /// The analysis of `kernel` — of `stripped`, its barriers removed (they are the queries'
    /// business, so one analysis serves many placements), knowing only which loops hold one —
    /// under the reads `assumed` uniform.
    fn analysis(
        &mut self,
        kernel: &Kernel,
        stripped: &Kernel,
        assumed: &BTreeSet<Label>,
        counters: &BTreeSet<String>,
    ) -> u64 {
        // Only the loops around a read assumed uniform change the analysis (`read_value`): keying
        // on them alone lets one analysis serve every placement that differs elsewhere (keyed on
        // all barrier loops, synthesis rebuilt it for nearly every candidate: 2-3x the CPU).
        let barrier_loops = &loops_with_barriers(kernel)
            .intersection(&loops_around_reads(stripped, assumed))
            .copied()
            .collect();
        let key = Self::analysis_key(stripped, assumed, barrier_loops, counters);
        if !self.analyses.contains_key(&key) {
            let uniformity = Uniformity::analyze(stripped, assumed);
            let launch = Launch::new(&self.opts.geometry, &self.opts.shape_of(stripped));
            let warp = self.opts.geometry.warp_sync;
            let limits = Limits::new(
                self.opts.timeout_ms,
                self.deadline,
                self.opts.budget,
                &self.work,
                &stripped.name,
            );
            let block = make_mode(
                stripped,
                &uniformity,
                assumed,
                barrier_loops,
                counters,
                &launch,
                Pairing::Block,
                limits,
                warp,
                &mut self.stats,
            );
            let ranges = block.ranges(&launch, &self.opts.geometry);
            self.analyses.insert(
                key,
                Analysis {
                    kernel: stripped.clone(),
                    barrier_loops: barrier_loops.clone(),
                    counters: counters.clone(),
                    uniformity,
                    launch,
                    block,
                    grid: None,
                    case_results: HashMap::default(),
                    pair_possible: HashMap::default(),
                    prefilter_failed: Default::default(),
                    meet_witness: HashMap::default(),
                    warp_stores: stripped
                        .labels_of(|k| matches!(k, StmtKind::Write { mode: WriteMode::Warp, .. }))
                        .into_iter()
                        .collect(),
                    own: None,
                    own_results: HashMap::default(),
                    grid_results: HashMap::default(),
                    grid_divergence: HashMap::default(),
                    ranges,
                    block_divergence: HashMap::default(),
                    out_of_bounds: None,
                    warp_divergence: HashMap::default(),
                    named: None,
                },
            );
        }
        key
    }

    /// The reads whose values the oracle may treat as uniform: those with a uniform address,
    /// given that the reads assumed uniform are. This is the *greatest* fixed point below
    /// `within` (all reads when `None`): start by assuming every read uniform and drop reads
    /// until the assumption is self-consistent. Sound by induction over an SDV trace (see
    /// docs/semantics.md): the first assumed read to yield different values in two threads that
    /// execute it at the same iterations of its loops does so in one barrier interval at one
    /// address, so some write in that interval races with it — which the oracle reports,
    /// retracting the assumption. (A least fixed point from the empty set could not bootstrap a
    /// loop bound re-read in the loop: the loop is uniform only if the read is, and the read is a
    /// candidate only if the loop is uniform.)
    fn uniform_read_candidates(k: &Kernel, within: Option<&BTreeSet<Label>>) -> BTreeSet<Label> {
        let mut assumed: BTreeSet<Label> = match within {
            Some(w) => w.clone(),
            None => {
                let mut all = BTreeSet::new();
                k.walk(&mut |s| {
                    if matches!(s.kind, StmtKind::Read { .. }) {
                        all.insert(s.label);
                    }
                });
                all
            }
        };
        loop {
            let next: BTreeSet<Label> = Uniformity::analyze(k, &assumed)
                .uniform_read_candidates
                .intersection(&assumed)
                .copied()
                .collect();
            if next == assumed {
                return assumed;
            }
            assumed = next;
        }
    }
}

/// Which two threads a mode's queries are about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pairing {
    /// Two distinct threads of one block.
    Block,
    /// Threads of two different blocks.
    Grid,
    /// One thread, twice (its own asynchronous copies: `own.rs`).
    OneThread,
}

#[allow(clippy::too_many_arguments)]
fn make_mode(
    k: &Kernel,
    u: &Uniformity,
    assumed: &BTreeSet<Label>,
    barrier_loops: &BTreeSet<Label>,
    counters: &BTreeSet<String>,
    launch: &Launch,
    pairing: Pairing,
    limits: Limits,
    warp_sync: Option<u32>,
    stats: &mut OracleStats,
) -> Mode {
    let grid = pairing == Pairing::Grid;
    let mut facts: Vec<Bool> = launch.facts.clone();
    let id1 = ThreadIds::new(1, None, launch, &mut facts);
    // What a question about thread 1 alone may assume (`bounds.rs`): not that a second thread
    // exists, which a block of one thread contradicts.
    let mut single_facts = facts.clone();
    single_facts.extend(launch::grid_size_facts(&id1, launch));
    if launch.x_id_fits {
        single_facts.extend(launch::x_global_id_fits(&id1, launch));
    }
    let id2 = ThreadIds::new(2, if grid { None } else { Some(&id1.bid) }, launch, &mut facts);
    let same = |a: &[BV; 3], b: &[BV; 3]| Bool::and(&[&a[0].eq(&b[0]), &a[1].eq(&b[1]), &a[2].eq(&b[2])]);
    facts.extend(launch::grid_size_facts(&id1, launch));
    facts.extend(launch::grid_size_facts(&id2, launch));
    if launch.x_id_fits {
        facts.extend(launch::x_global_id_fits(&id1, launch));
        facts.extend(launch::x_global_id_fits(&id2, launch));
    }
    if grid {
        facts.push(same(&id1.bid, &id2.bid).not());
        facts.extend(launch::global_id_facts([&id1, &id2], launch));
    } else if pairing == Pairing::OneThread {
        facts.push(same(&id1.tid, &id2.tid));
    } else {
        facts.push(same(&id1.tid, &id2.tid).not());
        // A redundant fact: distinct threads have distinct linear ids (no wrap: a block has at
        // most 1024 threads). It spares the solver the nonlinear argument for the common
        // `tid.y * bdim.x + tid.x` index under a symbolic block size.
        facts.push(
            launch::linear_tid(&id1.tid, &launch.block_dim)
                .eq(launch::linear_tid(&id2.tid, &launch.block_dim))
                .not(),
        );
    }
    let params: HashMap<String, BV> =
        k.params.iter().map(|p| (p.clone(), BV::new_const(format!("param_{p}"), W))).collect();
    let t1 = SymExec::run(k, u, assumed, barrier_loops, 1, &id1, launch, &params, !grid);
    let t2 = SymExec::run(k, u, assumed, barrier_loops, 2, &id2, launch, &params, !grid);
    single_facts.extend(t1.facts.iter().cloned());
    let mut base_facts: Vec<Bool> = facts.iter().chain(&t1.facts).chain(&t2.facts).cloned().collect();
    let solver = new_solver(&base_facts, limits.timeout_ms, 0);
    // Counters advanced by variable amounts count only when every amount is proven non-negative.
    let unproven = atomics::unproven_steps(k, counters, &t1, &solver, &limits, stats);
    let counters: BTreeSet<String> = counters.difference(&unproven).cloned().collect();
    for f in atomics::distinct_results(k, &counters, [&t1, &t2], grid) {
        solver.assert(&f);
        base_facts.push(f);
    }
    let strided_lemmas = symbolic::strided_lemmas(&t1, &t2);
    // Warp membership by the linear thread id x + y·bx + z·bx·by (docs/semantics.md).
    let in_one_warp = |w: u32| {
        let linear = |t: &[BV; 3]| launch::linear_tid(t, &launch.block_dim);
        let w = BV::from_u64(u64::from(w), W);
        linear(&id1.tid).bvudiv(&w).eq(linear(&id2.tid).bvudiv(&w))
    };
    let same_warp = warp_sync.filter(|w| *w > 0 && !grid).map(in_one_warp);
    let syncwarp_mates =
        (!grid).then(|| in_one_warp(Kernel::syncwarp_width(&Geometry { warp_sync, ..Geometry::default() })));
    let mut params: Vec<(String, BV)> = params.into_iter().collect();
    params.sort_by(|a, b| a.0.cmp(&b.0));
    Mode {
        ids: [id1, id2],
        traces: [t1, t2],
        solver,
        base_facts,
        probe_solver: std::cell::OnceCell::new(),
        abstract_solver: std::cell::OnceCell::new(),
        single_facts,
        single_solver: std::cell::OnceCell::new(),
        same_warp,
        syncwarp_mates,
        limits,
        params,
        strided_lemmas,
    }
}

/// A solver holding `facts`, with the house's fixed seed, the per-query time limit `timeout_ms`
/// and the resource budget `rlimit` per check (0: none for either).
fn new_solver(facts: &[Bool], timeout_ms: u32, rlimit: u32) -> Solver {
    // The queries are bit-vectors with uninterpreted functions (the values arrays hold). Naming
    // the logic spares z3 the general solver's set-up for unknown logics and gives its SMT core
    // the bit-vector configuration: a kernel's fixed cost (solver set-up, bit-blasting the
    // launch facts) fell from about 80 to 35 ms, the applications corpus's `check` time by 40 %.
    let solver = Solver::new_for_logic("QF_UFBV").unwrap_or_default();
    // A fixed seed: the same input asks the same queries and gets the same models (witnesses),
    // whatever else runs on the machine (only a timeout itself depends on the load).
    let mut p = Params::new();
    p.set_u32("random_seed", 0);
    if timeout_ms > 0 {
        p.set_u32("timeout", timeout_ms);
    }
    if rlimit > 0 {
        p.set_u32("rlimit", rlimit);
    }
    solver.set_params(&p);
    for f in facts {
        solver.assert(f);
    }
    solver
}

/// The accesses of a kernel in program order: (label, array, kind, space).
/// Every access of `k` that another thread may reach, in program order: label, array, kind,
/// space and width.
fn accesses(k: &Kernel, tree: &LabelTree) -> Vec<(Label, String, AccessKind, Space, u32)> {
    let mut out = Vec::new();
    k.walk(&mut |s| {
        let kind = match &s.kind {
            StmtKind::Read { .. } => AccessKind::Read,
            StmtKind::Write { .. } => AccessKind::Write,
            StmtKind::Atomic { .. } => AccessKind::Atomic,
            _ => return,
        };
        if let Some((array, index, ..)) = s.access() {
            // A thread's own row of a thread-local C array: no other thread reaches it in a
            // defined program (an index past the row is undefined behaviour), so it races with
            // nothing — not even when the solver cannot bound the index.
            if k.array(array).is_some_and(|a| a.is_thread_row(index)) {
                return;
            }
            let space = k.array(array).map(|a| a.space).unwrap_or(Space::Global);
            out.push((s.label, array.to_string(), kind, space, s.width().get()));
        }
    });
    out.sort_by_key(|(l, ..)| tree.order(*l));
    out
}

/// Whether a witness of two threads meeting (thread 1 performing `a`) has the iterations `case`
/// requires of the `shared` loops — the relation `Analysis::relation` asserts. Missing
/// iterations count as not satisfying it.
fn witness_in_case(w: &Witness, case: &Case, a: Label, shared: &[Label]) -> bool {
    let it = |i: usize, l: Label| w.threads[i].iterations.iter().find(|(x, _)| *x == l).map(|(_, k)| *k);
    let upto = match case.relation {
        Relation::SameIteration => shared.len(),
        Relation::Carried { shared_loop, .. } => shared.iter().position(|l| *l == shared_loop).unwrap_or(0),
    };
    let outer_equal =
        shared[..upto].iter().all(|l| matches!((it(0, *l), it(1, *l)), (Some(x), Some(y)) if x == y));
    // The copy's iteration of its counted loop, where the case names one.
    let first_thread = if case.first == a { 0 } else { 1 };
    let at_iteration =
        case.first_iteration.is_none_or(|(l, i)| it(first_thread, l).is_some_and(|k| k == u64::from(i)));
    let second_thread = 1 - first_thread;
    let in_iteration = case.second_iteration.is_none_or(|(l, c, or_more)| {
        it(second_thread, l).is_some_and(|k| if or_more { k >= u64::from(c) } else { k == u64::from(c) })
    });
    if !at_iteration || !in_iteration {
        return false;
    }
    match case.relation {
        Relation::SameIteration => outer_equal,
        Relation::Carried { shared_loop, gap, or_more } => {
            let (Some(x), Some(y)) = (it(0, shared_loop), it(1, shared_loop)) else { return false };
            let (early, late) = if case.first == a { (x, y) } else { (y, x) };
            let apart = late.checked_sub(early);
            outer_equal
                && early < late
                && apart.is_some_and(|d| if or_more { d >= u64::from(gap) } else { d == u64::from(gap) })
        }
    }
}

/// Whether two accesses (kind, width) can race: not two reads, and not two atomics of one
/// element each (atomic with each other). Two wider atomics race where they overlap without being
/// the same elements (`query::meeting` asks for that), as do atomics of different widths.
fn conflicting((a, wa): (AccessKind, u32), (b, wb): (AccessKind, u32)) -> bool {
    match (a, b) {
        (AccessKind::Read, AccessKind::Read) => false,
        (AccessKind::Atomic, AccessKind::Atomic) => wa != wb || wa > 1,
        _ => true,
    }
}

fn strip_barriers(k: &Kernel) -> Kernel {
    let mut s = k.clone();
    let all = s.barriers();
    s.remove_barriers(&all);
    s
}

impl Mode {
    /// The pre-filter's value ranges of this mode's terms (its thread ids and loop counters).
    fn ranges(&self, launch: &Launch, geometry: &Geometry) -> prefilter::Ranges {
        prefilter::Ranges::new(launch, geometry, &[&self.ids[0], &self.ids[1]])
            .with_loops(&self.traces[0])
            .with_loops(&self.traces[1])
    }
}

/// The relation constraints of a case for thread 1 (of `traces`) doing `a` and thread 2 doing
/// `b`.
fn relation(traces: &[ThreadTrace; 2], case: &Case, a: Label, b: Label, shared: &[Label]) -> Vec<Bool> {
    let t1 = traces[0].accesses.get(&a);
    let t2 = traces[1].accesses.get(&b);
    let (Some(t1), Some(t2)) = (t1, t2) else { return vec![Bool::from_bool(false)] };
    let kv =
        |acc: &symbolic::AccessSym, l: Label| acc.loops.iter().find(|(x, _)| *x == l).map(|(_, k)| k.clone());
    let mut out = Vec::new();
    let upto = match case.relation {
        Relation::SameIteration => shared.len(),
        Relation::Carried { shared_loop, .. } => shared.iter().position(|l| *l == shared_loop).unwrap_or(0),
    };
    for l in &shared[..upto] {
        if let (Some(x), Some(y)) = (kv(t1, *l), kv(t2, *l)) {
            out.push(x.eq(&y));
        }
    }
    if let Some((l, i)) = case.first_iteration {
        // Thread 1 performs `a`: the first access is thread 1's when it is `a`.
        let first = if case.first == a { t1 } else { t2 };
        if let Some(k) = kv(first, l) {
            out.push(k.eq(BV::from_u64(u64::from(i), W)));
        }
    }
    if let Some((l, c, or_more)) = case.second_iteration {
        let second = if case.first == a { t2 } else { t1 };
        if let Some(k) = kv(second, l) {
            let c = BV::from_u64(u64::from(c), W);
            out.push(if or_more { k.bvuge(&c) } else { k.eq(&c) });
        }
    }
    if let Relation::Carried { shared_loop, gap, or_more } = case.relation {
        if let (Some(x), Some(y)) = (kv(t1, shared_loop), kv(t2, shared_loop)) {
            // Thread 1 performs `a`; the case says whether `a`'s instance comes first.
            let (early, late) = if case.first == a { (x, y) } else { (y, x) };
            out.push(early.bvult(&late));
            let gap = BV::from_u64(u64::from(gap), W);
            if or_more {
                out.push(late.bvsub(&early).bvuge(&gap));
            } else {
                out.push(early.bvadd(&gap).eq(&late));
            }
        }
    }
    out
}

impl Analysis {
    /// Under `--warp-sync`: a condition under which the warp re-synchronizes between the two
    /// accesses of a case: both threads execute one statement instance at or after the first
    /// access and before the second, as docs/semantics.md requires. Two sound instances of that
    /// rule, tried in order:
    ///
    /// 1. `first` sits directly (under no conditional) in the body of a block `C` that also holds
    ///    `second`: the kernel body or a loop shared by both for same-iteration cases, the carrying
    ///    loop for carried cases. The thread performing `second` runs the same iteration of `C` or
    ///    a later one, and so executes `first`'s very instance too. The condition is that both
    ///    threads are in one warp.
    /// 2. Same-iteration cases with thread 1 performing `first` (`a`): both in one warp and thread
    ///    2's symbolic predicate of `a`, at thread 1's iterations, holds. Only where that predicate
    ///    is exact: `a` in no loop whose guard may differ between threads.
    ///
    /// `None` when neither applies (and always for a statement instance meeting itself).
    fn warp_separation(&self, tree: &LabelTree, case: &Case, a: Label, b: Label) -> Option<Bool> {
        let same_warp = self.block.same_warp.as_ref()?;
        let first = case.first;
        // Executing a statement together does not land a copy in flight.
        if case.first_is_async_copy(tree) {
            return None;
        }
        let same_instance = a == b && case.relation == Relation::SameIteration;
        if same_instance {
            return None;
        }
        let second = if first == a { b } else { a };
        if let Some(&c) = tree.blks(first).last() {
            let runs_first = match case.relation {
                // Every shared loop is at the same iteration: `C` must be one of them, or the body.
                Relation::SameIteration => {
                    matches!(tree.kind(c), Some(NodeKind::Main | NodeKind::While))
                        && (c == Label::MAIN || tree.is_inside(second, c))
                }
                // Loops inside the carrying loop may run a different number of iterations.
                Relation::Carried { shared_loop, .. } => c == shared_loop,
            };
            if runs_first {
                return Some(same_warp.clone());
            }
        }
        if case.relation != Relation::SameIteration || first != a {
            return None;
        }
        if tree.loops(a).iter().any(|l| self.uniformity.varying_guards.contains(l)) {
            return None;
        }
        let s1 = self.block.traces[0].accesses.get(&a)?;
        let s2 = self.block.traces[1].accesses.get(&a)?;
        let subst: Vec<(&BV, &BV)> =
            s2.loops.iter().zip(s1.loops.iter()).map(|((_, k2), (_, k1))| (k2, k1)).collect();
        let enabled2 = s2.enabled.substitute(&subst);
        Some(Bool::and(&[same_warp, &enabled2]))
    }
}

impl Oracle for Z3Oracle {
    fn check(&mut self, kernel: &Kernel) -> Verdict {
        self.check_with(kernel, false)
    }

    fn check_for_synthesis(&mut self, kernel: &Kernel) -> Verdict {
        self.check_with(kernel, true)
    }

    fn varying_candidates(&mut self, kernel: &Kernel) -> BTreeSet<Label> {
        let key = self.first_analysis(kernel);
        self.analyses[&key].uniformity.varying_blocks.clone()
    }

    fn varying_among(&mut self, kernel: &Kernel, blocks: &BTreeSet<Label>) -> BTreeSet<Label> {
        let key = self.first_analysis(kernel);
        let candidates: Vec<Label> =
            self.analyses[&key].uniformity.varying_blocks.intersection(blocks).copied().collect();
        candidates
            .into_iter()
            .filter(|b| !matches!(self.block_divergence(key, *b, false), Outcome::None))
            .collect()
    }

    fn entered_blocks(&mut self, kernel: &Kernel, among: &BTreeSet<Label>) -> BTreeSet<Label> {
        let key = self.first_analysis(kernel);
        let tree = LabelTree::new(kernel);
        let mut out = BTreeSet::new();
        let Some(an) = self.analyses.get(&key) else { return out };
        let blocks = &an.block.traces[0].blocks;
        let mut labels: Vec<Label> = blocks.keys().copied().filter(|b| among.contains(b)).collect();
        labels.sort();
        for b in labels {
            if !matches!(tree.kind(b), Some(NodeKind::If | NodeKind::Else(_))) {
                continue;
            }
            let (Some(sym), Some(parent)) = (blocks.get(&b), tree.parent(b).and_then(|p| blocks.get(&p)))
            else {
                continue;
            };
            let extra =
                [parent.enabled.clone(), parent.assume.clone(), sym.assume.clone(), sym.enabled.not()];
            let loops = [sym.loops.as_slice(), sym.loops.as_slice()];
            if matches!(query(&an.block, &an.launch, &extra, None, loops, &mut self.stats), Outcome::None) {
                out.insert(b);
            }
        }
        out
    }

    fn stats(&self) -> OracleStats {
        self.stats
    }
}

impl Z3Oracle {
    /// The analysis of `kernel` under every uniform-read candidate (the one `check` starts from).
    fn first_analysis(&mut self, kernel: &Kernel) -> u64 {
        let stripped = strip_barriers(kernel);
        let assumed = Self::uniform_read_candidates(&stripped, None);
        let counters = self.counters(kernel);
        self.analysis(kernel, &stripped, &assumed, &counters)
    }

    /// [`Oracle::check`], or [`Oracle::check_for_synthesis`] when `lazy`.
    fn check_with(&mut self, kernel: &Kernel, lazy: bool) -> Verdict {
        self.stats.checks += 1;
        let stripped = strip_barriers(kernel);
        let tree = LabelTree::new(kernel);
        // A grid barrier orders the threads of a block too: it separates block-scope cases.
        let barriers = kernel.block_separators();
        let mut assumed = Self::uniform_read_candidates(&stripped, None);
        let counters = self.counters(kernel);
        loop {
            let key = self.analysis(kernel, &stripped, &assumed, &counters);
            let verdict = self.evaluate(key, &tree, &barriers, kernel, lazy);
            let involved: BTreeSet<Label> = verdict
                .races
                .iter()
                .chain(verdict.benign.iter())
                .flat_map(|r| [r.first, r.second])
                .filter(|l| assumed.contains(l))
                .collect();
            // A synthesis check that found a block race returns it as it is: those races are
            // real under any assumption (assuming reads uniform only removes behaviours), the
            // loop goes on after separating them, and its last check has no block race, so it
            // retracts as `check` does.
            let block_race = verdict
                .races
                .iter()
                .any(|r| r.scope == Scope::Block && r.cases.iter().any(|c| c.witness.is_some() && !c.benign));
            if involved.is_empty() || (lazy && block_race) {
                let mut verdict = verdict;
                let (oob, undecided) = self.out_of_bounds(key, &tree);
                verdict.out_of_bounds = oob;
                verdict.undecided += undecided;
                return verdict;
            }
            // A racing read may see different values in different threads: stop assuming it
            // uniform, and re-check everything that depended on it.
            let remaining: BTreeSet<Label> = assumed.difference(&involved).copied().collect();
            assumed = Self::uniform_read_candidates(&stripped, Some(&remaining));
        }
    }

    /// Whether two threads of a block (`in_warp`: of one `syncwarp` warp) can disagree on
    /// entering `block` at the same iterations of its loops.
    fn block_divergence(&mut self, key: u64, block: Label, in_warp: bool) -> Outcome {
        let Some(an) = self.analyses.get_mut(&key) else { return Outcome::Unknown("internal".into()) };
        let cache = if in_warp { &an.warp_divergence } else { &an.block_divergence };
        if let Some(o) = cache.get(&block) {
            self.stats.cache_hits += 1;
            return o.clone();
        }
        let out = match (an.block.traces[0].blocks.get(&block), an.block.traces[1].blocks.get(&block)) {
            (Some(b1), Some(b2)) => {
                let mut extra = disagreeing(b1, b2);
                if in_warp {
                    match &an.block.syncwarp_mates {
                        Some(mates) => extra.push(mates.clone()),
                        None => return Outcome::Unknown("internal: no warp of a block mode".into()),
                    }
                }
                query(&an.block, &an.launch, &extra, None, [&b1.loops, &b2.loops], &mut self.stats)
            }
            _ => Outcome::None,
        };
        if in_warp {
            an.warp_divergence.insert(block, out.clone());
        } else {
            an.block_divergence.insert(block, out.clone());
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn case_outcome(
        &mut self,
        key: u64,
        tree: &LabelTree,
        a: Label,
        b: Label,
        case: &Case,
        ka: AccessKind,
        kb: AccessKind,
        refinement: (Vec<refine::RefineKey>, Vec<Bool>),
        warp_separated: bool,
    ) -> Outcome {
        let Some(an) = self.analyses.get_mut(&key) else { return Outcome::Unknown("internal".into()) };
        let (refine_keys, refine_constraints) = refinement;
        let cache_key = (*case, refine_keys);
        if let Some(o) = an.case_results.get(&cache_key) {
            self.stats.cache_hits += 1;
            return o.clone();
        }
        // Refinements only add conjuncts to the query: a case that had no race under a subset of
        // the current refinements has none now (the synthesis loop's new barriers in nested
        // blocks would otherwise re-ask cases already proven race-free).
        let proven_free = an.case_results.iter().any(|((c, keys), o)| {
            c == case
                && matches!(o, Outcome::None)
                && keys.iter().all(|k| cache_key.1.binary_search(k).is_ok())
        });
        if proven_free {
            self.stats.cache_hits += 1;
            an.case_results.insert(cache_key, Outcome::None);
            return Outcome::None;
        }
        let (Some(s1), Some(s2)) = (an.block.traces[0].accesses.get(&a), an.block.traces[1].accesses.get(&b))
        else {
            return Outcome::None;
        };
        let meet = meeting(s1, s2, !self.opts.wrap, false);
        // Cheap filter: if the two accesses can never meet at all, no case can. (A pair in no
        // shared loop has a single case: the filter would repeat its query.)
        let single_case = tree.shared_loops(a, b).is_empty();
        let possible = match an.pair_possible.get(&(a, b)) {
            Some(p) => *p,
            None if single_case => true,
            None => {
                let loops = [s1.loops.as_slice(), s2.loops.as_slice()];
                let probe = Bool::and(&[&s1.no_wrap, &s2.no_wrap]);
                let (out, wrap_free) = query_probing(
                    &an.block,
                    &an.launch,
                    &meet,
                    Some([&s1.index, &s2.index]),
                    loops,
                    &mut self.stats,
                    Some(&probe),
                );
                let p = !matches!(out, Outcome::None);
                if let Outcome::Race { witness, .. } = out {
                    an.meet_witness.insert((a, b), (witness, wrap_free));
                }
                an.pair_possible.insert((a, b), p);
                p
            }
        };
        let out = if !possible {
            Outcome::None
        } else {
            let shared = tree.shared_loops(a, b);
            let mut extra = meet.clone();
            extra.extend(relation(&an.block.traces, case, a, b, &shared));
            let relation_len = extra.len() - meet.len();
            if let Some(sep) = an.warp_separation(tree, case, a, b) {
                extra.push(sep.not());
            }
            // One instance of a warp-collective store: the lanes of one warp store it once
            // between them (`WriteMode::Warp`).
            if a == b && case.relation == Relation::SameIteration && an.warp_stores.contains(&a) {
                if let Some(mates) = &an.block.syncwarp_mates {
                    extra.push(mates.not());
                }
            }
            // Named barriers: neither access happens before the other through one.
            let copies = [tree.is_async_copy(a), tree.is_async_copy(b)];
            if let Some(apart) = named::unordered(s1, s2, copies, &an.block.traces) {
                extra.push(apart);
            }
            // Separated by a `syncwarp`: only threads of different warps can race. (Fixed for the
            // analysis: its kernel holds the `syncwarp`s, so the cache key needs no more.)
            if warp_separated {
                if let Some(mates) = &an.block.syncwarp_mates {
                    extra.push(mates.not());
                }
            }
            // The meeting query's model answers the case when it satisfies every conjunct the case
            // adds: its relation (checked on the model's iterations) and no refinement or warp
            // constraint (those are not checked on the model; the case is asked then).
            let hint = match (
                refine_constraints.is_empty() && extra.len() == meet.len() + relation_len,
                an.meet_witness.get(&(a, b)),
            ) {
                (true, Some((w, wrap_free))) if witness_in_case(w, case, a, &shared) => {
                    Some((w.clone(), *wrap_free))
                }
                _ => None,
            };
            extra.extend(refine_constraints);
            let loops = [s1.loops.as_slice(), s2.loops.as_slice()];
            let no_wrap_both = Bool::and(&[&s1.no_wrap, &s2.no_wrap]);
            let (mut answer, wrap_free_model) = match hint {
                Some((witness, wrap_free)) => (Outcome::Race { witness, benign: false }, wrap_free),
                None => {
                    let probe = Some(&no_wrap_both);
                    query_probing(
                        &an.block,
                        &an.launch,
                        &extra,
                        Some([&s1.index, &s2.index]),
                        loops,
                        &mut self.stats,
                        probe,
                    )
                }
            };
            if self.opts.wrap && !wrap_free_model {
                answer = mark_wrap(answer, &an.block, &an.launch, &extra, [s1, s2], &mut self.stats);
            }
            match answer {
                Outcome::Race { witness, .. } => {
                    let benign = match (ka, kb, &s1.value, &s2.value) {
                        // Two plain stores, or a plain store and an unused exchange/CAS
                        // (`AccessSym::value`), of one value: the word ends the same either way.
                        (
                            AccessKind::Write | AccessKind::Atomic,
                            AccessKind::Write | AccessKind::Atomic,
                            Some(v1),
                            Some(v2),
                        ) if s1.width == s2.width => {
                            // The same value over the same elements; stores of different
                            // widths, or over overlapping but different elements, differ.
                            let mut differ = extra.clone();
                            differ.push(match s1.width {
                                // Single elements that meet are the same element.
                                1 => v1.eq(v2).not(),
                                _ => Bool::or(&[&v1.eq(v2).not(), &s1.index.eq(&s2.index).not()]),
                            });
                            matches!(
                                query(&an.block, &an.launch, &differ, None, loops, &mut self.stats),
                                Outcome::None
                            )
                        }
                        _ => false,
                    };
                    Outcome::Race { witness, benign }
                }
                other => other,
            }
        };
        an.case_results.insert(cache_key, out.clone());
        out
    }

    /// Whether thread 1's `a` and thread 2's `b` (block scope) never touch one element: known
    /// from an earlier meeting query (`pair_possible`), or proven by the pre-filter now (then
    /// recorded there and counted once).
    fn apart(&mut self, key: u64, a: Label, b: Label) -> bool {
        let Some(an) = self.analyses.get_mut(&key) else { return false };
        if let Some(p) = an.pair_possible.get(&(a, b)) {
            return !*p;
        }
        if !self.prefilter || an.prefilter_failed.contains(&(a, b)) {
            return false;
        }
        let (Some(s1), Some(s2)) = (an.block.traces[0].accesses.get(&a), an.block.traces[1].accesses.get(&b))
        else {
            return false;
        };
        let p = an.ranges.apart([s1, s2], &an.block.traces);
        if p {
            self.stats.prefiltered += 1;
            an.pair_possible.insert((a, b), false);
        } else {
            an.prefilter_failed.insert((a, b));
        }
        p
    }
}
