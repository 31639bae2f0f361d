//! Tests of the MaxSAT layer: both engines against brute force, incrementally,
//! plus the placement-constraint examples of the AutoSync paper (Sec. II).

use autosync::maxsat::*;
use proptest::prelude::*;

const ENGINES: [Engine; 2] = [Engine::Minisat, Engine::Z3];

/// A `MaxSat` with `n` variables.
fn instance(engine: Engine, n: u32) -> (MaxSat, Vec<Var>) {
    let mut m = MaxSat::new(engine);
    let vars = (0..n).map(|_| m.new_var()).collect();
    (m, vars)
}

fn optimal(outcome: Outcome) -> Solution {
    match outcome {
        Outcome::Optimal(s) => s,
        Outcome::Unsat => panic!("expected a solution, got Unsat"),
    }
}

/// Variables set to true, the paper's way of writing a solution.
fn true_set(sol: &Solution, names: &[&'static str]) -> Vec<&'static str> {
    names.iter().zip(&sol.model).filter(|(_, &v)| v).map(|(n, _)| *n).collect()
}

fn satisfies(model: &[bool], hard: &[Vec<Lit>]) -> bool {
    hard.iter().all(|c| c.iter().any(|l| l.eval(model)))
}

#[test]
fn paper_multiple_races_single_barrier() {
    // Fig. 7: [L1 ∨ L2, L2 ∨ L3] with unit costs → {L2}, cost 1.
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 3);
        m.add_hard(&[Lit::pos(v[0]), Lit::pos(v[1])]);
        m.add_hard(&[Lit::pos(v[1]), Lit::pos(v[2])]);
        for &x in &v {
            m.add_soft(Lit::neg(x), 1);
        }
        let sol = optimal(m.solve().unwrap());
        assert_eq!(sol.cost, 1, "{engine:?}");
        assert_eq!(true_set(&sol, &["L1", "L2", "L3"]), ["L2"], "{engine:?}");
    }
}

#[test]
fn paper_loop_race_blocks_p_assignments() {
    // Fig. 4: P0 ∨ P1, P0 ⇒ (L2 ∨ L3), P1 ⇒ (L1 ∨ L4); every L inside the loop
    // costs 100. Each wrong P assignment is blocked as in the paper until
    // both race types are covered.
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 6);
        let [p0, p1, l1, l2, l3, l4] = [v[0], v[1], v[2], v[3], v[4], v[5]];
        m.add_hard(&[Lit::pos(p0), Lit::pos(p1)]);
        m.add_hard(&[Lit::neg(p0), Lit::pos(l2), Lit::pos(l3)]);
        m.add_hard(&[Lit::neg(p1), Lit::pos(l1), Lit::pos(l4)]);
        for l in [l1, l2, l3, l4] {
            m.add_soft(Lit::neg(l), 100);
        }
        let mut costs = Vec::new();
        let last = loop {
            let sol = optimal(m.solve().unwrap());
            costs.push(sol.cost);
            let (vp0, vp1) = (sol.model[0], sol.model[1]);
            if vp0 && vp1 {
                break sol;
            }
            assert!(costs.len() < 3, "{engine:?}: too many iterations");
            // ¬(P0 = vp0 ∧ P1 = vp1)
            let block = |x: Var, val: bool| if val { Lit::neg(x) } else { Lit::pos(x) };
            m.add_hard(&[block(p0, vp0), block(p1, vp1)]);
        };
        // Two single-barrier solutions at 100, then the pair at 200.
        assert_eq!(costs, [100, 100, 200], "{engine:?}");
        assert!(last.model[2] || last.model[5], "{engine:?}: L1 or L4");
        assert!(last.model[3] || last.model[4], "{engine:?}: L2 or L3");
        assert_eq!(last.model[2..].iter().filter(|&&b| b).count(), 2);
        assert_eq!(m.stats().solves, 3);
    }
}

