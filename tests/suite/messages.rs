//! Golden tests of what autosync says, run through the built binary: every
//! `tests/cuda/messages/NAME.cu` is given to `autosync ARGS NAME.cu` (ARGS from `NAME.args`,
//! one line; `check` when there is none) in that directory, and the exit code, stdout and
//! stderr are compared with `NAME.out`. The files are the messages a user reads: races named by
//! source lines and source indices (`tile[0][4]`, `pos[111].x`), threads one way, the witness's
//! parameter values, the cure when it is not a barrier, `--explain`'s labels, "did you mean" for
//! `--kernel`, syntax errors at the construct.
//!
//! `BLESS=1` rewrites the expected files (read the diffs before committing them).

use std::path::Path;

use crate::common::autosync_in as autosync;

#[test]
fn message_goldens() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/messages");
    let bless = std::env::var_os("BLESS").is_some();
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/cuda/messages")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cu"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "expected the message goldens in {}", dir.display());
    let mut failures = Vec::new();
    for input in &cases {
        let stem = input.trim_end_matches(".cu");
        let args =
            std::fs::read_to_string(dir.join(format!("{stem}.args"))).unwrap_or_else(|_| "check".into());
        let mut argv: Vec<&str> = args.split_whitespace().collect();
        argv.push(input);
        let (code, out, err) = autosync(&dir, &argv);
        let got = format!("$ autosync {}\nexit: {code}\n--- stdout\n{out}--- stderr\n{err}", argv.join(" "));
        let path = dir.join(format!("{stem}.out"));
        if bless {
            std::fs::write(&path, &got).expect("bless");
        } else if std::fs::read_to_string(&path).unwrap_or_default() != got {
            failures.push(format!("{stem}.out differs; got:\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// No default human message names a KPL label (`21.3`, `19:22`): every golden run without
/// `--explain` is free of them, and the one with it says once what they are.
#[test]
fn labels_only_under_explain() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/messages");
    for entry in std::fs::read_dir(&dir).expect("tests/cuda/messages").filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.ends_with(".out") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("read golden");
        let explain = text.lines().next().is_some_and(|l| l.contains("--explain"));
        let label = text.contains("(labels: ") || text.contains("labels: barrier");
        assert_eq!(explain, label, "{name}: labels must appear exactly under --explain");
        if explain {
            assert_eq!(
                text.matches("--explain names KPL labels").count(),
                1,
                "{name}: say once what a label is"
            );
        }
        for quoted in text.split('`').skip(1).step_by(2) {
            let is_label = quoted.split(['.', ':']).count() == 2
                && quoted.split(['.', ':']).all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
            assert!(explain || !is_label, "{name}: a KPL label `{quoted}` outside --explain");
        }
    }
}
