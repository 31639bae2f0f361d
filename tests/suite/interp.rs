//! Tests of the reference interpreter (`autosync::interp`) on small KPL kernels.

use autosync::interp::{run, AccessKind, InterpError, RunConfig, RunReport, Scope};
use autosync::kpl::ast::{Expr, Kernel, Label, StmtKind, Width, WriteMode};
use autosync::kpl::parse;
use std::collections::BTreeSet;

fn kernel(src: &str) -> Kernel {
    match parse(src) {
        Ok(k) => k,
        Err(d) => panic!("test kernel does not parse: {d:?}\n{src}"),
    }
}

fn label(k: &Kernel, name: &str) -> Label {
    k.label_by_name(name).unwrap_or_else(|| panic!("no label `{name}`"))
}

fn run_ok(k: &Kernel, cfg: &RunConfig) -> RunReport {
    match run(k, cfg) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}"),
    }
}

fn block(threads: u32) -> RunConfig {
    RunConfig::new([threads, 1, 1], [1, 1, 1])
}

fn pairs(k: &Kernel, names: &[(&str, &str)]) -> BTreeSet<(Label, Label)> {
    names
        .iter()
        .map(|(a, b)| {
            let (a, b) = (label(k, a), label(k, b));
            (a.min(b), a.max(b))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// AutoSync Fig. 2: straight-line code.

const FIG2: &str = "
kernel fig2() {
  shared A[65];
  local x;
  @r x := rd A[tid + 1];
  @w wr A[tid] := x;
}";

#[test]
fn fig2_read_write_race() {
    let k = kernel(FIG2);
    let rep = run_ok(&k, &block(64));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
    assert_eq!(rep.races.len(), 1);
    let r = &rep.races[0];
    assert_eq!((r.first, r.second), (label(&k, "r"), label(&k, "w")));
    assert_eq!(r.kinds, [AccessKind::Read, AccessKind::Write]);
    assert_eq!(r.array, "A");
    assert_eq!(r.scope, Scope::Block);
    // Thread t reads A[t+1], which thread t+1 writes.
    assert_eq!(u64::from(r.threads[0][0]) + 1, r.index);
    assert_eq!(u64::from(r.threads[1][0]), r.index);
    assert!(r.iterations[0].is_empty() && r.iterations[1].is_empty());
    assert!(!rep.truncated);
    assert!(rep.divergences.is_empty() && rep.out_of_bounds.is_empty());
}

#[test]
fn fig2_with_barrier_is_race_free() {
    let k = kernel(
        "kernel fig2() {
           shared A[65];
           local x;
           x := rd A[tid + 1];
           barrier;
           wr A[tid] := x;
         }",
    );
    let rep = run_ok(&k, &block(64));
    assert!(rep.is_clean(), "{}", rep.render(&k));
}

#[test]
fn single_thread_never_races() {
    let k = kernel(FIG2);
    assert!(run_ok(&k, &block(1)).races.is_empty());
}

// ---------------------------------------------------------------------------------------------
// AutoSync Fig. 4: a race inside a loop, intra- and inter-iteration.

fn fig4(b1: &str, b2: &str) -> String {
    format!(
        "kernel fig4(n) {{
           shared A[65];
           local i := 0;
           local x;
           @loop while (i < n) {{
             {b1}
             @r x := rd A[tid + 1];
             x := x + i;
             {b2}
             @w wr A[tid] := x;
             i := i + 1;
           }}
         }}"
    )
}

#[test]
fn fig4_without_barriers_has_intra_and_inter_iteration_races() {
    let k = kernel(&fig4("", ""));
    let rep = run_ok(&k, &block(32).with_param("n", 3));
    let lp = label(&k, "loop");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
    let intra = rep.races.iter().find(|r| r.separating_loop().is_none()).expect("intra-iteration race");
    assert_eq!(intra.iterations[0], intra.iterations[1]);
    assert_eq!((intra.first, intra.second), (label(&k, "r"), label(&k, "w")));
    assert_eq!(intra.loops, [vec![lp], vec![lp]]);
    let inter = rep.races.iter().find(|r| r.separating_loop() == Some(lp)).expect("inter-iteration race");
    assert_ne!(inter.iterations[0], inter.iterations[1]);
}

#[test]
fn fig4_red_barrier_leaves_only_the_inter_iteration_race() {
    let k = kernel(&fig4("", "barrier;"));
    let rep = run_ok(&k, &block(32).with_param("n", 3));
    let lp = label(&k, "loop");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
    for r in &rep.races {
        assert_eq!(r.separating_loop(), Some(lp), "{}", rep.render(&k));
        // The write of iteration i races with the read of iteration i + 1.
        assert_eq!((r.first, r.second), (label(&k, "w"), label(&k, "r")));
        assert_eq!(r.iterations[0][0] + 1, r.iterations[1][0]);
    }
}

#[test]
fn fig4_both_barriers_are_race_free() {
    let k = kernel(&fig4("barrier;", "barrier;"));
    let rep = run_ok(&k, &block(32).with_param("n", 3));
    assert!(rep.is_clean(), "{}", rep.render(&k));
    // The green barrier alone is not enough.
    let k = kernel(&fig4("barrier;", ""));
    let rep = run_ok(&k, &block(32).with_param("n", 3));
    assert!(rep.races.iter().all(|r| r.separating_loop().is_none()));
    assert!(!rep.races.is_empty());
}

#[test]
fn loop_with_zero_trip_count_does_nothing() {
    let k = kernel(&fig4("", ""));
    let rep = run_ok(&k, &block(32).with_param("n", 0));
    assert!(rep.is_clean());
}

// ---------------------------------------------------------------------------------------------
// Barrier divergence.

#[test]
fn divergent_barrier_under_thread_dependent_if() {
    let k = kernel(
        "kernel d() {
           if (tid < 5) { @b barrier; }
         }",
    );
    let rep = run_ok(&k, &block(32));
    assert_eq!(rep.divergences.len(), 1);
    let d = &rep.divergences[0];
    assert_eq!(d.barrier, label(&k, "b"));
    assert_eq!(d.block, [0, 0, 0]);
    assert!(d.enabled_thread[0] < 5);
    assert!(d.disabled_thread[0] >= 5);
    assert!(rep.races.is_empty());
}

