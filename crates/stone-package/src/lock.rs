//! `ext/stone-lock.json`: where each folder of `ext/` came from (the model; `stone data
//! import` reads and writes it).
//!
//! ```json
//! {
//!   "version": 1,
//!   "imports": {
//!     "cities": {
//!       "source": "stone:demo/cities",
//!       "resolved": "https://api.example.org/v1/namespaces/demo/datasets/cities/content?branch=main&format=parquet",
//!       "kind": "TABULAR", "format": "parquet", "branch": "main", "snapshot_id": 4711,
//!       "etag": "\"4711-parquet-…\"",
//!       "path": "ext/cities/cities.parquet",
//!       "sha256": "…", "size": 1234,
//!       "imported_at": "2026-11-23T18:30:00Z"
//!     }
//!   }
//! }
//! ```
//!
//! A BLOB (object-storage) dataset of several files keeps its layout under `ext/<slug>/`;
//! its entry's `path` is that folder and `files` lists each file with its sha256 and size.
//!
//! Keys are the slugs (`ext/<slug>/`). `resolved` is the URL read, with signature and token
//! query values redacted; `version` is the named version asked for (or the object
//! store's version id); `etag` makes the next import conditional. Readers ignore fields
//! they do not know.
//!
//! A lock file comes with a package, from anyone: [`LockFile::parse`] trusts none of it.
//! Each key must be a dataset name and every path in its entry must pass the one path rule
//! ([`crate::path`]) and lie in that entry's own folder, `ext/<key>/`; otherwise the whole
//! file is refused (an import would otherwise read, link or remove the files it names).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::kind::AssetKind;
use crate::name::Label;
use crate::package::EXT_ZONE;

/// The lock file's name in `ext/`.
pub const LOCK_FILE: &str = "stone-lock.json";
/// The version of the lock file this model reads and writes.
pub const LOCK_VERSION: u32 = 1;

/// The lock file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LockFile {
    pub version: u32,
    #[serde(default)]
    pub imports: BTreeMap<String, LockEntry>,
}

impl Default for LockFile {
    fn default() -> Self {
        Self {
            version: LOCK_VERSION,
            imports: BTreeMap::new(),
        }
    }
}

/// The provenance of one import.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    /// SOURCE as given on the command line.
    pub source: String,
    /// The URL actually read.
    pub resolved: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<AssetKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// TABULAR: the Iceberg snapshot read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The file, relative to the package (`ext/<slug>/<file>`); for a dataset of several
    /// files, its folder (`ext/<slug>`).
    pub path: String,
    /// sha256 of the file, lowercase hex. For a dataset of several files, the sha256 of
    /// its listing: one line `<sha256>  <path in the dataset>\n` per file, sorted by path
    /// (what `sha256sum` prints in the folder).
    pub sha256: String,
    /// Bytes of the file (of all files).
    pub size: u64,
    /// A dataset of several files: each of them (path relative to the package).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<LockedFile>,
    /// When it was downloaded (RFC 3339, UTC).
    pub imported_at: String,
}

/// One file of an import of several files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedFile {
    /// Relative to the package (`ext/<slug>/<path in the dataset>`).
    pub path: String,
    pub sha256: String,
    pub size: u64,
}

/// Why a lock file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    #[error("it is not a valid lock file: {0}")]
    Json(String),
    #[error("it has version {0}; this stone reads version {LOCK_VERSION}")]
    Version(u32),
    #[error("its entry \"{}\" is not a dataset name: it {why}", key.escape_debug())]
    Key { key: String, why: String },
    #[error("its entry `{key}` names the path \"{}\", which is not in `{EXT_ZONE}/{key}/`: {why}", path.escape_debug())]
    Path {
        key: String,
        path: String,
        why: String,
    },
}

