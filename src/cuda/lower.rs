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

pub(super) mod groups;

type R<T> = Result<T, Diagnostic>;

/// Temporaries of a condition's first evaluation with their block depth (for replay).
type Recorded = Vec<(String, usize)>;

const INSIDE: &str = "inside a source statement";
const FOR_HEADER: &str = "inside a for header";
const LOOP_COND: &str = "inside a loop condition";
const FLAG: &str = "a control-flow flag of the predicated form";
const LEFT: &str = "after a jump (`break`, `continue`, `return`) some threads may have left";

/// Pure functions of floating arguments that become opaque calls.
const FLOAT_MATH: &[&str] = &[
    "sqrtf",
    "sqrt",
    "rsqrtf",
    "rsqrt",
    "cbrtf",
    "expf",
    "exp",
    "__expf",
    "exp2f",
    "exp10f",
    "logf",
    "log",
    "__logf",
    "log2f",
    "log10f",
    "fabsf",
    "fabs",
    "sinf",
    "sin",
    "cosf",
    "cos",
    "__sinf",
    "__cosf",
    "tanf",
    "tanhf",
    "tanh",
    "powf",
    "pow",
    "__powf",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "fminf",
    "fmaxf",
    "fmin",
    "fmax",
    "__fdividef",
    "truncf",
    "roundf",
    "rintf",
    "fmaf",
    "__fmul_rn",
    "__fadd_rn",
    "__fsqrt_rn",
    "copysignf",
    "erff",
    "atan2f",
    "atanf",
    "asinf",
    "acosf",
];

/// Integer functions that are pure.
const INT_PURE: &[&str] = &["min", "max", "umin", "umax", "abs", "__mul24", "__umul24"];

fn atomic_op(name: &str) -> Option<AtomicOp> {
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

fn unsupported(what: impl std::fmt::Display, n: Node) -> Diagnostic {
    Diagnostic::error(format!("unsupported: {what}"), span(n))
}

/// The value type of a type node (`int`, `unsigned int`, `float`, `size_t`, …). Qualifiers are
/// ignored; `void`, vector types, structs and unknown type names are errors.
pub(crate) fn scalar_type(n: Node, src: &str) -> R<Ty> {
    let t = text(n, src);
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register"))
        .collect();
    match n.kind() {
        "sized_type_specifier" => {
            if words.contains(&"unsigned") {
                Ok(Ty::UInt)
            } else if words.iter().any(|w| *w == "double" || *w == "float") {
                Ok(Ty::Float)
            } else {
                Ok(Ty::Int)
            }
        }
        "primitive_type" | "type_identifier" => ty_from_words(&words.join(" ")).ok_or_else(|| {
            unsupported(format!("type `{}` (only scalar integer and floating types)", words.join(" ")), n)
        }),
        _ => Err(unsupported(
            format!("type `{t}` (structs, enums, templates and vector types are not modelled)"),
            n,
        )),
    }
}

/// The type class of a scalar type name such as `unsigned int` or `float` (for
/// `--template-arg T=float` and type nodes).
pub(crate) fn ty_from_words(t: &str) -> Option<Ty> {
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register"))
        .collect();
    match words.join(" ").as_str() {
        "int" | "char" | "short" | "long" | "bool" | "signed" | "int8_t" | "int16_t" | "int32_t"
        | "int64_t" | "ptrdiff_t" | "ssize_t" | "long long" | "long int" | "short int" | "signed int"
        | "signed char" => Some(Ty::Int),
        "unsigned" | "uint" | "size_t" | "uint8_t" | "uint16_t" | "uint32_t" | "uint64_t" | "uchar"
        | "ushort" | "unsigned int" | "unsigned long" | "unsigned long long" | "unsigned char"
        | "unsigned short" => Some(Ty::UInt),
        "float" | "double" => Some(Ty::Float),
        _ => None,
    }
}

/// A C name in scope.
#[derive(Clone, Debug)]
enum Binding {
    Var {
        kpl: String,
        ty: Ty,
    },
    Array {
        kpl: String,
        elem: Ty,
        ndims: usize,
        scalar: bool,
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
    /// The thread block group of cooperative groups (`cg::thread_block b = …`), see `groups`.
    Block,
}

/// A vector type or plain struct: its fields, each one 32-bit word (documented approximation:
/// `double`, 64-bit and narrow fields are one word each, so layouts are per field, not per byte).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Agg {
    name: String,
    fields: Vec<(String, Ty)>,
}

impl Agg {
    fn field(&self, f: &str) -> Option<(usize, Ty)> {
        self.fields.iter().position(|(n, _)| n == f).map(|i| (i, self.fields[i].1))
    }
}

/// The built-in vector types: `float4`, `uint2`, `int3`, … (fields `x`, `y`, `z`, `w`).
fn vector_type(name: &str) -> Option<Agg> {
    let n = name.chars().last()?.to_digit(10)? as usize;
    let base = &name[..name.len() - 1];
    let ty = match base {
        "float" | "double" => Ty::Float,
        "int" | "char" | "short" | "long" | "longlong" => Ty::Int,
        "uint" | "uchar" | "ushort" | "ulong" | "ulonglong" => Ty::UInt,
        _ => return None,
    };
    if !(1..=4).contains(&n) {
        return None;
    }
    let fields = ["x", "y", "z", "w"][..n].iter().map(|f| (f.to_string(), ty)).collect();
    Some(Agg { name: name.to_string(), fields })
}

/// An evaluated argument of an inlined call, bound to the callee's parameter `cname`.
enum BoundParam {
    /// A pointer parameter: the argument's array and element.
    Ptr { cname: String, array: String, comps: Vec<Expr>, ty: Ty },
    /// A value parameter: a fresh local holding the argument's value.
    Value { cname: String, value: Expr, ty: Ty },
    /// A reference parameter: the binding of the argument lvalue (its indices already fixed).
    Alias { cname: String, binding: Binding },
    /// A vector/struct value parameter: fresh locals holding the argument's fields.
    AggValue { cname: String, agg: Rc<Agg>, values: Vec<Expr> },
}

/// A piece of a statement list: one statement, or a region a `goto` forms.
enum Unit {
    One(usize),
    /// Items `from..=to` repeat while a backward `goto label` is taken.
    Back {
        from: usize,
        to: usize,
        label: String,
    },
    /// Items `from..to` are skipped by a forward `goto label` (the label is item `to`).
    Fwd {
        from: usize,
        to: usize,
        label: String,
    },
}

/// Whether `goto name` occurs under `n`.
fn has_goto(n: Node, name: &str, src: &str) -> bool {
    if n.kind() == "goto_statement" && n.child_by_field_name("label").is_some_and(|l| text(l, src) == name) {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| has_goto(ch, name, src))
}

/// Where a field access lands.
enum Target2 {
    /// A field of a local: its KPL variable.
    Var(String, Ty),
    /// A field of an array element: one word.
    Mem(String, Vec<Expr>, Ty),
}

/// What `break` and `continue` jump to: the flags they set (predicated form).
#[derive(Clone, Debug)]
struct Target {
    brk: Option<String>,
    /// `None` for a `switch` (a `continue` there belongs to the enclosing loop).
    cont: Option<String>,
    is_loop: bool,
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
    types: HashMap<String, Ty>,
    /// The names of the functions being inlined, outermost first (recursion check).
    stack: Vec<String>,
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
}

/// Lowers one kernel function definition: one [`Kernel`] per template instantiation (named like
/// `reduce<256, float>`), or one for a plain kernel. `template_args` are the command line's
/// `--template-arg NAME=VALUE`, used when the file has no explicit instantiation.
pub(crate) fn lower_kernel<'t>(
    f: Node<'t>,
    src: &str,
    file: &FileInfo,
    template_args: &[(String, String)],
) -> R<Vec<Kernel>> {
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
        return Ok(vec![lower_instance(f, src, file, &prog, name, &Instance::default())?]);
    }
    let mut out = Vec::new();
    for (iname, args) in prog.instantiations.iter().filter(|(n, _)| *n == name) {
        let inst = instance_from_nodes(&tparams, *args, src, file, None)?;
        let shown = format!("{iname}<{}>", inst.shown.join(", "));
        out.push(lower_instance(f, src, file, &prog, shown, &inst)?);
    }
    if out.is_empty() {
        let inst = instance_from_flags(&tparams, template_args, src, file, f)?;
        let shown = format!("{name}<{}>", inst.shown.join(", "));
        out.push(lower_instance(f, src, file, &prog, shown, &inst)?);
    }
    Ok(out)
}

/// The template arguments of one instantiation.
#[derive(Clone, Debug, Default)]
struct Instance {
    types: HashMap<String, Ty>,
    values: Vec<(String, u32, Ty)>,
    /// The arguments as written, for the kernel's name.
    shown: Vec<String>,
}

/// Binds template parameters to the argument nodes of `<…>` (missing ones from defaults).
/// `env` resolves names in the arguments (the caller's template parameters).
fn instance_from_nodes(
    tparams: &[TParam],
    args: Node,
    src: &str,
    file: &FileInfo,
    env: Option<ArgEnv>,
) -> R<Instance> {
    let mut c = args.walk();
    let items: Vec<Node> = args.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
    if items.len() > tparams.len() {
        return Err(unsupported(
            format!("{} template arguments for {} parameters", items.len(), tparams.len()),
            args,
        ));
    }
    let mut inst = Instance::default();
    for (i, p) in tparams.iter().enumerate() {
        let node = items.get(i).copied().or(p.default);
        let Some(node) = node else {
            return Err(Diagnostic::error(
                format!("no value for template parameter `{}`", p.name),
                span(args),
            ));
        };
        let arg = template_arg(node, src, file, env)?;
        inst.bind(p, arg, node, src)?;
        inst.shown.push(text(node, src).split_whitespace().collect::<Vec<_>>().join(" "));
    }
    Ok(inst)
}

/// Binds a template kernel's parameters from `--template-arg NAME=VALUE` (or their defaults).
fn instance_from_flags(
    tparams: &[TParam],
    flags: &[(String, String)],
    src: &str,
    file: &FileInfo,
    f: Node,
) -> R<Instance> {
    let mut inst = Instance::default();
    let kname = super::function_name(f, src).unwrap_or("kernel");
    for p in tparams {
        let given = flags.iter().rev().find(|(n, _)| *n == p.name).map(|(_, v)| v.trim());
        let (arg, shown) = match (given, p.default) {
            (Some(v), _) => {
                let arg = match p.type_node {
                    None => Arg::Type(ty_from_words(v).ok_or_else(|| {
                        Diagnostic::error(
                            format!("--template-arg {}={v}: `{v}` is not a scalar type this front end models", p.name),
                            span(f),
                        )
                    })?),
                    Some(_) => {
                        let value = match parse_number(v) {
                            Some(Lit::Int(x, _)) => Some(x),
                            _ => match file.macros.get(v) {
                                Some(MacroVal::Const(x)) => Some(*x as u32),
                                _ => None,
                            },
                        };
                        Arg::Value(value.ok_or_else(|| {
                            Diagnostic::error(
                                format!("--template-arg {}={v}: not an integer constant", p.name),
                                span(f),
                            )
                        })?)
                    }
                };
                (arg, v.to_string())
            }
            (None, Some(d)) => (template_arg(d, src, file, None)?, text(d, src).to_string()),
            (None, None) => {
                return Err(Diagnostic::error(
                    format!(
                        "template kernel `{kname}` has no instantiation and no value for template parameter `{}`",
                        p.name
                    ),
                    span(f),
                )
                .with_label("template kernel")
                .with_note(format!(
                    "add an explicit instantiation (`template __global__ void {kname}<…>(…);`) or pass `--template-arg {}=VALUE`",
                    p.name
                )))
            }
        };
        inst.bind(p, arg, f, src)?;
        inst.shown.push(shown);
    }
    Ok(inst)
}

/// Resolves names in template arguments (the caller's template parameters).
type ArgEnv<'e> = &'e dyn Fn(&str) -> Option<Arg>;

/// A template argument's meaning.
#[derive(Clone, Copy, Debug)]
enum Arg {
    Type(Ty),
    Value(u32),
}

impl Instance {
    fn bind(&mut self, p: &TParam, arg: Arg, at: Node, src: &str) -> R<()> {
        match (p.type_node, arg) {
            (None, Arg::Type(t)) => {
                self.types.insert(p.name.clone(), t);
            }
            (Some(tn), Arg::Value(v)) => {
                let ty = scalar_type(tn, src)?;
                if ty == Ty::Float {
                    return Err(unsupported(format!("the floating template parameter `{}`", p.name), tn));
                }
                self.values.push((p.name.clone(), v, ty));
            }
            (None, Arg::Value(_)) => {
                return Err(unsupported(format!("a value for the type parameter `{}`", p.name), at))
            }
            (Some(_), Arg::Type(_)) => {
                return Err(unsupported(format!("a type for the value parameter `{}`", p.name), at))
            }
        }
        Ok(())
    }
}

/// Reads one template argument: a type, or an integer constant expression.
fn template_arg(n: Node, src: &str, file: &FileInfo, env: Option<ArgEnv>) -> R<Arg> {
    let lookup = |name: &str| env.and_then(|e| e(name));
    if n.kind() == "type_descriptor" {
        let t = n.child_by_field_name("type").ok_or_else(|| unsupported("template argument", n))?;
        if n.child_by_field_name("declarator").is_some() {
            return Err(unsupported(format!("template argument `{}`", text(n, src)), n));
        }
        // `f<blockSize>` parses as a type; a name bound to a value (or macro) is a value.
        if t.kind() == "type_identifier" {
            let name = text(t, src);
            if let Some(a) = lookup(name) {
                return Ok(a);
            }
            if let Some(MacroVal::Const(v)) = file.macros.get(name) {
                return Ok(Arg::Value(*v as u32));
            }
        }
        return scalar_type(t, src).map(Arg::Type);
    }
    let mut resolve = |name: &str| match lookup(name) {
        Some(Arg::Value(v)) => Some(v as i64),
        _ => match file.macros.get(name) {
            Some(MacroVal::Const(v)) => Some(*v),
            _ => None,
        },
    };
    const_eval(n, src, &mut resolve).map(|v| Arg::Value(v as u32)).ok_or_else(|| {
        unsupported(format!("template argument `{}` (not an integer constant)", text(n, src)), n)
    })
}

fn lower_instance<'t>(
    f: Node<'t>,
    src: &str,
    file: &FileInfo,
    prog: &Program<'t>,
    name: String,
    inst: &Instance,
) -> R<Kernel> {
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
    };
    let main = lx.label();
    lx.places[main.0 as usize] = Place::Not("the kernel body as a whole".into());
    let start = lx.label();
    lx.places[start.0 as usize] = block_start_place(src, body.start_byte(), first_stmt(body));
    lx.parameters(f, body)?;
    lx.movable_pointer_parameters(body);
    let mut c = body.walk();
    let children: Vec<Node> = body.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
    lx.final_return = children.last().copied().filter(|n| n.kind() == "return_statement");
    if has_early_return(body, lx.final_return) {
        lx.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        let flag = lx.flag("ret");
        lx.frame.ret_flag = Some(flag);
    }
    lx.seq(&children)?;
    let stmts = std::mem::take(&mut lx.out);
    let n = lx.places.len();
    Ok(Kernel {
        name,
        params: lx.params,
        arrays: lx.arrays,
        body: Block { label: main, start, stmts, span: span(body) },
        geometry: Geometry::default(),
        label_names: vec![LabelName { name: String::new(), explicit: false }; n],
        places: lx.places,
        flag_guards: lx.flag_guards,
    })
}

/// Whether a function body has a `return` other than its final top-level one.
fn has_early_return(n: Node, final_return: Option<Node>) -> bool {
    if n.kind() == "return_statement" && Some(n) != final_return {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| has_early_return(ch, final_return))
}

/// Whether a `break` (`kind` = "break_statement") or `continue` under `n` jumps out of `n`'s
/// innermost enclosing loop/switch, i.e. is not inside a nested loop (or, for `break`, switch).
fn jumps_here(n: Node, kind: &str) -> bool {
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    children.into_iter().any(|ch| {
        if ch.kind() == kind {
            return true;
        }
        let nested_loop = matches!(ch.kind(), "for_statement" | "while_statement" | "do_statement");
        let nested_switch = ch.kind() == "switch_statement" && kind == "break_statement";
        !nested_loop && !nested_switch && jumps_here(ch, kind)
    })
}

/// The parameter declarations of a function definition.
fn fn_params(f: Node) -> Vec<Node> {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "function_declarator" {
            break;
        }
        d = super::inner_declarator(x);
    }
    let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return Vec::new() };
    let mut c = list.walk();
    let v: Vec<Node> = list.named_children(&mut c).filter(|p| p.kind() == "parameter_declaration").collect();
    v
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

/// Whether `name` may be written under `n` other than by `name = …`/`name++` (see [`assigns`]):
/// a field of it is assigned (`name.x = …`) or its address is taken (`&name`, `&name.x`).
fn body_writes_fields(n: Node, src: &str, name: &str) -> bool {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        "pointer_expression" if n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&") => {
            let arg = n.child_by_field_name("argument").map(strip_parens);
            if arg.is_some_and(|a| a.kind() == "identifier" && text(a, src) == name) {
                return true;
            }
            arg
        }
        _ => None,
    };
    if let Some(t) = target.map(strip_parens).filter(|t| t.kind() == "field_expression") {
        if t.child_by_field_name("argument").map(strip_parens).is_some_and(|b| text(b, src) == name) {
            return true;
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| body_writes_fields(ch, src, name))
}

/// Whether `name` is assigned anywhere under `n` (`name = …`, `name += …`, `name++`).
fn assigns(n: Node, src: &str, name: &str) -> bool {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        _ => None,
    };
    if let Some(t) = target {
        if t.kind() == "identifier" && text(t, src) == name {
            return true;
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| assigns(ch, src, name))
}

/// The identifier a pointer expression starts from (`p` of `p + 1`, `a` of `&a[i]`), if any.
fn pointer_root(n: Node) -> Option<Node> {
    let n = strip_parens(n);
    match n.kind() {
        "identifier" => Some(n),
        "subscript_expression" | "pointer_expression" => pointer_root(n.child_by_field_name("argument")?),
        "binary_expression" => pointer_root(n.child_by_field_name("left")?),
        _ => None,
    }
}