#[test]
fn divergent_barrier_still_synchronizes() {
    let k = kernel(
        "kernel d() {
           shared A[33];
           local x;
           x := rd A[tid + 1];
           if (tid < 5) { barrier; }
           wr A[tid] := x;
         }",
    );
    let rep = run_ok(&k, &block(32));
    assert_eq!(rep.divergences.len(), 1);
    assert!(rep.races.is_empty(), "{}", rep.render(&k));
}

#[test]
fn barrier_under_uniform_if() {
    let src = "kernel u(n) {
                 shared A[33];
                 local x;
                 @r x := rd A[tid + 1];
                 if (n > 3) { barrier; }
                 @w wr A[tid] := x;
               }";
    let k = kernel(src);
    let taken = run_ok(&k, &block(32).with_param("n", 5));
    assert!(taken.is_clean(), "{}", taken.render(&k));
    let skipped = run_ok(&k, &block(32).with_param("n", 1));
    assert!(skipped.divergences.is_empty());
    assert_eq!(skipped.race_pairs(), pairs(&k, &[("r", "w")]));
}

#[test]
fn barrier_with_all_threads_disabled_has_no_effect() {
    let k = kernel(
        "kernel z() {
           shared A[33];
           local x;
           @r x := rd A[tid + 1];
           if (tid > 100) { barrier; }
           @w wr A[tid] := x;
         }",
    );
    let rep = run_ok(&k, &block(32));
    assert!(rep.divergences.is_empty());
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
}

#[test]
fn barrier_in_loop_with_thread_dependent_trip_count_diverges() {
    let k = kernel(
        "kernel t() {
           shared A[16];
           local i := tid;
           @loop while (i < 10) {
             wr A[tid] := i;
             @b barrier;
             i := i + 1;
           }
         }",
    );
    let rep = run_ok(&k, &block(16));
    assert_eq!(rep.divergences.len(), 1);
    let d = &rep.divergences[0];
    assert_eq!(d.barrier, label(&k, "b"));
    assert!(d.enabled_thread[0] < 10 && d.disabled_thread[0] >= 10);
}

// ---------------------------------------------------------------------------------------------
// Atomics.

#[test]
fn atomic_vs_atomic_is_no_race() {
    let k = kernel(
        "kernel a() {
           global C[];
           atomic add C[0], 1;
           atomic max C[0], tid;
         }",
    );
    assert!(run_ok(&k, &block(64)).races.is_empty());
}

#[test]
fn atomic_vs_plain_access_races() {
    let k = kernel(
        "kernel a() {
           global C[];
           local x;
           @a atomic add C[0], 1;
           @r x := rd C[0];
           @w wr C[1] := tid;
           @b atomic exch C[1], 0;
         }",
    );
    let rep = run_ok(&k, &block(8));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("a", "r"), ("w", "w"), ("w", "b")]));
    let ar = rep.races.iter().find(|r| r.first == label(&k, "a")).expect("a/r race");
    assert_eq!(ar.kinds, [AccessKind::Atomic, AccessKind::Read]);
    assert!(!ar.same_value);
}

#[test]
fn atomic_returns_the_old_value() {
    // Every thread gets a distinct ticket, so the writes to B never collide. An atomic returning
    // the new value, or one value for all, would make them collide.
    let k = kernel(
        "kernel t() {
           global C[];
           global B[];
           local old;
           old := atomic add C[0], 1;
           wr B[old] := tid;
         }",
    );
    for seed in 0..4 {
        let rep = run_ok(&k, &block(64).with_seed(seed));
        assert!(rep.races.is_empty(), "{}", rep.render(&k));
    }
    // Thread t gets ticket 5 + t (the old value), so thread 0 writes B[5], which the others read.
    let k = kernel(
        "kernel t() {
           global C[];
           global B[];
           local old;
           atomic exch C[0], 5;
           old := atomic add C[0], 1;
           @w wr B[old] := 1;
           @r old := rd B[5];
         }",
    );
    let rep = run_ok(&k, &block(4));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
    assert_eq!(rep.races[0].threads[0], [0, 0, 0]);
    // After the first exchange every thread gets 7 back: threads 1.. collide.
    let k = kernel(
        "kernel t() {
           global C[];
           global B[];
           local old;
           old := atomic exch C[0], 7;
           @w wr B[old] := tid;
         }",
    );
    let rep = run_ok(&k, &block(4));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "w")]));
    assert_eq!(rep.races[0].index, 7);
}

// ---------------------------------------------------------------------------------------------
// Global memory and grid scope.

#[test]
fn global_written_by_thread_zero_of_every_block_is_a_grid_race() {
    let src = "kernel g() {
                 global out[];
                 if (tid == 0) { @w wr out[0] := bid.x; }
                 barrier;
               }";
    let k = kernel(src);
    let rep = run_ok(&k, &RunConfig::new([32, 1, 1], [2, 1, 1]));
    assert_eq!(rep.races.len(), 1, "{}", rep.render(&k));
    let r = &rep.races[0];
    assert_eq!(r.scope, Scope::Grid);
    assert_eq!((r.first, r.second), (label(&k, "w"), label(&k, "w")));
    assert_eq!(r.blocks, [[0, 0, 0], [1, 0, 0]]);
    assert_eq!(r.threads, [[0, 0, 0], [0, 0, 0]]);
    assert_eq!(r.kinds, [AccessKind::Write, AccessKind::Write]);
    assert!(!r.same_value);
    // One block: no race.
    assert!(run_ok(&k, &RunConfig::new([32, 1, 1], [1, 1, 1])).races.is_empty());
}

#[test]
fn global_race_within_a_block_has_block_scope() {
    let k = kernel(
        "kernel g() {
           global out[];
           @w wr out[bid.x] := tid;
         }",
    );
    let rep = run_ok(&k, &RunConfig::new([4, 1, 1], [3, 1, 1]));
    assert!(!rep.races.is_empty());
    assert!(rep.races.iter().all(|r| r.scope == Scope::Block && r.blocks[0] == r.blocks[1]));
}

