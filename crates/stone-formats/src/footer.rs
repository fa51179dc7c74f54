//! The bounds of a Parquet footer, checked before the parquet crate parses it.
//!
//! parquet 58 builds its schema tree from the footer's flat list of `SchemaElement`s by
//! recursion (one call per nesting level), and arrow's schema conversion recurses the same
//! way: a file of a few hundred kilobytes with a schema nested 20,000 deep overflows the
//! stack and aborts the process. So, before anything else reads a footer, one small pass
//! reads its length and walks the schema list with a loop (thrift compact protocol, only the
//! `num_children` of each element kept) and refuses a footer that is too large, a schema
//! nested too deep, or too many columns. Both the CLI (a user's Parquet file) and the server
//! (a staged Parquet file) call [`check_parquet_footer`].

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::FormatError;

/// The bounds a Parquet footer must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParquetLimits {
    /// Bytes of the footer (the thrift `FileMetaData`, without the 8-byte tail).
    pub max_footer_bytes: u64,
    /// Nesting levels of the schema below its root (a flat table: 1).
    pub max_depth: usize,
    /// Leaf columns.
    pub max_columns: usize,
}

/// The largest footer read: 64 MiB.
pub const MAX_FOOTER_BYTES: u64 = 64 << 20;
/// The deepest schema read: 64 levels (real nested data rarely goes past 10).
pub const MAX_SCHEMA_DEPTH: usize = 64;
/// The most leaf columns read: 10,000.
pub const MAX_COLUMNS: usize = 10_000;
/// Nesting of thrift structs and lists skipped in the footer (as the parquet crate's own
/// skip).
const MAX_THRIFT_DEPTH: usize = 64;

impl Default for ParquetLimits {
    fn default() -> ParquetLimits {
        ParquetLimits {
            max_footer_bytes: MAX_FOOTER_BYTES,
            max_depth: MAX_SCHEMA_DEPTH,
            max_columns: MAX_COLUMNS,
        }
    }
}

/// What the check found in a footer within bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FooterShape {
    pub footer_bytes: u64,
    pub depth: usize,
    pub columns: usize,
}

/// Why a footer was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FooterError {
    /// Not a Parquet file, or a footer that does not decode.
    Malformed(String),
    /// Over one of the [`ParquetLimits`].
    Limit {
        what: &'static str,
        limit: u64,
        found: u64,
    },
}

impl std::fmt::Display for FooterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FooterError::Malformed(message) => f.write_str(message),
            FooterError::Limit { what, limit, found } => write!(
                f,
                "the Parquet footer has {what} past stone's limit of {limit} (found at least {found})"
            ),
        }
    }
}

impl std::error::Error for FooterError {}

impl FooterError {
    fn into_format_error(self, path: &Path) -> FormatError {
        match self {
            FooterError::Malformed(message) => FormatError::Parquet {
                path: path.to_owned(),
                message,
            },
            limit @ FooterError::Limit { .. } => FormatError::Limit {
                path: path.to_owned(),
                message: limit.to_string(),
            },
        }
    }
}

/// Checks the footer of the Parquet file at `path` against `limits` without building its
/// schema: call it before handing the file to the parquet crate.
pub fn check_parquet_footer(
    path: &Path,
    limits: &ParquetLimits,
) -> Result<FooterShape, FormatError> {
    let read_error = |source| FormatError::Read {
        path: path.to_owned(),
        source,
    };
    let mut file = File::open(path).map_err(read_error)?;
    let size = file.metadata().map_err(read_error)?.len();
    if size < 12 {
        return Err(FooterError::Malformed(format!(
            "not a Parquet file: {size} bytes, fewer than a Parquet file's 12-byte frame"
        ))
        .into_format_error(path));
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(size - 8)).map_err(read_error)?;
    file.read_exact(&mut tail).map_err(read_error)?;
    let footer_bytes = footer_length(&tail, size).map_err(|e| e.into_format_error(path))?;
    if footer_bytes > limits.max_footer_bytes {
        return Err(FooterError::Limit {
            what: "footer bytes",
            limit: limits.max_footer_bytes,
            found: footer_bytes,
        }
        .into_format_error(path));
    }
    let mut footer = vec![0u8; footer_bytes as usize];
    file.seek(SeekFrom::Start(size - 8 - footer_bytes))
        .map_err(read_error)?;
    file.read_exact(&mut footer).map_err(read_error)?;
    let (depth, columns) = schema_shape(&footer, limits).map_err(|e| e.into_format_error(path))?;
    Ok(FooterShape {
        footer_bytes,
        depth,
        columns,
    })
}

