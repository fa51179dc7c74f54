//! What every read of a dataset shares: the authorized scope (branch, version), the
//! dataset's kind and description, and the not-found answers.

use std::collections::HashMap;

use axum::http::StatusCode;
use stone_api::{AssetKind, ColumnInfo, DatasetInfo, Engine, FileInfo, codes};

use super::App;
use crate::auth::Caller;
use crate::engines::graph_versions;
use crate::engines::iceberg::TableRef;
use crate::error::{ApiError, ApiResult};
use crate::iri::{dataset_urls, graph_iri, graph_version_iri};

/// The one read check, called by every read route: see [`crate::authz::Authorizer::authorize_read`].
pub async fn authorize_read(
    app: &App,
    caller: &Caller,
    namespace: &str,
    branch: &str,
) -> ApiResult<()> {
    app.authz
        .authorize_read(&app.db, caller, namespace, branch)
        .await
}

/// What a read of a dataset may see, decided once per request: the branch the caller is
/// authorized to read and, optionally, a version OF THAT BRANCH. [`ReadScope::authorize`]
/// is the only way to make one, and it runs [`authorize_read`] on the branch; every
/// dataset read takes its branch and version from here and resolves the engine's ref
/// through it ([`ReadScope::table_ref`], [`ReadScope::graph_iri`]; object storage keeps
/// versions under the branch). So `version` never names a branch, nor a version another
/// branch holds.
#[derive(Debug, Clone)]
pub(super) struct ReadScope {
    branch: String,
    version: Option<String>,
}

impl ReadScope {
    /// The scope of a read of `namespace/name` asked with `query` (`branch=`, `version=`),
    /// once the caller may read the branch. A `version` no push could have given (the
    /// push API's rule: `[A-Za-z0-9_.+-]`, not starting with `.`, at most 255 bytes) names
    /// no version: 404, before it reaches an engine.
    pub(super) async fn authorize(
        app: &App,
        caller: &Caller,
        namespace: &str,
        name: &str,
        query: &HashMap<String, String>,
    ) -> ApiResult<Self> {
        let branch = branch_of(query);
        authorize_read(app, caller, namespace, &branch).await?;
        let version = match query.get("version").filter(|v| !v.is_empty()) {
            Some(version) if !stone_api::validate::is_version_name(version) => {
                return Err(no_such_version(namespace, name, &branch, version));
            }
            version => version.cloned(),
        };
        Ok(Self { branch, version })
    }

    /// The authorized branch.
    pub(super) fn branch(&self) -> &str {
        &self.branch
    }

    /// The version of the branch asked for, if any.
    pub(super) fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The Iceberg ref: the branch's head, or the branch's version.
    pub(super) fn table_ref(&self) -> TableRef<'_> {
        TableRef::of(&self.branch, self.version.as_deref())
    }

    /// The named graph: the branch's graph, or the snapshot graph of the branch's version.
    pub(super) fn graph_iri(&self, public_host: &str, namespace: &str, name: &str) -> String {
        match &self.version {
            Some(version) => graph_version_iri(public_host, namespace, name, &self.branch, version),
            None => graph_iri(public_host, namespace, name, &self.branch),
        }
    }
}

/// The `branch` query parameter; `main` when absent.
pub(super) fn branch_of(query: &HashMap<String, String>) -> String {
    query
        .get("branch")
        .filter(|b| !b.is_empty())
        .cloned()
        .unwrap_or_else(|| "main".to_owned())
}

pub(super) fn not_found(detail: String) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::REQUEST_NOT_FOUND,
        "Not found",
        detail,
    )
}

/// 404 `dataset.not_found`.
pub(super) fn not_found_dataset(detail: String) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::DATASET_NOT_FOUND,
        "No such dataset",
        detail,
    )
}

