//! Snapshot expiry: which snapshots of a table no ref needs any more, and which files
//! only they referenced.
//!
//! A snapshot is **kept** when
//!
//! - a tag names it: every named version (`<branch>@<version>`) and every legacy bare tag
//!   (named versions are never expired);
//! - it is in the history of a branch whose whole history the caller keeps (protected
//!   branches the push may not expire);
//! - it is in the history of a branch (the head and its ancestors) and is among the
//!   branch's `min_snapshots_to_keep` newest, or younger than `max_snapshot_age`, or lies
//!   between the head and a legacy bare tag in that history (a legacy tag reads as a
//!   version of the branch only while the chain of parents reaches it, see `version.rs`);
//! - no branch reaches it and it is younger than `max_snapshot_age`.
//!
//! Every other snapshot is expired: the table metadata without them is committed first (a
//! compare-and-swap, like an append), then the files that only they referenced are deleted
//! (manifest lists, manifests, data files; only under the table's location). A manifest a
//! kept snapshot lists, and a data file one of them reads (an added or existing entry),
//! is never deleted: data files are content-addressed and shared by snapshots and
//! branches. (A deleted entry in a kept manifest only records that the file left; no
//! scan of a kept snapshot reads it.) A crash between the commit and
//! the deletions leaves orphan files, never a reference to a missing file.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use ::iceberg::spec::{SnapshotRef, TableMetadata};
use ::iceberg::table::Table;
use ::iceberg::{NamespaceIdent, TableIdent};

use super::snapshot::{self, Refs};
use super::version::VERSION_SEPARATOR;
use super::{IcebergEngine, IcebergError, NameRule, check_name, qualified};
use crate::config::RetentionOptions;

/// How long snapshots are kept (`[retention]` of the server configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Snapshots younger than this are kept.
    pub max_snapshot_age: Duration,
    /// The newest snapshots of every branch's history kept whatever their age (the head
    /// counts; values below 1 count as 1).
    pub min_snapshots_to_keep: u32,
}

impl Retention {
    /// What `[retention]` asks the engine to keep; `None` when expiry is off (no
    /// `max_snapshot_age_seconds`).
    pub fn configured(options: &RetentionOptions) -> Option<Self> {
        let max_age = options.max_snapshot_age_seconds?;
        Some(Self {
            max_snapshot_age: Duration::from_secs(max_age),
            min_snapshots_to_keep: options.min_snapshots_to_keep.max(1),
        })
    }
}

/// What an expiry did to one table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExpireOutcome {
    /// Snapshots removed from the table metadata.
    pub expired_snapshots: u64,
    /// Files deleted: data files, manifests and manifest lists only expired snapshots
    /// referenced.
    pub deleted_files: u64,
    /// Their size in bytes.
    pub deleted_bytes: u64,
}

