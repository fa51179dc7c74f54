//! A table's values as text: the cells of the CSV and TSV a table is served as, written
//! so that every value reads back as itself (docs/guide.md, "Types").
//!
//! The rule, per type:
//! - null: the dialect's `nullSequence` (default: nothing), never quoted; a quoted cell is
//!   never null (an empty string is written `""`);
//! - integers: decimal digits; decimals: their digits with exactly `scale` after the point;
//! - floats: the shortest text that reads back as the same float of the column's width,
//!   without a fraction when the value is whole (`3`, `2.5`, `-0`), in exponent form
//!   below 1e-7 and from 1e21 (`1e21`, `1.5e-8`); `NaN`, `inf`, `-inf`;
//! - booleans: `true`, `false`; strings: as they are;
//! - binary and fixed-size binary: lower-case hex, two digits a byte;
//! - dates `2024-02-29`; times `13:45:00.123456` (a fraction only when there is one, of 3,
//!   6 or 9 digits); timestamps `2024-02-29T13:45:00.5`, with a zone `…Z` (UTC);
//! - lists, structs and maps: JSON text — a list as an array, a struct as an object of its
//!   fields in order, a map as an object whose keys are the keys' cells; inside it numbers
//!   and booleans are JSON's, every other value the JSON string of its cell (`NaN`, `inf`
//!   included), null `null`.

use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float16Type, Float32Type, Float64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{ArrowError, DataType};

/// When a CSV/TSV cell is quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quoting {
    /// Only cells that need it (a delimiter, quote, line end or escape character in them,
    /// or an empty string when null is written as nothing).
    #[default]
    Minimal,
    /// Every cell that is not null.
    All,
    /// Every cell that is not null and not a number.
    Nonnumeric,
    /// Never: the characters that would need it are escaped.
    None,
}

/// How a table is written as CSV or TSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextDialect {
    pub delimiter: u8,
    pub quote: u8,
    /// A quote inside a quoted cell is doubled (`true`, the default) or escaped.
    pub double_quote: bool,
    /// Escapes a quote (without `double_quote`) and, with [`Quoting::None`], the characters
    /// that would need quotes; `\` when not given.
    pub escape: Option<u8>,
    /// What a null is written as.
    pub null: String,
    pub line_terminator: &'static str,
    pub header: bool,
    pub quoting: Quoting,
}

impl TextDialect {
    /// CSV: `,`, `"`, doubled quotes, null as nothing, `\n`, a header, minimal quoting.
    pub fn csv() -> Self {
        TextDialect {
            delimiter: b',',
            quote: b'"',
            double_quote: true,
            escape: None,
            null: String::new(),
            line_terminator: "\n",
            header: true,
            quoting: Quoting::Minimal,
        }
    }

    /// TSV: [`Self::csv`] with a tab.
    pub fn tsv() -> Self {
        TextDialect {
            delimiter: b'\t',
            ..Self::csv()
        }
    }
}

/// Writes record batches as CSV/TSV text by [the rule](self).
pub struct TextWriter {
    dialect: TextDialect,
    header_due: bool,
    cell: String,
}

impl TextWriter {
    pub fn new(dialect: TextDialect) -> Self {
        TextWriter {
            header_due: dialect.header,
            dialect,
            cell: String::new(),
        }
    }

    /// Appends the rows of `batch` (the header first, once) to `out`.
    pub fn write(&mut self, batch: &RecordBatch, out: &mut Vec<u8>) -> Result<(), ArrowError> {
        self.header(batch.schema_ref(), out);
        let options = FormatOptions::default();
        let decoded = batch
            .columns()
            .iter()
            .map(decode)
            .collect::<Result<Vec<_>, _>>()?;
        let columns = decoded
            .iter()
            .map(|column| Cell::of(column, &options))
            .collect::<Result<Vec<_>, _>>()?;
        for row in 0..batch.num_rows() {
            for (index, column) in columns.iter().enumerate() {
                if index > 0 {
                    out.push(self.dialect.delimiter);
                }
                if column.is_null(row) {
                    out.extend_from_slice(self.dialect.null.as_bytes());
                    continue;
                }
                let mut cell = std::mem::take(&mut self.cell);
                cell.clear();
                column.write(row, &mut cell, false)?;
                self.put(out, &cell, column.kind());
                self.cell = cell;
            }
            out.extend_from_slice(self.dialect.line_terminator.as_bytes());
        }
        Ok(())
    }