#[test]
fn empty_clause_is_unsat() {
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 2);
        m.add_soft(Lit::neg(v[0]), 5);
        assert!(matches!(m.solve().unwrap(), Outcome::Optimal(_)));
        m.add_hard(&[]);
        assert_eq!(m.solve().unwrap(), Outcome::Unsat, "{engine:?}");
        // Unsat is permanent.
        m.add_hard(&[Lit::pos(v[1])]);
        assert_eq!(m.solve().unwrap(), Outcome::Unsat, "{engine:?}");
    }
}

#[test]
fn contradictory_units_are_unsat() {
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 1);
        m.add_hard(&[Lit::pos(v[0])]);
        m.add_hard(&[!Lit::pos(v[0])]);
        assert_eq!(m.solve().unwrap(), Outcome::Unsat, "{engine:?}");
    }
}

#[test]
fn no_soft_clauses_cost_zero() {
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 3);
        m.add_hard(&[Lit::pos(v[0]), Lit::neg(v[1])]);
        m.add_hard(&[Lit::pos(v[2])]);
        let sol = optimal(m.solve().unwrap());
        assert_eq!(sol.cost, 0);
        assert_eq!(sol.model.len(), 3);
        assert!(sol.model[2] && (sol.model[0] || !sol.model[1]));
    }
    // No variables at all.
    for engine in ENGINES {
        let mut m = MaxSat::new(engine);
        assert_eq!(optimal(m.solve().unwrap()).model, Vec::<bool>::new());
    }
}

#[test]
fn many_disjoint_races_need_no_exhaustive_refutation() {
    // The shape of issue #17's nested-loop kernel's instance (12 phases here; the kernel's own
    // instance at 40 took minutes without the bound), as synthesis builds it:
    // per phase, positions in the round loop (weight 8202) and in the phase's inner loop
    // (820002); each phase's race is separable at two of each; two long-range races cover every
    // round-loop position. The optimum is one round-loop barrier per phase; proving it by
    // refuting `cost ≤ optimum − 1` took Minisat over two minutes. The dual bound meets the
    // first optimal model, so the search stops without a refutation.
    let phases = 12;
    let (mut m, v) = instance(Engine::Minisat, 5 * phases);
    let mut outer = Vec::new();
    for p in 0..phases as usize {
        let [c1, c2, i1, i2, c3] = std::array::from_fn(|k| v[5 * p + k]);
        for (x, w) in [(c1, 8202), (c2, 8202), (i1, 820_002), (i2, 820_002), (c3, 8202)] {
            m.add_soft(Lit::neg(x), w);
        }
        m.add_hard(&[Lit::pos(c1), Lit::pos(c2), Lit::pos(i1), Lit::pos(i2)]);
        outer.extend([Lit::pos(c1), Lit::pos(c2), Lit::pos(c3)]);
    }
    m.add_hard(&outer);
    m.add_hard(&outer[1..]);
    let sol = optimal(m.solve().unwrap());
    assert_eq!(sol.cost, 8202 * phases as u64);
    assert_eq!(
        m.stats().refutations,
        0,
        "the bound was refuted by search ({} SAT calls)",
        m.stats().sat_calls
    );
}

#[test]
fn huge_weights_and_new_soft_units() {
    // Deep loop nests: weights around 10^12; soft units arrive between solves.
    for engine in ENGINES {
        let (mut m, v) = instance(engine, 4);
        m.add_hard(&[Lit::pos(v[0]), Lit::pos(v[1])]);
        m.add_soft(Lit::neg(v[0]), 1_000_000_000_000);
        m.add_soft(Lit::neg(v[1]), 1_000_000_000_001);
        let sol = optimal(m.solve().unwrap());
        assert_eq!(sol.cost, 1_000_000_000_000, "{engine:?}");
        assert!(sol.model[0]);
        let w = m.new_var();
        m.add_hard(&[Lit::neg(v[0]), Lit::pos(w)]);
        m.add_soft(Lit::neg(w), 5);
        let sol = optimal(m.solve().unwrap());
        assert_eq!(sol.cost, 1_000_000_000_001, "{engine:?}");
        assert!(sol.model[1] && !sol.model[0]);
    }
}

