//! The branch a push goes to: `--branch`, else the CI variables, else the current git branch.
//! Never `main` by default.

use std::path::Path;
use std::process::Stdio;

use serde::Serialize;

/// The CI variable read first for the branch (the head ref of a pull request).
pub const CI_HEAD_REF: &str = "CI_HEAD_REF";
/// The CI variable read second for the branch (the ref the job runs on).
pub const CI_REF_NAME: &str = "CI_REF_NAME";

/// Where the branch name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BranchSource {
    Flag,
    CiHeadRef,
    CiRefName,
    Git,
    /// None was needed: a push outside the platform (a blob store, an HTTP server) has no
    /// branches. The name is empty.
    Unused,
}

impl BranchSource {
    pub fn describe(self) -> &'static str {
        match self {
            BranchSource::Flag => "--branch",
            BranchSource::CiHeadRef => "$CI_HEAD_REF",
            BranchSource::CiRefName => "$CI_REF_NAME",
            BranchSource::Git => "the current git branch",
            BranchSource::Unused => "nowhere: the destination has no branches",
        }
    }
}

/// A resolved, normalized branch name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Branch {
    /// Normalized: only `[A-Za-z0-9_.-]`.
    pub name: String,
    /// As given, before normalization.
    pub given: String,
    pub source: BranchSource,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BranchError {
    #[error("no branch to push to: none was given, neither $CI_HEAD_REF nor $CI_REF_NAME is set, and the current git branch could not be found{}", .0.as_deref().map(|why| format!(" ({why})")).unwrap_or_default())]
    Missing(Option<String>),
    #[error("the branch name given by {} is empty", .0.describe())]
    Empty(BranchSource),
    #[error("the branch name given by {} has {} bytes; a branch name has at most {MAX_BRANCH_LEN}", .0.describe(), .1)]
    TooLong(BranchSource, usize),
}

/// The longest branch name the platform takes (bytes, after normalization: ASCII).
pub const MAX_BRANCH_LEN: usize = 255;

