//! Lowering of the clang [`Model`] to KPL: one [`Kernel`] per kernel definition (every template
//! instance clang made) of the user's file and of the headers it includes.
//!
//! What is lowered: integer and floating scalars (floats as opaque words, `fadd`/`fcmp_lt`/…),
//! `__shared__` arrays of any
//! rank (`extern` ones unsized), pointer parameters as global arrays, `a[i]`, `a[i][j]`, `*p`,
//! `*(p + i)`, assignments and compound assignments, `++`/`--`, `if`/`else`, `for`/`while`/
//! `do`, range-based `for` over an array of known size (`range_for.rs`), `break`/`continue`/
//! `return` and `goto` to a label of an enclosing statement list (`goto.rs`) in the lock-step
//! paper's predicated form (flag locals and `if (!flags)` guards over the rest of a block),
//! `switch` whose sections end in `break` (`switch.rs`), lambdas called where they are declared
//! (`lambda.rs`), `&&`/`||`/`?:` that read memory only where C evaluates them, enumerations as
//! integers, structs and vector types one word per scalar member (array members one word per
//! scalar of each element, row-major: `s.a[r][k]`), unions whose members' words have one size
//! as the words their members alias (`record.rs`: locals,
//! parameters by value, arrays of them, `p->x`, `a[i].y`, copies, pointer casts between types
//! whose words have one size), `__syncthreads()`, `__syncwarp()`, atomics, device functions
//! inlined (through their prototypes too), and calls of functions without a body (our headers'
//! math functions) as opaque pure calls of scalars. An error of clang on a preprocessor
//! directive refuses the file. Everything else is
//! refused with its place and what it is; a refused kernel is never verified.
//!
//! Places: a barrier may go after a statement only where the statement is written in the main
//! file; the text decides where (`text.rs`).
//!
//! Invariants: every label gets exactly one place (default `Place::Not`); labels are handed out
//! in program order; a KPL name is declared once per kernel (fresh names never collide with a
//! name of the source); one memory access per KPL statement.

use super::model::{Function, Node, NodeKind, SrcRange};
use super::text::{block_start_place, braced_place, line_place};
use crate::diag::Diagnostic;
use crate::kpl::ast::{
    ArrayDecl, AtomicOp, AtomicScope, BinOp, Block, Builtin, Dim, Expr, Kernel, Label, LabelName, Place,
    Space, Stmt, StmtKind, UnOp, Width, WriteMode,
};
use crate::span::Span;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

mod async_copy;
mod barrier_object;
mod bits;
mod curand;
mod pipeline_object;
mod pointer_array;
mod pointer_groups;
mod record;
mod stored_pointer;
pub(crate) use record::type_bytes;
mod row_pointer;
mod split;
mod switch;
mod type_names;
mod wide;
mod wmma;

type R<T> = Result<T, Diagnostic>;

mod fn_ptr;
mod goto;
mod groups;
mod lambda;
mod local_array;
mod range_for;
mod refs;

/// Why a label has no place unless it gets one.
const INSIDE: &str = "inside a statement (a barrier goes after a whole statement)";

/// Loads with a cache hint (`__ldg`, …): a plain load of `*p`, scalar or vector.
const CACHED_LOADS: &[&str] = &["__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"];

/// The value class of a scalar: KPL words are 32 bits; signedness picks the operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    UInt,
    Float,
}

/// What a source declaration stands for in KPL.
#[derive(Clone, Debug)]
enum Binding {
    Scalar {
        kpl: String,
        ty: Ty,
    },
    /// An array of `elem`s; a record element takes `elem.words()` consecutive words of the
    /// last dimension.
    Array {
        kpl: String,
        elem: Elem,
        rank: usize,
    },
    /// A `__shared__` or namespace-scope scalar: element 0 of a one-element array.
    Cell {
        kpl: String,
        ty: Ty,
    },
    /// A pointer to `elem`s into the one-dimensional array `array`, at the word the local
    /// `offset` holds (pointer locals, pointer parameters of inlined functions).
    Ptr {
        array: String,
        elem: Elem,
        offset: String,
    },
    /// A pointer member of a struct in locals: its element offset is the local `offset`, its
    /// array the one its first assignment gives (`Lx::member_arrays`); [`Lx::binding`] gives it
    /// as a [`Binding::Ptr`] once that is known. A later assignment of a pointer into another
    /// array is refused.
    MemberPtr {
        offset: String,
        elem: Elem,
    },
    /// A namespace-scope scalar constant: its initializer, evaluated where it is read.
    Const(Node),
    /// A pointer never re-pointed whose element is an expression of values that never change
    /// (`const float *row = x + blockIdx.x * cols;`): the expression itself, so the verifier
    /// sees `blockIdx.x * cols + c` whole (its no-wrap facts are per expression).
    Alias {
        array: String,
        elem: Elem,
        at: Expr,
    },
    /// A struct or vector in locals: one binding per word of its layout (scalar locals, and
    /// arrays or pointers for its pointer members).
    Record(Rc<record::Locals>),
    /// A reference to a record in memory (`const Particle &q = p[i]`, a reference parameter).
    RecordRef(Rc<record::InMemory>),
    /// A reference bound to an element: its indices, evaluated where it was bound (without
    /// a thread-local array's row, which [`Lx::element`] puts in front).
    Ref {
        array: String,
        index: Vec<Expr>,
        ty: Ty,
    },
    /// A pointer parameter given a scalar local's address (`&sum`): `*p` and `p[0]` are the
    /// local `kpl`.
    VarPtr {
        kpl: String,
        ty: Ty,
    },
    /// A thread-local array of pointers to `elem`s into `array`: one offset local per element,
    /// and `shadow`, a thread-local array of as many elements whose accesses check the
    /// subscripts' bounds (`pointer_array.rs`).
    PtrArray {
        array: String,
        elem: Elem,
        offsets: Vec<String>,
        shadow: String,
    },
    /// A `__shared__` pointer to `elem`s: the one-word shared array `kpl` holding its offset
    /// (`stored_pointer.rs`).
    SharedPtr {
        kpl: String,
        elem: Elem,
    },
    /// A pointer to a pointer variable (`float **pp = &p`, a `float **` parameter given `&p`):
    /// `*pp` is that variable's binding.
    PtrOf(Box<Binding>),
}

/// What an array holds or a pointer points to.
#[derive(Clone, Debug, PartialEq)]
enum Elem {
    Scalar(Ty),
    /// A struct or vector: one word per scalar member.
    Record(Rc<record::Layout>),
}

impl Elem {
    /// The words one element takes.
    fn words(&self) -> u32 {
        match self {
            Elem::Scalar(_) => 1,
            Elem::Record(l) => l.words(),
        }
    }
}

/// A place in memory or a local, as an assignment's target.
#[derive(Clone, Debug)]
enum Target {
    Var {
        kpl: String,
        ty: Ty,
    },
    /// A pointer's word offset, which moves `words` per element (`p += n`, `++p`).
    Offset {
        kpl: String,
        words: u32,
    },
    Elem {
        array: String,
        index: Vec<Expr>,
        ty: Ty,
    },
}

/// The flags of the innermost loop (`break`, `continue`), when its body uses them.
#[derive(Clone, Default)]
struct LoopFlags {
    brk: Option<String>,
    cont: Option<String>,
}

/// Where a statement sits, for the place after it.
#[derive(Clone, Copy)]
enum Ctx {
    /// In a `{ … }` block.
    Normal,
    /// The braceless body of the compound statement starting at this byte.
    Body { parent_start: usize },
}

/// Where an inlined function's `return` puts its value: a scalar local, or a returned record's
/// temporaries (a pointer member's array fixed by the first `return`).
#[derive(Clone, Debug)]
enum Slot {
    Scalar(String, Ty),
    Record(record::Place),
    /// A pointer: the local holding its word offset, and the array every `return` points into
    /// (known at the first one).
    Pointer(String, Option<(String, Elem)>),
    /// A reference's place: what the one `return` names (`return payload[i];`).
    Place(Option<Box<Target>>),
}

/// The shape of an inlined call's value.
enum Want {
    Scalar(Ty),
    Record(Rc<record::Layout>),
    Pointer,
    Place,
}

/// The source parts of a loop ([`Lx::emit_loop`]).
#[derive(Clone, Copy)]
struct LoopParts<'n> {
    init: Option<&'n Node>,
    cond: Option<&'n Node>,
    inc: Option<&'n Node>,
    /// Declarations lowered at the start of each iteration (a range-based `for`'s variable).
    prologue: Option<&'n Node>,
    body: &'n Node,
    /// A `do` loop: the body runs before the first evaluation of the condition.
    body_first: bool,
}

impl<'n> LoopParts<'n> {
    /// A loop of `body` alone (`for (;;)`).
    fn new(body: &'n Node) -> Self {
        LoopParts { init: None, cond: None, inc: None, prologue: None, body, body_first: false }
    }
}

/// Where a kernel is written and what the command line adds to it.
pub struct KernelSite<'a> {
    /// The file's text.
    pub src: &'a str,
    /// clang's name of the file.
    pub file: &'a str,
    /// For a kernel of a header the file includes: the `#include` line, where everything of
    /// the kernel is reported.
    pub outside: Option<Span>,
    /// The `--assume` expressions as functions over the kernel's parameters, with their text.
    pub assumptions: &'a [(&'a Function, &'a str)],
}

/// Lowers the kernel `f`, written at `site`. `name` is the kernel's name in reports (`k<128>`
/// for an instance). Warnings (calls modelled without their body) go to `warnings`.
pub fn lower_kernel(
    f: &Function,
    name: String,
    site: &KernelSite,
    model: &super::Model,
    warnings: &mut Vec<Diagnostic>,
) -> R<Kernel> {
    // An array seen through a narrower type is lowered again with its elements split into
    // units of that type (`wide.rs`): at most one split per attempt, each one finer.
    let mut split: HashMap<String, u32> = HashMap::new();
    // Stored pointers whose one stored value a read took, contradicted by a later store: lowered
    // again reading them from memory (`stored_pointer.rs`).
    let mut unknown: HashSet<String> = HashSet::new();
    let (mut splits, mut stores) = (0, 0);
    let at = f.name_range.as_ref().map_or(Span::new(0, 0), |r| Span::new(r.start.offset, r.end));
    loop {
        let mut attempt_warnings = Vec::new();
        let mut relower = None;
        let mut conflicts = Vec::new();
        let attempt =
            Attempt { split: &split, relower: &mut relower, unknown: &unknown, conflicts: &mut conflicts };
        let lowered = lower_kernel_with(f, name.clone(), site, model, &mut attempt_warnings, attempt);
        match (lowered, relower) {
            (Err(_), Some((array, parts))) => {
                splits += 1;
                if splits >= wide::MAX_RELOWERINGS {
                    return Err(Diagnostic::error(
                        "unsupported: views of an array through too many narrower types",
                        at,
                    ));
                }
                *split.entry(array).or_insert(1) *= parts;
            }
            (Ok(_), _) if !conflicts.is_empty() => {
                stores += 1;
                if stores > stored_pointer::MAX_RELOWERINGS {
                    return Err(Diagnostic::error(
                        "unsupported: pointers stored in memory whose stored values depend on each other too deeply",
                        at,
                    ));
                }
                unknown.extend(conflicts);
            }
            (lowered, _) => {
                warnings.append(&mut attempt_warnings);
                return lowered;
            }
        }
    }
}

/// What one lowering attempt of a kernel is given and reports besides the kernel: the arrays
/// split into narrower units (`wide.rs`) and the stored pointers read from memory
/// (`stored_pointer.rs`); the split the attempt asks for, and the stored pointers whose value
/// a read assumed and a later store contradicted.
struct Attempt<'a> {
    split: &'a HashMap<String, u32>,
    relower: &'a mut Option<(String, u32)>,
    unknown: &'a HashSet<String>,
    conflicts: &'a mut Vec<String>,
}

fn lower_kernel_with(
    f: &Function,
    name: String,
    site: &KernelSite,
    model: &super::Model,
    warnings: &mut Vec<Diagnostic>,
    attempt: Attempt,
) -> R<Kernel> {
    let Attempt { split, relower, unknown, conflicts } = attempt;
    let KernelSite { src, file, outside, assumptions } = *site;
    let body = f.body.as_ref().ok_or_else(|| Diagnostic::error("kernel without a body", Span::new(0, 0)))?;
    let mut lx = Lx {
        src,
        file,
        typedefs: &model.typedefs,
        model,
        inlining: vec![f.id.clone()],
        bodies: vec![body],
        places: Vec::new(),
        out: Vec::new(),
        cur_span: Span::new(0, 0),
        bindings: HashMap::new(),
        used: HashSet::new(),
        declared: HashSet::new(),
        arrays: Vec::new(),
        params: Vec::new(),
        flag_guards: BTreeSet::new(),
        ret: None,
        result: None,
        source_arrays: Vec::new(),
        source_params: Vec::new(),
        dynamic_shared: None,
        warnings: Vec::new(),
        ptr_groups: Default::default(),
        loops: Vec::new(),
        temps: 0,
        groups: HashMap::new(),
        private: HashSet::new(),
        fn_ptrs: HashMap::new(),
        lambdas: HashMap::new(),
        gotos: HashMap::new(),
        views: HashMap::new(),
        member_arrays: HashMap::new(),
        shared_addresses: HashMap::new(),
        void_words: HashMap::new(),
        fragments: HashMap::new(),
        barrier_objects: HashMap::new(),
        pipelines: HashSet::new(),
        copy_completions: None,
        constant_locals: HashMap::new(),
        tokens: HashMap::new(),
        wide: Default::default(),
        kernel_templated: !f.template_args.is_empty(),
        varying: HashSet::new(),
        split: split.clone(),
        relower: None,
        cells: HashSet::new(),
        param_arrays: BTreeMap::new(),
        stored: stored_pointer::StoredValues::new(unknown.clone()),
        this: Vec::new(),
    };
    // Every identifier of the source is taken: fresh names never shadow one.
    for n in body.walk() {
        match &n.kind {
            NodeKind::Var { name, .. } | NodeKind::DeclRef { name, .. } => {
                lx.used.insert(name.clone());
            }
            _ => {}
        }
    }
    for p in &f.params {
        lx.used.insert(p.name.clone());
    }
    let main = lx.label();
    lx.places[main.0 as usize] = Place::Not("the kernel body as a whole".into());
    let start = lx.label();
    let body_span = lx.span_of(body).or(outside).unwrap_or(Span::new(0, 0));
    lx.cur_span = body_span;
    if let Some(p) = lx.start_place(body) {
        lx.places[start.0 as usize] = p;
    }
    let name_span = f.name_range.as_ref().and_then(|r| lx.span_of_range(r)).unwrap_or(body_span);
    lx.pointer_groups(f, body, name_span);
    lx.parameters(f, name_span)?;
    lx.globals(name_span);
    lx.cli_assumptions(f, assumptions, body_span)?;
    let body_parts = FunctionBody::of(body);
    if body_parts.returns_early {
        lx.ret = Some(lx.flag("ret"));
    }
    let lowered = lx.seq(&body_parts.stmts);
    *relower = lx.relower.take();
    lowered?;
    *conflicts = lx.stored.conflicts();
    let mut stmts = std::mem::take(&mut lx.out);
    let views = &lx.views;
    if let Err(row) = wide::resolve(&mut stmts, &lx.wide, |a| views.contains_key(a)) {
        return Err(Diagnostic::error(
            format!("unsupported: a wider view of the row pointer `{row}`"),
            body_span,
        ));
    }
    let n = lx.places.len();
    let fn_pointers = lx.kernel_fn_pointers();
    let barrier_names = lx.barrier_names();
    let mut kernel = Kernel {
        name,
        params: lx.params,
        arrays: lx.arrays,
        body: Block { label: main, start, stmts, span: body_span },
        geometry: Default::default(),
        label_names: vec![LabelName { name: String::new(), explicit: false }; n],
        places: lx.places,
        flag_guards: lx.flag_guards,
        launch_facts: Vec::new(),
        source_arrays: lx.source_arrays.into_iter().collect(),
        fn_pointers,
        source_params: lx.source_params.into_iter().collect(),
        file: None,
        dynamic_shared: lx.dynamic_shared.clone().and_then(|(kpl, unit)| unit.map(|u| (kpl, u))),
        param_arrays: lx.param_arrays.clone(),
        barrier_names,
    };
    crate::kpl::named::add_counters(&mut kernel).map_err(|e| Diagnostic::error(e.message, body_span))?;
    crate::kpl::assign_default_names(&mut kernel, src);
    warnings.append(&mut lx.warnings);
    Ok(kernel)
}

struct Lx<'a> {
    src: &'a str,
    file: &'a str,
    /// The file's type names and what they stand for.
    typedefs: &'a HashMap<String, String>,
    places: Vec<Place>,
    out: Vec<Stmt>,
    cur_span: Span,
    /// By clang declaration id (parameters of inlined functions are rebound at each call).
    bindings: HashMap<String, Binding>,
    /// The whole model, for the bodies of called functions.
    model: &'a super::Model,
    /// The functions being inlined, innermost last (recursion is refused).
    inlining: Vec<String>,
    /// Their bodies, the kernel's first.
    bodies: Vec<&'a Node>,
    /// Every name the source or the lowering uses.
    used: HashSet<String>,
    /// The KPL names declared so far.
    declared: HashSet<String>,
    arrays: Vec<ArrayDecl>,
    params: Vec<String>,
    flag_guards: BTreeSet<Label>,
    /// The `return` flag of the function being lowered, when it returns early.
    ret: Option<String>,
    /// Where an inlined function's `return e` puts its value.
    result: Option<Slot>,
    /// How record arrays look in the source, by KPL name (`Kernel::source_arrays`).
    source_arrays: Vec<(String, crate::kpl::SourceArray)>,
    /// Parameters written otherwise in the source (`img_pitch` is `img.pitch`).
    source_params: Vec<(String, String)>,
    /// The KPL array of the block's dynamic shared memory and the size of its words: every
    /// `extern __shared__` array (in the kernel and in each inlined copy of a function) is it.
    dynamic_shared: Option<(String, Option<u32>)>,
    /// What the lowering modelled without knowing it (a call of a function without a body).
    warnings: Vec<Diagnostic>,
    /// The arrays pointers join into one (`pointer_groups.rs`).
    ptr_groups: pointer_groups::PointerGroups,
    loops: Vec<LoopFlags>,
    temps: usize,
    /// The cooperative groups bound to locals and parameters, by clang declaration id.
    groups: HashMap<String, groups::Group>,
    /// The KPL arrays that model thread-local arrays (indexed behind the thread's row).
    private: HashSet<String>,
    /// The function pointers bound to candidates, by clang declaration id.
    fn_ptrs: HashMap<String, fn_ptr::FnChoice>,
    /// The locals bound to lambdas' closures, by clang declaration id.
    lambdas: HashMap<String, lambda::Closure>,
    /// The labels whose `goto` regions are being lowered, by clang declaration id: the flag a
    /// `goto` to it sets.
    gotos: HashMap<String, String>,
    /// Rows of multi-dimensional arrays pointers point into, by view name: the array and the
    /// outer indices (`row_pointer.rs`).
    views: HashMap<String, (String, Vec<Expr>)>,
    /// The arrays of structs' pointer members in locals, by offset local, from their first
    /// assignment ([`Binding::MemberPtr`]).
    member_arrays: HashMap<String, String>,
    /// Wider views of arrays' elements pointers were cast to (`wide.rs`).
    wide: wide::WideViews,
    /// The kernel is a template instance (its text serves every instance: `split.rs`).
    kernel_templated: bool,
    /// Locals that may differ between threads ([`Lx::is_varying`]).
    varying: HashSet<String>,
    /// Arrays whose elements this attempt splits into `parts` units each (`wide.rs`).
    split: HashMap<String, u32>,
    /// Set by a cast to a narrower type: lower the kernel again with this array split.
    relower: Option<(String, u32)>,
    /// Scalars and structs kept in memory (`__shared__ int count;`): accessed without a view,
    /// so never split.
    cells: HashSet<String>,
    /// The values stored pointers are given (`stored_pointer.rs`).
    stored: stored_pointer::StoredValues,
    /// The objects of the methods being inlined, innermost last (`this`).
    this: Vec<Binding>,
    /// Local integers holding a shared-memory address, by declaration id (`async_copy.rs`).
    shared_addresses: HashMap<String, async_copy::SharedAddress>,
    /// How the file's asynchronous copies complete, read once (`barrier_object.rs`).
    copy_completions: Option<(bool, bool)>,
    /// Scalar parameters of inlined functions given a constant and never assigned, by KPL name:
    /// what an `asm` operand that must be a constant (a named barrier's id) may read.
    constant_locals: HashMap<String, u32>,
    /// `cuda::barrier` arrival tokens by clang declaration id: the local holding the instance
    /// and the barrier's named id.
    tokens: HashMap<String, (String, u32)>,
    /// `cuda::barrier` objects by declaration id (`barrier_object.rs`).
    barrier_objects: HashMap<String, barrier_object::BarrierObject>,
    /// Thread-scope `cuda::pipeline` objects by declaration id (`pipeline_object.rs`).
    pipelines: HashSet<String>,
    /// wmma fragments by declaration id: registers, no KPL state (`wmma.rs`).
    fragments: HashMap<String, wmma::Fragment>,
    /// The size of the words of pointers into each array that were converted to `void *`
    /// (a `void *` into it has those words).
    void_words: HashMap<String, u32>,
    /// Pointer parameters with an array of their own ([`Kernel::param_arrays`]).
    param_arrays: BTreeMap<usize, (String, u32)>,
}

/// An integer type narrower than a word: its width in bits and whether it is signed
/// (`unsigned char`: 8, unsigned; `short`: 16, signed), qualifiers and a `std::` prefix
/// ignored; `None` for other types. Plain `char` is neither: its signedness is the platform's
/// (signed on x86-64, unsigned where nvcc's host is aarch64 or ppc64le), so it keeps no range.
fn narrow_int(ty: &str) -> Option<(u32, bool)> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile"))
        .map(|w| w.strip_prefix("std::").unwrap_or(w))
        .collect();
    match words.as_slice() {
        ["unsigned", "char"] | ["uint8_t"] | ["uchar"] | ["unsigned", "__int8"] => Some((8, false)),
        ["unsigned", "short"] | ["unsigned", "short", "int"] | ["uint16_t"] | ["ushort"] => Some((16, false)),
        ["signed", "char"] | ["int8_t"] | ["__int8"] => Some((8, true)),
        ["short"] | ["short", "int"] | ["signed", "short"] | ["signed", "short", "int"] | ["int16_t"] => {
            Some((16, true))
        }
        _ => None,
    }
}

/// The value C gives a word `e` held in an integer type of `bits` bits: its low bits, masked
/// (`x & 255`) or sign-extended (`((x & 255) ^ 128) - 128`: bitwise operators and a
/// subtraction that never leaves the signed range, so the value is exact in the oracle's and
/// the interpreter's arithmetic alike and adds no assumption).
fn narrow_value(e: Expr, (bits, signed): (u32, bool)) -> Expr {
    let mask = Expr::Const(((1u64 << bits) - 1) as u32);
    let low = Expr::bin(BinOp::BitAnd, e, mask);
    if !signed {
        return low;
    }
    let sign = 1u32 << (bits - 1);
    Expr::bin(BinOp::Sub, Expr::bin(BinOp::BitXor, low, Expr::Const(sign)), Expr::Const(sign))
}

/// The type class of a clang type string, qualifiers ignored (`None`: not a scalar).
fn scalar(ty: &str) -> Option<Ty> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict" | "__restrict__" | "register"))
        .collect();
    let t = words.join(" ");
    Some(match t.as_str() {
        "int" | "char" | "short" | "long" | "bool" | "_Bool" | "signed char" | "long long" | "int8_t"
        | "int16_t" | "int32_t" | "int64_t" | "ptrdiff_t" | "intptr_t" | "clock_t" | "time_t" => Ty::Int,
        "unsigned int"
        | "unsigned"
        | "unsigned char"
        | "unsigned short"
        | "unsigned long"
        | "unsigned long long"
        | "size_t"
        | "uint8_t"
        | "uint16_t"
        | "uint32_t"
        | "uint64_t"
        | "uintptr_t"
        | "uint"
        | "cudaTextureObject_t"
        | "cudaSurfaceObject_t" => Ty::UInt,
        "float" | "double" | "long double" | "half" | "__half" | "__nv_bfloat16" | "nv_bfloat16"
        | "__nv_fp8_e4m3" | "__nv_fp8_e5m2" | "c10::Half" | "at::Half" | "c10::BFloat16" | "at::BFloat16" => {
            Ty::Float
        }
        _ => return None,
    })
}

/// `float[16][17]` → (`float`, [16, 17]); `float[]` → (`float`, [None]); not an array: `None`.
fn array_type(ty: &str) -> Option<(String, Vec<Option<u32>>)> {
    let open = ty.find('[')?;
    let elem = ty[..open].trim().to_string();
    let mut dims = Vec::new();
    let mut rest = &ty[open..];
    while let Some(r) = rest.strip_prefix('[') {
        let close = r.find(']')?;
        let d = r[..close].trim();
        dims.push(if d.is_empty() { None } else { Some(d.parse().ok()?) });
        rest = r[close + 1..].trim_start();
    }
    rest.is_empty().then_some((elem, dims))
}

/// A pointer to rows (`float (*)[512]` → (`float`, [None, 512])): a parameter that is a
/// multi-dimensional array of unknown length.
fn row_pointer(ty: &str) -> Option<(String, Vec<Option<u32>>)> {
    let open = ty.find("(*")?;
    let close = open + ty[open..].find(')')?;
    let qualifiers = ty[open + 2..close].trim();
    if !qualifiers.split_whitespace().all(|w| matches!(w, "const" | "__restrict" | "__restrict__")) {
        return None;
    }
    let (elem, mut dims) = array_type(&format!("{}{}", ty[..open].trim(), ty[close + 1..].trim()))?;
    dims.insert(0, None);
    Some((elem, dims))
}

