//! Lambdas in device code: `auto f =
//! [captures](params) { … };` binds `f` to its closure (no KPL statement but the copies of
//! by-value captures), and `f(a, b)` inlines the closure's call operator
//! ([`super::super::Model::lambdas`]) like a device function.
//!
//! clang's body of the lambda refers to a captured variable by the variable's own declaration:
//! a capture by reference is therefore the variable's binding where the lambda is called (the
//! variable itself). A capture by value is a copy taken where the lambda is created: a fresh
//! local for a scalar (or a pointer's offset), bound in the variable's place while the body is
//! inlined, so later writes to the variable do not reach the copy (and a `mutable` lambda's
//! writes reach only its copy). Captures of anything else by value, init-captures and `this`
//! are refused; so is any use of the closure but a direct call (a copy, an argument).

use super::{strip, strip_callee, Binding, Lx, Node, NodeKind, R};
use crate::kpl::ast::{Expr, StmtKind};

/// A local bound to a lambda's closure. Which call operator a call of it runs is the one of
/// its type (a closure type is the lambda's own), which clang names at the call.
#[derive(Clone, Debug)]
pub(super) struct Closure {
    /// The variables captured by value and the copies that stand for them in the body.
    copies: Vec<(String, Binding)>,
}

/// The lambda an initializer is, through the nodes that leave it the same object.
fn lambda_of(n: &Node) -> Option<&Node> {
    let mut n = strip(n);
    loop {
        match &n.kind {
            NodeKind::Other { kind } if kind == "LambdaExpr" => return Some(n),
            NodeKind::Other { kind }
                if matches!(
                    kind.as_str(),
                    "ExprWithCleanups" | "MaterializeTemporaryExpr" | "CXXBindTemporaryExpr"
                ) =>
            {
                n = strip(n.children.first()?);
            }
            _ => return None,
        }
    }
}

impl<'a> Lx<'a> {
    /// Hook of `declaration`: `auto f = [..](..) { .. };`. `None`: `v` is not initialized with a
    /// lambda.
    pub(super) fn lambda_local(&mut self, v: &Node) -> Option<R<()>> {
        let NodeKind::Var { id, .. } = &v.kind else { return None };
        let lambda = lambda_of(v.children.first()?)?;
        Some(self.closure(lambda, v).map(|c| {
            self.lambdas.insert(id.clone(), c);
        }))
    }

    fn closure(&mut self, lambda: &Node, v: &Node) -> R<Closure> {
        let class = lambda
            .children
            .first()
            .filter(|c| matches!(&c.kind, NodeKind::Other { kind } if kind == "CXXRecordDecl"));
        let Some(class) = class else {
            return Err(self.unsupported("this lambda", lambda));
        };
        let generic = class
            .children
            .iter()
            .any(|m| matches!(&m.kind, NodeKind::Other { kind } if kind == "FunctionTemplateDecl"));
        if generic {
            return Err(self.unsupported("a generic lambda (`auto` parameters)", lambda));
        }
        // clang lists the captured variables' fields in the closure class in the order of
        // their initializers, which are the lambda's children between the class and the body.
        let fields: Vec<&Node> = class
            .children
            .iter()
            .filter(|c| matches!(&c.kind, NodeKind::Other { kind } if kind == "FieldDecl"))
            .collect();
        let inits = &lambda.children[1..lambda.children.len().saturating_sub(1)];
        if fields.len() != inits.len() {
            return Err(self.unsupported("this lambda's captures", lambda));
        }
        let mut copies = Vec::new();
        for (field, init) in fields.iter().zip(inits) {
            let by_ref = field.ty.as_deref().is_some_and(|t| t.trim_end().ends_with('&'));
            let NodeKind::DeclRef { decl_id, name, .. } = &strip(init).kind else {
                return Err(self
                    .unsupported("a lambda capture that is not a variable (`this`, an init-capture)", init));
            };
            if by_ref {
                continue;
            }
            let copy = match self.bindings.get(decl_id).cloned() {
                Some(Binding::Scalar { kpl, ty }) => {
                    let c = self.fresh(name);
                    self.emit(StmtKind::Local { name: c.clone(), init: Some(Expr::var(&kpl)) });
                    Binding::Scalar { kpl: c, ty }
                }
                Some(Binding::Ptr { array, elem, offset }) => {
                    let c = self.fresh(&format!("{name}_at"));
                    self.emit(StmtKind::Local { name: c.clone(), init: Some(Expr::var(&offset)) });
                    Binding::Ptr { array, elem, offset: c }
                }
                // Values that never change: the copy is the same.
                Some(b @ (Binding::Const(_) | Binding::Alias { .. })) => b,
                _ => {
                    return Err(self.unsupported(
                        format!("the lambda capture of `{name}` by value (only scalars and pointers)"),
                        v,
                    ))
                }
            };
            copies.push((decl_id.clone(), copy));
        }
        Ok(Closure { copies })
    }

    /// Hook of `operator_call`: `f(a, b)` of a local bound to a closure. `None`: `n` calls no
    /// lambda.
    pub(super) fn lambda_call(&mut self, n: &Node) -> Option<R<Option<(super::Expr, super::Ty)>>> {
        let NodeKind::DeclRef { decl_id: op, .. } = &strip_callee(n.children.first()?).kind else {
            return None;
        };
        let model = self.model;
        let f = model.lambdas.get(op)?;
        let object = n.children.get(1)?;
        let closure = match &strip(object).kind {
            NodeKind::DeclRef { decl_id, .. } => self.lambdas.get(decl_id).cloned(),
            _ => None,
        };
        let Some(closure) = closure else {
            return Some(Err(
                self.unsupported("a call of this lambda (only of a local it initializes)", object)
            ));
        };
        let saved: Vec<(String, Option<Binding>)> = closure
            .copies
            .iter()
            .map(|(id, b)| (id.clone(), self.bindings.insert(id.clone(), b.clone())))
            .collect();
        let r = self.inline(n, f, &n.children[2..]);
        for (id, b) in saved {
            match b {
                Some(b) => self.bindings.insert(id, b),
                None => self.bindings.remove(&id),
            };
        }
        Some(r)
    }
}
