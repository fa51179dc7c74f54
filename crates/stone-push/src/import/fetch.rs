//! Reaching a source: the server's content endpoint, a plain GET, or an object store. Each
//! answers [`Fetch::Unchanged`] when the remote still has what the lock file recorded
//! (conditional GET with the recorded `ETag`, or the object's `ETag` from a HEAD), so a
//! second import downloads nothing.

use bytes::Bytes;
use futures::stream::{BoxStream, StreamExt, TryStreamExt};
use reqwest::StatusCode;
use reqwest::header::{self, HeaderMap, HeaderValue};
use stone_api::{AssetKind, DatasetInfo, Engine, FileInfo};
use url::Url;

use super::error::{ImportError, ImportErrorKind as Kind};
use super::source::{Source, last_segment};
use stone_http::retry::{self, Resend, SendError};
use stone_http::transport::{self, is_loopback};

/// What the lock file recorded of the previous import of this source.
#[derive(Debug, Clone, Default)]
pub struct Previous {
    pub resolved: String,
    pub etag: Option<String>,
}

/// What to ask for.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    pub format: Option<String>,
    pub branch: Option<String>,
    pub version: Option<String>,
    /// The bearer token (`$STONE_TOKEN`, else the stored login): sent to the environment's
    /// API only.
    pub token: Option<String>,
    /// How many times a request is sent again on a failure worth it (`STONE_HTTP_RETRIES`).
    pub retries: u32,
}

/// A download about to be streamed, and what the source says about it.
pub struct Remote {
    /// The URL read (no credentials in it).
    pub resolved: String,
    pub kind: Option<AssetKind>,
    /// The file name in `ext/<slug>/`.
    pub file_name: String,
    pub etag: Option<String>,
    /// sha256 the source states (server `ETag` of graphs and objects, S3 metadata
    /// `sha256`): the download must match it.
    pub sha256: Option<String>,
    /// Length the source states: the download must match it.
    pub size: Option<u64>,
    pub format: Option<String>,
    pub branch: Option<String>,
    pub version: Option<String>,
    pub snapshot_id: Option<i64>,
    pub body: BoxStream<'static, anyhow::Result<Bytes>>,
}

/// An object-storage dataset of several files: its file list, each file fetched on its own
/// (the content endpoint's `path=`).
pub struct RemoteFiles {
    /// The content URL read, without `path=` (no credentials in it).
    pub resolved: String,
    pub kind: AssetKind,
    pub branch: String,
    pub version: Option<String>,
    /// Path inside the dataset, sha256 and size of each file, as the server states them.
    pub files: Vec<FileInfo>,
    client: reqwest::Client,
    content_url: Url,
    token: Option<String>,
    retries: u32,
    /// `stone:<ns>/<name>`, for messages.
    label: String,
    /// `the server (<api>)`, for messages.
    what: String,
}

impl RemoteFiles {
    /// The bytes of one file of the dataset.
    pub async fn get(
        &self,
        path: &str,
    ) -> anyhow::Result<BoxStream<'static, anyhow::Result<Bytes>>> {
        let mut url = self.content_url.clone();
        url.query_pairs_mut().append_pair("path", path);
        let mut request = self.client.get(url);
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = send(request, self.retries, &self.what).await?;
        if !response.status().is_success() {
            return Err(refused(
                &format!("{} (file {path}): {}", self.label, self.what),
                response,
                self.token.is_some(),
            )
            .await);
        }
        Ok(body_stream(response))
    }
}

/// The outcome of asking.
pub enum Fetch {
    /// The source still holds what was imported; nothing was downloaded.
    Unchanged,
    Changed(Box<Remote>),
    /// A dataset of several files: the caller compares the list with what it has and
    /// fetches the files that changed.
    Files(Box<RemoteFiles>),
}

/// Asks the source, conditionally on `previous`.
pub async fn fetch(
    source: &Source,
    wanted: &Wanted,
    previous: Option<&Previous>,
) -> anyhow::Result<Fetch> {
    match source {
        Source::Service {
            environment,
            namespace,
            name,
            ..
        } => {
            service(
                &environment.options.api,
                namespace.as_str(),
                name.as_str(),
                wanted,
                previous,
            )
            .await
        }
        Source::Http(url) => http(url, wanted, previous).await,
        Source::Object(url) => object(url, wanted, previous).await,
    }
}