/// Whether `n` is a dereference `*p`.
fn is_deref(n: Node) -> bool {
    n.kind() == "pointer_expression" && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "*")
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
    // ---------------------------------------------------------------- labels, names, emission

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

    /// A KPL name based on `base` that no identifier of the source and no earlier KPL name uses.
    fn fresh_name(&mut self, base: &str) -> String {
        let mut n = 2;
        let mut name = format!("{base}_{n}");
        while self.taken.contains(&name) || crate::kpl::is_keyword(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.taken.insert(name.clone());
        name
    }

    fn kpl_visible(&self, name: &str) -> bool {
        self.kpl_scopes.iter().any(|s| s.contains(name)) || self.arrays.iter().any(|a| a.name == name)
    }

    fn declare_kpl(&mut self, name: &str) {
        self.taken.insert(name.to_string());
        if let Some(s) = self.kpl_scopes.last_mut() {
            s.insert(name.to_string());
        }
    }

    /// A fresh temporary, declared here (with `init`) unless a loop condition is being replayed,
    /// in which case the temporary of the first evaluation is reused.
    fn temp(&mut self, init: Option<Expr>) -> String {
        if let Some((base, q)) = &mut self.replay {
            let rel = self.depth - *base;
            if let Some((name, d)) = q.pop_front() {
                if d == 0 && rel == 0 {
                    if let Some(e) = init {
                        self.emit(StmtKind::Assign { name: name.clone(), value: e });
                    }
                } else {
                    self.declare_kpl(&name);
                    self.emit(StmtKind::Local { name: name.clone(), init });
                }
                return name;
            }
        }
        let name = loop {
            let n = format!("_t{}", self.temp_counter);
            self.temp_counter += 1;
            if !self.taken.contains(&n) {
                break n;
            }
        };
        if let Some((base, rec)) = &mut self.record {
            rec.push((name.clone(), self.depth - *base));
        }
        self.declare_kpl(&name);
        self.emit(StmtKind::Local { name: name.clone(), init });
        name
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, cname: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(cname.to_string(), b);
        }
    }

    /// Declares a C local: emits `local` under the C name, or under a fresh name when that one is
    /// taken in KPL, and binds the C name.
    fn declare_var(&mut self, cname: &str, ty: Ty, init: Option<Expr>) {
        // Never reuse a KPL variable for another C variable, even a dead one: the uniformity
        // analysis is per name, so a second inlined copy of a device function under a
        // thread-dependent guard would make the first copy's variables varying too.
        let reserved = crate::kpl::is_keyword(cname) || self.arrays.iter().any(|a| a.name == cname);
        let kpl = if !self.kpl_visible(cname) && !reserved {
            self.declare_kpl(cname);
            self.emit(StmtKind::Local { name: cname.to_string(), init });
            cname.to_string()
        } else {
            let k = self.fresh_name(cname);
            self.declare_kpl(&k);
            self.emit(StmtKind::Local { name: k.clone(), init });
            k
        };
        self.bind(cname, Binding::Var { kpl, ty });
    }

    fn add_array(
        &mut self,
        cname: &str,
        space: Space,
        elem: Ty,
        dims: Vec<Option<u32>>,
        scalar: bool,
        sp: Span,
    ) {
        let kpl = if self.kpl_visible(cname) || crate::kpl::is_keyword(cname) {
            self.fresh_name(cname)
        } else {
            self.taken.insert(cname.to_string());
            cname.to_string()
        };
        let ndims = dims.len();
        self.arrays.push(ArrayDecl { name: kpl.clone(), space, dims, span: sp });
        self.scopes[0].insert(cname.to_string(), Binding::Array { kpl: kpl.clone(), elem, ndims, scalar });
        if let Some(s) = self.scopes.last_mut() {
            s.insert(cname.to_string(), Binding::Array { kpl, elem, ndims, scalar });
        }
    }

    // ---------------------------------------------------------------- parameters

    fn parameters(&mut self, f: Node, body: Node) -> R<()> {
        let mut d = f.child_by_field_name("declarator");
        while let Some(x) = d {
            if x.kind() == "function_declarator" {
                break;
            }
            d = x.child_by_field_name("declarator");
        }
        let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return Ok(()) };
        let mut c = list.walk();
        let params: Vec<Node> = list.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
        let mut copies = Vec::new();
        for p in params {
            if p.kind() != "parameter_declaration" {
                return Err(unsupported(format!("parameter `{}`", text(p, self.src)), p));
            }
            let ty_node =
                p.child_by_field_name("type").ok_or_else(|| unsupported("parameter without a type", p))?;
            let Some(decl) = p.child_by_field_name("declarator") else {
                if text(ty_node, self.src) == "void" {
                    continue;
                }
                return Err(unsupported("unnamed parameter", p));
            };
            if let Some(agg) = self.agg_type(ty_node) {
                let inner = decl.child_by_field_name("declarator").filter(|i| i.kind() == "identifier");
                match (decl.kind(), inner) {
                    ("pointer_declarator" | "array_declarator", Some(inner)) => {
                        let cname = text(inner, self.src).to_string();
                        self.add_array(&cname, Space::Global, agg.fields[0].1, vec![None], false, span(decl));
                        if let Some(Binding::Array { kpl, .. }) = self.lookup(&cname).cloned() {
                            self.agg_arrays.insert(kpl, agg);
                        }
                        continue;
                    }
                    _ => return Err(unsupported(format!("a {} parameter passed by value", agg.name), p)),
                }
            }
            let ty = self.ty(ty_node)?;
            let (name_node, is_array) = match decl.kind() {
                "identifier" => (decl, false),
                "pointer_declarator" | "array_declarator" => {
                    let inner = decl
                        .child_by_field_name("declarator")
                        .ok_or_else(|| unsupported("parameter", decl))?;
                    if inner.kind() != "identifier" {
                        return Err(unsupported(
                            format!("parameter `{}` (pointers to pointers and multi-dimensional array parameters)", text(decl, self.src)),
                            decl,
                        ));
                    }
                    (inner, true)
                }
                _ => return Err(unsupported(format!("parameter `{}`", text(decl, self.src)), decl)),
            };
            let cname = text(name_node, self.src).to_string();
            if is_array {
                self.add_array(&cname, Space::Global, ty, vec![None], false, span(decl));
            } else {
                let kpl = if crate::kpl::is_keyword(&cname) || self.kpl_visible(&cname) {
                    self.fresh_name(&cname)
                } else {
                    cname.clone()
                };
                self.declare_kpl(&kpl);
                self.params.push(kpl.clone());
                self.bind(&cname, Binding::Var { kpl: kpl.clone(), ty });
                if assigns(body, self.src, &cname) {
                    copies.push((cname, kpl, ty));
                }
            }
        }
        // Parameters are uniform and read-only in KPL: a kernel that assigns one works on a copy.
        self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        for (cname, kpl, ty) in copies {
            let local = self.fresh_name(&cname);
            self.declare_kpl(&local);
            let l = self.emit(StmtKind::Local { name: local.clone(), init: Some(Expr::Var(kpl)) });
            self.set_place(l, Place::Not("a copy of an assigned parameter".into()));
            self.bind(&cname, Binding::Var { kpl: local, ty });
        }
        Ok(())
    }

    // ---------------------------------------------------------------- statements

    fn place_after(&self, n: Node, ctx: Ctx) -> Place {
        match ctx {
            Ctx::Normal => line_place(self.src, n.start_byte(), n.end_byte()),
            Ctx::Body { parent_start } => braced_place(self.src, parent_start, n.start_byte(), n.end_byte()),
        }
    }

    /// Lowers a source statement; the last KPL statement it produces gets its place.
    fn simple(&mut self, n: Node, ctx: Ctx, f: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        self.cur_span = span(n);
        let before = self.out.len();
        f(self)?;
        if self.out.len() > before {
            if self.out.last().is_some_and(|s| self.inlined.contains(&s.label)) {
                // The statement ends with an inlined body, whose statements keep the places of
                // the function: a no-op marker (a dead local) carries the caller's position
                // after the call, so a barrier can go there instead of into every call.
                self.cur_span = span(n);
                self.temp(None);
            }
            if let Some(l) = self.out.last().map(|s| s.label) {
                let p = self.place_after(n, ctx);
                self.set_place(l, p);
            }
        }
        Ok(())
    }

    fn stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        match n.kind() {
            "comment" => Ok(()),
            "expression_statement" => {
                let mut c = n.walk();
                let e = n.named_children(&mut c).find(|x| x.kind() != "comment");
                match e {
                    None => Ok(()),
                    Some(e) => self.simple(n, ctx, |s| s.effect(e)),
                }
            }
            "declaration" => self.simple(n, ctx, |s| s.declaration(n)),
            "compound_statement" => {
                self.scopes.push(HashMap::new());
                let mut c = n.walk();
                let children: Vec<Node> =
                    n.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                let r = self.seq(&children);
                self.scopes.pop();
                r
            }
            "if_statement" => self.if_stmt(n, ctx),
            "while_statement" => self.while_stmt(n, ctx),
            "for_statement" => self.for_stmt(n, ctx),
            "do_statement" => self.do_stmt(n, ctx),
            "return_statement" => self.return_stmt(n, ctx),
            "break_statement" => {
                let flag = self
                    .targets
                    .last()
                    .and_then(|t| t.brk.clone())
                    .ok_or_else(|| Diagnostic::error("`break` outside a loop or `switch`", span(n)))?;
                self.jump(n, ctx, flag)
            }
            "continue_statement" => {
                let flag = self
                    .targets
                    .iter()
                    .rev()
                    .find(|t| t.is_loop)
                    .and_then(|t| t.cont.clone())
                    .ok_or_else(|| Diagnostic::error("`continue` outside a loop", span(n)))?;
                self.jump(n, ctx, flag)
            }
            "goto_statement" => {
                let name = n.child_by_field_name("label").map(|x| text(x, self.src)).unwrap_or("");
                match self.gotos.get(name).cloned() {
                    Some(flag) => self.jump(n, ctx, flag),
                    None => Err(unsupported(
                        format!("`goto {name}` into or out of a nested statement (irreducible or not lowered)"),
                        n,
                    )
                    .with_label("jump")
                    .with_note("only a `goto` to a label of an enclosing statement list is lowered (forward: a skip; backward: a loop)")),
                }
            }
            "labeled_statement" => {
                let mut c = n.walk();
                let label = n.child_by_field_name("label");
                let inner = n.named_children(&mut c).find(|x| Some(*x) != label && x.kind() != "comment");
                match inner {
                    Some(s) => self.stmt(s, ctx),
                    None => Ok(()),
                }
            }
            "switch_statement" => self.switch_stmt(n, ctx),
            "preproc_call" => {
                let d = n.child_by_field_name("directive").map(|d| text(d, self.src)).unwrap_or("");
                if d == "#pragma" {
                    Ok(())
                } else {
                    Err(unsupported(format!("preprocessor directive `{d}` inside a kernel"), n))
                }
            }
            k if k.starts_with("preproc") => Err(unsupported("preprocessor directives inside a kernel", n)),
            "ERROR" => Err(Diagnostic::error("syntax error: the CUDA parser cannot read this", span(n))),
            "gnu_asm_expression" | "asm_statement" => Err(unsupported("inline `asm`", n)),
            k => Err(unsupported(format!("statement kind `{k}`"), n)),
        }
    }

    /// Pointer parameters the kernel moves (`d_data += blockIdx.x * N;`, `p++`, `p = p + k`)
    /// become pointers into their array: a fresh offset local, 0 at entry, that the moves update
    /// (`pointer_assign`). Other pointer parameters (and arrays of vectors or structs, which stay
    /// an error when moved) stay arrays.
    fn movable_pointer_parameters(&mut self, body: Node<'t>) {
        fn assigned(n: Node, name: &str, src: &str) -> bool {
            let target = match n.kind() {
                "assignment_expression" => n.child_by_field_name("left"),
                "update_expression" => n.child_by_field_name("argument"),
                _ => None,
            };
            if target.map(strip_parens).is_some_and(|t| t.kind() == "identifier" && text(t, src) == name) {
                return true;
            }
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            children.into_iter().any(|ch| assigned(ch, name, src))
        }
        let params: Vec<(String, String, Ty)> = self
            .scopes
            .first()
            .map(|s| {
                s.iter()
                    .filter_map(|(name, b)| match b {
                        Binding::Array { kpl, elem, ndims: 1, scalar: false } => {
                            Some((name.clone(), kpl.clone(), *elem))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut params: Vec<_> = params
            .into_iter()
            .filter(|(name, kpl, _)| {
                // Pointers into vector/struct arrays move by elements (see `pointer_any`).
                self.params_array(kpl) && assigned(body, name, self.src)
            })
            .collect();
        params.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kpl, elem) in params {
            let off = self.flag(&format!("{name}_off"));
            self.bind(&name, Binding::Ptr { array: kpl, elem, comps: vec![Expr::Var(off)] });
        }
    }

    /// Whether KPL array `kpl` is a kernel parameter (global memory, not a file-scope array).
    fn params_array(&self, kpl: &str) -> bool {
        self.arrays.iter().any(|a| a.name == kpl && a.space == Space::Global)
    }

    /// Declares a fresh per-thread flag local initialized to 0 (not a barrier position: it
    /// stands for nothing in the source).
    fn flag(&mut self, base: &str) -> String {
        let name = self.fresh_name(base);
        self.declare_kpl(&name);
        let l = self.emit(StmtKind::Local { name: name.clone(), init: Some(Expr::Const(0)) });
        self.set_place(l, Place::Not(FLAG.into()));
        name
    }

    /// Lowers a statement sequence in the predicated form of unstructured control flow: after a
    /// statement that may set exit flags (`break`, `continue`, `return`), the rest of the
    /// sequence runs under `if (!(f1 || …))`. The place after that statement in the source is
    /// the start of the guarded block (only threads that did not leave reach it), so the
    /// statement's own label is not a barrier position.
    fn seq(&mut self, items: &[Node<'t>]) -> R<()> {
        let units = self.goto_units(items)?;
        if units.iter().all(|u| matches!(u, Unit::One(_))) {
            return self
                .seq_from(0, items.len(), &mut |s, i| s.stmt(items[i], Ctx::Normal), &|i| span(items[i]));
        }
        let sp = |u: &Unit| match *u {
            Unit::One(i) => span(items[i]),
            Unit::Back { from, to, .. } => span(items[from]).to(span(items[to])),
            Unit::Fwd { from, to, .. } => span(items[from]).to(span(items[to - 1])),
        };
        self.seq_from(0, units.len(), &mut |s, k| s.unit(items, &units[k]), &|k| sp(&units[k]))
    }

    /// Splits a statement list at the regions that `goto`s to its labels form: a backward goto
    /// (`L: …; if (c) goto L;`) makes the statements from the label to the last goto a loop; a
    /// forward one (`if (c) goto L; …; L:`) makes the statements from the first goto up to the
    /// label a region the jump skips. Regions may not overlap; a goto into a nested statement
    /// or out of its statement list is irreducible here and stays an error at the goto.
    fn goto_units(&self, items: &[Node<'t>]) -> R<Vec<Unit>> {
        let mut regions: Vec<Unit> = Vec::new();
        for (l, it) in items.iter().enumerate() {
            if it.kind() != "labeled_statement" {
                continue;
            }
            let Some(name) = it.child_by_field_name("label").map(|x| text(x, self.src).to_string()) else {
                continue;
            };
            let back = items[l..].iter().rposition(|x| has_goto(*x, &name, self.src)).map(|p| l + p);
            let fwd = items[..l].iter().position(|x| has_goto(*x, &name, self.src));
            match (fwd, back) {
                (Some(_), Some(_)) => {
                    return Err(unsupported(
                        format!("`goto {name}` both before and after the label (irreducible control flow)"),
                        *it,
                    ))
                }
                (Some(from), None) => regions.push(Unit::Fwd { from, to: l, label: name }),
                (None, Some(to)) => regions.push(Unit::Back { from: l, to, label: name }),
                (None, None) => {}
            }
        }
        regions.sort_by_key(|u| match u {
            Unit::Back { from, .. } | Unit::Fwd { from, .. } => *from,
            Unit::One(i) => *i,
        });
        let mut units = Vec::new();
        let mut i = 0;
        for r in regions {
            let (from, end) = match &r {
                Unit::Back { from, to, .. } => (*from, *to + 1),
                Unit::Fwd { from, to, .. } => (*from, *to),
                Unit::One(x) => (*x, *x + 1),
            };
            if from < i {
                return Err(unsupported(
                    "overlapping `goto` regions (irreducible control flow)",
                    items[from],
                ));
            }
            units.extend((i..from).map(Unit::One));
            units.push(r);
            i = end;
        }
        units.extend((i..items.len()).map(Unit::One));
        Ok(units)
    }

    fn unit(&mut self, items: &[Node<'t>], u: &Unit) -> R<()> {
        match u {
            Unit::One(i) => self.stmt(items[*i], Ctx::Normal),
            Unit::Fwd { from, to, label } => {
                // `goto L` sets a skip flag; the statements after it up to `L:` run under
                // `if (!skip)`; at the label every thread is back.
                let first = self.places.len();
                let before = self.out.len();
                self.cur_span = span(items[*from]);
                let g = self.flag("skip");
                let saved_goto = self.gotos.insert(label.clone(), g.clone());
                let saved = std::mem::take(&mut self.exits);
                let r =
                    self.seq_from(*from, *to, &mut |s, i| s.stmt(items[i], Ctx::Normal), &|i| span(items[i]));
                self.restore_goto(label, saved_goto);
                let set = std::mem::replace(&mut self.exits, saved);
                self.exits.extend(set.into_iter().filter(|f| *f != g));
                r?;
                // After the region's last statement in the source every thread is back: that
                // is after the region's last top-level KPL statement, not inside a guard.
                let p = self.place_after(items[to - 1], Ctx::Normal);
                for q in self.places.iter_mut().skip(first) {
                    if *q == p {
                        *q = Place::Not(LEFT.into());
                    }
                }
                if let Some(l) = self.out.get(before..).and_then(|o| o.last()).map(|s| s.label) {
                    self.set_place(l, p);
                }
                Ok(())
            }
            Unit::Back { from, to, label } => {
                // `local g := 1; while (g) { g := 0; L: …; if (c) { g := 1; } }`.
                self.cur_span = span(items[*from]);
                let g = self.flag("again");
                let a = self.emit(StmtKind::Assign { name: g.clone(), value: Expr::Const(1) });
                self.set_place(a, Place::Not(FLAG.into()));
                let l = self.label();
                let bs = self.label();
                let labeled = items[*from];
                let mut c = labeled.walk();
                let colon = labeled.children(&mut c).find(|x| x.kind() == ":");
                let start = match colon {
                    // A label usually sits at column 0: indent a barrier like the statement.
                    Some(col) => match line_place(self.src, labeled.start_byte(), col.end_byte()) {
                        Place::Line { offset, indent } => {
                            let indent = match col.next_named_sibling() {
                                Some(inner)
                                    if !super::text::same_line(
                                        self.src,
                                        col.end_byte(),
                                        inner.start_byte(),
                                    ) =>
                                {
                                    super::text::indent_of(self.src, inner.start_byte())
                                }
                                _ => indent,
                            };
                            Place::Line { offset, indent }
                        }
                        p => p,
                    },
                    None => Place::Not(INSIDE.into()),
                };
                self.set_place(bs, start);
                let saved_goto = self.gotos.insert(label.clone(), g.clone());
                let saved = std::mem::take(&mut self.exits);
                let r = self.nested(|s| {
                    let z = s.emit(StmtKind::Assign { name: g.clone(), value: Expr::Const(0) });
                    s.set_place(z, Place::Not(FLAG.into()));
                    s.seq_from(*from, *to + 1, &mut |s, i| s.stmt(items[i], Ctx::Normal), &|i| span(items[i]))
                });
                self.restore_goto(label, saved_goto);
                let set = std::mem::replace(&mut self.exits, saved);
                self.exits.extend(set.into_iter().filter(|f| *f != g));
                let (stmts, _) = r?;
                // After the last statement of the region in the source, only threads that do
                // not jump back arrive: they leave the loop. That position is after the loop.
                let p = self.place_after(items[*to], Ctx::Normal);
                for q in self.places.iter_mut().skip(bs.0 as usize + 1) {
                    if *q == p {
                        *q = Place::Not(LEFT.into());
                    }
                }
                self.set_place(l, p);
                let sp = span(items[*from]).to(span(items[*to]));
                let body = Block { label: l, start: bs, stmts, span: sp };
                self.out.push(Stmt {
                    label: l,
                    kind: StmtKind::While { cond: Expr::Var(g), body },
                    span: sp,
                });
                Ok(())
            }
        }
    }

    fn restore_goto(&mut self, label: &str, saved: Option<String>) {
        match saved {
            Some(f) => self.gotos.insert(label.to_string(), f),
            None => self.gotos.remove(label),
        };
    }

    fn seq_from(
        &mut self,
        from: usize,
        n: usize,
        f: &mut dyn FnMut(&mut Self, usize) -> R<()>,
        sp: &dyn Fn(usize) -> Span,
    ) -> R<()> {
        for i in from..n {
            let saved = std::mem::take(&mut self.exits);
            f(self, i)?;
            let set = std::mem::replace(&mut self.exits, saved);
            self.exits.extend(set.iter().cloned());
            if set.is_empty() {
                continue;
            }
            let moved = self
                .out
                .last()
                .map(|s| s.label)
                .and_then(|l| self.places.get_mut(l.0 as usize))
                .map(|p| std::mem::replace(p, Place::Not(LEFT.into())));
            if i + 1 == n && !moved.as_ref().is_some_and(Place::is_placeable) {
                return Ok(());
            }
            // At the end of the list an empty guard keeps the source position after the
            // jumping statement placeable (e.g. the end of a loop body after `if (c) break;`).
            let cond = not_any(&set);
            let l = self.label();
            let ts = self.label();
            if let Some(p) = moved {
                self.set_place(ts, p);
            }
            self.set_place(l, Place::Not("the end of statements guarded by an exit flag".into()));
            let (stmts, _) = self.nested(|s| s.seq_from(i + 1, n, f, sp))?;
            // The guard's own span is the statement that may jump (diagnostics point at the
            // `return` that makes the rest thread-dependent); its block spans the rest.
            let gspan = if i + 1 < n { sp(i + 1).to(sp(n - 1)) } else { Span::new(sp(i).end, sp(i).end) };
            let then = Block { label: l, start: ts, stmts, span: gspan };
            self.flag_guards.insert(l);
            self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els: None }, span: sp(i) });
            return Ok(());
        }
        Ok(())
    }

    /// `break;` / `continue;`: sets the flag; nothing after it in its block runs.
    fn jump(&mut self, n: Node, ctx: Ctx, flag: String) -> R<()> {
        self.simple(n, ctx, |s| {
            s.emit(StmtKind::Assign { name: flag.clone(), value: Expr::Const(1) });
            Ok(())
        })?;
        if let Some(l) = self.out.last().map(|s| s.label) {
            self.set_place(l, Place::Not(LEFT.into()));
        }
        self.exits.insert(flag);
        Ok(())
    }

    /// `return [e];`: the value goes to the inlined function's result variable; an early return
    /// sets the function's return flag (a final one needs none).
    fn return_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let mut c = n.walk();
        let value = n.named_children(&mut c).find(|x| x.kind() != "comment");
        let is_final = self.final_return == Some(n);
        let flag = if is_final { None } else { self.frame.ret_flag.clone() };
        if !is_final && flag.is_none() {
            return Err(Diagnostic::error("internal error: an early return without a return flag", span(n)));
        }
        let result = self.frame.ret_value.clone();
        let result_agg = self.frame.ret_agg.clone();
        let from = self.places.len();
        self.simple(n, ctx, |s| {
            match (value, result) {
                (Some(v), None) if result_agg.is_some() => {
                    if let Some((agg, comps)) = result_agg {
                        let vals = s.agg_value(v, &agg)?;
                        for (c, e) in comps.into_iter().zip(vals) {
                            s.emit(StmtKind::Assign { name: c, value: e });
                        }
                    }
                }
                (Some(v), Some((var, ty))) => {
                    let (e, t) = s.expr(v)?;
                    s.emit(StmtKind::Assign { name: var, value: convert(e, t, ty) });
                }
                (Some(v), None) => return Err(unsupported("`return` with a value here", v)),
                (None, _) => {}
            }
            if let Some(f) = &flag {
                s.emit(StmtKind::Assign { name: f.clone(), value: Expr::Const(1) });
            }
            Ok(())
        })?;
        self.mark_from(from, LEFT);
        if let Some(f) = flag {
            self.exits.insert(f);
        }
        Ok(())
    }

    /// `switch`: `local sw := e; [local brk, fall := 0;]` then per case, in source order,
    /// `if (fall || sw == v) { fall := 1; stmts }` (`default`: no case value matches), the
    /// cases after one that may `break` guarded by the break flag like any statement sequence.
    fn switch_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        let body = n.child_by_field_name("body").ok_or_else(|| unsupported("`switch` without a body", n))?;
        let mut c = body.walk();
        let cases: Vec<Node<'t>> = body.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        if let Some(bad) = cases.iter().find(|x| x.kind() != "case_statement") {
            return Err(unsupported("a statement before the first `case` of a `switch`", *bad));
        }
        self.cur_span = span(n);
        let first = self.places.len();
        let (v, t) = self.expr(cn)?;
        if t == Ty::Float {
            return Err(Diagnostic::error("`switch` on a floating value", span(cn)));
        }
        let sw = self.temp(Some(v));
        let brk = if jumps_here(body, "break_statement") { Some(self.flag("brk")) } else { None };
        let fall = if cases.len() > 1 { Some(self.flag("fall")) } else { None };
        self.mark_from(first, INSIDE);
        let mut values = Vec::new();
        for case in &cases {
            if let Some(v) = case.child_by_field_name("value") {
                let x = const_eval(v, self.src, &mut |name| self.const_value(name))
                    .ok_or_else(|| unsupported("a `case` value that is not an integer constant", v))?;
                values.push(x as u32);
            }
        }
        self.targets.push(Target { brk: brk.clone(), cont: None, is_loop: false });
        let saved = std::mem::take(&mut self.exits);
        let r = self.seq_from(
            0,
            cases.len(),
            &mut |s, i| s.case(cases[i], &sw, fall.as_deref(), &values),
            &|i| span(cases[i]),
        );
        self.targets.pop();
        let set = std::mem::replace(&mut self.exits, saved);
        self.exits.extend(set.into_iter().filter(|f| Some(f) != brk.as_ref()));
        r?;
        if let Some(l) = self.out.last().map(|s| s.label).filter(|l| l.0 as usize >= first) {
            let p = self.place_after(n, ctx);
            self.set_place(l, p);
        }
        Ok(())
    }

    fn case(&mut self, case: Node<'t>, sw: &str, fall: Option<&str>, values: &[u32]) -> R<()> {
        let src = self.src;
        let matches = match case.child_by_field_name("value") {
            Some(v) => {
                let x = const_eval(v, src, &mut |name| self.const_value(name)).unwrap_or(0) as u32;
                Expr::bin(BinOp::Eq, Expr::var(sw), Expr::Const(x))
            }
            None => values
                .iter()
                .map(|x| Expr::bin(BinOp::Ne, Expr::var(sw), Expr::Const(*x)))
                .reduce(|a, b| Expr::bin(BinOp::And, a, b))
                .unwrap_or(Expr::Const(1)),
        };
        let cond = match fall {
            Some(f) => Expr::bin(BinOp::Or, Expr::var(f), matches),
            None => matches,
        };
        let mut c = case.walk();
        let colon = case.children(&mut c).find(|x| x.kind() == ":");
        let mut c = case.walk();
        let value = case.child_by_field_name("value");
        let stmts: Vec<Node<'t>> =
            case.named_children(&mut c).filter(|x| x.kind() != "comment" && Some(*x) != value).collect();
        self.cur_span = span(case);
        let l = self.label();
        let ts = self.label();
        let start_place = match colon {
            Some(col) => line_place(src, case.start_byte(), col.end_byte()),
            None => Place::Not(INSIDE.into()),
        };
        self.set_place(ts, start_place);
        self.set_place(l, Place::Not("the end of a `switch` case".into()));
        let (body, _) = self.nested(|s| {
            if let Some(f) = fall {
                s.cur_span = span(case);
                let a = s.emit(StmtKind::Assign { name: f.to_string(), value: Expr::Const(1) });
                s.set_place(a, Place::Not(FLAG.into()));
            }
            s.seq(&stmts)
        })?;
        let then = Block { label: l, start: ts, stmts: body, span: span(case) };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els: None }, span: span(case) });
        Ok(())
    }

    /// The value of a constant name: a template value parameter or an integer macro.
    fn const_value(&self, name: &str) -> Option<i64> {
        match self.lookup(name) {
            Some(Binding::Const { value, ty }) => {
                Some(if *ty == Ty::Int { *value as i32 as i64 } else { *value as i64 })
            }
            Some(_) => None,
            None => self.macro_value(name),
        }
    }

    /// Lowers the body of a compound statement into the current (fresh) statement list. Returns
    /// the place of the block's start node.
    fn body(&mut self, b: Node<'t>, parent: Node) -> R<Place> {
        if b.kind() == "compound_statement" {
            let place = block_start_place(self.src, b.start_byte(), first_stmt(b));
            let mut c = b.walk();
            let children: Vec<Node> = b.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            self.seq(&children)?;
            Ok(place)
        } else {
            self.stmt(b, Ctx::Body { parent_start: parent.start_byte() })?;
            Ok(Place::Not("the start of a braceless body".into()))
        }
    }

    fn cond_clause(&self, n: Node<'t>) -> R<Node<'t>> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| unsupported("a statement without a condition", n))?;
        let c = if c.kind() == "condition_clause" {
            let v =
                c.child_by_field_name("value").ok_or_else(|| unsupported("declarations in conditions", c))?;
            if v.kind() == "declaration" || c.child_by_field_name("initializer").is_some() {
                return Err(unsupported("declarations in conditions", c));
            }
            v
        } else {
            c
        };
        Ok(strip_parens(c))
    }

    fn if_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.cur_span = span(n);
        let before = self.places.len();
        let cond = self.cond(cn)?;
        if self.places.len() == before {
            if let Some(v) = fold(&cond) {
                return self.folded_if(n, v != 0);
            }
        }
        let l = self.label();
        let ts = self.label();
        let then_node =
            n.child_by_field_name("consequence").ok_or_else(|| unsupported("`if` without a body", n))?;
        let (then_stmts, tplace) = self.nested(|s| s.body(then_node, n))?;
        self.set_place(ts, tplace);
        let els = match n.child_by_field_name("alternative") {
            Some(alt) => {
                let mut c = alt.walk();
                let body = alt
                    .named_children(&mut c)
                    .find(|x| x.kind() != "comment")
                    .ok_or_else(|| unsupported("empty `else`", alt))?;
                let el = self.label();
                let es = self.label();
                let (stmts, eplace) = self.nested(|s| s.body(body, alt))?;
                self.set_place(es, eplace);
                let p = self.place_after(n, ctx);
                self.set_place(el, p);
                self.set_place(l, Place::Not("between a then block and its else".into()));
                Some(Block { label: el, start: es, stmts, span: span(body) })
            }
            None => {
                let p = self.place_after(n, ctx);
                self.set_place(l, p);
                None
            }
        };
        let then = Block { label: l, start: ts, stmts: then_stmts, span: span(then_node) };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els }, span: span(n) });
        Ok(())
    }

    /// An `if` whose condition is a constant (`if (blockSize >= 512)` in a template instance):
    /// only the branch taken is lowered, as a plain block; its statements keep their places.
    fn folded_if(&mut self, n: Node<'t>, taken: bool) -> R<()> {
        let branch = if taken {
            n.child_by_field_name("consequence")
        } else {
            n.child_by_field_name("alternative").and_then(|alt| {
                let mut c = alt.walk();
                let b = alt.named_children(&mut c).find(|x| x.kind() != "comment");
                b
            })
        };
        let Some(b) = branch else { return Ok(()) };
        self.scopes.push(HashMap::new());
        let r = if b.kind() == "compound_statement" {
            let mut c = b.walk();
            let children: Vec<Node> = b.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            self.seq(&children)
        } else {
            let parent = if taken { n } else { b.parent().unwrap_or(n) };
            self.stmt(b, Ctx::Body { parent_start: parent.start_byte() })
        };
        self.scopes.pop();
        r
    }

    /// Lowers a loop condition the first time, recording its temporaries for [`Self::recond`].
    fn loop_cond(&mut self, cn: Node) -> R<(Expr, bool, Recorded)> {
        let before = self.places.len();
        self.record = Some((self.depth, Vec::new()));
        let r = self.cond(cn);
        let rec = self.record.take().map(|r| r.1).unwrap_or_default();
        Ok((r?, self.places.len() > before, rec))
    }

    /// Re-evaluates a loop condition at the end of the body into the same temporaries.
    fn recond(&mut self, cn: Node, first: &Expr, rec: Vec<(String, usize)>) -> R<()> {
        let from = self.places.len();
        self.cur_span = span(cn);
        self.replay = Some((self.depth, rec.into()));
        let r = self.cond(cn);
        self.replay = None;
        let again = r?;
        self.mark_from(from, LOOP_COND);
        if &again != first {
            return Err(Diagnostic::error(
                "internal error: a loop condition lowered differently twice",
                span(cn),
            ));
        }
        Ok(())
    }

    fn while_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.loop_stmt(n, ctx, Some(cn), None)
    }

    fn for_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.for_inner(n, ctx);
        self.scopes.pop();
        r
    }

    fn for_inner(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let from = self.places.len();
        if let Some(init) = n.child_by_field_name("initializer") {
            self.cur_span = span(init);
            if init.kind() == "declaration" {
                self.declaration(init)?;
            } else {
                self.effect(init)?;
            }
        }
        self.mark_from(from, FOR_HEADER);
        let cn = n.child_by_field_name("condition").map(strip_parens);
        self.loop_stmt(n, ctx, cn, n.child_by_field_name("update"))
    }

    /// A `while` (no update) or the rest of a `for` after its initializer: `while (cond)
    /// { body; update; <reads of cond again> }`, where the update and the re-reads are not
    /// placeable. A missing condition is `1`. With `break`/`continue`/`return` inside, the
    /// predicated form: flags declared before the loop, the condition conjoined with `!brk`
    /// (and `!ret`), `cont` cleared at the end of each iteration, and the update and re-reads
    /// run only by threads that are still in the loop.
    fn loop_stmt(&mut self, n: Node<'t>, ctx: Ctx, cn: Option<Node<'t>>, update: Option<Node<'t>>) -> R<()> {
        let body_node =
            n.child_by_field_name("body").ok_or_else(|| unsupported("a loop without a body", n))?;
        self.cur_span = span(n);
        let (brk, cont) = self.loop_flags(body_node);
        let (cond, reads, rec) = match cn {
            Some(cn) => {
                self.cur_span = span(cn);
                self.loop_cond(cn)?
            }
            None => (Expr::Const(1), false, Vec::new()),
        };
        let recheck = cond.clone();
        self.emit_loop(n, ctx, body_node, (brk, cont), cond, &mut |s| {
            if let Some(u) = update {
                let from = s.places.len();
                s.cur_span = span(u);
                s.effect(u)?;
                s.mark_from(from, FOR_HEADER);
            }
            if let (true, Some(cn)) = (reads, cn) {
                s.recond(cn, &recheck, rec.clone())?;
            }
            Ok(())
        })
    }

    /// The loop statement shared by `for`/`while` and `do`, once its flags are declared and its
    /// condition computed: `while (cond && !flags) { body; <cont cleared>; tail }` with the
    /// `break`/`continue` targets, the `tail` guarded as [`Self::loop_tail`] says, and the
    /// places of the loop and its body's start.
    fn emit_loop(
        &mut self,
        n: Node<'t>,
        ctx: Ctx,
        body_node: Node<'t>,
        (brk, cont): (Option<String>, Option<String>),
        cond: Expr,
        tail: &mut dyn FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        let l = self.label();
        let bs = self.label();
        self.targets.push(Target { brk: brk.clone(), cont: cont.clone(), is_loop: true });
        let saved = std::mem::take(&mut self.exits);
        let r = self.nested(|s| {
            let p = s.body(body_node, n)?;
            s.loop_tail(cont.as_deref(), tail)?;
            Ok(p)
        });
        self.targets.pop();
        let cond = self.close_loop(saved, cond, brk.as_deref(), cont.as_deref());
        let (stmts, bplace) = r?;
        self.set_place(bs, bplace);
        let p = self.place_after(n, ctx);
        self.set_place(l, p);
        let body = Block { label: l, start: bs, stmts, span: span(body_node) };
        self.out.push(Stmt { label: l, kind: StmtKind::While { cond, body }, span: span(n) });
        Ok(())
    }

    /// Declares the `break`/`continue` flags a loop body needs.
    fn loop_flags(&mut self, body: Node) -> (Option<String>, Option<String>) {
        let brk = jumps_here(body, "break_statement").then(|| self.flag("brk"));
        let cont = jumps_here(body, "continue_statement").then(|| self.flag("cont"));
        (brk, cont)
    }

    /// The end of a loop iteration: clears `cont`, then runs `tail` (update, condition re-reads)
    /// only for threads that did not `break` or `return` when the body may have.
    fn loop_tail(&mut self, cont: Option<&str>, tail: &mut dyn FnMut(&mut Self) -> R<()>) -> R<()> {
        if let Some(c) = cont {
            let a = self.emit(StmtKind::Assign { name: c.to_string(), value: Expr::Const(0) });
            self.set_place(a, Place::Not(FLAG.into()));
        }
        let leaving: BTreeSet<String> =
            self.exits.iter().filter(|f| Some(f.as_str()) != cont).cloned().collect();
        if leaving.is_empty() {
            return tail(self);
        }
        let before = self.out.len();
        let l = self.label();
        let ts = self.label();
        self.set_place(l, Place::Not(FOR_HEADER.into()));
        self.set_place(ts, Place::Not(FOR_HEADER.into()));
        let (stmts, _) = self.nested(|s| tail(s))?;
        if stmts.is_empty() {
            // Nothing to guard: give the two labels back (labels are dense and in order).
            self.places.truncate(self.places.len() - 2);
            debug_assert_eq!(self.out.len(), before);
            return Ok(());
        }
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts, span: sp };
        self.flag_guards.insert(l);
        self.out.push(Stmt {
            label: l,
            kind: StmtKind::If { cond: not_any(&leaving), then, els: None },
            span: sp,
        });
        Ok(())
    }

    /// After a loop body: conjoins the loop condition with the negated flags of threads that
    /// left the loop and passes `return` flags on to the enclosing statements.
    fn close_loop(
        &mut self,
        saved: BTreeSet<String>,
        cond: Expr,
        brk: Option<&str>,
        cont: Option<&str>,
    ) -> Expr {
        let set = std::mem::replace(&mut self.exits, saved);
        let mut cond = cond;
        for f in &set {
            if Some(f.as_str()) != cont {
                cond = Expr::bin(BinOp::And, cond, Expr::Unary(UnOp::Not, Box::new(Expr::var(f))));
            }
        }
        self.exits.extend(set.into_iter().filter(|f| Some(f.as_str()) != brk && Some(f.as_str()) != cont));
        cond
    }

    /// `do B while (c);` → `local d := 1; while (d) { B; d := c; }` (with flags as for loops).
    fn do_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.cur_span = span(n);
        let body_node = n.child_by_field_name("body").ok_or_else(|| unsupported("`do` without a body", n))?;
        let (brk, cont) = self.loop_flags(body_node);
        self.cur_span = span(n);
        let flag = self.temp(Some(Expr::Const(1)));
        self.emit_loop(n, ctx, body_node, (brk, cont), Expr::Var(flag.clone()), &mut |s| {
            let from = s.places.len();
            s.cur_span = span(cn);
            let c = s.cond(cn)?;
            s.emit(StmtKind::Assign { name: flag.clone(), value: c });
            s.mark_from(from, LOOP_COND);
            Ok(())
        })
    }

    fn declaration(&mut self, n: Node) -> R<()> {
        let mut c = n.walk();
        let mut shared = false;
        let mut ext = false;
        for ch in n.children(&mut c) {
            let t = text(ch, self.src);
            match ch.kind() {
                "storage_class_specifier" => match t {
                    "extern" => ext = true,
                    "register" => {}
                    _ => return Err(unsupported(format!("`{t}` variables in a kernel"), ch)),
                },
                "type_qualifier" => match t {
                    "__shared__" => shared = true,
                    "const" | "volatile" | "__restrict__" | "constexpr" => {}
                    _ => return Err(unsupported(format!("`{t}` in a kernel"), ch)),
                },
                "attribute_specifier" | "attribute_declaration" | "ms_declspec_modifier" => {
                    return Err(unsupported(format!("attribute `{t}`"), ch))
                }
                _ => {}
            }
        }
        let ty_node =
            n.child_by_field_name("type").ok_or_else(|| unsupported("declaration without a type", n))?;
        if let Some(r) = self.group_declaration(n, ty_node, shared || ext) {
            return r;
        }
        if let Some(agg) = self.agg_type(ty_node) {
            return self.agg_declaration(n, agg, shared, ext);
        }
        if text(ty_node, self.src) == "auto" && !shared && !ext {
            return self.auto_declaration(n);
        }
        let ty = self.ty(ty_node)?;
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            if shared {
                self.shared_decl(d, ty, ext)?;
                continue;
            }
            if ext {
                return Err(unsupported("`extern` variables other than `extern __shared__` arrays", d));
            }
            match d.kind() {
                "identifier" => {
                    let cname = text(d, self.src).to_string();
                    self.declare_var(&cname, ty, None);
                }
                "init_declarator" => {
                    let name =
                        d.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
                    let value = d.child_by_field_name("value").ok_or_else(|| unsupported("declarator", d))?;
                    if name.kind() == "reference_declarator" {
                        self.ref_local(n, name, value, None, ty)?;
                        continue;
                    }
                    if name.kind() == "pointer_declarator" {
                        let inner = name
                            .child_by_field_name("declarator")
                            .ok_or_else(|| unsupported("declarator", d))?;
                        if inner.kind() != "identifier" {
                            return Err(self.bad_declarator(inner));
                        }
                        let cname = text(inner, self.src).to_string();
                        let (array, _, comps) = self.pointer(value)?;
                        let mutable = self.fn_body.is_none_or(|b| assigns(b, self.src, &cname));
                        self.bind_pointer(&cname, array, ty, comps, mutable);
                        continue;
                    }
                    if name.kind() != "identifier" {
                        return Err(self.bad_declarator(name));
                    }
                    if matches!(value.kind(), "argument_list" | "initializer_list") {
                        return Err(unsupported("constructor or brace initializers", value));
                    }
                    let (e, t) = self.expr(value)?;
                    let e = convert(e, t, ty);
                    let cname = text(name, self.src).to_string();
                    self.declare_var(&cname, ty, Some(e));
                }
                _ => return Err(self.bad_declarator(d)),
            }
        }
        Ok(())
    }

    /// `auto x = e;` (also `const auto`): a scalar local of the type of `e`. Other declarators
    /// (`auto &r`, `auto *p`, no initializer) are errors naming them.
    fn auto_declaration(&mut self, n: Node) -> R<()> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let (Some(name), Some(value)) =
                (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
            else {
                return Err(unsupported("`auto` without an initializer", d));
            };
            if name.kind() != "identifier" {
                return Err(unsupported(format!("`auto` declarator `{}`", text(name, self.src)), name));
            }
            if matches!(value.kind(), "argument_list" | "initializer_list") {
                return Err(unsupported("constructor or brace initializers", value));
            }
            let (e, ty) = self.expr(value)?;
            let cname = text(name, self.src).to_string();
            self.declare_var(&cname, ty, Some(e));
        }
        Ok(())
    }

    fn bad_declarator(&self, d: Node) -> Diagnostic {
        match d.kind() {
            "array_declarator" => unsupported("thread-local arrays", d)
                .with_note("only `__shared__` arrays, global pointer parameters and file-scope `__device__` arrays are modelled"),
            "pointer_declarator" => unsupported("a pointer variable without an initializer", d)
                .with_note("pointers are modelled as aliases of the array they are initialized to point into"),
            "reference_declarator" => unsupported("references", d),
            _ => unsupported(format!("declarator `{}`", text(d, self.src)), d),
        }
    }

    fn shared_decl(&mut self, d: Node, ty: Ty, ext: bool) -> R<()> {
        if d.kind() == "init_declarator" {
            return Err(unsupported("initialized `__shared__` variables", d));
        }
        let mut dims = Vec::new();
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            match cur.child_by_field_name("size") {
                Some(s) => {
                    let v = const_eval(s, self.src, &mut |name| self.const_value(name))
                        .and_then(|v| u32::try_from(v).ok().filter(|v| *v > 0))
                        .ok_or_else(|| {
                            unsupported(
                                "a `__shared__` array size that is not a positive integer constant",
                                s,
                            )
                        })?;
                    dims.push(Some(v));
                }
                None => dims.push(None),
            }
            cur = cur.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
        }
        if cur.kind() != "identifier" {
            return Err(self.bad_declarator(cur));
        }
        dims.reverse();
        if dims.iter().skip(1).any(Option::is_none) || (dims.first() == Some(&None) && !ext) {
            return Err(unsupported(
                "a `__shared__` array with an unknown size other than `extern __shared__ T a[]`",
                d,
            ));
        }
        let scalar = dims.is_empty();
        if scalar {
            if ext {
                return Err(unsupported("`extern __shared__` scalars", d));
            }
            dims.push(Some(1));
        }
        let cname = text(cur, self.src).to_string();
        if ext {
            let kpl = self.extern_shared_array(&cname, ty, span(d));
            self.bind(&cname, Binding::Array { kpl, elem: ty, ndims: 1, scalar: false });
            return Ok(());
        }
        self.add_array(&cname, Space::Shared, ty, dims, scalar, span(d));
        Ok(())
    }

    /// The vector type or plain struct a type node names, if any.
    fn agg_type(&self, n: Node) -> Option<Rc<Agg>> {
        let name = text(n, self.src).trim_start_matches("struct ").trim();
        if let Some(a) = vector_type(name) {
            return Some(Rc::new(a));
        }
        let (_, fields) = self.prog.structs.iter().find(|(s, _)| s == name)?;
        let fields: Option<Vec<(String, Ty)>> =
            fields.iter().map(|(f, t)| ty_from_words(t).map(|t| (f.clone(), t))).collect();
        Some(Rc::new(Agg { name: name.to_string(), fields: fields? }))
    }

    /// Declarations of vector/struct type: shared arrays (fields in the last dimension) and
    /// locals (one KPL local per field).
    fn agg_declaration(&mut self, n: Node, agg: Rc<Agg>, shared: bool, ext: bool) -> R<()> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        let k = agg.fields.len() as u32;
        for d in decls {
            if shared {
                if ext {
                    return Err(unsupported(format!("`extern __shared__` arrays of {}", agg.name), d));
                }
                let before = self.arrays.len();
                self.shared_decl(d, agg.fields[0].1, false)?;
                let Some(a) = self.arrays.get_mut(before) else { continue };
                match a.dims.last_mut() {
                    Some(Some(last)) if d.kind() != "identifier" => *last *= k,
                    _ => {
                        return Err(unsupported(
                            format!("a `__shared__` {} that is not an array", agg.name),
                            d,
                        ))
                    }
                }
                let name = a.name.clone();
                self.agg_arrays.insert(name, agg.clone());
                continue;
            }
            let (name, init) = match d.kind() {
                "identifier" => (d, None),
                "init_declarator" => (
                    d.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?,
                    d.child_by_field_name("value"),
                ),
                _ => return Err(self.bad_declarator(d)),
            };
            if let ("reference_declarator", Some(value)) = (name.kind(), init) {
                self.ref_local(n, name, value, Some(agg.clone()), agg.fields[0].1)?;
                continue;
            }
            if name.kind() == "pointer_declarator" {
                // `float2 *p = d + k;`: a pointer into a vector/struct array, counting elements.
                let inner = name.child_by_field_name("declarator").filter(|i| i.kind() == "identifier");
                let (Some(inner), Some(value)) = (inner, init) else {
                    return Err(self.bad_declarator(name));
                };
                let (array, comps, a) = self.agg_pointer(value)?;
                if a.fields != agg.fields {
                    return Err(unsupported(
                        format!("a {} pointer into an array of {}", agg.name, a.name),
                        value,
                    ));
                }
                let cname = text(inner, self.src).to_string();
                let mutable = self.fn_body.is_none_or(|b| assigns(b, self.src, &cname));
                self.bind_pointer(&cname, array, agg.fields[0].1, comps, mutable);
                continue;
            }
            if name.kind() != "identifier" {
                return Err(self.bad_declarator(name));
            }
            let values = match init {
                Some(v) => Some(self.agg_value(v, &agg)?),
                None => None,
            };
            let cname = text(name, self.src).to_string();
            self.agg_locals(&cname, agg.clone(), values);
        }
        Ok(())
    }

    /// Declares the vector/struct local `cname`: one KPL local per field (with `values`).
    fn agg_locals(&mut self, cname: &str, agg: Rc<Agg>, values: Option<Vec<Expr>>) {
        let mut comps = Vec::new();
        for (i, (f, _)) in agg.fields.iter().enumerate() {
            let base = format!("{cname}_{f}");
            let k = if self.taken.contains(&base) || crate::kpl::is_keyword(&base) {
                self.fresh_name(&base)
            } else {
                base
            };
            self.declare_kpl(&k);
            let init = values.as_ref().and_then(|v| v.get(i).cloned());
            self.emit(StmtKind::Local { name: k.clone(), init });
            comps.push(k);
        }
        self.bind(cname, Binding::Agg { agg, comps });
    }

    /// The fields of an aggregate-valued expression: a local, an array element (one read per
    /// field, in order), or `make_float4(…)`.
    /// Writes `values` to the words of the vector/struct element at `index` of `array`, in field
    /// order.
    fn write_fields(&mut self, array: &str, index: &[Expr], values: Vec<Expr>) {
        for (i, value) in values.into_iter().enumerate() {
            self.emit(StmtKind::Write { array: array.to_string(), index: field_index(index, i), value });
        }
    }

    /// Reads the `nfields` words of the vector/struct element at `index` of `array` into fresh
    /// temporaries, in field order.
    fn read_fields(&mut self, array: &str, index: &[Expr], nfields: usize) -> Vec<Expr> {
        (0..nfields)
            .map(|i| {
                let t = self.temp(None);
                self.emit(StmtKind::Read {
                    dst: t.clone(),
                    array: array.to_string(),
                    index: field_index(index, i),
                });
                Expr::Var(t)
            })
            .collect()
    }

    fn agg_value(&mut self, n: Node, agg: &Rc<Agg>) -> R<Vec<Expr>> {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => match self.lookup(text(n, self.src)).cloned() {
                Some(Binding::Agg { agg: a, comps }) if a.fields.len() == agg.fields.len() => {
                    Ok(comps.into_iter().map(Expr::Var).collect())
                }
                Some(Binding::Ref { array, index, agg: Some(a), .. })
                    if a.fields.len() == agg.fields.len() =>
                {
                    Ok(self.read_fields(&array, &index, a.fields.len()))
                }
                _ => Err(unsupported(format!("`{}` as a {}", text(n, self.src), agg.name), n)),
            },
            "subscript_expression" => {
                let (array, index, a) = self.agg_element(n)?;
                if a.fields.len() != agg.fields.len() {
                    return Err(unsupported(format!("copying a {} into a {}", a.name, agg.name), n));
                }
                Ok(self.read_fields(&array, &index, a.fields.len()))
            }
            "pointer_expression" if is_deref(n) => {
                let ptr = n.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", n))?;
                let (array, index, a) = self.agg_deref(ptr)?;
                if a.fields.len() != agg.fields.len() {
                    return Err(unsupported(format!("copying a {} into a {}", a.name, agg.name), n));
                }
                Ok(self.read_fields(&array, &index, a.fields.len()))
            }
            "call_expression" => {
                let f = n.child_by_field_name("function").map(|f| text(f, self.src)).unwrap_or("");
                let args = self.args(n);
                let callee = n.child_by_field_name("function");
                let fname = callee
                    .map(|c| {
                        if c.kind() == "template_function" {
                            c.child_by_field_name("name").unwrap_or(c)
                        } else {
                            c
                        }
                    })
                    .map(|c| text(c, self.src))
                    .unwrap_or("");
                if self.lookup(fname).is_none() && self.prog.has_function(fname) {
                    // A device function returning a vector/struct: its result locals.
                    self.want_agg = Some(agg.clone());
                    let r = self.call(n, true);
                    self.want_agg = None;
                    r?;
                    return match self.agg_result.take() {
                        Some(comps) => Ok(comps.into_iter().map(Expr::Var).collect()),
                        None => {
                            Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n))
                        }
                    };
                }
                if f == format!("make_{}", agg.name) && args.len() == agg.fields.len() {
                    let mut out = Vec::new();
                    for (a, (_, ty)) in args.iter().zip(&agg.fields) {
                        let (e, t) = self.expr(*a)?;
                        out.push(convert(e, t, *ty));
                    }
                    return Ok(out);
                }
                Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n))
            }
            _ => Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n)),
        }
    }

    /// The KPL array and type of the vector/struct array (or pointer into one) that the
    /// subscripts `n` index; `None` when `n` is not such an element.
    fn agg_base(&mut self, n: Node) -> Option<(String, Rc<Agg>)> {
        let mut base = n;
        while base.kind() == "subscript_expression" {
            base = strip_parens(base.child_by_field_name("argument")?);
        }
        if base.kind() != "identifier" {
            return None;
        }
        let name = text(base, self.src);
        self.bring_file_array(name);
        let kpl = match self.lookup(name)? {
            Binding::Array { kpl, .. } => kpl.clone(),
            Binding::Ptr { array, .. } => array.clone(),
            _ => return None,
        };
        self.agg_arrays.get(&kpl).map(|a| (kpl, a.clone()))
    }

    /// The vector/struct type of the elements the expression `n` denotes or points into (a
    /// vector/struct local or reference, an array of them, a pointer into one, an element, its
    /// address, `*p`, pointer arithmetic), judged from the names alone: nothing is lowered.
    fn agg_of(&self, n: Node) -> Option<Rc<Agg>> {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => match self.lookup(text(n, self.src))? {
                Binding::Agg { agg, .. } | Binding::Ref { agg: Some(agg), .. } => Some(agg.clone()),
                Binding::Array { kpl, .. } => self.agg_arrays.get(kpl).cloned(),
                Binding::Ptr { array, .. } => self.agg_arrays.get(array).cloned(),
                _ => None,
            },
            "subscript_expression" | "pointer_expression" => self.agg_of(n.child_by_field_name("argument")?),
            "binary_expression" => {
                let l = n.child_by_field_name("left")?;
                if self.is_pointer(l) {
                    self.agg_of(l)
                } else {
                    self.agg_of(n.child_by_field_name("right")?)
                }
            }
            _ => None,
        }
    }

    /// `a[i]` (or `p[i]`) of a vector/struct array: (array, index with the element number in
    /// the last component, type).
    fn agg_index(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let Some((kpl, agg)) = self.agg_base(n) else {
            return Err(unsupported(
                format!("`{}` is not an array of vectors or structs", text(n, self.src)),
                n,
            ));
        };
        // Index as a scalar array (the last component counts elements).
        let saved = self.agg_arrays.remove(&kpl);
        let r = self.element(n, false);
        if let Some(a) = saved {
            self.agg_arrays.insert(kpl.clone(), a);
        }
        let (array, _, index) = r?;
        Ok((array, index, agg))
    }

    /// `a[i]` of a vector/struct array: (array, index of the element's first field, type).
    fn agg_element(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let (array, index, agg) = self.agg_index(n)?;
        let index = element_words(index, &agg);
        Ok((array, index, agg))
    }

    /// The vector/struct element a pointer points at (`*p`, and so `p->f` = `(*p).f` =
    /// `p[0].f`): (array, index of its first field word, type).
    fn agg_deref(&mut self, ptr: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let (array, index, agg) = self.agg_pointer(ptr)?;
        let index = element_words(index, &agg);
        Ok((array, index, agg))
    }

    /// The type class of a type node; template type parameters resolve to their argument.
    fn ty(&self, n: Node) -> R<Ty> {
        if n.kind() == "type_identifier" {
            if let Some(t) = self.frame.types.get(text(n, self.src)) {
                return Ok(*t);
            }
        }
        scalar_type(n, self.src)
    }

    fn macro_value(&self, name: &str) -> Option<i64> {
        match self.file.macros.get(name) {
            Some(MacroVal::Const(v)) => Some(*v),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- expressions

    /// A condition: the expression's truth value (floats compared with 0).
    fn cond(&mut self, n: Node) -> R<Expr> {
        let (e, t) = self.expr(n)?;
        Ok(truth(e, t))
    }

    /// Whether lowering `n` could emit statements (memory accesses or side effects).
    fn effectful(&self, n: Node) -> bool {
        match n.kind() {
            "subscript_expression" | "assignment_expression" | "update_expression" | "pointer_expression" => {
                return true
            }
            "call_expression" => {
                let f = n.child_by_field_name("function").map(|f| text(f, self.src)).unwrap_or("");
                if !(INT_PURE.contains(&f) || FLOAT_MATH.contains(&f)) {
                    return true;
                }
            }
            "identifier" => {
                if let Some(Binding::Array { .. }) = self.lookup(text(n, self.src)) {
                    return true;
                }
                if self.lookup(text(n, self.src)).is_none() {
                    let name = text(n, self.src);
                    if self.file.arrays.iter().any(|a| a.name == name) {
                        return true;
                    }
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        children.into_iter().any(|ch| self.effectful(ch))
    }

    /// Lowers an expression whose value is not used.
    fn effect(&mut self, n: Node) -> R<()> {
        let n = strip_parens(n);
        match n.kind() {
            "comma_expression" => {
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("comma", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("comma", n))?;
                self.effect(l)?;
                self.effect(r)
            }
            "update_expression" => self.update(n, false).map(|_| ()),
            "assignment_expression" => self.assign(n).map(|_| ()),
            "call_expression" => self.call(n, false).map(|_| ()),
            "conditional_expression" if self.branch_effects(n) => {
                let (c, a, b) = self.ternary_parts(n)?;
                let ce = self.cond(c)?;
                let l = self.label();
                let ts = self.label();
                let (then, _) = self.nested(|s| s.effect(a))?;
                let el = self.label();
                let es = self.label();
                let (els, _) = self.nested(|s| s.effect(b))?;
                let sp = self.cur_span;
                let then = Block { label: l, start: ts, stmts: then, span: sp };
                let els = Some(Block { label: el, start: es, stmts: els, span: sp });
                self.out.push(Stmt { label: l, kind: StmtKind::If { cond: ce, then, els }, span: sp });
                Ok(())
            }
            _ => self.expr(n).map(|_| ()),
        }
    }

    fn branch_effects(&self, n: Node) -> bool {
        ["consequence", "alternative"]
            .iter()
            .any(|f| n.child_by_field_name(f).is_some_and(|x| self.effectful(x)))
    }

    fn ternary_parts<'n>(&self, n: Node<'n>) -> R<(Node<'n>, Node<'n>, Node<'n>)> {
        let get =
            |f: &str| n.child_by_field_name(f).ok_or_else(|| unsupported("`?:` without all operands", n));
        Ok((get("condition")?, get("consequence")?, get("alternative")?))
    }

    fn expr(&mut self, n: Node) -> R<(Expr, Ty)> {
        let src = self.src;
        match n.kind() {
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| unsupported("empty parentheses", n))?;
                if inner.kind() == "compound_statement" {
                    return Err(unsupported("statement expressions", n));
                }
                self.expr(inner)
            }
            "number_literal" => match parse_number(text(n, src)) {
                Some(Lit::Int(v, t)) => Ok((Expr::Const(v), t)),
                Some(Lit::Float(f)) => Ok((Expr::Const(f.to_bits()), Ty::Float)),
                None => Err(unsupported(format!("literal `{}` (wider than 32 bits or malformed)", text(n, src)), n)),
            },
            "char_literal" => parse_char(text(n, src))
                .map(|v| (Expr::Const(v), Ty::Int))
                .ok_or_else(|| unsupported(format!("character literal {}", text(n, src)), n)),
            "true" => Ok((Expr::Const(1), Ty::Int)),
            "false" => Ok((Expr::Const(0), Ty::Int)),
            "identifier" => self.ident(n),
            "field_expression" => self.field(n),
            "subscript_expression" => {
                let (array, index, elem) = self.access(n)?;
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok((Expr::Var(t), elem))
            }
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let a = n.child_by_field_name("argument").ok_or_else(|| unsupported("unary operator", n))?;
                let (e, t) = self.expr(a)?;
                match (op, t) {
                    ("+", _) => Ok((e, t)),
                    ("-", Ty::Float) => Ok((Expr::Call("fneg".into(), vec![e]), Ty::Float)),
                    ("-", _) => Ok((Expr::Unary(UnOp::Neg, Box::new(e)), t)),
                    ("!", _) => Ok((Expr::Unary(UnOp::Not, Box::new(truth(e, t))), Ty::Int)),
                    ("~", Ty::Float) => Err(unsupported("`~` on a floating value", n)),
                    ("~", _) => Ok((Expr::Unary(UnOp::BitNot, Box::new(e)), t)),
                    _ => Err(unsupported(format!("unary operator `{op}`"), n)),
                }
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("binary operator", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("binary operator", n))?;
                if op == "&&" || op == "||" {
                    return self.logical(op, l, r);
                }
                let a = self.expr(l)?;
                let b = self.expr(r)?;
                binary(op, a, b).map_err(|m| unsupported(m, n))
            }
            "conditional_expression" => {
                let (c, a, b) = self.ternary_parts(n)?;
                let ce = self.cond(c)?;
                if !self.branch_effects(n) {
                    let (x, tx) = self.expr(a)?;
                    let (y, ty) = self.expr(b)?;
                    let t = common(tx, ty);
                    return Ok((Expr::Select(Box::new(ce), Box::new(convert(x, tx, t)), Box::new(convert(y, ty, t))), t));
                }
                let result_ty = {
                    // The branch types decide the result type; compute them without emitting.
                    let ta = self.static_type(a);
                    let tb = self.static_type(b);
                    common(ta, tb)
                };
                let tmp = self.temp(None);
                let l = self.label();
                let ts = self.label();
                let (then, _) = self.nested(|s| {
                    let (x, tx) = s.expr(a)?;
                    s.emit(StmtKind::Assign { name: tmp.clone(), value: convert(x, tx, result_ty) });
                    Ok(())
                })?;
                let el = self.label();
                let es = self.label();
                let (els, _) = self.nested(|s| {
                    let (y, ty) = s.expr(b)?;
                    s.emit(StmtKind::Assign { name: tmp.clone(), value: convert(y, ty, result_ty) });
                    Ok(())
                })?;
                let sp = self.cur_span;
                let then = Block { label: l, start: ts, stmts: then, span: sp };
                let els = Some(Block { label: el, start: es, stmts: els, span: sp });
                self.out.push(Stmt { label: l, kind: StmtKind::If { cond: ce, then, els }, span: sp });
                Ok((Expr::Var(tmp), result_ty))
            }
            "assignment_expression" => self.assign(n),
            "update_expression" => self.update(n, true),
            "comma_expression" => {
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("comma", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("comma", n))?;
                self.effect(l)?;
                self.expr(r)
            }
            "cast_expression" => {
                let ty_node = n.child_by_field_name("type").ok_or_else(|| unsupported("cast", n))?;
                let v = n.child_by_field_name("value").ok_or_else(|| unsupported("cast", n))?;
                let to = self.type_descriptor(ty_node)?;
                let (e, t) = self.expr(v)?;
                Ok((convert(e, t, to), to))
            }
            "sizeof_expression" => {
                let size = n
                    .child_by_field_name("type")
                    .and_then(|t| sizeof_type(text(t, src)))
                    .ok_or_else(|| unsupported("`sizeof` of anything but a primitive type", n))?;
                Ok((Expr::Const(size as u32), Ty::UInt))
            }
            "call_expression" => self.call(n, true).map(|r| r.unwrap_or((Expr::Const(0), Ty::Int))),
            "pointer_expression" => Err(unsupported(
                format!("pointer operation `{}` (address-of and dereference are only supported as `atomicOp(&a[i], v)`)", text(n, src)),
                n,
            )),
            "string_literal" | "concatenated_string" => Err(unsupported("string literals", n)),
            "null" | "nullptr" => Err(unsupported("null pointers", n)),
            "gnu_asm_expression" => Err(unsupported("inline `asm`", n)),
            "ERROR" => Err(Diagnostic::error("syntax error: the CUDA parser cannot read this", span(n))),
            _ if self.group_name(n).is_some() => Err(groups::named(text(n, src), n)),
            k => Err(unsupported(format!("expression `{}` ({k})", text(n, src)), n)),
        }
    }

    fn type_descriptor(&self, n: Node) -> R<Ty> {
        if n.child_by_field_name("declarator").is_some() {
            return Err(unsupported(format!("cast to `{}` (pointer casts)", text(n, self.src)), n));
        }
        let t = n.child_by_field_name("type").ok_or_else(|| unsupported("type", n))?;
        self.ty(t)
    }

    /// The C type of an expression, without lowering it (used to type `?:` results).
    fn static_type(&self, n: Node) -> Ty {
        let src = self.src;
        match n.kind() {
            "parenthesized_expression" => n.named_child(0).map(|i| self.static_type(i)).unwrap_or(Ty::Int),
            "number_literal" => match parse_number(text(n, src)) {
                Some(Lit::Int(_, t)) => t,
                Some(Lit::Float(_)) => Ty::Float,
                None => Ty::Int,
            },
            "identifier" => match self.lookup(text(n, src)) {
                Some(Binding::Var { ty, .. }) | Some(Binding::Const { ty, .. }) => *ty,
                Some(Binding::Agg { .. }) => Ty::Int,
                Some(Binding::Array { elem, .. }) | Some(Binding::Ptr { elem, .. }) => *elem,
                Some(Binding::Ref { elem, agg: None, .. }) => *elem,
                Some(Binding::Ref { .. }) | Some(Binding::Block) => Ty::Int,
                None => self
                    .file
                    .arrays
                    .iter()
                    .find(|a| a.name == text(n, src))
                    .map(|a| a.elem)
                    .unwrap_or(Ty::Int),
            },
            "field_expression" => {
                // A field of a vector/struct local or array element has its field's type; the
                // launch builtins are unsigned.
                let f = n.child_by_field_name("field").map(|f| text(f, src)).unwrap_or("");
                let agg = n.child_by_field_name("argument").and_then(|b| self.agg_of(b));
                agg.and_then(|a| a.field(f)).map(|(_, t)| t).unwrap_or(Ty::UInt)
            }
            "subscript_expression" => {
                let mut b = n;
                while b.kind() == "subscript_expression" {
                    match b.child_by_field_name("argument") {
                        Some(x) => b = x,
                        None => break,
                    }
                }
                self.static_type(b)
            }
            "cast_expression" => {
                n.child_by_field_name("type").and_then(|t| self.type_descriptor(t).ok()).unwrap_or(Ty::Int)
            }
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                if op == "!" {
                    Ty::Int
                } else {
                    n.child_by_field_name("argument").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
                }
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                let r = n.child_by_field_name("right").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                match op {
                    "&&" | "||" | "<" | "<=" | ">" | ">=" | "==" | "!=" => Ty::Int,
                    "<<" | ">>" => l,
                    _ => common(l, r),
                }
            }
            "conditional_expression" => {
                let a = n.child_by_field_name("consequence").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                let b = n.child_by_field_name("alternative").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                common(a, b)
            }
            "assignment_expression" | "update_expression" => n
                .child_by_field_name(if n.kind() == "update_expression" { "argument" } else { "left" })
                .map(|a| self.static_type(a))
                .unwrap_or(Ty::Int),
            "comma_expression" => {
                n.child_by_field_name("right").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
            }
            "sizeof_expression" => Ty::UInt,
            "call_expression" => {
                let f = n.child_by_field_name("function").map(|f| text(f, src)).unwrap_or("");
                if FLOAT_MATH.contains(&f) {
                    return Ty::Float;
                }
                let args: Vec<Ty> = n
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        let v: Vec<Ty> = a.named_children(&mut c).map(|x| self.static_type(x)).collect();
                        v
                    })
                    .unwrap_or_default();
                match f {
                    "umin" | "umax" | "__umul24" | "__brev" => Ty::UInt,
                    "min" | "max" => args.iter().copied().fold(Ty::Int, common),
                    _ if atomic_op(f).is_some() || f == "atomicCAS" => {
                        args.first().copied().unwrap_or(Ty::Int)
                    }
                    _ => Ty::Int,
                }
            }
            "pointer_expression" => {
                n.child_by_field_name("argument").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
            }
            _ => Ty::Int,
        }
    }

    fn logical(&mut self, op: &str, l: Node, r: Node) -> R<(Expr, Ty)> {
        let (a, ta) = self.expr(l)?;
        let a = bool01(truth(a, ta));
        if !self.effectful(r) {
            let (b, tb) = self.expr(r)?;
            let bop = if op == "&&" { BinOp::And } else { BinOp::Or };
            return Ok((Expr::bin(bop, a, truth(b, tb)), Ty::Int));
        }
        // Short circuit: the right operand's reads and effects happen only when it is evaluated.
        let t = self.temp(Some(a));
        let guard = if op == "&&" { Expr::var(&t) } else { Expr::Unary(UnOp::Not, Box::new(Expr::var(&t))) };
        let l = self.label();
        let ts = self.label();
        let (stmts, _) = self.nested(|s| {
            let (b, tb) = s.expr(r)?;
            s.emit(StmtKind::Assign { name: t.clone(), value: bool01(truth(b, tb)) });
            Ok(())
        })?;
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts, span: sp };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond: guard, then, els: None }, span: sp });
        Ok((Expr::Var(t), Ty::Int))
    }

    fn ident(&mut self, n: Node) -> R<(Expr, Ty)> {
        let name = text(n, self.src);
        match self.lookup(name).cloned() {
            Some(Binding::Var { kpl, ty }) => Ok((Expr::Var(kpl), ty)),
            Some(Binding::Const { value, ty }) => Ok((Expr::Const(value), ty)),
            Some(Binding::Agg { agg, .. }) => Err(unsupported(
                format!("the {} `{name}` as a value (only its fields `{name}.f` and whole copies)", agg.name),
                n,
            )),
            Some(Binding::Ptr { .. }) => Err(unsupported(
                format!("using the pointer `{name}` as a value (only `{name}[i]`, `*{name}` and pointer arithmetic)"),
                n,
            )),
            Some(Binding::Array { kpl, elem, scalar: true, .. }) => {
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array: kpl, index: vec![Expr::Const(0)] });
                Ok((Expr::Var(t), elem))
            }
            Some(Binding::Ref { array, elem, index, agg: None }) => {
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok((Expr::Var(t), elem))
            }
            Some(Binding::Ref { agg: Some(agg), .. }) => Err(unsupported(
                format!("the {} `{name}` as a value (only its fields `{name}.f` and whole copies)", agg.name),
                n,
            )),
            Some(Binding::Block) => Err(groups::block_as_value(name, n)),
            Some(Binding::Array { .. }) => Err(unsupported(
                format!(
                    "using the array `{name}` as a value (pointer arithmetic and aliases are not modelled)"
                ),
                n,
            )
            .with_note("index the array directly: `a[i]`")),
            None => {
                if self.file_array(name) {
                    return self.ident(n);
                }
                if name == "warpSize" {
                    return Ok((Expr::Const(32), Ty::Int));
                }
                match self.file.macros.get(name) {
                    Some(MacroVal::Const(v)) => {
                        let ty = if *v > i32::MAX as i64 { Ty::UInt } else { Ty::Int };
                        if *v < i32::MIN as i64 || *v > u32::MAX as i64 {
                            return Err(unsupported(
                                format!("macro `{name}`: its value does not fit in 32 bits"),
                                n,
                            ));
                        }
                        Ok((Expr::Const(*v as u32), ty))
                    }
                    Some(MacroVal::Other(why)) => Err(unsupported(
                        format!(
                            "macro `{name}` ({why}; only integer-constant object-like macros are expanded)"
                        ),
                        n,
                    )),
                    None => Err(Diagnostic::error(format!("unknown identifier `{name}`"), span(n))
                        .with_label("not a parameter, local, array or integer-constant macro")),
                }
            }
        }
    }

    /// Makes `name` resolve to the file-scope array of that name, unless something in scope
    /// already has the name (a local or parameter shadows it).
    fn bring_file_array(&mut self, name: &str) {
        if self.lookup(name).is_none() {
            self.file_array(name);
        }
    }

    /// Brings a file-scope array into the kernel if one has this name.
    fn file_array(&mut self, name: &str) -> bool {
        if let Some(b) = self.file_bound.get(name).cloned() {
            self.scopes[0].insert(name.to_string(), b);
            return true;
        }
        let Some(a) = self.file.arrays.iter().find(|a| a.name == name).cloned() else { return false };
        self.add_array(&a.name, a.space, a.elem, a.dims, a.scalar, a.span);
        if let Some(b) = self.scopes[0].get(name).cloned() {
            self.file_bound.insert(name.to_string(), b);
        }
        true
    }

    /// A field of a vector/struct local (`v.x`: its KPL local) or array element (`a[i].x`: one
    /// word of memory). `None`: not such a field access.
    fn field_target(&mut self, n: Node) -> R<Option<Target2>> {
        let n = strip_parens(n);
        if n.kind() != "field_expression" {
            return Ok(None);
        }
        let arg =
            strip_parens(n.child_by_field_name("argument").ok_or_else(|| unsupported("member access", n))?);
        let f = n.child_by_field_name("field").map(|f| text(f, self.src)).unwrap_or("");
        let field_of = |agg: &Agg| {
            agg.field(f).ok_or_else(|| Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n)))
        };
        if n.child(1).is_some_and(|op| op.kind() == "->") {
            // `p->f` is `(*p).f`: a field word of the element `p` points at.
            let (array, index, agg) = self.agg_deref(arg)?;
            let (i, ty) = field_of(&agg)?;
            return Ok(Some(Target2::Mem(array, field_index(&index, i), ty)));
        }
        if is_deref(arg) {
            let ptr = arg.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", arg))?;
            let (array, index, agg) = self.agg_deref(ptr)?;
            let (i, ty) = field_of(&agg)?;
            return Ok(Some(Target2::Mem(array, field_index(&index, i), ty)));
        }
        match arg.kind() {
            "identifier" => match self.lookup(text(arg, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| {
                        Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n))
                    })?;
                    Ok(Some(Target2::Var(comps[i].clone(), ty)))
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| {
                        Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n))
                    })?;
                    Ok(Some(Target2::Mem(array, field_index(&index, i), ty)))
                }
                _ => Ok(None),
            },
            "subscript_expression" => {
                let (array, index, agg) = self.agg_element(arg)?;
                let (i, ty) = agg
                    .field(f)
                    .ok_or_else(|| Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n)))?;
                Ok(Some(Target2::Mem(array, field_index(&index, i), ty)))
            }
            _ => Ok(None),
        }
    }

    /// Whole-aggregate assignment `v = …` / `a[i] = …`; `None` when `l` is not an aggregate.
    fn agg_assign(&mut self, l: Node, r: Node) -> R<Option<(Expr, Ty)>> {
        let l = strip_parens(l);
        match l.kind() {
            "identifier" => match self.lookup(text(l, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) => {
                    let vals = self.agg_value(r, &agg)?;
                    for (c, v) in comps.into_iter().zip(vals) {
                        self.emit(StmtKind::Assign { name: c, value: v });
                    }
                    Ok(Some((Expr::Const(0), Ty::Int)))
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) => {
                    let vals = self.agg_value(r, &agg)?;
                    self.write_fields(&array, &index, vals);
                    Ok(Some((Expr::Const(0), Ty::Int)))
                }
                _ => Ok(None),
            },
            "subscript_expression" => {
                let Some((_, agg)) = self.agg_base(l) else { return Ok(None) };
                let vals = self.agg_value(r, &agg)?;
                let (array, index, _) = self.agg_element(l)?;
                self.write_fields(&array, &index, vals);
                Ok(Some((Expr::Const(0), Ty::Int)))
            }
            "pointer_expression" if is_deref(l) => {
                let ptr = l.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", l))?;
                if let Some(name) = pointer_root(ptr).map(|b| text(b, self.src)) {
                    self.bring_file_array(name);
                }
                let Some(agg) = self.agg_of(ptr) else { return Ok(None) };
                let vals = self.agg_value(r, &agg)?;
                let (array, index, _) = self.agg_deref(ptr)?;
                self.write_fields(&array, &index, vals);
                Ok(Some((Expr::Const(0), Ty::Int)))
            }
            _ => Ok(None),
        }
    }

    fn field(&mut self, n: Node) -> R<(Expr, Ty)> {
        if let Some(r) = self.group_field(n) {
            return r;
        }
        if let Some(t) = self.field_target(n)? {
            return Ok(match t {
                Target2::Var(v, ty) => (Expr::Var(v), ty),
                Target2::Mem(array, index, ty) => {
                    let t = self.temp(None);
                    self.emit(StmtKind::Read { dst: t.clone(), array, index });
                    (Expr::Var(t), ty)
                }
            });
        }
        let arg = n.child_by_field_name("argument").ok_or_else(|| unsupported("member access", n))?;
        let f = n.child_by_field_name("field").map(|f| text(f, self.src)).unwrap_or("");
        let dim = match f {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        };
        let b = match (text(arg, self.src), dim) {
            ("threadIdx", Some(d)) => Builtin::Tid(d),
            ("blockIdx", Some(d)) => Builtin::Bid(d),
            ("blockDim", Some(d)) => Builtin::BlockDim(d),
            ("gridDim", Some(d)) => Builtin::GridDim(d),
            _ => {
                return Err(unsupported(
                    format!(
                        "member access `{}` (only `threadIdx`/`blockIdx`/`blockDim`/`gridDim` and fields of vector and plain struct locals and arrays)",
                        text(n, self.src)
                    ),
                    n,
                ))
            }
        };
        if arg.kind() != "identifier" || self.lookup(text(arg, self.src)).is_some() {
            return Err(unsupported(format!("member access `{}`", text(n, self.src)), n));
        }
        Ok((Expr::Builtin(b), Ty::UInt))
    }

    /// Resolves `a[i][j]`, `p[i]`, `*p`, `*(p + k)` (or a shared scalar `s`) to (array, index,
    /// element type), lowering the index expressions left to right.
    fn access(&mut self, n: Node) -> R<(String, Vec<Expr>, Ty)> {
        let n = strip_parens(n);
        if n.kind() == "pointer_expression"
            && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "*")
        {
            let arg = n.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", n))?;
            let (array, elem, index) = self.pointer(arg)?;
            return Ok((array, index, elem));
        }
        let (array, elem, index) = self.element(n, false)?;
        Ok((array, index, elem))
    }

    /// `a[i][j]` with all indices (`partial`: or fewer, the rest 0 — a row pointer `tile[ty]`).
    fn element(&mut self, n: Node, partial: bool) -> R<(String, Ty, Vec<Expr>)> {
        let mut idx_nodes = Vec::new();
        let mut base = n;
        while base.kind() == "subscript_expression" {
            let list = base.child_by_field_name("indices").ok_or_else(|| unsupported("subscript", base))?;
            let mut c = list.walk();
            let items: Vec<Node> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            let [i] = items[..] else {
                return Err(unsupported("a subscript with other than one index", list));
            };
            idx_nodes.push(i);
            base = strip_parens(
                base.child_by_field_name("argument").ok_or_else(|| unsupported("subscript", base))?,
            );
        }
        idx_nodes.reverse();
        if base.kind() != "identifier" {
            if idx_nodes.len() == 1 && self.is_pointer(base) {
                // `(p + k)[i]`
                let (array, elem, comps) = self.pointer(base)?;
                let (e, t) = self.expr(idx_nodes[0])?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("array index of floating type", span(idx_nodes[0])));
                }
                return Ok((array, elem, offset(comps, e)));
            }
            return Err(unsupported(
                format!(
                    "indexing `{}` (only named arrays and pointers can be indexed)",
                    text(base, self.src)
                ),
                base,
            ));
        }
        let name = text(base, self.src);
        self.bring_file_array(name);
        let (kpl, elem, ndims, scalar) = match self.lookup(name).cloned() {
            Some(Binding::Array { kpl, elem, ndims, scalar }) => (kpl, elem, ndims, scalar),
            Some(Binding::Ptr { array, .. }) if self.agg_arrays.contains_key(&array) => {
                let agg = &self.agg_arrays[&array];
                return Err(unsupported(
                    format!(
                        "the {} element `{}` used as a scalar (use a field, or copy it whole)",
                        agg.name,
                        text(n, self.src)
                    ),
                    n,
                ));
            }
            Some(Binding::Ptr { array, elem, comps }) => {
                let [i] = idx_nodes[..] else {
                    return Err(unsupported(
                        format!("indexing the pointer `{name}` with {} indices", idx_nodes.len()),
                        n,
                    ));
                };
                let (e, t) = self.expr(i)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("array index of floating type", span(i)));
                }
                return Ok((array, elem, offset(comps, e)));
            }
            Some(Binding::Ref { array, elem, index, agg: None }) if idx_nodes.is_empty() => {
                return Ok((array, elem, index))
            }
            Some(Binding::Var { .. })
            | Some(Binding::Const { .. })
            | Some(Binding::Agg { .. })
            | Some(Binding::Ref { .. }) => {
                return Err(unsupported(format!("indexing the scalar `{name}`"), base))
            }
            Some(Binding::Block) => return Err(groups::block_as_value(name, base)),
            None => {
                return Err(Diagnostic::error(format!("unknown array `{name}`"), span(base))
                    .with_label("not a pointer parameter or array"))
            }
        };
        if scalar {
            if !idx_nodes.is_empty() {
                return Err(unsupported(format!("indexing the scalar `{name}`"), n));
            }
            return Ok((kpl, elem, vec![Expr::Const(0)]));
        }
        if let Some(agg) = self.agg_arrays.get(&kpl) {
            return Err(unsupported(
                format!(
                    "the {} element `{}` used as a scalar (use a field, or copy it whole)",
                    agg.name,
                    text(n, self.src)
                ),
                n,
            ));
        }
        if idx_nodes.len() > ndims || (idx_nodes.len() < ndims && !partial) {
            return Err(unsupported(
                format!(
                    "`{name}` has {ndims} dimension(s) but is indexed with {} (a row pointer is supported only as a pointer value: `float *row = {name}[i];`)",
                    idx_nodes.len()
                ),
                n,
            ));
        }
        let mut index = Vec::new();
        for i in idx_nodes {
            let (e, t) = self.expr(i)?;
            if t == Ty::Float {
                return Err(Diagnostic::error("array index of floating type", span(i)));
            }
            index.push(e);
        }
        index.resize(ndims, Expr::Const(0));
        Ok((kpl, elem, index))
    }

    /// Whether an expression denotes a pointer (an array, a pointer local, `&x`, pointer
    /// arithmetic, a pointer cast, `SharedMemory<T>()`).
    fn is_pointer(&self, n: Node) -> bool {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => {
                let name = text(n, self.src);
                match self.lookup(name) {
                    Some(Binding::Array { scalar, .. }) => !scalar,
                    Some(Binding::Ptr { .. }) => true,
                    Some(_) => false,
                    None => self.file.arrays.iter().any(|a| a.name == name && !a.scalar),
                }
            }
            "pointer_expression" => n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&"),
            "cast_expression" => n.child_by_field_name("type").is_some_and(|t| {
                t.child_by_field_name("declarator").is_some_and(|d| d.kind().contains("pointer"))
            }),
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                matches!(op, "+" | "-") && n.child_by_field_name("left").is_some_and(|l| self.is_pointer(l))
                    || op == "+" && n.child_by_field_name("right").is_some_and(|r| self.is_pointer(r))
            }
            "subscript_expression" => {
                // A row of a multi-dimensional array.
                let mut k = 0;
                let mut b = n;
                while b.kind() == "subscript_expression" {
                    k += 1;
                    match b.child_by_field_name("argument") {
                        Some(x) => b = strip_parens(x),
                        None => return false,
                    }
                }
                b.kind() == "identifier"
                    && matches!(self.lookup(text(b, self.src)), Some(Binding::Array { ndims, .. }) if *ndims > k)
            }
            "call_expression" => self.shared_memory_call(n).is_some(),
            _ => false,
        }
    }

    /// `SharedMemory<T>()`: the struct's extern shared array name and the type node of `T`.
    fn shared_memory_call<'n>(&self, n: Node<'n>) -> Option<(String, Option<Node<'n>>)> {
        let f = n.child_by_field_name("function")?;
        if f.kind() != "template_function" {
            return None;
        }
        let name = text(f.child_by_field_name("name")?, self.src);
        let array = self.prog.shared_memory(name)?.to_string();
        let targ = f.child_by_field_name("arguments").and_then(|a| a.named_child(0));
        Some((array, targ))
    }

    /// The (array, element type, index) a pointer expression points at; pointers into arrays
    /// of vectors/structs are refused (their index counts elements, not words: see
    /// [`Self::pointer_any`]).
    fn pointer(&mut self, n: Node) -> R<(String, Ty, Vec<Expr>)> {
        let r = self.pointer_any(n)?;
        if let Some(agg) = self.agg_arrays.get(&r.0) {
            return Err(unsupported(
                format!(
                    "`{}` as a pointer to a scalar: it points into an array of {}",
                    text(n, self.src),
                    agg.name
                ),
                n,
            ));
        }
        Ok(r)
    }

    /// A pointer into an array of vectors/structs: (array, index in elements, the type).
    fn agg_pointer(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let (array, _, comps) = self.pointer_any(n)?;
        match self.agg_arrays.get(&array) {
            Some(agg) => Ok((array, comps, agg.clone())),
            None => Err(unsupported(
                format!(
                    "`{}` as a pointer to vectors or structs: it points into a scalar array",
                    text(n, self.src)
                ),
                n,
            )),
        }
    }

    /// [`Self::pointer`], also into arrays of vectors/structs, whose pointers count elements:
    /// the last component is an element number (words = element × fields, see `agg_element`).
    fn pointer_any(&mut self, n: Node) -> R<(String, Ty, Vec<Expr>)> {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => {
                let name = text(n, self.src);
                self.bring_file_array(name);
                match self.lookup(name).cloned() {
                    Some(Binding::Array { kpl, elem, ndims, scalar: false }) => {
                        Ok((kpl, elem, vec![Expr::Const(0); ndims]))
                    }
                    Some(Binding::Ptr { array, elem, comps }) => Ok((array, elem, comps)),
                    _ => Err(unsupported(
                        format!("`{name}` as a pointer (only arrays and pointers into them)"),
                        n,
                    )),
                }
            }
            // A pointer cast keeps the element index: element sizes are assumed equal (every
            // element is one 32-bit word; documented approximation).
            "cast_expression" if self.is_pointer(n) => {
                let v = n.child_by_field_name("value").ok_or_else(|| unsupported("cast", n))?;
                let to = n.child_by_field_name("type").and_then(|t| t.child_by_field_name("type"));
                if let Some(agg) = to.and_then(|t| self.agg_type(t)) {
                    // Elements of another size: the index would change units.
                    return Err(unsupported(format!("a cast to a pointer to {}", agg.name), n));
                }
                // `pointer` refuses pointers into vector/struct arrays for the same reason.
                let (array, _, index) = self.pointer(v)?;
                let elem = to.and_then(|t| self.ty(t).ok()).unwrap_or(Ty::Int);
                Ok((array, elem, index))
            }
            "pointer_expression" if self.is_pointer(n) => {
                let arg =
                    strip_parens(n.child_by_field_name("argument").ok_or_else(|| unsupported("`&`", n))?);
                match arg.kind() {
                    "subscript_expression" if self.agg_base(arg).is_some() => {
                        let (array, index, agg) = self.agg_index(arg)?;
                        Ok((array, agg.fields[0].1, index))
                    }
                    "subscript_expression" => self.element(arg, false),
                    "identifier" => {
                        let name = text(arg, self.src);
                        self.bring_file_array(name);
                        match self.lookup(name).cloned() {
                            Some(Binding::Array { kpl, elem, ndims, .. }) => {
                                Ok((kpl, elem, vec![Expr::Const(0); ndims]))
                            }
                            // A reference to a scalar element (not to a field: its index
                            // counts words of a vector/struct array).
                            Some(Binding::Ref { array, elem, index, agg: None })
                                if !self.agg_arrays.contains_key(&array) =>
                            {
                                Ok((array, elem, index))
                            }
                            _ => Err(unsupported(
                                format!("the address of `{name}` (only of arrays and their elements)"),
                                n,
                            )),
                        }
                    }
                    _ => Err(unsupported(format!("the address `{}`", text(n, self.src)), n)),
                }
            }
            "subscript_expression" if self.is_pointer(n) => self.element(n, true),
            "binary_expression" if self.is_pointer(n) => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("pointer arithmetic", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("pointer arithmetic", n))?;
                let (p, k) = if self.is_pointer(l) { (l, r) } else { (r, l) };
                if self.is_pointer(k) {
                    return Err(unsupported("the difference of two pointers", n));
                }
                let (array, elem, comps) = self.pointer_any(p)?;
                let (e, t) = self.expr(k)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("pointer offset of floating type", span(k)));
                }
                let e = if op == "-" { Expr::Unary(UnOp::Neg, Box::new(e)) } else { e };
                Ok((array, elem, offset(comps, e)))
            }
            "call_expression" => match self.shared_memory_call(n) {
                Some((array, targ)) => {
                    let elem = match targ {
                        Some(t) if t.kind() == "type_descriptor" => {
                            let tn = t.child_by_field_name("type").ok_or_else(|| unsupported("type", t))?;
                            self.ty(tn)?
                        }
                        _ => Ty::Int,
                    };
                    let kpl = self.extern_shared_array(&array, elem, span(n));
                    Ok((kpl, elem, vec![Expr::Const(0)]))
                }
                None => Err(unsupported(format!("the pointer value `{}`", text(n, self.src)), n)),
            },
            _ => Err(unsupported(
                format!(
                    "the pointer value `{}` (pointers are modelled only into named arrays)",
                    text(n, self.src)
                ),
                n,
            )),
        }
    }

    /// The KPL array of the kernel's dynamic shared memory: every `extern __shared__` array of
    /// a kernel is the same memory, so all of them lower to one KPL array.
    fn extern_shared_array(&mut self, cname: &str, elem: Ty, sp: Span) -> String {
        if let Some((kpl, _)) = &self.extern_shared {
            return kpl.clone();
        }
        let kpl = if self.kpl_visible(cname) || crate::kpl::is_keyword(cname) {
            self.fresh_name(cname)
        } else {
            self.taken.insert(cname.to_string());
            cname.to_string()
        };
        self.arrays.push(ArrayDecl { name: kpl.clone(), space: Space::Shared, dims: vec![None], span: sp });
        self.extern_shared = Some((kpl.clone(), elem));
        kpl
    }

    /// Binds a C pointer name to the element `comps` of `array`, snapshotting every component
    /// that is not a constant (or every one, when the pointer is assigned later) in fresh locals.
    fn bind_pointer(&mut self, cname: &str, array: String, elem: Ty, comps: Vec<Expr>, mutable: bool) {
        let n = comps.len();
        let mut out = Vec::new();
        for (i, c) in comps.into_iter().enumerate() {
            if matches!(c, Expr::Const(_)) && !mutable {
                out.push(c);
                continue;
            }
            let base = if n == 1 { format!("{cname}_off") } else { format!("{cname}_i{i}") };
            let name = if self.taken.contains(&base) || crate::kpl::is_keyword(&base) {
                self.fresh_name(&base)
            } else {
                base
            };
            self.declare_kpl(&name);
            self.emit(StmtKind::Local { name: name.clone(), init: Some(c) });
            out.push(Expr::Var(name));
        }
        self.bind(cname, Binding::Ptr { array, elem, comps: out });
    }

    /// An lvalue: a local variable or an array element.
    fn lvalue_is_var(&self, l: Node) -> Option<(String, Ty)> {
        let l = strip_parens(l);
        if l.kind() != "identifier" {
            return None;
        }
        match self.lookup(text(l, self.src)) {
            Some(Binding::Var { kpl, ty }) => Some((kpl.clone(), *ty)),
            _ => None,
        }
    }

    fn check_lvalue(&self, l: Node) -> R<()> {
        let l = strip_parens(l);
        match l.kind() {
            "pointer_expression" if l.child_by_field_name("operator").is_some_and(|o| o.kind() == "*") => {
                Ok(())
            }
            "identifier" | "subscript_expression" => {
                if l.kind() == "identifier" {
                    if let Some(Binding::Array { scalar: false, .. }) = self.lookup(text(l, self.src)) {
                        return Err(unsupported(
                            format!(
                                "assigning the array `{}` (pointer arithmetic is not modelled)",
                                text(l, self.src)
                            ),
                            l,
                        ));
                    }
                }
                Ok(())
            }
            _ => Err(unsupported(format!("assignment to `{}`", text(l, self.src)), l)),
        }
    }

    fn assign(&mut self, n: Node) -> R<(Expr, Ty)> {
        let l = n.child_by_field_name("left").ok_or_else(|| unsupported("assignment", n))?;
        let r = n.child_by_field_name("right").ok_or_else(|| unsupported("assignment", n))?;
        let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("=");
        if let Some(r) = self.pointer_assign(l, Some((op, r)))? {
            return Ok(r);
        }
        if op == "=" {
            if let Some(x) = self.agg_assign(l, r)? {
                return Ok(x);
            }
        }
        let bin = op.strip_suffix('=').unwrap_or("");
        if strip_parens(l).kind() == "field_expression" {
            let (rv, rt) = self.expr(r)?;
            return match self.field_target(l)? {
                Some(Target2::Var(var, ty)) => {
                    let value = if bin.is_empty() {
                        convert(rv, rt, ty)
                    } else {
                        let (e, t) =
                            binary(bin, (Expr::var(&var), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                        convert(e, t, ty)
                    };
                    self.emit(StmtKind::Assign { name: var.clone(), value });
                    Ok((Expr::Var(var), ty))
                }
                Some(Target2::Mem(array, index, ty)) => {
                    let value = if bin.is_empty() {
                        convert(rv, rt, ty)
                    } else {
                        let old = self.temp(None);
                        self.emit(StmtKind::Read {
                            dst: old.clone(),
                            array: array.clone(),
                            index: index.clone(),
                        });
                        let (e, t) =
                            binary(bin, (Expr::var(&old), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                        convert(e, t, ty)
                    };
                    self.emit(StmtKind::Write { array, index, value: value.clone() });
                    Ok((value, ty))
                }
                None => Err(unsupported(format!("assignment to `{}`", text(l, self.src)), l)),
            };
        }
        self.check_lvalue(l)?;
        let (rv, rt) = self.expr(r)?;
        if let Some((var, ty)) = self.lvalue_is_var(l) {
            let value = if bin.is_empty() {
                convert(rv, rt, ty)
            } else {
                let (e, t) = binary(bin, (Expr::var(&var), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                convert(e, t, ty)
            };
            self.emit(StmtKind::Assign { name: var.clone(), value });
            return Ok((Expr::Var(var), ty));
        }
        let (array, index, elem) = self.access(l)?;
        let value = if bin.is_empty() {
            convert(rv, rt, elem)
        } else {
            let old = self.temp(None);
            self.emit(StmtKind::Read { dst: old.clone(), array: array.clone(), index: index.clone() });
            let (e, t) = binary(bin, (Expr::var(&old), elem), (rv, rt)).map_err(|m| unsupported(m, n))?;
            convert(e, t, elem)
        };
        self.emit(StmtKind::Write { array, index, value: value.clone() });
        Ok((value, elem))
    }

    fn update(&mut self, n: Node, used: bool) -> R<(Expr, Ty)> {
        let a = n.child_by_field_name("argument").ok_or_else(|| unsupported("`++`/`--`", n))?;
        let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("++");
        let prefix = n.child(0).is_some_and(|c| c.kind() == "++" || c.kind() == "--");
        let bin = if op == "++" { "+" } else { "-" };
        if let Some(r) = self.pointer_assign(a, None)? {
            return Ok(r);
        }
        self.check_lvalue(a)?;
        if let Some((var, ty)) = self.lvalue_is_var(a) {
            let old = if used && !prefix { Some(self.temp(Some(Expr::var(&var)))) } else { None };
            let (e, t) = binary(bin, (Expr::var(&var), ty), (Expr::Const(1), Ty::Int))
                .map_err(|m| unsupported(m, n))?;
            self.emit(StmtKind::Assign { name: var.clone(), value: convert(e, t, ty) });
            return Ok((old.map(Expr::Var).unwrap_or(Expr::Var(var)), ty));
        }
        let (array, index, elem) = self.access(a)?;
        let old = self.temp(None);
        self.emit(StmtKind::Read { dst: old.clone(), array: array.clone(), index: index.clone() });
        let (e, t) =
            binary(bin, (Expr::var(&old), elem), (Expr::Const(1), Ty::Int)).map_err(|m| unsupported(m, n))?;
        let new = convert(e, t, elem);
        self.emit(StmtKind::Write { array, index, value: new.clone() });
        Ok((if prefix { new } else { Expr::Var(old) }, elem))
    }

    /// Inlines a call of the device function `fname`: value parameters become fresh locals,
    /// pointer parameters aliases of the argument's array and element, the result a fresh
    /// local, early returns the predicated form. Every inlined statement keeps the place it has
    /// in the function's body, so a barrier there is one edit valid for every call site.
    fn inline_call(
        &mut self,
        n: Node,
        fname: &str,
        targs: Option<Node>,
        args: &[Node],
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        // Taken first: the arguments may inline calls of their own.
        let want_agg = self.want_agg.take();
        self.agg_result = None;
        if self.record.is_some() || self.replay.is_some() {
            // A loop condition is evaluated twice (before the loop, at the end of the body)
            // into the same temporaries; an inlined body would need its own locals twice.
            return Err(unsupported(
                format!("a call to the device function `{fname}` in a loop condition"),
                n,
            )
            .with_note("compute the value into a local before the loop and at the end of its body"));
        }
        let prog = self.prog;
        let cands = prog.function(fname, args.len(), src);
        let def = match cands[..] {
            [d] => d.clone(),
            [] => {
                return Err(unsupported(
                    format!(
                        "call to `{fname}` with {} argument(s): no definition with that many parameters",
                        args.len()
                    ),
                    n,
                ))
            }
            _ => return Err(unsupported(format!("call to the overloaded function `{fname}`"), n)),
        };
        if self.frame.stack.iter().any(|x| x == fname) || self.inline_depth >= 32 {
            let mut cycle = self.frame.stack.clone();
            cycle.push(fname.to_string());
            return Err(unsupported(
                format!("recursion ({}): device functions are inlined", cycle.join(" -> ")),
                n,
            )
            .with_label("recursive call"));
        }
        let fnode = def.node;
        let body = fnode
            .child_by_field_name("body")
            .ok_or_else(|| unsupported(format!("`{fname}` without a body"), n))?;
        // Template arguments: explicit ones, then deduced from the argument types.
        let caller_env = |name: &str| -> Option<Arg> {
            match self.lookup(name) {
                Some(Binding::Const { value, .. }) => Some(Arg::Value(*value)),
                _ => self.frame.types.get(name).map(|t| Arg::Type(*t)),
            }
        };
        let mut inst = Instance::default();
        let given = match targs {
            Some(list) => {
                let mut c = list.walk();
                let v: Vec<Node> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            None => Vec::new(),
        };
        let params = fn_params(fnode);
        for (i, tp) in def.tparams.iter().enumerate() {
            let arg = match given.get(i).or(tp.default.as_ref()) {
                Some(a) => template_arg(*a, src, self.file, Some(&caller_env))?,
                None => {
                    // Deduce `T` from a parameter declared `T x` or `T *p`.
                    let pos = params
                        .iter()
                        .position(|p| p.child_by_field_name("type").is_some_and(|t| text(t, src) == tp.name));
                    match (pos.and_then(|i| args.get(i)), tp.type_node) {
                        (Some(a), None) => Arg::Type(self.static_type(*a)),
                        _ => {
                            return Err(Diagnostic::error(
                                format!("cannot deduce the template parameter `{}` of `{fname}`", tp.name),
                                span(n),
                            )
                            .with_note("give the template arguments explicitly: `f<…>(…)`"))
                        }
                    }
                }
            };
            inst.bind(tp, arg, n, src)?;
        }
        // Arguments, evaluated in the caller's scope, left to right.
        let saved_types = std::mem::replace(&mut self.frame.types, inst.types.clone());
        let mut bound = Vec::new();
        for (p, a) in params.iter().zip(args) {
            match self.group_param(*p, *a) {
                Some(Ok(b)) => {
                    bound.push(b);
                    continue;
                }
                Some(Err(e)) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
                None => {}
            }
            let ty_node =
                p.child_by_field_name("type").ok_or_else(|| unsupported("parameter without a type", *p))?;
            let decl =
                p.child_by_field_name("declarator").ok_or_else(|| unsupported("unnamed parameter", *p))?;
            let agg = self.agg_type(ty_node);
            let ty = match &agg {
                Some(a) => Ok(a.fields[0].1),
                None => self.ty(ty_node),
            };
            let is_ptr = matches!(decl.kind(), "pointer_declarator" | "array_declarator");
            let is_ref = decl.kind() == "reference_declarator";
            let name_node = match decl.kind() {
                "pointer_declarator" | "array_declarator" => decl.child_by_field_name("declarator"),
                "reference_declarator" => decl.named_child(0),
                _ => Some(decl),
            };
            let name_node = name_node
                .filter(|x| x.kind() == "identifier")
                .ok_or_else(|| unsupported(format!("parameter `{}`", text(decl, src)), decl))?;
            let ty = match ty {
                Ok(t) => t,
                Err(e) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
            };
            let cname = text(name_node, src).to_string();
            let is_const = {
                let mut c = p.walk();
                let q =
                    p.children(&mut c).any(|ch| ch.kind() == "type_qualifier" && text(ch, src) == "const");
                q
            };
            let writes = assigns(body, src, &cname) || body_writes_fields(body, src, &cname);
            std::mem::swap(&mut self.frame.types, &mut inst.types);
            let r = match (&agg, is_ptr, is_ref) {
                (Some(agg), true, _) => self.agg_pointer(*a).and_then(|(array, comps, a2)| {
                    if a2.fields == agg.fields {
                        Ok(BoundParam::Ptr { cname, array, comps, ty })
                    } else {
                        Err(unsupported(
                            format!("a pointer into an array of {} passed as {} *", a2.name, agg.name),
                            *a,
                        ))
                    }
                }),
                (None, true, _) => {
                    self.pointer(*a).map(|(array, _, comps)| BoundParam::Ptr { cname, array, comps, ty })
                }
                (_, false, true) => self.ref_arg(*a, &cname, agg.clone(), ty, is_const, writes),
                (Some(agg), false, false) => self.agg_value(*a, agg).map(|values| BoundParam::AggValue {
                    cname,
                    agg: agg.clone(),
                    values,
                }),
                (None, false, false) => {
                    self.expr(*a).map(|(e, t)| BoundParam::Value { cname, value: convert(e, t, ty), ty })
                }
            };
            std::mem::swap(&mut self.frame.types, &mut inst.types);
            match r {
                Ok(b) => bound.push(b),
                Err(e) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
            }
        }
        self.frame.types = saved_types;
        self.cur_span = span(n);
        // The callee's frame.
        let ret_agg = fnode.child_by_field_name("type").and_then(|t| self.agg_type(t));
        let ret_agg = match (ret_agg, want_agg) {
            (None, None) => None,
            (Some(r), Some(w)) if r.fields == w.fields => {
                let mut comps = Vec::new();
                for (f, _) in &r.fields {
                    let name = self.fresh_name(&format!("{fname}_ret_{f}"));
                    self.declare_kpl(&name);
                    let l = self.emit(StmtKind::Local { name: name.clone(), init: None });
                    self.set_place(l, Place::Not(INSIDE.into()));
                    comps.push(name);
                }
                Some((r, comps))
            }
            (Some(r), Some(w)) => {
                return Err(unsupported(
                    format!("the {} result of `{fname}` used as a {}", r.name, w.name),
                    n,
                ))
            }
            (Some(r), None) => {
                return Err(unsupported(
                    format!("the {} result of `{fname}` used as a scalar (use a field of a copy)", r.name),
                    n,
                ))
            }
            (None, Some(w)) => {
                return Err(unsupported(format!("the result of `{fname}` used as a {}", w.name), n))
            }
        };
        let ret_ty = match fnode.child_by_field_name("type") {
            _ if ret_agg.is_some() => None,
            Some(t) if text(t, src) == "void" => None,
            Some(t) => {
                if fnode.child_by_field_name("declarator").is_some_and(|d| d.kind() != "function_declarator")
                {
                    return Err(unsupported(format!("`{fname}` returns a pointer or reference"), fnode));
                }
                let saved = std::mem::replace(&mut self.frame.types, inst.types.clone());
                let r = self.ty(t);
                self.frame.types = saved;
                Some(r?)
            }
            None => None,
        };
        let rv = ret_ty.map(|t| {
            let name = self.fresh_name(&format!("{fname}_ret"));
            self.declare_kpl(&name);
            let l = self.emit(StmtKind::Local { name: name.clone(), init: None });
            self.set_place(l, Place::Not(INSIDE.into()));
            (name, t)
        });
        let mut scope0 = HashMap::new();
        for (name, v, t) in &inst.values {
            scope0.insert(name.clone(), Binding::Const { value: *v, ty: *t });
        }
        let caller_scopes = std::mem::replace(&mut self.scopes, vec![scope0, HashMap::new()]);
        self.hidden.push(caller_scopes);
        let mut stack = self.frame.stack.clone();
        stack.push(fname.to_string());
        let result_comps = ret_agg.as_ref().map(|(_, c)| c.clone());
        let frame =
            FnFrame { ret_flag: None, ret_value: rv.clone(), ret_agg, types: inst.types.clone(), stack };
        let saved_frame = std::mem::replace(&mut self.frame, frame);
        let saved_targets = std::mem::take(&mut self.targets);
        let saved_exits = std::mem::take(&mut self.exits);
        let saved_gotos = std::mem::take(&mut self.gotos);
        let mut c = body.walk();
        let children: Vec<Node> = body.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        let saved_final = self.final_return;
        let saved_body = self.fn_body;
        // SAFETY of lifetimes: the callee's nodes live as long as the tree (`'t`).
        self.final_return = children.last().copied().filter(|x| x.kind() == "return_statement");
        self.fn_body = Some(body);
        self.inline_depth += 1;
        let before = self.out.len();
        let r = self.inline_body(body, bound, &children);
        for s in &self.out[before..] {
            self.inlined.insert(s.label);
        }
        self.inline_depth -= 1;
        self.fn_body = saved_body;
        self.final_return = saved_final;
        self.exits = saved_exits;
        self.gotos = saved_gotos;
        self.targets = saved_targets;
        self.frame = saved_frame;
        if let Some(sc) = self.hidden.pop() {
            self.scopes = sc;
        }
        r?;
        self.cur_span = span(n);
        self.agg_result = result_comps;
        Ok(rv.map(|(name, t)| (Expr::Var(name), t)))
    }

    /// Binds an inlined function's parameters and lowers its body (the frame is already set).
    fn inline_body(&mut self, body: Node<'t>, bound: Vec<BoundParam>, children: &[Node<'t>]) -> R<()> {
        for b in bound {
            self.bind_bound(b, body);
        }
        if has_early_return(body, self.final_return) {
            let f = self.flag("ret");
            self.frame.ret_flag = Some(f);
        }
        self.seq(children)
    }

    /// Binds a C name as `b` says (see [`BoundParam`]); `scope` is where the name is visible
    /// (a pointer that is assigned there gets mutable components).
    fn bind_bound(&mut self, b: BoundParam, scope: Node) {
        match b {
            BoundParam::Ptr { cname, array, comps, ty } => {
                let mutable = assigns(scope, self.src, &cname);
                self.bind_pointer(&cname, array, ty, comps, mutable)
            }
            BoundParam::Value { cname, value, ty } => {
                let k = if self.kpl_visible(&cname)
                    || crate::kpl::is_keyword(&cname)
                    || self.taken.contains(&cname)
                {
                    self.fresh_name(&cname)
                } else {
                    cname.clone()
                };
                self.declare_kpl(&k);
                let l = self.emit(StmtKind::Local { name: k.clone(), init: Some(value) });
                self.set_place(l, Place::Not(INSIDE.into()));
                self.bind(&cname, Binding::Var { kpl: k, ty });
            }
            BoundParam::AggValue { cname, agg, values } => self.agg_locals(&cname, agg, Some(values)),
            BoundParam::Alias { cname, binding } => self.bind(&cname, binding),
        }
    }

    /// A reference local `T &r = init;` (`const T &r`, `float4 &v`) declared by `decl`: bound
    /// like a reference parameter ([`Self::ref_arg`]) to the lvalue `init` denotes, its index
    /// evaluated once, here; reads and writes of `r` are reads and writes of that lvalue. A
    /// `const` one bound to a non-lvalue holds a copy.
    fn ref_local(&mut self, decl: Node, rd: Node, init: Node, agg: Option<Rc<Agg>>, ty: Ty) -> R<()> {
        let Some(name) = rd.named_child(0).filter(|x| x.kind() == "identifier") else {
            return Err(self.bad_declarator(rd));
        };
        let cname = text(name, self.src).to_string();
        let is_const = {
            let mut c = decl.walk();
            let q = decl
                .children(&mut c)
                .any(|ch| ch.kind() == "type_qualifier" && text(ch, self.src) == "const");
            q
        };
        // Where `r` is visible: the enclosing block (a name assigned anywhere there counts).
        let scope = decl.parent().unwrap_or(decl);
        let writes = assigns(scope, self.src, &cname) || body_writes_fields(scope, self.src, &cname);
        self.binding_local = true;
        let b = self.ref_arg(init, &cname, agg, ty, is_const, writes);
        self.binding_local = false;
        self.bind_bound(b?, scope);
        Ok(())
    }

    /// The index of an element a reference is bound to, evaluated now: every component that is
    /// not a constant is copied into a fresh local, so later writes to the variables it reads
    /// do not move the reference.
    fn fix_index(&mut self, base: &str, index: Vec<Expr>) -> Vec<Expr> {
        let mut out = Vec::new();
        for (i, c) in index.into_iter().enumerate() {
            if matches!(c, Expr::Const(_)) {
                out.push(c);
                continue;
            }
            let b = format!("{base}_i{i}");
            let name =
                if self.taken.contains(&b) || crate::kpl::is_keyword(&b) { self.fresh_name(&b) } else { b };
            self.declare_kpl(&name);
            let l = self.emit(StmtKind::Local { name: name.clone(), init: Some(c) });
            self.set_place(l, Place::Not(INSIDE.into()));
            out.push(Expr::Var(name));
        }
        out
    }

    /// Binds the reference parameter `cname` (`T &x`, `const T &x`; `agg` for a vector/struct
    /// `T`) to the argument `a`: the lvalue it denotes (a local, a vector/struct field, an array
    /// element, a whole vector/struct local or element), its indices evaluated once, now. A
    /// `const` reference to something that is not an lvalue of type `T` binds a copy (C++ binds
    /// it to a temporary); a non-`const` one is an error. `writes`: the callee assigns `cname`.
    fn ref_arg(
        &mut self,
        a: Node,
        cname: &str,
        agg: Option<Rc<Agg>>,
        ty: Ty,
        is_const: bool,
        writes: bool,
    ) -> R<BoundParam> {
        let role = if self.binding_local { "local" } else { "parameter" };
        let a = strip_parens(a);
        let cname = cname.to_string();
        let not_lvalue = |what: &str| {
            unsupported(
                format!("binding the reference {role} `&{cname}` to `{}` ({what})", text(a, self.src)),
                a,
            )
            .with_note("a non-`const` reference must be bound to a variable, a field or an array element of its type")
        };
        if let Some(agg) = agg {
            let bound = match a.kind() {
                "identifier" => {
                    let b = self.lookup(text(a, self.src)).cloned();
                    match &b {
                        Some(Binding::Agg { agg: a2, .. }) | Some(Binding::Ref { agg: Some(a2), .. })
                            if a2.fields == agg.fields =>
                        {
                            b
                        }
                        _ => None,
                    }
                }
                "subscript_expression" if self.agg_base(a).is_some_and(|(_, a2)| a2.fields == agg.fields) => {
                    let (array, index, _) = self.agg_element(a)?;
                    let index = self.fix_index(&cname, index);
                    Some(Binding::Ref { array, elem: agg.fields[0].1, index, agg: Some(agg.clone()) })
                }
                // `*p`, `*(p + k)`: the element a pointer into a vector/struct array points at.
                "pointer_expression"
                    if is_deref(a)
                        && a.child_by_field_name("argument")
                            .and_then(|p| self.agg_of(p))
                            .is_some_and(|a2| a2.fields == agg.fields) =>
                {
                    let ptr =
                        a.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", a))?;
                    let (array, index, _) = self.agg_deref(ptr)?;
                    let index = self.fix_index(&cname, index);
                    Some(Binding::Ref { array, elem: agg.fields[0].1, index, agg: Some(agg.clone()) })
                }
                _ => None,
            };
            return match bound {
                Some(binding) => Ok(BoundParam::Alias { cname, binding }),
                None if is_const => {
                    let values = self.agg_value(a, &agg)?;
                    Ok(BoundParam::AggValue { cname, agg, values })
                }
                None => Err(not_lvalue(&format!("not a {} variable or element", agg.name))),
            };
        }
        // A scalar: the lvalue as a binding with its type, or `None` when `a` is not one.
        let lvalue: Option<(Binding, Ty)> = match a.kind() {
            "identifier" => {
                let name = text(a, self.src);
                self.bring_file_array(name);
                match self.lookup(name).cloned() {
                    Some(Binding::Var { kpl, ty: t }) => {
                        if writes && self.params.contains(&kpl) {
                            // KPL parameters are read-only; the kernel assigns no copy of it.
                            return Err(unsupported(
                                if role == "local" {
                                    format!("binding the reference local `&{cname}` to the kernel parameter `{name}`, and assigning it")
                                } else {
                                    format!("passing the kernel parameter `{name}` to the reference parameter `&{cname}`, which the function assigns")
                                },
                                a,
                            )
                            .with_note("copy the parameter into a local first"));
                        }
                        Some((Binding::Var { kpl, ty: t }, t))
                    }
                    Some(Binding::Ref { array, elem, index, agg: None }) => {
                        Some((Binding::Ref { array, elem, index, agg: None }, elem))
                    }
                    Some(Binding::Array { kpl, elem, scalar: true, .. }) => Some((
                        Binding::Ref { array: kpl, elem, index: vec![Expr::Const(0)], agg: None },
                        elem,
                    )),
                    _ => None,
                }
            }
            "field_expression" => match self.field_target(a)? {
                Some(Target2::Var(v, t)) => Some((Binding::Var { kpl: v, ty: t }, t)),
                Some(Target2::Mem(array, index, t)) => {
                    let index = self.fix_index(&cname, index);
                    Some((Binding::Ref { array, elem: t, index, agg: None }, t))
                }
                None => None,
            },
            "subscript_expression" => {
                let (array, index, t) = self.access(a)?;
                let index = self.fix_index(&cname, index);
                Some((Binding::Ref { array, elem: t, index, agg: None }, t))
            }
            "pointer_expression" if a.child_by_field_name("operator").is_some_and(|o| o.kind() == "*") => {
                let (array, index, t) = self.access(a)?;
                let index = self.fix_index(&cname, index);
                Some((Binding::Ref { array, elem: t, index, agg: None }, t))
            }
            _ => None,
        };
        match lvalue {
            Some((binding, t)) if t == ty => Ok(BoundParam::Alias { cname, binding }),
            Some((binding, t)) if is_const => {
                // A converted copy of the lvalue's current value.
                let value = match binding {
                    Binding::Var { kpl, .. } => Expr::Var(kpl),
                    Binding::Ref { array, index, .. } => {
                        let tmp = self.temp(None);
                        self.emit(StmtKind::Read { dst: tmp.clone(), array, index });
                        Expr::Var(tmp)
                    }
                    _ => return Err(not_lvalue("an unexpected binding")),
                };
                Ok(BoundParam::Value { cname, value: convert(value, t, ty), ty })
            }
            Some(_) => Err(not_lvalue("an lvalue of another type")),
            None if is_const => {
                let (e, t) = self.expr(a)?;
                Ok(BoundParam::Value { cname, value: convert(e, t, ty), ty })
            }
            None => Err(not_lvalue("not a variable, field or array element")),
        }
    }

    /// An assignment (`p = q + k`, `p += k`; `None`: `p++`/`p--` with `op` from `n`'s parent)
    /// to a pointer local: moves its components; the array must stay the same.
    fn pointer_assign(&mut self, l: Node, rhs: Option<(&str, Node)>) -> R<Option<(Expr, Ty)>> {
        let l = strip_parens(l);
        if l.kind() != "identifier" {
            return Ok(None);
        }
        let name = text(l, self.src);
        let Some(Binding::Ptr { array, elem, comps }) = self.lookup(name).cloned() else { return Ok(None) };
        let new = match rhs {
            Some(("=", r)) => {
                // The same array as before, so the same units (elements of a vector/struct array).
                let (a2, _, c2) = self.pointer_any(r)?;
                if a2 != array {
                    return Err(unsupported(
                        format!("pointing `{name}` at a different array than it was initialized with"),
                        r,
                    ));
                }
                c2
            }
            Some((op, r)) if op == "+=" || op == "-=" => {
                let (e, t) = self.expr(r)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("pointer offset of floating type", span(r)));
                }
                let e = if op == "-=" { Expr::Unary(UnOp::Neg, Box::new(e)) } else { e };
                offset(comps.clone(), e)
            }
            Some((op, r)) => return Err(unsupported(format!("`{op}` on a pointer"), r)),
            None => {
                let dec = l
                    .parent()
                    .and_then(|p| p.child_by_field_name("operator"))
                    .is_some_and(|o| o.kind() == "--");
                offset(comps.clone(), Expr::Const(if dec { u32::MAX } else { 1 }))
            }
        };
        for (old, new) in comps.iter().zip(new) {
            match old {
                Expr::Var(v) => {
                    if *old != new {
                        self.emit(StmtKind::Assign { name: v.clone(), value: new });
                    }
                }
                _ if *old == new => {}
                _ => {
                    return Err(Diagnostic::error(
                        format!("internal error: pointer `{name}` is not mutable"),
                        span(l),
                    ))
                }
            }
        }
        let _ = elem;
        Ok(Some((Expr::Const(0), Ty::Int)))
    }

    /// The word an atomic's first argument points at: `&a[i]`, `&s` (a shared/device scalar or a
    /// scalar reference), `&a[i].x` / `&p->x` (a field word), or a pointer expression `p + i`.
    fn atomic_target(&mut self, ptr: Node) -> R<(String, Vec<Expr>, Ty)> {
        let ptr = strip_parens(ptr);
        let is_addr = ptr.kind() == "pointer_expression"
            && ptr.child_by_field_name("operator").is_some_and(|o| o.kind() == "&");
        if !is_addr && self.is_pointer(ptr) {
            let (array, elem, index) = self.pointer(ptr)?;
            return Ok((array, index, elem));
        }
        if !is_addr {
            return Err(unsupported(
                format!("atomic on `{}` (the target must be written `&a[i]` or `&s`)", text(ptr, self.src)),
                ptr,
            ));
        }
        let target = ptr.child_by_field_name("argument").ok_or_else(|| unsupported("atomic target", ptr))?;
        let target = strip_parens(target);
        match target.kind() {
            "identifier" => {
                let name = text(target, self.src);
                self.bring_file_array(name);
                if !matches!(
                    self.lookup(name),
                    Some(Binding::Array { scalar: true, .. }) | Some(Binding::Ref { agg: None, .. })
                ) {
                    return Err(unsupported(
                        format!("atomic on `&{name}` (only arrays and shared/device scalars)"),
                        target,
                    ));
                }
            }
            "field_expression" => {
                return match self.field_target(target)? {
                    Some(Target2::Mem(array, index, ty)) => Ok((array, index, ty)),
                    _ => Err(unsupported(format!("atomic on `&{}`", text(target, self.src)), target)),
                };
            }
            "subscript_expression" => {}
            _ => return Err(unsupported(format!("atomic on `&{}`", text(target, self.src)), target)),
        }
        self.access(target)
    }

    fn args<'n>(&self, n: Node<'n>) -> Vec<Node<'n>> {
        match n.child_by_field_name("arguments") {
            Some(a) => {
                let mut c = a.walk();
                let v: Vec<Node> = a.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            None => Vec::new(),
        }
    }

    /// Lowers a call. `Ok(None)`: a statement-only call (barrier, fence) used as a statement.
    fn call(&mut self, n: Node, used: bool) -> R<Option<(Expr, Ty)>> {
        if let Some(r) = self.group_call(n, used) {
            return r;
        }
        let f = n.child_by_field_name("function").ok_or_else(|| unsupported("call", n))?;
        let (f, targs) = match f.kind() {
            "template_function" => (
                f.child_by_field_name("name").ok_or_else(|| unsupported("call", n))?,
                f.child_by_field_name("arguments"),
            ),
            _ => (f, None),
        };
        let fname = text(f, self.src).to_string();
        let args = self.args(n);
        if f.kind() != "identifier" {
            return Err(unsupported(format!("call of `{fname}`"), n));
        }
        if self.lookup(&fname).is_none() && self.prog.has_function(&fname) {
            return self.inline_call(n, &fname, targs, &args);
        }
        if targs.is_some() {
            return Err(unsupported(format!("call of the template `{}`", text(n, self.src)), n));
        }
        if self.lookup(&fname).is_some() {
            return Err(unsupported(format!("calling `{fname}`"), n));
        }
        let arity = |k: usize| -> R<()> {
            if args.len() == k {
                Ok(())
            } else {
                Err(Diagnostic::error(
                    format!("`{fname}` takes {k} argument(s), found {}", args.len()),
                    span(n),
                ))
            }
        };
        match fname.as_str() {
            "__syncthreads" => {
                arity(0)?;
                if used {
                    return Err(unsupported("`__syncthreads()` inside an expression", n));
                }
                self.emit(StmtKind::Barrier);
                return Ok(None);
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                arity(0)?;
                if used {
                    return Err(unsupported(format!("`{fname}()` inside an expression"), n));
                }
                return Ok(None);
            }
            "__syncwarp" => {
                if args.len() > 1 {
                    arity(1)?;
                }
                if used {
                    return Err(unsupported("`__syncwarp()` inside an expression", n));
                }
                // The mask is evaluated (it may read memory). Only the full mask is a warp
                // barrier; a partial or unknown mask orders nothing here, which can only add
                // reported races (docs/semantics.md, "Warp barriers").
                let full = match args.first() {
                    None => true,
                    Some(m) => fold(&self.expr(*m)?.0) == Some(u32::MAX),
                };
                if full {
                    self.emit(StmtKind::Syncwarp);
                }
                return Ok(None);
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                return Err(unsupported(format!("`{fname}` (barriers with a reduction)"), n))
            }
            "min" | "max" | "umin" | "umax" => {
                arity(2)?;
                let (a, ta) = self.expr(args[0])?;
                let (b, tb) = self.expr(args[1])?;
                let unsigned = fname.starts_with('u');
                let t = if unsigned { Ty::UInt } else { common(ta, tb) };
                let (a, b) = (convert(a, ta, t), convert(b, tb, t));
                let is_min = fname.ends_with("min");
                let e = match t {
                    Ty::Float => Expr::Call(if is_min { "fmin" } else { "fmax" }.into(), vec![a, b]),
                    Ty::Int => Expr::bin(if is_min { BinOp::Min } else { BinOp::Max }, a, b),
                    Ty::UInt => {
                        let c = Expr::bin(if is_min { BinOp::ULt } else { BinOp::UGt }, a.clone(), b.clone());
                        Expr::Select(Box::new(c), Box::new(a), Box::new(b))
                    }
                };
                return Ok(Some((e, t)));
            }
            "abs" => {
                arity(1)?;
                let (a, t) = self.expr(args[0])?;
                if t == Ty::Float {
                    return Ok(Some((Expr::Call("fabs".into(), vec![a]), Ty::Float)));
                }
                let neg = Expr::bin(BinOp::Lt, a.clone(), Expr::Const(0));
                let e = Expr::Select(
                    Box::new(neg),
                    Box::new(Expr::Unary(UnOp::Neg, Box::new(a.clone()))),
                    Box::new(a),
                );
                return Ok(Some((e, Ty::Int)));
            }
            "__brev" => {
                // Exact: five swap steps (halves of ever smaller blocks), each into a temporary
                // so the argument is not duplicated 32 times.
                arity(1)?;
                let (a, _) = self.expr(args[0])?;
                let mut v = self.temp(Some(a));
                let masks = [
                    (1, 0x5555_5555u32),
                    (2, 0x3333_3333),
                    (4, 0x0f0f_0f0f),
                    (8, 0x00ff_00ff),
                    (16, 0x0000_ffff),
                ];
                for (sh, m) in masks {
                    let x = || Expr::var(&v);
                    let hi = Expr::bin(
                        BinOp::BitAnd,
                        Expr::bin(BinOp::UShr, x(), Expr::Const(sh)),
                        Expr::Const(m),
                    );
                    let lo =
                        Expr::bin(BinOp::Shl, Expr::bin(BinOp::BitAnd, x(), Expr::Const(m)), Expr::Const(sh));
                    v = self.temp(Some(Expr::bin(BinOp::BitOr, hi, lo)));
                }
                return Ok(Some((Expr::Var(v), Ty::UInt)));
            }
            "__sincosf" | "sincosf" | "sincos" => {
                // `sincosf(x, &s, &c)`: two opaque pure results stored through the pointers.
                arity(3)?;
                let (x, t) = self.expr(args[0])?;
                let x = convert(x, t, Ty::Float);
                for (k, out) in [(1, "sinf"), (2, "cosf")] {
                    let value = Expr::Call(out.into(), vec![x.clone()]);
                    let p = strip_parens(args[k]);
                    let target = (p.kind() == "pointer_expression"
                        && p.child_by_field_name("operator").is_some_and(|o| o.kind() == "&"))
                    .then(|| p.child_by_field_name("argument"))
                    .flatten();
                    match target.and_then(|t| self.lvalue_is_var(t)) {
                        Some((var, ty)) => {
                            self.emit(StmtKind::Assign { name: var, value: convert(value, Ty::Float, ty) });
                        }
                        None => {
                            let (array, elem, index) = self.pointer(p)?;
                            self.emit(StmtKind::Write {
                                array,
                                index,
                                value: convert(value, Ty::Float, elem),
                            });
                        }
                    }
                }
                return Ok(None);
            }
            "__mul24" | "__umul24" => {
                arity(2)?;
                let (a, _) = self.expr(args[0])?;
                let (b, _) = self.expr(args[1])?;
                let t = if fname == "__umul24" { Ty::UInt } else { Ty::Int };
                return Ok(Some((Expr::bin(BinOp::Mul, a, b), t)));
            }
            _ => {}
        }
        if FLOAT_MATH.contains(&fname.as_str()) {
            let mut out = Vec::new();
            for a in &args {
                let (e, t) = self.expr(*a)?;
                out.push(convert(e, t, Ty::Float));
            }
            return Ok(Some((Expr::Call(fname, out), Ty::Float)));
        }
        if let Some(op) = atomic_op(&fname) {
            arity(2)?;
            let (array, index, elem) = self.atomic_target(args[0])?;
            let (v, _) = self.expr(args[1])?;
            let dst = if used { Some(self.temp(None)) } else { None };
            self.emit(StmtKind::Atomic { dst: dst.clone(), op, array, index, value: v });
            return Ok(Some((dst.map(Expr::Var).unwrap_or(Expr::Const(0)), elem)));
        }
        if fname == "atomicCAS" {
            // One atomic read-modify-write of the target. KPL has no compare-and-swap: it is
            // `exch` with the value CAS may store. The oracle treats the old value (the result)
            // and the memory after any atomic as unknown, so only the access matters to it; the
            // interpreter stores `val` even where CUDA's comparison would fail (documented).
            arity(3)?;
            let (array, index, elem) = self.atomic_target(args[0])?;
            // `compare` is evaluated (its reads and side effects happen) but not modelled.
            let _ = self.expr(args[1])?;
            let (v, _) = self.expr(args[2])?;
            let dst = if used { Some(self.temp(None)) } else { None };
            self.emit(StmtKind::Atomic { dst: dst.clone(), op: AtomicOp::Exch, array, index, value: v });
            return Ok(Some((dst.map(Expr::Var).unwrap_or(Expr::Const(0)), elem)));
        }
        if fname.starts_with("atomic") {
            return Err(unsupported(format!("atomic `{fname}`"), n));
        }
        if fname.starts_with("__") {
            return Err(unsupported(format!("intrinsic `{fname}`"), n));
        }
        Err(unsupported(format!("call to `{fname}` (no definition of this function in the file)"), n)
            .with_note("device functions are inlined; their definition must be in the file"))
    }
}

/// The index of an element's first word from an index counting vector/struct elements: the
/// last component is scaled by the number of fields (one word each).
fn element_words(mut index: Vec<Expr>, agg: &Agg) -> Vec<Expr> {
    let k = agg.fields.len() as u32;
    if let Some(last) = index.last_mut() {
        let old = std::mem::replace(last, Expr::Const(0));
        *last = Expr::bin(BinOp::Mul, old, Expr::Const(k));
    }
    index
}

/// The index of a pointer plus `k` elements (the last component moves).
fn offset(mut comps: Vec<Expr>, k: Expr) -> Vec<Expr> {
    match comps.last_mut() {
        Some(last) => {
            let old = std::mem::replace(last, Expr::Const(0));
            *last = match (&old, &k) {
                (Expr::Const(0), _) => k,
                (_, Expr::Const(0)) => old,
                _ => Expr::bin(BinOp::Add, old, k),
            };
        }
        None => comps.push(k),
    }
    comps
}

/// The value of an expression made of constants only (`None` otherwise or on division by 0).
fn fold(e: &Expr) -> Option<u32> {
    use BinOp::*;
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Unary(op, a) => {
            let a = fold(a)?;
            match op {
                UnOp::Neg => a.wrapping_neg(),
                UnOp::Not => (a == 0) as u32,
                UnOp::BitNot => !a,
            }
        }
        Expr::Binary(op, a, b) => {
            let (a, b) = (fold(a)?, fold(b)?);
            let (sa, sb) = (a as i32, b as i32);
            match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                Div => sa.checked_div(sb)? as u32,
                Rem => sa.checked_rem(sb)? as u32,
                UDiv => a.checked_div(b)?,
                URem => a.checked_rem(b)?,
                Shl => a.wrapping_shl(b),
                Shr => sa.wrapping_shr(b) as u32,
                UShr => a.wrapping_shr(b),
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                And => (a != 0 && b != 0) as u32,
                Or => (a != 0 || b != 0) as u32,
                Eq => (a == b) as u32,
                Ne => (a != b) as u32,
                Lt => (sa < sb) as u32,
                Le => (sa <= sb) as u32,
                Gt => (sa > sb) as u32,
                Ge => (sa >= sb) as u32,
                ULt => (a < b) as u32,
                ULe => (a <= b) as u32,
                UGt => (a > b) as u32,
                UGe => (a >= b) as u32,
                Min => sa.min(sb) as u32,
                Max => sa.max(sb) as u32,
            }
        }
        Expr::Select(c, a, b) => {
            if fold(c)? != 0 {
                fold(a)?
            } else {
                fold(b)?
            }
        }
        Expr::Var(_) | Expr::Builtin(_) | Expr::Call(..) => return None,
    })
}

