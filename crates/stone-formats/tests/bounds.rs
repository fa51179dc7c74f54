//! Parser limits: a hostile Parquet footer or CSV file is refused with an error that names
//! the file, the place and the limit, before it is parsed; nothing takes the process down.

use std::fs;

use stone_formats::footer::{ParquetLimits, check_parquet_footer};
use stone_formats::{CsvOptions, FormatError, Tuning, csv_to_parquet, csv_to_parquet_tuned};
use stone_package::Format;
use stone_test::fixture::nested_parquet;

#[test]
fn a_parquet_schema_nested_20000_deep_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.parquet");
    fs::write(&path, nested_parquet(20_000)).unwrap();
    // Before the fix, the parquet crate's recursion overflowed the stack here: the test
    // process aborted.
    let err = stone_formats::parquet_columns(&path).unwrap_err();
    assert_eq!(err.code(), "format.limit_exceeded", "{err}");
    let message = err.to_string();
    assert!(
        message.contains("deep.parquet"),
        "names the file: {message}"
    );
    assert!(
        message.contains("schema nesting levels") && message.contains("64"),
        "names the limit: {message}"
    );
    assert!(err.hint().is_some(), "says what to do");
}

#[test]
fn a_parquet_footer_within_the_limits_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested.parquet");
    fs::write(&path, nested_parquet(3)).unwrap();
    let shape = check_parquet_footer(&path, &ParquetLimits::default()).unwrap();
    assert_eq!((shape.depth, shape.columns), (4, 1));
    let columns = stone_formats::parquet_columns(&path).unwrap();
    assert_eq!(columns.len(), 1, "{columns:?}");
}

/// A Parquet file of `footer` (a thrift `FileMetaData`) framed by the magic and its length.
fn framed(footer: &[u8]) -> Vec<u8> {
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(footer);
    file.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    file
}

