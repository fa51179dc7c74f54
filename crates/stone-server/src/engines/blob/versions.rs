//! Named versions: `versions/{V}.json`, a copy of the head as it was.

use super::*;

/// Heads of at least this many bytes (some 50,000 files) are recorded as versions without
/// being parsed ([`BlobEngine::record_version`]).
const STREAMED_VERSION_FROM: u64 = 8 << 20;

impl BlobEngine {
    /// Records the dataset's current head on the branch as the named version `version`
    /// (see the module documentation). A version name is what the push API accepts for a
    /// package version: ASCII letters, digits, `_`, `-`, `.`, `+`, not starting with `.`,
    /// at most 255 bytes ([`BlobError::InvalidName`] otherwise). A version that names other
    /// files is moved only with `force` ([`BlobError::VersionExists`] otherwise).
    pub async fn record_version(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: &str,
        force: bool,
    ) -> Result<VersionStatus, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let key = location.version(version)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        // Issue 27: the head of a big folder is compared by digest and copied as it is,
        // never parsed whole.
        let head_key = location.head();
        if let Ok(meta) = self.store.head(&head_key).await
            && meta.size >= STREAMED_VERSION_FROM
        {
            let Some(listed) = self.document_digest(&head_key).await? else {
                return Err(BlobError::NoHead {
                    version: version.to_owned(),
                    location: location.root.to_string(),
                });
            };
            let status = match self.document_digest(&key).await? {
                Some(named) if named == listed => return Ok(VersionStatus::Unchanged),
                Some(_) if !force => {
                    return Err(BlobError::VersionExists {
                        version: version.to_owned(),
                        location: location.root.to_string(),
                    });
                }
                Some(_) => VersionStatus::Moved,
                None => VersionStatus::Created,
            };
            self.store
                .copy(&head_key, &key)
                .await
                .map_err(BlobError::storage("copy", &key))?;
            return Ok(status);
        }
        let Some((head, _)) = self.read_head(&location).await? else {
            return Err(BlobError::NoHead {
                version: version.to_owned(),
                location: location.root.to_string(),
            });
        };
        let status = match self.read_document(&key).await? {
            Some((named, _)) if named.files == head.files => return Ok(VersionStatus::Unchanged),
            Some(_) if !force => {
                return Err(BlobError::VersionExists {
                    version: version.to_owned(),
                    location: location.root.to_string(),
                });
            }
            Some(_) => VersionStatus::Moved,
            None => VersionStatus::Created,
        };
        let document = HeadDocument::new(head.files);
        let body = serde_json::to_vec_pretty(&document).expect("a head document serializes");
        self.store
            .put(&key, PutPayload::from(body))
            .await
            .map_err(BlobError::storage("put", &key))?;
        Ok(status)
    }

    /// The files the named version lists, `None` when the dataset has no such version on
    /// the branch.
    pub async fn version(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: &str,
    ) -> Result<Option<BlobHead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let key = location.version(version)?;
        Ok(self.read_document(&key).await?.map(|(head, _)| BlobHead {
            files: head.files,
            updated_at: head.updated_at,
        }))
    }

    /// The names of the dataset's versions on the branch, sorted.
    pub async fn versions(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Vec<String>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        Ok(self
            .version_keys(&location)
            .await?
            .into_iter()
            .map(|(name, _)| name)
            .collect())
    }

    /// `(name, key)` of every version document of the dataset on the branch, by name.
    pub(super) async fn version_keys(
        &self,
        location: &DatasetLocation,
    ) -> Result<Vec<(String, StorePath)>, BlobError> {
        let prefix = location.versions();
        let mut found = Vec::new();
        let mut listing = self.store.list(Some(&prefix));
        while let Some(meta) = listing.next().await {
            let meta = match meta {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => continue,
                Err(e) => return Err(BlobError::storage("list", &prefix)(e)),
            };
            let name = meta
                .location
                .filename()
                .and_then(|f| f.strip_suffix(VERSION_EXTENSION))
                .filter(|name| layout::check_version(name).is_ok())
                .map(str::to_owned);
            // Only documents directly under versions/ that this engine could have written.
            if let Some(name) = name
                && meta.location.prefix_match(&prefix).map(|p| p.count()) == Some(1)
            {
                found.push((name, meta.location));
            }
        }
        found.sort();
        Ok(found)
    }
}
