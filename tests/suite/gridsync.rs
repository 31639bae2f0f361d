//! Grid barriers (`gridsync`, cooperative groups' `this_grid().sync()`) and block-scope atomics
//! (`atomic block`, `atomicAdd_block`) across the layers: KPL text, the reference interpreter's
//! grid-barrier intervals, the oracle's grid cases and grid divergence, the synthesis (which keeps
//! grid barriers and adds no `barrier` beside one), and the CUDA front end.

use crate::common::kernels_of_text;
use autosync::interp::{self, RunConfig, RunReport, Scope as IScope};
use autosync::kpl::{self, Kernel, Label, StmtKind};
use autosync::synth::{self, SynthOptions, Synthesis, Unfixable};
use autosync::verify::{Oracle, OracleOptions, Scope, Verdict, Z3Oracle};

fn kernel(src: &str) -> Kernel {
    kpl::parse(src).unwrap_or_else(|d| panic!("{}", d.render("test.kpl", src)))
}

fn label(k: &Kernel, name: &str) -> Label {
    k.label_by_name(name).unwrap_or_else(|| panic!("no label `{name}`"))
}

fn check(k: &Kernel) -> Verdict {
    Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: 10_000,
        ..OracleOptions::default()
    })
    .check(k)
}

fn run(k: &Kernel, seed: u64) -> RunReport {
    interp::run(k, &RunConfig::for_kernel(k).with_seed(seed)).unwrap_or_else(|e| panic!("run: {e}"))
}

/// Grid races of the verdict as (first, second) label names.
fn grid_races(k: &Kernel, v: &Verdict) -> Vec<(String, String)> {
    v.races
        .iter()
        .filter(|r| r.scope == Scope::Grid)
        .map(|r| (k.label_name(r.first).to_string(), k.label_name(r.second).to_string()))
        .collect()
}

const TWO_PHASE: &str = "//--blockDim=8 --gridDim=4
kernel two_phase() {
  global part[4];
  global total[1];
  local acc := 0;
  local v;
  local i := 0;
  if (tid.x == 0) {
    @w wr part[bid.x] := bid.x + 1;
  }
  @g gridsync;
  if (bid.x == 0 && tid.x == 0) {
    while (i < gdim.x) {
      @r v := rd part[i];
      acc := acc + v;
      i := i + 1;
    }
    @t wr total[0] := acc;
  }
}";

#[test]
fn gridsync_and_block_atomics_print_and_parse_back() {
    let src = "kernel k() {\n  global a[4];\n  local x;\n  x := atomic block add a[bid.x], 1;\n  gridsync;\n  atomic block exch a[0], x;\n  atomic add a[1], 1;\n}\n";
    let k = kernel(src);
    let printed = kpl::print(&k);
    assert!(
        printed.contains("gridsync;") && printed.contains("x := atomic block add a[bid.x], 1;"),
        "{printed}"
    );
    assert!(
        printed.contains("atomic add a[1], 1;") && !printed.contains("atomic block add a[1]"),
        "{printed}"
    );
    let again = kernel(&printed);
    assert_eq!(kpl::print(&again), printed);
    assert_eq!(k.gridsyncs().len(), 1);
    assert_eq!(k.block_separators(), k.gridsyncs(), "a grid barrier orders the block too");
    let scoped: Vec<bool> = {
        let mut out = Vec::new();
        k.walk(&mut |s| {
            if matches!(s.kind, StmtKind::Atomic { .. }) {
                out.push(s.is_block_scoped_atomic());
            }
        });
        out
    };
    assert_eq!(scoped, [true, true, false]);
    // `gridsync` is a keyword: not a name.
    assert!(kpl::parse("kernel k() { local gridsync; }").is_err());
}

#[test]
fn interpreter_orders_blocks_at_a_grid_barrier() {
    let k = kernel(TWO_PHASE);
    for seed in 0..3 {
        let r = run(&k, seed);
        assert!(r.is_clean(), "seed {seed}: {}", r.render(&k));
    }
    let mut racy = k.clone();
    racy.body.stmts.retain(|s| !matches!(s.kind, StmtKind::Gridsync));
    let r = run(&racy, 0);
    assert!(
        r.races.iter().any(|x| x.scope == IScope::Grid
            && [x.first, x.second].contains(&label(&racy, "w"))
            && [x.first, x.second].contains(&label(&racy, "r"))),
        "{}",
        r.render(&racy)
    );
}

