//! The promise of `fix` (issue #27): a file `fix` accepts (exit 0) is one `check` accepts with the
//! same flags. Checked over every CUDA file of the test corpora and benchmarks, through the
//! built binary, on a copy in a temporary directory (with the headers beside it, so relative
//! includes resolve as they do for the original).
//!
//! The flags are the ones each corpus runs the file with: the `args:` line of a `NAME.expect`
//! beside it (realworld and apps corpora); everything else carries its launch in its own header
//! or host code. Files `fix` refuses or leaves partly fixed (exit 1, 2) are counted, not checked:
//! the property is about what `fix` claims.

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpora `fix` is tried on: every directory of CUDA inputs with a verdict or golden.
const CORPORA: [&str; 5] =
    ["tests/cuda/realworld", "tests/cuda/apps", "tests/cuda/fix", "tests/verify/precision", "benchmarks"];

fn cu_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().filter_map(|e| e.ok()) {
        let p = entry.path();
        if p.is_dir() {
            // Kernels outside `make test`'s verdicts (known-open precision cases) and results.
            if !p.ends_with("open") && !p.ends_with("results") {
                cu_files(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "cu") && !p.to_string_lossy().ends_with(".fixed.cu") {
            out.push(p);
        }
    }
}

/// The extra arguments the file's corpus runs it with.
fn corpus_args(cu: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(cu.with_extension("expect")) else { return Vec::new() };
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("args:"))
        .flat_map(|a| a.split_whitespace().map(String::from).collect::<Vec<_>>())
        .collect()
}

fn autosync(dir: &Path, args: &[String]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run autosync");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// `fix` on a copy of `cu`; `Some(problem)` when it exits 0 and `check` then rejects the result.
/// The second value is whether `fix` accepted the file.
fn fix_then_check(cu: &Path) -> (Option<String>, bool) {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let dir = cu.parent().unwrap_or(Path::new("."));
    for entry in std::fs::read_dir(dir).into_iter().flatten().filter_map(|e| e.ok()) {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "h" || e == "cuh" || e == "hpp") {
            if let Some(name) = p.file_name() {
                std::fs::copy(&p, tmp.path().join(name)).expect("copy a header");
            }
        }
    }
    let name = cu.file_name().expect("a file name").to_string_lossy().to_string();
    std::fs::copy(cu, tmp.path().join(&name)).expect("copy the input");
    let args = corpus_args(cu);
    let with = |cmd: &str| -> Vec<String> {
        let mut v = vec![cmd.to_string()];
        v.extend(args.iter().cloned());
        v.push(name.clone());
        v
    };
    let (code, fix_out) = autosync(tmp.path(), &with("fix"));
    if code != 0 {
        return (None, false);
    }
    let (code, check_out) = autosync(tmp.path(), &with("check"));
    if code == 0 {
        return (None, true);
    }
    (
        Some(format!(
            "{}: fix exited 0 but check of its result exits {code}:\n{fix_out}\n{check_out}",
            cu.display()
        )),
        true,
    )
}

#[test]
fn every_file_fix_accepts_checks_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for c in CORPORA {
        cu_files(&root.join(c), &mut files);
    }
    files.sort();
    assert!(files.len() >= 300, "the corpora should hold at least 300 CUDA files, found {}", files.len());
    let results: Vec<(Option<String>, bool)> = files.par_iter().map(|f| fix_then_check(f)).collect();
    let accepted = results.iter().filter(|(_, a)| *a).count();
    let failures: Vec<&String> = results.iter().filter_map(|(p, _)| p.as_ref()).collect();
    println!("{} files, fix accepted {accepted}, {} of those rejected by check", files.len(), failures.len());
    // The property must have been exercised: most corpus files are fixable.
    assert!(accepted >= 150, "fix accepted only {accepted} of {} files", files.len());
    assert!(failures.is_empty(), "{}", failures.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n"));
}
