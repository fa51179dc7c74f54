//! Many small new graphs in one change (issue 56): a push of 2,000 one-file GRAPH
//! resources cost a bulk load, two RocksDB ingestions and a journal entry per graph
//! (~84 ms each); here the graphs of a batch that are empty go in together.
//!
//! Each graph's files are parsed into memory (the caller passes small ones only, and a
//! load holds at most [`LOAD_BYTES`] of files), counted there (a graph is a set: the
//! collapsed content's size), and every graph of the load goes into the store with its
//! records (count, files loaded from) in one bulk load, under one journal entry that
//! discards them all: after a crash the store removes the whole load when it opens, and a
//! graph is seen empty or complete, never in part. A graph that is not empty, or whose
//! files fail to parse, is left to the caller (the per-graph path) or fails alone.

use std::collections::BTreeSet;
use std::path::PathBuf;

use oxigraph::model::{Literal, NamedNode, Quad};

use super::content::Content;
use super::embedded::Inner;
use super::journal::Step;
use super::loaded::{loaded_nodes, meta_nodes};
use super::parse;
use super::{GraphError, GraphLimits, GraphOutcome, RdfFormat};

/// Files parsed into memory for one bulk load of new graphs: their triples take several
/// times this while held (about 60 MB for 8 MiB of N-Triples).
pub(crate) const LOAD_BYTES: u64 = 8 << 20;

/// One graph of a batch, as the engine takes it.
pub(super) struct BatchGraph {
    pub graph: NamedNode,
    pub files: Vec<(PathBuf, RdfFormat)>,
    /// The files' digests, when each is known (remembered as for any load).
    pub digests: Option<BTreeSet<String>>,
}

/// What became of a graph of a batch: `None`, not taken (it is not empty: the caller loads
/// it alone).
pub(super) type BatchResult = Option<Result<GraphOutcome, GraphError>>;

impl Inner {
    /// Loads the graphs that are empty, [`LOAD_BYTES`] of files per bulk load (see the
    /// module documentation); one result per graph, in order.
    pub(super) fn load_new_graphs(
        &self,
        graphs: &[BatchGraph],
        limits: GraphLimits,
    ) -> Result<Vec<BatchResult>, GraphError> {
        let mut results: Vec<BatchResult> = Vec::with_capacity(graphs.len());
        // Parsed and waiting for their load: (position, graph, content).
        let mut pending: Vec<(usize, Content)> = Vec::new();
        let mut held = 0u64;
        for (position, batch_graph) in graphs.iter().enumerate() {
            results.push(None);
            // New: no records and no triple (one that cannot be read is written alone,
            // which reports why).
            if self.has_records(&batch_graph.graph) || !self.is_empty(&batch_graph.graph) {
                continue;
            }
            let size: u64 = batch_graph
                .files
                .iter()
                .map(|(path, _)| std::fs::metadata(path).map_or(0, |m| m.len()))
                .sum();
            if !pending.is_empty() && held + size > LOAD_BYTES {
                self.load_parsed(graphs, std::mem::take(&mut pending), &mut results);
                held = 0;
            }
            match parse::parse_files(&batch_graph.files, batch_graph.graph.as_str(), limits) {
                Ok(content) => {
                    held += size;
                    pending.push((position, content));
                }
                Err(error) => results[position] = Some(Err(error)),
            }
        }
        self.load_parsed(graphs, pending, &mut results);
        Ok(results)
    }

    /// Whether the graph has records in the meta graph (a graph without a count should
    /// have none; one that has is loaded alone, which replaces them).
    fn has_records(&self, graph: &NamedNode) -> bool {
        self.meta_records(graph, None).next().is_some()
    }

    /// One bulk load of parsed graphs and their records, under one journal entry; its
    /// failure is each of its graphs' (the loads before it stand).
    fn load_parsed(
        &self,
        graphs: &[BatchGraph],
        parsed: Vec<(usize, Content)>,
        results: &mut [BatchResult],
    ) {
        let positions: Vec<usize> = parsed.iter().map(|(position, _)| *position).collect();
        if let Err(error) = self.load_parsed_or_fail(graphs, parsed, results) {
            tracing::error!(error = %error, graphs = positions.len(), "a load of new graphs failed");
            for position in positions {
                if results[position].is_none() {
                    results[position] = Some(Err(GraphError::Query {
                        message: error.to_string(),
                    }));
                }
            }
        }
    }

