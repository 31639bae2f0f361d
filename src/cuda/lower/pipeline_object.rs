//! libcu++'s thread-scope pipeline (`cuda::pipeline<cuda::thread_scope_thread>`, issue #38):
//! each thread's own queue of stages of asynchronous copies.
//!
//! `cuda::make_pipeline()` gives the thread its pipeline; `producer_acquire()` waits for a free
//! stage (no memory effect: nothing to model), `cuda::memcpy_async(dst, src, size, pipe)` is an
//! asynchronous copy like `__pipeline_memcpy_async`, `producer_commit()` closes the stage (KPL
//! `commit`), `consumer_wait()` waits for the oldest stage not yet released (KPL `wait oldest`)
//! and `consumer_release()` releases it (KPL `release`). Like the primitives, a wait is per
//! thread: another thread's copies need their own thread's wait and a barrier after it.
//! `cuda::pipeline_consumer_wait_prior<N>(pipe)` is `wait N` (what it releases is not counted:
//! fewer releases make a later `wait oldest` wait for older stages only, so copies stay in
//! flight longer, never shorter). Block-scope pipelines (`cuda::pipeline_shared_state`) and the
//! group form of `memcpy_async` are refused by name.

use super::{strip, Lx, Node, NodeKind, R};
use crate::kpl::ast::StmtKind;

/// Whether a type is the thread-scope pipeline (as clang prints it, enumerator qualified or not).
pub(super) fn is_thread_pipeline(ty: &str) -> bool {
    let t: String = ty.trim().trim_start_matches("const ").chars().filter(|c| !c.is_whitespace()).collect();
    t.starts_with("cuda::pipeline<") && t.contains("thread_scope_thread>")
}

impl Lx<'_> {
    /// `cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();` (or `auto`): no
    /// KPL state, the thread's commits and releases are its pipeline. `None`: not a pipeline.
    pub(super) fn pipeline_decl(&mut self, v: &Node, id: &str, ty: &str) -> Option<R<()>> {
        if !is_thread_pipeline(ty) {
            return None;
        }
        // `cuda::make_pipeline()` without arguments: the call node holds its callee only.
        let made = v.children.first().map(super::barrier_object::core).is_some_and(|c| {
            matches!(&c.kind, NodeKind::Call { callee: Some(f) } if f == "make_pipeline")
                && c.children.len() == 1
        });
        if !made {
            return Some(Err(self.unsupported(
                "a `cuda::pipeline` not initialized by `cuda::make_pipeline()` (one per thread)",
                v,
            )));
        }
        if !self.pipelines.is_empty() {
            // Each pipeline has a queue of its own; the model counts one per thread.
            return Some(Err(self.unsupported("a second `cuda::pipeline` in one kernel", v)));
        }
        self.pipelines.insert(id.to_string());
        Some(Ok(()))
    }

    /// Hook of the inliner: a parameter `id` of pipeline type (by reference) bound to the
    /// argument `a`, the kernel's pipeline. `None`: not a pipeline parameter.
    pub(super) fn pipeline_param(&mut self, id: &str, ty: &str, a: &Node) -> Option<R<()>> {
        if !is_thread_pipeline(ty.trim().trim_end_matches('&')) {
            return None;
        }
        if !ty.trim().ends_with('&') || self.pipeline_id(a).is_none() {
            return Some(Err(
                self.unsupported("a `cuda::pipeline` passed other than by reference to the kernel's own", a)
            ));
        }
        self.pipelines.insert(id.to_string());
        Some(Ok(()))
    }

    /// The pipeline object `n` names. `None`: not one of this kernel's pipelines.
    pub(super) fn pipeline_id(&self, n: &Node) -> Option<String> {
        match &strip(n).kind {
            NodeKind::DeclRef { decl_id, .. } if self.pipelines.contains(decl_id) => Some(decl_id.clone()),
            _ => None,
        }
    }

    /// `pipe.m()` of a pipeline. `None`: `obj` is not one.
    pub(super) fn pipeline_method(&mut self, obj: &Node, method: &str, n: &Node) -> Option<R<()>> {
        self.pipeline_id(obj)?;
        Some(match method {
            // Waits for a free stage: orders nothing, touches no memory.
            "producer_acquire" => Ok(()),
            "producer_commit" => {
                self.emit(StmtKind::Commit);
                Ok(())
            }
            "consumer_wait" => {
                self.emit(StmtKind::WaitOldest);
                Ok(())
            }
            "consumer_release" => {
                self.emit(StmtKind::Release);
                Ok(())
            }
            _ => Err(self.unsupported(format!("`{method}` of a `cuda::pipeline`"), n)),
        })
    }

    /// libcu++'s free functions on pipelines other than `memcpy_async`:
    /// `cuda::pipeline_consumer_wait_prior<N>(pipe)` is `wait N` (the stand-in header gives the
    /// call the type `__autosync_wait_prior<N>`, whose argument clang has evaluated); the rest
    /// are refused by name. `None`: another call.
    pub(super) fn pipeline_call(&mut self, name: &str, n: &Node) -> Option<R<()>> {
        if name == "pipeline_consumer_wait_prior" {
            let count = n.ty.as_deref().and_then(wait_prior_count);
            let what = "`cuda::pipeline_consumer_wait_prior` of a count";
            return Some(self.checked_wait_count(count, what, n).map(|pending| {
                self.emit(StmtKind::Wait { pending });
            }));
        }
        let what = match name {
            "pipeline_producer_commit" => {
                "`cuda::pipeline_producer_commit` (a stage completed by a `cuda::barrier`)"
            }
            _ => return None,
        };
        Some(Err(self.unsupported(what, n)))
    }

    /// `cuda::memcpy_async(dst, src, size, pipe)` into a thread-scope pipeline's current stage.
    pub(super) fn pipeline_copy(&mut self, args: &[Node], n: &Node) -> R<()> {
        match args {
            [dst, src, size, _pipe] => self.constant_size_copy(dst, src, size, "cuda::memcpy_async", n),
            _ => Err(self.unsupported(
                "the group form of `cuda::memcpy_async` into a `cuda::pipeline` (not modelled yet)",
                n,
            )),
        }
    }
}

