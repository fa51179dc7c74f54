//! The TABULAR engine: one Iceberg table per dataset, written on the push's branch.
//!
//! The client converts every TABULAR resource to Parquet (arrow-rs, zstd, no field ids)
//! and the server stages it by sha256. [`IcebergEngine::append`] then adds those files to
//! the table `<ns>.<dataset>` on a branch:
//!
//! - the table is created on first append, from the Parquet schema, with the table
//!   property `schema.name-mapping.default` so that readers which need field ids
//!   (pyiceberg, DuckDB, iceberg-rust itself) can read files that have none;
//! - each file is copied to `<table location>/data/<sha256>.parquet` (content-addressed;
//!   a retry finds it there) and described by a `DataFile` built from its footer;
//! - the snapshot is produced by this module, not by iceberg-rust's `Transaction` (which
//!   only commits to `main`): its parent is the branch head, only that branch ref moves,
//!   and the new table metadata is committed by a compare-and-swap on the catalog row
//!   (see `catalog.rs`), retried from a fresh read on conflict;
//! - a file already live on the branch is not added again; if nothing is new the outcome
//!   is [`AppendStatus::Unchanged`] and no snapshot is made;
//! - the files' schema is merged into the branch's schema: new columns are added as
//!   optional, int→long, float→double and decimal precision increases are applied, any
//!   other change is refused ([`IcebergError::IncompatibleSchema`]) unless forced;
//! - a version names the resulting snapshot: the tag `<branch>@<version>`, per branch
//!   (`version.rs`, which also resolves every read); moving an existing version needs
//!   `force`.
//!
//! Crash safety: everything written before the compare-and-swap (data files, manifests,
//! manifest list, metadata JSON) is new and unreferenced until the swap. A crash before it
//! leaves the table as it was, plus orphan files; the same append run again succeeds.
//!
//! Catalog and warehouse: an iceberg-rust `SqlCatalog` (SQLite, or PostgreSQL shared by
//! replicas) and a warehouse reached through iceberg's `StorageFactory`: local disk, or a
//! bucket of S3-compatible storage (`s3.rs`, over `object_store`); on S3 data files are
//! written through `FileIO` (see `warehouse.rs`).

mod catalog;
mod drop;
mod error;
mod expire;
mod expunge;
mod parquet_file;
mod read;
mod s3;
mod schema;
mod snapshot;
mod version;
mod warehouse;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ::iceberg::io::{FileIOBuilder, LocalFsStorageFactory, StorageFactory};

use crate::engines::blob::S3Settings;
use ::iceberg::spec::{
    DEFAULT_SCHEMA_NAME_MAPPING, FormatVersion, MAIN_BRANCH, Operation, Schema, SchemaRef,
    SnapshotRef, SnapshotReference, SnapshotRetention,
};
use ::iceberg::table::Table;
use ::iceberg::{
    Catalog, CatalogBuilder, ErrorKind, MetadataLocation, NamespaceIdent, TableCreation, TableIdent,
};
use arrow_array::RecordBatch;
use futures::stream::{BoxStream, StreamExt, TryStreamExt};
use iceberg_catalog_sql::{SqlBindStyle, SqlCatalog, SqlCatalogBuilder};
use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;
use stone_formats::ParquetLimits;

pub use error::{IcebergError, IncompatibleChange, RefKind};
pub use expire::{ExpireOutcome, Retention};
pub use read::{RecordBatchStream, TableView};
pub use s3::{S3Storage, S3StorageFactory};
pub use schema::{Column, SchemaChange};
pub use version::{TableRef, VERSION_SEPARATOR, version_tag};

use catalog::BindStyle;
use parquet_file::PreparedFile;
use snapshot::{BranchState, Refs, SnapshotContent};

/// Catalog name used when none is configured. Readers must open the catalog under the
/// same name (pyiceberg: `SqlCatalog("stone", …)`): the SQL catalog keys its rows by it.
pub const DEFAULT_CATALOG_NAME: &str = "stone";

/// How to reach the catalog and the warehouse.
#[derive(Debug, Clone)]
pub struct IcebergSettings {
    /// Name of the catalog (the `catalog_name` column of the catalog tables).
    pub catalog_name: String,
    /// sqlx URL of the catalog database: `sqlite:///abs/catalog.db?mode=rwc`, later
    /// `postgres://…`.
    pub catalog_uri: String,
    /// Warehouse root as a URL: `file:///abs/warehouse` or `s3://bucket/prefix`.
    pub warehouse: String,
    /// Storage backend of the warehouse.
    pub storage_factory: Arc<dyn StorageFactory>,
    /// Properties passed to the catalog and its `FileIO` (e.g. `s3.endpoint`).
    pub properties: HashMap<String, String>,
    /// Compare-and-swap attempts before [`IcebergError::CommitConflict`].
    pub commit_attempts: u32,
    /// The bounds a staged Parquet file's footer must keep (`[limits] parquet_*`).
    pub parquet_limits: ParquetLimits,
    /// The bucket of an S3 warehouse (set by [`Self::with_s3_warehouse`]): data files
    /// with a [`AppendOptions::copy_sources`] entry are copied inside it.
    pub s3: Option<S3Settings>,
}

