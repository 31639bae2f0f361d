//! Values of host variables where a launch reads them: a conservative reaching-definitions
//! evaluation over the syntax tree of the launching function.
//!
//! A *slot* is an integer local or parameter, or one field (`x`, `y`, `z`) of a `dim3` one. Its
//! value at a point `L` of its function is known when
//! - the function declares the name once (or it is a parameter: then every call of the function
//!   in the file must pass the same known value, and the function is used only by such calls),
//! - the last definition before `L` that *dominates* `L` (a statement of a `{…}` block around
//!   `L`, not a `switch` body, in a function without `goto`) has a known value, and
//! - every other definition that may run between it and `L` — textually between them, or later
//!   in a loop around `L` — has that same value.
//!
//! Definitions are declarations with an initializer (`dim3 b;` is (1, 1, 1)), assignments
//! (`n = …`, `b.x = …`, `b = dim3(…)`, compound ones from the value before them), and — with no
//! known value — `++`/`--`, taking the address (`&n`), passing the name to a file function's
//! reference parameter, `std::swap` or a stream `>>`. Anything else that could change a local is
//! outside C++ (no aliasing of a local without its address). Values are checked C arithmetic on
//! 64 bits ([`super::super::consts::binary`]); every recursion is bounded by [`MAX_DEPTH`].

use super::super::consts::{binary, const_eval};
use super::super::{text, FileInfo, MacroVal};
use tree_sitter::Node;

/// How deep definitions may refer to definitions (and call sites to call sites).
const MAX_DEPTH: usize = 12;

/// How many slot evaluations one file's launches may take (then values are unknown).
pub(crate) const STEP_BUDGET: usize = 20_000;

pub(crate) use crate::launch_facts::Dims;

/// The file's host code, for evaluating launch arguments.
pub(crate) struct Host<'a, 't> {
    pub root: Node<'t>,
    pub src: &'a str,
    pub file: &'a FileInfo,
    /// Slot evaluations left ([`STEP_BUDGET`]).
    pub steps: std::cell::Cell<usize>,
}

/// How a name is typed where it is declared.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Dim3,
    Int,
    Other,
}

/// One definition of a slot.
struct Def<'t> {
    /// The node whose position orders it (the declaration, assignment, update, …).
    at: Node<'t>,
    what: DefValue<'t>,
}

