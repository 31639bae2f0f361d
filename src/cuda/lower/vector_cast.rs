//! Vector loads and stores through pointer casts: `reinterpret_cast<float4 *>(p)[i]`,
//! `((const float4 *)p)[i]`, `reinterpret_cast<int2 *>(a + off)[j].y` where `p` points into an
//! array of scalars.
//!
//! Element `i` of the cast pointer is the `k` consecutive scalars `p[k·i] … p[k·i + k − 1]`
//! (`k` the vector's field count), field `f` the scalar `p[k·i + f]`. That is exact when a
//! field has the size of a scalar element (`float4` over `float`, `int2` over `int`, `double2`
//! over `double`); any other pairing (`float4` over `half`, `uint4` over `char`) would change
//! which elements a word covers and is refused, as is a base whose declared element type is not
//! found (a template parameter `T` included: its size is not known).

use super::*;

/// An element of a vector array: (KPL array, index of its first word, the vector type).
type AggElement = (String, Vec<Expr>, Rc<Agg>);

/// The bytes of a scalar C type, by name (`None`: not a scalar this table knows).
pub(super) fn scalar_bytes(t: &str) -> Option<u32> {
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register" | "signed"))
        .collect();
    Some(match words.join(" ").as_str() {
        "char" | "unsigned char" | "uchar" | "int8_t" | "uint8_t" | "bool" => 1,
        "short" | "unsigned short" | "ushort" | "int16_t" | "uint16_t" | "half" | "__half"
        | "__nv_bfloat16" | "nv_bfloat16" => 2,
        "int" | "unsigned" | "unsigned int" | "uint" | "int32_t" | "uint32_t" | "float" => 4,
        "double" | "long long" | "unsigned long long" | "int64_t" | "uint64_t" => 8,
        _ => return None,
    })
}

/// The bytes of one field of a vector type (`float4` → 4, `half2` → 2, `double2` → 8).
fn field_bytes(vector: &str) -> Option<u32> {
    if matches!(vector, "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162") {
        return Some(2);
    }
    let base = vector.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match base {
        "char" | "uchar" => 1,
        "short" | "ushort" => 2,
        "int" | "uint" | "float" => 4,
        "double" | "longlong" | "ulonglong" => 8,
        _ => return None,
    })
}

/// `reinterpret_cast<T *>(v)` / `static_cast<T *>(v)` / `(T *)v`: (the type descriptor, `v`).
pub(super) fn cast_parts<'n>(n: Node<'n>, src: &str) -> Option<(Node<'n>, Node<'n>)> {
    let n = strip_parens(n);
    match n.kind() {
        "cast_expression" => Some((n.child_by_field_name("type")?, n.child_by_field_name("value")?)),
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            if f.kind() != "template_function" {
                return None;
            }
            let name = text(f.child_by_field_name("name")?, src);
            if !matches!(name, "reinterpret_cast" | "static_cast") {
                return None;
            }
            let ty = f.child_by_field_name("arguments")?.named_child(0)?;
            let args = n.child_by_field_name("arguments")?;
            let mut c = args.walk();
            let items: Vec<Node> = args.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
            let [v] = items[..] else { return None };
            Some((ty, v))
        }
        _ => None,
    }
}

/// The identifier a pointer expression is based on (`p`, `p + off`, `&a[i]`, `(p)`).
pub(super) fn base_name<'n>(n: Node<'n>) -> Option<Node<'n>> {
    let n = strip_parens(n);
    match n.kind() {
        "identifier" => Some(n),
        "binary_expression" => base_name(n.child_by_field_name("left")?),
        "pointer_expression" | "subscript_expression" => base_name(n.child_by_field_name("argument")?),
        _ => None,
    }
}

/// The type text a declaration or parameter in scope at `at` gives `name` (the innermost
/// function's parameters and declarations, then file scope).
pub(super) fn declared_type(at: Node, name: &str, src: &str) -> Option<String> {
    fn find(n: Node, name: &str, src: &str) -> Option<String> {
        if matches!(n.kind(), "declaration" | "parameter_declaration" | "field_declaration") {
            let mut c = n.walk();
            let hit = n.children_by_field_name("declarator", &mut c).any(|d| {
                let mut d = d;
                loop {
                    if d.kind() == "identifier" {
                        return text(d, src) == name;
                    }
                    match crate::cuda::inner_declarator(d) {
                        Some(x) => d = x,
                        None => return false,
                    }
                }
            });
            if hit {
                return n.child_by_field_name("type").map(|t| text(t, src).to_string());
            }
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.named_children(&mut c).collect();
        children.into_iter().find_map(|ch| find(ch, name, src))
    }
    let mut scope = at;
    loop {
        if matches!(scope.kind(), "function_definition" | "translation_unit") {
            if let Some(t) = find(scope, name, src) {
                return Some(t);
            }
        }
        scope = scope.parent()?;
    }
}

impl<'t> Lx<'_, 't> {
    /// `n` as an element of a vector type through a cast pointer into scalars: (array, the
    /// index of the element's first word, the vector type). `None`: `n` is not such a subscript.
    pub(super) fn vector_cast_element(&mut self, n: Node) -> Option<R<AggElement>> {
        let n = strip_parens(n);
        if n.kind() != "subscript_expression" {
            return None;
        }
        let (tdesc, value) = cast_parts(n.child_by_field_name("argument")?, self.src)?;
        if tdesc.child_by_field_name("declarator").is_none_or(|d| d.kind() != "abstract_pointer_declarator") {
            return None;
        }
        let agg = self.agg_type(tdesc.child_by_field_name("type")?)?;
        Some(self.vector_cast_words(n, value, agg))
    }

    fn vector_cast_words(&mut self, n: Node, value: Node, agg: Rc<Agg>) -> R<AggElement> {
        let refuse =
            |why: String| unsupported(format!("the vector access `{}`: {why}", text(n, self.src)), n);
        if self.agg_of(value).is_some() {
            return Err(refuse("the pointer cast points into an array of vectors or structs".into()));
        }
        let base = base_name(value)
            .ok_or_else(|| refuse("the cast pointer is not based on a named array".into()))?;
        let elem = declared_type(base, text(base, self.src), self.src).and_then(|t| scalar_bytes(&t));
        let field = field_bytes(&agg.name);
        if elem.is_none() || elem != field {
            return Err(refuse(format!(
                "a {} field must have the size of an element of `{}` (then field `f` of element `i` is scalar `k·i + f`)",
                agg.name,
                text(base, self.src)
            )));
        }
        let list = n.child_by_field_name("indices").ok_or_else(|| unsupported("subscript", n))?;
        let mut c = list.walk();
        let items: Vec<Node> = list.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
        let [idx] = items[..] else { return Err(unsupported("a subscript with other than one index", list)) };
        let (array, _, comps) = self.pointer(value)?;
        let (i, t) = self.expr(idx)?;
        if t == Ty::Float {
            return Err(Diagnostic::error("array index of floating type", span(idx)));
        }
        let k = agg.fields.len() as u32;
        Ok((array, offset(comps, Expr::bin(BinOp::Mul, i, Expr::Const(k))), agg))
    }
}
