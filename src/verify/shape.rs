//! Launch-shape inference: which dimensions of a symbolic launch the kernel can tell apart.
//!
//! CUDA's `dim3` gives `y` and `z` the value 1 unless the launch names them, and an integer
//! launch argument (`<<<n, 256>>>`) is 1-D. A kernel that never reads `threadIdx.y` nor
//! `blockDim.y` (after inlining its device functions and lowering cooperative groups, so the
//! lowered kernel's builtins are the whole story) cannot have been written for a second block
//! dimension: threads that differ only in `y` would run it identically. So when the block size is
//! symbolic, such a dimension is assumed to be 1 — per dimension, and separately for grids
//! (`blockIdx.d`, `gridDim.d`). The `x` dimensions are never assumed: a kernel that ignores
//! `threadIdx.x` is still launched with some number of threads. `--all-dims` (and a concrete
//! `--block-dim`/`--grid-dim`, or a header) lifts the assumption; every report states it
//! ([`LaunchShape::describe`]).

use crate::kpl::{Builtin, Expr, Geometry, Kernel, StmtKind};

/// The builtins a kernel reads, per dimension.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BuiltinReads {
    pub tid: [bool; 3],
    pub bid: [bool; 3],
    pub block_dim: [bool; 3],
    pub grid_dim: [bool; 3],
}

impl BuiltinReads {
    /// Every builtin the lowered kernel mentions, in any expression of any statement, except the
    /// thread ids that only select a thread-local array's row of the accessing thread
    /// ([`crate::kpl::ArrayDecl::is_thread_row`]): `float acc[2];` does not make a kernel 3-D.
    pub fn of(kernel: &Kernel) -> BuiltinReads {
        let mut r = BuiltinReads::default();
        let own_row = |array: &str, index: &[Expr]| {
            kernel.arrays.iter().any(|a| a.name == array && a.is_thread_row(index))
        };
        kernel.walk(&mut |s| {
            let mut see = |e: &Expr| r.visit(e);
            let skip = |array: &str, index: &[Expr]| if own_row(array, index) { 3 } else { 0 };
            match &s.kind {
                StmtKind::Local { init: Some(e), .. } | StmtKind::Assign { value: e, .. } => see(e),
                StmtKind::Local { init: None, .. } => {}
                StmtKind::Read { array, index, .. } => index.iter().skip(skip(array, index)).for_each(see),
                StmtKind::Write { array, index, value, .. }
                | StmtKind::Atomic { array, index, value, .. } => {
                    index.iter().skip(skip(array, index)).for_each(&mut see);
                    see(value);
                }
                StmtKind::If { cond, .. }
                | StmtKind::While { cond, .. }
                | StmtKind::Assume { cond }
                | StmtKind::NamedWait { instance: cond, .. } => see(cond),
                StmtKind::Barrier
                | StmtKind::Syncwarp
                | StmtKind::Gridsync
                | StmtKind::NamedBarrier { .. }
                | StmtKind::Commit
                | StmtKind::Wait { .. }
                | StmtKind::WaitOldest
                | StmtKind::Release => {}
            }
        });
        r
    }

    fn visit(&mut self, e: &Expr) {
        match e {
            Expr::Builtin(b) => match b {
                Builtin::Tid(d) => self.tid[d.index()] = true,
                Builtin::Bid(d) => self.bid[d.index()] = true,
                Builtin::BlockDim(d) => self.block_dim[d.index()] = true,
                Builtin::GridDim(d) => self.grid_dim[d.index()] = true,
            },
            Expr::Const(_) | Expr::Var(_) => {}
            Expr::Unary(_, a) => self.visit(a),
            Expr::Binary(_, a, b) => {
                self.visit(a);
                self.visit(b);
            }
            Expr::Select(c, a, b) => {
                self.visit(c);
                self.visit(a);
                self.visit(b);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| self.visit(a)),
        }
    }
}

