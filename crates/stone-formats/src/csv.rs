//! CSV/TSV → Parquet (zstd), streaming on every core: the file is cut into chunks at record
//! ends, workers decode and encode whole chunks as row groups, and the row groups are written
//! in order ([`pipeline`]). Memory stays bounded whatever the file size, and the same input
//! gives the same bytes on every run.

mod head;
mod locate;
mod pipeline;
mod split;

pub use head::{SNIFF_RECORDS, check_head};
pub use pipeline::{CHUNK_BYTES, Tuning};

use split::Splitter;

use std::fs::{self, File};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_csv::reader::Format as CsvFormat;
use arrow_schema::{Field, Schema};
use serde::Serialize;
use stone_package::descriptor::TableSchema;
use stone_package::{Dialect, Format};

use crate::FormatError;
use crate::schema::{ColumnInfo, arrow_type, check_schema, column_info, normalize};

/// Records read to infer column types not declared in the schema.
pub const INFER_RECORDS: usize = 100_000;
const IO_BUFFER: usize = 1 << 20;

/// How to read a CSV or TSV file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvOptions {
    pub delimiter: u8,
    /// Whether the dialect names the delimiter: when it does not, a file whose lines all
    /// split on another one is refused ([`check_head`]).
    pub delimiter_declared: bool,
    pub quote: Option<u8>,
    pub escape: Option<u8>,
    pub comment: Option<u8>,
    pub header: bool,
    pub null_sequence: Option<String>,
    /// The longest record read, in bytes (default [`MAX_RECORD_BYTES`]): a longer one is
    /// refused, naming its line, before it is held in memory.
    pub max_record_bytes: usize,
}

