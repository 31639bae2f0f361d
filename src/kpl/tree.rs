//! The label tree of AutoSync Sec. III-A.
//!
//! Nodes are labels; a node's parent is the label of its enclosing block; every block has its
//! start node `ℓs` as leftmost child. Blocks are `main`, if (then) blocks, else blocks and while
//! blocks. An else block is a sibling that follows its if statement, because under predicated
//! execution the else part runs after the then part. Program-text order `≺` is the post-order.

use crate::kpl::ast::{Block, Kernel, Label, StmtKind};
use crate::kpl::pending::CopyFlights;
use std::sync::Arc;

/// What a node of the label tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Main,
    /// The start node of the block given.
    Start(Label),
    /// A simple statement (assignment, access, barrier, local).
    Leaf,
    /// An `if` statement and its then block.
    If,
    /// The else block of the `if` statement given.
    Else(Label),
    /// A `while` statement and its body.
    While,
}

impl NodeKind {
    /// Whether the node is a block (has children).
    pub fn is_block(self) -> bool {
        matches!(self, NodeKind::Main | NodeKind::If | NodeKind::Else(_) | NodeKind::While)
    }
}

#[derive(Clone, Debug)]
struct Node {
    kind: NodeKind,
    parent: Option<Label>,
    children: Vec<Label>,
    post: usize,
    /// Enclosing blocks, root first (the paper's `blks`).
    blks: Vec<Label>,
}

/// The label tree of one kernel. Queries on labels the kernel does not have return empty
/// answers, never panic.
#[derive(Clone, Debug)]
pub struct LabelTree {
    nodes: Vec<Option<Node>>,
    post_order: Vec<Label>,
    /// Where the kernel's asynchronous copies may be in flight; `None` when it has none.
    flights: Option<Arc<CopyFlights>>,
}

impl LabelTree {
    pub fn new(k: &Kernel) -> LabelTree {
        let mut t =
            LabelTree { nodes: vec![None; k.label_count() as usize], post_order: Vec::new(), flights: None };
        t.add(Label::MAIN, NodeKind::Main, None, Vec::new());
        t.block(&k.body, &[Label::MAIN]);
        t.finish(Label::MAIN);
        if k.has_async_copies() {
            t.flights = Some(Arc::new(CopyFlights::new(k, &t)));
        }
        t
    }

    /// Where the kernel's asynchronous copies may be in flight (`None`: it has none).
    pub fn flights(&self) -> Option<&CopyFlights> {
        self.flights.as_deref()
    }

    /// Whether `l` labels an asynchronous copy (`async wr`).
    pub fn is_async_copy(&self, l: Label) -> bool {
        self.flights().is_some_and(|f| f.is_copy(l))
    }

    fn add(&mut self, l: Label, kind: NodeKind, parent: Option<Label>, blks: Vec<Label>) {
        let i = l.0 as usize;
        if i >= self.nodes.len() {
            self.nodes.resize(i + 1, None);
        }
        self.nodes[i] = Some(Node { kind, parent, children: Vec::new(), post: 0, blks });
        if let Some(p) = parent {
            if let Some(Some(pn)) = self.nodes.get_mut(p.0 as usize) {
                pn.children.push(l);
            }
        }
    }

    /// Adds the children of block `b` whose own label is `blks.last()`.
    fn block(&mut self, b: &Block, blks: &[Label]) {
        let me = b.label;
        self.add(b.start, NodeKind::Start(me), Some(me), blks.to_vec());
        for s in &b.stmts {
            match &s.kind {
                StmtKind::If { then, els, .. } => {
                    self.add(s.label, NodeKind::If, Some(me), blks.to_vec());
                    let inner = [blks, &[s.label]].concat();
                    self.block(then, &inner);
                    if let Some(e) = els {
                        self.add(e.label, NodeKind::Else(s.label), Some(me), blks.to_vec());
                        let inner = [blks, &[e.label]].concat();
                        self.block(e, &inner);
                    }
                }
                StmtKind::While { body, .. } => {
                    self.add(s.label, NodeKind::While, Some(me), blks.to_vec());
                    let inner = [blks, &[s.label]].concat();
                    self.block(body, &inner);
                }
                _ => self.add(s.label, NodeKind::Leaf, Some(me), blks.to_vec()),
            }
        }
    }

