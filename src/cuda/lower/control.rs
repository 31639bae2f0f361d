//! Jumps in predicated form: `break`/`continue`/`return` flags, `switch` and `goto` regions.

use super::*;

/// A piece of a statement list: one statement, or a region a `goto` forms.
pub(super) enum Unit {
    One(usize),
    /// Items `from..=to` repeat while a backward `goto label` is taken.
    Back {
        from: usize,
        to: usize,
        label: String,
    },
    /// Items `from..to` are skipped by a forward `goto label` (the label is item `to`).
    Fwd {
        from: usize,
        to: usize,
        label: String,
    },
}

/// Whether `goto name` occurs under `n`.
pub(super) fn has_goto(n: Node, name: &str, src: &str) -> bool {
    if n.kind() == "goto_statement" && n.child_by_field_name("label").is_some_and(|l| text(l, src) == name) {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| has_goto(ch, name, src))
}

/// What `break` and `continue` jump to: the flags they set (predicated form).
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) brk: Option<String>,
    /// `None` for a `switch` (a `continue` there belongs to the enclosing loop).
    pub(super) cont: Option<String>,
    pub(super) is_loop: bool,
}

/// Whether a function body has a `return` other than its final top-level one.
pub(super) fn has_early_return(n: Node, final_return: Option<Node>) -> bool {
    if n.kind() == "return_statement" && Some(n) != final_return {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| has_early_return(ch, final_return))
}

/// Whether a `break` (`kind` = "break_statement") or `continue` under `n` jumps out of `n`'s
/// innermost enclosing loop/switch, i.e. is not inside a nested loop (or, for `break`, switch).
pub(super) fn jumps_here(n: Node, kind: &str) -> bool {
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    children.into_iter().any(|ch| {
        if ch.kind() == kind {
            return true;
        }
        let nested_loop = matches!(ch.kind(), "for_statement" | "while_statement" | "do_statement");
        let nested_switch = ch.kind() == "switch_statement" && kind == "break_statement";
        !nested_loop && !nested_switch && jumps_here(ch, kind)
    })
}

/// `!(f1 || f2 || …)` over exit flags.
pub(super) fn not_any(flags: &BTreeSet<String>) -> Expr {
    let any = flags
        .iter()
        .map(|f| Expr::var(f))
        .reduce(|a, b| Expr::bin(BinOp::Or, a, b))
        .unwrap_or(Expr::Const(0));
    Expr::Unary(UnOp::Not, Box::new(any))
}

