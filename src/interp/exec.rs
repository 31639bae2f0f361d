//! The SDV machine: executes a resolved [`Program`] block by block, thread-synchronously under
//! per-thread predicates, and records races, divergent barriers and out-of-bounds accesses.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::compile::{CExpr, CStmt, NamedSlot, Program, Target};
use super::value::{self, mix, tag};
use super::{AccessKind, DynDivergence, DynRace, RunConfig, RunReport, Scope};
use crate::kpl::ast::{AtomicOp, BinOp, Builtin, Label, Space, UnOp};

/// Access-log entries scanned that cost as much as one statement execution of the work bound
/// (`Machine::work`): a run scans at most this many times the bound's entries.
const LOG_ENTRIES_PER_WORK: u64 = 64;

/// A fast hasher for the element-indexed maps (keys are plain `u64` indices; no untrusted input
/// chooses them adversarially, and a collision only costs time).
#[derive(Default)]
struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
}

/// What an access leaves in its word: the value, whether it stores it outright
/// ([`Access::stores`]), and whether it is an atomic of block scope ([`Access::block_atomic`]).
struct Stored {
    value: u32,
    stores: bool,
    block_atomic: bool,
    /// An asynchronous copy's write still in flight (`Access::in_flight`).
    in_flight: bool,
    /// A warp-collective store (`Access::collective`).
    collective: bool,
    /// The thread's named barrier counters at the access (`Access::named`) when they are not
    /// the current ones (a copy in flight logged again: those of its statement).
    named: Option<Counters>,
}

impl Stored {
    /// What a plain access stores (nothing in flight, not collective).
    fn plain(value: u32, stores: bool, block_atomic: bool) -> Stored {
        Stored { value, stores, block_atomic, in_flight: false, collective: false, named: None }
    }
}

/// A thread's named barrier counters at one point, per slot of [`Program::named`]:
/// (`__nbID_arrived`, `__nbID_waited`). Empty without named barriers.
type Counters = Rc<[(u32, u32)]>;

/// A map keyed by element index.
type IndexMap<V> = HashMap<u64, V, BuildHasherDefault<IndexHasher>>;

/// Raised when the step budget of a block is spent; unwinds the block's execution.
struct Stop;

type Exec = Result<(), Stop>;

/// The loop context of an access: the enclosing `while` loops (outermost first) and the current
/// iteration (0-based) of each. Shared between all accesses made in the same iteration.
#[derive(Debug, Default)]
struct Ctx {
    loops: Vec<Label>,
    iters: Vec<u64>,
}

/// One logged access to one array element.
#[derive(Clone, Debug)]
struct Access {
    label: Label,
    kind: AccessKind,
    /// Linear thread id within its block.
    thread: u32,
    /// Linear block id.
    block: u32,
    /// The value written (writes, atomics: the new value) or read.
    value: u32,
    /// After it the word holds `value` whatever it held: a plain write, or an exchange whose
    /// result is unused (the oracle's same-value stores, `verify::symbolic::AccessSym::value`).
    stores: bool,
    /// The block's step (statement instance) at which the access happened.
    step: u64,
    /// How many `syncwarp` instances the thread's warp had executed before the access.
    warp_syncs: u64,
    /// An atomic that is atomic only within the block (`atomic block`): against an access of
    /// another block it conflicts like a plain write.
    block_atomic: bool,
    /// The whole access this element belongs to: its first element and width. Two stores of
    /// one value are the same store only over the same elements, and two atomics are atomic
    /// with each other only on the same elements.
    extent: (u64, u32),
    /// An asynchronous copy's write still in flight: it may land at any moment of the barrier
    /// interval, so no warp step or `syncwarp` orders it.
    in_flight: bool,
    /// A warp-collective store (`warp wr`).
    collective: bool,
    /// The thread's named barrier counters at the access's statement.
    named: Counters,
    /// An asynchronous copy's write (in flight or landed): no named barrier orders it before
    /// another access (docs/semantics.md, "Named barriers").
    copy: bool,
    ctx: Rc<Ctx>,
}

/// An asynchronous copy a thread issued and no `wait` has landed yet.
#[derive(Clone, Debug)]
struct Flight {
    label: Label,
    array: usize,
    /// The first element and the width.
    extent: (u64, u32),
    value: u32,
    /// The thread's commit count that closed its group (`None`: not committed yet).
    group: Option<u64>,
    /// The thread's named barrier counters at the copy's statement.
    named: Counters,
    ctx: Rc<Ctx>,
}

/// A conflicting pair of accesses of distinct threads of one block whose order through named
/// barriers depends on how often a thread joins a barrier after its access: decided at the end
/// of the block, with the threads' totals.
#[derive(Clone, Debug)]
struct Deferred {
    prev: Access,
    new: Access,
    array: usize,
    idx: u64,
}

/// Whether named barriers order two accesses of distinct threads of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NamedOrder {
    Ordered,
    Unordered,
    /// Ordered exactly when a thread joins the barrier again after its access.
    Undecided,
}

/// Named barriers order `a` before `b` through slot `s` when `a`'s thread joins an instance
/// after `a` that `b`'s thread had waited for before `b`: `arrived_a < waited_b ∧ arrived_a <
/// total_a` (the oracle's rule, `verify::named`), with `total_a` the participations of `a`'s
/// thread so far, and whether that is its total (the block ended). A copy's write is never
/// ordered before another access.
fn before_through(a: &Access, b: &Access, s: usize, total_a: (u32, bool)) -> NamedOrder {
    let (Some(&(arrived, _)), Some(&(_, waited))) = (a.named.get(s), b.named.get(s)) else {
        return NamedOrder::Unordered;
    };
    if a.copy || arrived >= waited {
        return NamedOrder::Unordered;
    }
    match total_a {
        (so_far, _) if arrived < so_far => NamedOrder::Ordered,
        (_, true) => NamedOrder::Unordered,
        (_, false) => NamedOrder::Undecided,
    }
}

/// Whether named barriers order `a` and `b` either way; `total(thread, slot)` is a thread's
/// participations so far and whether that is its total.
fn named_order(
    a: &Access,
    b: &Access,
    slots: usize,
    total: impl Fn(u32, usize) -> (u32, bool),
) -> NamedOrder {
    let mut order = NamedOrder::Unordered;
    for s in 0..slots {
        for (x, y) in [(a, b), (b, a)] {
            match before_through(x, y, s, total(x.thread, s)) {
                NamedOrder::Ordered => return NamedOrder::Ordered,
                NamedOrder::Undecided => order = NamedOrder::Undecided,
                NamedOrder::Unordered => {}
            }
        }
    }
    order
}

/// The accesses to one element in the current barrier interval of the current block.
#[derive(Debug, Default)]
struct ElemLog {
    epoch: u64,
    entries: Vec<Access>,
}

