//! Launch facts for the clang front end: what the file's host code says about how each kernel is
//! launched, read from clang's typed AST (the [`Model`]'s bodies) instead of syntax. How the
//! launches combine, the sentences and the `assume`s are `crate::launch_facts`.
//!
//! API: [`HostLaunches::collect`] reads every launch and every other reference to a kernel once
//! per file; [`HostLaunches::apply`] gives one lowered kernel its facts (geometry, argument
//! values, `assume`s, report sentences).
//!
//! - A *launch* is a `CUDAKernelCallExpr` (`k<<<grid, block, …>>>(args)`) or a call of
//!   `cudaLaunchKernel`/`cudaLaunchCooperativeKernel` whose kernel argument is, through casts,
//!   `&` and parentheses, a reference to a kernel (`(void *)k`, `reinterpret_cast<…>(k<128>)`).
//!   The kernel is the declaration clang resolved the reference to — for a template, the
//!   instance (`k<128>` names its specialization) — joined with the model's definition by
//!   qualified name and template arguments (a launch may name a prototype; overloads count as
//!   one kernel).
//! - Any other reference to a kernel (its address stored, passed, …; also an unresolved name in a
//!   template pattern, or a reference in code the model does not build: [`Model::loose_refs`])
//!   takes every fact from the kernel: its launches are not all visible. The runtime's
//!   attribute and occupancy queries (`launch_facts::NON_LAUNCHING`) only inspect a kernel.
//! - Values: integer literals, constants clang evaluated (`ConstantExpr`), namespace-scope
//!   constants, `dim3` constructions (`CXXConstructExpr`, `CXXTemporaryObjectExpr`; an absent
//!   argument is the constructor's default, 1), integral conversions that keep the value, C
//!   arithmetic ([`binary`], checked on 64 bits), host locals and `dim3`
//!   fields by reaching definitions, and parameters of host helpers that every call passes the
//!   same value. Macros are expanded by clang. Anything else is unknown.
//!
//! Reaching definitions (on clang's tree in pre-order): a variable is a clang
//! declaration id; every reference to it is a read (under an lvalue-to-rvalue conversion or a
//! binding to `const`), an assignment (`=`, `op=`, a `dim3`'s `operator=`, of the whole variable
//! or one field) or, for anything else (`++`, `&n`, a non-`const` reference, a method call), a
//! definition with an unknown value. The value at a point is the latest definition before it
//! that dominates it (a statement of a block around it, not under a condition, loop header,
//! `switch` or `&&`/`||`/`?:`, in a function without `goto`; the body of a loop that runs
//! exactly once counts as the loop statement), provided every other definition that may run
//! between them, or later in a loop around the point that may repeat, gives the same value. A
//! variable a lambda body may change is unknown.
//!
//! Path facts (`paths`): the checks on every path to a launch in its function — an `if` or
//! `switch` around it, an `assert`, an early exit (`exit`, `return`, `throw`, `break`) or a call of
//! a helper that exits before it — are conditions over the kernel's arguments and dimensions
//! ([`Site::conds`]: `assert(n <= 1024)` with `n` passed is `n <= 1024`, with `<<<g, n>>>` it is
//! `blockDim.x <= 1024`), and their equalities are values where the
//! reaching definitions leave a variable unknown (`dim3 block(K / 4)` before `switch (K)`, launched
//! under `case 512:`, is 128 threads). `paths` says exactly when a check holds at the launch.
//!
//! Enumerations: a parameter of an enumeration type is one of its enumerators when every launch
//! passes it typed (`<<<…>>>`) and no code of the file makes a value of the type otherwise (a
//! cast to it, `Mode()`: [`enum_source`]); values read into memory of the type from outside
//! (`fread` into a struct) are assumed to be enumerators too (docs/cuda.md).
//!
//! Guarantee: a fact holds for every launch of the kernel the file shows, and a kernel with a
//! use the module cannot see through has none; unknown is always a sound answer.

use super::model::{Function, Model, Node, NodeKind, SrcRange};
use crate::kpl::ast::{Block, Expr, Kernel, Label, LabelName, Place, Stmt, StmtKind};
use crate::kpl::Geometry;
use crate::launch_facts::{Dims, LaunchFacts, Launches, Overrides, Rel, Site, LAUNCHING, NON_LAUNCHING};
use crate::span::Span;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

/// What one step from a variable to its definitions (or from a parameter to its call sites)
/// adds to the depth; an expression's own nesting adds 1 per level.
const LOOKUP: usize = 32;

/// How deep evaluation may go: 12 definitions referring to definitions, each through
/// expressions of moderate nesting.
const MAX_DEPTH: usize = 12 * LOOKUP;

/// How many variable evaluations one file's launches may take (then values are unknown).
const STEP_BUDGET: usize = 20_000;

/// Every launch of the file's kernels and whether each kernel is used otherwise.
#[derive(Debug, Default)]
pub(crate) struct HostLaunches {
    /// By kernel key ([`key`]).
    by_kernel: HashMap<String, Launches>,
    /// Kernels (by name) referred to by a name clang left unresolved or a declaration the model
    /// does not hold: where.
    by_name: HashMap<String, Span>,
    /// The line of each launch's and use's span (clang's, so a launch in an included file
    /// has its own line).
    lines: HashMap<Span, usize>,
    /// Enumeration types (by unqualified name) some code of the file makes a value of other than
    /// from an enumerator: a cast or a value-initialization to the type ([`enum_source`]).
    /// With the first such place (clang's span).
    converted: HashMap<String, Span>,
}

impl HostLaunches {
    /// Reads the launches and kernel references of every function body of `model`.
    pub(crate) fn collect(model: &Model) -> HostLaunches {
        let bodies: Vec<Body> = model
            .functions
            .iter()
            .filter(|f| !f.is_template_pattern)
            .filter_map(|f| f.body.as_ref().map(|b| Body::new(Some(f), b)))
            .collect();
        let host = Host {
            model,
            bodies: &bodies,
            steps: Cell::new(STEP_BUDGET),
            keys: keys(model),
            path: RefCell::new(None),
            settled: RefCell::new(HashMap::new()),
            helper_work: Cell::new(0),
            pinned: RefCell::new(Vec::new()),
            by_key: bodies.iter().enumerate().fold(HashMap::new(), |mut m, (i, b)| {
                if let Some(f) = b.f {
                    m.entry(key(f)).or_insert_with(Vec::new).push(i);
                }
                m
            }),
        };
        let mut out = HostLaunches::default();
        for b in &bodies {
            host.collect(b, &mut out);
            for i in 0..b.nodes.len() {
                if let Some(ty) = enum_source(b, i) {
                    let at = out.span(b.nodes[i].range.as_ref());
                    out.converted.entry(ty).or_insert(at);
                }
            }
        }
        for r in &model.loose_refs {
            let at = out.span(r.range.as_ref());
            match r.decl_id.as_deref().and_then(|id| host.keys.get(id)) {
                Some((k, true)) => {
                    out.by_kernel.entry(k.clone()).or_default().other_use.get_or_insert(at);
                }
                Some((_, false)) => {}
                None => {
                    if model.kernels().any(|f| f.name == r.name) {
                        out.by_name.entry(r.name.clone()).or_insert(at);
                    }
                }
            }
        }
        out
    }

    /// The facts of kernel `f` (a definition of the model) under `over`; `None` when the file
    /// shows no launch and no other use of it (an instance only instantiated explicitly).
    pub(crate) fn facts(&self, f: &Function, model: &Model, over: &Overrides) -> Option<LaunchFacts> {
        let mut l = self.by_kernel.get(&key(f)).cloned().unwrap_or_default();
        if let Some(at) = self.by_name.get(&f.name) {
            l.other_use.get_or_insert(*at);
        }
        if l.sites.is_empty() && l.other_use.is_none() {
            return None;
        }
        let params: Vec<(String, bool)> =
            f.params.iter().map(|p| (p.name.clone(), int_param(param_type(p), &model.typedefs))).collect();
        let mut facts = crate::launch_facts::facts(&f.name, &params, &l, over);
        if l.other_use.is_none() && l.sites.iter().all(|s| s.args.len() == params.len()) {
            let sites: Vec<Span> = l.sites.iter().map(|s| s.at).collect();
            self.enum_facts(f, model, &sites, &mut facts);
        }
        Some(facts)
    }

    /// The enumeration-typed parameters of `f`: each is one of its type's enumerators, where
    /// every launch passes its arguments typed (`<<<…>>>`, not a `void *[]`) and no code of the
    /// file makes a value of the type from anything but an enumerator (docs/cuda.md).
    fn enum_facts(&self, f: &Function, model: &Model, sites: &[Span], facts: &mut LaunchFacts) {
        for (i, p) in f.params.iter().enumerate() {
            let ty = bare_type(param_type(p));
            let Some(members) = model.enum_members.get(&ty) else { continue };
            let short = ty.rsplit("::").next().unwrap_or(&ty).to_string();
            if members.is_empty() {
                continue;
            }
            match self.converted.get(&short) {
                Some(at) => facts.notes.push((
                    format!(
                        "no enumerator fact for `{}`: the file makes a value of `{ty}` other than from an enumerator at line {{0}}",
                        p.name
                    ),
                    vec![*at],
                )),
                None => crate::launch_facts::enum_param(facts, i, &ty, members, sites),
            }
        }
    }

    /// The line a fact's span names.
    fn line(&self, s: Span) -> usize {
        self.lines.get(&s).copied().unwrap_or(0)
    }

    fn span(&mut self, r: Option<&SrcRange>) -> Span {
        let Some(r) = r else { return Span::new(0, 0) };
        let s = Span::new(r.start.offset, r.end);
        self.lines.entry(s).or_insert(r.start.line as usize);
        s
    }

    /// Gives the lowered `kernel` of `f` what its launches say (nothing when they say nothing):
    /// the geometry they fix completely, under `geometry` (the header's, overridden by the
    /// command line's; they win), the report sentences, each scalar integer parameter every
    /// launch passes one value as that constant, and `assume`s at the start of the body for
    /// the parts they fix only in part (`launch_facts::assumptions`). `source` is the file's
    /// text (which dimensions the kernel names).
    pub(crate) fn apply(
        &self,
        kernel: &mut Kernel,
        f: &Function,
        model: &Model,
        over: &Overrides,
        geometry: &Geometry,
        source: &str,
    ) {
        let Some(facts) = self.facts(f, model, over) else { return };
        kernel.geometry = facts.geometry().overridden_by(geometry);
        kernel.launch_facts = crate::launch_facts::render(&facts, &|s| self.line(s));
        if let (Some(bytes), Some((array, unit))) = (facts.shared_bytes, kernel.dynamic_shared.clone()) {
            dynamic_shared_size(kernel, &array, unit, bytes);
        }
        // An allocation bounds the indices of the grids the program launches. Where a launch
        // leaves a dimension open, every size is checked, and one larger than the program ever
        // launches would take a block's index past any allocation: no allocation bound then.
        let known = |part: usize, dims: Option<[u32; 3]>| {
            (0..3).all(|d| {
                dims.is_some()
                    || (!facts.choices.is_empty()
                        && facts.choices.iter().all(|c| c.iter().any(|(p, a, _)| (*p, *a) == (part, d))))
            })
        };
        if known(0, kernel.geometry.block_dim) && known(1, kernel.geometry.grid_dim) {
            for (i, bytes) in &facts.arg_bytes {
                if let Some((array, unit)) = kernel.param_arrays.get(i).cloned() {
                    allocation_size(kernel, &array, unit, *bytes);
                }
            }
        }
        // Which parameters are unsigned (C's conversions in relations; the range of a value).
        let unsigned = |name: &str| {
            let p = f.params.iter().find(|p| p.name == name)?;
            match int_range(param_type(p), &model.typedefs) {
                Some(r) => Some(r.0 >= 0),
                // An enumeration is one word, compared as `int` (its enumerators' type).
                None => model.enum_members.contains_key(&bare_type(param_type(p))).then_some(false),
            }
        };
        let written = written_names(&kernel.body);
        let mut consts: HashMap<String, u32> = HashMap::new();
        let mut assumed = Vec::new();
        for (name, v) in &facts.args {
            // The lowering names a parameter as the source does unless that name is taken; a
            // renamed one gets no fact (sound: it stays a parameter).
            if !kernel.params.contains(name) {
                continue;
            }
            let word = match unsigned(name) {
                Some(false) => i32::try_from(*v).ok().map(|v| v as u32),
                Some(true) => u32::try_from(*v).ok(),
                None => None,
            };
            let Some(word) = word else { continue };
            if written.contains(name) {
                // A parameter the kernel changes starts at the launches' value.
                assumed.push(Expr::Binary(
                    crate::kpl::ast::BinOp::Eq,
                    Box::new(Expr::Var(name.clone())),
                    Box::new(Expr::Const(word)),
                ));
            } else {
                consts.insert(name.clone(), word);
            }
        }
        let param = |i: usize| -> Option<(Expr, bool)> {
            let name = &facts.params.get(i)?.0;
            let u = unsigned(name)?;
            match consts.get(name) {
                Some(w) => Some((Expr::Const(*w), u)),
                None if kernel.params.contains(name) => Some((Expr::Var(name.clone()), u)),
                None => None,
            }
        };
        let mentioned = |var: &str, axis: &str| source.contains(&format!("{var}.{axis}"));
        let groups = source.contains("cooperative_groups");
        assumed.extend(crate::launch_facts::assumptions(&facts, &mentioned, groups, &param));
        if !consts.is_empty() {
            substitute_block(&mut kernel.body, &consts);
        }
        if !assumed.is_empty() {
            prepend_assumptions(kernel, assumed, source);
        }
    }

