//! A cheap first attempt at a query: every nonlinear operation an uninterpreted function.
//!
//! Bit-blasting is what makes a race query expensive: a product of two unknowns
//! (`h * head_dim`), a division by one (`p / half`), a 64-bit loop closed form (`tid + k ·
//! blockDim.x`) and the overflow predicates of such products each become a circuit of thousands
//! of gates, even when the argument that two accesses never meet is linear once the index
//! lemmas (`wrap.rs`, `symbolic::strided_lemmas`) are known. [`Abstraction`] replaces each such
//! operation by an uninterpreted function of its operands (one per operation and width; the
//! operands of a commutative one in a fixed order), and keeps everything else.
//!
//! Soundness: the abstract query is a weakening. A model of the query is a model of the
//! abstraction with each function interpreted as the operation it stands for (the operations are
//! functions, and the commutative ones take their operands in any order), so an unsatisfiable
//! abstraction proves the query unsatisfiable. A satisfiable or undecided one proves nothing: the
//! caller then asks the query itself. Functions, not fresh constants, so that two spellings of
//! one product (`x * y`, `y * x`, or built apart by a lemma and by the no-wrap assumption) stay one
//! value.

use rustc_hash::FxHashMap as HashMap;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{DeclKind, FuncDecl, Sort};

/// The abstraction of one mode's base facts, and the functions and memo that extend to each
/// query's own assertions.
pub(super) struct Abstraction {
    /// Each abstracted node and its replacement.
    memo: HashMap<Dynamic, Dynamic>,
    /// Each function, by operation and operand width.
    functions: HashMap<(DeclKind, u32), FuncDecl>,
    /// The base facts, abstracted.
    pub(super) facts: Vec<Bool>,
    /// Some base fact has an operation abstracted.
    pub(super) changes_facts: bool,
}

impl Abstraction {
    /// Abstracts `facts` (a mode's base facts).
    pub(super) fn new(facts: &[Bool]) -> Abstraction {
        let mut a = Abstraction {
            memo: HashMap::default(),
            functions: HashMap::default(),
            facts: Vec::new(),
            changes_facts: false,
        };
        a.facts = facts.iter().map(|f| a.apply(f)).collect();
        a.changes_facts = a.facts.iter().zip(facts).any(|(x, f)| !x.ast_eq(f));
        a
    }

    /// `f` with every nonlinear operation replaced by its function (`f` itself when it has none).
    pub(super) fn apply(&mut self, f: &Bool) -> Bool {
        // z3's normal form first: the no-wrap conditions were simplified when built and the
        // indices were not, so one product may be spelled `(b·4 + y)·n` in one and `(y + b·4)·n`
        // in the other; simplified, both are one term, and so one function application.
        let original = f;
        let f = &f.simplify();
        let mut found = Vec::new();
        self.collect(&Dynamic::from_ast(f), &mut found, &mut rustc_hash::FxHashSet::default());
        if found.is_empty() {
            // Nothing to abstract: the assertion as given, so a query with nothing nonlinear is
            // recognised as such and not asked twice.
            return original.clone();
        }
        let pairs: Vec<(Dynamic, Dynamic)> =
            found.into_iter().filter_map(|n| self.memo.get(&n).map(|r| (n, r.clone()))).collect();
        let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
        f.substitute(&refs)
    }

