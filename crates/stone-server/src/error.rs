//! The one error type of the HTTP layer: an RFC 9457 problem with a stable code.
//!
//! 4xx problems say what the client did wrong; 5xx problems say only that the server
//! failed (the cause goes to the log, never to the client).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use stone_api::{PROBLEM_CONTENT_TYPE, Problem, codes};

pub use crate::report::error_chain;

use crate::engines::blob::BlobError;
use crate::engines::graph::GraphError;
use crate::engines::iceberg::IcebergError;
use crate::outage::Outage;
use crate::staging::StagingError;

/// An API error: the problem sent to the client, plus the cause for the log (5xx).
#[derive(Debug)]
pub struct ApiError {
    /// Boxed: handlers return `Result<_, ApiError>` and a problem is large.
    pub problem: Box<Problem>,
    source: Option<anyhow::Error>,
    /// `WWW-Authenticate` of a 401.
    challenge: Option<String>,
}

impl ApiError {
    /// A problem of `code` with `status`, `title` and `detail`.
    pub fn new(status: StatusCode, code: &str, title: &str, detail: impl Into<String>) -> Self {
        Self {
            problem: Box::new(Problem::new(status.as_u16(), code, title).with_detail(detail)),
            source: None,
            challenge: None,
        }
    }

    /// 400 `request.invalid`.
    pub fn invalid(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            codes::REQUEST_INVALID,
            "Invalid request",
            detail,
        )
    }

    /// 400 `request.invalid` for a query string a handler cannot read (`?limit=ten`):
    /// handlers take `Result<Query<T>, QueryRejection>` so that the answer is a problem
    /// like every other, not axum's plain text.
    pub fn bad_query(rejection: axum::extract::rejection::QueryRejection) -> Self {
        Self::invalid(rejection.body_text())
    }

    /// 400 `request.invalid` naming the field.
    pub fn invalid_field(field: &str, detail: impl Into<String>) -> Self {
        Self::invalid(detail).with("field", field)
    }

    /// 404 `push.not_found`.
    pub fn push_not_found(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            codes::PUSH_NOT_FOUND,
            "No such push",
            format!("there is no push {id}"),
        )
    }

    /// 410 `push.expired`: the push was left uncommitted too long and its staged
    /// contents may be gone.
    pub fn push_expired(id: &str) -> Self {
        Self::new(
            StatusCode::GONE,
            codes::PUSH_EXPIRED,
            "Push expired",
            format!("push {id} was not committed in time and has expired: start a new push"),
        )
    }

    /// 500 `server.internal`; `source` goes to the log only, under an incident id the
    /// problem names (`detail` and the member `incident`), so that a client can report
    /// it and the operator find it.
    pub fn internal(source: impl Into<anyhow::Error>) -> Self {
        let incident = uuid::Uuid::new_v4().simple().to_string()[..12].to_owned();
        Self {
            problem: Box::new(
                Problem::new(500, codes::SERVER_INTERNAL, "Internal server error")
                    .with_detail(format!(
                        "the server failed (incident {incident}); its operator finds the cause in the server's log under that id"
                    ))
                    .with("incident", &incident),
            ),
            source: Some(source.into()),
            challenge: None,
        }
    }

    /// 507 `server.storage_full`: the server's disk (or quota) is full; nothing was kept.
    /// `source` goes to the log only.
    pub fn storage_full(source: impl Into<anyhow::Error>) -> Self {
        Self {
            problem: Box::new(
                Problem::new(507, codes::SERVER_STORAGE_FULL, "Storage full").with_detail(
                    "the server has no space left on its disk; nothing of this request was \
                     kept. Retry later, or ask the platform's operators to free space",
                ),
            ),
            source: Some(source.into()),
            challenge: None,
        }
    }

    /// 507 `server.storage_full` refused by admission, before a byte was written: the
    /// detail says what did not fit (`what`: the figures).
    pub fn no_space(what: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::INSUFFICIENT_STORAGE,
            codes::SERVER_STORAGE_FULL,
            "Storage full",
            format!(
                "{what}; nothing was kept. Retry once space is freed, or ask the platform's \
                 operators to free space"
            ),
        )
    }

    /// 503 `server.unavailable`.
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::SERVER_UNAVAILABLE,
            "Server unavailable",
            detail,
        )
    }

    /// Adds an extra member to the problem.
    pub fn with(mut self, name: &str, value: impl serde::Serialize) -> Self {
        self.problem = Box::new(self.problem.with(name, value));
        self
    }

    /// Sets the `WWW-Authenticate` header of the answer (RFC 6750, RFC 9470).
    pub fn with_challenge(mut self, challenge: impl Into<String>) -> Self {
        self.challenge = Some(challenge.into());
        self
    }

    /// The `WWW-Authenticate` header, if any.
    pub fn challenge(&self) -> Option<&str> {
        self.challenge.as_deref()
    }

    /// Sets the problem's `instance`.
    pub fn at(mut self, instance: impl Into<String>) -> Self {
        self.problem = Box::new(self.problem.with_instance(instance));
        self
    }

    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    pub fn code(&self) -> &str {
        &self.problem.code
    }
}

