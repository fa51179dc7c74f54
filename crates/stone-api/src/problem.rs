//! Errors on the wire: RFC 9457 problem details with a stable dotted `code`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Media type of every error body.
pub const PROBLEM_CONTENT_TYPE: &str = "application/problem+json";

/// An RFC 9457 problem: the body of every 4xx/5xx answer of the API, and the `error` of a
/// failed dataset or push.
///
/// The client relies on `code` (stable, dotted, the same in the CLI's `--json` output);
/// `title` is the short human text of that code, `detail` explains this occurrence.
/// Codes may carry extra members (listed in [`codes`]); unknown ones must be ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// URI reference naming the problem type: `urn:stone:problem:<code>`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Short summary of the problem type; the same for every occurrence of a code.
    pub title: String,
    /// HTTP status of the answer (also set on problems inside a status body, where it is
    /// the status the failure would have had).
    pub status: u16,
    /// What happened this time, for humans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// URI reference of this occurrence (the push, the upload), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Stable dotted code, e.g. `push.protected_ref`.
    pub code: String,
    /// Extra members of this code (`missing`, `violations`, `dataset`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Problem {
    /// A problem of `code` with its type URI.
    pub fn new(status: u16, code: &str, title: impl Into<String>) -> Self {
        Self {
            problem_type: format!("urn:stone:problem:{code}"),
            title: title.into(),
            status,
            detail: None,
            instance: None,
            code: code.to_owned(),
            extra: Map::new(),
        }
    }

    /// Sets `detail`.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Sets `instance`.
    pub fn with_instance(mut self, instance: impl Into<String>) -> Self {
        self.instance = Some(instance.into());
        self
    }

    /// Adds an extra member.
    pub fn with(mut self, name: &str, value: impl Serialize) -> Self {
        self.extra.insert(
            name.to_owned(),
            serde_json::to_value(value).unwrap_or(Value::Null),
        );
        self
    }

    /// What a person reads: the detail (else the title) and the code,
    /// `no space left … (server.storage_full)`.
    pub fn brief(&self) -> String {
        format!(
            "{} ({})",
            self.detail.as_deref().unwrap_or(&self.title),
            self.code
        )
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.detail {
            Some(detail) => write!(f, "{} ({}): {detail}", self.title, self.code),
            None => write!(f, "{} ({})", self.title, self.code),
        }
    }
}

/// One operation that needs `force` on a protected ref (member `violations` of the
/// force refusals at `POST /v1/pushes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// What it is: `schema.incompatible`, `version.exists`, `push.deletion_requires_force`,
    /// `push.retraction_requires_force`.
    pub code: String,
    /// The dataset concerned.
    pub dataset: String,
    /// In words.
    pub detail: String,
}

