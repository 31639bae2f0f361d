//! The CUDA front end: parses a `.cu` file with tree-sitter-cuda and lowers every `__global__`
//! kernel to a KPL [`Kernel`] whose labels know where a barrier goes in the ORIGINAL text.
//!
//! # Guarantees
//! - Nothing that could touch memory or control flow is skipped silently: a construct the
//!   lowering does not model is a [`Diagnostic`] error at its position (exit code 2 in the CLI).
//! - Labels are dense and allocated in program order exactly as the KPL parser allocates them
//!   (`main` = 0, every block's start node before its statements, every statement before its
//!   sub-blocks, a then block before its else block); `kernel.places` and `kernel.label_names`
//!   have one entry per label.
//! - Memory accesses are lowered in C evaluation order into `rd`/`wr`/`atomic` statements on fresh
//!   temporaries (`_t0`, `_t1`, … — a different prefix if the file uses such names).
//! - Every KPL statement that comes from the middle of a source statement is not placeable; the
//!   last KPL statement lowered from a source statement carries the source statement's place.
//! - The output is deterministic.
//!
//! # Supported
//! Pointer (and `T a[]`) parameters → global 1-D arrays; scalar parameters → uniform parameters
//! (copied into a local when the kernel assigns them); `__shared__` arrays (multi-dimensional,
//! `extern` unsized) and shared scalars (an array `[1]` accessed at 0); file-scope `__device__` /
//! `__constant__` arrays and scalars → global arrays; scalar locals of the integer and floating
//! types (also `auto x = e;`, typed by its initializer); `=`, all compound assignments, `++`/`--` (prefix, postfix, in expressions), comma, `?:`,
//! `&&`, `||` (short-circuit lowered to `if` when the right operand reads or writes), casts,
//! `sizeof(type)`, `if`/`else`, `for`, `while`, `do`/`while`, blocks, empty statements,
//! `__syncthreads()`, `__syncwarp()` and `__syncwarp(0xffffffff)` (`syncwarp;`; another mask orders
//! nothing and lowers to no statement),
//! `atomicAdd/Sub/Min/Max/And/Or/Xor/Exch/Inc/Dec(&a[i], v)` (or `(p + i, v)`,
//! `(&a[i].x, v)`, `(&p->x, v)`), `atomicCAS(&a[i], cmp, v)` (see Approximations),
//! `threadIdx`, `blockIdx`, `blockDim`, `gridDim`, `warpSize`, `min`/`max`/`umin`/`umax`/`abs`/
//! `__mul24`, pure float math functions (`sqrtf`, `expf`, … as opaque calls), `__threadfence*()`
//! (a fence does not synchronize threads; it is a no-op for race checking), `#pragma` lines
//! (ignored), file-scope `const` integers whose value is an integer constant expression, and:
//! - **Unstructured control flow** in the predicated form of the lock-step paper: `break`,
//!   `continue`, early `return` and `switch` (fall-through, `default` anywhere) set per-thread
//!   flag locals (`brk_2`, `cont_2`, `ret_2`, `fall_2`: fresh names, never placeable); loop
//!   conditions are conjoined with `!brk` / `!ret`; the statements after one that may jump run
//!   under `if (!(flags))`, whose block start carries the place after the jumping statement
//!   (only threads that did not leave reach it), so a barrier after an early return sits under
//!   the `!ret` guard and is divergent exactly when the return is thread-dependent.
//! - **`__device__` functions**, inlined at each call site: value parameters become fresh
//!   locals, pointer parameters aliases of the argument's array and element, the result a fresh
//!   local (`f_ret`), early returns the predicated form; a parameter the call leaves out
//!   takes its default argument (refused when a name of it is a local at the call). Every inlined copy of a statement keeps
//!   the place it has in the function body (one edit there is valid for every call site);
//!   labels are distinct (`8.5`, `8.10`). Recursion is an error naming the cycle.
//!   Reference parameters (`T &x`, `const T &x`, `float4 &v`) are bound to the argument's
//!   lvalue: an array element or field word (its index evaluated ONCE at the call into fresh
//!   locals `x_i0`, so later writes to the caller's index variables do not move the reference),
//!   or an alias of the caller's local / vector fields; reads and writes of `x` are reads and
//!   writes of that lvalue. A `const` reference to a non-lvalue binds a copy (C++'s temporary);
//!   a non-`const` one is an error, and so is passing a kernel parameter to a reference the
//!   function writes. Vector/struct value parameters and results are one local per field.
//! - **Reference locals** (`T &r = s[i];`, `const T &r = a[j];`, `float4 &v = arr[tid];`,
//!   `T &r = x;`) are bound exactly like reference parameters: to the element (index evaluated
//!   once, at the declaration, into `r_i0`), field or variable; a `const` one bound to a
//!   non-lvalue holds a copy. Functions returning a reference or pointer are an error.
//! - **Templates**: a template kernel is lowered once per explicit instantiation in the file
//!   (`template __global__ void reduce<256, float>(…);`), else once from `--template-arg`
//!   ([`FrontEndOptions::template_args`]) and parameter defaults; each instance is a kernel named
//!   like `reduce<256, float>` with places into the shared source. Templated device functions take
//!   explicit arguments or deduce type parameters from argument types. An `if` whose condition
//!   folds to a constant (`if (blockSize >= 512)`) lowers only the branch taken, as a plain block.
//! - **Pointer aliases**: pointer locals and pointer parameters of device functions initialized
//!   to point into an array (`volatile float *v = sdata;`, `float *row = &tile[ty][0];`,
//!   `T *p = a + off;`, a row `tile[ty]`, pointer casts), moved by `p = q + k`, `p += k`, `p++`;
//!   used as `p[i]`, `*p`, `*(p + k)`. The `SharedMemory<T>()` idiom (a struct whose conversion
//!   operator returns an `extern __shared__` array) is that array; every `extern __shared__`
//!   array of a kernel lowers to ONE KPL array (they are the same memory).
//! - **Vector types and plain structs** (`float4`, `uint2`, `struct Pair { int key; float val; }`):
//!   locals become one KPL local per field; arrays of them store each field as one word (the
//!   last dimension is multiplied by the field count), so `a[i].y` is one access of word
//!   `i * 4 + 1` and a whole-element copy is one access per field; `make_float4(…)` builds one.
//!   Pointers into such arrays (`float2 *p = d + k;`, a moved `float2 *d` parameter) count
//!   elements: `p[i].x` is word `(off + i) * 2`; casting them, or using them as scalar pointers,
//!   is an error (the units would change). `p->x` is `(*p).x` = `p[0].x` (also `(&a[i])->x`,
//!   `(p + 1)->x`, a pointer parameter `p->x`), and `*p` is the whole element (copied to and
//!   from, one access per field).
//! - **Cooperative groups, block level** (`<cooperative_groups.h>`, see `lower/groups.rs`):
//!   `namespace cg = cooperative_groups;`, `using namespace cooperative_groups;`; locals and
//!   device-function parameters of type `thread_block` (qualified, plain after `using`, `auto`,
//!   `const`, `&`) initialized from `this_thread_block()` or another such variable;
//!   `cg::sync(b)`, `b.sync()`, `cg::this_thread_block().sync()` → `barrier` (statements only, like
//!   `__syncthreads()`); `b.thread_rank()` → `tid.x + tid.y * bdim.x + tid.z * bdim.x * bdim.y`;
//!   `b.size()` / `b.num_threads()` → `bdim.x * bdim.y * bdim.z`; `b.thread_index().x`,
//!   `b.group_index().x`, `b.group_dim().x` / `b.dim_threads().x` (and `.y`, `.z`) → `threadIdx`,
//!   `blockIdx`, `blockDim`. Patches still insert `__syncthreads()` (valid in such code).
//! - **`__brev`** exactly (five mask-and-shift swap steps); **`__sincosf(x, &s, &c)`** (also
//!   `frexpf`, `modff`, `remquof`) stores opaque results through its pointers.
//! - **Types** (docs/cuda.md): file-scope and local `typedef`/`using` of scalars, structs and
//!   pointers (`template <typename T> using P = T *;` too), `enum`/`enum class` (constants are
//!   integer constants, also `E::A`), `typedef struct {…} T;`, `struct S` by value (kernel
//!   parameters: one uniform parameter per field; a struct holding pointers: each pointer field
//!   a global array parameter, see `struct_fields.rs`) and by pointer, nested structs flattened into
//!   words (`b.lo.x`), `{…}` initializers (C's brace elision; missing words are 0; designators
//!   `.x = v`, `.lo = {…}`, `.hi.y = v`), unions whose
//!   members are all one-word scalars (they alias one word), `__align__(n)` (ignored),
//!   `const`/`volatile`/`__restrict__`, multi-dimensional array parameters (`float m[][256]`),
//!   thread-local arrays (one row per thread of a KPL array indexed by `tid.z, tid.y, tid.x`
//!   first; of vectors/structs too, fields in the last dimension), pointer locals given several arrays (`c ? a : b`, assigned later, re-pointed, also in
//!   inlined device functions between their pointer parameters: the
//!   arrays are merged into one KPL array with a member dimension, see `lower/pointers.rs`).
//! - **Calls** (docs/cuda.md): the math functions and intrinsics of `lower/intrinsics.rs`
//!   (opaque pure calls, or an arbitrary value for clocks and lane masks; `min`, `max`, `abs`,
//!   `__mul24`, `__umul24`, `__brev` exact), `__ldg`-style loads (a read) and `__stcg`-style
//!   stores (a write), texture and surface fetches (an arbitrary value: read-only memory),
//!   `printf` and `assert` (their arguments are evaluated), and functions without a definition
//!   (opaque, with a warning: pure without pointer arguments, else one read and one write at an
//!   arbitrary index of every array they receive).
//! - **Generic templates**: a type parameter without an instantiation or `--template-arg` is an
//!   opaque word (float-like), so the kernel is checked once for every type (`k<T>`).
//! - **The preprocessor** runs first ([`preprocess`]: macros, `#include "…"` with `-I`,
//!   conditionals with `-D`, scalar `typedef`s; `#include <…>` and system headers not found are
//!   the built-in prelude); spans, places and
//!   diagnostics are mapped back to the user's text, and no place lies inside a macro expansion
//!   or an included file.
//!
//! - **GPUVerify annotations** (`lower/annotations.rs`): `__requires(e)` in a kernel body and
//!   `__assume(e)` anywhere lower to KPL `assume e;` (with `__implies`, `__is_pow2`); the other
//!   annotations (`__assert`, `__ensures`, `__invariant`, `__global_invariant`,
//!   `__function_wide_invariant`, `__reads_from`, `__writes_to`, `__no_read`, `__no_write`, …) lower
//!   to nothing, unchecked and unused. `FrontEndOptions::assumptions` (`--assume`) are read as
//!   `__requires` at the start of every kernel.
//! - **Headers and host code**: GPUVerify header lines (`-DNAME=V` defines, other flags warn,
//!   `kpl::header::parse_header_lenient`); system headers resolve to a prelude of macros
//!   (`preprocess/prelude.rs`); functions that are not `__global__`/`__device__`, classes and
//!   `main` are skipped; a constant launch `k<<<g, b>>>` gives `k` its default geometry
//!   (`launch.rs`) — [`lower_all`] returns a note saying so.
//! - **Syntax**: attributes (`[[…]]`, `__attribute__((…))`, attributed statements),
//!   `__launch_bounds__`, `__forceinline__`, `__noinline__`, vector/struct compound literals,
//!   lambdas bound by `auto f = [&](…) {…};` and called directly (`lower/lambda.rs`),
//!   range-based `for` over a scalar array with a compile-time size (thread-local, `__shared__`,
//!   file-scope): an index loop, a reference declarator bound to the element
//!   (`lower/range_for.rs`).
//! - **cuRAND device API** (`lower/curand.rs`): XORWOW, Philox4_32_10 and MRG32k3a states as a
//!   struct of one opaque word (locals private; `states[id]` elements read and written like any
//!   struct), `curand_init` writes the state, the generators and `skipahead*` read and write it
//!   and return unknown values.
//!
//! # Approximations (documented)
//! - Integer types are 32-bit: `long`, `long long`, `size_t` and `int64_t` are treated as 32-bit
//!   (signed / unsigned), `char`/`short` stores are not truncated.
//! - Floating values are opaque: `double` is treated like `float`; arithmetic is `fadd`, `fsub`,
//!   `fmul`, `fdiv`, `fneg`; comparisons `fcmp_lt`, `fcmp_le`, `fcmp_gt`, `fcmp_ge`, `fcmp_eq`,
//!   `fcmp_ne` (yielding 0/1); conversions `i2f`, `u2f`, `f2i`, `f2u`; a floating literal is the
//!   `Const` holding its `f32` bit pattern (`1.0f` is `Const(0x3f800000)`).
//! - `atomicCAS(&a[i], cmp, v)` is one atomic read-modify-write of `a[i]` (KPL `exch` with `v`;
//!   `cmp` is evaluated but not modelled): the oracle tracks no memory contents (every read is
//!   unconstrained) and an atomic's result is an unknown per-thread value, so races and
//!   divergence are judged as for the real CAS; the
//!   reference interpreter stores `v` even where CUDA's comparison would fail.
//! - Unsequenced side effects within one expression (undefined behaviour in C) are evaluated left
//!   to right.
//! - Memory is counted in elements, every element one word: a pointer cast between element types
//!   keeps the element index, and vector/struct fields are one word each whatever their C size
//!   (`double2`, a `char` field). Two accesses race in the model iff they touch the same modelled
//!   word; with mixed element sizes in one buffer (e.g. `extern __shared__` used as `float` and
//!   `double`) the model may miss an overlap of different-size elements: avoid such kernels.
//!
//! - **`goto`** to a label of the same or an enclosing statement list: backward (the statements
//!   from the label to the last `goto` become `local g := 1; while (g) { g := 0; … }` with
//!   `goto` setting `g`) or forward (the statements from the first `goto` up to the label run
//!   under `if (!skip)`); the barrier position after `L:` is the loop's start.
//!
//! # Supported and refused constructs
//! One table, `docs/constructs.yaml` (each row with the tests that prove it), from which README
//! "Limits" and docs/cuda.md's "Support table" are generated; a refused construct is an error
//! naming it, at its position.

