//! `switch` in the clang lowering: a chain of `if`/`else` over the sections of its body, or the
//! predicated form.
//!
//! When every section ends in `break` (or `return`, or is the last one), so no section falls
//! into the next except through labels with no statement between them (`case 1: case 2:`),
//! `break` appears nowhere else in a section, and `default` (if any) is the last section,
//! exactly one section runs, the first whose values hold, and the chain `if (v == 1 || v == 2)
//! { … } else if (v == 3) { … } else { default }` is the same program. Any other shape
//! (fall-through, a `break` inside an `if` of a section, `default` first) is lowered in the
//! predicated form with `matched` and `break` flags.

use super::{jumps, Lx, Node, NodeKind, R};
use crate::kpl::ast::{BinOp, Expr, Stmt, StmtKind};

/// One section: the labels that enter it and its statements, `break`s included.
struct Section<'n> {
    values: Vec<&'n Node>,
    default: bool,
    stmts: Vec<&'n Node>,
}

impl Section<'_> {
    /// Ends in `break` or `return` (nothing falls into the next section).
    fn closed(&self) -> bool {
        self.stmts.last().is_some_and(|s| matches!(s.kind, NodeKind::Break | NodeKind::Return))
    }
}

impl Lx<'_> {
    pub(super) fn switch(&mut self, n: &Node) -> R<()> {
        let (cond, body) = match n.children.as_slice() {
            [c, b] => (c, b),
            _ => return Err(self.unsupported("a `switch` with a declaration in its condition", n)),
        };
        if body.kind != NodeKind::Compound {
            return Err(self.unsupported("a `switch` whose body is not a block", n));
        }
        if let Some(e) = self.goto_out_of_switch(body) {
            return Err(e);
        }
        let mut sections: Vec<Section> = Vec::new();
        for c in &body.children {
            if !matches!(c.kind, NodeKind::Case | NodeKind::Default) {
                // Code before the first label never runs.
                if let Some(s) = sections.last_mut() {
                    s.stmts.push(c);
                }
                continue;
            }
            // Nested labels (`case 1: case 2: s`) all enter the same statement.
            let (mut values, mut default, mut inner) = (Vec::new(), false, c);
            while matches!(inner.kind, NodeKind::Case | NodeKind::Default) {
                if inner.kind == NodeKind::Default {
                    default = true;
                } else if let Some(v) = inner.children.first() {
                    values.push(v);
                }
                match inner.children.last() {
                    Some(next) if !(inner.kind == NodeKind::Case && inner.children.len() < 2) => inner = next,
                    _ => return Err(self.unsupported("a `case` label without a statement", c)),
                }
            }
            match sections.last_mut() {
                // Labels with nothing between them enter one section.
                Some(s) if s.stmts.is_empty() => {
                    s.values.extend(values);
                    s.default |= default;
                }
                _ => sections.push(Section { values, default, stmts: Vec::new() }),
            }
            if let Some(s) = sections.last_mut() {
                s.stmts.push(inner);
            }
        }
        self.at(cond);
        let (v, _) = self.rvalue(cond)?;
        let v = match v {
            Expr::Var(_) | Expr::Const(_) => v,
            e => Expr::var(&self.temp(Some(e))),
        };
        self.at(n);
        let last = sections.len().saturating_sub(1);
        let simple = sections.iter().enumerate().all(|(i, s)| {
            (i == last || (s.closed() && !s.default))
                && s.stmts[..s.stmts.len().saturating_sub(usize::from(s.closed()))]
                    .iter()
                    .all(|x| !jumps(x, &NodeKind::Break))
        });
        if simple {
            let trimmed: Vec<Section> = sections
                .into_iter()
                .map(|mut s| {
                    if s.stmts.last().is_some_and(|x| x.kind == NodeKind::Break) {
                        s.stmts.pop();
                    }
                    s
                })
                .collect();
            return self.chain(&trimmed, &v);
        }
        self.predicated(&sections, &v)
    }

    /// The values of a section's labels as a condition on `v` (`default`: none of `all`).
    fn matches(&mut self, s: &Section, v: &Expr, all: &[Expr]) -> R<Expr> {
        if s.default {
            let none = all.iter().fold(Expr::Const(1), |acc, c| {
                Expr::bin(BinOp::And, acc, Expr::bin(BinOp::Ne, v.clone(), c.clone()))
            });
            return Ok(none);
        }
        let mut cond: Option<Expr> = None;
        for value in &s.values {
            let (c, _) = self.rvalue(value)?;
            let eq = Expr::bin(BinOp::Eq, v.clone(), c);
            cond = Some(match cond {
                None => eq,
                Some(prev) => Expr::bin(BinOp::Or, prev, eq),
            });
        }
        Ok(cond.unwrap_or(Expr::Const(0)))
    }

    /// `if (v is one of the first section's values) { … } else { the rest }`: every section
    /// ends in `break` or `return`, `default` is last.
    fn chain(&mut self, sections: &[Section], v: &Expr) -> R<()> {
        let Some((first, rest)) = sections.split_first() else { return Ok(()) };
        if first.default {
            return self.seq(&first.stmts);
        }
        let cond = self.matches(first, v, &[])?;
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, |lx| lx.seq(&first.stmts))?;
        let els = if rest.is_empty() {
            None
        } else {
            let el = self.label();
            Some(self.open_block(el, None, |lx| lx.chain(rest, v))?)
        };
        self.out.push(Stmt { label, kind: StmtKind::If { cond, then, els }, span });
        Ok(())
    }

    /// Any other `switch` in the lock-step paper's predicated form: a `matched` flag carries
    /// control from a section into the next (fall-through), a `break` flag stops it, and each
    /// section runs under `!brk && (matched || its labels hold)`.
    fn predicated(&mut self, sections: &[Section], v: &Expr) -> R<()> {
        let mut all = Vec::new();
        for s in sections {
            for value in &s.values {
                all.push(self.rvalue(value)?.0);
            }
        }
        let brk = self.flag("brk");
        let matched = self.flag("matched");
        // `continue` inside a `switch` is the enclosing loop's.
        let cont = self.loops.last().and_then(|l| l.cont.clone());
        self.loops.push(super::LoopFlags { brk: Some(brk.clone()), cont });
        let r = (|| -> R<()> {
            for s in sections {
                let enter = self.matches(s, v, &all)?;
                let cond = Expr::bin(
                    BinOp::And,
                    super::not(Expr::var(&brk)),
                    Expr::bin(BinOp::Or, Expr::var(&matched), enter),
                );
                let span = self.cur_span;
                let label = self.label();
                let block = self.open_block(label, None, |lx| {
                    lx.emit(StmtKind::Assign { name: matched.clone(), value: Expr::Const(1) });
                    lx.seq(&s.stmts)
                })?;
                self.out.push(Stmt { label, kind: StmtKind::If { cond, then: block, els: None }, span });
            }
            Ok(())
        })();
        self.loops.pop();
        r
    }
}
