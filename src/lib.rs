//! autosync: synthesizes the cheapest correct `__syncthreads()` placement for GPU kernels.
//!
//! The pipeline flows one way (see ARCHITECTURE.md):
//! `kpl`/`cuda` (front ends) → `verify` (oracle) → `maxsat` → `synth` → `patch`.

pub mod config;
pub mod cuda;
pub mod diag;
pub mod kpl;
pub mod maxsat;
pub mod interp;
pub mod verify;