    /// Records the launches and kernel references of one body.
    fn record_site(&mut self, kernel: &str, site: Site) {
        self.by_kernel.entry(kernel.to_string()).or_default().sites.push(site);
    }
}

/// The `extern __shared__` array `array` (elements of `unit` bytes) has the `bytes` every launch
/// gives: its first dimension, so its accesses are assumed and checked in bounds (issue #41),
/// with the sentence reports print. Bytes that are not whole elements give no fact.
fn dynamic_shared_size(kernel: &mut Kernel, array: &str, unit: u32, bytes: i64) {
    if let Some((name, elements)) = size_first_dimension(kernel, array, unit, bytes, false) {
        let plural = if elements == 1 { "" } else { "s" };
        kernel.launch_facts.push(format!(
            "dynamic shared memory = {bytes} bytes at every launch: `{name}` has {elements} element{plural} of {unit} bytes"
        ));
    }
}

/// The pointer parameter's array `array` (elements of `unit` bytes) has the `bytes` every launch's
/// allocation gives it: its first dimension, assumed and checked in bounds (issue #41).
fn allocation_size(kernel: &mut Kernel, array: &str, unit: u32, bytes: i64) {
    if let Some((name, elements)) = size_first_dimension(kernel, array, unit, bytes, true) {
        let plural = if elements == 1 { "" } else { "s" };
        kernel.launch_facts.push(format!(
            "`{name}` has {elements} element{plural} of {unit} bytes: every launch passes an allocation of {bytes} bytes (`cudaMalloc`)"
        ));
    }
}

/// Gives `array`'s open first dimension the whole elements of `unit` bytes that `bytes` holds
/// (`only`: the array has no other dimension), with the array's source name and that count;
/// `None` and nothing changed when the bytes are not whole elements or the dimension is known.
fn size_first_dimension(
    kernel: &mut Kernel,
    array: &str,
    unit: u32,
    bytes: i64,
    only: bool,
) -> Option<(String, u32)> {
    let decl = kernel.arrays.iter_mut().find(|a| a.name == array)?;
    let unit_i = i64::from(unit);
    let first = match decl.dims.as_mut_slice() {
        [first @ None] => first,
        [first @ None, ..] if !only => first,
        _ => return None,
    };
    if unit_i == 0 || bytes % unit_i != 0 {
        return None;
    }
    let elements = u32::try_from(bytes / unit_i).ok()?;
    *first = Some(elements);
    let name = kernel
        .source_arrays
        .get(array)
        .and_then(|v| v.names.first().cloned())
        .unwrap_or_else(|| array.to_string());
    Some((name, elements))
}

/// How the model names one function across its declarations: a launch may refer to a prototype
/// and the definition is another declaration (clang gives each its own id). Qualified name and
/// template arguments, not the signature (its spelling may differ between declarations, `const
/// int n` and `int`): overloads share a key, so each is checked under the launches of all of
/// them, which is sound (a fact must hold at more launches, its own among them), and a use of
/// one takes the facts of all.
fn key(f: &Function) -> String {
    format!("{}|{:?}", f.qualified_name(), f.template_args)
}

/// Every function id of the model: its key and whether it is a kernel.
fn keys(model: &Model) -> HashMap<String, (String, bool)> {
    model.functions.iter().map(|f| (f.id.clone(), (key(f), f.is_kernel()))).collect()
}

fn param_type(p: &super::model::Param) -> &str {
    p.desugared.as_deref().unwrap_or(&p.ty)
}

/// The values an integer type holds (`None`: not a by-value integer scalar).
fn int_range(ty: &str, typedefs: &HashMap<String, String>) -> Option<(i64, i64)> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "register" | "static"))
        .collect();
    let t = words.join(" ");
    Some(match t.as_str() {
        "int" | "signed" | "signed int" | "int32_t" => (i32::MIN.into(), i32::MAX.into()),
        "unsigned" | "unsigned int" | "uint32_t" | "uint" => (0, u32::MAX.into()),
        "short" | "short int" | "int16_t" => (i16::MIN.into(), i16::MAX.into()),
        "unsigned short" | "unsigned short int" | "uint16_t" => (0, u16::MAX.into()),
        "char" | "signed char" | "int8_t" => (i8::MIN.into(), i8::MAX.into()),
        "unsigned char" | "uint8_t" => (0, u8::MAX.into()),
        "long" | "long int" | "long long" | "long long int" | "int64_t" | "ptrdiff_t" | "intptr_t" => {
            (i64::MIN, i64::MAX)
        }
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "uint64_t"
        | "size_t"
        | "uintptr_t" => (0, i64::MAX),
        "bool" | "_Bool" => (0, 1),
        _ => match typedefs.get(&t) {
            Some(target) if target != &t => return int_range(target, &HashMap::new()),
            _ => return None,
        },
    })
}

/// Whether a parameter of type `ty` takes argument facts: a by-value integer (`bool` and the
/// character types are not).
fn int_param(ty: &str, typedefs: &HashMap<String, String>) -> bool {
    let resolved = typedefs.get(ty.trim()).map_or(ty, String::as_str);
    let chars = ["bool", "_Bool", "char", "signed char", "unsigned char", "int8_t", "uint8_t"];
    let bare: Vec<&str> =
        resolved.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
    int_range(ty, typedefs).is_some() && !chars.contains(&bare.join(" ").as_str())
}

/// A type without qualifiers, `enum`, a reference or a leading `::` (`const enum Mode &` is
/// `Mode`).
fn bare_type(ty: &str) -> String {
    let words: Vec<&str> = ty
        .split(|c: char| c.is_whitespace() || c == '&')
        .filter(|w| !w.is_empty() && !matches!(*w, "const" | "volatile" | "enum" | "class" | "struct"))
        .collect();
    words.join(" ").trim_start_matches("::").to_string()
}

/// The enumeration type (unqualified name) node `i` of `b` makes a value of other than from an
/// enumerator: a conversion to it (a cast, an integer converted implicitly in C) or a
/// value-initialization (`Mode()`, `Mode{}`: 0, which need not be an enumerator). Any type name
/// is returned; only enumeration types are looked up.
fn enum_source(b: &Body, i: usize) -> Option<String> {
    let converts = match b.kind(i) {
        NodeKind::CStyleCast { .. }
        | NodeKind::StaticCast
        | NodeKind::FunctionalCast
        | NodeKind::ReinterpretCast => true,
        NodeKind::ImplicitCast { cast } => cast == "IntegralCast",
        NodeKind::InitList => b.children(i).is_empty(),
        NodeKind::Other { kind } => matches!(
            kind.as_str(),
            "CXXScalarValueInitExpr" | "ImplicitValueInitExpr" | "BuiltinBitCastExpr" | "CXXConstCastExpr"
        ),
        _ => false,
    };
    if !converts {
        return None;
    }
    let ty = bare_type(b.ty(i));
    Some(ty.rsplit("::").next().unwrap_or(&ty).to_string())
}

/// Whether a type is `dim3` (qualifiers and a reference to it aside).
fn is_dim3(ty: &str) -> bool {
    let words: Vec<&str> = ty
        .split(|c: char| c.is_whitespace() || c == '&')
        .filter(|w| !w.is_empty() && !matches!(*w, "const" | "struct" | "volatile"))
        .collect();
    words == ["dim3"]
}

/// One function body in pre-order, with parents and subtree ends (a node's subtree is
/// `i..end[i]`), so positions compare as program order.
struct Body<'m> {
    /// The function (`None`: a namespace-scope constant's initializer on its own).
    f: Option<&'m Function>,
    nodes: Vec<&'m Node>,
    parent: Vec<Option<usize>>,
    end: Vec<usize>,
    /// References by declaration id.
    refs: HashMap<&'m str, Vec<usize>>,
    /// Local declarations by id.
    vars: HashMap<&'m str, usize>,
    has_goto: bool,
}