impl IcebergSettings {
    /// SQLite catalog file and warehouse directory on local disk (absolute paths; both are
    /// created if missing).
    pub fn local(catalog_db: impl AsRef<Path>, warehouse_dir: impl AsRef<Path>) -> Self {
        Self {
            catalog_name: DEFAULT_CATALOG_NAME.to_owned(),
            catalog_uri: format!("sqlite://{}?mode=rwc", catalog_db.as_ref().display()),
            warehouse: format!("file://{}", warehouse_dir.as_ref().display()),
            storage_factory: Arc::new(LocalFsStorageFactory),
            properties: HashMap::new(),
            commit_attempts: 10,
            parquet_limits: ParquetLimits::default(),
            s3: None,
        }
    }

    /// Puts the warehouse at `s3://<bucket>/<prefix>` of an S3-compatible server (the
    /// bucket must exist; `settings.prefix` gives the prefix).
    pub fn with_s3_warehouse(mut self, settings: S3Settings) -> Self {
        let prefix = settings.prefix.trim_matches('/');
        self.warehouse = if prefix.is_empty() {
            format!("s3://{}", settings.bucket)
        } else {
            format!("s3://{}/{prefix}", settings.bucket)
        };
        self.storage_factory = Arc::new(S3StorageFactory::new(settings.clone()));
        self.s3 = Some(settings);
        self
    }
}

/// A staged Parquet file to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedFile {
    /// Local path of the staged file. It is copied, never moved or modified.
    pub path: PathBuf,
    /// sha256 of its content, hex. Checked; names the data file in the table.
    pub sha256: String,
}

/// How [`IcebergEngine::append`] treats the branch.
#[derive(Debug, Clone, Default)]
pub struct AppendOptions {
    /// Replace the branch's content by the given files (an `overwrite` snapshot) instead of
    /// adding them. Files already on the branch and among the given ones stay.
    pub replace: bool,
    /// Apply incompatible schema changes (the files' type replaces the column's type, a
    /// missing required column is dropped) and move an existing tag.
    pub force: bool,
    /// Package version to name the resulting snapshot (or the branch head if nothing
    /// changed) by: the tag `<branch>@<version>` ([`version_tag`]). Versions of other
    /// branches are never touched.
    pub tag: Option<String>,
    /// sha256 → `s3://<bucket>/<key>` of the same (verified) content in the S3 warehouse's
    /// bucket: the data file is copied there server-side instead of uploaded. A failed
    /// copy falls back to the upload.
    pub copy_sources: HashMap<String, String>,
    /// Test hooks (feature `test-hooks`); not part of the API.
    #[cfg(feature = "test-hooks")]
    pub hooks: AppendHooks,
}

/// Fault injection for tests.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct AppendHooks {
    /// Stop with [`IcebergError::InjectedFault`] after every file is written, right before
    /// the compare-and-swap, as a crash at that point would.
    pub fail_before_commit: bool,
    /// Wait on this barrier before the first compare-and-swap.
    pub before_first_commit: Option<Arc<tokio::sync::Barrier>>,
}

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppendStatus {
    /// The table had no data yet (it was created by this append, or a crashed append left
    /// it empty); the files are its first snapshot.
    Created,
    /// Files were added to the branch.
    Appended,
    /// The branch's content was replaced.
    Replaced,
    /// The branch already had exactly this content; no snapshot was made (a tag may
    /// still have been set, or the branch created from main).
    Unchanged,
}

/// Result of [`IcebergEngine::append`].
#[derive(Debug, Clone)]
pub struct AppendOutcome {
    /// What happened.
    pub status: AppendStatus,
    /// The branch head after the append.
    pub snapshot_id: i64,
    /// Rows in the files newly referenced by the branch.
    pub rows_added: u64,
    /// Rows no longer referenced by the branch (replace only).
    pub rows_removed: u64,
    /// Rows on the branch after the append.
    pub total_rows: u64,
    /// Top-level columns of the branch's schema after the append.
    pub schema: Vec<Column>,
    /// Schema changes applied by this append.
    pub schema_changes: Vec<SchemaChange>,
    /// Compare-and-swap attempts it took (1 without contention).
    pub commit_attempts: u32,
}

