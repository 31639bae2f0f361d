//! The launch facts of `cuda::launch` in the lowered kernel: a scalar parameter every visible
//! launch passes the same value is that constant (bound like a template value parameter), and
//! the known dimensions of a block or grid the launches fix only in part are `assume`s at the
//! start of the kernel (a part fixed completely is the kernel's geometry instead).

use super::*;
use crate::cuda::launch::LaunchFacts;
use crate::kpl::ast::{BinOp, Builtin, Dim};

impl<'t> Lx<'_, 't> {
    /// The launch facts of the kernel defined by `f`.
    fn facts_of(&self, f: Node) -> Option<&LaunchFacts> {
        let name = crate::cuda::function_name(f, self.src)?;
        self.file.launch_facts.get(name)
    }

    /// The value the launches give parameter `cname` of kernel `f`, as a word of type `ty`
    /// (`None` when there is none or it does not fit the type).
    pub(super) fn launch_argument(&self, f: Node, cname: &str, ty: Ty) -> Option<u32> {
        let v = self.facts_of(f)?.argument(cname)?;
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
    pub(super) fn launch_assumptions(&mut self, f: Node, body: Node) {
        let Some(facts) = self.facts_of(f) else { return };
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
        self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        for cond in assumed {
            let l = self.emit(StmtKind::Assume { cond });
            self.set_place(l, Place::Not("an assumption from the kernel's launches".into()));
        }
    }
}
