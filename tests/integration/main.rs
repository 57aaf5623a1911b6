//! The integration tests, one test binary: the `sudokud` crate and its dependencies are linked
//! once for all of them rather than once per file.
//!
//! Two tests have binaries of their own, for process-wide state they set up:
//! `tests/http_metrics.rs` (the global tracing subscriber) and
//! `crates/sudokud-core/tests/solver_no_alloc.rs` (a counting global allocator).

#[path = "../common/mod.rs"]
mod common;
mod docs;

mod cli;
mod cli_render;
mod docs_match_code;
mod exchange;
mod http_api;
mod http_batch;
mod http_count;
mod http_guards;
mod http_hostile;
mod http_logic;
mod http_members;
mod http_playground;
mod http_render;
mod http_server;
mod http_sizes;
mod http_variants;
mod logic_paths;
mod openapi_contract;
mod readme_examples;
mod sizes;
mod solver_datasets;
mod solver_paths;
mod solver_properties;
mod variants;
