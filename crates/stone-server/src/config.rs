//! Server configuration: the TOML file (`--config`), resolved with the command line into
//! [`Settings`].
//!
//! ```toml
//! public_host = "data.example.org"      # host of the https IRIs (default: localhost)
//!
//! [auth]
//! mode = "local"                         # no identity provider (loopback only), or "oidc":
//! # issuer = "https://id.example.org"    # oidc: the OpenID provider (discovery, JWKS)
//! # audience = "https://stone.example.org/api"   # oidc: the access tokens' `aud`
//! # roles_claim = "roles"                # oidc: the claim holding the roles (a list)
//! # [auth.step_up]                       # oidc: what a push to a protected ref needs
//! # acr_values = ["urn:example:acr:mfa"] # `acr` must be one of these (empty: any)
//! # max_age = 900                        # `auth_time` at most this many seconds ago
//!
//! # untyped_access_tokens = false       # oidc: see AuthOptions::untyped_access_tokens
//!
//! # [authz]                              # oidc: namespace permissions (docs/server.md);
//! # claim = "groups"                     # absent: any valid token may read and write
//! # [authz.grants]                       # everywhere; present: deny unless granted
//! # "team-a" = [{ namespaces = ["team-a", "team-a-*"], access = "write" }]
//! # "*" = [{ namespaces = ["*"], access = "read" }]
//!
//! [local]                                # who requests act as in `local` mode
//! user = "local"
//! roles = ["protected-write"]            # add "protected-force" to allow --force on main
//!
//! [guards]
//! protected_refs = ["main", "release/*"]
//! write_role = "protected-write"
//! force_role = "protected-force"
//!
//! [staging]
//! store = "local"                        # or "s3"
//! part_size = 67108864                   # larger files are uploaded in parts
//! url_ttl_seconds = 3600
//! # base_url = "http://127.0.0.1:8080"   # local store: where upload URLs point (default:
//!                                        # the address the server listens on)
//! [staging.s3]                           # store = "s3"
//! endpoint = "http://127.0.0.1:8333"
//! bucket = "stone-staging"               # must exist
//! prefix = "staging/"
//! region = "us-east-1"
//! access_key_id = "…"
//! secret_access_key = "…"
//! allow_http = true
//!
//! [server]                             # the HTTP listener (see docs/server.md, "Limits")
//! max_connections = 512                  # open connections; more are accepted and closed
//! header_read_timeout_seconds = 30       # a request head (or the next one on a kept-alive
//!                                        # connection) must arrive within this; else closed
//! body_read_timeout_seconds = 60         # an upload body sending no byte this long: 408
//!
//! [graph]
//! # remote_url = "http://127.0.0.1:7878"  # an Oxigraph-style SPARQL server; default: embedded
//! max_file_bytes = 1073741824            # a GRAPH file larger than this is refused (1 GiB)
//! max_literal_bytes = 16777216           # a literal or IRI longer than this is refused (16 MiB)
//!
//! [sparql]
//! timeout_seconds = 30                   # a query running longer is stopped: 503 sparql.timeout
//! max_result_bytes = 33554432            # larger results are refused: 413 sparql.too_large
//! max_rows = 1000000                     # more rows (or triples) too
//!
//! [blob]
//! store = "local"                        # or "s3", with a [blob.s3] table like [staging.s3]
//!
//! [jobs]
//! concurrency = 2                        # pushes committed at the same time
//! lease_seconds = 60                     # a runner's claim on a push; a replica that dies
//!                                        # mid-commit has its push taken over after this
//! max_crashes = 3                        # a push whose commit was cut short this many times
//!                                        # (the server died under it) fails: push.crashed
//!
//! [gc]                                   # garbage collection of staging (every replica
//!                                        # runs it; one at a time sweeps)
//! interval_seconds = 3600                # how often; 0 turns it off
//! push_expiry_seconds = 604800           # a push left `staging` or `failed` this long
//!                                        # expires (answers 410 push.expired)
//! staged_content_seconds = 86400         # a staged content no live push names, unused
//!                                        # this long, is deleted
//! multipart_seconds = 86400              # an unfinished multipart upload this old is
//!                                        # aborted (its parts are deleted)
//!
//! [limits]                               # the most one push may declare; over one:
//!                                        # 400 manifest.invalid_size / 413 push.too_large,
//!                                        # nothing recorded
//! max_file_size = 5497558138880          # bytes of one file (5 TiB; at most 2^63 - 1)
//! max_push_bytes = 10995116277760        # bytes of a push's distinct files (10 TiB)
//! max_datasets = 50000                   # datasets of one push
//! max_contents = 200000                  # distinct files (sha256) of one push
//! max_part_urls = 10000                  # part URLs in one answer; the rest come when
//!                                        # the client posts the manifest again
//! parquet_max_footer_bytes = 67108864    # a staged Parquet file's footer (64 MiB), its
//! parquet_max_schema_depth = 64          # schema's nesting and its leaf columns; over
//! parquet_max_columns = 10000            # one, the dataset fails: dataset.limit_exceeded
//!
//! # [quotas]                             # bytes a namespace may hold (docs/server.md,
//! # default_bytes = 107374182400         # "Limits"); absent: no quota. Over it: 413
//! # [[quotas.namespace]]                 # namespace.quota_exceeded, nothing recorded
//! # pattern = "team-*"                   # the first matching pattern's quota wins
//! # bytes = 1099511627776
//!
//! [database]                             # push state and the Iceberg SQL catalog
//! # url = "postgres://stone@127.0.0.1:5432/stone"   # default: SQLite files in the data dir
//! max_connections = 8
//!
//! [iceberg]
//! catalog_name = "stone"                 # the catalog_name of the SQL catalog's rows
//! # warehouse = "/srv/stone/warehouse"   # default: <data dir>/iceberg/warehouse
//! # warehouse = "s3://lake/warehouse"    # or a bucket (it must exist) and key prefix,
//!                                        # reached as [iceberg.s3] says
//! commit_attempts = 10                   # compare-and-swap attempts of a table commit
//! # [iceberg.s3]                         # an s3:// warehouse: the keys of [staging.s3]
//! # endpoint = "http://127.0.0.1:8333"   # but bucket and prefix, which the URL gives
//! # region = "us-east-1"
//! # access_key_id = "…"
//! # secret_access_key = "…"
//! # allow_http = true                   # a warehouse in the [staging.s3] bucket (same
//!                                        # endpoint and key) gets data files by S3 copy
//! ```
//!
//! Several replicas (see docs/scale-out.md) share one PostgreSQL `[database] url`; then
//! every engine must be shared too, and the server refuses to start otherwise: `[staging]
//! store = "s3"` (upload URLs of the local store are signed with one replica's key and
//! land on its disk), `[blob] store = "s3"`, `[graph] remote_url`, and an `[iceberg]
//! warehouse` every replica reaches: an `s3://` bucket, or a directory of a shared file
//! system mounted at the same path everywhere (the default, under the data directory, is
//! refused).
//!
//! Unknown keys are refused, so that a typo does not silently fall back to a default.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Environment variables read by the server.
pub mod env_vars {
    /// Test hook, not for production: the name of a dataset. The commit job stops right
    /// after that dataset's engine write returned and before the push state records it
    /// (the worst moment for a crash), writes `<data dir>/test-hooks/paused`, and waits
    /// until the process is killed, or stopped (SIGTERM: the job then goes on and parks at
    /// the next dataset). Tests use it to kill or stop the server mid-commit.
    pub const STONE_SERVER_TEST_PAUSE_COMMIT: &str = "STONE_SERVER_TEST_PAUSE_COMMIT";
    /// tracing filter of the logs (stderr), e.g. `stone_server=debug`.
    pub const STONE_SERVER_LOG: &str = "STONE_SERVER_LOG";
}

