"""Independent reader for the Iceberg engine's tests: pyiceberg's SqlCatalog.

Usage: read_iceberg.py --catalog-db ABS --warehouse ABS --catalog-name NAME --table NS.TABLE
                        [--filter "id >= 4"]

Prints one JSON object:
  {"exists": false}
or
  {"exists": true, "format_version": 2, "snapshot_count": N,
   "current_schema_id": I, "current_schema": [field…], "name_mapping": [...],
   "current_rows": [row…],            # table.scan() — the current snapshot (main)
   "refs": {name: {"type": "branch"|"tag", "snapshot_id": S, "parent_id": P,
                   "operation": "append"|"overwrite", "summary": {...},
                   "schema_id": I, "schema": [field…], "ancestry": [S, P, …],
                   "files": [path…], "file_stats": [stat…], "rows": [row…]}}}
stat = {"path", "format", "record_count", "file_size", "lower": {column: value},
        "upper": {…}, "null_counts": {column: n}, "value_counts": {…}, "column_sizes": {…}}
field = {"id": 1, "name": "id", "type": "long", "required": true}
Rows are dicts, sorted by their JSON text, values made JSON-friendly.
"""

import argparse
import base64
import datetime
import decimal
import json
import sys

from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.conversions import from_bytes
from pyiceberg.exceptions import NoSuchTableError


def jsonable(value):
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def rows_of(arrow_table):
    rows = [jsonable(row) for row in arrow_table.to_pylist()]
    return sorted(rows, key=lambda row: json.dumps(row, sort_keys=True))


def fields_of(schema):
    return [
        {"id": field.field_id, "name": field.name, "type": str(field.field_type), "required": field.required}
        for field in schema.fields
    ]


def file_stats(task, schema):
    """Metrics of a data file, decoded with pyiceberg's own single-value deserialization."""
    data_file = task.file
    names = {field.field_id: field.name for field in schema.fields}
    types = {field.field_id: field.field_type for field in schema.fields}

    def bounds(raw):
        return {
            names[field_id]: jsonable(from_bytes(types[field_id], value))
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalog-db", required=True)
    parser.add_argument("--warehouse", required=True)
    parser.add_argument("--catalog-name", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--filter", help="row filter; adds filtered_files/filtered_rows per ref")
    args = parser.parse_args()

    catalog = SqlCatalog(
        args.catalog_name,
        uri=f"sqlite:///{args.catalog_db}",
        warehouse=f"file://{args.warehouse}",
    )
    try:
        table = catalog.load_table(args.table)
    except NoSuchTableError:
        print(json.dumps({"exists": False}))
        return

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
        "current_rows": rows_of(table.scan().to_arrow()),
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
        files = sorted(task.file.file_path for task in tasks)
        stats = sorted(
            (file_stats(task, schemas[snapshot.schema_id]) for task in tasks), key=lambda stat: stat["path"]
        )
        summary = snapshot.summary
        filtered = {}
        if args.filter:
            filtered_scan = table.scan(row_filter=args.filter, snapshot_id=ref.snapshot_id)
            filtered = {
                # Files left after pruning by partition and column metrics (bounds).
                "filtered_files": sorted(task.file.file_path for task in filtered_scan.plan_files()),
                "filtered_rows": rows_of(filtered_scan.to_arrow()),
            }
        out["refs"][name] = {
            **filtered,
            "type": ref.snapshot_ref_type.value,
            "snapshot_id": ref.snapshot_id,
            "parent_id": snapshot.parent_snapshot_id,
            "operation": summary.operation.value,
            "summary": dict(summary.additional_properties),
            "schema_id": snapshot.schema_id,
            "schema": fields_of(schemas[snapshot.schema_id]),
            "ancestry": ancestry,
            "files": files,
            "file_stats": stats,
            "rows": rows_of(scan.to_arrow()),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 — the test prints this
        print(f"pyiceberg reader failed: {type(error).__name__}: {error}", file=sys.stderr)
        raise
