//! libcu++'s block barrier (`cuda::barrier<cuda::thread_scope_block>`, issue #38) and the
//! asynchronous copies it completes (`cuda::memcpy_async(…, bar)`).
//!
//! A barrier initialized for every thread of the block (`init(&bar, blockDim.x)`,
//! `init(&bar, block.size())`) is, at `bar.arrive_and_wait()`, `__syncthreads()`: every thread
//! arrives and waits for all, and — reached by some threads only — it diverges as one does (KPL
//! `barrier`). The copies attached to it land when the phase completes: each thread's copies in
//! flight are waited for there (`commit; wait 0;` before the barrier), so a file that also
//! waits for groups of `cp.async` copies has its barrier copies refused (the two would be
//! confused). A group's copy
//! (`cuda::memcpy_async(block, dst, src, bytes, bar)`) is taken to be made by the group's first
//! thread: any other thread's access before the barrier meets it, and the first thread's own
//! access is a race with its own copy. Split phases (`token = bar.arrive()` …
//! `bar.wait(std::move(token))`) and barriers of a constant number of threads are named
//! barriers (`kpl::named`, ids from 16 on, one per object): the arrival joins an instance, the
//! token is a local holding its number, the wait waits for it; `arrive_and_wait` of such an
//! object is a `bar sync`. Other expected counts and block-scope pipelines are refused with
//! what they are (thread-scope pipelines: `pipeline_object.rs`).

use super::{strip, Lx, Node, NodeKind, R};
use crate::kpl::ast::{BinOp, Builtin, Dim, Expr, Stmt, StmtKind, Width, WriteMode};

/// What the lowering knows of a barrier object.
#[derive(Clone, Debug, Default)]
pub(super) struct BarrierObject {
    /// Its name in the source.
    name: String,
    /// Initialized with the block's size: its `arrive_and_wait` is the block's barrier.
    every_thread: bool,
    /// Initialized with a constant number of threads.
    count: Option<u32>,
    /// Its id as a named barrier (KPL `bar`): after PTX's 16 hardware barriers, one per object
    /// in the order the kernel declares them.
    named_id: u32,
}

use crate::kpl::named::FIRST_OBJECT_ID;

/// `e` without clang's wrappers around an object passed or returned by value
/// (`ExprWithCleanups`, the token's move construction, temporaries, casts) and `std::move(x)`.
pub(super) fn core(mut n: &Node) -> &Node {
    loop {
        match &n.kind {
            NodeKind::Other { kind }
                if matches!(
                    kind.as_str(),
                    "ExprWithCleanups"
                        | "CXXConstructExpr"
                        | "MaterializeTemporaryExpr"
                        | "CXXBindTemporaryExpr"
                ) && n.children.len() == 1 =>
            {
                n = &n.children[0]
            }
            NodeKind::ImplicitCast { .. } | NodeKind::Paren if n.children.len() == 1 => n = &n.children[0],
            NodeKind::Call { callee: Some(c) } if c == "move" && n.children.len() == 2 => n = &n.children[1],
            _ => return n,
        }
    }
}

/// Whether a type is libcu++'s block-scope barrier.
fn is_block_barrier(ty: &str) -> bool {
    let t = ty.trim();
    (t.starts_with("cuda::barrier<") || t.starts_with("cuda::std::barrier<"))
        && t.contains("thread_scope_block")
}

/// Whether `e` is the number of threads in the block (`bdim.x`, or the product of the three
/// dimensions in any order of association).
fn is_block_size(e: &Expr) -> bool {
    fn dims(e: &Expr, out: &mut Vec<Dim>) -> bool {
        match e {
            Expr::Builtin(Builtin::BlockDim(d)) => {
                out.push(*d);
                true
            }
            Expr::Binary(BinOp::Mul | BinOp::UMul | BinOp::IUMul | BinOp::UIMul, a, b) => {
                dims(a, out) && dims(b, out)
            }
            _ => false,
        }
    }
    let mut found = Vec::new();
    if !dims(e, &mut found) {
        return false;
    }
    found.sort_by_key(|d| *d as u8);
    found == [Dim::X] || found == [Dim::X, Dim::Y, Dim::Z]
}