/// The longest CSV record read by default: 64 MiB.
pub const MAX_RECORD_BYTES: usize = 64 << 20;

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
            delimiter_declared: false,
            quote: Some(b'"'),
            escape: None,
            comment: None,
            header: true,
            null_sequence: None,
            max_record_bytes: MAX_RECORD_BYTES,
        };
        if let Some(d) = dialect {
            if let Some(c) = d.delimiter {
                options.delimiter = ascii(c, "delimiter")?;
                options.delimiter_declared = true;
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
    csv_to_parquet_tuned(src, dst, options, declared, progress, Tuning::default())
}

/// [`csv_to_parquet`] with a given number of workers and chunk size, for benchmarks and
/// tests. The chunk size shapes the file (one row group per chunk); the number of workers
/// does not: any number gives the same bytes.
pub fn csv_to_parquet_tuned(
    src: &Path,
    dst: &Path,
    options: &CsvOptions,
    declared: Option<&TableSchema>,
    progress: &(dyn Fn(u64) + Sync),
    tuning: Tuning,
) -> Result<Conversion, FormatError> {
    let format = options.csv_format(src)?;
    // Inference and sampling read these records with arrow-csv, which holds a record
    // whole and ends an unclosed quote with the file: bound them first.
    check_records(src, options, INFER_RECORDS + 1, &mut |_, _| None)?;
    check_head(src, options)?;
    let schema = Arc::new(table_schema(src, &format, options, declared)?);
    let tmp = temp_path(dst);
    let result = pipeline::convert(
        src,
        &tmp,
        &format,
        options,
        schema.clone(),
        progress,
        tuning,
    );
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

/// Reads the first `records` records of `src` one at a time, in memory bounded by
/// `options.max_record_bytes`: refuses a longer record, a file that ends inside a quoted
/// field, and the first record `check` finds a fault in (`check` gets each record's bytes
/// and its offset in the file).
fn check_records(
    src: &Path,
    options: &CsvOptions,
    records: usize,
    check: &mut dyn FnMut(&[u8], u64) -> Option<locate::Fault>,
) -> Result<(), FormatError> {
    let mut input = File::open(src).map_err(|source| FormatError::Read {
        path: src.to_owned(),
        source,
    })?;
    let mut splitter = Splitter::new(
        options.delimiter,
        options.quote,
        options.escape,
        options.comment,
    );
    let max = options.max_record_bytes.max(1);
    let (mut buf, mut start, mut eof) = (Vec::new(), 0usize, false);
    // Bytes of the file before `buf`.
    let mut consumed = 0u64;
    let mut found = 0;
    while found < records {
        match splitter.find(&buf[start..], 0, eof) {
            Some(end) => {
                if end > max {
                    return Err(record_too_long(src, consumed + start as u64, max));
                }
                let at = consumed + start as u64;
                if let Some(fault) = check(&buf[start..start + end], at) {
                    return Err(csv_fault(src, at + fault.offset as u64, &fault.message));
                }
                if eof && start + end == buf.len() {
                    if let Some(at) = splitter.unclosed() {
                        return Err(unclosed_quote(src, consumed + (start + at) as u64));
                    }
                    return Ok(());
                }
                start += end;
                found += 1;
                splitter.reset();
            }
            None => {
                if buf.len() - start > max {
                    return Err(record_too_long(src, consumed + start as u64, max));
                }
                // The record in progress moves to the front; the splitter's state is
                // relative to it and stays valid.
                buf.drain(..start);
                consumed += start as u64;
                start = 0;
                let want = READ_STEP.min(max + 1 - buf.len().min(max)).max(1) as u64;
                let n = (&mut input)
                    .take(want)
                    .read_to_end(&mut buf)
                    .map_err(|source| FormatError::Read {
                        path: src.to_owned(),
                        source,
                    })?;
                eof = (n as u64) < want;
            }
        }
    }
    Ok(())
}

const READ_STEP: usize = 256 << 10;

/// The error for a record longer than `max` bytes that starts at byte `offset` of `src`.
pub(crate) fn record_too_long(src: &Path, offset: u64, max: usize) -> FormatError {
    let (line, column) = position(src, offset);
    FormatError::Limit {
        path: src.to_owned(),
        message: format!(
            "line {line}, column {column}: the record starting here is longer than {max} bytes, \
             stone's limit for one record (a quote that is never closed makes the rest of the \
             file one record)"
        ),
    }
}

/// The error for a fault of a CSV file at byte `offset` of `src`.
fn csv_fault(src: &Path, offset: u64, message: &str) -> FormatError {
    let (line, column) = position(src, offset);
    FormatError::Csv {
        path: src.to_owned(),
        message: format!("line {line}, column {column}: {message}"),
    }
}

/// Where arrow-csv's schema inference failed: the first of the records it reads whose shape
/// it refuses (a field count other than the first record's, a field not UTF-8). `None` if
/// none is found.
fn inference_fault(src: &Path, options: &CsvOptions) -> Option<FormatError> {
    let mut expected = None;
    let found = check_records(src, options, INFER_RECORDS + 1, &mut |record, _| {
        let record = locate::Records::new(record, options).next()?;
        let expected = *expected.get_or_insert(record.fields.len());
        locate::shape_fault(&record, expected, None)
    });
    found.err()
}

/// The error for a quoted field opened at byte `offset` of `src` and never closed.
pub(crate) fn unclosed_quote(src: &Path, offset: u64) -> FormatError {
    let (line, column) = position(src, offset);
    FormatError::Csv {
        path: src.to_owned(),
        message: format!(
            "line {line}, column {column}: a quoted field opens here and is never closed \
             (the file ends inside it)"
        ),
    }
}

/// The line and column (1-based, columns in characters) of byte `offset` of `path`,
/// counted by reading the file up to it (on errors only).
fn position(path: &Path, offset: u64) -> (u64, u64) {
    let Ok(file) = File::open(path) else {
        return (0, 0);
    };
    let mut reader = BufReader::with_capacity(IO_BUFFER, file).take(offset);
    let (mut line, mut column) = (1u64, 1u64);
    let mut block = vec![0u8; IO_BUFFER];
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let block = &block[..n];
        let chars = |bytes: &[u8]| bytes.iter().filter(|b| (**b & 0xc0) != 0x80).count() as u64;
        match memchr::memrchr(b'\n', block) {
            Some(last) => {
                line += memchr::memchr_iter(b'\n', block).count() as u64;
                column = 1 + chars(&block[last + 1..]);
            }
            None => column += chars(block),
        }
    }
    (line, column)
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
        .map_err(|e| {
            inference_fault(src, options).unwrap_or_else(|| FormatError::Csv {
                path: src.to_owned(),
                message: tidy(&e.to_string()),
            })
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
    let schema = Schema::new(fields);
    crate::schema::check_columns(src, &schema)?;
    Ok(schema)
}

/// arrow-csv counts data rows from 0 and columns by index: say the file line and the name.
fn name_column(message: &str, schema: &Schema, header: bool) -> String {
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
    tidy_shifted(message, 0)
}

/// [`tidy`], with the line number (counted by a decoder that started `shift` records into
/// the file) made a line number of the file.
fn tidy_shifted(message: &str, shift: u64) -> String {
    let message = message.strip_prefix("Parser error: ").unwrap_or(message);
    let message = message.split(". Row data:").next().unwrap_or(message);
    let shifted = shift_line(message, shift);
    let message = shifted.as_str();
    let mut out: String = message.chars().take(300).collect();
    if out.len() < message.len() {
        out.push('…');
    }
    out
}

/// Adds `shift` to the line number of an arrow-csv message ("… at line N" after a value,
/// "… for line N, …" from the record parser).
fn shift_line(message: &str, shift: u64) -> String {
    if shift == 0 {
        return message.to_owned();
    }
    const AT: &str = " at line ";
    const FOR: &str = " for line ";
    // A value is quoted before " at line ", and may itself hold those words.
    let start = if message.starts_with("Error while parsing value") {
        message.rfind(AT).map(|i| i + AT.len())
    } else {
        [AT, FOR]
            .iter()
            .filter_map(|p| message.find(p).map(|i| i + p.len()))
            .min()
    };
    let Some(start) = start else {
        return message.to_owned();
    };
    let digits = message[start..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let Ok(line) = message[start..start + digits].parse::<u64>() else {
        return message.to_owned();
    };
    format!(
        "{}{}{}",
        &message[..start],
        line + shift,
        &message[start + digits..]
    )
}
