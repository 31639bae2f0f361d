//! References in the clang lowering (`int &x = a[i];`, `float &acc = s[t];`, `T &x`
//! parameters of inlined functions): a
//! reference is an alias of the place it is bound to — a local is that local's binding, an
//! element is [`Binding::Ref`] with its indices evaluated once, where it is bound (C++ binds a
//! reference once: later writes to `i` do not move `x`). A `const` reference to a value that is
//! not such a place holds a copy (C++ binds it to a temporary).

use super::{assigns, Binding, Lx, Node, NodeKind, R};
use crate::kpl::ast::{Expr, StmtKind};

/// The referent of a reference type (`const float &` → (`float`, const)); `None` for a type
/// that is no lvalue reference.
fn referent(ty: &str) -> Option<(&str, bool)> {
    let t = ty.trim().strip_suffix('&')?.trim_end();
    if t.ends_with('&') {
        // `T &&`: a forwarding or rvalue reference, not lowered.
        return Some((t, false));
    }
    let (t, is_const) = match t.strip_prefix("const ") {
        Some(r) => (r.trim(), true),
        None => match t.strip_suffix(" const") {
            Some(r) => (r.trim(), true),
            None => (t, false),
        },
    };
    Some((t, is_const))
}

impl<'a> Lx<'a> {
    /// Hook of `declaration`: a reference local of type `ty`. `None`: `ty` is no reference.
    pub(super) fn ref_local(&mut self, v: &Node, ty: &str) -> Option<R<()>> {
        let NodeKind::Var { name, id, .. } = &v.kind else { return None };
        referent(ty)?;
        let Some(init) = v.children.first() else {
            return Some(Err(self.unsupported("a reference without an initializer", v)));
        };
        let written = self.bodies.last().is_some_and(|b| assigns(b, id));
        Some(self.bind_ref(init, ty, name, written, v).map(|b| {
            self.bindings.insert(id.clone(), b);
        }))
    }

    /// Hook of the inliner: the reference parameter `name` of type `ty` bound to `a`, in a
    /// function whose body is `body`. `None`: `ty` is no reference.
    pub(super) fn ref_param(
        &mut self,
        ty: &str,
        name: &str,
        id: &str,
        a: &Node,
        body: &Node,
    ) -> Option<R<Binding>> {
        referent(ty)?;
        Some(self.bind_ref(a, ty, name, assigns(body, id), a))
    }

    /// What the reference `name` of type `ty` bound to `init` stands for; `written`: the
    /// reference is assigned.
    fn bind_ref(&mut self, init: &Node, ty: &str, name: &str, written: bool, at: &Node) -> R<Binding> {
        let Some((to, is_const)) = referent(ty) else {
            return Err(self.unsupported(format!("a reference of type `{ty}`"), at));
        };
        // A reference to a pointer (`float *&p`): the pointer variable itself — the caller's
        // offset local, which an assignment through the reference moves. The pointer groups
        // join such a parameter with the arguments' arrays (`pointer_groups.rs`).
        if super::pointee(&self.resolve(to)).is_some() {
            // `const float *&p` is a reference to a variable (a pointer to const); only
            // `float *const &p` is a const reference.
            let is_const = ty.trim_end().strip_suffix('&').is_some_and(|t| t.trim_end().ends_with("const"));
            return match self.binding(super::strip(init)) {
                Some(b @ Binding::Ptr { .. }) => Ok(b),
                Some(b @ Binding::Alias { .. }) if !written => Ok(b),
                // `float *const &p` bound to a pointer value (`f(a + 1)`): C++ binds a
                // temporary holding it, which nothing can re-point.
                _ if is_const => {
                    let (array, elem, off) = self.pointer(init)?;
                    let offset = self.fresh(&format!("{name}_at"));
                    self.emit(StmtKind::Local { name: offset.clone(), init: Some(off) });
                    Ok(Binding::Ptr { array, elem, offset })
                }
                _ => Err(self.unsupported(
                    format!(
                        "binding the reference `&{name}` to this pointer (only a pointer local or parameter)"
                    ),
                    init,
                )),
            };
        }
        let Some(t) = self.scalar_of(to) else {
            if let Some(layout) = self.layout_of(&self.resolve(to)) {
                return self.record_ref(init, layout);
            }
            return Err(self.unsupported(format!("a reference to `{to}`"), at));
        };
        let (s, temporary) = under_temporary(init);
        let lvalue = if temporary {
            None
        } else {
            match self.binding(s) {
                Some(
                    b @ (Binding::Scalar { ty, .. } | Binding::Cell { ty, .. } | Binding::Ref { ty, .. }),
                ) => {
                    if let Binding::Scalar { kpl, .. } = &b {
                        if written && self.params.contains(kpl) {
                            return Err(self.unsupported(
                                format!("the reference `&{name}` to a kernel parameter, assigned (copy the parameter into a local first)"),
                                at,
                            ));
                        }
                    }
                    Some((b, ty))
                }
                Some(_) => None,
                None => match &s.kind {
                    NodeKind::ArraySubscript => Some(self.element_ref(s, name)?),
                    NodeKind::Unary { op, .. } if op == "*" => Some(self.element_ref(s, name)?),
                    // A member of a struct in memory (`acc->n`, `sv[i].y`): that word.
                    NodeKind::Member { .. } => Some(self.element_ref(s, name)?),
                    _ => None,
                },
            }
        };
        match lvalue {
            Some((b, lt)) if lt == t => Ok(b),
            _ if is_const => {
                // A copy of the value, converted: what the temporary C++ binds holds.
                let v = self.rvalue_as(s, t)?;
                let kpl = self.declare(name);
                self.emit(StmtKind::Local { name: kpl.clone(), init: Some(v) });
                Ok(Binding::Scalar { kpl, ty: t })
            }
            _ => Err(self.unsupported(
                format!("binding the reference `&{name}` to this (only a local, a `__shared__` scalar or an array element of its type)"),
                init,
            )),
        }
    }

