//! The `autosync` binary: `tree` output, diagnostics and exit codes.

use std::process::{Command, Output};

fn autosync(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autosync")).args(args).output().expect("runs autosync")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const FIG4: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kpl/paper/fig4.kpl");

/// The cells of the tree row whose label column is `label`.
fn row<'a>(stdout: &'a str, label: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&label))
        .unwrap_or_else(|| panic!("no row for label {label}:\n{stdout}"))
}

#[test]
fn tree_of_fig4_lists_every_label_with_its_cost() {
    let out = autosync(&["tree", FIG4]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(stdout.contains("kernel fig4"), "{stdout}");
    // label, kind, placeable, cost.
    for (label, kind, cost) in [
        ("1:5", "while", "1"),
        ("1:5s", "start", "100"),
        ("2", "read", "100"),
        ("3", "assign", "100"),
        ("4", "write", "100"),
        ("11", "assign", "100"),
    ] {
        let cells = row(&stdout, label);
        assert_eq!(cells.get(1), Some(&kind), "{label}: {cells:?}");
        assert_eq!(cells.get(2), Some(&"yes"), "{label}: {cells:?}");
        assert_eq!(cells.get(3), Some(&cost), "{label}: {cells:?}");
    }
    // Nesting is shown by indentation: the loop body is indented deeper than the loop.
    let indent = |label: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(label))
            .map(|l| l.len() - l.trim_start().len())
            .unwrap_or(0)
    };
    assert!(indent("2") > indent("1:5"), "{stdout}");
    // The end of the kernel is not placeable.
    assert!(row(&stdout, "main").contains(&"no"), "{stdout}");
    // The statement column shows the statement without its explicit `@label` prefix.
    let two = stdout.lines().find(|l| l.trim_start().starts_with("2 ")).unwrap_or_default();
    assert!(two.ends_with("x := rd A[tid.x + 1];"), "{two:?}");
    assert!(!stdout.contains("@"), "explicit label prefixes leak into the statement column:\n{stdout}");
}

