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
        // Chunks are read [`HEAD_LISTINGS_AT_ONCE`] at a time (the reads are the kernel's
        // path walks and page-cache copies: CPU), in order.
        let reads: Vec<_> = datasets
            .chunks(HEAD_LISTINGS_CHUNK)
            .map(|chunk| self.local_head_listings(dir, ns, chunk, branch))
            .collect();
        let mut listings = Vec::with_capacity(datasets.len());
        let mut read = futures::stream::iter(reads).buffered(HEAD_LISTINGS_AT_ONCE);
        while let Some(chunk) = read.next().await {
            listings.extend(chunk);
        }
        listings
    }

    /// For each `(dataset, listing digest)` of a namespace and branch, whether the
    /// dataset's head has that listing now (a head that cannot be read does not), in
    /// order; read [`HEADS_MATCHED_AT_ONCE`] at a time. The same question asked again
    /// within [`known_heads::MATCH_REMEMBERED`], while this engine wrote no head, is given
    /// the same answer without reading the heads ([`KnownHeads::answered`]): a push asks
    /// it when created, when its commit is accepted and when it commits.
    pub async fn heads_match(
        &self,
        ns: &str,
        branch: &str,
        declared: &[(&str, &str)],
    ) -> Vec<bool> {
        let known = &self.known_heads;
        let generation = known.answers_generation();
        let question = known.question(ns, branch, declared);
        if let Some(same) = known.answered(
            question,
            generation,
            declared.len(),
            known_heads::MATCH_REMEMBERED,
        ) {
            return same;
        }
        let mut same = Vec::with_capacity(declared.len());
        let mut unread = false;
        // A slice at a time: the heads' digests read are not all held at once.
        for slice in declared.chunks(HEADS_MATCHED_AT_ONCE) {
            let names: Vec<&str> = slice.iter().map(|(dataset, _)| *dataset).collect();
            let heads = self.head_listings(ns, &names, branch).await;
            same.extend(slice.iter().zip(heads).map(|((_, listing), head)| {
                unread |= head.is_err();
                matches!(head, Ok(Some(head)) if head == *listing)
            }));
        }
        // A head that could not be read is read again next time.
        if !unread {
            known.answer(question, generation, same.clone());
        }
        same
    }

    /// [`Self::head_listings`] of a chunk of datasets of a local store, in one blocking task.
    async fn local_head_listings(
        &self,
        dir: &Path,
        ns: &str,
        chunk: &[&str],
        branch: &str,
    ) -> Vec<Result<Option<String>, BlobError>> {
        let heads: Vec<Result<Option<PathBuf>, BlobError>> = chunk
            .iter()
            .map(|dataset| {
                let head = DatasetLocation::new(&self.prefix, ns, dataset, branch)?.head();
                Ok(local_path(dir, &head))
            })
            .collect();
        if heads.iter().any(|head| matches!(head, Ok(None))) {
            // A key that is no plain path (never made by this engine's names): the store
            // reads it, one by one.
            let mut listings = Vec::with_capacity(chunk.len());
            for dataset in chunk {
                listings.push(self.head_listing(ns, dataset, branch).await);
            }
            return listings;
        }
        let known = Arc::clone(&self.known_heads);
        match tokio::task::spawn_blocking(move || read_head_listings(heads, &known)).await {
            Ok(read) => read,
            Err(error) => chunk
                .iter()
                .map(|dataset| {
                    Err(BlobError::LocalIo {
                        path: PathBuf::from(*dataset),
                        source: std::io::Error::other(error.to_string()),
                    })
                })
                .collect(),
        }
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
/// Heads [`BlobEngine::heads_match`] reads at a time.
const HEADS_MATCHED_AT_ONCE: usize = 10_000;
/// Blocking tasks of [`BlobEngine::head_listings`] at a time.
const HEAD_LISTINGS_AT_ONCE: usize = 2;

/// [`local_head_listing`] of each head file (paths of one namespace and branch, in order).
/// On Linux each is opened from its namespace's directory, kept open (a path walk of
/// three components for each, not of the whole data directory's path: an unchanged
/// re-push of 100,000 one-file resources reads 100,000 heads, three times), and a head
/// read before is not read again while it is the same file ([`KnownHeads`]).
fn read_head_listings(
    heads: Vec<Result<Option<PathBuf>, BlobError>>,
    #[cfg_attr(not(target_os = "linux"), allow(unused_variables))] known: &KnownHeads,
) -> Vec<Result<Option<String>, BlobError>> {
    #[cfg(target_os = "linux")]
    let generation = known.generation();
    #[cfg(target_os = "linux")]
    let look = known.any(generation);
    #[cfg(target_os = "linux")]
    let mut namespace: Option<(PathBuf, rustix::fd::OwnedFd)> = None;
    heads
        .into_iter()
        .map(|head| {
            let Some(path) = head? else {
                return Ok(None);
            };
            #[cfg(target_os = "linux")]
            if let Some(listing) = head_listing_at(&mut namespace, &path, (known, generation, look))
            {
                return listing;
            }
            local_head_listing(path)
        })
        .collect()
}

/// The listing of the head file `path` (`{ns}/{dataset}/{branch}/head.json`), opened
/// from the namespace's directory (opened into `namespace` unless it holds it);
/// `None` when that directory cannot be opened (the caller opens the path itself).
/// `known`: the listings read before, the generation this read is under, and whether
/// any is remembered for it (else no `stat` is spent looking).
#[cfg(target_os = "linux")]
fn head_listing_at(
    namespace: &mut Option<(PathBuf, rustix::fd::OwnedFd)>,
    path: &Path,
    (known, generation, look): (&KnownHeads, u64, bool),
) -> Option<Result<Option<String>, BlobError>> {
    use rustix::fs::{AtFlags, Mode, OFlags};
    let failed = |errno: rustix::io::Errno| {
        Some(Err(BlobError::LocalIo {
            path: path.to_owned(),
            source: errno.into(),
        }))
    };
    let ns_dir = path.parent()?.parent()?.parent()?;
    let below = path.strip_prefix(ns_dir).ok()?;
    if namespace.as_ref().is_none_or(|(open, _)| open != ns_dir) {
        let fd = rustix::fs::open(
            ns_dir,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        *namespace = Some((ns_dir.to_path_buf(), fd));
    }
    let (_, ns_fd) = namespace.as_ref()?;
    if look {
        match rustix::fs::statat(ns_fd, below, AtFlags::empty()) {
            Ok(stat) => {
                if let Some(listing) =
                    known.get(generation, &known_heads::Identity::new(known, path, &stat))
                {
                    return Some(Ok(listing));
                }
            }
            Err(rustix::io::Errno::NOENT) => return Some(Ok(None)),
            Err(errno) => return failed(errno),
        }
    }
    let fd = match rustix::fs::openat(
        ns_fd,
        below,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) => return Some(Ok(None)),
        Err(errno) => return failed(errno),
    };
    // The identity of the file opened (not of the path: it may be replaced meanwhile).
    let stat = match rustix::fs::fstat(&fd) {
        Ok(stat) => stat,
        Err(errno) => return failed(errno),
    };
    let file = std::fs::File::from(fd);
    let listing = listing_of_file(&file, path);
    if let Ok(listing) = &listing {
        // Remembered while the file is open: its inode cannot be another file's yet.
        known.remember(
            generation,
            known_heads::Identity::new(known, path, &stat),
            listing.as_deref(),
        );
    }
    drop(file);
    Some(listing)
}

/// The listing digest of a local head file, from its first bytes; `None` when there is no
/// head, or a head without one.
fn local_head_listing(path: PathBuf) -> Result<Option<String>, BlobError> {
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(BlobError::LocalIo { path, source }),
    };
    listing_of_file(&file, &path)
}

