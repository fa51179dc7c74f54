//! A graph's content as sets that can be compared although blank nodes have arbitrary
//! labels: ground triples (no blank node) compare as they are; triples that share blank
//! nodes form components, compared by a hash of their canonical form (RDFC-1.0).
//!
//! This is what makes loads idempotent against Graph Store servers, which give every
//! posted blank node a new label: a component already in the graph is recognized by its
//! shape, not by its labels.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use oxigraph::model::dataset::{CanonicalizationAlgorithm, CanonicalizationHashAlgorithm};
use oxigraph::model::{BlankNode, Graph, NamedOrBlankNode, Term, Triple};
use sha2::{Digest, Sha256};

/// Components with more blank nodes than this that share their first-degree neighbourhood
/// with another blank node are not canonicalized: RDFC-1.0 explores the permutations of
/// such nodes, factorial in their number (Oxigraph's implementation lists them all first),
/// and a clique of 16 ran for ever. Measured on a clique, the worst case: 6 nodes take
/// about 0.3 s in a debug build.
///
/// They are compared by identity instead (see [`ComponentKey::Opaque`]) rather than
/// refused: the data is valid RDF, and the outcome stays correct. A replace makes the graph
/// exactly the file; an append adds such a component again although the graph may hold an
/// isomorphic copy, and a graph with both copies has the same meaning (it entails the same
/// statements), only not the fewest triples.
const MAX_AMBIGUOUS_BLANK_NODES: usize = 6;

/// What the canonicalization of one content may spend, counted in the permutations of
/// look-alike blank nodes (a 6-clique costs 6! = 720): many small symmetric components
/// cost as much as one large one. Components past the budget are compared by identity,
/// as those past [`MAX_AMBIGUOUS_BLANK_NODES`].
const CANONICALIZATION_BUDGET: u64 = 50_000;

/// Identity of a blank-node component.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum ComponentKey {
    /// sha256 of the sorted canonical N-Triples of the component: equal iff isomorphic.
    Canonical([u8; 32]),
    /// Not canonicalized: equal to nothing else, so never found "already present".
    Opaque(u64),
}

/// A set of triples split into ground triples and blank-node components.
#[derive(Debug, Default)]
pub(super) struct Content {
    ground: HashSet<Triple>,
    /// Every instance of each component shape (new content keeps one per shape).
    components: HashMap<ComponentKey, Vec<Vec<Triple>>>,
}

/// The changes that turn a graph's content into the wanted one.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Triples to insert (blank nodes as labelled in the new content).
    pub insert: Vec<Triple>,
    /// Triples to delete (exactly as stored).
    pub remove: Vec<Triple>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.insert.is_empty() && self.remove.is_empty()
    }
}

impl Content {
    /// Content to load: isomorphic components collapse into one (a graph is a set).
    pub fn collapsed(triples: impl IntoIterator<Item = Triple>) -> Self {
        let mut content = Self::split(triples);
        for instances in content.components.values_mut() {
            instances.truncate(1);
        }
        content
    }

    /// A graph's current content, every triple kept (duplicates of a shape included, so
    /// that `replace` can remove them).
    pub fn stored(triples: impl IntoIterator<Item = Triple>) -> Self {
        Self::split(triples)
    }

    fn split(triples: impl IntoIterator<Item = Triple>) -> Self {
        let mut ground = HashSet::new();
        // A set: a file may say the same triple twice.
        let mut with_blank_nodes = HashSet::new();
        for triple in triples {
            if blank_nodes(&triple).next().is_some() {
                with_blank_nodes.insert(triple);
            } else {
                ground.insert(triple);
            }
        }
        let mut components: HashMap<ComponentKey, Vec<Vec<Triple>>> = HashMap::new();
        let mut budget = CANONICALIZATION_BUDGET;
        for component in connected_components(with_blank_nodes.into_iter().collect()) {
            components
                .entry(component_key(&component, &mut budget))
                .or_default()
                .push(component);
        }
        Self { ground, components }
    }

    /// Number of triples.
    pub fn len(&self) -> u64 {
        let in_components: usize = self.components.values().flatten().map(Vec::len).sum();
        (self.ground.len() + in_components) as u64
    }

    /// All triples.
    pub fn triples(&self) -> Vec<Triple> {
        let mut all: Vec<Triple> = self.ground.iter().cloned().collect();
        all.extend(self.components.values().flatten().flatten().cloned());
        all
    }

