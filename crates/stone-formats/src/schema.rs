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

/// The columns of a Parquet file, from its footer, checked ([`check_columns`]).
pub fn parquet_columns(path: &Path) -> Result<Vec<ColumnInfo>, FormatError> {
    Ok(column_info(&*parquet_schema(path)?))
}

/// Why a column name names nothing (the package model's one rule).
pub(crate) use stone_package::package::blank_column_name as blank_name;

/// The rule for the columns of every table stone pushes (a CSV/TSV's conversion, a
/// Parquet file as it is), on the client before anything is sent and on the server before
/// a file is committed: every column and struct field has a name of its own (not empty,
/// not only whitespace, not its sibling's), and every type is one a table stores and gives
/// back through every route ([`storable`]).
pub fn check_columns(path: &Path, schema: &Schema) -> Result<(), FormatError> {
    check_names(path, schema.fields(), None)?;
    for field in schema.fields() {
        if let Err(reason) = storable(field.data_type()) {
            return Err(FormatError::UnsupportedType {
                path: path.to_owned(),
                column: field.name().clone(),
                data_type: type_name(field.data_type()),
                reason,
            });
        }
    }
    Ok(())
}

fn check_names(
    path: &Path,
    fields: &arrow_schema::Fields,
    parent: Option<&str>,
) -> Result<(), FormatError> {
    let mut seen = std::collections::HashMap::with_capacity(fields.len());
    let what = |index: usize| match parent {
        None => format!("column {}", index + 1),
        Some(parent) => format!("field {} of the struct column `{parent}`", index + 1),
    };
    for (index, field) in fields.iter().enumerate() {
        let name = field.name();
        if let Some(problem) = blank_name(name) {
            return Err(FormatError::ColumnName {
                path: path.to_owned(),
                message: format!("{} has no name: its name is {problem}", what(index)),
            });
        }
        if let Some(earlier) = seen.insert(name.as_str(), index) {
            return Err(FormatError::ColumnName {
                path: path.to_owned(),
                message: format!(
                    "{} repeats the name `{}` of {}: every column needs a name of its own",
                    what(index),
                    name.escape_debug(),
                    what(earlier)
                ),
            });
        }
        let path_name = match parent {
            None => name.clone(),
            Some(parent) => format!("{parent}.{name}"),
        };
        for inner in struct_fields(field.data_type()) {
            check_names(path, inner, Some(&path_name))?;
        }
    }
    Ok(())
}

/// The struct fields directly under a type (through lists and maps).
fn struct_fields(data_type: &DataType) -> Vec<&arrow_schema::Fields> {
    match data_type {
        DataType::Struct(fields) => vec![fields],
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::FixedSizeList(item, _)
        | DataType::ListView(item)
        | DataType::LargeListView(item) => struct_fields(item.data_type()),
        DataType::Map(entries, _) => match entries.data_type() {
            DataType::Struct(kv) => kv
                .iter()
                .flat_map(|f| struct_fields(f.data_type()))
                .collect(),
            _ => Vec::new(),
        },
        DataType::Dictionary(_, value) => struct_fields(value),
        _ => Vec::new(),
    }
}

/// Whether a table holds `data_type` and gives it back through every route (the Parquet,
/// CSV and TSV answers, the Iceberg catalog): `Err` says why not and what to write
/// instead. The types are those Iceberg (format version 2) holds as they are: they are
/// kept, never converted on the way in.
pub fn storable(data_type: &DataType) -> Result<(), String> {
    use DataType::*;
    match data_type {
        Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | Float32 | Float64 => {
            Ok(())
        }
        Utf8 | LargeUtf8 | Utf8View | Binary | LargeBinary | BinaryView | FixedSizeBinary(_) => {
            Ok(())
        }
        Date32 => Ok(()),
        Time64(TimeUnit::Microsecond) => Ok(()),
        Timestamp(TimeUnit::Microsecond, None) => Ok(()),
        Timestamp(TimeUnit::Microsecond, Some(zone)) if is_utc(zone) => Ok(()),
        Decimal128(precision, scale) if (1..=38).contains(precision) && (0..=*precision as i8).contains(scale) => Ok(()),
        FixedSizeList(item, _) if matches!(item.data_type(), Struct(_)) => Err(format!(
            "{}: pyiceberg (0.12) cannot read a fixed-size list of structs (it fails on the \
             whole table): write list<struct<…>> instead",
            type_name(data_type)
        )),
        List(item) | LargeList(item) | FixedSizeList(item, _) => storable(item.data_type()),
        Struct(fields) if fields.is_empty() => {
            Err("a struct without fields holds nothing a table can keep".into())
        }
        Struct(fields) => fields.iter().try_for_each(|f| storable(f.data_type())),
        Map(entries, _) => match entries.data_type() {
            Struct(kv) if kv.len() == 2 => kv.iter().try_for_each(|f| storable(f.data_type())),
            _ => Err("a map without a key and a value".into()),
        },
        Dictionary(_, value) => storable(value),
        UInt64 => Err(format!(
            "{} has no type of Iceberg's that holds all its values: write int64 (values up to 9223372036854775807) or decimal128(20, 0)",
            type_name(data_type)
        )),
        Float16 => Err("float16 has no Iceberg type: write float32 (every float16 value is one)".into()),
        Decimal32(..) | Decimal64(..) | Decimal128(..) | Decimal256(..) => Err(format!(
            "{}: Iceberg holds decimals of precision 1 to 38 and a scale from 0 to the precision, as decimal128: write decimal128(p, s) within those",
            type_name(data_type)
        )),
        Date64 => Err("date64 has no Iceberg type: write date32 (pyarrow: `table.cast(...)` to `pa.date32()`)".into()),
        Time32(_) | Time64(_) => Err(format!(
            "{}: Iceberg's time is in microseconds: write time64[us]",
            type_name(data_type)
        )),
        Timestamp(TimeUnit::Microsecond, Some(_)) => Err(format!(
            "{}: Iceberg keeps instants in UTC only: convert the column to UTC (timestamp[us, tz=UTC])",
            type_name(data_type)
        )),
        Timestamp(..) => Err(format!(
            "{}: Iceberg's timestamps are in microseconds: write timestamp[us] (pyarrow: `pq.write_table(table, path, coerce_timestamps=\"us\")`, with `allow_truncated_timestamps=True` for nanoseconds)",
            type_name(data_type)
        )),
        Null => Err("a column of type null (every value null, no type) has no Iceberg type: give the column a type".into()),
        other => Err(format!(
            "{} has no Iceberg type: write it as a type a table holds (see the types table of docs/guide.md)",
            type_name(other)
        )),
    }
}

