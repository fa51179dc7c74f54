//! sha256 of every file of a package, in parallel, with a cache keyed on (path, size,
//! modification time, inode) under the package's `.stone/`, so an unchanged file is never
//! read twice.
//!
//! The cache is a text file sorted by path, one line per file
//! (`<sha256> <size> <mtime_ns> <inode> <path>`): it is read in step with the package's
//! files sorted the same way and written the same way, a line at a time, so its cost in
//! memory does not grow with the count of files (a package of a million small files would
//! otherwise hold a map of a million paths, twice, and the JSON text of it).

use std::borrow::Borrow;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::package::{
    Folder, FolderWalk, LISTED_FILES, PackageError, PackageFile, STATE_DIR, file_identity,
};

/// Files are read in blocks of this size.
const BLOCK: usize = 1 << 20;
/// The cache file, under [`STATE_DIR`].
pub const HASH_CACHE_FILE: &str = "hash-cache.txt";
/// The first line of the cache file (its format and version).
const CACHE_HEADER: &str = "stone hash cache 2";
/// The cache of earlier versions (one JSON document): removed when the cache is written.
const OLD_CACHE_FILE: &str = "hash-cache.json";
/// A file modified this recently is hashed but not cached: a write within the same clock
/// tick after we read it would otherwise go unnoticed.
const RACY_NS: i128 = 2_000_000_000;

/// One file's entry in a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// Relative to the package directory, `/`-separated.
    pub path: String,
    pub size: u64,
    /// Lowercase hex.
    pub sha256: String,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DigestError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} changed while it was being read", path.display())]
    Changed { path: PathBuf },
    /// Walking a folder again found a problem (a file gone, renamed, or no longer plain).
    #[error(transparent)]
    Walk(Box<PackageError>),
}

/// What hashing reports as it goes.
pub trait HashProgress: Sync {
    /// `bytes` more were hashed (or found in the cache).
    fn advance(&self, bytes: u64);
}

impl HashProgress for () {
    fn advance(&self, _: u64) {}
}

/// Counts of a hashing run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HashStats {
    pub files: usize,
    pub bytes: u64,
    /// Files whose hash came from the cache.
    pub cached_files: usize,
    /// Bytes actually read and hashed.
    pub hashed_bytes: u64,
}

type Sha = [u8; 32];

/// One line of the cache file.
#[derive(Debug, Default)]
struct CacheEntry {
    path: String,
    size: u64,
    mtime_ns: i128,
    inode: u64,
    sha256: Sha,
}

impl CacheEntry {
    fn parse(line: &str, into: &mut CacheEntry) -> Option<()> {
        let mut fields = line.splitn(5, ' ');
        let mut sha256 = [0u8; 32];
        hex::decode_to_slice(fields.next()?, &mut sha256).ok()?;
        into.sha256 = sha256;
        into.size = fields.next()?.parse().ok()?;
        into.mtime_ns = fields.next()?.parse().ok()?;
        into.inode = fields.next()?.parse().ok()?;
        into.path.clear();
        into.path.push_str(fields.next().filter(|p| !p.is_empty())?);
        Some(())
    }

    fn matches(&self, file: &PackageFile) -> bool {
        self.size == file.size && self.mtime_ns == file.modified_ns && self.inode == file.inode
    }
}

/// The cache file read forward, in step with paths asked for in sorted order. A line out
/// of order or unreadable ends it (the files after it are hashed again).
struct CacheReader {
    lines: Option<BufReader<File>>,
    line: String,
    current: Option<CacheEntry>,
}

impl CacheReader {
    fn open(path: &Path) -> CacheReader {
        let mut reader = CacheReader {
            lines: File::open(path)
                .ok()
                .map(|f| BufReader::with_capacity(1 << 16, f)),
            line: String::new(),
            current: None,
        };
        let header = reader.next_line().map(|l| l == CACHE_HEADER);
        if header == Some(true) {
            reader.current = Some(CacheEntry::default());
            reader.advance();
        } else {
            reader.lines = None;
        }
        reader
    }

    fn empty() -> CacheReader {
        CacheReader {
            lines: None,
            line: String::new(),
            current: None,
        }
    }

    fn next_line(&mut self) -> Option<&str> {
        let lines = self.lines.as_mut()?;
        self.line.clear();
        match lines.read_line(&mut self.line) {
            Ok(n) if n > 0 && self.line.ends_with('\n') => Some(self.line.trim_end_matches('\n')),
            _ => None,
        }
    }

