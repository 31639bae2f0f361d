//! The KPL abstract syntax tree.
//!
//! Invariants every `Kernel` keeps (the parser and the CUDA front end establish them, every pass
//! preserves them):
//! - every statement, every block start node and the kernel's `main` block carry a [`Label`] that
//!   is unique within the kernel; [`Label::MAIN`] is the top-level block;
//! - inserting statements (barriers) never changes the label of an existing statement;
//! - expressions are thread-local: memory is touched only by `Read`, `Write` and `Atomic`
//!   statements, each of which performs exactly one access;
//! - every variable used is a kernel parameter or declared by a `Local` statement that precedes it
//!   in program text (the parser checks this).

use std::fmt;

/// A statement label: a dense, kernel-unique id. Display names (paper-style `3`, `2:4`, `2:4s`) live
/// in [`Kernel::label_names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct Label(pub u32);

impl Label {
    /// The top-level block of every kernel.
    pub const MAIN: Label = Label(0);
}

pub use crate::span::Span;

/// A dimension selector for the builtin 3-D vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];
    pub fn index(self) -> usize {
        match self {
            Dim::X => 0,
            Dim::Y => 1,
            Dim::Z => 2,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
}

/// The launch builtins. `Tid` is the only thread-dependent one; all others are uniform within a
/// block (`Bid` differs between blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    Tid(Dim),
    Bid(Dim),
    BlockDim(Dim),
    GridDim(Dim),
}

/// Unary operators on 32-bit values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Two's complement negation.
    Neg,
    /// Logical not: 1 if the operand is 0, else 0.
    Not,
    /// Bitwise complement.
    BitNot,
}

/// Binary operators on 32-bit values. Comparisons and logical operators yield 0 or 1. Operators
/// whose meaning depends on signedness come in a signed (default) and an unsigned form; the
/// front ends choose by C's conversion rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Unsigned addition (`uadd`, C's `+` on unsigned numbers): the value of `Add`, but the
    /// verifier's no-wrap assumption reads the operands as unsigned numbers — they and the sum
    /// stay below 2^31 (docs/semantics.md, "Integer model") — where `Add`'s reads them as
    /// signed ones (a word at or above 2^31 is a negative number there).
    UAdd,
    /// Unsigned multiplication (`umul`): `Mul`'s value, `UAdd`'s no-wrap assumption.
    UMul,
    /// C's unsigned `+` of a signed number converted to `unsigned` and an unsigned number
    /// (`iuadd`: `i + n` with `int i`, `unsigned n`): the value of `Add`; the no-wrap assumption
    /// reads the first operand as a signed number and the second as an unsigned one — the
    /// second below 2^31 and the sum in the signed range — so a negative first operand is the
    /// signed offset the program means, and an unsigned operand at or above 2^31 is outside the
    /// bounded index space as in `UAdd`.
    IUAdd,
    /// `uiadd`: `IUAdd` with the operands the other way round (the first unsigned, the second
    /// signed), so the source's order stays.
    UIAdd,
    /// `iumul`: `Mul`'s value, `IUAdd`'s reading of the operands (the second below 2^31, the
    /// product in the signed range).
    IUMul,
    /// `uimul`: `IUMul` with the operands the other way round.
    UIMul,
    Div,
    Rem,
    UDiv,
    URem,
    Shl,
    /// Arithmetic shift right.
    Shr,
    /// Logical shift right.
    UShr,
    BitAnd,
    BitOr,
    BitXor,
    /// Logical and (no short circuit: expressions have no effects).
    And,
    /// Logical or.
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    ULt,
    ULe,
    UGt,
    UGe,
    Min,
    Max,
}

impl BinOp {
    /// The spelling of an infix operator, or `None` for operators written as intrinsic calls.
    pub fn infix(self) -> Option<&'static str> {
        use BinOp::*;
        Some(match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            And => "&&",
            Or => "||",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            _ => return None,
        })
    }

    /// The intrinsic function name for operators written as calls (`ult(a, b)`).
    pub fn intrinsic(self) -> Option<&'static str> {
        use BinOp::*;
        Some(match self {
            UAdd => "uadd",
            UMul => "umul",
            IUAdd => "iuadd",
            UIAdd => "uiadd",
            IUMul => "iumul",
            UIMul => "uimul",
            UDiv => "udiv",
            URem => "urem",
            UShr => "ushr",
            ULt => "ult",
            ULe => "ule",
            UGt => "ugt",
            UGe => "uge",
            Min => "min",
            Max => "max",
            _ => return None,
        })
    }

    pub fn from_intrinsic(name: &str) -> Option<BinOp> {
        use BinOp::*;
        [UAdd, UMul, IUAdd, UIAdd, IUMul, UIMul, UDiv, URem, UShr, ULt, ULe, UGt, UGe, Min, Max]
            .into_iter()
            .find(|op| op.intrinsic() == Some(name))
    }

    /// The operator computing the same 32-bit value with the signed no-wrap assumption: `Add`
    /// for `UAdd`, `IUAdd` and `UIAdd`, `Mul` for `UMul`, `IUMul` and `UIMul`, the operator
    /// itself otherwise. Passes that look at what an expression computes (induction steps,
    /// powers of two) match on this; only the no-wrap conditions tell the forms apart.
    pub fn machine(self) -> BinOp {
        match self {
            BinOp::UAdd | BinOp::IUAdd | BinOp::UIAdd => BinOp::Add,
            BinOp::UMul | BinOp::IUMul | BinOp::UIMul => BinOp::Mul,
            op => op,
        }
    }

    /// Binding strength for infix printing and parsing (higher binds tighter).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Or => 1,
            And => 2,
            BitOr => 3,
            BitXor => 4,
            BitAnd => 5,
            Eq | Ne => 6,
            Lt | Le | Gt | Ge => 7,
            Shl | Shr => 8,
            Add | Sub => 9,
            Mul | Div | Rem => 10,
            _ => 11,
        }
    }
}

