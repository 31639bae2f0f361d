//! The label tree of AutoSync Sec. III-A on the paper's own examples: `blks`, `loops`, `conds`,
//! program-text order (post-order), label intervals `[ℓ1, ℓ2)` and barrier costs.

use autosync::config::{CostModel, Ratio};
use autosync::kpl::{parse, Kernel, Label, LabelTree, NodeKind};
use std::path::Path;

fn load(rel: &str) -> Kernel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    parse_src(rel, &src)
}

fn fig6_src() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kpl/paper/fig6.kpl"))
        .unwrap_or_default()
}

fn parse_src(name: &str, src: &str) -> Kernel {
    parse(src).unwrap_or_else(|d| panic!("{name} does not parse:\n{}", d.render(name, src)))
}

fn l(k: &Kernel, name: &str) -> Label {
    k.label_by_name(name).unwrap_or_else(|| {
        let all: Vec<&str> = k.label_names.iter().map(|n| n.name.as_str()).collect();
        panic!("no label `{name}` in {}; labels: {all:?}", k.name)
    })
}

fn names(k: &Kernel, ls: &[Label]) -> Vec<String> {
    ls.iter().map(|x| k.label_name(*x).to_string()).collect()
}

fn blks(k: &Kernel, t: &LabelTree, name: &str) -> Vec<String> {
    names(k, t.blks(l(k, name)))
}

fn interval(k: &Kernel, t: &LabelTree, a: &str, b: &str) -> Vec<String> {
    names(k, &t.interval(l(k, a), l(k, b)))
}

fn cost(t: &LabelTree, x: Label) -> Ratio {
    CostModel::default().cost(t.loops(x).len(), t.conds(x).len())
}

// ---------------------------------------------------------------------------------------------
// The worked example of Sec. III-A on Fig. 6
// ---------------------------------------------------------------------------------------------

#[test]
fn fig6_worked_example() {
    let k = load("tests/kpl/paper/fig6.kpl");
    let t = LabelTree::new(&k);
    // blks(3) = {main, 2:4}; blks(5:7) = {main}.
    assert_eq!(blks(&k, &t, "3"), ["main", "2:4"]);
    assert_eq!(blks(&k, &t, "5:7"), ["main"]);
    // [3, 6) = {3, 2:4, 5:7s}: 5:7s lies between them and shares its blocks with 6.
    assert_eq!(interval(&k, &t, "3", "6"), ["3", "2:4", "5:7s"]);
    // [3, 5:7) = {3, 2:4}: 5:7s is inside 5:7, which encloses neither bound.
    assert_eq!(interval(&k, &t, "3", "5:7"), ["3", "2:4"]);
    // The race ⟨3, 6⟩ can only be fixed by a barrier after 3 (divergent), 2:4 or 5:7s (divergent):
    // the only uniform option is after 2:4, which is what a conds-free label means.
    let uniform: Vec<String> =
        interval(&k, &t, "3", "6").into_iter().filter(|x| t.conds(l(&k, x)).is_empty()).collect();
    assert_eq!(uniform, ["2:4"]);
}

