//! Pages for people (issue 25, part 3): a browser opening a dataset IRI `/{ns}/{name}` or a
//! namespace IRI `/{ns}` (`Accept` that prefers `text/html`, and no `format=`) gets an HTML
//! page; every other client keeps the content negotiation of [`super::content`].
//!
//! Templates: `crates/stone-server/templates/*.html`, compiled into the binary and rendered
//! with minijinja, which escapes every value (titles and descriptions come from other
//! tenants: their markup is shown, never run). No script, CSS inline, readable on a phone.
//! A read the caller may not make answers its status (401/403/404) as a page that says how
//! to get access (`stone login`, a bearer token), not a JSON problem.

use std::sync::OnceLock;

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use minijinja::Environment;
use minijinja::value::Serde;
use serde::Serialize;
use serde_json::Value;
use stone_api::{Engine, PackageNode};

use super::App;
use super::dataset::{ReadScope, dataset_info};
use crate::error::{ApiError, ApiResult};

/// Rows and triples shown in a preview.
const PREVIEW_ROWS: usize = 10;
/// Longest cell shown in a preview, in characters.
const PREVIEW_CELL_CHARS: usize = 200;

fn templates() -> &'static Environment<'static> {
    static TEMPLATES: OnceLock<Environment<'static>> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let mut env = Environment::new();
        // `.html` names turn on HTML auto-escaping for every `{{ … }}`.
        for (name, source) in [
            ("layout.html", include_str!("../../templates/layout.html")),
            ("dataset.html", include_str!("../../templates/dataset.html")),
            ("namespace.html", include_str!("../../templates/namespace.html")),
            ("problem.html", include_str!("../../templates/problem.html")),
        ] {
            if let Err(error) = env.add_template(name, source) {
                tracing::error!(template = name, error = %error, "a page template does not compile");
            }
        }
        env
    })
}

fn render(name: &str, context: impl Serialize) -> ApiResult<String> {
    templates()
        .get_template(name)
        .and_then(|template| template.render(Serde(&context)))
        .map_err(|error| ApiError::internal(anyhow::anyhow!("rendering {name}: {error:#}")))
}

fn html(status: axum::http::StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept"));
    response
}

/// Whether the request is a browser's: no `format=`, and the best `Accept` media type is
/// `text/html` (or XHTML).
pub(super) fn wants_html(
    headers: &HeaderMap,
    query: &std::collections::HashMap<String, String>,
) -> bool {
    if query.contains_key("format") {
        return false;
    }
    super::negotiate::accepted(headers)
        .first()
        .is_some_and(|m| m == "text/html" || m == "application/xhtml+xml")
}

/// An error as a page: the same status and headers (`WWW-Authenticate` included), the
/// problem's title, detail and code, and for 401/403 how to get access.
pub(super) fn problem_page(
    error: ApiError,
    namespace: &str,
    name: Option<&str>,
    branch: &str,
) -> Response {
    let problem = (*error.problem).clone();
    let json = error.into_response();
    let status = json.status();
    let login = status == axum::http::StatusCode::UNAUTHORIZED
        || status == axum::http::StatusCode::FORBIDDEN;
    let mut import_line = match name {
        Some(name) => format!("stone data import stone:{namespace}/{name}"),
        None => format!("stone data import stone:{namespace}/<dataset>"),
    };
    if branch != "main" {
        import_line.push_str(&format!(" --branch {branch}"));
    }
    let context = serde_json::json!({
        "title": problem.title,
        "detail": problem.detail.unwrap_or_default(),
        "code": problem.code,
        "login": login,
        "namespace": namespace,
        "import_line": import_line,
    });
    let body = match render("problem.html", context) {
        Ok(body) => body,
        Err(_) => return json,
    };
    let mut response = html(status, body);
    if let Some(challenge) = json.headers().get(header::WWW_AUTHENTICATE) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, challenge.clone());
    }
    response
}

/// Percent-encodes a query value (everything but RFC 3986 unreserved characters).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `?branch=…[&version=…]` of a read, for links (the branch only when not `main`).
fn read_query(branch: &str, version: Option<&str>) -> String {
    let mut query = Vec::new();
    if branch != "main" {
        query.push(format!("branch={}", encode(branch)));
    }
    if let Some(version) = version {
        query.push(format!("version={}", encode(version)));
    }
    query.join("&")
}

