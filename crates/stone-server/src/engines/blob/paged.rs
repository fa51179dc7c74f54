//! Issue 27: a put of a dataset of a million files, given page by page in path order and
//! never held whole ([`BlobEngine::begin_paged`]).
//!
//! Each page's objects are stored as the page comes ([`PagedPut::add_page`]: hard-linked
//! from a local staging store, copied server-side or uploaded otherwise, as any put) and
//! its entries appended to a listing file next to the head (`head.json#<digits>`, as the
//! store's own temporary files, so that a crash's leftovers are collected with them).
//! [`PagedPut::finish`] then merges, in one pass over both and in a blocking task, the
//! current head (read as a stream of entries, unless `replace`) with that listing into a
//! new head file, digesting both, and moves the head in one atomic step (a rename on
//! local disk, a conditional PUT on S3): a reader sees the old head or the new one, and
//! a crash before that step leaves the old head and unreferenced objects, which the same
//! put run again finds and skips. What the process holds is one page and a few buffers,
//! whatever the count of files (on S3, the new head's bytes as well, for the PUT).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};

use serde::Deserializer as _;
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::layout::HEAD_FORMAT;
use super::*;

/// A put under way, page by page (see the module documentation). Holds the dataset's
/// lock in this engine until dropped; its temporary files go with it.
pub struct PagedPut<'e> {
    engine: &'e BlobEngine,
    location: DatasetLocation,
    keep: Option<(String, StorePath)>,
    _guard: tokio::sync::OwnedMutexGuard<()>,
    listing: Temporary,
    writer: Option<BufWriter<File>>,
    last: Option<String>,
    given: u64,
    uploaded_files: u64,
    uploaded_bytes: u64,
}