#[test]
fn shared_memory_is_per_block() {
    let k = kernel(
        "kernel s() {
           shared S[1];
           if (tid == 0) { wr S[0] := bid.x; }
         }",
    );
    assert!(run_ok(&k, &RunConfig::new([8, 1, 1], [4, 1, 1])).races.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Values.

#[test]
fn write_write_same_value_is_marked() {
    let k = kernel("kernel s() { shared A[1]; @w wr A[0] := 7; }");
    let rep = run_ok(&k, &block(32));
    assert_eq!(rep.races.len(), 1);
    assert!(rep.races[0].same_value);
    assert_eq!(rep.races[0].kinds, [AccessKind::Write, AccessKind::Write]);
    assert_ne!(rep.races[0].threads[0], rep.races[0].threads[1]);

    let k = kernel("kernel s() { shared A[1]; @w wr A[0] := tid; }");
    let rep = run_ok(&k, &block(32));
    assert_eq!(rep.races.len(), 1);
    assert!(!rep.races[0].same_value);

    // Equal for most threads but not all: not the same value.
    let k = kernel("kernel s() { shared A[1]; @w wr A[0] := tid == 31; }");
    let rep = run_ok(&k, &block(32));
    assert!(!rep.races[0].same_value);
}

#[test]
fn division_by_zero_follows_smt_lib_bit_vectors() {
    // x / 0 = -1 for x >= 0, udiv(x, 0) = 0xFFFFFFFF, x % 0 = urem(x, 0) = x: every thread writes
    // A[-1 + 0xFFFFFFFF + 2 + tid + tid] = A[2 * tid] (wrapping), so no two threads collide.
    let k = kernel(
        "kernel z() {
           shared A[8];
           local d := 0;
           @w wr A[tid / d + udiv(tid, d) + 2 + tid % d + urem(tid, d)] := 1;
         }",
    );
    let rep = run_ok(&k, &block(4));
    assert!(rep.out_of_bounds.is_empty(), "{rep:?}");
    assert!(rep.races.is_empty(), "{rep:?}");
}

#[test]
fn opaque_calls_are_deterministic_functions_of_their_arguments() {
    // f(tid % 2) takes two values: the threads of equal parity write the same element.
    let k = kernel(
        "kernel c() {
           global B[];
           @w wr B[f(tid % 2)] := g(tid, 3);
         }",
    );
    let rep = run_ok(&k, &block(4));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "w")]));
    // Threads 0 and 2 (or 1 and 3) collide; no other pairs.
    let r = &rep.races[0];
    assert_eq!(r.threads[0][0] % 2, r.threads[1][0] % 2);
}

// ---------------------------------------------------------------------------------------------
// Reductions and loops.

const REDUCTION: &str = "
kernel reduce() {
  shared A[64];
  local s := bdim.x / 2;
  local a;
  local b;
  @loop while (s > 0) {
    if (tid < s) {
      @ra a := rd A[tid];
      @rb b := rd A[tid + s];
      @w wr A[tid] := a + b;
    }
    BARRIER
    s := s / 2;
  }
}";

#[test]
fn tree_reduction_with_barrier_is_race_free() {
    let k = kernel(&REDUCTION.replace("BARRIER", "barrier;"));
    for threads in [64, 32, 1] {
        let rep = run_ok(&k, &RunConfig::new([threads, 1, 1], [2, 1, 1]));
        assert!(rep.is_clean(), "{threads} threads: {}", rep.render(&k));
        assert!(!rep.truncated);
    }
}

#[test]
fn tree_reduction_without_barrier_races_across_iterations() {
    let k = kernel(&REDUCTION.replace("BARRIER", ""));
    let rep = run_ok(&k, &block(64));
    assert!(!rep.races.is_empty());
    let lp = label(&k, "loop");
    // Every race is between iterations: within one, threads touch disjoint elements.
    for r in &rep.races {
        assert_eq!(r.separating_loop(), Some(lp), "{}", rep.render(&k));
    }
    assert!(pairs(&k, &[("rb", "w")]).is_subset(&rep.race_pairs()));
}

#[test]
fn different_trip_counts() {
    // Thread t writes A[t..10): thread t and thread t-1 both write A[t], one iteration apart, and
    // write the same value.
    let k = kernel(
        "kernel t() {
           shared A[10];
           local i := tid;
           @loop while (i < 10) {
             @w wr A[i] := i;
             i := i + 1;
           }
         }",
    );
    let rep = run_ok(&k, &block(16));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "w")]));
    assert_eq!(rep.races.len(), 1);
    let r = &rep.races[0];
    assert_eq!(r.separating_loop(), Some(label(&k, "loop")));
    assert_eq!(r.threads[0][0], r.threads[1][0] + 1);
    assert_eq!(r.iterations[0][0] + 1, r.iterations[1][0]);
    assert!(r.same_value);
    assert!(rep.out_of_bounds.is_empty());
}

#[test]
fn a_thread_leaving_a_loop_stays_disabled() {
    // Thread 1's guard is false at j == 2 and would be true again at j == 3; it must not run
    // iteration 3, so nobody writes A[8 + 3]. Thread 0 runs j = 0..4.
    let src = |probe: u32| {
        format!(
            "kernel t() {{
               shared A[16];
               local j := 0;
               local x;
               while (j < 5 && (j != 2 || tid == 0)) {{
                 @w wr A[tid * 8 + j] := 1;
                 j := j + 1;
               }}
               @r x := rd A[8 + {probe}];
             }}"
        )
    };
    let k = kernel(&src(3));
    let rep = run_ok(&k, &block(2));
    assert!(rep.races.is_empty(), "{}", rep.render(&k));
    // Control: thread 1 did write A[8 + 1].
    let k = kernel(&src(1));
    let rep = run_ok(&k, &block(2));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
}

#[test]
fn else_block_runs_after_then_block() {
    let k = kernel(
        "kernel e() {
           shared A[1];
           if (tid >= 16) { @t wr A[0] := 1; } else { @e wr A[0] := 2; }
         }",
    );
    let rep = run_ok(&k, &block(32));
    let te = rep.races.iter().find(|r| r.first != r.second).expect("then/else race");
    assert_eq!((te.first, te.second), (label(&k, "t"), label(&k, "e")));
    assert!(te.threads[0][0] >= 16 && te.threads[1][0] < 16);
}

