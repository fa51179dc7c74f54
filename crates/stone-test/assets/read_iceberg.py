#!/usr/bin/env python3
"""Reads an Iceberg table through pyiceberg's SqlCatalog and prints it as JSON.

An independent reader for stone's end-to-end tests: it checks what stone-server wrote
with a different Iceberg implementation (pyiceberg) than the one that wrote it.

    read_iceberg.py --catalog-db /path/catalog.db --warehouse file:///path/wh \
        --table ns.name [--branch B] [--limit N] [--catalog-name NAME] [--property K=V ...]

An s3:// warehouse needs --property s3.endpoint=… s3.access-key-id=… s3.secret-access-key=…
s3.region=… (pyarrow's S3 file system).

Prints one JSON object:
    table            "ns.name"
    ref              the branch read ("main" unless --branch)
    metadata_location
    format_version
    schema           [{"id", "name", "type", "required"}]
    row_count        rows in the read snapshot
    rows             up to --limit rows as JSON records (dates and times as ISO strings),
                     in the table's order unless --order-by
    snapshot_count   snapshots of the table (all refs)
    snapshot_id      the snapshot read (null for an empty table)
    refs             {name: snapshot id}
    properties       table properties
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog-db", required=True, help="SQLite file of the SQL catalog")
    parser.add_argument("--warehouse", required=True, help="warehouse URI, e.g. file:///tmp/wh")
    parser.add_argument("--table", required=True, help="namespace.table")
    parser.add_argument("--branch", default=None, help="branch or tag to read (default: main)")
    parser.add_argument("--limit", type=int, default=1000, help="rows to print (default 1000)")
    parser.add_argument("--order-by", default=None,
                        help="comma-separated columns to sort the printed rows by (ascending)")
    parser.add_argument("--catalog-name", default=None,
                        help="catalog name in the SQL catalog tables (default: the only one)")
    parser.add_argument("--property", action="append", default=[], metavar="KEY=VALUE",
                        help="catalog/FileIO property, e.g. s3.endpoint=http://127.0.0.1:8333 (repeatable)")
    args = parser.parse_args()

    import sqlite3
    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    from fileio_properties import fileio_properties

    name = args.catalog_name or only_catalog_name(sqlite3, args.catalog_db)
    catalog = SqlCatalog(name, uri=f"sqlite:///{args.catalog_db}", warehouse=args.warehouse,
                         **fileio_properties(args.property))
    table = catalog.load_table(args.table)
    metadata = table.metadata

    ref = args.branch or "main"
    snapshot = table.snapshot_by_name(ref) if args.branch else table.current_snapshot()
    if args.branch and snapshot is None:
        fail(f"table {args.table} has no branch or tag {args.branch!r}; refs: {sorted(metadata.refs)}")

    if snapshot is None:
        arrow = table.schema().as_arrow().empty_table()
    else:
        arrow = table.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
    if args.order_by:
        arrow = arrow.sort_by([(c.strip(), "ascending") for c in args.order_by.split(",")])

    result = {
        "table": args.table,
        "ref": ref,
        "metadata_location": table.metadata_location,
        "format_version": metadata.format_version,
        "schema": [
            {"id": f.field_id, "name": f.name, "type": str(f.field_type), "required": f.required}
            for f in table.schema().fields
        ],
        "row_count": arrow.num_rows,
        "rows": to_records(arrow.slice(0, args.limit)),
        "snapshot_count": len(metadata.snapshots),
        "snapshot_id": snapshot.snapshot_id if snapshot else None,
        "refs": {name: r.snapshot_id for name, r in metadata.refs.items()},
        "properties": dict(metadata.properties),
    }
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


def only_catalog_name(sqlite3, path):
    """The catalog name stored in the SQL catalog (pyiceberg and iceberg-rust use the
    same `iceberg_tables` layout)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            names = [row[0] for row in db.execute("SELECT DISTINCT catalog_name FROM iceberg_tables")]
    except sqlite3.Error as e:
        fail(f"cannot read the SQL catalog {path}: {e}")
    if len(names) != 1:
        fail(f"the SQL catalog {path} holds catalogs {names}: pass --catalog-name")
    return names[0]


def to_records(arrow):
    """Rows as JSON-able dicts: dates, times and decimals as strings, bytes as hex."""
    import datetime
    import decimal

    def plain(value):
        if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
            return value.isoformat()
        if isinstance(value, decimal.Decimal):
            return str(value)
        if isinstance(value, bytes):
            return value.hex()
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return [{k: plain(v) for k, v in row.items()} for row in arrow.to_pylist()]


def fail(message):
    print(f"read_iceberg.py: {message}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
