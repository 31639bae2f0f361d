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
    /// The issue whose constructs the row belongs to (`24`: the front end's application C++).
    #[serde(default)]
    issue: Option<u32>,
    /// A whole application-style file (tests/cuda/apps) using the construct that checks clean.
    #[serde(default)]
    clean: Option<String>,
    /// Its racy counterpart: a whole file using the construct with a true race.
    #[serde(default)]
    racy: Option<String>,
}

/// The issue whose supported rows must each have a `clean` and a `racy` corpus file.
const PAIRED_ISSUE: u32 = 24;

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

/// The `verdict:` line of a corpus file's `.expect`.
fn expected_verdict(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file.with_extension("expect")).ok()?;
    text.lines().find_map(|l| l.strip_prefix("verdict:")).map(|v| v.trim().to_string())
}

/// Issue #24's acceptance: every supported construct of the issue has a correct and a racy
/// whole file in the applications corpus, whose `.expect` says so (`verdict: clean`, and a
/// race). Any row may name a pair; a named pair is checked. That the tool agrees with both is
/// `cuda_realworld::apps_corpus_verdicts`'s part: it holds every file of the corpus to its
/// `.expect`, with no excuse line allowed.
#[test]
fn every_supported_construct_has_a_clean_and_a_racy_corpus_file() {
    let rows = rows();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for row in &rows {
        let paired = row.status == Status::Supported && row.issue == Some(PAIRED_ISSUE);
        if row.status == Status::Refused && (row.clean.is_some() || row.racy.is_some()) {
            wrong.push(format!("{}: a refused construct has no clean/racy pair", row.construct));
        }
        for (kind, file) in [("clean", &row.clean), ("racy", &row.racy)] {
            let Some(file) = file else {
                if paired {
                    wrong.push(format!("{}: no `{kind}` corpus file", row.construct));
                }
                continue;
            };
            if !file.starts_with("tests/cuda/apps/") {
                wrong.push(format!("{}: {file} is not in the applications corpus", row.construct));
                continue;
            }
            let path = root().join(file);
            let expected = expected_verdict(&path).unwrap_or_default();
            let races = |cats: &str| cats.split(',').any(|c| matches!(c.trim(), "race" | "grid-race"));
            match (kind, expected.as_str()) {
                ("clean", "clean") => {}
                ("racy", e) if races(e) => {}
                _ => wrong
                    .push(format!("{}: {file} is the `{kind}` file but expects `{expected}`", row.construct)),
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "too few paired files: {checked}");
    assert!(wrong.is_empty(), "docs/constructs.yaml clean/racy pairs:\n{}", wrong.join("\n"));
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
        let mut files: Vec<&String> = r.tests.iter().collect();
        for pair in [&r.clean, &r.racy].into_iter().flatten() {
            if !files.contains(&pair) {
                files.push(pair);
            }
        }
        let tests = files
            .into_iter()
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
