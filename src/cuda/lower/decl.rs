//! Declarations of locals and `__shared__` arrays.

use super::*;

impl<'t> Lx<'_, 't> {
    pub(super) fn declaration(&mut self, n: Node) -> R<()> {
        let mut c = n.walk();
        let mut shared = false;
        let mut ext = false;
        // A `static` local that cannot change (`static const`, `static constexpr`) holds the
        // same value in every thread, so a private copy per thread is exact; `static
        // __shared__` is the block's shared variable either way.
        let qualified = |q: &[&str]| {
            n.children(&mut n.walk())
                .any(|ch| ch.kind() == "type_qualifier" && q.contains(&text(ch, self.src)))
        };
        let immutable = qualified(&["const", "constexpr"]);
        let immutable_or_shared = immutable || qualified(&["__shared__"]);
        for ch in n.children(&mut c) {
            let t = text(ch, self.src);
            match ch.kind() {
                "storage_class_specifier" => match t {
                    "extern" => ext = true,
                    "register" => {}
                    "static" if immutable_or_shared => {}
                    "static" => return Err(unsupported(
                        "a `static` local that is not `const` (one variable all threads of the grid share)",
                        ch,
                    )),
                    _ => return Err(unsupported(format!("`{t}` variables in a kernel"), ch)),
                },
                "type_qualifier" => match t {
                    "__shared__" => shared = true,
                    "const" | "volatile" | "__restrict__" | "constexpr" => {}
                    _ => return Err(unsupported(format!("`{t}` in a kernel"), ch)),
                },
                // `[[maybe_unused]]`, `__attribute__((unused))`, `__declspec(…)`: hints to the
                // compiler that change nothing a kernel does to memory.
                "attribute_specifier" | "attribute_declaration" | "ms_declspec_modifier" => {}
                _ => {}
            }
        }
        let ty_node =
            n.child_by_field_name("type").ok_or_else(|| unsupported("declaration without a type", n))?;
        if let Some(r) = self.group_declaration(n, ty_node, shared || ext) {
            return r;
        }
        if let Some(agg) = self.agg_type(ty_node) {
            return self.agg_declaration(n, agg, shared, ext);
        }
        if text(ty_node, self.src) == "auto" && !shared && !ext {
            return self.auto_declaration(n);
        }
        let ty = self.ty(ty_node)?;
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            if shared {
                self.shared_decl(d, ty, ext)?;
                continue;
            }
            if ext {
                return Err(unsupported("`extern` variables other than `extern __shared__` arrays", d));
            }
            let array_decl = array_declarator(d);
            if let Some(a) = array_decl {
                self.private_array(a, ty, d.child_by_field_name("value"))?;
                continue;
            }
            match d.kind() {
                "identifier" => {
                    let cname = text(d, self.src).to_string();
                    self.declare_var(&cname, ty, None);
                    self.note_ctype(&cname, ty_node);
                }
                "pointer_declarator" if self.inline_depth == 0 => {
                    let inner = d.child_by_field_name("declarator").filter(|i| i.kind() == "identifier");
                    let Some(inner) = inner else { return Err(self.bad_declarator(d)) };
                    let cname = text(inner, self.src).to_string();
                    self.uninit_pointer(&cname, ty, d)?;
                }
                "init_declarator" => {
                    let name =
                        d.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
                    let value = d.child_by_field_name("value").ok_or_else(|| unsupported("declarator", d))?;
                    if name.kind() == "reference_declarator" {
                        self.ref_local(n, name, value, None, ty)?;
                        continue;
                    }
                    if name.kind() == "pointer_declarator" {
                        let inner = name
                            .child_by_field_name("declarator")
                            .ok_or_else(|| unsupported("declarator", d))?;
                        if inner.kind() != "identifier" {
                            return Err(self.bad_declarator(inner));
                        }
                        let cname = text(inner, self.src).to_string();
                        if let Some(r) = self.var_pointer_local(&cname, ty, value) {
                            r?;
                            continue;
                        }
                        let (array, _, comps) = self.pointer(value)?;
                        let mutable = self.fn_body.is_none_or(|b| assigns(b, self.src, &cname));
                        self.bind_pointer(&cname, array, ty, comps, mutable);
                        continue;
                    }
                    if name.kind() != "identifier" {
                        return Err(self.bad_declarator(name));
                    }
                    if matches!(value.kind(), "argument_list" | "initializer_list") {
                        return Err(unsupported("constructor or brace initializers", value));
                    }
                    let (e, t) = self.expr(value)?;
                    let e = convert(e, t, ty);
                    let cname = text(name, self.src).to_string();
                    // A `const`/`constexpr` integer with a constant value is that constant (array
                    // sizes, template arguments and folded conditions may use it): it never changes.
                    match fold(&e) {
                        Some(value) if immutable && ty != Ty::Float => {
                            self.bind(&cname, Binding::Const { value, ty });
                        }
                        _ => {
                            self.declare_var(&cname, ty, Some(e));
                            self.note_ctype(&cname, ty_node);
                        }
                    }
                }
                _ => return Err(self.bad_declarator(d)),
            }
        }
        Ok(())
    }

    /// `auto x = e;` (also `const auto`): a scalar local of the type of `e`. Other declarators
    /// (`auto &r`, `auto *p`, no initializer) are errors naming them.
    pub(super) fn auto_declaration(&mut self, n: Node) -> R<()> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let (Some(name), Some(value)) =
                (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
            else {
                return Err(unsupported("`auto` without an initializer", d));
            };
            if name.kind() != "identifier" {
                return Err(unsupported(format!("`auto` declarator `{}`", text(name, self.src)), name));
            }
            if matches!(value.kind(), "argument_list" | "initializer_list") {
                return Err(unsupported("constructor or brace initializers", value));
            }
            let (e, ty) = self.expr(value)?;
            let cname = text(name, self.src).to_string();
            self.declare_var(&cname, ty, Some(e));
        }
        Ok(())
    }

    pub(super) fn bad_declarator(&self, d: Node) -> Diagnostic {
        match d.kind() {
            "array_declarator" => unsupported("thread-local arrays", d)
                .with_note("only `__shared__` arrays, global pointer parameters and file-scope `__device__` arrays are modelled"),
            "pointer_declarator" => unsupported("a pointer variable without an initializer", d)
                .with_note("pointers are modelled as aliases of the array they are initialized to point into"),
            "reference_declarator" => unsupported("references", d),
            _ => unsupported(format!("declarator `{}`", text(d, self.src)), d),
        }
    }

    /// A thread-local array (`float acc[8];`, `int w[3] = {1, 2, 3};`): one row per thread of a
    /// KPL array whose leading dimensions are the thread's `tid.z`, `tid.y`, `tid.x` (CUDA bounds
    /// them by 64, 1024, 1024), so two threads never share an element and no access to it can
    /// race; the values are exact. Declared again (in a loop), it keeps its words, which C leaves
    /// indeterminate anyway.
    pub(super) fn private_array(&mut self, d: Node, ty: Ty, init: Option<Node>) -> R<()> {
        let mut dims = Vec::new();
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            let size = match cur.child_by_field_name("size") {
                Some(s) => Some(
                    const_eval(s, self.src, &mut |name| self.const_value(name))
                        .and_then(|v| u32::try_from(v).ok().filter(|v| *v > 0))
                        .ok_or_else(|| {
                            unsupported(
                                "a thread-local array size that is not a positive integer constant",
                                s,
                            )
                        })?,
                ),
                None => None,
            };
            dims.push(size);
            cur = cur.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
        }
        dims.reverse();
        if cur.kind() != "identifier" {
            return Err(self.bad_declarator(cur));
        }
        let mut leaves = Vec::new();
        if let Some(v) = init {
            if v.kind() != "initializer_list" {
                return Err(unsupported("this initializer of a thread-local array", v));
            }
            let mut c = v.walk();
            leaves = v.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            if leaves.iter().any(|l| l.kind() == "initializer_list" || l.kind() == "initializer_pair") {
                return Err(unsupported("nested or designated initializers of a thread-local array", v));
            }
            if dims.len() != 1 {
                return Err(unsupported("initializers of multi-dimensional thread-local arrays", v));
            }
            if dims[0].is_none() {
                dims[0] = u32::try_from(leaves.len()).ok().filter(|n| *n > 0);
            }
        }
        let c_dims: Vec<u32> = dims
            .iter()
            .map(|x| x.ok_or_else(|| unsupported("a thread-local array of unknown size", d)))
            .collect::<R<_>>()?;
        let cname = text(cur, self.src).to_string();
        let mut full: Vec<Option<u32>> = crate::kpl::THREAD_ROW_DIMS.iter().map(|d| Some(*d)).collect();
        full.extend(c_dims.iter().map(|x| Some(*x)));
        let before = self.scopes[0].get(&cname).cloned();
        self.add_array_plain(&cname, Space::Shared, ty, full, false, span(d));
        let prefix = crate::kpl::thread_row();
        let kpl = match self.scopes[0].get(&cname) {
            Some(Binding::Array { kpl, .. }) => kpl.clone(),
            _ => return Err(unsupported("thread-local array", d)),
        };
        let b = Binding::Array {
            kpl: kpl.clone(),
            elem: ty,
            ndims: c_dims.len(),
            scalar: false,
            prefix: prefix.clone(),
        };
        // Visible from here on in this block only (`add_array` also binds the kernel scope).
        match before {
            Some(old) => self.scopes[0].insert(cname.clone(), old),
            None => self.scopes[0].remove(&cname),
        };
        self.bind(&cname, b);
        let n = dims[0].unwrap_or(0) as usize;
        for (i, leaf) in leaves.iter().enumerate().take(n) {
            let (e, t) = self.expr(*leaf)?;
            let mut index = prefix.clone();
            index.push(Expr::Const(i as u32));
            self.emit(StmtKind::Write { array: kpl.clone(), index, value: convert(e, t, ty) });
        }
        for i in leaves.len()..if leaves.is_empty() { 0 } else { n } {
            let mut index = prefix.clone();
            index.push(Expr::Const(i as u32));
            self.emit(StmtKind::Write { array: kpl.clone(), index, value: Expr::Const(0) });
        }
        Ok(())
    }

    /// A thread-local array of vectors or structs (`float4 v[2];`, `Pair best[4] = {{…}, {…}};`):
    /// a thread-local array (see [`Self::private_array`]) whose last dimension holds the fields,
    /// like a `__shared__` array of them. An initializer gives each element by a brace list (or
    /// a value of the type); the elements it does not give are zero.
    pub(super) fn agg_private_array(&mut self, d: Node, agg: Rc<Agg>, init: Option<Node>) -> R<()> {
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            cur = cur.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
        }
        let size = d.child_by_field_name("size");
        if d.child_by_field_name("declarator").is_some_and(|x| x.kind() == "array_declarator")
            || size.is_none()
        {
            return Err(unsupported(
                format!("a multi-dimensional or unsized thread-local array of {}", agg.name),
                d,
            ));
        }
        let cname = text(cur, self.src).to_string();
        self.private_array(d, agg.fields[0].1, None)?;
        let (kpl, prefix) = match self.lookup(&cname) {
            Some(Binding::Array { kpl, prefix, .. }) => (kpl.clone(), prefix.clone()),
            _ => return Err(unsupported("thread-local array", d)),
        };
        let k = agg.fields.len() as u32;
        let mut n = 0;
        if let Some(a) = self.arrays.iter_mut().find(|a| a.name == kpl) {
            if let Some(Some(last)) = a.dims.last_mut() {
                n = *last;
                *last *= k;
            }
        }
        self.agg_arrays.insert(kpl.clone(), agg.clone());
        let Some(v) = init else { return Ok(()) };
        if v.kind() != "initializer_list" {
            return Err(unsupported(format!("this initializer of a thread-local array of {}", agg.name), v));
        }
        let mut c = v.walk();
        let items: Vec<Node> = v.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        if items.len() > n as usize {
            return Err(unsupported(format!("more initializers than elements (brace each {})", agg.name), v));
        }
        for i in 0..n {
            let values = match items.get(i as usize) {
                Some(item) => self.agg_value(*item, &agg)?,
                None => vec![Expr::Const(0); agg.fields.len()],
            };
            let mut index = prefix.clone();
            index.push(Expr::Const(i));
            let index = element_words(index, &agg);
            self.write_fields(&kpl, &index, values);
        }
        Ok(())
    }

    pub(super) fn shared_decl(&mut self, d: Node, ty: Ty, ext: bool) -> R<()> {
        if d.kind() == "init_declarator" {
            return Err(unsupported("initialized `__shared__` variables", d));
        }
        let mut dims = Vec::new();
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            match cur.child_by_field_name("size") {
                Some(s) => {
                    let v = const_eval(s, self.src, &mut |name| self.const_value(name))
                        .and_then(|v| u32::try_from(v).ok().filter(|v| *v > 0))
                        .ok_or_else(|| {
                            unsupported(
                                "a `__shared__` array size that is not a positive integer constant",
                                s,
                            )
                        })?;
                    dims.push(Some(v));
                }
                None => dims.push(None),
            }
            cur = cur.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?;
        }
        if cur.kind() != "identifier" {
            return Err(self.bad_declarator(cur));
        }
        dims.reverse();
        if dims.iter().skip(1).any(Option::is_none) || (dims.first() == Some(&None) && !ext) {
            return Err(unsupported(
                "a `__shared__` array with an unknown size other than `extern __shared__ T a[]`",
                d,
            ));
        }
        let scalar = dims.is_empty();
        if scalar {
            if ext {
                return Err(unsupported("`extern __shared__` scalars", d));
            }
            dims.push(Some(1));
        }
        let cname = text(cur, self.src).to_string();
        if ext {
            let kpl = self.extern_shared_array(&cname, ty, span(d));
            self.bind(&cname, Binding::Array { kpl, elem: ty, ndims: 1, scalar: false, prefix: Vec::new() });
            return Ok(());
        }
        self.add_array(&cname, Space::Shared, ty, dims, scalar, span(d));
        Ok(())
    }
}

/// The array declarator of a declaration's item (`float a[4]` or `float a[4] = {…}`), if it
/// declares an array.
pub(super) fn array_declarator(d: Node) -> Option<Node> {
    match d.kind() {
        "array_declarator" => Some(d),
        "init_declarator" => d.child_by_field_name("declarator").filter(|x| x.kind() == "array_declarator"),
        _ => None,
    }
}