#[test]
fn three_dimensional_thread_ids() {
    let k = kernel(
        "//--blockDim=[4,4]
         kernel d() {
           shared A[4];
           @w wr A[tid.y] := tid.x;
         }",
    );
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert_eq!(rep.races.len(), 1);
    let [a, b] = rep.races[0].threads;
    assert_eq!(a[1], b[1]);
    assert_ne!(a[0], b[0]);
    assert_eq!(u64::from(a[1]), rep.races[0].index);
}

// ---------------------------------------------------------------------------------------------
// Bounds, truncation, errors, determinism.

#[test]
fn infinite_loop_is_truncated() {
    let k = kernel("kernel inf() { while (1) { } }");
    let rep = run_ok(&k, &block(32).with_max_steps(100));
    assert!(rep.truncated);
    assert!(rep.steps <= 100);
    let k = kernel("kernel inf() { shared A[1]; while (1) { barrier; } }");
    let rep = run_ok(&k, &RunConfig::new([32, 1, 1], [2, 1, 1]).with_max_steps(1000));
    assert!(rep.truncated);
    assert!(rep.steps <= 2000);
    let k = kernel(FIG2);
    assert!(!run_ok(&k, &block(32).with_max_steps(100)).truncated);
}

#[test]
fn out_of_bounds_is_recorded_and_skipped() {
    let k = kernel(
        "kernel o() {
           shared A[32];
           local x;
           @w wr A[tid + 1] := 0;
           @r x := rd A[tid - 1];
         }",
    );
    let rep = run_ok(&k, &block(32));
    assert_eq!(
        rep.out_of_bounds,
        vec![(label(&k, "w"), "A".to_string(), 32), (label(&k, "r"), "A".to_string(), u64::from(u32::MAX))]
    );
    // The in-bounds accesses still race (thread t-1 writes A[t], thread t+1 reads it).
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
    assert!(!rep.truncated);
    // Skipped accesses touch nothing, so they cannot race either.
    let k = kernel("kernel o() { shared A[32]; @w wr A[32 + tid % 2] := tid; }");
    let rep = run_ok(&k, &block(8));
    assert!(rep.races.is_empty());
    assert_eq!(rep.out_of_bounds, vec![(label(&k, "w"), "A".to_string(), 32)]);
}

#[test]
fn multi_dimensional_arrays_linearize_row_major() {
    let k = kernel(
        "kernel m() {
           shared M[4][8];
           local x;
           wr M[tid / 8][tid % 8] := 1;
           @r x := rd M[tid % 4][0];
         }",
    );
    let rep = run_ok(&k, &block(32));
    assert!(rep.out_of_bounds.is_empty());
    // Thread t reads element (t % 4) * 8, written by thread (t % 4) * 8.
    assert!(!rep.races.is_empty());
    for r in &rep.races {
        assert_eq!(r.index % 8, 0);
    }
    let k = kernel("kernel m() { shared M[4][8]; @w wr M[0][tid] := 1; }");
    let rep = run_ok(&k, &block(16));
    assert_eq!(rep.out_of_bounds.len(), 1);
    assert_eq!(rep.out_of_bounds[0].0, label(&k, "w"));
}

#[test]
fn same_seed_same_report() {
    let k = kernel(&fig4("", ""));
    for seed in [0, 1, 42] {
        let cfg = RunConfig::new([32, 1, 1], [2, 1, 1]).with_seed(seed);
        assert_eq!(run_ok(&k, &cfg), run_ok(&k, &cfg));
    }
}

#[test]
fn initial_memory_depends_on_the_seed() {
    // Whether anybody writes depends on an initial memory value.
    let k = kernel(
        "kernel s() {
           shared A[1];
           shared B[1];
           local x;
           x := rd A[0];
           if (x % 2 == 0) { wr B[0] := tid; }
         }",
    );
    let outcomes: BTreeSet<bool> =
        (0..32).map(|seed| run_ok(&k, &block(4).with_seed(seed)).races.is_empty()).collect();
    assert_eq!(outcomes.len(), 2, "some seeds race, some do not");
}

#[test]
fn missing_parameters_get_small_values() {
    let k = kernel(
        "kernel p(n) {
           shared A[17];
           wr A[n] := 0;
         }",
    );
    for seed in 0..64 {
        let rep = run_ok(&k, &block(1).with_seed(seed));
        assert!(rep.out_of_bounds.is_empty(), "seed {seed}: n must be in 0..=16");
    }
    let rep = run_ok(&k, &block(1).with_param("n", 17));
    assert_eq!(rep.out_of_bounds.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Warp-sync (GPUVerify's re-sync method, /work/wt/notes/warpsync.md): threads of one warp are
// ordered by every step both execute; threads of different warps only by barriers.

/// Runs `body` (a kernel body over `shared A[128]`, locals `x`, `y`, `i`) with `threads` threads
/// and warps of `warp` lanes, and returns the report.
fn warp_run(warp: u32, threads: u32, body: &str) -> (Kernel, RunReport) {
    let src = format!(
        "//--warp-sync={warp}\nkernel w() {{ shared A[128]; local x; local y; local i := 0; {body} }}"
    );
    let k = kernel(&src);
    let rep = run_ok(&k, &block(threads));
    (k, rep)
}

#[test]
fn warp_sync_orders_straight_line_code_within_a_warp() {
    let body = "@r x := rd A[tid + 1]; @w wr A[tid] := x;";
    let (_, rep) = warp_run(32, 32, body);
    assert!(rep.races.is_empty(), "{rep:?}");
    // Two warps: only the pair across the warp boundary (thread 31 reads A[32], 32 writes it).
    let (k, rep) = warp_run(32, 64, body);
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
    assert_eq!(rep.races.len(), 1);
    assert_eq!(rep.races[0].threads, [[31, 0, 0], [32, 0, 0]]);
    assert_eq!(rep.races[0].index, 32);
    // Warps of 4 lanes in a block of 8: the boundary is between threads 3 and 4.
    let (_, rep) = warp_run(4, 8, body);
    assert_eq!(rep.races.len(), 1);
    assert_eq!(rep.races[0].threads, [[3, 0, 0], [4, 0, 0]]);
}

#[test]
fn warp_sync_same_instance_writes_still_race() {
    let (k, rep) = warp_run(32, 32, "@w wr A[0] := tid;");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "w")]));
    assert!(!rep.races[0].same_value);
    // Reads of one instance never race, and atomics of one instance neither.
    let (_, rep) = warp_run(32, 32, "x := rd A[0]; atomic add A[1], 1;");
    assert!(rep.races.is_empty());
}

