//! The file-level context a kernel's lowering needs beyond macros and arrays: the device
//! functions it may call (inlined at their call sites), template parameter lists and explicit
//! instantiations, and the `SharedMemory<T>` idiom (a struct whose conversion operator returns an
//! `extern __shared__` array).
//!
//! Guarantees: collection never fails; what it cannot read is left out, so a kernel that uses it
//! gets an error at the use.

use super::text;
use tree_sitter::Node;

/// A template parameter.
#[derive(Clone, Debug)]
pub(crate) struct TParam<'t> {
    pub name: String,
    /// `typename T` / `class T` (a type) or `unsigned int N` (a value, with its type node).
    pub type_node: Option<Node<'t>>,
    /// The default argument, if any.
    pub default: Option<Node<'t>>,
}

/// A function definition at file scope that is not a kernel.
#[derive(Clone, Debug)]
pub(crate) struct FnDef<'t> {
    pub node: Node<'t>,
    pub tparams: Vec<TParam<'t>>,
}

/// A struct or union made of plain data members.
#[derive(Clone, Debug)]
pub(crate) struct StructDef {
    pub name: String,
    /// (field name, type text), in declaration order.
    pub fields: Vec<(String, String)>,
    /// A `union`: every member is the same storage.
    pub union: bool,
}

/// A struct of data members, some of them pointers (see [`Program::pointer_structs`]).
#[derive(Clone, Debug)]
pub(crate) struct PointerStruct<'t> {
    pub name: String,
    /// (field name, its `field_declaration`, whether the field is a pointer), in order.
    pub fields: Vec<(String, Node<'t>, bool)>,
}

