//! Named versions of a table, per branch, and the one resolution of what a read names.
//!
//! Iceberg tags are table-wide; a package version is a version of one branch. Version `V`
//! of branch `B` is the tag `B@V` ([`version_tag`]): branch names are `[A-Za-z0-9_.-]` and
//! version names `[A-Za-z0-9_.+-]`, so `@` cannot occur in either and the split is
//! unambiguous. A push to one branch therefore never moves a version another branch holds,
//! and no version name can name a branch or another branch's tag.
//!
//! Legacy tags: before versions were per branch, a push tagged the bare version `V` (no
//! `@`). Such a tag still reads as version `V` of every branch whose history (its head and
//! the head's ancestors) contains the tagged snapshot, i.e. content the branch itself held;
//! a tag `B@V` takes precedence. The engine never writes a bare tag again: the next push of
//! `V` to `B` writes `B@V`.

use std::collections::BTreeMap;

use ::iceberg::spec::TableMetadata;

use super::snapshot::Refs;

/// Separates the branch from the version in a version's tag name.
pub const VERSION_SEPARATOR: char = '@';

/// The tag name of version `version` of `branch`: `{branch}@{version}`.
pub fn version_tag(branch: &str, version: &str) -> String {
    format!("{branch}{VERSION_SEPARATOR}{version}")
}

/// What a read names: a branch's head, or a named version of a branch. The only way the
/// engine's read methods take a ref; a `&str` converts to [`TableRef::Branch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRef<'a> {
    /// The head of a branch (never a tag, even one named like the string).
    Branch(&'a str),
    /// Version `version` of `branch` (the tag `branch@version`, or a legacy bare tag in
    /// the branch's history); never a branch.
    Version { branch: &'a str, version: &'a str },
}

impl<'a> TableRef<'a> {
    /// A version of `branch` when `version` is given, else the branch's head.
    pub fn of(branch: &'a str, version: Option<&'a str>) -> Self {
        match version {
            Some(version) => Self::Version { branch, version },
            None => Self::Branch(branch),
        }
    }

    /// The branch the ref belongs to.
    pub fn branch(&self) -> &'a str {
        match self {
            Self::Branch(branch) | Self::Version { branch, .. } => branch,
        }
    }
}

/// `branch`, or `branch@version` (the version's tag).
impl std::fmt::Display for TableRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Branch(branch) => f.write_str(branch),
            Self::Version { branch, version } => f.write_str(&version_tag(branch, version)),
        }
    }
}

impl<'a> From<&'a str> for TableRef<'a> {
    fn from(branch: &'a str) -> Self {
        Self::Branch(branch)
    }
}

impl<'a> From<&'a String> for TableRef<'a> {
    fn from(branch: &'a String) -> Self {
        Self::Branch(branch)
    }
}

/// The snapshot `reference` names, under the rules of the module documentation; `None`
/// when it names nothing.
pub(crate) fn resolve(
    metadata: &TableMetadata,
    refs: &Refs,
    reference: TableRef<'_>,
) -> Option<i64> {
    match reference {
        TableRef::Branch(branch) => branch_head(refs, branch),
        TableRef::Version { branch, version } => {
            if version.contains(VERSION_SEPARATOR) {
                return None;
            }
            if let Some(tag) = refs.get(&version_tag(branch, version))
                && !tag.is_branch()
            {
                return Some(tag.snapshot_id);
            }
            let legacy = refs.get(version).filter(|r| !r.is_branch())?;
            let head = branch_head(refs, branch)?;
            in_history(metadata, head, legacy.snapshot_id).then_some(legacy.snapshot_id)
        }
    }
}

/// The versions of `branch`, by name, with the snapshot each names.
pub(crate) fn versions(
    metadata: &TableMetadata,
    refs: &Refs,
    branch: &str,
) -> BTreeMap<String, i64> {
    let Some(head) = branch_head(refs, branch) else {
        return BTreeMap::new();
    };
    let prefix = version_tag(branch, "");
    let tags = refs.iter().filter(|(_, reference)| !reference.is_branch());
    let mut versions = BTreeMap::new();
    // Legacy bare tags in the branch's history first, so that scoped tags of the same
    // name replace them.
    for (name, reference) in tags.clone() {
        if !name.contains(VERSION_SEPARATOR) && in_history(metadata, head, reference.snapshot_id) {
            versions.insert(name.clone(), reference.snapshot_id);
        }
    }
    for (name, reference) in tags {
        if let Some(version) = name.strip_prefix(&prefix)
            && !version.is_empty()
        {
            versions.insert(version.to_owned(), reference.snapshot_id);
        }
    }
    versions
}

fn branch_head(refs: &Refs, branch: &str) -> Option<i64> {
    refs.get(branch)
        .filter(|r| r.is_branch())
        .map(|r| r.snapshot_id)
}

/// Whether `snapshot` is `head` or one of its ancestors. The walk is bounded by the
/// number of snapshots, so a parent cycle in corrupt metadata ends it.
fn in_history(metadata: &TableMetadata, head: i64, snapshot: i64) -> bool {
    let mut current = Some(head);
    for _ in 0..=metadata.snapshots().len() {
        match current {
            Some(id) if id == snapshot => return true,
            Some(id) => {
                current = metadata
                    .snapshot_by_id(id)
                    .and_then(|s| s.parent_snapshot_id());
            }
            None => return false,
        }
    }
    false
}
