//! Who writes into a multipart assembly (`parts/<sha256>.<upload>`), so that its completion
//! can verify the assembly where it is instead of copying it.
//!
//! A part upload writes into the assembly at its offset, and a part may be sent again
//! while the upload completes (a retry with a slow body holds the assembly open). A
//! completion must verify bytes nobody can change afterwards. When no part upload is
//! writing, the completion *seals* the assembly: from then on a part upload of it is
//! refused before it opens the file, so the bytes it hashes are the bytes it keeps (made
//! read-only and renamed into `contents/`). When a part upload is writing, the completion
//! copies the assembly into a file of its own while hashing the copy, as before: only the
//! copy becomes the content.
//!
//! Only this process writes assemblies: the count is in memory, and a restart leaves no
//! writer behind.

use std::collections::HashMap;
use std::sync::Mutex;

/// The part uploads writing into each assembly now, and the sealed assemblies (by upload
/// ID).
#[derive(Debug, Default)]
pub(super) struct Assemblies(Mutex<HashMap<String, State>>);

#[derive(Debug, Default)]
struct State {
    writers: usize,
    sealed: bool,
}

/// A part upload writing into an assembly (see [`Assemblies::enter`]).
pub(super) struct Writer<'a> {
    assemblies: &'a Assemblies,
    upload: String,
}

/// A sealed assembly: no part upload writes into it while this lives.
pub(super) struct Sealed<'a> {
    assemblies: &'a Assemblies,
    upload: String,
}

impl Assemblies {
    fn state(&self) -> std::sync::MutexGuard<'_, HashMap<String, State>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A part upload of `upload` begins to write; `None` when its completion sealed the
    /// assembly (the part has nowhere to go).
    pub(super) fn enter(&self, upload: &str) -> Option<Writer<'_>> {
        let mut state = self.state();
        let entry = state.entry(upload.to_owned()).or_default();
        if entry.sealed {
            return None;
        }
        entry.writers += 1;
        Some(Writer {
            assemblies: self,
            upload: upload.to_owned(),
        })
    }

    /// Seals `upload`'s assembly when no part upload writes into it; `None` otherwise.
    pub(super) fn seal(&self, upload: &str) -> Option<Sealed<'_>> {
        let mut state = self.state();
        let entry = state.entry(upload.to_owned()).or_default();
        if entry.writers > 0 {
            return None;
        }
        entry.sealed = true;
        Some(Sealed {
            assemblies: self,
            upload: upload.to_owned(),
        })
    }

    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.state().is_empty()
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        let mut state = self.assemblies.state();
        if let Some(entry) = state.get_mut(&self.upload) {
            entry.writers = entry.writers.saturating_sub(1);
            if entry.writers == 0 && !entry.sealed {
                state.remove(&self.upload);
            }
        }
    }
}

impl Drop for Sealed<'_> {
    /// The completion ended (its multipart record is gone, or it failed and the upload
    /// may go on: either way the seal has served).
    fn drop(&mut self) {
        self.assemblies.state().remove(&self.upload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_assembly_takes_no_writer_and_a_written_one_is_not_sealed() {
        let assemblies = Assemblies::default();
        let writer = assemblies.enter("u").expect("nothing sealed yet");
        assert!(assemblies.seal("u").is_none(), "a part is being written");
        let second = assemblies.enter("u").expect("two parts at once");
        drop(writer);
        assert!(assemblies.seal("u").is_none(), "one part is still written");
        drop(second);
        let sealed = assemblies.seal("u").expect("no part is written");
        assert!(assemblies.enter("u").is_none(), "sealed: no part goes in");
        assert!(
            assemblies.enter("v").is_some(),
            "other uploads are not sealed"
        );
        drop(sealed);
        assert!(assemblies.is_empty(), "nothing is kept once done");
        assert!(assemblies.enter("u").is_some());
    }
}
