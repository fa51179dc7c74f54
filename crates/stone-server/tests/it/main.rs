//! Integration tests of stone-server. Every Iceberg test reads the result back with
//! pyiceberg 0.12 (`read_iceberg.py --detail` of stone-test's assets) from the tools venv
//! (`${STONE_TOOLS_DIR:-<repo>/.tools}/venv`); without it they fail: run
//! `scripts/install-tools`.

mod support;

// The push API on the real binary (tests/it/api_*.rs); api_support starts stone-server.
mod api_arrow;
mod api_contract;
mod api_guards;
mod api_limits;
mod api_oidc;
mod api_packs;
mod api_push;
mod api_ranges;
mod api_read;
mod api_restart;
mod api_s3;
mod api_staging;
mod api_support;
mod api_versions;
// Namespace permissions, tokens and browsers (issue 22).
mod authz_matrix;
// The catalog, vended credentials and the signer, third reading (issue 52).
mod catalog_trust;
mod config_docs;
mod gc;
mod hostile_campaign;
mod hostile_tenant_authz;
mod hostile_tenant_paths;
mod hostile_tenant_staging;
mod hostile_tenant_versions;
mod hostile_work;
mod integrity;
// Reading over HTTP: pages for people (issue 25).
mod pages;
// A folder of many files pushed in batches (issue 27).
mod paged_folder;
// A folder whose declared listing is its head's is not sent at all (issue 27).
mod declared_listing;
// Many one-file resources: a push's datasets followed a page at a time (issue 27).
mod many_datasets;
mod quotas;
// S3 staging trusts the store's checksum where it proves it (issue 24).
mod s3_checksum_trust;
// A single S3 upload the store checked stays in place as the content (issue 24).
mod s3_direct;
mod s3_straight;
// The S3 sweep against completions and reuses on other replicas (issue 24).
mod s3_sweep_race;
mod state_batches;
mod state_upgrade;

mod blob_behaviour;
mod blob_crash;
mod blob_expiry;

mod graph_behaviour;
mod graph_persistence;
mod graph_scale;

mod iceberg_append;
mod iceberg_branch;
mod iceberg_crash;
mod iceberg_expiry;
mod iceberg_metrics;
mod iceberg_rest;
mod iceberg_s3;
mod iceberg_schema;
mod iceberg_tag;
mod store_outage;
