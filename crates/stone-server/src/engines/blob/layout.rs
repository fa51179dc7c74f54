//! Where a dataset's objects live, what names are accepted, and the head document.

use chrono::{DateTime, Utc};
use object_store::path::Path as StorePath;
use serde::{Deserialize, Serialize};

use super::{BlobEntry, BlobError};

/// Value of `format` in every head document this engine writes.
pub(super) const HEAD_FORMAT: &str = "stone.blob-head/1";
pub(super) const HEAD_NAME: &str = "head.json";
pub(super) const OBJECTS_DIR: &str = "objects";
pub(super) const VERSIONS_DIR: &str = "versions";
pub(super) const RETIRED_DIR: &str = "retired";
pub(super) const VERSION_EXTENSION: &str = ".json";

/// Longest accepted name of a namespace, dataset or branch, in bytes.
const MAX_NAME_LEN: usize = 200;
/// Longest accepted version name, in bytes (the push API's limit).
const MAX_VERSION_LEN: usize = 255;

/// The keys of one dataset on one branch.
#[derive(Debug, Clone)]
pub(super) struct DatasetLocation {
    /// `{prefix}/{ns}/{dataset}/{branch}`.
    pub root: StorePath,
}

impl DatasetLocation {
    pub fn new(
        prefix: &StorePath,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Self, BlobError> {
        check_name("namespace", ns)?;
        check_name("dataset", dataset)?;
        check_name("branch", branch)?;
        let root = prefix.clone().join(ns).join(dataset).join(branch);
        Ok(Self { root })
    }

    /// `{root}/head.json`.
    pub fn head(&self) -> StorePath {
        self.root.clone().join(HEAD_NAME)
    }

    /// `{root}/objects/`.
    pub fn objects(&self) -> StorePath {
        self.root.clone().join(OBJECTS_DIR)
    }

    /// `{root}/objects/{sha256}`.
    pub fn object(&self, sha256: &str) -> StorePath {
        self.objects().join(sha256)
    }

    /// `{root}/versions/`.
    pub fn versions(&self) -> StorePath {
        self.root.clone().join(VERSIONS_DIR)
    }

    /// `{root}/retired/`: which objects each head change stopped listing, and when
    /// (`retire.rs`).
    pub fn retired(&self) -> StorePath {
        self.root.clone().join(RETIRED_DIR)
    }

    /// `{root}/versions/{version}.json`, for a valid version name.
    pub fn version(&self, version: &str) -> Result<StorePath, BlobError> {
        check_version(version)?;
        Ok(self
            .versions()
            .join(format!("{version}{VERSION_EXTENSION}")))
    }

    /// The version a write keeps (`keep`), with its key.
    pub fn kept(&self, keep: Option<&str>) -> Result<Option<(String, StorePath)>, BlobError> {
        keep.map(|version| Ok((version.to_owned(), self.version(version)?)))
            .transpose()
    }
}

/// Version names are package versions as the push API accepts them: ASCII letters,
/// digits, `_`, `-`, `.`, `+`, not starting with `.`, at most 255 bytes. So a version is
/// one storage key segment, never `.`, `..` or a path.
pub(super) fn check_version(version: &str) -> Result<(), BlobError> {
    check_segment("version", version, &VERSION_RULE)
}

/// Names are one storage key segment each: ASCII letters, digits, `_`, `-`, `.`, not
/// starting with `.` (which also rules out `.` and `..`). Branches come normalized to
/// `[A-Za-z0-9_.-]` from the client.
fn check_name(what: &'static str, name: &str) -> Result<(), BlobError> {
    check_segment(what, name, &NAME_RULE)
}

/// What one key segment may be.
struct SegmentRule {
    max_len: usize,
    too_long: &'static str,
    /// Allowed besides ASCII letters and digits.
    extra: &'static [u8],
    allowed: &'static str,
}

const NAME_RULE: SegmentRule = SegmentRule {
    max_len: MAX_NAME_LEN,
    too_long: "it is longer than 200 bytes",
    extra: b"_-.",
    allowed: "only ASCII letters, digits, '_', '-' and '.' are allowed",
};

const VERSION_RULE: SegmentRule = SegmentRule {
    max_len: MAX_VERSION_LEN,
    too_long: "it is longer than 255 bytes",
    extra: b"_-.+",
    allowed: "only ASCII letters, digits, '_', '-', '.' and '+' are allowed",
};

fn check_segment(what: &'static str, name: &str, rule: &SegmentRule) -> Result<(), BlobError> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > rule.max_len {
        Some(rule.too_long)
    } else if name.starts_with('.') {
        Some("it starts with '.'")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || rule.extra.contains(&b))
    {
        Some(rule.allowed)
    } else {
        None
    };
    match reason {
        Some(reason) => Err(BlobError::InvalidName {
            what,
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// A path inside a resource: the one path rule of `stone_package::path` (relative,
/// `/`-separated, no empty, `.`/`..` or whitespace-padded segment, no backslash, control
/// character or drive letter, at most 1024 bytes). It is only recorded in the head, never
/// used as a key.
pub(super) fn check_path(path: &str) -> Result<(), BlobError> {
    stone_package::check_relative_path(path)
        .map(drop)
        .map_err(|e| BlobError::InvalidPath {
            path: path.to_owned(),
            reason: e.problem.reason(),
        })
}

pub(super) fn check_sha256(path: &str, sha256: &str) -> Result<(), BlobError> {
    if sha256.len() == 64
        && sha256
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        Ok(())
    } else {
        Err(BlobError::InvalidSha256 {
            path: path.to_owned(),
            sha256: sha256.to_owned(),
        })
    }
}

/// The head document, `head.json`: the dataset's files on the branch. Written last by a
/// put, in one atomic object write, so a reader sees the old list or the new one. A named
/// version, `versions/{version}.json`, is a copy of the head as it was when the version
/// was recorded (same format); its objects are the same content-addressed objects.
///
/// ```json
/// {"format": "stone.blob-head/1", "updated_at": "2025-01-01T00:00:00Z",
///  "files": [{"path": "a/b.tif", "sha256": "…64 hex…", "size": 123}]}
/// ```
///
/// `files` is sorted by path; each file's bytes are the object `objects/<sha256>` next
/// to the head. Unknown fields are ignored by readers.
///
/// `listing` (issue 27; heads written before it have none) is the [`ListingDigest`] of
/// `files`, written before them: a commit that knows the digest of the listing it would
/// write reads only the head's first bytes ([`listing_of_prefix`]) to find it unchanged,
/// instead of reading, parsing and comparing a listing of a million files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct HeadDocument {
    pub format: String,
    /// Written with nine fractional digits, so that a document's length does not depend
    /// on its time (a prepared head is rewritten in place at commit: see `put_local`).
    #[serde(serialize_with = "nanosecond_time")]
    pub updated_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listing: Option<String>,
    pub files: Vec<BlobEntry>,
}

/// How many bytes of a head [`listing_of_prefix`] needs: `format`, `updated_at` and
/// `listing` come first, in well under this.
pub(super) const HEAD_PREFIX_LEN: usize = 512;

/// The digest of a head's listing, as `listing` records it: the lowercase hex sha256 of
/// every file in path order (bytewise), each as `path NUL sha256 NUL size LF` (a path
/// holds no control character: see [`check_path`]). Fed file by file, so that a listing
/// streamed from the state database in pages is digested without being held. Shared with
/// the client (`stone_api::ListingDigest`), which declares a folder's listing computed the
/// same way (issue 27: an unchanged folder is not sent at all).
pub use stone_api::ListingDigest;

/// The [`ListingDigest`] of a listing sorted by path.
pub fn listing_digest(files: &[BlobEntry]) -> String {
    let mut digest = ListingDigest::default();
    for file in files {
        digest.add(&file.path, &file.sha256, file.size);
    }
    digest.finish()
}

/// The `listing` of a head from its first bytes, as this engine writes it (pretty JSON,
/// `listing` before `files`); `None` when it is not there (a head written before issue
/// 27, or by another writer): the caller then reads the whole head.
pub(super) fn listing_of_prefix(prefix: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(prefix) {
        Ok(text) => text,
        // Cut inside a character: what is before it.
        Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).ok()?,
    };
    let format = format!("\"format\": \"{HEAD_FORMAT}\"");
    let files = text.find("\"files\"")?;
    let head = &text[..files];
    if !head.trim_start().starts_with('{') || !head.contains(&format) {
        return None;
    }
    const KEY: &str = "\"listing\": \"";
    let at = head.find(KEY)? + KEY.len();
    let digest = head.get(at..at + 64)?;
    let closed = head[at + 64..].starts_with('"');
    (closed
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    .then(|| digest.to_owned())
}

fn nanosecond_time<S: serde::Serializer>(time: &DateTime<Utc>, to: S) -> Result<S::Ok, S::Error> {
    to.serialize_str(&time.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true))
}

impl HeadDocument {
    /// A head listing `files` (sorted by path), written now, with their digest.
    pub fn new(files: Vec<BlobEntry>) -> Self {
        Self {
            format: HEAD_FORMAT.to_owned(),
            updated_at: Utc::now(),
            listing: Some(listing_digest(&files)),
            files,
        }
    }