impl IcebergEngine {
    /// Expires the snapshots of `<namespace>.<table>` that `retention` no longer keeps
    /// (see the module documentation), then deletes the files only they referenced.
    /// `keep_history(branch)`: whether every snapshot in that branch's history stays (the
    /// caller passes the protected branches its push may not expire). A table that does
    /// not exist has nothing to expire.
    ///
    /// If other writers win every compare-and-swap, nothing is expired (logged).
    /// Once the new metadata is committed the expiry has happened: a file that cannot be
    /// deleted afterwards is logged and left behind (an orphan no snapshot references),
    /// not reported as a failure.
    pub async fn expire_snapshots(
        &self,
        namespace: &str,
        table: &str,
        retention: &Retention,
        keep_history: &(dyn Fn(&str) -> bool + Sync),
    ) -> Result<ExpireOutcome, IcebergError> {
        check_name("namespace", namespace, NameRule::Identifier)?;
        check_name("table", table, NameRule::Identifier)?;
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let writers = self.writers.get(&name);
        let _expiring = writers.write().await;
        for attempt in 1..=self.commit_attempts {
            let Some(current) = self.load(&ident, &name).await? else {
                return Ok(ExpireOutcome::default());
            };
            let ice = |operation: &'static str| {
                let name = name.clone();
                move |error: ::iceberg::Error| IcebergError::iceberg(&name, operation, error)
            };
            let metadata = current.metadata();
            let refs = snapshot::refs(&current).map_err(ice("reading refs"))?;
            let expired =
                expired_snapshots(metadata, &refs, retention, snapshot::now_ms(), keep_history);
            if expired.is_empty() {
                return Ok(ExpireOutcome::default());
            }
            // What the kept snapshots need is read before anything changes: if it cannot
            // be read, nothing is expired.
            let needed = referenced_files(
                &current,
                metadata
                    .snapshots()
                    .filter(|snapshot| !expired.contains(&snapshot.snapshot_id())),
                true,
            )
            .await
            .map_err(ice("reading the kept snapshots"))?;
            let ids: Vec<i64> = expired.iter().copied().collect();
            let new_metadata = metadata
                .clone()
                .into_builder(current.metadata_location().map(str::to_owned))
                .remove_snapshots(&ids)
                .build()
                .map_err(ice("building metadata"))?
                .metadata;
            if !self
                .commit_metadata(
                    &current,
                    &ident,
                    &name,
                    new_metadata,
                    "expiring snapshots of",
                )
                .await?
            {
                let backoff = 20u64.saturating_mul(1 << attempt.min(6));
                tokio::time::sleep(Duration::from_millis(backoff)).await;
                continue;
            }
            tracing::info!(table = %name, snapshots = ids.len(), "snapshots expired");
            let mut outcome = ExpireOutcome {
                expired_snapshots: ids.len() as u64,
                ..ExpireOutcome::default()
            };
            // The expired snapshots' files, read through the previous metadata, which
            // still holds them.
            let candidates = match referenced_files(
                &current,
                metadata
                    .snapshots()
                    .filter(|snapshot| expired.contains(&snapshot.snapshot_id())),
                false,
            )
            .await
            {
                Ok(candidates) => candidates,
                Err(error) => {
                    tracing::warn!(table = %name, error = %error, "cannot read the files of expired snapshots; they stay as orphans");
                    return Ok(outcome);
                }
            };
            let (files, bytes) = delete_unneeded(&current, &name, &candidates, &needed).await;
            outcome.deleted_files = files;
            outcome.deleted_bytes = bytes;
            return Ok(outcome);
        }
        // Other writers kept committing: nothing was expired, the next expiry tries again.
        tracing::warn!(table = %name, attempts = self.commit_attempts, "snapshot expiry lost every compare-and-swap; nothing expired");
        Ok(ExpireOutcome::default())
    }
}

/// Deletes the `candidates` (files of snapshots gone from the table, read through
/// `current`, whose metadata still holds them) that no kept snapshot `needed`, under the
/// table's location only. A file that cannot be deleted is logged and left behind (an
/// orphan no snapshot references). Returns the files deleted and their bytes.
pub(crate) async fn delete_unneeded(
    current: &Table,
    name: &str,
    candidates: &HashMap<String, Option<u64>>,
    needed: &HashMap<String, Option<u64>>,
) -> (u64, u64) {
    let location = format!("{}/", current.metadata().location().trim_end_matches('/'));
    let mut doomed: Vec<(&String, Option<u64>)> = candidates
        .iter()
        .filter(|(path, _)| !needed.contains_key(*path) && path.starts_with(&location))
        .map(|(path, size)| (path, *size))
        .collect();
    doomed.sort();
    let file_io = current.file_io();
    let (mut files, mut bytes) = (0, 0);
    for (path, size) in doomed {
        let size = match size {
            Some(size) => Some(size),
            None => match file_io.new_input(path) {
                Ok(input) => input.metadata().await.ok().map(|meta| meta.size),
                Err(_) => None,
            },
        };
        match file_io.exists(path).await {
            Ok(false) => continue,
            Ok(true) => {}
            Err(error) => {
                tracing::warn!(table = %name, path, error = %error, "cannot check a file no snapshot needs; left behind");
                continue;
            }
        }
        match file_io.delete(path).await {
            Ok(()) => {
                files += 1;
                bytes += size.unwrap_or(0);
            }
            Err(error) => {
                tracing::warn!(table = %name, path, error = %error, "cannot delete a file no snapshot needs; left behind");
            }
        }
    }
    (files, bytes)
}

