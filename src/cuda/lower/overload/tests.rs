//! Unit tests of overload resolution by C++'s conversion ranks (`choose`, the usual arithmetic
//! conversions).

use super::*;

fn scalar(c: &[CTy]) -> ArgTy {
    ArgTy { atoms: c.iter().map(|c| Atom::Scalar(*c)).collect(), lvalue: true }
}

fn params(c: &[CTy]) -> Vec<ParamTy> {
    c.iter().map(|c| ParamTy { atoms: vec![Atom::Scalar(*c)], by_ref: None }).collect()
}

#[test]
fn float_variables_pick_the_float_overload() {
    let f = scalar(&CTy::of_class(Ty::Float));
    let cands = [(params(&[CTy::Int, CTy::Int]), false), (params(&[CTy::Float, CTy::Float]), false)];
    assert_eq!(choose(&[f.clone(), f], &cands), Choice::Pick(1));
}

#[test]
fn signed_variables_pick_the_int_overload() {
    let i = scalar(&CTy::of_class(Ty::Int));
    let cands = [(params(&[CTy::Float]), false), (params(&[CTy::Int]), false)];
    assert_eq!(choose(&[i], &cands), Choice::Pick(1));
}

#[test]
fn an_unsigned_variable_between_int_and_unsigned_is_ambiguous() {
    // An `unsigned short` would promote to `int`; an `unsigned int` matches exactly.
    let u = scalar(&CTy::of_class(Ty::UInt));
    let cands = [(params(&[CTy::Int]), false), (params(&[CTy::UInt]), false)];
    assert_eq!(choose(&[u], &cands), Choice::Ambiguous);
    assert_eq!(choose(&[scalar(&[CTy::UInt])], &cands), Choice::Pick(1));
}

#[test]
fn float_vs_double_overloads_need_the_exact_type() {
    let cands = [(params(&[CTy::Float]), false), (params(&[CTy::Double]), false)];
    assert_eq!(choose(&[scalar(&CTy::of_class(Ty::Float))], &cands), Choice::Ambiguous);
    assert_eq!(choose(&[scalar(&[CTy::Float])], &cands), Choice::Pick(0));
    assert_eq!(choose(&[scalar(&[CTy::Double])], &cands), Choice::Pick(1));
}

#[test]
fn the_better_conversion_at_one_argument_decides() {
    // f(float, float) vs f(double, long) with (float, int): the first is exact at the
    // first argument, both are conversions at the second.
    let cands = [(params(&[CTy::Float, CTy::Float]), false), (params(&[CTy::Double, CTy::Long]), false)];
    assert_eq!(choose(&[scalar(&[CTy::Float]), scalar(&[CTy::Int])], &cands), Choice::Pick(0));
}

#[test]
fn vectors_match_only_their_own_type() {
    let v = ArgTy { atoms: vec![Atom::Agg("float4".into())], lvalue: true };
    let f = scalar(&[CTy::Float]);
    let agg = |n: &str| ParamTy { atoms: vec![Atom::Agg(n.into())], by_ref: None };
    let fp = ParamTy { atoms: vec![Atom::Scalar(CTy::Float)], by_ref: None };
    let cands = [
        (vec![agg("float4"), agg("float4")], false),
        (vec![agg("float4"), fp.clone()], false),
        (vec![fp.clone(), agg("float4")], false),
        (vec![agg("float3"), fp], false),
    ];
    assert_eq!(choose(&[v.clone(), f.clone()], &cands), Choice::Pick(1));
    assert_eq!(choose(&[f.clone(), v.clone()], &cands), Choice::Pick(2));
    assert_eq!(choose(&[v.clone(), v], &cands), Choice::Pick(0));
    assert_eq!(choose(&[f.clone(), f], &cands), Choice::NoMatch);
}

#[test]
fn a_non_const_reference_needs_an_lvalue_of_its_type() {
    let r = |c: CTy| ParamTy { atoms: vec![Atom::Scalar(c)], by_ref: Some(false) };
    let cands = [(vec![r(CTy::Int)], false), (vec![r(CTy::Float)], false)];
    assert_eq!(choose(&[scalar(&[CTy::Float])], &cands), Choice::Pick(1));
    let rvalue = ArgTy { atoms: vec![Atom::Scalar(CTy::Float)], lvalue: false };
    assert_eq!(choose(&[rvalue], &cands), Choice::NoMatch);
}

#[test]
fn a_template_that_would_win_is_reported_and_one_that_loses_is_not() {
    let t = vec![ParamTy { atoms: vec![Atom::Template], by_ref: None }];
    let cands = [(t.clone(), true), (params(&[CTy::Float]), false)];
    assert_eq!(choose(&[scalar(&[CTy::Float])], &cands), Choice::Pick(1));
    assert_eq!(choose(&[scalar(&[CTy::Int])], &cands), Choice::Template(0));
}

#[test]
fn unknown_arguments_decide_nothing() {
    let u = ArgTy { atoms: vec![Atom::Unknown], lvalue: false };
    let cands = [(params(&[CTy::Int]), false), (params(&[CTy::Float]), false)];
    assert_eq!(choose(&[u], &cands), Choice::Ambiguous);
}

#[test]
fn usual_arithmetic_conversions() {
    assert_eq!(arithmetic_result(CTy::Int, CTy::UInt), vec![CTy::UInt]);
    assert_eq!(arithmetic_result(CTy::Long, CTy::UInt), vec![CTy::Long]);
    assert_eq!(arithmetic_result(CTy::LongLong, CTy::ULong), vec![CTy::ULongLong]);
    assert_eq!(arithmetic_result(CTy::Short, CTy::Char), vec![CTy::Int]);
    assert_eq!(arithmetic_result(CTy::Int, CTy::Float), vec![CTy::Float]);
    assert_eq!(arithmetic_result(CTy::Float, CTy::Double), vec![CTy::Double]);
}
