//! `stone data import`: the only way data enters a package's `ext/` zone.
//!
//! An import reads one source ([`source::Source`]) and writes one file under
//! `ext/<slug>/`: streamed into a temporary file in that folder (sha256 and size counted
//! on the way), checked against what the source states, then renamed into place. A failed
//! or interrupted import removes its temporary file (and the folder it created); one
//! killed outright leaves a `.stone-import-*.part` file that the next import removes.
//! Provenance goes to the lock file `ext/stone-lock.json` ([`LockFile`]), written through a
//! temporary file and a rename too. A second import of an unchanged source downloads
//! nothing: the recorded `ETag` makes the request conditional.
//!
//! A BLOB dataset of several files is imported as a folder: the files that changed are
//! downloaded (the others hard-linked from the previous import) into a temporary folder in
//! `ext/`, which then replaces `ext/<slug>/`.

pub mod fetch;
pub mod lock;
pub mod source;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use futures::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use stone_package::{DESCRIPTOR_FILE, Label};
use tokio::io::AsyncWriteExt;

pub use fetch::{Fetch, Previous, RemoteFiles, Wanted};
pub use lock::{LOCK_FILE, LockEntry, LockFile, LockedFile};
pub use source::{Source, parse_source};

use crate::diagnostics::{CliError, ExitStatus};

/// The zone imports write (the package model refuses it in pushes).
pub const EXT_DIR: &str = stone_package::package::EXT_ZONE;
/// Prefix of the temporary files of imports in progress.
const PART_PREFIX: &str = ".stone-import-";

/// One import to run.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// SOURCE as given.
    pub source_text: String,
    pub source: Source,
    /// `ext/<slug>/`.
    pub slug: Label,
    pub wanted: Wanted,
    /// The package directory.
    pub package: PathBuf,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportStatus {
    /// First import of this slug.
    Imported,
    /// The source changed: the file was replaced.
    Updated,
    /// The source had not changed (nothing downloaded, or the same bytes again).
    Unchanged,
}

/// The result, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct ImportOutcome {
    pub slug: String,
    pub status: ImportStatus,
    /// Bytes downloaded by this run (0 when the source answered "not modified").
    pub downloaded_bytes: u64,
    /// The lock file, relative to the package.
    pub lock_file: String,
    /// The entry of the lock file.
    pub entry: LockEntry,
}

/// The slug of `--as NAME`, or of the source's name, by the package model's rules.
pub fn slug_for(name: &str) -> anyhow::Result<Label> {
    stone_package::sanitize_slug(name).ok_or_else(|| {
        CliError::new(
            "import.invalid_name",
            ExitStatus::Usage,
            format!("`{name}` leaves no name once reduced to a-z, 0-9 and `-`"),
        )
        .hint("name the import with --as NAME")
        .into()
    })
}

/// Removes the file when dropped, unless kept: a failed, cancelled (future dropped on
/// Ctrl-C) or panicking import leaves nothing. The folder goes too when this import
/// created it and it is empty.
struct PartFile {
    path: PathBuf,
    /// Folders this import created, innermost first.
    created_dirs: Vec<PathBuf>,
    keep: bool,
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        let _ = std::fs::remove_file(&self.path);
        for dir in &self.created_dirs {
            let _ = std::fs::remove_dir(dir); // only if empty
        }
    }
}

/// Removes the temporary files imports killed outright left in `ext/*/`.
fn remove_leftovers(ext: &Path) {
    let Ok(entries) = std::fs::read_dir(ext) else {
        return;
    };
    for dir in entries.flatten() {
        if !dir.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if is_part_name(&dir.file_name()) {
            let _ = std::fs::remove_dir_all(dir.path());
            continue;
        }
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for file in files.flatten() {
            if is_part_name(&file.file_name()) {
                let _ = std::fs::remove_file(file.path());
            }
        }
    }
}

