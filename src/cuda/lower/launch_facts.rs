//! The launch facts of `cuda::launch` in the lowered kernel: a scalar parameter every visible
//! launch passes the same value is that constant (bound like a template value parameter), and
//! the known dimensions of a block or grid the launches fix only in part are `assume`s at the
//! start of the kernel (a part fixed completely is the kernel's geometry instead).

use super::*;

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

    /// `assume`s for what the launches fix only in part (`launch_facts::assumptions`: known
    /// dimensions of a part not fixed completely, relations to the arguments, one launch's values
    /// or another's), at the start of the kernel, with no place for a barrier.
    pub(super) fn launch_assumptions(&mut self, body: Node) {
        let Some(facts) = self.facts.clone() else { return };
        let groups = self.src.contains("cooperative_groups");
        let src = self.src;
        let mentioned = |var: &str, axis: &str| src.contains(&format!("{var}.{axis}"));
        let param = |i: usize| -> Option<(Expr, bool)> {
            match self.lookup(&facts.params.get(i)?.0)? {
                Binding::Var { kpl, ty } if *ty != Ty::Float => {
                    Some((Expr::Var(kpl.clone()), *ty == Ty::UInt))
                }
                Binding::Const { value, ty } if *ty != Ty::Float => {
                    Some((Expr::Const(*value), *ty == Ty::UInt))
                }
                _ => None,
            }
        };
        let assumed = crate::launch_facts::assumptions(&facts, &mentioned, groups, &param);
        self.cur_span = Span::new(body.start_byte(), body.start_byte() + 1);
        for cond in assumed {
            let l = self.emit(StmtKind::Assume { cond });
            self.set_place(l, Place::Not("an assumption from the kernel's launches".into()));
        }
    }
}
