#!/usr/bin/env python3
"""Reads an Iceberg table through DuckDB's iceberg extension and prints it as JSON.

A second independent reader for stone's end-to-end tests (DuckDB's C++ Iceberg reader).
The extension is LOADed from the files PyPI `duckdb-ext-iceberg` and `duckdb-ext-avro`
put in site-packages: `INSTALL iceberg` needs the internet.

The table's current metadata JSON is looked up in the SQL catalog (the same arguments as
read_iceberg.py), or given directly with --metadata.

    read_iceberg_duckdb.py --catalog-db /path/catalog.db --table ns.name [--branch B]
    read_iceberg_duckdb.py --metadata /path/…/00001-….metadata.json

Prints one JSON object:
    table, ref, metadata_location
    schema           [{"name", "type"}] (DuckDB types)
    row_count, rows  (up to --limit, JSON records; in the table's order unless --order-by)
    snapshot_count   snapshots in the metadata (all refs)
    snapshot_id      the snapshot read (null for an empty table)
"""

import argparse
import glob
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog-db", help="SQLite file of the SQL catalog")
    parser.add_argument("--warehouse", help="accepted for symmetry with read_iceberg.py; unused")
    parser.add_argument("--table", help="namespace.table (with --catalog-db)")
    parser.add_argument("--metadata", help="metadata JSON location (instead of the catalog)")
    parser.add_argument("--branch", default=None, help="branch or tag to read (default: main)")
    parser.add_argument("--limit", type=int, default=1000, help="rows to print (default 1000)")
    parser.add_argument("--order-by", default=None,
                        help="comma-separated columns to sort the printed rows by (ascending)")
    parser.add_argument("--catalog-name", default=None, help="catalog name (default: the only one)")
    args = parser.parse_args()

    if args.metadata:
        location = args.metadata
    elif args.catalog_db and args.table:
        location = metadata_from_catalog(args.catalog_db, args.table, args.catalog_name)
    else:
        parser.error("give --catalog-db and --table, or --metadata")
    path = location[len("file://"):] if location.startswith("file://") else location

    with open(path) as f:
        metadata = json.load(f)
    ref = args.branch or "main"
    refs = metadata.get("refs") or {}
    if args.branch:
        if args.branch not in refs:
            fail(f"no branch or tag {args.branch!r} in {location}; refs: {sorted(refs)}")
        snapshot_id = refs[args.branch]["snapshot-id"]
    else:
        snapshot_id = metadata.get("current-snapshot-id")
        if snapshot_id == -1:
            snapshot_id = None

    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    for extension in ("avro", "iceberg"):
        con.execute(f"LOAD '{extension_file(duckdb, extension)}'")

    source = f"iceberg_scan('{sql_string(path)}'"
    if snapshot_id is not None:
        source += f", snapshot_from_id => {int(snapshot_id)}"
    source += ")"

    if snapshot_id is None:
        schema, rows, count = [], [], 0
    else:
        relation = con.sql(f"SELECT * FROM {source}")
        schema = [{"name": n, "type": str(t)} for n, t in zip(relation.columns, relation.types)]
        count = con.sql(f"SELECT count(*) FROM {source}").fetchone()[0]
        order = ""
        if args.order_by:
            order = " ORDER BY " + ", ".join(quote_identifier(c.strip()) for c in args.order_by.split(","))
        cursor = con.execute(f"SELECT * FROM {source}{order} LIMIT {int(args.limit)}")
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, (plain(v) for v in row))) for row in cursor.fetchall()]

    result = {
        "table": args.table,
        "ref": ref,
        "metadata_location": location,
        "schema": schema,
        "row_count": count,
        "rows": rows,
        "snapshot_count": len(metadata.get("snapshots") or []),
        "snapshot_id": snapshot_id,
    }
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


def metadata_from_catalog(db_path, table, catalog_name):
    import sqlite3

    if "." not in table:
        fail(f"--table must be namespace.table, got {table!r}")
    namespace, name = table.rsplit(".", 1)
    query = "SELECT metadata_location FROM iceberg_tables WHERE table_namespace = ? AND table_name = ?"
    params = [namespace, name]
    if catalog_name:
        query += " AND catalog_name = ?"
        params.append(catalog_name)
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
            found = db.execute(query, params).fetchall()
    except sqlite3.Error as e:
        fail(f"cannot read the SQL catalog {db_path}: {e}")
    if len(found) != 1:
        fail(f"table {table} found {len(found)} times in {db_path}")
    return found[0][0]


def extension_file(duckdb, name):
    import site

    roots = site.getsitepackages() + [site.getusersitepackages()]
    version = duckdb.__version__
    for root in roots:
        hits = glob.glob(os.path.join(root, "duckdb_ext", "extensions", f"v{version}", "*",
                                      f"{name}.duckdb_extension"))
        if hits:
            return hits[0]
    fail(f"the DuckDB {name} extension for duckdb {version} is not installed "
         f"(PyPI duckdb-ext-{name}); run scripts/install-tools")


def quote_identifier(name):
    return '"' + name.replace('"', '""') + '"'


def sql_string(text):
    return text.replace("'", "''")


def plain(value):
    import datetime
    import decimal
    import uuid

    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def fail(message):
    print(f"read_iceberg_duckdb.py: {message}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