impl LockFile {
    /// Parses and checks a lock file.
    pub fn parse(bytes: &[u8]) -> Result<LockFile, LockError> {
        let lock: LockFile =
            serde_json::from_slice(bytes).map_err(|e| LockError::Json(e.to_string()))?;
        if lock.version != LOCK_VERSION {
            return Err(LockError::Version(lock.version));
        }
        for (key, entry) in &lock.imports {
            Label::parse(key).map_err(|why| LockError::Key {
                key: key.clone(),
                why,
            })?;
            let folder = format!("{EXT_ZONE}/{key}");
            let check = |path: &str, whole_folder_ok: bool| -> Result<(), LockError> {
                let refused = |why: String| LockError::Path {
                    key: key.clone(),
                    path: path.to_owned(),
                    why,
                };
                crate::path::check_relative_path(path).map_err(|e| refused(e.to_string()))?;
                let inside = path.strip_prefix(folder.as_str()).is_some_and(|rest| {
                    rest.starts_with('/') || (whole_folder_ok && rest.is_empty())
                });
                if !inside {
                    return Err(refused(format!("it must start with `{folder}/`")));
                }
                Ok(())
            };
            check(&entry.path, !entry.files.is_empty())?;
            for file in &entry.files {
                check(&file.path, false)?;
            }
        }
        Ok(lock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock_with(key: &str, path: &str, files: &[&str]) -> Vec<u8> {
        let files: Vec<serde_json::Value> = files
            .iter()
            .map(|p| serde_json::json!({"path": p, "sha256": "00", "size": 1}))
            .collect();
        serde_json::to_vec(&serde_json::json!({
            "version": 1,
            "imports": {key: {"source": "stone:d/c", "resolved": "https://a/c", "path": path,
                "sha256": "00", "size": 3, "files": files, "imported_at": "2026-01-01T00:00:00Z"}}
        }))
        .unwrap()
    }

    #[test]
    fn lock_entries_round_trip_and_tolerate_new_fields() {
        let json = serde_json::json!({
            "version": 1,
            "imports": {"c": {"source": "stone:d/c", "resolved": "https://a/c", "kind": "TABULAR",
                "path": "ext/c/c.parquet", "sha256": "00", "size": 3,
                "imported_at": "2026-01-01T00:00:00Z", "future": true}}
        });
        let lock = LockFile::parse(&serde_json::to_vec(&json).unwrap()).unwrap();
        assert_eq!(lock.imports["c"].kind, Some(AssetKind::Tabular));
        let back = serde_json::to_value(&lock).unwrap();
        assert_eq!(back["imports"]["c"]["path"], "ext/c/c.parquet");
        assert!(back["imports"]["c"].get("future").is_none());
    }

    #[test]
    fn entries_stay_in_their_own_folder() {
        LockFile::parse(&lock_with("c", "ext/c/c.parquet", &[])).unwrap();
        LockFile::parse(&lock_with("c", "ext/c", &["ext/c/a/b.tif"])).unwrap();
        for (key, path, files) in [
            ("c", "/etc/passwd", &[][..]),
            ("c", "ext/c/../../datasets.yaml", &[]),
            ("c", "ext/c/ ../x", &[]),
            ("c", "ext/other/x", &[]),
            ("c", "ext/c", &[]),
            ("c", "ext/cx/y", &[]),
            ("c", "ext/c", &["ext/c/../../x"]),
            ("c", "ext/c", &["datasets.yaml"]),
            ("c", "ext/c", &["/abs"]),
            ("../x", "ext/../x/y", &[]),
            ("C", "ext/C/y", &[]),
        ] {
            let e = LockFile::parse(&lock_with(key, path, files)).unwrap_err();
            assert!(
                matches!(e, LockError::Path { .. } | LockError::Key { .. }),
                "{key} {path} {files:?}: {e}"
            );
        }
        assert!(matches!(
            LockFile::parse(b"{\"version\": 2}"),
            Err(LockError::Version(2))
        ));
        assert!(matches!(LockFile::parse(b"nope"), Err(LockError::Json(_))));
    }
}
