//! Snapshots on any branch: reading a branch's state, writing the manifest, the manifest
//! list and the `Snapshot` whose parent is the branch head (iceberg-rust's
//! `SnapshotProducer` always builds on `main`).

use std::collections::HashMap;

use ::iceberg::spec::{
    DataFile, MAIN_BRANCH, ManifestContentType, ManifestEntry, ManifestFile, ManifestListWriter,
    ManifestWriterBuilder, Operation, SchemaRef, Snapshot, SnapshotRef, SnapshotReference,
    SnapshotSummaryCollector, Summary,
};
use ::iceberg::table::Table;
use ::iceberg::{Error, ErrorKind, Result};

/// References of a table by name. `TableMetadata` has no public accessor for its refs;
/// they are read from its serialized form.
pub(crate) type Refs = HashMap<String, SnapshotReference>;

pub(crate) fn refs(table: &Table) -> Result<Refs> {
    let mut json = serde_json::to_value(table.metadata()).map_err(|error| {
        Error::new(ErrorKind::Unexpected, "cannot serialize table metadata").with_source(error)
    })?;
    let Some(refs) = json.get_mut("refs").map(serde_json::Value::take) else {
        return Ok(Refs::new());
    };
    serde_json::from_value(refs).map_err(|error| {
        Error::new(ErrorKind::Unexpected, "cannot read table refs").with_source(error)
    })
}

/// What a branch holds right now.
#[derive(Debug)]
pub(crate) struct BranchState {
    /// The branch ref exists.
    pub exists: bool,
    /// The snapshot a new one builds on: the branch head, or main's head for a branch that
    /// does not exist yet. `None`: nothing to build on.
    pub head: Option<SnapshotRef>,
    /// Manifest list of `head`.
    pub manifests: Vec<ManifestFile>,
    /// Live (added or existing) data file entries of `head`, with inherited sequence
    /// numbers filled in.
    pub live: Vec<ManifestEntry>,
    /// Schema of `head`, or the table's current schema.
    pub schema: SchemaRef,
}

impl BranchState {
    pub(crate) fn total_records(&self) -> u64 {
        self.live.iter().map(ManifestEntry::record_count).sum()
    }
}

pub(crate) async fn branch_state(table: &Table, branch: &str, refs: &Refs) -> Result<BranchState> {
    let metadata = table.metadata();
    let exists = refs.contains_key(branch);
    let head = if exists {
        metadata.snapshot_for_ref(branch)
    } else {
        metadata.snapshot_for_ref(MAIN_BRANCH)
    }
    .cloned();
    let schema = match &head {
        Some(head) => head.schema(metadata)?,
        None => metadata.current_schema().clone(),
    };
    let mut manifests = Vec::new();
    let mut live = Vec::new();
    if let Some(head) = &head {
        manifests = table
            .manifest_list_reader(head)
            .load()
            .await?
            .entries()
            .to_vec();
        for manifest in &manifests {
            if manifest.content != ManifestContentType::Data {
                continue;
            }
            let loaded = manifest.load_manifest(table.file_io()).await?;
            live.extend(
                loaded
                    .entries()
                    .iter()
                    .filter(|entry| entry.is_alive())
                    .map(|entry| entry.as_ref().clone()),
            );
        }
    }
    Ok(BranchState {
        exists,
        head,
        manifests,
        live,
        schema,
    })
}

/// The content of a new snapshot.
pub(crate) struct SnapshotContent<'a> {
    pub snapshot_id: i64,
    /// `Append`: the head's manifests are carried over and `added` joins them.
    /// `Overwrite`: one manifest with `added`, `kept` (existing) and `removed` (deleted).
    pub operation: Operation,
    pub schema: SchemaRef,
    pub added: Vec<DataFile>,
    pub kept: Vec<&'a ManifestEntry>,
    pub removed: Vec<&'a ManifestEntry>,
}

