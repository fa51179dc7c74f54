//! The records of a push (spec: `PushPackage`, `PushOptions`, `PushResult`): what a handler
//! receives and returns, in process (the `stone-push` crate re-exports them) and through
//! the plugin protocol (`push` params and result). Public and stable; serialized with serde
//! as the protocol's JSON. A Rust plugin gets them from this crate without the HTTP and
//! object-storage stack of `stone-push`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use stone_api::push::{PackageMetadata, TableSchema};
use stone_package::{AssetKind, Engine};

/// A resolved package, ready to push: every resource with its kind, content hash, size and
/// metadata, plus package-level metadata.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushPackage {
    /// The package directory (where `.stone/` keeps resume state), as an absolute path.
    pub root: PathBuf,
    /// Where to push: `stone:<ns>`, or an https URL of a configured environment host.
    pub destination: String,
    /// The target namespace.
    pub namespace: String,
    /// Package-level metadata (name, version, `public`, `dialect`, free metadata).
    pub metadata: PackageMetadata,
    pub resources: Vec<PushResource>,
}

/// One resource: one dataset `stone:<ns>/<name>`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushResource {
    /// The dataset name (slug).
    pub name: String,
    /// The resource's path in the package, as written in `datasets.yaml`.
    pub path: String,
    pub kind: AssetKind,
    /// sha256 of the files pushed, `files` (one file of a resource that is not a folder:
    /// that file's sha256; otherwise the sha256 of one line `<sha256> <size> <path>\n` per
    /// file, in `files`' order). For TABULAR: of the Parquet files the client produced,
    /// like `size` (never the CSV/TSV they were converted from).
    pub sha256: String,
    /// Total size of the files pushed, `files`.
    pub size: u64,
    /// Resource metadata, as given.
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// TABULAR: the columns of the Parquet files pushed.
    pub schema: Option<TableSchema>,
    /// What is uploaded. For TABULAR: the Parquet files the client produced.
    pub files: Vec<PushFile>,
}

/// A file to upload.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushFile {
    /// Path inside the resource (the file name for a one-file resource).
    pub path: String,
    /// Where the bytes are on this machine (absolute, as the host sends it).
    pub local: PathBuf,
    pub sha256: String,
    pub size: u64,
}

/// What the user asked for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushOptions {
    /// The environment (`--env`).
    pub env: String,
    /// The normalized branch.
    pub branch: String,
    pub yes: bool,
    pub force: bool,
    pub replace: bool,
    /// True when a person runs the push (not CI).
    pub manual: bool,
    /// Uploads at once.
    pub jobs: usize,
    /// How many times a failed request (connection error, 429, 5xx) is retried.
    #[serde(default = "default_retries")]
    pub retries: u32,
}

/// The default of [`PushOptions::retries`].
pub const DEFAULT_RETRIES: u32 = 6;

fn default_retries() -> u32 {
    DEFAULT_RETRIES
}

/// The outcome of a push.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushResult {
    pub push_id: String,
    /// Which handler pushed.
    pub handler: String,
    pub datasets: Vec<DatasetOutcome>,
    /// The package node of the namespace.
    pub package_node: Option<DatasetOutcome>,
    /// Bytes uploaded by this run (0 when the server had everything).
    pub uploaded_bytes: u64,
    /// Contents the server already had.
    pub already_staged: usize,
}

/// One dataset's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DatasetOutcome {
    /// `stone:<ns>/<name>`.
    pub url: String,
    /// The https IRI.
    pub iri: String,
    pub kind: Option<AssetKind>,
    pub engine: Option<Engine>,
    /// `created`, `appended`, `replaced`, `unchanged`, `deleted` (datasets); `created`,
    /// `updated`, `unchanged` (package node).
    pub status: String,
    /// Engine details (rows, snapshot, triples, …), as the server reports them: a JSON
    /// object kept as its text (a push's result may hold 100,000 of them; a parsed
    /// `serde_json::Value` each made most of the client's memory). Read it with
    /// `serde_json::from_str(detail.get())`. Deserialize a record holding one from JSON
    /// text (`from_str`, `from_slice`), not from a `serde_json::Value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<serde_json::value::RawValue>>,
}
