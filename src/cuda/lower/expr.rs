//! Expressions in C evaluation order: operators, names, assignments, side effects.

use super::*;

impl<'t> Lx<'_, 't> {
    /// A condition: the expression's truth value (floats compared with 0).
    pub(super) fn cond(&mut self, n: Node) -> R<Expr> {
        let (e, t) = self.expr(n)?;
        Ok(truth(e, t))
    }

    /// Whether lowering `n` could emit statements (memory accesses or side effects).
    pub(super) fn effectful(&self, n: Node) -> bool {
        match n.kind() {
            "subscript_expression" | "assignment_expression" | "update_expression" | "pointer_expression" => {
                return true
            }
            "call_expression" => {
                let f = n.child_by_field_name("function").map(|f| text(f, self.src)).unwrap_or("");
                if !intrinsics::is_pure(f) {
                    return true;
                }
            }
            "identifier" => {
                if let Some(Binding::Array { .. }) = self.lookup(text(n, self.src)) {
                    return true;
                }
                if self.lookup(text(n, self.src)).is_none() {
                    let name = text(n, self.src);
                    if self.file.arrays.iter().any(|a| a.name == name) {
                        return true;
                    }
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        children.into_iter().any(|ch| self.effectful(ch))
    }

    /// Whether the operand of `*` is a pointer to scalars (not into a vector/struct array).
    fn is_pointer_arg(&self, n: Node) -> bool {
        n.child_by_field_name("argument").is_some_and(|a| self.is_pointer(a) && self.agg_of(a).is_none())
    }

    /// Lowers an expression whose value is not used.
    pub(super) fn effect(&mut self, n: Node) -> R<()> {
        let n = strip_parens(n);
        match n.kind() {
            "comma_expression" => {
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("comma", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("comma", n))?;
                self.effect(l)?;
                self.effect(r)
            }
            "update_expression" => self.update(n, false).map(|_| ()),
            // `a += b;` on a vector or struct: the file's `operator+=` (see `operators.rs`).
            "assignment_expression" | "binary_expression" | "unary_expression" if self.is_agg_operator(n) => {
                self.operator_statement(n)
            }
            "assignment_expression" => self.assign(n).map(|_| ()),
            "call_expression" => self.call(n, false).map(|_| ()),
            "conditional_expression" if self.branch_effects(n) => {
                let (c, a, b) = self.ternary_parts(n)?;
                let ce = self.cond(c)?;
                let l = self.label();
                let ts = self.label();
                let (then, _) = self.nested(|s| s.effect(a))?;
                let el = self.label();
                let es = self.label();
                let (els, _) = self.nested(|s| s.effect(b))?;
                let sp = self.cur_span;
                let then = Block { label: l, start: ts, stmts: then, span: sp };
                let els = Some(Block { label: el, start: es, stmts: els, span: sp });
                self.out.push(Stmt { label: l, kind: StmtKind::If { cond: ce, then, els }, span: sp });
                Ok(())
            }
            _ => self.expr(n).map(|_| ()),
        }
    }

    pub(super) fn branch_effects(&self, n: Node) -> bool {
        ["consequence", "alternative"]
            .iter()
            .any(|f| n.child_by_field_name(f).is_some_and(|x| self.effectful(x)))
    }

    pub(super) fn ternary_parts<'n>(&self, n: Node<'n>) -> R<(Node<'n>, Node<'n>, Node<'n>)> {
        let get =
            |f: &str| n.child_by_field_name(f).ok_or_else(|| unsupported("`?:` without all operands", n));
        Ok((get("condition")?, get("consequence")?, get("alternative")?))
    }

    pub(super) fn expr(&mut self, n: Node) -> R<(Expr, Ty)> {
        let src = self.src;
        match n.kind() {
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| unsupported("empty parentheses", n))?;
                if inner.kind() == "compound_statement" {
                    return Err(unsupported("statement expressions", n));
                }
                self.expr(inner)
            }
            "number_literal" => match parse_number(text(n, src)) {
                Some(Lit::Int(v, t)) => Ok((Expr::Const(v), t)),
                Some(Lit::Float(f)) => Ok((Expr::Const(f.to_bits()), Ty::Float)),
                None => Err(unsupported(format!("literal `{}` (wider than 32 bits or malformed)", text(n, src)), n)),
            },
            "char_literal" => parse_char(text(n, src))
                .map(|v| (Expr::Const(v), Ty::Int))
                .ok_or_else(|| unsupported(format!("character literal {}", text(n, src)), n)),
            "true" => Ok((Expr::Const(1), Ty::Int)),
            "false" => Ok((Expr::Const(0), Ty::Int)),
            "identifier" => self.ident(n),
            "qualified_identifier" if self.file.macros.contains_key(&text(n, src).replace(' ', "")) => {
                // `Border::Clamp`: an enum constant (see `typedefs`).
                let name = text(n, src).replace(' ', "");
                match self.file.macros.get(&name) {
                    Some(MacroVal::Const(v)) if *v >= i32::MIN as i64 && *v <= u32::MAX as i64 => {
                        Ok((Expr::Const(*v as u32), if *v > i32::MAX as i64 { Ty::UInt } else { Ty::Int }))
                    }
                    _ => Err(Diagnostic::error(format!("unknown name `{name}`"), span(n))
                        .with_label("not an enum constant of this file")),
                }
            }
            // `*p` or `p[0]` of a pointer to a scalar local: the variable itself.
            "pointer_expression" | "subscript_expression" if self.var_pointee(n).is_some() => {
                let (kpl, ty) = self.var_pointee(n).ok_or_else(|| unsupported("dereference", n))?;
                Ok((Expr::Var(kpl), ty))
            }
            "field_expression" => self.field(n),
            "subscript_expression" => {
                let (array, index, elem) = self.access(n)?;
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok((Expr::Var(t), elem))
            }
            // An operator on a vector or struct with a scalar result (`a == b`): the file's
            // operator function (see `operators.rs`).
            "unary_expression" | "binary_expression" if self.is_agg_operator(n) => self.scalar_operator(n),
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let a = n.child_by_field_name("argument").ok_or_else(|| unsupported("unary operator", n))?;
                let (e, t) = self.expr(a)?;
                match (op, t) {
                    ("+", _) => Ok((e, t)),
                    ("-", Ty::Float) => Ok((Expr::Call("fneg".into(), vec![e]), Ty::Float)),
                    ("-", _) => Ok((Expr::Unary(UnOp::Neg, Box::new(e)), t)),
                    ("!", _) => Ok((Expr::Unary(UnOp::Not, Box::new(truth(e, t))), Ty::Int)),
                    ("~", Ty::Float) => Err(unsupported("`~` on a floating value", n)),
                    ("~", _) => Ok((Expr::Unary(UnOp::BitNot, Box::new(e)), t)),
                    _ => Err(unsupported(format!("unary operator `{op}`"), n)),
                }
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("binary operator", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("binary operator", n))?;
                if op == "&&" || op == "||" {
                    return self.logical(op, l, r);
                }
                let a = self.expr(l)?;
                let b = self.expr(r)?;
                binary(op, a, b).map_err(|m| unsupported(m, n))
            }
            "conditional_expression" => {
                let (c, a, b) = self.ternary_parts(n)?;
                let ce = self.cond(c)?;
                if !self.branch_effects(n) {
                    let (x, tx) = self.expr(a)?;
                    let (y, ty) = self.expr(b)?;
                    let t = common(tx, ty);
                    return Ok((Expr::Select(Box::new(ce), Box::new(convert(x, tx, t)), Box::new(convert(y, ty, t))), t));
                }
                let result_ty = {
                    // The branch types decide the result type; compute them without emitting.
                    let ta = self.static_type(a);
                    let tb = self.static_type(b);
                    common(ta, tb)
                };
                let tmp = self.temp(None);
                let l = self.label();
                let ts = self.label();
                let (then, _) = self.nested(|s| {
                    let (x, tx) = s.expr(a)?;
                    s.emit(StmtKind::Assign { name: tmp.clone(), value: convert(x, tx, result_ty) });
                    Ok(())
                })?;
                let el = self.label();
                let es = self.label();
                let (els, _) = self.nested(|s| {
                    let (y, ty) = s.expr(b)?;
                    s.emit(StmtKind::Assign { name: tmp.clone(), value: convert(y, ty, result_ty) });
                    Ok(())
                })?;
                let sp = self.cur_span;
                let then = Block { label: l, start: ts, stmts: then, span: sp };
                let els = Some(Block { label: el, start: es, stmts: els, span: sp });
                self.out.push(Stmt { label: l, kind: StmtKind::If { cond: ce, then, els }, span: sp });
                Ok((Expr::Var(tmp), result_ty))
            }
            "assignment_expression" if self.is_agg_operator(n) => self.scalar_operator(n),
            "assignment_expression" => self.assign(n),
            "update_expression" => self.update(n, true),
            "comma_expression" => {
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("comma", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("comma", n))?;
                self.effect(l)?;
                self.expr(r)
            }
            "cast_expression" => {
                let ty_node = n.child_by_field_name("type").ok_or_else(|| unsupported("cast", n))?;
                let v = n.child_by_field_name("value").ok_or_else(|| unsupported("cast", n))?;
                let to = self.type_descriptor(ty_node)?;
                let (e, t) = self.expr(v)?;
                Ok((convert(e, t, to), to))
            }
            "sizeof_expression" => {
                // `sizeof(T)` of a template parameter parses as an expression in parentheses.
                let written = n.child_by_field_name("type").map(|t| text(t, src)).or_else(|| {
                    n.child_by_field_name("value")
                        .filter(|v| v.kind() == "parenthesized_expression")
                        .and_then(|v| v.named_child(0))
                        .filter(|i| i.kind() == "identifier" && self.lookup(text(*i, src)).is_none())
                        .map(|i| text(i, src))
                });
                let size = written.and_then(|t| self.type_size(t)).ok_or_else(|| {
                    unsupported("`sizeof` of anything but a scalar or vector type (also through a template parameter)", n)
                })?;
                Ok((Expr::Const(size as u32), Ty::UInt))
            }
            "call_expression" => self.call(n, true).map(|r| r.unwrap_or((Expr::Const(0), Ty::Int))),
            // `*p` as a value: a read of the element `p` points at (a whole vector/struct
            // element is not a scalar value: see `agg_value`).
            "pointer_expression" if is_deref(n) && self.is_pointer_arg(n) => {
                let (array, index, elem) = self.access(n)?;
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok((Expr::Var(t), elem))
            }
            "pointer_expression" => Err(unsupported(
                format!("pointer operation `{}` (an address only as an atomic's target, a pointer parameter's argument or a pointer local's initializer)", text(n, src)),
                n,
            )),
            "string_literal" | "concatenated_string" => Err(unsupported("string literals", n)),
            "null" | "nullptr" => Err(unsupported("null pointers", n)),
            "gnu_asm_expression" => Err(unsupported("inline `asm`", n)),
            "ERROR" => Err(Diagnostic::error("syntax error: the CUDA parser cannot read this", span(n))),
            _ if self.group_name(n).is_some() => Err(groups::named(text(n, src), n)),
            k => Err(unsupported(format!("expression `{}` ({k})", text(n, src)), n)),
        }
    }

    pub(super) fn logical(&mut self, op: &str, l: Node, r: Node) -> R<(Expr, Ty)> {
        let (a, ta) = self.expr(l)?;
        let a = bool01(truth(a, ta));
        if !self.effectful(r) {
            let (b, tb) = self.expr(r)?;
            let bop = if op == "&&" { BinOp::And } else { BinOp::Or };
            return Ok((Expr::bin(bop, a, truth(b, tb)), Ty::Int));
        }
        // Short circuit: the right operand's reads and effects happen only when it is evaluated.
        let t = self.temp(Some(a));
        let guard = if op == "&&" { Expr::var(&t) } else { Expr::Unary(UnOp::Not, Box::new(Expr::var(&t))) };
        let l = self.label();
        let ts = self.label();
        let (stmts, _) = self.nested(|s| {
            let (b, tb) = s.expr(r)?;
            s.emit(StmtKind::Assign { name: t.clone(), value: bool01(truth(b, tb)) });
            Ok(())
        })?;
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts, span: sp };
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond: guard, then, els: None }, span: sp });
        Ok((Expr::Var(t), Ty::Int))
    }

    pub(super) fn ident(&mut self, n: Node) -> R<(Expr, Ty)> {
        let name = text(n, self.src);
        match self.lookup(name).cloned() {
            Some(Binding::Var { kpl, ty }) => Ok((Expr::Var(kpl), ty)),
            Some(Binding::Const { value, ty }) => Ok((Expr::Const(value), ty)),
            Some(Binding::Agg { agg, .. }) => Err(unsupported(
                format!("the {} `{name}` as a value (only its fields `{name}.f` and whole copies)", agg.name),
                n,
            )),
            Some(Binding::Ptr { .. }) => Err(unsupported(
                format!("using the pointer `{name}` as a value (only `{name}[i]`, `*{name}` and pointer arithmetic)"),
                n,
            )),
            Some(Binding::Array { kpl, elem, scalar: true, .. }) => {
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array: kpl, index: vec![Expr::Const(0)] });
                Ok((Expr::Var(t), elem))
            }
            Some(Binding::Ref { array, elem, index, agg: None }) => {
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok((Expr::Var(t), elem))
            }
            Some(Binding::Ref { agg: Some(agg), .. }) => Err(unsupported(
                format!("the {} `{name}` as a value (only its fields `{name}.f` and whole copies)", agg.name),
                n,
            )),
            Some(Binding::Block | Binding::Tile(_) | Binding::Grid) => Err(groups::block_as_value(name, n)),
            Some(Binding::Func(_)) => Err(unsupported(
                format!("the function pointer `{name}` as a value (only calls through it are modelled)"),
                n,
            )),
            Some(Binding::VarPtr { .. } | Binding::AggPtr { .. }) => Err(self.var_pointer_misuse(name, n)),
            Some(Binding::Array { .. }) => Err(unsupported(
                format!(
                    "using the array `{name}` as a value (pointer arithmetic and aliases are not modelled)"
                ),
                n,
            )
            .with_note("index the array directly: `a[i]`")),
            None => {
                if self.file_array(name) {
                    return self.ident(n);
                }
                if name == "warpSize" {
                    return Ok((Expr::Const(32), Ty::Int));
                }
                match self.file.macros.get(name) {
                    Some(MacroVal::Const(v)) => {
                        let ty = if *v > i32::MAX as i64 { Ty::UInt } else { Ty::Int };
                        if *v < i32::MIN as i64 || *v > u32::MAX as i64 {
                            return Err(unsupported(
                                format!("macro `{name}`: its value does not fit in 32 bits"),
                                n,
                            ));
                        }
                        Ok((Expr::Const(*v as u32), ty))
                    }
                    Some(MacroVal::Other(why)) => Err(unsupported(
                        format!(
                            "macro `{name}` ({why}; only integer-constant object-like macros are expanded)"
                        ),
                        n,
                    )),
                    None => Err(Diagnostic::error(format!("unknown identifier `{name}`"), span(n))
                        .with_label("not a parameter, local, array or integer-constant macro")),
                }
            }
        }
    }

    pub(super) fn assign(&mut self, n: Node) -> R<(Expr, Ty)> {
        let l = n.child_by_field_name("left").ok_or_else(|| unsupported("assignment", n))?;
        let r = n.child_by_field_name("right").ok_or_else(|| unsupported("assignment", n))?;
        let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("=");
        if let Some(Binding::Func(_)) = self.lookup(text(l, self.src)) {
            return Err(unsupported(
                format!(
                    "re-pointing the function pointer `{}` (a pointer is modelled with the functions of its declaration)",
                    text(l, self.src)
                ),
                n,
            )
            .with_note("declare a new pointer, or choose with `?:` in the declaration"));
        }
        if let Some(r) = self.pointer_assign(l, Some((op, r)))? {
            return Ok(r);
        }
        if op == "=" {
            if let Some(x) = self.agg_assign(l, r)? {
                return Ok(x);
            }
        }
        let bin = op.strip_suffix('=').unwrap_or("");
        if strip_parens(l).kind() == "field_expression" {
            let (rv, rt) = self.expr(r)?;
            return match self.field_target(l)? {
                Some(Target2::Var(var, ty)) => {
                    let value = if bin.is_empty() {
                        convert(rv, rt, ty)
                    } else {
                        let (e, t) =
                            binary(bin, (Expr::var(&var), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                        convert(e, t, ty)
                    };
                    self.emit(StmtKind::Assign { name: var.clone(), value });
                    Ok((Expr::Var(var), ty))
                }
                Some(Target2::Mem(array, index, ty)) => {
                    let value = if bin.is_empty() {
                        convert(rv, rt, ty)
                    } else {
                        let old = self.temp(None);
                        self.emit(StmtKind::Read {
                            dst: old.clone(),
                            array: array.clone(),
                            index: index.clone(),
                        });
                        let (e, t) =
                            binary(bin, (Expr::var(&old), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                        convert(e, t, ty)
                    };
                    self.emit(StmtKind::Write { array, index, value: value.clone() });
                    Ok((value, ty))
                }
                None => Err(unsupported(format!("assignment to `{}`", text(l, self.src)), l)),
            };
        }
        self.check_lvalue(l)?;
        let (rv, rt) = self.expr(r)?;
        if let Some((var, ty)) = self.lvalue_is_var(l) {
            let value = if bin.is_empty() {
                convert(rv, rt, ty)
            } else {
                let (e, t) = binary(bin, (Expr::var(&var), ty), (rv, rt)).map_err(|m| unsupported(m, n))?;
                convert(e, t, ty)
            };
            self.emit(StmtKind::Assign { name: var.clone(), value });
            return Ok((Expr::Var(var), ty));
        }
        let (array, index, elem) = self.access(l)?;
        let value = if bin.is_empty() {
            convert(rv, rt, elem)
        } else {
            let old = self.temp(None);
            self.emit(StmtKind::Read { dst: old.clone(), array: array.clone(), index: index.clone() });
            let (e, t) = binary(bin, (Expr::var(&old), elem), (rv, rt)).map_err(|m| unsupported(m, n))?;
            convert(e, t, elem)
        };
        self.emit(StmtKind::Write { array, index, value: value.clone() });
        Ok((value, elem))
    }

    pub(super) fn update(&mut self, n: Node, used: bool) -> R<(Expr, Ty)> {
        let a = n.child_by_field_name("argument").ok_or_else(|| unsupported("`++`/`--`", n))?;
        let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("++");
        let prefix = n.child(0).is_some_and(|c| c.kind() == "++" || c.kind() == "--");
        let bin = if op == "++" { "+" } else { "-" };
        if let Some(r) = self.pointer_assign(a, None)? {
            return Ok(r);
        }
        self.check_lvalue(a)?;
        if let Some((var, ty)) = self.lvalue_is_var(a) {
            let old = if used && !prefix { Some(self.temp(Some(Expr::var(&var)))) } else { None };
            let (e, t) = binary(bin, (Expr::var(&var), ty), (Expr::Const(1), Ty::Int))
                .map_err(|m| unsupported(m, n))?;
            self.emit(StmtKind::Assign { name: var.clone(), value: convert(e, t, ty) });
            return Ok((old.map(Expr::Var).unwrap_or(Expr::Var(var)), ty));
        }
        let (array, index, elem) = self.access(a)?;
        let old = self.temp(None);
        self.emit(StmtKind::Read { dst: old.clone(), array: array.clone(), index: index.clone() });
        let (e, t) =
            binary(bin, (Expr::var(&old), elem), (Expr::Const(1), Ty::Int)).map_err(|m| unsupported(m, n))?;
        let new = convert(e, t, elem);
        self.emit(StmtKind::Write { array, index, value: new.clone() });
        Ok((if prefix { new } else { Expr::Var(old) }, elem))
    }
}