impl<'t> Lx<'_, 't> {
    /// Declares a fresh per-thread flag local initialized to 0 (not a barrier position: it
    /// stands for nothing in the source).
    pub(super) fn flag(&mut self, base: &str) -> String {
        let name = self.fresh_name(base);
        self.declare_kpl(&name);
        let l = self.emit(StmtKind::Local { name: name.clone(), init: Some(Expr::Const(0)) });
        self.set_place(l, Place::Not(FLAG.into()));
        name
    }

    /// Lowers a statement sequence in the predicated form of unstructured control flow: after a
    /// statement that may set exit flags (`break`, `continue`, `return`), the rest of the
    /// sequence runs under `if (!(f1 || …))`. The place after that statement in the source is
    /// the start of the guarded block (only threads that did not leave reach it), so the
    /// statement's own label is not a barrier position.
    pub(super) fn seq(&mut self, items: &[Node<'t>]) -> R<()> {
        let units = self.goto_units(items)?;
        if units.iter().all(|u| matches!(u, Unit::One(_))) {
            return self.seq_from(
                0,
                items.len(),
                &mut |s, i| {
                    let r = s.stmt(items[i], Ctx::Normal);
                    s.recover(r, items[i])
                },
                &|i| span(items[i]),
            );
        }
        let sp = |u: &Unit| match *u {
            Unit::One(i) => span(items[i]),
            Unit::Back { from, to, .. } => span(items[from]).to(span(items[to])),
            Unit::Fwd { from, to, .. } => span(items[from]).to(span(items[to - 1])),
        };
        self.seq_from(
            0,
            units.len(),
            &mut |s, k| {
                let r = s.unit(items, &units[k]);
                let at = match units[k] {
                    Unit::One(i) | Unit::Back { from: i, .. } | Unit::Fwd { from: i, .. } => items[i],
                };
                s.recover(r, at)
            },
            &|k| sp(&units[k]),
        )
    }

    /// Splits a statement list at the regions that `goto`s to its labels form: a backward goto
    /// (`L: …; if (c) goto L;`) makes the statements from the label to the last goto a loop; a
    /// forward one (`if (c) goto L; …; L:`) makes the statements from the first goto up to the
    /// label a region the jump skips. Regions may not overlap; a goto into a nested statement
    /// or out of its statement list is irreducible here and stays an error at the goto.
    pub(super) fn goto_units(&self, items: &[Node<'t>]) -> R<Vec<Unit>> {
        let mut regions: Vec<Unit> = Vec::new();
        for (l, it) in items.iter().enumerate() {
            if it.kind() != "labeled_statement" {
                continue;
            }
            let Some(name) = it.child_by_field_name("label").map(|x| text(x, self.src).to_string()) else {
                continue;
            };
            let back = items[l..].iter().rposition(|x| has_goto(*x, &name, self.src)).map(|p| l + p);
            let fwd = items[..l].iter().position(|x| has_goto(*x, &name, self.src));
            match (fwd, back) {
                (Some(_), Some(_)) => {
                    return Err(unsupported(
                        format!("`goto {name}` both before and after the label (irreducible control flow)"),
                        *it,
                    ))
                }
                (Some(from), None) => regions.push(Unit::Fwd { from, to: l, label: name }),
                (None, Some(to)) => regions.push(Unit::Back { from: l, to, label: name }),
                (None, None) => {}
            }
        }
        regions.sort_by_key(|u| match u {
            Unit::Back { from, .. } | Unit::Fwd { from, .. } => *from,
            Unit::One(i) => *i,
        });
        let mut units = Vec::new();
        let mut i = 0;
        for r in regions {
            let (from, end) = match &r {
                Unit::Back { from, to, .. } => (*from, *to + 1),
                Unit::Fwd { from, to, .. } => (*from, *to),
                Unit::One(x) => (*x, *x + 1),
            };
            if from < i {
                return Err(unsupported(
                    "overlapping `goto` regions (irreducible control flow)",
                    items[from],
                ));
            }
            units.extend((i..from).map(Unit::One));
            units.push(r);
            i = end;
        }
        units.extend((i..items.len()).map(Unit::One));
        Ok(units)
    }

    pub(super) fn unit(&mut self, items: &[Node<'t>], u: &Unit) -> R<()> {
        match u {
            Unit::One(i) => self.stmt(items[*i], Ctx::Normal),
            Unit::Fwd { from, to, label } => {
                // `goto L` sets a skip flag; the statements after it up to `L:` run under
                // `if (!skip)`; at the label every thread is back.
                let first = self.places.len();
                let before = self.out.len();
                self.cur_span = span(items[*from]);
                let g = self.flag("skip");
                let saved_goto = self.gotos.insert(label.clone(), g.clone());
                let saved = std::mem::take(&mut self.exits);
                let r =
                    self.seq_from(*from, *to, &mut |s, i| s.stmt(items[i], Ctx::Normal), &|i| span(items[i]));
                self.restore_goto(label, saved_goto);
                let set = std::mem::replace(&mut self.exits, saved);
                self.exits.extend(set.into_iter().filter(|f| *f != g));
                r?;
                // After the region's last statement in the source every thread is back: that
                // is after the region's last top-level KPL statement, not inside a guard.
                let p = self.place_after(items[to - 1], Ctx::Normal);
                for q in self.places.iter_mut().skip(first) {
                    if *q == p {
                        *q = Place::Not(LEFT.into());
                    }
                }
                if let Some(l) = self.out.get(before..).and_then(|o| o.last()).map(|s| s.label) {
                    self.set_place(l, p);
                }
                Ok(())
            }
            Unit::Back { from, to, label } => {
                // `local g := 1; while (g) { g := 0; L: …; if (c) { g := 1; } }`.
                self.cur_span = span(items[*from]);
                let g = self.flag("again");
                let a = self.emit(StmtKind::Assign { name: g.clone(), value: Expr::Const(1) });
                self.set_place(a, Place::Not(FLAG.into()));
                let l = self.label();
                let bs = self.label();
                let labeled = items[*from];
                let mut c = labeled.walk();
                let colon = labeled.children(&mut c).find(|x| x.kind() == ":");
                let start = match colon {
                    // A label usually sits at column 0: indent a barrier like the statement.
                    Some(col) => match line_place(self.src, labeled.start_byte(), col.end_byte()) {
                        Place::Line { offset, indent } => {
                            let indent = match col.next_named_sibling() {
                                Some(inner)
                                    if !super::text::same_line(
                                        self.src,
                                        col.end_byte(),
                                        inner.start_byte(),
                                    ) =>
                                {
                                    super::text::indent_of(self.src, inner.start_byte())
                                }
                                _ => indent,
                            };
                            Place::Line { offset, indent }
                        }
                        p => p,
                    },
                    None => Place::Not(INSIDE.into()),
                };
                self.set_place(bs, start);
                let saved_goto = self.gotos.insert(label.clone(), g.clone());
                let saved = std::mem::take(&mut self.exits);
                let r = self.nested(|s| {
                    let z = s.emit(StmtKind::Assign { name: g.clone(), value: Expr::Const(0) });
                    s.set_place(z, Place::Not(FLAG.into()));
                    s.seq_from(*from, *to + 1, &mut |s, i| s.stmt(items[i], Ctx::Normal), &|i| span(items[i]))
                });
                self.restore_goto(label, saved_goto);
                let set = std::mem::replace(&mut self.exits, saved);
                self.exits.extend(set.into_iter().filter(|f| *f != g));
                let (stmts, _) = r?;
                // After the last statement of the region in the source, only threads that do
                // not jump back arrive: they leave the loop. That position is after the loop.
                let p = self.place_after(items[*to], Ctx::Normal);
                for q in self.places.iter_mut().skip(bs.0 as usize + 1) {
                    if *q == p {
                        *q = Place::Not(LEFT.into());
                    }
                }
                self.set_place(l, p);
                let sp = span(items[*from]).to(span(items[*to]));
                let body = Block { label: l, start: bs, stmts, span: sp };
                self.out.push(Stmt {
                    label: l,
                    kind: StmtKind::While { cond: Expr::Var(g), body },
                    span: sp,
                });
                Ok(())
            }
        }
    }

    pub(super) fn restore_goto(&mut self, label: &str, saved: Option<String>) {
        match saved {
            Some(f) => self.gotos.insert(label.to_string(), f),
            None => self.gotos.remove(label),
        };
    }

    pub(super) fn seq_from(
        &mut self,
        from: usize,
        n: usize,
        f: &mut dyn FnMut(&mut Self, usize) -> R<()>,
        sp: &dyn Fn(usize) -> Span,
    ) -> R<()> {
        for i in from..n {
            let saved = std::mem::take(&mut self.exits);
            f(self, i)?;
            let set = std::mem::replace(&mut self.exits, saved);
            self.exits.extend(set.iter().cloned());
            if set.is_empty() {
                continue;
            }
            let moved = self
                .out
                .last()
                .map(|s| s.label)
                .and_then(|l| self.places.get_mut(l.0 as usize))
                .map(|p| std::mem::replace(p, Place::Not(LEFT.into())));
            if i + 1 == n && !moved.as_ref().is_some_and(Place::is_placeable) {
                return Ok(());
            }
            // At the end of the list an empty guard keeps the source position after the
            // jumping statement placeable (e.g. the end of a loop body after `if (c) break;`).
            let cond = not_any(&set);
            let l = self.label();
            let ts = self.label();
            if let Some(p) = moved {
                self.set_place(ts, p);
            }
            self.set_place(l, Place::Not("the end of statements guarded by an exit flag".into()));
            let (stmts, _) = self.nested(|s| s.seq_from(i + 1, n, f, sp))?;
            // The guard's own span is the statement that may jump (diagnostics point at the
            // `return` that makes the rest thread-dependent); its block spans the rest.
            let gspan = if i + 1 < n { sp(i + 1).to(sp(n - 1)) } else { Span::new(sp(i).end, sp(i).end) };
            let then = Block { label: l, start: ts, stmts, span: gspan };
            self.flag_guards.insert(l);
            self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els: None }, span: sp(i) });
            return Ok(());
        }
        Ok(())
    }

    /// `break;` / `continue;`: sets the flag; nothing after it in its block runs.
    pub(super) fn jump(&mut self, n: Node, ctx: Ctx, flag: String) -> R<()> {
        self.simple(n, ctx, |s| {
            s.emit(StmtKind::Assign { name: flag.clone(), value: Expr::Const(1) });
            Ok(())
        })?;
        if let Some(l) = self.out.last().map(|s| s.label) {
            self.set_place(l, Place::Not(LEFT.into()));
        }
        self.exits.insert(flag);
        Ok(())
    }

    /// `return [e];`: the value goes to the inlined function's result variable; an early return
    /// sets the function's return flag (a final one needs none).
    pub(super) fn return_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let mut c = n.walk();
        let value = n.named_children(&mut c).find(|x| x.kind() != "comment");
        let is_final = self.final_return == Some(n);
        let flag = if is_final { None } else { self.frame.ret_flag.clone() };
        if !is_final && flag.is_none() {
            return Err(Diagnostic::error("internal error: an early return without a return flag", span(n)));
        }
        let result = self.frame.ret_value.clone();
        let result_agg = self.frame.ret_agg.clone();
        let discard_ref = self.frame.discard_ref;
        let from = self.places.len();
        self.simple(n, ctx, |s| {
            match (value, result) {
                (Some(v), None) if result_agg.is_some() => {
                    if let Some((agg, comps)) = result_agg {
                        let vals = s.agg_value(v, &agg)?;
                        for (c, e) in comps.into_iter().zip(vals) {
                            s.emit(StmtKind::Assign { name: c, value: e });
                        }
                    }
                }
                (Some(v), Some((var, ty))) => {
                    let (e, t) = s.expr(v)?;
                    s.emit(StmtKind::Assign { name: var, value: convert(e, t, ty) });
                }
                // A discarded reference to a variable: returning it reads nothing.
                (Some(v), None) if discard_ref && strip_parens(v).kind() == "identifier" => {}
                (Some(v), None) => return Err(unsupported("`return` with a value here", v)),
                (None, _) => {}
            }
            if let Some(f) = &flag {
                s.emit(StmtKind::Assign { name: f.clone(), value: Expr::Const(1) });
            }
            Ok(())
        })?;
        self.mark_from(from, LEFT);
        if let Some(f) = flag {
            self.exits.insert(f);
        }
        Ok(())
    }

    /// `switch`: `local sw := e; [local brk, fall := 0;]` then per case, in source order,
    /// `if (fall || sw == v) { fall := 1; stmts }` (`default`: no case value matches), the
    /// cases after one that may `break` guarded by the break flag like any statement sequence.
    pub(super) fn switch_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        let body = n.child_by_field_name("body").ok_or_else(|| unsupported("`switch` without a body", n))?;
        let mut c = body.walk();
        let cases: Vec<Node<'t>> = body.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        if let Some(bad) = cases.iter().find(|x| x.kind() != "case_statement") {
            return Err(unsupported("a statement before the first `case` of a `switch`", *bad));
        }
        self.cur_span = span(n);
        let first = self.places.len();
        let (v, t) = self.expr(cn)?;
        if t == Ty::Float {
            return Err(Diagnostic::error("`switch` on a floating value", span(cn)));
        }
        let sw = self.temp(Some(v));
        let brk = if jumps_here(body, "break_statement") { Some(self.flag("brk")) } else { None };
        let fall = if cases.len() > 1 { Some(self.flag("fall")) } else { None };
        self.mark_from(first, INSIDE);
        let mut values = Vec::new();
        for case in &cases {
            if let Some(v) = case.child_by_field_name("value") {
                let x = const_eval(v, self.src, &mut |name| self.const_value(name))
                    .ok_or_else(|| unsupported("a `case` value that is not an integer constant", v))?;
                values.push(x as u32);
            }
        }
        self.targets.push(Target { brk: brk.clone(), cont: None, is_loop: false });
        let saved = std::mem::take(&mut self.exits);
        let r = self.seq_from(
            0,
            cases.len(),
            &mut |s, i| s.case(cases[i], &sw, fall.as_deref(), &values),
            &|i| span(cases[i]),
        );
        self.targets.pop();
        let set = std::mem::replace(&mut self.exits, saved);
        self.exits.extend(set.into_iter().filter(|f| Some(f) != brk.as_ref()));
        r?;
        if let Some(l) = self.out.last().map(|s| s.label).filter(|l| l.0 as usize >= first) {
            let p = self.place_after(n, ctx);
            self.set_place(l, p);
        }
        Ok(())
    }

    pub(super) fn case(&mut self, case: Node<'t>, sw: &str, fall: Option<&str>, values: &[u32]) -> R<()> {
        let src = self.src;
        let matches = match case.child_by_field_name("value") {
            Some(v) => {
                let x = const_eval(v, src, &mut |name| self.const_value(name)).unwrap_or(0) as u32;
                Expr::bin(BinOp::Eq, Expr::var(sw), Expr::Const(x))
            }
            None => values
                .iter()
                .map(|x| Expr::bin(BinOp::Ne, Expr::var(sw), Expr::Const(*x)))
                .reduce(|a, b| Expr::bin(BinOp::And, a, b))
                .unwrap_or(Expr::Const(1)),
        };
        let cond = match fall {
            Some(f) => Expr::bin(BinOp::Or, Expr::var(f), matches),
            None => matches,
        };
        let mut c = case.walk();
        let colon = case.children(&mut c).find(|x| x.kind() == ":");
        let mut c = case.walk();
        let value = case.child_by_field_name("value");
        let stmts: Vec<Node<'t>> =
            case.named_children(&mut c).filter(|x| x.kind() != "comment" && Some(*x) != value).collect();
        self.cur_span = span(case);
        let l = self.label();
        let ts = self.label();
        let start_place = match colon {
            Some(col) => line_place(src, case.start_byte(), col.end_byte()),
            None => Place::Not(INSIDE.into()),
        };
        self.set_place(ts, start_place);
        self.set_place(l, Place::Not("the end of a `switch` case".into()));
        let (body, _) = self.nested(|s| {
            if let Some(f) = fall {
                s.cur_span = span(case);
                let a = s.emit(StmtKind::Assign { name: f.to_string(), value: Expr::Const(1) });
                s.set_place(a, Place::Not(FLAG.into()));
            }
            s.seq(&stmts)
        })?;
        let then = Block { label: l, start: ts, stmts: body, span: span(case) };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els: None }, span: span(case) });
        Ok(())
    }
}
