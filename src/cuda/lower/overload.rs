//! Overload resolution of device functions and of the free operator functions a
//! `helper_math.h`-style header defines (`float4 operator+(float4 a, float4 b)`), by C++'s
//! ranking of implicit conversion sequences.
//!
//! The lowering knows a scalar variable's type only as a class (`Ty`: signed, unsigned,
//! floating), so an argument stands for a set of possible C types. A candidate is chosen only
//! when it is possibly viable and no other candidate could beat it for any of those types: then
//! nvcc calls it, or rejects the program. Everything else is refused with the candidates named
//! (docs/cuda.md, "Overloads and operators").

use super::*;
use crate::cuda::program::FnDef;

/// The arithmetic types of C++, each its own type for overload resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CTy {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Half,
    BFloat16,
    Float,
    Double,
    LongDouble,
}

impl CTy {
    /// The C types the lowering's type class may stand for.
    fn of_class(t: Ty) -> Vec<CTy> {
        use CTy::*;
        match t {
            Ty::Int => vec![Bool, Char, SChar, Short, Int, Long, LongLong],
            Ty::UInt => vec![UChar, UShort, UInt, ULong, ULongLong],
            Ty::Float => vec![Half, BFloat16, Float, Double, LongDouble],
        }
    }

    /// The C type a type's words name exactly (qualifiers dropped); `None`: not one of them.
    pub(super) fn of_words(t: &str) -> Option<CTy> {
        use CTy::*;
        let words: Vec<&str> = t
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__" | "register"))
            .collect();
        Some(match words.join(" ").as_str() {
            "bool" => Bool,
            "char" => Char,
            "signed char" | "int8_t" => SChar,
            "unsigned char" | "uchar" | "uint8_t" => UChar,
            "short" | "short int" | "signed short" | "int16_t" => Short,
            "unsigned short" | "unsigned short int" | "ushort" | "uint16_t" => UShort,
            "int" | "signed" | "signed int" | "int32_t" => Int,
            "unsigned" | "unsigned int" | "uint" | "uint32_t" => UInt,
            "long" | "long int" | "signed long" | "int64_t" => Long,
            "unsigned long" | "unsigned long int" | "long unsigned int" | "size_t" | "uint64_t" => ULong,
            "long long" | "long long int" | "signed long long" => LongLong,
            "unsigned long long" | "unsigned long long int" => ULongLong,
            "half" | "__half" | "__nv_half" => Half,
            "__nv_bfloat16" | "nv_bfloat16" => BFloat16,
            "float" => Float,
            "double" => Double,
            "long double" => LongDouble,
            _ => return None,
        })
    }

    /// The lowering's class of this type.
    pub(super) fn class(self) -> Option<Ty> {
        [Ty::Int, Ty::UInt, Ty::Float].into_iter().find(|t| CTy::of_class(*t).contains(&self))
    }

    fn is_half(self) -> bool {
        matches!(self, CTy::Half | CTy::BFloat16)
    }

    fn is_floating(self) -> bool {
        matches!(self, CTy::Float | CTy::Double | CTy::LongDouble) || self.is_half()
    }

    /// The integral promotion (C++ [conv.prom]): the small types become `int`.
    fn promoted(self) -> CTy {
        use CTy::*;
        match self {
            Bool | Char | SChar | UChar | Short | UShort => Int,
            t => t,
        }
    }

    fn unsigned(self) -> bool {
        matches!(self, CTy::UInt | CTy::ULong | CTy::ULongLong)
    }

    /// Integer conversion rank of a promoted integer type, and its width in bits.
    fn int_rank(self) -> (u8, u8) {
        match self {
            CTy::Int | CTy::UInt => (1, 32),
            CTy::Long | CTy::ULong => (2, 64),
            _ => (3, 64),
        }
    }

    fn name(self) -> &'static str {
        use CTy::*;
        match self {
            Bool => "bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Half => "half",
            BFloat16 => "__nv_bfloat16",
            Float => "float",
            Double => "double",
            LongDouble => "long double",
        }
    }
}

