//! Staged Parquet files: checksum, footer, schema, and the Iceberg `DataFile` built from
//! the footer (iceberg-rust's own `parquet_files_to_data_files` is crate-private).

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ::iceberg::spec::{
    DataContentType, DataFile, DataFileBuilder, DataFileFormat, Datum, NestedFieldRef,
    PrimitiveType, Schema, Struct, Type,
};
use parquet::basic::{ConvertedType, LogicalType};
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use parquet::file::statistics::Statistics;
use parquet::schema::types::Type as ParquetType;
use sha2::{Digest, Sha256};
use stone_formats::{FormatError, ParquetLimits};

use super::error::IcebergError;
use super::schema;

/// A staged Parquet file whose checksum and footer have been checked.
#[derive(Debug)]
pub(crate) struct PreparedFile {
    pub source: PathBuf,
    /// Lower-case hex.
    pub sha256: String,
    pub size: u64,
    pub metadata: Arc<ParquetMetaData>,
    /// The file's columns as Iceberg fields (placeholder ids).
    pub fields: Vec<NestedFieldRef>,
}

impl PreparedFile {
    pub(crate) fn record_count(&self) -> u64 {
        u64::try_from(self.metadata.file_metadata().num_rows()).unwrap_or(0)
    }
}

/// Hashes the file, checks the hash, checks the footer against `limits`, reads it and
/// converts its schema. Blocking.
pub(crate) fn prepare(
    path: &Path,
    expected_sha256: &str,
    limits: &ParquetLimits,
) -> Result<PreparedFile, IcebergError> {
    let read_error = |source| IcebergError::ReadStagedFile {
        path: path.to_owned(),
        source,
    };
    let actual = sha256_of(path).map_err(read_error)?;
    if !actual.eq_ignore_ascii_case(expected_sha256) {
        return Err(IcebergError::ChecksumMismatch {
            path: path.to_owned(),
            expected: expected_sha256.to_owned(),
            actual,
        });
    }
    // The footer's bounds before the parquet crate parses it: a schema nested too deep
    // would overflow the stack there and take the server down.
    match stone_formats::check_parquet_footer(path, limits) {
        Ok(_) => {}
        Err(FormatError::Limit { message, .. }) => {
            return Err(IcebergError::ParquetLimit {
                path: path.to_owned(),
                message,
            });
        }
        Err(FormatError::Read { source, .. }) => return Err(read_error(source)),
        Err(other) => {
            return Err(IcebergError::InvalidParquet {
                path: path.to_owned(),
                source: parquet::errors::ParquetError::General(other.to_string()),
            });
        }
    }
    let file = File::open(path).map_err(read_error)?;
    let size = file.metadata().map_err(read_error)?.len();
    let metadata = ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(|source| IcebergError::InvalidParquet {
            path: path.to_owned(),
            source,
        })?;
    let file_metadata = metadata.file_metadata();
    if let Some(column) = first_field_with_id(file_metadata.schema_descr().root_schema(), &[]) {
        return Err(IcebergError::FileHasFieldIds {
            path: path.to_owned(),
            column,
        });
    }
    let arrow = parquet::arrow::parquet_to_arrow_schema(
        file_metadata.schema_descr(),
        file_metadata.key_value_metadata(),
    )
    .map_err(|source| IcebergError::InvalidParquet {
        path: path.to_owned(),
        source,
    })?;
    stone_formats::check_columns(path, &arrow).map_err(|source| match source {
        FormatError::UnsupportedType {
            column,
            data_type,
            reason,
            ..
        } => IcebergError::UnsupportedColumnType {
            path: path.to_owned(),
            column,
            data_type,
            reason,
        },
        source => IcebergError::InvalidColumns {
            path: path.to_owned(),
            source: Box::new(source),
        },
    })?;
    let fields = schema::arrow_to_iceberg(&arrow, path)?;
    Ok(PreparedFile {
        source: path.to_owned(),
        sha256: actual,
        size,
        metadata: Arc::new(metadata),
        fields,
    })
}

/// sha256 of a file's content, lower-case hex.
pub(crate) fn sha256_of(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hex::encode(hasher.finalize()))
}

fn first_field_with_id(group: &ParquetType, prefix: &[&str]) -> Option<String> {
    for field in group.get_fields() {
        let mut path = prefix.to_vec();
        path.push(field.name());
        if field.get_basic_info().has_id() {
            return Some(path.join("."));
        }
        if field.is_group()
            && let Some(found) = first_field_with_id(field, &path)
        {
            return Some(found);
        }
    }
    None
}

