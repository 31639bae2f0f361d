//! The real-world CUDA corpus (`tests/cuda/realworld/`, format in its README.md): every
//! `NAME.cu` is checked with the built binary and compared with the hand-derived expectation in
//! `NAME.expect`; where the expectation names a fix outcome, `fix` runs on a temporary copy.
//!
//! Expectations are derived by reasoning about the kernels, never blessed from the tool's output.
//! Every file must lower: a rejection (exit 2) of a file that does not expect one (`verdict:
//! error` with the message it names) fails, like a wrong verdict, a panic, a hang or a malformed
//! expectation.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// What `check` may report, one category per kind of finding.
const CATEGORIES: [&str; 5] = ["race", "grid-race", "divergence", "out-of-bounds", "undecided"];
/// Seconds one run of the binary may take before it counts as a hang.
const TIMEOUT_S: u64 = 300;

/// One parsed `NAME.expect` file.
#[derive(Debug, Default)]
struct Expect {
    /// `verdict:` — `clean`, `error`, or a comma list of categories (the truth).
    verdict: BTreeSet<String>,
    /// The file must be rejected with a diagnostic containing this text (`verdict: error`).
    error: Option<String>,
    /// `may:` — categories that are neither required nor wrong (undefined behaviour after a
    /// divergent barrier, one report for a pair that races both ways).
    may: BTreeSet<String>,
    /// `imprecise:` — categories (or `fix`) the current tool is known to get wrong on this file
    /// by over-reporting; tolerated, listed in the table.
    imprecise: BTreeSet<String>,
    /// `fix-barriers: N` — `fix` succeeds adding exactly N barriers, and the result verifies.
    fix_barriers: Option<usize>,
    /// `fix: unfixable` — `fix` exits 1: something stays that no barrier fixes (it may still
    /// write the barriers that fix the rest).
    unfixable: bool,
    /// `fix: partial` — `fix` writes the block-level barriers, lists the grid-level races it
    /// cannot fix and exits 1 (issue #15); `check` on the result finds grid-level races only.
    partial: bool,
    /// `args:` — extra command-line arguments for `check` and `fix`.
    args: Vec<String>,
    /// `covers:` — the items of issue #14 the file exercises.
    covers: BTreeSet<u32>,
}

fn parse_expect(text: &str) -> Result<Expect, String> {
    let mut e = Expect::default();
    let mut seen_verdict = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) =
            line.split_once(':').ok_or_else(|| format!("line {}: `key: value` expected", n + 1))?;
        let value = value.trim();
        let words = || value.split(',').map(str::trim).filter(|w| !w.is_empty()).map(String::from);
        // `imprecise: race — why` keeps the reason after the dash out of the token list.
        let tokens = |v: &str| -> Vec<String> {
            let head = v.split('—').next().unwrap_or("");
            head.split(',').map(str::trim).filter(|w| !w.is_empty()).map(String::from).collect()
        };
        let known =
            |w: &String, extra: &[&str]| CATEGORIES.contains(&w.as_str()) || extra.contains(&w.as_str());
        match key.trim() {
            "verdict" => {
                seen_verdict = true;
                for w in words() {
                    if !known(&w, &["clean", "error"]) {
                        return Err(format!("line {}: unknown verdict `{w}`", n + 1));
                    }
                    if w != "clean" {
                        e.verdict.insert(w);
                    }
                }
            }
            "may" => {
                for w in words() {
                    if !known(&w, &[]) {
                        return Err(format!("line {}: unknown category `{w}`", n + 1));
                    }
                    e.may.insert(w);
                }
            }
            "imprecise" => {
                for w in tokens(value) {
                    if !known(&w, &["fix"]) {
                        return Err(format!("line {}: unknown category `{w}`", n + 1));
                    }
                    e.imprecise.insert(w);
                }
            }
            "error" => e.error = Some(value.to_string()),
            "fix-barriers" => {
                e.fix_barriers =
                    Some(value.parse().map_err(|_| format!("line {}: a number expected", n + 1))?)
            }
            "fix" if value == "unfixable" => e.unfixable = true,
            "fix" if value == "partial" => e.partial = true,
            "args" => e.args = value.split_whitespace().map(String::from).collect(),
            "covers" => {
                for w in words() {
                    e.covers.insert(w.parse().map_err(|_| format!("line {}: item number expected", n + 1))?);
                }
            }
            other => return Err(format!("line {}: unknown key `{other}`", n + 1)),
        }
    }
    if !seen_verdict {
        return Err("no `verdict:` line".into());
    }
    if e.verdict.contains("error") != e.error.is_some() {
        return Err("`verdict: error` and `error:` go together".into());
    }
    if e.fix_barriers.is_some() && e.unfixable {
        return Err("`fix-barriers` and `fix: unfixable` exclude each other".into());
    }
    Ok(e)
}

