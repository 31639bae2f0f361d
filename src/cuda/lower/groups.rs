//! Cooperative groups (`<cooperative_groups.h>`) in the clang lowering: the grid, the thread
//! block, its tiles and coalesced groups, lowered to what KPL already has.
//!
//! clang resolves the names (namespace aliases at any scope, `using namespace`, `auto`), so a
//! group is recognised by its type (`cooperative_groups::…` once desugared) or by a call of the
//! library's functions, never by spelling. A group is a compile-time fact, not a value: a
//! local or parameter of a group type is bound to its [`Group`] (no KPL statement), and only
//! the idioms below read it:
//! - `this_thread_block()`, `this_grid()`, `coalesced_threads()`, `tiled_partition<N>(b)`,
//!   `tiled_partition(b, N)` of the block (`N` a constant power of two ≤ 32);
//! - `sync` (member or `cg::sync(g)`): `barrier` on the block, `gridsync` on the grid,
//!   `syncwarp` on a tile of 32 (exactly one warp), nothing on smaller tiles and coalesced
//!   groups (their barrier orders part of a warp, which KPL cannot say: ordering nothing only
//!   adds reported races);
//! - ranks and sizes as exact expressions over the launch; a coalesced group's are unknown
//!   per-thread values;
//! - a tile's collectives (`shfl*`, `ballot`, `any`, `all`, `match_any`) and `cg::reduce` /
//!   the scans with the library's function objects: unknown per-thread values (no memory).
//!
//! Every other use of the library (its other groups and members, a group as a value) is
//! refused at its place, naming it.

use super::{strip_callee, Binding, Lx, Node, NodeKind, Ty, R};
use crate::kpl::ast::{BinOp, Builtin, Dim, Expr, StmtKind};

/// The namespace of the library, as clang prints a desugared type.
const NAMESPACE: &str = "cooperative_groups::";

/// A group the lowering models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Group {
    /// The thread block.
    Block,
    /// A tile of `Some(n)` threads (consecutive thread ranks, `n` a power of two ≤ 32), or a
    /// coalesced group (`None`: its members are not known statically).
    Tile(Option<u32>),
    /// The grid.
    Grid,
}

/// What a declared type accepts.
#[derive(Clone, Copy, Debug)]
enum GroupType {
    Is(Group),
    /// `thread_group`: any group.
    Any,
}

impl GroupType {
    fn describe(self) -> String {
        match self {
            GroupType::Is(Group::Block) => "thread_block".into(),
            GroupType::Is(Group::Tile(Some(n))) => format!("thread_block_tile<{n}>"),
            GroupType::Is(Group::Tile(None)) => "coalesced_group".into(),
            GroupType::Is(Group::Grid) => "grid_group".into(),
            GroupType::Any => "thread_group".into(),
        }
    }
}

/// The library's type `ty` names, as (name, template arguments): `const
/// cooperative_groups::thread_block_tile<32, cooperative_groups::thread_block> &` →
/// (`thread_block_tile`, `32, cooperative_groups::thread_block`). `None`: not a type of the
/// library (a pointer to a group is not one either: refused as an unknown type).
fn library_type(ty: &str) -> Option<(&str, &str)> {
    let mut t = ty.trim();
    t = t.strip_suffix('&').unwrap_or(t).trim_end();
    t = t.strip_suffix("const").unwrap_or(t).trim_end();
    t = t.strip_prefix("const ").unwrap_or(t).trim_start();
    t = t.strip_prefix("::").unwrap_or(t);
    let rest = t.strip_prefix(NAMESPACE)?;
    match rest.find('<') {
        Some(i) => Some((rest[..i].trim(), rest[i + 1..].strip_suffix('>')?.trim())),
        None => Some((rest.trim(), "")),
    }
}

/// A number as clang prints a template argument (`16`, `16U`).
fn template_number(s: &str) -> Option<u64> {
    s.trim().trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()
}

