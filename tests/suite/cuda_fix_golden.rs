//! Golden tests of `autosync fix` on CUDA, run through the built binary:
//!
//! - `tests/cuda/fix/NAME.cu` is fixed to `NAME.fixed.cu` by `fix -o`, which prints the diff
//!   `NAME.diff`; the fixed file verifies (`check` exits 0) and `fix --diff` on it changes nothing;
//! - every `benchmarks/micro/*.cu` with its `__syncthreads();` lines stripped is fixed to
//!   `tests/cuda/fix/micro/NAME.fixed.cu` with the diff `NAME.diff`, and the result verifies;
//! - `tests/cuda/fix/whole/NAME.cu`, whole realistic files (reductions with a warp tail, scans,
//!   matrix multiply, stencil, histogram, cooperative groups, a softmax, a warp-per-row sparse
//!   matrix-vector product, a bounds-checked tile whose barrier goes after the check), are fixed
//!   by plain `fix` (no
//!   flags but a generous budget) to `NAME.fixed.cu` and `NAME.diff`; `NAME.remaining` is the
//!   summary of what stays (empty when nothing does, and then the result verifies), and the
//!   sentences about repaired barriers (`moved the barrier at line …`) are part of it.
//!
//! `BLESS=1` rewrites the expected files (check the change by reading the diffs first).

use std::path::{Path, PathBuf};

use crate::common::autosync_in as autosync;

fn cu_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    out.retain(|p| p.extension().is_some_and(|e| e == "cu") && !p.to_string_lossy().ends_with(".fixed.cu"));
    out.sort();
    out
}

/// Fixes `input` (a file name inside `dir`) and compares with the expected files in `expected`.
/// Returns a failure message, if any.
fn golden(dir: &Path, input: &str, expected: &Path, bless: bool) -> Option<String> {
    let stem = input.trim_end_matches(".cu");
    // The output goes to a temporary directory, never into the source tree (removed on failure
    // too); the tests' inputs include no headers, so it checks there as it would beside them.
    // `fix -o` prints the diff it writes (the same as `fix --diff` prints without writing).
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join(format!("{stem}.out.cu"));
    let out_s = out.to_string_lossy().to_string();
    let (code, diff, err) = autosync(dir, &["fix", "-o", &out_s, input]);
    if code != 0 {
        return Some(format!("{input}: fix -o exited {code}: {err}"));
    }
    let fixed = std::fs::read_to_string(&out).expect("read the fixed file");
    let (code, report, err) = autosync(dir, &["check", &out_s]);
    if code != 0 {
        return Some(format!("{input}: the fixed file does not verify ({code}): {report}{err}\n{fixed}"));
    }
    let (code, again, err) = autosync(dir, &["fix", "--diff", &out_s]);
    if code != 0 || !again.trim().is_empty() {
        return Some(format!("{input}: fix on its own output changes something ({code}): {again}{err}"));
    }
    let diff_path = expected.join(format!("{stem}.diff"));
    let fixed_path = expected.join(format!("{stem}.fixed.cu"));
    if bless {
        std::fs::write(&diff_path, &diff).expect("write the expected diff");
        std::fs::write(&fixed_path, &fixed).expect("write the expected fixed file");
        return None;
    }
    let want_diff = std::fs::read_to_string(&diff_path).unwrap_or_default();
    let want_fixed = std::fs::read_to_string(&fixed_path).unwrap_or_default();
    if want_diff != diff || want_fixed != fixed {
        return Some(format!("{input}:\n--- expected diff\n{want_diff}\n--- got\n{diff}"));
    }
    None
}

