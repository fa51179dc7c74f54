//! `ext/stone-lock.json`: where each folder of `ext/` came from.
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

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use stone_api::AssetKind;

use crate::diagnostics::{CliError, ExitStatus};

/// The lock file's name in `ext/`.
pub const LOCK_FILE: &str = "stone-lock.json";
const LOCK_VERSION: u32 = 1;

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

impl LockFile {
    /// Loads the lock file; a missing one is empty.
    pub fn load(path: &Path) -> anyhow::Result<LockFile> {
        let text = match std::fs::read(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LockFile::default()),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let lock: LockFile = serde_json::from_slice(&text).map_err(|e| {
            CliError::new(
                "import.lock_invalid",
                ExitStatus::Failure,
                format!("{} is not a valid lock file: {e}", path.display()),
            )
            .hint("fix it, or remove it to import everything again")
        })?;
        if lock.version != LOCK_VERSION {
            return Err(CliError::new(
                "import.lock_invalid",
                ExitStatus::Failure,
                format!(
                    "{} has version {}; this stone reads version {LOCK_VERSION}",
                    path.display(),
                    lock.version
                ),
            )
            .into());
        }
        Ok(lock)
    }

    /// Writes the lock file through a temporary file and a rename.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let mut text = serde_json::to_vec_pretty(self)?;
        text.push(b'\n');
        let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Now, as RFC 3339 in UTC (`2026-11-23T18:30:00Z`).
pub fn now_rfc3339() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(seconds)
}

/// Unix seconds as RFC 3339 (days to civil date: H. Hinnant's algorithm).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_372_245), "2026-11-22T18:30:45Z");
    }

    #[test]
    fn lock_entries_round_trip_and_tolerate_new_fields() {
        let json = serde_json::json!({
            "version": 1,
            "imports": {"c": {"source": "stone:d/c", "resolved": "https://a/c", "kind": "TABULAR",
                "path": "ext/c/c.parquet", "sha256": "00", "size": 3,
                "imported_at": "2026-01-01T00:00:00Z", "future": true}}
        });
        let lock: LockFile = serde_json::from_value(json).unwrap();
        assert_eq!(lock.imports["c"].kind, Some(AssetKind::Tabular));
        let back = serde_json::to_value(&lock).unwrap();
        assert_eq!(back["imports"]["c"]["path"], "ext/c/c.parquet");
        assert!(back["imports"]["c"].get("future").is_none());
    }
}
