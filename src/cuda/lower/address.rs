//! Addresses of locals: `&x` of a thread's own scalar variable, as the argument of a device
//! function's pointer parameter (`accumulate(&sum, v)`, `pop(&q, &item)`) or the initializer of
//! a pointer local (`int *p = &x;`). The pointer names the variable (`Binding::VarPtr`): `*p`
//! and `p[0]` read and assign it, and it may be passed on to another pointer parameter. `&q` of
//! a vector/struct local passed to a pointer parameter names its field locals
//! (`Binding::AggPtr`): `p->f` and `(*p).f` are the field. That is exact, since the variable is the thread's own and the pointer never
//! moves; every other use of such a pointer (arithmetic, other indexes, re-pointing it, atomics
//! on it, storing it in memory, comparing it, a whole-struct `*p`) is refused at its position.

use super::*;

impl<'t> Lx<'_, 't> {
    /// The variable an argument `&x` (or a pointer `p` to a local, passed on) points at, as a
    /// `Binding::VarPtr` of element type `want`; `None` when `a` is no address of a scalar local.
    /// A kernel parameter (read-only in KPL) or a local of another type is refused.
    pub(super) fn var_address(&self, a: Node, want: Ty) -> Option<R<Binding>> {
        let a = strip_parens(a);
        let (name, node) = match a.kind() {
            "identifier" => (text(a, self.src), a),
            "pointer_expression" if !is_deref(a) => {
                let x = strip_parens(a.child_by_field_name("argument")?);
                (x.kind() == "identifier").then_some(())?;
                (text(x, self.src), x)
            }
            _ => return None,
        };
        let (kpl, ty) = match (a.kind(), self.lookup(name)?) {
            ("identifier", Binding::VarPtr { kpl, ty }) => (kpl.clone(), *ty),
            ("pointer_expression", Binding::Var { kpl, ty }) => (kpl.clone(), *ty),
            _ => return None,
        };
        if self.params.contains(&kpl) {
            return Some(Err(unsupported(
                format!(
                    "the address of the kernel parameter `{name}` (parameters are read-only in the model)"
                ),
                node,
            )
            .with_note("copy the parameter into a local and pass the local's address")));
        }
        if ty != want {
            return Some(Err(unsupported(
                format!(
                    "a pointer to the {} local `{name}` used as a pointer to {}",
                    c_type(ty),
                    c_type(want)
                ),
                a,
            )));
        }
        Some(Ok(Binding::VarPtr { kpl, ty }))
    }

    /// The variable `*p` or `p[0]` denotes when `p` points at a scalar local.
    pub(super) fn var_pointee(&self, n: Node) -> Option<(String, Ty)> {
        let n = strip_parens(n);
        let p = match n.kind() {
            "pointer_expression" if is_deref(n) => n.child_by_field_name("argument")?,
            "subscript_expression" => {
                let i = n.child_by_field_name("indices")?.named_child(0)?;
                (text(i, self.src).trim() == "0").then_some(())?;
                n.child_by_field_name("argument")?
            }
            _ => return None,
        };
        let p = strip_parens(p);
        if p.kind() != "identifier" {
            return None;
        }
        match self.lookup(text(p, self.src))? {
            Binding::VarPtr { kpl, ty } => Some((kpl.clone(), *ty)),
            _ => None,
        }
    }

    /// `T *p = &x;` of a scalar local `x`: `p` names `x`. `None` when `init` is no such address.
    pub(super) fn var_pointer_local(&mut self, cname: &str, ty: Ty, init: Node) -> Option<R<()>> {
        let b = match self.var_address(init, ty)? {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        if self.fn_body.is_none_or(|body| assigns(body, self.src, cname)) {
            return Some(Err(unsupported(
                format!("the pointer `{cname}` to a local, assigned again later (only a pointer that keeps pointing at the variable is modelled)"),
                init,
            )));
        }
        self.bind(cname, b);
        Some(Ok(()))
    }

    /// The error for a pointer to a local used other than as `*p`, `p[0]` or passed on.
    pub(super) fn var_pointer_misuse(&self, name: &str, n: Node) -> Diagnostic {
        unsupported(
            format!("the pointer `{name}` to a local used as a value or moved (only `*{name}`, `{name}[0]`, `{name}->f`, a copy `T v = *{name};` and passing it to a pointer parameter)"),
            n,
        )
    }

    /// The struct local an argument `&q` (or a struct pointer `p` to a local, passed on) points
    /// at, as a `Binding::AggPtr`; `None` when `a` is no address of a vector/struct local.
    pub(super) fn agg_var_address(&self, a: Node, want: &Agg) -> Option<R<Binding>> {
        let a = strip_parens(a);
        let (id, addr) = match a.kind() {
            "identifier" => (a, false),
            "pointer_expression" if !is_deref(a) => (strip_parens(a.child_by_field_name("argument")?), true),
            _ => return None,
        };
        if id.kind() != "identifier" {
            return None;
        }
        let (agg, comps) = match (addr, self.lookup(text(id, self.src))?) {
            (true, Binding::Agg { agg, comps }) | (false, Binding::AggPtr { agg, comps }) => {
                (agg.clone(), comps.clone())
            }
            _ => return None,
        };
        if agg.fields != want.fields {
            return Some(Err(unsupported(
                format!(
                    "a pointer to the {} local `{}` passed as {} *",
                    agg.name,
                    text(id, self.src),
                    want.name
                ),
                a,
            )));
        }
        Some(Ok(Binding::AggPtr { agg, comps }))
    }

    /// The struct local and its field locals that `p` (of `p->f`, `(*p).f`) points at.
    pub(super) fn agg_pointee(&self, p: Node) -> Option<(Rc<Agg>, Vec<String>)> {
        let p = strip_parens(p);
        if p.kind() != "identifier" {
            return None;
        }
        match self.lookup(text(p, self.src))? {
            Binding::AggPtr { agg, comps } => Some((agg.clone(), comps.clone())),
            _ => None,
        }
    }
}

/// The C type a scalar type stands for, in messages.
fn c_type(t: Ty) -> &'static str {
    match t {
        Ty::Int => "int",
        Ty::UInt => "unsigned",
        Ty::Float => "float",
    }
}
