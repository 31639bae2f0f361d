//! Preprocessing (clang's) as the front end sees it: places stay in the user's text.
//!
//! - `tests/cuda/pp/lower/NAME.cu` lowers to the KPL printout plus the place of every label in
//!   the ORIGINAL file, in `NAME.kpl`;
//! - `tests/cuda/pp/errors/NAME.cu` is rejected with the `line:col: message` and notes in
//!   `NAME.err`;
//! - `tests/cuda/pp/fix/NAME.cu` is fixed by `autosync fix` into `NAME.fixed`, the fixed file
//!   verifies, and no barrier lands inside a macro.
//!
//! A `// pp: -D NAME[=VALUE] -I DIR` line in a test file gives the front-end options (`-I` is
//! relative to the file's directory). `BLESS=1` rewrites the expected files.

use crate::common::{kernels_of_path, show_place};
use autosync::cuda::FrontEndOptions;
use autosync::diag::line_col;
use autosync::kpl::{self, Kernel, Place};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    out.retain(|p| p.extension().is_some_and(|e| e == ext));
    out.sort();
    out
}

/// Front-end options from the file's `// pp:` line, as command-line words.
fn pp_args(src: &str) -> Vec<String> {
    src.lines()
        .find_map(|l| l.trim().strip_prefix("// pp:"))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

fn options_for(cu: &Path, src: &str) -> FrontEndOptions {
    let mut o = FrontEndOptions::default();
    let args = pp_args(src);
    for w in args.chunks(2) {
        match w {
            [flag, v] if flag == "-I" => o.include_dirs.push(cu.parent().expect("dir").join(v)),
            [flag, v] if flag == "-D" => o.defines.push(match v.split_once('=') {
                Some((n, x)) => (n.to_string(), Some(x.to_string())),
                None => (v.clone(), None),
            }),
            _ => panic!("{}: bad `// pp:` line", cu.display()),
        }
    }
    o
}

fn render(k: &Kernel, src: &str) -> String {
    let mut out = kpl::print(k);
    out.push_str("// places:\n");
    for (i, p) in k.places.iter().enumerate() {
        let name = k.label_names.get(i).map(|n| n.name.as_str()).unwrap_or("?");
        let _ = writeln!(out, "//   {name}: {}", show_place(p, src));
    }
    out
}

/// Compares `got` with the file `expected` (or writes it under `BLESS`).
fn golden(expected: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(expected, got).expect("write expected output");
        return;
    }
    let want = std::fs::read_to_string(expected).unwrap_or_default();
    if want != got {
        failures.push(format!("{}:\n--- expected\n{want}\n--- got\n{got}", expected.display()));
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/pp")
}

#[test]
fn preprocessed_kernels_lower_with_places_in_the_user_text() {
    let cases = files(&root().join("lower"), "cu");
    assert!(cases.len() >= 5, "test cases in tests/cuda/pp/lower");
    let mut failures = Vec::new();
    for cu in cases {
        let src = std::fs::read_to_string(&cu).expect("read");
        let got = match kernels_of_path(&cu, options_for(&cu, &src)) {
            Ok(ks) => ks.iter().map(|k| render(k, &src)).collect::<Vec<_>>().join("\n"),
            Err(d) => panic!("{}", d.render(&cu.display().to_string(), &src)),
        };
        for k in &kernels_of_path(&cu, options_for(&cu, &src)).expect("lowers") {
            for p in &k.places {
                let at = match p {
                    Place::Line { offset, .. } => vec![*offset],
                    Place::Braced { body_start, body_end, .. } => vec![*body_start, *body_end],
                    Place::Split { start, end, .. } => vec![*start, *end],
                    Place::Not(_) => vec![],
                };
                for o in at {
                    assert!(
                        o <= src.len() && src.is_char_boundary(o),
                        "{}: place {o} in the file",
                        cu.display()
                    );
                }
            }
        }
        golden(&cu.with_extension("kpl"), &got, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn preprocessing_errors_have_positions_and_notes() {
    let cases = files(&root().join("errors"), "cu");
    assert!(cases.len() >= 10, "test cases in tests/cuda/pp/errors");
    let mut failures = Vec::new();
    for cu in cases {
        let src = std::fs::read_to_string(&cu).expect("read");
        let got = match kernels_of_path(&cu, options_for(&cu, &src)) {
            Ok(_) => "lowered without error\n".to_string(),
            Err(d) => {
                let (l, c) = d.span.map(|s| line_col(&src, s.start)).unwrap_or((0, 0));
                let mut s = format!("{l}:{c}: {}\n", d.message);
                for n in &d.notes {
                    // Paths in notes are relative to the test directory.
                    let n = n.replace(&root().join("errors").display().to_string(), ".");
                    let _ = writeln!(s, "  = {n}");
                }
                s
            }
        };
        golden(&cu.with_extension("err"), &got, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn autosync(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync")).args(args).output().expect("run autosync");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn fix_lands_barriers_outside_macros() {
    let cases = files(&root().join("fix"), "cu");
    assert!(cases.len() >= 2, "test cases in tests/cuda/pp/fix");
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for cu in cases {
        let src = std::fs::read_to_string(&cu).expect("read");
        let out = tmp.path().join(cu.file_name().expect("name"));
        let (code, _, err) =
            autosync(&["fix", "-o", out.to_str().expect("utf8"), cu.to_str().expect("utf8")]);
        assert_eq!(code, 0, "{}: {err}", cu.display());
        let fixed = std::fs::read_to_string(&out).expect("read fixed");
        assert!(fixed.len() > src.len(), "{}: a barrier was inserted", cu.display());
        // Every inserted line is a barrier on a line of its own, and macro definitions are intact.
        let defs = |t: &str| {
            t.lines().filter(|l| l.trim_start().starts_with('#')).map(str::to_string).collect::<Vec<_>>()
        };
        assert_eq!(defs(&fixed), defs(&src), "{}: directives unchanged", cu.display());
        let (code, stdout, err) = autosync(&["check", out.to_str().expect("utf8")]);
        assert_eq!(code, 0, "{}: the fixed file verifies: {stdout}{err}", cu.display());
        golden(&cu.with_extension("fixed"), &fixed, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_barrier_needed_inside_a_macro_expansion_is_reported_not_patched() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("inside.cu");
    let src = "//--blockDim=64 --gridDim=1\n#define PUBLISH_READ(s, t, r) s[t] = t; r = s[((t) + 1) % 64]\n__global__ void k(int *out) {\n    __shared__ int s[64];\n    int r;\n    PUBLISH_READ(s, threadIdx.x, r);\n    out[threadIdx.x] = r;\n}\n";
    std::fs::write(&file, src).expect("write");
    let (code, _, err) = autosync(&["fix", file.to_str().expect("utf8")]);
    assert_ne!(code, 0, "no placement outside the macro separates the race: {err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), src, "nothing written");
}

#[test]
fn cli_include_dirs_and_defines_reach_the_preprocessor() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let hdr = tmp.path().join("hdr");
    std::fs::create_dir(&hdr).expect("mkdir");
    std::fs::write(hdr.join("w.cuh"), "#define W 32\n").expect("write");
    let file = tmp.path().join("k.cu");
    let src = "//--blockDim=64 --gridDim=1\n#include \"w.cuh\"\n#if SHIFT > 0\n__global__ void k(int *A) { __shared__ int s[W * 2 + 1];\n  s[threadIdx.x] = 1;\n  A[threadIdx.x] = s[threadIdx.x + SHIFT];\n}\n#endif\n";
    std::fs::write(&file, src).expect("write");
    let f = file.to_str().expect("utf8");
    let h = hdr.to_str().expect("utf8");
    let (code, _, err) = autosync(&["check", f]);
    assert_eq!(code, 2, "the header is not found without -I: {err}");
    assert!(err.contains("header `w.cuh` was not found"), "{err}");
    let (code, _, err) = autosync(&["check", "-I", h, f]);
    assert_eq!(code, 2, "SHIFT undefined: no kernel: {err}");
    let (code, _, err) = autosync(&["check", "-I", h, "-D", "SHIFT=1", f]);
    assert_eq!(code, 1, "the shifted read races: {err}");
    assert!(err.contains("data race on shared array `s`"), "{err}");
    let (code, _, err) = autosync(&["check", "-I", h, "-D", "1BAD", f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("macro name must be an identifier"), "{err}");
    let (code, _, err) = autosync(&["fix", "-I", h, "-DSHIFT=1", f]);
    assert_eq!(code, 0, "{err}");
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert!(fixed.contains("  s[threadIdx.x] = 1;\n  __syncthreads();\n"), "{fixed}");
}
