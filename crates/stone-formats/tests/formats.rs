//! CSV/TSV conversion and schema checks, read back with the parquet reader; RDF validation.

use std::fs;
use std::path::Path;

use arrow_array::{Array, Float64Array, Int64Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use stone_formats::{CsvOptions, FormatError, Tuning, csv_to_parquet, csv_to_parquet_tuned};
use stone_package::descriptor::TableSchema;
use stone_package::{Dialect, Format};

fn schema(yaml_fields: &[(&str, &str)]) -> TableSchema {
    let fields: Vec<serde_json::Value> = yaml_fields
        .iter()
        .map(|(n, t)| serde_json::json!({"name": n, "type": t}))
        .collect();
    serde_json::from_value(serde_json::json!({ "fields": fields })).unwrap()
}

fn read_back(path: &Path) -> Vec<arrow_array::RecordBatch> {
    let file = fs::File::open(path).unwrap();
    ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn csv_with_inferred_and_declared_types() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("cities.csv");
    fs::write(
        &src,
        "city,code,population,area\nParis,075,2102650,105.4\nLyon,069,,47.87\n",
    )
    .unwrap();
    let dst = dir.path().join("cities.parquet");
    let declared = schema(&[("code", "string")]);
    let options = CsvOptions::new(&src, Format::Csv, None).unwrap();
    let conversion = csv_to_parquet(&src, &dst, &options, Some(&declared), &|_| {}).unwrap();
    assert_eq!(conversion.rows, 2);
    let types: Vec<(String, String)> = conversion
        .columns
        .iter()
        .map(|c| (c.name.clone(), c.data_type.clone()))
        .collect();
    assert_eq!(
        types,
        [
            ("city".into(), "Utf8".into()),
            ("code".into(), "Utf8".into()),
            ("population".into(), "Int64".into()),
            ("area".into(), "Float64".into())
        ]
    );
    let batches = read_back(&dst);
    let b = &batches[0];
    let code = b.column(1).as_any().downcast_ref::<StringArray>().unwrap();
    assert_eq!(code.value(0), "075", "declared string keeps leading zeros");
    let population = b.column(2).as_any().downcast_ref::<Int64Array>().unwrap();
    assert_eq!(population.value(0), 2102650);
    assert!(population.is_null(1), "empty is null");
    let area = b.column(3).as_any().downcast_ref::<Float64Array>().unwrap();
    assert_eq!(area.value(1), 47.87);
    let magic = fs::read(&dst).unwrap();
    assert_eq!(&magic[..4], b"PAR1");
}

#[test]
fn tsv_and_dialects() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("t.tsv");
    fs::write(&src, "a\tb\n1\tNA\n2\tx\n").unwrap();
    let dialect = Dialect {
        null_sequence: Some("NA".into()),
        ..Dialect::default()
    };
    let options = CsvOptions::new(&src, Format::Tsv, Some(&dialect)).unwrap();
    assert_eq!(options.delimiter, b'\t');
    let dst = dir.path().join("t.parquet");
    csv_to_parquet(&src, &dst, &options, None, &|_| {}).unwrap();
    let b = &read_back(&dst)[0];
    assert!(b.column(1).is_null(0));

    let src = dir.path().join("semi.csv");
    fs::write(&src, "x;y\n1;'a;b'\n").unwrap();
    let dialect = Dialect {
        delimiter: Some(';'),
        quote_char: Some('\''),
        ..Dialect::default()
    };
    let options = CsvOptions::new(&src, Format::Csv, Some(&dialect)).unwrap();
    csv_to_parquet(&src, &dst, &options, None, &|_| {}).unwrap();
    let b = &read_back(&dst)[0];
    assert_eq!(
        b.column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap()
            .value(0),
        "a;b"
    );
}

#[test]
fn schema_errors_name_the_column_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("a.csv");
    fs::write(&src, "x,y\n1,a\n2,b\n").unwrap();
    let dst = dir.path().join("a.parquet");
    let options = CsvOptions::new(&src, Format::Csv, None).unwrap();

    let err = csv_to_parquet(
        &src,
        &dst,
        &options,
        Some(&schema(&[("z", "integer")])),
        &|_| {},
    )
    .unwrap_err();
    assert!(
        matches!(&err, FormatError::MissingColumn { column, .. } if column == "z"),
        "{err}"
    );

    let err = csv_to_parquet(
        &src,
        &dst,
        &options,
        Some(&schema(&[("y", "integer")])),
        &|_| {},
    )
    .unwrap_err();
    assert!(matches!(err, FormatError::Csv { .. }), "{err}");
    assert!(err.to_string().contains("'a'"), "names the value: {err}");
    assert!(!dst.exists(), "no output on failure");
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
}

