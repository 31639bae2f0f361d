//! Synthesis on the paper's micro-benchmarks and figures (AutoSync Table I, Figs. 2, 4, 6, 7):
//! each reaches exactly the minimal barrier count, the result verifies, and both MaxSAT engines
//! and both modes agree on the optimal cost. Counts and costs only; never times.

use autosync::config::Ratio;
use autosync::kpl::{self, Kernel};
use autosync::maxsat::Engine;
use autosync::synth::{self, Mode, SynthOptions, Synthesis};
use autosync::verify::{Oracle, OracleOptions, Z3Oracle};
use std::path::Path;

fn load(path: &Path) -> Kernel {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut k =
        kpl::parse(&src).unwrap_or_else(|d| panic!("{}", d.render(&path.display().to_string(), &src)));
    let all = k.barriers();
    k.remove_barriers(&all);
    k
}

fn oracle(k: &Kernel) -> Z3Oracle {
    Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: 10_000,
        strict: false,
        ..OracleOptions::default()
    })
}

fn run(k: &Kernel, mode: Mode, engine: Engine) -> (Ratio, usize, u64, Kernel) {
    let mut o = oracle(k);
    let opts = SynthOptions { mode, engine, ..SynthOptions::default() };
    let (res, stats) = synth::synthesize(k, &mut o, &opts).expect("synthesis error");
    match res {
        Synthesis::Done { kernel, inserted, cost, .. } => (cost, inserted.len(), stats.oracle_calls, *kernel),
        other => panic!("{}: no synthesis: {other:?}", k.name),
    }
}

/// (file, minimal barriers m from the name, the paper's AS-V where it reports one)
const MICRO: &[(&str, usize, Option<u64>)] = &[
    ("1-1-if", 1, Some(4)),
    ("1-1-loop-inter", 1, Some(2)),
    ("1-1-loop-intra", 1, Some(3)),
    ("1-1-main", 1, Some(2)),
    ("2-1-main", 1, Some(2)),
    ("2-1-loop-d2-intra", 1, Some(5)),
    ("2-2-loop-d2-both", 2, Some(5)),
    ("2-2-loop-both", 2, Some(4)),
    ("fig2", 1, None),
    ("fig4", 2, None),
    ("fig6", 1, None),
    ("fig7", 1, None),
];

#[test]
fn micro_benchmarks_reach_the_minimum_in_both_modes_and_engines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/micro");
    let (mut paper_total, mut informed_total) = (0, 0);
    println!("{:<20} {:>4} {:>8} {:>10} {:>9}", "kernel", "AS-B", "V paper", "V informed", "paper AS-V");
    for (name, minimal, paper_v) in MICRO {
        let k = load(&dir.join(format!("{name}.kpl")));
        let (cost_i, n_i, v_i, fixed) = run(&k, Mode::Informed, Engine::Minisat);
        let (cost_p, n_p, v_p, _) = run(&k, Mode::Paper, Engine::Minisat);
        let (cost_z, n_z, _, _) = run(&k, Mode::Informed, Engine::Z3);
        let (cost_pz, _, _, _) = run(&k, Mode::Paper, Engine::Z3);
        assert_eq!(n_i, *minimal, "{name}: informed barrier count");
        assert_eq!(n_p, *minimal, "{name}: paper barrier count");
        assert_eq!(n_z, *minimal, "{name}: z3 barrier count");
        assert_eq!(cost_i, cost_p, "{name}: modes disagree on the optimum");
        assert_eq!(cost_i, cost_z, "{name}: engines disagree on the optimum");
        assert_eq!(cost_i, cost_pz, "{name}: paper mode on z3 disagrees");
        assert!(v_i <= v_p, "{name}: informed used more oracle calls ({v_i}) than paper ({v_p})");
        assert_eq!(v_i, 2, "{name}: informed mode should need the floor of 2 oracle calls");
        // The result verifies with a fresh oracle.
        assert!(oracle(&fixed).check(&fixed).is_clean(), "{name}: synthesized kernel does not verify");
        paper_total += v_p;
        informed_total += v_i;
        let pv = paper_v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
        println!("{name:<20} {n_i:>4} {v_p:>8} {v_i:>10} {pv:>9}");
    }
    assert!(informed_total < paper_total, "informed mode must use fewer oracle calls in total");
}

