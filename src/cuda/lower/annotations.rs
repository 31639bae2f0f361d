//! GPUVerify's annotation language (`__requires`, `__assume`, `__invariant`, …).
//!
//! - `__requires(e)` in the kernel's own body and `__assume(e)` anywhere become KPL
//!   `assume e;` (docs/kpl.md): executions in which they fail are not considered. `e` is a pure
//!   expression over parameters, builtins and locals; `__implies(a, b)` (`!a || b`) and
//!   `__is_pow2(x)` (`x != 0 && (x & (x - 1)) == 0`) may appear in it.
//! - `__requires` of a device function is its caller's obligation, which GPUVerify checks and
//!   autosync does not: it is not assumed (dropping an assumption only adds reports).
//! - An assumption that would read memory, or that uses another of GPUVerify's specification
//!   functions (`__other_int`, `__enabled`, `__read(p)`, …), is dropped with a warning.
//! - Every other annotation (`__assert`, `__ensures`, `__invariant`, `__global_invariant`,
//!   `__function_wide_invariant`, `__reads_from`, `__writes_to`, `__no_read`, `__no_write`,
//!   their `candidate` forms, …) states a property for GPUVerify to prove; autosync neither
//!   proves nor uses it, so it lowers to nothing and its arguments are not evaluated. None of
//!   them restricts executions, so ignoring them never hides a race.

use super::*;

/// Specification functions that may appear inside an assumption and are modelled.
const MODELLED: &[&str] = &["__implies", "__is_pow2"];

/// The name of the file-scope array whose initializer holds the command line's `--assume`
/// expressions (appended to the text by `cuda::lower_all`, after the user's file).
pub(crate) const CLI_ASSUME: &str = "__autosync_cli_assume";

impl<'t> Lx<'_, 't> {
    /// Emits the command line's `--assume` expressions as `assume` statements at the start of
    /// the kernel (after its parameters are bound), with the meaning of `__requires`.
    pub(super) fn cli_assumptions(&mut self, root: Node, body: Node) -> R<()> {
        let mut c = root.walk();
        let Some(decl) = root.named_children(&mut c).find(|d| text(*d, self.src).contains(CLI_ASSUME)) else {
            return Ok(());
        };
        let at = Span::new(body.start_byte(), body.start_byte() + 1);
        let list = Some(decl)
            .filter(|d| d.kind() == "declaration" && !d.has_error())
            .and_then(|d| d.child_by_field_name("declarator"))
            .and_then(|i| i.child_by_field_name("value"))
            .ok_or_else(|| Diagnostic::error("syntax error in an `--assume` expression", at))?;
        let mut c = list.walk();
        let items: Vec<Node> = list.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
        for item in items {
            let shown = text(item, self.src).trim().trim_start_matches('(').trim_end_matches(')').to_string();
            let wrap = |d: Diagnostic| {
                Diagnostic::error(format!("in `--assume '{shown}'`: {}", d.message), at)
                    .with_note("the expression is read in the scope of the kernel's parameters")
            };
            let before = self.out.len();
            let (stmts, cond) = self.nested(|s| s.cond(item)).map_err(wrap)?;
            if stmts.iter().any(|s| !matches!(s.kind, StmtKind::Local { .. } | StmtKind::Assign { .. })) {
                return Err(wrap(Diagnostic::error("an assumption may not read memory", at)));
            }
            self.out.extend(stmts);
            self.emit(StmtKind::Assume { cond });
            for s in &mut self.out[before..] {
                s.span = at;
                self.places[s.label.0 as usize] = Place::Not("an assumption from the command line".into());
            }
        }
        Ok(())
    }

    /// Handles a call of an annotation; `None` when `fname` is not one.
    pub(super) fn annotation(&mut self, n: Node, fname: &str, used: bool) -> Option<R<Option<(Expr, Ty)>>> {
        let assume = match fname {
            "__requires" => true,
            "__assume" => true,
            "__implies" | "__is_pow2" => return Some(self.spec_function(n, fname)),
            _ if crate::clang::IGNORED_ANNOTATIONS.contains(&fname) => false,
            _ => return None,
        };
        if used {
            // `__invariant(…)` as an operand of `,` in a loop condition is evaluated for its
            // effect only; its value is never the condition.
            return Some(Ok(Some((Expr::Const(1), Ty::Int))));
        }
        if !assume || (fname == "__requires" && !self.frame.stack.is_empty()) {
            return Some(Ok(None));
        }
        Some(self.assumption(n, fname))
    }

    /// `__requires(e)` / `__assume(e)`: `assume e;`, or nothing (with a warning) when `e` is
    /// not a pure expression the lowering models.
    fn assumption(&mut self, n: Node, fname: &str) -> R<Option<(Expr, Ty)>> {
        let args = self.args(n);
        super::arity(fname, &args, 1, 1, n)?;
        let arg = args[0];
        if let Some(other) = self.unmodelled_spec(arg) {
            self.warnings.push(
                Diagnostic::warning(format!("`{fname}` not used: `{other}` is not modelled"), span(n))
                    .with_note("the assumption is dropped, which can only add reports"),
            );
            return Ok(None);
        }
        let (stmts, cond) = self.nested(|s| s.cond(arg))?;
        if stmts.iter().any(|s| !matches!(s.kind, StmtKind::Local { .. } | StmtKind::Assign { .. })) {
            self.warnings.push(
                Diagnostic::warning(format!("`{fname}` not used: it reads memory"), span(n))
                    .with_note("the assumption is dropped, which can only add reports"),
            );
            return Ok(None);
        }
        self.out.extend(stmts);
        self.emit(StmtKind::Assume { cond });
        Ok(None)
    }

    /// The first `__name(…)` call inside `n` that an assumption cannot use.
    fn unmodelled_spec(&self, n: Node) -> Option<String> {
        if n.kind() == "call_expression" {
            let f = n.child_by_field_name("function").map(|f| text(f, self.src)).unwrap_or("");
            if f.starts_with("__") && !MODELLED.contains(&f) && !self.prog.has_function(f) {
                return Some(f.to_string());
            }
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        children.into_iter().find_map(|ch| self.unmodelled_spec(ch))
    }

    /// `__implies(a, b)` and `__is_pow2(x)` as 0/1 values.
    fn spec_function(&mut self, n: Node, fname: &str) -> R<Option<(Expr, Ty)>> {
        let args = self.args(n);
        let want = if fname == "__implies" { 2 } else { 1 };
        super::arity(fname, &args, want, want, n)?;
        let e = if fname == "__implies" {
            let a = self.cond(args[0])?;
            let b = self.cond(args[1])?;
            Expr::bin(BinOp::Or, Expr::Unary(UnOp::Not, Box::new(a)), b)
        } else {
            let (x, _) = self.expr(args[0])?;
            let nonzero = Expr::bin(BinOp::Ne, x.clone(), Expr::Const(0));
            let low = Expr::bin(BinOp::BitAnd, x.clone(), Expr::bin(BinOp::Sub, x, Expr::Const(1)));
            Expr::bin(BinOp::And, nonzero, Expr::bin(BinOp::Eq, low, Expr::Const(0)))
        };
        Ok(Some((e, Ty::Int)))
    }
}