#[test]
fn fig6_post_order_is_program_text_order() {
    let k = load("tests/kpl/paper/fig6.kpl");
    let t = LabelTree::new(&k);
    // `local x;` has no explicit label: it is named by its line (with a `.2` suffix if that
    // clashes with an explicit paper label, e.g. `6.2` when it sits on line 6).
    let local = k.label_name(k.body.stmts[0].label).to_string();
    let line = fig6_src().lines().position(|x| x.trim() == "local x;").map(|i| i + 1).unwrap_or(0);
    assert!(local == line.to_string() || local == format!("{line}.2"), "`local x;` is named {local}");
    assert_eq!(
        names(&k, t.post_order()),
        ["mains", local.as_str(), "1", "2:4s", "3", "2:4", "5:7s", "6", "5:7", "main"]
    );
    for (i, x) in t.post_order().iter().enumerate() {
        assert_eq!(t.order(*x), i);
    }
    assert!(t.precedes(l(&k, "3"), l(&k, "2:4")), "a block follows its contents");
    assert!(t.precedes(l(&k, "2:4"), l(&k, "5:7s")));
    assert!(!t.precedes(l(&k, "6"), l(&k, "3")));
    // Start nodes are the leftmost children.
    assert_eq!(t.start_of(l(&k, "2:4")), Some(l(&k, "2:4s")));
    assert_eq!(t.kind(l(&k, "2:4s")), Some(NodeKind::Start(l(&k, "2:4"))));
    assert_eq!(names(&k, t.children(l(&k, "5:7"))), ["5:7s", "6"]);
    assert_eq!(t.parent(l(&k, "6")), Some(l(&k, "5:7")));
}

// ---------------------------------------------------------------------------------------------
// The intervals behind the constraints of Figs. 2, 4 and 7 (data-driven)
// ---------------------------------------------------------------------------------------------

/// (file, ℓ1, ℓ2, [ℓ1, ℓ2)).
const INTERVALS: &[(&str, &str, &str, &[&str])] = &[
    // Fig. 2: the race ⟨1, 3⟩ gives the clause L1 ∨ L2.
    ("tests/kpl/paper/fig2.kpl", "1", "3", &["1", "2"]),
    // Fig. 7: races ⟨1, 3⟩ and ⟨2, 4⟩ give L1 ∨ L2 and L2 ∨ L3; one barrier after 2 fixes both.
    ("tests/kpl/paper/fig7.kpl", "1", "3", &["1", "2"]),
    ("tests/kpl/paper/fig7.kpl", "2", "4", &["2", "3"]),
    // Fig. 4, intra-iteration option of the race ⟨2, 4⟩: L2 ∨ L3.
    ("tests/kpl/paper/fig4.kpl", "2", "4", &["2", "3"]),
    // Fig. 4, inter-iteration option: [1:5s, 2) ∪ [4, 1:5). KPL writes the paper's for-loop update
    // as the statement `i := i + 1` on line 11, so its label `11` is in [4, 1:5). The CUDA front
    // end lowers `for (...; ...; i++)` to the same statement but marks its label non-placeable
    // (a barrier cannot go inside the `for` header), so there the placeable options are exactly
    // the paper's {L1s, L4}; see `fig4_placeable_options` below for the KPL view.
    ("tests/kpl/paper/fig4.kpl", "1:5s", "2", &["1:5s"]),
    ("tests/kpl/paper/fig4.kpl", "4", "1:5", &["4", "11"]),
    // A block's labels are the interval [ℓs, ℓ).
    ("tests/kpl/paper/fig4.kpl", "1:5s", "1:5", &["1:5s", "2", "3", "4", "11"]),
    ("tests/kpl/paper/fig6.kpl", "2:4s", "2:4", &["2:4s", "3"]),
    // Empty and reversed intervals.
    ("tests/kpl/paper/fig2.kpl", "2", "2", &[]),
    ("tests/kpl/paper/fig2.kpl", "3", "1", &[]),
    // From outside a loop into it: the loop's own label is excluded (it follows its body).
    ("tests/kpl/paper/fig4.kpl", "6", "2", &["6", "1:5s"]),
];

#[test]
fn paper_intervals() {
    for (file, a, b, expected) in INTERVALS {
        let k = load(file);
        let t = LabelTree::new(&k);
        assert_eq!(interval(&k, &t, a, b), *expected, "{file}: [{a}, {b})");
    }
}

