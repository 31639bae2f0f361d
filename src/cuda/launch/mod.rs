//! Launch facts: what the file's host code says about how each kernel is launched.
//!
//! tree-sitter-cuda parses a launch as a `call_expression` with a `kernel_call_syntax` child
//! holding the `<<<…>>>` arguments (grid, block, then shared-memory bytes and stream, which do
//! not change the geometry). Each dimension of the grid and of the block is taken separately:
//! a `dim3` local, parameter or `dim3(…)` expression gives three values, an integer gives
//! `(n, 1, 1)`, and each value is known when [`host::Host`] can evaluate it where the launch
//! reads it (literals, macros, file constants, host locals and `dim3` fields with their
//! reaching definitions, parameters of host helpers that every call passes the same value).
//!
//! `cudaLaunchKernel` and `cudaLaunchCooperativeKernel` launches count too (their grid and block
//! arguments; the kernel's arguments, in a `void *[]`, are not read).
//!
//! Soundness: a fact is taken only from launches the file shows, and only when *every* one of
//! them agrees (for a template instance: every launch that names its arguments or names no
//! instance, `FileInfo::launch_facts`); a kernel the file uses in any other way (its address taken, stored in a function
//! pointer, …) gets no fact at all. Several launches that differ in a dimension leave
//! that dimension symbolic: the check covers every launch (the per-dimension hull). A scalar
//! integer parameter that receives the same known value at every launch is that value
//! (an *argument fact*). `--no-launch-facts` takes nothing from the host code; a header line or
//! the command line overrides the block or grid part it names, and every report says which.

pub(crate) mod host;

use super::{span, text, FileInfo};
use crate::kpl::ast::Span;
use crate::kpl::Geometry;
use host::{enclosing_body, identifiers, named, Dims, Host};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Calls that take a kernel's address without launching it.
const NON_LAUNCHING: &[&str] = &[
    "cudaFuncSetAttribute",
    "cudaFuncGetAttributes",
    "cudaFuncSetCacheConfig",
    "cudaFuncSetSharedMemConfig",
    "cudaOccupancyMaxPotentialBlockSize",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyAvailableDynamicSMemPerBlock",
];

/// Runtime calls that launch the kernel named by their first argument with the grid and block
/// dimensions of the second and third (`cudaLaunchCooperativeKernel((void *)k, grid, block,
/// args)`); the kernel's arguments travel in a `void *[]` and are not read.
const LAUNCHING: &[&str] = &["cudaLaunchKernel", "cudaLaunchCooperativeKernel"];

/// One launch of a kernel as the host code states it.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub at: Span,
    pub grid: Dims,
    pub block: Dims,
    /// The value of each argument, where known.
    pub args: Vec<Option<i64>>,
    /// Each dimension of the block (`[0]`) and grid (`[1]`) as an expression over the kernel's
    /// arguments, where the host computes it from them (`(n + 255) / 256`).
    pub rel: [[Option<Rel>; 3]; 2],
}

/// A launch dimension as a function of the kernel's arguments: C integer arithmetic over
/// constants and parameters (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Const(i64),
    Param(usize),
    /// A C binary operator (`+ - * / % << >>`).
    Bin(&'static str, Box<Rel>, Box<Rel>),
}

impl Rel {
    fn has_param(&self) -> bool {
        match self {
            Rel::Const(_) => false,
            Rel::Param(_) => true,
            Rel::Bin(_, a, b) => a.has_param() || b.has_param(),
        }
    }

    /// The expression in C syntax, parameters by name.
    pub fn show(&self, params: &[(String, bool)]) -> String {
        match self {
            Rel::Const(v) => v.to_string(),
            Rel::Param(i) => params.get(*i).map_or("?".into(), |p| p.0.clone()),
            Rel::Bin(op, a, b) => {
                let side = |r: &Rel| match r {
                    Rel::Bin(..) => format!("({})", r.show(params)),
                    _ => r.show(params),
                };
                format!("{} {op} {}", side(a), side(b))
            }
        }
    }
}

/// What the visible launches of one kernel (by name) say, before any override.
#[derive(Clone, Debug, Default)]
pub(crate) struct Launches {
    pub sites: Vec<Site>,
    /// A use of the kernel's name that is not a launch (a launch the file does not show).
    pub other_use: Option<Span>,
}

/// Who overrides which part of the geometry.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overrides {
    /// The file's header line (GPUVerify's `--blockDim`/`--gridDim`).
    pub header: Geometry,
    /// The command line's `--block-dim`/`--grid-dim`.
    pub command_line: Geometry,
}

