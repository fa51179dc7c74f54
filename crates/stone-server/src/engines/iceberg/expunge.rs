//! What a removed branch takes with it ([`super::IcebergEngine::remove_branch`]): the
//! snapshots, legacy tags and schemas only its refs reached, then their files and the
//! older metadata files that name them. A reader of every remaining branch may be given
//! credentials for the table's whole prefix (`vended.rs`): nothing of a removed private
//! branch may stay there for such credentials to read.

use std::collections::{BTreeSet, HashMap, HashSet};

use ::iceberg::ErrorKind;
use ::iceberg::spec::{Schema, TableMetadata};
use ::iceberg::table::Table;

use super::expire::{self, history};
use super::schema;
use super::snapshot::Refs;
use super::version::VERSION_SEPARATOR;

/// What goes with the removed refs.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Snapshots no remaining ref reaches that a removed ref reached.
    pub snapshots: BTreeSet<i64>,
    /// Schemas only those snapshots used (never the current one).
    pub schemas: BTreeSet<i32>,
}

/// The plan for removing the refs `removed`, which gains the legacy bare tags (no
/// `<branch>@`) whose snapshot only the removed refs' history held: they were versions of
/// the removed branch alone (see `version.rs`).
pub(crate) fn plan(metadata: &TableMetadata, refs: &Refs, removed: &mut HashSet<String>) -> Plan {
    let reach = |ids: &mut HashSet<i64>, head: i64| ids.extend(history(metadata, head));
    let mut removed_reach = HashSet::new();
    let mut kept = HashSet::new();
    for (name, reference) in refs {
        if removed.contains(name) {
            reach(&mut removed_reach, reference.snapshot_id);
        } else if reference.is_branch() {
            reach(&mut kept, reference.snapshot_id);
        }
    }
    let orphaned_tags: Vec<String> = refs
        .iter()
        .filter(|(name, reference)| {
            !reference.is_branch()
                && !name.contains(VERSION_SEPARATOR)
                && !removed.contains(name.as_str())
                && removed_reach.contains(&reference.snapshot_id)
                && !kept.contains(&reference.snapshot_id)
        })
        .map(|(name, _)| name.clone())
        .collect();
    removed.extend(orphaned_tags);
    for (name, reference) in refs {
        if !removed.contains(name) && !reference.is_branch() {
            reach(&mut kept, reference.snapshot_id);
        }
    }
    let snapshots: BTreeSet<i64> = removed_reach.difference(&kept).copied().collect();
    let still_used: HashSet<i32> = metadata
        .snapshots()
        .filter(|snapshot| !snapshots.contains(&snapshot.snapshot_id()))
        .filter_map(|snapshot| snapshot.schema_id())
        .collect();
    let schemas = metadata
        .snapshots()
        .filter(|snapshot| snapshots.contains(&snapshot.snapshot_id()))
        .filter_map(|snapshot| snapshot.schema_id())
        .filter(|id| !still_used.contains(id) && *id != metadata.current_schema_id())
        .collect();
    Plan { snapshots, schemas }
}

/// The table's name mapping (JSON) without the schemas `removed`.
pub(crate) fn name_mapping_without(
    metadata: &TableMetadata,
    removed: &BTreeSet<i32>,
) -> Result<String, ::iceberg::Error> {
    let mut schemas: Vec<&Schema> = metadata
        .schemas_iter()
        .filter(|schema| !removed.contains(&schema.schema_id()))
        .map(|schema| schema.as_ref())
        .collect();
    schemas.sort_by_key(|schema| std::cmp::Reverse(schema.schema_id()));
    let mapping = schema::name_mapping_of(
        [metadata.current_schema().as_ref()]
            .into_iter()
            .chain(schemas),
    );
    serde_json::to_string(&mapping).map_err(|error| {
        ::iceberg::Error::new(ErrorKind::Unexpected, "cannot serialize name mapping")
            .with_source(error)
    })
}

/// What [`delete_files`] deleted.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Deleted {
    pub files: u64,
    pub bytes: u64,
    pub metadata_files: u64,
}

/// After the commit that removed the refs: deletes the files only the plan's snapshots
/// referenced (read through `previous`, whose metadata still holds them; `needed`: what
/// the kept snapshots read), then the metadata files of `log` (the older metadata files
/// the new one lists) that name a removed ref, snapshot or schema. Failures are logged;
/// what cannot be deleted is left behind as an orphan no ref names.
pub(crate) async fn delete_files(
    previous: &Table,
    name: &str,
    plan: &Plan,
    removed: &HashSet<String>,
    needed: &HashMap<String, Option<u64>>,
    log: &[String],
) -> Deleted {
    let mut deleted = Deleted::default();
    let metadata = previous.metadata();
    match expire::referenced_files(
        previous,
        metadata
            .snapshots()
            .filter(|snapshot| plan.snapshots.contains(&snapshot.snapshot_id())),
        false,
    )
    .await
    {
        Ok(candidates) => {
            let (files, bytes) = expire::delete_unneeded(previous, name, &candidates, needed).await;
            deleted.files = files;
            deleted.bytes = bytes;
        }
        Err(error) => {
            tracing::warn!(table = %name, error = %error, "cannot read the files of a removed branch; they stay as orphans");
        }
    }
    let location = format!("{}/", metadata.location().trim_end_matches('/'));
    let file_io = previous.file_io();
    for path in log.iter().filter(|path| path.starts_with(&location)) {
        let text = match file_io.new_input(path) {
            Ok(input) => match input.read().await {
                Ok(bytes) => bytes,
                Err(_) => continue,
            },
            Err(_) => continue,
        };
        let Ok(old) = serde_json::from_slice::<serde_json::Value>(&text) else {
            continue;
        };
        if !names_any(&old, plan, removed) {
            continue;
        }
        match file_io.delete(path).await {
            Ok(()) => deleted.metadata_files += 1,
            Err(error) => {
                tracing::warn!(table = %name, path, error = %error, "cannot delete a metadata file naming a removed branch; left behind");
            }
        }
    }
    deleted
}

/// Whether table metadata (JSON) names a removed ref, a removed snapshot or a removed
/// schema.
fn names_any(metadata: &serde_json::Value, plan: &Plan, removed: &HashSet<String>) -> bool {
    let ids = |list: &str, key: &str| -> Vec<i64> {
        metadata[list]
            .as_array()
            .map(|entries| entries.iter().filter_map(|e| e[key].as_i64()).collect())
            .unwrap_or_default()
    };
    metadata["refs"]
        .as_object()
        .is_some_and(|refs| refs.keys().any(|name| removed.contains(name)))
        || ids("snapshots", "snapshot-id")
            .iter()
            .any(|id| plan.snapshots.contains(id))
        || ids("schemas", "schema-id")
            .iter()
            .any(|id| i32::try_from(*id).is_ok_and(|id| plan.schemas.contains(&id)))
}