#[test]
fn paper_figure_placements_match_the_paper() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kpl/paper");
    // (figure, the labels after which the optimal barriers go, their total cost)
    let expected: &[(&str, &[&str], Ratio)] = &[
        ("fig2", &["1"], Ratio::new(1, 1)),
        ("fig6", &["2:4"], Ratio::new(1, 1)),
        ("fig7", &["2"], Ratio::new(1, 1)),
    ];
    for (fig, labels, cost) in expected {
        let k = load(&dir.join(format!("{fig}.kpl")));
        let mut o = oracle(&k);
        let (res, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
        let Synthesis::Done { inserted, cost: c, .. } = res else { panic!("{fig}: no synthesis") };
        let got: Vec<&str> = inserted.iter().map(|i| k.label_name(i.after)).collect();
        assert_eq!(&got, labels, "{fig}");
        assert_eq!(c, *cost, "{fig}");
    }
    // Fig. 4: one intra-iteration barrier (between 2 and 4) and one inter-iteration barrier
    // (after 4 or at the top of the loop body), both at cost 100.
    let k = load(&dir.join("fig4.kpl"));
    let (cost, n, _, _) = run(&k, Mode::Informed, Engine::Minisat);
    assert_eq!((cost, n), (Ratio::new(200, 1), 2));
}