fn failure(kind: Kind, message: String) -> ImportError {
    ImportError::new(kind, message)
}

/// An https (or loopback http) client; redirects stay on https (or loopback) and never
/// carry the token (reqwest drops `Authorization` on a redirect to another host, and the
/// service client follows none).
fn client(follow_redirects: bool) -> anyhow::Result<reqwest::Client> {
    let policy = if follow_redirects {
        reqwest::redirect::Policy::custom(|attempt| {
            let url = attempt.url();
            if transport::secure(url) {
                if attempt.previous().len() >= 10 {
                    attempt.error("too many redirects")
                } else {
                    attempt.follow()
                }
            } else {
                attempt.error("a redirect left https")
            }
        })
    } else {
        reqwest::redirect::Policy::none()
    };
    // A read timeout: a server that stops answering ends the import with an error.
    Ok(stone_http::client_builder(stone_http::API_READ_TIMEOUT)
        .redirect(policy)
        .build()?)
}

/// A problem's `detail` (or the body's start) for an error message, and its `code`.
async fn problem_text(response: reqwest::Response) -> (String, Option<String>) {
    // Only the start of an error body is read (a hostile server may send gigabytes).
    let body = match stone_http::read_capped(response, stone_http::MAX_PROBLEM).await {
        Ok(body) => body,
        Err(stone_http::Capped::TooLarge) => {
            return (
                format!(
                    "an error body larger than {} (not read)",
                    stone_http::size_in_words(stone_http::MAX_PROBLEM)
                ),
                None,
            );
        }
        Err(stone_http::Capped::Failed(_)) => Vec::new(),
    };
    let text = String::from_utf8_lossy(&body);
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(value) => (
            value["detail"]
                .as_str()
                .or(value["title"].as_str())
                .unwrap_or_default()
                .to_owned(),
            value["code"]
                .as_str()
                .filter(|code| code.len() <= 100)
                .map(|code| code.chars().filter(|c| !c.is_control()).collect()),
        ),
        Err(_) => (text.chars().take(200).collect(), None),
    }
}

/// Whether an answer says the server could not answer now but may later (exit 5, run
/// again): 429, 502, 503, 504 and 507 (its disk full, issue 54), and 408. Any other 5xx is a failure of the server's
/// own that the same request meets again (a 500 reading a dataset): it was already sent
/// again by [`retry::send`], and running the command again would not help.
fn transient(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::TOO_MANY_REQUESTS
            | StatusCode::REQUEST_TIMEOUT
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT
            | StatusCode::INSUFFICIENT_STORAGE
    )
}

/// An error for a refused answer: 401/403 exit 3, 404 exit 1, 429/502/503/504 exit 5 (run
/// again), any other 5xx exit 1 (the server's own failure, with its code).
async fn refused(what: &str, response: reqwest::Response, token_sent: bool) -> anyhow::Error {
    let status = response.status();
    let (detail, code) = problem_text(response).await;
    let coded = code
        .as_deref()
        .map(|code| format!(" (code {code})"))
        .unwrap_or_default();
    let message = format!("{what} answered {status}{coded}: {detail}");
    let error = match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
            let error = failure(Kind::Unauthorized, message);
            if token_sent {
                error.hint("the token (of `stone login`, or $STONE_TOKEN) may not read this dataset: log in as a user who may")
            } else {
                error.hint(
                    "this dataset is not public: log in with `stone login --env ENV` (in CI: set $STONE_TOKEN)",
                )
            }
        }
        StatusCode::NOT_FOUND => failure(Kind::NotFound, message),
        StatusCode::NOT_ACCEPTABLE => {
            failure(Kind::Format, message).hint("pick another --format (see the dataset's formats)")
        }
        s if transient(s) => failure(Kind::Unavailable, message).hint("run the same command again"),
        s if s.is_server_error() => failure(Kind::ServerFailed, message).hint(
            "the server failed on its side, on every try: running the command again will not \
             help. Report it to the platform's operators with the code and the incident it \
             names; another --format may read the dataset meanwhile",
        ),
        _ => failure(Kind::Failed, message),
    };
    error.into()
}

