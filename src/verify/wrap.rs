//! Integer wraparound: which executions need a `+`, `-`, `*` or `<<` to leave the signed 32-bit
//! range.
//!
//! The reference semantics is 32-bit machine arithmetic (bit-vectors), which is exact for
//! unsigned C arithmetic and for every signed computation that does not overflow (signed
//! overflow is undefined behaviour in C). `symbolic` tracks, along the data flow of every access
//! index, the condition that none of that arithmetic wraps (`AccessSym::no_wrap`). The oracle
//! uses it two ways (docs/semantics.md, "Integer model"):
//!
//! - by default (the bounded index space) the condition is assumed, so races that need a wrap
//!   are not reported (as if the index arithmetic were on mathematical integers within the
//!   signed 32-bit range, like Faial's integers);
//! - under `--wrap` it is not assumed, and a race whose every witness needs a wrap is reported
//!   marked "only if the index arithmetic wraps around" (`Witness::only_with_wrap`,
//!   `Race::only_with_wrap`).

use crate::kpl::BinOp;
use rustc_hash::FxHashMap as HashMap;
use z3::ast::{Ast, Bool, BV};
use z3::DeclKind;

use crate::verify::word::W;

/// The condition that `x op y` does not leave the signed 32-bit range, for the operators that
/// can wrap (`None` for the others: comparisons, bitwise operators, division, shifts right).
/// For C's unsigned sums and products (`uadd`, `umul`) the operands are unsigned numbers: the
/// bounded index space is then `[0, 2^31)` for them and the result, so `i + 4294966800u` is a
/// number past it, never `i - 496` (which the signed reading of the same word would allow).
/// `iuadd`/`iumul` (a signed number C converted to `unsigned`, then an unsigned number; `uiadd`/
/// `uimul` the other way round) read each operand as the program means it: the unsigned one a
/// number below 2^31, the signed one and the result signed numbers — `int i` plus `4294966800u` is outside the index space like the
/// unsigned sum, while `tid + dx` with `int dx = -1` is the signed offset it means.
pub fn op_no_wrap(op: BinOp, x: &BV, y: &BV) -> Option<Bool> {
    let zero = || BV::from_u64(0, W);
    Some(match op {
        BinOp::UAdd => Bool::and(&[&x.bvadd_no_overflow(y, true), &x.bvsge(zero()), &y.bvsge(zero())]),
        BinOp::UMul => Bool::and(&[&x.bvmul_no_overflow(y, true), &x.bvsge(zero()), &y.bvsge(zero())]),
        BinOp::IUAdd | BinOp::UIAdd => {
            let unsigned = if op == BinOp::IUAdd { y } else { x };
            Bool::and(&[&x.bvadd_no_overflow(y, true), &x.bvadd_no_underflow(y), &unsigned.bvsge(zero())])
        }
        BinOp::IUMul | BinOp::UIMul => {
            let unsigned = if op == BinOp::IUMul { y } else { x };
            Bool::and(&[&x.bvmul_no_overflow(y, true), &x.bvmul_no_underflow(y), &unsigned.bvsge(zero())])
        }
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
    let mut out = HashMap::default();
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

/// `t` as `a * n + b` in each way its shape allows: an addition of two terms one of which is a
/// product of two (either factor may be the row length `n`).
fn rows_of(t: &BV) -> Vec<(BV, BV, BV)> {
    let mut out = Vec::new();
    let Ok(decl) = t.safe_decl() else { return out };
    if decl.kind() != DeclKind::Badd {
        return out;
    }
    let args: Vec<BV> = t.children().iter().filter_map(|c| c.as_bv()).collect();
    if args.len() != 2 {
        return out;
    }
    for (p, b) in [(&args[0], &args[1]), (&args[1], &args[0])] {
        let Ok(pd) = p.safe_decl() else { continue };
        if pd.kind() != DeclKind::Bmul {
            continue;
        }
        let f: Vec<BV> = p.children().iter().filter_map(|c| c.as_bv()).collect();
        if f.len() != 2 {
            continue;
        }
        out.push((f[0].clone(), f[1].clone(), b.clone()));
        out.push((f[1].clone(), f[0].clone(), b.clone()));
    }
    out
}

/// Redundant facts about two row-major indices `a1 * n + b1` and `a2 * n + b2` with the same row
/// length `n`: when neither computation leaves the signed 32-bit range and both columns are in
/// `[0, n)`, equal indices have equal rows and columns (`(a1 - a2) * n = b2 - b1` with
/// `|b2 - b1| < n`). Each fact states its own hypotheses, so it holds for every bit-vector value
/// (it needs no assumption); it spares the solver the nonlinear argument for `out[y * nx + x]`
/// under the default no-wrap assumption, which it otherwise does not finish in minutes. Rows that
/// are row-major indices again (`(z * ny + y) * nx + x`) get their own facts, up to `depth`.
pub fn row_lemmas(i1: &BV, i2: &BV, depth: u32) -> Vec<Bool> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let zero = BV::from_u64(0, W);
    for (a1, n1, b1) in rows_of(i1) {
        for (a2, n2, b2) in rows_of(i2) {
            // A constant row length too when the columns vary: `row * 1000 + c` with a strided
            // column `c` is linear, but the solver does not find the row argument by itself.
            // (With constant columns the facts only cost time.)
            let constant_columns = b1.as_u64().is_some() || b2.as_u64().is_some();
            if !n1.ast_eq(&n2) || (n1.as_u64().is_some() && (constant_columns || n1.as_u64() == Some(0))) {
                continue;
            }
            let n = &n1;
            let column = |b: &BV| {
                Bool::or(&[
                    &Bool::and(&[&b.bvsge(&zero), &b.bvslt(n)]),
                    &Bool::and(&[&b.bvult(n), &n.bvsge(&zero)]),
                ])
            };
            let exact = |a: &BV, b: &BV| {
                let p = a.bvmul(n);
                let mut c = Vec::new();
                c.extend(op_no_wrap(BinOp::Mul, a, n));
                c.extend(op_no_wrap(BinOp::Add, &p, b));
                c
            };
            let mut hyp = vec![i1.eq(i2), column(&b1), column(&b2)];
            hyp.extend(exact(&a1, &b1));
            hyp.extend(exact(&a2, &b2));
            let hyp = Bool::and(&hyp.iter().collect::<Vec<_>>());
            out.push(hyp.implies(Bool::and(&[&a1.eq(&a2), &b1.eq(&b2)])));
            out.extend(row_lemmas(&a1, &a2, depth - 1));
        }
    }
    out
}
