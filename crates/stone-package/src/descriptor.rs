//! `datasets.yaml`: the package's configuration, parsed with every error located at its
//! file, line and column.
//!
//! The file holds no branch and no environment: those come from the command line, CI and
//! git, and from `stone env`. A `branch`, `env` or `environment` key anywhere is an error,
//! except inside the free `metadata` maps, which are the user's data.

use std::path::{Path, PathBuf};

use marked_yaml::{LoaderOptions, Node, Spanned};
use serde::{Deserialize, Serialize};
use yaml_rust2::parser::{Event, Parser};

use crate::codes;
use crate::kind::AssetKind;

/// The package configuration file's name.
pub const DESCRIPTOR_FILE: &str = "datasets.yaml";
/// Larger descriptors are refused before parsing.
pub const MAX_DESCRIPTOR_BYTES: u64 = 32 * 1024 * 1024;
/// Deeper nesting is refused before parsing.
pub const MAX_DEPTH: usize = 64;

/// Keys that never belong in `datasets.yaml`, and where their value comes from instead.
const FORBIDDEN_KEYS: &[(&str, &str)] = &[
    (
        "branch",
        "the branch comes from `--branch`, else $CI_HEAD_REF or $CI_REF_NAME, else the current git branch",
    ),
    (
        "env",
        "the environment is chosen with `--env` when pushing (see `stone env list`)",
    ),
    (
        "environment",
        "the environment is chosen with `--env` when pushing (see `stone env list`)",
    ),
];

/// A line and column in a file, both counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

/// An error in `datasets.yaml`, at a place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", located(file, *location))]
pub struct DescriptorError {
    /// Stable, dotted error code (`package.ext_zone`), the same in `--json` output.
    pub code: &'static str,
    pub file: PathBuf,
    pub location: Option<Location>,
    pub message: String,
    pub hint: Option<String>,
}

fn located(file: &Path, location: Option<Location>) -> String {
    match location {
        Some(Location { line, column }) => format!("{}:{line}:{column}", file.display()),
        None => file.display().to_string(),
    }
}

impl DescriptorError {
    pub fn at(file: &Path, location: Option<Location>, message: impl Into<String>) -> Self {
        DescriptorError {
            code: codes::INVALID,
            file: file.to_owned(),
            location,
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = code;
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

pub(crate) fn location_of(span: &marked_yaml::Span) -> Option<Location> {
    span.start().map(|m| Location {
        line: m.line(),
        column: m.column(),
    })
}

// --- The file, as written -------------------------------------------------------------

/// `datasets.yaml` as written. Unknown keys are errors.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DescriptorFile {
    pub name: Option<Spanned<String>>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub license: Option<String>,
    /// Free metadata; read from the node tree (typed scalars), see [`node_to_json`].
    pub metadata: Option<serde::de::IgnoredAny>,
    pub publish: Option<PublishFile>,
    pub resources: Option<Vec<ResourceFile>>,
}

/// The package's `publish` settings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishFile {
    /// `stone:<ns>`: the target namespace.
    pub to: Option<Spanned<String>>,
    /// Overrides the slug; only valid when the package has exactly one resource.
    pub as_name: Option<Spanned<String>>,
    /// `true` makes the package public; otherwise reading it needs a token.
    pub public: Option<bool>,
    /// Defaults for CSV and TSV output.
    pub dialect: Option<DialectFile>,
}

/// A resource of the package.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceFile {
    /// Relative to the package directory, `/`-separated; a file or a directory.
    pub path: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub kind: Option<Spanned<String>>,
    // The rarely written parts are boxed: a resource without them is ~0.4 KB instead of
    // ~1.3 KB while the descriptor is read (issue 27: 100,000 resources held 176 MB here).
    pub schema: Option<Box<TableSchema>>,
    /// How to read the input (CSV/TSV).
    pub dialect: Option<Box<DialectFile>>,
    pub metadata: Option<serde::de::IgnoredAny>,
    pub publish: Option<Box<ResourcePublishFile>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourcePublishFile {
    pub as_name: Option<Spanned<String>>,
}

/// Table Dialect properties (Frictionless), plus `quoting` for output.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DialectFile {
    pub delimiter: Option<Spanned<String>>,
    pub line_terminator: Option<Spanned<String>>,
    pub quote_char: Option<Spanned<String>>,
    pub double_quote: Option<bool>,
    pub escape_char: Option<Spanned<String>>,
    pub null_sequence: Option<String>,
    pub skip_initial_space: Option<bool>,
    pub header: Option<bool>,
    pub comment_char: Option<Spanned<String>>,
    pub quoting: Option<Spanned<String>>,
}

