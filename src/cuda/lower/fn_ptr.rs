//! Function pointers among the file's functions: `binop_t op = useMul ? mulf : addf;`, a device
//! function's parameter `float (*f)(float)` given `square`, a kernel parameter `op_t op` the host
//! fetched from a `__device__ op_t d_add = add;` symbol.
//!
//! A function pointer is bound ([`Binding::Func`]) to a list of candidate functions and a
//! selector, a KPL expression whose value is the index of the candidate it holds (fixed when the
//! pointer gets its value: a local holds the selector of its initializer). A call `op(a, b)`
//! (or `(*op)(a, b)`) is one inlined call per candidate, each under `selector == i` (the last
//! one under the rest), so every access and barrier of the function the program calls is there,
//! under the condition the program calls it under.
//!
//! Soundness: a pointer given a function name, `&f`, `?:` among such values or another bound
//! pointer holds exactly the candidate its selector names. A kernel parameter is a value from the
//! host, the same in every thread: its candidates are every function of the file whose address
//! the file takes (the only functions a pointer can name without undefined behaviour, assuming
//! whole-program compilation: a pointer from another translation unit under `-rdc` is not
//! modelled), of the call's arity, under an unknown uniform selector. A pointer re-pointed after
//! its declaration, stored, compared or used as a value, a table of pointers, and a kernel
//! parameter with no candidate are refused at their position.

use super::*;

/// The functions a function pointer may hold and which one it holds.
#[derive(Clone, Debug)]
pub(super) struct FnChoice {
    /// The candidates, by name (a name may repeat; the selector picks a position).
    pub(super) targets: Rc<[String]>,
    /// The position of the candidate held, an effect-free KPL expression (for a kernel
    /// parameter the parameter itself, assumed below the number of candidates).
    pub(super) selector: Expr,
    /// The candidates are all the file's address-taken functions (a kernel parameter): a call
    /// keeps those of its arity.
    pub(super) by_arity: bool,
}