/// The facts one kernel is checked under, with where each came from.
#[derive(Clone, Debug, Default)]
pub(crate) struct LaunchFacts {
    /// Block and grid dimensions from the launches (overridden parts are all `None`).
    pub block: [Option<u32>; 3],
    pub grid: [Option<u32>; 3],
    /// Scalar parameters (C name) with the value every launch passes.
    pub args: Vec<(String, i64)>,
    /// Dimensions (`[0]` block, `[1]` grid; axis) that every launch computes by one expression of
    /// the kernel's arguments, with the parameters' names.
    pub relations: Vec<(usize, usize, Rel)>,
    /// The kernel's parameters (C name, whether a by-value integer).
    pub params: Vec<(String, bool)>,
    /// Per launch, the dimensions (part, axis, value) known at every launch but not equal at
    /// all of them: the kernel is checked under "one of the launches' values" (a disjunction).
    pub choices: Vec<Vec<(usize, usize, u32)>>,
    /// The sentences for reports, with the spans (in the lowered text) whose lines they name.
    pub notes: Vec<(String, Vec<Span>)>,
}

impl LaunchFacts {
    /// The geometry the launches fix completely (a part with a dimension unknown stays `None`;
    /// its known dimensions become `assume`s in the kernel).
    pub fn geometry(&self) -> Geometry {
        let full = |d: [Option<u32>; 3]| -> Option<[u32; 3]> { Some([d[0]?, d[1]?, d[2]?]) };
        Geometry { block_dim: full(self.block), grid_dim: full(self.grid), warp_sync: None }
    }

    /// The value a launch fact gives parameter `name`.
    pub fn argument(&self, name: &str) -> Option<i64> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// Every launch in the file by kernel name (the name before any `<…>` template arguments).
pub(crate) fn launches(
    root: Node,
    src: &str,
    file: &FileInfo,
    kernels: &[String],
) -> BTreeMap<String, Launches> {
    let host = Host { root, src, file, steps: std::cell::Cell::new(host::STEP_BUDGET) };
    let mut out: BTreeMap<String, Launches> = BTreeMap::new();
    for name in kernels {
        let mut uses = Vec::new();
        identifiers(root, name, src, &mut uses);
        let mut l = Launches::default();
        for u in uses {
            match use_of(u, src) {
                Use::Launch(call, syntax) => l.sites.push(site(&host, call, syntax)),
                Use::RuntimeLaunch(call) => l.sites.push(runtime_site(&host, call)),
                Use::Declaration | Use::NonLaunching => {}
                Use::Other => {
                    l.other_use.get_or_insert(span(u));
                }
            }
        }
        if !l.sites.is_empty() || l.other_use.is_some() {
            out.insert(name.clone(), l);
        }
    }
    out
}

/// The value of `name` where the template argument list `at` of a launch is (a local of the
/// launching function with one reaching value, a file constant), as the launch facts see it.
pub(crate) fn host_value(root: Node, src: &str, file: &FileInfo, at: Node, name: &str) -> Option<i64> {
    let host = Host { root, src, file, steps: std::cell::Cell::new(host::STEP_BUDGET) };
    let func = host::enclosing_body(at)?;
    host.name_value(func, name, at)
}

/// The launches that name template arguments (`reduce<512><<<g, b>>>(…)`): (kernel name, the
/// `template_argument_list`), in source order. Each is an instance of the template kernel.
pub(crate) fn template_launches<'t>(root: Node<'t>, src: &str) -> Vec<(String, Node<'t>)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression" {
            let mut c = n.walk();
            let launch = n.children(&mut c).any(|ch| ch.kind() == "kernel_call_syntax");
            let f = n.child_by_field_name("function").filter(|f| f.kind() == "template_function");
            if let (true, Some(f)) = (launch, f) {
                if let (Some(name), Some(args)) =
                    (f.child_by_field_name("name"), f.child_by_field_name("arguments"))
                {
                    out.push((n.start_byte(), text(name, src).to_string(), args));
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out.sort_by_key(|(at, _, _)| *at);
    out.into_iter().map(|(_, name, args)| (name, args)).collect()
}

enum Use<'t> {
    Launch(Node<'t>, Node<'t>),
    /// The first argument of a [`LAUNCHING`] call.
    RuntimeLaunch(Node<'t>),
    Declaration,
    NonLaunching,
    Other,
}

/// What an occurrence of a kernel's name is.
fn use_of<'t>(u: Node<'t>, src: &str) -> Use<'t> {
    let Some(mut p) = u.parent() else { return Use::Other };
    if matches!(p.kind(), "function_declarator") {
        return Use::Declaration;
    }
    // `k<float><<<…>>>`: the name of a template function.
    let mut callee = u;
    if p.kind() == "template_function" && p.child_by_field_name("name").is_some_and(|n| n.id() == u.id()) {
        callee = p;
        match p.parent() {
            Some(q) => p = q,
            None => return Use::Other,
        }
    }
    if p.kind() == "function_declarator" {
        return Use::Declaration;
    }
    if p.kind() == "call_expression"
        && p.child_by_field_name("function").is_some_and(|f| f.id() == callee.id())
    {
        let mut c = p.walk();
        let syntax = p.children(&mut c).find(|ch| ch.kind() == "kernel_call_syntax");
        return match syntax {
            Some(s) => Use::Launch(p, s),
            None => Use::Other,
        };
    }
    // An argument of a call that only inspects the kernel (possibly through a cast).
    let mut a = p;
    while matches!(a.kind(), "cast_expression" | "pointer_expression" | "parenthesized_expression") {
        match a.parent() {
            Some(q) => a = q,
            None => return Use::Other,
        }
    }
    if a.kind() == "argument_list" {
        if let Some(call) = a.parent().filter(|c| c.kind() == "call_expression") {
            let f = call.child_by_field_name("function").map(|f| text(f, src)).unwrap_or("");
            let f = f.rsplit("::").next().unwrap_or(f);
            if NON_LAUNCHING.contains(&f) {
                return Use::NonLaunching;
            }
            let first = named(a)
                .first()
                .is_some_and(|x| x.start_byte() <= u.start_byte() && u.end_byte() <= x.end_byte());
            if LAUNCHING.contains(&f) && first {
                return Use::RuntimeLaunch(call);
            }
        }
    }
    Use::Other
}