/// Default part size: 64 MiB.
pub const DEFAULT_PART_SIZE: u64 = 64 * 1024 * 1024;
/// S3 refuses parts smaller than 5 MiB (except the last).
pub const S3_MIN_PART_SIZE: u64 = 5 * 1024 * 1024;
/// At most this many parts per upload (one ListParts page); the part size grows for larger
/// files.
pub const MAX_PARTS: u64 = 1000;

/// The configuration file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub public_host: Option<String>,
    #[serde(default)]
    pub auth: AuthOptions,
    #[serde(default)]
    pub local: LocalOptions,
    #[serde(default)]
    pub guards: GuardOptions,
    /// `oidc` mode: who may read, write and administer which namespaces; absent: any
    /// valid token may (see `authz.rs`).
    pub authz: Option<AuthzOptions>,
    #[serde(default)]
    pub staging: StagingOptions,
    #[serde(default)]
    pub server: ServerOptions,
    #[serde(default)]
    pub graph: GraphOptions,
    #[serde(default)]
    pub sparql: SparqlOptions,
    #[serde(default)]
    pub blob: BlobOptions,
    #[serde(default)]
    pub jobs: JobOptions,
    #[serde(default)]
    pub database: DatabaseOptions,
    #[serde(default)]
    pub iceberg: IcebergOptions,
    #[serde(default)]
    pub gc: GcOptions,
    #[serde(default)]
    pub limits: LimitsOptions,
    #[serde(default)]
    pub retention: RetentionOptions,
    #[serde(default)]
    pub quotas: QuotaOptions,
}

/// `[quotas]`: how many bytes a namespace may hold (see `state::StateDb::reserve_quota`
/// for what counts). A push that would go over is refused (413
/// `namespace.quota_exceeded`), at `POST /v1/pushes` from its declared sizes and again
/// when its commit is accepted. Default: no quota.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuotaOptions {
    /// The quota of a namespace no `[[quotas.namespace]]` matches; absent: none.
    pub default_bytes: Option<u64>,
    /// Quotas by namespace pattern (`*` matches any run of characters); the first that
    /// matches wins.
    #[serde(default)]
    pub namespace: Vec<NamespaceQuotaOptions>,
}

/// One `[[quotas.namespace]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamespaceQuotaOptions {
    pub pattern: String,
    pub bytes: u64,
}

impl QuotaOptions {
    /// The quota of a namespace, bytes; `None`: unlimited.
    pub fn bytes_for(&self, namespace: &str) -> Option<u64> {
        self.namespace
            .iter()
            .find(|quota| stone_package::branch::glob_match(&quota.pattern, namespace))
            .map(|quota| quota.bytes)
            .or(self.default_bytes)
    }
}

/// `[limits]`: the most one push may declare. A push over one is refused (400
/// `manifest.invalid_size` for a file's size, 413 `push.too_large` for the rest) before
/// anything is recorded. The defaults let a push of 10,000 datasets and a few hundred GB
/// through.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsOptions {
    /// Largest declared size of one file, bytes (default 5 TiB; never more than 2^63 - 1).
    #[serde(default = "default_max_file_size")]
    pub max_file_size: u64,
    /// Most bytes one push may declare, its distinct files added up (default 10 TiB).
    #[serde(default = "default_max_push_bytes")]
    pub max_push_bytes: u64,
    /// Most datasets in one push (default 50,000).
    #[serde(default = "default_max_datasets")]
    pub max_datasets: usize,
    /// Most distinct files (sha256) in one push (default 200,000).
    #[serde(default = "default_max_contents")]
    pub max_contents: usize,
    /// Most part URLs in one answer to `POST /v1/pushes` (default 10,000, at least the
    /// 1,000 parts of one content): the rest come with the next post of the manifest
    /// (`more_uploads`).
    #[serde(default = "default_max_part_urls")]
    pub max_part_urls: usize,
    /// Bytes of a staged Parquet file's footer, read before the parquet crate parses it
    /// (default 64 MiB).
    #[serde(default = "default_parquet_max_footer_bytes")]
    pub parquet_max_footer_bytes: u64,
    /// Nesting levels of a staged Parquet file's schema below its root (default 64).
    #[serde(default = "default_parquet_max_schema_depth")]
    pub parquet_max_schema_depth: usize,
    /// Leaf columns of a staged Parquet file (default 10,000).
    #[serde(default = "default_parquet_max_columns")]
    pub parquet_max_columns: usize,
}