/// [`check_parquet_footer`] on a whole file held in memory (for the fuzzer and tests).
pub fn check_parquet_footer_bytes(
    file: &[u8],
    limits: &ParquetLimits,
) -> Result<FooterShape, FooterError> {
    let size = file.len() as u64;
    if size < 12 {
        return Err(FooterError::Malformed(format!(
            "not a Parquet file: {size} bytes, fewer than a Parquet file's 12-byte frame"
        )));
    }
    let tail: [u8; 8] = file[file.len() - 8..]
        .try_into()
        .map_err(|_| FooterError::Malformed("no tail".into()))?;
    let footer_bytes = footer_length(&tail, size)?;
    if footer_bytes > limits.max_footer_bytes {
        return Err(FooterError::Limit {
            what: "footer bytes",
            limit: limits.max_footer_bytes,
            found: footer_bytes,
        });
    }
    let end = file.len() - 8;
    let footer = &file[end - footer_bytes as usize..end];
    let (depth, columns) = schema_shape(footer, limits)?;
    Ok(FooterShape {
        footer_bytes,
        depth,
        columns,
    })
}

/// The footer length a file's last 8 bytes state, checked against the file's size.
fn footer_length(tail: &[u8; 8], size: u64) -> Result<u64, FooterError> {
    match &tail[4..] {
        b"PAR1" => {}
        b"PARE" => {
            return Err(FooterError::Malformed(
                "the file's footer is encrypted, which stone does not read".into(),
            ));
        }
        _ => {
            return Err(FooterError::Malformed(
                "not a Parquet file: it does not end with `PAR1`".into(),
            ));
        }
    }
    let length = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    // The leading magic, the footer, the tail.
    if length + 12 > size {
        return Err(FooterError::Malformed(format!(
            "the footer claims {length} bytes, more than the file's {size} bytes hold"
        )));
    }
    Ok(length)
}

/// The nesting depth and leaf column count of the footer's schema, walked with a loop,
/// and the whole footer walked as the parquet crate will read it ([`FILE_META_DATA`]).
///
/// The parquet crate (58) reads a field by its id whatever type the wire gives it, and
/// reserves a list's declared length before it reads the elements: a 200-byte footer whose
/// `row_groups` field was written as a double read as a list of 260 million row groups,
/// and the crate asked for 25 GB and aborted (found by `scripts/fuzz parquet_footer`;
/// fixed upstream in parquet 60, apache/arrow-rs#10979). So this walk follows the same
/// path through the bytes: every field the crate reads must carry the type the crate
/// reads it as (else the footer is refused), unknown fields are skipped by their wire
/// type exactly as the crate skips them ([`Compact::skip`]), every list length is checked
/// against the bytes left ([`Compact::list_header`]) before anything reserves room for it,
/// and a row group's column chunks are no more than the column limit (the parquet crate
/// reserves them all before it reads one: at up to 64 MiB of footer, millions).
fn schema_shape(footer: &[u8], limits: &ParquetLimits) -> Result<(usize, usize), FooterError> {
    let mut input = Compact {
        buf: footer,
        pos: 0,
        max_columns: limits.max_columns as u64,
    };
    let mut id = 0i16;
    let mut shape = None;
    while let Some((field, kind)) = input.field_header(&mut id)? {
        if field == 2 {
            if kind != LIST || shape.is_some() {
                return Err(FooterError::Malformed(
                    "the footer's schema is not one list of elements".into(),
                ));
            }
            shape = Some(schema_list(&mut input, limits)?);
        } else {
            input.field(FILE_META_DATA, "FileMetaData", field, kind, 0)?;
        }
    }
    shape.ok_or_else(|| FooterError::Malformed("the footer has no schema".into()))
}

