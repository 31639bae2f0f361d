//! Lowering of one `__global__` kernel (a tree-sitter `function_definition`) to KPL.

use super::consts::{const_eval, parse_char, parse_number, sizeof_type, Lit, Ty};
use super::program::Program;
use super::program::{template_params, TParam};
use super::text::{block_start_place, braced_place, line_place};
use super::{span, text, FileInfo, MacroVal};
use crate::diag::Diagnostic;
use crate::kpl::ast::*;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use tree_sitter::Node;

mod address;
mod aggregate;
mod annotations;
mod builtins;
mod calls;
mod control;
mod curand;
mod decl;
mod dim3;
mod expr;
pub(super) mod fn_ptr;
mod groups;
mod intrinsics;
mod lambda;
mod launch_facts;
mod memory;
mod opaque;
mod operators;
mod overload;
mod pointers;
mod range_for;
mod refs;
mod refusal;
mod scope;
mod stmt;
mod template;
mod types;
mod vector_cast;
mod warp;

use aggregate::*;
use calls::*;
use control::*;
use memory::*;
use scope::*;
use template::*;
use types::*;

pub(crate) use annotations::CLI_ASSUME;
pub(crate) use types::{scalar_type, ty_from_words};

type R<T> = Result<T, Diagnostic>;

/// Temporaries of a condition's first evaluation with their block depth (for replay).
type Recorded = Vec<(String, usize)>;

const INSIDE: &str = "inside a source statement";

const FOR_HEADER: &str = "inside a for header";

const LOOP_COND: &str = "inside a loop condition";

const RANGE_HEAD: &str = "the element of a range-based for is read before the body starts";

const FLAG: &str = "a control-flow flag of the predicated form";

const LEFT: &str = "after a jump (`break`, `continue`, `return`) some threads may have left";

fn unsupported(what: impl std::fmt::Display, n: Node) -> Diagnostic {
    Diagnostic::error(format!("unsupported: {what}"), span(n))
}

/// The argument-count check of every call the lowering models itself (intrinsics, annotations,
/// warp collectives, group members): `lo..=hi` arguments, else an error at the call.
fn arity(fname: &str, args: &[Node], lo: usize, hi: usize, n: Node) -> R<()> {
    if (lo..=hi).contains(&args.len()) {
        return Ok(());
    }
    let want = if lo == hi { format!("{lo}") } else { format!("{lo} or {hi}") };
    Err(Diagnostic::error(format!("`{fname}` takes {want} argument(s), found {}", args.len()), span(n)))
}

/// A C name in scope.
#[derive(Clone, Debug)]
enum Binding {
    Var {
        kpl: String,
        ty: Ty,
    },
    /// An array of `ndims` C dimensions. `prefix` holds the leading KPL index components the
    /// C name does not write: the thread's row of a thread-local array, the member number of an
    /// array merged with others that one pointer may point into (see `pointers.rs`).
    Array {
        kpl: String,
        elem: Ty,
        ndims: usize,
        scalar: bool,
        prefix: Vec<Expr>,
    },
    /// A local of a vector type (`float4`) or plain struct: one KPL local per field.
    Agg {
        agg: Rc<Agg>,
        comps: Vec<String>,
    },
    /// A template value parameter (or other compile-time constant).
    Const {
        value: u32,
        ty: Ty,
    },
    /// A pointer into `array`: element `comps` (one index per dimension of the array; pointer
    /// arithmetic moves the last one). Each component is a constant or a KPL local that holds it.
    Ptr {
        array: String,
        elem: Ty,
        comps: Vec<Expr>,
    },
    /// A reference parameter bound to an array element (`uint &a` ← `s[i]`, `float &f` ←
    /// `d[i].x`, `float2 &v` ← `d[i]`): `index` was evaluated once at the call (constants or
    /// fresh locals), so later writes to the caller's index variables do not move it. With
    /// `agg`, the element is a whole vector/struct whose first field is at `index`.
    Ref {
        array: String,
        elem: Ty,
        index: Vec<Expr>,
        agg: Option<Rc<Agg>>,
    },
    /// A pointer to the scalar local `kpl` (`&x` passed to a pointer parameter, `int *p = &x;`):
    /// `*p` and `p[0]` are the variable itself, see `address`.
    VarPtr {
        kpl: String,
        ty: Ty,
    },
    /// A pointer to the vector/struct local whose field locals are `comps` (`&q` passed to a
    /// `Queue *` parameter): `p->f` and `(*p).f` are the field's local, see `address`.
    AggPtr {
        agg: Rc<Agg>,
        comps: Vec<String>,
    },
    /// The thread block group of cooperative groups (`cg::thread_block b = …`), see `groups`.
    Block,
    /// A tile of the thread block (`cg::thread_block_tile<32> t = …`) of `Some(size)` threads,
    /// or a coalesced group (`None`), see `groups`.
    Tile(Option<u32>),
    /// The grid group of cooperative groups (`cg::grid_group g = cg::this_grid();`), see `groups`.
    Grid,
    /// A function pointer: the functions it may hold and which (`fn_ptr`).
    Func(fn_ptr::FnChoice),
}

