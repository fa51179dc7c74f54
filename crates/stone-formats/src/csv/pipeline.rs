//! The conversion on every core, with bounded memory and the same bytes on every run.
//!
//! One thread reads the file and cuts it into chunks of about [`CHUNK_BYTES`] that end at a
//! record end ([`Splitter`]). Workers (one per core) each turn a whole chunk into a Parquet
//! row group: arrow-csv decodes it, the parquet crate's column writers encode and compress
//! it. The calling thread appends the row groups to the file in chunk order. A chunk's bytes
//! are only cut by content, never by timing, so the file is the same whatever the number of
//! workers and however they are scheduled. At most `workers + 2` chunks are in flight (read,
//! queued, being encoded or waiting for their turn): memory stays bounded whatever the file
//! size.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};

use arrow_array::StringArray;
use arrow_csv::reader::Format as CsvFormat;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use super::split::Splitter;
use super::{
    CsvOptions, locate, locate::Fault, name_column, position, record_too_long, tidy_shifted,
    unclosed_quote,
};
use crate::FormatError;

/// CSV bytes per chunk, and so per row group (about 110,000 rows of a 75-byte row, like
/// DuckDB's 122,880-row groups).
pub const CHUNK_BYTES: usize = 8 << 20;
/// Rows arrow-csv decodes at a time inside a chunk.
const BATCH_ROWS: usize = 16 * 1024;
/// More input read at a time when a chunk's last record runs past the chunk size.
const READ_STEP: usize = 256 << 10;
const IO_BUFFER: usize = 1 << 20;
const MAX_WORKERS: usize = 8;
/// Rows read to decide which columns are written without a dictionary.
const SAMPLE_ROWS: usize = 10_000;
/// Fewer rows than this decide nothing (small files keep the writer's defaults).
const SAMPLE_MIN_ROWS: usize = 1_000;

/// How the work is spread: workers, and chunk (row group) size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    pub workers: usize,
    pub chunk_bytes: usize,
}

impl Default for Tuning {
    /// One worker per core (at most 8), [`CHUNK_BYTES`] chunks.
    fn default() -> Tuning {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Tuning {
            workers: cores.clamp(1, MAX_WORKERS),
            chunk_bytes: CHUNK_BYTES,
        }
    }
}

/// A chunk of input, cut at a record end.
struct Job {
    index: usize,
    /// Bytes of the file before the chunk.
    offset: u64,
    data: Vec<u8>,
}

/// What became of a chunk.
enum Done {
    Encoded {
        index: usize,
        rows: u64,
        columns: Vec<ArrowColumnChunk>,
        data: Vec<u8>,
    },
    Failed {
        index: usize,
        failure: Failure,
    },
}

impl Done {
    fn index(&self) -> usize {
        match self {
            Done::Encoded { index, .. } | Done::Failed { index, .. } => *index,
        }
    }
}

enum Failure {
    /// An arrow-csv message, its line numbers counted from the chunk's first record.
    Csv(String),
    /// What arrow-csv refused, found at this byte of the file.
    Located {
        offset: u64,
        message: String,
    },
    Parquet(ParquetError),
    Read(io::Error),
    /// The file ends inside a quoted field opened at this byte of the file.
    Unclosed(u64),
    /// A record longer than the limit starts at this byte of the file.
    TooLong(u64),
}