    /// Moves to the next entry; `current` becomes `None` at the end or at a bad line.
    fn advance(&mut self) {
        let Some(mut entry) = self.current.take() else {
            return;
        };
        let previous = std::mem::take(&mut entry.path);
        if self.next_line().is_none() {
            return;
        }
        // The line as read (no copy of it: a million lines on a warm run).
        let line = self.line.trim_end_matches('\n');
        if CacheEntry::parse(line, &mut entry).is_some() && entry.path > previous {
            self.current = Some(entry);
        } else {
            self.lines = None;
        }
    }

    /// The entry of `path`; paths are asked for in sorted order.
    fn find(&mut self, path: &str) -> Option<&CacheEntry> {
        while self
            .current
            .as_ref()
            .is_some_and(|e| e.path.as_str() < path)
        {
            self.advance();
        }
        self.current.as_ref().filter(|e| e.path == path)
    }
}

/// Hashes `files` of the package at `root` on `jobs` threads, using and updating the hash
/// cache when `use_cache`. Digests come back in the order of `files`.
pub fn hash_files<F: Borrow<PackageFile> + Sync>(
    root: &Path,
    files: &[F],
    jobs: usize,
    use_cache: bool,
    progress: &dyn HashProgress,
) -> Result<(Vec<FileDigest>, HashStats), DigestError> {
    let mut session = HashSession::new(root, jobs, use_cache, progress);
    let digests = session.hash_listed(files)?;
    Ok((digests, session.finish()))
}

fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

/// One hashing run over a package: files listed ([`HashSession::hash_listed`]) and
/// folders walked ([`HashSession::folder`]), each reading the cache in step with its
/// sorted files and writing its entries, in the same order, to a part of the new cache;
/// [`HashSession::finish`] merges the parts into the cache file when something was hashed.
/// Memory: one listing of files, or one chunk of a folder, at a time.
pub struct HashSession<'p> {
    root: PathBuf,
    jobs: usize,
    use_cache: bool,
    progress: &'p dyn HashProgress,
    stats: HashStats,
    parts: Vec<PathBuf>,
    /// A file was read and hashed: the cache changes.
    hashed: bool,
    /// A part could not be written: the cache stays as it is.
    broken: bool,
    now: i128,
}