#[test]
fn fig4_loops_conds_and_costs() {
    let k = load("tests/kpl/paper/fig4.kpl");
    let t = LabelTree::new(&k);
    assert_eq!(names(&k, t.post_order()), ["mains", "5", "6", "1:5s", "2", "3", "4", "11", "1:5", "main"]);
    assert_eq!(names(&k, &t.loops(l(&k, "2"))), ["1:5"]);
    assert!(t.loops(l(&k, "1:5")).is_empty(), "a loop is not inside itself");
    assert_eq!(names(&k, &t.loops(l(&k, "1:5s"))), ["1:5"], "the start node is inside its block");
    assert_eq!(names(&k, &t.shared_loops(l(&k, "2"), l(&k, "4"))), ["1:5"]);
    assert!(t.shared_loops(l(&k, "2"), l(&k, "6")).is_empty());
    assert_eq!(t.kind(l(&k, "1:5")), Some(NodeKind::While));
    // C(1:5) = 1 (a barrier after the loop runs once); C(2) = C(1:5s) = 100 (inside the loop).
    let expected = [("1:5", 1), ("1:5s", 100), ("2", 100), ("3", 100), ("4", 100), ("11", 100), ("6", 1)];
    for (name, c) in expected {
        assert_eq!(cost(&t, l(&k, name)), Ratio::new(c, 1), "C({name})");
    }
    // The cheapest placement the paper reports (after 2 and after 4, or 1:5s and 4) costs 200.
    assert_eq!(cost(&t, l(&k, "2")).plus(&cost(&t, l(&k, "4"))), Ratio::new(200, 1));
}

#[test]
fn fig4_placeable_options() {
    let k = load("tests/kpl/paper/fig4.kpl");
    let t = LabelTree::new(&k);
    let mut inter = t.interval(l(&k, "1:5s"), l(&k, "2"));
    inter.extend(t.interval(l(&k, "4"), l(&k, "1:5")));
    let placeable: Vec<String> =
        names(&k, &inter).into_iter().filter(|x| k.place(l(&k, x)).is_placeable()).collect();
    // In KPL source every statement of the loop body can take a barrier after it.
    assert_eq!(placeable, ["1:5s", "4", "11"]);
    // The end of the kernel cannot.
    assert!(!k.place(Label::MAIN).is_placeable());
}

#[test]
fn fig6_costs_halve_under_a_conditional() {
    let k = load("tests/kpl/paper/fig6.kpl");
    let t = LabelTree::new(&k);
    assert_eq!(names(&k, &t.conds(l(&k, "3"))), ["2:4"]);
    assert_eq!(cost(&t, l(&k, "3")), Ratio::new(1, 2));
    assert_eq!(cost(&t, l(&k, "5:7s")), Ratio::new(1, 2));
    assert_eq!(cost(&t, l(&k, "2:4")), Ratio::new(1, 1));
    assert_eq!(t.kind(l(&k, "2:4")), Some(NodeKind::If));
}

// ---------------------------------------------------------------------------------------------
// Else blocks, nesting, explicit labels
// ---------------------------------------------------------------------------------------------

const IF_ELSE: &str = "\
kernel ie(n) {
  shared A[64];
  local x := 0;
  if (tid < 32) {
    x := rd A[tid];
  } else {
    wr A[tid] := x;
    while (x < n) {
      x := x + 1;
    }
  }
  barrier;
}
";