/// Converts `src` into the Parquet file `tmp`; returns the rows and bytes read.
pub(crate) fn convert(
    src: &Path,
    tmp: &Path,
    format: &CsvFormat,
    options: &CsvOptions,
    schema: SchemaRef,
    progress: &(dyn Fn(u64) + Sync),
    tuning: Tuning,
) -> Result<(u64, u64), FormatError> {
    let parquet_error = |e: ParquetError| FormatError::Parquet {
        path: tmp.to_owned(),
        message: e.to_string(),
    };
    let input = File::open(src).map_err(|source| FormatError::Read {
        path: src.to_owned(),
        source,
    })?;
    let out = File::create(tmp).map_err(|source| FormatError::Write {
        path: tmp.to_owned(),
        source,
    })?;
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(1).expect("level 1 is valid"),
        ))
        .set_created_by(format!("stone {}", env!("CARGO_PKG_VERSION")));
    for (column, data_type) in unique_columns(src, format, &schema) {
        let path = ColumnPath::from(column.as_str());
        // Integers that hardly repeat (ids, counters, measures) are written as deltas: a
        // quarter less CPU and a tenth smaller than plain + zstd on the benchmark's table.
        if matches!(
            data_type,
            DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64
        ) {
            props = props.set_column_encoding(path.clone(), Encoding::DELTA_BINARY_PACKED);
        }
        props = props.set_column_dictionary_enabled(path, false);
    }
    let props = props.build();
    // ArrowWriter puts the Arrow schema in the file's metadata; its lower half writes the
    // row groups the workers encode.
    let (mut writer, factory) = ArrowWriter::try_new(
        BufWriter::with_capacity(IO_BUFFER, out),
        schema.clone(),
        Some(props),
    )
    .and_then(ArrowWriter::into_serialized_writer)
    .map_err(parquet_error)?;

    let workers = tuning.workers.max(1);
    let in_flight = workers + 2;
    let chunk_bytes = tuning.chunk_bytes.max(1);
    let stop = AtomicBool::new(false);
    let (work_tx, work_rx) = channel::<Job>();
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = channel::<Done>();
    // Each chunk buffer is a ticket: the reader waits for one before reading a chunk, and
    // gets it back once the chunk's row group is in the file.
    let (free_tx, free_rx) = channel::<Vec<u8>>();
    for _ in 0..in_flight {
        let _ = free_tx.send(Vec::new());
    }
    let splitter = Splitter::new(
        options.delimiter,
        options.quote,
        options.escape,
        options.comment,
    );

    let rows = std::thread::scope(|scope| {
        let (stop, factory, schema, work_rx) = (&stop, &factory, &schema, &work_rx);
        let reader_done = done_tx.clone();
        scope.spawn(move || {
            read_chunks(
                input,
                splitter,
                chunk_bytes,
                options.max_record_bytes.max(1),
                progress,
                stop,
                &free_rx,
                &work_tx,
                &reader_done,
            )
        });
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                let header = options.header;
                loop {
                    let job = work_rx
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .recv();
                    let Ok(Job {
                        index,
                        offset,
                        data,
                    }) = job
                    else {
                        return;
                    };
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let first = index == 0;
                    // A panic in arrow or parquet must not leave the other threads waiting
                    // for this chunk: it becomes this chunk's failure.
                    let encoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        encode_chunk(&data, index, first && header, format, schema, factory)
                    }))
                    .unwrap_or_else(|_| {
                        Err(Failure::Parquet(ParquetError::General(
                            "the encoder failed unexpectedly (a bug in stone: please report it)"
                                .into(),
                        )))
                    });
                    let done = match encoded {
                        Ok((rows, columns)) => Done::Encoded {
                            index,
                            rows,
                            columns,
                            data,
                        },
                        Err(Failure::Csv(message)) => Done::Failed {
                            index,
                            failure: locate_in_chunk(&data, offset, options, &message, schema),
                        },
                        Err(failure) => Done::Failed { index, failure },
                    };
                    if done_tx.send(done).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let written = write_in_order(&mut writer, done_rx, free_tx);
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        written
    });
    let rows = match rows {
        Ok(rows) => rows,
        Err((index, rows_before, failure)) => {
            return Err(match failure {
                Failure::Read(source) => FormatError::Read {
                    path: src.to_owned(),
                    source,
                },
                Failure::Parquet(e) => parquet_error(e),
                Failure::Unclosed(offset) => unclosed_quote(src, offset),
                Failure::TooLong(offset) => {
                    record_too_long(src, offset, options.max_record_bytes.max(1))
                }
                Failure::Located { offset, message } => {
                    let (line, column) = position(src, offset);
                    FormatError::Csv {
                        path: src.to_owned(),
                        message: format!("line {line}, column {column}: {message}"),
                    }
                }
                Failure::Csv(message) => {
                    // Lines of a later chunk count from its first record.
                    let shift = if index == 0 {
                        0
                    } else {
                        rows_before + u64::from(options.header)
                    };
                    FormatError::Csv {
                        path: src.to_owned(),
                        message: name_column(
                            &tidy_shifted(&message, shift),
                            &schema,
                            options.header,
                        ),
                    }
                }
            });
        }
    };
    let out = writer.into_inner().map_err(parquet_error)?;
    let file = out.into_inner().map_err(|e| FormatError::Write {
        path: tmp.to_owned(),
        source: e.into_error(),
    })?;
    file.sync_all().map_err(|source| FormatError::Write {
        path: tmp.to_owned(),
        source,
    })?;
    let read = std::fs::metadata(src).map(|m| m.len()).unwrap_or(0);
    Ok((rows, read))
}

