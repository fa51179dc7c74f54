//! Turns a push plan into a [`PushPackage`]: TABULAR resources become Parquet (CSV/TSV
//! converted on the client, cached by source hash; Parquet passed through), checked against
//! their declared schema; GRAPH resources' files are listed for their RDF validation, which
//! the handler runs beside its uploads ([`crate::checks`]). Nothing is sent yet.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use arrow_type::iceberg_type;
use serde::{Deserialize, Serialize};
use stone_api::push::{PackageMetadata, SchemaField, TableSchema as WireSchema};
use stone_formats::{ColumnInfo, CsvOptions, FormatError};
use stone_package::digest::{FileDigest, ensure_state_dir, sha256_file};
use stone_package::package::STATE_DIR;
use stone_package::{AssetKind, Format, Package, Resource};

use crate::checks::{GraphCheck, MARKER_MIN_BYTES};
use crate::folder::{PreparedPackage, list_folder};
use crate::plan::{PlannedFiles, PushPlan};
use crate::record::{PushFile, PushPackage, PushResource};

/// Bump when the conversion's output changes, so cached conversions are redone.
const CONVERTER_VERSION: u32 = 2;

/// A converted file, remembered next to it.
#[derive(Debug, Serialize, Deserialize)]
struct Converted {
    sha256: String,
    size: u64,
    columns: Vec<ColumnInfo>,
}

/// What preparing reports as it goes: one line per conversion.
pub trait PrepareProgress {
    fn converting(&self, resource: &str, bytes: u64);
}

/// How resources are handed to the handler, and the limits of a conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrepareOptions {
    pub preparation: Preparation,
    /// The longest CSV/TSV record read, in bytes (default
    /// [`stone_formats::csv::MAX_RECORD_BYTES`]).
    pub max_record_bytes: usize,
}

/// How resources are handed to the handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preparation {
    /// For the platform and plugins: tables as Parquet, graphs validated (beside the
    /// uploads: see [`crate::checks`]).
    Converted,
    /// For blob stores and HTTP servers: every file as it is in the package.
    AsIs,
}