/// The result types of the usual arithmetic conversions of `a` and `b` (C++ [expr.arith.conv]);
/// with a half operand, any floating type (its operators are overloaded functions).
fn arithmetic_result(a: CTy, b: CTy) -> Vec<CTy> {
    use CTy::*;
    if a.is_half() || b.is_half() {
        return vec![Half, BFloat16, Float, Double, LongDouble];
    }
    if a.is_floating() || b.is_floating() {
        for t in [LongDouble, Double, Float] {
            if a == t || b == t {
                return vec![t];
            }
        }
    }
    let (a, b) = (a.promoted(), b.promoted());
    if a == b {
        return vec![a];
    }
    let ((ra, wa), (rb, wb)) = (a.int_rank(), b.int_rank());
    let t = match (a.unsigned(), b.unsigned()) {
        (true, true) | (false, false) => {
            if ra >= rb {
                a
            } else {
                b
            }
        }
        (true, false) if ra >= rb => a,
        (false, true) if rb >= ra => b,
        // The signed type has the greater rank: it wins if it holds every value of the other.
        (true, false) if wb > wa => b,
        (false, true) if wa > wb => a,
        (true, false) => to_unsigned(b),
        (false, true) => to_unsigned(a),
    };
    vec![t]
}

fn to_unsigned(t: CTy) -> CTy {
    match t {
        CTy::Int => CTy::UInt,
        CTy::Long => CTy::ULong,
        _ => CTy::ULongLong,
    }
}

/// C++'s ranks of an implicit conversion sequence, best first; `NotViable`: there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Exact,
    Promotion,
    Conversion,
    User,
    NotViable,
}

const ANY_RANK: [Rank; 5] = [Rank::Exact, Rank::Promotion, Rank::Conversion, Rank::User, Rank::NotViable];

/// The rank of converting an `a` to a `p` (both arithmetic). A half converts to and from the
/// other arithmetic types through its constructors and conversion operators (user-defined).
fn scalar_rank(a: CTy, p: CTy) -> Rank {
    use CTy::*;
    if a == p {
        Rank::Exact
    } else if a.is_half() || p.is_half() {
        Rank::User
    } else if (p == Int && a.promoted() == Int) || (a == Float && p == Double) {
        Rank::Promotion
    } else {
        Rank::Conversion
    }
}

/// One type an argument or parameter may have.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Atom {
    Scalar(CTy),
    /// A vector type or plain struct, by its resolved name.
    Agg(String),
    /// A pointer (or an array, which decays to one) to elements of this kind.
    Ptr(Elem),
    /// A parameter whose type names a template parameter: deduction makes it an exact match
    /// (or the template is not viable).
    Template,
    /// A type the lowering does not know: any rank.
    Unknown,
}

/// What a pointer points at.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Elem {
    Class(Ty),
    Agg(String),
    Void,
    Template,
    Unknown,
}

/// The possible types of an argument, and whether it is an lvalue (a non-`const` reference
/// parameter binds only to one).
#[derive(Clone, Debug)]
pub(super) struct ArgTy {
    pub(super) atoms: Vec<Atom>,
    pub(super) lvalue: bool,
}

impl ArgTy {
    fn describe(&self) -> String {
        if let [Atom::Scalar(c)] = self.atoms[..] {
            return c.name().to_string();
        }
        let all = |t: Ty| CTy::of_class(t).iter().all(|c| self.atoms.contains(&Atom::Scalar(*c)));
        match self.atoms.first() {
            Some(Atom::Scalar(_)) if all(Ty::Float) => "a floating value".into(),
            Some(Atom::Scalar(_)) if all(Ty::UInt) => "an unsigned integer".into(),
            Some(Atom::Scalar(_)) if all(Ty::Int) => "a signed integer".into(),
            Some(Atom::Scalar(_)) => "an arithmetic value".into(),
            Some(Atom::Agg(a)) => a.clone(),
            Some(Atom::Ptr(_)) => "a pointer".into(),
            _ => "a value of a type autosync does not know".into(),
        }
    }

    fn is_agg(&self) -> bool {
        self.atoms.iter().any(|a| matches!(a, Atom::Agg(_)))
    }
}

/// A parameter: its possible types, and `Some(is_const)` when it is a reference.
#[derive(Clone, Debug)]
pub(super) struct ParamTy {
    pub(super) atoms: Vec<Atom>,
    pub(super) by_ref: Option<bool>,
}

fn pointer_rank(a: &Elem, p: &Elem) -> Vec<Rank> {
    match (a, p) {
        (_, Elem::Template) => vec![Rank::Exact],
        (Elem::Unknown, _) | (_, Elem::Unknown) | (Elem::Template, _) => ANY_RANK.to_vec(),
        (Elem::Void, Elem::Void) => vec![Rank::Exact],
        (_, Elem::Void) => vec![Rank::Conversion],
        (Elem::Agg(x), Elem::Agg(y)) if x == y => vec![Rank::Exact],
        // Two element types of one class may or may not be the same type (`float`, `double`).
        (Elem::Class(x), Elem::Class(y)) if x == y => vec![Rank::Exact, Rank::NotViable],
        _ => vec![Rank::NotViable],
    }
}