impl<'p> HashSession<'p> {
    pub fn new(
        root: &Path,
        jobs: usize,
        use_cache: bool,
        progress: &'p dyn HashProgress,
    ) -> HashSession<'p> {
        HashSession {
            root: root.to_owned(),
            jobs: jobs.max(1),
            use_cache,
            progress,
            stats: HashStats::default(),
            parts: Vec::new(),
            hashed: false,
            broken: false,
            now: now_ns(),
        }
    }

    fn cache_path(&self) -> PathBuf {
        self.root.join(STATE_DIR).join(HASH_CACHE_FILE)
    }

    fn cache(&self) -> CacheReader {
        if self.use_cache {
            CacheReader::open(&self.cache_path())
        } else {
            CacheReader::empty()
        }
    }

    /// A new part of the cache being written; `None` without the cache or when it cannot
    /// be written (the cache only saves time: failing to write it must not fail the push).
    fn part(&mut self) -> Option<PartWriter> {
        if !self.use_cache || self.broken {
            return None;
        }
        let dir = self.root.join(STATE_DIR);
        let path = dir.join(format!(
            ".{HASH_CACHE_FILE}.{}.{}.part",
            std::process::id(),
            self.parts.len()
        ));
        let opened = ensure_state_dir(&dir).and_then(|()| File::create(&path));
        match opened {
            Ok(file) => {
                self.parts.push(path);
                Some(PartWriter {
                    out: BufWriter::with_capacity(1 << 16, file),
                    previous: String::new(),
                    now: self.now,
                })
            }
            Err(_) => {
                self.broken = true;
                None
            }
        }
    }

    /// Hashes `files` (listed); digests come back in their order.
    pub fn hash_listed<F: Borrow<PackageFile> + Sync>(
        &mut self,
        files: &[F],
    ) -> Result<Vec<FileDigest>, DigestError> {
        let file = |i: usize| -> &PackageFile { files[i].borrow() };
        let progress = self.progress;
        self.stats.files += files.len();
        // In path order: the cache is read (and written) in that order.
        let mut order: Vec<usize> = (0..files.len()).collect();
        order.sort_by(|&a, &b| file(a).path.cmp(&file(b).path));
        let mut shas: Vec<Option<Sha>> = vec![None; files.len()];
        let mut todo = Vec::new();
        let mut cache = self.cache();
        for &i in &order {
            let f = file(i);
            self.stats.bytes += f.size;
            match cache.find(&f.path) {
                Some(e) if e.matches(f) => {
                    shas[i] = Some(e.sha256);
                    self.stats.cached_files += 1;
                    progress.advance(f.size);
                }
                _ => todo.push(i),
            }
        }
        drop(cache);
        // Largest first, so the threads finish together.
        todo.sort_by_key(|&i| std::cmp::Reverse(file(i).size));
        let hashed = hash_parallel(&self.root, files, &todo, self.jobs, progress)?;
        self.hashed |= !hashed.is_empty();
        for (i, sha) in hashed {
            self.stats.hashed_bytes += file(i).size;
            shas[i] = Some(sha);
        }
        if let Some(mut part) = self.part() {
            let written = order.iter().try_for_each(|&i| match &shas[i] {
                Some(sha) => part.write(file(i), sha),
                None => Ok(()),
            });
            if written.and_then(|()| part.out.flush()).is_err() {
                self.broken = true;
            }
        }
        Ok(shas
            .into_iter()
            .enumerate()
            .map(|(i, sha)| FileDigest {
                path: file(i).path.clone(),
                size: file(i).size,
                sha256: hex::encode(sha.expect("every file is hashed or cached")),
            })
            .collect())
    }

    /// Starts hashing the files of `folder`, a chunk at a time
    /// ([`FolderHasher::next_chunk`]); give it back with [`HashSession::absorb`].
    pub fn folder(&mut self, folder: &Folder) -> Result<FolderHasher, DigestError> {
        let part = self.part();
        Ok(FolderHasher {
            root: self.root.clone(),
            walk: folder.walk().map_err(|e| DigestError::Walk(Box::new(e)))?,
            cache: self.cache(),
            part,
            jobs: self.jobs,
            stats: HashStats::default(),
            hashed: false,
            broken: false,
        })
    }

    /// Takes the counts of a folder hashed to its end.
    pub fn absorb(&mut self, folder: FolderHasher) {
        let FolderHasher {
            stats,
            hashed,
            broken,
            part,
            ..
        } = folder;
        if let Some(mut part) = part
            && part.out.flush().is_err()
        {
            self.broken = true;
        }
        self.stats.files += stats.files;
        self.stats.bytes += stats.bytes;
        self.stats.cached_files += stats.cached_files;
        self.stats.hashed_bytes += stats.hashed_bytes;
        self.hashed |= hashed;
        self.broken |= broken;
    }

    /// Writes the new cache (when a file was hashed) and returns the counts.
    pub fn finish(self) -> HashStats {
        if self.use_cache && self.hashed && !self.broken {
            // The cache only saves time: failing to write it must not fail the push.
            let _ = merge_parts(&self.cache_path(), &self.parts);
        }
        self.stats
    }
}

impl Drop for HashSession<'_> {
    /// The parts go, merged or not (a run that failed leaves the cache as it was).
    fn drop(&mut self) {
        for part in &self.parts {
            let _ = fs::remove_file(part);
        }
    }
}

/// A part of the cache being written: entries in path order, each file once, none of a
/// file modified too recently to trust.
struct PartWriter {
    out: BufWriter<File>,
    previous: String,
    now: i128,
}

impl PartWriter {
    fn write(&mut self, f: &PackageFile, sha: &Sha) -> io::Result<()> {
        // A file of two resources is listed once.
        if self.now - f.modified_ns <= RACY_NS || self.previous == f.path {
            return Ok(());
        }
        self.previous.clear();
        self.previous.push_str(&f.path);
        let mut hex = [0u8; 64];
        hex::encode_to_slice(sha, &mut hex).map_err(io::Error::other)?;
        self.out.write_all(&hex)?;
        writeln!(
            self.out,
            " {} {} {} {}",
            f.size, f.modified_ns, f.inode, f.path
        )
    }
}

