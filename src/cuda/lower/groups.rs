//! Cooperative groups (`<cooperative_groups.h>`): the thread-block idioms, lowered to what KPL
//! already has.
//!
//! Supported: the file-level `namespace cg = cooperative_groups;` and
//! `using namespace cooperative_groups;` ([`Names`], collected by `Program`); locals and
//! device-function parameters of type `thread_block` (qualified, unqualified after `using`, or
//! `auto`; `const` and `&` variants) initialized from `this_thread_block()` or another such
//! variable, bound as [`Binding::Block`](super::Binding) (no KPL statement: the group is the
//! block, a compile-time fact); and on such a group `g` (or `this_thread_block()` itself):
//! - `g.sync()`, `sync(g)` (also unqualified without `using`: argument-dependent lookup) →
//!   `barrier`, exactly like `__syncthreads()` (a statement only);
//! - `g.thread_rank()` → `tid.x + tid.y * bdim.x + tid.z * bdim.x * bdim.y` (unsigned);
//! - `g.size()`, `g.num_threads()` → `bdim.x * bdim.y * bdim.z` (unsigned);
//! - `g.thread_index().x`, `g.group_index().x`, `g.group_dim().x`, `g.dim_threads().x` (and
//!   `.y`, `.z`) → `threadIdx`, `blockIdx`, `blockDim`.
//!
//! Guarantees: every other use of a cooperative-groups name (tiles, grid groups, coalesced
//! groups, collectives, `memcpy_async`, other members of `thread_block`) is an "unsupported"
//! [`Diagnostic`](crate::diag::Diagnostic) naming it at its position; nothing of the library is dropped silently.
//! Unqualified names count as the library's only after `using namespace cooperative_groups;`
//! and only when the kernel defines nothing of that name (its own function or variable wins).

use super::{unsupported, Binding, BoundParam, Lx, R};
use crate::cuda::consts::Ty;
use crate::cuda::text;
use crate::kpl::ast::{BinOp, Builtin, Dim, Expr, StmtKind};
use tree_sitter::Node;

/// The namespace of the library.
const NAMESPACE: &str = "cooperative_groups";

/// Names the library declares (types, functions, operators of `reduce`), so that an unqualified
/// use after `using namespace` gets a diagnostic naming the library rather than "unknown".
const VOCABULARY: &[&str] = &[
    "thread_block",
    "thread_group",
    "thread_block_tile",
    "grid_group",
    "multi_grid_group",
    "coalesced_group",
    "cluster_group",
    "this_thread_block",
    "this_grid",
    "this_multi_grid",
    "this_cluster",
    "tiled_partition",
    "coalesced_threads",
    "labeled_partition",
    "binary_partition",
    "sync",
    "reduce",
    "reduce_update_async",
    "inclusive_scan",
    "exclusive_scan",
    "memcpy_async",
    "wait",
    "wait_prior",
    "invoke_one",
    "invoke_one_broadcast",
    "block_tile_memory",
];

/// What the file says about the library's namespace.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    /// Aliases of `cooperative_groups` (`namespace cg = cooperative_groups;`).
    aliases: Vec<String>,
    /// `using namespace cooperative_groups;` (or of an alias) at file scope.
    using: bool,
}

impl Names {
    /// Records a file-scope `namespace X = cooperative_groups;` or `using namespace …;`; any
    /// other node is ignored.
    pub fn declare(&mut self, n: Node, src: &str) {
        match n.kind() {
            "namespace_alias_definition" => {
                let Some(alias) = n.child_by_field_name("name") else { return };
                let mut c = n.walk();
                let target = n.named_children(&mut c).filter(|x| x.id() != alias.id()).last();
                if target.is_some_and(|t| self.is_namespace(text(t, src))) {
                    self.aliases.push(text(alias, src).to_string());
                }
            }
            "using_declaration" => {
                let mut c = n.walk();
                let is_namespace = n.children(&mut c).any(|x| x.kind() == "namespace");
                let mut c = n.walk();
                let target = n.named_children(&mut c).last();
                if is_namespace && target.is_some_and(|t| self.is_namespace(text(t, src))) {
                    self.using = true;
                }
            }
            _ => {}
        }
    }