fn site(host: &Host, call: Node, syntax: Node) -> Site {
    let args = named(syntax);
    let func = enclosing_body(call);
    let dims = |i: usize| -> Dims {
        match (func, args.get(i)) {
            (Some(f), Some(e)) => host.dims(f, *e, 0),
            _ => [None; 3],
        }
    };
    let values = match (func, call.child_by_field_name("arguments")) {
        (Some(f), Some(list)) => named(list).into_iter().map(|a| host.int(f, a, 0)).collect(),
        _ => Vec::new(),
    };
    let arg_texts: Vec<String> = call
        .child_by_field_name("arguments")
        .map(|l| named(l).into_iter().map(|a| text(a, host.src).trim().to_string()).collect())
        .unwrap_or_default();
    let rel = |i: usize| -> [Option<Rel>; 3] {
        match (func, args.get(i)) {
            (Some(f), Some(e)) => relations(host, f, *e, call, &arg_texts),
            _ => Default::default(),
        }
    };
    Site { at: span(call), grid: dims(0), block: dims(1), args: values, rel: [rel(1), rel(0)] }
}

/// A [`LAUNCHING`] call: its grid and block; no argument values and no relations (an unknown
/// argument at one launch gives its parameter no fact).
fn runtime_site(host: &Host, call: Node) -> Site {
    let args = call.child_by_field_name("arguments").map(named).unwrap_or_default();
    let func = enclosing_body(call);
    let dims = |i: usize| -> Dims {
        match (func, args.get(i)) {
            (Some(f), Some(e)) => host.dims(f, *e, 0),
            _ => [None; 3],
        }
    };
    Site { at: span(call), grid: dims(1), block: dims(2), args: Vec::new(), rel: Default::default() }
}

/// Each dimension of launch argument `e` as an expression of the launch's arguments.
fn relations(host: &Host, func: Node, e: Node, call: Node, args: &[String]) -> [Option<Rel>; 3] {
    let mut e = e;
    while e.kind() == "parenthesized_expression" {
        match e.named_child(0) {
            Some(i) => e = i,
            None => return Default::default(),
        }
    }
    // The items of a `dim3`, and the offset from which their names must keep their values.
    let (items, anchor) = match e.kind() {
        "call_expression"
            if e.child_by_field_name("function").is_some_and(|f| text(f, host.src) == "dim3") =>
        {
            match e.child_by_field_name("arguments") {
                Some(list) => (named(list), call.start_byte()),
                None => return Default::default(),
            }
        }
        "identifier" => match host.only_dim3_items(func, text(e, host.src)) {
            Some(list) => (named(list), list.start_byte()),
            None => match host.only_int_init(func, text(e, host.src)) {
                Some(init) => (vec![init], init.start_byte()),
                None => return Default::default(),
            },
        },
        "binary_expression" => (vec![e], call.start_byte()),
        _ => return Default::default(),
    };
    if items.len() > 3 {
        return Default::default();
    }
    std::array::from_fn(|d| {
        let item = items.get(d)?;
        let r = rel_of(host, func, *item, anchor, args, 0)?;
        r.has_param().then_some(r)
    })
}