/// The stable codes. Extra members are named after each code.
pub mod codes {
    /// 400: the body is not a valid request (bad JSON, a bad name, slug, digest, kind,
    /// duplicate dataset or file). Extra: `field` when known.
    pub const REQUEST_INVALID: &str = "request.invalid";
    /// 404: no such endpoint.
    pub const REQUEST_NOT_FOUND: &str = "request.not_found";
    /// 406: the dataset cannot be served in the asked format (`format=` or `Accept`).
    /// Extra: `formats`, the formats it can be served in.
    pub const REQUEST_NOT_ACCEPTABLE: &str = "request.not_acceptable";
    /// 416: the `Range` lies outside the content. Extra: `size`.
    pub const REQUEST_RANGE_NOT_SATISFIABLE: &str = "request.range_not_satisfiable";
    /// 408: an upload body sent no byte for the server's `[server]
    /// body_read_timeout_seconds`; nothing was kept. Upload it again.
    pub const REQUEST_TIMEOUT: &str = "request.timeout";
    /// 503: a SPARQL query ran longer than the server's `[sparql] timeout_seconds` and was
    /// stopped. Narrow the query (fewer solutions, a `LIMIT`), or ask the operator.
    pub const SPARQL_TIMEOUT: &str = "sparql.timeout";
    /// 413: a SPARQL query's result is larger than the server's `[sparql]
    /// max_result_bytes` or `max_rows`. Extra: `limit` (the bound hit), `max_rows` or
    /// `max_result_bytes`. Use `LIMIT`/`OFFSET` to page.
    pub const SPARQL_TOO_LARGE: &str = "sparql.too_large";
    /// 404: no such dataset, branch or version to read.
    pub const DATASET_NOT_FOUND: &str = "dataset.not_found";
    /// 400: a subscription's target is refused: its URL is not https (plain http only to
    /// an allowed address), or its host is or resolves to a loopback, link-local (cloud
    /// metadata), private or otherwise internal address the server's operator has not
    /// allowed (`[events] allow_targets`). Extra: `url`, `address` when one was refused.
    pub const SUBSCRIPTION_TARGET_FORBIDDEN: &str = "subscription.target_forbidden";
    /// 410: the feed was asked for events after a cursor older than the server keeps
    /// (`[events] retention_days`): events after it were pruned and are lost to this
    /// reader. Extra: `restart_after` (ask `after=` it to read what is kept; `after=0`
    /// reads from the oldest kept too).
    pub const EVENTS_CURSOR_EXPIRED: &str = "events.cursor_expired";
    /// 404: no such subscription in the namespace.
    pub const SUBSCRIPTION_NOT_FOUND: &str = "subscription.not_found";
    /// 404: no such push (or not yours).
    pub const PUSH_NOT_FOUND: &str = "push.not_found";
    /// 410: the push was left uncommitted longer than the server keeps pushes (its
    /// garbage collection expired it; staged contents it named may be gone). Start a new
    /// push; the client does so by itself when it resumes a saved push.
    pub const PUSH_EXPIRED: &str = "push.expired";
    /// 409: the push cannot be resumed with this manifest (another namespace or branch, or
    /// a changed manifest on a push already committing or done).
    pub const PUSH_CONFLICT: &str = "push.conflict";
    /// 400: a file's declared size is more than the server takes for one file (its
    /// `[limits] max_file_size`, never more than 2^63 - 1); nothing was recorded.
    /// Extra: `field`.
    pub const MANIFEST_INVALID_SIZE: &str = "manifest.invalid_size";
    /// 413: the push declares more datasets, distinct files or bytes than the server
    /// takes in one push (its `[limits]`); nothing was recorded. Split the package.
    /// Extra: `field`.
    pub const PUSH_TOO_LARGE: &str = "push.too_large";
    /// 413: the push would take its namespace over the namespace's quota (the server's
    /// `[quotas]`); nothing was recorded. Free space (delete datasets) or ask the operator
    /// for a larger quota. Extra: `namespace`, `used`, `quota`, `asked` (bytes: what the
    /// namespace holds, may hold, and what the push adds).
    pub const NAMESPACE_QUOTA_EXCEEDED: &str = "namespace.quota_exceeded";
    /// 409: commit refused, some content is not staged and verified. Extra: `missing`
    /// (sha256 list).
    pub const PUSH_INCOMPLETE: &str = "push.incomplete";
    /// 403: a manual push to a protected ref without `options.yes`. Extra: `branch`.
    pub const PUSH_CONFIRMATION_REQUIRED: &str = "push.confirmation_required";
    /// 403: pushing to a protected ref needs a role the identity lacks. Extra: `branch`,
    /// `required_role`.
    pub const PUSH_PROTECTED_REF: &str = "push.protected_ref";
    /// 403: `force` on a protected ref needs the elevated role. Extra: `branch`,
    /// `required_role`.
    pub const PUSH_FORCE_FORBIDDEN: &str = "push.force_forbidden";
    /// 409: with `replace` on a protected ref, datasets no longer in the package would be
    /// deleted; needs `force`. Extra: `violations`.
    pub const PUSH_DELETION_REQUIRES_FORCE: &str = "push.deletion_requires_force";
    /// 409: `replace` on a protected ref would retract published content; needs `force`.
    /// Extra: `violations`.
    pub const PUSH_RETRACTION_REQUIRES_FORCE: &str = "push.retraction_requires_force";
    /// 409 at `POST /pushes` (protected ref, no `force`), or a failed dataset at commit: the
    /// schema change is incompatible. Extra: `violations` / `dataset`, `column`.
    pub const SCHEMA_INCOMPATIBLE: &str = "schema.incompatible";
    /// 409 at `POST /pushes` (protected ref, no `force`), or a failed dataset at commit: the
    /// package version already names other content. Extra: `violations` / `dataset`,
    /// `version`.
    pub const VERSION_EXISTS: &str = "version.exists";
    /// 400: the uploaded bytes do not have the announced sha256; nothing was kept.
    /// Extra: `expected`, `actual`.
    pub const STAGING_DIGEST_MISMATCH: &str = "staging.digest_mismatch";
    /// 400: the uploaded bytes do not have the announced size; nothing was kept.
    /// Extra: `expected`, `actual`.
    pub const STAGING_SIZE_MISMATCH: &str = "staging.size_mismatch";
    /// 400 (413 past its size): a pack body (issue 27) is not a sequence of
    /// `{sha256} {size}\n{bytes}` records, or is past one of the limits its offer stated;
    /// nothing of it was kept. The detail says where and why.
    pub const STAGING_PACK_INVALID: &str = "staging.pack_invalid";
    /// 403: the upload URL has expired; re-post the manifest with the push ID for a fresh
    /// one.
    pub const STAGING_EXPIRED: &str = "staging.expired";
    /// 403: the upload URL's signature is not valid (altered URL).
    pub const STAGING_INVALID_SIGNATURE: &str = "staging.invalid_signature";
    /// 400: an upload to a signed URL carried an `Authorization` header. Signed URLs carry
    /// their own authorization; the API token must never be sent with them.
    pub const STAGING_CREDENTIALS_SENT: &str = "staging.credentials_sent";
    /// 404: no multipart upload of this sha256 in progress for the push.
    pub const STAGING_UNKNOWN_UPLOAD: &str = "staging.unknown_upload";
    /// 409: a multipart upload cannot be completed, parts are missing. Extra: `missing_parts`.
    pub const STAGING_PARTS_MISSING: &str = "staging.parts_missing";
    /// Dataset error: not done because another dataset of the push failed (deletions by
    /// `replace` run only when every write succeeded).
    pub const PUSH_SKIPPED: &str = "push.skipped";
    /// Dataset error: a TABULAR file is not a Parquet file the table can take.
    pub const TABULAR_INVALID_FILE: &str = "tabular.invalid_file";
    /// Dataset error (422): a file is past one of the server's parser limits (a Parquet
    /// footer too large, a schema nested too deep, too many columns); refused before it
    /// is parsed. The detail names the file and the limit.
    pub const DATASET_LIMIT_EXCEEDED: &str = "dataset.limit_exceeded";
    /// Dataset error: a GRAPH file is not valid RDF in its format.
    pub const GRAPH_INVALID_RDF: &str = "graph.invalid_rdf";
    /// Dataset error: a GRAPH file, or a literal or IRI in it, is larger than the server's
    /// `[graph] max_file_bytes` / `max_literal_bytes`. Extra: `dataset`.
    pub const GRAPH_TOO_LARGE: &str = "graph.too_large";
    /// Dataset error: the server stopped (crashed, was killed) this many times while
    /// committing the push (`[jobs] max_crashes`); it is not resumed again. The other
    /// datasets of the push are `push.skipped`. Push again once the cause is fixed (the
    /// server log names the dataset that was being written).
    pub const PUSH_CRASHED: &str = "push.crashed";
    /// Dataset error: the engine failed (storage, catalog, graph server); running the push
    /// again may succeed.
    pub const ENGINE_FAILED: &str = "engine.failed";
    /// Dataset error (503): a store the engine depends on did not answer (S3 or the
    /// state database down, a connection reset, a timeout) after the server's own
    /// retries. Transient: running the push again resumes and writes the dataset once.
    pub const ENGINE_UNAVAILABLE: &str = "engine.unavailable";
    /// 401 (`oidc` mode): the request needs a bearer token and has none. The answer has
    /// `WWW-Authenticate: Bearer`.
    pub const AUTH_REQUIRED: &str = "auth.required";
    /// 401 (`oidc` mode): the bearer token is not valid (signature, issuer, audience,
    /// expiry, form). The answer has `WWW-Authenticate: Bearer error="invalid_token"`.
    /// Extra: `reason` (`expired`, `issuer`, `audience`, `signature`, `unknown_key`,
    /// `malformed`, `invalid`).
    pub const AUTH_INVALID_TOKEN: &str = "auth.invalid_token";
    /// 401 (`oidc` mode): a push to a protected ref needs a fresh authentication (RFC 9470).
    /// The answer has `WWW-Authenticate: Bearer error="insufficient_user_authentication",
    /// acr_values="…", max_age=…`. Extra: `acr_values` (list), `max_age`, `branch`, and
    /// `push_id`: the push is reserved under this ID; retry `POST /v1/pushes` with it and a
    /// token that has the step-up.
    pub const AUTH_STEP_UP_REQUIRED: &str = "auth.step_up_required";
    /// 403 (`oidc` mode with an `[authz]` policy): the caller's token has no grant with
    /// the access this needs on the namespace (read a private package, push, change
    /// `public`, delete datasets). Extra: `namespace`, `required_access` (`read`,
    /// `write`, `admin`).
    pub const AUTHZ_FORBIDDEN: &str = "authz.forbidden";
    /// 421: the `Host` header names neither the address the server listens on (a
    /// loopback server) nor its public host: a page that rebinds a DNS name to
    /// 127.0.0.1 cannot drive a local server. Extra: `host`.
    pub const REQUEST_MISDIRECTED: &str = "request.misdirected";
    /// 403: a state-changing or SPARQL `POST` a web page could send cross-site: another
    /// `Origin` than the server's, or a body type a browser sends without asking
    /// (`text/plain`, a form). Send JSON (or `application/sparql-query`) without an
    /// `Origin` of another site.
    pub const REQUEST_CROSS_ORIGIN: &str = "request.cross_origin";
    /// 403: a write through the Iceberg REST catalog (`/iceberg/v1/...`: create, commit,
    /// rename, drop, namespace changes), or an S3 sign request that is not a read of the
    /// table's own files. The catalog is read-only; tables are written by pushes. Sent in
    /// the REST spec's `ErrorModel`, as `error.stone_code`.
    pub const ICEBERG_READ_ONLY: &str = "iceberg.read_only";
    /// 503: the server is shutting down; retry.
    pub const SERVER_UNAVAILABLE: &str = "server.unavailable";
    /// 507: the server's disk (or quota) is full; the upload was not kept. Retrying may
    /// succeed once space is freed.
    pub const SERVER_STORAGE_FULL: &str = "server.storage_full";
    /// 500: a bug or an unexpected failure; details are in the server log.
    pub const SERVER_INTERNAL: &str = "server.internal";

