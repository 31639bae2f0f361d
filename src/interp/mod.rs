//! The reference interpreter: a concrete, independent oracle for testing the verifier and the
//! synthesizer.
//!
//! It runs a [`Kernel`] on one concrete launch ([`RunConfig`]) under the SDV semantics of
//! DESIGN.md §4 and reports what that one execution exhibits: data races ([`DynRace`]),
//! divergent barriers ([`DynDivergence`]) and out-of-bounds accesses. It finds only what the
//! chosen run exhibits (it is a test oracle, not a verifier): no report means "none on this run".
//!
//! # Semantics
//!
//! - **Lock-step, predicated.** All threads of a block execute the same statement at the same
//!   time; each thread has a predicate and disabled threads' statements have no effect. Within one
//!   statement, threads act in increasing linear thread id (`x + y*bdx + z*bdx*bdy`), and each
//!   write is applied to memory immediately (a later thread of the same statement sees it).
//! - **`if (c) T else E`**: `c` is evaluated once; `T` runs for the threads with `p ∧ c`, then `E`
//!   for those with `p ∧ ¬c`. A block whose predicate is false for every thread is skipped.
//! - **`while (c) B`**: iterates while `c` holds for some enabled thread; a thread whose guard is
//!   false stays disabled for the rest of that loop. Iterations are counted from 0.
//! - **Barrier**: with every thread of the block enabled it ends the block's barrier interval.
//!   With some but not all enabled it records a [`DynDivergence`] (once per barrier and block)
//!   and still synchronizes. With none enabled it is not executed.
//! - **Gridsync** (a grid barrier): a barrier for the threads of its block, and it ends the
//!   grid's barrier interval: blocks run one interval at a time (each block up to its next grid
//!   barrier, in increasing linear block id, before any block goes past it), and accesses of
//!   different blocks race only within one interval. A block resumes by re-running from its start
//!   with the values its global loads returned before, silently (no effect, no log) up to the grid
//!   barrier it waited at, which is the same execution. Blocks that end, or wait at another grid
//!   barrier, while some wait at one record a [`DynDivergence`] of it (once per label and
//!   block), and the others still go on.
//! - **Syncwarp** (a warp barrier): warps are groups of 32 consecutive linear thread ids (of
//!   `W` under warp-sync). Each warp with some lane enabled executes it; two accesses by threads
//!   of one warp with such an instance between them are ordered. A warp with some but not all
//!   lanes enabled records a [`DynDivergence`] (once per label and block) and still
//!   synchronizes, like a divergent barrier.
//! - **Named barriers** (`bar sync id, n`, `bar arrive id, n`, `bar wait id, e`;
//!   docs/semantics.md, "Named barriers"): every thread counts its participations per id in the
//!   kernel's counter locals (`kpl::named`: `__nbID_arrived`, `__nbID_waited`, declared 0 at the
//!   start of the body and updated by ordinary statements beside each barrier statement; a
//!   kernel built without them gets them). Each enabled thread of a `bar sync`/`bar arrive`
//!   joins the instance its `arrived` counter names (the update before the statement counted
//!   it); per block and id the interpreter counts the joins of every instance, which is
//!   complete with `n` joins: the count of the id's first joining statement in program order,
//!   or the block's threads when it has none. No thread ever blocks: after the statement, a
//!   thread that waits (`bar sync` for its instance, `bar wait id, e` for instance `e`; instance
//!   0 is none) whose instance is not complete yet is *pending*, and lock-step goes on. At the
//!   end of the block, a pending wait whose instance completed later means the lock-step order
//!   is not a schedule of the real execution (the thread would have blocked there: producer
//!   warps that ran ahead of their consumers): the run is *unscheduled*
//!   ([`RunReport::unscheduled`]), it stops after that block and reports no findings, like an
//!   infeasible one. Otherwise, for every id that some statement waits at (a barrier nobody
//!   waits at orders nothing and is not checked), a [`DynDivergence`] is recorded (once per
//!   label and block; the oracle's `named-barrier-mismatch`): at a joining statement whose count
//!   differs from the first one's; at the first joining statement when the threads of the block
//!   that join the barrier at all are not `n` (none at all is no problem); at a wait whose
//!   instance never completed (a hang); and at an arrival that joined instance `j + 1` while
//!   instance `j` lacked joins before that statement (the arrivals of one statement come in any
//!   order) and its thread had not waited for `j` itself: an overrun, whose arrival counts
//!   toward instance `j` in this very schedule, whether or not `j` completes later.
//! - **Assume**: a thread reaching `assume c` with `c` = 0 makes the run infeasible: it stops
//!   there, and the report holds no findings, only [`RunReport::infeasible`].
//! - **Values** are 32-bit two's complement with wrapping arithmetic; signed and unsigned
//!   operators as their [`BinOp`](crate::kpl::ast::BinOp) variants say; comparisons and logical
//!   operators yield 0 or 1; **division and remainder by zero follow SMT-LIB's bit-vectors**
//!   (`x udiv 0 = 0xFFFFFFFF`, `x / 0 = x < 0 ? 1 : -1`, `x % 0 = x urem 0 = x`), as the oracle's
//!   encoding does, so that both agree where C leaves the result undefined; `i32::MIN / -1` wraps;
//!   shift amounts are taken modulo 32. An opaque `Call(f, args)` is a seeded hash of `f` and the
//!   argument values (equal arguments give equal results). Atomic `min`/`max` compare signed;
//!   `inc`/`dec` follow CUDA's `atomicInc`/`atomicDec`.
//! - **Initial state** is drawn from the seed: every memory element (shared memory per block,
//!   global memory once per grid), every thread-local variable at the start of a block (a
//!   `local x;` without initializer leaves `x` as it is), and every parameter missing from
//!   [`RunConfig::params`] (a value in `0..=16`, small so that loops terminate).
//! - **Memory**: a read returns the current value; an atomic reads, modifies and writes in one
//!   step and returns the old value. Elements of arrays with an unknown first dimension exist at
//!   every index.
//! - **Out of bounds**: an index at or beyond a known dimension (indices are unsigned, so `-1` is
//!   out of bounds) is recorded in [`RunReport::out_of_bounds`] (once per label and array) and the
//!   access is skipped (a read leaves its destination unchanged); execution goes on.
//! - **Races**: two accesses to the same element (same array, same linear index) by distinct
//!   threads, at least one a write (a plain write or an atomic), not both atomics, in the same
//!   barrier interval of a block ([`Scope::Block`]; shared and global arrays), or — for global
//!   arrays — by threads of different blocks in one grid barrier interval ([`Scope::Grid`]; blocks
//!   are simulated one after another in increasing linear block id, and only grid barriers order
//!   them). Between blocks an atomic of block scope (`atomic block`) is atomic for no one: it
//!   conflicts with any other atomic of the element.
//!   A thread's access to an element its own asynchronous copy (`async wr`) writes while the copy
//!   is in flight — issued, not yet landed by a covering `wait` — races too ([`Scope::Copy`]); a
//!   copy in flight is logged in every barrier interval until it lands, and no warp step or
//!   `syncwarp` orders it.
//!   The lanes of one warp (of the `syncwarp` width) at one instance of a warp-collective store
//!   (`warp wr`) are one store: they do not race with each other there.
//!   Two threads of one statement execution race too (`wr A[0] := 1` by every thread is a
//!   write-write race of that label with itself).
//!   Named barriers order two accesses of distinct threads of one block (in one barrier
//!   interval) when, for some id, `arrived₁ < waited₂ ∧ arrived₁ < total₁` or the same with the
//!   two swapped: thread 1 joins an instance after its access that thread 2 had waited for
//!   before its own. The counters are the threads' at each access (a copy's: at its
//!   statement), `total` a thread's `arrived` at the end of the block: exactly the oracle's rule
//!   (`verify::named`), which is exact when no named barrier diverges. An asynchronous copy's
//!   write is never ordered *before* another access by a named barrier (only after). A pair
//!   whose order depends on a total not known yet (the thread has not joined again since its
//!   access) is decided, and reported, at the end of the block. With named barriers the element
//!   logs keep every thread's latest access per label and kind (as under warp-sync).
//! - **Thread model**: independent thread scheduling by default: only barriers order the
//!   accesses of two threads. With [`Geometry::warp_sync`](crate::kpl::ast::Geometry) `= Some(W)`
//!   (GPUVerify's `--warp-sync`, its re-sync method), threads whose linear ids agree divided by
//!   `W` form a warp. Every statement execution is a *step* of the block's lock-step trace (an
//!   `if` is one step, by the threads that evaluate its condition; a `while` is one step per
//!   guard evaluation, by the threads still in the loop; a `local` without initializer is a step
//!   too). Two conflicting accesses by distinct threads `t`, `t'` of one warp in one barrier
//!   interval, at steps `i <= j`, race iff `i == j` (the same statement instance, two writes) or
//!   no step `k` with `i <= k < j` ran with both `t` and `t'` enabled (after such a step the warp
//!   has re-synchronized). Threads of different warps are unchanged. Barriers and divergence are
//!   unchanged.
//! - **Bounded**: each block executes at most [`RunConfig::max_steps`] statements (an `if`
//!   counts once, a `while` once per guard evaluation); a block that would exceed it stops, the
//!   run goes on with the next block, and the report says `truncated`. The whole run executes at
//!   most `max_steps` times the number of blocks statements, the replays of grid-barrier
//!   intervals included, and each 64 access-log entries scanned count as one (past that every
//!   block stops, `truncated`): a long barrier-free loop whose logs are kept whole (named
//!   barriers, warp-sync) cannot take quadratic time.
//!
//! The launch geometry comes from the [`RunConfig`] only; [`RunConfig::for_kernel`] takes it from
//! the kernel's header.

