//! 32-bit value semantics and the seeded hash the interpreter draws all "random" values from.

use crate::kpl::ast::{AtomicOp, BinOp, UnOp};

/// The splitmix64 finalizer: a bijective, well-mixing map on 64-bit words.
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Folds one more word into a running hash.
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    splitmix(h.rotate_left(23) ^ x.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// Hashes a string (FNV-1a over its bytes, then mixed), independent of the Rust version.
pub(crate) fn hash_str(s: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    splitmix(h ^ s.len() as u64)
}

/// Domain tags, so that hashes drawn for different purposes are independent.
pub(crate) mod tag {
    pub const PARAM: u64 = 1;
    pub const MEMORY: u64 = 2;
    pub const VARIABLE: u64 = 3;
    pub const CALL: u64 = 4;
}

/// Evaluates a unary operator.
pub(crate) fn unary(op: UnOp, a: u32) -> u32 {
    match op {
        UnOp::Neg => a.wrapping_neg(),
        UnOp::Not => u32::from(a == 0),
        UnOp::BitNot => !a,
    }
}

/// Evaluates a binary operator with 32-bit two's complement wrapping semantics.
///
/// Division and remainder by zero follow the SMT-LIB bit-vector semantics (DESIGN.md §4: 32-bit
/// bit-vectors are the reference, and the oracle encodes with them): `x udiv 0 = 0xFFFF_FFFF`,
/// `x urem 0 = x`, `x / 0 = (x < 0 ? 1 : -1)`, `x % 0 = x`. `i32::MIN / -1` wraps to `i32::MIN`
/// and `i32::MIN % -1` is 0. Shift amounts are taken modulo 32.
pub(crate) fn binary(op: BinOp, a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    match op {
        BinOp::Add | BinOp::UAdd | BinOp::IUAdd | BinOp::UIAdd => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul | BinOp::UMul | BinOp::IUMul | BinOp::UIMul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                if sa < 0 {
                    1
                } else {
                    u32::MAX
                }
            } else {
                sa.wrapping_div(sb) as u32
            }
        }
        BinOp::Rem => {
            if b == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u32
            }
        }
        BinOp::UDiv => a.checked_div(b).unwrap_or(u32::MAX),
        BinOp::URem => a.checked_rem(b).unwrap_or(a),
        BinOp::Shl => a.wrapping_shl(b & 31),
        BinOp::Shr => sa.wrapping_shr(b & 31) as u32,
        BinOp::UShr => a.wrapping_shr(b & 31),
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::And => u32::from(a != 0 && b != 0),
        BinOp::Or => u32::from(a != 0 || b != 0),
        BinOp::Eq => u32::from(a == b),
        BinOp::Ne => u32::from(a != b),
        BinOp::Lt => u32::from(sa < sb),
        BinOp::Le => u32::from(sa <= sb),
        BinOp::Gt => u32::from(sa > sb),
        BinOp::Ge => u32::from(sa >= sb),
        BinOp::ULt => u32::from(a < b),
        BinOp::ULe => u32::from(a <= b),
        BinOp::UGt => u32::from(a > b),
        BinOp::UGe => u32::from(a >= b),
        BinOp::Min => sa.min(sb) as u32,
        BinOp::Max => sa.max(sb) as u32,
    }
}

/// The new memory value of an atomic read-modify-write of `old` with operand `v`.
///
/// `Min`/`Max` compare signed; `Inc`/`Dec` follow CUDA's `atomicInc`/`atomicDec`
/// (`old >= v ? 0 : old + 1` and `old == 0 || old > v ? v : old - 1`, unsigned).
pub(crate) fn atomic(op: AtomicOp, old: u32, v: u32) -> u32 {
    match op {
        AtomicOp::Add => old.wrapping_add(v),
        AtomicOp::Sub => old.wrapping_sub(v),
        AtomicOp::Min => (old as i32).min(v as i32) as u32,
        AtomicOp::Max => (old as i32).max(v as i32) as u32,
        AtomicOp::And => old & v,
        AtomicOp::Or => old | v,
        AtomicOp::Xor => old ^ v,
        AtomicOp::Exch => v,
        AtomicOp::Inc => {
            if old >= v {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > v {
                v
            } else {
                old - 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_and_overflow() {
        assert_eq!(binary(BinOp::Div, 7, 0), u32::MAX);
        assert_eq!(binary(BinOp::Div, (-7i32) as u32, 0), 1);
        assert_eq!(binary(BinOp::Rem, 7, 0), 7);
        assert_eq!(binary(BinOp::Rem, (-7i32) as u32, 0), (-7i32) as u32);
        assert_eq!(binary(BinOp::UDiv, 7, 0), u32::MAX);
        assert_eq!(binary(BinOp::URem, 7, 0), 7);
        assert_eq!(binary(BinOp::Div, i32::MIN as u32, u32::MAX), i32::MIN as u32);
        assert_eq!(binary(BinOp::Rem, i32::MIN as u32, u32::MAX), 0);
        assert_eq!(binary(BinOp::Div, (-7i32) as u32, 2), (-3i32) as u32);
        assert_eq!(binary(BinOp::UDiv, (-7i32) as u32, 2), 0x7FFF_FFFC);
    }

    #[test]
    fn shifts_and_comparisons() {
        assert_eq!(binary(BinOp::Shl, 1, 33), 2);
        assert_eq!(binary(BinOp::Shr, 0x8000_0000, 31), u32::MAX);
        assert_eq!(binary(BinOp::UShr, 0x8000_0000, 31), 1);
        assert_eq!(binary(BinOp::Lt, u32::MAX, 0), 1);
        assert_eq!(binary(BinOp::ULt, u32::MAX, 0), 0);
        assert_eq!(binary(BinOp::Min, u32::MAX, 0), u32::MAX);
        assert_eq!(unary(UnOp::Not, 5), 0);
        assert_eq!(unary(UnOp::Neg, 1), u32::MAX);
    }

    #[test]
    fn atomics() {
        assert_eq!(atomic(AtomicOp::Inc, 3, 3), 0);
        assert_eq!(atomic(AtomicOp::Inc, 2, 3), 3);
        assert_eq!(atomic(AtomicOp::Dec, 0, 3), 3);
        assert_eq!(atomic(AtomicOp::Dec, 2, 3), 1);
        assert_eq!(atomic(AtomicOp::Exch, 2, 9), 9);
    }
}
