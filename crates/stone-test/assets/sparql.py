#!/usr/bin/env python3
"""Runs a SPARQL query and prints the results as JSON.

An independent reader for stone's end-to-end tests, against one of:
    --endpoint URL   a SPARQL 1.1 Protocol endpoint (e.g. http://127.0.0.1:7878/query)
    --store DIR      an Oxigraph store directory, opened read-only with pyoxigraph
                     (not while a server holds it)
    --data FILE      RDF files loaded into an in-memory store (format from the extension;
                     repeatable; --graph IRI loads them into that named graph)

    sparql.py --endpoint URL --query 'SELECT …'
    sparql.py --data a.ttl --graph http://example.org/g --query 'ASK { GRAPH ?g { ?s ?p ?o } }'

Prints SPARQL 1.1 Query Results JSON for SELECT/ASK ({"head", "results"} / {"boolean"}),
and {"triples": [[s, p, o], …]} (N-Triples terms) for CONSTRUCT/DESCRIBE.
"""

import argparse
import json
import sys
import time
import urllib.parse
import urllib.request


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--endpoint", help="SPARQL query endpoint URL")
    source.add_argument("--store", help="Oxigraph store directory (read-only)")
    source.add_argument("--data", action="append", help="RDF file to load (repeatable)")
    parser.add_argument("--graph", help="with --data: load into this named graph")
    parser.add_argument("--query", required=True, help="the SPARQL query")
    parser.add_argument("--union-default-graph", action="store_true",
                        help="local stores: the default graph is the union of named graphs")
    args = parser.parse_args()

    if args.endpoint:
        result = query_endpoint(args.endpoint, args.query)
    else:
        result = query_local(args)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


def query_endpoint(endpoint, query):
    body = urllib.parse.urlencode({"query": query}).encode()
    request = urllib.request.Request(endpoint, data=body, method="POST", headers={
        "content-type": "application/x-www-form-urlencoded",
        "accept": "application/sparql-results+json, application/n-triples;q=0.9",
    })
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=60) as response:
            content_type = response.headers.get("content-type", "")
            text = response.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        fail(f"{endpoint} answered HTTP {e.code}: {e.read().decode('utf-8', 'replace')}")
    except OSError as e:
        fail(f"cannot reach {endpoint}: {e}")
    if "json" in content_type:
        return json.loads(text)
    import pyoxigraph
    triples = pyoxigraph.parse(input=text.encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    return {"triples": [[str(t.subject), str(t.predicate), str(t.object)] for t in triples]}


def query_local(args):
    import pyoxigraph as ox

    if args.store:
        # The server's store is live: a read-only open lists the SST files of the moment,
        # and a compaction that ends meanwhile deletes some of them ("No such file or
        # directory"). Such a race is tried again; any other error is the test's failure.
        for attempt in range(20):
            try:
                store = ox.Store.read_only(args.store)
                result = store.query(args.query, use_default_graph_as_union=args.union_default_graph)
                return render(ox, result)
            except SyntaxError as e:
                fail(f"bad query: {e}")
            except (OSError, RuntimeError) as e:
                if "No such file or directory" not in str(e) or attempt == 19:
                    raise
                time.sleep(0.25)
    else:
        store = ox.Store()
        graph = ox.NamedNode(args.graph) if args.graph else ox.DefaultGraph()
        for path in args.data:
            try:
                store.bulk_load(path=path, to_graph=graph)
            except (SyntaxError, ValueError, OSError) as e:
                fail(f"cannot load {path}: {e}")
    try:
        result = store.query(args.query, use_default_graph_as_union=args.union_default_graph)
    except SyntaxError as e:
        fail(f"bad query: {e}")
    return render(ox, result)


def render(ox, result):
    if isinstance(result, (bool, getattr(ox, "QueryBoolean", bool))):
        return {"head": {}, "boolean": bool(result)}
    if isinstance(result, ox.QuerySolutions):
        variables = [v.value for v in result.variables]
        bindings = []
        for solution in result:
            row = {}
            for name in variables:
                term = solution[name]
                if term is not None:
                    row[name] = term_json(ox, term)
            bindings.append(row)
        return {"head": {"vars": variables}, "results": {"bindings": bindings}}
    return {"triples": [[str(t.subject), str(t.predicate), str(t.object)] for t in result]}


def term_json(ox, term):
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            out["datatype"] = term.datatype.value
        return out
    return {"type": "triple", "value": str(term)}


def fail(message):
    print(f"sparql.py: {message}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
