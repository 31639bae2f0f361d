//! A proptest generator of well-formed KPL kernels for the differential property tests.
//!
//! A kernel is generated as a flat list of [`Tok`]ens (statements, `Open`s of ifs and loops,
//! `Else`, `Close`) and rendered to KPL text by a stack machine that repairs any nesting the list
//! gets wrong (a stray `Close` or `Else` is dropped, open blocks are closed at the end, nesting
//! beyond [`MAX_DEPTH`] is flattened). So every list renders to a kernel that parses, and
//! proptest shrinks a failing case by dropping tokens and simplifying their fields.
//!
//! Every index stays inside the arrays of size [`SIZE`] for the geometries of [`GEOMETRIES`]:
//! `tid.x ≤ 255`, `2*tid.x + 1 ≤ 511`, loop counters stay below 256, `tid + s < 512`. The only
//! exception is the data-dependent index `urem(a, 16)`, which is in bounds too. The small array
//! `S` ([`SMALL`]) is left by most indices in blocks of 64 threads or more: every out-of-bounds
//! access a run executes must be among the oracle's findings, and such runs are skipped (and
//! counted) by the race comparisons.
//!
//! With named barriers ([`arb_kernel`]'s `named`, the soundness property) a kernel may also hold
//! named barrier statements of ids 1 to 3 ([`Tok::Named`]), regions of the first `m` warps of the
//! block that synchronize among themselves ([`Tok::Split`]) and hand-overs from those warps to the
//! others ([`Tok::Handoff`]). Their count is the number of threads the enclosing conditions let
//! reach the statement where the renderer can tell (conditions on the thread index and the
//! geometry; else the block's threads), none (the whole block), or deliberately 32 more.

use proptest::prelude::*;
use std::fmt::{self, Write as _};

/// Elements of every array but `S`.
pub const SIZE: u32 = 1024;
/// Elements of `S`: fewer than the threads of the larger blocks of [`GEOMETRIES`].
pub const SMALL: u32 = 48;
/// Deepest nesting of ifs and loops the renderer emits.
pub const MAX_DEPTH: usize = 3;
/// Deepest nesting of loops.
pub const MAX_LOOPS: usize = 2;

/// A launch geometry: blockDim, gridDim and the warp size under warp-sync (`None`: no implicit
/// warp synchrony).
pub type Geom = ([u32; 3], [u32; 3], Option<u32>);

/// Launch geometries, each at most 256 threads per block; six have several blocks (grid races,
/// grid barriers). Eleven of 27 use warp-sync: warps of
/// 32 with blocks of 32 to 128 threads (one to four warps, a partial last warp), and warps of 4
/// or 8 with small blocks, so that several warps (and 2-D warps by linear thread id) exist.
pub const GEOMETRIES: &[Geom] = &[
    ([1, 1, 1], [1, 1, 1], None),
    ([2, 1, 1], [1, 1, 1], None),
    ([3, 1, 1], [1, 1, 1], None),
    ([8, 1, 1], [1, 1, 1], None),
    ([32, 1, 1], [1, 1, 1], None),
    ([33, 1, 1], [1, 1, 1], None),
    ([64, 1, 1], [1, 1, 1], None),
    ([256, 1, 1], [1, 1, 1], None),
    ([4, 4, 1], [1, 1, 1], None),
    ([8, 2, 1], [1, 1, 1], None),
    ([16, 16, 1], [1, 1, 1], None),
    ([8, 1, 1], [2, 1, 1], None),
    ([32, 1, 1], [2, 1, 1], None),
    ([4, 4, 1], [2, 1, 1], None),
    ([32, 1, 1], [1, 1, 1], Some(32)),
    ([33, 1, 1], [1, 1, 1], Some(32)),
    ([64, 1, 1], [1, 1, 1], Some(32)),
    ([96, 1, 1], [1, 1, 1], Some(32)),
    ([128, 1, 1], [1, 1, 1], Some(32)),
    ([8, 1, 1], [1, 1, 1], Some(4)),
    ([6, 1, 1], [1, 1, 1], Some(4)),
    ([16, 1, 1], [1, 1, 1], Some(8)),
    ([4, 4, 1], [1, 1, 1], Some(8)),
    ([8, 2, 1], [1, 1, 1], Some(4)),
    ([8, 1, 1], [2, 1, 1], Some(4)),
    ([4, 1, 1], [3, 1, 1], None),
    ([16, 1, 1], [4, 1, 1], None),
];