/// A temporary file or folder of an import (`.stone-import-*.part`, `.old`).
fn is_part_name(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| {
        n.starts_with(PART_PREFIX) && (n.ends_with(".part") || n.ends_with(".old"))
    })
}

/// A temporary name in `dir` for this process.
fn part_name(dir: &Path, suffix: &str) -> PathBuf {
    dir.join(format!(
        "{PART_PREFIX}{}-{}.{suffix}",
        std::process::id(),
        fastrand::u32(..)
    ))
}

fn sha256_file(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hash = Sha256::new();
    std::io::copy(&mut file, &mut hash).ok()?;
    Some(hex::encode(hash.finalize()))
}

/// A file name safe in `ext/<slug>/`: no separators, no leading dot, not a part file.
fn safe_file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':') {
                '_'
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches('.').trim();
    if cleaned.is_empty() {
        "data".to_owned()
    } else {
        cleaned.chars().take(200).collect()
    }
}

/// Writes a download to a new file at `path` (fsynced); its sha256 and size.
async fn stream_to_file(
    mut body: futures::stream::BoxStream<'static, anyhow::Result<bytes::Bytes>>,
    path: &Path,
    what: &str,
) -> anyhow::Result<(String, u64)> {
    let mut file = tokio::fs::File::create(path)
        .await
        .with_context(|| format!("cannot create {}", path.display()))?;
    let mut hash = Sha256::new();
    let mut size = 0u64;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.with_context(|| format!("cannot download {what}"))?;
        hash.update(&chunk);
        size += chunk.len() as u64;
        file.write_all(&chunk)
            .await
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    file.sync_all()
        .await
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok((hex::encode(hash.finalize()), size))
}

/// Runs one import.
pub async fn import(request: &ImportRequest) -> anyhow::Result<ImportOutcome> {
    let package = &request.package;
    if !package.join(DESCRIPTOR_FILE).is_file() {
        return Err(CliError::new(
            "import.no_package",
            ExitStatus::Usage,
            format!("{} has no {DESCRIPTOR_FILE}", package.display()),
        )
        .hint("run stone data import in a package directory, or pass its path")
        .into());
    }
    let ext = package.join(EXT_DIR);
    let lock_path = ext.join(LOCK_FILE);
    let mut lock = LockFile::load(&lock_path)?;
    remove_leftovers(&ext);

    let slug = request.slug.as_str();
    let dir = ext.join(slug);
    let recorded = lock.imports.get(slug).cloned();
    // A recorded import counts only while its file is intact.
    let intact = recorded
        .as_ref()
        .filter(|entry| entry.source == request.source_text && is_intact(package, entry));
    let previous = intact.map(|entry| Previous {
        resolved: entry.resolved.clone(),
        etag: entry.etag.clone(),
    });
    let lock_file = format!("{EXT_DIR}/{LOCK_FILE}");
    let fetched = fetch::fetch(&request.source, &request.wanted, previous.as_ref()).await?;
    let remote = match fetched {
        Fetch::Unchanged => {
            let entry = intact
                .cloned()
                .expect("unchanged only with a previous import");
            return Ok(ImportOutcome {
                slug: slug.to_owned(),
                status: ImportStatus::Unchanged,
                downloaded_bytes: 0,
                lock_file,
                entry,
            });
        }
        Fetch::Changed(remote) => *remote,
        Fetch::Files(remote) => {
            let outcome = import_files(request, &ext, recorded.as_ref(), intact, *remote).await?;
            if outcome.status != ImportStatus::Unchanged {
                lock.imports.insert(slug.to_owned(), outcome.entry.clone());
                lock.save(&lock_path)?;
            }
            return Ok(outcome);
        }
    };

    let created_dirs: Vec<PathBuf> = [&dir, &ext]
        .into_iter()
        .filter(|d| !d.is_dir())
        .cloned()
        .collect();
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let part_path = part_name(&dir, "part");
    let mut part = PartFile {
        path: part_path.clone(),
        created_dirs,
        keep: false,
    };
    let (sha256, size) = stream_to_file(remote.body, &part_path, &remote.resolved).await?;
    if let Some(expected) = remote.size.filter(|expected| *expected != size) {
        return Err(CliError::new(
            "import.size_mismatch",
            ExitStatus::Unavailable,
            format!(
                "{} stated {expected} bytes but sent {size}",
                remote.resolved
            ),
        )
        .hint("run the same command again")
        .into());
    }
    if let Some(expected) = remote.sha256.as_ref().filter(|e| **e != sha256) {
        return Err(CliError::new(
            "import.digest_mismatch",
            ExitStatus::Failure,
            format!(
                "{} stated sha256 {expected} but the bytes received have sha256 {sha256}",
                remote.resolved
            ),
        )
        .hint("nothing was written; run the same command again, and report it if it persists")
        .into());
    }

    let file_name = safe_file_name(&remote.file_name);
    let final_path = dir.join(&file_name);
    std::fs::rename(&part_path, &final_path)
        .with_context(|| format!("cannot move the download to {}", final_path.display()))?;
    part.keep = true;
    let relative = format!("{EXT_DIR}/{slug}/{file_name}");
    if let Some(old) = &recorded
        && old.path != relative
    {
        if old.files.is_empty() {
            let _ = std::fs::remove_file(package.join(&old.path));
        } else {
            remove_files_of(package, old, &dir);
        }
    }
    let status = match &recorded {
        None => ImportStatus::Imported,
        Some(old) if old.sha256 == sha256 && old.path == relative => ImportStatus::Unchanged,
        Some(_) => ImportStatus::Updated,
    };
    let entry = LockEntry {
        source: request.source_text.clone(),
        resolved: remote.resolved,
        kind: remote.kind,
        format: remote.format,
        branch: remote.branch,
        version: remote.version,
        snapshot_id: remote.snapshot_id,
        etag: remote.etag,
        path: relative,
        sha256,
        size,
        files: Vec::new(),
        imported_at: lock::now_rfc3339(),
    };
    lock.imports.insert(slug.to_owned(), entry.clone());
    lock.save(&lock_path)?;
    Ok(ImportOutcome {
        slug: slug.to_owned(),
        status,
        downloaded_bytes: size,
        lock_file,
        entry,
    })
}