/// The per-kernel budget the corpus runs under: verdicts, not speed, are under test here (speed
/// is `make bench`'s), and the default 10 s of wall time can run out on a loaded machine.
const KERNEL_BUDGET_S: &str = "120";

/// Exit code (None: killed by a signal or the timeout), stdout, stderr, timed out. `args` starts
/// with the subcommand; the corpus budget follows it.
fn run(dir: &Path, args: &[String]) -> (Option<i32>, String, String, bool) {
    let (command, rest) = args.split_first().map_or((None, args), |(c, r)| (Some(c), r));
    let child = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir)
        .args(command)
        .args(["--timeout", KERNEL_BUDGET_S])
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else { return (None, String::new(), "could not start autosync".into(), false) };
    // Drained while the child runs: a report larger than a pipe's buffer (a file of 30 kernels
    // in JSON) would otherwise block the child and look like a hang.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    let mut timed_out = false;
    // Poll so a hang becomes a reported failure instead of a stuck test.
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > Duration::from_secs(TIMEOUT_S) => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    (status.and_then(|s| s.code()), out, err, timed_out)
}

/// How one file came out.
#[derive(Debug, PartialEq)]
enum Status {
    /// Lowered, and every expectation holds.
    Correct,
    /// Lowered and within expectations except over-reports listed under `imprecise:`.
    KnownFalseAlarm,
    /// The expected rejection happened.
    ExpectedError,
    /// Rejected by the front end without expecting it (or with another message): a failure.
    Rejected,
    /// An expectation fails on a file that lowers (or an expected error did not happen).
    Wrong,
    /// Panic, signal, hang, unreadable output.
    Crash,
}

struct Row {
    file: String,
    expected: String,
    got: String,
    status: Status,
    /// The first diagnostic line of a rejection (for the status summary).
    reason: String,
}

fn categories(json: &str) -> Result<BTreeSet<String>, String> {
    // The one JSON document of `check --format json` (docs/json.md): one file, its kernels.
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("unreadable JSON report: {e}"))?;
    let kernels = v["files"][0]["kernels"].as_array().ok_or("the JSON report has no files[0].kernels")?;
    let mut got = BTreeSet::new();
    for k in kernels {
        for finding in k["findings"].as_array().into_iter().flatten() {
            match finding["rule"].as_str() {
                Some("data-race") => got.insert("race".to_string()),
                Some("grid-race") => got.insert("grid-race".to_string()),
                Some("barrier-divergence" | "warp-barrier-divergence" | "named-barrier-mismatch") => {
                    got.insert("divergence".to_string())
                }
                Some("out-of-bounds") => got.insert("out-of-bounds".to_string()),
                _ => false,
            };
        }
        if k["undecided"].as_u64().is_some_and(|n| n > 0) {
            got.insert("undecided".into());
        }
    }
    Ok(got)
}

fn show(set: &BTreeSet<String>) -> String {
    if set.is_empty() {
        "clean".into()
    } else {
        set.iter().cloned().collect::<Vec<_>>().join(",")
    }
}

/// Barriers in the text: `__syncthreads()`, a cooperative group's `.sync()` (what `fix` inserts
/// in files that synchronize through a `thread_block`), `__syncwarp()` (where the racing
/// threads share a warp) and a named barrier written as `fix` writes one (`"bar.sync 1, 128;"`
/// in an `asm` statement, where only a warp role's threads get there).
fn count_barriers(text: &str) -> usize {
    ["__syncthreads()", ".sync()", "__syncwarp()", "\"bar.sync "]
        .iter()
        .map(|b| text.matches(b).count())
        .sum()
}