    /// Finds the outermost nonlinear nodes of `t` (into `found`), making the replacement of each
    /// nonlinear node on the way (inner ones first, so a replacement reads abstracted operands).
    fn collect(&mut self, t: &Dynamic, found: &mut Vec<Dynamic>, seen: &mut rustc_hash::FxHashSet<Dynamic>) {
        if !seen.insert(t.clone()) {
            return;
        }
        if self.memo.contains_key(t) {
            found.push(t.clone());
            return;
        }
        let kind = match t.safe_decl() {
            Ok(d) => Some(operation(&d)).filter(|k| nonlinear(t, *k) || respelled(&d, t)),
            _ => None,
        };
        let Some(kind) = kind else {
            for c in t.children() {
                self.collect(&c, found, seen);
            }
            return;
        };
        // The operands, each with its own nonlinear nodes abstracted.
        let operands: Vec<Dynamic> = t
            .children()
            .iter()
            .map(|c| {
                let mut inner = Vec::new();
                self.collect(c, &mut inner, &mut rustc_hash::FxHashSet::default());
                let pairs: Vec<(Dynamic, Dynamic)> =
                    inner.into_iter().filter_map(|n| self.memo.get(&n).map(|r| (n, r.clone()))).collect();
                let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
                if refs.is_empty() {
                    c.clone()
                } else {
                    c.substitute(&refs)
                }
            })
            .collect();
        if let Some(r) = self.replacement(kind, operands).filter(|r| r.get_sort() == t.get_sort()) {
            self.memo.insert(t.clone(), r);
            found.push(t.clone());
        } else {
            for c in t.children() {
                self.collect(&c, found, seen);
            }
        }
    }

    /// The function application that stands for `kind` over `operands`: an n-ary product folds
    /// left over its operands sorted (commutative, associative); a predicate of a product's
    /// overflow takes its two operands sorted (symmetric).
    fn replacement(&mut self, kind: DeclKind, mut operands: Vec<Dynamic>) -> Option<Dynamic> {
        let width = operands.first()?.as_bv()?.get_size();
        if let [x, g] = &operands[..] {
            if let (Some(x), Some(g)) = (x.as_bv(), g.as_bv().filter(|g| g.as_u64().is_some())) {
                // A division by a constant keeps its meaning, in its plain spelling.
                return Some(Dynamic::from_ast(&match kind {
                    DeclKind::Bsdiv => x.bvsdiv(&g),
                    DeclKind::Budiv => x.bvudiv(&g),
                    DeclKind::Bsrem => x.bvsrem(&g),
                    DeclKind::Burem => x.bvurem(&g),
                    DeclKind::Bsmod => x.bvsmod(&g),
                    _ => return None,
                }));
            }
        }
        let commutative = matches!(
            kind,
            DeclKind::Bmul | DeclKind::BsmulNoOvfl | DeclKind::BumulNoOvfl | DeclKind::BsmulNoUdfl
        );
        if kind == DeclKind::Bmul {
            // Products of products are one product of all their factors (`(x * y) * z` and
            // `x * z * y` one value): the function's own applications are flattened.
            let mine = function_name(kind, width);
            let mut leaves = Vec::new();
            let mut todo = operands;
            while let Some(x) = todo.pop() {
                let nested = x.safe_decl().is_ok_and(|d| d.name() == mine);
                if nested {
                    todo.extend(x.children());
                } else {
                    leaves.push(x);
                }
            }
            operands = leaves;
        }
        if commutative {
            operands.sort_by_key(super::wrap::structural_hash);
        }
        let predicate = matches!(kind, DeclKind::BsmulNoOvfl | DeclKind::BumulNoOvfl | DeclKind::BsmulNoUdfl);
        let f = self.functions.entry((kind, width)).or_insert_with(|| {
            let bv = Sort::bitvector(width);
            let range = if predicate { Sort::bool() } else { Sort::bitvector(width) };
            FuncDecl::new(function_name(kind, width), &[&bv, &bv], &range)
        });
        if operands.len() < 2 {
            return None;
        }
        let mut it = operands.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |acc, x| f.apply(&[&acc as &dyn Ast, &x as &dyn Ast])))
    }
}

/// The operation of declaration `d`, a division's `_i` spelling as the plain one: z3 with
/// `hi_div0` (its default, which the oracle keeps) rewrites `bvsdiv` into `bvsdiv_i` as it
/// simplifies, so the two are one function whatever spelling a term has.
fn operation(d: &z3::FuncDecl) -> DeclKind {
    match super::kind::of(d) {
        DeclKind::BsdivI => DeclKind::Bsdiv,
        DeclKind::BudivI => DeclKind::Budiv,
        DeclKind::BsremI => DeclKind::Bsrem,
        DeclKind::BuremI => DeclKind::Burem,
        DeclKind::BsmodI => DeclKind::Bsmod,
        k => k,
    }
}

