//! Where a CSV chunk may end: the first record end at or after a target offset, exactly as
//! arrow-csv's parser (csv-core, default terminator: `\r`, `\n` or `\r\n`) sees records, so
//! that decoding the chunks one by one gives the same records as decoding the whole file.
//!
//! The usual dialect (no escape character, no comment character) is scanned quickly: only
//! quote characters and line ends are looked at (memchr), and a quote opens a quoted field
//! only where csv-core would open one, at the start of a field. Other dialects run csv-core
//! itself over the chunk.

use memchr::{memchr, memchr2};

/// csv-core's reader as arrow-csv builds it (`Format::build_parser`).
fn exact_reader(
    delimiter: u8,
    quote: u8,
    escape: Option<u8>,
    comment: Option<u8>,
) -> csv_core::Reader {
    let mut builder = csv_core::ReaderBuilder::new();
    builder
        .escape(escape)
        .comment(comment)
        .delimiter(delimiter)
        .quote(quote);
    builder.build()
}

/// Finds record ends in a buffer that starts at a record start. Resumable: call again with
/// the same buffer grown by more input, as long as it returns `None`.
pub(crate) struct Splitter {
    quote: u8,
    delimiter: u8,
    escape: Option<u8>,
    comment: Option<u8>,
    /// csv-core, for dialects the fast scan does not cover.
    exact: Option<Exact>,
    /// How far the buffer has been scanned, and whether that point is inside quotes.
    pos: usize,
    inside: bool,
    /// Where the quoted field the scan is inside of opened.
    opened: usize,
    /// Characters that are none of the dialect's (for probing csv-core's state).
    probe: [u8; 3],
}

struct Exact {
    reader: csv_core::Reader,
    output: Vec<u8>,
    ends: Vec<usize>,
    /// Where the record being read started.
    record_start: usize,
    /// At the end of the input: where the record holding an unclosed quoted field started.
    unclosed: Option<usize>,
}

impl Splitter {
    /// A splitter for arrow-csv's `Format` built with these characters.
    pub(crate) fn new(
        delimiter: u8,
        quote: Option<u8>,
        escape: Option<u8>,
        comment: Option<u8>,
    ) -> Splitter {
        let quote = quote.unwrap_or(b'"');
        let line_end = |c: u8| c == b'\n' || c == b'\r';
        let fast = escape.is_none()
            && comment.is_none()
            && quote != delimiter
            && !line_end(quote)
            && !line_end(delimiter);
        let exact = (!fast).then(|| Exact {
            reader: exact_reader(delimiter, quote, escape, comment),
            output: vec![0; 64 << 10],
            ends: vec![0; 1024],
            record_start: 0,
            unclosed: None,
        });
        let special = [Some(quote), Some(delimiter), escape, comment];
        let plain = (b'a'..=b'z')
            .find(|c| !special.contains(&Some(*c)))
            .unwrap_or(b'a');
        Splitter {
            quote,
            delimiter,
            escape,
            comment,
            exact,
            pos: 0,
            inside: false,
            opened: 0,
            probe: [b'\n', plain, b'\n'],
        }
    }

    /// A new splitter for the same dialect (csv-core's reader cannot be cloned: its
    /// `Clone` drops most of its state machine).
    pub(crate) fn fresh(&self) -> Splitter {
        Splitter::new(self.delimiter, Some(self.quote), self.escape, self.comment)
    }

    /// Starts over, for a new buffer that starts at a record start.
    pub(crate) fn reset(&mut self) {
        self.pos = 0;
        self.inside = false;
        self.opened = 0;
        if let Some(exact) = &mut self.exact {
            exact.reader.reset();
            exact.record_start = 0;
            exact.unclosed = None;
        }
    }

    /// After [`Splitter::find`] returned the end of the input: where the quoted field that
    /// the input ends inside of opened (the dialect without escape or comment characters),
    /// or where the record holding it started (other dialects); `None` if every quoted
    /// field is closed. csv-core itself would end such a field with the input, silently
    /// taking the rest of the file as one value.
    pub(crate) fn unclosed(&self) -> Option<usize> {
        let Some(exact) = &self.exact else {
            return self.inside.then_some(self.opened);
        };
        exact.unclosed
    }