fn with_query(path: String, query: &str) -> String {
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

/// The origin the browser reached us on (for lines to copy), when it is one of this
/// server's: [`super::origin::page_origin`].
fn origin(headers: &HeaderMap, app: &App) -> String {
    super::origin::page_origin(&app.settings, headers)
}

fn text_of(metadata: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    metadata.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn shorten(mut text: String) -> String {
    if text.chars().count() > PREVIEW_CELL_CHARS {
        text = text.chars().take(PREVIEW_CELL_CHARS).collect::<String>() + "…";
    }
    text
}

#[derive(Serialize)]
struct Link {
    name: String,
    label: String,
    link: String,
}

#[derive(Serialize)]
struct Fact {
    label: &'static str,
    value: String,
}

/// The page of a dataset the caller may read.
pub(super) async fn dataset_page(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let (branch, version) = (scope.branch(), scope.version());
    let info = dataset_info(app, namespace, name, scope, None).await?;
    let node = app.db.package_node(namespace, branch).await?;
    let resource_metadata = node
        .as_ref()
        .and_then(|node| node.resources.iter().find(|r| r.name == name))
        .map(|r| r.metadata.clone())
        .unwrap_or_default();
    let title = text_of(&resource_metadata, "title").unwrap_or_else(|| name.to_owned());
    let description = text_of(&resource_metadata, "description");
    let query = read_query(branch, version);
    let content_path = format!("/v1/namespaces/{namespace}/datasets/{name}/content");
    let mut downloads = Vec::new();
    if info.exists {
        match info.engine {
            Engine::ObjectStorage => {
                for file in &info.files {
                    let mut q = query.clone();
                    if info.files.len() > 1 {
                        if !q.is_empty() {
                            q.push('&');
                        }
                        q.push_str(&format!("path={}", encode(&file.path)));
                    }
                    downloads.push(Link {
                        name: file.path.clone(),
                        label: format!("{} ({} bytes)", file.path, file.size),
                        link: with_query(content_path.clone(), &q),
                    });
                }
            }
            _ => {
                for format in &info.formats {
                    let mut q = query.clone();
                    if !q.is_empty() {
                        q.push('&');
                    }
                    q.push_str(&format!("format={format}"));
                    downloads.push(Link {
                        name: format.clone(),
                        label: format.to_uppercase(),
                        link: with_query(content_path.clone(), &q),
                    });
                }
            }
        }
    }
    let versions: Vec<Link> = info
        .versions
        .iter()
        .map(|v| Link {
            name: v.clone(),
            label: v.clone(),
            link: with_query(format!("/{namespace}/{name}"), &read_query(branch, Some(v))),
        })
        .collect();
    let detail = info.detail.as_ref();
    let mut size = Vec::new();
    match info.engine {
        Engine::Iceberg => {
            if let Some(rows) = detail.and_then(|d| d.total_rows) {
                size.push(Fact {
                    label: "Rows",
                    value: rows.to_string(),
                });
            }
        }
        Engine::Graph => {
            if let Some(triples) = detail.and_then(|d| d.total_triples) {
                size.push(Fact {
                    label: "Triples",
                    value: triples.to_string(),
                });
            }
            if let Some(graph) = detail.and_then(|d| d.graph.clone()) {
                size.push(Fact {
                    label: "Named graph",
                    value: graph,
                });
            }
        }
        Engine::ObjectStorage => {
            size.push(Fact {
                label: "Files",
                value: info.files.len().to_string(),
            });
            if let Some(bytes) = info.size {
                size.push(Fact {
                    label: "Bytes",
                    value: bytes.to_string(),
                });
            }
        }
    }
    let (preview_columns, preview_rows, preview_caption) = if info.exists {
        preview(app, namespace, name, scope, &info).await?
    } else {
        (Vec::new(), Vec::new(), String::new())
    };
    let schema: Vec<Value> = info
        .schema
        .iter()
        .flatten()
        .map(|c| serde_json::json!({"name": c.name, "type": c.data_type, "required": c.required}))
        .collect();
    let mut import_line = format!("stone data import stone:{namespace}/{name}");
    if branch != "main" {
        import_line.push_str(&format!(" --branch {branch}"));
    }
    if let Some(version) = version {
        import_line.push_str(&format!(" --version {version}"));
    }
    let duckdb_line = (info.engine == Engine::Iceberg && info.exists).then(|| {
        let mut q = query.clone();
        if !q.is_empty() {
            q.push('&');
        }
        q.push_str("format=parquet");
        format!(
            "SELECT * FROM read_parquet('{}{}') LIMIT 10;",
            origin(headers, app),
            with_query(content_path.clone(), &q)
        )
    });
    let context = serde_json::json!({
        "title": title,
        "description": description,
        "namespace": namespace,
        "namespace_link": with_query(format!("/{namespace}"), &read_query(branch, None)),
        "name": name,
        "url": info.url,
        "iri": info.iri,
        "kind": info.kind.to_string(),
        "engine": info.engine,
        "branch": branch,
        "version": version,
        "versions": versions,
        "size": size,
        "downloads": downloads,
        "schema": schema,
        "preview_columns": preview_columns,
        "preview_rows": preview_rows,
        "preview_caption": preview_caption,
        "import_line": import_line,
        "duckdb_line": duckdb_line,
    });
    Ok(html(
        axum::http::StatusCode::OK,
        render("dataset.html", context)?,
    ))
}

type Preview = (Vec<String>, Vec<Vec<String>>, String);

/// The first rows (a table), the first triples (a graph) or the files (object storage).
async fn preview(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    info: &stone_api::DatasetInfo,
) -> ApiResult<Preview> {
    match info.engine {
        Engine::Iceberg => {
            let mut batches = app
                .engines
                .iceberg
                .scan(namespace, name, scope.table_ref())
                .await
                .map_err(ApiError::internal)?;
            let mut columns = Vec::new();
            let mut rows: Vec<Vec<String>> = Vec::new();
            let options = arrow_cast::display::FormatOptions::default().with_null("");
            while rows.len() < PREVIEW_ROWS {
                let Some(batch) = batches.next().await else {
                    break;
                };
                let batch = batch.map_err(ApiError::internal)?;
                if columns.is_empty() {
                    columns = batch
                        .schema()
                        .fields()
                        .iter()
                        .map(|f| f.name().clone())
                        .collect();
                }
                let formatters = batch
                    .columns()
                    .iter()
                    .map(|c| arrow_cast::display::ArrayFormatter::try_new(c.as_ref(), &options))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(ApiError::internal)?;
                for row in 0..batch.num_rows().min(PREVIEW_ROWS - rows.len()) {
                    rows.push(
                        formatters
                            .iter()
                            .map(|f| shorten(f.value(row).to_string()))
                            .collect(),
                    );
                }
            }
            let caption = format!("The first {} rows", rows.len());
            Ok((columns, rows, caption))
        }
        Engine::Graph => {
            let graph = scope.graph_iri(&app.settings.public_host, namespace, name);
            let sparql = format!(
                "SELECT ?s ?p ?o WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }} LIMIT {PREVIEW_ROWS}"
            );
            let answer = app
                .engines
                .graph
                .query(&sparql)
                .await
                .map_err(ApiError::internal)?;
            let rows: Vec<Vec<String>> = answer["results"]["bindings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|binding| ["s", "p", "o"].iter().map(|v| term(&binding[*v])).collect())
                .collect();
            let caption = format!("The first {} triples", rows.len());
            Ok((
                vec!["Subject".into(), "Predicate".into(), "Object".into()],
                rows,
                caption,
            ))
        }
        Engine::ObjectStorage => {
            let rows = info
                .files
                .iter()
                .map(|f| vec![f.path.clone(), f.size.to_string(), f.sha256.clone()])
                .collect();
            Ok((
                vec!["Path".into(), "Bytes".into(), "sha256".into()],
                rows,
                "The files".to_owned(),
            ))
        }
    }
}

/// A SPARQL JSON results term as Turtle would write it.
fn term(value: &Value) -> String {
    let text = value["value"].as_str().unwrap_or_default();
    let shown = match value["type"].as_str() {
        Some("uri") => format!("<{text}>"),
        Some("bnode") => format!("_:{text}"),
        _ => match (value["xml:lang"].as_str(), value["datatype"].as_str()) {
            (Some(lang), _) => format!("\"{text}\"@{lang}"),
            (None, Some(datatype)) => format!("\"{text}\"^^<{datatype}>"),
            _ => format!("\"{text}\""),
        },
    };
    shorten(shown)
}

/// The page of a namespace: its package on the branch and the datasets of it.
pub(super) fn namespace_page(node: &PackageNode) -> ApiResult<Response> {
    let package = &node.package;
    let query = read_query(&node.branch, None);
    let datasets: Vec<Value> = node
        .resources
        .iter()
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "title": text_of(&r.metadata, "title").unwrap_or_default(),
                "kind": r.kind.to_string(),
                "link": with_query(format!("/{}/{}", node.namespace, r.name), &query),
            })
        })
        .collect();
    let context = serde_json::json!({
        "title": package.title.clone().or_else(|| package.name.clone()).unwrap_or_else(|| node.namespace.clone()),
        "description": package.description,
        "namespace": node.namespace,
        "url": node.url,
        "branch": node.branch,
        "version": package.version,
        "license": package.license,
        "updated_at": node.updated_at,
        "datasets": datasets,
    });
    Ok(html(
        axum::http::StatusCode::OK,
        render("namespace.html", context)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_is_escaped() {
        let page = render(
            "problem.html",
            serde_json::json!({"title": "<script>alert(1)</script>", "detail": "a\" onload=\"x", "code": "c"}),
        )
        .unwrap();
        assert!(!page.contains("<script>alert"), "{page}");
        assert!(
            page.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;")
                || page.contains("&lt;script&gt;")
        );
        assert!(!page.contains("a\" onload"));
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(encode("feature/x y"), "feature%2Fx%20y");
        assert_eq!(read_query("main", None), "");
        assert_eq!(read_query("dev", Some("1.0.0")), "branch=dev&version=1.0.0");
    }
}
