//! Counting a graph's triples: in the store's own encoding (SPARQL `COUNT(*)`: no term is
//! decoded), and, for a graph loaded into an empty one, from the triples on their way in
//! ([`Distinct`]): reading a graph just bulk-loaded back to count it was a tenth of a graph
//! push (issue 24), and it grows with the graph.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use oxigraph::model::{Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use siphasher::sip128::{Hasher128, SipHasher13};

use super::GraphError;

/// Counts the triples of `graph`.
pub(super) fn sparql_count(store: &Store, graph: &NamedNode) -> Result<u64, GraphError> {
    let query = format!(
        "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{}> {{ ?s ?p ?o }} }}",
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

/// Hashes a run holds at most whatever the budget (16 bytes each).
const MAX_RUN: usize = 4 << 20;
/// Hashes a run holds at least, however small the budget.
const MIN_RUN: usize = 64 << 10;

/// Counts the distinct triples given to a load, as the store tells triples apart, while
/// they go in: what a graph that was empty before holds afterwards, without reading it
/// back (a count of the loaded graph was a tenth of a graph push, issue 24).
///
/// Each triple becomes a keyed 128-bit digest (SipHash-1-3, keys drawn per count: no file
/// can aim two triples at one digest; two distinct triples share one with a probability
/// of about n²/2¹²⁹, 10⁻²⁴ at 20 M triples). The digests are kept in runs of a bounded
/// size; a full run is sorted, its repeats dropped, and written to an unnamed temporary
/// file; the count merges the runs. Memory stays at one run whatever the graph's size.
///
/// A literal is digested as the store encodes it (`oxigraph`'s `EncodedTerm`): the
/// value of a boolean, number, date, time or duration, not its text (`"01"^^xsd:integer`
/// and `"1"^^xsd:int` are one term there), through the same parsers (`oxsdatatypes`);
/// a text those parsers refuse stays a literal of its datatype. The tests compare this
/// count with the store's own for each such datatype.
pub(super) struct Distinct {
    hasher: SipHasher13,
    run: Vec<u128>,
    limit: usize,
    runs: Vec<File>,
}

impl std::fmt::Debug for Distinct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Distinct")
            .field("run", &self.run.len())
            .field("runs", &self.runs.len())
            .finish_non_exhaustive()
    }
}

impl Distinct {
    /// Runs of about a sixteenth of `budget_mb` (the bulk loader's budget).
    pub(super) fn new(budget_mb: usize) -> Self {
        let limit = (budget_mb.saturating_mul(1 << 20) / 16 / 16).clamp(MIN_RUN, MAX_RUN);
        Self::with_run(limit)
    }

    fn with_run(limit: usize) -> Self {
        let random = std::hash::RandomState::new();
        Self {
            hasher: SipHasher13::new_with_keys(random.hash_one(0u8), random.hash_one(1u8)),
            // Reserved whole: grown by doubling, a run would be copied on the way and
            // could take twice its bound (the pages are only used as it fills).
            run: Vec::with_capacity(limit),
            limit,
            runs: Vec::new(),
        }
    }