/// A snapshot, as seen through a branch or tag.
#[derive(Debug, Clone)]
pub struct SnapshotInfo {
    /// Snapshot id.
    pub snapshot_id: i64,
    /// Parent snapshot id.
    pub parent_id: Option<i64>,
    /// Table-wide sequence number.
    pub sequence_number: i64,
    /// Commit time, ms since the epoch.
    pub timestamp_ms: i64,
    /// `append`, `overwrite`, …
    pub operation: String,
    /// `total-records` of the snapshot summary.
    pub total_rows: Option<u64>,
    /// Top-level columns of the snapshot's schema.
    pub schema: Vec<Column>,
}

/// A branch or tag of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefInfo {
    /// Ref name.
    pub name: String,
    /// Branch or tag.
    pub kind: RefKind,
    /// Snapshot it points at.
    pub snapshot_id: i64,
}

/// A table's metadata file and the branches a caller may read.
type ReadableKey = (String, Vec<String>);

/// The Iceberg engine. Cheap to share behind an `Arc`; every method is safe to call
/// concurrently, from this and other processes (commits are compare-and-swaps).
#[derive(Debug)]
pub struct IcebergEngine {
    catalog: SqlCatalog,
    pool: AnyPool,
    catalog_name: String,
    bind_style: BindStyle,
    /// Warehouse root without a trailing `/`; tables live at `<warehouse>/<ns>/<table>-<id>`.
    warehouse: String,
    /// The S3 warehouse's bucket, for server-side copies.
    s3: Option<S3Storage>,
    commit_attempts: u32,
    parquet_limits: ParquetLimits,
    /// Per table in this process: appends share it (their compare-and-swaps settle who
    /// goes first), an expiry holds it alone, because an append may reuse a data file
    /// (files are content-addressed) that the expiry would otherwise delete.
    writers: crate::engines::locks::KeyedLocks<tokio::sync::RwLock<()>>,
    /// [`IcebergEngine::readable_files`]' sets, per metadata file and readable branches.
    readable_files: std::sync::Mutex<HashMap<ReadableKey, Arc<HashSet<String>>>>,
}

impl IcebergEngine {
    /// Opens (and creates, if needed) the catalog and the warehouse.
    pub async fn open(settings: IcebergSettings) -> Result<Self, IcebergError> {
        let shown_uri = stone_api::redact_url(&settings.catalog_uri);
        let open_error =
            |source: Box<dyn std::error::Error + Send + Sync>| IcebergError::OpenCatalog {
                uri: shown_uri.clone(),
                source,
            };
        if let Some(directory) = warehouse::local_path(&settings.warehouse) {
            std::fs::create_dir_all(&directory).map_err(|error| open_error(Box::new(error)))?;
        }
        if let Some(path) = sqlite_path(&settings.catalog_uri)
            && let Some(parent) = path.parent()
        {
            std::fs::create_dir_all(parent).map_err(|error| open_error(Box::new(error)))?;
        }
        let bind_style = BindStyle::for_uri(&settings.catalog_uri);
        let mut properties = settings.properties.clone();
        properties
            .entry("pool.max-connections".to_owned())
            .or_insert_with(|| "4".to_owned());
        let catalog = SqlCatalogBuilder::default()
            .uri(settings.catalog_uri.clone())
            .warehouse_location(settings.warehouse.trim_end_matches('/').to_owned())
            .sql_bind_style(match bind_style {
                BindStyle::QuestionMark => SqlBindStyle::QMark,
                BindStyle::DollarNumeric => SqlBindStyle::DollarNumeric,
            })
            .props(properties)
            .with_storage_factory(settings.storage_factory.clone())
            .load(settings.catalog_name.clone(), HashMap::new())
            .await
            .map_err(|error| open_error(Box::new(error)))?;
        let s3 = match settings.s3.clone() {
            Some(s3) => Some(S3Storage::try_from(s3).map_err(|error| open_error(Box::new(error)))?),
            None => None,
        };
        if warehouse::local_path(&settings.warehouse).is_none() {
            probe(&settings).await.map_err(|error| {
                // iceberg's Display repeats its source; say it once.
                let cause = match std::error::Error::source(&error) {
                    Some(source) => format!("{}: {source}", error.message()),
                    None => error.message().to_owned(),
                };
                IcebergError::OpenWarehouse {
                    warehouse: settings.warehouse.clone(),
                    source: cause.into(),
                }
            })?;
        }
        sqlx::any::install_default_drivers();
        let pool = AnyPoolOptions::new()
            .max_connections(2)
            .connect(&settings.catalog_uri)
            .await
            .map_err(|error| open_error(Box::new(error)))?;
        Ok(Self {
            catalog,
            pool,
            catalog_name: settings.catalog_name,
            bind_style,
            warehouse: settings.warehouse.trim_end_matches('/').to_owned(),
            commit_attempts: settings.commit_attempts.max(1),
            parquet_limits: settings.parquet_limits,
            s3,
            writers: Default::default(),
            readable_files: Default::default(),
        })
    }

    /// The underlying iceberg-rust catalog, for reads the engine does not wrap. Do not
    /// commit through it to branches other than `main`.
    pub fn catalog(&self) -> &SqlCatalog {
        &self.catalog
    }