#![allow(clippy::result_large_err)] // `Diagnostic` is the crate-wide error type.

pub(crate) mod consts;
mod group_names;
mod launch;
mod lower;
mod member_types;
pub mod preprocess;
mod program;
mod struct_fields;
mod syntax;
pub(crate) mod text;
mod typedefs;

use crate::diag::Diagnostic;
use crate::kpl::ast::{Kernel, Space, Span};
use consts::{const_eval, Ty};
use std::collections::HashMap;
use tree_sitter::{Node, Parser, Tree};

/// One lowered kernel plus what the patcher needs (the places live in `kernel.places`).
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The kernel, with spans into the original source, places and default label names.
    pub kernel: Kernel,
}

/// What the command line tells the front end beyond the source text.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOptions {
    /// The file being lowered: `#include "…"` is resolved relative to its directory.
    pub path: Option<std::path::PathBuf>,
    /// `-I DIR`, searched in order after the file's own directory.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// `-D NAME[=VALUE]`, in command-line order (`None`: defined as `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `--template-arg NAME=VALUE`: template parameter values for kernels without an explicit
    /// instantiation.
    pub template_args: Vec<(String, String)>,
    /// `--kernel NAME`: lower only this kernel.
    pub only: Option<String>,
    /// `--assume EXPR` (repeatable): assumptions with the meaning of `__requires(EXPR)` in every
    /// kernel lowered, read as CUDA expressions over the kernel's parameters (macros expand).
    pub assumptions: Vec<String>,
    /// `--no-launch-facts`: take nothing from the file's host code (launch geometry, argument
    /// values).
    pub no_launch_facts: bool,
    /// The command line's `--block-dim`/`--grid-dim` (they override the launches and the
    /// header; reports say so).
    pub command_line: crate::kpl::Geometry,
}