fn schema_list(input: &mut Compact, limits: &ParquetLimits) -> Result<(usize, usize), FooterError> {
    let (count, element) = input.list_header()?;
    if element != STRUCT && count > 0 {
        return Err(FooterError::Malformed(
            "the footer's schema is not a list of elements".into(),
        ));
    }
    // Children still expected by each open group, outermost first.
    let mut open: Vec<i64> = Vec::new();
    let (mut depth, mut columns) = (0usize, 0usize);
    for index in 0..count {
        let children = schema_element(input)?;
        let level = open.len();
        if level > limits.max_depth {
            return Err(FooterError::Limit {
                what: "schema nesting levels",
                limit: limits.max_depth as u64,
                found: level as u64,
            });
        }
        depth = depth.max(level);
        if let Some(remaining) = open.last_mut() {
            *remaining -= 1;
        }
        match children {
            Some(n) if n > 0 => open.push(i64::from(n)),
            _ if index > 0 => {
                columns += 1;
                if columns > limits.max_columns {
                    return Err(FooterError::Limit {
                        what: "columns",
                        limit: limits.max_columns as u64,
                        found: columns as u64,
                    });
                }
            }
            _ => {}
        }
        while open.last() == Some(&0) {
            open.pop();
        }
    }
    Ok((depth, columns))
}

/// Reads one SchemaElement; returns its `num_children` (field 5).
fn schema_element(input: &mut Compact) -> Result<Option<i32>, FooterError> {
    let mut children = None;
    let mut id = 0i16;
    while let Some((field, kind)) = input.field_header(&mut id)? {
        if field == 5 && matches!(kind, I16 | I32 | I64) {
            children = Some(input.zigzag_i32()?);
        } else {
            input.field(SCHEMA_ELEMENT, "SchemaElement", field, kind, 1)?;
        }
    }
    Ok(children)
}

/// What the parquet crate reads a value as.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// A varint (i16, i32, i64 and enums: the same bytes whichever the wire says).
    Int,
    /// One byte (thrift `byte`, the crate's `i8`).
    Byte,
    /// A bool (in a field, its value is the wire type).
    Bool,
    Double,
    /// A string or binary.
    Binary,
    /// A list of elements, at most `max` of them.
    List(&'static Expect, Max),
    /// A struct (or union) with these fields; other ids are skipped.
    Struct(&'static str, &'static [(i16, Expect)]),
}

impl Expect {
    /// Whether a value of wire type `kind` is read over the same bytes as this.
    fn matches(self, kind: u8) -> bool {
        match self {
            Expect::Int => matches!(kind, I16 | I32 | I64),
            Expect::Byte => kind == BYTE,
            Expect::Bool => matches!(kind, BOOL_TRUE | BOOL_FALSE),
            Expect::Double => kind == DOUBLE,
            Expect::Binary => kind == BINARY,
            Expect::List(..) => kind == LIST,
            Expect::Struct(..) => kind == STRUCT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Expect::Int => "an integer",
            Expect::Byte => "a byte",
            Expect::Bool => "a bool",
            Expect::Double => "a double",
            Expect::Binary => "a string",
            Expect::List(..) => "a list",
            Expect::Struct(name, _) => name,
        }
    }
}

/// How many elements of a list the walk lets through.
#[derive(Debug, Clone, Copy)]
enum Max {
    /// As many as the bytes left can hold.
    Any,
    /// At most this many.
    Of(u64),
    /// At most [`ParquetLimits::max_columns`].
    Columns,
}