    /// Appends staged Parquet files to `<namespace>.<table>` on `branch` (see the module
    /// documentation for what that means).
    pub async fn append(
        &self,
        namespace: &str,
        table: &str,
        branch: &str,
        files: &[StagedFile],
        options: &AppendOptions,
    ) -> Result<AppendOutcome, IcebergError> {
        check_name("namespace", namespace, NameRule::Identifier)?;
        check_name("table", table, NameRule::Identifier)?;
        check_name("branch", branch, NameRule::Reference)?;
        if let Some(tag) = &options.tag {
            check_name("tag", tag, NameRule::Tag)?;
        }
        let name = qualified(namespace, table);
        if files.is_empty() {
            return Err(IcebergError::NoFiles { table: name });
        }
        let prepared = prepare_all(files, self.parquet_limits).await?;
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let writers = self.writers.get(&name);
        let _appending = writers.read().await;

        let mut placed: HashSet<String> = HashSet::new();
        for attempt in 1..=self.commit_attempts {
            let current = match self.load(&ident, &name).await? {
                Some(current) => current,
                None => self.create(&ident, &name, &prepared).await?,
            };
            if current.metadata().format_version() != FormatVersion::V2 {
                return Err(IcebergError::iceberg(
                    &name,
                    "append",
                    ::iceberg::Error::new(
                        ErrorKind::FeatureUnsupported,
                        "the engine writes Iceberg format version 2 tables only",
                    ),
                ));
            }
            let location = current
                .metadata()
                .location()
                .trim_end_matches('/')
                .to_owned();
            for file in &prepared {
                let target = warehouse::data_file_location(&location, &file.sha256);
                if !placed.contains(&target) {
                    let copy = self.s3.as_ref().and_then(|s3| {
                        let source = options.copy_sources.get(&file.sha256)?;
                        Some((s3, source.as_str()))
                    });
                    warehouse::place(current.file_io(), copy, file, &target).await?;
                    placed.insert(target);
                }
            }
            let attempt_result = self
                .attempt(&current, &ident, &name, branch, &prepared, options, attempt)
                .await?;
            if let Some(outcome) = attempt_result {
                return Ok(outcome);
            }
            tracing::debug!(table = %name, branch, attempt, "commit conflict, retrying");
            let backoff = 20u64.saturating_mul(1 << attempt.min(6));
            tokio::time::sleep(Duration::from_millis(backoff)).await;
        }
        Err(IcebergError::CommitConflict {
            table: name,
            branch: branch.to_owned(),
            attempts: self.commit_attempts,
        })
    }

    /// One attempt: plan against `table`, write, compare-and-swap. `Ok(None)`: the swap
    /// lost.
    #[allow(clippy::too_many_arguments)]
    async fn attempt(
        &self,
        table: &Table,
        ident: &TableIdent,
        name: &str,
        branch: &str,
        prepared: &[PreparedFile],
        options: &AppendOptions,
        attempt: u32,
    ) -> Result<Option<AppendOutcome>, IcebergError> {
        let ice = |operation: &'static str| {
            move |error: ::iceberg::Error| IcebergError::iceberg(name, operation, error)
        };
        let metadata = table.metadata();
        let refs = snapshot::refs(table).map_err(ice("reading refs"))?;
        check_ref_kinds(name, branch, &refs)?;
        let state = snapshot::branch_state(table, branch, &refs)
            .await
            .map_err(ice("reading the branch"))?;

        // Which files go in, which stay, which leave.
        let location = metadata.location().trim_end_matches('/');
        let live_paths: HashSet<&str> = state.live.iter().map(|entry| entry.file_path()).collect();
        let incoming: Vec<(&PreparedFile, String)> = prepared
            .iter()
            .map(|file| (file, warehouse::data_file_location(location, &file.sha256)))
            .collect();
        let incoming_paths: HashSet<&str> =
            incoming.iter().map(|(_, path)| path.as_str()).collect();
        let added: Vec<&(&PreparedFile, String)> = incoming
            .iter()
            .filter(|(_, path)| !live_paths.contains(path.as_str()))
            .collect();
        let (kept, removed): (Vec<_>, Vec<_>) = if options.replace {
            state
                .live
                .iter()
                .partition(|entry| incoming_paths.contains(entry.file_path()))
        } else {
            (state.live.iter().collect(), Vec::new())
        };
        let makes_snapshot = !added.is_empty() || !removed.is_empty();

        // Schema: merge the new files' schemas into the branch's.
        let mut new_schema: SchemaRef = state.schema.clone();
        let mut changes = Vec::new();
        if makes_snapshot {
            let (schema, applied) =
                merge_schemas(table, &state, branch, name, &added, &kept, options)?;
            new_schema = schema;
            changes = applied;
        }