mod compile;
mod exec;
mod value;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::kpl::ast::{Kernel, Label};

/// The most threads a block may have.
pub const MAX_BLOCK_THREADS: u64 = 1024;
/// The most blocks a grid may have (the interpreter simulates them one after another).
pub const MAX_GRID_BLOCKS: u64 = 4096;

/// One concrete launch of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Threads per block in x, y, z (each at least 1, at most 1024 in all).
    pub block_dim: [u32; 3],
    /// Blocks per grid in x, y, z (each at least 1, at most [`MAX_GRID_BLOCKS`] in all).
    pub grid_dim: [u32; 3],
    /// Seeds every value the run draws (initial memory, variables, missing parameters, opaque
    /// calls). The same kernel, configuration and seed give the same report.
    pub seed: u64,
    /// The most statement executions per block before the block stops (`truncated`).
    pub max_steps: u64,
    /// Concrete parameter values; parameters not named here get a seeded value in `0..=16`.
    /// Names that are not parameters of the kernel are ignored.
    pub params: BTreeMap<String, u32>,
}

impl RunConfig {
    /// The default bound on statement executions per block.
    pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;

    /// A launch with the given geometry, seed 0, [`Self::DEFAULT_MAX_STEPS`] and no parameters.
    pub fn new(block_dim: [u32; 3], grid_dim: [u32; 3]) -> RunConfig {
        RunConfig {
            block_dim,
            grid_dim,
            seed: 0,
            max_steps: Self::DEFAULT_MAX_STEPS,
            params: BTreeMap::new(),
        }
    }

