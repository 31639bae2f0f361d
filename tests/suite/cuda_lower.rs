//! Data-driven tests of the CUDA front end.
//!
//! - `tests/cuda/lower/NAME.cu` lowers to the front end's warnings, the KPL printout plus the
//!   source place of every label in `NAME.kpl` (run with `BLESS=1` to rewrite the expected files after checking a change);
//! - `tests/cuda/errors/NAME.cu` is rejected with the `line:col: message` in `NAME.err`;
//! - every `.cu` file under `benchmarks/` (recursively: micro, plain, sdk) lowers without error.

use crate::common::{kernels_of_path, kernels_of_text, lower_path, show_place};
use autosync::cuda::FrontEndOptions;
use autosync::diag::{line_col, Severity};
use autosync::kpl::{self, Kernel, Place};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    out.retain(|p| p.extension().is_some_and(|e| e == ext));
    out.sort();
    out
}

/// The printout of a lowered kernel followed by its places, one label per line.
fn render(k: &Kernel, src: &str) -> String {
    // A template instance is named `reduce<256, float>`, which is not a KPL identifier: the
    // expected files must stay parseable KPL (tests/suite/kpl_parse.rs reads every .kpl file).
    let mut out = String::new();
    let mut k = k.clone();
    if k.name.contains(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let _ = writeln!(out, "// instance: {}", k.name);
        k.name = k.name.replace(|c: char| !(c.is_alphanumeric() || c == '_'), "_");
    }
    let k = &k;
    out.push_str(&kpl::print(k));
    out.push_str("// places:\n");
    for (i, p) in k.places.iter().enumerate() {
        let name = k.label_names.get(i).map(|n| n.name.as_str()).unwrap_or("?");
        let _ = writeln!(out, "//   {name}: {}", show_place(p, src));
    }
    out
}

fn check_invariants(k: &Kernel) {
    assert_eq!(k.places.len(), k.label_names.len(), "{}: one place per label", k.name);
    let mut seen = std::collections::HashSet::new();
    let mut names = std::collections::HashSet::new();
    for n in &k.label_names {
        assert!(names.insert(n.name.clone()), "{}: duplicate label name {}", k.name, n.name);
    }
    let mut check = |l: kpl::Label| assert!(seen.insert(l), "{}: label {l:?} used twice", k.name);
    check(k.body.label);
    check(k.body.start);
    k.walk(&mut |s| {
        check(s.label);
        match &s.kind {
            kpl::StmtKind::If { then, els, .. } => {
                assert_eq!(then.label, s.label);
                check(then.start);
                if let Some(e) = els {
                    check(e.label);
                    check(e.start);
                }
            }
            kpl::StmtKind::While { body, .. } => {
                assert_eq!(body.label, s.label);
                check(body.start);
            }
            _ => {}
        }
    });
    assert_eq!(seen.len(), k.places.len(), "{}: labels are dense", k.name);
    // No two labels of the kernel's own text share a barrier position (a patch would insert two
    // barriers there); inlined device-function copies share the function's places on purpose.
    let mut at = std::collections::HashSet::new();
    for (i, p) in k.places.iter().enumerate() {
        let offset = match p {
            Place::Line { offset, .. } => *offset,
            Place::Braced { body_end, .. } => *body_end,
            Place::Split { start, .. } => *start,
            Place::Not(_) => continue,
        };
        if (k.body.span.start..=k.body.span.end).contains(&offset) {
            assert!(at.insert(p.clone()), "{}: label {i} shares its place {p:?} with another", k.name);
        }
    }
    // Program-order allocation: the printout re-parses to the same structure and numbering. A
    // template instance is named `reduce<256, float>`, which is not a KPL identifier.
    let mut k = k.clone();
    k.name = k.name.replace(|c: char| !(c.is_alphanumeric() || c == '_'), "_");
    let k = &k;
    let printed = kpl::print(k);
    let reparsed = kpl::parse(&printed)
        .unwrap_or_else(|d| panic!("{}: printout does not parse: {}\n{printed}", k.name, d.message));
    assert_eq!(kpl::normalized(&reparsed), kpl::normalized(k), "{}: print/parse round trip", k.name);
}

#[test]
fn lowering_matches_expected_kpl() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/lower");
    compare_goldens(&dir, "kpl", |cu, src| match lower_path(cu, FrontEndOptions::default()) {
        Ok(file) => {
            // A refused kernel is no golden to bless: it would render as nothing.
            if let Some(d) = file.refused.first() {
                panic!("{}: a kernel is refused: {}", cu.display(), d.render(&cu.display().to_string(), src));
            }
            let ks: Vec<Kernel> = file.kernels;
            ks.iter().for_each(check_invariants);
            // The front end's warnings first, as KPL comments (most files have none).
            let mut out: String = file
                .warnings
                .iter()
                .map(|w| {
                    let (l, c) = w.span.map(|s| line_col(src, s.start)).unwrap_or((0, 0));
                    let kind = if w.severity == Severity::Note { "note" } else { "warning" };
                    format!("// {kind} {l}:{c}: {}\n", w.message)
                })
                .collect();
            // Then each kernel's launch facts (what the host code told the check).
            for k in &ks {
                out.extend(k.launch_facts.iter().map(|f| format!("// launch `{}`: {f}\n", k.name)));
            }
            out.push_str(&ks.iter().map(|k| render(k, src)).collect::<Vec<_>>().join("\n"));
            out
        }
        Err(d) => panic!("{}: {}", cu.display(), d.render(&cu.display().to_string(), src)),
    });
}

#[test]
fn unsupported_constructs_are_errors_at_their_position() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/errors");
    compare_goldens(&dir, "err", |cu, src| match kernels_of_path(cu, FrontEndOptions::default()) {
        Ok(_) => "lowered without error\n".to_string(),
        Err(d) => {
            let (l, c) = d.span.map(|s| line_col(src, s.start)).unwrap_or((0, 0));
            format!("{l}:{c}: {}\n", d.message)
        }
    });
}