/// An array: `A`, `B` (shared) or `G` (global), or the small shared `S` (of [`SMALL`] elements),
/// which the indices leave in the larger blocks: the out-of-bounds accesses the properties hold
/// the oracle to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arr {
    A,
    B,
    G,
    S,
}

/// An index expression. `Loop*` forms use the innermost enclosing loop's counter and fall back
/// to `tid.x` outside loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idx {
    Tid,
    TidPlus(u32),
    TwiceTid,
    TwiceTidPlus1,
    TidMod(u32),
    /// `(tid.x + c) % bdim.x`: the neighbour with wrap-around.
    Rotate(u32),
    Const(u32),
    Lin2D,
    Transposed,
    GlobalId,
    Loop,
    TidPlusLoop,
    /// `urem(a, 16)`: depends on a value read from memory.
    Data,
}

/// A condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    TidLt(u32),
    TidEven,
    TidZero,
    TidYZero,
    TidLtLoop,
    TidModLoop,
    DataGt,
    ParamGt(u32),
    LoopGt(u32),
    BidZero,
    BdimGt(u32),
    /// `tid.x + tid.y * bdim.x < 32 * m` (`bdim.x` written as its value): the first `m` warps
    /// of the block (by linear id), the part of the block a named barrier of `32 * m` threads
    /// serves. Only in [`Tok::Split`] and [`Tok::Handoff`].
    WarpLt(u32),
}

/// A named barrier statement (`bar sync`, `bar arrive`, or `bar wait` for the thread's own
/// latest instance: a split arrival's wait).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedOp {
    Sync,
    Arrive,
    WaitOwn,
    /// `bar wait id, k;`: a wait for instance `k` (1 or 2) of a barrier some earlier statement
    /// joins (else rendered as [`NamedOp::WaitOwn`]).
    WaitFor(u32),
}

/// The count a named barrier statement gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedCount {
    /// The number of threads of the block that reach the statement, where the enclosing
    /// conditions tell it (they depend on the thread index and the geometry only, or are
    /// uniform); otherwise the block's threads.
    Right,
    /// No count: the whole block.
    Whole,
    /// 32 more than `Right`: a mismatch (a divergence both sides must see).
    Off,
}

/// A loop shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// `i := 0; while (i < c) … i := i + 1` (constant bound).
    Const(u32),
    /// `i := 0; while (i < n) … i := i + 1` (parameter bound).
    Param,
    /// `s := 1; while (s < bdim.x) … s := s * 2`.
    Double,
    /// `s := bdim.x / 2; while (s > 0) … s := s >> 1`.
    Halve,
    /// `i := tid.x; while (i < 64) … i := i + bdim.x` (thread-dependent trip count).
    Strided,
    /// `i := 0; f := i < c; while (f) … i := i + 1; local t := i < c; f := t;` (the lowering of
    /// a `for` whose condition calls a function: the oracle's carried condition flag).
    Flag(u32),
    /// `i := 0; f := i < c; while (f) … f := i < c; i := i + 1;` (a flag one step stale: the
    /// loop runs once more, with `i = c`).
    StaleFlag(u32),
}

/// A value written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    A,
    Sum,
    Tid,
    One,
}

