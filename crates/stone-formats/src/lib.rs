//! stone's format handlers: CSV/TSV → Parquet by streaming (bounded memory), checks of a
//! table against its declared Table Schema, and — with the cargo feature `rdf` — RDF
//! validation of Turtle, N-Triples and JSON-LD.

pub mod csv;
pub mod footer;
pub mod rdf;
pub mod schema;
pub mod text;

use std::path::PathBuf;

pub use csv::{Conversion, CsvOptions, Tuning, csv_to_parquet, csv_to_parquet_tuned};
pub use footer::{FooterShape, ParquetLimits, check_parquet_footer};
pub use schema::{
    ColumnInfo, check_columns, check_parquet_schema, parquet_columns, storable, type_name,
};

/// Errors of reading, converting and checking formats. Each names the file, and the line,
/// column or table column where it can.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Csv { path: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Parquet { path: PathBuf, message: String },
    #[error("{}: the declared column `{column}` is not in the table (columns: {})", path.display(), available.join(", "))]
    MissingColumn {
        path: PathBuf,
        column: String,
        available: Vec<String>,
    },
    #[error("{}: the column `{column}` is declared as {expected} but holds {found}", path.display())]
    SchemaMismatch {
        path: PathBuf,
        column: String,
        expected: String,
        found: String,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Rdf {
        path: PathBuf,
        line: u64,
        column: u64,
        message: String,
    },
    #[error("{}: RDF files need the `rdf` feature, which this build of stone does not have", path.display())]
    RdfNotBuilt { path: PathBuf },
    #[error("{}: {message}", path.display())]
    Dialect { path: PathBuf, message: String },
    /// A column or struct field without a name of its own (empty, only whitespace, or its
    /// sibling's).
    #[error("{}: {message}", path.display())]
    ColumnName { path: PathBuf, message: String },
    /// A CSV/TSV whose lines all split on another delimiter than the one it is read with.
    #[error(
        "{}: every line splits on `{}` into {fields} fields, but the file is read with `{}`, which makes each line one column",
        path.display(), found.escape_debug(), read_with.escape_debug()
    )]
    Delimiter {
        path: PathBuf,
        read_with: char,
        found: char,
        fields: usize,
    },
    /// A column of a type a table cannot hold and give back.
    #[error("{}: the column `{column}` is of type {data_type}, which a table cannot hold: {reason}", path.display())]
    UnsupportedType {
        path: PathBuf,
        column: String,
        data_type: String,
        reason: String,
    },
    /// Input past one of stone's parser limits (refused before it is parsed).
    #[error("{}: {message}", path.display())]
    Limit { path: PathBuf, message: String },
}

impl FormatError {
    /// A stable, dotted code for the error.
    pub fn code(&self) -> &'static str {
        match self {
            FormatError::Read { .. } | FormatError::Write { .. } => "format.io",
            FormatError::Csv { .. } => "format.csv",
            FormatError::Parquet { .. } => "format.parquet",
            FormatError::MissingColumn { .. } | FormatError::SchemaMismatch { .. } => {
                "schema.mismatch"
            }
            FormatError::Rdf { .. } => "format.rdf",
            FormatError::RdfNotBuilt { .. } => "format.rdf_not_built",
            FormatError::Dialect { .. } | FormatError::Delimiter { .. } => "format.dialect",
            FormatError::ColumnName { .. } => "format.column_name",
            FormatError::UnsupportedType { .. } => "format.unsupported_type",
            FormatError::Limit { .. } => "format.limit_exceeded",
        }
    }

    /// What to do about it.
    pub fn hint(&self) -> Option<String> {
        match self {
            FormatError::RdfNotBuilt { .. } => Some(
                "install a build with RDF support: `pip install 'stone-cli[rdf]'` (Python) or `cargo install stone --features rdf` (from source)".into(),
            ),
            FormatError::Csv { .. } => Some(
                "fix the value, or give the column a type that fits it in the resource's `schema` (e.g. `{name: code, type: string}`)".into(),
            ),
            FormatError::MissingColumn { .. } | FormatError::SchemaMismatch { .. } => {
                Some("fix the data or the resource's `schema` in datasets.yaml; nothing was sent".into())
            }
            FormatError::ColumnName { .. } => Some(
                "give every column a name of its own in the file (a file without a header: `dialect: {header: false}` on its resource, and the names in its `schema.fields`); nothing was sent".into(),
            ),
            FormatError::Delimiter { found, read_with, .. } => Some(format!(
                "say how the file is written, on its resource in datasets.yaml: `dialect: {{delimiter: \"{}\"}}` (or `dialect: {{delimiter: \"{}\"}}` if one column is meant); nothing was sent",
                found.escape_default(),
                read_with.escape_default()
            )),
            FormatError::UnsupportedType { .. } => Some(
                "write the column as one of the types a table holds (docs/guide.md, \"Types\"); nothing was sent".into(),
            ),
            FormatError::Limit { .. } => Some(
                "stone refuses input past its parser limits (see RELIABILITY.md, \"Limits\"): split or flatten the data; nothing was sent".into(),
            ),
            _ => None,
        }
    }
}