/// Renders every `.cu` file of `dir` with `render` and compares the text with the file beside it
/// whose extension is `expected_ext` (`BLESS=1` rewrites those files instead).
fn compare_goldens(dir: &Path, expected_ext: &str, render: impl Fn(&Path, &str) -> String) {
    let cases = files(dir, "cu");
    assert!(!cases.is_empty(), "no test cases in {}", dir.display());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for cu in cases {
        let src = std::fs::read_to_string(&cu).expect("read test input");
        let got = render(&cu, &src);
        let expected_path = cu.with_extension(expected_ext);
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected output");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != got {
            failures.push(format!("{}:\n--- expected\n{expected}\n--- got\n{got}", cu.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every `.cu` file under `dir`, recursively, sorted.
fn cu_tree(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cu_tree(&p, out);
        } else if p.extension().is_some_and(|e| e == "cu") {
            out.push(p);
        }
    }
}

/// Benchmark kernels that use a construct the front end does not model yet, with the error they
/// must give (the test fails when one starts lowering, so the list stays current).
const UNSUPPORTED_BENCHMARKS: &[(&str, &str)] = &[];

#[test]
fn benchmarks_lower_without_error() {
    // Every kernel under benchmarks/ (micro, plain, and sdk where present), each file lowered
    // with its own path so that `#include "…"` resolves.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks");
    let mut all = Vec::new();
    cu_tree(&root, &mut all);
    assert!(all.len() >= 30, "expected the benchmark corpus under {}", root.display());
    let mut failures = Vec::new();
    for cu in all {
        let src = std::fs::read_to_string(&cu).expect("read benchmark");
        let known = UNSUPPORTED_BENCHMARKS.iter().find(|(f, _)| cu.ends_with(f));
        match (kernels_of_path(&cu, FrontEndOptions::default()), known) {
            (Ok(ks), None) => ks.iter().for_each(check_invariants),
            (Ok(_), Some((f, _))) => {
                failures.push(format!("{f} lowers now: remove it from UNSUPPORTED_BENCHMARKS"))
            }
            (Err(d), Some((_, why))) if d.message.contains(why) => {}
            (Err(d), _) => failures.push(d.render(&cu.display().to_string(), &src)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} benchmark file(s) do not lower:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn only_selects_one_kernel_and_missing_names_are_errors() {
    let src = "__global__ void a(int *A) { A[threadIdx.x] = 1; }\n__global__ void b(int *B) { B[0] = 2; }\n";
    let ks = kernels_of_text(src, Some("b")).expect("lowers");
    assert_eq!(ks.len(), 1);
    assert_eq!(ks[0].name, "b");
    assert_eq!(kernels_of_text(src, None).expect("lowers").len(), 2);
    let err = kernels_of_text(src, Some("c")).expect_err("no kernel c");
    assert!(err.message.contains("no `__global__` kernel named `c`"), "{}", err.message);
}

#[test]
fn lowering_is_deterministic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/lower");
    for cu in files(&dir, "cu") {
        let a = kernels_of_path(&cu, FrontEndOptions::default())
            .map(|ks| ks.iter().map(kpl::print).collect::<Vec<_>>());
        let b = kernels_of_path(&cu, FrontEndOptions::default())
            .map(|ks| ks.iter().map(kpl::print).collect::<Vec<_>>());
        assert_eq!(a.ok(), b.ok());
    }
}

#[test]
fn template_instances_are_separate_kernels_sharing_places() {
    let src = "template <unsigned int B, typename T>\n__global__ void r(T *g) {\n    __shared__ T s[B];\n    s[threadIdx.x] = g[threadIdx.x];\n    __syncthreads();\n    if (B >= 512) {\n        g[threadIdx.x] = s[B - 1 - threadIdx.x];\n    }\n}\ntemplate __global__ void r<256, float>(float *g);\ntemplate __global__ void r<512, int>(int *g);\n";
    let ks = kernels_of_text(src, None).expect("lowers");
    let names: Vec<&str> = ks.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["r<256, float>", "r<512, int>"]);
    ks.iter().for_each(check_invariants);
    // `if (B >= 512)` folds: the 256 instance has no access in it, the 512 one has it unguarded.
    let accesses = |k: &Kernel| {
        let mut n = 0;
        k.walk(&mut |s| n += usize::from(s.access().is_some()));
        n
    };
    assert_eq!(accesses(&ks[0]), 2);
    assert_eq!(accesses(&ks[1]), 4);
    // Both instances place the barrier after line 4 at the same source offset.
    let line_places =
        |k: &Kernel| k.places.iter().filter(|p| matches!(p, Place::Line { .. })).cloned().collect::<Vec<_>>();
    let a = line_places(&ks[0]);
    assert!(a.iter().all(|p| line_places(&ks[1]).contains(p)), "shared places");
    // With neither an instantiation nor a value the error names the parameter and the flag.
    let bare = src.lines().filter(|l| !l.starts_with("template __global__")).collect::<Vec<_>>().join("\n");
    let err = kernels_of_text(&bare, None).expect_err("needs template arguments");
    assert!(err.message.contains("template parameter `B`"), "{}", err.message);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bare.cu");
    std::fs::write(&path, &bare).expect("write");
    let opts = FrontEndOptions {
        template_args: vec![("B".into(), "128".into()), ("T".into(), "unsigned int".into())],
        ..FrontEndOptions::default()
    };
    let ks = kernels_of_path(&path, opts).expect("lowers with --template-arg");
    assert_eq!(ks[0].name, "r<128, unsigned int>");
}
