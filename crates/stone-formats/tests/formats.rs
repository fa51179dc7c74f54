//! CSV/TSV conversion and schema checks, read back with the parquet reader; RDF validation.

use std::fs;
use std::path::Path;

use arrow_array::{Array, Float64Array, Int64Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use stone_formats::{CsvOptions, FormatError, csv_to_parquet};
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

#[cfg(not(feature = "rdf"))]
#[test]
fn without_the_rdf_feature_graphs_name_the_feature() {
    let err = stone_formats::rdf::validate_rdf(Path::new("g.ttl"), Format::Turtle).unwrap_err();
    assert!(matches!(err, FormatError::RdfNotBuilt { .. }));
    assert!(err.hint().unwrap().contains("--features rdf"));
}
