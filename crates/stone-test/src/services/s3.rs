//! A minimal S3 client (path-style, AWS Signature Version 4 by hand) for checking what
//! lands in a bucket. Only what tests need: buckets, put/get/head/delete, list.

use std::time::{SystemTime, UNIX_EPOCH};

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::http::{HttpResponse, agent, send};

/// Credentials and endpoint of an S3-compatible server, with signed requests.
#[derive(Clone)]
pub struct S3Client {
    endpoint: String,
    region: String,
    access_key: String,
    secret_key: String,
    /// Temporary credentials' session token (`x-amz-security-token`, signed).
    session_token: Option<String>,
    agent: ureq::Agent,
}

impl std::fmt::Debug for S3Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Client")
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key", &self.access_key)
            .finish_non_exhaustive()
    }
}

impl S3Client {
    /// `endpoint` like `http://127.0.0.1:8333` (no trailing slash needed).
    pub fn new(endpoint: &str, region: &str, access_key: &str, secret_key: &str) -> Self {
        S3Client {
            endpoint: endpoint.trim_end_matches('/').to_owned(),
            region: region.to_owned(),
            access_key: access_key.to_owned(),
            secret_key: secret_key.to_owned(),
            session_token: None,
            agent: agent(),
        }
    }

    /// The same client signing with temporary credentials (STS): `session_token` is
    /// sent and signed as `x-amz-security-token`.
    pub fn with_session_token(mut self, session_token: &str) -> Self {
        self.session_token = Some(session_token.to_owned());
        self
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Sends one signed request; `path` is `/bucket/key` (unencoded), `query` unencoded
    /// pairs. Any status is returned; transport errors are `Err`.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        query: &[(&str, &str)],
        body: &[u8],
    ) -> Result<HttpResponse, String> {
        let canonical_path = encode_path(path);
        let mut pairs: Vec<(String, String)> = query
            .iter()
            .map(|(k, v)| (uri_encode(k, true), uri_encode(v, true)))
            .collect();
        pairs.sort();
        let canonical_query = pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        let host = self
            .endpoint
            .split_once("://")
            .map_or(self.endpoint.as_str(), |(_, rest)| rest)
            .trim_end_matches('/')
            .to_owned();
        let (amz_date, date) = amz_now();
        let payload_hash = hex(&Sha256::digest(body));
        let (token_header, token_name) = match &self.session_token {
            Some(token) => (
                format!("x-amz-security-token:{token}\n"),
                ";x-amz-security-token",
            ),
            None => (String::new(), ""),
        };
        let signed_headers = format!("host;x-amz-content-sha256;x-amz-date{token_name}");
        let canonical_request = format!(
            "{method}\n{canonical_path}\n{canonical_query}\nhost:{host}\nx-amz-content-sha256:{payload_hash}\nx-amz-date:{amz_date}\n{token_header}\n{signed_headers}\n{payload_hash}"
        );
        let scope = format!("{date}/{}/s3/aws4_request", self.region);
        let string_to_sign = format!(
            "AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}",
            hex(&Sha256::digest(canonical_request.as_bytes()))
        );
        let mut key = hmac(
            format!("AWS4{}", self.secret_key).as_bytes(),
            date.as_bytes(),
        );
        for part in [self.region.as_str(), "s3", "aws4_request"] {
            key = hmac(&key, part.as_bytes());
        }
        let signature = hex(&hmac(&key, string_to_sign.as_bytes()));
        let authorization = format!(
            "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders={signed_headers}, Signature={signature}",
            self.access_key
        );
        let mut url = format!("{}{canonical_path}", self.endpoint);
        if !canonical_query.is_empty() {
            url.push('?');
            url.push_str(&canonical_query);
        }
        let mut request = ureq::http::Request::builder()
            .method(method)
            .uri(&url)
            .header("x-amz-date", &amz_date)
            .header("x-amz-content-sha256", &payload_hash)
            .header("authorization", authorization);
        if let Some(token) = &self.session_token {
            request = request.header("x-amz-security-token", token);
        }
        let request = request
            .body(body.to_vec())
            .map_err(|e| format!("bad S3 request {method} {url}: {e}"))?;
        send(self.agent.run(request)).map_err(|e| format!("S3 {method} {url}: {e}"))
    }

    fn expect(
        &self,
        what: &str,
        response: Result<HttpResponse, String>,
        ok: &[u16],
    ) -> HttpResponse {
        match response {
            Ok(r) if ok.contains(&r.status) => r,
            Ok(r) => panic!(
                "S3 {what} at {} failed: HTTP {}: {}",
                self.endpoint,
                r.status,
                r.text()
            ),
            Err(e) => panic!("S3 {what} failed: {e}"),
        }
    }

