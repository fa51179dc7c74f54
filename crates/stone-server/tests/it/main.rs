//! Integration tests of stone-server. Every Iceberg test reads the result back with
//! pyiceberg 0.12 (`tests/readers/read_iceberg.py`) from the tools venv
//! (`${STONE_TOOLS_DIR:-<repo>/.tools}/venv`); without it they fail: run
//! `scripts/install-tools`.

mod support;

mod iceberg_append;
mod iceberg_branch;
mod iceberg_crash;
mod iceberg_metrics;
mod iceberg_schema;
mod iceberg_tag;