/// `tid.x + tid.y * dim.x + tid.z * dim.x * dim.y`-style linear ids, C's row-major order.
fn linear(id: fn(Dim) -> Builtin, dim: fn(Dim) -> Builtin) -> Expr {
    let b = Expr::Builtin;
    let y = Expr::bin(BinOp::Mul, b(id(Dim::Y)), b(dim(Dim::X)));
    let z = Expr::bin(BinOp::Mul, Expr::bin(BinOp::Mul, b(id(Dim::Z)), b(dim(Dim::X))), b(dim(Dim::Y)));
    Expr::bin(BinOp::Add, Expr::bin(BinOp::Add, b(id(Dim::X)), y), z)
}

/// The block's linear thread id.
fn thread_rank() -> Expr {
    linear(Builtin::Tid, Builtin::BlockDim)
}

/// The grid's linear block id.
fn block_rank() -> Expr {
    linear(Builtin::Bid, Builtin::GridDim)
}

fn product(f: fn(Dim) -> Builtin) -> Expr {
    let b = |d| Expr::Builtin(f(d));
    Expr::bin(BinOp::Mul, Expr::bin(BinOp::Mul, b(Dim::X), b(Dim::Y)), b(Dim::Z))
}

/// What a tile's `sync` lowers to: a warp barrier for a tile of 32 (exactly the
/// rank-consecutive threads `syncwarp` orders); nothing for smaller tiles and coalesced groups.
fn tile_sync(size: Option<u32>) -> Option<StmtKind> {
    (size == Some(32)).then_some(StmtKind::Syncwarp)
}

/// Skips what only moves a group around: conversions to a base class, copies, temporaries.
fn strip_group(mut n: &Node) -> &Node {
    loop {
        let through = match &n.kind {
            NodeKind::Paren | NodeKind::ImplicitCast { .. } => true,
            NodeKind::Other { kind } => matches!(
                kind.as_str(),
                "MaterializeTemporaryExpr" | "CXXConstructExpr" | "ExprWithCleanups" | "CXXBindTemporaryExpr"
            ),
            _ => false,
        };
        let mut written = n.children.iter().filter(|c| not_default_arg(c));
        match (through, written.next(), written.next()) {
            (true, Some(c), None) => n = c,
            _ => return n,
        }
    }
}

/// Whether `n` is an argument written in the call (not a default one).
pub(super) fn not_default_arg(n: &Node) -> bool {
    !matches!(&n.kind, NodeKind::Other { kind } if kind == "CXXDefaultArgExpr")
}

/// A value under what only makes it a temporary (`T &&` arguments bind one) and parentheses.
pub(super) fn strip_temporary(n: &Node) -> &Node {
    super::refs::under_temporary(n).0
}

/// The parameter types of a function type as clang prints it (`float (const T &, float &&)`),
/// split at the commas outside brackets.
fn param_types(sig: &str) -> Vec<&str> {
    let Some(close) = sig.rfind(')') else { return Vec::new() };
    let bytes = sig.as_bytes();
    let (mut depth, mut open) = (0i32, None);
    for i in (0..close).rev() {
        match bytes[i] {
            b')' | b'>' | b']' => depth += 1,
            b'<' | b'[' => depth -= 1,
            b'(' if depth == 0 => {
                open = Some(i);
                break;
            }
            b'(' => depth -= 1,
            _ => {}
        }
    }
    let Some(open) = open else { return Vec::new() };
    let inner = &sig[open + 1..close];
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        out.push(inner[start..].trim());
    }
    out
}

impl<'a> Lx<'a> {
    fn named(&self, what: &str, n: &Node) -> crate::diag::Diagnostic {
        self.unsupported(
            format!("cooperative groups `{what}` (only the grid, the thread block, its tiles and coalesced groups are modelled)"),
            n,
        )
    }

