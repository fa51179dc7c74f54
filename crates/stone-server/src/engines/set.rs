//! The engine set a server writes through: Iceberg, graph, object storage.

use std::time::Duration;

use stone_api::{AssetKind, DatasetDetail, Engine};

use crate::config::{Settings, StoreKind, WarehouseLocation};
use crate::engines::blob::{BlobEngine, S3Settings};
use crate::engines::graph::{GraphEngine, GraphLimits, QueryLimits};
use crate::engines::iceberg::{IcebergEngine, IcebergSettings};
use crate::iri::graph_iri;

/// The three engines.
#[derive(Debug)]
pub struct Engines {
    pub iceberg: IcebergEngine,
    pub graph: GraphEngine,
    pub blob: BlobEngine,
    /// The S3 warehouse is in the S3 staging bucket (same endpoint and key): data files
    /// are copied from staging server-side.
    pub warehouse_copies_from_staging: bool,
    /// Whether the blob store is the S3 staging store's bucket (same endpoint and access
    /// key): staged contents are then copied server-side into it.
    pub blob_copies_from_staging: bool,
}

impl Engines {
    /// Opens the engines the settings name; embedded defaults live under the data
    /// directory (`iceberg/`, `graph/`, `blobs/`).
    pub async fn open(settings: &Settings) -> anyhow::Result<Self> {
        use anyhow::Context;
        let iceberg_options = &settings.config.iceberg;
        let catalog_db = settings.path("iceberg/catalog.db");
        let mut warehouse_copies_from_staging = false;
        let mut iceberg_settings = match iceberg_options.warehouse_location()? {
            WarehouseLocation::Default => {
                IcebergSettings::local(catalog_db, settings.path("iceberg/warehouse"))
            }
            WarehouseLocation::Local(directory) => IcebergSettings::local(catalog_db, directory),
            WarehouseLocation::S3 { bucket, prefix } => {
                let access = iceberg_options
                    .s3
                    .as_ref()
                    .context("an s3:// warehouse needs [iceberg.s3]")?;
                warehouse_copies_from_staging = settings.config.staging.store == StoreKind::S3
                    && settings.config.staging.s3.as_ref().is_some_and(|staging| {
                        staging.bucket == bucket
                            && staging.endpoint == access.endpoint
                            && staging.access_key_id == access.access_key_id
                    });
                // The catalog stays local (or in [database]); only the files move.
                IcebergSettings::local(catalog_db, settings.path("iceberg/warehouse"))
                    .with_s3_warehouse(S3Settings {
                        endpoint: access.endpoint.clone(),
                        bucket,
                        region: access.region.clone(),
                        access_key_id: access.access_key_id.clone(),
                        secret_access_key: access.secret_access_key.clone(),
                        prefix,
                        allow_http: access.allow_http,
                    })
            }
        };
        iceberg_settings.catalog_name = iceberg_options.catalog_name.clone();
        iceberg_settings.commit_attempts = iceberg_options.commit_attempts;
        iceberg_settings.parquet_limits = settings.config.limits.parquet_limits();
        if let Some(url) = &settings.config.database.url {
            // The catalog's tables live beside the push state.
            iceberg_settings.catalog_uri = url.clone();
        }
        // Replicas starting together may race on the catalog's CREATE TABLE IF NOT EXISTS
        // (PostgreSQL can refuse the loser): try again.
        let mut attempt = 0;
        let iceberg = loop {
            attempt += 1;
            match IcebergEngine::open(iceberg_settings.clone()).await {
                Ok(engine) => break engine,
                Err(error) if attempt < 3 && settings.config.database.is_shared() => {
                    tracing::warn!(error = ?error, "cannot open the Iceberg catalog yet; retrying");
                    tokio::time::sleep(Duration::from_millis(500 * attempt)).await;
                }
                Err(error) => return Err(error).context("cannot open the Iceberg engine"),
            }
        };
        let graph = match &settings.config.graph.remote_url {
            Some(url) => GraphEngine::remote(url)
                .await
                .with_context(|| format!("cannot reach the graph server at {url}"))?,
            None => GraphEngine::embedded(&settings.path("graph"))
                .await
                .context("cannot open the embedded graph store")?,
        };
        let (graph_options, sparql) = (&settings.config.graph, &settings.config.sparql);
        let graph = graph
            .with_limits(GraphLimits {
                max_file_bytes: graph_options.max_file_bytes,
                max_literal_bytes: graph_options.max_literal_bytes,
                bulk_load_memory_mb: graph_options.bulk_load_memory_mb,
            })
            .with_query_limits(QueryLimits {
                timeout: Duration::from_secs(sparql.timeout_seconds),
                max_rows: sparql.max_rows,
                max_bytes: sparql.max_result_bytes,
            });
        let blob_copies_from_staging = settings.config.blob.store == StoreKind::S3
            && settings.config.staging.store == StoreKind::S3
            && match (&settings.config.blob.s3, &settings.config.staging.s3) {
                (Some(blob), Some(staging)) => {
                    blob.bucket == staging.bucket
                        && blob.endpoint == staging.endpoint
                        && blob.access_key_id == staging.access_key_id
                }
                _ => false,
            };
        let blob = match settings.config.blob.store {
            StoreKind::Local => BlobEngine::local(&settings.path("blobs"))
                .context("cannot open the local blob store")?,
            StoreKind::S3 => {
                let s3 = settings
                    .config
                    .blob
                    .s3
                    .as_ref()
                    .context("blob.store = \"s3\" needs [blob.s3]")?;
                let engine = BlobEngine::s3(S3Settings {
                    endpoint: s3.endpoint.clone(),
                    bucket: s3.bucket.clone(),
                    region: s3.region.clone(),
                    access_key_id: s3.access_key_id.clone(),
                    secret_access_key: s3.secret_access_key.clone(),
                    prefix: s3.prefix.clone(),
                    allow_http: s3.allow_http,
                })
                .context("cannot configure the S3 blob store")?;
                engine
                    .probe()
                    .await
                    .context("the S3 blob store does not answer")?;
                engine
            }
        };
        Ok(Self {
            iceberg,
            graph,
            blob,
            warehouse_copies_from_staging,
            blob_copies_from_staging,
        })
    }