/// The index of field `i` of an aggregate element whose first field is at `index`.
fn field_index(index: &[Expr], i: usize) -> Vec<Expr> {
    offset(index.to_vec(), Expr::Const(i as u32))
}

/// `!(f1 || f2 || …)` over exit flags.
fn not_any(flags: &BTreeSet<String>) -> Expr {
    let any = flags
        .iter()
        .map(|f| Expr::var(f))
        .reduce(|a, b| Expr::bin(BinOp::Or, a, b))
        .unwrap_or(Expr::Const(0));
    Expr::Unary(UnOp::Not, Box::new(any))
}

/// The truth value of a value: floats are compared with 0.
fn truth(e: Expr, t: Ty) -> Expr {
    match t {
        Ty::Float => Expr::Call("fcmp_ne".into(), vec![e, Expr::Const(0)]),
        _ => e,
    }
}

/// The value as 0 or 1 (comparisons and logical operators already are).
fn bool01(e: Expr) -> Expr {
    use BinOp::*;
    match &e {
        Expr::Binary(And | Or | Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe, _, _)
        | Expr::Unary(UnOp::Not, _) => e,
        Expr::Call(f, _) if f.starts_with("fcmp_") => e,
        _ => Expr::bin(Ne, e, Expr::Const(0)),
    }
}

