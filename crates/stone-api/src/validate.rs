//! The server's checks of a push manifest (`POST /pushes`), without I/O: names, branch,
//! version, file paths, digests. `stone-server` answers 400 with the field they name; the
//! fuzz target `push_manifest` (`fuzz/`) runs them on arbitrary JSON.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use stone_package::Label;

use crate::push::{FileBatch, ManifestFile, PushOutline};
use crate::{AssetKind, CreatePush, is_sha256};

/// A field of the manifest that is not acceptable, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidField {
    /// `namespace`, `branch`, `package.version`, `datasets[<name>]`, …
    pub field: String,
    pub message: String,
    /// Which rule it breaks: the server answers each with its own code.
    pub kind: Refusal,
}

/// The kinds of refusal of a manifest, each answered with its own code by the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// 400 `request.invalid`: a bad name, path, digest, duplicate, …
    Invalid,
    /// 400 `manifest.invalid_size`: a declared file size above the largest the server
    /// takes (never more than `i64::MAX`, what databases store).
    InvalidSize,
    /// 413 `push.too_large`: more datasets, contents or bytes than one push may declare.
    TooLarge,
}

impl InvalidField {
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InvalidField {
            field: field.into(),
            message: message.into(),
            kind: Refusal::Invalid,
        }
    }

    fn of(kind: Refusal, field: impl Into<String>, message: impl Into<String>) -> Self {
        InvalidField {
            kind,
            ..Self::new(field, message)
        }
    }
}

/// The most one push may declare (the server's `[limits]`). A push over one of them is
/// refused before anything is recorded, so that a small request never makes the server
/// record, prepare or answer in proportion to what it merely declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushLimits {
    /// Largest declared size of one file, in bytes (at most `i64::MAX`).
    pub max_file_size: u64,
    /// Most bytes one push may declare, its distinct contents added up.
    pub max_push_bytes: u64,
    /// Most datasets in one push.
    pub max_datasets: usize,
    /// Most distinct contents (sha256) in one push.
    pub max_contents: usize,
}

/// Default of [`PushLimits::max_file_size`]: 5 TiB (the largest S3 object).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 5 << 40;
/// Default of [`PushLimits::max_push_bytes`]: 10 TiB.
pub const DEFAULT_MAX_PUSH_BYTES: u64 = 10 << 40;
/// Default of [`PushLimits::max_datasets`]: 100,000, what the server was measured to carry
/// (issue 56): 100,000 one-file resources pushed with its peak at 444–521 MB, an unchanged
/// re-push in 7.5–10.5 s (bench/README.md, "Many files", 2026-11-28).
pub const DEFAULT_MAX_DATASETS: usize = 100_000;
/// Default of [`PushLimits::max_contents`]: 2,000,000 (issue 56: 200,000 refused an
/// ordinary image dataset of 1.3 M files). Measured: a folder of 1,000,000 files pushed
/// with the server's peak at 448 MB and the client's at 59 MB, re-pushed unchanged in
/// 4.7 s (bench/README.md, "A million files through the service", 2026-11-27): about
/// 450 B of server memory a file, under 1 GB at the limit.
pub const DEFAULT_MAX_CONTENTS: usize = 2_000_000;

impl Default for PushLimits {
    fn default() -> Self {
        Self {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            max_push_bytes: DEFAULT_MAX_PUSH_BYTES,
            max_datasets: DEFAULT_MAX_DATASETS,
            max_contents: DEFAULT_MAX_CONTENTS,
        }
    }
}

/// Whether a GRAPH file's extension names an RDF format the server reads: `.ttl`, `.nt`,
/// `.jsonld` (case-insensitive).
fn is_rdf_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => {
            ["ttl", "nt", "jsonld"].contains(&extension.to_ascii_lowercase().as_str())
        }
        _ => false,
    }
}

/// Checks the manifest within the default [`PushLimits`]; returns its distinct contents
/// (sha256 → size).
pub fn validate_manifest(manifest: &CreatePush) -> Result<BTreeMap<String, u64>, InvalidField> {
    validate_manifest_within(manifest, &PushLimits::default())
}

