//! File-scope type names: `typedef`s and `using` aliases, `enum`/`enum class` types and their
//! constants.
//!
//! Guarantees: collection never fails; an alias this front end cannot model as a value type (a
//! pointer type, a function pointer, a template alias) is recorded as such, so a use of it is an
//! error naming it rather than a silent misreading — except where a construct gives it a meaning
//! (a function pointer variable or parameter: `lower/fn_ptr.rs`). Enum constants become file constants (`RED` and, for both
//! kinds of enum, `Color::RED`), so they fold like any integer constant.

use super::consts::{const_eval, Ty};
use super::{text, FileInfo, MacroVal};
use std::collections::HashMap;
use tree_sitter::Node;

/// What a file-scope type name stands for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Alias {
    /// A scalar integer or floating type (`typedef unsigned int uint32;`, an enum).
    Scalar(Ty),
    /// A struct, union or vector type, by its (struct) name.
    Struct(String),
    /// A pointer to a function (`typedef float (*op_t)(float);`): never modelled.
    FnPtr,
    /// A pointer to a scalar or struct (`typedef float *fptr;`, `using fptr = const float *;`),
    /// by the pointee type's text; for an alias template (`template <typename T> using ptr =
    /// T *;`) the pointee is its parameter's name.
    Pointer { pointee: String, param: Option<String> },
    /// Something else (a pointer type, an array type, a template): why it is not modelled.
    Other(String),
}

/// Resolves a type name through the scalar names and the file's aliases (depth-limited).
pub(crate) fn resolve(words: &str, aliases: &HashMap<String, Alias>) -> Option<Alias> {
    let mut name = strip_qualifiers(words);
    for _ in 0..32 {
        if let Some(t) = super::lower::ty_from_words(&name) {
            return Some(Alias::Scalar(t));
        }
        match aliases.get(&name) {
            Some(Alias::Struct(s)) if *s != name => match aliases.get(s) {
                Some(_) => name = s.clone(),
                None => return Some(Alias::Struct(s.clone())),
            },
            Some(a) => return Some(a.clone()),
            None => return None,
        }
    }
    None
}