impl<'m> Body<'m> {
    fn new(f: Option<&'m Function>, root: &'m Node) -> Body<'m> {
        let mut b = Body {
            f,
            nodes: Vec::new(),
            parent: Vec::new(),
            end: Vec::new(),
            refs: HashMap::new(),
            vars: HashMap::new(),
            has_goto: false,
        };
        // Iterative pre-order: (node, parent, whether its children were pushed).
        let mut stack: Vec<(&Node, Option<usize>, Option<usize>)> = vec![(root, None, None)];
        while let Some((n, parent, done)) = stack.pop() {
            if let Some(i) = done {
                b.end[i] = b.nodes.len();
                continue;
            }
            let i = b.nodes.len();
            b.nodes.push(n);
            b.parent.push(parent);
            b.end.push(i + 1);
            match &n.kind {
                NodeKind::DeclRef { decl_id, .. } => b.refs.entry(decl_id.as_str()).or_default().push(i),
                NodeKind::Var { id, .. } => {
                    b.vars.insert(id.as_str(), i);
                }
                NodeKind::Goto { .. } | NodeKind::Label { .. } => b.has_goto = true,
                NodeKind::Other { kind } if kind == "IndirectGotoStmt" => b.has_goto = true,
                _ => {}
            }
            stack.push((n, parent, Some(i)));
            for c in n.children.iter().rev() {
                stack.push((c, Some(i), None));
            }
        }
        b
    }

    fn kind(&self, i: usize) -> &'m NodeKind {
        &self.nodes[i].kind
    }

    fn ty(&self, i: usize) -> &'m str {
        self.nodes[i].ty.as_deref().unwrap_or("")
    }

    fn children(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut c = i + 1;
        while c < self.end[i] {
            out.push(c);
            c = self.end[c];
        }
        out
    }

    fn child(&self, i: usize, k: usize) -> Option<usize> {
        self.children(i).get(k).copied()
    }

    /// Whether `a` lies in the subtree of `outer`.
    fn inside(&self, a: usize, outer: usize) -> bool {
        outer <= a && a < self.end[outer]
    }

    fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent[i], move |p| self.parent[*p])
    }

    fn is_loop(&self, i: usize) -> bool {
        matches!(self.kind(i), NodeKind::For | NodeKind::While | NodeKind::Do)
            || matches!(self.kind(i), NodeKind::Other { kind } if kind == "CXXForRangeStmt")
    }

    /// Whether some loop that may repeat its body ([`Body::repeats`]) encloses both `a` and `b`.
    fn common_loop(&self, a: usize, b: usize) -> bool {
        self.ancestors(a).any(|l| self.is_loop(l) && self.repeats(l) && self.inside(b, l))
    }

    /// The body of loop `l` (a `do`'s is its first child, the others' their last).
    fn loop_body(&self, l: usize) -> Option<usize> {
        let kids = self.children(l);
        if matches!(self.kind(l), NodeKind::Do) {
            kids.first().copied()
        } else {
            kids.last().copied()
        }
    }

    /// Whether loop `l` may run its body more than once: not when the body's last statement is
    /// a `break` of `l` and nothing `continue`s `l` (every iteration that completes the body
    /// leaves by that `break`; one that leaves otherwise leaves the loop too).
    fn repeats(&self, l: usize) -> bool {
        let Some(body) = self.loop_body(l).filter(|b| matches!(self.kind(*b), NodeKind::Compound)) else {
            return true;
        };
        let ends_in_break =
            self.children(body).last().is_some_and(|c| matches!(self.kind(*c), NodeKind::Break));
        let continues = (body..self.end[body]).any(|n| {
            matches!(self.kind(n), NodeKind::Continue)
                && self.ancestors(n).take_while(|a| *a != l).all(|a| !self.is_loop(a))
        });
        !ends_in_break || continues
    }

    /// Whether loop `l` runs its body exactly once: it does not repeat, and it enters the body
    /// unchecked (`for (;;)`, `while (true)`, `while (1)`, a `do`).
    fn runs_once(&self, l: usize) -> bool {
        if self.repeats(l) {
            return false;
        }
        let kids = self.children(l);
        let always = |c: usize| match self.kind(self.strip_int(c)) {
            NodeKind::BoolLiteral { value } => *value,
            NodeKind::IntegerLiteral { value } => value.parse::<i64>().is_ok_and(|v| v != 0),
            NodeKind::Empty => true,
            _ => false,
        };
        match (self.kind(l), kids.as_slice()) {
            (NodeKind::Do, _) => true,
            (NodeKind::While, &[cond, _]) => always(cond),
            (NodeKind::For, &[_, cond, _, _]) => always(cond),
            _ => false,
        }
    }

    /// `v.x`, `v.y`, `v.z` of a variable `v` (through casts): its declaration and the field.
    fn dim3_field(&self, n: usize) -> Option<(&'m str, usize)> {
        let s = self.strip_int(n);
        let NodeKind::Member { name, arrow: false, .. } = self.kind(s) else { return None };
        let NodeKind::DeclRef { decl_id, .. } = self.kind(self.strip(self.child(s, 0)?)) else { return None };
        Some((decl_id.as_str(), field_index(name)?))
    }

    /// Whether lambda expression `l` is called right where it is written (`[&] { … }()`, the
    /// `AT_DISPATCH_*` macros): its body runs then, once, so the checks around it hold in it.
    fn invoked_here(&self, l: usize) -> bool {
        let mut cur = l;
        while let Some(p) = self.parent[cur] {
            match self.kind(p) {
                NodeKind::Paren | NodeKind::ImplicitCast { .. } => cur = p,
                NodeKind::Other { kind }
                    if matches!(kind.as_str(), "MaterializeTemporaryExpr" | "CXXBindTemporaryExpr") =>
                {
                    cur = p
                }
                NodeKind::OperatorCall { operator: Some(o) } => {
                    return o == "operator()" && self.child(p, 1) == Some(cur);
                }
                _ => return false,
            }
        }
        false
    }

    fn in_lambda(&self, i: usize) -> bool {
        self.ancestors(i).any(|a| matches!(self.kind(a), NodeKind::Other { kind } if kind == "LambdaExpr"))
    }

    /// Through parentheses and conversions that keep a value (`strip` for values).
    fn strip(&self, mut i: usize) -> usize {
        loop {
            let next = match self.kind(i) {
                NodeKind::Paren => self.child(i, 0),
                NodeKind::ImplicitCast { cast }
                    if matches!(cast.as_str(), "LValueToRValue" | "NoOp" | "ConstructorConversion") =>
                {
                    self.child(i, 0)
                }
                NodeKind::FunctionalCast if is_dim3(self.ty(i)) => self.child(i, 0),
                NodeKind::Constant { value: None } => self.child(i, 0),
                NodeKind::Other { kind }
                    if matches!(
                        kind.as_str(),
                        "MaterializeTemporaryExpr" | "CXXBindTemporaryExpr" | "ExprWithCleanups"
                    ) =>
                {
                    self.child(i, 0)
                }
                NodeKind::Other { kind } if kind == "SubstNonTypeTemplateParmExpr" => {
                    self.children(i).last().copied()
                }
                _ => None,
            };
            match next {
                Some(n) => i = n,
                None => return i,
            }
        }
    }

    /// [`Body::strip`], and an implicit integral conversion (a relation is C arithmetic on the
    /// values, which the conversion to `unsigned` of a dimension keeps when it is a fact).
    fn strip_int(&self, i: usize) -> usize {
        let s = self.strip(i);
        match (self.kind(s), self.child(s, 0)) {
            (NodeKind::ImplicitCast { cast }, Some(c)) if cast == "IntegralCast" => self.strip(c),
            _ => s,
        }
    }

    /// Through casts, `&` and parentheses to a function reference: its node.
    fn function_ref(&self, mut i: usize) -> Option<usize> {
        loop {
            match self.kind(i) {
                NodeKind::ImplicitCast { .. }
                | NodeKind::CStyleCast { .. }
                | NodeKind::StaticCast
                | NodeKind::ReinterpretCast
                | NodeKind::Paren => i = self.child(i, 0)?,
                NodeKind::Unary { op, .. } if op == "&" => i = self.child(i, 0)?,
                NodeKind::DeclRef { decl_kind, .. } if decl_kind.contains("Function") => return Some(i),
                _ => return None,
            }
        }
    }
}

/// One definition of a variable (or one field of a `dim3`).
#[derive(Clone, Copy, Debug)]
struct Def {
    /// The node whose position orders it (`None`: the function's entry, for a parameter).
    at: Option<usize>,
    what: DefValue,
}

#[derive(Clone, Copy, Debug)]
enum DefValue {
    /// The integer value of this node.
    Expr(usize),
    /// Field `.1` of the `dim3` value of node `.0`.
    Field(usize, usize),
    /// `var op= rhs` at the definition.
    Compound(&'static str, usize),
    /// The parameter's value on entry: agreed by every call of the function.
    Param(usize),
    Unknown,
}

/// What a variable is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VarKind {
    Int,
    Dim3,
}

struct Host<'a, 'm> {
    model: &'m Model,
    bodies: &'a [Body<'m>],
    /// Variable evaluations left ([`STEP_BUDGET`]).
    steps: Cell<usize>,
    keys: HashMap<String, (String, bool)>,
    /// The path equalities of the launch whose values are being computed (`paths`).
    path: RefCell<Option<paths::PathCtx>>,
    /// The bodies (indices into `bodies`) of each function key.
    by_key: HashMap<String, Vec<usize>>,
    /// Per body (address) and integer variable: where its last definition ends
    /// ([`Host::settled_before`]; `None`: not a variable whose every change is seen).
    settled: RefCell<HashMap<(usize, String), Option<usize>>>,
    /// What the current launch's path facts may still visit inside helpers (`paths`).
    helper_work: Cell<usize>,
    /// Helper parameters (clang ids) taken at a value: one of a table's while a launch's site
    /// is read once per value ([`Host::launch_choices`]), a call's argument while the helper's
    /// `return e;` is evaluated for that call ([`Host::call_value`]). Innermost last.
    pinned: RefCell<Vec<(String, i64)>>,
}

impl Host<'_, '_> {
    fn collect(&self, b: &Body, out: &mut HostLaunches) {
        // The function references that are a launch's kernel or only inspected.
        let mut accounted: BTreeSet<usize> = BTreeSet::new();
        for i in 0..b.nodes.len() {
            match b.kind(i) {
                NodeKind::KernelCall => {
                    let Some(callee) = b.child(i, 0).and_then(|c| b.function_ref(c)) else { continue };
                    let config = b.child(i, 1);
                    let args: Vec<usize> = b.children(i).into_iter().skip(2).collect();
                    let grid = config.and_then(|c| b.child(c, 1));
                    let block = config.and_then(|c| b.child(c, 2));
                    let shared = config.map(|c| b.child(c, 3));
                    // A kernel the model does not hold stays unaccounted: a use by name below.
                    if let Some(k) = self.kernel_of(b, callee) {
                        accounted.insert(callee);
                        // Once per value of a helper parameter its callers take from a table
                        // (`block_sizes[j]`), else once.
                        let choices = self.launch_choices(b, i);
                        let pins: Vec<Option<(String, i64)>> = match choices {
                            Some((id, values)) => values.into_iter().map(|v| Some((id.clone(), v))).collect(),
                            None => vec![None],
                        };
                        for pin in pins {
                            let pinned = pin.is_some();
                            self.pinned.borrow_mut().extend(pin);
                            let mut site = self.site(b, i, grid, block, Some(&args), out);
                            site.shared_bytes = shared.and_then(|s| self.shared_bytes(b, s));
                            site.arg_bytes = args.iter().map(|a| self.allocated_bytes(b, *a)).collect();
                            out.record_site(&k, site);
                            if pinned {
                                self.pinned.borrow_mut().pop();
                            }
                        }
                    }
                }
                NodeKind::Call { callee: Some(name) } if LAUNCHING.contains(&name.as_str()) => {
                    let Some(callee) = b.child(i, 1).and_then(|c| b.function_ref(c)) else { continue };
                    let (grid, block) = (b.child(i, 2), b.child(i, 3));
                    // The arguments travel in a `void *[]`: not read, so no argument facts.
                    if let Some(k) = self.kernel_of(b, callee) {
                        accounted.insert(callee);
                        let mut site = self.site(b, i, grid, block, None, out);
                        site.shared_bytes = self.shared_bytes(b, b.child(i, 5));
                        out.record_site(&k, site);
                    }
                }
                NodeKind::Call { callee: Some(name) } if NON_LAUNCHING.contains(&name.as_str()) => {
                    for a in b.children(i).into_iter().skip(1) {
                        if let Some(r) = b.function_ref(a) {
                            accounted.insert(r);
                        }
                    }
                }
                _ => {}
            }
        }
        for i in 0..b.nodes.len() {
            let NodeKind::DeclRef { decl_id, decl_kind, name } = b.kind(i) else { continue };
            if !decl_kind.contains("Function") || accounted.contains(&i) {
                continue;
            }
            match self.keys.get(decl_id) {
                Some((k, true)) => {
                    let at = out.span(b.nodes[i].range.as_ref());
                    out.by_kernel.entry(k.clone()).or_default().other_use.get_or_insert(at);
                }
                Some((_, false)) => {}
                None if self.model.kernels().any(|f| &f.name == name) => {
                    let at = out.span(b.nodes[i].range.as_ref());
                    out.by_name.entry(name.clone()).or_insert(at);
                }
                None => {}
            }
        }
    }

    /// The bytes of dynamic shared memory a launch's argument gives: an absent or default
    /// argument is 0; `None` when the value is not known.
    fn shared_bytes(&self, b: &Body, arg: Option<usize>) -> Option<i64> {
        let Some(a) = arg else { return Some(0) };
        if matches!(b.kind(a), NodeKind::Other { kind } if kind == "CXXDefaultArgExpr") {
            return Some(0);
        }
        self.int(b, a, 0)
    }