/// A file removed when dropped.
struct Temporary(PathBuf);

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl BlobEngine {
    /// Starts a put of `ns/dataset/branch` whose files come in pages, in path order
    /// ([`PagedPut::add_page`]), finished by [`PagedPut::finish`]; `keep` as for
    /// [`Self::put_keeping`]. The dataset's lock in this engine is held until the put is
    /// dropped.
    pub async fn begin_paged(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        keep: Option<&str>,
    ) -> Result<PagedPut<'_>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let keep = location.kept(keep)?;
        let lock = self.locks.get(location.root.as_ref());
        let guard = lock.lock_owned().await;
        let (file, path) = self.temporary_file(&location)?;
        Ok(PagedPut {
            engine: self,
            location,
            keep,
            _guard: guard,
            listing: Temporary(path),
            writer: Some(BufWriter::with_capacity(1 << 16, file)),
            last: None,
            given: 0,
            uploaded_files: 0,
            uploaded_bytes: 0,
        })
    }

    /// A new temporary file for a put of the dataset at `location`: next to its head on a
    /// local store (`head.json#<digits>`: the rename of a new head stays on one file
    /// system, and leftovers are collected as the store's own), in the system's temporary
    /// directory otherwise.
    fn temporary_file(&self, location: &DatasetLocation) -> Result<(File, PathBuf), BlobError> {
        let dir = match self
            .local_dir
            .as_deref()
            .and_then(|dir| local_path(dir, &location.root))
        {
            Some(dataset) => {
                std::fs::create_dir_all(&dataset).map_err(|source| BlobError::LocalIo {
                    path: dataset.clone(),
                    source,
                })?;
                dataset
            }
            None => std::env::temp_dir(),
        };
        loop {
            let digits = uuid::Uuid::new_v4().as_u128() % 1_000_000_000_000_000_000;
            let path = dir.join(format!("{}#{digits}", layout::HEAD_NAME));
            match File::create_new(&path) {
                Ok(file) => return Ok((file, path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(source) => return Err(BlobError::LocalIo { path, source }),
            }
        }
    }
}

impl PagedPut<'_> {
    /// Stores the objects of the next page of files (paths after those of the pages before,
    /// sorted, distinct; `sources` as for [`BlobEngine::put_copying`]) and notes them for
    /// the head. Nothing is visible before [`Self::finish`].
    pub async fn add_page(
        &mut self,
        files: Vec<BlobFile>,
        sources: &HashMap<String, String>,
    ) -> Result<(), BlobError> {
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| BlobError::LocalIo { path, source }
        };
        for file in &files {
            check_path(&file.path)?;
            check_sha256(&file.path, &file.sha256)?;
            match self.last.as_deref() {
                Some(last) if last == file.path => {
                    return Err(BlobError::DuplicatePath {
                        path: file.path.clone(),
                    });
                }
                Some(last) if last > file.path.as_str() => {
                    return Err(BlobError::InvalidPath {
                        path: file.path.clone(),
                        reason: "comes after a greater path (the pages of a put go in path order)",
                    });
                }
                _ => {}
            }
            // A path holds no control character (`check_path`): NUL and LF separate.
            writeln!(writer, "{}\0{}\0{}", file.path, file.sha256, file.size)
                .map_err(io(&self.listing.0))?;
            self.last = Some(file.path.clone());
        }
        self.given += files.len() as u64;
        let (linked, bytes) = self.store_objects(files, sources).await?;
        self.uploaded_files += linked;
        self.uploaded_bytes += bytes;
        Ok(())
    }

    /// The objects of one page: hard-linked in one blocking task when the store and the
    /// staged files are local, through [`BlobEngine::upload_missing`] otherwise.
    async fn store_objects(
        &self,
        files: Vec<BlobFile>,
        sources: &HashMap<String, String>,
    ) -> Result<(u64, u64), BlobError> {
        let engine = self.engine;
        let by_path: BTreeMap<String, BlobFile> =
            files.into_iter().map(|f| (f.path.clone(), f)).collect();
        if let Some(dir) = engine
            .local_fast_path(&by_path)
            .filter(|_| sources.is_empty())
        {
            let root = self.location.root.clone();
            let page: Vec<BlobFile> = by_path.values().cloned().collect();
            let linked = tokio::task::spawn_blocking(move || {
                local::link_page(&dir, &root, &page, &mut OpenDirs::default())
            })
            .await
            .map_err(|e| BlobError::LocalIo {
                path: PathBuf::from(self.location.root.as_ref()),
                source: std::io::Error::other(e),
            })??;
            if let Some(linked) = linked {
                return Ok(linked);
            }
        }
        engine
            .upload_missing(&self.location, &by_path, sources)
            .await
    }

    /// Moves the head: to the given files (`replace`), or to the head's files with the
    /// given ones added or overriding by path. Unchanged when the head already lists
    /// exactly that.
    pub async fn finish(mut self, replace: bool) -> Result<BlobOutcome, BlobError> {
        if let Some(mut writer) = self.writer.take() {
            writer.flush().map_err(|source| BlobError::LocalIo {
                path: self.listing.0.clone(),
                source,
            })?;
        }
        let engine = self.engine;
        let location = &self.location;
        for attempt in 1..=MAX_HEAD_ATTEMPTS {
            let (current, version) = match engine.open_document(&location.head()).await? {
                Some((reader, version)) => (Some(reader), Some(version)),
                None => (None, None),
            };
            let existed = current.is_some();
            let (file, path) = engine.temporary_file(location)?;
            let out = Temporary(path);
            let (listing, head_key) = (self.listing.0.clone(), location.head());
            let merged = tokio::task::spawn_blocking(move || {
                merge_head(current, &head_key, &listing, replace, file)
            })
            .await
            .map_err(|e| BlobError::LocalIo {
                path: out.0.clone(),
                source: std::io::Error::other(e),
            })??;
            let summary = |status| BlobOutcome {
                status,
                files: merged.files,
                bytes: merged.bytes,
                uploaded_files: self.uploaded_files,
                uploaded_bytes: self.uploaded_bytes,
            };
            if let Some((name, key)) = &self.keep
                && let Some(named) = engine.document_digest(key).await?
                && named != merged.digest
            {
                return Err(BlobError::VersionExists {
                    version: name.clone(),
                    location: location.root.to_string(),
                });
            }
            if merged.before.as_deref() == Some(merged.digest.as_str()) {
                return Ok(summary(BlobStatus::Unchanged));
            }
            #[cfg(feature = "test-hooks")]
            if let Some(fault) = engine
                .fault
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                return Err(BlobError::InjectedFault {
                    fault: match fault {
                        BlobFault::BeforeHead => "before the head write",
                    },
                });
            }
            let status = if existed {
                BlobStatus::Updated
            } else {
                BlobStatus::Created
            };
            if engine.install_head(location, &out.0, version).await? {
                tracing::info!(head = %location.head(), files = merged.files, given = self.given, "paged put: head moved");
                return Ok(summary(status));
            }
            tracing::debug!(head = %location.head(), attempt, "head changed concurrently, retrying");
            let jitter = u64::from(uuid::Uuid::new_v4().as_bytes()[0]) % 20;
            tokio::time::sleep(Duration::from_millis(jitter + 10 * u64::from(attempt))).await;
        }
        Err(BlobError::Conflict {
            location: location.head().to_string(),
            attempts: MAX_HEAD_ATTEMPTS,
        })
    }
}

