//! The oracle's verdicts on small kernels, one per precision feature (DESIGN.md §4–5).

use autosync::kpl;
use autosync::verify::{Oracle, OracleOptions, Relation, Scope, Z3Oracle};

/// (name, KPL source, expected block races, expected grid races, expected divergences, benign)
const CASES: &[(&str, &str, usize, usize, usize, usize)] = &[
    ("tree reduction s >>= 1", "//--blockDim=256 --gridDim=1\nkernel k() { shared A[256]; local s := bdim.x / 2; local a; local b;\n while (s > 0) { if (tid < s) { a := rd A[tid]; b := rd A[tid + s]; wr A[tid] := a + b; } barrier; s := s >> 1; } }", 0, 0, 0, 0),
    ("tree reduction without barrier", "//--blockDim=256 --gridDim=1\nkernel k() { shared A[256]; local s := bdim.x / 2; local a; local b;\n while (s > 0) { if (tid < s) { a := rd A[tid]; b := rd A[tid + s]; wr A[tid] := a + b; } s := s >> 1; } }", 1, 0, 0, 0),
    ("interleaved reduction tid % (2s)", "//--blockDim=128 --gridDim=1\nkernel k() { shared A[128]; local s := 1; local a; local b;\n while (s < bdim.x) { if (tid % (2 * s) == 0) { a := rd A[tid]; b := rd A[tid + s]; wr A[tid] := a + b; } barrier; s := s * 2; } }", 0, 0, 0, 0),
    ("strided loop", "//--blockDim=64 --gridDim=1\nkernel k(n) { shared A[1024]; local i := tid; while (i < n) { wr A[i] := i; i := i + bdim.x; } }", 0, 0, 0, 0),
    ("divergent barrier", "//--blockDim=64 --gridDim=1\nkernel k() { shared A[64]; if (tid < 5) { barrier; } }", 0, 0, 1, 0),
    ("uniform barrier", "//--blockDim=64 --gridDim=1\nkernel k(n) { shared A[64]; if (n > 3) { barrier; } }", 0, 0, 0, 0),
    ("padded 2-D tile", "//--blockDim=[16,16] --gridDim=1\nkernel k() { shared T[16][17]; local x; wr T[tid.y][tid.x] := 1; barrier; x := rd T[tid.x][tid.y]; }", 0, 0, 0, 0),
    ("atomic vs atomic", "//--blockDim=64 --gridDim=1\nkernel k() { shared H[8]; atomic add H[tid % 8], 1; }", 0, 0, 0, 0),
    ("atomic vs plain", "//--blockDim=64 --gridDim=1\nkernel k() { shared H[8]; local x; atomic add H[tid % 8], 1; x := rd H[0]; }", 1, 0, 0, 0),
    ("grid race", "//--blockDim=64 --gridDim=4\nkernel k() { global out[]; wr out[tid] := 1; }", 0, 1, 0, 0),
    ("benign same-value write", "//--blockDim=64 --gridDim=1\nkernel k() { shared flag[1]; wr flag[0] := 1; }", 0, 0, 0, 1),
    ("uniform bound read from shared memory", "//--blockDim=64 --gridDim=1\nkernel k() { shared N[1]; shared A[64]; global g[]; local n; local i := 0; local x;\n if (tid == 0) { x := rd g[0]; wr N[0] := x; } barrier; n := rd N[0];\n while (i < n) { wr A[tid] := i; barrier; i := i + 1; } }", 0, 0, 0, 0),
    ("different trip counts", "//--blockDim=64 --gridDim=1\nkernel k() { shared A[64]; local i := tid; local x; while (i < 10) { x := rd A[i]; i := i + 1; } barrier; wr A[tid] := 0; }", 0, 0, 0, 0),
];

#[test]
fn verdicts_match_expectations() {
    for (name, src, block, grid, divs, benign) in CASES {
        let k = kpl::parse(src).unwrap_or_else(|d| panic!("{name}: {}", d.render(name, src)));
        let mut o =
            Z3Oracle::new(OracleOptions { geometry: k.geometry.clone(), timeout_ms: 10_000, strict: false });
        let v = o.check(&k);
        let nb = v.races.iter().filter(|r| r.scope == Scope::Block).count();
        let ng = v.races.iter().filter(|r| r.scope == Scope::Grid).count();
        assert_eq!(
            (nb, ng, v.divergences.len(), v.benign.len()),
            (*block, *grid, *divs, *benign),
            "{name}: {v:#?}"
        );
        assert_eq!(v.undecided, 0, "{name}");
    }
}

#[test]
fn fig4_witnesses_say_which_iterations_race() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kpl/paper/fig4.kpl"))
        .expect("read");
    let k = kpl::parse(&src).expect("parse");
    let mut o =
        Z3Oracle::new(OracleOptions { geometry: k.geometry.clone(), timeout_ms: 10_000, strict: false });
    let v = o.check(&k);
    assert_eq!(v.races.len(), 1);
    let r = &v.races[0];
    assert_eq!((k.label_name(r.first), k.label_name(r.second)), ("2", "4"));
    let rels: Vec<Relation> = r.cases.iter().map(|c| c.case.relation).collect();
    assert!(rels.contains(&Relation::SameIteration));
    assert!(rels.iter().any(|x| matches!(x, Relation::Carried { gap2: false, .. })));
    for c in &r.cases {
        let w = c.witness.as_ref().expect("witness");
        assert_ne!(w.threads[0].tid, w.threads[1].tid);
        let (i0, i1) = (w.threads[0].iterations[0].1, w.threads[1].iterations[0].1);
        match c.case.relation {
            Relation::SameIteration => assert_eq!(i0, i1),
            Relation::Carried { .. } => assert_ne!(i0, i1),
        }
    }
    // A re-check of the same kernel is answered from the cache.
    let q = o.stats().smt_queries;
    o.check(&k);
    assert_eq!(o.stats().smt_queries, q);
}
