//! Short-lived, read-only storage credentials for one table of an S3 warehouse (the
//! Iceberg REST catalog's `vended-credentials` access delegation), from the STS of the
//! S3 server: `GetFederationToken` signed with the warehouse's keys, with a session
//! policy that allows `s3:GetObject` on the table's prefix and nothing else. The
//! credentials the store issues can do no more than both the warehouse's keys and that
//! policy allow, and expire after [`DURATION_SECONDS`]. The warehouse's own keys never
//! leave the server.
//!
//! SeaweedFS (4.48, what `scripts/install-tools` installs) answers STS calls on its S3
//! port and enforces session policies, provided the identity of the warehouse's keys has
//! an IAM policy attached (`policyNames` in its `s3.json`); without one every request
//! of the temporary credentials is refused. AWS: `GetFederationToken` needs an IAM
//! user's keys (not a role's) and the STS endpoint `https://sts.amazonaws.com`.

use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::engines::blob::S3Settings;
use crate::sigv4::{Request, SigV4};

/// How long vended credentials live: the shortest `GetFederationToken` allows.
pub const DURATION_SECONDS: u64 = 900;

/// Temporary credentials of one table.
#[derive(Clone)]
pub struct VendedCredentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: String,
    /// When they expire (RFC 3339, as the store wrote it).
    pub expiration: String,
}

impl std::fmt::Debug for VendedCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VendedCredentials")
            .field("access_key_id", &self.access_key_id)
            .field("expiration", &self.expiration)
            .finish_non_exhaustive()
    }
}

/// Why no credentials were vended.
#[derive(Debug, thiserror::Error)]
pub enum VendError {
    #[error(
        "the warehouse is reached with ambient credentials: vending needs [iceberg.s3] access_key_id and secret_access_key"
    )]
    NoKeys,
    #[error("{location} is not a prefix of the warehouse's bucket {bucket}")]
    Location { location: String, bucket: String },
    #[error("calling the STS at {endpoint}: {source}")]
    Request {
        endpoint: String,
        source: reqwest::Error,
    },
    #[error("the STS at {endpoint} answered HTTP {status}: {answer}")]
    Refused {
        endpoint: String,
        status: u16,
        answer: String,
    },
    #[error("the STS at {endpoint} answered without credentials: {answer}")]
    Unreadable { endpoint: String, answer: String },
}

/// The STS endpoint of a warehouse: its S3 endpoint (SeaweedFS, MinIO, … answer STS
/// calls there), or AWS's global one.
pub fn sts_endpoint(s3: &S3Settings) -> String {
    s3.endpoint.as_deref().map_or_else(
        || "https://sts.amazonaws.com".to_owned(),
        |e| e.trim_end_matches('/').to_owned(),
    )
}

/// The session policy of a table's credentials: read (`GetObject`, which covers `HEAD`)
/// the objects under `key_prefix` (no trailing `/`) of `bucket`; nothing else.
pub fn read_policy(bucket: &str, key_prefix: &str) -> String {
    serde_json::json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Effect": "Allow",
            "Action": ["s3:GetObject"],
            "Resource": [format!("arn:aws:s3:::{bucket}/{key_prefix}/*")],
        }],
    })
    .to_string()
}

/// Credentials that read the objects under `location` (`s3://<bucket>/<prefix>`, the
/// table's location) only, for [`DURATION_SECONDS`].
pub async fn for_table(
    http: &reqwest::Client,
    s3: &S3Settings,
    location: &str,
) -> Result<VendedCredentials, VendError> {
    if s3.access_key_id.is_empty() || s3.secret_access_key.is_empty() {
        return Err(VendError::NoKeys);
    }
    let key_prefix = location
        .strip_prefix(&format!("s3://{}/", s3.bucket))
        .map(|p| p.trim_end_matches('/'))
        .filter(|p| {
            !p.is_empty()
                && !p.contains(['*', '?', '"', '\\'])
                && p.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
        })
        .ok_or_else(|| VendError::Location {
            location: location.to_owned(),
            bucket: s3.bucket.clone(),
        })?;
    let endpoint = sts_endpoint(s3);
    let region = if s3.region.is_empty() {
        "us-east-1"
    } else {
        s3.region.as_str()
    };
    let duration = DURATION_SECONDS.to_string();
    let policy = read_policy(&s3.bucket, key_prefix);
    let body = form(&[
        ("Action", "GetFederationToken"),
        ("Version", "2011-06-15"),
        ("Name", "stone-reader"),
        ("DurationSeconds", &duration),
        ("Policy", &policy),
    ]);
    let host = endpoint
        .split_once("://")
        .map_or(endpoint.as_str(), |(_, rest)| rest)
        .trim_end_matches('/');
    let headers = sign_post(
        &s3.access_key_id,
        &s3.secret_access_key,
        region,
        host,
        &body,
        chrono::Utc::now(),
    );
    let mut request = http
        .post(format!("{endpoint}/"))
        .timeout(Duration::from_secs(30))
        .body(body);
    for (name, value) in &headers {
        request = request.header(*name, value);
    }
    let response = request.send().await.map_err(|source| VendError::Request {
        endpoint: endpoint.clone(),
        source,
    })?;
    let status = response.status();
    let answer = response.text().await.unwrap_or_default();
    if !status.is_success() {
        return Err(VendError::Refused {
            endpoint,
            status: status.as_u16(),
            answer: answer.chars().take(500).collect(),
        });
    }
    let field = |tag: &str| xml_text(&answer, tag).map(str::to_owned);
    match (
        field("AccessKeyId"),
        field("SecretAccessKey"),
        field("SessionToken"),
        field("Expiration"),
    ) {
        (Some(access_key_id), Some(secret_access_key), Some(session_token), Some(expiration)) => {
            Ok(VendedCredentials {
                access_key_id,
                secret_access_key,
                session_token,
                expiration,
            })
        }
        _ => Err(VendError::Unreadable {
            endpoint,
            answer: answer.chars().take(200).collect(),
        }),
    }
}