/// A head document to read as a stream, with its storage version.
type OpenDocument = (Box<dyn Read + Send>, UpdateVersion);

impl BlobEngine {
    /// A head document (the head or a named version) as a reader, `None` when there is
    /// none: the file itself on a local store; its bytes otherwise.
    async fn open_document(&self, key: &StorePath) -> Result<Option<OpenDocument>, BlobError> {
        let none = UpdateVersion {
            e_tag: None,
            version: None,
        };
        if let Some(path) = self
            .local_dir
            .as_deref()
            .and_then(|dir| local_path(dir, key))
        {
            return match File::open(&path) {
                Ok(file) => Ok(Some((Box::new(file), none))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(source) => Err(BlobError::LocalIo { path, source }),
            };
        }
        let result = match self.store.get(key).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(BlobError::storage("get", key)(e)),
        };
        let version = UpdateVersion {
            e_tag: result.meta.e_tag.clone(),
            version: result.meta.version.clone(),
        };
        let bytes = result
            .bytes()
            .await
            .map_err(BlobError::storage("get", key))?;
        Ok(Some((Box::new(std::io::Cursor::new(bytes)), version)))
    }

    /// The [`ListingDigest`] of the files a head document lists, read as a stream; `None`
    /// when there is no such document.
    pub(super) async fn document_digest(
        &self,
        key: &StorePath,
    ) -> Result<Option<String>, BlobError> {
        let Some((reader, _)) = self.open_document(key).await? else {
            return Ok(None);
        };
        let key = key.clone();
        let digest = tokio::task::spawn_blocking(move || {
            let mut digest = ListingDigest::default();
            read_entries(reader, &key, |entry| {
                digest.add(&entry.path, &entry.sha256, entry.size);
                Ok(())
            })?;
            Ok::<_, BlobError>(digest.finish())
        })
        .await
        .map_err(|e| BlobError::LocalIo {
            path: PathBuf::from("head"),
            source: std::io::Error::other(e),
        })??;
        Ok(Some(digest))
    }

    /// Makes the file `body` the head: renamed over it on a local store; put on S3 (its
    /// bytes read, conditional on `previous` as [`Self::write_head`]). `false` when a
    /// conditional write lost to another writer.
    async fn install_head(
        &self,
        location: &DatasetLocation,
        body: &Path,
        previous: Option<UpdateVersion>,
    ) -> Result<bool, BlobError> {
        let head = location.head();
        if let Some(path) = self
            .local_dir
            .as_deref()
            .and_then(|dir| local_path(dir, &head))
        {
            let renamed = std::fs::rename(body, &path);
            self.known_heads.changed();
            renamed.map_err(|source| BlobError::LocalIo { path, source })?;
            return Ok(true);
        }
        let bytes = std::fs::read(body).map_err(|source| BlobError::LocalIo {
            path: body.to_path_buf(),
            source,
        })?;
        self.write_head_bytes(&head, bytes, previous).await
    }
}

/// What [`merge_head`] wrote.
struct Merged {
    /// The digest of the head before, `None` without one.
    before: Option<String>,
    /// The digest of the listing written.
    digest: String,
    files: u64,
    bytes: u64,
}