#[test]
fn warp_sync_divergent_branches_are_not_synchronized() {
    // Lanes < 16 write in the then block, lanes >= 16 read in the else block: no step between
    // the two ran with both enabled.
    let (k, rep) = warp_run(32, 32, "if (tid < 16) { @w wr A[tid + 16] := 1; } else { @r x := rd A[tid]; }");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
    assert_eq!(rep.races[0].threads, [[0, 0, 0], [16, 0, 0]]);
    // Right after the if, the read step is the first one both run: still unordered.
    let (k, rep) = warp_run(32, 32, "if (tid < 16) { @w wr A[tid + 16] := 1; } @r x := rd A[tid];");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
    // One statement executed by the whole warp in between re-synchronizes it.
    let (_, rep) = warp_run(32, 32, "if (tid < 16) { wr A[tid + 16] := 1; } y := 0; x := rd A[tid];");
    assert!(rep.races.is_empty(), "{rep:?}");
    // So does the evaluation of an if condition by both threads.
    let (_, rep) = warp_run(32, 32, "if (tid == 0) { wr A[0] := 1; } if (tid == 1) { x := rd A[0]; }");
    assert!(rep.races.is_empty(), "{rep:?}");
}

#[test]
fn warp_sync_orders_loop_iterations_within_a_warp() {
    let body = "while (i < 3) { @r x := rd A[tid + 1]; @w wr A[tid] := x; i := i + 1; }";
    let (_, rep) = warp_run(32, 32, body);
    assert!(rep.races.is_empty(), "{rep:?}");
    // Lane 0 runs one iteration, lane 1 three; lane 0's read of A[1] and lane 1's later writes
    // of A[1] have the `if` step (run by both) between them.
    let (_, rep) = warp_run(
        32,
        2,
        "while (i < 1 + tid * 2) { x := rd A[1]; if (tid == 1) { wr A[1] := x; } i := i + 1; }",
    );
    assert!(rep.races.is_empty(), "{rep:?}");
    // Different warps race across iterations as without warp-sync.
    let (k, rep) = warp_run(1, 2, body);
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]));
}

#[test]
fn warp_sync_one_writer_many_unsynchronized_readers() {
    // Lane 5 writes A[0] in a then block; the other 31 lanes read it in the else block, which
    // runs right after: every reader races with the writer, and the first witness is lane 0.
    let (k, rep) = warp_run(32, 32, "if (tid == 5) { @w wr A[0] := 1; } else { @r x := rd A[0]; }");
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]));
    assert_eq!(rep.races[0].threads, [[5, 0, 0], [0, 0, 0]]);
    // Two ifs instead: the second if's condition is a step of both lanes, so they are ordered.
    let (_, rep) = warp_run(32, 32, "if (tid == 5) { wr A[0] := 1; } if (tid != 5) { x := rd A[0]; }");
    assert!(rep.races.is_empty(), "{rep:?}");
}

#[test]
fn warp_sync_barriers_and_divergence_are_unchanged() {
    let (k, rep) = warp_run(32, 64, "if (tid < 40) { @b barrier; }");
    assert_eq!(rep.divergences.len(), 1);
    assert_eq!(rep.divergences[0].barrier, label(&k, "b"));
    let (_, rep) = warp_run(32, 64, "x := rd A[tid + 1]; barrier; wr A[tid] := x;");
    assert!(rep.is_clean());
}

#[test]
fn warp_size_zero_is_an_error() {
    let k = kernel("//--blockDim=32 --warp-sync=0\nkernel w() { }");
    assert!(matches!(run(&k, &block(32)), Err(InterpError::BadGeometry(_))));
}

#[test]
fn bad_geometry_is_an_error() {
    let k = kernel(FIG2);
    assert!(matches!(run(&k, &RunConfig::new([0, 1, 1], [1, 1, 1])), Err(InterpError::BadGeometry(_))));
    assert!(matches!(run(&k, &RunConfig::new([2048, 1, 1], [1, 1, 1])), Err(InterpError::BadGeometry(_))));
    assert!(matches!(run(&k, &RunConfig::new([32, 32, 2], [1, 1, 1])), Err(InterpError::BadGeometry(_))));
    assert!(matches!(run(&k, &RunConfig::new([32, 1, 1], [1, 0, 1])), Err(InterpError::BadGeometry(_))));
    assert!(run(&k, &RunConfig::new([32, 32, 1], [1, 1, 1])).is_ok());
}

#[test]
fn malformed_kernels_are_errors_not_panics() {
    // An assignment to a variable nobody declared.
    let mut k = kernel(FIG2);
    let w = label(&k, "w");
    for s in &mut k.body.stmts {
        if s.label == w {
            s.kind = StmtKind::Assign { name: "ghost".into(), value: Expr::int(1) };
        }
    }
    assert_eq!(run(&k, &block(4)), Err(InterpError::UndeclaredVariable { name: "ghost".into(), label: w }));

    // A use of an undeclared variable.
    let mut k = kernel(FIG2);
    for s in &mut k.body.stmts {
        if s.label == w {
            s.kind = StmtKind::Write {
                array: "A".into(),
                index: vec![Expr::var("ghost")],
                value: Expr::int(1),
                width: Width::ONE,
                mode: WriteMode::Plain,
            };
        }
    }
    assert!(matches!(run(&k, &block(4)), Err(InterpError::UndeclaredVariable { .. })));

    // An array nobody declared.
    let mut k = kernel(FIG2);
    k.arrays.clear();
    assert!(matches!(run(&k, &block(4)), Err(InterpError::UnknownArray { .. })));

    // Wrong number of indices.
    let mut k = kernel(FIG2);
    for s in &mut k.body.stmts {
        if s.label == w {
            s.kind = StmtKind::Write {
                array: "A".into(),
                index: vec![Expr::int(0), Expr::int(0)],
                value: Expr::int(1),
                width: Width::ONE,
                mode: WriteMode::Plain,
            };
        }
    }
    assert!(matches!(run(&k, &block(4)), Err(InterpError::IndexArity { expected: 1, found: 2, .. })));

    // An unknown inner dimension cannot be linearized.
    let mut k = kernel("kernel m() { global G[][4]; wr G[0][tid] := 1; }");
    k.arrays[0].dims[1] = None;
    assert!(matches!(run(&k, &block(4)), Err(InterpError::BadArray { .. })));
}