    /// The element `n` denotes as a [`Binding::Ref`]: its index components that are not
    /// constants copied into fresh locals now, so later writes to what they read do not move it.
    fn element_ref(&mut self, n: &Node, name: &str) -> R<(Binding, super::Ty)> {
        let (array, index, ty) = self.place(n)?;
        let mut fixed = Vec::new();
        for (k, c) in index.into_iter().enumerate() {
            if matches!(c, Expr::Const(_)) {
                fixed.push(c);
                continue;
            }
            let x = self.fresh(&format!("{name}_i{k}"));
            self.emit(StmtKind::Local { name: x.clone(), init: Some(c) });
            fixed.push(Expr::var(&x));
        }
        Ok((Binding::Ref { array, index: fixed, ty }, ty))
    }
}

impl<'a> Lx<'a> {
    /// Hook of the inliner: a pointer parameter given the address of a scalar local (`&sum`)
    /// or such a pointer passed on, bound as [`Binding::VarPtr`]: `*p` and `p[0]` are the
    /// variable. `None`: `a` is no such address (a kernel parameter's address is not one:
    /// KPL parameters are not assigned).
    pub(super) fn address_arg(&mut self, a: &Node) -> Option<Binding> {
        let (s, _) = under_temporary(super::strip(a));
        match &s.kind {
            NodeKind::Unary { op, .. } if op == "&" => {
                match self.binding(under_temporary(s.children.first()?).0) {
                    Some(Binding::Scalar { kpl, ty }) if !self.params.contains(&kpl) => {
                        Some(Binding::VarPtr { kpl, ty })
                    }
                    // `&p` of a pointer variable: `*pp` is `p` (re-pointed through it only
                    // when `p` is a variable, `Binding::Ptr`).
                    Some(b @ (Binding::Ptr { .. } | Binding::Alias { .. })) => {
                        Some(Binding::PtrOf(Box::new(b)))
                    }
                    _ => None,
                }
            }
            _ => match self.binding(s) {
                Some(b @ (Binding::VarPtr { .. } | Binding::PtrOf(_))) => Some(b.clone()),
                _ => None,
            },
        }
    }

    /// The variable `*p` or `p[0]` is, for `p` bound to a variable's address. `Ok(None)`: `n`
    /// is no access through such a pointer.
    pub(super) fn var_through(&mut self, n: &Node) -> R<Option<(String, super::Ty)>> {
        let n = super::strip(n);
        let (p, index) = match &n.kind {
            NodeKind::Unary { op, .. } if op == "*" => (self.only_child(n)?, None),
            NodeKind::ArraySubscript => {
                let [p, i] = n.children.as_slice() else { return Ok(None) };
                (p, Some(i))
            }
            _ => return Ok(None),
        };
        let Some(Binding::VarPtr { kpl, ty }) = self.binding(super::strip(p)) else {
            return Ok(None);
        };
        if let Some(i) = index {
            if self.rvalue(i)?.0 != Expr::Const(0) {
                return Err(self.unsupported("an element other than `[0]` of a variable's address", n));
            }
        }
        Ok(Some((kpl, ty)))
    }