/// `request` (a GET, so it can be sent again) through [`retry::send`].
async fn send(
    request: reqwest::RequestBuilder,
    retries: u32,
    what: &str,
) -> anyhow::Result<reqwest::Response> {
    let build = || std::future::ready(request.try_clone().ok_or("a GET without a body"));
    match retry::send(retries, Resend::Idempotent, build, |r| {
        tracing::info!("{what}: {} — retrying in {:.1?}", r.reason, r.wait)
    })
    .await
    {
        Ok(response) => Ok(response),
        Err(SendError::Transport(e)) => Err(unreachable(what, &e)),
        Err(SendError::Build(message)) => Err(anyhow::anyhow!(message)),
    }
}

fn unreachable(what: &str, error: &reqwest::Error) -> anyhow::Error {
    failure(
        Kind::Unavailable,
        format!("cannot reach {what}: {}", stone_http::describe(error)),
    )
    .hint("check the network and the URL, then run the same command again")
    .into()
}

fn body_stream(response: reqwest::Response) -> BoxStream<'static, anyhow::Result<Bytes>> {
    response
        .bytes_stream()
        .map_err(|e| anyhow::Error::new(e).context("the download was cut"))
        .boxed()
}

/// A quoted `ETag` holding 64 hex digits is the content's sha256 (the server's contract
/// for graphs and objects).
fn sha256_of_etag(etag: Option<&str>) -> Option<String> {
    let inner = etag?.trim_start_matches("W/").trim_matches('"');
    (inner.len() == 64 && inner.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| inner.to_ascii_lowercase())
}