#[test]
fn tree_output_is_deterministic() {
    let a = autosync(&["tree", FIG4]);
    let b = autosync(&["tree", FIG4]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn garbled_file_exits_2_with_location_and_caret() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbled.kpl");
    std::fs::write(&path, "kernel broken() {\n  shared A[4];\n  local x;\n  x := 1 +;\n}\n").unwrap();
    let p = path.display().to_string();
    let out = autosync(&["tree", &p]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("error: expected an expression, found `;`"), "{stderr}");
    // `;` is at line 4, column 11.
    let loc = format!("{p}:4:11");
    assert!(
        stderr.contains(&format!("--> {loc}")) || stderr.contains(&format!("┌─ {loc}")),
        "no location {loc}:\n{stderr}"
    );
    assert!(stderr.contains("x := 1 +;"), "source line missing:\n{stderr}");
    let caret = stderr.lines().find(|l| l.contains('^')).unwrap_or_else(|| panic!("no caret:\n{stderr}"));
    let src_line = stderr.lines().find(|l| l.contains("x := 1 +;")).unwrap_or_default();
    let col = |l: &str, c: char| l.chars().position(|x| x == c);
    assert_eq!(col(caret, '^'), col(src_line, ';'), "caret not under `;`:\n{stderr}");
}

#[test]
fn missing_file_exits_2() {
    let out = autosync(&["tree", "/nonexistent/kernel.kpl"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("/nonexistent/kernel.kpl"), "{stderr}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(autosync(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(autosync(&["tree"]).status.code(), Some(2));
}

#[test]
fn help_mentions_tree() {
    let out = autosync(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("tree"), "{stdout}");
    assert!(stdout.contains("Usage"), "{stdout}");
    let out = autosync(&["tree", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("label tree"));
}

#[test]
fn check_stats_reports_the_verifiers_work() {
    let out = autosync(&["check", "--stats", FIG4]);
    let stderr = text(&out.stderr);
    // fig4.kpl has its barriers removed in tests/kpl/paper: it races (exit 1) and needs queries.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stderr}");
    let line = stderr.lines().find(|l| l.contains("SMT queries")).unwrap_or_else(|| panic!("{stderr}"));
    let queries: u64 = line
        .split("SMT queries ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(queries > 0, "{line}");
    assert!(line.contains("cache hits") && line.contains(" ms"), "{line}");
}

#[test]
fn symbolic_block_size_is_inferred_stated_and_lifted_by_all_dims() {
    // Written for 1-D blocks, with no geometry: the kernel reads only threadIdx.x, so 1-D blocks
    // are assumed (and said); under --all-dims threads (0,0,1) and (0,0,0) share threadIdx.x.
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("copy.cu");
    std::fs::write(&p, "__global__ void copy(float *a) {\n  __shared__ float s[64];\n  s[threadIdx.x] = a[threadIdx.x];\n}\n")
        .expect("write");
    let p = p.display().to_string();
    // With the block size unknown, blocks of more than 64 threads are checked too: there
    // `s[threadIdx.x]` leaves `s` (issue #41), which the report says, with the flag that fixes
    // the size. No race: threads write distinct cells of `s`.
    let out = autosync(&["check", &p]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error: out-of-bounds write: `s["), "{stderr}");
    assert!(stderr.contains("is outside `s` (64 elements)"), "{stderr}");
    assert!(stderr.contains("help: the block size is unknown"), "{stderr}");
    assert!(!stderr.contains("data race"), "{stderr}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("assuming 1-D blocks (blockDim.y = z = 1): the kernel reads only threadIdx.x"),
        "{stdout}"
    );
    assert!(stdout.contains("--block-dim X,Y,Z checks others"), "{stdout}");
    let out = autosync(&["check", "--all-dims", &p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("help: the block size is unknown"), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("assuming 1-D blocks"));
    let out = autosync(&["check", "--block-dim", "64", "--grid-dim", "1", &p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("help: the block size"));
    assert!(!text(&out.stdout).contains("assuming"));
}

#[test]
fn assume_flag_is_a_precondition_of_the_kernel() {
    let f = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda/cli/assume_stride.cu");
    let plain = autosync(&["check", f]);
    assert_eq!(plain.status.code(), Some(1), "without the precondition blocks overlap");
    let assumed = autosync(&["check", "--assume", "pitch >= 128", "--assume", "pitch <= 4096", f]);
    assert_eq!(assumed.status.code(), Some(0), "{}", text(&assumed.stderr));
    let unknown = autosync(&["check", "--assume", "stride >= 128", f]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        text(&unknown.stderr)
            .contains("in `--assume 'stride >= 128'`: use of undeclared identifier 'stride'"),
        "{}",
        text(&unknown.stderr)
    );
    let garbled = autosync(&["check", "--assume", "pitch >= (128", f]);
    assert_eq!(garbled.status.code(), Some(2));
    assert!(
        text(&garbled.stderr).contains("in `--assume 'pitch >= (128'`: expected ')'"),
        "{}",
        text(&garbled.stderr)
    );
}

#[test]
fn out_of_bounds_is_a_finding_of_its_own_in_every_format_and_what_fix_leaves() {
    // The tile lacks its extra column: thread (15, ty) stores `tile[ty][16]`, which is
    // `tile[ty + 1][0]`, cleared by thread (0, ty + 1) in the same interval — a race only out of
    // bounds, reported as the out-of-bounds store and not as a race (issue #41).
    let f = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda/apps/bounds/row_shift_alias.cu");
    let human = autosync(&["check", f]);
    assert_eq!(human.status.code(), Some(1));
    let stderr = text(&human.stderr);
    assert!(stderr.contains("error: out-of-bounds write: `tile["), "{stderr}");
    assert!(stderr.contains("][16]` is outside `tile` (16 × 16 elements)"), "{stderr}");
    assert!(stderr.contains("write by thread (15, "), "{stderr}");
    assert!(!stderr.contains("data race"), "{stderr}");
    assert!(text(&human.stdout).contains("1 out-of-bounds access(es)"));

    let json = autosync(&["check", "--format", "json", f]);
    assert_eq!(json.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let kernel = &doc["files"][0]["kernels"][0];
    assert_eq!(kernel["clean"], false);
    let rules: Vec<&str> =
        kernel["findings"].as_array().into_iter().flatten().filter_map(|x| x["rule"].as_str()).collect();
    assert_eq!(rules, vec!["out-of-bounds"]);
    assert_eq!(kernel["findings"][0]["severity"], "error");
    assert_eq!(doc["summary"]["out_of_bounds"], 1);
    assert_eq!(doc["summary"]["races"], 0);

    let sarif = autosync(&["check", "--format", "sarif", f]);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "out-of-bounds");
    assert_eq!(log["runs"][0]["results"][0]["level"], "error");
    assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][0]["id"], "out-of-bounds");

    // `fix` places no barrier for it and lists it; `check` on what it wrote says the same.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("fixed.cu");
    let out = out.to_str().expect("utf8");
    let fixed = autosync(&["fix", "--format", "json", "-o", out, f]);
    assert_eq!(fixed.status.code(), Some(1), "{}", text(&fixed.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&fixed.stdout).expect("JSON");
    let kernel = &doc["files"][0]["kernels"][0];
    assert_eq!(kernel["result"], "partly_fixed");
    assert_eq!(kernel["inserted"].as_array().map(Vec::len), Some(0));
    assert_eq!(kernel["remaining"][0]["rule"], "out-of-bounds");
    assert_eq!(kernel["remaining"][0]["kind"], "out of bounds");
    let naive = autosync(&["fix", "--naive", "-o", out, f]);
    assert_eq!(naive.status.code(), Some(1), "{}", text(&naive.stderr));
    assert!(text(&naive.stderr).contains("1 out of bounds"), "{}", text(&naive.stderr));
}

/// A kernel written in an included header is located in the header in SARIF too: every
/// location of its result (the two accesses, both thread flows) names the header as the
/// artifact, by the path reports print (relative, as the input's), at the header's lines.
#[test]
fn sarif_locates_a_header_kernel_in_its_header() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda/messages"));
    let (code, out, err) =
        crate::common::autosync_in(dir, &["check", "--format", "sarif", "header_kernel_race.cu"]);
    assert_eq!(code, 1, "{err}");
    let log: serde_json::Value = serde_json::from_str(&out).expect("SARIF");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{out}");
    let r = &results[0];
    assert_eq!(r["ruleId"], "data-race");
    let location = &r["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "tile_kernels.cuh");
    assert_eq!(location["region"]["startLine"], 12);
    assert_eq!(location["region"]["startColumn"], 9);
    let related = r["relatedLocations"].as_array().expect("related locations");
    assert_eq!(related.len(), 2);
    assert_eq!(related[1]["physicalLocation"]["region"]["startLine"], 15);
    let uris: Vec<&str> = out.lines().filter_map(|l| l.trim().strip_prefix("\"uri\": ")).collect();
    assert!(!uris.is_empty());
    assert!(uris.iter().all(|u| *u == "\"tile_kernels.cuh\""), "every location is the header's: {uris:?}");
    let text = r["message"]["text"].as_str().unwrap_or_default();
    assert!(text.contains("in the header included from header_kernel_race.cu:4"), "{text}");
}

/// `fix` never edits an included header: in a copy of a runner and its header, the runner's own
/// kernel gets its barrier (written), the header's bytes stay, and the header kernel's race is
/// listed as remaining in the header (JSON `file`, `kind`, `result`), with exit code 1; `check`
/// on the written file reports that race, at the header's line, and nothing else.
#[test]
fn fix_leaves_a_header_kernel_and_lists_its_findings() {
    let src = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda/messages"));
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["header_kernel_fix.cu", "tile_kernels.cuh"] {
        std::fs::copy(src.join(f), dir.path().join(f)).expect("copy");
    }
    let header_before = std::fs::read(dir.path().join("tile_kernels.cuh")).expect("header");
    let runner_before = std::fs::read(dir.path().join("header_kernel_fix.cu")).expect("runner");
    let (code, out, err) =
        crate::common::autosync_in(dir.path(), &["fix", "--format", "json", "header_kernel_fix.cu"]);
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let file = &doc["files"][0];
    assert_eq!(file["changed"], true);
    assert_eq!(file["barriers_inserted"], 1);
    let kernels = file["kernels"].as_array().expect("kernels");
    let tiled = kernels.iter().find(|k| k["name"] == "tiled_sum<128>").expect("the header's kernel");
    assert_eq!(tiled["result"], "not_edited");
    assert_eq!(tiled["file"], "tile_kernels.cuh");
    assert_eq!(tiled["remaining"][0]["file"], "tile_kernels.cuh");
    assert_eq!(tiled["remaining"][0]["kind"], "in an included header");
    assert_eq!(tiled["remaining"][0]["location"]["line"], 12);
    assert_eq!(tiled["remaining"][0]["included_from"][0]["line"], 3);
    let shift = kernels.iter().find(|k| k["name"] == "shift").expect("the runner's kernel");
    assert_eq!(shift["result"], "fixed");
    assert_eq!(std::fs::read(dir.path().join("tile_kernels.cuh")).expect("header"), header_before);
    assert_ne!(std::fs::read(dir.path().join("header_kernel_fix.cu")).expect("runner"), runner_before);

    let (code, out, err) = crate::common::autosync_in(dir.path(), &["check", "header_kernel_fix.cu"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("kernel `shift`: 0 race(s)"), "{out}");
    assert!(out.contains("kernel `tiled_sum<128>`: 1 race(s)"), "{out}");
    assert!(err.contains("--> tile_kernels.cuh:12:9"), "{err}");
    assert!(err.contains("= in the header included from header_kernel_fix.cu:3"), "{err}");
}