impl<'t> Lx<'_, 't> {
    /// The identifier a parameter or declarator names when its type is a pointer to a function
    /// (`binop_t op` with `typedef float (*binop_t)(float, float);`, or `float (*op)(float)`).
    pub(super) fn fn_ptr_name<'n>(&self, ty: Node, decl: Node<'n>) -> Option<Node<'n>> {
        use crate::cuda::typedefs::{resolve, Alias};
        if decl.kind() == "identifier" {
            let named = matches!(resolve(text(ty, self.src), &self.file.aliases), Some(Alias::FnPtr));
            return named.then_some(decl);
        }
        if decl.kind() != "function_declarator" {
            return None;
        }
        let inner = decl.child_by_field_name("declarator")?;
        let inner = if inner.kind() == "parenthesized_declarator" { inner.named_child(0)? } else { inner };
        if inner.kind() != "pointer_declarator" {
            return None;
        }
        inner.child_by_field_name("declarator").filter(|d| d.kind() == "identifier")
    }

    /// Whether `n` declares one function pointer with an initializer (`fn_ptr_declaration`).
    pub(super) fn is_fn_ptr_declaration(&self, n: Node) -> bool {
        let Some(ty) = n.child_by_field_name("type") else { return false };
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        decls.iter().any(|d| {
            let d =
                if d.kind() == "init_declarator" { d.child_by_field_name("declarator") } else { Some(*d) };
            d.is_some_and(|d| self.fn_ptr_name(ty, d).is_some())
        })
    }

    /// `binop_t op = c ? mulf : addf;`: binds `op` to the candidates with the selector's value
    /// at this point held in a fresh local.
    pub(super) fn fn_ptr_declaration(&mut self, n: Node) -> R<()> {
        let ty = n.child_by_field_name("type").ok_or_else(|| unsupported("declaration", n))?;
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let (decl, value) = match d.kind() {
                "init_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("value")),
                _ => (Some(d), None),
            };
            let name = decl.and_then(|x| self.fn_ptr_name(ty, x)).ok_or_else(|| {
                unsupported(
                    format!("`{}` beside a function pointer in one declaration", text(d, self.src)),
                    d,
                )
            })?;
            let value = value.ok_or_else(|| {
                unsupported(
                    format!("the function pointer `{}` without an initializer", text(name, self.src)),
                    d,
                )
            })?;
            let mut choice = self.fn_choice(value)?;
            if !matches!(choice.selector, Expr::Const(_) | Expr::Var(_)) {
                // Fixed now: the condition's inputs may change before a call.
                let sel = self.temp(Some(choice.selector));
                choice.selector = Expr::Var(sel);
            }
            self.bind(text(name, self.src), Binding::Func(choice));
        }
        Ok(())
    }

    /// A kernel parameter of function pointer type: the uniform parameter `name`, holding one of
    /// the file's address-taken functions. `None`: `p` is no such parameter.
    pub(super) fn fn_ptr_kernel_parameter(&mut self, f: Node, ty: Node, decl: Node) -> Option<R<()>> {
        let name = self.fn_ptr_name(ty, decl)?;
        let cname = text(name, self.src).to_string();
        let mut root = f;
        while let Some(p) = root.parent() {
            root = p;
        }
        // Device functions only: a pointer a kernel calls cannot hold a host function.
        let device = self
            .prog
            .functions
            .iter()
            .filter(|(_, d)| declared_device(d.node, self.src))
            .map(|(n, _)| n.as_str())
            .collect();
        let targets = address_taken(root, self.src, &device);
        if targets.is_empty() {
            return Some(Err(unsupported(
                format!("the function pointer parameter `{cname}`: the file takes the address of no function it could hold"),
                decl,
            )));
        }
        let k = if self.taken.contains(&cname) || crate::kpl::is_keyword(&cname) {
            self.fresh_name(&cname)
        } else {
            cname.clone()
        };
        self.declare_kpl(&k);
        self.push_param(&k, &cname);
        // The pointer holds one of them: its value is a position in the list.
        let count = u32::try_from(targets.len()).unwrap_or(u32::MAX);
        self.cur_span = span(decl);
        let l = self
            .emit(StmtKind::Assume { cond: Expr::bin(BinOp::ULt, Expr::Var(k.clone()), Expr::Const(count)) });
        self.set_place(l, Place::Not("the range of a function pointer parameter".into()));
        self.fn_pointers
            .insert(k.clone(), crate::kpl::FnPointer { name: cname.clone(), targets: targets.clone() });
        self.bind(
            &cname,
            Binding::Func(FnChoice { targets: targets.into(), selector: Expr::Var(k), by_arity: true }),
        );
        Some(Ok(()))
    }

    /// A device function's parameter of function pointer type, given the argument `a`. `None`:
    /// `p` is no such parameter.
    pub(super) fn fn_ptr_param(&mut self, p: Node, a: Node) -> Option<R<BoundParam>> {
        let ty = p.child_by_field_name("type")?;
        let name = self.fn_ptr_name(ty, p.child_by_field_name("declarator")?)?;
        let cname = text(name, self.src).to_string();
        Some(self.fn_choice(a).map(|c| BoundParam::Alias { cname, binding: Binding::Func(c) }))
    }

    /// The candidates and selector of a function pointer value: a function of the file, `&f`,
    /// a bound pointer, `c ? x : y` of those.
    fn fn_choice(&mut self, e: Node) -> R<FnChoice> {
        let src = self.src;
        match e.kind() {
            "parenthesized_expression" => {
                let inner = e.named_child(0).ok_or_else(|| unsupported("empty parentheses", e))?;
                self.fn_choice(inner)
            }
            "pointer_expression" if e.child_by_field_name("operator").is_some_and(|o| text(o, src) == "&") => {
                let arg = e.child_by_field_name("argument").ok_or_else(|| unsupported("`&`", e))?;
                self.fn_choice(arg)
            }
            "identifier" => {
                let name = text(e, src);
                match self.lookup(name) {
                    Some(Binding::Func(c)) => Ok(c.clone()),
                    None if self.prog.has_function(name) => {
                        Ok(FnChoice { targets: Rc::from([name.to_string()]), selector: Expr::Const(0), by_arity: false })
                    }
                    _ => Err(unsupported(format!("`{name}` as a function pointer (not a function of the file)"), e)),
                }
            }
            "conditional_expression" => {
                let (c, a, b) = self.ternary_parts(e)?;
                let ce = self.cond(c)?;
                let x = self.fn_choice(a)?;
                let y = self.fn_choice(b)?;
                if x.by_arity || y.by_arity {
                    return Err(unsupported("choosing between a function pointer parameter and another function", e));
                }
                let offset = u32::try_from(x.targets.len()).unwrap_or(u32::MAX);
                let targets: Vec<String> = x.targets.iter().chain(y.targets.iter()).cloned().collect();
                let shifted = match y.selector {
                    Expr::Const(k) => Expr::Const(k.saturating_add(offset)),
                    s => Expr::bin(BinOp::Add, s, Expr::Const(offset)),
                };
                Ok(FnChoice {
                    targets: targets.into(),
                    selector: Expr::Select(Box::new(ce), Box::new(x.selector), Box::new(shifted)),
                    by_arity: false,
                })
            }
            _ => Err(unsupported(
                format!(
                    "the function pointer value `{}` (only the file's functions, `&f`, `?:` among them and pointers bound to them)",
                    text(e, src)
                ),
                e,
            )),
        }
    }

    /// A call through the function pointer bound to `choice`: one inlined call per candidate
    /// under its selector value, the result in a fresh local when `used`.
    pub(super) fn fn_ptr_call(
        &mut self,
        n: Node,
        name: &str,
        choice: FnChoice,
        args: &[Node],
        used: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let mut cases: Vec<(u32, String)> = choice
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| (u32::try_from(i).unwrap_or(u32::MAX), t.clone()))
            .collect();
        if choice.by_arity {
            let prog = self.prog;
            cases.retain(|(_, t)| {
                prog.functions.iter().any(|(fname, d)| fname == t && fn_params(d.node).len() == args.len())
            });
            if cases.is_empty() {
                return Err(unsupported(
                    format!(
                        "the call through `{name}`: no function of the file whose address it takes has {} parameter(s)",
                        args.len()
                    ),
                    n,
                ));
            }
        }
        if choice.by_arity && cases.len() < choice.targets.len() {
            // A pointer of this call's type cannot hold a function of another arity.
            let held = cases
                .iter()
                .map(|(k, _)| Expr::bin(BinOp::Eq, choice.selector.clone(), Expr::Const(*k)))
                .reduce(|a, b| Expr::bin(BinOp::Or, a, b));
            if let Some(cond) = held {
                self.emit(StmtKind::Assume { cond });
            }
        }
        if let [(_, only)] = &cases[..] {
            return self.inline_call(n, only, None, args);
        }
        // C++ evaluates the arguments once, before the call: scalar ones are evaluated here
        // (their reads are not repeated per candidate).
        let first = self.prog.functions.iter().find(|(f, _)| *f == cases[0].1).map(|(_, d)| d.clone());
        let mut prebound = Vec::new();
        if let Some(def) = first.filter(|d| d.tparams.is_empty()) {
            for (p, a) in fn_params(def.node).iter().zip(args) {
                let (Some(ty), Some(decl)) =
                    (p.child_by_field_name("type"), p.child_by_field_name("declarator"))
                else {
                    continue;
                };
                let scalar = decl.kind() == "identifier"
                    && self.agg_type(ty).is_none()
                    && self.fn_ptr_name(ty, decl).is_none()
                    && !self.is_group_type(ty);
                if scalar {
                    let (e, t) = self.expr(*a)?;
                    let held = self.temp(Some(e));
                    prebound.push((a.id(), (Expr::Var(held), t)));
                }
            }
        }
        let saved = std::mem::replace(&mut self.prebound_args, prebound.into_iter().collect());
        let result = if used { Some(self.temp(None)) } else { None };
        let mut ty = None;
        let r = self.fn_cases(n, &choice.selector, &cases, args, result.as_deref(), &mut ty);
        self.prebound_args = saved;
        r?;
        Ok(result.zip(ty).map(|(r, t)| (Expr::Var(r), t)))
    }

    /// `if (selector == k0) r = f0(args); else if … else r = fn(args);` over `cases`.
    fn fn_cases(
        &mut self,
        n: Node,
        selector: &Expr,
        cases: &[(u32, String)],
        args: &[Node],
        result: Option<&str>,
        ty: &mut Option<Ty>,
    ) -> R<()> {
        let one = |s: &mut Self, target: &str, ty: &mut Option<Ty>| -> R<()> {
            let r = s.inline_call(n, target, None, args)?;
            if let (Some(dst), Some((e, t))) = (result, r) {
                let want = *ty.get_or_insert(t);
                s.emit(StmtKind::Assign { name: dst.to_string(), value: convert(e, t, want) });
            }
            Ok(())
        };
        let [(k, first), rest @ ..] = cases else { return Ok(()) };
        if rest.is_empty() {
            return one(self, first, ty);
        }
        let cond = Expr::bin(BinOp::Eq, selector.clone(), Expr::Const(*k));
        let l = self.label();
        let ts = self.label();
        let (then, _) = self.nested(|s| one(s, first, ty))?;
        let el = self.label();
        let es = self.label();
        let (els, _) = self.nested(|s| s.fn_cases(n, selector, rest, args, result, ty))?;
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts: then, span: sp };
        let els = Some(Block { label: el, start: es, stmts: els, span: sp });
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els }, span: sp });
        Ok(())
    }
}

/// Whether the function definition `f` is declared `__device__`.
fn declared_device(f: Node, src: &str) -> bool {
    let mut c = f.walk();
    let found = f
        .children(&mut c)
        .take_while(|ch| ch.kind() != "function_declarator")
        .any(|ch| text(ch, src).split_whitespace().any(|w| w == "__device__"));
    found
}

/// The file's functions (`functions`) whose address the file takes: named anywhere but as the
/// callee of a call or in a function's own declarator, in order of first mention.
fn address_taken(root: Node, src: &str, functions: &std::collections::HashSet<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // An explicit stack: the walk is over the whole file, however deep.
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            let name = text(n, src);
            let parent = n.parent();
            let callee = parent.is_some_and(|p| {
                p.kind() == "call_expression"
                    && p.child_by_field_name("function").is_some_and(|f| f.id() == n.id())
            });
            let declarator = parent.is_some_and(|p| p.kind() == "function_declarator");
            if functions.contains(name) && !callee && !declarator && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}
