//! Content negotiation: the formats of each kind, chosen from `format=`, then `Accept`,
//! then the kind's default.

use std::collections::HashMap;

use axum::http::{HeaderMap, StatusCode, header};
use stone_api::{AssetKind, Engine, codes};

use crate::engines::graph::RdfFormat;
use crate::error::{ApiError, ApiResult};

/// Media type of Parquet (registered 2024).
pub(super) const PARQUET_MEDIA_TYPE: &str = "application/vnd.apache.parquet";

/// Media type of the Arrow IPC stream format.
pub(super) const ARROW_STREAM_MEDIA_TYPE: &str = "application/vnd.apache.arrow.stream";

/// A format the content endpoint serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentFormat {
    Parquet,
    /// The Arrow IPC stream format: what a reader decodes fastest (no Parquet decoding),
    /// sent `Content-Encoding: zstd` to the clients that accept it.
    Arrow,
    Csv,
    Tsv,
    Rdf(RdfFormat),
    /// The stored bytes (object storage).
    Bytes,
}

impl ContentFormat {
    /// The `format=` value.
    pub fn name(self) -> &'static str {
        match self {
            Self::Parquet => "parquet",
            Self::Arrow => "arrow",
            Self::Csv => "csv",
            Self::Tsv => "tsv",
            Self::Rdf(format) => format.extension(),
            Self::Bytes => "bytes",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Some(match text.to_ascii_lowercase().as_str() {
            "parquet" => Self::Parquet,
            "arrow" | "arrows" | "ipc" => Self::Arrow,
            "csv" => Self::Csv,
            "tsv" => Self::Tsv,
            "ttl" | "turtle" => Self::Rdf(RdfFormat::Turtle),
            "nt" | "ntriples" | "n-triples" => Self::Rdf(RdfFormat::NTriples),
            "jsonld" | "json-ld" => Self::Rdf(RdfFormat::JsonLd),
            "bytes" | "raw" => Self::Bytes,
            _ => return None,
        })
    }

    fn from_media_type(media_type: &str) -> Option<Self> {
        match media_type {
            PARQUET_MEDIA_TYPE | "application/x-parquet" | "application/parquet" => {
                Some(Self::Parquet)
            }
            ARROW_STREAM_MEDIA_TYPE => Some(Self::Arrow),
            "text/csv" => Some(Self::Csv),
            "text/tab-separated-values" => Some(Self::Tsv),
            "application/octet-stream" => Some(Self::Bytes),
            other => RdfFormat::from_media_type(other)
                .filter(|_| other != "text/plain")
                .map(Self::Rdf),
        }
    }

    pub(super) fn media_type(self) -> &'static str {
        match self {
            Self::Parquet => PARQUET_MEDIA_TYPE,
            Self::Arrow => ARROW_STREAM_MEDIA_TYPE,
            Self::Csv => "text/csv; charset=utf-8",
            Self::Tsv => "text/tab-separated-values; charset=utf-8",
            Self::Rdf(format) => format.media_type(),
            Self::Bytes => "application/octet-stream",
        }
    }

    /// The formats a kind is served in, the default first.
    pub fn for_kind(kind: AssetKind) -> &'static [ContentFormat] {
        match kind.engine() {
            Engine::Iceberg => &[Self::Csv, Self::Parquet, Self::Tsv, Self::Arrow],
            Engine::Graph => &[
                Self::Rdf(RdfFormat::Turtle),
                Self::Rdf(RdfFormat::NTriples),
                Self::Rdf(RdfFormat::JsonLd),
            ],
            Engine::ObjectStorage => &[Self::Bytes],
        }
    }
}

/// The media types of an `Accept` header, best first (`q=0` dropped; stable for ties).
pub(super) fn accepted(headers: &HeaderMap) -> Vec<String> {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return Vec::new();
    };
    let mut ranked: Vec<(f32, usize, String)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.split(';');
            let media = parts.next()?.trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!media.is_empty() && q > 0.0).then_some((q, i, media))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().map(|(_, _, m)| m).collect()
}

/// Whether `Accept-Encoding` accepts `zstd` (named, with a `q` above 0).
pub(super) fn accepts_zstd(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            coding.eq_ignore_ascii_case("zstd") && q > 0.0
        })
}

/// How the Arrow answer is compressed, as the client asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArrowCompression {
    /// No `compression=`: the stream plain, or compressed whole (`Content-Encoding:
    /// zstd`) to a client that sends `Accept-Encoding: zstd` (the older clients).
    Negotiated,
    /// `compression=zstd`: each batch's buffers compressed with zstd inside the stream
    /// (the IPC format's own compression), no `Content-Encoding`: a reader decompresses
    /// them on its threads.
    Buffers,
}

/// The `compression=` of a request: only for the Arrow answer, only `zstd` (a server
/// that predates it ignores it, so a client must read whatever `Content-Encoding` comes
/// back; the stream says itself whether its buffers are compressed).
pub(super) fn arrow_compression(
    format: ContentFormat,
    query: &HashMap<String, String>,
) -> ApiResult<ArrowCompression> {
    let Some(asked) = query.get("compression") else {
        return Ok(ArrowCompression::Negotiated);
    };
    if format != ContentFormat::Arrow {
        return Err(ApiError::invalid_field(
            "compression",
            format!(
                "compression= applies to the Arrow answer (format=arrow) only, not to {}; remove it",
                format.name()
            ),
        ));
    }
    match asked.to_ascii_lowercase().as_str() {
        "zstd" => Ok(ArrowCompression::Buffers),
        _ => Err(ApiError::invalid_field(
            "compression",
            format!(
                "unknown compression `{asked}`; use compression=zstd (the stream's buffers compressed), or leave it out"
            ),
        )),
    }
}