/// Runs `fix` on a copy; None when it behaves as expected, else what happened.
fn check_fix(cu: &Path, name: &str, e: &Expect) -> Option<String> {
    let setup = |e: std::io::Error| Some(format!("setup of the fix check failed: {e}"));
    let tmp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => return setup(e),
    };
    let original = match std::fs::read_to_string(cu) {
        Ok(t) => t,
        Err(e) => return setup(e),
    };
    let copy = tmp.path().join(name);
    if let Err(e) = std::fs::write(&copy, &original) {
        return setup(e);
    }
    // The headers of the file's directory go beside the copy (`#include "vec_math.cuh"`), as in
    // fix_check.rs.
    let headers = cu.parent().and_then(|d| std::fs::read_dir(d).ok()).into_iter().flatten().flatten();
    for h in headers
        .map(|h| h.path())
        .filter(|h| h.extension().is_some_and(|x| x == "h" || x == "cuh" || x == "hpp"))
    {
        if let Some(file) = h.file_name() {
            if let Err(e) = std::fs::copy(&h, tmp.path().join(file)) {
                return setup(e);
            }
        }
    }
    let mut args = vec!["fix".to_string()];
    args.extend(e.args.iter().cloned());
    args.push(name.to_string());
    let (code, _, err, timed_out) = run(tmp.path(), &args);
    if timed_out || code.is_none() || err.contains("panicked") {
        return Some(format!("fix crashed: {err}"));
    }
    let after = std::fs::read_to_string(&copy).unwrap_or_default();
    if e.partial {
        let mut check = vec!["check".to_string()];
        check.extend(e.args.iter().cloned());
        check.push(name.to_string());
        let (_, _, cerr, _) = run(tmp.path(), &check);
        let block_left = cerr.contains("error: data race") || cerr.contains("error: possible data race");
        if code == Some(1) && after != original && cerr.contains("grid-level") && !block_left {
            return None;
        }
        return Some(format!(
            "fix exited {code:?} (expected a partial fix: block barriers written, grid races listed)"
        ));
    }
    if e.unfixable {
        if code == Some(1) {
            return None;
        }
        return Some(format!("fix exited {code:?} (expected exit 1: findings no barrier fixes remain)"));
    }
    let want = e.fix_barriers?;
    if code != Some(0) {
        return Some(format!("fix exited {code:?}: {}", err.lines().last().unwrap_or("")));
    }
    let added = count_barriers(&after).saturating_sub(count_barriers(&original));
    let mut check = vec!["check".to_string()];
    check.extend(e.args.iter().cloned());
    check.push(name.to_string());
    let (code, _, cerr, _) = run(tmp.path(), &check);
    if code != Some(0) {
        return Some(format!("the fixed file does not verify: {}", cerr.lines().next().unwrap_or("")));
    }
    (added != want).then(|| format!("fix added {added} barrier(s), expected {want}"))
}