/// The state of the function whose body is being lowered (the kernel or an inlined device
/// function): its return flag and return value variable.
#[derive(Clone, Debug, Default)]
struct FnFrame {
    /// Set to 1 by an early `return` (predicated form); `None` when the body has none.
    ret_flag: Option<String>,
    /// Receives the value of `return e;` in an inlined non-void function.
    ret_value: Option<(String, Ty)>,
    /// Receives the value of `return v;` in an inlined function returning a vector/struct:
    /// one KPL local per field.
    ret_agg: Option<(Rc<Agg>, Vec<String>)>,
    /// Template type parameters: name → type.
    types: TypeArgs,
    /// The functions being inlined, outermost first: name and where the definition starts
    /// (recursion check).
    stack: Vec<(String, usize)>,
    /// The function returns a reference its caller discards: `return name;` lowers to nothing.
    discard_ref: bool,
}

/// Where the statement being lowered sits: normally in a braced block, or as the braceless body
/// of the compound statement starting at the given byte.
#[derive(Clone, Copy)]
enum Ctx {
    Normal,
    Body { parent_start: usize },
}

struct Lx<'a, 't> {
    /// Inlining depth guard.
    inline_depth: usize,
    /// The body of the function being lowered (the kernel or an inlined function).
    fn_body: Option<Node<'t>>,
    /// A reference local, not a parameter, is being bound (for the wording of errors).
    binding_local: bool,
    /// The C scopes of the callers of the functions being inlined (hidden, but alive).
    hidden: Vec<Vec<HashMap<String, Binding>>>,
    src: &'a str,
    file: &'a FileInfo,
    places: Vec<Place>,
    /// Labels of the `if (!flags)` guards of the predicated form (see `Kernel::flag_guards`).
    flag_guards: std::collections::BTreeSet<Label>,
    arrays: Vec<ArrayDecl>,
    params: Vec<String>,
    /// The source spelling of parameters KPL names otherwise (`Kernel::source_params`).
    source_params: std::collections::BTreeMap<String, String>,
    /// What the launches of this kernel (of this template instance) say (`cuda::launch`).
    facts: Option<crate::cuda::launch::LaunchFacts>,
    scopes: Vec<HashMap<String, Binding>>,
    kpl_scopes: Vec<HashSet<String>>,
    /// Every identifier of the kernel's source plus every KPL name handed out.
    taken: HashSet<String>,
    temp_counter: u32,
    out: Vec<Stmt>,
    cur_span: Span,
    depth: usize,
    record: Option<(usize, Vec<(String, usize)>)>,
    replay: Option<(usize, VecDeque<(String, usize)>)>,
    /// The function body's last statement: a `return` there needs no flag.
    final_return: Option<Node<'t>>,
    /// Exit flags (`break`, `continue`, `return`) the statements lowered so far in the current
    /// region may have set: the rest of the enclosing block runs under `if (!flags)`.
    exits: BTreeSet<String>,
    /// Innermost last: the loops and switches `break`/`continue` refer to.
    targets: Vec<Target>,
    frame: FnFrame,
    prog: &'a Program<'t>,
    /// File-scope arrays already brought into the kernel: C name → binding.
    file_bound: HashMap<String, Binding>,
    /// The one KPL array all `extern __shared__` declarations of the kernel alias.
    extern_shared: Option<(String, Ty)>,
    /// `goto` targets in scope: label → the flag a `goto` to it sets.
    gotos: HashMap<String, String>,
    /// KPL arrays whose elements are vectors or structs (the last dimension holds the fields).
    agg_arrays: HashMap<String, Rc<Agg>>,
    /// Top-level statements emitted by an inlined body: their places stay the body's places.
    inlined: HashSet<Label>,
    /// Set by `agg_value` before inlining a call whose vector/struct result it takes.
    want_agg: Option<Rc<Agg>>,
    /// The field locals of the result of the vector/struct-valued call just inlined.
    agg_result: Option<Vec<String>>,
    /// Set before inlining a call used as a statement: a reference result is discarded.
    discard_ref_result: bool,
    /// KPL local → the exact C type its variable was declared with, where the type's words
    /// name one (for overload resolution, `overload.rs`); others are known by class only.
    ctypes: HashMap<String, overload::CTy>,
    /// What the lowering read but does not model (see `LoweredFile::warnings`); each template
    /// instance repeats the warnings of its shared source, so they are deduplicated on the way out.
    warnings: Vec<Diagnostic>,
    /// Arrays that one pointer local may point into, merged into one KPL array each.
    ptr_groups: pointers::PtrGroups,
    /// Lambdas in scope by C name (see `lambda`).
    lambdas: HashMap<String, Node<'t>>,
    /// Values of call arguments already evaluated, by argument node: a call through a function
    /// pointer evaluates its scalar arguments once before the candidates' calls (`fn_ptr`).
    prebound_args: HashMap<usize, (Expr, Ty)>,
    /// The kernel's function pointer parameters (`Kernel::fn_pointers`).
    fn_pointers: std::collections::BTreeMap<String, crate::kpl::FnPointer>,
    /// The unsupported constructs found so far: any makes the kernel refused (see `refusal`).
    refusals: refusal::Refusals,
    /// KPL array → the C name it was declared under and whether it is a scalar (for
    /// `Kernel::source_arrays`).
    c_names: HashMap<String, (String, bool)>,
}