/// A thread-local, effect-free expression over 32-bit integers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant, stored as its 32-bit pattern.
    Const(u32),
    Var(String),
    Builtin(Builtin),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b` (both branches are effect free, so this is a plain select).
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// An opaque, deterministic, pure function (float arithmetic and the like): equal arguments
    /// give equal results, nothing else is known.
    Call(String, Vec<Expr>),
}

impl Expr {
    pub fn int(v: i64) -> Expr {
        Expr::Const(v as u32)
    }

    /// The value of an expression of constants alone (`256 >= 512`, a template instance's
    /// `if (blockSize >= 512)`), with the verifier's 32-bit meaning of each operator; `None`
    /// when it reads anything else or divides by zero.
    pub fn constant_value(&self) -> Option<u32> {
        use BinOp::*;
        let b = |x: bool| u32::from(x);
        match self {
            Expr::Const(v) => Some(*v),
            Expr::Unary(op, a) => {
                let a = a.constant_value()?;
                Some(match op {
                    UnOp::Neg => a.wrapping_neg(),
                    UnOp::Not => b(a == 0),
                    UnOp::BitNot => !a,
                })
            }
            Expr::Binary(op, x, y) => {
                let (x, y) = (x.constant_value()?, y.constant_value()?);
                let (sx, sy) = (x as i32, y as i32);
                Some(match op {
                    Add | UAdd | IUAdd | UIAdd => x.wrapping_add(y),
                    Sub => x.wrapping_sub(y),
                    Mul | UMul | IUMul | UIMul => x.wrapping_mul(y),
                    Div => sx.checked_div(sy)? as u32,
                    Rem => sx.checked_rem(sy)? as u32,
                    UDiv => x.checked_div(y)?,
                    URem => x.checked_rem(y)?,
                    Shl => x.checked_shl(y)?,
                    Shr => sx.checked_shr(y)? as u32,
                    UShr => x.checked_shr(y)?,
                    BitAnd => x & y,
                    BitOr => x | y,
                    BitXor => x ^ y,
                    And => b(x != 0 && y != 0),
                    Or => b(x != 0 || y != 0),
                    Eq => b(x == y),
                    Ne => b(x != y),
                    Lt => b(sx < sy),
                    Le => b(sx <= sy),
                    Gt => b(sx > sy),
                    Ge => b(sx >= sy),
                    ULt => b(x < y),
                    ULe => b(x <= y),
                    UGt => b(x > y),
                    UGe => b(x >= y),
                    Min => sx.min(sy) as u32,
                    Max => sx.max(sy) as u32,
                })
            }
            Expr::Select(c, x, y) => {
                if c.constant_value()? != 0 {
                    x.constant_value()
                } else {
                    y.constant_value()
                }
            }
            Expr::Var(_) | Expr::Builtin(_) | Expr::Call(..) => None,
        }
    }
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.to_string())
    }
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }
    pub fn tid(d: Dim) -> Expr {
        Expr::Builtin(Builtin::Tid(d))
    }

    /// Calls `f` on every variable name the expression mentions.
    pub fn for_each_var(&self, f: &mut impl FnMut(&str)) {
        match self {
            Expr::Const(_) | Expr::Builtin(_) => {}
            Expr::Var(v) => f(v),
            Expr::Unary(_, a) => a.for_each_var(f),
            Expr::Binary(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Expr::Select(c, a, b) => {
                c.for_each_var(f);
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }

    /// Whether the expression mentions `tid` directly.
    pub fn mentions_tid(&self) -> bool {
        match self {
            Expr::Builtin(Builtin::Tid(_)) => true,
            Expr::Const(_) | Expr::Var(_) | Expr::Builtin(_) => false,
            Expr::Unary(_, a) => a.mentions_tid(),
            Expr::Binary(_, a, b) => a.mentions_tid() || b.mentions_tid(),
            Expr::Select(c, a, b) => c.mentions_tid() || a.mentions_tid() || b.mentions_tid(),
            Expr::Call(_, args) => args.iter().any(Expr::mentions_tid),
        }
    }
}

/// Where an array lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// One copy per block.
    Shared,
    /// One copy per grid.
    Global,
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Space::Shared => "shared",
            Space::Global => "global",
        })
    }
}

/// A named array. `dims[0]` may be unknown (`global A[]`); the others are known so that
/// multi-dimensional indices linearize row-major (`A[i][j]` is element `i * dims[1] + j`).
/// A shared scalar is an array with one dimension of size 1 accessed at index 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayDecl {
    pub name: String,
    pub space: Space,
    pub dims: Vec<Option<u32>>,
    pub span: Span,
}

/// The leading dimensions of a shared array that models a thread-local C array (one row per
/// thread, CUDA's bounds of `tid.z`, `tid.y`, `tid.x`), indexed by [`thread_row`].
pub const THREAD_ROW_DIMS: [u32; 3] = [64, 1024, 1024];

/// The leading index of a thread-local array's row: `[tid.z, tid.y, tid.x]`.
pub fn thread_row() -> Vec<Expr> {
    [Dim::Z, Dim::Y, Dim::X].into_iter().map(|d| Expr::Builtin(Builtin::Tid(d))).collect()
}

impl ArrayDecl {
    /// Whether `index` into this array selects the accessing thread's own row of a modelled
    /// thread-local array: the array's leading dimensions are [`THREAD_ROW_DIMS`] and the index
    /// starts with [`thread_row`]. Such an index reads the thread ids only to keep the threads'
    /// copies apart, not for what the kernel computes.
    pub fn is_thread_row(&self, index: &[Expr]) -> bool {
        self.dims.len() >= 3
            && self.dims[..3].iter().zip(THREAD_ROW_DIMS).all(|(d, t)| *d == Some(t))
            && index.len() >= 3
            && index[..3] == thread_row()[..]
    }
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
    Exch,
    Inc,
    Dec,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 10] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Exch,
        AtomicOp::Inc,
        AtomicOp::Dec,
    ];
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Exch => "exch",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
        }
    }
    pub fn from_name(s: &str) -> Option<AtomicOp> {
        AtomicOp::ALL.into_iter().find(|op| op.name() == s)
    }
    /// The operation of CUDA's plain atomic function `name` (`atomicAdd` → `Add`; scope
    /// suffixes are [`AtomicScope::of_cuda_name`]'s). Both CUDA front ends read atomics here.
    pub fn from_cuda(name: &str) -> Option<AtomicOp> {
        Some(match name {
            "atomicAdd" => AtomicOp::Add,
            "atomicSub" => AtomicOp::Sub,
            "atomicMin" => AtomicOp::Min,
            "atomicMax" => AtomicOp::Max,
            "atomicAnd" => AtomicOp::And,
            "atomicOr" => AtomicOp::Or,
            "atomicXor" => AtomicOp::Xor,
            "atomicExch" => AtomicOp::Exch,
            "atomicInc" => AtomicOp::Inc,
            "atomicDec" => AtomicOp::Dec,
            _ => return None,
        })
    }
}

impl AtomicScope {
    /// `atomicAdd_block` → (`atomicAdd`, block scope); `atomicAdd_system` → (`atomicAdd`, device
    /// scope: atomic for every pair of the kernel's threads, as the plain function is); any other
    /// name → itself, device scope.
    pub fn of_cuda_name(name: &str) -> (&str, AtomicScope) {
        if !name.starts_with("atomic") {
            return (name, AtomicScope::Device);
        }
        if let Some(base) = name.strip_suffix("_block") {
            return (base, AtomicScope::Block);
        }
        (name.strip_suffix("_system").unwrap_or(name), AtomicScope::Device)
    }
}

/// The opaque call a CUDA front end writes for a floating operator (`+` → `fadd`), and whether
/// its result is a comparison (an integer 0/1) rather than a floating value. Floating values are
/// words the verifier never computes with, so every front end must spell them alike.
pub fn float_call(op: &str) -> Option<(&'static str, bool)> {
    Some(match op {
        "+" => ("fadd", false),
        "-" => ("fsub", false),
        "*" => ("fmul", false),
        "/" => ("fdiv", false),
        "<" => ("fcmp_lt", true),
        "<=" => ("fcmp_le", true),
        ">" => ("fcmp_gt", true),
        ">=" => ("fcmp_ge", true),
        "==" => ("fcmp_eq", true),
        "!=" => ("fcmp_ne", true),
        _ => return None,
    })
}

/// A block of statements. `label` is the label of the enclosing compound statement (or
/// [`Label::MAIN`]); `start` is the block's start node `ℓs`: a barrier "after `start`" opens the
/// block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    pub label: Label,
    pub start: Label,
    pub stmts: Vec<Stmt>,
    /// The source of the whole block, braces included.
    pub span: Span,
}

/// A labelled statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stmt {
    pub label: Label,
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StmtKind {
    /// Declares a thread-local variable, optionally initialized.
    Local {
        name: String,
        init: Option<Expr>,
    },
    Assign {
        name: String,
        value: Expr,
    },
    /// `dst := rd array[index]` (`rd array[i +: w]`: `width` elements, see [`Width`]).
    Read {
        dst: String,
        array: String,
        index: Vec<Expr>,
        width: Width,
    },
    /// `wr array[index] := value`; its [`WriteMode`] says when it happens and who performs it.
    Write {
        array: String,
        index: Vec<Expr>,
        value: Expr,
        width: Width,
        mode: WriteMode,
    },
    /// `[dst :=] atomic [block] op array[index], value`; `dst` receives the old value.
    /// `scope` says between which threads it is atomic (`block`: CUDA's `atomicAdd_block`, …).
    Atomic {
        dst: Option<String>,
        op: AtomicOp,
        array: String,
        index: Vec<Expr>,
        value: Expr,
        scope: AtomicScope,
        width: Width,
    },
    Barrier,
    /// `syncwarp;`: a warp barrier (CUDA's full-mask `__syncwarp()`). It orders the accesses of
    /// two threads of one warp (32 consecutive linear thread ids, or `Geometry.warp_sync`'s size)
    /// that it lies between; threads of different warps are not ordered by it. Reached by some but
    /// not all threads of a warp it diverges. An ordinary statement for the label tree and the
    /// synthesis: not a barrier, never inserted or removed by them.
    Syncwarp,
    /// `gridsync;`: a grid barrier (cooperative groups' `this_grid().sync()`). It orders the
    /// accesses of any two threads of the grid that it lies between: threads of one block, as a
    /// `barrier` does, and threads of different blocks. Reached by some but not all threads of the
    /// grid (of one block, or of different blocks) it diverges. An ordinary statement for the
    /// label tree and the synthesis, which never insert or remove it; the oracle counts it among
    /// the barriers that separate block-scope cases ([`Kernel::block_separators`]).
    Gridsync,
    /// `bar.sync id, n;` / `bar.arrive id, n;`: a named barrier of part of the block (PTX's
    /// `bar.sync`/`bar.arrive`, libcu++'s split `cuda::barrier` arrive and wait in the front end).
    /// Each thread's participations in barrier `id` are counted; the thread's `j`-th
    /// participation joins the barrier's `j`-th instance, which completes when `count` threads
    /// (the whole block when `None`) have joined it. A `sync` participation waits for its instance
    /// to complete; an `arrive` does not wait. A thread's accesses before its `j`-th participation
    /// happen before another thread's accesses after that thread's `sync` participation in the
    /// same instance `j` (docs/semantics.md, "Named barriers"). The kernel keeps two counters per
    /// id as thread-local variables the oracle reads (`kpl::named`): every named barrier
    /// statement has their updates beside it. An ordinary statement for the label tree and the
    /// synthesis, which never insert, move or remove it.
    NamedBarrier {
        id: u32,
        count: Option<u32>,
        wait: bool,
    },
    /// `bar wait id, e;`: the second half of a split arrival (libcu++'s `bar.wait(token)` after
    /// `token = bar.arrive()`): the thread waits until instance `e` of named barrier `id` has
    /// completed (`e` is the participation count the arrival left, which the front end keeps in a
    /// local). Not a participation: it joins no instance. Its counter update follows it.
    NamedWait {
        id: u32,
        instance: Expr,
    },
    /// `commit;`: closes the thread's group of asynchronous copies issued since its last commit
    /// (`cp.async.commit_group`, `__pipeline_commit`). A group may be empty.
    Commit,
    /// `wait n;`: the thread waits until at most `pending` of its most recently committed groups
    /// are still in flight (`cp.async.wait_group n`, `__pipeline_wait_prior(n)`); the copies of
    /// every older group have landed. Copies not yet committed are not waited for. Per thread:
    /// it orders nothing between threads (a barrier after it does).
    Wait {
        pending: u32,
    },
    /// `wait oldest;`: the thread waits until its oldest committed group not yet released
    /// ([`StmtKind::Release`]) has landed, and every older one (a thread-scope `cuda::pipeline`'s
    /// `consumer_wait()`): with `r` releases so far, the copies of the first `r + 1` groups the
    /// thread committed. Copies not yet committed are not waited for. Per thread, like `wait n`.
    WaitOldest,
    /// `release;`: the thread's oldest committed group not yet released is released (a
    /// thread-scope `cuda::pipeline`'s `consumer_release()`): the next `wait oldest` waits for
    /// one group more. It performs no access and orders nothing.
    Release,
    /// `assume cond;`: only executions in which every thread that reaches it has `cond` true
    /// matter (GPUVerify's `__requires` / `__assume`). A run in which some thread reaches it
    /// with `cond` false is infeasible as a whole: its findings, also those before the
    /// statement, are discarded. It performs no access and orders nothing.
    Assume {
        cond: Expr,
    },
    /// `if (cond) then else els`. The then block's label is this statement's label; the else
    /// block has a label of its own and, under predicated execution, runs after the then block
    /// (so in the label tree it is a sibling that follows this statement).
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    /// `while (cond) body`; `body.label` is this statement's label.
    While {
        cond: Expr,
        body: Block,
    },
}

/// When a write happens and who performs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WriteMode {
    /// `wr`: the thread writes, now.
    #[default]
    Plain,
    /// `async wr`: an asynchronous copy's write (CUDA's `cp.async`, `__pipeline_memcpy_async`):
    /// it lands at an unknown moment between this statement and the issuing thread's
    /// [`StmtKind::Wait`] that covers its group (or never, within the kernel, if none does). The
    /// copy's read is an ordinary `rd` before it.
    Async,
    /// `warp wr`: a warp-collective store (`wmma::store_matrix_sync`, `stmatrix`): the lanes of
    /// a warp executing one instance together write the range once between them, each element
    /// by a lane nobody names. Every lane is taken to write every element, but two lanes of one
    /// warp at one instance are one store, not a race.
    Warp,
}

impl WriteMode {
    /// The KPL keyword before `wr` (empty for a plain write).
    pub fn keyword(self) -> &'static str {
        match self {
            WriteMode::Plain => "",
            WriteMode::Async => "async",
            WriteMode::Warp => "warp",
        }
    }
}

/// The largest `n` of `wait n;`: no CUDA kernel keeps more groups of copies in flight (its
/// pipelines have a handful of stages), and the oracle counts commits up to one past it.
pub const MAX_WAIT_PENDING: u32 = 15;

/// The largest named barrier id (PTX has 16 hardware barriers, `0..=15`; libcu++ barrier
/// objects get ids above them in the front end).
pub const MAX_NAMED_BARRIER_ID: u32 = 1023;

/// How many consecutive elements of an array one access covers, from its index on along the
/// last dimension (KPL `A[i +: 2]`): memory is an array's elements, and a wider view of them
/// (a `float4` load of `half` elements, an `int` view of `char` shared memory) touches several
/// at once (issue #37). Invariant: at least 1; two accesses conflict when their ranges
/// `[index, index + width)` overlap, and only accesses of one width at one index can write the
/// same value (the benign-write rule) or be the same atomic word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Width(pub u32);

impl Width {
    /// One element: every access of a kernel without wider views.
    pub const ONE: Width = Width(1);

    pub fn get(self) -> u32 {
        self.0
    }

    pub fn is_one(self) -> bool {
        self.0 == 1
    }
}

impl Default for Width {
    fn default() -> Self {
        Width::ONE
    }
}

impl Stmt {
    /// Visits this statement and every statement nested in it, in program text order
    /// (pre-order).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Stmt)) {
        f(self);
        match &self.kind {
            StmtKind::If { then, els, .. } => {
                then.stmts.iter().chain(els.iter().flat_map(|e| &e.stmts)).for_each(|s| s.walk(f));
            }
            StmtKind::While { body, .. } => body.stmts.iter().for_each(|s| s.walk(f)),
            _ => {}
        }
    }

    /// The variable this statement itself gives a value, with the expression it gives (`None`:
    /// a value from memory, a read's or an atomic's result). A declaration without a value
    /// gives none.
    pub fn value_target(&self) -> Option<(&str, Option<&Expr>)> {
        match &self.kind {
            StmtKind::Assign { name, value } | StmtKind::Local { name, init: Some(value) } => {
                Some((name, Some(value)))
            }
            StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => Some((dst, None)),
            _ => None,
        }
    }

    /// The number of elements this statement's access covers ([`Width`]); 1 for a statement
    /// without one.
    pub fn width(&self) -> Width {
        match &self.kind {
            StmtKind::Read { width, .. } | StmtKind::Write { width, .. } | StmtKind::Atomic { width, .. } => {
                *width
            }
            _ => Width::ONE,
        }
    }

    /// The memory access this statement performs, if any: (array, index, is_write, is_atomic).
    pub fn access(&self) -> Option<(&str, &[Expr], bool, bool)> {
        match &self.kind {
            StmtKind::Read { array, index, .. } => Some((array, index, false, false)),
            StmtKind::Write { array, index, .. } => Some((array, index, true, false)),
            StmtKind::Atomic { array, index, .. } => Some((array, index, true, true)),
            _ => None,
        }
    }

    /// Whether this is an atomic that is atomic only between threads of one block
    /// ([`AtomicScope::Block`]): between threads of different blocks it is a plain
    /// read-modify-write.
    pub fn is_block_scoped_atomic(&self) -> bool {
        matches!(self.kind, StmtKind::Atomic { scope: AtomicScope::Block, .. })
    }
}

/// Between which threads an atomic is atomic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AtomicScope {
    /// Every thread of the device (CUDA's plain `atomicAdd`, and `atomicAdd_system`, which is
    /// atomic for the host too: more than the kernel's threads need).
    #[default]
    Device,
    /// The threads of one block (`atomicAdd_block`): threads of different blocks may interleave
    /// its read and its write, so between blocks it conflicts like a plain write.
    Block,
}

/// Launch geometry: concrete sizes where known, `None` for symbolic.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Geometry {
    pub block_dim: Option<[u32; 3]>,
    pub grid_dim: Option<[u32; 3]>,
    /// `Some(32)`: legacy lock-step warps (GPUVerify's `--warp-sync`).
    pub warp_sync: Option<u32>,
}

impl Geometry {
    /// Fields of `over` that are set replace those of `self`.
    pub fn overridden_by(&self, over: &Geometry) -> Geometry {
        Geometry {
            block_dim: over.block_dim.or(self.block_dim),
            grid_dim: over.grid_dim.or(self.grid_dim),
            warp_sync: over.warp_sync.or(self.warp_sync),
        }
    }
}

/// How a label's display name was chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LabelName {
    pub name: String,
    /// Written by the user as `@name` (printed back), or derived from line numbers.
    pub explicit: bool,
}

/// Where a barrier placed after a label goes in the user's source text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Insert a new line `\n{indent}<barrier>` at byte `offset` (the end of the line that ends the
    /// statement, or just after the `{` that opens the block).
    Line { offset: usize, indent: String },
    /// The statement is the braceless body of a compound statement: wrap the byte range
    /// `body_start..body_end` in braces (`{` before, `\n{outer_indent}}` after) and put the barrier
    /// on its own line after the body, indented by `indent`.
    Braced { body_start: usize, body_end: usize, indent: String, outer_indent: String },
    /// Inside one statement that reads an array and writes it (`a[i] += a[j];`, also guarded:
    /// `if (c) a[i] += a[j];`): a barrier here *splits* the statement (issue #40). The source
    /// range `start..end` (the statement) is replaced by the lines of `before` (the read into a
    /// fresh local, a guard hoisted into a local `bool`), the barrier, and the lines of `after`
    /// (the write), each on its own line indented by `indent`; with `braces` (the outer
    /// indentation) the lines are wrapped in `{` … `}` (a braceless body). The lowering gives the
    /// statement exactly this form, so the kernel verified is the kernel written. Synthesis
    /// takes it only where a split is allowed, at a higher cost than a barrier.
    Split {
        start: usize,
        end: usize,
        before: Vec<String>,
        after: Vec<String>,
        indent: String,
        braces: Option<String>,
    },
    /// No barrier can go here in the source; the reason says why (shown by `autosync tree`).
    Not(String),
}

impl Place {
    pub fn is_placeable(&self) -> bool {
        !matches!(self, Place::Not(_))
    }

    /// Whether a barrier here splits a statement ([`Place::Split`]).
    pub fn is_split(&self) -> bool {
        matches!(self, Place::Split { .. })
    }

    /// The offset a barrier here is written at: where its line goes (the start of a braced or
    /// split statement's text). `None` for [`Place::Not`].
    pub fn anchor(&self) -> Option<usize> {
        match self {
            Place::Line { offset, .. } => Some(*offset),
            Place::Braced { body_start, .. } => Some(*body_start),
            Place::Split { start, .. } => Some(*start),
            Place::Not(_) => None,
        }
    }
}

/// A KPL kernel: the unit every pass consumes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    /// Uniform scalar parameters.
    pub params: Vec<String>,
    pub arrays: Vec<ArrayDecl>,
    pub body: Block,
    /// Geometry from the file's header comment (the command line may override it).
    pub geometry: Geometry,
    /// Display names, indexed by `Label.0`.
    pub label_names: Vec<LabelName>,
    /// Where a barrier after each label goes in the source, indexed by `Label.0`. Labels without
    /// an entry (barriers inserted by synthesis) are not placeable.
    pub places: Vec<Place>,
    /// If statements the front end introduced for the predicated form of `break`, `continue`,
    /// `return` and `goto` (`if (!flags) { rest of the block }`). Their then block runs whenever
    /// the source's control flow reaches it, so the cost model does not count them as
    /// conditionals. Empty for KPL files.
    pub flag_guards: std::collections::BTreeSet<Label>,
    /// What the host code says about the kernel's launches that the check relies on (geometry
    /// and argument values, with their lines), one sentence each, for every report. Empty for
    /// KPL files and under `--no-launch-facts`.
    pub launch_facts: Vec<String>,
    /// How each array looks in the source (renamed, pointer groups, struct fields), keyed by the
    /// KPL name, for the element a report names. Empty for KPL files (`source_array.rs`).
    pub source_arrays: std::collections::BTreeMap<String, super::SourceArray>,
    /// Kernel parameters that are function pointers (`cuda/lower/fn_ptr.rs`), keyed by the KPL
    /// parameter: its value `i` means the pointer holds `targets[i]`. Empty for KPL files.
    pub fn_pointers: std::collections::BTreeMap<String, FnPointer>,
    /// How a scalar parameter is written in the source when KPL names it otherwise, keyed by the
    /// KPL parameter: a field of a struct passed by value (`img.pitch` for `img_pitch`), a name
    /// that is a KPL keyword or taken. What a report names and what `--assume` reads. Empty for
    /// KPL files.
    pub source_params: std::collections::BTreeMap<String, String>,
    /// The `extern __shared__` array (KPL name) and the bytes of one of its elements, for the
    /// size the launches give it (`<<<g, b, bytes>>>`). `None` for KPL files.
    pub dynamic_shared: Option<(String, u32)>,
    /// Pointer parameters lowered to an array of their own, by parameter index: the KPL array
    /// and the bytes of one of its elements, for the size the host's allocation gives it. Empty
    /// for KPL files.
    pub param_arrays: std::collections::BTreeMap<usize, (String, u32)>,
    /// The source names of named barriers that are libcu++ barrier objects (`ready` for id 16),
    /// for reports; PTX's barriers are named by their id.
    pub barrier_names: std::collections::BTreeMap<u32, String>,
    /// The file the kernel is written in when it is not the input: a header the input
    /// includes. Spans, places and label names are then into that file's text, and its places
    /// are not placeable (`fix` edits the input only). `None` for KPL files and for kernels of
    /// the input itself.
    pub file: Option<std::sync::Arc<crate::diag::SourceFile>>,
}

/// A function pointer kernel parameter as the source has it (`Kernel::fn_pointers`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnPointer {
    /// The parameter's name in the source.
    pub name: String,
    /// The functions it may hold, by the parameter's value.
    pub targets: Vec<String>,
}

impl Kernel {
    /// The text the kernel's spans point into: its header's ([`Kernel::file`]), else `input`,
    /// the text of the file it was loaded from.
    pub fn text<'a>(&'a self, input: &'a str) -> &'a str {
        self.file.as_deref().map_or(input, |f| f.text.as_str())
    }

    /// `d` (a diagnostic located by the kernel's spans) in the kernel's file: unchanged for a
    /// kernel of the input, else located in its header with the include chain as notes.
    pub fn locate(&self, d: crate::diag::Diagnostic) -> crate::diag::Diagnostic {
        match &self.file {
            Some(f) => d.in_file(f),
            None => d,
        }
    }

    /// The parameter `kpl` as the source writes it (`img.pitch`; `kpl` itself for KPL files and
    /// parameters KPL keeps as written).
    pub fn param_source_name<'a>(&'a self, kpl: &'a str) -> &'a str {
        self.source_params.get(kpl).map_or(kpl, String::as_str)
    }

    pub fn array(&self, name: &str) -> Option<&ArrayDecl> {
        self.arrays.iter().find(|a| a.name == name)
    }

    /// The bound each subscript of an access to `array` at `index` must stay below, one entry
    /// per subscript (`None`: not checked). A subscript is checked where the kernel declares its
    /// dimension with a constant size, as the reference interpreter checks it (unsigned, so a
    /// negative subscript is out of bounds), with two exceptions that leave it unchecked: a
    /// thread-local array's row (`[tid.z][tid.y][tid.x]`, within CUDA's bounds of the ids), and
    /// every subscript of a pointer group (its rows are as long as its longest member, or a
    /// stand-in length for a member of unknown size, so the row bound is not the member's). The
    /// oracle assumes these bounds when it checks races and checks each of them on its own
    /// (`verify::OutOfBounds`), except for a subscript computed from a value it knows nothing of
    /// (memory, an opaque call), which it neither assumes nor checks.
    pub fn subscript_bounds(&self, array: &str, index: &[Expr]) -> Vec<Option<u32>> {
        let Some(decl) = self.array(array) else { return vec![None; index.len()] };
        if self.source_arrays.get(array).is_some_and(|v| v.names.len() > 1) {
            return vec![None; index.len()];
        }
        let row = if decl.is_thread_row(index) { THREAD_ROW_DIMS.len() } else { 0 };
        (0..index.len()).map(|k| if k < row { None } else { decl.dims.get(k).copied().flatten() }).collect()
    }

    /// How many leading subscripts of an access to `array` at `index` the source does not write:
    /// a thread-local array's row (3), else 0.
    pub fn hidden_subscripts(&self, array: &str, index: &[Expr]) -> usize {
        match self.array(array) {
            Some(decl) if decl.is_thread_row(index) => THREAD_ROW_DIMS.len(),
            _ => 0,
        }
    }

    /// The source text of element `index` of `array` (`tile[3][17]`): see
    /// [`super::source_array::element_text`].
    pub fn element_text(&self, array: &str, index: u64) -> String {
        match self.array(array) {
            Some(a) => super::source_array::element_text(a, self.source_arrays.get(array), index),
            None => format!("{array}[{index}]"),
        }
    }

    /// The display name of a label (`main`, `3`, `2:4`, `2:4s`, ...).
    pub fn label_name(&self, l: Label) -> &str {
        self.label_names.get(l.0 as usize).map(|n| n.name.as_str()).unwrap_or("?")
    }

    /// Number of labels (ids are `0..label_count()`).
    pub fn label_count(&self) -> u32 {
        self.label_names.len() as u32
    }

    /// Allocates a fresh label with the given display name and placement.
    pub fn fresh_label(&mut self, name: String, place: Place) -> Label {
        let l = Label(self.label_names.len() as u32);
        self.label_names.push(LabelName { name, explicit: false });
        self.places.push(place);
        l
    }

    /// Where a barrier after `l` goes in the source.
    pub fn place(&self, l: Label) -> &Place {
        const NONE: &Place = &Place::Not(String::new());
        self.places.get(l.0 as usize).unwrap_or(NONE)
    }

    /// Finds a label by display name.
    pub fn label_by_name(&self, name: &str) -> Option<Label> {
        self.label_names.iter().position(|n| n.name == name).map(|i| Label(i as u32))
    }

    /// Visits every statement in program text order (pre-order), with its enclosing blocks.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Stmt)) {
        self.body.stmts.iter().for_each(|s| s.walk(f));
    }

    /// Finds the statement with label `l`.
    pub fn stmt(&self, l: Label) -> Option<&Stmt> {
        // One walk: callers that look up many labels use `stmt_index`.
        let mut found = None;
        self.walk(&mut |s| {
            if s.label == l {
                found = Some(s);
            }
        });
        found
    }

    /// How deeply the kernel nests blocks and expressions (a statement in the body is at depth 1,
    /// each block and each operand one level deeper). Computed without recursion, so it is safe
    /// on any kernel; front ends refuse kernels past [`crate::limits::MAX_KERNEL_NESTING`], which
    /// bounds every recursive pass after them.
    pub fn nesting(&self) -> usize {
        enum Node<'a> {
            Block(&'a Block),
            Expr(&'a Expr),
        }
        let mut deepest = 0;
        let mut stack: Vec<(Node, usize)> = vec![(Node::Block(&self.body), 0)];
        while let Some((node, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            match node {
                Node::Block(b) => {
                    for st in &b.stmts {
                        let d = depth + 1;
                        deepest = deepest.max(d);
                        let mut exprs: Vec<&Expr> = Vec::new();
                        match &st.kind {
                            StmtKind::Local { init, .. } => exprs.extend(init),
                            StmtKind::Assign { value, .. } => exprs.push(value),
                            StmtKind::Read { index, .. } => exprs.extend(index),
                            StmtKind::Write { index, value, .. } | StmtKind::Atomic { index, value, .. } => {
                                exprs.extend(index);
                                exprs.push(value);
                            }
                            StmtKind::Barrier
                            | StmtKind::Syncwarp
                            | StmtKind::Gridsync
                            | StmtKind::NamedBarrier { .. }
                            | StmtKind::Commit
                            | StmtKind::Wait { .. }
                            | StmtKind::WaitOldest
                            | StmtKind::Release => {}
                            StmtKind::Assume { cond } | StmtKind::NamedWait { instance: cond, .. } => {
                                exprs.push(cond)
                            }
                            StmtKind::If { cond, then, els } => {
                                exprs.push(cond);
                                stack.push((Node::Block(then), d));
                                if let Some(e) = els {
                                    stack.push((Node::Block(e), d));
                                }
                            }
                            StmtKind::While { cond, body } => {
                                exprs.push(cond);
                                stack.push((Node::Block(body), d));
                            }
                        }
                        stack.extend(exprs.into_iter().map(|e| (Node::Expr(e), d + 1)));
                    }
                }
                Node::Expr(e) => match e {
                    Expr::Const(_) | Expr::Var(_) | Expr::Builtin(_) => {}
                    Expr::Unary(_, a) => stack.push((Node::Expr(a), depth + 1)),
                    Expr::Binary(_, a, b) => {
                        stack.push((Node::Expr(a), depth + 1));
                        stack.push((Node::Expr(b), depth + 1));
                    }
                    Expr::Select(c, a, b) => {
                        stack.extend([c, a, b].map(|x| (Node::Expr(x), depth + 1)));
                    }
                    Expr::Call(_, args) => stack.extend(args.iter().map(|x| (Node::Expr(x), depth + 1))),
                },
            }
        }
        deepest
    }

    /// Every statement by its label's id (`index[l.0]`), in one walk: for callers that look up
    /// many labels ([`Kernel::stmt`] walks the body each time).
    pub fn stmt_index(&self) -> Vec<Option<&Stmt>> {
        let mut index = vec![None; self.label_names.len()];
        self.walk(&mut |s| {
            if let Some(slot) = index.get_mut(s.label.0 as usize) {
                *slot = Some(s);
            }
        });
        index
    }

    /// Inserts a barrier statement as the right sibling of `after` (or as the first statement of
    /// the block whose start node is `after`). Returns the new barrier's label, or `None` if no
    /// statement or block start has that label. Existing labels are unchanged.
    pub fn insert_barrier_after(&mut self, after: Label) -> Option<Label> {
        self.insert_sync_after(after, false)
    }

    /// Like [`Kernel::insert_barrier_after`] for a warp barrier (`syncwarp`).
    pub fn insert_syncwarp_after(&mut self, after: Label) -> Option<Label> {
        self.insert_sync_after(after, true)
    }

    /// Like [`Kernel::insert_barrier_after`] for a named barrier `bar sync id, count` (its counter
    /// updates are not added: `kpl::named::add_counters` does that).
    pub fn insert_named_after(&mut self, after: Label, id: u32, count: u32) -> Option<Label> {
        self.insert_stmt_after(after, "n", StmtKind::NamedBarrier { id, count: Some(count), wait: true })
    }

    fn insert_sync_after(&mut self, after: Label, warp: bool) -> Option<Label> {
        let kind = if warp { StmtKind::Syncwarp } else { StmtKind::Barrier };
        self.insert_stmt_after(after, if warp { "w" } else { "b" }, kind)
    }

    fn insert_stmt_after(&mut self, after: Label, prefix: &str, kind: StmtKind) -> Option<Label> {
        let name = format!("{prefix}{}", self.label_name(after));
        let fresh = Label(self.label_names.len() as u32);
        fn go(b: &mut Block, after: Label, fresh: Label, kind: &StmtKind) -> bool {
            let barrier = Stmt { label: fresh, kind: kind.clone(), span: Span::default() };
            if b.start == after {
                b.stmts.insert(0, barrier);
                return true;
            }
            for i in 0..b.stmts.len() {
                if b.stmts[i].label == after {
                    b.stmts.insert(i + 1, barrier);
                    return true;
                }
                let done = match &mut b.stmts[i].kind {
                    StmtKind::If { then, els, .. } => {
                        if els.as_ref().is_some_and(|e| e.label == after) {
                            // After the else block: after the whole if statement.
                            b.stmts.insert(i + 1, barrier);
                            return true;
                        }
                        go(then, after, fresh, kind)
                            || els.as_mut().is_some_and(|e| go(e, after, fresh, kind))
                    }
                    StmtKind::While { body, .. } => go(body, after, fresh, kind),
                    _ => false,
                };
                if done {
                    return true;
                }
            }
            false
        }
        if go(&mut self.body, after, fresh, &kind) {
            self.label_names.push(LabelName { name, explicit: false });
            self.places.push(Place::Not("a barrier inserted by synthesis".into()));
            Some(fresh)
        } else {
            None
        }
    }

    /// Removes every barrier statement (block or warp) whose label is in `labels`.
    pub fn remove_barriers(&mut self, labels: &[Label]) {
        fn go(b: &mut Block, labels: &[Label]) {
            b.stmts.retain(|s| {
                !(matches!(s.kind, StmtKind::Barrier | StmtKind::Syncwarp) && labels.contains(&s.label))
            });
            for s in &mut b.stmts {
                match &mut s.kind {
                    StmtKind::If { then, els, .. } => {
                        go(then, labels);
                        if let Some(e) = els {
                            go(e, labels);
                        }
                    }
                    StmtKind::While { body, .. } => go(body, labels),
                    _ => {}
                }
            }
        }
        go(&mut self.body, labels)
    }

    /// Whether the kernel issues an asynchronous copy (`async wr`).
    pub fn has_async_copies(&self) -> bool {
        let mut found = false;
        self.walk(&mut |s| found |= matches!(s.kind, StmtKind::Write { mode: WriteMode::Async, .. }));
        found
    }

    /// Labels of all `syncwarp` statements, in program text order.
    pub fn syncwarps(&self) -> Vec<Label> {
        self.labels_of(|k| matches!(k, StmtKind::Syncwarp))
    }

    /// The warp size `syncwarp` synchronizes: `geometry.warp_sync` when set, else 32 (CUDA's).
    pub fn syncwarp_width(geometry: &Geometry) -> u32 {
        geometry.warp_sync.filter(|w| *w > 0).unwrap_or(32)
    }

    /// Labels of all barrier statements, in program text order.
    pub fn barriers(&self) -> Vec<Label> {
        self.labels_of(|k| matches!(k, StmtKind::Barrier))
    }

    /// Labels of all `gridsync` statements, in program text order.
    pub fn gridsyncs(&self) -> Vec<Label> {
        self.labels_of(|k| matches!(k, StmtKind::Gridsync))
    }

    /// The statements that order two threads of one block: block barriers and grid barriers,
    /// in program text order.
    pub fn block_separators(&self) -> Vec<Label> {
        self.labels_of(|k| matches!(k, StmtKind::Barrier | StmtKind::Gridsync))
    }

    /// Labels of the statements whose kind satisfies `pred`, in program text order.
    pub fn labels_of(&self, pred: impl Fn(&StmtKind) -> bool) -> Vec<Label> {
        let mut out = Vec::new();
        self.walk(&mut |s| {
            if pred(&s.kind) {
                out.push(s.label)
            }
        });
        out
    }
}

/// Variables assigned anywhere in a block, with the number of assigning statements.
pub fn assigned_vars(b: &Block) -> rustc_hash::FxHashMap<String, usize> {
    let mut out = rustc_hash::FxHashMap::default();
    for s in &b.stmts {
        s.walk(&mut |t| {
            let name = match (&t.kind, t.value_target()) {
                (_, Some((name, _))) => name,
                (StmtKind::Local { name, .. }, None) => name.as_str(),
                _ => return,
            };
            *out.entry(name.to_string()).or_insert(0) += 1;
        });
    }
    out
}
