//! The listing digests of local heads read before (issue 27). An unchanged re-push of
//! 100,000 one-file datasets asks for each head's listing three times (when the push is
//! created, when its commit is accepted, and by the commit): each an open, a read and a
//! close of a small file, 30 % of the server's time. Remembered here by the head file's
//! identity, a later ask costs one `fstatat`.
//!
//! A remembered listing is given only while both hold:
//! - the head file is the one read: same inode, size, and modification and change times
//!   to the nanosecond (a head is replaced by a rename of a new file, never rewritten in
//!   place: a new inode while the old one is still in use);
//! - this engine has written or removed no head since it was read: every head write bumps
//!   [`KnownHeads::changed`], which forgets them all. What another process does to the
//!   files (a restore, a second server on the same directory) is seen by the identity.
//!
//! Bounded: at most [`MAX_KNOWN`] heads; past that none is added until they are forgotten.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Heads remembered at most (~90 bytes each).
const MAX_KNOWN: usize = 250_000;

/// A head file as `fstat` describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    /// A digest of the head's path (`RandomState`: not chosen by whoever names datasets).
    path: u64,
    inode: u64,
    device: u64,
    size: i64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Identity {
    #[cfg(target_os = "linux")]
    #[allow(clippy::unnecessary_cast)]
    pub(super) fn new(known: &KnownHeads, path: &Path, stat: &rustix::fs::Stat) -> Self {
        Self {
            path: known.paths.hash_one(path),
            // The field types differ between architectures: every value fits these.
            inode: stat.st_ino as u64,
            device: stat.st_dev as u64,
            size: stat.st_size as i64,
            modified: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            changed: (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
        }
    }
}

/// What a head's first bytes said: its listing digest (64 hex digits), or none.
type Listing = Option<[u8; 64]>;

#[derive(Debug, Default)]
pub(super) struct KnownHeads {
    /// Head writes and removals by this engine so far.
    writes: AtomicU64,
    known: Mutex<Known>,
    paths: RandomState,
}

#[derive(Debug, Default)]
struct Known {
    /// The [`KnownHeads::writes`] when `listings` were read.
    writes: u64,
    /// By inode.
    listings: HashMap<u64, (Identity, Listing)>,
}

impl KnownHeads {
    /// A head was written or removed by this engine: every listing is forgotten.
    pub(super) fn changed(&self) {
        self.writes.fetch_add(1, Ordering::SeqCst);
    }

    /// The generation to read under (taken before the head is opened).
    pub(super) fn generation(&self) -> u64 {
        self.writes.load(Ordering::SeqCst)
    }

    /// Whether a listing may be remembered for `generation` (none is: looking costs a
    /// `stat` for nothing).
    pub(super) fn any(&self, generation: u64) -> bool {
        let known = self.lock();
        known.writes == generation && !known.listings.is_empty()
    }

    /// The listing of the head file with this identity, if it was read under `generation`.
    pub(super) fn get(&self, generation: u64, identity: &Identity) -> Option<Option<String>> {
        let known = self.lock();
        // Nor when a head was written since this read began.
        if known.writes != generation || self.generation() != generation {
            return None;
        }
        let (remembered, listing) = known.listings.get(&identity.inode)?;
        if remembered != identity {
            return None;
        }
        Some(listing.and_then(|digest| std::str::from_utf8(&digest).ok().map(str::to_owned)))
    }

    /// Remembers what the head file with this identity said, read under `generation`
    /// (nothing if a head was written since).
    pub(super) fn remember(&self, generation: u64, identity: Identity, listing: Option<&str>) {
        let listing = match listing.map(str::as_bytes) {
            None => None,
            Some(digest) => match <[u8; 64]>::try_from(digest) {
                Ok(digest) => Some(digest),
                Err(_) => return,
            },
        };
        if self.generation() != generation {
            return;
        }
        let mut known = self.lock();
        if known.writes > generation {
            return;
        }
        if known.writes < generation {
            known.writes = generation;
            known.listings.clear();
        }
        if known.listings.len() < MAX_KNOWN || known.listings.contains_key(&identity.inode) {
            known.listings.insert(identity.inode, (identity, listing));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        // A panic while the map was held leaves at worst a partial map of true entries.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(known: &KnownHeads, path: &str, inode: u64, size: i64, time: i64) -> Identity {
        Identity {
            path: known.paths.hash_one(Path::new(path)),
            inode,
            device: 1,
            size,
            modified: (time, 5),
            changed: (time, 7),
        }
    }

    const DIGEST: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn a_listing_is_given_for_the_same_file_until_a_head_is_written() {
        let known = KnownHeads::default();
        let at = known.generation();
        assert!(!known.any(at));
        let a = identity(&known, "ns/a/main/head.json", 10, 300, 100);
        known.remember(at, a, Some(DIGEST));
        assert!(known.any(at));
        assert_eq!(known.get(at, &a), Some(Some(DIGEST.to_owned())));
        // Another file at that inode: another path, size or time.
        for other in [
            identity(&known, "ns/b/main/head.json", 10, 300, 100),
            identity(&known, "ns/a/main/head.json", 10, 301, 100),
            identity(&known, "ns/a/main/head.json", 10, 300, 101),
            identity(&known, "ns/a/main/head.json", 11, 300, 100),
        ] {
            assert_eq!(known.get(at, &other), None, "{other:?}");
        }
        // A head without a listing is remembered as such.
        let c = identity(&known, "ns/c/main/head.json", 12, 90, 100);
        known.remember(at, c, None);
        assert_eq!(known.get(at, &c), Some(None));
        // Not a digest: not remembered.
        let d = identity(&known, "ns/d/main/head.json", 13, 90, 100);
        known.remember(at, d, Some("short"));
        assert_eq!(known.get(at, &d), None);

        known.changed();
        let now = known.generation();
        assert_eq!(known.get(now, &a), None);
        assert_eq!(known.get(at, &a), None);
        assert!(!known.any(now));
        // Read before the write: not remembered after it.
        known.remember(at, a, Some(DIGEST));
        assert_eq!(known.get(now, &a), None);
        known.remember(now, a, Some(DIGEST));
        assert_eq!(known.get(now, &a), Some(Some(DIGEST.to_owned())));
    }
}