impl From<Problem> for ApiError {
    fn from(problem: Problem) -> Self {
        Self {
            problem: Box::new(problem),
            source: None,
            challenge: None,
        }
    }
}

impl From<crate::state::StateError> for ApiError {
    /// A full disk is 507 and a database that does not answer (PostgreSQL down, SQLite
    /// busy past its timeout) 503, both transient (issue 54); any other failure 500.
    fn from(error: crate::state::StateError) -> Self {
        match crate::outage::outage(&error) {
            Some(Outage::StorageFull) => Self::storage_full(error),
            Some(Outage::Unavailable) => Self {
                problem: Box::new(
                    Problem::new(503, codes::SERVER_UNAVAILABLE, "Server unavailable").with_detail(
                        "the server's state database did not answer; nothing of this \
                             request was kept. Retry in a moment",
                    ),
                ),
                source: Some(error.into()),
                challenge: None,
            },
            None => Self::internal(error),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.problem.fmt(f)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            match &self.source {
                Some(source) => {
                    let incident = self.problem.extra.get("incident");
                    tracing::error!(code = %self.problem.code, incident = ?incident, error = ?source, "request failed")
                }
                None => {
                    tracing::error!(code = %self.problem.code, detail = ?self.problem.detail, "request failed")
                }
            }
        } else {
            tracing::debug!(code = %self.problem.code, detail = ?self.problem.detail, "request refused");
        }
        let body = serde_json::to_vec(&*self.problem).unwrap_or_default();
        let mut response = (status, body).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(PROBLEM_CONTENT_TYPE),
        );
        if let Some(challenge) = self.challenge.and_then(|c| HeaderValue::from_str(&c).ok()) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge);
        }
        response
    }
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

// Engine and staging failures as the problems a push reports.