        let mut builder = metadata
            .clone()
            .into_builder(table.metadata_location().map(str::to_owned));
        let mut touched = false;
        let schema_is_new = metadata.schema_by_id(new_schema.schema_id()).is_none();
        if schema_is_new {
            builder = builder
                .add_schema(new_schema.as_ref().clone())
                .map_err(ice("adding the schema"))?;
            touched = true;
        }
        // The table's current schema is main's.
        if branch == MAIN_BRANCH
            && makes_snapshot
            && metadata.current_schema_id() != new_schema.schema_id()
        {
            builder = builder
                .set_current_schema(new_schema.schema_id())
                .map_err(ice("setting the current schema"))?;
            touched = true;
        }
        if schema_is_new
            || metadata
                .properties()
                .get(DEFAULT_SCHEMA_NAME_MAPPING)
                .is_none()
        {
            let mapping = schema::name_mapping(metadata, Some(&new_schema));
            let mapping = serde_json::to_string(&mapping).map_err(|error| {
                ice("writing the name mapping")(
                    ::iceberg::Error::new(ErrorKind::Unexpected, "cannot serialize name mapping")
                        .with_source(error),
                )
            })?;
            if metadata.properties().get(DEFAULT_SCHEMA_NAME_MAPPING) != Some(&mapping) {
                builder = builder
                    .set_properties(HashMap::from([(
                        DEFAULT_SCHEMA_NAME_MAPPING.to_owned(),
                        mapping,
                    )]))
                    .map_err(ice("setting the name mapping"))?;
                touched = true;
            }
        }

        let rows_added: u64 = added.iter().map(|(file, _)| file.record_count()).sum();
        let rows_removed: u64 = removed.iter().map(|entry| entry.record_count()).sum();
        let kept_rows: u64 = kept.iter().map(|entry| entry.record_count()).sum();
        let new_snapshot_id = makes_snapshot.then(|| snapshot::new_snapshot_id(table));
        let Some(head_id) = new_snapshot_id.or(state.head.as_ref().map(|head| head.snapshot_id()))
        else {
            // Unreachable: with files given and nothing on the branch, there is something
            // to add.
            return Err(IcebergError::NoFiles {
                table: name.to_owned(),
            });
        };

        // The version is checked before anything is written: the branch's own version
        // (its tag, or a legacy bare tag in its history), never another branch's.
        let mut set_tag = None;
        if let Some(version) = &options.tag {
            let tag = version_tag(branch, version);
            let existing = version::resolve(metadata, &refs, TableRef::Version { branch, version });
            match existing {
                // Already named; a legacy tag gets its branch's tag too.
                Some(existing) if existing == head_id => {
                    if refs.get(&tag).map(|r| r.snapshot_id) != Some(head_id) {
                        set_tag = Some(tag);
                    }
                }
                Some(existing) if !options.force => {
                    return Err(IcebergError::TagExists {
                        table: name.to_owned(),
                        branch: branch.to_owned(),
                        tag: version.clone(),
                        tagged: existing,
                        requested: head_id,
                    });
                }
                _ => set_tag = Some(tag),
            }
        }

        if let Some(snapshot_id) = new_snapshot_id {
            let spec_id = metadata.default_partition_spec_id();
            let mut data_files = Vec::with_capacity(added.len());
            for (file, path) in &added {
                data_files.push(
                    parquet_file::data_file(file, path.clone(), &new_schema, spec_id)
                        .map_err(ice("describing a data file"))?,
                );
            }
            let content = SnapshotContent {
                snapshot_id,
                operation: if options.replace {
                    Operation::Overwrite
                } else {
                    Operation::Append
                },
                schema: new_schema.clone(),
                added: data_files,
                kept: if options.replace {
                    kept.clone()
                } else {
                    Vec::new()
                },
                removed: removed.clone(),
            };
            let new_snapshot = snapshot::write_snapshot(table, &state, content)
                .await
                .map_err(ice("writing the snapshot"))?;
            let retention = refs
                .get(branch)
                .map(|reference| reference.retention.clone())
                .unwrap_or_else(|| SnapshotRetention::branch(None, None, None));
            builder = builder
                .add_snapshot(new_snapshot)
                .map_err(ice("adding the snapshot"))?
                .set_ref(branch, SnapshotReference::new(snapshot_id, retention))
                .map_err(ice("moving the branch"))?;
            touched = true;
        } else if !state.exists {
            // A new branch whose files are all on main already: the branch starts at
            // main's head.
            builder = builder
                .set_ref(
                    branch,
                    SnapshotReference::new(head_id, SnapshotRetention::branch(None, None, None)),
                )
                .map_err(ice("creating the branch"))?;
            touched = true;
        }
        if let Some(tag) = &set_tag {
            builder = builder
                .set_ref(
                    tag,
                    SnapshotReference::new(
                        head_id,
                        SnapshotRetention::Tag {
                            max_ref_age_ms: None,
                        },
                    ),
                )
                .map_err(ice("tagging"))?;
            touched = true;
        }

