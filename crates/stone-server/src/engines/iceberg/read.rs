//! Reads: refs and versions, snapshots, scans, the catalog's namespaces and tables, and
//! the view the REST catalog and the pages show.

use super::*;

/// A table as the Iceberg REST catalog serves it ([`IcebergEngine::table_view`]).
#[derive(Debug, Clone)]
pub struct TableView {
    /// `<namespace>.<table>`, for messages.
    pub name: String,
    /// The current metadata file.
    pub metadata_location: Option<String>,
    /// The table's root (`<warehouse>/<ns>/<table>-<id>`): every file of it is under it.
    pub location: String,
    metadata: ::iceberg::spec::TableMetadataRef,
    refs: snapshot::Refs,
    /// The branches of the table (stone branches), sorted.
    pub branches: Vec<String>,
    /// The loaded table, to read its manifests ([`Self::readable_files`]).
    table: Table,
}

impl TableView {
    /// Whether the table still has the snapshot `id` (not expired).
    pub fn has_snapshot(&self, id: i64) -> bool {
        self.metadata.snapshot_by_id(id).is_some()
    }

    /// What a reader of `readable` branches sees: the refs kept (name → snapshot) and
    /// the snapshots reachable from them.
    fn kept(
        &self,
        readable: &std::collections::BTreeSet<String>,
    ) -> (HashMap<&String, i64>, HashSet<i64>) {
        let metadata = &*self.metadata;
        let versions: Vec<_> = readable
            .iter()
            .map(|branch| version::versions(metadata, &self.refs, branch))
            .collect();
        let kept: HashMap<&String, i64> = self
            .refs
            .iter()
            .filter(|(name, reference)| {
                if reference.is_branch() {
                    return readable.contains(name.as_str());
                }
                match name.split_once(VERSION_SEPARATOR) {
                    Some((branch, _)) => readable.contains(branch),
                    None => versions
                        .iter()
                        .any(|found| found.get(name.as_str()) == Some(&reference.snapshot_id)),
                }
            })
            .map(|(name, reference)| (name, reference.snapshot_id))
            .collect();
        let mut reachable = HashSet::new();
        for head in kept.values() {
            let mut current = Some(*head);
            for _ in 0..=metadata.snapshots().len() {
                let Some(id) = current else { break };
                if !reachable.insert(id) {
                    break;
                }
                current = metadata
                    .snapshot_by_id(id)
                    .and_then(|s| s.parent_snapshot_id());
            }
        }
        (kept, reachable)
    }

    /// The files a reader of `readable` branches may read: the manifest lists and
    /// manifests of the snapshots [`Self::metadata_for`] keeps, and the data and delete
    /// files live in them. Reads every manifest of those snapshots (once each).
    pub async fn readable_files(
        &self,
        readable: &std::collections::BTreeSet<String>,
    ) -> Result<HashSet<String>, IcebergError> {
        let (_, reachable) = self.kept(readable);
        let snapshots = reachable
            .iter()
            .filter_map(|id| self.metadata.snapshot_by_id(*id));
        let files = expire::referenced_files(&self.table, snapshots, true)
            .await
            .map_err(|error| IcebergError::iceberg(&self.name, "reading manifests", error))?;
        Ok(files.into_keys().collect())
    }

