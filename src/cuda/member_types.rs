//! Member types of classes and class templates: `typename vec4<T>::Type`, `Traits<float>::acc`.
//!
//! A trait class maps a type to another (`template <typename T> struct vec4 { typedef float4
//! Type; }; template <> struct vec4<int> { typedef int4 Type; };`), and a template kernel
//! spells its types through it. This module collects every member `typedef`/`using` of the
//! file's classes (primary templates and full specializations) and resolves a member type for
//! given arguments to the text of the type it names, which the lowering then reads like any type
//! written there.
//!
//! Guarantees: a member type resolves only to the definition C++ uses. The specialization is
//! chosen when its arguments are *certainly* the given ones, the primary template only when every
//! specialization's arguments are *certainly* different; two type names are certainly the same
//! or different only when both are fundamental types (`consts::fundamental_type`: `unsigned` is `unsigned
//! int`, `uint32_t` is `unsigned int`, `half` is `__half`) or written alike. Anything else — a
//! class with partial specializations, an argument that is a typedef of the file or a class, a
//! value argument — is an error with the reason, never a guess.

use super::consts::fundamental_type;
use super::text;
use std::collections::HashMap;
use tree_sitter::Node;

/// The member types of one class: the primary template's (with its parameters' names) and each
/// full specialization's.
#[derive(Clone, Debug, Default)]
struct Class {
    /// The primary template's parameters (empty for a plain class) and its members.
    primary: Option<(Vec<String>, HashMap<String, String>)>,
    /// Full specializations: arguments as written (normalized) and members.
    specializations: Vec<(Vec<String>, HashMap<String, String>)>,
    /// A partial specialization exists (`template <typename T> struct vec4<T *>`).
    partial: bool,
}

/// The member types of the file's classes, by class name.
#[derive(Clone, Debug, Default)]
pub(crate) struct MemberTypes {
    classes: HashMap<String, Class>,
}