    /// Whether `s` (`cooperative_groups`, `::cooperative_groups`, an alias) names the library.
    fn is_namespace(&self, s: &str) -> bool {
        let s = s.trim().trim_start_matches("::").trim();
        s == NAMESPACE || self.aliases.iter().any(|a| a == s)
    }

    /// The library member `n` names (`cg::sync` → `sync`, `cg::tiled_partition<32>` →
    /// `tiled_partition`; after `using namespace`, a plain `sync` of the vocabulary), if any.
    /// Plain names are not checked against the kernel's own definitions here: see
    /// [`Lx::group_member`].
    fn member<'s>(&self, n: Node, src: &'s str) -> Option<&'s str> {
        match n.kind() {
            "qualified_identifier" => {
                let scope = n.child_by_field_name("scope")?;
                let name = n.child_by_field_name("name")?;
                if !self.is_namespace(text(scope, src)) {
                    return None;
                }
                Some(base_name(name, src))
            }
            "identifier" | "type_identifier" | "template_function" | "template_type" if self.using => {
                let b = base_name(n, src);
                VOCABULARY.contains(&b).then_some(b)
            }
            _ => None,
        }
    }
}

/// `tiled_partition<32>` → `tiled_partition`; a nested `experimental::x` stays as written.
fn base_name<'s>(n: Node, src: &'s str) -> &'s str {
    match n.kind() {
        "template_function" | "template_type" => n.child_by_field_name("name").map_or("", |x| text(x, src)),
        _ => text(n, src),
    }
}

/// `tid.x + tid.y * bdim.x + tid.z * bdim.x * bdim.y`: the block's linear thread id.
fn thread_rank() -> Expr {
    let b = |x| Expr::Builtin(x);
    let bx = || b(Builtin::BlockDim(Dim::X));
    let y = Expr::bin(BinOp::Mul, b(Builtin::Tid(Dim::Y)), bx());
    let z = Expr::bin(
        BinOp::Mul,
        Expr::bin(BinOp::Mul, b(Builtin::Tid(Dim::Z)), bx()),
        b(Builtin::BlockDim(Dim::Y)),
    );
    Expr::bin(BinOp::Add, Expr::bin(BinOp::Add, b(Builtin::Tid(Dim::X)), y), z)
}

/// `bdim.x * bdim.y * bdim.z`: the number of threads of the block.
fn block_size() -> Expr {
    let b = |d| Expr::Builtin(Builtin::BlockDim(d));
    Expr::bin(BinOp::Mul, Expr::bin(BinOp::Mul, b(Dim::X), b(Dim::Y)), b(Dim::Z))
}

/// A `dim3`-valued member of `thread_block`: the launch builtin it reads.
fn dim3_member(method: &str, d: Dim) -> Option<Builtin> {
    match method {
        "thread_index" => Some(Builtin::Tid(d)),
        "group_index" => Some(Builtin::Bid(d)),
        "group_dim" | "dim_threads" => Some(Builtin::BlockDim(d)),
        _ => None,
    }
}

/// The error for a `thread_block` variable used as a value (`x = g`, `g[i]`).
pub(super) fn block_as_value(name: &str, n: Node) -> crate::diag::Diagnostic {
    unsupported(
        format!("the thread block group `{name}` as a value (only `{name}.sync()`, `{name}.thread_rank()`, … and as an argument)"),
        n,
    )
}

/// The error for a use of the library beyond the `thread_block` idioms, naming it.
pub(super) fn named(what: &str, n: Node) -> crate::diag::Diagnostic {
    unsupported(format!("cooperative groups `{what}` (only the `thread_block` idioms are modelled)"), n)
}

