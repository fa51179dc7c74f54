//! The uploads of a push: each content the server asks for, to its staging URL, in parts
//! or whole, or (issue 27) small ones together in packs where the server offers a pack
//! URL; `jobs` requests at a time, with the retries of `stone-http` and the body read ahead
//! from disk ([`super::read_ahead`]).

use futures::future::Either;
use std::sync::Mutex;
use stone_api::PackUpload;

use stone_api::pack::record_header;

use super::*;

impl Session<'_> {
    /// Uploads everything the server asked for, `jobs` requests at a time; returns the bytes.
    pub(super) async fn upload_all(
        &self,
        push_id: &str,
        asked: &[Upload],
        pack: Option<&PackUpload>,
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
        let protocol = |message| {
            UploadFailure::Failed(PushError::Protocol {
                phase: Phase::Upload,
                url: self.api.clone(),
                message,
            })
        };
        for unit in &units {
            check_staging_url(unit.url).map_err(protocol)?;
        }
        if let Some(pack) = pack {
            check_staging_url(&pack.url).map_err(protocol)?;
        }
        let jobs = self.options.jobs.max(1);
        let (packs, units) = in_packs(pack, units, jobs);
        // Each upload's future is made when its turn comes: `jobs` of them at a time, not
        // one per file of the batch (a future that sends a request is kilobytes).
        let mut running = futures::stream::FuturesUnordered::new();
        let mut waiting = packs
            .iter()
            .map(Either::Left)
            .chain(units.iter().map(Either::Right));
        let mut bytes = 0u64;
        loop {
            while running.len() < jobs {
                match waiting.next() {
                    Some(Either::Left(members)) => {
                        let url = pack.map(|p| p.url.as_str()).unwrap_or_default();
                        running.push(Either::Left(self.upload_pack(url, members)));
                    }
                    Some(Either::Right(unit)) => {
                        running.push(Either::Right(self.upload_unit(unit)))
                    }
                    None => break,
                }
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
        refused(status, read_problem(response).await, failed)
    }
}

/// Packs each of the `jobs` concurrent requests gets of an answer's small uploads, at least.
const PACKS_PER_JOB: usize = 4;
/// Contents of a pack, at least (but the last).
const PACK_MIN_MEMBERS: usize = 8;
/// Bytes of a pack body the client makes, at most, whatever the server offers.
const PACK_MAX_BYTES: u64 = 16 << 20;

impl Session<'_> {
    /// Issue 27: one PUT of several small contents, read whole, to the answer's pack URL
    /// (`stone_api::pack`), retried as a whole; every content is staged or none.
    async fn upload_pack(&self, url: &str, members: &[Unit<'_>]) -> Result<u64, UploadFailure> {
        let Some(first) = members.first() else {
            return Ok(0);
        };
        let failed = |unit: &Unit<'_>, message: String| {
            UploadFailure::Failed(PushError::Upload {
                path: unit.path.to_owned(),
                sha256: unit.sha256.to_owned(),
                message,
            })
        };
        let files: Arc<[(PathBuf, String, u64)]> = members
            .iter()
            .map(|u| (u.path.to_owned(), u.sha256.to_owned(), u.size))
            .collect();
        let length: u64 = members
            .iter()
            .map(|u| stone_api::pack::record_len(u.sha256, u.size))
            .sum();
        // The first member that could not be read, of any attempt.
        let unread: Arc<Mutex<Option<(usize, String)>>> = Arc::default();
        let size: u64 = members.iter().map(|u| u.size).sum();
        let build = || {
            let body = pack_body(files.clone(), unread.clone());
            async move {
                Ok::<_, String>(
                    self.handler
                        .uploads
                        .put(url)
                        .header(
                            reqwest::header::CONTENT_TYPE,
                            stone_api::pack::PACK_CONTENT_TYPE,
                        )
                        .header(reqwest::header::CONTENT_LENGTH, length)
                        .body(body),
                )
            }
        };
        let note = |_: &retry::Retrying| {
            self.progress.event(ProgressEvent::Note(format!(
                "upload of a pack of {} files failed — retrying",
                members.len()
            )))
        };
        let response = match retry::send(self.options.retries, Resend::Idempotent, build, note)
            .await
        {
            Ok(response) => response,
            Err(SendError::Build(message)) => return Err(failed(first, message)),
            Err(SendError::Transport(e)) => {
                // A member that could not be read is the pack's failure, not the
                // staging store (the body's error ended the request).
                if let Some((at, message)) = unread.lock().unwrap_or_else(|e| e.into_inner()).take()
                {
                    return Err(failed(&members[at], message));
                }
                return Err(UploadFailure::Failed(PushError::Unavailable {
                    phase: Phase::Upload,
                    url: redact_url(url),
                    message: describe(&e),
                }));
            }
        };
        let status = response.status();
        if status.is_success() {
            self.progress.event(ProgressEvent::Uploaded { bytes: size });
            return Ok(size);
        }
        let problem = read_problem(response).await;
        // The content whose bytes differ, when the server names it.
        let culprit = problem
            .extra
            .get("expected")
            .and_then(|v| v.as_str())
            .and_then(|sha256| members.iter().find(|u| u.sha256 == sha256))
            .unwrap_or(first);
        refused(status, problem, |message| {
            failed(
                culprit,
                format!("in a pack of {} files: {message}", members.len()),
            )
        })
    }
}

