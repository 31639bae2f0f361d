//! The CUDA front end's models, beyond the verdict corpora: files whose constructs (groups,
//! thread-local arrays, references, function pointers, range-for, `goto`, lambdas, typedef'd
//! elements, unions, row pointers) must lower without a refusal (their verdicts are held by
//! the corpora they belong to), exact models probed with the reference interpreter, and
//! refusals at the construct's place.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What `check` says of one kernel: clean, number of findings, and the launch facts it was
/// checked under (their sentences).
type Verdict = (bool, usize, Vec<String>);

/// Each kernel's verdict as `check` reports it for `file`, without launch facts, and the
/// messages of the kernels it refused.
fn verdicts(file: &Path) -> (BTreeMap<String, Verdict>, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .args(["check", "--format", "json", "--no-launch-facts"])
        .arg(file)
        .output()
        .expect("runs autosync");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file:?}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let mut kernels = BTreeMap::new();
    let mut refused = Vec::new();
    for f in v["files"].as_array().into_iter().flatten() {
        for k in f["kernels"].as_array().into_iter().flatten() {
            let name = k["name"].as_str().unwrap_or("?").to_string();
            let findings = k["findings"].as_array().map_or(0, Vec::len);
            let facts: Vec<String> = k["launch_facts"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|x| x.as_str().unwrap_or("?").to_string())
                .collect();
            kernels.insert(name, (k["clean"].as_bool().unwrap_or(false), findings, facts));
        }
        for r in f["refused"].as_array().into_iter().flatten() {
            refused.push(r["message"].as_str().unwrap_or("?").to_string());
        }
        if let Some(m) = f["error"]["message"].as_str() {
            refused.push(m.to_string());
        }
    }
    (kernels, refused)
}

/// Corpus files whose kernels use cooperative groups (the block, tiles, the grid, through
/// aliases, `using` and `auto`), thread-local arrays (register tiles, brace lists), references
/// (locals and parameters), function pointers (locals, parameters, kernel parameters),
/// locals' addresses given to pointer parameters, range-based `for`, `goto`, lambdas,
/// typedef'd element types, unions, arrays of structs in registers and pointers into rows:
/// every kernel lowers (the verdicts are the corpora's own expectations, checked by their tests).
#[test]
fn constructs_of_the_corpora_lower_without_refusal() {
    let files: Vec<PathBuf> = [
        "benchmarks/sdk/bitonic_sort.cu",
        "tests/cuda/lower/coop_groups.cu",
        "tests/cuda/lower/coop_groups_using.cu",
        "tests/cuda/apps/frontend/cg_grid_histogram.cu",
        "tests/cuda/lower/coop_grid_valid.cu",
        "tests/cuda/lower/coop_tiles.cu",
        "tests/cuda/lower/local_array.cu",
        "tests/cuda/fix/coop_groups.cu",
        "tests/cuda/fix/coop_tile_dot.cu",
        "tests/cuda/fix/ref_local.cu",
        "tests/cuda/fix/reference.cu",
        "tests/cuda/fix/whole/coop_groups_free_sync.cu",
        "tests/cuda/apps/frontend/cg_static_locals.cu",
        "tests/cuda/apps/frontend/cg_tile_shuffle_reduce_race.cu",
        "tests/cuda/apps/frontend/local_array_register_gemm.cu",
        "tests/cuda/apps/bounds/local_window_off_by_one.cu",
        "tests/cuda/realworld/inc_coop_groups.cu",
        "tests/cuda/realworld/local_array_race.cu",
        "tests/verify/precision/c_ref_param.cu",
        "tests/verify/precision/c_register_array_break.cu",
        "tests/verify/precision/r_coop_groups_no_sync.cu",
        "tests/cuda/lower/fn_ptr_loop_cond.cu",
        "tests/cuda/realworld/func_pointer_select.cu",
        "tests/cuda/apps/frontend/fn_ptr_select_stencil_race.cu",
        "tests/cuda/apps/frontend/local_sum_helper_reduce_race.cu",
        "tests/cuda/apps/frontend/worklist_pop_loop_cond.cu",
        "tests/cuda/apps/frontend/fn_ptr_block_reduce.cu",
        "tests/cuda/apps/frontend/fn_ptr_block_reduce_race.cu",
        "tests/cuda/realworld/range_for_register_tile.cu",
        "tests/cuda/realworld/range_for_shared_taps_race.cu",
        "tests/cuda/realworld/range_for_weights.cu",
        "tests/cuda/fix/goto.cu",
        "tests/cuda/fix/goto.fixed.cu",
        "tests/cuda/realworld/lambda_index.cu",
        "tests/cuda/realworld/lambda_race.cu",
        "tests/cuda/apps/frontend/row_sum_acc_type.cu",
        "tests/cuda/apps/frontend/row_sum_acc_type_race.cu",
        "tests/cuda/realworld/union_float_bits.cu",
        "tests/cuda/realworld/local_struct_topk.cu",
        "tests/cuda/fix/alias.cu",
        "tests/cuda/fix/alias.fixed.cu",
        "benchmarks/sdk/fft_butterfly.cu",
        "tests/cuda/realworld/sincos_out_params.cu",
    ]
    .iter()
    .map(|f| root().join(f))
    .collect();
    // Lowered only: the corpora's own tests check them.
    for f in &files {
        let lowered = crate::common::lower_path(f, autosync::cuda::FrontEndOptions::default())
            .unwrap_or_else(|d| panic!("{}: {}", f.display(), d.message));
        let refused: Vec<&str> = lowered.refused.iter().map(|d| d.message.as_str()).collect();
        assert!(refused.is_empty() && !lowered.kernels.is_empty(), "{}: refused {refused:?}", f.display());
    }
}

