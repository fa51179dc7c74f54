//! Deletion and garbage collection: datasets removed, unreferenced objects and prepared
//! leftovers collected.

use super::*;

use std::collections::BTreeSet;

impl BlobEngine {
    /// Deletes the dataset on the branch: the head first (readers see it gone at once),
    /// then every object. `false` when there was nothing.
    pub async fn delete_dataset(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<bool, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let head = location.head();
        // S3 answers a delete of a missing key with success: look first.
        let had_head = match self.store.head(&head).await {
            Ok(_) => true,
            Err(object_store::Error::NotFound { .. }) => false,
            Err(e) => return Err(BlobError::storage("head", &head)(e)),
        };
        if had_head {
            let deleted = self.store.delete(&head).await;
            self.known_heads.changed();
            match deleted {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("delete", &head)(e)),
            }
        }
        let deleted = self.delete_all(&location.root, |_| true).await?;
        let leftovers = self.remove_local_leftovers(&location.root, Duration::ZERO)?;
        Ok(had_head || deleted > 0 || leftovers > 0)
    }

    /// Local store only: removes the staging files of interrupted writes under `prefix`
    /// (`<name>#<digits>`, which listings skip) older than `older_than`; how many.
    fn remove_local_leftovers(
        &self,
        prefix: &StorePath,
        older_than: Duration,
    ) -> Result<u64, BlobError> {
        let Some(dir) = &self.local_dir else {
            return Ok(0);
        };
        let mut removed = 0;
        let mut pending = vec![
            prefix
                .parts()
                .fold(dir.clone(), |p, part| p.join(part.as_ref())),
        ];
        let mut visited = Vec::new();
        while let Some(dir) = pending.pop() {
            visited.push(dir.clone());
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(meta) = entry.metadata() else { continue };
                if meta.is_dir() {
                    pending.push(path);
                    continue;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                let is_staging = name
                    .rsplit_once('#')
                    .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                let old_enough = meta
                    .modified()
                    .ok()
                    .and_then(|m| m.elapsed().ok())
                    .is_none_or(|age| age >= older_than);
                if is_staging && old_enough {
                    std::fs::remove_file(&path).map_err(|source| BlobError::LocalIo {
                        path: path.clone(),
                        source,
                    })?;
                    removed += 1;
                }
            }
        }
        // Empty directories left behind go too (as automatic cleanup does), deepest first.
        for dir in visited.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
        Ok(removed)
    }

    /// Deletes the objects of the dataset on the branch that neither its head nor any of
    /// its named versions lists and that are older than `older_than` (so that a put in
    /// progress keeps the objects it just uploaded). Returns how many were deleted.
    pub async fn collect_garbage(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        older_than: Duration,
    ) -> Result<u64, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let live = self.listed_objects(&location).await?;
        let cutoff =
            Utc::now() - chrono::Duration::from_std(older_than).unwrap_or(chrono::Duration::MAX);
        let deleted = self
            .delete_all(&location.objects(), |meta| {
                meta.last_modified < cutoff
                    && !meta
                        .location
                        .filename()
                        .is_some_and(|name| live.contains(name))
            })
            .await?;
        Ok(deleted + self.remove_local_leftovers(&location.root, older_than)?)
    }

    /// The objects the dataset's head and its named versions list now (sha256). A version
    /// document that cannot be read is an error: a caller deletes nothing rather than
    /// objects a version may list.
    pub(super) async fn listed_objects(
        &self,
        location: &DatasetLocation,
    ) -> Result<std::collections::HashSet<String>, BlobError> {
        let mut live: std::collections::HashSet<String> = match self.read_head(location).await? {
            Some((head, _)) => head.files.into_iter().map(|e| e.sha256).collect(),
            None => Default::default(),
        };
        for (_, key) in self.version_keys(location).await? {
            if let Some((named, _)) = self.read_document(&key).await? {
                live.extend(named.files.into_iter().map(|e| e.sha256));
            }
        }
        Ok(live)
    }

    /// Removes what [`Self::prepare`] left for datasets of the branch that still have no
    /// head: called for the datasets of a push that expired without a commit. Their
    /// prepared heads and other leftovers go, then their empty directories (a dataset's own
    /// directory too, unless another branch is in it); a dataset that has a head meanwhile
    /// is left as it is. Each under the dataset's lock, so no put is under way in it; a
    /// live push of the same dataset loses nothing it needs (a put creates the directories
    /// it lacks and writes a head the usual way without a prepared one). Local store only
    /// (nothing is prepared on S3). Returns how many files went.
    pub async fn remove_prepared(
        &self,
        ns: &str,
        branch: &str,
        datasets: &[&str],
    ) -> Result<u64, BlobError> {
        let Some(dir) = &self.local_dir else {
            return Ok(0);
        };
        let exists = self.heads_exist(ns, branch, datasets).await;
        let mut removed = 0;
        for (dataset, exists) in datasets.iter().zip(exists) {
            if exists? {
                continue;
            }
            let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
            let lock = self.locks.get(location.root.as_ref());
            let _guard = lock.lock().await;
            if self.read_head(&location).await?.is_some() {
                continue;
            }
            removed += self.remove_local_leftovers(&location.root, Duration::ZERO)?;
            if let Some(dataset_dir) = local_path(dir, &location.root)
                .as_deref()
                .and_then(Path::parent)
            {
                let _ = std::fs::remove_dir(dataset_dir);
            }
        }
        Ok(removed)
    }

    /// Deletes what a push that expired without a commit uploaded straight into the
    /// dataset on the branch (issue 24: [`Self::object_key`]): the objects of `sha256s`,
    /// its contents, written in `written` (from its creation: an older object is not its
    /// upload; until the sweep read the live pushes, less the margins of `straight.rs`: a
    /// later push may rely on a newer one), that neither the head, a named version nor a
    /// retired record lists, and that no live push names (`keep`). Under the dataset's
    /// lock, so no put of this replica is under way in it. Returns how many objects went.
    pub async fn remove_uploads(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        sha256s: &BTreeSet<&str>,
        written: Range<DateTime<Utc>>,
        keep: &BTreeSet<String>,
    ) -> Result<u64, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let candidates: Vec<&str> = sha256s
            .iter()
            .copied()
            .filter(|sha256| !keep.contains(*sha256) && check_sha256(dataset, sha256).is_ok())
            .collect();
        if candidates.is_empty() {
            return Ok(0);
        }
        let mut listed = self.listed_objects(&location).await?;
        listed.extend(self.retired_objects(&location).await?);
        // Test hook: between the read of what the dataset lists and the deletes (what a
        // commit on another replica may change meanwhile).
        crate::test_hooks::test_pause("straight-delete").await;
        let mut removed = 0;
        for sha256 in candidates
            .into_iter()
            .filter(|sha256| !listed.contains(*sha256))
        {
            let object = location.object(sha256);
            match self.store.head(&object).await {
                Ok(meta) if written.contains(&meta.last_modified) => {}
                Ok(_) | Err(object_store::Error::NotFound { .. }) => continue,
                Err(e) => return Err(BlobError::storage("head", &object)(e)),
            }
            match self.store.delete(&object).await {
                Ok(()) => removed += 1,
                Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("delete", &object)(e)),
            }
        }
        Ok(removed)
    }

    /// Deletes the objects under `prefix` that `select` picks; how many.
    async fn delete_all(
        &self,
        prefix: &StorePath,
        select: impl Fn(&object_store::ObjectMeta) -> bool,
    ) -> Result<u64, BlobError> {
        let mut doomed = Vec::new();
        let mut listing = self.store.list(Some(prefix));
        while let Some(meta) = listing.next().await {
            match meta {
                Ok(meta) if select(&meta) => doomed.push(meta.location),
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("list", prefix)(e)),
            }
        }
        let count = doomed.len() as u64;
        let locations = stream::iter(doomed.into_iter().map(Ok)).boxed();
        let mut deleted = self.store.delete_stream(locations);
        while let Some(result) = deleted.next().await {
            match result {
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("delete", prefix)(e)),
            }
        }
        Ok(count)
    }
}