/// One token of a generated kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Read(Arr, Idx, bool),
    Write(Arr, Idx, Val),
    Atomic(Arr, Idx, bool),
    /// An atomic of block scope (`atomic block add`).
    AtomicBlock(Arr, Idx),
    /// A wider access (issue #37): `w` elements from the index on (`rd A[i +: w]`, a vector
    /// load over narrower elements), a read (`None`), a write of the value, or an atomic.
    Wide(Arr, Idx, Option<Val>, u32),
    /// A wider atomic (`atomic add A[i +: w], 1`: an `int` atomic over `char` elements).
    WideAtomic(Arr, Idx, u32),
    /// An asynchronous copy's write (issue #38) of width 1, 2 or 4: `async wr A[i +: w] := a;`.
    AsyncCopy(Arr, Idx, u32),
    /// A warp-collective store (`warp wr A[i +: w] := 1;`, `wmma::store_matrix_sync`).
    WarpStore(Arr, Idx, u32),
    /// `commit;` (closes the thread's group of copies).
    Commit,
    /// `wait n;` (all but the `n` most recent committed groups land).
    Wait(u32),
    /// `wait oldest;` (a pipeline's `consumer_wait`: the oldest group not released lands).
    WaitOldest,
    /// `release;` (a pipeline's `consumer_release`).
    Release,
    Assign(bool),
    Barrier,
    /// A warp barrier (`syncwarp;`).
    Syncwarp,
    /// A grid barrier (`gridsync;`).
    Gridsync,
    /// A named barrier statement: id (1 to 3), what it does, its count.
    Named(u32, NamedOp, NamedCount),
    /// The first `m` warps of the block (by linear id) synchronize among themselves:
    /// `if (tid.x + tid.y * X < 32 * m) { bar sync id, C;` — the tokens that follow are
    /// inside the `if`, after the barrier.
    Split(u32, u32, NamedCount),
    /// The first `m` warps hand a value over to the others: `if (… < 32 * m) { wr X[i] := tid.x;
    /// bar arrive id, C; } else { bar sync id, C; a := rd Y[j]; }` with `C` the threads that
    /// reach it (a schedule lock-step follows: the arrivals run first).
    Handoff(u32, u32, (Arr, Idx), (Arr, Idx), NamedCount),
    If(Cond),
    Else,
    Loop(LoopKind),
    Close,
}

/// A generated kernel with its launch geometry.
#[derive(Clone, PartialEq, Eq)]
pub struct GenKernel {
    pub toks: Vec<Tok>,
    pub geometry: usize,
}

impl fmt::Debug for GenKernel {
    /// The rendered KPL, so that a failing (shrunk) case prints as a kernel.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.render())
    }
}

fn arb_arr() -> impl Strategy<Value = Arr> {
    prop_oneof![4 => Just(Arr::A), 1 => Just(Arr::B), 2 => Just(Arr::G), 1 => Just(Arr::S)]
}

fn arb_idx() -> impl Strategy<Value = Idx> {
    prop_oneof![
        4 => Just(Idx::Tid),
        2 => (1u32..=32).prop_map(Idx::TidPlus),
        1 => Just(Idx::TwiceTid),
        1 => Just(Idx::TwiceTidPlus1),
        1 => prop_oneof![Just(2u32), Just(4), Just(8)].prop_map(Idx::TidMod),
        1 => (1u32..=3).prop_map(Idx::Rotate),
        2 => (0u32..=3).prop_map(Idx::Const),
        1 => Just(Idx::Lin2D),
        1 => Just(Idx::Transposed),
        1 => Just(Idx::GlobalId),
        2 => Just(Idx::Loop),
        2 => Just(Idx::TidPlusLoop),
        1 => Just(Idx::Data),
    ]
}

fn arb_cond() -> impl Strategy<Value = Cond> {
    prop_oneof![
        2 => prop_oneof![Just(1u32), Just(2), Just(4), Just(16), Just(32)].prop_map(Cond::TidLt),
        1 => Just(Cond::TidEven),
        1 => Just(Cond::TidZero),
        1 => Just(Cond::TidYZero),
        2 => Just(Cond::TidLtLoop),
        1 => Just(Cond::TidModLoop),
        1 => Just(Cond::DataGt),
        2 => (0u32..=3).prop_map(Cond::ParamGt),
        1 => (0u32..=2).prop_map(Cond::LoopGt),
        1 => Just(Cond::BidZero),
        1 => prop_oneof![Just(1u32), Just(32)].prop_map(Cond::BdimGt),
    ]
}

