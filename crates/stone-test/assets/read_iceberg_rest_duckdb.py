#!/usr/bin/env python3
"""Reads stone-server's Iceberg REST catalog with DuckDB (`ATTACH … (TYPE iceberg)`).

The second independent REST reader of stone's end-to-end tests (DuckDB's C++ iceberg
extension). The iceberg, avro and httpfs extensions are LOADed from the files PyPI
`duckdb-ext-*` put in site-packages (`INSTALL` needs the internet).

    read_iceberg_rest_duckdb.py --uri http://127.0.0.1:PORT/iceberg [--token T] \
        [--table ns.name [--snapshot-id ID ...]] [--order-by COL]

Prints one JSON object:
    tables   ["ns.name", ...]: what `SHOW ALL TABLES` lists of the attached catalog
    reads    with --table: {"current" or the snapshot id: {"row_count", "rows"}}
"""

import argparse
import glob
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True, help="the catalog URI, <server>/iceberg")
    parser.add_argument("--token", default=None, help="bearer token (default: none)")
    parser.add_argument("--table", default=None, help="namespace.table to read")
    parser.add_argument("--snapshot-id", action="append", default=[], type=int,
                        help="read this snapshot (AT (VERSION => id)) besides the current one")
    parser.add_argument("--order-by", default=None, help="column to sort the rows by")
    args = parser.parse_args()

    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    for extension in ("httpfs", "avro", "iceberg"):
        con.execute(f"LOAD '{extension_file(duckdb, extension)}'")
    if args.token:
        con.execute(f"CREATE SECRET stone (TYPE iceberg, TOKEN '{sql_string(args.token)}')")
        auth = "SECRET stone"
    else:
        auth = "AUTHORIZATION_TYPE 'none'"
    con.execute(f"ATTACH 'stone' AS stone (TYPE iceberg, ENDPOINT '{sql_string(args.uri)}', {auth})")

    listed = con.execute("SHOW ALL TABLES").fetchall()
    # (database, schema, name, column_names, column_types, temporary)
    result = {"tables": sorted(f"{row[1]}.{row[2]}" for row in listed if row[0] == "stone")}
    if args.table:
        namespace, name = args.table.split(".", 1)
        source = f"stone.{quote(namespace)}.{quote(name)}"
        order = f" ORDER BY {quote(args.order_by)}" if args.order_by else ""
        result["reads"] = {}
        for key, at in [("current", "")] + [
            (str(s), f" AT (VERSION => {int(s)})") for s in args.snapshot_id
        ]:
            cursor = con.execute(f"SELECT * FROM {source}{at}{order}")
            names = [d[0] for d in cursor.description]
            rows = [dict(zip(names, row)) for row in cursor.fetchall()]
            result["reads"][key] = {"row_count": len(rows), "rows": rows}
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


def extension_file(duckdb, name):
    import site

    roots = site.getsitepackages() + [site.getusersitepackages()]
    version = duckdb.__version__
    for root in roots:
        hits = glob.glob(os.path.join(root, "duckdb_ext", "extensions", f"v{version}", "*",
                                      f"{name}.duckdb_extension"))
        if hits:
            return hits[0]
    print(f"read_iceberg_rest_duckdb.py: the DuckDB {name} extension for duckdb {version} is "
          f"not installed (PyPI duckdb-ext-{name}); run scripts/install-tools", file=sys.stderr)
    sys.exit(1)


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def sql_string(text):
    return text.replace("'", "''")


if __name__ == "__main__":
    main()
