//! The push plan: what each resource becomes, where, and through which handler. A dry run
//! shows it; the push carries it out ([`crate::prepare`], then the handler).

use std::path::Path;

use anyhow::Context;
use serde::Serialize;
use sha2::{Digest, Sha256};
use stone_package::digest::HashProgress;
use stone_package::{
    AssetKind, Branch, Destination, Engine, FileDigest, Folder, FolderHasher, Format, HashSession,
    HashStats, LISTED_FILES, Label, Package, StoneUrl, load_package,
};

use crate::environment::{Environment, ResolvedEnvironment};

/// The handler chosen for a destination, and why.
#[derive(Debug, Clone, Serialize)]
pub struct HandlerChoice {
    pub name: String,
    pub reason: String,
}

/// The package names no destination: neither `publish.to` in datasets.yaml nor one given
/// (`at`: the descriptor, with the line and column of `publish` when there is one).
#[derive(Debug, thiserror::Error)]
#[error("{at}: the package has no `publish.to`: nowhere to push it")]
pub struct NoDestination {
    pub at: String,
}

/// Everything a push will do.
#[derive(Debug, Serialize)]
pub struct PushPlan {
    pub package: PackageSummary,
    /// The destination: `stone:<ns>`, or a URL (blob store, https, a plugin's scheme).
    pub destination: String,
    /// The environment (`--env`). Configured for pushes to the platform; for other
    /// destinations it may be absent, and only names the guard that applies (prod).
    pub environment: Environment,
    /// Whether `environment` is in the config file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub environment_unconfigured: bool,
    pub branch: Branch,
    pub handler: HandlerChoice,
    pub options: PlanOptions,
    /// The package node of the namespace.
    pub package_node: PackageNode,
    pub datasets: PlannedDatasets,
    pub totals: Totals,
    pub hashing: HashStats,
}

#[derive(Debug, Serialize)]
pub struct PackageSummary {
    pub root: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub version: Option<String>,
    pub public: bool,
}

#[derive(Debug, Serialize)]
pub struct PlanOptions {
    pub yes: bool,
    pub force: bool,
    pub replace: bool,
}

#[derive(Debug, Serialize)]
pub struct PackageNode {
    pub url: String,
    pub iri: String,
}

/// The datasets of a plan, and where they go. Each serializes with its `url` and `iri`,
/// which are not kept with it: a push never reads them (issue 27: 13 MB of the client's
/// peak at 100,000 resources).
#[derive(Debug)]
pub struct PlannedDatasets {
    pub places: Places,
    /// Boxed: [`crate::prepare::prepare`] frees each one as its resource is prepared (a
    /// vector of the datasets themselves stayed whole until the end: 20 MB of a push's
    /// peak at 100,000 resources, issue 27).
    pub list: Vec<Box<PlannedDataset>>,
}

impl Serialize for PlannedDatasets {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Placed<'a> {
            url: String,
            iri: String,
            #[serde(flatten)]
            dataset: &'a PlannedDataset,
        }
        serializer.collect_seq(self.list.iter().map(|d| Placed {
            url: self.places.url(d),
            iri: self.places.iri(d),
            dataset: d,
        }))
    }
}

/// Where a plan's datasets go: on the platform `stone:<ns>/<slug>` and its https IRI;
/// elsewhere the URL of the resource under the destination, as URL and IRI both.
#[derive(Debug, Clone)]
pub struct Places {
    namespace: Option<Label>,
    host: String,
    to: String,
}

impl Places {
    /// The dataset's URL: `stone:<ns>/<slug>`, or `<destination>/<path>`.
    pub fn url(&self, d: &PlannedDataset) -> String {
        match &self.namespace {
            Some(ns) => StoneUrl::dataset(ns.clone(), d.slug.clone()).to_string(),
            None => format!("{}/{}", self.to, d.path),
        }
    }

