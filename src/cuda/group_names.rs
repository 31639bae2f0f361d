//! The names the cooperative-groups library gets in a file: its namespace, the aliases the file
//! gives it (`namespace cg = cooperative_groups;`) and whether `using namespace` brings its
//! vocabulary into scope. Collected once per file by `Program`; lowering asks it which library
//! member an expression names. Shared vocabulary of `program` and `lower`, a floor below both.

use crate::cuda::text;
use tree_sitter::Node;

/// The namespace of the library.
const NAMESPACE: &str = "cooperative_groups";

/// Names the library declares (types, functions, operators of `reduce`), so that an unqualified
/// use after `using namespace` gets a diagnostic naming the library rather than "unknown".
const VOCABULARY: &[&str] = &[
    "thread_block",
    "thread_group",
    "thread_block_tile",
    "grid_group",
    "multi_grid_group",
    "coalesced_group",
    "cluster_group",
    "this_thread_block",
    "this_grid",
    "this_multi_grid",
    "this_cluster",
    "tiled_partition",
    "coalesced_threads",
    "labeled_partition",
    "binary_partition",
    "sync",
    "reduce",
    "reduce_update_async",
    "inclusive_scan",
    "exclusive_scan",
    "memcpy_async",
    "wait",
    "wait_prior",
    "invoke_one",
    "invoke_one_broadcast",
    "block_tile_memory",
    "plus",
    "less",
    "greater",
    "bit_and",
    "bit_or",
    "bit_xor",
];

/// What the file says about the library's namespace.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupNames {
    /// Aliases of `cooperative_groups` (`namespace cg = cooperative_groups;`).
    aliases: Vec<String>,
    /// `using namespace cooperative_groups;` (or of an alias) at file scope.
    using: bool,
}

impl GroupNames {
    /// Records a file-scope `namespace X = cooperative_groups;` or `using namespace …;`; any
    /// other node is ignored.
    pub(crate) fn declare(&mut self, n: Node, src: &str) {
        match n.kind() {
            "namespace_alias_definition" => {
                let Some(alias) = n.child_by_field_name("name") else { return };
                let mut c = n.walk();
                let target = n.named_children(&mut c).filter(|x| x.id() != alias.id()).last();
                if target.is_some_and(|t| self.is_namespace(text(t, src))) {
                    self.aliases.push(text(alias, src).to_string());
                }
            }
            "using_declaration" => {
                let mut c = n.walk();
                let is_namespace = n.children(&mut c).any(|x| x.kind() == "namespace");
                let mut c = n.walk();
                let target = n.named_children(&mut c).last();
                if is_namespace && target.is_some_and(|t| self.is_namespace(text(t, src))) {
                    self.using = true;
                }
            }
            _ => {}
        }
    }

    /// Whether `s` (`cooperative_groups`, `::cooperative_groups`, an alias) names the library.
    fn is_namespace(&self, s: &str) -> bool {
        let s = s.trim().trim_start_matches("::").trim();
        s == NAMESPACE || self.aliases.iter().any(|a| a == s)
    }

    /// The library member `n` names (`cg::sync` → `sync`, `cg::tiled_partition<32>` →
    /// `tiled_partition`; after `using namespace`, a plain `sync` of the vocabulary), if any.
    /// Plain names are not checked against the kernel's own definitions here: see
    /// `Lx::group_member` (lowering).
    pub(crate) fn member<'s>(&self, n: Node, src: &'s str) -> Option<&'s str> {
        match n.kind() {
            "qualified_identifier" => {
                let scope = n.child_by_field_name("scope")?;
                let name = n.child_by_field_name("name")?;
                if !self.is_namespace(text(scope, src)) {
                    return None;
                }
                Some(base_name(name, src))
            }
            "identifier" | "type_identifier" | "template_function" | "template_type" if self.using => {
                let b = base_name(n, src);
                VOCABULARY.contains(&b).then_some(b)
            }
            _ => None,
        }
    }
}

/// `tiled_partition<32>` → `tiled_partition`; a nested `experimental::x` stays as written.
fn base_name<'s>(n: Node, src: &'s str) -> &'s str {
    match n.kind() {
        "template_function" | "template_type" => n.child_by_field_name("name").map_or("", |x| text(x, src)),
        _ => text(n, src),
    }
}