/// Lowers every `__global__` kernel of the file (or only the kernel named `only`) in source order.
///
/// Errors: a preprocessing error, a syntax error inside a kernel, an unsupported construct (at its
/// position), a header line `parse_header` rejects, no kernel at all, or no kernel named `only`.
pub fn lower_file(source: &str, only: Option<&str>) -> Result<Vec<Kernel>, Diagnostic> {
    let options = FrontEndOptions { only: only.map(str::to_string), ..FrontEndOptions::default() };
    lower_file_with(source, &options)
}

/// Like [`lower_file`], with the command line's front-end options.
pub fn lower_file_with(source: &str, options: &FrontEndOptions) -> Result<Vec<Kernel>, Diagnostic> {
    Ok(lower(source, options)?.into_iter().map(|l| l.kernel).collect())
}

/// Like [`lower_file_with`], returning [`Lowered`] records.
///
/// The file is preprocessed first ([`preprocess`]); the kernels are lowered from the expanded
/// text and every span, place and diagnostic is mapped back to `source`: a place that would fall
/// inside a macro expansion or an included file is `Place::Not`, so patches land in the user's
/// text only.
pub fn lower(source: &str, options: &FrontEndOptions) -> Result<Vec<Lowered>, Diagnostic> {
    let file = lower_all(source, options)?;
    if let Some(d) = file.refused.into_iter().next() {
        return Err(d);
    }
    if file.kernels.is_empty() {
        return Err(Diagnostic::error("no `__global__` kernel in this file", Span::new(0, 0)));
    }
    Ok(file.kernels)
}