    /// The struct the pointer `p` points to (`this` in a method, `p` of `p->m()`).
    pub(super) fn pointee_record(&mut self, p: &Node) -> R<super::record::Place> {
        match self.binding(super::strip(p)) {
            Some(Binding::Record(l)) => return Ok(super::record::Place::Locals(l)),
            Some(Binding::RecordRef(m)) => return Ok(super::record::Place::Memory(m)),
            _ => {}
        }
        let (array, elem, base) = self.pointer(super::strip(p))?;
        let super::Elem::Record(layout) = elem else {
            return Err(self.unsupported("a method called through a pointer that is not to a struct", p));
        };
        Ok(super::record::Place::Memory(std::rc::Rc::new(super::record::InMemory {
            array,
            prefix: Vec::new(),
            base,
            layout,
        })))
    }

    /// `obj.m(args)` of a method of the file's struct or class with a body (also a base class's,
    /// through clang's conversion of `obj`): inlined like a function, `this` bound to the
    /// object's place — its locals, or its words in memory fixed at the call. `None`: the
    /// callee is no such method.
    pub(super) fn user_method(
        &mut self,
        n: &Node,
        member: Option<&Node>,
        obj: &Node,
    ) -> Option<R<Option<(Expr, super::Ty)>>> {
        let decl = match &member?.kind {
            NodeKind::Member { decl: Some(d), .. } => d.clone(),
            _ => return None,
        };
        let model = self.model;
        let f = model.definition(&decl).filter(|f| f.body.is_some())?;
        let arrow = matches!(member?.kind, NodeKind::Member { arrow: true, .. });
        Some((|| {
            let place = match arrow {
                false => self.record_place(obj)?,
                true => self.pointee_record(obj)?,
            };
            self.inline_method(n, f, place, &n.children[1..])
        })())
    }

    /// Inlines method `f` called on the object at `place` with `args`: `this` is bound to the
    /// object for the call.
    pub(super) fn inline_method(
        &mut self,
        n: &Node,
        f: &'a super::Function,
        place: super::record::Place,
        args: &[Node],
    ) -> R<Option<(Expr, super::Ty)>> {
        let want = self.scalar_want(n);
        let slot = self.inline_method_into(n, f, place, args, want)?;
        Ok(super::scalar_result(slot))
    }

    /// [`Self::inline_method`] with a result of the shape `want` (its slot is returned).
    pub(super) fn inline_method_into(
        &mut self,
        n: &Node,
        f: &'a super::Function,
        place: super::record::Place,
        args: &[Node],
        want: Option<super::Want>,
    ) -> R<Option<super::Slot>> {
        let this = match place {
            super::record::Place::Locals(l) => Binding::Record(l),
            super::record::Place::Memory(m) => {
                // The object's first word, evaluated once: C++ binds `this` at the call.
                let base = self.temp(Some(m.base.clone()));
                Binding::RecordRef(std::rc::Rc::new(super::record::InMemory {
                    array: m.array.clone(),
                    prefix: m.prefix.clone(),
                    base: Expr::var(&base),
                    layout: m.layout.clone(),
                }))
            }
        };
        self.this.push(this);
        let r = self.inline_into(n, f, args, want);
        self.this.pop();
        r
    }
}

/// The expression a reference is bound to, under parentheses, `const` conversions and what
/// makes a temporary; and whether C++ made one (a value that is no lvalue).
pub(super) fn under_temporary(mut n: &Node) -> (&Node, bool) {
    let mut temporary = false;
    loop {
        let through = match &n.kind {
            NodeKind::Paren => true,
            NodeKind::ImplicitCast { cast } => cast == "NoOp",
            NodeKind::Other { kind } => {
                temporary |= kind == "MaterializeTemporaryExpr";
                matches!(
                    kind.as_str(),
                    "MaterializeTemporaryExpr" | "ExprWithCleanups" | "CXXBindTemporaryExpr"
                )
            }
            _ => false,
        };
        match n.children.first() {
            Some(c) if through && n.children.len() == 1 => n = c,
            _ => return (n, temporary),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::referent;

    #[test]
    fn reference_types_name_their_referent() {
        assert_eq!(referent("float &"), Some(("float", false)));
        assert_eq!(referent("const int &"), Some(("int", true)));
        assert_eq!(referent("float"), None);
        assert_eq!(referent("float *"), None);
    }
}