    /// The bytes `cudaMalloc` (or `cudaMallocManaged`) gave the pointer a launch passes as
    /// argument `arg`: a local pointer variable of this body whose every use is a read, except
    /// its address passed as the first argument of exactly one such call, whose size is known
    /// here. `None` otherwise (re-pointed, offset, allocated twice, a size not known, …).
    fn allocated_bytes(&self, b: &Body, arg: usize) -> Option<i64> {
        let a = b.strip(arg);
        let NodeKind::DeclRef { decl_id, .. } = b.kind(a) else { return None };
        let &v = b.vars.get(decl_id.as_str())?;
        if !b.ty(v).contains('*') || matches!(b.kind(v), NodeKind::Var { storage_class: Some(_), .. }) {
            return None;
        }
        let mut size = None;
        for &r in b.refs.get(decl_id.as_str()).map_or(&[][..], Vec::as_slice) {
            let p = b.parent[r]?;
            match b.kind(p) {
                NodeKind::ImplicitCast { cast } if cast == "LValueToRValue" => continue,
                NodeKind::Unary { op, .. } if op == "&" => {}
                _ => return None,
            }
            // `&d`, through casts to `void **`, as the first argument of an allocation.
            let mut c = p;
            let call = loop {
                let up = b.parent[c]?;
                match b.kind(up) {
                    NodeKind::ImplicitCast { .. } | NodeKind::CStyleCast { .. } | NodeKind::Paren => c = up,
                    NodeKind::Call { callee: Some(name) }
                        if matches!(name.as_str(), "cudaMalloc" | "cudaMallocManaged")
                            && b.child(up, 1) == Some(c) =>
                    {
                        break up
                    }
                    _ => return None,
                }
            };
            if size.is_some() || b.common_loop(call, arg) {
                // A second allocation, or one repeated with the launch in a loop: no fact.
                return None;
            }
            size = Some(self.int(b, b.child(call, 2)?, 0)?);
        }
        size.filter(|s| *s > 0)
    }

    /// The key of the kernel a launch's callee reference names (`None`: not a kernel, or a
    /// declaration the model does not hold, which [`Host::collect`] counts as a use by name).
    fn kernel_of(&self, b: &Body, r: usize) -> Option<String> {
        let NodeKind::DeclRef { decl_id, .. } = b.kind(r) else { return None };
        self.keys.get(decl_id).filter(|(_, kernel)| *kernel).map(|(k, _)| k.clone())
    }

    fn site(
        &self,
        b: &Body,
        launch: usize,
        grid: Option<usize>,
        block: Option<usize>,
        args: Option<&[usize]>,
        out: &mut HostLaunches,
    ) -> Site {
        self.helper_work.set(paths::HELPER_WORK);
        let guards = self.guards(b, launch);
        *self.path.borrow_mut() = Some(self.path_ctx(b, launch, &guards));
        let dims = |e: Option<usize>| e.map_or([None; 3], |e| self.dims(b, e, 0));
        let values = args.map_or(Vec::new(), |a| a.iter().map(|x| self.int(b, *x, 0)).collect());
        let rel = |e: Option<usize>| match (e, args) {
            (Some(e), Some(a)) => self.relations(b, e, launch, a),
            _ => Default::default(),
        };
        let (grid_dims, block_dims, rels) = (dims(grid), dims(block), [rel(block), rel(grid)]);
        // The variables the launch passes bare as dimensions: conditions on them are conditions
        // on the dimensions (`assert(threads <= 256)` with `<<<grid, threads>>>`).
        let mut dim_vars = Vec::new();
        for (p, e) in [(0, block), (1, grid)] {
            if let Some(e) = e {
                dim_vars.extend(self.dim_vars(b, e, launch).into_iter().map(|(v, d, at)| (v, p, d, at)));
            }
        }
        let conds = self.guard_rels(b, &guards, args.unwrap_or(&[]), &dim_vars);
        // After every value of the launch is computed: which path equalities they used.
        let used = self.path.borrow().as_ref().map_or(Vec::new(), |c| c.used(b));
        let mut conds: Vec<(Rel, Span)> =
            conds.into_iter().map(|(r, at)| (r, out.span(b.nodes[at].range.as_ref()))).collect();
        if let Some(a) = args {
            let here = out.span(b.nodes[launch].range.as_ref());
            conds.extend(self.shared_arguments(b, a).into_iter().map(|r| (r, here)));
            conds.extend(self.power_of_two_arguments(b, a, out));
            conds.extend(self.non_negative_arguments(b, a, out));
            conds.extend(self.caller_conds(b, launch, a, out));
            conds.truncate(paths::MAX_CONDS);
        }
        let site = Site {
            via: used.into_iter().map(|(s, at)| (s, out.span(b.nodes[at].range.as_ref()))).collect(),
            at: out.span(b.nodes[launch].range.as_ref()),
            grid: grid_dims,
            block: block_dims,
            args: values,
            rel: rels,
            conds,
            shared_bytes: None,
            arg_bytes: Vec::new(),
        };
        *self.path.borrow_mut() = None;
        site
    }

    /// The integer value of node `i` of `b`.
    fn int(&self, b: &Body, i: usize, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let v = match b.kind(i) {
            NodeKind::IntegerLiteral { value } => value.parse().ok()?,
            NodeKind::BoolLiteral { value } => i64::from(*value),
            NodeKind::Constant { value: Some(v) } => match v.as_str() {
                "true" => 1,
                "false" => 0,
                v => v.parse().ok()?,
            },
            NodeKind::Constant { value: None } | NodeKind::Paren => self.int(b, b.child(i, 0)?, d)?,
            NodeKind::ImplicitCast { cast } => match cast.as_str() {
                "LValueToRValue" | "NoOp" => self.int(b, b.child(i, 0)?, d)?,
                "IntegralCast" => self.fits(b, i, self.int(b, b.child(i, 0)?, d)?)?,
                "IntegralToBoolean" => i64::from(self.int(b, b.child(i, 0)?, d)? != 0),
                _ => return None,
            },
            NodeKind::CStyleCast { .. } | NodeKind::StaticCast | NodeKind::FunctionalCast => {
                let c = b.child(i, 0)?;
                // Integer to integer only (a float or pointer value is not an integer fact).
                self.int_range(b.ty(c))?;
                self.fits(b, i, self.int(b, c, d)?)?
            }
            // `sizeof` of a scalar or vector type (`129 * sizeof(float)`, `sizeof(int4)`).
            NodeKind::TypeTrait { name, arg_ty: Some(t) } if name == "sizeof" => {
                let t = self.model.typedefs.get(t.as_str()).map_or(t.as_str(), String::as_str);
                i64::from(super::lower::type_bytes(t)?)
            }
            NodeKind::Binary { op } => {
                let (l, r) = (self.int(b, b.child(i, 0)?, d)?, self.int(b, b.child(i, 1)?, d)?);
                binary(op, l, r)?
            }
            NodeKind::Unary { op, postfix: false } => {
                let v = self.int(b, b.child(i, 0)?, d)?;
                match op.as_str() {
                    "-" => v.checked_neg()?,
                    "+" => v,
                    "!" => i64::from(v == 0),
                    _ => return None,
                }
            }
            NodeKind::Conditional => {
                let c = self.int(b, b.child(i, 0)?, d)?;
                self.int(b, b.child(i, if c != 0 { 1 } else { 2 })?, d)?
            }
            NodeKind::DeclRef { decl_id, decl_kind, .. }
                if matches!(decl_kind.as_str(), "VarDecl" | "ParmVarDecl") =>
            {
                match self.model.globals.get(decl_id).and_then(|g| g.value.as_ref()) {
                    // A namespace-scope constant (the model keeps a value only for those).
                    Some(v) => self.int(&Body::new(None, v), 0, d + LOOKUP)?,
                    None => self.var(b, decl_id, None, i, d + LOOKUP)?,
                }
            }
            NodeKind::Member { name, arrow: false, .. } => {
                let field = field_index(name)?;
                let base = b.strip(b.child(i, 0)?);
                let NodeKind::DeclRef { decl_id, .. } = b.kind(base) else { return None };
                self.var(b, decl_id, Some(field), i, d + LOOKUP)?
            }
            NodeKind::Other { kind } if kind == "SubstNonTypeTemplateParmExpr" => {
                self.int(b, *b.children(i).last()?, d)?
            }
            NodeKind::Call { .. } => self.call_value(b, i, d)?,
            _ => return None,
        };
        // The value must be one of the node's type (a conversion clang made explicit keeps it).
        match self.int_range(b.ty(i)) {
            Some((lo, hi)) if (lo..=hi).contains(&v) => Some(v),
            Some(_) => None,
            None if b.ty(i).is_empty() => Some(v),
            None => None,
        }
    }

    fn int_range(&self, ty: &str) -> Option<(i64, i64)> {
        int_range(ty, &self.model.typedefs)
    }

    /// The value of a call of a host helper whose body is `{ return e; }` (`ceil_div(n, 256)`)
    /// with known arguments: `e` with each by-value parameter at its argument's value.
    fn call_value(&self, b: &Body, call: usize, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let callee = b.function_ref(b.child(call, 0)?)?;
        let NodeKind::DeclRef { decl_id, .. } = b.kind(callee) else { return None };
        let (k, false) = self.keys.get(decl_id.as_str())? else { return None };
        let h = self.by_key.get(k).filter(|bs| bs.len() == 1).and_then(|bs| self.bodies.get(bs[0]))?;
        let f = h.f?;
        let [ret] = h.children(0)[..] else { return None };
        if !matches!(h.kind(ret), NodeKind::Return) || f.params.iter().any(|p| p.ty.contains('&')) {
            return None;
        }
        let args: Vec<usize> = b.children(call).into_iter().skip(1).collect();
        if args.len() != f.params.len() {
            return None;
        }
        let mut values = Vec::new();
        for (p, a) in f.params.iter().zip(&args) {
            values.push((p.id.clone(), self.int(b, *a, depth + 1)?));
        }
        let n = values.len();
        self.pinned.borrow_mut().extend(values);
        let v = h.child(ret, 0).and_then(|e| self.int(h, e, depth + LOOKUP));
        let mut pinned = self.pinned.borrow_mut();
        let keep = pinned.len() - n;
        pinned.truncate(keep);
        v
    }

    /// `v` when node `i`'s integer type holds it (a conversion that would change it is unknown).
    fn fits(&self, b: &Body, i: usize, v: i64) -> Option<i64> {
        let (lo, hi) = self.int_range(b.ty(i))?;
        (lo..=hi).contains(&v).then_some(v)
    }

    /// The three dimensions of a launch argument (a `dim3` or an integer).
    fn dims(&self, b: &Body, e: usize, depth: usize) -> Dims {
        const UNKNOWN: Dims = [None; 3];
        if depth > MAX_DEPTH {
            return UNKNOWN;
        }
        let e = b.strip(e);
        match b.kind(e) {
            NodeKind::Other { kind }
                if matches!(kind.as_str(), "CXXConstructExpr" | "CXXTemporaryObjectExpr") =>
            {
                let args = b.children(e);
                if let [one] = args.as_slice() {
                    if is_dim3(b.ty(*one)) {
                        return self.dims(b, *one, depth + 1);
                    }
                }
                std::array::from_fn(|d| self.field_value(b, e, d, depth + 1))
            }
            NodeKind::InitList if is_dim3(b.ty(e)) => {
                std::array::from_fn(|d| self.field_value(b, e, d, depth + 1))
            }
            NodeKind::DeclRef { decl_id, .. } if is_dim3(b.ty(e)) => {
                std::array::from_fn(|d| self.var(b, decl_id, Some(d), e, depth + LOOKUP))
            }
            NodeKind::Conditional if is_dim3(b.ty(e)) => {
                let (Some(c), Some(x), Some(y)) = (b.child(e, 0), b.child(e, 1), b.child(e, 2)) else {
                    return UNKNOWN;
                };
                let (dx, dy) = (self.dims(b, x, depth + 1), self.dims(b, y, depth + 1));
                match self.int(b, c, depth + 1) {
                    Some(0) => dy,
                    Some(_) => dx,
                    None => std::array::from_fn(|i| dx[i].filter(|v| dy[i] == Some(*v))),
                }
            }
            _ if self.int_range(b.ty(e)).is_some() => [self.int(b, e, depth + 1), Some(1), Some(1)],
            _ => UNKNOWN,
        }
    }