/// The ranks converting an argument of type `a` to parameter type `p` may have.
fn rank(a: &Atom, lvalue: bool, p: &Atom, by_ref: Option<bool>) -> Vec<Rank> {
    let needs_lvalue = by_ref == Some(false);
    let bind = |r: Rank| if needs_lvalue && (!lvalue || r != Rank::Exact) { Rank::NotViable } else { r };
    match (a, p) {
        (_, Atom::Template) => vec![Rank::Exact],
        (Atom::Unknown, _) | (_, Atom::Unknown) | (Atom::Template, _) => ANY_RANK.to_vec(),
        (Atom::Scalar(x), Atom::Scalar(y)) => vec![bind(scalar_rank(*x, *y))],
        (Atom::Agg(x), Atom::Agg(y)) if x == y => vec![bind(Rank::Exact)],
        (Atom::Ptr(x), Atom::Ptr(y)) => pointer_rank(x, y).into_iter().map(bind).collect(),
        // A null pointer constant (`0`) converts to any pointer.
        (Atom::Scalar(_), Atom::Ptr(_)) if !needs_lvalue => vec![Rank::Conversion, Rank::NotViable],
        // Vector types and plain structs have no converting constructors or conversion
        // functions; scalars and pointers do not convert to them or between them.
        _ => vec![Rank::NotViable],
    }
}

/// The (rank for candidate A, rank for candidate B) pairs an argument position may give.
fn pairs(arg: &ArgTy, a: &ParamTy, b: &ParamTy) -> Vec<(Rank, Rank)> {
    let mut out = Vec::new();
    for t in &arg.atoms {
        let ra: Vec<Rank> = a.atoms.iter().flat_map(|p| rank(t, arg.lvalue, p, a.by_ref)).collect();
        let rb: Vec<Rank> = b.atoms.iter().flat_map(|p| rank(t, arg.lvalue, p, b.by_ref)).collect();
        for x in &ra {
            for y in &rb {
                if !out.contains(&(*x, *y)) {
                    out.push((*x, *y));
                }
            }
        }
    }
    out
}

/// Whether candidate A could be chosen over B for some types the arguments may have: A viable
/// where B is not, or A at least as good at every argument and better at one (C++
/// [over.match.best]; a non-template wins a tie with a template).
fn can_defeat(positions: &[Vec<(Rank, Rank)>], a_template: bool, b_template: bool) -> bool {
    let a_viable = positions.iter().all(|p| p.iter().any(|(x, _)| *x < Rank::NotViable));
    if !a_viable {
        return false;
    }
    let b_out =
        positions.iter().any(|p| p.iter().any(|(x, y)| *x < Rank::NotViable && *y == Rank::NotViable));
    let no_worse = positions.iter().all(|p| p.iter().any(|(x, y)| x <= y && *x < Rank::NotViable));
    let better = positions.iter().any(|p| p.iter().any(|(x, y)| x < y));
    b_out || (no_worse && (better || (b_template && !a_template)))
}

/// The outcome of resolving a call among several candidates.
#[derive(Debug, PartialEq)]
pub(super) enum Choice {
    /// The one candidate C++ calls (if the program compiles).
    Pick(usize),
    /// No candidate is viable for the argument types.
    NoMatch,
    /// Several candidates may be the best one, or which one is depends on what autosync does not
    /// know of the argument types.
    Ambiguous,
    /// The candidate chosen is a function template: deduction is not checked here.
    Template(usize),
}

