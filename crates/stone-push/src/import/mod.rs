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

pub mod confined;
pub mod error;
pub mod fetch;
pub mod lock;
pub mod source;

use std::path::Path;

use anyhow::Context as _;
use futures::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use stone_package::{DESCRIPTOR_FILE, Label, RelativePath, check_file_name, check_relative_path};
use tokio::io::AsyncWriteExt;

pub use confined::Confined;
pub use error::{ImportError, ImportErrorKind};
pub use fetch::{Fetch, Previous, RemoteFiles, Wanted};
pub use lock::{LOCK_FILE, LockEntry, LockFile, LockedFile};
pub use source::{Selection, Source, parse_source};

use error::ImportErrorKind as Kind;

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
    pub package: std::path::PathBuf,
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
        ImportError::new(
            Kind::InvalidName,
            format!("`{name}` leaves no name once reduced to a-z, 0-9 and `-`"),
        )
        .hint("name the import with --as NAME")
        .into()
    })
}

/// Removes `ext/` when dropped if this import created it and it is empty: a failed,
/// cancelled or panicking first import leaves nothing.
struct ExtGuard {
    path: std::path::PathBuf,
    created: bool,
}

impl Drop for ExtGuard {
    fn drop(&mut self) {
        if self.created {
            let _ = std::fs::remove_dir(&self.path); // only if empty
        }
    }
}

/// Removes the file when dropped, unless kept: a failed, cancelled (future dropped on
/// Ctrl-C) or panicking import leaves nothing. The folder goes too when this import
/// created it and it is empty.
struct PartFile<'a> {
    ext: &'a Confined,
    path: RelativePath,
    /// The folder this import created, if it did.
    created_dir: Option<RelativePath>,
    keep: bool,
}

impl Drop for PartFile<'_> {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        let _ = self.ext.remove_file(&self.path);
        if let Some(dir) = &self.created_dir {
            let _ = self.ext.remove_dir(dir); // only if empty
        }
    }
}

/// Removes the temporary files imports killed outright left in `ext/` and `ext/*/`.
fn remove_leftovers(ext: &Confined) {
    let Ok(entries) = ext.list_root() else {
        return;
    };
    for (name, is_dir) in entries {
        let Ok(rel) = check_file_name(&name) else {
            continue;
        };
        if is_part_name(&name) {
            let _ = if is_dir {
                ext.remove_dir_all(&rel)
            } else {
                ext.remove_file(&rel)
            };
            continue;
        }
        if !is_dir {
            continue;
        }
        let Ok(files) = ext.list(&rel) else {
            continue;
        };
        for (file, is_dir) in files {
            if !is_dir
                && is_part_name(&file)
                && let Ok(path) = confined::join(&rel, &file)
            {
                let _ = ext.remove_file(&path);
            }
        }
    }
}

/// A temporary file or folder of an import (`.stone-import-*.part`, `.old`, `.tmp`).
fn is_part_name(name: &str) -> bool {
    name.starts_with(PART_PREFIX)
        && (name.ends_with(".part") || name.ends_with(".old") || name.ends_with(".tmp"))
}

/// A temporary name for this process.
fn part_name(suffix: &str) -> RelativePath {
    check_file_name(&format!(
        "{PART_PREFIX}{}-{}.{suffix}",
        std::process::id(),
        fastrand::u32(..)
    ))
    .expect("a temporary name is a plain name")
}

/// A lock file path (`ext/<slug>/…`) relative to `ext/`; `None` for one outside it (the
/// lock file's own checks refuse those).
fn in_ext(path: &str) -> Option<RelativePath> {
    path.strip_prefix(EXT_DIR)?
        .strip_prefix('/')
        .and_then(|rest| check_relative_path(rest).ok())
}

/// The sha256 of a file beneath `ext/`, read without following a link.
fn sha256_file(ext: &Confined, rel: &RelativePath) -> Option<String> {
    let mut file = ext.open_file(rel).ok()?;
    let mut hash = Sha256::new();
    std::io::copy(&mut file, &mut hash).ok()?;
    Some(hex::encode(hash.finalize()))
}

