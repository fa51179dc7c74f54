//! The stone package model: `datasets.yaml`, resources and their files, asset kinds and
//! engines, `stone:` names and slugs, the push branch, and the sha256 manifest.

pub mod branch;
pub mod codes;
pub mod descriptor;
pub mod digest;
pub mod format;
pub mod kind;
pub mod lock;
pub mod name;
pub mod package;
pub mod path;
pub mod program;

pub use branch::{Branch, BranchError, BranchSource, normalize_branch, resolve_branch};
pub use descriptor::{DESCRIPTOR_FILE, DescriptorError, Location};
pub use digest::{
    DigestError, FileDigest, FolderHasher, HashProgress, HashSession, HashStats, hash_files,
};
pub use format::Format;
pub use kind::{AssetKind, Engine};
pub use name::{Destination, Label, StoneUrl, sanitize_slug};
pub use package::{
    Dialect, Folder, FolderWalk, LISTED_FILES, Package, PackageError, PackageFile, Publish,
    Quoting, Resource, Unlisted, load_package,
};
pub use path::{PathError, PathProblem, RelativePath, check_file_name, check_relative_path};

/// The closest of `candidates` to `input`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(input, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
