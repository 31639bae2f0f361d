//! The clang front end beside the classic one (issue #36's migration, `--front-end clang`):
//! on every kernel of our corpora that it lowers, `check` gives the classic front end's verdict
//! and `fix` its placement; what it does not lower yet is refused at its place, never guessed.
//! Both run without launch facts, except on the launch-fact corpus, where each kernel must also
//! get the same facts from the host code (clang's typed AST against the classic syntax).

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

/// Each kernel's verdict as `check` reports it with `front_end` for `files` (one run), and the
/// messages of the kernels it refused. Launch facts are read from the host code when
/// `launch_facts`; `extra` are further flags.
fn verdicts_of(
    files: &[PathBuf],
    front_end: &str,
    launch_facts: bool,
    extra: &[&str],
) -> (BTreeMap<String, Verdict>, Vec<String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autosync"));
    cmd.args(["check", "--format", "json", "--front-end", front_end]).args(extra);
    if !launch_facts {
        cmd.arg("--no-launch-facts");
    }
    let out = cmd.args(files).output().expect("runs autosync");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{files:?}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let mut kernels = BTreeMap::new();
    let mut refused = Vec::new();
    for f in v["files"].as_array().into_iter().flatten() {
        let file = f["file"].as_str().unwrap_or("?");
        for k in f["kernels"].as_array().into_iter().flatten() {
            let name = k["name"].as_str().unwrap_or("?").to_string();
            let findings = k["findings"].as_array().map_or(0, Vec::len);
            let facts: Vec<String> = k["launch_facts"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|x| x.as_str().unwrap_or("?").to_string())
                .collect();
            // One file per run elsewhere; several here: the file names the kernel apart.
            let key = if files.len() == 1 { name } else { format!("{file}: {name}") };
            kernels.insert(key, (k["clean"].as_bool().unwrap_or(false), findings, facts));
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

/// Each kernel's verdict as `check` reports it with `front_end`, without launch facts.
fn verdicts(file: &Path, front_end: &str) -> (BTreeMap<String, Verdict>, Vec<String>) {
    verdicts_of(&[file.to_path_buf()], front_end, false, &[])
}

/// The kernels of two runs that both lowered: (how many, how many only the classic run lowered,
/// the disagreements in words). A kernel only the clang run lowered is not compared (the clang
/// front end reads C++ the classic one refuses); the corpus tests hold it to the truth.
fn compare(
    what: &str,
    classic: &BTreeMap<String, Verdict>,
    clang: &BTreeMap<String, Verdict>,
) -> (usize, usize, Vec<String>) {
    let (mut both, mut classic_only) = (0, 0);
    let mut disagreements = Vec::new();
    for (name, v) in classic {
        match clang.get(name) {
            Some(w) if w == v => both += 1,
            Some(w) => disagreements.push(format!("{what} `{name}`: classic {v:?}, clang {w:?}")),
            None => classic_only += 1,
        }
    }
    (both, classic_only, disagreements)
}

/// The `.cu` files under `dirs`, but not the modern corpus (`tests/cuda/apps/modern`, written
/// for the clang front end and held to the truth by its own test: the classic front end refuses
/// most of it and times out on some).
fn cu_files(dirs: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| root().join(d)).collect();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("reads the corpus").flatten() {
            let p = e.path();
            if p.is_dir() && p.ends_with("tests/cuda/apps/modern") {
                continue;
            } else if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cu") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Runs both front ends over `files`; returns (kernels both lowered, kernels only the classic
/// front end lowered) and fails on any kernel whose verdicts differ.
fn differential(files: &[PathBuf]) -> (usize, usize) {
    let (mut both, mut classic_only) = (0, 0);
    let mut disagreements = Vec::new();
    for f in files {
        let (classic, _) = verdicts(f, "classic");
        let (clang, _) = verdicts(f, "clang");
        let (b, c, d) = compare(&f.display().to_string(), &classic, &clang);
        both += b;
        classic_only += c;
        disagreements.extend(d);
    }
    assert!(disagreements.is_empty(), "the front ends disagree:\n{}", disagreements.join("\n"));
    (both, classic_only)
}

/// The launch-fact corpus with the facts read from the host code: every kernel the clang front
/// end lowers gets the classic verdict under the same facts, sentence for sentence (geometry
/// and where it comes from, argument values, relations, "one of" several launches, a kernel
/// used outside a launch).
#[test]
fn clang_reads_the_classic_launch_facts() {
    let files = cu_files(&["tests/cuda/apps/launch"]);
    let (classic, _) = verdicts_of(&files, "classic", true, &[]);
    let (clang, _) = verdicts_of(&files, "clang", true, &[]);
    let (both, _, disagreements) = compare("launch", &classic, &clang);
    assert!(disagreements.is_empty(), "the front ends disagree:\n{}", disagreements.join("\n"));
    assert!(both >= 26, "only {both} kernels compared");
    // The agreement is on facts, not on their absence.
    let with_geometry = clang.values().filter(|v| v.2.iter().any(|f| f.starts_with("blockDim = ("))).count();
    assert!(with_geometry >= 24, "only {with_geometry} kernels with launch geometry: {clang:?}");
    // The command line overrides the launches' block alike (and the race it lets in is found).
    let file = [root().join("tests/cuda/apps/launch/vector_add_fixed_block.cu")];
    let over = ["--block-dim", "512"];
    let (classic, _) = verdicts_of(&file, "classic", true, &over);
    let (clang, _) = verdicts_of(&file, "clang", true, &over);
    assert_eq!(clang, classic);
    assert!(clang.values().all(|v| !v.0 && v.2[0].contains("from --block-dim")), "{clang:?}");
}

/// The benchmark kernels the paper's Table II and our plain suite hold: every one lowers with
/// clang, and each verdict is the classic front end's.
#[test]
fn clang_lowers_every_plain_benchmark_with_the_classic_verdicts() {
    let files = cu_files(&["benchmarks/micro", "benchmarks/plain"]);
    let (both, classic_only) = differential(&files);
    assert_eq!(classic_only, 0, "kernels the clang front end refused");
    assert!(both >= 42, "only {both} kernels compared");
}

/// Corpus files whose kernels use cooperative groups (the block, tiles, the grid, through
/// aliases, `using` and `auto`), thread-local arrays (register tiles, brace lists), references
/// (locals and parameters), function pointers (locals, parameters, kernel parameters),
/// locals' addresses given to pointer parameters, range-based `for`, `goto` and lambdas: every
/// kernel lowers with clang, with the classic verdict.
#[test]
fn clang_lowers_groups_arrays_references_fn_pointers_range_for_goto_and_lambdas_with_the_classic_verdicts() {
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
    for f in &files {
        let (clang, refused) = verdicts(f, "clang");
        assert!(refused.is_empty() && !clang.is_empty(), "{}: refused {refused:?}", f.display());
    }
    let (both, classic_only) = differential(&files);
    assert_eq!(classic_only, 0, "kernels the clang front end refused");
    assert!(both >= files.len(), "only {both} kernels compared");
}

/// `fix` on the paper's micro benchmarks without their barriers writes the same barriers with
/// either front end (the places come from clang's ranges).
#[test]
fn fix_with_clang_writes_the_classic_placement() {
    let dir = tempfile::tempdir().expect("temp dir");
    for f in cu_files(&["benchmarks/micro"]) {
        let text = std::fs::read_to_string(&f).expect("reads the benchmark");
        let stripped: String =
            text.lines().filter(|l| !l.contains("__syncthreads();")).map(|l| format!("{l}\n")).collect();
        let path = dir.path().join(f.file_name().expect("a file name"));
        std::fs::write(&path, stripped).expect("writes the stripped kernel");
        let diff = |front_end: &str| {
            let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
                .args(["fix", "--diff", "--front-end", front_end])
                .arg(&path)
                .output()
                .expect("runs autosync");
            (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let classic = diff("classic");
        assert!(
            classic.1.contains("+    ") || classic.1.contains("+        "),
            "{}: no barrier: {}",
            f.display(),
            classic.1
        );
        assert_eq!(diff("clang"), classic, "{}", f.display());
    }
}

/// Kernels whose races hang on what the clang front end's memory model gives exactly: a
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
    let (checked, refused) = verdicts(&path, "clang");
    assert!(refused.is_empty(), "{refused:?}");
    for (kernel, racy) in races {
        let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
            .args(["run", "--front-end", "clang", "--kernel", kernel])
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
    let (checked, refused) = verdicts(&path, "clang");
    assert!(checked.is_empty(), "{checked:?}");
    assert!(refused.iter().any(|m| m.contains("the union `Wide`")), "{refused:?}");
    assert!(
        refused.iter().any(|m| m.contains("a pointer into a row") && m.contains("`opaque`")),
        "{refused:?}"
    );
}

/// A construct the clang front end does not lower yet refuses that kernel at the construct,
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
        .args(["check", "--front-end", "clang"])
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

/// A backward `goto` is a loop whose body starts after its label: `fix` puts the barriers
/// where the classic front end does (after `step:`, indented like the statement under it).
#[test]
fn fix_with_clang_places_barriers_in_a_goto_loop_like_classic() {
    let f = root().join("tests/cuda/fix/goto.cu");
    let diff = |front_end: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_autosync"))
            .args(["fix", "--diff", "--front-end", front_end])
            .arg(&f)
            .output()
            .expect("runs autosync");
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let classic = diff("classic");
    assert!(classic.1.contains("step:\n+    __syncthreads();"), "{}", classic.1);
    assert_eq!(diff("clang"), classic);
}

/// Every corpus of ours: no kernel the clang front end lowers gets another verdict than with
/// the classic front end. Prints, per corpus, how many kernels it lowers and how many it does
/// not yet (where the migration stands: `--nocapture`).
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn clang_agrees_with_classic_on_every_corpus() {
    let mut total = 0;
    for corpus in ["benchmarks", "tests/cuda/apps", "tests/cuda/realworld", "tests/cuda/fix", "tests/verify"]
    {
        let (both, classic_only) = differential(&cu_files(&[corpus]));
        eprintln!(
            "{corpus}: {both} kernels lowered with the classic verdicts, {classic_only} not lowered yet"
        );
        total += both;
    }
    assert!(total >= 180, "only {total} kernels compared");
}

/// Every corpus of ours with launch facts read from the host code: each kernel the clang front
/// end lowers gets the classic verdict and the same fact sentences. One difference is allowed,
/// in clang's favour: the classic front end takes any identifier spelled like a kernel for a use
/// of it (a parameter named `histo` of kernel `histo`), clang resolves declarations, so where the
/// classic front end gives only "no launch facts …" clang may give no sentence at all (the file
/// shows no launch), with the same verdict.
#[test]
#[ignore = "slow tier: `make test-slow` runs it, and CI does"]
fn clang_reads_the_classic_launch_facts_on_every_corpus() {
    let mut total = 0;
    let mut disagreements = Vec::new();
    for corpus in ["benchmarks", "tests/cuda/apps", "tests/cuda/realworld", "tests/cuda/fix", "tests/verify"]
    {
        let files = cu_files(&[corpus]);
        let (classic, _) = verdicts_of(&files, "classic", true, &[]);
        let (mut clang, _) = verdicts_of(&files, "clang", true, &[]);
        for (name, v) in &classic {
            let only_a_name_clash = v.2.len() == 1 && v.2[0].starts_with("no launch facts for");
            if let Some(w) = clang.get_mut(name).filter(|w| only_a_name_clash && w.2.is_empty()) {
                w.2 = v.2.clone();
            }
        }
        let (both, classic_only, d) = compare(corpus, &classic, &clang);
        eprintln!(
            "{corpus}: {both} kernels with the classic verdicts and facts, {classic_only} not lowered yet"
        );
        total += both;
        disagreements.extend(d);
    }
    assert!(disagreements.is_empty(), "the front ends disagree:\n{}", disagreements.join("\n"));
    assert!(total >= 280, "only {total} kernels compared");
}