/// The pointee of a pointer type (`const float *__restrict` → `const float`).
/// Whether `ty` is a pointer to a pointer to data (`float **`, `const int *const *`).
fn pointer_to_pointer(ty: &str) -> bool {
    let t = ty.trim_end();
    let t = t.strip_suffix("__restrict").unwrap_or(t).trim_end();
    let t = t.strip_suffix("const").unwrap_or(t).trim_end();
    t.strip_suffix('*').is_some_and(|inner| pointee(inner).is_some())
}

/// Whether an expression has a pointer or array type (the operands of a pointer comparison).
fn is_pointer_typed(n: &Node) -> bool {
    n.ty.as_deref().is_some_and(|t| t.contains('*') || t.contains('['))
}

fn pointee(ty: &str) -> Option<&str> {
    let t = ty.trim_end();
    let t = t.strip_suffix("__restrict").unwrap_or(t).trim_end();
    let t = t.strip_suffix("const").unwrap_or(t).trim_end();
    let t = t.strip_suffix('*')?;
    (!t.contains('*') && !t.contains('(')).then_some(t.trim())
}

fn has_return(n: &Node) -> bool {
    // A lambda's `return` leaves the lambda (inlined where it is called), not this function.
    n.kind == NodeKind::Return || (!is_lambda(n) && n.children.iter().any(has_return))
}

fn is_lambda(n: &Node) -> bool {
    matches!(&n.kind, NodeKind::Other { kind } if kind == "LambdaExpr")
}

/// Whether `n` (a loop body) breaks or continues its own loop (`which`: Break or Continue).
fn jumps(n: &Node, which: &NodeKind) -> bool {
    if &n.kind == which {
        return true;
    }
    match &n.kind {
        NodeKind::For | NodeKind::While | NodeKind::Do => false,
        NodeKind::Other { kind } if kind == "CXXForRangeStmt" || kind == "LambdaExpr" => false,
        NodeKind::Switch if *which == NodeKind::Break => false,
        _ => n.children.iter().any(|c| jumps(c, which)),
    }
}

/// A function body split at its final `return`, which needs no flag: nothing follows it.
struct FunctionBody<'n> {
    /// The statements before the final `return` (all of them when there is none).
    stmts: Vec<&'n Node>,
    /// The final `return`.
    final_return: Option<&'n Node>,
    /// Some other statement returns.
    returns_early: bool,
}

impl<'n> FunctionBody<'n> {
    fn of(body: &'n Node) -> FunctionBody<'n> {
        let mut stmts: Vec<&Node> = body.children.iter().collect();
        let final_return = stmts.last().copied().filter(|c| c.kind == NodeKind::Return);
        if final_return.is_some() {
            stmts.pop();
        }
        let returns_early = stmts.iter().any(|s| has_return(s));
        FunctionBody { stmts, final_return, returns_early }
    }
}

/// Skips nodes that change nothing KPL sees: parentheses, value conversions, `NoOp` casts.
fn strip(mut n: &Node) -> &Node {
    loop {
        match &n.kind {
            NodeKind::Paren => {}
            NodeKind::ImplicitCast { cast }
                if matches!(
                    cast.as_str(),
                    "LValueToRValue" | "NoOp" | "ArrayToPointerDecay" | "IntegralCast"
                ) => {}
            NodeKind::Constant { value: None } => {}
            NodeKind::Other { kind } if kind == "SubstNonTypeTemplateParmExpr" => match n.children.last() {
                Some(c) => {
                    n = c;
                    continue;
                }
                None => return n,
            },
            _ => return n,
        }
        match n.children.first() {
            Some(c) => n = c,
            None => return n,
        }
    }
}

fn builtin(var: &str, field: char) -> Option<Builtin> {
    let d = match field {
        'x' => Dim::X,
        'y' => Dim::Y,
        'z' => Dim::Z,
        _ => return None,
    };
    Some(match var {
        "threadIdx" => Builtin::Tid(d),
        "blockIdx" => Builtin::Bid(d),
        "blockDim" => Builtin::BlockDim(d),
        "gridDim" => Builtin::GridDim(d),
        _ => return None,
    })
}

/// Warp collectives: they exchange registers, not memory, and order nothing between lanes.
const WARP_COLLECTIVES: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot_sync",
    "__ballot",
    "__any_sync",
    "__all_sync",
    "__any",
    "__all",
    "__uni_sync",
    "__activemask",
    "__match_any_sync",
    "__match_all_sync",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
];

pub(super) fn not(e: Expr) -> Expr {
    Expr::Unary(UnOp::Not, Box::new(e))
}

impl<'a> Lx<'a> {
    /// `ty` with the file's type names replaced by what they stand for (`const uchar *` →
    /// `const unsigned char *`), a bounded number of times (a name may stand for another).
    fn resolve(&self, ty: &str) -> String {
        let mut t = ty.replace("typename ", "");
        // Names inside template instances (`Packed<float>::Vec`) are not single words.
        for (name, target) in self.typedefs.iter().filter(|(k, _)| k.contains('<')) {
            if t.contains(name.as_str()) {
                t = t.replace(name.as_str(), target);
            }
        }
        for _ in 0..8 {
            let mut changed = false;
            let mut out = String::new();
            let mut word = String::new();
            for c in t.chars().chain(std::iter::once(' ')) {
                if c.is_alphanumeric() || c == '_' || c == ':' {
                    word.push(c);
                    continue;
                }
                match self.typedefs.get(&word) {
                    Some(target) if scalar(&word).is_none() => {
                        out.push_str(target);
                        changed = true;
                    }
                    _ => out.push_str(&word),
                }
                word.clear();
                out.push(c);
            }
            t = out.trim_end().to_string();
            if !changed {
                break;
            }
        }
        t
    }

    /// Whether `e` reads only values that never change in `body`: literals, launch built-ins
    /// and parameters `body` never assigns (no memory).
    fn stable(&self, e: &Node, body: &Node) -> bool {
        !touches_memory(e)
            && e.walk().iter().all(|n| match &n.kind {
                NodeKind::DeclRef { decl_id, decl_kind, .. } => {
                    decl_kind == "ParmVarDecl"
                        && !may_change(body, decl_id)
                        && matches!(
                            self.bindings.get(decl_id),
                            Some(Binding::Scalar { .. } | Binding::Array { .. } | Binding::Record(_))
                        )
                }
                _ => true,
            })
    }

    /// A value that may differ between threads: `f(args…, u, tid.x)` with `u` a fresh unknown
    /// (equal arguments do not force equal results) and `tid.x` marking it thread-dependent.
    fn lane_value(&mut self, name: &str, mut args: Vec<Expr>) -> Expr {
        let u = self.fresh("_lane");
        self.emit(StmtKind::Local { name: u.clone(), init: None });
        args.push(Expr::var(&u));
        args.push(Expr::Builtin(Builtin::Tid(Dim::X)));
        Expr::var(&self.temp(Some(Expr::Call(name.to_string(), args))))
    }

    /// The class of a scalar type, type names resolved.
    /// Whether `pointer` (an expression) points to a scalar (`const float *`), not to a vector
    /// or a struct.
    fn scalar_pointee(&self, pointer: &Node) -> bool {
        let of = |t: &str| {
            let t = t.trim_end();
            t.strip_suffix('*').is_some_and(|pointee| self.scalar_of(pointee.trim()).is_some())
        };
        pointer.ty.as_deref().is_some_and(of) || pointer.desugared.as_deref().is_some_and(of)
    }

    fn scalar_of(&self, ty: &str) -> Option<Ty> {
        scalar(ty).or_else(|| scalar(&self.resolve(ty))).or_else(|| self.is_enum(ty).then_some(Ty::Int))
    }

    /// Whether `ty` is one of the file's enumeration types (`ReduceOp`, `enum act::Kind`).
    fn is_enum(&self, ty: &str) -> bool {
        let words: Vec<&str> =
            ty.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile" | "enum")).collect();
        let name = words.join(" ");
        let name = name.trim_start_matches("::");
        self.model.enums.contains(name)
            || self.model.enums.iter().any(|e| e.rsplit("::").next() == Some(name))
    }

    fn label(&mut self) -> Label {
        self.places.push(Place::Not(INSIDE.into()));
        Label((self.places.len() - 1) as u32)
    }

    fn emit(&mut self, kind: StmtKind) -> Label {
        match &kind {
            StmtKind::Local { name, init: Some(e) } | StmtKind::Assign { name, value: e }
                if self.is_varying(e) =>
            {
                self.varying.insert(name.clone());
            }
            StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => {
                self.varying.insert(dst.clone());
            }
            _ => {}
        }
        let label = self.label();
        self.out.push(Stmt { label, kind, span: self.cur_span });
        label
    }

    /// The span of a range in the main file.
    fn span_of_range(&self, r: &SrcRange) -> Option<Span> {
        (&*r.file == self.file && r.end <= self.src.len() && r.start.offset <= r.end)
            .then(|| Span::new(r.start.offset, r.end))
    }

    fn span_of(&self, n: &Node) -> Option<Span> {
        n.range.as_ref().and_then(|r| self.span_of_range(r))
    }

    /// Whether evaluating `n` may touch memory: an element, a dereference, a call, or a
    /// variable that lives in memory (a `__shared__` or namespace-scope scalar).
    fn reads_memory(&self, n: &Node) -> bool {
        touches_memory(n)
            || n.walk().iter().any(|x| {
                matches!(
                    self.binding(x),
                    Some(Binding::Cell { .. } | Binding::RecordRef(_) | Binding::Ref { .. })
                )
            })
    }

    /// Makes the statements emitted next belong to `n` (their span in reports): the statement
    /// as written, its `;` included (clang's range of an expression statement ends before it).
    fn at(&mut self, n: &Node) {
        if let Some(s) = self.statement_span_with_semicolon(n) {
            self.cur_span = s;
        }
    }

    /// [`Self::statement_span`] with the `;` that ends it (clang's range of an expression
    /// statement stops before it).
    fn statement_span_with_semicolon(&self, n: &Node) -> Option<Span> {
        let mut s = self.statement_span(n)?;
        let rest = self.src.as_bytes().get(s.end..).unwrap_or_default();
        let blanks = rest.iter().take_while(|b| **b == b' ' || **b == b'\t').count();
        if rest.get(blanks) == Some(&b';') {
            s.end += blanks + 1;
        }
        Some(s)
    }

    fn unsupported(&self, what: impl Into<String>, n: &Node) -> Diagnostic {
        Diagnostic::error(format!("unsupported: {}", what.into()), self.span_of(n).unwrap_or(self.cur_span))
    }