fn arb_named() -> impl Strategy<Value = Tok> {
    let op = prop_oneof![
        4 => Just(NamedOp::Sync),
        2 => Just(NamedOp::Arrive),
        1 => Just(NamedOp::WaitOwn),
        1 => (1u32..=2).prop_map(NamedOp::WaitFor),
    ];
    (1u32..=3, op, arb_count()).prop_map(|(id, op, count)| Tok::Named(id, op, count))
}

fn arb_count() -> impl Strategy<Value = NamedCount> {
    prop_oneof![6 => Just(NamedCount::Right), 1 => Just(NamedCount::Whole), 1 => Just(NamedCount::Off)]
}

fn arb_loop() -> impl Strategy<Value = LoopKind> {
    prop_oneof![
        2 => (0u32..=3).prop_map(LoopKind::Const),
        2 => Just(LoopKind::Param),
        2 => Just(LoopKind::Double),
        2 => Just(LoopKind::Halve),
        1 => Just(LoopKind::Strided),
        1 => (0u32..=3).prop_map(LoopKind::Flag),
        1 => (0u32..=3).prop_map(LoopKind::StaleFlag),
    ]
}

fn arb_val() -> impl Strategy<Value = Val> {
    prop_oneof![Just(Val::A), Just(Val::Sum), Just(Val::Tid), Just(Val::One)]
}

fn arb_tok() -> impl Strategy<Value = Tok> {
    prop_oneof![
        5 => (arb_arr(), arb_idx(), any::<bool>()).prop_map(|(a, i, d)| Tok::Read(a, i, d)),
        5 => (arb_arr(), arb_idx(), arb_val()).prop_map(|(a, i, v)| Tok::Write(a, i, v)),
        1 => (arb_arr(), arb_idx(), any::<bool>()).prop_map(|(a, i, r)| Tok::Atomic(a, i, r)),
        1 => (arb_arr(), arb_idx()).prop_map(|(a, i)| Tok::AtomicBlock(a, i)),
        2 => (arb_arr(), arb_idx(), proptest::option::of(arb_val()), prop_oneof![Just(2u32), Just(4)])
            .prop_map(|(a, i, v, w)| Tok::Wide(a, i, v, w)),
        1 => (arb_arr(), arb_idx(), prop_oneof![Just(2u32), Just(4)]).prop_map(|(a, i, w)| Tok::WideAtomic(a, i, w)),
        2 => (arb_arr(), arb_idx(), prop_oneof![Just(1u32), Just(2), Just(4)])
            .prop_map(|(a, i, w)| Tok::AsyncCopy(a, i, w)),
        1 => (arb_arr(), arb_idx(), prop_oneof![Just(1u32), Just(4)]).prop_map(|(a, i, w)| Tok::WarpStore(a, i, w)),
        2 => Just(Tok::Commit),
        2 => (0u32..=2).prop_map(Tok::Wait),
        1 => Just(Tok::WaitOldest),
        1 => Just(Tok::Release),
        1 => any::<bool>().prop_map(Tok::Assign),
        3 => Just(Tok::Barrier),
        2 => Just(Tok::Syncwarp),
        1 => Just(Tok::Gridsync),
        2 => arb_cond().prop_map(Tok::If),
        1 => Just(Tok::Else),
        2 => arb_loop().prop_map(Tok::Loop),
        3 => Just(Tok::Close),
    ]
}