/// Each character outside `[A-Za-z0-9_.-]` becomes `-`, one for one, and so does a leading
/// `.` (the server refuses hidden names); case is kept.
pub fn normalize_branch(name: &str) -> String {
    name.chars()
        .enumerate()
        .map(|(i, c)| {
            // A leading '.' would name a hidden ref, which the server refuses.
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') || (c == '.' && i > 0) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Resolves the branch: `flag`, else `CI_HEAD_REF`, else `CI_REF_NAME` (an empty variable
/// counts as unset), else the git branch checked out in `dir`. `var` reads the environment.
pub fn resolve_branch(
    flag: Option<&str>,
    var: impl Fn(&str) -> Option<String>,
    dir: &Path,
) -> Result<Branch, BranchError> {
    let make = |given: String, source| {
        if given.is_empty() {
            return Err(BranchError::Empty(source));
        }
        let name = normalize_branch(&given);
        if name.len() > MAX_BRANCH_LEN {
            return Err(BranchError::TooLong(source, name.len()));
        }
        Ok(Branch {
            name,
            given,
            source,
        })
    };
    if let Some(flag) = flag {
        return make(flag.to_owned(), BranchSource::Flag);
    }
    for (name, source) in [
        (CI_HEAD_REF, BranchSource::CiHeadRef),
        (CI_REF_NAME, BranchSource::CiRefName),
    ] {
        if let Some(value) = var(name).filter(|v| !v.is_empty()) {
            return make(value, source);
        }
    }
    match git_branch(dir) {
        Ok(branch) => make(branch, BranchSource::Git),
        Err(why) => Err(BranchError::Missing(Some(why))),
    }
}

/// The branch checked out in the git work tree around `dir`; an error says why there is none
/// (no repository, detached HEAD, git not installed).
pub fn git_branch(dir: &Path) -> Result<String, String> {
    // git is found on the absolute entries of PATH only (a `git` planted in the package
    // folder never runs) and looks at the package's folder, where `symbolic-ref` runs no
    // code of the repository's.
    let git =
        crate::program::Program::find("git").map_err(|e| format!("git could not be run: {e}"))?;
    let output = git
        .launch()
        .args(["symbolic-ref", "--quiet", "--short", "HEAD"])
        .in_dir(dir)
        .command()
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("git could not be run: {e}"))?;
    if output.status.success() {
        let branch = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        if !branch.is_empty() {
            return Ok(branch);
        }
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("not a git repository") {
        Err("not in a git repository".into())
    } else {
        Err("git HEAD is detached".into())
    }
}

/// `*` matches any run of characters; everything else matches itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('*').collect();
    if pieces.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// A protected ref pattern as branches arrive: the whole pattern normalized like a branch
/// name ([`normalize_branch`]), `*` kept. A pattern the server accepts is its own
/// normalization ([`check_ref_pattern`]); the client applies this to what an older server
/// lists (`release/*` → `release-*`).
pub fn normalize_ref_pattern(pattern: &str) -> String {
    pattern
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if c == '*'
                || c.is_ascii_alphanumeric()
                || matches!(c, '_' | '-')
                || (c == '.' && i > 0)
            {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A protected ref pattern the server can use as written: not empty, and unchanged by
/// [`normalize_ref_pattern`] (branches arrive normalized, so `release/*` would protect
/// nothing). The error is the pattern to write instead.
pub fn check_ref_pattern(pattern: &str) -> Result<(), String> {
    let normalized = normalize_ref_pattern(pattern);
    if pattern.is_empty() || normalized != pattern {
        return Err(normalized);
    }
    Ok(())
}

/// The first of `patterns` (protected ref patterns such as `main`, `release-*`) that
/// protects the normalized `branch` (each pattern taken through [`normalize_ref_pattern`]).
pub fn protecting_pattern<'a>(patterns: &'a [String], branch: &str) -> Option<&'a str> {
    patterns
        .iter()
        .find(|p| glob_match(&normalize_ref_pattern(p), branch))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn normalization_is_one_for_one_and_keeps_case() {
        assert_eq!(
            normalize_branch("feature/Ünïcode branch#1"),
            "feature--n-code-branch-1"
        );
        assert_eq!(normalize_branch("Release_1.2-rc"), "Release_1.2-rc");
        assert_eq!(normalize_branch("a//b"), "a--b");
    }

    #[test]
    fn precedence_flag_then_ci_head_then_ci_ref() {
        let no_repo = tempfile::tempdir().unwrap();
        let all = vars(&[(CI_HEAD_REF, "feature/pr"), (CI_REF_NAME, "refs-name")]);
        let b = resolve_branch(Some("mine"), &all, no_repo.path()).unwrap();
        assert_eq!((b.name.as_str(), b.source), ("mine", BranchSource::Flag));
        let b = resolve_branch(None, &all, no_repo.path()).unwrap();
        assert_eq!(
            (b.name.as_str(), b.source),
            ("feature-pr", BranchSource::CiHeadRef)
        );
        let b = resolve_branch(
            None,
            vars(&[(CI_HEAD_REF, ""), (CI_REF_NAME, "r#1")]),
            no_repo.path(),
        )
        .unwrap();
        assert_eq!(
            (b.name.as_str(), b.source),
            ("r-1", BranchSource::CiRefName)
        );
    }

    #[test]
    fn no_branch_never_means_main() {
        let no_repo = tempfile::tempdir().unwrap();
        let err = resolve_branch(
            None,
            vars(&[(CI_HEAD_REF, ""), (CI_REF_NAME, "")]),
            no_repo.path(),
        )
        .unwrap_err();
        assert_eq!(
            err,
            BranchError::Missing(Some("not in a git repository".into()))
        );
        let err = resolve_branch(Some(""), vars(&[]), no_repo.path()).unwrap_err();
        assert_eq!(err, BranchError::Empty(BranchSource::Flag));
    }

    #[test]
    fn a_branch_longer_than_the_platform_takes_is_refused_here() {
        let long = "b".repeat(MAX_BRANCH_LEN + 1);
        let at_most = "b".repeat(MAX_BRANCH_LEN);
        let none = |_: &str| None;
        let dir = std::env::temp_dir();
        assert!(matches!(
            resolve_branch(Some(&long), none, &dir),
            Err(BranchError::TooLong(BranchSource::Flag, 256))
        ));
        assert_eq!(
            resolve_branch(Some(&at_most), none, &dir).unwrap().name,
            at_most
        );
    }

    proptest! {
        #[test]
        fn normalized_branches_are_safe(s in any::<String>()) {
            let n = normalize_branch(&s);
            prop_assert_eq!(n.chars().count(), s.chars().count());
            prop_assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')));
            prop_assert_eq!(normalize_branch(&n), n.clone());
        }
    }
}