/// Whether two access kinds conflict: at least one writes, and not both are atomics.
fn conflict(a: &Access, b: &Access) -> bool {
    match (a.kind, b.kind) {
        (AccessKind::Read, AccessKind::Read) => false,
        // Atomics of different widths or starts over one element are not one atomic word.
        (AccessKind::Atomic, AccessKind::Atomic) => a.extent != b.extent,
        _ => true,
    }
}

/// Whether two accesses of threads of different blocks conflict: as [`conflict`], except that an
/// atomic of block scope is atomic only within its block (two atomics conflict when either is).
fn grid_conflict(a: &Access, b: &Access) -> bool {
    conflict(a, b) || (a.kind == AccessKind::Atomic && (a.block_atomic || b.block_atomic))
}

/// Adds `new` to a per-element log, keeping for every (label, kind) only the most recent access
/// of at most `keep` distinct agents (threads for the block log, blocks for the grid log). With
/// `keep == 2` that is enough to find, for any later access, a conflicting earlier access by a
/// different agent whenever one exists, and it keeps the log small however many times an element
/// is touched. Under warp-sync whether two accesses race depends on the pair of threads, so the
/// block log keeps the most recent access of every thread (`keep == usize::MAX`): a thread's
/// latest access races with a later one whenever any of its earlier ones does.
fn log_insert(
    entries: &mut Vec<Access>,
    new: Access,
    keep: usize,
    same_agent: impl Fn(&Access, &Access) -> bool,
) {
    let group = |e: &Access| e.label == new.label && e.kind == new.kind;
    if let Some(p) = entries.iter().position(|e| group(e) && same_agent(e, &new)) {
        entries.remove(p);
    } else if entries.iter().filter(|e| group(e)).count() >= keep {
        if let Some(p) = entries.iter().position(group) {
            entries.remove(p);
        }
    }
    entries.push(new);
}

/// Identity of a recorded race: labels in execution order, array, scope and the shared loop whose
/// iterations differ (`None`: same iteration of every shared loop).
type RaceKey = (Label, Label, usize, u8, Option<Label>);

pub(crate) struct Machine<'p> {
    prog: &'p Program,
    cfg: &'p RunConfig,
    seed: u64,
    param_values: Vec<u32>,
    // Grid state.
    global_mem: Vec<IndexMap<u32>>,
    grid_logs: Vec<IndexMap<Vec<Access>>>,
    // Findings.
    report: RunReport,
    race_keys: HashMap<RaceKey, usize, BuildHasherDefault<IndexHasher>>,
    div_seen: HashSet<(Label, u32)>,
    oob_seen: HashSet<(Label, usize)>,
    // Block state.
    n: usize,
    tids: Vec<[u32; 3]>,
    bid: [u32; 3],
    blin: u32,
    nv: usize,
    vars: Vec<u32>,
    /// Per thread and variable: its value was computed with wrapping arithmetic
    /// ([`RunReport::index_wrapped`](super::RunReport::index_wrapped)).
    wrapped: Vec<bool>,
    shared_mem: Vec<IndexMap<u32>>,
    block_logs: Vec<IndexMap<ElemLog>>,
    /// The barrier interval of the current block.
    epoch: u64,
    /// Per thread of the current block: its copies in flight, and its commits so far.
    flights: Vec<Vec<Flight>>,
    commits: Vec<u64>,
    /// Per thread of the current block: its releases so far (at most its commits).
    releases: Vec<u64>,
    loop_stack: Vec<(Label, u64)>,
    ctx: Rc<Ctx>,
    steps: u64,
    /// Warp-sync: the warp size, and per warp of the current block the enabled lanes of every
    /// step of the current barrier interval (see [`WarpSteps`]).
    warp: Option<u32>,
    warp_steps: Vec<WarpSteps>,
    /// Per `syncwarp` warp (of `prog.syncwarp_width` lanes) of the current block, the number of
    /// `syncwarp` instances it executed: two accesses of one warp with different counts have a
    /// warp barrier between them.
    warp_syncs: Vec<u64>,
    /// Grid barriers (see [`Machine::run`]): per block, the values its global loads returned, in
    /// order, so that a re-run of the block replays its earlier grid-barrier intervals exactly.
    global_reads: Vec<Vec<u32>>,
    /// While replaying: the next recorded load of the block.
    read_cursor: usize,
    /// The grid-barrier instances the current block replays silently before it runs on.
    replay_until: u64,
    /// The grid-barrier instances the current block has executed so far.
    gridsyncs_done: u64,
    /// The block is re-running an interval it already ran (no memory effect, no logging).
    replaying: bool,
    /// The block's step count when it went live (its replayed steps are not counted again).
    live_from: u64,
    /// The grid barrier at which the current block stopped, waiting for the other blocks.
    paused_at: Option<Label>,
    /// The current block stopped because its step bound (or the run's) was spent.
    out_of_steps: bool,
    /// Statement executions of the whole run, replays included, and their bound (the step bound
    /// times the number of blocks: what the run could spend without grid barriers). Resuming by
    /// replay costs quadratic time in the number of grid-barrier intervals; this keeps a run with
    /// a grid barrier in a long loop finite (it is then `truncated`). Scanning access logs counts
    /// too, [`LOG_ENTRIES_PER_WORK`] entries for one: where the logs are not pruned (named
    /// barriers, warp-sync) a long loop without barriers makes each access scan all earlier
    /// ones, quadratic time a step bound alone does not bound.
    work: u64,
    /// Log entries scanned and not yet counted in `work`.
    scanned: u64,
    work_budget: u64,
    /// Named barriers of the current block, per slot of `prog.named`: the joins of each
    /// instance (instances count from 1).
    named_joins: Vec<IndexMap<u64>>,
    /// Waits of the current block that passed an incomplete instance: (slot, statement,
    /// instance) and the first such thread.
    named_pending: BTreeMap<(usize, Label, u32), usize>,
    /// Arrivals of the current block that joined an instance while the previous one was
    /// incomplete and the thread had not waited for it: (slot, statement) and the first such
    /// thread with that previous instance.
    named_overruns: BTreeMap<(usize, Label), (usize, u32)>,
    /// Per slot: the joining statements whose count differs from the barrier's that ran, with
    /// the first thread that ran each.
    named_mismatch: Vec<BTreeMap<Label, usize>>,
    /// Per block: the pairs decided at its end (kept across its grid-barrier intervals, which
    /// a replay does not log again), and the ones already kept (each once).
    named_deferred: Vec<Vec<Deferred>>,
    named_deferred_seen: HashSet<DeferredKey>,
    /// The counters of a kernel without named barriers.
    no_counters: Counters,
}

/// What decides a deferred pair, for keeping each once: labels, array, threads, counters,
/// whether both store the same value, and the loop whose iterations separate them.
type DeferredKey = (Label, Label, usize, u32, u32, Counters, Counters, bool, Option<Label>, u32);