    /// What to insert into (and, with `replace`, remove from) `self` so that it holds
    /// `new` (added to it, or in its place).
    pub fn plan(&self, new: &Content, replace: bool) -> Plan {
        let mut plan = Plan::default();
        plan.insert
            .extend(new.ground.difference(&self.ground).cloned());
        for (key, instances) in &new.components {
            if !self.components.contains_key(key) {
                plan.insert.extend(instances.iter().flatten().cloned());
            }
        }
        if replace {
            plan.remove
                .extend(self.ground.difference(&new.ground).cloned());
            for (key, instances) in &self.components {
                // Keep one instance of a shape the new content has; drop the rest.
                let keep = usize::from(new.components.contains_key(key));
                plan.remove
                    .extend(instances.iter().skip(keep).flatten().cloned());
            }
        }
        plan
    }
}

/// Whether the triple names a blank node (such triples are compared as components).
pub(super) fn has_blank_node(triple: &Triple) -> bool {
    blank_nodes(triple).next().is_some()
}

fn blank_nodes(triple: &Triple) -> impl Iterator<Item = &BlankNode> {
    let subject = match &triple.subject {
        NamedOrBlankNode::BlankNode(b) => Some(b),
        NamedOrBlankNode::NamedNode(_) => None,
    };
    let object = match &triple.object {
        Term::BlankNode(b) => Some(b),
        _ => None,
    };
    subject.into_iter().chain(object)
}

/// Groups triples that share blank nodes (union-find over the blank nodes).
fn connected_components(triples: Vec<Triple>) -> Vec<Vec<Triple>> {
    let mut index: HashMap<BlankNode, usize> = HashMap::new();
    let mut parent: Vec<usize> = Vec::new();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_node = Vec::with_capacity(triples.len());
    for triple in &triples {
        let mut ids = blank_nodes(triple).map(|b| {
            let next = parent.len();
            let id = *index.entry(b.clone()).or_insert(next);
            if id == next {
                parent.push(next);
            }
            id
        });
        let a = ids
            .next()
            .expect("a triple of a component has a blank node");
        if let Some(b) = ids.next() {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[rb] = ra;
            }
        }
        first_node.push(a);
    }
    let mut groups: HashMap<usize, Vec<Triple>> = HashMap::new();
    for (triple, node) in triples.into_iter().zip(first_node) {
        let root = find(&mut parent, node);
        groups.entry(root).or_default().push(triple);
    }
    groups.into_values().collect()
}

fn component_key(component: &[Triple], budget: &mut u64) -> ComponentKey {
    static OPAQUE: AtomicU64 = AtomicU64::new(0);
    let labels = first_degree_labels(component);
    let distinct: HashSet<&String> = labels.values().collect();
    let mut hasher = Sha256::new();
    if distinct.len() == labels.len() {
        // Every blank node is told apart by its own triples: naming each after them is
        // already canonical (what RDFC-1.0 does in this case too, at a fraction of the
        // cost). Isomorphic components always take the same branch.
        let name = |b: &BlankNode| format!("_:{}", labels[b]);
        let mut lines: Vec<String> = component
            .iter()
            .map(|t| {
                let subject = match &t.subject {
                    NamedOrBlankNode::BlankNode(b) => name(b),
                    NamedOrBlankNode::NamedNode(n) => n.to_string(),
                };
                let object = match &t.object {
                    Term::BlankNode(b) => name(b),
                    other => other.to_string(),
                };
                format!("{subject} {} {object}", t.predicate)
            })
            .collect();
        lines.sort_unstable();
        hasher.update(b"first-degree\n");
        for line in &lines {
            hasher.update(line.as_bytes());
            hasher.update(b"\n");
        }
        return ComponentKey::Canonical(hasher.finalize().into());
    }
    let mut occurrences: HashMap<&String, usize> = HashMap::new();
    for label in labels.values() {
        *occurrences.entry(label).or_default() += 1;
    }
    let ambiguous: usize = occurrences.values().filter(|&&n| n > 1).sum();
    if ambiguous > MAX_AMBIGUOUS_BLANK_NODES {
        return ComponentKey::Opaque(OPAQUE.fetch_add(1, Ordering::Relaxed));
    }
    // The permutations RDFC-1.0 may try: those of each group of look-alike nodes (each
    // group has at most MAX_AMBIGUOUS_BLANK_NODES nodes here: no overflow).
    let cost = occurrences
        .values()
        .filter(|&&n| n > 1)
        .fold(1u64, |cost, &n| {
            cost.saturating_mul((2..=n as u64).product::<u64>())
        });
    if cost > *budget {
        return ComponentKey::Opaque(OPAQUE.fetch_add(1, Ordering::Relaxed));
    }
    *budget -= cost;
    let mut graph: Graph = component.iter().collect();
    graph.canonicalize(CanonicalizationAlgorithm::Rdfc10 {
        hash_algorithm: CanonicalizationHashAlgorithm::Sha256,
    });
    let mut lines: Vec<String> = graph.iter().map(|t| t.to_string()).collect();
    lines.sort_unstable();
    hasher.update(b"rdfc-1.0\n");
    for line in &lines {
        hasher.update(line.as_bytes());
        hasher.update(b"\n");
    }
    ComponentKey::Canonical(hasher.finalize().into())
}

