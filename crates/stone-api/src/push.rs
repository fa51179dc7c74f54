//! Pushes: the manifest (`POST /v1/pushes`), upload instructions, commit and status.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use stone_package::{AssetKind, Engine};

use crate::problem::Problem;

/// Body of `POST /v1/pushes`: the manifest of a package push.
///
/// Every refusal the server can decide from the manifest (guards on protected refs,
/// incompatible declared schemas, existing versions) happens here, before any byte is
/// uploaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreatePush {
    /// Resume this push instead of starting a new one: the same push, with fresh upload
    /// URLs for what is still missing (also how an expired URL is renewed). While the push
    /// is `staging` (or `failed`) the manifest replaces the one it had; once it is
    /// `committing` or `succeeded` it must be the same manifest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_id: Option<String>,
    /// Target namespace (a DNS label: `[a-z0-9-]`, 1–63 characters).
    pub namespace: String,
    /// Branch, normalized by the client: only `[A-Za-z0-9_.-]`.
    pub branch: String,
    /// What the user asked for.
    pub options: PushFlags,
    /// Package-level metadata; becomes the namespace's package node.
    pub package: PackageMetadata,
    /// One dataset per resource, in package order.
    pub datasets: Vec<DatasetManifest>,
    /// `true`: the datasets' `files` lists are empty here; their files follow in batches
    /// of at most [`MAX_FILE_BATCH`] (`POST /v1/pushes/{id}/files`) before the commit.
    /// How a package of more files than one batch is pushed: no request or answer grows
    /// with the count of files. Resuming such a push (`push_id`) forgets the batches
    /// recorded so far (they are sent again). Absent (false) otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paged_files: bool,
}

/// The most files one `POST /v1/pushes/{id}/files` takes, and the most a client puts in
/// the manifest itself: a package with more files pushes them in batches
/// ([`CreatePush::paged_files`]).
pub const MAX_FILE_BATCH: usize = 10_000;

/// The most datasets one answer to `GET /v1/pushes/{id}?limit=` lists (a larger `limit`
/// counts as this): a push of 100,000 datasets is followed a page at a time
/// ([`PushStatus::after`]).
pub const MAX_STATUS_PAGE: usize = 10_000;

/// Body of `POST /v1/pushes/{id}/files`: a batch of files of a push created with
/// `paged_files`, at most [`MAX_FILE_BATCH`] files in all. Sending a batch again is
/// harmless (a file already recorded keeps its first declaration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileBatch {
    /// Files by dataset (a dataset may come in several batches).
    pub datasets: Vec<DatasetFiles>,
}

/// Files of one dataset in a [`FileBatch`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetFiles {
    /// Name of the dataset (as in the manifest).
    pub name: String,
    /// Some of its files (at least one).
    pub files: Vec<ManifestFile>,
}

/// Answer of `POST /v1/pushes/{id}/files` (200): what to upload for this batch, as
/// [`PushCreated`] gives it for a whole manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilesAccepted {
    /// One entry per distinct sha256 of the batch the server does not have yet.
    pub uploads: Vec<Upload>,
    /// Distinct sha256 of the batch the server already holds.
    pub already_staged: Vec<String>,
    /// `true` when `uploads` holds only some of the batch's contents (a bounded number of
    /// part URLs per answer): upload these, then send the same batch again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub more_uploads: bool,
    /// Files of the push recorded so far, all batches together.
    pub files: u64,
    /// Issue 27: where the small uploads of this answer may go together (see
    /// [`crate::PackUpload`]). Absent from servers (or staging stores) that take no packs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<crate::PackUpload>,
}

/// Push options, as given on the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushFlags {
    /// `--yes`: confirms a manual push to a protected ref.
    pub yes: bool,
    /// `--force`: allows what protected refs protect (incompatible schema changes,
    /// overwriting a named version, deleting removed datasets, retraction by `replace`).
    /// Needs the elevated role on a protected ref.
    pub force: bool,
    /// `--replace`: each dataset's content on the branch becomes exactly the pushed files
    /// (instead of being added to), and datasets of the namespace's package that are no
    /// longer in the package are deleted from the branch.
    pub replace: bool,
    /// True when the push was not started by CI (a person ran it).
    pub manual: bool,
}

/// Package-level metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackageMetadata {
    /// Package name from `datasets.yaml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Version. When set, it names the pushed content of every TABULAR dataset (an Iceberg
    /// tag); `[A-Za-z0-9_.+-]`, not starting with `.`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// License (SPDX expression or name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// `publish.public`: readable without a token.
    pub public: bool,
    /// `publish.dialect`: Table Dialect properties plus `quoting`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Map<String, Value>>,
    /// Any further package metadata, kept as given.
    #[serde(default)]
    pub metadata: Map<String, Value>,
}

