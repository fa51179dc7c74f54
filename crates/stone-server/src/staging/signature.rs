//! Signed upload URLs of the local staging store: HMAC-SHA256 with a key kept in the data
//! directory (`staging.key`, created on first start, mode 0600). Signing and checking are
//! in `stone_api::signature` (no I/O, fuzzed); the key file is read here.
//!
//! The signature covers the method, the path and every query parameter but `sig`, in a
//! fixed order; changing any of them (a longer expiry, another size) breaks it.

use std::io::Write;
use std::path::Path;

pub use stone_api::signature::{
    SigningKey, content_message, held_content_message, pack_message, part_message,
};

/// Reads the key file, creating it with 32 random bytes (mode 0600) if it does not exist.
pub fn load_or_create(path: &Path) -> std::io::Result<SigningKey> {
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
            Ok(SigningKey::from_bytes(&bytes))
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
            Ok(SigningKey::from_bytes(&bytes))
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_file_is_created_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("staging.key");
        let first = load_or_create(&path).unwrap();
        let second = load_or_create(&path).unwrap();
        assert_eq!(first.as_bytes(), second.as_bytes());
        assert_eq!(first.as_bytes().len(), 32);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