/// Writes manifest and manifest list (new, uniquely named files) and returns the snapshot.
/// Nothing is referenced by the table until the caller commits metadata that contains it.
pub(crate) async fn write_snapshot(
    table: &Table,
    state: &BranchState,
    content: SnapshotContent<'_>,
) -> Result<Snapshot> {
    let metadata = table.metadata();
    let location = metadata.location().trim_end_matches('/');
    let commit_id = uuid::Uuid::now_v7();
    let sequence_number = metadata.next_sequence_number();
    let spec = metadata.default_partition_spec().clone();
    let snapshot_id = content.snapshot_id;

    let mut manifests = Vec::new();
    if !(content.added.is_empty() && content.kept.is_empty() && content.removed.is_empty()) {
        let output = table
            .file_io()
            .new_output(format!("{location}/metadata/{commit_id}-m0.avro"))?;
        let mut writer = ManifestWriterBuilder::new(
            output,
            Some(snapshot_id),
            content.schema.clone(),
            spec.as_ref().clone(),
        )
        .build_v2_data();
        for file in &content.added {
            // A negative data sequence number means "inherit from the manifest list".
            writer.add_file(file.clone(), -1)?;
        }
        for entry in &content.kept {
            let (snapshot, sequence) = inherited(entry)?;
            writer.add_existing_file(
                entry.data_file.clone(),
                snapshot,
                sequence,
                entry.file_sequence_number,
            )?;
        }
        for entry in &content.removed {
            let (_, sequence) = inherited(entry)?;
            writer.add_delete_file(
                entry.data_file.clone(),
                sequence,
                entry.file_sequence_number,
            )?;
        }
        manifests.push(writer.write_manifest_file().await?);
    }
    if content.operation == Operation::Append {
        manifests.extend(
            state
                .manifests
                .iter()
                .filter(|manifest| {
                    manifest.content != ManifestContentType::Data
                        || manifest.has_added_files()
                        || manifest.has_existing_files()
                })
                .cloned(),
        );
    }

    let manifest_list = format!("{location}/metadata/snap-{snapshot_id}-1-{commit_id}.avro");
    let parent_id = state.head.as_ref().map(|head| head.snapshot_id());
    let mut list = ManifestListWriter::v2(
        table.file_io().new_output(&manifest_list)?.writer().await?,
        snapshot_id,
        parent_id,
        sequence_number,
    );
    list.add_manifests(manifests.into_iter())?;
    list.close().await?;

    // Summary: iceberg's collector for the added/deleted figures, totals from the
    // resulting set of live files (iceberg-rust derives them from main's summary).
    let mut collector = SnapshotSummaryCollector::default();
    for file in &content.added {
        collector.add_file(file, content.schema.clone(), spec.clone());
    }
    for entry in &content.removed {
        collector.remove_file(&entry.data_file, content.schema.clone(), spec.clone());
    }
    let mut properties = collector.build();
    let remaining: Vec<&DataFile> = match content.operation {
        Operation::Append => state.live.iter().map(|entry| &entry.data_file).collect(),
        _ => content.kept.iter().map(|entry| &entry.data_file).collect(),
    };
    let files = remaining.iter().copied().chain(content.added.iter());
    let (count, records, size) = files.fold((0u64, 0u64, 0u64), |(count, records, size), file| {
        (
            count + 1,
            records + file.record_count(),
            size + file.file_size_in_bytes(),
        )
    });
    for (key, value) in [
        ("total-data-files", count),
        ("total-records", records),
        ("total-files-size", size),
        ("total-delete-files", 0),
        ("total-position-deletes", 0),
        ("total-equality-deletes", 0),
    ] {
        properties.insert(key.to_owned(), value.to_string());
    }

    Ok(Snapshot::builder()
        .with_snapshot_id(snapshot_id)
        .with_parent_snapshot_id(parent_id)
        .with_sequence_number(sequence_number)
        .with_timestamp_ms(now_ms())
        .with_manifest_list(manifest_list)
        .with_summary(Summary {
            operation: content.operation,
            additional_properties: properties,
        })
        .with_schema_id(content.schema.schema_id())
        .build())
}

fn inherited(entry: &ManifestEntry) -> Result<(i64, i64)> {
    match (entry.snapshot_id, entry.sequence_number) {
        (Some(snapshot), Some(sequence)) => Ok((snapshot, sequence)),
        _ => Err(Error::new(
            ErrorKind::DataInvalid,
            format!(
                "manifest entry for {} has no snapshot id or sequence number",
                entry.file_path()
            ),
        )),
    }
}

/// A positive snapshot id not used by the table.
pub(crate) fn new_snapshot_id(table: &Table) -> i64 {
    loop {
        let (high, low) = uuid::Uuid::new_v4().as_u64_pair();
        let id = ((high ^ low) & (i64::MAX as u64)) as i64;
        if id != 0 && table.metadata().snapshot_by_id(id).is_none() {
            return id;
        }
    }
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
