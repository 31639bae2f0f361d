//! `goto`: a
//! `goto` to a label of an enclosing statement list forms a region of that list, lowered in
//! the predicated form with a flag the `goto` sets.
//!
//! - Backward (`L: …; if (c) goto L;`): the statements from the label to the last `goto` are a
//!   loop, `local again := 0; again := 1; while (again) { again := 0; L: …; if (c) again := 1;
//!   }`.
//! - Forward (`if (c) goto L; …; L: …`): the statements from the first `goto` up to the label
//!   run under `if (!skip)` once a `goto` set `skip`; at the label every thread is back.
//!
//! Like `break`, a `goto` stops every loop between it and its label, and the rest of each
//! statement list on the way runs under the flag's guard (`Lx::flags_set_by`). Refused at their
//! place: a label with `goto`s both before and after it, overlapping regions, a `goto` into or
//! out of a nested statement that is no enclosing list (its label is in none), and a `goto` out
//! of a `switch` (whose sections do not stop on a flag).

use super::{is_lambda, Ctx, Lx, Node, NodeKind, Stmt, INSIDE, R};
use crate::cuda::text::{indent_of, line_place, same_line};
use crate::kpl::ast::{Block, Expr, Place, StmtKind};

/// Why a position inside a region has no place: threads that jumped are elsewhere.
const LEFT: &str = "after a jump (`goto`) some threads may have left";

/// A piece of a statement list: one statement, or a region a `goto` forms.
enum Unit {
    One(usize),
    /// Statements `from..=to` repeat while a backward `goto` to the label `id` is taken.
    Back {
        from: usize,
        to: usize,
        id: String,
    },
    /// Statements `from..to` are skipped by a forward `goto` to the label `id` (statement `to`).
    Fwd {
        from: usize,
        to: usize,
        id: String,
    },
}

/// The labels `s` carries (`a: b: stmt`), outermost first.
fn labels(mut s: &Node) -> Vec<&str> {
    let mut out = Vec::new();
    while let NodeKind::Label { decl_id, .. } = &s.kind {
        out.push(decl_id.as_str());
        match s.children.first() {
            Some(c) => s = c,
            None => break,
        }
    }
    out
}

/// The targets of the `goto`s under `n` (not inside a lambda, whose labels are its own).
fn goto_targets(n: &Node) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if let NodeKind::Goto { target } = &n.kind {
            out.push(target.as_str());
        }
        if !is_lambda(n) {
            stack.extend(n.children.iter());
        }
    }
    out
}

fn has_goto(n: &Node, id: &str) -> bool {
    goto_targets(n).contains(&id)
}

