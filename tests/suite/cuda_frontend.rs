//! The CUDA front end's refusals, per kernel: a refused kernel lists every construct it does not
//! model and does not stop the file's other kernels; a file without kernels in a directory run
//! is a note. (The verdicts of the supported constructs are in `tests/cuda/apps/frontend/`, run
//! by `cuda_realworld::apps_corpus_verdicts`.)

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