fn evaluate(cu: &Path) -> Row {
    let name = cu.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let mut row = Row {
        file: name.clone(),
        expected: String::new(),
        got: String::new(),
        status: Status::Wrong,
        reason: String::new(),
    };
    let expect_path = cu.with_extension("expect");
    let e =
        match std::fs::read_to_string(&expect_path).map_err(|e| e.to_string()).and_then(|t| parse_expect(&t))
        {
            Ok(e) => e,
            Err(msg) => {
                row.got = format!("bad {}: {msg}", expect_path.display());
                return row;
            }
        };
    row.expected = show(&e.verdict);
    if let Some(n) = e.fix_barriers {
        row.expected += &format!(" fix+{n}");
    }
    if e.unfixable {
        row.expected += " unfixable";
    }
    if e.partial {
        row.expected += " partial";
    }
    let dir = cu.parent().unwrap_or(Path::new("."));
    let mut args = vec!["check".to_string(), "--format".into(), "json".into()];
    args.extend(e.args.iter().cloned());
    args.push(name.clone());
    let (code, out, err, timed_out) = run(dir, &args);
    if timed_out || code.is_none() || code == Some(101) || err.contains("panicked") {
        row.status = Status::Crash;
        row.got =
            if timed_out { format!("hang (> {TIMEOUT_S} s)") } else { format!("crash: {}", err.trim()) };
        return row;
    }
    if code == Some(2) {
        let first = err
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or(err.lines().next().unwrap_or(""))
            .to_string();
        row.got = "rejected".into();
        row.reason = first.clone();
        row.status = match &e.error {
            Some(want) if first.to_lowercase().contains(&want.to_lowercase()) => Status::ExpectedError,
            Some(_) | None => Status::Rejected,
        };
        return row;
    }
    if e.error.is_some() {
        row.got = format!("accepted (exit {code:?})");
        return row;
    }
    let got = match categories(&out) {
        Ok(g) => g,
        Err(msg) => {
            row.status = Status::Crash;
            row.got = msg;
            return row;
        }
    };
    row.got = show(&got);
    let missed: Vec<&String> = e.verdict.difference(&got).collect();
    let extra: Vec<&String> = got.iter().filter(|c| !e.verdict.contains(*c) && !e.may.contains(*c)).collect();
    let mut known_false_alarm = false;
    if !missed.is_empty() {
        row.got += &format!(" (missed {})", missed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(","));
        return row;
    }
    if !extra.is_empty() {
        if extra.iter().all(|c| e.imprecise.contains(*c)) {
            known_false_alarm = true;
        } else {
            return row;
        }
    }
    if e.fix_barriers.is_some() || e.unfixable || e.partial {
        if let Some(problem) = check_fix(cu, &name, &e) {
            row.got += &format!("; {problem}");
            if e.imprecise.contains("fix") {
                known_false_alarm = true;
            } else {
                return row;
            }
        } else if let Some(n) = e.fix_barriers {
            row.got += &format!(" fix+{n}");
        } else if e.partial {
            row.got += " partial";
        } else {
            row.got += " unfixable";
        }
    }
    row.status = if known_false_alarm { Status::KnownFalseAlarm } else { Status::Correct };
    row
}

fn corpus() -> Vec<PathBuf> {
    cu_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/realworld"))
}

/// The `.cu` files under `dir` and its subdirectories, sorted (a `.cuh` is never an entry: it is
/// included or named by the `args:` of a `.cu`).
fn cu_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().filter_map(|e| e.ok()) {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "cu") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The applications corpus (`tests/cuda/apps/`, README.md there): whole files written the way
/// applications are, one pattern each. Strict: no `imprecise:` excuse is allowed, every verdict
/// and fix outcome must be the truth.
#[test]
fn apps_corpus_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps");
    // The modern and pointer corpora are run by their own tests (modern_corpus_verdicts,
    // pointers_corpus_verdicts).
    let files: Vec<PathBuf> = cu_files(&root)
        .into_iter()
        .filter(|f| !f.starts_with(root.join("modern")) && !f.starts_with(root.join("pointers")))
        .collect();
    // Issue #24's acceptance: at least 80 whole application-style files.
    assert!(
        files.len() >= 80,
        "the applications corpus should hold at least 80 files, found {}",
        files.len()
    );
    let rows: Vec<(PathBuf, Row)> = files.par_iter().map(|f| (f.clone(), evaluate(f))).collect();
    let mut table = String::new();
    let mut failures = Vec::new();
    for (path, r) in &rows {
        let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let ok = matches!(r.status, Status::Correct | Status::ExpectedError);
        table +=
            &format!("{shown:44}  {:28}  {:28}  {}\n", r.expected, r.got, if ok { "ok" } else { "FAIL" });
        let excused = std::fs::read_to_string(path.with_extension("expect"))
            .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("imprecise:")));
        if excused {
            failures.push(format!("{shown}: `imprecise:` is not allowed in the apps corpus"));
        } else if !ok {
            failures.push(format!("{shown}: expected {}, got {} {}", r.expected, r.got, r.reason));
        }
    }
    println!("{table}\n{} files, {} failing", rows.len(), failures.len());
    assert!(failures.is_empty(), "{table}\n{}", failures.join("\n"));
}