impl<'t> Lx<'_, 't> {
    /// The library member `n` names, unless the kernel's own function or variable of that
    /// name is meant.
    fn group_member<'s>(&self, n: Node, src: &'s str) -> Option<&'s str> {
        let m = self.prog.groups.member(n, src)?;
        let own =
            n.kind() != "qualified_identifier" && (self.lookup(m).is_some() || self.prog.has_function(m));
        (!own).then_some(m)
    }

    /// The library member `n` names (see [`Names::member`]), for the error of an expression the
    /// lowering does not know otherwise (`cg::thread_block_tile<32> t = …` parses as a
    /// comparison).
    pub(super) fn group_name(&self, n: Node) -> Option<&str> {
        self.group_member(n, self.src)
    }

    /// Whether `n` is the thread block group: a variable bound to it or `this_thread_block()`.
    /// `Err` when it is some other group of the library (a tile, the grid, …), named.
    fn is_block(&self, n: Node) -> R<bool> {
        let n = super::strip_parens(n);
        match n.kind() {
            "identifier" if matches!(self.lookup(text(n, self.src)), Some(Binding::Block)) => Ok(true),
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function") else { return Ok(false) };
                match self.group_member(f, self.src) {
                    Some("this_thread_block") if self.args(n).is_empty() => Ok(true),
                    Some(_) => Err(named(text(f, self.src), f)),
                    None => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }

    fn block_arg(&self, n: Node) -> R<()> {
        if self.is_block(n)? {
            return Ok(());
        }
        Err(unsupported(
            format!(
                "`{}` as a thread block (only `this_thread_block()` and `thread_block` variables)",
                text(n, self.src)
            ),
            n,
        ))
    }

    /// Whether the type node names the library's `thread_block`; `Err` for its other types.
    /// `None`: not a type of the library.
    fn group_type(&self, ty: Node) -> Option<R<()>> {
        match self.group_member(ty, self.src)? {
            "thread_block" => Some(Ok(())),
            _ => Some(Err(named(text(ty, self.src), ty))),
        }
    }

    /// Hook of `declaration`: a `thread_block` local (or `auto` one initialized from the
    /// block). `None`: not a declaration of the library's types.
    pub(super) fn group_declaration(&mut self, n: Node, ty: Node, storage: bool) -> Option<R<()>> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        if ty.kind() == "placeholder_type_specifier" {
            // `auto g = cg::this_thread_block();`: ours only when the value is the library's.
            let value = decls.first().and_then(|d| d.child_by_field_name("value"))?;
            match self.is_block(value) {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => return Some(Err(e)),
            }
        } else if let Err(e) = self.group_type(ty)? {
            return Some(Err(e));
        }
        Some(self.block_locals(n, &decls, storage))
    }

    fn block_locals(&mut self, n: Node, decls: &[Node], storage: bool) -> R<()> {
        if storage {
            return Err(unsupported("a `thread_block` with a storage class or `__shared__`", n));
        }
        for d in decls {
            let (Some(name), Some(value)) =
                (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
            else {
                return Err(unsupported("a `thread_block` without an initializer", *d));
            };
            let name = match name.kind() {
                "reference_declarator" => name.named_child(0).unwrap_or(name),
                _ => name,
            };
            if name.kind() != "identifier" {
                return Err(unsupported(format!("the declarator `{}`", text(name, self.src)), name));
            }
            self.block_arg(value)?;
            self.bind(text(name, self.src), Binding::Block);
        }
        Ok(())
    }

    /// Hook of the inliner: a `thread_block` parameter (by value or reference) bound to the
    /// block argument `a`. `None`: not a parameter of the library's types.
    pub(super) fn group_param(&mut self, p: Node, a: Node) -> Option<R<BoundParam>> {
        let ty = p.child_by_field_name("type")?;
        if let Err(e) = self.group_type(ty)? {
            return Some(Err(e));
        }
        let mut decl = p.child_by_field_name("declarator");
        if let Some(d) = decl.filter(|d| d.kind() == "reference_declarator") {
            decl = d.named_child(0);
        }
        let Some(name) = decl.filter(|d| d.kind() == "identifier") else {
            return Some(Err(unsupported(format!("the parameter `{}`", text(p, self.src)), p)));
        };
        Some(
            self.block_arg(a).map(|()| BoundParam::Alias {
                cname: text(name, self.src).to_string(),
                binding: Binding::Block,
            }),
        )
    }

    /// Hook of `call`: `g.sync()`, `sync(g)`, `g.thread_rank()`, `g.size()`, and every other
    /// call of the library (an error naming it). `None`: not a call of the library.
    pub(super) fn group_call(&mut self, n: Node, used: bool) -> Option<R<Option<(Expr, Ty)>>> {
        let f = n.child_by_field_name("function")?;
        let src = self.src;
        let args = self.args(n);
        let barrier = |s: &mut Self| {
            if used {
                return Err(unsupported(format!("`{}` inside an expression", text(n, src)), n));
            }
            s.emit(StmtKind::Barrier);
            Ok(None)
        };
        if f.kind() == "field_expression" {
            let obj = f.child_by_field_name("argument")?;
            let method = f.child_by_field_name("field").map_or("", |x| text(x, src));
            match self.is_block(obj) {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => return Some(Err(e)),
            }
            if !args.is_empty() {
                return Some(Err(unsupported(format!("`{}` with arguments", text(f, src)), n)));
            }
            return Some(match method {
                "sync" => barrier(self),
                "thread_rank" => Ok(Some((thread_rank(), Ty::UInt))),
                "size" | "num_threads" => Ok(Some((block_size(), Ty::UInt))),
                m if dim3_member(m, Dim::X).is_some() => Err(unsupported(
                    format!("the `dim3` value `{}` (only its fields `.x`, `.y`, `.z`)", text(n, src)),
                    n,
                )),
                m => Err(named(&format!("thread_block::{m}"), f)),
            });
        }
        let adl = f.kind() == "identifier"
            && text(f, src) == "sync"
            && self.lookup("sync").is_none()
            && !self.prog.has_function("sync")
            && matches!(&args[..], [g] if matches!(self.is_block(*g), Ok(true)));
        let m = match self.group_member(f, src) {
            Some(m) => m,
            // `sync(b)` without `cg::` or `using`: C++ finds the library's `sync` by
            // argument-dependent lookup on the `thread_block` argument.
            None if adl => "sync",
            None => return None,
        };
        Some(match (m, &args[..]) {
            ("sync", [g]) => self.block_arg(*g).and_then(|()| barrier(self)),
            ("this_thread_block", []) => Err(unsupported(
                "`this_thread_block()` here (only as the initializer of a `thread_block`, the argument of `sync` or a member call)",
                n,
            )),
            _ => Err(named(text(f, src), f)),
        })
    }

    /// Hook of member access: `g.thread_index().x`, `g.group_index().y`, `g.group_dim().z`,
    /// `g.dim_threads().x`. `None`: not such an access.
    pub(super) fn group_field(&self, n: Node) -> Option<R<(Expr, Ty)>> {
        let call = super::strip_parens(n.child_by_field_name("argument")?);
        let f = call.child_by_field_name("function").filter(|_| call.kind() == "call_expression")?;
        let obj = f.child_by_field_name("argument").filter(|_| f.kind() == "field_expression")?;
        let method = f.child_by_field_name("field").map_or("", |x| text(x, self.src));
        let d = match n.child_by_field_name("field").map_or("", |x| text(x, self.src)) {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return None,
        };
        let b = dim3_member(method, d)?;
        match self.is_block(obj) {
            Ok(true) if self.args(call).is_empty() => Some(Ok((Expr::Builtin(b), Ty::UInt))),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        }
    }
}
