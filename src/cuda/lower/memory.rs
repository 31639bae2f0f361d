//! Memory: array elements, pointers as aliases (array + element), `extern __shared__`, atomics' targets.

use super::*;

/// The identifier a pointer expression starts from (`p` of `p + 1`, `a` of `&a[i]`), if any.
pub(super) fn pointer_root(n: Node) -> Option<Node> {
    let n = strip_parens(n);
    match n.kind() {
        "identifier" => Some(n),
        "subscript_expression" | "pointer_expression" => pointer_root(n.child_by_field_name("argument")?),
        "binary_expression" => pointer_root(n.child_by_field_name("left")?),
        _ => None,
    }
}

/// Whether `n` is a dereference `*p`.
pub(super) fn is_deref(n: Node) -> bool {
    n.kind() == "pointer_expression" && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "*")
}

/// The index of a pointer plus `k` elements (the last component moves).
pub(super) fn offset(mut comps: Vec<Expr>, k: Expr) -> Vec<Expr> {
    match comps.last_mut() {
        Some(last) => {
            let old = std::mem::replace(last, Expr::Const(0));
            *last = match (&old, &k) {
                (Expr::Const(0), _) => k,
                (_, Expr::Const(0)) => old,
                _ => Expr::bin(BinOp::Add, old, k),
            };
        }
        None => comps.push(k),
    }
    comps
}