/// The bytes before a head's `listing` value, and after its last file.
fn head_prefix(updated_at: &str) -> String {
    format!(
        "{{\n  \"format\": \"{HEAD_FORMAT}\",\n  \"updated_at\": \"{updated_at}\",\n  \"listing\": \""
    )
}

const HEAD_AFTER_LISTING: &str = "\",\n  \"files\": [\n";
const HEAD_END: &str = "\n  ]\n}\n";

/// Writes to `out` the head that lists the entries of `listing` (path order), and unless
/// `replace` those of `current` whose path `listing` does not have; in the format of
/// [`HeadDocument`] (`listing` first), one pass over both.
fn merge_head(
    current: Option<Box<dyn Read + Send>>,
    head_key: &StorePath,
    listing: &Path,
    replace: bool,
    out: File,
) -> Result<Merged, BlobError> {
    let given = File::open(listing).map_err(|source| BlobError::LocalIo {
        path: listing.to_path_buf(),
        source,
    })?;
    let mut given = ListingReader {
        reader: BufReader::with_capacity(1 << 16, given),
        path: listing.to_path_buf(),
        line: Vec::new(),
    };
    let updated_at = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Nanos, true);
    let prefix = head_prefix(&updated_at);
    let mut writer = HeadWriter {
        out: BufWriter::with_capacity(1 << 16, &out),
        digest: ListingDigest::default(),
        first: true,
    };
    let io = |source| BlobError::LocalIo {
        path: PathBuf::from(head_key.as_ref()),
        source,
    };
    // The digest goes where the zeros are once the files are written.
    writer
        .out
        .write_all(prefix.as_bytes())
        .and_then(|()| writer.out.write_all(&[b'0'; 64]))
        .and_then(|()| writer.out.write_all(HEAD_AFTER_LISTING.as_bytes()))
        .map_err(io)?;
    let mut next = given.next()?;
    let before = match current {
        Some(reader) => {
            let mut before = ListingDigest::default();
            read_entries(reader, head_key, |entry| {
                before.add(&entry.path, &entry.sha256, entry.size);
                if replace {
                    return Ok(());
                }
                while let Some(new) = next.as_ref().filter(|new| new.path < entry.path) {
                    writer.write(new).map_err(io)?;
                    next = given.next()?;
                }
                // A given file of the same path overrides the head's (written with the
                // files after it).
                if next.as_ref().is_none_or(|new| new.path != entry.path) {
                    writer.write(&entry).map_err(io)?;
                }
                Ok(())
            })?;
            Some(before.finish())
        }
        None => None,
    };
    while let Some(new) = next {
        writer.write(&new).map_err(io)?;
        next = given.next()?;
    }
    writer.out.write_all(HEAD_END.as_bytes()).map_err(io)?;
    writer.out.flush().map_err(io)?;
    drop(writer.out);
    let (files, bytes) = (writer.digest.files(), writer.digest.bytes());
    let digest = writer.digest.finish();
    {
        use std::os::unix::fs::FileExt;
        out.write_all_at(digest.as_bytes(), prefix.len() as u64)
            .map_err(io)?;
    }
    Ok(Merged {
        before,
        digest,
        files,
        bytes,
    })
}

/// Writes a head's files, digesting them.
struct HeadWriter<W: Write> {
    out: W,
    digest: ListingDigest,
    first: bool,
}

impl<W: Write> HeadWriter<W> {
    fn write(&mut self, entry: &BlobEntry) -> std::io::Result<()> {
        if !self.first {
            self.out.write_all(b",\n")?;
        }
        self.first = false;
        self.out.write_all(b"    {\"path\": ")?;
        serde_json::to_writer(&mut self.out, &entry.path)?;
        write!(
            self.out,
            ", \"sha256\": \"{}\", \"size\": {}}}",
            entry.sha256, entry.size
        )?;
        self.digest.add(&entry.path, &entry.sha256, entry.size);
        Ok(())
    }
}

/// Reads the listing [`PagedPut::add_page`] wrote.
struct ListingReader {
    reader: BufReader<File>,
    path: PathBuf,
    line: Vec<u8>,
}