#[test]
fn misuse_is_an_error_not_a_panic() {
    let mut m = MaxSat::new(Engine::Minisat);
    m.add_hard(&[Lit::pos(Var(3))]);
    assert!(matches!(m.solve(), Err(MaxSatError::UnknownVar { .. })));
    let mut m = MaxSat::new(Engine::Z3);
    let v = m.new_var();
    m.add_soft(Lit::pos(v), u64::MAX);
    m.add_soft(Lit::neg(v), 1);
    assert!(matches!(m.solve(), Err(MaxSatError::WeightOverflow)));
    assert!(matches!(brute_force(25, &[], &[]), Err(MaxSatError::TooManyVars { .. })));
}

#[test]
fn deterministic_models() {
    // Many optima: the model must still be the same run to run.
    let run = |engine| {
        let (mut m, v) = instance(engine, 12);
        for w in v.windows(2) {
            m.add_hard(&[Lit::pos(w[0]), Lit::pos(w[1])]);
        }
        for &x in &v {
            m.add_soft(Lit::neg(x), 100);
        }
        let first = optimal(m.solve().unwrap()).model;
        m.add_hard(&[Lit::pos(v[0]), Lit::pos(v[5])]);
        (first, optimal(m.solve().unwrap()).model)
    };
    for engine in ENGINES {
        assert_eq!(run(engine), run(engine), "{engine:?}");
    }
}

/// Literal over `n` variables from raw random numbers.
fn lit_strategy(n: u32) -> impl Strategy<Value = Lit> {
    (0..n, any::<bool>()).prop_map(|(v, negated)| Lit { var: Var(v), negated })
}

fn clauses_strategy(n: u32, max: usize) -> impl Strategy<Value = Vec<Vec<Lit>>> {
    prop::collection::vec(prop::collection::vec(lit_strategy(n), 1..=4), 0..=max)
}

fn weight_strategy() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => prop::sample::select(vec![1u64, 2, 4, 50, 100, 200, 10000]),
        1 => any::<u32>().prop_map(|w| u64::from(w) + 1),
    ]
}

/// Variable count, soft units, and the hard clauses added before each of the
/// three solves.
type RandomInstance = (u32, Vec<(Lit, u64)>, [Vec<Vec<Lit>>; 3]);

fn instance_strategy() -> impl Strategy<Value = RandomInstance> {
    (1u32..=14).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((lit_strategy(n), weight_strategy()), 0..=2 * n as usize),
            [clauses_strategy(n, 3 * n as usize), clauses_strategy(n, 4), clauses_strategy(n, 4)],
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn engines_agree_with_brute_force((n, soft, rounds) in instance_strategy()) {
        let mut solvers: Vec<(Engine, MaxSat)> = ENGINES
            .iter()
            .map(|&e| {
                let (mut m, _) = instance(e, n);
                for &(l, w) in &soft {
                    m.add_soft(l, w);
                }
                (e, m)
            })
            .collect();
        let mut hard: Vec<Vec<Lit>> = Vec::new();
        for batch in &rounds {
            hard.extend(batch.iter().cloned());
            let expected = brute_force(n, &hard, &soft).unwrap();
            for (engine, m) in &mut solvers {
                for c in batch {
                    m.add_hard(c);
                }
                let got = m.solve().unwrap();
                match (&expected, &got) {
                    (Outcome::Unsat, Outcome::Unsat) => {}
                    (Outcome::Optimal(e), Outcome::Optimal(g)) => {
                        prop_assert_eq!(e.cost, g.cost, "{:?}", engine);
                        prop_assert_eq!(g.model.len(), n as usize);
                        prop_assert!(satisfies(&g.model, &hard));
                        let cost: u64 = soft
                            .iter()
                            .filter(|(l, _)| !l.eval(&g.model))
                            .map(|(_, w)| w)
                            .sum();
                        prop_assert_eq!(cost, g.cost);
                    }
                    _ => prop_assert!(false, "{:?}: expected {:?}, got {:?}", engine, expected, got),
                }
            }
        }
    }
}