    fn load_parsed_or_fail(
        &self,
        graphs: &[BatchGraph],
        parsed: Vec<(usize, Content)>,
        results: &mut [BatchResult],
    ) -> Result<(), GraphError> {
        let (meta, count) = meta_nodes();
        let (_, loaded) = loaded_nodes();
        let mut quads = Vec::new();
        let mut loading = Vec::new();
        for (position, content) in parsed {
            let batch_graph = &graphs[position];
            let total = content.len();
            if total == 0 {
                // An empty file into an empty graph: nothing to keep.
                results[position] = Some(Ok(GraphOutcome {
                    triples_added: 0,
                    triples_removed: 0,
                    total_triples: 0,
                    unchanged: true,
                }));
                continue;
            }
            let graph = &batch_graph.graph;
            quads.extend(
                content
                    .triples()
                    .into_iter()
                    .map(|triple| triple.in_graph(graph.clone())),
            );
            quads.push(Quad::new(
                graph.clone(),
                count.clone(),
                Literal::from(total),
                meta.clone(),
            ));
            quads.extend(batch_graph.digests.iter().flatten().map(|digest| {
                Quad::new(
                    graph.clone(),
                    loaded.clone(),
                    Literal::new_simple_literal(digest),
                    meta.clone(),
                )
            }));
            loading.push((position, total));
        }
        if loading.is_empty() {
            return Ok(());
        }
        let entry = self.journal.begin(&Step::Discard {
            graphs: loading
                .iter()
                .map(|(position, _)| graphs[*position].graph.as_str().to_owned())
                .collect(),
        })?;
        let started = std::time::Instant::now();
        let mut loader = self.loader();
        // Without commit the bulk loader drops everything it was given.
        let written = loader
            .load_quads(quads)
            .and_then(|()| loader.commit())
            .map_err(GraphError::from);
        if let Err(error) = written {
            // Undone now, as the journal would at the next start.
            for (position, _) in &loading {
                if let Err(cleanup) = self.clear(&graphs[*position].graph) {
                    tracing::error!(error = %cleanup, "cannot remove an abandoned graph load; it is removed at the next start");
                    return Err(error);
                }
            }
            self.finish(entry)?;
            return Err(error);
        }
        // Ingested files are durable as they are (as `ingest_records` says): the entry
        // closes without a flush.
        self.journal.finish(entry)?;
        tracing::info!(
            graphs = loading.len(),
            triples = loading.iter().map(|(_, total)| total).sum::<u64>(),
            load_ms = started.elapsed().as_millis() as u64,
            "new graphs bulk-loaded together"
        );
        for (position, total) in loading {
            results[position] = Some(Ok(GraphOutcome {
                triples_added: total,
                triples_removed: 0,
                total_triples: total,
                unchanged: false,
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &std::path::Path, name: &str, text: &str) -> (PathBuf, RdfFormat) {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        (path, RdfFormat::NTriples)
    }

    #[test]
    fn new_graphs_load_together_and_the_others_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let inner = Inner::open(dir.path().join("store")).unwrap();
        let node = |name: &str| NamedNode::new_unchecked(format!("http://example.org/{name}"));
        // `full` already holds a triple: left to a load of its own.
        inner
            .load_new_graphs(
                &[BatchGraph {
                    graph: node("full"),
                    files: vec![file(dir.path(), "f.nt", "<s:a> <p:b> \"old\" .\n")],
                    digests: None,
                }],
                GraphLimits::default(),
            )
            .unwrap();
        let two = "<s:a> <p:b> \"1\" .\n<s:a> <p:b> \"2\" .\n<s:a> <p:b> \"1\" .\n_:x <p:b> \"3\" .\n_:y <p:b> \"3\" .\n";
        let batch = [
            BatchGraph {
                graph: node("a"),
                files: vec![file(dir.path(), "a.nt", two)],
                digests: Some(["d1".to_owned()].into()),
            },
            BatchGraph {
                graph: node("full"),
                files: vec![file(dir.path(), "g.nt", "<s:a> <p:b> \"new\" .\n")],
                digests: None,
            },
            BatchGraph {
                graph: node("broken"),
                files: vec![file(dir.path(), "b.nt", "<s:a> <p:b> .\n")],
                digests: None,
            },
            BatchGraph {
                graph: node("empty"),
                files: vec![file(dir.path(), "e.nt", "")],
                digests: None,
            },
        ];
        let results = inner
            .load_new_graphs(&batch, GraphLimits::default())
            .unwrap();
        // Three distinct triples: the repeated one once, the two blank-node components alike
        // collapsed into one.
        let a = results[0].as_ref().unwrap().as_ref().unwrap();
        assert_eq!(
            (a.triples_added, a.total_triples, a.unchanged),
            (3, 3, false)
        );
        assert_eq!(inner.count(&node("a")).unwrap(), 3);
        assert_eq!(inner.sparql_count(&node("a")).unwrap(), 3);
        assert_eq!(
            inner.loaded_from(&node("a")).unwrap(),
            ["d1".to_owned()].into()
        );
        assert!(results[1].is_none());
        assert_eq!(inner.count(&node("full")).unwrap(), 1);
        assert!(results[2].as_ref().unwrap().is_err());
        assert_eq!(inner.count(&node("broken")).unwrap(), 0);
        assert!(results[3].as_ref().unwrap().as_ref().unwrap().unchanged);
        assert_eq!(inner.count(&node("empty")).unwrap(), 0);
        assert_eq!(
            std::fs::read_dir(dir.path().join("store/journal"))
                .unwrap()
                .count(),
            0
        );
    }
}