/// Chooses among `cands` (each: its parameter types, whether it is a template) for a call with
/// argument types `args`.
pub(super) fn choose(args: &[ArgTy], cands: &[(Vec<ParamTy>, bool)]) -> Choice {
    let viable = |ps: &Vec<ParamTy>| {
        args.iter().zip(ps).all(|(a, p)| {
            a.atoms.iter().any(|t| {
                p.atoms.iter().any(|pt| rank(t, a.lvalue, pt, p.by_ref).iter().any(|r| *r < Rank::NotViable))
            })
        })
    };
    let possible: Vec<usize> = (0..cands.len()).filter(|i| viable(&cands[*i].0)).collect();
    if possible.is_empty() {
        return Choice::NoMatch;
    }
    let undefeated: Vec<usize> = possible
        .iter()
        .copied()
        .filter(|b| {
            (0..cands.len()).all(|a| {
                if a == *b {
                    return true;
                }
                let positions: Vec<Vec<(Rank, Rank)>> = args
                    .iter()
                    .zip(cands[a].0.iter().zip(&cands[*b].0))
                    .map(|(x, (pa, pb))| pairs(x, pa, pb))
                    .collect();
                !can_defeat(&positions, cands[a].1, cands[*b].1)
            })
        })
        .collect();
    match undefeated[..] {
        [b] if cands[b].1 => Choice::Template(b),
        [b] => Choice::Pick(b),
        _ => Choice::Ambiguous,
    }
}

/// A stem for KPL names made from a function's name (`operator+=` → `op_add_assign`).
pub(super) fn kpl_stem(fname: &str) -> String {
    let Some(op) = fname.strip_prefix("operator") else { return fname.to_string() };
    let word = match op {
        "+" => "add",
        "-" => "sub",
        "*" => "mul",
        "/" => "div",
        "%" => "mod",
        "+=" => "add_assign",
        "-=" => "sub_assign",
        "*=" => "mul_assign",
        "/=" => "div_assign",
        "%=" => "mod_assign",
        "==" => "eq",
        "!=" => "ne",
        "<" => "lt",
        ">" => "gt",
        "<=" => "le",
        ">=" => "ge",
        "&" => "and",
        "|" => "or",
        "^" => "xor",
        "&=" => "and_assign",
        "|=" => "or_assign",
        "^=" => "xor_assign",
        "<<" => "shl",
        ">>" => "shr",
        "!" => "not",
        "~" => "bitnot",
        _ => "other",
    };
    format!("op_{word}")
}

