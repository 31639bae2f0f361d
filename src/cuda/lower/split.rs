//! Statements a barrier may split (issue #40): `a[i] op= a[j];` and `a[i] = f(a[j]);` read the
//! array they write, so two threads may race inside the one statement (thread 1 reads `a[j]`
//! while thread 2 writes it), and no barrier between two statements separates them. NVIDIA's
//! cure is to read into a local, synchronize, then write; this module gives such a statement a
//! position between its read and its write ([`Place::Split`]) whose barrier rewrites the
//! statement into exactly that form:
//!
//! ```text
//! sdata[tid] += sdata[tid + 16];     const auto autosync_v12 = sdata[tid + 16];
//!                               ->   __syncwarp();
//!                                    sdata[tid] += autosync_v12;
//! ```
//!
//! Guarded (`if (c) a[i] op= a[j];`, no `else`), a barrier inside the `if` would diverge, so the
//! guard is hoisted into a local `bool` evaluated once and the read and the write are guarded
//! separately, the barrier between them reached by every thread that reached the statement:
//!
//! ```text
//! const bool autosync_g12 = c;
//! float autosync_v12;
//! if (autosync_g12) autosync_v12 = a[j];
//! __syncthreads();
//! if (autosync_g12) a[i] op= autosync_v12;
//! ```
//!
//! Invariant: the KPL of the statement is the split form's (C++17 evaluates the right operand of
//! `=` and `op=` first, so the read into a local changes no order), so whether or not a barrier
//! is chosen there, the kernel verified is the kernel written. Only where the source text is
//! the statement itself (no macro) and the value's type is one for every instance (no template
//! in the guarded form, which names it) is a split offered.

use super::{strip, strip_discard, Lx, Node, NodeKind, Target, Ty, R};
use crate::kpl::ast::{Expr, Place, Stmt, StmtKind};
use crate::span::Span;

/// An assignment statement of the form a split rewrites.
struct Parts<'n> {
    lhs: &'n Node,
    rhs: &'n Node,
    /// `+` of `+=`; empty for `=`.
    op: String,
}

fn assignment(n: &Node) -> Option<Parts<'_>> {
    let n = strip_discard(n);
    let op = match &n.kind {
        NodeKind::CompoundAssign { op } => op.trim_end_matches('=').to_string(),
        NodeKind::Binary { op } if op == "=" => String::new(),
        _ => return None,
    };
    match n.children.as_slice() {
        // A pointer stored (`bufs[i] = p` of an array of pointers) writes no memory.
        [lhs, _] if super::pointee(lhs.ty.as_deref().unwrap_or_default()).is_some() => None,
        [lhs, rhs] => Some(Parts { lhs, rhs, op }),
        _ => None,
    }
}

