//! The one error type of the Iceberg engine.

use std::fmt;
use std::path::PathBuf;

/// Why a schema change was refused (or, with `force`, what was forced through).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IncompatibleChange {
    /// The files give the column a type that the table type cannot be promoted to or from
    /// (only int→long, float→double and decimal precision increases are promotions).
    TypeChanged {
        /// Iceberg type on the branch, e.g. `long`.
        from: String,
        /// Iceberg type in the files, e.g. `string`.
        to: String,
    },
    /// A column that is required on the branch is missing from the files.
    RequiredColumnMissing,
}

impl fmt::Display for IncompatibleChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TypeChanged { from, to } => write!(f, "its type changes from {from} to {to}"),
            Self::RequiredColumnMissing => f.write_str("it is required but missing from the files"),
        }
    }
}

/// Kind of an Iceberg snapshot reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// A branch: moves with every commit to it.
    Branch,
    /// A tag: names one snapshot for good.
    Tag,
}

impl fmt::Display for RefKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Branch => "branch",
            Self::Tag => "tag",
        })
    }
}

/// Errors of the Iceberg engine. `table` is always the qualified name `<ns>.<table>`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IcebergError {
    /// A namespace, table, branch or tag name that the engine does not accept.
    #[error("invalid {what} name {name:?}: {reason}")]
    InvalidName {
        /// `namespace`, `table`, `branch` or `tag`.
        what: &'static str,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// `append` was called without files.
    #[error("nothing to append to {table}: no files were given")]
    NoFiles {
        /// The table.
        table: String,
    },

    /// A staged file could not be read.
    #[error("cannot read staged file {}", path.display())]
    ReadStagedFile {
        /// The staged file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },

    /// A staged file's content does not match the sha256 it was given with.
    #[error("staged file {} has sha256 {actual}, expected {expected}", path.display())]
    ChecksumMismatch {
        /// The staged file.
        path: PathBuf,
        /// The sha256 given by the caller.
        expected: String,
        /// The sha256 of the content.
        actual: String,
    },

    /// A staged Parquet file is past a parser limit (footer size, schema depth, columns):
    /// refused before its footer is parsed.
    #[error("staged file {}: {message}", path.display())]
    ParquetLimit {
        /// The staged file.
        path: PathBuf,
        /// Which limit, in words.
        message: String,
    },

    /// A staged file is not a Parquet file the engine can read.
    #[error("staged file {} is not a readable Parquet file", path.display())]
    InvalidParquet {
        /// The staged file.
        path: PathBuf,
        /// The Parquet error.
        #[source]
        source: parquet::errors::ParquetError,
    },

    /// A column has an Arrow type that has no Iceberg equivalent (e.g. unsigned 64-bit
    /// integers, millisecond timestamps, timestamps in a zone other than UTC).
    #[error("column {column:?} of {} has type {data_type}, which an Iceberg table cannot store: {reason}", path.display())]
    UnsupportedColumnType {
        /// The staged file.
        path: PathBuf,
        /// The column.
        column: String,
        /// The Arrow type, as pyarrow names it (`uint64`, `timestamp[ns]`).
        data_type: String,
        /// Why, and what to write instead ([`stone_formats::storable`]).
        reason: String,
    },

    /// A file's columns break the rule every table's columns follow
    /// ([`stone_formats::check_columns`]: a name of its own each, types a table holds and
    /// gives back); the client refuses them before upload, a client that does not is
    /// refused here, before anything is committed.
    #[error("staged file {} has columns a table cannot take", path.display())]
    InvalidColumns {
        /// The staged file.
        path: PathBuf,
        /// What is wrong, naming the column.
        #[source]
        source: Box<stone_formats::FormatError>,
    },

    /// A Parquet file carries Iceberg field ids of its own. The engine maps columns by name
    /// (`schema.name-mapping.default`); files with ids would be read by those ids instead.
    #[error("column {column:?} of {} carries a Parquet field id; the engine only accepts files without field ids", path.display())]
    FileHasFieldIds {
        /// The staged file.
        path: PathBuf,
        /// The first column that has an id.
        column: String,
    },

    /// The files' schema is not compatible with the branch's schema, and `force` was not
    /// given.
    #[error(
        "schema of {table} on branch {branch} cannot take the files: column {column:?}: {change}"
    )]
    IncompatibleSchema {
        /// The table.
        table: String,
        /// The branch.
        branch: String,
        /// The column, dotted for nested fields (`address.city`).
        column: String,
        /// What is incompatible.
        change: IncompatibleChange,
    },

    /// A forced type change while files of the old type would stay on the branch: those
    /// files could no longer be read. Replace the branch content instead.
    #[error(
        "changing column {column:?} of {table} on branch {branch} from {from} to {to} would leave files of the old type on the branch; push with --replace to replace the branch's content and change the type"
    )]
    TypeChangeNeedsReplace {
        /// The table.
        table: String,
        /// The branch.
        branch: String,
        /// The column.
        column: String,
        /// The type on the branch.
        from: String,
        /// The type in the files.
        to: String,
    },

    /// The branch's version already names another snapshot; moving it needs `force`.
    #[error(
        "version {tag:?} of {table} on branch {branch} already names snapshot {tagged}; not moving it to {requested} without force"
    )]
    TagExists {
        /// The table.
        table: String,
        /// The branch the version belongs to.
        branch: String,
        /// The version (package version; its tag is `<branch>@<version>`).
        tag: String,
        /// The snapshot the tag names.
        tagged: i64,
        /// The snapshot the push would tag.
        requested: i64,
    },

    /// A branch would be pushed under the name of a (legacy, bare) tag. Branches and tags
    /// share one name space.
    #[error("{name:?} is already a {existing} of {table}")]
    RefKindConflict {
        /// The table.
        table: String,
        /// The reference name.
        name: String,
        /// What the existing reference is.
        existing: RefKind,
    },

    /// The table does not exist.
    #[error("table {table} does not exist")]
    TableNotFound {
        /// The table.
        table: String,
    },

    /// The branch or tag does not exist.
    #[error("{table} has no branch or tag {reference:?}")]
    RefNotFound {
        /// The table.
        table: String,
        /// The branch or tag.
        reference: String,
    },

    /// Other writers kept committing to the table: every compare-and-swap lost.
    #[error(
        "could not commit to {table} (branch {branch}): the table changed under us {attempts} times"
    )]
    CommitConflict {
        /// The table.
        table: String,
        /// The branch.
        branch: String,
        /// Attempts made.
        attempts: u32,
    },

    /// The catalog could not be opened.
    #[error("cannot open the Iceberg catalog at {uri}")]
    OpenCatalog {
        /// The catalog URI, without credentials.
        uri: String,
        /// The cause.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    /// The warehouse could not be written (a missing bucket, wrong credentials, no route).
    #[error("cannot write to the Iceberg warehouse {warehouse}")]
    OpenWarehouse {
        /// The warehouse URL (`s3://bucket/prefix`).
        warehouse: String,
        /// The cause.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    /// An operation of the Iceberg library on a table failed (catalog, metadata, manifests,
    /// storage).
    #[error("Iceberg operation on {table} failed: {operation}")]
    Iceberg {
        /// The table.
        table: String,
        /// What was being done.
        operation: &'static str,
        /// The cause (boxed: `iceberg::Error` is large).
        #[source]
        source: Box<::iceberg::Error>,
    },

    /// Writing a data file into the warehouse failed.
    #[error("cannot write data file {location}")]
    WriteDataFile {
        /// The destination.
        location: String,
        /// The cause.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    /// The catalog database failed.
    #[error("catalog database error while {operation} {table}")]
    Database {
        /// The table.
        table: String,
        /// What was being done.
        operation: &'static str,
        /// The cause.
        #[source]
        source: sqlx::Error,
    },

    /// A blocking task panicked or was cancelled.
    #[error("internal task failed")]
    Task(#[source] tokio::task::JoinError),

    /// Test hook: the append stopped right before the catalog compare-and-swap, as a
    /// crash would.
    #[doc(hidden)]
    #[error("injected fault before commit to {table}")]
    InjectedFault {
        /// The table.
        table: String,
    },
}

impl IcebergError {
    pub(crate) fn iceberg(table: &str, operation: &'static str, source: ::iceberg::Error) -> Self {
        Self::Iceberg {
            table: table.to_owned(),
            operation,
            source: Box::new(source),
        }
    }
}
