//! The promise of `fix` (issues #27, #26): a file `fix` accepts (exit 0) is one `check` accepts
//! with the same flags, and a file `fix` leaves partly fixed (exit 1: it writes the barriers that
//! fix what barriers can and lists the rest) is one on which `check` reports exactly the findings
//! `fix` listed as remaining (rule and message, as a multiset). Checked over every CUDA file of
//! the test corpora and benchmarks, through the built binary, on a copy in a temporary directory
//! (with the headers beside it, so relative includes resolve as they do for the original).
//!
//! The flags are the ones each corpus runs the file with: the `args:` line of a `NAME.expect`
//! beside it (realworld and apps corpora); everything else carries its launch in its own header
//! or host code. Files `fix` cannot load (exit 2) and files with a kernel whose budget ran out
//! (left as it is, its findings undecided) are counted, not checked.

use rayon::prelude::*;
use std::path::{Path, PathBuf};

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

/// Runs the binary: exit code, stdout (the JSON document), and both streams for messages.
fn autosync(dir: &Path, args: &[String]) -> (i32, String, String) {
    let (code, out, err) = crate::common::autosync_in(dir, args);
    let both = format!("{out}{err}");
    (code, out, both)
}

/// The (rule, message) pairs of a JSON document's findings: `fix`'s `remaining` or `check`'s
/// `findings` (benign races, warnings both keep, left out), sorted; `None` when a kernel ran out
/// of its budget or gave up (its findings are not a verdict).
fn finding_set(doc: &str, key: &str) -> Option<Vec<(String, String)>> {
    let v: serde_json::Value = serde_json::from_str(doc).ok()?;
    let mut out = Vec::new();
    for file in v["files"].as_array()? {
        for k in file["kernels"].as_array()? {
            if k["result"] == "gave_up" || k["budget_exhausted"] == true {
                return None;
            }
            for f in k[key].as_array().into_iter().flatten() {
                let rule = f["rule"].as_str().unwrap_or_default().to_string();
                if rule != "benign-race" {
                    out.push((rule, f["message"].as_str().unwrap_or_default().to_string()));
                }
            }
        }
    }
    out.sort();
    Some(out)
}

/// What `fix` did to one file, as the property sees it.
enum Outcome {
    /// `fix` could not load it (exit 2) or a budget ran out: nothing to compare.
    Skipped,
    /// `fix` exited 0 and `check` accepts the result.
    Clean,
    /// `fix` exited 1 and `check` reports exactly the remaining findings.
    Partial,
    /// The promise is broken.
    Broken(String),
}

/// `fix` on a copy of `cu`, then `check` on what it wrote.
fn fix_then_check(cu: &Path) -> Outcome {
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
        let mut v = vec![cmd.to_string(), "--format".to_string(), "json".to_string()];
        v.extend(args.iter().cloned());
        v.push(name.clone());
        v
    };
    let (code, fix_out, fix_all) = autosync(tmp.path(), &with("fix"));
    if code != 0 && code != 1 {
        return Outcome::Skipped;
    }
    let Some(remaining) = finding_set(&fix_out, "remaining") else { return Outcome::Skipped };
    let (check_code, check_out, check_all) = autosync(tmp.path(), &with("check"));
    let Some(found) = finding_set(&check_out, "findings") else { return Outcome::Skipped };
    let problem = |what: &str| Outcome::Broken(format!("{}: {what}:\n{fix_all}\n{check_all}", cu.display()));
    match code {
        0 if check_code == 0 => Outcome::Clean,
        0 => problem(&format!("fix exited 0 but check of its result exits {check_code}")),
        _ if remaining.is_empty() => problem("fix exited 1 without listing what remains"),
        _ if remaining == found => Outcome::Partial,
        _ => {
            problem(&format!("fix listed {remaining:?} as remaining, check of its result reports {found:?}"))
        }
    }
}

#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn every_file_fix_accepts_checks_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for c in CORPORA {
        cu_files(&root.join(c), &mut files);
    }
    files.sort();
    assert!(files.len() >= 300, "the corpora should hold at least 300 CUDA files, found {}", files.len());
    let results: Vec<Outcome> = files.par_iter().map(|f| fix_then_check(f)).collect();
    let clean = results.iter().filter(|o| matches!(o, Outcome::Clean)).count();
    let partial = results.iter().filter(|o| matches!(o, Outcome::Partial)).count();
    let failures: Vec<&String> =
        results.iter().filter_map(|o| if let Outcome::Broken(p) = o { Some(p) } else { None }).collect();
    println!(
        "{} files: fix made {clean} clean, {partial} partly fixed as listed, {} broke its promise",
        files.len(),
        failures.len()
    );
    // The property must have been exercised both ways: most corpus files are fixable, and the
    // racy counterparts of the corpora leave findings no barrier fixes.
    assert!(clean >= 150, "fix made only {clean} of {} files clean", files.len());
    assert!(partial >= 10, "only {partial} partly fixed files were compared");
    assert!(failures.is_empty(), "{}", failures.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n"));
}