enum DefValue<'t> {
    /// The value of this expression, evaluated where the definition is.
    Expr(Node<'t>),
    /// A `dim3` initializer list or constructor arguments: item `i` (missing items are 1).
    Items(Node<'t>, usize),
    /// A known constant (a `dim3` default).
    Const(i64),
    /// `slot op= rhs`.
    Compound(&'static str, Node<'t>),
    /// The parameter's value on entry: agreed by every call of the function.
    Param(usize),
    Unknown,
}

impl<'t> Host<'_, 't> {
    /// The integer value of `e`, an expression of the function with body `func`.
    pub fn int(&self, func: Node<'t>, e: Node<'t>, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut resolve = |name: &str| -> Option<i64> {
            let (base, field) = match name.split_once('.') {
                Some((b, f)) => (b, Some(field_index(f)?)),
                None => (name, None),
            };
            if base.contains(['-', '>', ':']) {
                return None;
            }
            self.slot(func, base, field, e, depth + 1)
        };
        const_eval(e, self.src, &mut resolve)
    }

    /// The value the local or constant `name` has at `at` in the function with body `func`.
    pub fn name_value(&self, func: Node<'t>, name: &str, at: Node<'t>) -> Option<i64> {
        self.slot(func, name, None, at, 1)
    }

    /// The three dimensions of a launch argument `e` (a `dim3` or an integer).
    pub fn dims(&self, func: Node<'t>, e: Node<'t>, depth: usize) -> Dims {
        const UNKNOWN: Dims = [None; 3];
        if depth > MAX_DEPTH {
            return UNKNOWN;
        }
        match e.kind() {
            "parenthesized_expression" => match e.named_child(0) {
                Some(i) => self.dims(func, i, depth + 1),
                None => UNKNOWN,
            },
            "call_expression"
                if e.child_by_field_name("function").is_some_and(|f| text(f, self.src) == "dim3") =>
            {
                match e.child_by_field_name("arguments") {
                    Some(list) => std::array::from_fn(|i| self.item(func, list, i, depth)),
                    None => UNKNOWN,
                }
            }
            "initializer_list" | "compound_literal_expression" => {
                let list =
                    if e.kind() == "initializer_list" { Some(e) } else { e.child_by_field_name("value") };
                match list {
                    Some(list) => std::array::from_fn(|i| self.item(func, list, i, depth)),
                    None => UNKNOWN,
                }
            }
            "identifier" => match self.kind_of(func, text(e, self.src), e) {
                Kind::Dim3 => {
                    let name = text(e, self.src);
                    std::array::from_fn(|i| self.slot(func, name, Some(i), e, depth + 1))
                }
                Kind::Int => [self.int(func, e, depth), Some(1), Some(1)],
                Kind::Other => UNKNOWN,
            },
            "conditional_expression" => {
                let (Some(a), Some(b)) =
                    (e.child_by_field_name("consequence"), e.child_by_field_name("alternative"))
                else {
                    return UNKNOWN;
                };
                let c = e.child_by_field_name("condition").and_then(|c| self.int(func, c, depth + 1));
                let (da, db) = (self.dims(func, a, depth + 1), self.dims(func, b, depth + 1));
                match c {
                    Some(0) => db,
                    Some(_) => da,
                    None => std::array::from_fn(|i| da[i].filter(|v| db[i] == Some(*v))),
                }
            }
            // Expressions of integer type only: `dim3` has no arithmetic.
            "number_literal" | "binary_expression" | "unary_expression" | "cast_expression"
            | "sizeof_expression" => [self.int(func, e, depth), Some(1), Some(1)],
            _ => UNKNOWN,
        }
    }

    /// Item `i` of a `dim3` constructor's arguments or initializer list; missing items are 1.
    fn item(&self, func: Node<'t>, list: Node<'t>, i: usize, depth: usize) -> Option<i64> {
        let items = named(list);
        if items.is_empty() || items.len() > 3 {
            return None;
        }
        match items.get(i) {
            None => Some(1),
            // `dim3 b(N, M)` with names parses as a function declarator: `N`, `M` are types.
            Some(it) if matches!(it.kind(), "parameter_declaration" | "type_identifier") => {
                let name = text(*it, self.src).trim();
                let ident = name.chars().all(|c| c.is_alphanumeric() || c == '_');
                ident.then(|| self.slot(func, name, None, *it, depth + 1)).flatten()
            }
            Some(it) => self.int(func, *it, depth + 1),
        }
    }

    /// How `name` is declared where `at` reads it in `func` (or as its parameter, or at file
    /// scope).
    fn kind_of(&self, func: Node<'t>, name: &str, at: Node<'t>) -> Kind {
        let (_, decls) = self.scope_of(func, name, at);
        let ty = match decls.as_slice() {
            [(ty, _)] => ty.clone(),
            [] => match parameter(func, name, self.src) {
                Some((_, ty, _)) => ty,
                None if matches!(self.file.macros.get(name), Some(MacroVal::Const(_))) => return Kind::Int,
                None => return Kind::Other,
            },
            _ => return Kind::Other,
        };
        type_kind(&ty)
    }

    /// Where the declaration of `name` that `at` sees lies: `func` when it declares `name` at most
    /// once, else the innermost `{…}` around `at` with a declaration statement of `name` before
    /// `at` (C's scoping: `dim3 block(16, 16);` and `dim3 block(32, 32);` in two branches are two
    /// variables). Within that block the name means that declaration unless the block declares it
    /// again (then the lookup finds two declarations and gives up, as for `func`). With the
    /// declarations of `name` in that scope.
    fn scope_of(&self, func: Node<'t>, name: &str, at: Node<'t>) -> (Node<'t>, Vec<(String, Node<'t>)>) {
        let mut all = Vec::new();
        declarations(func, name, self.src, &mut all);
        if all.len() < 2 {
            return (func, all);
        }
        let mut n = at;
        while n.id() != func.id() {
            let Some(p) = n.parent() else { break };
            if p.kind() == "compound_statement" {
                let mut c = p.walk();
                let declares = p.named_children(&mut c).any(|s| {
                    let mut d = Vec::new();
                    if s.kind() == "declaration" && s.end_byte() <= at.start_byte() {
                        declarations(s, name, self.src, &mut d);
                    }
                    !d.is_empty()
                });
                if declares {
                    let mut in_scope = Vec::new();
                    declarations(p, name, self.src, &mut in_scope);
                    return (p, in_scope);
                }
            }
            n = p;
        }
        (func, all)
    }

    /// The value of slot `name` (field `field` of a `dim3`) just before `at` in `func`.
    fn slot(
        &self,
        func: Node<'t>,
        name: &str,
        field: Option<usize>,
        at: Node<'t>,
        depth: usize,
    ) -> Option<i64> {
        if depth > MAX_DEPTH || self.steps.get() == 0 {
            return None;
        }
        self.steps.set(self.steps.get() - 1);
        // Declarations and stores of `name` are looked up in its scope; the values they store
        // are still read in the whole function.
        let (scope, decls) = self.scope_of(func, name, at);
        let param = if scope.id() == func.id() { parameter(func, name, self.src) } else { None };
        let kind = match (decls.as_slice(), &param) {
            ([(ty, _)], None) => type_kind(ty),
            ([], Some((_, ty, _))) => type_kind(ty),
            ([], None) => {
                // A file-scope constant (a non-`const` global may change anywhere).
                return match (field, self.file.macros.get(name)) {
                    (None, Some(MacroVal::Const(v))) if !mentions_definition(func, name, self.src) => {
                        Some(*v)
                    }
                    _ => None,
                };
            }
            _ => return None,
        };
        if (kind == Kind::Dim3) != field.is_some() || kind == Kind::Other {
            return None;
        }
        let mut defs = Vec::new();
        if let Some((index, ty, _)) = &param {
            if ty.contains('&') {
                return None;
            }
            defs.push(Def { at: func, what: DefValue::Param(*index) });
        }
        for (_, d) in &decls {
            defs.push(declaration_def(*d, field, self.src));
        }
        definitions(scope, name, field, self, &mut defs);
        let value = self.reaching(func, &defs, at, depth)?;
        let ok = match field {
            Some(_) => (1..=i64::from(u32::MAX)).contains(&value),
            None => (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&value),
        };
        ok.then_some(value)
    }

    /// Whether every definition of local or parameter `name` of `func` lies before offset `pos`
    /// (so the name reads the same value anywhere from `pos` on), and there is one declaration.
    pub fn settled_before(&self, func: Node<'t>, name: &str, pos: usize) -> bool {
        let mut decls = Vec::new();
        declarations(func, name, self.src, &mut decls);
        let param = parameter(func, name, self.src);
        match (decls.len(), &param) {
            (1, None) => {}
            (0, Some((_, ty, _))) if !ty.contains('&') => {}
            _ => return false,
        }
        let mut defs = Vec::new();
        for (_, d) in &decls {
            defs.push(declaration_def(*d, None, self.src));
        }
        definitions(func, name, None, self, &mut defs);
        defs.iter().all(|d| d.at.end_byte() <= pos)
    }

    /// The one definition of `dim3` local `name` of `func` when it is its declaration with
    /// constructor arguments or an initializer list (and nothing else defines any field):
    /// the list of items.
    pub fn only_dim3_items(&self, func: Node<'t>, name: &str) -> Option<Node<'t>> {
        let mut decls = Vec::new();
        declarations(func, name, self.src, &mut decls);
        let [(ty, d)] = decls.as_slice() else { return None };
        if type_kind(ty) != Kind::Dim3 {
            return None;
        }
        let mut defs = Vec::new();
        for f in 0..3 {
            definitions(func, name, Some(f), self, &mut defs);
        }
        if !defs.is_empty() {
            return None;
        }
        match d.kind() {
            "init_declarator" => {
                let v = d.child_by_field_name("value")?;
                match v.kind() {
                    "argument_list" | "initializer_list" => Some(v),
                    "call_expression"
                        if v.child_by_field_name("function").is_some_and(|f| text(f, self.src) == "dim3") =>
                    {
                        v.child_by_field_name("arguments")
                    }
                    _ => None,
                }
            }
            "function_declarator" => d.child_by_field_name("parameters"),
            _ => None,
        }
    }

    /// The initializer of integer local `name` of `func` when its declaration is its one
    /// definition.
    pub fn only_int_init(&self, func: Node<'t>, name: &str) -> Option<Node<'t>> {
        let mut decls = Vec::new();
        declarations(func, name, self.src, &mut decls);
        let [(ty, d)] = decls.as_slice() else { return None };
        let mut defs = Vec::new();
        definitions(func, name, None, self, &mut defs);
        (type_kind(ty) == Kind::Int && defs.is_empty() && d.kind() == "init_declarator")
            .then(|| d.child_by_field_name("value"))
            .flatten()
            .filter(|v| !matches!(v.kind(), "argument_list" | "initializer_list"))
    }

    /// The value the definitions give at `at` (see the module comment).
    fn reaching(&self, func: Node<'t>, defs: &[Def<'t>], at: Node<'t>, depth: usize) -> Option<i64> {
        let pos = at.start_byte();
        let before = |d: &Def| d.at.start_byte() < pos && d.at.end_byte() <= pos || d.at.id() == func.id();
        let in_loop_with = |d: &Def| d.at.start_byte() >= pos && common_loop(d.at, at);
        // A definition around `at` (`n = n * 2` read at its right side) is not before it.
        let around =
            |d: &Def| d.at.id() != func.id() && d.at.start_byte() <= pos && at.end_byte() <= d.at.end_byte();
        let no_goto = !contains_kind(func, &["goto_statement", "labeled_statement"]);
        let dominator = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| before(d) && no_goto && dominates(d.at, at, func))
            .max_by_key(|(_, d)| if d.at.id() == func.id() { 0 } else { d.at.start_byte() + 1 })?;
        let (di, d) = dominator;
        let from = if d.at.id() == func.id() { 0 } else { d.at.start_byte() };
        let value = self.def_value(func, d, depth)?;
        for (i, other) in defs.iter().enumerate() {
            if i == di || around(other) {
                continue;
            }
            let between = before(other) && other.at.id() != func.id() && other.at.start_byte() > from;
            if (between || in_loop_with(other)) && self.def_value(func, other, depth)? != value {
                return None;
            }
        }
        Some(value)
    }

    fn def_value(&self, func: Node<'t>, d: &Def<'t>, depth: usize) -> Option<i64> {
        match d.what {
            DefValue::Expr(e) => self.int(func, e, depth + 1),
            DefValue::Items(list, i) => self.item(func, list, i, depth + 1),
            DefValue::Const(v) => Some(v),
            DefValue::Compound(op, rhs) => {
                let target = d.at.child_by_field_name("left")?;
                let (name, field) = slot_of(target, self.src)?;
                let old = self.slot(func, &name, field, d.at, depth + 1)?;
                let r = self.int(func, rhs, depth + 1)?;
                binary(op, old, r).ok()
            }
            DefValue::Param(index) => self.argument(func, index, depth + 1),
            DefValue::Unknown => None,
        }
    }

    /// The value every call of the function with body `func` passes as argument `index`; `None`
    /// when the function has no call, is used other than by calls, or two calls differ.
    fn argument(&self, func: Node<'t>, index: usize, depth: usize) -> Option<i64> {
        let name = function_name(func, self.src)?;
        if name == "main" {
            return None;
        }
        let mut uses = Vec::new();
        identifiers(self.root, &name, self.src, &mut uses);
        let mut value = None;
        for u in uses {
            let parent = u.parent()?;
            if parent.kind() == "function_declarator" {
                continue;
            }
            if parent.kind() != "call_expression" || parent.child_by_field_name("function")?.id() != u.id() {
                return None;
            }
            let caller = enclosing_body(parent)?;
            let args = named(parent.child_by_field_name("arguments")?);
            let v = self.int(caller, *args.get(index)?, depth + 1)?;
            if value.is_some_and(|w| w != v) {
                return None;
            }
            value = Some(v);
        }
        value
    }
}

