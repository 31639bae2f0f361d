//! The KPL parser and printer: no input panics, every error points into the input with a
//! `file:line:col` location and a caret, and `parse(print(k))` gives back `k` for every kernel
//! in the repository (with and without inserted barriers).

use autosync::diag::{line_col, Diagnostic};
use autosync::kpl::ast::{BinOp, Builtin, Dim, Expr, Kernel, StmtKind, UnOp};
use autosync::kpl::{normalized, parse, print};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Every `.kpl` file under `tests/` and `benchmarks/` except the bad inputs of
/// `tests/robustness/`, sorted.
fn repo_kpl_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            // tests/robustness holds deliberately bad inputs (tests/suite/robustness.rs runs them).
            if p.is_dir() && !p.ends_with("robustness") {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "kpl") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    walk(&root.join("tests"), &mut out);
    walk(&root.join("benchmarks"), &mut out);
    out.sort();
    out
}

/// Read once per test binary: the property tests draw a kernel from it for each case.
fn corpus() -> &'static [(String, String)] {
    static CORPUS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let files = repo_kpl_files();
        assert!(
            files.len() >= 4,
            "expected at least the paper's figures in tests/kpl/paper, found {files:?}"
        );
        files
            .into_iter()
            .flat_map(|p| {
                let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                one_kernel_each(&p.display().to_string(), &text)
            })
            .collect()
    })
}

/// A KPL file holds one kernel; the CUDA lowering goldens hold one per kernel of their `.cu`
/// file, each starting at a line `kernel …` (or at the launch header line right before it). Splits such a file into one text per kernel (named
/// `file#i` after the first).
fn one_kernel_each(name: &str, text: &str) -> Vec<(String, String)> {
    // A kernel's text starts at its launch header line (`//--blockDim=…`), when it has one.
    let header_before = |at: usize| -> usize {
        let before = &text[..at.saturating_sub(1)];
        let line = before.rfind('\n').map_or(0, |i| i + 1);
        if before[line..].starts_with("//--") {
            line
        } else {
            at
        }
    };
    let mut starts: Vec<usize> = text.match_indices("\nkernel ").map(|(i, _)| header_before(i + 1)).collect();
    if text.starts_with("kernel ") {
        starts.insert(0, 0);
    }
    if starts.len() <= 1 {
        return vec![(name.to_string(), text.to_string())];
    }
    starts[0] = 0;
    starts.push(text.len());
    starts
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let shown = if i == 0 { name.to_string() } else { format!("{name}#{i}") };
            (shown, text[w[0]..w[1]].to_string())
        })
        .collect()
}

fn parse_ok(name: &str, src: &str) -> Kernel {
    match parse(src) {
        Ok(k) => k,
        Err(d) => panic!("{name} does not parse:\n{}", d.render(name, src)),
    }
}

/// The `name:L:C` location codespan prints after the snippet start (`-->` in ASCII mode, `┌─`
/// in Unicode mode), if any.
fn rendered_location(rendered: &str) -> Option<String> {
    rendered.lines().find_map(|l| {
        let t = l.trim_start();
        t.strip_prefix("--> ").or_else(|| t.strip_prefix("┌─ ")).map(|s| s.trim().to_string())
    })
}

/// The column (1-based, in characters of the source line) of the first caret under source line
/// `line` in a rendered diagnostic.
fn caret_column(rendered: &str, line: usize) -> Option<usize> {
    let lines: Vec<&str> = rendered.lines().collect();
    let prefix = format!("{line} ");
    let i = lines.iter().position(|l| {
        let t = l.trim_start();
        t.starts_with(&prefix) && (t.contains('│') || t.contains('|'))
    })?;
    let src_line: Vec<char> = lines[i].chars().collect();
    let gutter = src_line.iter().position(|c| *c == '│' || *c == '|')?;
    let caret_line: Vec<char> = lines.get(i + 1)?.chars().collect();
    let caret = caret_line.iter().position(|c| *c == '^')?;
    // The text starts two characters after the gutter bar (`│ `).
    Some(caret - (gutter + 2) + 1)
}

