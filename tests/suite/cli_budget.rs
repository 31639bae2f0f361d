//! The per-kernel budget and interrupted runs (issue #25): a kernel whose queries take minutes
//! is reported undecided once its `--timeout` is spent while the other files of the run get
//! their verdicts, and Ctrl-C (SIGINT) leaves a valid JSON document / SARIF log of the files
//! finished so far, marked incomplete, and JSON Lines that were complete up to then.
//!
//! The inputs are `tests/driver/*.cu`: `a_block_sum.cu` (a missing barrier: one race),
//! `b_saxpy.cu` (grid-stride SAXPY: clean) and `z_tensor_gather.cu` (nonlinear indices under a
//! symbolic launch: minutes of solver time).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn inputs() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for name in ["a_block_sum.cu", "b_saxpy.cu", "z_tensor_gather.cu"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/driver").join(name);
        let to = dir.path().join(name);
        std::fs::copy(&from, &to).expect("copies the input");
        files.push(to);
    }
    (dir, files)
}

fn autosync(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autosync")).current_dir(dir).args(args).output().expect("runs autosync")
}

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{}", String::from_utf8_lossy(out)))
}

#[test]
fn a_kernel_past_its_budget_is_undecided_and_the_other_files_get_their_verdicts() {
    let (dir, _) = inputs();
    let started = Instant::now();
    let o = autosync(dir.path(), &["check", "--timeout", "1", "--format", "json", "-j", "2", "."]);
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    // The heavy kernel alone takes minutes without a budget; with one it ends in seconds.
    assert!(took < Duration::from_secs(60), "the run took {took:?}");
    let doc = json(&o.stdout);
    let files = doc["files"].as_array().expect("files");
    assert_eq!(files.len(), 3);
    let kernel = |i: usize| &files[i]["kernels"][0];
    // The racy file: its race decided, with a witness, within its budget.
    assert_eq!(files[0]["file"], "./a_block_sum.cu");
    assert_eq!(kernel(0)["clean"], false);
    assert_eq!(kernel(0)["budget_exhausted"], false);
    assert_eq!(kernel(0)["undecided"], 0);
    assert!(kernel(0)["findings"].as_array().is_some_and(|f| f.iter().any(|f| f["rule"] == "data-race")));
    // The clean file: proven clean.
    assert_eq!(files[1]["file"], "./b_saxpy.cu");
    assert_eq!(kernel(1)["clean"], true);
    assert_eq!(files[1]["exit_code"], 0);
    // The heavy one: out of budget, its questions reported as possible findings.
    assert_eq!(files[2]["file"], "./z_tensor_gather.cu");
    assert_eq!(kernel(2)["budget_exhausted"], true, "{:#}", files[2]);
    assert!(kernel(2)["undecided"].as_u64().is_some_and(|n| n > 0));
    assert_eq!(kernel(2)["clean"], false);
    assert_eq!(files[2]["exit_code"], 1);
    assert_eq!(doc["summary"]["undecided"], 1);
    assert!(
        stderr.contains("the verifier ran out of its 1 s wall-clock budget on kernel `tensor_gather`"),
        "{stderr}"
    );
    assert!(doc.get("incomplete").is_none());
}