/// C's usual arithmetic conversions on our three type classes.
fn common(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Float, _) | (_, Ty::Float) => Ty::Float,
        (Ty::UInt, _) | (_, Ty::UInt) => Ty::UInt,
        _ => Ty::Int,
    }
}

/// Converts a value between type classes (integer ↔ integer conversions keep the bits).
fn convert(e: Expr, from: Ty, to: Ty) -> Expr {
    match (from, to) {
        (Ty::Float, Ty::Float) => e,
        (Ty::Float, Ty::Int) => Expr::Call("f2i".into(), vec![e]),
        (Ty::Float, Ty::UInt) => Expr::Call("f2u".into(), vec![e]),
        (Ty::Int, Ty::Float) => Expr::Call("i2f".into(), vec![e]),
        (Ty::UInt, Ty::Float) => Expr::Call("u2f".into(), vec![e]),
        _ => e,
    }
}

/// A binary C operator (not `&&`/`||`) on typed operands.
fn binary(op: &str, (a, ta): (Expr, Ty), (b, tb): (Expr, Ty)) -> Result<(Expr, Ty), String> {
    if op == "<<" || op == ">>" {
        if ta == Ty::Float || tb == Ty::Float {
            return Err(format!("`{op}` on a floating value"));
        }
        let bop = match (op, ta) {
            ("<<", _) => BinOp::Shl,
            (_, Ty::UInt) => BinOp::UShr,
            _ => BinOp::Shr,
        };
        return Ok((Expr::bin(bop, a, b), ta));
    }
    let t = common(ta, tb);
    let (a, b) = (convert(a, ta, t), convert(b, tb, t));
    if t == Ty::Float {
        let (f, ty) = match op {
            "+" => ("fadd", Ty::Float),
            "-" => ("fsub", Ty::Float),
            "*" => ("fmul", Ty::Float),
            "/" => ("fdiv", Ty::Float),
            "<" => ("fcmp_lt", Ty::Int),
            "<=" => ("fcmp_le", Ty::Int),
            ">" => ("fcmp_gt", Ty::Int),
            ">=" => ("fcmp_ge", Ty::Int),
            "==" => ("fcmp_eq", Ty::Int),
            "!=" => ("fcmp_ne", Ty::Int),
            _ => return Err(format!("`{op}` on a floating value")),
        };
        return Ok((Expr::Call(f.into(), vec![a, b]), ty));
    }
    let u = t == Ty::UInt;
    let (bop, ty) = match op {
        "+" => (BinOp::Add, t),
        "-" => (BinOp::Sub, t),
        "*" => (BinOp::Mul, t),
        "/" => (if u { BinOp::UDiv } else { BinOp::Div }, t),
        "%" => (if u { BinOp::URem } else { BinOp::Rem }, t),
        "&" => (BinOp::BitAnd, t),
        "|" => (BinOp::BitOr, t),
        "^" => (BinOp::BitXor, t),
        "==" => (BinOp::Eq, Ty::Int),
        "!=" => (BinOp::Ne, Ty::Int),
        "<" => (if u { BinOp::ULt } else { BinOp::Lt }, Ty::Int),
        "<=" => (if u { BinOp::ULe } else { BinOp::Le }, Ty::Int),
        ">" => (if u { BinOp::UGt } else { BinOp::Gt }, Ty::Int),
        ">=" => (if u { BinOp::UGe } else { BinOp::Ge }, Ty::Int),
        _ => return Err(format!("operator `{op}`")),
    };
    Ok((Expr::bin(bop, a, b), ty))
}
