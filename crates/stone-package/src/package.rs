//! A package resolved from its `datasets.yaml`: every resource with its files, kind, slug
//! and settings, every path checked to stay inside the package and out of `ext/`.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use marked_yaml::Spanned;
use serde::Serialize;

use crate::codes;
use crate::descriptor::{
    self, DESCRIPTOR_FILE, DescriptorError, DialectFile, Location, MAX_DESCRIPTOR_BYTES,
    TableSchema, child, location_of, node_location, node_to_json,
};
use crate::format::{Format, detect_kind};
use crate::kind::AssetKind;
use crate::name::{Destination, Label, sanitize_slug};

/// The zone only `stone data import` writes; pushes refuse it.
pub const EXT_ZONE: &str = "ext";
/// The package's own state directory (hash cache, resume state); never a resource.
pub const STATE_DIR: &str = ".stone";

mod walk;
use walk::collect_files;
pub(crate) use walk::file_identity;
#[cfg(test)]
use walk::package_file;
pub use walk::{Folder, FolderWalk};

/// Errors of loading a package.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PackageError {
    #[error("no {DESCRIPTOR_FILE} in {}", dir.display())]
    NoDescriptor { dir: PathBuf },
    /// `reason`: "does not exist", "is not a folder".
    #[error("the package {} {reason}", dir.display())]
    NoFolder { dir: PathBuf, reason: &'static str },
    #[error(transparent)]
    Descriptor(#[from] DescriptorError),
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl PackageError {
    pub fn code(&self) -> &'static str {
        match self {
            PackageError::NoDescriptor { .. } => codes::NO_DESCRIPTOR,
            PackageError::NoFolder { .. } => codes::NO_FOLDER,
            PackageError::Descriptor(e) => e.code,
            PackageError::Io { .. } => codes::IO,
        }
    }

    pub fn hint(&self) -> Option<String> {
        match self {
            PackageError::NoDescriptor { .. } => Some(format!(
                "a package is a folder with a {DESCRIPTOR_FILE}; pass its path (`stone package push PATH`) or run from inside it"
            )),
            PackageError::NoFolder { .. } => Some(format!(
                "pass the path of the folder that holds the package's {DESCRIPTOR_FILE} (`stone package push PATH`), or run from inside it"
            )),
            PackageError::Descriptor(e) => e.hint.clone(),
            PackageError::Io { .. } => None,
        }
    }
}

/// A loaded package.
#[derive(Debug, Clone, Serialize)]
pub struct Package {
    /// The package directory.
    pub root: PathBuf,
    /// Its `datasets.yaml`.
    pub descriptor: PathBuf,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub license: Option<String>,
    pub metadata: serde_json::Value,
    pub publish: Option<Publish>,
    pub resources: Vec<Resource>,
}

/// Package-level publish settings.
#[derive(Debug, Clone, Serialize)]
pub struct Publish {
    /// Where to push (`stone:<ns>`, a blob-store or https URL); `None` when `publish.to` is
    /// not set.
    pub to: Option<Destination>,
    /// Where `publish.to` is (or `publish`, when it is missing).
    #[serde(skip)]
    pub location: Option<Location>,
    pub public: bool,
    pub dialect: Option<Dialect>,
}

/// CSV/TSV dialect: how to read an input, or the package's defaults for output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Dialect {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delimiter: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_terminator: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote_char: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_quote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escape_char: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub null_sequence: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_initial_space: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_char: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quoting: Option<Quoting>,
}

/// When CSV output quotes a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Quoting {
    /// Only fields that need it.
    Minimal,
    All,
    /// Every field that is not a number.
    Nonnumeric,
    /// Never (fields that would need it are escaped).
    None,
}

impl Quoting {
    const ALL: [(&'static str, Quoting); 4] = [
        ("minimal", Quoting::Minimal),
        ("all", Quoting::All),
        ("nonnumeric", Quoting::Nonnumeric),
        ("none", Quoting::None),
    ];
}

/// How a resource's slug was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlugSource {
    /// The resource's `publish.as_name`.
    AsName,
    /// The package's `publish.as_name` (single-resource packages).
    PackageAsName,
    /// The resource's `name`, sanitized.
    Name,
    /// The file name without its extension, sanitized.
    FileStem,
}