/// A pack's body (issue 56): its members' records read from disk one at a time as the
/// request sends them, so that a pack in flight holds about one member (at most
/// [`READ_WHOLE`]), not the whole pack (up to [`PACK_MAX_BYTES`] per request: with
/// `--jobs` requests at once, the client's memory grew past its target). A member that
/// cannot be read whole ends the body with an error, and is noted in `unread`.
fn pack_body(
    files: Arc<[(PathBuf, String, u64)]>,
    unread: Arc<Mutex<Option<(usize, String)>>>,
) -> reqwest::Body {
    let records = futures::stream::iter(0..files.len()).then(move |at| {
        let (path, sha256, size) = files[at].clone();
        let unread = unread.clone();
        async move {
            let read = tokio::task::spawn_blocking(move || {
                let header = record_header(&sha256, size);
                let bytes = read_range(&path, 0, size)?;
                let mut record = Vec::with_capacity(header.len() + bytes.len());
                record.extend_from_slice(header.as_bytes());
                record.extend_from_slice(&bytes);
                Ok::<_, std::io::Error>(bytes::Bytes::from(record))
            })
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())));
            if let Err(error) = &read {
                unread
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert((at, error.to_string()));
            }
            read
        }
    });
    reqwest::Body::wrap_stream(records)
}