/// The package as the handler takes it, after converting and checking what `options` ask.
/// Takes the plan's datasets and the package's resources (`plan.datasets` and
/// `package.resources` are left empty): each one goes once its resource is in the package
/// to push (a package of 100,000 resources is not held three times, issue 27).
pub fn prepare(
    plan: &mut PushPlan,
    package: &mut Package,
    options: PrepareOptions,
    progress: &dyn PrepareProgress,
) -> anyhow::Result<PreparedPackage> {
    let PrepareOptions {
        preparation,
        max_record_bytes,
    } = options;
    // The plan's datasets and the package's resources are consumed: each one goes once
    // its resource is in the package to push (issue 27: at 100,000 resources the loaded
    // package, the plan and the package to push were all alive at the end, the client's
    // peak). The package keeps its other fields.
    let planned_datasets = std::mem::take(&mut plan.datasets.list);
    let loaded = std::mem::take(&mut package.resources);
    let package: &Package = package;
    // Reserved: grown by doubling, the last copy was 10 MB on top of that peak.
    let mut resources = Vec::with_capacity(planned_datasets.len());
    let mut folders = Vec::with_capacity(planned_datasets.len());
    let mut listings = Vec::with_capacity(planned_datasets.len());
    let mut checks = Vec::new();
    let mut folder_jobs = 1;
    for (resource, planned) in loaded.into_iter().zip(planned_datasets) {
        let planned = *planned;
        let listed;
        let planned_files = match &planned.files {
            PlannedFiles::Listed(files) => files,
            PlannedFiles::Unlisted { folder, jobs }
                if preparation == Preparation::AsIs
                    || !matches!(resource.kind, AssetKind::Tabular | AssetKind::Graph) =>
            {
                // Pushed as they are: walked again by the handler, a chunk at a time.
                folder_jobs = *jobs;
                folders.push(Some(folder.clone()));
                listings.push(planned.listing);
                resources.push(PushResource {
                    name: resource.slug.to_string(),
                    path: resource.path,
                    kind: resource.kind,
                    sha256: planned.sha256,
                    size: planned.size,
                    metadata: resource_metadata(
                        resource.metadata,
                        &resource.title,
                        &resource.description,
                    ),
                    schema: None,
                    files: Vec::new(),
                });
                continue;
            }
            PlannedFiles::Unlisted { folder, jobs } => {
                // Tables and graphs of that many files are converted or validated one by
                // one: listed (their memory grows with the count of files).
                listed = list_folder(folder, *jobs)?;
                &listed
            }
        };
        folders.push(None);
        listings.push(None);
        let (files, schema) = match resource.kind {
            _ if preparation == Preparation::AsIs => {
                (as_pushed(package, &resource, planned_files), None)
            }
            AssetKind::Tabular => tabular(
                package,
                &resource,
                planned_files,
                max_record_bytes,
                progress,
            )?,
            AssetKind::Graph => (graph(package, &resource, planned_files, &mut checks)?, None),
            _ => (as_pushed(package, &resource, planned_files), None),
        };
        // The record describes the files the handler gets: a table's Parquet files (the
        // CSV/TSV's own digest was the plan's), every other kind's files as they are.
        let sha256 = if resource.kind == AssetKind::Tabular && preparation == Preparation::Converted
        {
            content_sha256(planned.directory, &files)
        } else {
            planned.sha256
        };
        resources.push(PushResource {
            name: resource.slug.to_string(),
            path: resource.path,
            kind: resource.kind,
            sha256,
            size: files.iter().map(|f| f.size).sum(),
            metadata: resource_metadata(resource.metadata, &resource.title, &resource.description),
            schema,
            files,
        });
    }
    let publish = package.publish.as_ref();
    let package = PushPackage {
        root: package.root.clone(),
        destination: plan.destination.clone(),
        namespace: plan
            .package_node
            .url
            .strip_prefix(stone_package::name::SCHEME)
            .unwrap_or_default()
            .to_owned(),
        metadata: PackageMetadata {
            name: package.name.clone(),
            title: package.title.clone(),
            description: package.description.clone(),
            version: package.version.clone(),
            license: package.license.clone(),
            public: publish.is_some_and(|p| p.public),
            dialect: publish
                .and_then(|p| p.dialect.as_ref())
                .and_then(|d| serde_json::to_value(d).ok())
                .and_then(|v| match v {
                    serde_json::Value::Object(map) => Some(map),
                    _ => None,
                }),
            metadata: object(package.metadata.clone()),
        },
        resources,
    };
    Ok(PreparedPackage {
        package,
        folders,
        jobs: folder_jobs,
        listings,
        checks,
    })
}

/// The checks of the package's tables that read only the start of each file (a CSV/TSV's
/// header and first records, a Parquet file's footer): column names, types a table holds,
/// a delimiter that disagrees with the content ([`stone_formats::csv::check_head`],
/// [`stone_formats::check_columns`]). Run before anything is hashed or sent, so that a
/// mistake in a large file is told at once; [`prepare`] checks every file again as it
/// converts it. The listed files of TABULAR resources only (a folder of more than
/// [`stone_package::LISTED_FILES`] files is checked as it is converted).
pub fn check_tables(package: &Package, max_record_bytes: usize) -> anyhow::Result<()> {
    for resource in &package.resources {
        if resource.kind != AssetKind::Tabular {
            continue;
        }
        for file in &resource.files {
            let source = package.root.join(&file.path);
            let checked = match Format::detect(&source) {
                Some(format @ (Format::Csv | Format::Tsv)) => {
                    CsvOptions::new(&source, format, resource.dialect.as_deref()).and_then(
                        |mut options| {
                            options.max_record_bytes = max_record_bytes;
                            stone_formats::csv::check_head(&source, &options)
                        },
                    )
                }
                Some(Format::Parquet) => match resource.schema.as_deref() {
                    Some(schema) => stone_formats::check_parquet_schema(&source, schema).map(drop),
                    None => stone_formats::parquet_columns(&source).map(drop),
                },
                // Refused by `prepare`, with the formats a table may have.
                _ => Ok(()),
            };
            checked.with_context(|| format!("the table `{}` cannot be pushed", resource.slug))?;
        }
    }
    Ok(())
}

