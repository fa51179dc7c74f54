//! Expiry of an object-storage dataset's old contents (`[retention]`, spec 4.1 `--force`):
//! the equivalent of an Iceberg table's snapshot expiry for a dataset that keeps one head.
//!
//! The engine keeps no old heads, but a head change leaves the objects it stopped listing
//! in place (a reader of the previous head may still fetch them). An object's age says
//! when it was written, not since when nothing lists it, so each head change that drops
//! objects is recorded: `retired/{unix ms}-{id}.json` lists them with the time
//! ([`BlobEngine::record_retired`], written by the commit when `[retention]` is set). An
//! expiry ([`BlobEngine::expire_retired`]) then deletes, for each record older than the
//! retention's age (the newest `min_snapshots_to_keep - 1` records are kept whatever
//! their age: each is a head the dataset had), the objects of the record that neither
//! the head nor a named version lists now, and the record. An object listed again since
//! (the same content back) is kept. Datasets written before this existed have no records:
//! their old objects stay.

use super::*;

use std::collections::HashSet;

/// One record: the objects a head change stopped listing.
#[derive(Debug, Serialize, Deserialize)]
struct RetiredDocument {
    format: String,
    retired_at: DateTime<Utc>,
    sha256: Vec<String>,
}

const RETIRED_FORMAT: &str = "stone.blob-retired/1";

/// What [`BlobEngine::expire_retired`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetiredExpiry {
    /// Head changes expired (records removed).
    pub heads: u64,
    /// Objects deleted.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

impl BlobEngine {
    /// Records that the head of the dataset on the branch stopped listing `sha256s` now
    /// (nothing is written for none).
    pub async fn record_retired(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        sha256s: Vec<String>,
    ) -> Result<(), BlobError> {
        if sha256s.is_empty() {
            return Ok(());
        }
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let now = Utc::now();
        let key = location.retired().join(format!(
            "{:015}-{}.json",
            now.timestamp_millis().max(0),
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        ));
        let document = RetiredDocument {
            format: RETIRED_FORMAT.to_owned(),
            retired_at: now,
            sha256: sha256s,
        };
        let bytes = serde_json::to_vec(&document).map_err(|e| {
            BlobError::storage("put", &key)(object_store::Error::Generic {
                store: "retired record",
                source: Box::new(e),
            })
        })?;
        self.store
            .put(&key, Bytes::from(bytes).into())
            .await
            .map_err(BlobError::storage("put", &key))?;
        Ok(())
    }

    /// Expires what the retired records older than `max_age` list (see the module
    /// documentation), keeping the newest `keep_newest` records whatever their age. Under
    /// the dataset's lock, so no put runs meanwhile.
    pub async fn expire_retired(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        max_age: Duration,
        keep_newest: usize,
    ) -> Result<RetiredExpiry, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let records = self.retired_keys(&location).await?;
        let expirable = records.len().saturating_sub(keep_newest);
        let cutoff =
            Utc::now() - chrono::Duration::from_std(max_age).unwrap_or(chrono::Duration::MAX);
        let mut due = Vec::new();
        for key in records.into_iter().take(expirable) {
            if let Some(record) = self.read_retired(&key).await?
                && record.retired_at < cutoff
            {
                due.push((key, record));
            }
        }
        let mut expiry = RetiredExpiry::default();
        if due.is_empty() {
            return Ok(expiry);
        }
        // What is listed now stays: the head and every named version.
        let live = self.listed_objects(&location).await?;
        for (key, record) in due {
            for sha256 in record.sha256 {
                if live.contains(&sha256) || layout::check_sha256("retired", &sha256).is_err() {
                    continue;
                }
                let object = location.object(&sha256);
                let size = match self.store.head(&object).await {
                    Ok(meta) => meta.size,
                    Err(object_store::Error::NotFound { .. }) => continue,
                    Err(e) => return Err(BlobError::storage("head", &object)(e)),
                };
                match self.store.delete(&object).await {
                    Ok(()) => {
                        expiry.files += 1;
                        expiry.bytes += size;
                    }
                    Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => return Err(BlobError::storage("delete", &object)(e)),
                }
            }
            match self.store.delete(&key).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => expiry.heads += 1,
                Err(e) => return Err(BlobError::storage("delete", &key)(e)),
            }
        }
        Ok(expiry)
    }

    /// The objects the dataset's retired records list (kept for `[retention]` until their
    /// record expires).
    pub(super) async fn retired_objects(
        &self,
        location: &DatasetLocation,
    ) -> Result<HashSet<String>, BlobError> {
        let mut objects = HashSet::new();
        for key in self.retired_keys(location).await? {
            if let Some(record) = self.read_retired(&key).await? {
                objects.extend(record.sha256);
            }
        }
        Ok(objects)
    }

    /// The keys of the dataset's retired records, sorted: their names start with the time,
    /// so the newest is last.
    async fn retired_keys(&self, location: &DatasetLocation) -> Result<Vec<StorePath>, BlobError> {
        let prefix = location.retired();
        let mut records: Vec<StorePath> = Vec::new();
        let mut listing = self.store.list(Some(&prefix));
        while let Some(meta) = listing.next().await {
            match meta {
                Ok(meta) if meta.location.extension() == Some("json") => {
                    records.push(meta.location)
                }
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("list", &prefix)(e)),
            }
        }
        records.sort_by(|a, b| a.as_ref().cmp(b.as_ref()));
        Ok(records)
    }

    /// One retired record; `None` when it is gone, or not one this engine wrote (left
    /// alone).
    async fn read_retired(&self, key: &StorePath) -> Result<Option<RetiredDocument>, BlobError> {
        let bytes = match self.store.get(key).await {
            Ok(result) => result
                .bytes()
                .await
                .map_err(BlobError::storage("get", key))?,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(BlobError::storage("get", key)(e)),
        };
        match serde_json::from_slice::<RetiredDocument>(&bytes) {
            Ok(record) if record.format == RETIRED_FORMAT => Ok(Some(record)),
            _ => {
                tracing::warn!(record = %key, "blob: an unreadable retired record is left alone");
                Ok(None)
            }
        }
    }
}