/// A lowered file: its kernels and the warnings the front end has for the user.
#[derive(Clone, Debug)]
pub struct LoweredFile {
    /// The kernels, as [`lower`] returns them.
    pub kernels: Vec<Lowered>,
    /// Things read but not modelled or not honoured (ignored header flags, the geometry taken
    /// from a launch in the file, …), in source order; none of them makes a verdict unsound.
    pub warnings: Vec<Diagnostic>,
    /// One error per kernel the front end refuses (not in `kernels`), in source order: its first
    /// unsupported construct, the others it found (up to 10) as secondary locations.
    pub refused: Vec<Diagnostic>,
}

/// Like [`lower`], with the front end's warnings and notes, and the kernels it refuses apart
/// from those it lowers (a file without any kernel is `Ok` with none). The file's header comment
/// (GPUVerify's command line, [`crate::kpl::header::parse_header_lenient`]) gives the geometry
/// and `-D` macros (before the command line's, which win).
pub fn lower_all(source: &str, options: &FrontEndOptions) -> Result<LoweredFile, Diagnostic> {
    let header = crate::kpl::header::parse_header_lenient(source)?;
    let mut warnings = header.warnings;
    let mut opts = options.clone();
    opts.defines = header.defines.into_iter().chain(options.defines.iter().cloned()).collect();
    let geometry = header.geometry;
    let pre = if opts.assumptions.is_empty() {
        preprocess::preprocess(source, &opts)?
    } else {
        // The expressions follow the user's text as a file-scope initializer, so the
        // preprocessor expands their macros and the lowering reads them in a kernel's scope.
        let exprs: Vec<String> = opts.assumptions.iter().map(|a| format!("({a})")).collect();
        let text = format!("{source}\nstatic int {}[] = {{ {} }};\n", lower::CLI_ASSUME, exprs.join(", "));
        preprocess::preprocess(&text, &opts).map_err(|d| beyond(d, source))?
    };
    let map = &pre.map;
    let mut lowered_warnings = Vec::new();
    let overrides = launch::Overrides { header: geometry.clone(), command_line: opts.command_line.clone() };
    let (lowered, refused) = lower_expanded(&pre.text, &opts, &overrides, &mut lowered_warnings)
        .map_err(|d| beyond(map.diagnostic(d), source))?;
    let refused: Vec<Diagnostic> = refused.into_iter().map(|d| beyond(map.diagnostic(d), source)).collect();
    let lines = crate::diag::LineIndex::new(source);
    let line_of = |s: Span| lines.line_col(map.span(s).start).0;
    let mut kernels = Vec::with_capacity(lowered.len());
    for (mut kernel, facts) in lowered {
        // The invariant of `limits`: no kernel past this bound reaches a recursive pass.
        if kernel.nesting() > crate::limits::MAX_KERNEL_NESTING {
            let at = map.diagnostic(Diagnostic::error("nesting too deep", kernel.body.span));
            return Err(beyond(
                at.with_note(format!(
                    "kernel `{}` nests statements and expressions more than {} levels deep once lowered",
                    kernel.name,
                    crate::limits::MAX_KERNEL_NESTING
                )),
                source,
            ));
        }
        map.kernel(&mut kernel);
        kernel.geometry = geometry.clone();
        // The launches in the file give what the header does not (see `launch`).
        if let Some(f) = &facts {
            kernel.geometry = f.geometry().overridden_by(&geometry);
            kernel.launch_facts = launch::render(f, &line_of);
        }
        crate::kpl::assign_default_names(&mut kernel, source);
        kernels.push(kernel);
    }
    warnings.extend(lowered_warnings.into_iter().map(|d| map.diagnostic(d)));
    Ok(LoweredFile {
        kernels: kernels.into_iter().map(|kernel| Lowered { kernel }).collect(),
        warnings,
        refused,
    })
}

