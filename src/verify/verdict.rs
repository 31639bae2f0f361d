//! What the oracle answers: races with their witnesses, divergent barriers and the verdict that
//! holds them (the contract of DESIGN.md §5). Plain data; `mod.rs` computes it.

use crate::kpl::Label;
use crate::verify::cases::Case;
pub use crate::verify::symbolic::IndexInput;
use serde::Serialize;

/// The kind of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
}

/// Which threads race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Two threads of one block: barriers can fix it.
    Block,
    /// Threads of different blocks on global memory: no barrier can fix it.
    Grid,
    /// A thread and its own asynchronous copy still in flight (issue #38): only a wait fixes it.
    Copy,
}

/// One thread of a witness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadWitness {
    pub tid: [u64; 3],
    pub bid: [u64; 3],
    /// Iteration number (from 0) of each enclosing loop, outermost first.
    pub iterations: Vec<(Label, u64)>,
}

/// A concrete instance of a race: the threads performing the first and the second access.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Witness {
    pub threads: [ThreadWitness; 2],
    /// The linearized element index both access.
    pub index: u64,
    /// Each thread's first element: with the statements' widths (`A[i +: w]`), the elements each
    /// touches. `None` where the query named no element.
    #[serde(skip)]
    pub starts: Option<[u64; 2]>,
    /// Block dimensions in the model (the launch geometry, or one the solver chose).
    pub block_dim: [u64; 3],
    /// Grid dimensions in the model, likewise.
    pub grid_dim: [u64; 3],
    /// The values of the kernel's scalar parameters that the race's query reads, as the model
    /// chose them (by KPL name, sorted): what the witness needs of them.
    pub params: Vec<(String, u64)>,
    /// Every execution of this case wraps some index arithmetic around (`wrap`): a race only
    /// if that arithmetic wraps; `--no-wrap` drops such cases.
    pub only_with_wrap: bool,
    /// The values the oracle takes as arbitrary (memory's contents, loop variables it does not
    /// follow) that the two accesses' indices are computed from, sorted. With some, the race
    /// needs them to take values that make the indices meet — possible, not shown to happen.
    pub index_inputs: Vec<IndexInput>,
}

impl Witness {
    /// Whether the two threads are in one block and one warp of `width` threads (consecutive
    /// linear thread ids, CUDA's numbering), so that a `__syncwarp()` can order them.
    pub fn in_one_warp(&self, width: u32) -> bool {
        let linear = |t: &[u64; 3]| t[0] + self.block_dim[0] * (t[1] + self.block_dim[1] * t[2]);
        let [a, b] = &self.threads;
        let width = u64::from(width.max(1));
        a.bid == b.bid && linear(&a.tid) / width == linear(&b.tid) / width
    }
}

/// A case of a race that no barrier of the kernel separates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RaceCase {
    pub case: Case,
    /// `None` when the case is only possible (`undecided` says why).
    pub witness: Option<Witness>,
    /// Why the solver could not decide (timeout, unknown), if it could not.
    pub undecided: Option<String>,
    /// Both accesses are plain writes that provably write the same value (GPUVerify's benign
    /// write-write race).
    pub benign: bool,
}

/// A pair of statements that may race: `first ≼ second` in program order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Race {
    pub first: Label,
    pub second: Label,
    pub array: String,
    pub kinds: [AccessKind; 2],
    pub scope: Scope,
    /// The unseparated cases, each with its witness (at least one).
    pub cases: Vec<RaceCase>,
}

