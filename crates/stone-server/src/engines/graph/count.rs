//! Counting a graph's triples in the store's own encoding (SPARQL `COUNT(*)`: no term is
//! decoded), and counting a graph just bulk-loaded on several threads, a share of its
//! predicates each: one count reads the whole graph on one core, and after a bulk load it
//! was a tenth of a graph push (issue 24).

use std::collections::HashMap;

use oxigraph::model::{NamedNode, Term};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;

use super::GraphError;

/// Predicates a load follows at most; a load of more is counted in one pass.
const MAX_PREDICATES: usize = 4096;
/// Threads a count of a loaded graph takes at most.
const MAX_COUNT_THREADS: usize = 4;

/// Counts the triples of `graph` (with `predicate` only, if given).
pub(super) fn sparql_count(
    store: &Store,
    graph: &NamedNode,
    predicate: Option<&NamedNode>,
) -> Result<u64, GraphError> {
    let predicate = predicate.map_or_else(|| "?p".to_owned(), |p| format!("<{}>", p.as_str()));
    let query = format!(
        "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{}> {{ ?s {predicate} ?o }} }}",
        graph.as_str()
    );
    let failed = |message: String| GraphError::Query { message };
    let results = SparqlEvaluator::new()
        .parse_query(&query)
        .map_err(|e| failed(e.to_string()))?
        .on_store(store)
        .execute()
        .map_err(|e| failed(e.to_string()))?;
    if let QueryResults::Solutions(mut solutions) = results
        && let Some(solution) = solutions.next()
        && let Some(Term::Literal(n)) = solution.map_err(|e| failed(e.to_string()))?.get("n")
        && let Ok(n) = n.value().parse()
    {
        return Ok(n);
    }
    Err(failed(format!("no count for the graph {graph}")))
}

/// The predicates of the triples given to a load, each with how many triples had it
/// (repeats included): how the count of the loaded graph is shared between threads.
#[derive(Debug, Default)]
pub(super) struct Predicates {
    seen: HashMap<NamedNode, u64>,
    /// More than [`MAX_PREDICATES`], or one a query cannot name as it is: no longer
    /// followed.
    many: bool,
}

impl Predicates {
    pub(super) fn add(&mut self, predicate: &NamedNode) {
        if self.many {
            return;
        }
        if let Some(n) = self.seen.get_mut(predicate) {
            *n += 1;
        } else if self.seen.len() < MAX_PREDICATES && written_plain(predicate.as_str()) {
            self.seen.insert(predicate.clone(), 1);
        } else {
            // Too many, or one that would end the query's IRI (a parser that did not
            // check IRIs could hand it over): counted in one pass instead.
            self.many = true;
            self.seen = HashMap::new();
        }
    }

    /// At most `threads` shares of the predicates, of about as many triples each (the
    /// most frequent first, each to the lightest share); `None` when one pass is as good
    /// (one thread, fewer than two predicates, or too many to follow).
    fn shares(&self, threads: usize) -> Option<Vec<Vec<&NamedNode>>> {
        let threads = threads.min(self.seen.len());
        if self.many || threads < 2 {
            return None;
        }
        let mut predicates: Vec<(&NamedNode, u64)> =
            self.seen.iter().map(|(p, n)| (p, *n)).collect();
        predicates.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let mut shares: Vec<(u64, Vec<&NamedNode>)> = vec![(0, Vec::new()); threads];
        for (predicate, n) in predicates {
            if let Some(lightest) = shares.iter_mut().min_by_key(|(weight, _)| *weight) {
                lightest.0 += n;
                lightest.1.push(predicate);
            }
        }
        Some(shares.into_iter().map(|(_, share)| share).collect())
    }
}

