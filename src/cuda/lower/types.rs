//! C types and conversions: scalar type names, the usual arithmetic conversions, binary operators on typed KPL expressions, constant folding.

use super::*;

/// The value type of a type node (`int`, `unsigned int`, `float`, `size_t`, …). Qualifiers are
/// ignored; `void`, vector types, structs and unknown type names are errors.
pub(crate) fn scalar_type(n: Node, src: &str) -> R<Ty> {
    let t = text(n, src);
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register"))
        .collect();
    match n.kind() {
        "sized_type_specifier" => {
            if words.contains(&"unsigned") {
                Ok(Ty::UInt)
            } else if words.iter().any(|w| *w == "double" || *w == "float") {
                Ok(Ty::Float)
            } else {
                Ok(Ty::Int)
            }
        }
        "primitive_type" | "type_identifier" => ty_from_words(&words.join(" ")).ok_or_else(|| {
            let name = words.join(" ");
            let e = unsupported(format!("type `{name}` (only scalar integer and floating types)"), n);
            if curand::unmodelled_state(&name) {
                e.with_note("of cuRAND's states only XORWOW (`curandState`), Philox4_32_10 and MRG32k3a are modelled; Sobol and MTGP32 states are not")
            } else {
                e
            }
        }),
        _ => Err(unsupported(
            format!("type `{t}` (types written in place, such as a struct defined in a function or a member type of a class the file does not define, are not modelled)"),
            n,
        )),
    }
}

/// The type class of a scalar type name such as `unsigned int` or `float` (for
/// `--template-arg T=float` and type nodes).
pub(crate) fn ty_from_words(t: &str) -> Option<Ty> {
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register"))
        .collect();
    match words.join(" ").as_str() {
        "int" | "char" | "short" | "long" | "bool" | "signed" | "int8_t" | "int16_t" | "int32_t"
        | "int64_t" | "ptrdiff_t" | "ssize_t" | "long long" | "long int" | "short int" | "signed int"
        | "signed char" | "clock_t" | "long long int" | "long signed int" | "intptr_t" | "time_t"
        | "int_fast32_t" | "int_least32_t" => Some(Ty::Int),
        "unsigned"
        | "uint"
        | "size_t"
        | "uint8_t"
        | "uint16_t"
        | "uint32_t"
        | "uint64_t"
        | "uchar"
        | "ushort"
        | "unsigned int"
        | "unsigned long"
        | "unsigned long long"
        | "unsigned char"
        | "unsigned short"
        | "unsigned long int"
        | "unsigned long long int"
        | "long unsigned int"
        | "uintptr_t"
        | "uint_fast32_t"
        | "cudaTextureObject_t"
        | "cudaSurfaceObject_t" => Some(Ty::UInt),
        // Halves and bfloat16 are floating values like `float` (opaque, one word an element).
        "float" | "double" | "long double" | "half" | "__half" | "__nv_bfloat16" | "nv_bfloat16"
        | "__nv_half" => Some(Ty::Float),
        _ => None,
    }
}

/// The value of an expression made of constants only (`None` otherwise or on division by 0).
pub(super) fn fold(e: &Expr) -> Option<u32> {
    use BinOp::*;
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Unary(op, a) => {
            let a = fold(a)?;
            match op {
                UnOp::Neg => a.wrapping_neg(),
                UnOp::Not => (a == 0) as u32,
                UnOp::BitNot => !a,
            }
        }
        Expr::Binary(op, a, b) => {
            let (a, b) = (fold(a)?, fold(b)?);
            let (sa, sb) = (a as i32, b as i32);
            match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                Div => sa.checked_div(sb)? as u32,
                Rem => sa.checked_rem(sb)? as u32,
                UDiv => a.checked_div(b)?,
                URem => a.checked_rem(b)?,
                Shl => a.wrapping_shl(b),
                Shr => sa.wrapping_shr(b) as u32,
                UShr => a.wrapping_shr(b),
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                And => (a != 0 && b != 0) as u32,
                Or => (a != 0 || b != 0) as u32,
                Eq => (a == b) as u32,
                Ne => (a != b) as u32,
                Lt => (sa < sb) as u32,
                Le => (sa <= sb) as u32,
                Gt => (sa > sb) as u32,
                Ge => (sa >= sb) as u32,
                ULt => (a < b) as u32,
                ULe => (a <= b) as u32,
                UGt => (a > b) as u32,
                UGe => (a >= b) as u32,
                Min => sa.min(sb) as u32,
                Max => sa.max(sb) as u32,
            }
        }
        Expr::Select(c, a, b) => {
            if fold(c)? != 0 {
                fold(a)?
            } else {
                fold(b)?
            }
        }
        Expr::Var(_) | Expr::Builtin(_) | Expr::Call(..) => return None,
    })
}