/// The sha256 of a resource's files as the plan digests them: one file's own; for a
/// folder, the sha256 of `<sha256> <size> <path>\n` per file (paths inside the folder, in
/// order).
fn content_sha256(directory: bool, files: &[PushFile]) -> String {
    use sha2::{Digest, Sha256};
    match files {
        [one] if !directory => one.sha256.clone(),
        _ => {
            let mut hasher = Sha256::new();
            for f in files {
                hasher.update(format!("{} {} {}\n", f.sha256, f.size, f.path).as_bytes());
            }
            hex::encode(hasher.finalize())
        }
    }
}

/// A resource's metadata as pushed: its free `metadata`, with the resource's `title` and
/// `description` of datasets.yaml where `metadata` does not say its own, so that the
/// dataset's page (and a blob store's `datapackage.json`) shows them (issue 55, item 16:
/// the page showed the slug only).
fn resource_metadata(
    metadata: serde_json::Value,
    title: &Option<String>,
    description: &Option<String>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = object(metadata);
    for (key, value) in [("title", title), ("description", description)] {
        if let Some(value) = value {
            map.entry(key)
                .or_insert_with(|| serde_json::Value::String(value.clone()));
        }
    }
    map
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(map) => map,
        serde_json::Value::Null => serde_json::Map::new(),
        other => serde_json::Map::from_iter([("value".to_owned(), other)]),
    }
}

/// The path of a file inside its resource (its name, for a one-file resource).
fn inner_path(resource: &Resource, file: &str) -> String {
    match file
        .strip_prefix(&resource.path)
        .map(|p| p.trim_start_matches('/'))
    {
        Some("") | None => Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        Some(inner) => inner.to_owned(),
    }
}

fn as_pushed(package: &Package, resource: &Resource, digests: &[FileDigest]) -> Vec<PushFile> {
    digests
        .iter()
        .map(|d| PushFile {
            path: inner_path(resource, &d.path),
            local: package.root.join(&d.path),
            sha256: d.sha256.clone(),
            size: d.size,
        })
        .collect()
}

/// A graph's files as they are, each with its RDF check added to `checks` (run by the
/// handler beside its uploads); a file of no RDF format is refused now.
fn graph(
    package: &Package,
    resource: &Resource,
    digests: &[FileDigest],
    checks: &mut Vec<GraphCheck>,
) -> anyhow::Result<Vec<PushFile>> {
    for d in digests {
        let path = package.root.join(&d.path);
        let format = Format::detect(&path).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: a GRAPH resource must be Turtle (.ttl), N-Triples (.nt) or JSON-LD (.jsonld)",
                path.display()
            )
        })?;
        checks.push(GraphCheck {
            resource: resource.slug.to_string(),
            path,
            format,
            sha256: d.sha256.clone(),
            markers: (d.size >= MARKER_MIN_BYTES)
                .then(|| package.root.join(STATE_DIR).join("checked")),
            ahead: None,
        });
    }
    Ok(as_pushed(package, resource, digests))
}

fn tabular(
    package: &Package,
    resource: &Resource,
    digests: &[FileDigest],
    max_record_bytes: usize,
    progress: &dyn PrepareProgress,
) -> anyhow::Result<(Vec<PushFile>, Option<WireSchema>)> {
    let mut files = Vec::with_capacity(digests.len());
    let mut columns = None;
    for d in digests {
        let source = package.root.join(&d.path);
        let (local, sha256, size, cols) = match Format::detect(&source) {
            Some(Format::Parquet) => {
                let cols = match resource.schema.as_deref() {
                    Some(schema) => stone_formats::check_parquet_schema(&source, schema),
                    None => stone_formats::parquet_columns(&source),
                }
                .with_context(|| {
                    format!("the table `{}` does not match its schema", resource.slug)
                })?;
                (source, d.sha256.clone(), d.size, cols)
            }
            Some(format @ (Format::Csv | Format::Tsv)) => {
                let (path, converted) = convert(
                    package,
                    resource,
                    format,
                    &source,
                    d,
                    max_record_bytes,
                    progress,
                )
                .with_context(|| {
                    format!("cannot convert the table `{}` to Parquet", resource.slug)
                })?;
                (path, converted.sha256, converted.size, converted.columns)
            }
            _ => anyhow::bail!(
                "{}: a TABULAR resource must be CSV (.csv), TSV (.tsv) or Parquet (.parquet)",
                source.display()
            ),
        };
        let name = inner_path(resource, &d.path);
        let name = match Path::new(&name).extension().and_then(|e| e.to_str()) {
            Some("parquet") => name,
            _ => format!("{}.parquet", Path::new(&name).with_extension("").display()),
        };
        columns.get_or_insert(cols);
        files.push(PushFile {
            path: name,
            local,
            sha256,
            size,
        });
    }
    Ok((files, columns.and_then(|c| wire_schema(&c))))
}

