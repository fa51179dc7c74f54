//! The listing digests of local heads read before (issue 27). An unchanged re-push of
//! 100,000 one-file datasets asks for each head's listing three times (when the push is
//! created, when its commit is accepted, and by the commit): each an open, a read and a
//! close of a small file, 30 % of the server's time. Remembered here by the head file's
//! identity, a later ask costs one `fstatat`.
//!
//! A remembered listing is given only while both hold:
//! - the head file is the one read: same inode, and the same path, device, size, and
//!   modification and change times to the nanosecond (compared by a keyed 64-bit digest);
//!   a head is replaced by a rename of a new file, never rewritten in place: a new inode
//!   while the old one is still in use;
//! - this engine has written or removed no head since it was read, other than heads it
//!   remembers as it writes them: a local put tells [`KnownHeads::wrote`] the identity of
//!   the file it renamed in (from its open handle, after the rename) and the listing it
//!   wrote, every other head write or removal calls [`KnownHeads::changed`], which forgets
//!   them all. What another process does to the files (a restore, a second server on the
//!   same directory) is seen by the identity.
//!
//! An entry is a fact about a file that cannot change (a head is never rewritten in
//! place): it is made while the file is open, so its inode cannot have been reused by
//! another file yet.
//!
//! Bounded: at most [`MAX_KNOWN`] heads; past that none is added until they are forgotten.
//!
//! Also remembered: the last answers to "which of these datasets' heads have these
//! listings" ([`KnownHeads::answered`]), for [`MATCH_REMEMBERED`] while this engine writes
//! no head: the creation of a push, the acceptance of its commit and the commit ask the
//! same question in turn, and even a `fstatat` of 100,000 heads is 0.3–0.5 s. What
//! another process changes in that span is seen by the next question after it; a push
//! answered from memory writes nothing to those datasets, as if committed before that
//! change (the push began before it).

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, RandomState};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hex::FromHex;

/// Heads remembered at most (~56 bytes each: 14 MB at most).
const MAX_KNOWN: usize = 250_000;

/// How long an answer of [`KnownHeads::answered`] is given again: the span of an
/// unchanged re-push from its creation to its commit (about two seconds for 100,000
/// datasets), with room.
pub(super) const MATCH_REMEMBERED: Duration = Duration::from_secs(30);

/// Answers remembered at most (one byte a dataset: 100 KB for 100,000).
const ANSWERS_KEPT: usize = 8;

/// A head file as `fstat` describes it: its inode, and a digest of its path, device,
/// size and times (`RandomState`: keyed per process, not chosen by whoever names
/// datasets; 64 bits, so that 100,000 heads take 6 MB, not 20).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    inode: u64,
    fingerprint: u64,
}

impl Identity {
    #[cfg(target_os = "linux")]
    #[allow(clippy::unnecessary_cast)]
    pub(super) fn new(known: &KnownHeads, path: &Path, stat: &rustix::fs::Stat) -> Self {
        // The field types differ between architectures: every value fits these.
        let described = (
            path,
            stat.st_dev as u64,
            stat.st_size as i64,
            (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
        );
        Self {
            inode: stat.st_ino as u64,
            fingerprint: known.paths.hash_one(described),
        }
    }
}

/// What a head's first bytes said: its listing digest, or none.
type Listing = Option<[u8; 32]>;

#[derive(Debug, Default)]
pub(super) struct KnownHeads {
    /// Head writes and removals by this engine so far that forgot every listing.
    writes: AtomicU64,
    /// Every head write and removal by this engine so far (answers are forgotten).
    heads_written: AtomicU64,
    known: Mutex<Known>,
    paths: RandomState,
    /// The last answers, newest last.
    answers: Mutex<VecDeque<Answer>>,
}

/// Which heads of a question had the listings asked about.
#[derive(Debug)]
struct Answer {
    /// Digest of the question (keyed: [`KnownHeads::question`]).
    question: u64,
    /// The [`KnownHeads::heads_written`] when the heads were read.
    generation: u64,
    at: Instant,
    same: Vec<bool>,
}

#[derive(Debug, Default)]
struct Known {
    /// The [`KnownHeads::writes`] when `listings` were read.
    writes: u64,
    /// By inode: the fingerprint read, and the listing.
    listings: HashMap<u64, (u64, Listing)>,
}

impl KnownHeads {
    /// A head was written or removed by this engine: every listing is forgotten.
    pub(super) fn changed(&self) {
        self.heads_written.fetch_add(1, Ordering::SeqCst);
        self.writes.fetch_add(1, Ordering::SeqCst);
    }