    /// Creates a bucket (names of at least 3 characters); an existing one is fine.
    pub fn create_bucket(&self, bucket: &str) {
        let response = self.request("PUT", &format!("/{bucket}"), &[], b"");
        let r = self.expect(&format!("CreateBucket {bucket}"), response, &[200, 409]);
        if r.status == 409
            && !r.text().contains("BucketAlreadyOwnedByYou")
            && !r.text().contains("BucketAlreadyExists")
        {
            panic!("S3 CreateBucket {bucket}: HTTP 409: {}", r.text());
        }
    }

    /// Deletes an empty bucket.
    pub fn delete_bucket(&self, bucket: &str) {
        let response = self.request("DELETE", &format!("/{bucket}"), &[], b"");
        self.expect(&format!("DeleteBucket {bucket}"), response, &[200, 204]);
    }

    /// The names of all buckets.
    pub fn list_buckets(&self) -> Vec<String> {
        let response = self.request("GET", "/", &[], b"");
        let r = self.expect("ListBuckets", response, &[200]);
        xml_values(&r.text(), "Name")
    }

    pub fn put_object(&self, bucket: &str, key: &str, body: &[u8]) {
        let response = self.request("PUT", &format!("/{bucket}/{key}"), &[], body);
        self.expect(&format!("PutObject {bucket}/{key}"), response, &[200]);
    }

    /// The object's bytes, or `None` when it does not exist.
    pub fn get_object(&self, bucket: &str, key: &str) -> Option<Vec<u8>> {
        let response = self.request("GET", &format!("/{bucket}/{key}"), &[], b"");
        let r = self.expect(&format!("GetObject {bucket}/{key}"), response, &[200, 404]);
        (r.status == 200).then_some(r.body)
    }

    /// The object's size, or `None` when it does not exist.
    pub fn head_object(&self, bucket: &str, key: &str) -> Option<u64> {
        let response = self.request("HEAD", &format!("/{bucket}/{key}"), &[], b"");
        let r = self.expect(&format!("HeadObject {bucket}/{key}"), response, &[200, 404]);
        (r.status == 200).then(|| {
            r.header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        })
    }

    pub fn delete_object(&self, bucket: &str, key: &str) {
        let response = self.request("DELETE", &format!("/{bucket}/{key}"), &[], b"");
        self.expect(
            &format!("DeleteObject {bucket}/{key}"),
            response,
            &[200, 204],
        );
    }

    /// The keys under `prefix`, sorted (all pages).
    pub fn list_objects(&self, bucket: &str, prefix: &str) -> Vec<String> {
        let mut keys = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut query = vec![("list-type", "2"), ("prefix", prefix)];
            if let Some(t) = &token {
                query.push(("continuation-token", t));
            }
            let response = self.request("GET", &format!("/{bucket}"), &query, b"");
            let text = self
                .expect(&format!("ListObjectsV2 {bucket}"), response, &[200])
                .text();
            keys.extend(xml_values(&text, "Key"));
            token = xml_values(&text, "NextContinuationToken")
                .into_iter()
                .next();
            if token.is_none() || !text.contains("<IsTruncated>true</IsTruncated>") {
                break;
            }
        }
        keys.sort();
        keys
    }
}

/// The texts of every `<tag>…</tag>` in a small S3 XML answer, entities decoded.
fn xml_values(xml: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut values = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find(&open) {
        rest = &rest[start + open.len()..];
        let Some(end) = rest.find(&close) else { break };
        values.push(
            rest[..end]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&"),
        );
        rest = &rest[end + close.len()..];
    }
    values
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// RFC 3986 unreserved characters stay, the rest is %XX; `/` too when `encode_slash`.
fn uri_encode(text: &str, encode_slash: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            b'/' if !encode_slash => out.push('/'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn encode_path(path: &str) -> String {
    let path = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    };
    uri_encode(&path, false)
}

/// (`YYYYMMDDTHHMMSSZ`, `YYYYMMDD`) for now, UTC.
fn amz_now() -> (String, String) {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock before 1970")
        .as_secs();
    let days = (seconds / 86_400) as i64;
    let time = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    let date = format!("{year:04}{month:02}{day:02}");
    let stamp = format!(
        "{date}T{:02}{:02}{:02}Z",
        time / 3600,
        time / 60 % 60,
        time % 60
    );
    (stamp, date)
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn encodes_like_sigv4() {
        assert_eq!(encode_path("/b/a b/ü+x"), "/b/a%20b/%C3%BC%2Bx");
        assert_eq!(uri_encode("a/b=c", true), "a%2Fb%3Dc");
    }

    #[test]
    fn reads_s3_xml() {
        let xml = "<R><Contents><Key>a&amp;b</Key></Contents><Contents><Key>c</Key></Contents></R>";
        assert_eq!(xml_values(xml, "Key"), ["a&b", "c"]);
    }
}
