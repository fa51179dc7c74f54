//! The digest of a folder dataset's listing (issue 27), computed the same way by the
//! server (the `listing` of an object-storage head, the files a paged push recorded) and
//! by the client (a folder it walked): equal digests mean the same files, so a client
//! whose folder is unchanged need not send its files at all
//! ([`crate::DatasetManifest::listing`], [`crate::PushCreated::unchanged`]).

use sha2::Digest;

/// The lowercase hex sha256 of every file in path order (bytewise), each as
/// `path NUL sha256 NUL size LF`, paths inside the dataset (a path holds no control
/// character). Fed file by file, so that a listing streamed in pages, or walked, is
/// digested without being held.
#[derive(Clone, Default)]
pub struct ListingDigest {
    hasher: sha2::Sha256,
    files: u64,
    bytes: u64,
}

impl ListingDigest {
    /// Adds the next file (in path order).
    pub fn add(&mut self, path: &str, sha256: &str, size: u64) {
        self.hasher.update(path.as_bytes());
        self.hasher.update([0]);
        self.hasher.update(sha256.as_bytes());
        self.hasher.update([0]);
        let mut digits = [0u8; 20];
        self.hasher.update(decimal(size, &mut digits));
        self.hasher.update([b'\n']);
        self.files += 1;
        self.bytes = self.bytes.saturating_add(size);
    }

    /// Files added so far.
    pub fn files(&self) -> u64 {
        self.files
    }

    /// Their bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The digest (lowercase hex).
    pub fn finish(self) -> String {
        hex::encode(self.hasher.finalize())
    }
}

impl std::fmt::Debug for ListingDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListingDigest")
            .field("files", &self.files)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

/// `n` in decimal, written at the end of `into` (no allocation: a million files).
fn decimal(mut n: u64, into: &mut [u8; 20]) -> &[u8] {
    let mut at = into.len();
    loop {
        at -= 1;
        into[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &into[at..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_the_documented_one() {
        let mut digest = ListingDigest::default();
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        digest.add("x/1.bin", &a, 0);
        digest.add("x/2.bin", &b, 18_446_744_073_709_551_615);
        assert_eq!((digest.files(), digest.bytes()), (2, u64::MAX));
        let text = format!("x/1.bin\0{a}\00\nx/2.bin\0{b}\018446744073709551615\n");
        assert_eq!(digest.finish(), hex::encode(sha2::Sha256::digest(text)));
    }

    #[test]
    fn decimals() {
        let mut digits = [0u8; 20];
        for n in [0u64, 7, 10, 128, 99_999, u64::MAX] {
            assert_eq!(decimal(n, &mut digits), n.to_string().as_bytes());
        }
    }
}
