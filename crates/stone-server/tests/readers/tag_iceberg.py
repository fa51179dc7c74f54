"""Writes a legacy version tag with pyiceberg's SqlCatalog, for the Iceberg engine's tests.

Usage: tag_iceberg.py --catalog-db ABS --warehouse ABS --catalog-name NAME --table NS.TABLE
                      --branch BRANCH --tag TAG

Tags the head of BRANCH with the bare tag TAG, as a push of version TAG did before
versions were per branch (the server now writes `<branch>@<version>`). The commit is
pyiceberg's own (new metadata file, compare-and-swap of the catalog row). Prints the
tagged snapshot id.
"""

import argparse
import sys

from pyiceberg.catalog.sql import SqlCatalog


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog-db", required=True)
    parser.add_argument("--warehouse", required=True)
    parser.add_argument("--catalog-name", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--branch", required=True)
    parser.add_argument("--tag", required=True)
    args = parser.parse_args()

    catalog = SqlCatalog(
        args.catalog_name,
        uri=f"sqlite:///{args.catalog_db}",
        warehouse=f"file://{args.warehouse}",
    )
    table = catalog.load_table(args.table)
    head = table.metadata.refs.get(args.branch)
    if head is None:
        sys.exit(f"{args.table} has no branch {args.branch!r}; refs: {sorted(table.metadata.refs)}")
    table.manage_snapshots().create_tag(head.snapshot_id, args.tag).commit()
    print(head.snapshot_id)


if __name__ == "__main__":
    main()