/// One resource: one dataset `stone:<namespace>/<name>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetManifest {
    /// Slug (a DNS label), unique in the push.
    pub name: String,
    /// Asset kind; the server picks the engine from it alone.
    pub kind: AssetKind,
    /// Resource metadata, kept as given.
    #[serde(default)]
    pub metadata: Map<String, Value>,
    /// TABULAR only, optional: the columns of the Parquet files, so that the server can
    /// refuse an incompatible schema change before anything is uploaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<TableSchema>,
    /// The files of the resource (at least one). For TABULAR, the Parquet files the client
    /// produced.
    pub files: Vec<ManifestFile>,
    /// Issue 27, a push with `paged_files` only: the digest of all the files of this
    /// (object-storage) dataset as the client walked them. When the dataset's head on the
    /// branch has this listing, the server names the dataset in
    /// [`PushCreated::unchanged`] and the client need not send its files: the commit then
    /// finds the dataset unchanged (the head still has this listing) or refuses the push
    /// (409 `push.incomplete`: the head changed meanwhile; post the manifest again).
    /// Ignored by servers that do not know it (the client then sends the files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listing: Option<FolderListing>,
}

/// What a batch of files is checked against ([`crate::validate::validate_batch`]): a
/// push's datasets by name and kind, without the rest of its manifest (its metadata,
/// schemas and listings). A server may hold only the datasets a batch names (issue 27:
/// a manifest of 100,000 datasets was read whole for each batch).
#[derive(Debug, Clone, PartialEq)]
pub struct PushOutline {
    /// Whether the push takes its files in batches ([`CreatePush::paged_files`]).
    pub paged_files: bool,
    /// Its datasets (all of them, or at least those a batch names).
    pub datasets: Vec<OutlinedDataset>,
}

/// A dataset of a [`PushOutline`].
#[derive(Debug, Clone, PartialEq)]
pub struct OutlinedDataset {
    /// Slug.
    pub name: String,
    /// Asset kind.
    pub kind: AssetKind,
}

impl From<&CreatePush> for PushOutline {
    fn from(manifest: &CreatePush) -> Self {
        PushOutline {
            paged_files: manifest.paged_files,
            datasets: manifest
                .datasets
                .iter()
                .map(|d| OutlinedDataset {
                    name: d.name.clone(),
                    kind: d.kind,
                })
                .collect(),
        }
    }
}

/// What a client declares of a folder's files all together ([`DatasetManifest::listing`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderListing {
    /// [`crate::ListingDigest`] of the files: lowercase hex sha256 of each file, in
    /// bytewise path order, as `path NUL sha256 NUL size LF` (paths inside the dataset).
    pub sha256: String,
    /// Files.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Declared columns of a TABULAR dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSchema {
    /// Top-level columns, in order.
    pub fields: Vec<SchemaField>,
}

/// A top-level column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaField {
    /// Column name.
    pub name: String,
    /// Iceberg type of the column as Iceberg prints it: `boolean`, `int`, `long`, `float`,
    /// `double`, `decimal(P, S)`, `date`, `time`, `timestamp`, `timestamptz`, `string`,
    /// `uuid`, `binary`, `fixed[N]`, or a nested type (`struct<…>`, `list<…>`, `map<…>`).
    #[serde(rename = "type")]
    pub field_type: String,
    /// Whether the column never holds nulls.
    pub required: bool,
}

/// A file of a resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Path inside the resource, `/`-separated (the file name for a one-file resource).
    pub path: String,
    /// sha256 of the content (64 lowercase hex).
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// Answer of `POST /v1/pushes`: 201 for a new push, 200 for a resumed one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PushCreated {
    /// The push ID; keep it to resume.
    pub push_id: String,
    /// State of the push.
    pub state: PushState,
    /// One entry per distinct sha256 the server does not have yet. Empty when everything is
    /// staged.
    pub uploads: Vec<Upload>,
    /// Distinct sha256 of the manifest the server already holds (nothing to upload).
    pub already_staged: Vec<String>,
    /// The datasets, as `GET /v1/pushes/{id}` would show them; none for a push created
    /// with `paged_files` (it may have 100,000: they all change at commit, and a client
    /// follows them from `changes`).
    pub datasets: Vec<DatasetProgress>,
    /// The push's change number as of this answer (see [`PushStatus::changes`]): after the
    /// commit, `GET …?since=<changes>` sends only the datasets that changed since these.
    /// Absent from servers that do not count changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<u64>,
    /// `true` when `uploads` holds only some of the contents still to upload (an answer
    /// hands out a bounded number of part URLs): upload these, complete them, then post
    /// the manifest again with `push_id` for the next ones. Absent (false) otherwise, and
    /// from servers that always list every upload.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub more_uploads: bool,
    /// Issue 27, a push with `paged_files`: the datasets whose declared
    /// [`DatasetManifest::listing`] is their head's listing now. Their files need not be
    /// sent (`POST /v1/pushes/{id}/files`); the commit records them unchanged. Absent
    /// (empty) otherwise, on a protected ref without `force` (its guards read every file)
    /// and from servers that do not know it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchanged: Vec<String>,
    /// Issue 27: where the small uploads of this answer may go together (see
    /// [`crate::PackUpload`]). Absent from servers (or staging stores) that take no packs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<crate::PackUpload>,
}