const NO_MAX: Max = Max::Any;
const EMPTY: Expect = Expect::Struct("an empty struct", &[]);
const KEY_VALUE: Expect = Expect::Struct("KeyValue", &[(1, Expect::Binary), (2, Expect::Binary)]);
const TIME_UNIT: Expect = Expect::Struct("TimeUnit", &[(1, EMPTY), (2, EMPTY), (3, EMPTY)]);
const TIME_TYPE: Expect = Expect::Struct("TimeType", &[(1, Expect::Bool), (2, TIME_UNIT)]);
const LOGICAL_TYPE: Expect = Expect::Struct(
    "LogicalType",
    &[
        (1, EMPTY),
        (2, EMPTY),
        (3, EMPTY),
        (4, EMPTY),
        (
            5,
            Expect::Struct("DecimalType", &[(1, Expect::Int), (2, Expect::Int)]),
        ),
        (6, EMPTY),
        (7, TIME_TYPE),
        (8, TIME_TYPE),
        (
            10,
            Expect::Struct("IntType", &[(1, Expect::Byte), (2, Expect::Bool)]),
        ),
        (11, EMPTY),
        (12, EMPTY),
        (13, EMPTY),
        (14, EMPTY),
        (15, EMPTY),
        (16, Expect::Struct("VariantType", &[(1, Expect::Byte)])),
        (17, Expect::Struct("GeometryType", &[(1, Expect::Binary)])),
        (
            18,
            Expect::Struct("GeographyType", &[(1, Expect::Binary), (2, Expect::Int)]),
        ),
    ],
);
/// `SchemaElement`, but for `num_children` (field 5), which [`schema_element`] reads.
const SCHEMA_ELEMENT: &[(i16, Expect)] = &[
    (1, Expect::Int),
    (2, Expect::Int),
    (3, Expect::Int),
    (4, Expect::Binary),
    (6, Expect::Int),
    (7, Expect::Int),
    (8, Expect::Int),
    (9, Expect::Int),
    (10, LOGICAL_TYPE),
];
const STATISTICS: Expect = Expect::Struct(
    "Statistics",
    &[
        (1, Expect::Binary),
        (2, Expect::Binary),
        (3, Expect::Int),
        (4, Expect::Int),
        (5, Expect::Binary),
        (6, Expect::Binary),
        (7, Expect::Bool),
        (8, Expect::Bool),
    ],
);
const COLUMN_META_DATA: Expect = Expect::Struct(
    "ColumnMetaData",
    &[
        (1, Expect::Int),
        (2, Expect::List(&Expect::Int, NO_MAX)),
        (4, Expect::Int),
        (5, Expect::Int),
        (6, Expect::Int),
        (7, Expect::Int),
        (9, Expect::Int),
        (10, Expect::Int),
        (11, Expect::Int),
        (12, STATISTICS),
        (
            13,
            Expect::List(
                &Expect::Struct(
                    "PageEncodingStats",
                    &[(1, Expect::Int), (2, Expect::Int), (3, Expect::Int)],
                ),
                NO_MAX,
            ),
        ),
        (14, Expect::Int),
        (15, Expect::Int),
        (
            16,
            Expect::Struct(
                "SizeStatistics",
                &[
                    (1, Expect::Int),
                    (2, Expect::List(&Expect::Int, NO_MAX)),
                    (3, Expect::List(&Expect::Int, NO_MAX)),
                ],
            ),
        ),
        (
            17,
            Expect::Struct(
                "GeospatialStatistics",
                &[
                    (
                        1,
                        Expect::Struct(
                            "BoundingBox",
                            &[
                                (1, Expect::Double),
                                (2, Expect::Double),
                                (3, Expect::Double),
                                (4, Expect::Double),
                                (5, Expect::Double),
                                (6, Expect::Double),
                                (7, Expect::Double),
                                (8, Expect::Double),
                            ],
                        ),
                    ),
                    (2, Expect::List(&Expect::Int, NO_MAX)),
                ],
            ),
        ),
    ],
);
const COLUMN_CHUNK: Expect = Expect::Struct(
    "ColumnChunk",
    &[
        (1, Expect::Binary),
        (2, Expect::Int),
        (3, COLUMN_META_DATA),
        (4, Expect::Int),
        (5, Expect::Int),
        (6, Expect::Int),
        (7, Expect::Int),
        (
            8,
            Expect::Struct(
                "ColumnCryptoMetaData",
                &[
                    (1, EMPTY),
                    (
                        2,
                        Expect::Struct(
                            "EncryptionWithColumnKey",
                            &[
                                (1, Expect::List(&Expect::Binary, NO_MAX)),
                                (2, Expect::Binary),
                            ],
                        ),
                    ),
                ],
            ),
        ),
        (9, Expect::Binary),
    ],
);
/// The parquet crate numbers row groups with an i16: it reads no more than this.
const MAX_ROW_GROUPS: Max = Max::Of(1 << 15);
const ROW_GROUP: Expect = Expect::Struct(
    "RowGroup",
    &[
        // One chunk per leaf column of the schema (the crate checks it after it reserved
        // them).
        (1, Expect::List(&COLUMN_CHUNK, Max::Columns)),
        (2, Expect::Int),
        (3, Expect::Int),
        (
            4,
            Expect::List(
                &Expect::Struct(
                    "SortingColumn",
                    &[(1, Expect::Int), (2, Expect::Bool), (3, Expect::Bool)],
                ),
                NO_MAX,
            ),
        ),
        (5, Expect::Int),
        (7, Expect::Int),
    ],
);
const AES_GCM: Expect = Expect::Struct(
    "AesGcm",
    &[(1, Expect::Binary), (2, Expect::Binary), (3, Expect::Bool)],
);
/// `FileMetaData`, but for the schema (field 2), which [`schema_list`] reads.
const FILE_META_DATA: &[(i16, Expect)] = &[
    (1, Expect::Int),
    (3, Expect::Int),
    (4, Expect::List(&ROW_GROUP, MAX_ROW_GROUPS)),
    (5, Expect::List(&KEY_VALUE, NO_MAX)),
    (6, Expect::Binary),
    (
        7,
        Expect::List(&Expect::Struct("ColumnOrder", &[(1, EMPTY)]), NO_MAX),
    ),
    (
        8,
        Expect::Struct("EncryptionAlgorithm", &[(1, AES_GCM), (2, AES_GCM)]),
    ),
    (9, Expect::Binary),
];