/// `n` as a [`Rel`]: names that are launch arguments (passed bare, and not redefined from
/// `anchor` on) are parameters, other names need a known value.
fn rel_of(host: &Host, func: Node, n: Node, anchor: usize, args: &[String], depth: usize) -> Option<Rel> {
    if depth > 16 {
        return None;
    }
    match n.kind() {
        "parenthesized_expression" => rel_of(host, func, n.named_child(0)?, anchor, args, depth + 1),
        "identifier" => {
            let name = text(n, host.src);
            match args.iter().position(|a| a == name) {
                Some(i) if host.settled_before(func, name, anchor) => Some(Rel::Param(i)),
                _ => host.int(func, n, 0).map(Rel::Const),
            }
        }
        "binary_expression" => {
            let op = match n.child_by_field_name("operator")?.kind() {
                "+" => "+",
                "-" => "-",
                "*" => "*",
                "/" => "/",
                "%" => "%",
                "<<" => "<<",
                ">>" => ">>",
                _ => return None,
            };
            let a = rel_of(host, func, n.child_by_field_name("left")?, anchor, args, depth + 1)?;
            let b = rel_of(host, func, n.child_by_field_name("right")?, anchor, args, depth + 1)?;
            Some(Rel::Bin(op, Box::new(a), Box::new(b)))
        }
        _ => host.int(func, n, 0).map(Rel::Const),
    }
}

/// CUDA's limits on each dimension: (block, grid).
const BLOCK_MAX: [i64; 3] = [1024, 1024, 64];
const GRID_MAX: [i64; 3] = [(1 << 31) - 1, 65535, 65535];

/// The facts of kernel `name` with scalar parameters `params` (C name, whether an integer
/// type), from its launches `l`, under `over`.
pub(crate) fn facts(name: &str, params: &[(String, bool)], l: &Launches, over: &Overrides) -> LaunchFacts {
    let mut f = LaunchFacts { choices: vec![Vec::new(); l.sites.len()], ..LaunchFacts::default() };
    let sites: Vec<Span> = l.sites.iter().map(|s| s.at).collect();
    if let Some(at) = l.other_use {
        f.notes.push((
            format!("no launch facts for `{name}`: the file uses it at line {{0}} other than in a launch (`<<<…>>>`, `cudaLaunchKernel`), so its launches are not all visible"),
            vec![at],
        ));
        return f;
    }
    let from = if sites.len() == 1 {
        "the launch at line {*}".to_string()
    } else {
        format!("the {} launches at lines {{*}}", sites.len())
    };
    for (part, dims_of, max, header, cli) in [
        (
            "blockDim",
            (|s: &Site| s.block) as fn(&Site) -> Dims,
            BLOCK_MAX,
            &over.header.block_dim,
            &over.command_line.block_dim,
        ),
        ("gridDim", |s: &Site| s.grid, GRID_MAX, &over.header.grid_dim, &over.command_line.grid_dim),
    ] {
        let flag = if part == "blockDim" { "--block-dim" } else { "--grid-dim" };
        if let Some(d) = cli.as_ref() {
            f.notes.push((format!("{part} = {} from {flag} (overrides {from})", show(d)), sites.clone()));
            continue;
        }
        if let Some(d) = header.as_ref() {
            f.notes.push((
                format!("{part} = {} from the header line (overrides {from})", show(d)),
                sites.clone(),
            ));
            continue;
        }
        let p = usize::from(part == "gridDim");
        let mut known = [None; 3];
        let mut open = Vec::new();
        let mut facts = Vec::new();
        for (d, slot) in known.iter_mut().enumerate() {
            let vals: Vec<Option<i64>> = l.sites.iter().map(|s| dims_of(s)[d]).collect();
            let axis = ["x", "y", "z"][d];
            let in_range = |v: &Option<i64>| v.is_some_and(|v| (1..=max[d]).contains(&v));
            match vals.first().copied().flatten() {
                Some(v) if vals.iter().all(|x| *x == Some(v)) && in_range(&Some(v)) => {
                    *slot = Some(v as u32);
                    continue;
                }
                _ if vals.iter().all(in_range) => {
                    // Known at every launch but different: each launch's value is checked.
                    let mut shown: Vec<i64> = vals.iter().flatten().copied().collect();
                    shown.sort_unstable();
                    shown.dedup();
                    let list: Vec<String> = shown.iter().map(i64::to_string).collect();
                    facts.push(format!(
                        "{part}.{axis} is one of {} (each launch's own value)",
                        list.join(", ")
                    ));
                    for (site, v) in f.choices.iter_mut().zip(&vals) {
                        site.push((p, d, v.unwrap_or(1) as u32));
                    }
                    continue;
                }
                _ => {}
            }
            let rels: Vec<Option<&Rel>> = l.sites.iter().map(|s| s.rel[p][d].as_ref()).collect();
            if let Some(Some(r)) = rels.first().copied() {
                if rels.iter().all(|x| *x == Some(r)) && params_int(r, params) {
                    facts.push(format!("{part}.{axis} = {}", r.show(params)));
                    f.relations.push((p, d, r.clone()));
                    continue;
                }
            }
            open.push(format!("{part}.{axis}"));
        }
        let values: Vec<String> = known.iter().map(|v| v.map_or("?".into(), |v| v.to_string())).collect();
        let mut sentence = format!("{part} = ({}) from {from}", values.join(", "));
        if !facts.is_empty() {
            sentence.push_str(&format!(", assuming {}", facts.join(" and ")));
        }
        if !open.is_empty() {
            sentence.push_str(&format!(
                "; {} checked for every value (not a compile-time constant at every launch)",
                open.join(", ")
            ));
        }
        f.notes.push((sentence, sites.clone()));
        if p == 0 {
            f.block = known;
        } else {
            f.grid = known;
        }
    }
    f.params = params.to_vec();
    for (i, (p, is_int)) in params.iter().enumerate() {
        if !is_int {
            continue;
        }
        let vals: Vec<Option<i64>> = l.sites.iter().map(|s| s.args.get(i).copied().flatten()).collect();
        if let Some(v) = vals.first().copied().flatten() {
            if vals.iter().all(|x| *x == Some(v)) {
                f.args.push((p.clone(), v));
                f.notes.push((format!("assuming {p} = {v}, from {from}"), sites.clone()));
            }
        }
    }
    f
}