/// The count `N` of the type `__autosync_wait_prior<N>` as clang prints it: the argument is an
/// `unsigned char`, printed as a character literal (`'\x01'`, `'\t'`) or, by other versions, a
/// number.
fn wait_prior_count(ty: &str) -> Option<u32> {
    let arg = ty.trim().strip_suffix('>')?.split_once("__autosync_wait_prior<")?.1.trim();
    if let Ok(v) = arg.trim_end_matches(['U', 'u']).parse::<u32>() {
        return Some(v);
    }
    let inner = arg.strip_prefix('\'')?.strip_suffix('\'')?;
    match inner.strip_prefix('\\') {
        None => {
            let mut cs = inner.chars();
            let c = cs.next()?;
            cs.next().is_none().then_some(c as u32)
        }
        Some(esc) => match esc {
            "a" => Some(7),
            "b" => Some(8),
            "t" => Some(9),
            "n" => Some(10),
            "v" => Some(11),
            "f" => Some(12),
            "r" => Some(13),
            "e" => Some(27),
            "'" | "\\" | "\"" | "?" => esc.chars().next().map(|c| c as u32),
            _ => match esc.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => u32::from_str_radix(esc, 8).ok(),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wait_prior_counts_are_read_from_the_printed_type() {
        assert_eq!(wait_prior_count("__autosync_wait_prior<'\\x01'>"), Some(1));
        assert_eq!(wait_prior_count("__autosync_wait_prior<'\\x00'>"), Some(0));
        assert_eq!(wait_prior_count("__autosync_wait_prior<'\\t'>"), Some(9));
        assert_eq!(wait_prior_count("__autosync_wait_prior<'\\0'>"), Some(0));
        assert_eq!(wait_prior_count("cuda::__autosync_wait_prior<3>"), Some(3));
        assert_eq!(wait_prior_count("__autosync_wait_prior<'A'>"), Some(65));
        assert_eq!(wait_prior_count("void"), None);
        assert!(is_thread_pipeline("cuda::pipeline<cuda::thread_scope_thread>"));
        assert!(!is_thread_pipeline("cuda::pipeline<cuda::thread_scope_block>"));
    }
}