/// How to upload one content (a sha256).
///
/// Either `url` (one request) or `parts` (several requests) is present. Requests use
/// `method` and send exactly `headers` (they may be bound to the signature); they carry
/// no API token. 2xx means the bytes were received. A single upload is verified on
/// arrival (wrong bytes: 400 `staging.digest_mismatch`, nothing kept); a multipart upload
/// is assembled and verified by `POST /v1/pushes/{id}/uploads/{sha256}/complete`, or at
/// commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The content's sha256.
    pub sha256: String,
    /// Its size in bytes.
    pub size: u64,
    /// HTTP method of the upload requests: `PUT`.
    pub method: String,
    /// Where to send the whole content, when it is uploaded in one request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Headers to send with every request of this upload (e.g. `x-amz-checksum-sha256`).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// When the URLs stop working (RFC 3339). Re-post the manifest for fresh ones.
    pub expires_at: String,
    /// Parts, for content larger than the part size: each part is the byte range
    /// `[offset, offset + size)` of the content, uploaded to its own URL, in any order and
    /// in parallel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<UploadPart>>,
}

impl Upload {
    /// An upload in parts: one PUT per part, no headers.
    pub fn in_parts(sha256: &str, size: u64, expires_at: String, parts: Vec<UploadPart>) -> Upload {
        Upload {
            sha256: sha256.to_owned(),
            size,
            method: "PUT".into(),
            url: None,
            headers: Default::default(),
            expires_at,
            parts: Some(parts),
        }
    }
}

/// One part of a multipart upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadPart {
    /// Part number, from 1.
    pub number: u32,
    /// Offset of the part in the content.
    pub offset: u64,
    /// Size of the part.
    pub size: u64,
    /// Where to send it.
    pub url: String,
}

/// Answer of `POST /v1/pushes/{id}/uploads/{sha256}/complete`: the content is staged and
/// verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadCompleted {
    /// The content's sha256.
    pub sha256: String,
    /// Its size.
    pub size: u64,
    /// Always true: the content is staged and its size and sha256 were checked.
    pub staged: bool,
}

/// Answer of `POST /v1/pushes/{id}/commit` (202).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitAccepted {
    /// The push ID.
    pub push_id: String,
    /// State of the push (`committing`, or already `succeeded`).
    pub state: PushState,
}

/// State of a push.
///
/// `staging` → (commit) → `committing` → `succeeded` | `failed`. A `failed` push can be
/// committed again (datasets already written are then `unchanged`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PushState {
    /// Waiting for uploads and the commit.
    Staging,
    /// Committed; datasets are being written.
    Committing,
    /// Every dataset and the package node were written.
    Succeeded,
    /// At least one dataset failed; the others were written.
    Failed,
    /// A state this client does not know.
    #[serde(other)]
    Unknown,
}

impl PushState {
    /// Whether the push will not change any more (unless committed again).
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed)
    }
}

/// Answer of `GET /v1/pushes/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PushStatus {
    /// The push ID.
    pub push_id: String,
    /// State of the push.
    pub state: PushState,
    /// Target namespace.
    pub namespace: String,
    /// Branch.
    pub branch: String,
    /// When the push was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
    /// Per-dataset progress, in manifest order; datasets deleted by `replace` come last.
    /// With `?since=N`, only the datasets that changed after change number `N`.
    pub datasets: Vec<DatasetProgress>,
    /// The push's change number as of this answer: `GET …?since=<changes>` then sends
    /// only the datasets that changed after it (a dataset may come again unchanged).
    /// Absent from servers that do not count changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<u64>,
    /// With `?limit=`: present when more datasets changed than the answer lists (at most
    /// `limit`, in (change, position) order). The position of the last one listed: ask
    /// again at once with `since=<changes>&after=<after>` for the next page. Absent
    /// otherwise, and from servers that do not page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<u64>,
    /// The namespace's package node.
    pub package_node: PackageNodeProgress,
    /// The final summary, once the push is `succeeded` or `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<PushReport>,
    /// Why the push failed, when it failed as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
}

