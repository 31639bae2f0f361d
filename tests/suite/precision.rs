//! The precision corpus (`tests/verify/precision/`): small CUDA kernels of our own in the styles
//! real code is written in, each with its expected verdict beside it (`NAME.expected`).
//!
//! - `c_*.cu` are correct (under the launch their header gives, or any launch): the expected
//!   verdict is `clean`, so every finding would be a false alarm;
//! - `r_*.cu` race or diverge: the expected verdict names the findings, so `clean` would be a
//!   miss.
//!
//! An expected file may hold the line `flags: --wrap`: the verdict with wrapping index arithmetic
//! checked (`--wrap`) is then compared with `NAME.wrap.expected` too.
//! Verdict lines: `clean`, `race ARRAY block|grid [wrap]`, `benign ARRAY SCOPE`, `divergence`,
//! `undecided`. `BLESS=1` rewrites the verdict lines (comments are kept).
//!
//! The last test runs `autosync fix` on `tests/cuda/fix_partial/*.cu` (kernels with block-level
//! and grid-level races) and compares the diff and the report with the files beside them.

use crate::common::kernels_of_path;
use autosync::cuda::FrontEndOptions;
use autosync::verify::{Oracle, OracleOptions, Scope, Verdict, Z3Oracle};
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == ext) && !p.to_string_lossy().ends_with(".fixed.cu"));
    out.sort();
    out
}

fn render(v: &Verdict) -> String {
    let scope = |s: Scope| if s == Scope::Block { "block" } else { "grid" };
    let mut lines: Vec<String> = Vec::new();
    for r in &v.races {
        let wrap = if r.only_with_wrap() { " wrap" } else { "" };
        lines.push(format!("race {} {}{wrap}", r.array, scope(r.scope)));
    }
    for r in &v.benign {
        lines.push(format!("benign {} {}", r.array, scope(r.scope)));
    }
    for _ in &v.divergences {
        lines.push("divergence".to_string());
    }
    if v.undecided > 0 {
        lines.push("undecided".to_string());
    }
    lines.sort();
    lines.dedup();
    if lines.is_empty() {
        lines.push("clean".to_string());
    }
    lines.join("\n") + "\n"
}

fn verdict_lines(text: &str) -> String {
    let mut lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("flags:"))
        .collect();
    lines.sort();
    lines.join("\n") + "\n"
}

fn verdict_of(path: &Path, wrap: bool) -> String {
    let src = std::fs::read_to_string(path).expect("read kernel");
    let kernels = match kernels_of_path(path, FrontEndOptions::default()) {
        Ok(k) => k,
        Err(d) => return format!("front end error: {}\n", d.render(&path.display().to_string(), &src)),
    };
    let mut out = String::new();
    for k in &kernels {
        let mut o = Z3Oracle::new(OracleOptions {
            geometry: k.geometry.clone(),
            // Verdicts are under test, not speed: a query past 10 s on a loaded machine would
            // turn a decided pair into "undecided".
            timeout_ms: 60_000,
            wrap,
            ..OracleOptions::default()
        });
        out.push_str(&render(&o.check(k)));
    }
    verdict_lines(&out)
}