impl Default for LimitsOptions {
    fn default() -> Self {
        Self {
            max_file_size: default_max_file_size(),
            max_push_bytes: default_max_push_bytes(),
            max_datasets: default_max_datasets(),
            max_contents: default_max_contents(),
            max_part_urls: default_max_part_urls(),
            parquet_max_footer_bytes: default_parquet_max_footer_bytes(),
            parquet_max_schema_depth: default_parquet_max_schema_depth(),
            parquet_max_columns: default_parquet_max_columns(),
        }
    }
}

impl LimitsOptions {
    /// The limits as the manifest checks take them.
    pub fn push_limits(&self) -> stone_api::validate::PushLimits {
        stone_api::validate::PushLimits {
            max_file_size: self.max_file_size,
            max_push_bytes: self.max_push_bytes,
            max_datasets: self.max_datasets,
            max_contents: self.max_contents,
        }
    }

    /// The bounds a staged Parquet file's footer is checked against before it is parsed.
    pub fn parquet_limits(&self) -> stone_formats::ParquetLimits {
        stone_formats::ParquetLimits {
            max_footer_bytes: self.parquet_max_footer_bytes,
            max_depth: self.parquet_max_schema_depth,
            max_columns: self.parquet_max_columns,
        }
    }
}

fn default_max_file_size() -> u64 {
    stone_api::validate::DEFAULT_MAX_FILE_SIZE
}

fn default_max_push_bytes() -> u64 {
    stone_api::validate::DEFAULT_MAX_PUSH_BYTES
}

fn default_max_datasets() -> usize {
    stone_api::validate::DEFAULT_MAX_DATASETS
}

fn default_max_contents() -> usize {
    stone_api::validate::DEFAULT_MAX_CONTENTS
}

fn default_max_part_urls() -> usize {
    10_000
}

fn default_parquet_max_footer_bytes() -> u64 {
    stone_formats::footer::MAX_FOOTER_BYTES
}

fn default_parquet_max_schema_depth() -> usize {
    stone_formats::footer::MAX_SCHEMA_DEPTH
}

fn default_parquet_max_columns() -> usize {
    stone_formats::footer::MAX_COLUMNS
}

/// `[gc]`: garbage collection of staging (see `gc.rs`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GcOptions {
    /// Seconds between two sweeps; 0: no sweeps.
    #[serde(default = "default_gc_interval")]
    pub interval_seconds: u64,
    /// A push in `staging` or `failed` untouched this long expires.
    #[serde(default = "default_push_expiry")]
    pub push_expiry_seconds: u64,
    /// A staged content that no live push names and that was not uploaded or reused for
    /// this long is deleted.
    #[serde(default = "default_day")]
    pub staged_content_seconds: u64,
    /// An unfinished multipart upload started this long ago is aborted.
    #[serde(default = "default_day")]
    pub multipart_seconds: u64,
}

impl Default for GcOptions {
    fn default() -> Self {
        Self {
            interval_seconds: default_gc_interval(),
            push_expiry_seconds: default_push_expiry(),
            staged_content_seconds: default_day(),
            multipart_seconds: default_day(),
        }
    }
}

fn default_gc_interval() -> u64 {
    3600
}

fn default_push_expiry() -> u64 {
    7 * 24 * 3600
}

fn default_day() -> u64 {
    24 * 3600
}

/// `[retention]`: snapshot expiry (spec 4.1, `--force`). Absent: nothing is ever expired.
///
/// A commit that writes a TABULAR dataset then expires the table's snapshots that no ref
/// needs any more (see `engines/iceberg/expire.rs`): on an unprotected branch always, on a
/// protected one only when the push has `force` (and so the force role).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionOptions {
    /// A snapshot younger than this many seconds is kept. Absent: no expiry at all.
    pub max_snapshot_age_seconds: Option<u64>,
    /// The newest snapshots of each branch's history kept whatever their age (the head
    /// counts; at least 1).
    #[serde(default = "default_min_snapshots_to_keep")]
    pub min_snapshots_to_keep: u32,
}

impl RetentionOptions {
    /// What the Iceberg engine keeps; `None` when expiry is off.
    pub fn snapshot_retention(&self) -> Option<crate::engines::iceberg::Retention> {
        let max_age = self.max_snapshot_age_seconds?;
        Some(crate::engines::iceberg::Retention {
            max_snapshot_age: std::time::Duration::from_secs(max_age),
            min_snapshots_to_keep: self.min_snapshots_to_keep.max(1),
        })
    }
}

fn default_min_snapshots_to_keep() -> u32 {
    1
}

/// `[database]`: where the push state and the Iceberg SQL catalog live.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseOptions {
    /// `postgres://…` (shared by replicas); absent: SQLite files in the data directory.
    pub url: Option<String>,
    /// Connections of the push-state pool.
    #[serde(default = "default_max_connections")]
    pub max_connections: u32,
}

impl Default for DatabaseOptions {
    fn default() -> Self {
        Self {
            url: None,
            max_connections: default_max_connections(),
        }
    }
}

fn default_max_connections() -> u32 {
    8
}

impl DatabaseOptions {
    /// Whether the state is in a shared PostgreSQL database (replicas possible).
    pub fn is_shared(&self) -> bool {
        self.url.is_some()
    }
}

