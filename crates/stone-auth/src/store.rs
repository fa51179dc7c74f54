//! The token store: the OS keyring when there is one (cargo feature `keyring`: the Secret
//! Service on Linux, the Keychain on macOS, the Credential Manager on Windows), else one
//! JSON file per environment and issuer, mode 0600, in a directory of mode 0700, written
//! atomically (a temporary file in the same directory, then a rename).
//!
//! Files are keyed by environment name AND issuer (`<env>-<sha256(issuer)[..16]>.json`), so
//! dev and prod never share tokens, and an environment that moves to another issuer does not
//! send the old issuer's tokens. In the keyring the entry is service `stone`, account
//! `<env>`; it holds the same JSON, whose `issuer` must match to be used.
//!
//! The keyring is used when [`TokenStore::with_os_keyring`] asked for it and it answers:
//! on Linux only with a session bus (`DBUS_SESSION_BUS_ADDRESS`) whose Secret Service
//! stores the entry. Anything else (no bus, no service, a locked collection) falls back to
//! the files, silently: a login must work on a headless machine.

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

/// The keyring entries' service name.
pub const KEYRING_SERVICE: &str = "stone";

/// Where a login is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The OS keyring: service [`KEYRING_SERVICE`], account the environment's name.
    Keyring {
        account: String,
    },
    File(PathBuf),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Keyring { account } => write!(
                f,
                "the OS keyring (service `{KEYRING_SERVICE}`, account `{account}`)"
            ),
            Location::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The token store: the OS keyring when asked for and available, else the directory of
/// token files.
#[derive(Debug, Clone)]
pub struct TokenStore {
    dir: PathBuf,
    keyring: bool,
}

