//! References: reference locals and reference parameters bound to an lvalue.

use super::*;

impl<'t> Lx<'_, 't> {
    /// A reference local `T &r = init;` (`const T &r`, `float4 &v`) declared by `decl`: bound
    /// like a reference parameter ([`Self::ref_arg`]) to the lvalue `init` denotes, its index
    /// evaluated once, here; reads and writes of `r` are reads and writes of that lvalue. A
    /// `const` one bound to a non-lvalue holds a copy.
    pub(super) fn ref_local(
        &mut self,
        decl: Node,
        rd: Node,
        init: Node,
        agg: Option<Rc<Agg>>,
        ty: Ty,
    ) -> R<()> {
        let Some(name) = rd.named_child(0).filter(|x| x.kind() == "identifier") else {
            return Err(self.bad_declarator(rd));
        };
        let cname = text(name, self.src).to_string();
        let is_const = {
            let mut c = decl.walk();
            let q = decl
                .children(&mut c)
                .any(|ch| ch.kind() == "type_qualifier" && text(ch, self.src) == "const");
            q
        };
        // Where `r` is visible: the enclosing block (a name assigned anywhere there counts).
        let scope = decl.parent().unwrap_or(decl);
        let writes = assigns(scope, self.src, &cname) || body_writes_fields(scope, self.src, &cname);
        self.binding_local = true;
        let b = self.ref_arg(init, &cname, agg, ty, is_const, writes);
        self.binding_local = false;
        self.bind_bound(b?, scope);
        Ok(())
    }

    /// The index of an element a reference is bound to, evaluated now: every component that is
    /// not a constant is copied into a fresh local, so later writes to the variables it reads
    /// do not move the reference.
    pub(super) fn fix_index(&mut self, base: &str, index: Vec<Expr>) -> Vec<Expr> {
        let mut out = Vec::new();
        for (i, c) in index.into_iter().enumerate() {
            if matches!(c, Expr::Const(_)) {
                out.push(c);
                continue;
            }
            let b = format!("{base}_i{i}");
            let name =
                if self.taken.contains(&b) || crate::kpl::is_keyword(&b) { self.fresh_name(&b) } else { b };
            self.declare_kpl(&name);
            let l = self.emit(StmtKind::Local { name: name.clone(), init: Some(c) });
            self.set_place(l, Place::Not(INSIDE.into()));
            out.push(Expr::Var(name));
        }
        out
    }

    /// Binds the reference parameter `cname` (`T &x`, `const T &x`; `agg` for a vector/struct
    /// `T`) to the argument `a`: the lvalue it denotes (a local, a vector/struct field, an array
    /// element, a whole vector/struct local or element), its indices evaluated once, now. A
    /// `const` reference to something that is not an lvalue of type `T` binds a copy (C++ binds
    /// it to a temporary); a non-`const` one is an error. `writes`: the callee assigns `cname`.
    pub(super) fn ref_arg(
        &mut self,
        a: Node,
        cname: &str,
        agg: Option<Rc<Agg>>,
        ty: Ty,
        is_const: bool,
        writes: bool,
    ) -> R<BoundParam> {
        let role = if self.binding_local { "local" } else { "parameter" };
        let a = strip_parens(a);
        let cname = cname.to_string();
        let not_lvalue = |what: &str| {
            unsupported(
                format!("binding the reference {role} `&{cname}` to `{}` ({what})", text(a, self.src)),
                a,
            )
            .with_note("a non-`const` reference must be bound to a variable, a field or an array element of its type")
        };
        if let Some(agg) = agg {
            let bound = match a.kind() {
                "identifier" => {
                    let b = self.lookup(text(a, self.src)).cloned();
                    match &b {
                        Some(Binding::Agg { agg: a2, .. }) | Some(Binding::Ref { agg: Some(a2), .. })
                            if a2.fields == agg.fields =>
                        {
                            b
                        }
                        _ => None,
                    }
                }
                "subscript_expression" if self.agg_base(a).is_some_and(|(_, a2)| a2.fields == agg.fields) => {
                    let (array, index, _) = self.agg_element(a)?;
                    let index = self.fix_index(&cname, index);
                    Some(Binding::Ref { array, elem: agg.fields[0].1, index, agg: Some(agg.clone()) })
                }
                // `*p`, `*(p + k)`: the element a pointer into a vector/struct array points at.
                "pointer_expression"
                    if is_deref(a)
                        && a.child_by_field_name("argument")
                            .and_then(|p| self.agg_of(p))
                            .is_some_and(|a2| a2.fields == agg.fields) =>
                {
                    let ptr =
                        a.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", a))?;
                    let (array, index, _) = self.agg_deref(ptr)?;
                    let index = self.fix_index(&cname, index);
                    Some(Binding::Ref { array, elem: agg.fields[0].1, index, agg: Some(agg.clone()) })
                }
                _ => None,
            };
            return match bound {
                Some(binding) => Ok(BoundParam::Alias { cname, binding }),
                None if is_const => {
                    let values = self.agg_value(a, &agg)?;
                    Ok(BoundParam::AggValue { cname, agg, values })
                }
                None => Err(not_lvalue(&format!("not a {} variable or element", agg.name))),
            };
        }
        // A scalar: the lvalue as a binding with its type, or `None` when `a` is not one.
        let lvalue: Option<(Binding, Ty)> = match a.kind() {
            "identifier" => {
                let name = text(a, self.src);
                self.bring_file_array(name);
                match self.lookup(name).cloned() {
                    Some(Binding::Var { kpl, ty: t }) => {
                        if writes && self.params.contains(&kpl) {
                            // KPL parameters are read-only; the kernel assigns no copy of it.
                            return Err(unsupported(
                                if role == "local" {
                                    format!("binding the reference local `&{cname}` to the kernel parameter `{name}`, and assigning it")
                                } else {
                                    format!("passing the kernel parameter `{name}` to the reference parameter `&{cname}`, which the function assigns")
                                },
                                a,
                            )
                            .with_note("copy the parameter into a local first"));
                        }
                        Some((Binding::Var { kpl, ty: t }, t))
                    }
                    Some(Binding::Ref { array, elem, index, agg: None }) => {
                        Some((Binding::Ref { array, elem, index, agg: None }, elem))
                    }
                    Some(Binding::Array { kpl, elem, scalar: true, .. }) => Some((
                        Binding::Ref { array: kpl, elem, index: vec![Expr::Const(0)], agg: None },
                        elem,
                    )),
                    _ => None,
                }
            }
            "field_expression" => match self.field_target(a)? {
                Some(Target2::Var(v, t)) => Some((Binding::Var { kpl: v, ty: t }, t)),
                Some(Target2::Mem(array, index, t)) => {
                    let index = self.fix_index(&cname, index);
                    Some((Binding::Ref { array, elem: t, index, agg: None }, t))
                }
                None => None,
            },
            "subscript_expression" => {
                let (array, index, t) = self.access(a)?;
                let index = self.fix_index(&cname, index);
                Some((Binding::Ref { array, elem: t, index, agg: None }, t))
            }
            "pointer_expression" if a.child_by_field_name("operator").is_some_and(|o| o.kind() == "*") => {
                let (array, index, t) = self.access(a)?;
                let index = self.fix_index(&cname, index);
                Some((Binding::Ref { array, elem: t, index, agg: None }, t))
            }
            _ => None,
        };
        match lvalue {
            Some((binding, t)) if t == ty => Ok(BoundParam::Alias { cname, binding }),
            Some((binding, t)) if is_const => {
                // A converted copy of the lvalue's current value.
                let value = match binding {
                    Binding::Var { kpl, .. } => Expr::Var(kpl),
                    Binding::Ref { array, index, .. } => {
                        let tmp = self.temp(None);
                        self.emit(StmtKind::Read { dst: tmp.clone(), array, index });
                        Expr::Var(tmp)
                    }
                    _ => return Err(not_lvalue("an unexpected binding")),
                };
                Ok(BoundParam::Value { cname, value: convert(value, t, ty), ty, ctype: None })
            }
            Some(_) => Err(not_lvalue("an lvalue of another type")),
            None if is_const => {
                let (e, t) = self.expr(a)?;
                Ok(BoundParam::Value { cname, value: convert(e, t, ty), ty, ctype: None })
            }
            None => Err(not_lvalue("not a variable, field or array element")),
        }
    }
}
