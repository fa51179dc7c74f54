//! The error codes of a package that cannot be loaded (`--json`: `error.code`).

/// Two resources would become the same dataset.
pub const DUPLICATE_SLUG: &str = "package.duplicate_slug";
/// A resource lies in the `ext/` zone, which pushes refuse.
pub const EXT_ZONE: &str = "package.ext_zone";
/// A file a resource names does not exist.
pub const FILE_MISSING: &str = "package.file_missing";
/// `datasets.yaml` is not a valid package descriptor.
pub const INVALID: &str = "package.invalid";
/// A name (slug, `as_name`) is not a valid dataset name.
pub const INVALID_NAME: &str = "package.invalid_name";
/// A file of the package could not be read.
pub const IO: &str = "package.io";
/// No `datasets.yaml` in the folder.
pub const NO_DESCRIPTOR: &str = "package.no_descriptor";
/// The package's path does not exist, or is not a folder.
pub const NO_FOLDER: &str = "package.no_folder";
/// A path leaves the package, or is not a plain relative path.
pub const PATH_REFUSED: &str = "package.path_refused";
