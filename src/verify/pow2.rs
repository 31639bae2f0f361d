//! Power-of-two facts, to keep multiplication and division by loop counters like `s *= 2`,
//! `h <<= 1`, `offset >>= 1` linear for the solver.
//!
//! A [`Pow2`] says that a value is `2^exp` when `cond` holds and 0 otherwise. Multiplying by such a
//! value is a shift, dividing by it (when the exponent is at most 30, so `2^exp` is a positive
//! `int`) a shift with C's rounding toward zero — exactly the bit-vector semantics of the
//! multiplication and division they replace, without a 32×32-bit multiplier or divider circuit
//! (a nonlinear `(tid / h) * 2 * h` made queries take seconds).

use z3::ast::{Bool, BV};

use super::word::W;

/// The value `cond ? 2^exp : 0`.
#[derive(Clone)]
pub struct Pow2 {
    pub exp: BV,
    pub cond: Bool,
    /// `exp <= 30` whenever `cond` holds (under the assumptions of the enclosing loops), so the
    /// value is a positive `int` (needed to shift it right and stay a power of two).
    pub small: bool,
}

impl Pow2 {
    /// The constant `c`, if it is a power of two.
    pub fn constant(c: u32) -> Option<Pow2> {
        c.is_power_of_two().then(|| Pow2 {
            exp: BV::from_u64(u64::from(c.trailing_zeros()), W),
            cond: Bool::from_bool(true),
            small: c.trailing_zeros() <= 30,
        })
    }

    /// `self * other`: exponents add (the product wraps to 0 past 2^31, as the shift does).
    pub fn times(&self, other: &Pow2) -> Pow2 {
        Pow2 { exp: self.exp.bvadd(&other.exp), cond: Bool::and(&[&self.cond, &other.cond]), small: false }
    }

    /// `self >> c` (arithmetic or logical: the value is non-negative when small).
    pub fn shifted_right(&self, c: u32) -> Option<Pow2> {
        if !self.small {
            return None;
        }
        let c = BV::from_u64(u64::from(c), W);
        Some(Pow2 {
            exp: self.exp.bvsub(&c),
            cond: Bool::and(&[&self.cond, &self.exp.bvuge(&c)]),
            small: true,
        })
    }

    /// `x * self`.
    pub fn mul(&self, x: &BV) -> BV {
        self.cond.ite(&x.bvshl(&self.exp), &BV::from_u64(0, W))
    }

    fn mask(&self) -> BV {
        BV::from_u64(1, W).bvshl(&self.exp).bvsub(BV::from_u64(1, W))
    }

    /// `cond` and the exponent is at most `max`.
    fn is_at_most(&self, max: u64) -> Bool {
        Bool::and(&[&self.cond, &self.exp.bvule(BV::from_u64(max, W))])
    }

    /// `x / self` (signed, rounding toward zero). Exact for every exponent: `2^31` is `INT_MIN`
    /// and larger powers wrap to 0 (z3's division by zero, as the term it replaces).
    pub fn sdiv(&self, x: &BV) -> BV {
        let bias = x.bvashr(BV::from_u64(31, W)).bvand(self.mask());
        let q = x.bvadd(&bias).bvashr(&self.exp);
        let int_min = BV::from_u64(1 << 31, W);
        let by_min = x.eq(&int_min).ite(&BV::from_u64(1, W), &BV::from_u64(0, W));
        let by_zero = x.bvsdiv(BV::from_u64(0, W));
        let exp31 = Bool::and(&[&self.cond, &self.exp.eq(BV::from_u64(31, W))]);
        self.is_at_most(30).ite(&q, &exp31.ite(&by_min, &by_zero))
    }

    /// `x % self` (signed: the sign of `x`), exact like [`Pow2::sdiv`].
    pub fn srem(&self, x: &BV) -> BV {
        let bias = x.bvashr(BV::from_u64(31, W)).bvand(self.mask());
        let q = x.bvadd(&bias).bvashr(&self.exp);
        let int_min = BV::from_u64(1 << 31, W);
        let by_min = x.eq(&int_min).ite(&BV::from_u64(0, W), x);
        let by_zero = x.bvsrem(BV::from_u64(0, W));
        let exp31 = Bool::and(&[&self.cond, &self.exp.eq(BV::from_u64(31, W))]);
        self.is_at_most(30).ite(&x.bvsub(q.bvshl(&self.exp)), &exp31.ite(&by_min, &by_zero))
    }

    /// `x / self`, unsigned.
    pub fn udiv(&self, x: &BV) -> BV {
        self.is_at_most(31).ite(&x.bvlshr(&self.exp), &x.bvudiv(BV::from_u64(0, W)))
    }

    /// `x % self`, unsigned.
    pub fn urem(&self, x: &BV) -> BV {
        self.is_at_most(31).ite(&x.bvand(self.mask()), &x.bvurem(BV::from_u64(0, W)))
    }
}