/// What the whole file defines for the lowering of its kernels.
#[derive(Default, Debug)]
pub(crate) struct Program<'t> {
    /// Device (and host-device) functions by name, in source order (overloads by arity and by
    /// parameter types, see `lower/overload.rs`); free operator functions as `operator+`.
    pub functions: Vec<(String, FnDef<'t>)>,
    /// Struct name → the `extern __shared__` array its conversion operator returns.
    pub shared_memory: Vec<(String, String)>,
    /// Plain structs and unions: name → fields (name, type text), in declaration order.
    pub structs: Vec<StructDef>,
    /// Structs with other members (pointers, arrays, functions): not modelled, named in errors.
    pub other_structs: Vec<String>,
    /// Structs of data members of which some are pointers (`struct Params { const float *in;
    /// float *out; int n; }`): as a kernel parameter by value, each field is a parameter of its
    /// own (see `cuda/struct_fields.rs`). Also listed in `other_structs`.
    pub pointer_structs: Vec<PointerStruct<'t>>,
    /// Functions declared but not defined in the file (`__device__ float f(float);`): name →
    /// the declaration's parameter list and return type (for calls of opaque functions).
    pub prototypes: Vec<(String, Node<'t>)>,
    /// Legacy texture references (`texture<float, 1> tex;`): name → element type node.
    pub textures: Vec<(String, Node<'t>)>,
    /// Explicit instantiations: (function name, template argument list node).
    pub instantiations: Vec<(String, Node<'t>)>,
    /// Launches with template arguments in host code (`reduce<512><<<g, b>>>(…)`): (kernel
    /// name, template argument list node), in source order.
    pub launched: Vec<(String, Node<'t>)>,
    /// What the file says about the cooperative groups namespace (aliases, `using`).
    pub groups: super::group_names::GroupNames,
}

impl<'t> Program<'t> {
    /// Collects the definitions of the translation unit whose root is `root`.
    pub fn collect(root: Node<'t>, src: &str) -> Program<'t> {
        let mut p = Program::default();
        p.scan(root, src, Vec::new());
        p.launched = super::launch::template_launches(root, src);
        p
    }

    /// The device functions named `name` with `arity` parameters.
    pub fn function(&self, name: &str, arity: usize, src: &str) -> Vec<&FnDef<'t>> {
        self.functions
            .iter()
            .filter(|(n, f)| {
                n == name && required_param_count(f.node, src) <= arity && arity <= param_count(f.node, src)
            })
            .map(|(_, f)| f)
            .collect()
    }

    pub fn has_function(&self, name: &str) -> bool {
        self.functions.iter().any(|(n, _)| n == name)
    }

    /// The extern shared array behind `SharedMemory<T>`-style struct `name`.
    pub fn shared_memory(&self, name: &str) -> Option<&str> {
        self.shared_memory.iter().find(|(n, _)| n == name).map(|(_, a)| a.as_str())
    }

    fn scan(&mut self, n: Node<'t>, src: &str, tparams: Vec<TParam<'t>>) {
        let mut c = n.walk();
        let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
        for ch in children {
            match ch.kind() {
                "function_definition" if !super::has_global(ch, src) => {
                    if let Some(name) = callable_name(ch, src) {
                        let def = FnDef { node: ch, tparams: tparams.clone() };
                        self.functions.push((name, def));
                    }
                }
                "template_declaration" => {
                    let params = ch.child_by_field_name("parameters").map(|l| template_params(l, src));
                    self.scan(ch, src, params.unwrap_or_default());
                }
                "struct_specifier" | "class_specifier" | "union_specifier" => self.structure(ch, src, None),
                "type_definition" => {
                    // `typedef struct {…} T;` (the struct is also named `T`) and
                    // `typedef struct S {…} T;`.
                    if let Some(t) = ch.child_by_field_name("type") {
                        if matches!(t.kind(), "struct_specifier" | "class_specifier" | "union_specifier") {
                            let mut cc = ch.walk();
                            let names: Vec<String> = ch
                                .children_by_field_name("declarator", &mut cc)
                                .filter(|d| d.kind() == "type_identifier")
                                .map(|d| text(d, src).to_string())
                                .collect();
                            if t.child_by_field_name("name").is_some() {
                                self.structure(t, src, None);
                            } else {
                                for name in names {
                                    self.structure(t, src, Some(name));
                                }
                            }
                        }
                    }
                }
                "declaration" => {
                    // `template<…> struct S {…};` parses as a declaration around the struct.
                    if let Some(t) = ch.child_by_field_name("type") {
                        if matches!(t.kind(), "struct_specifier" | "class_specifier" | "union_specifier") {
                            self.structure(t, src, None);
                        }
                        if t.kind() == "template_type"
                            && t.child_by_field_name("name").is_some_and(|n| text(n, src) == "texture")
                        {
                            let elem = t
                                .child_by_field_name("arguments")
                                .and_then(|a| a.named_child(0))
                                .and_then(|d| d.child_by_field_name("type"));
                            let mut cc = ch.walk();
                            for d in ch.children_by_field_name("declarator", &mut cc) {
                                if let (Some(e), "identifier") = (elem, d.kind()) {
                                    self.textures.push((text(d, src).to_string(), e));
                                }
                            }
                        }
                    }
                    let mut cc = ch.walk();
                    let decls: Vec<Node<'t>> = ch.children_by_field_name("declarator", &mut cc).collect();
                    for d in decls {
                        if let Some(name) = prototype_name(d, src) {
                            self.prototypes.push((name, ch));
                        }
                    }
                }
                "namespace_alias_definition" | "using_declaration" => self.groups.declare(ch, src),
                "template_instantiation" => {
                    if let Some((name, args)) = instantiated(ch, src) {
                        self.instantiations.push((name, args));
                    }
                }
                "linkage_specification" | "namespace_definition" | "declaration_list" => {
                    match ch.child_by_field_name("body") {
                        Some(b) if b.kind() == "function_definition" => {
                            self.scan_one(b, src);
                        }
                        Some(b) => self.scan(b, src, Vec::new()),
                        None => self.scan(ch, src, Vec::new()),
                    }
                }
                _ => {}
            }
        }
    }

    fn scan_one(&mut self, f: Node<'t>, src: &str) {
        if !super::has_global(f, src) {
            if let Some(name) = callable_name(f, src) {
                self.functions.push((name, FnDef { node: f, tparams: Vec::new() }));
            }
        }
    }

    /// Records a struct whose conversion operator returns an `extern __shared__` array, and
    /// the fields of a struct made of plain data members.
    fn structure(&mut self, s: Node<'t>, src: &str, typedef_name: Option<String>) {
        let name = match (s.child_by_field_name("name"), typedef_name) {
            (Some(n), _) => text(n, src).to_string(),
            (None, Some(n)) => n,
            (None, None) => return,
        };
        let Some(body) = s.child_by_field_name("body") else { return };
        let mut c = body.walk();
        let members: Vec<Node> = body.named_children(&mut c).collect();
        let mut fields = Vec::new();
        let mut plain = true;
        // Data members that are scalars, structs or pointers to them (one level).
        let mut pointer_fields = Vec::new();
        let mut pointer_data = true;
        for m in &members {
            match m.kind() {
                "field_declaration" => {
                    let ty =
                        m.child_by_field_name("type").map(|t| text(t, src).to_string()).unwrap_or_default();
                    let mut cc = m.walk();
                    let decls: Vec<Node> = m.children_by_field_name("declarator", &mut cc).collect();
                    for d in decls {
                        if d.kind() == "field_identifier" {
                            fields.push((text(d, src).to_string(), ty.clone()));
                            pointer_fields.push((text(d, src).to_string(), *m, false));
                        } else {
                            plain = false;
                            match d.child_by_field_name("declarator") {
                                Some(f)
                                    if d.kind() == "pointer_declarator" && f.kind() == "field_identifier" =>
                                {
                                    pointer_fields.push((text(f, src).to_string(), *m, true));
                                }
                                _ => pointer_data = false,
                            }
                        }
                    }
                }
                "comment" => {}
                _ => {
                    plain = false;
                    pointer_data = false;
                }
            }
        }
        if pointer_data && pointer_fields.iter().any(|f| f.2) {
            self.pointer_structs.push(PointerStruct { name: name.clone(), fields: pointer_fields });
        }
        if plain && !fields.is_empty() {
            let union = s.kind() == "union_specifier";
            self.structs.push(StructDef { name: name.clone(), fields, union });
        } else if !self.shared_memory.iter().any(|(n, _)| *n == name) {
            self.other_structs.push(name.clone());
        }
        for m in members {
            if m.kind() != "function_definition" {
                continue;
            }
            let is_cast = m.child_by_field_name("declarator").is_some_and(|d| d.kind() == "operator_cast");
            if let (true, Some(fb)) = (is_cast, m.child_by_field_name("body")) {
                if let Some(array) = extern_shared_name(fb, src) {
                    let name = name.clone();
                    if !self.shared_memory.iter().any(|(n, _)| *n == name) {
                        self.shared_memory.push((name, array));
                    }
                    return;
                }
            }
        }
    }
}

/// The name a function definition is called by: its identifier, or `operator+` (spaces dropped)
/// for a free operator function (`float4 operator + (float4 a, float4 b)`), which the lowering
/// calls for an operator whose operand is a vector or struct (`lower/overload.rs`).
fn callable_name(f: Node, src: &str) -> Option<String> {
    if let Some(name) = super::function_name(f, src) {
        return Some(name.to_string());
    }
    let mut d = f.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = super::inner_declarator(d)?;
    }
    let name = d.child_by_field_name("declarator")?;
    (name.kind() == "operator_name").then(|| text(name, src).split_whitespace().collect())
}

/// The function name a file-scope declarator declares (`f(float x)`, `*f(int)`), if it is a
/// function declarator.
fn prototype_name(d: Node, src: &str) -> Option<String> {
    let mut cur = d;
    while cur.kind() != "function_declarator" {
        cur = super::inner_declarator(cur)?;
    }
    let name = cur.child_by_field_name("declarator")?;
    (name.kind() == "identifier").then(|| text(name, src).to_string())
}

/// The parameters of a `template <…>` list.
pub(crate) fn template_params<'t>(list: Node<'t>, src: &str) -> Vec<TParam<'t>> {
    let mut out = Vec::new();
    let mut c = list.walk();
    let items: Vec<Node<'t>> = list.named_children(&mut c).collect();
    for p in items {
        let default =
            p.child_by_field_name("default_value").or_else(|| p.child_by_field_name("default_type"));
        match p.kind() {
            "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                let mut cc = p.walk();
                let name = p
                    .child_by_field_name("name")
                    .or_else(|| p.named_children(&mut cc).find(|x| x.kind() == "type_identifier"));
                if let Some(name) = name {
                    out.push(TParam { name: text(name, src).to_string(), type_node: None, default });
                }
            }
            "parameter_declaration" | "optional_parameter_declaration" => {
                let ty = p.child_by_field_name("type");
                let name = p.child_by_field_name("declarator").filter(|d| d.kind() == "identifier");
                if let (Some(ty), Some(name)) = (ty, name) {
                    out.push(TParam { name: text(name, src).to_string(), type_node: Some(ty), default });
                }
            }
            _ => {}
        }
    }
    out
}