#[test]
fn parquet_schema_check() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("a.csv");
    fs::write(&src, "x,y\n1,a\n").unwrap();
    let pq = dir.path().join("a.parquet");
    csv_to_parquet(
        &src,
        &pq,
        &CsvOptions::new(&src, Format::Csv, None).unwrap(),
        None,
        &|_| {},
    )
    .unwrap();
    assert!(
        stone_formats::check_parquet_schema(&pq, &schema(&[("x", "integer"), ("y", "string")]))
            .is_ok()
    );
    let err = stone_formats::check_parquet_schema(&pq, &schema(&[("y", "number")])).unwrap_err();
    assert!(
        matches!(&err, FormatError::SchemaMismatch { column, expected, found, .. } if column == "y" && expected == "number" && found == "Utf8"),
        "{err}"
    );
}

/// A CSV that exercises record ends: quoted fields with line ends, doubled quotes and
/// delimiters inside, a quote inside an unquoted field, CRLF and LF line ends, empty values.
fn tricky_csv(rows: usize, comments: bool) -> String {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut csv = String::from("id,name,note,value,day\n");
    for i in 0..rows {
        let r = next();
        let note = match r % 6 {
            0 => format!("\"line one\nline {i}\""),
            1 => format!("\"say \"\"hi\"\", {i}\""),
            2 => format!("12\" pizza {i}"),
            3 => String::new(),
            4 => format!("\"a,b\r\nc {}\"", r % 97),
            _ => format!("plain {}", r % 1000),
        };
        let value = if r % 11 == 0 {
            String::new()
        } else {
            format!("{}.{}", r % 100_000, r % 7)
        };
        let end = if r % 3 == 0 { "\r\n" } else { "\n" };
        if comments && i % 97 == 0 {
            // Quotes a comment or an escape takes away from the quoting.
            csv.push_str("#x,\"open\n");
            csv.push_str(&format!("{i},n,\"esc \\\" q,\nx\",1.5,2024-01-01\n"));
        }
        csv.push_str(&format!(
            "{i},n{},{note},{value},2024-{:02}-{:02}{end}",
            r % 50,
            r % 12 + 1,
            r % 28 + 1
        ));
    }
    csv
}

/// Batches as CSV text: the same rows give the same text whatever the batch sizes.
fn as_text(batches: &[arrow_array::RecordBatch]) -> String {
    let mut out = Vec::new();
    {
        let mut writer = arrow_csv::Writer::new(&mut out);
        for b in batches {
            writer.write(b).unwrap();
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn chunked_conversion_has_the_rows_of_one_reader_and_the_same_bytes_every_run() {
    chunked_conversion_matches_one_reader(None);
}

#[test]
fn chunked_conversion_with_comments_and_escapes_matches_one_reader() {
    // Another way of finding record ends (csv-core itself) for these dialects.
    chunked_conversion_matches_one_reader(Some(Dialect {
        comment_char: Some('#'),
        escape_char: Some('\\'),
        ..Dialect::default()
    }));
}

fn chunked_conversion_matches_one_reader(dialect: Option<Dialect>) {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("big.csv");
    fs::write(&src, tricky_csv(60_000, dialect.is_some())).unwrap();
    let rows = if dialect.is_some() {
        60_000 + 619
    } else {
        60_000
    };
    let options = CsvOptions::new(&src, Format::Csv, dialect.as_ref()).unwrap();
    let small = |workers| Tuning {
        workers,
        chunk_bytes: 4 << 10,
    };
    let mut outputs = Vec::new();
    for (name, tuning) in [
        ("one.parquet", small(1)),
        ("three.parquet", small(3)),
        ("again.parquet", small(3)),
    ] {
        let dst = dir.path().join(name);
        let conversion = csv_to_parquet_tuned(&src, &dst, &options, None, &|_| {}, tuning).unwrap();
        assert_eq!(conversion.rows, rows);
        outputs.push(fs::read(&dst).unwrap());
    }
    assert!(
        outputs[0] == outputs[1],
        "1 and 3 workers write the same bytes"
    );
    assert!(outputs[1] == outputs[2], "two runs write the same bytes");

    let dst = dir.path().join("one.parquet");
    let builder = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&dst).unwrap()).unwrap();
    let metadata = builder.metadata().clone();
    assert!(
        metadata.num_row_groups() > 10,
        "one row group per chunk: {}",
        metadata.num_row_groups()
    );
    for rg in metadata.row_groups() {
        for column in rg.columns() {
            assert!(
                column.statistics().is_some(),
                "statistics in every column chunk"
            );
        }
    }
    // The reference: the whole file through one arrow-csv reader, with the same schema.
    let schema = builder.schema().clone();
    let mut reference = arrow_csv::ReaderBuilder::new(schema).with_header(true);
    if dialect.is_some() {
        reference = reference.with_comment(b'#').with_escape(b'\\');
    }
    let reference: Vec<_> = reference
        .build(fs::File::open(&src).unwrap())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let converted = read_back(&dst);
    let (expected, got) = (as_text(&reference), as_text(&converted));
    assert_eq!(expected.len(), got.len());
    assert!(
        expected == got,
        "the same rows as one reader over the whole file"
    );
    assert!(got.contains("\"say \"\"hi\"\", 1"), "quotes kept");
}

#[test]
fn errors_in_later_chunks_name_the_line_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.csv");
    let mut csv = String::from("n,t\n");
    for i in 0..20_000 {
        csv.push_str(&format!("{i},row {i}\n"));
    }
    csv.push_str("oops,bad\n1,x\n");
    fs::write(&src, csv).unwrap();
    let options = CsvOptions::new(&src, Format::Csv, None).unwrap();
    let declared = schema(&[("n", "integer")]);
    let dst = dir.path().join("bad.parquet");
    let mut messages = Vec::new();
    for chunk_bytes in [4 << 10, 64 << 20] {
        let tuning = Tuning {
            workers: 2,
            chunk_bytes,
        };
        let err = csv_to_parquet_tuned(&src, &dst, &options, Some(&declared), &|_| {}, tuning)
            .unwrap_err();
        assert!(matches!(err, FormatError::Csv { .. }), "{err}");
        messages.push(err.to_string());
    }
    // Line 1 is the header: `oops` is on line 20,002.
    assert!(messages[0].contains("line 20002"), "{}", messages[0]);
    assert_eq!(messages[0], messages[1]);
    assert!(!dst.exists());
}

