//! Function pointers among the file's functions:
//! `binop_t op = useMul ? mulf : addf;`, a device function's
//! parameter `float (*f)(float)` given `square`.
//!
//! A pointer is bound to its candidate functions and a selector, a local holding the index of
//! the candidate it holds, set where the pointer gets its value (C evaluates the `?:` there).
//! A call `op(a, b)` or `(*op)(a, b)` is one inlined call per candidate, each under
//! `selector == i` (the last under the rest): every access and barrier of the function the
//! program calls is there, under the condition the program calls it under.
//!
//! A kernel parameter of function pointer type is the host's value, the same in every thread:
//! its candidates are the device functions of the file whose address the file takes (the only
//! ones a pointer can hold without undefined behaviour, assuming whole-program compilation: a
//! pointer from another translation unit under `-rdc` is not modelled), its selector the
//! parameter itself, assumed below their number; a call keeps those of its arity (a pointer
//! of the call's type holds no other).
//!
//! Refused at their place: a pointer assigned after its declaration, one used as a value
//! (stored, compared, passed to what is not inlined), a kernel parameter whose candidates are
//! none or that is chosen among by `?:`, and any other pointer expression.

use super::{assigns, strip_callee, Function, Lx, Node, NodeKind, Ty, R};
use crate::kpl::ast::{BinOp, Expr, Stmt, StmtKind};

/// The functions a pointer may hold (by clang id) and the local that says which.
#[derive(Clone, Debug)]
pub(super) struct FnChoice {
    targets: Vec<String>,
    selector: String,
    /// The candidates are every address-taken device function (a kernel parameter): a call
    /// keeps those of its arity.
    by_arity: bool,
}

/// Whether `n` holds a reference to a function other than as a call's callee, collected into
/// `out` by clang id.
fn address_taken(n: &Node, out: &mut Vec<String>) {
    // An explicit stack: the walk is over whole bodies, however deep.
    let mut stack = vec![(n, false)];
    while let Some((n, callee)) = stack.pop() {
        if let NodeKind::DeclRef { decl_id, decl_kind, .. } = &n.kind {
            if !callee && decl_kind.contains("Function") && !out.contains(decl_id) {
                out.push(decl_id.clone());
            }
        }
        let calls = matches!(n.kind, NodeKind::Call { .. } | NodeKind::OperatorCall { .. });
        for (k, c) in n.children.iter().enumerate() {
            // The callee of a call, through its decay to a pointer, is no address taken.
            let through = callee && matches!(n.kind, NodeKind::ImplicitCast { .. } | NodeKind::Paren);
            stack.push((c, (calls && k == 0) || through));
        }
    }
}

/// Whether `ty` is a pointer to a function (`float (*)(float, float)`).
fn is_fn_pointer(ty: &str) -> bool {
    // `float (*)[512]` points to rows of an array: the declarator is followed by a `[`.
    ["(*)", "(*const)"]
        .iter()
        .any(|d| ty.match_indices(d).any(|(i, _)| ty[i + d.len()..].trim_start().starts_with('(')))
}

impl<'a> Lx<'a> {
    /// The candidates `n` may denote and the index of the one it does (an expression
    /// evaluated here, in C's order): a function with a body, `&f`, `?:` of such values,
    /// another bound pointer.
    fn fn_value(&mut self, n: &Node) -> R<(Vec<String>, Expr, bool)> {
        let s = strip_callee(n);
        match &s.kind {
            NodeKind::DeclRef { decl_id, .. } => {
                if let Some(c) = self.fn_ptrs.get(decl_id) {
                    return Ok((c.targets.clone(), Expr::var(&c.selector), c.by_arity));
                }
                match self.model.by_id(decl_id) {
                    Some(f) if f.body.is_some() => Ok((vec![f.id.clone()], Expr::Const(0), false)),
                    _ => {
                        Err(self
                            .unsupported("this function pointer (only functions of the file with a body)", n))
                    }
                }
            }
            NodeKind::Unary { op, .. } if op == "&" => self.fn_value(self.only_child(s)?),
            NodeKind::Conditional => {
                let [c, a, b] = s.children.as_slice() else {
                    return Err(self.unsupported("this `?:`", s));
                };
                let c = self.condition(c)?;
                let (mut ta, sa, aa) = self.fn_value(a)?;
                let (tb, sb, ab) = self.fn_value(b)?;
                if aa || ab {
                    return Err(self.unsupported("a `?:` of a function pointer parameter", s));
                }
                let shift = ta.len() as u32;
                ta.extend(tb);
                let sb = match sb {
                    Expr::Const(k) => Expr::Const(k + shift),
                    e => Expr::bin(BinOp::Add, e, Expr::Const(shift)),
                };
                Ok((ta, Expr::Select(Box::new(c), Box::new(sa), Box::new(sb)), false))
            }
            _ => Err(self.unsupported("this function pointer value", n)),
        }
    }

