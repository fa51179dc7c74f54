//! Tables encoded for the wire: Arrow batches to Parquet (row groups flushed at
//! [`ROW_GROUP_BYTES`]), to the Arrow IPC stream format (plain; the whole stream
//! compressed with zstd for the cache: [`TableEncoder::arrow_zstd`]; or each batch's
//! buffers compressed with zstd, the IPC format's own compression, which a reader
//! decompresses on its threads: [`TableEncoder::arrow_buffers_zstd`]) or to CSV/TSV in
//! the package's `publish.dialect`, each value
//! written by the rule of [`stone_formats::text`] (so that it reads back as itself: nested
//! values as JSON, floats in their shortest text, null apart from the empty string).

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};
use stone_formats::text::{Quoting, TextDialect, TextWriter};

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
    Arrow(Box<arrow_ipc::writer::StreamWriter<SharedBuffer>>),
    ArrowZstd(Box<arrow_ipc::writer::StreamWriter<zstd::Encoder<'static, SharedBuffer>>>),
    Text(TextWriter),
}

/// The zstd level of a cached Arrow answer: written once per snapshot, read many times.
const ZSTD_LEVEL: i32 = 3;

/// Rows of one batch of the Arrow answer: a scan gives batches of 1,024 rows, which as
/// IPC messages would cost a reader per message and leave it a table of that many chunks.
const ARROW_BATCH_ROWS: usize = 128 * 1024;

/// Arrow batches → Parquet or CSV/TSV chunks.
pub(super) struct TableEncoder {
    buffer: SharedBuffer,
    writer: Writer,
    schema: arrow_schema::SchemaRef,
    /// Arrow: the batches not yet written, joined once they hold [`ARROW_BATCH_ROWS`].
    pending: Vec<arrow_array::RecordBatch>,
    pending_rows: usize,
}

#[derive(Debug, thiserror::Error)]
pub(super) enum EncodeError {
    #[error(transparent)]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
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
                    schema.clone(),
                    Some(properties),
                )?))
            }
            ContentFormat::Arrow => Writer::Arrow(Box::new(
                arrow_ipc::writer::StreamWriter::try_new(buffer.clone(), &schema)?,
            )),
            _ => Writer::Text(TextWriter::new(text_dialect(format, dialect))),
        };
        Ok(Self {
            buffer,
            writer,
            schema,
            pending: Vec::new(),
            pending_rows: 0,
        })
    }

    /// The Arrow IPC stream with each batch's buffers compressed with zstd (the format's
    /// `BodyCompression`; the schema and the messages' headers stay plain): any Arrow
    /// reader decodes it without a `Content-Encoding`, and pyarrow decompresses a batch's
    /// buffers in parallel on its thread pool, where one zstd frame of the whole stream is
    /// decompressed on one thread.
    pub(super) fn arrow_buffers_zstd(schema: arrow_schema::SchemaRef) -> Result<Self, EncodeError> {
        let buffer = SharedBuffer::default();
        let options = arrow_ipc::writer::IpcWriteOptions::default()
            .try_with_compression(Some(arrow_ipc::CompressionType::ZSTD))?;
        let writer = Writer::Arrow(Box::new(
            arrow_ipc::writer::StreamWriter::try_new_with_options(
                buffer.clone(),
                &schema,
                options,
            )?,
        ));
        Ok(Self {
            buffer,
            writer,
            schema,
            pending: Vec::new(),
            pending_rows: 0,
        })
    }

    /// The Arrow IPC stream, the whole of it compressed as one zstd frame (what
    /// `Content-Encoding: zstd` carries): for the cached Arrow answer of a snapshot.
    pub(super) fn arrow_zstd(schema: arrow_schema::SchemaRef) -> Result<Self, EncodeError> {
        let buffer = SharedBuffer::default();
        let compressed = zstd::Encoder::new(buffer.clone(), ZSTD_LEVEL)?;
        let writer = Writer::ArrowZstd(Box::new(arrow_ipc::writer::StreamWriter::try_new(
            compressed, &schema,
        )?));
        Ok(Self {
            buffer,
            writer,
            schema,
            pending: Vec::new(),
            pending_rows: 0,
        })
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
            Writer::Arrow(_) | Writer::ArrowZstd(_) => {
                self.pending_rows += batch.num_rows();
                self.pending.push(batch.clone());
                if self.pending_rows >= ARROW_BATCH_ROWS {
                    self.write_pending()?;
                }
            }
            Writer::Text(writer) => {
                let mut out = Vec::new();
                writer.write(batch, &mut out)?;
                return Ok(out.into());
            }
        }
        Ok(self.buffer.take())
    }

    /// Arrow: the pending batches joined into one and written.
    fn write_pending(&mut self) -> Result<(), EncodeError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let joined = arrow_select::concat::concat_batches(&self.schema, &self.pending)?;
        self.pending.clear();
        self.pending_rows = 0;
        match &mut self.writer {
            Writer::Arrow(writer) => writer.write(&joined)?,
            Writer::ArrowZstd(writer) => writer.write(&joined)?,
            Writer::Parquet(_) | Writer::Text(_) => {}
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> Result<bytes::Bytes, EncodeError> {
        self.write_pending()?;
        match self.writer {
            Writer::Parquet(writer) => {
                writer.close()?;
            }
            Writer::Arrow(mut writer) => writer.finish()?,
            Writer::ArrowZstd(mut writer) => {
                writer.finish()?;
                writer.into_inner()?.finish()?;
            }
            Writer::Text(mut writer) => {
                // A table without rows: its header.
                let mut out = Vec::new();
                writer.finish(&self.schema, &mut out);
                return Ok(out.into());
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

/// The text dialect of the package's `publish.dialect` (as the push recorded it:
/// `delimiter`, `quote_char`, `line_terminator`, `header`, `double_quote`, `escape_char`,
/// `null_sequence`, `quoting`). A TSV keeps its tab even when the dialect names another
/// delimiter.
fn text_dialect(format: ContentFormat, dialect: &Map<String, Value>) -> TextDialect {
    let mut text = if format == ContentFormat::Tsv {
        TextDialect::tsv()
    } else {
        TextDialect::csv()
    };
    if format != ContentFormat::Tsv
        && let Some(delimiter) = dialect_char(dialect, "delimiter")
    {
        text.delimiter = delimiter;
    }
    if let Some(header) = dialect.get("header").and_then(Value::as_bool) {
        text.header = header;
    }
    if let Some(quote) = dialect_char(dialect, "quote_char") {
        text.quote = quote;
    }
    if let Some(double_quote) = dialect.get("double_quote").and_then(Value::as_bool) {
        text.double_quote = double_quote;
    }
    text.escape = dialect_char(dialect, "escape_char");
    if let Some(null) = dialect.get("null_sequence").and_then(Value::as_str) {
        text.null = null.to_owned();
    }
    text.line_terminator = match dialect.get("line_terminator").and_then(Value::as_str) {
        Some("\r\n") => "\r\n",
        Some("\r") => "\r",
        _ => "\n",
    };
    text.quoting = match dialect.get("quoting").and_then(Value::as_str) {
        Some("all") => Quoting::All,
        Some("nonnumeric") => Quoting::Nonnumeric,
        Some("none") => Quoting::None,
        _ => Quoting::Minimal,
    };
    text
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
            "\"id\";\"name\"\r\n\"1\";\"a;b\"\r\n\"2\";\r\n"
        );
    }
}