    /// The table metadata (Iceberg spec JSON) as a reader of `readable` branches sees it,
    /// built from an allow-list, never by cutting the whole: the kept refs (those
    /// branches, their versions `<branch>@<version>`, legacy bare tags in their history:
    /// see `version.rs`) and the snapshots reachable from them; the schemas those
    /// snapshots use, `current-snapshot-id`/`current-schema-id` from `main`'s head when
    /// `main` is kept (else the newest kept snapshot's schema, no current snapshot);
    /// `last-column-id`, `last-sequence-number` and `last-updated-ms` from what is kept;
    /// the partition specs and sort orders over kept columns; the properties listed in
    /// [`SHOWN_PROPERTIES`] and a name mapping recomputed from the kept schemas; no
    /// metadata log (older metadata files list every ref). A key not listed here is not
    /// shown.
    pub fn metadata_for(
        &self,
        readable: &std::collections::BTreeSet<String>,
    ) -> Result<serde_json::Value, IcebergError> {
        use serde_json::{Value, json};
        let metadata = &*self.metadata;
        let serialize = |error: serde_json::Error| {
            IcebergError::iceberg(
                &self.name,
                "serializing metadata",
                ::iceberg::Error::new(ErrorKind::Unexpected, "cannot serialize table metadata")
                    .with_source(error),
            )
        };
        let full = serde_json::to_value(metadata).map_err(serialize)?;
        let (kept, reachable) = self.kept(readable);
        let snapshots: Vec<&SnapshotRef> = metadata
            .snapshots()
            .filter(|snapshot| reachable.contains(&snapshot.snapshot_id()))
            .collect();
        let main_head = kept
            .iter()
            .find(|(name, _)| name.as_str() == MAIN_BRANCH)
            .map(|(_, head)| *head);
        let newest = snapshots
            .iter()
            .max_by_key(|snapshot| (snapshot.sequence_number(), snapshot.timestamp_ms()));
        let current_schema_id = main_head
            .and_then(|head| metadata.snapshot_by_id(head))
            .and_then(|head| head.schema_id())
            .or_else(|| newest.and_then(|snapshot| snapshot.schema_id()))
            .unwrap_or_else(|| metadata.current_schema_id());
        let mut schema_ids: std::collections::BTreeSet<i32> = snapshots
            .iter()
            .filter_map(|snapshot| snapshot.schema_id())
            .collect();
        schema_ids.insert(current_schema_id);
        let schemas: Vec<&Schema> = schema_ids
            .iter()
            .rev()
            .filter_map(|id| metadata.schema_by_id(*id).map(|s| s.as_ref()))
            .collect();
        let current = metadata.schema_by_id(current_schema_id).map(|s| s.as_ref());
        let kept_field = |id: i64| {
            i32::try_from(id).ok().is_some_and(|id| {
                schemas
                    .iter()
                    .any(|schema| schema.field_by_id(id).is_some())
            })
        };
        let last_column_id = schemas
            .iter()
            .map(|schema| schema.highest_field_id())
            .max()
            .unwrap_or(0);
        let mapping = schema::name_mapping_of(current.into_iter().chain(schemas.iter().copied()));
        let mapping = serde_json::to_string(&mapping).map_err(serialize)?;
        let mut properties = serde_json::Map::new();
        for key in SHOWN_PROPERTIES {
            if let Some(value) = metadata.properties().get(*key) {
                properties.insert((*key).to_owned(), value.clone().into());
            }
        }
        properties.insert(DEFAULT_SCHEMA_NAME_MAPPING.to_owned(), mapping.into());

        let list = |key: &str| -> Vec<Value> {
            full.get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let of_kept_snapshot = |entry: &Value| {
            entry
                .get("snapshot-id")
                .and_then(Value::as_i64)
                .is_some_and(|id| reachable.contains(&id))
        };
        let over_kept_columns = |entry: &Value| {
            entry
                .get("fields")
                .and_then(Value::as_array)
                .is_none_or(|fields| {
                    fields.iter().all(|field| {
                        field
                            .get("source-id")
                            .and_then(Value::as_i64)
                            .is_some_and(&kept_field)
                    })
                })
        };
        let specs: Vec<Value> = list("partition-specs")
            .into_iter()
            .filter(over_kept_columns)
            .collect();
        let last_partition_id = specs
            .iter()
            .flat_map(|spec| spec["fields"].as_array().cloned().unwrap_or_default())
            .filter_map(|field| field["field-id"].as_i64())
            .max()
            .unwrap_or(999)
            .max(999);
        let orders: Vec<Value> = list("sort-orders")
            .into_iter()
            .filter(over_kept_columns)
            .collect();
        let default_of = |key: &str, entries: &[Value], id_key: &str| {
            let wanted = full.get(key).and_then(Value::as_i64);
            entries
                .iter()
                .filter_map(|entry| entry.get(id_key).and_then(Value::as_i64))
                .find(|id| Some(*id) == wanted)
                .or_else(|| {
                    entries
                        .iter()
                        .filter_map(|entry| entry.get(id_key).and_then(Value::as_i64))
                        .min()
                })
                .unwrap_or(0)
        };
        let refs: serde_json::Map<String, Value> = full
            .get("refs")
            .and_then(Value::as_object)
            .map(|refs| {
                refs.iter()
                    .filter(|(name, _)| kept.contains_key(name))
                    .map(|(name, reference)| (name.clone(), reference.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let mut shown = json!({
            "format-version": full.get("format-version").cloned().unwrap_or(json!(2)),
            "table-uuid": full.get("table-uuid").cloned().unwrap_or(Value::Null),
            "location": full.get("location").cloned().unwrap_or(Value::Null),
            "last-sequence-number": snapshots.iter().map(|s| s.sequence_number()).max().unwrap_or(0),
            "last-updated-ms": snapshots.iter().map(|s| s.timestamp_ms()).max().unwrap_or(0),
            "last-column-id": last_column_id,
            "current-schema-id": current_schema_id,
            "schemas": list("schemas").into_iter().filter(|schema| {
                schema.get("schema-id").and_then(Value::as_i64).is_some_and(|id| {
                    i32::try_from(id).is_ok_and(|id| schema_ids.contains(&id))
                })
            }).collect::<Vec<_>>(),
            "default-spec-id": default_of("default-spec-id", &specs, "spec-id"),
            "partition-specs": specs,
            "last-partition-id": last_partition_id,
            "default-sort-order-id": default_of("default-sort-order-id", &orders, "order-id"),
            "sort-orders": orders,
            "properties": properties,
            "snapshots": list("snapshots").into_iter().filter(of_kept_snapshot).collect::<Vec<_>>(),
            "snapshot-log": list("snapshot-log").into_iter().filter(of_kept_snapshot).collect::<Vec<_>>(),
            "metadata-log": [],
            "refs": refs,
            "statistics": list("statistics").into_iter().filter(of_kept_snapshot).collect::<Vec<_>>(),
            "partition-statistics": list("partition-statistics").into_iter().filter(of_kept_snapshot).collect::<Vec<_>>(),
        });
        if let (Some(head), Some(object)) = (main_head, shown.as_object_mut()) {
            object.insert("current-snapshot-id".to_owned(), head.into());
        }
        Ok(shown)
    }
}

/// The table properties a catalog answer shows (besides the name mapping it recomputes):
/// the ones stone writes and a reader uses. Any other property stays on the server.
pub const SHOWN_PROPERTIES: &[&str] = &["write.format.default"];

/// Rows of a scan, batch by batch.
pub type RecordBatchStream = BoxStream<'static, Result<RecordBatch, IcebergError>>;

/// The batches of a scan, each with exactly the types of `schema` (the snapshot's schema
/// as Arrow): the reader passes a file's columns through when their types differ only in
/// the names of nested fields (a list's `item`, a map's `entries`, as the file wrote
/// them), and a Parquet or CSV writer given `schema` must get the arrays it describes.
fn conformed(
    stream: impl futures::Stream<Item = Result<RecordBatch, IcebergError>> + Send + 'static,
    schema: arrow_schema::SchemaRef,
    table: String,
) -> RecordBatchStream {
    stream
        .and_then(move |batch| {
            let conformed = conform(&schema, batch).map_err(|error| {
                IcebergError::iceberg(
                    &table,
                    "converting a batch to the table's types",
                    ::iceberg::Error::new(ErrorKind::Unexpected, "cannot convert a scanned batch")
                        .with_source(error),
                )
            });
            futures::future::ready(conformed)
        })
        .boxed()
}

fn conform(
    schema: &arrow_schema::SchemaRef,
    batch: RecordBatch,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let same = batch.num_columns() == schema.fields().len()
        && batch
            .columns()
            .iter()
            .zip(schema.fields())
            .all(|(column, field)| column.data_type() == field.data_type());
    if same {
        return Ok(batch);
    }
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(column, field)| {
            if column.data_type() == field.data_type() {
                Ok(Arc::clone(column))
            } else {
                arrow_cast::cast(column, field.data_type())
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new_with_options(
        Arc::clone(schema),
        columns,
        &arrow_array::RecordBatchOptions::new().with_row_count(Some(batch.num_rows())),
    )
}

impl IcebergEngine {
    /// Branches and tags of the table, sorted by name.
    pub async fn refs(&self, namespace: &str, table: &str) -> Result<Vec<RefInfo>, IcebergError> {
        let name = qualified(namespace, table);
        let loaded = self.load_existing(namespace, table).await?;
        let refs = snapshot::refs(&loaded)
            .map_err(|error| IcebergError::iceberg(&name, "reading refs", error))?;
        let mut infos: Vec<RefInfo> = refs
            .into_iter()
            .map(|(name, reference)| RefInfo {
                kind: if reference.is_branch() {
                    RefKind::Branch
                } else {
                    RefKind::Tag
                },
                name,
                snapshot_id: reference.snapshot_id,
            })
            .collect();
        infos.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(infos)
    }

    /// The versions of `branch` (see `version.rs`), sorted by name, each with the
    /// snapshot it names; empty when the table or the branch does not exist.
    pub async fn versions(
        &self,
        namespace: &str,
        table: &str,
        branch: &str,
    ) -> Result<Vec<RefInfo>, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(loaded) = self.load(&ident, &name).await? else {
            return Ok(Vec::new());
        };
        let refs = snapshot::refs(&loaded)
            .map_err(|error| IcebergError::iceberg(&name, "reading refs", error))?;
        Ok(version::versions(loaded.metadata(), &refs, branch)
            .into_iter()
            .map(|(name, snapshot_id)| RefInfo {
                name,
                kind: RefKind::Tag,
                snapshot_id,
            })
            .collect())
    }

    /// The snapshot `reference` names in a loaded table (see `version.rs`).
    fn resolve<'t>(
        name: &str,
        loaded: &'t Table,
        reference: TableRef<'_>,
    ) -> Result<Option<&'t SnapshotRef>, IcebergError> {
        let refs = snapshot::refs(loaded)
            .map_err(|error| IcebergError::iceberg(name, "reading refs", error))?;
        let metadata = loaded.metadata();
        Ok(version::resolve(metadata, &refs, reference).and_then(|id| metadata.snapshot_by_id(id)))
    }

    /// The snapshot a branch's head or a branch's version points at; `None` if the table
    /// or the ref does not exist (or `main` has no snapshot yet).
    pub async fn snapshot_of<'r>(
        &self,
        namespace: &str,
        table: &str,
        reference: impl Into<TableRef<'r>>,
    ) -> Result<Option<SnapshotInfo>, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(loaded) = self.load(&ident, &name).await? else {
            return Ok(None);
        };
        let metadata = loaded.metadata();
        let Some(snapshot) = Self::resolve(&name, &loaded, reference.into())? else {
            return Ok(None);
        };
        let schema = snapshot
            .schema(metadata)
            .map_err(|error| IcebergError::iceberg(&name, "reading the snapshot schema", error))?;
        Ok(Some(SnapshotInfo {
            snapshot_id: snapshot.snapshot_id(),
            parent_id: snapshot.parent_snapshot_id(),
            sequence_number: snapshot.sequence_number(),
            timestamp_ms: snapshot.timestamp_ms(),
            operation: snapshot.summary().operation.as_str().to_owned(),
            total_rows: snapshot
                .summary()
                .additional_properties
                .get("total-records")
                .and_then(|value| value.parse().ok()),
            schema: schema::columns(&schema),
        }))
    }

    /// Scans a branch's head or a branch's version into Arrow record batches (columns of
    /// the snapshot's schema). An existing table whose `main` has no snapshot yet scans as
    /// empty.
    pub async fn scan<'r>(
        &self,
        namespace: &str,
        table: &str,
        reference: impl Into<TableRef<'r>>,
    ) -> Result<RecordBatchStream, IcebergError> {
        let reference = reference.into();
        let name = qualified(namespace, table);
        let loaded = self.load_existing(namespace, table).await?;
        let Some(snapshot) = Self::resolve(&name, &loaded, reference)? else {
            if reference == TableRef::Branch(MAIN_BRANCH) {
                return Ok(futures::stream::empty().boxed());
            }
            return Err(IcebergError::RefNotFound {
                table: name,
                reference: reference.to_string(),
            });
        };
        let scan_error = {
            let name = name.clone();
            move |error| IcebergError::iceberg(&name, "scanning", error)
        };
        let schema = snapshot
            .schema(loaded.metadata())
            .map_err(|error| IcebergError::iceberg(&name, "reading the snapshot schema", error))?;
        let arrow = Arc::new(
            ::iceberg::arrow::schema_to_arrow_schema(&schema)
                .map_err(|error| IcebergError::iceberg(&name, "converting the schema", error))?,
        );
        let scan = loaded
            .scan()
            .snapshot_id(snapshot.snapshot_id())
            .select_all()
            .build()
            .map_err(scan_error.clone())?;
        let stream = scan.to_arrow().await.map_err(scan_error.clone())?;
        Ok(conformed(stream.map_err(scan_error), arrow, name))
    }

    /// The Arrow schema of the snapshot a branch's head or version points at (the schema
    /// of the batches a scan yields); `None` if the table or the ref does not exist.
    pub async fn arrow_schema<'r>(
        &self,
        namespace: &str,
        table: &str,
        reference: impl Into<TableRef<'r>>,
    ) -> Result<Option<arrow_schema::SchemaRef>, IcebergError> {
        let reference = reference.into();
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(loaded) = self.load(&ident, &name).await? else {
            return Ok(None);
        };
        let metadata = loaded.metadata();
        let schema = match Self::resolve(&name, &loaded, reference)? {
            Some(snapshot) => snapshot.schema(metadata).map_err(|error| {
                IcebergError::iceberg(&name, "reading the snapshot schema", error)
            })?,
            None if reference == TableRef::Branch(MAIN_BRANCH) => metadata.current_schema().clone(),
            None => return Ok(None),
        };
        let arrow = ::iceberg::arrow::schema_to_arrow_schema(&schema)
            .map_err(|error| IcebergError::iceberg(&name, "converting the schema", error))?;
        Ok(Some(Arc::new(arrow)))
    }

