//! `autosync fix` on CUDA: barriers stripped from the micro-benchmarks come back at the minimal
//! count, the write is in place, a second run changes nothing, `--check` and `--diff` behave.

use std::path::Path;
use std::process::Command;

fn autosync(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync")).args(args).output().expect("run autosync");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn strip_barriers(src: &str) -> String {
    src.lines().filter(|l| l.trim() != "__syncthreads();").map(|l| format!("{l}\n")).collect()
}

#[test]
fn fix_restores_minimal_barriers_in_cuda_micro_benchmarks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/micro");
    let tmp = tempfile::tempdir().expect("tempdir");
    for name in ["fig2", "fig4", "fig6", "fig7", "1-1-main", "1-1-if", "2-2-loop-both"] {
        let original = std::fs::read_to_string(dir.join(format!("{name}.cu"))).expect("read");
        let hand = original.matches("__syncthreads()").count();
        let stripped = strip_barriers(&original);
        assert_eq!(stripped.matches("__syncthreads()").count(), 0, "{name}: barriers on shared lines");
        let file = tmp.path().join(format!("{name}.cu"));
        std::fs::write(&file, &stripped).expect("write");
        let f = file.to_str().expect("utf8 path");
        // The paper's setting: block barriers only (with warp barriers, a race between threads
        // of one warp takes a cheaper `__syncwarp()`; tests/cuda/fix/micro has those results).
        let (code, _, _) = autosync(&["fix", "--no-warp", "--check", f]);
        assert_eq!(code, 1, "{name}: --check must report the missing barriers");
        let (code, diff, _) = autosync(&["fix", "--no-warp", "--diff", f]);
        assert_eq!(code, 0);
        assert!(diff.contains("+") && diff.contains("__syncthreads();"), "{name}: diff shows the barrier");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), stripped, "{name}: --diff must not write");
        let (code, _, err) = autosync(&["fix", "--no-warp", f]);
        assert_eq!(code, 0, "{name}: {err}");
        let fixed = std::fs::read_to_string(&file).expect("read");
        assert_eq!(fixed.matches("__syncthreads()").count(), hand, "{name}: minimal barrier count\n{fixed}");
        let (code, out, _) = autosync(&["check", f]);
        assert_eq!(code, 0, "{name}: the fixed file verifies: {out}");
        let (code, _, _) = autosync(&["fix", "--no-warp", "--check", f]);
        assert_eq!(code, 0, "{name}: fix is idempotent");
    }
}

#[test]
fn check_reports_races_with_location_and_exit_1() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("race.cu");
    std::fs::write(
        &file,
        "//--blockDim=64\n__global__ void k(int *out) {\n  __shared__ int s[65];\n  s[threadIdx.x] = threadIdx.x;\n  out[threadIdx.x] = s[threadIdx.x + 1];\n}\n",
    )
    .expect("write");
    let (code, _, err) = autosync(&["check", file.to_str().expect("utf8")]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("data race on shared array `s`"), "{err}");
    assert!(err.contains("race.cu:4:"), "points at the write on line 4: {err}");
}

#[test]
fn bad_input_is_exit_2_and_leaves_the_file_alone() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("bad.cu");
    let text = "__global__ void k(int *a) {\n  goto end;\n}\n";
    std::fs::write(&file, text).expect("write");
    let (code, _, err) = autosync(&["fix", file.to_str().expect("utf8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.cu:2:"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text);
}

#[test]
fn divergent_syncwarp_is_reported_and_not_fixed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("warp.cu");
    let text = "//--blockDim=64 --gridDim=1\n__global__ void k(int *out) {\n  __shared__ int s[64];\n  s[threadIdx.x] = 1;\n  if (threadIdx.x < 16) {\n    __syncwarp();\n  }\n  out[threadIdx.x] = s[threadIdx.x];\n}\n";
    std::fs::write(&file, text).expect("write");
    let path = file.to_str().expect("utf8");
    let (code, _, err) = autosync(&["check", path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("warp barrier divergence") && err.contains("warp.cu:6:"), "{err}");
    let (code, _, err) = autosync(&["fix", path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("never moves or removes one"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text);
    // Under `threadIdx.x >= 32` whole warps reach it: no divergence, nothing to fix.
    std::fs::write(&file, text.replace("< 16", ">= 32")).expect("write");
    let (code, _, err) = autosync(&["check", path]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn reoptimize_keeps_barriers_inside_expressions() {
    // `__syncthreads_or(p)` is a barrier that cannot be deleted from the text: --reoptimize
    // must keep it (and may only add `__syncthreads();` lines), never edit the loop condition.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix/syncthreads_or_relax.cu");
    let original = std::fs::read_to_string(&src).expect("read");
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("relax.cu");
    std::fs::write(&file, &original).expect("write");
    let f = file.to_str().expect("utf8 path");
    let (code, _, err) = autosync(&["fix", "--reoptimize", f]);
    assert_eq!(code, 0, "{err}");
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert!(fixed.contains("while (__syncthreads_or(changed)) {"), "{fixed}");
    let removed: Vec<&str> = original.lines().filter(|l| !fixed.lines().any(|x| x == *l)).collect();
    assert!(removed.is_empty(), "lines lost: {removed:?}");
    let (code, _, err) = autosync(&["check", f]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_barrier_in_shared_source_is_counted_once() {
    // Two kernels call one device function: synthesis gives each kernel the barrier, and the file
    // gets one statement, which the summary counts once.
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("shared.cu");
    std::fs::write(
        &file,
        "__device__ void publish(int *s, int *out) {\n    s[threadIdx.x] = threadIdx.x;\n    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 64];\n}\n\
         __global__ void first(int *out) { __shared__ int s[64]; publish(s, out); }\n\
         __global__ void second(int *out) { __shared__ int s[64]; publish(s, out); }\n\
         int main() {\n    int *d;\n    cudaMalloc(&d, 1024);\n    first<<<1, 64>>>(d);\n    second<<<1, 64>>>(d);\n    return 0;\n}\n",
    )
    .expect("write");
    let f = file.to_str().expect("utf8");
    let (code, out, err) = autosync(&["fix", "--no-warp", "--diff", "--format", "json", f]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("a JSON document");
    let file_doc = &doc["files"][0];
    let per_kernel: Vec<usize> = file_doc["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| k["inserted"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(per_kernel, [1, 1], "{out}");
    assert_eq!(file_doc["barriers_inserted"], 1, "{out}");
    let (code, out, _) = autosync(&["fix", "--no-warp", "--diff", "--format", "sarif", f]);
    assert_eq!(code, 0);
    assert!(out.contains("1 barrier(s) make this file correctly synchronized"), "{out}");
    let (code, _, err) = autosync(&["fix", "--no-warp", f]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("inserted 1 barrier(s)"), "{err}");
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert_eq!(fixed.matches("__syncthreads()").count(), 1, "{fixed}");
}