/// Checks the manifest, and that it stays within `limits`; returns its distinct contents
/// (sha256 → size).
pub fn validate_manifest_within(
    manifest: &CreatePush,
    limits: &PushLimits,
) -> Result<BTreeMap<String, u64>, InvalidField> {
    Label::parse(&manifest.namespace).map_err(|why| {
        InvalidField::new(
            "namespace",
            format!("namespace {:?} {why}", manifest.namespace),
        )
    })?;
    check_branch(&manifest.branch)?;
    if let Some(version) = &manifest.package.version {
        check_version(version, &manifest.branch)?;
    }
    if manifest.datasets.is_empty() {
        return Err(InvalidField::new("datasets", "the push has no datasets"));
    }
    if manifest.datasets.len() > limits.max_datasets {
        return Err(InvalidField::of(
            Refusal::TooLarge,
            "datasets",
            format!(
                "the push has {} datasets, more than the {} this server takes in one push; split the package",
                manifest.datasets.len(),
                limits.max_datasets
            ),
        ));
    }
    let mut bytes: u64 = 0;
    let mut names = BTreeSet::new();
    let mut contents: BTreeMap<String, u64> = BTreeMap::new();
    for dataset in &manifest.datasets {
        let field = format!("datasets[{}]", dataset.name);
        Label::parse(&dataset.name).map_err(|why| {
            InvalidField::new(&field, format!("dataset name {:?} {why}", dataset.name))
        })?;
        if !names.insert(dataset.name.as_str()) {
            return Err(InvalidField::new(
                &field,
                format!("dataset {} is listed twice", dataset.name),
            ));
        }
        if dataset.files.is_empty() && !manifest.paged_files {
            return Err(InvalidField::new(
                &field,
                format!("dataset {} has no files", dataset.name),
            ));
        }
        if manifest.paged_files && !dataset.files.is_empty() {
            return Err(InvalidField::new(
                &field,
                format!(
                    "dataset {} lists files in a manifest with paged_files: send them with POST /v1/pushes/{{id}}/files",
                    dataset.name
                ),
            ));
        }
        if dataset.schema.is_some() && dataset.kind != AssetKind::Tabular {
            return Err(InvalidField::new(
                &field,
                format!(
                    "dataset {} is {}: only TABULAR datasets have a schema",
                    dataset.name, dataset.kind
                ),
            ));
        }
        if let Some(listing) = &dataset.listing {
            // Only compared with a head's digest: a malformed one is refused all the same.
            if !is_sha256(&listing.sha256) || listing.files == 0 {
                return Err(InvalidField::new(
                    &field,
                    format!(
                        "dataset {}'s listing is not a listing digest (64 lowercase hex characters, at least one file)",
                        dataset.name
                    ),
                ));
            }
        }
        check_files(
            (&dataset.name, dataset.kind),
            &dataset.files,
            limits,
            &mut contents,
            &mut bytes,
        )?;
    }
    Ok(contents)
}

/// Checks a batch of files (`POST /v1/pushes/{id}/files`) of the datasets of `manifest`:
/// at most [`MAX_FILE_BATCH`](crate::push::MAX_FILE_BATCH) files in all, each dataset of
/// the manifest at most once, with at least one file, each file as in a manifest. Returns
/// the batch's distinct contents (sha256 → size). What the whole push declares is counted
/// by the server across batches.
pub fn validate_batch(
    manifest: &PushOutline,
    batch: &FileBatch,
    limits: &PushLimits,
) -> Result<BTreeMap<String, u64>, InvalidField> {
    let total: usize = batch.datasets.iter().map(|d| d.files.len()).sum();
    if total == 0 {
        return Err(InvalidField::new("datasets", "the batch has no files"));
    }
    if total > crate::push::MAX_FILE_BATCH {
        return Err(InvalidField::of(
            Refusal::TooLarge,
            "datasets",
            format!(
                "the batch has {total} files, more than the {} one batch may hold; send several",
                crate::push::MAX_FILE_BATCH
            ),
        ));
    }
    let mut contents = BTreeMap::new();
    let mut bytes = 0;
    let mut names = BTreeSet::new();
    // The manifest's datasets by name: a batch of 10,000 one-file resources of a push of
    // 1,000,000 looked each one up from the start of the list (10^10 comparisons a batch,
    // growing batch after batch), and a client could ask for that on purpose.
    let mut by_name: HashMap<&str, AssetKind> = HashMap::new();
    for dataset in &manifest.datasets {
        by_name.entry(dataset.name.as_str()).or_insert(dataset.kind);
    }
    for group in &batch.datasets {
        let field = format!("datasets[{}]", group.name);
        let kind = by_name.get(group.name.as_str()).copied().ok_or_else(|| {
            InvalidField::new(&field, format!("the push has no dataset {:?}", group.name))
        })?;
        if !names.insert(group.name.as_str()) || group.files.is_empty() {
            return Err(InvalidField::new(
                &field,
                format!(
                    "dataset {} comes twice in the batch, or without files",
                    group.name
                ),
            ));
        }
        check_files(
            (&group.name, kind),
            &group.files,
            limits,
            &mut contents,
            &mut bytes,
        )?;
    }
    Ok(contents)
}