/// `tests/cuda/unsupported/` (README.md there): files using synchronization autosync does not
/// model yet are refused, each with an "unsupported:" diagnostic — never analysed as if the
/// construct were something else. A file that lowers fails this test: move it to
/// `tests/cuda/apps/`, where its expectation is checked.
#[test]
fn unsupported_corpus_is_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/unsupported");
    let files = cu_files(&root);
    assert!(files.len() >= 2, "expected the 2 files of tests/cuda/unsupported, found {}", files.len());
    let bin = env!("CARGO_BIN_EXE_autosync");
    for f in files {
        let out = std::process::Command::new(bin).arg("check").arg(&f).output().expect("runs autosync");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}: expected a refusal (exit 2)\n{stdout}{stderr}",
            f.display()
        );
        assert!(
            stderr.contains("unsupported:") || stdout.contains("unsupported:"),
            "{}: the refusal should name the unsupported construct\n{stdout}{stderr}",
            f.display()
        );
    }
}

/// Files of `tests/cuda/apps/modern/` the front end refuses today (exit 2). A ratchet: lower
/// it as the front end learns the constructs; it goes to 0 when issue #36 lands.
const MODERN_REFUSALS: usize = 0;

/// Files of `tests/cuda/apps/modern/` that the front end lowers but gets wrong today, with
/// why. Their expectations are the truth. `modern_corpus_verdicts` skips them (each costs the
/// verifier its whole work budget); `modern_corpus_known_wrong_stay_wrong` (slow tier) fails when
/// one comes out right, so it is taken off the list. Empty when issue #36 and the precision
/// issue land.
const MODERN_KNOWN_WRONG: [(&str, &str); 6] = [
    (
        "topk_warp_select.cu",
        "an index exchanged by a warp shuffle is unknown, so `p[best_e / 32]` may leave its array",
    ),
    (
        "kv_cache_append.cu",
        "size_t index arithmetic is 32-bit words in KPL: a wrap-around looks like a collision",
    ),
    (
        "rope_ext.cu",
        "nonlinear indices (i / half_rot, products of parameters): the verifier's work budget runs out",
    ),
    ("rope_smem_cache_race.cu", "the verifier's work budget runs out before the pairs are decided"),
    ("transpose_bf16_race.cu", "the verifier's work budget runs out before the pairs are decided"),
    ("transpose_tiled_ext.cu", "the verifier's work budget runs out before the pairs are decided"),
];

fn modern_files() -> (PathBuf, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps/modern");
    let files = cu_files(&root);
    (root, files)
}

fn is_known_wrong(root: &Path, f: &Path) -> bool {
    let shown = f.strip_prefix(root).unwrap_or(f).display().to_string();
    MODERN_KNOWN_WRONG.iter().any(|(k, _)| *k == shown)
}

/// The table of a corpus held to exact verdicts (no `imprecise:`), its failures and how many
/// files the front end refused (counted, not failed: each corpus keeps its own ratchet).
fn strict_rows(root: &Path, rows: &[(PathBuf, Row)]) -> (String, Vec<String>, usize) {
    let mut table = String::new();
    let mut failures = Vec::new();
    let mut refused = 0;
    for (path, r) in rows {
        let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
        let status = match r.status {
            Status::Correct | Status::ExpectedError => "ok".into(),
            Status::Rejected => {
                refused += 1;
                format!("refused: {}", r.reason)
            }
            _ => {
                failures.push(format!("{shown}: expected {}, got {} {}", r.expected, r.got, r.reason));
                "FAIL".into()
            }
        };
        let excused = std::fs::read_to_string(path.with_extension("expect"))
            .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("imprecise:")));
        if excused {
            failures.push(format!("{shown}: `imprecise:` is not allowed in the apps corpus"));
        }
        table += &format!("{shown:36}  {:24}  {:28}  {status}\n", r.expected, r.got);
    }
    (table, failures, refused)
}