    /// Whether csv-core, at the end of `record` (the start of a record up to the end of
    /// the input), is inside a quoted field. It does not say: the record is read again by
    /// a new reader, then a line end, a plain character and a line end, which end a record
    /// unless they are inside a quoted field.
    fn inside_quotes(&self, record: &[u8]) -> bool {
        let mut reader = exact_reader(self.delimiter, self.quote, self.escape, self.comment);
        let (mut output, mut ends) = ([0u8; 4096], [0usize; 256]);
        let mut input = record;
        while !input.is_empty() {
            let (_, read, _, _) = reader.read_record(input, &mut output, &mut ends);
            input = &input[read..];
        }
        let mut input = &self.probe[..];
        loop {
            let (result, read, _, _) = reader.read_record(input, &mut output, &mut ends);
            input = &input[read..];
            match result {
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => {
                    return false;
                }
                csv_core::ReadRecordResult::InputEmpty if input.is_empty() => return true,
                _ => {}
            }
        }
    }

    /// The offset just past the first record end at or after `target`, or the end of the
    /// buffer at the end of the input (`eof`); `None` if `buf` holds no such end yet.
    pub(crate) fn find(&mut self, buf: &[u8], target: usize, eof: bool) -> Option<usize> {
        if self.exact.is_some() {
            return self.find_exact(buf, target, eof);
        }
        let len = buf.len();
        loop {
            let next_quote = memchr(self.quote, &buf[self.pos..]).map(|i| self.pos + i);
            if !self.inside {
                let from = self.pos.max(target);
                let to = next_quote.unwrap_or(len);
                if from < to
                    && let Some(i) = memchr2(b'\n', b'\r', &buf[from..to])
                {
                    return Some(from + i + 1);
                }
                let Some(q) = next_quote else {
                    self.pos = len;
                    return eof.then_some(len);
                };
                // A quote opens a quoted field only at the start of a field; elsewhere
                // csv-core keeps it as a character of the field.
                if q == 0 || matches!(buf[q - 1], b'\n' | b'\r') || buf[q - 1] == self.delimiter {
                    self.inside = true;
                    self.opened = q;
                }
                self.pos = q + 1;
            } else {
                let Some(q) = next_quote else {
                    self.pos = len;
                    return eof.then_some(len);
                };
                if q + 1 == len && !eof {
                    // Whether this quote is doubled depends on the next byte.
                    self.pos = q;
                    return None;
                }
                if buf.get(q + 1) == Some(&self.quote) {
                    self.pos = q + 2;
                } else {
                    self.inside = false;
                    self.pos = q + 1;
                }
            }
        }
    }