/// The steps (statement instances) a warp executed in the current barrier interval, as maximal
/// runs of consecutive steps with the same set of enabled lanes: `(first step, last step, lanes)`
/// with the lanes as a bit set. Enough to answer "did a step in `[i, j)` run with both lanes
/// enabled" by scanning back from the newest run.
#[derive(Debug, Default)]
struct WarpSteps {
    runs: Vec<(u64, u64, Vec<u64>)>,
}

impl WarpSteps {
    fn push(&mut self, step: u64, lanes: Vec<u64>) {
        if let Some(last) = self.runs.last_mut() {
            if last.2 == lanes && last.1 + 1 == step {
                last.1 = step;
                return;
            }
        }
        self.runs.push((step, step, lanes));
    }

    /// Whether some step `k` with `i <= k < j` ran with both lanes `a` and `b` enabled.
    fn together(&self, i: u64, j: u64, a: usize, b: usize) -> bool {
        let has = |lanes: &[u64], l: usize| lanes.get(l / 64).is_some_and(|w| w >> (l % 64) & 1 == 1);
        for (first, last, lanes) in self.runs.iter().rev() {
            if *last < i {
                break;
            }
            if *first < j && has(lanes, a) && has(lanes, b) {
                return true;
            }
        }
        false
    }
}

/// Splits a linear id into 3-D coordinates of a `dims` box (x fastest).
pub(crate) fn coords(lin: u64, dims: [u32; 3]) -> [u32; 3] {
    let (dx, dy) = (u64::from(dims[0].max(1)), u64::from(dims[1].max(1)));
    [(lin % dx) as u32, ((lin / dx) % dy) as u32, (lin / (dx * dy)) as u32]
}