/// Whether `iri` can stand between `<` and `>` in a query as it is (what an IRI
/// reference of SPARQL may hold).
fn written_plain(iri: &str) -> bool {
    !iri.chars()
        .any(|c| c <= ' ' || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\'))
}

/// The triples of `graph`, which holds exactly what a load was given (it was empty
/// before): counted a share of `predicates` per thread, each predicate's triples read
/// from the store's graph-predicate index, and summed (every triple has one predicate).
pub(super) fn count_loaded(
    store: &Store,
    graph: &NamedNode,
    predicates: &Predicates,
) -> Result<u64, GraphError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_COUNT_THREADS);
    let Some(shares) = predicates.shares(threads) else {
        return sparql_count(store, graph, None);
    };
    std::thread::scope(|scope| {
        let counts: Vec<_> = shares
            .into_iter()
            .map(|share| {
                scope.spawn(move || {
                    share.into_iter().try_fold(0u64, |total, predicate| {
                        Ok::<_, GraphError>(total + sparql_count(store, graph, Some(predicate))?)
                    })
                })
            })
            .collect();
        let mut total = 0;
        for count in counts {
            total += count.join().map_err(|_| GraphError::Query {
                message: format!("a count of the graph {graph} stopped"),
            })??;
        }
        Ok(total)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::{GraphNameRef, Literal, Quad};

    fn node(name: &str) -> NamedNode {
        NamedNode::new(format!("http://example.org/{name}")).unwrap()
    }

    #[test]
    fn shares_hold_every_predicate_once_and_balance_the_triples() {
        let mut predicates = Predicates::default();
        for (name, n) in [("a", 50), ("b", 30), ("c", 20), ("d", 10), ("e", 10)] {
            for _ in 0..n {
                predicates.add(&node(name));
            }
        }
        let shares = predicates.shares(2).unwrap();
        assert_eq!(shares.len(), 2);
        let mut all: Vec<&str> = shares.iter().flatten().map(|p| p.as_str()).collect();
        all.sort_unstable();
        assert_eq!(all.len(), 5);
        all.dedup();
        assert_eq!(all.len(), 5, "each predicate in one share");
        let weight =
            |share: &Vec<&NamedNode>| -> u64 { share.iter().map(|p| predicates.seen[*p]).sum() };
        let (a, b) = (weight(&shares[0]), weight(&shares[1]));
        assert_eq!(a + b, 120);
        assert!(a.abs_diff(b) <= 10, "{a} / {b}");
        // One thread, or one predicate: one pass.
        assert!(predicates.shares(1).is_none());
        let mut one = Predicates::default();
        one.add(&node("a"));
        assert!(one.shares(4).is_none());
        // More than are followed: one pass.
        let mut many = Predicates::default();
        for i in 0..=MAX_PREDICATES {
            many.add(&node(&format!("p{i}")));
        }
        assert!(many.shares(2).is_none());
        // An IRI that would end the query's IRI: one pass.
        for odd in [
            "http://example.org/a> ?o } }",
            "http://example.org/a b",
            "http://x/{",
        ] {
            let mut odd_one = Predicates::default();
            odd_one.add(&node("a"));
            odd_one.add(&NamedNode::new_unchecked(odd));
            odd_one.add(&node("b"));
            assert!(odd_one.shares(2).is_none(), "{odd}");
        }
    }

    #[test]
    fn a_loaded_graph_counted_by_predicate_is_counted_whole() {
        let store = Store::new().unwrap();
        let graph = node("g");
        let other = node("other");
        let mut predicates = Predicates::default();
        for i in 0..300u32 {
            let predicate = node(&format!("p{}", i % 7));
            let triple = (
                node(&format!("s{}", i % 100)),
                predicate.clone(),
                Literal::from(i % 150),
            );
            predicates.add(&predicate);
            // Some repeated: the graph holds each once.
            for _ in 0..(1 + i % 2) {
                store
                    .insert(&Quad::new(
                        triple.0.clone(),
                        triple.1.clone(),
                        triple.2.clone(),
                        graph.clone(),
                    ))
                    .unwrap();
            }
            // Triples of other graphs are not counted.
            store
                .insert(&Quad::new(
                    triple.0.clone(),
                    triple.1.clone(),
                    triple.2.clone(),
                    other.clone(),
                ))
                .unwrap();
            store
                .insert(&Quad::new(
                    triple.0,
                    triple.1,
                    triple.2,
                    GraphNameRef::DefaultGraph,
                ))
                .unwrap();
        }
        let whole = sparql_count(&store, &graph, None).unwrap();
        assert_eq!(whole, 300);
        assert_eq!(count_loaded(&store, &graph, &predicates).unwrap(), whole);
        let shares = predicates.shares(2).unwrap();
        let by_share: u64 = shares
            .iter()
            .flatten()
            .map(|p| sparql_count(&store, &graph, Some(p)).unwrap())
            .sum();
        assert_eq!(by_share, whole);
    }
}