/// A diagnostic located in the `--assume` text after the user's file has no position in it.
fn beyond(mut d: Diagnostic, source: &str) -> Diagnostic {
    if d.span.is_some_and(|s| s.end > source.len()) {
        d.span = None;
        d.notes.push("in an `--assume` expression".into());
    }
    d
}

/// A lowered kernel with what its launches say (`None`: the file shows no launch of it).
pub(crate) type KernelWithFacts = (Kernel, Option<launch::LaunchFacts>);

/// Lowers the kernels of preprocessed text; spans and places point into `text`. Returns the
/// kernels, each with what its launches say, and one error per kernel function refused (its
/// other kernels are still lowered).
fn lower_expanded(
    text: &str,
    options: &FrontEndOptions,
    overrides: &launch::Overrides,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Vec<KernelWithFacts>, Vec<Diagnostic>), Diagnostic> {
    let only = options.only.as_deref();
    let tree = parse(text)?;
    let root = tree.root_node();
    check_depth(root)?;
    if let Some(d) = syntax::file_error(root, text) {
        return Err(d);
    }
    let mut file = FileInfo::default();
    let mut kernels = Vec::new();
    let mut decls = Vec::new();
    scan(root, text, &mut kernels, &mut decls, only)?;
    if let Some(renamed) = struct_fields::flatten(root, text, &kernels) {
        // Same length, same spans: the lowering reads `p.f` of pointer-holding struct
        // parameters as the parameter `p_f` (see `struct_fields`).
        return lower_expanded(&renamed, options, overrides, warnings);
    }
    file.collect_types(root, text);
    file.member_types = member_types::MemberTypes::collect(root, text);
    for d in &decls {
        file_constants(*d, text, &mut file);
    }
    file.evaluate_constants(text);
    if !options.no_launch_facts {
        file.launches = launches(root, text, &file, &kernels);
        file.overrides = overrides.clone();
    }
    for d in &decls {
        file_arrays(*d, text, &mut file);
    }
    if let (true, Some(name)) = (kernels.is_empty(), only) {
        return Err(no_such_kernel(name, &kernel_names(root, text)));
    }
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for f in kernels {
        match lower::lower_kernel(f, text, &file, &options.template_args, warnings) {
            Ok(ks) => out.extend(ks),
            Err(d) => refused.push(d),
        }
    }
    Ok((out, refused))
}