/// A type's text without qualifiers and the `struct`/`union`/`enum` keywords.
pub(crate) fn strip_qualifiers(t: &str) -> String {
    t.split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "__restrict__" | "register" | "struct" | "union" | "enum" | "class"
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl FileInfo {
    /// The type class of a scalar type node, through the file's aliases and enums.
    pub(crate) fn scalar_type(&self, n: Node, src: &str) -> Result<Ty, crate::diag::Diagnostic> {
        if n.kind() == "enum_specifier" {
            return Ok(enum_base(n, src, &self.aliases));
        }
        if matches!(n.kind(), "type_identifier" | "qualified_identifier") {
            match resolve(text(n, src), &self.aliases) {
                Some(Alias::Scalar(t)) => return Ok(t),
                Some(Alias::FnPtr) => {
                    return Err(crate::diag::Diagnostic::error(
                        format!("unsupported: function pointer type `{}`", text(n, src)),
                        super::span(n),
                    ))
                }
                Some(Alias::Other(why)) => {
                    return Err(crate::diag::Diagnostic::error(
                        format!("unsupported: type `{}` ({why})", text(n, src)),
                        super::span(n),
                    ))
                }
                _ => {}
            }
        }
        super::lower::scalar_type(n, src)
    }

    /// Collects the type names and enum constants declared at file scope under `root`.
    pub(crate) fn collect_types(&mut self, root: Node, src: &str) {
        let mut c = root.walk();
        let children: Vec<Node> = root.named_children(&mut c).collect();
        for ch in children {
            match ch.kind() {
                "type_definition" => self.type_definition(ch, src),
                "alias_declaration" => {
                    if let (Some(name), Some(ty)) =
                        (ch.child_by_field_name("name"), ch.child_by_field_name("type"))
                    {
                        let alias = self.alias_of_descriptor(ty, src);
                        self.aliases.insert(text(name, src).to_string(), alias);
                    }
                }
                "enum_specifier" => self.enumeration(ch, src),
                "declaration" => {
                    if let Some(t) = ch.child_by_field_name("type").filter(|t| t.kind() == "enum_specifier") {
                        self.enumeration(t, src);
                    }
                }
                "template_declaration" => {
                    // `template <typename T> using P = T *;`: a pointer to the parameter is
                    // modelled, other template aliases are not.
                    let params = ch
                        .child_by_field_name("parameters")
                        .map(|l| super::program::template_params(l, src))
                        .unwrap_or_default();
                    let mut cc = ch.walk();
                    for a in ch.named_children(&mut cc).filter(|x| x.kind() == "alias_declaration") {
                        let (Some(name), Some(td)) =
                            (a.child_by_field_name("name"), a.child_by_field_name("type"))
                        else {
                            continue;
                        };
                        let alias = match (self.alias_of_descriptor(td, src), &params[..]) {
                            (Alias::Pointer { pointee, .. }, [p]) if p.type_node.is_none() => {
                                Alias::Pointer { pointee, param: Some(p.name.clone()) }
                            }
                            _ => Alias::Other(
                                "a template alias other than `template <typename T> using P = T *;`".into(),
                            ),
                        };
                        self.aliases.insert(text(name, src).to_string(), alias);
                    }
                }
                "linkage_specification" | "namespace_definition" | "declaration_list" => {
                    if let Some(b) = ch.child_by_field_name("body") {
                        self.collect_types(b, src);
                    }
                }
                _ => {}
            }
        }
    }

    /// `typedef T name;`: what `name` stands for. Called for file-scope typedefs.
    fn type_definition(&mut self, d: Node, src: &str) {
        let Some(ty) = d.child_by_field_name("type") else { return };
        if ty.kind() == "enum_specifier" {
            self.enumeration(ty, src);
        }
        let mut c = d.walk();
        let decls: Vec<Node> = d.children_by_field_name("declarator", &mut c).collect();
        for decl in decls {
            let (name, alias) = match decl.kind() {
                "type_identifier" => (decl, self.alias_of_type(ty, src)),
                _ => {
                    let Some(name) = innermost_type_name(decl) else { continue };
                    let alias = if contains_kind(decl, "function_declarator") {
                        Alias::FnPtr
                    } else if decl.kind() == "pointer_declarator"
                        && decl
                            .child_by_field_name("declarator")
                            .is_some_and(|d| d.kind() == "type_identifier")
                    {
                        Alias::Pointer { pointee: text(ty, src).to_string(), param: None }
                    } else {
                        Alias::Other(format!("`{}` is a pointer or array type", text(decl, src)))
                    };
                    (name, alias)
                }
            };
            let name = text(name, src).to_string();
            // `typedef struct S S;` must not become a cycle; an anonymous struct is recorded by
            // `Program` under the typedef's name.
            if alias != Alias::Struct(name.clone()) && alias != Alias::Struct(String::new()) {
                self.aliases.insert(name, alias);
            }
        }
    }

    fn alias_of_descriptor(&self, td: Node, src: &str) -> Alias {
        let decl = td.child_by_field_name("declarator");
        if let (Some(d), Some(t)) = (decl, td.child_by_field_name("type")) {
            if d.kind() == "abstract_pointer_declarator" && d.named_child_count() == 0 {
                return Alias::Pointer { pointee: text(t, src).to_string(), param: None };
            }
        }
        if decl.is_some() {
            return Alias::Other(format!("`{}` is a pointer or array type", text(td, src)));
        }
        match td.child_by_field_name("type") {
            Some(t) => self.alias_of_type(t, src),
            None => Alias::Other(text(td, src).to_string()),
        }
    }

    /// What a type node stands for.
    fn alias_of_type(&self, ty: Node, src: &str) -> Alias {
        match ty.kind() {
            "struct_specifier" | "union_specifier" | "class_specifier" => {
                match ty.child_by_field_name("name") {
                    Some(n) => Alias::Struct(text(n, src).to_string()),
                    // An anonymous struct: `Program` records it under the typedef's name.
                    None => Alias::Struct(String::new()),
                }
            }
            "enum_specifier" => Alias::Scalar(enum_base(ty, src, &self.aliases)),
            _ => {
                let words = strip_qualifiers(text(ty, src));
                match resolve(&words, &self.aliases) {
                    Some(a) => a,
                    None => Alias::Struct(words),
                }
            }
        }
    }

    /// Records an enum type and its constants (C rules: each constant is the previous plus one,
    /// the first 0, unless it has a value).
    pub(crate) fn enumeration(&mut self, e: Node, src: &str) {
        let base = enum_base(e, src, &self.aliases);
        if let Some(name) = e.child_by_field_name("name") {
            self.aliases.insert(text(name, src).to_string(), Alias::Scalar(base));
        }
        let Some(body) = e.child_by_field_name("body") else { return };
        let scope = e.child_by_field_name("name").map(|n| text(n, src).to_string());
        let mut next: Option<i64> = Some(0);
        let mut c = body.walk();
        let items: Vec<Node> = body.named_children(&mut c).filter(|x| x.kind() == "enumerator").collect();
        for item in items {
            let Some(name) = item.child_by_field_name("name") else { continue };
            let value = match item.child_by_field_name("value") {
                Some(v) => {
                    let macros = &self.macros;
                    const_eval(v, src, &mut |n| match macros.get(n) {
                        Some(MacroVal::Const(x)) => Some(*x),
                        _ => None,
                    })
                }
                None => next,
            };
            let val = match value {
                Some(v) => MacroVal::Const(v),
                None => MacroVal::Other("an enum constant whose value is not an integer constant".into()),
            };
            let name = text(name, src).to_string();
            if let Some(s) = &scope {
                self.macros.insert(format!("{s}::{name}"), val.clone());
            }
            self.macros.insert(name, val);
            next = value.and_then(|v| v.checked_add(1));
        }
    }
}

/// The integer type of an enum: its explicit base (`enum class E : unsigned`) or `int`.
fn enum_base(e: Node, src: &str, aliases: &HashMap<String, Alias>) -> Ty {
    match e.child_by_field_name("base") {
        Some(b) => match resolve(text(b, src), aliases) {
            Some(Alias::Scalar(t)) if t != Ty::Float => t,
            _ => Ty::Int,
        },
        None => Ty::Int,
    }
}

fn innermost_type_name(d: Node) -> Option<Node> {
    if d.kind() == "type_identifier" {
        return Some(d);
    }
    let mut c = d.walk();
    let children: Vec<Node> = d.named_children(&mut c).collect();
    children.into_iter().filter(|x| x.kind() != "parameter_list").find_map(innermost_type_name)
}

fn contains_kind(n: Node, kind: &str) -> bool {
    if n.kind() == kind {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    children.into_iter().any(|x| contains_kind(x, kind))
}
