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
    // The conditions of `+` and `*` are symmetric: built in one order of the operands (by their
    // structural hash), `y * x` as the index lemmas read a simplified product gets the very
    // term the no-wrap assumption asserted for `x * y`, which then costs the solver nothing.
    let (x, y) = match op {
        BinOp::Add | BinOp::Mul | BinOp::UAdd | BinOp::UMul if structural_hash(y) < structural_hash(x) => {
            (y, x)
        }
        _ => (x, y),
    };
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

/// z3's structural hash of `t`: the same for the same term in every run.
pub(crate) fn structural_hash<T: std::hash::Hash>(t: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    t.hash(&mut h);
    h.finish()
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

/// One reading of a sum as a row-major index `a * n + b`, with the conditions under which it is
/// exact: no `+` or `*` of the sum as written leaves the signed 32-bit range (the very terms the
/// no-wrap assumption asserts, so they cost the solver nothing), nor does building `a` and `b`.
/// Under them the three terms are the mathematical integers they denote and `t = a * n + b`.
///
/// `natural` are the hypotheses of a second reading, for rows of non-negative terms, that needs
/// no new term to stay in range: every factor multiplied by `n` is non-negative, each product
/// with `n` as written does not wrap, nor does their sum in the order of the index. Under them
/// `a * n` (the sum of those products) is a number in `[0, 2^31)`, and `t ≡ a * n + b` modulo
/// 2^32 for any `b` (a ring identity).
struct Row {
    a: BV,
    n: BV,
    b: BV,
    exact: Vec<Bool>,
    natural: Vec<Bool>,
}

/// The summands of `t` (nested additions flattened), with the no-wrap conditions of the
/// additions flattened through.
fn summands(t: &BV, terms: &mut Vec<BV>, exact: &mut Vec<Bool>) {
    spine(t, DeclKind::Badd, BinOp::Add, terms, exact);
}

/// The factors of `t` (nested products flattened), with the no-wrap conditions of the
/// products flattened through.
fn factors(t: &BV, out: &mut Vec<BV>, exact: &mut Vec<Bool>) {
    spine(t, DeclKind::Bmul, BinOp::Mul, out, exact);
}

fn spine(t: &BV, kind: DeclKind, op: BinOp, out: &mut Vec<BV>, exact: &mut Vec<Bool>) {
    let is_op = t.safe_decl().is_ok_and(|d| super::kind::of(&d) == kind);
    if !is_op {
        out.push(t.clone());
        return;
    }
    let args: Vec<BV> = t.children().iter().filter_map(|c| c.as_bv()).collect();
    // The operation's own condition, on its operands as written (an n-ary node folds left).
    // A simplified n-ary node of three operands may stand for any grouping of the source
    // (`token * n * d` written `(token * n) * d`, simplified `token * d * n`): its value is
    // exact when any grouping's steps are (each gives the mathematical result), so the
    // condition is their disjunction, one of which the no-wrap assumption asserts.
    if let [x, y, z] = &args[..] {
        let grouping = |xs: [&BV; 3]| {
            let mut c = Vec::new();
            fold(&xs.map(|x| x.clone()), op, 0, &mut c);
            Bool::and(&c.iter().collect::<Vec<_>>())
        };
        exact.push(Bool::or(&[&grouping([x, y, z]), &grouping([x, z, y]), &grouping([y, z, x])]));
    } else {
        fold(&args, op, 0, exact);
    }
    for x in &args {
        spine(x, kind, op, out, exact);
    }
}

/// `xs` combined by `op` left to right (`unit` when empty), with the no-wrap conditions of the
/// combination.
fn fold(xs: &[BV], op: BinOp, unit: u64, exact: &mut Vec<Bool>) -> BV {
    let mut it = xs.iter();
    let Some(first) = it.next() else { return BV::from_u64(unit, W) };
    it.fold(first.clone(), |acc, x| {
        exact.extend(op_no_wrap(op, &acc, x));
        if op == BinOp::Add {
            acc.bvadd(x)
        } else {
            acc.bvmul(x)
        }
    })
}

/// `t` as `a * n + b` in each way its shape allows: `t` a sum (or a product: `b` is 0), `n` a factor of one of its
/// products, `a` the sum of what multiplies `n` in every summand that has it as a factor
/// (`(y + 8 * i) * pitch` in `y * pitch + x + i * 8 * pitch`), `b` the sum of the others.
fn rows_of(t: &BV) -> Vec<Row> {
    let mut out = Vec::new();
    if !t.safe_decl().is_ok_and(|d| matches!(super::kind::of(&d), DeclKind::Badd | DeclKind::Bmul)) {
        return out;
    }
    let mut spine_exact = Vec::new();
    let mut terms = Vec::new();
    summands(t, &mut terms, &mut spine_exact);
    // Each term's factors, with the no-wrap conditions of its own products.
    let split: Vec<(Vec<BV>, Vec<Bool>)> = terms
        .iter()
        .map(|x| {
            let (mut fs, mut product_exact) = (Vec::new(), Vec::new());
            factors(x, &mut fs, &mut product_exact);
            spine_exact.extend(product_exact.iter().cloned());
            (fs, product_exact)
        })
        .collect();
    // Row lengths: each factor of a product, and for a product of three factors each product of
    // two (`row * (cols * 2)` of a byte offset `row * cols * 2 + 4 * i`), as factor lists in
    // one order (by structural hash), so that both indices build the same term for one length.
    let mut rows_lengths: Vec<Vec<BV>> = Vec::new();
    for (fs, _) in split.iter().filter(|(fs, _)| fs.len() >= 2) {
        let mut candidates: Vec<Vec<BV>> = fs.iter().map(|f| vec![f.clone()]).collect();
        if fs.len() == 3 {
            for skip in 0..3 {
                candidates.push(
                    fs.iter().enumerate().filter(|(j, _)| *j != skip).map(|(_, f)| f.clone()).collect(),
                );
            }
        }
        for mut c in candidates {
            c.sort_by_key(structural_hash);
            let known =
                rows_lengths.iter().any(|n| n.len() == c.len() && n.iter().zip(&c).all(|(x, y)| x.ast_eq(y)));
            if !known {
                rows_lengths.push(c);
            }
        }
    }
    let zero = BV::from_u64(0, W);
    for n_factors in rows_lengths {
        let mut exact = spine_exact.clone();
        let n = fold(&n_factors, BinOp::Mul, 1, &mut exact);
        let mut natural = Vec::new();
        let (mut cofactors, mut rest, mut products) = (Vec::new(), Vec::new(), Vec::new());
        for (term, (fs, product_exact)) in terms.iter().zip(&split) {
            match without_factors(fs, &n_factors) {
                Some(others) => {
                    natural.extend(others.iter().map(|f| f.bvsge(&zero)));
                    natural.extend(product_exact.iter().cloned());
                    products.push(term.clone());
                    cofactors.push(fold(&others, BinOp::Mul, 1, &mut exact));
                }
                None => rest.push(term.clone()),
            }
        }
        fold(&products, BinOp::Add, 0, &mut natural);
        let a = fold(&cofactors, BinOp::Add, 0, &mut exact);
        let b = fold(&rest, BinOp::Add, 0, &mut exact);
        out.push(Row { a, n, b, exact, natural });
    }
    out
}

/// `fs` without one occurrence of each of `n` (`None` unless it has them all).
fn without_factors(fs: &[BV], n: &[BV]) -> Option<Vec<BV>> {
    let mut rest = fs.to_vec();
    for f in n {
        let k = rest.iter().position(|x| x.ast_eq(f))?;
        rest.remove(k);
    }
    Some(rest)
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
    for r1 in rows_of(i1) {
        for r2 in rows_of(i2) {
            // A constant row length too when the columns vary: `row * 1000 + c` with a strided
            // column `c` is linear, but the solver does not find the row argument by itself.
            // (With constant columns the facts only cost time.)
            let constant_columns = r1.b.as_u64().is_some() || r2.b.as_u64().is_some();
            let n = &r1.n;
            if !n.ast_eq(&r2.n) {
                continue;
            }
            if n.as_u64().is_some() && (constant_columns || n.as_u64() == Some(0)) {
                // `4 * i + 1` of a grid-stride `i`: equal columns give equal rows (`n != 0`),
                // which may be row-major indices themselves.
                if n.as_u64() != Some(0) {
                    let mut hyp = vec![i1.eq(i2), r1.b.eq(&r2.b)];
                    hyp.extend(r1.exact.iter().cloned());
                    hyp.extend(r2.exact.iter().cloned());
                    out.push(Bool::and(&hyp.iter().collect::<Vec<_>>()).implies(r1.a.eq(&r2.a)));
                    out.extend(row_lemmas(&r1.a, &r2.a, depth - 1));
                }
                continue;
            }
            let column = |b: &BV| {
                Bool::or(&[
                    &Bool::and(&[&b.bvsge(&zero), &b.bvslt(n)]),
                    &Bool::and(&[&b.bvult(n), &n.bvsge(&zero)]),
                ])
            };
            let mut hyp = vec![i1.eq(i2), column(&r1.b), column(&r2.b)];
            hyp.extend(r1.exact.iter().cloned());
            hyp.extend(r2.exact.iter().cloned());
            let hyp = Bool::and(&hyp.iter().collect::<Vec<_>>());
            let same_row = Bool::and(&[&r1.a.eq(&r2.a), &r1.b.eq(&r2.b)]);
            out.push(hyp.implies(&same_row));
            // The natural reading: `a1 * n + b1 ≡ a2 * n + b2` with both sides in `[0, 2^32)`
            // (`a * n < 2^31`, `0 <= b < n < 2^31`) are equal numbers; it needs no new sum or
            // product to stay in range, only the index's own terms and signs.
            let natural_column = |b: &BV| Bool::and(&[&b.bvsge(&zero), &b.bvslt(n)]);
            let mut hyp = vec![i1.eq(i2), n.bvsgt(&zero), natural_column(&r1.b), natural_column(&r2.b)];
            hyp.extend(r1.natural.iter().cloned());
            hyp.extend(r2.natural.iter().cloned());
            out.push(Bool::and(&hyp.iter().collect::<Vec<_>>()).implies(&same_row));
            out.extend(row_lemmas(&r1.a, &r2.a, depth - 1));
        }
    }
    out
}

/// `i1` and `i2` without the summands they share (`blockIdx.x * n * d` of a row base both
/// threads of a block add): `rest1 == rest2 + k` exactly when `i1 == i2 + k`, for every
/// bit-vector value (addition modulo 2^32 cancels), so equalities and lemmas may read the rests.
/// They spare the solver the shared term's products, and let the row facts see `h * d + i`,
/// which a shared summand hides in each column. `None` when nothing is shared.
pub fn without_common_summands(i1: &BV, i2: &BV) -> Option<(BV, BV)> {
    let (mut t1, mut t2, mut ignored) = (Vec::new(), Vec::new(), Vec::new());
    summands(i1, &mut t1, &mut ignored);
    summands(i2, &mut t2, &mut ignored);
    let mut shared = false;
    t1.retain(|x| match t2.iter().position(|y| y.ast_eq(x)) {
        Some(k) => {
            t2.remove(k);
            shared = true;
            false
        }
        None => true,
    });
    let sum = |xs: &[BV]| {
        xs.iter().skip(1).fold(xs.first().cloned().unwrap_or_else(|| BV::from_u64(0, W)), |a, x| a.bvadd(x))
    };
    shared.then(|| (sum(&t1), sum(&t2)))
}

/// A division or remainder node of an index term.
struct Division {
    node: BV,
    dividend: BV,
    divisor: BV,
    /// A quotient (else a remainder).
    quotient: bool,
    signed: bool,
}

/// The divisions and remainders inside `t` (at most `MAX_DIVISIONS`, each node once).
fn divisions(t: &BV) -> Vec<Division> {
    const MAX_DIVISIONS: usize = 16;
    let mut out = Vec::new();
    crate::verify::symbolic::walk_dag(t, &mut |n, _| {
        let (quotient, signed) = match n.safe_decl().map(|d| super::kind::of(&d)) {
            Ok(DeclKind::Budiv | DeclKind::BudivI) => (true, false),
            Ok(DeclKind::Bsdiv | DeclKind::BsdivI) => (true, true),
            Ok(DeclKind::Burem | DeclKind::BuremI) => (false, false),
            Ok(DeclKind::Bsrem | DeclKind::BsremI) => (false, true),
            _ => return crate::verify::symbolic::Walk::Into,
        };
        let kids: Vec<BV> = n.children().iter().filter_map(|c| c.as_bv()).collect();
        if let (Some(node), [x, g]) = (n.as_bv(), &kids[..]) {
            out.push(Division { node, dividend: x.clone(), divisor: g.clone(), quotient, signed });
        }
        if out.len() >= MAX_DIVISIONS {
            crate::verify::symbolic::Walk::Stop
        } else {
            crate::verify::symbolic::Walk::Into
        }
    });
    out
}

/// The unsigned remainders `(a + c) % g` among `ds`: the node and the sum's two operands.
fn sum_remainders(ds: &[Division]) -> Vec<(&BV, BV, BV, &BV)> {
    let mut out = Vec::new();
    for d in ds.iter().filter(|d| !d.quotient && !d.signed) {
        if !d.dividend.safe_decl().is_ok_and(|x| super::kind::of(&x) == DeclKind::Badd) {
            continue;
        }
        let sum: Vec<BV> = d.dividend.children().iter().filter_map(|c| c.as_bv()).collect();
        if let [a, c] = &sum[..] {
            out.push((&d.node, a.clone(), c.clone(), &d.divisor));
        }
    }
    out
}

/// Redundant facts about two unsigned remainders `(a1 + c1) % g` and `(a2 + c2) % g` of one
/// divisor in two indices: when `a1 == a2`, every operand is below `g` and neither sum wraps,
/// equal remainders have `c1 == c2` (the sums differ by less than `g`, and both are below
/// `2g`). Each fact states its own hypotheses; it spares the solver a 32-bit divider for the
/// diagonal block order of a transpose (`(blockIdx.x + blockIdx.y) % gridDim.x`), where two
/// blocks in one column get different diagonals.
pub fn remainder_lemmas(i1: &BV, i2: &BV) -> Vec<Bool> {
    let mut out = Vec::new();
    let (d1, d2) = (divisions(i1), divisions(i2));
    for (u1, a1, c1, g) in sum_remainders(&d1) {
        for (u2, a2, c2, g2) in sum_remainders(&d2) {
            if !g.ast_eq(g2) {
                continue;
            }
            for ((x1, y1), (x2, y2)) in [((&a1, &c1), (&a2, &c2)), ((&c1, &a1), (&c2, &a2))] {
                let hyp = Bool::and(&[
                    &u1.eq(u2),
                    &x1.eq(x2),
                    &x1.bvult(g),
                    &y1.bvult(g),
                    &y2.bvult(g),
                    &x1.bvadd_no_overflow(y1, false),
                    &x2.bvadd_no_overflow(y2, false),
                ]);
                out.push(hyp.implies(y1.eq(y2)));
            }
        }
    }
    out
}

/// Redundant facts about indices that split dividends by one divisor (`h = p / half`, `i = p %
/// half` of a rotary embedding's pair `p`): equal quotients and equal remainders mean equal
/// dividends. It holds for every bit-vector value, signed or unsigned (`x` is `(x / g) * g + x %
/// g` modulo 2^32, and z3 makes `x % 0` be `x`), and spares the solver two 32-bit dividers: the
/// race of two pairs `p1 != p2` then needs `p1 == p2`. With them, the range of each remainder:
/// `0 <= x % g < g` for a signed `x >= 0` and `g > 0`, `x % g < g` unsigned for `g != 0`.
pub fn quotient_remainder_lemmas(i1: &BV, i2: &BV) -> Vec<Bool> {
    let (d1, d2) = (divisions(i1), divisions(i2));
    let mut out: Vec<Bool> = d1.iter().chain(&d2).filter_map(remainder_range).collect();
    // Per index, the (quotient, remainder) pairs of one dividend and divisor.
    let pairs = |ds: &[Division]| -> Vec<(BV, BV, BV, BV, bool)> {
        let mut v = Vec::new();
        for q in ds.iter().filter(|d| d.quotient) {
            for r in ds.iter().filter(|d| !d.quotient && d.signed == q.signed) {
                if q.dividend.ast_eq(&r.dividend) && q.divisor.ast_eq(&r.divisor) {
                    v.push((q.node.clone(), r.node.clone(), q.dividend.clone(), q.divisor.clone(), q.signed));
                }
            }
        }
        v
    };
    for (q1, r1, x1, g1, s1) in pairs(&d1) {
        for (q2, r2, x2, g2, s2) in pairs(&d2) {
            if s1 == s2 && g1.ast_eq(&g2) && !x1.ast_eq(&x2) {
                out.push(Bool::and(&[&q1.eq(&q2), &r1.eq(&r2)]).implies(x1.eq(&x2)));
            }
        }
    }
    out
}

/// Redundant bounds on the quotients of two indices from the conditions their accesses run
/// under: where a condition reads `x < n * g` (a rotary embedding's `p < n_heads * half`), the
/// quotient `x / g` (`h = p / half`) is in `[0, n)`: for a signed `x >= 0`, `g > 0` and a product
/// that does not leave the signed range (`x / g >= n` would give `x >= n * g`); unsigned, for
/// `g != 0` and a product that does not wrap. Each fact states its own hypotheses, so it holds
/// for every bit-vector value wherever the comparison sits in `conds`. With it, the row facts
/// find `h < n_heads` as the column of `(token * n_heads + h) * head_dim + i`, and two blocks'
/// tokens apart; the solver does not find the bound through a 32-bit divider by itself.
pub fn quotient_bound_lemmas(i1: &BV, i2: &BV, conds: &[&Bool]) -> Vec<Bool> {
    const MAX_COMPARISONS: usize = 64;
    let quotients: Vec<Division> =
        divisions(i1).into_iter().chain(divisions(i2)).filter(|d| d.quotient).collect();
    if quotients.is_empty() {
        return Vec::new();
    }
    // `(x, m, signed)` of each comparison `x < m` in the conditions.
    let mut below: Vec<(BV, BV, bool)> = Vec::new();
    for c in conds {
        crate::verify::symbolic::walk_dag(*c, &mut |n, _| {
            let flipped_signed = match n.safe_decl().map(|d| super::kind::of(&d)) {
                Ok(DeclKind::Slt) => Some((false, true)),
                Ok(DeclKind::Ult) => Some((false, false)),
                Ok(DeclKind::Sgt) => Some((true, true)),
                Ok(DeclKind::Ugt) => Some((true, false)),
                _ => None,
            };
            if let Some((flipped, signed)) = flipped_signed {
                let kids: Vec<BV> = n.children().iter().filter_map(|c| c.as_bv()).collect();
                if let [l, r] = &kids[..] {
                    let (x, m) = if flipped { (r, l) } else { (l, r) };
                    below.push((x.clone(), m.clone(), signed));
                }
            }
            if below.len() >= MAX_COMPARISONS {
                crate::verify::symbolic::Walk::Stop
            } else {
                crate::verify::symbolic::Walk::Into
            }
        });
    }
    let zero = BV::from_u64(0, W);
    let mut out = Vec::new();
    for q in &quotients {
        for (x, m, signed) in below.iter().filter(|(x, _, _)| x.ast_eq(&q.dividend)) {
            let mut exact = Vec::new();
            let mut fs = Vec::new();
            factors(m, &mut fs, &mut exact);
            let Some(k) = fs.iter().position(|f| f.ast_eq(&q.divisor)) else { continue };
            fs.remove(k);
            let g = &q.divisor;
            let n = fold(&fs, BinOp::Mul, 1, &mut exact);
            let product = if *signed { n.bvmul_no_overflow(g, true) } else { n.bvmul_no_overflow(g, false) };
            // With `n, g >= 0` (sizes), `0 <= x < n * g` also says `g > 0`.
            let positive = Bool::or(&[&g.bvsgt(&zero), &Bool::and(&[&g.bvsge(&zero), &n.bvsge(&zero)])]);
            let (lt, hyp) = if *signed && q.signed {
                (x.bvslt(m), vec![x.bvsge(&zero), positive, n.bvmul_no_underflow(g)])
            } else if !*signed && !q.signed {
                (x.bvult(m), vec![g.eq(&zero).not()])
            } else {
                continue;
            };
            let mut all = vec![lt, product];
            all.extend(hyp);
            all.extend(exact);
            let bound = if q.signed {
                Bool::and(&[&g.bvsgt(&zero), &q.node.bvsge(&zero), &q.node.bvslt(&n)])
            } else {
                q.node.bvult(&n)
            };
            out.push(Bool::and(&all.iter().collect::<Vec<_>>()).implies(bound));
        }
    }
    out
}

/// The range of remainder `d` (C's remainder, exact in every bit-vector value under its
/// hypotheses; the solver otherwise needs a 32-bit divider to bound `p % half`).
fn remainder_range(d: &Division) -> Option<Bool> {
    if d.quotient {
        return None;
    }
    let zero = BV::from_u64(0, W);
    let (r, x, g) = (&d.node, &d.dividend, &d.divisor);
    Some(if d.signed {
        Bool::and(&[&x.bvsge(&zero), &g.bvsgt(&zero)]).implies(Bool::and(&[&r.bvsge(&zero), &r.bvslt(g)]))
    } else {
        g.eq(&zero).not().implies(r.bvult(g))
    })
}
