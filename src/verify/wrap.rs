//! Integer wraparound: which executions need a `+`, `-`, `*` or `<<` to leave the signed 32-bit
//! range.
//!
//! The reference semantics is 32-bit machine arithmetic (bit-vectors), which is exact for
//! unsigned C arithmetic and for every signed computation that does not overflow (signed
//! overflow is undefined behaviour in C). `symbolic` tracks, along the data flow of every access
//! index, the condition that none of that arithmetic wraps (`AccessSym::no_wrap`). The oracle
//! uses it two ways (docs/semantics.md, "Integer model"):
//!
//! - by default, a race whose every witness needs a wrap is still reported, marked "only if the
//!   index arithmetic wraps around" (`Witness::only_with_wrap`, `Race::only_with_wrap`);
//! - under `--no-wrap` the condition is assumed, so such races are not reported (as if the
//!   index arithmetic were on mathematical integers within the signed 32-bit range, like
//!   Faial's integers).

use crate::kpl::BinOp;
use std::collections::HashMap;
use z3::ast::{Bool, BV};

use crate::verify::word::W;

/// The condition that `x op y` does not leave the signed 32-bit range, for the operators that
/// can wrap (`None` for the others: comparisons, bitwise operators, division, shifts right).
pub fn op_no_wrap(op: BinOp, x: &BV, y: &BV) -> Option<Bool> {
    Some(match op {
        BinOp::Add => Bool::and(&[&x.bvadd_no_overflow(y, true), &x.bvadd_no_underflow(y)]),
        BinOp::Sub => Bool::and(&[&x.bvsub_no_overflow(y), &x.bvsub_no_underflow(y, true)]),
        BinOp::Mul => Bool::and(&[&x.bvmul_no_overflow(y, true), &x.bvmul_no_underflow(y)]),
        // `x << y` keeps its value when shifted back and the shift is below the width.
        BinOp::Shl => Bool::and(&[&x.bvshl(y).bvashr(y).eq(x), &y.bvult(BV::from_u64(u64::from(W), W))]),
        _ => return None,
    })
}

/// The no-wrap facts of variables after `if (cond)`: a variable's fact from the branch where the
/// branch ran, the one from before otherwise. Variables declared in the branch go out of scope.
pub fn merge(
    cond: &Bool,
    taken: HashMap<String, Bool>,
    before: HashMap<String, Bool>,
) -> HashMap<String, Bool> {
    let mut out = HashMap::new();
    let t = Bool::from_bool(true);
    for (name, old) in &before {
        let new = taken.get(name).unwrap_or(&t);
        if new.ast_eq(old) {
            out.insert(name.clone(), old.clone());
        } else {
            out.insert(name.clone(), cond.ite(new, old));
        }
    }
    // A variable known nowhere before but assigned in the branch (declared before it without a
    // fact): after the if it holds the branch's value only when the branch ran.
    for (name, new) in taken {
        if !before.contains_key(&name) {
            out.insert(name, cond.implies(&new));
        }
    }
    out
}
