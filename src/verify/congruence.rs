//! The pre-filter's second test: the low bits of word terms. Two indices that differ modulo a
//! power of two never meet — `out[2*i]` and `out[2*j + 1]`, `a[4*i + 1]` and `a[4*j + 3]` —
//! whatever the unknowns are, including the products of ids and dimensions a symbolic launch
//! makes, which leave intervals no room and make the solver reason about parity the hard way
//! (seconds per query).
//!
//! A [`Residue`] says `term ≡ value (mod 2^bits)`. Word arithmetic is arithmetic modulo `2^W`,
//! and `2^bits` divides `2^W`, so each rule below is exact under wrap-around too: the test holds
//! with and without `--wrap`.

use super::word::W;
use crate::limits::MAX_PREFILTER_TERM_DEPTH as MAX_DEPTH;
use rustc_hash::FxHashMap as HashMap;
use z3::ast::{Ast, Dynamic};
use z3::DeclKind;

/// `term ≡ value (mod 2^bits)`, with `bits <= W` and `value < 2^bits`. `bits == 0` says nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Residue {
    bits: u32,
    value: u64,
}

impl Residue {
    /// Nothing known.
    pub const UNKNOWN: Residue = Residue { bits: 0, value: 0 };

    fn new(bits: u32, value: u64) -> Residue {
        let bits = bits.min(W);
        Residue { bits, value: value & mask(bits) }
    }

    /// A numeral: all its bits.
    pub fn exact(value: u64) -> Residue {
        Residue::new(W, value)
    }

    /// How many low bits are known zero (a lower bound on the 2-adic valuation).
    fn trailing_zeros(self) -> u32 {
        if self.value == 0 {
            self.bits
        } else {
            self.value.trailing_zeros()
        }
    }

    fn add(self, other: Residue) -> Residue {
        Residue::new(self.bits.min(other.bits), self.value.wrapping_add(other.value))
    }

    fn neg(self) -> Residue {
        Residue::new(self.bits, self.value.wrapping_neg())
    }

    /// `(a + 2^ka·x)(b + 2^kb·y) = ab + a·2^kb·y + b·2^ka·x + 2^(ka+kb)·xy`: the three unknown
    /// terms are multiples of `2^(kb + tz(a))`, `2^(ka + tz(b))` and `2^(ka + kb)`.
    fn mul(self, other: Residue) -> Residue {
        let bits = (other.bits + self.trailing_zeros())
            .min(self.bits + other.trailing_zeros())
            .min(self.bits + other.bits);
        Residue::new(bits, self.value.wrapping_mul(other.value))
    }

    /// The bits both may have: the low bits on which they agree.
    fn join(self, other: Residue) -> Residue {
        let differ = (self.value ^ other.value).trailing_zeros();
        Residue::new(self.bits.min(other.bits).min(differ), self.value)
    }

