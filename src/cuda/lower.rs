//! Lowering of one `__global__` kernel (a tree-sitter `function_definition`) to KPL.

use super::consts::{const_eval, parse_char, parse_number, sizeof_type, Lit, Ty};
use super::text::{block_start_place, braced_place, line_place};
use super::{span, text, FileInfo, MacroVal};
use crate::diag::Diagnostic;
use crate::kpl::ast::*;
use std::collections::{HashMap, HashSet, VecDeque};
use tree_sitter::Node;

type R<T> = Result<T, Diagnostic>;

/// Temporaries of a condition's first evaluation with their block depth (for replay).
type Recorded = Vec<(String, usize)>;

const INSIDE: &str = "inside a source statement";
const FOR_HEADER: &str = "inside a for header";
const LOOP_COND: &str = "inside a loop condition";

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
        "primitive_type" | "type_identifier" => match words.join(" ").as_str() {
            "int" | "char" | "short" | "long" | "bool" | "signed" | "int8_t" | "int16_t" | "int32_t"
            | "int64_t" | "ptrdiff_t" | "ssize_t" => Ok(Ty::Int),
            "unsigned" | "uint" | "size_t" | "uint8_t" | "uint16_t" | "uint32_t" | "uint64_t" | "uchar"
            | "ushort" => Ok(Ty::UInt),
            "float" | "double" => Ok(Ty::Float),
            other => Err(unsupported(format!("type `{other}` (only scalar integer and floating types)"), n)),
        },
        _ => Err(unsupported(
            format!("type `{t}` (structs, enums, templates and vector types are not modelled)"),
            n,
        )),
    }
}

/// A C name in scope.
#[derive(Clone, Debug)]
enum Binding {
    Var { kpl: String, ty: Ty },
    Array { kpl: String, elem: Ty, ndims: usize, scalar: bool },
}

/// Where the statement being lowered sits: normally in a braced block, or as the braceless body
/// of the compound statement starting at the given byte.
#[derive(Clone, Copy)]
enum Ctx {
    Normal,
    Body { parent_start: usize },
}

struct Lx<'a, 't> {
    src: &'a str,
    file: &'a FileInfo,
    places: Vec<Place>,
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
    /// The kernel body's last statement, where a plain `return;` is allowed.
    final_return: Option<Node<'t>>,
}

