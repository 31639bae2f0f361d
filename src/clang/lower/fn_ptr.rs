//! Function pointers among the file's functions in the clang lowering, the classic lowering's
//! model (`cuda/lower/fn_ptr.rs`): `binop_t op = useMul ? mulf : addf;`, a device function's
//! parameter `float (*f)(float)` given `square`.
//!
//! A pointer is bound to its candidate functions and a selector, a local holding the index of
//! the candidate it holds, set where the pointer gets its value (C evaluates the `?:` there).
//! A call `op(a, b)` or `(*op)(a, b)` is one inlined call per candidate, each under
//! `selector == i` (the last under the rest): every access and barrier of the function the
//! program calls is there, under the condition the program calls it under.
//!
//! Refused at their place: a pointer assigned after its declaration, one used as a value
//! (stored, compared, passed to what is not inlined), kernel parameters of function type (the
//! host's value), and any other pointer expression.

use super::{assigns, strip_callee, Function, Lx, Node, NodeKind, Ty, R};
use crate::kpl::ast::{BinOp, Expr, Stmt, StmtKind};

/// The functions a pointer may hold (by clang id) and the local that says which.
#[derive(Clone, Debug)]
pub(super) struct FnChoice {
    targets: Vec<String>,
    selector: String,
}

/// Whether `ty` is a pointer to a function (`float (*)(float, float)`).
fn is_fn_pointer(ty: &str) -> bool {
    ty.contains("(*)") || ty.contains("(*const)")
}

impl<'a> Lx<'a> {
    /// The candidates `n` may denote and the index of the one it does (an expression
    /// evaluated here, in C's order): a function with a body, `&f`, `?:` of such values,
    /// another bound pointer.
    fn fn_value(&mut self, n: &Node) -> R<(Vec<String>, Expr)> {
        let s = strip_callee(n);
        match &s.kind {
            NodeKind::DeclRef { decl_id, .. } => {
                if let Some(c) = self.fn_ptrs.get(decl_id) {
                    return Ok((c.targets.clone(), Expr::var(&c.selector)));
                }
                match self.model.by_id(decl_id) {
                    Some(f) if f.body.is_some() => Ok((vec![f.id.clone()], Expr::Const(0))),
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
                let (mut ta, sa) = self.fn_value(a)?;
                let (tb, sb) = self.fn_value(b)?;
                let shift = ta.len() as u32;
                ta.extend(tb);
                let sb = match sb {
                    Expr::Const(k) => Expr::Const(k + shift),
                    e => Expr::bin(BinOp::Add, e, Expr::Const(shift)),
                };
                Ok((ta, Expr::Select(Box::new(c), Box::new(sa), Box::new(sb))))
            }
            _ => Err(self.unsupported("this function pointer value", n)),
        }
    }

    /// Binds the pointer `id` (never assigned in `body`) to the value `init`.
    fn bind_fn_pointer(&mut self, id: &str, name: &str, init: &Node, body: Option<&Node>) -> R<()> {
        if body.is_some_and(|b| assigns(b, id)) {
            return Err(self.unsupported("a function pointer assigned after its declaration", init));
        }
        let (targets, sel) = self.fn_value(init)?;
        let selector = self.fresh(&format!("{name}_fn"));
        self.emit(StmtKind::Local { name: selector.clone(), init: Some(sel) });
        self.fn_ptrs.insert(id.to_string(), FnChoice { targets, selector });
        Ok(())
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
    /// one read per source read keeps the findings the classic lowering's).
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
            args.push(Node { kind, ty: a.ty.clone(), range: a.range.clone(), children: Vec::new() });
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
        for id in &choice.targets {
            let Some(f) = model.by_id(id) else {
                return Err(self.unsupported("a call through this function pointer", n));
            };
            branches.push(f);
        }
        self.branch(n, choice, &branches, args, result.as_ref().map(|(r, _)| r.as_str()), 0)?;
        Ok(result.map(|(r, t)| (Expr::var(&r), t)))
    }

    fn branch(
        &mut self,
        n: &Node,
        choice: &FnChoice,
        fs: &[&'a Function],
        args: &[Node],
        result: Option<&str>,
        i: u32,
    ) -> R<()> {
        let Some((f, rest)) = fs.split_first() else { return Ok(()) };
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
        let cond = Expr::bin(BinOp::Eq, Expr::var(&choice.selector), Expr::Const(i));
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, call)?;
        let el = self.label();
        let els = self.open_block(el, None, |lx| lx.branch(n, choice, rest, args, result, i + 1))?;
        self.out.push(Stmt { label, kind: StmtKind::If { cond, then, els: Some(els) }, span });
        Ok(())
    }
}
