//! How a report names what the verifier found, in the source's words: a statement by its line,
//! a loop by its keyword and line, a thread one way everywhere (`thread 3`, `thread (3, 1)`,
//! `of block 5` only when blocks matter), an element by the source's indices (`tile[3][17]`),
//! and the parameter values a witness needs. KPL labels (`21.3`, `19:22`) appear only under
//! `--explain`, which says once what they are.

use crate::diag::line_col;
use crate::kpl::{Kernel, Label};
use crate::verify::{AccessKind, ThreadWitness, Witness};

/// What a report of one kernel reads: the kernel, the source its spans point into, and whether
/// `--explain` asked for the KPL labels too.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub k: &'a Kernel,
    pub source: &'a str,
    pub explain: bool,
    /// What `fix` was told, for the cure a remaining finding names (`None`: `check`).
    pub fix: Option<FixView>,
}

/// The `fix` flags a cure depends on.
#[derive(Clone, Copy, Default)]
pub struct FixView {
    /// `--no-warp`: only `__syncthreads()` is placed.
    pub no_warp: bool,
    /// `--keep-barriers`: the kernel's divergent barriers stay.
    pub keep_barriers: bool,
}

/// The sentence `--explain` prints once before the first finding that names labels.
pub const LABELS_EXPLAINED: &str = "note: --explain names KPL labels, the statements the verifier sees: a statement is named by its source line (`21`; `21.2`, `21.3` for later statements lowered from the same line, such as the read and the write of `a[i] += a[j]`), an `if` or a loop by its first and last lines (`19:22`), a block's entry by that name and `s` (`19:22s`); `autosync tree FILE` lists them all";

impl Ctx<'_> {
    /// The 1-based source line of the statement labelled `l` (0 when it has no span).
    pub fn line(&self, l: Label) -> usize {
        match self.k.stmt(l) {
            Some(s) if !self.source.is_empty() => line_col(self.source, s.span.start).0,
            _ => 0,
        }
    }

    /// A label as `--explain` writes it: `` `21.3` ``.
    pub fn label(&self, l: Label) -> String {
        format!("`{}`", self.k.label_name(l))
    }

    /// A loop as a reader knows it: "the `for` loop at line 19".
    pub fn loop_phrase(&self, l: Label) -> String {
        let header = super::report::guard_text(self.k, self.source, l);
        let keyword = ["for", "while", "do"].into_iter().find(|kw| {
            header.starts_with(kw)
                && !header[kw.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        });
        match keyword {
            Some(kw) => format!("the `{kw}` loop at line {}", self.line(l)),
            None => format!("the loop at line {}", self.line(l)),
        }
    }

    /// An access as a reader knows it: "the write at line 21".
    pub fn access_phrase(&self, kind: AccessKind, l: Label) -> String {
        format!("the {} at line {}", super::report::kind_word(kind), self.line(l))
    }
}

/// How many dimensions a launch's blocks (or grid) have: 3 when z is more than 1, 2 when y is,
/// else 1; at least as many as any of `ids` uses.
pub fn rank(dims: Option<[u64; 3]>, ids: &[[u64; 3]]) -> usize {
    let of = |d: [u64; 3]| {
        if d[2] > 1 {
            3
        } else if d[1] > 1 {
            2
        } else {
            1
        }
    };
    let by_ids = ids
        .iter()
        .map(|t| {
            if t[2] != 0 {
                3
            } else if t[1] != 0 {
                2
            } else {
                1
            }
        })
        .max()
        .unwrap_or(1);
    dims.map(of).unwrap_or(1).max(by_ids)
}

/// A thread or block index in `rank` dimensions: `3`, `(3, 1)`, `(3, 1, 0)`.
pub fn index_text(t: &[u64; 3], rank: usize) -> String {
    match rank {
        0 | 1 => t[0].to_string(),
        2 => format!("({}, {})", t[0], t[1]),
        _ => format!("({}, {}, {})", t[0], t[1], t[2]),
    }
}

/// The ranks of the block and the grid for a kernel's witness threads.
pub fn ranks(k: &Kernel, w: Option<&Witness>, threads: &[&ThreadWitness]) -> (usize, usize) {
    let widen = |d: [u32; 3]| d.map(u64::from);
    let tids: Vec<[u64; 3]> = threads.iter().map(|t| t.tid).collect();
    let bids: Vec<[u64; 3]> = threads.iter().map(|t| t.bid).collect();
    let block = k.geometry.block_dim.map(widen).or(w.map(|w| w.block_dim));
    let grid = k.geometry.grid_dim.map(widen).or(w.map(|w| w.grid_dim));
    (rank(block, &tids), rank(grid, &bids))
}

