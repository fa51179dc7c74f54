//! Checks of a CSV/TSV file's first records, before anything is converted, hashed or sent:
//! the header's column names (none empty, none only whitespace, none twice) and a
//! delimiter that disagrees with the content (a `.csv` whose every line splits on `;`).

use std::path::Path;

use super::{CsvOptions, check_records, locate, position};
use crate::FormatError;

/// Records read to tell whether the delimiter disagrees with the content.
pub const SNIFF_RECORDS: usize = 1_000;

/// Delimiters a file may be written with instead of the one it is read with.
const CANDIDATES: [u8; 4] = [b',', b';', b'\t', b'|'];

/// Refuses a header with an empty, whitespace-only or repeated column name (naming the
/// file, line and column), and — when the delimiter was not declared
/// ([`CsvOptions::delimiter_declared`]) — a file whose first
/// [`SNIFF_RECORDS`] records are one field each with the delimiter it is read with but the
/// same count (more than one) with another.
pub fn check_head(src: &Path, options: &CsvOptions) -> Result<(), FormatError> {
    if options.header {
        // The first record with a field (csv-core skips empty lines before it).
        let mut header = None;
        check_records(src, options, SNIFF_RECORDS, &mut |record, at| {
            if header.is_none() && locate::Records::new(record, options).next().is_some() {
                header = Some((header_fault(record, options), at));
            }
            None
        })?;
        if let Some((Some(fault), at)) = header {
            let (line, column) = position(src, at + fault.offset as u64);
            return Err(FormatError::ColumnName {
                path: src.to_owned(),
                message: format!("line {line}, column {column}: {}", fault.message),
            });
        }
    }
    if options.delimiter_declared {
        return Ok(());
    }
    let mut sniff = Sniff::new(options);
    check_records(src, options, SNIFF_RECORDS, &mut |record, _| {
        sniff.add(record);
        None
    })?;
    if let Some((delimiter, fields)) = sniff.finish() {
        return Err(FormatError::Delimiter {
            path: src.to_owned(),
            read_with: options.delimiter as char,
            found: delimiter as char,
            fields,
        });
    }
    Ok(())
}

/// The names of a header record and where each field starts in it.
fn header_fields(record: &[u8], options: &CsvOptions) -> Vec<(usize, String)> {
    let Some(parsed) = locate::Records::new(record, options).next() else {
        return Vec::new();
    };
    let mut reader = csv_core::ReaderBuilder::new()
        .escape(options.escape)
        .comment(options.comment)
        .delimiter(options.delimiter)
        .quote(options.quote.unwrap_or(b'"'))
        .build();
    // A record ended by its terminator is read in one call.
    let mut data = record.to_vec();
    if !data.ends_with(b"\n") && !data.ends_with(b"\r") {
        data.push(b'\n');
    }
    let mut output = vec![0u8; data.len() + 1];
    let mut ends = vec![0usize; data.len() + 2];
    let (_, _, _, fields) = reader.read_record(&data, &mut output, &mut ends);
    let mut texts = Vec::with_capacity(fields);
    let mut start = 0;
    for end in &ends[..fields] {
        texts.push(String::from_utf8_lossy(&output[start..*end]).into_owned());
        start = *end;
    }
    let mut names: Vec<(usize, String)> = parsed
        .fields
        .iter()
        .zip(texts)
        .map(|(field, text)| (field.start, text))
        .collect();
    // A byte order mark is not part of the first name.
    if let Some((_, name)) = names.first_mut()
        && let Some(rest) = name.strip_prefix('\u{feff}')
    {
        *name = rest.to_owned();
    }
    names
}

/// The first fault of a header's names: an empty or whitespace-only name, or a name a
/// field before it has.
fn header_fault(record: &[u8], options: &CsvOptions) -> Option<locate::Fault> {
    let names = header_fields(record, options);
    let mut seen = std::collections::HashMap::with_capacity(names.len());
    for (index, (start, name)) in names.iter().enumerate() {
        let field = index + 1;
        if let Some(problem) = crate::schema::blank_name(name) {
            return Some(locate::Fault {
                offset: *start,
                message: format!(
                    "the header's field {field} names no column: its name is {problem}"
                ),
            });
        }
        if let Some(earlier) = seen.insert(name.as_str(), field) {
            return Some(locate::Fault {
                offset: *start,
                message: format!(
                    "the header's field {field} repeats the column name `{}` of field \
                     {earlier}: every column needs a name of its own",
                    name.escape_debug()
                ),
            });
        }
    }
    None
}

/// Field counts of the first records with the delimiter read with and with the others.
struct Sniff {
    read_with: u8,
    /// A copy of the options whose delimiter is changed to count with each candidate.
    options: CsvOptions,
    records: usize,
    /// Whether every record so far was one field with the delimiter read with.
    single: bool,
    /// Per candidate: the count every record so far had (0 before the first), `None` once
    /// two disagree.
    counts: Vec<(u8, Option<usize>)>,
}

impl Sniff {
    fn new(options: &CsvOptions) -> Self {
        Sniff {
            read_with: options.delimiter,
            options: options.clone(),
            records: 0,
            single: true,
            counts: CANDIDATES
                .iter()
                .filter(|c| **c != options.delimiter && Some(**c) != options.quote)
                .map(|c| (*c, Some(0)))
                .collect(),
        }
    }

    fn fields(&mut self, record: &[u8], delimiter: u8) -> usize {
        self.options.delimiter = delimiter;
        locate::Records::new(record, &self.options)
            .next()
            .map_or(0, |r| r.fields.len())
    }

    fn add(&mut self, record: &[u8]) {
        if !self.single {
            return;
        }
        let read_with = self.fields(record, self.read_with);
        if read_with == 0 {
            return; // an empty line or a comment
        }
        self.records += 1;
        if read_with != 1 {
            self.single = false;
            return;
        }
        let mut counts = std::mem::take(&mut self.counts);
        for (candidate, count) in &mut counts {
            if let Some(expected) = *count {
                let found = self.fields(record, *candidate);
                *count = (expected == 0 || expected == found).then_some(found);
            }
        }
        self.counts = counts;
    }

    /// The delimiter every record agrees on, and its count, if the one read with gave one
    /// field each.
    fn finish(self) -> Option<(u8, usize)> {
        if !self.single || self.records == 0 {
            return None;
        }
        self.counts
            .iter()
            .filter_map(|(c, n)| n.filter(|n| *n > 1).map(|n| (*c, n)))
            .max_by_key(|(_, n)| *n)
    }
}
