//! Vector types and plain structs: one KPL word per field, in locals and in array elements.

use super::*;

/// A vector type or plain struct: its fields, each one 32-bit word (documented approximation:
/// `double`, 64-bit and narrow fields are one word each, so layouts are per field, not per byte).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Agg {
    pub(super) name: String,
    /// One word each; a nested struct's fields are flattened into words named `outer.inner`.
    pub(super) fields: Vec<(String, Ty)>,
    /// The members of a union (all one word, all aliasing word 0): name and type.
    pub(super) aliases: Vec<(String, Ty)>,
}

impl Agg {
    pub(super) fn field(&self, f: &str) -> Option<(usize, Ty)> {
        if let Some((_, t)) = self.aliases.iter().find(|(n, _)| n == f) {
            return Some((0, *t));
        }
        self.fields.iter().position(|(n, _)| n == f).map(|i| (i, self.fields[i].1))
    }

    /// The words of the nested struct field `prefix` (`lo` of `Box { Vec2 lo, hi; }`): their
    /// positions, in order.
    pub(super) fn sub_fields(&self, prefix: &str) -> Vec<usize> {
        let p = format!("{prefix}.");
        (0..self.fields.len()).filter(|i| self.fields[*i].0.starts_with(&p)).collect()
    }
}

/// The built-in vector types: `float4`, `uint2`, `int3`, … (fields `x`, `y`, `z`, `w`).
pub(super) fn vector_type(name: &str) -> Option<Agg> {
    // Pairs of halves / bfloat16 (`half2`: fields `x`, `y`), floating like `float2`.
    if matches!(name, "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162") {
        let fields = ["x", "y"].iter().map(|f| (f.to_string(), Ty::Float)).collect();
        return Some(Agg { name: name.to_string(), fields, aliases: Vec::new() });
    }
    if name == "dim3" {
        let fields = ["x", "y", "z"].iter().map(|f| (f.to_string(), Ty::UInt)).collect();
        return Some(Agg { name: name.to_string(), fields, aliases: Vec::new() });
    }
    let n = name.chars().last()?.to_digit(10)? as usize;
    let base = &name[..name.len() - 1];
    let ty = match base {
        "float" | "double" => Ty::Float,
        "int" | "char" | "short" | "long" | "longlong" => Ty::Int,
        "uint" | "uchar" | "ushort" | "ulong" | "ulonglong" => Ty::UInt,
        _ => return None,
    };
    if !(1..=4).contains(&n) {
        return None;
    }
    let fields = ["x", "y", "z", "w"][..n].iter().map(|f| (f.to_string(), ty)).collect();
    Some(Agg { name: name.to_string(), fields, aliases: Vec::new() })
}

/// The half2 / bfloat162 intrinsics that return a pair (`__hadd2`, `__floats2half2_rn`,
/// `__half22float2`, …): each field of the result is an opaque pure function of the argument
/// words, like the scalar math functions.
pub(super) fn is_vector_intrinsic(name: &str) -> bool {
    const PAIR_FNS: &[&str] = &[
        "__hadd2",
        "__hsub2",
        "__hmul2",
        "__h2div",
        "__hfma2",
        "__hneg2",
        "__habs2",
        "__hmax2",
        "__hmin2",
        "__hadd2_sat",
        "__hsub2_sat",
        "__hmul2_sat",
        "__hfma2_sat",
        "__hmax2_nan",
        "__hmin2_nan",
        "__heq2",
        "__hne2",
        "__hlt2",
        "__hle2",
        "__hgt2",
        "__hge2",
        "h2sqrt",
        "h2rsqrt",
        "h2exp",
        "h2exp2",
        "h2log",
        "h2log2",
        "h2sin",
        "h2cos",
        "h2rcp",
        "h2floor",
        "h2ceil",
        "h2trunc",
        "h2rint",
        "__floats2half2_rn",
        "__float2half2_rn",
        "__float22half2_rn",
        "__halves2half2",
        "__half2half2",
        "__low2half2",
        "__high2half2",
        "__lowhigh2highlow",
        "__lows2half2",
        "__highs2half2",
        "__floats2bfloat162_rn",
        "__float2bfloat162_rn",
        "__float22bfloat162_rn",
        "__halves2bfloat162",
        "__bfloat162bfloat162",
        "__half22float2",
        "__bfloat1622float2",
        "__ldg_half2",
    ];
    PAIR_FNS.contains(&name)
}

/// A chain of member accesses `b.lo.x` → (`b`, `lo.x`, false); `p->lo.x` → (`p`, `lo.x`, true):
/// the base and the path of a (flattened) field.
pub(super) fn field_chain<'n>(n: Node<'n>, src: &str) -> Option<(Node<'n>, String, bool)> {
    let mut path = Vec::new();
    let mut cur = strip_parens(n);
    while cur.kind() == "field_expression" {
        path.push(text(cur.child_by_field_name("field")?, src));
        let arrow = cur.child(1).is_some_and(|op| op.kind() == "->");
        let arg = strip_parens(cur.child_by_field_name("argument")?);
        if arrow {
            path.reverse();
            return Some((arg, path.join("."), true));
        }
        cur = arg;
    }
    path.reverse();
    Some((cur, path.join("."), false))
}