/// The listing digest in the first bytes of an open head file: read until the
/// [`HEAD_PREFIX_LEN`] bytes the digest must be in, the end of the file, or the start of
/// its file list (the digest is before it: a small head is one `read`, without a second
/// one to see its end).
fn listing_of_file(mut file: &std::fs::File, path: &Path) -> Result<Option<String>, BlobError> {
    use std::io::Read;
    let mut prefix = [0u8; HEAD_PREFIX_LEN];
    let mut filled = 0;
    while filled < prefix.len() {
        match file.read(&mut prefix[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(BlobError::LocalIo {
                    path: path.to_owned(),
                    source,
                });
            }
        }
        if prefix[..filled]
            .windows(FILES_KEY.len())
            .any(|w| w == FILES_KEY)
        {
            break;
        }
    }
    Ok(listing_of_prefix(&prefix[..filled]))
}

/// What starts a head's file list ([`listing_of_prefix`] looks before it).
const FILES_KEY: &[u8] = b"\"files\"";

#[cfg(test)]
mod tests {
    use super::*;

    fn write_head(path: &Path, files: Vec<BlobEntry>) -> String {
        let head = HeadDocument::new(files);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_vec_pretty(&head).unwrap()).unwrap();
        head.listing.unwrap()
    }

    #[test]
    fn heads_read_together_are_those_read_one_by_one() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |i: u64| BlobEntry {
            path: format!("f{i}.bin"),
            sha256: format!("{i:064x}"),
            size: i,
        };
        let head =
            |ns: &str, dataset: &str| dir.path().join(ns).join(dataset).join("main/head.json");
        let a = write_head(&head("ns1", "a"), vec![entry(1)]);
        let c = write_head(&head("ns2", "c"), vec![entry(2), entry(3)]);
        std::fs::create_dir_all(head("ns1", "empty").parent().unwrap()).unwrap();
        let paths = [
            head("ns1", "a"),
            head("ns1", "missing"),
            head("ns1", "empty"),
            head("ns2", "c"),
            head("nowhere", "x"),
            head("ns1", "a"),
        ];
        let known = KnownHeads::default();
        let read = |known: &KnownHeads| -> Vec<Option<String>> {
            read_head_listings(paths.iter().map(|p| Ok(Some(p.clone()))).collect(), known)
                .into_iter()
                .map(Result::unwrap)
                .collect()
        };
        let together = read(&known);
        let alone: Vec<_> = paths
            .iter()
            .map(|p| local_head_listing(p.clone()).unwrap())
            .collect();
        assert_eq!(together, alone);
        assert_eq!(
            together,
            vec![
                Some(a.clone()),
                None,
                None,
                Some(c.clone()),
                None,
                Some(a.clone())
            ]
        );
        // Read again: the same (on Linux, remembered).
        #[cfg(target_os = "linux")]
        assert!(known.any(known.generation()), "heads read are remembered");
        assert_eq!(read(&known), together);

        // A head replaced behind the engine's back (a new file renamed over it, as every
        // head is written), and one created: read as they are now.
        let temp = dir.path().join("ns1/a/main/head.json#1");
        let b = write_head(&temp, vec![entry(4)]);
        std::fs::rename(&temp, head("ns1", "a")).unwrap();
        let e = write_head(&head("ns1", "empty"), vec![entry(5)]);
        let now = read(&known);
        assert_eq!(
            now,
            vec![Some(b.clone()), None, Some(e), Some(c), None, Some(b)]
        );
        // Gone: none.
        std::fs::remove_file(head("ns1", "a")).unwrap();
        assert_eq!(read(&known)[0], None);
    }
}