#[test]
fn unfixable_races_are_explained() {
    // Every thread writes A[0]: a statement racing with itself.
    let src = "//--blockDim=32\nkernel k() {\n  shared A[4];\n  wr A[0] := tid;\n}\n";
    let k = kpl::parse(src).expect("parse");
    let mut o = oracle(&k);
    let (res, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    match res {
        Synthesis::Impossible { reasons } => {
            assert!(matches!(reasons[0], synth::Unfixable::SelfRace { .. }), "{reasons:?}")
        }
        other => panic!("expected impossible, got {other:?}"),
    }
    // A race inside a thread-dependent region: the separating barrier would diverge.
    let src = "//--blockDim=32\nkernel k() {\n  shared A[64];\n  local x;\n  if (tid < 16) {\n    x := rd A[tid + 1];\n    wr A[tid] := x;\n  }\n}\n";
    let k = kpl::parse(src).expect("parse");
    let mut o = oracle(&k);
    let (res, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    assert!(
        matches!(&res, Synthesis::Impossible { reasons } if matches!(reasons[0], synth::Unfixable::NoValidPosition { .. })),
        "{res:?}"
    );
}

#[test]
fn naive_baseline_reaches_a_verified_placement() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/micro");
    for name in ["fig2", "fig7", "1-1-if"] {
        let k = load(&dir.join(format!("{name}.kpl")));
        let mut o = oracle(&k);
        let (res, stats) = synth::naive(&k, &mut o, &SynthOptions::default());
        let (fixed, chosen, _) = res.expect("naive found a placement");
        assert!(oracle(&fixed).check(&fixed).is_clean(), "{name}");
        assert!(!chosen.is_empty());
        let (_, n_opt, v_opt, _) = run(&k, Mode::Informed, Engine::Minisat);
        assert!(chosen.len() >= n_opt, "{name}: naive cannot beat the optimum");
        assert!(stats.oracle_calls > v_opt, "{name}: naive needs more oracle calls");
    }
}

/// The label named `name` in `k`.
fn label(k: &Kernel, name: &str) -> kpl::Label {
    (0..k.label_names.len() as u32)
        .map(kpl::Label)
        .find(|l| k.label_name(*l) == name)
        .unwrap_or_else(|| panic!("no label {name}"))
}

#[test]
fn labels_sharing_a_source_place_take_a_barrier_together() {
    // The race on A needs a barrier after @w. Pretend @w and @s are copies of one inlined
    // statement (one source place): @s sits under a thread-dependent guard, so a barrier at that
    // place diverges, and the only other separating position (@r is after the read) does not
    // separate. Synthesis must not place it there.
    let src = "//--blockDim=32\nkernel k() {\n  shared A[64];\n  local x;\n  @w wr A[tid] := tid;\n  @r x := rd A[tid + 1];\n  @i if (tid < 4) {\n    @s x := x + 1;\n  }\n}\n";
    let mut k = kpl::parse(src).expect("parse");
    let (w, s) = (label(&k, "w"), label(&k, "s"));
    let mut o = oracle(&k);
    let (alone, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    assert!(matches!(alone, Synthesis::Done { .. }), "{alone:?}");
    k.places[s.0 as usize] = k.places[w.0 as usize].clone();
    let mut o = oracle(&k);
    let (tied, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    assert!(matches!(tied, Synthesis::Impossible { .. }), "{tied:?}");
    let mut o = oracle(&k);
    let (naive, _) = synth::naive(&k, &mut o, &SynthOptions::default());
    assert!(naive.is_none(), "the naive baseline must respect shared places too");
}

#[test]
fn kernels_sharing_source_get_one_placement() {
    // Two "instantiations" of one source: with K = 1 threads read their neighbour's element (a
    // race), with K = 0 their own (none). One placement serves both: the barrier the first needs
    // also goes into the second, and the total cost counts both.
    let text = |k: &str| {
        format!("//--blockDim=32\nkernel k() {{\n  shared A[64];\n  local x;\n  @w wr A[tid] := tid;\n  @r x := rd A[tid + {k}];\n}}\n")
    };
    let racy = kpl::parse(&text("1")).expect("parse");
    let clean = kpl::parse(&text("0")).expect("parse");
    assert_eq!(racy.places, clean.places);
    let (mut o1, mut o2) = (oracle(&racy), oracle(&clean));
    let (res, stats) = synth::synthesize_group(
        &[racy.clone(), clean.clone()],
        &mut [&mut o1, &mut o2],
        &SynthOptions::default(),
    )
    .expect("synthesis");
    assert_eq!(res.len(), 2);
    for (r, k) in res.iter().zip([&racy, &clean]) {
        let Synthesis::Done { inserted, cost, kernel, .. } = r else { panic!("{r:?}") };
        let after: Vec<&str> = inserted.iter().map(|i| k.label_name(i.after)).collect();
        assert_eq!(after, ["w"]);
        assert_eq!(*cost, Ratio::new(1, 1));
        assert!(oracle(kernel).check(kernel).is_clean());
    }
    assert_eq!(stats.oracle_calls, 4, "two kernels, two rounds");
}

#[test]
fn kernels_sharing_source_are_each_verified_under_their_own_launch() {
    // Issue #27: one source, launched with 64 and with 128 threads. With 128, threads t and
    // t + 64 write one element in one statement, which no barrier separates: the group has no
    // placement, although the 64-thread member alone needs just one barrier.
    let text = |threads: u32| {
        format!("//--blockDim={threads} --gridDim=1\nkernel k() {{\n  shared A[64];\n  local x;\n  @w wr A[tid % 64] := tid;\n  @r x := rd A[(tid + 1) % 64];\n}}\n")
    };
    let small = kpl::parse(&text(64)).expect("parse");
    let mut large = kpl::parse(&text(128)).expect("parse");
    // The header's digits shift the offsets; the statements are the same source text.
    large.places = small.places.clone();
    let (mut o1, mut o2) = (oracle(&small), oracle(&large));
    let (res, _) = synth::synthesize_group(
        &[small.clone(), large.clone()],
        &mut [&mut o1, &mut o2],
        &SynthOptions::default(),
    )
    .expect("synthesis");
    assert!(res.iter().all(|r| matches!(r, Synthesis::Impossible { .. })), "{res:?}");
    let Synthesis::Impossible { reasons } = &res[1] else { unreachable!() };
    assert!(!reasons.is_empty(), "the 128-thread kernel names its race");
    // Alone, the small one is fixed with one barrier.
    let (alone, _) =
        synth::synthesize(&small, &mut oracle(&small), &SynthOptions::default()).expect("synthesis");
    assert!(matches!(alone, Synthesis::Done { .. }), "{alone:?}");
    // One oracle for two kernels is a caller error, not a wrong answer.
    let mut o = oracle(&small);
    assert!(synth::synthesize_group(
        &[small.clone(), large.clone()],
        &mut [&mut o],
        &SynthOptions::default()
    )
    .is_err());
}

/// Parses `src` and checks that strict synthesis reports its divergent barrier at once (one
/// oracle call, `Impossible` with `DivergentBarrier`).
fn divergent_input_reported_at_once(src: &str) -> Kernel {
    let k = kpl::parse(src).expect("parse");
    let mut o = oracle(&k);
    let (res, stats) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    match res {
        Synthesis::Impossible { reasons } => {
            assert!(matches!(reasons[0], synth::Unfixable::DivergentBarrier { .. }), "{reasons:?}")
        }
        other => panic!("expected impossible, got {other:?}"),
    }
    assert_eq!(stats.oracle_calls, 1);
    k
}

#[test]
fn a_divergent_barrier_of_the_input_is_reported_not_retried() {
    // The barrier under `i < n` diverges (n is a parameter). Synthesis must say so at once,
    // instead of excluding the block and proposing the same kernel again.
    let src = "//--blockDim=64 --gridDim=1\nkernel k(n) {\n  global A[];\n  shared s[64];\n  local i := tid.x;\n  if (i < n) {\n    local t0;\n    t0 := rd A[i];\n    wr s[i] := t0;\n    barrier;\n    local t1;\n    t1 := rd s[63 - i];\n    wr A[i] := t1;\n  }\n}\n";
    let k = divergent_input_reported_at_once(src);
    // Under reoptimize the barrier is a candidate like any other: the race has no valid position.
    let opts = SynthOptions { reoptimize: true, ..SynthOptions::default() };
    let mut o = oracle(&k);
    let (res, _) = synth::synthesize(&k, &mut o, &opts).expect("synthesis");
    assert!(
        matches!(&res, Synthesis::Impossible { reasons } if matches!(reasons[0], synth::Unfixable::NoValidPosition { .. })),
        "{res:?}"
    );
}

#[test]
fn a_mismatched_named_barrier_of_the_input_is_reported_not_retried() {
    // Barrier 1 waits for 16 threads; 8 join it (part of warp 0). No placement of block or warp
    // barriers changes that, and `fix` never moves a named barrier: synthesis says so at once
    // (it used to exclude the barrier's block and propose the same kernel again, 1001 times).
    let src = "//--blockDim=128 --gridDim=1\nkernel k() {\n  shared S[128];\n  global out[];\n  local x;\n  wr S[tid] := tid;\n  if (tid < 8) {\n    bar sync 1, 16;\n    x := rd S[(tid + 1) % 8];\n    wr out[tid] := x;\n  }\n}\n";
    let k = divergent_input_reported_at_once(src);
    // Under `partial` (what `fix` runs) the mismatch stays and is listed among what remains.
    let opts = SynthOptions { partial: true, ..SynthOptions::default() };
    let mut o = oracle(&k);
    let (res, stats) = synth::synthesize(&k, &mut o, &opts).expect("synthesis");
    match res {
        Synthesis::Done { inserted, remaining, .. } => {
            assert!(inserted.is_empty(), "{inserted:?}");
            assert!(
                remaining.iter().any(|u| matches!(u, synth::Unfixable::DivergentBarrier { .. })),
                "{remaining:?}"
            );
        }
        other => panic!("expected done, got {other:?}"),
    }
    assert!(stats.oracle_calls <= 3, "{} oracle calls", stats.oracle_calls);
}

/// A kernel whose race sits `depth` loops deep: `s[t]` written, `s[t + 1]` read in the
/// innermost body (two barriers needed there, each costing `100^depth`). Written in KPL: the
/// point is the cost model's numbers, and 100 nested loops are past what the CUDA front end
/// reads (`nesting too deep`).
fn deep_nest(depth: usize) -> Kernel {
    let mut src = String::from("//--blockDim=256 --gridDim=1\nkernel deep(n) {\n  global out[];\n  shared s[256];\n  local t := tid.x;\n  local v;\n");
    for i in 0..depth {
        src.push_str(&format!("  local i{i} := 0;\n  while (i{i} < n) {{\n"));
    }
    src.push_str("    wr s[t] := t;\n    v := rd s[(t + 1) % 256];\n    wr out[t] := v;\n");
    for i in (0..depth).rev() {
        src.push_str(&format!("    i{i} := i{i} + 1;\n  }}\n"));
    }
    src.push_str("}\n");
    kpl::parse(&src).unwrap_or_else(|d| panic!("{}", d.message))
}

#[test]
fn cost_weights_beyond_64_bits_are_exact_costs_and_no_error() {
    // 100^100 needs 665 bits: costs are exact big integers, the solver's weights scaled.
    let k = deep_nest(100);
    let (cost, barriers, _, fixed) = run(&k, Mode::Informed, Engine::Minisat);
    assert_eq!(barriers, 2);
    let one = Ratio::new(100, 1).pow(100);
    assert_eq!(cost, one.plus(&one));
    assert_eq!(cost.to_string(), format!("2{}", "0".repeat(200)));
    assert!(oracle(&fixed).check(&fixed).is_clean());
}

#[test]
fn the_naive_baseline_handles_weights_beyond_64_bits() {
    // 100^12 × the tie-break scale exceeds 64 bits; it used to be reported as "impossible".
    let k = deep_nest(12);
    let mut o = oracle(&k);
    let (res, _) = synth::naive(&k, &mut o, &SynthOptions::default());
    let (fixed, chosen, cost) = res.expect("the naive baseline finds a placement");
    assert_eq!(chosen.len(), 2);
    let one = Ratio::new(100, 1).pow(12);
    assert_eq!(cost, one.plus(&one));
    assert!(oracle(&fixed).check(&fixed).is_clean());
}