    /// The Arrow schema and the batches of ONE snapshot, by id, in a stable order: what a
    /// reader that must not see a later head (a cached Parquet answer keyed by the
    /// snapshot id) scans.
    /// `None` if the table or the snapshot does not exist.
    pub async fn scan_snapshot(
        &self,
        namespace: &str,
        table: &str,
        snapshot_id: i64,
    ) -> Result<Option<(arrow_schema::SchemaRef, RecordBatchStream)>, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(loaded) = self.load(&ident, &name).await? else {
            return Ok(None);
        };
        let metadata = loaded.metadata();
        let Some(snapshot) = metadata.snapshot_by_id(snapshot_id) else {
            return Ok(None);
        };
        let schema = snapshot
            .schema(metadata)
            .map_err(|error| IcebergError::iceberg(&name, "reading the snapshot schema", error))?;
        let arrow = ::iceberg::arrow::schema_to_arrow_schema(&schema)
            .map_err(|error| IcebergError::iceberg(&name, "converting the schema", error))?;
        let scan_error = {
            let name = name.clone();
            move |error| IcebergError::iceberg(&name, "scanning", error)
        };
        // One manifest and one data file at a time: the batches come in the manifests'
        // order, so that two scans of the snapshot encode to the same bytes.
        let scan = loaded
            .scan()
            .snapshot_id(snapshot_id)
            .select_all()
            .with_concurrency_limit(1)
            .build()
            .map_err(scan_error.clone())?;
        let stream = scan.to_arrow().await.map_err(scan_error.clone())?;
        let arrow = Arc::new(arrow);
        Ok(Some((
            Arc::clone(&arrow),
            conformed(stream.map_err(scan_error), arrow, name),
        )))
    }

    /// [`Self::scan`], collected.
    pub async fn read_batches<'r>(
        &self,
        namespace: &str,
        table: &str,
        reference: impl Into<TableRef<'r>>,
    ) -> Result<Vec<RecordBatch>, IcebergError> {
        self.scan(namespace, table, reference)
            .await?
            .try_collect()
            .await
    }

    // Read-only views for the Iceberg REST catalog (`routes/iceberg_rest.rs`).

    /// The namespaces of the catalog, sorted (single-level: stone namespaces that hold
    /// or held a table).
    pub async fn namespaces(&self) -> Result<Vec<String>, IcebergError> {
        let found = self
            .catalog
            .list_namespaces(None)
            .await
            .map_err(|error| IcebergError::iceberg("*", "listing namespaces", error))?;
        let mut names: Vec<String> = found
            .iter()
            .filter_map(|ident| match ident.as_ref().as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            })
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// The tables of a namespace, sorted; `None` when the catalog has no such namespace.
    pub async fn tables(&self, namespace: &str) -> Result<Option<Vec<String>>, IcebergError> {
        let ident = NamespaceIdent::new(namespace.to_owned());
        let exists = self
            .catalog
            .namespace_exists(&ident)
            .await
            .map_err(|error| IcebergError::iceberg(namespace, "checking the namespace", error))?;
        if !exists {
            return Ok(None);
        }
        let found = match self.catalog.list_tables(&ident).await {
            Ok(found) => found,
            Err(error) if error.kind() == ErrorKind::NamespaceNotFound => return Ok(None),
            Err(error) => {
                return Err(IcebergError::iceberg(
                    namespace,
                    "listing the tables of",
                    error,
                ));
            }
        };
        let mut names: Vec<String> = found.into_iter().map(|t| t.name().to_owned()).collect();
        names.sort();
        Ok(Some(names))
    }

    /// The bucket of an `s3://` warehouse (`None` on local disk).
    pub fn s3_settings(&self) -> Option<&S3Settings> {
        self.s3.as_ref().map(S3Storage::settings)
    }

    /// The AWS Signature V4 headers of a `GET` (`head` false) or `HEAD` of the object at
    /// `location` (`s3://<bucket>/<key>`) of an S3 warehouse, at `now`, for a path-style
    /// request to `endpoint` (`http(s)://host[:port]`): `authorization`, `x-amz-date`,
    /// `x-amz-content-sha256`, signing the request's own `x-amz-*` headers `amz_headers`
    /// too. They authorize that one request only (method, object and
    /// time: S3 refuses it 15 minutes later), so the reader needs no keys. `None` on a local
    /// warehouse or with ambient credentials (no access key to sign with). The caller
    /// decides whether the object may be read.
    pub fn sign_read(
        &self,
        endpoint: &str,
        location: &str,
        head: bool,
        amz_headers: &[(String, String)],
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Option<Vec<(&'static str, String)>>, IcebergError> {
        let Some(s3) = &self.s3 else {
            return Ok(None);
        };
        let settings = s3.settings();
        if settings.access_key_id.is_empty() {
            return Ok(None);
        }
        let key = s3
            .key(location)
            .map_err(|error| IcebergError::iceberg(location, "signing", error))?;
        let host = endpoint
            .split_once("://")
            .map_or(endpoint, |(_, rest)| rest)
            .trim_end_matches('/');
        let region = if settings.region.is_empty() {
            "us-east-1"
        } else {
            settings.region.as_str()
        };
        Ok(Some(s3::sigv4_read_headers(
            &crate::sigv4::SigV4 {
                access_key_id: &settings.access_key_id,
                secret_access_key: &settings.secret_access_key,
                region,
            },
            if head { "HEAD" } else { "GET" },
            host,
            &format!("/{}/{}", settings.bucket, key.as_ref()),
            amz_headers,
            now,
        )))
    }

    /// [`TableView::readable_files`], kept per metadata file and set of branches: the
    /// S3 signer asks once per object a reader fetches, and a commit writes a new
    /// metadata file, so a kept set is never stale. At most 64 sets and 2 million paths
    /// are kept (all are dropped when one more would pass either).
    pub async fn readable_files(
        &self,
        view: &TableView,
        readable: &std::collections::BTreeSet<String>,
    ) -> Result<Arc<HashSet<String>>, IcebergError> {
        const KEPT: usize = 64;
        // And at most this many paths in all (~100 bytes each): a few tables of a million
        // files each, not 64 of them.
        const KEPT_PATHS: usize = 2_000_000;
        let key = view
            .metadata_location
            .clone()
            .map(|location| (location, readable.iter().cloned().collect::<Vec<_>>()));
        if let Some(key) = &key {
            let kept = self
                .readable_files
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(found) = kept.get(key) {
                return Ok(Arc::clone(found));
            }
        }
        let files = Arc::new(view.readable_files(readable).await?);
        if let Some(key) = key {
            let mut kept = self
                .readable_files
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let paths: usize = kept.values().map(|set| set.len()).sum();
            if kept.len() >= KEPT || paths + files.len() > KEPT_PATHS {
                kept.clear();
            }
            if files.len() <= KEPT_PATHS {
                kept.insert(key, Arc::clone(&files));
            }
        }
        Ok(files)
    }

    /// The table's current metadata and where it is written; `None` if there is no table.
    pub async fn table_view(
        &self,
        namespace: &str,
        table: &str,
    ) -> Result<Option<TableView>, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(loaded) = self.load(&ident, &name).await? else {
            return Ok(None);
        };
        let refs = snapshot::refs(&loaded)
            .map_err(|error| IcebergError::iceberg(&name, "reading refs", error))?;
        let mut branches: Vec<String> = refs
            .iter()
            .filter(|(_, reference)| reference.is_branch())
            .map(|(name, _)| name.clone())
            .collect();
        branches.sort();
        Ok(Some(TableView {
            name,
            metadata_location: loaded.metadata_location().map(str::to_owned),
            location: loaded.metadata().location().to_owned(),
            metadata: loaded.metadata_ref(),
            refs,
            branches,
            table: loaded,
        }))
    }
}