/// Kernels whose races hang on what the front end's memory model gives exactly: a
/// union's members read one word's bits, a thread-local array of structs keeps each thread's
/// values (its initializer's left-out words zero), a pointer into a row of a multi-dimensional
/// array keeps the row it was formed from. The first line of each kernel picks the slot.
const EXACT_MEMORY: &str = r#"//--blockDim=16,4 --gridDim=1
union IU { int i; unsigned u; };
struct Tagged { int tag; union IU v; };
struct P { int a; unsigned b; };
__device__ void set(float *p, int i, float v) { p[i] = v; }

__global__ void union_distinct(unsigned *out) {
    __shared__ unsigned s[64];
    union IU b; b.i = threadIdx.x + 16 * threadIdx.y; s[b.u] = 1;
}
__global__ void union_same(unsigned *out) {
    __shared__ unsigned s[64];
    union IU b; b.i = 0; s[b.u] = threadIdx.x;
}
__global__ void union_nested(unsigned *out) {
    __shared__ unsigned s[64];
    Tagged t; t.v.u = 3; s[t.v.i] = threadIdx.x;
}
__global__ void structs_own(int *out) {
    __shared__ int s[64];
    P m[2] = {{0, threadIdx.x + 16 * threadIdx.y}, {1, 2}}; s[m[0].b] = 1;
}
__global__ void structs_left_out(int *out) {
    __shared__ int s[64];
    P m[2] = {{0, threadIdx.x + 16 * threadIdx.y}}; s[m[1].b] = threadIdx.x;
}
__global__ void structs_copied(int *out) {
    __shared__ int s[64];
    P m[2]; m[0].b = threadIdx.x + 16 * threadIdx.y; m[1] = m[0]; m[0].b = 0; s[m[1].b] = 1;
}
__global__ void row_fixed(float *out) {
    __shared__ float tile[4][16];
    unsigned r = threadIdx.y; float *p = tile[r]; r = 0; *(p + threadIdx.x) = r;
}
__global__ void row_shared(float *out) {
    __shared__ float tile[4][16];
    float *p = &tile[0][0]; p[threadIdx.x] = threadIdx.y;
}
__global__ void row_inlined(float *out) {
    __shared__ float2 t[4][16];
    float2 *q = &t[threadIdx.y][0]; q[threadIdx.x].x = 1.0f; set(&t[threadIdx.y][0].y, 2 * threadIdx.x, 0.0f);
}
"#;