/// Lowers one kernel function definition: one [`Kernel`] per template instantiation (named like
/// `reduce<256, float>`), or one for a plain kernel. `template_args` are the command line's
/// `--template-arg NAME=VALUE`, used when the file has no explicit instantiation.
pub(crate) fn lower_kernel<'t>(
    f: Node<'t>,
    src: &str,
    file: &FileInfo,
    template_args: &[(String, String)],
    warnings: &mut Vec<Diagnostic>,
) -> R<Vec<crate::cuda::KernelWithFacts>> {
    let mut root = f;
    while let Some(p) = root.parent() {
        root = p;
    }
    let prog = Program::collect(root, src);
    let name = super::function_name(f, src).unwrap_or("kernel").to_string();
    let tparams = match f.parent() {
        Some(t) if t.kind() == "template_declaration" => {
            t.child_by_field_name("parameters").map(|l| template_params(l, src)).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    if tparams.is_empty() {
        let facts = file.launch_facts(&name, &[], &[]);
        let planned = Planned { name, inst: Instance::default(), facts: facts.clone() };
        return Ok(vec![(lower_instance(f, src, file, &prog, planned, warnings)?, facts)]);
    }
    // Each instance with the launches that name it (call spans); lowered once all are known.
    let mut instances: Vec<(String, Instance, Vec<Span>)> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    // Explicit instantiations, then the launches of the file that name template arguments:
    // each distinct argument list is one instance. A launch whose arguments are not constants
    // (`k<T><<<…>>>` inside a host template) names instances this file cannot list: the generic
    // instance below covers them (type parameters opaque, value parameters from
    // `--template-arg` or defaults, else an error).
    let mut unnamed = false;
    let explicit = prog.instantiations.iter().filter(|(n, _)| *n == name).map(|x| (x, true));
    let launched = prog.launched.iter().filter(|(n, _)| *n == name).map(|x| (x, false));
    for ((iname, args), is_explicit) in explicit.chain(launched) {
        // A launch's arguments may name the launching function's constants (`k<threads><<<…>>>`).
        let host = |n: &str| super::launch::host_value(root, src, file, *args, n).map(Arg::Value);
        let env: Option<ArgEnv> = (!is_explicit).then_some(&host as ArgEnv);
        let inst = match instance_from_nodes(&tparams, *args, src, file, env) {
            Ok(inst) => inst,
            Err(d) if is_explicit => return Err(d),
            Err(_) => {
                unnamed = true;
                continue;
            }
        };
        let shown = format!("{iname}<{}>", inst.shown.join(", "));
        // One kernel per distinct binding (`k<threads>` and `k<256>` are one instance).
        let types = inst.types.key();
        let key = format!("{types:?} {:?}", inst.values);
        let at = match seen.get(&key) {
            Some(i) => *i,
            None => {
                seen.insert(key, instances.len());
                instances.push((shown, inst, Vec::new()));
                instances.len() - 1
            }
        };
        // The launch `k<…><<<…>>>(…)` these arguments belong to (an explicit instantiation is
        // no launch).
        let call = args.parent().and_then(|t| t.parent()).filter(|c| c.kind() == "call_expression");
        if let (false, Some(call)) = (is_explicit, call) {
            instances[at].2.push(span(call));
        }
    }
    let attributed: Vec<Span> = instances.iter().flat_map(|(_, _, own)| own.iter().copied()).collect();
    let mut out = Vec::new();
    for (shown, inst, own) in instances {
        let facts = file.launch_facts(&name, &own, &attributed);
        let planned = Planned { name: shown, inst, facts: facts.clone() };
        out.push((lower_instance(f, src, file, &prog, planned, warnings)?, facts));
    }
    if out.is_empty() || unnamed {
        let inst = instance_from_flags(&tparams, template_args, src, file, f)?;
        let shown = format!("{name}<{}>", inst.shown.join(", "));
        // Launches no listed instance claims (arguments deduced or not constants) may be its.
        let facts = file.launch_facts(&name, &[], &attributed);
        let planned = Planned { name: shown, inst, facts: facts.clone() };
        out.push((lower_instance(f, src, file, &prog, planned, warnings)?, facts));
    }
    Ok(out)
}

/// One kernel to lower from a kernel function: its name (`reduce<256>`), its template binding
/// and what its launches say.
struct Planned {
    name: String,
    inst: Instance,
    facts: Option<crate::cuda::launch::LaunchFacts>,
}

fn lower_instance<'t>(
    f: Node<'t>,
    src: &str,
    file: &FileInfo,
    prog: &Program<'t>,
    planned: Planned,
    warnings: &mut Vec<Diagnostic>,
) -> R<Kernel> {
    let Planned { name, inst, facts } = planned;
    let inst = &inst;
    let body =
        f.child_by_field_name("body").ok_or_else(|| Diagnostic::error("a kernel without a body", span(f)))?;
    let mut taken = HashSet::new();
    collect_idents(f, src, &mut taken);
    for (_, d) in &prog.functions {
        collect_idents(d.node, src, &mut taken);
    }
    let mut scope0 = HashMap::new();
    for (n, v, t) in &inst.values {
        scope0.insert(n.clone(), Binding::Const { value: *v, ty: *t });
    }
    let mut lx = Lx {
        inline_depth: 0,
        fn_body: Some(body),
        binding_local: false,
        hidden: Vec::new(),
        src,
        file,
        places: Vec::new(),
        flag_guards: Default::default(),
        arrays: Vec::new(),
        params: Vec::new(),
        source_params: Default::default(),
        facts,
        scopes: vec![scope0],
        kpl_scopes: vec![HashSet::new()],
        taken,
        temp_counter: 0,
        out: Vec::new(),
        cur_span: span(body),
        depth: 0,
        record: None,
        replay: None,
        final_return: None,
        exits: BTreeSet::new(),
        targets: Vec::new(),
        frame: FnFrame { types: inst.types.clone(), ..FnFrame::default() },
        prog,
        file_bound: HashMap::new(),
        extern_shared: None,
        agg_arrays: HashMap::new(),
        gotos: HashMap::new(),
        inlined: HashSet::new(),
        want_agg: None,
        agg_result: None,
        discard_ref_result: false,
        ctypes: HashMap::new(),
        warnings: Vec::new(),
        ptr_groups: pointers::PtrGroups::collect(body, src, file, prog),
        lambdas: HashMap::new(),
        fn_pointers: Default::default(),
        prebound_args: HashMap::new(),
        refusals: Default::default(),
        c_names: HashMap::new(),
    };
    let main = lx.label();
    lx.places[main.0 as usize] = Place::Not("the kernel body as a whole".into());
    let start = lx.label();
    lx.places[start.0 as usize] = block_start_place(src, body.start_byte(), first_stmt(body));
    let lowered = lx.kernel_body(f, body);
    // One unsupported construct refuses the kernel, with every other one lowering found.
    if let Err(d) = lowered {
        lx.refusals.last(d);
    }
    if let Some(d) = lx.refusals.merged(&name) {
        return Err(d);
    }
    let stmts = std::mem::take(&mut lx.out);
    for w in std::mem::take(&mut lx.warnings) {
        if !warnings.iter().any(|x| x.span == w.span && x.message == w.message) {
            warnings.push(w);
        }
    }
    let n = lx.places.len();
    let source_arrays = lx.source_arrays();
    Ok(Kernel {
        name,
        params: lx.params,
        arrays: lx.arrays,
        body: Block { label: main, start, stmts, span: span(body) },
        geometry: Geometry::default(),
        label_names: vec![LabelName { name: String::new(), explicit: false }; n],
        places: lx.places,
        flag_guards: lx.flag_guards,
        launch_facts: Vec::new(),
        source_arrays,
        fn_pointers: lx.fn_pointers,
        source_params: lx.source_params,
    })
}

impl<'t> Lx<'_, 't> {
    /// The kernel's parameters, the command line's assumptions and its body.
    fn kernel_body(&mut self, f: Node<'t>, body: Node<'t>) -> R<()> {
        self.parameters(f, body)?;
        self.movable_pointer_parameters(body);
        let mut root = f;
        while let Some(p) = root.parent() {
            root = p;
        }
        self.cli_assumptions(root, body)?;
        self.launch_assumptions(body);
        let mut c = body.walk();
        let children: Vec<Node> = body.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
        self.final_return = children.last().copied().filter(|n| n.kind() == "return_statement");
        if has_early_return(body, self.final_return) {
            self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
            let flag = self.flag("ret");
            self.frame.ret_flag = Some(flag);
        }
        self.seq(&children)
    }
}