fn is_utc(zone: &str) -> bool {
    matches!(zone, "UTC" | "+00:00")
}

/// A type as pyarrow names it (`int64`, `list<float>`, `timestamp[ns, tz=UTC]`): what
/// the people who write Parquet files read.
pub fn type_name(data_type: &DataType) -> String {
    use DataType::*;
    let unit = |u: &TimeUnit| match u {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    };
    match data_type {
        Null => "null".into(),
        Boolean => "bool".into(),
        Int8 => "int8".into(),
        Int16 => "int16".into(),
        Int32 => "int32".into(),
        Int64 => "int64".into(),
        UInt8 => "uint8".into(),
        UInt16 => "uint16".into(),
        UInt32 => "uint32".into(),
        UInt64 => "uint64".into(),
        Float16 => "float16".into(),
        Float32 => "float".into(),
        Float64 => "double".into(),
        Utf8 => "string".into(),
        LargeUtf8 => "large_string".into(),
        Utf8View => "string_view".into(),
        Binary => "binary".into(),
        LargeBinary => "large_binary".into(),
        BinaryView => "binary_view".into(),
        FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        Date32 => "date32".into(),
        Date64 => "date64".into(),
        Time32(u) => format!("time32[{}]", unit(u)),
        Time64(u) => format!("time64[{}]", unit(u)),
        Timestamp(u, None) => format!("timestamp[{}]", unit(u)),
        Timestamp(u, Some(zone)) => format!("timestamp[{}, tz={zone}]", unit(u)),
        Decimal32(p, s) => format!("decimal32({p}, {s})"),
        Decimal64(p, s) => format!("decimal64({p}, {s})"),
        Decimal128(p, s) => format!("decimal128({p}, {s})"),
        Decimal256(p, s) => format!("decimal256({p}, {s})"),
        List(item) => format!("list<{}>", type_name(item.data_type())),
        LargeList(item) => format!("large_list<{}>", type_name(item.data_type())),
        FixedSizeList(item, n) => format!("fixed_size_list<{}>[{n}]", type_name(item.data_type())),
        Struct(fields) => format!(
            "struct<{}>",
            fields
                .iter()
                .map(|f| format!("{}: {}", f.name(), type_name(f.data_type())))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Map(entries, _) => match entries.data_type() {
            Struct(kv) if kv.len() == 2 => format!(
                "map<{}, {}>",
                type_name(kv[0].data_type()),
                type_name(kv[1].data_type())
            ),
            other => format!("map<{}>", type_name(other)),
        },
        Dictionary(key, value) => format!(
            "dictionary<values={}, indices={}>",
            type_name(value),
            type_name(key)
        ),
        Duration(u) => format!("duration[{}]", unit(u)),
        Interval(_) => "month_day_nano_interval".into(),
        other => other.to_string(),
    }
}

/// Checks the file's columns ([`check_columns`]) and that every declared field is a column
/// of the file, of an acceptable type.
pub fn check_parquet_schema(
    path: &Path,
    declared: &TableSchema,
) -> Result<Vec<ColumnInfo>, FormatError> {
    let schema = parquet_schema(path)?;
    check_schema(path, &schema, declared)?;
    Ok(column_info(&schema))
}

/// The Arrow schema of a Parquet file, its footer checked against the default
/// [`ParquetLimits`] before the parquet crate parses it, its columns by [`check_columns`].
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
    let schema = builder.schema().clone();
    check_columns(path, &schema)?;
    Ok(schema)
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
