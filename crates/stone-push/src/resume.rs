//! Resume state: the push ID, saved under the package's `.stone/` (per environment and
//! branch) before the first upload, so running the same command again resumes the push.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::PushError;

/// What is remembered of an unfinished push.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumeState {
    pub push_id: String,
    /// The API it was created on: a state saved for another API is ignored.
    pub api: String,
}

/// `.stone/pushes/<env>/<branch>.json`: dev and prod never share resume state.
pub fn state_path(root: &Path, env: &str, branch: &str) -> PathBuf {
    root.join(stone_package::package::STATE_DIR)
        .join("pushes")
        .join(env)
        .join(format!("{branch}.json"))
}

pub fn load(path: &Path, api: &str) -> Option<ResumeState> {
    let state: ResumeState = serde_json::from_slice(&fs::read(path).ok()?).ok()?;
    (state.api == api).then_some(state)
}

/// Saves atomically (temp file + rename).
pub fn save(path: &Path, state: &ResumeState) -> Result<(), PushError> {
    let io = |source| PushError::Io {
        path: path.to_owned(),
        source,
    };
    let state_dir = path.ancestors().nth(3).expect("under .stone/pushes/<env>/");
    stone_package::digest::ensure_state_dir(state_dir).map_err(io)?;
    fs::create_dir_all(path.parent().expect("a parent")).map_err(io)?;
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    fs::write(&tmp, serde_json::to_vec_pretty(state).expect("serializes")).map_err(io)?;
    fs::rename(&tmp, path).map_err(io)
}

pub fn clear(path: &Path) {
    let _ = fs::remove_file(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_load_clear() {
        let dir = tempfile::tempdir().unwrap();
        let path = state_path(dir.path(), "prod", "feature-x");
        assert_eq!(load(&path, "https://a"), None);
        let state = ResumeState {
            push_id: "p1".into(),
            api: "https://a".into(),
        };
        save(&path, &state).unwrap();
        assert!(dir.path().join(".stone/.gitignore").exists());
        assert_eq!(load(&path, "https://a"), Some(state));
        assert_eq!(
            load(&path, "https://b"),
            None,
            "another API's state is not ours"
        );
        assert_eq!(
            load(&state_path(dir.path(), "dev", "feature-x"), "https://a"),
            None
        );
        clear(&path);
        assert_eq!(load(&path, "https://a"), None);
    }
}