impl<'p> Machine<'p> {
    pub(crate) fn new(prog: &'p Program, cfg: &'p RunConfig) -> Machine<'p> {
        let seed = value::splitmix(cfg.seed);
        let param_values = prog
            .params
            .iter()
            .map(|p| match cfg.params.get(p) {
                Some(v) => *v,
                None => (mix(mix(seed, tag::PARAM), value::hash_str(p)) % 17) as u32,
            })
            .collect();
        let na = prog.arrays.len();
        Machine {
            prog,
            cfg,
            seed,
            param_values,
            global_mem: (0..na).map(|_| IndexMap::default()).collect(),
            grid_logs: (0..na).map(|_| IndexMap::default()).collect(),
            report: RunReport::default(),
            race_keys: HashMap::default(),
            div_seen: HashSet::new(),
            oob_seen: HashSet::new(),
            n: 0,
            tids: Vec::new(),
            bid: [0; 3],
            blin: 0,
            nv: prog.vars.len(),
            vars: Vec::new(),
            wrapped: Vec::new(),
            shared_mem: Vec::new(),
            block_logs: Vec::new(),
            epoch: 0,
            flights: Vec::new(),
            commits: Vec::new(),
            releases: Vec::new(),
            loop_stack: Vec::new(),
            ctx: Rc::new(Ctx::default()),
            steps: 0,
            warp: prog.warp_size,
            warp_steps: Vec::new(),
            warp_syncs: Vec::new(),
            global_reads: Vec::new(),
            read_cursor: 0,
            replay_until: 0,
            gridsyncs_done: 0,
            replaying: false,
            live_from: 0,
            paused_at: None,
            out_of_steps: false,
            work: 0,
            work_budget: 0,
            scanned: 0,
            named_joins: Vec::new(),
            named_pending: BTreeMap::new(),
            named_overruns: BTreeMap::new(),
            named_mismatch: Vec::new(),
            named_deferred: Vec::new(),
            named_deferred_seen: HashSet::new(),
            no_counters: Rc::from(Vec::new()),
        }
    }

    /// Runs every block of the grid, one after another in increasing linear block id, one grid
    /// barrier interval at a time: every block runs up to its next grid barrier (or its end)
    /// before any runs past it. A block resumes by re-running from its start with the values
    /// its global loads returned before (its shared memory and locals follow from them), silently
    /// up to the grid barrier it stopped at. Accesses of different blocks in different intervals
    /// are ordered: the grid log is cleared between intervals.
    pub(crate) fn run(mut self) -> RunReport {
        let bd = self.cfg.block_dim;
        let gd = self.cfg.grid_dim;
        let threads: u64 = bd.iter().map(|&d| u64::from(d)).product();
        let blocks: u64 = gd.iter().map(|&d| u64::from(d)).product();
        self.n = threads as usize;
        self.tids = (0..threads).map(|t| coords(t, bd)).collect();
        self.global_reads = vec![Vec::new(); blocks as usize];
        if !self.prog.named.is_empty() {
            self.named_deferred = vec![Vec::new(); blocks as usize];
        }
        self.work_budget = self.cfg.max_steps.saturating_mul(blocks);
        let mut running: Vec<u64> = (0..blocks).collect();
        let mut interval = 0;
        while !running.is_empty() {
            // The blocks waiting at a grid barrier (and which one), and those that ended.
            let mut waiting: Vec<(u64, Label)> = Vec::new();
            let mut ended: Vec<u64> = Vec::new();
            for &b in &running {
                self.blin = b as u32;
                self.bid = coords(b, gd);
                self.start_block(interval);
                let mask = vec![true; self.n];
                let prog = self.prog;
                let _stopped = self.exec(&prog.body, &mask);
                self.report.steps += self.steps.saturating_sub(self.live_from);
                if self.paused_at.is_none() && !self.prog.named.is_empty() {
                    self.named_end_of_block();
                }
                if self.report.infeasible.is_some() || self.report.unscheduled.is_some() {
                    // The run is outside the kernel's preconditions, or its order is not a
                    // schedule: nothing it did counts.
                    self.report.races.clear();
                    self.report.divergences.clear();
                    self.report.out_of_bounds.clear();
                    return self.report;
                }
                match self.paused_at.take() {
                    Some(l) => waiting.push((b, l)),
                    None if !self.out_of_steps => ended.push(b),
                    None => {}
                }
            }
            self.grid_divergence(&waiting, &ended);
            for log in &mut self.grid_logs {
                log.clear();
            }
            running = waiting.iter().map(|(b, _)| *b).collect();
            interval += 1;
        }
        self.report
    }

    /// Records the grid barriers of one interval that some blocks wait at and others do not
    /// reach (they ended, or wait at another grid barrier), once per label and block.
    fn grid_divergence(&mut self, waiting: &[(u64, Label)], ended: &[u64]) {
        let gd = self.cfg.grid_dim;
        for &(b, l) in waiting {
            let missing =
                ended.iter().copied().chain(waiting.iter().filter(|(_, m)| *m != l).map(|(o, _)| *o));
            for other in missing.take(1) {
                if self.div_seen.insert((l, other as u32)) {
                    self.report.divergences.push(DynDivergence {
                        barrier: l,
                        block: coords(other, gd),
                        enabled_thread: [0, 0, 0],
                        enabled_block: coords(b, gd),
                        disabled_thread: [0, 0, 0],
                    });
                }
            }
        }
    }

    fn start_block(&mut self, replay_until: u64) {
        self.replay_until = replay_until;
        self.gridsyncs_done = 0;
        self.replaying = replay_until > 0;
        self.read_cursor = 0;
        self.live_from = 0;
        self.paused_at = None;
        self.out_of_steps = false;
        let na = self.prog.arrays.len();
        self.shared_mem = (0..na).map(|_| IndexMap::default()).collect();
        self.block_logs = (0..na).map(|_| IndexMap::default()).collect();
        self.epoch = 0;
        self.flights = vec![Vec::new(); self.n];
        self.commits = vec![0; self.n];
        self.releases = vec![0; self.n];
        self.loop_stack.clear();
        self.ctx = Rc::new(Ctx::default());
        self.steps = 0;
        self.warp_steps = match self.warp {
            Some(w) => (0..self.n.div_ceil(w as usize)).map(|_| WarpSteps::default()).collect(),
            None => Vec::new(),
        };
        self.warp_syncs = vec![0; self.n.div_ceil(self.prog.syncwarp_width as usize)];
        let slots = self.prog.named.len();
        self.named_joins = (0..slots).map(|_| IndexMap::default()).collect();
        self.named_pending.clear();
        self.named_overruns.clear();
        self.named_mismatch = vec![BTreeMap::new(); slots];
        let np = self.param_values.len();
        let base = mix(mix(self.seed, tag::VARIABLE), u64::from(self.blin));
        self.vars = Vec::with_capacity(self.n * self.nv);
        self.wrapped = vec![false; self.n * self.nv];
        for t in 0..self.n {
            let bt = mix(base, t as u64);
            for v in 0..self.nv {
                let val = if v < np { self.param_values[v] } else { mix(bt, v as u64) as u32 };
                self.vars.push(val);
            }
        }
    }

    /// Counts one statement execution (step) by the threads of `mask`; fails once the block's
    /// budget is spent. The current step is `self.steps - 1` afterwards. Under warp-sync it also
    /// records which lanes of each warp took part in the step.
    fn tick(&mut self, mask: &[bool]) -> Exec {
        self.work += 1 + self.scanned / LOG_ENTRIES_PER_WORK;
        self.scanned %= LOG_ENTRIES_PER_WORK;
        if self.steps >= self.cfg.max_steps || self.work > self.work_budget {
            self.report.truncated = true;
            self.out_of_steps = true;
            return Err(Stop);
        }
        let step = self.steps;
        self.steps += 1;
        if let Some(w) = self.warp {
            let w = w as usize;
            for (k, ws) in self.warp_steps.iter_mut().enumerate() {
                let warp = &mask[(k * w).min(mask.len())..((k + 1) * w).min(mask.len())];
                let mut lanes = vec![0u64; w.div_ceil(64)];
                for (l, _) in warp.iter().enumerate().filter(|(_, on)| **on) {
                    lanes[l / 64] |= 1 << (l % 64);
                }
                ws.push(step, lanes);
            }
        }
        Ok(())
    }

    /// Whether an earlier logged access `e` and the new access `new` (distinct threads of this
    /// block) are unordered. Without warp-sync always. Under warp-sync, threads of different warps
    /// are unordered; threads of one warp only when both accesses are the same step (the same
    /// statement instance, necessarily two writes) or when no step from `e`'s up to (excluding)
    /// `new`'s ran with both threads enabled (after such a step the warp has re-synchronized).
    fn unordered_in_warp(warp: Option<u32>, steps: &[WarpSteps], e: &Access, new: &Access) -> bool {
        let Some(w) = warp else { return true };
        let (wa, wb) = (e.thread / w, new.thread / w);
        if wa != wb {
            return true;
        }
        if e.step == new.step {
            return true;
        }
        let Some(ws) = steps.get(wa as usize) else { return true };
        !ws.together(e.step, new.step, (e.thread % w) as usize, (new.thread % w) as usize)
    }

    fn rebuild_ctx(&mut self) {
        self.ctx = Rc::new(Ctx {
            loops: self.loop_stack.iter().map(|&(l, _)| l).collect(),
            iters: self.loop_stack.iter().map(|&(_, i)| i).collect(),
        });
    }

    fn eval(&self, e: &CExpr, t: usize) -> u32 {
        match e {
            CExpr::Const(c) => *c,
            CExpr::Var(v) => self.vars[t * self.nv + v],
            CExpr::Builtin(b) => match *b {
                Builtin::Tid(d) => self.tids[t][d.index()],
                Builtin::Bid(d) => self.bid[d.index()],
                Builtin::BlockDim(d) => self.cfg.block_dim[d.index()],
                Builtin::GridDim(d) => self.cfg.grid_dim[d.index()],
            },
            CExpr::Unary(op, a) => value::unary(*op, self.eval(a, t)),
            CExpr::Binary(op, a, b) => value::binary(*op, self.eval(a, t), self.eval(b, t)),
            CExpr::Select(c, a, b) => {
                if self.eval(c, t) != 0 {
                    self.eval(a, t)
                } else {
                    self.eval(b, t)
                }
            }
            CExpr::Call(name, args) => {
                let mut h = mix(mix(self.seed, tag::CALL), *name);
                h = mix(h, args.len() as u64);
                for a in args {
                    h = mix(h, u64::from(self.eval(a, t)));
                }
                (h >> 32) as u32
            }
        }
    }

    fn set(&mut self, t: usize, v: usize, val: u32) {
        self.vars[t * self.nv + v] = val;
        self.wrapped[t * self.nv + v] = false;
    }

    /// The value of the guard `cond` (of an `if` or a loop) in thread `t`, recording the first
    /// guard whose arithmetic wraps: the accesses it controls are outside the no-wrap
    /// assumption too (`RunReport::index_wrapped`).
    fn eval_guard(&mut self, cond: &CExpr, t: usize) -> u32 {
        let (value, wrapped) = self.eval_wrapping(cond, t);
        if wrapped && self.report.index_wrapped.is_none() {
            let l = self.loop_stack.last().map(|(l, _)| *l).unwrap_or(Label(0));
            self.report.index_wrapped = Some((l, self.bid, self.tids[t]));
        }
        value
    }

    /// [`Self::eval`], and whether evaluating `e` in thread `t` performs (or reads a variable
    /// computed with) a `+`, `-`, `*`, `<<` or negation whose result leaves the signed 32-bit
    /// range, or a `uadd`/`umul` with an operand or result at or above 2^31 as unsigned numbers,
    /// or an `iuadd`/`iumul` (`uiadd`/`uimul`) with its second (first) operand there or its
    /// result outside the signed range — the interpreter's side of the oracle's no-wrap
    /// condition (`verify::wrap`). Opaque calls start afresh. One walk: each subexpression is
    /// evaluated once.
    fn eval_wrapping(&self, e: &CExpr, t: usize) -> (u32, bool) {
        match e {
            CExpr::Const(_) | CExpr::Builtin(_) | CExpr::Call(..) => (self.eval(e, t), false),
            CExpr::Var(v) => (self.vars[t * self.nv + v], self.wrapped[t * self.nv + v]),
            CExpr::Unary(op, a) => {
                let (x, wrapped) = self.eval_wrapping(a, t);
                (value::unary(*op, x), wrapped || (*op == UnOp::Neg && x as i32 == i32::MIN))
            }
            CExpr::Binary(op, a, b) => {
                let (x, wa) = self.eval_wrapping(a, t);
                let (y, wb) = self.eval_wrapping(b, t);
                let (sx, sy) = (x as i32, y as i32);
                let here = match op {
                    BinOp::Add => sx.checked_add(sy).is_none(),
                    BinOp::Sub => sx.checked_sub(sy).is_none(),
                    BinOp::Mul => sx.checked_mul(sy).is_none(),
                    BinOp::UAdd => sx < 0 || sy < 0 || sx.checked_add(sy).is_none(),
                    BinOp::UMul => sx < 0 || sy < 0 || sx.checked_mul(sy).is_none(),
                    BinOp::IUAdd => sy < 0 || sx.checked_add(sy).is_none(),
                    BinOp::UIAdd => sx < 0 || sx.checked_add(sy).is_none(),
                    BinOp::IUMul => sy < 0 || sx.checked_mul(sy).is_none(),
                    BinOp::UIMul => sx < 0 || sx.checked_mul(sy).is_none(),
                    BinOp::Shl => y >= 32 || (sx.wrapping_shl(y) >> y) != sx,
                    _ => false,
                };
                (value::binary(*op, x, y), wa || wb || here)
            }
            CExpr::Select(c, a, b) => {
                if self.eval(c, t) != 0 {
                    self.eval_wrapping(a, t)
                } else {
                    self.eval_wrapping(b, t)
                }
            }
        }
    }

    fn exec(&mut self, stmts: &[CStmt], mask: &[bool]) -> Exec {
        for s in stmts {
            self.stmt(s, mask)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &CStmt, mask: &[bool]) -> Exec {
        self.tick(mask)?;
        let n = self.n;
        match s {
            CStmt::Nop => {}
            CStmt::Assign(v, e) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    let (val, wrapped) = self.eval_wrapping(e, t);
                    self.set(t, *v, val);
                    self.wrapped[t * self.nv + v] = wrapped;
                }
            }
            CStmt::Read(l, dst, target) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    if let Some(idx) = self.index(*l, target, t) {
                        // A wider access's value is its first element's (values are words).
                        let val = self.load(target.array, idx);
                        for u in 0..u64::from(target.width) {
                            let stored = Stored::plain(val, false, false);
                            let at = (target.array, idx + u, (idx, target.width));
                            self.log_access(*l, at, t, AccessKind::Read, stored);
                        }
                        self.set(t, *dst, val);
                    }
                }
            }
            CStmt::Write(l, target, e, collective) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    let val = self.eval(e, t);
                    if let Some(idx) = self.index(*l, target, t) {
                        for u in 0..u64::from(target.width) {
                            self.store(target.array, idx + u, val);
                            // The lanes of one warp storing at one collective instance are one store.
                            let stored =
                                Stored { collective: *collective, ..Stored::plain(val, true, false) };
                            let at = (target.array, idx + u, (idx, target.width));
                            self.log_access(*l, at, t, AccessKind::Write, stored);
                        }
                    }
                }
            }
            CStmt::AsyncWrite(l, target, e) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    let val = self.eval(e, t);
                    if let Some(idx) = self.index(*l, target, t) {
                        // Storing at once is one schedule of the copy; the log keeps it in
                        // flight until its wait.
                        for u in 0..u64::from(target.width) {
                            self.store(target.array, idx + u, val);
                        }
                        let flight = Flight {
                            label: *l,
                            array: target.array,
                            extent: (idx, target.width),
                            value: val,
                            group: None,
                            named: self.counters(t),
                            ctx: Rc::clone(&self.ctx),
                        };
                        self.log_flight(&flight, t);
                        self.flights[t].push(flight);
                    }
                }
            }
            CStmt::Commit => {
                for t in (0..n).filter(|&t| mask[t]) {
                    self.commits[t] += 1;
                    let c = self.commits[t];
                    for f in self.flights[t].iter_mut().filter(|f| f.group.is_none()) {
                        f.group = Some(c);
                    }
                }
            }
            CStmt::Wait(pending) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    // All but the `pending` most recent groups (none while fewer are committed).
                    self.land_groups_up_to(t, self.commits[t].saturating_sub(u64::from(*pending)));
                }
            }
            CStmt::WaitOldest => {
                for t in (0..n).filter(|&t| mask[t]) {
                    self.land_groups_up_to(t, self.releases[t] + 1);
                }
            }
            CStmt::Release => {
                for t in (0..n).filter(|&t| mask[t]) {
                    // Releasing with nothing committed and unreleased releases nothing.
                    self.releases[t] = (self.releases[t] + 1).min(self.commits[t]);
                }
            }
            CStmt::Atomic(l, dst, op, target, e, block_scope) => {
                for t in (0..n).filter(|&t| mask[t]) {
                    let operand = self.eval(e, t);
                    if let Some(idx) = self.index(*l, target, t) {
                        let old = self.load(target.array, idx);
                        let new = value::atomic(*op, old, operand);
                        self.store(target.array, idx, new);
                        let exchange = *op == AtomicOp::Exch && dst.is_none();
                        for u in 0..u64::from(target.width) {
                            let stored = Stored::plain(new, exchange, *block_scope);
                            let at = (target.array, idx + u, (idx, target.width));
                            self.log_access(*l, at, t, AccessKind::Atomic, stored);
                        }
                        if let Some(d) = dst {
                            self.set(t, *d, old);
                        }
                    }
                }
            }
            CStmt::Barrier(l) => self.barrier(*l, mask),
            CStmt::NamedJoin { label, slot, count, wait } => {
                self.named_join(*label, *slot, *count, *wait, mask)
            }
            CStmt::NamedWait { label, slot, instance } => {
                let waits: Vec<(usize, u32)> =
                    (0..n).filter(|&t| mask[t]).map(|t| (t, self.eval(instance, t))).collect();
                self.named_wait(*label, *slot, &waits);
            }
            CStmt::Gridsync(l) => return self.gridsync(*l, mask),
            CStmt::Syncwarp(l) => self.syncwarp(*l, mask),
            CStmt::Assume(l, cond) => {
                if let Some(t) = (0..n).filter(|&t| mask[t]).find(|&t| self.eval(cond, t) == 0) {
                    self.report.infeasible = Some((*l, self.bid, self.tids[t]));
                    return Err(Stop);
                }
            }
            CStmt::If(cond, then, els) => {
                let mut tm = vec![false; n];
                let mut em = vec![false; n];
                for t in (0..n).filter(|&t| mask[t]) {
                    if self.eval_guard(cond, t) != 0 {
                        tm[t] = true;
                    } else {
                        em[t] = true;
                    }
                }
                if tm.contains(&true) {
                    self.exec(then, &tm)?;
                }
                if let Some(els) = els {
                    if em.contains(&true) {
                        self.exec(els, &em)?;
                    }
                }
            }
            CStmt::While(l, cond, body) => {
                let mut m = mask.to_vec();
                self.loop_stack.push((*l, 0));
                let mut k: u64 = 0;
                loop {
                    let mut any = false;
                    for (t, on) in m.iter_mut().enumerate() {
                        if *on {
                            if self.eval_guard(cond, t) == 0 {
                                *on = false;
                            } else {
                                any = true;
                            }
                        }
                    }
                    if !any {
                        break;
                    }
                    if let Some(top) = self.loop_stack.last_mut() {
                        *top = (*l, k);
                    }
                    self.rebuild_ctx();
                    self.exec(body, &m)?;
                    k += 1;
                    // Every further guard evaluation is one more execution of the loop statement,
                    // by the threads still in the loop.
                    self.tick(&m)?;
                }
                self.loop_stack.pop();
                self.rebuild_ctx();
            }
        }
        Ok(())
    }

    fn barrier(&mut self, l: Label, mask: &[bool]) {
        let enabled = mask.iter().position(|&b| b);
        let disabled = mask.iter().position(|&b| !b);
        let Some(e) = enabled else { return };
        if let Some(d) = disabled {
            self.record_divergence(l, e, d);
        }
        // Synchronizes (also when divergent, so later findings are about the code after it).
        self.epoch += 1;
        for ws in &mut self.warp_steps {
            ws.runs.clear();
        }
        // A copy in flight may land in the new interval too.
        let flights: Vec<(usize, Flight)> = self
            .flights
            .iter()
            .enumerate()
            .flat_map(|(t, fs)| fs.iter().map(move |f| (t, f.clone())))
            .collect();
        for (t, f) in flights {
            self.log_flight(&f, t);
        }
    }

    /// Logs every element of a copy in flight as a write of the current barrier interval.
    fn log_flight(&mut self, f: &Flight, t: usize) {
        let (idx, width) = f.extent;
        let saved = std::mem::replace(&mut self.ctx, Rc::clone(&f.ctx));
        for u in 0..u64::from(width) {
            let stored = Stored {
                in_flight: true,
                named: Some(Rc::clone(&f.named)),
                ..Stored::plain(f.value, true, false)
            };
            self.log_access(f.label, (f.array, idx + u, f.extent), t, AccessKind::Write, stored);
        }
        self.ctx = saved;
    }

    /// Thread `t`'s copies in committed groups `1..=last` land (groups count from 1).
    fn land_groups_up_to(&mut self, t: usize, last: u64) {
        let (landed, still): (Vec<Flight>, Vec<Flight>) = std::mem::take(&mut self.flights[t])
            .into_iter()
            .partition(|f| f.group.is_some_and(|g| g <= last));
        self.flights[t] = still;
        for f in landed {
            self.land(&f, t);
        }
    }

    /// A copy lands (its thread's wait): from now on its logged writes are ordinary ones, made
    /// at this step.
    fn land(&mut self, f: &Flight, t: usize) {
        let (idx, width) = f.extent;
        let step = self.steps.saturating_sub(1);
        let syncs = self.warp_syncs.get(t / self.prog.syncwarp_width as usize).copied().unwrap_or(0);
        let epoch = self.epoch;
        for u in 0..u64::from(width) {
            let Some(log) = self.block_logs[f.array].get_mut(&(idx + u)) else { continue };
            if log.epoch != epoch {
                continue;
            }
            for e in
                log.entries.iter_mut().filter(|e| e.in_flight && e.label == f.label && e.thread == t as u32)
            {
                e.in_flight = false;
                e.step = step;
                e.warp_syncs = syncs;
            }
        }
    }

    /// A grid barrier: a block barrier for the threads of this block; the block's
    /// `replay_until`-th instance ends its replay, the next one stops the block until every
    /// block has run its interval ([`Machine::run`]). Not executed when no thread is enabled.
    fn gridsync(&mut self, l: Label, mask: &[bool]) -> Exec {
        if !mask.contains(&true) {
            return Ok(());
        }
        self.barrier(l, mask);
        self.gridsyncs_done += 1;
        if self.gridsyncs_done <= self.replay_until {
            if self.gridsyncs_done == self.replay_until {
                self.replaying = false;
                self.live_from = self.steps;
            }
            return Ok(());
        }
        self.paused_at = Some(l);
        Err(Stop)
    }

    /// A warp barrier: every warp with some lane enabled executes it, which orders the accesses
    /// its lanes made before it against those after it. A warp with some but not all of its
    /// lanes enabled records a [`DynDivergence`] (once per label and block) and still
    /// synchronizes, as a divergent block barrier does.
    fn syncwarp(&mut self, l: Label, mask: &[bool]) {
        let w = self.prog.syncwarp_width as usize;
        let mut divergent = None;
        for (k, count) in self.warp_syncs.iter_mut().enumerate() {
            let lanes = (k * w).min(mask.len())..((k + 1) * w).min(mask.len());
            let enabled = lanes.clone().find(|&t| mask[t]);
            let disabled = lanes.clone().find(|&t| !mask[t]);
            let Some(e) = enabled else { continue };
            *count += 1;
            if let Some(d) = disabled {
                divergent = divergent.or(Some((e, d)));
            }
        }
        if let Some((e, d)) = divergent {
            self.record_divergence(l, e, d);
        }
    }

    /// A thread's named barrier counters now.
    fn counters(&self, t: usize) -> Counters {
        if self.prog.named.is_empty() {
            return Rc::clone(&self.no_counters);
        }
        let at = |v: usize| self.vars[t * self.nv + v];
        self.prog.named.iter().map(|s| (at(s.arrived), at(s.waited))).collect()
    }

    /// The joins that complete an instance of the named barrier of `slot`: its count, or the
    /// block's threads.
    fn named_need(&self, slot: usize) -> u64 {
        self.prog.named[slot].count.map_or(self.n as u64, u64::from)
    }

    /// The joins instance `j` of the named barrier of `slot` has had so far in the block.
    fn named_joined(&self, slot: usize, j: u32) -> u64 {
        self.named_joins[slot].get(&u64::from(j)).copied().unwrap_or(0)
    }

    /// `bar sync` / `bar arrive` by the threads of `mask`: each joins the instance its
    /// `__nbID_arrived` counter names (the update before the statement counted it). An arrival
    /// that joins instance `j + 1` while instance `j` lacks joins (before this statement: the
    /// arrivals of one statement come in any order) and the thread did not wait for `j` is an
    /// overrun; a `bar sync` then waits for its instance ([`Self::named_wait`]).
    fn named_join(&mut self, l: Label, slot: usize, count: Option<u32>, wait: bool, mask: &[bool]) {
        let s: &NamedSlot = &self.prog.named[slot];
        let need = self.named_need(slot);
        let at = |t: usize, v: usize| self.vars[t * self.nv + v];
        let joining: Vec<(usize, u32)> =
            (0..self.n).filter(|&t| mask[t]).map(|t| (t, at(t, s.arrived))).collect();
        if let (true, Some(&(t, _))) = (count != s.count, joining.first()) {
            self.named_mismatch[slot].entry(l).or_insert(t);
        }
        for &(t, j) in &joining {
            let previous = j.wrapping_sub(1);
            if j >= 2 && self.named_joined(slot, previous) < need && at(t, s.waited) < previous {
                self.named_overruns.entry((slot, l)).or_insert((t, previous));
            }
        }
        for &(_, j) in &joining {
            *self.named_joins[slot].entry(u64::from(j)).or_default() += 1;
        }
        if wait {
            self.named_wait(l, slot, &joining);
        }
    }

    /// Threads wait for instances of the named barrier of `slot` (`(thread, instance)`; instance
    /// 0 is none). One that lacks joins by now is pending: the lock-step order went on without
    /// it, which the end of the block judges ([`Self::named_end_of_block`]).
    fn named_wait(&mut self, l: Label, slot: usize, waits: &[(usize, u32)]) {
        let need = self.named_need(slot);
        for &(t, w) in waits {
            if w > 0 && self.named_joined(slot, w) < need {
                self.named_pending.entry((slot, l, w)).or_insert(t);
            }
        }
    }

    /// Keeps a pair whose order through named barriers depends on the threads' totals, to
    /// decide at the end of the block (each distinct pair once).
    fn defer(&mut self, prev: Access, new: Access, array: usize, idx: u64) {
        let separating =
            super::separating_loop(&prev.ctx.loops, &prev.ctx.iters, &new.ctx.loops, &new.ctx.iters);
        let same = prev.stores && new.stores && prev.value == new.value && prev.extent == new.extent;
        let key = (
            prev.label,
            new.label,
            array,
            prev.thread,
            new.thread,
            Rc::clone(&prev.named),
            Rc::clone(&new.named),
            same,
            separating,
            self.blin,
        );
        if self.named_deferred_seen.insert(key) {
            if let Some(list) = self.named_deferred.get_mut(self.blin as usize) {
                list.push(Deferred { prev, new, array, idx });
            }
        }
    }

    /// The end of a block of a kernel with named barriers (or its stop at the step bound).
    /// A wait that passed an incomplete instance which completed later makes the run
    /// unscheduled ([`RunReport::unscheduled`](super::RunReport)). Otherwise the deferred pairs
    /// are decided with the threads' totals, and for each barrier some statement waits at, a
    /// divergence is recorded: at a statement whose count differs from the barrier's first;
    /// at its first joining statement when the threads that join it are not as many as it
    /// counts (a barrier nobody joins in the block excepted); at a wait whose instance never
    /// completes (a hang); and at an overrun.
    fn named_end_of_block(&mut self) {
        let ended = !self.out_of_steps;
        let nv = self.nv;
        if ended {
            let late = self
                .named_pending
                .iter()
                .find(|((s, _, w), _)| self.named_joined(*s, *w) >= self.named_need(*s));
            if let Some((&(_, l, _), &t)) = late {
                self.report.unscheduled = Some((l, self.bid, self.tids[t]));
                return;
            }
        }
        let slots = &self.prog.named;
        let total = |t: u32, s: usize| (self.vars[t as usize * nv + slots[s].arrived], true);
        let deferred = std::mem::take(&mut self.named_deferred[self.blin as usize]);
        let races: Vec<Deferred> = deferred
            .into_iter()
            .filter(|d| named_order(&d.prev, &d.new, slots.len(), total) != NamedOrder::Ordered)
            .collect();
        for d in races {
            self.report_race(&d.prev, &d.new, d.array, d.idx, Scope::Block);
        }
        if !ended {
            return;
        }
        let mut found: Vec<(Label, usize, usize)> = Vec::new();
        for (slot, s) in self.prog.named.iter().enumerate().filter(|(_, s)| s.waits) {
            let need = self.named_need(slot);
            let totals: Vec<u32> = (0..self.n).map(|t| self.vars[t * nv + s.arrived]).collect();
            // A thread that never joined instance `j` (else `fallback`).
            let missing = |j: u32, fallback: usize| totals.iter().position(|&x| x < j).unwrap_or(fallback);
            for (&l, &t) in &self.named_mismatch[slot] {
                found.push((l, t, missing(1, t)));
            }
            let participants = totals.iter().filter(|&&x| x > 0).count() as u64;
            if let (Some(first), Some(t)) = (s.first, totals.iter().position(|&x| x > 0)) {
                if participants != need {
                    found.push((first, t, missing(1, t)));
                }
            }
            for (&(_, l, w), &t) in
                self.named_pending.range((slot, Label(0), 0)..).take_while(|(k, _)| k.0 == slot)
            {
                found.push((l, t, missing(w, t)));
            }
            for (&(_, l), &(t, j)) in
                self.named_overruns.range((slot, Label(0))..).take_while(|(k, _)| k.0 == slot)
            {
                found.push((l, t, missing(j, t)));
            }
        }
        for (l, e, d) in found {
            self.record_divergence(l, e, d);
        }
    }

    /// Records that barrier `l` ran with thread `e` enabled and `d` not (once per label and block).
    fn record_divergence(&mut self, l: Label, e: usize, d: usize) {
        if self.div_seen.insert((l, self.blin)) {
            self.report.divergences.push(DynDivergence {
                barrier: l,
                block: self.bid,
                enabled_thread: self.tids[e],
                enabled_block: self.bid,
                disabled_thread: self.tids[d],
            });
        }
    }

    /// The linear element index of an access, or `None` (recorded as out of bounds) when an index
    /// exceeds a known dimension.
    fn index(&mut self, l: Label, target: &Target, t: usize) -> Option<u64> {
        let arr = &self.prog.arrays[target.array];
        let mut lin: u64 = 0;
        let mut oob = false;
        let mut wrapped = false;
        let last = target.index.len().saturating_sub(1);
        for (k, e) in target.index.iter().enumerate() {
            let (i, w) = self.eval_wrapping(e, t);
            wrapped |= w;
            if let Some(Some(size)) = arr.dims.get(k) {
                // The last subscript's access covers `width` elements from `i` on.
                let end = if k == last { u64::from(i) + u64::from(target.width) } else { u64::from(i) + 1 };
                oob |= end > u64::from(*size);
            }
            let stride = arr.strides.get(k).copied().unwrap_or(1);
            lin = lin.wrapping_add(u64::from(i).wrapping_mul(stride));
        }
        if wrapped && self.report.index_wrapped.is_none() {
            self.report.index_wrapped = Some((l, self.bid, self.tids[t]));
        }
        if oob {
            if self.oob_seen.insert((l, target.array)) {
                self.report.out_of_bounds.push((l, arr.name.clone(), lin));
            }
            return None;
        }
        Some(lin)
    }

    fn mem_init(&self, array: usize, idx: u64, shared: bool) -> u32 {
        let mut h = mix(mix(self.seed, tag::MEMORY), array as u64);
        h = mix(h, idx);
        if shared {
            h = mix(h, u64::from(self.blin));
        }
        (h >> 32) as u32
    }

    /// The value of an element. A global load returns, while the block replays, what it
    /// returned when the block ran that interval (recorded then).
    fn load(&mut self, array: usize, idx: u64) -> u32 {
        let shared = self.prog.arrays[array].space == Space::Shared;
        if !shared && self.replaying {
            let recorded = self.global_reads.get(self.blin as usize).and_then(|r| r.get(self.read_cursor));
            self.read_cursor += 1;
            if let Some(v) = recorded {
                return *v;
            }
        }
        let mem = if shared { &self.shared_mem[array] } else { &self.global_mem[array] };
        let v = match mem.get(&idx) {
            Some(v) => *v,
            None => {
                let init = self.mem_init(array, idx, shared);
                self.store(array, idx, init);
                init
            }
        };
        if !shared {
            if let Some(r) = self.global_reads.get_mut(self.blin as usize) {
                r.push(v);
            }
        }
        v
    }

    /// Stores into an element; a replaying block's global stores happened already.
    fn store(&mut self, array: usize, idx: u64, val: u32) {
        let shared = self.prog.arrays[array].space == Space::Shared;
        if !shared && self.replaying {
            return;
        }
        let mem = if shared { &mut self.shared_mem[array] } else { &mut self.global_mem[array] };
        mem.insert(idx, val);
    }

    /// Logs one element `idx` of an access (`at`: array, element, and the whole access's first
    /// element and width) with what it stores ([`Stored`]) and reports every race it completes.
    /// Nothing is logged while the block replays: those accesses were logged when it ran them.
    fn log_access(
        &mut self,
        l: Label,
        at: (usize, u64, (u64, u32)),
        t: usize,
        kind: AccessKind,
        stored: Stored,
    ) {
        let (array, idx, extent) = at;
        if self.replaying {
            return;
        }
        let Stored { value: val, stores, block_atomic, in_flight, collective, named } = stored;
        let named = named.unwrap_or_else(|| self.counters(t));
        let new = Access {
            label: l,
            kind,
            thread: t as u32,
            block: self.blin,
            value: val,
            stores,
            step: self.steps.saturating_sub(1),
            warp_syncs: self.warp_syncs.get(t / self.prog.syncwarp_width as usize).copied().unwrap_or(0),
            block_atomic,
            extent,
            in_flight,
            collective,
            named,
            // Only a copy's write is logged in flight (and stays a copy once landed).
            copy: in_flight,
            ctx: Rc::clone(&self.ctx),
        };
        let mut found: Vec<(Access, Scope)> = Vec::new();
        let epoch = self.epoch;
        let (warp, steps) = (self.warp, &self.warp_steps);
        let sw = self.prog.syncwarp_width;
        let (slots, vars, nv) = (&self.prog.named, &self.vars, self.nv);
        let mut deferred: Vec<Access> = Vec::new();
        let log = self.block_logs[array].entry(idx).or_default();
        if log.epoch != epoch {
            log.entries.clear();
            log.epoch = epoch;
        }
        self.scanned += log.entries.len() as u64;
        for e in &log.entries {
            // The lanes of one warp storing at one collective instance are one store.
            let one_store = e.collective
                && new.collective
                && e.label == new.label
                && e.step == new.step
                && e.thread / sw == new.thread / sw;
            if e.thread != new.thread
                && !one_store
                && conflict(e, &new)
                && (e.in_flight
                    || (Self::unordered_in_warp(warp, steps, e, &new)
                        && !(e.thread / sw == new.thread / sw && e.warp_syncs != new.warp_syncs)))
            {
                // Named barriers may order them; a thread that joins again later decides it.
                let so_far = |t: u32, s: usize| (vars[t as usize * nv + slots[s].arrived], false);
                match named_order(e, &new, slots.len(), so_far) {
                    NamedOrder::Ordered => {}
                    NamedOrder::Unordered => found.push((e.clone(), Scope::Block)),
                    NamedOrder::Undecided => deferred.push(e.clone()),
                }
            }
            if e.thread == new.thread && e.in_flight && conflict(e, &new) {
                found.push((e.clone(), Scope::Copy));
            }
        }
        // Warp-sync and `syncwarp` order some pairs of threads and not others: keep every thread.
        // Named barriers too (through each thread's counters): a thread's latest access of a
        // label is ordered before a later access only if its earlier ones are.
        let keep = if warp.is_some() || self.prog.has_syncwarp || !slots.is_empty() { usize::MAX } else { 2 };
        log_insert(&mut log.entries, new.clone(), keep, |a, b| a.thread == b.thread);
        if self.prog.arrays[array].space == Space::Global {
            let glog = self.grid_logs[array].entry(idx).or_default();
            for e in glog.iter() {
                if e.block != new.block && grid_conflict(e, &new) {
                    found.push((e.clone(), Scope::Grid));
                }
            }
            log_insert(glog, new.clone(), 2, |a, b| a.block == b.block);
        }
        for prev in deferred {
            self.defer(prev, new.clone(), array, idx);
        }
        for (prev, scope) in found {
            self.report_race(&prev, &new, array, idx, scope);
        }
    }

    fn report_race(&mut self, prev: &Access, new: &Access, array: usize, idx: u64, scope: Scope) {
        let separating = if scope != Scope::Grid {
            super::separating_loop(&prev.ctx.loops, &prev.ctx.iters, &new.ctx.loops, &new.ctx.iters)
        } else {
            None
        };
        let key = (prev.label, new.label, array, scope as u8, separating);
        let same = prev.stores && new.stores && prev.value == new.value && prev.extent == new.extent;
        if let Some(&i) = self.race_keys.get(&key) {
            self.report.races[i].same_value &= same;
            return;
        }
        let bd = self.cfg.block_dim;
        let gd = self.cfg.grid_dim;
        self.race_keys.insert(key, self.report.races.len());
        self.report.races.push(DynRace {
            first: prev.label,
            second: new.label,
            array: self.prog.arrays[array].name.clone(),
            index: idx,
            threads: [coords(u64::from(prev.thread), bd), coords(u64::from(new.thread), bd)],
            blocks: [coords(u64::from(prev.block), gd), coords(u64::from(new.block), gd)],
            kinds: [prev.kind, new.kind],
            iterations: [prev.ctx.iters.clone(), new.ctx.iters.clone()],
            loops: [prev.ctx.loops.clone(), new.ctx.loops.clone()],
            same_value: same,
            scope,
        });
    }
}