#[cfg(feature = "rdf")]
#[test]
fn rdf_validation_counts_and_locates_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ttl = dir.path().join("g.ttl");
    fs::write(
        &ttl,
        "@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:a ex:b \"d\" .\n",
    )
    .unwrap();
    assert_eq!(
        stone_formats::rdf::validate_rdf(&ttl, Format::Turtle)
            .unwrap()
            .statements,
        2
    );
    fs::write(
        &ttl,
        "@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:a ex:b .\n",
    )
    .unwrap();
    let err = stone_formats::rdf::validate_rdf(&ttl, Format::Turtle).unwrap_err();
    assert!(matches!(err, FormatError::Rdf { line: 3, .. }), "{err}");
    let nt = dir.path().join("g.nt");
    fs::write(&nt, "<http://e/a> <http://e/b> \"x\" .\n").unwrap();
    assert_eq!(
        stone_formats::rdf::validate_rdf(&nt, Format::NTriples)
            .unwrap()
            .statements,
        1
    );
    let jsonld = dir.path().join("g.jsonld");
    fs::write(&jsonld, r#"{"@id": "http://e/a", "http://e/b": "x"}"#).unwrap();
    assert_eq!(
        stone_formats::rdf::validate_rdf(&jsonld, Format::JsonLd)
            .unwrap()
            .statements,
        1
    );
}

