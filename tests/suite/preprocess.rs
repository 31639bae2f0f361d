//! The CUDA preprocessor and its source map.
//!
//! - unit tests of `preprocess` (expansion, conditionals, includes, the map, errors with positions);
//! - `tests/cuda/pp/lower/NAME.cu` lowers to the KPL printout plus the place of every label in
//!   the ORIGINAL file, in `NAME.kpl`;
//! - `tests/cuda/pp/errors/NAME.cu` is rejected with the `line:col: message` and notes in
//!   `NAME.err`;
//! - `tests/cuda/pp/fix/NAME.cu` is fixed by `autosync fix` into `NAME.fixed`, the fixed file
//!   verifies, and no barrier lands inside a macro.
//!
//! A `// pp: -D NAME[=VALUE] -I DIR` line in a test file gives the front-end options (`-I` is
//! relative to the file's directory). `BLESS=1` rewrites the expected files.

use crate::common::show_place;
use autosync::cuda::preprocess::preprocess;
use autosync::cuda::{lower, FrontEndOptions};
use autosync::diag::line_col;
use autosync::kpl::{self, Kernel, Place, Span};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn opts() -> FrontEndOptions {
    FrontEndOptions::default()
}

fn pp(src: &str) -> String {
    preprocess(src, &opts()).unwrap_or_else(|d| panic!("{}", d.message)).text
}

fn pp_err(src: &str) -> (usize, usize, String) {
    let d = preprocess(src, &opts()).expect_err("must be rejected");
    let (l, c) = d.span.map(|s| line_col(src, s.start)).unwrap_or((0, 0));
    (l, c, d.message)
}

// ------------------------------------------------------------------ unit tests

#[test]
fn text_outside_invocations_keeps_its_layout() {
    let src = "#define N 4\nint a[N];  // N\n#if 0\nskipped\n#endif\nint b;\n";
    let out = pp(src);
    assert_eq!(out, "           \nint a[4];  // N\n     \n       \n      \nint b;\n");
    let map = preprocess(src, &opts()).expect("ok").map;
    let b = out.find("int b").expect("b");
    assert_eq!(
        map.span(Span::new(b, b + 5)),
        Span::new(src.find("int b").expect("b"), src.find("int b").expect("b") + 5)
    );
}

#[test]
fn function_like_macros_nest_and_never_expand_themselves() {
    assert_eq!(pp("#define SQ(x) ((x) * (x))\nSQ(SQ(a))\n").trim(), "((((a) * (a))) * (((a) * (a))))");
    // Blue paint: `f` inside its own expansion stays.
    assert_eq!(pp("#define f(x) x + f(x)\nf(1)\n").trim(), "1 + f(1)");
    assert_eq!(pp("#define A B\n#define B A\nA B\n").trim(), "A B");
    // A function-like macro name without `(` is an ordinary identifier.
    assert_eq!(pp("#define F(x) x\nint F;\n").trim(), "int F;");
    // Rescanning picks up a `(` that follows the invocation in the source.
    assert_eq!(pp("#define G F\n#define F(x) [x]\nG (1)\n").trim(), "[1]");
}

#[test]
fn stringize_paste_and_variadic_arguments() {
    assert_eq!(pp("#define S(x) #x\nS(a  +  \"b\")\n").trim(), r#""a + \"b\"""#);
    assert_eq!(pp("#define CAT(a, b) a ## b\nCAT(s_, tile) CAT(, x) CAT(1, 2)\n").trim(), "s_tile x 12");
    assert_eq!(pp("#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2)\nV(h)\n").trim(), "g(1, 2)\nh()");
    assert_eq!(pp("#define P(fmt, ...) p(fmt, ## __VA_ARGS__)\nP(a)\n").trim(), "p(a)");
    assert_eq!(pp("#define L(args...) q(args)\nL(1, 2)\n").trim(), "q(1, 2)");
}

#[test]
fn conditionals_take_exactly_one_branch() {
    let src = "#define X 2\n#if X == 1\none\n#elif defined(X) && X * 2 == 4\ntwo\n#else\nthree\n#endif\n";
    let words: Vec<String> = pp(src).split_whitespace().map(str::to_string).collect();
    assert_eq!(words, ["two"]);
    let src = "#ifdef NOPE\na\n#elifndef NOPE\nb\n#endif\n#ifndef NOPE\nc\n#endif\n#if UNDEFINED_IS_ZERO\nd\n#endif\n";
    let words: Vec<String> = pp(src).split_whitespace().map(str::to_string).collect();
    assert_eq!(words, ["b", "c"]);
    // Nested groups inside a skipped group are skipped, even with bad expressions.
    let words: Vec<String> =
        pp("#if 0\n#if 1 +\nx\n#endif\n#else\ny\n#endif\n").split_whitespace().map(str::to_string).collect();
    assert_eq!(words, ["y"]);
}

#[test]
fn command_line_defines_come_after_the_predefined_macros() {
    let o = FrontEndOptions {
        defines: vec![
            ("BLOCK".into(), Some("128".into())),
            ("FLAG".into(), None),
            ("F(x)".into(), Some("x+1".into())),
        ],
        ..opts()
    };
    let out = preprocess("BLOCK FLAG F(2) __CUDA_ARCH__ __LINE__\n", &o).expect("ok").text;
    assert_eq!(out.trim(), "128 1 2+1 700 1");
    let bad = FrontEndOptions { defines: vec![("3X".into(), Some("1".into()))], ..opts() };
    let d = preprocess("", &bad).expect_err("bad -D");
    assert!(d.message.contains("invalid `-D 3X=1`"), "{}", d.message);
}

#[test]
fn includes_resolve_next_to_the_file_then_in_include_dirs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    std::fs::write(dir.path().join("near.h"), "#define NEAR 1\n").expect("write");
    std::fs::write(sub.join("far.h"), "#pragma once\n#define FAR 2\nint far_decl;\n").expect("write");
    let main = dir.path().join("main.cu");
    let src = "#include \"near.h\"\n#include \"far.h\"\n#include \"far.h\"\nNEAR FAR\n";
    let o = FrontEndOptions { path: Some(main.clone()), include_dirs: vec![sub], ..opts() };
    let p = preprocess(src, &o).expect("ok");
    assert_eq!(p.text.matches("int far_decl;").count(), 1, "#pragma once: {}", p.text);
    assert!(p.text.ends_with("1 2\n"), "{}", p.text);
    // Text from a header maps to its #include line.
    let at = p.text.find("far_decl").expect("included text");
    let second = src.find("#include \"far.h\"").expect("directive");
    assert_eq!(p.map.span(Span::new(at, at + 3)).start, second);
    // Without the -I directory the header is missing.
    let o = FrontEndOptions { path: Some(main), ..opts() };
    let d = preprocess(src, &o).expect_err("missing");
    assert!(d.message.contains("cannot find the included file `far.h`"), "{}", d.message);
}