fn collect_idents(n: Node, src: &str, out: &mut HashSet<String>) {
    if n.kind() == "identifier" || n.kind() == "field_identifier" {
        out.insert(text(n, src).to_string());
    }
    let mut c = n.walk();
    for ch in n.children(&mut c) {
        collect_idents(ch, src, out);
    }
}

/// The start byte of the first statement of a compound statement.
fn first_stmt(block: Node) -> Option<usize> {
    let mut c = block.walk();
    let first = block.named_children(&mut c).find(|n| n.kind() != "comment").map(|n| n.start_byte());
    first
}

fn strip_parens(mut n: Node) -> Node {
    while n.kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(i) => n = i,
            None => break,
        }
    }
    n
}

impl<'t> Lx<'_, 't> {
    fn label(&mut self) -> Label {
        self.places.push(Place::Not(INSIDE.into()));
        Label((self.places.len() - 1) as u32)
    }

    fn set_place(&mut self, l: Label, p: Place) {
        if let Some(slot) = self.places.get_mut(l.0 as usize) {
            *slot = p;
        }
    }

    fn mark_from(&mut self, from: usize, reason: &str) {
        for p in self.places.iter_mut().skip(from) {
            *p = Place::Not(reason.into());
        }
    }

    fn emit(&mut self, kind: StmtKind) -> Label {
        let label = self.label();
        self.out.push(Stmt { label, kind, span: self.cur_span });
        label
    }

    /// Runs `f` with a fresh statement list (a nested KPL block) and returns what it emitted.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(Vec<Stmt>, T)> {
        let saved = std::mem::take(&mut self.out);
        self.kpl_scopes.push(HashSet::new());
        self.scopes.push(HashMap::new());
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        self.scopes.pop();
        self.kpl_scopes.pop();
        let stmts = std::mem::replace(&mut self.out, saved);
        r.map(|t| (stmts, t))
    }
}
