//! Configuration files: the default parses; unknown keys, ill-typed and out-of-range values are
//! rejected with a message naming the key and the file; `--config` errors exit with code 2.

use autosync::config::{Config, ConfigError, Mode, Ratio, DEFAULT_YAML};
use autosync::maxsat::Engine;
use std::process::Command;

fn err(yaml: &str) -> String {
    match Config::from_yaml(yaml, "my.yaml") {
        Ok(c) => panic!("accepted bad config: {c:?}\n{yaml}"),
        Err(e) => {
            assert!(matches!(e, ConfigError::Invalid { .. }));
            e.to_string()
        }
    }
}

/// The default YAML with `key: old` (first occurrence) replaced by `key: new`.
fn with(key: &str, value: &str) -> String {
    let mut out = Vec::new();
    let mut done = false;
    for line in DEFAULT_YAML.lines() {
        let t = line.trim_start();
        if !done && t.starts_with(&format!("{key}:")) {
            let indent = &line[..line.len() - t.len()];
            out.push(format!("{indent}{key}: {value}"));
            done = true;
        } else {
            out.push(line.to_string());
        }
    }
    assert!(done, "no key {key} in the default config");
    out.join("\n")
}

#[test]
fn default_config_parses() {
    let c = Config::from_yaml(DEFAULT_YAML, "config/default.yaml").map_err(|e| e.to_string()).unwrap();
    assert_eq!(c.cost.loop_factor, 100.0);
    assert_eq!(c.cost.cond_factor, 0.5);
    assert_eq!(c.synthesis.mode, Mode::Informed);
    assert_eq!(c.synthesis.solver, Engine::Minisat);
    assert!(!c.synthesis.reoptimize);
    assert_eq!(c.launch.block_dim, None);
    assert_eq!(c, Config::default_config());
    let m = c.cost_model();
    assert_eq!(m.loop_factor, Ratio::new(100, 1));
    assert_eq!(m.cond_factor, Ratio::new(1, 2));
    assert_eq!(m, autosync::config::CostModel::default());
    // The file in the repository is the embedded one.
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/default.yaml"));
    assert_eq!(on_disk.ok().as_deref(), Some(DEFAULT_YAML));
}

#[test]
fn valid_overrides_are_read() {
    let c = Config::from_yaml(&with("mode", "paper"), "x.yaml").map_err(|e| e.to_string()).unwrap();
    assert_eq!(c.synthesis.mode, Mode::Paper);
    let c = Config::from_yaml(&with("block_dim", "[16, 16]"), "x.yaml").map_err(|e| e.to_string()).unwrap();
    assert_eq!(c.launch.block_dim, Some(vec![16, 16]));
    let c = Config::from_yaml(&with("loop_factor", "10"), "x.yaml").map_err(|e| e.to_string()).unwrap();
    assert_eq!(c.cost_model().cost(2, 1), Ratio::new(50, 1));
}

#[test]
fn unknown_keys_are_rejected_naming_key_and_file() {
    let top = format!("{DEFAULT_YAML}\nextra_section: 1\n");
    let m = err(&top);
    assert!(m.starts_with("my.yaml: "), "{m}");
    assert!(m.contains("extra_section"), "{m}");
    let nested = with("loop_factor", "100\n  loop_factr: 3");
    let m = err(&nested);
    assert!(m.contains("my.yaml") && m.contains("loop_factr"), "{m}");
}

#[test]
fn ill_typed_values_are_rejected() {
    for (key, value) in [
        ("loop_factor", "abc"),
        ("mode", "fast"),
        ("solver", "glucose"),
        ("reoptimize", "maybe"),
        ("smt_timeout_ms", "-5"),
        ("block_dim", "lots"),
    ] {
        let m = err(&with(key, value));
        assert!(m.starts_with("my.yaml: "), "{key}: {m}");
        assert!(m.contains(key) || m.contains(value), "{key}: message names neither key nor value: {m}");
    }
    // serde_yaml names the field path for a wrong type.
    let m = err(&with("loop_factor", "abc"));
    assert!(m.contains("loop_factor"), "{m}");
}

#[test]
fn missing_keys_take_their_defaults() {
    let c = Config::from_yaml(&DEFAULT_YAML.replace("  strict: false\n", ""), "my.yaml")
        .map_err(|e| e.to_string());
    assert_eq!(c, Ok(Config::default_config()));
    let c = Config::from_yaml("cost:\n  loop_factor: 10\n", "my.yaml").map_err(|e| e.to_string());
    assert_eq!(
        c.map(|c| (c.cost.loop_factor, c.cost.cond_factor, c.verifier.strict)),
        Ok((10.0, 0.5, false))
    );
}

#[test]
fn out_of_range_values_are_rejected() {
    for (key, value, needle) in [
        ("loop_factor", "0.5", "cost.loop_factor"),
        ("loop_factor", "1e9", "cost.loop_factor"),
        ("loop_factor", ".nan", "cost.loop_factor"),
        ("cond_factor", "0", "cost.cond_factor"),
        ("cond_factor", "1.5", "cost.cond_factor"),
        ("cond_factor", "-1", "cost.cond_factor"),
        ("block_dim", "[]", "launch.block_dim"),
        ("block_dim", "[1, 2, 3, 4]", "launch.block_dim"),
        ("grid_dim", "[0]", "launch.grid_dim"),
    ] {
        let m = err(&with(key, value));
        assert!(m.starts_with("my.yaml: ") && m.contains(needle), "{key}: {value}: {m}");
    }
}

#[test]
fn unreadable_file_is_an_io_error() {
    let e = Config::load(std::path::Path::new("/nonexistent/autosync.yaml")).err();
    assert!(matches!(e, Some(ConfigError::Io { .. })), "{e:?}");
    assert!(e.map(|e| e.to_string()).unwrap_or_default().contains("/nonexistent/autosync.yaml"));
}

#[test]
fn cli_rejects_a_bad_config_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, with("loop_factor", "abc")).unwrap();
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kpl/paper/fig4.kpl");
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .arg("--config")
        .arg(&bad)
        .args(["tree", kernel])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.yaml") && stderr.contains("loop_factor"), "{stderr}");
    assert!(out.stdout.is_empty());

    // An unknown key, and the option after the subcommand (it is global).
    std::fs::write(&bad, format!("{DEFAULT_YAML}\ncolour: red\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .args(["tree", kernel, "--config"])
        .arg(&bad)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("colour") && stderr.contains("bad.yaml"), "{stderr}");

    // A good config changes the costs the tree shows: loop_factor 10 makes C(2) = 10.
    let good = dir.path().join("good.yaml");
    std::fs::write(&good, with("loop_factor", "10")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .arg("--config")
        .arg(&good)
        .args(["tree", kernel])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let row = stdout.lines().find(|l| l.trim_start().starts_with("2 ")).unwrap_or_default();
    assert!(row.split_whitespace().any(|w| w == "10"), "row of label 2: {row:?}");
}

#[test]
fn costs_are_ordered_by_value() {
    use autosync::config::Ratio;
    assert!(Ratio::new(401, 2) < Ratio::new(201, 1), "200.5 < 201");
    assert!(Ratio::new(1, 2) < Ratio::new(1, 1));
    assert_eq!(Ratio::new(2, 4).cmp(&Ratio::new(1, 2)), std::cmp::Ordering::Equal);
    let mut v = vec![Ratio::new(201, 1), Ratio::new(1, 4), Ratio::new(401, 2)];
    v.sort();
    assert_eq!(v, [Ratio::new(1, 4), Ratio::new(401, 2), Ratio::new(201, 1)]);
}