    /// Field `d` of a `dim3` construction or initializer list `e` (an absent or default
    /// argument is 1, `dim3`'s default).
    fn field_value(&self, b: &Body, e: usize, d: usize, depth: usize) -> Option<i64> {
        let args = b.children(e);
        if args.len() > 3 || args.iter().any(|a| !self.is_int_or_default(b, *a)) {
            return None;
        }
        match args.get(d) {
            None => Some(1),
            Some(a) if is_default(b, *a) => Some(1),
            Some(a) => self.int(b, *a, depth).filter(|v| (1..=i64::from(u32::MAX)).contains(v)),
        }
    }

    fn is_int_or_default(&self, b: &Body, a: usize) -> bool {
        is_default(b, a) || self.int_range(b.ty(a)).is_some()
    }

    /// The value variable `id` (field `field` of a `dim3`) has just before node `at` of `b`.
    fn var(&self, b: &Body, id: &str, field: Option<usize>, at: usize, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH || self.steps.get() == 0 {
            return None;
        }
        self.steps.set(self.steps.get() - 1);
        let (kind, defs) = self.definitions(b, id, field)?;
        if (kind == VarKind::Dim3) != field.is_some() {
            return None;
        }
        let value = match self.reaching(b, id, &defs, at, depth) {
            Some(v) => v,
            None if field.is_none() => self.path_value(b, id, &defs, at)?,
            None => return None,
        };
        let ok = match field {
            Some(_) => (1..=i64::from(u32::MAX)).contains(&value),
            None => (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&value),
        };
        ok.then_some(value)
    }

    /// What variable `id` is and every definition of the slot (`field`) in `b`; `None` when it
    /// is not a local or parameter of `b` of integer or `dim3` type whose every change is seen.
    /// A namespace-scope constant is its initializer.
    fn definitions(&self, b: &Body, id: &str, field: Option<usize>) -> Option<(VarKind, Vec<Def>)> {
        let mut defs = Vec::new();
        let ty = if let Some(&v) = b.vars.get(id) {
            if let NodeKind::Var { storage_class: Some(_), .. } = b.kind(v) {
                // `static` (kept across calls), `extern`: changed outside this body.
                return None;
            }
            let decl_at = b.parent[v].unwrap_or(v);
            let init = b.child(v, 0);
            let what = match (field, init) {
                (None, Some(e)) => DefValue::Expr(e),
                (Some(f), Some(e)) => DefValue::Field(e, f),
                (_, None) => DefValue::Unknown,
            };
            defs.push(Def { at: Some(decl_at), what });
            b.ty(v)
        } else if let Some((f, p)) = b.f.and_then(|f| Some((f, f.params.iter().position(|p| p.id == id)?))) {
            let ty = param_type(&f.params[p]);
            if ty.contains('&') {
                return None;
            }
            defs.push(Def {
                at: None,
                what: if field.is_none() { DefValue::Param(p) } else { DefValue::Unknown },
            });
            ty
        } else {
            return None;
        };
        let kind = if is_dim3(ty) && !ty.contains('&') {
            VarKind::Dim3
        } else if self.int_range(ty).is_some() {
            VarKind::Int
        } else {
            return None;
        };
        // A `const` variable keeps its initializer (changing it is undefined).
        let refs = if ty.trim_start().starts_with("const ") {
            &[][..]
        } else {
            b.refs.get(id).map_or(&[][..], Vec::as_slice)
        };
        for &r in refs {
            if let Some(d) = self.role(b, r, field)? {
                defs.push(d);
            }
        }
        Some((kind, defs))
    }

    /// What reference `r` does to the slot (`field`): nothing (`Some(None)`: a read, or a store
    /// to another field), a definition, or `None` when the variable escapes (a lambda may
    /// change it: no value at all).
    fn role(&self, b: &Body, r: usize, field: Option<usize>) -> Option<Option<Def>> {
        let mut cur = r;
        let mut stored_field = None;
        let up = |i: usize| {
            let mut p = b.parent[i]?;
            while matches!(b.kind(p), NodeKind::Paren) {
                p = b.parent[p]?;
            }
            Some(p)
        };
        let mut p = up(cur);
        if let Some(m) = p {
            if let NodeKind::Member { name, arrow: false, .. } = b.kind(m) {
                stored_field = field_index(name);
                cur = m;
                p = up(m);
            }
        }
        let other_field = matches!((stored_field, field), (Some(a), Some(f)) if a != f);
        let def = |what| Some(Def { at: Some(p.unwrap_or(cur)), what });
        let role = match p.map(|p| (p, b.kind(p))) {
            Some((_, NodeKind::ImplicitCast { cast })) if cast == "LValueToRValue" => None,
            Some((p, NodeKind::ImplicitCast { cast })) if cast == "NoOp" && b.ty(p).starts_with("const ") => {
                None
            }
            Some((p, NodeKind::Binary { op })) if op == "=" && b.child(p, 0) == Some(cur) => {
                match b.child(p, 1) {
                    _ if other_field => None,
                    // A whole `dim3` assigned from an integer.
                    Some(rhs) if field.is_some() && stored_field.is_none() => {
                        def(DefValue::Field(rhs, field.unwrap_or(0)))
                    }
                    Some(rhs) => def(DefValue::Expr(rhs)),
                    None => def(DefValue::Unknown),
                }
            }
            Some((p, NodeKind::CompoundAssign { op })) if b.child(p, 0) == Some(cur) => match compound(op) {
                _ if other_field => None,
                Some(o) if field.is_none() || stored_field.is_some() => match b.child(p, 1) {
                    Some(rhs) => def(DefValue::Compound(o, rhs)),
                    None => def(DefValue::Unknown),
                },
                _ => def(DefValue::Unknown),
            },
            // `b = dim3(…)`: the implicit copy assignment.
            Some((p, NodeKind::OperatorCall { operator: Some(o) }))
                if o == "operator=" && b.child(p, 1) == Some(cur) && stored_field.is_none() =>
            {
                match (b.child(p, 2), field) {
                    (Some(rhs), Some(f)) => def(DefValue::Field(rhs, f)),
                    _ => def(DefValue::Unknown),
                }
            }
            Some((_, NodeKind::Unary { op, .. })) if op == "++" || op == "--" => def(DefValue::Unknown),
            // Captured by a lambda called right here: what its body does is in this body too
            // (and a change there escapes, below); the capture itself changes nothing.
            Some((p, NodeKind::Other { kind })) if kind == "LambdaExpr" && b.invoked_here(p) => None,
            // Its address taken, a non-`const` reference bound, a method called, …: the variable
            // may change through an alias anywhere, so it has no value at all.
            _ => return None,
        };
        if role.is_some() && b.in_lambda(r) {
            return None;
        }
        Some(role)
    }

