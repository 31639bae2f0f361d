//! Calls of functions the file declares or uses without defining them (a library, another
//! translation unit): nothing of their body is known.
//!
//! Modelling (docs/cuda.md, "Calls"), always with a warning naming the function:
//! - no pointer argument: an opaque pure function of its arguments (uninterpreted: equal
//!   arguments, equal results) that touches no memory the kernel can see;
//! - pointer arguments: for each, one read and (unless the prototype says `const`) one write of
//!   the pointed-to array at an arbitrary per-thread index — any element the function could
//!   reach through it, so every race it could take part in is a race the oracle can find; a
//!   local whose address is passed (`f(&x)`) gets an arbitrary value; the result is arbitrary.

use super::*;

impl<'t> Lx<'_, 't> {
    /// Lowers a call of `fname`, which has no definition in the file.
    pub(super) fn opaque_call(
        &mut self,
        n: Node,
        fname: &str,
        args: &[Node],
        used: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        let proto = self.prog.prototypes.iter().find(|(p, _)| p == fname).map(|(_, d)| *d);
        let (ret, params) = match proto {
            Some(d) => self.prototype(d, fname)?,
            // C++ needs a declaration before a call; without one the call is read as returning
            // `int` and taking no pointer it could write through unless it is given one.
            None => (Some(Ty::Int), Vec::new()),
        };
        let mut values = Vec::new();
        let mut reached = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let read_only = params.get(i).copied().unwrap_or(false);
            if !(self.is_pointer(*a) || self.is_address(*a)) {
                let (e, t) = self.expr(*a)?;
                values.push(e);
                let _ = t;
                continue;
            }
            let a = strip_parens(*a);
            let target =
                self.is_address(a).then(|| a.child_by_field_name("argument")).flatten().map(strip_parens);
            if let Some(t) = target.filter(|t| t.kind() == "identifier") {
                match self.lookup(text(t, src)).cloned() {
                    Some(Binding::Var { kpl, .. }) => {
                        if !read_only {
                            let h = self.temp(None);
                            self.emit(StmtKind::Assign { name: kpl, value: Expr::Var(h) });
                        }
                        reached.push(format!("`{}`", text(t, src)));
                        continue;
                    }
                    Some(Binding::Agg { comps, .. }) => {
                        if !read_only {
                            for c in comps {
                                let h = self.temp(None);
                                self.emit(StmtKind::Assign { name: c, value: Expr::Var(h) });
                            }
                        }
                        reached.push(format!("`{}`", text(t, src)));
                        continue;
                    }
                    _ => {}
                }
            }
            let (array, _, comps) = self.pointer_any(a)?;
            let any = |s: &mut Self| -> Vec<Expr> { comps.iter().map(|_| Expr::Var(s.temp(None))).collect() };
            let index = any(self);
            let t = self.temp(None);
            self.emit(StmtKind::Read { dst: t, array: array.clone(), index });
            if !read_only {
                let index = any(self);
                let v = self.temp(None);
                self.emit(StmtKind::Write { array: array.clone(), index, value: Expr::Var(v) });
            }
            let shown = self.c_name_of(&array);
            reached.push(format!("`{shown}`{}", if read_only { " (read only)" } else { "" }));
        }
        let (result, what) = if reached.is_empty() {
            // A KPL keyword cannot name a call in the printed kernel.
            let name = if crate::kpl::is_keyword(fname) { format!("{fname}_fn") } else { fname.to_string() };
            let r = ret.map(|t| (Expr::Call(name, values), t));
            (r, "assumed to be a pure function of its arguments that touches no memory".to_string())
        } else {
            let r = ret.filter(|_| used).map(|t| (Expr::Var(self.temp(None)), t));
            (r, format!("it may read and write any element reachable through {}", reached.join(", ")))
        };
        self.warnings.push(
            Diagnostic::warning(format!("call to `{fname}`, which has no definition in this file"), span(n))
                .with_note(format!("modelled as an opaque call: {what}")),
        );
        Ok(result.or_else(|| used.then_some((Expr::Const(0), Ty::Int))))
    }

    /// The declared return type of a function without a definition (for typing `?:`).
    pub(super) fn prototype_type(&self, fname: &str) -> Option<Ty> {
        let d = self.prog.prototypes.iter().find(|(p, _)| p == fname).map(|(_, d)| *d)?;
        self.prototype(d, fname).ok()?.0
    }

    /// The return type (`None`: void) and, per parameter, whether it is a pointer to `const`.
    fn prototype(&self, d: Node, fname: &str) -> R<(Option<Ty>, Vec<bool>)> {
        let src = self.src;
        let mut c = d.walk();
        let decls: Vec<Node> = d.children_by_field_name("declarator", &mut c).collect();
        let Some(decl) = decls.into_iter().find(|x| {
            let mut cur = Some(*x);
            while let Some(k) = cur {
                if k.kind() == "function_declarator" {
                    return k.child_by_field_name("declarator").is_some_and(|n| text(n, src) == fname);
                }
                cur = crate::cuda::inner_declarator(k);
            }
            false
        }) else {
            return Ok((Some(Ty::Int), Vec::new()));
        };
        if decl.kind() != "function_declarator" {
            return Err(unsupported(format!("`{fname}` returns a pointer or reference"), decl));
        }
        let ty = d.child_by_field_name("type").ok_or_else(|| unsupported("declaration", d))?;
        let ret = if text(ty, src) == "void" {
            None
        } else if self.agg_type(ty).is_some() {
            return Err(unsupported(format!("the struct or vector result of `{fname}` (no definition)"), d));
        } else {
            Some(self.ty(ty)?)
        };
        let mut params = Vec::new();
        if let Some(list) = decl.child_by_field_name("parameters") {
            let mut c = list.walk();
            for p in list.named_children(&mut c).filter(|p| p.kind() == "parameter_declaration") {
                let mut cc = p.walk();
                let is_const =
                    p.children(&mut cc).any(|ch| ch.kind() == "type_qualifier" && text(ch, src) == "const");
                params.push(is_const);
            }
        }
        Ok((ret, params))
    }

    /// The C name of a KPL array (for messages).
    fn c_name_of(&self, kpl: &str) -> String {
        for scope in self.scopes.iter().rev() {
            for (c, b) in scope {
                if let Binding::Array { kpl: k, .. } = b {
                    if k == kpl {
                        return c.clone();
                    }
                }
            }
        }
        kpl.to_string()
    }
}
