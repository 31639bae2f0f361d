//! Bit intrinsics the lowering models exactly: an opaque
//! call would let two threads' indices collide (`s[__brev(tid) >> 24]`, a bit-reversed FFT
//! load, is a permutation only when `__brev` is the reversal itself).

use super::{Lx, Ty};
use crate::kpl::ast::{BinOp, Expr};

impl Lx<'_> {
    /// `__brev(a)`: the 32 bits of `a` reversed by five swap steps (halves of ever smaller
    /// blocks), each into a temporary so `a` is not repeated 32 times.
    pub(super) fn bit_reverse(&mut self, a: Expr) -> (Expr, Ty) {
        let mut v = self.temp(Some(a));
        let steps =
            [(1, 0x5555_5555u32), (2, 0x3333_3333), (4, 0x0f0f_0f0f), (8, 0x00ff_00ff), (16, 0x0000_ffff)];
        for (shift, mask) in steps {
            let x = || Expr::var(&v);
            let high =
                Expr::bin(BinOp::BitAnd, Expr::bin(BinOp::UShr, x(), Expr::Const(shift)), Expr::Const(mask));
            let low =
                Expr::bin(BinOp::Shl, Expr::bin(BinOp::BitAnd, x(), Expr::Const(mask)), Expr::Const(shift));
            v = self.temp(Some(Expr::bin(BinOp::BitOr, high, low)));
        }
        (Expr::Var(v), Ty::UInt)
    }
}
