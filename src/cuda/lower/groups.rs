//! Cooperative groups (`<cooperative_groups.h>`): the thread-block and tile idioms, lowered to
//! what KPL already has.
//!
//! Supported: the file-level `namespace cg = cooperative_groups;` and
//! `using namespace cooperative_groups;` ([`GroupNames`](crate::cuda::group_names::GroupNames), collected by `Program`); locals and
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
//! - tiles of the block: `thread_block_tile<N> t = tiled_partition<N>(b)`,
//!   `thread_group t = tiled_partition(b, N)` (`N` a constant power of two ≤ 32; also `auto`,
//!   and as device-function parameters) bound as `Binding::Tile(Some(N))`: `t.thread_rank()` →
//!   `rank % N`, `t.size()` → `N`, `t.meta_group_rank()` → `rank / N`, `t.meta_group_size()`;
//!   `t.sync()` / `sync(t)` → `syncwarp` when `N = 32` (the tile is one warp), nothing for smaller
//!   tiles (orders nothing: only adds reported races); `t.shfl*`, `t.ballot`, `t.any`, `t.all`,
//!   `t.match_any`, `reduce(t, v, plus<T>())` (and the other function objects of the library),
//!   `inclusive_scan`, `exclusive_scan` → unknown per-thread values (`warp.rs`);
//! - `coalesced_threads()` (`Binding::Tile(None)`): its `sync` orders nothing, its rank and size
//!   and collectives are unknown per-thread values.
//! - the grid: `grid_group g = this_grid()` (also `auto`, and as device-function parameters)
//!   bound as `Binding::Grid`; `g.sync()`, `this_grid().sync()`, `sync(g)` → `gridsync` (the grid
//!   barrier); `g.thread_rank()` → `block_rank * block_size + rank`, `g.size()` /
//!   `g.num_threads()`, `g.block_rank()`, `g.num_blocks()`, `g.block_index().x`,
//!   `g.dim_blocks().x` → exact expressions over the launch (32-bit words, like every integer);
//!   `g.is_valid()` → an unknown value, the same in every thread of the grid.
//!
//! Guarantees: every other use of a cooperative-groups name (multi-grid groups, clusters, labeled or
//! binary partitions, tiles of tiles, `memcpy_async`, other members such as `group_dim`) is an "unsupported"
//! [`Diagnostic`](crate::diag::Diagnostic) naming it at its position; nothing of the library is dropped silently.
//! Unqualified names count as the library's only after `using namespace cooperative_groups;`
//! and only when the kernel defines nothing of that name (its own function or variable wins).

use super::{unsupported, Binding, BoundParam, Lx, R};
use crate::cuda::consts::{const_eval, Ty};
use crate::cuda::text;
use crate::kpl::ast::{BinOp, Builtin, Dim, Expr, StmtKind};
use tree_sitter::Node;

/// `id.x + id.y * dim.x + id.z * dim.x * dim.y`: a linear id, C's row-major order.
fn linear(id: fn(Dim) -> Builtin, dim: fn(Dim) -> Builtin) -> Expr {
    let b = |x| Expr::Builtin(x);
    let y = Expr::bin(BinOp::Mul, b(id(Dim::Y)), b(dim(Dim::X)));
    let z = Expr::bin(BinOp::Mul, Expr::bin(BinOp::Mul, b(id(Dim::Z)), b(dim(Dim::X))), b(dim(Dim::Y)));
    Expr::bin(BinOp::Add, Expr::bin(BinOp::Add, b(id(Dim::X)), y), z)
}

/// `tid.x + tid.y * bdim.x + tid.z * bdim.x * bdim.y`: the block's linear thread id.
fn thread_rank() -> Expr {
    linear(Builtin::Tid, Builtin::BlockDim)
}

/// `bid.x + bid.y * gdim.x + bid.z * gdim.x * gdim.y`: the grid's linear block id.
fn block_rank() -> Expr {
    linear(Builtin::Bid, Builtin::GridDim)
}

