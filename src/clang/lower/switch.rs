//! `switch` in the clang lowering: a chain of `if`/`else` over the sections of its body.
//!
//! Lowered when every section ends in `break` (or `return`, or is the last one), so no
//! section falls into the next except through labels with no statement between them
//! (`case 1: case 2:`), `break` appears nowhere else in a section, and `default` (if any) is
//! the last section: then exactly one section runs, the first whose values hold, and the chain
//! `if (v == 1 || v == 2) { … } else if (v == 3) { … } else { default }` is the same program.
//! Other shapes (Duff's device, a `break` inside an `if` of a section) are refused at the
//! `switch`.

use super::{jumps, Lx, Node, NodeKind, R};
use crate::kpl::ast::{BinOp, Expr, Stmt, StmtKind};

/// One section: the labels that enter it and its statements (the closing `break` dropped).
struct Section<'n> {
    values: Vec<&'n Node>,
    default: bool,
    stmts: Vec<&'n Node>,
    closed: bool,
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
        let mut sections: Vec<Section> = Vec::new();
        for c in &body.children {
            if !matches!(c.kind, NodeKind::Case | NodeKind::Default) {
                match sections.last_mut() {
                    Some(s) if !s.closed => {
                        if c.kind == NodeKind::Break {
                            s.closed = true;
                        } else {
                            s.stmts.push(c);
                        }
                        continue;
                    }
                    Some(_) => {
                        return Err(self.unsupported("a statement after `break` that no label enters", c))
                    }
                    None => return Err(self.unsupported("a statement before the first `case`", c)),
                }
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
                Some(s) if s.stmts.is_empty() && !s.closed => {
                    s.values.extend(values);
                    s.default |= default;
                }
                Some(s) if !s.closed && !ends_in_return(&s.stmts) => {
                    return Err(self.unsupported("a `case` that falls through into the next", c))
                }
                _ => sections.push(Section { values, default, stmts: Vec::new(), closed: false }),
            }
            let s = sections.last_mut().ok_or_else(|| self.unsupported("this `switch`", n))?;
            if inner.kind == NodeKind::Break {
                s.closed = true;
            } else {
                s.stmts.push(inner);
            }
        }
        for (i, s) in sections.iter().enumerate() {
            if s.default && i + 1 != sections.len() {
                return Err(self.unsupported("a `default` that is not the last section", n));
            }
            if let Some(b) = s.stmts.iter().find(|x| jumps(x, &NodeKind::Break)) {
                return Err(self.unsupported("a `break` inside a section's statements", b));
            }
        }
        self.at(cond);
        let (v, _) = self.rvalue(cond)?;
        let v = match v {
            Expr::Var(_) | Expr::Const(_) => v,
            e => Expr::var(&self.temp(Some(e))),
        };
        self.at(n);
        self.chain(&sections, &v)
    }

    /// `if (v is one of the first section's values) { … } else { the rest }`.
    fn chain(&mut self, sections: &[Section], v: &Expr) -> R<()> {
        let Some((first, rest)) = sections.split_first() else { return Ok(()) };
        if first.default {
            return self.seq(&first.stmts);
        }
        let mut cond: Option<Expr> = None;
        for value in &first.values {
            let (c, _) = self.rvalue(value)?;
            let eq = Expr::bin(BinOp::Eq, v.clone(), c);
            cond = Some(match cond {
                None => eq,
                Some(prev) => Expr::bin(BinOp::Or, prev, eq),
            });
        }
        let cond = cond.unwrap_or(Expr::Const(0));
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
}

fn ends_in_return(stmts: &[&Node]) -> bool {
    stmts.last().is_some_and(|s| s.kind == NodeKind::Return)
}
