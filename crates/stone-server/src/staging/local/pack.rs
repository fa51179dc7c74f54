//! Packed uploads (issue 27): many small contents in one request ([`stone_api::pack`]).
//!
//! A content sent alone costs a request, an fsync of its file and a holder record; on a
//! disk whose fsync is a flush of the device, 100,000 contents of 128 bytes spent most of
//! their push there. A pack writes its contents' files one after another, makes them
//! durable together (one `syncfs` of the staging file system on Linux, an fsync per file
//! elsewhere), renames them into
//! `contents/` and records their holder in one transaction. All or nothing: a refused
//! pack leaves none of its files.

use std::path::Path;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::{Stream, StreamExt};
use stone_api::PackUpload;
use stone_api::pack::{PackDecoder, PackLimits, PackMember};

use super::{LocalStaging, StagingError, TempFile, UrlRefusal, expiry};
use crate::staging::signature::pack_message;

/// Contents in one pack, at most.
const MAX_MEMBERS: u32 = 1000;
/// Bytes of one pack body, at most.
const MAX_BYTES: u64 = 16 << 20;
/// Size of a content that may go in a pack, at most (and never above the part size).
const MAX_MEMBER_SIZE: u64 = 1 << 20;
/// Contents' bytes received before they are written out (one blocking task each time).
const WRITE_BATCH: usize = 1 << 20;

/// A content of a pack written to `incoming/`, or found staged already (`None`).
struct Written {
    temp: Option<TempFile>,
    sha256: String,
}

impl LocalStaging {
    /// The largest content a pack of this store takes.
    pub fn pack_member_size(&self) -> u64 {
        MAX_MEMBER_SIZE.min(self.part_size)
    }

    /// The pack URL of `holder` for the contents of `push`, valid for `ttl`.
    pub fn pack_upload(&self, holder: &str, push: &str, ttl: Duration) -> PackUpload {
        let (expires_at, expires) = expiry(ttl);
        let signature = self
            .key
            .sign(&pack_message(holder, push, MAX_BYTES, expires));
        PackUpload {
            url: format!(
                "{}/v1/staging/pack?max={MAX_BYTES}&holder={holder}&push={push}&expires={expires}&sig={signature}",
                self.base_url
            ),
            max_members: MAX_MEMBERS,
            max_bytes: MAX_BYTES,
            max_member_size: self.pack_member_size(),
            expires_at,
        }
    }

    /// Checks a pack URL.
    pub fn check_pack_url(
        &self,
        holder: &str,
        push: &str,
        max_bytes: u64,
        expires: u64,
        signature: &str,
    ) -> Result<(), UrlRefusal> {
        self.check_url(
            &pack_message(holder, push, max_bytes, expires),
            expires,
            signature,
        )
    }

