//! Reading the RDF files of a load: one graph per file (named graphs refused), relative
//! IRIs against the graph IRI, fresh blank nodes per file, no remote JSON-LD contexts.

use std::collections::HashSet;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use oxigraph::io::{RdfParseError, RdfParser};
use oxigraph::model::{GraphName, NamedNode, Triple};

use super::content::Content;
use super::{GraphError, RdfFormat};

/// The graph name for an IRI given by the caller: absolute, RFC 3987.
pub(super) fn graph_name(iri: &str) -> Result<NamedNode, GraphError> {
    NamedNode::new(iri).map_err(|e| GraphError::InvalidGraphIri {
        iri: iri.to_owned(),
        reason: e.to_string(),
    })
}

/// Parses every file and returns their union as the content to load; `base` resolves
/// relative IRIs.
pub(super) fn parse_files(
    files: &[(PathBuf, RdfFormat)],
    base: &str,
) -> Result<Content, GraphError> {
    let mut triples = HashSet::new();
    for (path, format) in files {
        parse_file(path, *format, base, &mut triples)?;
    }
    Ok(Content::collapsed(triples))
}

fn parse_file(
    path: &Path,
    format: RdfFormat,
    base: &str,
    into: &mut HashSet<Triple>,
) -> Result<(), GraphError> {
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
    for quad in parser {
        match quad {
            Ok(quad) => {
                into.insert(Triple::from(quad));
            }
            Err(error) => {
                if let Some(url) = remote_context
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                {
                    return Err(GraphError::RemoteContext {
                        path: path.to_path_buf(),
                        url,
                    });
                }
                return Err(parse_error(path, format, error));
            }
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
        parse_files(&[(path, format)], "http://example.org/graph/")
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
