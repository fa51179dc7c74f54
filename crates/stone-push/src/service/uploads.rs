//! The uploads of a push: each content the server asks for, to its staging URL, in parts
//! or whole, `jobs` at a time, with the retries of `stone-http` and the body read ahead from
//! disk ([`super::read_ahead`]).

use super::*;

impl Session<'_> {
    /// Uploads everything the server asked for, `jobs` requests at a time; returns the bytes.
    pub(super) async fn upload_all(
        &self,
        push_id: &str,
        asked: &[Upload],
        local: &LocalFiles,
    ) -> Result<u64, UploadFailure> {
        let mut units = Vec::new();
        for upload in asked {
            let path = local
                .get(upload.sha256.as_str())
                .map(PathBuf::as_path)
                .ok_or_else(|| {
                    UploadFailure::Failed(PushError::Protocol {
                        phase: Phase::Upload,
                        url: self.api.clone(),
                        message: format!(
                            "the server asked for {}, which is not in the manifest",
                            upload.sha256
                        ),
                    })
                })?;
            match (&upload.url, &upload.parts) {
                (_, Some(parts)) => units.extend(
                    parts
                        .iter()
                        .map(|p| Unit::new(upload, path, &p.url, p.offset, p.size)),
                ),
                (Some(url), None) => units.push(Unit::new(upload, path, url, 0, upload.size)),
                (None, None) => {
                    return Err(UploadFailure::Failed(PushError::Protocol {
                        phase: Phase::Upload,
                        url: self.api.clone(),
                        message: format!(
                            "the upload of {} has neither a url nor parts",
                            upload.sha256
                        ),
                    }));
                }
            }
        }
        // Every URL is checked before the first byte is read from disk and sent.
        for unit in &units {
            check_staging_url(unit.url).map_err(|message| {
                UploadFailure::Failed(PushError::Protocol {
                    phase: Phase::Upload,
                    url: self.api.clone(),
                    message,
                })
            })?;
        }
        let jobs = self.options.jobs.max(1);
        // Each upload's future is made when its turn comes: `jobs` of them at a time, not
        // one per file of the batch (a future that sends a request is kilobytes).
        let mut running = futures::stream::FuturesUnordered::new();
        let mut waiting = units.iter();
        let mut bytes = 0u64;
        loop {
            while running.len() < jobs {
                let Some(unit) = waiting.next() else { break };
                running.push(self.upload_unit(unit));
            }
            match running.next().await {
                Some(sent) => bytes += sent?,
                None => break,
            }
        }
        for upload in asked.iter().filter(|u| u.parts.is_some()) {
            let url = format!(
                "{}/pushes/{}/uploads/{}/complete",
                self.api, push_id, upload.sha256
            );
            let _: serde_json::Value = self
                .request(Phase::Upload, Method::POST, &url, None)
                .await
                .map_err(UploadFailure::Failed)?;
        }
        Ok(bytes)
    }

    /// One PUT of a byte range of a file to a staging URL, streamed from disk, retried.
    async fn upload_unit(&self, unit: &Unit<'_>) -> Result<u64, UploadFailure> {
        let failed = |message: String| {
            UploadFailure::Failed(PushError::Upload {
                path: unit.path.to_owned(),
                sha256: unit.sha256.to_owned(),
                message,
            })
        };
        let whole = unit.size <= READ_WHOLE;
        // Made afresh for each attempt: a streamed body starts again from its offset.
        let build = move || async move {
            let body = if whole {
                let (path, offset, size) = (unit.path.to_owned(), unit.offset, unit.size);
                let bytes = tokio::task::spawn_blocking(move || read_range(&path, offset, size))
                    .await
                    .map_err(|e| e.to_string())?
                    .map_err(|e| e.to_string())?;
                reqwest::Body::from(bytes)
            } else {
                let (path, offset) = (unit.path.to_owned(), unit.offset);
                let file = tokio::task::spawn_blocking(move || {
                    use std::io::Seek;
                    let mut file = std::fs::File::open(&path)?;
                    file.seek(std::io::SeekFrom::Start(offset))?;
                    Ok::<_, std::io::Error>(file)
                })
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| e.to_string())?;
                let progress = self.progress.clone();
                let stream = read_ahead::read_ahead(file, unit.size).inspect_ok(move |chunk| {
                    progress.event(ProgressEvent::Uploaded {
                        bytes: chunk.len() as u64,
                    })
                });
                reqwest::Body::wrap_stream(stream)
            };
            let mut request = self
                .handler
                .uploads
                .put(unit.url)
                .header(reqwest::header::CONTENT_LENGTH, unit.size)
                .body(body);
            for (name, value) in unit.headers {
                request = request.header(name, value);
            }
            Ok::<_, String>(request)
        };
        let note = |_: &retry::Retrying| {
            self.progress.event(ProgressEvent::Note(format!(
                "upload of {} failed — retrying",
                unit.sha256
            )))
        };
        let response =
            match retry::send(self.options.retries, Resend::Idempotent, build, note).await {
                Ok(response) => response,
                Err(SendError::Build(message)) => return Err(failed(message)),
                Err(SendError::Transport(e)) => {
                    return Err(UploadFailure::Failed(PushError::Unavailable {
                        phase: Phase::Upload,
                        url: redact_url(unit.url),
                        message: describe(&e),
                    }));
                }
            };
        let status = response.status();
        if status.is_success() {
            if whole {
                self.progress
                    .event(ProgressEvent::Uploaded { bytes: unit.size });
            }
            return Ok(unit.size);
        }
        let problem = read_problem(response).await;
        let answer = format!("HTTP {status}: {}", problem.brief());
        if retryable_status(status.as_u16()) {
            return Err(failed(format!(
                "the staging server kept failing; its last answer: {answer}"
            )));
        }
        if problem.code == codes::STAGING_EXPIRED
            || status == StatusCode::FORBIDDEN && problem.code.starts_with("http.")
        {
            return Err(UploadFailure::Expired);
        }
        Err(failed(answer))
    }
}

