//! A cheap, exact pre-filter in front of the SMT queries: two accesses whose linearized indices
//! lie in disjoint value ranges can never touch one element, so no case of the pair needs asking.
//!
//! The ranges come from an interval evaluation of the very z3 terms the queries would use
//! ([`super::symbolic::AccessSym::index`]), as 32-bit unsigned values: an operation whose result
//! might wrap around yields the full range. Leaves are numerals, the launch's thread/block ids and
//! dimensions (ranges implied by the launch facts every query asserts), and anything else (loop
//! iterations, parameters, values read from memory) is the full range; per pair, the ranges are
//! narrowed by the loop guards and closed-form counters the pair's query asserts
//! ([`Ranges::narrowed`]). The evaluation is thus a
//! sound over-approximation of every value the term takes in a model of the query's assertions:
//! when the two ranges are disjoint, `index₁ = index₂` is unsatisfiable and the SMT query would
//! answer "no race" too. It catches the common shapes — constant different first indices of
//! multi-dimensional arrays (`s[i][…]` vs `s[j][…]` with the inner index within its row), tiles
//! at disjoint offsets, `[t % 256]` vs `[256 + t]` — without a solver call.
//!
//! Accesses ordered by barriers in every trace (Faial's barrier intervals) need no filter here:
//! `Case::is_separated_by` decides them syntactically before any query.

use super::congruence::Residues;
use super::launch::{Launch, ThreadIds};
use super::symbolic::{AccessSym, StridedCounter, ThreadTrace};
use super::word::W;
use crate::kpl::Geometry;
use rustc_hash::FxHashMap as HashMap;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::DeclKind;

/// The largest word value.
const MAX: u64 = (1u64 << W) - 1;
/// Values below this are non-negative as signed words.
const SIGN: u64 = 1u64 << (W - 1);
use crate::limits::MAX_PREFILTER_TERM_DEPTH as MAX_DEPTH;

/// An unsigned interval `[lo, hi]` of word values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: u64,
    pub hi: u64,
}

impl Interval {
    /// Every word value.
    pub const FULL: Interval = Interval { lo: 0, hi: MAX };

    fn new(lo: u64, hi: u64) -> Interval {
        if lo <= hi && hi <= MAX {
            Interval { lo, hi }
        } else {
            Interval::FULL
        }
    }

    fn point(v: u64) -> Interval {
        Interval::new(v, v)
    }

    /// The two intervals share no value.
    pub fn disjoint(&self, other: &Interval) -> bool {
        self.hi < other.lo || other.hi < self.lo
    }

    fn non_negative(&self) -> bool {
        self.hi < SIGN
    }
}

/// Interval evaluation of word terms, memoized per term (terms are shared DAGs).
#[derive(Clone)]
pub struct Ranges {
    /// The kernel's leaves, shared by every pair's narrowed ranges (a copy per pair made the
    /// nested-loop scale family cubic in its phases).
    leaves: std::rc::Rc<HashMap<Dynamic, Interval>>,
    /// One pair's narrowed leaves, read before `leaves`.
    narrow: HashMap<Dynamic, Interval>,
    memo: HashMap<Dynamic, Interval>,
    /// The indices' low bits, which no narrowing changes.
    residues: Residues,
}

impl Ranges {
    /// Leaves for the launch dimensions and the ids of `threads`, with the ranges the launch facts
    /// ([`Launch::new`], [`ThreadIds::new`]) imply: a given dimension is that constant; a symbolic
    /// block dimension is in `1..=1024`, a grid dimension in `1..=2^31 - 1` along `x` and
    /// `1..=65535` along `y`/`z`; an id is below its dimension.
    pub fn new(launch: &Launch, geometry: &Geometry, threads: &[&ThreadIds]) -> Ranges {
        let mut leaves = HashMap::default();
        let dims = |given: Option<[u32; 3]>, max: [u64; 3]| -> [Interval; 3] {
            std::array::from_fn(|i| match given {
                Some(d) => Interval::point(u64::from(d[i])),
                None => Interval::new(1, max[i]),
            })
        };
        let block = dims(geometry.block_dim, [1024; 3]);
        let grid = dims(geometry.grid_dim, [(1 << 31) - 1, 65535, 65535]);
        let below = |d: Interval| if d.hi == 0 { Interval::FULL } else { Interval::new(0, d.hi - 1) };
        // A dimension the launch shape fixes is the numeral 1 and its ids the numeral 0: those
        // are not leaves (z3 numerals are equal by value, so a leaf `0` would widen every 0).
        let mut leaf = |term: &BV, iv: Interval| {
            if term.as_u64().is_none() {
                leaves.insert(Dynamic::from_ast(term), iv);
            }
        };
        for i in 0..3 {
            leaf(&launch.block_dim[i], block[i]);
            leaf(&launch.grid_dim[i], grid[i]);
            for t in threads {
                leaf(&t.tid[i], below(block[i]));
                leaf(&t.bid[i], below(grid[i]));
            }
        }
        Ranges {
            leaves: std::rc::Rc::new(leaves),
            narrow: HashMap::default(),
            memo: HashMap::default(),
            residues: Residues::default(),
        }
    }