/// Whether the files a lock entry records are on disk with their sha256.
fn is_intact(package: &Path, entry: &LockEntry) -> bool {
    if entry.files.is_empty() {
        sha256_file(&package.join(&entry.path)).as_deref() == Some(entry.sha256.as_str())
    } else {
        entry.files.iter().all(|file| {
            sha256_file(&package.join(&file.path)).as_deref() == Some(file.sha256.as_str())
        })
    }
}

/// Removes the files of an import of several files (and the folders they leave empty),
/// keeping `keep` itself.
fn remove_files_of(package: &Path, entry: &LockEntry, keep: &Path) {
    for file in &entry.files {
        let path = package.join(&file.path);
        let _ = std::fs::remove_file(&path);
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != keep && d.starts_with(keep)) {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
}

/// A file's path inside a dataset as a relative path under `ext/<slug>/`: `/`-separated
/// segments, none empty, `.` or `..`, each made safe like a file name. `None` for a path
/// that would leave the folder.
fn safe_relative_path(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == ".." || s.contains('\\'))
    {
        return None;
    }
    Some(
        segments
            .iter()
            .map(|s| safe_file_name(s))
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The sha256 of a dataset's listing: `<sha256>  <path>\n` per file, sorted by path.
fn listing_sha256(files: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hash = Sha256::new();
    for (path, sha256) in sorted {
        hash.update(format!("{sha256}  {path}\n").as_bytes());
    }
    hex::encode(hash.finalize())
}

/// Removes a temporary folder when dropped, unless kept.
struct PartDir {
    path: PathBuf,
    created_ext: bool,
    keep: bool,
}

impl Drop for PartDir {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.path);
        if self.created_ext
            && let Some(ext) = self.path.parent()
        {
            let _ = std::fs::remove_dir(ext); // only if empty
        }
    }
}

