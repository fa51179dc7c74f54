#!/usr/bin/env python3
"""Reads an Iceberg table through pyiceberg's SqlCatalog and prints it as JSON.

An independent reader for stone's end-to-end tests: it checks what stone-server wrote
with a different Iceberg implementation (pyiceberg) than the one that wrote it.

    read_iceberg.py --catalog-db /path/catalog.db --warehouse file:///path/wh \
        --table ns.name [--branch B] [--limit N] [--catalog-name NAME] [--property K=V ...]
    read_iceberg.py --detail [--filter "id >= 4"] --catalog-db … --warehouse … --table ns.name

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

With --detail, every ref in full instead (the Iceberg engine's tests look at snapshots,
files and their column metrics):
    {"exists": false}
or
    {"exists": true, "format_version": 2, "snapshot_count": N,
     "current_schema_id": I, "current_schema": [field…], "name_mapping": [...],
     "current_rows": [row…],            # the current snapshot (main)
     "refs": {name: {"type": "branch"|"tag", "snapshot_id": S, "parent_id": P,
                     "operation": "append"|"overwrite", "summary": {...},
                     "schema_id": I, "schema": [field…], "ancestry": [S, P, …],
                     "files": [path…], "file_stats": [stat…], "rows": [row…],
                     # with --filter: the files left after pruning, and the rows
                     "filtered_files": [path…], "filtered_rows": [row…]}}}
    stat = {"path", "format", "record_count", "file_size", "lower": {column: value},
            "upper": {…}, "null_counts": {column: n}, "value_counts": {…}, "column_sizes": {…}}
    Rows are sorted by their JSON text.

Values are made JSON-friendly the same way in both forms: dates, times and decimals as
strings, bytes as hex.
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
    parser.add_argument("--detail", action="store_true",
                        help="every ref in full (snapshots, files, column metrics, rows)")
    parser.add_argument("--filter", default=None,
                        help="with --detail: a row filter; adds filtered_files/filtered_rows per ref")
    args = parser.parse_args()

    import sqlite3
    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    from fileio_properties import fileio_properties

    name = args.catalog_name or only_catalog_name(sqlite3, args.catalog_db)
    catalog = SqlCatalog(name, uri=f"sqlite:///{args.catalog_db}", warehouse=args.warehouse,
                         **fileio_properties(args.property))
    if args.detail:
        from pyiceberg.exceptions import NoSuchTableError

        try:
            table = catalog.load_table(args.table)
        except NoSuchTableError:
            print(json.dumps({"exists": False}))
            return
        print(json.dumps(detail(table, args.filter)))
        return
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
        "schema": fields_of(table.schema()),
        "row_count": arrow.num_rows,
        "rows": to_records(arrow.slice(0, args.limit)),
        "snapshot_count": len(metadata.snapshots),
        "snapshot_id": snapshot.snapshot_id if snapshot else None,
        "refs": {name: r.snapshot_id for name, r in metadata.refs.items()},
        "properties": dict(metadata.properties),
    }
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


def detail(table, row_filter):
    """Every ref of `table` in full (see --detail)."""
    metadata = table.metadata
    schemas = {schema.schema_id: schema for schema in metadata.schemas}
    mapping = metadata.name_mapping()
    out = {
        "exists": True,
        "format_version": metadata.format_version,
        "snapshot_count": len(metadata.snapshots),
        "current_schema_id": metadata.current_schema_id,
        "current_schema": fields_of(table.schema()),
        "name_mapping": json.loads(mapping.model_dump_json()) if mapping is not None else None,
        "current_rows": sorted_records(table.scan().to_arrow()),
        "refs": {},
    }
    for name, ref in metadata.refs.items():
        snapshot = table.snapshot_by_id(ref.snapshot_id)
        ancestry = []
        walker = snapshot
        while walker is not None:
            ancestry.append(walker.snapshot_id)
            walker = table.snapshot_by_id(walker.parent_snapshot_id) if walker.parent_snapshot_id else None
        scan = table.scan(snapshot_id=ref.snapshot_id)
        tasks = list(scan.plan_files())
        schema = schemas[snapshot.schema_id]
        filtered = {}
        if row_filter:
            filtered_scan = table.scan(row_filter=row_filter, snapshot_id=ref.snapshot_id)
            filtered = {
                # Files left after pruning by partition and column metrics (bounds).
                "filtered_files": sorted(task.file.file_path for task in filtered_scan.plan_files()),
                "filtered_rows": sorted_records(filtered_scan.to_arrow()),
            }
        out["refs"][name] = {
            **filtered,
            "type": ref.snapshot_ref_type.value,
            "snapshot_id": ref.snapshot_id,
            "parent_id": snapshot.parent_snapshot_id,
            "operation": snapshot.summary.operation.value,
            "summary": dict(snapshot.summary.additional_properties),
            "schema_id": snapshot.schema_id,
            "schema": fields_of(schema),
            "ancestry": ancestry,
            "files": sorted(task.file.file_path for task in tasks),
            "file_stats": sorted((file_stats(task, schema) for task in tasks), key=lambda s: s["path"]),
            "rows": sorted_records(scan.to_arrow()),
        }
    return out


def fields_of(schema):
    return [
        {"id": f.field_id, "name": f.name, "type": str(f.field_type), "required": f.required}
        for f in schema.fields
    ]


def file_stats(task, schema):
    """Metrics of a data file, decoded with pyiceberg's own single-value deserialization."""
    from pyiceberg.conversions import from_bytes

    data_file = task.file
    names = {field.field_id: field.name for field in schema.fields}
    types = {field.field_id: field.field_type for field in schema.fields}

    def bounds(raw):
        return {
            names[field_id]: plain(from_bytes(types[field_id], value))
            for field_id, value in (raw or {}).items()
            if field_id in names
        }

    def counts(raw):
        return {names[field_id]: count for field_id, count in (raw or {}).items() if field_id in names}

    return {
        "path": data_file.file_path,
        "format": str(data_file.file_format),
        "record_count": data_file.record_count,
        "file_size": data_file.file_size_in_bytes,
        "lower": bounds(data_file.lower_bounds),
        "upper": bounds(data_file.upper_bounds),
        "null_counts": counts(data_file.null_value_counts),
        "value_counts": counts(data_file.value_counts),
        "column_sizes": counts(data_file.column_sizes),
    }


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


def plain(value):
    """A value made JSON-friendly: dates, times and decimals as strings, bytes as hex."""
    import datetime
    import decimal

    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def to_records(arrow):
    """Rows as JSON-able dicts, in the table's order."""
    return [{k: plain(v) for k, v in row.items()} for row in arrow.to_pylist()]


def sorted_records(arrow):
    """Rows as JSON-able dicts, sorted by their JSON text."""
    return sorted(to_records(arrow), key=lambda row: json.dumps(row, sort_keys=True))


def fail(message):
    print(f"read_iceberg.py: {message}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