/// `[iceberg]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcebergOptions {
    #[serde(default = "default_catalog_name")]
    pub catalog_name: String,
    /// Warehouse directory (absolute path or `file:///` URL) or `s3://bucket/prefix`;
    /// absent: under the data dir.
    pub warehouse: Option<String>,
    /// Compare-and-swap attempts of one table commit before it fails with a conflict
    /// (concurrent commits to one table from several replicas retry).
    #[serde(default = "default_commit_attempts")]
    pub commit_attempts: u32,
    /// How to reach the server of an `s3://` warehouse.
    pub s3: Option<S3AccessOptions>,
}

impl Default for IcebergOptions {
    fn default() -> Self {
        Self {
            catalog_name: default_catalog_name(),
            warehouse: None,
            commit_attempts: default_commit_attempts(),
            s3: None,
        }
    }
}

/// `[iceberg.s3]`: an S3-compatible server, as in [`S3Options`] but without the bucket and
/// prefix (the `s3://` warehouse URL gives them).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct S3AccessOptions {
    /// `http(s)://host:port`; absent: AWS.
    pub endpoint: Option<String>,
    #[serde(default = "default_region")]
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    #[serde(default)]
    pub allow_http: bool,
}

/// Where the Iceberg warehouse is, from `[iceberg] warehouse`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarehouseLocation {
    /// `<data dir>/iceberg/warehouse`.
    Default,
    /// An absolute directory.
    Local(PathBuf),
    /// `s3://bucket/prefix` (prefix without leading or trailing `/`, maybe empty).
    S3 { bucket: String, prefix: String },
}

impl IcebergOptions {
    /// Parses `warehouse` and checks that `[iceberg.s3]` goes with an `s3://` URL.
    pub fn warehouse_location(&self) -> Result<WarehouseLocation, ConfigError> {
        let location = match self.warehouse.as_deref() {
            None => WarehouseLocation::Default,
            Some(url) if url.starts_with("s3://") => {
                let rest = &url["s3://".len()..];
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                let bucket_ok = (3..=63).contains(&bucket.len())
                    && bucket.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'
                    });
                if !bucket_ok {
                    return Err(ConfigError::Invalid(format!(
                        "iceberg.warehouse {url:?}: {bucket:?} is not an S3 bucket name (3 to 63 lowercase letters, digits, '-' and '.'); write s3://bucket/prefix"
                    )));
                }
                let prefix = prefix.trim_matches('/');
                if prefix.split('/').any(|part| part == "." || part == "..")
                    || prefix.contains("//")
                {
                    return Err(ConfigError::Invalid(format!(
                        "iceberg.warehouse {url:?}: the key prefix has an empty, '.' or '..' segment"
                    )));
                }
                if self.s3.is_none() {
                    return Err(ConfigError::Invalid(format!(
                        "iceberg.warehouse {url:?} is on S3 and needs an [iceberg.s3] table (endpoint, region, access_key_id, secret_access_key, allow_http, as in [staging.s3])"
                    )));
                }
                WarehouseLocation::S3 {
                    bucket: bucket.to_owned(),
                    prefix: prefix.to_owned(),
                }
            }
            Some(path) => {
                let path = path.strip_prefix("file://").unwrap_or(path);
                if !path.starts_with('/') {
                    return Err(ConfigError::Invalid(format!(
                        "iceberg.warehouse {path:?} must be an absolute path, a file:/// URL or s3://bucket/prefix"
                    )));
                }
                WarehouseLocation::Local(PathBuf::from(path))
            }
        };
        if self.s3.is_some() && !matches!(location, WarehouseLocation::S3 { .. }) {
            return Err(ConfigError::Invalid(
                "[iceberg.s3] is only used with an S3 warehouse: set iceberg.warehouse = \"s3://bucket/prefix\"".into(),
            ));
        }
        Ok(location)
    }
}

fn default_commit_attempts() -> u32 {
    10
}

fn default_catalog_name() -> String {
    "stone".to_owned()
}

/// `[auth]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthOptions {
    #[serde(default)]
    pub mode: AuthModeOption,
    /// `oidc`: the issuer (`iss` of the tokens; discovery at
    /// `<issuer>/.well-known/openid-configuration`).
    pub issuer: Option<String>,
    /// `oidc`: the audience the access tokens must name (`aud`).
    pub audience: Option<String>,
    /// `oidc`: the claim that lists the roles.
    #[serde(default = "default_roles_claim")]
    pub roles_claim: String,
    /// `oidc`: the fresh authentication a push to a protected ref needs.
    #[serde(default)]
    pub step_up: StepUpOptions,
    /// `oidc`: accept access tokens that do not say they are (no `typ: at+jwt` header,
    /// no `token_use: access` nor `typ: Bearer` claim). Only for providers that mark
    /// access tokens in none of these ways; `audience` must then be an identifier only
    /// access tokens carry (the API's, never a client ID, which ID tokens carry).
    #[serde(default)]
    pub untyped_access_tokens: bool,
}

fn default_roles_claim() -> String {
    "roles".to_owned()
}

/// `[auth.step_up]`: RFC 9470 step-up for pushes to protected refs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepUpOptions {
    /// The token's `acr` must be one of these; empty: any `acr`.
    #[serde(default)]
    pub acr_values: Vec<String>,
    /// The token's `auth_time` must be at most this many seconds old.
    #[serde(default = "default_max_age")]
    pub max_age: u64,
}

impl Default for StepUpOptions {
    fn default() -> Self {
        Self {
            acr_values: Vec::new(),
            max_age: default_max_age(),
        }
    }
}

fn default_max_age() -> u64 {
    900
}

