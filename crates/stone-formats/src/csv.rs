//! CSV/TSV → Parquet (zstd), streaming: one thread parses CSV batches while another encodes
//! and compresses Parquet, with a bounded queue between them, so memory stays bounded
//! whatever the file size.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;

use arrow_array::RecordBatch;
use arrow_csv::reader::Format as CsvFormat;
use arrow_schema::{Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use serde::Serialize;
use stone_package::descriptor::TableSchema;
use stone_package::{Dialect, Format};

use crate::FormatError;
use crate::schema::{ColumnInfo, arrow_type, check_schema, column_info, normalize};

/// Records read to infer column types not declared in the schema.
pub const INFER_RECORDS: usize = 100_000;
const BATCH_ROWS: usize = 64 * 1024;
const ROW_GROUP_ROWS: usize = 1024 * 1024;
/// A row group is closed early when its encoded pages reach this size.
const ROW_GROUP_BYTES: usize = 64 << 20;
const IO_BUFFER: usize = 1 << 20;

/// How to read a CSV or TSV file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvOptions {
    pub delimiter: u8,
    pub quote: Option<u8>,
    pub escape: Option<u8>,
    pub comment: Option<u8>,
    pub header: bool,
    pub null_sequence: Option<String>,
}

impl CsvOptions {
    /// Options for `format` (CSV: `,`; TSV: tab), overridden by the resource's dialect.
    pub fn new(
        path: &Path,
        format: Format,
        dialect: Option<&Dialect>,
    ) -> Result<CsvOptions, FormatError> {
        let ascii = |c: char, what: &str| -> Result<u8, FormatError> {
            u8::try_from(c)
                .ok()
                .filter(u8::is_ascii)
                .ok_or_else(|| FormatError::Dialect {
                    path: path.to_owned(),
                    message: format!("the {what} `{c}` is not an ASCII character"),
                })
        };
        let mut options = CsvOptions {
            delimiter: if format == Format::Tsv { b'\t' } else { b',' },
            quote: Some(b'"'),
            escape: None,
            comment: None,
            header: true,
            null_sequence: None,
        };
        if let Some(d) = dialect {
            if let Some(c) = d.delimiter {
                options.delimiter = ascii(c, "delimiter")?;
            }
            if let Some(c) = d.quote_char {
                options.quote = Some(ascii(c, "quote character")?);
            }
            if let Some(c) = d.escape_char {
                options.escape = Some(ascii(c, "escape character")?);
            }
            if let Some(c) = d.comment_char {
                options.comment = Some(ascii(c, "comment character")?);
            }
            if let Some(h) = d.header {
                options.header = h;
            }
            options.null_sequence = d.null_sequence.clone();
        }
        Ok(options)
    }

    fn csv_format(&self, path: &Path) -> Result<CsvFormat, FormatError> {
        let mut f = CsvFormat::default()
            .with_header(self.header)
            .with_delimiter(self.delimiter);
        if let Some(q) = self.quote {
            f = f.with_quote(q);
        }
        if let Some(e) = self.escape {
            f = f.with_escape(e);
        }
        if let Some(c) = self.comment {
            f = f.with_comment(c);
        }
        if let Some(null) = &self.null_sequence {
            let pattern = format!("^{}$", regex::escape(null));
            let regex = regex::Regex::new(&pattern).map_err(|e| FormatError::Dialect {
                path: path.to_owned(),
                message: format!("nullSequence: {e}"),
            })?;
            f = f.with_null_regex(regex);
        }
        Ok(f)
    }
}

/// What a conversion did.
#[derive(Debug, Clone, Serialize)]
pub struct Conversion {
    pub rows: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub columns: Vec<ColumnInfo>,
}

