//! Launch facts from host code (`cuda::launch`): reports name them and where they come from, a
//! flag that overrides a part says so, `--no-launch-facts` lifts them all, a `cudaLaunchKernel`
//! launch counts as one, a kernel the file also uses outside a launch gets none, a template
//! instance takes its own launches, and a host local is the declaration its launch sees.

use crate::common::autosync_in;
use std::path::{Path, PathBuf};

fn apps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/apps/launch")
}

fn json_kernel(out: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(out).expect("one JSON document");
    v["files"][0]["kernels"][0].clone()
}

fn facts(k: &serde_json::Value) -> Vec<String> {
    k["launch_facts"]
        .as_array()
        .expect("launch_facts")
        .iter()
        .map(|f| f.as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn report_and_json_name_each_fact_and_its_line() {
    let (code, out, _) = autosync_in(&apps(), &["check", "pitched_copy_const.cu"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("note: launch: blockDim = (32, 8, 1) from the launch at line 24"), "{out}");
    assert!(out.contains("note: launch: assuming pitch = 1024, from the launch at line 24"), "{out}");
    let (_, json, _) = autosync_in(&apps(), &["check", "--format", "json", "pitched_copy_const.cu"]);
    let k = json_kernel(&json);
    assert!(facts(&k).iter().any(|f| f == "assuming width = 1000, from the launch at line 24"), "{k}");
    assert!(k["clean"].as_bool().unwrap_or(false), "{k}");
}

#[test]
fn no_launch_facts_lifts_them_all() {
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "--no-launch-facts", "pitched_copy_const.cu"]);
    let k = json_kernel(&json);
    assert!(facts(&k).is_empty(), "{k}");
    // Without the pitch the kernel may race (pitch < width): the facts were what proved it.
    assert_eq!(code, 1, "{json}");
    assert!(!k["clean"].as_bool().unwrap_or(true), "{k}");
}

#[test]
fn a_flag_that_overrides_a_part_is_named() {
    let (_, out, _) = autosync_in(&apps(), &["check", "--block-dim", "16,16", "pitched_copy_const.cu"]);
    assert!(
        out.contains("blockDim = (16, 16, 1) from --block-dim (overrides the launch at line 24)"),
        "{out}"
    );
    // The grid part still comes from the launch.
    assert!(out.contains("gridDim = (32, 100, 1) from the launch at line 24"), "{out}");
}

#[test]
fn overriding_the_block_drops_facts_built_on_it() {
    // The launch's block of 256 (and the grid computed from it) proves the kernel clean; with
    // --block-dim 512 the hard-coded stride of 256 makes blocks overlap, and the check must see it.
    let (code, out, _) = autosync_in(&apps(), &["check", "--block-dim", "512", "vector_add_fixed_block.cu"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("from --block-dim (overrides the launch at line 24)"), "{out}");
}

#[test]
fn a_kernel_used_outside_a_launch_gets_no_facts() {
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "warp_rows_kernel_table_race.cu"]);
    assert_eq!(code, 1, "{json}");
    let k = json_kernel(&json);
    let f = facts(&k);
    assert_eq!(f.len(), 1, "{k}");
    assert!(f[0].starts_with("no launch facts for `row_sums`: the file uses it at line 32"), "{k}");
}

#[test]
fn a_runtime_api_launch_is_one_of_the_launches() {
    // `cudaLaunchKernel((void *)row_sums, dim3(rows), dim3(64), args, 0, 0)` beside
    // `row_sums<<<rows, 32>>>`: both block sizes are checked, and 64 threads race.
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "warp_rows_launch_kernel_race.cu"]);
    assert_eq!(code, 1, "{json}");
    let k = json_kernel(&json);
    let f = facts(&k);
    assert!(
        f.iter().any(|x| x.contains("from the 2 launches at lines 29, 32") && x.contains("one of 32, 64")),
        "{k}"
    );
    assert!(f.iter().any(|x| x == "gridDim = (1024, 1, 1) from the 2 launches at lines 29, 32"), "{k}");
}

#[test]
fn a_template_instance_takes_only_the_launches_that_name_it() {
    // `transpose<16><<<blocks16, threads16>>>` and `transpose<32><<<blocks32, threads32>>>`: each
    // instance is checked under its own launch, not under "one of" both.
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "transpose_template_per_size.cu"]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    let kernels = v["files"][0]["kernels"].as_array().expect("kernels").clone();
    let by_name = |n: &str| kernels.iter().find(|k| k["name"] == n).cloned().expect("the instance");
    assert_eq!(
        facts(&by_name("transpose<16>"))[..2],
        [
            "blockDim = (16, 16, 1) from the launch at line 32",
            "gridDim = (256, 256, 1) from the launch at line 32"
        ]
    );
    assert_eq!(
        facts(&by_name("transpose<32>"))[..2],
        [
            "blockDim = (32, 32, 1) from the launch at line 36",
            "gridDim = (128, 128, 1) from the launch at line 36"
        ]
    );
}