/// The kind of a dataset on a branch: from the package node, else from the last write's
/// head. `None` when neither knows it.
pub(super) async fn kind_of(
    app: &App,
    namespace: &str,
    name: &str,
    branch: &str,
) -> ApiResult<Option<AssetKind>> {
    let from_node = app
        .db
        .package_node(namespace, branch)
        .await?
        .and_then(|node| node.resources.into_iter().find(|r| r.name == name))
        .map(|r| r.kind);
    Ok(match from_node {
        Some(kind) => Some(kind),
        None => app
            .db
            .dataset_head(namespace, name, branch)
            .await?
            .map(|(kind, _)| kind),
    })
}

/// What the engine holds for a dataset on a branch, with the branch's own versions, schema,
/// files and the formats it is served in. With `version`, the files are the version's
/// (object storage), and a version the branch does not have is 404.
pub(super) async fn dataset_info(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    kind: Option<AssetKind>,
) -> ApiResult<DatasetInfo> {
    let (branch, version) = (scope.branch(), scope.version());
    let kind = match kind {
        Some(kind) => kind,
        None => kind_of(app, namespace, name, branch).await?.ok_or_else(|| {
            not_found(format!(
                "no dataset {namespace}/{name} is known on {branch} (pass kind= to ask the engine)"
            ))
        })?,
    };
    let public_host = &app.settings.public_host;
    let detail = app
        .engines
        .describe(kind, namespace, name, branch, public_host)
        .await
        .map_err(ApiError::internal)?;
    let (url, iri) = dataset_urls(public_host, namespace, name);
    let mut info = DatasetInfo {
        name: name.to_owned(),
        url,
        iri,
        branch: branch.to_owned(),
        kind,
        engine: kind.engine(),
        exists: detail.is_some(),
        detail,
        versions: Vec::new(),
        schema: None,
        files: Vec::new(),
        size: None,
        sha256: None,
        formats: super::negotiate::format_names(kind),
    };
    if !info.exists {
        return Ok(info);
    }
    match kind.engine() {
        Engine::Iceberg => {
            let iceberg = &app.engines.iceberg;
            info.versions = iceberg
                .versions(namespace, name, branch)
                .await
                .map_err(ApiError::internal)?
                .into_iter()
                .map(|r| r.name)
                .collect();
            // The schema of what is read: the version's snapshot with `version`.
            info.schema = iceberg
                .snapshot_of(namespace, name, scope.table_ref())
                .await
                .map_err(ApiError::internal)?
                .map(|snapshot| {
                    snapshot
                        .schema
                        .into_iter()
                        .map(|column| ColumnInfo {
                            name: column.name,
                            data_type: column.data_type,
                            required: column.required,
                        })
                        .collect()
                });
        }
        Engine::Graph => {
            info.versions =
                graph_versions(&app.engines.graph, public_host, namespace, name, branch)
                    .await
                    .map_err(ApiError::internal)?;
        }
        Engine::ObjectStorage => {
            let blob = &app.engines.blob;
            info.versions = blob
                .versions(namespace, name, branch)
                .await
                .map_err(ApiError::internal)?;
            let head = match version {
                Some(version) => blob.version(namespace, name, branch, version).await,
                None => blob.head(namespace, name, branch).await,
            }
            .map_err(ApiError::internal)?;
            if let Some(head) = head {
                info.size = Some(head.files.iter().map(|f| f.size).sum());
                if let [one] = head.files.as_slice() {
                    info.sha256 = Some(one.sha256.clone());
                }
                info.files = head
                    .files
                    .into_iter()
                    .map(|f| FileInfo {
                        path: f.path,
                        sha256: f.sha256,
                        size: f.size,
                    })
                    .collect();
            }
        }
    }
    if let Some(version) = version
        && !info.versions.iter().any(|v| v == version)
    {
        return Err(no_such_version(namespace, name, branch, version));
    }
    Ok(info)
}

/// 404 for a version the dataset does not have on the branch.
pub(super) fn no_such_version(
    namespace: &str,
    name: &str,
    branch: &str,
    version: &str,
) -> ApiError {
    not_found_dataset(format!(
        "dataset {namespace}/{name} has no version {version} on branch {branch}; its metadata lists its versions"
    ))
}