/// Whitespace collapsed, `const`/`volatile` and the `typename`/`struct`/`class` keywords dropped.
pub(crate) fn normalize(t: &str) -> String {
    // `T*` and `T *` are one type.
    let spaced = t.replace('*', " * ").replace('&', " & ");
    spaced
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "typename" | "struct" | "class"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether two type arguments are certainly the same type (`Some(true)`), certainly different
/// (`Some(false)`), or this module cannot tell (`None`).
fn same_type(a: &str, b: &str) -> Option<bool> {
    let (na, nb) = (normalize(a), normalize(b));
    match (fundamental_type(&na), fundamental_type(&nb)) {
        (Some(x), Some(y)) => Some(x == y),
        _ if na == nb => Some(true),
        _ => None,
    }
}

/// The top-level comma-separated items of a template argument list's inside.
pub(crate) fn split_args(inside: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in inside.chars() {
        match ch {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(normalize(&cur));
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(normalize(&cur));
    }
    out
}

/// A member type as written: `typename C<A, B>::M` or `C::M` → (`C`, [`A`, `B`], `M`). `None`
/// when the text is no such name.
pub(crate) fn parse_member_type(t: &str) -> Option<(String, Vec<String>, String)> {
    let t = normalize(t);
    let (scope, member) = t.rsplit_once("::")?;
    let member = member.trim();
    if member.is_empty() || !member.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let scope = scope.trim();
    let (class, args) = match scope.find('<') {
        Some(open) => {
            let inside = scope[open + 1..].strip_suffix('>')?;
            (scope[..open].trim(), split_args(inside))
        }
        None => (scope, Vec::new()),
    };
    // `ns::C<T>::M`: the class is named by its last component.
    let class = class.rsplit("::").next()?.trim();
    if class.is_empty() || !class.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    Some((class.to_string(), args, member.to_string()))
}

impl MemberTypes {
    /// Collects the member types of the classes declared at file scope (and in namespaces).
    pub(crate) fn collect(root: Node, src: &str) -> MemberTypes {
        let mut m = MemberTypes::default();
        m.scan(root, src, None);
        m
    }

    fn scan(&mut self, n: Node, src: &str, tparams: Option<Vec<String>>) {
        let mut c = n.walk();
        let children: Vec<Node> = n.named_children(&mut c).collect();
        for ch in children {
            match ch.kind() {
                "template_declaration" => {
                    let params = ch
                        .child_by_field_name("parameters")
                        .map(|l| {
                            super::program::template_params(l, src).into_iter().map(|p| p.name).collect()
                        })
                        .unwrap_or_default();
                    self.scan(ch, src, Some(params));
                }
                "struct_specifier" | "class_specifier" => self.class(ch, src, tparams.as_deref()),
                "declaration" | "type_definition" => {
                    if let Some(t) = ch.child_by_field_name("type") {
                        if matches!(t.kind(), "struct_specifier" | "class_specifier") {
                            self.class(t, src, tparams.as_deref());
                        }
                    }
                }
                "linkage_specification" | "namespace_definition" | "declaration_list" => {
                    if let Some(b) = ch.child_by_field_name("body") {
                        self.scan(b, src, None);
                    }
                }
                _ => {}
            }
        }
    }

    /// One class definition: its member `typedef`s and `using` aliases.
    fn class(&mut self, s: Node, src: &str, tparams: Option<&[String]>) {
        let (Some(name), Some(body)) = (s.child_by_field_name("name"), s.child_by_field_name("body")) else {
            return;
        };
        let mut members = HashMap::new();
        let mut c = body.walk();
        for d in body.named_children(&mut c) {
            match d.kind() {
                "type_definition" => {
                    let Some(ty) = d.child_by_field_name("type") else { continue };
                    let mut cc = d.walk();
                    for decl in d.children_by_field_name("declarator", &mut cc) {
                        // `typedef float *P;`: the pointer goes with the name.
                        let (stars, id) = match decl.kind() {
                            "type_identifier" => ("", decl),
                            "pointer_declarator" => match decl.child_by_field_name("declarator") {
                                Some(i) if i.kind() == "type_identifier" => (" *", i),
                                _ => continue,
                            },
                            _ => continue,
                        };
                        members.insert(
                            text(id, src).to_string(),
                            format!("{}{stars}", normalize(text(ty, src))),
                        );
                    }
                }
                "alias_declaration" => {
                    if let (Some(n), Some(t)) = (d.child_by_field_name("name"), d.child_by_field_name("type"))
                    {
                        members.insert(text(n, src).to_string(), normalize(text(t, src)));
                    }
                }
                _ => {}
            }
        }
        let (class, args) = match name.kind() {
            "template_type" => {
                let Some(cn) = name.child_by_field_name("name") else { return };
                let args = name
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let t = text(a, src);
                        split_args(t.trim().strip_prefix('<').and_then(|x| x.strip_suffix('>')).unwrap_or(t))
                    })
                    .unwrap_or_default();
                (text(cn, src).to_string(), Some(args))
            }
            _ => (text(name, src).to_string(), None),
        };
        let entry = self.classes.entry(class).or_default();
        match (args, tparams) {
            (Some(_), Some(p)) if !p.is_empty() => entry.partial = true,
            (Some(a), _) => entry.specializations.push((a, members)),
            (None, p) => entry.primary = Some((p.map(<[String]>::to_vec).unwrap_or_default(), members)),
        }
    }

    /// Whether the file defines a class called `name` with member types.
    pub(crate) fn knows(&self, name: &str) -> bool {
        self.classes.contains_key(name)
    }

    /// The text of the type `class<args>::member` names, or why it cannot be told (see the
    /// module doc for when a definition is chosen). `args` are type names as written (already
    /// with the caller's template parameters replaced by their arguments).
    pub(crate) fn resolve(&self, class: &str, args: &[String], member: &str) -> Result<String, String> {
        let shown = || {
            if args.is_empty() {
                format!("`{class}::{member}`")
            } else {
                format!("`{class}<{}>::{member}`", args.join(", "))
            }
        };
        let Some(c) = self.classes.get(class) else {
            return Err(format!("the file defines no class `{class}` with member types"));
        };
        if c.partial {
            return Err(format!(
                "{}: `{class}` has partial specializations, which are not resolved",
                shown()
            ));
        }
        let mut chosen = None;
        for (sargs, members) in &c.specializations {
            if sargs.len() != args.len() {
                continue;
            }
            let verdicts: Vec<Option<bool>> = sargs.iter().zip(args).map(|(s, a)| same_type(s, a)).collect();
            if verdicts.contains(&Some(false)) {
                continue;
            }
            if verdicts.iter().all(|v| *v == Some(true)) {
                chosen = Some(members);
                break;
            }
            return Err(format!(
                "{}: cannot tell whether the specialization `{class}<{}>` applies (only fundamental types are compared)",
                shown(),
                sargs.join(", ")
            ));
        }
        let found = match chosen {
            Some(members) => members.get(member).cloned(),
            None => {
                let Some((params, members)) = &c.primary else {
                    return Err(format!("{}: no specialization of `{class}` matches", shown()));
                };
                if params.len() != args.len() {
                    return Err(format!("{}: `{class}` takes {} template arguments", shown(), params.len()));
                }
                members.get(member).map(|t| substitute(t, params, args))
            }
        };
        found.ok_or_else(|| format!("{}: `{class}` has no member type `{member}`", shown()))
    }
}

