//! The reference stone server: the push API and read access, on real engines.
//!
//! - [`app`]: what every request handler shares (settings, state, engines, runner);
//! - [`routes`]: the HTTP API (`/v1`, see `crates/stone-api/openapi.yaml`);
//! - [`auth`]: who a request acts as (local principal or a verified bearer token);
//! - [`staging`]: content-addressed uploads (local disk or S3) behind signed URLs;
//! - [`state`]: push state in SQLite or PostgreSQL, one module per table family;
//! - [`jobs`]: the asynchronous commit, dataset by dataset, through the engines;
//! - [`error`]: API errors, and engine failures as the problems a push reports;
//! - [`report`]: an error and its causes, as one line;
//! - [`iri`]: the `stone:` names and https IRIs of datasets, namespaces and graphs;
//! - [`gc`]: the periodic sweep of staging (expired pushes, unused contents, old uploads);
//! - [`content_cache`]: tables' Parquet answers on the server's disk, and their sweep;
//! - [`guards`]: protected refs, roles, what needs `force`;
//! - [`authz`]: namespace permissions (who may read, write, administer a namespace);
//! - [`engines`]: Iceberg (TABULAR), named graphs (GRAPH), object storage (the rest);
//! - [`config`]: the configuration file and the resolved settings;
//! - [`listener`]: the HTTP connections, bounded in number and time;
//! - [`vended`]: temporary read-only credentials of one table of an S3 warehouse (STS).
//!
//! The binary (`src/main.rs`) wires them together: `stone-server --data-dir DIR --listen
//! 127.0.0.1:PORT`.

pub mod app;
pub mod auth;
pub mod authz;
pub mod config;
pub mod content_cache;
pub mod engines;
pub mod error;
pub mod events;
mod fs_at;
pub mod gc;
pub mod guards;
pub mod iri;
pub mod jobs;
pub mod listener;
pub mod outage;
pub mod report;
pub mod routes;
mod sigv4;
pub mod staging;
pub mod state;
pub mod straight;
mod test_hooks;
pub mod vended;
