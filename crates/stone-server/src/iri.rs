//! IRIs of what the server publishes: datasets, namespaces, graphs and their versions.

use stone_package::StoneUrl;

/// IRI of the named graph of a GRAPH dataset on a branch.
pub fn graph_iri(public_host: &str, namespace: &str, name: &str, branch: &str) -> String {
    format!("https://{public_host}/{namespace}/{name}/branch/{branch}")
}

/// IRI of the snapshot graph of a named version of a GRAPH dataset on a branch:
/// `{graph_iri}/version/{version}`. No dataset graph has this form (branch names hold no
/// `/`), and version names (`[A-Za-z0-9_.+-]`, checked by the push API) need no escaping.
pub fn graph_version_iri(
    public_host: &str,
    namespace: &str,
    name: &str,
    branch: &str,
    version: &str,
) -> String {
    format!(
        "{}/version/{version}",
        graph_iri(public_host, namespace, name, branch)
    )
}

/// `stone:<ns>/<name>` and `https://<host>/<ns>/<name>`.
pub fn dataset_urls(public_host: &str, namespace: &str, name: &str) -> (String, String) {
    match (
        stone_package::Label::parse(namespace),
        stone_package::Label::parse(name),
    ) {
        (Ok(ns), Ok(n)) => {
            let url = StoneUrl::dataset(ns, n);
            (url.to_string(), url.iri(public_host))
        }
        _ => (
            format!("stone:{namespace}/{name}"),
            format!("https://{public_host}/{namespace}/{name}"),
        ),
    }
}

/// `stone:<ns>` and `https://<host>/<ns>`.
pub fn namespace_urls(public_host: &str, namespace: &str) -> (String, String) {
    (
        format!("stone:{namespace}"),
        format!("https://{public_host}/{namespace}"),
    )
}