/// Where a field access lands.
pub(super) enum Target2 {
    /// A field of a local: its KPL variable.
    Var(String, Ty),
    /// A field of an array element: one word.
    Mem(String, Vec<Expr>, Ty),
}

/// The words `[start, end)` of the member a designator chain names (`.lo.x`, GNU `lo:`) inside
/// the words `lo..hi` whose names start with `prefix`; `None`: not a member there.
fn designated<'n>(
    item: Node<'n>,
    src: &str,
    fields: &[(String, Ty)],
    (lo, hi): (usize, usize),
    prefix: &str,
) -> Option<(usize, usize, String)> {
    let mut c = item.walk();
    let mut path = prefix.to_string();
    for (names, d) in item.children_by_field_name("designator", &mut c).enumerate() {
        let name = match d.kind() {
            "field_designator" => text(d.named_child(0)?, src),
            "field_identifier" => text(d, src),
            // `[i] = v` designates an array element: no struct here has array members.
            _ => return None,
        };
        if names > 0 {
            path.push('.');
        }
        path.push_str(name);
    }
    let sub = format!("{path}.");
    let start = (lo..hi).find(|i| fields[*i].0 == path || fields[*i].0.starts_with(&sub))?;
    if fields[start].0 == path {
        return Some((start, start + 1, path));
    }
    let end = (start..hi).find(|i| !fields[*i].0.starts_with(&sub)).unwrap_or(hi);
    Some((start, end, path))
}

/// Assigns the leaves of the brace initializer `list` to the words `lo..hi` of `fields` (whose
/// names start with `prefix`), as C does: a leaf fills the next word (brace elision), a nested
/// brace list initializes the whole member at the cursor (its missing words stay zero), a
/// designator (`.y = v`, `.lo = {…}`, `.hi.x = v`) moves the cursor to its member, and the items
/// after it continue from the following word. Initializing a word twice is refused (C may skip
/// the side effects of the overridden expression).
fn init_words<'n>(
    list: Node<'n>,
    src: &str,
    fields: &[(String, Ty)],
    (lo, hi): (usize, usize),
    prefix: &str,
    out: &mut [Option<Node<'n>>],
) -> Result<(), Node<'n>> {
    let mut c = list.walk();
    let items: Vec<Node<'n>> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
    let mut cursor = lo;
    for item in items {
        if item.kind() == "initializer_pair" {
            let (start, end, path) = designated(item, src, fields, (lo, hi), prefix).ok_or(item)?;
            let value = item.child_by_field_name("value").ok_or(item)?;
            if value.kind() == "initializer_list" {
                init_words(value, src, fields, (start, end), &format!("{path}."), out)?;
            } else if end == start + 1 && out[start].is_none() {
                out[start] = Some(value);
            } else {
                // A whole struct member from an expression, or a word given twice.
                return Err(item);
            }
            cursor = end;
            continue;
        }
        if cursor >= hi || out[cursor].is_some() {
            return Err(item);
        }
        if item.kind() != "initializer_list" {
            out[cursor] = Some(item);
            cursor += 1;
            continue;
        }
        let rest = &fields[cursor].0[prefix.len()..];
        let member = rest.split('.').next().unwrap_or(rest);
        let sub = format!("{prefix}{member}.");
        let mut end = cursor + 1;
        while end < hi && fields[end].0.starts_with(&sub) {
            end += 1;
        }
        init_words(item, src, fields, (cursor, end), &sub, out)?;
        cursor = end;
    }
    Ok(())
}

/// The index of an element's first word from an index counting vector/struct elements: the
/// last component is scaled by the number of fields (one word each).
pub(super) fn element_words(mut index: Vec<Expr>, agg: &Agg) -> Vec<Expr> {
    let k = agg.fields.len() as u32;
    if let Some(last) = index.last_mut() {
        let old = std::mem::replace(last, Expr::Const(0));
        *last = Expr::bin(BinOp::Mul, old, Expr::Const(k));
    }
    index
}

/// The index of field `i` of an aggregate element whose first field is at `index`.
pub(super) fn field_index(index: &[Expr], i: usize) -> Vec<Expr> {
    offset(index.to_vec(), Expr::Const(i as u32))
}