    /// A launch with the kernel header's geometry where given, else 32 threads and 1 block.
    pub fn for_kernel(kernel: &Kernel) -> RunConfig {
        RunConfig::new(
            kernel.geometry.block_dim.unwrap_or([32, 1, 1]),
            kernel.geometry.grid_dim.unwrap_or([1, 1, 1]),
        )
    }

    /// Sets the seed.
    pub fn with_seed(mut self, seed: u64) -> RunConfig {
        self.seed = seed;
        self
    }

    /// Sets the step bound.
    pub fn with_max_steps(mut self, max_steps: u64) -> RunConfig {
        self.max_steps = max_steps;
        self
    }

    /// Sets one parameter's value.
    pub fn with_param(mut self, name: &str, value: u32) -> RunConfig {
        self.params.insert(name.to_string(), value);
        self
    }
}

/// Where a race happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Between threads of one block, within one barrier interval (a barrier can fix it).
    Block,
    /// Between threads of different blocks on a global array (no barrier can fix it).
    Grid,
    /// A thread and its own asynchronous copy still in flight (only a wait can fix it).
    Copy,
}

/// The kind of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    /// `rd`.
    Read,
    /// `wr`.
    Write,
    /// An atomic read-modify-write.
    Atomic,
}

/// A race observed in the run, with its first witness.
///
/// One record is kept per distinct (`first`, `second`, `array`, `scope`, separating loop), where
/// the separating loop is [`DynRace::separating_loop`] for block races and `None` for grid races;
/// so a label pair that races both within one loop iteration and across iterations has a record
/// for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynRace {
    /// The label of the access that executed first.
    pub first: Label,
    /// The label of the access that executed second (may equal `first`).
    pub second: Label,
    /// The array.
    pub array: String,
    /// The linear (row-major) element index.
    pub index: u64,
    /// The two threads' ids within their blocks (always distinct threads).
    pub threads: [[u32; 3]; 2],
    /// The two threads' block ids (equal for [`Scope::Block`], different for [`Scope::Grid`]).
    pub blocks: [[u32; 3]; 2],
    /// The two accesses' kinds (at least one writes; not both atomics).
    pub kinds: [AccessKind; 2],
    /// For each access, the iteration count (from 0) of each enclosing `while`, outermost first.
    pub iterations: [Vec<u64>; 2],
    /// For each access, the labels of the enclosing `while` loops, parallel to `iterations`.
    pub loops: [Vec<Label>; 2],
    /// Both accesses store equal values outright (plain writes, or an exchange whose result is
    /// unused) — for every conflict observed for this
    /// record, not only the witness (GPUVerify calls such races benign). False otherwise.
    pub same_value: bool,
    /// Block or grid.
    pub scope: Scope,
}