/// The files of a folder hashed a chunk at a time, in path order, with the cache read in
/// step (and, in a [`HashSession`], written to a part of the new cache): what it holds is
/// one chunk and one directory listing per level, whatever the folder's count of files.
pub struct FolderHasher {
    root: PathBuf,
    walk: FolderWalk,
    cache: CacheReader,
    part: Option<PartWriter>,
    jobs: usize,
    stats: HashStats,
    hashed: bool,
    broken: bool,
}

impl FolderHasher {
    /// Hashes `folder` using the cache without writing it (a second pass over a folder
    /// the plan hashed: its files come from the cache).
    pub fn read_only(folder: &Folder, jobs: usize) -> Result<FolderHasher, DigestError> {
        Ok(FolderHasher {
            root: folder.root.clone(),
            walk: folder.walk().map_err(|e| DigestError::Walk(Box::new(e)))?,
            cache: CacheReader::open(&folder.root.join(STATE_DIR).join(HASH_CACHE_FILE)),
            part: None,
            jobs: jobs.max(1),
            stats: HashStats::default(),
            hashed: false,
            broken: false,
        })
    }

    /// The digests of the next `max` files at most (paths relative to the package); empty
    /// at the end.
    pub fn next_chunk(
        &mut self,
        max: usize,
        progress: &dyn HashProgress,
    ) -> Result<Vec<FileDigest>, DigestError> {
        let mut files = Vec::with_capacity(max.min(LISTED_FILES));
        while files.len() < max {
            match self.walk.next() {
                None => break,
                Some(Ok(f)) => files.push(f),
                Some(Err(e)) => return Err(DigestError::Walk(Box::new(e.into()))),
            }
        }
        let mut shas: Vec<Option<Sha>> = vec![None; files.len()];
        let mut todo = Vec::new();
        for (i, f) in files.iter().enumerate() {
            self.stats.files += 1;
            self.stats.bytes += f.size;
            match self.cache.find(&f.path) {
                Some(e) if e.matches(f) => {
                    shas[i] = Some(e.sha256);
                    self.stats.cached_files += 1;
                    progress.advance(f.size);
                }
                _ => todo.push(i),
            }
        }
        todo.sort_by_key(|&i| std::cmp::Reverse(files[i].size));
        let hashed = hash_parallel(&self.root, &files, &todo, self.jobs, progress)?;
        self.hashed |= !hashed.is_empty();
        for (i, sha) in hashed {
            self.stats.hashed_bytes += files[i].size;
            shas[i] = Some(sha);
        }
        if let Some(part) = &mut self.part {
            let written = files.iter().zip(&shas).try_for_each(|(f, sha)| match sha {
                Some(sha) => part.write(f, sha),
                None => Ok(()),
            });
            if written.is_err() {
                self.part = None;
                self.broken = true;
            }
        }
        Ok(files
            .into_iter()
            .zip(shas)
            .map(|(f, sha)| FileDigest {
                sha256: hex::encode(sha.expect("every file is hashed or cached")),
                path: f.path,
                size: f.size,
            })
            .collect())
    }

    /// The counts so far.
    pub fn stats(&self) -> HashStats {
        self.stats
    }
}

/// Merges the parts (each sorted by path) into the cache file: a temporary file written a
/// line at a time, moved in place.
fn merge_parts(path: &Path, parts: &[PathBuf]) -> io::Result<()> {
    let dir = path.parent().expect("the cache file is in a directory");
    ensure_state_dir(dir)?;
    let tmp = dir.join(format!(".{HASH_CACHE_FILE}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut sources = parts
            .iter()
            .map(|p| Ok(BufReader::with_capacity(1 << 16, File::open(p)?)))
            .collect::<io::Result<Vec<_>>>()?;
        let mut heads: Vec<Option<String>> = vec![None; sources.len()];
        let read = |source: &mut BufReader<File>| -> io::Result<Option<String>> {
            let mut line = String::new();
            Ok((source.read_line(&mut line)? > 0).then_some(line))
        };
        for (head, source) in heads.iter_mut().zip(&mut sources) {
            *head = read(source)?;
        }
        let path_of = |line: &str| {
            line.trim_end_matches('\n')
                .splitn(5, ' ')
                .nth(4)
                .map(str::to_owned)
        };
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&tmp)?);
        writeln!(out, "{CACHE_HEADER}")?;
        let mut previous: Option<String> = None;
        loop {
            // The part whose next line has the smallest path (a few parts: one per folder).
            let mut best: Option<(usize, String)> = None;
            for (i, head) in heads.iter().enumerate() {
                let Some(line) = head else { continue };
                let p = path_of(line).unwrap_or_default();
                if best.as_ref().is_none_or(|(_, b)| p < *b) {
                    best = Some((i, p));
                }
            }
            let Some((i, p)) = best else { break };
            let line = heads[i].take().expect("the chosen part has a line");
            // A file of two resources is listed once.
            if previous.as_deref() != Some(p.as_str()) {
                out.write_all(line.as_bytes())?;
                previous = Some(p);
            }
            heads[i] = read(&mut sources[i])?;
        }
        // Not synced: after a crash, a line cut short or lost ends the cache at that
        // point (every line checks itself), and the files after it are hashed again.
        out.flush()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    fs::rename(&tmp, path)?;
    let _ = fs::remove_file(dir.join(OLD_CACHE_FILE));
    Ok(())
}

