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
//! protected_refs = ["main", "release-*"]
//! write_role = "protected-write"
//! force_role = "protected-force"
//!
//! [staging]
//! store = "local"                        # or "s3"
//! part_size = 67108864                   # larger files are uploaded in parts
//! url_ttl_seconds = 3600
//! # base_url = "http://127.0.0.1:8080"   # local store: where upload URLs point (default:
//!                                        # the address the server listens on)
//! reserve_bytes = 67108864               # local store: free space uploads leave for the
//!                                        # server's own writes (64 MiB); past it: 507
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
//! bulk_load_memory_mb = 400              # the embedded store's bulk-loader batches (MB)
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
//! dependency_retry_seconds = 60          # a dataset write is tried again this long while a
//!                                        # store it needs does not answer (0: never)
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
//! clock_margin_seconds = 300             # how far the S3 store's and the replicas'
//!                                        # clocks may be apart (straight uploads)
//!
//! [limits]                               # the most one push may declare; over one:
//!                                        # 400 manifest.invalid_size / 413 push.too_large,
//!                                        # nothing recorded
//! max_file_size = 5497558138880          # bytes of one file (5 TiB; at most 2^63 - 1)
//! max_push_bytes = 10995116277760        # bytes of a push's distinct files (10 TiB)
//! max_datasets = 100000                  # datasets of one push
//! max_contents = 2000000                 # distinct files (sha256) of one push
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
mod events;
mod options;
#[cfg(test)]
mod tests;

pub use events::{EventOptions, SubscriptionOptions};
pub use options::{
    AccessOption, AuthModeOption, AuthOptions, AuthzOptions, BlobOptions, DEFAULT_FORCE_ROLE,
    DEFAULT_WRITE_ROLE, DatabaseOptions, GcOptions, GrantOptions, GraphOptions, GuardOptions,
    IcebergOptions, JobOptions, LimitsOptions, LocalOptions, MAX_CLOCK_MARGIN_SECONDS,
    NamespaceQuotaOptions, QuotaOptions, RetentionOptions, S3AccessOptions, S3Options,
    ServerOptions, SparqlOptions, StagingOptions, StepUpOptions, StoreKind, WarehouseLocation,
};

/// Environment variables read by the server.
pub mod env_vars {
    /// Test hook, not for production: the name of a dataset. The commit job stops right
    /// after that dataset's engine write returned and before the push state records it
    /// (the worst moment for a crash), writes `<data dir>/test-hooks/paused`, and waits
    /// until the process is killed, or stopped (SIGTERM: the job then goes on and parks at
    /// the next dataset), or until `<data dir>/test-hooks/resume` exists (the job goes on,
    /// and no commit pauses any more). Tests use it to kill or stop the server mid-commit,
    /// or to hold a commit under way while a dependency is away.
    pub const STONE_SERVER_TEST_PAUSE_COMMIT: &str = "STONE_SERVER_TEST_PAUSE_COMMIT";
    /// Test hook, not for production: a directory. Where it holds a file
    /// `pause-<point>`, the server writes `paused-<point>` when it reaches that point and
    /// waits until `pause-<point>` is removed. Points: `decide-<sha256>` (the S3 sweep
    /// found an object of that content old and unnamed by the live pushes, and has not
    /// decided yet; `paused-<point>` holds the round's age limit), `delete-<sha256>` (it decided to delete it and is about to),
    /// `reuse-<sha256>` (a push found that content staged and has not touched it yet). Tests use it to force
    /// the interleaving of a sweep and a push across replicas (issue 24).
    pub const STONE_SERVER_TEST_PAUSE_AT: &str = "STONE_SERVER_TEST_PAUSE_AT";
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
    /// Issue 58: webhook deliveries and the operator's subscriptions.
    #[serde(default)]
    pub events: EventOptions,
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
    let bounds: [(&str, u64); 10] = [
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
        (
            "graph.bulk_load_memory_mb",
            graph.bulk_load_memory_mb as u64,
        ),
        ("sparql.timeout_seconds", sparql.timeout_seconds),
        ("sparql.max_result_bytes", sparql.max_result_bytes),
        ("sparql.max_rows", sparql.max_rows),
        ("jobs.max_crashes", u64::from(config.jobs.max_crashes)),
    ];
    if let Some((key, _)) = bounds.iter().find(|(_, value)| *value == 0) {
        return Err(ConfigError::Invalid(format!("{key} must be positive")));
    }
    let days = config.events.retention_days;
    if !days.is_finite() || !(0.0..=36_500.0).contains(&days) {
        return Err(ConfigError::Invalid(format!(
            "events.retention_days must be 0 (keep every event) or a number of days up to 36500, not {days}"
        )));
    }
    Ok(())
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
        if !(1..=MAX_CLOCK_MARGIN_SECONDS).contains(&gc.clock_margin_seconds) {
            return Err(ConfigError::Invalid(format!(
                "gc.clock_margin_seconds must be from 1 (stores date objects to the second) to {MAX_CLOCK_MARGIN_SECONDS} (a day: clocks further apart need fixing, not a margin)"
            )));
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
            if !stone_verify::secure_url(issuer) {
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
            // Refused, never rewritten: a pattern is matched against branches as they
            // arrive (normalized: `release/2.0` is `release-2.0`), as written.
            if let Err(instead) = stone_package::branch::check_ref_pattern(pattern) {
                return Err(ConfigError::Invalid(format!(
                    "guards.protected_refs: {pattern:?} can never match a branch as it arrives (branch names are normalized: only letters, digits, `_`, `-`, and `.` after the first character are kept, the rest become `-`); write {instead:?}"
                )));
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