    /// Adds the iteration variables of `trace`'s loops: below `2^31` (the assumption every query
    /// of an access in the loop carries, see `SymExec::while_loop`), and below the trip count for
    /// loops with a constant one (`ThreadTrace::trips`): no execution runs iteration `n` or later
    /// of a loop whose guard is false at iteration `n` and constant before.
    pub fn with_loops(mut self, trace: &ThreadTrace) -> Ranges {
        let loops = trace
            .accesses
            .values()
            .flat_map(|a| a.loops.iter())
            .chain(trace.blocks.values().flat_map(|b| b.loops.iter()));
        for (l, k) in loops {
            let hi = match trace.trips.get(l) {
                Some(&n) if n >= 1 => (n - 1).min(SIGN - 1),
                _ => SIGN - 1,
            };
            std::rc::Rc::make_mut(&mut self.leaves).insert(Dynamic::from_ast(k), Interval::new(0, hi));
        }
        self.memo.clear();
        self
    }

    /// Whether thread 1's access `s[0]` and thread 2's `s[1]` (of `traces`, the mode's two
    /// walks) never touch one element: their indices' ranges, narrowed for the pair
    /// ([`Ranges::narrowed`]), are disjoint, or they differ modulo a power of two
    /// ([`super::congruence`]). True means the pair's meeting query has no model.
    pub fn apart(&mut self, s: [&AccessSym; 2], traces: &[ThreadTrace; 2]) -> bool {
        let mut r = self.narrowed(s, [&traces[0].strided, &traces[1].strided]);
        // A wider access covers `width` elements from its index on.
        let [x, y] = s.map(|s| {
            let i = r.of(&s.index);
            match s.width {
                1 => i,
                w => Interval::new(i.lo, i.hi.saturating_add(u64::from(w) - 1)),
            }
        });
        if x.disjoint(&y) {
            return true;
        }
        let [a, b] = s.map(|s| self.residues.of(&Dynamic::from_ast(&s.index)));
        a.ranges_differ(s[0].width, b, s[1].width)
    }

    /// Whether every bounded subscript of thread 1's access `s` provably stays below its
    /// dimension (`AccessSym::subscripts`), by these ranges narrowed as for a pair of `s` with
    /// itself: the out-of-bounds query of `s` (which asserts what that narrowing assumes: the
    /// access enabled, its iteration assumptions) then has no model.
    pub fn within_bounds(&mut self, s: &AccessSym, strided: &[StridedCounter]) -> bool {
        let mut r = self.narrowed([s, s], [strided, strided]);
        let last = s.subscripts.len().saturating_sub(1);
        // The last subscript's access covers `width` elements from its value on.
        let extra = |k: usize| if k == last { u64::from(s.width) - 1 } else { 0 };
        s.subscripts
            .iter()
            .enumerate()
            .all(|(k, (t, bound))| bound.is_none_or(|b| r.of(t).hi.saturating_add(extra(k)) < u64::from(b)))
    }