/// A large N-Triples file is parsed in parts, one per core (more than 8 MiB): the count
/// is the whole file's, and an error names its line in the whole file, not in its part.
#[cfg(feature = "rdf")]
#[test]
fn large_ntriples_validation_counts_all_parts_and_locates_errors_in_the_file() {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let nt = dir.path().join("big.nt");
    let lines = 200_000;
    let mut text = String::new();
    for i in 0..lines {
        writeln!(
            text,
            "<http://example.org/r{i}> <http://example.org/label> \"a label long enough to pass eight MiB {i}\" ."
        )
        .unwrap();
    }
    assert!(text.len() > 9 << 20, "{}", text.len());
    fs::write(&nt, &text).unwrap();
    let check = stone_formats::rdf::validate_rdf(&nt, Format::NTriples).unwrap();
    assert_eq!(check.statements, lines);
    // A broken statement in the last part of the file.
    let bad_line: u64 = 180_001;
    let broken: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i as u64 + 1 == bad_line {
                "<http://example.org/x> <http://example.org/p> .\n".to_owned()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    fs::write(&nt, broken).unwrap();
    let err = stone_formats::rdf::validate_rdf(&nt, Format::NTriples).unwrap_err();
    assert!(
        matches!(err, FormatError::Rdf { line, .. } if line == bad_line),
        "{err}"
    );
}

/// A validation whose stop flag is set gives up without an answer, small or large file.
#[cfg(feature = "rdf")]
#[test]
fn a_stopped_validation_gives_no_answer() {
    use std::sync::atomic::AtomicBool;
    let dir = tempfile::tempdir().unwrap();
    let line = "<http://example.org/s> <http://example.org/p> \"a label of some length\" .\n";
    for (name, lines, format) in [
        ("big.nt", 200_000, Format::NTriples),
        ("small.nt", 10_000, Format::NTriples),
        ("g.ttl", 10_000, Format::Turtle),
    ] {
        let path = dir.path().join(name);
        fs::write(&path, line.repeat(lines)).unwrap();
        let stopped = stone_formats::rdf::validate_rdf_until(&path, format, &AtomicBool::new(true));
        assert!(matches!(stopped, Ok(None)), "{name}: {stopped:?}");
        let done = stone_formats::rdf::validate_rdf_until(&path, format, &AtomicBool::new(false));
        assert!(
            matches!(done, Ok(Some(check)) if check.statements == lines as u64),
            "{name}: {done:?}"
        );
    }
}

#[cfg(not(feature = "rdf"))]
#[test]
fn without_the_rdf_feature_graphs_name_the_feature() {
    let err = stone_formats::rdf::validate_rdf(Path::new("g.ttl"), Format::Turtle).unwrap_err();
    assert!(matches!(err, FormatError::RdfNotBuilt { .. }));
    assert!(err.hint().unwrap().contains("--features rdf"));
}

/// Converts `body` as a CSV read with `dialect`: the error, if any.
fn convert_csv(body: &[u8], dialect: Option<Dialect>) -> Result<(), FormatError> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("t.csv");
    fs::write(&src, body).unwrap();
    let options = CsvOptions::new(&src, Format::Csv, dialect.as_ref()).unwrap();
    csv_to_parquet(&src, &dir.path().join("t.parquet"), &options, None, &|_| {}).map(drop)
}

#[test]
fn a_header_without_a_name_of_its_own_is_refused_naming_line_and_column() {
    for (body, says) in [
        (
            &b"a,b,a\n1,2,3\n"[..],
            "line 1, column 5: the header's field 3 repeats the column name `a` of field 1",
        ),
        (
            b"a,,c\n1,2,3\n",
            "line 1, column 3: the header's field 2 names no column: its name is empty",
        ),
        (
            b"\xef\xbb\xbfa,\t\n1,2\n",
            "line 1, column 4: the header's field 2 names no column: its name is only whitespace",
        ),
        (
            b"\n\n\"x\",\"x\"\n1,2\n",
            "line 3, column 5: the header's field 2 repeats",
        ),
    ] {
        let error = convert_csv(body, None).unwrap_err();
        assert_eq!(error.code(), "format.column_name", "{error}");
        assert!(error.to_string().contains(says), "{error}");
    }
    // Without a header, the names are the declared ones (or column_N): not checked here.
    let no_header = Dialect {
        header: Some(false),
        ..Dialect::default()
    };
    convert_csv(b"a,a\n1,2\n", Some(no_header)).unwrap();
}

#[test]
fn a_delimiter_the_content_disagrees_with_is_refused_unless_declared() {
    let error = convert_csv(b"a;b;c\n1;2;3\n4;\"5;6\";7\n", None).unwrap_err();
    assert_eq!(error.code(), "format.dialect", "{error}");
    assert!(
        error
            .to_string()
            .contains("every line splits on `;` into 3 fields"),
        "{error}"
    );
    assert!(
        error
            .hint()
            .unwrap()
            .contains("dialect: {delimiter: \";\"}")
    );
    let error = convert_csv(b"a\tb\n1\t2\n", None).unwrap_err();
    assert!(
        error
            .hint()
            .unwrap()
            .contains("dialect: {delimiter: \"\\t\"}"),
        "{:?}",
        error.hint()
    );
    // Lines that disagree, one column holding a `;` here and there, a declared delimiter:
    // read as they are.
    convert_csv(b"a;b\n1;2;3\n", None).unwrap();
    convert_csv(b"note\na;b\nplain\n", None).unwrap();
    let comma = Dialect {
        delimiter: Some(','),
        ..Dialect::default()
    };
    convert_csv(b"a;b\n1;2\n", Some(comma)).unwrap();
    let semicolon = Dialect {
        delimiter: Some(';'),
        ..Dialect::default()
    };
    convert_csv(b"a;b\n1;2\n", Some(semicolon)).unwrap();
}
