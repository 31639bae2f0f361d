//! The pre-filter (`verify::prefilter`) changes no verdict: every kernel of the verifier corpus
//! and of the micro and plain benchmarks (with its barriers and without) gets the same races —
//! pairs, arrays, scopes, cases, benign and undecided flags — and divergences with the pre-filter
//! as without it, and the pre-filter does answer some pairs.

use autosync::config::Config;
use autosync::kpl::Kernel;
use autosync::verify::{Oracle, OracleOptions, Verdict, Z3Oracle};
use std::path::Path;

/// A verdict without its witnesses (models may differ between solver histories).
fn shape(v: &Verdict) -> String {
    let races = |rs: &[autosync::verify::Race]| -> Vec<String> {
        rs.iter()
            .map(|r| {
                let cases: Vec<String> = r
                    .cases
                    .iter()
                    .map(|c| format!("{:?}/{}/{}", c.case, c.benign, c.undecided.is_some()))
                    .collect();
                format!(
                    "{:?}-{:?} {} {:?} {:?} [{}]",
                    r.first,
                    r.second,
                    r.array,
                    r.kinds,
                    r.scope,
                    cases.join(" ")
                )
            })
            .collect()
    };
    let divs: Vec<String> = v.divergences.iter().map(|d| format!("{:?}@{:?}", d.barrier, d.block)).collect();
    format!(
        "races {:?}\nbenign {:?}\ndivergences {:?}\nundecided {}",
        races(&v.races),
        races(&v.benign),
        divs,
        v.undecided
    )
}

fn oracle(k: &Kernel) -> Z3Oracle {
    Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: 10_000,
        strict: false,
        all_dims: false,
        wrap: false,
        budget: None,
        ..OracleOptions::default()
    })
}

fn kernels() -> Vec<(String, Kernel)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = Config::default_config();
    let mut out = Vec::new();
    for dir in ["tests/verify/corpus", "benchmarks/micro", "benchmarks/plain"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("kpl" | "cu")))
            .collect();
        files.sort();
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            // Files the loader rejects are the error corpus's business, not this test's.
            let Ok(ks) = autosync::bench::load_kernels(&f, &src, &config) else { continue };
            for k in ks {
                out.push((format!("{}::{}", f.display(), k.name), k));
            }
        }
    }
    out
}

#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn the_prefilter_changes_no_verdict() {
    let mut filtered = 0;
    let mut checked = 0;
    for (name, k) in kernels() {
        let mut stripped = k.clone();
        stripped.remove_barriers(&k.barriers());
        for kernel in [&k, &stripped] {
            let mut with = oracle(kernel);
            let mut without = oracle(kernel).without_prefilter();
            let (a, b) = (with.check(kernel), without.check(kernel));
            assert_eq!(shape(&a), shape(&b), "{name}");
            assert_eq!(without.stats().prefiltered, 0, "{name}");
            filtered += with.stats().prefiltered;
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} kernels found");
    assert!(filtered > 0, "the pre-filter answered no pair in {checked} kernels");
}

/// The race cases of a verdict as `(first, second, array, scope, case)`, split into decided and
/// undecided ones.
fn cases(v: &Verdict) -> (Vec<String>, Vec<String>) {
    let (mut decided, mut undecided) = (Vec::new(), Vec::new());
    for r in &v.races {
        for c in &r.cases {
            let key = format!("{:?}-{:?} {} {:?} {:?}", r.first, r.second, r.array, r.scope, c.case);
            if c.undecided.is_some() {
                undecided.push(key)
            } else {
                decided.push(key)
            }
        }
    }
    (decided, undecided)
}