impl DynRace {
    /// For a block race: the outermost loop enclosing both accesses in whose iterations they
    /// differ (an inter-iteration race of that loop), or `None` when they happen in the same
    /// iteration of every loop enclosing both (intra-iteration, or no shared loop).
    pub fn separating_loop(&self) -> Option<Label> {
        separating_loop(&self.loops[0], &self.iterations[0], &self.loops[1], &self.iterations[1])
    }
}

/// The outermost loop of the common prefix of two loop stacks in which the iteration counts
/// differ, or `None`.
fn separating_loop(la: &[Label], ia: &[u64], lb: &[Label], ib: &[u64]) -> Option<Label> {
    la.iter()
        .zip(lb)
        .zip(ia.iter().zip(ib))
        .take_while(|((a, b), _)| a == b)
        .find(|(_, (x, y))| x != y)
        .map(|((l, _), _)| *l)
}

/// A barrier reached by some but not all threads of a block, or a grid barrier reached by the
/// threads of some blocks and not by those of another, or a named barrier whose instances go
/// wrong (see the module's semantics: a count that does not match, a hang, an overrun; then
/// `enabled_thread` is a thread concerned and `disabled_thread` one that never joined the
/// instance concerned, or the same thread when all did).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynDivergence {
    /// The barrier's label.
    pub barrier: Label,
    /// The block in which it diverged (for a grid barrier: a block that does not reach it, in
    /// that grid-barrier interval).
    pub block: [u32; 3],
    /// A thread that reached the barrier (the lowest such linear id; for a grid barrier thread
    /// 0 of `enabled_block`).
    pub enabled_thread: [u32; 3],
    /// The block of `enabled_thread`: `block`, except for a grid barrier.
    pub enabled_block: [u32; 3],
    /// A thread that did not (the lowest such linear id).
    pub disabled_thread: [u32; 3],
}

/// What one run exhibited. Deterministic: findings appear in the order they were first observed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Distinct races (see [`DynRace`] for what "distinct" means), first witness each.
    pub races: Vec<DynRace>,
    /// Divergent barriers, once per barrier label and block.
    pub divergences: Vec<DynDivergence>,
    /// Out-of-bounds accesses `(label, array, linear index)`, once per label and array (the first).
    pub out_of_bounds: Vec<(Label, String, u64)>,
    /// Statement executions, summed over all blocks.
    pub steps: u64,
    /// Some block hit [`RunConfig::max_steps`] and stopped early.
    pub truncated: bool,
    /// An `assume` (label) that a thread (block, thread) reached with its condition false: the
    /// run is infeasible, it stopped there and reports no findings.
    pub infeasible: Option<(Label, [u32; 3], [u32; 3])>,
    /// A named barrier wait (label; block, thread) that the lock-step order passed before its
    /// instance was complete, although the instance completed later in the block: the run's
    /// order is not a schedule of the real execution (the waiting thread would have blocked
    /// there; producer warps that run ahead of their consumers). Such a run stops at the end of
    /// that block and reports no findings, like an infeasible one.
    pub unscheduled: Option<(Label, [u32; 3], [u32; 3])>,
    /// The first access or guard (label of the access, or of the innermost loop; block, thread)
    /// whose index or condition was computed with wrapping arithmetic: a `+`, `-`, `*`, `<<` or
    /// negation on its data flow (through locals, not through memory or opaque calls) left the
    /// signed 32-bit range. Such a run is outside the default assumption of
    /// the oracle (docs/semantics.md, "Integer model"); its findings are kept, for `--wrap`.
    pub index_wrapped: Option<(Label, [u32; 3], [u32; 3])>,
}