        let total_rows = if options.replace {
            kept_rows
        } else {
            state.total_records()
        } + rows_added;
        let outcome = AppendOutcome {
            status: match (makes_snapshot, options.replace) {
                (false, _) => AppendStatus::Unchanged,
                // The table's first data (it was just created, or a crash left it empty).
                (true, _) if metadata.snapshots().len() == 0 => AppendStatus::Created,
                (true, false) => AppendStatus::Appended,
                (true, true) => AppendStatus::Replaced,
            },
            snapshot_id: head_id,
            rows_added,
            rows_removed,
            total_rows,
            schema: schema::columns(&new_schema),
            schema_changes: changes,
            commit_attempts: attempt,
        };
        if !touched {
            return Ok(Some(outcome));
        }

        let new_metadata = builder.build().map_err(ice("building metadata"))?.metadata;
        let (current_location, new_location) =
            write_next_metadata(table, name, &new_metadata).await?;

        #[cfg(feature = "test-hooks")]
        {
            if options.hooks.fail_before_commit {
                return Err(IcebergError::InjectedFault {
                    table: name.to_owned(),
                });
            }
            if attempt == 1
                && let Some(barrier) = &options.hooks.before_first_commit
            {
                barrier.wait().await;
            }
        }
        let swapped = self
            .swap_metadata(ident, name, current_location, &new_location, "committing")
            .await?;
        if swapped {
            tracing::info!(table = %name, branch, snapshot = head_id, status = ?outcome.status, "committed");
            Ok(Some(outcome))
        } else {
            Ok(None)
        }
    }

    /// Loads a table; `None` if it does not exist.
    async fn load(&self, ident: &TableIdent, name: &str) -> Result<Option<Table>, IcebergError> {
        match self.catalog.load_table(ident).await {
            Ok(table) => Ok(Some(table)),
            Err(error) if error.kind() == ErrorKind::TableNotFound => Ok(None),
            Err(error) => Err(IcebergError::iceberg(name, "loading the table", error)),
        }
    }

    async fn load_existing(&self, namespace: &str, table: &str) -> Result<Table, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        self.load(&ident, &name)
            .await?
            .ok_or(IcebergError::TableNotFound { table: name })
    }

    /// Creates the table, without snapshots, from the first file's schema (or loads it if
    /// another writer won the race).
    async fn create(
        &self,
        ident: &TableIdent,
        name: &str,
        prepared: &[PreparedFile],
    ) -> Result<Table, IcebergError> {
        let namespace = ident.namespace();
        match self
            .catalog
            .create_namespace(namespace, HashMap::new())
            .await
        {
            Ok(_) => {}
            Err(error) if error.kind() == ErrorKind::NamespaceAlreadyExists => {}
            Err(error) => {
                // Lost a race with another creator?
                if !self
                    .catalog
                    .namespace_exists(namespace)
                    .await
                    .map_err(|error| IcebergError::iceberg(name, "checking the namespace", error))?
                {
                    return Err(IcebergError::iceberg(name, "creating the namespace", error));
                }
            }
        }
        let merged = schema::merge(
            &[],
            &prepared[0].fields,
            &schema::FieldIds::default(),
            0,
            true,
        );
        let initial = Schema::builder()
            .with_fields(merged.fields)
            .build()
            .map_err(|error| IcebergError::iceberg(name, "building the schema", error))?;
        // A unique location: a dropped and re-created table never shares files with its
        // predecessor.
        let location = format!(
            "{}/{}/{}-{}",
            self.warehouse,
            ident.namespace().join("/"),
            ident.name(),
            uuid::Uuid::now_v7().simple()
        );
        let creation = TableCreation::builder()
            .name(ident.name().to_owned())
            .location(location)
            .schema(initial)
            .format_version(FormatVersion::V2)
            .properties(HashMap::from([(
                "write.format.default".to_owned(),
                "parquet".to_owned(),
            )]))
            .build();
        match self.catalog.create_table(namespace, creation).await {
            Ok(table) => Ok(table),
            Err(error) => match self.load(ident, name).await? {
                Some(table) => Ok(table),
                None => Err(IcebergError::iceberg(name, "creating the table", error)),
            },
        }
    }

    /// Writes `new_metadata` as the table's next metadata file and swaps it in for
    /// `current`'s. `Ok(false)`: another writer committed first (nothing changed).
    async fn commit_metadata(
        &self,
        current: &Table,
        ident: &TableIdent,
        name: &str,
        new_metadata: ::iceberg::spec::TableMetadata,
        operation: &'static str,
    ) -> Result<bool, IcebergError> {
        let (current_location, new_location) =
            write_next_metadata(current, name, &new_metadata).await?;
        self.swap_metadata(ident, name, current_location, &new_location, operation)
            .await
    }

    /// Points the catalog at `new_location` if it still points at `current_location` (a
    /// compare-and-swap). `Ok(false)`: another writer committed first.
    async fn swap_metadata(
        &self,
        ident: &TableIdent,
        name: &str,
        current_location: &str,
        new_location: &MetadataLocation,
        operation: &'static str,
    ) -> Result<bool, IcebergError> {
        catalog::swap_metadata_location(
            &self.pool,
            self.bind_style,
            &self.catalog_name,
            ident,
            current_location,
            &new_location.to_string(),
        )
        .await
        .map_err(|source| IcebergError::Database {
            table: name.to_owned(),
            operation,
            source,
        })
    }
}