/// The failure an upload's refusal (`status`, `problem`) is: URLs to ask for again, or an
/// error made by `failed` from the server's answer.
fn refused(
    status: StatusCode,
    problem: Problem,
    failed: impl FnOnce(String) -> UploadFailure,
) -> Result<u64, UploadFailure> {
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

/// Issue 27: the units that go in packs, grouped within the offer's limits, and the
/// others. Only whole uploads to a `url` of at most `max_member_size` bytes, without
/// headers of their own, go in a pack, and only where there are two or more of them.
/// Packs are made small enough that each of the `jobs` requests at a time has a few
/// (a batch of 10,000 in ten packs would leave most of eight connections idle at its end),
/// and of at least [`PACK_MIN_MEMBERS`] contents.
fn in_packs<'a>(
    pack: Option<&PackUpload>,
    units: Vec<Unit<'a>>,
    jobs: usize,
) -> (Vec<Vec<Unit<'a>>>, Vec<Unit<'a>>) {
    let Some(pack) = pack else {
        return (Vec::new(), units);
    };
    // The offer's limits, within the client's own: a pack is read whole into memory, so
    // a server cannot make it hold more than [`PACK_MAX_BYTES`] or files above
    // [`READ_WHOLE`] (those stream from disk on their own).
    let max_member_size = pack.max_member_size.min(READ_WHOLE);
    let max_bytes = pack.max_bytes.min(PACK_MAX_BYTES);
    let (small, others): (Vec<_>, Vec<_>) = units
        .into_iter()
        .partition(|u| u.whole && u.headers.is_empty() && u.size <= max_member_size);
    if small.len() < 2 {
        let mut units = others;
        units.extend(small);
        return (Vec::new(), units);
    }
    let members = small
        .len()
        .div_ceil(jobs * PACKS_PER_JOB)
        .max(PACK_MIN_MEMBERS)
        .min(pack.max_members as usize);
    let mut packs: Vec<Vec<Unit<'a>>> = Vec::new();
    let mut bytes = 0u64;
    for unit in small {
        let len = stone_api::pack::record_len(unit.sha256, unit.size);
        let fits = packs
            .last()
            .is_some_and(|last| last.len() < members && bytes + len <= max_bytes);
        if !fits {
            packs.push(Vec::new());
            bytes = 0;
        }
        bytes += len;
        packs.last_mut().expect("a pack was just pushed").push(unit);
    }
    (packs, others)
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
    /// The whole content, to its `url` (not a part).
    whole: bool,
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
            whole: upload.parts.is_none(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(i: usize, size: u64) -> Upload {
        Upload {
            sha256: format!("{i:064x}"),
            size,
            method: "PUT".into(),
            url: Some(format!("http://127.0.0.1:1/v1/staging/{i:064x}")),
            headers: BTreeMap::new(),
            expires_at: "2026-01-02T03:04:05Z".into(),
            parts: None,
        }
    }

    fn offer(max_members: u32, max_bytes: u64) -> PackUpload {
        PackUpload {
            url: "http://127.0.0.1:1/v1/staging/pack".into(),
            max_members,
            max_bytes,
            max_member_size: 1000,
            expires_at: "2026-01-02T03:04:05Z".into(),
        }
    }

    fn grouped(uploads: &[Upload], pack: Option<&PackUpload>, jobs: usize) -> (Vec<usize>, usize) {
        let path = Path::new("f");
        let units = uploads
            .iter()
            .map(|u| Unit::new(u, path, u.url.as_deref().unwrap(), 0, u.size))
            .collect();
        let (packs, others) = in_packs(pack, units, jobs);
        (packs.iter().map(Vec::len).collect(), others.len())
    }

    #[test]
    fn small_whole_uploads_go_in_packs_within_the_offer() {
        let mut uploads: Vec<Upload> = (0..10_000).map(|i| upload(i, 100)).collect();
        // Too large for a pack, and one with headers of its own: each alone.
        uploads.push(upload(10_000, 1001));
        let mut bound = upload(10_001, 10);
        bound
            .headers
            .insert("x-amz-checksum-sha256".into(), "q".into());
        uploads.push(bound);

        let (packs, others) = grouped(&uploads, Some(&offer(1000, 1 << 20)), 8);
        assert_eq!(others, 2);
        assert_eq!(packs.iter().sum::<usize>(), 10_000);
        // 10,000 over 8 requests at a time: 32 packs or so, not 10.
        assert!(packs.len() >= 32, "{packs:?}");
        assert!(packs.iter().all(|&n| n <= 1000));

        // The offer's byte limit: a record of 100 bytes is 100 + 64 + 1 + 3 + 1.
        let (packs, _) = grouped(&uploads[..100], Some(&offer(1000, 169 * 10)), 1);
        assert_eq!(packs, vec![10; 10]);
        // Its count limit.
        let (packs, _) = grouped(&uploads[..100], Some(&offer(7, 1 << 20)), 1);
        assert!(packs.iter().all(|&n| n <= 7) && packs.iter().sum::<usize>() == 100);

        // An offer without limits (a hostile or broken server): the client's own hold,
        // a pack is never more than 16 MiB and a file above 1 MiB never goes in one.
        let mut big: Vec<Upload> = (0..100).map(|i| upload(i, 1 << 20)).collect();
        big.push(upload(100, (1 << 20) + 1));
        let unbounded = PackUpload {
            max_member_size: u64::MAX,
            ..offer(u32::MAX, u64::MAX)
        };
        let (packs, others) = grouped(&big, Some(&unbounded), 1);
        assert_eq!(others, 1);
        // Records of 1 MiB and a header: 15 fit in 16 MiB.
        assert_eq!(packs.iter().max(), Some(&15), "{packs:?}");
        assert_eq!(packs.iter().sum::<usize>(), 100);

        // No offer, or a single small upload: no pack.
        assert_eq!(grouped(&uploads[..5], None, 8), (vec![], 5));
        assert_eq!(
            grouped(&uploads[10_000..], Some(&offer(1000, 1 << 20)), 8),
            (vec![], 2)
        );
        assert_eq!(
            grouped(&uploads[9_999..], Some(&offer(1000, 1 << 20)), 8),
            (vec![], 3)
        );
    }
}