/// Converts (or finds the cached conversion of) one CSV/TSV file.
fn convert(
    package: &Package,
    resource: &Resource,
    format: Format,
    source: &Path,
    digest: &FileDigest,
    max_record_bytes: usize,
    progress: &dyn PrepareProgress,
) -> Result<(PathBuf, Converted), anyhow::Error> {
    let mut options = CsvOptions::new(source, format, resource.dialect.as_deref())?;
    options.max_record_bytes = max_record_bytes;
    // The key: the source's content and everything that shapes the output.
    let settings = serde_json::json!({
        "v": CONVERTER_VERSION,
        "dialect": resource.dialect,
        "schema": resource.schema,
        "format": format,
    });
    let key = format!(
        "{}-{}",
        digest.sha256,
        &stone_package::digest::sha256_hex(settings.to_string().as_bytes())[..16]
    );
    let dir = package.root.join(STATE_DIR).join("converted");
    let parquet = dir.join(format!("{key}.parquet"));
    let sidecar = dir.join(format!("{key}.json"));
    if let Ok(bytes) = fs::read(&sidecar)
        && let Ok(converted) = serde_json::from_slice::<Converted>(&bytes)
        && fs::metadata(&parquet).is_ok_and(|m| m.len() == converted.size)
    {
        return Ok((parquet, converted));
    }
    progress.converting(resource.slug.as_str(), digest.size);
    ensure_state_dir(&package.root.join(STATE_DIR))?;
    fs::create_dir_all(&dir)?;
    let conversion = stone_formats::csv_to_parquet(
        source,
        &parquet,
        &options,
        resource.schema.as_deref(),
        &|_| {},
    )
    .map_err(|e: FormatError| anyhow::Error::new(e))?;
    let (sha256, size) = sha256_file(&parquet)?;
    let converted = Converted {
        sha256,
        size,
        columns: conversion.columns,
    };
    fs::write(&sidecar, serde_json::to_vec(&converted)?)?;
    Ok((parquet, converted))
}

/// The columns as the server's wire schema (Iceberg type names); `None` if a type has no
/// Iceberg name (the server then reads the schema from the files).
fn wire_schema(columns: &[ColumnInfo]) -> Option<WireSchema> {
    let fields = columns
        .iter()
        .map(|c| {
            iceberg_type(&c.data_type).map(|t| SchemaField {
                name: c.name.clone(),
                field_type: t,
                required: !c.nullable,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(WireSchema { fields })
}

mod arrow_type {
    /// The Iceberg name of an Arrow type as Arrow prints it.
    pub fn iceberg_type(arrow: &str) -> Option<String> {
        Some(
            match arrow {
                "Boolean" => "boolean",
                "Int8" | "Int16" | "Int32" | "UInt8" | "UInt16" => "int",
                "Int64" | "UInt32" => "long",
                "Float16" | "Float32" => "float",
                "Float64" => "double",
                "Date32" | "Date64" => "date",
                "Utf8" | "LargeUtf8" | "Utf8View" => "string",
                "Binary" | "LargeBinary" | "BinaryView" => "binary",
                "Time64(µs)" | "Time64(Microsecond)" => "time",
                "Timestamp(µs)" | "Timestamp(Microsecond, None)" => "timestamp",
                other
                    if other.starts_with("Timestamp(µs, ")
                        || other.starts_with("Timestamp(Microsecond, Some") =>
                {
                    "timestamptz"
                }
                other if other.starts_with("Decimal128(") => {
                    let inner = other
                        .trim_start_matches("Decimal128(")
                        .trim_end_matches(')');
                    return Some(format!("decimal({inner})"));
                }
                _ => return None,
            }
            .to_owned(),
        )
    }
}