/// The values after a grid barrier are those of a real grid-synchronized execution: block 0 sums
/// the four partials (1 + 2 + 3 + 4 = 10) and indexes `probe[sum - 10]`, in bounds only with the
/// right sum; every block then re-reads the total (written in the second interval) the same way.
/// A block's locals and shared memory survive its grid barriers (it resumes where it stopped).
#[test]
fn interpreter_values_flow_across_grid_barriers() {
    let k = kernel(
        "//--blockDim=4 --gridDim=4
kernel flow() {
  global part[4];
  global total[1];
  global probe[1];
  shared mine[4];
  local acc := 0;
  local v;
  local i := 0;
  local kept;
  kept := bid.x * 3;
  wr mine[tid.x] := bid.x + 7;
  if (tid.x == 0) {
    wr part[bid.x] := bid.x + 1;
  }
  gridsync;
  if (bid.x == 0 && tid.x == 0) {
    while (i < 4) {
      v := rd part[i];
      acc := acc + v;
      i := i + 1;
    }
    v := rd probe[acc - 10];
    wr total[0] := acc;
  }
  gridsync;
  v := rd total[0];
  v := rd probe[v - 10];
  v := rd mine[tid.x];
  v := rd probe[v - bid.x - 7];
  v := rd probe[kept - bid.x * 3];
}",
    );
    for seed in 0..4 {
        let r = run(&k, seed);
        assert!(r.is_clean(), "seed {seed}: {}", r.render(&k));
    }
}

/// A block's global reads before a grid barrier replay with the values they had: `old` is the
/// initial (seeded) word, then the block stores `old + 1`; after the next grid barrier the word
/// must be exactly `old + 1`. Re-reading memory instead of replaying would see `old + 1` as
/// `old`, and index `probe[-1]`.
#[test]
fn interpreter_replays_a_blocks_earlier_reads() {
    let k = kernel(
        "//--blockDim=2 --gridDim=3
kernel replay() {
  global cell[3];
  global probe[1];
  local old;
  local now;
  if (tid.x == 0) {
    old := rd cell[bid.x];
  }
  gridsync;
  if (tid.x == 0) {
    wr cell[bid.x] := old + 1;
  }
  gridsync;
  if (tid.x == 0) {
    now := rd cell[bid.x];
    now := rd probe[now - old - 1];
  }
}",
    );
    for seed in 0..4 {
        let r = run(&k, seed);
        assert!(r.is_clean(), "seed {seed}: {}", r.render(&k));
    }
}

#[test]
fn oracle_orders_grid_pairs_only_across_a_grid_barrier() {
    let k = kernel(TWO_PHASE);
    let v = check(&k);
    assert!(v.races.is_empty() && v.divergences.is_empty(), "{v:#?}");
    let mut racy = k.clone();
    racy.body.stmts.retain(|s| !matches!(s.kind, StmtKind::Gridsync));
    assert_eq!(grid_races(&racy, &check(&racy)), [("w".to_string(), "r".to_string())]);
}

/// In a loop, the grid barrier separates the same-iteration case but not the carried one: the
/// next iteration's write meets this iteration's read of another block.
#[test]
fn a_grid_barrier_in_a_loop_leaves_the_carried_case() {
    let src = "//--blockDim=4 --gridDim=4
kernel ring(n) {
  global slot[4];
  local k := 0;
  local v;
  while (k < n) {
    if (tid.x == 0) {
      @w wr slot[urem(bid.x + 1, gdim.x)] := k;
    }
    @g1 gridsync;
    if (tid.x == 0) {
      @r v := rd slot[bid.x];
    }
    k := k + 1;
  }
}";
    let k = kernel(src);
    let v = check(&k);
    let race = v.races.iter().find(|r| r.scope == Scope::Grid).unwrap_or_else(|| panic!("{v:#?}"));
    assert!(
        race.cases.iter().all(|c| c.case.relation != autosync::verify::Relation::SameIteration),
        "{race:#?}"
    );
    // The interpreter agrees, with the run carried by the loop.
    let r = interp::run(&k, &RunConfig::for_kernel(&k).with_param("n", 3)).expect("run");
    assert!(r.races.iter().any(|x| x.scope == IScope::Grid), "{}", r.render(&k));
}

#[test]
fn grid_barriers_not_reached_by_every_block_diverge() {
    let k = kernel(
        "//--blockDim=4 --gridDim=3
kernel div() {
  global a[12];
  local k := 0;
  wr a[bid.x * 4 + tid.x] := 1;
  if (bid.x == 0) {
    @g gridsync;
  }
  while (k < bid.x) {
    @h gridsync;
    k := k + 1;
  }
}",
    );
    let v = check(&k);
    let diverging: Vec<&str> = v.divergences.iter().map(|d| k.label_name(d.barrier)).collect();
    assert_eq!(diverging, ["g", "h"], "{v:#?}");
    let r = run(&k, 0);
    let seen: std::collections::BTreeSet<&str> =
        r.divergences.iter().map(|d| k.label_name(d.barrier)).collect();
    assert_eq!(seen, ["g", "h"].into_iter().collect(), "{}", r.render(&k));
    // With one block nothing can disagree.
    let mut one = k.clone();
    one.geometry.grid_dim = Some([1, 1, 1]);
    assert!(check(&one).divergences.is_empty());
}

