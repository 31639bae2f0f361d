//! Names and scopes: C bindings, KPL names handed out, temporaries, kernel parameters and file-scope arrays.

use super::*;

/// The parameter declarations of a function definition.
pub(super) fn fn_params(f: Node) -> Vec<Node> {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d {
        if matches!(x.kind(), "function_declarator" | "abstract_function_declarator" | "lambda_declarator") {
            break;
        }
        d = crate::cuda::inner_declarator(x);
    }
    let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return Vec::new() };
    let mut c = list.walk();
    let v: Vec<Node> = list
        .named_children(&mut c)
        .filter(|p| matches!(p.kind(), "parameter_declaration" | "optional_parameter_declaration"))
        .collect();
    v
}

/// Whether `name` may be written under `n` other than by `name = …`/`name++` (see [`assigns`]):
/// a field of it is assigned (`name.x = …`) or its address is taken (`&name`, `&name.x`).
pub(super) fn body_writes_fields(n: Node, src: &str, name: &str) -> bool {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        "pointer_expression" if n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&") => {
            let arg = n.child_by_field_name("argument").map(strip_parens);
            if arg.is_some_and(|a| a.kind() == "identifier" && text(a, src) == name) {
                return true;
            }
            arg
        }
        _ => None,
    };
    if let Some(t) = target.map(strip_parens).filter(|t| t.kind() == "field_expression") {
        if t.child_by_field_name("argument").map(strip_parens).is_some_and(|b| text(b, src) == name) {
            return true;
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| body_writes_fields(ch, src, name))
}

/// Whether `name` is assigned anywhere under `n` (`name = …`, `name += …`, `name++`).
/// Whether identifier `name` occurs in `n`.
fn mentions(n: Node, src: &str, name: &str) -> bool {
    if n.kind() == "identifier" && text(n, src) == name {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| mentions(ch, src, name))
}