/// `[authz]`: namespace permissions (`oidc` mode). Grants name the values of a token
/// claim (roles, groups, or `sub`); each maps to namespace patterns and an access level.
/// Once the table is present everything not granted is refused.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthzOptions {
    /// The claim whose values the grants name; default: `auth.roles_claim`.
    pub claim: Option<String>,
    /// Claim value (`"*"`: every valid token) → its grants.
    #[serde(default)]
    pub grants: std::collections::BTreeMap<String, Vec<GrantOptions>>,
}

/// One grant: namespaces (patterns, `*` matches any run of characters) and an access.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantOptions {
    pub namespaces: Vec<String>,
    pub access: AccessOption,
}

/// An access level; each includes the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessOption {
    /// Read the namespace's private datasets (and its graphs in SPARQL).
    Read,
    /// Push: create the namespace, write and replace datasets' content.
    Write,
    /// Also change `public`, and delete datasets (`--replace` of a package without them).
    Admin,
}

/// `auth.mode`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthModeOption {
    /// No identity provider; loopback only; requests act as `[local]`.
    #[default]
    Local,
    /// Bearer JWTs from an OpenID provider (`[auth] issuer`, `audience`).
    Oidc,
}

/// `[local]`: the trusted identity of `local` mode.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalOptions {
    #[serde(default = "default_user")]
    pub user: String,
    #[serde(default = "default_roles")]
    pub roles: Vec<String>,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self {
            user: default_user(),
            roles: default_roles(),
        }
    }
}

fn default_user() -> String {
    "local".to_owned()
}

fn default_roles() -> Vec<String> {
    vec![DEFAULT_WRITE_ROLE.to_owned()]
}

/// Role needed to push to a protected ref.
pub const DEFAULT_WRITE_ROLE: &str = "protected-write";
/// Role needed to `force` on a protected ref.
pub const DEFAULT_FORCE_ROLE: &str = "protected-force";

/// `[guards]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardOptions {
    #[serde(default = "default_protected_refs")]
    pub protected_refs: Vec<String>,
    #[serde(default = "default_write_role")]
    pub write_role: String,
    #[serde(default = "default_force_role")]
    pub force_role: String,
}

impl Default for GuardOptions {
    fn default() -> Self {
        Self {
            protected_refs: default_protected_refs(),
            write_role: default_write_role(),
            force_role: default_force_role(),
        }
    }
}

fn default_protected_refs() -> Vec<String> {
    vec!["main".to_owned(), "release/*".to_owned()]
}

fn default_write_role() -> String {
    DEFAULT_WRITE_ROLE.to_owned()
}

fn default_force_role() -> String {
    DEFAULT_FORCE_ROLE.to_owned()
}

/// `[staging]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagingOptions {
    #[serde(default)]
    pub store: StoreKind,
    #[serde(default = "default_part_size")]
    pub part_size: u64,
    #[serde(default = "default_ttl")]
    pub url_ttl_seconds: u64,
    pub base_url: Option<String>,
    pub s3: Option<S3Options>,
}

impl Default for StagingOptions {
    fn default() -> Self {
        Self {
            store: StoreKind::Local,
            part_size: default_part_size(),
            url_ttl_seconds: default_ttl(),
            base_url: None,
            s3: None,
        }
    }
}

fn default_part_size() -> u64 {
    DEFAULT_PART_SIZE
}

fn default_ttl() -> u64 {
    3600
}

/// Local disk or S3.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreKind {
    #[default]
    Local,
    S3,
}

/// An S3-compatible bucket.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct S3Options {
    /// `http(s)://host:port`; absent: AWS.
    pub endpoint: Option<String>,
    pub bucket: String,
    #[serde(default)]
    pub prefix: String,
    #[serde(default = "default_region")]
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    #[serde(default)]
    pub allow_http: bool,
}

fn default_region() -> String {
    "us-east-1".to_owned()
}

/// `[server]`: the HTTP listener's bounds on connections (see `main.rs`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerOptions {
    /// Connections open at once; one more is accepted and closed at once.
    #[serde(default = "default_max_connections_open")]
    pub max_connections: usize,
    /// Seconds a connection gets to send a whole request head, counted from when the
    /// server starts waiting for it (a new connection, or a kept-alive one after its last
    /// answer): the header-read and the idle keep-alive timeout in one.
    #[serde(default = "default_header_read_timeout")]
    pub header_read_timeout_seconds: u64,
    /// Seconds an upload body (`PUT /v1/staging/…`) may send no byte before the upload is
    /// refused (408 `request.timeout`, nothing kept).
    #[serde(default = "default_body_read_timeout")]
    pub body_read_timeout_seconds: u64,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            max_connections: default_max_connections_open(),
            header_read_timeout_seconds: default_header_read_timeout(),
            body_read_timeout_seconds: default_body_read_timeout(),
        }
    }
}

fn default_max_connections_open() -> usize {
    512
}

fn default_header_read_timeout() -> u64 {
    30
}

fn default_body_read_timeout() -> u64 {
    60
}

/// `[graph]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphOptions {
    /// Base URL of an Oxigraph-style server (`/store`, `/query`); absent: embedded.
    pub remote_url: Option<String>,
    /// A GRAPH dataset's file larger than this is refused before it is parsed
    /// (`graph.too_large`).
    #[serde(default = "default_max_graph_file_bytes")]
    pub max_file_bytes: u64,
    /// A literal's lexical form or an IRI longer than this is refused
    /// (`graph.too_large`).
    #[serde(default = "default_max_literal_bytes")]
    pub max_literal_bytes: usize,
}

impl Default for GraphOptions {
    fn default() -> Self {
        Self {
            remote_url: None,
            max_file_bytes: default_max_graph_file_bytes(),
            max_literal_bytes: default_max_literal_bytes(),
        }
    }
}

fn default_max_graph_file_bytes() -> u64 {
    1 << 30
}

fn default_max_literal_bytes() -> usize {
    16 << 20
}