/// Writes a download to `file` (new, fsynced); its sha256 and size.
async fn stream_to_file(
    mut body: futures::stream::BoxStream<'static, anyhow::Result<bytes::Bytes>>,
    file: std::fs::File,
    shown: &Path,
    what: &str,
) -> anyhow::Result<(String, u64)> {
    let mut file = tokio::fs::File::from_std(file);
    let mut hash = Sha256::new();
    let mut size = 0u64;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.with_context(|| format!("cannot download {what}"))?;
        hash.update(&chunk);
        size += chunk.len() as u64;
        file.write_all(&chunk)
            .await
            .with_context(|| format!("cannot write {}", shown.display()))?;
    }
    file.sync_all()
        .await
        .with_context(|| format!("cannot write {}", shown.display()))?;
    Ok((hex::encode(hash.finalize()), size))
}

/// Runs one import.
pub async fn import(request: &ImportRequest) -> anyhow::Result<ImportOutcome> {
    let package = &request.package;
    if !package.join(DESCRIPTOR_FILE).is_file() {
        return Err(ImportError::new(
            Kind::NoPackage,
            format!("{} has no {DESCRIPTOR_FILE}", package.display()),
        )
        .hint("run stone data import in a package directory, or pass its path")
        .into());
    }
    let ext_path = package.join(EXT_DIR);
    let _ext_guard = ExtGuard {
        created: std::fs::symlink_metadata(&ext_path).is_err(),
        path: ext_path.clone(),
    };
    // Every write below goes through `ext`: beneath the package's `ext/`, no link followed.
    let ext = Confined::open(package, &check_file_name(EXT_DIR)?)
        .with_context(|| format!("cannot open {}", ext_path.display()))?;
    let mut lock = lock::load(&ext)?;
    remove_leftovers(&ext);

    let slug = request.slug.as_str();
    let slug_dir = check_file_name(slug)?;
    let recorded = lock.imports.get(slug).cloned();
    // A recorded import counts only while its file is intact.
    let intact = recorded
        .as_ref()
        .filter(|entry| entry.source == request.source_text && is_intact(&ext, entry));
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
            let outcome =
                import_files(request, &ext, &slug_dir, recorded.as_ref(), intact, *remote).await?;
            if outcome.status != ImportStatus::Unchanged {
                lock.imports.insert(slug.to_owned(), outcome.entry.clone());
                lock::save(&lock, &ext)?;
            }
            return Ok(outcome);
        }
    };

    // The name the source gives its file, as it is: a name the path rule refuses is an
    // error, never cleaned into something else.
    let file_name = check_file_name(&remote.file_name)
        .ok()
        .filter(|name| !name.as_str().starts_with(PART_PREFIX))
        .ok_or_else(|| {
            bad_file(format!(
                "{} names its file \"{}\", which is not a plain file name",
                remote.resolved,
                remote.file_name.escape_debug()
            ))
        })?;
    let created_dir = (!ext.is_dir(&slug_dir)?).then(|| slug_dir.clone());
    ext.create_dir_all(&slug_dir)
        .with_context(|| format!("cannot create {}", ext.display(&slug_dir).display()))?;
    let part_path = confined::join(&slug_dir, part_name("part").as_str())?;
    let shown = ext.display(&part_path);
    let mut part = PartFile {
        ext: &ext,
        path: part_path.clone(),
        created_dir,
        keep: false,
    };
    let file = ext
        .create_new(&part_path)
        .with_context(|| format!("cannot create {}", shown.display()))?;
    let (sha256, size) = stream_to_file(remote.body, file, &shown, &remote.resolved).await?;
    if let Some(expected) = remote.size.filter(|expected| *expected != size) {
        return Err(ImportError::new(
            Kind::SizeMismatch,
            format!(
                "{} stated {expected} bytes but sent {size}",
                remote.resolved
            ),
        )
        .hint("run the same command again")
        .into());
    }
    if let Some(expected) = remote.sha256.as_ref().filter(|e| **e != sha256) {
        return Err(ImportError::new(
            Kind::DigestMismatch,
            format!(
                "{} stated sha256 {expected} but the bytes received have sha256 {sha256}",
                remote.resolved
            ),
        )
        .hint("nothing was written; run the same command again, and report it if it persists")
        .into());
    }

    let final_path = confined::join(&slug_dir, file_name.as_str())?;
    ext.rename(&part_path, &final_path).with_context(|| {
        format!(
            "cannot move the download to {}",
            ext.display(&final_path).display()
        )
    })?;
    part.keep = true;
    let relative = format!("{EXT_DIR}/{slug}/{file_name}");
    if let Some(old) = &recorded
        && old.path != relative
    {
        if old.files.is_empty() {
            if let Some(old_path) = in_ext(&old.path) {
                let _ = ext.remove_file(&old_path);
            }
        } else {
            remove_files_of(&ext, old, &slug_dir);
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
    lock::save(&lock, &ext)?;
    Ok(ImportOutcome {
        slug: slug.to_owned(),
        status,
        downloaded_bytes: size,
        lock_file,
        entry,
    })
}

/// Whether the files a lock entry records are in `ext/` with their sha256.
fn is_intact(ext: &Confined, entry: &LockEntry) -> bool {
    let matches = |path: &str, sha256: &str| {
        in_ext(path).is_some_and(|rel| sha256_file(ext, &rel).as_deref() == Some(sha256))
    };
    if entry.files.is_empty() {
        matches(&entry.path, &entry.sha256)
    } else {
        entry
            .files
            .iter()
            .all(|file| matches(&file.path, &file.sha256))
    }
}

/// Removes the files of an import of several files (and the folders they leave empty),
/// keeping `keep` itself.
fn remove_files_of(ext: &Confined, entry: &LockEntry, keep: &RelativePath) {
    for file in &entry.files {
        let Some(path) = in_ext(&file.path) else {
            continue;
        };
        let _ = ext.remove_file(&path);
        let mut dir = path.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            let inside = parent
                .strip_prefix(keep.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
            let Some(parent_rel) = check_relative_path(parent).ok().filter(|_| inside) else {
                break;
            };
            if ext.remove_dir(&parent_rel).is_err() {
                break;
            }
            dir = parent;
        }
    }
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

/// Removes a temporary folder of `ext/` when dropped, unless kept.
struct PartDir<'a> {
    ext: &'a Confined,
    path: RelativePath,
    keep: bool,
}

impl Drop for PartDir<'_> {
    fn drop(&mut self) {
        if !self.keep {
            let _ = self.ext.remove_dir_all(&self.path);
        }
    }
}