fn compare(expected: &Path, got: &str, bless: bool, failures: &mut Vec<String>) {
    let text = std::fs::read_to_string(expected).unwrap_or_default();
    if bless {
        let keep: String = text
            .lines()
            .filter(|l| l.starts_with('#') || l.starts_with("flags:"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(expected, format!("{keep}{got}")).expect("bless");
    } else if verdict_lines(&text) != got {
        failures.push(format!(
            "{}:\n--- expected\n{}--- got\n{got}",
            expected.display(),
            verdict_lines(&text)
        ));
    }
}

#[test]
fn precision_corpus_has_no_false_alarms_and_no_misses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verify/precision");
    let bless = std::env::var_os("BLESS").is_some();
    let kernels = files(&dir, "cu");
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let correct = kernels.iter().filter(|p| name(p).starts_with("c_")).count();
    let racy = kernels.iter().filter(|p| name(p).starts_with("r_")).count();
    assert!(correct >= 40 && racy >= 40, "{correct} correct and {racy} racy kernels in {}", dir.display());
    let mut failures = Vec::new();
    for path in &kernels {
        let expected = path.with_extension("expected");
        let text = std::fs::read_to_string(&expected).unwrap_or_default();
        let wrap = text.lines().any(|l| l.trim() == "flags: --wrap");
        let got = verdict_of(path, false);
        compare(&expected, &got, bless, &mut failures);
        if wrap {
            compare(&path.with_extension("wrap.expected"), &verdict_of(path, true), bless, &mut failures);
        }
        // The expectations themselves: a correct kernel is clean, a racy one is not.
        let want = verdict_lines(&std::fs::read_to_string(&expected).unwrap_or_default());
        if name(path).starts_with("c_") && want != "clean\n" {
            failures
                .push(format!("{}: a correct kernel must be expected clean (false alarm)", path.display()));
        }
        if name(path).starts_with("r_") && want == "clean\n" {
            failures.push(format!("{}: a racy kernel must not be expected clean (miss)", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} kernels differ:\n{}",
        failures.len(),
        kernels.len(),
        failures.join("\n")
    );
}

use crate::common::autosync_in as autosync;

/// `fix` writes the block-level barriers, prints the diff, then lists the grid-level races and
/// exits 1; `--check` and `--diff` exit 1 too; the written file has only grid-level races left.
#[test]
fn fix_writes_block_barriers_and_lists_grid_races() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix_partial");
    let bless = std::env::var_os("BLESS").is_some();
    let cases = files(&dir, "cu");
    assert!(!cases.is_empty(), "no kernels in {}", dir.display());
    let mut failures = Vec::new();
    for path in &cases {
        let input = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let stem = input.trim_end_matches(".cu").to_string();
        let (code, diff, report) = autosync(&dir, &["fix", "--diff", &input]);
        if code != 1 {
            failures.push(format!("{input}: fix --diff exited {code}, expected 1: {report}"));
        }
        let (code, _, _) = autosync(&dir, &["fix", "--check", &input]);
        if code != 1 {
            failures.push(format!("{input}: fix --check exited {code}, expected 1"));
        }
        let out = dir.join(format!("{stem}.out.cu"));
        let out_s = out.display().to_string();
        let (code, _, _) = autosync(&dir, &["fix", "-o", &out_s, &input]);
        if code != 1 {
            failures.push(format!("{input}: fix -o exited {code}, expected 1"));
        }
        let fixed = std::fs::read_to_string(&out).unwrap_or_default();
        let (_, _, after) = autosync(&dir, &["check", &out_s]);
        let _ = std::fs::remove_file(&out);
        if after.contains("error: data race")
            || after.contains("barrier divergence")
            || !after.contains("grid-level")
        {
            failures.push(format!("{input}: the written file should keep only grid-level races:\n{after}"));
        }
        let (json_code, json, _) = autosync(&dir, &["fix", "--diff", "--format", "json", &input]);
        let parsed: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        let kernel = &parsed["files"][0]["kernels"][0];
        let inserted = kernel["inserted"].as_array().map_or(0, Vec::len);
        let remaining = kernel["remaining"].as_array().map_or(0, Vec::len);
        if json_code != 1 || inserted == 0 || remaining == 0 {
            failures.push(format!("{input}: JSON should carry both lists (exit {json_code}): {json}"));
        }
        let want = [
            (format!("{stem}.diff"), diff),
            (format!("{stem}.fixed.cu"), fixed),
            (format!("{stem}.stderr"), report),
        ];
        for (file, got) in want {
            let p = dir.join(&file);
            if bless {
                std::fs::write(&p, &got).expect("bless");
            } else if std::fs::read_to_string(&p).unwrap_or_default() != got {
                failures.push(format!("{file} differs:\n--- got\n{got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
