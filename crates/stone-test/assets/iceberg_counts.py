#!/usr/bin/env python3
"""Counts the rows of one Iceberg table on many branches, in one process (pyiceberg).

An independent reader for stone's fault campaign: for every branch it prints the number
of rows and the number of distinct rows, so a test can tell a complete dataset from a
half-applied or duplicated one.

    iceberg_counts.py --catalog-db /path/catalog.db --warehouse file:///path/wh \
        --table ns.name --catalog-name NAME --branches a,b,c [--snapshots]

Prints {"branch": {"rows": N, "distinct": D} | null (no such branch), ...}.
`--catalog-uri URL` replaces `--catalog-db` for a catalog in another database (a
SQLAlchemy URL, e.g. postgresql+psycopg2://user@host:port/db); `--property K=V` (repeatable)
passes FileIO properties (s3.endpoint, … for an s3:// warehouse). `--snapshots` adds
"_snapshots": the number of snapshots in the table's metadata (all branches).
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--catalog-db")
    source.add_argument("--catalog-uri")
    parser.add_argument("--snapshots", action="store_true")
    parser.add_argument("--warehouse", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--catalog-name", required=True)
    parser.add_argument("--branches", required=True, help="comma-separated branch names")
    parser.add_argument("--property", action="append", default=[], metavar="KEY=VALUE",
                        help="catalog/FileIO property, e.g. s3.endpoint=http://127.0.0.1:8333 (repeatable)")
    args = parser.parse_args()

    from pyiceberg.catalog.sql import SqlCatalog

    from fileio_properties import fileio_properties

    uri = args.catalog_uri or f"sqlite:///{args.catalog_db}"
    catalog = SqlCatalog(args.catalog_name, uri=uri, warehouse=args.warehouse,
                         **fileio_properties(args.property))
    table = catalog.load_table(args.table)
    result = {}
    for branch in args.branches.split(","):
        snapshot = table.snapshot_by_name(branch)
        if snapshot is None:
            result[branch] = None
            continue
        arrow = table.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
        rows = arrow.to_pylist()
        distinct = {json.dumps(r, sort_keys=True, default=str) for r in rows}
        result[branch] = {"rows": len(rows), "distinct": len(distinct)}
    if args.snapshots:
        result["_snapshots"] = len(table.metadata.snapshots)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