/// Whether every parameter `r` names is a by-value integer.
fn params_int(r: &Rel, params: &[(String, bool)]) -> bool {
    match r {
        Rel::Const(_) => true,
        Rel::Param(i) => params.get(*i).is_some_and(|p| p.1),
        Rel::Bin(_, a, b) => params_int(a, params) && params_int(b, params),
    }
}

fn show(d: &[u32; 3]) -> String {
    format!("({}, {}, {})", d[0], d[1], d[2])
}

/// The kernel's parameters, in order: (C name, whether a by-value integer scalar). `None` when
/// the file defines the kernel more than once with different parameter lists.
pub(crate) fn kernel_params(defs: &[Node], src: &str) -> Option<Vec<(String, bool)>> {
    let mut out: Option<Vec<(String, bool)>> = None;
    for f in defs {
        let mut d = f.child_by_field_name("declarator")?;
        while d.kind() != "function_declarator" {
            d = d.child_by_field_name("declarator")?;
        }
        let params: Vec<(String, bool)> = named(d.child_by_field_name("parameters")?)
            .into_iter()
            .filter(|p| p.kind() == "parameter_declaration")
            .map(|p| {
                let decl = p.child_by_field_name("declarator");
                let name = decl.filter(|d| d.kind() == "identifier").map(|d| text(d, src).to_string());
                let ty = src.get(p.start_byte()..decl.map_or(p.end_byte(), |d| d.start_byte())).unwrap_or("");
                match name {
                    Some(n) => (n, host::is_int_type(ty)),
                    None => (String::new(), false),
                }
            })
            .collect();
        match &out {
            Some(o) if *o != params => return None,
            _ => out = Some(params),
        }
    }
    out
}

/// The sentences of `facts` with `{*}` (every span's line) and `{0}` (the first span's line)
/// filled in by `line`.
pub(crate) fn render(facts: &LaunchFacts, line: &dyn Fn(Span) -> usize) -> Vec<String> {
    facts
        .notes
        .iter()
        .map(|(s, spans)| {
            let mut lines: Vec<usize> = spans.iter().map(|sp| line(*sp)).collect();
            let first = lines.first().copied().unwrap_or(0);
            lines.dedup();
            let all = lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
            s.replace("{*}", &all).replace("{0}", &first.to_string())
        })
        .collect()
}
