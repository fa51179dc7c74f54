#!/usr/bin/env python3
"""Reads one Iceberg metadata file directly with pyiceberg's StaticTable; prints JSON.

What a reader holding storage credentials can do without the catalog: open a metadata
file it can name (the one `loadTable` names, or an older one) and scan any snapshot the
file lists. The stone tests use it to check that credentials vended to a reader of some
branches reach nothing else.

    read_iceberg_static.py --metadata-location s3://bucket/.../00003-….metadata.json \
        [--property KEY=VALUE ...] [--snapshot-id ID ...]

Prints one JSON object: {"snapshot_ids": [...], "reads": {id: {"rows": [...]} or
{"error": …}}}, or {"error": {"type", "message"}} when the file cannot be opened.
"""

import argparse
import json
import sys


def error(e):
    return {"error": {"type": type(e).__name__, "message": str(e)}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metadata-location", required=True)
    parser.add_argument("--property", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--snapshot-id", action="append", default=[], type=int)
    args = parser.parse_args()

    from pyiceberg.table import StaticTable

    properties = {}
    for item in args.property:
        key, _, value = item.partition("=")
        properties[key] = value
    try:
        table = StaticTable.from_metadata(args.metadata_location, properties)
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        json.dump(error(e), sys.stdout)
        sys.stdout.write("\n")
        return
    result = {"snapshot_ids": [s.snapshot_id for s in table.metadata.snapshots], "reads": {}}
    for snapshot_id in args.snapshot_id:
        try:
            rows = table.scan(snapshot_id=snapshot_id).to_arrow().to_pylist()
            result["reads"][str(snapshot_id)] = {"rows": rows}
        except Exception as e:  # noqa: BLE001
            result["reads"][str(snapshot_id)] = error(e)
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
