//! The clang-based model of CUDA files (`autosync::clang`): kernels, template instances,
//! launches, stand-in headers and clang's located errors, on whole application files under
//! `tests/cuda/clang/`. Needs clang 14+, which `make deps` installs: without it each test fails, saying so.

use std::path::PathBuf;

use autosync::cuda::{self as clang, ExecSpace, LaunchKind, NodeKind, ParseOptions, ParsedFile, TemplateArg};

fn input(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/clang").join(name)
}

fn parse(name: &str) -> Option<ParsedFile> {
    let exe = match clang::find_clang(None) {
        Ok(e) => e,
        Err(e) => panic!("this test needs clang 14+ (`make deps`): {e}"),
    };
    Some(clang::parse_file(&exe, &input(name), &ParseOptions::default()).unwrap())
}

#[test]
fn template_kernel_instances_follow_the_switch_dispatch() {
    let Some(p) = parse("app_reduce.cu") else { return };
    eprintln!("app_reduce.cu: {:?}", p.stats);
    assert!(p.diagnostics.iter().all(|d| d.severity != clang::Severity::Error), "{:#?}", p.diagnostics);
    let instances: Vec<_> = p.model.named("block_reduce").filter(|f| !f.is_template_pattern).collect();
    let args: Vec<_> = instances.iter().map(|f| f.template_args.clone()).collect();
    assert_eq!(
        args,
        vec![
            vec![TemplateArg::Value("128".into())],
            vec![TemplateArg::Value("256".into())],
            vec![TemplateArg::Value("512".into())]
        ]
    );
    assert!(instances.iter().all(|f| f.space == ExecSpace::Global && f.body.is_some()));
    // The instance's shared array has its size substituted.
    let i128 = instances[0];
    let shared = i128.body.as_ref().unwrap().walk().into_iter().find_map(|n| match &n.kind {
        NodeKind::Var { name, is_shared: true, .. } if name == "partial" => n.ty.clone(),
        _ => None,
    });
    assert_eq!(shared.as_deref(), Some("float[4]"));
    let params: Vec<_> = i128.params.iter().map(|p| (p.name.as_str(), p.ty.as_str())).collect();
    assert_eq!(params, [("in", "const float *__restrict"), ("out", "float *"), ("n", "int")]);

    let run = p.model.named("run_reduce").next().unwrap();
    assert_eq!(run.space, ExecSpace::Host);
    let launches: Vec<_> = run
        .launches
        .iter()
        .map(|l| {
            let callee = p.model.by_id(l.callee_id.as_deref().unwrap()).unwrap();
            (
                l.kernel.clone().unwrap(),
                callee.template_args.clone(),
                l.config.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(),
                l.args.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(),
            )
        })
        .collect();
    assert_eq!(launches.len(), 3);
    assert_eq!(launches[0].0, "block_reduce");
    assert_eq!(launches[0].1, vec![TemplateArg::Value("128".into())]);
    assert_eq!(launches[0].2, ["(n + 127) / 128", "128", "0", "stream"]);
    assert_eq!(launches[0].3, ["d_in", "d_out", "n"]);
    assert_eq!(launches[1].2, ["(n + 255) / 256", "256"]);
    assert_eq!(launches[2].1, vec![TemplateArg::Value("512".into())]);
    assert_eq!(launches[2].2, ["dim3((n + 511) / 512)", "dim3(512)"]);
    // The config text's range points at the user's file.
    let r = &run.launches[0].config[0].range;
    assert!(r.file.ends_with("app_reduce.cu"));
    assert_eq!(r.start.line, 46);
}