    /// These ranges narrowed by what a meeting query of `s1` (thread 1) and `s2` (thread 2)
    /// asserts besides the launch facts (`meeting` in the oracle): both accesses' enabling
    /// conditions and iteration assumptions. Two narrowings, each a consequence of those
    /// assertions, so a pair apart under them has no model of the query either:
    ///
    /// - a strided counter `x0 + k·e` of a loop around the access (`counters`, the thread's
    ///   `ThreadTrace::strided`) whose start and step are non-negative ints: the closed form's
    ///   assumption (`StridedCounter::exact`, part of the access's `assume`) says its exact value
    ///   fits an int, so it lies in `[x0, 2^31)`;
    /// - a conjunct `t < c`, `t <= c` of an enabling condition (a loop or `if` guard such as
    ///   `j < 256`) bounds `t` from above — for a signed comparison only when `t` is already known
    ///   non-negative.
    ///
    /// This keeps the rows of `s[i][j]` apart in block-stride loops (`j += blockDim.x`), where
    /// `j`'s product `k·blockDim.x` alone could wrap and the solver has to bit-blast it.
    fn narrowed(&self, s: [&AccessSym; 2], counters: [&[StridedCounter]; 2]) -> Ranges {
        // The memo is of the unnarrowed ranges: not cloned.
        let mut r = Ranges {
            leaves: self.leaves.clone(),
            narrow: HashMap::default(),
            memo: HashMap::default(),
            residues: Residues::default(),
        };
        for (access, counters) in s.iter().zip(counters) {
            for c in
                counters.iter().filter(|c| access.loops.iter().any(|(l, k)| *l == c.lp && k.ast_eq(&c.k)))
            {
                let (start, step) = (r.of(&c.start), r.of(&c.step));
                if start.non_negative() && step.non_negative() {
                    r.narrow.insert(Dynamic::from_ast(&c.value), Interval::new(start.lo, SIGN - 1));
                    r.memo.clear();
                }
            }
        }
        for access in s {
            r.bound_by(&access.enabled, 0);
        }
        r.memo.clear();
        r
    }

    /// Narrows the terms `cond`'s top-level conjuncts bound from above.
    fn bound_by(&mut self, cond: &Bool, depth: u32) {
        let c = Dynamic::from_ast(cond);
        let Ok(decl) = c.safe_decl() else { return };
        let args = c.children();
        if super::kind::of(&decl) == DeclKind::And {
            if depth < MAX_DEPTH {
                for a in args.iter().filter_map(|a| a.as_bool()) {
                    self.bound_by(&a, depth + 1);
                }
            }
            return;
        }
        let (signed, strict) = match super::kind::of(&decl) {
            DeclKind::Slt => (true, true),
            DeclKind::Sleq => (true, false),
            DeclKind::Ult => (false, true),
            DeclKind::Uleq => (false, false),
            _ => return,
        };
        let (Some(term), Some(bound)) =
            (args.first().and_then(|a| a.as_bv()), args.get(1).and_then(|a| a.as_bv()))
        else {
            return;
        };
        let Some(bound) = bound.as_u64() else { return };
        if term.get_size() != W || term.as_u64().is_some() || (signed && bound >= SIGN) {
            return;
        }
        let hi = match (strict, bound) {
            (true, 0) => return, // `t < 0`: unsigned never holds, signed says nothing here
            (true, b) => b - 1,
            (false, b) => b,
        };
        let now = self.of(&term);
        if signed && !now.non_negative() {
            return;
        }
        if now.lo <= hi {
            self.narrow.insert(Dynamic::from_ast(&term), Interval::new(now.lo, now.hi.min(hi)));
            self.memo.clear();
        }
    }

    /// A range holding every value `term` takes under the launch facts.
    pub fn of(&mut self, term: &BV) -> Interval {
        if term.get_size() != W {
            return Interval::FULL;
        }
        self.eval(&Dynamic::from_ast(term), 0)
    }

    fn eval(&mut self, t: &Dynamic, depth: u32) -> Interval {
        if let Some(iv) = self.narrow.get(t).or_else(|| self.leaves.get(t)).or_else(|| self.memo.get(t)) {
            return *iv;
        }
        let iv = if depth > MAX_DEPTH { Interval::FULL } else { self.compute(t, depth) };
        self.memo.insert(t.clone(), iv);
        iv
    }

