//! Option validation of the command line (issue #16's CLI part): values the semantics has no
//! meaning for are usage errors (exit 2) that say what is expected, never silently accepted.

use std::process::{Command, Output};

fn autosync(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autosync")).args(args).output().expect("runs autosync")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const MICRO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/micro");

#[test]
fn warp_sync_must_be_a_power_of_two_of_at_least_two() {
    let kernel = format!("{MICRO}/1-1-main.kpl");
    for bad in ["0", "1", "3", "48", "-2", "x"] {
        let flag = format!("--warp-sync={bad}");
        let out = autosync(&["check", &flag, &kernel]);
        assert_eq!(out.status.code(), Some(2), "--warp-sync {bad} was accepted");
        assert!(text(&out.stderr).contains("--warp-sync"), "{}", text(&out.stderr));
    }
    for good in ["2", "4", "32"] {
        let out = autosync(&["check", "--warp-sync", good, &kernel]);
        assert_ne!(out.status.code(), Some(2), "--warp-sync {good}: {}", text(&out.stderr));
    }
}

#[test]
fn run_rejects_parameters_the_kernel_does_not_have() {
    let kernel = format!("{MICRO}/1-1-loop-inter.kpl");
    let out = autosync(&["run", &kernel, "--param", "m=3"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no kernel") && stderr.contains("`m`") && stderr.contains("its parameters: n"),
        "{stderr}"
    );
    let ok = autosync(&["run", &kernel, "--param", "n=3"]);
    assert_ne!(ok.status.code(), Some(2), "{}", text(&ok.stderr));
}

#[test]
fn a_cuda_file_without_a_cuda_extension_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let cuda = "__global__ void k(int *a) {\n    a[threadIdx.x] = 0;\n}\n";
    let txt = dir.path().join("kernel.txt");
    std::fs::write(&txt, cuda).unwrap();
    let out = autosync(&["check", txt.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("does not end in .cu, .cuh or .kpl"), "{stderr}");
    // A .kpl file is KPL on purpose: its errors carry no such hint.
    let kpl = dir.path().join("kernel.kpl");
    std::fs::write(&kpl, cuda).unwrap();
    let out = autosync(&["check", kpl.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("does not end in"), "{}", text(&out.stderr));
    // With the right extension the same text verifies.
    let cu = dir.path().join("kernel.cu");
    std::fs::write(&cu, cuda).unwrap();
    assert_ne!(autosync(&["check", cu.to_str().unwrap()]).status.code(), Some(2));
}