impl<'t> Lx<'_, 't> {
    /// Resolves `a[i][j]`, `p[i]`, `*p`, `*(p + k)` (or a shared scalar `s`) to (array, index,
    /// element type), lowering the index expressions left to right.
    pub(super) fn access(&mut self, n: Node) -> R<(String, Vec<Expr>, Ty)> {
        let n = strip_parens(n);
        if n.kind() == "pointer_expression"
            && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "*")
        {
            let arg = n.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", n))?;
            let (array, elem, index) = self.pointer(arg)?;
            return Ok((array, index, elem));
        }
        let (array, elem, index) = self.element(n, false)?;
        Ok((array, index, elem))
    }

    /// `a[i][j]` with all indices (`partial`: or fewer, the rest 0 — a row pointer `tile[ty]`).
    pub(super) fn element(&mut self, n: Node, partial: bool) -> R<(String, Ty, Vec<Expr>)> {
        let mut idx_nodes = Vec::new();
        let mut base = n;
        while base.kind() == "subscript_expression" {
            let list = base.child_by_field_name("indices").ok_or_else(|| unsupported("subscript", base))?;
            let mut c = list.walk();
            let items: Vec<Node> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            let [i] = items[..] else {
                return Err(unsupported("a subscript with other than one index", list));
            };
            idx_nodes.push(i);
            base = strip_parens(
                base.child_by_field_name("argument").ok_or_else(|| unsupported("subscript", base))?,
            );
        }
        idx_nodes.reverse();
        if base.kind() != "identifier" {
            if idx_nodes.len() == 1 && self.is_pointer(base) {
                // `(p + k)[i]`
                let (array, elem, comps) = self.pointer(base)?;
                let (e, t) = self.expr(idx_nodes[0])?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("array index of floating type", span(idx_nodes[0])));
                }
                return Ok((array, elem, offset(comps, e)));
            }
            return Err(unsupported(
                format!(
                    "indexing `{}` (only named arrays and pointers can be indexed)",
                    text(base, self.src)
                ),
                base,
            ));
        }
        let name = text(base, self.src);
        self.bring_file_array(name);
        let (kpl, elem, ndims, scalar, prefix) = match self.lookup(name).cloned() {
            Some(Binding::Array { kpl, elem, ndims, scalar, prefix }) => (kpl, elem, ndims, scalar, prefix),
            Some(Binding::Ptr { array, .. }) if self.agg_arrays.contains_key(&array) => {
                let agg = &self.agg_arrays[&array];
                return Err(unsupported(
                    format!(
                        "the {} element `{}` used as a scalar (use a field, or copy it whole)",
                        agg.name,
                        text(n, self.src)
                    ),
                    n,
                ));
            }
            Some(Binding::Ptr { array, elem, comps }) => {
                let [i] = idx_nodes[..] else {
                    return Err(unsupported(
                        format!("indexing the pointer `{name}` with {} indices", idx_nodes.len()),
                        n,
                    ));
                };
                let (e, t) = self.expr(i)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("array index of floating type", span(i)));
                }
                return Ok((array, elem, offset(comps, e)));
            }
            Some(Binding::Ref { array, elem, index, agg: None }) if idx_nodes.is_empty() => {
                return Ok((array, elem, index))
            }
            Some(Binding::Var { .. })
            | Some(Binding::Const { .. })
            | Some(Binding::Agg { .. })
            | Some(Binding::Ref { .. }) => {
                return Err(unsupported(format!("indexing the scalar `{name}`"), base))
            }
            Some(Binding::Block | Binding::Tile(_) | Binding::Grid) => {
                return Err(groups::block_as_value(name, base))
            }
            Some(Binding::Func(_)) => {
                return Err(unsupported(format!("indexing the function pointer `{name}`"), base))
            }
            Some(Binding::VarPtr { .. } | Binding::AggPtr { .. }) => {
                return Err(self.var_pointer_misuse(name, n))
            }
            None => {
                return Err(Diagnostic::error(format!("unknown array `{name}`"), span(base))
                    .with_label("not a pointer parameter or array"))
            }
        };
        if scalar {
            if !idx_nodes.is_empty() {
                return Err(unsupported(format!("indexing the scalar `{name}`"), n));
            }
            return Ok((kpl, elem, vec![Expr::Const(0)]));
        }
        if let Some(agg) = self.agg_arrays.get(&kpl) {
            return Err(unsupported(
                format!(
                    "the {} element `{}` used as a scalar (use a field, or copy it whole)",
                    agg.name,
                    text(n, self.src)
                ),
                n,
            ));
        }
        if idx_nodes.len() > ndims || (idx_nodes.len() < ndims && !partial) {
            return Err(unsupported(
                format!(
                    "`{name}` has {ndims} dimension(s) but is indexed with {} (a row pointer is supported only as a pointer value: `float *row = {name}[i];`)",
                    idx_nodes.len()
                ),
                n,
            ));
        }
        let mut index = Vec::new();
        for i in idx_nodes {
            let (e, t) = self.expr(i)?;
            if t == Ty::Float {
                return Err(Diagnostic::error("array index of floating type", span(i)));
            }
            index.push(e);
        }
        index.resize(ndims, Expr::Const(0));
        Ok((kpl, elem, prefix.into_iter().chain(index).collect()))
    }

    /// Whether an expression denotes a pointer (an array, a pointer local, `&x`, pointer
    /// arithmetic, a pointer cast, `SharedMemory<T>()`).
    pub(super) fn is_pointer(&self, n: Node) -> bool {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => {
                let name = text(n, self.src);
                match self.lookup(name) {
                    Some(Binding::Array { scalar, .. }) => !scalar,
                    Some(Binding::Ptr { .. }) => true,
                    Some(_) => false,
                    None => self.file.arrays.iter().any(|a| a.name == name && !a.scalar),
                }
            }
            "pointer_expression" => n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&"),
            "cast_expression" => n.child_by_field_name("type").is_some_and(|t| {
                t.child_by_field_name("declarator").is_some_and(|d| d.kind().contains("pointer"))
            }),
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                matches!(op, "+" | "-") && n.child_by_field_name("left").is_some_and(|l| self.is_pointer(l))
                    || op == "+" && n.child_by_field_name("right").is_some_and(|r| self.is_pointer(r))
            }
            "subscript_expression" => {
                // A row of a multi-dimensional array.
                let mut k = 0;
                let mut b = n;
                while b.kind() == "subscript_expression" {
                    k += 1;
                    match b.child_by_field_name("argument") {
                        Some(x) => b = strip_parens(x),
                        None => return false,
                    }
                }
                b.kind() == "identifier"
                    && matches!(self.lookup(text(b, self.src)), Some(Binding::Array { ndims, .. }) if *ndims > k)
            }
            "call_expression" => self.shared_memory_call(n).is_some(),
            "conditional_expression" => {
                n.child_by_field_name("consequence").is_some_and(|c| self.is_pointer(c))
            }
            _ => false,
        }
    }

    /// `SharedMemory<T>()`: the struct's extern shared array name and the type node of `T`.
    pub(super) fn shared_memory_call<'n>(&self, n: Node<'n>) -> Option<(String, Option<Node<'n>>)> {
        let f = n.child_by_field_name("function")?;
        if f.kind() != "template_function" {
            return None;
        }
        let name = text(f.child_by_field_name("name")?, self.src);
        let array = self.prog.shared_memory(name)?.to_string();
        let targ = f.child_by_field_name("arguments").and_then(|a| a.named_child(0));
        Some((array, targ))
    }

    /// The (array, element type, index) a pointer expression points at; pointers into arrays
    /// of vectors/structs are refused (their index counts elements, not words: see
    /// [`Self::pointer_any`]).
    pub(super) fn pointer(&mut self, n: Node) -> R<(String, Ty, Vec<Expr>)> {
        let r = self.pointer_any(n)?;
        if let Some(agg) = self.agg_arrays.get(&r.0) {
            return Err(unsupported(
                format!(
                    "`{}` as a pointer to a scalar: it points into an array of {}",
                    text(n, self.src),
                    agg.name
                ),
                n,
            ));
        }
        Ok(r)
    }

    /// A pointer into an array of vectors/structs: (array, index in elements, the type).
    pub(super) fn agg_pointer(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let (array, _, comps) = self.pointer_any(n)?;
        match self.agg_arrays.get(&array) {
            Some(agg) => Ok((array, comps, agg.clone())),
            None => Err(unsupported(
                format!(
                    "`{}` as a pointer to vectors or structs: it points into a scalar array",
                    text(n, self.src)
                ),
                n,
            )),
        }
    }

    /// [`Self::pointer`], also into arrays of vectors/structs, whose pointers count elements:
    /// the last component is an element number (words = element × fields, see `agg_element`).
    pub(super) fn pointer_any(&mut self, n: Node) -> R<(String, Ty, Vec<Expr>)> {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => {
                let name = text(n, self.src);
                self.bring_file_array(name);
                match self.lookup(name).cloned() {
                    Some(Binding::Array { kpl, elem, ndims, scalar: false, prefix }) => {
                        Ok((kpl, elem, prefix.into_iter().chain(vec![Expr::Const(0); ndims]).collect()))
                    }
                    Some(Binding::Ptr { array, elem, comps }) => Ok((array, elem, comps)),
                    Some(Binding::VarPtr { .. }) => Err(self.var_pointer_misuse(name, n)),
                    _ => Err(unsupported(
                        format!("`{name}` as a pointer (only arrays and pointers into them)"),
                        n,
                    )),
                }
            }
            // A pointer cast keeps the element index: element sizes are assumed equal (every
            // element is one 32-bit word; documented approximation) — and refused where both
            // are known and differ: `(int *)bytes` with `char bytes[]` makes `p[1]` the bytes
            // 4..8, not element 1, so the two views would meet where the model says they do not.
            "cast_expression" if self.is_pointer(n) => {
                let v = n.child_by_field_name("value").ok_or_else(|| unsupported("cast", n))?;
                let to = n.child_by_field_name("type").and_then(|t| t.child_by_field_name("type"));
                if let Some(agg) = to.and_then(|t| self.agg_type(t)) {
                    // Elements of another size: the index would change units.
                    return Err(unsupported(format!("a cast to a pointer to {}", agg.name), n));
                }
                let to_bytes = to.and_then(|t| vector_cast::scalar_bytes(text(t, self.src)));
                let from = vector_cast::base_name(v)
                    .and_then(|b| vector_cast::declared_type(b, text(b, self.src), self.src));
                let from_bytes = from.as_deref().and_then(vector_cast::scalar_bytes);
                if let (Some(a), Some(b), Some(from)) = (from_bytes, to_bytes, &from) {
                    if a != b {
                        return Err(unsupported(
                            format!(
                                "the pointer cast `{}` from {a}-byte `{}` elements to {b}-byte ones (the element index would change units; accesses of different sizes to one array are not modelled)",
                                text(n, self.src),
                                from.trim()
                            ),
                            n,
                        )
                        .with_note("declare the memory with the element type it is accessed as"));
                    }
                }
                // `pointer` refuses pointers into vector/struct arrays for the same reason.
                let (array, _, index) = self.pointer(v)?;
                let elem = to.and_then(|t| self.ty(t).ok()).unwrap_or(Ty::Int);
                Ok((array, elem, index))
            }
            "pointer_expression" if self.is_pointer(n) => {
                let arg =
                    strip_parens(n.child_by_field_name("argument").ok_or_else(|| unsupported("`&`", n))?);
                match arg.kind() {
                    "subscript_expression" if self.agg_base(arg).is_some() => {
                        let (array, index, agg) = self.agg_index(arg)?;
                        Ok((array, agg.fields[0].1, index))
                    }
                    "subscript_expression" => self.element(arg, false),
                    "identifier" => {
                        let name = text(arg, self.src);
                        self.bring_file_array(name);
                        match self.lookup(name).cloned() {
                            Some(Binding::Array { kpl, elem, ndims, prefix, .. }) => Ok((
                                kpl,
                                elem,
                                prefix.into_iter().chain(vec![Expr::Const(0); ndims]).collect(),
                            )),
                            // A reference to a scalar element (not to a field: its index
                            // counts words of a vector/struct array).
                            Some(Binding::Ref { array, elem, index, agg: None })
                                if !self.agg_arrays.contains_key(&array) =>
                            {
                                Ok((array, elem, index))
                            }
                            Some(Binding::Var { .. }) => Err(unsupported(
                                format!("the address of the local `{name}` here (only as the argument of a pointer parameter or the initializer of a pointer local)"),
                                n,
                            )),
                            _ => Err(unsupported(
                                format!("the address of `{name}` (only of arrays, their elements and scalar locals)"),
                                n,
                            )),
                        }
                    }
                    _ => Err(unsupported(format!("the address `{}`", text(n, self.src)), n)),
                }
            }
            "subscript_expression" if self.is_pointer(n) => self.element(n, true),
            "binary_expression" if self.is_pointer(n) => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").ok_or_else(|| unsupported("pointer arithmetic", n))?;
                let r = n.child_by_field_name("right").ok_or_else(|| unsupported("pointer arithmetic", n))?;
                let (p, k) = if self.is_pointer(l) { (l, r) } else { (r, l) };
                if self.is_pointer(k) {
                    return Err(unsupported("the difference of two pointers", n));
                }
                let (array, elem, comps) = self.pointer_any(p)?;
                let (e, t) = self.expr(k)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("pointer offset of floating type", span(k)));
                }
                let e = if op == "-" { Expr::Unary(UnOp::Neg, Box::new(e)) } else { e };
                Ok((array, elem, offset(comps, e)))
            }
            "conditional_expression" if self.is_pointer(n) => self.pointer_choice(n),
            "call_expression" => match self.shared_memory_call(n) {
                Some((array, targ)) => {
                    let elem = match targ {
                        Some(t) if t.kind() == "type_descriptor" => {
                            let tn = t.child_by_field_name("type").ok_or_else(|| unsupported("type", t))?;
                            self.ty(tn)?
                        }
                        _ => Ty::Int,
                    };
                    let kpl = self.extern_shared_array(&array, elem, span(n));
                    Ok((kpl, elem, vec![Expr::Const(0)]))
                }
                None => Err(unsupported(format!("the pointer value `{}`", text(n, self.src)), n)),
            },
            _ => Err(unsupported(
                format!(
                    "the pointer value `{}` (pointers are modelled only into named arrays)",
                    text(n, self.src)
                ),
                n,
            )),
        }
    }

    /// The KPL array of the kernel's dynamic shared memory: every `extern __shared__` array of
    /// a kernel is the same memory, so all of them lower to one KPL array.
    pub(super) fn extern_shared_array(&mut self, cname: &str, elem: Ty, sp: Span) -> String {
        if let Some((kpl, _)) = &self.extern_shared {
            return kpl.clone();
        }
        let kpl = if self.kpl_visible(cname) || crate::kpl::is_keyword(cname) {
            self.fresh_name(cname)
        } else {
            self.taken.insert(cname.to_string());
            cname.to_string()
        };
        self.c_names.insert(kpl.clone(), (cname.to_string(), false));
        self.arrays.push(ArrayDecl { name: kpl.clone(), space: Space::Shared, dims: vec![None], span: sp });
        self.extern_shared = Some((kpl.clone(), elem));
        kpl
    }

    /// Binds a C pointer name to the element `comps` of `array`, snapshotting every component
    /// that is not a constant (or every one, when the pointer is assigned later) in fresh locals.
    pub(super) fn bind_pointer(
        &mut self,
        cname: &str,
        array: String,
        elem: Ty,
        comps: Vec<Expr>,
        mutable: bool,
    ) {
        let n = comps.len();
        let mut out = Vec::new();
        for (i, c) in comps.into_iter().enumerate() {
            if matches!(c, Expr::Const(_)) && !mutable {
                out.push(c);
                continue;
            }
            let base = if n == 1 { format!("{cname}_off") } else { format!("{cname}_i{i}") };
            let name = if self.taken.contains(&base) || crate::kpl::is_keyword(&base) {
                self.fresh_name(&base)
            } else {
                base
            };
            self.declare_kpl(&name);
            self.emit(StmtKind::Local { name: name.clone(), init: Some(c) });
            out.push(Expr::Var(name));
        }
        self.bind(cname, Binding::Ptr { array, elem, comps: out });
    }

    /// An lvalue: a local variable or an array element.
    pub(super) fn lvalue_is_var(&self, l: Node) -> Option<(String, Ty)> {
        if let Some(v) = self.var_pointee(l) {
            return Some(v);
        }
        let l = strip_parens(l);
        if l.kind() != "identifier" {
            return None;
        }
        match self.lookup(text(l, self.src)) {
            Some(Binding::Var { kpl, ty }) => Some((kpl.clone(), *ty)),
            _ => None,
        }
    }

    pub(super) fn check_lvalue(&self, l: Node) -> R<()> {
        let l = strip_parens(l);
        match l.kind() {
            "pointer_expression" if l.child_by_field_name("operator").is_some_and(|o| o.kind() == "*") => {
                Ok(())
            }
            "identifier" | "subscript_expression" => {
                if l.kind() == "identifier" {
                    if let Some(Binding::Array { scalar: false, .. }) = self.lookup(text(l, self.src)) {
                        return Err(unsupported(
                            format!(
                                "assigning the array `{}` (pointer arithmetic is not modelled)",
                                text(l, self.src)
                            ),
                            l,
                        ));
                    }
                }
                Ok(())
            }
            _ => Err(unsupported(format!("assignment to `{}`", text(l, self.src)), l)),
        }
    }

    /// An assignment (`p = q + k`, `p += k`; `None`: `p++`/`p--` with `op` from `n`'s parent)
    /// to a pointer local: moves its components; the array must stay the same.
    pub(super) fn pointer_assign(&mut self, l: Node, rhs: Option<(&str, Node)>) -> R<Option<(Expr, Ty)>> {
        let l = strip_parens(l);
        if l.kind() != "identifier" {
            return Ok(None);
        }
        let name = text(l, self.src);
        let Some(Binding::Ptr { array, elem, comps }) = self.lookup(name).cloned() else { return Ok(None) };
        let new = match rhs {
            Some(("=", r)) => {
                // The same array as before, so the same units (elements of a vector/struct array).
                let (a2, _, c2) = self.pointer_any(r)?;
                if a2 != array {
                    return Err(unsupported(
                        format!("pointing `{name}` at a different array than it was initialized with"),
                        r,
                    ));
                }
                c2
            }
            Some((op, r)) if op == "+=" || op == "-=" => {
                let (e, t) = self.expr(r)?;
                if t == Ty::Float {
                    return Err(Diagnostic::error("pointer offset of floating type", span(r)));
                }
                let e = if op == "-=" { Expr::Unary(UnOp::Neg, Box::new(e)) } else { e };
                offset(comps.clone(), e)
            }
            Some((op, r)) => return Err(unsupported(format!("`{op}` on a pointer"), r)),
            None => {
                let dec = l
                    .parent()
                    .and_then(|p| p.child_by_field_name("operator"))
                    .is_some_and(|o| o.kind() == "--");
                offset(comps.clone(), Expr::Const(if dec { u32::MAX } else { 1 }))
            }
        };
        for (old, new) in comps.iter().zip(new) {
            match old {
                Expr::Var(v) => {
                    if *old != new {
                        self.emit(StmtKind::Assign { name: v.clone(), value: new });
                    }
                }
                _ if *old == new => {}
                _ => {
                    return Err(Diagnostic::error(
                        format!("internal error: pointer `{name}` is not mutable"),
                        span(l),
                    ))
                }
            }
        }
        let _ = elem;
        Ok(Some((Expr::Const(0), Ty::Int)))
    }

    /// The word an atomic's first argument points at: `&a[i]`, `&s` (a shared/device scalar or a
    /// scalar reference), `&a[i].x` / `&p->x` (a field word), or a pointer expression `p + i`.
    pub(super) fn atomic_target(&mut self, ptr: Node) -> R<(String, Vec<Expr>, Ty)> {
        let ptr = strip_parens(ptr);
        let is_addr = ptr.kind() == "pointer_expression"
            && ptr.child_by_field_name("operator").is_some_and(|o| o.kind() == "&");
        if !is_addr && self.is_pointer(ptr) {
            let (array, elem, index) = self.pointer(ptr)?;
            return Ok((array, index, elem));
        }
        if !is_addr {
            return Err(unsupported(
                format!("atomic on `{}` (the target must be written `&a[i]` or `&s`)", text(ptr, self.src)),
                ptr,
            ));
        }
        let target = ptr.child_by_field_name("argument").ok_or_else(|| unsupported("atomic target", ptr))?;
        let target = strip_parens(target);
        match target.kind() {
            "identifier" => {
                let name = text(target, self.src);
                self.bring_file_array(name);
                if !matches!(
                    self.lookup(name),
                    Some(Binding::Array { scalar: true, .. }) | Some(Binding::Ref { agg: None, .. })
                ) {
                    return Err(unsupported(
                        format!("atomic on `&{name}` (only arrays and shared/device scalars)"),
                        target,
                    ));
                }
            }
            "field_expression" => {
                return match self.field_target(target)? {
                    Some(Target2::Mem(array, index, ty)) => Ok((array, index, ty)),
                    _ => Err(unsupported(format!("atomic on `&{}`", text(target, self.src)), target)),
                };
            }
            "subscript_expression" => {}
            _ => return Err(unsupported(format!("atomic on `&{}`", text(target, self.src)), target)),
        }
        self.access(target)
    }
}