    fn find_exact(&mut self, buf: &[u8], target: usize, eof: bool) -> Option<usize> {
        loop {
            let input = &buf[self.pos..];
            if input.is_empty() {
                if !eof {
                    // An empty input tells csv-core the input ended.
                    return None;
                }
                // Before csv-core is told, whether it is inside a quoted field.
                let exact = self.exact.as_ref()?;
                let start = exact.record_start;
                if exact.unclosed.is_none()
                    && start < buf.len()
                    && self.inside_quotes(&buf[start..])
                {
                    self.exact.as_mut()?.unclosed = Some(start);
                }
            }
            let exact = self.exact.as_mut()?;
            let (result, read, _, _) =
                exact
                    .reader
                    .read_record(input, &mut exact.output, &mut exact.ends);
            self.pos += read;
            match result {
                csv_core::ReadRecordResult::InputEmpty => {
                    if !eof {
                        return None;
                    }
                    if input.is_empty() {
                        // csv-core is told the input ended by an empty read; the record
                        // in progress, if any, ends with the input.
                        let (result, _, _, _) =
                            exact
                                .reader
                                .read_record(&[], &mut exact.output, &mut exact.ends);
                        debug_assert!(!matches!(result, csv_core::ReadRecordResult::InputEmpty));
                        return Some(buf.len());
                    }
                }
                csv_core::ReadRecordResult::OutputFull
                | csv_core::ReadRecordResult::OutputEndsFull => {}
                csv_core::ReadRecordResult::Record => {
                    exact.record_start = self.pos;
                    if self.pos >= target {
                        return Some(self.pos);
                    }
                }
                csv_core::ReadRecordResult::End => return Some(buf.len()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records csv-core reads from `data`, as fields.
    fn records(data: &[u8], escape: Option<u8>, comment: Option<u8>) -> Vec<Vec<Vec<u8>>> {
        let mut builder = csv_core::ReaderBuilder::new();
        builder.escape(escape).comment(comment);
        let mut reader = builder.build();
        let (mut out, mut ends) = (vec![0; 1 << 16], vec![0; 1 << 10]);
        let mut pos = 0;
        let mut found = Vec::new();
        loop {
            let (result, read, written, fields) =
                reader.read_record(&data[pos..], &mut out, &mut ends);
            pos += read;
            match result {
                csv_core::ReadRecordResult::Record => {
                    let mut start = 0;
                    let record = ends[..fields]
                        .iter()
                        .map(|&end| {
                            let field = out[start..end].to_vec();
                            start = end;
                            field
                        })
                        .collect();
                    let _ = written;
                    found.push(record);
                }
                csv_core::ReadRecordResult::End => return found,
                _ => {}
            }
        }
    }

    /// At every target, the cut is at or after it, and the two sides read apart give the
    /// records of the whole; growing the buffer byte by byte finds the same cut.
    fn check(data: &[u8], escape: Option<u8>, comment: Option<u8>) {
        let mut splitter = Splitter::new(b',', Some(b'"'), escape, comment);
        let whole = records(data, escape, comment);
        for target in 0..=data.len() {
            splitter.reset();
            let cut = splitter
                .find(data, target, true)
                .expect("a cut at the end of the input");
            splitter.reset();
            let mut grown = None;
            for len in 0..=data.len() {
                if let Some(end) = splitter.find(&data[..len], target, len == data.len()) {
                    grown = Some(end);
                    break;
                }
            }
            let shown = String::from_utf8_lossy(data);
            assert_eq!(Some(cut), grown, "{shown:?} target {target}");
            assert!(
                cut >= target && cut <= data.len(),
                "{shown:?} target {target}: cut {cut}"
            );
            let mut apart = records(&data[..cut], escape, comment);
            apart.extend(records(&data[cut..], escape, comment));
            assert_eq!(apart, whole, "{shown:?} target {target}: cut at {cut}");
        }
    }

    #[test]
    fn cuts_only_between_records() {
        for data in [
            &b"a,b\n1,2\n"[..],
            b"a,\"b\nc\",d\n1,2\r\n3,4\r5,6",
            b"x\"y,\"q\nq\"\n\"a\"\"\n\",b\n",
            b"12\" pizza,3\n\"ok\",4\n",
            b"\"a\"b\nc,\"d\"\n",
            b"\n\n\"\"\n,,\n\"",
            b"a, \"b\nc\"\n",
        ] {
            check(data, None, None);
            check(data, Some(b'\\'), None);
            check(data, None, Some(b'#'));
        }
        check(b"#c \"\na,b\n#\"\n1,2\n", None, Some(b'#'));
        check(b"\"a\\\"\nb\",c\n1,2\n", Some(b'\\'), None);
    }

    #[test]
    fn random_inputs_cut_only_between_records() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"ab,\"\n\r#\\ ";
        for _ in 0..400 {
            let len = (next() % 24) as usize;
            let data: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            check(&data, None, None);
            check(&data, Some(b'\\'), Some(b'#'));
        }
    }

    /// Whether the input ends inside a quoted field, read record by record.
    fn ends_unclosed(splitter: &mut Splitter, data: &[u8]) -> Option<usize> {
        let mut start = 0;
        loop {
            splitter.reset();
            let end = splitter.find(&data[start..], 0, true)?;
            if start + end == data.len() {
                return splitter.unclosed().map(|at| start + at);
            }
            start += end;
        }
    }

    #[test]
    fn an_input_ending_inside_quotes_is_found_as_csv_core_reads_it() {
        let mut fast = Splitter::new(b',', Some(b'"'), None, None);
        assert_eq!(ends_unclosed(&mut fast, b"a,b\n1,\"x\ny\n"), Some(6));
        assert_eq!(ends_unclosed(&mut fast, b"a,b\n1,\"x\"\"\"\n"), None);
        let mut escaped = Splitter::new(b',', Some(b'"'), Some(b'\\'), None);
        assert_eq!(ends_unclosed(&mut escaped, b"a,b\n1,\"x\\\""), Some(4));
        let mut commented = Splitter::new(b',', Some(b'"'), None, Some(b'#'));
        assert_eq!(ends_unclosed(&mut commented, b"a,b\n#\"x"), None);

        // The fast scan agrees with csv-core (the exact path, forced by a comment
        // character that never occurs) on random inputs.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"ab,\"\n\r ";
        let mut exact = Splitter::new(b',', Some(b'"'), None, Some(b'~'));
        for _ in 0..2000 {
            let len = (next() % 24) as usize;
            let data: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(
                ends_unclosed(&mut fast, &data).is_some(),
                ends_unclosed(&mut exact, &data).is_some(),
                "{:?}",
                String::from_utf8_lossy(&data)
            );
        }
    }
}