    /// A fresh KPL name based on `base`: no name of the source and none declared before.
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut i = 1;
        while self.used.contains(&name) || self.declared.contains(&name) || crate::kpl::is_keyword(&name) {
            i += 1;
            name = format!("{base}_{i}");
        }
        self.declared.insert(name.clone());
        name
    }

    /// Whether `e` may differ between threads, syntactically: it reads a thread id, a value from
    /// memory or a local computed from one (`emit` keeps that set; loop counters and flags set
    /// under such a guard are not tracked, so this is a heuristic for where a statement split
    /// hoists its guard, never a fact the verifier relies on).
    fn is_varying(&self, e: &Expr) -> bool {
        match e {
            Expr::Builtin(Builtin::Tid(_)) => true,
            Expr::Var(v) => self.varying.contains(v),
            Expr::Const(_) | Expr::Builtin(_) => false,
            Expr::Unary(_, a) => self.is_varying(a),
            Expr::Binary(_, a, b) => self.is_varying(a) || self.is_varying(b),
            Expr::Select(c, a, b) => self.is_varying(c) || self.is_varying(a) || self.is_varying(b),
            Expr::Call(_, args) => args.iter().any(|a| self.is_varying(a)),
        }
    }

    /// The KPL name of a source declaration: its own unless declared before (another scope's
    /// `i`, a second inlined copy) or a keyword of KPL.
    fn declare(&mut self, source: &str) -> String {
        if !self.declared.contains(source) && !crate::kpl::is_keyword(source) {
            self.declared.insert(source.to_string());
            return source.to_string();
        }
        let mut i = 1;
        loop {
            i += 1;
            let name = format!("{source}_{i}");
            if !self.used.contains(&name) && !self.declared.contains(&name) {
                self.declared.insert(name.clone());
                return name;
            }
        }
    }

    /// A flag local, declared 0 here.
    fn flag(&mut self, base: &str) -> String {
        let name = self.fresh(base);
        self.emit(StmtKind::Local { name: name.clone(), init: Some(Expr::Const(0)) });
        name
    }

    /// A fresh temporary holding `init` (or nothing yet).
    fn temp(&mut self, init: Option<Expr>) -> String {
        self.temps += 1;
        let name = self.fresh(&format!("t{}", self.temps));
        self.emit(StmtKind::Local { name: name.clone(), init });
        name
    }

    /// The span of the statement `n`: a function-like macro's use whole (clang's range of a
    /// statement the macro expands to ends at the macro's name).
    fn statement_span(&self, n: &Node) -> Option<Span> {
        let mut s = self.span_of(n)?;
        let bytes = self.src.as_bytes();
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut i = s.end;
        while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            i += 1;
        }
        if s.end > s.start && ident(bytes[s.end - 1]) && bytes.get(i) == Some(&b'(') {
            let mut depth = 0usize;
            for (k, b) in bytes.iter().enumerate().skip(i) {
                match b {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            s.end = k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(s)
    }

    /// The place after the source statement `n`: the line after it (past its `;`).
    fn place_after(&self, n: &Node, ctx: Ctx) -> Place {
        let Some(span) = self.statement_span(n) else {
            return Place::Not("not written in the main file (a macro or an included file)".into());
        };
        let mut end = span.end;
        let bytes = self.src.as_bytes();
        let mut i = end;
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        if bytes.get(i) == Some(&b';') {
            end = i + 1;
        }
        match ctx {
            Ctx::Normal => line_place(self.src, span.start, end),
            Ctx::Body { parent_start } => braced_place(self.src, parent_start, span.start, end),
        }
    }

    /// The place of a block's start node: after its `{`.
    fn start_place(&self, block: &Node) -> Option<Place> {
        let span = self.span_of(block)?;
        (self.src.as_bytes().get(span.start) == Some(&b'{')).then(|| {
            block_start_place(
                self.src,
                span.start,
                block.children.first().and_then(|c| self.span_of(c)).map(|s| s.start),
            )
        })
    }

    fn parameters(&mut self, f: &Function, at: Span) -> R<()> {
        for p in &f.params {
            if let Some(r) = self.fn_pointer_kernel_param(p, f.body.as_ref(), at) {
                r?;
                continue;
            }
            let ty = p.desugared.as_deref().unwrap_or(&p.ty);
            let key = p.id.clone();
            if let Some(t) = self.scalar_of(ty) {
                let kpl = self.declare(&p.name);
                self.params.push(kpl.clone());
                self.bindings.insert(key, Binding::Scalar { kpl, ty: t });
            } else if let Some(elem) = pointee(&self.resolve(ty)).and_then(|t| self.elem_of(t)) {
                let assigned = f.body.as_ref().is_some_and(|b| assigns(b, &p.id));
                if let Some(b) = self.group_member(&p.id, &p.name, &elem, assigned) {
                    self.bindings.insert(key, b);
                    continue;
                }
                let kpl = self.declare(&p.name);
                self.declare_array(&kpl, &p.name, Space::Global, &[None], &elem, at);
                // The bytes of one element, for the allocation size the host gives it.
                let parts = self.split.get(&kpl).copied().unwrap_or(1);
                if let (Some(i), Some(bytes)) = (
                    f.params.iter().position(|q| q.id == p.id),
                    pointee(&self.resolve(ty)).and_then(|t| self.word_bytes(t)),
                ) {
                    self.param_arrays.insert(i, (kpl.clone(), bytes / parts));
                }
                let assigned = f.body.as_ref().is_some_and(|b| assigns(b, &p.id));
                let binding = if assigned {
                    // `d_in += blockIdx.x * N;`: a pointer whose element moves.
                    let offset = self.fresh(&format!("{}_at", p.name));
                    self.emit(StmtKind::Local { name: offset.clone(), init: Some(Expr::Const(0)) });
                    Binding::Ptr { array: kpl, elem, offset }
                } else {
                    Binding::Array { kpl, elem, rank: 1 }
                };
                self.bindings.insert(key, binding);
            } else if let Some(layout) = self.layout_of(&self.resolve(ty)) {
                let binding = self.record_param(&p.name, layout, at);
                self.bindings.insert(key, binding);
            } else if let Some((elem, dims)) = row_pointer(&self.resolve(ty)) {
                let Some(elem) = self.elem_of(&elem) else {
                    return Err(self.unsupported_param(p, at));
                };
                if f.body.as_ref().is_some_and(|b| assigns(b, &p.id)) {
                    return Err(self.unsupported_param(p, at));
                }
                let kpl = self.declare(&p.name);
                self.declare_array(&kpl, &p.name, Space::Global, &dims, &elem, at);
                self.bindings.insert(key, Binding::Array { kpl, elem, rank: dims.len() });
            } else {
                return Err(self.unsupported_param(p, at));
            }
        }
        Ok(())
    }

    fn unsupported_param(&self, p: &super::Param, at: Span) -> Diagnostic {
        Diagnostic::error(format!("unsupported: parameter `{}` of type `{}`", p.name, p.ty), at)
    }

    /// Binds the namespace-scope variables any function of the file reads or writes: arrays
    /// as arrays of their memory space, scalars as one-element arrays. One of a type not
    /// lowered stays unbound (an error where it is used).
    fn globals(&mut self, at: Span) {
        let mut used: BTreeSet<&str> = BTreeSet::new();
        for f in &self.model.functions {
            // Bodies and default arguments (`int l = lo` reads `lo` at the call).
            let defaults = f.params.iter().filter_map(|p| p.default.as_ref());
            for n in f.body.iter().chain(defaults).flat_map(|b| b.walk()) {
                if let NodeKind::DeclRef { decl_id, decl_kind, .. } = &n.kind {
                    if decl_kind == "VarDecl" && self.model.globals.contains_key(decl_id) {
                        used.insert(decl_id);
                    }
                }
            }
        }
        // And the globals their initializers read (`constexpr int kBlock = kTile * kWarps;`).
        let mut todo: Vec<&str> = used.iter().copied().collect();
        while let Some(id) = todo.pop() {
            let Some(v) = self.model.globals.get(id).and_then(|g| g.value.as_ref()) else { continue };
            for n in v.walk() {
                if let NodeKind::DeclRef { decl_id, decl_kind, .. } = &n.kind {
                    if decl_kind == "VarDecl"
                        && self.model.globals.contains_key(decl_id)
                        && used.insert(decl_id)
                    {
                        todo.push(decl_id);
                    }
                }
            }
        }
        for id in used {
            let Some(g) = self.model.globals.get(id) else { continue };
            // A scalar constant is its value (lowered where it is read).
            if let (Some(v), None) = (&g.value, array_type(&self.resolve(&g.ty))) {
                if self.scalar_of(&g.ty).is_some() && !touches_memory(v) {
                    self.bindings.insert(id.to_string(), Binding::Const(v.clone()));
                    continue;
                }
            }
            let space = if g.shared { Space::Shared } else { Space::Global };
            let ty = self.resolve(&g.ty);
            let (elem, dims) = match array_type(&ty) {
                Some((elem, dims)) => (elem, Some(dims)),
                None => (ty.clone(), None),
            };
            let Some(elem) = self.elem_of(&elem) else { continue };
            let kpl = self.declare(&g.name);
            if dims.is_none() {
                self.cells.insert(kpl.clone());
            }
            let binding = match (&dims, &elem) {
                (Some(d), _) => Binding::Array { kpl: kpl.clone(), elem: elem.clone(), rank: d.len() },
                (None, Elem::Scalar(t)) => Binding::Cell { kpl: kpl.clone(), ty: *t },
                (None, Elem::Record(layout)) => Binding::RecordRef(Rc::new(record::InMemory {
                    array: kpl.clone(),
                    prefix: Vec::new(),
                    base: Expr::Const(0),
                    layout: layout.clone(),
                })),
            };
            let name = g.name.clone();
            self.declare_array(&kpl, &name, space, &dims.unwrap_or(vec![Some(1)]), &elem, at);
            self.bindings.insert(id.to_string(), binding);
        }
    }

    /// What a name, or a member of a record held in locals (`v.x`, `g.adj`), is bound to.
    fn binding(&self, n: &Node) -> Option<Binding> {
        self.binding_of(n).map(|b| self.split_view(b))
    }

    fn binding_of(&self, n: &Node) -> Option<Binding> {
        let b = match &n.kind {
            NodeKind::DeclRef { decl_id, .. } => self.bindings.get(decl_id).cloned(),
            // `p->x` too where `p` stands for a struct in locals (`f(&s)` inlined), and
            // `(*p).x`, the same member.
            NodeKind::Member { name, .. } => {
                let mut base = strip(n.children.first()?);
                if let (NodeKind::Unary { op, .. }, Some(p)) = (&base.kind, base.children.first()) {
                    if op == "*" && matches!(self.binding(strip(p)), Some(Binding::Record(_))) {
                        base = strip(p);
                    }
                }
                match self.binding_of(base)? {
                    Binding::Record(l) => l.member(name),
                    _ => None,
                }
            }
            // `this` inside an inlined method: the object's place.
            NodeKind::Other { kind } if kind == "CXXThisExpr" => self.this.last().cloned(),
            // `*pp` of a pointer to a pointer variable: the variable.
            NodeKind::Unary { op, .. } if op == "*" => match self.binding_of(strip(n.children.first()?))? {
                Binding::PtrOf(b) => Some(*b),
                _ => None,
            },
            // `d.data` of a member of `d`'s base class: clang converts `d` to the base first.
            NodeKind::ImplicitCast { cast }
                if matches!(cast.as_str(), "DerivedToBase" | "UncheckedDerivedToBase") =>
            {
                let Binding::Record(l) = self.binding_of(strip(n.children.first()?))? else { return None };
                let target = n.ty.as_deref()?;
                let layout = self.layout_of(target)?;
                let start = self.base_start(&l.layout.name, target, 0)?;
                let fields = l.fields.get(start..start + layout.fields.len())?.to_vec();
                Some(Binding::Record(Rc::new(record::Locals { layout, fields })))
            }
            _ => None,
        };
        b.map(|b| self.resolved(b))
    }

    /// A struct's pointer member as a pointer into its array, once an assignment gave it one.
    fn resolved(&self, b: Binding) -> Binding {
        match b {
            Binding::MemberPtr { offset, elem } => match self.member_arrays.get(&offset) {
                Some(array) => Binding::Ptr { array: array.clone(), elem, offset },
                None => Binding::MemberPtr { offset, elem },
            },
            b => b,
        }
    }

    /// The pointer member whose offset is `offset` (of `elem`s) given a pointer into `array`
    /// (of `to`s): its array from now on if it had none; a pointer into another array, or to
    /// another type, is refused (a pointer is always into one array).
    fn fix_member_array(&mut self, offset: &str, elem: &Elem, array: String, to: &Elem, n: &Node) -> R<()> {
        if to != elem {
            return Err(self.unsupported("a struct's pointer member given a pointer to another type", n));
        }
        match self.member_arrays.get(offset) {
            Some(a) if *a != array => Err(self.unsupported(
                "a struct's pointer member re-pointed to another array (a pointer is into one array)",
                n,
            )),
            Some(_) => Ok(()),
            None => {
                self.member_arrays.insert(offset.to_string(), array);
                Ok(())
            }
        }
    }

    /// The flags statement `s` may set, whose guard skips the rest of a statement list. Only
    /// those: an `if (!flag)` around code whose flag cannot be set hides a loop's counter from
    /// the verifier's closed forms for nothing.
    fn flags_set_by(&self, s: &Node) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        if has_return(s) {
            v.extend(self.ret.iter().cloned());
        }
        if let Some(l) = self.loops.last() {
            if jumps(s, &NodeKind::Break) {
                v.extend(l.brk.iter().cloned());
            }
            if jumps(s, &NodeKind::Continue) {
                v.extend(l.cont.iter().cloned());
            }
        }
        v.extend(self.goto_flags_set_by(s));
        v
    }

    fn none_set(flags: &[String]) -> Expr {
        let mut it = flags.iter();
        let first = it.next().map_or(Expr::Const(0), |f| Expr::var(f));
        not(it.fold(first, |acc, f| Expr::bin(BinOp::Or, acc, Expr::var(f))))
    }

    /// A statement list: after a statement that may jump, the rest runs under `if (!flags)`.
    fn seq(&mut self, stmts: &[&Node]) -> R<()> {
        if let Some(r) = self.goto_seq(stmts) {
            return r;
        }
        for (i, s) in stmts.iter().enumerate() {
            self.stmt(s, Ctx::Normal)?;
            let rest = &stmts[i + 1..];
            let flags = self.flags_set_by(s);
            if !flags.is_empty() && !rest.is_empty() {
                let cond = Self::none_set(&flags);
                let label = self.label();
                let span = self.cur_span;
                let block = self.open_block(label, None, |lx| lx.seq(rest))?;
                self.out.push(Stmt { label, kind: StmtKind::If { cond, then: block, els: None }, span });
                self.flag_guards.insert(label);
                return Ok(());
            }
        }
        Ok(())
    }

    /// The command line's `--assume` expressions (each a function over `kernel`'s parameters,
    /// see [`assumption_decls`]) as `assume` statements at the kernel's start, with the
    /// meaning of `__requires`. An expression that reads memory is refused: it would hold at
    /// the start only, and GPUVerify's preconditions are over parameters.
    fn cli_assumptions(&mut self, kernel: &Function, assumptions: &[(&Function, &str)], at: Span) -> R<()> {
        for (function, shown) in assumptions {
            let wrap = |d: Diagnostic| {
                Diagnostic::error(format!("in `--assume '{shown}'`: {}", d.message), at)
                    .with_note("the expression is read in the scope of the kernel's parameters")
            };
            for (p, kp) in function.params.iter().zip(&kernel.params) {
                if let Some(b) = self.bindings.get(&kp.id).cloned() {
                    self.bindings.insert(p.id.clone(), b);
                }
            }
            let expr = function
                .body
                .as_ref()
                .and_then(|b| b.children.iter().find(|c| matches!(c.kind, NodeKind::Return)))
                .and_then(|r| r.children.first())
                .ok_or_else(|| wrap(Diagnostic::error("not an expression", at)))?;
            let (stmts, cond) = self.nested(|s| s.condition(expr)).map_err(wrap)?;
            if stmts.iter().any(|s| !matches!(s.kind, StmtKind::Local { .. } | StmtKind::Assign { .. })) {
                return Err(wrap(Diagnostic::error("an assumption may not read memory", at)));
            }
            let before = self.out.len();
            self.out.extend(stmts);
            self.emit(StmtKind::Assume { cond });
            for s in &mut self.out[before..] {
                s.span = at;
                self.places[s.label.0 as usize] = Place::Not("an assumption from the command line".into());
            }
        }
        Ok(())
    }

    /// Runs `f` into a fresh statement list.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(Vec<Stmt>, T)> {
        let saved = std::mem::take(&mut self.out);
        let r = f(self);
        let stmts = std::mem::replace(&mut self.out, saved);
        r.map(|t| (stmts, t))
    }

    /// The KPL block labelled `label` (its `if`/`while` statement's label, allocated by the
    /// caller before anything inside): its start node next, after the `{` of `source` when
    /// given, then what `f` emits. Labels stay in program order.
    fn open_block(
        &mut self,
        label: Label,
        source: Option<&Node>,
        f: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<Block> {
        let start = self.label();
        if let Some(p) = source.and_then(|s| self.start_place(s)) {
            self.places[start.0 as usize] = p;
        }
        let span = source.and_then(|s| self.span_of(s)).unwrap_or(self.cur_span);
        let (stmts, _) = self.nested(f)?;
        Ok(Block { label, start, stmts, span })
    }

    /// The statements of a compound statement's body (`{ … }` or a single statement).
    fn body_stmts(&mut self, n: &Node, parent: &Node) -> R<()> {
        match n.kind {
            NodeKind::Compound => {
                let children: Vec<&Node> = n.children.iter().collect();
                self.seq(&children)
            }
            _ => {
                let parent_start = self.span_of(parent).map_or(0, |s| s.start);
                self.stmt(n, Ctx::Body { parent_start })
            }
        }
    }

    /// A compound statement's body as the block labelled `label`.
    fn body(&mut self, n: &Node, parent: &Node, label: Label) -> R<Block> {
        let source = (n.kind == NodeKind::Compound).then_some(n);
        self.open_block(label, source, |lx| lx.body_stmts(n, parent))
    }

    /// Lowers a source statement; the last KPL statement it emits takes the place after it.
    fn stmt(&mut self, n: &Node, ctx: Ctx) -> R<()> {
        // A label's statement is where the text is: the place after it is indented like it.
        if let (NodeKind::Label { .. }, Some(c)) = (&n.kind, n.children.first()) {
            return self.stmt(c, ctx);
        }
        self.at(n);
        let before = self.out.len();
        self.stmt_kind(n)?;
        if self.out.len() > before {
            let place = match &n.kind {
                // The flag a jump sets runs in KPL, but in C nothing after the jump does.
                NodeKind::Return | NodeKind::Break | NodeKind::Continue | NodeKind::Goto { .. } => {
                    Place::Not(
                        "after a jump (`return`, `break`, `continue`, `goto`): a barrier there never runs"
                            .into(),
                    )
                }
                _ => self.place_after(n, ctx),
            };
            // A braceless body split keeps its statements together in braces of its own: `{` on
            // the header's line when the body is there, else on the body's line, one level in.
            if let Place::Braced { indent, outer_indent, body_start, .. } = &place {
                let start_at = (*body_start).min(self.src.len());
                let header_end = self.src[..start_at].trim_end().len();
                let same_line = !self.src[header_end..start_at].contains('\n');
                let (inner, close) = if same_line {
                    (indent.clone(), outer_indent.clone())
                } else {
                    let unit = indent
                        .strip_prefix(outer_indent.as_str())
                        .filter(|u| !u.is_empty())
                        .unwrap_or("    ");
                    (format!("{indent}{unit}"), indent.clone())
                };
                for s in &self.out[before..] {
                    if let Place::Split { start, indent: i, braces: b @ None, .. } =
                        &mut self.places[s.label.0 as usize]
                    {
                        if start == body_start {
                            *i = inner.clone();
                            *b = Some(close.clone());
                        }
                    }
                }
            }
            if let Some(last) = self.out.last() {
                let l = last.label.0 as usize;
                // After an `if` with an `else` is after its else block (in KPL's label order
                // the `if`'s own label ends the then block, where no source line is).
                match &last.kind {
                    StmtKind::If { els: Some(e), .. } => {
                        let e = e.label.0 as usize;
                        self.places[l] = Place::Not("between a then block and its else".into());
                        self.places[e] = place;
                    }
                    _ => self.places[l] = place,
                }
            }
        }
        Ok(())
    }

    fn stmt_kind(&mut self, n: &Node) -> R<()> {
        match &n.kind {
            NodeKind::Compound => {
                let (stmts, _) = self.nested(|lx| {
                    let children: Vec<&Node> = n.children.iter().collect();
                    lx.seq(&children)
                })?;
                // A nested block is its statements, in place.
                self.out.extend(stmts);
                Ok(())
            }
            NodeKind::Empty => Ok(()),
            NodeKind::Other { kind } if kind == "NullStmt" => Ok(()),
            NodeKind::Other { kind } if kind == "GCCAsmStmt" => self.inline_asm(n),
            // `#pragma unroll` and `[[likely]]`: the statement without its attributes.
            NodeKind::Other { kind } if kind == "AttributedStmt" => match n.children.last() {
                Some(s) => self.stmt_kind(s),
                None => Ok(()),
            },
            NodeKind::DeclStmt => {
                for v in &n.children {
                    // `namespace cg = cooperative_groups;`, `using namespace …;`, `using
                    // std::min;`, local type names: names clang has resolved already (a
                    // variable's type is read desugared); `static_assert`: clang checked it
                    // for the instance (a failed one is clang's error), it runs nothing.
                    if matches!(&v.kind, NodeKind::TypeName { .. })
                        || matches!(&v.kind, NodeKind::Other { kind } if matches!(kind.as_str(), "NamespaceAliasDecl" | "UsingDirectiveDecl" | "UsingDecl" | "StaticAssertDecl"))
                    {
                        continue;
                    }
                    self.declaration(v)?;
                }
                Ok(())
            }
            NodeKind::If { has_else, is_constexpr: _ } => {
                if let Some(r) = self.split_guarded(n) {
                    return r;
                }
                let cond =
                    n.children.first().ok_or_else(|| self.unsupported("`if` without a condition", n))?;
                let before = self.out.len();
                let c = self.condition(cond)?;
                let then = n.children.get(1).ok_or_else(|| self.unsupported("`if` without a body", n))?;
                // A condition of constants (a template instance's `if (blockSize >= 512)`): the
                // branch nvcc compiles, alone; its statements are no conditional for the cost
                // model. The other branch never runs, in any thread.
                if let (Some(v), true) = (c.constant_value(), self.out.len() == before) {
                    let taken = if v != 0 { Some(then) } else { n.children.get(2).filter(|_| *has_else) };
                    if let Some(b) = taken {
                        self.body_stmts(b, n)?;
                    }
                    return Ok(());
                }
                let span = self.cur_span;
                let label = self.label();
                let then = self.body(then, n, label)?;
                let els = match (has_else, n.children.get(2)) {
                    (true, Some(e)) => {
                        let el = self.label();
                        Some(self.body(e, n, el)?)
                    }
                    _ => None,
                };
                self.out.push(Stmt { label, kind: StmtKind::If { cond: c, then, els }, span });
                Ok(())
            }
            NodeKind::For => self.for_loop(n),
            NodeKind::Other { kind } if kind == "CXXForRangeStmt" => self.range_for(n),
            NodeKind::While => {
                let (cond, body) = match n.children.as_slice() {
                    [c, b] => (c, b),
                    _ => return Err(self.unsupported("a `while` with a declaration in its condition", n)),
                };
                self.emit_loop(n, LoopParts { cond: Some(cond), ..LoopParts::new(body) })
            }
            NodeKind::Do => {
                let (body, cond) = match n.children.as_slice() {
                    [b, c] => (b, c),
                    _ => return Err(self.unsupported("this `do` statement", n)),
                };
                self.emit_loop(n, LoopParts { cond: Some(cond), body_first: true, ..LoopParts::new(body) })
            }
            NodeKind::Return => {
                if let Some(v) = n.children.first() {
                    self.assign_result(v, n)?;
                }
                match self.ret.clone() {
                    Some(f) => {
                        self.emit(StmtKind::Assign { name: f, value: Expr::Const(1) });
                        Ok(())
                    }
                    None => Err(self.unsupported("this `return`", n)),
                }
            }
            NodeKind::Break => match self.loops.last().and_then(|l| l.brk.clone()) {
                Some(f) => {
                    self.emit(StmtKind::Assign { name: f, value: Expr::Const(1) });
                    Ok(())
                }
                None => Err(self.unsupported("`break` outside a loop", n)),
            },
            NodeKind::Continue => match self.loops.last().and_then(|l| l.cont.clone()) {
                Some(f) => {
                    self.emit(StmtKind::Assign { name: f, value: Expr::Const(1) });
                    Ok(())
                }
                None => Err(self.unsupported("`continue` outside a loop", n)),
            },
            NodeKind::Label { .. } => match n.children.first() {
                Some(c) => self.stmt_kind(c),
                None => Ok(()),
            },
            NodeKind::Goto { target } => self.goto_stmt(n, target),
            NodeKind::Switch => self.switch(n),
            NodeKind::Case | NodeKind::Default => Err(self.unsupported("`case` label", n)),
            _ => match self.split_statement(n) {
                Some(r) => r,
                None => self.effect(n),
            },
        }
    }

    fn declaration(&mut self, v: &Node) -> R<()> {
        let NodeKind::Var {
            name, id, is_shared, is_constant, storage_class, is_constexpr, desugared, ..
        } = &v.kind
        else {
            return Err(self.unsupported("this declaration", v));
        };
        if let Some(r) = self.group_declaration(v) {
            return r;
        }
        if let Some(r) = self.lambda_local(v) {
            return r;
        }
        let mut ty = self.resolve(v.ty.as_deref().unwrap_or_default());
        let known = self.elem_of(&ty).is_some()
            || array_type(&ty).is_some_and(|(e, _)| self.elem_of(&e).is_some())
            || pointee(&ty).is_some_and(|e| self.elem_of(e).is_some());
        if !known {
            // A name only clang knows (a local `typedef`, a member type of a template).
            if let Some(d) = desugared {
                ty = self.resolve(d);
            } else if let Some(t) = self.resolve_local_type_names(&ty) {
                ty = self.resolve(&t);
            }
        }
        if let Some(r) = self.ref_local(v, &ty) {
            return r;
        }
        if let Some(r) = self.fn_pointer_local(v, &ty) {
            return r;
        }
        let constant = *is_constexpr || ty.trim_start().starts_with("const ");
        if storage_class.as_deref() == Some("static") && !is_shared && !constant {
            // One variable for every thread of the grid, not a local.
            return Err(self.unsupported("a `static` local variable", v));
        }
        if *is_constant {
            return Err(self.unsupported("`__constant__` variable", v));
        }
        // A shared record's implicit default construction initializes nothing.
        let initialized = v.children.iter().any(|c| !is_default_construction(c));
        if let Some((elem, dims)) = array_type(&ty) {
            if !is_shared {
                if let Some(r) = self.pointer_array_local(v, (name, id), &elem, &dims) {
                    return r;
                }
            }
            let Some(elem) = self.elem_of(&elem) else {
                return Err(self.unsupported(format!("array of `{elem}`"), v));
            };
            if !is_shared {
                return self.private_array(v, (name, id), elem, &dims);
            }
            if initialized {
                return Err(self.unsupported("an initialized `__shared__` array", v));
            }
            if storage_class.as_deref() == Some("extern") {
                let bytes = array_type(&ty).and_then(|(e, _)| self.word_bytes(&e));
                if let Some((kpl, size)) = self.dynamic_shared.clone() {
                    // Another name for the same memory: a view whose words are a whole number
                    // of the first one's elements (`wide.rs`).
                    let view = match (size, bytes) {
                        (Some(first), Some(this)) if this.is_multiple_of(first) => self.wide_view(&kpl, this / first),
                        _ => {
                            return Err(self.unsupported(
                                "a second `extern __shared__` array whose elements are narrower than the first one's",
                                v,
                            ))
                        }
                    };
                    self.bindings.insert(id.clone(), Binding::Array { kpl: view, elem, rank: dims.len() });
                    return Ok(());
                }
                let kpl = self.declare(name);
                // The unit of its elements: a narrower view may split them (`wide.rs`).
                let parts = self.split.get(&kpl).copied().unwrap_or(1);
                self.dynamic_shared = Some((kpl.clone(), bytes.map(|b| b / parts)));
                let span = self.span_of(v).unwrap_or(self.cur_span);
                self.declare_array(&kpl, name, Space::Shared, &dims, &elem, span);
                self.bindings.insert(id.clone(), Binding::Array { kpl, elem, rank: dims.len() });
                return Ok(());
            }
            if let Some(b) = self.group_member(id, name, &elem, false) {
                self.bindings.insert(id.clone(), b);
                return Ok(());
            }
            let kpl = self.declare(name);
            let span = self.span_of(v).unwrap_or(self.cur_span);
            self.declare_array(&kpl, name, Space::Shared, &dims, &elem, span);
            self.bindings.insert(id.clone(), Binding::Array { kpl, elem, rank: dims.len() });
            return Ok(());
        }
        if *is_shared && self.barrier_object_decl((id, name), &ty).is_some() {
            return Ok(());
        }
        if let Some(r) = self.arrival_token_decl(v, (id, name), &ty) {
            return r;
        }
        if let Some(r) = self.pipeline_decl(v, id, &ty) {
            return r;
        }
        if let Some(what) = barrier_object::unmodelled_sync_type(&ty) {
            return Err(self.unsupported(what, v));
        }
        if *is_shared {
            if initialized && pointee(&ty).is_some() {
                return Err(self.unsupported("an initialized `__shared__` variable", v));
            }
            if let Some(r) = self.shared_pointer_local(v, (name, id), &ty) {
                return r;
            }
            // One element of shared memory: `s` is `s[0]`.
            let Some(elem) = self.elem_of(&ty) else {
                return Err(self.unsupported(format!("a `__shared__` variable of type `{ty}`"), v));
            };
            if initialized {
                return Err(self.unsupported("an initialized `__shared__` variable", v));
            }
            let kpl = self.declare(name);
            let span = self.span_of(v).unwrap_or(self.cur_span);
            self.declare_array(&kpl, name, Space::Shared, &[Some(1)], &elem, span);
            self.cells.insert(kpl.clone());
            let binding = match elem {
                Elem::Scalar(t) => Binding::Cell { kpl, ty: t },
                Elem::Record(layout) => Binding::RecordRef(Rc::new(record::InMemory {
                    array: kpl,
                    prefix: Vec::new(),
                    base: Expr::Const(0),
                    layout,
                })),
            };
            self.bindings.insert(id.clone(), binding);
            return Ok(());
        }
        if self.fragment_local(id, &ty).is_some() {
            return Ok(());
        }
        // `unsigned a = __cvta_generic_to_shared(p);` never reassigned: a shared address. (The
        // body is walked for assignments only for such an initializer.)
        if let Some(init) = v.children.first().filter(|i| async_copy::to_shared_argument(i).is_some()) {
            if self.bodies.last().is_some_and(|b| !assigns(b, id)) {
                let address = self.shared_address_local(name, init)?;
                self.shared_addresses.insert(id.clone(), address);
                return Ok(());
            }
        }
        // `float **pp = &p;` never re-pointed: `*pp` is the pointer variable `p`.
        if pointer_to_pointer(&ty) {
            let body = self.bodies.last().copied();
            let init = v.children.first();
            if let (Some(init), true) = (init, body.is_some_and(|b| !assigns(b, id))) {
                if let Some(b @ Binding::PtrOf(_)) = self.address_arg(init) {
                    self.bindings.insert(id.clone(), b);
                    return Ok(());
                }
            }
            return Err(self.unsupported(
                "a pointer to a pointer other than `&p` of a pointer variable, never re-pointed",
                v,
            ));
        }
        if pointee(&ty).is_some() {
            // A pointer local: the array it points into never changes; its element is a local.
            let Some(init) = v.children.first() else {
                // `float *p; if (c) p = a; else p = b;`: a pointer of a group, set later.
                let Some((array, elem)) = self.ptr_groups.variable(id) else {
                    return Err(self.unsupported("a pointer declared without a value", v));
                };
                let offset = self.fresh(&format!("{name}_at"));
                self.emit(StmtKind::Local { name: offset.clone(), init: None });
                self.bindings.insert(id.clone(), Binding::Ptr { array, elem, offset });
                return Ok(());
            };
            let body = self.bodies.last().copied();
            // `int *p = &best;` never re-pointed: `*p` and `p[0]` are the variable.
            if body.is_some_and(|b| !assigns(b, id)) {
                if let Some(b @ Binding::VarPtr { .. }) = self.address_arg(init) {
                    self.bindings.insert(id.clone(), b);
                    return Ok(());
                }
                // `Pair *pp = &q;` of a struct in locals: `pp->a` is `q.a`.
                if let Some(l) = self.address_of_local_record(init) {
                    self.bindings.insert(id.clone(), Binding::Record(l));
                    return Ok(());
                }
            }
            let (array, elem, off) = self.pointer(init)?;
            let fixed = body.is_some_and(|b| !assigns(b, id) && self.stable(init, b));
            if fixed {
                self.bindings.insert(id.clone(), Binding::Alias { array, elem, at: off });
                return Ok(());
            }
            let offset = self.fresh(&format!("{name}_at"));
            self.emit(StmtKind::Local { name: offset.clone(), init: Some(off) });
            self.bindings.insert(id.clone(), Binding::Ptr { array, elem, offset });
            return Ok(());
        }
        if let Some(layout) = self.layout_of(&ty) {
            return self.record_local(v, name, id, layout);
        }
        let Some(t) = self.scalar_of(&ty) else {
            if self.is_union(&ty) {
                return Err(self.unsupported(
                    format!("the union `{ty}` (only unions whose members' words all have one size)"),
                    v,
                ));
            }
            return Err(self.unsupported(format!("a local of type `{ty}`"), v));
        };
        if let (true, Some(init)) = (*is_constexpr, v.children.first()) {
            // `constexpr int ITEMS = 4;` never changes: its value where it is read, like a
            // constant of the file.
            if !self.reads_memory(init) {
                self.bindings.insert(id.clone(), Binding::Const(init.clone()));
                return Ok(());
            }
        }
        let init = match v.children.first() {
            Some(e) => Some(self.rvalue_as(e, t)?),
            None => None,
        };
        let kpl = self.declare(name);
        self.bindings.insert(id.clone(), Binding::Scalar { kpl: kpl.clone(), ty: t });
        self.emit(StmtKind::Local { name: kpl, init });
        Ok(())
    }

    /// `return v` of an inlined function: `v` into its result slot.
    fn assign_result(&mut self, v: &Node, n: &Node) -> R<()> {
        match self.result.clone() {
            Some(Slot::Scalar(r, t)) => {
                let e = self.rvalue_as(v, t)?;
                self.emit(StmtKind::Assign { name: r, value: e });
                Ok(())
            }
            Some(Slot::Record(slots)) => {
                let layout = match &slots {
                    record::Place::Locals(l) => l.layout.clone(),
                    record::Place::Memory(m) => m.layout.clone(),
                };
                let vals = self.record_values(v, &layout)?;
                self.write_record(slots, vals, n)
            }
            Some(Slot::Place(None)) => {
                let t = self.target(v)?;
                self.result = Some(Slot::Place(Some(Box::new(t))));
                Ok(())
            }
            Some(Slot::Place(Some(_))) => {
                Err(self.unsupported("a reference returned from several places", n))
            }
            Some(Slot::Pointer(offset, target)) => {
                let (array, elem, off) = self.pointer(strip(v))?;
                if let Some((a, e)) = &target {
                    if *a != array || *e != elem {
                        return Err(
                            self.unsupported("a function returning pointers into different arrays", n)
                        );
                    }
                }
                self.result = Some(Slot::Pointer(offset.clone(), Some((array, elem))));
                self.emit(StmtKind::Assign { name: offset, value: off });
                Ok(())
            }
            // The value of a call nobody reads: evaluated for its effects only.
            None if touches_memory(v) => self.effect(v),
            None => Ok(()),
        }
    }

    /// A condition as a KPL expression (reads emitted before it).
    fn condition(&mut self, n: &Node) -> R<Expr> {
        let (e, t) = self.rvalue(n)?;
        Ok(self.truth(e, t))
    }

    fn truth(&self, e: Expr, t: Ty) -> Expr {
        match t {
            Ty::Float => Expr::Call("fcmp_ne".into(), vec![e, Expr::Const(0)]),
            _ => e,
        }
    }

    fn for_loop(&mut self, n: &Node) -> R<()> {
        let [init, cond, inc, body] = n.children.as_slice() else {
            return Err(self.unsupported("this `for` statement", n));
        };
        let cond = (cond.kind != NodeKind::Empty).then_some(cond);
        let inc = (inc.kind != NodeKind::Empty).then_some(inc);
        let init = (init.kind != NodeKind::Empty).then_some(init);
        self.emit_loop(n, LoopParts { init, cond, inc, ..LoopParts::new(body) })
    }

    /// One emitter for every loop: `init; while (cond && !stop) { cont = 0; body; if (!stop)
    /// inc; }` where `stop` is the `break` and `return` flags. A condition that reads memory is
    /// evaluated into a local before the loop and again at the end of each iteration (fresh
    /// temporaries each time); a `do` loop runs its body before the first evaluation; each
    /// iteration first lowers the declarations of `prologue` (a range-based `for`'s loop
    /// variable), which have no place of their own.
    fn emit_loop(&mut self, n: &Node, parts: LoopParts) -> R<()> {
        let LoopParts { init, cond, inc, prologue, body, body_first } = parts;
        if let Some(i) = init {
            match i.kind {
                NodeKind::DeclStmt => {
                    for v in &i.children {
                        self.declaration(v)?;
                    }
                }
                _ => self.effect(i)?,
            }
        }
        let brk = jumps(body, &NodeKind::Break).then(|| self.flag("brk"));
        let cont = jumps(body, &NodeKind::Continue).then(|| self.flag("cont"));
        let reads = cond.is_some_and(|c| self.reads_memory(c));
        // The loop's condition as KPL reads it: the expression, or a local it is kept in.
        let (head, kept) = match cond {
            None => (Expr::Const(1), None),
            Some(_) if body_first => {
                let g = self.fresh("go");
                self.emit(StmtKind::Local { name: g.clone(), init: Some(Expr::Const(1)) });
                (Expr::var(&g), Some(g))
            }
            Some(c) if reads => {
                self.at(c);
                let e = self.condition(c)?;
                let g = self.temp(Some(e));
                (Expr::var(&g), Some(g))
            }
            Some(c) => (self.condition(c)?, None),
        };
        let mut stop: Vec<String> = Vec::new();
        stop.extend(brk.iter().cloned());
        if has_return(body) {
            stop.extend(self.ret.iter().cloned());
        }
        stop.extend(self.goto_flags_set_by(body));
        let loop_cond =
            if stop.is_empty() { head } else { Expr::bin(BinOp::And, head, Self::none_set(&stop)) };
        let span = self.cur_span;
        let label = self.label();
        self.loops.push(LoopFlags { brk: brk.clone(), cont: cont.clone() });
        let source = (body.kind == NodeKind::Compound).then_some(body);
        let lowered = self.open_block(label, source, |lx| {
            if let Some(c) = &cont {
                lx.emit(StmtKind::Assign { name: c.clone(), value: Expr::Const(0) });
            }
            if let Some(h) = prologue {
                lx.at(h);
                for v in &h.children {
                    lx.declaration(v)?;
                }
            }
            lx.body_stmts(body, n)?;
            // The tail, skipped after `break`/`return`: the increment and the condition again.
            let tail = |lx: &mut Self| -> R<()> {
                if let Some(i) = inc {
                    lx.at(i);
                    lx.effect(i)?;
                }
                if let (Some(c), Some(g)) = (cond, &kept) {
                    // The condition's statements are the condition's, wherever they run.
                    lx.at(c);
                    let e = lx.condition(c)?;
                    lx.emit(StmtKind::Assign { name: g.clone(), value: e });
                }
                Ok(())
            };
            if inc.is_none() && kept.is_none() {
                return Ok(());
            }
            if stop.is_empty() {
                return tail(lx);
            }
            let guard = lx.label();
            let gspan = lx.cur_span;
            let block = lx.open_block(guard, None, tail)?;
            lx.out.push(Stmt {
                label: guard,
                kind: StmtKind::If { cond: Self::none_set(&stop), then: block, els: None },
                span: gspan,
            });
            lx.flag_guards.insert(guard);
            Ok(())
        });
        self.loops.pop();
        let body_block = lowered?;
        // A body whose last statement is a `break` of this loop, with no `continue` of it,
        // leaves in its first iteration on every path that completes it (a `return` or `goto`
        // out stops the loop too): the loop runs its body at most once, which is an `if`. As a
        // loop the verifier would also weigh iterations that never happen (a race between the
        // body's end and a second start).
        let once = cont.is_none()
            && body.kind == NodeKind::Compound
            && body.children.last().is_some_and(|c| c.kind == NodeKind::Break);
        let kind = if once {
            StmtKind::If { cond: loop_cond, then: body_block, els: None }
        } else {
            StmtKind::While { cond: loop_cond, body: body_block }
        };
        self.out.push(Stmt { label, kind, span });
        Ok(())
    }

    /// An expression evaluated for its effects.
    fn effect(&mut self, n: &Node) -> R<()> {
        let n = strip_discard(n);
        match &n.kind {
            NodeKind::Binary { op }
                if op == "="
                    && matches!(
                        self.binding(strip(&n.children[0])),
                        Some(Binding::Ptr { .. } | Binding::MemberPtr { .. })
                    ) =>
            {
                let (lhs, rhs) = self.two(n)?;
                let (to, to_elem, off) = self.pointer(rhs)?;
                let (offset, elem, array) = match self.binding(strip(lhs)) {
                    Some(Binding::Ptr { array, elem, offset }) => (offset, elem, Some(array)),
                    Some(Binding::MemberPtr { offset, elem }) => (offset, elem, None),
                    _ => return Err(self.unsupported("this pointer assignment", n)),
                };
                match array {
                    // A struct's pointer member: its array is fixed at its first assignment.
                    _ if array.is_none() || self.member_arrays.contains_key(&offset) => {
                        self.fix_member_array(&offset, &elem, to, &to_elem, n)?
                    }
                    Some(a) if a != to => {
                        return Err(self.unsupported("a pointer re-pointed to another array", n))
                    }
                    _ => {}
                }
                self.emit(StmtKind::Assign { name: offset, value: off });
                Ok(())
            }
            // A fragment's element: a register whose value nothing reads back.
            NodeKind::Binary { .. } | NodeKind::CompoundAssign { .. }
                if n.children.first().is_some_and(|l| self.is_fragment_part(l)) =>
            {
                let (_, rhs) = self.two(n)?;
                self.rvalue(rhs).map(|_| ())
            }
            NodeKind::Binary { op } if op == "=" => {
                let (lhs, rhs) = self.two(n)?;
                if let Some(r) = self.pointer_array_store(lhs, rhs, n) {
                    return r;
                }
                if let Some(r) = self.store_pointer(lhs, rhs, n) {
                    return r;
                }
                let (v, vt) = self.rvalue(rhs)?;
                let target = self.target(lhs)?;
                self.store(target, v, vt);
                Ok(())
            }
            NodeKind::Binary { op } if op == "," => {
                let (a, b) = self.two(n)?;
                self.effect(a)?;
                self.effect(b)
            }
            NodeKind::CompoundAssign { op } => {
                let (lhs, rhs) = self.two(n)?;
                let op = op.trim_end_matches('=').to_string();
                let (v, vt) = self.rvalue(rhs)?;
                // As in a binary operator: `j += dx` of an `int dx` adds a signed number.
                let vt = self.unconverted_ty(rhs, vt);
                let target = self.target(lhs)?;
                self.update(target, &op, v, vt, n)
            }
            NodeKind::Unary { op, .. } if op == "++" || op == "--" => {
                let x = n.children.first().ok_or_else(|| self.unsupported("`++` without an operand", n))?;
                let target = self.target(x)?;
                let op = if op == "++" { "+" } else { "-" };
                self.update(target, op, Expr::Const(1), Ty::Int, n)
            }
            NodeKind::Call { callee: Some(name) } => self.call(n, name, false).map(|_| ()),
            NodeKind::Other { kind } if kind == "ExprWithCleanups" => self.effect(self.only_child(n)?),
            // `c ? f() : (void)0` (the `assert` macro): one branch's effects.
            NodeKind::Conditional if n.children.len() == 3 && n.ty.as_deref() == Some("void") => {
                let c = self.condition(&n.children[0])?;
                let span = self.cur_span;
                let label = self.label();
                let then = self.open_block(label, None, |lx| lx.effect(&n.children[1]))?;
                let el = self.label();
                let els = self.open_block(el, None, |lx| lx.effect(&n.children[2]))?;
                self.out.push(Stmt { label, kind: StmtKind::If { cond: c, then, els: Some(els) }, span });
                Ok(())
            }
            // `a = b` on structs and vectors: clang's implicit `operator=`.
            NodeKind::OperatorCall { operator: Some(op) } if op == "operator=" && n.children.len() == 3 => {
                let (lhs, rhs) = (&n.children[1], &n.children[2]);
                if self.layout_of(&self.resolve(lhs.ty.as_deref().unwrap_or_default())).is_some() {
                    return self.assign_record(lhs, rhs, n);
                }
                self.operator_call(n, op).map(|_| ())
            }
            NodeKind::OperatorCall { operator: Some(op) } => self.operator_call(n, op).map(|_| ()),
            // `(*op)(a, b)`: a call through a function pointer.
            NodeKind::Call { callee: None } => match self.fn_pointer_call(n, false) {
                Some(r) => r.map(|_| ()),
                None => Err(self.unsupported("a call of this callee", n)),
            },
            NodeKind::MemberCall { .. } => self.method_call(n, false).map(|_| ()),
            _ => {
                // Evaluated for its reads; the value is dropped.
                self.rvalue(n).map(|_| ())
            }
        }
    }

    fn two<'n>(&self, n: &'n Node) -> R<(&'n Node, &'n Node)> {
        match n.children.as_slice() {
            [a, b] => Ok((a, b)),
            _ => Err(self.unsupported("an operator without two operands", n)),
        }
    }

    fn store(&mut self, target: Target, v: Expr, vt: Ty) {
        match target {
            Target::Var { kpl, ty } => {
                let value = convert(v, vt, ty);
                self.emit(StmtKind::Assign { name: kpl, value });
            }
            Target::Offset { kpl, words } => {
                let value = record::scaled(convert(v, vt, Ty::Int), words);
                self.emit(StmtKind::Assign { name: kpl, value });
            }
            Target::Elem { array, index, ty } => {
                let value = convert(v, vt, ty);
                self.emit(StmtKind::Write { array, index, value, width: Width::ONE, mode: WriteMode::Plain });
            }
        }
    }

    /// `target op= v`.
    fn update(&mut self, target: Target, op: &str, v: Expr, vt: Ty, n: &Node) -> R<()> {
        // C computes on the target's value: a narrow integer type's, where the word's high bits
        // would change the result (`c /= 2` of an `unsigned char` holding 300 as a word).
        let narrow = match (&n.kind, n.children.first()) {
            (NodeKind::CompoundAssign { .. }, Some(lhs)) if matches!(op, "/" | "%" | ">>") => {
                lhs.ty.as_deref().and_then(|t| narrow_int(&self.resolve(t)))
            }
            _ => None,
        };
        let value_of = |e: Expr| match narrow {
            Some(w) => narrow_value(e, w),
            None => e,
        };
        match target {
            Target::Var { kpl, ty } => {
                let (value, t) = self.binary(op, (value_of(Expr::var(&kpl)), ty), (v, vt), n)?;
                self.emit(StmtKind::Assign { name: kpl, value: convert(value, t, ty) });
            }
            Target::Offset { kpl, words } => {
                if op != "+" && op != "-" {
                    return Err(self.unsupported(format!("`{op}` on a pointer"), n));
                }
                let step = record::scaled(convert(v, vt, Ty::Int), words);
                let (value, _) = self.binary(op, (Expr::var(&kpl), Ty::Int), (step, Ty::Int), n)?;
                self.emit(StmtKind::Assign { name: kpl, value });
            }
            Target::Elem { array, index, ty } => {
                let old = self.temp(None);
                self.emit(StmtKind::Read {
                    dst: old.clone(),
                    array: array.clone(),
                    index: index.clone(),
                    width: Width::ONE,
                });
                let (value, t) = self.binary(op, (value_of(Expr::var(&old)), ty), (v, vt), n)?;
                self.emit(StmtKind::Write {
                    array,
                    index,
                    value: convert(value, t, ty),
                    width: Width::ONE,
                    mode: WriteMode::Plain,
                });
            }
        }
        Ok(())
    }

    /// What an assignment writes: a local or an element.
    fn target(&mut self, n: &Node) -> R<Target> {
        let s = strip(n);
        if let Some(b) = self.binding(s) {
            return match b {
                Binding::Scalar { kpl, ty } => Ok(Target::Var { kpl, ty }),
                Binding::Cell { kpl, ty } => Ok(Target::Elem { array: kpl, index: vec![Expr::Const(0)], ty }),
                Binding::Ptr { offset, elem, array } => {
                    Ok(Target::Offset { kpl: offset, words: self.elem_units(&array, &elem) })
                }
                Binding::Alias { .. } => Err(self.unsupported("assigning this pointer", n)),
                Binding::Const(_) => Err(self.unsupported("assigning a constant", n)),
                Binding::Array { .. } => Err(self.unsupported("assigning a whole array", n)),
                Binding::Record(_) | Binding::RecordRef(_) => {
                    Err(self.unsupported("assigning a whole struct this way", n))
                }
                Binding::Ref { .. } => {
                    let (array, index, ty) = self.element(s)?;
                    Ok(Target::Elem { array, index, ty })
                }
                Binding::VarPtr { .. } => Err(self.unsupported("assigning this pointer", n)),
                Binding::PtrArray { .. } => Err(self.unsupported("assigning a whole array of pointers", n)),
                Binding::SharedPtr { .. } => {
                    Err(self.unsupported("moving a `__shared__` pointer this way", n))
                }
                Binding::PtrOf(_) => Err(self.unsupported("assigning a pointer to a pointer", n)),
                Binding::MemberPtr { .. } => Err(self.unsupported(
                    "moving a struct's pointer member before it is given a pointer (its array is not known)",
                    n,
                )),
            };
        }
        if let Some((kpl, ty)) = self.var_through(s)? {
            return Ok(Target::Var { kpl, ty });
        }
        if let Some(t) = self.accessor_target(s) {
            return t;
        }
        let (array, index, ty) = self.element(s)?;
        Ok(Target::Elem { array, index, ty })
    }

    /// The place a call of a member accessor names (`y[k] = v` with `T &operator[](int i) {
    /// return payload[i]; }` of the file's struct, `v.at(i) = x`): the method's one `return`
    /// lowered as a place, `this` the object and the parameters the arguments. `None`: `n` is
    /// no call of such a method.
    fn accessor_target(&mut self, n: &Node) -> Option<R<Target>> {
        let model = self.model;
        let (f, obj, args, arrow) = match &n.kind {
            NodeKind::OperatorCall { .. } => {
                let NodeKind::DeclRef { decl_id, .. } = &strip_callee(n.children.first()?).kind else {
                    return None;
                };
                let f = model.definition(decl_id)?;
                (f.params.len() + 1 == n.children.len() - 1).then_some(())?;
                (f, n.children.get(1)?, &n.children[2..], false)
            }
            NodeKind::MemberCall { .. } => {
                let member = n.children.first()?;
                let NodeKind::Member { decl: Some(d), arrow, .. } = &member.kind else { return None };
                (model.definition(d)?, member.children.first()?, &n.children[1..], *arrow)
            }
            _ => return None,
        };
        let returns_reference = f.signature.split('(').next().is_some_and(|r| {
            let r = r.trim();
            r.ends_with('&') && !r.ends_with("&&") && !r.starts_with("const ")
        });
        let body = f.body.as_ref()?;
        let only_return = matches!(body.children.as_slice(), [r] if matches!(r.kind, NodeKind::Return));
        if !returns_reference || !only_return {
            return None;
        }
        Some((|| {
            let place = if arrow { self.pointee_record(obj)? } else { self.record_place(obj)? };
            match self.inline_method_into(n, f, place, args, Some(Want::Place))? {
                Some(Slot::Place(Some(t))) => Ok(*t),
                _ => Err(self.unsupported("this reference as a place in memory", n)),
            }
        })())
    }

    /// The scalar element `n` denotes (`a[i][j]`, `*p`, `*(p + i)`, `a[i].x`, `p->x`), its
    /// indices evaluated (without a thread-local array's row: see [`Self::element`]).
    fn element_in(&mut self, n: &Node) -> R<(String, Vec<Expr>, Ty)> {
        let n = strip(n);
        if let Some(Binding::Cell { kpl, ty }) = self.binding(n) {
            return Ok((kpl, vec![Expr::Const(0)], ty));
        }
        match &n.kind {
            NodeKind::ArraySubscript => match self.indices(n)? {
                (array, Elem::Scalar(ty), index) => Ok((array, index, ty)),
                (_, Elem::Record(l), _) => {
                    Err(self.unsupported(format!("a whole `{}` as a value", l.name), n))
                }
            },
            NodeKind::Unary { op, .. } if op == "*" => {
                let p = n.children.first().ok_or_else(|| self.unsupported("`*` without an operand", n))?;
                let (array, elem, rank, offset) = self.array_base(strip(p))?;
                if rank != 1 {
                    return Err(self.unsupported("`*` of a multi-dimensional array", n));
                }
                match elem {
                    Elem::Scalar(ty) => Ok((array, vec![offset.unwrap_or(Expr::Const(0))], ty)),
                    Elem::Record(l) => Err(self.unsupported(format!("a whole `{}` as a value", l.name), n)),
                }
            }
            NodeKind::Member { .. } => match self.member(n)? {
                record::MemberPlace::Word { array, index, ty } => Ok((array, index, ty)),
                record::MemberPlace::Bound(Binding::Cell { kpl, ty }) => Ok((kpl, vec![Expr::Const(0)], ty)),
                _ => Err(self.unsupported("this member as a place in memory", n)),
            },
            _ => Err(self.unsupported("this expression as a place in memory", n)),
        }
    }

    /// `a[i][j]`: the array, what it holds, and the index of the element's first word (a
    /// record element's words follow it in the last dimension).
    fn indices(&mut self, n: &Node) -> R<(String, Elem, Vec<Expr>)> {
        // `s.a[r][k]`: an array member's word among the record's (`record.rs`).
        if let Some(r) = self.member_element(n) {
            return r;
        }
        let (base, idx) = self.two(n)?;
        // Indices outermost first: `t[i][j]` is ((t[i])[j]).
        let mut subs = vec![idx];
        let mut b = strip(base);
        // A subscript whose value is a pointer (`bufs[k][i]` of an array of pointers) is the
        // pointer indexed, not an outer index.
        while b.kind == NodeKind::ArraySubscript && pointee(b.ty.as_deref().unwrap_or_default()).is_none() {
            let (bb, i) = self.two(b)?;
            subs.push(i);
            b = strip(bb);
        }
        subs.reverse();
        let (array, elem, rank, offset) = self.array_base(b)?;
        if subs.len() != rank {
            return Err(self.unsupported(
                format!("an access with {} of the array's {rank} indices (a row as a pointer)", subs.len()),
                n,
            ));
        }
        let mut index = Vec::new();
        for i in &subs {
            index.push(self.index_value(i)?);
        }
        let units = self.elem_units(&array, &elem);
        if let Some(last) = index.last_mut() {
            *last = record::scaled(std::mem::replace(last, Expr::Const(0)), units);
        }
        if let (Some(o), Some(first)) = (offset, index.first_mut()) {
            *first = Expr::bin(BinOp::Add, o, std::mem::replace(first, Expr::Const(0)));
        }
        Ok((array, elem, index))
    }

    /// An array and the word offset of the first index: a multi-dimensional array as itself,
    /// anything else as a pointer value.
    fn array_base(&mut self, b: &Node) -> R<(String, Elem, usize, Option<Expr>)> {
        if let Some(Binding::Array { kpl, elem, rank }) = self.binding(strip(b)) {
            if rank > 1 {
                return Ok((kpl, elem, rank, None));
            }
        }
        let (array, elem, offset) = self.pointer(b)?;
        let offset = (offset != Expr::Const(0)).then_some(offset);
        Ok((array, elem, 1, offset))
    }

    /// The value of a pointer expression: the one-dimensional array it points into, what it
    /// points to, and the word it points at (`a`, `&a[i]`, `&a[i].x`, `p + i`, `p - i`, a
    /// pointer local or parameter, casts between types whose words have one size).
    fn pointer(&mut self, n: &Node) -> R<(String, Elem, Expr)> {
        match &n.kind {
            NodeKind::Paren => return self.pointer(self.only_child(n)?),
            NodeKind::ImplicitCast { cast } | NodeKind::CStyleCast { cast }
                if matches!(cast.as_str(), "LValueToRValue" | "NoOp" | "ArrayToPointerDecay") =>
            {
                return self.pointer(self.only_child(n)?);
            }
            NodeKind::ImplicitCast { cast } | NodeKind::CStyleCast { cast } if cast == "BitCast" => {
                return self.cast_pointer(n);
            }
            NodeKind::StaticCast | NodeKind::ReinterpretCast => return self.cast_pointer(n),
            // `T *p = SharedMemory<T>();`: the class's conversion operator, called.
            NodeKind::ImplicitCast { cast } if cast == "UserDefinedConversion" => {
                return self.pointer(self.only_child(n)?);
            }
            NodeKind::Other { kind } if kind == "ExprWithCleanups" => {
                return self.pointer(self.only_child(n)?)
            }
            NodeKind::Call { .. } | NodeKind::MemberCall { .. } => return self.pointer_call(n),
            _ => {}
        }
        if let Some(r) = self.load_stored_pointer(n) {
            return r;
        }
        match self.binding(n) {
            Some(Binding::Array { kpl, elem, rank: 1 }) => return Ok((kpl, elem, Expr::Const(0))),
            Some(Binding::Ptr { array, elem, offset }) => return Ok((array, elem, Expr::Var(offset))),
            Some(Binding::Alias { array, elem, at }) => return Ok((array, elem, at)),
            Some(Binding::MemberPtr { .. }) => {
                return Err(self.unsupported(
                    "a struct's pointer member used before it is given a pointer (its array is not known)",
                    n,
                ))
            }
            Some(_) => {
                return Err(
                    self.unsupported("this array as a pointer (a row of a multi-dimensional array)", n)
                )
            }
            None => {}
        }
        match &n.kind {
            NodeKind::Unary { op, .. } if op == "&" => {
                let place = strip(self.only_child(n)?);
                let record = place.ty.as_deref().and_then(|t| self.layout_of(&self.resolve(t)));
                if let Some(layout) = record {
                    // `&a[i]` of a struct array: its first word.
                    return match self.record_place(place)? {
                        record::Place::Memory(m) if m.prefix.is_empty() => {
                            Ok((m.array.clone(), Elem::Record(layout), m.base.clone()))
                        }
                        // `&a[i][j]`: a pointer into the row `a[i]`.
                        record::Place::Memory(m) if !self.is_view(&m.array) => {
                            let prefix = self.row_index(&m.array, m.prefix.clone());
                            let view = self.row_view(&m.array, prefix);
                            Ok((view, Elem::Record(layout), m.base.clone()))
                        }
                        _ => Err(self.unsupported("the address of this struct", n)),
                    };
                }
                let (array, mut index, ty) = self.element(place)?;
                match index.pop() {
                    Some(i) if index.is_empty() => Ok((array, Elem::Scalar(ty), i)),
                    // `&a[i][j]` (or an element of a thread-local array, behind the thread's
                    // row): a pointer into the row.
                    Some(i) => Ok((self.row_view(&array, index), Elem::Scalar(ty), i)),
                    None => Err(self.unsupported("the address of this element", n)),
                }
            }
            // `c ? a : b` of two pointers into one array (a pointer group's members).
            NodeKind::Conditional if n.children.len() == 3 => {
                let c = self.condition(&n.children[0])?;
                if self.reads_memory(&n.children[1]) || self.reads_memory(&n.children[2]) {
                    return Err(self.unsupported("a `?:` of pointers that reads memory", n));
                }
                let (x, ex, ox) = self.pointer(strip(&n.children[1]))?;
                let (y, ey, oy) = self.pointer(strip(&n.children[2]))?;
                if x != y || ex != ey {
                    return Err(self.unsupported("a `?:` of pointers into different arrays", n));
                }
                Ok((x, ex, Expr::Select(Box::new(c), Box::new(ox), Box::new(oy))))
            }
            NodeKind::Binary { op } if op == "+" || op == "-" => {
                let (a, b) = self.two(n)?;
                let a_ptr = a.ty.as_deref().is_some_and(|t| t.contains('*') || t.contains('['));
                let (p, i) = if a_ptr { (a, b) } else { (b, a) };
                let (array, elem, off) = self.pointer(p)?;
                let e = self.index_value(i)?;
                let e = record::scaled(e, self.elem_units(&array, &elem));
                let op = if op == "-" { BinOp::Sub } else { BinOp::Add };
                Ok((
                    array,
                    elem,
                    if off == Expr::Const(0) && op == BinOp::Add { e } else { Expr::bin(op, off, e) },
                ))
            }
            NodeKind::ArraySubscript => match self
                .pointer_array_element(n)
                .or_else(|| self.member_row_pointer(n))
                .or_else(|| self.row_decay(n))
            {
                Some(r) => r,
                None => Err(self.unsupported("this subscript as a pointer", n)),
            },

            // `p++`, `--p` of a pointer local as a value (`*row++`, `*p++ = x`).
            NodeKind::Unary { op, postfix } if op == "++" || op == "--" => {
                self.step_pointer(n, op == "++", *postfix)
            }
            // `s.v` of an array member `v`: a pointer to its first element.
            _ => match self.member_row_pointer(n) {
                Some(r) => r,
                None => {
                    Err(self.unsupported("this pointer (only pointers into one array are lowered yet)", n))
                }
            },
        }
    }

    /// The scalar element the pointer expression `p` points to (`&a[i]`, `p + i`, `&c`).
    fn pointee_element(&mut self, p: &Node, n: &Node) -> R<(String, Vec<Expr>, Ty)> {
        let addr = strip(p);
        if let NodeKind::Unary { op, .. } = &addr.kind {
            if op == "&" {
                return self.element(self.only_child(addr)?);
            }
        }
        let (array, elem, rank, offset) = self.array_base(addr)?;
        let Elem::Scalar(ty) = elem else {
            return Err(self.unsupported("a struct through this pointer", n));
        };
        if rank != 1 {
            return Err(self.unsupported("a row of a multi-dimensional array through this pointer", n));
        }
        let (array, index) = self.in_memory(array, vec![offset.unwrap_or(Expr::Const(0))]);
        Ok((array, index, ty))
    }

    /// The locals of the struct `&x` takes the address of, when `x` is one held in locals.
    fn address_of_local_record(&self, a: &Node) -> Option<Rc<record::Locals>> {
        let a = strip(a);
        match &a.kind {
            NodeKind::Unary { op, .. } if op == "&" => match self.binding(strip(a.children.first()?))? {
                Binding::Record(l) => Some(l),
                _ => None,
            },
            _ => None,
        }
    }

    /// A call returning a pointer, inlined: a device function or method with a body whose
    /// every `return` points into one array.
    fn pointer_call(&mut self, n: &Node) -> R<(String, Elem, Expr)> {
        let callee = n.children.first().map(strip_callee);
        let id = match callee.map(|c| &c.kind) {
            Some(NodeKind::DeclRef { decl_id, .. }) => Some(decl_id.clone()),
            Some(NodeKind::Member { decl, .. }) => decl.clone(),
            _ => None,
        };
        let model = self.model;
        let Some(f) = id.as_deref().and_then(|id| model.definition(id)) else {
            return Err(self.unsupported("a pointer returned by a function without a body", n));
        };
        match self.inline_into(n, f, &n.children[1..], Some(Want::Pointer))? {
            Some(Slot::Pointer(offset, Some((array, elem)))) => Ok((array, elem, Expr::var(&offset))),
            _ => Err(self.unsupported(format!("the pointer `{}` returns", f.name), n)),
        }
    }

    /// `p op q` of two pointers (a comparison, or `p - q`): pointers into one array compare
    /// as their word offsets, and their difference counts elements (offsets are words, an
    /// element `units` of them). Pointers into different arrays (or seen as different
    /// element types) are refused: C leaves their order unspecified and the model keeps no
    /// address for an array.
    fn pointer_relation(&mut self, op: &str, n: &Node) -> R<(Expr, Ty)> {
        let (a, b) = self.two(n)?;
        let null = |c: &Node| matches!(&c.kind, NodeKind::ImplicitCast { cast } | NodeKind::CStyleCast { cast } if cast == "NullToPointer");
        match (null(strip(a)), null(strip(b)), op) {
            (false, false, _) => {}
            (true, false, "==" | "!=") | (false, true, "==" | "!=") => {
                let p = if null(strip(a)) { b } else { a };
                let is_null = self.is_null(p)?;
                let test = if op == "==" { is_null } else { Expr::bin(BinOp::Eq, is_null, Expr::Const(0)) };
                return Ok((test, Ty::Int));
            }
            _ => {
                return Err(self.unsupported(
                    "a pointer ordered against a null pointer (a pointer is an offset into one array)",
                    n,
                ))
            }
        }
        let (x, ex, ox) = self.pointer(strip(a))?;
        let (y, ey, oy) = self.pointer(strip(b))?;
        if x != y || ex != ey {
            return Err(self.unsupported("comparing or subtracting pointers into different arrays", n));
        }
        // Two members of a pointer group share its KPL array, one row each: C leaves the
        // order of pointers into different arrays unspecified, so across rows `<` is any
        // answer (`==` stays exact: the rows never overlap).
        let stride = self
            .source_arrays
            .iter()
            .find(|(k, _)| *k == x)
            .and_then(|(_, s)| u32::try_from(s.member_stride).ok())
            .filter(|s| *s > 0);
        if let (Some(stride), true) = (stride, matches!(op, "<" | "<=" | ">" | ">=")) {
            let row = |o: &Expr| Expr::bin(BinOp::UDiv, o.clone(), Expr::Const(stride));
            let same = Expr::bin(BinOp::Eq, row(&ox), row(&oy));
            let (ordered, _) = self.binary(op, (ox, Ty::Int), (oy, Ty::Int), n)?;
            let any = self.fresh("order");
            self.emit(StmtKind::Local { name: any.clone(), init: None });
            let any = Expr::bin(BinOp::Ne, Expr::var(&any), Expr::Const(0));
            return Ok((Expr::Select(Box::new(same), Box::new(ordered), Box::new(any)), Ty::Int));
        }
        if op != "-" {
            return self.binary(op, (ox, Ty::Int), (oy, Ty::Int), n);
        }
        let diff = Expr::bin(BinOp::Sub, ox, oy);
        match self.elem_units(&x, &ex) {
            1 => Ok((diff, Ty::Int)),
            u => self.binary("/", (diff, Ty::Int), (Expr::Const(u), Ty::Int), n),
        }
    }

    /// Whether the pointer `p` is null, as a truth value (1 or 0): the same unknown for every
    /// pointer into one array, in every thread — an array is a kernel argument that the host
    /// passes null or not (`if (g_sums != NULL)`); stepping a null pointer is undefined, so a
    /// pointer into an array is null exactly when its array is. Both answers are checked.
    fn is_null(&mut self, p: &Node) -> R<Expr> {
        let (array, _, _) = self.pointer(strip(p))?;
        let (base, _) = self.wide_base(&array);
        let name = format!("is_null_{}", base.replace(|c: char| !(c.is_alphanumeric() || c == '_'), "_"));
        Ok(Expr::bin(BinOp::Ne, Expr::Call(name, Vec::new()), Expr::Const(0)))
    }

    /// A pointer cast: the same words seen as another type, when every word on both sides
    /// has one size (a `float4 *` over a `float` array; not over a `half` array).
    fn cast_pointer(&mut self, n: &Node) -> R<(String, Elem, Expr)> {
        let c = self.only_child(n)?;
        let (array, elem, off) = self.pointer(c)?;
        let to_ty = n.ty.as_deref().map(|t| self.resolve(t)).unwrap_or_default();
        let from_ty = c.ty.as_deref().map(|t| self.resolve(t)).unwrap_or_default();
        let from = pointee(&from_ty).map(str::to_string).or_else(|| array_type(&from_ty).map(|(e, _)| e));
        let (Some(to), Some(from)) = (pointee(&to_ty), from) else {
            return Err(self.unsupported("a pointer cast to another element type", n));
        };
        // Only the qualifiers change (`const float *` → `float *`): the same view.
        if record::bare(to) == record::bare(&from) {
            return Ok((array, elem, off));
        }
        // To `void *`: the same pointer, its words remembered for a cast back or a copy's size.
        if record::bare(to) == "void" {
            if let Some(b) = self.word_bytes(&from) {
                self.void_words.insert(array.clone(), b);
            }
            return Ok((array, elem, off));
        }
        let from_bytes = match record::bare(&from) == "void" {
            true => self.void_words.get(&array).copied(),
            false => self.word_bytes(&from),
        };
        // Another type (`char *` → `int *`, `half *` → `float4 *`): words of one size are the
        // same elements; wider words are a wide view (`wide.rs`), each word a whole number of
        // the array's elements.
        let (Some(from_bytes), Some(to_bytes), Some(to_elem)) =
            (from_bytes, self.word_bytes(to), self.elem_of(to))
        else {
            return Err(self.unsupported("a pointer cast to another element type", n));
        };
        if from_bytes == to_bytes {
            return Ok((array, to_elem, off));
        }
        match self.cast_view(&array, from_bytes, to_bytes) {
            Some(view) => Ok((view, to_elem, off)),
            None => Err(self.unsupported(
                format!("a pointer cast from `{from}` to the narrower `{to}` (a view inside one element)"),
                n,
            )),
        }
    }

    /// The value of a subscript or pointer offset. C converts neither (`tab[c]` of a `signed
    /// char c` reads no promoted value in clang's tree), so a narrow integer type's value is
    /// taken here, as its widening conversion takes it.
    fn index_value(&mut self, n: &Node) -> R<Expr> {
        let (e, _) = self.rvalue(n)?;
        Ok(match n.ty.as_deref().and_then(|t| narrow_int(&self.resolve(t))) {
            Some(narrow) => narrow_value(e, narrow),
            None => e,
        })
    }

    fn rvalue_as(&mut self, n: &Node, t: Ty) -> R<Expr> {
        let (e, et) = self.rvalue(n)?;
        Ok(convert(e, et, t))
    }

    /// An expression's value (memory reads emitted before it, in C's order).
    fn rvalue(&mut self, n: &Node) -> R<(Expr, Ty)> {
        let ty = n.ty.as_deref().and_then(|t| self.scalar_of(t));
        let ty = ty.or_else(|| n.desugared.as_deref().and_then(|t| self.scalar_of(t)));
        match &n.kind {
            NodeKind::Paren => self.only_child(n).and_then(|c| self.rvalue(c)),
            NodeKind::Constant { value } => match (value.as_deref().and_then(parse_int), ty) {
                (Some(v), Some(t)) if t != Ty::Float => Ok((Expr::Const(v), t)),
                _ => self.only_child(n).and_then(|c| self.rvalue(c)),
            },
            NodeKind::ImplicitCast { cast } | NodeKind::CStyleCast { cast } => {
                let c = self.only_child(n)?;
                if cast == "LValueToRValue" {
                    return self.load(c);
                }
                // `if (p)`, `!p`: the pointer is not null.
                if cast == "PointerToBoolean" {
                    let is_null = self.is_null(c)?;
                    return Ok((Expr::bin(BinOp::Eq, is_null, Expr::Const(0)), Ty::Int));
                }
                let (mut e, from) = self.rvalue(c)?;
                // A value of a narrow integer type is its type's in C (a byte read from a
                // `uchar` histogram is 0..255, an `int8_t` one -128..127); KPL's words keep what
                // was stored, so a widening conversion, and a test against zero, take the
                // value of the word's low bits (`data[i] % BINS` then stays inside `BINS` rows).
                if matches!(cast.as_str(), "IntegralCast" | "IntegralToBoolean") {
                    let narrow = |t: Option<&str>| t.and_then(|t| narrow_int(&self.resolve(t)));
                    if let Some((bits, signed)) = narrow(c.ty.as_deref()) {
                        if cast == "IntegralToBoolean" {
                            // Zero exactly when its low bits are.
                            e = narrow_value(e, (bits, false));
                        } else if narrow(n.ty.as_deref()).is_none_or(|(to, _)| to > bits) {
                            e = narrow_value(e, (bits, signed));
                        }
                    }
                }
                match cast.as_str() {
                    "IntegralToBoolean" => Ok((Expr::bin(BinOp::Ne, e, Expr::Const(0)), Ty::Int)),
                    "FloatingToBoolean" => {
                        Ok((Expr::Call("fcmp_ne".into(), vec![e, Expr::Const(0)]), Ty::Int))
                    }
                    _ => match ty {
                        Some(t) => Ok((convert(e, from, t), t)),
                        None => Ok((e, from)),
                    },
                }
            }
            NodeKind::StaticCast | NodeKind::FunctionalCast => {
                let c = self.only_child(n)?;
                let (e, from) = self.rvalue(c)?;
                match ty {
                    Some(t) => Ok((convert(e, from, t), t)),
                    None => {
                        Err(self.unsupported(format!("a cast to `{}`", n.ty.as_deref().unwrap_or("?")), n))
                    }
                }
            }
            NodeKind::IntegerLiteral { value } => match parse_int(value) {
                Some(v) => Ok((Expr::Const(v), ty.unwrap_or(Ty::Int))),
                None => Err(self.unsupported(format!("the literal `{value}`"), n)),
            },
            NodeKind::FloatingLiteral { value } => match value.parse::<f32>() {
                Ok(f) => Ok((Expr::Const(f.to_bits()), Ty::Float)),
                Err(_) => Err(self.unsupported(format!("the literal `{value}`"), n)),
            },
            NodeKind::BoolLiteral { value } => Ok((Expr::Const(u32::from(*value)), Ty::Int)),
            NodeKind::BuiltinVar { var, field } => match builtin(var, *field) {
                Some(b) => Ok((Expr::Builtin(b), Ty::UInt)),
                None => Err(self.unsupported(format!("`{var}.{field}`"), n)),
            },
            NodeKind::DeclRef { decl_kind, name, decl_id } => match self.binding(n) {
                Some(Binding::Scalar { kpl, ty }) => Ok((Expr::Var(kpl), ty)),
                Some(Binding::Cell { .. } | Binding::Ref { .. }) => self.load(n),
                Some(Binding::Const(init)) => {
                    let t = n.ty.as_deref().and_then(|t| self.scalar_of(t)).unwrap_or(Ty::Int);
                    let e = self.rvalue_as(&init, t)?;
                    Ok((e, t))
                }
                Some(
                    Binding::Array { .. }
                    | Binding::Ptr { .. }
                    | Binding::Alias { .. }
                    | Binding::VarPtr { .. }
                    | Binding::MemberPtr { .. }
                    | Binding::PtrArray { .. }
                    | Binding::SharedPtr { .. }
                    | Binding::PtrOf(_),
                ) => Err(self.unsupported("an array or pointer as a value", n)),
                Some(Binding::Record(_) | Binding::RecordRef(_)) => {
                    Err(self.unsupported("a whole struct as a value here", n))
                }
                None if self.shared_addresses.contains_key(decl_id) => Err(self.unsupported(
                    format!("the shared-memory address `{name}` used as a number (it is read only as an `asm` operand)"),
                    n,
                )),
                None if decl_kind == "EnumConstantDecl" => match self.model.enumerators.get(decl_id) {
                    Some(v) => Ok((Expr::Const(*v as u32), Ty::Int)),
                    None => Err(self.unsupported(format!("the enumerator `{name}`"), n)),
                },
                // The stand-in header's `extern const int warpSize`: 32 on every GPU CUDA targets.
                None if name == "warpSize" => Ok((Expr::Const(32), Ty::Int)),
                None => {
                    Err(self
                        .unsupported(format!("`{name}` (a {decl_kind} the front end does not lower yet)"), n))
                }
            },
            NodeKind::Unary { op, postfix: _ } => {
                let a = self.only_child(n)?;
                match op.as_str() {
                    "-" => {
                        let (e, t) = self.rvalue(a)?;
                        Ok(match t {
                            Ty::Float => (Expr::Call("fneg".into(), vec![e]), t),
                            _ => (Expr::Unary(UnOp::Neg, Box::new(e)), t),
                        })
                    }
                    "+" => self.rvalue(a),
                    "!" => {
                        let c = self.condition(a)?;
                        Ok((not(c), Ty::Int))
                    }
                    "~" => {
                        let (e, t) = self.rvalue(a)?;
                        Ok((Expr::Unary(UnOp::BitNot, Box::new(e)), t))
                    }
                    "*" => self.load(n),
                    "++" | "--" => self.step_in_expression(n, a, op == "++"),
                    _ => {
                        Err(self.unsupported(format!("`{op}` inside an expression (only as a statement)"), n))
                    }
                }
            }
            NodeKind::Binary { op } if op == "&&" || op == "||" => self.logical(n, op == "&&"),
            // `a = b = c`: the inner assignment's value is what it stored.
            NodeKind::Binary { op }
                if op == "=" && !matches!(self.binding(strip(&n.children[0])), Some(Binding::Ptr { .. })) =>
            {
                let (lhs, rhs) = self.two(n)?;
                let (v, vt) = self.rvalue(rhs)?;
                let target = self.target(lhs)?;
                let (kept, t) = match &target {
                    Target::Var { ty, .. } | Target::Elem { ty, .. } => {
                        let x = self.temp(Some(convert(v, vt, *ty)));
                        (x, *ty)
                    }
                    Target::Offset { .. } => {
                        return Err(self.unsupported("assigning a pointer inside an expression", n))
                    }
                };
                self.store(target, Expr::var(&kept), t);
                Ok((Expr::var(&kept), t))
            }
            // `a, b`: `a` for its effects, then the value of `b`.
            NodeKind::Binary { op } if op == "," => {
                let (a, b) = self.two(n)?;
                self.effect(a)?;
                self.rvalue(b)
            }
            NodeKind::Binary { op } if op == "=" => {
                Err(self.unsupported(format!("`{op}` inside an expression (only as a statement)"), n))
            }
            // `p < end`, `p - base` of two pointers: their offsets, in elements.
            NodeKind::Binary { op }
                if matches!(op.as_str(), "<" | "<=" | ">" | ">=" | "==" | "!=" | "-")
                    && n.children.len() == 2
                    && n.children.iter().all(is_pointer_typed) =>
            {
                self.pointer_relation(op, n)
            }
            NodeKind::Binary { op } => {
                let (a, b) = self.two(n)?;
                let x = self.rvalue(a)?;
                let y = self.rvalue(b)?;
                // An operand clang converted from a signed type keeps that type here: the
                // value is the same word, and `binary` needs to know it was a signed number.
                let (x, y) = ((x.0, self.unconverted_ty(a, x.1)), (y.0, self.unconverted_ty(b, y.1)));
                self.binary(op, x, y, n)
            }
            NodeKind::Conditional => self.conditional(n),
            NodeKind::ArraySubscript => self.load(n),
            NodeKind::Call { callee: None } => match self.fn_pointer_call(n, true).transpose()?.flatten() {
                Some(v) => Ok(v),
                None => Err(self.unsupported("a call of this callee", n)),
            },
            // `h.operator float()`: a scalar class converted to its value.
            NodeKind::MemberCall { method: Some(m) } if m.starts_with("operator ") => {
                let object = n.children.first().and_then(|c| strip(c).children.first());
                match (object, ty) {
                    (Some(o), Some(t)) if o.ty.as_deref().and_then(|x| self.scalar_of(x)).is_some() => {
                        Ok((self.rvalue_as(o, t)?, t))
                    }
                    _ => Err(self.unsupported(format!("the conversion `{m}`"), n)),
                }
            }
            NodeKind::MemberCall { .. } => match self.method_call(n, true)? {
                Some(v) => Ok(v),
                None => Err(self.unsupported("the value of this method call", n)),
            },
            // A value bound to a `const T &` parameter of a function without a body.
            NodeKind::Other { kind } if kind == "ExprWithCleanups" || kind == "MaterializeTemporaryExpr" => {
                self.only_child(n).and_then(|c| self.rvalue(c))
            }
            NodeKind::Member { .. } => match self.group_field(n) {
                Some(r) => r,
                None => Err(self.unsupported(construct_name(n), n)),
            },
            NodeKind::Call { callee: Some(name) } => {
                let name = name.clone();
                match self.call(n, &name, true)? {
                    Some(v) => Ok(v),
                    None => Err(self.unsupported(format!("the value of `{name}(…)`"), n)),
                }
            }
            // A template argument in the instance: the argument's value.
            NodeKind::Other { kind } if kind == "SubstNonTypeTemplateParmExpr" => match n.children.last() {
                Some(c) => self.rvalue(c),
                None => Err(self.unsupported("an empty template argument", n)),
            },
            // `sizeof` of a scalar, or of a struct or array whose words have one size (no
            // padding).
            NodeKind::TypeTrait { name, arg_ty } if name == "sizeof" => {
                let t = arg_ty
                    .clone()
                    .or_else(|| n.children.first().and_then(|c| c.ty.clone()))
                    .unwrap_or_default();
                let t = self.resolve(&t);
                match self.size_of(&t) {
                    Some(bytes) => Ok((Expr::Const(bytes), Ty::UInt)),
                    None => Err(self.unsupported(format!("`sizeof` of `{t}`"), n)),
                }
            }
            // C++'s wrappers of a value: temporaries and their cleanups.
            NodeKind::Other { kind }
                if matches!(
                    kind.as_str(),
                    "ExprWithCleanups" | "MaterializeTemporaryExpr" | "CXXBindTemporaryExpr"
                ) && n.children.len() == 1 =>
            {
                self.rvalue(&n.children[0])
            }
            // A scalar class (`__half`, `c10::Half`) built from a value, copied, or left
            // indeterminate.
            NodeKind::Other { kind } if kind == "CXXConstructExpr" || kind == "CXXTemporaryObjectExpr" => {
                let Some(t) = ty else {
                    return Err(
                        self.unsupported(format!("constructing a `{}`", n.ty.as_deref().unwrap_or("?")), n)
                    );
                };
                match n.children.as_slice() {
                    [one] => Ok((self.rvalue_as(one, t)?, t)),
                    [] => {
                        let u = self.fresh("_uninit");
                        self.emit(StmtKind::Local { name: u.clone(), init: None });
                        Ok((Expr::var(&u), t))
                    }
                    _ => Err(self.unsupported("a constructor call with several arguments", n)),
                }
            }
            NodeKind::OperatorCall { operator: Some(op) } => {
                let op = op.clone();
                match self.operator_call(n, &op)? {
                    Some(v) => Ok(v),
                    None => Err(self.unsupported(format!("the value of `{op}`"), n)),
                }
            }
            _ => Err(self.unsupported(construct_name(n), n)),
        }
    }

    fn only_child<'n>(&self, n: &'n Node) -> R<&'n Node> {
        n.children.first().ok_or_else(|| self.unsupported("an empty expression", n))
    }

    /// The value of an lvalue: a local's, or an element read into a temporary.
    fn load(&mut self, n: &Node) -> R<(Expr, Ty)> {
        let s = strip(n);
        if matches!(&s.kind, NodeKind::DeclRef { name, .. } if name == "warpSize")
            && self.binding(s).is_none()
        {
            return self.rvalue(s);
        }
        // A prefix `++x`/`--x` is an lvalue in C++: its value is the stored one.
        if let NodeKind::Unary { op, postfix: false } = &s.kind {
            if let (true, Some(x)) = (op == "++" || op == "--", s.children.first()) {
                return self.step_in_expression(s, x, op == "++");
            }
        }
        match self.binding(s) {
            Some(Binding::Scalar { kpl, ty }) => Ok((Expr::Var(kpl), ty)),
            Some(Binding::Cell { kpl, ty }) => {
                let dst = self.temp(None);
                self.emit(StmtKind::Read {
                    dst: dst.clone(),
                    array: kpl,
                    index: vec![Expr::Const(0)],
                    width: Width::ONE,
                });
                Ok((Expr::Var(dst), ty))
            }
            Some(Binding::Const(_)) => self.rvalue(s),
            Some(
                Binding::Array { .. }
                | Binding::Ptr { .. }
                | Binding::Alias { .. }
                | Binding::VarPtr { .. }
                | Binding::MemberPtr { .. }
                | Binding::PtrArray { .. }
                | Binding::SharedPtr { .. }
                | Binding::PtrOf(_),
            ) => Err(self.unsupported("an array or pointer as a value", n)),
            Some(Binding::Ref { .. }) => {
                let (array, index, ty) = self.element(s)?;
                let dst = self.temp(None);
                self.emit(StmtKind::Read { dst: dst.clone(), array, index, width: Width::ONE });
                Ok((Expr::Var(dst), ty))
            }
            Some(Binding::Record(_) | Binding::RecordRef(_)) => {
                Err(self.unsupported("a whole struct as a value here", n))
            }
            None => match &s.kind {
                NodeKind::ArraySubscript | NodeKind::Unary { .. } | NodeKind::Member { .. } => {
                    if let Some(r) = self.fragment_read(s) {
                        return r;
                    }
                    // A member of a group's `dim3` (`g.thread_index().x`).
                    if let Some(r) = self.group_field(s) {
                        return r;
                    }
                    if let Some((kpl, ty)) = self.var_through(s)? {
                        return Ok((Expr::Var(kpl), ty));
                    }
                    if let Some(r) = self.local_member_value(s) {
                        return r;
                    }
                    let (array, index, ty) = self.element(s)?;
                    let dst = self.temp(None);
                    self.emit(StmtKind::Read { dst: dst.clone(), array, index, width: Width::ONE });
                    Ok((Expr::Var(dst), ty))
                }
                _ => self.rvalue(s),
            },
        }
    }

    /// `i++`, `++i`, `i--`, `--i` (`n`, of the operand `x`) as a value: the local is updated
    /// here and the value is a copy of it, taken before the update for a postfix operator.
    /// Only a scalar local of integer type: another operand (an element, a pointer) is
    /// refused.
    fn step_in_expression(&mut self, n: &Node, x: &Node, up: bool) -> R<(Expr, Ty)> {
        let postfix = matches!(n.kind, NodeKind::Unary { postfix: true, .. });
        let target = self.target(x)?;
        // `++a[i]` in an expression: one read and one write of the element, the value the
        // new one (prefix) or the old one (postfix).
        if let Target::Elem { array, index, ty } = target {
            if ty == Ty::Float {
                return Err(self.unsupported("`++`/`--` of a floating element inside an expression", n));
            }
            let old = self.temp(None);
            self.emit(StmtKind::Read {
                dst: old.clone(),
                array: array.clone(),
                index: index.clone(),
                width: Width::ONE,
            });
            let (new, t) =
                self.binary(if up { "+" } else { "-" }, (Expr::var(&old), ty), (Expr::Const(1), Ty::Int), n)?;
            let new = self.temp(Some(convert(new, t, ty)));
            self.emit(StmtKind::Write {
                array,
                index,
                value: Expr::var(&new),
                width: Width::ONE,
                mode: WriteMode::Plain,
            });
            return Ok((Expr::var(if postfix { &old } else { &new }), ty));
        }
        let Target::Var { kpl, ty } = &target else {
            return Err(self.unsupported("`++`/`--` of this operand inside an expression", n));
        };
        if *ty == Ty::Float {
            return Err(self.unsupported("`++`/`--` of a floating local inside an expression", n));
        }
        let (kpl, ty) = (kpl.clone(), *ty);
        let old = postfix.then(|| self.temp(Some(Expr::var(&kpl))));
        self.update(target, if up { "+" } else { "-" }, Expr::Const(1), Ty::Int, n)?;
        let value = old.unwrap_or_else(|| self.temp(Some(Expr::var(&kpl))));
        Ok((Expr::var(&value), ty))
    }

    /// `p++`, `++p`, `p--`, `--p` (`n`) of a pointer local as a pointer value: its offset moves
    /// by one element (in the array's elements: a wide view's word is several), the value a
    /// copy of the offset taken before the update for a postfix operator, after it otherwise.
    fn step_pointer(&mut self, n: &Node, up: bool, postfix: bool) -> R<(String, Elem, Expr)> {
        let x = strip(self.only_child(n)?);
        let Some(Binding::Ptr { array, elem, offset }) = self.binding(x) else {
            return Err(self.unsupported("`++`/`--` of this pointer inside an expression", n));
        };
        let old = postfix.then(|| self.temp(Some(Expr::var(&offset))));
        let step = Expr::Const(self.elem_units(&array, &elem));
        let op = if up { BinOp::Add } else { BinOp::Sub };
        self.emit(StmtKind::Assign { name: offset.clone(), value: Expr::bin(op, Expr::var(&offset), step) });
        let value = old.unwrap_or_else(|| self.temp(Some(Expr::var(&offset))));
        Ok((array, elem, Expr::var(&value)))
    }

    /// `a && b` / `a || b`: `b` is evaluated only where C evaluates it when it reads memory.
    fn logical(&mut self, n: &Node, and: bool) -> R<(Expr, Ty)> {
        let (a, b) = self.two(n)?;
        let x = self.condition(a)?;
        let op = if and { BinOp::And } else { BinOp::Or };
        if !self.reads_memory(b) {
            let y = self.condition(b)?;
            return Ok((Expr::bin(op, x, y), Ty::Int));
        }
        let t = self.temp(Some(Expr::bin(BinOp::Ne, x, Expr::Const(0))));
        let cond = if and { Expr::var(&t) } else { not(Expr::var(&t)) };
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, |lx| {
            let y = lx.condition(b)?;
            lx.emit(StmtKind::Assign { name: t.clone(), value: Expr::bin(BinOp::Ne, y, Expr::Const(0)) });
            Ok(())
        })?;
        self.out.push(Stmt { label, kind: StmtKind::If { cond, then, els: None }, span });
        Ok((Expr::var(&t), Ty::Int))
    }

    /// `c ? a : b`: a select when neither branch reads memory, else a temporary set by `if`.
    fn conditional(&mut self, n: &Node) -> R<(Expr, Ty)> {
        let [c, a, b] = n.children.as_slice() else {
            return Err(self.unsupported("this `?:`", n));
        };
        let t =
            n.ty.as_deref()
                .and_then(|t| self.scalar_of(t))
                .ok_or_else(|| self.unsupported("a `?:` of this type", n))?;
        let c = self.condition(c)?;
        if !self.reads_memory(a) && !self.reads_memory(b) {
            let x = self.rvalue_as(a, t)?;
            let y = self.rvalue_as(b, t)?;
            return Ok((Expr::Select(Box::new(c), Box::new(x), Box::new(y)), t));
        }
        let r = self.temp(None);
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, |lx| {
            let x = lx.rvalue_as(a, t)?;
            lx.emit(StmtKind::Assign { name: r.clone(), value: x });
            Ok(())
        })?;
        let el = self.label();
        let els = self.open_block(el, None, |lx| {
            let y = lx.rvalue_as(b, t)?;
            lx.emit(StmtKind::Assign { name: r.clone(), value: y });
            Ok(())
        })?;
        self.out.push(Stmt { label, kind: StmtKind::If { cond: c, then, els: Some(els) }, span });
        Ok((Expr::var(&r), t))
    }

    /// The type of operand `n` (lowered with type `ty`) before C's implicit integral
    /// conversion: `Int` for an `int` that the usual arithmetic conversions made `unsigned`.
    fn unconverted_ty(&self, n: &Node, ty: Ty) -> Ty {
        let mut m = n;
        loop {
            match &m.kind {
                NodeKind::Paren => {}
                NodeKind::ImplicitCast { cast } if cast == "IntegralCast" => {}
                _ => break,
            }
            match m.children.first() {
                Some(c) => m = c,
                None => break,
            }
        }
        match m.ty.as_deref().and_then(|t| self.scalar_of(t)) {
            Some(Ty::Int) if ty == Ty::UInt => Ty::Int,
            _ => ty,
        }
    }

    /// A binary operator on typed operands, by C's usual arithmetic conversions.
    fn binary(&self, op: &str, (a, ta): (Expr, Ty), (b, tb): (Expr, Ty), n: &Node) -> R<(Expr, Ty)> {
        let shift = op == "<<" || op == ">>";
        let t = if shift {
            ta
        } else if ta == Ty::Float || tb == Ty::Float {
            Ty::Float
        } else if ta == Ty::UInt || tb == Ty::UInt {
            Ty::UInt
        } else {
            Ty::Int
        };
        if t == Ty::Float {
            let (a, b) = (convert(a, ta, t), convert(b, tb, t));
            let Some((f, comparison)) = crate::kpl::float_call(op) else {
                return Err(self.unsupported(format!("`{op}` on floating values"), n));
            };
            return Ok((Expr::Call(f.into(), vec![a, b]), if comparison { Ty::Int } else { Ty::Float }));
        }
        let u = t == Ty::UInt;
        // An unsigned sum or product whose operands are unsigned numbers is C's unsigned
        // arithmetic, and the no-wrap assumption reads its operands as unsigned numbers (`uadd`,
        // `umul`): `i + n` with `unsigned n = 4294966800` is a number near 2^32, not `i - 496`.
        // An operand that is a signed value converted by C's usual conversions (`threadIdx.x +
        // dx` with `int dx = -1`) or a difference (`threadIdx.x - 1 + r`) means a signed
        // number, so it keeps the signed reading; the other operand keeps its own: with one
        // unsigned number the operator is `iuadd`/`iumul` (or `uiadd`/`uimul`), which reads
        // the unsigned one as an unsigned number (`int i` plus `4294966800u` is as far from
        // `i - 496` as the unsigned sum) and the signed one as a signed number
        // (docs/semantics.md, "Integer model").
        let plain = |e: &Expr, ty: Ty| match ty {
            Ty::UInt => !mixed_signs(e),
            _ => e.constant_value().is_some_and(|v| (v as i32) >= 0),
        };
        let (pa, pb) = (u && plain(&a, ta), u && plain(&b, tb));
        let unsigned_arith = pa && pb;
        // With one unsigned number beside a signed one: `Add` when that number is below 2^31
        // anyway (a constant, a launch id or dimension, a `uadd`/`umul` whose own condition
        // bounds it), so the reading changes nothing; else `iuadd`/`iumul` (`uiadd`/`uimul` when
        // the unsigned number comes first: the source's order stays, which the solver's
        // heuristics are sensitive to).
        let mixed = matches!(op, "+" | "*") && pa != pb && !below_2_31(if pa { &a } else { &b });
        let (bop, rt) = match op {
            "+" => (
                match (unsigned_arith, mixed, pa) {
                    (true, ..) => BinOp::UAdd,
                    (_, true, false) => BinOp::IUAdd,
                    (_, true, true) => BinOp::UIAdd,
                    _ => BinOp::Add,
                },
                t,
            ),
            "-" => (BinOp::Sub, t),
            "*" => (
                match (unsigned_arith, mixed, pa) {
                    (true, ..) => BinOp::UMul,
                    (_, true, false) => BinOp::IUMul,
                    (_, true, true) => BinOp::UIMul,
                    _ => BinOp::Mul,
                },
                t,
            ),
            "/" => (if u { BinOp::UDiv } else { BinOp::Div }, t),
            "%" => (if u { BinOp::URem } else { BinOp::Rem }, t),
            "<<" => (BinOp::Shl, t),
            ">>" => (if u { BinOp::UShr } else { BinOp::Shr }, t),
            "&" => (BinOp::BitAnd, t),
            "|" => (BinOp::BitOr, t),
            "^" => (BinOp::BitXor, t),
            "<" => (if u { BinOp::ULt } else { BinOp::Lt }, Ty::Int),
            "<=" => (if u { BinOp::ULe } else { BinOp::Le }, Ty::Int),
            ">" => (if u { BinOp::UGt } else { BinOp::Gt }, Ty::Int),
            ">=" => (if u { BinOp::UGe } else { BinOp::Ge }, Ty::Int),
            "==" => (BinOp::Eq, Ty::Int),
            "!=" => (BinOp::Ne, Ty::Int),
            _ => return Err(self.unsupported(format!("the operator `{op}`"), n)),
        };
        Ok((Expr::bin(bop, a, b), rt))
    }

    /// An overloaded operator: a function with a body is inlined like a call; one without (the
    /// operators our headers declare on `__half` and friends, which are scalars here) is the
    /// built-in operator on the values.
    fn operator_call(&mut self, n: &Node, op: &str) -> R<Option<(Expr, Ty)>> {
        if let Some(r) = self.lambda_call(n) {
            return r;
        }
        let callee = n.children.first().map(strip_callee);
        if let Some(NodeKind::DeclRef { decl_id, .. }) = callee.map(|c| &c.kind) {
            let model = self.model;
            if let Some(f) = model.definition(decl_id) {
                let args = &n.children[1..];
                // A member operator (`v[i]` of a struct with `operator[]`): clang passes the
                // object first, and it is `this` of the call.
                if f.params.len() + 1 == args.len() && f.body.is_some() {
                    let place = self.record_place(&args[0])?;
                    return self.inline_method(n, f, place, &args[1..]);
                }
                return self.inline(n, f, args);
            }
        }
        let sym = op.strip_prefix("operator").unwrap_or(op).trim();
        let args = &n.children[1.min(n.children.len())..];
        let scalar_args = args.iter().all(|a| a.ty.as_deref().and_then(|t| self.scalar_of(t)).is_some());
        if !scalar_args {
            return Err(self.unsupported(format!("the operator `{op}` on these operands"), n));
        }
        match (sym, args) {
            ("=", [lhs, rhs]) => {
                let (v, vt) = self.rvalue(rhs)?;
                let target = self.target(lhs)?;
                self.store(target, v, vt);
                Ok(None)
            }
            ("++" | "--", [x]) => {
                let target = self.target(x)?;
                self.update(target, &sym[..1], Expr::Const(1), Ty::Int, n)?;
                Ok(None)
            }
            (s, [lhs, rhs])
                if s.len() >= 2 && s.ends_with('=') && !matches!(s, "==" | "!=" | "<=" | ">=") =>
            {
                let (v, vt) = self.rvalue(rhs)?;
                let target = self.target(lhs)?;
                self.update(target, &s[..s.len() - 1], v, vt, n)?;
                Ok(None)
            }
            ("-", [a]) => {
                let (e, t) = self.rvalue(a)?;
                Ok(Some(match t {
                    Ty::Float => (Expr::Call("fneg".into(), vec![e]), t),
                    _ => (Expr::Unary(UnOp::Neg, Box::new(e)), t),
                }))
            }
            ("+", [a]) => self.rvalue(a).map(Some),
            (s, [a, b]) => {
                let x = self.rvalue(a)?;
                let y = self.rvalue(b)?;
                // `__half` operators compute in the class of their result.
                let (e, t) = self.binary(s, x, y, n)?;
                Ok(Some((e, t)))
            }
            _ => Err(self.unsupported(format!("the operator `{op}`"), n)),
        }
    }

    /// A call: barriers, atomics, `min`/`max`, and functions without a body as opaque pure
    /// calls of scalars. `Some` value when the call has one.
    fn call(&mut self, n: &Node, name: &str, want: bool) -> R<Option<(Expr, Ty)>> {
        let args = &n.children[1.min(n.children.len())..];
        if !want {
            if let Some(r) = self
                .wmma_call(name, args, n)
                .or_else(|| self.barrier_object_call(name, args, n))
                .or_else(|| self.pipeline_call(name, n))
            {
                return r.map(|()| None);
            }
        }
        if let Some(r) = self.group_call(n, want).or_else(|| self.fn_pointer_call(n, want)) {
            return r;
        }
        match name {
            _ if !want && name.starts_with("__pipeline_") => {
                if let Some(r) = self.pipeline_primitive(name, args, n) {
                    return r.map(|()| None);
                }
            }
            "memcpy" | "memset" | "std::memcpy" | "std::memset" if args.len() == 3 && !want => {
                self.memory_range(name.trim_start_matches("std::"), args, n)?;
                return Ok(None);
            }
            "__syncthreads" if args.is_empty() && !want => {
                self.emit(StmtKind::Barrier);
                return Ok(None);
            }
            "__syncwarp" if !want => {
                let given = args
                    .first()
                    .filter(|a| !matches!(&a.kind, NodeKind::Other { kind } if kind == "CXXDefaultArgExpr"));
                // The mask is evaluated (it may read memory). Only the full mask is a warp
                // barrier; a partial or unknown mask orders nothing here, which can only add
                // reported races (docs/semantics.md, "Warp barriers").
                let full = match given {
                    Some(a) => self.rvalue(a)?.0 == Expr::Const(u32::MAX),
                    None => true,
                };
                if full {
                    self.emit(StmtKind::Syncwarp);
                }
                return Ok(None);
            }
            // `__match_all_sync(mask, value, &pred)`: an unknown per-thread result, and an
            // unknown per-thread value stored through `pred` (a local or an element).
            "__match_all_sync" if args.len() == 3 => {
                let mut vals = Vec::new();
                for a in &args[..2] {
                    vals.push(self.rvalue(a)?.0);
                }
                let result = self.lane_value("__match_all_sync", vals.clone());
                let pred = self.lane_value("__match_all_sync_pred", vals);
                let target = match self.address_arg(&args[2]) {
                    Some(Binding::VarPtr { kpl, ty }) => Target::Var { kpl, ty },
                    _ => {
                        let (array, index, ty) = self.pointee_element(&args[2], n)?;
                        Target::Elem { array, index, ty }
                    }
                };
                self.store(target, pred, Ty::Int);
                return Ok(Some((result, Ty::UInt)));
            }
            // Register exchanges: no memory access; the result may differ between threads.
            _ if WARP_COLLECTIVES.contains(&name) => {
                let mut vals = Vec::new();
                for a in args {
                    if matches!(&a.kind, NodeKind::Other { kind } if kind == "CXXDefaultArgExpr") {
                        continue;
                    }
                    vals.push(self.rvalue(a)?.0);
                }
                let t = n.ty.as_deref().and_then(|t| self.scalar_of(t)).unwrap_or(Ty::UInt);
                return Ok(Some((self.lane_value(name, vals), t)));
            }
            // A barrier, then a value every thread of the block agrees on.
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" if args.len() == 1 => {
                self.rvalue(&args[0])?;
                self.emit(StmtKind::Barrier);
                let u = self.fresh(&format!("_{}", name.trim_start_matches('_')));
                self.emit(StmtKind::Local { name: u.clone(), init: None });
                let v = self.temp(Some(Expr::var(&u)));
                return Ok(Some((Expr::var(&v), Ty::Int)));
            }
            // A fence orders one thread's own accesses as other threads see them; it orders no
            // two threads, so it changes no race (docs/semantics.md).
            "__threadfence" | "__threadfence_block" | "__threadfence_system" if args.is_empty() && !want => {
                return Ok(None);
            }
            // GPUVerify's annotations: preconditions and assumptions of the kernel. A device
            // function's `__requires` is its callers' obligation, not assumed (dropping an
            // assumption only adds reports).
            "__requires" if self.inlining.len() > 1 && !want => return Ok(None),
            "__requires" | "__assume" if args.len() == 1 && !want => {
                let c = self.condition(&args[0])?;
                self.emit(StmtKind::Assume { cond: c });
                return Ok(None);
            }
            _ if super::IGNORED_ANNOTATIONS.contains(&name) && !want => return Ok(None),
            "__implies" if args.len() == 2 => {
                let a = self.condition(&args[0])?;
                let b = self.condition(&args[1])?;
                return Ok(Some((Expr::bin(BinOp::Or, not(a), b), Ty::Int)));
            }
            "__is_pow2" if args.len() == 1 => {
                let (x, _) = self.rvalue(&args[0])?;
                let below = Expr::bin(BinOp::Sub, x.clone(), Expr::Const(1));
                let pow2 = Expr::bin(
                    BinOp::And,
                    Expr::bin(BinOp::Ne, x.clone(), Expr::Const(0)),
                    Expr::bin(BinOp::Eq, Expr::bin(BinOp::BitAnd, x, below), Expr::Const(0)),
                );
                return Ok(Some((pow2, Ty::Int)));
            }
            "__brev" if args.len() == 1 => {
                let a = self.rvalue_as(&args[0], Ty::UInt)?;
                return Ok(Some(self.bit_reverse(a)));
            }
            // 24-bit multiplies: the low 32 bits of the product of the operands' low 24 bits
            // (sign-extended for `__mul24`), exactly.
            "__mul24" | "__umul24" if args.len() == 2 => {
                let t = if name == "__umul24" { Ty::UInt } else { Ty::Int };
                let low24 = |e: Expr| match t {
                    Ty::UInt => Expr::bin(BinOp::BitAnd, e, Expr::Const(0x00ff_ffff)),
                    _ => Expr::bin(BinOp::Shr, Expr::bin(BinOp::Shl, e, Expr::Const(8)), Expr::Const(8)),
                };
                let a = low24(self.rvalue_as(&args[0], t)?);
                let b = low24(self.rvalue_as(&args[1], t)?);
                return Ok(Some((Expr::bin(BinOp::Mul, a, b), t)));
            }
            "abs" | "labs" | "llabs"
                if args.len() == 1
                    && args[0].ty.as_deref().and_then(|t| self.scalar_of(t)) != Some(Ty::Float) =>
            {
                let (a, _) = self.rvalue(&args[0])?;
                let neg = Expr::bin(BinOp::Lt, a.clone(), Expr::Const(0));
                let minus = Expr::Unary(UnOp::Neg, Box::new(a.clone()));
                return Ok(Some((Expr::Select(Box::new(neg), Box::new(minus), Box::new(a)), Ty::Int)));
            }
            "min" | "max" | "umin" | "umax" if args.len() == 2 => {
                let x = self.rvalue(&args[0])?;
                let y = self.rvalue(&args[1])?;
                let t = if x.1 == Ty::Float || y.1 == Ty::Float {
                    Ty::Float
                } else if x.1 == Ty::UInt || y.1 == Ty::UInt {
                    Ty::UInt
                } else {
                    Ty::Int
                };
                let (a, b) = (convert(x.0, x.1, t), convert(y.0, y.1, t));
                let is_min = name.ends_with("min");
                return Ok(Some(match t {
                    Ty::Int => (Expr::bin(if is_min { BinOp::Min } else { BinOp::Max }, a, b), t),
                    Ty::UInt => {
                        let lt = Expr::bin(BinOp::ULt, a.clone(), b.clone());
                        let (p, q) = if is_min { (a, b) } else { (b, a) };
                        (Expr::Select(Box::new(lt), Box::new(p), Box::new(q)), t)
                    }
                    Ty::Float => (Expr::Call(if is_min { "fminf" } else { "fmaxf" }.into(), vec![a, b]), t),
                }));
            }
            _ => {}
        }
        if let Some(r) = self.curand_call(n, name) {
            return Ok(r?.into_iter().next());
        }
        match name {
            // A write with a cache hint is a write (of a vector: the stand-in header's body,
            // a plain store, inlined).
            "__stcg" | "__stcs" | "__stwb" | "__stwt"
                if args.len() == 2 && !want && self.scalar_pointee(&args[0]) =>
            {
                let (array, index, ty) = self.pointee_element(&args[0], n)?;
                let value = self.rvalue_as(&args[1], ty)?;
                self.emit(StmtKind::Write { array, index, value, width: Width::ONE, mode: WriteMode::Plain });
                return Ok(None);
            }
            // A read through the read-only cache is a read (of a vector: the stand-in header's
            // body, a plain load, inlined).
            _ if CACHED_LOADS.contains(&name) && args.len() == 1 && self.scalar_pointee(&args[0]) => {
                let (array, index, ty) = self.pointee_element(&args[0], n)?;
                let dst = self.temp(None);
                self.emit(StmtKind::Read { dst: dst.clone(), array, index, width: Width::ONE });
                return Ok(Some((Expr::Var(dst), ty)));
            }
            // Output of the host's console: no memory of the kernel changes. A failed `assert`
            // stops its thread; taking it to go on only adds executions.
            "printf" | "__assert_fail" | "__assertfail" | "__trap" | "__brkpt" if !want => {
                for a in &args[1.min(args.len())..] {
                    if a.ty.as_deref().and_then(|t| self.scalar_of(t)).is_some() {
                        self.rvalue(a)?;
                    }
                }
                return Ok(None);
            }
            // `sincosf(x, &s, &c)`: two results stored through the pointers.
            "sincosf" | "__sincosf" | "sincos" | "sincospif" if args.len() == 3 && !want => {
                let (x, _) = self.rvalue(&args[0])?;
                let base = name.trim_start_matches('_').trim_end_matches('f');
                for (arg, part) in [(&args[1], "sin"), (&args[2], "cos")] {
                    // A local's address (`&s`) is the local itself: KPL locals have no address.
                    let target = match self.address_arg(arg) {
                        Some(Binding::VarPtr { kpl, ty }) => Target::Var { kpl, ty },
                        _ => {
                            let (array, index, ty) = self.pointee_element(arg, n)?;
                            Target::Elem { array, index, ty }
                        }
                    };
                    let value = Expr::Call(format!("{base}_{part}"), vec![x.clone()]);
                    self.store(target, value, Ty::Float);
                }
                return Ok(None);
            }
            _ => {}
        }
        let (plain, scope) = AtomicScope::of_cuda_name(name);
        // `atomicCAS(p, compare, v)`: one atomic read-modify-write of `*p`. KPL has no
        // compare-and-swap: it is `exch` with the value CAS may store (the oracle takes the
        // memory after any atomic as unknown, so only the access matters to it); `compare` is
        // evaluated for its reads.
        let cas = plain == "atomicCAS" && args.len() == 3;
        if let Some(op) = AtomicOp::from_cuda(plain).or(cas.then_some(AtomicOp::Exch)) {
            let (target, value) = match args {
                [t, v] => (t, v),
                [t, compare, v] if cas => {
                    self.rvalue(compare)?;
                    (t, v)
                }
                _ => return Err(self.unsupported(format!("`{name}` with {} arguments", args.len()), n)),
            };
            let (v, vt) = self.rvalue(value)?;
            let (array, index, ty) = self.pointee_element(target, n)?;
            let dst = want.then(|| self.temp(None));
            self.emit(StmtKind::Atomic {
                dst: dst.clone(),
                op,
                array,
                index,
                value: convert(v, vt, ty),
                scope,
                width: Width::ONE,
            });
            return Ok(dst.map(|d| (Expr::Var(d), ty)));
        }
        let callee = n.children.first().map(strip_callee);
        if let Some(NodeKind::DeclRef { decl_id, .. }) = callee.map(|c| &c.kind) {
            let model = self.model;
            if let Some(f) = model.definition(decl_id) {
                return self.inline(n, f, args);
            }
            // A function of the user's files defined elsewhere (a library, another file).
            if model.by_id(decl_id).is_some() {
                return self.undefined_call(n, name, args, want);
            }
        }
        let ret = n.ty.as_deref().unwrap_or("void");
        let rt = self.scalar_of(ret);
        if ret != "void" && rt.is_none() {
            return Err(self.unsupported(format!("a call of `{name}` returning `{ret}`"), n));
        }
        let vals = self.opaque_args(name, args, n)?;
        match rt {
            // Without arguments (`clock()`), a value no function of anything: unknown per call.
            Some(t) if vals.is_empty() => {
                let u = self.fresh(&format!("_{}", name.trim_start_matches('_')));
                self.emit(StmtKind::Local { name: u.clone(), init: None });
                Ok(Some((Expr::var(&u), t)))
            }
            Some(t) => Ok(Some((Expr::Call(name.to_string(), vals), t))),
            None => {
                Err(self.unsupported(format!("a call of `{name}` (device functions are not inlined yet)"), n))
            }
        }
    }

    /// A call of a function the file declares but does not define (docs/cuda.md's
    /// model, docs/cuda.md "Calls"), with a warning naming it: without pointer arguments a pure
    /// function of its arguments; through each pointer argument one read and (unless it points
    /// to `const`) one write of the array at an arbitrary index of the thread, so every race the
    /// function could take part in can be found; a local whose address is passed gets an
    /// arbitrary value; the result is arbitrary.
    fn undefined_call(&mut self, n: &Node, name: &str, args: &[Node], want: bool) -> R<Option<(Expr, Ty)>> {
        let is_ptr = |a: &Node| a.ty.as_deref().is_some_and(|t| t.contains('*') || t.contains('['));
        let at = self.span_of(n).unwrap_or(self.cur_span);
        let mut reached = Vec::new();
        let ret = n.ty.as_deref().unwrap_or("void");
        if !args.iter().any(is_ptr) {
            self.warnings.push(
                Diagnostic::warning(format!("call to `{name}`, which has no definition in this file"), at)
                    .with_note("modelled as an opaque pure function of its arguments"),
            );
            let rt = self.scalar_of(ret);
            let vals = self.opaque_args(name, args, n)?;
            return match rt {
                Some(t) => Ok(Some((Expr::Call(name.to_string(), vals), t))),
                None if ret == "void" => Ok(None),
                None => Err(self.unsupported(format!("a call of `{name}` returning `{ret}`"), n)),
            };
        }
        for a in args {
            if !is_ptr(a) {
                if a.ty.as_deref().and_then(|t| self.scalar_of(t)).is_some() {
                    self.rvalue(a)?;
                }
                continue;
            }
            let arbitrary = |lx: &mut Self| {
                let u = lx.fresh("_any");
                lx.emit(StmtKind::Local { name: u.clone(), init: None });
                Expr::var(&u)
            };
            if let Some(l) = self.address_of_local_record(a) {
                for b in &l.fields {
                    if let Binding::Scalar { kpl, .. } = b {
                        let v = arbitrary(self);
                        self.emit(StmtKind::Assign { name: kpl.clone(), value: v });
                    }
                }
                continue;
            }
            if let Some(Binding::VarPtr { kpl, .. }) = self.address_arg(a) {
                let v = arbitrary(self);
                self.emit(StmtKind::Assign { name: kpl, value: v });
                continue;
            }
            let (array, _, _) = self.pointer(strip(a))?;
            if self.is_view(&array) {
                // Its body may step into any row: no single row's accesses stand for it.
                return Err(self.unsupported(
                    format!("a pointer into a row of a multi-dimensional array passed to `{name}`, which has no body"),
                    a,
                ));
            }
            let read_only =
                a.ty.as_deref().and_then(pointee).is_some_and(|p| p.split_whitespace().any(|w| w == "const"));
            let i = arbitrary(self);
            let index = self.row_index(&array, vec![i]);
            let dst = self.temp(None);
            self.emit(StmtKind::Read { dst, array: array.clone(), index, width: Width::ONE });
            if !read_only {
                let i = arbitrary(self);
                let index = self.row_index(&array, vec![i]);
                let value = arbitrary(self);
                self.emit(StmtKind::Write {
                    array: array.clone(),
                    index,
                    value,
                    width: Width::ONE,
                    mode: WriteMode::Plain,
                });
            }
            let source = self
                .source_arrays
                .iter()
                .find(|(k, _)| *k == array)
                .and_then(|(_, v)| v.names.first().cloned());
            reached.push(format!("`{}`", source.unwrap_or(array)));
        }
        self.warnings.push(
            Diagnostic::warning(format!("call to `{name}`, which has no definition in this file"), at)
                .with_note(format!(
                    "modelled as an opaque call: it may read and write any element reachable through {}",
                    reached.join(", ")
                )),
        );
        match self.scalar_of(ret) {
            Some(t) if want => {
                let u = self.fresh("_result");
                self.emit(StmtKind::Local { name: u.clone(), init: None });
                Ok(Some((Expr::var(&u), t)))
            }
            _ => Ok(None),
        }
    }

    /// The arguments of a call of a function without a body, modelled as a pure function of
    /// their values: scalars, and the words of structs and vectors. One taking a pointer may
    /// write memory, so it is refused.
    fn opaque_args(&mut self, name: &str, args: &[Node], n: &Node) -> R<Vec<Expr>> {
        let mut vals = Vec::new();
        for a in args {
            let at = self.resolve(a.ty.as_deref().unwrap_or(""));
            if record::bare(&at).starts_with("texture<") {
                // A texture reference: a read-only handle, the same for every thread.
                vals.push(Expr::Const(0));
            } else if self.scalar_of(&at).is_some() {
                vals.push(self.rvalue(a)?.0);
            } else if let Some(layout) = self.layout_of(&at) {
                for v in self.record_values(a, &layout)? {
                    let record::Val::Scalar(e, _) = v else {
                        return Err(self.unsupported(
                            format!("a call of `{name}`, which has no body, with a struct holding pointers"),
                            n,
                        ));
                    };
                    vals.push(e);
                }
            } else {
                return Err(self.unsupported(
                    format!("a call of `{name}`, which has no body, with an argument of type `{at}`"),
                    n,
                ));
            }
        }
        Ok(vals)
    }

    /// A call of a function with a body, inlined: scalar arguments by value into fresh locals,
    /// pointer arguments as pointers into the caller's arrays; `return e` assigns a fresh
    /// local. The body's statements keep their own places (every copy of a statement has the
    /// same place), and a marker after the call carries the caller's.
    fn inline(&mut self, n: &Node, f: &'a Function, args: &[Node]) -> R<Option<(Expr, Ty)>> {
        let want = self.scalar_want(n);
        let slot = self.inline_into(n, f, args, want)?;
        Ok(scalar_result(slot))
    }

    /// The result a call `n` is inlined for: its scalar value. A value that is not a scalar
    /// (`float3 &operator*=`) is dropped: a caller needing it says so ("the value of …").
    fn scalar_want(&self, n: &Node) -> Option<Want> {
        self.scalar_of(n.ty.as_deref().unwrap_or("void")).map(Want::Scalar)
    }

    /// [`Self::inline`] with a result of the shape `want` (its slot is returned): scalar and
    /// record arguments by value into fresh locals, references as the caller's place, pointers
    /// as pointers.
    fn inline_into(
        &mut self,
        n: &Node,
        f: &'a Function,
        args: &[Node],
        want: Option<Want>,
    ) -> R<Option<Slot>> {
        if self.inlining.contains(&f.id) {
            return Err(self.unsupported(format!("a recursive call of `{}`", f.name), n));
        }
        if self.inlining.len() > crate::limits::MAX_INLINE_DEPTH {
            return Err(
                self.unsupported(format!("calls nested deeper than {}", crate::limits::MAX_INLINE_DEPTH), n)
            );
        }
        if f.params.len() != args.len() {
            return Err(self.unsupported(format!("a call of `{}` with default arguments", f.name), n));
        }
        // A left-out argument is the parameter's default (clang's `CXXDefaultArgExpr`).
        let defaulted: Vec<Node> = f
            .params
            .iter()
            .zip(args)
            .map(|(p, a)| match (&a.kind, &p.default) {
                (NodeKind::Other { kind }, Some(d)) if kind == "CXXDefaultArgExpr" => d.clone(),
                _ => a.clone(),
            })
            .collect();
        let args = &defaulted[..];
        let Some(body) = f.body.as_ref() else {
            return Err(self.unsupported(format!("a call of `{}`, which has no body", f.name), n));
        };
        let call_span = self.cur_span;
        let mut bound = Vec::new();
        let mut bound_groups = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            let ty = self.resolve(p.desugared.as_deref().unwrap_or(&p.ty));
            if let Some(l) = self.address_of_local_record(a) {
                // `f(&rng)` of a struct in locals: the parameter is those locals (`*p`, `p->x`).
                bound.push((p.id.clone(), Binding::Record(l)));
            } else if let Some(g) = self.group_param(&ty, a, n) {
                bound_groups.push((p.id.clone(), g?));
            } else if let Some(r) = self.pipeline_param(&p.id, &ty, a) {
                r?;
            } else if let Some(b) = self.ref_param(&ty, &p.name, &p.id, a, body) {
                bound.push((p.id.clone(), b?));
            } else if let Some(r) = self.fn_pointer_param(&ty, (&p.id, &p.name), a, body) {
                r?;
            } else if let Some(r) = self.fragment_param(&p.id, &ty, a) {
                r?;
            } else if let Some(b) = self.rows_param(&ty, a) {
                bound.push((p.id.clone(), b?));
            } else if let Some(b) = pointer_to_pointer(&ty).then(|| self.address_arg(a)).flatten() {
                // `advance(&p, k)` with `float **pp`: `*pp` is the caller's `p`.
                bound.push((p.id.clone(), b));
            } else if let Some(b) = pointee(&ty).and_then(|_| self.address_arg(a)) {
                bound.push((p.id.clone(), b));
            } else if pointee(&ty).is_some() {
                let (array, elem, off) = self.pointer(a)?;
                let offset = self.fresh(&format!("{}_at", p.name));
                self.emit(StmtKind::Local { name: offset.clone(), init: Some(off) });
                bound.push((p.id.clone(), Binding::Ptr { array, elem, offset }));
            } else if let Some(layout) = ty.strip_suffix('&').and_then(|t| self.layout_of(t.trim())) {
                // A reference to a struct: the caller's record, its place fixed at the call.
                let binding = match self.record_place(a)? {
                    record::Place::Locals(l) => Binding::Record(l),
                    record::Place::Memory(m) => {
                        let base = self.temp(Some(m.base.clone()));
                        Binding::RecordRef(Rc::new(record::InMemory {
                            array: m.array.clone(),
                            prefix: m.prefix.clone(),
                            base: Expr::var(&base),
                            layout,
                        }))
                    }
                };
                bound.push((p.id.clone(), binding));
            } else if let Some(layout) = self.layout_of(&ty) {
                let vals = self.record_values(a, &layout)?;
                let base = if p.name.is_empty() { "arg".to_string() } else { p.name.clone() };
                let place = self.record_store(&base, layout);
                self.write_record(place.clone(), vals, a)?;
                bound.push((p.id.clone(), Self::record_binding(place)));
            } else if let Some(t) = self.scalar_of(&ty) {
                let v = self.rvalue_as(a, t)?;
                let x = if p.name.is_empty() { self.fresh("arg") } else { self.declare(&p.name) };
                if let Some(c) = v.constant_value().filter(|_| !assigns(body, &p.id)) {
                    self.constant_locals.insert(x.clone(), c);
                }
                self.emit(StmtKind::Local { name: x.clone(), init: Some(v) });
                bound.push((p.id.clone(), Binding::Scalar { kpl: x, ty: t }));
            } else {
                return Err(
                    self.unsupported(format!("passing `{}` of type `{}` to `{}`", p.name, p.ty, f.name), n)
                );
            }
        }
        let result = match want {
            None => None,
            Some(Want::Scalar(t)) => Some(Slot::Scalar(self.temp(None), t)),
            Some(Want::Record(layout)) => Some(Slot::Record(self.record_temps(layout))),
            Some(Want::Pointer) => Some(Slot::Pointer(self.temp(None), None)),
            Some(Want::Place) => Some(Slot::Place(None)),
        };
        for (id, b) in bound {
            self.bindings.insert(id, b);
        }
        self.groups.extend(bound_groups);
        let parts = FunctionBody::of(body);
        let saved_ret = self.ret.take();
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_result = std::mem::replace(&mut self.result, result.clone());
        self.inlining.push(f.id.clone());
        self.bodies.push(body);
        let lowered = (|| -> R<()> {
            if parts.returns_early {
                self.ret = Some(self.flag("ret"));
                // The final `return` is one more statement of the list: after an early return
                // the rest runs under `if (!ret)`, and the locals it returns are declared there
                // (a separate guard after the list would read them out of their scope).
                let all: Vec<&Node> = parts.stmts.iter().copied().chain(parts.final_return).collect();
                self.seq(&all)?;
            } else {
                self.seq(&parts.stmts)?;
                if let (Some(r), Some(v)) =
                    (parts.final_return, parts.final_return.and_then(|r| r.children.first()))
                {
                    if let Some(s) = self.span_of(r) {
                        self.cur_span = s;
                    }
                    self.assign_result(v, r)?;
                }
            }
            Ok(())
        })();
        self.inlining.pop();
        self.bodies.pop();
        self.ret = saved_ret;
        self.loops = saved_loops;
        // The slot as the returns left it (a pointer's array is known after the first).
        let result = std::mem::replace(&mut self.result, saved_result);
        lowered?;
        self.cur_span = call_span;
        // The caller's place after the call goes on this marker, not on the body's last statement.
        self.temp(None);
        Ok(result)
    }
}