/// Whether the kind was declared or detected from the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KindSource {
    Declared,
    Detected,
}

/// One resource: one dataset on the platform.
#[derive(Debug, Clone, Serialize)]
pub struct Resource {
    /// The path as written, normalized (`/`-separated, no `.` parts).
    pub path: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub slug: Label,
    pub slug_source: SlugSource,
    pub kind: AssetKind,
    pub kind_source: KindSource,
    pub format: Option<Format>,
    // Rarely written: boxed, so that a resource without them is small (issue 27: a
    // package of 100,000 resources holds 100,000 of these).
    pub schema: Option<Box<TableSchema>>,
    pub dialect: Option<Box<Dialect>>,
    pub metadata: serde_json::Value,
    /// The files of the resource: one, or every file under a directory, sorted; empty for
    /// a folder of more than [`LISTED_FILES`] files (`unlisted`), walked again when needed
    /// ([`Package::folder`]).
    pub files: Vec<PackageFile>,
    /// A folder of more than [`LISTED_FILES`] files: its counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlisted: Option<Unlisted>,
    /// Where the resource is declared.
    #[serde(skip)]
    pub location: Option<Location>,
}

impl Resource {
    pub fn size(&self) -> u64 {
        match &self.unlisted {
            Some(u) => u.bytes,
            None => self.files.iter().map(|f| f.size).sum(),
        }
    }

    /// How many files the resource has.
    pub fn file_count(&self) -> usize {
        match &self.unlisted {
            Some(u) => u.files,
            None => self.files.len(),
        }
    }

    pub fn is_directory(&self) -> bool {
        self.unlisted.is_some() || self.files.len() != 1 || self.files[0].path != self.path
    }
}

/// Files of a folder resource up to this count are listed in [`Resource::files`]; the
/// files of a larger folder are not kept but walked again when needed, so that the
/// client's memory does not grow with the count of files (issue 27). The paged push's
/// batch size: a package with more files is pushed in batches anyway.
pub const LISTED_FILES: usize = 10_000;

/// The counts of a folder resource whose files are not listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Unlisted {
    pub files: usize,
    pub bytes: u64,
}

/// A file of the package, as found on disk when the package was loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackageFile {
    /// Relative to the package directory, `/`-separated.
    pub path: String,
    pub size: u64,
    /// Modification time in nanoseconds since the epoch, and inode: the hash cache key.
    #[serde(skip)]
    pub modified_ns: i128,
    #[serde(skip)]
    pub inode: u64,
}

impl PackageFile {
    /// Where the file is: `root` (the package directory) joined with its path. Not kept
    /// with each file: a package of a million files would hold every path twice.
    pub fn absolute(&self, root: &Path) -> PathBuf {
        root.join(&self.path)
    }
}

impl Package {
    /// The folder of `resource` when its files are not listed (more than
    /// [`LISTED_FILES`]): what walks it again.
    pub fn folder(&self, resource: &Resource) -> Option<Folder> {
        let unlisted = resource.unlisted?;
        Some(Folder {
            root: self.root.clone(),
            descriptor: self.descriptor.clone(),
            location: resource.location,
            path: resource.path.clone(),
            files: unlisted.files,
            bytes: unlisted.bytes,
        })
    }
}