    /// Whether the engine holds anything for the dataset on the branch.
    pub async fn has_content(
        &self,
        kind: AssetKind,
        namespace: &str,
        name: &str,
        branch: &str,
        public_host: &str,
    ) -> anyhow::Result<bool> {
        Ok(match kind.engine() {
            Engine::Iceberg => self
                .iceberg
                .snapshot_of(namespace, name, branch)
                .await?
                .is_some(),
            Engine::Graph => {
                self.graph
                    .count(&graph_iri(public_host, namespace, name, branch))
                    .await?
                    > 0
            }
            Engine::ObjectStorage => self.blob.head(namespace, name, branch).await?.is_some(),
        })
    }

    /// What the engine holds for a dataset on a branch: `None` when nothing.
    pub async fn describe(
        &self,
        kind: AssetKind,
        namespace: &str,
        name: &str,
        branch: &str,
        public_host: &str,
    ) -> anyhow::Result<Option<DatasetDetail>> {
        Ok(match kind.engine() {
            Engine::Iceberg => self
                .iceberg
                .snapshot_of(namespace, name, branch)
                .await?
                .map(|snapshot| DatasetDetail {
                    table: Some(format!("{namespace}.{name}")),
                    snapshot_id: Some(snapshot.snapshot_id),
                    total_rows: snapshot.total_rows,
                    ..DatasetDetail::default()
                }),
            Engine::Graph => {
                let iri = graph_iri(public_host, namespace, name, branch);
                let count = self.graph.count(&iri).await?;
                (count > 0).then(|| DatasetDetail {
                    graph: Some(iri),
                    total_triples: Some(count),
                    ..DatasetDetail::default()
                })
            }
            Engine::ObjectStorage => {
                self.blob
                    .head(namespace, name, branch)
                    .await?
                    .map(|head| DatasetDetail {
                        files: Some(head.files.len() as u64),
                        bytes: Some(head.files.iter().map(|f| f.size).sum()),
                        ..DatasetDetail::default()
                    })
            }
        })
    }
}
