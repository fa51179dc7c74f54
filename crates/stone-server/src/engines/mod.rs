//! Storage engines, one per AssetKind family. The engine is chosen from the AssetKind
//! alone (TABULAR → [`iceberg`]).

pub mod blob;
pub mod graph;
pub mod iceberg;
pub(crate) mod locks;
mod set;

pub use set::Engines;

use crate::iri::graph_version_iri;
use graph::{GraphEngine, GraphError};

/// The named versions of a GRAPH dataset on a branch (its snapshot graphs), sorted.
pub async fn graph_versions(
    graph: &GraphEngine,
    public_host: &str,
    namespace: &str,
    name: &str,
    branch: &str,
) -> Result<Vec<String>, GraphError> {
    let prefix = graph_version_iri(public_host, namespace, name, branch, "");
    Ok(graph
        .graphs_with_prefix(&prefix)
        .await?
        .into_iter()
        .filter_map(|iri| iri.strip_prefix(&prefix).map(str::to_owned))
        .filter(|version| !version.is_empty() && !version.contains('/'))
        .collect())
}