/// `x`, `y`, `z` as 0, 1, 2.
fn field_index(f: &str) -> Option<usize> {
    match f.trim() {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

/// The named children of a node, comments left out.
pub(crate) fn named(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).filter(|x| x.kind() != "comment").collect()
}

fn type_kind(ty: &str) -> Kind {
    const INT_WORDS: &[&str] = &[
        "int",
        "unsigned",
        "signed",
        "long",
        "short",
        "size_t",
        "uint",
        "uint32_t",
        "int32_t",
        "int64_t",
        "uint64_t",
        "const",
        "constexpr",
        "static",
        "register",
    ];
    let words: Vec<&str> = ty.split_whitespace().collect();
    if words.contains(&"dim3")
        && words.iter().all(|w| matches!(*w, "dim3" | "const" | "constexpr" | "static"))
    {
        Kind::Dim3
    } else if !words.is_empty() && words.iter().all(|w| INT_WORDS.contains(w)) {
        Kind::Int
    } else {
        Kind::Other
    }
}

/// Whether an integer parameter type (for argument facts): `int`, `unsigned`, `size_t`, ….
pub(crate) fn is_int_type(ty: &str) -> bool {
    type_kind(ty) == Kind::Int
}

/// The body of the function around `n`.
pub(crate) fn enclosing_body(mut n: Node) -> Option<Node> {
    while n.kind() != "function_definition" {
        n = n.parent()?;
    }
    n.child_by_field_name("body")
}

/// The name of the function whose body is `body`.
fn function_name(body: Node, src: &str) -> Option<String> {
    let f = body.parent()?;
    let mut d = f.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = d.child_by_field_name("declarator")?;
    }
    let id = d.child_by_field_name("declarator")?;
    (id.kind() == "identifier").then(|| text(id, src).to_string())
}

