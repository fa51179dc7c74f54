//! Reading the RDF files of a load: one graph per file (named graphs refused), relative
//! IRIs against the graph IRI, fresh blank nodes per file, no remote JSON-LD contexts.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use oxigraph::io::{RdfParseError, RdfParser};
use oxigraph::model::{GraphName, NamedNode, NamedOrBlankNode, Term, Triple};

use super::content::Content;
use super::{GraphError, GraphLimits, RdfFormat};

/// The graph name for an IRI given by the caller: absolute, RFC 3987.
pub(super) fn graph_name(iri: &str) -> Result<NamedNode, GraphError> {
    NamedNode::new(iri).map_err(|e| GraphError::InvalidGraphIri {
        iri: iri.to_owned(),
        reason: e.to_string(),
    })
}

/// Parses every file and returns their union as the content to load; `base` resolves
/// relative IRIs. Every file's size is checked before any is parsed; the triples go
/// straight from the parser into the content (no second copy of the graph on the way).
pub(super) fn parse_files(
    files: &[(PathBuf, RdfFormat)],
    base: &str,
    limits: GraphLimits,
) -> Result<Content, GraphError> {
    let mut failure = None;
    let triples = stream_files(files, base, limits)?.map_while(|triple| match triple {
        Ok(triple) => Some(triple),
        Err(error) => {
            failure = Some(error);
            None
        }
    });
    let content = Content::collapsed(triples);
    match failure {
        Some(error) => Err(error),
        None => Ok(content),
    }
}

/// The triples of every file, one after the other, as the parser reads them (nothing is
/// collected); every file's size is checked before any is parsed. The first error ends
/// the load: callers stop at it.
pub(super) fn stream_files(
    files: &[(PathBuf, RdfFormat)],
    base: &str,
    limits: GraphLimits,
) -> Result<impl Iterator<Item = Result<Triple, GraphError>> + use<>, GraphError> {
    for (path, _) in files {
        check_file_size(path, limits)?;
    }
    let files = files.to_vec();
    let base = base.to_owned();
    Ok(files.into_iter().flat_map(
        move |(path, format)| -> Box<dyn Iterator<Item = Result<Triple, GraphError>>> {
            match file_triples(&path, format, &base, limits) {
                Ok(triples) => Box::new(triples),
                Err(error) => Box::new(std::iter::once(Err(error))),
            }
        },
    ))
}

