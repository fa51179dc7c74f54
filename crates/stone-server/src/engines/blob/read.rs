//! Reads: heads, files, ranges, and files as a named version lists them.

use super::*;

/// A file being read: its entry, the byte range delivered and the bytes.
pub struct BlobRead {
    pub entry: BlobEntry,
    /// The bytes delivered (`0..size` for a whole file).
    pub range: Range<u64>,
    pub stream: BoxStream<'static, Result<Bytes, BlobError>>,
}

impl BlobRead {
    /// Collects the stream.
    pub async fn bytes(self) -> Result<Bytes, BlobError> {
        let chunks: Vec<Bytes> = self.stream.try_collect().await?;
        Ok(match chunks.len() {
            1 => chunks.into_iter().next().expect("one chunk"),
            _ => Bytes::from(chunks.concat()),
        })
    }
}

impl std::fmt::Debug for BlobRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobRead")
            .field("entry", &self.entry)
            .field("range", &self.range)
            .finish_non_exhaustive()
    }
}

impl BlobEngine {
    /// The dataset's current head on the branch, `None` when it has none.
    pub async fn head(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Option<BlobHead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        Ok(self.read_head(&location).await?.map(|(head, _)| BlobHead {
            files: head.files,
            updated_at: head.updated_at,
        }))
    }

    /// The digest of the listing of the dataset's head on the branch ([`ListingDigest`]),
    /// from the head's first bytes only: `None` when there is no head, or a head without
    /// one (written before issue 27). What a commit compares the listing it would write
    /// with, so that an unchanged folder of a million files costs one small read.
    pub async fn head_listing(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Option<String>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let head = location.head();
        if let Some(dir) = &self.local_dir
            && let Some(path) = local_path(dir, &head)
        {
            return tokio::task::spawn_blocking(move || local_head_listing(path))
                .await
                .map_err(|e| BlobError::LocalIo {
                    path: PathBuf::from(head.as_ref()),
                    source: std::io::Error::other(e),
                })?;
        }
        let options = GetOptions {
            range: Some(GetRange::Bounded(0..HEAD_PREFIX_LEN as u64)),
            ..GetOptions::default()
        };
        let result = match self.store.get_opts(&head, options).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(BlobError::storage("get", &head)(e)),
        };
        let prefix = result
            .bytes()
            .await
            .map_err(BlobError::storage("get", &head))?;
        Ok(listing_of_prefix(&prefix))
    }

    /// [`Self::head_listing`] of several datasets of a namespace and branch, in order. A
    /// push may name 100,000 one-file datasets (issue 27): on a local store their heads
    /// are read [`HEAD_LISTINGS_CHUNK`] to a blocking task, elsewhere 16 at a time.
    pub async fn head_listings(
        &self,
        ns: &str,
        datasets: &[&str],
        branch: &str,
    ) -> Vec<Result<Option<String>, BlobError>> {
        let Some(dir) = &self.local_dir else {
            let reads: Vec<_> = datasets
                .iter()
                .map(|dataset| self.head_listing(ns, dataset, branch))
                .collect();
            return futures::stream::iter(reads).buffered(16).collect().await;
        };
        let mut listings = Vec::with_capacity(datasets.len());
        for chunk in datasets.chunks(HEAD_LISTINGS_CHUNK) {
            let heads: Vec<Result<Option<PathBuf>, BlobError>> = chunk
                .iter()
                .map(|dataset| {
                    let head = DatasetLocation::new(&self.prefix, ns, dataset, branch)?.head();
                    Ok(local_path(dir, &head))
                })
                .collect();
            if heads.iter().any(|head| matches!(head, Ok(None))) {
                // A key that is no plain path (never made by this engine's names): the
                // store reads it, one by one.
                for dataset in chunk {
                    listings.push(self.head_listing(ns, dataset, branch).await);
                }
                continue;
            }
            let read = tokio::task::spawn_blocking(move || {
                heads
                    .into_iter()
                    .map(|head| head.and_then(|path| path.map_or(Ok(None), local_head_listing)))
                    .collect::<Vec<_>>()
            })
            .await;
            match read {
                Ok(read) => listings.extend(read),
                Err(error) => listings.extend(chunk.iter().map(|dataset| {
                    Err(BlobError::LocalIo {
                        path: PathBuf::from(*dataset),
                        source: std::io::Error::other(error.to_string()),
                    })
                })),
            }
        }
        listings
    }

    /// A file of the dataset as the head lists it now; `None` when the head does not list
    /// `path` (or there is no head).
    pub async fn get(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        path: &str,
    ) -> Result<Option<BlobRead>, BlobError> {
        self.get_at(ns, dataset, branch, None, path, None).await
    }

    /// Bytes `range` of a file (`start < end <= size`; HTTP `Range` answers map onto it).
    pub async fn get_range(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        path: &str,
        range: Range<u64>,
    ) -> Result<Option<BlobRead>, BlobError> {
        self.get_at(ns, dataset, branch, None, path, Some(range))
            .await
    }

    /// A file of a named version (`None`: the branch's head), or bytes `range` of it;
    /// `None` when the version (or head) does not list `path`.
    pub async fn get_at(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: Option<&str>,
        path: &str,
        range: Option<Range<u64>>,
    ) -> Result<Option<BlobRead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let document = match version {
            Some(version) => location.version(version)?,
            None => location.head(),
        };
        let Some((head, _)) = self.read_document(&document).await? else {
            return Ok(None);
        };
        let Some(entry) = head.files.into_iter().find(|e| e.path == path) else {
            return Ok(None);
        };
        if let Some(range) = &range
            && (range.start >= range.end || range.end > entry.size)
        {
            return Err(BlobError::InvalidRange {
                path: path.to_owned(),
                range: range.clone(),
                size: entry.size,
            });
        }
        let object = location.object(&entry.sha256);
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(&object, options)
            .await
            .map_err(BlobError::storage("get", &object))?;
        let delivered = result.range.clone();
        let location_text = object.to_string();
        let stream = result
            .into_stream()
            .map_err(move |source| BlobError::Storage {
                operation: "get",
                location: location_text.clone(),
                source,
            })
            .boxed();
        Ok(Some(BlobRead {
            entry,
            range: delivered,
            stream,
        }))
    }
}

/// Heads whose listing digest [`BlobEngine::head_listings`] reads in one blocking task.
const HEAD_LISTINGS_CHUNK: usize = 1_000;

/// The listing digest of a local head file, from its first bytes; `None` when there is no
/// head, or a head without one.
fn local_head_listing(path: PathBuf) -> Result<Option<String>, BlobError> {
    use std::io::Read;
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(BlobError::LocalIo { path, source }),
    };
    let mut prefix = Vec::with_capacity(HEAD_PREFIX_LEN);
    file.take(HEAD_PREFIX_LEN as u64)
        .read_to_end(&mut prefix)
        .map_err(|source| BlobError::LocalIo { path, source })?;
    Ok(listing_of_prefix(&prefix))
}
