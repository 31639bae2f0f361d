//! Golden tests of `autosync fix` on CUDA, run through the built binary:
//!
//! - `tests/cuda/fix/NAME.cu` is fixed to `NAME.fixed.cu` (`fix -o`), `fix --diff` prints
//!   `NAME.diff`, the fixed file verifies (`check` exits 0) and `fix --check` on it changes nothing;
//! - every `benchmarks/micro/*.cu` with its `__syncthreads();` lines stripped is fixed to
//!   `tests/cuda/fix/micro/NAME.fixed.cu` with the diff `NAME.diff`, and the result verifies.
//!
//! `BLESS=1` rewrites the expected files (check the change by reading the diffs first).

use std::path::{Path, PathBuf};
use std::process::Command;

fn autosync(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run autosync");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

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
    let (code, diff, err) = autosync(dir, &["fix", "--diff", input]);
    if code != 0 {
        return Some(format!("{input}: fix --diff exited {code}: {err}"));
    }
    // The output goes to a temporary directory, never into the source tree (removed on failure
    // too); the tests' inputs include no headers, so it checks there as it would beside them.
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join(format!("{stem}.out.cu"));
    let out_s = out.to_string_lossy().to_string();
    let (code, _, err) = autosync(dir, &["fix", "-o", &out_s, input]);
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
}