/// Lowers one kernel function definition.
pub(crate) fn lower_kernel(f: Node, src: &str, file: &FileInfo) -> R<Kernel> {
    let name = super::function_name(f, src).unwrap_or("kernel").to_string();
    let body =
        f.child_by_field_name("body").ok_or_else(|| Diagnostic::error("a kernel without a body", span(f)))?;
    let mut taken = HashSet::new();
    collect_idents(f, src, &mut taken);
    let mut lx = Lx {
        src,
        file,
        places: Vec::new(),
        arrays: Vec::new(),
        params: Vec::new(),
        scopes: vec![HashMap::new()],
        kpl_scopes: vec![HashSet::new()],
        taken,
        temp_counter: 0,
        out: Vec::new(),
        cur_span: span(body),
        depth: 0,
        record: None,
        replay: None,
        final_return: None,
    };
    let main = lx.label();
    lx.places[main.0 as usize] = Place::Not("the kernel body as a whole".into());
    let start = lx.label();
    lx.places[start.0 as usize] = block_start_place(src, body.start_byte(), first_stmt(body));
    lx.parameters(f, body)?;
    let mut c = body.walk();
    let children: Vec<Node> = body.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
    lx.final_return = children.last().copied().filter(|n| n.kind() == "return_statement");
    for ch in children {
        lx.stmt(ch, Ctx::Normal)?;
    }
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
    })
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

    /// Declares a C local: emits `local` (or reuses a dead KPL variable of the same name in the
    /// same KPL scope when there is an initializer) and binds the C name.
    fn declare_var(&mut self, cname: &str, ty: Ty, init: Option<Expr>) {
        let bound_live = self.scopes.iter().any(|s| {
            s.values()
                .any(|b| matches!(b, Binding::Var { kpl, .. } | Binding::Array { kpl, .. } if kpl == cname))
        });
        let reserved = crate::kpl::is_keyword(cname) || self.arrays.iter().any(|a| a.name == cname);
        let kpl = if !self.kpl_visible(cname) && !reserved {
            self.declare_kpl(cname);
            self.emit(StmtKind::Local { name: cname.to_string(), init });
            cname.to_string()
        } else if !bound_live && !reserved && init.is_some() && self.kpl_visible(cname) {
            if let Some(e) = init {
                self.emit(StmtKind::Assign { name: cname.to_string(), value: e });
            }
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
            let ty = scalar_type(ty_node, self.src)?;
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
                let children: Vec<Node> = n.named_children(&mut c).collect();
                let r = children.into_iter().try_for_each(|ch| self.stmt(ch, Ctx::Normal));
                self.scopes.pop();
                r
            }
            "if_statement" => self.if_stmt(n, ctx),
            "while_statement" => self.while_stmt(n, ctx),
            "for_statement" => self.for_stmt(n, ctx),
            "do_statement" => self.do_stmt(n, ctx),
            "return_statement" => {
                if self.final_return == Some(n) && n.named_child_count() == 0 {
                    Ok(())
                } else {
                    Err(unsupported("`return` inside a kernel (early exit) is not supported yet", n)
                        .with_label("early exit")
                        .with_note("only a final `return;` at the end of the kernel body is accepted"))
                }
            }
            "break_statement" => Err(unsupported("`break` is not supported yet", n).with_label("loop exit")),
            "continue_statement" => {
                Err(unsupported("`continue` is not supported yet", n).with_label("loop jump"))
            }
            "goto_statement" => Err(unsupported("`goto`", n)),
            "labeled_statement" => Err(unsupported("statement labels (`goto` targets)", n)),
            "switch_statement" => Err(unsupported("`switch` is not supported yet", n)
                .with_note("rewrite it as an `if`/`else` chain")),
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

    /// Lowers the body of a compound statement into the current (fresh) statement list. Returns
    /// the place of the block's start node.
    fn body(&mut self, b: Node<'t>, parent: Node) -> R<Place> {
        if b.kind() == "compound_statement" {
            let place = block_start_place(self.src, b.start_byte(), first_stmt(b));
            let mut c = b.walk();
            let children: Vec<Node> = b.named_children(&mut c).collect();
            for ch in children {
                self.stmt(ch, Ctx::Normal)?;
            }
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
        let cond = self.cond(cn)?;
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
    /// placeable. A missing condition is `1`.
    fn loop_stmt(&mut self, n: Node<'t>, ctx: Ctx, cn: Option<Node<'t>>, update: Option<Node<'t>>) -> R<()> {
        let (cond, reads, rec) = match cn {
            Some(cn) => {
                self.cur_span = span(cn);
                self.loop_cond(cn)?
            }
            None => (Expr::Const(1), false, Vec::new()),
        };
        let l = self.label();
        let bs = self.label();
        let body_node =
            n.child_by_field_name("body").ok_or_else(|| unsupported("a loop without a body", n))?;
        let (stmts, bplace) = self.nested(|s| {
            let p = s.body(body_node, n)?;
            if let Some(u) = update {
                let from = s.places.len();
                s.cur_span = span(u);
                s.effect(u)?;
                s.mark_from(from, FOR_HEADER);
            }
            if let (true, Some(cn)) = (reads, cn) {
                s.recond(cn, &cond, rec)?;
            }
            Ok(p)
        })?;
        self.set_place(bs, bplace);
        let p = self.place_after(n, ctx);
        self.set_place(l, p);
        let body = Block { label: l, start: bs, stmts, span: span(body_node) };
        self.out.push(Stmt { label: l, kind: StmtKind::While { cond, body }, span: span(n) });
        Ok(())
    }

    /// `do B while (c);` → `local d := 1; while (d) { B; d := c; }`.
    fn do_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.cur_span = span(n);
        let flag = self.temp(Some(Expr::Const(1)));
        let l = self.label();
        let bs = self.label();
        let body_node = n.child_by_field_name("body").ok_or_else(|| unsupported("`do` without a body", n))?;
        let (stmts, bplace) = self.nested(|s| {
            let p = s.body(body_node, n)?;
            let from = s.places.len();
            s.cur_span = span(cn);
            let c = s.cond(cn)?;
            s.emit(StmtKind::Assign { name: flag.clone(), value: c });
            s.mark_from(from, LOOP_COND);
            Ok(p)
        })?;
        self.set_place(bs, bplace);
        let p = self.place_after(n, ctx);
        self.set_place(l, p);
        let body = Block { label: l, start: bs, stmts, span: span(body_node) };
        self.out.push(Stmt {
            label: l,
            kind: StmtKind::While { cond: Expr::Var(flag), body },
            span: span(n),
        });
        Ok(())
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
        let ty = scalar_type(ty_node, self.src)?;
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

    fn bad_declarator(&self, d: Node) -> Diagnostic {
        match d.kind() {
            "array_declarator" => unsupported("thread-local arrays", d)
                .with_note("only `__shared__` arrays, global pointer parameters and file-scope `__device__` arrays are modelled"),
            "pointer_declarator" => unsupported("pointer variables (pointer aliases are not modelled)", d)
                .with_note("index the parameter or shared array directly"),
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
                    let v = const_eval(s, self.src, &mut |name| self.macro_value(name))
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
        self.add_array(&cname, Space::Shared, ty, dims, scalar, span(d));
        Ok(())
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
            k => Err(unsupported(format!("expression `{}` ({k})", text(n, src)), n)),
        }
    }

    fn type_descriptor(&self, n: Node) -> R<Ty> {
        if n.child_by_field_name("declarator").is_some() {
            return Err(unsupported(format!("cast to `{}` (pointer casts)", text(n, self.src)), n));
        }
        let t = n.child_by_field_name("type").ok_or_else(|| unsupported("type", n))?;
        scalar_type(t, self.src)
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
                Some(Binding::Var { ty, .. }) => *ty,
                Some(Binding::Array { elem, .. }) => *elem,
                None => self
                    .file
                    .arrays
                    .iter()
                    .find(|a| a.name == text(n, src))
                    .map(|a| a.elem)
                    .unwrap_or(Ty::Int),
            },
            "field_expression" => Ty::UInt,
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
                    "umin" | "umax" | "__umul24" => Ty::UInt,
                    "min" | "max" => args.iter().copied().fold(Ty::Int, common),
                    _ if atomic_op(f).is_some() => args.first().copied().unwrap_or(Ty::Int),
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
            Some(Binding::Array { kpl, elem, scalar: true, .. }) => {
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array: kpl, index: vec![Expr::Const(0)] });
                Ok((Expr::Var(t), elem))
            }
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

    /// Brings a file-scope array into the kernel if one has this name.
    fn file_array(&mut self, name: &str) -> bool {
        let Some(a) = self.file.arrays.iter().find(|a| a.name == name).cloned() else { return false };
        self.add_array(&a.name, a.space, a.elem, a.dims, a.scalar, a.span);
        true
    }

    fn field(&mut self, n: Node) -> R<(Expr, Ty)> {
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
                        "member access `{}` (structs and vector types are not modelled)",
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

    /// Resolves `a[i][j]` (or a shared scalar `s`) to (array, index, element type), lowering the
    /// index expressions left to right.
    fn access(&mut self, n: Node) -> R<(String, Vec<Expr>, Ty)> {
        let n = strip_parens(n);
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
            return Err(unsupported(
                format!("indexing `{}` (only named arrays can be indexed)", text(base, self.src)),
                base,
            ));
        }
        let name = text(base, self.src);
        if self.lookup(name).is_none() {
            self.file_array(name);
        }
        let (kpl, elem, ndims, scalar) = match self.lookup(name).cloned() {
            Some(Binding::Array { kpl, elem, ndims, scalar }) => (kpl, elem, ndims, scalar),
            Some(Binding::Var { .. }) => {
                return Err(unsupported(format!("indexing the scalar `{name}`"), base))
            }
            None => {
                return Err(Diagnostic::error(format!("unknown array `{name}`"), span(base))
                    .with_label("not a pointer parameter or array"))
            }
        };
        if scalar {
            if !idx_nodes.is_empty() {
                return Err(unsupported(format!("indexing the scalar `{name}`"), n));
            }
            return Ok((kpl, vec![Expr::Const(0)], elem));
        }
        if idx_nodes.len() != ndims {
            return Err(unsupported(
                format!("`{name}` has {ndims} dimension(s) but is indexed with {} (row pointers are not modelled)", idx_nodes.len()),
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
        Ok((kpl, index, elem))
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
        self.check_lvalue(l)?;
        let bin = op.strip_suffix('=').unwrap_or("");
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
        let f = n.child_by_field_name("function").ok_or_else(|| unsupported("call", n))?;
        let fname = text(f, self.src).to_string();
        let args = self.args(n);
        if f.kind() != "identifier" {
            return Err(unsupported(format!("call of `{fname}`"), n));
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
                return Err(unsupported("`__syncwarp` (warp-level barriers are not modelled yet)", n))
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                return Err(unsupported(format!("`{fname}` (barriers with a reduction)"), n))
            }
            "atomicCAS" => return Err(unsupported("`atomicCAS` is not supported yet", n)),
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
            let ptr = strip_parens(args[0]);
            let target = if ptr.kind() == "pointer_expression"
                && ptr.child_by_field_name("operator").is_some_and(|o| o.kind() == "&")
            {
                ptr.child_by_field_name("argument").ok_or_else(|| unsupported("atomic target", ptr))?
            } else {
                return Err(unsupported(
                    format!(
                        "atomic on `{}` (the target must be written `&a[i]` or `&s`)",
                        text(ptr, self.src)
                    ),
                    ptr,
                ));
            };
            let target = strip_parens(target);
            if target.kind() == "identifier" {
                let name = text(target, self.src);
                if self.lookup(name).is_none() {
                    self.file_array(name);
                }
                if !matches!(self.lookup(name), Some(Binding::Array { scalar: true, .. })) {
                    return Err(unsupported(
                        format!("atomic on `&{name}` (only arrays and shared/device scalars)"),
                        target,
                    ));
                }
            } else if target.kind() != "subscript_expression" {
                return Err(unsupported(format!("atomic on `&{}`", text(target, self.src)), target));
            }
            let (array, index, elem) = self.access(target)?;
            let (v, _) = self.expr(args[1])?;
            let dst = if used { Some(self.temp(None)) } else { None };
            self.emit(StmtKind::Atomic { dst: dst.clone(), op, array, index, value: v });
            return Ok(Some((dst.map(Expr::Var).unwrap_or(Expr::Const(0)), elem)));
        }
        if fname.starts_with("atomic") {
            return Err(unsupported(format!("atomic `{fname}`"), n));
        }
        if fname.starts_with("__") {
            return Err(unsupported(format!("intrinsic `{fname}`"), n));
        }
        Err(unsupported(format!("call to `{fname}` (device functions are not inlined yet)"), n)
            .with_note("inline the function body into the kernel by hand"))
    }
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
