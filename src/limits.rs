//! Every size and depth limit of autosync, in one place. Each bound keeps a pass that recurses,
//! allocates or searches from being driven past its stack or its time by input; a front end that
//! meets one reports a located error (`nesting too deep`, `file too large`, …), never a panic,
//! and the passes after it rely on the invariant it established.
//!
//! The recursion invariant: every [`crate::kpl::Kernel`] a front end hands on (the KPL parser or
//! the CUDA lowering) nests blocks and expressions at most [`MAX_KERNEL_NESTING`] deep
//! ([`crate::kpl::Kernel::nesting`], checked without recursion). The verifier's symbolic walk,
//! the uniformity analysis, the interpreter and the printers recurse once per level, so with
//! [`WORKER_STACK_BYTES`] of stack they cannot overflow.

/// The largest source file autosync reads (16 MiB; the largest kernel of the corpora is ~20 KB).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The most bytes of clang's JSON AST read for one file. clang indents each level of nesting,
/// so a deeply nested expression makes the dump grow with the square of its depth (2000 terms
/// of `t + t + …` print 15 GB); past this the file is refused as nested too deeply. A typical
/// file's dump is under a megabyte (the runtime header is precompiled, never dumped).
pub const MAX_AST_BYTES: u64 = 256 << 20;

/// Deepest nesting of blocks and expressions the KPL parser accepts.
pub const MAX_KPL_PARSE_DEPTH: usize = 200;

/// Deepest nesting of blocks plus expressions of a kernel any pass after a front end sees
/// (the invariant above): the CUDA front end refuses a kernel past it with `nesting too deep`
/// (the JSON reader's depth limit bounds clang's tree; inlining can multiply it).
pub const MAX_KERNEL_NESTING: usize = 2000;

/// Calls the clang front end inlines inside one another (`cuda::lower`): deeper call chains
/// are refused, so inlining cannot blow the stack.
pub const MAX_INLINE_DEPTH: usize = 32;

/// The most words one struct may take in the clang lowering (`cuda::lower::record`): an array
/// member is one word per scalar, so `float big[1 << 20]` in a struct would be a million paths.
/// 65536 words is more than a block's shared memory (228 KiB) holds.
pub const MAX_RECORD_WORDS: usize = 1 << 16;

/// The most words of a struct the clang lowering copies word by word (one read and one write
/// each): a larger copy is refused rather than lowered to thousands of statements.
pub const MAX_RECORD_COPY_WORDS: usize = 1024;

/// Deepest nesting of blocks plus expressions the interpreter accepts.
pub const MAX_INTERP_DEPTH: usize = 1000;

/// SMT terms nested deeper than this get the full range in the interval pre-filter.
pub const MAX_PREFILTER_TERM_DEPTH: u32 = 512;

/// Loops with a constant trip count up to this many iterations get an exact exit value.
pub const MAX_CONST_TRIPS: u64 = 1024;

/// Bodies that only compute locals are unrolled up to this many iterations.
pub const MAX_UNROLL: u64 = 64;

/// z3's resource budget (`rlimit`) for the query that asks whether a race needs a wrap.
pub const WRAP_RLIMIT: u32 = 2_000_000;

/// z3's resource budget for the first-iteration probe of a race query (`verify::query_probing`):
/// a few milliseconds' worth, deterministic under any load.
pub const FIRST_ITERATION_RLIMIT: u32 = 300_000;

/// z3's resource budget for a query with its nonlinear operations abstracted
/// (`verify::abstraction`), tried before the query itself: a linear argument is found within
/// it, and a query it does not refute costs at most this much more.
pub const ABSTRACTION_RLIMIT: u32 = 2_000_000;

/// Most variables one MaxSAT instance accepts (room below rustsat's limit for the objective
/// encoding's auxiliary variables).
pub const MAX_MAXSAT_VARS: u32 = 1 << 28;

/// The stack of each worker thread of a multi-file run: deep enough for [`MAX_KERNEL_NESTING`]
/// levels of every recursive pass.
pub const WORKER_STACK_BYTES: usize = 8 << 20;

/// How similar (Jaro-Winkler, 0 to 1, case-insensitive) a kernel name must be to the name given
/// to `--kernel` to be suggested ("did you mean `histogram256`?"): close enough for a typo or a
/// shortened name, not for an unrelated kernel of the file.
pub const KERNEL_NAME_SIMILARITY: f64 = 0.8;

/// The largest block whose threads the oracle counts one by one (the threads that join a named
/// barrier, `verify::named`): CUDA's largest block is 1024 threads.
pub const MAX_COUNTED_THREADS: u64 = 4096;

/// The longest loop whose named barrier counters the oracle follows iteration by iteration
/// (`verify::symbolic`, counters updated under conditions): longer ones are havocked.
pub const MAX_SIMULATED_TRIPS: u64 = 256;
