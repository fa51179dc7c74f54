//! A table's Arrow answer (`format=arrow`, issue 57) in each of its encodings, on the real
//! binary, decoded by arrow-rs's own IPC reader: the stream plain (no `Accept-Encoding`),
//! the stream compressed whole (`Accept-Encoding: zstd`, what clients before
//! `compression=` ask: `Content-Encoding: zstd`), and the stream whose batches' buffers are
//! compressed with zstd (`compression=zstd`: no `Content-Encoding`, the IPC format's own
//! compression, declared in each batch's header). The same rows in all three; the two
//! compressed ones cached per snapshot, with their own `ETag`s.

use std::sync::Arc;

use arrow_array::{Array, Int64Array, RecordBatch, StringArray};

use crate::api_read::{Read, read};
use crate::api_support::{Dataset, File, Options, Server, Site, manifest};
use crate::support::{batch, write_parquet};

/// A table of `rows` rows that compresses: `id` (int64) and a `label` of 100 values.
pub(crate) fn repetitive_parquet(rows: i64) -> Vec<u8> {
    let labels: Vec<String> = (0..rows).map(|i| format!("label-{:03}", i % 100)).collect();
    let table = batch(vec![
        (
            "id",
            Arc::new(Int64Array::from((0..rows).collect::<Vec<_>>())) as _,
            true,
        ),
        ("label", Arc::new(StringArray::from(labels)) as _, true),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    write_parquet(&path, &table, 50_000);
    std::fs::read(path).unwrap()
}

pub(crate) fn tabular(name: &str, bytes: Vec<u8>) -> Dataset {
    Dataset::new(
        name,
        "TABULAR",
        vec![File::new(&format!("{name}.parquet"), bytes)],
    )
}

/// The record batches of an Arrow IPC stream, read by arrow-rs (which decompresses
/// buffers compressed with zstd or LZ4 itself).
pub(crate) fn decode(stream: &[u8]) -> Vec<RecordBatch> {
    arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(stream), None)
        .expect("an Arrow IPC stream")
        .collect::<Result<Vec<_>, _>>()
        .expect("its batches")
}

/// The compression each record batch message of an IPC stream declares (`None`: its
/// buffers are plain), read from the messages' headers.
pub(crate) fn batch_compressions(stream: &[u8]) -> Vec<Option<arrow_ipc::CompressionType>> {
    let mut found = Vec::new();
    let mut at = 0usize;
    let word = |at: usize| i32::from_le_bytes(stream[at..at + 4].try_into().unwrap());
    while at + 4 <= stream.len() {
        let mut length = word(at);
        at += 4;
        if length == -1 {
            // The continuation marker, then the metadata's length.
            length = word(at);
            at += 4;
        }
        if length == 0 {
            break; // end of stream
        }
        let metadata = &stream[at..at + length as usize];
        let message = arrow_ipc::root_as_message(metadata).expect("an IPC message");
        at += length as usize;
        if let Some(header) = message.header_as_record_batch() {
            found.push(header.compression().map(|c| c.codec()));
        }
        at += message.bodyLength() as usize;
    }
    found
}

/// `(id, label)` of every row, sorted (a scan of several data files need not keep one
/// order from one read to the next).
pub(crate) fn rows_of(batches: &[RecordBatch]) -> Vec<(i64, String)> {
    id_and_text(batches, "label")
}

/// `(id, <text>)` of every row, sorted: `id` an Int64 column, `text` a non-null Utf8 one.
pub(crate) fn id_and_text(batches: &[RecordBatch], text: &str) -> Vec<(i64, String)> {
    let mut rows = Vec::new();
    for batch in batches {
        let ids = batch
            .column_by_name("id")
            .unwrap()
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        let labels = batch
            .column_by_name(text)
            .unwrap()
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        for i in 0..batch.num_rows() {
            assert!(!ids.is_null(i) && !labels.is_null(i));
            rows.push((ids.value(i), labels.value(i).to_owned()));
        }
    }
    rows.sort();
    rows
}

/// The files of `data`'s content cache, by name.
fn cached_files(data: &std::path::Path) -> Vec<String> {
    let mut names = Vec::new();
    for folder in std::fs::read_dir(data.join("cache/content")).unwrap() {
        for file in std::fs::read_dir(folder.unwrap().path()).unwrap() {
            names.push(file.unwrap().file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    names
}

const ROWS: i64 = 300_000;

async fn get(server: &Server, url: &str, headers: &[(&str, &str)]) -> Read {
    let answer = read(server, url, headers).await;
    assert_eq!(answer.status, 200, "{url} {headers:?}: {}", answer.text());
    assert_eq!(
        answer.header("content-type"),
        "application/vnd.apache.arrow.stream"
    );
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arrow_answer_in_each_encoding_reads_as_the_same_table() {
    let site = Site::new();
    let server = site.start();
    let (m, contents) = manifest(
        "arrow",
        "main",
        Options::default(),
        None,
        &[tabular("rows", repetitive_parquet(ROWS))],
    );
    server.push(&m, &contents).await;
    let base = "/v1/namespaces/arrow/datasets/rows/content?format=arrow";
    let expected: Vec<(i64, String)> = (0..ROWS)
        .map(|i| (i, format!("label-{:03}", i % 100)))
        .collect();

    // Plain: no Accept-Encoding, no compression.
    let plain = get(&server, base, &[]).await;
    assert_eq!(plain.header("content-encoding"), "");
    assert_eq!(rows_of(&decode(&plain.body)), expected);
    let compressions = batch_compressions(&plain.body);
    assert!(compressions.len() >= 2, "{compressions:?}");
    assert!(compressions.iter().all(Option::is_none), "{compressions:?}");

    // As the clients before `compression=` ask: the stream compressed whole.
    let whole = get(&server, base, &[("accept-encoding", "zstd")]).await;
    assert_eq!(whole.header("content-encoding"), "zstd");
    assert_eq!(whole.header("vary"), "accept-encoding");
    assert_eq!(whole.header("content-length"), whole.body.len().to_string());
    assert!(
        whole.header("etag").contains("-arrow-zstd-"),
        "{:?}",
        whole.headers
    );
    let inflated = zstd::decode_all(&whole.body[..]).expect("one zstd stream");
    assert_eq!(rows_of(&decode(&inflated)), expected);
    assert!(batch_compressions(&inflated).iter().all(Option::is_none));

    // compression=zstd (with Accept-Encoding: zstd, as stone_client sends both): the
    // buffers compressed inside the stream, no Content-Encoding.
    let url = format!("{base}&compression=zstd");
    let buffers = get(&server, &url, &[("accept-encoding", "zstd")]).await;
    assert_eq!(
        buffers.header("content-encoding"),
        "",
        "{:?}",
        buffers.headers
    );
    assert_eq!(
        buffers.header("content-length"),
        buffers.body.len().to_string()
    );
    assert_eq!(buffers.header("accept-ranges"), "none");
    let etag = buffers.header("etag").to_owned();
    assert!(etag.contains("-arrow-zstd-buffers-"), "{etag}");
    let compressions = batch_compressions(&buffers.body);
    assert_eq!(compressions.len(), batch_compressions(&plain.body).len());
    assert!(
        compressions
            .iter()
            .all(|c| *c == Some(arrow_ipc::CompressionType::ZSTD)),
        "{compressions:?}"
    );
    assert_eq!(rows_of(&decode(&buffers.body)), expected);
    assert!(
        buffers.body.len() * 3 < plain.body.len(),
        "compressed: {} bytes against {} plain",
        buffers.body.len(),
        plain.body.len()
    );
    // Without Accept-Encoding: the same answer.
    let again = get(&server, &url, &[]).await;
    assert_eq!(again.body, buffers.body);
    assert_eq!(again.header("etag"), etag);
    let unchanged = read(&server, &url, &[("if-none-match", &etag)]).await;
    assert_eq!(unchanged.status, 304);
    assert!(unchanged.body.is_empty());

    // Each compressed encoding cached once, beside the other.
    let files = cached_files(&site.data_dir());
    assert_eq!(
        files.iter().filter(|f| f.ends_with(".zstd.arrows")).count(),
        1,
        "{files:?}"
    );
    assert_eq!(
        files.iter().filter(|f| f.ends_with(".arrows.zst")).count(),
        1,
        "{files:?}"
    );

    // compression= is for the Arrow answer, and is zstd.
    for bad in [
        format!("{base}&compression=lz4"),
        "/v1/namespaces/arrow/datasets/rows/content?format=parquet&compression=zstd".to_owned(),
        "/v1/namespaces/arrow/datasets/rows/content?format=csv&compression=zstd".to_owned(),
    ] {
        let refused = read(&server, &bad, &[]).await;
        assert_eq!(refused.status, 400, "{bad}: {}", refused.text());
        assert_eq!(refused.json()["code"], "request.invalid", "{bad}");
        assert_eq!(refused.json()["field"], "compression", "{bad}");
        assert!(refused.text().contains("compression"), "{}", refused.text());
    }
}
