//! Scoped atomics (`atomicAdd_block`, `atomicAdd_system`, … for every atomic function): the
//! name of the plain function and the scope the suffix gives ([`AtomicScope`]).

use crate::kpl::ast::AtomicScope;

/// `atomicAdd_block` → (`atomicAdd`, block scope); `atomicAdd_system` → (`atomicAdd`, device
/// scope: atomic for every pair of the kernel's threads, as the plain function is); any other
/// name → itself, device scope.
pub(super) fn scoped_atomic(name: &str) -> (&str, AtomicScope) {
    if !name.starts_with("atomic") {
        return (name, AtomicScope::Device);
    }
    if let Some(base) = name.strip_suffix("_block") {
        return (base, AtomicScope::Block);
    }
    (name.strip_suffix("_system").unwrap_or(name), AtomicScope::Device)
}