/// Parameter `name` of the function with body `body`: (index, type text with declarator marks).
fn parameter<'t>(body: Node<'t>, name: &str, src: &str) -> Option<(usize, String, Node<'t>)> {
    let f = body.parent()?;
    let mut d = f.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = d.child_by_field_name("declarator")?;
    }
    let params = named(d.child_by_field_name("parameters")?);
    for (i, p) in params.iter().enumerate() {
        let (Some(ty), Some(decl)) = (p.child_by_field_name("type"), p.child_by_field_name("declarator"))
        else {
            continue;
        };
        let (id, marks) = match decl.kind() {
            "identifier" => (decl, ""),
            "reference_declarator" => (named(decl).into_iter().find(|x| x.kind() == "identifier")?, "&"),
            _ => continue,
        };
        if text(id, src) == name {
            let quals: String = {
                let mut c = p.walk();
                p.children(&mut c)
                    .filter(|x| x.kind() == "type_qualifier")
                    .map(|x| text(x, src).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            return Some((i, format!("{quals} {} {marks}", text(ty, src)), *p));
        }
    }
    None
}

/// Every declaration of `name` under `n`: (type text, declarator node).
fn declarations<'t>(n: Node<'t>, name: &str, src: &str, out: &mut Vec<(String, Node<'t>)>) {
    if n.kind() == "declaration" {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let id = match d.kind() {
                "init_declarator" | "function_declarator" => d.child_by_field_name("declarator"),
                "identifier" => Some(d),
                _ => None,
            };
            if id.is_some_and(|i| i.kind() == "identifier" && text(i, src) == name) {
                // The specifiers before the first declarator (`int a = 1, b = 2;` types `b` too).
                let ty_end = n.child_by_field_name("type").map_or(d.start_byte(), |t| t.end_byte());
                let ty = src.get(n.start_byte()..ty_end).unwrap_or("").trim().to_string();
                out.push((ty, d));
            }
        }
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        declarations(ch, name, src, out);
    }
}