#[test]
fn fix_goldens_per_lowering_feature() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix");
    let bless = std::env::var_os("BLESS").is_some();
    let cases = cu_files(&dir);
    assert!(cases.len() >= 10, "expected a golden per lowering feature in {}", dir.display());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|cu| {
            let name = cu.file_name().and_then(|n| n.to_str()).expect("utf8 name").to_string();
            golden(&dir, &name, &dir, bless)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `tests/cuda/fix/split/`: statements that race inside themselves (issue #40) — compound
/// assignments, a call on the right side, thread-dependent guards (hoisted), template warp tails,
/// braceless loop bodies. Plain `fix` splits each and the result verifies; under `--no-split`
/// the same race is listed as remaining "within one statement".
#[test]
fn fix_splits_statements_that_race_inside_themselves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix/split");
    let bless = std::env::var_os("BLESS").is_some();
    let cases = cu_files(&dir);
    assert!(cases.len() >= 5, "expected the split cases in {}", dir.display());
    let mut failures = Vec::new();
    for cu in &cases {
        let name = cu.file_name().and_then(|n| n.to_str()).expect("utf8 name").to_string();
        if let Some(f) = golden(&dir, &name, &dir, bless) {
            failures.push(f);
        }
        let (code, _, err) = autosync(&dir, &["fix", "--diff", "--no-split", &name]);
        if code != 1 || !err.contains("within one statement") {
            failures.push(format!(
                "{name}: fix --no-split exited {code} without a race within one statement: {err}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fix_goldens_for_stripped_micro_benchmarks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected = root.join("tests/cuda/fix/micro");
    let bless = std::env::var_os("BLESS").is_some();
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    let benches = cu_files(&root.join("benchmarks/micro"));
    assert!(!benches.is_empty());
    for cu in benches {
        let name = cu.file_name().and_then(|n| n.to_str()).expect("utf8 name").to_string();
        let src = std::fs::read_to_string(&cu).expect("read benchmark");
        let stripped: String =
            src.lines().filter(|l| l.trim() != "__syncthreads();").map(|l| format!("{l}\n")).collect();
        assert!(!stripped.contains("__syncthreads()"), "{name}: a barrier shares a line");
        std::fs::write(tmp.path().join(&name), &stripped).expect("write stripped copy");
        if let Some(f) = golden(tmp.path(), &name, &expected, bless) {
            failures.push(f);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The lines of `fix`'s stderr that say what it changed beyond the diff or what stays: the
/// repaired barriers and the summary of the remaining findings.
fn summary_lines(err: &str) -> String {
    err.lines()
        .filter(|l| {
            l.contains(": moved the barrier")
                || l.contains(": removed the barrier")
                || l.contains("finding(s) remain")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn fix_goldens_for_whole_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix/whole");
    let bless = std::env::var_os("BLESS").is_some();
    let cases = cu_files(&dir);
    assert!(cases.len() >= 10, "expected the realistic whole files in {}", dir.display());
    // A generous budget: the goldens must not depend on the machine's load.
    let budget = ["--timeout", "300"];
    let mut failures = Vec::new();
    for cu in &cases {
        let name = cu.file_name().and_then(|n| n.to_str()).expect("utf8 name").to_string();
        let stem = name.trim_end_matches(".cu");
        // `fix -o` writes the result (also when findings remain) and prints its diff.
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join(format!("{stem}.out.cu"));
        let out_s = out.to_string_lossy().to_string();
        let (code, diff, err) = autosync(&dir, &["fix", budget[0], budget[1], "-o", &out_s, &name]);
        let summary = summary_lines(&err);
        let remains = summary.contains("finding(s) remain");
        if code != i32::from(remains) {
            failures.push(format!("{name}: fix -o exited {code} (remaining: {remains}): {err}"));
            continue;
        }
        let fixed = std::fs::read_to_string(&out).unwrap_or_default();
        if !remains {
            let (c, report, e) = autosync(&dir, &["check", budget[0], budget[1], &out_s]);
            if c != 0 {
                failures.push(format!("{name}: the fixed file does not verify ({c}): {report}{e}\n{fixed}"));
                continue;
            }
        }
        let paths = [
            (dir.join(format!("{stem}.diff")), diff.clone()),
            (dir.join(format!("{stem}.fixed.cu")), fixed.clone()),
            (dir.join(format!("{stem}.remaining")), summary.replace(&out_s, &name)),
        ];
        for (path, got) in paths {
            if bless {
                std::fs::write(&path, &got).expect("write an expected file");
            } else if std::fs::read_to_string(&path).unwrap_or_default() != got {
                let want = std::fs::read_to_string(&path).unwrap_or_default();
                failures.push(format!(
                    "{name}: {} differs:\n--- expected\n{want}\n--- got\n{got}",
                    path.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn keep_barriers_and_no_warp_keep_the_old_behaviour() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix/whole");
    // The divergent barrier stays under --keep-barriers: reported, the file is not repaired.
    let (code, diff, err) =
        autosync(&dir, &["fix", "--timeout", "300", "--keep-barriers", "--diff", "divergent_tree_reduce.cu"]);
    assert_eq!(code, 1, "{err}");
    assert!(!diff.contains("-            __syncthreads();"), "{diff}");
    assert!(err.contains("barrier divergence"), "{err}");
    assert!(err.contains("1 divergent barrier kept"), "{err}");
    // Without warp barriers the warp tail has no position every thread of the block reaches.
    let (code, diff, err) =
        autosync(&dir, &["fix", "--timeout", "300", "--no-warp", "--diff", "warp_tail_reduce.cu"]);
    assert_eq!(code, 1, "{err}");
    assert!(!diff.contains("__syncwarp"), "{diff}");
    assert!(err.contains("with no position every thread reaches"), "{err}");
    // `--check` agrees with the exit code of a partial fix, and the JSON says what remains.
    let (code, _, err) = autosync(&dir, &["fix", "--timeout", "300", "--check", "histogram_block_totals.cu"]);
    assert_eq!(code, 1, "{err}");
    let (code, json, _) = autosync(
        &dir,
        &["fix", "--timeout", "300", "--diff", "--format", "json", "histogram_block_totals.cu"],
    );
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    let kernel = &doc["files"][0]["kernels"][0];
    assert_eq!(kernel["result"], "partly_fixed", "{json}");
    assert_eq!(kernel["remaining"][0]["kind"], "between blocks", "{json}");
    assert_eq!(kernel["inserted"].as_array().map(Vec::len), Some(2), "{json}");
    assert_eq!(doc["files"][0]["exit_code"], 1);
}

#[test]
fn config_prints_the_effective_configuration() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, yaml, err) = autosync(tmp.path(), &["config"]);
    assert_eq!(code, 0, "{err}");
    assert!(yaml.contains("warp: true") && yaml.contains("loop_factor: 100"), "{yaml}");
    // One key is a whole configuration; the rest keep their defaults.
    std::fs::write(tmp.path().join("one.yaml"), "verifier:\n  strict: true\n").expect("write");
    let (code, yaml, err) = autosync(tmp.path(), &["--config", "one.yaml", "config"]);
    assert_eq!(code, 0, "{err}");
    assert!(yaml.contains("strict: true") && yaml.contains("smt_timeout_ms: 10000"), "{yaml}");
    // What it prints reads back as the same configuration.
    std::fs::write(tmp.path().join("printed.yaml"), &yaml).expect("write");
    let (code, again, err) = autosync(tmp.path(), &["--config", "printed.yaml", "config"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again.lines().skip(1).collect::<Vec<_>>(), yaml.lines().skip(1).collect::<Vec<_>>());
}

#[test]
fn thread_dependent_early_return_makes_later_barriers_divergent() {
    // The predicated form puts everything after `if (i >= n) return;` under `if (!ret)`, so the
    // oracle sees the barrier under a thread-dependent guard whose span is the return.
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = "//--blockDim=64 --gridDim=1\n__global__ void k(int *A, int n) {\n    __shared__ int s[64];\n    int i = threadIdx.x;\n    if (i >= n) return;\n    s[i] = A[i];\n    __syncthreads();\n    A[i] = s[63 - i];\n}\n";
    std::fs::write(tmp.path().join("er.cu"), src).expect("write");
    let (code, _, err) = autosync(tmp.path(), &["check", "er.cu"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("barrier divergence"), "{err}");
    assert!(err.contains("5 |     if (i >= n) return;"), "the guard is the early return: {err}");
    // A uniform early return (per block) leaves the barrier non-divergent.
    let uniform = src.replace("if (i >= n) return;", "if (blockIdx.x >= n) return;");
    std::fs::write(tmp.path().join("ok.cu"), uniform).expect("write");
    let (code, out, err) = autosync(tmp.path(), &["check", "ok.cu"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn template_args_from_the_command_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = "//--blockDim=64 --gridDim=1\ntemplate <int N, typename T>\n__global__ void k(T *A) {\n    __shared__ T s[N];\n    s[threadIdx.x] = A[threadIdx.x];\n    A[threadIdx.x] = s[N - 1 - threadIdx.x];\n}\n";
    std::fs::write(tmp.path().join("t.cu"), src).expect("write");
    let (code, _, err) = autosync(tmp.path(), &["check", "t.cu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--template-arg N=VALUE"), "{err}");
    let (code, out, err) = autosync(
        tmp.path(),
        &["fix", "--diff", "--template-arg", "N=64", "--template-arg", "T=float", "t.cu"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("+    __syncthreads();"), "{out}");
    let (code, _, err) = autosync(tmp.path(), &["check", "--template-arg", "N", "t.cu"]);
    assert_eq!(code, 2, "{err}");
    // A vector type: the race is on each of its fields.
    let (code, out, err) =
        autosync(tmp.path(), &["check", "--template-arg", "N=64", "--template-arg", "T=float2", "t.cu"]);
    assert_eq!(code, 1, "{err}");
    assert!(format!("{out}{err}").contains("kernel `k<64, float2>`: 2 race(s)"), "{out}{err}");
    // A name the file does not define is refused where the parameter is used.
    let (code, _, err) =
        autosync(tmp.path(), &["check", "--template-arg", "N=64", "--template-arg", "T=Nope", "t.cu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the instance `k<64, Nope>` of this template kernel does not compile"), "{err}");
}