impl ListingReader {
    fn next(&mut self) -> Result<Option<BlobEntry>, BlobError> {
        self.line.clear();
        let read = self
            .reader
            .read_until(b'\n', &mut self.line)
            .map_err(|source| BlobError::LocalIo {
                path: self.path.clone(),
                source,
            })?;
        if read == 0 {
            return Ok(None);
        }
        let corrupt = || BlobError::LocalIo {
            path: self.path.clone(),
            source: std::io::Error::other("a put's listing line is not `path NUL sha256 NUL size`"),
        };
        let line = std::str::from_utf8(self.line.strip_suffix(b"\n").ok_or_else(corrupt)?)
            .map_err(|_| corrupt())?;
        let mut parts = line.split('\0');
        let (Some(path), Some(sha256), Some(size), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(corrupt());
        };
        Ok(Some(BlobEntry {
            path: path.to_owned(),
            sha256: sha256.to_owned(),
            size: size.parse().map_err(|_| corrupt())?,
        }))
    }
}

/// Reads the files of a head document one by one (each checked as
/// [`HeadDocument::parse`] checks them, and in strictly increasing path order), without
/// holding them; `on_file`'s error stops the reading and is returned.
pub(super) fn read_entries(
    reader: impl Read,
    key: &StorePath,
    mut on_file: impl FnMut(BlobEntry) -> Result<(), BlobError>,
) -> Result<(), BlobError> {
    let corrupt = |message: String| BlobError::CorruptHead {
        location: key.to_string(),
        message,
    };
    let mut failed: Option<BlobError> = None;
    let mut last: Option<String> = None;
    let mut each = |entry: BlobEntry| -> Result<(), String> {
        check_path(&entry.path).map_err(|e| e.to_string())?;
        check_sha256(&entry.path, &entry.sha256).map_err(|e| e.to_string())?;
        if last
            .as_deref()
            .is_some_and(|last| last >= entry.path.as_str())
        {
            return Err(format!("{:?} is out of path order", entry.path));
        }
        last = Some(entry.path.clone());
        on_file(entry).map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            message
        })
    };
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, reader));
    let read = (&mut de)
        .deserialize_map(HeadVisitor { each: &mut each })
        .and_then(|format| de.end().map(|()| format));
    if let Some(failed) = failed {
        return Err(failed);
    }
    match read {
        Ok(Some(format)) if format == HEAD_FORMAT => Ok(()),
        Ok(format) => Err(corrupt(format!("unknown format {format:?}"))),
        Err(e) => Err(corrupt(e.to_string())),
    }
}

/// The top level of a head document: its `format` (checked by the caller), every entry
/// of `files` handed to `each`.
struct HeadVisitor<'a, F> {
    each: &'a mut F,
}

impl<'de, F: FnMut(BlobEntry) -> Result<(), String>> Visitor<'de> for HeadVisitor<'_, F> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a head document")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let each = self.each;
        let mut format = None;
        let mut files = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => format = Some(map.next_value::<String>()?),
                "files" => {
                    map.next_value_seed(Files { each: &mut *each })?;
                    files = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !files {
            return Err(A::Error::missing_field("files"));
        }
        Ok(format)
    }
}

/// A head's `files`, entry by entry.
struct Files<'a, F> {
    each: &'a mut F,
}