/// Checks the invariants of a parse error: the span lies in the input, on char boundaries, and
/// the rendering names `file:line:col` of the span start.
fn check_error(name: &str, src: &str, d: &Diagnostic) {
    let span = d.span.unwrap_or_else(|| panic!("error without a location for {src:?}: {}", d.message));
    assert!(
        span.start <= span.end && span.end <= src.len(),
        "span {span:?} outside the input of length {} for {src:?}: {}",
        src.len(),
        d.message
    );
    assert!(
        src.is_char_boundary(span.start) && src.is_char_boundary(span.end),
        "span {span:?} splits a character in {src:?}"
    );
    assert!(!d.message.is_empty());
    let rendered = d.render(name, src);
    let (line, col) = line_col(src, span.start);
    let expected = format!("{name}:{line}:{col}");
    assert_eq!(
        rendered_location(&rendered).as_deref(),
        Some(expected.as_str()),
        "rendering lacks the location {expected}:\n{rendered}"
    );
}

/// Parses `src`; must not panic; errors must be well formed.
fn parse_checked(name: &str, src: &str) {
    if let Err(d) = parse(src) {
        check_error(name, src, &d);
    }
}

/// The error `parse` gives on `src`, with its rendering; panics if it parses.
fn parse_err(src: &str) -> (Diagnostic, String) {
    match parse(src) {
        Ok(_) => panic!("expected a parse error for:\n{src}"),
        Err(d) => {
            check_error("t.kpl", src, &d);
            let r = d.render("t.kpl", src);
            (d, r)
        }
    }
}

/// Asserts the error's message contains `msg`, its location is `line:col` and the caret sits at
/// `col` under line `line`.
fn assert_error_at(src: &str, msg: &str, line: usize, col: usize) -> Diagnostic {
    let (d, rendered) = parse_err(src);
    assert!(d.message.contains(msg), "message {:?} does not contain {msg:?}\n{rendered}", d.message);
    let span = d.span.unwrap_or_default();
    assert_eq!(line_col(src, span.start), (line, col), "wrong location for {msg:?}:\n{rendered}");
    assert_eq!(
        rendered_location(&rendered),
        Some(format!("t.kpl:{line}:{col}")),
        "rendered location:\n{rendered}"
    );
    assert_eq!(caret_column(&rendered, line), Some(col), "caret position:\n{rendered}");
    d
}

// ---------------------------------------------------------------------------------------------
// (a) Never panic
// ---------------------------------------------------------------------------------------------

#[test]
fn every_kernel_in_the_repo_parses() {
    for (name, src) in corpus() {
        let k = parse_ok(name, src);
        assert!(!k.body.stmts.is_empty(), "{name}: empty body");
    }
}

#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn every_prefix_of_every_kernel_parses_or_errors() {
    let mut errors = 0;
    for (name, src) in corpus() {
        for (i, _) in src.char_indices().chain(std::iter::once((src.len(), ' '))) {
            let prefix = &src[..i];
            match parse(prefix) {
                Ok(_) => {}
                Err(d) => {
                    errors += 1;
                    check_error(name, prefix, &d);
                }
            }
        }
    }
    // Truncated kernels are errors (the closing `}` is missing).
    assert!(errors > 1000, "only {errors} truncations were rejected");
}

/// Garbling operations on a kernel text.
#[derive(Clone, Debug)]
enum Edit {
    DeleteBytes(usize, usize),
    DuplicateBytes(usize, usize),
    SwapBytes(usize, usize),
    InsertAscii(usize, u8),
    DeleteToken(usize),
    DuplicateToken(usize),
    SwapTokens(usize, usize),
    InsertToken(usize, usize),
}