    fn finish(&mut self, root: Label) {
        // Iterative post-order so deep trees cannot overflow the stack.
        let mut stack = vec![(root, false)];
        while let Some((l, expanded)) = stack.pop() {
            if expanded {
                let n = self.post_order.len();
                if let Some(Some(node)) = self.nodes.get_mut(l.0 as usize) {
                    node.post = n;
                }
                self.post_order.push(l);
            } else {
                stack.push((l, true));
                for c in self.children(l).iter().rev() {
                    stack.push((*c, false));
                }
            }
        }
    }

    fn node(&self, l: Label) -> Option<&Node> {
        self.nodes.get(l.0 as usize).and_then(Option::as_ref)
    }

    /// Whether the kernel has this label.
    pub fn contains(&self, l: Label) -> bool {
        self.node(l).is_some()
    }

    pub fn kind(&self, l: Label) -> Option<NodeKind> {
        self.node(l).map(|n| n.kind)
    }

    /// The enclosing block.
    pub fn parent(&self, l: Label) -> Option<Label> {
        self.node(l).and_then(|n| n.parent)
    }

    /// Children in program order (start node first); empty for leaves.
    pub fn children(&self, l: Label) -> &[Label] {
        self.node(l).map(|n| n.children.as_slice()).unwrap_or(&[])
    }

    /// The start node of block `b`.
    pub fn start_of(&self, b: Label) -> Option<Label> {
        self.children(b).first().copied()
    }

    /// All labels in program-text order (post-order).
    pub fn post_order(&self) -> &[Label] {
        &self.post_order
    }

    /// Position in program-text order.
    pub fn order(&self, l: Label) -> usize {
        self.node(l).map(|n| n.post).unwrap_or(usize::MAX)
    }

    /// `a ≺ b` in program-text order.
    pub fn precedes(&self, a: Label, b: Label) -> bool {
        self.order(a) < self.order(b)
    }

    /// Enclosing blocks, root first (`blks(ℓ)` of the paper; excludes `ℓ` itself).
    pub fn blks(&self, l: Label) -> &[Label] {
        self.node(l).map(|n| n.blks.as_slice()).unwrap_or(&[])
    }

    /// Enclosing while blocks, outermost first.
    pub fn loops(&self, l: Label) -> Vec<Label> {
        self.blks(l).iter().copied().filter(|b| self.kind(*b) == Some(NodeKind::While)).collect()
    }

    /// Enclosing if and else blocks, outermost first.
    pub fn conds(&self, l: Label) -> Vec<Label> {
        self.blks(l)
            .iter()
            .copied()
            .filter(|b| matches!(self.kind(*b), Some(NodeKind::If | NodeKind::Else(_))))
            .collect()
    }

    /// Loops enclosing both labels, outermost first.
    pub fn shared_loops(&self, a: Label, b: Label) -> Vec<Label> {
        let lb = self.loops(b);
        self.loops(a).into_iter().filter(|l| lb.contains(l)).collect()
    }

    /// The label interval `[a, b)`: labels `ℓ` with `a ≼ ℓ ≺ b` that share all enclosing blocks
    /// with at least one bound (`blks(ℓ) ⊆ blks(a) ∪ blks(b)`), in program order.
    pub fn interval(&self, a: Label, b: Label) -> Vec<Label> {
        let (lo, hi) = (self.order(a), self.order(b));
        if lo == usize::MAX || hi == usize::MAX || lo >= hi {
            return Vec::new();
        }
        let (ba, bb) = (self.blks(a), self.blks(b));
        // `blks(a) ∪ blks(b)` is closed under enclosing blocks (each is a chain from the root),
        // so `blks(ℓ)` lies in it exactly when `ℓ`'s innermost enclosing block does: one lookup
        // per label instead of one per enclosing block (deep nests made this quadratic).
        self.post_order[lo..hi]
            .iter()
            .copied()
            .filter(|l| self.blks(*l).last().is_none_or(|p| ba.contains(p) || bb.contains(p)))
            .collect()
    }

    /// Whether `inner` lies (strictly) inside block `outer`.
    pub fn is_inside(&self, inner: Label, outer: Label) -> bool {
        self.blks(inner).contains(&outer)
    }

    /// Every label inside block `b` (its whole subtree, start nodes included), in program order:
    /// the interval `[bs, b)` without the `blks` restriction.
    pub fn subtree(&self, b: Label) -> Vec<Label> {
        self.post_order.iter().copied().filter(|l| self.is_inside(*l, b)).collect()
    }
}