    /// This engine wrote the head file `identity` (renamed in, still open) with
    /// `listing`: remembered as it is, the others kept.
    pub(super) fn wrote(&self, identity: Identity, listing: Option<&str>) {
        self.heads_written.fetch_add(1, Ordering::SeqCst);
        // Not a digest this map keeps: whatever it said of that inode is forgotten.
        self.record(self.generation(), identity, stored(listing));
    }

    /// The generation answers are read under ([`KnownHeads::answered`]).
    pub(super) fn answers_generation(&self) -> u64 {
        self.heads_written.load(Ordering::SeqCst)
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
        let (fingerprint, listing) = known.listings.get(&identity.inode)?;
        if *fingerprint != identity.fingerprint {
            return None;
        }
        Some(listing.map(hex::encode))
    }

    /// Remembers what the head file with this identity said, read under `generation`
    /// (nothing if a head was written since).
    pub(super) fn remember(&self, generation: u64, identity: Identity, listing: Option<&str>) {
        if let Some(listing) = stored(listing)
            && self.generation() == generation
        {
            self.record(generation, identity, Some(listing));
        }
    }

    /// Under `generation` (nothing if a head was written since that forgot them all): the
    /// file `identity` says `listing`, or (`None`) nothing is known of its inode.
    fn record(&self, generation: u64, identity: Identity, listing: Option<Listing>) {
        let mut known = self.lock();
        if known.writes > generation {
            return;
        }
        if known.writes < generation {
            known.writes = generation;
            known.listings.clear();
        }
        match listing {
            Some(listing)
                if known.listings.len() < MAX_KNOWN
                    || known.listings.contains_key(&identity.inode) =>
            {
                known
                    .listings
                    .insert(identity.inode, (identity.fingerprint, listing));
            }
            Some(_) => {}
            None => {
                known.listings.remove(&identity.inode);
            }
        }
    }

    /// A digest of the question "which of `declared` (dataset, listing digest) of the
    /// namespace and branch have that listing as their head's": keyed per process, so
    /// nobody naming datasets can make two questions share an answer.
    pub(super) fn question(&self, ns: &str, branch: &str, declared: &[(&str, &str)]) -> u64 {
        self.paths.hash_one((ns, branch, declared))
    }

    /// The answer to `question` (of `len` datasets) read under `generation`
    /// ([`KnownHeads::answers_generation`]), if it was read within `within` and no head was
    /// written since.
    pub(super) fn answered(
        &self,
        question: u64,
        generation: u64,
        len: usize,
        within: Duration,
    ) -> Option<Vec<bool>> {
        if self.answers_generation() != generation {
            return None;
        }
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers
            .iter()
            .rev()
            .find(|a| {
                a.question == question
                    && a.generation == generation
                    && a.same.len() == len
                    && a.at.elapsed() <= within
            })
            .map(|a| a.same.clone())
    }

