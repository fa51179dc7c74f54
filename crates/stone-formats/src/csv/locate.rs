//! Where in the input a record or field that arrow-csv refuses starts.
//!
//! arrow-csv's errors count records (not lines: a quoted field may span several) and name
//! fields by index. Here csv-core reads the input field by field, configured as arrow-csv
//! configures it, which gives the byte offset where each field starts; the caller turns an
//! offset into a line and a character column (`super::position`). The shape of a record
//! (its field count, UTF-8) is checked here directly, with arrow-csv's rules; a value that
//! does not parse as its column's type is found from arrow-csv's message (record and
//! column index).

use arrow_schema::Schema;

use super::CsvOptions;

const BOM: &[u8] = b"\xef\xbb\xbf";

/// A field of a record: where it starts in the input (its opening quote, if quoted) and
/// whether its (unescaped) bytes are UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    pub start: usize,
    pub utf8: bool,
}

/// A record as csv-core reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    pub fields: Vec<Field>,
    /// Where its line ends: its record terminator, or the end of the input.
    pub end: usize,
}

/// The records of an input that starts at a record start, as arrow-csv's parser reads them
/// (csv-core with the dialect's characters and the default terminator; line ends and comment
/// lines between records are skipped).
pub(crate) struct Records<'a> {
    data: &'a [u8],
    pos: usize,
    reader: csv_core::Reader,
    comment: Option<u8>,
    output: Vec<u8>,
    done: bool,
}

impl<'a> Records<'a> {
    pub(crate) fn new(data: &'a [u8], options: &CsvOptions) -> Records<'a> {
        let mut builder = csv_core::ReaderBuilder::new();
        builder
            .escape(options.escape)
            .comment(options.comment)
            .delimiter(options.delimiter)
            .quote(options.quote.unwrap_or(b'"'));
        Records {
            data,
            pos: 0,
            reader: builder.build(),
            comment: options.comment,
            output: vec![0; 4096],
            done: false,
        }
    }

    /// Where the next field starts if it is the first of a record: after the line ends and
    /// comment lines csv-core skips there (and a byte order mark at the very start).
    fn record_start(&self) -> usize {
        let mut at = self.pos;
        if at == 0 && self.data.starts_with(BOM) {
            at = BOM.len();
        }
        loop {
            match self.data.get(at) {
                Some(b'\r' | b'\n') => at += 1,
                Some(c) if Some(*c) == self.comment => {
                    at = memchr::memchr(b'\n', &self.data[at..])
                        .map_or(self.data.len(), |i| at + i + 1);
                }
                _ => return at,
            }
        }
    }
}

impl Iterator for Records<'_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        if self.done {
            return None;
        }
        let mut fields = Vec::new();
        let mut start = self.record_start();
        let mut written = 0;
        loop {
            let input = &self.data[self.pos..];
            let (result, read, wrote) = self.reader.read_field(input, &mut self.output[written..]);
            self.pos += read;
            written += wrote;
            match result {
                csv_core::ReadFieldResult::InputEmpty => {
                    // An empty input tells csv-core the input ended; it cannot ask for more.
                    if input.is_empty() {
                        self.done = true;
                        return None;
                    }
                }
                csv_core::ReadFieldResult::OutputFull => {
                    let grown = self.output.len() * 2;
                    self.output.resize(grown, 0);
                }
                csv_core::ReadFieldResult::Field { record_end } => {
                    fields.push(Field {
                        start,
                        utf8: std::str::from_utf8(&self.output[..written]).is_ok(),
                    });
                    written = 0;
                    if record_end {
                        // The terminator that ended the record, if csv-core took it already.
                        let mut end = self.pos;
                        while end > start && matches!(self.data[end - 1], b'\r' | b'\n') {
                            end -= 1;
                        }
                        return Some(Record { fields, end });
                    }
                    start = self.pos;
                }
                csv_core::ReadFieldResult::End => {
                    self.done = true;
                    return None;
                }
            }
        }
    }
}

/// What is wrong at a byte of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fault {
    pub offset: usize,
    pub message: String,
}

