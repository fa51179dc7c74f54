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

use crate::package::{PackageFile, STATE_DIR, file_identity};

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
        let Some(line) = self.next_line() else {
            return;
        };
        let line = line.to_owned();
        if CacheEntry::parse(&line, &mut entry).is_some() && entry.path > previous {
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
    let file = |i: usize| -> &PackageFile { files[i].borrow() };
    let cache_path = root.join(STATE_DIR).join(HASH_CACHE_FILE);
    let mut stats = HashStats {
        files: files.len(),
        ..HashStats::default()
    };
    // In path order: the cache is read (and written) in that order.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| file(a).path.cmp(&file(b).path));
    let mut shas: Vec<Option<Sha>> = vec![None; files.len()];
    let mut todo = Vec::new();
    let mut cache = if use_cache {
        CacheReader::open(&cache_path)
    } else {
        CacheReader::empty()
    };
    for &i in &order {
        let f = file(i);
        stats.bytes += f.size;
        match cache.find(&f.path) {
            Some(e) if e.matches(f) => {
                shas[i] = Some(e.sha256);
                stats.cached_files += 1;
                progress.advance(f.size);
            }
            _ => todo.push(i),
        }
    }
    drop(cache);
    // Largest first, so the threads finish together.
    todo.sort_by_key(|&i| std::cmp::Reverse(file(i).size));
    let hashed = hash_parallel(root, files, &todo, jobs.max(1), progress)?;
    for (i, sha) in hashed {
        stats.hashed_bytes += file(i).size;
        shas[i] = Some(sha);
    }

    if use_cache && !todo.is_empty() {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        let entries = order.iter().filter_map(|&i| {
            let f = file(i);
            let sha = shas[i].as_ref()?;
            (now - f.modified_ns > RACY_NS).then_some((f, sha))
        });
        // The cache only saves time: failing to write it must not fail the push.
        let _ = write_cache(&cache_path, entries);
    }
    let digests = shas
        .into_iter()
        .enumerate()
        .map(|(i, sha)| FileDigest {
            path: file(i).path.clone(),
            size: file(i).size,
            sha256: hex::encode(sha.expect("every file is hashed or cached")),
        })
        .collect();
    Ok((digests, stats))
}

fn hash_parallel<F: Borrow<PackageFile> + Sync>(
    root: &Path,
    files: &[F],
    todo: &[usize],
    jobs: usize,
    progress: &dyn HashProgress,
) -> Result<Vec<(usize, Sha)>, DigestError> {
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

/// Writes the cache (entries in path order) to a temporary file, a line at a time, and
/// moves it in place.
fn write_cache<'a>(
    path: &Path,
    entries: impl Iterator<Item = (&'a PackageFile, &'a Sha)>,
) -> io::Result<()> {
    let dir = path.parent().expect("the cache file is in a directory");
    ensure_state_dir(dir)?;
    let tmp = dir.join(format!(".{HASH_CACHE_FILE}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&tmp)?);
        writeln!(out, "{CACHE_HEADER}")?;
        let mut previous: Option<&str> = None;
        let mut hex = [0u8; 64];
        for (f, sha) in entries {
            // A file of two resources is listed once.
            if previous == Some(f.path.as_str()) {
                continue;
            }
            previous = Some(f.path.as_str());
            hex::encode_to_slice(sha, &mut hex).map_err(io::Error::other)?;
            out.write_all(&hex)?;
            writeln!(out, " {} {} {} {}", f.size, f.modified_ns, f.inode, f.path)?;
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
}
