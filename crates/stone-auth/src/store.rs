//! The token store: one JSON file per environment and issuer, mode 0600, in a directory of
//! mode 0700, written atomically (a temporary file in the same directory, then a rename).
//!
//! Files are keyed by environment name AND issuer (`<env>-<sha256(issuer)[..16]>.json`), so
//! dev and prod never share tokens, and an environment that moves to another issuer does not
//! send the old issuer's tokens. (No OS keyring: its crates bring D-Bus or platform
//! bindings to the build; the file is what the issue asks for when there is none.)

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{AuthError, Secret};

/// What is stored for one environment.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredTokens {
    pub env: String,
    pub issuer: String,
    pub client_id: String,
    pub access_token: Secret<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<Secret<String>>,
    /// Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

/// The directory of token files.
#[derive(Debug, Clone)]
pub struct TokenStore {
    dir: PathBuf,
}

impl TokenStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        TokenStore { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `env` at `issuer`.
    pub fn path(&self, env: &str, issuer: &str) -> PathBuf {
        let env: String = env
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let digest = hex(&Sha256::digest(issuer.trim_end_matches('/').as_bytes()));
        self.dir.join(format!("{env}-{}.json", &digest[..16]))
    }

    /// The tokens of `env` at `issuer`, if stored.
    pub fn load(&self, env: &str, issuer: &str) -> Result<Option<StoredTokens>, AuthError> {
        let path = self.path(env, issuer);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(AuthError::Store { path, source }),
        };
        match serde_json::from_slice::<StoredTokens>(&bytes) {
            Ok(tokens) if tokens.env == env && tokens.issuer == issuer => Ok(Some(tokens)),
            // Unreadable or not ours: as if absent (a login writes it again).
            _ => Ok(None),
        }
    }

    /// Writes the tokens: the directory 0700, the file 0600, atomically.
    pub fn save(&self, tokens: &StoredTokens) -> Result<PathBuf, AuthError> {
        let path = self.path(&tokens.env, &tokens.issuer);
        let store_error = |source| AuthError::Store {
            path: self.dir.clone(),
            source,
        };
        std::fs::create_dir_all(&self.dir).map_err(store_error)?;
        restrict(&self.dir, 0o700).map_err(store_error)?;
        let temp = self.dir.join(format!(
            ".{}.tmp-{}-{}",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("tokens"),
            std::process::id(),
            crate::pkce::random_token(6)?
        ));
        let json = serde_json::to_vec_pretty(tokens).map_err(|e| AuthError::Store {
            path: path.clone(),
            source: std::io::Error::other(e),
        })?;
        let written = (|| {
            let mut file = create_private(&temp)?;
            file.write_all(&json)?;
            file.sync_all()?;
            std::fs::rename(&temp, &path)
        })();
        if let Err(source) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(AuthError::Store { path, source });
        }
        Ok(path)
    }

    /// Removes every token file of `env` (any issuer); the paths removed.
    pub fn remove(&self, env: &str) -> Result<Vec<PathBuf>, AuthError> {
        let prefix = self
            .path(env, "")
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n[..n.len() - "0123456789abcdef.json".len()].to_owned())
            .unwrap_or_default();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(AuthError::Store {
                    path: self.dir.clone(),
                    source,
                });
            }
        };
        let mut removed = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            // `<env>-<16 hex>.json` exactly: `dev` must not remove `dev-eu`'s tokens.
            let rest = name
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(".json"));
            if rest.is_some_and(|r| r.len() == 16 && r.bytes().all(|b| b.is_ascii_hexdigit())) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|source| AuthError::Store {
                    path: path.clone(),
                    source,
                })?;
                removed.push(path);
            }
        }
        Ok(removed)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(env: &str, issuer: &str) -> StoredTokens {
        StoredTokens {
            env: env.into(),
            issuer: issuer.into(),
            client_id: "stone-cli".into(),
            access_token: Secret::new("at".into()),
            refresh_token: Some(Secret::new("rt".into())),
            expires_at: Some(10),
        }
    }

    #[test]
    fn environments_and_issuers_never_share_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::new(dir.path().join("tokens"));
        let dev = store.save(&tokens("dev", "https://id-dev")).unwrap();
        let prod = store.save(&tokens("prod", "https://id-prod")).unwrap();
        store.save(&tokens("dev-eu", "https://id-dev")).unwrap();
        assert_ne!(dev, prod);
        assert!(store.load("dev", "https://id-prod").unwrap().is_none());
        assert_eq!(
            store
                .load("dev", "https://id-dev")
                .unwrap()
                .unwrap()
                .access_token
                .expose(),
            "at"
        );
        assert_eq!(store.remove("dev").unwrap(), vec![dev]);
        assert!(store.load("dev-eu", "https://id-dev").unwrap().is_some());
        assert!(store.load("prod", "https://id-prod").unwrap().is_some());
    }

    #[cfg(unix)]
    #[test]
    fn file_0600_directory_0700_no_temporary_left() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::new(dir.path().join("tokens"));
        let path = store.save(&tokens("dev", "https://id")).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(store.dir()), 0o700);
        store.save(&tokens("dev", "https://id")).unwrap();
        assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1);
    }
}