impl<'t> Lx<'_, 't> {
    /// The definition of `fname` a call with `args` calls: the only one with that many
    /// parameters, or the one overload resolution picks (see [`choose`]).
    /// With `explicit_targs` (`f<int>(x)`) only function templates are candidates.
    pub(super) fn pick_function(
        &self,
        fname: &str,
        args: &[Node],
        n: Node,
        explicit_targs: bool,
    ) -> R<FnDef<'t>> {
        let src = self.src;
        let mut cands = self.prog.function(fname, args.len(), src);
        if explicit_targs {
            cands.retain(|d| !d.tparams.is_empty());
        }
        match cands[..] {
            [] => {
                return Err(unsupported(
                    format!(
                        "call to `{fname}` with {} argument(s): no definition with that many parameters",
                        args.len()
                    ),
                    n,
                ))
            }
            [d] => return Ok(d.clone()),
            _ => {}
        }
        let arg_tys: Vec<ArgTy> = args.iter().map(|a| self.arg_ty(*a)).collect();
        let params = self.candidate_params(&cands, args.len());
        let shown: Vec<String> = arg_tys.iter().map(ArgTy::describe).collect();
        let what = if fname.starts_with("operator") { "operator function" } else { "overloaded function" };
        let head = format!("call to the {what} `{fname}` with ({})", shown.join(", "));
        let signatures = cands.iter().map(|d| signature(d.node, src)).collect::<Vec<_>>().join("; ");
        let err = |why: String| {
            unsupported(format!("{head}: {why}"), n).with_note(format!("its definitions: {signatures}"))
        };
        match choose(&arg_tys, &params) {
            Choice::Pick(i) => Ok(cands[i].clone()),
            Choice::NoMatch => Err(err("no definition takes arguments of these types".into())),
            Choice::Ambiguous => Err(err("the argument types do not single out one definition".into()).with_note(
                "autosync knows the type of a scalar whose declaration does not spell it (a typedef, a template parameter, an expression) only as signed, unsigned or floating; a cast of the argument to the parameter's type selects the definition",
            )),
            Choice::Template(i) => Err(err(format!(
                "it would call the function template `{}`, and template deduction among overloads is not modelled",
                signature(cands[i].node, src)
            ))),
        }
    }

    /// Each candidate's first `n` parameter types, and whether it is a template.
    fn candidate_params(&self, cands: &[&FnDef], n: usize) -> Vec<(Vec<ParamTy>, bool)> {
        cands
            .iter()
            .map(|d| {
                let ps = fn_params(d.node).iter().take(n).map(|p| self.param_ty(*p, d)).collect();
                (ps, !d.tparams.is_empty())
            })
            .collect()
    }

    /// Whether a call of `fname` calls the CUDA built-in of that name although the file defines
    /// functions of the name too (`helper_math.h`'s `fminf(float2, float2)` beside the built-in
    /// `fminf(float, float)`): none of the file's definitions can take these arguments.
    pub(super) fn only_builtin_applies(&self, fname: &str, args: &[Node]) -> bool {
        let builtin = super::intrinsics::lookup(fname).is_some()
            || matches!(fname, "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax")
            || matches!(fname, "abs" | "labs" | "llabs");
        if !builtin {
            return false;
        }
        let cands = self.prog.function(fname, args.len(), self.src);
        let arg_tys: Vec<ArgTy> = args.iter().map(|a| self.arg_ty(*a)).collect();
        let params = self.candidate_params(&cands, args.len());
        cands.is_empty() || choose(&arg_tys, &params) == Choice::NoMatch
    }

    /// Records the C type of the scalar variable `cname` (just declared with the type node `t`)
    /// when the type's words name one exactly (`unsigned`, `float`; not a typedef or template
    /// parameter, whose variables keep their class).
    pub(super) fn note_ctype(&mut self, cname: &str, t: Node) {
        let Some(c) = CTy::of_words(text(t, self.src)) else { return };
        if let Some(Binding::Var { kpl, ty }) = self.lookup(cname) {
            if c.class() == Some(*ty) {
                self.ctypes.insert(kpl.clone(), c);
            }
        }
    }

    /// The possible types of the expression `n`, judged without lowering it.
    pub(super) fn arg_ty(&self, n: Node) -> ArgTy {
        let n = strip_parens(n);
        let lvalue = match n.kind() {
            "identifier" | "subscript_expression" | "field_expression" => true,
            "pointer_expression" => is_deref(n),
            _ => false,
        };
        ArgTy { atoms: self.value_atoms(n), lvalue }
    }

    fn value_atoms(&self, n: Node) -> Vec<Atom> {
        let src = self.src;
        let n = strip_parens(n);
        let class = |t: Ty| CTy::of_class(t).into_iter().map(Atom::Scalar).collect::<Vec<_>>();
        let unknown = vec![Atom::Unknown];
        match n.kind() {
            "number_literal" => match parse_number(text(n, src)) {
                Some(Lit::Float(_)) => {
                    let t = text(n, src).to_ascii_lowercase();
                    let hex = t.starts_with("0x");
                    let c = match t.chars().last() {
                        Some('f') if !hex => CTy::Float,
                        Some('l') => CTy::LongDouble,
                        _ => CTy::Double,
                    };
                    vec![Atom::Scalar(c)]
                }
                Some(Lit::Int(_, ty)) => {
                    literal_types(text(n, src), ty).into_iter().map(Atom::Scalar).collect()
                }
                None => unknown,
            },
            "char_literal" => vec![Atom::Scalar(CTy::Char)],
            "true" | "false" => vec![Atom::Scalar(CTy::Bool)],
            "identifier" => match self.lookup(text(n, src)) {
                // A variable declared with a type the words name exactly has that type.
                Some(Binding::Var { kpl, ty }) => match self.ctypes.get(kpl) {
                    Some(c) => vec![Atom::Scalar(*c)],
                    None => class(*ty),
                },
                Some(Binding::Const { ty, .. }) => class(*ty),
                Some(Binding::Ref { elem, agg: None, .. }) => class(*elem),
                Some(Binding::Agg { agg, .. } | Binding::Ref { agg: Some(agg), .. }) => {
                    vec![Atom::Agg(agg.name.clone())]
                }
                Some(Binding::Array { elem, scalar: true, .. }) => class(*elem),
                Some(Binding::Array { kpl, elem, ndims: 1, .. } | Binding::Ptr { array: kpl, elem, .. }) => {
                    let e = match self.agg_arrays.get(kpl) {
                        Some(a) => Elem::Agg(a.name.clone()),
                        None => Elem::Class(*elem),
                    };
                    vec![Atom::Ptr(e)]
                }
                Some(Binding::Array { .. }) => vec![Atom::Ptr(Elem::Unknown)],
                None => match self.file.arrays.iter().find(|a| a.name == text(n, src)) {
                    Some(a) if a.scalar => class(a.elem),
                    _ => unknown,
                },
                _ => unknown,
            },
            "field_expression" => {
                let Some((base, path, _)) = field_chain(n, src) else { return unknown };
                let builtin = matches!(text(base, src), "threadIdx" | "blockIdx" | "blockDim" | "gridDim")
                    && self.lookup(text(base, src)).is_none()
                    && matches!(path.as_str(), "x" | "y" | "z");
                if builtin {
                    return vec![Atom::Scalar(CTy::UInt)];
                }
                match self.agg_of(base).and_then(|a| a.field(&path)) {
                    Some((_, t)) => class(t),
                    None => unknown,
                }
            }
            "subscript_expression" | "pointer_expression"
                if n.kind() == "subscript_expression" || is_deref(n) =>
            {
                if self.is_pointer(n) {
                    return vec![Atom::Ptr(Elem::Unknown)];
                }
                let Some(arg) = n.child_by_field_name("argument") else { return unknown };
                if let Some(a) = self.agg_of(arg) {
                    return vec![Atom::Agg(a.name.clone())];
                }
                if n.kind() == "pointer_expression" {
                    return match self.value_atoms(arg)[..] {
                        [Atom::Ptr(Elem::Class(t))] => class(t),
                        _ => unknown,
                    };
                }
                // An element of a scalar array (of any number of dimensions) or pointer.
                let mut root = arg;
                while root.kind() == "subscript_expression" {
                    match root.child_by_field_name("argument") {
                        Some(x) => root = strip_parens(x),
                        None => return unknown,
                    }
                }
                match self.lookup(text(root, src)) {
                    Some(Binding::Array { elem, scalar: false, .. } | Binding::Ptr { elem, .. }) => {
                        class(*elem)
                    }
                    None if root.kind() == "identifier" => {
                        match self.file.arrays.iter().find(|a| a.name == text(root, src)) {
                            Some(a) if !a.scalar => class(a.elem),
                            _ => unknown,
                        }
                    }
                    _ => unknown,
                }
            }
            "pointer_expression" => {
                // `&a[i]`, `&v`: a pointer to what the operand is.
                let Some(arg) = n.child_by_field_name("argument") else { return unknown };
                match self.value_atoms(arg)[..] {
                    [Atom::Agg(ref a)] => vec![Atom::Ptr(Elem::Agg(a.clone()))],
                    _ => match self.static_class(arg) {
                        Some(t) => vec![Atom::Ptr(Elem::Class(t))],
                        None => unknown,
                    },
                }
            }
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| text(o, src)).unwrap_or("");
                let Some(a) = n.child_by_field_name("argument") else { return unknown };
                let at = self.arg_ty(a);
                if at.is_agg() {
                    return self.operator_result(&format!("operator{op}"), &[a], n);
                }
                if !at.atoms.iter().all(|x| matches!(x, Atom::Scalar(_))) {
                    return unknown;
                }
                if op == "!" {
                    return vec![Atom::Scalar(CTy::Bool)];
                }
                let mut out = Vec::new();
                for x in at.atoms {
                    if let Atom::Scalar(c) = x {
                        let p = Atom::Scalar(c.promoted());
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                out
            }
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| text(o, src)).unwrap_or("");
                let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right"))
                else {
                    return unknown;
                };
                let (lt, rt) = (self.arg_ty(l), self.arg_ty(r));
                if lt.is_agg() || rt.is_agg() {
                    return self.operator_result(&format!("operator{op}"), &[l, r], n);
                }
                let scalars = |a: &ArgTy| -> Option<Vec<CTy>> {
                    a.atoms.iter().map(|x| if let Atom::Scalar(c) = x { Some(*c) } else { None }).collect()
                };
                let (Some(ls), Some(rs)) = (scalars(&lt), scalars(&rt)) else {
                    // Pointer arithmetic keeps the pointer's type.
                    return match (&lt.atoms[..], op) {
                        ([Atom::Ptr(_)], "+" | "-") if scalars(&rt).is_some() => lt.atoms,
                        _ => unknown,
                    };
                };
                let mut out = Vec::new();
                let mut add = |c: CTy| {
                    if !out.contains(&Atom::Scalar(c)) {
                        out.push(Atom::Scalar(c));
                    }
                };
                match op {
                    "&&" | "||" | "<" | "<=" | ">" | ">=" | "==" | "!=" => add(CTy::Bool),
                    "<<" | ">>" => ls.iter().for_each(|c| add(c.promoted())),
                    _ => {
                        for a in &ls {
                            for b in &rs {
                                arithmetic_result(*a, *b).into_iter().for_each(&mut add);
                            }
                        }
                    }
                }
                out
            }
            "conditional_expression" => {
                let a = n.child_by_field_name("consequence").map(|a| self.value_atoms(a));
                let b = n.child_by_field_name("alternative").map(|b| self.value_atoms(b));
                match (a, b) {
                    (Some(a), Some(b)) if a == b => a,
                    _ => unknown,
                }
            }
            "cast_expression" => {
                let Some(td) = n.child_by_field_name("type") else { return unknown };
                self.descriptor_atoms(td)
            }
            "call_expression" => self.call_atoms(n),
            "comma_expression" => {
                n.child_by_field_name("right").map(|r| self.value_atoms(r)).unwrap_or(unknown)
            }
            _ => unknown,
        }
    }

    /// The type class of a scalar lvalue (for `&x`), from its binding or array.
    fn static_class(&self, n: Node) -> Option<Ty> {
        match self.value_atoms(n)[..] {
            [Atom::Scalar(c), ..] => c.class(),
            _ => None,
        }
    }

    /// The result types of a call, judged without lowering it.
    fn call_atoms(&self, n: Node) -> Vec<Atom> {
        let src = self.src;
        let unknown = vec![Atom::Unknown];
        let Some(mut f) = n.child_by_field_name("function") else { return unknown };
        let targs = if f.kind() == "template_function" {
            let a = f.child_by_field_name("arguments");
            match f.child_by_field_name("name") {
                Some(name) => f = name,
                None => return unknown,
            }
            a
        } else {
            None
        };
        let fname = text(f, src);
        let args = self.args(n);
        if f.kind() != "identifier" || self.lookup(fname).is_some() {
            return unknown;
        }
        if let Some(v) = fname.strip_prefix("make_").and_then(super::aggregate::vector_type) {
            return vec![Atom::Agg(v.name)];
        }
        if let (Some(ta), "static_cast") = (targs, fname) {
            return match ta.named_child(0).filter(|t| t.kind() == "type_descriptor") {
                Some(td) => self.descriptor_atoms(td),
                None => unknown,
            };
        }
        if self.prog.has_function(fname) && !self.only_builtin_applies(fname, &args) {
            if targs.is_some() {
                return unknown;
            }
            return match self.pick_function(fname, &args, n, false) {
                Ok(def) => self.result_atoms(&def),
                Err(_) => unknown,
            };
        }
        match super::intrinsics::lookup(fname) {
            Some((_, super::intrinsics::Yields::Pure(t) | super::intrinsics::Yields::Havoc(t))) => {
                CTy::of_class(t).into_iter().map(Atom::Scalar).collect()
            }
            _ => unknown,
        }
    }

    /// The result types of the operator function `fname` applied to `operands`.
    fn operator_result(&self, fname: &str, operands: &[Node], n: Node) -> Vec<Atom> {
        if !self.prog.has_function(fname) {
            return vec![Atom::Unknown];
        }
        match self.pick_function(fname, operands, n, false) {
            Ok(def) => self.result_atoms(&def),
            Err(_) => vec![Atom::Unknown],
        }
    }

    /// The types of a function's result (a template's: unknown).
    fn result_atoms(&self, def: &FnDef) -> Vec<Atom> {
        let unknown = vec![Atom::Unknown];
        if !def.tparams.is_empty() {
            return unknown;
        }
        let mut d = def.node.child_by_field_name("declarator");
        while let Some(x) = d {
            match x.kind() {
                "function_declarator" => break,
                "reference_declarator" => d = crate::cuda::inner_declarator(x),
                _ => return unknown,
            }
        }
        match def.node.child_by_field_name("type") {
            Some(t) if text(t, self.src) != "void" => self.type_atoms(t, &[], false),
            _ => unknown,
        }
    }

    /// The types a type descriptor (of a cast) names, in the caller's scope.
    fn descriptor_atoms(&self, td: Node) -> Vec<Atom> {
        let Some(t) = td.child_by_field_name("type") else { return vec![Atom::Unknown] };
        match td.child_by_field_name("declarator") {
            None => self.type_atoms(t, &[], false),
            Some(d) if d.kind() == "abstract_pointer_declarator" && d.named_child_count() == 0 => {
                vec![Atom::Ptr(self.elem_of(t, &[], false))]
            }
            Some(_) => vec![Atom::Unknown],
        }
    }

    /// The types the type node `t` names: of a callee's parameter (`callee`: its template
    /// parameters `tparams` match anything, names resolve at file scope) or in the caller's scope.
    fn type_atoms(&self, t: Node, tparams: &[crate::cuda::program::TParam], callee: bool) -> Vec<Atom> {
        let src = self.src;
        let words = text(t, src);
        if mentions_any(words, tparams) {
            return vec![if callee { Atom::Template } else { Atom::Unknown }];
        }
        if let Some(a) = self.agg_type(t) {
            return vec![Atom::Agg(a.name.clone())];
        }
        if let Some(c) = CTy::of_words(words) {
            return vec![Atom::Scalar(c)];
        }
        let ty = if callee { self.file.scalar_type(t, src).ok() } else { self.ty(t).ok() };
        match ty {
            Some(ty) => CTy::of_class(ty).into_iter().map(Atom::Scalar).collect(),
            None => vec![Atom::Unknown],
        }
    }

    fn elem_of(&self, t: Node, tparams: &[crate::cuda::program::TParam], callee: bool) -> Elem {
        if text(t, self.src).split_whitespace().any(|w| w == "void") {
            return Elem::Void;
        }
        match self.type_atoms(t, tparams, callee)[..] {
            [Atom::Agg(ref a)] => Elem::Agg(a.clone()),
            [Atom::Template] => Elem::Template,
            [Atom::Scalar(c), ..] => c.class().map(Elem::Class).unwrap_or(Elem::Unknown),
            _ => Elem::Unknown,
        }
    }

    /// The type of parameter `p` of the candidate `def`.
    fn param_ty(&self, p: Node, def: &FnDef) -> ParamTy {
        let unknown = ParamTy { atoms: vec![Atom::Unknown], by_ref: None };
        let (Some(t), Some(d)) = (p.child_by_field_name("type"), p.child_by_field_name("declarator")) else {
            return unknown;
        };
        let konst = {
            let mut c = p.walk();
            let q =
                p.children(&mut c).any(|ch| ch.kind() == "type_qualifier" && text(ch, self.src) == "const");
            q
        };
        // The declarator without its name: `x`, `&x`, `*x`, `x[]`.
        let inner_named = |d: Node| {
            d.child_by_field_name("declarator")
                .or_else(|| d.named_child(0))
                .is_some_and(|x| x.kind() == "identifier")
        };
        match d.kind() {
            "identifier" => ParamTy { atoms: self.type_atoms(t, &def.tparams, true), by_ref: None },
            "reference_declarator" if inner_named(d) => {
                ParamTy { atoms: self.type_atoms(t, &def.tparams, true), by_ref: Some(konst) }
            }
            "pointer_declarator" | "array_declarator" if inner_named(d) => {
                ParamTy { atoms: vec![Atom::Ptr(self.elem_of(t, &def.tparams, true))], by_ref: None }
            }
            _ => unknown,
        }
    }
}

