//! Statements: the dispatch over statement kinds, `if` and the loops (`for`, `while`, `do`).

use super::*;

/// A piece of a loop [`Lx::emit_loop`] runs every iteration (its head or its tail).
pub(super) type LoopHook<'h, S> = &'h mut dyn FnMut(&mut S) -> R<()>;

impl<'t> Lx<'_, 't> {
    pub(super) fn place_after(&self, n: Node, ctx: Ctx) -> Place {
        match ctx {
            Ctx::Normal => line_place(self.src, n.start_byte(), n.end_byte()),
            Ctx::Body { parent_start } => braced_place(self.src, parent_start, n.start_byte(), n.end_byte()),
        }
    }

    /// Lowers a source statement; the last KPL statement it produces gets its place.
    pub(super) fn simple(&mut self, n: Node, ctx: Ctx, f: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        self.cur_span = span(n);
        let before = self.out.len();
        f(self)?;
        if self.out.len() > before {
            if self.out.last().is_some_and(|s| self.inlined.contains(&s.label)) {
                // The statement ends with an inlined body, whose statements keep the places of
                // the function: a no-op marker (a dead local) carries the caller's position
                // after the call, so a barrier can go there instead of into every call.
                self.cur_span = span(n);
                self.temp(None);
            }
            if let Some(l) = self.out.last().map(|s| s.label) {
                let p = self.place_after(n, ctx);
                self.set_place(l, p);
            }
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        match n.kind() {
            "comment" => Ok(()),
            // `[[likely]] if (…)`, `[[unlikely]] …`: the statement without its attributes.
            "attributed_statement" => {
                let mut c = n.walk();
                let inner = n.named_children(&mut c).find(|x| x.kind() != "attribute_declaration");
                match inner {
                    Some(s) => self.stmt(s, ctx),
                    None => Ok(()),
                }
            }
            "expression_statement" => {
                let mut c = n.walk();
                let e = n.named_children(&mut c).find(|x| x.kind() != "comment");
                match e {
                    None => Ok(()),
                    Some(e) => {
                        self.simple(n, ctx, |s| s.group_misparsed_tile(e).unwrap_or_else(|| s.effect(e)))
                    }
                }
            }
            "declaration" if self.lambda_declaration(n) => Ok(()),
            "declaration" if self.is_fn_ptr_declaration(n) => {
                self.simple(n, ctx, |s| s.fn_ptr_declaration(n))
            }
            "declaration" => self.simple(n, ctx, |s| s.declaration(n)),
            "type_definition" | "alias_declaration" => self.local_type(n),
            "compound_statement" => {
                self.scopes.push(HashMap::new());
                let mut c = n.walk();
                let children: Vec<Node> =
                    n.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                let r = self.seq(&children);
                self.scopes.pop();
                r
            }
            "if_statement" => self.if_stmt(n, ctx),
            "while_statement" => self.while_stmt(n, ctx),
            "for_statement" => self.for_stmt(n, ctx),
            "for_range_loop" => self.range_for(n, ctx),
            "do_statement" => self.do_stmt(n, ctx),
            "return_statement" => self.return_stmt(n, ctx),
            "break_statement" => {
                let flag = self
                    .targets
                    .last()
                    .and_then(|t| t.brk.clone())
                    .ok_or_else(|| Diagnostic::error("`break` outside a loop or `switch`", span(n)))?;
                self.jump(n, ctx, flag)
            }
            "continue_statement" => {
                let flag = self
                    .targets
                    .iter()
                    .rev()
                    .find(|t| t.is_loop)
                    .and_then(|t| t.cont.clone())
                    .ok_or_else(|| Diagnostic::error("`continue` outside a loop", span(n)))?;
                self.jump(n, ctx, flag)
            }
            "goto_statement" => {
                let name = n.child_by_field_name("label").map(|x| text(x, self.src)).unwrap_or("");
                match self.gotos.get(name).cloned() {
                    Some(flag) => self.jump(n, ctx, flag),
                    None => Err(unsupported(
                        format!("`goto {name}` into or out of a nested statement (irreducible or not lowered)"),
                        n,
                    )
                    .with_label("jump")
                    .with_note("only a `goto` to a label of an enclosing statement list is lowered (forward: a skip; backward: a loop)")),
                }
            }
            "labeled_statement" => {
                let mut c = n.walk();
                let label = n.child_by_field_name("label");
                let inner = n.named_children(&mut c).find(|x| Some(*x) != label && x.kind() != "comment");
                match inner {
                    Some(s) => self.stmt(s, ctx),
                    None => Ok(()),
                }
            }
            "switch_statement" => self.switch_stmt(n, ctx),
            "preproc_call" => {
                let d = n.child_by_field_name("directive").map(|d| text(d, self.src)).unwrap_or("");
                if d == "#pragma" {
                    Ok(())
                } else {
                    Err(unsupported(format!("preprocessor directive `{d}` inside a kernel"), n))
                }
            }
            k if k.starts_with("preproc") => Err(unsupported("preprocessor directives inside a kernel", n)),
            "ERROR" => Err(Diagnostic::error("syntax error: the CUDA parser cannot read this", span(n))),
            "gnu_asm_expression" | "asm_statement" => Err(unsupported("inline `asm`", n)),
            k => Err(unsupported(format!("statement kind `{k}`"), n)),
        }
    }

    /// Lowers the body of a compound statement into the current (fresh) statement list. Returns
    /// the place of the block's start node.
    pub(super) fn body(&mut self, b: Node<'t>, parent: Node) -> R<Place> {
        if b.kind() == "compound_statement" {
            let place = block_start_place(self.src, b.start_byte(), first_stmt(b));
            let mut c = b.walk();
            let children: Vec<Node> = b.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            self.seq(&children)?;
            Ok(place)
        } else {
            self.stmt(b, Ctx::Body { parent_start: parent.start_byte() })?;
            Ok(Place::Not("the start of a braceless body".into()))
        }
    }

    pub(super) fn cond_clause(&self, n: Node<'t>) -> R<Node<'t>> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| unsupported("a statement without a condition", n))?;
        let c = if c.kind() == "condition_clause" {
            let v =
                c.child_by_field_name("value").ok_or_else(|| unsupported("declarations in conditions", c))?;
            if v.kind() == "declaration" || c.child_by_field_name("initializer").is_some() {
                return Err(unsupported("declarations in conditions", c));
            }
            v
        } else {
            c
        };
        Ok(strip_parens(c))
    }

    pub(super) fn if_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.cur_span = span(n);
        let before = self.places.len();
        let cond = self.cond(cn)?;
        if self.places.len() == before {
            if let Some(v) = fold(&cond) {
                return self.folded_if(n, v != 0);
            }
        }
        let l = self.label();
        let ts = self.label();
        let then_node =
            n.child_by_field_name("consequence").ok_or_else(|| unsupported("`if` without a body", n))?;
        let (then_stmts, tplace) = self.nested(|s| s.body(then_node, n))?;
        self.set_place(ts, tplace);
        let els = match n.child_by_field_name("alternative") {
            Some(alt) => {
                let mut c = alt.walk();
                let body = alt
                    .named_children(&mut c)
                    .find(|x| x.kind() != "comment")
                    .ok_or_else(|| unsupported("empty `else`", alt))?;
                let el = self.label();
                let es = self.label();
                let (stmts, eplace) = self.nested(|s| s.body(body, alt))?;
                self.set_place(es, eplace);
                let p = self.place_after(n, ctx);
                self.set_place(el, p);
                self.set_place(l, Place::Not("between a then block and its else".into()));
                Some(Block { label: el, start: es, stmts, span: span(body) })
            }
            None => {
                let p = self.place_after(n, ctx);
                self.set_place(l, p);
                None
            }
        };
        let then = Block { label: l, start: ts, stmts: then_stmts, span: span(then_node) };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond, then, els }, span: span(n) });
        Ok(())
    }

    /// An `if` whose condition is a constant (`if (blockSize >= 512)` in a template instance):
    /// only the branch taken is lowered, as a plain block; its statements keep their places.
    pub(super) fn folded_if(&mut self, n: Node<'t>, taken: bool) -> R<()> {
        let branch = if taken {
            n.child_by_field_name("consequence")
        } else {
            n.child_by_field_name("alternative").and_then(|alt| {
                let mut c = alt.walk();
                let b = alt.named_children(&mut c).find(|x| x.kind() != "comment");
                b
            })
        };
        let Some(b) = branch else { return Ok(()) };
        self.scopes.push(HashMap::new());
        let r = if b.kind() == "compound_statement" {
            let mut c = b.walk();
            let children: Vec<Node> = b.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            self.seq(&children)
        } else {
            let parent = if taken { n } else { b.parent().unwrap_or(n) };
            self.stmt(b, Ctx::Body { parent_start: parent.start_byte() })
        };
        self.scopes.pop();
        r
    }

    /// Lowers a loop condition the first time, recording its temporaries for [`Self::recond`].
    pub(super) fn loop_cond(&mut self, cn: Node) -> R<(Expr, bool, Recorded)> {
        let before = self.places.len();
        self.record = Some((self.depth, Vec::new()));
        let r = self.cond(cn);
        let rec = self.record.take().map(|r| r.1).unwrap_or_default();
        Ok((r?, self.places.len() > before, rec))
    }

    /// Re-evaluates a loop condition at the end of the body into the same temporaries.
    pub(super) fn recond(&mut self, cn: Node, first: &Expr, rec: Vec<(String, usize)>) -> R<()> {
        let from = self.places.len();
        self.cur_span = span(cn);
        self.replay = Some((self.depth, rec.into()));
        let r = self.cond(cn);
        self.replay = None;
        let again = r?;
        self.mark_from(from, LOOP_COND);
        if &again != first {
            return Err(Diagnostic::error(
                "internal error: a loop condition lowered differently twice",
                span(cn),
            ));
        }
        Ok(())
    }

    pub(super) fn while_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.loop_stmt(n, ctx, Some(cn), None)
    }

    pub(super) fn for_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.for_inner(n, ctx);
        self.scopes.pop();
        r
    }

    pub(super) fn for_inner(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let from = self.places.len();
        if let Some(init) = n.child_by_field_name("initializer") {
            self.cur_span = span(init);
            if init.kind() == "declaration" {
                self.declaration(init)?;
            } else {
                self.effect(init)?;
            }
        }
        self.mark_from(from, FOR_HEADER);
        let cn = n.child_by_field_name("condition").map(strip_parens);
        self.loop_stmt(n, ctx, cn, n.child_by_field_name("update"))
    }

    /// A `while` (no update) or the rest of a `for` after its initializer: `while (cond)
    /// { body; update; <reads of cond again> }`, where the update and the re-reads are not
    /// placeable. A missing condition is `1`. With `break`/`continue`/`return` inside, the
    /// predicated form: flags declared before the loop, the condition conjoined with `!brk`
    /// (and `!ret`), `cont` cleared at the end of each iteration, and the update and re-reads
    /// run only by threads that are still in the loop.
    pub(super) fn loop_stmt(
        &mut self,
        n: Node<'t>,
        ctx: Ctx,
        cn: Option<Node<'t>>,
        update: Option<Node<'t>>,
    ) -> R<()> {
        let body_node =
            n.child_by_field_name("body").ok_or_else(|| unsupported("a loop without a body", n))?;
        self.cur_span = span(n);
        let (brk, cont) = self.loop_flags(body_node);
        if let Some(cn) = cn.filter(|c| self.inlines_call(*c)) {
            return self.evaluated_cond_loop(n, ctx, body_node, (brk, cont), cn, update);
        }
        let (cond, reads, rec) = match cn {
            Some(cn) => {
                self.cur_span = span(cn);
                self.loop_cond(cn)?
            }
            None => (Expr::Const(1), false, Vec::new()),
        };
        let recheck = cond.clone();
        let mut tail = |s: &mut Self| {
            if let Some(u) = update {
                s.for_update(u)?;
            }
            if let (true, Some(cn)) = (reads, cn) {
                s.recond(cn, &recheck, rec.clone())?;
            }
            Ok(())
        };
        self.emit_loop(n, ctx, body_node, (brk, cont), cond, (&mut |_| Ok(()), &mut tail))
    }

    /// A `for` header's update (`i += stride`), its statements marked as the header's.
    fn for_update(&mut self, u: Node<'t>) -> R<()> {
        let from = self.places.len();
        let out_from = self.out.len();
        self.cur_span = span(u);
        self.effect(u)?;
        self.mark_outside_inlined(from, out_from, FOR_HEADER);
        Ok(())
    }

    /// A `for`/`while` whose condition calls a device function or lambda: the inlined body needs
    /// locals of its own at each evaluation, so the condition cannot be replayed into one set
    /// of temporaries. Its value goes into a local instead, as for `do`: `local c := cond;
    /// while (c) { body; update; c := cond }`, each evaluation lowered afresh (fresh locals, its
    /// accesses real statements). The end-of-iteration evaluation is [`Self::loop_tail`]'s tail:
    /// reached after `continue`, skipped by threads that left by `break` or `return` (the
    /// loop's condition is conjoined with their flags). The inlined statements keep the places
    /// of the function's body, the same edit as every other call of it.
    fn evaluated_cond_loop(
        &mut self,
        n: Node<'t>,
        ctx: Ctx,
        body_node: Node<'t>,
        flags: (Option<String>, Option<String>),
        cn: Node<'t>,
        update: Option<Node<'t>>,
    ) -> R<()> {
        self.cur_span = span(cn);
        let first = self.cond(cn)?;
        self.cur_span = span(cn);
        let value = self.temp(Some(first));
        let mut tail = |s: &mut Self| {
            if let Some(u) = update {
                s.for_update(u)?;
            }
            s.cur_span = span(cn);
            let again = s.cond(cn)?;
            s.cur_span = span(cn);
            let a = s.emit(StmtKind::Assign { name: value.clone(), value: again });
            s.set_place(a, Place::Not(LOOP_COND.into()));
            Ok(())
        };
        let cond = Expr::Var(value.clone());
        self.emit_loop(n, ctx, body_node, flags, cond, (&mut |_| Ok(()), &mut tail))
    }

    /// Whether lowering `n` inlines a call of a device function or lambda.
    fn inlines_call(&self, n: Node) -> bool {
        if n.kind() == "call_expression" {
            let mut f = n.child_by_field_name("function");
            while let Some(q) = f.filter(|f| f.kind() == "qualified_identifier") {
                f = q.child_by_field_name("name");
            }
            if let Some(t) = f.filter(|f| f.kind() == "template_function") {
                f = t.child_by_field_name("name");
            }
            // `(*op)(x)` calls through `op`, like `op(x)`.
            if let Some(p) = f.filter(|f| f.kind() == "parenthesized_expression") {
                f = p
                    .named_child(0)
                    .filter(|d| d.kind() == "pointer_expression")
                    .and_then(|d| d.child_by_field_name("argument"));
            }
            if let Some(name) = f.filter(|f| f.kind() == "identifier").map(|f| text(f, self.src)) {
                let inlined = match self.lookup(name) {
                    // A call through a function pointer inlines its candidates.
                    Some(Binding::Func(_)) => true,
                    Some(_) => false,
                    None => self.prog.has_function(name),
                };
                if inlined || self.lambdas.contains_key(name) {
                    return true;
                }
            }
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        children.into_iter().any(|ch| self.inlines_call(ch))
    }

    /// Marks the labels from `from` on as not placeable for `reason`, except those of
    /// statements an inlined function body emitted into `self.out[out_from..]` (and everything
    /// nested in them): they keep the places of the function's body, where every copy of the
    /// statement has the same place.
    pub(super) fn mark_outside_inlined(&mut self, from: usize, out_from: usize, reason: &str) {
        fn labels_in(b: &Block, keep: &mut HashSet<Label>) {
            keep.insert(b.label);
            keep.insert(b.start);
            for s in &b.stmts {
                keep.insert(s.label);
                match &s.kind {
                    StmtKind::If { then, els, .. } => {
                        labels_in(then, keep);
                        if let Some(e) = els {
                            labels_in(e, keep);
                        }
                    }
                    StmtKind::While { body, .. } => labels_in(body, keep),
                    _ => {}
                }
            }
        }
        fn inlined_in(stmts: &[Stmt], inlined: &HashSet<Label>, keep: &mut HashSet<Label>) {
            for s in stmts {
                let nested: Vec<&Block> = match &s.kind {
                    StmtKind::If { then, els, .. } => std::iter::once(then).chain(els.as_ref()).collect(),
                    StmtKind::While { body, .. } => vec![body],
                    _ => Vec::new(),
                };
                if inlined.contains(&s.label) {
                    keep.insert(s.label);
                    nested.into_iter().for_each(|b| labels_in(b, keep));
                } else {
                    nested.into_iter().for_each(|b| inlined_in(&b.stmts, inlined, keep));
                }
            }
        }
        let mut keep = HashSet::new();
        inlined_in(self.out.get(out_from..).unwrap_or(&[]), &self.inlined, &mut keep);
        for (i, p) in self.places.iter_mut().enumerate().skip(from) {
            if !keep.contains(&Label(i as u32)) {
                *p = Place::Not(reason.into());
            }
        }
    }

    /// The loop statement shared by `for`/`while`, `do` and range-based `for`, once its flags
    /// are declared and its condition computed: `while (cond && !flags) { head; body; <cont
    /// cleared>; tail }` with the `break`/`continue` targets, `head` before the body (a
    /// range-based for's element), the `tail` guarded as [`Self::loop_tail`] says, and the
    /// places of the loop and its body's start.
    pub(super) fn emit_loop(
        &mut self,
        n: Node<'t>,
        ctx: Ctx,
        body_node: Node<'t>,
        (brk, cont): (Option<String>, Option<String>),
        cond: Expr,
        (head, tail): (LoopHook<'_, Self>, LoopHook<'_, Self>),
    ) -> R<()> {
        let l = self.label();
        let bs = self.label();
        self.targets.push(Target { brk: brk.clone(), cont: cont.clone(), is_loop: true });
        let saved = std::mem::take(&mut self.exits);
        let r = self.nested(|s| {
            let before = s.out.len();
            head(s)?;
            let headed = s.out.len() > before;
            let p = s.body(body_node, n)?;
            s.loop_tail(cont.as_deref(), tail)?;
            // What `head` emitted runs before the body's `{` in the source (a range-based for's
            // element copy): a barrier at the body's start would follow it, not precede it.
            Ok(if headed { Place::Not(RANGE_HEAD.into()) } else { p })
        });
        self.targets.pop();
        let cond = self.close_loop(saved, cond, brk.as_deref(), cont.as_deref());
        let (stmts, bplace) = r?;
        self.set_place(bs, bplace);
        let p = self.place_after(n, ctx);
        self.set_place(l, p);
        let body = Block { label: l, start: bs, stmts, span: span(body_node) };
        self.out.push(Stmt { label: l, kind: StmtKind::While { cond, body }, span: span(n) });
        Ok(())
    }

    /// Declares the `break`/`continue` flags a loop body needs.
    pub(super) fn loop_flags(&mut self, body: Node) -> (Option<String>, Option<String>) {
        let brk = jumps_here(body, "break_statement").then(|| self.flag("brk"));
        let cont = jumps_here(body, "continue_statement").then(|| self.flag("cont"));
        (brk, cont)
    }

    /// The end of a loop iteration: clears `cont`, then runs `tail` (update, condition re-reads)
    /// only for threads that did not `break` or `return` when the body may have.
    pub(super) fn loop_tail(
        &mut self,
        cont: Option<&str>,
        tail: &mut dyn FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        if let Some(c) = cont {
            let a = self.emit(StmtKind::Assign { name: c.to_string(), value: Expr::Const(0) });
            self.set_place(a, Place::Not(FLAG.into()));
        }
        let leaving: BTreeSet<String> =
            self.exits.iter().filter(|f| Some(f.as_str()) != cont).cloned().collect();
        if leaving.is_empty() {
            return tail(self);
        }
        let before = self.out.len();
        let l = self.label();
        let ts = self.label();
        self.set_place(l, Place::Not(FOR_HEADER.into()));
        self.set_place(ts, Place::Not(FOR_HEADER.into()));
        let (stmts, _) = self.nested(|s| tail(s))?;
        if stmts.is_empty() {
            // Nothing to guard: give the two labels back (labels are dense and in order).
            self.places.truncate(self.places.len() - 2);
            debug_assert_eq!(self.out.len(), before);
            return Ok(());
        }
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts, span: sp };
        self.flag_guards.insert(l);
        self.out.push(Stmt {
            label: l,
            kind: StmtKind::If { cond: not_any(&leaving), then, els: None },
            span: sp,
        });
        Ok(())
    }

    /// After a loop body: conjoins the loop condition with the negated flags of threads that
    /// left the loop and passes `return` flags on to the enclosing statements.
    pub(super) fn close_loop(
        &mut self,
        saved: BTreeSet<String>,
        cond: Expr,
        brk: Option<&str>,
        cont: Option<&str>,
    ) -> Expr {
        let set = std::mem::replace(&mut self.exits, saved);
        let mut cond = cond;
        for f in &set {
            if Some(f.as_str()) != cont {
                cond = Expr::bin(BinOp::And, cond, Expr::Unary(UnOp::Not, Box::new(Expr::var(f))));
            }
        }
        self.exits.extend(set.into_iter().filter(|f| Some(f.as_str()) != brk && Some(f.as_str()) != cont));
        cond
    }

    /// `do B while (c);` → `local d := 1; while (d) { B; d := c; }` (with flags as for loops).
    pub(super) fn do_stmt(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let cn = self.cond_clause(n)?;
        self.cur_span = span(n);
        let body_node = n.child_by_field_name("body").ok_or_else(|| unsupported("`do` without a body", n))?;
        let (brk, cont) = self.loop_flags(body_node);
        self.cur_span = span(n);
        let flag = self.temp(Some(Expr::Const(1)));
        let cond = Expr::Var(flag.clone());
        let mut tail = |s: &mut Self| {
            let from = s.places.len();
            let out_from = s.out.len();
            s.cur_span = span(cn);
            let c = s.cond(cn)?;
            s.emit(StmtKind::Assign { name: flag.clone(), value: c });
            s.mark_outside_inlined(from, out_from, LOOP_COND);
            Ok(())
        };
        self.emit_loop(n, ctx, body_node, (brk, cont), cond, (&mut |_| Ok(()), &mut tail))
    }
}