impl<'a> Lx<'a> {
    /// The flags of the `goto`s under `s` whose labels are in the lists being lowered: what
    /// `s` may set, like `break`.
    pub(super) fn goto_flags_set_by(&self, s: &Node) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in goto_targets(s) {
            if let Some(f) = self.gotos.get(t) {
                if !out.contains(f) {
                    out.push(f.clone());
                }
            }
        }
        out
    }

    /// Hook of `switch`: a `goto` inside its body to a label outside it is refused.
    pub(super) fn goto_out_of_switch(&self, body: &Node) -> Option<crate::diag::Diagnostic> {
        goto_targets(body)
            .into_iter()
            .any(|t| self.gotos.contains_key(t))
            .then(|| self.unsupported("a `goto` out of a `switch`", body))
    }

    /// `goto L`: sets the flag of `L`'s region.
    pub(super) fn goto_stmt(&mut self, n: &Node, target: &str) -> R<()> {
        match self.gotos.get(target).cloned() {
            Some(f) => {
                self.emit(StmtKind::Assign { name: f, value: Expr::Const(1) });
                Ok(())
            }
            None => Err(self.unsupported(
                "a `goto` into or out of a nested statement (only a `goto` to a label of an enclosing statement list is lowered: forward, a skip; backward, a loop)",
                n,
            )),
        }
    }

    /// Hook of `seq`: a statement list some of whose labels are targets of `goto`s in it.
    /// `None`: no label of the list is (or each is being lowered already).
    pub(super) fn goto_seq(&mut self, stmts: &[&Node]) -> Option<R<()>> {
        let units = match self.goto_units(stmts) {
            Ok(u) => u,
            Err(e) => return Some(Err(e)),
        };
        if units.iter().all(|u| matches!(u, Unit::One(_))) {
            return None;
        }
        Some(self.units(stmts, &units))
    }

    /// The regions of `items`: a backward `goto` makes the
    /// statements from its label to the last `goto` a loop, a forward one makes those from the
    /// first `goto` up to its label a skipped region.
    fn goto_units(&self, items: &[&Node]) -> R<Vec<Unit>> {
        let mut regions: Vec<Unit> = Vec::new();
        for (l, it) in items.iter().enumerate() {
            for id in labels(it) {
                if self.gotos.contains_key(id) {
                    continue;
                }
                let back = items[l..].iter().rposition(|x| has_goto(x, id)).map(|p| l + p);
                let fwd = items[..l].iter().position(|x| has_goto(x, id));
                match (fwd, back) {
                    (Some(_), Some(_)) => {
                        return Err(self.unsupported(
                            "a label with `goto`s both before and after it (irreducible control flow)",
                            it,
                        ))
                    }
                    (Some(from), None) => regions.push(Unit::Fwd { from, to: l, id: id.to_string() }),
                    (None, Some(to)) => regions.push(Unit::Back { from: l, to, id: id.to_string() }),
                    (None, None) => {}
                }
            }
        }
        let bounds = |u: &Unit| match u {
            Unit::Back { from, to, .. } => (*from, *to + 1),
            Unit::Fwd { from, to, .. } => (*from, *to),
            Unit::One(i) => (*i, *i + 1),
        };
        regions.sort_by_key(|u| bounds(u).0);
        let mut units = Vec::new();
        let mut i = 0;
        for r in regions {
            let (from, end) = bounds(&r);
            if from < i {
                return Err(
                    self.unsupported("overlapping `goto` regions (irreducible control flow)", items[from])
                );
            }
            units.extend((i..from).map(Unit::One));
            units.push(r);
            i = end;
        }
        units.extend((i..items.len()).map(Unit::One));
        Ok(units)
    }

    /// The units in order; after one that may jump (`return`, `break`, `continue`, a `goto`
    /// to an enclosing list), the rest runs under `if (!flags)`, as in `seq`.
    fn units(&mut self, items: &[&Node], units: &[Unit]) -> R<()> {
        for (k, u) in units.iter().enumerate() {
            let range = match u {
                Unit::One(i) => {
                    self.stmt(items[*i], Ctx::Normal)?;
                    *i..*i + 1
                }
                Unit::Fwd { from, to, id } => {
                    self.forward(items, *from, *to, id)?;
                    *from..*to
                }
                Unit::Back { from, to, id } => {
                    self.backward(items, *from, *to, id)?;
                    *from..*to + 1
                }
            };
            let rest = &units[k + 1..];
            let mut flags: Vec<String> = Vec::new();
            for s in &items[range] {
                for f in self.flags_set_by(s) {
                    if !flags.contains(&f) {
                        flags.push(f);
                    }
                }
            }
            if !flags.is_empty() && !rest.is_empty() {
                let cond = Self::none_set(&flags);
                let label = self.label();
                let span = self.cur_span;
                let block = self.open_block(label, None, |lx| lx.units(items, rest))?;
                self.out.push(Stmt { label, kind: StmtKind::If { cond, then: block, els: None }, span });
                self.flag_guards.insert(label);
                return Ok(());
            }
        }
        Ok(())
    }

    /// `goto L` before `L:` (statement `to`): statements `from..to` under the skip flag.
    fn forward(&mut self, items: &[&Node], from: usize, to: usize, id: &str) -> R<()> {
        self.at(items[from]);
        let first = self.places.len();
        let before = self.out.len();
        let skip = self.flag("skip");
        self.gotos.insert(id.to_string(), skip);
        let r = self.seq(&items[from..to]);
        self.gotos.remove(id);
        r?;
        // After the region's last statement every thread is back: that is after the region's
        // last top-level statement, not inside a guard.
        let p = self.place_after(items[to - 1], Ctx::Normal);
        self.mark_left(first, &p);
        if let Some(l) = self.out.get(before..).and_then(|o| o.last()).map(|s| s.label) {
            self.places[l.0 as usize] = p;
        }
        Ok(())
    }

    /// `L: …; goto L;` (the label is statement `from`, the last `goto` in statement `to`).
    fn backward(&mut self, items: &[&Node], from: usize, to: usize, id: &str) -> R<()> {
        self.at(items[from]);
        let again = self.flag("again");
        self.emit(StmtKind::Assign { name: again.clone(), value: Expr::Const(1) });
        let span = self.cur_span;
        let label = self.label();
        let start = self.label();
        self.places[start.0 as usize] = self.after_label(items[from]);
        self.gotos.insert(id.to_string(), again.clone());
        let r = self.nested(|lx| {
            lx.emit(StmtKind::Assign { name: again.clone(), value: Expr::Const(0) });
            lx.seq(&items[from..=to])
        });
        self.gotos.remove(id);
        let (stmts, ()) = r?;
        // After the region's last statement only threads that do not jump back arrive: they
        // leave the loop, so that position is after it.
        let p = self.place_after(items[to], Ctx::Normal);
        self.mark_left(start.0 as usize + 1, &p);
        self.places[label.0 as usize] = p;
        let body = Block { label, start, stmts, span };
        self.out.push(Stmt { label, kind: StmtKind::While { cond: Expr::var(&again), body }, span });
        Ok(())
    }

    /// The places from label `first` on that are `p`: no longer a place there (it is the
    /// region's end, which the caller gives to the statement all threads reach).
    fn mark_left(&mut self, first: usize, p: &Place) {
        for q in self.places.iter_mut().skip(first) {
            if q == p {
                *q = Place::Not(LEFT.into());
            }
        }
    }

    /// The place after the `:` of the label `n` starts with, indented like the statement when
    /// that is on a line of its own (a label usually sits at column 0).
    fn after_label(&self, n: &Node) -> Place {
        let (Some(span), NodeKind::Label { name, .. }) = (self.span_of(n), &n.kind) else {
            return Place::Not(INSIDE.into());
        };
        let bytes = self.src.as_bytes();
        let mut i = span.start + name.len();
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if bytes.get(i) != Some(&b':')
            || !self.src.get(span.start..).is_some_and(|s| s.starts_with(name.as_str()))
        {
            return Place::Not(INSIDE.into());
        }
        let colon_end = i + 1;
        match line_place(self.src, span.start, colon_end) {
            Place::Line { offset, indent } => {
                let inner = n.children.first().and_then(|c| self.span_of(c)).map(|s| s.start);
                let indent = match inner {
                    Some(s) if !same_line(self.src, colon_end, s) => indent_of(self.src, s),
                    _ => indent,
                };
                Place::Line { offset, indent }
            }
            p => p,
        }
    }
}
