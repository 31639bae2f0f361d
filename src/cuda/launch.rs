//! Kernel launches in the file's host code: `kernel<<<grid, block>>>(…)` with a geometry that
//! is a compile-time constant becomes the kernel's default launch geometry.
//!
//! tree-sitter-cuda parses a launch as a `call_expression` with a `kernel_call_syntax` child
//! holding the `<<<…>>>` arguments (grid, block, then shared-memory bytes and stream, which do
//! not change the geometry). A dimension is constant when it is an integer constant expression
//! over literals, macros (already expanded), file-scope `const` integers and `const` /
//! `constexpr` integer locals of the launching function; a `dim3` is `dim3(x, y, z)`, or a
//! `dim3` local of the launching function initialized that way (`dim3 b(16, 16);`,
//! `dim3 b = dim3(…);`, `dim3 b = {…};`, `dim3 b(N)`) and never assigned afterwards.
//!
//! A kernel gets a default only when every launch of it in the file is constant and they all
//! agree: with one launch that is not constant, or two that differ, the geometry stays
//! symbolic (a note says why), since a fixed geometry would hide what other launches do.

use super::consts::const_eval;
use super::{span, text, FileInfo, MacroVal};
use crate::diag::{Diagnostic, Severity};
use crate::kpl::ast::Span;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// A launch's (grid, block).
type Dims = ([u32; 3], [u32; 3]);

/// What the launches of one kernel say.
#[derive(Clone, Debug, Default)]
pub(crate) struct Launches {
    /// The geometry (grid, block) and the span of the first launch, when every launch agrees.
    pub geometry: Option<([u32; 3], [u32; 3], Span)>,
    /// Notes for the user (where the geometry came from, or why none was taken).
    pub notes: Vec<Diagnostic>,
}

fn note(message: String, at: Span) -> Diagnostic {
    let mut d = Diagnostic::warning(message, at);
    d.severity = Severity::Note;
    d
}

/// The launches of the file by kernel name (the name before any `<…>` template arguments), and
/// by instance name (`reduce<256>`) for launches that name template arguments.
pub(crate) fn launches(root: Node, src: &str, file: &FileInfo) -> BTreeMap<String, Launches> {
    let mut found = Vec::new();
    collect(root, src, &mut found);
    let mut by_kernel: BTreeMap<String, Vec<(Node, Option<Dims>)>> = BTreeMap::new();
    for (name, call, syntax) in found {
        let g = geometry(syntax, call, src, file);
        // A launch naming template arguments also counts for that instance alone
        // (`reduce<256>`: the name the instance's kernel gets when it has no defaults).
        if let Some(args) = call
            .child_by_field_name("function")
            .filter(|f| f.kind() == "template_function")
            .and_then(|f| f.child_by_field_name("arguments"))
        {
            let mut c = args.walk();
            let shown: Vec<String> = args
                .named_children(&mut c)
                .filter(|x| x.kind() != "comment")
                .map(|x| text(x, src).split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            by_kernel.entry(format!("{name}<{}>", shown.join(", "))).or_default().push((call, g));
        }
        by_kernel.entry(name).or_default().push((call, g));
    }
    let mut out = BTreeMap::new();
    for (name, calls) in by_kernel {
        let mut l = Launches::default();
        let first = calls[0];
        let all_const = calls.iter().all(|(_, g)| g.is_some());
        let agree = calls.iter().all(|(_, g)| *g == first.1);
        match (first.1, all_const && agree) {
            (Some((grid, block)), true) => {
                l.geometry = Some((grid, block, span(first.0)));
                l.notes.push(note(
                    format!(
                        "kernel `{name}`: launch geometry --grid-dim {} --block-dim {} from this launch (the command line or a header line overrides it)",
                        dims(grid),
                        dims(block)
                    ),
                    span(first.0),
                ));
            }
            _ => {
                let (why, at) = match calls.iter().find(|(_, g)| g.is_none()) {
                    Some((c, _)) => ("its geometry is not a compile-time constant", span(*c)),
                    None => ("launches of it use different geometries", span(calls[1].0)),
                };
                l.notes.push(note(
                    format!("kernel `{name}`: launch geometry not taken from the file: {why}"),
                    at,
                ));
            }
        }
        out.insert(name, l);
    }
    out
}

fn dims(d: [u32; 3]) -> String {
    let n = if d[2] != 1 {
        3
    } else if d[1] != 1 {
        2
    } else {
        1
    };
    d[..n].iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// The launches that name template arguments (`reduce<512><<<g, b>>>(…)`): (kernel name, the
/// `template_argument_list`), in source order. Each is an instance of the template kernel.
pub(crate) fn template_launches<'t>(root: Node<'t>, src: &str) -> Vec<(String, Node<'t>)> {
    let mut found = Vec::new();
    collect(root, src, &mut found);
    found
        .into_iter()
        .filter_map(|(name, call, _)| {
            let f = call.child_by_field_name("function").filter(|f| f.kind() == "template_function")?;
            Some((name, f.child_by_field_name("arguments")?))
        })
        .collect()
}

/// Every launch: (kernel name, the call, its `kernel_call_syntax`).
fn collect<'t>(n: Node<'t>, src: &str, out: &mut Vec<(String, Node<'t>, Node<'t>)>) {
    if n.kind() == "call_expression" {
        let mut c = n.walk();
        let syntax = n.children(&mut c).find(|ch| ch.kind() == "kernel_call_syntax");
        if let (Some(syntax), Some(f)) = (syntax, n.child_by_field_name("function")) {
            let f = match f.kind() {
                "template_function" => f.child_by_field_name("name").unwrap_or(f),
                _ => f,
            };
            if f.kind() == "identifier" {
                out.push((text(f, src).to_string(), n, syntax));
            }
        }
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        collect(ch, src, out);
    }
}

