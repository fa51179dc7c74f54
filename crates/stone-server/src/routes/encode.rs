//! Tables encoded for the wire: Arrow batches to Parquet (row groups flushed at
//! [`ROW_GROUP_BYTES`]) or to CSV/TSV in the package's `publish.dialect`.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

use super::negotiate::ContentFormat;

/// A Parquet row group is written out once its encoded size passes this.
const ROW_GROUP_BYTES: usize = 16 << 20;

/// A `Write` whose bytes are taken out after each batch.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    fn take(&self) -> bytes::Bytes {
        let mut buffer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        bytes::Bytes::from(std::mem::take(&mut *buffer))
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        buffer.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Writer {
    Parquet(Box<parquet::arrow::ArrowWriter<SharedBuffer>>),
    Csv(Box<arrow_csv::Writer<SharedBuffer>>),
}

/// Arrow batches → Parquet or CSV/TSV chunks.
pub(super) struct TableEncoder {
    buffer: SharedBuffer,
    writer: Writer,
}

#[derive(Debug, thiserror::Error)]
pub(super) enum EncodeError {
    #[error(transparent)]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
}

impl TableEncoder {
    pub(super) fn new(
        format: ContentFormat,
        dialect: &Map<String, Value>,
        schema: arrow_schema::SchemaRef,
    ) -> Result<Self, EncodeError> {
        let buffer = SharedBuffer::default();
        let writer = match format {
            ContentFormat::Parquet => {
                let properties = parquet::file::properties::WriterProperties::builder()
                    .set_compression(parquet::basic::Compression::ZSTD(Default::default()))
                    .build();
                Writer::Parquet(Box::new(parquet::arrow::ArrowWriter::try_new(
                    buffer.clone(),
                    schema,
                    Some(properties),
                )?))
            }
            _ => Writer::Csv(Box::new(csv_builder(format, dialect).build(buffer.clone()))),
        };
        Ok(Self { buffer, writer })
    }

    pub(super) fn write(
        &mut self,
        batch: &arrow_array::RecordBatch,
    ) -> Result<bytes::Bytes, EncodeError> {
        match &mut self.writer {
            Writer::Parquet(writer) => {
                writer.write(batch)?;
                if writer.in_progress_size() > ROW_GROUP_BYTES {
                    writer.flush()?;
                }
            }
            Writer::Csv(writer) => writer.write(batch)?,
        }
        Ok(self.buffer.take())
    }

    pub(super) fn finish(self) -> Result<bytes::Bytes, EncodeError> {
        match self.writer {
            Writer::Parquet(writer) => {
                writer.close()?;
            }
            Writer::Csv(writer) => {
                let mut inner = writer.into_inner();
                let _ = inner.flush();
            }
        }
        Ok(self.buffer.take())
    }
}

fn dialect_char(dialect: &Map<String, Value>, key: &str) -> Option<u8> {
    let text = dialect.get(key)?.as_str()?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii() => Some(c as u8),
        _ => None,
    }
}

/// The CSV writer of the package dialect (`publish.dialect`, as the push recorded it:
/// `delimiter`, `quote_char`, `line_terminator`, `header`, `double_quote`, `escape_char`,
/// `null_sequence`, `quoting`). TSV defaults to a tab delimiter.
fn csv_builder(format: ContentFormat, dialect: &Map<String, Value>) -> arrow_csv::WriterBuilder {
    use arrow_csv::QuoteStyle;
    use arrow_csv::writer::Terminator;
    let default_delimiter = if format == ContentFormat::Tsv {
        b'\t'
    } else {
        b','
    };
    // A TSV keeps its tab even when the package dialect names another delimiter.
    let delimiter = match format {
        ContentFormat::Tsv => b'\t',
        _ => dialect_char(dialect, "delimiter").unwrap_or(default_delimiter),
    };
    let mut builder = arrow_csv::WriterBuilder::new()
        .with_delimiter(delimiter)
        .with_header(
            dialect
                .get("header")
                .and_then(Value::as_bool)
                .unwrap_or(true),
        );
    if let Some(quote) = dialect_char(dialect, "quote_char") {
        builder = builder.with_quote(quote);
    }
    if let Some(double_quote) = dialect.get("double_quote").and_then(Value::as_bool) {
        builder = builder.with_double_quote(double_quote);
    }
    if let Some(escape) = dialect_char(dialect, "escape_char") {
        builder = builder.with_escape(escape);
    }
    if let Some(null) = dialect.get("null_sequence").and_then(Value::as_str) {
        builder = builder.with_null(null.to_owned());
    }
    match dialect.get("line_terminator").and_then(Value::as_str) {
        Some("\r\n") => builder = builder.with_line_terminator(Terminator::CRLF),
        Some("\r") => builder = builder.with_line_terminator(Terminator::Any(b'\r')),
        _ => {}
    }
    let style = match dialect.get("quoting").and_then(Value::as_str) {
        Some("all") => QuoteStyle::Always,
        Some("nonnumeric") => QuoteStyle::NonNumeric,
        Some("none") => QuoteStyle::Never,
        _ => QuoteStyle::Necessary,
    };
    builder.with_quote_style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_follows_the_package_dialect() {
        let dialect: Map<String, Value> = serde_json::from_value(serde_json::json!({
            "delimiter": ";", "quoting": "all", "line_terminator": "\r\n"
        }))
        .unwrap();
        let schema = Arc::new(arrow_schema::Schema::new(vec![
            arrow_schema::Field::new("id", arrow_schema::DataType::Int64, false),
            arrow_schema::Field::new("name", arrow_schema::DataType::Utf8, true),
        ]));
        let batch = arrow_array::RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(arrow_array::Int64Array::from(vec![1, 2])),
                Arc::new(arrow_array::StringArray::from(vec![Some("a;b"), None])),
            ],
        )
        .unwrap();
        let mut encoder = TableEncoder::new(ContentFormat::Csv, &dialect, schema).unwrap();
        let mut out = encoder.write(&batch).unwrap().to_vec();
        out.extend_from_slice(&encoder.finish().unwrap());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"id\";\"name\"\r\n\"1\";\"a;b\"\r\n\"2\";\"\"\r\n"
        );
    }
}
