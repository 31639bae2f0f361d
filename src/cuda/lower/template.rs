//! Template instances: binding template parameters from explicit instantiations or `--template-arg`.

use super::*;

/// Template type parameters in scope: each one's type class and, when known, the name of the
/// type it stands for (normalized: `float`, `unsigned int`), which picks a class template's
/// specialization (`typename vec4<T>::Type`, `member_types`).
#[derive(Clone, Debug, Default)]
pub(super) struct TypeArgs {
    classes: HashMap<String, Ty>,
    names: HashMap<String, String>,
}

impl TypeArgs {
    /// The type class `name` stands for.
    pub(super) fn get(&self, name: &str) -> Option<&Ty> {
        self.classes.get(name)
    }

    /// The type name `name` stands for, when known.
    pub(super) fn name(&self, name: &str) -> Option<&str> {
        self.names.get(name).map(String::as_str)
    }

    /// Binds `name` to the vector or struct type `type_name` (no scalar class).
    pub(super) fn insert_aggregate(&mut self, name: String, type_name: String) {
        self.classes.remove(&name);
        self.names.insert(name, type_name);
    }

    /// Binds `name` to a type of class `ty`, named `type_name` when known.
    pub(super) fn insert(&mut self, name: String, ty: Ty, type_name: Option<String>) {
        match type_name {
            Some(t) => self.names.insert(name.clone(), t),
            None => self.names.remove(&name),
        };
        self.classes.insert(name, ty);
    }

    /// The bindings in a stable order, for telling instances apart.
    pub(super) fn key(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .classes
            .keys()
            .chain(self.names.keys().filter(|n| !self.classes.contains_key(*n)))
            .map(|n| {
                let class = self.classes.get(n).map_or(String::new(), |t| format!("{t:?}"));
                format!("{n}={class}:{}", self.names.get(n).map_or("", String::as_str))
            })
            .collect();
        v.sort();
        v
    }
}

/// The template arguments of one instantiation.
#[derive(Clone, Debug, Default)]
pub(super) struct Instance {
    pub(super) types: TypeArgs,
    pub(super) values: Vec<(String, u32, Ty)>,
    /// The arguments as written, for the kernel's name.
    pub(super) shown: Vec<String>,
}

/// Binds template parameters to the argument nodes of `<…>` (missing ones from defaults).
/// `env` resolves names in the arguments (the caller's template parameters).
pub(super) fn instance_from_nodes(
    tparams: &[TParam],
    args: Node,
    src: &str,
    file: &FileInfo,
    env: Option<ArgEnv>,
) -> R<Instance> {
    let mut c = args.walk();
    let items: Vec<Node> = args.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
    if items.len() > tparams.len() {
        return Err(unsupported(
            format!("{} template arguments for {} parameters", items.len(), tparams.len()),
            args,
        ));
    }
    let mut inst = Instance::default();
    for (i, p) in tparams.iter().enumerate() {
        let node = items.get(i).copied().or(p.default);
        let Some(node) = node else {
            return Err(Diagnostic::error(
                format!("no value for template parameter `{}`", p.name),
                span(args),
            ));
        };
        let arg = template_arg(node, src, file, env)?;
        inst.bind(p, arg, node, src)?;
        inst.shown.push(text(node, src).split_whitespace().collect::<Vec<_>>().join(" "));
    }
    Ok(inst)
}

/// Binds a template kernel's parameters from `--template-arg NAME=VALUE` (or their defaults).
pub(super) fn instance_from_flags(
    tparams: &[TParam],
    flags: &[(String, String)],
    src: &str,
    file: &FileInfo,
    f: Node,
) -> R<Instance> {
    let mut inst = Instance::default();
    let kname = crate::cuda::function_name(f, src).unwrap_or("kernel");
    for p in tparams {
        let given = flags.iter().rev().find(|(n, _)| *n == p.name).map(|(_, v)| v.trim());
        let (arg, shown) = match (given, p.default) {
            (Some(v), _) => {
                let arg = match p.type_node {
                    None => match ty_from_words(v) {
                        Some(t) => Arg::Type(t, Some(crate::cuda::member_types::normalize(v))),
                        // `--template-arg T=float4`, `T=Particle`: a vector or struct type.
                        None if !v.is_empty() && v.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                            Arg::Aggregate(v.to_string())
                        }
                        None => {
                            return Err(Diagnostic::error(
                                format!("--template-arg {}={v}: `{v}` is not a type this front end models (a scalar, vector or struct type name)", p.name),
                                span(f),
                            ))
                        }
                    },
                    Some(_) => {
                        let value = match parse_number(v) {
                            Some(Lit::Int(x, _)) => Some(i64::from(x)),
                            _ => match file.macros.get(v) {
                                Some(MacroVal::Const(x)) => Some(*x),
                                _ => None,
                            },
                        };
                        Arg::Value(value.ok_or_else(|| {
                            Diagnostic::error(
                                format!("--template-arg {}={v}: not an integer constant", p.name),
                                span(f),
                            )
                        })?)
                    }
                };
                (arg, v.to_string())
            }
            (None, Some(d)) => (template_arg(d, src, file, None)?, text(d, src).to_string()),
            // A type parameter with no value: analysed once for every type, `T` an opaque word
            // whose arithmetic, comparisons and conversions are uninterpreted functions (what
            // floats are): every fact the oracle uses about a `T` value holds for any type.
            (None, None) if p.type_node.is_none() => (Arg::Type(Ty::Float, None), p.name.clone()),
            (None, None) => {
                return Err(Diagnostic::error(
                    format!(
                        "template kernel `{kname}` has no instantiation and no value for template parameter `{}`",
                        p.name
                    ),
                    span(f),
                )
                .with_label("template kernel")
                .with_note(format!(
                    "add an explicit instantiation (`template __global__ void {kname}<…>(…);`) or pass `--template-arg {}=VALUE`",
                    p.name
                )))
            }
        };
        inst.bind(p, arg, f, src)?;
        inst.shown.push(shown);
    }
    Ok(inst)
}