/// Merges the schemas of the added files into the branch schema; refuses incompatible
/// changes unless forced. Returns the schema to commit (an existing one if equal) and the
/// changes.
fn merge_schemas(
    table: &Table,
    state: &BranchState,
    branch: &str,
    name: &str,
    added: &[&(&PreparedFile, String)],
    kept: &[&::iceberg::spec::ManifestEntry],
    options: &AppendOptions,
) -> Result<(SchemaRef, Vec<SchemaChange>), IcebergError> {
    let metadata = table.metadata();
    let ids = schema::FieldIds::of_table(metadata);
    let mut fields = state.schema.as_struct().fields().to_vec();
    let mut last_column_id = metadata.last_column_id();
    let mut changes = Vec::new();
    for (file, _) in added {
        let merged = schema::merge(&fields, &file.fields, &ids, last_column_id, false);
        if let Some(conflict) = merged.conflicts.first() {
            if !options.force {
                return Err(IcebergError::IncompatibleSchema {
                    table: name.to_owned(),
                    branch: branch.to_owned(),
                    column: conflict.column.clone(),
                    change: conflict.change.clone(),
                });
            }
            for conflict in &merged.conflicts {
                if let IncompatibleChange::TypeChanged { from, to } = &conflict.change
                    && !kept.is_empty()
                {
                    return Err(IcebergError::TypeChangeNeedsReplace {
                        table: name.to_owned(),
                        branch: branch.to_owned(),
                        column: conflict.column.clone(),
                        from: from.clone(),
                        to: to.clone(),
                    });
                }
            }
        }
        changes.extend(merged.changes);
        changes.extend(
            merged
                .conflicts
                .into_iter()
                .map(|conflict| SchemaChange::Forced {
                    column: conflict.column,
                    change: conflict.change,
                }),
        );
        fields = merged.fields;
        last_column_id = merged.last_column_id;
    }
    if fields.as_slice() == state.schema.as_struct().fields() {
        return Ok((state.schema.clone(), changes));
    }
    // Reuse an existing schema with the same fields, else the next id.
    let candidate = Schema::builder()
        .with_fields(fields.clone())
        .build()
        .map_err(|error| IcebergError::iceberg(name, "building the schema", error))?;
    if let Some(existing) = metadata.schemas_iter().find(|schema| {
        schema.as_struct() == candidate.as_struct() && schema.identifier_field_ids().len() == 0
    }) {
        return Ok((existing.clone(), changes));
    }
    let next_id = metadata
        .schemas_iter()
        .map(|schema| schema.schema_id())
        .max()
        .unwrap_or(0)
        + 1;
    let schema = Schema::builder()
        .with_schema_id(next_id)
        .with_fields(fields)
        .build()
        .map_err(|error| IcebergError::iceberg(name, "building the schema", error))?;
    Ok((Arc::new(schema), changes))
}

/// A branch cannot be pushed under a (legacy, bare) tag's name. Versions need no check:
/// their tags hold `@`, which no branch name does.
fn check_ref_kinds(table: &str, branch: &str, refs: &Refs) -> Result<(), IcebergError> {
    if let Some(existing) = refs.get(branch)
        && !existing.is_branch()
    {
        return Err(IcebergError::RefKindConflict {
            table: table.to_owned(),
            name: branch.to_owned(),
            existing: RefKind::Tag,
        });
    }
    Ok(())
}

async fn prepare_all(
    files: &[StagedFile],
    limits: ParquetLimits,
) -> Result<Vec<PreparedFile>, IcebergError> {
    let mut prepared: Vec<PreparedFile> = Vec::with_capacity(files.len());
    for file in files {
        let path = file.path.clone();
        let sha256 = file.sha256.to_ascii_lowercase();
        if prepared.iter().any(|done| done.sha256 == sha256) {
            continue;
        }
        let ready =
            tokio::task::spawn_blocking(move || parquet_file::prepare(&path, &sha256, &limits))
                .await
                .map_err(IcebergError::Task)??;
        prepared.push(ready);
    }
    Ok(prepared)
}

