//! AWS Signature Version 4 for the few requests the server signs by hand: S3 reads it
//! signs for readers of the Iceberg REST catalog ([`crate::engines::iceberg`]) and the STS
//! call that vends short-lived credentials ([`crate::vended`]).

use std::collections::BTreeMap;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// Keys and region of an AWS Signature V4.
pub(crate) struct SigV4<'a> {
    pub access_key_id: &'a str,
    pub secret_access_key: &'a str,
    pub region: &'a str,
}

/// A request to sign: `method` to `path` (already a valid URI path, no query) on `host`,
/// for `service` (`s3`, `sts`), with its own `headers` (every one is signed) and
/// `payload_hash` (hex sha256 of the body, or `UNSIGNED-PAYLOAD`).
pub(crate) struct Request<'a> {
    pub service: &'a str,
    pub method: &'a str,
    pub host: &'a str,
    pub path: &'a str,
    pub headers: &'a [(String, String)],
    pub payload_hash: &'a str,
}

/// The headers that sign `request` at `now`: `authorization`, `x-amz-date` and
/// `x-amz-content-sha256`. Signed: `host`, those two, and the request's own headers.
pub(crate) fn headers(
    keys: &SigV4<'_>,
    request: &Request<'_>,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(&'static str, String)> {
    fn hmac(key: &[u8], data: &str) -> Vec<u8> {
        let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
        mac.update(data.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }
    let amz_date = now.format("%Y%m%dT%H%M%SZ").to_string();
    let date = now.format("%Y%m%d").to_string();
    let scope = format!("{date}/{}/{}/aws4_request", keys.region, request.service);
    let mut signed: BTreeMap<String, String> = request
        .headers
        .iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    signed.insert("host".to_owned(), request.host.to_owned());
    signed.insert(
        "x-amz-content-sha256".to_owned(),
        request.payload_hash.to_owned(),
    );
    signed.insert("x-amz-date".to_owned(), amz_date.clone());
    let canonical_headers: String = signed
        .iter()
        .map(|(name, value)| format!("{name}:{value}\n"))
        .collect();
    let signed_names = signed.keys().cloned().collect::<Vec<_>>().join(";");
    let canonical = format!(
        "{}\n{}\n\n{canonical_headers}\n{signed_names}\n{}",
        request.method, request.path, request.payload_hash
    );
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}",
        hex::encode(Sha256::digest(canonical.as_bytes()))
    );
    let mut key = hmac(format!("AWS4{}", keys.secret_access_key).as_bytes(), &date);
    for part in [keys.region, request.service, "aws4_request"] {
        key = hmac(&key, part);
    }
    let signature = hex::encode(hmac(&key, &to_sign));
    vec![
        (
            "authorization",
            format!(
                "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders={signed_names}, Signature={signature}",
                keys.access_key_id
            ),
        ),
        ("x-amz-date", amz_date),
        ("x-amz-content-sha256", request.payload_hash.to_owned()),
    ]
}