/// Whether `t` (declared by `d`) is a division by a non-zero constant spelled with z3's
/// `_i` operation (`bvsdiv_i`), which simplification writes for the plain one.
fn respelled(d: &z3::FuncDecl, t: &Dynamic) -> bool {
    let kids = t.children();
    matches!(
        super::kind::of(d),
        DeclKind::BsdivI | DeclKind::BudivI | DeclKind::BsremI | DeclKind::BuremI | DeclKind::BsmodI
    ) && kids.len() == 2
        && kids[1].as_bv().and_then(|g| g.as_u64()).is_some_and(|g| g != 0)
}

/// The name of the function that stands for `kind` on `width`-bit operands.
fn function_name(kind: DeclKind, width: u32) -> String {
    format!("abstract!{kind:?}!{width}")
}

/// Whether `n` (of operation `kind`) is one the solver bit-blasts into a large circuit: a
/// product, quotient or remainder of two non-constant terms (any width), and the overflow
/// predicates of such a product.
fn nonlinear(n: &Dynamic, kind: DeclKind) -> bool {
    let kids = n.children();
    let constant = |k: &Dynamic| k.as_bv().is_some_and(|b| b.as_u64().is_some());
    match kind {
        DeclKind::Bmul | DeclKind::BsmulNoOvfl | DeclKind::BumulNoOvfl | DeclKind::BsmulNoUdfl => {
            kids.iter().filter(|k| !constant(k)).count() >= 2
        }
        // `_i` spellings arrive as the plain operation (`operation`).
        DeclKind::Bsdiv | DeclKind::Budiv | DeclKind::Bsrem | DeclKind::Burem | DeclKind::Bsmod => {
            kids.len() == 2 && !constant(&kids[1])
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;
    use z3::{SatResult, Solver};

    fn refuted(facts: &[Bool]) -> bool {
        let mut a = Abstraction::new(&[]);
        let solver = Solver::new();
        for f in facts {
            solver.assert(a.apply(f));
        }
        solver.check() == SatResult::Unsat
    }

    #[test]
    fn products_are_one_value_in_any_order_and_grouping() {
        let (x, y, z) = (BV::new_const("x", 32), BV::new_const("y", 32), BV::new_const("z", 32));
        assert!(refuted(&[x.bvmul(&y).eq(y.bvmul(&x)).not()]));
        assert!(refuted(&[x.bvmul(&y).bvmul(&z).eq(x.bvmul(z.bvmul(&y))).not()]));
        // Linear arguments over the products survive: x·y + 1 is not x·y.
        assert!(refuted(&[x.bvmul(&y).bvadd(BV::from_u64(1, 32)).eq(x.bvmul(&y))]));
        // A quotient's `_i` spelling is the same function.
        let q = x.bvsdiv(&y);
        assert!(refuted(&[q.eq(q.simplify()).not()]));
    }

    #[test]
    fn abstraction_only_weakens() {
        let (x, y) = (BV::new_const("x", 32), BV::new_const("y", 32));
        // Satisfiable queries stay satisfiable; so does one that needs the product's meaning
        // to be refuted (x·x = 2 has no solution in 32 bits, the abstraction cannot tell).
        assert!(!refuted(&[x.bvmul(&y).eq(BV::from_u64(6, 32))]));
        assert!(!refuted(&[x.bvmul(&x).eq(BV::from_u64(2, 32))]));
        let mut a = Abstraction::new(&[]);
        let f = x.bvadd(&y).eq(BV::from_u64(3, 32));
        assert!(a.apply(&f).ast_eq(&f), "nothing nonlinear: unchanged");
    }
}