/// Builds the Iceberg `DataFile` for a file stored at `location`, with column metrics
/// from the footer mapped to the field ids of `schema` (the schema the file is read with).
///
/// Metrics: record count, file size, per column compressed size, value count, null
/// count, and lower/upper bounds where the footer has exact min/max statistics. Columns
/// inside lists and maps get no metrics (their Parquet paths do not match Iceberg names);
/// NaN counts are not in a Parquet footer and are left out.
pub(crate) fn data_file(
    file: &PreparedFile,
    location: String,
    schema: &Schema,
    partition_spec_id: i32,
) -> Result<DataFile, ::iceberg::Error> {
    let columns = primitive_columns(schema);
    let mut column_sizes: HashMap<i32, u64> = HashMap::new();
    let mut value_counts: HashMap<i32, u64> = HashMap::new();
    let mut null_counts: HashMap<i32, Option<u64>> = HashMap::new();
    let mut lower_bounds: HashMap<i32, Datum> = HashMap::new();
    let mut upper_bounds: HashMap<i32, Datum> = HashMap::new();
    let mut bounds_known: HashMap<i32, bool> = HashMap::new();

    for row_group in file.metadata.row_groups() {
        for chunk in row_group.columns() {
            let descriptor = chunk.column_descr();
            let Some((id, primitive)) = columns.get(descriptor.path().parts()) else {
                continue;
            };
            *column_sizes.entry(*id).or_default() +=
                u64::try_from(chunk.compressed_size()).unwrap_or(0);
            *value_counts.entry(*id).or_default() += u64::try_from(chunk.num_values()).unwrap_or(0);
            let statistics = chunk.statistics();
            let nulls = null_counts.entry(*id).or_insert(Some(0));
            *nulls = match (*nulls, statistics.and_then(Statistics::null_count_opt)) {
                (Some(total), Some(count)) => Some(total + count),
                _ => None,
            };

            let unsigned = matches!(
                descriptor.logical_type_ref(),
                Some(LogicalType::Integer {
                    is_signed: false,
                    ..
                })
            ) || matches!(
                descriptor.converted_type(),
                ConvertedType::UINT_8
                    | ConvertedType::UINT_16
                    | ConvertedType::UINT_32
                    | ConvertedType::UINT_64
            );
            let min = statistics
                .filter(|s| s.min_is_exact() && !unsigned)
                .and_then(|s| bound(s, primitive, true));
            let max = statistics
                .filter(|s| s.max_is_exact() && !unsigned)
                .and_then(|s| bound(s, primitive, false));
            let known = bounds_known.entry(*id).or_insert(true);
            match (min, max) {
                (Some(min), Some(max)) if *known => {
                    lower_bounds
                        .entry(*id)
                        .and_modify(|current| {
                            if min < *current {
                                *current = min.clone();
                            }
                        })
                        .or_insert(min);
                    upper_bounds
                        .entry(*id)
                        .and_modify(|current| {
                            if max > *current {
                                *current = max.clone();
                            }
                        })
                        .or_insert(max);
                }
                // A row group without (exact) bounds: the file-wide bounds are unknown,
                // unless the row group holds only nulls.
                _ => {
                    let all_null =
                        statistics
                            .and_then(Statistics::null_count_opt)
                            .is_some_and(|nulls| {
                                nulls == u64::try_from(row_group.num_rows()).unwrap_or(u64::MAX)
                            });
                    if !all_null {
                        *known = false;
                        lower_bounds.remove(id);
                        upper_bounds.remove(id);
                    }
                }
            }
        }
    }

    DataFileBuilder::default()
        .content(DataContentType::Data)
        .file_path(location)
        .file_format(DataFileFormat::Parquet)
        .partition(Struct::empty())
        .partition_spec_id(partition_spec_id)
        .record_count(file.record_count())
        .file_size_in_bytes(file.size)
        .column_sizes(column_sizes)
        .value_counts(value_counts)
        .null_value_counts(
            null_counts
                .into_iter()
                .filter_map(|(id, count)| count.map(|count| (id, count)))
                .collect(),
        )
        .lower_bounds(lower_bounds)
        .upper_bounds(upper_bounds)
        .split_offsets(Some(
            file.metadata
                .row_groups()
                .iter()
                .filter_map(|group| group.file_offset())
                .collect(),
        ))
        .build()
        .map_err(|error| {
            ::iceberg::Error::new(::iceberg::ErrorKind::Unexpected, "cannot build data file")
                .with_source(error)
        })
}