/// The ids of the snapshots to expire, under the rules of the module documentation.
/// `keep_history(branch)`: whether the whole history of that branch stays.
pub(crate) fn expired_snapshots(
    metadata: &TableMetadata,
    refs: &Refs,
    retention: &Retention,
    now_ms: i64,
    keep_history: &(dyn Fn(&str) -> bool + Sync),
) -> BTreeSet<i64> {
    let max_age_ms = i64::try_from(retention.max_snapshot_age.as_millis()).unwrap_or(i64::MAX);
    let cutoff = now_ms.saturating_sub(max_age_ms);
    let young = |id: i64| {
        metadata
            .snapshot_by_id(id)
            .is_some_and(|snapshot| snapshot.timestamp_ms() >= cutoff)
    };
    let min_keep = retention.min_snapshots_to_keep.max(1) as usize;
    let legacy_tagged: HashSet<i64> = refs
        .iter()
        .filter(|(name, reference)| !reference.is_branch() && !name.contains(VERSION_SEPARATOR))
        .map(|(_, reference)| reference.snapshot_id)
        .collect();

    let mut kept: HashSet<i64> = HashSet::new();
    let mut reached: HashSet<i64> = HashSet::new();
    for (name, reference) in refs {
        if !reference.is_branch() {
            kept.insert(reference.snapshot_id);
            continue;
        }
        let history = history(metadata, reference.snapshot_id);
        reached.extend(history.iter().copied());
        if keep_history(name) {
            kept.extend(history);
            continue;
        }
        let deepest_legacy = history.iter().rposition(|id| legacy_tagged.contains(id));
        for (index, id) in history.into_iter().enumerate() {
            if index < min_keep
                || young(id)
                || deepest_legacy.is_some_and(|deepest| index <= deepest)
            {
                kept.insert(id);
            }
        }
    }
    metadata
        .snapshots()
        .map(|snapshot| snapshot.snapshot_id())
        .filter(|id| !kept.contains(id))
        .filter(|id| reached.contains(id) || !young(*id))
        .collect()
}

/// `head` and its ancestors present in the metadata, newest first. Bounded by the number
/// of snapshots, so a parent cycle in corrupt metadata ends it.
pub(crate) fn history(metadata: &TableMetadata, head: i64) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut current = metadata.snapshot_by_id(head);
    while let Some(snapshot) = current {
        if ids.len() > metadata.snapshots().len() {
            break;
        }
        ids.push(snapshot.snapshot_id());
        current = snapshot
            .parent_snapshot_id()
            .and_then(|parent| metadata.snapshot_by_id(parent));
    }
    ids
}