/// The number of parameters of a function definition (`(void)` has none).
/// The parameters of `f` without a default argument.
pub(crate) fn required_param_count(f: Node, src: &str) -> usize {
    param_count(f, src) - optional_param_count(f)
}

/// The parameters of `f` with a default argument (`float s = 2.0f`).
fn optional_param_count(f: Node) -> usize {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "function_declarator" {
            break;
        }
        d = super::inner_declarator(x);
    }
    let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return 0 };
    let mut c = list.walk();
    let n = list.named_children(&mut c).filter(|p| p.kind() == "optional_parameter_declaration").count();
    n
}

pub(crate) fn param_count(f: Node, src: &str) -> usize {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "function_declarator" {
            break;
        }
        d = super::inner_declarator(x);
    }
    let Some(list) = d.and_then(|d| d.child_by_field_name("parameters")) else { return 0 };
    let mut c = list.walk();
    let n = list
        .named_children(&mut c)
        .filter(|p| p.kind() != "comment" && text(*p, src).trim() != "void")
        .count();
    n
}

/// `template __global__ void reduce<256, float>(…);` → (`reduce`, `<256, float>`).
fn instantiated<'t>(n: Node<'t>, src: &str) -> Option<(String, Node<'t>)> {
    let mut d = n.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = super::inner_declarator(d)?;
    }
    let tf = d.child_by_field_name("declarator")?;
    if tf.kind() != "template_function" {
        return None;
    }
    let name = tf.child_by_field_name("name")?;
    Some((text(name, src).to_string(), tf.child_by_field_name("arguments")?))
}

/// The name of an `extern __shared__` array declared in a block.
fn extern_shared_name(block: Node, src: &str) -> Option<String> {
    let mut c = block.walk();
    let items: Vec<Node> = block.named_children(&mut c).collect();
    for d in items {
        if d.kind() != "declaration" {
            continue;
        }
        let t = text(d, src);
        if !(t.contains("extern") && t.contains("__shared__")) {
            continue;
        }
        let mut cur = d.child_by_field_name("declarator")?;
        while cur.kind() == "array_declarator" {
            cur = cur.child_by_field_name("declarator")?;
        }
        if cur.kind() == "identifier" {
            return Some(text(cur, src).to_string());
        }
    }
    None
}