/// A Frictionless Table Schema.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TableSchema {
    pub fields: Vec<SchemaField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_key: Option<PrimaryKey>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_values: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum PrimaryKey {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaField {
    pub name: String,
    #[serde(rename = "type", default)]
    pub field_type: FieldType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<FieldConstraints>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FieldConstraints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
}

/// Table Schema field types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum FieldType {
    String,
    Number,
    Integer,
    Boolean,
    Object,
    Array,
    Date,
    Time,
    Datetime,
    Year,
    Yearmonth,
    Duration,
    Geopoint,
    Geojson,
    /// No type declared: inferred from the data.
    #[default]
    Any,
}

impl FieldType {
    const ALL: [(&'static str, FieldType); 15] = [
        ("string", FieldType::String),
        ("number", FieldType::Number),
        ("integer", FieldType::Integer),
        ("boolean", FieldType::Boolean),
        ("object", FieldType::Object),
        ("array", FieldType::Array),
        ("date", FieldType::Date),
        ("time", FieldType::Time),
        ("datetime", FieldType::Datetime),
        ("year", FieldType::Year),
        ("yearmonth", FieldType::Yearmonth),
        ("duration", FieldType::Duration),
        ("geopoint", FieldType::Geopoint),
        ("geojson", FieldType::Geojson),
        ("any", FieldType::Any),
    ];
}

impl TryFrom<String> for FieldType {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        FieldType::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, t)| *t)
            .ok_or_else(|| {
                let names = FieldType::ALL.map(|(n, _)| n);
                format!(
                    "unknown field type `{s}`; accepted: {}{}",
                    names.join(", "),
                    crate::did_you_mean(&s, names)
                        .map(|m| format!(" (did you mean `{m}`?)"))
                        .unwrap_or_default()
                )
            })
    }
}

impl From<FieldType> for &'static str {
    fn from(t: FieldType) -> &'static str {
        FieldType::ALL
            .iter()
            .find(|(_, x)| *x == t)
            .map(|(n, _)| *n)
            .unwrap_or("any")
    }
}

// --- Parsing --------------------------------------------------------------------------

/// The parsed file with its node tree (for free metadata and positions).
pub struct ParsedDescriptor {
    pub file: PathBuf,
    pub root: Node,
    pub descriptor: DescriptorFile,
}

/// Parses `text` as the `datasets.yaml` at `file` (the path is only used in messages).
pub fn parse_descriptor(file: &Path, text: &str) -> Result<ParsedDescriptor, DescriptorError> {
    check_structure(file, text)?;
    let options = LoaderOptions::default()
        .error_on_duplicate_keys(true)
        .toplevel_mapping();
    let root =
        marked_yaml::parse_yaml_with_options(0, text, options).map_err(|e| load_error(file, e))?;
    check_forbidden_keys(file, &root)?;
    let descriptor: DescriptorFile = marked_yaml::from_node(&root).map_err(|e| {
        let mut error = deserialize_error(file, e.into_inner());
        if error.location.is_none() {
            error.location = locate_unplaced(&root, &error.message);
        }
        error
    })?;
    Ok(ParsedDescriptor {
        file: file.to_owned(),
        root,
        descriptor,
    })
}

