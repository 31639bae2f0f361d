//! autosync: synthesizes the cheapest correct `__syncthreads()` placement for GPU kernels.
//!
//! The pipeline flows one way (see ARCHITECTURE.md):
//! `kpl`/`cuda` (front ends) → `verify` (oracle) → `maxsat` → `synth` → `patch` → `driver`
//! (loading, the per-file pipelines of `check` and `fix`, runs over many files) → `bench`, and
//! `lsp` (the language server on the driver's buffer API).

// Diagnostics travel on the cold error path; boxing every `Result<_, Diagnostic>` buys nothing.
#![allow(clippy::result_large_err)]

pub mod bench;
pub mod config;
pub mod cuda;
pub mod diag;
pub mod driver;
pub mod interp;
pub mod kpl;
pub(crate) mod launch_facts;
pub mod limits;
pub mod lsp;
pub mod maxsat;
pub mod patch;
pub mod source;
pub mod span;
pub mod synth;
pub mod verify;