impl RunReport {
    /// Distinct label pairs that raced, each as (min, max) by Label id.
    pub fn race_pairs(&self) -> BTreeSet<(Label, Label)> {
        self.races.iter().map(|r| (r.first.min(r.second), r.first.max(r.second))).collect()
    }

    /// Whether the run found no race, divergence or out-of-bounds access.
    pub fn is_clean(&self) -> bool {
        self.races.is_empty() && self.divergences.is_empty() && self.out_of_bounds.is_empty()
    }

    /// A human-readable summary, one finding per line, with the kernel's label names.
    pub fn render(&self, kernel: &Kernel) -> String {
        let mut s = String::new();
        let name = |l: Label| kernel.label_name(l).to_string();
        for r in &self.races {
            let rel = match (r.scope, r.separating_loop()) {
                (Scope::Grid, _) => "between blocks".to_string(),
                (Scope::Block, None) => "same iteration".to_string(),
                (Scope::Block, Some(l)) => format!("different iterations of loop {}", name(l)),
                (Scope::Copy, None) => "own copy in flight, same iteration".to_string(),
                (Scope::Copy, Some(l)) => {
                    format!("own copy in flight, different iterations of loop {}", name(l))
                }
            };
            let _ = writeln!(
                s,
                "race {}:{:?} / {}:{:?} on {}[{}] threads {:?}@{:?} / {:?}@{:?}, iterations {:?} / {:?} ({}){}",
                name(r.first),
                r.kinds[0],
                name(r.second),
                r.kinds[1],
                r.array,
                r.index,
                r.threads[0],
                r.blocks[0],
                r.threads[1],
                r.blocks[1],
                r.iterations[0],
                r.iterations[1],
                rel,
                if r.same_value { ", same value" } else { "" },
            );
        }
        for d in &self.divergences {
            if d.enabled_block != d.block {
                let _ = writeln!(
                    s,
                    "divergent grid barrier {}: block {:?} reaches it, block {:?} does not",
                    name(d.barrier),
                    d.enabled_block,
                    d.block
                );
                continue;
            }
            let named = kernel.stmt(d.barrier).is_some_and(|s| {
                matches!(
                    s.kind,
                    crate::kpl::ast::StmtKind::NamedBarrier { .. }
                        | crate::kpl::ast::StmtKind::NamedWait { .. }
                )
            });
            if named {
                let _ = writeln!(
                    s,
                    "named barrier mismatch at {} in block {:?}: thread {:?} there, thread {:?} never joins the instance concerned",
                    name(d.barrier),
                    d.block,
                    d.enabled_thread,
                    d.disabled_thread
                );
                continue;
            }
            let _ = writeln!(
                s,
                "divergent barrier {} in block {:?}: thread {:?} reaches it, thread {:?} does not",
                name(d.barrier),
                d.block,
                d.enabled_thread,
                d.disabled_thread
            );
        }
        for (l, a, i) in &self.out_of_bounds {
            let _ = writeln!(s, "out-of-bounds access {}[{}] at {}", a, i, name(*l));
        }
        if let Some((l, b, t)) = &self.index_wrapped {
            let _ = writeln!(
                s,
                "index arithmetic wraps at {} for thread {:?}@{:?} (outside the no-wrap assumption)",
                name(*l),
                t,
                b
            );
        }
        if let Some((l, b, t)) = &self.unscheduled {
            let _ = writeln!(
                s,
                "unscheduled run: thread {:?}@{:?} passes named barrier wait {} before its instance completes; its findings are discarded",
                t,
                b,
                name(*l)
            );
        }
        if let Some((l, b, t)) = &self.infeasible {
            let _ = writeln!(
                s,
                "infeasible run: assumption {} fails for thread {:?}@{:?}; its findings are discarded",
                name(*l),
                t,
                b
            );
        }
        let _ = writeln!(
            s,
            "{} steps{}",
            self.steps,
            if self.truncated { " (truncated: step bound reached)" } else { "" }
        );
        s
    }
}

