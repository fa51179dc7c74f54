//! The embedded store's journal of multi-step changes: what to finish (or undo) after a
//! crash, so that a graph is always seen with its old or its new content once the store
//! opens again.
//!
//! RocksDB commits one transaction atomically, but a transaction is held in memory until
//! it commits, and the bulk loader (which writes a large graph at the speed of a parse)
//! is not a transaction with anything else. A change too large for one transaction is
//! therefore made in steps, and before each step the journal says, durably, what a crash
//! from then on must lead to: one JSON file per change under `<dir>/journal/`, replaced
//! atomically (temporary file, fsync, rename, fsync of the directory) when the change
//! moves to its next step, removed when it is done. The store opens only after every
//! entry left by a crash has been finished.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::GraphError;

const TEMP_SUFFIX: &str = ".tmp";
const EXTENSION: &str = "json";

/// What a crash during a step must lead to (each is safe to run again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub(super) enum Step {
    /// The graphs are being filled and never were visible as a whole: remove them (the
    /// change did not happen).
    Discard { graphs: Vec<String> },
    /// `to` must end up with `from`'s content (`replace`) or with it added: clear `to` if
    /// `replace`, copy `from` into it, recount it; then, with `then_discard`, remove
    /// `from` (a staging graph). The change happened: this finishes it.
    Copy {
        from: String,
        to: String,
        replace: bool,
        then_discard: bool,
    },
    /// The graph is being dropped: finish dropping it.
    Drop { graph: String },
}

/// The journal directory.
#[derive(Debug)]
pub(super) struct Journal {
    dir: PathBuf,
}

/// One change in progress; [`Entry::finish`] removes it.
#[derive(Debug)]
pub(super) struct Entry {
    path: PathBuf,
}

impl Journal {
    pub fn open(dir: PathBuf) -> Result<Self, GraphError> {
        std::fs::create_dir_all(&dir).map_err(GraphError::persist(&dir))?;
        Ok(Self { dir })
    }

    /// Records the first step of a new change (durable when this returns).
    pub fn begin(&self, step: &Step) -> Result<Entry, GraphError> {
        // v7: entries sort by creation, so a crash's leftovers are finished in order.
        let name = format!("{}.{EXTENSION}", uuid::Uuid::now_v7().simple());
        let entry = Entry {
            path: self.dir.join(name),
        };
        self.write(&entry, step)?;
        Ok(entry)
    }

    /// Moves the change to its next step (durable when this returns).
    pub fn set(&self, entry: &Entry, step: &Step) -> Result<(), GraphError> {
        self.write(entry, step)
    }

    /// The change is done.
    pub fn finish(&self, entry: Entry) -> Result<(), GraphError> {
        std::fs::remove_file(&entry.path).map_err(GraphError::persist(&entry.path))?;
        sync_dir(&self.dir)
    }

    /// The changes a crash left unfinished, oldest first (temporary files of an
    /// interrupted journal write are removed: their step never began).
    pub fn pending(&self) -> Result<Vec<(Entry, Step)>, GraphError> {
        let mut found = Vec::new();
        let entries = std::fs::read_dir(&self.dir).map_err(GraphError::persist(&self.dir))?;
        for entry in entries {
            let entry = entry.map_err(GraphError::persist(&self.dir))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(TEMP_SUFFIX) {
                std::fs::remove_file(&path).map_err(GraphError::persist(&path))?;
                continue;
            }
            if !name.ends_with(&format!(".{EXTENSION}")) {
                tracing::warn!(path = %path.display(), "ignoring a foreign file in the graph journal");
                continue;
            }
            let bytes = std::fs::read(&path).map_err(GraphError::persist(&path))?;
            let step: Step =
                serde_json::from_slice(&bytes).map_err(|e| GraphError::CorruptStore {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
            found.push((name, Entry { path }, step));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(found.into_iter().map(|(_, e, s)| (e, s)).collect())
    }

    fn write(&self, entry: &Entry, step: &Step) -> Result<(), GraphError> {
        let temp = entry
            .path
            .with_extension(format!("{EXTENSION}{TEMP_SUFFIX}"));
        let bytes = serde_json::to_vec(step).map_err(|e| GraphError::Persist {
            path: temp.clone(),
            source: std::io::Error::other(e),
        })?;
        let written = (|| {
            let mut file = File::create(&temp)?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            std::fs::rename(&temp, &entry.path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(GraphError::persist(&entry.path)(e));
        }
        sync_dir(&self.dir)
    }
}

pub(super) fn sync_dir(dir: &Path) -> Result<(), GraphError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(GraphError::persist(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_until_finished_and_come_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::open(dir.path().join("journal")).unwrap();
        let first = journal
            .begin(&Step::Discard {
                graphs: vec!["urn:a".into()],
            })
            .unwrap();
        let second = journal
            .begin(&Step::Drop {
                graph: "urn:b".into(),
            })
            .unwrap();
        let copy = Step::Copy {
            from: "urn:s".into(),
            to: "urn:a".into(),
            replace: true,
            then_discard: true,
        };
        journal.set(&first, &copy).unwrap();
        // A write cut before its rename: never a step.
        std::fs::write(dir.path().join("journal/x.json.tmp"), b"{").unwrap();
        let reopened = Journal::open(dir.path().join("journal")).unwrap();
        let pending = reopened.pending().unwrap();
        let steps: Vec<&Step> = pending.iter().map(|(_, s)| s).collect();
        assert_eq!(
            steps,
            [
                &copy,
                &Step::Drop {
                    graph: "urn:b".into()
                }
            ]
        );
        assert!(!dir.path().join("journal/x.json.tmp").exists());
        journal.finish(first).unwrap();
        journal.finish(second).unwrap();
        assert!(reopened.pending().unwrap().is_empty());
    }

    #[test]
    fn a_garbled_entry_stops_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::open(dir.path().to_path_buf()).unwrap();
        std::fs::write(dir.path().join("0.json"), b"not json").unwrap();
        assert!(matches!(
            journal.pending(),
            Err(GraphError::CorruptStore { .. })
        ));
    }
}