    /// The dataset's IRI: `https://<host>/<ns>/<slug>`, or its URL.
    pub fn iri(&self, d: &PlannedDataset) -> String {
        match &self.namespace {
            Some(ns) => StoneUrl::dataset(ns.clone(), d.slug.clone()).iri(&self.host),
            None => self.url(d),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct PlannedDataset {
    pub slug: Label,
    pub path: String,
    pub kind: AssetKind,
    pub engine: Engine,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    pub size: u64,
    /// The file's sha256; for a directory, the sha256 of its listing
    /// (`<sha256> <size> <path>\n` per file, sorted by path).
    pub sha256: String,
    pub files: PlannedFiles,
    /// A folder (not one file).
    #[serde(skip)]
    pub directory: bool,
    /// A folder of more than [`LISTED_FILES`] files: its listing as the push API digests
    /// it (issue 27: a server whose head has it needs none of the files).
    #[serde(skip)]
    pub listing: Option<stone_api::FolderListing>,
}

/// The files of a planned dataset: listed, or (a folder of more than
/// [`stone_package::LISTED_FILES`] files) walked again when they are needed: shown by a dry
/// run, pushed by [`crate::prepare`]. Either way they serialize as the list of digests.
#[derive(Debug)]
pub enum PlannedFiles {
    Listed(Vec<FileDigest>),
    /// Boxed: most datasets are listed, and a plan holds one per resource.
    Unlisted {
        folder: Box<Folder>,
        jobs: usize,
    },
}

impl PlannedFiles {
    pub fn len(&self) -> usize {
        match self {
            PlannedFiles::Listed(files) => files.len(),
            PlannedFiles::Unlisted { folder, .. } => folder.files,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Serialize for PlannedFiles {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        match self {
            PlannedFiles::Listed(files) => files.serialize(serializer),
            PlannedFiles::Unlisted { folder, jobs } => {
                // Walked again, a chunk at a time, the digests from the cache the plan wrote.
                let mut hasher =
                    FolderHasher::read_only(folder, *jobs).map_err(S::Error::custom)?;
                let mut seq = serializer.serialize_seq(None)?;
                loop {
                    let chunk = hasher
                        .next_chunk(LISTED_FILES, &())
                        .map_err(|e| S::Error::custom(anyhow::Error::new(e).to_string()))?;
                    if chunk.is_empty() {
                        break;
                    }
                    for digest in &chunk {
                        seq.serialize_element(digest)?;
                    }
                }
                seq.end()
            }
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Totals {
    pub datasets: usize,
    pub files: usize,
    pub bytes: u64,
}

/// Loads the package and checks what the push needs before any file is read: the
/// destination is `to` when given, else the package's `publish.to`.
pub fn load_for_push(
    path: &Path,
    to: Option<&Destination>,
) -> anyhow::Result<(Package, Destination)> {
    let package = load_package(path)
        .with_context(|| format!("cannot load the package in {}", path.display()))?;
    let to = to
        .cloned()
        .or_else(|| package.publish.as_ref().and_then(|p| p.to.clone()))
        .ok_or_else(|| {
            let location = package.publish.as_ref().and_then(|p| p.location);
            let at = match location {
                Some(l) => format!("{}:{}:{}", package.descriptor.display(), l.line, l.column),
                None => package.descriptor.display().to_string(),
            };
            NoDestination { at }
        })?;
    Ok((package, to))
}

/// Hashes every file and builds the plan.
#[allow(clippy::too_many_arguments)]
pub fn build_plan(
    package: &Package,
    to: &Destination,
    namespace: Option<Label>,
    handler: HandlerChoice,
    environment: ResolvedEnvironment,
    branch: Branch,
    options: PlanOptions,
    jobs: usize,
    progress: &dyn HashProgress,
) -> anyhow::Result<PushPlan> {
    let hashing_failed = || format!("cannot hash the files of {}", package.root.display());
    let mut session = HashSession::new(&package.root, jobs, true, progress);
    // The files listed, all together (one pool of threads for many small resources); the
    // folders of more files than that, one after the other, a chunk at a time.
    let files: Vec<_> = package.resources.iter().flat_map(|r| &r.files).collect();
    let digests = session.hash_listed(&files).with_context(hashing_failed)?;
    drop(files);
    let mut digests = digests.into_iter();
    let ResolvedEnvironment {
        environment,
        unconfigured: environment_unconfigured,
    } = environment;
    let host = environment.options.host.clone();
    let mut datasets = Vec::with_capacity(package.resources.len());
    for r in &package.resources {
        let (files, size, sha256, wire) = match package.folder(r) {
            None => {
                let files: Vec<FileDigest> = digests.by_ref().take(r.files.len()).collect();
                let mut listing = Listing::new(r.is_directory(), &r.path);
                files.iter().for_each(|f| listing.add(f));
                let size = r.size();
                (PlannedFiles::Listed(files), size, listing.finish(), None)
            }
            Some(mut folder) => {
                let mut hasher = session.folder(&folder).with_context(hashing_failed)?;
                let mut listing = Listing::new(true, &r.path);
                let mut wire = stone_api::ListingDigest::default();
                loop {
                    let chunk = hasher
                        .next_chunk(LISTED_FILES, progress)
                        .with_context(hashing_failed)?;
                    if chunk.is_empty() {
                        break;
                    }
                    chunk.iter().for_each(|f| {
                        listing.add(f);
                        let inner = crate::folder::inner_path(&r.path, &f.path);
                        wire.add(inner, &f.sha256, f.size);
                    });
                }
                let counted = hasher.stats();
                session.absorb(hasher);
                // What the walk found now (the files may have changed since the package
                // was loaded).
                folder.files = counted.files;
                folder.bytes = counted.bytes;
                let wire = stone_api::FolderListing {
                    files: wire.files(),
                    bytes: wire.bytes(),
                    sha256: wire.finish(),
                };
                (
                    PlannedFiles::Unlisted {
                        folder: Box::new(folder),
                        jobs,
                    },
                    counted.bytes,
                    listing.finish(),
                    Some(wire),
                )
            }
        };
        datasets.push(Box::new(PlannedDataset {
            slug: r.slug.clone(),
            path: r.path.clone(),
            kind: r.kind,
            engine: r.kind.engine(),
            format: r.format,
            size,
            sha256,
            directory: r.is_directory(),
            files,
            listing: wire,
        }));
    }
    let hashing = session.finish();
    let package_node = match &namespace {
        Some(ns) => {
            let node = StoneUrl::namespace(ns.clone());
            PackageNode {
                url: node.to_string(),
                iri: node.iri(&host),
            }
        }
        None => {
            let url = format!("{to}/{}", crate::blob_store::DESCRIPTOR);
            PackageNode {
                url: url.clone(),
                iri: url,
            }
        }
    };
    Ok(PushPlan {
        package: PackageSummary {
            root: package.root.display().to_string(),
            name: package.name.clone(),
            title: package.title.clone(),
            version: package.version.clone(),
            public: package.publish.as_ref().is_some_and(|p| p.public),
        },
        destination: to.to_string(),
        handler,
        environment,
        environment_unconfigured,
        branch,
        options,
        package_node,
        totals: Totals {
            datasets: datasets.len(),
            files: datasets.iter().map(|d| d.files.len()).sum(),
            bytes: datasets.iter().map(|d| d.size).sum(),
        },
        datasets: PlannedDatasets {
            places: Places {
                namespace,
                host,
                to: to.to_string(),
            },
            list: datasets,
        },
        hashing,
    })
}

/// A single file's sha256, or a directory's listing digest (`<sha256> <size> <path>\n`
/// per file, paths inside the folder, in path order), computed as the files pass.
struct Listing<'a> {
    root: &'a str,
    hasher: Option<Sha256>,
    single: Option<String>,
    line: String,
}

impl<'a> Listing<'a> {
    fn new(is_directory: bool, root: &'a str) -> Self {
        Listing {
            root,
            hasher: is_directory.then(Sha256::new),
            single: None,
            line: String::new(),
        }
    }

    fn add(&mut self, f: &FileDigest) {
        let Some(hasher) = &mut self.hasher else {
            self.single.get_or_insert_with(|| f.sha256.clone());
            return;
        };
        let inner = f
            .path
            .strip_prefix(self.root)
            .unwrap_or(&f.path)
            .trim_start_matches('/');
        use std::fmt::Write as _;
        self.line.clear();
        let _ = writeln!(self.line, "{} {} {inner}", f.sha256, f.size);
        hasher.update(self.line.as_bytes());
    }

    fn finish(self) -> String {
        match self.hasher {
            Some(hasher) => format!("{:x}", hasher.finalize()),
            None => self.single.unwrap_or_default(),
        }
    }
}
