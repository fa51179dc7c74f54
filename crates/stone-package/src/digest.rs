//! sha256 of every file of a package, in parallel, with a cache keyed on (path, size,
//! modification time, inode) under the package's `.stone/`, so an unchanged file is never
//! read twice.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Read, Write};
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
pub const HASH_CACHE_FILE: &str = "hash-cache.json";
const CACHE_VERSION: u32 = 1;
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

#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    version: u32,
    entries: HashMap<String, CacheEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct CacheEntry {
    size: u64,
    mtime_ns: i128,
    inode: u64,
    sha256: String,
}

/// Hashes `files` of the package at `root` on `jobs` threads, using and updating the hash
/// cache when `use_cache`. Digests come back in the order of `files`.
pub fn hash_files(
    root: &Path,
    files: &[PackageFile],
    jobs: usize,
    use_cache: bool,
    progress: &dyn HashProgress,
) -> Result<(Vec<FileDigest>, HashStats), DigestError> {
    let cache_path = root.join(STATE_DIR).join(HASH_CACHE_FILE);
    let cache = if use_cache {
        read_cache(&cache_path)
    } else {
        CacheFile::default()
    };
    let mut results: Vec<Option<FileDigest>> = vec![None; files.len()];
    let mut todo = Vec::new();
    let mut stats = HashStats {
        files: files.len(),
        ..HashStats::default()
    };
    for (i, f) in files.iter().enumerate() {
        stats.bytes += f.size;
        match cache.entries.get(&f.path) {
            Some(e) if e.size == f.size && e.mtime_ns == f.modified_ns && e.inode == f.inode => {
                results[i] = Some(FileDigest {
                    path: f.path.clone(),
                    size: f.size,
                    sha256: e.sha256.clone(),
                });
                stats.cached_files += 1;
                progress.advance(f.size);
            }
            _ => todo.push(i),
        }
    }
    // Largest first, so the threads finish together.
    todo.sort_by_key(|&i| std::cmp::Reverse(files[i].size));
    let hashed = hash_parallel(files, &todo, jobs.max(1), progress)?;
    for (i, digest) in hashed {
        stats.hashed_bytes += digest.size;
        results[i] = Some(digest);
    }
    let digests: Vec<FileDigest> = results
        .into_iter()
        .map(|d| d.expect("every file is hashed or cached"))
        .collect();

    if use_cache && !todo.is_empty() {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        let entries = files
            .iter()
            .zip(&digests)
            .filter(|(f, _)| now - f.modified_ns > RACY_NS)
            .map(|(f, d)| {
                (
                    f.path.clone(),
                    CacheEntry {
                        size: f.size,
                        mtime_ns: f.modified_ns,
                        inode: f.inode,
                        sha256: d.sha256.clone(),
                    },
                )
            })
            .collect();
        // The cache only saves time: failing to write it must not fail the push.
        let _ = write_cache(
            &cache_path,
            &CacheFile {
                version: CACHE_VERSION,
                entries,
            },
        );
    }
    Ok((digests, stats))
}

fn hash_parallel(
    files: &[PackageFile],
    todo: &[usize],
    jobs: usize,
    progress: &dyn HashProgress,
) -> Result<Vec<(usize, FileDigest)>, DigestError> {
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
                    match hash_file(&files[i], &mut buffer, progress) {
                        Ok(digest) => out
                            .lock()
                            .expect("no thread panics holding it")
                            .push((i, digest)),
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
    file: &PackageFile,
    buffer: &mut [u8],
    progress: &dyn HashProgress,
) -> Result<FileDigest, DigestError> {
    let read_error = |source| DigestError::Read {
        path: file.absolute.clone(),
        source,
    };
    let mut handle = File::open(&file.absolute).map_err(read_error)?;
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
        return Err(DigestError::Changed {
            path: file.absolute.clone(),
        });
    }
    Ok(FileDigest {
        path: file.path.clone(),
        size: total,
        sha256: hex::encode(hasher.finalize()),
    })
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

fn read_cache(path: &Path) -> CacheFile {
    fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<CacheFile>(&bytes).ok())
        .filter(|c| c.version == CACHE_VERSION)
        .unwrap_or_default()
}

fn write_cache(path: &Path, cache: &CacheFile) -> io::Result<()> {
    let dir = path.parent().expect("the cache file is in a directory");
    ensure_state_dir(dir)?;
    let tmp = dir.join(format!(".{HASH_CACHE_FILE}.{}.tmp", std::process::id()));
    let mut file = File::create(&tmp)?;
    file.write_all(&serde_json::to_vec(cache).map_err(io::Error::other)?)?;
    drop(file);
    fs::rename(&tmp, path)
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