    /// Whether the ranges `[x, x + w1)` and `[y, y + w2)` of a value `x` with this residue and
    /// a value `y` with `other`'s never overlap: `y - x` (modulo the known power of two) is
    /// none of the offsets `-(w2 - 1) ..= w1 - 1` that an overlap needs. With `w1 = w2 = 1`
    /// the residues differ in their common bits.
    pub fn ranges_differ(self, w1: u32, other: Residue, w2: u32) -> bool {
        let bits = self.bits.min(other.bits).min(32);
        let modulus = 1u64 << bits;
        if u64::from(w1) + u64::from(w2) > modulus {
            return false;
        }
        let d = other.value.wrapping_sub(self.value) & mask(bits);
        d >= u64::from(w1) && d <= modulus - u64::from(w2)
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The residues of word terms, memoized per term (terms are shared DAGs).
#[derive(Clone, Default)]
pub struct Residues {
    memo: HashMap<Dynamic, Residue>,
}

impl Residues {
    /// What the low bits of `t` are in every model: exact for numerals, derived through `+`,
    /// `-`, negation, `*`, `<<` by a numeral, `%` by a power of two and `?:`; anything else
    /// (a leaf, a division, a value read from memory) is [`Residue::UNKNOWN`].
    pub fn of(&mut self, t: &Dynamic) -> Residue {
        self.eval(t, 0)
    }

    fn eval(&mut self, t: &Dynamic, depth: u32) -> Residue {
        if let Some(r) = self.memo.get(t) {
            return *r;
        }
        let r = if depth > MAX_DEPTH { Residue::UNKNOWN } else { self.compute(t, depth) };
        self.memo.insert(t.clone(), r);
        r
    }

    fn compute(&mut self, t: &Dynamic, depth: u32) -> Residue {
        let Some(bv) = t.as_bv() else { return Residue::UNKNOWN };
        if bv.get_size() != W {
            return Residue::UNKNOWN;
        }
        if let Some(v) = bv.as_u64() {
            return Residue::exact(v);
        }
        let Ok(decl) = t.safe_decl() else { return Residue::UNKNOWN };
        let args = t.children();
        let mut arg = |i: usize| match args.get(i) {
            Some(a) => self.eval(a, depth + 1),
            None => Residue::UNKNOWN,
        };
        let numeral = |i: usize| args.get(i).and_then(|a| a.as_bv()).and_then(|a| a.as_u64());
        match super::kind::of(&decl) {
            DeclKind::Badd => (0..args.len()).fold(Residue::exact(0), |acc, i| acc.add(arg(i))),
            DeclKind::Bmul => (0..args.len()).fold(Residue::exact(1), |acc, i| acc.mul(arg(i))),
            DeclKind::Bsub if args.len() == 2 => {
                let x = arg(0);
                x.add(arg(1).neg())
            }
            DeclKind::Bneg => arg(0).neg(),
            DeclKind::Bshl => match numeral(1) {
                // z3's shift by the width or more gives 0.
                Some(s) if s >= u64::from(W) => Residue::exact(0),
                Some(s) => arg(0).mul(Residue::exact(1 << s)),
                None => Residue::UNKNOWN,
            },
            DeclKind::Burem | DeclKind::BuremI => match numeral(1) {
                Some(d) if d.is_power_of_two() => {
                    let (x, p) = (arg(0), d.trailing_zeros());
                    if x.bits >= p {
                        Residue::exact(x.value & mask(p))
                    } else {
                        x
                    }
                }
                _ => Residue::UNKNOWN,
            },
            DeclKind::Ite => {
                let x = arg(1);
                x.join(arg(2))
            }
            _ => Residue::UNKNOWN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Residue {
        fn differs_test(self, other: Residue) -> bool {
            self.ranges_differ(1, other, 1)
        }
    }

    #[test]
    fn ranges_of_elements_apart_by_their_low_bits() {
        let eight = Residue::exact(8).mul(Residue::UNKNOWN);
        // [8a, 8a + 2) and [8b + 2, 8b + 4): apart; [8a, 8a + 4) and [8b + 2, …): not.
        assert!(eight.ranges_differ(2, eight.add(Residue::exact(2)), 2));
        assert!(!eight.ranges_differ(4, eight.add(Residue::exact(2)), 2));
        // [8b + 6, 8b + 8) and [8a, …): apart only while it stays below the next multiple.
        assert!(eight.add(Residue::exact(6)).ranges_differ(2, eight, 2));
        assert!(!eight.add(Residue::exact(6)).ranges_differ(3, eight, 2));
    }

    #[test]
    fn parity_and_products() {
        let unknown = Residue::UNKNOWN;
        let two = Residue::exact(2);
        let even = two.mul(unknown);
        let odd = even.add(Residue::exact(1));
        assert!(even.differs_test(odd));
        assert!(!even.differs_test(even));
        // 4x + 1 and 4y + 3 differ; 2x + 1 and 4y + 3 may meet.
        let four = Residue::exact(4).mul(unknown);
        assert!(four.add(Residue::exact(1)).differs_test(four.add(Residue::exact(3))));
        assert!(!odd.differs_test(four.add(Residue::exact(3))));
        // A product of two evens is a multiple of 4.
        assert_eq!(even.mul(even), Residue::new(2, 0));
        // Negation and subtraction keep the low bits: -(2x) is even, 2x - 1 odd.
        assert!(!even.neg().differs_test(even));
        assert!(even.add(Residue::exact(1).neg()).differs_test(even));
        // Two branches agreeing on the low bit keep it.
        assert_eq!(Residue::exact(3).join(Residue::exact(5)), Residue::new(1, 1));
        assert!(!unknown.differs_test(odd));
    }
}