/// The detail of a push problem caused by `error` (the one rule for what of an engine or
/// staging error a client sees): a failure of the server's own (`status` 5xx) gets a
/// short sentence and an incident id, and the whole chain goes to the log under that id;
/// a failure the input caused (4xx) gets the chain, with the server's own locations
/// (absolute paths, URLs of its stores) cut to their last segment, which is the file or
/// object the client knows (a staged file is named by its sha256).
pub(crate) fn engine_detail(status: u16, error: &(dyn std::error::Error + 'static)) -> String {
    let chain = error_chain(error);
    if status < 500 {
        return shorten_locations(&chain);
    }
    let incident = &uuid::Uuid::new_v4().simple().to_string()[..12];
    tracing::warn!(incident, error = %chain, "an engine failed; the client gets the incident id");
    match status {
        507 => format!(
            "the server has no space left on its disk (incident {incident}); nothing of this \
             dataset was written: push again once space is freed"
        ),
        503 if crate::outage::outage(error) == Some(Outage::Unavailable) => format!(
            "a store the server depends on did not answer (incident {incident}); nothing of \
             this dataset was written: push again, the push resumes"
        ),
        _ => format!(
            "the server failed (incident {incident}); its operator finds the cause in the server's log under that id"
        ),
    }
}

/// The problem of a dataset whose engine failed for a reason that is not the input's:
/// `server.storage_full` (507) or `engine.unavailable` (503) when a dependency is out
/// (`crate::outage`; transient, the client says to push again), else `engine.failed`
/// named `title`.
pub(crate) fn engine_failure(title: &str, error: &(dyn std::error::Error + 'static)) -> Problem {
    match crate::outage::outage(error) {
        Some(Outage::StorageFull) => Problem::new(507, codes::SERVER_STORAGE_FULL, "Storage full"),
        Some(Outage::Unavailable) => {
            Problem::new(503, codes::ENGINE_UNAVAILABLE, "Storage unavailable")
        }
        None => Problem::new(503, codes::ENGINE_FAILED, title),
    }
}

/// `text` with every absolute path (`/a/b`) and URL (`scheme://…`) cut to its last
/// segment (without a query), the surrounding quotes and punctuation kept.
fn shorten_locations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive(char::is_whitespace) {
        let word = piece.trim_end_matches(char::is_whitespace);
        let space = &piece[word.len()..];
        let edge = |c: char| {
            matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '<' | '>' | ',' | ';' | ':' | '.'
            )
        };
        let core = word.trim_start_matches(edge);
        let lead = &word[..word.len() - core.len()];
        let core = core.trim_end_matches(edge);
        let tail = &word[lead.len() + core.len()..];
        // Where a location starts in the word: a URL's scheme, or a `/` at the start or
        // after `=` or `:` (`path=/var/…`, `at:/var/…`).
        let start = match core.find("://") {
            Some(scheme_end) => Some(
                core[..scheme_end]
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
                    .map_or(0, |i| i + 1),
            ),
            None => core.char_indices().find_map(|(i, c)| {
                let absolute = c == '/'
                    && (i == 0 || core[..i].ends_with(['=', ':']))
                    && core[i + 1..].contains('/');
                absolute.then_some(i)
            }),
        };
        if let Some(start) = start {
            let path = core[start..].split(['?', '#']).next().unwrap_or("");
            let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            out.push_str(lead);
            out.push_str(&core[..start]);
            out.push_str(if last.is_empty() { "…" } else { last });
            out.push_str(tail);
        } else {
            out.push_str(word);
        }
        out.push_str(space);
    }
    out
}

/// A dataset failure from staging.
pub fn staging_problem(dataset: &str, error: StagingError) -> Problem {
    match error {
        StagingError::DigestMismatch { expected, actual } => {
            Problem::new(400, codes::STAGING_DIGEST_MISMATCH, "Digest mismatch")
                .with_detail(format!(
                    "staged content {expected} has sha256 {actual}; push again to upload it anew"
                ))
                .with("dataset", dataset)
                .with("expected", expected)
                .with("actual", actual)
        }
        StagingError::NotStaged { sha256 } => {
            Problem::new(409, codes::PUSH_INCOMPLETE, "Content is missing")
                .with_detail(format!("content {sha256} is not staged"))
                .with("dataset", dataset)
                .with("missing", [sha256])
        }
        other => {
            let problem = engine_failure("Staging failed", &other);
            let detail = engine_detail(problem.status, &other);
            problem.with_detail(detail).with("dataset", dataset)
        }
    }
}