    fn compute(&mut self, t: &Dynamic, depth: u32) -> Interval {
        let Some(bv) = t.as_bv() else { return Interval::FULL };
        if bv.get_size() != W {
            return Interval::FULL;
        }
        if let Some(v) = bv.as_u64() {
            return Interval::point(v);
        }
        let Ok(decl) = t.safe_decl() else { return Interval::FULL };
        let args = t.children();
        let arg = |i: usize, this: &mut Ranges| match args.get(i) {
            Some(a) => this.eval(a, depth + 1),
            None => Interval::FULL,
        };
        match super::kind::of(&decl) {
            DeclKind::Badd => {
                let (mut lo, mut hi) = (0u64, 0u64);
                for i in 0..args.len() {
                    let x = arg(i, self);
                    lo += x.lo;
                    hi += x.hi;
                    if hi > MAX {
                        return Interval::FULL;
                    }
                }
                Interval::new(lo, hi)
            }
            DeclKind::Bmul => {
                let (mut lo, mut hi) = (1u64, 1u64);
                for i in 0..args.len() {
                    let x = arg(i, self);
                    match (lo.checked_mul(x.lo), hi.checked_mul(x.hi)) {
                        (Some(l), Some(h)) if h <= MAX => (lo, hi) = (l, h),
                        _ => return Interval::FULL,
                    }
                }
                Interval::new(lo, hi)
            }
            DeclKind::Bsub if args.len() == 2 => {
                let (a, b) = (arg(0, self), arg(1, self));
                if a.lo >= b.hi {
                    Interval::new(a.lo - b.hi, a.hi - b.lo)
                } else if a.hi < b.lo {
                    // Always wraps: the true difference is negative by a bounded amount.
                    Interval::new(MAX + 1 + a.lo - b.hi, MAX + 1 + a.hi - b.lo)
                } else {
                    Interval::FULL
                }
            }
            DeclKind::Bneg => {
                let x = arg(0, self);
                if x == Interval::point(0) {
                    x
                } else if x.lo >= 1 {
                    Interval::new(MAX + 1 - x.hi, MAX + 1 - x.lo)
                } else {
                    Interval::FULL
                }
            }
            DeclKind::Budiv | DeclKind::BudivI => {
                let (x, d) = (arg(0, self), arg(1, self));
                if d.lo >= 1 {
                    Interval::new(x.lo / d.hi, x.hi / d.lo)
                } else {
                    Interval::FULL
                }
            }
            DeclKind::Bsdiv | DeclKind::BsdivI => {
                let (x, d) = (arg(0, self), arg(1, self));
                if x.non_negative() && d.lo >= 1 && d.non_negative() {
                    Interval::new(x.lo / d.hi, x.hi / d.lo)
                } else {
                    Interval::FULL
                }
            }
            // `x urem y ≤ x` (and `x urem 0 = x`); below `y` when `y ≥ 1`.
            DeclKind::Burem | DeclKind::BuremI => {
                let (x, d) = (arg(0, self), arg(1, self));
                if x.hi < d.lo {
                    x
                } else if d.lo >= 1 {
                    Interval::new(0, x.hi.min(d.hi - 1))
                } else {
                    Interval::new(0, x.hi)
                }
            }
            // For `x ≥ 0`: `0 ≤ x srem y ≤ x` (`x srem 0 = x`), below `y` when `1 ≤ y < 2^31`.
            DeclKind::Bsrem | DeclKind::BsremI => {
                let (x, d) = (arg(0, self), arg(1, self));
                if !x.non_negative() {
                    Interval::FULL
                } else if d.lo >= 1 && d.non_negative() {
                    if x.hi < d.lo {
                        x
                    } else {
                        Interval::new(0, x.hi.min(d.hi - 1))
                    }
                } else {
                    Interval::new(0, x.hi)
                }
            }
            DeclKind::Band => {
                let mut hi = MAX;
                for i in 0..args.len() {
                    hi = hi.min(arg(i, self).hi);
                }
                Interval::new(0, hi)
            }
            // `a | b` and `a ^ b` set no bit above the highest bit either operand may set
            // (`t ^ 1` with `t < 256` stays below 256).
            DeclKind::Bor | DeclKind::Bxor => {
                let mut hi = 0u64;
                for i in 0..args.len() {
                    hi |= arg(i, self).hi;
                }
                Interval::new(0, below_next_power_of_two(hi))
            }
            DeclKind::Bshl => {
                let (x, s) = (arg(0, self), arg(1, self));
                if s.hi < u64::from(W) && (x.hi << s.hi) <= MAX {
                    Interval::new(x.lo << s.lo, x.hi << s.hi)
                } else {
                    Interval::FULL
                }
            }
            DeclKind::Blshr => {
                let (x, s) = (arg(0, self), arg(1, self));
                Interval::new(x.lo >> s.hi.min(63), x.hi >> s.lo.min(63))
            }
            DeclKind::Bashr => {
                let (x, s) = (arg(0, self), arg(1, self));
                if x.non_negative() {
                    Interval::new(x.lo >> s.hi.min(63), x.hi >> s.lo.min(63))
                } else {
                    Interval::FULL
                }
            }
            DeclKind::Ite => {
                let (a, b) = (arg(1, self), arg(2, self));
                Interval::new(a.lo.min(b.lo), a.hi.max(b.hi))
            }
            _ => Interval::FULL,
        }
    }
}