/// Whether the client asks for the metadata JSON rather than the content (IRI form).
pub(super) fn wants_json(headers: &HeaderMap, query: &HashMap<String, String>) -> bool {
    if query.contains_key("format") {
        return query.get("format").is_some_and(|f| f == "json");
    }
    accepted(headers)
        .first()
        .is_some_and(|m| m == "application/json")
}

/// Picks the format: `format=` first, else the best `Accept` match the kind serves, else
/// the kind's default. 406 when nothing fits.
pub(super) fn choose_format(
    kind: AssetKind,
    headers: &HeaderMap,
    query: &HashMap<String, String>,
) -> ApiResult<ContentFormat> {
    let served = ContentFormat::for_kind(kind);
    let refuse = |asked: &str| {
        ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            codes::REQUEST_NOT_ACCEPTABLE,
            "Not acceptable",
            format!(
                "a {kind} dataset cannot be served as {asked}; it is served as {}",
                names(served).join(", ")
            ),
        )
        .with("formats", names(served))
    };
    if let Some(asked) = query.get("format").filter(|f| !f.is_empty()) {
        let format = ContentFormat::parse(asked).ok_or_else(|| {
            ApiError::invalid_field(
                "format",
                format!(
                    "unknown format `{asked}`; use parquet, arrow, csv, tsv, ttl, nt, jsonld or bytes"
                ),
            )
        })?;
        return if served.contains(&format) {
            Ok(format)
        } else {
            Err(refuse(asked))
        };
    }
    let media_types = accepted(headers);
    if media_types.is_empty() {
        return Ok(served[0]);
    }
    for media in &media_types {
        if media == "*/*" || media.ends_with("/*") {
            return Ok(served[0]);
        }
        if let Some(format) = ContentFormat::from_media_type(media)
            && served.contains(&format)
        {
            return Ok(format);
        }
    }
    Err(refuse(&media_types.join(", ")))
}

pub(super) fn names(formats: &[ContentFormat]) -> Vec<&'static str> {
    formats.iter().map(|f| f.name()).collect()
}

/// The formats of [`DatasetInfo::formats`].
pub fn format_names(kind: AssetKind) -> Vec<String> {
    names(ContentFormat::for_kind(kind))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::graph::RdfFormat;
    use axum::http::HeaderValue;

    #[test]
    fn formats_follow_format_then_accept_then_the_default() {
        let query = |f: &str| HashMap::from([("format".to_owned(), f.to_owned())]);
        let accept = |a: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, HeaderValue::from_str(a).unwrap());
            h
        };
        let none = HashMap::new();
        let tab = AssetKind::Tabular;
        assert_eq!(
            choose_format(tab, &HeaderMap::new(), &none).unwrap(),
            ContentFormat::Csv
        );
        assert_eq!(
            choose_format(tab, &HeaderMap::new(), &query("parquet")).unwrap(),
            ContentFormat::Parquet
        );
        assert_eq!(
            choose_format(tab, &HeaderMap::new(), &query("arrow")).unwrap(),
            ContentFormat::Arrow
        );
        assert_eq!(
            choose_format(tab, &accept("application/vnd.apache.arrow.stream"), &none).unwrap(),
            ContentFormat::Arrow
        );
        assert!(accepts_zstd(&{
            let mut h = HeaderMap::new();
            h.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_static("gzip, zstd"),
            );
            h
        }));
        assert!(!accepts_zstd(&{
            let mut h = HeaderMap::new();
            h.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_static("zstd;q=0, gzip"),
            );
            h
        }));
        assert!(!accepts_zstd(&HeaderMap::new()));
        assert_eq!(
            choose_format(
                tab,
                &accept("text/html;q=0.9, text/tab-separated-values"),
                &none
            )
            .unwrap(),
            ContentFormat::Tsv
        );
        assert_eq!(
            choose_format(AssetKind::Graph, &accept("application/n-triples"), &none).unwrap(),
            ContentFormat::Rdf(RdfFormat::NTriples)
        );
        let refused =
            choose_format(AssetKind::Graph, &HeaderMap::new(), &query("csv")).unwrap_err();
        assert_eq!(refused.problem.status, 406);
        let unknown = choose_format(tab, &HeaderMap::new(), &query("xlsx")).unwrap_err();
        assert_eq!(unknown.problem.status, 400);
        assert!(choose_format(tab, &accept("image/png"), &none).is_err());
    }

    #[test]
    fn compression_is_zstd_for_the_arrow_answer_only() {
        let query = |c: &str| HashMap::from([("compression".to_owned(), c.to_owned())]);
        assert_eq!(
            arrow_compression(ContentFormat::Arrow, &HashMap::new()).unwrap(),
            ArrowCompression::Negotiated
        );
        assert_eq!(
            arrow_compression(ContentFormat::Arrow, &query("zstd")).unwrap(),
            ArrowCompression::Buffers
        );
        assert_eq!(
            arrow_compression(ContentFormat::Arrow, &query("ZSTD")).unwrap(),
            ArrowCompression::Buffers
        );
        for (format, asked) in [
            (ContentFormat::Arrow, "lz4"),
            (ContentFormat::Arrow, ""),
            (ContentFormat::Parquet, "zstd"),
            (ContentFormat::Csv, "zstd"),
        ] {
            let refused = arrow_compression(format, &query(asked)).unwrap_err();
            assert_eq!(refused.problem.status, 400, "{format:?} {asked:?}");
        }
    }
}