/// The launches of every kernel in `kernels` (their definitions) that the file launches, with
/// the kernel's parameters (C name, whether a by-value integer).
fn launches(
    root: Node,
    text: &str,
    file: &FileInfo,
    kernels: &[Node],
) -> std::collections::BTreeMap<String, (launch::Launches, Vec<(String, bool)>)> {
    let mut by_name: std::collections::BTreeMap<String, Vec<Node>> = Default::default();
    for k in kernels {
        if let Some(n) = function_name(*k, text) {
            by_name.entry(n.to_string()).or_default().push(*k);
        }
    }
    let names: Vec<String> = by_name.keys().cloned().collect();
    launch::launches(root, text, file, &names)
        .into_iter()
        .map(|(name, l)| {
            let params =
                by_name.get(&name).and_then(|defs| launch::kernel_params(defs, text)).unwrap_or_default();
            (name, (l, params))
        })
        .collect()
}

fn parse(source: &str) -> Result<Tree, Diagnostic> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_cuda::LANGUAGE.into()).map_err(|e| {
        Diagnostic::error(format!("internal error: cannot load the CUDA grammar: {e}"), Span::new(0, 0))
    })?;
    parser
        .parse(source, None)
        .ok_or_else(|| Diagnostic::error("internal error: the CUDA parser gave no tree", Span::new(0, 0)))
}

pub(crate) use crate::limits::MAX_SYNTAX_DEPTH as MAX_TREE_DEPTH;

/// Refuses a syntax tree deeper than [`MAX_TREE_DEPTH`] before anything recursive walks it:
/// `nesting too deep` at the first node below the limit. Iterative (a tree cursor), linear.
fn check_depth(root: Node) -> Result<(), Diagnostic> {
    let mut cursor = root.walk();
    let mut depth = 1;
    loop {
        if depth > MAX_TREE_DEPTH {
            let at = cursor.node().start_byte();
            let first = Span::new(at, at + 1);
            return Err(Diagnostic::error("nesting too deep", first).with_label(format!(
                "more than {MAX_TREE_DEPTH} nested syntax levels (blocks, statements, parentheses, operators)"
            )));
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return Ok(());
            }
            depth -= 1;
        }
    }
}

pub(crate) fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

pub(crate) fn text<'s>(n: Node, src: &'s str) -> &'s str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// The value of a file-scope constant.
#[derive(Clone, Debug)]
pub(crate) enum MacroVal {
    Const(i64),
    /// Not an integer constant: why.
    Other(String),
}

/// A file-scope `__device__` / `__constant__` / `__shared__` variable.
#[derive(Clone, Debug)]
pub(crate) struct FileArray {
    pub name: String,
    pub space: Space,
    pub elem: Ty,
    pub dims: Vec<Option<u32>>,
    pub scalar: bool,
    pub span: Span,
}

/// What the file around the kernels defines.
#[derive(Default, Debug)]
pub(crate) struct FileInfo {
    /// File-scope `const` integers: name → (value text span, declarator span). Macros are gone by
    /// now: the lowering reads preprocessed text.
    raw_constants: Vec<(String, Span, Span)>,
    /// File-scope constants by name.
    pub macros: HashMap<String, MacroVal>,
    pub arrays: Vec<FileArray>,
    /// File-scope type names (`typedef`, `using`, enums): see `typedefs`.
    pub aliases: HashMap<String, typedefs::Alias>,
    /// Member types of the file's classes and class templates (`member_types`).
    pub member_types: member_types::MemberTypes,
    /// The launches of each kernel, by kernel name, with the kernel's parameters; and who
    /// overrides the geometry. What they say of one kernel: [`FileInfo::launch_facts`].
    launches: std::collections::BTreeMap<String, (launch::Launches, Vec<(String, bool)>)>,
    overrides: launch::Overrides,
}

