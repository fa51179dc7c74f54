//! Signed upload URLs of `stone-server`'s local staging store: HMAC-SHA256 over the method,
//! the path and every query parameter but `sig`, in a fixed order; changing any of them (a
//! longer expiry, another size) breaks the signature. No I/O: the server keeps the key in
//! its data directory; the fuzz target `staging_url` (`fuzz/`) checks arbitrary URLs here.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The signing key.
#[derive(Clone)]
pub struct SigningKey(Vec<u8>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(…)")
    }
}

impl SigningKey {
    /// A key made of these bytes.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self(bytes.to_vec())
    }

    /// The key's bytes (to store it).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    fn mac(&self, message: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(message.as_bytes());
        mac
    }

    /// Hex signature of `message`.
    pub fn sign(&self, message: &str) -> String {
        hex::encode(self.mac(message).finalize().into_bytes())
    }

    /// Whether `signature` (hex) signs `message` (constant-time comparison).
    pub fn verify(&self, message: &str, signature: &str) -> bool {
        match hex::decode(signature) {
            Ok(bytes) => self.mac(message).verify_slice(&bytes).is_ok(),
            Err(_) => false,
        }
    }
}

/// What a single-upload URL signs.
pub fn content_message(sha256: &str, size: u64, expires: u64) -> String {
    format!("PUT\n/v1/staging/{sha256}\nsize={size}\nexpires={expires}")
}

/// What a single-upload URL that names its uploader signs: the uploader (`holder`, a hex
/// key the server derives from the caller) is recorded as holding the content once the
/// upload is verified.
pub fn held_content_message(sha256: &str, size: u64, holder: &str, expires: u64) -> String {
    format!(
        "{}\nholder={holder}",
        content_message(sha256, size, expires)
    )
}

/// What a pack URL signs (issue 27, [`crate::pack`]): whose contents it stages, for
/// which push (issue 52: a pack stages only contents that push declares), and how many
/// bytes its body may have.
pub fn pack_message(holder: &str, push: &str, max_bytes: u64, expires: u64) -> String {
    format!(
        "PUT\n/v1/staging/pack\nmax={max_bytes}\nexpires={expires}\nholder={holder}\npush={push}"
    )
}

/// What a part URL signs.
pub fn part_message(
    sha256: &str,
    number: u32,
    upload: &str,
    offset: u64,
    size: u64,
    expires: u64,
) -> String {
    format!(
        "PUT\n/v1/staging/{sha256}/parts/{number}\nupload={upload}\noffset={offset}\nsize={size}\nexpires={expires}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_bind_every_parameter() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let signature = key.sign(&content_message("aa", 10, 100));
        assert!(key.verify(&content_message("aa", 10, 100), &signature));
        assert!(!key.verify(&content_message("aa", 10, 101), &signature));
        assert!(!key.verify(&content_message("aa", 11, 100), &signature));
        assert!(!key.verify(&content_message("ab", 10, 100), &signature));
        assert!(!key.verify(&content_message("aa", 10, 100), "zz"));
        let other = SigningKey::from_bytes(&[8; 32]);
        assert!(!other.verify(&content_message("aa", 10, 100), &signature));
        let held = key.sign(&held_content_message("aa", 10, "h1", 100));
        assert!(key.verify(&held_content_message("aa", 10, "h1", 100), &held));
        assert!(!key.verify(&held_content_message("aa", 10, "h2", 100), &held));
        assert!(!key.verify(&content_message("aa", 10, 100), &held));
    }
}
