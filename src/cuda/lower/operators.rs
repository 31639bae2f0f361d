//! Operators on whole vectors and structs (`a + b` on `float4`, `v * s`, `s * v`, `-v`,
//! `a += b`, `a == b`): C++ has no built-in operator on these types, so the expression is a call
//! of the file's operator function (`operator+`, as a `helper_math.h`-style header defines them),
//! chosen by overload resolution (`overload.rs`) and inlined like any device function. A file
//! that defines no such function is refused, as nvcc would refuse it.

use super::*;

/// The operator and operands of `a + b`, `-a`, `a += b` (`None`: not an operator expression, or
/// a plain `a = b`, which copies).
fn operator_parts<'n>(n: Node<'n>, src: &str) -> Option<(String, Vec<Node<'n>>)> {
    let n = strip_parens(n);
    let op = text(n.child_by_field_name("operator")?, src).to_string();
    match n.kind() {
        "binary_expression" => {
            Some((op, vec![n.child_by_field_name("left")?, n.child_by_field_name("right")?]))
        }
        "assignment_expression" if op != "=" => {
            Some((op, vec![n.child_by_field_name("left")?, n.child_by_field_name("right")?]))
        }
        "unary_expression" => Some((op, vec![n.child_by_field_name("argument")?])),
        _ => None,
    }
}

impl<'t> Lx<'_, 't> {
    /// Whether `n` is an operator expression with a vector or struct operand.
    pub(super) fn is_agg_operator(&self, n: Node) -> bool {
        operator_parts(n, self.src)
            .is_some_and(|(_, operands)| operands.iter().any(|o| self.arg_ty(*o).atoms.iter().any(is_agg)))
    }

    /// Inlines the operator function of `n` (an operator expression with a vector or struct
    /// operand); with `want`, its vector/struct result is taken into `agg_result`.
    fn inline_operator(&mut self, n: Node, want: Option<Rc<Agg>>, statement: bool) -> R<Option<(Expr, Ty)>> {
        let (op, operands) = operator_parts(n, self.src)
            .ok_or_else(|| unsupported(format!("operator `{}`", text(n, self.src)), n))?;
        let fname = format!("operator{op}");
        if !self.prog.has_function(&fname) {
            let ty = operands
                .iter()
                .find_map(|o| {
                    self.arg_ty(*o).atoms.into_iter().find_map(|a| match a {
                        super::overload::Atom::Agg(name) => Some(name),
                        _ => None,
                    })
                })
                .unwrap_or_default();
            return Err(unsupported(
                format!("`{}` on a {ty}: this file defines no `{fname}`", text(n, self.src)),
                n,
            )
            .with_note("C++ has no built-in operators on vector types and structs; a helper_math.h-style header defines them as functions (`float4 operator+(float4 a, float4 b)`)"));
        }
        self.want_agg = want;
        self.discard_ref_result = statement;
        let r = self.inline_call(n, &fname, None, &operands);
        self.want_agg = None;
        self.discard_ref_result = false;
        r
    }

    /// The fields of `n`, an operator expression on vectors/structs whose result is an `agg`.
    pub(super) fn agg_operator(&mut self, n: Node, agg: &Rc<Agg>) -> R<Vec<Expr>> {
        self.inline_operator(n, Some(agg.clone()), false)?;
        match self.agg_result.take() {
            Some(comps) => Ok(comps.into_iter().map(Expr::Var).collect()),
            None => Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n)),
        }
    }

    /// The scalar value of `n`, an operator expression on vectors/structs (`a == b`).
    pub(super) fn scalar_operator(&mut self, n: Node) -> R<(Expr, Ty)> {
        self.inline_operator(n, None, false)?.ok_or_else(|| {
            unsupported(
                format!("the value of `{}` (its operator function returns nothing)", text(n, self.src)),
                n,
            )
        })
    }

    /// `a += b;` (or any operator expression on vectors/structs) as a statement: its result, if
    /// a reference, is discarded.
    pub(super) fn operator_statement(&mut self, n: Node) -> R<()> {
        self.inline_operator(n, None, true).map(|_| ())
    }
}

fn is_agg(a: &super::overload::Atom) -> bool {
    matches!(a, super::overload::Atom::Agg(_))
}
