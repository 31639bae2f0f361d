//! Unit tests that run the real clang on small inputs. They need clang 14+, which `make deps`
//! installs like z3: without it they fail, saying so.

use super::*;

fn clang() -> Option<ClangExe> {
    match find_clang(None) {
        Ok(c) => Some(c),
        Err(e) => panic!("these tests need clang 14+ (`make deps`): {e}"),
    }
}

/// Parses `text` as `k.cu` in a temporary directory, returned so the file outlives the model.
fn parse_text(text: &str) -> (ParsedFile, tempfile::TempDir) {
    let exe = clang().expect("clang");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.cu");
    std::fs::write(&path, text).unwrap();
    (parse_file(&exe, &path, &ParseOptions::default()).unwrap(), dir)
}

#[test]
fn builtin_vars_and_shared_arrays_are_typed() {
    if clang().is_none() {
        return;
    }
    let (p, _dir) = parse_text(
        "__global__ void k(float *a) {\n  __shared__ float s[64];\n  s[threadIdx.x] = a[blockIdx.y];\n  __syncthreads();\n  for (int i = 0; i < 4; i++) a[i] += s[i];\n}\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let k = p.model.named("k").next().unwrap();
    assert!(k.is_kernel());
    let body = k.body.as_ref().unwrap();
    let nodes = body.walk();
    assert!(nodes.iter().any(|n| n.kind == NodeKind::BuiltinVar { var: "threadIdx".into(), field: 'x' }));
    assert!(nodes.iter().any(|n| n.kind == NodeKind::BuiltinVar { var: "blockIdx".into(), field: 'y' }));
    assert!(nodes
        .iter()
        .any(|n| matches!(&n.kind, NodeKind::Var { name, is_shared: true, .. } if name == "s")));
    assert!(nodes
        .iter()
        .any(|n| matches!(&n.kind, NodeKind::Call { callee: Some(c) } if c == "__syncthreads")));
    let f = nodes.iter().find(|n| n.kind == NodeKind::For).unwrap();
    assert_eq!(f.children.len(), 4);
    assert!(matches!(f.children[1].kind, NodeKind::Binary { ref op } if op == "<"));
    assert!(matches!(f.children[2].kind, NodeKind::Unary { ref op, postfix: true } if op == "++"));
    assert!(nodes.iter().any(|n| matches!(&n.kind, NodeKind::CompoundAssign { op } if op == "+=")));
    // Ranges point into the user's file: the shared declaration's text is recoverable.
    let file = &k.range.as_ref().unwrap().file;
    let src = std::fs::read_to_string(&**file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let var = nodes.iter().find(|n| matches!(n.kind, NodeKind::DeclStmt)).unwrap();
    let r = var.range.as_ref().unwrap();
    assert_eq!(&src[r.start.offset..r.end], "__shared__ float s[64];");
}

#[test]
fn stand_in_declarations_are_not_in_the_model() {
    if clang().is_none() {
        return;
    }
    let (p, _dir) =
        parse_text("#include <cstdio>\n#include <vector>\n__device__ int twice(int x) { return 2 * x; }\n");
    assert_eq!(
        p.model.functions.len(),
        1,
        "{:?}",
        p.model.functions.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    assert_eq!(p.model.functions[0].space, ExecSpace::Device);
    // `<cstdio>` and `<vector>` are dumped and skipped while reading (the runtime header is
    // precompiled: never dumped).
    assert!(p.stats.skipped_decls > 0, "{:?}", p.stats);
}

#[test]
fn unreadable_input_is_an_error() {
    let Some(exe) = clang() else { return };
    let e = parse_file(&exe, Path::new("/nonexistent/k.cu"), &ParseOptions::default()).unwrap_err();
    assert!(matches!(e, ClangError::Unreadable { .. }), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let e = parse_file(&exe, dir.path(), &ParseOptions::default()).unwrap_err();
    assert!(matches!(e, ClangError::Unreadable { .. }), "{e}");
}

#[test]
fn a_hanging_clang_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake-clang");
    std::fs::write(&fake, "#!/bin/sh\nsleep 30\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = ClangExe { path: fake, version: (14, 0, 0) };
    let src = dir.path().join("k.cu");
    std::fs::write(&src, "__global__ void k() {}\n").unwrap();
    let opts = ParseOptions {
        timeout: Duration::from_millis(300),
        cache_root: Some(dir.path().join("cache")),
        ..ParseOptions::default()
    };
    let start = Instant::now();
    let e = parse_file(&exe, &src, &opts).unwrap_err();
    assert!(matches!(e, ClangError::Timeout { .. }), "{e}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_crashing_clang_and_garbage_output_are_errors() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("k.cu");
    std::fs::write(&src, "__global__ void k() {}\n").unwrap();
    let opts = ParseOptions { cache_root: Some(dir.path().join("cache")), ..ParseOptions::default() };
    for (name, script, want_json) in [
        ("crash", "#!/bin/sh\necho 'PLEASE submit a bug report' >&2\nkill -SEGV $$\n", false),
        ("garbage", "#!/bin/sh\necho '{\"kind\": [1,2'\n", true),
    ] {
        let fake = dir.path().join(name);
        std::fs::write(&fake, script).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let exe = ClangExe { path: fake, version: (14, 0, 0) };
        let e = parse_file(&exe, &src, &opts).unwrap_err();
        if want_json {
            assert!(matches!(e, ClangError::Json { .. }), "{e}");
        } else {
            assert!(matches!(e, ClangError::Crashed { .. }), "{e}");
        }
    }
}

#[test]
fn a_missing_clang_says_how_to_install_it() {
    let e = find_clang(Some(Path::new("/nonexistent/clang-99"))).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("apt-get install clang") && msg.contains("AUTOSYNC_CLANG=PATH"), "{msg}");
}

#[test]
fn a_brace_list_keeps_its_written_elements_and_a_variable_its_desugared_type() {
    if clang().is_none() {
        return;
    }
    let (p, _dir) = parse_text(
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float *a) {\n  float r[4] = {1.0f, a[0]};\n  float t[2][3] = {0};\n  cg::thread_block b = cg::this_thread_block();\n  a[b.thread_rank()] = r[1] + t[0][0];\n}\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let k = p.model.named("k").next().unwrap();
    let nodes = k.body.as_ref().unwrap().walk();
    let var = |want: &str| {
        nodes
            .iter()
            .find(|n| matches!(&n.kind, NodeKind::Var { name, .. } if name == want))
            .unwrap_or_else(|| panic!("no `{want}`"))
    };
    // clang prints a list with a filler under `array_filler` (the filler first): only the
    // written elements are children.
    let r = &var("r").children[0];
    assert_eq!(r.kind, NodeKind::InitList);
    assert_eq!(r.children.len(), 2);
    let t = &var("t").children[0];
    assert_eq!(t.children.len(), 1);
    assert_eq!(t.children[0].kind, NodeKind::InitList);
    assert_eq!(t.children[0].children.len(), 1);
    let b = var("b");
    assert!(
        matches!(&b.kind, NodeKind::Var { desugared: Some(d), .. } if d == "cooperative_groups::thread_block"),
        "{:?}",
        b.kind
    );
}

/// The runtime header is precompiled once into the cache, so the dump holds the file's own
/// declarations only; a precompiled header clang will not read (here: truncated) falls back to
/// the text include, with the same model.
#[test]
fn the_runtime_header_is_precompiled_and_a_damaged_one_is_not_fatal() {
    let Some(exe) = clang() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.cu");
    std::fs::write(&path, "__global__ void k(float *a) { a[threadIdx.x] = 1.0f; __syncthreads(); }\n")
        .unwrap();
    let opts = ParseOptions { cache_root: Some(dir.path().join("cache")), ..ParseOptions::default() };
    let first = parse_file(&exe, &path, &opts).unwrap();
    assert!(first.stats.json_bytes < 200_000, "the stand-ins are not dumped: {:?}", first.stats);
    let header_dir = headers::ensure_headers(&dir.path().join("cache")).unwrap();
    let pch = std::fs::read_dir(&header_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "pch"))
        .expect("a precompiled header in the cache");
    let bytes = std::fs::read(&pch).unwrap();
    std::fs::write(&pch, &bytes[..1000]).unwrap();
    let second = parse_file(&exe, &path, &opts).unwrap();
    assert!(second.diagnostics.iter().all(|d| d.severity != Severity::Fatal), "{:?}", second.diagnostics);
    assert_eq!(second.model.kernels().count(), 1);
    assert!(second.stats.json_bytes > first.stats.json_bytes, "the text include was dumped");
}