/// Progress of one dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetProgress {
    /// Slug.
    pub name: String,
    /// `stone:<ns>/<name>`.
    pub url: String,
    /// `https://<public_host>/<ns>/<name>`.
    pub iri: String,
    /// Asset kind.
    pub kind: AssetKind,
    /// Engine that stores it.
    pub engine: Engine,
    /// Where the write is.
    pub state: DatasetState,
    /// What the write did, once `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<DatasetStatus>,
    /// Engine figures, once `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<DatasetDetail>,
    /// Why the write failed, when `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
}

/// State of a dataset's write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DatasetState {
    /// Not started.
    Pending,
    /// Being written.
    Writing,
    /// Written (see `status`).
    Done,
    /// Not written (see `error`); the dataset is as it was before the push.
    Failed,
    /// A state this client does not know.
    #[serde(other)]
    Unknown,
}

/// What a dataset write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DatasetStatus {
    /// The dataset did not exist on the branch; it does now.
    Created,
    /// Content was added.
    Appended,
    /// The content was replaced (`replace`).
    Replaced,
    /// The branch already had exactly this content; nothing changed.
    Unchanged,
    /// The dataset was no longer in the package and was deleted (`replace`).
    Deleted,
    /// A status this client does not know.
    #[serde(other)]
    Unknown,
}

/// Engine figures of a dataset write. Which fields are present depends on the engine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetDetail {
    /// Iceberg: the table, `<ns>.<name>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Iceberg: the branch head after the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<i64>,
    /// Iceberg: rows added by the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows_added: Option<u64>,
    /// Iceberg: rows no longer on the branch (`replace`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows_removed: Option<u64>,
    /// Iceberg: rows on the branch after the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_rows: Option<u64>,
    /// Iceberg: schema changes applied, in words (`added column x (string)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schema_changes: Vec<String>,
    /// Iceberg: snapshots of the table expired after the write (server `[retention]`).
    /// Absent when no expiry ran: retention is not configured, or the branch is
    /// protected and the push was not forced. Named versions are never expired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired_snapshots: Option<u64>,
    /// Iceberg: files deleted with the expired snapshots (data files, manifests, manifest
    /// lists no remaining snapshot references). Present when `expired_snapshots` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired_files: Option<u64>,
    /// Iceberg: bytes of those files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired_bytes: Option<u64>,
    /// The package version recorded for the dataset: an Iceberg tag on the written
    /// snapshot (TABULAR), a snapshot graph (GRAPH), a version head (object storage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Graph: IRI of the named graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
    /// Graph: triples added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triples_added: Option<u64>,
    /// Graph: triples in the named graph after the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_triples: Option<u64>,
    /// Object storage: files of the dataset after the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<u64>,
    /// Object storage: bytes of the dataset after the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// The namespace's package node: the package metadata and its list of resources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageNodeProgress {
    /// `stone:<ns>`.
    pub url: String,
    /// `https://<public_host>/<ns>`.
    pub iri: String,
    /// What the push did to it, once written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<NodeStatus>,
}

/// What a push did to the package node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    /// The namespace had no package node on this branch.
    Created,
    /// The package node changed.
    Updated,
    /// The package node was already exactly this.
    Unchanged,
    /// A status this client does not know.
    #[serde(other)]
    Unknown,
}

/// Final summary of a push.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushReport {
    /// When the push finished (RFC 3339).
    pub finished_at: String,
    /// Datasets per outcome.
    pub counts: ResultCounts,
    /// https IRIs of the datasets written (not deleted, not failed), in manifest order.
    pub iris: Vec<String>,
}