impl<'de, F: FnMut(BlobEntry) -> Result<(), String>> DeserializeSeed<'de> for Files<'_, F> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F: FnMut(BlobEntry) -> Result<(), String>> Visitor<'de> for Files<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of files")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(entry) = seq.next_element::<BlobEntry>()? {
            (self.each)(entry).map_err(A::Error::custom)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blob::layout::listing_digest;

    fn entries(range: std::ops::Range<u64>, salt: u64) -> Vec<BlobEntry> {
        range
            .map(|i| BlobEntry {
                path: format!("d/f{i:06}.bin"),
                sha256: format!("{:064x}", i * 7 + salt),
                size: i,
            })
            .collect()
    }

    fn listing_file(dir: &Path, files: &[BlobEntry]) -> PathBuf {
        let path = dir.join("listing");
        let mut text = String::new();
        for f in files {
            text.push_str(&format!("{}\0{}\0{}\n", f.path, f.sha256, f.size));
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    fn merged(
        current: Option<&HeadDocument>,
        given: &[BlobEntry],
        replace: bool,
    ) -> (Merged, HeadDocument, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let listing = listing_file(dir.path(), given);
        let out = dir.path().join("head");
        let reader = current.map(|head| {
            Box::new(std::io::Cursor::new(
                serde_json::to_vec_pretty(head).unwrap(),
            )) as Box<dyn Read + Send>
        });
        let key = StorePath::from("h");
        let merged =
            merge_head(reader, &key, &listing, replace, File::create(&out).unwrap()).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        let head = HeadDocument::parse(&key, &bytes).unwrap();
        (merged, head, bytes)
    }

    #[test]
    fn a_merged_head_is_the_put_of_the_same_files() {
        let old = HeadDocument::new(entries(0..1000, 0));
        // Overrides 500..1000 (other contents), adds 1000..1500.
        let given = entries(500..1500, 3);
        let (added, head, bytes) = merged(Some(&old), &given, false);
        let given_map: BTreeMap<String, BlobFile> = given
            .iter()
            .map(|e| {
                let file = BlobFile {
                    path: e.path.clone(),
                    local: PathBuf::new(),
                    sha256: e.sha256.clone(),
                    size: e.size,
                    verified: false,
                };
                (e.path.clone(), file)
            })
            .collect();
        let expected = target_files(Some(&old), &given_map, false);
        assert_eq!(head.files, expected);
        assert_eq!(added.files, 1500);
        assert_eq!(added.digest, listing_digest(&expected));
        assert_eq!(head.listing.as_deref(), Some(added.digest.as_str()));
        assert_eq!(
            listing_of_prefix(&bytes[..HEAD_PREFIX_LEN]).as_deref(),
            Some(added.digest.as_str())
        );
        assert_eq!(added.before.as_deref(), old.listing.as_deref());
        // Replaced: the given files only.
        let (replaced, head, _) = merged(Some(&old), &given, true);
        assert_eq!(head.files, given);
        assert_eq!(replaced.digest, listing_digest(&given));
        // The same files again: the digest is the head's (unchanged).
        let (again, _, _) = merged(Some(&old), &old.files, true);
        assert_eq!(again.before, Some(again.digest.clone()));
        let (again, _, _) = merged(Some(&old), &entries(10..20, 0), false);
        assert_eq!(again.before, Some(again.digest.clone()));
        // No head: created; no files: an empty head.
        let (created, head, _) = merged(None, &given, false);
        assert_eq!((created.before, head.files.len()), (None, 1000));
        let (_, head, _) = merged(None, &[], true);
        assert!(head.files.is_empty());
    }

    #[test]
    fn a_streamed_head_is_checked_as_a_parsed_one() {
        let key = StorePath::from("h");
        let read = |text: String| read_entries(std::io::Cursor::new(text), &key, |_| Ok(()));
        let sha = "a".repeat(64);
        let file = |path: &str| format!(r#"{{"path":"{path}","sha256":"{sha}","size":1}}"#);
        let doc = |files: &[String]| {
            format!(
                r#"{{"format":"{HEAD_FORMAT}","extra":[1,{{"a":2}}],"files":[{}]}}"#,
                files.join(",")
            )
        };
        read(doc(&[file("a"), file("b")])).unwrap();
        assert!(read(doc(&[file("b"), file("a")])).is_err(), "order");
        assert!(read(doc(&[file("a"), file("a")])).is_err(), "twice");
        assert!(read(doc(&[file("../a")])).is_err(), "path");
        assert!(read(doc(&[file("a")]).replace(HEAD_FORMAT, "other")).is_err());
        assert!(read(format!(r#"{{"format":"{HEAD_FORMAT}"}}"#)).is_err());
        assert!(read(doc(&[file("a")])[..40].to_owned()).is_err(), "cut");
        // The callback's error is the one returned.
        let failed = read_entries(std::io::Cursor::new(doc(&[file("a")])), &key, |_| {
            Err(BlobError::DuplicatePath { path: "x".into() })
        });
        assert!(matches!(failed, Err(BlobError::DuplicatePath { .. })));
    }
}