    /// Whether a problem of `code` may pass without a change of the push (the server's
    /// disk full, a store it depends on down, the server busy or shutting down): the
    /// client says to run the same command again, and exits with the "unavailable"
    /// status (issue 54).
    pub fn is_transient(code: &str) -> bool {
        matches!(
            code,
            SERVER_STORAGE_FULL | SERVER_UNAVAILABLE | ENGINE_UNAVAILABLE
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) fn samples() -> Vec<(&'static str, serde_json::Value)> {
        vec![
            (
                "Problem",
                serde_json::to_value(
                    Problem::new(409, codes::PUSH_INCOMPLETE, "Content is missing")
                        .with("missing", ["a"]),
                )
                .unwrap(),
            ),
            (
                "Violation",
                json!({"code": "version.exists", "dataset": "d", "detail": "x"}),
            ),
        ]
    }

    #[test]
    fn problem_exact_json() {
        let problem = Problem::new(409, codes::PUSH_INCOMPLETE, "Content is missing")
            .with_detail("2 files are not staged")
            .with_instance("/v1/pushes/p1")
            .with("missing", ["aa", "bb"]);
        let value = serde_json::to_value(&problem).unwrap();
        assert_eq!(
            value,
            json!({
                "type": "urn:stone:problem:push.incomplete",
                "title": "Content is missing",
                "status": 409,
                "detail": "2 files are not staged",
                "instance": "/v1/pushes/p1",
                "code": "push.incomplete",
                "missing": ["aa", "bb"],
            })
        );
        let back: Problem = serde_json::from_value(value).unwrap();
        assert_eq!(back, problem);
    }

    #[test]
    fn problem_minimal_and_unknown_members() {
        let value = json!({
            "type": "urn:stone:problem:staging.expired",
            "title": "Upload URL expired",
            "status": 403,
            "code": "staging.expired",
            "future_member": {"x": 1},
        });
        let problem: Problem = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(problem.code, "staging.expired");
        assert_eq!(problem.detail, None);
        // Unknown members are kept as extras and written back unchanged.
        assert_eq!(serde_json::to_value(&problem).unwrap(), value);
        assert_eq!(problem.to_string(), "Upload URL expired (staging.expired)");
    }

    #[test]
    fn violation_exact_json() {
        let violation = Violation {
            code: codes::VERSION_EXISTS.into(),
            dataset: "people".into(),
            detail: "tag 1.0 names snapshot 3".into(),
        };
        let expected = json!({"code": "version.exists", "dataset": "people",
                              "detail": "tag 1.0 names snapshot 3"});
        assert_eq!(serde_json::to_value(&violation).unwrap(), expected);
        let mut noisy = expected.clone();
        noisy["more"] = json!(true);
        assert_eq!(
            serde_json::from_value::<Violation>(noisy).unwrap(),
            violation
        );
    }
}