/// The columns whose values hardly repeat: more than half of them distinct in the first
/// [`SAMPLE_ROWS`] rows (read as text). Dictionary encoding only costs time and space there
/// (a row group's dictionary fills up, then the writer falls back to plain), so they are
/// written plain. Decided from the file's content alone: the same file, the same choice.
fn unique_columns(src: &Path, format: &CsvFormat, schema: &Schema) -> Vec<(String, DataType)> {
    let text = Schema::new(
        schema
            .fields()
            .iter()
            .map(|f| Field::new(f.name(), DataType::Utf8, true))
            .collect::<Vec<_>>(),
    );
    let Ok(file) = File::open(src) else {
        return Vec::new();
    };
    let Ok(mut reader) = arrow_csv::ReaderBuilder::new(Arc::new(text))
        .with_format(format.clone())
        .with_batch_size(SAMPLE_ROWS)
        .build_buffered(BufReader::with_capacity(IO_BUFFER, file))
    else {
        return Vec::new();
    };
    // A sample that does not read (bad UTF-8, ragged rows) decides nothing: the
    // conversion itself reports the problem.
    let Some(Ok(sample)) = reader.next() else {
        return Vec::new();
    };
    let rows = sample.num_rows();
    if rows < SAMPLE_MIN_ROWS {
        return Vec::new();
    }
    let mut seen = HashSet::with_capacity(rows);
    let mut unique = Vec::new();
    for (field, column) in schema.fields().iter().zip(sample.columns()) {
        let Some(values) = column.as_any().downcast_ref::<StringArray>() else {
            continue;
        };
        seen.clear();
        seen.extend(values.iter());
        if seen.len() * 2 > rows {
            unique.push((field.name().clone(), field.data_type().clone()));
        }
    }
    unique
}

/// The reader: cuts the input into chunks at record ends and queues them.
#[allow(clippy::too_many_arguments)]
fn read_chunks(
    mut input: File,
    mut splitter: Splitter,
    chunk_bytes: usize,
    max_record: usize,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
    free: &Receiver<Vec<u8>>,
    work: &Sender<Job>,
    done: &Sender<Done>,
) {
    let mut carry: Vec<u8> = Vec::new();
    let mut eof = false;
    // Bytes of the file before the chunk being read.
    let mut offset = 0u64;
    let fail = |index, failure| {
        let _ = done.send(Done::Failed { index, failure });
    };
    for index in 0.. {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(mut data) = free.recv() else { return };
        data.clear();
        data.reserve_exact(chunk_bytes + 2 * READ_STEP);
        data.extend_from_slice(&carry);
        carry.clear();
        splitter.reset();
        let mut want = chunk_bytes + READ_STEP;
        let cut = loop {
            if !eof && data.len() < want {
                let need = (want - data.len()) as u64;
                match (&mut input).take(need).read_to_end(&mut data) {
                    Ok(n) => {
                        progress(n as u64);
                        eof = (n as u64) < need;
                    }
                    Err(e) => {
                        fail(index, Failure::Read(e));
                        return;
                    }
                }
            }
            if let Some(cut) = splitter.find(&data, chunk_bytes, eof) {
                break cut;
            }
            // The record that spans the chunk size started before it and has not ended:
            // past the limit, it is refused rather than held whole.
            if data.len() - chunk_bytes.min(data.len()) > max_record {
                let start = record_start(&splitter, &data, chunk_bytes);
                fail(index, Failure::TooLong(offset + start as u64));
                return;
            }
            want = data.len() + READ_STEP;
        };
        if eof
            && cut == data.len()
            && let Some(at) = splitter.unclosed()
        {
            fail(index, Failure::Unclosed(offset + at as u64));
            return;
        }
        if let Some(too_long) = record_longer_than(&splitter, &data[..cut], max_record) {
            fail(index, Failure::TooLong(offset + too_long as u64));
            return;
        }
        offset += cut as u64;
        carry.extend_from_slice(&data[cut..]);
        data.truncate(cut);
        let last = eof && carry.is_empty();
        let job = Job {
            index,
            offset: offset - cut as u64,
            data,
        };
        if !job.data.is_empty() && work.send(job).is_err() {
            return;
        }
        if last {
            return;
        }
    }
}