fn check_file_size(path: &Path, limits: GraphLimits) -> Result<(), GraphError> {
    let size = std::fs::metadata(path)
        .map_err(|source| GraphError::ReadFile {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if size > limits.max_file_bytes {
        return Err(GraphError::TooLarge {
            path: path.to_path_buf(),
            what: "the file".to_owned(),
            size,
            max: limits.max_file_bytes,
            key: "max_file_bytes",
        });
    }
    Ok(())
}

/// The triples of one file, each checked against the literal bound.
fn file_triples(
    path: &Path,
    format: RdfFormat,
    base: &str,
    limits: GraphLimits,
) -> Result<impl Iterator<Item = Result<Triple, GraphError>> + use<>, GraphError> {
    let file = File::open(path).map_err(|source| GraphError::ReadFile {
        path: path.to_path_buf(),
        source,
    })?;
    // The loader never fetches: it remembers the URL so that the error can name it.
    let remote_context = Arc::new(Mutex::new(None::<String>));
    let seen = Arc::clone(&remote_context);
    let parser = RdfParser::from_format(format.to_oxigraph())
        .with_base_iri(base)
        .map_err(|e| GraphError::InvalidGraphIri {
            iri: base.to_owned(),
            reason: e.to_string(),
        })?
        .with_default_graph(GraphName::DefaultGraph)
        .without_named_graphs()
        // Blank node labels are scoped to their file: two files saying `_:b1` mean two
        // nodes, and no label can meet one already in the store.
        .rename_blank_nodes()
        .for_reader(BufReader::with_capacity(1 << 16, file))
        .with_document_loader(move |url| {
            *seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(url.to_owned());
            Err(format!("remote JSON-LD context {url} is not fetched").into())
        });
    let path = path.to_path_buf();
    Ok(parser.map(move |quad| match quad {
        Ok(quad) => {
            let triple = Triple::from(quad);
            check_terms(&triple, &path, limits)?;
            Ok(triple)
        }
        Err(error) => {
            if let Some(url) = remote_context
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                return Err(GraphError::RemoteContext {
                    path: path.clone(),
                    url,
                });
            }
            Err(parse_error(&path, format, error))
        }
    }))
}

/// Refuses a literal or an IRI longer than the bound.
fn check_terms(triple: &Triple, path: &Path, limits: GraphLimits) -> Result<(), GraphError> {
    let max = limits.max_literal_bytes;
    let subject = match &triple.subject {
        NamedOrBlankNode::NamedNode(node) => node.as_str(),
        NamedOrBlankNode::BlankNode(_) => "",
    };
    let (object, kind) = match &triple.object {
        Term::NamedNode(node) => (node.as_str(), "an IRI"),
        Term::Literal(literal) => (literal.value(), "a literal"),
        _ => ("", ""),
    };
    for (text, kind) in [
        (subject, "an IRI"),
        (triple.predicate.as_str(), "an IRI"),
        (object, kind),
    ] {
        if text.len() > max {
            let mut start = 40;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            return Err(GraphError::TooLarge {
                path: path.to_path_buf(),
                what: format!("{kind} starting with {:?}", &text[..start]),
                size: text.len() as u64,
                max: max as u64,
                key: "max_literal_bytes",
            });
        }
    }
    Ok(())
}

fn parse_error(path: &Path, format: RdfFormat, error: RdfParseError) -> GraphError {
    match error {
        RdfParseError::Io(source) => GraphError::ReadFile {
            path: path.to_path_buf(),
            source,
        },
        RdfParseError::Syntax(error) => {
            let start = error.location().map(|l| l.start);
            GraphError::Parse {
                path: path.to_path_buf(),
                format,
                line: start.map(|p| p.line + 1),
                column: start.map(|p| p.column + 1),
                message: error.to_string(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &str) -> Result<Content, GraphError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let format = RdfFormat::from_path(&path).unwrap();
        parse_files(
            &[(path, format)],
            "http://example.org/graph/",
            GraphLimits::default(),
        )
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let error = parse(
            "g.ttl",
            "<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"x .\n",
        )
        .unwrap_err();
        let GraphError::Parse {
            line,
            column,
            message,
            format,
            ..
        } = &error
        else {
            panic!("{error:?}")
        };
        assert_eq!(*format, RdfFormat::Turtle);
        assert_eq!(*line, Some(2));
        assert!(column.is_some());
        assert!(message.contains("line 2"), "{message}");
    }

    #[test]
    fn named_graphs_in_a_file_are_refused() {
        let text =
            r#"{"@id": "http://example.org/g", "@graph": [{"@id": "http://a", "http://b": "c"}]}"#;
        let error = parse("g.jsonld", text).unwrap_err();
        assert!(matches!(error, GraphError::Parse { .. }), "{error:?}");
    }

    #[test]
    fn remote_json_ld_contexts_are_refused() {
        let text = r#"{"@context": "https://schema.org/", "@id": "http://a", "name": "x"}"#;
        let error = parse("g.jsonld", text).unwrap_err();
        let GraphError::RemoteContext { url, .. } = &error else {
            panic!("{error:?}")
        };
        assert_eq!(url, "https://schema.org/");
        assert!(error.to_string().contains("inline the context"), "{error}");
    }

    #[test]
    fn inline_json_ld_contexts_and_relative_iris_work() {
        let text =
            r#"{"@context": {"name": "http://schema.org/name"}, "@id": "item", "name": "x"}"#;
        let content = parse("g.jsonld", text).unwrap();
        let triples = content.triples();
        assert_eq!(triples.len(), 1);
        assert_eq!(
            triples[0].subject.to_string(),
            "<http://example.org/graph/item>"
        );
    }

    #[test]
    fn graph_iris_must_be_absolute() {
        assert!(graph_name("https://example.org/ns/ds/main").is_ok());
        for bad in ["relative/path", "", "http://a b", "https://x/>"] {
            assert!(
                matches!(graph_name(bad), Err(GraphError::InvalidGraphIri { .. })),
                "{bad}"
            );
        }
    }
}