/// The largest value with no bit above the highest set bit of `x` (`0b100` → `0b111`).
fn below_next_power_of_two(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        u64::MAX >> x.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kpl::Geometry;

    fn setup(block: Option<[u32; 3]>) -> (Launch, ThreadIds, Geometry) {
        let g = Geometry { block_dim: block, ..Geometry::default() };
        let launch = Launch::new(&g, &crate::verify::shape::LaunchShape::default());
        let mut facts = Vec::new();
        let ids = ThreadIds::new(1, None, &launch, &mut facts);
        (launch, ids, g)
    }

    fn c(v: u64) -> BV {
        BV::from_u64(v, W)
    }

    #[test]
    fn numerals_keep_their_value_under_an_inferred_shape() {
        // A symbolic launch whose y/z dimensions are inferred to be 1: they and their ids are the
        // numerals 1 and 0, which must not take the ranges of a symbolic dimension.
        let g = Geometry::default();
        let shape = crate::verify::shape::LaunchShape {
            block: [true, false, false],
            grid: [true, false, false],
            ..crate::verify::shape::LaunchShape::default()
        };
        let launch = Launch::new(&g, &shape);
        let mut facts = Vec::new();
        let ids = ThreadIds::new(1, None, &launch, &mut facts);
        let mut r = Ranges::new(&launch, &g, &[&ids]);
        assert_eq!(r.of(&c(0)), Interval::point(0));
        assert_eq!(r.of(&c(1)), Interval::point(1));
        // s[0][t] and s[1][t] over rows of 256 are apart.
        let t = ids.tid[0].bvurem(c(256));
        assert!(r.of(&c(0).bvmul(c(256)).bvadd(&t)).disjoint(&r.of(&c(256).bvadd(&t))));
    }

    #[test]
    fn rows_of_a_two_dimensional_array_are_disjoint() {
        let (launch, ids, g) = setup(Some([256, 1, 1]));
        let mut r = Ranges::new(&launch, &g, &[&ids]);
        let t = &ids.tid[0];
        // s[3][(t + 4) % 256] and s[4][t] over rows of 256.
        let a = c(3).bvmul(c(256)).bvadd(t.bvadd(c(4)).bvsrem(c(256)));
        let b = c(4).bvmul(c(256)).bvadd(t);
        let (ia, ib) = (r.of(&a), r.of(&b));
        assert_eq!(ia, Interval { lo: 768, hi: 1023 });
        assert_eq!(ib, Interval { lo: 1024, hi: 1279 });
        assert!(ia.disjoint(&ib));
    }

    #[test]
    fn xor_and_or_stay_below_the_next_power_of_two() {
        let (launch, ids, g) = setup(Some([256, 1, 1]));
        let mut r = Ranges::new(&launch, &g, &[&ids]);
        let t = &ids.tid[0];
        // s[3][t ^ 1] and s[4][t | 8] over rows of 256: t ≤ 255, so both inner indices are too.
        let a = c(3).bvmul(c(256)).bvadd(t.bvxor(c(1)));
        let b = c(4).bvmul(c(256)).bvadd(t.bvor(c(8)));
        assert_eq!(r.of(&t.bvxor(c(1))), Interval { lo: 0, hi: 255 });
        assert_eq!(r.of(&t.bvxor(c(256))), Interval { lo: 0, hi: 511 });
        assert!(r.of(&a).disjoint(&r.of(&b)));
    }

    #[test]
    fn a_term_that_may_wrap_is_the_full_range() {
        let (launch, ids, g) = setup(None);
        let mut r = Ranges::new(&launch, &g, &[&ids]);
        let t = &ids.tid[0];
        // t - 1 wraps for t = 0; t * 2^23 wraps past 2^32 for t ≥ 512.
        assert_eq!(r.of(&t.bvsub(c(1))), Interval::FULL);
        assert_eq!(r.of(&t.bvmul(c(1 << 23))), Interval::FULL);
        assert_eq!(r.of(&t.bvmul(c(4))), Interval { lo: 0, hi: 4092 });
        let k = BV::new_const("k", W);
        assert_eq!(r.of(&k.bvadd(c(1))), Interval::FULL);
    }

    #[test]
    fn signed_remainder_of_a_possibly_negative_value_is_unbounded() {
        let (launch, ids, g) = setup(Some([64, 1, 1]));
        let mut r = Ranges::new(&launch, &g, &[&ids]);
        let x = BV::new_const("x", W);
        assert_eq!(r.of(&x.bvsrem(c(8))), Interval::FULL);
        assert_eq!(r.of(&x.bvurem(c(8))), Interval { lo: 0, hi: 7 });
        let t = &ids.tid[0];
        assert_eq!(r.of(&t.bvsub(c(64))), Interval { lo: MAX + 1 - 64, hi: MAX });
    }
}