/// `[sparql]`: bounds of `GET/POST /v1/sparql`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SparqlOptions {
    /// Seconds a query may run (remote mode: the HTTP request to the graph server).
    #[serde(default = "default_sparql_timeout")]
    pub timeout_seconds: u64,
    /// Largest result document, in bytes.
    #[serde(default = "default_sparql_result_bytes")]
    pub max_result_bytes: u64,
    /// Most solutions (SELECT) or triples (CONSTRUCT/DESCRIBE) in a result.
    #[serde(default = "default_sparql_rows")]
    pub max_rows: u64,
}

impl Default for SparqlOptions {
    fn default() -> Self {
        Self {
            timeout_seconds: default_sparql_timeout(),
            max_result_bytes: default_sparql_result_bytes(),
            max_rows: default_sparql_rows(),
        }
    }
}

fn default_sparql_timeout() -> u64 {
    30
}

fn default_sparql_result_bytes() -> u64 {
    32 << 20
}

fn default_sparql_rows() -> u64 {
    1_000_000
}

/// `[blob]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlobOptions {
    #[serde(default)]
    pub store: StoreKind,
    pub s3: Option<S3Options>,
}

/// `[jobs]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobOptions {
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Seconds a runner's claim on a push lasts without renewal (renewed every third).
    #[serde(default = "default_lease_seconds")]
    pub lease_seconds: u64,
    /// A push whose commit was started this many times without ending (the process died
    /// under it, or its replica did) is not resumed again: it fails with `push.crashed`.
    #[serde(default = "default_max_crashes")]
    pub max_crashes: u32,
}

impl Default for JobOptions {
    fn default() -> Self {
        Self {
            concurrency: default_concurrency(),
            lease_seconds: default_lease_seconds(),
            max_crashes: default_max_crashes(),
        }
    }
}

fn default_max_crashes() -> u32 {
    3
}

fn default_lease_seconds() -> u64 {
    60
}

fn default_concurrency() -> usize {
    2
}

/// Creates the data directory readable by its owner alone (0700 on unix), and takes the
/// group and other bits off an existing one: what the server keeps there (the push state,
/// the staging key, every engine's data) is nobody else's to read. What the server
/// creates below it is private too: `main` sets the umask to 077 before anything.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        let mode = std::fs::metadata(dir)?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                data_dir = %dir.display(),
                mode = format!("{mode:o}"),
                "the data directory was readable by others; it is now 0700"
            );
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode & 0o700))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir)
}

/// `[server]`, `[graph]`, `[sparql]` and `[jobs] max_crashes`: every bound is positive
/// (a zero would refuse everything, or turn a bound off by accident).
fn check_bounds(config: &ConfigFile) -> Result<(), ConfigError> {
    let (server, graph, sparql) = (&config.server, &config.graph, &config.sparql);
    let bounds: [(&str, u64); 9] = [
        ("server.max_connections", server.max_connections as u64),
        (
            "server.header_read_timeout_seconds",
            server.header_read_timeout_seconds,
        ),
        (
            "server.body_read_timeout_seconds",
            server.body_read_timeout_seconds,
        ),
        ("graph.max_file_bytes", graph.max_file_bytes),
        ("graph.max_literal_bytes", graph.max_literal_bytes as u64),
        ("sparql.timeout_seconds", sparql.timeout_seconds),
        ("sparql.max_result_bytes", sparql.max_result_bytes),
        ("sparql.max_rows", sparql.max_rows),
        ("jobs.max_crashes", u64::from(config.jobs.max_crashes)),
    ];
    match bounds.iter().find(|(_, value)| *value == 0) {
        Some((key, _)) => Err(ConfigError::Invalid(format!("{key} must be positive"))),
        None => Ok(()),
    }
}

/// Errors of reading the configuration.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read the configuration file {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid configuration file {}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: toml_edit::de::Error,
    },
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

impl ConfigFile {
    /// Reads and parses a configuration file.
    pub fn read(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        toml_edit::de::from_str(&text).map_err(|source| ConfigError::Parse {
            path: path.to_owned(),
            source,
        })
    }
}

/// Everything the server runs with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Absolute data directory.
    pub data_dir: PathBuf,
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Host of the https IRIs.
    pub public_host: String,
    /// The configuration file's content.
    pub config: ConfigFile,
}