/// Which dimensions of the launch the oracle leaves free. `true`: the dimension is concrete (from
/// the geometry) or symbolic; `false`: assumed to be 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchShape {
    pub block: [bool; 3],
    pub grid: [bool; 3],
    /// What the kernel reads (for the report).
    pub reads: BuiltinReads,
    /// Assume a thread's global id along `x` fits in a non-negative `int` ([`x_global_id_fits`]):
    /// unless `--all-dims`, for a symbolic grid (or a concrete one where it holds anyway).
    pub x_id_fits: bool,
}

impl Default for LaunchShape {
    /// Every dimension free (today's `--all-dims` behaviour).
    fn default() -> LaunchShape {
        LaunchShape { block: [true; 3], grid: [true; 3], reads: BuiltinReads::default(), x_id_fits: false }
    }
}

impl LaunchShape {
    /// The shape to verify `kernel` for under `geometry`: a symbolic `y`/`z` dimension the kernel
    /// never reads is assumed to be 1, unless `all_dims`. Concrete dimensions stay as given.
    pub fn infer(kernel: &Kernel, geometry: &Geometry, all_dims: bool) -> LaunchShape {
        if all_dims {
            return LaunchShape::default();
        }
        let r = BuiltinReads::of(kernel);
        let free = |given: bool, ids: [bool; 3], dims: [bool; 3]| -> [bool; 3] {
            std::array::from_fn(|d| given || d == 0 || ids[d] || dims[d])
        };
        // Assumed of a symbolic grid; a concrete one is taken as it is (a real launch past 2^31
        // threads along x then keeps its wrapping ids), where the fact holds anyway it is free.
        let x_threads = |g: &[u32; 3]| g[0] as u64 * geometry.block_dim.map_or(1024, |b| b[0] as u64);
        let x_id_fits = geometry.grid_dim.as_ref().is_none_or(|g| x_threads(g) <= 1 << 31);
        LaunchShape {
            block: free(geometry.block_dim.is_some(), r.tid, r.block_dim),
            grid: free(geometry.grid_dim.is_some(), r.bid, r.grid_dim),
            reads: r,
            x_id_fits,
        }
    }

    /// Whether some dimension is assumed to be 1.
    pub fn assumes(&self) -> bool {
        self.block.contains(&false) || self.grid.contains(&false)
    }

    /// One sentence per assumption, for reports: which shape was assumed, why, and the flag that
    /// checks the others. Empty when nothing is assumed.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        let line = |free: [bool; 3],
                    what: &str,
                    names: [(&str, [bool; 3]); 2],
                    flag: &str|
         -> Option<String> {
            let unread: Vec<&str> =
                ["y", "z"].into_iter().zip([free[1], free[2]]).filter(|(_, f)| !f).map(|(d, _)| d).collect();
            if unread.is_empty() {
                return None;
            }
            let n = if free[2] {
                3
            } else if free[1] {
                2
            } else {
                1
            };
            let read: Vec<String> = names
                .iter()
                .flat_map(|(name, r)| {
                    ["x", "y", "z"]
                        .into_iter()
                        .zip(*r)
                        .filter(|(_, b)| *b)
                        .map(move |(d, _)| format!("{name}.{d}"))
                })
                .collect();
            let reads = if read.is_empty() {
                format!("none of {} or {}", names[0].0, names[1].0)
            } else {
                format!("only {}", read.join(", "))
            };
            Some(format!(
                "assuming {n}-D {what} ({}.{} = 1): the kernel reads {reads}; {flag} X,Y,Z checks others (or --all-dims)",
                names[1].0,
                unread.join(" = "),
            ))
        };
        let r = &self.reads;
        out.extend(line(
            self.block,
            "blocks",
            [("threadIdx", r.tid), ("blockDim", r.block_dim)],
            "--block-dim",
        ));
        out.extend(line(self.grid, "grids", [("blockIdx", r.bid), ("gridDim", r.grid_dim)], "--grid-dim"));
        out
    }
}