#[test]
fn a_large_block_runs_to_completion() {
    // 256 threads, ~10k statement executions: must finish promptly (timing is not asserted).
    let k = kernel(
        "kernel big(n) {
           shared A[257];
           local i := 0;
           local x;
           while (i < n) {
             x := rd A[tid + 1];
             barrier;
             wr A[tid] := x + i;
             barrier;
             i := i + 1;
           }
         }",
    );
    let rep = run_ok(&k, &block(256).with_param("n", 2000));
    assert!(rep.is_clean(), "{}", rep.render(&k));
    assert!(rep.steps > 10_000);
    assert!(!rep.truncated);
}

#[test]
fn render_names_labels() {
    let k = kernel(FIG2);
    let text = run_ok(&k, &block(4)).render(&k);
    assert!(text.contains("race"), "{text}");
    assert!(text.contains("A["), "{text}");
}

#[test]
fn race_with_an_earlier_thread_of_the_same_statement_is_found() {
    // Threads 0..3 write A[0]; then only thread 3 reads it: it races with the writes of threads
    // 0..2 even though its own write is the latest one.
    let k = kernel(
        "kernel e() {
           shared A[1];
           local x;
           if (tid < 4) { @w wr A[0] := tid; }
           if (tid == 3) { @r x := rd A[0]; }
         }",
    );
    let rep = run_ok(&k, &block(8));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "w"), ("w", "r")]));
    let wr = rep.races.iter().find(|r| r.second == label(&k, "r")).expect("w/r race");
    assert_eq!(wr.threads[1], [3, 0, 0]);
    assert!(wr.threads[0][0] < 3);
}

#[test]
fn absurdly_deep_expressions_are_an_error() {
    let mut k = kernel("kernel d() { local x := 0; }");
    let mut e = Expr::int(1);
    for _ in 0..5000 {
        e = Expr::bin(autosync::kpl::ast::BinOp::Add, e, Expr::int(1));
    }
    if let StmtKind::Local { init, .. } = &mut k.body.stmts[0].kind {
        *init = Some(e);
    }
    assert!(matches!(run(&k, &block(2)), Err(InterpError::TooDeep { .. })));
}

// ---------------------------------------------------------------------------------------------
// Warp barriers (`syncwarp`): groups of 32 linear thread ids, or the `--warp-sync` size.

/// A read of the right neighbour's element, a `syncwarp`, then a write of the own element.
const SHIFT_SYNCWARP: &str = "kernel s() {
   shared A[129];
   local x;
   @r x := rd A[tid + 1];
   @s syncwarp;
   @w wr A[tid] := x;
 }";

#[test]
fn syncwarp_orders_threads_of_one_warp() {
    let k = kernel(SHIFT_SYNCWARP);
    let rep = run_ok(&k, &block(32));
    assert!(rep.races.is_empty(), "{}", rep.render(&k));
    assert!(rep.divergences.is_empty());
}

#[test]
fn syncwarp_does_not_order_threads_of_different_warps() {
    let k = kernel(SHIFT_SYNCWARP);
    let rep = run_ok(&k, &block(64));
    // Only thread 31 reads A[32], which thread 32 (warp 1) writes.
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]), "{}", rep.render(&k));
    let r = &rep.races[0];
    assert_eq!((r.threads[0][0], r.threads[1][0]), (31, 32));
}

#[test]
fn syncwarp_warps_follow_the_warp_sync_size() {
    // With --warp-sync=16 warps have 16 lanes: thread 15 reads A[16], which thread 16 (the next
    // warp) writes, and neither the syncwarp nor the re-sync orders threads of two warps.
    let k = kernel(&format!("//--warp-sync=16\n{SHIFT_SYNCWARP}"));
    let rep = run_ok(&k, &block(32));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("r", "w")]), "{}", rep.render(&k));
    assert!(rep.races.iter().all(|r| (r.threads[0][0], r.threads[1][0]) == (15, 16)), "{}", rep.render(&k));
    // Without the syncwarp and without warp-sync the same kernel races at every lane.
    let plain = kernel(&SHIFT_SYNCWARP.replace("@s syncwarp;", ""));
    let rep = run_ok(&plain, &block(32));
    assert_eq!(rep.race_pairs(), pairs(&plain, &[("r", "w")]));
    assert!(rep.races.iter().any(|r| (r.threads[0][0], r.threads[1][0]) != (15, 16)));
}

#[test]
fn syncwarp_reached_by_part_of_a_warp_diverges() {
    let k = kernel(
        "kernel d() {
           if (tid < 16) { @s syncwarp; }
           if (tid >= 32) { @t syncwarp; }
         }",
    );
    let rep = run_ok(&k, &block(64));
    // s: lanes 0..15 of warp 0 only; t: all of warp 1 and none of warp 0, not divergent.
    assert_eq!(rep.divergences.len(), 1, "{}", rep.render(&k));
    let d = &rep.divergences[0];
    assert_eq!(d.barrier, label(&k, "s"));
    assert!(d.enabled_thread[0] < 16 && (16..32).contains(&d.disabled_thread[0]));
}

// ---------------------------------------------------------------------------------------------
// `assume`: a run that violates an assumption is infeasible and reports nothing.

const ASSUME: &str = "
kernel assume_k(n) {
  shared S[64];
  @w wr S[tid % 2] := 1;
  @a assume n == 4;
  @v wr S[tid] := n;
}";

