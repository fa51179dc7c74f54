//! `datasets.yaml`: the package's configuration, parsed with every error located at its
//! file, line and column.
//!
//! The file holds no branch and no environment: those come from the command line, CI and
//! git, and from `stone env`. A `branch`, `env` or `environment` key anywhere is an error,
//! except inside the free `metadata` maps, which are the user's data.

use std::path::{Path, PathBuf};

use marked_yaml::loader::DuplicateKeyInner;
use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode, MarkedSequenceNode};
use marked_yaml::{LoadError, Marker, Node, Span, Spanned};
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
    /// Read one at a time: [`resource_nodes`], [`resource_file`].
    pub resources: Option<Vec<serde::de::IgnoredAny>>,
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

/// The parsed file: its top-level mapping (for free metadata and positions) and what it
/// says, except the resources, which are read one at a time ([`resource_nodes`]): a
/// descriptor of 100,000 resources is never held as one node tree (issue 27: the tree and
/// the typed resources together were most of the client's memory).
pub struct ParsedDescriptor {
    pub file: PathBuf,
    /// The top-level mapping. When `resources` is a sequence, it stands there empty (with
    /// its place in the file): its items come from [`resource_nodes`].
    pub root: Node,
    /// The top-level keys, typed; `resources` only tells whether it is there (and that it
    /// is a sequence).
    pub descriptor: DescriptorFile,
    /// How many items the top-level `resources` sequence has.
    pub resource_count: usize,
}

/// Parses `text` as the `datasets.yaml` at `file` (the path is only used in messages):
/// checks the whole file (YAML, nesting, anchors, tags, duplicate and forbidden keys, the
/// type of every top-level key), holding one resource at a time.
pub fn parse_descriptor(file: &Path, text: &str) -> Result<ParsedDescriptor, DescriptorError> {
    let mut loader = Loader::new(file, text);
    let mut resource_count = 0usize;
    while let Some(item) = loader.next_item()? {
        if loader.forbidden.is_none()
            && let Err(e) = check_forbidden_keys(file, &item)
        {
            loader.forbidden = Some(e);
        }
        resource_count += 1;
    }
    // The errors in the order the file's loader found them: the YAML first, then the keys
    // that do not belong, then the types.
    if let Some(e) = loader.load_error.take() {
        return Err(e);
    }
    if let Some(e) = loader.forbidden.take() {
        return Err(e);
    }
    let root = loader.root.take().unwrap_or_else(|| {
        Node::from(MarkedMappingNode::new_empty(marked_yaml::Span::new_blank()))
    });
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
        resource_count,
    })
}

/// The items of the top-level `resources` sequence of a descriptor that
/// [`parse_descriptor`] accepted, one node at a time.
pub fn resource_nodes<'a>(
    file: &'a Path,
    text: &'a str,
) -> impl Iterator<Item = Result<Node, DescriptorError>> + 'a {
    let mut loader = Loader::new(file, text);
    std::iter::from_fn(move || loader.next_item().transpose())
}

/// One resource as written, typed; errors located in its node.
pub fn resource_file(file: &Path, node: &Node) -> Result<ResourceFile, DescriptorError> {
    marked_yaml::from_node(node).map_err(|e| {
        let mut error = deserialize_error(file, e.into_inner());
        if error.location.is_none() {
            error.location = locate_unplaced(node, &error.message);
        }
        error
    })
}

/// A container being read.
enum Open {
    Mapping {
        node: MarkedMappingNode,
        /// The key read, waiting for its value.
        key: Option<MarkedScalarNode>,
    },
    Sequence {
        node: MarkedSequenceNode,
        /// The top-level `resources`: its items are handed out, not kept.
        streamed: bool,
    },
}

/// `datasets.yaml`'s events turned into nodes as marked-yaml's loader does (the same
/// nodes, spans and errors), except that the items of the top-level `resources` sequence
/// are handed out one at a time ([`Loader::next_item`]) instead of kept in the tree. Also
/// refuses what the loader cannot take or would take badly: nesting deeper than
/// [`MAX_DEPTH`], anchors and aliases, explicit tags (anywhere in the file, every
/// document).
struct Loader<'a> {
    file: &'a Path,
    parser: Parser<std::str::Chars<'a>>,
    stack: Vec<Open>,
    depth: usize,
    /// Nodes are built (the first document, until a load error).
    building: bool,
    started: bool,
    ended: bool,
    root: Option<Node>,
    /// The first error of loading the first document (marked-yaml's `LoadError`).
    load_error: Option<DescriptorError>,
    /// The first key that does not belong in the file.
    forbidden: Option<DescriptorError>,
}

