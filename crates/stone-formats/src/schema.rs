//! Table Schema (Frictionless) ↔ Arrow types, and the check of a Parquet file against the
//! schema a resource declares.

use std::fs::File;
use std::path::Path;

use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::{Deserialize, Serialize};
use stone_package::descriptor::{FieldType, TableSchema};

use crate::FormatError;
use crate::footer::{ParquetLimits, check_parquet_footer};

/// A column as shown to people and sent to the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnInfo {
    pub name: String,
    /// The Arrow type, e.g. `Int64`, `Utf8`, `Timestamp(µs, "+00:00")`.
    pub data_type: String,
    pub nullable: bool,
}

pub(crate) fn column_info(schema: &Schema) -> Vec<ColumnInfo> {
    schema
        .fields()
        .iter()
        .map(|f| ColumnInfo {
            name: f.name().clone(),
            data_type: f.data_type().to_string(),
            nullable: f.is_nullable(),
        })
        .collect()
}

/// The Arrow type a declared Table Schema type is written as; `None` for `any` (inferred).
pub fn arrow_type(field_type: FieldType) -> Option<DataType> {
    Some(match field_type {
        FieldType::String
        | FieldType::Object
        | FieldType::Array
        | FieldType::Yearmonth
        | FieldType::Duration
        | FieldType::Geopoint
        | FieldType::Geojson => DataType::Utf8,
        FieldType::Integer => DataType::Int64,
        FieldType::Number => DataType::Float64,
        FieldType::Boolean => DataType::Boolean,
        FieldType::Date => DataType::Date32,
        FieldType::Time => DataType::Time64(TimeUnit::Microsecond),
        FieldType::Datetime => DataType::Timestamp(TimeUnit::Microsecond, None),
        FieldType::Year => DataType::Int32,
        FieldType::Any => return None,
    })
}

/// Whether an Arrow type is an acceptable representation of a declared type.
pub fn accepts(declared: FieldType, actual: &DataType) -> bool {
    use DataType::*;
    match declared {
        FieldType::Any => true,
        FieldType::String
        | FieldType::Object
        | FieldType::Array
        | FieldType::Yearmonth
        | FieldType::Duration
        | FieldType::Geopoint
        | FieldType::Geojson => matches!(actual, Utf8 | LargeUtf8 | Utf8View),
        FieldType::Integer | FieldType::Year => {
            matches!(
                actual,
                Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32
            )
        }
        FieldType::Number => matches!(
            actual,
            Float16
                | Float32
                | Float64
                | Decimal32(..)
                | Decimal64(..)
                | Decimal128(..)
                | Decimal256(..)
                | Int8
                | Int16
                | Int32
                | Int64
        ),
        FieldType::Boolean => matches!(actual, Boolean),
        FieldType::Date => matches!(actual, Date32 | Date64),
        FieldType::Time => matches!(actual, Time32(_) | Time64(_)),
        FieldType::Datetime => matches!(actual, Timestamp(..)),
    }
}

/// Types an Iceberg table can hold, as the client writes them: timestamps in microseconds,
/// no all-null (`Null`) columns.
pub(crate) fn normalize(field: &Field) -> Field {
    let data_type = match field.data_type() {
        DataType::Timestamp(_, tz) => DataType::Timestamp(TimeUnit::Microsecond, tz.clone()),
        DataType::Null => DataType::Utf8,
        other => other.clone(),
    };
    Field::new(field.name(), data_type, true)
}

/// The columns of a Parquet file, from its footer.
pub fn parquet_columns(path: &Path) -> Result<Vec<ColumnInfo>, FormatError> {
    Ok(column_info(&*parquet_schema(path)?))
}

/// Checks every declared field is a column of the file, of an acceptable type.
pub fn check_parquet_schema(
    path: &Path,
    declared: &TableSchema,
) -> Result<Vec<ColumnInfo>, FormatError> {
    let schema = parquet_schema(path)?;
    check_schema(path, &schema, declared)?;
    Ok(column_info(&schema))
}

/// The Arrow schema of a Parquet file, its footer checked against the default
/// [`ParquetLimits`] before the parquet crate parses it.
fn parquet_schema(path: &Path) -> Result<SchemaRef, FormatError> {
    check_parquet_footer(path, &ParquetLimits::default())?;
    let file = File::open(path).map_err(|source| FormatError::Read {
        path: path.to_owned(),
        source,
    })?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| FormatError::Parquet {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
    Ok(builder.schema().clone())
}

pub(crate) fn check_schema(
    path: &Path,
    actual: &Schema,
    declared: &TableSchema,
) -> Result<(), FormatError> {
    for field in &declared.fields {
        let Ok(column) = actual.field_with_name(&field.name) else {
            return Err(FormatError::MissingColumn {
                path: path.to_owned(),
                column: field.name.clone(),
                available: actual.fields().iter().map(|f| f.name().clone()).collect(),
            });
        };
        if !accepts(field.field_type, column.data_type()) {
            return Err(FormatError::SchemaMismatch {
                path: path.to_owned(),
                column: field.name.clone(),
                expected: <&'static str>::from(field.field_type).to_owned(),
                found: column.data_type().to_string(),
            });
        }
    }
    Ok(())
}
