//! Signed upload URLs of the local staging store: HMAC-SHA256 with a key kept in the data
//! directory (`staging.key`, created on first start, mode 0600).
//!
//! The signature covers the method, the path and every query parameter but `sig`, in a
//! fixed order; changing any of them (a longer expiry, another size) breaks it.

use std::io::Write;
use std::path::Path;

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
    /// Reads the key file, creating it with 32 random bytes if it does not exist.
    pub fn load_or_create(path: &Path) -> std::io::Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let bytes = hex::decode(text.trim()).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{} is not a hex key: {e}", path.display()),
                    )
                })?;
                if bytes.len() < 32 {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{} holds a key shorter than 32 bytes", path.display()),
                    ));
                }
                Ok(Self(bytes))
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let mut bytes = vec![0u8; 32];
                std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
                let mut options = std::fs::OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let mut file = options.open(path)?;
                file.write_all(hex::encode(&bytes).as_bytes())?;
                file.sync_all()?;
                Ok(Self(bytes))
            }
            Err(error) => Err(error),
        }
    }

    #[cfg(test)]
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self(bytes.to_vec())
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
    }

    #[test]
    fn the_key_file_is_created_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("staging.key");
        let first = SigningKey::load_or_create(&path).unwrap();
        let second = SigningKey::load_or_create(&path).unwrap();
        assert_eq!(first.0, second.0);
        assert_eq!(first.0.len(), 32);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
