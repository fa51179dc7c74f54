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

pub use fetch::{Fetch, Previous, Wanted};
pub use lock::{LOCK_FILE, LockEntry, LockFile};
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
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for file in files.flatten() {
            if file
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(PART_PREFIX) && n.ends_with(".part"))
            {
                let _ = std::fs::remove_file(file.path());
            }
        }
    }
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
    let intact = recorded.as_ref().filter(|entry| {
        entry.source == request.source_text
            && sha256_file(&package.join(&entry.path)).as_deref() == Some(entry.sha256.as_str())
    });
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
    };

    let created_dirs: Vec<PathBuf> = [&dir, &ext]
        .into_iter()
        .filter(|d| !d.is_dir())
        .cloned()
        .collect();
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let part_path = dir.join(format!(
        "{PART_PREFIX}{}-{}.part",
        std::process::id(),
        fastrand::u32(..)
    ));
    let mut part = PartFile {
        path: part_path.clone(),
        created_dirs,
        keep: false,
    };
    let mut file = tokio::fs::File::create(&part_path)
        .await
        .with_context(|| format!("cannot create {}", part_path.display()))?;
    let mut hash = Sha256::new();
    let mut size = 0u64;
    let mut body = remote.body;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.with_context(|| format!("cannot download {}", remote.resolved))?;
        hash.update(&chunk);
        size += chunk.len() as u64;
        file.write_all(&chunk)
            .await
            .with_context(|| format!("cannot write {}", part_path.display()))?;
    }
    file.sync_all()
        .await
        .with_context(|| format!("cannot write {}", part_path.display()))?;
    drop(file);
    let sha256 = hex::encode(hash.finalize());
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
        let _ = std::fs::remove_file(package.join(&old.path));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_stay_in_their_folder() {
        assert_eq!(safe_file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(safe_file_name(".hidden"), "hidden");
        assert_eq!(safe_file_name(""), "data");
        assert_eq!(safe_file_name("cities.parquet"), "cities.parquet");
    }
}