/// A thrift compact list header of `count` elements of type `kind`.
fn list_header(count: u64, kind: u8) -> Vec<u8> {
    let mut out = vec![0xf0 | kind];
    let mut v = count;
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

#[test]
fn a_footer_declaring_more_elements_than_it_holds_is_refused_before_the_parquet_crate_reserves_them()
 {
    // FileMetaData { 1: version = 1, 2: schema = [{ 4: name = "s" }], 3: num_rows = 0,
    // 4: row_groups = <count> structs, none of them there }. Found by the fuzzer: the
    // parquet crate reserved room for the declared row groups (25 GB) and aborted.
    let schema = [
        &[0x15, 0x02, 0x19][..],
        &list_header(1, 12),
        &[0x48, 0x01, b's', 0x00],
    ]
    .concat();
    for (fields, name, says) in [
        (
            [&[0x19][..], &list_header(263_891_602, 12)].concat(),
            "row groups",
            "declares",
        ),
        (
            [&[0x09, 0x28][..], &list_header(1 << 40, 5)].concat(),
            "a list of i32 in an unknown field 20",
            "declares",
        ),
        (
            vec![0x0b, 0x28, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x55],
            "a map in an unknown field 20",
            "map where Parquet has none",
        ),
        // What the fuzzer wrote: field 4 (row groups) as a double, whose bytes the
        // parquet crate reads as a list header of 260 million row groups.
        (
            vec![0x17, 0xfc, 0x92, 0xd5, 0xea, 0xfd, 0x00, 0x32, 0x00],
            "row groups written as a double",
            "where Parquet has a list",
        ),
        (
            [&[0x19][..], &list_header(2, 5), &[0x02, 0x04]].concat(),
            "row groups written as a list of i32",
            "where Parquet has RowGroup",
        ),
    ] {
        let footer = [&schema[..], &[0x16, 0x00], &fields, &[0x00]].concat();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claims.parquet");
        fs::write(&path, framed(&footer)).unwrap();
        let err = check_parquet_footer(&path, &ParquetLimits::default()).unwrap_err();
        assert_eq!(err.code(), "format.parquet", "{name}: {err}");
        assert!(
            err.to_string().contains(says) && err.to_string().contains("claims.parquet"),
            "{name}: {err}"
        );
        let err = stone_formats::parquet_columns(&path).unwrap_err();
        assert_eq!(err.code(), "format.parquet", "{name}: {err}");
    }
    // The same footer with its one row group there is read past the check.
    let footer = [
        &schema[..],
        &[0x16, 0x00],
        &[0x19][..],
        &list_header(1, 12),
        &[0x19, 0x0c, 0x16, 0x00, 0x16, 0x00, 0x00],
        &[0x00],
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.parquet");
    fs::write(&path, framed(&footer)).unwrap();
    let shape = check_parquet_footer(&path, &ParquetLimits::default()).unwrap();
    assert_eq!(shape.columns, 0);
}

/// FileMetaData { 1: version = 1, 2: schema = [{ 4: name = "s", 5: num_children = 1 },
/// { 1: type = INT32, 3: repetition = REQUIRED, 4: name = "a", <extra> }], 3: num_rows = 0,
/// <rest> } (`rest`: the row groups, field 4, at least): a footer of one column whose
/// element carries the fields `extra`.
fn footer_with(extra: &[u8], rest: &[u8]) -> Vec<u8> {
    [
        &[0x15, 0x02, 0x19][..],
        &list_header(2, 12),
        &[0x48, 0x01, b's', 0x15, 0x02, 0x00],
        &[0x15, 0x02, 0x25, 0x00, 0x18, 0x01, b'a'],
        extra,
        &[0x00, 0x16, 0x00],
        rest,
        &[0x00],
    ]
    .concat()
}

#[test]
fn an_unknown_list_of_booleans_is_skipped_as_the_parquet_crate_skips_it() {
    // The parquet crate (58) skips a list of booleans without reading a byte per element
    // (the compact protocol writes one): the check must walk the same bytes. Found by the
    // fuzzer: a schema element with an unknown field holding a list of six booleans, which
    // the check read as six bytes and the crate as none, so that the crate went on to parse
    // bytes the check had passed over as a list header of hundreds of millions of row
    // groups, reserved room for them and aborted.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bools.parquet");
    // Field 16 (unknown to Parquet): a list of two booleans, written as the crate reads it
    // (no element bytes); then field 18 (unknown): an i32. The crate reads this footer.
    let footer = footer_with(&[0xc9, 0x22, 0x25, 0x04], &[0x19, 0x0c]);
    fs::write(&path, framed(&footer)).unwrap();
    parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&fs::File::open(&path).unwrap())
        .expect("the parquet crate reads the footer");
    let shape = check_parquet_footer(&path, &ParquetLimits::default()).unwrap();
    assert_eq!(shape.columns, 1, "{shape:?}");

    // The fuzzer's file (also in fuzz/corpus/parquet_footer/, replayed by stone-fuzz): its
    // element's field 22 is a list of six booleans; after it the crate reads the footer's
    // field 4 (row groups) from a double's bytes as a list header of 260 million row
    // groups. The check, reading the same bytes, refuses that field.
    #[rustfmt::skip]
    let fuzzed: [u8; 86] = [
        0x50, 0x01, 0x00, 0x00, 0x00, 0x50, 0x41, 0x52, 0x31, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x15, 0x02, 0x19, 0x1c, 0x48, 0x06,
        0x73, 0x63, 0x68, 0x00, 0x65, 0x02, 0x35, 0x36, 0xf9, 0x61, 0x15, 0xec, 0x02, 0x15,
        0x02, 0x00, 0x15, 0x00, 0x17, 0xfc, 0x92, 0xd5, 0xea, 0xfd, 0x00, 0x32, 0x00, 0x18,
        0x02, 0x5a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfd, 0x13, 0x00, 0xfe, 0x16,
        0xe7, 0xfd, 0x89, 0xd6, 0xf9, 0x3d, 0x0c, 0x00, 0x38, 0x00, 0x00, 0x00, 0x50, 0x41,
        0x52, 0x31,
    ];
    fs::write(&path, fuzzed).unwrap();
    let err = check_parquet_footer(&path, &ParquetLimits::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("field 4 of the footer's FileMetaData")
            && err.to_string().contains("where Parquet has a list"),
        "{err}"
    );
}

#[test]
fn a_row_group_of_more_column_chunks_than_the_column_limit_is_refused() {
    // The parquet crate reserves a row group's declared column chunks (hundreds of bytes
    // each) before it reads one: at up to 64 MiB of footer, millions of them. A row group
    // has one chunk per leaf column, so the column limit bounds them.
    let chunk = [0x26, 0x00, 0x00]; // ColumnChunk { 2: file_offset = 0 }
    let row_group = |chunks: u64| {
        let mut bytes = [&[0x19][..], &list_header(chunks, 12)].concat();
        for _ in 0..chunks {
            bytes.extend_from_slice(&chunk);
        }
        bytes.extend_from_slice(&[0x16, 0x00, 0x16, 0x00, 0x00]);
        bytes
    };
    let limits = ParquetLimits {
        max_columns: 4,
        ..ParquetLimits::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chunks.parquet");
    for (chunks, refused) in [(4, false), (5, true)] {
        let rest = [&[0x19][..], &list_header(1, 12), &row_group(chunks)].concat();
        fs::write(&path, framed(&footer_with(&[], &rest))).unwrap();
        let checked = check_parquet_footer(&path, &limits);
        assert_eq!(checked.is_err(), refused, "{chunks} chunks: {checked:?}");
        if let Err(err) = checked {
            assert!(
                err.to_string().contains("more than stone reads (4)"),
                "{err}"
            );
        }
    }
}

#[test]
fn parquet_footer_size_depth_and_columns_each_have_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested.parquet");
    fs::write(&path, nested_parquet(3)).unwrap();
    let defaults = ParquetLimits::default();
    for (limits, what) in [
        (
            ParquetLimits {
                max_footer_bytes: 16,
                ..defaults
            },
            "footer bytes",
        ),
        (
            ParquetLimits {
                max_depth: 3,
                ..defaults
            },
            "schema nesting levels",
        ),
        (
            ParquetLimits {
                max_columns: 0,
                ..defaults
            },
            "columns",
        ),
    ] {
        let err = check_parquet_footer(&path, &limits).unwrap_err();
        assert!(
            matches!(&err, FormatError::Limit { .. }) && err.to_string().contains(what),
            "{what}: {err}"
        );
    }
    // Not Parquet at all: a format error, not a crash.
    let text = dir.path().join("text.parquet");
    fs::write(&text, "a,b\n1,2\n").unwrap();
    let err = check_parquet_footer(&text, &defaults).unwrap_err();
    assert_eq!(err.code(), "format.parquet", "{err}");
}

fn convert(csv: &[u8], max_record_bytes: usize) -> Result<(), FormatError> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("data.csv");
    fs::write(&src, csv).unwrap();
    let mut options = CsvOptions::new(&src, Format::Csv, None).unwrap();
    options.max_record_bytes = max_record_bytes;
    let dst = dir.path().join("data.parquet");
    let result = csv_to_parquet(&src, &dst, &options, None, &|_| {}).map(drop);
    if result.is_err() {
        assert!(!dst.exists(), "no output on failure");
    }
    result
}