    /// Appends the header of `schema` to `out` if it is due: the end of a table that had
    /// no batch (a table without rows is its header).
    pub fn finish(&mut self, schema: &arrow_schema::Schema, out: &mut Vec<u8>) {
        self.header(schema, out);
    }

    fn header(&mut self, schema: &arrow_schema::Schema, out: &mut Vec<u8>) {
        if !std::mem::take(&mut self.header_due) {
            return;
        }
        for (index, field) in schema.fields().iter().enumerate() {
            if index > 0 {
                out.push(self.dialect.delimiter);
            }
            self.put(out, field.name(), Kind::Text);
        }
        out.extend_from_slice(self.dialect.line_terminator.as_bytes());
    }

    /// One cell that is not null, quoted or escaped as the dialect says.
    fn put(&self, out: &mut Vec<u8>, text: &str, kind: Kind) {
        let d = &self.dialect;
        let escape = d.escape.unwrap_or(b'\\');
        let special = |b: u8| {
            b == d.delimiter || b == d.quote || b == b'\n' || b == b'\r' || Some(b) == d.escape
        };
        let needs = text.bytes().any(special) || text.is_empty() || text == d.null;
        let quoted = match d.quoting {
            Quoting::Minimal => needs,
            Quoting::All => true,
            Quoting::Nonnumeric => kind != Kind::Number || needs,
            Quoting::None => false,
        };
        if !quoted {
            if d.quoting == Quoting::None && text.bytes().any(special) {
                for b in text.bytes() {
                    if special(b) || b == escape {
                        out.push(escape);
                    }
                    out.push(b);
                }
            } else {
                out.extend_from_slice(text.as_bytes());
            }
            return;
        }
        out.push(d.quote);
        for b in text.bytes() {
            if b == d.quote {
                out.push(if d.double_quote { d.quote } else { escape });
            } else if !d.double_quote && b == escape {
                out.push(escape);
            }
            out.push(b);
        }
        out.push(d.quote);
    }
}

/// What a cell holds, for quoting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Text,
}

