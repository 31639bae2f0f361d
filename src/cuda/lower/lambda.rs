//! Lambdas inside a kernel or device function, inlined at each call like device functions.
//!
//! `auto f = [&](int x, int y) { return y * W + x; };` binds `f` to the lambda (no KPL
//! statement); `f(a, b)` inlines its body with the parameters bound like a device function's.
//! The body sees the scope at the CALL (captured names are looked up there): exact for `[&]`
//! captures, and for by-value captures (`[=]`, `[x]`) when no captured name is assigned after
//! the lambda's definition — otherwise the call is an error naming the variable, since the copy
//! and the variable would differ. A lambda that is not called directly (passed to a function,
//! stored, returned) is an error at that use; generic lambdas (`auto` parameters) are errors.

use super::*;

impl<'t> Lx<'_, 't> {
    /// Records `auto f = [captures](params) { … };` (one declarator whose value is a lambda);
    /// false when `n` is not such a declaration.
    pub(super) fn lambda_declaration(&mut self, n: Node<'t>) -> bool {
        let Some(ty) = n.child_by_field_name("type") else { return false };
        if text(ty, self.src) != "auto" {
            return false;
        }
        let mut c = n.walk();
        let decls: Vec<Node<'t>> = n.children_by_field_name("declarator", &mut c).collect();
        let [d] = decls[..] else { return false };
        let (Some(name), Some(value)) = (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
        else {
            return false;
        };
        if name.kind() != "identifier" || value.kind() != "lambda_expression" {
            return false;
        }
        let cname = text(name, self.src).to_string();
        // The name now stands for the lambda (`lambdas`), not a binding of this scope.
        if let Some(scope) = self.scopes.last_mut() {
            scope.remove(&cname);
        }
        self.lambdas.insert(cname, value);
        true
    }

    /// Inlines a call of the lambda bound to `fname`, if there is one.
    pub(super) fn lambda_call(
        &mut self,
        n: Node,
        fname: &str,
        args: &[Node],
    ) -> Option<R<Option<(Expr, Ty)>>> {
        if self.lookup(fname).is_some() {
            return None;
        }
        let lam = *self.lambdas.get(fname)?;
        Some(self.inline_lambda(n, fname, lam, args))
    }

    fn inline_lambda(&mut self, n: Node, fname: &str, lam: Node<'t>, args: &[Node]) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        let body =
            lam.child_by_field_name("body").ok_or_else(|| unsupported("a lambda without a body", lam))?;
        let by_value = lam.child_by_field_name("captures").is_some_and(|c| {
            let t = text(c, src);
            t.contains('=')
                || t.trim_matches(['[', ']']).split(',').any(|x| {
                    let x = x.trim();
                    !x.is_empty() && !x.starts_with('&') && x != "this"
                })
        });
        if by_value {
            if let Some(v) = assigned_after(self.fn_body, lam, body, src) {
                return Err(unsupported(
                    format!("the lambda `{fname}` captures `{v}` by value, and `{v}` is assigned after the lambda"),
                    n,
                )
                .with_note("lambdas are inlined at their calls: capture by reference, or copy the value into a const local"));
            }
        }
        let params = fn_params(lam);
        for p in &params {
            if p.child_by_field_name("type").is_some_and(|t| text(t, src) == "auto") {
                return Err(unsupported(format!("the generic lambda `{fname}` (`auto` parameters)"), *p));
            }
        }
        let ret = self.lambda_result(lam, body, &params)?;
        self.inline_callee(n, fname, None, args, Some((lam, ret)))
    }

    /// The result type of a lambda: its trailing `-> T`, else the type of its first `return e;`
    /// with the parameters typed as declared; `None` for a lambda that returns nothing.
    fn lambda_result(&mut self, lam: Node, body: Node, params: &[Node]) -> R<Option<Ty>> {
        let decl = lam.child_by_field_name("declarator");
        let trailing = decl.and_then(|d| {
            let mut c2 = d.walk();
            let t = d.children(&mut c2).find(|x| x.kind() == "trailing_return_type");
            t
        });
        if let Some(t) =
            trailing.and_then(|t| t.named_child(0)).and_then(|t| t.child_by_field_name("type").or(Some(t)))
        {
            return self.ty(t).map(Some);
        }
        let Some(ret) = first_return_value(body) else { return Ok(None) };
        let mut scope = HashMap::new();
        for p in params {
            let (Some(t), Some(d)) = (p.child_by_field_name("type"), p.child_by_field_name("declarator"))
            else {
                continue;
            };
            if d.kind() == "identifier" {
                if let Ok(ty) = self.ty(t) {
                    scope.insert(text(d, self.src).to_string(), Binding::Var { kpl: String::new(), ty });
                }
            }
        }
        self.scopes.push(scope);
        let ty = self.static_type(ret);
        self.scopes.pop();
        Ok(Some(ty))
    }
}

/// The expression of the first `return e;` under `n` (not inside a nested lambda).
fn first_return_value(n: Node) -> Option<Node> {
    if n.kind() == "return_statement" {
        return n.named_child(0).filter(|e| e.kind() != "comment");
    }
    if n.kind() == "lambda_expression" {
        return None;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().find_map(first_return_value)
}

/// A name used in the lambda's body that the function assigns after the lambda's definition.
fn assigned_after(func: Option<Node>, lam: Node, body: Node, src: &str) -> Option<String> {
    let func = func?;
    let mut used = HashSet::new();
    collect_idents(body, src, &mut used);
    let mut found = None;
    walk_assignments(func, src, &mut |target, at| {
        if at >= lam.end_byte() && used.contains(target) && found.is_none() {
            found = Some(target.to_string());
        }
    });
    found
}

fn walk_assignments(n: Node, src: &str, f: &mut impl FnMut(&str, usize)) {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        _ => None,
    };
    if let Some(t) = target {
        let base = text(t, src).split(|c: char| !(c.is_alphanumeric() || c == '_')).find(|w| !w.is_empty());
        if let Some(b) = base {
            f(b, n.start_byte());
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    for ch in children {
        walk_assignments(ch, src, f);
    }
}
