//! The sections of the configuration file, each with its defaults.

use super::*;

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
    /// Most datasets in one push (default 100,000).
    #[serde(default = "default_max_datasets")]
    pub max_datasets: usize,
    /// Most distinct files (sha256) in one push (default 2,000,000).
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
    /// The most bytes the cache of tables' Parquet answers keeps (`<data>/cache/content`);
    /// the oldest files go first.
    #[serde(default = "default_content_cache_bytes")]
    pub content_cache_bytes: u64,
    /// How far the clocks of the S3 store and of the replicas may be apart, as the rule
    /// between straight uploads and the sweep that deletes an expired push's
    /// (`straight.rs`) allows for them.
    #[serde(default = "default_clock_margin")]
    pub clock_margin_seconds: u64,
}

/// The largest `[gc] clock_margin_seconds` the configuration takes (a day).
pub const MAX_CLOCK_MARGIN_SECONDS: u64 = 86_400;

impl GcOptions {
    /// [`Self::clock_margin_seconds`], from 1 s to [`MAX_CLOCK_MARGIN_SECONDS`].
    pub fn clock_margin(&self) -> chrono::Duration {
        let seconds = self.clock_margin_seconds.clamp(1, MAX_CLOCK_MARGIN_SECONDS);
        chrono::Duration::seconds(i64::try_from(seconds).unwrap_or(0))
    }
}

impl Default for GcOptions {
    fn default() -> Self {
        Self {
            interval_seconds: default_gc_interval(),
            push_expiry_seconds: default_push_expiry(),
            staged_content_seconds: default_day(),
            multipart_seconds: default_day(),
            content_cache_bytes: default_content_cache_bytes(),
            clock_margin_seconds: default_clock_margin(),
        }
    }
}

fn default_content_cache_bytes() -> u64 {
    16 << 30
}

fn default_gc_interval() -> u64 {
    3600
}

fn default_clock_margin() -> u64 {
    300
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
    vec!["main".to_owned(), "release-*".to_owned()]
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
    /// Local store: free bytes of its disk that uploads may not take (issue 54), so that
    /// the state database, the engines and the logs can still write when uploads filled
    /// the rest. An upload or a push that would go below it is refused (507).
    #[serde(default = "default_reserve")]
    pub reserve_bytes: u64,
}

impl Default for StagingOptions {
    fn default() -> Self {
        Self {
            store: StoreKind::Local,
            part_size: default_part_size(),
            url_ttl_seconds: default_ttl(),
            base_url: None,
            s3: None,
            reserve_bytes: default_reserve(),
        }
    }
}

/// 64 MiB: the state database's and the logs' writes of a day of pushes many times over.
fn default_reserve() -> u64 {
    64 << 20
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
    /// What the embedded store's bulk loader may hold in its batches, in MB (its own
    /// estimate, over its threads; the server's peak while loading is about this plus
    /// ~150 MB): more loads large graphs faster.
    #[serde(default = "default_bulk_load_memory_mb")]
    pub bulk_load_memory_mb: usize,
}

impl Default for GraphOptions {
    fn default() -> Self {
        Self {
            remote_url: None,
            max_file_bytes: default_max_graph_file_bytes(),
            max_literal_bytes: default_max_literal_bytes(),
            bulk_load_memory_mb: default_bulk_load_memory_mb(),
        }
    }
}

/// As `GraphLimits::default()` (engines/graph.rs), written here too: the engines read the
/// config, not the other way round.
fn default_bulk_load_memory_mb() -> usize {
    400
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
    /// Seconds a dataset write is tried again, with back-off, while a store it depends on
    /// does not answer (`engine.unavailable`: S3, the graph server, the catalog's
    /// database away) before the dataset fails (issue 54); 0: never again.
    #[serde(default = "default_dependency_retry_seconds")]
    pub dependency_retry_seconds: u64,
}

impl Default for JobOptions {
    fn default() -> Self {
        Self {
            concurrency: default_concurrency(),
            lease_seconds: default_lease_seconds(),
            max_crashes: default_max_crashes(),
            dependency_retry_seconds: default_dependency_retry_seconds(),
        }
    }
}

fn default_dependency_retry_seconds() -> u64 {
    60
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
