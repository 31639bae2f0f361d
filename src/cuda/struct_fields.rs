//! Kernel parameters by value of a struct that holds pointers (`struct Params { const float4
//! *in; float *out; int n; }; __global__ void k(Params p)`): every field becomes a parameter of
//! its own, a pointer field a global array like a pointer parameter, a scalar field a uniform
//! scalar parameter (`lower/scope.rs`, `struct_field_parameters`).
//!
//! The lowering resolves arrays by identifier, so before it runs, each use `p.f` in the kernel
//! body is renamed to the identifier `p_f` in the (preprocessed) text: one byte, `.` → `_`, so
//! every span and place stays where it was. A parameter is renamed only when every use of it in
//! the body is such a field access written without spaces, nothing in the file is already named
//! `p_f`, and the body declares nothing named `p`; otherwise its text is left alone and the
//! lowering refuses the parameter with that reason.
//!
//! Soundness: the fields' arrays are distinct KPL arrays, which is the assumption the tool makes
//! for distinct pointer parameters (docs/semantics.md: pointer parameters do not alias); no
//! access is dropped, since every use of `p` is a field the lowering then sees.

use std::collections::HashSet;

use tree_sitter::Node;

use super::program::Program;
use super::text;

/// The text with the field accesses of pointer-holding struct parameters renamed (see the
/// module doc), or `None` when no kernel has such a parameter to rename.
pub(crate) fn flatten(root: Node, src: &str, kernels: &[Node]) -> Option<String> {
    let prog = Program::collect(root, src);
    if prog.pointer_structs.is_empty() {
        return None;
    }
    let mut names = HashSet::new();
    identifiers(root, src, &mut names);
    let mut dots = Vec::new();
    for k in kernels {
        for (param, fields) in parameters(*k, src, &prog) {
            let Some(body) = k.child_by_field_name("body") else { continue };
            if fields.iter().any(|f| names.contains(&field_parameter(&param, f))) {
                continue;
            }
            let mut found = Vec::new();
            if field_uses(body, src, &param, &fields, &mut found) {
                dots.extend(found);
            }
        }
    }
    if dots.is_empty() {
        return None;
    }
    let mut bytes = src.as_bytes().to_vec();
    for d in dots {
        bytes[d] = b'_';
    }
    String::from_utf8(bytes).ok()
}

/// The renamed C name of field `field` of parameter `param`.
pub(crate) fn field_parameter(param: &str, field: &str) -> String {
    format!("{param}_{field}")
}

/// The by-value parameters of kernel `k` whose type is a pointer-holding struct: (name, fields).
fn parameters(k: Node, src: &str, prog: &Program) -> Vec<(String, Vec<String>)> {
    let mut d = k.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "function_declarator" {
            break;
        }
        d = x.child_by_field_name("declarator");
    }
    let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return Vec::new() };
    let mut c = list.walk();
    let params: Vec<Node> = list.named_children(&mut c).collect();
    params
        .into_iter()
        .filter_map(|p| {
            let ty = p.child_by_field_name("type")?;
            let decl = p.child_by_field_name("declarator").filter(|d| d.kind() == "identifier")?;
            let name = super::typedefs::strip_qualifiers(text(ty, src));
            let s = prog.pointer_structs.iter().find(|s| s.name == name)?;
            // A member of struct or vector type stays refused (`lower/scope.rs`): left as written.
            let aggregate_member = s.fields.iter().any(|(_, d, pointer)| {
                let t =
                    d.child_by_field_name("type").map(|t| super::typedefs::strip_qualifiers(text(t, src)));
                !pointer && t.is_some_and(|t| is_aggregate(&t, prog))
            });
            (!aggregate_member)
                .then(|| (text(decl, src).to_string(), s.fields.iter().map(|f| f.0.clone()).collect()))
        })
        .collect()
}

/// Whether type name `t` is a struct of the file or a CUDA vector type (`float4`, `uint2`, …).
fn is_aggregate(t: &str, prog: &Program) -> bool {
    let vector = [
        "char",
        "uchar",
        "short",
        "ushort",
        "int",
        "uint",
        "long",
        "ulong",
        "longlong",
        "ulonglong",
        "float",
        "double",
    ]
    .iter()
    .any(|b| t.strip_prefix(b).is_some_and(|n| matches!(n, "1" | "2" | "3" | "4")));
    vector
        || prog.structs.iter().any(|s| s.name == t)
        || prog.pointer_structs.iter().any(|s| s.name == t)
        || prog.other_structs.iter().any(|s| s == t)
}

/// Collects the position of the `.` of every `param.f` in `n`; false when `param` is used in
/// any other way (whole, spaced, an unknown field) or declared again.
fn field_uses(n: Node, src: &str, param: &str, fields: &[String], dots: &mut Vec<usize>) -> bool {
    if n.kind() == "identifier" && text(n, src) == param {
        let Some(parent) = n.parent() else { return false };
        let is_object = parent.kind() == "field_expression"
            && parent.child_by_field_name("argument").is_some_and(|a| a.id() == n.id())
            && parent.child_by_field_name("operator").is_some_and(|o| text(o, src) == ".");
        let field = parent.child_by_field_name("field").map(|f| text(f, src).to_string());
        return match field {
            Some(f) if is_object && fields.contains(&f) && text(parent, src) == format!("{param}.{f}") => {
                dots.push(n.end_byte());
                true
            }
            _ => false,
        };
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children.into_iter().all(|ch| field_uses(ch, src, param, fields, dots))
}

/// Every identifier-like name of the file (to avoid renaming onto an existing name).
fn identifiers(n: Node, src: &str, out: &mut HashSet<String>) {
    if matches!(n.kind(), "identifier" | "field_identifier" | "type_identifier") {
        out.insert(text(n, src).to_string());
    }
    let mut c = n.walk();
    for ch in n.children(&mut c) {
        identifiers(ch, src, out);
    }
}
