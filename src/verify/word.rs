//! The machine word of the encoding: every KPL value is a 32-bit bit-vector.
//!
//! It lives at the bottom of `verify` so that the term builders (`symbolic`, `pow2`, `refine`,
//! `prefilter`) share it without importing each other.

/// Width in bits of every KPL value and of every term the oracle builds.
pub const W: u32 = 32;
