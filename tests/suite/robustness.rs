//! Bad and unusual inputs (issue #16): every file under `tests/robustness/` (`.cu`, `.kpl`) is
//! run through `autosync check`; its exit code and the first diagnostic's message and location
//! must equal the file's `.expected` (`BLESS=1` regenerates them). The inputs cover stray bytes
//! (BOM, Latin-1 and NUL in comments and strings, bad bytes in code), CRLF, top-level junk,
//! unbalanced brackets, a header after code, and ~10,000-deep nesting in every front end
//! (all must end in a located diagnostic, never a crash).

use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/robustness");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/robustness exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "kpl")))
        .collect();
    files.sort();
    files
}

/// `exit: N`, then the `error:`/`warning:` line and the `-->` location line of the first
/// diagnostic on stderr (with the file name relative to tests/robustness).
fn observe(file: &Path) -> String {
    let dir = file.parent().expect("has a parent");
    let name = file.file_name().expect("has a name").to_string_lossy().into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir)
        .args(["check", &name])
        .output()
        .expect("runs autosync");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().map_or_else(|| format!("signal {:?}", out.status), |c| c.to_string());
    let mut lines = vec![format!("exit: {code}")];
    let mut diag = stderr.lines().skip_while(|l| !(l.starts_with("error") || l.starts_with("warning")));
    if let Some(first) = diag.next() {
        lines.push(first.to_string());
        if let Some(at) = diag.next().filter(|l| l.trim_start().starts_with("-->")) {
            lines.push(at.trim().to_string());
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn every_bad_input_gets_its_expected_located_diagnostic() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let files = cases();
    assert!(files.len() >= 20, "the robustness corpus is missing");
    for file in files {
        let got = observe(&file);
        let expected_path = file.with_extension(format!(
            "{}.expected",
            file.extension().and_then(|e| e.to_str()).unwrap_or_default()
        ));
        // Exit 2 is bad input and must say where.
        if got.starts_with("exit: 2") && !got.contains("-->") {
            failures.push(format!("{}: exit 2 without a location:\n{got}", file.display()));
        }
        if got.contains("exit: 101") || got.contains("signal") {
            failures.push(format!("{}: crashed:\n{got}", file.display()));
        }
        if bless {
            std::fs::write(&expected_path, &got).expect("writes the expectation");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!("{}:\nexpected:\n{want}got:\n{got}", file.display())),
            Err(_) => failures.push(format!(
                "{}: no {} (run with BLESS=1)",
                file.display(),
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