/// Rows of a shared array filled by block-stride loops (`j += blockDim.x`, symbolic block size):
/// the guard `j < 256` and the closed form's assumption bound `j` to a row, so the pre-filter
/// keeps different rows apart without a solver call, where the solver needs long (or gives up:
/// an undecided case, reported as a possible race). Every race found with the pre-filter is found
/// without it, and every one decided without it is reported with it.
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn block_stride_rows_are_apart_without_a_query() {
    let src = "__global__ void rows(const int *in, int *out)\n{\n    __shared__ int s[3][256];\n\
               for (int j = threadIdx.x; j < 256; j += blockDim.x) s[0][j] = in[j];\n    __syncthreads();\n\
               for (int j = threadIdx.x; j < 256; j += blockDim.x) s[1][j] = s[0][(j + 1) % 256];\n    __syncthreads();\n\
               for (int j = threadIdx.x; j < 256; j += blockDim.x) s[2][j] = s[1][(j + 2) % 256];\n    __syncthreads();\n\
               for (int j = threadIdx.x; j < 256; j += blockDim.x) out[j] = s[2][j];\n}\n";
    let ks =
        autosync::bench::load_kernels(Path::new("rows.cu"), src, &Config::default_config()).expect("lowers");
    let k = &ks[0];
    let mut stripped = k.clone();
    stripped.remove_barriers(&k.barriers());
    let quick = |k: &Kernel| {
        Z3Oracle::new(OracleOptions {
            geometry: k.geometry.clone(),
            timeout_ms: 2_000,
            strict: false,
            all_dims: false,
            wrap: false,
            budget: None,
            ..OracleOptions::default()
        })
    };
    let mut filtered = 0;
    for kernel in [k, &stripped] {
        let mut with = quick(kernel);
        let mut without = quick(kernel).without_prefilter();
        let ((w_dec, w_und), (o_dec, o_und)) = (cases(&with.check(kernel)), cases(&without.check(kernel)));
        // A race decided with the pre-filter is reported without it. (A case the solver's time
        // ran out on, with the pre-filter, on a loaded machine may be one it decides race-free
        // in the other run: the limit is wall time.)
        for c in &w_dec {
            assert!(o_dec.contains(c) || o_und.contains(c), "{c} found only with the pre-filter");
        }
        // A race decided without the pre-filter is reported with it (decided, or undecided when
        // the solver's time ran out on a loaded machine: reported as possible all the same).
        for c in &o_dec {
            assert!(
                w_dec.contains(c) || w_und.contains(c),
                "{c} found without the pre-filter, missed with it"
            );
        }
        filtered += with.stats().prefiltered;
    }
    // The writes of rows 0, 1, 2 against each other and against the reads of other rows.
    assert!(filtered >= 3, "only {filtered} pairs prefiltered");
    let verdict = quick(k).check(k);
    let grid_only = verdict.races.iter().all(|r| r.array == "out");
    assert!(grid_only && verdict.divergences.is_empty(), "the barriers order every row: {verdict:?}");
}

/// The congruence test (`verify::congruence`): under a symbolic launch, `out[2*i]` and
/// `out[2*i + 1]` of the global id `i` never meet (they differ in the low bit), which the
/// pre-filter settles without the solver's nonlinear parity reasoning; `out[2*t + 2]` does meet
/// `out[2*u]` (thread `u = t + 1`) and is still reported. (That verdicts are the same without
/// the pre-filter is `the_prefilter_changes_no_verdict`'s part, over every corpus.)
#[test]
fn indices_of_different_parity_are_apart_without_a_query() {
    let kernel = |id: &str, second: &str| {
        format!(
            "__global__ void interleave(const int *a, int *out, int n) {{\n\
             \x20   int i = {id};\n\
             \x20   if (i < n) {{\n        out[2 * i] = a[i];\n        out[{second}] = -a[i];\n    }}\n}}\n"
        )
    };
    let global = "blockIdx.x * blockDim.x + threadIdx.x";
    let mut filtered = 0;
    for (id, second, racy) in [(global, "2 * i + 1", false), ("threadIdx.x", "2 * i + 2", true)] {
        let src = kernel(id, second);
        let ks = autosync::bench::load_kernels(Path::new("interleave.cu"), &src, &Config::default_config())
            .expect("lowers");
        let k = &ks[0];
        assert!(k.geometry.block_dim.is_none(), "the launch is symbolic");
        let mut with = oracle(k);
        let v = with.check(k);
        assert_eq!(!v.races.is_empty(), racy, "{second}: {}", shape(&v));
        filtered += with.stats().prefiltered;
    }
    assert!(filtered > 0, "the pre-filter answered no pair");
}
