//! Literals and integer constant expressions (array sizes, `#define N 16`).

use tree_sitter::Node;

/// The C type class of a value. 64-bit and narrow integer types are approximated by 32-bit ones;
/// `double` is treated like `float` (both are opaque).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    UInt,
    Float,
}

/// A parsed numeric literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Lit {
    Int(u32, Ty),
    Float(f32),
}

/// Parses a C integer or floating literal (decimal, hex, octal, binary; `u`/`l`/`f` suffixes).
/// Integer literals that do not fit in 32 bits give `None`.
pub(crate) fn parse_number(text: &str) -> Option<Lit> {
    let t = text.replace('\'', "");
    if let Some(rest) = t.strip_prefix('-') {
        return match parse_number(rest.trim_start())? {
            Lit::Int(v, ty) => Some(Lit::Int(v.wrapping_neg(), ty)),
            Lit::Float(f) => Some(Lit::Float(-f)),
        };
    }
    let t = t.strip_prefix('+').map(str::to_string).unwrap_or(t);
    let lower = t.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f'));
    if is_float {
        let body = lower.trim_end_matches(['f', 'l']);
        return body.parse::<f64>().ok().map(|v| Lit::Float(v as f32));
    }
    let unsigned = lower.contains('u');
    let v = u32::try_from(parse_integer(&lower)?).ok()?;
    let ty = if unsigned || v > i32::MAX as u32 { Ty::UInt } else { Ty::Int };
    Some(Lit::Int(v, ty))
}

/// The value of a C integer literal in any base (decimal, `0x`, `0b`, octal `0…`), with `u`/`l`
/// suffixes and `'` separators, in 64 bits.
pub(crate) fn parse_integer(text: &str) -> Option<u64> {
    let t = text.replace('\'', "").to_ascii_lowercase();
    let body = t.trim_end_matches(['u', 'l']);
    if let Some(h) = body.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = body.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else if body.len() > 1 && body.starts_with('0') {
        u64::from_str_radix(&body[1..], 8).ok()
    } else {
        body.parse::<u64>().ok()
    }
}

/// The value of a character literal such as `'a'` or `'\n'`.
pub(crate) fn parse_char(text: &str) -> Option<u32> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    match (chars.next()?, chars.next()) {
        ('\\', Some(c)) => Some(match c {
            'n' => 10,
            't' => 9,
            'r' => 13,
            '0' => 0,
            '\\' => 92,
            '\'' => 39,
            '"' => 34,
            _ => return None,
        }),
        (c, None) => Some(c as u32),
        _ => None,
    }
}

/// The fundamental type a name denotes on the LP64 targets nvcc compiles for (`unsigned` →
/// `unsigned int`, `int32_t` → `int`, `size_t` → `unsigned long`), or `None` when the name is
/// no fundamental type this module knows (a class, a typedef of the file, a template parameter).
pub(crate) fn fundamental_type(t: &str) -> Option<&'static str> {
    let words: Vec<&str> = t.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
    Some(match words.join(" ").as_str() {
        "int" | "signed" | "signed int" | "int32_t" => "int",
        "unsigned" | "unsigned int" | "uint" | "uint32_t" => "unsigned int",
        "char" => "char",
        "signed char" | "int8_t" => "signed char",
        "unsigned char" | "uchar" | "uint8_t" => "unsigned char",
        "short" | "short int" | "signed short" | "int16_t" => "short",
        "unsigned short" | "unsigned short int" | "ushort" | "uint16_t" => "unsigned short",
        "long" | "long int" | "signed long" | "int64_t" | "ptrdiff_t" | "intptr_t" => "long",
        "unsigned long" | "unsigned long int" | "ulong" | "uint64_t" | "size_t" | "uintptr_t" => {
            "unsigned long"
        }
        "long long" | "long long int" => "long long",
        "unsigned long long" | "unsigned long long int" => "unsigned long long",
        "bool" => "bool",
        "float" => "float",
        "double" => "double",
        "half" | "__half" => "__half",
        "__nv_bfloat16" | "nv_bfloat16" => "__nv_bfloat16",
        _ => return None,
    })
}

