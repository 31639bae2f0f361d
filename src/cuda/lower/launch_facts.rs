//! The launch facts of `cuda::launch` in the lowered kernel: a scalar parameter every visible
//! launch passes the same value is that constant (bound like a template value parameter), and
//! the known dimensions of a block or grid the launches fix only in part are `assume`s at the
//! start of the kernel (a part fixed completely is the kernel's geometry instead).

use super::*;
use crate::cuda::launch::Rel;
use crate::kpl::ast::{BinOp, Builtin, Dim};

impl<'t> Lx<'_, 't> {
    /// The value the launches give parameter `cname` of the kernel, as a word of type `ty`
    /// (`None` when there is none or it does not fit the type).
    pub(super) fn launch_argument(&self, cname: &str, ty: Ty) -> Option<u32> {
        let v = self.facts.as_ref()?.argument(cname)?;
        match ty {
            Ty::Int => i32::try_from(v).ok().map(|v| v as u32),
            Ty::UInt => u32::try_from(v).ok(),
            Ty::Float => None,
        }
    }

    /// `assume blockDim.d == v;` (and `gridDim`) for each known dimension of a part the launches
    /// fix only in part. Dimensions `y`/`z` are assumed only where the file mentions them (or
    /// uses cooperative groups, whose ranks read every dimension): an unread dimension is left
    /// to the launch-shape inference, which assumes 1 without a term (both are sound; the fact
    /// is only needed where the kernel reads the dimension).
    pub(super) fn launch_assumptions(&mut self, body: Node) {
        let Some(facts) = self.facts.clone() else { return };
        let parts = [
            (facts.block, ["threadIdx", "blockDim"], Builtin::BlockDim as fn(Dim) -> Builtin),
            (facts.grid, ["blockIdx", "gridDim"], Builtin::GridDim),
        ];
        let groups = self.src.contains("cooperative_groups");
        let mut assumed = Vec::new();
        for (dims, names, builtin) in parts {
            if dims.iter().all(Option::is_some) {
                continue;
            }
            for (d, dim) in [Dim::X, Dim::Y, Dim::Z].into_iter().enumerate() {
                let Some(v) = dims[d] else { continue };
                let axis = ["x", "y", "z"][d];
                let mentioned = names.iter().any(|n| self.src.contains(&format!("{n}.{axis}")));
                if d == 0 || groups || mentioned {
                    assumed.push(Expr::Binary(
                        BinOp::Eq,
                        Box::new(Expr::Builtin(builtin(dim))),
                        Box::new(Expr::Const(v)),
                    ));
                }
            }
        }
        for (p, d, rel) in &facts.relations {
            let axis = ["x", "y", "z"][*d];
            let names = if *p == 0 { ["threadIdx", "blockDim"] } else { ["blockIdx", "gridDim"] };
            let mentioned = names.iter().any(|n| self.src.contains(&format!("{n}.{axis}")));
            if *d > 0 && !groups && !mentioned {
                continue;
            }
            let dim = [Dim::X, Dim::Y, Dim::Z][*d];
            let builtin = if *p == 0 { Builtin::BlockDim(dim) } else { Builtin::GridDim(dim) };
            if let Some((e, _)) = self.relation(rel, &facts.params) {
                assumed.push(Expr::Binary(BinOp::Eq, Box::new(Expr::Builtin(builtin)), Box::new(e)));
            }
        }
        // One launch's values of the dimensions the launches disagree on, or another's.
        let builtin_of = |p: usize, d: usize| {
            let dim = [Dim::X, Dim::Y, Dim::Z][d];
            if p == 0 {
                Builtin::BlockDim(dim)
            } else {
                Builtin::GridDim(dim)
            }
        };
        let alternatives: Vec<Expr> = facts
            .choices
            .iter()
            .filter(|c| !c.is_empty())
            .map(|c| {
                c.iter()
                    .map(|(p, d, v)| {
                        Expr::Binary(
                            BinOp::Eq,
                            Box::new(Expr::Builtin(builtin_of(*p, *d))),
                            Box::new(Expr::Const(*v)),
                        )
                    })
                    .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                    .unwrap_or(Expr::Const(1))
            })
            .collect();
        if let Some(any) =
            alternatives.into_iter().reduce(|a, b| Expr::Binary(BinOp::Or, Box::new(a), Box::new(b)))
        {
            assumed.push(any);
        }
        self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        for cond in assumed {
            let l = self.emit(StmtKind::Assume { cond });
            self.set_place(l, Place::Not("an assumption from the kernel's launches".into()));
        }
    }
}

impl Lx<'_, '_> {
    /// A launch relation as a KPL expression over the parameters' bindings, with C's usual
    /// arithmetic conversions (unsigned when either operand is).
    fn relation(&self, r: &Rel, params: &[(String, bool)]) -> Option<(Expr, Ty)> {
        match r {
            Rel::Const(v) => match (i32::try_from(*v), u32::try_from(*v)) {
                (Ok(v), _) => Some((Expr::Const(v as u32), Ty::Int)),
                (_, Ok(v)) => Some((Expr::Const(v), Ty::UInt)),
                _ => None,
            },
            Rel::Param(i) => match self.lookup(&params.get(*i)?.0)? {
                Binding::Var { kpl, ty } if *ty != Ty::Float => Some((Expr::Var(kpl.clone()), *ty)),
                Binding::Const { value, ty } if *ty != Ty::Float => Some((Expr::Const(*value), *ty)),
                _ => None,
            },
            Rel::Bin(op, a, b) => {
                let (a, ta) = self.relation(a, params)?;
                let (b, tb) = self.relation(b, params)?;
                let unsigned = ta == Ty::UInt || tb == Ty::UInt;
                let op = match (*op, unsigned) {
                    ("+", _) => BinOp::Add,
                    ("-", _) => BinOp::Sub,
                    ("*", _) => BinOp::Mul,
                    ("/", false) => BinOp::Div,
                    ("/", true) => BinOp::UDiv,
                    ("%", false) => BinOp::Rem,
                    ("%", true) => BinOp::URem,
                    ("<<", _) => BinOp::Shl,
                    // A shift is signed or not by its left operand alone.
                    (">>", _) if ta == Ty::UInt => BinOp::UShr,
                    (">>", _) => BinOp::Shr,
                    _ => return None,
                };
                // A shift's type is its left operand's.
                let ty = if matches!(op, BinOp::Shl | BinOp::Shr | BinOp::UShr) {
                    ta
                } else if unsigned {
                    Ty::UInt
                } else {
                    Ty::Int
                };
                Some((Expr::Binary(op, Box::new(a), Box::new(b)), ty))
            }
        }
    }
}