/// Refuses what the loader cannot take or would take badly, before it runs: nesting deeper
/// than [`MAX_DEPTH`], anchors and aliases, explicit tags.
fn check_structure(file: &Path, text: &str) -> Result<(), DescriptorError> {
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    loop {
        let (event, mark) = match parser.next_token() {
            Ok(next) => next,
            Err(e) => {
                let m = e.marker();
                return Err(DescriptorError::at(
                    file,
                    Some(Location {
                        line: m.line(),
                        column: m.col() + 1,
                    }),
                    format!("invalid YAML: {}", e.info()),
                ));
            }
        };
        let at = Some(Location {
            line: mark.line(),
            column: mark.col() + 1,
        });
        let refuse_anchor = |anchor: usize| {
            (anchor != 0).then(|| {
                DescriptorError::at(
                    file,
                    at,
                    "anchors and aliases (`&name`, `*name`) are not supported in datasets.yaml",
                )
                .with_hint("write the value out where it is needed")
            })
        };
        match event {
            Event::StreamEnd => return Ok(()),
            Event::Alias(_) => return Err(refuse_anchor(1).expect("nonzero")),
            Event::Scalar(_, _, anchor, tag) => {
                if let Some(e) = refuse_anchor(anchor) {
                    return Err(e);
                }
                if tag.is_some() {
                    return Err(DescriptorError::at(
                        file,
                        at,
                        "explicit YAML tags (`!tag`) are not supported in datasets.yaml",
                    ));
                }
            }
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                if let Some(e) = refuse_anchor(anchor) {
                    return Err(e);
                }
                if tag.is_some() {
                    return Err(DescriptorError::at(
                        file,
                        at,
                        "explicit YAML tags (`!tag`) are not supported in datasets.yaml",
                    ));
                }
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(DescriptorError::at(
                        file,
                        at,
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
}

fn load_error(file: &Path, error: marked_yaml::LoadError) -> DescriptorError {
    use marked_yaml::LoadError::*;
    let at = |m: &marked_yaml::Marker| {
        Some(Location {
            line: m.line(),
            column: m.column(),
        })
    };
    match error {
        TopLevelMustBeMapping(m) => DescriptorError::at(
            file,
            at(&m),
            "datasets.yaml must be a mapping of keys (`name:`, `publish:`, `resources:` …)",
        ),
        TopLevelMustBeSequence(m) => {
            DescriptorError::at(file, at(&m), "unexpected top-level sequence")
        }
        UnexpectedAnchor(m) => DescriptorError::at(
            file,
            at(&m),
            "anchors and aliases are not supported in datasets.yaml",
        ),
        MappingKeyMustBeScalar(m) => {
            DescriptorError::at(file, at(&m), "mapping keys must be plain strings")
        }
        UnexpectedTag(m) => DescriptorError::at(
            file,
            at(&m),
            "explicit YAML tags (`!tag`) are not supported in datasets.yaml",
        ),
        ScanError(m, e) => DescriptorError::at(file, at(&m), format!("invalid YAML: {}", e.info())),
        DuplicateKey(inner) => {
            let first = inner
                .prev_key
                .span()
                .start()
                .map(|m| format!(" (first at line {})", m.line()))
                .unwrap_or_default();
            DescriptorError::at(
                file,
                location_of(inner.key.span()),
                format!("duplicate key `{}`{first}", inner.key.as_str()),
            )
        }
    }
}

fn deserialize_error(file: &Path, error: marked_yaml::Error) -> DescriptorError {
    let location = error.start_mark().map(|m| Location {
        line: m.line(),
        column: m.column(),
    });
    match &error {
        marked_yaml::Error::UnknownFieldError(field, expected, _) => {
            let mut e = DescriptorError::at(
                file,
                location,
                format!(
                    "unknown key `{field}`; expected one of: {}",
                    expected.join(", ")
                ),
            );
            if let Some(m) = crate::did_you_mean(field, expected.iter().copied()) {
                e = e.with_hint(format!("did you mean `{m}`?"));
            }
            e
        }
        marked_yaml::Error::NotBoolean(_) => {
            DescriptorError::at(file, location, "expected `true` or `false`")
        }
        other => DescriptorError::at(file, location, tidy_serde_message(&other.to_string())),
    }
}

/// serde's own wording, made to read like ours.
fn tidy_serde_message(message: &str) -> String {
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("missing required key {field}");
    }
    message
        .replace("invalid type: ", "expected ")
        .replace(", expected ", " where the file needs ")
}

/// Some deserialization errors come without a place (unknown keys, custom checks): find the
/// first key, or scalar value, that the message names in backticks.
fn locate_unplaced(root: &Node, message: &str) -> Option<Location> {
    let named = message.split('`').nth(1)?;
    let unknown_key = message.starts_with("unknown key");
    let mut stack = vec![root];
    let mut found_value = None;
    while let Some(node) = stack.pop() {
        match node {
            Node::Mapping(map) => {
                for (key, value) in map.iter() {
                    if key.as_str() == named {
                        return location_of(key.span());
                    }
                    stack.push(value);
                }
            }
            Node::Sequence(seq) => stack.extend(seq.iter().rev()),
            Node::Scalar(s) => {
                if !unknown_key && found_value.is_none() && s.as_str() == named {
                    found_value = location_of(s.span());
                }
            }
        }
    }
    found_value
}

fn check_forbidden_keys(file: &Path, root: &Node) -> Result<(), DescriptorError> {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node {
            Node::Mapping(map) => {
                for (key, value) in map.iter() {
                    let name = key.as_str().to_ascii_lowercase();
                    if let Some((_, source)) = FORBIDDEN_KEYS.iter().find(|(k, _)| *k == name) {
                        return Err(DescriptorError::at(
                            file,
                            location_of(key.span()),
                            format!(
                                "`{}` does not belong in datasets.yaml: {source}",
                                key.as_str()
                            ),
                        )
                        .with_hint(format!("remove the `{}` key", key.as_str())));
                    }
                    // Free `metadata` maps are the user's data: `environment: marine` there
                    // says something about the data, not about the push.
                    if name != "metadata" {
                        stack.push(value);
                    }
                }
            }
            Node::Sequence(seq) => stack.extend(seq.iter()),
            Node::Scalar(_) => {}
        }
    }
    Ok(())
}

/// Free metadata as JSON: plain scalars typed by the YAML core schema (booleans, integers,
/// floats, null), quoted ones kept as strings.
pub fn node_to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value;
    match node {
        Node::Scalar(s) => {
            let text = s.as_str();
            if !s.may_coerce() {
                return Value::String(text.to_owned());
            }
            match text {
                "~" | "null" | "Null" | "NULL" | "" => Value::Null,
                "true" | "True" | "TRUE" => Value::Bool(true),
                "false" | "False" | "FALSE" => Value::Bool(false),
                _ => {
                    if let Ok(i) = text.parse::<i64>() {
                        Value::from(i)
                    } else if let Some(f) = text
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite())
                        .filter(|_| looks_numeric(text))
                    {
                        Value::from(f)
                    } else {
                        Value::String(text.to_owned())
                    }
                }
            }
        }
        Node::Sequence(seq) => Value::Array(seq.iter().map(node_to_json).collect()),
        Node::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.as_str().to_owned(), node_to_json(v)))
                .collect(),
        ),
    }
}

fn looks_numeric(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
}

/// The node at `key` of a mapping node.
pub(crate) fn node_location(node: Option<&Node>) -> Option<Location> {
    node.and_then(|n| location_of(n.span()))
}

pub(crate) fn child<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    node.as_mapping()?.get_node(key)
}

/// Which kind a resource declares, parsed.
pub(crate) fn parse_kind(kind: &Spanned<String>) -> Result<AssetKind, (Option<Location>, String)> {
    kind.parse::<AssetKind>()
        .map_err(|e| (location_of(kind.span()), e))
}
