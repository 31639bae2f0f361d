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
//! How the sites combine, the report sentences and the `assume`s are `crate::launch_facts`,
//! shared with the clang front end. Soundness: a fact is taken only from launches the file
//! shows, and only when *every* one of them agrees (for a template instance: every launch that names its arguments or names no
//! instance, `FileInfo::launch_facts`); a kernel the file uses in any other way (its address taken, stored in a function
//! pointer, …) gets no fact at all. Several launches that differ in a dimension leave
//! that dimension symbolic: the check covers every launch (the per-dimension hull). A scalar
//! integer parameter that receives the same known value at every launch is that value
//! (an *argument fact*). `--no-launch-facts` takes nothing from the host code; a header line or
//! the command line overrides the block or grid part it names, and every report says which.

pub(crate) mod host;

use super::{span, text, FileInfo};
pub(crate) use crate::launch_facts::{facts, render, LaunchFacts, Launches, Overrides, Rel, Site};
use crate::launch_facts::{Dims, LAUNCHING, NON_LAUNCHING};
use host::{enclosing_body, identifiers, named, Host};
use std::collections::BTreeMap;
use tree_sitter::Node;

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