/// A thread of a witness: `thread 3`, `thread (3, 1)`, and `thread 3 of block 5` when
/// `with_block` (threads of different blocks).
pub fn thread_text(t: &ThreadWitness, ranks: (usize, usize), with_block: bool) -> String {
    let mut s = format!("thread {}", index_text(&t.tid, ranks.0));
    if with_block {
        s.push_str(&format!(" of block {}", index_text(&t.bid, ranks.1)));
    }
    s
}

/// The values the witness needs that the launch does not fix: the kernel's scalar parameters
/// the race's query reads, the block size when it is symbolic, the grid size when blocks matter
/// and it is symbolic. `n = 37`, `blockDim.x = 64`, `blockDim = (16, 4)`.
pub fn witness_values(k: &Kernel, w: &Witness, ranks: (usize, usize), grid: bool) -> Vec<String> {
    model_values(k, &w.params, [&w.block_dim, &w.grid_dim], ranks, grid)
}

/// [`witness_values`] of any model: its `params` and its block and grid dimensions (`dims`).
pub fn model_values(
    k: &Kernel,
    params: &[(String, u64)],
    dims: [&[u64; 3]; 2],
    ranks: (usize, usize),
    grid: bool,
) -> Vec<String> {
    let mut out: Vec<String> = params.iter().map(|(name, v)| param_text(k, name, *v)).collect();
    let dim = |name: &str, d: &[u64; 3], rank: usize| match rank {
        0 | 1 => format!("{name}.x = {}", d[0]),
        r => format!("{name} = {}", index_text(d, r)),
    };
    if k.geometry.block_dim.is_none() {
        out.push(dim("blockDim", dims[0], ranks.0));
    }
    if grid && k.geometry.grid_dim.is_none() {
        out.push(dim("gridDim", dims[1], ranks.1));
    }
    out
}

/// `n = 37`; a function pointer parameter by the function it holds: `op = addf`.
fn param_text(k: &Kernel, name: &str, v: u64) -> String {
    match k.fn_pointers.get(name) {
        Some(f) => match usize::try_from(v).ok().and_then(|i| f.targets.get(i)) {
            Some(t) => format!("{} = {t}", f.name),
            None => format!("{} = a function", f.name),
        },
        None => format!("{} = {}", k.param_source_name(name), param_value(v)),
    }
}

/// A 32-bit parameter value: as a negative `int` too when its top bit is set.
fn param_value(v: u64) -> String {
    if ((1 << 31)..(1 << 32)).contains(&v) {
        format!("{v} (as an int: {})", v as u32 as i32)
    } else {
        v.to_string()
    }
}

/// "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The element a witness's threads both access, in the source's words: `` `tile[3][17]` ``.
pub fn element_phrase(k: &Kernel, array: &str, index: u64) -> String {
    format!("`{}`", k.element_text(array, index))
}

/// The name of an array as the source writes it (`local`, not KPL's `local_2`); a pointer
/// group's members joined by `/`.
pub fn array_name(k: &Kernel, array: &str) -> String {
    match k.source_arrays.get(array) {
        Some(v) if !v.names.is_empty() => v.names.join("/"),
        _ => array.to_string(),
    }
}

/// Whether the witness's two threads are in one warp of 32 (by the linear thread id), so that
/// code written for lock-step warps would not race.
pub fn one_warp(w: &Witness) -> bool {
    w.in_one_warp(32)
}

/// The help that names `--warp-sync` for a race between two threads of one warp in a kernel
/// not already checked under it.
pub fn warp_sync_help(k: &Kernel, w: Option<&Witness>) -> Option<&'static str> {
    (k.geometry.warp_sync.is_none() && w.is_some_and(one_warp)).then_some(
        "help: both threads are in one warp; if the code relies on the lock-step warps of GPUs before sm_70 (a `volatile` warp tail), `--warp-sync 32` checks it under that assumption — on sm_70 and later it needs `__syncwarp()` between the accesses",
    )
}

/// The help that names `--assume` on the parameters the witness has values for. A parameter
/// every launch passes one value is that constant in the lowered kernel (`cuda/lower/scope.rs`),
/// so the query never reads it and it is never among `Witness::params`. Function pointer
/// parameters are left out: the race is in the function they hold.
pub fn assume_help(k: &Kernel, w: &Witness) -> Option<String> {
    let params: Vec<&(String, u64)> =
        w.params.iter().filter(|(n, _)| !k.fn_pointers.contains_key(n)).collect();
    let name = k.param_source_name(&params.first()?.0);
    let values: Vec<String> =
        params.iter().map(|(n, v)| format!("{} = {}", k.param_source_name(n), param_value(*v))).collect();
    Some(format!(
        "help: the solver found this race with {}; if the launches never pass such values, state what they guarantee with `--assume 'CONDITION'` (a condition on `{name}`; or a `__requires(…)` line in the kernel)",
        and_list(&values)
    ))
}