/// `t` with each whole-word template parameter replaced by its argument.
fn substitute(t: &str, params: &[String], args: &[String]) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match params.iter().position(|p| p == word) {
            Some(i) => out.push_str(&args[i]),
            None => out.push_str(word),
        }
        word.clear();
    };
    for ch in t.chars() {
        if ch.is_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(src: &str) -> MemberTypes {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
        let tree = p.parse(src, None).unwrap();
        MemberTypes::collect(tree.root_node(), src)
    }

    const TRAITS: &str = "template <typename T> struct vec4 { typedef T Scalar; typedef float4 Type; };\n\
        template <> struct vec4<int> { typedef int4 Type; using Scalar = int; };\n\
        template <> struct vec4<unsigned> { typedef uint4 Type; };\n";

    #[test]
    fn specializations_are_chosen_by_fundamental_type_identity() {
        let m = types(TRAITS);
        assert_eq!(m.resolve("vec4", &["int".into()], "Type"), Ok("int4".into()));
        assert_eq!(m.resolve("vec4", &["int32_t".into()], "Type"), Ok("int4".into()));
        assert_eq!(m.resolve("vec4", &["unsigned int".into()], "Type"), Ok("uint4".into()));
        assert_eq!(m.resolve("vec4", &["float".into()], "Type"), Ok("float4".into()));
        assert_eq!(m.resolve("vec4", &["double".into()], "Scalar"), Ok("double".into()));
    }

    #[test]
    fn unknown_arguments_and_members_are_errors() {
        let m = types(TRAITS);
        // A typedef of the file may be `int`: the specialization might apply.
        assert!(m.resolve("vec4", &["real".into()], "Type").is_err());
        assert!(m.resolve("vec4", &["float".into()], "Nope").is_err());
        assert!(m.resolve("other", &["float".into()], "Type").is_err());
        let partial = types("template <typename T> struct P { typedef T X; };\ntemplate <typename T> struct P<T *> { typedef T X; };\n");
        assert!(partial.resolve("P", &["float".into()], "X").is_err());
    }

    #[test]
    fn member_type_names_parse() {
        assert_eq!(
            parse_member_type("const typename vec4<T>::Type"),
            Some(("vec4".into(), vec!["T".into()], "Type".into()))
        );
        assert_eq!(
            parse_member_type("typename ns::pair<float, unsigned int>::first"),
            Some(("pair".into(), vec!["float".into(), "unsigned int".into()], "first".into()))
        );
        assert_eq!(parse_member_type("Traits::acc"), Some(("Traits".into(), vec![], "acc".into())));
        assert_eq!(parse_member_type("float4"), None);
    }
}