/// Loads the package in `dir`: reads and checks `datasets.yaml`, resolves every resource.
pub fn load_package(dir: &Path) -> Result<Package, PackageError> {
    let descriptor_path = dir.join(DESCRIPTOR_FILE);
    let meta = match fs::metadata(&descriptor_path) {
        Ok(meta) => meta,
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            let reason = match fs::metadata(dir) {
                Err(_) => Some("does not exist"),
                Ok(meta) if !meta.is_dir() => Some("is not a folder"),
                Ok(_) => None,
            };
            return Err(match reason {
                Some(reason) => PackageError::NoFolder {
                    dir: dir.to_owned(),
                    reason,
                },
                None => PackageError::NoDescriptor {
                    dir: dir.to_owned(),
                },
            });
        }
        Err(source) => {
            return Err(PackageError::Io {
                path: descriptor_path,
                source,
            });
        }
    };
    if meta.len() > MAX_DESCRIPTOR_BYTES {
        return Err(DescriptorError::at(
            &descriptor_path,
            None,
            format!(
                "the file is {} bytes; the limit is {MAX_DESCRIPTOR_BYTES}",
                meta.len()
            ),
        )
        .into());
    }
    let bytes = fs::read(&descriptor_path).map_err(|source| PackageError::Io {
        path: descriptor_path.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        DescriptorError::at(
            &descriptor_path,
            None,
            format!(
                "the file is not UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    resolve(dir, &descriptor_path, &text)
}

/// Resolves a package from the text of its descriptor.
pub fn resolve(dir: &Path, descriptor_path: &Path, text: &str) -> Result<Package, PackageError> {
    let parsed = descriptor::parse_descriptor(descriptor_path, text)?;
    let file = descriptor_path;
    let d = parsed.descriptor;
    let err = |loc: Option<Location>, msg: String| DescriptorError::at(file, loc, msg);

    let root_canonical = fs::canonicalize(dir).map_err(|source| PackageError::Io {
        path: dir.to_owned(),
        source,
    })?;

    if d.resources.is_none() {
        return Err(err(None, "the package has no `resources`".into())
            .with_hint("list each file under `resources:`, e.g. `resources: [{path: data.csv}]`")
            .into());
    }
    let resource_count = parsed.resource_count;
    let resources_location = node_location(child(&parsed.root, "resources"));
    if resource_count == 0 {
        return Err(err(
            resources_location,
            "`resources` is empty: a package needs at least one resource".into(),
        )
        .into());
    }

    let publish = match d.publish {
        None => None,
        Some(p) => {
            let publish_location = node_location(child(&parsed.root, "publish"));
            let to = match &p.to {
                None => None,
                Some(to) => Some(parse_publish_to(file, to)?),
            };
            if let Some(as_name) = &p.as_name
                && resource_count != 1
            {
                return Err(err(
                    location_of(as_name.span()),
                    format!(
                        "`publish.as_name` at the package level needs exactly one resource, but the package has {}",
                        resource_count
                    ),
                )
                .with_hint("set `publish.as_name` on the resource instead")
                .into());
            }
            let dialect = p
                .dialect
                .as_ref()
                .map(|d| parse_dialect(file, d, true))
                .transpose()?;
            Some((
                Publish {
                    to,
                    location: p
                        .to
                        .as_ref()
                        .map(|t| location_of(t.span()))
                        .unwrap_or(publish_location),
                    public: p.public.unwrap_or(false),
                    dialect,
                },
                p.as_name,
            ))
        }
    };
    let (publish, package_as_name) = match publish {
        Some((p, as_name)) => (Some(p), as_name),
        None => (None, None),
    };

    // The resources one at a time, from the file again: never all of them as nodes or as
    // written (issue 27).
    let mut resources = Vec::with_capacity(resource_count);
    let mut seen: HashMap<Label, usize> = HashMap::new();
    let mut parents: HashMap<PathBuf, PathBuf> = HashMap::new();
    for (index, node) in descriptor::resource_nodes(file, text).enumerate() {
        let node = node?;
        let r = descriptor::resource_file(file, &node)?;
        let location = node_location(Some(&node));
        let Some(path_spanned) = &r.path else {
            return Err(err(location, format!("resource {} has no `path`", index + 1)).into());
        };
        let path_location = location_of(path_spanned.span());
        let rel = check_resource_path(file, path_spanned)?;
        let (files, unlisted) = collect_files(
            file,
            path_location,
            dir,
            &root_canonical,
            &rel,
            &mut parents,
        )?;

        let (kind, kind_source, format) = match &r.kind {
            Some(k) => {
                let kind = descriptor::parse_kind(k).map_err(|(loc, msg)| err(loc, msg))?;
                (kind, KindSource::Declared, Format::detect(Path::new(&rel)))
            }
            None => {
                let (kind, format) = detect_kind(Path::new(&rel));
                (kind, KindSource::Detected, format)
            }
        };

        let (slug, slug_source) = choose_slug(file, &r, package_as_name.as_ref(), &rel, location)?;
        if let Some(&other) = seen.get(&slug) {
            let first: &Resource = &resources[other];
            return Err(err(
                location,
                format!(
                    "resources `{}`{} and `{rel}` both get the dataset name `{slug}`",
                    first.path,
                    first
                        .location
                        .map(|l| format!(" (line {})", l.line))
                        .unwrap_or_default(),
                ),
            )
            .with_code(codes::DUPLICATE_SLUG)
            .with_hint("give one of them another `name`, or set its `publish.as_name`")
            .into());
        }
        seen.insert(slug.clone(), index);

        let dialect = r
            .dialect
            .as_ref()
            .map(|d| parse_dialect(file, d, false))
            .transpose()?;
        if let Some(schema) = &r.schema {
            let at = node_location(child(&node, "schema").or(Some(&node)));
            check_schema_names(schema).map_err(|message| {
                err(at, format!("resource `{rel}`: {message}"))
                    .with_hint("give every field of `schema.fields` a name of its own")
            })?;
        }
        resources.push(Resource {
            path: rel,
            name: r.name.as_deref().cloned(),
            title: r.title,
            description: r.description,
            slug,
            slug_source,
            kind,
            kind_source,
            format,
            schema: r.schema,
            dialect: dialect.map(Box::new),
            metadata: child(&node, "metadata")
                .map(node_to_json)
                .unwrap_or(serde_json::Value::Null),
            files,
            unlisted,
            location,
        });
    }

    Ok(Package {
        root: dir.to_owned(),
        descriptor: descriptor_path.to_owned(),
        name: d.name.as_deref().cloned(),
        title: d.title,
        description: d.description,
        version: d.version,
        license: d.license,
        metadata: child(&parsed.root, "metadata")
            .map(node_to_json)
            .unwrap_or(serde_json::Value::Null),
        publish,
        resources,
    })
}

fn parse_publish_to(file: &Path, to: &Spanned<String>) -> Result<Destination, DescriptorError> {
    let location = location_of(to.span());
    let destination: Destination = to.parse().map_err(|e: String| {
        let expected = if to.starts_with(crate::name::SCHEME) {
            "`stone:<namespace>`"
        } else {
            "`stone:<namespace>` or a URL (`s3://bucket/prefix`, `file:///path`, `https://host/path`)"
        };
        DescriptorError::at(
            file,
            location,
            format!("`publish.to` must be {expected}: {e}"),
        )
    })?;
    push_destination(&destination, "`publish.to`")
        .map_err(|(message, hint)| DescriptorError::at(file, location, message).with_hint(hint))?;
    Ok(destination)
}

/// The one rule of a push's destination, written in `publish.to` or given as `--to`
/// (`given` names which, in the message): a `stone:` destination names a namespace only,
/// each resource becoming `stone:<namespace>/<slug>`. Refused: `(message, hint)`.
pub fn push_destination(destination: &Destination, given: &str) -> Result<(), (String, String)> {
    let Destination::Stone(url) = destination else {
        return Ok(());
    };
    match &url.name {
        Some(name) => Err((
            format!(
                "{given} must name only a namespace (`stone:{}`), not a dataset (`{url}`)",
                url.namespace
            ),
            format!(
                "each resource becomes `stone:{}/<slug>`; to choose the name `{name}`, set `publish.as_name`",
                url.namespace
            ),
        )),
        None => Ok(()),
    }
}

/// Checks a resource path as written and returns it normalized.
fn check_resource_path(file: &Path, path: &Spanned<String>) -> Result<String, DescriptorError> {
    let location = location_of(path.span());
    let refuse =
        |msg: String| DescriptorError::at(file, location, msg).with_code(codes::PATH_REFUSED);
    let raw = path.as_str();
    if raw.is_empty() {
        return Err(refuse("the resource `path` is empty".into()));
    }
    if let Some(c) = raw.chars().find(|c| c.is_control()) {
        return Err(refuse(format!(
            "the path `{}` contains the control character {:?}",
            raw.escape_debug(),
            c
        )));
    }
    if raw.contains('\\') {
        return Err(refuse(format!(
            "the path `{raw}` contains `\\`: write paths with `/`"
        )));
    }
    let p = Path::new(raw);
    if p.is_absolute() || raw.starts_with('/') {
        return Err(refuse(format!(
            "the path `{raw}` is absolute: resource paths are relative to the package directory"
        ))
        .with_hint("move the file into the package, or import it with `stone data import`"));
    }
    let mut parts = Vec::new();
    for component in p.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(refuse(format!(
                    "the path `{raw}` uses `..`: a resource must stay inside the package"
                ))
                .with_hint(
                    "move the file into the package, or import it with `stone data import`",
                ));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(refuse(format!(
                    "the path `{raw}` is absolute: resource paths are relative to the package directory"
                )));
            }
        }
    }
    if parts.is_empty() {
        return Err(refuse(format!(
            "the path `{raw}` is the package directory itself; name a file or a folder in it"
        )));
    }
    // `./` parts aside, the path is what it says: the one path rule, never a rewrite.
    let normalized = parts.join("/");
    crate::path::check_relative_path(&normalized).map_err(|e| {
        refuse(e.to_string()).with_hint("rename the file or folder to a plain name")
    })?;
    check_zone(&parts[0], &format!("`{raw}`")).map_err(|(msg, code, hint)| {
        DescriptorError::at(file, location, msg)
            .with_code(code)
            .with_hint(hint)
    })?;
    Ok(normalized)
}