/// (grid, block) of a launch when both are constant.
fn geometry(syntax: Node, call: Node, src: &str, file: &FileInfo) -> Option<([u32; 3], [u32; 3])> {
    let mut c = syntax.walk();
    let args: Vec<Node> = syntax.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
    let (grid, block) = (*args.first()?, *args.get(1)?);
    let func = enclosing_function(call)?;
    let scope = Scope { func, before: call.start_byte(), src, file };
    Some((scope.dim3(grid, 0)?, scope.dim3(block, 0)?))
}

fn enclosing_function(mut n: Node) -> Option<Node> {
    while n.kind() != "function_definition" {
        n = n.parent()?;
    }
    n.child_by_field_name("body")
}

/// The launching function's body, the launch's offset and the file's constants.
struct Scope<'a, 't> {
    func: Node<'t>,
    before: usize,
    src: &'a str,
    file: &'a FileInfo,
}

impl<'t> Scope<'_, 't> {
    /// A `dim3` or integer expression as three dimensions.
    fn dim3(&self, e: Node<'t>, depth: usize) -> Option<[u32; 3]> {
        if depth > 8 {
            return None;
        }
        match e.kind() {
            "parenthesized_expression" => self.dim3(e.named_child(0)?, depth + 1),
            "call_expression"
                if e.child_by_field_name("function").is_some_and(|f| text(f, self.src) == "dim3") =>
            {
                self.dims_of(e.child_by_field_name("arguments")?, depth)
            }
            "identifier" => match self.declaration(text(e, self.src)) {
                Some((ty, init)) if ty == "dim3" => self.dim3_init(init?, depth),
                _ => Some([self.int(e, depth)?, 1, 1]),
            },
            _ => Some([self.int(e, depth)?, 1, 1]),
        }
    }

    fn dim3_init(&self, init: Node<'t>, depth: usize) -> Option<[u32; 3]> {
        match init.kind() {
            // `dim3 b(N, M)` with names parses as a function declaration: `N`, `M` are types.
            "argument_list" | "initializer_list" | "parameter_list" => self.dims_of(init, depth),
            _ => self.dim3(init, depth + 1),
        }
    }

    /// `(x[, y[, z]])` or `{x, y, z}`: missing dimensions are 1.
    fn dims_of(&self, list: Node<'t>, depth: usize) -> Option<[u32; 3]> {
        let mut c = list.walk();
        let items: Vec<Node> = list.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
        if items.is_empty() || items.len() > 3 {
            return None;
        }
        let mut d = [1u32; 3];
        for (i, it) in items.iter().enumerate() {
            d[i] = self.int(*it, depth)?;
        }
        Some(d)
    }

    /// A positive integer constant.
    fn int(&self, e: Node<'t>, depth: usize) -> Option<u32> {
        if matches!(e.kind(), "parameter_declaration" | "type_identifier") {
            // A name read as a type in `dim3 b(N)`.
            let name = text(e, self.src).trim();
            let (ty, init) = self.declaration(name)?;
            if !ty.split_whitespace().any(|w| w == "const" || w == "constexpr") {
                return None;
            }
            return self.int(init?, depth + 1);
        }
        let mut resolve = |name: &str| -> Option<i64> {
            if depth > 8 {
                return None;
            }
            if let Some((ty, init)) = self.declaration(name) {
                if !(ty.split_whitespace().any(|w| w == "const" || w == "constexpr")) {
                    return None;
                }
                return self.int(init?, depth + 1).map(i64::from);
            }
            match self.file.macros.get(name) {
                Some(MacroVal::Const(v)) => Some(*v),
                _ => None,
            }
        };
        const_eval(e, self.src, &mut resolve).and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0)
    }

    /// The declaration of local `name` before the launch (type text with qualifiers, and
    /// initializer), when the function never assigns it.
    fn declaration(&self, name: &str) -> Option<(String, Option<Node<'t>>)> {
        let mut found = None;
        find_decl(self.func, name, self.before, self.src, &mut found);
        let (ty, init) = found?;
        (!assigned(self.func, name, self.src)).then_some((ty, init))
    }
}

fn find_decl<'t>(
    n: Node<'t>,
    name: &str,
    before: usize,
    src: &str,
    found: &mut Option<(String, Option<Node<'t>>)>,
) {
    if n.start_byte() >= before {
        return;
    }
    if n.kind() == "declaration" {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let (id, init) = match d.kind() {
                "init_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("value")),
                "function_declarator" => {
                    (d.child_by_field_name("declarator"), d.child_by_field_name("parameters"))
                }
                "identifier" => (Some(d), None),
                _ => (None, None),
            };
            if id.is_some_and(|i| i.kind() == "identifier" && text(i, src) == name) {
                let ty_end = d.start_byte();
                let ty = src.get(n.start_byte()..ty_end).unwrap_or("").trim().to_string();
                let ty = ty.split_whitespace().filter(|w| *w != "static").collect::<Vec<_>>().join(" ");
                let base = ty
                    .split_whitespace()
                    .filter(|w| !matches!(*w, "const" | "constexpr"))
                    .collect::<Vec<_>>()
                    .join(" ");
                let shown = if base == "dim3" { "dim3".to_string() } else { ty };
                *found = Some((shown, init));
            }
        }
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        find_decl(ch, name, before, src, found);
    }
}

/// Whether the function assigns `name` (or one of its fields, or takes its address).
fn assigned(n: Node, name: &str, src: &str) -> bool {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        "pointer_expression" if n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&") => {
            n.child_by_field_name("argument")
        }
        _ => None,
    };
    if let Some(t) = target {
        let base = text(t, src).split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
        if base == name {
            return true;
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| assigned(ch, name, src))
}