impl Settings {
    /// Resolves the command line and the file; checks what can be checked before binding.
    pub fn resolve(
        data_dir: &Path,
        listen: SocketAddr,
        public_host: Option<String>,
        config: ConfigFile,
    ) -> Result<Self, ConfigError> {
        create_private_dir(data_dir).map_err(|source| ConfigError::Read {
            path: data_dir.to_owned(),
            source,
        })?;
        let data_dir = data_dir
            .canonicalize()
            .map_err(|source| ConfigError::Read {
                path: data_dir.to_owned(),
                source,
            })?;
        let public_host = public_host
            .or_else(|| config.public_host.clone())
            .unwrap_or_else(|| "localhost".to_owned());
        if public_host.is_empty() || public_host.contains('/') || public_host.contains(' ') {
            return Err(ConfigError::Invalid(format!(
                "public host {public_host:?} is not a host name"
            )));
        }
        let staging = &config.staging;
        if staging.part_size == 0 {
            return Err(ConfigError::Invalid(
                "staging.part_size must be positive".into(),
            ));
        }
        if staging.url_ttl_seconds == 0 || staging.url_ttl_seconds > 7 * 24 * 3600 {
            return Err(ConfigError::Invalid(
                "staging.url_ttl_seconds must be between 1 and 604800 (7 days)".into(),
            ));
        }
        match staging.store {
            StoreKind::S3 => {
                if staging.s3.is_none() {
                    return Err(ConfigError::Invalid(
                        "staging.store = \"s3\" needs a [staging.s3] table".into(),
                    ));
                }
                if staging.part_size < S3_MIN_PART_SIZE {
                    return Err(ConfigError::Invalid(format!(
                        "staging.part_size must be at least {S3_MIN_PART_SIZE} bytes (5 MiB) with an S3 staging store"
                    )));
                }
            }
            StoreKind::Local => {}
        }
        if config.blob.store == StoreKind::S3 && config.blob.s3.is_none() {
            return Err(ConfigError::Invalid(
                "blob.store = \"s3\" needs a [blob.s3] table".into(),
            ));
        }
        if config.jobs.lease_seconds < 3 {
            return Err(ConfigError::Invalid(
                "jobs.lease_seconds must be at least 3 (the lease is renewed every third)".into(),
            ));
        }
        let gc = &config.gc;
        if gc.interval_seconds > 0
            && (gc.push_expiry_seconds == 0
                || gc.staged_content_seconds == 0
                || gc.multipart_seconds == 0)
        {
            return Err(ConfigError::Invalid(
                "gc.push_expiry_seconds, gc.staged_content_seconds and gc.multipart_seconds must be positive (set gc.interval_seconds = 0 to turn the sweep off)".into(),
            ));
        }
        config.iceberg.warehouse_location()?;
        check_shared(&config)?;
        check_bounds(&config)?;
        if config.jobs.concurrency == 0 {
            return Err(ConfigError::Invalid(
                "jobs.concurrency must be positive".into(),
            ));
        }
        if config.auth.mode == AuthModeOption::Oidc {
            let issuer = config.auth.issuer.as_deref().unwrap_or_default();
            if !(issuer.starts_with("https://") || issuer.starts_with("http://")) {
                return Err(ConfigError::Invalid(
                    "auth.mode = \"oidc\" needs auth.issuer, an http(s) URL".into(),
                ));
            }
            if !crate::auth::secure_url(issuer) {
                return Err(ConfigError::Invalid(format!(
                    "auth.issuer {issuer:?} is plain http on a host that is not this machine: tokens and keys would travel unprotected; use https:// (http:// is only for 127.0.0.1, [::1] or localhost)"
                )));
            }
            if config
                .auth
                .audience
                .as_deref()
                .unwrap_or_default()
                .is_empty()
            {
                return Err(ConfigError::Invalid(
                    "auth.mode = \"oidc\" needs auth.audience (the `aud` of the access tokens)"
                        .into(),
                ));
            }
        }
        if let Some(authz) = &config.authz {
            if config.auth.mode != AuthModeOption::Oidc {
                return Err(ConfigError::Invalid(
                    "[authz] applies to auth.mode = \"oidc\" only: in local mode every request acts as the [local] user; remove [authz] or set auth.mode = \"oidc\"".into(),
                ));
            }
            for (value, grants) in &authz.grants {
                for grant in grants {
                    if grant.namespaces.is_empty() || grant.namespaces.iter().any(String::is_empty)
                    {
                        return Err(ConfigError::Invalid(format!(
                            "authz.grants.{value:?}: a grant needs namespaces, a non-empty list of non-empty patterns"
                        )));
                    }
                }
            }
        }
        if config.quotas.namespace.iter().any(|q| q.pattern.is_empty()) {
            return Err(ConfigError::Invalid(
                "quotas.namespace: an empty pattern (use \"*\" for every namespace, or set quotas.default_bytes)".into(),
            ));
        }
        for pattern in &config.guards.protected_refs {
            if pattern.is_empty() {
                return Err(ConfigError::Invalid(
                    "an empty protected ref pattern".into(),
                ));
            }
        }
        Ok(Self {
            data_dir,
            listen,
            public_host,
            config,
        })
    }

    /// The data directory's layout.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.data_dir.join(relative)
    }
}