    /// The value the definitions give at `at` (the module comment's rule).
    fn reaching(&self, b: &Body, id: &str, defs: &[Def], at: usize, depth: usize) -> Option<i64> {
        let before = |d: &Def| d.at.is_none_or(|x| b.end[x] <= at);
        let in_loop_with = |d: &Def| d.at.is_some_and(|x| x >= at && b.common_loop(x, at));
        // A definition around `at` (`n = n * 2` read at its right side) is not before it.
        let around = |d: &Def| d.at.is_some_and(|x| b.inside(at, x));
        if b.has_goto {
            return None;
        }
        let (di, d) = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| before(d) && dominates(b, d.at, at))
            .max_by_key(|(_, d)| d.at.map_or(0, |x| x + 1))?;
        let from = d.at.map_or(0, |x| x + 1);
        let value = self.def_value(b, id, d, depth)?;
        for (i, other) in defs.iter().enumerate() {
            if i == di || around(other) {
                continue;
            }
            let between = before(other) && other.at.is_some_and(|x| x + 1 > from);
            if (between || in_loop_with(other)) && self.def_value(b, id, other, depth)? != value {
                return None;
            }
        }
        Some(value)
    }

    fn def_value(&self, b: &Body, id: &str, d: &Def, depth: usize) -> Option<i64> {
        match d.what {
            DefValue::Expr(e) => self.int(b, e, depth + 1),
            DefValue::Field(e, f) => self.dims(b, e, depth + 1)[f],
            DefValue::Compound(op, rhs) => {
                let at = d.at?;
                let target = b.child(at, 0)?;
                let field = match b.kind(b.strip(target)) {
                    NodeKind::Member { name, .. } => Some(field_index(name)?),
                    _ => None,
                };
                let old = self.var(b, id, field, at, depth + LOOKUP)?;
                let r = self.int(b, rhs, depth + 1)?;
                binary(op, old, r)
            }
            DefValue::Param(index) => self.argument(b.f?, index, depth + LOOKUP),
            DefValue::Unknown => None,
        }
    }

    /// The value every call of `f` passes as argument `index`; `None` when `f` is `main`, has
    /// no call, is used other than by direct calls (anywhere in the model, or by code the model
    /// does not build), or two calls differ.
    fn argument(&self, f: &Function, index: usize, depth: usize) -> Option<i64> {
        if let Some(p) = f.params.get(index) {
            if let Some((_, v)) = self.pinned.borrow().iter().rev().find(|(id, _)| *id == p.id) {
                return Some(*v);
            }
        }
        // The callers' variables are another activation's: the launch's path facts are not theirs.
        let saved = self.path.borrow_mut().take();
        let v = self.argument_unguarded(f, index, depth);
        *self.path.borrow_mut() = saved;
        v
    }

    /// The checks around every call of the launch's function `b` (a host helper such as
    /// `launch_softmax(…, cols)`, called under `if (cols <= 1024)`) as conditions on the kernel's
    /// arguments: a condition over the helper's by-value parameters, each one the launch passes
    /// bare and the helper never assigns, that holds at every call (one level of callers; the
    /// same condition at each). With the caller's body and the check's node, for the report.
    fn caller_conds(
        &self,
        b: &Body,
        launch: usize,
        args: &[usize],
        out: &mut HostLaunches,
    ) -> Vec<(Rel, Span)> {
        let Some(f) = b.f.filter(|f| f.name != "main") else { return Vec::new() };
        // Helper parameter `j` → the kernel argument it is passed bare as.
        let passed: Vec<Option<usize>> = f
            .params
            .iter()
            .map(|p| {
                let bare = |a: &usize| self.passes(b, *a, &p.id);
                args.iter().position(bare).filter(|_| self.settled_before(b, &p.id, launch))
            })
            .collect();
        // A field of a by-value `dim3` parameter the helper passes as kernel argument `i`
        // (`launchMM(…, dim3 dimsB)` launching with `dimsB.x`), never changed in the helper:
        // (parameter, field, `i`).
        let mut fields: Vec<(usize, usize, usize)> = Vec::new();
        for (j, p) in f.params.iter().enumerate() {
            let ty = param_type(p);
            if !is_dim3(ty) || ty.contains('&') {
                continue;
            }
            for (i, &a) in args.iter().enumerate() {
                let Some((base, field)) = b.dim3_field(a) else { continue };
                let of_p = base == p.id;
                let unchanged = matches!(self.definitions(b, &p.id, Some(field)), Some((VarKind::Dim3, defs)) if defs.iter().all(|d| d.at.is_none()));
                if of_p && unchanged {
                    fields.push((j, field, i));
                }
            }
        }
        if passed.iter().all(Option::is_none) && fields.is_empty() {
            return Vec::new();
        }
        let Some(calls) = self.calls_of(f) else { return Vec::new() };
        // The callers' variables are another activation's: the launch's path facts are not theirs.
        let saved = self.path.borrow_mut().take();
        let mut common: Option<Vec<(Rel, Span)>> = None;
        for (g, call) in calls {
            let mut call_args: Vec<usize> = g.children(call).into_iter().skip(1).collect();
            // The caller's `dim3` built from a variable (`dim3 dimsB(wB, wA)`): the item that
            // gives the field stands for it, as one more argument (checks on `wB` are checks on
            // the kernel's argument).
            let plain = call_args.len();
            let mut extra: Vec<usize> = Vec::new();
            for &(j, field, i) in &fields {
                let item = call_args.get(j).and_then(|&c| {
                    // Through the copy construction of the by-value parameter.
                    let c = match self.items(g, c)[..] {
                        [one] => one,
                        _ => c,
                    };
                    let NodeKind::DeclRef { decl_id: d, .. } = g.kind(g.strip(c)) else { return None };
                    let (init, at) = self.only_init(g, d)?;
                    let x = *self.items(g, init).get(field)?;
                    let NodeKind::DeclRef { decl_id: v, .. } = g.kind(g.strip_int(x)) else { return None };
                    self.settled_before(g, v, at).then_some(x)
                });
                if let Some(x) = item {
                    call_args.push(x);
                    extra.push(i);
                }
            }
            let to_kernel = |j: usize| {
                if j < plain {
                    passed.get(j).copied().flatten()
                } else {
                    extra.get(j - plain).copied()
                }
            };
            self.helper_work.set(paths::HELPER_WORK);
            let guards = self.guards(g, call);
            let here: Vec<(Rel, Span)> = self
                .guard_rels(g, &guards, &call_args, &[])
                .into_iter()
                .filter_map(|(r, at)| {
                    let r = r.remap(&to_kernel)?;
                    Some((r, out.span(g.nodes[at].range.as_ref())))
                })
                .collect();
            common = Some(match common {
                None => here,
                Some(c) => c.into_iter().filter(|(r, _)| here.iter().any(|(h, _)| h == r)).collect(),
            });
        }
        *self.path.borrow_mut() = saved;
        common.unwrap_or_default()
    }

    /// Every call of host function `f` (its body and the call node); `None` when `f` is used
    /// other than by direct calls (anywhere in the model, or by code the model does not build):
    /// then its callers are not all known.
    fn calls_of(&self, f: &Function) -> Option<Vec<(&Body<'_>, usize)>> {
        let k = key(f);
        let same = |id: &str| self.keys.get(id).is_some_and(|(x, _)| *x == k);
        if self.model.loose_refs.iter().any(|r| r.decl_id.as_deref().map_or(r.name == f.name, same)) {
            return None;
        }
        let mut calls = Vec::new();
        for g in self.bodies {
            for i in 0..g.nodes.len() {
                let NodeKind::DeclRef { decl_id, .. } = g.kind(i) else { continue };
                if !same(decl_id) {
                    continue;
                }
                // The callee of a call: `Call(ImplicitCast(DeclRef), args…)`.
                let call = g.parent[i]
                    .filter(|p| matches!(g.kind(*p), NodeKind::ImplicitCast { .. }))
                    .and_then(|decay| g.parent[decay].filter(|c| g.child(*c, 0) == Some(decay)))
                    .filter(|c| matches!(g.kind(*c), NodeKind::Call { .. }))?;
                calls.push((g, call));
            }
        }
        Some(calls)
    }

    /// The helper parameter a launch in helper `b` reads (in its configuration or arguments)
    /// whose callers pass no one value but each a value of a small set — a constant, or an
    /// element of a local table never written (`int block_sizes[] = {64, 128, 256, 512};` …
    /// `f(…, block_sizes[j])`) — with that set (2 to 16 values): the launch runs with one of them,
    /// so its site is read once per value.
    fn launch_choices(&self, b: &Body, launch: usize) -> Option<(String, Vec<i64>)> {
        let f = b.f.filter(|f| f.name != "main")?;
        f.params.iter().enumerate().find_map(|(j, p)| {
            let read_here = b.refs.get(p.id.as_str())?.iter().any(|r| b.inside(*r, launch));
            if !read_here || !self.settled_before(b, &p.id, launch) || self.argument(f, j, 0).is_some() {
                return None;
            }
            Some((p.id.clone(), self.argument_choices(f, j)?))
        })
    }

    /// The values the calls of `f` pass as argument `index`, each a constant or an element of
    /// a table ([`Host::table_values`]); `None` past 16 values, or when some call passes
    /// anything else (or `f` is used other than by direct calls).
    fn argument_choices(&self, f: &Function, index: usize) -> Option<Vec<i64>> {
        let calls = self.calls_of(f)?;
        let saved = self.path.borrow_mut().take();
        let mut values: Vec<i64> = Vec::new();
        let mut ok = true;
        for (g, call) in calls {
            let arg = g.child(call, index + 1).filter(|a| !is_default(g, *a));
            match arg.and_then(|a| self.int(g, a, 1).map(|v| vec![v]).or_else(|| self.table_values(g, a))) {
                Some(vs) => values.extend(vs),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        *self.path.borrow_mut() = saved;
        values.sort_unstable();
        values.dedup();
        (ok && (2..=16).contains(&values.len())).then_some(values)
    }

    /// The elements of the table `a` indexes (`block_sizes[j]`): a local array of `b` whose
    /// initializer's items are all known and which the function only reads by subscript (or
    /// measures with `sizeof`), so every element keeps its initial value.
    fn table_values(&self, b: &Body, a: usize) -> Option<Vec<i64>> {
        let e = b.strip(a);
        if !matches!(b.kind(e), NodeKind::ArraySubscript) {
            return None;
        }
        let mut base = b.strip(b.child(e, 0)?);
        if matches!(b.kind(base), NodeKind::ImplicitCast { cast } if cast == "ArrayToPointerDecay") {
            base = b.strip(b.child(base, 0)?);
        }
        let NodeKind::DeclRef { decl_id, .. } = b.kind(base) else { return None };
        let decl = *b.vars.get(decl_id.as_str())?;
        let only_read = b.refs.get(decl_id.as_str())?.iter().all(|&r| {
            let decay = b.parent[r].filter(
                |p| matches!(b.kind(*p), NodeKind::ImplicitCast { cast } if cast == "ArrayToPointerDecay"),
            );
            let subscript = decay
                .and_then(|d| b.parent[d])
                .filter(|s| matches!(b.kind(*s), NodeKind::ArraySubscript) && b.child(*s, 0) == decay);
            let read = subscript.and_then(|s| b.parent[s]).is_some_and(
                |p| matches!(b.kind(p), NodeKind::ImplicitCast { cast } if cast == "LValueToRValue"),
            );
            // `sizeof(table)`, `sizeof table`: the reference is only measured.
            let measured = b.ancestors(r).take(3).any(|p| matches!(b.kind(p), NodeKind::TypeTrait { .. }));
            read || measured
        });
        let init = b.child(decl, 0).filter(|i| matches!(b.kind(b.strip(*i)), NodeKind::InitList))?;
        if !only_read {
            return None;
        }
        b.children(b.strip(init)).into_iter().map(|x| self.int(b, x, 1)).collect()
    }

    fn argument_unguarded(&self, f: &Function, index: usize, depth: usize) -> Option<i64> {
        if f.name == "main" || depth > MAX_DEPTH {
            return None;
        }
        let mut value = None;
        for (b, call) in self.calls_of(f)? {
            let a = b.child(call, index + 1)?;
            if is_default(b, a) {
                return None;
            }
            let v = self.int(b, a, depth + 1)?;
            if value.is_some_and(|w| w != v) {
                return None;
            }
            value = Some(v);
        }
        value
    }

    /// Each dimension of launch argument `e` as an expression of the launch's arguments `args`
    /// (where every launch computes it so: `(n + 255) / 256` with `n` passed as an argument).
    fn relations(&self, b: &Body, e: usize, launch: usize, args: &[usize]) -> [Option<Rel>; 3] {
        let e = b.strip(e);
        // The items of a `dim3`, and the node from which their names must keep their values.
        let (items, anchor): (Vec<usize>, usize) = match b.kind(e) {
            NodeKind::Other { kind }
                if matches!(kind.as_str(), "CXXConstructExpr" | "CXXTemporaryObjectExpr") =>
            {
                let written: Vec<usize> = b.children(e).into_iter().filter(|a| !is_default(b, *a)).collect();
                match written.as_slice() {
                    [one] if is_dim3(b.ty(*one)) => match b.kind(b.strip(*one)) {
                        NodeKind::DeclRef { decl_id, .. } => match self.only_init(b, decl_id) {
                            Some((init, at)) => (self.items(b, init), at),
                            None => return Default::default(),
                        },
                        _ => return Default::default(),
                    },
                    // An integer variable: its initializer, when that is its one definition.
                    [one] if matches!(b.kind(b.strip_int(*one)), NodeKind::DeclRef { .. }) => {
                        let NodeKind::DeclRef { decl_id, .. } = b.kind(b.strip_int(*one)) else {
                            return Default::default();
                        };
                        match self.only_init(b, decl_id) {
                            Some((init, at)) if self.int_range(b.ty(init)).is_some() => (vec![init], at),
                            // Not one initializer (a parameter of the host function): the
                            // variable itself, passed as an argument too (`k<<<g, n>>>(…, n)`).
                            _ => (written, launch),
                        }
                    }
                    _ => (written, launch),
                }
            }
            _ => return Default::default(),
        };
        if items.len() > 3 {
            return Default::default();
        }
        std::array::from_fn(|d| {
            let r = self.rel_of(b, *items.get(d)?, anchor, args, 0)?;
            r.has_param().then_some(r)
        })
    }

    /// The variables launch argument `e` (a `dim3` or an integer) passes bare as a dimension:
    /// (declaration id, axis, the node where the dimension reads it).
    fn dim_vars(&self, b: &Body, e: usize, launch: usize) -> Vec<(String, usize, usize)> {
        let e = b.strip(e);
        let NodeKind::Other { kind } = b.kind(e) else { return Vec::new() };
        if !matches!(kind.as_str(), "CXXConstructExpr" | "CXXTemporaryObjectExpr") {
            return Vec::new();
        }
        let written: Vec<usize> = b.children(e).into_iter().filter(|a| !is_default(b, *a)).collect();
        let (items, read) = match written.as_slice() {
            [one] if is_dim3(b.ty(*one)) => match b.kind(b.strip(*one)) {
                NodeKind::DeclRef { decl_id, .. } => match self.only_init(b, decl_id) {
                    Some((init, at)) => (self.items(b, init), at),
                    None => return Vec::new(),
                },
                _ => return Vec::new(),
            },
            _ => (written, launch),
        };
        items
            .iter()
            .take(3)
            .enumerate()
            .filter_map(|(d, it)| match b.kind(b.strip_int(*it)) {
                NodeKind::DeclRef { decl_id, decl_kind, .. }
                    if matches!(decl_kind.as_str(), "VarDecl" | "ParmVarDecl") =>
                {
                    Some((decl_id.clone(), d, read))
                }
                _ => None,
            })
            .collect()
    }

    /// The written items of a `dim3` initializer (a construction or list).
    fn items(&self, b: &Body, init: usize) -> Vec<usize> {
        let e = b.strip(init);
        match b.kind(e) {
            NodeKind::Other { kind }
                if matches!(kind.as_str(), "CXXConstructExpr" | "CXXTemporaryObjectExpr") =>
            {
                let written: Vec<usize> = b.children(e).into_iter().filter(|a| !is_default(b, *a)).collect();
                match written.as_slice() {
                    [one] if is_dim3(b.ty(*one)) => self.items(b, *one),
                    _ => written,
                }
            }
            NodeKind::InitList => b.children(e),
            _ => vec![e],
        }
    }

    /// Whether launch argument `a` passes the value of variable `id`: `id` itself, or a field of
    /// a `dim3` local whose one definition built that field from `id` after `id`'s last
    /// definition (`dim3 dims(w, h); … k<<<…>>>(…, dims.x)`).
    fn passes(&self, b: &Body, a: usize, id: &str) -> bool {
        let s = b.strip_int(a);
        match b.kind(s) {
            NodeKind::DeclRef { decl_id, .. } => decl_id == id,
            NodeKind::Member { .. } => {
                let Some((d, field)) = b.dim3_field(s) else { return false };
                // A `dim3`'s items are its fields; another struct's constructor arguments are not.
                if !b.vars.get(d).is_some_and(|v| is_dim3(b.ty(*v))) {
                    return false;
                }
                let Some((init, at)) = self.only_init(b, d) else { return false };
                let item = self.items(b, init).get(field).copied();
                item.is_some_and(
                    |i| matches!(b.kind(b.strip_int(i)), NodeKind::DeclRef { decl_id, .. } if decl_id == id),
                ) && self.settled_before(b, id, at)
            }
            _ => false,
        }
    }

    /// The initializer of local `id` of `b` when its declaration is its one definition (and
    /// the declaration's node).
    fn only_init(&self, b: &Body, id: &str) -> Option<(usize, usize)> {
        let v = *b.vars.get(id)?;
        let slots = if is_dim3(b.ty(v)) { vec![Some(0), Some(1), Some(2)] } else { vec![None] };
        for slot in slots {
            let (_, defs) = self.definitions(b, id, slot)?;
            if defs.len() != 1 {
                return None;
            }
        }
        Some((b.child(v, 0)?, b.parent[v].unwrap_or(v)))
    }

    /// `Param(j) == Param(i)` for two integer arguments of one type that name the same local
    /// or parameter (`conv<<<g, b>>>(dst, src, w, h, w)`: the kernel's `pitch == imageW`). One
    /// call reads both, so they are equal unless something between the two reads changes the
    /// variable: an argument assigning it, or a call reaching it through its address (a
    /// variable whose address escapes is not taken).
    fn shared_arguments(&self, b: &Body, args: &[usize]) -> Vec<Rel> {
        let changes = |i: usize| {
            (i..b.end[i]).any(|k| {
                matches!(b.kind(k), NodeKind::Binary { op } if op == "=")
                    || matches!(b.kind(k), NodeKind::CompoundAssign { .. })
                    || matches!(b.kind(k), NodeKind::Unary { op, .. } if op == "++" || op == "--")
            })
        };
        if args.iter().any(|a| changes(*a)) {
            return Vec::new();
        }
        let var = |a: usize| match b.kind(b.strip(a)) {
            NodeKind::DeclRef { decl_id, .. } if self.definitions(b, decl_id, None).is_some() => {
                Some(decl_id.as_str())
            }
            _ => None,
        };
        let mut out = Vec::new();
        for (j, &aj) in args.iter().enumerate() {
            let same = args[..j].iter().position(|&ai| {
                var(ai).is_some()
                    && var(ai) == var(aj)
                    && b.ty(ai) == b.ty(aj)
                    && self.int_range(b.ty(aj)).is_some()
            });
            if let Some(i) = same {
                out.push(Rel::Bin("==", Box::new(Rel::Param(j)), Box::new(Rel::Param(i))));
            }
        }
        out
    }

    /// `(x & (x - 1)) == 0` for each argument passed as a bare variable `x` that only ever
    /// holds zero or a power of two ([`Self::power_of_two_or_zero`]: the strides of
    /// `for (s = size / 2; s > 0; s >>= 1)` in `for (size = 2048; …; size <<= 1)`), with the
    /// variable's declaration.
    fn power_of_two_arguments(&self, b: &Body, args: &[usize], out: &mut HostLaunches) -> Vec<(Rel, Span)> {
        let mut found = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let NodeKind::DeclRef { decl_id, .. } = b.kind(b.strip_int(a)) else { continue };
            let Some(&decl) = b.vars.get(decl_id.as_str()) else { continue };
            if self.int_range(b.ty(a)).is_none() || !self.power_of_two_or_zero(b, decl_id, 0) {
                continue;
            }
            let p = || Box::new(Rel::Param(i));
            let below = Rel::Bin("-", p(), Box::new(Rel::Const(1)));
            let low = Rel::Bin("&", p(), Box::new(below));
            found.push((Rel::Bin("==", Box::new(low), Box::new(Rel::Const(0))), decl));
        }
        found.into_iter().map(|(r, decl)| (r, out.span(b.nodes[decl].range.as_ref()))).collect()
    }

    /// `Param(i) >= 0` for each signed argument passed as a local that only ever holds a
    /// non-negative value: a tensor's size (`static_cast<int>(x.size(2))`, `numel()`,
    /// `stride(k)`, `dim()` of a `Tensor`: PyTorch's sizes are never negative), a non-negative
    /// constant, or `+ * / % >> << &` and `?:` of such values (signed overflow is undefined
    /// behaviour). A size converted to a narrower type keeps its value: the fact assumes sizes
    /// below the type's maximum, as the kernel's own index arithmetic does.
    fn non_negative_arguments(&self, b: &Body, args: &[usize], out: &mut HostLaunches) -> Vec<(Rel, Span)> {
        let mut found = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let NodeKind::DeclRef { decl_id, .. } = b.kind(b.strip_int(a)) else { continue };
            let Some(&decl) = b.vars.get(decl_id.as_str()) else { continue };
            let signed = self.int_range(b.ty(a)).is_some_and(|(lo, _)| lo < 0);
            if !signed || !self.non_negative_var(b, decl_id, 0) {
                continue;
            }
            let fact = Rel::Bin(">=", Box::new(Rel::Param(i)), Box::new(Rel::Const(0)));
            found.push((fact, out.span(b.nodes[decl].range.as_ref())));
        }
        found
    }

    /// Whether local `id` of `b` is never negative: every definition is a non-negative value
    /// ([`Host::non_negative_expr`]).
    fn non_negative_var(&self, b: &Body, id: &str, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        let Some((VarKind::Int, defs)) = self.definitions(b, id, None) else { return false };
        !defs.is_empty()
            && defs.iter().all(|d| match d.what {
                DefValue::Expr(e) => self.non_negative_expr(b, e, depth),
                _ => false,
            })
    }

    /// Whether expression `e` is never negative (see [`Host::non_negative_arguments`]).
    fn non_negative_expr(&self, b: &Body, e: usize, depth: usize) -> bool {
        if let Some(v) = self.int(b, e, 0) {
            return v >= 0;
        }
        let s = b.strip_int(e);
        let side = |k: usize| b.child(s, k).is_some_and(|c| self.non_negative_expr(b, c, depth));
        match b.kind(s) {
            NodeKind::StaticCast | NodeKind::CStyleCast { .. } | NodeKind::FunctionalCast => side(0),
            NodeKind::ImplicitCast { cast } if cast == "IntegralCast" => side(0),
            NodeKind::DeclRef { decl_id, .. } => self.non_negative_var(b, decl_id, depth + 1),
            NodeKind::Binary { op } => match op.as_str() {
                "+" | "*" | "/" | "%" | ">>" | "<<" => side(0) && side(1),
                "&" => side(0) || side(1),
                _ => false,
            },
            NodeKind::Conditional => side(1) && side(2),
            NodeKind::MemberCall { method: Some(m) } => {
                const SIZES: [&str; 6] = ["size", "numel", "stride", "dim", "ndimension", "nbytes"];
                let object = b.child(s, 0).and_then(|callee| b.child(callee, 0));
                SIZES.contains(&m.as_str()) && object.is_some_and(|o| is_tensor(b.ty(o)))
            }
            _ => false,
        }
    }

    /// Whether local `id` of `b` holds zero or a power of two whenever it is read: every
    /// definition is such a value, or keeps it one (`x <<= k`, `x >>= k`, `x *= 2`, `x /= 2`,
    /// `x = x * 2`); the invariant is inductive over the definitions, and a shift of a power of
    /// two is one or zero in unsigned arithmetic (signed overflow is undefined behaviour).
    fn power_of_two_or_zero(&self, b: &Body, id: &str, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        let Some((VarKind::Int, defs)) = self.definitions(b, id, None) else { return false };
        let pow2 = power_of_two_or_zero;
        defs.iter().all(|d| match d.what {
            DefValue::Expr(e) => self.power_of_two_expr(b, e, id, depth),
            DefValue::Compound("<<" | ">>", _) => true,
            DefValue::Compound("*", rhs) => self.power_of_two_expr(b, rhs, id, depth),
            DefValue::Compound("/", rhs) => self.int(b, rhs, 0).is_some_and(|v| v > 0 && pow2(v)),
            _ => false,
        })
    }

    /// Whether expression `e` is zero or a power of two when variable `id` (whose definition
    /// it is) and the variables it reads are.
    fn power_of_two_expr(&self, b: &Body, e: usize, id: &str, depth: usize) -> bool {
        let pow2 = power_of_two_or_zero;
        let s = b.strip_int(e);
        if let Some(v) = self.int(b, s, 0) {
            return pow2(v);
        }
        let side = |k: usize| b.child(s, k).is_some_and(|c| self.power_of_two_expr(b, c, id, depth));
        match b.kind(s) {
            NodeKind::DeclRef { decl_id, .. } => {
                decl_id == id || self.power_of_two_or_zero(b, decl_id, depth + 1)
            }
            NodeKind::Binary { op } => match op.as_str() {
                "<<" | ">>" => side(0),
                "*" => side(0) && side(1),
                "/" => {
                    side(0) && b.child(s, 1).and_then(|c| self.int(b, c, 0)).is_some_and(|v| v > 0 && pow2(v))
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// `n` as a [`Rel`]: variables that are launch arguments (passed bare, and not redefined
    /// from `anchor` on) are parameters, other names need a known value.
    fn rel_of(&self, b: &Body, n: usize, anchor: usize, args: &[usize], depth: usize) -> Option<Rel> {
        if depth > 16 {
            return None;
        }
        let s = b.strip_int(n);
        match b.kind(s) {
            NodeKind::DeclRef { decl_id, .. } => {
                let bare = |a: &usize| self.passes(b, *a, decl_id);
                match args.iter().position(bare) {
                    Some(i) if self.settled_before(b, decl_id, anchor) => Some(Rel::Param(i)),
                    _ => self.int(b, n, 0).map(Rel::Const),
                }
            }
            // A field of a `dim3` the launch passes as an argument too (`grid(dimsB.x / 16)`
            // with `k<<<grid, threads>>>(…, dimsB.x)`).
            NodeKind::Member { .. } => {
                let here = b.dim3_field(s).filter(|_| b.child(s, 0).is_some_and(|c| is_dim3(b.ty(c))));
                let passed = here.and_then(|h| args.iter().position(|a| b.dim3_field(*a) == Some(h)));
                match (here, passed) {
                    (Some((base, field)), Some(i)) if self.field_settled_before(b, base, field, anchor) => {
                        Some(Rel::Param(i))
                    }
                    _ => self.int(b, n, 0).map(Rel::Const),
                }
            }
            NodeKind::Binary { op } => {
                let op = match op.as_str() {
                    "+" => "+",
                    "-" => "-",
                    "*" => "*",
                    "/" => "/",
                    "%" => "%",
                    "<<" => "<<",
                    ">>" => ">>",
                    _ => return None,
                };
                let l = self.rel_of(b, b.child(s, 0)?, anchor, args, depth + 1)?;
                let r = self.rel_of(b, b.child(s, 1)?, anchor, args, depth + 1)?;
                Some(Rel::Bin(op, Box::new(l), Box::new(r)))
            }
            _ => self.int(b, n, 0).map(Rel::Const),
        }
    }

    /// Whether every definition of local or by-value parameter `id` of `b` lies before node
    /// `pos` (so it reads the same value anywhere from `pos` on).
    fn settled_before(&self, b: &Body, id: &str, pos: usize) -> bool {
        // Where the last definition ends (`Some(0)`: only the entry), once per variable: path
        // facts ask it for every check before every launch.
        let key = (paths::addr(b), id.to_string());
        let cached = self.settled.borrow().get(&key).copied();
        let last = cached.unwrap_or_else(|| {
            let last = match self.definitions(b, id, None) {
                Some((VarKind::Int, defs)) => {
                    Some(defs.iter().filter_map(|d| d.at).map(|x| b.end[x]).max().unwrap_or(0))
                }
                _ => None,
            };
            self.settled.borrow_mut().insert(key, last);
            last
        });
        last.is_some_and(|end| end <= pos)
    }

    /// Whether every definition of field `field` of `dim3` local or by-value parameter `id` of
    /// `b` lies before node `pos`.
    fn field_settled_before(&self, b: &Body, id: &str, field: usize, pos: usize) -> bool {
        match self.definitions(b, id, Some(field)) {
            Some((VarKind::Dim3, defs)) => defs.iter().filter_map(|d| d.at).all(|x| b.end[x] <= pos),
            _ => false,
        }
    }

    /// Whether local or by-value parameter `id` of `b` has, at `launch` in the body of loop
    /// `l` (a `while` or `for`), the value `l`'s condition last checked: no definition runs
    /// between that check and the launch. A definition outside the loop runs before the loop
    /// (or, in a loop around it, before the loop is entered again and checks anew); one in a
    /// `for`'s init or increment runs before a check; one in the body must follow the launch
    /// and share no loop inside `l` with it (else it may run before the launch's next run
    /// without a check between); one in the condition itself changes what it checked.
    pub(super) fn settled_in_loop(&self, b: &Body, id: &str, l: usize, launch: usize) -> bool {
        let Some((VarKind::Int, defs)) = self.definitions(b, id, None) else { return false };
        let kids = b.children(l);
        let (cond, body) = match (b.kind(l), kids.as_slice()) {
            (NodeKind::While, &[cond, body]) => (cond, body),
            (NodeKind::For, &[_, cond, _, body]) => (cond, body),
            _ => return false,
        };
        defs.iter().filter_map(|d| d.at).all(|x| {
            if b.inside(x, cond) {
                return false;
            }
            if !b.inside(x, body) {
                return true;
            }
            let after = x >= b.end[launch];
            let shared_inner = b
                .ancestors(launch)
                .take_while(|a| *a != l)
                .any(|a| b.is_loop(a) && b.repeats(a) && b.inside(x, a));
            after && !shared_inner
        })
    }
}

/// Whether definition `d` (at node `d`, `None`: the function's entry) runs before `at` on every
/// path: the statement holding it lies directly in a `{…}` that also holds `at` (not a
/// `switch` body), before `at`, and nothing between it and that statement may skip it. A `{…}`
/// that is the body of a loop that runs exactly once ([`Body::runs_once`]) counts as the loop
/// statement when no `break`, `continue`, `return` or `goto` precedes the definition in it.
/// Whether `v` is zero or a power of two.
/// Whether `ty` is PyTorch's tensor (`at::Tensor`, `torch::Tensor`, a reference to one).
fn is_tensor(ty: &str) -> bool {
    let t = ty.trim_start_matches("const ").trim_end_matches(['&', ' ']);
    matches!(t, "at::Tensor" | "torch::Tensor" | "Tensor" | "const at::Tensor" | "const torch::Tensor")
}

fn power_of_two_or_zero(v: i64) -> bool {
    v >= 0 && v & v.wrapping_sub(1) == 0
}

fn dominates(b: &Body, d: Option<usize>, at: usize) -> bool {
    let Some(d) = d else { return true };
    let mut stmt = d;
    loop {
        let Some(block) = enclosing_block(b, stmt) else { return false };
        let once = b.parent[block].filter(|l| {
            b.is_loop(*l)
                && b.loop_body(*l) == Some(block)
                && b.runs_once(*l)
                && !(block..stmt).any(|n| {
                    matches!(
                        b.kind(n),
                        NodeKind::Break | NodeKind::Continue | NodeKind::Return | NodeKind::Goto { .. }
                    )
                })
        });
        match once {
            Some(l) if !b.inside(at, block) => stmt = l,
            _ => return dominates_in(b, stmt, at),
        }
    }
}

/// The `{…}` that holds the statement around node `d` directly, when nothing between them is
/// conditional (a loop, `if`, `switch`, `?:`, `&&`/`||`, a lambda).
fn enclosing_block(b: &Body, d: usize) -> Option<usize> {
    let mut stmt = d;
    loop {
        let p = b.parent[stmt]?;
        if matches!(b.kind(p), NodeKind::Compound) {
            return Some(p);
        }
        // The condition of an `if`, `switch` or `?:` and the left side of `&&`/`||` run
        // whenever the whole does.
        let first = b.child(p, 0) == Some(stmt);
        let branching = matches!(b.kind(p), NodeKind::If { .. } | NodeKind::Switch | NodeKind::Conditional)
            || matches!(b.kind(p), NodeKind::Binary { op } if op == "&&" || op == "||");
        let conditional = b.is_loop(p)
            || (branching && !first)
            || matches!(b.kind(p), NodeKind::Other { kind } if matches!(kind.as_str(), "LambdaExpr" | "BinaryConditionalOperator"));
        if conditional {
            return None;
        }
        stmt = p;
    }
}

/// [`dominates`] without looking through loops that run once.
fn dominates_in(b: &Body, d: usize, at: usize) -> bool {
    let Some(block) = enclosing_block(b, d) else { return false };
    if b.parent[block].is_some_and(|p| matches!(b.kind(p), NodeKind::Switch)) {
        return false;
    }
    // The statement of `block` that holds `d`.
    let mut stmt = d;
    while let Some(p) = b.parent[stmt].filter(|p| *p != block) {
        stmt = p;
    }
    b.inside(at, block) && b.end[stmt] <= at
}

fn is_default(b: &Body, a: usize) -> bool {
    matches!(b.kind(a), NodeKind::Other { kind } if kind == "CXXDefaultArgExpr")
}

/// `x`, `y`, `z` as 0, 1, 2.
fn field_index(f: &str) -> Option<usize> {
    match f {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

fn compound(op: &str) -> Option<&'static str> {
    Some(match op {
        "+=" => "+",
        "-=" => "-",
        "*=" => "*",
        "/=" => "/",
        "%=" => "%",
        "<<=" => "<<",
        ">>=" => ">>",
        "&=" => "&",
        "|=" => "|",
        "^=" => "^",
        _ => return None,
    })
}

/// Every KPL name a statement of `b` assigns (locals declared, stored, read or atomically
/// updated into).
fn written_names(b: &Block) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn go(b: &Block, out: &mut BTreeSet<String>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Local { name, .. } | StmtKind::Assign { name, .. } => {
                    out.insert(name.clone());
                }
                StmtKind::Read { dst, .. } => {
                    out.insert(dst.clone());
                }
                StmtKind::Atomic { dst: Some(d), .. } => {
                    out.insert(d.clone());
                }
                StmtKind::If { then, els, .. } => {
                    go(then, out);
                    if let Some(e) = els {
                        go(e, out);
                    }
                }
                StmtKind::While { body, .. } => go(body, out),
                _ => {}
            }
        }
    }
    go(b, &mut out);
    out
}

/// Replaces every read of a parameter in `consts` by its value (parameters no statement
/// assigns: the value holds everywhere).
fn substitute_block(b: &mut Block, consts: &HashMap<String, u32>) {
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::Local { init, .. } => {
                if let Some(e) = init {
                    substitute(e, consts);
                }
            }
            StmtKind::Assign { value, .. } => substitute(value, consts),
            StmtKind::Read { index, .. } => index.iter_mut().for_each(|e| substitute(e, consts)),
            StmtKind::Write { index, value, .. } | StmtKind::Atomic { index, value, .. } => {
                index.iter_mut().for_each(|e| substitute(e, consts));
                substitute(value, consts);
            }
            StmtKind::Assume { cond } | StmtKind::NamedWait { instance: cond, .. } => {
                substitute(cond, consts)
            }
            StmtKind::If { cond, then, els } => {
                substitute(cond, consts);
                substitute_block(then, consts);
                if let Some(e) = els {
                    substitute_block(e, consts);
                }
            }
            StmtKind::While { cond, body } => {
                substitute(cond, consts);
                substitute_block(body, consts);
            }
            StmtKind::Barrier
            | StmtKind::Syncwarp
            | StmtKind::Gridsync
            | StmtKind::NamedBarrier { .. }
            | StmtKind::Commit
            | StmtKind::Wait { .. }
            | StmtKind::WaitOldest
            | StmtKind::Release => {}
        }
    }
}