/// Parquet column path → (field id, type) for every primitive column reachable through
/// structs only.
fn primitive_columns(schema: &Schema) -> HashMap<Vec<String>, (i32, PrimitiveType)> {
    fn walk(
        prefix: &[String],
        fields: &[NestedFieldRef],
        out: &mut HashMap<Vec<String>, (i32, PrimitiveType)>,
    ) {
        for field in fields {
            let mut path = prefix.to_vec();
            path.push(field.name.clone());
            match field.field_type.as_ref() {
                Type::Primitive(primitive) => {
                    out.insert(path, (field.id, primitive.clone()));
                }
                Type::Struct(nested) => walk(&path, nested.fields(), out),
                Type::List(_) | Type::Map(_) => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(&[], schema.as_struct().fields(), &mut out);
    out
}

/// A min or max statistic as an Iceberg bound of type `primitive`, through Iceberg's
/// single-value binary serialization. `None` where the pair of Parquet physical type and
/// Iceberg type is not one we know to agree on ordering.
fn bound(statistics: &Statistics, primitive: &PrimitiveType, min: bool) -> Option<Datum> {
    use PrimitiveType as P;
    let bytes: Vec<u8> = match (primitive, statistics) {
        (P::Boolean, Statistics::Boolean(s)) => {
            vec![u8::from(*pick(s.min_opt(), s.max_opt(), min)?)]
        }
        (P::Int | P::Date, Statistics::Int32(s)) => {
            pick(s.min_opt(), s.max_opt(), min)?.to_le_bytes().to_vec()
        }
        (P::Long, Statistics::Int32(s)) => i64::from(*pick(s.min_opt(), s.max_opt(), min)?)
            .to_le_bytes()
            .to_vec(),
        (
            P::Long | P::Time | P::Timestamp | P::Timestamptz | P::TimestampNs | P::TimestamptzNs,
            Statistics::Int64(s),
        ) => pick(s.min_opt(), s.max_opt(), min)?.to_le_bytes().to_vec(),
        (P::Float, Statistics::Float(s)) => {
            let value = *pick(s.min_opt(), s.max_opt(), min)?;
            if value.is_nan() {
                return None;
            }
            value.to_le_bytes().to_vec()
        }
        (P::Double, Statistics::Float(s)) => {
            let value = f64::from(*pick(s.min_opt(), s.max_opt(), min)?);
            if value.is_nan() {
                return None;
            }
            value.to_le_bytes().to_vec()
        }
        (P::Double, Statistics::Double(s)) => {
            let value = *pick(s.min_opt(), s.max_opt(), min)?;
            if value.is_nan() {
                return None;
            }
            value.to_le_bytes().to_vec()
        }
        (P::String, Statistics::ByteArray(s)) => {
            let value = pick(s.min_opt(), s.max_opt(), min)?;
            std::str::from_utf8(value.data()).ok()?;
            value.data().to_vec()
        }
        (P::Binary, Statistics::ByteArray(s)) => {
            pick(s.min_opt(), s.max_opt(), min)?.data().to_vec()
        }
        (P::Fixed(length), Statistics::FixedLenByteArray(s)) => {
            let value = pick(s.min_opt(), s.max_opt(), min)?.data().to_vec();
            if u64::try_from(value.len()).ok()? != *length {
                return None;
            }
            value
        }
        (P::Uuid, Statistics::FixedLenByteArray(s)) => {
            let value = pick(s.min_opt(), s.max_opt(), min)?.data().to_vec();
            if value.len() != 16 {
                return None;
            }
            value
        }
        (P::Decimal { .. }, Statistics::Int32(s)) => {
            i128::from(*pick(s.min_opt(), s.max_opt(), min)?)
                .to_be_bytes()
                .to_vec()
        }
        (P::Decimal { .. }, Statistics::Int64(s)) => {
            i128::from(*pick(s.min_opt(), s.max_opt(), min)?)
                .to_be_bytes()
                .to_vec()
        }
        (P::Decimal { .. }, Statistics::FixedLenByteArray(s)) => {
            let value = pick(s.min_opt(), s.max_opt(), min)?.data().to_vec();
            if value.is_empty() || value.len() > 16 {
                return None;
            }
            value
        }
        (P::Decimal { .. }, Statistics::ByteArray(s)) => {
            let value = pick(s.min_opt(), s.max_opt(), min)?.data().to_vec();
            if value.is_empty() || value.len() > 16 {
                return None;
            }
            value
        }
        _ => return None,
    };
    Datum::try_from_bytes(&bytes, primitive.clone()).ok()
}

fn pick<'a, T>(minimum: Option<&'a T>, maximum: Option<&'a T>, min: bool) -> Option<&'a T> {
    if min { minimum } else { maximum }
}