/// What arrow-csv refuses in the shape of `record`: a field count other than `expected`
/// (pointing at the first field too many, or at the end of a line that ends early), or a
/// field that is not UTF-8 (pointing at its start). `names` names the columns, if known.
pub(crate) fn shape_fault(
    record: &Record,
    expected: usize,
    names: Option<&Schema>,
) -> Option<Fault> {
    let found = record.fields.len();
    if found > expected {
        return Some(Fault {
            offset: record.fields[expected].start,
            message: format!(
                "the record has {found} fields, more than the table's {expected} columns: \
                 field {} starts here",
                expected + 1
            ),
        });
    }
    if found < expected {
        return Some(Fault {
            offset: record.end,
            message: format!(
                "the record ends here after {found} field{}; the table has {expected} columns",
                if found == 1 { "" } else { "s" }
            ),
        });
    }
    let (index, field) = record.fields.iter().enumerate().find(|(_, f)| !f.utf8)?;
    let name = names
        .and_then(|schema| schema.fields().get(index))
        .map(|f| format!(" (column `{}`)", f.name()))
        .unwrap_or_default();
    Some(Fault {
        offset: field.start,
        message: format!("field {}{name} is not valid UTF-8", index + 1),
    })
}

/// The first record of `data` (a run of whole records) whose shape arrow-csv refuses.
pub(crate) fn first_shape_fault(
    data: &[u8],
    options: &CsvOptions,
    expected: usize,
    names: Option<&Schema>,
) -> Option<Fault> {
    Records::new(data, options).find_map(|record| shape_fault(&record, expected, names))
}

/// Where the value of arrow-csv's `message` ("… for column C at line R …" or "Error parsing
/// column C at line R: …", R counting the records of `data` from 0) starts, and the message
/// said with the column's name instead of its index and position.
pub(crate) fn value_fault(
    data: &[u8],
    options: &CsvOptions,
    message: &str,
    schema: &Schema,
) -> Option<Fault> {
    let (what, column, record) = parse_value_error(message)?;
    let found = Records::new(data, options).nth(record)?;
    let field = found.fields.get(column)?;
    let name = schema.fields().get(column)?.name();
    Some(Fault {
        offset: field.start,
        message: format!("{what} in column `{name}`"),
    })
}