pub(crate) fn iceberg_problem(dataset: &str, error: &IcebergError) -> Problem {
    let problem = match error {
        IcebergError::IncompatibleSchema { column, .. } => Problem::new(
            409,
            codes::SCHEMA_INCOMPATIBLE,
            "Incompatible schema change",
        )
        .with("column", column),
        IcebergError::TypeChangeNeedsReplace { column, .. } => Problem::new(
            409,
            codes::SCHEMA_INCOMPATIBLE,
            "Incompatible schema change",
        )
        .with("column", column),
        IcebergError::TagExists { tag, .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists").with("version", tag)
        }
        IcebergError::RefKindConflict { name, .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version name taken").with("version", name)
        }
        IcebergError::ParquetLimit { .. } => Problem::new(
            422,
            codes::DATASET_LIMIT_EXCEEDED,
            "File past a parser limit",
        ),
        IcebergError::InvalidParquet { .. }
        | IcebergError::UnsupportedColumnType { .. }
        | IcebergError::InvalidColumns { .. }
        | IcebergError::FileHasFieldIds { .. }
        | IcebergError::ChecksumMismatch { .. } => {
            Problem::new(422, codes::TABULAR_INVALID_FILE, "Invalid TABULAR file")
        }
        IcebergError::InvalidName { .. } => {
            Problem::new(400, codes::REQUEST_INVALID, "Invalid name")
        }
        _ => engine_failure("Iceberg engine failed", error),
    };
    let detail = engine_detail(problem.status, error);
    problem.with_detail(detail).with("dataset", dataset)
}

pub(crate) fn graph_problem(dataset: &str, error: &GraphError) -> Problem {
    let problem = match error {
        GraphError::Parse { .. } | GraphError::RemoteContext { .. } => {
            Problem::new(422, codes::GRAPH_INVALID_RDF, "Invalid RDF")
        }
        GraphError::VersionExists { .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists")
        }
        GraphError::TooLarge { .. } => Problem::new(413, codes::GRAPH_TOO_LARGE, "Graph too large"),
        _ => engine_failure("Graph engine failed", error),
    };
    let detail = engine_detail(problem.status, error);
    problem.with_detail(detail).with("dataset", dataset)
}

pub(crate) fn blob_problem(dataset: &str, error: &BlobError) -> Problem {
    let problem = match error {
        BlobError::Digest { .. } => {
            Problem::new(400, codes::STAGING_DIGEST_MISMATCH, "Digest mismatch")
        }
        BlobError::VersionExists { .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists")
        }
        BlobError::InvalidPath { .. }
        | BlobError::DuplicatePath { .. }
        | BlobError::InvalidName { .. } => {
            Problem::new(400, codes::REQUEST_INVALID, "Invalid dataset file")
        }
        _ => engine_failure("Object storage failed", error),
    };
    let detail = engine_detail(problem.status, error);
    problem.with_detail(detail).with("dataset", dataset)
}

#[cfg(test)]
mod tests {
    use super::shorten_locations;

    #[test]
    fn server_locations_are_cut_to_their_last_segment() {
        assert_eq!(
            shorten_locations(
                "staged file /var/lib/stone/staging/contents/ab/abcd.parquet is not a readable Parquet file"
            ),
            "staged file abcd.parquet is not a readable Parquet file"
        );
        assert_eq!(
            shorten_locations(
                "cannot write data file s3://bucket/warehouse/ns/t-1/data/x.parquet: denied"
            ),
            "cannot write data file x.parquet: denied"
        );
        assert_eq!(
            shorten_locations("(\"http://10.0.0.5:8333/b/k?X-Amz-Signature=s\"), line 3"),
            "(\"k\"), line 3"
        );
        // A location inside a word keeps what comes before it.
        assert_eq!(
            shorten_locations("at location:s3://b/wh/x.avro and path=/srv/stone/data/y.parquet"),
            "at location:x.avro and path=y.parquet"
        );
        // Not locations: a relative path, a lone slash, a column name.
        assert_eq!(
            shorten_locations("column \"a/b\" of data/x.csv: 1 / 2"),
            "column \"a/b\" of data/x.csv: 1 / 2"
        );
    }
}