fn bad_file(message: String) -> anyhow::Error {
    ImportError::new(Kind::InvalidFile, message)
        .hint("the source's file list is not usable; report it to the platform")
        .into()
}

/// Downloads one file to `dest` beneath `ext/`, checking the size and sha256 the server
/// stated.
async fn download_file(
    remote: &RemoteFiles,
    file: &stone_api::FileInfo,
    ext: &Confined,
    dest: &RelativePath,
) -> anyhow::Result<u64> {
    let body = remote.get(&file.path).await?;
    let shown = ext.display(dest);
    let created = ext
        .create_new(dest)
        .with_context(|| format!("cannot create {}", shown.display()))?;
    let (sha256, size) = stream_to_file(body, created, &shown, &file.path).await?;
    if size != file.size {
        return Err(ImportError::new(
            Kind::SizeMismatch,
            format!(
                "{} stated {} bytes for {} but sent {size}",
                remote.resolved, file.size, file.path
            ),
        )
        .hint("nothing was written; run the same command again")
        .into());
    }
    if sha256 != file.sha256 {
        return Err(ImportError::new(
            Kind::DigestMismatch,
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

/// Reuses the file `from` of the previous import as `to`: a hard link, else a copy (both
/// beneath `ext/`, no link followed).
fn reuse(ext: &Confined, from: &RelativePath, to: &RelativePath) -> bool {
    if ext.hard_link(from, to).is_ok() {
        return true;
    }
    let copied = ext.open_file(from).and_then(|mut source| {
        let mut target = ext.create_new(to)?;
        std::io::copy(&mut source, &mut target)?;
        target.sync_all()
    });
    if copied.is_err() {
        let _ = ext.remove_file(to);
    }
    copied.is_ok()
}

/// Imports a dataset of several files into `ext/<slug>/`: unchanged files are hard-linked
/// (or copied) from the previous import, the others downloaded, all into a temporary
/// folder that then replaces `ext/<slug>/`. Nothing changes on disk when every file is
/// as recorded.
async fn import_files(
    request: &ImportRequest,
    ext: &Confined,
    slug_dir: &RelativePath,
    recorded: Option<&LockEntry>,
    intact: Option<&LockEntry>,
    remote: RemoteFiles,
) -> anyhow::Result<ImportOutcome> {
    let slug = request.slug.as_str();
    let lock_file = format!("{EXT_DIR}/{LOCK_FILE}");

    // Where each file goes, relative to `ext/<slug>/`: the path the server states, as it
    // is, once the path rule accepts it. Two files may not land on one path.
    let mut targets: Vec<(&stone_api::FileInfo, RelativePath)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for file in &remote.files {
        let inner = check_relative_path(&file.path).map_err(|e| {
            bad_file(format!(
                "{} lists a file whose path would not stay in ext/{slug}/: {e}",
                remote.resolved
            ))
        })?;
        if !seen.insert(inner.as_str().to_lowercase()) {
            return Err(bad_file(format!(
                "{} lists two files that both land on {EXT_DIR}/{slug}/{inner}",
                remote.resolved
            )));
        }
        targets.push((file, inner));
    }
    let listing: Vec<(String, String)> = targets
        .iter()
        .map(|(file, _)| (file.path.clone(), file.sha256.clone()))
        .collect();
    let sha256 = listing_sha256(&listing);
    let size = remote.files.iter().map(|f| f.size).sum();
    let files: Vec<LockedFile> = targets
        .iter()
        .map(|(file, inner)| LockedFile {
            path: format!("{EXT_DIR}/{slug}/{inner}"),
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

    let part_dir = part_name("part");
    ext.create_dir(&part_dir)
        .with_context(|| format!("cannot create {}", ext.display(&part_dir).display()))?;
    let mut part = PartDir {
        ext,
        path: part_dir.clone(),
        keep: false,
    };
    let mut downloaded = 0u64;
    for ((file, inner), locked) in targets.iter().zip(&entry.files) {
        let dest = confined::join(&part_dir, inner.as_str())?;
        if let Some((parent, _)) = dest.as_str().rsplit_once('/') {
            let parent = check_relative_path(parent)?;
            ext.create_dir_all(&parent).map_err(|e| {
                bad_file(format!(
                    "{} lists {} inside another file's path: {e}",
                    remote.resolved, file.path
                ))
            })?;
        }
        let existing = confined::join(slug_dir, inner.as_str())?;
        if on_disk.get(locked.path.as_str()) == Some(&file.sha256.as_str())
            && sha256_file(ext, &existing).as_deref() == Some(file.sha256.as_str())
            && reuse(ext, &existing, &dest)
        {
            continue;
        }
        downloaded += download_file(&remote, file, ext, &dest).await?;
    }

    // Swap the folders: the old one is moved aside, then removed.
    let aside = part_name("old");
    let old_dir = match ext.rename(slug_dir, &aside) {
        Ok(()) => Some(aside),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!(
                "cannot move {} aside",
                ext.display(slug_dir).display()
            )));
        }
    };
    if let Err(e) = ext.rename(&part_dir, slug_dir) {
        if let Some(aside) = &old_dir {
            let _ = ext.rename(aside, slug_dir);
        }
        return Err(anyhow::Error::new(e)
            .context(format!("cannot write {}", ext.display(slug_dir).display())));
    }
    part.keep = true;
    if let Some(aside) = old_dir {
        let _ = ext.remove_dir_all(&aside);
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
    fn lock_paths_are_read_only_inside_ext() {
        assert_eq!(in_ext("ext/a/b.csv").unwrap().as_str(), "a/b.csv");
        for bad in [
            "ext",
            "ext/",
            "exta/b",
            "ext/../x",
            "ext/ ../x",
            "/ext/a",
            "a/b",
        ] {
            assert!(in_ext(bad).is_none(), "{bad}");
        }
    }
}