/// Datasets per outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultCounts {
    /// `created`.
    pub created: u32,
    /// `appended`.
    pub appended: u32,
    /// `replaced`.
    pub replaced: u32,
    /// `unchanged`.
    pub unchanged: u32,
    /// `deleted`.
    pub deleted: u32,
    /// `failed`.
    pub failed: u32,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::PackUpload;
    use crate::problem::codes;
    use serde_json::json;

    fn roundtrip<T>(value: &T, expected: Value)
    where
        T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        assert_eq!(serde_json::to_value(value).unwrap(), expected);
        let back: T = serde_json::from_value(expected).unwrap();
        assert_eq!(&back, value);
    }

    /// `value` with an unknown field added to every object in it, except the free-form maps
    /// (`headers`, `metadata`, `dialect`), which keep whatever they hold.
    fn with_unknown_fields(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut out: Map<String, Value> = map
                    .iter()
                    .map(|(key, item)| {
                        let free_form = matches!(key.as_str(), "headers" | "metadata" | "dialect");
                        let item = if free_form {
                            item.clone()
                        } else {
                            with_unknown_fields(item)
                        };
                        (key.clone(), item)
                    })
                    .collect();
                out.insert("zz_unknown".into(), json!({"nested": [1, "x"]}));
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(with_unknown_fields).collect()),
            other => other.clone(),
        }
    }

    fn sha(c: char) -> String {
        c.to_string().repeat(64)
    }

    fn create_push() -> CreatePush {
        CreatePush {
            push_id: Some("0190-push".into()),
            namespace: "demo".into(),
            branch: "feature-x".into(),
            options: PushFlags {
                yes: false,
                force: false,
                replace: true,
                manual: true,
            },
            package: PackageMetadata {
                name: Some("demo-package".into()),
                title: Some("Demo".into()),
                description: None,
                version: Some("1.2.0".into()),
                license: Some("CC-BY-4.0".into()),
                public: true,
                dialect: Some(Map::from_iter([("delimiter".into(), json!(";"))])),
                metadata: Map::from_iter([("keywords".into(), json!(["a"]))]),
            },
            datasets: vec![
                DatasetManifest {
                    name: "people".into(),
                    kind: AssetKind::Tabular,
                    metadata: Map::new(),
                    schema: Some(TableSchema {
                        fields: vec![SchemaField {
                            name: "id".into(),
                            field_type: "long".into(),
                            required: true,
                        }],
                    }),
                    files: vec![ManifestFile {
                        path: "people.parquet".into(),
                        sha256: sha('a'),
                        size: 10,
                    }],
                    listing: None,
                },
                DatasetManifest {
                    name: "map".into(),
                    kind: AssetKind::Raster,
                    metadata: Map::from_iter([("title".into(), json!("Map"))]),
                    schema: None,
                    files: vec![ManifestFile {
                        path: "tiles/0.png".into(),
                        sha256: sha('b'),
                        size: 3,
                    }],
                    listing: None,
                },
            ],
            paged_files: false,
        }
    }

    fn create_push_json() -> Value {
        json!({
            "push_id": "0190-push",
            "namespace": "demo",
            "branch": "feature-x",
            "options": {"yes": false, "force": false, "replace": true, "manual": true},
            "package": {
                "name": "demo-package",
                "title": "Demo",
                "version": "1.2.0",
                "license": "CC-BY-4.0",
                "public": true,
                "dialect": {"delimiter": ";"},
                "metadata": {"keywords": ["a"]},
            },
            "datasets": [
                {
                    "name": "people",
                    "kind": "TABULAR",
                    "metadata": {},
                    "schema": {"fields": [{"name": "id", "type": "long", "required": true}]},
                    "files": [{"path": "people.parquet", "sha256": sha('a'), "size": 10}],
                },
                {
                    "name": "map",
                    "kind": "RASTER",
                    "metadata": {"title": "Map"},
                    "files": [{"path": "tiles/0.png", "sha256": sha('b'), "size": 3}],
                },
            ],
        })
    }

    /// JSON of every type of this module, for the OpenAPI check (`contract_tests.rs`).
    pub(crate) fn samples() -> Vec<(&'static str, Value)> {
        vec![
            ("CreatePush", create_push_json()),
            ("PushCreated", serde_json::to_value(push_created()).unwrap()),
            ("PushStatus", serde_json::to_value(push_status()).unwrap()),
            ("DatasetProgress", dataset_pending_json()),
            (
                "CommitAccepted",
                json!({"push_id": "p1", "state": "committing"}),
            ),
            (
                "UploadCompleted",
                json!({"sha256": sha('b'), "size": 100, "staged": true}),
            ),
            ("FileBatch", file_batch_json()),
            ("FilesAccepted", files_accepted_json()),
            (
                "CreatePush",
                json!({
                    "namespace": "demo",
                    "branch": "main",
                    "options": {"yes": false, "force": false, "replace": false, "manual": true},
                    "package": {"public": false},
                    "datasets": [
                        {"name": "scans", "kind": "BLOB", "files": []},
                        {"name": "frames", "kind": "BLOB", "files": [],
                         "listing": {"sha256": sha('d'), "files": 1000000, "bytes": 128000000}},
                    ],
                    "paged_files": true,
                }),
            ),
            ("PacksStaged", json!({"staged": 1000})),
        ]
    }

    fn file_batch_json() -> Value {
        json!({
            "datasets": [{
                "name": "scans",
                "files": [{"path": "a/0001.png", "sha256": sha('a'), "size": 128}],
            }],
        })
    }

    fn files_accepted_json() -> Value {
        json!({
            "uploads": [{
                "sha256": sha('a'),
                "size": 128,
                "method": "PUT",
                "url": "http://127.0.0.1:1/v1/staging/aa?sig=x",
                "headers": {},
                "expires_at": "2026-01-02T03:04:05Z",
            }],
            "already_staged": [sha('b')],
            "more_uploads": true,
            "files": 20000,
        })
    }

    #[test]
    fn file_batches_exact_json() {
        let batch: FileBatch = serde_json::from_value(file_batch_json()).unwrap();
        assert_eq!(batch.datasets[0].files.len(), 1);
        roundtrip(&batch, file_batch_json());
        let accepted: FilesAccepted = serde_json::from_value(files_accepted_json()).unwrap();
        assert!(accepted.more_uploads);
        roundtrip(&accepted, files_accepted_json());
        let paged: CreatePush = serde_json::from_value(samples()[8].1.clone()).unwrap();
        assert!(paged.paged_files);
        assert_eq!(paged.datasets[0].listing, None);
        let listing = paged.datasets[1].listing.as_ref().unwrap();
        assert_eq!((listing.files, listing.bytes), (1_000_000, 128_000_000));
        assert_eq!(
            serde_json::to_value(&paged).unwrap()["datasets"][1]["listing"],
            samples()[8].1["datasets"][1]["listing"]
        );
    }

    #[test]
    fn create_push_exact_json() {
        roundtrip(&create_push(), create_push_json());
    }

    #[test]
    fn create_push_tolerates_unknown_fields_and_defaults() {
        let read: CreatePush =
            serde_json::from_value(with_unknown_fields(&create_push_json())).unwrap();
        assert_eq!(read, create_push());
        // Minimal: no push_id, no metadata maps.
        let minimal: CreatePush = serde_json::from_value(json!({
            "namespace": "demo",
            "branch": "main",
            "options": {"yes": true, "force": false, "replace": false, "manual": false},
            "package": {"public": false},
            "datasets": [{"name": "g", "kind": "GRAPH",
                          "files": [{"path": "g.ttl", "sha256": sha('c'), "size": 1}]}],
        }))
        .unwrap();
        assert_eq!(minimal.push_id, None);
        assert_eq!(minimal.package, PackageMetadata::default());
        assert!(minimal.datasets[0].metadata.is_empty());
        assert_eq!(
            serde_json::to_value(&minimal.package).unwrap(),
            json!({"public": false, "metadata": {}})
        );
    }

    #[test]
    fn unknown_kind_is_refused() {
        let mut value = create_push_json();
        value["datasets"][0]["kind"] = json!("VECTOR");
        assert!(serde_json::from_value::<CreatePush>(value).is_err());
    }

    fn push_created() -> PushCreated {
        PushCreated {
            push_id: "p1".into(),
            state: PushState::Staging,
            uploads: vec![
                Upload {
                    sha256: sha('a'),
                    size: 10,
                    method: "PUT".into(),
                    url: Some("http://127.0.0.1:1/v1/staging/aa?sig=x".into()),
                    headers: BTreeMap::from([("x-amz-checksum-sha256".into(), "qqqq".into())]),
                    expires_at: "2026-01-02T03:04:05Z".into(),
                    parts: None,
                },
                Upload {
                    sha256: sha('b'),
                    size: 100,
                    method: "PUT".into(),
                    url: None,
                    headers: BTreeMap::new(),
                    expires_at: "2026-01-02T03:04:05Z".into(),
                    parts: Some(vec![
                        UploadPart {
                            number: 1,
                            offset: 0,
                            size: 64,
                            url: "http://s3/b?partNumber=1".into(),
                        },
                        UploadPart {
                            number: 2,
                            offset: 64,
                            size: 36,
                            url: "http://s3/b?partNumber=2".into(),
                        },
                    ]),
                },
            ],
            already_staged: vec![sha('c')],
            datasets: vec![dataset_pending()],
            changes: Some(0),
            more_uploads: true,
            unchanged: vec!["scans".into()],
            pack: Some(PackUpload {
                url: "http://127.0.0.1:1/v1/staging/pack?max=16777216&sig=x".into(),
                max_members: 1000,
                max_bytes: 16 << 20,
                max_member_size: 1 << 20,
                expires_at: "2026-01-02T03:04:05Z".into(),
            }),
        }
    }

    fn dataset_pending() -> DatasetProgress {
        DatasetProgress {
            name: "people".into(),
            url: "stone:demo/people".into(),
            iri: "https://data.example.org/demo/people".into(),
            kind: AssetKind::Tabular,
            engine: Engine::Iceberg,
            state: DatasetState::Pending,
            status: None,
            detail: None,
            error: None,
        }
    }

    fn dataset_pending_json() -> Value {
        json!({
            "name": "people",
            "url": "stone:demo/people",
            "iri": "https://data.example.org/demo/people",
            "kind": "TABULAR",
            "engine": "iceberg",
            "state": "pending",
        })
    }

    #[test]
    fn push_created_exact_json() {
        let expected = json!({
            "push_id": "p1",
            "state": "staging",
            "uploads": [
                {
                    "sha256": sha('a'),
                    "size": 10,
                    "method": "PUT",
                    "url": "http://127.0.0.1:1/v1/staging/aa?sig=x",
                    "headers": {"x-amz-checksum-sha256": "qqqq"},
                    "expires_at": "2026-01-02T03:04:05Z",
                },
                {
                    "sha256": sha('b'),
                    "size": 100,
                    "method": "PUT",
                    "headers": {},
                    "expires_at": "2026-01-02T03:04:05Z",
                    "parts": [
                        {"number": 1, "offset": 0, "size": 64, "url": "http://s3/b?partNumber=1"},
                        {"number": 2, "offset": 64, "size": 36, "url": "http://s3/b?partNumber=2"},
                    ],
                },
            ],
            "already_staged": [sha('c')],
            "datasets": [dataset_pending_json()],
            "changes": 0,
            "more_uploads": true,
            "unchanged": ["scans"],
            "pack": {
                "url": "http://127.0.0.1:1/v1/staging/pack?max=16777216&sig=x",
                "max_members": 1000,
                "max_bytes": 16777216,
                "max_member_size": 1048576,
                "expires_at": "2026-01-02T03:04:05Z",
            },
        });
        roundtrip(&push_created(), expected.clone());
        let read: PushCreated = serde_json::from_value(with_unknown_fields(&expected)).unwrap();
        assert_eq!(read, push_created());
    }

    #[test]
    fn commit_and_completion_exact_json() {
        roundtrip(
            &CommitAccepted {
                push_id: "p1".into(),
                state: PushState::Committing,
            },
            json!({"push_id": "p1", "state": "committing"}),
        );
        let read: CommitAccepted =
            serde_json::from_value(json!({"push_id": "p1", "state": "parked", "eta": 3})).unwrap();
        assert_eq!(read.state, PushState::Unknown);
        roundtrip(
            &UploadCompleted {
                sha256: sha('b'),
                size: 100,
                staged: true,
            },
            json!({"sha256": sha('b'), "size": 100, "staged": true}),
        );
    }

    fn push_status() -> PushStatus {
        let mut done = dataset_pending();
        done.state = DatasetState::Done;
        done.status = Some(DatasetStatus::Appended);
        done.detail = Some(DatasetDetail {
            table: Some("demo.people".into()),
            snapshot_id: Some(42),
            rows_added: Some(3),
            total_rows: Some(5),
            schema_changes: vec!["added column note (string)".into()],
            tag: Some("1.2.0".into()),
            expired_snapshots: Some(2),
            expired_files: Some(3),
            expired_bytes: Some(4096),
            ..DatasetDetail::default()
        });
        let failed = DatasetProgress {
            name: "g".into(),
            url: "stone:demo/g".into(),
            iri: "https://data.example.org/demo/g".into(),
            kind: AssetKind::Graph,
            engine: Engine::Graph,
            state: DatasetState::Failed,
            status: None,
            detail: None,
            error: Some(
                Problem::new(422, codes::GRAPH_INVALID_RDF, "Invalid RDF")
                    .with_detail("line 3: unexpected token"),
            ),
        };
        PushStatus {
            push_id: "p1".into(),
            state: PushState::Failed,
            namespace: "demo".into(),
            branch: "main".into(),
            created_at: "2026-01-02T03:04:05Z".into(),
            updated_at: "2026-01-02T03:04:09Z".into(),
            datasets: vec![done, failed],
            changes: Some(7),
            after: None,
            package_node: PackageNodeProgress {
                url: "stone:demo".into(),
                iri: "https://data.example.org/demo".into(),
                status: Some(NodeStatus::Updated),
            },
            result: Some(PushReport {
                finished_at: "2026-01-02T03:04:09Z".into(),
                counts: ResultCounts {
                    appended: 1,
                    failed: 1,
                    ..ResultCounts::default()
                },
                iris: vec!["https://data.example.org/demo/people".into()],
            }),
            error: None,
        }
    }

    #[test]
    fn a_push_status_without_changes_is_read_as_from_an_older_server() {
        let mut answer = serde_json::to_value(push_status()).unwrap();
        answer.as_object_mut().unwrap().remove("changes");
        let status: PushStatus = serde_json::from_value(answer.clone()).unwrap();
        assert_eq!(
            status.changes, None,
            "the client then polls without ?since="
        );
        assert_eq!(serde_json::to_value(&status).unwrap(), answer);
    }

    #[test]
    fn push_status_exact_json() {
        let expected = json!({
            "push_id": "p1",
            "state": "failed",
            "namespace": "demo",
            "branch": "main",
            "created_at": "2026-01-02T03:04:05Z",
            "updated_at": "2026-01-02T03:04:09Z",
            "datasets": [
                {
                    "name": "people",
                    "url": "stone:demo/people",
                    "iri": "https://data.example.org/demo/people",
                    "kind": "TABULAR",
                    "engine": "iceberg",
                    "state": "done",
                    "status": "appended",
                    "detail": {
                        "table": "demo.people",
                        "snapshot_id": 42,
                        "rows_added": 3,
                        "total_rows": 5,
                        "schema_changes": ["added column note (string)"],
                        "expired_snapshots": 2,
                        "expired_files": 3,
                        "expired_bytes": 4096,
                        "tag": "1.2.0",
                    },
                },
                {
                    "name": "g",
                    "url": "stone:demo/g",
                    "iri": "https://data.example.org/demo/g",
                    "kind": "GRAPH",
                    "engine": "graph",
                    "state": "failed",
                    "error": {
                        "type": "urn:stone:problem:graph.invalid_rdf",
                        "title": "Invalid RDF",
                        "status": 422,
                        "detail": "line 3: unexpected token",
                        "code": "graph.invalid_rdf",
                    },
                },
            ],
            "changes": 7,
            "package_node": {
                "url": "stone:demo",
                "iri": "https://data.example.org/demo",
                "status": "updated",
            },
            "result": {
                "finished_at": "2026-01-02T03:04:09Z",
                "counts": {"created": 0, "appended": 1, "replaced": 0, "unchanged": 0,
                           "deleted": 0, "failed": 1},
                "iris": ["https://data.example.org/demo/people"],
            },
        });
        roundtrip(&push_status(), expected.clone());
        // Unknown fields everywhere are ignored, except inside problems, which keep them
        // as extra members.
        let mut noisy = with_unknown_fields(&expected);
        noisy["datasets"][1]["error"]
            .as_object_mut()
            .unwrap()
            .remove("zz_unknown");
        let read: PushStatus = serde_json::from_value(noisy).unwrap();
        assert_eq!(read, push_status());
    }

    #[test]
    fn unknown_states_read_as_unknown() {
        let mut value = serde_json::to_value(push_status()).unwrap();
        value["state"] = json!("archived");
        value["datasets"][0]["state"] = json!("verifying");
        value["datasets"][0]["status"] = json!("merged");
        value["package_node"]["status"] = json!("moved");
        let read: PushStatus = serde_json::from_value(value).unwrap();
        assert_eq!(read.state, PushState::Unknown);
        assert_eq!(read.datasets[0].state, DatasetState::Unknown);
        assert_eq!(read.datasets[0].status, Some(DatasetStatus::Unknown));
        assert_eq!(read.package_node.status, Some(NodeStatus::Unknown));
    }

    #[test]
    fn every_status_value_is_snake_case() {
        let values: Vec<Value> = [
            DatasetStatus::Created,
            DatasetStatus::Appended,
            DatasetStatus::Replaced,
            DatasetStatus::Unchanged,
            DatasetStatus::Deleted,
        ]
        .iter()
        .map(|status| serde_json::to_value(status).unwrap())
        .collect();
        assert_eq!(
            values,
            vec![
                json!("created"),
                json!("appended"),
                json!("replaced"),
                json!("unchanged"),
                json!("deleted")
            ]
        );
        assert!(PushState::Succeeded.is_terminal() && !PushState::Committing.is_terminal());
    }
}
