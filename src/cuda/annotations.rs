//! GPUVerify's annotation language as both front ends read it.
//!
//! `__requires(e)` of the kernel itself and `__assume(e)` anywhere are assumptions (executions
//! in which they fail are not considered); `__implies` and `__is_pow2` are the conditions they
//! name. Every annotation of [`IGNORED_ANNOTATIONS`] states a property for GPUVerify to prove:
//! autosync neither proves nor uses it, so it lowers to nothing and its arguments are not
//! evaluated. None of them restricts executions, so ignoring them never hides a race.

/// Annotations that state something to prove: ignored (not evaluated, not assumed).
pub const IGNORED_ANNOTATIONS: &[&str] = &[
    "__assert",
    "__global_assert",
    "__ensures",
    "__invariant",
    "__global_invariant",
    "__function_wide_invariant",
    "__candidate_invariant",
    "__candidate_global_invariant",
    "__function_wide_candidate_invariant",
    "__reads_from",
    "__writes_to",
    "__reads_from_local",
    "__writes_to_local",
    "__reads_from_global",
    "__writes_to_global",
    "__no_read",
    "__no_write",
    "__no_read_local",
    "__no_write_local",
    "__no_read_global",
    "__no_write_global",
    "__read_implies",
    "__write_implies",
    "__array_snapshot",
    "__non_temporal_loads_begin",
    "__non_temporal_loads_end",
    "__barrier_invariant",
    "__barrier_invariant_binary",
    "__assert_on_bug",
];