/// [`arb_tok`] or, with some probability, a named barrier: a statement ([`Tok::Named`]), a
/// region of the first warps that synchronize ([`Tok::Split`]), or a hand-over between the
/// first warps and the others ([`Tok::Handoff`]).
fn arb_tok_named() -> impl Strategy<Value = Tok> {
    prop_oneof![
        37 => arb_tok(),
        2 => arb_named(),
        2 => (1u32..=3, 1u32..=3, arb_count()).prop_map(|(id, m, c)| Tok::Split(id, m, c)),
        1 => (1u32..=3, 1u32..=3, (arb_arr(), arb_idx()), (arb_arr(), arb_idx()), arb_count())
            .prop_map(|(id, m, w, r, c)| Tok::Handoff(id, m, w, r, c)),
    ]
}

/// Kernels of `1..=max_toks` tokens on one of [`GEOMETRIES`], with named barriers when
/// `named` (the soundness property; the synthesis gives up on a kernel whose named barrier
/// does not match, `synth` not handling that yet).
pub fn arb_kernel(max_toks: usize, named: bool) -> impl Strategy<Value = GenKernel> {
    let tok = if named { arb_tok_named().boxed() } else { arb_tok().boxed() };
    (prop::collection::vec(tok, 1..=max_toks), 0..GEOMETRIES.len())
        .prop_map(|(toks, geometry)| GenKernel { toks, geometry })
}

/// An open block of the renderer.
enum Open {
    /// `sel`: per thread of the block (linear id), whether it takes the branch being rendered,
    /// when the condition tells it statically (`None`: data, loop counters).
    If {
        has_else: bool,
        sel: Option<Vec<bool>>,
    },
    Loop {
        var: String,
        update: String,
    },
}

impl GenKernel {
    /// The launch geometry (blockDim, gridDim, warp size under warp-sync).
    pub fn dims(&self) -> Geom {
        GEOMETRIES[self.geometry % GEOMETRIES.len()]
    }