impl FileInfo {
    /// What the host code says about the launches of kernel `name` (`launch`), for one of its
    /// template instances: the launches that name this instance's arguments (`own`, call spans)
    /// and those that name none of the file's instances (`attributed` lists every launch some
    /// instance claims) — a launch of another instance does not launch this one. A plain kernel
    /// passes none of either: every launch. `None` when none of those launches is visible and
    /// the file uses the name nowhere else (an instance only instantiated explicitly).
    pub(crate) fn launch_facts(
        &self,
        name: &str,
        own: &[Span],
        attributed: &[Span],
    ) -> Option<launch::LaunchFacts> {
        let (all, params) = self.launches.get(name)?;
        let sites: Vec<launch::Site> = all
            .sites
            .iter()
            .filter(|s| own.contains(&s.at) || !attributed.contains(&s.at))
            .cloned()
            .collect();
        if sites.is_empty() && all.other_use.is_none() {
            return None;
        }
        let mine = launch::Launches { sites, other_use: all.other_use };
        Some(launch::facts(name, params, &mine, &self.overrides))
    }

    fn evaluate_constants(&mut self, src: &str) {
        let raw = std::mem::take(&mut self.raw_constants);
        let defs: HashMap<String, Span> = raw.iter().map(|(n, v, _)| (n.clone(), *v)).collect();
        for (name, _, _) in &raw {
            let v = match eval_constant(name, &defs, src, 0) {
                Some(v) => MacroVal::Const(v),
                None => MacroVal::Other("its value is not an integer constant expression".into()),
            };
            self.macros.insert(name.clone(), v);
        }
    }
}

fn eval_constant(name: &str, defs: &HashMap<String, Span>, src: &str, depth: usize) -> Option<i64> {
    if depth > 32 {
        return None;
    }
    let sp = defs.get(name)?;
    let body = src.get(sp.start..sp.end)?;
    let wrapped = format!("int __autosync_const = ({body});");
    let tree = parse(&wrapped).ok()?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let decl = root.named_child(0)?;
    let init = decl.child_by_field_name("declarator")?.child_by_field_name("value")?;
    const_eval(init, &wrapped, &mut |n| eval_constant(n, defs, src, depth + 1))
}

pub(crate) fn has_global(f: Node, src: &str) -> bool {
    let mut c = f.walk();
    let found = f
        .children(&mut c)
        .take_while(|ch| ch.kind() != "function_declarator")
        .any(|ch| ch.kind() == "__global__" || text(ch, src).split_whitespace().any(|w| w == "__global__"));
    found
}

/// The declarator inside `d` (`*p` → `p`); a reference declarator (`&r`, `int &f(…)`) has no
/// `declarator` field in the grammar, its declarator is its first named child.
pub(crate) fn inner_declarator(d: Node) -> Option<Node> {
    match d.kind() {
        "reference_declarator" => d.named_child(0),
        _ => d.child_by_field_name("declarator"),
    }
}

pub(crate) fn function_name<'s>(f: Node, src: &'s str) -> Option<&'s str> {
    let mut d = f.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = inner_declarator(d)?;
    }
    let name = d.child_by_field_name("declarator")?;
    (name.kind() == "identifier").then(|| text(name, src))
}

fn syntax_error(n: Node, src: &str) -> Diagnostic {
    syntax::syntax_error(n, src)
}