/// Resolves names in template arguments (the caller's template parameters).
pub(super) type ArgEnv<'e> = &'e dyn Fn(&str) -> Option<Arg>;

/// A template argument's meaning.
#[derive(Clone, Debug)]
pub(super) enum Arg {
    /// A type: its class and, when known, its name (normalized, `member_types::normalize`).
    Type(Ty, Option<String>),
    /// A vector or struct type, by name (`float4`, `Particle`): the lowering resolves it where
    /// the parameter is used, and refuses it where a scalar is needed.
    Aggregate(String),
    /// An integer value as the program states it (negative values stay negative until
    /// [`Instance::bind`] turns the value into a 32-bit word).
    Value(i64),
}

impl Instance {
    pub(super) fn bind(&mut self, p: &TParam, arg: Arg, at: Node, src: &str) -> R<()> {
        match (p.type_node, arg) {
            (None, Arg::Type(t, name)) => {
                self.types.insert(p.name.clone(), t, name);
            }
            (None, Arg::Aggregate(name)) => self.types.insert_aggregate(p.name.clone(), name),
            (Some(tn), Arg::Value(v)) => {
                let ty = scalar_type(tn, src)?;
                if ty == Ty::Float {
                    return Err(unsupported(format!("the floating template parameter `{}`", p.name), tn));
                }
                // The word of a value in the range of `int` or `unsigned` (two's complement for
                // negative ones); a wider value would not be the program's.
                let word =
                    u32::try_from(v).ok().or_else(|| i32::try_from(v).ok().map(|w| w as u32)).ok_or_else(
                        || unsupported(format!("the value {v} of `{}` (wider than 32 bits)", p.name), at),
                    )?;
                self.values.push((p.name.clone(), word, ty));
            }
            (None, Arg::Value(_)) => {
                return Err(unsupported(format!("a value for the type parameter `{}`", p.name), at))
            }
            (Some(_), Arg::Type(..) | Arg::Aggregate(_)) => {
                return Err(unsupported(format!("a type for the value parameter `{}`", p.name), at))
            }
        }
        Ok(())
    }
}

/// Reads one template argument: a type, or an integer constant expression.
pub(super) fn template_arg(n: Node, src: &str, file: &FileInfo, env: Option<ArgEnv>) -> R<Arg> {
    let lookup = |name: &str| env.and_then(|e| e(name));
    if n.kind() == "type_descriptor" {
        let t = n.child_by_field_name("type").ok_or_else(|| unsupported("template argument", n))?;
        if n.child_by_field_name("declarator").is_some() {
            return Err(unsupported(format!("template argument `{}`", text(n, src)), n));
        }
        // `f<blockSize>` parses as a type; a name bound to a value (or macro) is a value.
        if t.kind() == "type_identifier" {
            let name = text(t, src);
            if let Some(a) = lookup(name) {
                return Ok(a);
            }
            if let Some(MacroVal::Const(v)) = file.macros.get(name) {
                return Ok(Arg::Value(*v));
            }
        }
        let name = crate::cuda::member_types::normalize(text(t, src));
        return match scalar_type(t, src) {
            Ok(ty) => Ok(Arg::Type(ty, Some(name))),
            // `k<float4>`, `k<Particle>`: a named type that is no scalar.
            Err(_) if t.kind() == "type_identifier" => Ok(Arg::Aggregate(name)),
            Err(e) => Err(e),
        };
    }
    let mut resolve = |name: &str| match lookup(name) {
        Some(Arg::Value(v)) => Some(v),
        _ => match file.macros.get(name) {
            Some(MacroVal::Const(v)) => Some(*v),
            _ => None,
        },
    };
    const_eval(n, src, &mut resolve).map(Arg::Value).ok_or_else(|| {
        unsupported(format!("template argument `{}` (not an integer constant)", text(n, src)), n)
    })
}