/// The scalar value an inlined call's slot holds, if it is one.
fn scalar_result(slot: Option<Slot>) -> Option<(Expr, Ty)> {
    match slot {
        Some(Slot::Scalar(r, t)) => Some((Expr::Var(r), t)),
        _ => None,
    }
}

/// A constructor call without arguments (`__shared__ float2 s[64];` default-constructs).
fn is_default_construction(n: &Node) -> bool {
    matches!(&n.kind, NodeKind::Other { kind } if kind == "CXXConstructExpr") && n.children.is_empty()
}

/// Whether `body` may change the declaration `id` or one of its members: assigns it or a member
/// (`s.p += k`, `s.n = 5`, `++s.n`), calls an operator on it (`s = t` of a struct), takes its or
/// a member's address, or passes it or a member as an lvalue (a reference argument may be
/// written). Over-approximates: an expression over `id` that this says is unchanged keeps its
/// value through the body.
fn may_change(body: &Node, id: &str) -> bool {
    // The declaration an lvalue is `id` or a member of (through `.`, not `->`: `p->x` is memory).
    fn base_is(n: &Node, id: &str) -> bool {
        let mut n = n;
        loop {
            match &n.kind {
                NodeKind::Paren => {}
                NodeKind::ImplicitCast { cast } if cast == "NoOp" => {}
                NodeKind::Other { kind } if kind == "MaterializeTemporaryExpr" => {}
                NodeKind::Member { arrow: false, .. } => {}
                NodeKind::DeclRef { decl_id, .. } => return decl_id == id,
                _ => return false,
            }
            match n.children.first() {
                Some(c) => n = c,
                None => return false,
            }
        }
    }
    body.walk().iter().any(|n| {
        let operands: &[Node] = match &n.kind {
            NodeKind::Binary { op } if op == "=" => &n.children[..1.min(n.children.len())],
            NodeKind::CompoundAssign { .. } => &n.children[..1.min(n.children.len())],
            NodeKind::Unary { op, .. } if matches!(op.as_str(), "++" | "--" | "&") => &n.children,
            // A method call's object (`s.reset()`) is its callee's base.
            NodeKind::OperatorCall { .. } | NodeKind::Call { .. } | NodeKind::MemberCall { .. } => {
                &n.children
            }
            _ => &[],
        };
        operands.iter().any(|o| base_is(o, id))
    })
}