#[test]
fn block_scope_atomics_race_between_blocks_only_on_global_words() {
    let k = kernel(
        "//--blockDim=8 --gridDim=2
kernel scoped() {
  global count[1];
  global slots[2];
  shared s[1];
  @a atomic block add count[0], 1;
  @b atomic block add slots[bid.x], 1;
  @c atomic block add s[0], 1;
  @d atomic add slots[1], 1;
}",
    );
    let v = check(&k);
    let mut got = grid_races(&k, &v);
    got.sort();
    let want: Vec<(String, String)> =
        [("a", "a"), ("b", "d")].iter().map(|(x, y)| (x.to_string(), y.to_string())).collect();
    assert_eq!(got, want, "{v:#?}");
    assert!(v.races.iter().all(|r| r.scope == Scope::Grid), "no block race: {v:#?}");
    let r = run(&k, 0);
    let pairs: std::collections::BTreeSet<(Label, Label)> = r
        .races
        .iter()
        .filter(|x| x.scope == IScope::Grid)
        .map(|x| (x.first.min(x.second), x.first.max(x.second)))
        .collect();
    assert_eq!(
        pairs,
        [(label(&k, "a"), label(&k, "a")), (label(&k, "b"), label(&k, "d"))].into_iter().collect(),
        "{}",
        r.render(&k)
    );
}

/// The synthesis keeps a grid barrier, adds no `barrier` beside it for the shared-memory exchange
/// it orders, and a divergent one is unfixable.
#[test]
fn synthesis_relies_on_grid_barriers_and_never_moves_one() {
    let k = kernel(
        "//--blockDim=32 --gridDim=2
kernel exchange() {
  shared s[32];
  global out[64];
  local v;
  @w wr s[tid.x] := tid.x;
  @g gridsync;
  @r v := rd s[urem(tid.x + 1, 32)];
  @o wr out[bid.x * 32 + tid.x] := v;
}",
    );
    let mut o = Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: 10_000,
        ..OracleOptions::default()
    });
    let (result, _) = synth::synthesize(&k, &mut o, &SynthOptions::default()).expect("synthesis");
    match result {
        Synthesis::Done { kernel, inserted, .. } => {
            assert!(inserted.is_empty(), "{inserted:?}");
            assert_eq!(kernel.gridsyncs(), k.gridsyncs());
        }
        other => panic!("{other:?}"),
    }
    let divergent = kernel(
        "//--blockDim=32 --gridDim=2
kernel divergent() {
  global out[64];
  @w wr out[bid.x * 32 + tid.x] := 1;
  if (bid.x == 1) {
    @g gridsync;
  }
}",
    );
    let mut o = Z3Oracle::new(OracleOptions {
        geometry: divergent.geometry.clone(),
        timeout_ms: 10_000,
        ..OracleOptions::default()
    });
    let (result, _) = synth::synthesize(&divergent, &mut o, &SynthOptions::default()).expect("synthesis");
    match result {
        Synthesis::Impossible { reasons } => assert!(
            reasons.iter().any(|u| matches!(u, Unfixable::DivergentBarrier { divergence } if divergence.barrier == label(&divergent, "g"))),
            "{reasons:?}"
        ),
        other => panic!("{other:?}"),
    }
}

/// CUDA: a grid barrier in a device function that only block 0 calls diverges; the same barrier
/// called by every block orders the two phases.
#[test]
fn cuda_grid_sync_in_a_device_function() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void phase(cg::grid_group &g) { g.sync(); }
__global__ void both(int *part, int *total) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) part[blockIdx.x] = blockIdx.x;
    phase(grid);
    if (blockIdx.x == 0 && threadIdx.x == 0) total[0] = part[1];
}
__global__ void only_first(int *part, int *total) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) part[blockIdx.x] = blockIdx.x;
    if (blockIdx.x == 0) phase(grid);
    if (blockIdx.x == 0 && threadIdx.x == 0) total[0] = part[1];
}
"#;
    let kernels = kernels_of_text(src, None).unwrap_or_else(|d| panic!("{}", d.render("t.cu", src)));
    assert_eq!(kernels.len(), 2);
    for mut k in kernels {
        k.geometry.block_dim = Some([32, 1, 1]);
        k.geometry.grid_dim = Some([4, 1, 1]);
        let v = check(&k);
        match k.name.as_str() {
            "both" => assert!(v.races.is_empty() && v.divergences.is_empty(), "{v:#?}"),
            _ => assert_eq!(v.divergences.len(), 1, "{v:#?}"),
        }
    }
}