#[test]
fn clang_models_unions_local_struct_arrays_and_row_pointers_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("exact.cu");
    std::fs::write(&path, EXACT_MEMORY).expect("writes the file");
    // Whether a concrete run (exact values) sees a race, and whether `check` reports one.
    let races = [
        ("union_distinct", false),
        ("union_same", true),
        ("union_nested", true),
        ("structs_own", false),
        ("structs_left_out", true),
        ("structs_copied", false),
        ("row_fixed", false),
        ("row_shared", true),
        ("row_inlined", false),
    ];
    let (checked, refused) = verdicts(&path);
    assert!(refused.is_empty(), "{refused:?}");
    for (kernel, racy) in races {
        let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
            .args(["run", "--kernel", kernel])
            .arg(&path)
            .output()
            .expect("runs autosync");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let seen = !stdout.contains(": 0 race(s)");
        assert_eq!(seen, racy, "{kernel}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        let (clean, findings, _) = checked.get(kernel).unwrap_or_else(|| panic!("{kernel} not checked"));
        if racy {
            assert!(!clean && *findings > 0, "{kernel}: the race is not reported");
        }
    }
    // Exact where values come from no memory (the verifier takes memory's values as unknown).
    for kernel in ["union_distinct", "row_fixed"] {
        assert_eq!(checked[kernel], (true, 0, Vec::new()), "{kernel}");
    }
}

/// What these models do not cover is refused at its place: a union whose members differ in
/// size (one member's bytes are not a word's bits to another), a row pointer given to a
/// function without a body (it may step into any row).
#[test]
fn clang_refuses_wide_unions_and_row_pointers_into_unknown_functions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("refused.cu");
    std::fs::write(
        &path,
        "union Wide { double d; int i; };\n__device__ void opaque(float *p);\n\
         __global__ void wide(int *a) {\n  Wide w;\n  w.d = 1.0;\n  a[w.i] = 1;\n}\n\
         __global__ void unknown(float *a) {\n  __shared__ float t[4][16];\n  opaque(t[threadIdx.y]);\n}\n",
    )
    .expect("writes the file");
    let (checked, refused) = verdicts(&path);
    assert!(checked.is_empty(), "{checked:?}");
    assert!(refused.iter().any(|m| m.contains("the union `Wide`")), "{refused:?}");
    assert!(
        refused.iter().any(|m| m.contains("a pointer into a row") && m.contains("`opaque`")),
        "{refused:?}"
    );
}

/// A construct the front end does not model refuses that kernel at the construct,
/// saying what it is, and the file's other kernels are still checked.
#[test]
fn an_unlowered_construct_refuses_its_kernel_at_its_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("two.cu");
    std::fs::write(
        &path,
        "__global__ void ok(int *a) {\n  a[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n}\n\n\
         __global__ void jumps(int *a) {\n  if (threadIdx.x == 0)\n    goto done;\n  if (a[1]) {\n  done:\n    a[threadIdx.x] = 1;\n  }\n  a[0] = 2;\n}\n",
    )
    .expect("writes the file");
    let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .args(["check"])
        .arg(&path)
        .output()
        .expect("runs autosync");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    // A `goto` into a nested statement: irreducible in the predicated form.
    assert!(stderr.contains("unsupported: a `goto` into or out of a nested statement"), "{stderr}");
    assert!(stderr.contains("two.cu:7:5"), "{stderr}");
    assert!(stdout.contains("kernel `ok`: 0 race(s)"), "{stdout}");
}

/// The text analysed is the text given, also where the file on disk holds other bytes (bench's
/// kernels with their barriers stripped, a patched text checked again): clang reads a copy, and
/// the file's own directory still resolves its quoted includes.
#[test]
fn the_text_given_is_analysed_not_the_file_on_disk() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("tile.cuh"), "#define TILE 64\n").expect("writes the header");
    let path = dir.path().join("k.cu");
    let synced = "#include \"tile.cuh\"\n__global__ void k(int *out) {\n    __shared__ int s[TILE];\n    s[threadIdx.x] = 1;\n    __syncthreads();\n    out[threadIdx.x] = s[(threadIdx.x + 1) % TILE];\n}\n";
    std::fs::write(&path, synced).expect("writes the file");
    let stripped = synced.replace("    __syncthreads();\n", "");
    let options = autosync::cuda::FrontEndOptions { path: Some(path.clone()), ..Default::default() };
    let barriers = |text: &str| {
        let file = autosync::cuda::lower_file(text, &options).unwrap_or_else(|d| panic!("{}", d.message));
        assert!(file.refused.is_empty(), "{:?}", file.refused);
        let mut n = 0;
        file.kernels[0].walk(&mut |s| n += usize::from(matches!(s.kind, autosync::kpl::StmtKind::Barrier)));
        n
    };
    assert_eq!(barriers(synced), 1);
    assert_eq!(barriers(&stripped), 0, "the stripped text, not the file");
}