/// Whether `body` assigns the declaration `id` (`=`, `op=`, `++`, `--`).
fn assigns(body: &Node, id: &str) -> bool {
    body.walk().iter().any(|n| {
        let target = match &n.kind {
            NodeKind::Binary { op } if op == "=" => n.children.first(),
            NodeKind::CompoundAssign { .. } => n.children.first(),
            NodeKind::Unary { op, .. } if op == "++" || op == "--" => n.children.first(),
            _ => None,
        };
        let named = |t: &Node| matches!(&strip(t).kind, NodeKind::DeclRef { decl_id, .. } if decl_id == id);
        // A pointer passed as an lvalue (no load around it) is bound to a reference parameter
        // (`swap(float *&a, float *&b)`), which may re-point it.
        let by_reference = matches!(n.kind, NodeKind::Call { .. } | NodeKind::MemberCall { .. })
            && n.children.iter().skip(1).any(|a| {
                let a = skip_parens(a);
                matches!(&a.kind, NodeKind::DeclRef { decl_id, .. } if decl_id == id) && is_pointer_typed(a)
            });
        // `&p` of a pointer: a pointer to it may re-point it (`*pp = q`).
        let address_taken = matches!(&n.kind, NodeKind::Unary { op, .. } if op == "&")
            && n.children.first().is_some_and(|c| {
                let c = skip_parens(c);
                matches!(&c.kind, NodeKind::DeclRef { decl_id, .. } if decl_id == id) && is_pointer_typed(c)
            });
        by_reference || address_taken || target.is_some_and(named)
    })
}

