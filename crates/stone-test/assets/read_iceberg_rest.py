#!/usr/bin/env python3
"""Reads stone-server's Iceberg REST catalog with pyiceberg's RestCatalog; prints JSON.

An independent reader for stone's end-to-end tests: it lists what the catalog shows and
reads tables the way a user's notebook would, with the token (if any) as its only secret.

    read_iceberg_rest.py --uri http://127.0.0.1:PORT/iceberg [--token T] \
        [--table ns.name [--ref REF ...]] [--order-by COL]

Prints one JSON object:
    namespaces   ["ns", ...] as the catalog lists them (or {"error": …})
    tables       {"ns": ["ns.name", ...] or {"error": …}} for every listed namespace
    table        with --table: {"file_io": the FileIO class pyiceberg chose,
                 "refs": {name: snapshot id}, "snapshot_ids": [...],
                 "current_snapshot_id", "metadata_location",
                 "reads": {ref: {"row_count", "rows", "snapshot_id"}}} ("main" is read
                 when no --ref is given), or {"error": {"type", "message"}} when loading
                 fails (the exception pyiceberg raised).
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True, help="the catalog URI, <server>/iceberg")
    parser.add_argument("--token", default=None, help="bearer token (default: none)")
    parser.add_argument("--table", default=None, help="namespace.table to load and read")
    parser.add_argument("--ref", action="append", default=[], help="branch or tag to read")
    parser.add_argument("--order-by", default=None, help="column to sort the printed rows by")
    parser.add_argument("--property", action="append", default=[], metavar="KEY=VALUE",
                        help="more catalog properties (repeatable)")
    args = parser.parse_args()

    from pyiceberg.catalog.rest import RestCatalog

    properties = {"uri": args.uri}
    if args.token:
        properties["token"] = args.token
    else:
        # Without it pyiceberg 0.12 sends `Authorization: Bearer None`, which the server
        # refuses as a malformed token.
        properties["auth"] = {"type": "noop"}
    for item in args.property:
        key, _, value = item.partition("=")
        properties[key] = value
    catalog = RestCatalog("stone", **properties)

    result = {}
    try:
        namespaces = [".".join(ns) for ns in catalog.list_namespaces()]
        result["namespaces"] = namespaces
        result["tables"] = {}
        for namespace in namespaces:
            try:
                result["tables"][namespace] = sorted(
                    ".".join(ident) for ident in catalog.list_tables(namespace))
            except Exception as e:  # noqa: BLE001 - reported, not hidden
                result["tables"][namespace] = error(e)
    except Exception as e:  # noqa: BLE001
        result["namespaces"] = error(e)

    if args.table:
        result["table"] = read_table(catalog, args)
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


def read_table(catalog, args):
    try:
        table = catalog.load_table(args.table)
    except Exception as e:  # noqa: BLE001
        return error(e)
    metadata = table.metadata
    current = table.current_snapshot()
    out = {
        "file_io": type(table.io).__name__,
        "metadata_location": table.metadata_location,
        "refs": {name: r.snapshot_id for name, r in metadata.refs.items()},
        "snapshot_ids": sorted(s.snapshot_id for s in metadata.snapshots),
        "current_snapshot_id": current.snapshot_id if current else None,
        "reads": {},
    }
    for ref in args.ref or ["main"]:
        snapshot = table.snapshot_by_name(ref)
        if snapshot is None:
            out["reads"][ref] = {"error": {"type": "NoSuchRef", "message": ref}}
            continue
        arrow = table.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
        if args.order_by:
            arrow = arrow.sort_by([(args.order_by, "ascending")])
        out["reads"][ref] = {
            "snapshot_id": snapshot.snapshot_id,
            "row_count": arrow.num_rows,
            "rows": arrow.to_pylist(),
        }
    return out


def error(exception):
    return {"error": {"type": type(exception).__name__, "message": str(exception)}}


if __name__ == "__main__":
    main()