#[test]
fn fix_reports_a_kernel_past_its_budget_and_writes_nothing() {
    let (dir, files) = inputs();
    let before = std::fs::read(&files[2]).expect("reads");
    let o = autosync(dir.path(), &["fix", "--timeout", "1", "z_tensor_gather.cu"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("budget on kernel `tensor_gather`"), "{stderr}");
    assert_eq!(std::fs::read(&files[2]).expect("reads"), before, "nothing written");
}

/// Starts `check` over the inputs with `-j 1` (files in order) and no budget, waits until the
/// first file's statistics line is on stderr (the heavy last file is then running for
/// minutes), sends SIGINT and returns the output.
fn interrupted(format: &str) -> Output {
    let (dir, _) = inputs();
    let err_path = dir.path().join("stderr.txt");
    let err_file = std::fs::File::create(&err_path).expect("stderr file");
    let child = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir.path())
        // `--stats` writes a line per kernel to stderr as its file finishes, in every format:
        // the cue that the first file is done.
        .args(["check", "--timeout", "0", "--stats", "-j", "1", "--format", format])
        .args(["a_block_sum.cu", "b_saxpy.cu", "z_tensor_gather.cu"])
        .stdout(Stdio::piped())
        .stderr(err_file)
        .spawn()
        .expect("spawns");
    let started = Instant::now();
    loop {
        let err = std::fs::read_to_string(&err_path).unwrap_or_default();
        if err.contains("a_block_sum.cu") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the first file never finished: {err}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Let the second (quick) file finish too, and the heavy one start.
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let waited = Instant::now();
    let o = child.wait_with_output().expect("waits");
    assert!(waited.elapsed() < Duration::from_secs(10), "ended {:?} after SIGINT", waited.elapsed());
    assert_eq!(o.status.code(), Some(130), "{}", std::fs::read_to_string(&err_path).unwrap_or_default());
    drop(dir);
    o
}

#[test]
fn sigint_leaves_a_valid_incomplete_json_document() {
    let o = interrupted("json");
    let doc = json(&o.stdout);
    assert_eq!(doc["incomplete"], true);
    let files = doc["files"].as_array().expect("files");
    assert!(!files.is_empty() && files.len() < 3, "{doc:#}");
    assert_eq!(files[0]["file"], "a_block_sum.cu");
    assert_eq!(files[0]["kernels"][0]["clean"], false);
    assert_eq!(doc["summary"]["files"].as_u64(), Some(files.len() as u64));
}

#[test]
fn sigint_leaves_a_valid_incomplete_sarif_log() {
    let o = interrupted("sarif");
    let log = json(&o.stdout);
    let run = &log["runs"][0];
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    assert_eq!(run["invocations"][0]["properties"]["incomplete"], true);
    let results = run["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["ruleId"] == "data-race"
            && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a_block_sum.cu"),
        "{log:#}"
    );
}

#[test]
fn sigint_ends_json_lines_with_an_incomplete_summary() {
    let o = interrupted("jsonl");
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = text.lines().map(|l| json(l.as_bytes())).collect();
    assert!(lines.len() >= 2, "{text}");
    assert_eq!(lines[0]["file"], "a_block_sum.cu");
    let last = lines.last().expect("a summary line");
    assert_eq!(last["incomplete"], true);
    assert_eq!(last["summary"]["files"].as_u64(), Some(lines.len() as u64 - 1));
}

#[test]
fn json_lines_stream_one_object_per_file_then_the_summary() {
    let (dir, _) = inputs();
    let o = autosync(dir.path(), &["check", "--format", "jsonl", "a_block_sum.cu", "b_saxpy.cu"]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = text.lines().map(|l| json(l.as_bytes())).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["file"], "a_block_sum.cu");
    assert_eq!(lines[0]["status"], "findings");
    assert_eq!(lines[1]["file"], "b_saxpy.cu");
    assert_eq!(lines[1]["status"], "ok");
    assert_eq!(lines[2]["summary"]["files"], 2);
    assert_eq!(lines[2]["summary"]["races"], 1);
    assert_eq!(lines[2]["incomplete"], false);
}

/// Removes what legitimately differs between two runs of one input: times.
fn without_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !(k.ends_with("_ms") || k.contains("time") || k == "wall_s"));
            m.values_mut().for_each(without_times);
        }
        Value::Array(a) => a.iter_mut().for_each(without_times),
        _ => {}
    }
}

/// A kernel's budget is solver work (issue #39): the same files give the same JSON — findings,
/// witnesses, which questions the budget cut short — alone at `-j 1`, at `-j 4`, and beside
/// processes that keep every core busy. `z_tensor_gather.cu` runs out of its (small) work budget;
/// with the wall-clock budget it had before, how many of its questions were decided depended on
/// the load. The wall-clock net is lifted so that only work can cut a query short.
#[test]
fn verdicts_are_the_same_at_any_parallelism_and_load() {
    let (dir, _) = inputs();
    std::fs::write(
        dir.path().join("work.yaml"),
        "verifier:\n  kernel_work: 4000000\n  smt_work: 2000000\n  kernel_timeout_s: 0\n  smt_timeout_ms: 0\n",
    )
    .expect("writes the configuration");
    let run = |jobs: &str| {
        let o =
            autosync(dir.path(), &["--config", "work.yaml", "check", "--format", "json", "-j", jobs, "."]);
        let mut v = json(&o.stdout);
        without_times(&mut v);
        (o.status.code(), v)
    };
    let alone = run("1");
    let gather = alone.1["files"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["file"] == "./z_tensor_gather.cu"))
        .expect("z_tensor_gather.cu is reported")
        .clone();
    assert_eq!(gather["kernels"][0]["budget_exhausted"], true, "{gather:#}");
    assert_eq!(run("4"), alone, "-j 4 gave another result");
    // Busy processes on every core while the run goes on.
    let busy: Vec<std::process::Child> = (0..4)
        .map(|_| {
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .stdout(Stdio::null())
                .spawn()
                .expect("starts a busy loop")
        })
        .collect();
    let loaded = run("2");
    for mut b in busy {
        let _ = b.kill();
        let _ = b.wait();
    }
    assert_eq!(loaded, alone, "a loaded machine gave another result");
}