fn substitute(e: &mut Expr, consts: &HashMap<String, u32>) {
    match e {
        Expr::Var(v) => {
            if let Some(c) = consts.get(v.as_str()) {
                *e = Expr::Const(*c);
            }
        }
        Expr::Const(_) | Expr::Builtin(_) => {}
        Expr::Unary(_, a) => substitute(a, consts),
        Expr::Binary(_, a, b) => {
            substitute(a, consts);
            substitute(b, consts);
        }
        Expr::Select(c, a, b) => {
            substitute(c, consts);
            substitute(a, consts);
            substitute(b, consts);
        }
        Expr::Call(_, args) => args.iter_mut().for_each(|a| substitute(a, consts)),
    }
}

/// Puts `assume`s at the start of the kernel's body (no place for a barrier after them) and
/// renumbers the labels in program order, the lowering's invariant; names follow the lines.
fn prepend_assumptions(kernel: &mut Kernel, assumed: Vec<Expr>, source: &str) {
    let at = Span::new(kernel.body.span.start, kernel.body.span.start + 1);
    let mut front = Vec::new();
    for cond in assumed {
        let l =
            kernel.fresh_label(String::new(), Place::Not("an assumption from the kernel's launches".into()));
        front.push(Stmt { label: l, kind: StmtKind::Assume { cond }, span: at });
    }
    front.append(&mut kernel.body.stmts);
    kernel.body.stmts = front;
    renumber(kernel);
    crate::kpl::assign_default_names(kernel, source);
}