/// The truth value of a value: floats are compared with 0.
pub(super) fn truth(e: Expr, t: Ty) -> Expr {
    match t {
        Ty::Float => Expr::Call("fcmp_ne".into(), vec![e, Expr::Const(0)]),
        _ => e,
    }
}

/// The value as 0 or 1 (comparisons and logical operators already are).
pub(super) fn bool01(e: Expr) -> Expr {
    use BinOp::*;
    match &e {
        Expr::Binary(And | Or | Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe, _, _)
        | Expr::Unary(UnOp::Not, _) => e,
        Expr::Call(f, _) if f.starts_with("fcmp_") => e,
        _ => Expr::bin(Ne, e, Expr::Const(0)),
    }
}

/// C's usual arithmetic conversions on our three type classes.
pub(super) fn common(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Float, _) | (_, Ty::Float) => Ty::Float,
        (Ty::UInt, _) | (_, Ty::UInt) => Ty::UInt,
        _ => Ty::Int,
    }
}

/// Converts a value between type classes (integer ↔ integer conversions keep the bits).
pub(super) fn convert(e: Expr, from: Ty, to: Ty) -> Expr {
    match (from, to) {
        (Ty::Float, Ty::Float) => e,
        (Ty::Float, Ty::Int) => Expr::Call("f2i".into(), vec![e]),
        (Ty::Float, Ty::UInt) => Expr::Call("f2u".into(), vec![e]),
        (Ty::Int, Ty::Float) => Expr::Call("i2f".into(), vec![e]),
        (Ty::UInt, Ty::Float) => Expr::Call("u2f".into(), vec![e]),
        _ => e,
    }
}

/// A binary C operator (not `&&`/`||`) on typed operands.
pub(super) fn binary(op: &str, (a, ta): (Expr, Ty), (b, tb): (Expr, Ty)) -> Result<(Expr, Ty), String> {
    if op == "<<" || op == ">>" {
        if ta == Ty::Float || tb == Ty::Float {
            return Err(format!("`{op}` on a floating value"));
        }
        let bop = match (op, ta) {
            ("<<", _) => BinOp::Shl,
            (_, Ty::UInt) => BinOp::UShr,
            _ => BinOp::Shr,
        };
        return Ok((Expr::bin(bop, a, b), ta));
    }
    let t = common(ta, tb);
    let (a, b) = (convert(a, ta, t), convert(b, tb, t));
    if t == Ty::Float {
        let Some((f, comparison)) = crate::kpl::float_call(op) else {
            return Err(format!("`{op}` on a floating value"));
        };
        let ty = if comparison { Ty::Int } else { Ty::Float };
        return Ok((Expr::Call(f.into(), vec![a, b]), ty));
    }
    let u = t == Ty::UInt;
    let (bop, ty) = match op {
        "+" => (BinOp::Add, t),
        "-" => (BinOp::Sub, t),
        "*" => (BinOp::Mul, t),
        "/" => (if u { BinOp::UDiv } else { BinOp::Div }, t),
        "%" => (if u { BinOp::URem } else { BinOp::Rem }, t),
        "&" => (BinOp::BitAnd, t),
        "|" => (BinOp::BitOr, t),
        "^" => (BinOp::BitXor, t),
        "==" => (BinOp::Eq, Ty::Int),
        "!=" => (BinOp::Ne, Ty::Int),
        "<" => (if u { BinOp::ULt } else { BinOp::Lt }, Ty::Int),
        "<=" => (if u { BinOp::ULe } else { BinOp::Le }, Ty::Int),
        ">" => (if u { BinOp::UGt } else { BinOp::Gt }, Ty::Int),
        ">=" => (if u { BinOp::UGe } else { BinOp::Ge }, Ty::Int),
        _ => return Err(format!("operator `{op}`")),
    };
    Ok((Expr::bin(bop, a, b), ty))
}