/// The modern corpus (`tests/cuda/apps/modern/`, README.md there): issue #36's files in the style
/// of current ML code — torch extensions, helper headers, register tiles, cooperative groups,
/// fp16/bf16/fp8. Strict on every file the front end lowers (verdict and
/// fix outcome), except the known-wrong list above; the files it refuses are counted against
/// `MODERN_REFUSALS`.
#[test]
fn modern_corpus_verdicts() {
    let (root, files) = modern_files();
    assert!(files.len() >= 30, "the modern corpus should hold at least 30 files, found {}", files.len());
    let rows: Vec<(PathBuf, Row)> =
        files.par_iter().filter(|f| !is_known_wrong(&root, f)).map(|f| (f.clone(), evaluate(f))).collect();
    let (mut table, mut failures, refused) = strict_rows(&root, &rows);
    for (k, why) in MODERN_KNOWN_WRONG {
        table += &format!("{k:36}  known wrong: {why}\n");
    }
    if refused > MODERN_REFUSALS {
        failures.push(format!(
            "the front end refuses {refused} files, more than the {MODERN_REFUSALS} it refused before"
        ));
    }
    println!("{table}\n{} files, {refused} refused, {} failing", files.len(), failures.len());
    assert!(failures.is_empty(), "{table}\n{}", failures.join("\n"));
}

/// Files of `tests/cuda/apps/pointers/` the front end refuses today (exit 2): issue #37's
/// acceptance allows at most 5 of the pointer families. A ratchet: lower it as the front end
/// learns the constructs (today the `struct_array_local` pair: a thread-local array of structs
/// whose pointer members point into different arrays).
const POINTERS_REFUSALS: usize = 2;

/// The pointer corpus (`tests/cuda/apps/pointers/`, README.md there): issue #37's pointer
/// families in GPUVerify's style. Strict on every file the front end lowers (verdict, no
/// `imprecise:`); the files it refuses are counted against `POINTERS_REFUSALS`.
#[test]
fn pointers_corpus_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps/pointers");
    let files = cu_files(&root);
    assert!(files.len() >= 30, "the pointer corpus should hold at least 30 files, found {}", files.len());
    let rows: Vec<(PathBuf, Row)> = files.par_iter().map(|f| (f.clone(), evaluate(f))).collect();
    let (table, mut failures, refused) = strict_rows(&root, &rows);
    if refused > POINTERS_REFUSALS {
        failures.push(format!(
            "the front end refuses {refused} files, more than the {POINTERS_REFUSALS} it refused before"
        ));
    }
    println!("{table}\n{} files, {refused} refused, {} failing", files.len(), failures.len());
    assert!(failures.is_empty(), "{table}\n{}", failures.join("\n"));
}

/// The known-wrong files of the modern corpus are still wrong (take one off the list when the
/// tool gets it right).
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn modern_corpus_known_wrong_stay_wrong() {
    let (root, files) = modern_files();
    let wrong: Vec<&PathBuf> = files.iter().filter(|f| is_known_wrong(&root, f)).collect();
    assert_eq!(wrong.len(), MODERN_KNOWN_WRONG.len(), "a known-wrong file is missing");
    let now_right: Vec<String> = wrong
        .par_iter()
        .map(|f| (f, evaluate(f)))
        .filter(|(_, r)| matches!(r.status, Status::Correct | Status::ExpectedError))
        .map(|(f, _)| f.display().to_string())
        .collect();
    assert!(now_right.is_empty(), "now correct, take them off MODERN_KNOWN_WRONG: {now_right:?}");
}

#[test]
fn expect_format_rejects_typos() {
    assert!(parse_expect("verdict: clean\n").is_ok());
    assert!(parse_expect("verdict: race\nfix-barriers: 2\nargs: --block-dim 64\ncovers: 1, 7\n").is_ok());
    assert!(parse_expect("verdict: rase\n").is_err());
    assert!(parse_expect("verdict: clean\nfix-barrier: 1\n").is_err());
    assert!(parse_expect("# no verdict\n").is_err());
    assert!(parse_expect("verdict: error\n").is_err(), "an expected error names its message");
    assert!(parse_expect("verdict: race\nfix-barriers: 1\nfix: unfixable\n").is_err());
    let e = parse_expect("verdict: clean\nimprecise: grid-race — wraps around\n").expect("valid");
    assert!(e.imprecise.contains("grid-race"));
}