#[test]
fn else_block_follows_the_if_in_program_order() {
    let k = parse_src("ie.kpl", IF_ELSE);
    let t = LabelTree::new(&k);
    // The if is named by the lines of its then block (4:6), the else block by its own (6:11).
    assert_eq!(
        names(&k, t.post_order()),
        ["mains", "3", "4:6s", "5", "4:6", "6:11s", "7", "8:10s", "9", "8:10", "6:11", "12", "main"]
    );
    let (iff, els) = (l(&k, "4:6"), l(&k, "6:11"));
    assert_eq!(t.kind(els), Some(NodeKind::Else(iff)));
    // The else block is a sibling that follows the if, not its child.
    assert_eq!(t.parent(els), Some(Label::MAIN));
    assert_eq!(names(&k, t.children(Label::MAIN)), ["mains", "3", "4:6", "6:11", "12"]);
    assert!(t.precedes(iff, l(&k, "6:11s")));
    // conds of a label inside the else block include the else block (not the if).
    assert_eq!(names(&k, &t.conds(l(&k, "7"))), ["6:11"]);
    assert_eq!(names(&k, &t.conds(l(&k, "9"))), ["6:11"]);
    assert_eq!(names(&k, &t.loops(l(&k, "9"))), ["8:10"]);
    assert_eq!(blks(&k, &t, "9"), ["main", "6:11", "8:10"]);
    assert_eq!(names(&k, &t.conds(l(&k, "5"))), ["4:6"]);
    // A race between the then and else parts: [5, 7) = {5, 4:6, 6:11s}.
    assert_eq!(interval(&k, &t, "5", "7"), ["5", "4:6", "6:11s"]);
    // The subtree of the else block.
    assert_eq!(names(&k, &t.subtree(els)), ["6:11s", "7", "8:10s", "9", "8:10"]);
    // Costs: C(9) = 100 × 0.5; C(7) = 0.5; C(12) = 1.
    assert_eq!(cost(&t, l(&k, "9")), Ratio::new(50, 1));
    assert_eq!(cost(&t, l(&k, "7")), Ratio::new(1, 2));
    assert_eq!(cost(&t, l(&k, "12")), Ratio::new(1, 1));
    // No barrier can go between a then block and its else; after the else block it can.
    assert!(!k.place(iff).is_placeable());
    assert!(k.place(els).is_placeable());
}

#[test]
fn else_if_is_an_else_block_holding_an_if() {
    let src = "kernel ei(n) {\n  local x := 0;\n  if (n == 0) {\n    x := 1;\n  } else if (n == 1) {\n    x := 2;\n  } else {\n    x := 3;\n  }\n}\n";
    let k = parse_src("ei.kpl", src);
    let t = LabelTree::new(&k);
    let outer = k.body.stmts[1].label;
    let else_block = t.children(Label::MAIN)[3];
    assert_eq!(t.kind(else_block), Some(NodeKind::Else(outer)));
    let inner_if = t.children(else_block)[1];
    assert_eq!(t.kind(inner_if), Some(NodeKind::If));
    // `x := 3` is under the outer else and the inner else.
    let x3 = l(&k, "8");
    assert_eq!(t.conds(x3).len(), 2);
    assert_eq!(cost(&t, x3), Ratio::new(1, 4));
    assert_eq!(t.conds(x3)[0], else_block);
}

#[test]
fn nested_loops_and_blocks() {
    let src = "\
kernel nest(n) {
  shared A[64];
  local i := 0;
  local j;
  while (i < n) {
    j := 0;
    while (j < n) {
      if (tid < j) {
        wr A[tid] := j;
      }
      j := j + 1;
    }
    i := i + 1;
  }
}
";
    let k = parse_src("nest.kpl", src);
    let t = LabelTree::new(&k);
    assert_eq!(blks(&k, &t, "9"), ["main", "5:14", "7:12", "8:10"]);
    assert_eq!(names(&k, &t.loops(l(&k, "9"))), ["5:14", "7:12"]);
    assert_eq!(cost(&t, l(&k, "9")), Ratio::new(5000, 1));
    assert_eq!(cost(&t, l(&k, "11")), Ratio::new(10_000, 1));
    assert_eq!(names(&k, &t.shared_loops(l(&k, "9"), l(&k, "13"))), ["5:14"]);
    // A race from the inner loop to the outer loop's tail: [9, 13) keeps only labels whose
    // blocks enclose 9 or 13.
    assert_eq!(interval(&k, &t, "9", "13"), ["9", "8:10", "11", "7:12"]);
    assert!(t.is_inside(l(&k, "9"), l(&k, "5:14")));
    assert!(!t.is_inside(l(&k, "5:14"), l(&k, "5:14")));
}

