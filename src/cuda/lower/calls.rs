//! Calls: device functions inlined, barriers, the exact intrinsics, atomics; the table
//! intrinsics are in `intrinsics.rs`, memory-touching built-ins in `builtins.rs`, calls of
//! functions without a definition in `opaque.rs`.

use super::*;

/// An evaluated argument of an inlined call, bound to the callee's parameter `cname`.
pub(super) enum BoundParam {
    /// A pointer parameter: the argument's array and element.
    Ptr { cname: String, array: String, comps: Vec<Expr>, ty: Ty },
    /// A value parameter: a fresh local holding the argument's value (`ctype`: the parameter's
    /// exact C type, where its words name one).
    Value { cname: String, value: Expr, ty: Ty, ctype: Option<super::overload::CTy> },
    /// A reference parameter: the binding of the argument lvalue (its indices already fixed).
    Alias { cname: String, binding: Binding },
    /// A vector/struct value parameter: fresh locals holding the argument's fields.
    AggValue { cname: String, agg: Rc<Agg>, values: Vec<Expr> },
}

impl<'t> Lx<'_, 't> {
    /// The default argument of parameter `p` of `fname`, for a call `n` that leaves it out. It is
    /// lowered in the caller's scope, which means what the declaration's scope means only when
    /// none of its names is a local or parameter there: a default naming one is refused.
    fn default_argument(&self, p: Node<'t>, fname: &str, n: Node) -> R<Node<'t>> {
        let d = p.child_by_field_name("default_value").ok_or_else(|| {
            unsupported(format!("call to `{fname}` without an argument for a parameter with no default"), n)
        })?;
        if let Some(shadowed) = names_in(d, self.src).into_iter().find(|name| self.lookup(name).is_some()) {
            return Err(unsupported(
                format!(
                    "the default argument `{}` of `{fname}`: `{shadowed}` names a local or parameter at the call",
                    text(d, self.src)
                ),
                n,
            )
            .with_note("pass the argument explicitly"));
        }
        Ok(d)
    }

    /// Inlines a call of the device function `fname`: value parameters become fresh locals,
    /// pointer parameters aliases of the argument's array and element, the result a fresh
    /// local, early returns the predicated form. Every inlined statement keeps the place it has
    /// in the function's body, so a barrier there is one edit valid for every call site.
    pub(super) fn inline_call(
        &mut self,
        n: Node,
        fname: &str,
        targs: Option<Node>,
        args: &[Node],
    ) -> R<Option<(Expr, Ty)>> {
        self.inline_callee(n, fname, targs, args, None)
    }

    /// Inlines a device function, or with `lambda` (its node and result type) a lambda, whose
    /// body sees the caller's scope (see `lambda`).
    pub(super) fn inline_callee(
        &mut self,
        n: Node,
        fname: &str,
        targs: Option<Node>,
        args: &[Node],
        lambda: Option<(Node<'t>, Option<Ty>)>,
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        // The caller's statement: what follows the call in it (the assignment of its result)
        // is reported at the statement, not at the call.
        let outer_span = self.cur_span;
        // Taken first: the arguments may inline calls of their own.
        let want_agg = self.want_agg.take();
        let discard = std::mem::take(&mut self.discard_ref_result);
        self.agg_result = None;
        if self.record.is_some() || self.replay.is_some() {
            // A loop condition is evaluated twice (before the loop, at the end of the body)
            // into the same temporaries; an inlined body would need its own locals twice.
            return Err(unsupported(
                format!("a call to the device function `{fname}` in a loop condition"),
                n,
            )
            .with_note("compute the value into a local before the loop and at the end of its body"));
        }
        let def = match lambda {
            Some((node, _)) => crate::cuda::program::FnDef { node, tparams: Vec::new() },
            None => self.pick_function(fname, args, n, targs.is_some())?,
        };
        // Recursion is a definition inlined inside itself (overloads of one name may call each
        // other: `clamp(float3, …)` calling `clamp(float, …)`).
        let here = def.node.start_byte();
        if self.frame.stack.iter().any(|(_, at)| *at == here) || self.inline_depth >= 32 {
            let mut cycle: Vec<String> = self.frame.stack.iter().map(|(f, _)| f.clone()).collect();
            cycle.push(fname.to_string());
            return Err(unsupported(
                format!("recursion ({}): device functions are inlined", cycle.join(" -> ")),
                n,
            )
            .with_label("recursive call"));
        }
        let fnode = def.node;
        let body = fnode
            .child_by_field_name("body")
            .ok_or_else(|| unsupported(format!("`{fname}` without a body"), n))?;
        // Template arguments: explicit ones, then deduced from the argument types.
        let caller_env = |name: &str| -> Option<Arg> {
            match self.lookup(name) {
                // The constant's value from its word: `int` constants are signed.
                Some(Binding::Const { value, ty }) => Some(Arg::Value(if *ty == Ty::Int {
                    i64::from(*value as i32)
                } else {
                    i64::from(*value)
                })),
                _ => match (self.frame.types.get(name), self.frame.types.name(name)) {
                    (Some(t), n) => Some(Arg::Type(*t, n.map(String::from))),
                    (None, Some(n)) => Some(Arg::Aggregate(n.to_string())),
                    (None, None) => None,
                },
            }
        };
        let mut inst = Instance::default();
        let given = match targs {
            Some(list) => {
                let mut c = list.walk();
                let v: Vec<Node> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            None => Vec::new(),
        };
        let params = fn_params(fnode);
        for (i, tp) in def.tparams.iter().enumerate() {
            let arg = match given.get(i).or(tp.default.as_ref()) {
                Some(a) => template_arg(*a, src, self.file, Some(&caller_env))?,
                None => {
                    // Deduce `T` from a parameter declared `T x` or `T *p`.
                    let pos = params
                        .iter()
                        .position(|p| p.child_by_field_name("type").is_some_and(|t| text(t, src) == tp.name));
                    match (pos.and_then(|i| args.get(i)), tp.type_node) {
                        (Some(a), None) => Arg::Type(self.static_type(*a), None),
                        _ => {
                            return Err(Diagnostic::error(
                                format!("cannot deduce the template parameter `{}` of `{fname}`", tp.name),
                                span(n),
                            )
                            .with_note("give the template arguments explicitly: `f<…>(…)`"))
                        }
                    }
                }
            };
            inst.bind(tp, arg, n, src)?;
        }
        // Parameters the call leaves out take their default arguments (C++ evaluates them at
        // the call, with the names of the declaration's scope).
        let mut args = args.to_vec();
        for p in params.iter().skip(args.len()) {
            args.push(self.default_argument(*p, fname, n)?);
        }
        // Arguments, evaluated in the caller's scope, left to right.
        let saved_types = std::mem::replace(&mut self.frame.types, inst.types.clone());
        let mut bound = Vec::new();
        for (p, a) in params.iter().zip(&args) {
            match self.fn_ptr_param(*p, *a).or_else(|| self.group_param(*p, *a)) {
                Some(Ok(b)) => {
                    bound.push(b);
                    continue;
                }
                Some(Err(e)) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
                None => {}
            }
            let ty_node =
                p.child_by_field_name("type").ok_or_else(|| unsupported("parameter without a type", *p))?;
            let decl =
                p.child_by_field_name("declarator").ok_or_else(|| unsupported("unnamed parameter", *p))?;
            let agg = self.agg_type(ty_node);
            let ty = match &agg {
                Some(a) => Ok(a.fields[0].1),
                None => self.ty(ty_node),
            };
            let is_ptr = matches!(decl.kind(), "pointer_declarator" | "array_declarator");
            let is_ref = decl.kind() == "reference_declarator";
            let name_node = match decl.kind() {
                "pointer_declarator" | "array_declarator" => decl.child_by_field_name("declarator"),
                "reference_declarator" => decl.named_child(0),
                _ => Some(decl),
            };
            let name_node = name_node
                .filter(|x| x.kind() == "identifier")
                .ok_or_else(|| unsupported(format!("parameter `{}`", text(decl, src)), decl))?;
            let ty = match ty {
                Ok(t) => t,
                Err(e) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
            };
            let cname = text(name_node, src).to_string();
            let is_const = {
                let mut c = p.walk();
                let q =
                    p.children(&mut c).any(|ch| ch.kind() == "type_qualifier" && text(ch, src) == "const");
                q
            };
            let writes = assigns(body, src, &cname) || body_writes_fields(body, src, &cname);
            std::mem::swap(&mut self.frame.types, &mut inst.types);
            let r = match (&agg, is_ptr, is_ref) {
                // `float f(curandState *st)` called with `&s` of a state local: `st` names `s`
                // (only cuRAND functions take such a pointer; `st->f`, `*st` stay errors).
                (Some(agg), true, _) if self.curand_local_arg(*a, agg).is_some() => {
                    let binding = self.curand_local_arg(*a, agg).ok_or_else(|| unsupported("argument", *a));
                    binding.map(|binding| BoundParam::Alias { cname, binding })
                }
                (Some(agg), true, _) if self.agg_var_address(*a, agg).is_some() => {
                    let b = self.agg_var_address(*a, agg).ok_or_else(|| unsupported("argument", *a));
                    b.and_then(|b| b).map(|binding| BoundParam::Alias { cname, binding })
                }
                (Some(agg), true, _) => self.agg_pointer(*a).and_then(|(array, comps, a2)| {
                    if a2.fields == agg.fields {
                        Ok(BoundParam::Ptr { cname, array, comps, ty })
                    } else {
                        Err(unsupported(
                            format!("a pointer into an array of {} passed as {} *", a2.name, agg.name),
                            *a,
                        ))
                    }
                }),
                (None, true, _) => match self.var_address(*a, ty) {
                    Some(b) => b.map(|binding| BoundParam::Alias { cname, binding }),
                    None => {
                        self.pointer(*a).map(|(array, _, comps)| BoundParam::Ptr { cname, array, comps, ty })
                    }
                },
                (_, false, true) => self.ref_arg(*a, &cname, agg.clone(), ty, is_const, writes),
                (Some(agg), false, false) => self.agg_value(*a, agg).map(|values| BoundParam::AggValue {
                    cname,
                    agg: agg.clone(),
                    values,
                }),
                (None, false, false) => {
                    let ctype = super::overload::CTy::of_words(text(ty_node, src));
                    let value = match self.prebound_args.get(&a.id()) {
                        Some(v) => Ok(v.clone()),
                        None => self.expr(*a),
                    };
                    value.map(|(e, t)| BoundParam::Value { cname, value: convert(e, t, ty), ty, ctype })
                }
            };
            std::mem::swap(&mut self.frame.types, &mut inst.types);
            match r {
                Ok(b) => bound.push(b),
                Err(e) => {
                    self.frame.types = saved_types;
                    return Err(e);
                }
            }
        }
        self.frame.types = saved_types;
        self.cur_span = span(n);
        // The callee's frame.
        // A reference result of a call used as a statement (`a += b;` calling `float4
        // &operator+=(float4 &a, float4 b)`): nothing to bind, and `return a;` reads nothing.
        let returns_ref =
            fnode.child_by_field_name("declarator").is_some_and(|d| d.kind() == "reference_declarator");
        let discard_ref = discard && returns_ref && lambda.is_none();
        let ret_agg =
            fnode.child_by_field_name("type").and_then(|t| self.agg_type(t)).filter(|_| !discard_ref);
        let ret_agg = match (ret_agg, want_agg) {
            (None, None) => None,
            (Some(r), Some(w)) if r.fields == w.fields => {
                let mut comps = Vec::new();
                for (f, _) in &r.fields {
                    let name = self.fresh_name(&format!("{}_ret_{f}", super::overload::kpl_stem(fname)));
                    self.declare_kpl(&name);
                    let l = self.emit(StmtKind::Local { name: name.clone(), init: None });
                    self.set_place(l, Place::Not(INSIDE.into()));
                    comps.push(name);
                }
                Some((r, comps))
            }
            (Some(r), Some(w)) => {
                return Err(unsupported(
                    format!("the {} result of `{fname}` used as a {}", r.name, w.name),
                    n,
                ))
            }
            (Some(r), None) => {
                return Err(unsupported(
                    format!("the {} result of `{fname}` used as a scalar (use a field of a copy)", r.name),
                    n,
                ))
            }
            (None, Some(w)) => {
                return Err(unsupported(format!("the result of `{fname}` used as a {}", w.name), n))
            }
        };
        let ret_ty = match fnode.child_by_field_name("type") {
            _ if ret_agg.is_some() || discard_ref => None,
            _ if lambda.is_some() => lambda.and_then(|(_, t)| t),
            Some(t) if text(t, src) == "void" => None,
            Some(t) => {
                if fnode.child_by_field_name("declarator").is_some_and(|d| d.kind() != "function_declarator")
                {
                    return Err(unsupported(format!("`{fname}` returns a pointer or reference"), fnode));
                }
                let saved = std::mem::replace(&mut self.frame.types, inst.types.clone());
                let r = self.ty(t);
                self.frame.types = saved;
                Some(r?)
            }
            None => None,
        };
        let rv = ret_ty.map(|t| {
            let name = self.fresh_name(&format!("{}_ret", super::overload::kpl_stem(fname)));
            self.declare_kpl(&name);
            let l = self.emit(StmtKind::Local { name: name.clone(), init: None });
            self.set_place(l, Place::Not(INSIDE.into()));
            (name, t)
        });
        let mut scope0 = HashMap::new();
        for (name, v, t) in &inst.values {
            scope0.insert(name.clone(), Binding::Const { value: *v, ty: *t });
        }
        let caller_scopes = if lambda.is_some() {
            // A lambda's body sees the caller's names (its captures), under its own scope.
            let visible = self.scopes.clone();
            self.scopes.push(scope0);
            visible
        } else {
            std::mem::replace(&mut self.scopes, vec![scope0, HashMap::new()])
        };
        self.hidden.push(caller_scopes);
        let mut stack = self.frame.stack.clone();
        stack.push((fname.to_string(), here));
        let result_comps = ret_agg.as_ref().map(|(_, c)| c.clone());
        let frame = FnFrame {
            ret_flag: None,
            ret_value: rv.clone(),
            ret_agg,
            types: inst.types.clone(),
            stack,
            discard_ref,
        };
        let saved_frame = std::mem::replace(&mut self.frame, frame);
        let saved_targets = std::mem::take(&mut self.targets);
        let saved_exits = std::mem::take(&mut self.exits);
        let saved_gotos = std::mem::take(&mut self.gotos);
        let mut c = body.walk();
        let children: Vec<Node> = body.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        let saved_final = self.final_return;
        let saved_body = self.fn_body;
        // SAFETY of lifetimes: the callee's nodes live as long as the tree (`'t`).
        self.final_return = children.last().copied().filter(|x| x.kind() == "return_statement");
        self.fn_body = Some(body);
        self.inline_depth += 1;
        let before = self.out.len();
        let r = self.inline_body(body, bound, &children);
        for s in &self.out[before..] {
            self.inlined.insert(s.label);
        }
        self.inline_depth -= 1;
        self.fn_body = saved_body;
        self.final_return = saved_final;
        self.exits = saved_exits;
        self.gotos = saved_gotos;
        self.targets = saved_targets;
        self.frame = saved_frame;
        if let Some(sc) = self.hidden.pop() {
            self.scopes = sc;
        }
        r?;
        self.cur_span = outer_span;
        self.agg_result = result_comps;
        Ok(rv.map(|(name, t)| (Expr::Var(name), t)))
    }

    /// Binds an inlined function's parameters and lowers its body (the frame is already set).
    pub(super) fn inline_body(
        &mut self,
        body: Node<'t>,
        bound: Vec<BoundParam>,
        children: &[Node<'t>],
    ) -> R<()> {
        for b in bound {
            self.bind_bound(b, body);
        }
        if has_early_return(body, self.final_return) {
            let f = self.flag("ret");
            self.frame.ret_flag = Some(f);
        }
        self.seq(children)
    }

    /// Binds a C name as `b` says (see [`BoundParam`]); `scope` is where the name is visible
    /// (a pointer that is assigned there gets mutable components).
    pub(super) fn bind_bound(&mut self, b: BoundParam, scope: Node) {
        match b {
            BoundParam::Ptr { cname, array, comps, ty } => {
                let mutable = assigns(scope, self.src, &cname);
                self.bind_pointer(&cname, array, ty, comps, mutable)
            }
            BoundParam::Value { cname, value, ty, ctype } => {
                let k = if self.kpl_visible(&cname)
                    || crate::kpl::is_keyword(&cname)
                    || self.taken.contains(&cname)
                {
                    self.fresh_name(&cname)
                } else {
                    cname.clone()
                };
                self.declare_kpl(&k);
                let l = self.emit(StmtKind::Local { name: k.clone(), init: Some(value) });
                self.set_place(l, Place::Not(INSIDE.into()));
                if let Some(c) = ctype.filter(|c| c.class() == Some(ty)) {
                    self.ctypes.insert(k.clone(), c);
                }
                self.bind(&cname, Binding::Var { kpl: k, ty });
            }
            BoundParam::AggValue { cname, agg, values } => self.agg_locals(&cname, agg, Some(values)),
            BoundParam::Alias { cname, binding } => self.bind(&cname, binding),
        }
    }

    pub(super) fn args<'n>(&self, n: Node<'n>) -> Vec<Node<'n>> {
        match n.child_by_field_name("arguments") {
            Some(a) => {
                let mut c = a.walk();
                let v: Vec<Node> = a.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            None => Vec::new(),
        }
    }

    /// `static_cast<T>(e)` / `const_cast<T>(e)` of a scalar type `T`: C's conversion of `e` to
    /// `T`, as a C cast. Pointer and reference targets are refused here (a pointer cast is
    /// lowered where pointers are, see `memory.rs`).
    fn value_cast(&mut self, n: Node, targs: Node, args: &[Node]) -> R<(Expr, Ty)> {
        let td = targs.named_child(0).filter(|t| t.kind() == "type_descriptor");
        let (Some(td), [a]) = (td, args) else {
            return Err(unsupported(format!("the cast `{}`", text(n, self.src)), n));
        };
        if td.child_by_field_name("declarator").is_some() {
            return Err(unsupported(
                format!("the pointer or reference cast `{}` as a value", text(n, self.src)),
                n,
            ));
        }
        let ty = self.ty(td.child_by_field_name("type").ok_or_else(|| unsupported("cast", n))?)?;
        let (e, t) = self.expr(*a)?;
        Ok((convert(e, t, ty), ty))
    }

    /// Lowers a call. `Ok(None)`: a statement-only call (barrier, fence) used as a statement.
    pub(super) fn call(&mut self, n: Node, used: bool) -> R<Option<(Expr, Ty)>> {
        if let Some(r) = self.group_call(n, used) {
            return r;
        }
        let mut f = n.child_by_field_name("function").ok_or_else(|| unsupported("call", n))?;
        // `ml::ops::twice(x)`: the file's function `twice` defined in a namespace `ops`;
        // `std::min(a, b)`: the built-in of that name; `::f(x)`: `f` as if unqualified.
        let mut namespace = None;
        while f.kind() == "qualified_identifier" {
            namespace = Some(f.child_by_field_name("scope").map(|q| text(q, self.src)).unwrap_or(""));
            f = f.child_by_field_name("name").ok_or_else(|| unsupported("call", n))?;
        }
        if let Some(q) = namespace.filter(|q| !matches!(*q, "" | "std")) {
            let name = text(f, self.src);
            let defined = self
                .prog
                .functions
                .iter()
                .any(|(fname, d)| fname == name && innermost_namespace(d.node, self.src) == Some(q));
            if !defined {
                return Err(unsupported(
                    format!(
                        "call of `{}`: no function `{name}` defined in namespace `{q}` of this file",
                        text(n.child_by_field_name("function").unwrap_or(f), self.src)
                    ),
                    n,
                ));
            }
        }
        let builtin_only = namespace == Some("std");
        let (mut f, targs) = match f.kind() {
            "template_function" => (
                f.child_by_field_name("name").ok_or_else(|| unsupported("call", n))?,
                f.child_by_field_name("arguments"),
            ),
            _ => (f, None),
        };
        // `(*op)(x)`: a call through the function pointer `op`, like `op(x)`.
        if f.kind() == "parenthesized_expression" {
            if let Some(inner) = f.named_child(0).filter(|i| i.kind() == "pointer_expression") {
                if let Some(arg) = inner.child_by_field_name("argument").filter(|a| a.kind() == "identifier")
                {
                    f = arg;
                }
            }
        }
        let fname = text(f, self.src).to_string();
        let args = self.args(n);
        if let Some(Binding::Func(choice)) = self.lookup(&fname).cloned() {
            return self.fn_ptr_call(n, &fname, choice, &args, used);
        }
        if f.kind() == "subscript_expression" {
            return Err(unsupported(
                format!("the call through `{fname}`, an element of a table of function pointers"),
                n,
            ));
        }
        if f.kind() != "identifier" {
            return Err(unsupported(format!("call of `{fname}`"), n));
        }
        if self.lookup(&fname).is_none()
            && self.prog.has_function(&fname)
            && !builtin_only
            && !self.only_builtin_applies(&fname, &args)
        {
            return self.inline_call(n, &fname, targs, &args);
        }
        if let Some(r) = self.annotation(n, &fname, used) {
            return r;
        }
        if let Some(r) = self.lambda_call(n, &fname, &args) {
            return r;
        }
        if let Some(r) = self.warp_call(n, &fname, &args) {
            return r;
        }
        if let (Some(ta), "static_cast" | "const_cast") = (targs, fname.as_str()) {
            return self.value_cast(n, ta, &args).map(Some);
        }
        if targs.is_some() && !super::builtins::takes_type_argument(&fname) {
            return Err(unsupported(format!("call of the template `{}`", text(n, self.src)), n));
        }
        if self.lookup(&fname).is_some() {
            return Err(unsupported(format!("calling `{fname}`"), n));
        }
        let arity = |k: usize| arity(&fname, &args, k, k, n);
        match fname.as_str() {
            "__syncthreads" => {
                arity(0)?;
                if used {
                    return Err(unsupported("`__syncthreads()` inside an expression", n));
                }
                self.emit(StmtKind::Barrier);
                return Ok(None);
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                arity(0)?;
                if used {
                    return Err(unsupported(format!("`{fname}()` inside an expression"), n));
                }
                return Ok(None);
            }
            "__syncwarp" => {
                if args.len() > 1 {
                    arity(1)?;
                }
                if used {
                    return Err(unsupported("`__syncwarp()` inside an expression", n));
                }
                // The mask is evaluated (it may read memory). Only the full mask is a warp
                // barrier; a partial or unknown mask orders nothing here, which can only add
                // reported races (docs/semantics.md, "Warp barriers").
                let full = match args.first() {
                    None => true,
                    Some(m) => fold(&self.expr(*m)?.0) == Some(u32::MAX),
                };
                if full {
                    self.emit(StmtKind::Syncwarp);
                }
                return Ok(None);
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" => {
                arity(2)?;
                let (a, ta) = self.expr(args[0])?;
                let (b, tb) = self.expr(args[1])?;
                let unsigned = fname.starts_with('u');
                let t = if unsigned { Ty::UInt } else { common(ta, tb) };
                let (a, b) = (convert(a, ta, t), convert(b, tb, t));
                let is_min = fname.ends_with("min");
                let e = match t {
                    Ty::Float => Expr::Call(if is_min { "fmin" } else { "fmax" }.into(), vec![a, b]),
                    Ty::Int => Expr::bin(if is_min { BinOp::Min } else { BinOp::Max }, a, b),
                    Ty::UInt => {
                        let c = Expr::bin(if is_min { BinOp::ULt } else { BinOp::UGt }, a.clone(), b.clone());
                        Expr::Select(Box::new(c), Box::new(a), Box::new(b))
                    }
                };
                return Ok(Some((e, t)));
            }
            "__builtin_expect" => {
                // A branch-prediction hint: the value of its first argument (the second is the
                // expected constant).
                arity(2)?;
                return self.expr(args[0]).map(Some);
            }
            "abs" | "labs" | "llabs" => {
                arity(1)?;
                let (a, t) = self.expr(args[0])?;
                if t == Ty::Float {
                    return Ok(Some((Expr::Call("fabs".into(), vec![a]), Ty::Float)));
                }
                let neg = Expr::bin(BinOp::Lt, a.clone(), Expr::Const(0));
                let e = Expr::Select(
                    Box::new(neg),
                    Box::new(Expr::Unary(UnOp::Neg, Box::new(a.clone()))),
                    Box::new(a),
                );
                return Ok(Some((e, Ty::Int)));
            }
            "__brev" => {
                // Exact: five swap steps (halves of ever smaller blocks), each into a temporary
                // so the argument is not duplicated 32 times.
                arity(1)?;
                let (a, _) = self.expr(args[0])?;
                let mut v = self.temp(Some(a));
                let masks = [
                    (1, 0x5555_5555u32),
                    (2, 0x3333_3333),
                    (4, 0x0f0f_0f0f),
                    (8, 0x00ff_00ff),
                    (16, 0x0000_ffff),
                ];
                for (sh, m) in masks {
                    let x = || Expr::var(&v);
                    let hi = Expr::bin(
                        BinOp::BitAnd,
                        Expr::bin(BinOp::UShr, x(), Expr::Const(sh)),
                        Expr::Const(m),
                    );
                    let lo =
                        Expr::bin(BinOp::Shl, Expr::bin(BinOp::BitAnd, x(), Expr::Const(m)), Expr::Const(sh));
                    v = self.temp(Some(Expr::bin(BinOp::BitOr, hi, lo)));
                }
                return Ok(Some((Expr::Var(v), Ty::UInt)));
            }
            "__sincosf" | "sincosf" | "sincos" | "sincospif" | "sincospi" => {
                // `sincosf(x, &s, &c)`: two opaque pure results stored through the pointers.
                arity(3)?;
                let (x, t) = self.expr(args[0])?;
                let x = convert(x, t, Ty::Float);
                let (sin, cos) = if fname.contains("pi") { ("sinpif", "cospif") } else { ("sinf", "cosf") };
                for (k, out) in [(1, sin), (2, cos)] {
                    let value = Expr::Call(out.into(), vec![x.clone()]);
                    self.store_through(args[k], value, Ty::Float)?;
                }
                return Ok(None);
            }
            "frexpf" | "frexp" | "modff" | "modf" | "remquof" | "remquo" => {
                // A pure result plus a second pure result stored through the last argument.
                let k = if fname.starts_with("remquo") { 3 } else { 2 };
                arity(k)?;
                let mut vals = Vec::new();
                for a in &args[..k - 1] {
                    let (e, t) = self.expr(*a)?;
                    vals.push(convert(e, t, Ty::Float));
                }
                let out_ty = if fname.starts_with("modf") { Ty::Float } else { Ty::Int };
                let second = Expr::Call(format!("{fname}_out"), vals.clone());
                self.store_through(args[k - 1], second, out_ty)?;
                return Ok(Some((Expr::Call(fname, vals), Ty::Float)));
            }
            "__mul24" | "__umul24" => {
                // Exact: the product of the low 24 bits of each operand (sign-extended for
                // `__mul24`), low 32 bits of the result.
                arity(2)?;
                let (a, _) = self.expr(args[0])?;
                let (b, _) = self.expr(args[1])?;
                let low24 = |e: Expr| {
                    if fname == "__umul24" {
                        Expr::bin(BinOp::BitAnd, e, Expr::Const(0x00ff_ffff))
                    } else {
                        Expr::bin(BinOp::Shr, Expr::bin(BinOp::Shl, e, Expr::Const(8)), Expr::Const(8))
                    }
                };
                let t = if fname == "__umul24" { Ty::UInt } else { Ty::Int };
                return Ok(Some((Expr::bin(BinOp::Mul, low24(a), low24(b)), t)));
            }
            _ => {}
        }
        if let Some(r) = self.curand_call(n, &fname, &args) {
            return r;
        }
        if let Some(r) = self.table_intrinsic(&fname, &args, used) {
            return r;
        }
        if let Some(r) = self.builtin_call(n, &fname, targs, &args, used) {
            return r;
        }
        let (plain, scope) = AtomicScope::of_cuda_name(&fname);
        if let Some(op) = AtomicOp::from_cuda(plain) {
            arity(2)?;
            let (array, index, elem) = self.atomic_target(args[0])?;
            let (v, _) = self.expr(args[1])?;
            let dst = if used { Some(self.temp(None)) } else { None };
            self.emit(StmtKind::Atomic { dst: dst.clone(), op, array, index, value: v, scope });
            return Ok(Some((dst.map(Expr::Var).unwrap_or(Expr::Const(0)), elem)));
        }
        if plain == "atomicCAS" {
            // One atomic read-modify-write of the target. KPL has no compare-and-swap: it is
            // `exch` with the value CAS may store. The oracle treats the old value (the result)
            // and the memory after any atomic as unknown, so only the access matters to it; the
            // interpreter stores `val` even where CUDA's comparison would fail (documented).
            arity(3)?;
            let (array, index, elem) = self.atomic_target(args[0])?;
            // `compare` is evaluated (its reads and side effects happen) but not modelled.
            let _ = self.expr(args[1])?;
            let (v, _) = self.expr(args[2])?;
            let dst = if used { Some(self.temp(None)) } else { None };
            let exch =
                StmtKind::Atomic { dst: dst.clone(), op: AtomicOp::Exch, array, index, value: v, scope };
            self.emit(exch);
            return Ok(Some((dst.map(Expr::Var).unwrap_or(Expr::Const(0)), elem)));
        }
        if fname.starts_with("atomic") {
            return Err(unsupported(format!("atomic `{fname}`"), n));
        }
        if fname.starts_with("__") && !self.prog.prototypes.iter().any(|(p, _)| *p == fname) {
            return Err(unsupported(format!("intrinsic `{fname}`"), n)
                .with_note("not in autosync's table of CUDA intrinsics (src/cuda/lower/intrinsics.rs)"));
        }
        self.opaque_call(n, &fname, &args, used)
    }
}

/// The name of the innermost namespace a definition is in (`None`: file scope).
fn innermost_namespace<'s>(mut n: Node, src: &'s str) -> Option<&'s str> {
    while let Some(p) = n.parent() {
        if p.kind() == "namespace_definition" {
            return Some(p.child_by_field_name("name").map(|x| text(x, src)).unwrap_or(""));
        }
        n = p;
    }
    None
}

/// The identifiers of expression `n`.
fn names_in(n: Node, src: &str) -> Vec<String> {
    if n.kind() == "identifier" {
        return vec![text(n, src).to_string()];
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().flat_map(|ch| names_in(ch, src)).collect()
}