#[test]
fn errors_point_at_the_directive_or_invocation() {
    assert_eq!(
        pp_err("int a;\n#if 1\nint b;\n"),
        (2, 1, "unterminated conditional: no `#endif` for this directive".into())
    );
    assert_eq!(
        pp_err("#define F(a, b) a\nint x =\n  F(1);\n"),
        (3, 3, "macro `F` takes 2 arguments, but 1 was given".into())
    );
    assert_eq!(
        pp_err("#define F(a) a\nF(1, 2)\n"),
        (2, 1, "macro `F` takes 1 argument, but 2 were given".into())
    );
    assert_eq!(
        pp_err("#define F(a) a\nF((1)\n"),
        (2, 1, "unterminated argument list invoking macro `F`".into())
    );
    assert_eq!(pp_err("\n#else\n"), (2, 1, "`#else` without `#if`".into()));
    assert_eq!(
        pp_err("#define F(x) #y\n"),
        (1, 1, "`#` in macro `F` must be followed by a parameter name".into())
    );
    assert_eq!(pp_err("#define\n"), (1, 1, "`#define` without a macro name".into()));
    assert_eq!(pp_err("#foo\n"), (1, 1, "unknown preprocessor directive `#foo`".into()));
    assert_eq!(pp_err("  #error stop here\n"), (1, 3, "#error stop here".into()));
    assert!(pp_err("#if (1\n#endif\n").2.contains("expected `)`"));
}

#[test]
fn macro_expansions_are_not_places_but_their_ends_are() {
    let src = "#define TWO(s, t) s[t] = 1; s[t + 1] = 2\n__global__ void k(int *A) {\n    __shared__ int s[64];\n    TWO(s, threadIdx.x);\n    A[0] = s[0];\n}\n";
    let ks = lower(src, &opts()).expect("lowers");
    let k = &ks[0].kernel;
    let line4_end = src.find("threadIdx.x);").expect("call") + "threadIdx.x);".len();
    let mut line4 = Vec::new();
    k.walk(&mut |s| {
        if line_col(src, s.span.start).0 == 4 {
            line4.push(k.place(s.label).clone());
        }
    });
    assert_eq!(line4.len(), 2, "two writes from one invocation");
    assert!(
        matches!(&line4[0], Place::Not(_)),
        "after the first write: inside the expansion: {:?}",
        line4[0]
    );
    assert_eq!(line4[1], Place::Line { offset: line4_end, indent: "    ".into() });
}

// ------------------------------------------------------------------ data-driven tests

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
    let mut o = FrontEndOptions { path: Some(cu.to_path_buf()), ..opts() };
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
        let got = match lower(&src, &options_for(&cu, &src)) {
            Ok(ks) => ks.iter().map(|l| render(&l.kernel, &src)).collect::<Vec<_>>().join("\n"),
            Err(d) => panic!("{}", d.render(&cu.display().to_string(), &src)),
        };
        for l in &lower(&src, &options_for(&cu, &src)).expect("lowers") {
            for p in &l.kernel.places {
                let at = match p {
                    Place::Line { offset, .. } => vec![*offset],
                    Place::Braced { body_start, body_end, .. } => vec![*body_start, *body_end],
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
        let got = match lower(&src, &options_for(&cu, &src)) {
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
    assert!(err.contains("cannot find the included file `w.cuh`"), "{err}");
    let (code, _, err) = autosync(&["check", "-I", h, f]);
    assert_eq!(code, 2, "SHIFT undefined: no kernel: {err}");
    let (code, _, err) = autosync(&["check", "-I", h, "-D", "SHIFT=1", f]);
    assert_eq!(code, 1, "the shifted read races: {err}");
    assert!(err.contains("data race on shared array `s`"), "{err}");
    let (code, _, err) = autosync(&["check", "-I", h, "-D", "1BAD", f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("invalid `-D 1BAD`"), "{err}");
    let (code, _, err) = autosync(&["fix", "-I", h, "-DSHIFT=1", f]);
    assert_eq!(code, 0, "{err}");
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert!(fixed.contains("  s[threadIdx.x] = 1;\n  __syncthreads();\n"), "{fixed}");
}