    /// Binds the pointer `id` (never assigned in `body`) to the value `init`.
    fn bind_fn_pointer(&mut self, id: &str, name: &str, init: &Node, body: Option<&Node>) -> R<()> {
        if body.is_some_and(|b| assigns(b, id)) {
            return Err(self.unsupported("a function pointer assigned after its declaration", init));
        }
        let (targets, sel, by_arity) = self.fn_value(init)?;
        let selector = self.fresh(&format!("{name}_fn"));
        self.emit(StmtKind::Local { name: selector.clone(), init: Some(sel) });
        self.fn_ptrs.insert(id.to_string(), FnChoice { targets, selector, by_arity });
        Ok(())
    }

    /// Hook of `parameters`: a kernel parameter of function pointer type, bound to the file's
    /// address-taken device functions under its own value. `None`: `p` is no such parameter.
    pub(super) fn fn_pointer_kernel_param(
        &mut self,
        p: &super::super::Param,
        body: Option<&Node>,
        at: crate::span::Span,
    ) -> Option<R<()>> {
        let ty = self.resolve(p.desugared.as_deref().unwrap_or(&p.ty));
        if !is_fn_pointer(&ty) {
            return None;
        }
        let refuse = |why: &str| {
            crate::diag::Diagnostic::error(
                format!("unsupported: the function pointer parameter `{}`: {why}", p.name),
                at,
            )
        };
        if body.is_some_and(|b| assigns(b, &p.id)) {
            return Some(Err(refuse("it is assigned")));
        }
        let targets = self.address_taken_device_functions();
        if targets.is_empty() {
            return Some(Err(refuse("the file takes the address of no device function it could hold")));
        }
        let kpl = self.declare(&p.name);
        self.params.push(kpl.clone());
        let count = u32::try_from(targets.len()).unwrap_or(u32::MAX);
        self.emit(StmtKind::Assume { cond: Expr::bin(BinOp::ULt, Expr::var(&kpl), Expr::Const(count)) });
        self.fn_ptrs.insert(p.id.clone(), FnChoice { targets, selector: kpl, by_arity: true });
        Some(Ok(()))
    }