/// `sizeof` of a fundamental type's name ([`fundamental_type`]) on nvcc's LP64 targets.
pub(crate) fn sizeof_type(text: &str) -> Option<i64> {
    Some(match fundamental_type(text)? {
        "char" | "signed char" | "unsigned char" | "bool" => 1,
        "short" | "unsigned short" | "__half" | "__nv_bfloat16" => 2,
        "int" | "unsigned int" | "float" => 4,
        _ => 8,
    })
}

/// Evaluates an integer constant expression over literals, `sizeof(type)` and names `resolve`
/// knows (macros, constants). `None` if the expression is not such a constant.
/// Why a constant binary operation has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConstFault {
    Overflow,
    DivisionByZero,
    ShiftCount,
    /// Not an integer operator of C.
    Operator,
}

/// `a op b` with C's integer operators on 64-bit values, checked: the one evaluator of the
/// front end's constant expressions and the preprocessor's `#if` conditions.
pub(crate) fn binary(op: &str, a: i64, b: i64) -> Result<i64, ConstFault> {
    use ConstFault::*;
    let shift = |b: i64| u32::try_from(b).ok().filter(|s| *s < 64).ok_or(ShiftCount);
    Ok(match op {
        "+" => a.checked_add(b).ok_or(Overflow)?,
        "-" => a.checked_sub(b).ok_or(Overflow)?,
        "*" => a.checked_mul(b).ok_or(Overflow)?,
        "/" | "%" if b == 0 => return Err(DivisionByZero),
        "/" => a.checked_div(b).ok_or(Overflow)?,
        "%" => a.checked_rem(b).ok_or(Overflow)?,
        "<<" => a.checked_shl(shift(b)?).ok_or(Overflow)?,
        ">>" => a >> shift(b)?,
        "&" => a & b,
        "|" => a | b,
        "^" => a ^ b,
        "<" => (a < b) as i64,
        "<=" => (a <= b) as i64,
        ">" => (a > b) as i64,
        ">=" => (a >= b) as i64,
        "==" => (a == b) as i64,
        "!=" => (a != b) as i64,
        "&&" => (a != 0 && b != 0) as i64,
        "||" => (a != 0 || b != 0) as i64,
        _ => return Err(Operator),
    })
}

pub(crate) fn const_eval(n: Node, src: &str, resolve: &mut dyn FnMut(&str) -> Option<i64>) -> Option<i64> {
    let text = n.utf8_text(src.as_bytes()).ok()?;
    match n.kind() {
        "number_literal" => match parse_number(text)? {
            Lit::Int(v, Ty::UInt) => Some(v as i64),
            Lit::Int(v, _) => Some(v as i32 as i64),
            Lit::Float(_) => None,
        },
        "char_literal" => parse_char(text).map(|v| v as i64),
        "true" => Some(1),
        "false" => Some(0),
        "identifier" => resolve(text),
        "qualified_identifier" => resolve(&text.replace(' ', "")),
        // `b.x` of a host `dim3` (only the launch facts' resolver knows such names).
        "field_expression" if !text.contains("->") => resolve(&text.replace(char::is_whitespace, "")),
        "parenthesized_expression" => const_eval(n.named_child(0)?, src, resolve),
        "sizeof_expression" => {
            let ty = n.child_by_field_name("type")?;
            sizeof_type(ty.utf8_text(src.as_bytes()).ok()?)
        }
        "unary_expression" => {
            let op = n.child_by_field_name("operator")?.kind();
            let a = const_eval(n.child_by_field_name("argument")?, src, resolve)?;
            Some(match op {
                "-" => a.checked_neg()?,
                "+" => a,
                "~" => !a,
                "!" => (a == 0) as i64,
                _ => return None,
            })
        }
        "binary_expression" => {
            let op = n.child_by_field_name("operator")?.kind();
            let a = const_eval(n.child_by_field_name("left")?, src, resolve)?;
            let b = const_eval(n.child_by_field_name("right")?, src, resolve)?;
            binary(op, a, b).ok()
        }
        "conditional_expression" => {
            let c = const_eval(n.child_by_field_name("condition")?, src, resolve)?;
            let pick = if c != 0 { "consequence" } else { "alternative" };
            const_eval(n.child_by_field_name(pick)?, src, resolve)
        }
        "cast_expression" => const_eval(n.child_by_field_name("value")?, src, resolve),
        _ => None,
    }
}