/// What arrow-csv refused in a chunk (of whole records, starting at byte `offset` of the
/// file), found again in the chunk: the value arrow-csv's `message` names, else the first
/// record of a wrong shape (field count, UTF-8). A value error comes first: arrow-csv
/// parses values only of a batch whose records all had the right shape, so a record of a
/// wrong shape further on is not what it met. Unfound, the message as arrow-csv said it.
fn locate_in_chunk(
    data: &[u8],
    offset: u64,
    options: &CsvOptions,
    message: &str,
    schema: &Schema,
) -> Failure {
    let fault = locate::value_fault(data, options, message, schema)
        .or_else(|| locate::first_shape_fault(data, options, schema.fields().len(), Some(schema)));
    match fault {
        Some(Fault {
            offset: at,
            message,
        }) => Failure::Located {
            offset: offset + at as u64,
            message,
        },
        None => Failure::Csv(message.to_owned()),
    }
}

/// Where the record holding byte `at` of `data` (which starts at a record start) starts.
fn record_start(splitter: &Splitter, data: &[u8], at: usize) -> usize {
    let mut scan = splitter.fresh();
    let mut start = 0;
    loop {
        scan.reset();
        match scan.find(&data[start..], 0, false) {
            Some(end) if start + end <= at => start += end,
            _ => return start,
        }
    }
}

/// The start of the first record of `data` (a chunk of whole records) longer than `max`
/// bytes. Only a chunk longer than `max` can hold one.
fn record_longer_than(splitter: &Splitter, data: &[u8], max: usize) -> Option<usize> {
    if data.len() <= max {
        return None;
    }
    let mut scan = splitter.fresh();
    let mut start = 0;
    while start < data.len() {
        scan.reset();
        let end = scan.find(&data[start..], 0, true)?;
        if end > max {
            return Some(start);
        }
        start += end;
    }
    None
}

/// A worker's part: one chunk decoded and encoded as the column chunks of a row group.
fn encode_chunk(
    data: &[u8],
    index: usize,
    header: bool,
    format: &CsvFormat,
    schema: &SchemaRef,
    factory: &ArrowRowGroupWriterFactory,
) -> Result<(u64, Vec<ArrowColumnChunk>), Failure> {
    let csv = |e: arrow_schema::ArrowError| Failure::Csv(e.to_string());
    let mut decoder = arrow_csv::ReaderBuilder::new(schema.clone())
        .with_format(format.clone().with_header(header))
        .with_batch_size(BATCH_ROWS)
        .build_decoder();
    let mut writers = factory
        .create_column_writers(index)
        .map_err(Failure::Parquet)?;
    let mut rows = 0u64;
    let mut pos = 0;
    loop {
        let decoded = decoder.decode(&data[pos..]).map_err(csv)?;
        pos += decoded;
        if decoded != 0 && decoder.capacity() != 0 {
            continue;
        }
        let Some(batch) = decoder.flush().map_err(csv)? else {
            break;
        };
        rows += batch.num_rows() as u64;
        let mut leaves_to = writers.iter_mut();
        for (array, field) in batch.columns().iter().zip(schema.fields()) {
            for leaf in compute_leaves(field, array).map_err(Failure::Parquet)? {
                let writer = leaves_to.next().ok_or_else(|| {
                    Failure::Parquet(ParquetError::General(
                        "more leaf columns than column writers".into(),
                    ))
                })?;
                writer.write(&leaf).map_err(Failure::Parquet)?;
            }
        }
    }
    let columns = writers
        .into_iter()
        .map(|w| w.close())
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Parquet)?;
    Ok((rows, columns))
}

/// The calling thread's part: row groups appended in chunk order. On failure: the chunk's
/// index, the rows before it, and what failed (the first failure in file order).
fn write_in_order<W: io::Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    done: Receiver<Done>,
    free: Sender<Vec<u8>>,
) -> Result<u64, (usize, u64, Failure)> {
    let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
    let mut next = 0;
    let mut rows = 0u64;
    for result in done {
        pending.insert(result.index(), result);
        while let Some(result) = pending.remove(&next) {
            match result {
                Done::Encoded {
                    rows: n,
                    columns,
                    data,
                    ..
                } => {
                    if n > 0 {
                        append_row_group(writer, columns)
                            .map_err(|e| (next, rows, Failure::Parquet(e)))?;
                    }
                    rows += n;
                    let _ = free.send(data);
                    next += 1;
                }
                Done::Failed { index, failure } => return Err((index, rows, failure)),
            }
        }
    }
    Ok(rows)
}

fn append_row_group<W: io::Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    columns: Vec<ArrowColumnChunk>,
) -> Result<(), ParquetError> {
    let mut row_group = writer.next_row_group()?;
    for column in columns {
        column.append_to_row_group(&mut row_group)?;
    }
    row_group.close()?;
    Ok(())
}
