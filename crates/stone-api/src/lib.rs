//! Wire types of the stone push API, shared by the client and `stone-server`.
//!
//! No I/O: serde types, plus the pure checks the server applies to requests ([`validate`],
//! [`signature`]), which the fuzz targets reach. The same types are described by `openapi.yaml` (OpenAPI 3.1) in this
//! crate ([`OPENAPI_YAML`]); the server's contract tests validate its responses against it.
//!
//! Conventions every type follows, which either side may rely on:
//!
//! - field names are snake_case; enum values are snake_case, except asset kinds
//!   (`TABULAR`, …);
//! - optional fields are omitted when absent (never `null`), and absent and `null` read the
//!   same;
//! - unknown fields are ignored on read, so either side may add fields in a later API
//!   version; enums the client reads (states, statuses) read unknown values as `unknown`;
//! - times are RFC 3339 strings in UTC (`2026-01-02T03:04:05Z`);
//! - sha256 digests are 64 lowercase hex characters;
//! - errors are RFC 9457 problem details ([`Problem`], `application/problem+json`) with a
//!   stable dotted [`Problem::code`] (see [`codes`]).
//!
//! The flow, paths relative to the API base (`…/v1`): `GET /info`; `POST /pushes` with a
//! [`CreatePush`] manifest → [`PushCreated`] (upload URLs only for missing content); upload
//! to those URLs (they carry their own authorization: never send the API token with them);
//! `POST /pushes/{id}/commit` → 202 [`CommitAccepted`]; poll `GET /pushes/{id}` →
//! [`PushStatus`] until its state is `succeeded` or `failed`. Re-posting the manifest with
//! the same `push_id` resumes the push (fresh URLs for whatever is still missing).

pub mod event;
pub mod info;
pub mod listing;
pub mod pack;
pub mod problem;
pub mod push;
pub mod read;
pub mod redact;
pub mod signature;
pub mod validate;

pub use event::{
    CreateSubscription, Delivery, DeliveryCounts, DeliveryList, Event, EventPage, EventType,
    MAX_EVENT_PAGE, MAX_EVENT_WAIT_SECONDS, Redelivered, Subscription, SubscriptionCreated,
    SubscriptionList, TargetFormat,
};
pub use info::{
    AuthMode, Identity, OidcInfo, ProtectedRoles, ServerInfo, StagingInfo, StagingStoreKind,
    StepUp, roles_of,
};
pub use listing::ListingDigest;
pub use pack::{PackUpload, PacksStaged};
pub use problem::{PROBLEM_CONTENT_TYPE, Problem, Violation, codes};
pub use push::{
    CommitAccepted, CreatePush, DatasetDetail, DatasetFiles, DatasetManifest, DatasetProgress,
    DatasetState, DatasetStatus, FileBatch, FilesAccepted, FolderListing, MAX_FILE_BATCH,
    MAX_STATUS_PAGE, ManifestFile, NodeStatus, OutlinedDataset, PackageMetadata,
    PackageNodeProgress, PushCreated, PushFlags, PushOutline, PushReport, PushState, PushStatus,
    ResultCounts, SchemaField, TableSchema, Upload, UploadCompleted, UploadPart,
};
pub use read::{ColumnInfo, DatasetInfo, FileInfo, PackageNode, PackageResource};
pub use redact::redact_url;
pub use stone_package::{AssetKind, Engine};

/// Version of this API; the path prefix is `/v{API_VERSION}`.
pub const API_VERSION: &str = "1";

/// Path prefix of every endpoint.
pub const API_PREFIX: &str = "/v1";

/// The OpenAPI 3.1 document describing these types and the endpoints.
pub const OPENAPI_YAML: &str = include_str!("../openapi.yaml");

/// Whether `value` is a sha256 digest as the API writes it: 64 lowercase hex characters.
pub fn is_sha256(value: &str) -> bool {
    value.len() == 64
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod contract_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_shape() {
        assert!(is_sha256(&"ab".repeat(32)));
        assert!(!is_sha256(&"AB".repeat(32)));
        assert!(!is_sha256("abc"));
        assert!(!is_sha256(&"g".repeat(64)));
    }

    #[test]
    fn openapi_document_is_embedded() {
        assert!(OPENAPI_YAML.starts_with("openapi: 3.1"));
    }
}