/// A column ready to write cells of.
enum Cell<'a> {
    /// A column of type null: every cell is null.
    Null,
    Boolean(&'a arrow_array::BooleanArray),
    /// Integers and decimals: arrow's own text of them is exact.
    Exact(&'a dyn Array, ArrayFormatter<'a>),
    Float16(&'a arrow_array::PrimitiveArray<Float16Type>),
    Float32(&'a arrow_array::PrimitiveArray<Float32Type>),
    Float64(&'a arrow_array::PrimitiveArray<Float64Type>),
    Utf8(&'a dyn Array),
    Binary(&'a dyn Array),
    /// Dates, times, timestamps without a zone (strings in JSON).
    Temporal(&'a dyn Array, ArrayFormatter<'a>),
    /// Timestamps with a zone: instants, written in UTC with a `Z` (a table holds UTC
    /// only; the zone's name is not looked up).
    Instant(&'a dyn Array, arrow_schema::TimeUnit),
    List {
        array: &'a dyn Array,
        /// Where each row's values start and end in `values`.
        bounds: Bounds<'a>,
        values: Box<Cell<'a>>,
    },
    Struct {
        array: &'a arrow_array::StructArray,
        names: Vec<&'a str>,
        fields: Vec<Cell<'a>>,
    },
    Map {
        array: &'a arrow_array::MapArray,
        keys: Box<Cell<'a>>,
        values: Box<Cell<'a>>,
    },
}

/// `column` without dictionaries (decoded: a dictionary is how a file stores values, not
/// what they are).
fn decode(column: &ArrayRef) -> Result<ArrayRef, ArrowError> {
    let plain = plain_type(column.data_type());
    if &plain == column.data_type() {
        return Ok(ArrayRef::clone(column));
    }
    arrow_cast::cast(column, &plain)
}

fn plain_type(data_type: &DataType) -> DataType {
    use std::sync::Arc;
    let field = |f: &arrow_schema::FieldRef| {
        Arc::new(arrow_schema::Field::new(
            f.name(),
            plain_type(f.data_type()),
            f.is_nullable(),
        ))
    };
    match data_type {
        DataType::Dictionary(_, value) => plain_type(value),
        DataType::List(f) => DataType::List(field(f)),
        DataType::LargeList(f) => DataType::LargeList(field(f)),
        DataType::FixedSizeList(f, n) => DataType::FixedSizeList(field(f), *n),
        DataType::Struct(fields) => DataType::Struct(fields.iter().map(field).collect()),
        DataType::Map(f, sorted) => DataType::Map(field(f), *sorted),
        other => other.clone(),
    }
}

enum Bounds<'a> {
    Small(&'a [i32]),
    Large(&'a [i64]),
    Fixed(usize),
}

impl Bounds<'_> {
    fn of(&self, row: usize) -> (usize, usize) {
        match self {
            Bounds::Small(o) => (o[row] as usize, o[row + 1] as usize),
            Bounds::Large(o) => (o[row] as usize, o[row + 1] as usize),
            Bounds::Fixed(n) => (row * n, (row + 1) * n),
        }
    }
}

impl<'a> Cell<'a> {
    fn of(array: &'a ArrayRef, options: &FormatOptions<'a>) -> Result<Cell<'a>, ArrowError> {
        Self::of_dyn(array.as_ref(), options)
    }

    fn of_dyn(array: &'a dyn Array, options: &FormatOptions<'a>) -> Result<Cell<'a>, ArrowError> {
        use DataType::*;
        Ok(match array.data_type() {
            Null => Cell::Null,
            Boolean => Cell::Boolean(array.as_boolean()),
            Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 | Decimal32(..)
            | Decimal64(..) | Decimal128(..) | Decimal256(..) => {
                Cell::Exact(array, ArrayFormatter::try_new(array, options)?)
            }
            Float16 => Cell::Float16(array.as_primitive()),
            Float32 => Cell::Float32(array.as_primitive()),
            Float64 => Cell::Float64(array.as_primitive()),
            Utf8 | LargeUtf8 | Utf8View => Cell::Utf8(array),
            Binary | LargeBinary | BinaryView | FixedSizeBinary(_) => Cell::Binary(array),
            Timestamp(unit, Some(_)) => Cell::Instant(array, *unit),
            Date32 | Date64 | Time32(_) | Time64(_) | Timestamp(..) | Duration(_) | Interval(_) => {
                Cell::Temporal(array, ArrayFormatter::try_new(array, options)?)
            }
            List(_) => {
                let list = array.as_list::<i32>();
                Cell::List {
                    array,
                    bounds: Bounds::Small(list.value_offsets()),
                    values: Box::new(Self::of_dyn(list.values().as_ref(), options)?),
                }
            }
            LargeList(_) => {
                let list = array.as_list::<i64>();
                Cell::List {
                    array,
                    bounds: Bounds::Large(list.value_offsets()),
                    values: Box::new(Self::of_dyn(list.values().as_ref(), options)?),
                }
            }
            FixedSizeList(_, size) => {
                let list = array.as_fixed_size_list();
                Cell::List {
                    array,
                    bounds: Bounds::Fixed(*size as usize),
                    values: Box::new(Self::of_dyn(list.values().as_ref(), options)?),
                }
            }
            Struct(fields) => {
                let array = array.as_struct();
                Cell::Struct {
                    array,
                    names: fields.iter().map(|f| f.name().as_str()).collect(),
                    fields: array
                        .columns()
                        .iter()
                        .map(|c| Self::of_dyn(c.as_ref(), options))
                        .collect::<Result<_, _>>()?,
                }
            }
            Map(..) => {
                let array = array.as_map();
                Cell::Map {
                    array,
                    keys: Box::new(Self::of_dyn(array.keys().as_ref(), options)?),
                    values: Box::new(Self::of_dyn(array.values().as_ref(), options)?),
                }
            }
            other => {
                return Err(ArrowError::NotYetImplemented(format!(
                    "a column of type {other} as text"
                )));
            }
        })
    }

    fn kind(&self) -> Kind {
        match self {
            Cell::Exact(..) | Cell::Float16(_) | Cell::Float32(_) | Cell::Float64(_) => {
                Kind::Number
            }
            _ => Kind::Text,
        }
    }

    fn is_null(&self, row: usize) -> bool {
        match self {
            Cell::Null => true,
            Cell::Boolean(a) => a.is_null(row),
            Cell::Exact(a, _)
            | Cell::Utf8(a)
            | Cell::Binary(a)
            | Cell::Temporal(a, _)
            | Cell::Instant(a, _) => a.is_null(row),
            Cell::Float16(a) => a.is_null(row),
            Cell::Float32(a) => a.is_null(row),
            Cell::Float64(a) => a.is_null(row),
            Cell::List { array, .. } => array.is_null(row),
            Cell::Struct { array, .. } => array.is_null(row),
            Cell::Map { array, .. } => array.is_null(row),
        }
    }

    /// Writes the value of `row` (not null) as a cell, or as JSON (`json`).
    fn write(&self, row: usize, out: &mut String, json: bool) -> Result<(), ArrowError> {
        let failed = |_| ArrowError::ComputeError("cannot write a value as text".into());
        match self {
            Cell::Null => out.push_str(if json { "null" } else { "" }),
            Cell::Boolean(a) => out.push_str(if a.value(row) { "true" } else { "false" }),
            Cell::Exact(_, f) => write!(out, "{}", f.value(row)).map_err(failed)?,
            Cell::Float16(a) => float(a.value(row).to_f64(), false, out, json),
            Cell::Float32(a) => float(f64::from(a.value(row)), true, out, json),
            Cell::Float64(a) => float(a.value(row), false, out, json),
            Cell::Utf8(a) => {
                let text = match a.data_type() {
                    DataType::Utf8 => a.as_string::<i32>().value(row),
                    DataType::LargeUtf8 => a.as_string::<i64>().value(row),
                    _ => a.as_string_view().value(row),
                };
                string(text, out, json);
            }
            Cell::Binary(a) => {
                let bytes = match a.data_type() {
                    DataType::Binary => a.as_binary::<i32>().value(row),
                    DataType::LargeBinary => a.as_binary::<i64>().value(row),
                    DataType::BinaryView => a.as_binary_view().value(row),
                    _ => a.as_fixed_size_binary().value(row),
                };
                if json {
                    out.push('"');
                }
                for b in bytes {
                    write!(out, "{b:02x}").map_err(failed)?;
                }
                if json {
                    out.push('"');
                }
            }
            Cell::Temporal(_, f) => {
                if json {
                    out.push('"');
                }
                write!(out, "{}", f.value(row)).map_err(failed)?;
                if json {
                    out.push('"');
                }
            }
            Cell::Instant(a, unit) => {
                use arrow_array::temporal_conversions as tc;
                use arrow_array::types::{
                    TimestampMicrosecondType as Us, TimestampMillisecondType as Ms,
                    TimestampNanosecondType as Ns, TimestampSecondType as S,
                };
                use arrow_schema::TimeUnit;
                let utc = match unit {
                    TimeUnit::Second => {
                        tc::timestamp_s_to_datetime(a.as_primitive::<S>().value(row))
                    }
                    TimeUnit::Millisecond => {
                        tc::timestamp_ms_to_datetime(a.as_primitive::<Ms>().value(row))
                    }
                    TimeUnit::Microsecond => {
                        tc::timestamp_us_to_datetime(a.as_primitive::<Us>().value(row))
                    }
                    TimeUnit::Nanosecond => {
                        tc::timestamp_ns_to_datetime(a.as_primitive::<Ns>().value(row))
                    }
                }
                .ok_or_else(|| {
                    ArrowError::ComputeError("a timestamp out of the calendar's range".into())
                })?;
                if json {
                    out.push('"');
                }
                write!(out, "{utc:?}Z").map_err(failed)?;
                if json {
                    out.push('"');
                }
            }
            Cell::List { bounds, values, .. } => {
                out.push('[');
                let (start, end) = bounds.of(row);
                for (n, i) in (start..end).enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    values.json(i, out)?;
                }
                out.push(']');
            }
            Cell::Struct { names, fields, .. } => {
                out.push('{');
                for (n, (name, field)) in names.iter().zip(fields).enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    string(name, out, true);
                    out.push(':');
                    field.json(row, out)?;
                }
                out.push('}');
            }
            Cell::Map {
                array,
                keys,
                values,
            } => {
                out.push('{');
                let offsets = array.value_offsets();
                let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
                let mut key = String::new();
                for (n, i) in (start..end).enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    key.clear();
                    if !keys.is_null(i) {
                        keys.write(i, &mut key, false)?;
                    }
                    string(&key, out, true);
                    out.push(':');
                    values.json(i, out)?;
                }
                out.push('}');
            }
        }
        Ok(())
    }

    /// The value of `row` as JSON (`null` when null).
    fn json(&self, row: usize, out: &mut String) -> Result<(), ArrowError> {
        if self.is_null(row) {
            out.push_str("null");
            return Ok(());
        }
        self.write(row, out, true)
    }
}

/// A float by [the rule](self); `single` when it is a float32 (the shortest text that
/// reads back as the same float32).
pub fn float(value: f64, single: bool, out: &mut String, json: bool) {
    let special = if value.is_nan() {
        Some("NaN")
    } else if value.is_infinite() {
        Some(if value > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    };
    if let Some(text) = special {
        string(text, out, json);
        return;
    }
    let magnitude = value.abs();
    let exponent = magnitude != 0.0 && !(1e-7..1e21).contains(&magnitude);
    let _ = match (single, exponent) {
        (true, true) => write!(out, "{:e}", value as f32),
        (true, false) => write!(out, "{}", value as f32),
        (false, true) => write!(out, "{value:e}"),
        (false, false) => write!(out, "{value}"),
    };
}

/// A string as it is, or as a JSON string.
fn string(text: &str, out: &mut String, json: bool) {
    if !json {
        out.push_str(text);
        return;
    }
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
    use arrow_array::{
        BinaryArray, Float32Array, Float64Array, Int64Array, StringArray, StructArray,
        TimestampMicrosecondArray,
    };
    use arrow_schema::{Field, Schema};

    use super::*;

    fn f64_text(v: f64) -> String {
        let mut out = String::new();
        float(v, false, &mut out, false);
        out
    }

    fn f32_text(v: f32) -> String {
        let mut out = String::new();
        float(f64::from(v), true, &mut out, false);
        out
    }

    #[test]
    fn floats_are_their_shortest_text_whole_ones_without_a_fraction() {
        for (value, text) in [
            (3.0, "3"),
            (2.5, "2.5"),
            (-0.0, "-0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123456789.0, "123456789"),
            (1e20, "100000000000000000000"),
            (1e21, "1e21"),
            (1.5e-8, "1.5e-8"),
            (1e-7, "0.0000001"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(f64_text(value), text, "{value:e}");
            if value.is_finite() {
                assert_eq!(text.parse::<f64>().unwrap().to_bits(), value.to_bits());
            }
        }
        // float32: the shortest text of the float32, not of its double.
        assert_eq!(f32_text(0.1), "0.1");
        assert_eq!(f32_text(3.0), "3");
        assert_eq!(f32_text(1e-8), "1e-8");
        assert_eq!(f32_text(f32::MIN_POSITIVE), "1.1754944e-38");
        for v in [0.1f32, 1.0 / 3.0, 16_777_217.0, f32::MAX, 1e-45] {
            assert_eq!(f32_text(v).parse::<f32>().unwrap(), v);
        }
    }

    fn written(batch: &RecordBatch, dialect: TextDialect) -> String {
        let mut out = Vec::new();
        let mut writer = TextWriter::new(dialect);
        writer.write(batch, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn null_and_the_empty_string_stay_apart_and_cells_are_quoted_when_needed() {
        let batch = RecordBatch::try_from_iter([
            (
                "text",
                Arc::new(StringArray::from(vec![
                    Some(""),
                    None,
                    Some("a,b"),
                    Some("say \"hi\""),
                    Some("two\nlines"),
                    Some("naïve"),
                ])) as ArrayRef,
            ),
            (
                "x",
                Arc::new(Float64Array::from(vec![
                    Some(3.0),
                    None,
                    Some(2.5),
                    Some(f64::NAN),
                    Some(-0.0),
                    Some(1e21),
                ])),
            ),
            (
                "bytes",
                Arc::new(BinaryArray::from_opt_vec(vec![
                    Some(b""),
                    None,
                    Some(b"\x00\xff"),
                    Some(b"a"),
                    None,
                    Some(b"\x10"),
                ])),
            ),
        ])
        .unwrap();
        assert_eq!(
            written(&batch, TextDialect::csv()),
            "text,x,bytes\n\"\",3,\"\"\n,,\n\"a,b\",2.5,00ff\n\"say \"\"hi\"\"\",NaN,61\n\"two\nlines\",-0,\nnaïve,1e21,10\n"
        );
        let mut dialect = TextDialect::tsv();
        dialect.null = "\\N".into();
        dialect.quoting = Quoting::Nonnumeric;
        assert_eq!(
            written(&batch, dialect),
            "\"text\"\t\"x\"\t\"bytes\"\n\"\"\t3\t\"\"\n\\N\t\\N\t\\N\n\"a,b\"\t2.5\t\"00ff\"\n\"say \"\"hi\"\"\"\tNaN\t\"61\"\n\"two\nlines\"\t-0\t\\N\n\"naïve\"\t1e21\t\"10\"\n"
        );
        // A string equal to the null sequence is quoted, so it is not read as null.
        let mut dialect = TextDialect::csv();
        dialect.null = "NA".into();
        let batch = RecordBatch::try_from_iter([(
            "t",
            Arc::new(StringArray::from(vec![Some("NA"), None])) as ArrayRef,
        )])
        .unwrap();
        assert_eq!(written(&batch, dialect), "t\n\"NA\"\nNA\n");
    }

    #[test]
    fn nested_values_are_json_with_every_leaf_by_the_cell_rule() {
        let mut lists = ListBuilder::new(Int32Builder::new());
        lists.append_value([Some(1), None, Some(3)]);
        lists.append_value([]);
        lists.append_null();
        let mut maps = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
        maps.keys().append_value("k\"ey");
        maps.values().append_value(7);
        maps.append(true).unwrap();
        maps.append(true).unwrap();
        maps.append(false).unwrap();
        let structs = StructArray::from(vec![
            (
                Arc::new(Field::new("f", DataType::Float32, true)),
                Arc::new(Float32Array::from(vec![
                    Some(0.1),
                    Some(f32::INFINITY),
                    None,
                ])) as ArrayRef,
            ),
            (
                Arc::new(Field::new(
                    "at",
                    DataType::Timestamp(arrow_schema::TimeUnit::Microsecond, Some("UTC".into())),
                    true,
                )),
                Arc::new(
                    TimestampMicrosecondArray::from(vec![Some(1_500_000), None, Some(0)])
                        .with_timezone("UTC"),
                ),
            ),
            (
                Arc::new(Field::new("n", DataType::Int64, true)),
                Arc::new(Int64Array::from(vec![Some(i64::MAX), None, Some(-1)])),
            ),
        ]);
        let schema = Arc::new(Schema::new(vec![
            Field::new("list", lists.finish().data_type().clone(), true),
            Field::new("map", maps.finish().data_type().clone(), true),
            Field::new("struct", structs.data_type().clone(), true),
        ]));
        let mut lists = ListBuilder::new(Int32Builder::new());
        lists.append_value([Some(1), None, Some(3)]);
        lists.append_value([]);
        lists.append_null();
        let mut maps = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
        maps.keys().append_value("k\"ey");
        maps.values().append_value(7);
        maps.append(true).unwrap();
        maps.append(true).unwrap();
        maps.append(false).unwrap();
        let batch = RecordBatch::try_new(
            schema,
            vec![
                Arc::new(lists.finish()),
                Arc::new(maps.finish()),
                Arc::new(structs),
            ],
        )
        .unwrap();
        assert_eq!(
            written(&batch, TextDialect::csv()),
            "list,map,struct\n\
             \"[1,null,3]\",\"{\"\"k\\\"\"ey\"\":7}\",\"{\"\"f\"\":0.1,\"\"at\"\":\"\"1970-01-01T00:00:01.500Z\"\",\"\"n\"\":9223372036854775807}\"\n\
             [],{},\"{\"\"f\"\":\"\"inf\"\",\"\"at\"\":null,\"\"n\"\":null}\"\n\
             ,,\"{\"\"f\"\":null,\"\"at\"\":\"\"1970-01-01T00:00:00Z\"\",\"\"n\"\":-1}\"\n"
        );
    }
}
