//! Syntactic uniformity analysis: which variables hold the same value in every thread of a block
//! at the same dynamic point, and which blocks every thread enters or skips together.
//!
//! Flow-insensitive and conservative: a variable is uniform only if every assignment to it
//! assigns a uniform expression inside uniformly-entered blocks. A read is a uniform-read
//! *candidate* when its address is uniform (in any block: threads that execute it at the same
//! loop iterations read one value); the oracle treats its value as uniform only while the read is
//! not involved in a race (see `verify::Z3Oracle`).

use crate::kpl::{Block, Expr, Kernel, Label, StmtKind};
use rustc_hash::FxHashSet as HashSet;
use std::collections::BTreeSet;

/// The result of the analysis.
#[derive(Clone, Debug, Default)]
pub struct Uniformity {
    /// Variables that may differ between threads.
    pub varying_vars: HashSet<String>,
    /// Blocks (if, else, while) whose guard may differ between threads, directly or through an
    /// enclosing block.
    pub varying_blocks: BTreeSet<Label>,
    /// Blocks whose own guard may differ between threads (the innermost culprits).
    pub varying_guards: BTreeSet<Label>,
    /// Reads whose address is uniform (the same in every thread that executes them).
    pub uniform_read_candidates: BTreeSet<Label>,
}

impl Uniformity {
    /// Runs the analysis, treating reads in `assumed_uniform_reads` as yielding uniform values.
    pub fn analyze(k: &Kernel, assumed_uniform_reads: &BTreeSet<Label>) -> Uniformity {
        let mut u = Uniformity::default();
        loop {
            let before = (u.varying_vars.len(), u.varying_blocks.len());
            u.varying_blocks.clear();
            u.varying_guards.clear();
            u.uniform_read_candidates.clear();
            let mut varying = u.varying_vars.clone();
            u.visit(&k.body, false, assumed_uniform_reads, &mut varying);
            u.varying_vars = varying;
            if (u.varying_vars.len(), u.varying_blocks.len()) == before {
                return u;
            }
        }
    }

    /// Whether an expression has the same value in every thread, given the variables found varying.
    pub fn expr_is_uniform(&self, e: &Expr) -> bool {
        if e.mentions_tid() {
            return false;
        }
        let mut uniform = true;
        e.for_each_var(&mut |v| uniform &= !self.varying_vars.contains(v));
        uniform
    }

    fn visit(
        &mut self,
        b: &Block,
        varying_ctx: bool,
        assumed: &BTreeSet<Label>,
        varying: &mut HashSet<String>,
    ) {
        if varying_ctx {
            self.varying_blocks.insert(b.label);
        }
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Local { name, init } => {
                    if varying_ctx || init.as_ref().is_some_and(|e| !self.expr_is_uniform(e)) {
                        varying.insert(name.clone());
                    }
                }
                StmtKind::Assign { name, value } => {
                    if varying_ctx || !self.expr_is_uniform(value) {
                        varying.insert(name.clone());
                    }
                }
                StmtKind::Read { dst, index, .. } => {
                    let uniform_addr = index.iter().all(|e| self.expr_is_uniform(e));
                    // A read in a thread-dependent block is a candidate too: two threads that
                    // both execute it at the same iterations of its loops do so in one barrier
                    // interval (a barrier under thread-dependent control is divergent, and
                    // reported), so a write that makes them see different values races with it.
                    // Its destination still varies: a thread that skips the block keeps the old
                    // value.
                    if uniform_addr {
                        self.uniform_read_candidates.insert(s.label);
                    }
                    if varying_ctx || !uniform_addr || !assumed.contains(&s.label) {
                        varying.insert(dst.clone());
                    }
                }
                StmtKind::Atomic { dst: Some(d), .. } => {
                    varying.insert(d.clone());
                }
                StmtKind::Atomic { dst: None, .. }
                | StmtKind::Write { .. }
                | StmtKind::Barrier
                | StmtKind::Syncwarp
                | StmtKind::Gridsync
                | StmtKind::NamedBarrier { .. }
                | StmtKind::NamedWait { .. }
                | StmtKind::Commit
                | StmtKind::Wait { .. }
                | StmtKind::WaitOldest
                | StmtKind::Release
                | StmtKind::Assume { .. } => {}
                StmtKind::If { cond, then, els } => {
                    let guard_varies = !self.expr_is_uniform(cond);
                    if guard_varies {
                        self.varying_guards.insert(then.label);
                        if let Some(e) = els {
                            self.varying_guards.insert(e.label);
                        }
                    }
                    let ctx = varying_ctx || guard_varies;
                    self.visit(then, ctx, assumed, varying);
                    if let Some(e) = els {
                        self.visit(e, ctx, assumed, varying);
                    }
                }
                StmtKind::While { cond, body } => {
                    // The guard is re-evaluated each iteration: its uniformity depends on values
                    // the body assigns, which the fixed point in `analyze` takes into account.
                    let guard_varies = !self.expr_is_uniform(cond);
                    if guard_varies {
                        self.varying_guards.insert(body.label);
                    }
                    self.visit(body, varying_ctx || guard_varies, assumed, varying);
                }
            }
        }
    }
}