/// Refuses a path whose first segment is `ext/` or `.stone/`, in any case: on a
/// case-insensitive file system `EXT/` is `ext/`.
fn check_zone(first: &str, shown: &str) -> Result<(), (String, &'static str, String)> {
    if first.eq_ignore_ascii_case(EXT_ZONE) {
        return Err((
            format!("{shown} is in the `ext/` zone, which pushes refuse: `ext/` holds data imported from elsewhere and is written only by `stone data import`"),
            codes::EXT_ZONE,
            "remove this resource from datasets.yaml (imported data is already published where it came from)".into(),
        ));
    }
    if first.eq_ignore_ascii_case(STATE_DIR) {
        return Err((
            format!("{shown} is in `{STATE_DIR}/`, stone's own state directory"),
            codes::PATH_REFUSED,
            "move the file elsewhere in the package".into(),
        ));
    }
    Ok(())
}

fn choose_slug(
    file: &Path,
    r: &descriptor::ResourceFile,
    package_as_name: Option<&Spanned<String>>,
    rel: &str,
    location: Option<Location>,
) -> Result<(Label, SlugSource), DescriptorError> {
    let explicit = r
        .publish
        .as_ref()
        .and_then(|p| p.as_name.as_ref())
        .map(|a| (a, SlugSource::AsName))
        .or(package_as_name.map(|a| (a, SlugSource::PackageAsName)));
    if let Some((as_name, source)) = explicit {
        let label = Label::parse(as_name).map_err(|why| {
            let suggestion = sanitize_slug(as_name).map(|s| format!("; `{s}` would be valid")).unwrap_or_default();
            DescriptorError::at(
                file,
                location_of(as_name.span()),
                format!("`publish.as_name` `{}` is not a valid dataset name: it {why}{suggestion}", as_name.as_str()),
            )
            .with_code(codes::INVALID_NAME)
            .with_hint("dataset names use lowercase letters a-z, digits and inner `-`, at most 63 characters")
        })?;
        return Ok((label, source));
    }
    let (source_text, source) = match &r.name {
        Some(name) => (name.as_str().to_owned(), SlugSource::Name),
        None => {
            let stem = Path::new(rel)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (stem, SlugSource::FileStem)
        }
    };
    let at = r
        .name
        .as_ref()
        .map(|n| location_of(n.span()))
        .unwrap_or(location);
    sanitize_slug(&source_text)
        .map(|slug| (slug, source))
        .ok_or_else(|| {
            DescriptorError::at(
                file,
                at,
                format!("`{source_text}` leaves no dataset name once reduced to a-z, 0-9 and `-`"),
            )
            .with_code(codes::INVALID_NAME)
            .with_hint("set `publish.as_name` on the resource")
        })
}

