//! What a web page can make a browser send, refused before any route runs.
//!
//! - **DNS rebinding**: a page of `evil.example` whose name then resolves to 127.0.0.1
//!   reaches a server on loopback with `Host: evil.example:<port>`. A server listening on
//!   loopback (always in `local` mode, where every request acts as the local user)
//!   answers only a `Host` whose host is a loopback address (`127.0.0.1`, `[::1]`),
//!   `localhost`, its public host, or the host of `[staging] base_url`; others get 421
//!   `request.misdirected`. The port is not compared: a page cannot be served from a
//!   loopback name without running on this machine, and a local proxy or port forward
//!   in front of the server (another port) keeps working.
//! - **Cross-site POSTs**: a page may POST to any URL without asking the server first if
//!   the body is "simple" (CORS): `text/plain`, `multipart/form-data`,
//!   `application/x-www-form-urlencoded`, or no type. So a `POST` is refused (403
//!   `request.cross_origin`) when its `Origin` is not the origin it was sent to (the
//!   `Host`), or when it has a body whose type is `text/plain`, `multipart/form-data` or
//!   missing. The API takes JSON; SPARQL takes `application/sparql-query`, or a form from
//!   a client that sends no foreign `Origin` (browsers always send one cross-site).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use stone_api::codes;

use super::App;
use crate::config::Settings;
use crate::error::ApiError;

/// The middleware: [`check`], then the route.
pub async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let loopback = app.verifier.is_none() || app.settings.listen.ip().is_loopback();
    if let Err(refusal) = check(&app.settings, loopback, request.method(), request.headers()) {
        return refusal.into_response();
    }
    next.run(request).await
}

/// The refusals of the module documentation; `loopback`: whether `Host` is checked.
pub fn check(
    settings: &Settings,
    loopback: bool,
    method: &Method,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    let host = headers
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or_default().to_ascii_lowercase());
    if loopback
        && let Some(host) = &host
        && !own_host(settings, host)
    {
        return Err(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            codes::REQUEST_MISDIRECTED,
            "Misdirected request",
            format!(
                "this server answers requests for 127.0.0.1, [::1], localhost or its public host {}, not for the host {host:?}: use one of those names",
                settings.public_host
            ),
        )
        .with("host", host));
    }
    if method != Method::POST {
        return Ok(());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .map(str::to_ascii_lowercase);
        let same = match (&authority, &host) {
            (Some(authority), Some(host)) => authority == host,
            (Some(authority), None) => own_host(settings, authority),
            (None, _) => false,
        };
        if !same {
            return Err(cross_origin(format!(
                "a POST from the web page of {origin:?}, another origin than this server's, is refused: browsers may send it without the user knowing"
            )));
        }
    }
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if has_body {
        let media_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        if matches!(
            media_type.as_str(),
            "" | "text/plain" | "multipart/form-data"
        ) {
            let shown = if media_type.is_empty() {
                "no Content-Type".to_owned()
            } else {
                format!("Content-Type {media_type}")
            };
            return Err(cross_origin(format!(
                "a POST body with {shown} is refused: any web page can make a browser send one; send application/json (the API) or application/sparql-query (SPARQL)"
            )));
        }
    }
    Ok(())
}

fn cross_origin(detail: String) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        codes::REQUEST_CROSS_ORIGIN,
        "Cross-origin request",
        detail,
    )
}

/// Whether `authority` (`host[:port]`, as in `Host`) names this server: a loopback
/// address, `localhost`, the public host or the host of `[staging] base_url`, any port.
fn own_host(settings: &Settings, authority: &str) -> bool {
    let host = host_of(authority);
    let loopback = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback());
    let base_url_host = settings
        .config
        .staging
        .base_url
        .as_deref()
        .and_then(|url| url.split_once("://").map(|(_, rest)| rest))
        .map(|rest| host_of(rest.split('/').next().unwrap_or_default()).to_owned());
    loopback
        || host == "localhost"
        || host == host_of(&settings.public_host.to_ascii_lowercase())
        || base_url_host.is_some_and(|h| h.eq_ignore_ascii_case(host))
}

/// The origin a page shows in the lines it offers to copy (issue 52, hole 7): the
/// request's `Host` when it names this server ([`own_host`]: a loopback address,
/// `localhost`, the public host, the staging base URL's host) and holds only the
/// characters of a host and port, `http` unless a proxy says `X-Forwarded-Proto: https`;
/// otherwise `https://{public_host}`. A server listening off loopback takes any `Host`
/// (a proxy's), so the header is never copied into a page as it came.
pub fn page_origin(settings: &Settings, headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|host| {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
                && own_host(settings, &host.to_ascii_lowercase())
        });
    let Some(host) = host else {
        return format!("https://{}", settings.public_host);
    };
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}")
}