/// Converts the CSV/TSV at `src` to Parquet at `dst` (written to a temporary file and
/// renamed: never half a file at `dst`). Declared columns take their declared types; the
/// others are inferred from the first [`INFER_RECORDS`] records. `progress` gets the bytes
/// of input read as they are read.
pub fn csv_to_parquet(
    src: &Path,
    dst: &Path,
    options: &CsvOptions,
    declared: Option<&TableSchema>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Conversion, FormatError> {
    let format = options.csv_format(src)?;
    let schema = Arc::new(table_schema(src, &format, options, declared)?);
    let tmp = temp_path(dst);
    let result = convert(src, &tmp, &format, options.header, schema.clone(), progress);
    match result {
        Ok((rows, bytes_read)) => {
            fs::rename(&tmp, dst).map_err(|source| FormatError::Write {
                path: dst.to_owned(),
                source,
            })?;
            let bytes_written = fs::metadata(dst).map(|m| m.len()).unwrap_or(0);
            Ok(Conversion {
                rows,
                bytes_read,
                bytes_written,
                columns: column_info(&schema),
            })
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn temp_path(dst: &Path) -> PathBuf {
    let name = dst
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dst.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The Arrow schema of the output: declared types where declared, inferred elsewhere.
fn table_schema(
    src: &Path,
    format: &CsvFormat,
    options: &CsvOptions,
    declared: Option<&TableSchema>,
) -> Result<Schema, FormatError> {
    let file = File::open(src).map_err(|source| FormatError::Read {
        path: src.to_owned(),
        source,
    })?;
    let (inferred, _) = format
        .infer_schema(
            BufReader::with_capacity(IO_BUFFER, file),
            Some(INFER_RECORDS),
        )
        .map_err(|e| FormatError::Csv {
            path: src.to_owned(),
            message: tidy(&e.to_string()),
        })?;
    let mut fields: Vec<Field> = inferred.fields().iter().map(|f| normalize(f)).collect();
    if let Some(declared) = declared {
        if !options.header {
            // No header: declared fields name the columns in order.
            for (field, d) in fields.iter_mut().zip(&declared.fields) {
                *field = Field::new(&d.name, field.data_type().clone(), true);
            }
        }
        for d in &declared.fields {
            let Some(field) = fields.iter_mut().find(|f| f.name() == &d.name) else {
                return Err(FormatError::MissingColumn {
                    path: src.to_owned(),
                    column: d.name.clone(),
                    available: fields.iter().map(|f| f.name().clone()).collect(),
                });
            };
            if let Some(t) = arrow_type(d.field_type) {
                *field = Field::new(&d.name, t, true);
            }
        }
        let schema = Schema::new(fields.clone());
        check_schema(src, &schema, declared)?;
    }
    Ok(Schema::new(fields))
}

fn convert(
    src: &Path,
    tmp: &Path,
    format: &CsvFormat,
    header: bool,
    schema: SchemaRef,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(u64, u64), FormatError> {
    let input = File::open(src).map_err(|source| FormatError::Read {
        path: src.to_owned(),
        source,
    })?;
    let counting = Counting {
        inner: input,
        read: 0,
        progress,
    };
    let reader = arrow_csv::ReaderBuilder::new(schema.clone())
        .with_format(format.clone())
        .with_batch_size(BATCH_ROWS)
        .build_buffered(BufReader::with_capacity(IO_BUFFER, counting))
        .map_err(|e| FormatError::Csv {
            path: src.to_owned(),
            message: tidy(&e.to_string()),
        })?;

    let out = File::create(tmp).map_err(|source| FormatError::Write {
        path: tmp.to_owned(),
        source,
    })?;
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(1).expect("level 1 is valid"),
        ))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("stone {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(IO_BUFFER, out),
        schema.clone(),
        Some(props),
    )
    .map_err(|e| FormatError::Parquet {
        path: tmp.to_owned(),
        message: e.to_string(),
    })?;

    let schema_for_errors = schema.clone();
    let (sender, receiver) = sync_channel::<Result<RecordBatch, String>>(2);
    let mut rows = 0u64;
    let write_result = std::thread::scope(|scope| {
        scope.spawn(move || {
            for batch in reader {
                let failed = batch.is_err();
                if sender
                    .send(batch.map_err(|e| tidy(&e.to_string())))
                    .is_err()
                    || failed
                {
                    return;
                }
            }
        });
        for batch in receiver {
            let batch = batch.map_err(|message| FormatError::Csv {
                path: src.to_owned(),
                message: locate(&message, &schema_for_errors, header),
            })?;
            rows += batch.num_rows() as u64;
            writer.write(&batch).map_err(|e| FormatError::Parquet {
                path: tmp.to_owned(),
                message: e.to_string(),
            })?;
            if writer.in_progress_size() > ROW_GROUP_BYTES {
                writer.flush().map_err(|e| FormatError::Parquet {
                    path: tmp.to_owned(),
                    message: e.to_string(),
                })?;
            }
        }
        Ok::<(), FormatError>(())
    });
    write_result?;
    let out = writer.into_inner().map_err(|e| FormatError::Parquet {
        path: tmp.to_owned(),
        message: e.to_string(),
    })?;
    let file = out.into_inner().map_err(|e| FormatError::Write {
        path: tmp.to_owned(),
        source: e.into_error(),
    })?;
    file.sync_all().map_err(|source| FormatError::Write {
        path: tmp.to_owned(),
        source,
    })?;
    let read = fs::metadata(src).map(|m| m.len()).unwrap_or(0);
    Ok((rows, read))
}

/// arrow-csv counts data rows from 0 and columns by index: say the file line and the name.
fn locate(message: &str, schema: &Schema, header: bool) -> String {
    let Some(at) = message.find(" for column ") else {
        return message.to_owned();
    };
    let rest = &message[at + " for column ".len()..];
    let mut words = rest.split_whitespace();
    let (Some(column), Some("at"), Some("line"), Some(line)) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return message.to_owned();
    };
    let (Ok(column), Ok(line)) = (
        column.parse::<usize>(),
        line.trim_end_matches(['.', ',']).parse::<u64>(),
    ) else {
        return message.to_owned();
    };
    let name = schema
        .fields()
        .get(column)
        .map(|f| f.name().as_str())
        .unwrap_or("?");
    format!(
        "line {}: {} in column `{name}`",
        line + u64::from(header),
        &message[..at]
    )
}

/// Arrow's messages carry whole rows; keep them short.
fn tidy(message: &str) -> String {
    let message = message.strip_prefix("Parser error: ").unwrap_or(message);
    let message = message.split(". Row data:").next().unwrap_or(message);
    let mut out: String = message.chars().take(300).collect();
    if out.len() < message.len() {
        out.push('…');
    }
    out
}

/// A reader that reports how much was read.
struct Counting<'a, R> {
    inner: R,
    read: u64,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        (self.progress)(n as u64);
        Ok(n)
    }
}