#[test]
fn an_unclosed_quote_is_an_error_naming_line_and_column() {
    // Before the fix: one row whose last value held the rest of the file, and exit 0.
    let err = convert(b"id,name\n1,ok\n2,\"never closed\n3,lost\n", 1 << 20).unwrap_err();
    assert_eq!(err.code(), "format.csv", "{err}");
    let message = err.to_string();
    assert!(
        message
            .contains("data.csv: line 3, column 3: a quoted field opens here and is never closed"),
        "{message}"
    );
}

#[test]
fn an_unclosed_quote_is_found_in_every_dialect_and_every_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("data.csv");
    // Past the records read for type inference, in a later chunk.
    let mut csv = String::from("id,name\n");
    for i in 0..150_000 {
        csv.push_str(&format!("{i},\"n{i}\"\n"));
    }
    csv.push_str("150000,\"héllo\n150001,x\n");
    fs::write(&src, &csv).unwrap();
    let dst = dir.path().join("data.parquet");
    let tuning = Tuning {
        workers: 2,
        chunk_bytes: 64 << 10,
    };
    for escape in [None, Some('\\')] {
        let dialect = stone_package::Dialect {
            escape_char: escape,
            ..Default::default()
        };
        let options = CsvOptions::new(&src, Format::Csv, Some(&dialect)).unwrap();
        let err = csv_to_parquet_tuned(&src, &dst, &options, None, &|_| {}, tuning).unwrap_err();
        let message = err.to_string();
        // Without an escape character the quote itself is named; with one (csv-core reads
        // those), the record that holds it.
        let at = if escape.is_none() { 8 } else { 1 };
        assert!(
            message.contains(&format!(
                "line 150002, column {at}: a quoted field opens here"
            )),
            "escape {escape:?}: {message}"
        );
        assert!(!dst.exists());
    }
}

#[test]
fn a_record_longer_than_the_limit_is_refused_naming_its_line() {
    let mut csv = b"id,blob\n1,small\n2,".to_vec();
    csv.extend(std::iter::repeat_n(b'x', 300 << 10));
    csv.extend_from_slice(b"\n3,small\n");
    let err = convert(&csv, 64 << 10).unwrap_err();
    assert_eq!(err.code(), "format.limit_exceeded", "{err}");
    let message = err.to_string();
    assert!(
        message.contains(
            "data.csv: line 3, column 1: the record starting here is longer than 65536 bytes"
        ),
        "{message}"
    );
    // The same record within the limit converts.
    convert(&csv, 1 << 20).unwrap();
}

#[test]
fn a_long_record_past_the_inferred_records_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("data.csv");
    let mut csv = String::from("id,name\n");
    for i in 0..150_000 {
        csv.push_str(&format!("{i},n{i}\n"));
    }
    let mut csv = csv.into_bytes();
    // A quoted value of 2 MiB with line ends in it: one record of many lines.
    csv.extend_from_slice(b"150000,\"");
    for _ in 0..(2 << 20) / 8 {
        csv.extend_from_slice(b"1234567\n");
    }
    csv.extend_from_slice(b"\"\n150001,x\n");
    fs::write(&src, &csv).unwrap();
    let mut options = CsvOptions::new(&src, Format::Csv, None).unwrap();
    options.max_record_bytes = 1 << 20;
    let dst = dir.path().join("data.parquet");
    let tuning = Tuning {
        workers: 2,
        chunk_bytes: 256 << 10,
    };
    let err = csv_to_parquet_tuned(&src, &dst, &options, None, &|_| {}, tuning).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains(
            "line 150002, column 1: the record starting here is longer than 1048576 bytes"
        ),
        "{message}"
    );
}