impl Lx<'_> {
    /// An expression statement `n`: an assignment to an element whose right side reads the
    /// same array gets a split position after its right side's reads. `None`: not such a
    /// statement (the caller lowers it as any other).
    pub(super) fn split_statement(&mut self, n: &Node) -> Option<R<()>> {
        let parts = assignment(n)?;
        if !self.is_element_target(parts.lhs) {
            return None;
        }
        Some(self.lower_split(n, &parts))
    }

    fn lower_split(&mut self, n: &Node, parts: &Parts) -> R<()> {
        let before = self.out.len();
        let (v, vt) = self.rvalue(parts.rhs)?;
        let vt = self.unconverted_ty(parts.rhs, vt);
        let read_end = self.out.len();
        let target = self.target(parts.lhs)?;
        let written = match &target {
            Target::Elem { array, .. } => Some(self.wide_base(array).0.to_string()),
            _ => None,
        };
        self.assign_to(target, &parts.op, v, vt, n)?;
        let (Some(written), true) = (written, read_end > before) else { return Ok(()) };
        let reads = &self.out[before..read_end];
        if !self.reads_only(reads, &written) {
            return Ok(());
        }
        let last = reads[reads.len() - 1].label;
        if let Some(place) = self.split_place(n, n, parts, None) {
            self.places[last.0 as usize] = place;
        }
        Ok(())
    }

    /// `if (c) a[i] op= a[j];` without `else` and with a guard that may depend on the thread, in
    /// the split form (module docs). `None`: not this form, or its text cannot be rewritten (the
    /// caller lowers the `if` as usual).
    pub(super) fn split_guarded(&mut self, n: &Node) -> Option<R<()>> {
        let NodeKind::If { has_else: false, .. } = n.kind else { return None };
        let [cond, then] = n.children.as_slice() else { return None };
        let stmt = match &then.kind {
            NodeKind::Compound if then.children.len() == 1 => &then.children[0],
            NodeKind::Compound => return None,
            _ => then,
        };
        let parts = assignment(stmt)?;
        if !self.is_element_target(parts.lhs) || self.in_template() || self.calls_a_function(cond) {
            return None;
        }
        let ty = self.value_type(parts.rhs)?;
        let place = self.split_place(n, stmt, &parts, Some((cond, ty.as_str())))?;
        if !self.reads_array_written(&parts) {
            return None;
        }
        let before = self.out.len();
        let c = match self.condition(cond) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        // A condition of constants: the branch nvcc compiles, as the usual lowering folds it.
        if let (Some(v), true) = (c.constant_value(), self.out.len() == before) {
            return Some(if v != 0 { self.body_stmts(then, n) } else { Ok(()) });
        }
        // A guard every thread evaluates alike: a barrier inside it does not diverge, so the
        // statement keeps its `if` (and the positions inside it, the split one among them).
        if !self.is_varying(&c) {
            let span = self.cur_span;
            let label = self.label();
            let body = self.body(then, n, label);
            return Some(body.map(|then| {
                self.out.push(Stmt { label, kind: StmtKind::If { cond: c, then, els: None }, span });
            }));
        }
        Some(self.lower_guarded(c, &parts, stmt, place))
    }

    fn lower_guarded(&mut self, c: Expr, parts: &Parts, stmt: &Node, place: Place) -> R<()> {
        let guard = self.fresh("split_guard");
        self.emit(StmtKind::Local { name: guard.clone(), init: Some(c) });
        let value = self.fresh("split_value");
        self.emit(StmtKind::Local { name: value.clone(), init: None });
        let span = self.cur_span;
        // The read and the write are the assignment's, where reports point.
        self.at(stmt);
        let read = self.label();
        let mut vt = Ty::Int;
        let then = self.open_block(read, None, |lx| {
            let (v, t) = lx.rvalue(parts.rhs)?;
            vt = lx.unconverted_ty(parts.rhs, t);
            lx.emit(StmtKind::Assign { name: value.clone(), value: v });
            Ok(())
        })?;
        self.out.push(Stmt {
            label: read,
            kind: StmtKind::If { cond: Expr::var(&guard), then, els: None },
            span,
        });
        self.places[read.0 as usize] = place;
        let write = self.label();
        let then = self.open_block(write, None, |lx| {
            let target = lx.target(parts.lhs)?;
            lx.assign_to(target, &parts.op, Expr::var(&value), vt, stmt)
        })?;
        self.out.push(Stmt {
            label: write,
            kind: StmtKind::If { cond: Expr::var(&guard), then, els: None },
            span,
        });
        self.cur_span = span;
        Ok(())
    }

    /// `target = v` or `target op= v`.
    fn assign_to(&mut self, target: Target, op: &str, v: Expr, vt: Ty, n: &Node) -> R<()> {
        if op.is_empty() {
            self.store(target, v, vt);
            Ok(())
        } else {
            self.update(target, op, v, vt, n)
        }
    }

    /// Whether `lhs` is an element in memory (not a local, a pointer or a struct).
    fn is_element_target(&self, lhs: &Node) -> bool {
        let lhs = strip(lhs);
        matches!(lhs.kind, NodeKind::ArraySubscript)
            || matches!(&lhs.kind, NodeKind::Unary { op, .. } if op == "*")
    }

    /// Whether the right side reads the array the left side writes, by the arrays their
    /// subscripts and dereferences name (the guarded form decides before lowering).
    fn reads_array_written(&self, parts: &Parts) -> bool {
        let base = |n: &Node| -> Option<String> {
            let mut b = strip(n);
            loop {
                match &b.kind {
                    NodeKind::ArraySubscript | NodeKind::Unary { .. } => b = strip(b.children.first()?),
                    NodeKind::Binary { op } if op == "+" || op == "-" => b = strip(b.children.first()?),
                    NodeKind::DeclRef { decl_id, .. } => return Some(decl_id.clone()),
                    _ => return None,
                }
            }
        };
        let Some(written) = base(parts.lhs) else { return false };
        parts.rhs.walk().iter().any(|x| {
            matches!(x.kind, NodeKind::ArraySubscript)
                || matches!(&x.kind, NodeKind::Unary { op, .. } if op == "*")
        } && base(x).as_deref() == Some(written.as_str()))
    }

    /// Whether `stmts` (a right side's lowering) are plain reads and locals only, one of them a
    /// read of `array`.
    fn reads_only(&self, stmts: &[Stmt], array: &str) -> bool {
        let simple = stmts.iter().all(|s| {
            matches!(s.kind, StmtKind::Read { .. } | StmtKind::Local { .. } | StmtKind::Assign { .. })
        });
        simple
            && stmts
                .iter()
                .any(|s| matches!(&s.kind, StmtKind::Read { array: a, .. } if self.wide_base(a).0 == array))
    }

    /// Whether the condition calls a function (its effects would run once instead of once per
    /// evaluation: the same, but the text of a call is not moved).
    fn calls_a_function(&self, cond: &Node) -> bool {
        cond.walk().iter().any(|x| matches!(x.kind, NodeKind::Call { .. } | NodeKind::MemberCall { .. }))
    }

    /// Whether the statement being lowered is in a template instance (its text serves every
    /// instance, so a type written into it must not be one instance's).
    fn in_template(&self) -> bool {
        self.kernel_templated
            || self
                .inlining
                .iter()
                .any(|id| self.model.definition(id).is_some_and(|f| !f.template_args.is_empty()))
    }

    /// The type of the right side's value as the source may write it (`float`, `unsigned int`):
    /// clang's, without qualifiers; `None` for anything but a scalar the lowering knows.
    fn value_type(&self, rhs: &Node) -> Option<String> {
        let ty = rhs.ty.as_deref()?;
        let bare: Vec<&str> = ty.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
        let bare = bare.join(" ");
        (self.scalar_of(&bare).is_some() && !bare.contains(['<', '(', '[', '*', '&'])).then_some(bare)
    }

    /// The split position of the statement `replaced` (the assignment `assign` itself, or the
    /// guarded `if` around it, with its condition and the value's type): the assignment's
    /// source text must be exactly `lhs op= rhs;`, so the rewrite moves the source's own
    /// expressions.
    fn split_place(
        &self,
        replaced: &Node,
        assign: &Node,
        parts: &Parts,
        guard: Option<(&Node, &str)>,
    ) -> Option<Place> {
        let stmt = self.statement_span_with_semicolon(replaced)?;
        let text = |node: &Node| -> Option<String> {
            let s = self.span_of(node)?;
            (stmt.start <= s.start && s.end <= stmt.end).then(|| self.src[s.start..s.end].to_string())
        };
        let (lhs, rhs) = (text(parts.lhs)?, text(parts.rhs)?);
        let inner = self.span_of(assign)?;
        if inner.start < stmt.start || inner.end > stmt.end {
            return None;
        }
        let whole = &self.src[inner.start..stmt.end];
        // The statement's text: `lhs op= rhs;` (the assignment, possibly inside the `if`).
        let expected = format!("{}=", parts.op);
        let assignment =
            whole.find(&lhs).and_then(|i| whole[i + lhs.len()..].trim_start().strip_prefix(&expected))?;
        if !assignment.trim_start().starts_with(&rhs) {
            return None;
        }
        let line = crate::diag::line_col(self.src, stmt.start).0;
        let name = |base: &str| {
            let mut name = format!("autosync_{base}{line}");
            while self.src.contains(&name) {
                name.push('_');
            }
            name
        };
        let v = name("v");
        let write =
            if parts.op.is_empty() { format!("{lhs} = {v};") } else { format!("{lhs} {}= {v};", parts.op) };
        let (before, after) = match guard {
            None => (vec![format!("const auto {v} = {rhs};")], vec![write]),
            Some((cond, ty)) => {
                let c = text(cond)?;
                let g = name("g");
                (
                    vec![
                        format!("const bool {g} = {c};"),
                        format!("{ty} {v};"),
                        format!("if ({g}) {v} = {rhs};"),
                    ],
                    vec![format!("if ({g}) {write}")],
                )
            }
        };
        Some(Place::Split {
            start: stmt.start,
            end: stmt.end,
            before,
            after,
            indent: line_indent(self.src, stmt),
            braces: None,
        })
    }
}

/// The whitespace that starts the line holding `s`.
fn line_indent(src: &str, s: Span) -> String {
    let line_start = src[..s.start].rfind('\n').map_or(0, |i| i + 1);
    src[line_start..s.start].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}
