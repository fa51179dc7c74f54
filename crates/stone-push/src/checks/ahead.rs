//! RDF checks started before the plan hashes the package's files.
//!
//! A graph's check needs its digest only for its marker (a content that passed before is
//! not parsed again), and the hash of one large file keeps one core busy while the others
//! wait. So the push command starts the parse of each large GRAPH file at once
//! ([`Ahead::start`]), and the check the plan lists later takes its outcome
//! ([`GraphCheck::run`](super::GraphCheck::run)) when the file is still the one parsed (same
//! size and modification time: the hash cache's rule). A check whose content passed
//! before stops the parse started for it; a file changed since is parsed again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::SystemTime;

use stone_formats::FormatError;
use stone_package::Format;

/// Files smaller than this are parsed when their check runs: their parse is short, and a
/// package of many small graphs would otherwise be parsed twice when they passed before.
const MIN_BYTES: u64 = 4 << 20;

/// The parses started for a package, by file.
#[derive(Debug, Default)]
pub struct Ahead {
    files: HashMap<PathBuf, AheadFile>,
}

impl Ahead {
    /// Starts parsing those of `files` (path, format, size) large enough to be worth it,
    /// one after the other on a thread of their own (a large N-Triples file on every
    /// core). Nothing to do: no thread.
    pub fn start(files: impl IntoIterator<Item = (PathBuf, Format, u64)>) -> Self {
        let files: Vec<(PathBuf, Format, AheadFile)> = files
            .into_iter()
            .filter(|(_, _, size)| *size >= MIN_BYTES)
            .map(|(path, format, _)| (path, format, AheadFile::default()))
            .collect();
        let ahead = Self {
            files: files
                .iter()
                .map(|(path, _, slot)| (path.clone(), slot.clone()))
                .collect(),
        };
        if files.is_empty() {
            return ahead;
        }
        let spawned = std::thread::Builder::new()
            .name("stone-checks".into())
            .spawn(move || {
                // A parse that panicked leaves its check and the next ones to parse.
                let _answered = Answered(files.iter().map(|(_, _, slot)| slot.clone()).collect());
                for (path, format, slot) in &files {
                    slot.run(path, *format);
                }
            });
        if let Err(e) = spawned {
            // The checks parse the files themselves.
            tracing::debug!(error = %e, "cannot parse the graphs ahead");
            return Self::default();
        }
        ahead
    }

    /// The parse started for `path`, to be given to its check (once).
    pub fn take(&mut self, path: &Path) -> Option<AheadFile> {
        self.files.remove(path)
    }
}

impl Drop for Ahead {
    /// Parses no check took are not needed.
    fn drop(&mut self) {
        for slot in self.files.values() {
            slot.stop();
        }
    }
}

/// At its drop, every parse without an outcome has one: stopped (its check parses).
struct Answered(Vec<AheadFile>);

impl Drop for Answered {
    fn drop(&mut self) {
        for slot in &self.0 {
            let mut outcome = slot.lock();
            if outcome.is_none() {
                *outcome = Some(Outcome {
                    identity: None,
                    parsed: Ok(false),
                });
                slot.shared.ready.notify_all();
            }
        }
    }
}

/// The parse of one file started ahead of its check.
#[derive(Clone, Default)]
pub struct AheadFile {
    shared: Arc<Slot>,
}

#[derive(Default)]
struct Slot {
    outcome: Mutex<Option<Outcome>>,
    ready: Condvar,
    stop: AtomicBool,
}

struct Outcome {
    /// The file's size and modification time before it was parsed.
    identity: Option<Identity>,
    /// `Ok(false)`: stopped; an error is given to one check only.
    parsed: Result<bool, Option<FormatError>>,
}

type Identity = (u64, SystemTime);

fn identity(path: &Path) -> Option<Identity> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

impl AheadFile {
    fn run(&self, path: &Path, format: Format) {
        let identity = identity(path);
        let parsed = if self.shared.stop.load(Ordering::Relaxed) {
            Ok(false)
        } else {
            match stone_formats::rdf::validate_rdf_until(path, format, &self.shared.stop) {
                Ok(done) => Ok(done.is_some()),
                Err(e) => Err(Some(e)),
            }
        };
        *self.lock() = Some(Outcome { identity, parsed });
        self.shared.ready.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Outcome>> {
        self.shared
            .outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The parse is not needed (its content passed before): it stops soon.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the parse of `path` and returns its result, if it parsed the file as it
    /// is now; `None`: parse it (stopped, changed since, or its error already given).
    pub fn outcome(&self, path: &Path) -> Option<Result<(), FormatError>> {
        let mut outcome = self.lock();
        while outcome.is_none() {
            outcome = self
                .shared
                .ready
                .wait(outcome)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let done = outcome.as_mut()?;
        if done.identity.is_none() || done.identity != identity(path) {
            return None;
        }
        match &mut done.parsed {
            Ok(true) => Some(Ok(())),
            Ok(false) => None,
            Err(e) => e.take().map(Err),
        }
    }
}

impl std::fmt::Debug for AheadFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AheadFile").finish_non_exhaustive()
    }
}

/// Two checks are equal with the same parse started ahead (or none).
impl PartialEq for AheadFile {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

impl Eq for AheadFile {}