/// arrow-csv's value errors: what failed, the column index and the record index.
fn parse_value_error(message: &str) -> Option<(String, usize, usize)> {
    let message = message.strip_prefix("Parser error: ").unwrap_or(message);
    let message = message.split(". Row data:").next().unwrap_or(message);
    // "Error while parsing value '…' as type 'T' for column C at line R"; the value may
    // itself hold those words, so the last occurrence counts.
    if let Some(at) = message.rfind(" for column ") {
        let mut words = message[at + " for column ".len()..].split_whitespace();
        let column = words.next()?.parse().ok()?;
        (words.next()? == "at" && words.next()? == "line").then_some(())?;
        let record = words
            .next()?
            .trim_end_matches(['.', ',', ':'])
            .parse()
            .ok()?;
        return Some((message[..at].to_owned(), column, record));
    }
    // "Error parsing column C at line R: reason" (timestamps).
    let rest = message.strip_prefix("Error parsing column ")?;
    let mut words = rest.splitn(4, ' ');
    let column = words.next()?.parse().ok()?;
    (words.next()? == "at" && words.next()? == "line").then_some(())?;
    let tail = words.next()?;
    let (record, reason) = tail.split_once(": ").unwrap_or((tail, ""));
    let record = record.parse().ok()?;
    Some((format!("cannot parse the value: {reason}"), column, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stone_package::Format;

    fn options(comment: Option<u8>, escape: Option<u8>) -> CsvOptions {
        let mut options =
            CsvOptions::new(std::path::Path::new("t.csv"), Format::Csv, None).unwrap();
        options.comment = comment;
        options.escape = escape;
        options
    }

    fn starts(data: &[u8], options: &CsvOptions) -> Vec<(Vec<usize>, usize)> {
        Records::new(data, options)
            .map(|r| (r.fields.iter().map(|f| f.start).collect(), r.end))
            .collect()
    }

    #[test]
    fn field_starts_are_where_csv_core_starts_each_field() {
        let plain = options(None, None);
        assert_eq!(
            starts(b"a,bb\r\n\n\"x\ny\",\n1,2", &plain),
            vec![(vec![0, 2], 4), (vec![7, 13], 13), (vec![14, 16], 17)]
        );
        // A byte order mark, comment lines and an escape character.
        assert_eq!(
            starts(
                b"\xef\xbb\xbfa,b\n#c,d\n\"1\\\"\",2\n",
                &options(Some(b'#'), Some(b'\\'))
            ),
            vec![(vec![3, 5], 6), (vec![12, 18], 19)]
        );
        // The records are csv-core's, whatever the dialect.
        for data in [
            &b"a,\"b\nc\",d\n\n1,2\r3,4\r\n"[..],
            b"x\"y,\"q\nq\"\n\"\",b",
            b"\n\n,\n",
        ] {
            let builder = csv_core::ReaderBuilder::new();
            let mut reader = builder.build();
            let (mut out, mut ends) = ([0u8; 256], [0usize; 64]);
            let (mut counts, mut fields) = (Vec::new(), 0);
            let mut input = data;
            loop {
                // `n` counts the fields ended by this call only.
                let (result, read, _, n) = reader.read_record(input, &mut out, &mut ends);
                input = &input[read..];
                fields += n;
                match result {
                    csv_core::ReadRecordResult::Record => counts.push(std::mem::take(&mut fields)),
                    csv_core::ReadRecordResult::End => break,
                    _ => {}
                }
            }
            let ours: Vec<usize> = Records::new(data, &plain).map(|r| r.fields.len()).collect();
            assert_eq!(ours, counts, "{:?}", String::from_utf8_lossy(data));
        }
    }

    #[test]
    fn shape_faults_point_at_the_extra_field_the_early_line_end_or_the_bad_field() {
        let plain = options(None, None);
        let fault = first_shape_fault(b"a,b\n1,2\n3,4,55\n", &plain, 2, None).unwrap();
        assert_eq!(fault.offset, 12);
        assert!(fault.message.contains("3 fields"), "{}", fault.message);
        let fault = first_shape_fault(b"a,b\n1,2\n3\n", &plain, 2, None).unwrap();
        assert_eq!(fault.offset, 9);
        let fault = first_shape_fault(b"a,b\n1,\"x\xff\"\n", &plain, 2, None).unwrap();
        assert_eq!(
            (fault.offset, fault.message.as_str()),
            (6, "field 2 is not valid UTF-8")
        );
        assert_eq!(
            first_shape_fault(b"a,b\n1,\"x\n,\"\n", &plain, 2, None),
            None
        );
    }

    #[test]
    fn arrow_value_errors_are_read_for_their_column_and_record() {
        assert_eq!(
            parse_value_error(
                "Parser error: Error while parsing value 'x for column 9 at line 9' as type 'Int64' for column 1 at line 2. Row data: '[…]'"
            ),
            Some((
                "Error while parsing value 'x for column 9 at line 9' as type 'Int64'".into(),
                1,
                2
            ))
        );
        assert_eq!(
            parse_value_error("Parser error: Error parsing column 0 at line 7: bad timestamp"),
            Some(("cannot parse the value: bad timestamp".into(), 0, 7))
        );
        assert_eq!(parse_value_error("something else"), None);
    }

    /// The error of converting `csv` (declared `types`), at two chunk sizes (the records
    /// past the inferred ones are read in chunks); both must say the same.
    fn conversion_error(csv: &[u8], types: &[(&str, &str)]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("t.csv");
        std::fs::write(&src, csv).unwrap();
        let options = CsvOptions::new(&src, Format::Csv, None).unwrap();
        let fields: Vec<serde_json::Value> = types
            .iter()
            .map(|(n, t)| serde_json::json!({"name": n, "type": t}))
            .collect();
        let declared: stone_package::descriptor::TableSchema =
            serde_json::from_value(serde_json::json!({ "fields": fields })).unwrap();
        let declared = (!types.is_empty()).then_some(&declared);
        let mut messages = Vec::new();
        for chunk_bytes in [4 << 10, 64 << 20] {
            let tuning = crate::csv::Tuning {
                workers: 2,
                chunk_bytes,
            };
            let dst = dir.path().join("t.parquet");
            let err =
                crate::csv::csv_to_parquet_tuned(&src, &dst, &options, declared, &|_| {}, tuning)
                    .unwrap_err();
            assert!(matches!(err, crate::FormatError::Csv { .. }), "{err}");
            assert!(!dst.exists());
            messages.push(err.to_string().replace(&src.display().to_string(), "t.csv"));
        }
        assert_eq!(messages[0], messages[1]);
        messages.remove(0)
    }

    /// `count` plain records (`i,row i`) after a header `id,name` and a record whose quoted
    /// field spans two lines: records and lines differ by one from there on.
    fn table(count: usize) -> Vec<u8> {
        let mut csv = b"id,name\n0,\"two\nlines\"\n".to_vec();
        for i in 1..count {
            csv.extend_from_slice(format!("{i},row {i}\n").as_bytes());
        }
        csv
    }

    #[test]
    fn every_error_of_a_table_names_its_line_and_column() {
        // The file, its declared column types, the start of the error.
        type Case = (
            &'static [u8],
            &'static [(&'static str, &'static str)],
            &'static str,
        );
        let cases: [Case; 5] = [
            (
                b"id,name\n1,\"a\nb\"\n2,\xc3\xa9,x\n",
                &[],
                "line 4, column 5: the record has 3 fields",
            ),
            (
                b"id,name\n1,a\n2\n",
                &[],
                "line 3, column 2: the record ends here after 1 field;",
            ),
            (
                b"id,name\n1,a\n2,\xff\n",
                &[],
                "line 3, column 3: field 2 is not valid UTF-8",
            ),
            (
                b"name,id\n\"multi\nline\",1\n\xc3\xa9,zz\n",
                &[("id", "integer")],
                "line 4, column 3: Error while parsing value 'zz' as type 'Int64' in column `id`",
            ),
            (
                b"name,when\na,2024-01-01T00:00:00\n\xc3\xa9,soon\n",
                &[("when", "datetime")],
                "line 3, column 3: cannot parse the value",
            ),
        ];
        for (csv, types, expected) in cases {
            let message = conversion_error(csv, types);
            assert!(
                message.starts_with(&format!("t.csv: {expected}")),
                "{message}"
            );
        }
    }

    #[test]
    fn errors_past_the_inferred_records_name_their_line_and_column() {
        // Past the records read for type inference, the conversion itself finds them.
        let past = crate::csv::INFER_RECORDS + 10;
        // The line of record `past`: the header, two lines of record 0, then record i on
        // line i + 3.
        let line = past + 3;
        let mut ragged_later = b"\xc3\xa9\xc3\xa9,x\n".to_vec();
        ragged_later.extend(b"8,after\n".repeat(20_000));
        ragged_later.extend_from_slice(b"9,a,b\n");
        for (tail, expected) in [
            (
                &b"7,x,y\n"[..],
                format!("line {line}, column 5: the record has 3 fields"),
            ),
            (
                b"7\n",
                format!("line {line}, column 2: the record ends here after 1 field"),
            ),
            (
                b"7,\"\xff\"\n",
                format!("line {line}, column 3: field 2 (column `name`) is not valid UTF-8"),
            ),
            (
                b"\xc3\xa9\xc3\xa9,x\n",
                format!(
                    "line {line}, column 1: Error while parsing value '\u{e9}\u{e9}' as type 'Int64' in column `id`"
                ),
            ),
            // The value arrow-csv met, not a ragged record a batch (16,384 records) later.
            (
                &ragged_later[..],
                format!("line {line}, column 1: Error while parsing value '\u{e9}\u{e9}'"),
            ),
        ] {
            let mut csv = table(past);
            csv.extend_from_slice(tail);
            csv.extend_from_slice(b"8,after\n");
            let message = conversion_error(&csv, &[]);
            assert!(
                message.starts_with(&format!("t.csv: {expected}")),
                "{message}"
            );
        }
    }
}
