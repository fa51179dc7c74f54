#!/usr/bin/env python3
"""Creates a tiny Iceberg table with pyiceberg, for the harness's own tests of the readers.

    make_iceberg_table.py --dir DIR [--table ns.name]

Makes DIR/catalog.db (SQL catalog on SQLite, catalog name "stone") and the warehouse
DIR/warehouse with `ns.name` (default `demo.cities`): columns id long (required),
name string, founded date, population long; two appends on main (3 rows, then 1 row),
then a branch `dev` from main with one more row appended on it.

Prints JSON: {"catalog_db", "warehouse", "table", "metadata_location"}.
"""

import argparse
import datetime
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--table", default="demo.cities")
    args = parser.parse_args()

    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    root = os.path.abspath(args.dir)
    warehouse = os.path.join(root, "warehouse")
    os.makedirs(warehouse, exist_ok=True)
    catalog_db = os.path.join(root, "catalog.db")
    catalog = SqlCatalog("stone", uri=f"sqlite:///{catalog_db}", warehouse=f"file://{warehouse}")
    namespace = args.table.rsplit(".", 1)[0]
    catalog.create_namespace_if_not_exists(namespace)

    schema = pa.schema([
        pa.field("id", pa.int64(), nullable=False),
        pa.field("name", pa.string()),
        pa.field("founded", pa.date32()),
        pa.field("population", pa.int64()),
    ])

    def rows(*records):
        return pa.Table.from_pylist([dict(zip(schema.names, r)) for r in records], schema=schema)

    table = catalog.create_table(args.table, schema=schema)
    table.append(rows(
        (1, "Bern", datetime.date(1191, 1, 1), 134_000),
        (2, "Zürich", None, 421_000),
        (3, "Genève", datetime.date(1, 1, 1), None),
    ))
    table.append(rows((4, "Basel", datetime.date(374, 1, 1), 173_000)))
    table = catalog.load_table(args.table)
    table.manage_snapshots().create_branch(table.current_snapshot().snapshot_id, "dev").commit()
    table = catalog.load_table(args.table)
    table.append(rows((5, "Chur", None, 37_000)), branch="dev")
    table = catalog.load_table(args.table)

    json.dump({
        "catalog_db": catalog_db,
        "warehouse": f"file://{warehouse}",
        "table": args.table,
        "metadata_location": table.metadata_location,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
