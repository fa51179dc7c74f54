//! The embedded store's bookkeeping in its meta graph: each graph's triple count
//! ([`set_count_in`]) and the files it was loaded from, by sha256: records
//! `<graph> <LOADED_PREDICATE> "sha256"` in the store's meta graph, added once a load's
//! triples are in (for a new graph, ingested right after them: [`Inner::ingest_records`])
//! and all forgotten before anything removes a triple (`Inner::clear`). So the graph holds
//! every triple of each recorded file (a crash between a load and its record only leaves
//! a file out), and an append of files all recorded changes nothing (`Inner::load_files`
//! answers it without reading them).

use std::collections::BTreeSet;

use oxigraph::model::{GraphNameRef, Literal, NamedNode, Quad, Term};

use super::GraphError;
use super::embedded::{Inner, META_GRAPH, TRIPLES_PREDICATE};

const LOADED_PREDICATE: &str = "urn:stone:graph-store:loaded-from";

impl Inner {
    /// The digests of the files the graph was loaded from.
    pub(super) fn loaded_from(&self, graph: &NamedNode) -> Result<BTreeSet<String>, GraphError> {
        Ok(self
            .loaded_records(graph)?
            .into_iter()
            .filter_map(|quad| match quad.object {
                Term::Literal(digest) => Some(digest.value().to_owned()),
                _ => None,
            })
            .collect())
    }

    /// The graph's `<graph> <LOADED_PREDICATE> "sha256"` records.
    fn loaded_records(&self, graph: &NamedNode) -> Result<Vec<Quad>, GraphError> {
        let (_, loaded) = loaded_nodes();
        Ok(self
            .meta_records(graph, Some(&loaded))
            .collect::<Result<_, _>>()?)
    }

    /// The graph's records in the meta graph (those of `predicate` only, if given).
    pub(super) fn meta_records(
        &self,
        graph: &NamedNode,
        predicate: Option<&NamedNode>,
    ) -> oxigraph::store::QuadIter<'_> {
        let (meta, _) = meta_nodes();
        self.store.quads_for_pattern(
            Some(graph.as_ref().into()),
            predicate.map(NamedNode::as_ref),
            None,
            Some(GraphNameRef::NamedNode(meta.as_ref())),
        )
    }

    pub(super) fn remember_loaded(
        &self,
        graph: &NamedNode,
        digests: &BTreeSet<String>,
    ) -> Result<(), GraphError> {
        let (meta, loaded) = loaded_nodes();
        let mut transaction = self.store.start_transaction()?;
        for digest in digests {
            transaction.insert(&Quad::new(
                graph.clone(),
                loaded.clone(),
                Literal::new_simple_literal(digest),
                meta.clone(),
            ));
        }
        transaction.commit()?;
        Ok(())
    }

    /// Records the size of a graph just bulk-loaded (it was empty) and the files it was
    /// loaded from, through the bulk loader: ingested as its triples were, not written.
    ///
    /// Ingested files are durable as they are: nothing of this load is left to flush, and
    /// the journal entry closes without one (a flush right after a large load also waited,
    /// with RocksDB's default stall settings, until compaction had merged the load's
    /// files: third_party/oxigraph/STONE.md). A graph that still has records (none
    /// should: clearing one removes them) gets them written as before.
    pub(super) fn ingest_records(
        &self,
        graph: &NamedNode,
        total: u64,
        digests: Option<&BTreeSet<String>>,
    ) -> Result<(), GraphError> {
        let (meta, count) = meta_nodes();
        let (_, loaded) = loaded_nodes();
        let stale = self.meta_records(graph, None).next().is_some();
        if stale {
            self.forget_loaded(graph)?;
            self.set_count(graph, total)?;
            if let Some(digests) = digests {
                self.remember_loaded(graph, digests)?;
            }
            self.store.flush()?;
            return Ok(());
        }
        let mut records = vec![Quad::new(
            graph.clone(),
            count,
            Literal::from(total),
            meta.clone(),
        )];
        records.extend(digests.into_iter().flatten().map(|digest| {
            Quad::new(
                graph.clone(),
                loaded.clone(),
                Literal::new_simple_literal(digest),
                meta.clone(),
            )
        }));
        let mut loader = self.store.bulk_loader();
        loader.load_quads(records)?;
        loader.commit()?;
        Ok(())
    }

    /// Forgets the files the graph was loaded from ([`Self::loaded_from`]).
    pub(super) fn forget_loaded(&self, graph: &NamedNode) -> Result<(), GraphError> {
        let records = self.loaded_records(graph)?;
        self.remove_all(&records)
    }
}

/// The meta graph and the predicate of its `<graph> <LOADED_PREDICATE> "sha256"` records.
pub(super) fn loaded_nodes() -> (NamedNode, NamedNode) {
    (
        NamedNode::new_unchecked(META_GRAPH),
        NamedNode::new_unchecked(LOADED_PREDICATE),
    )
}

/// Records the graph's size (nothing when 0) inside `transaction`.
pub(super) fn set_count_in(
    transaction: &mut oxigraph::store::Transaction<'_>,
    graph: &NamedNode,
    total: u64,
) -> Result<(), GraphError> {
    let (meta, predicate) = meta_nodes();
    let old: Vec<Quad> = transaction
        .quads_for_pattern(
            Some(graph.as_ref().into()),
            Some(predicate.as_ref()),
            None,
            Some(GraphNameRef::NamedNode(meta.as_ref())),
        )
        .collect::<Result<_, _>>()?;
    for quad in &old {
        transaction.remove(quad);
    }
    if total > 0 {
        transaction.insert(&Quad::new(
            graph.clone(),
            predicate,
            Literal::from(total),
            meta,
        ));
    }
    Ok(())
}

pub(super) fn meta_nodes() -> (NamedNode, NamedNode) {
    (
        NamedNode::new_unchecked(META_GRAPH),
        NamedNode::new_unchecked(TRIPLES_PREDICATE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digests(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn records_ingested_after_a_load_are_read_as_written_ones_and_replace_stale_ones() {
        let dir = tempfile::tempdir().unwrap();
        let inner = Inner::open(dir.path().to_path_buf()).unwrap();
        let fresh = NamedNode::new_unchecked("http://example.org/fresh");
        inner
            .ingest_records(&fresh, 7, Some(&digests(&["a", "b"])))
            .unwrap();
        assert_eq!(inner.recorded_count(&fresh).unwrap(), Some(7));
        assert_eq!(inner.loaded_from(&fresh).unwrap(), digests(&["a", "b"]));
        // Without digests: the count alone.
        let counted = NamedNode::new_unchecked("http://example.org/counted");
        inner.ingest_records(&counted, 3, None).unwrap();
        assert_eq!(inner.recorded_count(&counted).unwrap(), Some(3));
        assert!(inner.loaded_from(&counted).unwrap().is_empty());
        // Records left from before (none should be): replaced, not added to.
        let stale = NamedNode::new_unchecked("http://example.org/stale");
        inner.set_count(&stale, 5).unwrap();
        inner.remember_loaded(&stale, &digests(&["x"])).unwrap();
        inner
            .ingest_records(&stale, 9, Some(&digests(&["y"])))
            .unwrap();
        assert_eq!(inner.recorded_count(&stale).unwrap(), Some(9));
        assert_eq!(inner.loaded_from(&stale).unwrap(), digests(&["y"]));
        let (_, count) = meta_nodes();
        assert_eq!(inner.meta_records(&stale, Some(&count)).count(), 1);
        // The others are untouched.
        assert_eq!(inner.recorded_count(&fresh).unwrap(), Some(7));
    }
}