impl Race {
    /// Every decided case needs index arithmetic to wrap around (and some case is decided).
    pub fn only_with_wrap(&self) -> bool {
        let mut decided = self.cases.iter().filter_map(|c| c.witness.as_ref()).peekable();
        decided.peek().is_some() && decided.all(|w| w.only_with_wrap)
    }
    /// Every case is a benign write-write race.
    pub fn is_benign(&self) -> bool {
        self.cases.iter().all(|c| c.benign)
    }
    /// Some case is only possible (the solver could not decide it).
    pub fn is_possible(&self) -> bool {
        self.cases.iter().any(|c| c.undecided.is_some())
    }
    /// The arbitrary values every decided case's indices are computed from (empty when some
    /// decided case needs none, or none is decided): the race needs them to take particular
    /// values.
    pub fn index_inputs(&self) -> Vec<IndexInput> {
        let mut decided = self.cases.iter().filter_map(|c| c.witness.as_ref());
        let Some(first) = decided.next() else { return Vec::new() };
        let mut common = first.index_inputs.clone();
        for w in decided {
            common.retain(|i| w.index_inputs.contains(i));
        }
        common
    }
}

/// A barrier that threads of a block may reach with different predicates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    pub barrier: Label,
    /// The innermost enclosing block whose guard depends on the thread.
    pub block: Label,
    /// Two threads that disagree (the first is enabled), with the iterations of enclosing loops.
    pub threads: Option<[ThreadWitness; 2]>,
    pub undecided: Option<String>,
    /// For a named barrier (`bar sync`/`bar arrive`): what breaks its instances — the threads
    /// that join it do not match its count, join it unequally often, or may join an instance
    /// early (`threads` then are two threads of the problem when it concerns two).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named: Option<super::named::NamedProblem>,
}

/// A thread performing an access outside its array: the model of an out-of-bounds query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoundsWitness {
    pub thread: ThreadWitness,
    /// The value of each subscript the source writes (a thread-local array's row left out), as
    /// a 32-bit word: at least one is at or beyond its dimension.
    pub subscripts: Vec<u64>,
    /// Block dimensions in the model (the launch geometry, or one the solver chose).
    pub block_dim: [u64; 3],
    /// Grid dimensions in the model, likewise.
    pub grid_dim: [u64; 3],
    /// The kernel's scalar parameters the query reads, as the model chose them (by KPL name,
    /// sorted).
    pub params: Vec<(String, u64)>,
    /// The values the oracle takes as arbitrary that the subscripts are computed from
    /// ([`Witness::index_inputs`]): with some, the access leaves its array only for such values.
    pub index_inputs: Vec<IndexInput>,
}

/// An access that may leave its array: some subscript the kernel bounds
/// (`Kernel::subscript_bounds`) may reach its dimension. Independent of barriers: no barrier
/// fixes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutOfBounds {
    /// The access statement.
    pub label: Label,
    pub array: String,
    pub kind: AccessKind,
    /// The dimension each subscript of the witness must stay below (`None`: unbounded), those
    /// the source writes.
    pub dims: Vec<Option<u32>>,
    /// `None` when the access is only possibly out of bounds (`undecided` says why).
    pub witness: Option<BoundsWitness>,
    /// Why the solver could not decide whether the access stays in bounds, if it could not.
    pub undecided: Option<String>,
}

/// The oracle's answer for one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Races that matter (benign write-write races are here only under `strict`). Races are
    /// checked for accesses inside their arrays: one that needs an access out of bounds is
    /// reported in `out_of_bounds` as that access.
    pub races: Vec<Race>,
    pub divergences: Vec<Divergence>,
    /// Benign write-write races, reported as warnings.
    pub benign: Vec<Race>,
    /// Accesses that may leave an array of known size, in program order (possible ones
    /// included).
    pub out_of_bounds: Vec<OutOfBounds>,
    /// How many SMT queries could not be decided (each is reported as a possible race,
    /// divergence or out-of-bounds access above).
    pub undecided: usize,
}

impl Verdict {
    /// Correctly synchronized: no race and no divergence (what barriers can change; an
    /// out-of-bounds access is not a synchronization matter, see [`Verdict::is_correct`]).
    pub fn is_clean(&self) -> bool {
        self.races.is_empty() && self.divergences.is_empty()
    }

    /// What `check` accepts: correctly synchronized and no access out of bounds.
    pub fn is_correct(&self) -> bool {
        self.is_clean() && self.out_of_bounds.is_empty()
    }
}