/// `application/x-www-form-urlencoded` of `pairs` (RFC 3986 unreserved characters kept).
fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The text of the first `<tag>…</tag>`.
fn xml_text<'a>(xml: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{tag}>"))?;
    Some(xml[start..start + end].trim())
}

/// The Signature V4 headers (service `sts`) of a form `POST` of `body` to `/` on `host`.
fn sign_post(
    access_key_id: &str,
    secret_access_key: &str,
    region: &str,
    host: &str,
    body: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(&'static str, String)> {
    const CONTENT_TYPE: &str = "application/x-www-form-urlencoded; charset=utf-8";
    let payload = hex::encode(Sha256::digest(body.as_bytes()));
    let keys = SigV4 {
        access_key_id,
        secret_access_key,
        region,
    };
    let content_type = [("content-type".to_owned(), CONTENT_TYPE.to_owned())];
    let request = Request {
        service: "sts",
        method: "POST",
        host,
        path: "/",
        headers: &content_type,
        payload_hash: &payload,
    };
    let mut headers = crate::sigv4::headers(&keys, &request, now);
    headers.push(("content-type", CONTENT_TYPE.to_owned()));
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_reads_one_prefix_only() {
        let policy: serde_json::Value =
            serde_json::from_str(&read_policy("lake", "wh/shop/people-1")).unwrap();
        let statements = policy["Statement"].as_array().unwrap();
        assert_eq!(statements.len(), 1);
        assert_eq!(statements[0]["Effect"], "Allow");
        assert_eq!(statements[0]["Action"], serde_json::json!(["s3:GetObject"]));
        assert_eq!(
            statements[0]["Resource"],
            serde_json::json!(["arn:aws:s3:::lake/wh/shop/people-1/*"])
        );
    }

    #[test]
    fn forms_are_encoded_and_answers_read() {
        assert_eq!(
            form(&[("Policy", "{\"a\": [1]}"), ("Name", "x-y_z.~")]),
            "Policy=%7B%22a%22%3A%20%5B1%5D%7D&Name=x-y_z.~"
        );
        let xml = "<R><Credentials><AccessKeyId>AK</AccessKeyId><SessionToken> t </SessionToken></Credentials></R>";
        assert_eq!(xml_text(xml, "AccessKeyId"), Some("AK"));
        assert_eq!(xml_text(xml, "SessionToken"), Some("t"));
        assert_eq!(xml_text(xml, "Expiration"), None);
    }

    #[tokio::test]
    async fn locations_outside_the_bucket_or_with_wildcards_get_nothing() {
        let s3 = S3Settings {
            endpoint: Some("http://127.0.0.1:1".into()),
            bucket: "lake".into(),
            region: String::new(),
            access_key_id: "id".into(),
            secret_access_key: "secret".into(),
            prefix: String::new(),
            allow_http: true,
        };
        let http = reqwest::Client::new();
        for location in [
            "s3://other/wh/t",
            "s3://lake/",
            "s3://lake/wh/*",
            "s3://lake/wh/../x",
            "s3://lakehouse/wh/t",
        ] {
            let error = for_table(&http, &s3, location).await.unwrap_err();
            assert!(
                matches!(error, VendError::Location { .. }),
                "{location}: {error}"
            );
        }
        let keyless = S3Settings {
            access_key_id: String::new(),
            ..s3
        };
        assert!(matches!(
            for_table(&http, &keyless, "s3://lake/wh/t").await,
            Err(VendError::NoKeys)
        ));
    }
}
