//! Docs that cannot drift: `docs/constructs.yaml` is the one table of supported and refused CUDA
//! constructs. This test checks that every row is proven by the test files it names, and that the
//! lists generated from it into README.md ("Limits") and docs/cuda.md ("Support table") are
//! current. When a generated section differs, the test rewrites it and fails, so the fix is to
//! run the test once and commit the result (rust-analyzer's "sourcegen" tests work this way).

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// One row of `docs/constructs.yaml`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Row {
    construct: String,
    status: Status,
    how: String,
    tests: Vec<String>,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Supported,
    Refused,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rows() -> Vec<Row> {
    let path = root().join("docs/constructs.yaml");
    let text = std::fs::read_to_string(&path).expect("read docs/constructs.yaml");
    serde_yaml::from_str(&text).expect("docs/constructs.yaml parses")
}

/// What a test file proves, from the golden beside it: `Ok(status)`, or why it proves nothing.
fn proves(test: &Path) -> Result<Status, String> {
    if !test.is_file() {
        return Err("no such file".into());
    }
    if test.with_extension("kpl").is_file() {
        return Ok(Status::Supported);
    }
    if test.with_extension("err").is_file() {
        return Ok(Status::Refused);
    }
    let expect = test.with_extension("expect");
    let text = std::fs::read_to_string(&expect)
        .map_err(|_| "no golden beside it (NAME.kpl, NAME.err or NAME.expect)".to_string())?;
    let verdict = text
        .lines()
        .find_map(|l| l.strip_prefix("verdict:"))
        .ok_or_else(|| format!("{} has no `verdict:` line", expect.display()))?;
    Ok(if verdict.trim() == "error" { Status::Refused } else { Status::Supported })
}

#[test]
fn every_construct_is_proven_by_its_tests() {
    let rows = rows();
    assert!(rows.len() >= 40, "the table lost rows: {}", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        if row.tests.is_empty() {
            wrong.push(format!("{}: no test", row.construct));
        }
        for test in &row.tests {
            match proves(&root().join(test)) {
                Ok(s) if s == row.status => {}
                Ok(s) => wrong
                    .push(format!("{}: {test} proves {s:?}, the table says {:?}", row.construct, row.status)),
                Err(why) => wrong.push(format!("{}: {test}: {why}", row.construct)),
            }
        }
    }
    assert!(wrong.is_empty(), "docs/constructs.yaml rows without proof:\n{}", wrong.join("\n"));
}

/// The README's list: two paragraphs, supported then refused.
fn readme_section(rows: &[Row]) -> String {
    let list = |status: Status, with_how: bool| {
        rows.iter()
            .filter(|r| r.status == status)
            .map(|r| if with_how { format!("{} ({})", r.construct, r.how) } else { r.construct.clone() })
            .collect::<Vec<_>>()
            .join("; ")
    };
    format!(
        "**Supported:** {}.\n\n**Refused**, with a diagnostic at the construct (exit code 2): {}.\n",
        list(Status::Supported, false),
        list(Status::Refused, true)
    )
}

/// docs/cuda.md's table: every row with its model or reason and links to its tests.
fn cuda_md_section(rows: &[Row]) -> String {
    let mut s = String::from("| Construct | Status | Model or reason | Proven by |\n|---|---|---|---|\n");
    for r in rows {
        let status = match r.status {
            Status::Supported => "supported",
            Status::Refused => "refused",
        };
        let tests = r
            .tests
            .iter()
            .map(|t| {
                let name = Path::new(t).file_name().map_or(t.as_str(), |n| n.to_str().unwrap_or(t));
                format!("[{name}](../{t})")
            })
            .collect::<Vec<_>>()
            .join(", ");
        s.push_str(&format!("| {} | {status} | {} | {tests} |\n", r.construct, r.how));
    }
    s
}

/// Replaces the text between `<!-- constructs: start -->` and `<!-- constructs: end -->` in
/// `file` by `body`; returns whether the file changed (and then writes it).
fn sync_section(file: &str, body: &str) -> bool {
    const START: &str = "<!-- constructs: start (generated from docs/constructs.yaml; do not edit) -->\n";
    const END: &str = "<!-- constructs: end -->";
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).expect("read the generated file");
    let start = text.find(START).unwrap_or_else(|| panic!("{file} lacks the marker {START:?}")) + START.len();
    let end = text[start..].find(END).unwrap_or_else(|| panic!("{file} lacks the marker {END:?}")) + start;
    if text[start..end] == *body {
        return false;
    }
    let updated = format!("{}{body}{}", &text[..start], &text[end..]);
    std::fs::write(&path, updated).expect("rewrite the generated section");
    true
}

#[test]
fn support_table_is_current() {
    let rows = rows();
    let readme = sync_section("README.md", &readme_section(&rows));
    let cuda_md = sync_section("docs/cuda.md", &cuda_md_section(&rows));
    assert!(
        !readme && !cuda_md,
        "the lists generated from docs/constructs.yaml were stale and have been rewritten \
         (README.md: {readme}, docs/cuda.md: {cuda_md}); review and commit them"
    );
}