#[test]
fn failed_assumption_discards_the_run() {
    let k = kernel(ASSUME);
    let held = run_ok(&k, &block(8).with_param("n", 4));
    assert!(held.infeasible.is_none());
    assert_eq!(held.race_pairs(), pairs(&k, &[("w", "w"), ("w", "v")]), "races of a feasible run count");
    let failed = run_ok(&k, &block(8).with_param("n", 5));
    let (l, _, thread) = failed.infeasible.expect("the assumption fails");
    assert_eq!((l, thread), (label(&k, "a"), [0, 0, 0]));
    assert!(failed.is_clean(), "an infeasible run has no findings: {failed:?}");
    assert!(failed.render(&k).contains("infeasible run: assumption a fails"));
}

// ---------------------------------------------------------------------------------------------
// Named barriers (`bar sync id, n`, `bar arrive id, n`, `bar wait id, e`).

fn corpus(name: &str) -> Kernel {
    let path = format!("{}/tests/verify/corpus/{name}.kpl", env!("CARGO_MANIFEST_DIR"));
    kernel(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

fn named_div(k: &Kernel, rep: &RunReport) -> BTreeSet<String> {
    rep.divergences.iter().map(|d| k.label_name(d.barrier).to_string()).collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn named_barriers_of_part_of_the_block_order_their_threads_only() {
    let k = corpus("named_halves");
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert!(rep.is_clean() && rep.unscheduled.is_none(), "{}", rep.render(&k));
    let k = corpus("named_halves_cross");
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r2")]), "{}", rep.render(&k));
    assert!(rep.divergences.is_empty(), "{}", rep.render(&k));
}

#[test]
fn a_named_barrier_waiting_for_more_threads_than_join_it_diverges() {
    let k = corpus("named_halves_count");
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert_eq!(named_div(&k, &rep), names(&["b1"]), "{}", rep.render(&k));
    let d = &rep.divergences[0];
    assert!(d.enabled_thread[0] < 128 && d.disabled_thread[0] >= 128, "{d:?}");
    assert!(rep.races.is_empty() && rep.unscheduled.is_none(), "{}", rep.render(&k));
}

#[test]
fn a_split_arrival_orders_what_its_wait_follows() {
    let k = corpus("named_split_wait");
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert!(rep.is_clean() && rep.unscheduled.is_none(), "{}", rep.render(&k));
    let k = corpus("named_split_wait_early");
    let rep = run_ok(&k, &RunConfig::for_kernel(&k));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]), "{}", rep.render(&k));
}

#[test]
fn producers_that_run_ahead_of_their_consumers_make_the_run_unscheduled() {
    // Lock-step runs the producers' whole loop before the consumers': their `bar sync` on the
    // EMPTY barriers passes instances the consumers complete only later.
    for name in ["named_producer_consumer", "named_producer_consumer_early"] {
        let k = corpus(name);
        let rep = run_ok(&k, &RunConfig::for_kernel(&k));
        let (_, _, thread) = rep.unscheduled.unwrap_or_else(|| panic!("{name}: {}", rep.render(&k)));
        assert!(thread[0] < 128, "a producer: {thread:?}");
        assert!(rep.is_clean(), "an unscheduled run has no findings: {}", rep.render(&k));
        assert!(rep.render(&k).contains("unscheduled run"), "{}", rep.render(&k));
    }
}

#[test]
fn an_arrival_that_runs_ahead_of_its_instance_diverges() {
    // The lower warp arrives twice before the upper one arrives at all: in this very schedule
    // its second arrival completes instance 1, so instance 2 is not the threads' second
    // arrivals. Nobody's wait passes an incomplete instance: the order is a schedule.
    let src = "
kernel k() {
  shared S[64];
  local x;
  @w wr S[tid] := tid;
  if (tid < 32) { bar arrive 1, 64; @y bar arrive 1, 64; } else { bar arrive 1, 64; bar arrive 1, 64; }
  @z bar wait 1, 2;
  @r x := rd S[(tid + 1) % 64];
}";
    let k = kernel(src);
    let rep = run_ok(&k, &block(64));
    assert!(rep.unscheduled.is_none(), "{}", rep.render(&k));
    assert_eq!(named_div(&k, &rep), names(&["y"]), "{}", rep.render(&k));
    assert!(rep.races.is_empty(), "the oracle's rule orders w before r: {}", rep.render(&k));
    // Each warp arriving once, then again: no overrun.
    let k = kernel(&src.replace(
        "@y bar arrive 1, 64; } else { bar arrive 1, 64; bar arrive 1, 64; }",
        "} else { bar arrive 1, 64; }\n  bar arrive 1, 64;",
    ));
    let rep = run_ok(&k, &block(64));
    assert!(rep.is_clean() && rep.unscheduled.is_none(), "{}", rep.render(&k));
}

#[test]
fn a_wait_for_an_instance_nobody_completes_hangs() {
    let src = "
kernel k() {
  shared S[64];
  local x;
  bar arrive 1, 64;
  @z bar wait 1, 2;
}";
    let k = kernel(src);
    let rep = run_ok(&k, &block(64));
    assert_eq!(named_div(&k, &rep), names(&["z"]), "{}", rep.render(&k));
    assert!(rep.unscheduled.is_none());
}

#[test]
fn a_barrier_nobody_waits_at_is_not_checked() {
    let k = kernel("kernel k() { shared S[64]; if (tid < 32) { bar arrive 1, 64; } }");
    let rep = run_ok(&k, &block(64));
    assert!(rep.is_clean(), "{}", rep.render(&k));
}

#[test]
fn statements_of_one_barrier_with_different_counts_diverge() {
    let src = "kernel k() { if (tid < 32) { @a bar sync 1, 32; } else { @b bar sync 1, 64; } }";
    let k = kernel(src);
    let rep = run_ok(&k, &block(64));
    assert!(named_div(&k, &rep).contains("b"), "{}", rep.render(&k));
}