#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn realworld_corpus_verdicts() {
    let files = corpus();
    assert!(files.len() >= 80, "the corpus should hold at least 80 kernels, found {}", files.len());
    let rows: Vec<Row> = files.par_iter().map(|f| evaluate(f)).collect();

    let mut covered = BTreeSet::new();
    for f in &files {
        if let Ok(e) = std::fs::read_to_string(f.with_extension("expect"))
            .map_err(|_| ())
            .and_then(|t| parse_expect(&t).map_err(|_| ()))
        {
            covered.extend(e.covers);
        }
    }

    let w = rows.iter().map(|r| r.file.len()).max().unwrap_or(4).max(4);
    let mut table = format!("{:w$}  {:28}  {:28}  status\n", "file", "expected", "got");
    for r in &rows {
        let status = match r.status {
            Status::Correct => "ok".to_string(),
            Status::KnownFalseAlarm => "ok (known false alarm)".into(),
            Status::ExpectedError => "ok (expected error)".into(),
            Status::Rejected => format!("rejected: {}", r.reason),
            Status::Wrong => "WRONG".into(),
            Status::Crash => "CRASH".into(),
        };
        table += &format!("{:w$}  {:28}  {:28}  {status}\n", r.file, r.expected, r.got);
    }
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let rejected = count(Status::Rejected);
    let wrong = count(Status::Wrong);
    let crash = count(Status::Crash);
    let correct = count(Status::Correct) + count(Status::ExpectedError);
    let false_alarm = count(Status::KnownFalseAlarm);
    let lowered = rows.len() - rejected - crash - count(Status::ExpectedError);
    table += &format!(
        "\n{} files: {lowered} lowered, {rejected} rejected (unexpectedly), {correct} correct, \
         {false_alarm} known false alarms, {wrong} wrong, {crash} crashed\n",
        rows.len()
    );
    println!("{table}");

    let mut failures = Vec::new();
    for item in 1..=7 {
        if !covered.contains(&item) {
            failures.push(format!("no file covers item {item} of issue #14"));
        }
    }
    for r in &rows {
        match r.status {
            Status::Wrong | Status::Crash => {
                failures.push(format!("{}: expected {}, got {}", r.file, r.expected, r.got))
            }
            Status::Rejected => failures.push(format!("{}: rejected: {}", r.file, r.reason)),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{table}\n{}", failures.join("\n"));
}

#[test]
fn annotated_sdk_rewrites_differ_only_by_preconditions() {
    // benchmarks/sdk-annotated/ holds the benchmarks/sdk/ kernels that have a real precondition,
    // plus their GPUVerify `__requires` lines; anything else drifting apart would make the two
    // suites measure different kernels, and a file without a precondition would be a mere copy.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks");
    let mut names: Vec<_> = std::fs::read_dir(root.join("sdk-annotated"))
        .expect("benchmarks/sdk-annotated")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cu"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "only {} annotated kernels", names.len());
    for name in &names {
        let with =
            std::fs::read_to_string(root.join("sdk-annotated").join(name)).expect("read annotated file");
        let plain = std::fs::read_to_string(root.join("sdk").join(name)).unwrap_or_else(|_| {
            panic!("benchmarks/sdk/{name} is missing (the twin of sdk-annotated/{name})")
        });
        let stripped: Vec<&str> =
            with.lines().filter(|l| !l.trim_start().starts_with("__requires(")).collect();
        assert_eq!(stripped, plain.lines().collect::<Vec<_>>(), "{name}: differs beyond __requires lines");
        assert!(stripped.len() < with.lines().count(), "{name}: no __requires line (a plain copy of sdk/)");
    }
}

/// AutoSync's own evaluation on `benchmarks/ml/` (README.md there): every kernel checks clean as
/// written; with its `__syncthreads();` and `__syncwarp();` statements removed, plain `fix`
/// restores a placement that checks clean. (`make bench` measures the same files; this holds the
/// outcome.)
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn ml_benchmarks_are_restored_by_fix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/ml");
    let files = cu_files(&root);
    assert!(files.len() >= 30, "benchmarks/ml should hold at least 30 kernels' files, found {}", files.len());
    let bin = env!("CARGO_BIN_EXE_autosync");
    let run = |args: &[&str], file: &Path| {
        Command::new(bin)
            .args(args)
            .arg(file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("runs autosync")
    };
    let stripped_files = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|f| {
            let name = f.file_name()?.to_string_lossy().to_string();
            let text = std::fs::read_to_string(f).ok()?;
            if run(&["check"], f).status.code() != Some(0) {
                return Some(format!("{name}: does not check clean as written"));
            }
            // `block.sync()` of cooperative groups stays: the file is checked as written only.
            let stripped = text.replace("__syncthreads();", "").replace("__syncwarp();", "");
            if stripped == text {
                return None;
            }
            stripped_files.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = tempfile::tempdir().ok()?;
            let copy = dir.path().join(&name);
            std::fs::write(&copy, stripped).ok()?;
            let fixed = run(&["fix"], &copy);
            let after = run(&["check"], &copy);
            (after.status.code() != Some(0)).then(|| {
                format!(
                    "{name}: not restored (fix exit {:?}, check exit {:?})\n{}",
                    fixed.status.code(),
                    after.status.code(),
                    String::from_utf8_lossy(&after.stderr)
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A set whose barriers all went elsewhere (or whose files lost them) would pass vacuously.
    let n = stripped_files.into_inner();
    assert!(n >= 30, "only {n} files of benchmarks/ml had barrier statements to strip");
}

/// Per set of `tests/cuda/heldout/` (README.md there), how many files the tool reports a false
/// alarm on and how many it refuses (exit 2), at most: a ratchet, lowered as precision grows.
/// The sets were written for measurement, never tuned against the tool's verdicts.
const HELDOUT_RATCHET: [(&str, usize, usize); 3] = [("real", 5, 0), ("ml", 0, 0), ("graph", 4, 0)];

/// The held-out measurement corpus: every file is checked; a missed finding, a crash or a hang
/// fails, and so does any set with more false alarms or refusals than its ratchet allows. The
/// table and the counts are printed (`--nocapture`) for the notes.
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn heldout_corpus_measurement() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/heldout");
    let mut failures = Vec::new();
    let mut table = String::new();
    for (set, max_false, max_refused) in HELDOUT_RATCHET {
        let files = cu_files(&root.join(set));
        assert!(files.len() >= 12, "heldout/{set}: expected its files, found {}", files.len());
        // One file at a time: each run checks its kernels in parallel already, and files of
        // many kernels (30 instances) must stay inside the hang limit on a 2-core machine.
        let rows: Vec<(PathBuf, Row)> = files.iter().map(|f| (f.clone(), evaluate(f))).collect();
        let (mut correct, mut false_alarms, mut refused) = (0, 0, 0);
        for (path, r) in &rows {
            let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
            let verdict = match r.status {
                Status::Correct => {
                    correct += 1;
                    "ok"
                }
                Status::Rejected => {
                    refused += 1;
                    "refused"
                }
                Status::Wrong if !r.got.contains("(missed") => {
                    false_alarms += 1;
                    "false alarm"
                }
                _ => {
                    failures.push(format!("{shown}: expected {}, got {} {}", r.expected, r.got, r.reason));
                    "FAIL"
                }
            };
            table += &format!("{shown:40}  {:22}  {:44}  {verdict} {}\n", r.expected, r.got, r.reason);
        }
        table += &format!(
            "heldout/{set}: {} files, {correct} correct, {false_alarms} with a false alarm, {refused} refused\n\n",
            rows.len()
        );
        if false_alarms > max_false {
            failures
                .push(format!("heldout/{set}: {false_alarms} files with a false alarm, at most {max_false}"));
        }
        if refused > max_refused {
            failures.push(format!("heldout/{set}: {refused} files refused, at most {max_refused}"));
        }
    }
    println!("{table}");
    assert!(failures.is_empty(), "{table}\n{}", failures.join("\n"));
}