#[derive(Clone, Copy)]
enum NameRule {
    /// Namespaces and tables: `[A-Za-z0-9_-]`.
    Identifier,
    /// Branches: `[A-Za-z0-9_.-]` (what the client's normalization produces).
    Reference,
    /// Tags (package versions): also `+`.
    Tag,
}

/// Writes and deletes `<warehouse>/.stone-probe`: a missing bucket or wrong credentials
/// show at startup, not at the first push.
async fn probe(settings: &IcebergSettings) -> Result<(), ::iceberg::Error> {
    let file_io = FileIOBuilder::new(settings.storage_factory.clone())
        .with_props(settings.properties.clone())
        .build();
    let location = format!("{}/.stone-probe", settings.warehouse.trim_end_matches('/'));
    file_io
        .new_output(&location)?
        .write(bytes::Bytes::from_static(b"stone"))
        .await?;
    file_io.delete(&location).await
}

fn check_name(what: &'static str, name: &str, rule: NameRule) -> Result<(), IcebergError> {
    let invalid = |reason| IcebergError::InvalidName {
        what,
        name: name.to_owned(),
        reason,
    };
    if name.is_empty() {
        return Err(invalid("it is empty"));
    }
    if name.len() > 255 {
        return Err(invalid("it is longer than 255 bytes"));
    }
    if name.starts_with('.') {
        return Err(invalid("it starts with '.'"));
    }
    let allowed = |character: char| {
        character.is_ascii_alphanumeric()
            || character == '_'
            || character == '-'
            || (matches!(rule, NameRule::Reference | NameRule::Tag) && character == '.')
            || (matches!(rule, NameRule::Tag) && character == '+')
    };
    if !name.chars().all(allowed) {
        return Err(invalid(match rule {
            NameRule::Identifier => "only A-Z, a-z, 0-9, '_' and '-' are allowed",
            NameRule::Reference => "only A-Z, a-z, 0-9, '_', '-' and '.' are allowed",
            NameRule::Tag => "only A-Z, a-z, 0-9, '_', '-', '.' and '+' are allowed",
        }));
    }
    Ok(())
}

fn qualified(namespace: &str, table: &str) -> String {
    format!("{namespace}.{table}")
}

/// The file of a `sqlite:` URL.
fn sqlite_path(uri: &str) -> Option<PathBuf> {
    let rest = uri
        .strip_prefix("sqlite://")
        .or_else(|| uri.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

/// Writes `metadata` as the next metadata file of `table` (nothing points at it yet); returns
/// the table's current metadata location and the new file's.
async fn write_next_metadata<'t>(
    table: &'t Table,
    name: &str,
    metadata: &::iceberg::spec::TableMetadata,
) -> Result<(&'t str, MetadataLocation), IcebergError> {
    let ice = |step: &'static str| {
        move |error: ::iceberg::Error| IcebergError::iceberg(name, step, error)
    };
    let current_location = table
        .metadata_location_result()
        .map_err(ice("reading the metadata location"))?;
    let new_location = current_location
        .parse::<MetadataLocation>()
        .map_err(ice("naming the metadata file"))?
        .with_next_version()
        .with_new_metadata(metadata);
    metadata
        .write_to(table.file_io(), &new_location)
        .await
        .map_err(ice("writing metadata"))?;
    Ok((current_location, new_location))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server shares one engine between request handlers and spawned jobs.
    #[allow(dead_code)]
    fn engine_and_futures_are_send(engine: &'static IcebergEngine) {
        fn send<T: Send + Sync>(_: &T) {}
        fn send_future<T: Send>(_: T) {}
        send(engine);
        send_future(engine.append("ns", "table", "main", &[], &AppendOptions::default()));
        send_future(engine.scan("ns", "table", "main"));
        send_future(engine.read_batches("ns", "table", "main"));
        send_future(engine.drop_table("ns", "table", true));
        send_future(engine.snapshot_of("ns", "table", "main"));
        send_future(engine.expire_snapshots(
            "ns",
            "table",
            &Retention {
                max_snapshot_age: Duration::ZERO,
                min_snapshots_to_keep: 1,
            },
            &|_| false,
        ));
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("branch", "feature-x.1_a", NameRule::Reference).is_ok());
        assert!(check_name("table", "a.b", NameRule::Identifier).is_err());
        assert!(check_name("tag", "1.2.0+build", NameRule::Tag).is_ok());
        assert!(check_name("branch", "", NameRule::Reference).is_err());
        assert!(check_name("branch", "..", NameRule::Reference).is_err());
        assert!(check_name("branch", "a/b", NameRule::Reference).is_err());
    }

    #[test]
    fn catalog_urls() {
        assert_eq!(
            sqlite_path("sqlite:///tmp/a/c.db?mode=rwc"),
            Some(PathBuf::from("/tmp/a/c.db"))
        );
        assert_eq!(sqlite_path("postgres://x"), None);
    }
}