impl<'t> Lx<'_, 't> {
    /// The type a member type of the file's classes (`typename vec4<T>::Type`,
    /// `Traits<float>::acc`) stands for, as text, with the template parameters in scope replaced
    /// by their arguments; `None` when `t` names no member type of the file's classes.
    pub(super) fn member_type(&self, t: &str) -> Option<Result<String, String>> {
        use crate::cuda::member_types::parse_member_type;
        let mut t = t.to_string();
        let mut resolved = false;
        // A member type may name another (`typedef typename vec4<T>::Type V;`).
        for _ in 0..crate::limits::MEMBER_TYPE_DEPTH {
            let Some((class, args, member)) = parse_member_type(&t) else { break };
            if !self.file.member_types.knows(&class) {
                break;
            }
            let mut named = Vec::new();
            for a in args {
                match (self.frame.types.get(&a), self.frame.types.name(&a)) {
                    (_, Some(n)) => named.push(n.to_string()),
                    (Some(_), None) => {
                        return Some(Err(format!(
                            "the template parameter `{a}` stands for no named type here, so the class's specialization is not known"
                        )))
                    }
                    (None, None) => named.push(a),
                }
            }
            match self.file.member_types.resolve(&class, &named, &member) {
                Ok(r) => t = r,
                Err(why) => return Some(Err(why)),
            }
            resolved = true;
        }
        resolved.then_some(Ok(t))
    }

    /// `sizeof` of the type written `t`: a scalar, a half, a CUDA vector type (`float3` is 12
    /// bytes: the components, no padding), also named through a template parameter or a member
    /// type. `None` for structs (their padding is not modelled) and unknown names.
    pub(super) fn type_size(&self, t: &str) -> Option<i64> {
        use crate::cuda::member_types::normalize;
        let mut name = normalize(t);
        if let Some(n) = self.frame.types.name(&name) {
            name = n.to_string();
        } else if let Some(Ok(r)) = self.member_type(&name) {
            name = r;
        }
        if let Some(s) = sizeof_type(&name) {
            return Some(s);
        }
        if matches!(name.as_str(), "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162") {
            return Some(4);
        }
        let count = i64::from(name.chars().last()?.to_digit(10).filter(|c| (1..=4).contains(c))?);
        let base = match &name[..name.len() - 1] {
            "char" | "uchar" => 1,
            "short" | "ushort" => 2,
            "int" | "uint" | "float" => 4,
            "long" | "ulong" | "longlong" | "ulonglong" | "double" => 8,
            _ => return None,
        };
        Some(base * count)
    }

    /// The type class of a type node; template type parameters resolve to their argument.
    pub(super) fn ty(&self, n: Node) -> R<Ty> {
        let written = text(n, self.src);
        if written.contains("::") {
            if let Some(r) = self.member_type(written) {
                let name = r.map_err(|why| {
                    unsupported(
                        format!("type `{}` ({why})", crate::cuda::member_types::normalize(written)),
                        n,
                    )
                })?;
                return self
                    .frame
                    .types
                    .get(&name)
                    .copied()
                    .or_else(|| ty_from_words(&name))
                    .or_else(|| match crate::cuda::typedefs::resolve(&name, &self.file.aliases) {
                        Some(crate::cuda::typedefs::Alias::Scalar(t)) => Some(t),
                        _ => None,
                    })
                    .ok_or_else(|| {
                        unsupported(format!("type `{name}` (only scalar integer and floating types)"), n)
                    });
            }
        }
        if n.kind() == "type_identifier" {
            let name = text(n, self.src);
            if let Some(t) = self.frame.types.get(name) {
                return Ok(*t);
            }
            if let Some(bound) = self.frame.types.name(name) {
                return Err(unsupported(
                    format!(
                        "type `{name}`, here `{bound}`: a vector or struct where a scalar is needed, or a type the file does not define"
                    ),
                    n,
                ));
            }
        }
        if self.wide_union(text(n, self.src)) {
            return Err(unsupported(
                format!(
                    "the union `{}` (only unions whose members are all one-word scalars)",
                    text(n, self.src)
                ),
                n,
            ));
        }
        self.file.scalar_type(n, self.src)
    }

    /// The pointee of a pointer alias type (`fptr`, `cptr<real>`): its scalar type and, for a
    /// struct or vector pointee, the aggregate. `None`: not a pointer alias.
    pub(super) fn pointer_alias(&self, ty: Node) -> Option<(Ty, Option<Rc<Agg>>)> {
        use crate::cuda::typedefs::{strip_qualifiers, Alias};
        let src = self.src;
        let (name, arg) = match ty.kind() {
            "type_identifier" => (text(ty, src), None),
            "template_type" => {
                let arg = ty.child_by_field_name("arguments")?.named_child(0)?;
                (text(ty.child_by_field_name("name")?, src), Some(text(arg, src)))
            }
            _ => return None,
        };
        let Some(Alias::Pointer { pointee, param }) = self.file.aliases.get(name) else { return None };
        let pointee = match (param, arg) {
            (None, None) => pointee.clone(),
            (Some(p), Some(a)) if strip_qualifiers(pointee) == *p => a.to_string(),
            _ => return None,
        };
        let agg = self.agg_named_text(&pointee);
        match agg {
            Some(a) => Some((a.fields[0].1, Some(a))),
            None => {
                let w = strip_qualifiers(&pointee);
                let t =
                    self.frame.types.get(&w).copied().or_else(|| {
                        match crate::cuda::typedefs::resolve(&w, &self.file.aliases) {
                            Some(Alias::Scalar(t)) => Some(t),
                            _ => None,
                        }
                    })?;
                Some((t, None))
            }
        }
    }

    /// A `typedef`/`using` inside a function body: a scalar type name for the rest of the body.
    pub(super) fn local_type(&mut self, n: Node) -> R<()> {
        let (ty, names): (Node, Vec<Node>) = if n.kind() == "alias_declaration" {
            let td = n.child_by_field_name("type").ok_or_else(|| unsupported("`using`", n))?;
            if td.child_by_field_name("declarator").is_some() {
                return Err(unsupported(format!("the pointer or array alias `{}`", text(n, self.src)), n));
            }
            let t = td.child_by_field_name("type").ok_or_else(|| unsupported("`using`", n))?;
            (t, n.child_by_field_name("name").into_iter().collect())
        } else {
            let t = n.child_by_field_name("type").ok_or_else(|| unsupported("`typedef`", n))?;
            let mut c = n.walk();
            let names: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
            (t, names)
        };
        let t = self.ty(ty)?;
        for name in names {
            if name.kind() != "type_identifier" {
                return Err(unsupported(
                    format!("the pointer or array typedef `{}`", text(name, self.src)),
                    name,
                ));
            }
            let type_name = self.type_name(ty);
            self.frame.types.insert(text(name, self.src).to_string(), t, type_name);
        }
        Ok(())
    }

    /// The name of the type a scalar type node stands for, when this front end can tell it
    /// (a fundamental type, a template parameter's named argument, a resolved member type).
    fn type_name(&self, ty: Node) -> Option<String> {
        use crate::cuda::consts::fundamental_type;
        use crate::cuda::member_types::normalize;
        let written = text(ty, self.src);
        if let Some(n) = self.frame.types.name(&normalize(written)) {
            return Some(n.to_string());
        }
        let name = match self.member_type(written) {
            Some(r) => r.ok()?,
            None => normalize(written),
        };
        fundamental_type(&name).map(|_| name)
    }

    pub(super) fn type_descriptor(&self, n: Node) -> R<Ty> {
        if n.child_by_field_name("declarator").is_some() {
            return Err(unsupported(format!("cast to `{}` (pointer casts)", text(n, self.src)), n));
        }
        let t = n.child_by_field_name("type").ok_or_else(|| unsupported("type", n))?;
        self.ty(t)
    }

    /// The C type of an expression, without lowering it (used to type `?:` results).
    pub(super) fn static_type(&self, n: Node) -> Ty {
        let src = self.src;
        match n.kind() {
            "parenthesized_expression" => n.named_child(0).map(|i| self.static_type(i)).unwrap_or(Ty::Int),
            "number_literal" => match parse_number(text(n, src)) {
                Some(Lit::Int(_, t)) => t,
                Some(Lit::Float(_)) => Ty::Float,
                None => Ty::Int,
            },
            "identifier" => match self.lookup(text(n, src)) {
                Some(Binding::Var { ty, .. }) | Some(Binding::Const { ty, .. }) => *ty,
                Some(Binding::Agg { .. }) => Ty::Int,
                Some(Binding::Array { elem, .. }) | Some(Binding::Ptr { elem, .. }) => *elem,
                Some(Binding::Ref { elem, agg: None, .. }) | Some(Binding::VarPtr { ty: elem, .. }) => *elem,
                Some(Binding::Ref { .. })
                | Some(Binding::Block | Binding::Tile(_) | Binding::Grid | Binding::Func(_)) => Ty::Int,
                Some(Binding::AggPtr { .. }) => Ty::Int,
                None => self
                    .file
                    .arrays
                    .iter()
                    .find(|a| a.name == text(n, src))
                    .map(|a| a.elem)
                    .unwrap_or(Ty::Int),
            },
            "field_expression" => {
                // A field of a vector/struct local or array element has its field's type; the
                // launch builtins are unsigned.
                let Some((base, f, _)) = field_chain(n, src) else { return Ty::UInt };
                let agg = self.agg_of(base);
                agg.and_then(|a| a.field(&f)).map(|(_, t)| t).unwrap_or(Ty::UInt)
            }
            "qualified_identifier" => match self.file.macros.get(&text(n, src).replace(' ', "")) {
                Some(MacroVal::Const(v)) if *v > i32::MAX as i64 => Ty::UInt,
                _ => Ty::Int,
            },
            "subscript_expression" => {
                let mut b = n;
                while b.kind() == "subscript_expression" {
                    match b.child_by_field_name("argument") {
                        Some(x) => b = x,
                        None => break,
                    }
                }
                self.static_type(b)
            }
            "cast_expression" => {
                n.child_by_field_name("type").and_then(|t| self.type_descriptor(t).ok()).unwrap_or(Ty::Int)
            }
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                if op == "!" {
                    Ty::Int
                } else {
                    n.child_by_field_name("argument").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
                }
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                let l = n.child_by_field_name("left").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                let r = n.child_by_field_name("right").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                match op {
                    "&&" | "||" | "<" | "<=" | ">" | ">=" | "==" | "!=" => Ty::Int,
                    "<<" | ">>" => l,
                    _ => common(l, r),
                }
            }
            "conditional_expression" => {
                let a = n.child_by_field_name("consequence").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                let b = n.child_by_field_name("alternative").map(|a| self.static_type(a)).unwrap_or(Ty::Int);
                common(a, b)
            }
            "assignment_expression" | "update_expression" => n
                .child_by_field_name(if n.kind() == "update_expression" { "argument" } else { "left" })
                .map(|a| self.static_type(a))
                .unwrap_or(Ty::Int),
            "comma_expression" => {
                n.child_by_field_name("right").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
            }
            "sizeof_expression" => Ty::UInt,
            "call_expression" => {
                let callee = n.child_by_field_name("function");
                let callee = match callee {
                    Some(c) if c.kind() == "template_function" => c.child_by_field_name("name"),
                    c => c,
                };
                let f = callee.map(|f| text(f, src)).unwrap_or("");
                let args: Vec<Ty> = n
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        let v: Vec<Ty> = a.named_children(&mut c).map(|x| self.static_type(x)).collect();
                        v
                    })
                    .unwrap_or_default();
                if let Some(t) = intrinsics::result_type(f, &args) {
                    return t;
                }
                if let Some(t) = self.builtin_type(n, f) {
                    return t;
                }
                if !self.prog.has_function(f) {
                    if let Some(t) = curand::result_type(f) {
                        return t;
                    }
                    if let Some(t) = self.prototype_type(f) {
                        return t;
                    }
                }
                match f {
                    "umin" | "umax" | "ullmin" | "ullmax" | "__umul24" | "__brev" => Ty::UInt,
                    "min" | "max" | "llmin" | "llmax" => args.iter().copied().fold(Ty::Int, common),
                    "abs" | "labs" | "llabs" if args.first() == Some(&Ty::Float) => Ty::Float,
                    "frexpf" | "frexp" | "modff" | "modf" | "remquof" | "remquo" => Ty::Float,
                    _ if AtomicOp::from_cuda(f).is_some() || f == "atomicCAS" => {
                        args.first().copied().unwrap_or(Ty::Int)
                    }
                    _ => Ty::Int,
                }
            }
            "pointer_expression" => {
                n.child_by_field_name("argument").map(|a| self.static_type(a)).unwrap_or(Ty::Int)
            }
            _ => Ty::Int,
        }
    }
}