/// With a shared database, every engine must be shared by the replicas too.
fn check_shared(config: &ConfigFile) -> Result<(), ConfigError> {
    let Some(url) = &config.database.url else {
        return Ok(());
    };
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(ConfigError::Invalid(
            "database.url must be a PostgreSQL URL (postgres://user@host:port/db); leave it out for the embedded SQLite state".into(),
        ));
    }
    if config.database.max_connections == 0 {
        return Err(ConfigError::Invalid(
            "database.max_connections must be positive".into(),
        ));
    }
    let mut missing = Vec::new();
    if config.staging.store != StoreKind::S3 {
        missing.push("[staging] store = \"s3\" (the local staging store signs upload URLs with one replica's key and keeps the files on its disk)");
    }
    if config.blob.store != StoreKind::S3 {
        missing.push("[blob] store = \"s3\" (the local blob store is one replica's disk)");
    }
    if config.graph.remote_url.is_none() {
        missing.push("[graph] remote_url (the embedded graph store is one replica's memory)");
    }
    if config.iceberg.warehouse_location()? == WarehouseLocation::Default {
        missing.push("[iceberg] warehouse = \"s3://bucket/prefix\" (the default is under one replica's data directory; a directory of a file system every replica mounts at the same path also works)");
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(ConfigError::Invalid(format!(
            "database.url is a shared PostgreSQL database, so that several replicas can run, but these engines are not shared: {}",
            missing.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_without_a_file() {
        let config: ConfigFile = toml_edit::de::from_str("").unwrap();
        assert_eq!(config.guards.protected_refs, ["main", "release/*"]);
        assert_eq!(config.local.roles, ["protected-write"]);
        assert_eq!(config.guards.force_role, "protected-force");
        assert_eq!(config.staging.part_size, DEFAULT_PART_SIZE);
        assert_eq!(config.staging.store, StoreKind::Local);
        assert_eq!(config.auth.mode, AuthModeOption::Local);
    }

    #[test]
    fn a_full_file_parses_and_typos_are_refused() {
        let config: ConfigFile = toml_edit::de::from_str(
            r#"
            public_host = "data.example.org"
            [local]
            user = "me"
            roles = ["protected-write", "protected-force"]
            [guards]
            protected_refs = ["main"]
            [staging]
            store = "s3"
            part_size = 5242880
            url_ttl_seconds = 60
            [staging.s3]
            endpoint = "http://127.0.0.1:8333"
            bucket = "stage"
            access_key_id = "a"
            secret_access_key = "b"
            allow_http = true
            [graph]
            remote_url = "http://127.0.0.1:7878"
            "#,
        )
        .unwrap();
        assert_eq!(config.staging.s3.as_ref().unwrap().region, "us-east-1");
        assert_eq!(config.local.user, "me");
        let typo = toml_edit::de::from_str::<ConfigFile>("[guards]\nprotected_ref = []\n");
        assert!(typo.is_err());
    }

    #[test]
    fn a_shared_database_needs_shared_engines() {
        let dir = tempfile::tempdir().unwrap();
        let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let mut config: ConfigFile =
            toml_edit::de::from_str("[database]\nurl = \"postgres://s@127.0.0.1:1/s\"\n").unwrap();
        let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
        let text = error.to_string();
        for needed in [
            "[staging] store",
            "[blob] store",
            "[graph] remote_url",
            "[iceberg] warehouse",
        ] {
            assert!(text.contains(needed), "{text}");
        }
        let s3 = S3Options {
            endpoint: None,
            bucket: "b".into(),
            prefix: String::new(),
            region: "r".into(),
            access_key_id: "a".into(),
            secret_access_key: "s".into(),
            allow_http: false,
        };
        config.staging.store = StoreKind::S3;
        config.staging.s3 = Some(s3.clone());
        config.blob.store = StoreKind::S3;
        config.blob.s3 = Some(s3);
        config.graph.remote_url = Some("http://127.0.0.1:7878".into());
        config.iceberg.warehouse = Some("relative/dir".into());
        let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
        assert!(error.to_string().contains("absolute path"), "{error}");
        config.iceberg.warehouse = Some("/srv/warehouse".into());
        Settings::resolve(dir.path(), listen, None, config.clone()).unwrap();
        config.database.url = Some("mysql://x".into());
        let error = Settings::resolve(dir.path(), listen, None, config).unwrap_err();
        assert!(error.to_string().contains("PostgreSQL URL"), "{error}");
    }

    #[test]
    fn an_s3_warehouse_needs_its_table_and_a_bucket() {
        let parse = |text: &str| {
            toml_edit::de::from_str::<ConfigFile>(text)
                .unwrap()
                .iceberg
                .warehouse_location()
        };
        let access = "[iceberg.s3]\nendpoint = \"http://127.0.0.1:8333\"\naccess_key_id = \"a\"\nsecret_access_key = \"b\"\nallow_http = true\n";
        assert_eq!(
            parse(&format!(
                "[iceberg]\nwarehouse = \"s3://lake/wh/\"\n{access}"
            ))
            .unwrap(),
            WarehouseLocation::S3 {
                bucket: "lake".into(),
                prefix: "wh".into()
            }
        );
        assert_eq!(
            parse(&format!("[iceberg]\nwarehouse = \"s3://lake\"\n{access}")).unwrap(),
            WarehouseLocation::S3 {
                bucket: "lake".into(),
                prefix: String::new()
            }
        );
        let error = parse("[iceberg]\nwarehouse = \"s3://lake/wh\"\n").unwrap_err();
        assert!(error.to_string().contains("[iceberg.s3]"), "{error}");
        for bad in ["s3://", "s3://Lake/x", "s3://ab", "s3://lake/a/../b"] {
            let error = parse(&format!("[iceberg]\nwarehouse = \"{bad}\"\n{access}")).unwrap_err();
            assert!(
                error.to_string().contains("iceberg.warehouse"),
                "{bad}: {error}"
            );
        }
        let error = parse(access).unwrap_err();
        assert!(
            error.to_string().contains("only used with an S3"),
            "{error}"
        );
        assert_eq!(
            parse("[iceberg]\nwarehouse = \"file:///srv/wh\"\n").unwrap(),
            WarehouseLocation::Local(PathBuf::from("/srv/wh"))
        );
        let typo = toml_edit::de::from_str::<ConfigFile>(&format!("{access}bucket = \"x\"\n"));
        assert!(typo.is_err(), "the bucket belongs in the warehouse URL");

        // Replicas accept an S3 warehouse.
        let dir = tempfile::tempdir().unwrap();
        let s3 = "endpoint = \"http://127.0.0.1:8333\"\nbucket = \"stage\"\naccess_key_id = \"a\"\nsecret_access_key = \"b\"\n";
        let config: ConfigFile = toml_edit::de::from_str(&format!(
            "[database]\nurl = \"postgres://s@127.0.0.1:1/s\"\n[staging]\nstore = \"s3\"\n[staging.s3]\n{s3}[blob]\nstore = \"s3\"\n[blob.s3]\n{s3}[graph]\nremote_url = \"http://127.0.0.1:7878\"\n[iceberg]\nwarehouse = \"s3://lake/wh\"\n{access}"
        ))
        .unwrap();
        Settings::resolve(dir.path(), "127.0.0.1:0".parse().unwrap(), None, config).unwrap();
    }

    #[test]
    fn s3_staging_needs_its_table_and_large_parts() {
        let dir = tempfile::tempdir().unwrap();
        let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let mut config = ConfigFile::default();
        config.staging.store = StoreKind::S3;
        let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
        assert!(error.to_string().contains("[staging.s3]"), "{error}");
        config.staging.s3 = Some(S3Options {
            endpoint: None,
            bucket: "b".into(),
            prefix: String::new(),
            region: "r".into(),
            access_key_id: "a".into(),
            secret_access_key: "s".into(),
            allow_http: false,
        });
        config.staging.part_size = 1024;
        let error = Settings::resolve(dir.path(), listen, None, config).unwrap_err();
        assert!(error.to_string().contains("5 MiB"), "{error}");
    }
}