/// `gdim.x * gdim.y * gdim.z`: the number of blocks of the grid.
fn grid_blocks() -> Expr {
    let g = |d| Expr::Builtin(Builtin::GridDim(d));
    Expr::bin(BinOp::Mul, Expr::bin(BinOp::Mul, g(Dim::X), g(Dim::Y)), g(Dim::Z))
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

/// A `dim3`-valued member of `grid_group`: the launch builtin it reads.
fn grid_dim3_member(method: &str, d: Dim) -> Option<Builtin> {
    match method {
        "block_index" => Some(Builtin::Bid(d)),
        "dim_blocks" => Some(Builtin::GridDim(d)),
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
    unsupported(
        format!("cooperative groups `{what}` (only the grid, the thread block, its tiles and coalesced groups are modelled)"),
        n,
    )
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

    /// The library member `n` names (see [`GroupNames::member`](crate::cuda::group_names::GroupNames::member)), for the error of an expression the
    /// lowering does not know otherwise (`cg::thread_block_tile<32> t = …` parses as a
    /// comparison).
    pub(super) fn group_name(&self, n: Node) -> Option<&str> {
        self.group_member(n, self.src)
    }

    /// The group `n` denotes: a variable bound to one, `this_thread_block()`,
    /// `tiled_partition<N>(b)` / `tiled_partition(b, N)` of the block, `coalesced_threads()`.
    /// `Ok(None)`: not an expression of the library; `Err` for its other groups (the grid, …),
    /// named.
    fn group_of(&self, n: Node) -> R<Option<Group>> {
        let n = super::strip_parens(n);
        match n.kind() {
            "identifier" => Ok(match self.lookup(text(n, self.src)) {
                Some(Binding::Block) => Some(Group::Block),
                Some(Binding::Tile(size)) => Some(Group::Tile(*size)),
                Some(Binding::Grid) => Some(Group::Grid),
                _ => None,
            }),
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function") else { return Ok(None) };
                let args = self.args(n);
                match (self.group_member(f, self.src), &args[..]) {
                    (Some("this_thread_block"), []) => Ok(Some(Group::Block)),
                    (Some("this_grid"), []) => Ok(Some(Group::Grid)),
                    (Some("coalesced_threads"), []) => Ok(Some(Group::Tile(None))),
                    (Some("tiled_partition"), [b, rest @ ..]) => {
                        if self.group_of(*b)? != Some(Group::Block) {
                            return Err(unsupported(
                                format!(
                                    "`{}`: only tiles of the thread block are modelled",
                                    text(n, self.src)
                                ),
                                n,
                            ));
                        }
                        let size = match (rest, first_template_arg(f)) {
                            ([], Some(a)) => a,
                            ([a], None) => *a,
                            _ => return Err(named(text(f, self.src), f)),
                        };
                        self.tile_size(size).map(|s| Some(Group::Tile(Some(s))))
                    }
                    (Some(_), _) => Err(named(text(f, self.src), f)),
                    (None, _) => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// The constant size of a tile: a power of two up to 32 (a tile within one warp).
    fn tile_size(&self, n: Node) -> R<u32> {
        let src = self.src;
        let v = match n.kind() {
            // `tiled_partition<N>` with a template value parameter `N` parses as a type.
            "type_descriptor" => self.const_value(text(n, src).trim()),
            _ => const_eval(n, src, &mut |name| self.const_value(name)),
        }
        .and_then(|v| u32::try_from(v).ok());
        match v {
            Some(s) if s.is_power_of_two() && s <= 32 => Ok(s),
            Some(s) => Err(unsupported(format!("a tile of {s} threads (only powers of two up to 32)"), n)),
            None => Err(unsupported(
                format!("the tile size `{}` (only a compile-time constant)", text(n, self.src)),
                n,
            )),
        }
    }

    /// Whether `ty` names a type of the cooperative groups library (a parameter of it binds a
    /// group, or is refused).
    pub(super) fn is_group_type(&self, ty: Node) -> bool {
        self.group_type(ty).is_some()
    }

    /// The group type the type node names (`thread_block`, `thread_block_tile<N>`,
    /// `thread_group`, `coalesced_group`); `Err` for the library's other types. `None`: not a
    /// type of the library.
    fn group_type(&self, ty: Node) -> Option<R<GroupType>> {
        Some(match self.group_member(ty, self.src)? {
            "thread_block" => Ok(GroupType::Is(Group::Block)),
            "thread_block_tile" => {
                let inner = match ty.kind() {
                    "qualified_identifier" => ty.child_by_field_name("name"),
                    _ => Some(ty),
                };
                match inner.and_then(first_template_arg) {
                    Some(a) => self.tile_size(a).map(|n| GroupType::Is(Group::Tile(Some(n)))),
                    None => Err(named(text(ty, self.src), ty)),
                }
            }
            "coalesced_group" => Ok(GroupType::Is(Group::Tile(None))),
            "grid_group" => Ok(GroupType::Is(Group::Grid)),
            "thread_group" => Ok(GroupType::Any),
            _ => Err(named(text(ty, self.src), ty)),
        })
    }

    /// Hook of `declaration`: a group local (`thread_block`, a tile, `thread_group`, or `auto`
    /// initialized from a group). `None`: not a declaration of the library's types.
    pub(super) fn group_declaration(&mut self, n: Node, ty: Node, storage: bool) -> Option<R<()>> {
        let mut c = n.walk();
        let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        let want = if ty.kind() == "placeholder_type_specifier" {
            // `auto g = cg::this_thread_block();`: ours only when the value is the library's.
            let value = decls.first().and_then(|d| d.child_by_field_name("value"))?;
            match self.group_of(value) {
                Ok(Some(_)) => GroupType::Any,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        } else {
            match self.group_type(ty)? {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            }
        };
        Some(self.group_locals(n, &decls, storage, want))
    }

    /// Hook of expression statements: `cg::thread_block_tile<32> t = v;` after another
    /// declaration, which tree-sitter-cuda reads as the expression
    /// `(cg::thread_block_tile < 32) > (t = v)`; lowered as the declaration it is. `None`: not
    /// that shape over the library's tile type.
    pub(super) fn group_misparsed_tile(&mut self, e: Node) -> Option<R<()>> {
        fn op(n: Node, want: &str) -> bool {
            n.child_by_field_name("operator").is_some_and(|o| o.kind() == want)
        }
        if e.kind() != "binary_expression" || !op(e, ">") {
            return None;
        }
        let lt = e.child_by_field_name("left").filter(|l| l.kind() == "binary_expression" && op(*l, "<"))?;
        let ty = lt.child_by_field_name("left")?;
        if self.group_member(ty, self.src) != Some("thread_block_tile") {
            return None;
        }
        let size = lt.child_by_field_name("right")?;
        let assign = e.child_by_field_name("right").filter(|r| r.kind() == "assignment_expression")?;
        let name = assign.child_by_field_name("left").filter(|x| x.kind() == "identifier")?;
        let value = assign.child_by_field_name("right")?;
        Some(self.tile_size(size).and_then(|n| {
            let g = self.group_arg(value, GroupType::Is(Group::Tile(Some(n))))?;
            self.bind(text(name, self.src), g.binding());
            Ok(())
        }))
    }

    fn group_locals(&mut self, n: Node, decls: &[Node], storage: bool, want: GroupType) -> R<()> {
        if storage {
            return Err(unsupported("a cooperative group with a storage class or `__shared__`", n));
        }
        for d in decls {
            let (Some(name), Some(value)) =
                (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
            else {
                return Err(unsupported("a cooperative group without an initializer", *d));
            };
            let name = match name.kind() {
                "reference_declarator" => name.named_child(0).unwrap_or(name),
                _ => name,
            };
            if name.kind() != "identifier" {
                return Err(unsupported(format!("the declarator `{}`", text(name, self.src)), name));
            }
            let g = self.group_arg(value, want)?;
            self.bind(text(name, self.src), g.binding());
        }
        Ok(())
    }

    /// The group `a` denotes, which must be of type `want`.
    fn group_arg(&self, a: Node, want: GroupType) -> R<Group> {
        match (self.group_of(a)?, want) {
            (Some(g), GroupType::Any) => Ok(g),
            (Some(g), GroupType::Is(w)) if g == w => Ok(g),
            (_, GroupType::Is(Group::Block)) => Err(unsupported(
                format!(
                    "`{}` as a thread block (only `this_thread_block()` and `thread_block` variables)",
                    text(a, self.src)
                ),
                a,
            )),
            (_, want) => Err(unsupported(
                format!("`{}` as a {} (a group of another kind or size)", text(a, self.src), want.describe()),
                a,
            )),
        }
    }

    /// Hook of the inliner: a group parameter (by value or reference) bound to the group
    /// argument `a`. `None`: not a parameter of the library's types.
    pub(super) fn group_param(&mut self, p: Node, a: Node) -> Option<R<BoundParam>> {
        let ty = p.child_by_field_name("type")?;
        let want = match self.group_type(ty)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let mut decl = p.child_by_field_name("declarator");
        if let Some(d) = decl.filter(|d| d.kind() == "reference_declarator") {
            decl = d.named_child(0);
        }
        let Some(name) = decl.filter(|d| d.kind() == "identifier") else {
            return Some(Err(unsupported(format!("the parameter `{}`", text(p, self.src)), p)));
        };
        Some(
            self.group_arg(a, want)
                .map(|g| BoundParam::Alias { cname: text(name, self.src).to_string(), binding: g.binding() }),
        )
    }

    /// Hook of `call`: `g.sync()`, `sync(g)`, the members of a block or tile, `reduce` and the
    /// scans of a tile, and every other call of the library (an error naming it). `None`: not
    /// a call of the library.
    pub(super) fn group_call(&mut self, n: Node, used: bool) -> Option<R<Option<(Expr, Ty)>>> {
        let f = n.child_by_field_name("function")?;
        let src = self.src;
        let args = self.args(n);
        if f.kind() == "field_expression" {
            let obj = f.child_by_field_name("argument")?;
            let method = f.child_by_field_name("field").map_or("", |x| text(x, src));
            return Some(match self.group_of(obj) {
                Ok(Some(Group::Block)) => self.block_method(n, f, method, &args, used),
                Ok(Some(Group::Tile(size))) => self.tile_method(n, f, size, method, &args, used),
                Ok(Some(Group::Grid)) => self.grid_method(n, f, method, &args, used),
                Ok(None) => return None,
                Err(e) => Err(e),
            });
        }
        let adl = f.kind() == "identifier"
            && text(f, src) == "sync"
            && self.lookup("sync").is_none()
            && !self.prog.has_function("sync")
            && matches!(&args[..], [g] if matches!(self.group_of(*g), Ok(Some(_))));
        let m = match self.group_member(f, src) {
            Some(m) => m,
            // `sync(b)` without `cg::` or `using`: C++ finds the library's `sync` by
            // argument-dependent lookup on the group argument.
            None if adl => "sync",
            None => return None,
        };
        Some(match (m, &args[..]) {
            ("sync", [g]) => match self.group_of(*g) {
                Ok(Some(Group::Block)) => self.group_sync(n, Some(StmtKind::Barrier), used),
                Ok(Some(Group::Tile(size))) => self.group_sync(n, tile_sync(size), used),
                Ok(Some(Group::Grid)) => self.group_sync(n, Some(StmtKind::Gridsync), used),
                Ok(None) => Err(unsupported(format!("`{}` is not a group", text(*g, src)), *g)),
                Err(e) => Err(e),
            },
            ("reduce" | "inclusive_scan" | "exclusive_scan", [g, v, op @ ..]) if op.len() <= 1 => {
                self.tile_reduce(f, m, *g, *v, op.first().copied())
            }
            ("this_thread_block" | "this_grid" | "tiled_partition" | "coalesced_threads", _) => Err(unsupported(
                format!(
                    "`{}` here (only as the initializer of a group variable, an argument or the object of a member call)",
                    text(n, src)
                ),
                n,
            )),
            _ => Err(named(text(f, src), f)),
        })
    }

    /// A group's `sync`: `stmt` (a barrier, a warp barrier, or nothing), a statement only.
    fn group_sync(&mut self, n: Node, stmt: Option<StmtKind>, used: bool) -> R<Option<(Expr, Ty)>> {
        if used {
            return Err(unsupported(format!("`{}` inside an expression", text(n, self.src)), n));
        }
        if let Some(s) = stmt {
            self.emit(s);
        }
        Ok(None)
    }

    /// `b.sync()`, `b.thread_rank()`, `b.size()` on the thread block.
    fn block_method(
        &mut self,
        n: Node,
        f: Node,
        method: &str,
        args: &[Node],
        used: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        super::arity(text(f, src), args, 0, 0, n)?;
        match method {
            "sync" => self.group_sync(n, Some(StmtKind::Barrier), used),
            "thread_rank" => Ok(Some((thread_rank(), Ty::UInt))),
            "size" | "num_threads" => Ok(Some((block_size(), Ty::UInt))),
            m if dim3_member(m, Dim::X).is_some() => Err(unsupported(
                format!("the `dim3` value `{}` (only its fields `.x`, `.y`, `.z`)", text(n, src)),
                n,
            )),
            m => Err(named(&format!("thread_block::{m}"), f)),
        }
    }

    /// `g.sync()`, `g.thread_rank()`, `g.size()`, `g.block_rank()`, `g.num_blocks()` on the
    /// grid: the grid barrier and exact expressions over the launch (CUDA's `unsigned long long`
    /// results as 32-bit words, like every integer of the model).
    fn grid_method(
        &mut self,
        n: Node,
        f: Node,
        method: &str,
        args: &[Node],
        used: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        super::arity(text(f, src), args, 0, 0, n)?;
        let rank = || Expr::bin(BinOp::Add, Expr::bin(BinOp::Mul, block_rank(), block_size()), thread_rank());
        match method {
            "sync" => self.group_sync(n, Some(StmtKind::Gridsync), used),
            "thread_rank" => Ok(Some((rank(), Ty::UInt))),
            "size" | "num_threads" => {
                Ok(Some((Expr::bin(BinOp::Mul, grid_blocks(), block_size()), Ty::UInt)))
            }
            "block_rank" => Ok(Some((block_rank(), Ty::UInt))),
            "num_blocks" => Ok(Some((grid_blocks(), Ty::UInt))),
            // Whether the launch was cooperative: unknown, but one value for the whole grid (an
            // opaque call without arguments is the same in every thread).
            "is_valid" => Ok(Some((Expr::Call("cg_grid_is_valid".into(), Vec::new()), Ty::Int))),
            m if grid_dim3_member(m, Dim::X).is_some() => Err(unsupported(
                format!("the `dim3` value `{}` (only its fields `.x`, `.y`, `.z`)", text(n, src)),
                n,
            )),
            m => Err(named(&format!("grid_group::{m}"), f)),
        }
    }

    /// The members of a tile of `size` threads (`None`: a coalesced group). Exact where the
    /// tile is a fixed partition of the block by thread rank; collectives are unknown
    /// per-thread values (`warp.rs`).
    fn tile_method(
        &mut self,
        n: Node,
        f: Node,
        size: Option<u32>,
        method: &str,
        args: &[Node],
        used: bool,
    ) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        let kind = if size.is_some() { "thread_block_tile" } else { "coalesced_group" };
        let want = |k: usize| super::arity(text(f, src), args, k, k, n);
        let c = |v: u32| Expr::Const(v);
        match (method, size) {
            ("sync", _) => {
                want(0)?;
                self.group_sync(n, tile_sync(size), used)
            }
            ("thread_rank", Some(s)) => {
                want(0)?;
                Ok(Some((Expr::bin(BinOp::URem, thread_rank(), c(s)), Ty::UInt)))
            }
            ("size" | "num_threads", Some(s)) => {
                want(0)?;
                Ok(Some((c(s), Ty::UInt)))
            }
            ("meta_group_rank", Some(s)) => {
                want(0)?;
                Ok(Some((Expr::bin(BinOp::UDiv, thread_rank(), c(s)), Ty::UInt)))
            }
            ("meta_group_size", Some(s)) => {
                want(0)?;
                let up = Expr::bin(BinOp::Add, block_size(), c(s - 1));
                Ok(Some((Expr::bin(BinOp::UDiv, up, c(s)), Ty::UInt)))
            }
            ("thread_rank" | "size" | "num_threads", None) => {
                want(0)?;
                Ok(Some((self.lane_value(&format!("cg_{method}"), Vec::new()), Ty::UInt)))
            }
            ("shfl" | "shfl_up" | "shfl_down" | "shfl_xor", _) => {
                want(2)?;
                let (v, ty) = self.expr(args[0])?;
                let (k, _) = self.expr(args[1])?;
                Ok(Some((self.lane_value(&format!("cg_{method}"), vec![v, k]), ty)))
            }
            ("ballot" | "any" | "all" | "match_any", _) => {
                want(1)?;
                let (v, _) = self.expr(args[0])?;
                let ty = if matches!(method, "any" | "all") { Ty::Int } else { Ty::UInt };
                Ok(Some((self.lane_value(&format!("cg_{method}"), vec![v]), ty)))
            }
            (m, _) => Err(named(&format!("{kind}::{m}"), f)),
        }
    }

    /// `cg::reduce(t, v, op)`, `cg::inclusive_scan(t, v[, op])`, `cg::exclusive_scan(…)` on a
    /// tile: an unknown per-thread value of `v`'s type. `op` must be one of the library's
    /// function objects (`cg::plus<T>()`, …): anything else could have effects.
    fn tile_reduce(&mut self, f: Node, m: &str, g: Node, v: Node, op: Option<Node>) -> R<Option<(Expr, Ty)>> {
        let src = self.src;
        match self.group_of(g)? {
            Some(Group::Tile(_)) => {}
            _ => {
                return Err(unsupported(
                    format!(
                        "`{}` over `{}` (only over a tile or coalesced group)",
                        text(f, src),
                        text(g, src)
                    ),
                    g,
                ))
            }
        }
        if let Some(op) = op {
            let op = super::strip_parens(op);
            let functor = op.kind() == "call_expression"
                && self.args(op).is_empty()
                && op.child_by_field_name("function").and_then(|x| self.group_member(x, src)).is_some_and(
                    |name| matches!(name, "plus" | "less" | "greater" | "bit_and" | "bit_or" | "bit_xor"),
                );
            if !functor {
                return Err(unsupported(
                    format!(
                        "the operation `{}` of `{}` (only `plus`, `less`, `greater`, `bit_and`, `bit_or`, `bit_xor` of the library)",
                        text(op, src),
                        text(f, src)
                    ),
                    op,
                ));
            }
        }
        let (e, ty) = self.expr(v)?;
        Ok(Some((self.lane_value(&format!("cg_{m}"), vec![e]), ty)))
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
        let group = match self.group_of(obj) {
            Ok(g) => g,
            Err(e) => return Some(Err(e)),
        };
        let b = match group {
            Some(Group::Block) => dim3_member(method, d)?,
            Some(Group::Grid) => grid_dim3_member(method, d)?,
            _ => return None,
        };
        self.args(call).is_empty().then_some(Ok((Expr::Builtin(b), Ty::UInt)))
    }
}

/// A group the lowering models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// The thread block.
    Block,
    /// A tile of `Some(n)` threads (consecutive thread ranks, `n` a power of two ≤ 32), or a
    /// coalesced group (`None`: its members are not known statically).
    Tile(Option<u32>),
    /// The grid (`this_grid()`).
    Grid,
}

impl Group {
    fn binding(self) -> Binding {
        match self {
            Group::Block => Binding::Block,
            Group::Tile(s) => Binding::Tile(s),
            Group::Grid => Binding::Grid,
        }
    }
}

/// What a declared type accepts.
#[derive(Clone, Copy, Debug)]
enum GroupType {
    Is(Group),
    /// `thread_group` (or `auto`): any group.
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

/// What a tile's `sync` lowers to: a warp barrier for a tile of 32 (exactly one warp, the
/// rank-consecutive threads `syncwarp` orders); nothing for smaller tiles and coalesced groups
/// (their barrier orders a subset of a warp, which KPL cannot express: ordering nothing only
/// adds reported races; a divergent sync of such a tile is not reported).
fn tile_sync(size: Option<u32>) -> Option<StmtKind> {
    (size == Some(32)).then_some(StmtKind::Syncwarp)
}

/// The first template argument of `f<…>` (a `template_function` or `template_type`).
fn first_template_arg(f: Node) -> Option<Node> {
    let f = match f.kind() {
        "qualified_identifier" => f.child_by_field_name("name")?,
        _ => f,
    };
    let list = f.child_by_field_name("arguments")?;
    let mut c = list.walk();
    let first = list.named_children(&mut c).find(|x| x.kind() != "comment");
    first
}
