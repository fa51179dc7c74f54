//! The S3 calls `object_store` does not offer (ListParts, ListMultipartUploads): presigned
//! GETs, their XML answers read by tag.

use std::time::{Duration, SystemTime};

use object_store::path::Path as ObjectPath;
use object_store::signer::{Method, SignedUrlOptions, Signer};

use super::{Place, S3Staging, s3_error};
use crate::staging::StagingError;

impl S3Staging {
    /// Parts of a multipart upload: `(number, etag)`. `None` when S3 no longer knows the
    /// upload (completed or aborted).
    pub(super) async fn list_parts(
        &self,
        key: &ObjectPath,
        upload_id: &str,
    ) -> Result<Option<Vec<(u32, String)>>, StagingError> {
        let (status, text) = self
            .signed_get(
                "ListParts",
                key,
                SignedUrlOptions::default().with_query([("uploadId", upload_id)]),
            )
            .await?;
        if status == reqwest::StatusCode::NOT_FOUND || text.contains("NoSuchUpload") {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(StagingError::S3 {
                what: format!("ListParts answered HTTP {status}"),
                source: text.into(),
            });
        }
        let mut parts = Vec::new();
        for part in xml_elements(&text, "Part") {
            let number = xml_elements(part, "PartNumber")
                .first()
                .and_then(|n| n.trim().parse().ok());
            let etag = xml_elements(part, "ETag").first().map(|e| xml_unescape(e));
            if let (Some(number), Some(etag)) = (number, etag) {
                parts.push((number, etag));
            }
        }
        parts.sort();
        Ok(Some(parts))
    }

    /// The multipart uploads in progress under the prefix, from S3 itself
    /// (ListMultipartUploads; `object_store` has no call for it, so a presigned GET):
    /// `(owner, sha256, upload ID, initiated)`. Finds the uploads no record names (the server
    /// died between CreateMultipartUpload and recording it). One page (1000 uploads).
    pub(super) async fn list_multipart_uploads(
        &self,
    ) -> Result<Vec<(String, String, String, SystemTime)>, StagingError> {
        let (status, text) = self
            .signed_get(
                "ListMultipartUploads",
                &ObjectPath::from(""),
                SignedUrlOptions::default()
                    .with_query([("uploads", ""), ("prefix", self.prefix.as_str())]),
            )
            .await?;
        if !status.is_success() {
            return Err(StagingError::S3 {
                what: format!("ListMultipartUploads answered HTTP {status}"),
                source: text.into(),
            });
        }
        let mut uploads = Vec::new();
        for upload in xml_elements(&text, "Upload") {
            let key = xml_elements(upload, "Key").first().map(|k| xml_unescape(k));
            let id = xml_elements(upload, "UploadId")
                .first()
                .map(|i| xml_unescape(i));
            let initiated = xml_elements(upload, "Initiated")
                .first()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
                .map(SystemTime::from);
            if let (Some(key), Some(id), Some(initiated)) = (key, id, initiated)
                && let Some((place, owner, sha256)) = self.parse_key(&key)
                && place != Place::Direct
            {
                uploads.push((owner.to_owned(), sha256.to_owned(), id, initiated));
            }
        }
        Ok(uploads)
    }

    /// A presigned GET of an S3 call `object_store` does not offer: status and body.
    pub(super) async fn signed_get(
        &self,
        what: &str,
        path: &ObjectPath,
        options: SignedUrlOptions,
    ) -> Result<(reqwest::StatusCode, String), StagingError> {
        let url = self
            .store
            .signed_url_opts(Method::GET, path, Duration::from_secs(300), &options)
            .await
            .map_err(s3_error(format!("signing {what}")))?;
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| StagingError::S3 {
                what: what.to_owned(),
                source: Box::new(e),
            })?;
        let status = response.status();
        Ok((status, response.text().await.unwrap_or_default()))
    }
}

/// The texts of every `<tag>…</tag>` (no attributes, no nesting of the same tag).
fn xml_elements<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut found = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(&close) else { break };
        found.push(&after[..end]);
        rest = &after[end + close.len()..];
    }
    found
}

fn xml_unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parts_answers_are_read() {
        let xml = r#"<?xml version="1.0"?><ListPartsResult><Bucket>b</Bucket>
            <Part><PartNumber>2</PartNumber><ETag>&quot;bb&quot;</ETag><Size>5</Size></Part>
            <Part><PartNumber>1</PartNumber><ETag>"aa"</ETag><Size>5</Size></Part>
            </ListPartsResult>"#;
        let parts: Vec<(u32, String)> = xml_elements(xml, "Part")
            .into_iter()
            .map(|p| {
                (
                    xml_elements(p, "PartNumber")[0].parse().unwrap(),
                    xml_unescape(xml_elements(p, "ETag")[0]),
                )
            })
            .collect();
        assert_eq!(parts, vec![(2, "\"bb\"".into()), (1, "\"aa\"".into())]);
    }
}