impl TokenStore {
    /// Files only, in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        TokenStore {
            dir: dir.into(),
            keyring: false,
        }
    }

    /// The OS keyring when there is one (and this build has the `keyring` feature), else
    /// files in `dir`.
    pub fn with_os_keyring(dir: impl Into<PathBuf>) -> Self {
        TokenStore {
            dir: dir.into(),
            keyring: cfg!(feature = "keyring"),
        }
    }

    /// Where the tokens of `env` at `issuer` are (or would be written).
    pub fn location(&self, env: &str, issuer: &str) -> Location {
        if self.keyring && keyring::get(env).is_ok_and(|t| t.is_some()) {
            return Location::Keyring {
                account: env.to_owned(),
            };
        }
        Location::File(self.path(env, issuer))
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

    /// The tokens of `env` at `issuer`, if stored (the keyring first).
    pub fn load(&self, env: &str, issuer: &str) -> Result<Option<StoredTokens>, AuthError> {
        if self.keyring
            && let Ok(Some(json)) = keyring::get(env)
        {
            if let Ok(tokens) = serde_json::from_str::<StoredTokens>(&json)
                && tokens.env == env
                && tokens.issuer == issuer
            {
                return Ok(Some(tokens));
            }
            // Another issuer's login, or not ours: as if absent.
            return Ok(None);
        }
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

    /// Writes the tokens: into the keyring when there is one (and removes a file of the
    /// same login), else a file (the directory 0700, the file 0600, atomically).
    pub fn save(&self, tokens: &StoredTokens) -> Result<Location, AuthError> {
        let path = self.path(&tokens.env, &tokens.issuer);
        if self.keyring {
            let json = serde_json::to_string(tokens).map_err(|e| AuthError::Store {
                path: path.clone(),
                source: std::io::Error::other(e),
            })?;
            if keyring::set(&tokens.env, &json).is_ok() {
                let _ = std::fs::remove_file(&path);
                return Ok(Location::Keyring {
                    account: tokens.env.clone(),
                });
            }
        }
        self.save_file(tokens, path).map(Location::File)
    }

    fn save_file(&self, tokens: &StoredTokens, path: PathBuf) -> Result<PathBuf, AuthError> {
        let store_error = |source| AuthError::Store {
            path: self.dir.clone(),
            source,
        };
        create_private_dir(&self.dir).map_err(store_error)?;
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

    /// Removes the keyring entry and every token file of `env` (any issuer); what was
    /// removed.
    pub fn remove(&self, env: &str) -> Result<Vec<Location>, AuthError> {
        let mut removed = Vec::new();
        if self.keyring && keyring::delete(env).unwrap_or(false) {
            removed.push(Location::Keyring {
                account: env.to_owned(),
            });
        }
        removed.extend(self.remove_files(env)?.into_iter().map(Location::File));
        Ok(removed)
    }

    fn remove_files(&self, env: &str) -> Result<Vec<PathBuf>, AuthError> {
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

/// The OS keyring, off the async runtime's threads (the Secret Service client runs its own
/// calls): `Err` when there is none or it fails, `Ok(None)` for no entry.
#[cfg(feature = "keyring")]
mod keyring {
    use super::KEYRING_SERVICE;

    /// Whether a keyring may be there at all: on Linux, only with a session bus.
    fn present() -> bool {
        if cfg!(target_os = "linux") {
            return std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
        }
        true
    }

    fn run<T: Send>(
        work: impl FnOnce(keyring::Entry) -> Result<T, keyring::Error> + Send,
        account: &str,
    ) -> Result<T, keyring::Error> {
        if !present() {
            return Err(keyring::Error::NoStorageAccess(
                "no keyring here".to_owned().into(),
            ));
        }
        std::thread::scope(|scope| {
            scope
                .spawn(|| work(keyring::Entry::new(KEYRING_SERVICE, account)?))
                .join()
                .unwrap_or_else(|_| {
                    Err(keyring::Error::PlatformFailure(
                        "the keyring client failed".to_owned().into(),
                    ))
                })
        })
    }

    pub fn get(account: &str) -> Result<Option<String>, keyring::Error> {
        run(
            |entry| match entry.get_password() {
                Ok(secret) => Ok(Some(secret)),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(e),
            },
            account,
        )
    }

    pub fn set(account: &str, secret: &str) -> Result<(), keyring::Error> {
        run(|entry| entry.set_password(secret), account)
    }

    /// `Ok(true)` when an entry was removed.
    pub fn delete(account: &str) -> Result<bool, keyring::Error> {
        run(
            |entry| match entry.delete_credential() {
                Ok(()) => Ok(true),
                Err(keyring::Error::NoEntry) => Ok(false),
                Err(e) => Err(e),
            },
            account,
        )
    }
}

/// Without the `keyring` feature there is never one.
#[cfg(not(feature = "keyring"))]
mod keyring {
    pub fn get(_account: &str) -> Result<Option<String>, ()> {
        Err(())
    }

    pub fn set(_account: &str, _secret: &str) -> Result<(), ()> {
        Err(())
    }

    pub fn delete(_account: &str) -> Result<bool, ()> {
        Err(())
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

/// Makes `dir` and the directories above it that do not exist yet, each 0700 (a login
/// must not leave `<data dir>/stone` readable by others); narrows an existing `dir` to
/// 0700; and refuses a `dir` whose parent other users may write (without the sticky bit,
/// as `/tmp` has): they could rename the token directory and put their own in its place.
#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    restrict(dir, 0o700)?;
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mode = std::fs::metadata(parent)?.permissions().mode();
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "{} is writable by other users (mode {:o}), who could swap the token directory: run `chmod go-w {}`, or set STONE_TOKEN_DIR to a directory only you can write",
                parent.display(),
                mode & 0o7777,
                parent.display()
            ),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
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
        let Location::File(path) = store.save(&tokens("dev", "https://id")).unwrap() else {
            panic!("a file store writes files");
        };
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(store.dir()), 0o700);
        store.save(&tokens("dev", "https://id")).unwrap();
        assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn every_directory_made_for_the_tokens_is_0700() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("share");
        let store = TokenStore::new(data.join("stone").join("tokens"));
        store.save(&tokens("dev", "https://id")).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("stone")), 0o700);
        assert_eq!(mode(store.dir()), 0o700);
        // An existing token directory open to others is narrowed.
        std::fs::set_permissions(store.dir(), std::fs::Permissions::from_mode(0o755)).unwrap();
        store.save(&tokens("dev", "https://id")).unwrap();
        assert_eq!(mode(store.dir()), 0o700);
    }

    #[cfg(unix)]
    #[test]
    fn a_parent_others_may_write_is_refused_unless_sticky() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let shared = root.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let store = TokenStore::new(shared.join("tokens"));
        let error = store.save(&tokens("dev", "https://id")).unwrap_err();
        let AuthError::Store { source, .. } = &error else {
            panic!("{error:?}");
        };
        assert!(source.to_string().contains("chmod go-w"), "{source}");
        assert!(
            std::fs::read_dir(shared.join("tokens"))
                .unwrap()
                .next()
                .is_none(),
            "no token written"
        );
        // Like /tmp: others may write but not rename what is not theirs.
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        store.save(&tokens("dev", "https://id")).unwrap();
    }
}