/// What a variable of a synchronization type autosync does not model yet is, for its refusal.
pub(super) fn unmodelled_sync_type(ty: &str) -> Option<&'static str> {
    let t = ty.trim().trim_start_matches("const ").trim();
    if t.contains("::arrival_token") {
        Some("a `cuda::barrier` arrival token (a split `arrive()`/`wait(token)`: not modelled yet)")
    } else if t.starts_with("cuda::pipeline_shared_state<") {
        Some("a block-scope `cuda::pipeline`'s shared state (only thread-scope pipelines, `cuda::make_pipeline()`, are modelled)")
    } else if t.starts_with("cuda::pipeline<") {
        Some("a `cuda::pipeline` other than a thread-scope one from `cuda::make_pipeline()`")
    } else if t.starts_with("cuda::barrier<") || t.starts_with("cuda::std::barrier<") {
        Some("a `cuda::barrier` other than a `__shared__` one of block scope")
    } else {
        None
    }
}

impl Lx<'_> {
    /// A `__shared__` barrier object's declaration: no KPL state. `None`: not one.
    pub(super) fn barrier_object_decl(&mut self, (id, name): (&str, &str), ty: &str) -> Option<()> {
        is_block_barrier(ty).then(|| {
            let named_id = FIRST_OBJECT_ID + self.barrier_objects.len() as u32;
            let object = BarrierObject { name: name.to_string(), named_id, ..BarrierObject::default() };
            self.barrier_objects.insert(id.to_string(), object);
        })
    }

    /// The source names of the barrier objects, by named barrier id (`Kernel::barrier_names`).
    pub(super) fn barrier_names(&self) -> std::collections::BTreeMap<u32, String> {
        self.barrier_objects.values().map(|b| (b.named_id, b.name.clone())).collect()
    }

    /// The named barrier of object `id` with its thread count (`None`: the whole block), for a
    /// split arrival or a wait; an error where `init` gave no count the lowering knows.
    fn object_barrier(&self, id: &str, n: &Node) -> R<(u32, Option<u32>)> {
        match self.barrier_objects.get(id) {
            Some(b) if b.every_thread => Ok((b.named_id, None)),
            Some(BarrierObject { count: Some(c), named_id, .. }) => Ok((*named_id, Some(*c))),
            _ => Err(self.unsupported(
                "a `cuda::barrier` whose expected count is neither the block's size nor a constant",
                n,
            )),
        }
    }

    /// `auto token = bar.arrive();`: the arrival, and the token as a local holding the
    /// instance it joined (what `bar.wait(std::move(token))` waits for). `None`: not a token.
    pub(super) fn arrival_token_decl(
        &mut self,
        v: &Node,
        (id, name): (&str, &str),
        ty: &str,
    ) -> Option<R<()>> {
        if !ty.contains("::arrival_token") {
            return None;
        }
        let init = v.children.first().map(core)?;
        let NodeKind::MemberCall { method: Some(m) } = &init.kind else {
            return Some(Err(self.unsupported("an arrival token not initialized by `bar.arrive()`", v)));
        };
        let obj = init.children.first().map(super::strip_callee).and_then(|c| c.children.first());
        let Some(object) = obj.and_then(|o| self.barrier_object_id(o)) else {
            return Some(Err(
                self.unsupported("an arrival token of something else than a `__shared__` `cuda::barrier`", v)
            ));
        };
        if m != "arrive" {
            return Some(Err(self.unsupported(format!("an arrival token from `{m}`"), v)));
        }
        Some(self.split_arrive(&object, init).map(|bar| {
            let kpl = self.declare(name);
            self.emit(StmtKind::Local {
                name: kpl.clone(),
                init: Some(Expr::Var(crate::kpl::named::arrived(bar))),
            });
            self.tokens.insert(id.to_string(), (kpl.clone(), bar));
            self.bindings.insert(id.to_string(), super::Binding::Scalar { kpl, ty: super::Ty::UInt });
        }))
    }

    /// `bar.arrive()` (its one-argument form with 1): an arrival that does not wait. The
    /// barrier's named id.
    fn split_arrive(&mut self, object: &str, call: &Node) -> R<u32> {
        let args: Vec<&Node> =
            call.children[1..].iter().filter(|c| super::groups::not_default_arg(c)).collect();
        if let [update] = args.as_slice() {
            let (e, _) = self.rvalue(update)?;
            if e.constant_value() != Some(1) {
                return Err(
                    self.unsupported("`arrive(n)` of a `cuda::barrier` with a count other than 1", call)
                );
            }
        }
        let (bar, count) = self.object_barrier(object, call)?;
        self.emit(StmtKind::NamedBarrier { id: bar, count, wait: false });
        Ok(bar)
    }

    /// The barrier object `n` names (`bar`, or `&bar`).
    fn barrier_object_id(&self, n: &Node) -> Option<String> {
        let mut s = strip(n);
        if let (NodeKind::Unary { op, .. }, [x]) = (&s.kind, s.children.as_slice()) {
            if op == "&" {
                s = strip(x);
            }
        }
        match &s.kind {
            NodeKind::DeclRef { decl_id, .. } if self.barrier_objects.contains_key(decl_id) => {
                Some(decl_id.clone())
            }
            _ => None,
        }
    }

    /// `init(&bar, count)` and `cuda::memcpy_async(…, bar)`. `None`: another call.
    pub(super) fn barrier_object_call(&mut self, name: &str, args: &[Node], n: &Node) -> Option<R<()>> {
        match name {
            "init" if args.len() == 2 => {
                let id = self.barrier_object_id(&args[0])?;
                Some(self.rvalue(&args[1]).map(|(count, _)| {
                    let every = is_block_size(&count);
                    let constant = count.constant_value();
                    if let Some(b) = self.barrier_objects.get_mut(&id) {
                        b.every_thread = every;
                        b.count = constant;
                    }
                }))
            }
            "memcpy_async" => {
                let last = args.last()?;
                if self.pipeline_id(last).is_some() {
                    return Some(self.pipeline_copy(args, n));
                }
                if self.barrier_object_id(last).is_none() {
                    return Some(Err(self.unsupported(
                        "`cuda::memcpy_async` completed by something other than a `__shared__` block `cuda::barrier` or the kernel's thread-scope `cuda::pipeline`",
                        n,
                    )));
                }
                Some(self.barrier_copy(args, n))
            }
            _ => None,
        }
    }

    /// How the file's copies complete, read once from clang's tree of every function: (some
    /// `cuda::memcpy_async` is completed by a barrier, some copies are waited for by groups —
    /// an `asm` statement with `cp.async`, a pipeline primitive).
    fn copy_completions(&mut self) -> (bool, bool) {
        if let Some(c) = self.copy_completions {
            return c;
        }
        let (mut barrier, mut groups) = (false, false);
        for b in self.model.functions.iter().filter_map(|f| f.body.as_ref()) {
            for x in b.walk() {
                match &x.kind {
                    NodeKind::Call { callee: Some(name) } if name == "memcpy_async" => {
                        let completion = x.children.last().and_then(|a| strip(a).ty.as_deref());
                        barrier |= completion.is_some_and(is_block_barrier);
                        groups |= completion.is_some_and(super::pipeline_object::is_thread_pipeline);
                    }
                    NodeKind::Call { callee: Some(name) } if name.starts_with("__pipeline_") => groups = true,
                    NodeKind::Other { kind } if kind == "GCCAsmStmt" => {
                        let text =
                            self.span_of(x).and_then(|s| self.src.get(s.start..s.end)).unwrap_or_default();
                        groups |= super::async_copy::asm_template(self.src, text)
                            .is_some_and(|t| t.contains("cp.async"));
                    }
                    _ => {}
                }
            }
        }
        self.copy_completions = Some((barrier, groups));
        (barrier, groups)
    }

    /// `cuda::memcpy_async([group,] dst, src, bytes, bar)`.
    fn barrier_copy(&mut self, args: &[Node], n: &Node) -> R<()> {
        if self.copy_completions().1 {
            return Err(self.unsupported(
                "copies completed by a `cuda::barrier` in a file that also waits for `cp.async` groups (not modelled together)",
                n,
            ));
        }
        let (group, rest) = match args.len() {
            5 => (true, &args[1..4]),
            4 => (false, &args[..3]),
            _ => return Err(self.unsupported("this `cuda::memcpy_async`", n)),
        };
        let (size, _) = self.rvalue(&rest[2])?;
        let Some(bytes) = size.constant_value() else {
            return Err(self.unsupported("`cuda::memcpy_async` of a size that is not a constant", n));
        };
        let (dst, dword, doff) = self.pointer_words(&rest[0])?;
        let (src, sword, soff) = self.pointer_words(&rest[1])?;
        let (Some(dword), Some(sword)) = (dword, sword) else {
            return Err(
                self.unsupported("`cuda::memcpy_async` between pointers whose words have no one size", n)
            );
        };
        if dword != sword || dword == 0 || !bytes.is_multiple_of(dword) {
            return Err(self.unsupported("`cuda::memcpy_async` between words of different sizes", n));
        }
        let words = bytes / dword;
        let emit_copy = |lx: &mut Self| -> R<()> {
            // Word by word: a copy may be larger than one access covers.
            let i = lx.fresh("copy_word");
            lx.emit(StmtKind::Local { name: i.clone(), init: Some(Expr::Const(0)) });
            let at = |off: &Expr| Expr::Binary(BinOp::Add, Box::new(off.clone()), Box::new(Expr::var(&i)));
            let (sarr, sidx) = lx.in_memory(src.clone(), vec![at(&soff)]);
            let (darr, didx) = lx.in_memory(dst.clone(), vec![at(&doff)]);
            let v = lx.fresh("copied");
            let body = vec![
                StmtKind::Local { name: v.clone(), init: None },
                StmtKind::Read { dst: v.clone(), array: sarr, index: sidx, width: Width::ONE },
                StmtKind::Write {
                    array: darr,
                    index: didx,
                    value: Expr::var(&v),
                    width: Width::ONE,
                    mode: WriteMode::Async,
                },
                StmtKind::Assign {
                    name: i.clone(),
                    value: Expr::Binary(BinOp::Add, Box::new(Expr::var(&i)), Box::new(Expr::Const(1))),
                },
            ];
            let cond = Expr::Binary(BinOp::ULt, Box::new(Expr::var(&i)), Box::new(Expr::Const(words)));
            lx.emit_simple_loop(cond, body)
        };
        if !group {
            return emit_copy(self);
        }
        // The group's copy, made by its first thread.
        let first = [Dim::X, Dim::Y, Dim::Z]
            .into_iter()
            .map(|d| {
                Expr::Binary(BinOp::Eq, Box::new(Expr::Builtin(Builtin::Tid(d))), Box::new(Expr::Const(0)))
            })
            .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
            .unwrap_or(Expr::Const(1));
        let span = self.cur_span;
        let label = self.label();
        let then = self.open_block(label, None, emit_copy)?;
        self.out.push(Stmt { label, kind: StmtKind::If { cond: first, then, els: None }, span });
        Ok(())
    }

    /// `bar.m(…)` of a barrier object. `None`: `obj` is not one.
    pub(super) fn barrier_object_method(&mut self, obj: &Node, method: &str, n: &Node) -> Option<R<()>> {
        let id = self.barrier_object_id(obj)?;
        let every = self.barrier_objects.get(&id).is_some_and(|b| b.every_thread);
        Some(match method {
            "arrive_and_wait" if every => {
                if self.copy_completions() == (true, false) {
                    // The copies attached to the barrier land as its phase completes.
                    self.emit(StmtKind::Commit);
                    self.emit(StmtKind::Wait { pending: 0 });
                }
                self.emit(StmtKind::Barrier);
                Ok(())
            }
            // Initialized for part of the block: a named barrier of that many threads.
            "arrive_and_wait" => self.object_barrier(&id, n).map(|(bar, count)| {
                self.emit(StmtKind::NamedBarrier { id: bar, count, wait: true });
            }),
            // The token dropped: an arrival that nobody waits for.
            "arrive" => self.split_arrive(&id, n).map(|_| ()),
            "wait" => {
                let token = n.children.get(1).map(core);
                let known = token.and_then(|t| match &strip(t).kind {
                    NodeKind::DeclRef { decl_id, .. } => self.tokens.get(decl_id.as_str()).cloned(),
                    _ => None,
                });
                match known {
                    Some((local, bar)) if Ok(bar) == self.object_barrier(&id, n).map(|b| b.0) => {
                        self.emit(StmtKind::NamedWait { id: bar, instance: Expr::Var(local) });
                        Ok(())
                    }
                    _ => Err(self.unsupported(
                        "`wait` of a `cuda::barrier` on a token other than one this barrier's `arrive()` gave to a local",
                        n,
                    )),
                }
            }
            _ => Err(self.unsupported(format!("`{method}` of a `cuda::barrier`"), n)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_are_recognised() {
        let b = |d| Box::new(Expr::Builtin(Builtin::BlockDim(d)));
        assert!(is_block_size(&Expr::Builtin(Builtin::BlockDim(Dim::X))));
        let xyz =
            Expr::Binary(BinOp::Mul, Box::new(Expr::Binary(BinOp::Mul, b(Dim::X), b(Dim::Y))), b(Dim::Z));
        assert!(is_block_size(&xyz));
        assert!(!is_block_size(&Expr::Const(256)));
        assert!(!is_block_size(&Expr::Binary(BinOp::Mul, b(Dim::X), b(Dim::Y))));
        assert!(is_block_barrier("cuda::barrier<cuda::thread_scope_block>"));
        assert!(!is_block_barrier("cuda::barrier<cuda::thread_scope_system>"));
    }
}
