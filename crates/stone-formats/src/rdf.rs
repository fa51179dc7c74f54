//! RDF validation of GRAPH resources (Turtle, N-Triples, JSON-LD), with the cargo feature
//! `rdf`. Without it, this module is a stub that names the feature: the base build has no
//! RDF library in its dependency tree.

use std::path::Path;
use std::sync::atomic::AtomicBool;
#[cfg(feature = "rdf")]
use std::sync::atomic::Ordering;

use serde::Serialize;
use stone_package::Format;

use crate::FormatError;

/// What validation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RdfCheck {
    /// Triples (or quads) in the file.
    pub statements: u64,
}

/// Whether this build can read RDF.
pub const RDF_SUPPORTED: bool = cfg!(feature = "rdf");

/// Statements parsed between two looks at the stop flag of [`validate_rdf_until`].
#[cfg(feature = "rdf")]
const STOP_EVERY: u64 = 4096;

/// Parses the whole file; the first syntax error is reported with its line and column.
/// JSON-LD remote contexts are not fetched: a document that needs one is an error.
pub fn validate_rdf(path: &Path, format: Format) -> Result<RdfCheck, FormatError> {
    let never = AtomicBool::new(false);
    // Only the stop flag ends a validation without an answer, and nothing sets this one.
    Ok(validate_rdf_until(path, format, &never)?.unwrap_or(RdfCheck { statements: 0 }))
}

/// [`validate_rdf`], given up (`Ok(None)`) soon after `stop` is set: a validation started
/// ahead of its need that turns out not to be needed (its content passed before).
#[cfg(feature = "rdf")]
pub fn validate_rdf_until(
    path: &Path,
    format: Format,
    stop: &AtomicBool,
) -> Result<Option<RdfCheck>, FormatError> {
    use oxrdfio::{RdfFormat, RdfParseError, RdfParser};

    let rdf_format = match format {
        Format::Turtle => RdfFormat::Turtle,
        Format::NTriples => RdfFormat::NTriples,
        Format::JsonLd => RdfFormat::JsonLd {
            profile: Default::default(),
        },
        other => {
            return Err(FormatError::Rdf {
                path: path.to_owned(),
                line: 1,
                column: 1,
                message: format!("{other:?} is not an RDF format"),
            });
        }
    };
    if rdf_format == RdfFormat::NTriples
        && let Some(parsed) = parallel_ntriples(path, stop)?
    {
        return Ok(parsed.map(|statements| RdfCheck { statements }));
    }
    let file = std::fs::File::open(path).map_err(|source| FormatError::Read {
        path: path.to_owned(),
        source,
    })?;
    let reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut statements = 0u64;
    for quad in RdfParser::from_format(rdf_format).for_reader(reader) {
        match quad {
            Ok(_) => {
                statements += 1;
                if statements.is_multiple_of(STOP_EVERY) && stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
            }
            Err(RdfParseError::Io(source)) => {
                return Err(FormatError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
            Err(RdfParseError::Syntax(e)) => {
                let start = e.location().map(|l| l.start);
                return Err(FormatError::Rdf {
                    path: path.to_owned(),
                    line: start.as_ref().map(|p| p.line + 1).unwrap_or(1),
                    column: start.as_ref().map(|p| p.column + 1).unwrap_or(1),
                    message: e.to_string(),
                });
            }
        }
    }
    Ok(Some(RdfCheck { statements }))
}

/// N-Triples files of at least this size are parsed in parallel.
#[cfg(feature = "rdf")]
const PARALLEL_MIN_BYTES: u64 = 8 << 20;

/// Parts of a file per core: a core whose parts went fast takes more, so that no core
/// finishes alone (with one part each, the two halves of a file ended 0.3 s apart).
#[cfg(feature = "rdf")]
const PARTS_PER_CORE: usize = 8;

/// Counts the statements of a large N-Triples file with one parser per core, each taking
/// the next part of the file (cut at a line end: a statement never spans lines in
/// N-Triples) until none is left. `None` when the file is small, the machine has one
/// core, or a part fails to parse: the caller then parses the file from its start, which
/// reports the first error with its line and column in the whole file (a part only knows
/// its own lines). `Some(None)` when `stop` was set.
#[cfg(feature = "rdf")]
fn parallel_ntriples(path: &Path, stop: &AtomicBool) -> Result<Option<Option<u64>>, FormatError> {
    use oxrdfio::{RdfFormat, RdfParser};

    let read = |source| FormatError::Read {
        path: path.to_owned(),
        source,
    };
    let size = std::fs::metadata(path).map_err(read)?.len();
    if size < PARALLEL_MIN_BYTES {
        return Ok(None);
    }
    // Asked only for a large file: the answer reads the cgroup's files (four opens), a cost
    // a package of thousands of small graphs paid per file.
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if cores < 2 {
        return Ok(None);
    }
    let parts = RdfParser::from_format(RdfFormat::NTriples)
        .split_file_for_parallel_parsing(path, cores * PARTS_PER_CORE)
        .map_err(read)?;
    let parts = std::sync::Mutex::new(parts);
    // A part that failed: the others stop (the caller parses from the start).
    let failed = AtomicBool::new(false);
    let given_up = || failed.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
    let counts = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(|| {
                    let mut statements = 0u64;
                    loop {
                        // The lock is held to take a part, not to parse it.
                        let part = parts.lock().ok()?.pop();
                        let Some(part) = part else {
                            return Some(statements);
                        };
                        for quad in part {
                            if quad.is_err() {
                                failed.store(true, Ordering::Relaxed);
                                return None;
                            }
                            statements += 1;
                            if statements.is_multiple_of(STOP_EVERY) && given_up() {
                                return None;
                            }
                        }
                        if given_up() {
                            return None;
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().ok().flatten())
            .collect::<Option<Vec<u64>>>()
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(Some(None));
    }
    Ok(counts.map(|counts| Some(counts.into_iter().sum())))
}

/// Without the `rdf` feature: an error naming the feature.
#[cfg(not(feature = "rdf"))]
pub fn validate_rdf_until(
    path: &Path,
    _format: Format,
    _stop: &AtomicBool,
) -> Result<Option<RdfCheck>, FormatError> {
    Err(FormatError::RdfNotBuilt {
        path: path.to_owned(),
    })
}