    /// Receives a pack of at most `max_bytes` from `holder`: every content verified, then
    /// staged and recorded as held, or none. The sha256 of each content staged.
    pub async fn receive_pack<S, E>(
        &self,
        holder: &str,
        max_bytes: u64,
        mut body: S,
        declared: impl AsyncFnOnce(Vec<String>) -> Result<(), StagingError>,
    ) -> Result<Vec<String>, StagingError>
    where
        S: Stream<Item = Result<Bytes, E>> + Send + Unpin,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let started = Instant::now();
        let mut decoder = PackDecoder::new(PackLimits {
            max_bytes,
            max_members: MAX_MEMBERS,
            max_member_size: self.pack_member_size(),
        });
        let mut received: Vec<PackMember> = Vec::new();
        let mut pending = 0usize;
        let mut written: Vec<Written> = Vec::new();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| StagingError::Body(e.into()))?;
            let before = received.len();
            decoder
                .feed(&chunk, &mut received)
                .map_err(StagingError::Pack)?;
            pending += received[before..]
                .iter()
                .map(|m| m.bytes.len())
                .sum::<usize>();
            if pending >= WRITE_BATCH {
                written.extend(self.write_members(std::mem::take(&mut received)).await?);
                pending = 0;
            }
        }
        decoder.finish().map_err(StagingError::Pack)?;
        written.extend(self.write_members(received).await?);
        // Only what the pack's push declares is staged (issue 52): else a pack URL would
        // stage any content until it expires. Refused, nothing of the pack is kept.
        declared(written.iter().map(|w| w.sha256.clone()).collect()).await?;
        let bytes = written.len();

        // Durable, then in place, then recorded: as a single upload, for all of them.
        let paths: Vec<_> = written
            .iter()
            .filter_map(|w| w.temp.as_ref().map(|t| t.path.clone()))
            .collect();
        if !paths.is_empty() {
            let root = self.root.clone();
            tokio::task::spawn_blocking(move || sync_files(&root, &paths))
                .await
                .map_err(std::io::Error::other)
                .and_then(|synced| synced)
                .map_err(StagingError::io(&self.root))?;
        }
        let root = self.root.clone();
        let written = tokio::task::spawn_blocking(move || {
            let contents = root.join("contents");
            for Written { temp, sha256 } in &mut written {
                let Some(temp) = temp else { continue };
                let target = contents.join(&*sha256);
                if !target.exists() {
                    std::fs::rename(&temp.path, &target).map_err(StagingError::io(&target))?;
                    temp.keep = true;
                }
            }
            Ok::<_, StagingError>(written)
        })
        .await
        .map_err(|e| StagingError::io(&self.root)(std::io::Error::other(e)))??;
        self.contents_sync.sync(&self.root.join("contents")).await;
        let sha256s: Vec<&str> = written.iter().map(|w| w.sha256.as_str()).collect();
        self.db.record_holders(&sha256s, holder).await?;
        tracing::debug!(
            contents = bytes,
            elapsed_us = started.elapsed().as_micros() as u64,
            "pack staged"
        );
        Ok(written.into_iter().map(|w| w.sha256).collect())
    }

    /// Writes verified contents to new read-only files in `incoming/`, but those staged
    /// already; in one blocking task.
    async fn write_members(&self, members: Vec<PackMember>) -> Result<Vec<Written>, StagingError> {
        if members.is_empty() {
            return Ok(Vec::new());
        }
        self.admit(members.iter().map(|m| m.bytes.len() as u64).sum())?;
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            members
                .into_iter()
                .map(|member| write_member(&root, member))
                .collect()
        })
        .await
        .map_err(|e| StagingError::io(&self.root)(std::io::Error::other(e)))?
    }
}

fn write_member(root: &Path, member: PackMember) -> Result<Written, StagingError> {
    use std::io::Write;
    if root.join("contents").join(&member.sha256).exists() {
        return Ok(Written {
            temp: None,
            sha256: member.sha256,
        });
    }
    let temp = TempFile {
        path: root
            .join("incoming")
            .join(uuid::Uuid::new_v4().simple().to_string()),
        keep: false,
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    // Read-only from the start: nothing writes a content once verified.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o444);
    let mut file = options
        .open(&temp.path)
        .map_err(StagingError::io(&temp.path))?;
    file.write_all(&member.bytes)
        .map_err(StagingError::io(&temp.path))?;
    #[cfg(not(unix))]
    {
        let mut permissions = file
            .metadata()
            .map_err(StagingError::io(&temp.path))?
            .permissions();
        permissions.set_readonly(true);
        file.set_permissions(permissions)
            .map_err(StagingError::io(&temp.path))?;
    }
    Ok(Written {
        temp: Some(temp),
        sha256: member.sha256,
    })
}

/// Makes the files written durable: one `syncfs` of the file system that holds `root` on
/// Linux (a failed one counts as none: the files are synced one by one then), one fsync
/// per file elsewhere. Errors are the fsyncs' own, as a single upload's would be.
fn sync_files(root: &Path, paths: &[std::path::PathBuf]) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let synced = std::fs::File::open(root)
            .and_then(|dir| rustix::fs::syncfs(&dir).map_err(std::io::Error::from));
        if synced.is_ok() {
            return Ok(());
        }
    }
    let _ = root;
    for path in paths {
        std::fs::File::open(path)?.sync_all()?;
    }
    Ok(())
}