    /// The library function a call names and its written arguments: a function clang
    /// resolved to a declaration of our `cooperative_groups` stand-in (no body in the file,
    /// the library's types in its signature). `None`: not a call of the library.
    fn library_call<'n>(&self, n: &'n Node) -> Option<(&'n str, Vec<&'n Node>)> {
        let NodeKind::Call { callee: Some(name) } = &n.kind else { return None };
        let callee = strip_callee(n.children.first()?);
        let NodeKind::DeclRef { decl_id, decl_kind, .. } = &callee.kind else { return None };
        let own = self.model.by_id(decl_id).is_some_and(|f| f.body.is_some());
        let library = callee.ty.as_deref().is_some_and(|t| t.contains(NAMESPACE));
        (decl_kind.contains("Function") && !own && library)
            .then(|| (name.as_str(), n.children[1..].iter().filter(|c| not_default_arg(c)).collect()))
    }

    /// The group `n` denotes: a group variable, or a call of the library making one.
    /// `Ok(None)`: not an expression of the library; `Err` for the library's other groups.
    fn group_of(&mut self, n: &Node) -> R<Option<Group>> {
        let n = strip_group(n);
        if let NodeKind::DeclRef { decl_id, .. } = &n.kind {
            return Ok(self.groups.get(decl_id).copied());
        }
        let Some((name, args)) = self.library_call(n) else { return Ok(None) };
        match (name, args.as_slice()) {
            ("this_thread_block", []) => Ok(Some(Group::Block)),
            ("this_grid", []) => Ok(Some(Group::Grid)),
            ("coalesced_threads", []) => Ok(Some(Group::Tile(None))),
            ("tiled_partition", [b, rest @ ..]) if rest.len() <= 1 => {
                if self.group_of(b)? != Some(Group::Block) {
                    return Err(self.unsupported("a tile of another group than the thread block", n));
                }
                let size = match rest {
                    // `tiled_partition<N>(b)`: `N` as the instance's type prints it.
                    [] => {
                        n.ty.as_deref()
                            .and_then(|t| t.split_once("thread_block_tile<"))
                            .and_then(|(_, a)| template_number(a.split([',', '>']).next().unwrap_or("")))
                    }
                    [k] => self.constant(k),
                    _ => None,
                };
                self.tile_size(size, n).map(|s| Some(Group::Tile(Some(s))))
            }
            _ => Err(self.named(name, n)),
        }
    }

    /// The value of an integer constant expression (`8`, a template argument, a constant of
    /// the file, `TILE * 2` over those); `None` for anything else.
    fn constant(&self, n: &Node) -> Option<u64> {
        match &n.kind {
            NodeKind::IntegerLiteral { value } => value.parse().ok(),
            NodeKind::Constant { value: Some(v) } => v.parse().ok(),
            NodeKind::DeclRef { .. } => match self.binding(n) {
                Some(Binding::Const(init)) => self.constant(&init),
                _ => None,
            },
            NodeKind::Binary { op } => {
                let [a, b] = n.children.as_slice() else { return None };
                let (a, b) = (self.constant(a)?, self.constant(b)?);
                match op.as_str() {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" => a.checked_div(b),
                    "<<" => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)),
                    _ => None,
                }
            }
            NodeKind::Paren | NodeKind::ImplicitCast { .. } | NodeKind::Constant { value: None } => {
                self.constant(n.children.first()?)
            }
            NodeKind::Other { kind } if kind == "SubstNonTypeTemplateParmExpr" => {
                self.constant(n.children.last()?)
            }
            _ => None,
        }
    }

    /// A tile's size: a power of two up to 32 (a tile within one warp).
    fn tile_size(&self, size: Option<u64>, n: &Node) -> R<u32> {
        match size {
            Some(s) if s.is_power_of_two() && s <= 32 => Ok(s as u32),
            Some(s) => {
                Err(self.unsupported(format!("a tile of {s} threads (only powers of two up to 32)"), n))
            }
            None => Err(self.unsupported("a tile size that is not a compile-time constant", n)),
        }
    }

    /// The group type `ty` names (see [`library_type`]); `None`: not a type of the library.
    fn group_type(&self, ty: &str, n: &Node) -> Option<R<GroupType>> {
        let (name, args) = library_type(ty)?;
        Some(match name {
            "thread_block" => Ok(GroupType::Is(Group::Block)),
            "thread_block_tile" => {
                let size = template_number(args.split(',').next().unwrap_or(""));
                self.tile_size(size, n).map(|s| GroupType::Is(Group::Tile(Some(s))))
            }
            "coalesced_group" => Ok(GroupType::Is(Group::Tile(None))),
            "grid_group" => Ok(GroupType::Is(Group::Grid)),
            "thread_group" => Ok(GroupType::Any),
            _ => Err(self.named(name, n)),
        })
    }

    /// The group type of a declaration of type `ty` initialized from `init`. clang desugars
    /// no type under a reference (`const cg::thread_block &` keeps the alias), so a type that
    /// only ends in a group type's name counts when `init` is a group of the library: the
    /// group itself is then known, and the name only checks its kind.
    fn declared_group_type(&mut self, ty: &str, init: Option<&Node>, at: &Node) -> Option<R<GroupType>> {
        if let Some(t) = self.group_type(ty, at) {
            return Some(t);
        }
        let mut t = ty.trim();
        t = t.strip_suffix('&').unwrap_or(t).trim_end();
        t = t.strip_suffix("const").unwrap_or(t).trim_end();
        t = t.strip_prefix("const ").unwrap_or(t).trim_start();
        let base_end = t.find('<').unwrap_or(t.len());
        let name = &t[t[..base_end].rfind("::").map_or(0, |i| i + 2)..];
        let base = name.split('<').next().unwrap_or("");
        let known = ["thread_block", "thread_block_tile", "grid_group", "coalesced_group", "thread_group"];
        if !known.contains(&base) || !matches!(init.map(|i| self.group_of(i)), Some(Ok(Some(_)))) {
            return None;
        }
        self.group_type(&format!("{NAMESPACE}{name}"), at)
    }

    /// The group `a` denotes, which must be of type `want`.
    fn group_arg(&mut self, a: &Node, want: GroupType) -> R<Group> {
        match (self.group_of(a)?, want) {
            (Some(g), GroupType::Any) => Ok(g),
            (Some(g), GroupType::Is(w)) if g == w => Ok(g),
            (_, want) => Err(self.unsupported(
                format!(
                    "this value as a {} (a group of another kind or size, or not the library's)",
                    want.describe()
                ),
                a,
            )),
        }
    }

    /// Hook of `declaration`: a local of a group type (`auto` too), bound to its group.
    /// `None`: not a declaration of the library's types.
    pub(super) fn group_declaration(&mut self, v: &Node) -> Option<R<()>> {
        let NodeKind::Var { id, desugared, storage_class, is_shared, .. } = &v.kind else { return None };
        let ty = desugared.as_deref().or(v.ty.as_deref())?;
        let want = match self.declared_group_type(ty, v.children.first(), v)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        if *is_shared || storage_class.is_some() {
            return Some(
                Err(self.unsupported("a cooperative group with a storage class or `__shared__`", v)),
            );
        }
        let Some(init) = v.children.first() else {
            return Some(Err(self.unsupported("a cooperative group without an initializer", v)));
        };
        Some(self.group_arg(init, want).map(|g| {
            self.groups.insert(id.clone(), g);
        }))
    }

    /// Hook of the inliner: a parameter of a group type (by value or reference) and the group
    /// its argument `a` denotes. `None`: not a parameter of the library's types.
    pub(super) fn group_param(&mut self, ty: &str, a: &Node, at: &Node) -> Option<R<Group>> {
        let want = match self.declared_group_type(ty, Some(a), at)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        Some(self.group_arg(a, want))
    }

    /// Hook of `call`: `cg::sync(g)`, `cg::reduce` and the scans, and every other call of the
    /// library (an error naming it). `None`: not a call of the library.
    pub(super) fn group_call(&mut self, n: &Node, want: bool) -> Option<R<Option<(Expr, Ty)>>> {
        if let Some(r) = self.static_group_method(n, want) {
            return Some(r);
        }
        let (name, args) = self.library_call(n)?;
        Some(match (name, args.as_slice()) {
            ("sync", [g]) => match self.group_of(g) {
                Ok(Some(Group::Block)) => self.group_sync(n, Some(StmtKind::Barrier), want),
                Ok(Some(Group::Tile(size))) => self.group_sync(n, tile_sync(size), want),
                Ok(Some(Group::Grid)) => self.group_sync(n, Some(StmtKind::Gridsync), want),
                Ok(None) => Err(self.unsupported("`sync` of something not known to be a group", g)),
                Err(e) => Err(e),
            },
            ("reduce" | "inclusive_scan" | "exclusive_scan", [g, v, op @ ..]) if op.len() <= 1 => {
                self.tile_reduce(n, name, g, v, !op.is_empty())
            }
            ("this_thread_block" | "this_grid" | "tiled_partition" | "coalesced_threads", _) => {
                Err(self.unsupported(
                    format!("`{name}(…)` here (only as the initializer of a group variable, an argument or the object of a member call)"),
                    n,
                ))
            }
            _ => Err(self.named(name, n)),
        })
    }

    /// `tile.size()` where the method is `static` (`thread_block_tile<32>::size()` is
    /// `static constexpr` in the headers): clang makes it a plain call whose callee is the member
    /// expression, not a method call; it is the group's method all the same. `None`: `n` is no
    /// such call.
    fn static_group_method(&mut self, n: &Node, want: bool) -> Option<R<Option<(Expr, Ty)>>> {
        let callee = n.children.first().map(strip_callee)?;
        let NodeKind::Member { name, arrow: false, .. } = &callee.kind else { return None };
        let obj = callee.children.first()?;
        let args: Vec<&Node> = n.children[1..].iter().filter(|c| not_default_arg(c)).collect();
        match self.group_of(obj) {
            Ok(Some(Group::Tile(size))) => Some(self.tile_method(n, size, name, &args, want)),
            Ok(Some(Group::Block)) => Some(self.block_method(n, name, &args, want)),
            Ok(Some(Group::Grid)) => Some(self.grid_method(n, name, &args, want)),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }

    /// A group's `sync`: `stmt` (a barrier, a warp barrier, or nothing), a statement only.
    fn group_sync(&mut self, n: &Node, stmt: Option<StmtKind>, want: bool) -> R<Option<(Expr, Ty)>> {
        if want {
            return Err(self.unsupported("a group's `sync` inside an expression", n));
        }
        if let Some(s) = stmt {
            self.emit(s);
        }
        Ok(None)
    }

    /// A method call `obj.m(args)` (`want`: its value is used). Only the groups' methods are
    /// lowered.
    pub(super) fn method_call(&mut self, n: &Node, want: bool) -> R<Option<(Expr, Ty)>> {
        let NodeKind::MemberCall { method } = &n.kind else {
            return Err(self.unsupported("this call", n));
        };
        let method = method.as_deref().unwrap_or("");
        let member = n.children.first().map(strip_callee);
        // `p->m()`, `this->m()`: only the file's own methods are called through a pointer.
        if let Some(m) = member.filter(|m| matches!(m.kind, NodeKind::Member { arrow: true, .. })) {
            if let Some(r) = m.children.first().and_then(|obj| self.user_method(n, member, obj)) {
                return r;
            }
        }
        let obj = member
            .filter(|m| matches!(m.kind, NodeKind::Member { arrow: false, .. }))
            .and_then(|m| m.children.first());
        let Some(obj) = obj else {
            return Err(self.unsupported(format!("the method call `.{method}(…)`"), n));
        };
        let args: Vec<&Node> = n.children[1..].iter().filter(|c| not_default_arg(c)).collect();
        if !want {
            if let Some(r) = self.barrier_object_method(obj, method, n) {
                return r.map(|()| None);
            }
            if let Some(r) = self.pipeline_method(obj, method, n) {
                return r.map(|()| None);
            }
        }
        match self.group_of(obj)? {
            Some(Group::Block) => self.block_method(n, method, &args, want),
            Some(Group::Grid) => self.grid_method(n, method, &args, want),
            Some(Group::Tile(size)) => self.tile_method(n, size, method, &args, want),
            None => match self.user_method(n, member, obj) {
                Some(r) => r,
                None => Err(self.unsupported(format!("the method call `.{method}(…)`"), n)),
            },
        }
    }

    fn arity(&self, n: &Node, method: &str, args: &[&Node], k: usize) -> R<()> {
        if args.len() == k {
            return Ok(());
        }
        Err(self.unsupported(format!("`{method}` with {} arguments (it takes {k})", args.len()), n))
    }

    /// The thread block's `sync`, `thread_rank`, `size`/`num_threads`.
    fn block_method(&mut self, n: &Node, method: &str, args: &[&Node], want: bool) -> R<Option<(Expr, Ty)>> {
        self.arity(n, method, args, 0)?;
        match method {
            "sync" => self.group_sync(n, Some(StmtKind::Barrier), want),
            "thread_rank" => Ok(Some((thread_rank(), Ty::UInt))),
            "size" | "num_threads" => Ok(Some((product(Builtin::BlockDim), Ty::UInt))),
            m => Err(self.named(&format!("thread_block::{m}"), n)),
        }
    }

    /// The grid's barrier and exact expressions over the launch (CUDA's `unsigned long long`
    /// results as 32-bit words, like every integer of the model).
    fn grid_method(&mut self, n: &Node, method: &str, args: &[&Node], want: bool) -> R<Option<(Expr, Ty)>> {
        self.arity(n, method, args, 0)?;
        let block_size = product(Builtin::BlockDim);
        let grid_blocks = product(Builtin::GridDim);
        match method {
            "sync" => self.group_sync(n, Some(StmtKind::Gridsync), want),
            "thread_rank" => {
                let r = Expr::bin(BinOp::Add, Expr::bin(BinOp::Mul, block_rank(), block_size), thread_rank());
                Ok(Some((r, Ty::UInt)))
            }
            "size" | "num_threads" => Ok(Some((Expr::bin(BinOp::Mul, grid_blocks, block_size), Ty::UInt))),
            "block_rank" => Ok(Some((block_rank(), Ty::UInt))),
            "num_blocks" => Ok(Some((grid_blocks, Ty::UInt))),
            // Whether the launch was cooperative: unknown, but one value for the whole grid (an
            // opaque call without arguments is the same in every thread).
            "is_valid" => Ok(Some((Expr::Call("cg_grid_is_valid".into(), Vec::new()), Ty::Int))),
            m => Err(self.named(&format!("grid_group::{m}"), n)),
        }
    }

    /// A tile of `size` threads (`None`: a coalesced group): exact where the tile is a fixed
    /// partition of the block by thread rank; collectives are unknown per-thread values.
    fn tile_method(
        &mut self,
        n: &Node,
        size: Option<u32>,
        method: &str,
        args: &[&Node],
        want: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let c = Expr::Const;
        let arity = match method {
            "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" => 2,
            "ballot" | "any" | "all" | "match_any" => 1,
            _ => 0,
        };
        self.arity(n, method, args, arity)?;
        match (method, size) {
            ("sync", _) => self.group_sync(n, tile_sync(size), want),
            ("thread_rank", Some(s)) => Ok(Some((Expr::bin(BinOp::URem, thread_rank(), c(s)), Ty::UInt))),
            ("size" | "num_threads", Some(s)) => Ok(Some((c(s), Ty::UInt))),
            ("meta_group_rank", Some(s)) => Ok(Some((Expr::bin(BinOp::UDiv, thread_rank(), c(s)), Ty::UInt))),
            ("meta_group_size", Some(s)) => {
                let up = Expr::bin(BinOp::Add, product(Builtin::BlockDim), c(s - 1));
                Ok(Some((Expr::bin(BinOp::UDiv, up, c(s)), Ty::UInt)))
            }
            ("thread_rank" | "size" | "num_threads", None) => {
                Ok(Some((self.lane_value(&format!("cg_{method}"), Vec::new()), Ty::UInt)))
            }
            ("shfl" | "shfl_up" | "shfl_down" | "shfl_xor", _) => {
                let (v, ty) = self.rvalue(strip_temporary(args[0]))?;
                let (k, _) = self.rvalue(args[1])?;
                Ok(Some((self.lane_value(&format!("cg_{method}"), vec![v, k]), ty)))
            }
            ("ballot" | "any" | "all" | "match_any", _) => {
                let (v, _) = self.rvalue(strip_temporary(args[0]))?;
                let ty = if matches!(method, "any" | "all") { Ty::Int } else { Ty::UInt };
                Ok(Some((self.lane_value(&format!("cg_{method}"), vec![v]), ty)))
            }
            (m, Some(_)) => Err(self.named(&format!("thread_block_tile::{m}"), n)),
            (m, None) => Err(self.named(&format!("coalesced_group::{m}"), n)),
        }
    }

    /// Hook of member access: a component of a `dim3` a group's method gives
    /// (`b.group_index().x`, `b.thread_index().y`, `b.group_dim().z`, `b.dim_threads().x`,
    /// `g.block_index().x`, `g.dim_blocks().y`): the launch built-in it reads. `None`: not such
    /// an access.
    pub(super) fn group_field(&mut self, n: &Node) -> Option<R<(Expr, Ty)>> {
        let NodeKind::Member { name: field, arrow: false, .. } = &n.kind else { return None };
        let call = strip_temporary(n.children.first()?);
        let NodeKind::MemberCall { method: Some(method) } = &call.kind else { return None };
        let member = strip_callee(call.children.first()?);
        let obj = member
            .children
            .first()
            .filter(|_| matches!(member.kind, NodeKind::Member { arrow: false, .. }))?;
        let d = match field.as_str() {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return None,
        };
        let group = match self.group_of(obj) {
            Ok(g) => g?,
            Err(e) => return Some(Err(e)),
        };
        let b = match (group, method.as_str()) {
            (Group::Block, "thread_index") => Builtin::Tid(d),
            (Group::Block, "group_index") | (Group::Grid, "block_index") => Builtin::Bid(d),
            (Group::Block, "group_dim" | "dim_threads") => Builtin::BlockDim(d),
            (Group::Grid, "dim_blocks") => Builtin::GridDim(d),
            _ => return None,
        };
        (call.children.len() == 1).then_some(Ok((Expr::Builtin(b), Ty::UInt)))
    }

    /// `cg::reduce(t, v, op)`, `cg::inclusive_scan(t, v[, op])`, `cg::exclusive_scan(…)` over a
    /// tile: an unknown per-thread value of `v`'s type. `op` must be one of the library's
    /// function objects (`cg::plus<T>()`, …): anything else could have effects.
    fn tile_reduce(&mut self, n: &Node, m: &str, g: &Node, v: &Node, has_op: bool) -> R<Option<(Expr, Ty)>> {
        if !matches!(self.group_of(g)?, Some(Group::Tile(_))) {
            return Err(
                self.unsupported(format!("`{m}` over this group (only over a tile or coalesced group)"), g)
            );
        }
        if has_op {
            let sig = n.children.first().map(strip_callee).and_then(|c| c.ty.as_deref()).unwrap_or("");
            let op_ty = param_types(sig).get(2).copied().unwrap_or("");
            let functor = library_type(op_ty.trim_end_matches('&').trim_end()).is_some_and(|(name, _)| {
                matches!(name, "plus" | "less" | "greater" | "bit_and" | "bit_or" | "bit_xor")
            });
            if !functor {
                return Err(self.unsupported(
                    format!("the operation of `{m}` (only `plus`, `less`, `greater`, `bit_and`, `bit_or`, `bit_xor` of the library)"),
                    n,
                ));
            }
        }
        let (e, ty) = self.rvalue(strip_temporary(v))?;
        let ty = n.ty.as_deref().and_then(|t| self.scalar_of(t)).unwrap_or(ty);
        Ok(Some((self.lane_value(&format!("cg_{m}"), vec![e]), ty)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_types_are_read_through_qualifiers_and_references() {
        assert_eq!(library_type("const cooperative_groups::thread_block &"), Some(("thread_block", "")));
        assert_eq!(
            library_type("cooperative_groups::thread_block_tile<32, cooperative_groups::thread_block>"),
            Some(("thread_block_tile", "32, cooperative_groups::thread_block"))
        );
        assert_eq!(library_type("cg::thread_block"), None);
        assert_eq!(library_type("float"), None);
        assert_eq!(template_number("16U"), Some(16));
    }

    #[test]
    fn function_types_split_into_parameters() {
        assert_eq!(
            param_types("float (const cooperative_groups::thread_block_tile<32, X> &, float &&, cooperative_groups::plus<float> &&)"),
            vec!["const cooperative_groups::thread_block_tile<32, X> &", "float &&", "cooperative_groups::plus<float> &&"]
        );
        assert!(param_types("void ()").is_empty());
    }
}