#[test]
fn a_pair_ordered_by_a_later_arrival_is_decided_at_the_end_of_the_block() {
    // Thread 32 writes S[0] before it ever joins barrier 1; thread 0 reads it after waiting for
    // instance 1. Whether the oracle's rule orders them depends on thread 32 joining the barrier
    // later: with `late` it does (and the barrier has too many participants, a divergence),
    // without it the pair is a race.
    let src = "
kernel k() {
  shared S[64];
  local x;
  if (tid >= 32) { @w wr S[tid - 32] := 1; }
  if (tid < 32) { @s bar sync 1, 32; @r x := rd S[tid]; }
  if (tid >= 32) { @late bar arrive 1, 32; }
}";
    let k = kernel(src);
    let rep = run_ok(&k, &block(64));
    assert!(rep.races.is_empty(), "{}", rep.render(&k));
    assert_eq!(named_div(&k, &rep), names(&["s"]), "{}", rep.render(&k));
    let k = kernel(&src.replace("if (tid >= 32) { @late bar arrive 1, 32; }", ""));
    let rep = run_ok(&k, &block(64));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("w", "r")]), "{}", rep.render(&k));
    assert!(rep.divergences.is_empty(), "{}", rep.render(&k));
}

#[test]
fn a_named_barrier_never_orders_a_copy_before_another_access() {
    let src = "
kernel k() {
  shared S[64];
  local x;
  @c async wr S[tid] := tid;
  commit;
  wait 0;
  bar sync 1, 64;
  @r x := rd S[(tid + 1) % 64];
}";
    let k = kernel(src);
    let rep = run_ok(&k, &block(64));
    assert_eq!(rep.race_pairs(), pairs(&k, &[("c", "r")]), "{}", rep.render(&k));
    let k = kernel(&src.replace("async wr", "wr"));
    let rep = run_ok(&k, &block(64));
    assert!(rep.is_clean(), "{}", rep.render(&k));
}

#[test]
fn a_kernel_built_without_the_counters_gets_them() {
    fn strip(b: &mut autosync::kpl::ast::Block) {
        b.stmts.retain(|s| match &s.kind {
            StmtKind::Local { name, .. } | StmtKind::Assign { name, .. } => {
                !autosync::kpl::named::is_counter(name)
            }
            _ => true,
        });
        for s in &mut b.stmts {
            match &mut s.kind {
                StmtKind::If { then, els, .. } => {
                    strip(then);
                    if let Some(e) = els {
                        strip(e);
                    }
                }
                StmtKind::While { body, .. } => strip(body),
                _ => {}
            }
        }
    }
    let k = corpus("named_halves_cross");
    let mut bare = k.clone();
    strip(&mut bare.body);
    assert_ne!(bare, k);
    let cfg = RunConfig::for_kernel(&k);
    assert_eq!(run_ok(&bare, &cfg), run_ok(&k, &cfg));
}

/// What the interpreter shows on the `.cu` files of `tests/cuda/apps/DIR` whose names start
/// with `prefix`, with 2 blocks: it runs every file and finds nothing outside a file's verdict
/// (its `verdict:` and `may:` categories). Returns (files, files whose run shows a race or a
/// divergence, files whose run is unscheduled).
fn corpus_runs_within_verdicts(dir: &str, prefix: &str) -> (usize, u64, u64) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps").join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .collect();
    files.sort();
    let (mut shown, mut unscheduled) = (0, 0);
    for f in &files {
        let expect =
            std::fs::read_to_string(f.with_extension("expect")).expect("an .expect beside each file");
        let verdict = expect.lines().find_map(|l| l.strip_prefix("verdict:")).map(str::trim).unwrap_or("?");
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let (code, out, err) = crate::common::autosync_in(&dir, &["run", "--grid-dim", "2", name]);
        assert!(code == 0 || code == 1, "{name}: exit {code}\n{out}{err}");
        let (mut races, mut divergences) = (0, 0);
        for line in out.lines() {
            let numbers: Vec<u64> = line.split(['(', ' ', ':']).filter_map(|w| w.parse().ok()).collect();
            if line.contains("race(s),") && numbers.len() >= 2 {
                races += numbers[0];
                divergences += numbers[1];
            }
        }
        if err.contains("the run shows nothing") {
            unscheduled += 1;
            assert_eq!((races, divergences), (0, 0), "{name}: {out}{err}");
            continue;
        }
        // The verdict's categories, and the `may:` ones.
        let may = expect.lines().find_map(|l| l.strip_prefix("may:")).unwrap_or("");
        let allowed: Vec<&str> = verdict.split(',').chain(may.split(',')).map(str::trim).collect();
        assert!(
            allowed.iter().all(|c| matches!(*c, "clean" | "race" | "divergence" | "")),
            "{name}: verdict `{verdict}`"
        );
        if !allowed.contains(&"race") {
            assert_eq!(races, 0, "{name} does not race: {out}{err}");
        }
        if !allowed.contains(&"divergence") {
            assert_eq!(divergences, 0, "{name} does not diverge: {out}{err}");
        }
        shown += u64::from(races + divergences > 0);
    }
    (files.len(), shown, unscheduled)
}

/// The interpreter on the CUDA corpus of named barriers (`tests/cuda/apps/named/`, verdicts
/// derived by reading): nothing outside a file's verdict, and the race or divergence of the racy
/// and divergent files whose runs it can schedule; the warp-specialized loops (producers that
/// run ahead of their consumers in lock-step) come out unscheduled and show nothing.
#[test]
fn the_named_cuda_corpus_runs_within_its_verdicts() {
    let (files, shown, unscheduled) = corpus_runs_within_verdicts("named", "");
    assert!(files >= 24, "the named corpus has {files} files");
    // At least 6 racy and 3 divergent files show it; the warp-specialized loops come out
    // unscheduled.
    assert!(shown >= 9, "shown {shown}, unscheduled {unscheduled}");
}

/// The interpreter on the thread-scope `cuda::pipeline` files of `tests/cuda/apps/pipelines/`
/// (`cupipe*`, its `wait oldest` and `release`): nothing outside a file's verdict, and every racy
/// file's run shows its race (each races on every schedule the interpreter takes).
#[test]
fn the_pipeline_cuda_corpus_runs_within_its_verdicts() {
    let (files, shown, unscheduled) = corpus_runs_within_verdicts("pipelines", "cupipe");
    assert!(files >= 12, "the thread-scope pipeline files are {files}");
    assert_eq!(unscheduled, 0);
    assert!(shown >= 6, "shown {shown}");
}