/// For each blank node of the component, a digest of its first-degree neighbourhood: its
/// triples with itself and the other blank nodes anonymized (as RDFC-1.0's first-degree
/// hash). Blank nodes with equal digests can only be told apart by exploring paths.
fn first_degree_labels(component: &[Triple]) -> HashMap<BlankNode, String> {
    let mut neighbourhoods: HashMap<&BlankNode, Vec<String>> = HashMap::new();
    for triple in component {
        for node in blank_nodes(triple) {
            let anonymize = |candidate: &BlankNode| if candidate == node { "_:a" } else { "_:z" };
            let subject = match &triple.subject {
                NamedOrBlankNode::BlankNode(b) => anonymize(b).to_owned(),
                NamedOrBlankNode::NamedNode(n) => n.to_string(),
            };
            let object = match &triple.object {
                Term::BlankNode(b) => anonymize(b).to_owned(),
                other => other.to_string(),
            };
            neighbourhoods
                .entry(node)
                .or_default()
                .push(format!("{subject} {} {object}", triple.predicate));
        }
    }
    neighbourhoods
        .into_iter()
        .map(|(node, mut lines)| {
            lines.sort_unstable();
            let mut hasher = Sha256::new();
            for line in &lines {
                hasher.update(line.as_bytes());
                hasher.update(b"\n");
            }
            (node.clone(), hex::encode(&hasher.finalize()[..16]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use oxigraph::io::{RdfFormat, RdfParser};

    use super::*;

    fn triples(turtle: &str) -> Vec<Triple> {
        RdfParser::from_format(RdfFormat::Turtle)
            .rename_blank_nodes()
            .for_reader(turtle.as_bytes())
            .map(|q| Triple::from(q.unwrap()))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect()
    }

    const DATA: &str = r#"
        @prefix ex: <http://example.org/> .
        ex:a ex:p ex:b .
        ex:a ex:address [ ex:street "Main" ; ex:city "X" ] .
        ex:a ex:list ( 1 2 3 ) .
    "#;

    #[test]
    fn the_same_file_parsed_twice_is_unchanged() {
        let first = Content::stored(triples(DATA));
        let second = Content::collapsed(triples(DATA));
        assert_eq!(first.len(), 11);
        let plan = first.plan(&second, false);
        assert!(plan.is_empty(), "{plan:?}");
        assert!(first.plan(&second, true).is_empty());
    }

    #[test]
    fn a_changed_component_is_added_and_with_replace_the_old_one_removed() {
        let old = Content::stored(triples(DATA));
        let new = Content::collapsed(triples(&DATA.replace("\"X\"", "\"Y\"")));
        let add = old.plan(&new, false);
        assert_eq!((add.insert.len(), add.remove.len()), (3, 0));
        let replace = old.plan(&new, true);
        assert_eq!((replace.insert.len(), replace.remove.len()), (3, 3));
    }

    #[test]
    fn duplicate_shapes_collapse_in_new_content_and_are_removed_by_replace() {
        let twice =
            "@prefix ex: <http://example.org/> . ex:a ex:p [ ex:q 1 ] . ex:a ex:p [ ex:q 1 ] .";
        let new = Content::collapsed(triples(twice));
        assert_eq!(new.len(), 2);
        let stored = Content::stored(triples(twice));
        assert_eq!(stored.len(), 4);
        let plan = stored.plan(&new, true);
        assert_eq!((plan.insert.len(), plan.remove.len()), (0, 2));
    }

    #[test]
    fn small_symmetric_components_are_canonicalized() {
        // Two blank nodes that look alike (each knows the other): RDFC-1.0 tells them
        // apart; two renamings are the same shape, a different shape is not.
        let pair = "@prefix ex: <http://example.org/> . _:x ex:knows _:y . _:y ex:knows _:x . ex:a ex:p _:x .";
        let renamed = "@prefix ex: <http://example.org/> . _:q ex:knows _:p . _:p ex:knows _:q . ex:a ex:p _:p .";
        let other = "@prefix ex: <http://example.org/> . _:x ex:knows _:y . _:y ex:knows _:x . ex:b ex:p _:x .";
        let key = |text: &str| {
            let content = Content::collapsed(triples(text));
            let key = content.components.keys().next().unwrap().clone();
            assert!(matches!(key, ComponentKey::Canonical(_)));
            key
        };
        assert_eq!(key(pair), key(renamed));
        assert_ne!(key(pair), key(other));
        // Ambiguous only in part: the link from ex:a breaks the symmetry.
        let ring =
            "@prefix ex: <http://example.org/> . _:a ex:n _:b . _:b ex:n _:c . _:c ex:n _:a .";
        let ring_key = key(ring);
        assert_eq!(ring_key, key(&ring.replace("_:a", "_:z")));
    }

    /// The clique of issue 22: 16 blank nodes that all know each other (240 triples).
    /// Canonicalized, it never finishes.
    #[test]
    fn a_blank_node_clique_is_not_canonicalized() {
        let mut clique = String::from("@prefix ex: <http://example.org/> .\n");
        for i in 0..16 {
            for j in 0..16 {
                if i != j {
                    clique.push_str(&format!("_:n{i} ex:knows _:n{j} .\n"));
                }
            }
        }
        let content = Content::collapsed(triples(&clique));
        assert_eq!(content.len(), 240);
        assert!(matches!(
            content.components.keys().next(),
            Some(ComponentKey::Opaque(_))
        ));
    }

    /// The largest clique that is still canonicalized, so still recognized when loaded
    /// again.
    #[test]
    fn a_small_blank_node_clique_is_canonicalized() {
        let n = MAX_AMBIGUOUS_BLANK_NODES;
        let mut clique = String::from("@prefix ex: <http://example.org/> .\n");
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    clique.push_str(&format!("_:n{i} ex:knows _:n{j} .\n"));
                }
            }
        }
        let content = Content::collapsed(triples(&clique));
        assert!(matches!(
            content.components.keys().next(),
            Some(ComponentKey::Canonical(_))
        ));
        let plan = Content::stored(triples(&clique)).plan(&content, false);
        assert!(plan.is_empty(), "{plan:?}");
    }

    /// Many small cliques, each cheap: past the budget the rest are compared by identity,
    /// so the content's cost stays bounded whatever the file's size.
    #[test]
    fn many_small_cliques_share_one_budget() {
        let mut text = String::from("@prefix ex: <http://example.org/> .\n");
        let n = MAX_AMBIGUOUS_BLANK_NODES;
        for c in 0..200 {
            for i in 0..n {
                for j in 0..n {
                    if i != j {
                        text.push_str(&format!("_:c{c}n{i} ex:knows _:c{c}n{j} .\n"));
                    }
                }
            }
        }
        let content = Content::stored(triples(&text));
        let canonical = content
            .components
            .iter()
            .filter(|(key, _)| matches!(key, ComponentKey::Canonical(_)))
            .map(|(_, instances)| instances.len())
            .sum::<usize>();
        let per_clique = (2..=n as u64).product::<u64>();
        assert_eq!(canonical as u64, CANONICALIZATION_BUDGET / per_clique);
    }

    #[test]
    fn highly_symmetric_components_are_opaque() {
        // A ring of 40 identical blank nodes: every node looks like every other.
        let mut ring = String::from("@prefix ex: <http://example.org/> .\n");
        for i in 0..40 {
            ring.push_str(&format!("_:n{i} ex:next _:n{} .\n", (i + 1) % 40));
        }
        let content = Content::collapsed(triples(&ring));
        assert!(matches!(
            content.components.keys().next(),
            Some(ComponentKey::Opaque(_))
        ));
        // Never "already present": loading it again adds it again.
        let plan = Content::stored(triples(&ring)).plan(&content, false);
        assert_eq!(plan.insert.len(), 40);
    }
}