/// Why a column name names nothing: `Some("empty")`, `Some("only whitespace")`, or `None`
/// for a usable name. The one rule for column names, wherever they come from: a declared
/// schema, a CSV header, a Parquet file (`stone-formats`).
pub fn blank_column_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("empty")
    } else if name.trim().is_empty() {
        Some("only whitespace")
    } else {
        None
    }
}

/// A declared schema's field names: none blank ([`blank_column_name`]), none twice.
fn check_schema_names(schema: &descriptor::TableSchema) -> Result<(), String> {
    let mut seen = HashMap::with_capacity(schema.fields.len());
    for (index, field) in schema.fields.iter().enumerate() {
        if let Some(problem) = blank_column_name(&field.name) {
            return Err(format!(
                "field {} of `schema.fields` has no name: its name is {problem}",
                index + 1
            ));
        }
        if let Some(earlier) = seen.insert(field.name.as_str(), index) {
            return Err(format!(
                "field {} of `schema.fields` repeats the name `{}` of field {}",
                index + 1,
                field.name.escape_debug(),
                earlier + 1
            ));
        }
    }
    Ok(())
}

fn parse_dialect(
    file: &Path,
    dialect: &DialectFile,
    for_output: bool,
) -> Result<Dialect, DescriptorError> {
    let d = dialect;
    let one_char =
        |value: &Option<Spanned<String>>, key: &str| -> Result<Option<char>, DescriptorError> {
            let Some(v) = value else { return Ok(None) };
            let mut chars = v.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(Some(c)),
                _ => Err(DescriptorError::at(
                    file,
                    location_of(v.span()),
                    format!(
                        "`{key}` must be exactly one character, not `{}`",
                        v.as_str().escape_debug()
                    ),
                )),
            }
        };
    let line_terminator = match &d.line_terminator {
        None => None,
        Some(t) if matches!(t.as_str(), "\n" | "\r\n" | "\r") => Some(t.as_str().to_owned()),
        Some(t) => {
            return Err(DescriptorError::at(
                file,
                location_of(t.span()),
                format!(
                    "`lineTerminator` must be \"\\n\", \"\\r\\n\" or \"\\r\", not \"{}\"",
                    t.as_str().escape_debug()
                ),
            ));
        }
    };
    let quoting = match &d.quoting {
        None => None,
        Some(q) if !for_output => {
            return Err(DescriptorError::at(
                file,
                location_of(q.span()),
                "`quoting` applies to output and belongs in the package's `publish.dialect`, not in a resource's input `dialect`",
            ));
        }
        Some(q) => Some(
            Quoting::ALL
                .iter()
                .find(|(n, _)| *n == q.as_str())
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    let names = Quoting::ALL.map(|(n, _)| n);
                    let mut e = DescriptorError::at(
                        file,
                        location_of(q.span()),
                        format!(
                            "`quoting` must be one of {}, not `{}`",
                            names.join(", "),
                            q.as_str()
                        ),
                    );
                    if let Some(m) = crate::did_you_mean(q.as_str(), names) {
                        e = e.with_hint(format!("did you mean `{m}`?"));
                    }
                    e
                })?,
        ),
    };
    Ok(Dialect {
        delimiter: one_char(&d.delimiter, "delimiter")?,
        line_terminator,
        quote_char: one_char(&d.quote_char, "quoteChar")?,
        double_quote: d.double_quote,
        escape_char: one_char(&d.escape_char, "escapeChar")?,
        null_sequence: d.null_sequence.clone(),
        skip_initial_space: d.skip_initial_space,
        header: d.header,
        comment_char: one_char(&d.comment_char, "commentChar")?,
        quoting,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_package(names: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            let path = dir.path().join("d").join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, name.as_bytes()).unwrap();
        }
        fs::write(
            dir.path().join(DESCRIPTOR_FILE),
            "publish: {to: \"stone:t\"}\nresources:\n  - path: d\n    kind: BLOB\n",
        )
        .unwrap();
        dir
    }

    /// A package of `count` one-file resources `f{i}.txt` (the file of `missing` not made).
    fn many_resources(count: usize, missing: Option<usize>) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut yaml = String::from("publish: {to: \"stone:t\"}\nresources:\n");
        for i in 0..count {
            yaml.push_str(&format!("  - path: f{i}.txt\n    name: r{i}\n"));
            if Some(i) != missing {
                fs::write(dir.path().join(format!("f{i}.txt")), i.to_string()).unwrap();
            }
        }
        fs::write(dir.path().join(DESCRIPTOR_FILE), yaml).unwrap();
        dir
    }

    #[test]
    fn many_resources_are_resolved_in_order_and_their_errors_located() {
        let count = 1_500;
        let dir = many_resources(count, None);
        let package = load_package(dir.path()).unwrap();
        let slugs: Vec<String> = package
            .resources
            .iter()
            .map(|r| r.slug.to_string())
            .collect();
        let expected: Vec<String> = (0..count).map(|i| format!("r{i}")).collect();
        assert_eq!(slugs, expected);
        assert_eq!(
            package.resources[count - 1].files[0].path,
            format!("f{}.txt", count - 1)
        );

        // The first resource that fails is the one named, at its line, whatever follows.
        for missing in [0, count / 2, count - 1] {
            let dir = many_resources(count, Some(missing));
            let Err(PackageError::Descriptor(error)) = load_package(dir.path()) else {
                panic!("f{missing}.txt is missing")
            };
            assert_eq!(error.code, codes::FILE_MISSING, "{error}");
            assert!(
                error.message.contains(&format!("`f{missing}.txt`")),
                "{error}"
            );
            assert_eq!(
                error.location.map(|l| l.line),
                Some(3 + 2 * missing),
                "{error}"
            );
        }
    }

    #[test]
    fn a_folder_is_walked_in_the_order_of_its_paths() {
        // `b/` sorts after `b.txt` and `b-x` and before `b0`: the order of the whole paths'
        // strings, which the hash cache and the listing digest use.
        let names = ["b0", "b/c", "b.txt", "a", "b-x", "b/a/z", "c/d"];
        let dir = folder_package(&names);
        let package = load_package(dir.path()).unwrap();
        let walked: Vec<&str> = package.resources[0]
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        let mut sorted: Vec<String> = names.iter().map(|n| format!("d/{n}")).collect();
        sorted.sort();
        assert_eq!(walked, sorted);
        assert!(package.resources[0].unlisted.is_none());
        assert!(package.folder(&package.resources[0]).is_none());
    }

    #[test]
    fn a_walked_file_has_the_identity_its_whole_path_gives() {
        // The walk reads each file relative to its directory's handle; the hash cache
        // keys (size, modification time, inode) must be those of the file's whole path,
        // or a file listed one way and walked the other would be hashed again.
        let dir = folder_package(&["a", "b/c", "b/d/e"]);
        std::fs::write(dir.path().join("d/b/c"), b"longer content").unwrap();
        let package = load_package(dir.path()).unwrap();
        let walked: Vec<PackageFile> = package.resources[0].files.clone();
        assert_eq!(walked.len(), 3);
        for file in walked {
            let meta = fs::symlink_metadata(dir.path().join(&file.path)).unwrap();
            let expected = package_file(file.path.clone(), &meta);
            assert_eq!(file, expected, "{}", file.path);
        }
    }

    #[test]
    fn a_folder_of_more_files_than_listed_is_counted_and_walked_again() {
        let names: Vec<String> = (0..=LISTED_FILES)
            .map(|i| format!("{:02}/{i:05}", i % 7))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let dir = folder_package(&refs);
        let package = load_package(dir.path()).unwrap();
        let resource = &package.resources[0];
        assert!(resource.files.is_empty(), "not listed");
        let bytes: u64 = names.iter().map(|n| n.len() as u64).sum();
        assert_eq!(
            resource.unlisted,
            Some(Unlisted {
                files: LISTED_FILES + 1,
                bytes
            })
        );
        assert_eq!(
            (resource.file_count(), resource.size()),
            (LISTED_FILES + 1, bytes)
        );
        assert!(resource.is_directory());
        let folder = package.folder(resource).unwrap();
        let walked: Vec<String> = folder.walk().unwrap().map(|f| f.unwrap().path).collect();
        let mut sorted: Vec<String> = names.iter().map(|n| format!("d/{n}")).collect();
        sorted.sort();
        assert_eq!(walked, sorted);
        // A name that is not plain, found by a later walk: an error, and the walk ends.
        fs::write(dir.path().join("d/03/bad\u{7}name"), b"x").unwrap();
        let mut walk = folder.walk().unwrap();
        let error = walk.find_map(Result::err).unwrap();
        assert!(error.message.contains("not a plain name"), "{error}");
        assert!(walk.next().is_none());
    }
}