/// The definition a declarator makes of the slot.
fn declaration_def<'t>(d: Node<'t>, field: Option<usize>, src: &str) -> Def<'t> {
    let what = match (d.kind(), field) {
        ("init_declarator", None) => d.child_by_field_name("value").map_or(DefValue::Unknown, DefValue::Expr),
        ("init_declarator", Some(i)) => match d.child_by_field_name("value") {
            Some(v) if matches!(v.kind(), "argument_list" | "initializer_list") => DefValue::Items(v, i),
            Some(v) => dim3_value(v, i, src),
            None => DefValue::Const(1),
        },
        // `dim3 b(N, M)` read as a function declarator.
        ("function_declarator", Some(i)) => {
            d.child_by_field_name("parameters").map_or(DefValue::Unknown, |p| DefValue::Items(p, i))
        }
        // `dim3 b;` is (1, 1, 1); `int n;` has no value.
        ("identifier", Some(_)) => DefValue::Const(1),
        _ => DefValue::Unknown,
    };
    Def { at: d.parent().unwrap_or(d), what }
}

/// Field `i` of a `dim3` value expression (a constructor call or an integer).
fn dim3_value<'t>(v: Node<'t>, i: usize, src: &str) -> DefValue<'t> {
    match v.kind() {
        "call_expression" => match (v.child_by_field_name("function"), v.child_by_field_name("arguments")) {
            (Some(f), Some(args)) if text(f, src) == "dim3" => DefValue::Items(args, i),
            _ => DefValue::Unknown,
        },
        "number_literal" | "binary_expression" if i == 0 => DefValue::Expr(v),
        "number_literal" | "binary_expression" => DefValue::Const(1),
        "initializer_list" => DefValue::Items(v, i),
        _ => DefValue::Unknown,
    }
}