#[test]
fn explicit_labels_and_name_clashes() {
    // `@5` is explicit, so the statement on line 5 gets the derived name `5.2`.
    let src = "kernel c() {\n  local x;\n  @5 x := 1;\n  @blk if (tid == 0) {\n    x := 2;\n  }\n}\n";
    let k = parse_src("c.kpl", src);
    let t = LabelTree::new(&k);
    assert_eq!(names(&k, t.post_order()), ["mains", "2", "5", "blks", "5.2", "blk", "main"]);
    assert!(k.label_names[l(&k, "5").0 as usize].explicit);
    assert!(!k.label_names[l(&k, "5.2").0 as usize].explicit);
}

#[test]
fn barriers_do_not_change_existing_labels_or_relations() {
    let k = load("tests/kpl/paper/fig4.kpl");
    let t = LabelTree::new(&k);
    let mut with = k.clone();
    let b = with.insert_barrier_after(l(&k, "3")).expect("3 exists");
    let tb = LabelTree::new(&with);
    assert_eq!(names(&with, tb.children(l(&k, "1:5"))), ["1:5s", "2", "3", "b3", "4", "11"]);
    for x in t.post_order() {
        assert_eq!(with.label_name(*x), k.label_name(*x));
        assert_eq!(tb.blks(*x), t.blks(*x));
    }
    assert_eq!(names(&with, &tb.loops(b)), ["1:5"]);
    assert_eq!(interval(&with, &tb, "2", "4"), ["2", "3", "b3"]);
    assert!(!with.place(b).is_placeable());
    // A barrier after a block's start node opens the block.
    let mut opened = k.clone();
    let b2 = opened.insert_barrier_after(l(&k, "1:5s")).expect("1:5s exists");
    assert_eq!(LabelTree::new(&opened).children(l(&k, "1:5"))[1], b2);
}

#[test]
fn unknown_labels_give_empty_answers() {
    let k = load("tests/kpl/paper/fig2.kpl");
    let t = LabelTree::new(&k);
    let bogus = Label(10_000);
    assert!(!t.contains(bogus));
    assert!(t.blks(bogus).is_empty() && t.loops(bogus).is_empty() && t.conds(bogus).is_empty());
    assert!(t.interval(bogus, l(&k, "3")).is_empty());
    assert!(t.interval(l(&k, "1"), bogus).is_empty());
    assert_eq!(t.kind(bogus), None);
    assert!(t.contains(l(&k, "1")));
}

#[test]
fn syncwarp_is_an_ordinary_leaf_not_a_barrier() {
    let src = "kernel s() { shared A[64]; local x; @r x := rd A[tid + 1]; @s syncwarp; @b barrier; @w wr A[tid] := x; }";
    let mut k = parse_src("syncwarp", src);
    let t = LabelTree::new(&k);
    assert_eq!(t.kind(l(&k, "s")), Some(NodeKind::Leaf));
    assert_eq!(interval(&k, &t, "r", "w"), ["r", "s", "b"]);
    assert_eq!(names(&k, &k.syncwarps()), ["s"]);
    assert_eq!(names(&k, &k.barriers()), ["b"]);
    // Removing every barrier keeps the syncwarp; a barrier can go right after it.
    let all = k.barriers();
    k.remove_barriers(&all);
    assert_eq!(names(&k, &k.syncwarps()), ["s"]);
    let s = l(&k, "s");
    let nb = k.insert_barrier_after(s).expect("a barrier after the syncwarp");
    let t = LabelTree::new(&k);
    let kids = t.children(Label::MAIN);
    let at = kids.iter().position(|x| *x == s).expect("s is a child of main");
    assert_eq!(kids.get(at + 1), Some(&nb));
    assert!(autosync::kpl::print(&k).contains("@s syncwarp;"));
}