fn header_text(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

async fn service(
    api: &str,
    namespace: &str,
    name: &str,
    wanted: &Wanted,
    previous: Option<&Previous>,
) -> anyhow::Result<Fetch> {
    let client = client(false)?;
    let base = format!(
        "{}/namespaces/{namespace}/datasets/{name}",
        api.trim_end_matches('/')
    );
    let branch = wanted.branch.clone().unwrap_or_else(|| "main".to_owned());
    let authorized = |request: reqwest::RequestBuilder| match &wanted.token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    let token_sent = wanted.token.is_some();

    let mut info_url = Url::parse(&base)?;
    info_url.query_pairs_mut().append_pair("branch", &branch);
    // With a version, the metadata (a blob's file list above all) is the version's, and
    // a version the dataset does not have is refused here.
    if let Some(version) = &wanted.version {
        info_url.query_pairs_mut().append_pair("version", version);
    }
    let what = format!("the server ({api})");
    let response = send(
        authorized(client.get(info_url.clone())),
        wanted.retries,
        &what,
    )
    .await?;
    if !response.status().is_success() {
        return Err(refused(
            &format!("stone:{namespace}/{name} on {branch}: {what}"),
            response,
            token_sent,
        )
        .await);
    }
    let body = match stone_http::read_capped(response, stone_http::MAX_ANSWER).await {
        Ok(body) => body,
        Err(stone_http::Capped::Failed(e)) => {
            return Err(anyhow::Error::new(e).context(failure(
                Kind::Unavailable,
                format!("{what} did not finish sending the dataset metadata"),
            )));
        }
        Err(stone_http::Capped::TooLarge) => {
            return Err(failure(
                Kind::Failed,
                format!(
                    "{what} sent dataset metadata larger than {}, stone's limit: refused unread",
                    stone_http::size_in_words(stone_http::MAX_ANSWER)
                ),
            )
            .into());
        }
    };
    let info: DatasetInfo = serde_json::from_slice(&body).map_err(|e| {
        anyhow::Error::new(e).context(format!("{what} sent unreadable dataset metadata"))
    })?;
    if !info.exists {
        return Err(failure(
            Kind::NotFound,
            format!("stone:{namespace}/{name} has no content on branch {branch}"),
        )
        .into());
    }
    let format = match &wanted.format {
        Some(format) => format.clone(),
        None => match info.engine {
            Engine::Iceberg => "parquet".to_owned(),
            Engine::Graph => "ttl".to_owned(),
            Engine::ObjectStorage => "bytes".to_owned(),
        },
    };
    if !info.formats.is_empty() && !info.formats.contains(&format) {
        return Err(failure(
            Kind::Format,
            format!(
                "stone:{namespace}/{name} is {} and is served as {}, not {format}",
                info.kind,
                info.formats.join(", ")
            ),
        )
        .into());
    }
    let single = match info.engine {
        Engine::ObjectStorage => match info.files.as_slice() {
            [one] => Some(one.path.rsplit('/').next().unwrap_or(&one.path).to_owned()),
            _ => None,
        },
        _ => Some(format!("{name}.{format}")),
    };

    let mut content_url = Url::parse(&format!("{base}/content"))?;
    {
        let mut query = content_url.query_pairs_mut();
        query
            .append_pair("branch", &branch)
            .append_pair("format", &format);
        if let Some(version) = &wanted.version {
            query.append_pair("version", version);
        }
    }
    let resolved = content_url.to_string();
    let Some(file_name) = single else {
        return Ok(Fetch::Files(Box::new(RemoteFiles {
            resolved,
            kind: info.kind,
            branch,
            version: wanted.version.clone(),
            files: info.files,
            client,
            content_url,
            token: wanted.token.clone(),
            retries: wanted.retries,
            label: format!("stone:{namespace}/{name}"),
            what,
        })));
    };
    let mut request = authorized(client.get(content_url));
    if let Some(previous) = previous.filter(|p| p.resolved == resolved)
        && let Some(etag) = &previous.etag
        && let Ok(value) = HeaderValue::from_str(etag)
    {
        request = request.header(header::IF_NONE_MATCH, value);
    }
    let response = send(request, wanted.retries, &what).await?;
    if response.status() == StatusCode::NOT_MODIFIED {
        return Ok(Fetch::Unchanged);
    }
    if !response.status().is_success() {
        return Err(refused(
            &format!("stone:{namespace}/{name}: {what}"),
            response,
            token_sent,
        )
        .await);
    }
    let headers = response.headers().clone();
    let etag = header_text(&headers, header::ETAG);
    Ok(Fetch::Changed(Box::new(Remote {
        resolved,
        kind: Some(info.kind),
        file_name,
        sha256: sha256_of_etag(etag.as_deref())
            .or(info.sha256.filter(|_| info.engine == Engine::ObjectStorage)),
        size: response.content_length(),
        etag,
        format: Some(format),
        branch: Some(branch),
        version: wanted.version.clone(),
        snapshot_id: header_text(&headers, "stone-snapshot-id").and_then(|s| s.parse().ok()),
        body: body_stream(response),
    })))
}

fn no_options(source: &str, wanted: &Wanted) -> anyhow::Result<()> {
    if wanted.branch.is_some() || wanted.version.is_some() || wanted.format.is_some() {
        return Err(failure(
            Kind::InvalidOption,
            format!("--branch, --version and --format apply to stone datasets, not to {source}"),
        )
        .into());
    }
    Ok(())
}

async fn http(url: &Url, wanted: &Wanted, previous: Option<&Previous>) -> anyhow::Result<Fetch> {
    no_options("an https URL", wanted)?;
    let client = client(true)?;
    let resolved = stone_api::redact_url(url.as_str());
    let mut request = client.get(url.clone());
    if let Some(previous) = previous.filter(|p| p.resolved == resolved)
        && let Some(etag) = &previous.etag
        && let Ok(value) = HeaderValue::from_str(etag)
    {
        request = request.header(header::IF_NONE_MATCH, value);
    }
    let what = url.host_str().unwrap_or("the server").to_owned();
    let response = send(request, wanted.retries, &what).await?;
    if response.status() == StatusCode::NOT_MODIFIED {
        return Ok(Fetch::Unchanged);
    }
    if !response.status().is_success() {
        return Err(refused(&resolved, response, false).await);
    }
    let headers = response.headers().clone();
    Ok(Fetch::Changed(Box::new(Remote {
        resolved,
        kind: None,
        file_name: last_segment(response.url())
            .or_else(|| last_segment(url))
            .unwrap_or_else(|| "data".to_owned()),
        etag: header_text(&headers, header::ETAG),
        sha256: None,
        size: response.content_length(),
        format: None,
        branch: None,
        version: None,
        snapshot_id: None,
        body: body_stream(response),
    })))
}

/// Options of the object store from the cloud's usual environment variables (`AWS_*`,
/// `GOOGLE_*`, `AZURE_*`, lowercased as object_store's config keys). A plain-http
/// endpoint is allowed on a loopback address only.
fn cloud_options() -> Vec<(String, String)> {
    let mut options: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| {
            k.starts_with("AWS_") || k.starts_with("GOOGLE_") || k.starts_with("AZURE_")
        })
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    let loopback_http = options.iter().any(|(k, v)| {
        k.starts_with("aws_endpoint")
            && Url::parse(v).is_ok_and(|u| u.scheme() == "http" && is_loopback(&u))
    });
    options.retain(|(k, _)| k != "aws_allow_http" && k != "allow_http");
    if loopback_http {
        options.push(("allow_http".into(), "true".into()));
    }
    options
}