    /// The kernel as KPL text, with a header giving its geometry.
    pub fn render(&self) -> String {
        let (b, g, warp) = self.dims();
        let mut out = String::new();
        let _ =
            write!(out, "//--blockDim=[{},{},{}] --gridDim=[{},{},{}]", b[0], b[1], b[2], g[0], g[1], g[2]);
        if let Some(w) = warp {
            let _ = write!(out, " --warp-sync={w}");
        }
        out.push('\n');
        let _ = writeln!(out, "kernel gen(n, m) {{");
        let _ = writeln!(
            out,
            "  shared A[{SIZE}];\n  shared B[{SIZE}];\n  global G[{SIZE}];\n  shared S[{SMALL}];"
        );
        out.push_str("  local a := 0;\n  local c := 1;\n");
        let mut stack: Vec<Open> = Vec::new();
        let threads = (b[0] * b[1] * b[2]) as usize;
        // The named barrier ids some statement rendered so far joins.
        let mut joined: Vec<u32> = Vec::new();
        let mut loops = 0usize;
        let mut fresh = 0usize;
        let indent = |d: usize| "  ".repeat(d + 1);
        for tok in &self.toks {
            let d = stack.len();
            let lv = stack.iter().rev().find_map(|o| match o {
                Open::Loop { var, .. } => Some(var.clone()),
                _ => None,
            });
            let line = match *tok {
                Tok::Read(arr, idx, dst) => {
                    format!(
                        "{} := rd {}[{}];",
                        if dst { "a" } else { "c" },
                        arr_name(arr),
                        idx_text(idx, &lv)
                    )
                }
                Tok::Write(arr, idx, v) => {
                    format!("wr {}[{}] := {};", arr_name(arr), idx_text(idx, &lv), val_text(v))
                }
                Tok::Atomic(arr, idx, ret) => format!(
                    "{}atomic add {}[{}], 1;",
                    if ret { "a := " } else { "" },
                    arr_name(arr),
                    idx_text(idx, &lv)
                ),
                Tok::Assign(x) => {
                    if x {
                        "a := a + c;".to_string()
                    } else {
                        "c := tid.x;".to_string()
                    }
                }
                Tok::AsyncCopy(arr, idx, 1) => {
                    format!("async wr {}[{}] := a;", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::AsyncCopy(arr, idx, w) => {
                    format!("async wr {}[{} +: {w}] := a;", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::WarpStore(arr, idx, w) => {
                    format!("warp wr {}[{} +: {w}] := 1;", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::Commit => "commit;".to_string(),
                Tok::Wait(n) => format!("wait {n};"),
                Tok::WaitOldest => "wait oldest;".to_string(),
                Tok::Release => "release;".to_string(),
                Tok::Barrier => "barrier;".to_string(),
                Tok::Syncwarp => "syncwarp;".to_string(),
                Tok::Gridsync => "gridsync;".to_string(),
                Tok::Named(id, NamedOp::WaitFor(k), _) if joined.contains(&id) => {
                    format!("bar wait {id}, {k};")
                }
                Tok::Named(id, NamedOp::WaitOwn | NamedOp::WaitFor(_), _) => {
                    format!("bar wait {id}, __nb{id}_arrived;")
                }
                Tok::Named(id, op, count) => {
                    joined.push(id);
                    let how = if op == NamedOp::Sync { "sync" } else { "arrive" };
                    named_text(how, id, count, reaching(&stack, threads))
                }
                Tok::Split(id, m, count) => {
                    if d >= MAX_DEPTH {
                        continue;
                    }
                    joined.push(id);
                    let cond = Cond::WarpLt(m);
                    let sel = (0..threads).map(|t| cond_holds(cond, &lv, b, t)).collect();
                    let _ = writeln!(out, "{}if ({}) {{", indent(d), cond_text(cond, &lv, b));
                    stack.push(Open::If { has_else: false, sel });
                    let _ = writeln!(
                        out,
                        "{}{}",
                        indent(d + 1),
                        named_text("sync", id, count, reaching(&stack, threads))
                    );
                    continue;
                }
                Tok::Handoff(id, m, (wa, wi), (ra, ri), count) => {
                    if d >= MAX_DEPTH {
                        continue;
                    }
                    joined.push(id);
                    let bar = |how| named_text(how, id, count, reaching(&stack, threads));
                    let (i0, i1) = (indent(d), indent(d + 1));
                    let _ = writeln!(out, "{i0}if ({}) {{", cond_text(Cond::WarpLt(m), &lv, b));
                    let _ = writeln!(out, "{i1}wr {}[{}] := tid.x;", arr_name(wa), idx_text(wi, &lv));
                    let _ = writeln!(out, "{i1}{}", bar("arrive"));
                    let _ = writeln!(out, "{i0}}} else {{");
                    let _ = writeln!(out, "{i1}{}", bar("sync"));
                    let _ = writeln!(out, "{i1}a := rd {}[{}];", arr_name(ra), idx_text(ri, &lv));
                    let _ = writeln!(out, "{i0}}}");
                    continue;
                }
                Tok::AtomicBlock(arr, idx) => {
                    format!("atomic block add {}[{}], 1;", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::Wide(arr, idx, None, w) => {
                    format!("a := rd {}[{} +: {w}];", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::Wide(arr, idx, Some(v), w) => {
                    format!("wr {}[{} +: {w}] := {};", arr_name(arr), idx_text(idx, &lv), val_text(v))
                }
                Tok::WideAtomic(arr, idx, w) => {
                    format!("atomic add {}[{} +: {w}], 1;", arr_name(arr), idx_text(idx, &lv))
                }
                Tok::If(cond) => {
                    if d >= MAX_DEPTH {
                        continue;
                    }
                    let sel = (0..threads).map(|t| cond_holds(cond, &lv, b, t)).collect();
                    stack.push(Open::If { has_else: false, sel });
                    format!("if ({}) {{", cond_text(cond, &lv, b))
                }
                Tok::Else => match stack.last_mut() {
                    Some(Open::If { has_else, sel }) if !*has_else => {
                        *has_else = true;
                        if let Some(s) = sel {
                            s.iter_mut().for_each(|x| *x = !*x);
                        }
                        let _ = writeln!(out, "{}}} else {{", indent(d - 1));
                        continue;
                    }
                    _ => continue,
                },
                Tok::Loop(kind) => {
                    if d >= MAX_DEPTH || loops >= MAX_LOOPS {
                        continue;
                    }
                    let var = format!("i{fresh}");
                    fresh += 1;
                    loops += 1;
                    let (init, cond, update) = match kind {
                        LoopKind::Const(c) => {
                            ("0".into(), format!("{var} < {c}"), format!("{var} := {var} + 1;"))
                        }
                        LoopKind::Param => ("0".into(), format!("{var} < n"), format!("{var} := {var} + 1;")),
                        LoopKind::Double => {
                            ("1".into(), format!("{var} < bdim.x"), format!("{var} := {var} * 2;"))
                        }
                        LoopKind::Halve => {
                            ("bdim.x / 2".into(), format!("{var} > 0"), format!("{var} := {var} >> 1;"))
                        }
                        LoopKind::Strided => {
                            ("tid.x".to_string(), format!("{var} < 64"), format!("{var} := {var} + bdim.x;"))
                        }
                        LoopKind::Flag(c) | LoopKind::StaleFlag(c) => {
                            let flag = format!("f{var}");
                            let test = format!("{var} < {c}");
                            let update = if matches!(kind, LoopKind::Flag(_)) {
                                format!("{var} := {var} + 1; local t{var} := {test}; {flag} := t{var};")
                            } else {
                                format!("{flag} := {test}; {var} := {var} + 1;")
                            };
                            let _ = writeln!(out, "{}local {var} := 0;", indent(d));
                            let _ = writeln!(out, "{}local {flag} := {test};", indent(d));
                            stack.push(Open::Loop { var: var.clone(), update });
                            let _ = writeln!(out, "{}while ({flag}) {{", indent(d));
                            continue;
                        }
                    };
                    let _ = writeln!(out, "{}local {var} := {init};", indent(d));
                    stack.push(Open::Loop { var: var.clone(), update });
                    format!("while ({cond}) {{")
                }
                Tok::Close => {
                    if stack.is_empty() {
                        continue;
                    }
                    close(&mut out, &mut stack, &mut loops, &indent);
                    continue;
                }
            };
            let _ = writeln!(out, "{}{}", indent(d), line);
        }
        while !stack.is_empty() {
            close(&mut out, &mut stack, &mut loops, &indent);
        }
        out.push_str("}\n");
        out
    }
}

fn close(out: &mut String, stack: &mut Vec<Open>, loops: &mut usize, indent: &impl Fn(usize) -> String) {
    let d = stack.len();
    if let Some(Open::Loop { update, .. }) = stack.pop() {
        let _ = writeln!(out, "{}{}", indent(d), update);
        *loops -= 1;
    }
    let _ = writeln!(out, "{}}}", indent(d - 1));
}

fn arr_name(a: Arr) -> &'static str {
    match a {
        Arr::A => "A",
        Arr::B => "B",
        Arr::G => "G",
        Arr::S => "S",
    }
}

fn val_text(v: Val) -> &'static str {
    match v {
        Val::A => "a",
        Val::Sum => "a + c",
        Val::Tid => "tid.x",
        Val::One => "1",
    }
}

fn idx_text(i: Idx, lv: &Option<String>) -> String {
    match i {
        Idx::Tid => "tid.x".into(),
        Idx::TidPlus(c) => format!("tid.x + {c}"),
        Idx::TwiceTid => "2 * tid.x".into(),
        Idx::TwiceTidPlus1 => "2 * tid.x + 1".into(),
        Idx::TidMod(c) => format!("tid.x % {c}"),
        Idx::Rotate(c) => format!("(tid.x + {c}) % bdim.x"),
        Idx::Const(c) => c.to_string(),
        Idx::Lin2D => "tid.y * bdim.x + tid.x".into(),
        Idx::Transposed => "tid.x * bdim.y + tid.y".into(),
        Idx::GlobalId => "bid.x * bdim.x + tid.x".into(),
        Idx::Loop => lv.clone().unwrap_or_else(|| "tid.x".into()),
        Idx::TidPlusLoop => match lv {
            Some(v) => format!("tid.x + {v}"),
            None => "tid.x + 1".into(),
        },
        Idx::Data => "urem(a, 16)".into(),
    }
}

fn cond_text(c: Cond, lv: &Option<String>, dims: [u32; 3]) -> String {
    match c {
        Cond::TidLt(k) => format!("tid.x < {k}"),
        Cond::TidEven => "tid.x % 2 == 0".into(),
        Cond::TidZero => "tid.x == 0".into(),
        Cond::TidYZero => "tid.y == 0".into(),
        Cond::TidLtLoop => match lv {
            Some(v) => format!("tid.x < {v}"),
            None => "tid.x < 4".into(),
        },
        Cond::TidModLoop => match lv {
            Some(v) => format!("tid.x % (2 * {v}) == 0"),
            None => "tid.x % 4 == 0".into(),
        },
        Cond::DataGt => "a > 5".into(),
        Cond::ParamGt(k) => format!("m > {k}"),
        Cond::LoopGt(k) => match lv {
            Some(v) => format!("{v} > {k}"),
            None => format!("n > {k}"),
        },
        Cond::BidZero => "bid.x == 0".into(),
        Cond::BdimGt(k) => format!("bdim.x > {k}"),
        // `bdim.x` as the geometry's constant: the oracle counts a named barrier's threads by
        // substituting thread indices only.
        Cond::WarpLt(m) => format!("tid.x + tid.y * {} < {}", dims[0], 32 * m),
    }
}

/// The threads of the block that reach the innermost open block (by the conditions of the
/// enclosing `if`s, where they tell it; otherwise all).
fn reaching(stack: &[Open], threads: usize) -> usize {
    let mut reach = Some(vec![true; threads]);
    for o in stack {
        if let Open::If { sel, .. } = o {
            reach = match (reach, sel) {
                (Some(r), Some(s)) => Some(r.iter().zip(s).map(|(a, b)| *a && *b).collect()),
                _ => None,
            };
        }
    }
    reach.map_or(threads, |r| r.iter().filter(|x| **x).count())
}

/// `bar HOW id, C;` with the count `count` asks for, `reach` threads reaching it.
fn named_text(how: &str, id: u32, count: NamedCount, reach: usize) -> String {
    let right = reach.max(1);
    match count {
        NamedCount::Right => format!("bar {how} {id}, {right};"),
        NamedCount::Whole => format!("bar {how} {id};"),
        NamedCount::Off => format!("bar {how} {id}, {};", right + 32),
    }
}

/// Whether thread `t` (linear id) of a block of `b` takes condition `c`, when that depends on
/// the thread index and the geometry only; a uniform condition (parameters, block ids) counts
/// as taken by all (a barrier nobody reaches is no problem). `None` for conditions on data or
/// on loop counters.
fn cond_holds(c: Cond, lv: &Option<String>, b: [u32; 3], t: usize) -> Option<bool> {
    let (x, y) = ((t as u32) % b[0], (t as u32) / b[0] % b[1]);
    Some(match c {
        Cond::TidLt(k) => x < k,
        Cond::TidEven => x % 2 == 0,
        Cond::TidZero => x == 0,
        Cond::TidYZero => y == 0,
        Cond::TidLtLoop if lv.is_none() => x < 4,
        Cond::TidModLoop if lv.is_none() => x % 4 == 0,
        Cond::ParamGt(_) | Cond::BidZero => true,
        Cond::LoopGt(_) if lv.is_none() => true,
        Cond::BdimGt(k) => b[0] > k,
        Cond::WarpLt(m) => (t as u32) < 32 * m,
        Cond::TidLtLoop | Cond::TidModLoop | Cond::LoopGt(_) | Cond::DataGt => return None,
    })
}