/// The files `snapshots` reference: manifest lists, manifests, and the data files of
/// their entries (`live_only`: only added or existing entries, the files a scan of those
/// snapshots reads; else deleted entries too), read through `table`, whose metadata must
/// still hold the snapshots. The value is the size the metadata records, if any.
pub(crate) async fn referenced_files(
    table: &Table,
    snapshots: impl Iterator<Item = &SnapshotRef>,
    live_only: bool,
) -> ::iceberg::Result<HashMap<String, Option<u64>>> {
    let mut files: HashMap<String, Option<u64>> = HashMap::new();
    let mut manifests_read: HashSet<String> = HashSet::new();
    for snapshot in snapshots {
        files.insert(snapshot.manifest_list().to_owned(), None);
        let list = table.manifest_list_reader(snapshot).load().await?;
        for manifest in list.entries() {
            files.insert(
                manifest.manifest_path.clone(),
                u64::try_from(manifest.manifest_length).ok(),
            );
            if !manifests_read.insert(manifest.manifest_path.clone()) {
                continue;
            }
            let loaded = manifest.load_manifest(table.file_io()).await?;
            for entry in loaded.entries() {
                if live_only && !entry.is_alive() {
                    continue;
                }
                files.insert(
                    entry.file_path().to_owned(),
                    Some(entry.data_file().file_size_in_bytes()),
                );
            }
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table metadata (format 2) with the given snapshots `(id, parent, timestamp_ms)` and
    /// refs `(name, snapshot, is_branch)`.
    fn metadata(
        snapshots: &[(i64, Option<i64>, i64)],
        refs: &[(&str, i64, bool)],
    ) -> (TableMetadata, Refs) {
        let snapshots: Vec<serde_json::Value> = snapshots
            .iter()
            .enumerate()
            .map(|(index, (id, parent, timestamp))| {
                let mut snapshot = serde_json::json!({
                    "snapshot-id": id,
                    "sequence-number": index + 1,
                    "timestamp-ms": timestamp,
                    "manifest-list": format!("file:///t/metadata/snap-{id}.avro"),
                    "summary": {"operation": "append"},
                    "schema-id": 0
                });
                if let Some(parent) = parent {
                    snapshot["parent-snapshot-id"] = serde_json::json!(parent);
                }
                snapshot
            })
            .collect();
        let refs_json: serde_json::Map<String, serde_json::Value> = refs
            .iter()
            .map(|(name, id, branch)| {
                (
                    (*name).to_owned(),
                    serde_json::json!({"snapshot-id": id, "type": if *branch { "branch" } else { "tag" }}),
                )
            })
            .collect();
        let main = refs
            .iter()
            .find(|(name, _, _)| *name == "main")
            .map(|r| r.1);
        let json = serde_json::json!({
            "format-version": 2,
            "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
            "location": "file:///t",
            "last-sequence-number": snapshots.len(),
            "last-updated-ms": 1,
            "last-column-id": 1,
            "current-schema-id": 0,
            "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": false, "type": "long"}]}],
            "default-spec-id": 0,
            "partition-specs": [{"spec-id": 0, "fields": []}],
            "last-partition-id": 999,
            "default-sort-order-id": 0,
            "sort-orders": [{"order-id": 0, "fields": []}],
            "properties": {},
            "current-snapshot-id": main.unwrap_or(-1),
            "snapshots": snapshots,
            "refs": serde_json::Value::Object(refs_json.clone()),
        });
        let metadata: TableMetadata = serde_json::from_value(json).expect("test metadata");
        let refs: Refs =
            serde_json::from_value(serde_json::Value::Object(refs_json)).expect("test refs");
        (metadata, refs)
    }

    const HOUR: i64 = 3_600_000;

    fn retention(hours: u64, min_keep: u32) -> Retention {
        Retention {
            max_snapshot_age: Duration::from_secs(hours * 3600),
            min_snapshots_to_keep: min_keep,
        }
    }

    #[test]
    fn old_history_goes_heads_tags_and_young_snapshots_stay() {
        let now = 100 * HOUR;
        // main: 1 ← 2 ← 3 ← 4 (head); 2 is version main@1.0; 4 is young.
        let (metadata, refs) = metadata(
            &[
                (1, None, HOUR),
                (2, Some(1), 2 * HOUR),
                (3, Some(2), 3 * HOUR),
                (4, Some(3), 99 * HOUR),
            ],
            &[("main", 4, true), ("main@1.0", 2, false)],
        );
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 1), now, &|_| false);
        assert_eq!(expired, BTreeSet::from([1, 3]));
        // Two to keep: 3 stays too.
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 2), now, &|_| false);
        assert_eq!(expired, BTreeSet::from([1]));
        // A kept history keeps everything.
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 1), now, &|b| b == "main");
        assert!(expired.is_empty());
    }

    #[test]
    fn other_branches_and_legacy_tags_are_respected() {
        let now = 100 * HOUR;
        // main: 1 ← 2 ← 3; feature forks at 2: 2 ← 5. Legacy tag "0.9" on 1 (main's
        // history), 6 reached by no ref (old), 7 by no ref (young).
        let (metadata, refs) = metadata(
            &[
                (1, None, HOUR),
                (2, Some(1), 2 * HOUR),
                (3, Some(2), 3 * HOUR),
                (5, Some(2), 4 * HOUR),
                (6, None, 5 * HOUR),
                (7, None, 99 * HOUR),
            ],
            &[("main", 3, true), ("feature", 5, true), ("0.9", 1, false)],
        );
        // The chain from main's head down to the legacy tag stays; so does feature's.
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 1), now, &|_| false);
        assert_eq!(expired, BTreeSet::from([6]));
        // Without the legacy tag, 1 and 2 go (feature is not protected).
        let (metadata, refs) = self::metadata(
            &[
                (1, None, HOUR),
                (2, Some(1), 2 * HOUR),
                (3, Some(2), 3 * HOUR),
                (5, Some(2), 4 * HOUR),
            ],
            &[("main", 3, true), ("feature", 5, true)],
        );
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 1), now, &|_| false);
        assert_eq!(expired, BTreeSet::from([1, 2]));
        // A protected feature keeps its whole history, shared ancestors included.
        let expired = expired_snapshots(&metadata, &refs, &retention(10, 1), now, &|b| {
            b == "feature"
        });
        assert!(expired.is_empty());
    }

    #[test]
    fn a_parent_cycle_ends_the_walk() {
        let (metadata, refs) = metadata(
            &[(1, Some(2), HOUR), (2, Some(1), 2 * HOUR)],
            &[("main", 2, true)],
        );
        assert_eq!(history(&metadata, 2).len(), 3);
        let expired = expired_snapshots(&metadata, &refs, &retention(0, 1), 100 * HOUR, &|_| false);
        assert_eq!(expired, BTreeSet::from([1]));
    }
}
