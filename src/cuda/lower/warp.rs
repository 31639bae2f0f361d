//! Warp-level collectives and the block barrier-reductions.
//!
//! - Warp collectives (`__shfl*_sync` and the legacy mask-less `__shfl*`, `__ballot_sync`,
//!   `__any_sync`, `__all_sync`, `__uni_sync`, `__activemask`, `__match_any_sync`,
//!   `__match_all_sync`, `__reduce_*_sync`) exchange registers, not memory: they perform no
//!   access. Their arguments are evaluated (reads in them happen); their result is an unknown
//!   *per-thread* value ([`Lx::lane_value`]). They order no memory between lanes (CUDA's
//!   independent thread scheduling gives a shuffle no memory ordering; `__syncwarp()` is the way
//!   to order), so they lower to no ordering statement. Limit: a `*_sync` reached by only part
//!   of the lanes its mask names (undefined behaviour) is not reported.
//! - `__syncthreads_count(p)`, `__syncthreads_and(p)`, `__syncthreads_or(p)`: `p` is evaluated,
//!   then a `barrier` (exactly `__syncthreads()`: ordering, divergence), then an unknown value
//!   that is the same in every thread of the block ([`Lx::block_value`]).
//!
//! Guarantees: every name handled here is lowered soundly or rejected with a diagnostic at the
//! call; the results are never given a value the oracle could rely on wrongly.

use super::*;

/// The result type of a collective.
#[derive(Clone, Copy)]
enum Res {
    /// The type of the argument at this position (`__shfl_sync(m, v, …)` returns `v`'s type).
    Arg(usize),
    UInt,
    Int,
}

/// Warp collectives: name, argument counts accepted, result type.
const COLLECTIVES: &[(&str, usize, usize, Res)] = &[
    ("__shfl_sync", 3, 4, Res::Arg(1)),
    ("__shfl_up_sync", 3, 4, Res::Arg(1)),
    ("__shfl_down_sync", 3, 4, Res::Arg(1)),
    ("__shfl_xor_sync", 3, 4, Res::Arg(1)),
    ("__shfl", 2, 3, Res::Arg(0)),
    ("__shfl_up", 2, 3, Res::Arg(0)),
    ("__shfl_down", 2, 3, Res::Arg(0)),
    ("__shfl_xor", 2, 3, Res::Arg(0)),
    ("__ballot_sync", 2, 2, Res::UInt),
    ("__ballot", 1, 1, Res::UInt),
    ("__any_sync", 2, 2, Res::Int),
    ("__all_sync", 2, 2, Res::Int),
    ("__uni_sync", 2, 2, Res::Int),
    ("__any", 1, 1, Res::Int),
    ("__all", 1, 1, Res::Int),
    ("__activemask", 0, 0, Res::UInt),
    ("__match_any_sync", 2, 2, Res::UInt),
    ("__reduce_add_sync", 2, 2, Res::Arg(1)),
    ("__reduce_min_sync", 2, 2, Res::Arg(1)),
    ("__reduce_max_sync", 2, 2, Res::Arg(1)),
    ("__reduce_and_sync", 2, 2, Res::UInt),
    ("__reduce_or_sync", 2, 2, Res::UInt),
    ("__reduce_xor_sync", 2, 2, Res::UInt),
];

/// Block barriers whose result is a reduction of a predicate over the block.
const BLOCK_REDUCTIONS: &[&str] = &["__syncthreads_count", "__syncthreads_and", "__syncthreads_or"];