impl<'t> Lx<'_, 't> {
    /// The vector type or plain struct a type node names, if any.
    pub(super) fn agg_type(&self, n: Node) -> Option<Rc<Agg>> {
        let name = self.struct_name(text(n, self.src));
        self.agg_named(&name, 0).map(Rc::new)
    }

    /// The vector type or struct a type's text names.
    pub(super) fn agg_named_text(&self, t: &str) -> Option<Rc<Agg>> {
        self.agg_named(&self.struct_name(t), 0).map(Rc::new)
    }

    /// The struct a type's text names, through the file's typedefs.
    pub(super) fn struct_name(&self, t: &str) -> String {
        // A member type of the file's classes names its definition's type (one that does not
        // resolve stays as written: `ty` reports why).
        let resolved = if t.contains("::") { self.member_type(t).and_then(Result::ok) } else { None };
        let mut w = crate::cuda::typedefs::strip_qualifiers(resolved.as_deref().unwrap_or(t));
        // A template parameter bound to a vector or struct type (`T` of `k<float4>`).
        if let (None, Some(n)) = (self.frame.types.get(&w), self.frame.types.name(&w)) {
            w = n.to_string();
        }
        match crate::cuda::typedefs::resolve(&w, &self.file.aliases) {
            Some(crate::cuda::typedefs::Alias::Struct(s)) => s,
            _ => w,
        }
    }

    /// The scalar type a field's type text names, if it is one (template parameters included).
    fn word_type(&self, t: &str) -> Option<Ty> {
        let w = crate::cuda::typedefs::strip_qualifiers(t);
        if let Some(t) = self.frame.types.get(&w) {
            return Some(*t);
        }
        match crate::cuda::typedefs::resolve(&w, &self.file.aliases) {
            Some(crate::cuda::typedefs::Alias::Scalar(t)) => Some(t),
            _ => None,
        }
    }

    /// The vector type or struct named `name` with nested structs flattened; a union only when
    /// every member is a one-word scalar (they alias one word).
    fn agg_named(&self, name: &str, depth: usize) -> Option<Agg> {
        if let Some(a) = vector_type(name) {
            return Some(a);
        }
        if depth > 8 {
            return None;
        }
        let Some(def) = self.prog.structs.iter().find(|s| s.name == name) else {
            return super::curand::state_type(name);
        };
        if def.union {
            let aliases: Option<Vec<(String, Ty)>> =
                def.fields.iter().map(|(f, t)| self.word_type(t).map(|t| (f.clone(), t))).collect();
            let aliases = aliases?;
            let first = aliases.first()?.clone();
            return Some(Agg { name: name.to_string(), fields: vec![first], aliases });
        }
        let mut fields = Vec::new();
        for (f, t) in &def.fields {
            match self.word_type(t) {
                Some(ty) => fields.push((f.clone(), ty)),
                None => {
                    let inner = self.agg_named(&self.struct_name(t), depth + 1)?;
                    fields.extend(inner.fields.into_iter().map(|(g, ty)| (format!("{f}.{g}"), ty)));
                }
            }
        }
        Some(Agg { name: name.to_string(), fields, aliases: Vec::new() })
    }

    /// Whether a type's text names a union we cannot model (a member wider than one word).
    pub(super) fn wide_union(&self, t: &str) -> bool {
        let name = self.struct_name(t);
        self.prog.structs.iter().any(|s| s.name == name && s.union) && self.agg_named(&name, 0).is_none()
    }

    /// Declarations of vector/struct type: shared arrays (fields in the last dimension) and
    /// locals (one KPL local per field).
    pub(super) fn agg_declaration(&mut self, n: Node, agg: Rc<Agg>, shared: bool, ext: bool) -> R<()> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        let k = agg.fields.len() as u32;
        for d in decls {
            if shared {
                if ext {
                    return Err(unsupported(format!("`extern __shared__` arrays of {}", agg.name), d));
                }
                let before = self.arrays.len();
                self.shared_decl(d, agg.fields[0].1, false)?;
                let Some(a) = self.arrays.get_mut(before) else { continue };
                match a.dims.last_mut() {
                    Some(Some(last)) if d.kind() != "identifier" => *last *= k,
                    _ => {
                        return Err(unsupported(
                            format!("a `__shared__` {} that is not an array", agg.name),
                            d,
                        ))
                    }
                }
                let name = a.name.clone();
                self.agg_arrays.insert(name, agg.clone());
                continue;
            }
            let array_decl = super::decl::array_declarator(d);
            if let Some(a) = array_decl {
                self.agg_private_array(a, agg.clone(), d.child_by_field_name("value"))?;
                continue;
            }
            if let Some(r) = self.dim3_vexing(d, &agg) {
                let (cname, values) = r?;
                self.agg_locals(&cname, agg.clone(), Some(values));
                continue;
            }
            let (name, init) = match d.kind() {
                "identifier" => (d, None),
                "init_declarator" => (
                    d.child_by_field_name("declarator").ok_or_else(|| unsupported("declarator", d))?,
                    d.child_by_field_name("value"),
                ),
                _ => return Err(self.bad_declarator(d)),
            };
            if let ("reference_declarator", Some(value)) = (name.kind(), init) {
                self.ref_local(n, name, value, Some(agg.clone()), agg.fields[0].1)?;
                continue;
            }
            if name.kind() == "pointer_declarator" {
                // `float2 *p = d + k;`: a pointer into a vector/struct array, counting elements.
                let inner = name.child_by_field_name("declarator").filter(|i| i.kind() == "identifier");
                let (Some(inner), Some(value)) = (inner, init) else {
                    return Err(self.bad_declarator(name));
                };
                let (array, comps, a) = self.agg_pointer(value)?;
                if a.fields != agg.fields {
                    return Err(unsupported(
                        format!("a {} pointer into an array of {}", agg.name, a.name),
                        value,
                    ));
                }
                let cname = text(inner, self.src).to_string();
                let mutable = self.fn_body.is_none_or(|b| assigns(b, self.src, &cname));
                self.bind_pointer(&cname, array, agg.fields[0].1, comps, mutable);
                continue;
            }
            if name.kind() != "identifier" {
                return Err(self.bad_declarator(name));
            }
            let values = match init {
                Some(v) => Some(self.agg_value(v, &agg)?),
                None if super::dim3::is_dim3(&agg) => Some(super::dim3::dim3_default()),
                None => None,
            };
            let cname = text(name, self.src).to_string();
            self.agg_locals(&cname, agg.clone(), values);
        }
        Ok(())
    }

    /// Declares the vector/struct local `cname`: one KPL local per field (with `values`).
    pub(super) fn agg_locals(&mut self, cname: &str, agg: Rc<Agg>, values: Option<Vec<Expr>>) {
        let mut comps = Vec::new();
        for (i, (f, _)) in agg.fields.iter().enumerate() {
            let base = format!("{cname}_{}", f.replace('.', "_"));
            let k = if self.taken.contains(&base) || crate::kpl::is_keyword(&base) {
                self.fresh_name(&base)
            } else {
                base
            };
            self.declare_kpl(&k);
            let init = values.as_ref().and_then(|v| v.get(i).cloned());
            self.emit(StmtKind::Local { name: k.clone(), init });
            comps.push(k);
        }
        self.bind(cname, Binding::Agg { agg, comps });
    }

    /// The fields of an aggregate-valued expression: a local, an array element (one read per
    /// field, in order), or `make_float4(…)`.
    /// Writes `values` to the words of the vector/struct element at `index` of `array`, in field
    /// order.
    pub(super) fn write_fields(&mut self, array: &str, index: &[Expr], values: Vec<Expr>) {
        for (i, value) in values.into_iter().enumerate() {
            self.emit(StmtKind::Write { array: array.to_string(), index: field_index(index, i), value });
        }
    }

    /// Reads the `nfields` words of the vector/struct element at `index` of `array` into fresh
    /// temporaries, in field order.
    pub(super) fn read_fields(&mut self, array: &str, index: &[Expr], nfields: usize) -> Vec<Expr> {
        (0..nfields)
            .map(|i| {
                let t = self.temp(None);
                self.emit(StmtKind::Read {
                    dst: t.clone(),
                    array: array.to_string(),
                    index: field_index(index, i),
                });
                Expr::Var(t)
            })
            .collect()
    }

    /// A pair-valued half intrinsic (see [`is_vector_intrinsic`]): field `i` of the result is
    /// the opaque call `NAME_FIELD(words of the arguments)`.
    fn vector_intrinsic(&mut self, fname: &str, args: &[Node], agg: &Rc<Agg>) -> R<Vec<Expr>> {
        let mut words = Vec::new();
        for a in args {
            let a = strip_parens(*a);
            let nested = a.kind() == "call_expression"
                && a.child_by_field_name("function").is_some_and(|f| is_vector_intrinsic(text(f, self.src)));
            match self.agg_of(a) {
                Some(aa) => words.extend(self.agg_value(a, &aa)?),
                None if nested => words.extend(self.agg_value(a, agg)?),
                None => {
                    let (e, t) = self.expr(a)?;
                    words.push(convert(e, t, Ty::Float));
                }
            }
        }
        Ok(agg.fields.iter().map(|(f, _)| Expr::Call(format!("{fname}_{f}"), words.clone())).collect())
    }

    /// `c ? v : w` of a vector/struct type: one local per field, assigned in the branch taken
    /// (only that branch's reads happen, as in C).
    fn agg_choice(&mut self, n: Node, agg: &Rc<Agg>) -> R<Vec<Expr>> {
        let (c, a, b) = self.ternary_parts(n)?;
        let ce = self.cond(c)?;
        let result: Vec<String> = agg.fields.iter().map(|_| self.temp(None)).collect();
        let branch = |s: &mut Self, e: Node| -> R<()> {
            let vals = s.agg_value(e, agg)?;
            for (r, v) in result.iter().zip(vals) {
                s.emit(StmtKind::Assign { name: r.clone(), value: v });
            }
            Ok(())
        };
        let l = self.label();
        let ts = self.label();
        let (then, _) = self.nested(|s| branch(s, a))?;
        let el = self.label();
        let es = self.label();
        let (els, _) = self.nested(|s| branch(s, b))?;
        let sp = self.cur_span;
        let then = Block { label: l, start: ts, stmts: then, span: sp };
        let els = Some(Block { label: el, start: es, stmts: els, span: sp });
        self.out.push(Stmt { label: l, kind: StmtKind::If { cond: ce, then, els }, span: sp });
        Ok(result.into_iter().map(Expr::Var).collect())
    }

    pub(super) fn agg_value(&mut self, n: Node, agg: &Rc<Agg>) -> R<Vec<Expr>> {
        let n = strip_parens(n);
        if let Some(r) = self.dim3_value(n, agg) {
            return r;
        }
        match n.kind() {
            "identifier" => match self.lookup(text(n, self.src)).cloned() {
                Some(Binding::Agg { agg: a, comps }) if a.fields.len() == agg.fields.len() => {
                    Ok(comps.into_iter().map(Expr::Var).collect())
                }
                Some(Binding::Ref { array, index, agg: Some(a), .. })
                    if a.fields.len() == agg.fields.len() =>
                {
                    Ok(self.read_fields(&array, &index, a.fields.len()))
                }
                _ => Err(unsupported(format!("`{}` as a {}", text(n, self.src), agg.name), n)),
            },
            "subscript_expression" => {
                let (array, index, a) = self.agg_element(n)?;
                if a.fields.len() != agg.fields.len() {
                    return Err(unsupported(format!("copying a {} into a {}", a.name, agg.name), n));
                }
                Ok(self.read_fields(&array, &index, a.fields.len()))
            }
            "pointer_expression" if is_deref(n) => {
                let ptr = n.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", n))?;
                if let Some((a, comps)) = self.agg_pointee(ptr).filter(|(a, _)| a.fields == agg.fields) {
                    // `*p` of a pointer to a struct local: a copy of its fields.
                    debug_assert_eq!(a.fields.len(), comps.len());
                    return Ok(comps.into_iter().map(Expr::Var).collect());
                }
                let (array, index, a) = self.agg_deref(ptr)?;
                if a.fields.len() != agg.fields.len() {
                    return Err(unsupported(format!("copying a {} into a {}", a.name, agg.name), n));
                }
                Ok(self.read_fields(&array, &index, a.fields.len()))
            }
            "call_expression" => {
                let f = n.child_by_field_name("function").map(|f| text(f, self.src)).unwrap_or("");
                let args = self.args(n);
                let callee = n.child_by_field_name("function");
                let fname = callee
                    .map(|c| {
                        if c.kind() == "template_function" {
                            c.child_by_field_name("name").unwrap_or(c)
                        } else {
                            c
                        }
                    })
                    .map(|c| text(c, self.src))
                    .unwrap_or("");
                if self.lookup(fname).is_none() && self.prog.has_function(fname) {
                    // A device function returning a vector/struct: its result locals.
                    self.want_agg = Some(agg.clone());
                    let r = self.call(n, true);
                    self.want_agg = None;
                    r?;
                    return match self.agg_result.take() {
                        Some(comps) => Ok(comps.into_iter().map(Expr::Var).collect()),
                        None => {
                            Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n))
                        }
                    };
                }
                if let Some(r) = self.curand_agg_call(n, fname, agg) {
                    return r;
                }
                if let Some(r) = self.fetch_agg(fname, &args, agg) {
                    return r;
                }
                if is_vector_intrinsic(fname) && agg.fields.len() == 2 {
                    return self.vector_intrinsic(fname, &args, agg);
                }
                if f == format!("make_{}", agg.name) && args.len() == agg.fields.len() {
                    let mut out = Vec::new();
                    for (a, (_, ty)) in args.iter().zip(&agg.fields) {
                        let (e, t) = self.expr(*a)?;
                        out.push(convert(e, t, *ty));
                    }
                    return Ok(out);
                }
                Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n))
            }
            "conditional_expression" => self.agg_choice(n, agg),
            // `a + b`, `v * s`, `-v`: the file's operator function (see `operators.rs`).
            "binary_expression" | "unary_expression" => self.agg_operator(n, agg),
            "initializer_list" => {
                // `{a, b, {c, d}}`: C's rules (see `init_words`); missing words are zero.
                let mut leaves = vec![None; agg.fields.len()];
                if let Err(bad) = init_words(n, self.src, &agg.fields, (0, agg.fields.len()), "", &mut leaves)
                {
                    return Err(unsupported(
                        format!(
                            "this initializer of a {} (more values than fields, a designator that names no member, a word initialized twice, or a struct member from an expression)",
                            agg.name
                        ),
                        bad,
                    ));
                }
                let mut out = Vec::new();
                for (leaf, (_, ty)) in leaves.into_iter().zip(&agg.fields) {
                    match leaf {
                        Some(l) => {
                            let (e, t) = self.expr(l)?;
                            out.push(convert(e, t, *ty));
                        }
                        None => out.push(Expr::Const(0)),
                    }
                }
                Ok(out)
            }
            "field_expression" => {
                // A nested struct `b.lo`: the words of its fields.
                let (base, path, arrow) =
                    field_chain(n, self.src).ok_or_else(|| unsupported("member access", n))?;
                let outer = self.agg_of(base);
                let words = outer.as_ref().map(|o| o.sub_fields(&path)).unwrap_or_default();
                let (Some(outer), false) = (outer, words.is_empty()) else {
                    return Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n));
                };
                if words.len() != agg.fields.len() {
                    return Err(unsupported(
                        format!("copying `{}` into a {}", text(n, self.src), agg.name),
                        n,
                    ));
                }
                let mut out = Vec::new();
                for w in words {
                    let name = outer.fields[w].0.clone();
                    match self.field_word(base, &name, arrow, n)? {
                        Target2::Var(v, _) => out.push(Expr::Var(v)),
                        Target2::Mem(array, index, _) => {
                            let t = self.temp(None);
                            self.emit(StmtKind::Read { dst: t.clone(), array, index });
                            out.push(Expr::Var(t));
                        }
                    }
                }
                Ok(out)
            }
            // `(float2){x, y}` (C99 compound literal) and `float2{x, y}`: the fields in order.
            "compound_literal_expression" => {
                let ty = n.child_by_field_name("type").map(|t| text(t, self.src).trim()).unwrap_or("");
                let ty = ty.trim_start_matches("const ").trim_start_matches("struct ").trim();
                let list = n.child_by_field_name("value").filter(|v| v.kind() == "initializer_list");
                let items: Vec<Node> = match list {
                    Some(l) => {
                        let mut c = l.walk();
                        let v: Vec<Node> =
                            l.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                        v
                    }
                    None => Vec::new(),
                };
                let positional = items.iter().all(|i| i.kind() != "initializer_pair");
                if ty != agg.name || items.len() != agg.fields.len() || !positional {
                    return Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n));
                }
                let mut out = Vec::new();
                for (a, (_, fty)) in items.iter().zip(&agg.fields) {
                    let (e, t) = self.expr(*a)?;
                    out.push(convert(e, t, *fty));
                }
                Ok(out)
            }
            _ => Err(unsupported(format!("the {} value `{}`", agg.name, text(n, self.src)), n)),
        }
    }

    /// The word of field `f` (a flattened path) of the aggregate `base` (`base->f` with `arrow`).
    fn field_word(&mut self, base: Node, f: &str, arrow: bool, at: Node) -> R<Target2> {
        let no_field = |agg: &Agg| Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(at));
        if arrow || is_deref(base) {
            let ptr = if arrow {
                base
            } else {
                base.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", base))?
            };
            if let Some((agg, comps)) = self.agg_pointee(ptr) {
                let (i, ty) = agg.field(f).ok_or_else(|| no_field(&agg))?;
                return Ok(Target2::Var(comps[i].clone(), ty));
            }
            let (array, index, agg) = self.agg_deref(ptr)?;
            let (i, ty) = agg.field(f).ok_or_else(|| no_field(&agg))?;
            return Ok(Target2::Mem(array, field_index(&index, i), ty));
        }
        match base.kind() {
            "identifier" => match self.lookup(text(base, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| no_field(&agg))?;
                    Ok(Target2::Var(comps[i].clone(), ty))
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| no_field(&agg))?;
                    Ok(Target2::Mem(array, field_index(&index, i), ty))
                }
                _ => Err(unsupported(format!("member access `{}`", text(at, self.src)), at)),
            },
            "subscript_expression" => {
                let (array, index, agg) = self.agg_element(base)?;
                let (i, ty) = agg.field(f).ok_or_else(|| no_field(&agg))?;
                Ok(Target2::Mem(array, field_index(&index, i), ty))
            }
            _ => Err(unsupported(format!("member access `{}`", text(at, self.src)), at)),
        }
    }

    /// The KPL array and type of the vector/struct array (or pointer into one) that the
    /// subscripts `n` index; `None` when `n` is not such an element.
    pub(super) fn agg_base(&mut self, n: Node) -> Option<(String, Rc<Agg>)> {
        let mut base = n;
        while base.kind() == "subscript_expression" {
            base = strip_parens(base.child_by_field_name("argument")?);
        }
        if base.kind() != "identifier" {
            return None;
        }
        let name = text(base, self.src);
        self.bring_file_array(name);
        let kpl = match self.lookup(name)? {
            Binding::Array { kpl, .. } => kpl.clone(),
            Binding::Ptr { array, .. } => array.clone(),
            _ => return None,
        };
        self.agg_arrays.get(&kpl).map(|a| (kpl, a.clone()))
    }

    /// The vector/struct type of the elements the expression `n` denotes or points into (a
    /// vector/struct local or reference, an array of them, a pointer into one, an element, its
    /// address, `*p`, pointer arithmetic), judged from the names alone: nothing is lowered.
    pub(super) fn agg_of(&self, n: Node) -> Option<Rc<Agg>> {
        let n = strip_parens(n);
        match n.kind() {
            "identifier" => match self.lookup(text(n, self.src))? {
                Binding::Agg { agg, .. } | Binding::Ref { agg: Some(agg), .. } => Some(agg.clone()),
                Binding::Array { kpl, .. } => self.agg_arrays.get(kpl).cloned(),
                Binding::Ptr { array, .. } => self.agg_arrays.get(array).cloned(),
                _ => None,
            },
            "subscript_expression" | "pointer_expression" => self.agg_of(n.child_by_field_name("argument")?),
            // A pointer cast to vectors (`reinterpret_cast<float4 *>(p)`, see `vector_cast`).
            "cast_expression" | "call_expression" => {
                let (tdesc, _) = super::vector_cast::cast_parts(n, self.src)?;
                let pointer = tdesc
                    .child_by_field_name("declarator")
                    .is_some_and(|d| d.kind() == "abstract_pointer_declarator");
                pointer.then(|| self.agg_type(tdesc.child_by_field_name("type")?)).flatten()
            }
            "binary_expression" => {
                let l = n.child_by_field_name("left")?;
                if self.is_pointer(l) {
                    self.agg_of(l)
                } else {
                    self.agg_of(n.child_by_field_name("right")?)
                }
            }
            _ => None,
        }
    }

    /// `a[i]` (or `p[i]`) of a vector/struct array: (array, index with the element number in
    /// the last component, type).
    pub(super) fn agg_index(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        let Some((kpl, agg)) = self.agg_base(n) else {
            return Err(unsupported(
                format!("`{}` is not an array of vectors or structs", text(n, self.src)),
                n,
            ));
        };
        // Index as a scalar array (the last component counts elements).
        let saved = self.agg_arrays.remove(&kpl);
        let r = self.element(n, false);
        if let Some(a) = saved {
            self.agg_arrays.insert(kpl.clone(), a);
        }
        let (array, _, index) = r?;
        Ok((array, index, agg))
    }

    /// `a[i]` of a vector/struct array: (array, index of the element's first field, type).
    pub(super) fn agg_element(&mut self, n: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        if let Some(r) = self.vector_cast_element(n) {
            return r;
        }
        let (array, index, agg) = self.agg_index(n)?;
        let index = element_words(index, &agg);
        Ok((array, index, agg))
    }

    /// The vector/struct element a pointer points at (`*p`, and so `p->f` = `(*p).f` =
    /// `p[0].f`): (array, index of its first field word, type).
    pub(super) fn agg_deref(&mut self, ptr: Node) -> R<(String, Vec<Expr>, Rc<Agg>)> {
        if self.agg_pointee(ptr).is_some() {
            return Err(self.var_pointer_misuse(text(ptr, self.src), ptr));
        }
        let (array, index, agg) = self.agg_pointer(ptr)?;
        let index = element_words(index, &agg);
        Ok((array, index, agg))
    }

    /// A field of a vector/struct local (`v.x`: its KPL local) or array element (`a[i].x`: one
    /// word of memory). `None`: not such a field access.
    pub(super) fn field_target(&mut self, n: Node) -> R<Option<Target2>> {
        let n = strip_parens(n);
        if n.kind() != "field_expression" {
            return Ok(None);
        }
        let (arg, f, arrow) = field_chain(n, self.src).ok_or_else(|| unsupported("member access", n))?;
        let f = f.as_str();
        let field_of = |agg: &Agg| {
            agg.field(f).ok_or_else(|| Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n)))
        };
        let local = match (arrow, is_deref(arg)) {
            (true, _) => self.agg_pointee(arg),
            (false, true) => arg.child_by_field_name("argument").and_then(|p| self.agg_pointee(p)),
            (false, false) => None,
        };
        if let Some((agg, comps)) = local {
            // `p->f` of a pointer to a struct local: the field's local.
            let (i, ty) = field_of(&agg)?;
            return Ok(Some(Target2::Var(comps[i].clone(), ty)));
        }
        if arrow {
            // `p->f` is `(*p).f`: a field word of the element `p` points at.
            let (array, index, agg) = self.agg_deref(arg)?;
            let (i, ty) = field_of(&agg)?;
            return Ok(Some(Target2::Mem(array, field_index(&index, i), ty)));
        }
        if is_deref(arg) {
            let ptr = arg.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", arg))?;
            let (array, index, agg) = self.agg_deref(ptr)?;
            let (i, ty) = field_of(&agg)?;
            return Ok(Some(Target2::Mem(array, field_index(&index, i), ty)));
        }
        match arg.kind() {
            "identifier" => match self.lookup(text(arg, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| {
                        Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n))
                    })?;
                    Ok(Some(Target2::Var(comps[i].clone(), ty)))
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) => {
                    let (i, ty) = agg.field(f).ok_or_else(|| {
                        Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n))
                    })?;
                    Ok(Some(Target2::Mem(array, field_index(&index, i), ty)))
                }
                _ => Ok(None),
            },
            "subscript_expression" => {
                let (array, index, agg) = self.agg_element(arg)?;
                let (i, ty) = agg
                    .field(f)
                    .ok_or_else(|| Diagnostic::error(format!("{} has no field `{f}`", agg.name), span(n)))?;
                Ok(Some(Target2::Mem(array, field_index(&index, i), ty)))
            }
            _ => Ok(None),
        }
    }

    /// Whole-aggregate assignment `v = …` / `a[i] = …`; `None` when `l` is not an aggregate.
    pub(super) fn agg_assign(&mut self, l: Node, r: Node) -> R<Option<(Expr, Ty)>> {
        let l = strip_parens(l);
        match l.kind() {
            "identifier" => match self.lookup(text(l, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) => {
                    let vals = self.agg_value(r, &agg)?;
                    for (c, v) in comps.into_iter().zip(vals) {
                        self.emit(StmtKind::Assign { name: c, value: v });
                    }
                    Ok(Some((Expr::Const(0), Ty::Int)))
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) => {
                    let vals = self.agg_value(r, &agg)?;
                    self.write_fields(&array, &index, vals);
                    Ok(Some((Expr::Const(0), Ty::Int)))
                }
                _ => Ok(None),
            },
            "subscript_expression" => {
                let through_cast = l
                    .child_by_field_name("argument")
                    .filter(|a| super::vector_cast::cast_parts(*a, self.src).is_some())
                    .and_then(|a| self.agg_of(a));
                let Some(agg) = self.agg_base(l).map(|(_, a)| a).or(through_cast) else { return Ok(None) };
                let vals = self.agg_value(r, &agg)?;
                let (array, index, _) = self.agg_element(l)?;
                self.write_fields(&array, &index, vals);
                Ok(Some((Expr::Const(0), Ty::Int)))
            }
            "pointer_expression" if is_deref(l) => {
                let ptr = l.child_by_field_name("argument").ok_or_else(|| unsupported("dereference", l))?;
                if let Some((agg, comps)) = self.agg_pointee(ptr) {
                    // `*p = v` through a pointer to a struct local: its field locals.
                    let vals = self.agg_value(r, &agg)?;
                    for (c, v) in comps.into_iter().zip(vals) {
                        self.emit(StmtKind::Assign { name: c, value: v });
                    }
                    return Ok(Some((Expr::Const(0), Ty::Int)));
                }
                if let Some(name) = pointer_root(ptr).map(|b| text(b, self.src)) {
                    self.bring_file_array(name);
                }
                let Some(agg) = self.agg_of(ptr) else { return Ok(None) };
                let vals = self.agg_value(r, &agg)?;
                let (array, index, _) = self.agg_deref(ptr)?;
                self.write_fields(&array, &index, vals);
                Ok(Some((Expr::Const(0), Ty::Int)))
            }
            _ => Ok(None),
        }
    }

    pub(super) fn field(&mut self, n: Node) -> R<(Expr, Ty)> {
        if let Some(r) = self.group_field(n) {
            return r;
        }
        if let Some(t) = self.field_target(n)? {
            return Ok(match t {
                Target2::Var(v, ty) => (Expr::Var(v), ty),
                Target2::Mem(array, index, ty) => {
                    let t = self.temp(None);
                    self.emit(StmtKind::Read { dst: t.clone(), array, index });
                    (Expr::Var(t), ty)
                }
            });
        }
        let arg = n.child_by_field_name("argument").ok_or_else(|| unsupported("member access", n))?;
        let f = n.child_by_field_name("field").map(|f| text(f, self.src)).unwrap_or("");
        let dim = match f {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        };
        let b = match (text(arg, self.src), dim) {
            ("threadIdx", Some(d)) => Builtin::Tid(d),
            ("blockIdx", Some(d)) => Builtin::Bid(d),
            ("blockDim", Some(d)) => Builtin::BlockDim(d),
            ("gridDim", Some(d)) => Builtin::GridDim(d),
            _ => {
                return Err(unsupported(
                    format!(
                        "member access `{}` (only `threadIdx`/`blockIdx`/`blockDim`/`gridDim` and fields of vector and plain struct locals and arrays)",
                        text(n, self.src)
                    ),
                    n,
                ))
            }
        };
        if arg.kind() != "identifier" || self.lookup(text(arg, self.src)).is_some() {
            return Err(unsupported(format!("member access `{}`", text(n, self.src)), n));
        }
        Ok((Expr::Builtin(b), Ty::UInt))
    }
}