/// `n` without the parentheses around it.
fn skip_parens(mut n: &Node) -> &Node {
    while n.kind == NodeKind::Paren {
        match n.children.first() {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

/// The function a call's callee expression names, through the decay to a pointer.
fn strip_callee(n: &Node) -> &Node {
    match &n.kind {
        NodeKind::ImplicitCast { .. } | NodeKind::Paren => n.children.first().map_or(n, strip_callee),
        _ => n,
    }
}

/// Whether evaluating `n` may touch memory (an element, a dereference, a call).
fn touches_memory(n: &Node) -> bool {
    match &n.kind {
        // GPUVerify's ignored annotations lower to nothing (`__invariant(…), i < n`).
        NodeKind::Call { callee: Some(name) } if super::IGNORED_ANNOTATIONS.contains(&name.as_str()) => false,
        NodeKind::ArraySubscript
        | NodeKind::Call { .. }
        | NodeKind::MemberCall { .. }
        | NodeKind::OperatorCall { .. }
        | NodeKind::Member { arrow: true, .. } => true,
        NodeKind::Unary { op, .. } if op == "*" => true,
        // An effect on a local: the operators that evaluate their operands only where C does
        // (`&&`, `?:`) must keep it where C evaluates it, like a read of memory.
        NodeKind::Unary { op, .. } if op == "++" || op == "--" => true,
        _ => n.children.iter().any(touches_memory),
    }
}

/// `(void)e` and other discarded-value wrappers.
fn strip_discard(n: &Node) -> &Node {
    match &n.kind {
        NodeKind::CStyleCast { cast } if cast == "ToVoid" => n.children.first().map_or(n, strip_discard),
        NodeKind::Paren => n.children.first().map_or(n, strip_discard),
        NodeKind::Other { kind } if kind == "ExprWithCleanups" => n.children.first().map_or(n, strip_discard),
        _ => n,
    }
}

/// Whether an unsigned expression may stand for a signed number: it subtracts or negates, or
/// adds or multiplies with the signed no-wrap assumption (a signed operand was converted), so a
/// later unsigned sum with it keeps the signed reading (`(threadIdx.x - 1) * 4 + 8`
/// is `4 * threadIdx.x + 4` to the programmer, through a value near 2^32 in C).
fn mixed_signs(e: &Expr) -> bool {
    match e {
        Expr::Unary(UnOp::Neg, _)
        | Expr::Binary(
            BinOp::Sub | BinOp::Add | BinOp::Mul | BinOp::IUAdd | BinOp::UIAdd | BinOp::IUMul | BinOp::UIMul,
            ..,
        ) => true,
        Expr::Binary(BinOp::UAdd | BinOp::UMul, a, b) => mixed_signs(a) || mixed_signs(b),
        _ => false,
    }
}

/// Whether an unsigned value is below 2^31 whatever the no-wrap assumption says: a constant
/// there, a launch id or dimension (CUDA's limits), a `uadd`/`umul` (its own no-wrap condition
/// bounds its result), a quotient by or a remainder of a constant that keeps it there
/// (`udiv(u, 2)`, `urem(u, 32)`, `ushr(u, 1)`), a mask below 2^31 (`u & 255`).
fn below_2_31(e: &Expr) -> bool {
    let c = |e: &Expr| e.constant_value();
    match e {
        Expr::Const(v) => (*v as i32) >= 0,
        Expr::Builtin(_) | Expr::Binary(BinOp::UAdd | BinOp::UMul, ..) => true,
        Expr::Binary(BinOp::UDiv, _, d) => c(d).is_some_and(|d| d >= 2),
        Expr::Binary(BinOp::UShr, _, d) => c(d).is_some_and(|d| (1..32).contains(&d)),
        Expr::Binary(BinOp::URem, _, d) => c(d).is_some_and(|d| (1..=1 << 31).contains(&d)),
        Expr::Binary(BinOp::BitAnd, x, y) => [x, y].iter().any(|v| c(v).is_some_and(|v| (v as i32) >= 0)),
        _ => false,
    }
}

/// A value of class `from` as class `to` (floats are opaque: conversions are calls).
fn convert(e: Expr, from: Ty, to: Ty) -> Expr {
    match (from, to) {
        (Ty::Float, Ty::Int) => Expr::Call("f2i".into(), vec![e]),
        (Ty::Float, Ty::UInt) => Expr::Call("f2u".into(), vec![e]),
        (Ty::Int, Ty::Float) => Expr::Call("i2f".into(), vec![e]),
        (Ty::UInt, Ty::Float) => Expr::Call("u2f".into(), vec![e]),
        _ => e,
    }
}

/// A decimal integer as a 32-bit word (two's complement for negative values).
fn parse_int(s: &str) -> Option<u32> {
    if let Ok(v) = s.parse::<i64>() {
        return Some(v as u32);
    }
    s.parse::<u64>().ok().map(|v| v as u32)
}

/// A kernel's refusal `d` with the kernel's other constructs that are never modelled (inline
/// `asm`, `goto`, …) as secondary labels, "also unsupported: …": the user sees at once all that
/// keeps the kernel from being checked, not one construct per run. What only follows from the
/// first refusal (a member of a refused parameter) is not listed.
fn also_unsupported(mut d: Diagnostic, f: &Function, name: &str, file: &str, text: &str) -> Diagnostic {
    let Some(body) = &f.body else { return d };
    let mut more = 0;
    for n in body.walk() {
        let Some(r) = n.range.as_ref().filter(|r| &*r.file == file && r.end <= text.len()) else { continue };
        let span = Span::new(r.start.offset, r.end);
        let construct = match kind_name(n).as_str() {
            // An `asm` statement is modelled when every instruction of it is in the table.
            "GCCAsmStmt" => {
                match text.get(span.start..span.end).and_then(|t| async_copy::unmodelled_asm(text, t)) {
                    Some(instr) => format!("inline `asm` (`{instr}`)"),
                    None => continue,
                }
            }
            _ => construct_name(n),
        };
        if construct.starts_with("this construct") {
            continue;
        }
        if d.span.is_some_and(|at| span.start <= at.start && at.start < span.end.max(span.start + 1)) {
            continue;
        }
        d = d.with_secondary(span, format!("also unsupported: {construct}"));
        more += 1;
    }
    if more > 0 {
        d = d.with_note(format!(
            "kernel `{name}` is not analysed: it uses {more} more construct(s) autosync does not model (marked)"
        ));
    }
    d
}

/// What a construct the lowering does not model is called in a refusal.
fn construct_name(n: &Node) -> String {
    let kind = kind_name(n);
    let words = match kind.as_str() {
        // An `asm` statement is refused with its instruction where it is not in the table.
        "MSAsmStmt" => "inline `asm`",
        "GotoStmt" => "`goto`",
        "IndirectGotoStmt" => "a computed `goto`",
        "LabelStmt" => "a label (a `goto` target)",
        "CXXForRangeStmt" => "a range-based `for`",
        "CXXTryStmt" => "`try`",
        "CXXThrowExpr" => "`throw`",
        "LambdaExpr" => "a lambda",
        "CXXNewExpr" => "`new`",
        "CXXDeleteExpr" => "`delete`",
        "StmtExpr" => "a statement expression (`({ … })`)",
        "CoroutineBodyStmt" | "CoreturnStmt" | "CoawaitExpr" | "CoyieldExpr" => "a coroutine",
        _ => return format!("this construct ({kind})"),
    };
    words.to_string()
}

fn kind_name(n: &Node) -> String {
    match &n.kind {
        NodeKind::Other { kind } => kind.clone(),
        k => format!("{k:?}").split([' ', '{', '(']).next().unwrap_or("?").to_string(),
    }
}

/// Lowers every kernel the file `options.path` (whose text is `source`) defines or includes
/// from a header of its own, in source order: each template instance clang made, the generic
/// instance of a template the file never instantiates, or with `only` the kernels of that name
/// or instance name. The geometry comes from the command line, the header comment and the
/// file's launches (unless `no_launch_facts`). A kernel clang reported errors in, or one using
/// what the lowering does not model, is refused with the reason at its place; a file without
/// kernels is `Ok` with none.
///
/// Errors: clang missing or failing, a directive error, no kernel named `only`, an `--assume`
/// expression clang rejects, or clang's errors with no kernel left.
pub fn lower_file(source: &str, options: &super::FrontEndOptions) -> R<super::LoweredFile> {
    let given = options.path.as_deref().unwrap_or(std::path::Path::new("input.cu"));
    // clang reads files, and the text analysed is `source`: where the file holds other bytes
    // (no file, a kernel with its barriers stripped, a patched text re-checked) clang reads a
    // copy of `source`, and the file's own directory is searched for its quoted includes.
    let copy = if holds(given, source) {
        None
    } else {
        let fail = |e: std::io::Error| {
            Diagnostic::error(format!("cannot write a copy for clang: {e}"), Span::new(0, 0))
        };
        let dir = tempfile::Builder::new().prefix("autosync-text-").tempdir().map_err(fail)?;
        let name = given.file_name().map_or_else(|| "input.cu".into(), |n| n.to_os_string());
        let file = dir.path().join(name);
        std::fs::write(&file, source).map_err(fail)?;
        Some((dir, file))
    };
    let path: &std::path::Path = copy.as_ref().map_or(given, |(_, f)| f.as_path());
    let header = crate::kpl::header::parse_header_lenient(source)?;
    let geometry = header.geometry.overridden_by(&options.command_line);
    let exe = clang_exe().map_err(|e| Diagnostic::error(e, Span::new(0, 0)))?;
    let defines: Vec<String> = header
        .defines
        .iter()
        .chain(&options.defines)
        .map(|(n, v)| match v {
            Some(v) => format!("{n}={v}"),
            None => n.clone(),
        })
        .collect();
    let mut opts = super::ParseOptions {
        include_dirs: options.include_dirs.clone(),
        defines,
        ..super::ParseOptions::default()
    };
    if copy.is_some() {
        let dir = given.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        opts.extra_args = vec!["-iquote".into(), dir.display().to_string()];
    }
    let parse = |opts: &super::ParseOptions| {
        super::parse_file(&exe, path, opts).map_err(|e| match e {
            e if e.is_nesting() => Diagnostic::error("nesting too deep", Span::new(0, 0)).with_note(
                "the file nests statements or expressions more deeply than autosync reads (about 100 levels)",
            ),
            e => Diagnostic::error(e.to_string(), Span::new(0, 0)),
        })
    };
    let mut parsed = parse(&opts)?;
    // Template kernels the file never instantiates are checked through an instance clang makes
    // at the end of the file: `--template-arg` values, the defaults, and `float` for a type
    // parameter left open (the generic instance, `k<T>`).
    let mut generic = generic_instances(&parsed.model, path, &options.template_args);
    let mut refused = std::mem::take(&mut generic.refused);
    // `--assume` expressions become device functions over each kernel's parameters, read by
    // clang after the file (its macros, types and names apply) and lowered at the kernel's start.
    let assumed = assumption_decls(&parsed.model, &generic, &options.assumptions);
    if !assumed.decls.is_empty() {
        opts.appendix_decls = Some(assumed.decls.clone());
    }
    if !generic.appendix.is_empty() || !assumed.decls.is_empty() {
        opts.appendix = Some(generic.appendix.clone());
        parsed = parse(&opts)?;
        if let Some(d) = parsed.diagnostics.iter().find(|d| {
            matches!(d.severity, super::Severity::Error | super::Severity::Fatal)
                && d.file.as_deref().is_some_and(|f| f.ends_with(super::APPENDIX_DECLS_FILE))
        }) {
            let shown = (d.line as usize)
                .checked_sub(ASSUME_PRELUDE_LINES + 1)
                .and_then(|i| assumed.texts.get(i % options.assumptions.len().max(1)))
                .cloned()
                .unwrap_or_default();
            return Err(Diagnostic::error(
                format!("in `--assume '{shown}'`: {}", d.message),
                Span::new(0, 0),
            )
            .with_note("the expression is read in the scope of each kernel's parameters"));
        }
        // An argument clang rejects (`--template-arg T=Nope`) is an error at the appendix.
        for d in parsed.diagnostics.iter().filter(|d| {
            matches!(d.severity, super::Severity::Error | super::Severity::Fatal)
                && d.file.is_some()
                && d.file == parsed.appendix_file
        }) {
            let Some((name, at)) = (d.line as usize).checked_sub(2).and_then(|i| generic.order.get(i)) else {
                continue;
            };
            refused.push(
                Diagnostic::error(format!("the instance `{name}` of this template kernel does not compile: {}", d.message), *at)
                    .with_label("template kernel")
                    .with_note("its arguments come from `--template-arg`, the template's defaults, and `float` for a type parameter left open"),
            );
        }
    }
    let main_file = parsed
        .model
        .functions
        .iter()
        .filter(|f| f.is_kernel())
        .filter_map(|f| f.range.as_ref())
        .map(|r| r.file.clone())
        .find(|file| same_path(file, path));
    // An error on a directive of the file (`#else` twice, `#error`, a malformed `#if`)
    // leaves no program nvcc would compile: the file is refused there, whatever clang
    // recovered. Errors elsewhere are the kernels' (refused one by one) or host code's.
    let on_directive = |d: &&super::ClangDiagnostic| {
        let Some(file) = d.file.as_deref() else { return false };
        if file == "<command line>" || file == "<built-in>" {
            return true;
        }
        let text =
            if same_path(file, path) { Some(source.to_string()) } else { std::fs::read_to_string(file).ok() };
        text.as_deref().and_then(|t| line_text(t, d.line)).is_some_and(|l| l.trim_start().starts_with('#'))
    };
    let directive_error = parsed
        .diagnostics
        .iter()
        .filter(|d| matches!(d.severity, super::Severity::Error | super::Severity::Fatal))
        .find(on_directive);
    if let Some(d) = directive_error {
        let in_main = d.file.as_deref().is_some_and(|f| same_path(f, path));
        let at = if in_main { offset_of(source, d.line, d.col).unwrap_or(0) } else { 0 };
        let mut diag = Diagnostic::error(d.message.clone(), Span::new(at, at));
        if !in_main {
            diag = diag.with_note(format!("in {}:{}:{}", d.file.as_deref().unwrap_or("?"), d.line, d.col));
        }
        return Err(diag);
    }
    let mut warnings = header.warnings;
    for note in &parsed.notes {
        warnings.push(Diagnostic::warning(note.message.clone(), Span::new(0, 0)));
    }
    let mut kernels = Vec::new();
    // What the host code says about the launches (header and command line override it).
    let launches = (!options.no_launch_facts).then(|| super::launch::HostLaunches::collect(&parsed.model));
    let overrides = crate::launch_facts::Overrides {
        header: header.geometry.clone(),
        command_line: options.command_line.clone(),
    };
    // clang names the main file as it was given (a kernel there shows the spelling).
    let file: std::sync::Arc<str> = main_file.unwrap_or_else(|| path.display().to_string().into());
    // The kernels lowered or refused: clang's errors inside them are theirs.
    let mut handled: Vec<&SrcRange> = Vec::new();
    let mut headers: HashMap<std::sync::Arc<str>, Option<std::sync::Arc<crate::diag::SourceFile>>> =
        HashMap::new();
    for f in parsed.model.kernels() {
        if f.is_template_pattern || f.body.is_none() {
            continue;
        }
        handled.extend(f.range.as_ref());
        // A kernel of a header the file includes is the file's too (the host code launching it
        // is here) when the file has a quoted `#include` (with angled ones only, its headers
        // are taken for system and library ones and their kernels skipped). It is lowered
        // against the header's text and reported there, with the `#include` chain as notes,
        // and nothing is inserted into it (its places are not placeable); where the chain
        // cannot be followed or the header read, it is reported at the file's `#include` line
        // that names it (else the first quoted one: `outside`).
        let Some(kernel_file) = f.range.as_ref().map(|r| r.file.clone()) else { continue };
        let (in_header, outside) = if kernel_file == file {
            (None, None)
        } else {
            let Some(at) = include_line(source, given, &options.include_dirs, &kernel_file) else { continue };
            // Read once per header, whatever number of kernels (instances) it holds.
            let found = headers
                .entry(kernel_file.clone())
                .or_insert_with(|| header_file(source, given, &options.include_dirs, &kernel_file))
                .clone();
            match found {
                Some(h) => (Some(h), None),
                None => (None, Some(at)),
            }
        };
        // The text the kernel's clang offsets are into, and its diagnostics located there.
        let text: &str = in_header.as_ref().map_or(source, |h| h.text.as_str());
        let locate = |d: Diagnostic| match &in_header {
            Some(h) => d.in_file(h),
            None => d,
        };
        let name =
            generic.references.get(&template_key(f)).map_or_else(|| instance_name(f), |(n, _)| n.clone());
        if let Some(only) = &options.only {
            if *only != f.name && *only != name {
                continue;
            }
        }
        if let Some(e) = f.errors.first() {
            let at = offset_of(text, e.line, e.col).unwrap_or(0);
            refused.push(locate(Diagnostic::error(e.message.clone(), Span::new(at, at)).with_note(format!(
                "clang reported this error in kernel `{name}`, so the kernel is not checked"
            ))));
            continue;
        }
        // An initializer another one overrides is not in clang's tree, and C leaves open
        // whether it is evaluated: its accesses could race unseen.
        let overridden = parsed.diagnostics.iter().find(|d| {
            d.message.starts_with("initializer overrides prior initialization")
                && d.file.as_deref().is_some_and(|df| {
                    f.range.as_ref().is_some_and(|r| same_path(df, std::path::Path::new(&*r.file)))
                })
                && f.range.as_ref().is_some_and(|r| r.contains_line_col(d.line, d.col))
        });
        if let Some(d) = overridden {
            let at = offset_of(text, d.line, d.col).unwrap_or(0);
            refused.push(locate(
                Diagnostic::error("unsupported: an initializer overridden by a later one", Span::new(at, at))
                    .with_note("whether the overridden initializer runs is left open by C; its accesses are not modelled")
                    .with_note(format!("kernel `{name}` is not analysed")),
            ));
            continue;
        }
        let assumptions: Vec<(&Function, &str)> = match assumed.kernels.get(&assumption_key(&name, f)) {
            Some(k) => options
                .assumptions
                .iter()
                .enumerate()
                .filter_map(|(j, text)| {
                    let wanted = format!("__autosync_assume_{k}_{j}");
                    parsed
                        .model
                        .functions
                        .iter()
                        .find(|a| a.name == wanted && a.body.is_some())
                        .map(|a| (a, text.as_str()))
                })
                .collect(),
            None => Vec::new(),
        };
        if assumptions.len() != options.assumptions.len() {
            refused.push(locate(Diagnostic::error(
                format!("kernel `{name}`: the `--assume` expressions could not be read in its scope"),
                f.name_range.as_ref().map_or(Span::new(0, 0), |r| Span::new(r.start.offset, r.end)),
            )));
            continue;
        }
        let lowered_file: &str = if in_header.is_some() { &kernel_file } else { &file };
        let site = KernelSite { src: text, file: lowered_file, outside, assumptions: &assumptions };
        let mut kernel_warnings = Vec::new();
        let lowered = lower_kernel(f, name.clone(), &site, &parsed.model, &mut kernel_warnings);
        warnings.extend(kernel_warnings.into_iter().map(locate));
        match lowered {
            // The invariant of `limits`: no kernel past this bound reaches a recursive pass
            // (inlining multiplies the depth clang's tree allows).
            Ok(kernel) if kernel.nesting() > crate::limits::MAX_KERNEL_NESTING => {
                let at = f.name_range.as_ref().map_or(Span::new(0, 0), |r| Span::new(r.start.offset, r.end));
                refused.push(locate(Diagnostic::error("nesting too deep", at).with_note(format!(
                    "kernel `{name}` nests statements and expressions more than {} levels deep once lowered (calls inlined)",
                    crate::limits::MAX_KERNEL_NESTING
                ))));
            }
            Ok(mut kernel) => {
                if let Some(h) = &in_header {
                    // `fix` edits the file it is given only: no barrier goes into the header.
                    let why = format!("in the included header `{}`, which `fix` does not edit", h.name);
                    for p in &mut kernel.places {
                        *p = Place::Not(why.clone());
                    }
                    kernel.file = Some(std::sync::Arc::clone(h));
                }
                if let Some(at) = outside {
                    let header = std::path::Path::new(&*kernel_file)
                        .file_name()
                        .map_or_else(|| kernel_file.to_string(), |n| n.to_string_lossy().into_owned());
                    warnings.push(Diagnostic {
                        severity: crate::diag::Severity::Note,
                        ..Diagnostic::error(
                            format!("kernel `{name}` is written in the included `{header}`: its findings are shown at this `#include`"),
                            at,
                        )
                    });
                }
                kernel.geometry = geometry.clone();
                if let Some(l) = &launches {
                    // Which dimensions the kernel names: its header's text and the file's.
                    let named = if in_header.is_some() { format!("{text}\n{source}") } else { String::new() };
                    let named = if in_header.is_some() { named.as_str() } else { source };
                    l.apply(&mut kernel, f, &parsed.model, &overrides, &geometry, named);
                }
                kernels.push(kernel);
            }
            Err(d) => refused.push(locate(also_unsupported(d, f, &name, lowered_file, text))),
        }
    }
    if let Some(only) = &options.only {
        if kernels.is_empty() && refused.is_empty() {
            let mut names: Vec<String> = Vec::new();
            for f in parsed.model.kernels().filter(|f| f.body.is_some()) {
                if f.range.as_ref().is_some_and(|r| r.file == file) && !names.contains(&f.name) {
                    names.push(f.name.clone());
                }
            }
            return Err(no_such_kernel(only, &names));
        }
    }
    // No kernel, and headers were missing: the kernels may be behind them (`#ifdef` of a macro
    // a missing header defines); say so where the user looks.
    if kernels.is_empty() && refused.is_empty() && !parsed.notes.is_empty() {
        let mut d = Diagnostic::error("no `__global__` kernel in this file", Span::new(0, 0));
        for note in &parsed.notes {
            d = d.with_note(note.message.clone());
        }
        return Err(d.with_note("help: `-I DIR` adds a directory to search for included files"));
    }
    // A kernel template of this file whose body clang could not compile has no instance to
    // check (clang drops the instantiation): refused with clang's error, never skipped.
    for p in parsed.model.kernels().filter(|f| f.is_template_pattern && f.body.is_some()) {
        let Some(range) = p.range.as_ref().filter(|r| r.file == file) else { continue };
        if options.only.as_ref().is_some_and(|only| *only != p.name) || handled.contains(&range) {
            continue;
        }
        let inside = parsed.diagnostics.iter().find(|d| {
            matches!(d.severity, super::Severity::Error | super::Severity::Fatal)
                && d.file.as_deref().is_some_and(|f| same_path(f, path))
                && range.contains_line_col(d.line, d.col)
        });
        if let Some(e) = inside {
            let at = offset_of(source, e.line, e.col).unwrap_or(0);
            refused.push(
                Diagnostic::error(
                    format!("kernel `{}` is not checked: clang could not compile it: {}", p.name, e.message),
                    Span::new(at, at),
                )
                .with_note("clang drops the instances of a template whose body has an error, so no instance of this kernel is left to verify")
                .with_note("help: a missing or stand-in header is the usual cause; `-I DIR` adds a directory to search for included files"),
            );
            handled.push(range);
        }
    }
    // clang's errors outside every kernel (host code, file scope) leave the kernels as clang
    // recovered them: with no kernel left the first one is the file's error, else a warning.
    let outside_kernels = parsed.diagnostics.iter().filter(|d| {
        matches!(d.severity, super::Severity::Error | super::Severity::Fatal)
            && d.file.as_deref().is_some_and(|f| same_path(f, path))
            && !handled.iter().any(|r| r.contains_line_col(d.line, d.col))
    });
    let errors: Vec<&super::ClangDiagnostic> = outside_kernels.collect();
    if let Some(first) = errors.first() {
        let at = offset_of(source, first.line, first.col).unwrap_or(0);
        if kernels.is_empty() && refused.is_empty() {
            return Err(Diagnostic::error(first.message.clone(), Span::new(at, at))
                .with_note("clang reported this error and found no kernel it could read in this file"));
        }
        warnings.push(
            Diagnostic::warning(
                format!(
                    "clang reported {} error(s) outside the kernels (this one first): {}",
                    errors.len(),
                    first.message
                ),
                Span::new(at, at),
            )
            .with_note("nvcc would not compile this file; its kernels are checked as clang read them"),
        );
    }
    Ok(super::LoweredFile { kernels, warnings, refused })
}

/// The error for `--kernel NAME` when the file defines no kernel of that name: the closest
/// names (by Jaro-Winkler similarity, as a reader's typo or a shortened name), or the file's
/// kernels when none is close.
fn no_such_kernel(name: &str, names: &[String]) -> Diagnostic {
    let mut d =
        Diagnostic::error(format!("no `__global__` kernel named `{name}` in this file"), Span::new(0, 0));
    let mut close: Vec<(f64, &String)> = names
        .iter()
        .map(|n| (strsim::jaro_winkler(&name.to_lowercase(), &n.to_lowercase()), n))
        .filter(|(score, _)| *score >= crate::limits::KERNEL_NAME_SIMILARITY)
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let quoted = |ns: &[&String]| ns.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    if !close.is_empty() {
        let best: Vec<&String> = close.iter().take(3).map(|(_, n)| *n).collect();
        d = d.with_note(format!("help: did you mean {}?", quoted(&best).replace(", ", " or ")));
    } else if names.is_empty() {
        d = d.with_note("the file defines no `__global__` function");
    } else {
        let all: Vec<&String> = names.iter().collect();
        d = d.with_note(format!("the file's kernels: {}", quoted(&all)));
    }
    d
}

/// The `--assume` expressions as C++ for clang: one device function per kernel and
/// expression, `__autosync_assume_K_J`, whose parameters have the kernel's types (taken from
/// the kernel's own type, so no type is spelled) and names and which returns the expression.
struct AssumptionDecls {
    /// The header text (empty without assumptions).
    decls: String,
    /// Each function's expression as the user wrote it, in the header's line order.
    texts: Vec<String>,
    /// Kernel K's key ([`assumption_key`]) and K.
    kernels: HashMap<String, usize>,
}

/// Lines of the header before the first assumption (the parameter-type helper).
const ASSUME_PRELUDE_LINES: usize = 3;

/// What tells a kernel (an instance) apart across parses: its name in reports and its place.
fn assumption_key(display: &str, f: &Function) -> String {
    format!("{display}|{}", template_key(f))
}

/// The header of `--assume` functions ([`AssumptionDecls`]) for every kernel of `model` and the
/// generic instances `generic` will make; empty without assumptions.
fn assumption_decls(
    model: &super::Model,
    generic: &GenericInstances,
    assumptions: &[String],
) -> AssumptionDecls {
    let mut out = AssumptionDecls { decls: String::new(), texts: Vec::new(), kernels: HashMap::new() };
    if assumptions.is_empty() {
        return out;
    }
    // The type of parameter I of a function pointer type F.
    out.decls.push_str("template <int I, class F> struct __autosync_param;\n");
    out.decls.push_str("template <class R, class A, class... As> struct __autosync_param<0, R (*)(A, As...)> { typedef A type; };\n");
    out.decls.push_str("template <int I, class R, class A, class... As> struct __autosync_param<I, R (*)(A, As...)> { typedef typename __autosync_param<I - 1, R (*)(As...)>::type type; };\n");
    let mut kernels: Vec<(String, String, &Function)> = Vec::new();
    for f in model.kernels().filter(|f| f.body.is_some() && !f.is_template_pattern) {
        let reference = match template_arg_list(f) {
            Some(args) => format!("{}<{args}>", f.qualified_name()),
            None => f.qualified_name(),
        };
        kernels.push((instance_name(f), reference, f));
    }
    for f in model.kernels().filter(|f| f.is_template_pattern) {
        if let Some((display, reference)) = generic.references.get(&template_key(f)) {
            kernels.push((display.clone(), reference.clone(), f));
        }
    }
    for (k, (display, reference, f)) in kernels.into_iter().enumerate() {
        out.kernels.insert(assumption_key(&display, f), k);
        let params: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("typename __autosync_param<{i}, decltype(&{reference})>::type {}", p.name))
            .collect();
        for (j, a) in assumptions.iter().enumerate() {
            out.decls.push_str(&format!(
                "__device__ bool __autosync_assume_{k}_{j}({}) {{ return ({a}); }}\n",
                params.join(", ")
            ));
            out.texts.push(a.clone());
        }
    }
    out
}

/// The instances a file's uninstantiated template kernels are checked through.
struct GenericInstances {
    /// C++ that makes clang instantiate each (read after the file).
    appendix: String,
    /// Template kernels with a value parameter nobody gives a value.
    refused: Vec<Diagnostic>,
    /// Each instance's name and its template's name in the file, in the appendix's order (its
    /// line `i + 2` makes instance `i`).
    order: Vec<(String, Span)>,
    /// Each instance's name in reports (the arguments as given, a type parameter left open by
    /// its own name: `reduceSum<T>`) and how C++ names it (`k<float, 64>`), by
    /// [`template_key`].
    references: HashMap<String, (String, String)>,
}

/// What tells a function template apart across parses: its qualified name and where it is.
fn template_key(f: &Function) -> String {
    // The file by its absolute name: the second parse reads it through the path
    // `std::path::absolute` made of it (`parse_file`'s wrapper), so no file system lookup is
    // needed to match the two.
    let file = |r: &SrcRange| {
        let p = std::path::Path::new(&*r.file);
        std::path::absolute(p).map_or_else(|_| r.file.to_string(), |a| a.display().to_string())
    };
    let at = f.range.as_ref().map(|r| format!("{}:{}", file(r), r.start.offset)).unwrap_or_default();
    format!("{}@{at}", f.qualified_name())
}

/// The instances of the template kernels of `path` (or its headers) that have none: each
/// parameter from `--template-arg` (`template_args`), else its default, else — a type
/// parameter — `float`, how the verifier models a value it knows nothing of (uninterpreted
/// arithmetic and comparisons), so every fact used holds for any type. A value parameter
/// with neither has no meaning to check: the kernel is refused, saying how to give one.
fn generic_instances(
    model: &super::Model,
    path: &std::path::Path,
    given: &[(String, String)],
) -> GenericInstances {
    let mut out = GenericInstances {
        appendix: String::new(),
        refused: Vec::new(),
        order: Vec::new(),
        references: HashMap::new(),
    };
    let instantiated: HashSet<String> = model
        .functions
        .iter()
        .filter(|f| !f.is_template_pattern && !f.template_params.is_empty())
        .map(template_key)
        .collect();
    for f in model.kernels() {
        if !f.is_template_pattern || f.body.is_none() || instantiated.contains(&template_key(f)) {
            continue;
        }
        if !f.range.as_ref().is_some_and(|r| same_path(&r.file, path)) {
            continue;
        }
        let mut args = Vec::new();
        let mut shown = Vec::new();
        let mut open_value = None;
        let mut defaulted = false;
        for p in &f.template_params {
            let value = given.iter().rev().find(|(n, _)| *n == p.name).map(|(_, v)| v.clone());
            match value {
                Some(v) if !defaulted => {
                    args.push(v.clone());
                    shown.push(v);
                }
                None if p.has_default => defaulted = true,
                None if p.is_type && !defaulted => {
                    args.push("float".to_string());
                    shown.push(p.name.clone());
                }
                _ => {
                    open_value.get_or_insert(p.name.clone());
                }
            }
        }
        let kname = f.qualified_name();
        let at = f.name_range.as_ref().map_or(Span::new(0, 0), |r| Span::new(r.start.offset, r.end));
        if let Some(p) = open_value {
            out.refused.push(
                Diagnostic::error(
                    format!("template kernel `{kname}` has no instantiation and no value for template parameter `{p}`"),
                    at,
                )
                .with_label("template kernel")
                .with_note(format!(
                    "add an explicit instantiation (`template __global__ void {kname}<…>(…);`) or pass `--template-arg {p}=VALUE`"
                )),
            );
            continue;
        }
        out.appendix.push_str(&format!(
            "static void __autosync_instance_{}() {{ (void)&{kname}<{}>; }}\n",
            out.order.len(),
            args.join(", ")
        ));
        let name = format!("{}<{}>", f.name, shown.join(", "));
        out.references.insert(template_key(f), (name.clone(), format!("{kname}<{}>", args.join(", "))));
        out.order.push((name, at));
    }
    out
}

/// The clang of this process, found and version-checked once: `find_clang` runs
/// `clang --version`, a process per file of a repository run otherwise.
fn clang_exe() -> Result<super::ClangExe, String> {
    static EXE: std::sync::OnceLock<Result<super::ClangExe, String>> = std::sync::OnceLock::new();
    EXE.get_or_init(|| super::find_clang(None).map_err(|e| e.to_string())).clone()
}

/// `k<128>` for an instance, `k` otherwise.
fn instance_name(f: &Function) -> String {
    match template_arg_list(f) {
        Some(args) => format!("{}<{args}>", f.name),
        None => f.name.clone(),
    }
}

/// An instance's template arguments as clang prints them (`128, float`); `None` for a function
/// that is no instance.
fn template_arg_list(f: &Function) -> Option<String> {
    let args: Vec<&str> = f
        .template_args
        .iter()
        .map(|a| match a {
            super::TemplateArg::Value(v) | super::TemplateArg::Type(v) | super::TemplateArg::Other(v) => {
                v.as_str()
            }
        })
        .collect();
    (!args.is_empty()).then(|| args.join(", "))
}

/// The `#include "…"` line of `source` (the file `path`) that brings in `header`: the one
/// naming it, else — a header included by a header — the first quoted include; `None` when the
/// file includes no header of its own (`header` is then a system one).
fn include_line(
    source: &str,
    path: &std::path::Path,
    include_dirs: &[std::path::PathBuf],
    header: &str,
) -> Option<Span> {
    let header = std::path::Path::new(header).canonicalize().ok()?;
    let dir = path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let mut first = None;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let text = line.trim();
        let Some(rest) = text.strip_prefix('#').map(str::trim_start).and_then(|t| t.strip_prefix("include"))
        else {
            continue;
        };
        let Some(name) = rest.trim().strip_prefix('"').and_then(|r| r.split('"').next()) else { continue };
        let lead = line.len() - line.trim_start().len();
        let span = Span::new(start + lead, start + lead + text.len());
        first.get_or_insert(span);
        let names_it = std::iter::once(&dir)
            .chain(include_dirs)
            .any(|d| d.join(name).canonicalize().ok().is_some_and(|c| c == header));
        if names_it {
            return Some(span);
        }
    }
    first
}

/// The most files [`header_file`] reads while following `#include`s, and how deep it nests.
const INCLUDE_SEARCH_FILES: usize = 256;
const INCLUDE_SEARCH_DEPTH: usize = 32;

/// The header `header` (clang's name of it) as the file `given` (text `source`) brings it in:
/// its text and the chain of `#include` directives that reach it first — depth first in line
/// order, as the preprocessor reads them (include guards make the first inclusion the one
/// that counts); a quoted name is searched in the including file's directory and then the
/// `-I` directories, an angled one in the `-I` directories. `None` when no chain of the file's
/// own includes reaches it (a stand-in or system header) or it cannot be read.
fn header_file(
    source: &str,
    given: &std::path::Path,
    include_dirs: &[std::path::PathBuf],
    header: &str,
) -> Option<std::sync::Arc<crate::diag::SourceFile>> {
    use std::path::{Path, PathBuf};
    struct Search<'a> {
        target: PathBuf,
        include_dirs: &'a [PathBuf],
        visited: HashSet<PathBuf>,
        files: usize,
        /// (including file as printed, line, directive's span in that file).
        chain: Vec<(String, usize, Span)>,
    }
    /// The chain from the file (`real` on disk, `shown` as printed) to the target: the target's
    /// path as printed, with `s.chain` holding the directives.
    fn walk(s: &mut Search, text: &str, real: &Path, shown: &Path) -> Option<PathBuf> {
        if s.chain.len() >= INCLUDE_SEARCH_DEPTH {
            return None;
        }
        let real_dir = real.parent().map(Path::to_path_buf).unwrap_or_default();
        let shown_dir = shown.parent().map(Path::to_path_buf).unwrap_or_default();
        for (line, (start, name, quoted)) in include_directives(text) {
            let mut candidates: Vec<(PathBuf, PathBuf)> = Vec::new();
            if quoted {
                candidates.push((real_dir.join(&name), shown_dir.join(&name)));
            }
            candidates.extend(s.include_dirs.iter().map(|d| (d.join(&name), d.join(&name))));
            let Some((found, found_shown)) = candidates.into_iter().find(|(p, _)| p.is_file()) else {
                continue;
            };
            let Ok(canonical) = found.canonicalize() else { continue };
            s.chain.push((shown.display().to_string(), line, start));
            if canonical == s.target {
                return Some(found_shown);
            }
            if s.files < INCLUDE_SEARCH_FILES && s.visited.insert(canonical) {
                s.files += 1;
                if let Ok(input) = crate::source::read(&found) {
                    if let Some(hit) = walk(s, &input.text, &found, &found_shown) {
                        return Some(hit);
                    }
                }
            }
            s.chain.pop();
        }
        None
    }
    let target = Path::new(header).canonicalize().ok()?;
    let mut s = Search { target, include_dirs, visited: HashSet::new(), files: 0, chain: Vec::new() };
    s.visited.extend(given.canonicalize().ok());
    let shown = walk(&mut s, source, given, given)?;
    let text = crate::source::read(Path::new(header)).ok()?.text;
    let include_span = s.chain.first().map(|c| c.2)?;
    Some(std::sync::Arc::new(crate::diag::SourceFile {
        name: tidy(&shown).display().to_string(),
        text,
        included_from: s.chain.into_iter().map(|(file, line, _)| (file, line)).collect(),
        include_span,
    }))
}

