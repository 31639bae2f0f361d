//! The integration tests of autosync, one test binary (as ripgrep does): one link against z3
//! instead of one per file. Each module is one area; data-driven inputs and their expected
//! outputs live beside each other under `tests/` (`cuda/`, `kpl/`, `verify/`, …), not here.
//!
//! Run one area with `cargo test --release --test suite -- MODULE::`.

mod bench;

mod clang_model;
mod cli;
mod cli_budget;
mod cli_fix;
mod cli_multi;
mod cli_options;
mod common;
mod config;
mod cuda_fix_golden;
mod cuda_frontend;
mod cuda_lower;
mod cuda_realworld;
mod docs;
mod fix_check;
mod fix_safety;
mod frontend_models;
mod fuzz_cli;
mod gridsync;
mod interp;
mod kpl_parse;
mod label_tree;
mod launch_facts;
mod lsp;
mod maxsat;
mod messages;
mod precision;
mod prefilter;
mod preprocess;
mod prop;
mod robustness;
mod synth;
mod verify;