    /// Remembers the answer to `question`, read under `generation` (nothing if a head
    /// was written since); the oldest answer goes past [`ANSWERS_KEPT`].
    pub(super) fn answer(&self, question: u64, generation: u64, same: Vec<bool>) {
        if self.answers_generation() != generation {
            return;
        }
        let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers.retain(|a| a.question != question && a.generation == generation);
        if answers.len() >= ANSWERS_KEPT {
            answers.pop_front();
        }
        answers.push_back(Answer {
            question,
            generation,
            at: Instant::now(),
            same,
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        // A panic while the map was held leaves at worst a partial map of true entries.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A head's listing as the map keeps it: `Some(None)` for a head without one, `None` for a
/// digest that is not 64 lowercase hex digits (not kept: given back as it was read).
fn stored(listing: Option<&str>) -> Option<Listing> {
    match listing {
        None => Some(None),
        Some(digest)
            if digest
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) =>
        {
            <[u8; 32]>::from_hex(digest).ok().map(Some)
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(known: &KnownHeads, path: &str, inode: u64, size: i64, time: i64) -> Identity {
        Identity {
            inode,
            fingerprint: known.paths.hash_one((Path::new(path), size, time)),
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
        for wrong in ["short", &DIGEST.to_uppercase(), &DIGEST.replace('0', "g")] {
            known.remember(at, d, Some(wrong));
            assert_eq!(known.get(at, &d), None, "{wrong}");
        }

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

    #[test]
    fn an_answer_is_given_again_for_the_same_question_until_a_head_is_written_or_it_is_old() {
        let known = KnownHeads::default();
        let declared = [("a", DIGEST), ("b", DIGEST)];
        let q = known.question("ns", "main", &declared);
        let at = known.answers_generation();
        assert_eq!(known.answered(q, at, 2, MATCH_REMEMBERED), None);
        known.answer(q, at, vec![true, false]);
        assert_eq!(
            known.answered(q, at, 2, MATCH_REMEMBERED),
            Some(vec![true, false])
        );
        // Another question: another namespace, branch, dataset or listing.
        for other in [
            known.question("other", "main", &declared),
            known.question("ns", "dev", &declared),
            known.question("ns", "main", &[("a", DIGEST), ("c", DIGEST)]),
            known.question("ns", "main", &[("a", DIGEST), ("b", &DIGEST[1..])]),
            known.question("ns", "main", &declared[..1]),
        ] {
            assert_ne!(other, q);
            assert_eq!(known.answered(other, at, 2, MATCH_REMEMBERED), None);
        }
        // Not of that length, or older than asked for.
        assert_eq!(known.answered(q, at, 3, MATCH_REMEMBERED), None);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(known.answered(q, at, 2, Duration::from_millis(1)), None);
        // At most ANSWERS_KEPT, the oldest forgotten first.
        for i in 0..ANSWERS_KEPT {
            let name = format!("d{i}");
            let other = known.question("ns", "main", &[(&name, DIGEST)]);
            known.answer(other, at, vec![true]);
        }
        assert_eq!(known.answered(q, at, 2, MATCH_REMEMBERED), None);
        known.answer(q, at, vec![true, true]);

        // A head written: forgotten, and an answer read before it is not kept.
        known.changed();
        let now = known.answers_generation();
        assert_eq!(known.answered(q, at, 2, MATCH_REMEMBERED), None);
        assert_eq!(known.answered(q, now, 2, MATCH_REMEMBERED), None);
        known.answer(q, at, vec![true, true]);
        assert_eq!(known.answered(q, now, 2, MATCH_REMEMBERED), None);
        known.answer(q, now, vec![false, true]);
        assert_eq!(
            known.answered(q, now, 2, MATCH_REMEMBERED),
            Some(vec![false, true])
        );
        // A head the engine wrote and remembers: answers are forgotten too.
        let a = identity(&known, "ns/a/main/head.json", 10, 300, 100);
        known.wrote(a, Some(DIGEST));
        assert_eq!(known.answered(q, now, 2, MATCH_REMEMBERED), None);
    }

    #[test]
    fn a_head_the_engine_wrote_is_remembered_with_the_others() {
        let known = KnownHeads::default();
        let at = known.generation();
        let a = identity(&known, "ns/a/main/head.json", 10, 300, 100);
        let b = identity(&known, "ns/b/main/head.json", 11, 300, 100);
        known.remember(at, a, Some(DIGEST));
        known.wrote(b, None);
        assert_eq!(known.generation(), at, "the listings read are kept");
        assert_eq!(known.get(at, &a), Some(Some(DIGEST.to_owned())));
        assert_eq!(known.get(at, &b), Some(None));
        // The same inode written again (reused): what it says now.
        let b2 = identity(&known, "ns/b/main/head.json", 11, 301, 200);
        known.wrote(b2, Some(DIGEST));
        assert_eq!(known.get(at, &b2), Some(Some(DIGEST.to_owned())));
        assert_eq!(known.get(at, &b), None);
        // Written with what the map cannot keep: that inode forgotten, the others kept.
        known.wrote(b2, Some("not a digest"));
        assert_eq!(known.get(at, &b2), None);
        assert_eq!(known.get(at, &a), Some(Some(DIGEST.to_owned())));
        // Any other head write forgets them all, and a write remembered after it is kept.
        known.changed();
        let now = known.generation();
        assert_eq!(known.get(now, &a), None);
        known.wrote(b, None);
        assert_eq!(known.get(now, &b), Some(None));
        assert_eq!(known.get(now, &a), None);
    }
}