/// The checks of a dataset's files: paths (once each), digests, sizes, and the push's
/// limits on distinct contents and bytes (`contents`, `bytes`: what was counted before).
fn check_files(
    (name, kind): (&str, AssetKind),
    files: &[ManifestFile],
    limits: &PushLimits,
    contents: &mut BTreeMap<String, u64>,
    bytes: &mut u64,
) -> Result<(), InvalidField> {
    // Never more than a database integer, whatever the configuration says.
    let max_file_size = limits.max_file_size.min(i64::MAX as u64);
    let field = format!("datasets[{name}]");
    let mut paths = BTreeSet::new();
    for file in files {
        check_path(name, &file.path)?;
        if !paths.insert(file.path.as_str()) {
            return Err(InvalidField::new(
                &field,
                format!("{}: file {} is listed twice", name, file.path),
            ));
        }
        if !is_sha256(&file.sha256) {
            return Err(InvalidField::new(
                &field,
                format!(
                    "{}: {}: sha256 {:?} is not 64 lowercase hex digits",
                    name, file.path, file.sha256
                ),
            ));
        }
        if kind == AssetKind::Graph && !is_rdf_path(&file.path) {
            return Err(InvalidField::new(
                &field,
                format!(
                    "{}: {}: a GRAPH file must be .ttl, .nt or .jsonld",
                    name, file.path
                ),
            ));
        }
        if file.size > max_file_size {
            return Err(InvalidField::of(
                Refusal::InvalidSize,
                &field,
                format!(
                    "{}: {}: declared size {} is more than the {max_file_size} bytes this server takes for one file",
                    name, file.path, file.size
                ),
            ));
        }
        match contents.get(&file.sha256) {
            Some(size) if *size != file.size => {
                return Err(InvalidField::new(
                    &field,
                    format!(
                        "sha256 {} is given with two sizes ({size} and {})",
                        file.sha256, file.size
                    ),
                ));
            }
            Some(_) => {}
            None => {
                contents.insert(file.sha256.clone(), file.size);
                *bytes = bytes.saturating_add(file.size);
                if contents.len() > limits.max_contents {
                    return Err(InvalidField::of(
                        Refusal::TooLarge,
                        "datasets",
                        format!(
                            "the push names more than {} distinct files, the most this server takes in one push; split the package",
                            limits.max_contents
                        ),
                    ));
                }
                if *bytes > limits.max_push_bytes {
                    return Err(InvalidField::of(
                        Refusal::TooLarge,
                        "datasets",
                        format!(
                            "the push declares more than {} bytes, the most this server takes in one push; split the package",
                            limits.max_push_bytes
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn check_branch(branch: &str) -> Result<(), InvalidField> {
    let valid = !branch.is_empty()
        && branch.len() <= 255
        && !branch.starts_with('.')
        && branch
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if valid {
        Ok(())
    } else {
        Err(InvalidField::new(
            "branch",
            format!(
                "branch {branch:?} is not a normalized branch name ([A-Za-z0-9_.-], not starting with '.')"
            ),
        ))
    }
}

/// Whether `version` is a name a push may give its package version:
/// `[A-Za-z0-9_.+-]`, 1 to 255 bytes, not starting with `.` (so never `.`, `..` or a path).
pub fn is_version_name(version: &str) -> bool {
    !version.is_empty()
        && version.len() <= 255
        && !version.starts_with('.')
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '+'))
}

fn check_version(version: &str, branch: &str) -> Result<(), InvalidField> {
    if !is_version_name(version) {
        return Err(InvalidField::new(
            "package.version",
            format!(
                "version {version:?} may only hold A-Z, a-z, 0-9, '_', '.', '-', '+' and not start with '.'"
            ),
        ));
    }
    if version == branch || version == "main" {
        return Err(InvalidField::new(
            "package.version",
            format!(
                "version {version:?} is also a branch name; versions and branches share one name space"
            ),
        ));
    }
    Ok(())
}

/// The one path rule of `stone_package::path`: every file path of a dataset becomes a
/// file name in a client's `ext/` and a key in object storage.
fn check_path(dataset: &str, path: &str) -> Result<(), InvalidField> {
    stone_package::check_relative_path(path)
        .map(drop)
        .map_err(|e| InvalidField::new(format!("datasets[{dataset}]"), format!("{dataset}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest_with_path(path: &str) -> CreatePush {
        serde_json::from_value(serde_json::json!({
            "namespace": "demo",
            "branch": "dev",
            "options": {"yes": false, "force": false, "replace": false, "manual": true},
            "package": {"name": "demo", "public": true},
            "datasets": [{"name": "scans", "kind": "BLOB",
                          "files": [{"path": path, "sha256": "a".repeat(64), "size": 1}]}]
        }))
        .expect("a manifest")
    }

    #[test]
    fn a_paged_manifest_names_no_files_and_batches_name_its_datasets() {
        let mut paged = manifest_with_path("a.bin");
        let files = std::mem::take(&mut paged.datasets[0].files);
        paged.paged_files = true;
        validate_manifest(&paged).unwrap();
        let mut inline = paged.clone();
        inline.paged_files = false;
        assert!(
            validate_manifest(&inline).is_err(),
            "a dataset without files is refused unless they follow in batches"
        );
        let batch = |name: &str| FileBatch {
            datasets: vec![crate::push::DatasetFiles {
                name: name.into(),
                files: files.clone(),
            }],
        };
        let limits = PushLimits::default();
        assert_eq!(
            validate_batch(&(&paged).into(), &batch("scans"), &limits)
                .unwrap()
                .len(),
            1
        );
        // A folder's listing, when declared, is a digest.
        let mut declared = paged.clone();
        declared.datasets[0].listing = Some(crate::FolderListing {
            sha256: "b".repeat(64),
            files: 3,
            bytes: 3,
        });
        validate_manifest(&declared).unwrap();
        for (sha256, files) in [
            ("B".repeat(64), 3),
            ("b".repeat(63), 3),
            ("b".repeat(64), 0),
        ] {
            declared.datasets[0].listing = Some(crate::FolderListing {
                sha256,
                files,
                bytes: 3,
            });
            assert!(validate_manifest(&declared).is_err());
        }
        let unknown = validate_batch(&(&paged).into(), &batch("other"), &limits).unwrap_err();
        assert_eq!(unknown.field, "datasets[other]");
        // A batch's paths follow the one path rule, as a manifest's do.
        for path in [
            "../x.bin",
            "photos/ ../ ../x.bin",
            "C:/x.bin",
            "a/\u{202e}b.bin",
        ] {
            let mut hostile = batch("scans");
            hostile.datasets[0].files[0].path = path.into();
            let e = validate_batch(&(&paged).into(), &hostile, &limits).unwrap_err();
            assert_eq!(e.field, "datasets[scans]", "{path:?}");
        }
    }

    #[test]
    fn file_paths_follow_the_one_path_rule() {
        validate_manifest(&manifest_with_path("photos/a b.bin")).unwrap();
        for (path, segment) in [
            ("photos/ ../ ../x.bin", "\" ..\""),
            ("photos/.. /x.bin", "\".. \""),
            ("photos/.../x.bin", "\"...\""),
            (" photos/x.bin", "\" photos\""),
            ("C:/x.bin", "\"C:\""),
            ("../x.bin", "\"..\""),
        ] {
            let e = validate_manifest(&manifest_with_path(path)).unwrap_err();
            assert_eq!(e.field, "datasets[scans]");
            assert!(e.message.contains(segment), "{path:?}: {}", e.message);
        }
    }
}