/// The slot an assignment target names: `n` or `b.x`.
fn slot_of(t: Node, src: &str) -> Option<(String, Option<usize>)> {
    match t.kind() {
        "identifier" => Some((text(t, src).to_string(), None)),
        "field_expression" => {
            let arg = t.child_by_field_name("argument")?;
            let f = t.child_by_field_name("field")?;
            (arg.kind() == "identifier" && !text(t, src).contains("->"))
                .then(|| Some((text(arg, src).to_string(), Some(field_index(text(f, src))?))))?
        }
        "parenthesized_expression" => slot_of(t.named_child(0)?, src),
        _ => None,
    }
}

/// Every definition of the slot under `n` other than declarations.
fn definitions<'t>(
    n: Node<'t>,
    name: &str,
    field: Option<usize>,
    host: &Host<'_, 't>,
    out: &mut Vec<Def<'t>>,
) {
    let src = host.src;
    let is_name = |t: Node| slot_of(t, src).is_some_and(|(b, _)| b == name);
    match n.kind() {
        "assignment_expression" => {
            if let Some(left) = n.child_by_field_name("left").filter(|l| is_name(*l)) {
                let (_, f) = slot_of(left, src).unwrap_or_default();
                let op = n.child_by_field_name("operator").map(|o| text(o, src)).unwrap_or("");
                let right = n.child_by_field_name("right");
                let what = match (f, field, right) {
                    // Another field of the same `dim3`: not this slot.
                    (Some(a), Some(b), _) if a != b => None,
                    (_, _, None) => Some(DefValue::Unknown),
                    (None, Some(i), Some(r)) if op == "=" => Some(dim3_value(r, i, src)),
                    (None, Some(_), Some(_)) => Some(DefValue::Unknown),
                    (_, _, Some(r)) => Some(match op {
                        "=" => DefValue::Expr(r),
                        _ => compound(op).map_or(DefValue::Unknown, |o| DefValue::Compound(o, r)),
                    }),
                };
                if let Some(what) = what {
                    out.push(Def { at: n, what });
                }
            }
        }
        "update_expression" if n.child_by_field_name("argument").is_some_and(is_name) => {
            out.push(Def { at: n, what: DefValue::Unknown });
        }
        "pointer_expression"
            if n.child_by_field_name("operator").is_some_and(|o| text(o, src) == "&")
                && n.child_by_field_name("argument").is_some_and(is_name) =>
        {
            out.push(Def { at: n, what: DefValue::Unknown });
        }
        // `std::cin >> n`.
        "binary_expression"
            if n.child_by_field_name("operator").is_some_and(|o| text(o, src) == ">>")
                && n.child_by_field_name("right").is_some_and(is_name)
                && !n.child_by_field_name("left").is_some_and(|l| host.int_like(l)) =>
        {
            out.push(Def { at: n, what: DefValue::Unknown });
        }
        "call_expression" => {
            if let (Some(f), Some(args)) =
                (n.child_by_field_name("function"), n.child_by_field_name("arguments"))
            {
                let callee = text(f, src);
                for (i, a) in named(args).into_iter().enumerate() {
                    if is_name(a) && host.by_reference(callee, i) {
                        out.push(Def { at: n, what: DefValue::Unknown });
                    }
                }
            }
        }
        _ => {}
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        definitions(ch, name, field, host, out);
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

impl<'t> Host<'_, 't> {
    /// Whether argument `i` of a call of `callee` may be bound to a reference: a function of the
    /// file whose parameter `i` is a reference (any overload), or `swap`.
    fn by_reference(&self, callee: &str, i: usize) -> bool {
        let base = callee.rsplit("::").next().unwrap_or(callee);
        if base == "swap" {
            return true;
        }
        let mut found = false;
        each_function(self.root, &mut |f| {
            let Some(body) = f.child_by_field_name("body") else { return };
            if function_name(body, self.src).as_deref() != Some(base) {
                return;
            }
            let mut d = f.child_by_field_name("declarator");
            while let Some(x) = d.filter(|x| x.kind() != "function_declarator") {
                d = x.child_by_field_name("declarator");
            }
            if let Some(p) = d.and_then(|d| d.child_by_field_name("parameters")) {
                if named(p).get(i).is_some_and(|p| text(*p, self.src).contains('&')) {
                    found = true;
                }
            }
        });
        found
    }

    /// Whether `n` is an integer expression (so `a >> n` is a shift, not a stream read).
    fn int_like(&self, n: Node) -> bool {
        matches!(n.kind(), "number_literal" | "binary_expression" | "parenthesized_expression")
            || (n.kind() == "identifier" && {
                let name = text(n, self.src);
                match enclosing_body(n) {
                    Some(func) => self.kind_of(func, name, n) == Kind::Int,
                    None => false,
                }
            })
    }
}

fn each_function<'t>(n: Node<'t>, f: &mut dyn FnMut(Node<'t>)) {
    if n.kind() == "function_definition" {
        f(n);
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        each_function(ch, f);
    }
}

/// Identifiers with text `name` under `n`.
pub(crate) fn identifiers<'t>(n: Node<'t>, name: &str, src: &str, out: &mut Vec<Node<'t>>) {
    if n.kind() == "identifier" && text(n, src) == name {
        out.push(n);
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut c).collect();
    for ch in children {
        identifiers(ch, name, src, out);
    }
}