pub(super) fn assigns(n: Node, src: &str, name: &str) -> bool {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        _ => None,
    };
    if let Some(t) = target {
        if t.kind() == "identifier" && text(t, src) == name {
            return true;
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().any(|ch| assigns(ch, src, name))
}

impl<'t> Lx<'_, 't> {
    /// A KPL name based on `base` that no identifier of the source and no earlier KPL name uses.
    pub(super) fn fresh_name(&mut self, base: &str) -> String {
        let mut n = 2;
        let mut name = format!("{base}_{n}");
        while self.taken.contains(&name) || crate::kpl::is_keyword(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.taken.insert(name.clone());
        name
    }

    pub(super) fn kpl_visible(&self, name: &str) -> bool {
        self.kpl_scopes.iter().any(|s| s.contains(name)) || self.arrays.iter().any(|a| a.name == name)
    }

    /// Adds the KPL parameter `kpl`, written `source` in the source (`Kernel::source_params`
    /// keeps the spelling when the two differ).
    pub(super) fn push_param(&mut self, kpl: &str, source: &str) {
        self.params.push(kpl.to_string());
        if kpl != source {
            self.source_params.insert(kpl.to_string(), source.to_string());
        }
    }

    pub(super) fn declare_kpl(&mut self, name: &str) {
        self.taken.insert(name.to_string());
        if let Some(s) = self.kpl_scopes.last_mut() {
            s.insert(name.to_string());
        }
    }

    /// A fresh temporary, declared here (with `init`) unless a loop condition is being replayed,
    /// in which case the temporary of the first evaluation is reused.
    pub(super) fn temp(&mut self, init: Option<Expr>) -> String {
        if let Some((base, q)) = &mut self.replay {
            let rel = self.depth - *base;
            if let Some((name, d)) = q.pop_front() {
                if d == 0 && rel == 0 {
                    if let Some(e) = init {
                        self.emit(StmtKind::Assign { name: name.clone(), value: e });
                    }
                } else {
                    self.declare_kpl(&name);
                    self.emit(StmtKind::Local { name: name.clone(), init });
                }
                return name;
            }
        }
        let name = loop {
            let n = format!("_t{}", self.temp_counter);
            self.temp_counter += 1;
            if !self.taken.contains(&n) {
                break n;
            }
        };
        if let Some((base, rec)) = &mut self.record {
            rec.push((name.clone(), self.depth - *base));
        }
        self.declare_kpl(&name);
        self.emit(StmtKind::Local { name: name.clone(), init });
        name
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub(super) fn bind(&mut self, cname: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(cname.to_string(), b);
        }
    }

    /// Declares a C local: emits `local` under the C name, or under a fresh name when that one is
    /// taken in KPL, and binds the C name.
    pub(super) fn declare_var(&mut self, cname: &str, ty: Ty, init: Option<Expr>) {
        // Never reuse a KPL variable for another C variable, even a dead one: the uniformity
        // analysis is per name, so a second inlined copy of a device function under a
        // thread-dependent guard would make the first copy's variables varying too.
        let reserved = crate::kpl::is_keyword(cname) || self.arrays.iter().any(|a| a.name == cname);
        let kpl = if !self.kpl_visible(cname) && !reserved {
            self.declare_kpl(cname);
            self.emit(StmtKind::Local { name: cname.to_string(), init });
            cname.to_string()
        } else {
            let k = self.fresh_name(cname);
            self.declare_kpl(&k);
            self.emit(StmtKind::Local { name: k.clone(), init });
            k
        };
        self.bind(cname, Binding::Var { kpl, ty });
    }

    pub(super) fn add_array(
        &mut self,
        cname: &str,
        space: Space,
        elem: Ty,
        dims: Vec<Option<u32>>,
        scalar: bool,
        sp: Span,
    ) {
        if self.inline_depth == 0 && !scalar && self.grouped_array(cname, space, elem, &dims, sp) {
            return;
        }
        self.add_array_plain(cname, space, elem, dims, scalar, sp)
    }

    /// [`Self::add_array`] without pointer groups.
    pub(super) fn add_array_plain(
        &mut self,
        cname: &str,
        space: Space,
        elem: Ty,
        dims: Vec<Option<u32>>,
        scalar: bool,
        sp: Span,
    ) {
        let kpl = if self.kpl_visible(cname) || crate::kpl::is_keyword(cname) {
            self.fresh_name(cname)
        } else {
            self.taken.insert(cname.to_string());
            cname.to_string()
        };
        let ndims = dims.len();
        self.c_names.entry(kpl.clone()).or_insert_with(|| (cname.to_string(), scalar));
        self.arrays.push(ArrayDecl { name: kpl.clone(), space, dims, span: sp });
        let b = Binding::Array { kpl, elem, ndims, scalar, prefix: Vec::new() };
        self.scopes[0].insert(cname.to_string(), b.clone());
        if let Some(s) = self.scopes.last_mut() {
            s.insert(cname.to_string(), b);
        }
    }

    /// How each KPL array looks in the source (`Kernel::source_arrays`): its C name (or the
    /// members of a pointer group), scalar or not, the fields of a struct or vector element.
    pub(super) fn source_arrays(&self) -> std::collections::BTreeMap<String, crate::kpl::SourceArray> {
        let mut out = std::collections::BTreeMap::new();
        for a in &self.arrays {
            let mut view = match (self.ptr_groups.members_of(&a.name), self.c_names.get(&a.name)) {
                (Some(names), _) => {
                    crate::kpl::SourceArray { names, scalar: false, fields: Vec::new(), member_stride: 0 }
                }
                (None, Some((c, scalar))) => crate::kpl::SourceArray {
                    names: vec![c.clone()],
                    scalar: *scalar,
                    fields: Vec::new(),
                    member_stride: 0,
                },
                (None, None) => crate::kpl::SourceArray::named(&a.name),
            };
            if let Some(agg) = self.agg_arrays.get(&a.name) {
                view.fields = agg.fields.iter().map(|(f, _)| f.clone()).collect();
            }
            out.insert(a.name.clone(), view);
        }
        out
    }

    pub(super) fn parameters(&mut self, f: Node, body: Node) -> R<()> {
        let mut d = f.child_by_field_name("declarator");
        while let Some(x) = d {
            if x.kind() == "function_declarator" {
                break;
            }
            d = x.child_by_field_name("declarator");
        }
        let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return Ok(()) };
        let mut c = list.walk();
        let params: Vec<Node> = list.named_children(&mut c).filter(|n| n.kind() != "comment").collect();
        let mut copies = Vec::new();
        let mut struct_copies = Vec::new();
        for p in params {
            let r = self.parameter(f, p, body, &mut copies, &mut struct_copies);
            self.recover(r, p)?;
        }
        // Parameters are uniform and read-only in KPL: a kernel that assigns one works on a copy.
        self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        for (cname, init, ty) in copies {
            let local = self.fresh_name(&cname);
            if let Some(c) = self.lookup(&cname).and_then(|b| match b {
                Binding::Var { kpl, .. } => self.ctypes.get(kpl).copied(),
                _ => None,
            }) {
                self.ctypes.insert(local.clone(), c);
            }
            self.declare_kpl(&local);
            let l = self.emit(StmtKind::Local { name: local.clone(), init: Some(init) });
            self.set_place(l, Place::Not("a copy of an assigned parameter".into()));
            self.bind(&cname, Binding::Var { kpl: local, ty });
        }
        for (cname, agg, params) in struct_copies {
            let l0 = self.places.len();
            self.agg_locals(&cname, agg, Some(params.into_iter().map(Expr::Var).collect()));
            self.mark_from(l0, "a copy of an assigned parameter");
        }
        Ok(())
    }

    /// One kernel parameter: bound, or pushed to `copies` / `struct_copies` when the kernel
    /// assigns it.
    #[allow(clippy::type_complexity)]
    fn parameter(
        &mut self,
        f: Node,
        p: Node,
        body: Node,
        copies: &mut Vec<(String, Expr, Ty)>,
        struct_copies: &mut Vec<(String, Rc<Agg>, Vec<String>)>,
    ) -> R<()> {
        if p.kind() != "parameter_declaration" {
            return Err(unsupported(format!("parameter `{}`", text(p, self.src)), p));
        }
        let ty_node =
            p.child_by_field_name("type").ok_or_else(|| unsupported("parameter without a type", p))?;
        let Some(decl) = p.child_by_field_name("declarator") else {
            if text(ty_node, self.src) == "void" {
                return Ok(());
            }
            return Err(unsupported("unnamed parameter", p));
        };
        if let Some(r) = self.fn_ptr_kernel_parameter(f, ty_node, decl) {
            return r;
        }
        if let (Some((elem, agg)), "identifier") = (self.pointer_alias(ty_node), decl.kind()) {
            // `fptr p` / `cptr<real> p`: a pointer parameter spelled through an alias.
            let cname = text(decl, self.src).to_string();
            self.add_array(&cname, Space::Global, elem, vec![None], false, span(decl));
            if let (Some(agg), Some(Binding::Array { kpl, .. })) = (agg, self.lookup(&cname).cloned()) {
                self.agg_arrays.insert(kpl, agg);
            }
            return Ok(());
        }
        if let Some(agg) = self.agg_type(ty_node) {
            let inner = decl.child_by_field_name("declarator").filter(|i| i.kind() == "identifier");
            match (decl.kind(), inner) {
                ("pointer_declarator" | "array_declarator", Some(inner)) => {
                    let cname = text(inner, self.src).to_string();
                    self.add_array(&cname, Space::Global, agg.fields[0].1, vec![None], false, span(decl));
                    if let Some(Binding::Array { kpl, .. }) = self.lookup(&cname).cloned() {
                        self.agg_arrays.insert(kpl, agg);
                    }
                    return Ok(());
                }
                ("identifier", _) => {
                    // By value: one uniform parameter per field (copied into locals when the
                    // kernel writes the struct).
                    let cname = text(decl, self.src).to_string();
                    let written =
                        assigns(body, self.src, &cname) || body_writes_fields(body, self.src, &cname);
                    let mut comps = Vec::new();
                    for (f, _) in &agg.fields {
                        let base = format!("{cname}_{}", f.replace('.', "_"));
                        let k = if self.taken.contains(&base) || crate::kpl::is_keyword(&base) {
                            self.fresh_name(&base)
                        } else {
                            base
                        };
                        self.declare_kpl(&k);
                        self.push_param(&k, &format!("{cname}.{f}"));
                        comps.push(k);
                    }
                    if written {
                        struct_copies.push((cname, agg, comps));
                    } else {
                        self.bind(&cname, Binding::Agg { agg, comps });
                    }
                    return Ok(());
                }
                _ => {
                    return Err(unsupported(
                        format!("a {} parameter `{}`", agg.name, text(decl, self.src)),
                        p,
                    ))
                }
            }
        }
        let struct_name = self.struct_name(text(ty_node, self.src));
        if decl.kind() == "identifier" {
            if let Some(ps) = self.prog.pointer_structs.iter().find(|s| s.name == struct_name).cloned() {
                return self.struct_field_parameters(p, decl, &ps, body, copies);
            }
        }
        if matches!(decl.kind(), "pointer_declarator" | "array_declarator")
            && self.prog.other_structs.contains(&struct_name)
        {
            return Err(unsupported(
                format!(
                    "the parameter `{}`: an array of `{struct_name}`, a struct with pointer, array or function members \
                     (such a struct is modelled only as a parameter by value)",
                    text(decl, self.src)
                ),
                p,
            ));
        }
        if decl.kind() == "identifier" && self.prog.other_structs.contains(&struct_name) {
            return Err(unsupported(
                format!("the struct parameter `{}` by value: `{struct_name}` has members other than scalars, plain structs and pointers to them (arrays, member functions, pointers to pointers)", text(decl, self.src)),
                p,
            )
            .with_note("pass its pointers as separate kernel parameters"));
        }
        let ty = self.ty(ty_node)?;
        let (name_node, is_array) = match decl.kind() {
            "identifier" => (decl, false),
            "pointer_declarator" | "array_declarator" => {
                let inner =
                    decl.child_by_field_name("declarator").ok_or_else(|| unsupported("parameter", decl))?;
                if decl.kind() == "array_declarator" && inner.kind() == "array_declarator" {
                    // `float m[][256]`: a multi-dimensional global array, the first
                    // dimension unknown.
                    let (name, dims) = self.array_param_dims(decl)?;
                    let cname = text(name, self.src).to_string();
                    self.add_array(&cname, Space::Global, ty, dims, false, span(decl));
                    return Ok(());
                }
                if inner.kind() != "identifier" {
                    return Err(unsupported(
                        format!(
                            "parameter `{}` (pointers to pointers and pointers to arrays)",
                            text(decl, self.src)
                        ),
                        decl,
                    ));
                }
                (inner, true)
            }
            _ => return Err(unsupported(format!("parameter `{}`", text(decl, self.src)), decl)),
        };
        let cname = text(name_node, self.src).to_string();
        if is_array {
            self.add_array(&cname, Space::Global, ty, vec![None], false, span(decl));
        } else {
            let kpl = if crate::kpl::is_keyword(&cname) || self.kpl_visible(&cname) {
                self.fresh_name(&cname)
            } else {
                cname.clone()
            };
            self.declare_kpl(&kpl);
            self.push_param(&kpl, &cname);
            // Every visible launch passes this value (`cuda::launch`): the parameter is it.
            let fact = self.launch_argument(&cname, ty);
            let assigned = assigns(body, self.src, &cname);
            match fact {
                Some(value) if !assigned => self.bind(&cname, Binding::Const { value, ty }),
                _ => self.bind(&cname, Binding::Var { kpl: kpl.clone(), ty }),
            }
            if assigned {
                copies.push((cname, fact.map_or(Expr::Var(kpl), Expr::Const), ty));
            }
        }
        Ok(())
    }

    /// A by-value parameter `p` of a struct holding pointers, whose uses `p.f` the front end
    /// renamed to `p_f` (`cuda/struct_fields.rs`): each pointer field a global array parameter
    /// (distinct from every other, like distinct pointer parameters), each scalar field a
    /// uniform scalar parameter (no launch facts: the launch passes the struct).
    fn struct_field_parameters(
        &mut self,
        p: Node,
        decl: Node,
        ps: &crate::cuda::program::PointerStruct<'t>,
        body: Node,
        copies: &mut Vec<(String, Expr, Ty)>,
    ) -> R<()> {
        let cname = text(decl, self.src).to_string();
        for (field, fdecl, pointer) in &ps.fields {
            let ty_node = fdecl
                .child_by_field_name("type")
                .ok_or_else(|| unsupported(format!("field `{field}` without a type"), *fdecl))?;
            let nested = self.agg_type(ty_node).is_some()
                || self
                    .prog
                    .pointer_structs
                    .iter()
                    .any(|s| s.name == self.struct_name(text(ty_node, self.src)))
                || self.prog.other_structs.contains(&self.struct_name(text(ty_node, self.src)));
            if nested && !pointer {
                return Err(unsupported(
                    format!(
                        "field `{field}` of the struct parameter `{cname}`: a vector or struct member \
                         beside pointers (only pointers and scalars are modelled as parameters)"
                    ),
                    p,
                )
                .with_note("pass its pointers as separate kernel parameters"));
            }
        }
        if mentions(body, self.src, &cname) {
            return Err(unsupported(
                format!(
                    "the struct parameter `{cname}` by value holding pointers, used other than as `{cname}.field` \
                     (as a whole value, declared again in the body, written with spaces around `.`, or a field \
                     whose renamed parameter `{cname}_field` clashes with a name of the file)"
                ),
                p,
            )
            .with_note("use its fields directly, or pass its pointers as separate kernel parameters"));
        }
        for (field, fdecl, pointer) in &ps.fields {
            let name = crate::cuda::struct_fields::field_parameter(&cname, field);
            let ty_node = fdecl
                .child_by_field_name("type")
                .ok_or_else(|| unsupported(format!("field `{field}` without a type"), *fdecl))?;
            match (pointer, self.agg_type(ty_node)) {
                (true, Some(agg)) => {
                    self.add_array(&name, Space::Global, agg.fields[0].1, vec![None], false, span(*fdecl));
                    if let Some(Binding::Array { kpl, .. }) = self.lookup(&name).cloned() {
                        self.agg_arrays.insert(kpl, agg);
                    }
                }
                (true, None) => {
                    let ty = self.ty(ty_node)?;
                    self.add_array(&name, Space::Global, ty, vec![None], false, span(*fdecl));
                }
                (false, _) => {
                    let ty = self.ty(ty_node)?;
                    let kpl = if crate::kpl::is_keyword(&name) || self.kpl_visible(&name) {
                        self.fresh_name(&name)
                    } else {
                        name.clone()
                    };
                    self.declare_kpl(&kpl);
                    self.push_param(&kpl, &format!("{cname}.{field}"));
                    self.bind(&name, Binding::Var { kpl: kpl.clone(), ty });
                    self.note_ctype(&name, ty_node);
                    if assigns(body, self.src, &name) {
                        copies.push((name, Expr::Var(kpl), ty));
                    }
                }
            }
        }
        Ok(())
    }

    /// `m[][256][4]` → (`m`, [None, 256, 4]): only the first dimension may be unknown.
    fn array_param_dims<'n>(&self, decl: Node<'n>) -> R<(Node<'n>, Vec<Option<u32>>)> {
        let mut dims = Vec::new();
        let mut cur = decl;
        while cur.kind() == "array_declarator" {
            let size = match cur.child_by_field_name("size") {
                Some(sz) => Some(
                    const_eval(sz, self.src, &mut |name| self.const_value(name))
                        .and_then(|v| u32::try_from(v).ok().filter(|v| *v > 0))
                        .ok_or_else(|| {
                            unsupported("an array parameter dimension that is not a positive constant", sz)
                        })?,
                ),
                None => None,
            };
            dims.push(size);
            cur = cur.child_by_field_name("declarator").ok_or_else(|| unsupported("parameter", decl))?;
        }
        dims.reverse();
        if cur.kind() != "identifier" || dims.iter().skip(1).any(Option::is_none) {
            return Err(unsupported(format!("parameter `{}`", text(decl, self.src)), decl));
        }
        Ok((cur, dims))
    }

    /// Pointer parameters the kernel moves (`d_data += blockIdx.x * N;`, `p++`, `p = p + k`)
    /// become pointers into their array: a fresh offset local, 0 at entry, that the moves update
    /// (`pointer_assign`). Other pointer parameters (and arrays of vectors or structs, which stay
    /// an error when moved) stay arrays.
    pub(super) fn movable_pointer_parameters(&mut self, body: Node<'t>) {
        fn assigned(n: Node, name: &str, src: &str) -> bool {
            let target = match n.kind() {
                "assignment_expression" => n.child_by_field_name("left"),
                "update_expression" => n.child_by_field_name("argument"),
                _ => None,
            };
            if target.map(strip_parens).is_some_and(|t| t.kind() == "identifier" && text(t, src) == name) {
                return true;
            }
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            children.into_iter().any(|ch| assigned(ch, name, src))
        }
        let params: Vec<(String, String, Ty)> = self
            .scopes
            .first()
            .map(|s| {
                s.iter()
                    .filter_map(|(name, b)| match b {
                        Binding::Array { kpl, elem, ndims: 1, scalar: false, prefix }
                            if prefix.is_empty() =>
                        {
                            Some((name.clone(), kpl.clone(), *elem))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut params: Vec<_> = params
            .into_iter()
            .filter(|(name, kpl, _)| {
                // Pointers into vector/struct arrays move by elements (see `pointer_any`).
                self.params_array(kpl) && assigned(body, name, self.src)
            })
            .collect();
        params.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kpl, elem) in params {
            let off = self.flag(&format!("{name}_off"));
            self.bind(&name, Binding::Ptr { array: kpl, elem, comps: vec![Expr::Var(off)] });
        }
    }

    /// Whether KPL array `kpl` is a kernel parameter (global memory, not a file-scope array).
    pub(super) fn params_array(&self, kpl: &str) -> bool {
        self.arrays.iter().any(|a| a.name == kpl && a.space == Space::Global)
    }

    /// The value of a constant name: a template value parameter or an integer macro.
    pub(super) fn const_value(&self, name: &str) -> Option<i64> {
        match self.lookup(name) {
            Some(Binding::Const { value, ty }) => {
                Some(if *ty == Ty::Int { *value as i32 as i64 } else { *value as i64 })
            }
            Some(_) => None,
            None => self.macro_value(name),
        }
    }

    pub(super) fn macro_value(&self, name: &str) -> Option<i64> {
        match self.file.macros.get(name) {
            Some(MacroVal::Const(v)) => Some(*v),
            _ => None,
        }
    }

    /// Makes `name` resolve to the file-scope array of that name, unless something in scope
    /// already has the name (a local or parameter shadows it).
    pub(super) fn bring_file_array(&mut self, name: &str) {
        if self.lookup(name).is_none() {
            self.file_array(name);
        }
    }

    /// Brings a file-scope array into the kernel if one has this name.
    pub(super) fn file_array(&mut self, name: &str) -> bool {
        if let Some(b) = self.file_bound.get(name).cloned() {
            self.scopes[0].insert(name.to_string(), b);
            return true;
        }
        let Some(a) = self.file.arrays.iter().find(|a| a.name == name).cloned() else { return false };
        self.add_array(&a.name, a.space, a.elem, a.dims, a.scalar, a.span);
        if let Some(b) = self.scopes[0].get(name).cloned() {
            self.file_bound.insert(name.to_string(), b);
        }
        true
    }
}
