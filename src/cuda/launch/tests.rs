//! Unit tests of the clang launch facts: they run the real clang (14+, `make deps`) on small
//! files and read what [`HostLaunches`] makes of their host code.

use super::*;
use crate::cuda::{find_clang, parse_file, ParseOptions};

/// The model of `text` parsed as `k.cu` (the directory returned so the file outlives it).
fn model(text: &str) -> (Model, tempfile::TempDir) {
    let exe = find_clang(None).expect("these tests need clang 14+ (`make deps`)");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("k.cu");
    std::fs::write(&path, text).expect("writes the file");
    let parsed = parse_file(&exe, &path, &ParseOptions::default()).expect("clang parses the file");
    let errors: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.severity == crate::cuda::Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:?}");
    (parsed.model, dir)
}

/// The facts of the (first) kernel named `name`, no overrides.
fn facts_of(m: &Model, name: &str) -> Option<LaunchFacts> {
    let h = HostLaunches::collect(m);
    let f = m.named(name).find(|f| f.body.is_some() && !f.is_template_pattern).expect("the kernel");
    h.facts(f, m, &Overrides::default())
}

const KERNEL: &str = "__global__ void k(float *a, int n) { a[blockIdx.x * blockDim.x + threadIdx.x] = n; }\n";

#[test]
fn literal_dim3_locals_fields_and_constants_are_known() {
    let (m, _d) = model(&format!(
        "{KERNEL}constexpr int T = 128;\n#define ROWS 4\nint main() {{\n  float *a;\n  int n = 1000;\n  dim3 b;\n  b.x = T;\n  b.y = ROWS;\n  dim3 g(n / 10, 3);\n  k<<<g, b>>>(a, n);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block, [Some(128), Some(4), Some(1)]);
    assert_eq!(f.grid, [Some(100), Some(3), Some(1)]);
    assert_eq!(f.args, vec![("n".to_string(), 1000)]);
}

#[test]
fn an_integer_configuration_is_n_1_1_and_a_loop_variable_is_unknown() {
    let (m, _d) = model(&format!(
        "{KERNEL}int main() {{\n  float *a;\n  for (int t = 64; t <= 512; t *= 2)\n    k<<<(4096 + t - 1) / t, t>>>(a, 7);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block, [None, Some(1), Some(1)]);
    assert_eq!(f.grid, [None, Some(1), Some(1)]);
    assert_eq!(f.args, vec![("n".to_string(), 7)]);
}

#[test]
fn differing_launches_give_one_of_their_values() {
    let (m, _d) = model(&format!(
        "{KERNEL}int main() {{\n  float *a;\n  k<<<64, 256>>>(a, 1);\n  k<<<4096, 64>>>(a, 2);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block, [None, Some(1), Some(1)]);
    assert_eq!(f.choices, vec![vec![(0, 0, 256), (1, 0, 64)], vec![(0, 0, 64), (1, 0, 4096)]]);
    assert!(f.args.is_empty(), "{:?}", f.args);
}

#[test]
fn a_helper_parameter_every_call_passes_alike_is_known() {
    let text = |second: &str| {
        format!(
            "{KERNEL}void run(float *a, int threads) {{\n  dim3 block(threads);\n  k<<<1, block>>>(a, threads);\n}}\nint main() {{\n  float *a;\n  run(a, 64);\n  run(a, {second});\n  return 0;\n}}\n"
        )
    };
    let (m, _d) = model(&text("64"));
    assert_eq!(facts_of(&m, "k").expect("facts").block, [Some(64), Some(1), Some(1)]);
    let (m, _d) = model(&text("128"));
    assert_eq!(facts_of(&m, "k").expect("facts").block, [None, Some(1), Some(1)]);
}

#[test]
fn an_address_taken_kernel_gets_no_facts_but_a_runtime_launch_counts() {
    let (m, _d) = model(&format!(
        "{KERNEL}typedef void (*kern)(float *, int);\nkern table[] = {{k}};\nint main() {{\n  float *a;\n  k<<<1, 32>>>(a, 1);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert!(f.notes[0].0.starts_with("no launch facts for `k`"), "{:?}", f.notes);
    assert_eq!(f.block, [None; 3]);
    let (m, _d) = model(&format!(
        "{KERNEL}int main() {{\n  float *a;\n  void *args[] = {{&a}};\n  cudaFuncAttributes attr;\n  cudaFuncGetAttributes(&attr, k);\n  cudaLaunchKernel((void *)k, dim3(8), dim3(32), args, 0, 0);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!((f.block, f.grid), ([Some(32), Some(1), Some(1)], [Some(8), Some(1), Some(1)]));
    assert!(f.args.is_empty(), "the runtime launch's arguments are not read: {:?}", f.args);
}

#[test]
fn escaping_and_conditionally_assigned_locals_are_unknown() {
    let (m, _d) = model(&format!(
        "{KERNEL}void set(int &x) {{ x = 7; }}\nint main(int argc, char **argv) {{\n  float *a;\n  int t = 32;\n  set(t);\n  int g = 4;\n  if (argc > 1) g = 8;\n  k<<<g, t>>>(a, 1);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert_eq!(f.grid[0], None);
}

#[test]
fn a_template_instance_takes_its_own_launches() {
    let (m, _d) = model(
        "template <int B> __global__ void t(float *a) { a[threadIdx.x % B] = 0; }\ntemplate __global__ void t<64>(float *);\nint main() {\n  float *a;\n  t<16><<<2, 16>>>(a);\n  t<32><<<4, 32>>>(a);\n  return 0;\n}\n",
    );
    let h = HostLaunches::collect(&m);
    let inst = |arg: &str| {
        let f = m
            .named("t")
            .find(|f| matches!(f.template_args.first(), Some(crate::cuda::TemplateArg::Value(v)) if v == arg))
            .expect("the instance");
        h.facts(f, &m, &Overrides::default())
    };
    assert_eq!(inst("16").expect("facts").block, [Some(16), Some(1), Some(1)]);
    assert_eq!(inst("32").expect("facts").grid, [Some(4), Some(1), Some(1)]);
    assert!(inst("64").is_none(), "an instance never launched has no facts");
}

#[test]
fn a_grid_computed_from_an_argument_is_a_relation() {
    let (m, _d) = model(&format!(
        "{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = argc * 1000;\n  int blocks = (n + 255) / 256;\n  k<<<blocks, 256>>>(a, n);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.grid[0], None);
    let params: Vec<(String, bool)> = vec![("a".into(), false), ("n".into(), true)];
    let rel: Vec<String> =
        f.relations.iter().map(|(p, d, r)| format!("{p}{d} {}", r.show(&params))).collect();
    assert_eq!(rel, vec!["10 (n + 255) / 256".to_string()]);
}

#[test]
fn apply_binds_arguments_and_assumes_what_is_fixed_in_part() {
    let mut k =
        crate::kpl::parse("kernel k(n) { local i := tid.x + n; assume i < 100000; }").expect("parses");
    let facts = LaunchFacts {
        block: [None, Some(1), Some(1)],
        grid: [Some(4), Some(1), Some(1)],
        args: vec![("n".into(), 5)],
        params: vec![("n".into(), true)],
        ..LaunchFacts::default()
    };
    let mut consts = HashMap::new();
    consts.insert("n".to_string(), 5u32);
    substitute_block(&mut k.body, &consts);
    let text = crate::kpl::print(&k);
    assert!(text.contains("tid.x + 5"), "{text}");
    let assumed = crate::launch_facts::assumptions(&facts, &|_, _| false, false, &|_| None);
    assert!(assumed.is_empty(), "a part fixed completely and one with only x unknown: {assumed:?}");
    let before = k.label_count();
    prepend_assumptions(&mut k, vec![Expr::Const(1)], "");
    assert_eq!(k.label_count(), before + 1);
    assert!(matches!(k.body.stmts[0].kind, StmtKind::Assume { .. }));
    // Program order: the assumption comes right after the body's start.
    assert_eq!(k.body.stmts[0].label, Label(k.body.start.0 + 1));
}

#[test]
fn a_launch_of_a_prototype_is_a_launch_of_the_definition() {
    // The launch before the definition names the prototype (another clang declaration), the one
    // after it the definition: both count, so the block is "one of" their sizes, not 64 alone.
    let (m, _d) = model(
        "__global__ void k(float *a, int n);\nvoid first(float *a) { k<<<1, 32>>>(a, 1); }\n__global__ void k(float *a, const int n) { a[threadIdx.x] = n; }\nint main() {\n  float *a;\n  first(a);\n  k<<<1, 64>>>(a, 1);\n  return 0;\n}\n",
    );
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert_eq!(f.choices.len(), 2, "{:?}", f.choices);
    assert_eq!(f.args, vec![("n".to_string(), 1)]);
}

#[test]
fn a_local_changed_through_an_alias_or_a_lambda_has_no_value() {
    // The pointer is taken before the last assignment and writes after it: the assignment's 32
    // would be wrong at the launch, so the variable has no value anywhere.
    let (m, _d) = model(&format!(
        "{KERNEL}int main() {{\n  float *a;\n  int t = 16;\n  int *p = &t;\n  t = 32;\n  *p = 64;\n  int g = 2;\n  auto set = [&] {{ g = 8; }};\n  g = 4;\n  set();\n  k<<<g, t>>>(a, 1);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert_eq!(f.grid[0], None);
}

#[test]
fn a_cooperative_launch_through_a_reinterpret_cast_counts() {
    let (m, _d) = model(&format!(
        "{KERNEL}int main() {{\n  float *a;\n  void *args[] = {{&a}};\n  cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(k), dim3(2, 2), dim3(16, 16), args, 0, 0);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!((f.block, f.grid), ([Some(16), Some(16), Some(1)], [Some(2), Some(2), Some(1)]));
}

/// The conditions the facts assume, in C.
fn conds(f: &LaunchFacts) -> Vec<String> {
    f.conds.iter().map(|c| c.show(&f.params)).collect()
}

#[test]
fn a_switch_case_gives_its_value_only_without_fall_through() {
    let text = |between: &str| {
        format!(
            "{KERNEL}int run(float *a, int K) {{\n  dim3 block(K / 4);\n  switch (K) {{\n  case 256:\n    {between}\n  case 512:\n    k<<<1, block>>>(a, K);\n    break;\n  }}\n  return 0;\n}}\nint main(int argc, char **argv) {{\n  float *a;\n  return run(a, argc);\n}}\n"
        )
    };
    let (m, _d) = model(&text("break;"));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], Some(128));
    assert_eq!(f.args, vec![("n".to_string(), 512)]);
    assert!(f.notes.iter().any(|(s, _)| s.contains("runs only with K == 512")), "{:?}", f.notes);
    // `case 256:` falls through into `case 512:`: K may be 256 at the launch.
    let (m, _d) = model(&text("a = 0;"));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert!(f.args.is_empty(), "{:?}", f.args);
    // Two labels on one statement: K is one of them, so no single value.
    let (m, _d) = model(&text("").replace("case 256:\n    \n  case 512:", "case 256:\n  case 512:"));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert_eq!(conds(&f), vec!["n == 256 || n == 512"]);
}

#[test]
fn a_default_label_or_a_redefinition_after_the_check_gives_no_fact() {
    let (m, _d) = model(&format!(
        "{KERNEL}void run(float *a, int K) {{\n  switch (K) {{\n  case 1:\n  default:\n    k<<<1, K>>>(a, K);\n  }}\n}}\nint main(int argc, char **argv) {{\n  float *a;\n  run(a, argc);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert!(f.conds.is_empty(), "{:?}", f.conds);
    // `n` changes after the check: the launch does not pass the value it checked.
    let (m, _d) = model(&format!(
        "{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = argc;\n  if (n == 64) {{\n    n = n * argc;\n    k<<<1, n>>>(a, n);\n  }}\n  if (n % 32 != 0)\n    return 1;\n  n += argc;\n  k<<<1, 32>>>(a, n);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None);
    assert!(f.conds.is_empty() && f.site_conds.iter().all(Vec::is_empty), "{:?} {:?}", f.conds, f.site_conds);
}

#[test]
fn early_exits_asserts_and_checking_macros_are_facts_after_them() {
    let (m, _d) = model(&format!(
        "#include <cassert>\n#include <cstdio>\n#include <cstdlib>\n#define CHECK(c) do {{ if (!(c)) {{ fprintf(stderr, #c); exit(1); }} }} while (0)\n{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n  if (argc > 2) n = 512;\n  if (n % 256) {{\n    fprintf(stderr, \"bad\");\n    exit(1);\n  }}\n  assert(n >= 256 && n <= 4096);\n  CHECK(n != 1024);\n  if (n == 2048)\n    return 1;\n  k<<<n / 256, 256>>>(a, n);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(conds(&f), vec!["n % 256 == 0", "n >= 256", "n <= 4096", "n != 1024", "n != 2048"]);
    // A `break` in the macro's body before the check: it may be skipped.
    let (m, _d) = model(&format!(
        "#include <cstdlib>\n{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n  do {{\n    if (argc > 3) break;\n    if (n > 64) exit(1);\n  }} while (0);\n  k<<<1, 32>>>(a, n);\n  return 0;\n}}\n"
    ));
    assert!(facts_of(&m, "k").expect("facts").conds.is_empty());
}

#[test]
fn a_helper_s_checks_hold_on_its_arguments_unless_it_may_return_first() {
    let text = |first: &str| {
        format!(
            "#include <cstdlib>\n{KERNEL}static void die() {{ exit(2); }}\nstatic bool pow2(int v) {{ return v > 0 && (v & (v - 1)) == 0; }}\nstatic void check(int v, int limit) {{\n  {first}\n  if (!pow2(v)) die();\n  if (v > limit) throw 1;\n}}\nint main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n  check(n, 1024);\n  k<<<1, n>>>(a, n);\n  return 0;\n}}\n"
        )
    };
    let (m, _d) = model(&text(""));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(conds(&f), vec!["n > 0", "(n & (n - 1)) == 0", "n <= 1024"]);
    // The helper may return before its checks.
    let (m, _d) = model(&text("if (v == 3) return;"));
    assert!(facts_of(&m, "k").expect("facts").conds.is_empty());
    // A parameter the helper changes is not the argument it checks.
    let (m, _d) = model(&text("v = v / 2;"));
    assert!(facts_of(&m, "k").expect("facts").conds.is_empty());
}

#[test]
fn path_facts_do_not_cross_into_a_caller_s_activation() {
    // The recursive call passes its own `K` as `t`; the launch's `K == 64` is the callee's
    // activation's, not the caller's (main's call gives K = argc, so the launch may get t = argc).
    let (m, _d) = model(&format!(
        "{KERNEL}void run(float *a, int K, int t) {{\n  run(a, 64, K);\n  if (K == 64)\n    k<<<1, t>>>(a, K);\n}}\nint main(int argc, char **argv) {{\n  float *a;\n  run(a, argc, 64);\n  return 0;\n}}\n"
    ));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(f.block[0], None, "{:?}", f.notes);
    assert_eq!(f.args, vec![("n".to_string(), 64)]);
}

#[test]
fn an_enum_parameter_takes_its_enumerators_only_where_nothing_else_makes_one() {
    let text = |host: &str| {
        format!(
            "enum Mode {{ A = 3, B = 5 }};\n__global__ void k(float *a, Mode m) {{ a[threadIdx.x] = m; }}\nint main(int argc, char **argv) {{\n  float *a;\n  {host}\n  return 0;\n}}\n"
        )
    };
    let (m, _d) = model(&text("Mode m = argc > 1 ? A : B;\n  k<<<1, 32>>>(a, m);"));
    assert_eq!(facts_of(&m, "k").expect("facts").enums, vec![(1, vec![3, 5])]);
    // A cast or a value-initialization anywhere makes other values.
    for host in
        ["k<<<1, 32>>>(a, (Mode)argc);", "k<<<1, 32>>>(a, Mode());", "Mode m{};\n  k<<<1, 32>>>(a, m);"]
    {
        let (m, _d) = model(&text(host));
        assert!(facts_of(&m, "k").expect("facts").enums.is_empty(), "{host}");
    }
    // A runtime launch passes raw bytes.
    let (m, _d) = model(&text(
        "Mode m = A;\n  void *args[] = {&a, &m};\n  cudaLaunchKernel((void *)k, dim3(1), dim3(32), args, 0, 0);",
    ));
    assert!(facts_of(&m, "k").expect("facts").enums.is_empty());
}

#[test]
fn a_check_on_a_variable_passed_as_a_dimension_is_a_fact_on_that_dimension() {
    let text = |between: &str| {
        format!(
            "#include <cassert>\n#include <cstdlib>\n{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int t = atoi(argv[1]);\n  dim3 block(t);\n  {between}\n  assert(t <= 256);\n  k<<<t, block>>>(a, 1);\n  return 0;\n}}\n"
        )
    };
    let (m, _d) = model(&text(""));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(conds(&f), vec!["blockDim.x <= 256"]);
    // `t` changes after the block is made: the block is not the value checked (the grid is).
    let (m, _d) = model(&text("t = atoi(argv[2]);"));
    let f = facts_of(&m, "k").expect("facts");
    assert_eq!(conds(&f), vec!["gridDim.x <= 256"]);
}

#[test]
fn many_checks_before_many_launches_keep_a_bounded_number_of_facts() {
    // 600 checks before 60 launches: each launch reads at most its first checks, so the work
    // stays linear and the facts few (fewer facts are still sound).
    let mut text = format!("#include <cstdlib>\n{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n");
    for i in 0..600 {
        text.push_str(&format!("  if (n % {} == 1) exit(1);\n", i + 2));
        if i % 10 == 9 {
            text.push_str("  k<<<1, 32>>>(a, n);\n");
        }
    }
    text.push_str("  return 0;\n}\n");
    let (m, _d) = model(&text);
    let f = facts_of(&m, "k").expect("facts");
    assert!(!f.conds.is_empty() && f.conds.len() <= 32, "{}", f.conds.len());
    assert_eq!(conds(&f)[0], "n % 2 != 1");
}

#[test]
fn a_loop_condition_holds_in_its_body_and_fails_after_it_unless_a_definition_intervenes() {
    let facts = |body: &str| {
        let (m, _d) = model(&format!(
            "#include <cstdlib>\n{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n  int t = atoi(argv[2]);\n  {body}\n  return 0;\n}}\n"
        ));
        conds(&facts_of(&m, "k").expect("facts"))
    };
    // Checked before each run; changed only after the launch.
    assert_eq!(facts("while (n >= 256) {\n    k<<<1, 256>>>(a, n);\n    n /= 2;\n  }"), vec!["n >= 256"]);
    assert_eq!(facts("for (t = 1024; t >= 64; t /= 2)\n    k<<<1, t>>>(a, t);"), vec!["n >= 64"]);
    // Changed between the check and the launch: before it in the body, in the condition itself,
    // or after it in an inner loop that runs the launch again unchecked.
    assert!(facts("while (n >= 256) {\n    n /= 2;\n    k<<<1, 256>>>(a, n);\n  }").is_empty());
    assert!(facts("while (n-- > 256)\n    k<<<1, 256>>>(a, n);").is_empty());
    assert!(facts("while (n >= 256)\n    for (int i = 0; i < 2; i++) {\n      k<<<1, 256>>>(a, n);\n      n /= 2;\n    }")
        .is_empty());
    // A block made before the loop is not the value the loop checks later.
    assert!(facts("dim3 block(t);\n  while (t <= 512) {\n    k<<<1, block>>>(a, 1);\n    t *= 2;\n  }")
        .is_empty());
    // After a loop that leaves only by its condition, the condition is false.
    assert_eq!(facts("while (n < 256)\n    n *= 2;\n  k<<<1, 256>>>(a, n);"), vec!["n >= 256"]);
    assert!(facts("while (n < 256) {\n    n *= 2;\n    if (argc > 5) break;\n  }\n  k<<<1, 256>>>(a, n);")
        .is_empty());
    assert!(facts("while (n++ < 256) {}\n  k<<<1, 256>>>(a, n);").is_empty());
    // A `do` body runs once before any check.
    assert!(facts("do {\n    k<<<1, 256>>>(a, n);\n    n /= 2;\n  } while (n >= 256);").is_empty());
}

#[test]
fn a_helper_that_strips_factors_of_two_returns_1_only_for_a_power_of_two() {
    let facts = |helper: &str, check: &str, launch: &str| {
        let (m, _d) = model(&format!(
            "#include <cassert>\n#include <cstdlib>\n{KERNEL}{helper}\nint main(int argc, char **argv) {{\n  float *a;\n  int n = atoi(argv[1]);\n  unsigned log2n;\n  {check}\n  {launch}\n  return 0;\n}}\n"
        ));
        conds(&facts_of(&m, "k").expect("facts"))
    };
    let radix2 = "static unsigned factorRadix2(unsigned &log2L, unsigned L) {\n  if (!L) {\n    log2L = 0;\n    return 0;\n  }\n  for (log2L = 0; (L & 1) == 0; L >>= 1, log2L++)\n    ;\n  return L;\n}";
    let launch = "k<<<1, 32>>>(a, n);";
    let pow2 = vec!["n != 0", "(n & (n - 1)) == 0"];
    assert_eq!(facts(radix2, "assert(factorRadix2(log2n, n) == 1);", launch), pow2);
    assert_eq!(
        facts(radix2, "unsigned rem = factorRadix2(log2n, n);\n  if (rem != 1) exit(1);", launch),
        pow2
    );
    // The other direction says nothing: a result other than 1 may come from the early return.
    assert!(facts(radix2, "", "if (factorRadix2(log2n, n) != 1) k<<<1, 32>>>(a, n);").is_empty());
    // The argument changes after the call: the launch passes another value.
    assert!(facts(radix2, "unsigned rem = factorRadix2(log2n, n);\n  n += 1;\n  assert(rem == 1);", launch)
        .is_empty());
    // Halving whether or not L is even leaves 1 for every L >= 1; a `bool` result is 1 for any
    // odd part; a second change of L, or a return of 1, breaks the argument.
    let unconditional = "static unsigned top(unsigned L) {\n  while (L > 1)\n    L >>= 1;\n  return L;\n}";
    assert!(facts(unconditional, "assert(top(n) == 1);", launch).is_empty());
    let boolean = "static bool odd(unsigned L) {\n  while ((L & 1) == 0)\n    L /= 2;\n  return L;\n}";
    assert!(facts(boolean, "assert(odd(n) == 1);", launch).is_empty());
    let twice = "static unsigned f(unsigned L) {\n  while (!(L & 1)) {\n    L >>= 1;\n    L >>= 1;\n  }\n  return L;\n}";
    assert!(facts(twice, "assert(f(n) == 1);", launch).is_empty());
    let one = "static unsigned g(unsigned L) {\n  if (L > 100) return 1;\n  while (L % 2 == 0)\n    L = L / 2;\n  return L;\n}";
    assert!(facts(one, "assert(g(n) == 1);", launch).is_empty());
    let fine = "static int h(int L) {\n  if (L <= 0) return -1;\n  while (L % 2 == 0)\n    L = L / 2;\n  return L;\n}";
    assert_eq!(facts(fine, "assert(h(n) == 1);", launch), pow2);
}

#[test]
fn a_loop_whose_body_ends_in_break_runs_once() {
    let block = |body: &str| {
        let (m, _d) = model(&format!(
            "{KERNEL}int main(int argc, char **argv) {{\n  float *a;\n  int t = 256;\n  {body}\n  return 0;\n}}\n"
        ));
        facts_of(&m, "k").expect("facts").block[0]
    };
    // No second iteration: the store after the launch never reaches it.
    assert_eq!(
        block("for (int i = 0; i < 3; i++) {\n    k<<<1, t>>>(a, 1);\n    t = 512;\n    break;\n  }"),
        Some(256)
    );
    assert_eq!(block("for (int i = 0; i < 3; i++) {\n    k<<<1, t>>>(a, 1);\n    t = 512;\n    if (argc > 2) break;\n  }"), None);
    assert_eq!(
        block("for (int i = 0; i < 3; i++) {\n    if (argc > 2) continue;\n    k<<<1, t>>>(a, 1);\n    t = 512;\n    break;\n  }"),
        None
    );
    // Entered unchecked and left by its last statement: its stores before any way out hold after it.
    assert_eq!(block("for (;;) {\n    t = 128;\n    break;\n  }\n  k<<<1, t>>>(a, 1);"), Some(128));
    assert_eq!(block("while (true) {\n    t = 64;\n    break;\n  }\n  k<<<1, t>>>(a, 1);"), Some(64));
    assert_eq!(
        block("for (;;) {\n    if (argc > 2) break;\n    t = 64;\n    break;\n  }\n  k<<<1, t>>>(a, 1);"),
        None
    );
    assert_eq!(block("while (argc > 1) {\n    t = 64;\n    break;\n  }\n  k<<<1, t>>>(a, 1);"), None);
}
