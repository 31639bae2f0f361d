//! z3 operation kinds read the same with every z3 library.
//!
//! The bindings number `DeclKind` after a newer z3 than some systems link (Debian 12 has 4.8.12):
//! from `Carry` on, the newer library has one more bit-vector operation (`sbv2int`) before them,
//! so an older library's `bvsrem_i` reads as the bindings' `BudivI`, its `bvsdiv_i` as
//! `BsmulNoUdfl`. A remainder taken for a quotient would make the index lemmas and the
//! pre-filter's ranges wrong, so the operations numbered from `Carry` on are told by name, which
//! every version spells the same.

use z3::{DeclKind, FuncDecl};

/// The operation `d` declares, independent of the z3 library's version.
pub(crate) fn of(d: &FuncDecl) -> DeclKind {
    match d.name().as_str() {
        "carry" => DeclKind::Carry,
        "xor3" => DeclKind::Xor3,
        "bvsmul_noovfl" => DeclKind::BsmulNoOvfl,
        "bvumul_noovfl" => DeclKind::BumulNoOvfl,
        "bvsmul_noudfl" => DeclKind::BsmulNoUdfl,
        "bvsdiv_i" => DeclKind::BsdivI,
        "bvudiv_i" => DeclKind::BudivI,
        "bvsrem_i" => DeclKind::BsremI,
        "bvurem_i" => DeclKind::BuremI,
        "bvsmod_i" => DeclKind::BsmodI,
        _ => match d.kind() {
            // Numbered from `Carry` on, under a name that is none of the above: an operation of
            // another version's numbering; not one the oracle reads.
            DeclKind::Sbv2int
            | DeclKind::Carry
            | DeclKind::Xor3
            | DeclKind::BsmulNoOvfl
            | DeclKind::BumulNoOvfl
            | DeclKind::BsmulNoUdfl
            | DeclKind::BsdivI
            | DeclKind::BudivI
            | DeclKind::BsremI
            | DeclKind::BuremI
            | DeclKind::BsmodI => DeclKind::Uninterpreted,
            k => k,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Ast, BV};

    #[test]
    fn divisions_read_as_themselves_in_either_spelling() {
        let (x, y) = (BV::new_const("x", 32), BV::new_const("y", 32));
        for (t, plain, nonzero) in [
            (x.bvsrem(&y), DeclKind::Bsrem, DeclKind::BsremI),
            (x.bvsdiv(&y), DeclKind::Bsdiv, DeclKind::BsdivI),
            (x.bvudiv(&y), DeclKind::Budiv, DeclKind::BudivI),
            (x.bvurem(&y), DeclKind::Burem, DeclKind::BuremI),
        ] {
            // z3 simplifies to the `_i` spelling (under its default `hi_div0`), which the
            // bindings' numbering misreads with an older library: a remainder must stay one.
            let s = t.simplify();
            let k = of(&s.safe_decl().expect("an application"));
            assert!(k == plain || k == nonzero, "{s}: {k:?}");
        }
        assert_eq!(of(&x.bvmul(&y).safe_decl().expect("an application")), DeclKind::Bmul);
        let no_overflow = x.bvmul_no_overflow(&y, true);
        assert_eq!(of(&no_overflow.safe_decl().expect("an application")), DeclKind::BsmulNoOvfl);
    }
}