/// The host of `host[:port]`: IPv6 hosts keep their brackets; an authority whose port is
/// not a number is returned whole (it then names no host of ours).
fn host_of(authority: &str) -> &str {
    match authority.rfind(':') {
        Some(at) if !authority[at..].contains(']') => {
            let port = &authority[at + 1..];
            if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
                &authority[..at]
            } else {
                authority
            }
        }
        _ => authority,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;

    fn settings() -> Settings {
        Settings {
            data_dir: "/tmp".into(),
            listen: "127.0.0.1:8080".parse().unwrap(),
            public_host: "data.test".into(),
            config: ConfigFile::default(),
        }
    }

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), value.parse().unwrap());
        }
        map
    }

    /// Issue 52, hole 7 (suspected): the `Host` of a request reached a page's lines to
    /// copy as it came. Only a host of this server is shown; any other becomes the public
    /// host.
    #[test]
    fn a_page_shows_this_servers_origin_never_a_foreign_host() {
        let s = settings();
        let origin = |pairs: &[(header::HeaderName, &str)]| page_origin(&s, &headers(pairs));
        assert_eq!(
            origin(&[(header::HOST, "127.0.0.1:8080")]),
            "http://127.0.0.1:8080"
        );
        assert_eq!(origin(&[(header::HOST, "data.test")]), "http://data.test");
        assert_eq!(
            origin(&[
                (header::HOST, "data.test"),
                (
                    header::HeaderName::from_static("x-forwarded-proto"),
                    "https"
                )
            ]),
            "https://data.test"
        );
        for foreign in [
            "evil.example",
            "evil.example:8080",
            "data.test.evil.example",
            "127.0.0.1:8080');DROP TABLE x;--",
            "data.test<script>",
        ] {
            assert_eq!(
                origin(&[(header::HOST, foreign)]),
                "https://data.test",
                "{foreign}"
            );
        }
        assert_eq!(origin(&[]), "https://data.test");
    }

    #[test]
    fn hosts_of_this_server_pass_and_others_are_misdirected() {
        let s = settings();
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "127.0.0.1:9090",
            "localhost",
            "data.test",
            "DATA.test:443",
        ] {
            assert!(
                check(&s, true, &Method::GET, &headers(&[(header::HOST, host)])).is_ok(),
                "{host}"
            );
        }
        for host in [
            "evil.example:8080",
            "localhost.evil",
            "localhost:8080.evil",
            "127.0.0.1:x",
            "data.test.evil",
        ] {
            let refusal =
                check(&s, true, &Method::GET, &headers(&[(header::HOST, host)])).unwrap_err();
            assert_eq!(refusal.code(), codes::REQUEST_MISDIRECTED, "{host}");
        }
        // Not on loopback: the host is not checked.
        assert!(
            check(
                &s,
                false,
                &Method::GET,
                &headers(&[(header::HOST, "evil.example")])
            )
            .is_ok()
        );
    }

    #[test]
    fn simple_or_foreign_posts_are_refused() {
        let s = settings();
        let refused = |pairs: &[(header::HeaderName, &str)]| {
            check(&s, true, &Method::POST, &headers(pairs)).map_err(|e| e.code().to_owned())
        };
        let cross = Err(codes::REQUEST_CROSS_ORIGIN.to_owned());
        assert_eq!(
            refused(&[
                (header::CONTENT_TYPE, "text/plain"),
                (header::CONTENT_LENGTH, "5")
            ]),
            cross
        );
        assert_eq!(refused(&[(header::CONTENT_LENGTH, "5")]), cross);
        assert_eq!(
            refused(&[
                (header::ORIGIN, "https://evil.example"),
                (header::CONTENT_TYPE, "application/json")
            ]),
            cross
        );
        assert_eq!(refused(&[(header::ORIGIN, "null")]), cross);
        assert_eq!(
            refused(&[
                (header::CONTENT_TYPE, "application/json; charset=utf-8"),
                (header::CONTENT_LENGTH, "2")
            ]),
            Ok(())
        );
        assert_eq!(
            refused(&[
                (header::CONTENT_TYPE, "application/x-www-form-urlencoded"),
                (header::CONTENT_LENGTH, "2")
            ]),
            Ok(())
        );
        assert_eq!(
            refused(&[(header::ORIGIN, "http://127.0.0.1:8080")]),
            Ok(())
        );
        assert_eq!(
            refused(&[
                (header::ORIGIN, "http://127.0.0.1:8080"),
                (header::HOST, "127.0.0.1:8080")
            ]),
            Ok(())
        );
        // Another local site (another port) is another origin.
        assert_eq!(
            refused(&[
                (header::ORIGIN, "http://127.0.0.1:3000"),
                (header::HOST, "127.0.0.1:8080")
            ]),
            cross
        );
        assert_eq!(refused(&[]), Ok(()));
    }
}