const PIECES: [&str; 34] = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ":=",
    "rd",
    "wr",
    "if",
    "else",
    "while",
    "barrier",
    "local",
    "atomic",
    "add",
    "@1",
    "@",
    "tid",
    ".",
    "x",
    "?",
    ":",
    "-",
    "!",
    "/*",
    "*/",
    "//--blockDim=",
    "0x",
    "4294967296",
    "kernel",
    "shared",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0usize..8).prop_map(|(a, n)| Edit::DeleteBytes(a, n)),
        (any::<usize>(), 0usize..8).prop_map(|(a, n)| Edit::DuplicateBytes(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapBytes(a, b)),
        (any::<usize>(), 0u8..128).prop_map(|(a, c)| Edit::InsertAscii(a, c)),
        any::<usize>().prop_map(Edit::DeleteToken),
        any::<usize>().prop_map(Edit::DuplicateToken),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapTokens(a, b)),
        (any::<usize>(), 0..PIECES.len()).prop_map(|(a, p)| Edit::InsertToken(a, p)),
    ]
}

/// Splits into whitespace-separated words, keeping the separators as their own pieces.
fn tokens(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in s.chars() {
        let ws = c.is_whitespace();
        match out.last_mut() {
            Some(last) if last.chars().next().is_some_and(|d| d.is_whitespace()) == ws => last.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}

fn apply(src: &str, e: &Edit) -> String {
    let mut bytes: Vec<u8> = src.as_bytes().to_vec();
    let n = bytes.len().max(1);
    let mut toks = tokens(src);
    let t = toks.len().max(1);
    let out_bytes = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    match *e {
        Edit::DeleteBytes(a, k) => {
            let a = a % n;
            let b = (a + k).min(bytes.len());
            bytes.drain(a.min(bytes.len())..b);
            out_bytes(bytes)
        }
        Edit::DuplicateBytes(a, k) => {
            let a = (a % n).min(bytes.len());
            let b = (a + k).min(bytes.len());
            let piece = bytes[a..b].to_vec();
            bytes.splice(b..b, piece);
            out_bytes(bytes)
        }
        Edit::SwapBytes(a, b) => {
            if !bytes.is_empty() {
                let len = bytes.len();
                bytes.swap(a % len, b % len);
            }
            out_bytes(bytes)
        }
        Edit::InsertAscii(a, c) => {
            let a = (a % n).min(bytes.len());
            bytes.insert(a, c);
            out_bytes(bytes)
        }
        Edit::DeleteToken(a) => {
            if !toks.is_empty() {
                toks.remove(a % t);
            }
            toks.concat()
        }
        Edit::DuplicateToken(a) => {
            if !toks.is_empty() {
                let x = toks[a % t].clone();
                toks.insert(a % t, x);
            }
            toks.concat()
        }
        Edit::SwapTokens(a, b) => {
            if !toks.is_empty() {
                toks.swap(a % t, b % t);
            }
            toks.concat()
        }
        Edit::InsertToken(a, p) => {
            let at = (a % t).min(toks.len());
            toks.insert(at, format!(" {} ", PIECES[p]));
            toks.concat()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn garbled_kernels_never_panic(file in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 1..6)) {
        let files = corpus();
        let (name, src) = &files[file.index(files.len())];
        let mut text = src.clone();
        for e in &edits {
            text = apply(&text, e);
        }
        parse_checked(name, &text);
    }

    #[test]
    fn random_ascii_never_panics(s in "[ -~\n\t]{0,200}") {
        parse_checked("random.kpl", &s);
    }

    #[test]
    fn random_token_soup_never_panics(pieces in prop::collection::vec(0..PIECES.len(), 0..60)) {
        let body: Vec<&str> = pieces.iter().map(|p| PIECES[*p]).collect();
        let src = format!("kernel k(n) {{ shared A[8]; local x; {} }}", body.join(" "));
        parse_checked("soup.kpl", &src);
    }

    #[test]
    fn random_unicode_never_panics(s in "\\PC{0,80}") {
        parse_checked("unicode.kpl", &s);
        parse_checked("unicode.kpl", &format!("kernel k() {{ local x := 1; {s} }}"));
    }
}

#[test]
fn deep_and_long_inputs_are_errors_not_stack_overflows() {
    let cases = [
        format!("kernel k(n) {{ local x := {}n; }}", "(".repeat(100_000)),
        format!("kernel k(n) {{ local x := {}n; }}", "-".repeat(100_000)),
        format!("kernel k(n) {{ local x := {}n; }}", "!~".repeat(50_000)),
        format!("kernel k(n) {{ local x := {}; }}", vec!["n"; 100_000].join(" + ")),
        format!("kernel k(n) {{ local x := {}n; }}", "n ? n : ".repeat(20_000)),
        format!("kernel k(n) {{ local x := {}n; }}", "f(".repeat(20_000)),
        format!("kernel k(n) {{ shared A[4]; local x; x := rd A[{}0]; }}", "A[".repeat(20_000)),
        format!("kernel k(n) {{ {} }}", "if (n) {".repeat(20_000)),
        format!("kernel k(n) {{ {} }}", "while (n) {".repeat(20_000)),
        format!("kernel k(n) {{ if (n) {{ }} {} }}", "else if (n) { } ".repeat(20_000)),
        format!("kernel k(n) {{ if (n) {{ }}{} }}", " else if (n) { }".repeat(20_000)),
        format!("kernel k(n) {{ {}{} }}", "if (n) {".repeat(20_000), "}".repeat(20_000)),
    ];
    let expected = [
        "nesting too deep",
        "nesting too deep",
        "nesting too deep",
        "expression too large",
        "nesting too deep",
        "nesting too deep",
        "`A` is an array",
        "nesting too deep",
        "nesting too deep",
        "nesting too deep",
        "nesting too deep",
        "nesting too deep",
    ];
    for (src, msg) in cases.iter().zip(expected) {
        let (d, _) = parse_err(src);
        assert_eq!(d.message, msg, "on {}...", &src[..60]);
    }
}

#[test]
fn nesting_just_under_the_limit_parses_and_round_trips() {
    // 150 nested blocks and 150 nested parentheses are accepted and survive print/parse.
    let blocks =
        format!("kernel k(n) {{\n{}local x := 1;\n{}}}\n", "if (n) {\n".repeat(150), "}\n".repeat(150));
    let parens = format!("kernel k(n) {{ local x := {}n{}; }}", "(-".repeat(99), ")".repeat(99));
    let chain = format!("kernel k(n) {{ local x := {}; }}", vec!["n"; 1000].join(" * "));
    for src in [blocks, parens, chain] {
        let k = parse_ok("deep.kpl", &src);
        let again = parse_ok("deep-printed.kpl", &print(&k));
        assert_eq!(normalized(&again), normalized(&k));
    }
}

// ---------------------------------------------------------------------------------------------
// (b) Round trip
// ---------------------------------------------------------------------------------------------

fn assert_round_trip(name: &str, k: &Kernel) {
    let printed = print(k);
    let again = parse_ok(&format!("{name} (printed)"), &printed);
    assert_eq!(normalized(&again), normalized(k), "{name}: round trip changed the kernel:\n{printed}");
    // Printing is a fixed point after one round.
    assert_eq!(print(&again), printed, "{name}: printing is not stable");
}

#[test]
fn every_kernel_round_trips() {
    for (name, src) in corpus() {
        let k = parse_ok(name, src);
        assert_round_trip(name, &k);
        // `normalized` is not the identity on spans: it really erased them.
        assert_ne!(k.body.span, normalized(&k).body.span, "{name}");
    }
}

#[test]
fn round_trip_keeps_geometry_and_explicit_labels() {
    let src = "//--blockDim=[16,8] --gridDim=4 --warp-sync=32\nkernel k(n) {\n  shared A[16][8];\n  global B[];\n  local x;\n  @r x := rd A[tid.y][tid.x];\n  @w wr B[bid.x * bdim.x + tid.x] := x;\n}\n";
    let k = parse_ok("g.kpl", src);
    assert_eq!(k.geometry.block_dim, Some([16, 8, 1]));
    assert_eq!(k.geometry.grid_dim, Some([4, 1, 1]));
    assert_eq!(k.geometry.warp_sync, Some(32));
    let again = parse_ok("g2.kpl", &print(&k));
    assert_eq!(again.geometry, k.geometry);
    assert!(again.label_by_name("r").is_some() && again.label_by_name("w").is_some());
    assert_round_trip("g.kpl", &k);
}

#[test]
fn round_trip_with_barriers_inserted() {
    for (name, src) in corpus() {
        let k = parse_ok(name, src);
        let labels: Vec<_> = (1..k.label_count()).map(autosync::kpl::Label).collect();
        // One barrier after each label in turn.
        for l in &labels {
            let mut with = k.clone();
            let Some(b) = with.insert_barrier_after(*l) else { continue };
            assert_eq!(with.barriers().iter().filter(|x| **x == b).count(), 1);
            assert_round_trip(&format!("{name} + barrier after {}", k.label_name(*l)), &with);
            let back = parse_ok(name, &print(&with));
            assert_eq!(back.barriers().len(), k.barriers().len() + 1, "{name}");
        }
        // Barriers after every label at once; existing labels keep their names.
        let mut all = k.clone();
        let inserted = labels.iter().filter_map(|l| all.insert_barrier_after(*l)).count();
        assert!(inserted >= labels.len() / 2, "{name}: only {inserted} barriers inserted");
        for l in &labels {
            assert_eq!(all.label_name(*l), k.label_name(*l), "{name}: insertion renamed a label");
        }
        assert_round_trip(&format!("{name} + all barriers"), &all);
    }
}

/// Random expressions of the forms the parser produces.
fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        any::<u32>().prop_map(Expr::Const),
        prop_oneof![Just("a"), Just("b")].prop_map(Expr::var),
        (0usize..4, 0usize..3).prop_map(|(b, d)| {
            let d = Dim::ALL[d];
            Expr::Builtin([Builtin::Tid(d), Builtin::Bid(d), Builtin::BlockDim(d), Builtin::GridDim(d)][b])
        }),
    ];
    use BinOp::*;
    let ops = [
        Add, Sub, Mul, Div, Rem, UDiv, URem, Shl, Shr, UShr, BitAnd, BitOr, BitXor, And, Or, Eq, Ne, Lt, Le,
        Gt, Ge, ULt, ULe, UGt, UGe, Min, Max,
    ];
    leaf.prop_recursive(5, 40, 3, move |inner| {
        prop_oneof![
            (0usize..3, inner.clone())
                .prop_map(|(u, e)| { Expr::Unary([UnOp::Neg, UnOp::Not, UnOp::BitNot][u], Box::new(e)) }),
            (0..ops.len(), inner.clone(), inner.clone()).prop_map(move |(o, a, b)| Expr::bin(ops[o], a, b)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Expr::Select(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
            prop::collection::vec(inner, 0..3).prop_map(|args| Expr::Call("f".into(), args)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The printer's parenthesization keeps every expression's structure.
    #[test]
    fn expressions_round_trip(e in arb_expr()) {
        let printed = autosync::kpl::printer::expr(&e);
        let src = format!("kernel k(a, b) {{\n  local x := {printed};\n}}\n");
        let k = parse(&src).map_err(|d| TestCaseError::fail(d.render("e.kpl", &src)))?;
        match &k.body.stmts[0].kind {
            StmtKind::Local { init: Some(got), .. } => prop_assert_eq!(got, &e, "printed as {}", printed),
            other => prop_assert!(false, "unexpected statement {:?}", other),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (c) Specific errors: message, line:col and caret
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_variable() {
    let d = assert_error_at("kernel k() {\n  local x;\n  x := y + 1;\n}\n", "unknown variable `y`", 3, 8);
    assert!(d.notes.iter().any(|n| n.contains("local")));
    // Assigning to an undeclared variable.
    assert_error_at("kernel k() {\n  z := 1;\n}\n", "unknown variable `z`", 2, 3);
    // A local is out of scope after its block.
    assert_error_at(
        "kernel k(n) {\n  if (n) {\n    local t := 1;\n  }\n  n := t;\n}\n",
        "unknown variable `t`",
        5,
        8,
    );
}

#[test]
fn unknown_array() {
    assert_error_at(
        "kernel k() {\n  shared A[4];\n  local x;\n  x := rd B[0];\n}\n",
        "unknown array `B`",
        4,
        11,
    );
    assert_error_at("kernel k() {\n  wr C[0] := 1;\n}\n", "unknown array `C`", 2, 6);
}

#[test]
fn wrong_index_count() {
    let (d, _) = parse_err("kernel k() {\n  shared A[4][4];\n  wr A[1] := 0;\n}\n");
    assert!(d.message.contains("`A` has 2 dimension(s) but is indexed with 1"), "{}", d.message);
    assert_error_at("kernel k() {\n  shared A[4][4];\n  wr A[1] := 0;\n}\n", "indexed with 1", 3, 6);
    assert_error_at(
        "kernel k() {\n  shared A[4];\n  local x;\n  x := rd A[1][2];\n}\n",
        "indexed with 2",
        4,
        11,
    );
}

#[test]
fn missing_semicolon() {
    // The error points at the token found instead of `;`.
    let d = assert_error_at("kernel k() {\n  local x := 1\n  x := 2;\n}\n", "expected `;`, found `x`", 3, 3);
    assert_eq!(d.label, "expected `;`");
    assert_error_at("kernel k() {\n  barrier\n}\n", "expected `;`, found `}`", 3, 1);
}

#[test]
fn bad_header_flag() {
    assert_error_at("//--blockDim=64 --fast=1\nkernel k() {\n}\n", "unknown header flag `--fast`", 1, 17);
    assert_error_at("//--blockDim=0\nkernel k() {\n}\n", "invalid dimensions `0`", 1, 3);
    assert_error_at("// comment\n  //  --gridDim=[2,x]\nkernel k() {\n}\n", "invalid dimensions", 2, 7);
    assert_error_at("//--warp-sync=many\nkernel k() {\n}\n", "invalid warp size `many`", 1, 3);
}

#[test]
fn duplicate_label() {
    assert_error_at(
        "kernel k() {\n  local x;\n  @1 x := 1;\n  @1 x := 2;\n}\n",
        "label `@1` is used twice",
        4,
        3,
    );
    assert_error_at("kernel k() {\n  local x;\n  @main x := 1;\n}\n", "label `@main` is used twice", 3, 3);
}

#[test]
fn unterminated_comment() {
    let d = assert_error_at(
        "kernel k() {\n  local x;\n  /* never\n  closed\n}\n",
        "unterminated block comment",
        3,
        3,
    );
    assert_eq!(d.label, "this comment is never closed");
}

#[test]
fn rd_inside_an_expression() {
    let d = assert_error_at(
        "kernel k() {\n  shared A[4];\n  local x;\n  x := 1 + rd A[0];\n}\n",
        "expected an expression, found keyword `rd`",
        4,
        12,
    );
    assert!(d.label.contains("statements of their own"), "{}", d.label);
}

#[test]
fn nesting_too_deep() {
    // `local x := ` puts the first `(` at column 14 of line 2; the 201st one is too deep.
    let src = format!("kernel k() {{\n  local x := {}1;\n}}\n", "(".repeat(10_000));
    let d = assert_error_at(&src, "nesting too deep", 2, 14 + 200);
    assert!(d.label.contains("200"), "{}", d.label);
    // Blocks count too: with 200 `if` blocks open, the condition `n` of the 201st `if` (column
    // 5 of its 8-character `if (n) {`) is the first thing parsed at depth 201.
    let src = format!("kernel k(n) {{\n{}\n}}\n", "if (n) {".repeat(300));
    assert_error_at(&src, "nesting too deep", 2, 200 * 8 + 5);
}

#[test]
fn expression_too_large() {
    let src = format!("kernel k(n) {{\n  local x := {};\n}}\n", vec!["n"; 1002].join("+"));
    // The 1001st operator is at column 14 + 1000 * 2 + 1.
    assert_error_at(&src, "expression too large", 2, 14 + 2001);
    // The limit is per statement.
    let ok = format!("kernel k(n) {{\n  local x := {0};\n  local y := {0};\n}}\n", vec!["n"; 1001].join("+"));
    parse_ok("ok.kpl", &ok);
}

#[test]
fn other_errors_point_at_the_offending_text() {
    let cases: &[(&str, &str, usize, usize)] = &[
        ("kernel k() {\n  local x := 1 $ 2;\n}\n", "unexpected character `$`", 2, 16),
        ("kernel k() {\n  local x := 99999999999;\n}\n", "invalid integer literal", 2, 14),
        ("kernel k() {\n  local x;\n  @ x := 1;\n}\n", "empty label", 3, 3),
        ("kernel k() {\n  local x := tid.w;\n}\n", "`tid` has no component `w`", 2, 18),
        ("kernel k() {\n  local x := bid;\n}\n", "expected `.x`, `.y` or `.z`", 2, 17),
        ("kernel k() {\n  local x := ult(1);\n}\n", "`ult` takes two arguments", 2, 14),
        ("kernel k() {\n  shared A[4];\n  atomic mul A[0], 1;\n}\n", "unknown atomic operation `mul`", 3, 10),
        ("kernel k() {\n  local x;\n  local x;\n}\n", "`x` is already declared", 3, 9),
        ("kernel k(n, n) {\n}\n", "parameter `n` declared twice", 1, 13),
        ("kernel k() {\n  local x;\n  shared A[4];\n}\n", "array declarations must come first", 3, 3),
        ("kernel k() {\n}\nkernel j() {\n}\n", "expected end of file", 3, 1),
        ("fn k() {\n}\n", "expected `kernel`", 1, 1),
        ("kernel k() {\n  shared A[0];\n}\n", "expected a positive array size", 2, 12),
        ("kernel k() {\n  shared A[4][];\n}\n", "only the first dimension", 2, 10),
        ("kernel k() {\n  shared A[4];\n  A := 1;\n}\n", "`A` is an array", 3, 3),
        ("kernel k() {\n  local x := if;\n}\n", "found keyword `if`", 2, 14),
        ("kernel k() {\n  local x := 1;\n  if x {\n  }\n}\n", "expected `(`, found `x`", 3, 6),
        ("kernel k() {\n  local x := 1;\n", "expected `}`, found end of file", 3, 1),
    ];
    for (src, msg, line, col) in cases {
        assert_error_at(src, msg, *line, *col);
    }
}

#[test]
fn nesting_counts_blocks_and_operands() {
    // body → if (depth 1) → then block → write (depth 2) → its value `a + (b * 2)`: `+` at 3,
    // `*` at 4, `2` at 5.
    let k = parse("kernel k(a, b) {\n  global A[];\n  if (a < b) {\n    wr A[0] := a + b * 2;\n  }\n}\n")
        .expect("parse");
    assert_eq!(k.nesting(), 5);
    // Every kernel the parser accepts is far inside the bound the passes after it rely on.
    let deep = format!(
        "kernel k(a) {{\n  global A[];\n  wr A[0] := {}a{};\n}}\n",
        "(a + ".repeat(150),
        ")".repeat(150)
    );
    let k = parse(&deep).expect("parse");
    assert!(k.nesting() >= 150 && k.nesting() <= autosync::limits::MAX_KERNEL_NESTING);
}
