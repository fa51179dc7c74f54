//! The descriptor's side of a blob-store push: the previous `datapackage.json` as the push
//! reads it, and the file listings of large folders.
//!
//! A resource of up to [`stone_package::LISTED_FILES`] files lists them in the descriptor
//! (`stone:files`). A larger folder (a million images) would make the descriptor hundreds
//! of MB, so its files go to a listing of their own, written before the descriptor:
//! `.stone-listings/{sha256}.jsonl` under the prefix, one JSON object a line (`path`,
//! `hash`, `bytes`, in the folder's walk order), named by the sha256 of its bytes; the
//! descriptor's resource names it in `stone:listing` (`path`, `hash`, `files`), and its
//! `path` is the folder's. A listing is never rewritten in place: a reader of the previous
//! descriptor finds the previous listing until the push that replaced it removes it.

use std::io::{BufWriter, Write};

use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Listed, child};

/// The folder (under the prefix) of the large folders' listings.
pub const LISTINGS_DIR: &str = ".stone-listings";

/// A line of a listing longer than this is not one stone wrote: the listing is refused.
const MAX_LINE: usize = 64 * 1024;
/// A listing naming more files is not read (what it vouches for would be held as 8 bytes a
/// file, and the files then go up again).
const MAX_FILES: u64 = 20_000_000;

/// The previous descriptor, as much of it as a push needs (a resource's name and hash, and
/// its files); anything else in it is ignored.
#[derive(Debug, Default, Deserialize)]
pub(super) struct PreviousDescriptor {
    #[serde(default)]
    pub resources: Vec<PreviousResource>,
}

#[derive(Debug, Deserialize)]
pub(super) struct PreviousResource {
    pub name: Option<String>,
    pub hash: Option<String>,
    #[serde(rename = "stone:files", default)]
    pub files: Vec<Listed>,
    #[serde(rename = "stone:listing")]
    pub listing: Option<ListingRef>,
}

/// Where a large folder's files are listed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListingRef {
    /// `.stone-listings/{sha256}.jsonl`, relative to the prefix.
    pub path: String,
    /// `sha256:` of the listing's bytes.
    pub hash: String,
    /// How many files it lists.
    pub files: u64,
}

impl ListingRef {
    /// The listing's sha256 (hex), if `path` and `hash` are what stone writes: a
    /// descriptor found in the store names nothing else, whatever it holds.
    fn sha256(&self) -> Option<&str> {
        let sha = self.hash.strip_prefix("sha256:")?;
        let well_formed = sha.len() == 64
            && sha
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            && self.path == listing_path(sha);
        well_formed.then_some(sha)
    }
}

fn listing_path(sha256: &str) -> String {
    format!("{LISTINGS_DIR}/{sha256}.jsonl")
}

/// Reads the listing `at` names, calling `each(path, sha256, bytes)` for every file as it
/// streams by (memory: one line). Returns whether the bytes were the ones `at` names and
/// every line a file: only then may the caller keep what it was given. A listing that is
/// not there, or named wrongly, is `false`; a store that fails is an error.
pub(super) async fn read(
    store: &dyn ObjectStore,
    prefix: &StorePath,
    at: &ListingRef,
    mut each: impl FnMut(&str, &str, u64),
) -> Result<bool, object_store::Error> {
    let Some(expected) = at.sha256().filter(|_| at.files <= MAX_FILES) else {
        return Ok(false);
    };
    let mut stream = match store.get(&child(prefix, &at.path)).await {
        Ok(got) => got.into_stream(),
        Err(object_store::Error::NotFound { .. }) => return Ok(false),
        Err(e) => return Err(e),
    };
    let mut hasher = Sha256::new();
    let mut line = Vec::new();
    let mut well_formed = true;
    let mut lines = 0u64;
    let mut take = |line: &[u8], well_formed: &mut bool, lines: &mut u64| {
        match serde_json::from_slice::<Listed>(line) {
            Ok(file) => match file.hash.strip_prefix("sha256:") {
                Some(sha) => each(&file.path, sha, file.bytes),
                None => *well_formed = false,
            },
            Err(_) => *well_formed = false,
        }
        *lines += 1;
    };
    while let Some(chunk) = stream.next().await {
        let chunk: Bytes = chunk?;
        hasher.update(&chunk);
        if !well_formed {
            continue; // read to the end all the same: a failing store is still an error
        }
        let mut rest = chunk.as_ref();
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..end]);
            take(&line, &mut well_formed, &mut lines);
            line.clear();
            rest = &rest[end + 1..];
        }
        line.extend_from_slice(rest);
        if line.len() > MAX_LINE || lines > at.files {
            well_formed = false;
        }
    }
    if !line.is_empty() {
        well_formed = false; // stone ends every line
    }
    let matches = hex::encode(hasher.finalize()) == expected;
    Ok(well_formed && matches && lines == at.files)
}