fn scan<'t>(
    n: Node<'t>,
    src: &str,
    kernels: &mut Vec<Node<'t>>,
    decls: &mut Vec<Node<'t>>,
    only: Option<&str>,
) -> Result<(), Diagnostic> {
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
    for ch in children {
        match ch.kind() {
            "function_definition" if has_global(ch, src) => {
                let name = function_name(ch, src).ok_or_else(|| {
                    Diagnostic::error(
                        "unsupported: a `__global__` kernel whose name is not a plain identifier",
                        span(ch),
                    )
                })?;
                if only.is_none_or(|o| o == name) {
                    if ch.has_error() {
                        return Err(syntax_error(ch, src));
                    }
                    kernels.push(ch);
                }
            }
            "linkage_specification" | "declaration_list" | "namespace_definition" => {
                if let Some(body) = ch.child_by_field_name("body") {
                    if body.kind() == "function_definition" {
                        if has_global(body, src) {
                            let name = function_name(body, src).unwrap_or("");
                            if only.is_none_or(|o| o == name) {
                                if body.has_error() {
                                    return Err(syntax_error(body, src));
                                }
                                kernels.push(body);
                            }
                        }
                    } else {
                        scan(body, src, kernels, decls, only)?;
                    }
                } else {
                    scan(ch, src, kernels, decls, only)?;
                }
            }
            "template_declaration" => {
                // A template kernel: lowered once per instantiation (see `lower::lower_kernel`).
                let mut cc = ch.walk();
                let f = ch.named_children(&mut cc).find(|x| x.kind() == "function_definition");
                if let Some(f) = f.filter(|f| has_global(*f, src)) {
                    let name = function_name(f, src);
                    if only.is_none_or(|o| Some(o) == name) {
                        if f.has_error() {
                            return Err(syntax_error(f, src));
                        }
                        kernels.push(f);
                    }
                }
            }
            "declaration" => decls.push(ch),
            "ERROR" if text(ch, src).contains("__global__") => {
                return Err(syntax_error(ch, src));
            }
            _ => {}
        }
    }
    Ok(())
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

/// The names of the file's `__global__` functions, in file order (each once).
fn kernel_names(n: Node, src: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut c = n.walk();
    for ch in n.named_children(&mut c) {
        let found = match ch.kind() {
            "function_definition" if has_global(ch, src) => function_name(ch, src).map(str::to_string),
            "linkage_specification"
            | "declaration_list"
            | "namespace_definition"
            | "template_declaration" => {
                for name in kernel_names(ch, src) {
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
                None
            }
            _ => None,
        };
        if let Some(name) = found.filter(|n| !out.contains(n)) {
            out.push(name);
        }
    }
    out
}

fn decl_words(d: Node, src: &str) -> Vec<String> {
    let mut c = d.walk();
    let words: Vec<String> = d
        .children(&mut c)
        .filter(|ch| {
            !matches!(ch.kind(), "init_declarator" | "array_declarator" | "identifier" | "pointer_declarator")
        })
        .flat_map(|ch| {
            text(ch, src)
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    words
}

/// Records file-scope `const` integers with an initializer as constants.
fn file_constants(d: Node, src: &str, file: &mut FileInfo) {
    let words = decl_words(d, src);
    let is_const = words.iter().any(|w| w == "const" || w == "constexpr");
    let device = words.iter().any(|w| w == "__shared__" || w == "__device__" || w == "__constant__");
    let Some(ty_node) = d.child_by_field_name("type") else { return };
    if !is_const || device || !matches!(file.scalar_type(ty_node, src), Ok(Ty::Int) | Ok(Ty::UInt)) {
        return;
    }
    let mut c = d.walk();
    let decls: Vec<Node> = d.children_by_field_name("declarator", &mut c).collect();
    for decl in decls {
        if decl.kind() != "init_declarator" {
            continue;
        }
        if let (Some(name), Some(value)) =
            (decl.child_by_field_name("declarator"), decl.child_by_field_name("value"))
        {
            if name.kind() == "identifier" {
                file.raw_constants.push((text(name, src).to_string(), span(value), span(decl)));
            }
        }
    }
}

/// Records file-scope `__device__`/`__constant__`/`__shared__` variables. Declarations this front
/// end cannot model are left out; a kernel that uses them gets an "unknown identifier" error.
fn file_arrays(d: Node, src: &str, file: &mut FileInfo) {
    let words = decl_words(d, src);
    let space = if words.iter().any(|w| w == "__shared__") {
        Space::Shared
    } else if words.iter().any(|w| w == "__device__" || w == "__constant__") {
        Space::Global
    } else {
        return;
    };
    let Some(ty_node) = d.child_by_field_name("type") else { return };
    let Ok(elem) = file.scalar_type(ty_node, src) else { return };
    let macros = &file.macros;
    let mut resolve = |n: &str| match macros.get(n) {
        Some(MacroVal::Const(v)) => Some(*v),
        _ => None,
    };
    let mut found = Vec::new();
    let mut c = d.walk();
    let decls: Vec<Node> = d.children_by_field_name("declarator", &mut c).collect();
    for decl in decls {
        let mut cur = decl;
        if cur.kind() == "init_declarator" {
            match cur.child_by_field_name("declarator") {
                Some(x) => cur = x,
                None => continue,
            }
        }
        let mut dims = Vec::new();
        let mut ok = true;
        while cur.kind() == "array_declarator" {
            match cur.child_by_field_name("size") {
                Some(s) => match const_eval(s, src, &mut resolve).and_then(|v| u32::try_from(v).ok()) {
                    Some(v) => dims.push(Some(v)),
                    None => ok = false,
                },
                None => dims.push(None),
            }
            match cur.child_by_field_name("declarator") {
                Some(x) => cur = x,
                None => ok = false,
            }
        }
        if !ok || cur.kind() != "identifier" {
            continue;
        }
        dims.reverse();
        let scalar = dims.is_empty();
        if scalar {
            dims.push(Some(1));
        }
        found.push(FileArray {
            name: text(cur, src).to_string(),
            space,
            elem,
            dims,
            scalar,
            span: span(decl),
        });
    }
    file.arrays.extend(found);
}