/// Relabels `kernel` in program order (`main` 0, each block's start before its statements, an
/// else block's label before its start), carrying places and flag guards along.
fn renumber(kernel: &mut Kernel) {
    // The old labels in program order; a label's new number is its position here.
    fn block(b: &mut Block, label: Label, order: &mut Vec<Label>) {
        let fresh = |old: Label, order: &mut Vec<Label>| {
            order.push(old);
            Label(order.len() as u32 - 1)
        };
        b.label = label;
        b.start = fresh(b.start, order);
        for s in &mut b.stmts {
            s.label = fresh(s.label, order);
            match &mut s.kind {
                StmtKind::If { then, els, .. } => {
                    block(then, s.label, order);
                    if let Some(e) = els {
                        let el = fresh(e.label, order);
                        block(e, el, order);
                    }
                }
                StmtKind::While { body, .. } => block(body, s.label, order),
                _ => {}
            }
        }
    }
    let mut order = vec![kernel.body.label];
    block(&mut kernel.body, Label(0), &mut order);
    let places: Vec<Place> = order
        .iter()
        .map(|old| kernel.places.get(old.0 as usize).cloned().unwrap_or_else(|| Place::Not(String::new())))
        .collect();
    let n = places.len();
    kernel.places = places;
    let guards = std::mem::take(&mut kernel.flag_guards);
    kernel.flag_guards = order
        .iter()
        .enumerate()
        .filter(|(_, old)| guards.contains(old))
        .map(|(i, _)| Label(i as u32))
        .collect();
    kernel.label_names = vec![LabelName { name: String::new(), explicit: false }; n];
}

/// `a op b` with C's integer operators on 64-bit values, checked: `None` on overflow, division
/// by zero, a shift count outside 0..64 or an operator that is not C's.
fn binary(op: &str, a: i64, b: i64) -> Option<i64> {
    let shift = |b: i64| u32::try_from(b).ok().filter(|s| *s < 64);
    Some(match op {
        "+" => a.checked_add(b)?,
        "-" => a.checked_sub(b)?,
        "*" => a.checked_mul(b)?,
        "/" | "%" if b == 0 => return None,
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "<<" => a.checked_shl(shift(b)?)?,
        ">>" => a >> shift(b)?,
        "&" => a & b,
        "|" => a | b,
        "^" => a ^ b,
        "<" => (a < b) as i64,
        "<=" => (a <= b) as i64,
        ">" => (a > b) as i64,
        ">=" => (a >= b) as i64,
        "==" => (a == b) as i64,
        "!=" => (a != b) as i64,
        "&&" => (a != 0 && b != 0) as i64,
        "||" => (a != 0 || b != 0) as i64,
        _ => return None,
    })
}

mod paths;

#[cfg(test)]
mod tests;