    /// The device functions with a body whose address the file takes anywhere (a function's
    /// body, a namespace-scope initializer, a template pattern), by clang id of their
    /// definition, in the order of the definitions.
    fn address_taken_device_functions(&self) -> Vec<String> {
        let model = self.model;
        let mut ids = Vec::new();
        for f in &model.functions {
            if let Some(b) = &f.body {
                address_taken(b, &mut ids);
            }
        }
        for g in model.globals.values() {
            if let Some(v) = &g.value {
                address_taken(v, &mut ids);
            }
        }
        let mut defs: Vec<&Function> = Vec::new();
        let mut add = |f: &'a Function| {
            let device =
                matches!(f.space, super::super::ExecSpace::Device | super::super::ExecSpace::HostDevice);
            if device && f.body.is_some() && !defs.iter().any(|d| d.id == f.id) {
                defs.push(f);
            }
        };
        for id in &ids {
            if let Some(f) = model.definition(id) {
                add(f);
            }
        }
        for r in &model.loose_refs {
            match &r.decl_id {
                Some(id) => {
                    if let Some(f) = model.definition(id) {
                        add(f);
                    }
                }
                // A name a template pattern leaves unresolved: any function of that name.
                None => model.functions.iter().filter(|f| f.name == r.name).for_each(&mut add),
            }
        }
        let pos = |f: &Function| f.range.as_ref().map(|r| (r.file.to_string(), r.start.offset));
        defs.sort_by_key(|f| pos(f));
        defs.into_iter().map(|f| f.id.clone()).collect()
    }

    /// The function pointer parameters of the kernel as the source has them
    /// (`Kernel::fn_pointers`): by KPL name, the candidates' names by the parameter's value.
    pub(super) fn kernel_fn_pointers(&self) -> std::collections::BTreeMap<String, crate::kpl::FnPointer> {
        let model = self.model;
        self.fn_ptrs
            .values()
            .filter(|c| c.by_arity && self.params.contains(&c.selector))
            .map(|c| {
                let targets = c
                    .targets
                    .iter()
                    .map(|id| model.by_id(id).map_or(id.clone(), |f| f.name.clone()))
                    .collect();
                (c.selector.clone(), crate::kpl::FnPointer { name: c.selector.clone(), targets })
            })
            .collect()
    }

    /// Hook of `declaration`: a local pointer to a function. `None`: `ty` is no such pointer.
    pub(super) fn fn_pointer_local(&mut self, v: &Node, ty: &str) -> Option<R<()>> {
        let NodeKind::Var { id, name, .. } = &v.kind else { return None };
        if !is_fn_pointer(ty) {
            return None;
        }
        let Some(init) = v.children.first() else {
            return Some(Err(self.unsupported("a function pointer declared without a value", v)));
        };
        let body = self.bodies.last().copied();
        Some(self.bind_fn_pointer(id, name, init, body))
    }

    /// Hook of the inliner: a parameter of function-pointer type given `a`. `None`: `ty` is no
    /// such pointer.
    pub(super) fn fn_pointer_param(
        &mut self,
        ty: &str,
        (id, name): (&str, &str),
        a: &Node,
        body: &Node,
    ) -> Option<R<()>> {
        is_fn_pointer(ty)
            .then(|| self.bind_fn_pointer(id, if name.is_empty() { "f" } else { name }, a, Some(body)))
    }

    /// Hook of `call`: a call through a bound pointer (`op(a, b)`, `(*op)(a, b)`). `None`: the
    /// callee is no such pointer.
    pub(super) fn fn_pointer_call(&mut self, n: &Node, want: bool) -> Option<R<Option<(Expr, Ty)>>> {
        let mut callee = strip_callee(n.children.first()?);
        while let NodeKind::Unary { op, .. } = &callee.kind {
            if op != "*" {
                break;
            }
            callee = strip_callee(callee.children.first()?);
        }
        let NodeKind::DeclRef { decl_id, .. } = &callee.kind else { return None };
        let choice = self.fn_ptrs.get(decl_id)?.clone();
        Some(self.call_each(n, &choice, want))
    }

    /// One inlined call per candidate, under `selector == i`, the last under the rest. The
    /// scalar arguments are evaluated once, before (C evaluates them before the call, and
    /// one read per source read).
    fn call_each(&mut self, n: &Node, choice: &FnChoice, want: bool) -> R<Option<(Expr, Ty)>> {
        let mut args = Vec::new();
        for (k, a) in n.children[1..].iter().enumerate() {
            if a.ty.as_deref().and_then(|t| self.scalar_of(t)).is_none() {
                args.push(a.clone());
                continue;
            }
            let (e, t) = self.rvalue(a)?;
            let kpl = self.temp(Some(e));
            // The value stands in for the argument: a name bound to the temporary.
            let id = format!("{}#arg{k}", choice.selector);
            self.bindings.insert(id.clone(), super::Binding::Scalar { kpl: kpl.clone(), ty: t });
            let kind = NodeKind::DeclRef { name: kpl, decl_id: id, decl_kind: "VarDecl".into() };
            args.push(Node {
                kind,
                ty: a.ty.clone(),
                desugared: a.desugared.clone(),
                range: a.range.clone(),
                children: Vec::new(),
            });
        }
        let args = &args[..];
        let rt = n.ty.as_deref().and_then(|t| self.scalar_of(t));
        let result = match (want, rt) {
            (true, Some(t)) => Some((self.temp(None), t)),
            (true, None) => return Err(self.unsupported("the value of this call", n)),
            (false, _) => None,
        };
        let model = self.model;
        let mut branches = Vec::new();
        for (i, id) in choice.targets.iter().enumerate() {
            let Some(f) = model.by_id(id) else {
                return Err(self.unsupported("a call through this function pointer", n));
            };
            if choice.by_arity && f.params.len() != args.len() {
                continue;
            }
            branches.push((u32::try_from(i).unwrap_or(u32::MAX), f));
        }
        if branches.is_empty() {
            return Err(self.unsupported(
                format!(
                    "a call through this function pointer: no device function of the file whose address it takes has {} parameter(s)",
                    args.len()
                ),
                n,
            ));
        }
        if branches.len() < choice.targets.len() {
            // A pointer of this call's type holds no function of another arity.
            let held = branches
                .iter()
                .map(|(k, _)| Expr::bin(BinOp::Eq, Expr::var(&choice.selector), Expr::Const(*k)))
                .reduce(|a, b| Expr::bin(BinOp::Or, a, b));
            if let Some(cond) = held {
                self.emit(StmtKind::Assume { cond });
            }
        }
        self.branch(n, choice, &branches, args, result.as_ref().map(|(r, _)| r.as_str()))?;
        Ok(result.map(|(r, t)| (Expr::var(&r), t)))
    }

    fn branch(
        &mut self,
        n: &Node,
        choice: &FnChoice,
        fs: &[(u32, &'a Function)],
        args: &[Node],
        result: Option<&str>,
    ) -> R<()> {
        let Some(((i, f), rest)) = fs.split_first() else { return Ok(()) };
        let call = |lx: &mut Self| -> R<()> {
            let v = lx.inline(n, f, args)?;
            if let (Some(r), Some((v, _))) = (result, v) {
                lx.emit(StmtKind::Assign { name: r.to_string(), value: v });
            }
            Ok(())
        };
        if rest.is_empty() {
            return call(self);
        }
        let cond = Expr::bin(BinOp::Eq, Expr::var(&choice.selector), Expr::Const(*i));
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, call)?;
        let el = self.label();
        let els = self.open_block(el, None, |lx| lx.branch(n, choice, rest, args, result))?;
        self.out.push(Stmt { label, kind: StmtKind::If { cond, then, els: Some(els) }, span });
        Ok(())
    }
}