/// Whether a file-scope name is shadowed or changed in `func` (declared, assigned, address taken).
fn mentions_definition(func: Node, name: &str, src: &str) -> bool {
    let mut uses = Vec::new();
    identifiers(func, name, src, &mut uses);
    uses.iter().any(|u| {
        u.parent().is_some_and(|p| {
            matches!(p.kind(), "init_declarator" | "declaration" | "update_expression")
                || (p.kind() == "assignment_expression"
                    && p.child_by_field_name("left").is_some_and(|l| l.id() == u.id()))
                || (p.kind() == "pointer_expression" && text(p, src).starts_with('&'))
        })
    })
}

fn contains_kind(n: Node, kinds: &[&str]) -> bool {
    if kinds.contains(&n.kind()) {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| contains_kind(ch, kinds))
}

fn is_loop(n: Node) -> bool {
    matches!(n.kind(), "for_statement" | "while_statement" | "do_statement" | "for_range_loop")
}

/// Whether some loop encloses both `a` and `b`.
fn common_loop(a: Node, b: Node) -> bool {
    let mut p = a.parent();
    while let Some(x) = p {
        if is_loop(x) && x.start_byte() <= b.start_byte() && b.end_byte() <= x.end_byte() {
            return true;
        }
        p = x.parent();
    }
    false
}

/// Whether definition `d` (a statement of a block around `at`) runs before `at` on every path:
/// the statement holding `d` lies directly in a `{…}` that also holds `at`, and that block is
/// not a `switch` body. The function's entry (the body itself) dominates everything.
fn dominates(d: Node, at: Node, func: Node) -> bool {
    if d.id() == func.id() {
        return true;
    }
    let mut stmt = d;
    while let Some(p) = stmt.parent() {
        if p.kind() == "compound_statement" {
            break;
        }
        if is_loop(p) || matches!(p.kind(), "if_statement" | "switch_statement" | "conditional_expression") {
            // A condition or loop header: runs, but not necessarily before `at` in every case.
            return false;
        }
        stmt = p;
    }
    let Some(block) = stmt.parent() else { return false };
    if block.parent().is_some_and(|p| p.kind() == "switch_statement") {
        return false;
    }
    // Short-circuit or conditional operands inside the statement may not run.
    if has_conditional_between(d, stmt) {
        return false;
    }
    block.start_byte() <= at.start_byte()
        && at.end_byte() <= block.end_byte()
        && stmt.end_byte() <= at.start_byte()
}

/// Whether `d` sits in an operand of `&&`, `||` or `?:` below `stmt` (it may not run).
fn has_conditional_between(d: Node, stmt: Node) -> bool {
    let mut p = d.parent();
    while let Some(x) = p {
        if x.id() == stmt.id() {
            return false;
        }
        if x.kind() == "conditional_expression"
            || (x.kind() == "binary_expression"
                && x.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "&&" | "||")))
        {
            return true;
        }
        p = x.parent();
    }
    false
}
