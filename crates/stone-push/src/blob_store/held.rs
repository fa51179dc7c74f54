//! What a blob store already holds, as a push sees it before it uploads anything: the
//! objects under the prefix with their sizes, the files the previous descriptor lists, and
//! the keys an unfinished push may have overwritten.
//!
//! Each is kept as a set of keyed 64-bit digests (a `RandomState` drawn for this push), not
//! of strings: a million files cost ~20 MB a set instead of ~150 MB (issue 27). A digest
//! that collides can only make a file look held when it is not; with a key drawn per push
//! that takes ~2^64 / n tries nobody outside this process can aim at.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use futures::{StreamExt, TryStreamExt};
use object_store::path::Path as StorePath;
use object_store::{GetOptions, ObjectStore};

use super::listing::{self, PreviousDescriptor};
use super::{PENDING, PENDING_DIR, Pending, Placed, child, get_json, store_error};
use crate::{PushError, PushFile};

pub(super) struct Held {
    digests: RandomState,
    /// `(location, size)` of every object under the prefix; `None` when the store could
    /// not list it (each candidate is then asked for with a HEAD).
    present: Option<HashSet<u64>>,
    /// `(key, sha256, bytes)` of every file the previous descriptor lists.
    listed: HashSet<u64>,
    /// Keys an unfinished push may have overwritten (never trusted from the descriptor).
    pending: HashSet<u64>,
    /// The markers that named them, removed once the new descriptor is written.
    pub(super) markers: Vec<StorePath>,
}

impl Held {
    pub(super) async fn read(
        store: &dyn ObjectStore,
        prefix: &StorePath,
        url: &str,
        previous: Option<&PreviousDescriptor>,
    ) -> Result<Held, PushError> {
        let digests = RandomState::new();
        let mut listed = HashSet::new();
        if let Some(previous) = previous {
            for resource in &previous.resources {
                for file in &resource.files {
                    if let Some(sha) = file.hash.strip_prefix("sha256:") {
                        listed.insert(digests.hash_one((&file.path, sha, file.bytes)));
                    }
                }
                if let Some(at) = &resource.listing {
                    // A listing that cannot be read whole, or whose bytes are not the ones
                    // the descriptor names, vouches for nothing: its files go up again.
                    let mut entries = Vec::new();
                    let verified = listing::read(store, prefix, at, |path, sha, bytes| {
                        entries.push(digests.hash_one((path, sha, bytes)));
                    })
                    .await
                    .map_err(|e| store_error("reading a file listing at", url, e))?;
                    if verified {
                        listed.extend(entries);
                    }
                }
            }
        }

        let mut pending = HashSet::new();
        let mut markers = Vec::new();
        let legacy = child(prefix, PENDING);
        if let Some((marker, _)) = get_json::<Pending>(store, &legacy, stone_http::MAX_ANSWER)
            .await
            .map_err(|e| store_error("reading the pending-push marker at", url, e))?
        {
            pending.extend(marker.paths.iter().map(|p| digests.hash_one(p)));
            markers.push(legacy);
        }
        let marker_dir = child(prefix, PENDING_DIR);
        let found: Vec<StorePath> = match store
            .list(Some(&marker_dir))
            .map_ok(|m| m.location)
            .try_collect()
            .await
        {
            Ok(found) => found,
            Err(object_store::Error::NotFound { .. }) => Vec::new(),
            Err(e) => return Err(store_error("listing the pending-push markers at", url, e)),
        };
        for at in found {
            // A marker that is not JSON names nothing (as before this layout); one the store
            // fails to give is an error, not "nothing pending".
            if let Some((marker, _)) = get_json::<Pending>(store, &at, stone_http::MAX_ANSWER)
                .await
                .map_err(|e| store_error("reading the pending-push marker at", url, e))?
            {
                pending.extend(marker.paths.iter().map(|p| digests.hash_one(p)));
            }
            markers.push(at);
        }

        let present = store
            .list(Some(prefix))
            .map_ok(|m| digests.hash_one((m.location.as_ref(), m.size)))
            .try_collect()
            .await
            .ok();
        Ok(Held {
            digests,
            present,
            listed,
            pending,
            markers,
        })
    }

    /// Whether the previous descriptor lists `key` with the file's hash and size, and no
    /// unfinished push may have overwritten it since.
    fn trusted(&self, key: &str, file: &PushFile) -> bool {
        !self.pending.contains(&self.digests.hash_one(key))
            && self.listed.contains(
                &self
                    .digests
                    .hash_one((key, file.sha256.as_str(), file.size)),
            )
    }

    /// For each file of `chunk`: true when it must go up (not trusted, or its object is
    /// gone or has another size).
    pub(super) async fn missing(
        &self,
        store: &dyn ObjectStore,
        chunk: &[Placed<'_>],
        jobs: usize,
    ) -> Vec<bool> {
        let checks: Vec<_> = chunk
            .iter()
            .map(|placed| {
                let trusted = self.trusted(&placed.key, &placed.file);
                async move {
                    !trusted || !self.has(store, &placed.location, placed.file.size).await
                }
            })
            .collect();
        futures::stream::iter(checks)
            .buffered(jobs.max(1))
            .collect()
            .await
    }

    /// Whether an object is at `location` with `size` bytes (as listed when the push began;
    /// asked for with a HEAD when the store could not list).
    pub(super) async fn has(
        &self,
        store: &dyn ObjectStore,
        location: &StorePath,
        size: u64,
    ) -> bool {
        match &self.present {
            Some(present) => present.contains(&self.digests.hash_one((location.as_ref(), size))),
            None => {
                let head = GetOptions {
                    head: true,
                    ..Default::default()
                };
                store
                    .get_opts(location, head)
                    .await
                    .is_ok_and(|r| r.meta.size == size)
            }
        }
    }
}