impl<'t> Lx<'_, 't> {
    /// Hook of `call`: the warp collectives and block barrier-reductions. `None`: not one of
    /// them.
    pub(super) fn warp_call(&mut self, n: Node, fname: &str, args: &[Node]) -> Option<R<Option<(Expr, Ty)>>> {
        if BLOCK_REDUCTIONS.contains(&fname) {
            return Some(self.block_reduction(n, fname, args));
        }
        if fname == "__match_all_sync" {
            return Some(self.match_all(n, args));
        }
        let &(_, lo, hi, res) = COLLECTIVES.iter().find(|c| c.0 == fname)?;
        Some(self.collective(n, fname, args, (lo, hi), res))
    }

    fn collective(
        &mut self,
        n: Node,
        fname: &str,
        args: &[Node],
        (lo, hi): (usize, usize),
        res: Res,
    ) -> R<Option<(Expr, Ty)>> {
        arity(fname, args, lo, hi, n)?;
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for a in args {
            let (e, t) = self.expr(*a)?;
            vals.push(e);
            tys.push(t);
        }
        let ty = match res {
            Res::Arg(i) => tys.get(i).copied().unwrap_or(Ty::Int),
            Res::UInt => Ty::UInt,
            Res::Int => Ty::Int,
        };
        Ok(Some((self.lane_value(fname, vals), ty)))
    }

    /// `__match_all_sync(mask, value, &pred)`: an unknown per-thread result, and an unknown
    /// per-thread value stored through `pred` (a local or an array element).
    fn match_all(&mut self, n: Node, args: &[Node]) -> R<Option<(Expr, Ty)>> {
        arity("__match_all_sync", args, 3, 3, n)?;
        let mut vals = Vec::new();
        for a in &args[..2] {
            vals.push(self.expr(*a)?.0);
        }
        let result = self.lane_value("__match_all_sync", vals.clone());
        let pred = self.lane_value("__match_all_sync_pred", vals);
        self.store_through(args[2], pred, Ty::Int)?;
        Ok(Some((result, Ty::UInt)))
    }

    /// `__syncthreads_count/and/or(p)`: `p`, a barrier, a block-uniform unknown result.
    fn block_reduction(&mut self, n: Node, fname: &str, args: &[Node]) -> R<Option<(Expr, Ty)>> {
        arity(fname, args, 1, 1, n)?;
        // The predicate is evaluated before the barrier (its reads happen there); its value
        // is not modelled.
        let _ = self.expr(args[0])?;
        self.cur_span = span(n);
        self.emit(StmtKind::Barrier);
        Ok(Some((self.block_value(fname), Ty::Int)))
    }

    /// A fresh local without a value: the symbolic walk gives it an unconstrained per-thread
    /// value (and stops exact loop unrolling at it), the uniformity analysis calls it uniform
    /// outside thread-dependent blocks (docs/semantics.md, "Warp collectives").
    fn unknown(&mut self, base: &str) -> String {
        let h = self.fresh_name(base);
        self.declare_kpl(&h);
        let l = self.emit(StmtKind::Local { name: h.clone(), init: None });
        self.set_place(l, Place::Not(INSIDE.into()));
        h
    }

    /// An unknown value that may differ between threads: `f(args…, u, tid.x)` in a temporary,
    /// with `u` a fresh unknown (so equal arguments do not force equal results, at two call
    /// sites or in two unrolled iterations) and `tid.x` marking it thread-dependent for the
    /// uniformity analysis. In a loop condition the temporary is re-assigned from a fresh
    /// unknown at each evaluation.
    pub(super) fn lane_value(&mut self, fname: &str, mut args: Vec<Expr>) -> Expr {
        let u = self.unknown("_lane");
        args.push(Expr::Var(u));
        args.push(Expr::tid(Dim::X));
        Expr::Var(self.temp(Some(Expr::Call(fname.to_string(), args))))
    }

    /// An unknown value that is the same in every thread of the block at one dynamic instance
    /// (the result of a block barrier-reduction): a fresh unknown copied into a temporary.
    fn block_value(&mut self, fname: &str) -> Expr {
        let base = format!("_{}", fname.trim_start_matches('_'));
        let u = self.unknown(&base);
        Expr::Var(self.temp(Some(Expr::Var(u))))
    }
}