/// Why a kernel cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// A feature the interpreter does not implement.
    #[error("the interpreter does not support {0}")]
    Unsupported(String),
    /// A variable that is neither a parameter nor declared by a preceding `local`.
    #[error("undeclared variable `{name}` (label {label:?})")]
    UndeclaredVariable {
        /// The variable.
        name: String,
        /// The statement that uses it.
        label: Label,
    },
    /// An access to an array the kernel does not declare.
    #[error("unknown array `{name}` (label {label:?})")]
    UnknownArray {
        /// The array.
        name: String,
        /// The statement that accesses it.
        label: Label,
    },
    /// An access with a different number of indices than the array has dimensions.
    #[error("array `{array}` has {expected} dimension(s) but is accessed with {found} index(es) (label {label:?})")]
    IndexArity {
        /// The array.
        array: String,
        /// The statement.
        label: Label,
        /// The array's number of dimensions.
        expected: usize,
        /// The number of indices used.
        found: usize,
    },
    /// An array declaration the interpreter cannot lay out.
    #[error("array `{array}`: {reason}")]
    BadArray {
        /// The array.
        array: String,
        /// What is wrong.
        reason: String,
    },
    /// Blocks and expressions nested deeper than the interpreter accepts (1000 levels).
    #[error("the kernel nests too deeply (label {label:?})")]
    TooDeep {
        /// The statement or block where the limit was reached.
        label: Label,
    },
    /// A launch geometry outside the supported range.
    #[error("bad launch geometry: {0}")]
    BadGeometry(String),
}

/// Runs `kernel` once on the launch `cfg` and reports what the run exhibits.
///
/// Never panics and always terminates (each block runs at most `cfg.max_steps` statements).
/// Errors: a warp size of 0 in `kernel.geometry.warp_sync` ([`InterpError::BadGeometry`]); a malformed
/// kernel (undeclared variable, unknown array, wrong index count, an unknown non-first dimension,
/// nesting deeper than 1000 levels)
/// or geometry (a zero dimension, more than [`MAX_BLOCK_THREADS`] threads per block or
/// [`MAX_GRID_BLOCKS`] blocks) is an error before anything runs.
pub fn run(kernel: &Kernel, cfg: &RunConfig) -> Result<RunReport, InterpError> {
    if kernel.geometry.warp_sync == Some(0) {
        return Err(InterpError::BadGeometry("a warp size of 0".into()));
    }
    let threads: u64 = cfg.block_dim.iter().map(|&d| u64::from(d)).product();
    let blocks: u64 = cfg.grid_dim.iter().map(|&d| u64::from(d)).product();
    if !(1..=MAX_BLOCK_THREADS).contains(&threads) {
        return Err(InterpError::BadGeometry(format!(
            "block of {:?} = {} threads (1 to {} supported)",
            cfg.block_dim, threads, MAX_BLOCK_THREADS
        )));
    }
    if !(1..=MAX_GRID_BLOCKS).contains(&blocks) {
        return Err(InterpError::BadGeometry(format!(
            "grid of {:?} = {} blocks (1 to {} supported)",
            cfg.grid_dim, blocks, MAX_GRID_BLOCKS
        )));
    }
    // Named barriers run on their counters (`kpl::named`): a kernel built without them gets them.
    let with_counters;
    let kernel = if crate::kpl::named::ids(kernel).is_empty() {
        kernel
    } else {
        let mut k = kernel.clone();
        crate::kpl::named::add_counters(&mut k)
            .map_err(|e| InterpError::Unsupported(format!("these named barriers ({})", e.message)))?;
        with_counters = k;
        &with_counters
    };
    let prog = compile::compile(kernel)?;
    Ok(exec::Machine::new(&prog, cfg).run())
}
