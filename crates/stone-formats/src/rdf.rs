//! RDF validation of GRAPH resources (Turtle, N-Triples, JSON-LD), with the cargo feature
//! `rdf`. Without it, this module is a stub that names the feature: the base build has no
//! RDF library in its dependency tree.

use std::path::Path;

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

/// Parses the whole file; the first syntax error is reported with its line and column.
/// JSON-LD remote contexts are not fetched: a document that needs one is an error.
#[cfg(feature = "rdf")]
pub fn validate_rdf(path: &Path, format: Format) -> Result<RdfCheck, FormatError> {
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
    let file = std::fs::File::open(path).map_err(|source| FormatError::Read {
        path: path.to_owned(),
        source,
    })?;
    let reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut statements = 0u64;
    for quad in RdfParser::from_format(rdf_format).for_reader(reader) {
        match quad {
            Ok(_) => statements += 1,
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
    Ok(RdfCheck { statements })
}

/// Without the `rdf` feature: an error naming the feature.
#[cfg(not(feature = "rdf"))]
pub fn validate_rdf(path: &Path, _format: Format) -> Result<RdfCheck, FormatError> {
    Err(FormatError::RdfNotBuilt {
        path: path.to_owned(),
    })
}
