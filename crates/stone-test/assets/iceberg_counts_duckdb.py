#!/usr/bin/env python3
"""Counts the rows of one Iceberg table on many branches with DuckDB, in one process.

The second independent reader of the fault and replica campaigns (DuckDB's C++ Iceberg
reader, next to pyiceberg in iceberg_counts.py), with the same arguments and output:

    iceberg_counts_duckdb.py (--catalog-db /path/catalog.db | --catalog-uri URL) \
        --warehouse file:///path/wh --table ns.name --catalog-name NAME \
        --branches a,b,c [--snapshots] [--property s3.endpoint=… …]

Prints {"branch": {"rows": N, "distinct": D} | null (no such branch), ...}, plus
"_snapshots" (snapshots in the table's metadata) with --snapshots. The table's current
metadata JSON is looked up in the SQL catalog (SQLite file, or a SQLAlchemy URL such as
postgresql+psycopg2://user@host:port/db); each branch is read at the snapshot its ref
names. The extension is LOADed from PyPI `duckdb-ext-iceberg` and `duckdb-ext-avro`
(`INSTALL iceberg` needs the internet). A warehouse on S3 (`s3://…` metadata) is read
through `duckdb-ext-httpfs` with a secret made of pyiceberg's FileIO properties
(`s3.endpoint`, `s3.access-key-id`, `s3.secret-access-key`, `s3.region`).
"""

import argparse
import json
import sys

from read_iceberg_duckdb import extension_file, fail, sql_string


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--catalog-db")
    source.add_argument("--catalog-uri")
    parser.add_argument("--snapshots", action="store_true")
    parser.add_argument("--warehouse", required=True, help="unused; for symmetry")
    parser.add_argument("--table", required=True)
    parser.add_argument("--catalog-name", required=True)
    parser.add_argument("--branches", required=True, help="comma-separated branch names")
    parser.add_argument("--property", action="append", default=[], metavar="KEY=VALUE",
                        help="FileIO property (s3.endpoint, s3.access-key-id, …)")
    args = parser.parse_args()

    location = metadata_location(args)
    path = location[len("file://"):] if location.startswith("file://") else location

    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    extensions = ("avro", "iceberg") + (("httpfs",) if path.startswith("s3://") else ())
    for extension in extensions:
        con.execute(f"LOAD '{extension_file(duckdb, extension)}'")
    if path.startswith("s3://"):
        s3_secret(con, dict(p.split("=", 1) for p in args.property))
        text = con.sql(f"SELECT content FROM read_text('{sql_string(path)}')").fetchone()[0]
        metadata = json.loads(text)
    else:
        with open(path) as f:
            metadata = json.load(f)
    refs = metadata.get("refs") or {}

    result = {}
    for branch in args.branches.split(","):
        ref = refs.get(branch)
        if ref is None or ref.get("type", "branch") != "branch":
            result[branch] = None
            continue
        scan = f"iceberg_scan('{sql_string(path)}', snapshot_from_id => {int(ref['snapshot-id'])})"
        rows = con.sql(f"SELECT count(*) FROM {scan}").fetchone()[0]
        distinct = con.sql(f"SELECT count(*) FROM (SELECT DISTINCT * FROM {scan})").fetchone()[0]
        result[branch] = {"rows": rows, "distinct": distinct}
    if args.snapshots:
        result["_snapshots"] = len(metadata.get("snapshots") or [])
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


def s3_secret(con, props):
    """A DuckDB S3 secret from pyiceberg's FileIO properties (path-style, as SeaweedFS wants)."""
    from urllib.parse import urlparse

    endpoint = props.get("s3.endpoint")
    if not endpoint:
        fail("an s3:// warehouse needs --property s3.endpoint=…")
    url = urlparse(endpoint)
    options = {
        "KEY_ID": props.get("s3.access-key-id", ""),
        "SECRET": props.get("s3.secret-access-key", ""),
        "REGION": props.get("s3.region", "us-east-1"),
        "ENDPOINT": url.netloc,
        "URL_STYLE": "path",
    }
    body = ", ".join(f"{k} '{sql_string(v)}'" for k, v in options.items())
    use_ssl = "true" if url.scheme == "https" else "false"
    con.execute(f"CREATE SECRET stone_s3 (TYPE s3, {body}, USE_SSL {use_ssl})")


def metadata_location(args):
    if "." not in args.table:
        fail(f"--table must be namespace.table, got {args.table!r}")
    namespace, name = args.table.rsplit(".", 1)
    from sqlalchemy import create_engine, text

    uri = args.catalog_uri or f"sqlite:///{args.catalog_db}"
    engine = create_engine(uri)
    with engine.connect() as db:
        found = db.execute(
            text(
                "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = :c"
                " AND table_namespace = :n AND table_name = :t"
            ),
            {"c": args.catalog_name, "n": namespace, "t": name},
        ).fetchall()
    if len(found) != 1:
        fail(f"table {args.table} found {len(found)} times in the catalog {args.catalog_name}")
    return found[0][0]


if __name__ == "__main__":
    sys.exit(main())