fn hash_parallel<F: Borrow<PackageFile> + Sync>(
    root: &Path,
    files: &[F],
    todo: &[usize],
    jobs: usize,
    progress: &dyn HashProgress,
) -> Result<Vec<(usize, Sha)>, DigestError> {
    if todo.is_empty() {
        // Everything came from the cache: no thread, no buffer.
        return Ok(Vec::new());
    }
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::with_capacity(todo.len()));
    let first_error: Mutex<Option<DigestError>> = Mutex::new(None);
    let threads = jobs.min(todo.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut buffer = vec![0u8; BLOCK];
                loop {
                    if first_error.lock().map(|e| e.is_some()).unwrap_or(true) {
                        return;
                    }
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(n) else { return };
                    match hash_file(root, files[i].borrow(), &mut buffer, progress) {
                        Ok(sha) => out
                            .lock()
                            .expect("no thread panics holding it")
                            .push((i, sha)),
                        Err(e) => {
                            let mut slot = first_error.lock().expect("no thread panics holding it");
                            slot.get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = first_error
        .into_inner()
        .expect("no thread panics holding it")
    {
        return Err(e);
    }
    Ok(out.into_inner().expect("no thread panics holding it"))
}

/// sha256 of one file, checking it did not change while it was read.
fn hash_file(
    root: &Path,
    file: &PackageFile,
    buffer: &mut [u8],
    progress: &dyn HashProgress,
) -> Result<Sha, DigestError> {
    let absolute = file.absolute(root);
    let read_error = |source| DigestError::Read {
        path: absolute.clone(),
        source,
    };
    let mut handle = File::open(&absolute).map_err(read_error)?;
    let mut hasher = Sha256::new();
    let mut total = 0u64;
    loop {
        let n = match handle.read(buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_error(e)),
        };
        hasher.update(&buffer[..n]);
        total += n as u64;
        progress.advance(n as u64);
    }
    let after = handle.metadata().map_err(read_error)?;
    if total != file.size
        || after.len() != file.size
        || file_identity(&after) != (file.modified_ns, file.inode)
    {
        return Err(DigestError::Changed { path: absolute });
    }
    Ok(hasher.finalize().into())
}

/// sha256 and size of a whole file.
pub fn sha256_file(path: &Path) -> io::Result<(String, u64)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; BLOCK];
    let mut size = 0u64;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    Ok((hex::encode(hasher.finalize()), size))
}