    pub(super) fn add(&mut self, triple: &Triple) -> Result<(), GraphError> {
        let mut hasher = self.hasher;
        match &triple.subject {
            NamedOrBlankNode::NamedNode(node) => write_str(&mut hasher, b'I', node.as_str()),
            NamedOrBlankNode::BlankNode(node) => write_str(&mut hasher, b'B', node.as_str()),
        }
        write_str(&mut hasher, b'I', triple.predicate.as_str());
        // Exhaustive on purpose: RDF 1.2's triple terms (oxigraph's `rdf-12`) need a
        // decision here, not a silent guess.
        match &triple.object {
            Term::NamedNode(node) => write_str(&mut hasher, b'I', node.as_str()),
            Term::BlankNode(node) => write_str(&mut hasher, b'B', node.as_str()),
            Term::Literal(literal) => write_literal(&mut hasher, literal),
        }
        self.run.push(hasher.finish128().as_u128());
        if self.run.len() >= self.limit {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), GraphError> {
        self.run.sort_unstable();
        self.run.dedup();
        let mut file = BufWriter::new(tempfile::tempfile().map_err(temp_error)?);
        for hash in &self.run {
            file.write_all(&hash.to_le_bytes()).map_err(temp_error)?;
        }
        let mut file = file.into_inner().map_err(|e| temp_error(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(temp_error)?;
        self.runs.push(file);
        self.run.clear();
        Ok(())
    }

    /// The number of distinct triples added.
    pub(super) fn finish(mut self) -> Result<u64, GraphError> {
        self.run.sort_unstable();
        self.run.dedup();
        if self.runs.is_empty() {
            return Ok(self.run.len() as u64);
        }
        // Each run is sorted: merge them, counting each digest once.
        let mut readers: Vec<Run> = self.runs.into_iter().map(Run::file).collect();
        readers.push(Run::memory(std::mem::take(&mut self.run)));
        let mut heads = BinaryHeap::new();
        for (i, reader) in readers.iter_mut().enumerate() {
            if let Some(hash) = reader.next()? {
                heads.push(Reverse((hash, i)));
            }
        }
        let (mut count, mut last) = (0u64, None);
        while let Some(Reverse((hash, i))) = heads.pop() {
            if last != Some(hash) {
                count += 1;
                last = Some(hash);
            }
            if let Some(next) = readers[i].next()? {
                heads.push(Reverse((next, i)));
            }
        }
        Ok(count)
    }
}

/// One sorted run being merged.
enum Run {
    File(BufReader<File>),
    Memory(std::vec::IntoIter<u128>),
}

impl Run {
    fn file(file: File) -> Self {
        Self::File(BufReader::with_capacity(1 << 16, file))
    }

    fn memory(run: Vec<u128>) -> Self {
        Self::Memory(run.into_iter())
    }

    fn next(&mut self) -> Result<Option<u128>, GraphError> {
        match self {
            Self::Memory(run) => Ok(run.next()),
            Self::File(reader) => {
                let mut bytes = [0; 16];
                match reader.read_exact(&mut bytes) {
                    Ok(()) => Ok(Some(u128::from_le_bytes(bytes))),
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
                    Err(e) => Err(temp_error(e)),
                }
            }
        }
    }
}

fn temp_error(error: std::io::Error) -> GraphError {
    GraphError::persist(std::env::temp_dir())(error)
}

/// A tag, the length, the bytes: no two sequences of terms write the same input.
fn write_str(hasher: &mut SipHasher13, tag: u8, text: &str) {
    hasher.write_u8(tag);
    hasher.write_usize(text.len());
    hasher.write(text.as_bytes());
}

fn write_literal(hasher: &mut SipHasher13, literal: &Literal) {
    let value = literal.value();
    if let Some(language) = literal.language() {
        write_str(hasher, b'L', value);
        write_str(hasher, b'l', language);
        return;
    }
    let datatype = literal.datatype().as_str();
    if !native(hasher, datatype, value) {
        if datatype == XSD_STRING {
            write_str(hasher, b'S', value);
        } else {
            write_str(hasher, b'T', datatype);
            write_str(hasher, b't', value);
        }
    }
}

const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
const XSD_STRING: &str = "http://www.w3.org/2001/XMLSchema#string";

/// Writes the value of a literal the store keeps as a value (its datatypes, and the
/// same parsers: `oxigraph`'s `EncodedTerm::from(LiteralRef)`), tagged with the kind of
/// value, and returns `true`; `false` when the store keeps it as text.
fn native(hasher: &mut SipHasher13, datatype: &str, value: &str) -> bool {
    use oxsdatatypes::{
        Boolean, Date, DateTime, DayTimeDuration, Decimal, Double, Duration, Float, GDay, GMonth,
        GMonthDay, GYear, GYearMonth, Integer, Time, YearMonthDuration,
    };
    fn parsed<T: std::str::FromStr + std::fmt::Display>(
        hasher: &mut SipHasher13,
        kind: u8,
        value: &str,
    ) -> bool {
        match value.parse::<T>() {
            Ok(parsed) => {
                hasher.write_u8(b'V');
                hasher.write_u8(kind);
                // The canonical text of the value: one text per value.
                let _ =
                    std::fmt::Write::write_fmt(&mut HashWriter(hasher), format_args!("{parsed}"));
                // Ends the text (never a byte of UTF-8).
                hasher.write_u8(0xff);
                true
            }
            Err(_) => false,
        }
    }
    let Some(name) = datatype.strip_prefix(XSD) else {
        return false;
    };
    match name {
        "boolean" => parsed::<Boolean>(hasher, 1, value),
        "float" => parsed::<Float>(hasher, 2, value),
        "double" => parsed::<Double>(hasher, 3, value),
        "integer" | "byte" | "short" | "int" | "long" | "unsignedByte" | "unsignedShort"
        | "unsignedInt" | "unsignedLong" | "positiveInteger" | "negativeInteger"
        | "nonPositiveInteger" | "nonNegativeInteger" => parsed::<Integer>(hasher, 4, value),
        "decimal" => parsed::<Decimal>(hasher, 5, value),
        "dateTime" | "dateTimeStamp" => parsed::<DateTime>(hasher, 6, value),
        "time" => parsed::<Time>(hasher, 7, value),
        "date" => parsed::<Date>(hasher, 8, value),
        "gYearMonth" => parsed::<GYearMonth>(hasher, 9, value),
        "gYear" => parsed::<GYear>(hasher, 10, value),
        "gMonthDay" => parsed::<GMonthDay>(hasher, 11, value),
        "gDay" => parsed::<GDay>(hasher, 12, value),
        "gMonth" => parsed::<GMonth>(hasher, 13, value),
        "duration" => parsed::<Duration>(hasher, 14, value),
        "yearMonthDuration" => parsed::<YearMonthDuration>(hasher, 15, value),
        "dayTimeDuration" => parsed::<DayTimeDuration>(hasher, 16, value),
        _ => false,
    }
}

/// Formats straight into the hasher.
struct HashWriter<'a>(&'a mut SipHasher13);

impl std::fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::{BlankNode, GraphNameRef, Quad};

    const E: &str = "http://example.org/";

    fn node(name: &str) -> NamedNode {
        NamedNode::new(format!("{E}{name}")).unwrap()
    }

    fn typed(value: &str, datatype: &str) -> Term {
        Literal::new_typed_literal(value, NamedNode::new(format!("{XSD}{datatype}")).unwrap())
            .into()
    }

    /// Objects the store may take for one term, or not: every datatype it keeps as a
    /// value, in several texts of one value, out of range, or not parsed at all.
    fn objects() -> Vec<Term> {
        let mut objects: Vec<Term> = Vec::new();
        for (datatype, values) in [
            ("boolean", &["true", "1", "false", "0", "yes"][..]),
            ("float", &["1", "1.0", "1E0", "-0", "0", "NaN", "INF", "x"]),
            (
                "double",
                &["1", "1.0", "1e0", "0.1", "1E-1", "NaN", "-INF", ""],
            ),
            (
                "integer",
                &["1", "01", "+1", "-0", "0", "1.5", "99999999999999999999"],
            ),
            ("int", &["1", "01", "300"]),
            ("byte", &["1", "300", "-1"]),
            ("unsignedLong", &["1", "-1"]),
            ("nonNegativeInteger", &["0", "00"]),
            (
                "decimal",
                &["1", "1.0", "1.00", "01.", ".5", "0.50", "-0", "a"],
            ),
            (
                "dateTime",
                &[
                    "2020-01-01T00:00:00Z",
                    "2020-01-01T00:00:00+00:00",
                    "2020-01-01T01:00:00+01:00",
                    "2020-01-01T00:00:00",
                    "2020-01-01T00:00:00.000Z",
                    "2020-13-01T00:00:00Z",
                ],
            ),
            ("dateTimeStamp", &["2020-01-01T00:00:00Z"]),
            (
                "time",
                &["00:00:00", "24:00:00", "12:00:00Z", "12:00:00+00:00"],
            ),
            ("date", &["2020-01-01", "2020-01-01Z", "2020-01-01+00:00"]),
            ("gYearMonth", &["2020-01", "2020-01Z"]),
            ("gYear", &["2020", "02020", "2020Z"]),
            ("gMonthDay", &["--01-01", "--01-01Z"]),
            ("gDay", &["---01", "---01Z"]),
            ("gMonth", &["--01", "--01Z"]),
            (
                "duration",
                &["P1M", "P0Y1M", "PT60S", "PT1M", "P1D", "PT24H", "P"],
            ),
            ("yearMonthDuration", &["P12M", "P1Y", "P1M"]),
            ("dayTimeDuration", &["PT60S", "PT1M", "P1D", "PT24H", "P1M"]),
            ("string", &["1", "a"]),
            ("token", &["1", "01"]),
        ] {
            for value in values {
                objects.push(typed(value, datatype));
            }
        }
        objects.push(Literal::new_simple_literal("1").into());
        objects.push(Literal::new_simple_literal("a").into());
        objects.push(
            Literal::new_language_tagged_literal("a", "en")
                .unwrap()
                .into(),
        );
        objects.push(
            Literal::new_language_tagged_literal("a", "en-GB")
                .unwrap()
                .into(),
        );
        objects.push(
            Literal::new_typed_literal("1", NamedNode::new(format!("{E}type")).unwrap()).into(),
        );
        objects.push(node("1").into());
        objects.push(BlankNode::new("b1").unwrap().into());
        objects.push(BlankNode::new("1").unwrap().into());
        objects.push(BlankNode::new("f00d").unwrap().into());
        objects
    }

    fn triples() -> Vec<Triple> {
        let objects = objects();
        let mut triples = Vec::new();
        for (i, object) in objects.iter().enumerate() {
            for subject in [
                NamedOrBlankNode::from(node("s")),
                BlankNode::new("s").unwrap().into(),
            ] {
                triples.push(Triple::new(
                    subject,
                    node(&format!("p{}", i % 3)),
                    object.clone(),
                ));
            }
        }
        // Every triple twice.
        let again = triples.clone();
        triples.extend(again);
        triples
    }

    /// The count of the store holding them.
    fn stored(triples: &[Triple]) -> u64 {
        let store = Store::new().unwrap();
        let graph = node("g");
        for triple in triples {
            store
                .insert(&triple.clone().in_graph(graph.clone()))
                .unwrap();
        }
        // Triples of other graphs are not counted.
        store
            .insert(&Quad::new(node("s"), node("p"), node("o"), node("other")))
            .unwrap();
        store
            .insert(&Quad::new(
                node("s"),
                node("p"),
                node("o"),
                GraphNameRef::DefaultGraph,
            ))
            .unwrap();
        sparql_count(&store, &graph).unwrap()
    }

    fn distinct(triples: &[Triple], run: usize) -> (u64, usize) {
        let mut distinct = Distinct::with_run(run);
        for triple in triples {
            distinct.add(triple).unwrap();
        }
        let runs = distinct.runs.len();
        (distinct.finish().unwrap(), runs)
    }

    #[test]
    fn triples_are_told_apart_as_the_store_tells_them_apart() {
        let triples = triples();
        let whole = stored(&triples);
        // The corpus holds texts the store takes as one value.
        assert!(whole < (triples.len() / 2) as u64, "{whole}");
        assert_eq!(distinct(&triples, MIN_RUN), (whole, 0));
        // Each literal alone, against each other one: a wrong pair is named.
        let objects = objects();
        for (i, a) in objects.iter().enumerate() {
            for b in &objects[i + 1..] {
                let pair = [
                    Triple::new(node("s"), node("p"), a.clone()),
                    Triple::new(node("s"), node("p"), b.clone()),
                ];
                assert_eq!(distinct(&pair, MIN_RUN).0, stored(&pair), "{a} / {b}");
            }
        }
    }

    #[test]
    fn runs_written_out_count_as_one_held_in_memory() {
        let triples = triples();
        let whole = distinct(&triples, MIN_RUN);
        assert_eq!(whole.1, 0);
        for run in [1, 2, 7, 64] {
            let (count, runs) = distinct(&triples, run);
            assert_eq!(count, whole.0, "runs of {run}");
            assert!(runs >= triples.len() / run - 1, "{runs} runs of {run}");
        }
        // Many repeats of one triple, across runs.
        let same = vec![triples[0].clone(); 1000];
        assert_eq!(distinct(&same, 10).0, 1);
        assert_eq!(distinct(&[], 10).0, 0);
        // The budget sets the run, within its bounds.
        assert_eq!(Distinct::new(0).limit, MIN_RUN);
        assert_eq!(Distinct::new(400).limit, 400 << 20 >> 8);
        assert_eq!(Distinct::new(usize::MAX).limit, MAX_RUN);
    }
}