async fn object(url: &Url, wanted: &Wanted, previous: Option<&Previous>) -> anyhow::Result<Fetch> {
    use object_store::{Attribute, ObjectStore, ObjectStoreExt};
    no_options("an object store", wanted)?;
    let resolved = stone_api::redact_url(url.as_str());
    let (store, path): (Box<dyn ObjectStore>, object_store::path::Path) = if url.scheme() == "file"
    {
        let local = url.to_file_path().map_err(|()| {
            failure(
                Kind::InvalidSource,
                format!("`{url}` is not a local file path"),
            )
        })?;
        let path = object_store::path::Path::from_filesystem_path(&local).map_err(|e| {
            anyhow::Error::new(e).context(failure(
                Kind::NotFound,
                format!("cannot read {}", local.display()),
            ))
        })?;
        (Box::new(object_store::local::LocalFileSystem::new()), path)
    } else {
        object_store::parse_url_opts(url, cloud_options()).map_err(|e| {
            anyhow::Error::new(e).context(failure(
                Kind::InvalidSource,
                format!("cannot open the object store of {resolved}"),
            ))
        })?
    };
    let store_error = |e: object_store::Error| -> anyhow::Error {
        let code = match &e {
            object_store::Error::NotFound { .. } => Kind::NotFound,
            object_store::Error::PermissionDenied { .. }
            | object_store::Error::Unauthenticated { .. } => Kind::Unauthorized,
            _ => Kind::Unavailable,
        };
        anyhow::Error::new(e).context(failure(code, format!("cannot read {resolved}")))
    };
    let meta = store.head(&path).await.map_err(store_error)?;
    if let Some(previous) = previous.filter(|p| p.resolved == resolved)
        && previous.etag.is_some()
        && previous.etag == meta.e_tag
    {
        return Ok(Fetch::Unchanged);
    }
    let result = store.get(&path).await.map_err(store_error)?;
    let sha256 = result
        .attributes
        .get(&Attribute::Metadata("sha256".into()))
        .map(|v| v.as_ref().to_ascii_lowercase());
    let meta = result.meta.clone();
    let body = result
        .into_stream()
        .map_err(|e| anyhow::Error::new(e).context("the download was cut"))
        .boxed();
    Ok(Fetch::Changed(Box::new(Remote {
        resolved,
        kind: None,
        file_name: last_segment(url).unwrap_or_else(|| "data".to_owned()),
        etag: meta.e_tag,
        sha256,
        size: Some(meta.size),
        format: None,
        branch: None,
        version: meta.version,
        snapshot_id: None,
        body,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_quoted_sha256_etag_states_a_digest() {
        let sha = "ab".repeat(32);
        assert_eq!(
            sha256_of_etag(Some(&format!("\"{sha}\""))),
            Some(sha.clone())
        );
        assert_eq!(sha256_of_etag(Some("\"123-parquet-abc\"")), None);
        assert_eq!(sha256_of_etag(None), None);
    }
}