#[test]
fn device_functions_from_a_quoted_helper_header_and_runtime_launches() {
    let Some(p) = parse("app_reduce.cu") else { return };
    let ws = p.model.named("warp_sum").next().unwrap();
    assert_eq!(ws.space, ExecSpace::Device);
    assert!(ws.range.as_ref().unwrap().file.ends_with("reduce_helpers.cuh"));
    // Nothing of the stand-in headers leaks into the model.
    assert!(p.model.functions.iter().all(|f| !f.name.starts_with("cuda") && f.name != "printf"));

    let main = p.model.named("main").next().unwrap();
    let kinds: Vec<_> = main.launches.iter().map(|l| (l.kind, l.kernel.clone())).collect();
    assert_eq!(
        kinds,
        [
            (LaunchKind::LaunchCooperativeKernel, Some("tile_gemm".to_string())),
            (LaunchKind::Chevron, Some("scale_half".to_string()))
        ]
    );
    let coop = &main.launches[0];
    let cfg: Vec<_> = coop.config.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(cfg, ["grid", "block", "0", "0"]);
    assert_eq!(coop.args[0].text, "args");

    let gemm = p.model.named("tile_gemm").next().unwrap();
    let nodes = gemm.body.as_ref().unwrap().walk();
    // `float r[4][4] = {0};` is an initializer list on a 2-D register tile.
    assert!(nodes.iter().any(|n| matches!(&n.kind, NodeKind::Var { name, .. } if name == "r")
        && n.ty.as_deref() == Some("float[4][4]")
        && n.children.first().is_some_and(|c| c.kind == NodeKind::InitList)));
    // `blk.sync()` is a member call of the group object (the stand-in's `thread_block` members
    // are not static, unlike CUDA's, so that the call keeps its object).
    assert!(nodes.iter().any(|n| matches!(&n.kind, NodeKind::MemberCall { method: Some(m) } if m == "sync")));
    assert!(nodes.iter().any(|n| n.kind == NodeKind::BuiltinVar { var: "threadIdx".into(), field: 'y' }));

    let half = p.model.named("scale_half").next().unwrap();
    assert_eq!(half.params[0].ty, "half *");
}

#[test]
fn torch_extension_parses_with_a_note_for_the_missing_project_header() {
    let Some(p) = parse("torch_ext.cu") else { return };
    eprintln!("torch_ext.cu: {:?}", p.stats);
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    assert_eq!(p.notes[0].header.as_deref(), Some("project/common.h"));
    assert!(p.notes[0].message.contains("project/common.h"));
    assert_eq!(p.stats.clang_runs, 2);
    assert!(p.diagnostics.iter().all(|d| d.severity != clang::Severity::Error), "{:#?}", p.diagnostics);
    let kernels: Vec<_> = p.model.kernels().map(|k| k.name.as_str()).collect();
    assert_eq!(kernels, ["to_bf16", "wmma_tile"]);
    let to_bf16 = p.model.named("to_bf16").next().unwrap();
    assert_eq!(to_bf16.params[1].ty, "__nv_bfloat16 *");
    // A typedef'd parameter type comes with clang's desugared spelling.
    assert_eq!(to_bf16.params[2].ty, "int64_t");
    assert_eq!(to_bf16.params[2].desugared.as_deref(), Some("long"));
    let convert = p.model.named("convert").next().unwrap();
    let l = &convert.launches[0];
    let cfg: Vec<_> = l.config.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(cfg, ["blocks", "threads", "0", "at::cuda::getCurrentCUDAStream()"]);
    assert_eq!(l.args[0].text, "x.data_ptr<float>()");
    let wmma = p.model.named("wmma_tile").next().unwrap();
    let calls: Vec<_> = wmma
        .body
        .as_ref()
        .unwrap()
        .walk()
        .into_iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Call { callee: Some(c) } => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        calls,
        ["fill_fragment", "load_matrix_sync", "load_matrix_sync", "mma_sync", "store_matrix_sync"]
    );
}

#[test]
fn a_broken_kernel_carries_clangs_located_error_and_its_neighbour_survives() {
    let Some(p) = parse("broken.cu") else { return };
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.severity == clang::Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{:#?}", p.diagnostics);
    assert!(errors[0].file.as_deref().is_some_and(|f| f.ends_with("broken.cu")));
    assert_eq!((errors[0].line, errors[0].col), (6, 21));
    let broken = p.model.named("broken").next().unwrap();
    assert_eq!(broken.errors.len(), 1);
    assert!(broken.errors[0].message.contains("undeclared_value"));
    let fine = p.model.named("fine").next().unwrap();
    assert!(fine.errors.is_empty());
    assert!(fine
        .body
        .as_ref()
        .unwrap()
        .walk()
        .iter()
        .any(|n| matches!(&n.kind, NodeKind::CompoundAssign { op } if op == "*=")));
    let main = p.model.named("main").next().unwrap();
    assert!(main.errors.is_empty());
    assert_eq!(main.launches[0].kernel.as_deref(), Some("fine"));
    assert_eq!(main.launches[0].config.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["1", "64"]);
}