/// The types an integer literal may have: exact for the common forms (`7`, `7u`, `7l`); an
/// unsuffixed literal too large for `int` may be `unsigned int` (hexadecimal) or `long`.
fn literal_types(t: &str, ty: Ty) -> Vec<CTy> {
    let t = t.to_ascii_lowercase();
    let digits = t.trim_end_matches(['u', 'l']);
    let suffix = &t[digits.len()..];
    let u = suffix.contains('u');
    match (suffix.matches('l').count(), u) {
        (0, false) if ty == Ty::Int => vec![CTy::Int],
        (0, false) => vec![CTy::UInt, CTy::Long, CTy::ULong],
        (0, true) => vec![CTy::UInt, CTy::ULong],
        (1, false) => vec![CTy::Long, CTy::ULong],
        (1, true) => vec![CTy::ULong],
        (_, false) => vec![CTy::LongLong, CTy::ULongLong],
        (_, true) => vec![CTy::ULongLong],
    }
}

/// Whether the type text names one of the template parameters.
fn mentions_any(t: &str, tparams: &[crate::cuda::program::TParam]) -> bool {
    t.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| tparams.iter().any(|p| p.name == w))
}

/// `name(params)` of a function definition, for messages.
fn signature(f: Node, src: &str) -> String {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "function_declarator" {
            return text(x, src).split_whitespace().collect::<Vec<_>>().join(" ");
        }
        d = crate::cuda::inner_declarator(x);
    }
    text(f, src).lines().next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests;