/// `path` as a reader writes it: `dir/../x` is `x` and inner `./` dropped (lexically; a path
/// as printed, not one to open).
fn tidy(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir if !out.is_empty() => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.iter().collect()
}

/// The `#include` directives of `text`: per directive its 1-based line, the directive's span
/// (trimmed), the name and whether it is quoted (else `<…>`).
fn include_directives(text: &str) -> Vec<(usize, (Span, String, bool))> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        let Some(rest) =
            trimmed.strip_prefix('#').map(str::trim_start).and_then(|t| t.strip_prefix("include"))
        else {
            continue;
        };
        let rest = rest.trim();
        let (name, quoted) = if let Some(r) = rest.strip_prefix('"') {
            (r.split('"').next(), true)
        } else if let Some(r) = rest.strip_prefix('<') {
            (r.split('>').next(), false)
        } else {
            continue;
        };
        let Some(name) = name.filter(|n| !n.is_empty()) else { continue };
        let lead = line.len() - line.trim_start().len();
        out.push((i + 1, (Span::new(start + lead, start + lead + trimmed.len()), name.to_string(), quoted)));
    }
    out
}

/// Whether the file `path` holds `source` (after a byte-order mark, which the text leaves out).
fn holds(path: &std::path::Path, source: &str) -> bool {
    std::fs::read(path)
        .is_ok_and(|raw| raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&raw) == source.as_bytes())
}

/// Whether clang's name of a file is `path`.
fn same_path(clang_name: &str, path: &std::path::Path) -> bool {
    let a = std::path::Path::new(clang_name);
    a == path || (a.canonicalize().ok().is_some_and(|a| path.canonicalize().ok().is_some_and(|b| a == b)))
}

/// The text of 1-based `line` of `src`.
fn line_text(src: &str, line: u32) -> Option<&str> {
    src.lines().nth(line.checked_sub(1)? as usize)
}

/// The byte offset of 1-based `line`:`col` in `src`.
fn offset_of(src: &str, line: u32, col: u32) -> Option<usize> {
    let mut start = 0usize;
    for _ in 1..line {
        start += src.get(start..)?.find('\n')? + 1;
    }
    Some((start + col.saturating_sub(1) as usize).min(src.len()))
}