fn bad_file(message: String) -> anyhow::Error {
    CliError::new("import.invalid_file", ExitStatus::Failure, message)
        .hint("the server's file list is not usable; report it to the platform")
        .into()
}

/// Downloads one file to `dest`, checking the size and sha256 the server stated.
async fn download_file(
    remote: &RemoteFiles,
    file: &stone_api::FileInfo,
    dest: &Path,
) -> anyhow::Result<u64> {
    let body = remote.get(&file.path).await?;
    let (sha256, size) = stream_to_file(body, dest, &file.path).await?;
    if size != file.size {
        return Err(CliError::new(
            "import.size_mismatch",
            ExitStatus::Unavailable,
            format!(
                "{} stated {} bytes for {} but sent {size}",
                remote.resolved, file.size, file.path
            ),
        )
        .hint("nothing was written; run the same command again")
        .into());
    }
    if sha256 != file.sha256 {
        return Err(CliError::new(
            "import.digest_mismatch",
            ExitStatus::Failure,
            format!(
                "{} stated sha256 {} for {} but the bytes received have sha256 {sha256}",
                remote.resolved, file.sha256, file.path
            ),
        )
        .hint("nothing was written; run the same command again, and report it if it persists")
        .into());
    }
    Ok(size)
}

/// Imports a dataset of several files into `ext/<slug>/`: unchanged files are hard-linked
/// (or copied) from the previous import, the others downloaded, all into a temporary
/// folder that then replaces `ext/<slug>/`. Nothing changes on disk when every file is
/// as recorded.
async fn import_files(
    request: &ImportRequest,
    ext: &Path,
    recorded: Option<&LockEntry>,
    intact: Option<&LockEntry>,
    remote: RemoteFiles,
) -> anyhow::Result<ImportOutcome> {
    let package = &request.package;
    let slug = request.slug.as_str();
    let dir = ext.join(slug);
    let lock_file = format!("{EXT_DIR}/{LOCK_FILE}");

    // Where each file goes, relative to the package; two files may not land on one path.
    let mut targets: Vec<(&stone_api::FileInfo, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for file in &remote.files {
        let Some(relative) = safe_relative_path(&file.path) else {
            return Err(bad_file(format!(
                "{} lists the file `{}`, whose path would leave ext/{slug}/",
                remote.resolved,
                file.path.escape_debug()
            )));
        };
        let relative = format!("{EXT_DIR}/{slug}/{relative}");
        if !seen.insert(relative.to_ascii_lowercase()) {
            return Err(bad_file(format!(
                "{} lists two files that both land on {relative}",
                remote.resolved
            )));
        }
        targets.push((file, relative));
    }
    let listing: Vec<(String, String)> = targets
        .iter()
        .map(|(file, _)| (file.path.clone(), file.sha256.clone()))
        .collect();
    let sha256 = listing_sha256(&listing);
    let size = remote.files.iter().map(|f| f.size).sum();
    let files: Vec<LockedFile> = targets
        .iter()
        .map(|(file, relative)| LockedFile {
            path: relative.clone(),
            sha256: file.sha256.clone(),
            size: file.size,
        })
        .collect();
    let mut entry = LockEntry {
        source: request.source_text.clone(),
        resolved: remote.resolved.clone(),
        kind: Some(remote.kind),
        format: Some("bytes".to_owned()),
        branch: Some(remote.branch.clone()),
        version: remote.version.clone(),
        snapshot_id: None,
        etag: None,
        path: format!("{EXT_DIR}/{slug}"),
        sha256,
        size,
        files,
        imported_at: lock::now_rfc3339(),
    };
    if let Some(old) = intact
        && old.files == entry.files
        && old.resolved == entry.resolved
    {
        return Ok(ImportOutcome {
            slug: slug.to_owned(),
            status: ImportStatus::Unchanged,
            downloaded_bytes: 0,
            lock_file,
            entry: old.clone(),
        });
    }
    // What the previous import of this source recorded, by path (each file is checked
    // before it is reused).
    let on_disk: std::collections::HashMap<&str, &str> = recorded
        .filter(|old| old.source == request.source_text)
        .map(|old| {
            old.files
                .iter()
                .map(|f| (f.path.as_str(), f.sha256.as_str()))
                .collect()
        })
        .unwrap_or_default();

    let created_ext = !ext.is_dir();
    std::fs::create_dir_all(ext).with_context(|| format!("cannot create {}", ext.display()))?;
    let part_dir = part_name(ext, "part");
    let mut part = PartDir {
        path: part_dir.clone(),
        created_ext,
        keep: false,
    };
    std::fs::create_dir(&part_dir)
        .with_context(|| format!("cannot create {}", part_dir.display()))?;
    let mut downloaded = 0u64;
    let prefix = format!("{EXT_DIR}/{slug}/");
    for (file, relative) in &targets {
        let inner = relative.strip_prefix(&prefix).unwrap_or(relative);
        let dest = part_dir.join(inner);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                bad_file(format!(
                    "{} lists {} inside another file's path: {e}",
                    remote.resolved, file.path
                ))
            })?;
        }
        let existing = package.join(relative);
        if on_disk.get(relative.as_str()) == Some(&file.sha256.as_str())
            && sha256_file(&existing).as_deref() == Some(file.sha256.as_str())
            && (std::fs::hard_link(&existing, &dest).is_ok()
                || std::fs::copy(&existing, &dest).is_ok())
        {
            continue;
        }
        downloaded += download_file(&remote, file, &dest).await?;
    }

    // Swap the folders: the old one is moved aside, then removed.
    let old_dir = if dir.exists() {
        let aside = part_name(ext, "old");
        std::fs::rename(&dir, &aside)
            .with_context(|| format!("cannot move {} aside", dir.display()))?;
        Some(aside)
    } else {
        None
    };
    if let Err(e) = std::fs::rename(&part_dir, &dir) {
        if let Some(aside) = &old_dir {
            let _ = std::fs::rename(aside, &dir);
        }
        return Err(anyhow::Error::new(e).context(format!("cannot write {}", dir.display())));
    }
    part.keep = true;
    if let Some(aside) = old_dir {
        let _ = std::fs::remove_dir_all(aside);
    }
    let status = if recorded.is_some() {
        ImportStatus::Updated
    } else {
        ImportStatus::Imported
    };
    entry.imported_at = lock::now_rfc3339();
    Ok(ImportOutcome {
        slug: slug.to_owned(),
        status,
        downloaded_bytes: downloaded,
        lock_file,
        entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dataset_paths_stay_in_their_folder() {
        assert_eq!(safe_relative_path("a/b.tif").as_deref(), Some("a/b.tif"));
        assert_eq!(safe_relative_path("a/.b").as_deref(), Some("a/b"));
        for bad in ["../x", "a/../../x", "/abs", "a//b", "a/./b", "a\\..\\b", ""] {
            assert_eq!(safe_relative_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_listing_digest_is_what_sha256sum_prints() {
        let files = vec![
            ("b.txt".to_owned(), "22".repeat(32)),
            ("a/x.bin".to_owned(), "11".repeat(32)),
        ];
        let text = format!("{}  a/x.bin\n{}  b.txt\n", "11".repeat(32), "22".repeat(32));
        assert_eq!(
            listing_sha256(&files),
            hex::encode(Sha256::digest(text.as_bytes()))
        );
    }

    #[test]
    fn file_names_stay_in_their_folder() {
        assert_eq!(safe_file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(safe_file_name(".hidden"), "hidden");
        assert_eq!(safe_file_name(""), "data");
        assert_eq!(safe_file_name("cities.parquet"), "cities.parquet");
    }
}