    pub fn parse(location: &StorePath, bytes: &[u8]) -> Result<Self, BlobError> {
        let corrupt = |message: String| BlobError::CorruptHead {
            location: location.to_string(),
            message,
        };
        let head: HeadDocument =
            serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
        if head.format != HEAD_FORMAT {
            return Err(corrupt(format!("unknown format {:?}", head.format)));
        }
        for file in &head.files {
            check_path(&file.path).map_err(|e| corrupt(e.to_string()))?;
            check_sha256(&file.path, &file.sha256).map_err(|e| corrupt(e.to_string()))?;
        }
        Ok(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["demo", "my-data_set.v2", "feature-x", "A1"] {
            check_name("dataset", ok).unwrap();
        }
        for bad in [
            "",
            ".",
            "..",
            ".hidden",
            "a/b",
            "a b",
            "ü",
            &"x".repeat(201),
        ] {
            assert!(check_name("dataset", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn paths() {
        for ok in ["a.tif", "dir/sub/b.png", "with space.txt", "ü.bin", "a..b"] {
            check_path(ok).unwrap();
        }
        for bad in [
            "", "/abs", "a//b", "./a", "a/../b", "..", "a\\b", "a\nb", "dir/", "a/ ../b", " a",
            "C:/x",
        ] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn layout() {
        let location = DatasetLocation::new(&StorePath::from("p/q"), "ns", "ds", "main").unwrap();
        assert_eq!(location.head().as_ref(), "p/q/ns/ds/main/head.json");
        assert_eq!(location.object("ab").as_ref(), "p/q/ns/ds/main/objects/ab");
        let bare = DatasetLocation::new(&StorePath::default(), "ns", "ds", "b").unwrap();
        assert_eq!(bare.head().as_ref(), "ns/ds/b/head.json");
        assert_eq!(
            bare.version("1.0.0+build-2").unwrap().as_ref(),
            "ns/ds/b/versions/1.0.0+build-2.json"
        );
    }

    #[test]
    fn versions() {
        for ok in ["1.0.0", "v2", "1.0.0-rc.1+build_7", &"9".repeat(255)] {
            check_version(ok).unwrap();
        }
        for bad in [
            "",
            ".",
            "..",
            ".1",
            "1/2",
            "a b",
            "1%2F",
            "ü",
            &"9".repeat(256),
        ] {
            assert!(check_version(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn head_document_round_trip_and_unknown_fields() {
        let text = format!(
            r#"{{"format":"{HEAD_FORMAT}","updated_at":"2025-01-02T03:04:05Z","extra":1,
               "files":[{{"path":"a.bin","sha256":"{}","size":3,"more":true}}]}}"#,
            "a".repeat(64)
        );
        let head = HeadDocument::parse(&StorePath::from("h"), text.as_bytes()).unwrap();
        assert_eq!(head.files[0].size, 3);
        let again = serde_json::to_value(&head).unwrap();
        assert_eq!(again["files"][0]["path"], "a.bin");
        assert!(HeadDocument::parse(&StorePath::from("h"), b"{\"format\":\"other\"}").is_err());
        assert!(head.listing.is_none());
    }

    #[test]
    fn listing_digest_from_the_first_bytes() {
        let files: Vec<BlobEntry> = (0..1000)
            .map(|i| BlobEntry {
                path: format!("d/f{i:05}.bin"),
                sha256: format!("{:064x}", i),
                size: i,
            })
            .collect();
        let head = HeadDocument::new(files.clone());
        let body = serde_json::to_vec_pretty(&head).unwrap();
        let digest = listing_of_prefix(&body[..HEAD_PREFIX_LEN]).unwrap();
        assert_eq!(Some(&digest), head.listing.as_ref());
        // Fed one by one, as from the state database, it is the same.
        let mut fed = ListingDigest::default();
        for f in &files {
            fed.add(&f.path, &f.sha256, f.size);
        }
        assert_eq!((fed.files(), fed.bytes()), (1000, 499_500));
        assert_eq!(fed.finish(), digest);
        // Another listing, another digest (a size, a content, a path).
        let mut other = files.clone();
        other[7].size += 1;
        assert_ne!(listing_digest(&other), digest);
        let mut other = files.clone();
        other[7].sha256 = format!("{:064x}", 99_999);
        assert_ne!(listing_digest(&other), digest);
        assert_ne!(listing_digest(&files[1..]), digest);
        // Parsed back, the field is kept; a head without it, or cut before it, has none.
        let parsed = HeadDocument::parse(&StorePath::from("h"), &body).unwrap();
        assert_eq!(parsed.listing, head.listing);
        assert!(listing_of_prefix(&body[..40]).is_none());
        let old = format!(
            "{{\n  \"format\": \"{HEAD_FORMAT}\",\n  \"files\": [{{\"path\": \"x\", \"listing\": \"{}\"}}]}}",
            "a".repeat(64)
        );
        assert!(listing_of_prefix(old.as_bytes()).is_none());
    }
}
