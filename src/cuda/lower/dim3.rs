//! `dim3` locals in kernels and device functions: a struct of three `unsigned` fields `x`, `y`,
//! `z` (a vector type, see `aggregate.rs`), built the way CUDA's constructor builds it — every
//! field not given is 1 (`dim3 b(blockDim.x, 2)` is `{blockDim.x, 2, 1}`, `dim3 d;` is
//! `{1, 1, 1}`, brace lists call the constructor too) — or copied from a launch built-in
//! (`dim3 t = threadIdx;`, also into a `uint3`). Member reads are the fields' values, exact.

use super::*;

/// The launch built-ins that are `uint3`/`dim3` values, by name.
fn builtin_vector(name: &str) -> Option<fn(Dim) -> Builtin> {
    Some(match name {
        "threadIdx" => Builtin::Tid,
        "blockIdx" => Builtin::Bid,
        "blockDim" => Builtin::BlockDim,
        "gridDim" => Builtin::GridDim,
        _ => return None,
    })
}

/// Whether `agg` is CUDA's `dim3`.
pub(super) fn is_dim3(agg: &Agg) -> bool {
    agg.name == "dim3"
}

/// Whether `agg` holds a launch built-in (three `unsigned` fields: `uint3`, `dim3`).
fn holds_builtin(agg: &Agg) -> bool {
    agg.fields.len() == 3 && agg.fields.iter().all(|(_, t)| *t == Ty::UInt)
}

/// The fields of `dim3()` with no arguments.
pub(super) fn dim3_default() -> Vec<Expr> {
    vec![Expr::Const(1); 3]
}

impl<'t> Lx<'_, 't> {
    /// The words of a `dim3`/`uint3` value that only these types have: a launch built-in as a
    /// whole, and for `dim3` its constructor (`(a, b)` of a declaration, `dim3(a, b)`, `{a, b}`).
    /// `None`: not such a value (the general vector/struct rules apply).
    pub(super) fn dim3_value(&mut self, n: Node, agg: &Rc<Agg>) -> Option<R<Vec<Expr>>> {
        let n = strip_parens(n);
        if n.kind() == "identifier" && holds_builtin(agg) {
            let name = text(n, self.src);
            let b = builtin_vector(name).filter(|_| self.lookup(name).is_none())?;
            return Some(Ok([Dim::X, Dim::Y, Dim::Z].into_iter().map(|d| Expr::Builtin(b(d))).collect()));
        }
        if !is_dim3(agg) {
            return None;
        }
        let args: Vec<Node> = match n.kind() {
            "argument_list" | "initializer_list" => {
                let mut c = n.walk();
                let v: Vec<Node> = n.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            "call_expression"
                if n.child_by_field_name("function").is_some_and(|f| text(f, self.src) == "dim3") =>
            {
                self.args(n)
            }
            _ => return None,
        };
        Some(self.dim3_constructor(n, &args, agg))
    }

    /// `dim3(a, b, c)` with 0–3 scalar arguments (missing ones 1), or one `uint3`/`dim3` value.
    fn dim3_constructor(&mut self, n: Node, args: &[Node], agg: &Rc<Agg>) -> R<Vec<Expr>> {
        if let [one] = args {
            let whole = builtin_vector(text(strip_parens(*one), self.src)).is_some()
                || self.agg_of(*one).is_some_and(|a| holds_builtin(&a));
            if whole {
                return self.agg_value(*one, agg);
            }
        }
        if args.len() > 3 {
            return Err(unsupported(format!("`dim3` with {} arguments", args.len()), n));
        }
        if let Some(p) = args.iter().find(|a| a.kind() == "initializer_pair") {
            return Err(unsupported("a designated initializer of a `dim3` (it has a constructor)", *p));
        }
        let mut out = Vec::new();
        for a in args {
            let (e, t) = self.expr(*a)?;
            out.push(convert(e, t, Ty::UInt));
        }
        out.resize(3, Expr::Const(1));
        Ok(out)
    }

    /// `dim3 grid(n);` / `dim3 b(w, h);` with names only, which the parser reads as a function
    /// declaration (C++'s "most vexing parse"); inside a function body, with names of values in
    /// scope, it declares a variable. The fields, or `None` when `d` is no such declarator.
    pub(super) fn dim3_vexing(&mut self, d: Node, agg: &Rc<Agg>) -> Option<R<(String, Vec<Expr>)>> {
        if !is_dim3(agg) || d.kind() != "function_declarator" {
            return None;
        }
        let name = d.child_by_field_name("declarator").filter(|x| x.kind() == "identifier")?;
        let params = d.child_by_field_name("parameters")?;
        let mut c = params.walk();
        let mut args = Vec::new();
        for p in params.named_children(&mut c).filter(|x| x.kind() != "comment") {
            let ty = p.child_by_field_name("type").filter(|t| t.kind() == "type_identifier");
            let value = ty.filter(|t| {
                p.child_by_field_name("declarator").is_none() && self.lookup(text(*t, self.src)).is_some()
            })?;
            args.push(value);
        }
        let mut out = Vec::new();
        for a in &args {
            match self.ident(*a) {
                Ok((e, t)) => out.push(convert(e, t, Ty::UInt)),
                Err(e) => return Some(Err(e)),
            }
        }
        if out.len() > 3 {
            return Some(Err(unsupported(format!("`dim3` with {} arguments", out.len()), d)));
        }
        out.resize(3, Expr::Const(1));
        Some(Ok((text(name, self.src).to_string(), out)))
    }
}
