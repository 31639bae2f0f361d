//! The CUDA front end's refusals, per kernel: a refused kernel lists every construct it does not
//! model and does not stop the file's other kernels; a file without kernels in a directory run
//! is a note; and the run-time meaning of a device call in a loop condition. (The verdicts of the
//! supported constructs are in `tests/cuda/apps/frontend/`, run by
//! `cuda_realworld::apps_corpus_verdicts`.)

use crate::common::autosync_in;
use serde_json::Value;
use std::path::Path;

fn apps_frontend() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps/frontend")
}

#[test]
fn a_refused_kernel_lists_its_constructs_and_the_other_kernel_is_checked() {
    let (code, out, err) =
        autosync_in(&apps_frontend(), &["check", "--format", "json", "refused_kernel_beside_clean.cu"]);
    assert_eq!(code, 2, "a refused kernel makes the file's exit code 2: {err}");
    let doc: Value = serde_json::from_str(&out).expect("one JSON document");
    let file = &doc["files"][0];
    let kernels = file["kernels"].as_array().expect("kernels");
    assert_eq!(kernels.len(), 1, "only `scale` is checked: {kernels:?}");
    assert_eq!(kernels[0]["name"], "scale");
    assert_eq!(kernels[0]["clean"], true);
    let refused = file["refused"].as_array().expect("refused");
    assert_eq!(refused.len(), 1, "{refused:?}");
    let first = &refused[0];
    assert!(first["message"].as_str().is_some_and(|m| m.contains("`Buffers`")), "{first}");
    let related: Vec<&str> =
        first["related"].as_array().expect("related").iter().filter_map(|r| r["message"].as_str()).collect();
    assert!(related.iter().any(|m| m.contains("inline `asm`")), "the asm is listed too: {related:?}");
    // `b.n` and `b.out[i]` follow from the refused parameter: not listed again.
    assert!(!related.iter().any(|m| m.contains("b.n")), "cascades are left out: {related:?}");
    assert_eq!(file["error"]["message"], first["message"], "the file's error is the first refusal");
    assert!(
        first["notes"].as_array().is_some_and(|n| n
            .iter()
            .any(|x| x.as_str().is_some_and(|s| s.contains("`laneCopy` is not analysed")))),
        "{first}"
    );
    // The human format shows the refusal with every construct, and the other kernel's verdict.
    let (code, out, err) = autosync_in(&apps_frontend(), &["check", "refused_kernel_beside_clean.cu"]);
    assert_eq!(code, 2);
    assert!(err.contains("also unsupported: inline `asm`"), "{err}");
    assert!(out.contains("kernel `scale`: 0 race(s)"), "{out}");
}

#[test]
fn fix_writes_nothing_to_a_file_with_a_refused_kernel() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = std::fs::read_to_string(apps_frontend().join("refused_kernel_beside_clean.cu")).expect("read");
    let path = dir.path().join("k.cu");
    std::fs::write(&path, &src).expect("write");
    let (code, _, err) = autosync_in(dir.path(), &["fix", "k.cu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("also unsupported: inline `asm`"), "all constructs are listed: {err}");
    assert_eq!(std::fs::read_to_string(&path).expect("read back"), src, "the file is unchanged");
}

#[test]
fn a_file_without_kernels_is_a_note_in_a_directory_run_and_an_error_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("host_only.cu"),
        "#include <cstdio>\nint main() { printf(\"hi\\n\"); return 0; }\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("k.cu"),
        "__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n",
    )
    .expect("write");
    let (code, out, err) = autosync_in(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(code, 0, "{out}\n{err}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let files = doc["files"].as_array().expect("files");
    let host =
        files.iter().find(|f| f["file"].as_str().is_some_and(|n| n.ends_with("host_only.cu"))).expect("host");
    assert_eq!(host["status"], "ok");
    assert!(host["note"].as_str().is_some_and(|n| n.contains("no `__global__` kernel")), "{host}");
    assert_eq!(doc["summary"]["unsupported"], 0);
    let (code, _, err) = autosync_in(dir.path(), &["check", "host_only.cu"]);
    assert_eq!(code, 2, "named alone, a file without kernels is an error: {err}");
}

/// A device function in a loop condition runs as C++ runs it: before the first iteration and
/// after every iteration that ends normally or by `continue`, never after `break`, each time with
/// its own locals; its pointer parameter is the caller's local (`&calls`). Probed with the
/// reference interpreter: two threads write `out[0]` (a race it observes) exactly when the
/// counts are C++'s, and `out[1]` when they are not.
#[test]
fn a_device_call_in_a_loop_condition_is_evaluated_as_cpp_evaluates_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = r#"
__device__ bool tick(int *count, int limit) { (*count)++; return *count <= limit; }
__global__ void probe(int *out) {
    int calls = 0;
    int i = 0;
    while (tick(&calls, 5)) {
        i++;
        if (i == 2) continue;
        if (i == 4) break;
    }
    int sum = 0, evals = 0;
    for (int m = 0; tick(&evals, 3); m++) { sum += m; }
    int rounds = 0;
    do { rounds++; } while (tick(&rounds, 2));
    bool expected = calls == 4 && i == 4 && evals == 4 && sum == 3 && rounds == 4;
    if (expected) { out[0] = 1; }
    if (!expected) { out[1] = 1; }
}
"#;
    std::fs::write(dir.path().join("probe.cu"), src).expect("write");
    let (code, out, err) =
        autosync_in(dir.path(), &["run", "--block-dim", "2", "--grid-dim", "1", "probe.cu"]);
    let all = format!("{out}{err}");
    assert_eq!(code, 1, "the probe's race is observed: {all}");
    assert!(all.contains("`out` element 0"), "C++'s counts: {all}");
    assert!(!all.contains("`out` element 1"), "no other counts: {all}");
}