/// `size` bytes of the file at `path` from `offset` (an upload read whole): an error if
/// the file is shorter now than when it was planned.
fn read_range(path: &Path, offset: u64, size: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek};
    let mut file = std::fs::File::open(path)?;
    if offset > 0 {
        file.seek(std::io::SeekFrom::Start(offset))?;
    }
    let mut bytes = vec![0; usize::try_from(size).map_err(std::io::Error::other)?];
    file.read_exact(&mut bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            std::io::Error::new(
                e.kind(),
                format!(
                    "the file is shorter than the {size} bytes planned: it changed during the push"
                ),
            )
        } else {
            e
        }
    })?;
    Ok(bytes)
}

struct Unit<'a> {
    sha256: &'a str,
    path: &'a Path,
    url: &'a str,
    offset: u64,
    size: u64,
    headers: &'a BTreeMap<String, String>,
}

impl<'a> Unit<'a> {
    fn new(upload: &'a Upload, path: &'a Path, url: &'a str, offset: u64, size: u64) -> Self {
        Unit {
            sha256: &upload.sha256,
            path,
            url,
            offset,
            size,
            headers: &upload.headers,
        }
    }
}

/// A staging URL the server handed out: https, or plain http to a loopback address (a
/// local server). Anything else (`file://`, `ftp://`, http to another host) is refused
/// before a byte of the file is read.
fn check_staging_url(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|e| {
        format!(
            "the server gave an upload URL that is not a URL ({e}): {}",
            redact_url(url)
        )
    })?;
    match parsed.scheme() {
        _ if stone_http::transport::secure(&parsed) => Ok(()),
        "http" => Err(format!(
            "the server gave a plain http upload URL to a host that is not a loopback address: {}; \
             stone uploads over https only (plain http to loopback only)",
            redact_url(url)
        )),
        scheme => Err(format!(
            "the server gave an upload URL with the scheme `{scheme}`: {}; stone uploads over https \
             only (plain http to loopback only)",
            redact_url(url)
        )),
    }
}