#[test]
fn same_named_locals_in_two_blocks_are_two_variables() {
    // `dim3 block` declared in each branch: each launch reads its own branch's declaration.
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("scale.cu"),
        "__global__ void scale(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }\n\
         int main(int argc, char **argv) {\n\
         \x20   float *x;\n\
         \x20   cudaMalloc(&x, 1 << 20);\n\
         \x20   if (argc > 1) {\n\
         \x20       dim3 block(128);\n\
         \x20       scale<<<64, block>>>(x);\n\
         \x20   } else {\n\
         \x20       dim3 block(256);\n\
         \x20       scale<<<32, block>>>(x);\n\
         \x20   }\n\
         \x20   return 0;\n\
         }\n",
    )
    .expect("write");
    let (code, json, _) = autosync_in(tmp.path(), &["check", "--format", "json", "scale.cu"]);
    assert_eq!(code, 0, "{json}");
    let f = facts(&json_kernel(&json));
    assert!(
        f.iter().any(|x| x.contains("from the 2 launches at lines 7, 10") && x.contains("one of 128, 256")),
        "{f:?}"
    );
}

#[test]
fn an_instance_the_file_never_launches_gets_no_facts() {
    // `k<64>` is only instantiated explicitly; `k<128><<<1, 128>>>` launches the other instance.
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("k.cu"),
        "template <int N>\n__global__ void k(int *a) { a[threadIdx.x % N] = 1; }\n\
         template __global__ void k<64>(int *);\n\
         int main() {\n    int *a;\n    cudaMalloc(&a, 1024);\n    k<128><<<1, 128>>>(a);\n    return 0;\n}\n",
    )
    .expect("write");
    let (_, json, _) = autosync_in(tmp.path(), &["check", "--format", "json", "k.cu"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    let kernels = v["files"][0]["kernels"].as_array().expect("kernels").clone();
    let by_name = |n: &str| kernels.iter().find(|k| k["name"] == n).cloned().expect("the instance");
    assert_eq!(facts(&by_name("k<64>")), Vec::<String>::new(), "{json}");
    assert_eq!(facts(&by_name("k<128>"))[0], "blockDim = (128, 1, 1) from the launch at line 7", "{json}");
}

#[test]
fn path_facts_name_the_check_and_its_line_and_are_lifted_with_the_others() {
    // `dim3 block(K / 4)` before `switch (K)`: under `case 512:` the block is 128 threads.
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "row_normalize_switch_dispatch.cu"]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    let kernels = v["files"][0]["kernels"].as_array().expect("kernels").clone();
    let k128 = kernels.iter().find(|k| k["name"] == "row_normalize<128>").cloned().expect("the instance");
    let f = facts(&k128);
    assert_eq!(f[0], "blockDim = (128, 1, 1) from the launch at line 38", "{f:?}");
    assert!(
        f.iter().any(|x| x == "the launch at line 38 runs only with K == 512 (the check at line 36): its values above use it"),
        "{f:?}"
    );
    let (code, json, _) = autosync_in(
        &apps(),
        &["check", "--format", "json", "--no-launch-facts", "row_normalize_switch_dispatch.cu"],
    );
    assert_eq!(code, 1, "{json}");
    assert!(facts(&json_kernel(&json)).is_empty(), "{json}");
}

#[test]
fn a_helper_s_exit_checks_become_conditions_on_the_arguments() {
    let (code, out, _) = autosync_in(&apps(), &["check", "unpitch_layout_check.cu"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("note: launch: assuming pitch >= width: the host code ensures it at line 38 before the launch at line 44"),
        "{out}"
    );
    // The twin's helper checks the wrong dimension: its fact is stated, and the race is found.
    let (code, out, _) = autosync_in(&apps(), &["check", "unpitch_layout_check_race.cu"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("assuming pitch >= height"), "{out}");
    assert!(!out.contains("assuming pitch >= width"), "{out}");
}

#[test]
fn an_enum_parameter_is_one_of_its_enumerators_unless_the_file_casts_to_it() {
    let (code, json, _) = autosync_in(&apps(), &["check", "--format", "json", "activation_enum_switch.cu"]);
    assert_eq!(code, 0, "{json}");
    let f = facts(&json_kernel(&json));
    assert!(
        f.iter().any(|x| x.starts_with(
            "assuming act is one of the enumerators of `Activation` (Relu = 0, Tanh = 1, Sigmoid = 2): the launch at line 50 passes it typed"
        )),
        "{f:?}"
    );
    let (code, json, _) =
        autosync_in(&apps(), &["check", "--format", "json", "activation_enum_switch_race.cu"]);
    assert_eq!(code, 1, "{json}");
    let f = facts(&json_kernel(&json));
    assert!(!f.iter().any(|x| x.contains("enumerators")), "{json}");
    assert!(
        f.iter().any(|x| x
            == "no enumerator fact for `act`: the file makes a value of `Activation` other than from an enumerator at line 35"),
        "{f:?}"
    );
}

#[test]
fn a_host_check_on_a_block_size_is_dropped_with_the_block_it_is_about() {
    // The host requires a power-of-two block; --block-dim 96 replaces the launch's block, and
    // the check on the launch's block must not hide the race 96 threads have.
    let (code, out, _) = autosync_in(&apps(), &["check", "rotate_tiles_block_pow2.cu"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("assuming (blockDim.x & (blockDim.x - 1)) == 0: the host code ensures it at line 35"),
        "{out}"
    );
    let (code, out, _) = autosync_in(&apps(), &["check", "--block-dim", "96", "rotate_tiles_block_pow2.cu"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("blockDim.x & (blockDim.x - 1)"), "{out}");
}