/// sha256 of a byte slice, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Creates `dir` and the folders above it that are missing, each readable by the user
/// only (0700 on unix): stone's config, cache and state folders hold what others on the
/// machine have no business reading.
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Creates the package's `.stone/` directory (0700), which keeps itself out of git.
pub fn ensure_state_dir(dir: &Path) -> io::Result<()> {
    create_private_dir_all(dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        fs::write(
            ignore,
            "# stone's local state (hash cache, resume state): never commit it.\n*\n",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::load_package;

    fn package_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut yaml = String::from("publish: {to: \"stone:t\"}\nresources:\n");
        for (name, bytes) in files {
            fs::write(dir.path().join(name), bytes).unwrap();
            yaml.push_str(&format!("  - path: {name}\n"));
        }
        fs::write(dir.path().join("datasets.yaml"), yaml).unwrap();
        dir
    }

    fn all_files(root: &Path) -> Vec<PackageFile> {
        load_package(root)
            .unwrap()
            .resources
            .into_iter()
            .flat_map(|r| r.files)
            .collect()
    }

    #[test]
    fn hashes_match_known_values() {
        let dir = package_with(&[("a.bin", b"abc"), ("b.bin", b"")]);
        let (digests, stats) =
            hash_files(dir.path(), &all_files(dir.path()), 2, false, &()).unwrap();
        assert_eq!(
            digests[0].sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            digests[1].sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(stats.hashed_bytes, 3);
    }

    #[test]
    fn cache_skips_unchanged_files_and_notices_changes() {
        let dir = package_with(&[("a.bin", b"one"), ("b.bin", b"two")]);
        // Age the files so the cache trusts them.
        let old = SystemTime::now() - std::time::Duration::from_secs(60);
        for name in ["a.bin", "b.bin"] {
            File::options()
                .write(true)
                .open(dir.path().join(name))
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        let files = all_files(dir.path());
        let (first, stats) = hash_files(dir.path(), &files, 2, true, &()).unwrap();
        assert_eq!(stats.cached_files, 0);
        assert!(dir.path().join(".stone/.gitignore").exists());
        let (second, stats) = hash_files(dir.path(), &all_files(dir.path()), 2, true, &()).unwrap();
        assert_eq!((stats.cached_files, stats.hashed_bytes), (2, 0));
        assert_eq!(first, second);

        // Same size, same inode, another modification time: hashed again.
        fs::write(dir.path().join("b.bin"), b"TWO").unwrap();
        let later = old + std::time::Duration::from_secs(1);
        File::options()
            .write(true)
            .open(dir.path().join("b.bin"))
            .unwrap()
            .set_modified(later)
            .unwrap();
        let (third, stats) = hash_files(dir.path(), &all_files(dir.path()), 2, true, &()).unwrap();
        assert_eq!(stats.cached_files, 1);
        assert_ne!(third[1].sha256, second[1].sha256);
        assert_eq!(third[1].sha256, sha256_hex(b"TWO"));
    }

    fn age(dir: &Path, names: &[&str]) {
        let old = SystemTime::now() - std::time::Duration::from_secs(60);
        for name in names {
            File::options()
                .write(true)
                .open(dir.join(name))
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
    }

    #[test]
    fn the_cache_is_kept_in_path_order_whatever_the_order_of_resources() {
        // Resources listed out of path order: the cache is still read in step with them.
        let dir = package_with(&[("c.bin", b"3"), ("a.bin", b"1"), ("b.bin", b"2")]);
        age(dir.path(), &["a.bin", "b.bin", "c.bin"]);
        let (first, stats) = hash_files(dir.path(), &all_files(dir.path()), 2, true, &()).unwrap();
        assert_eq!(stats.cached_files, 0);
        assert_eq!(
            first[0].path, "c.bin",
            "digests come in the order of the files"
        );
        let text = fs::read_to_string(dir.path().join(STATE_DIR).join(HASH_CACHE_FILE)).unwrap();
        let paths: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|l| l.rsplit(' ').next().unwrap())
            .collect();
        assert_eq!(paths, ["a.bin", "b.bin", "c.bin"], "{text}");
        let (second, stats) = hash_files(dir.path(), &all_files(dir.path()), 2, true, &()).unwrap();
        assert_eq!((stats.cached_files, stats.hashed_bytes), (3, 0));
        assert_eq!(first, second);
    }

    #[test]
    fn a_cache_line_out_of_order_or_unreadable_ends_the_cache() {
        let dir = package_with(&[("a.bin", b"1"), ("b.bin", b"2"), ("c.bin", b"3")]);
        age(dir.path(), &["a.bin", "b.bin", "c.bin"]);
        let (good, _) = hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        let cache = dir.path().join(STATE_DIR).join(HASH_CACHE_FILE);
        let text = fs::read_to_string(&cache).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // a, c, b: b comes after c, out of order, and ends the cache.
        let wrong_b = lines[2].replacen(&good[1].sha256, &sha256_hex(b"wrong"), 1);
        fs::write(
            &cache,
            format!("{}\n{}\n{}\n{wrong_b}\n", lines[0], lines[1], lines[3]),
        )
        .unwrap();
        let (digests, stats) =
            hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        assert_eq!(
            digests, good,
            "b was hashed again, not taken from the bad line"
        );
        assert_eq!(stats.cached_files, 2, "a and c came from the cache");
        // A line cut short (no end of line) and a line of garbage are not used either.
        fs::write(&cache, format!("{}\nnot a line\n{}", lines[0], lines[1])).unwrap();
        let (digests, stats) =
            hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        assert_eq!(digests, good);
        assert_eq!(stats.cached_files, 0);
    }

    #[test]
    fn recently_modified_files_are_not_cached() {
        let dir = package_with(&[("a.bin", b"fresh")]);
        hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        let (_, stats) = hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        assert_eq!(stats.cached_files, 0);
    }

    #[test]
    fn a_corrupt_cache_is_ignored() {
        let dir = package_with(&[("a.bin", b"x")]);
        ensure_state_dir(&dir.path().join(STATE_DIR)).unwrap();
        fs::write(
            dir.path().join(STATE_DIR).join(HASH_CACHE_FILE),
            b"{not json",
        )
        .unwrap();
        let (d, _) = hash_files(dir.path(), &all_files(dir.path()), 1, true, &()).unwrap();
        assert_eq!(d[0].sha256, sha256_hex(b"x"));
    }

    #[test]
    fn a_file_that_changes_size_is_an_error() {
        let dir = package_with(&[("a.bin", b"short")]);
        let files = all_files(dir.path());
        fs::write(dir.path().join("a.bin"), b"much longer now").unwrap();
        let err = hash_files(dir.path(), &files, 1, false, &()).unwrap_err();
        assert!(matches!(err, DigestError::Changed { .. }), "{err}");
    }

    #[test]
    fn folders_hashed_a_chunk_at_a_time_share_the_cache_with_listed_files() {
        let dir = package_with(&[("a.bin", b"1"), ("z.bin", b"26")]);
        fs::create_dir_all(dir.path().join("m/sub")).unwrap();
        for (name, bytes) in [("m/x", "x"), ("m/sub/y", "y"), ("m/w", "w")] {
            fs::write(dir.path().join(name), bytes).unwrap();
        }
        age(dir.path(), &["a.bin", "z.bin", "m/x", "m/sub/y", "m/w"]);
        let folder = Folder {
            root: dir.path().to_owned(),
            descriptor: dir.path().join("datasets.yaml"),
            location: None,
            path: "m".into(),
            files: 3,
            bytes: 3,
        };
        let listed = all_files(dir.path());
        let run = || {
            let mut session = HashSession::new(dir.path(), 2, true, &());
            let digests = session.hash_listed(&listed).unwrap();
            let mut hasher = session.folder(&folder).unwrap();
            let mut chunks = Vec::new();
            loop {
                let chunk = hasher.next_chunk(2, &()).unwrap();
                if chunk.is_empty() {
                    break;
                }
                chunks.push(chunk);
            }
            session.absorb(hasher);
            (digests, chunks, session.finish())
        };
        let (digests, chunks, stats) = run();
        assert_eq!(digests.len(), 2);
        let paths: Vec<Vec<&str>> = chunks
            .iter()
            .map(|c| c.iter().map(|d| d.path.as_str()).collect())
            .collect();
        assert_eq!(paths, [vec!["m/sub/y", "m/w"], vec!["m/x"]]);
        assert_eq!(chunks[1][0].sha256, sha256_hex(b"x"));
        assert_eq!(
            (stats.files, stats.cached_files, stats.hashed_bytes),
            (5, 0, 6)
        );
        // One cache, in path order, for both.
        let text = fs::read_to_string(dir.path().join(STATE_DIR).join(HASH_CACHE_FILE)).unwrap();
        let cached: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|l| l.rsplit(' ').next().unwrap())
            .collect();
        assert_eq!(
            cached,
            ["a.bin", "m/sub/y", "m/w", "m/x", "z.bin"],
            "{text}"
        );
        let leftovers = fs::read_dir(dir.path().join(STATE_DIR))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".part")
            })
            .count();
        assert_eq!(leftovers, 0, "the parts are merged and removed");
        // Again: everything from the cache; the same digests.
        let (again, again_chunks, stats) = run();
        assert_eq!((again, again_chunks), (digests, chunks.clone()));
        assert_eq!((stats.cached_files, stats.hashed_bytes), (5, 0));
        // Read only, as a push walks the folder again.
        let mut hasher = FolderHasher::read_only(&folder, 1).unwrap();
        assert_eq!(hasher.next_chunk(10, &()).unwrap(), chunks.concat());
        assert_eq!(hasher.stats().cached_files, 3);
    }
}