/// A large folder's listing, written to a temporary file (in the package's `.stone/`) as
/// the folder is walked, hashed as it is written.
pub(super) struct ListingWriter {
    out: BufWriter<tempfile::NamedTempFile>,
    hasher: Sha256,
    files: u64,
}

impl ListingWriter {
    pub(super) fn new(state_dir: &std::path::Path) -> std::io::Result<ListingWriter> {
        let file = tempfile::Builder::new()
            .prefix("blob-listing-")
            .suffix(".jsonl")
            .tempfile_in(state_dir)?;
        Ok(ListingWriter {
            out: BufWriter::new(file),
            hasher: Sha256::new(),
            files: 0,
        })
    }

    pub(super) fn add(&mut self, path: &str, sha256: &str, bytes: u64) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(&Listed {
            path: path.to_owned(),
            hash: format!("sha256:{sha256}"),
            bytes,
        })
        .map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.hasher.update(&line);
        self.files += 1;
        self.out.write_all(&line)
    }

    /// The listing's file (removed when dropped) and how the descriptor names it.
    pub(super) fn finish(self) -> std::io::Result<(tempfile::NamedTempFile, u64, ListingRef)> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        let size = file.as_file().metadata()?.len();
        let sha = hex::encode(self.hasher.finalize());
        Ok((
            file,
            size,
            ListingRef {
                path: listing_path(&sha),
                hash: format!("sha256:{sha}"),
                files: self.files,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn store() -> (tempfile::TempDir, Arc<dyn ObjectStore>, StorePath) {
        let dir = tempfile::tempdir().unwrap();
        let store =
            Arc::new(object_store::local::LocalFileSystem::new_with_prefix(dir.path()).unwrap());
        (dir, store, StorePath::from("p"))
    }

    async fn written(
        store: &dyn ObjectStore,
        prefix: &StorePath,
        files: &[(&str, &str, u64)],
    ) -> ListingRef {
        let state = tempfile::tempdir().unwrap();
        let mut writer = ListingWriter::new(state.path()).unwrap();
        for (path, sha, bytes) in files {
            writer.add(path, sha, *bytes).unwrap();
        }
        let (file, _, at) = writer.finish().unwrap();
        let bytes = std::fs::read(file.path()).unwrap();
        store
            .put(&child(prefix, &at.path), bytes.into())
            .await
            .unwrap();
        at
    }

    async fn read_all(
        store: &dyn ObjectStore,
        prefix: &StorePath,
        at: &ListingRef,
    ) -> (bool, Vec<(String, String, u64)>) {
        let mut got = Vec::new();
        let ok = read(store, prefix, at, |p, s, b| {
            got.push((p.into(), s.into(), b))
        })
        .await
        .unwrap();
        (ok, got)
    }

    const A: &str = "aa00000000000000000000000000000000000000000000000000000000000000";

    #[tokio::test]
    async fn a_listing_reads_back_as_written_and_only_under_its_own_name() {
        let (_dir, store, prefix) = store();
        let files = [("x/a.bin", A, 3), ("x/b\"q\n.bin", A, 0)];
        let at = written(store.as_ref(), &prefix, &files).await;
        assert_eq!(at.files, 2);
        let (ok, got) = read_all(store.as_ref(), &prefix, &at).await;
        assert!(ok);
        assert_eq!(got[1], ("x/b\"q\n.bin".into(), A.into(), 0));

        // Another count, a path outside the listings, a hash in capitals: named wrongly.
        for wrong in [
            ListingRef {
                files: 3,
                ..at.clone()
            },
            ListingRef {
                path: format!("../{}", at.path),
                ..at.clone()
            },
            ListingRef {
                hash: at.hash.to_uppercase().replace("SHA256:", "sha256:"),
                ..at.clone()
            },
        ] {
            assert!(
                !read_all(store.as_ref(), &prefix, &wrong).await.0,
                "{wrong:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_listing_whose_bytes_changed_vouches_for_nothing() {
        let (_dir, store, prefix) = store();
        let at = written(store.as_ref(), &prefix, &[("a", A, 1)]).await;
        let location = child(&prefix, &at.path);
        for bytes in [
            format!("{{\"path\":\"a\",\"hash\":\"sha256:{A}\",\"bytes\":2}}\n"),
            format!("{{\"path\":\"a\",\"hash\":\"sha256:{A}\",\"bytes\":1}}"),
            "not json\n".to_owned(),
            String::new(),
        ] {
            store.put(&location, bytes.clone().into()).await.unwrap();
            assert!(!read_all(store.as_ref(), &prefix, &at).await.0, "{bytes:?}");
        }
        store.delete(&location).await.unwrap();
        assert!(!read_all(store.as_ref(), &prefix, &at).await.0);
    }
}