const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;

/// A reader of the thrift compact protocol that never recurses past [`MAX_THRIFT_DEPTH`].
struct Compact<'a> {
    buf: &'a [u8],
    pos: usize,
    /// [`ParquetLimits::max_columns`], for [`Max::Columns`].
    max_columns: u64,
}

impl Compact<'_> {
    fn truncated() -> FooterError {
        FooterError::Malformed("the footer is cut short".into())
    }

    fn byte(&mut self) -> Result<u8, FooterError> {
        let b = *self.buf.get(self.pos).ok_or_else(Self::truncated)?;
        self.pos += 1;
        Ok(b)
    }

    fn advance(&mut self, n: u64) -> Result<(), FooterError> {
        let left = (self.buf.len() - self.pos) as u64;
        if n > left {
            return Err(Self::truncated());
        }
        self.pos += n as usize;
        Ok(())
    }

    fn varint(&mut self) -> Result<u64, FooterError> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(FooterError::Malformed(
            "the footer holds an integer longer than 10 bytes".into(),
        ))
    }

    fn zigzag_i32(&mut self) -> Result<i32, FooterError> {
        let v = self.varint()?;
        let v = ((v >> 1) as i64) ^ -((v & 1) as i64);
        i32::try_from(v)
            .map_err(|_| FooterError::Malformed("the footer holds an i32 out of range".into()))
    }

    /// The next field's id and type, `None` at the struct's end.
    fn field_header(&mut self, last: &mut i16) -> Result<Option<(i16, u8)>, FooterError> {
        let b = self.byte()?;
        if b == 0 {
            return Ok(None);
        }
        let kind = b & 0x0f;
        let delta = b >> 4;
        let id = if delta == 0 {
            let v = self.varint()?;
            let v = ((v >> 1) as i64) ^ -((v & 1) as i64);
            i16::try_from(v).map_err(|_| {
                FooterError::Malformed("the footer holds a field id out of range".into())
            })?
        } else {
            last.wrapping_add(i16::from(delta))
        };
        *last = id;
        Ok(Some((id, kind)))
    }

    /// A list's length and element type. Every element takes at least a byte on the wire
    /// and a struct in a list at least three (each struct of the Parquet footer has a
    /// required field): a length the bytes left cannot hold is refused here, before
    /// anything reserves room for it. (The crate's skip reads no byte for a boolean
    /// element, but a list of them longer than the bytes left is refused all the same.)
    fn list_header(&mut self) -> Result<(u64, u8), FooterError> {
        let b = self.byte()?;
        let size = match b >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        let kind = b & 0x0f;
        self.holds(size, if kind == STRUCT { 3 } else { 1 })?;
        Ok((size, kind))
    }

    /// Whether the bytes left can hold `count` elements of at least `each` bytes.
    fn holds(&self, count: u64, each: u64) -> Result<(), FooterError> {
        let left = (self.buf.len() - self.pos) as u64;
        if count.saturating_mul(each) > left {
            return Err(FooterError::Malformed(format!(
                "the footer declares {count} elements where {left} bytes are left"
            )));
        }
        Ok(())
    }

    /// A field `field` of wire type `kind` in a struct called `name` with `fields`: read
    /// as the parquet crate reads it when it knows the id, skipped by its wire type
    /// otherwise.
    fn field(
        &mut self,
        fields: &[(i16, Expect)],
        name: &str,
        field: i16,
        kind: u8,
        depth: usize,
    ) -> Result<(), FooterError> {
        match fields.iter().find(|(id, _)| *id == field) {
            Some(&(_, expect)) if expect.matches(kind) => self.expect(expect, depth),
            Some(&(_, expect)) => Err(FooterError::Malformed(format!(
                "field {field} of the footer's {name} has thrift type {kind} where Parquet has {}",
                expect.name()
            ))),
            None => self.skip(kind, depth),
        }
    }

    /// A value read as the parquet crate reads `expect` (its wire type already matched;
    /// a field's bool has no bytes).
    fn expect(&mut self, expect: Expect, depth: usize) -> Result<(), FooterError> {
        if depth > MAX_THRIFT_DEPTH {
            return Err(FooterError::Malformed(format!(
                "the footer nests structures more than {MAX_THRIFT_DEPTH} deep"
            )));
        }
        match expect {
            Expect::Bool => Ok(()),
            Expect::Int => self.varint().map(drop),
            Expect::Byte => self.advance(1),
            Expect::Double => self.advance(8),
            Expect::Binary => {
                let n = self.varint()?;
                self.advance(n)
            }
            Expect::List(element, max) => {
                let (count, kind) = self.list_header()?;
                if count == 0 {
                    return Ok(());
                }
                let max = match max {
                    Max::Any => u64::MAX,
                    Max::Of(n) => n,
                    Max::Columns => self.max_columns,
                };
                if count > max {
                    return Err(FooterError::Malformed(format!(
                        "the footer declares a list of {count} {}, more than stone reads ({max})",
                        element.name()
                    )));
                }
                if !element.matches(kind) {
                    return Err(FooterError::Malformed(format!(
                        "a list of the footer holds thrift type {kind} where Parquet has {}",
                        element.name()
                    )));
                }
                for _ in 0..count {
                    self.expect(*element, depth + 1)?;
                }
                Ok(())
            }
            Expect::Struct(name, fields) => {
                let mut id = 0i16;
                while let Some((field, kind)) = self.field_header(&mut id)? {
                    self.field(fields, name, field, kind, depth + 1)?;
                }
                Ok(())
            }
        }
    }

    /// Skips a value of type `kind` as the parquet crate (58) skips a field it does not
    /// know, step for step, so that both read the same bytes next:
    /// - a boolean has no bytes, as a field's does, **also as a list's element**, where
    ///   the compact protocol gives it one byte: the crate reads none, and a walk that read
    ///   one would check other bytes than the crate then parses (a footer with a skipped
    ///   list of booleans led the crate to a 25 GB list header behind the walk's back;
    ///   found by `scripts/fuzz parquet_footer`);
    /// - sets and maps are refused (the crate refuses them), as are unknown types.
    fn skip(&mut self, kind: u8, depth: usize) -> Result<(), FooterError> {
        if depth > MAX_THRIFT_DEPTH {
            return Err(FooterError::Malformed(format!(
                "the footer nests structures more than {MAX_THRIFT_DEPTH} deep"
            )));
        }
        match kind {
            BOOL_TRUE | BOOL_FALSE => Ok(()),
            BYTE => self.advance(1),
            I16 | I32 | I64 => self.varint().map(drop),
            DOUBLE => self.advance(8),
            BINARY => {
                let n = self.varint()?;
                self.advance(n)
            }
            LIST => {
                let (count, element) = self.list_header()?;
                if count > 0 && !matches!(element, BOOL_TRUE..=BINARY | LIST | STRUCT) {
                    return Err(FooterError::Malformed(format!(
                        "a list of the footer holds thrift type {element}, which Parquet does not read"
                    )));
                }
                for _ in 0..count {
                    self.skip(element, depth + 1)?;
                }
                Ok(())
            }
            STRUCT => {
                let mut id = 0i16;
                while let Some((_, kind)) = self.field_header(&mut id)? {
                    self.skip(kind, depth + 1)?;
                }
                Ok(())
            }
            SET | MAP => Err(FooterError::Malformed(format!(
                "the footer holds a thrift {} where Parquet has none",
                if kind == SET { "set" } else { "map" }
            ))),
            other => Err(FooterError::Malformed(format!(
                "the footer holds an unknown thrift type {other}"
            ))),
        }
    }
}