impl<'a> Loader<'a> {
    fn new(file: &'a Path, text: &'a str) -> Self {
        Loader {
            file,
            parser: Parser::new_from_str(text),
            stack: Vec::new(),
            depth: 0,
            building: true,
            started: false,
            ended: false,
            root: None,
            load_error: None,
            forbidden: None,
        }
    }

    /// Reads the file up to the next item of the top-level `resources` sequence; `None`
    /// at the end of the file. Structural errors end the reading at once; load errors
    /// stop building nodes (see `load_error`) and the file is read on for the former.
    fn next_item(&mut self) -> Result<Option<Node>, DescriptorError> {
        if self.ended {
            return Ok(None);
        }
        loop {
            let (event, mark) = match self.parser.next_token() {
                Ok(next) => next,
                Err(e) => {
                    self.ended = true;
                    let m = e.marker();
                    return Err(DescriptorError::at(
                        self.file,
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
            let marker = Marker::new(0, mark.index(), mark.line(), mark.col() + 1);
            let file = self.file;
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
            let refuse_tag = |tagged: bool| {
                tagged.then(|| {
                    DescriptorError::at(
                        file,
                        at,
                        "explicit YAML tags (`!tag`) are not supported in datasets.yaml",
                    )
                })
            };
            let structural = match &event {
                Event::Alias(_) => refuse_anchor(1),
                Event::Scalar(_, _, anchor, tag) => {
                    refuse_anchor(*anchor).or_else(|| refuse_tag(tag.is_some()))
                }
                Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                    refuse_anchor(*anchor)
                        .or_else(|| refuse_tag(tag.is_some()))
                        .or_else(|| {
                            self.depth += 1;
                            (self.depth > MAX_DEPTH).then(|| {
                                DescriptorError::at(
                                    file,
                                    at,
                                    format!("nesting deeper than {MAX_DEPTH} levels"),
                                )
                            })
                        })
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    self.depth = self.depth.saturating_sub(1);
                    None
                }
                _ => None,
            };
            if let Some(e) = structural {
                self.ended = true;
                return Err(e);
            }
            match event {
                Event::StreamEnd => {
                    self.ended = true;
                    if self.building && !self.started {
                        // An empty file: an empty mapping.
                        self.root = Some(Node::from(MarkedMappingNode::new_empty(
                            Span::new_with_marks(marker, marker),
                        )));
                    }
                    return Ok(None);
                }
                Event::DocumentStart => self.started = true,
                Event::DocumentEnd => self.building = false,
                Event::Scalar(value, ..) if self.building => {
                    let scalar = MarkedScalarNode::new(Span::new_start(marker), value);
                    if self.stack.is_empty() {
                        self.fail(LoadError::TopLevelMustBeMapping(marker));
                    } else if let Some(item) = self.complete(Node::from(scalar)) {
                        return Ok(Some(item));
                    }
                }
                Event::MappingStart(..) | Event::SequenceStart(..) if self.building => {
                    let is_mapping = matches!(event, Event::MappingStart(..));
                    match self.stack.last() {
                        None if !is_mapping => {
                            self.fail(LoadError::TopLevelMustBeMapping(marker));
                            continue;
                        }
                        Some(Open::Mapping { key: None, .. }) => {
                            self.fail(LoadError::MappingKeyMustBeScalar(marker));
                            continue;
                        }
                        _ => {}
                    }
                    let span = Span::new_start(marker);
                    let open = if is_mapping {
                        Open::Mapping {
                            node: MarkedMappingNode::new_empty(span),
                            key: None,
                        }
                    } else {
                        let streamed = self.stack.len() == 1
                            && matches!(
                                self.stack.last(),
                                Some(Open::Mapping { key: Some(key), .. }) if key.as_str() == "resources"
                            );
                        Open::Sequence {
                            node: MarkedSequenceNode::new_empty(span),
                            streamed,
                        }
                    };
                    self.stack.push(open);
                }
                Event::MappingEnd | Event::SequenceEnd if self.building => {
                    let Some(open) = self.stack.pop() else {
                        continue;
                    };
                    let node = match open {
                        Open::Mapping { mut node, .. } => {
                            set_end(node.span_mut(), marker);
                            Node::from(node)
                        }
                        Open::Sequence { mut node, .. } => {
                            set_end(node.span_mut(), marker);
                            Node::from(node)
                        }
                    };
                    if self.stack.is_empty() {
                        self.root = Some(node);
                    } else if let Some(item) = self.complete(node) {
                        return Ok(Some(item));
                    }
                }
                _ => {}
            }
        }
    }

    /// A load error: the first one is kept, and no more nodes are built.
    fn fail(&mut self, error: LoadError) {
        self.building = false;
        self.stack.clear();
        if self.load_error.is_none() {
            self.load_error = Some(load_error(self.file, error));
        }
    }

    /// Puts a finished node in its container; an item of `resources` is returned instead.
    fn complete(&mut self, node: Node) -> Option<Node> {
        let duplicate = match self.stack.last_mut()? {
            Open::Sequence { streamed: true, .. } => return Some(node),
            Open::Sequence { node: seq, .. } => {
                seq.push(node);
                return None;
            }
            Open::Mapping {
                key: key @ None, ..
            } => {
                // Only scalars get here as keys (the others were refused when they began).
                if let Node::Scalar(scalar) = node {
                    *key = Some(scalar);
                }
                return None;
            }
            Open::Mapping { node: map, key } => {
                let key = key.take()?;
                if map.contains_key(key.as_str()) {
                    let prev_key = map
                        .keys()
                        .find(|k| k.as_str() == key.as_str())
                        .cloned()
                        .unwrap_or_else(|| key.clone());
                    DuplicateKeyInner { prev_key, key }
                } else {
                    map.insert(key, node);
                    return None;
                }
            }
        };
        self.fail(LoadError::DuplicateKey(Box::new(duplicate)));
        None
    }
}

fn set_end(span: &mut Span, end: Marker) {
    let start = span.start().copied();
    *span = match start {
        Some(start) => Span::new_with_marks(start, end),
        None => Span::new_blank(),
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use marked_yaml::LoaderOptions;

    const FILE: &str = "datasets.yaml";

    /// The whole file as marked-yaml's loader reads it (what the loader here must match).
    fn marked(text: &str) -> Result<Node, LoadError> {
        let options = LoaderOptions::default()
            .error_on_duplicate_keys(true)
            .toplevel_mapping();
        marked_yaml::parse_yaml_with_options(0, text, options)
    }

    /// The same node: values, and the span of every node and key.
    fn same(a: &Node, b: &Node) -> bool {
        if a.span() != b.span() {
            return false;
        }
        match (a, b) {
            (Node::Scalar(a), Node::Scalar(b)) => a.as_str() == b.as_str(),
            (Node::Sequence(a), Node::Sequence(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same(a, b))
            }
            (Node::Mapping(a), Node::Mapping(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b.iter()).all(|((ka, va), (kb, vb))| {
                        ka.as_str() == kb.as_str() && ka.span() == kb.span() && same(va, vb)
                    })
            }
            _ => false,
        }
    }

    /// Reads `text` with the loader: its items, its root, its load error (a structural
    /// error is returned as `Err`).
    /// The items, the root and the load error of a file.
    type Loaded = (Vec<Node>, Option<Node>, Option<DescriptorError>);

    fn load(text: &str) -> Result<Loaded, DescriptorError> {
        let mut loader = Loader::new(Path::new(FILE), text);
        let mut items = Vec::new();
        while let Some(item) = loader.next_item()? {
            items.push(item);
        }
        Ok((items, loader.root.take(), loader.load_error.take()))
    }

    #[test]
    fn the_loader_builds_what_marked_yaml_builds_the_resources_one_at_a_time() {
        let texts = [
            "",
            "# only a comment\n",
            "---\n",
            "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}, {path: b.csv, name: b}]\n",
            "resources:\n  - path: a.csv\n    metadata: {x: [1, 2, {y: z}]}\n  - path: b\n    kind: BLOB\nname: n\n",
            "resources:\n- a.csv\n- [nested, list]\n- {path: c}\n",
            "resources: {path: a.csv}\n",
            "resources: a.csv\n",
            "resources: []\npublish: {to: x}\n",
            "metadata: {resources: [1, 2]}\nresources: [{path: a}]\n",
            "a: 1\n---\nb: 2\n",
            // Load errors: duplicate keys (top level, in a resource, nested), keys that are
            // not scalars, a top level that is not a mapping.
            "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\npublish: {to: \"stone:u\"}\n",
            "resources:\n  - path: a.csv\n    path: b.csv\n",
            "resources:\n  - path: a.csv\n  - path: b\n    metadata: {k: 1, k: 2}\n",
            "a: 1\na: {b: 1, b: 2}\n",
            "resources: [{path: a}]\nresources: [{path: b}]\n",
            "? [a, b]\n: c\n",
            "resources:\n  - ? {x: 1}\n    : y\n",
            "- just\n- a list\n",
            "just a scalar\n",
        ];
        for text in texts {
            let (items, root, error) = load(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            match marked(text) {
                Err(expected) => {
                    assert_eq!(
                        error,
                        Some(load_error(Path::new(FILE), expected)),
                        "{text:?}"
                    );
                }
                Ok(expected) => {
                    assert_eq!(error, None, "{text:?}");
                    let root = root.unwrap_or_else(|| panic!("{text:?}: no root"));
                    let (Node::Mapping(expected), Node::Mapping(root)) = (&expected, &root) else {
                        panic!("{text:?}: not mappings");
                    };
                    assert_eq!(expected.len(), root.len(), "{text:?}");
                    for ((ek, ev), (k, v)) in expected.iter().zip(root.iter()) {
                        assert!(
                            ek.as_str() == k.as_str() && ek.span() == k.span(),
                            "{text:?}"
                        );
                        match (ek.as_str(), ev) {
                            ("resources", Node::Sequence(seq)) => {
                                // Handed out one at a time, and left empty in the tree.
                                assert_eq!(v.span(), ev.span(), "{text:?}");
                                assert!(v.as_sequence().is_some_and(|s| s.is_empty()));
                                assert_eq!(seq.len(), items.len(), "{text:?}");
                                for (e, item) in seq.iter().zip(&items) {
                                    assert!(same(e, item), "{text:?}: {e:?} / {item:?}");
                                }
                            }
                            _ => assert!(same(ev, v), "{text:?}: {ev:?} / {v:?}"),
                        }
                    }
                    if !matches!(expected.get_node("resources"), Some(Node::Sequence(_))) {
                        assert!(items.is_empty(), "{text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn structural_errors_end_the_reading_wherever_they_are() {
        for (text, expected) in [
            ("resources: [{path: a}]\nx: &a 1\n", "anchors and aliases"),
            ("resources:\n  - path: !tag a\n", "explicit YAML tags"),
            ("a: [1\n", "invalid YAML"),
            // After a first document, and after a load error.
            ("a: 1\n---\nb: &x 1\n", "anchors and aliases"),
            ("a: 1\na: 2\nb: !t 3\n", "explicit YAML tags"),
        ] {
            let error = load(text)
                .err()
                .unwrap_or_else(|| panic!("{text:?} loaded"));
            assert!(error.message.contains(expected), "{text:?}: {error}");
        }
        let deep = format!(
            "resources: [{{path: a, metadata: {}{}}}]\n",
            "[".repeat(70),
            "]".repeat(70)
        );
        let error = load(&deep).expect_err("too deep");
        assert!(error.message.contains("nesting deeper than 64"), "{error}");
    }

    #[test]
    fn a_resource_is_typed_and_its_errors_located_on_its_own() {
        let text = "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n  - path: b.csv\n    knid: BLOB\n";
        let parsed = parse_descriptor(Path::new(FILE), text).unwrap();
        assert_eq!(parsed.resource_count, 2);
        let mut nodes = resource_nodes(Path::new(FILE), text);
        let first = resource_file(Path::new(FILE), &nodes.next().unwrap().unwrap()).unwrap();
        assert_eq!(first.path.as_deref().map(String::as_str), Some("a.csv"));
        let error = resource_file(Path::new(FILE), &nodes.next().unwrap().unwrap())
            .err()
            .unwrap();
        assert!(error.message.starts_with("unknown key `knid`"), "{error}");
        assert_eq!(error.location, Some(Location { line: 5, column: 5 }));
        assert!(nodes.next().is_none());
        // A key that does not belong, in a resource: found by the first reading.
        let text = "resources:\n  - path: a.csv\n  - path: b.csv\n    branch: main\n";
        let error = parse_descriptor(Path::new(FILE), text).err().unwrap();
        assert!(
            error.message.contains("`branch` does not belong"),
            "{error}"
        );
        assert_eq!(error.location, Some(Location { line: 4, column: 5 }));
    }
}
