//! Read access: the package node of a namespace and what an engine holds for a dataset.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use stone_package::{AssetKind, Engine};

use crate::push::{DatasetDetail, PackageMetadata};

/// Answer of `GET /v1/namespaces/{namespace}/package?branch=…`: the package node as the
/// last successful push to that namespace and branch wrote it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackageNode {
    /// Namespace.
    pub namespace: String,
    /// Branch.
    pub branch: String,
    /// `stone:<ns>`.
    pub url: String,
    /// `https://<public_host>/<ns>`.
    pub iri: String,
    /// Package metadata (public, dialect, version, …).
    pub package: PackageMetadata,
    /// The package's datasets, in package order.
    pub resources: Vec<PackageResource>,
    /// The push that wrote it.
    pub push_id: String,
    /// When (RFC 3339).
    pub updated_at: String,
}

/// A dataset of a package node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackageResource {
    /// Slug.
    pub name: String,
    /// `stone:<ns>/<name>`.
    pub url: String,
    /// `https://<public_host>/<ns>/<name>`.
    pub iri: String,
    /// Asset kind.
    pub kind: AssetKind,
    /// Engine.
    pub engine: Engine,
    /// Resource metadata as pushed.
    #[serde(default)]
    pub metadata: Map<String, Value>,
}

/// Answer of `GET /v1/namespaces/{namespace}/datasets/{name}?branch=…`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// Slug.
    pub name: String,
    /// `stone:<ns>/<name>`.
    pub url: String,
    /// `https://<public_host>/<ns>/<name>`.
    pub iri: String,
    /// Branch.
    pub branch: String,
    /// Asset kind.
    pub kind: AssetKind,
    /// Engine.
    pub engine: Engine,
    /// Whether the engine holds anything for it on the branch.
    pub exists: bool,
    /// Engine figures (`snapshot_id`, `total_rows`; `graph`, `total_triples`; `files`,
    /// `bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<DatasetDetail>,
    /// Named versions a reader may ask for with `version=`, sorted: Iceberg tags for
    /// TABULAR (table-wide); for the other kinds the versions kept on this branch (a
    /// snapshot graph, a version head each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<String>,
    /// TABULAR: the columns of the snapshot on the branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Vec<ColumnInfo>>,
    /// Object storage: the files of the dataset, sorted by path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileInfo>,
    /// Object storage: total bytes of the files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Object storage with exactly one file: its sha256 (the content's `ETag`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The `format=` values the content endpoint serves for this dataset, the default
    /// first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<String>,
}

/// A column of a TABULAR dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnInfo {
    /// Column name.
    pub name: String,
    /// Iceberg type as Iceberg prints it (`long`, `string`, `decimal(10, 2)`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// Whether the column is never null.
    pub required: bool,
}

/// A file of an object-storage dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileInfo {
    /// Path inside the resource (`a/b.tif`).
    pub path: String,
    /// sha256, 64 lowercase hex digits.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) fn samples() -> Vec<(&'static str, Value)> {
        vec![
            (
                "PackageNode",
                json!({
                    "namespace": "demo", "branch": "main", "url": "stone:demo",
                    "iri": "https://h/demo", "package": {"public": false, "metadata": {}},
                    "resources": [{"name": "m", "url": "stone:demo/m", "iri": "https://h/demo/m",
                                   "kind": "BLOB", "engine": "object_storage", "metadata": {}}],
                    "push_id": "p1", "updated_at": "2026-01-02T03:04:05Z",
                }),
            ),
            (
                "DatasetInfo",
                json!({"name": "m", "url": "stone:demo/m", "iri": "https://h/demo/m",
                       "branch": "main", "kind": "BLOB", "engine": "object_storage",
                       "exists": true, "detail": {"files": 2, "bytes": 10}}),
            ),
        ]
    }

    #[test]
    fn package_node_exact_json() {
        let node = PackageNode {
            namespace: "demo".into(),
            branch: "main".into(),
            url: "stone:demo".into(),
            iri: "https://h/demo".into(),
            package: PackageMetadata {
                version: Some("1.0.0".into()),
                public: true,
                ..PackageMetadata::default()
            },
            resources: vec![PackageResource {
                name: "people".into(),
                url: "stone:demo/people".into(),
                iri: "https://h/demo/people".into(),
                kind: AssetKind::Tabular,
                engine: Engine::Iceberg,
                metadata: Map::new(),
            }],
            push_id: "p1".into(),
            updated_at: "2026-01-02T03:04:05Z".into(),
        };
        let expected = json!({
            "namespace": "demo",
            "branch": "main",
            "url": "stone:demo",
            "iri": "https://h/demo",
            "package": {"version": "1.0.0", "public": true, "metadata": {}},
            "resources": [{"name": "people", "url": "stone:demo/people",
                           "iri": "https://h/demo/people", "kind": "TABULAR",
                           "engine": "iceberg", "metadata": {}}],
            "push_id": "p1",
            "updated_at": "2026-01-02T03:04:05Z",
        });
        assert_eq!(serde_json::to_value(&node).unwrap(), expected);
        let mut noisy = expected.clone();
        noisy["extra"] = json!(1);
        noisy["resources"][0]["extra"] = json!(2);
        assert_eq!(serde_json::from_value::<PackageNode>(noisy).unwrap(), node);
    }

    #[test]
    fn dataset_info_exact_json() {
        let info = DatasetInfo {
            name: "g".into(),
            url: "stone:demo/g".into(),
            iri: "https://h/demo/g".into(),
            branch: "dev".into(),
            kind: AssetKind::Graph,
            engine: Engine::Graph,
            exists: true,
            detail: Some(DatasetDetail {
                graph: Some("https://h/demo/g/branch/dev".into()),
                total_triples: Some(12),
                ..DatasetDetail::default()
            }),
            versions: Vec::new(),
            schema: None,
            files: Vec::new(),
            size: None,
            sha256: None,
            formats: Vec::new(),
        };
        let expected = json!({
            "name": "g", "url": "stone:demo/g", "iri": "https://h/demo/g", "branch": "dev",
            "kind": "GRAPH", "engine": "graph", "exists": true,
            "detail": {"graph": "https://h/demo/g/branch/dev", "total_triples": 12},
        });
        assert_eq!(serde_json::to_value(&info).unwrap(), expected);
        let mut noisy = expected.clone();
        noisy["detail"]["new_metric"] = json!(3);
        assert_eq!(serde_json::from_value::<DatasetInfo>(noisy).unwrap(), info);
    }
}
