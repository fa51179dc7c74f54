#!/usr/bin/env python3
"""Reads one table of stone-server through every route and reader, and compares each with
what pyiceberg reads from the catalog: the round-trip tests' independent judge.

    round_trip.py --catalog-db DB --warehouse file:///WH --api http://H/v1 \
        --rest http://H/iceberg --table ns.name --branch B [--version V] \
        [--imported FORMAT=PATH ...]

The reference: what went in, the Parquet file pushed for that ref (`--input`), read by
pyarrow. Every reader is compared with it, each reading the way its users read it:
    sql.pyiceberg           pyiceberg's SqlCatalog on the server's catalog, the snapshot of
                            the branch (or of its version `V`, the tag `B@V`)
    content.parquet         GET …/content?format=parquet, read by pyarrow
    content.parquet.ranges  the same answer read by pyarrow through HTTP range requests
                            (a file object that asks for the bytes pyarrow reads)
    content.csv, .tsv       GET …/content?format=csv|tsv, read by the rule of
                            docs/guide.md ("Types"): a cell unquoted and empty is null;
                            lists, structs and maps are JSON
    rest.pyiceberg          pyiceberg's RestCatalog on the server's REST catalog (both
                            pyiceberg readers with its one known deviation: a null list or
                            map of structs reads as empty, apache/iceberg-python#3833)
    rest.duckdb             DuckDB attached to the REST catalog, AT (VERSION => snapshot)
    import.FORMAT           a file `stone data import` wrote (parquet, csv, tsv)

Every value is put in one canonical form by the table's Iceberg type (floats by their
value at the column's width, decimals at the column's scale, times and timestamps as ISO
text, timestamps with a zone in UTC, bytes as hex, maps as [key, value] pairs), rows
sorted by their JSON text.

Prints one JSON object: {"rows": N, "schema": [...], "checks": {reader: "ok" |
{"error": …} | {"mismatch": {"column", "row", "expected", "found"} | …}}}.
"""

import argparse
import datetime
import decimal
import glob
import io
import json
import math
import os
import struct
import sys
import urllib.parse
import urllib.request


def main():
    # Decimals of up to 38 digits are quantized exactly (the default context has 28).
    decimal.getcontext().prec = 100
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog-db", required=True)
    parser.add_argument("--warehouse", required=True)
    parser.add_argument("--api", required=True, help="the server's API, http://host/v1")
    parser.add_argument("--rest", required=True, help="the REST catalog, http://host/iceberg")
    parser.add_argument("--table", required=True, help="namespace.name")
    parser.add_argument("--branch", required=True)
    parser.add_argument("--version", default=None)
    parser.add_argument("--input", required=True, help="the Parquet file pushed for this ref")
    parser.add_argument("--imported", action="append", default=[], metavar="FORMAT=PATH")
    parser.add_argument("--skip", action="append", default=[], help="a reader not to run")
    args = parser.parse_args()

    from pyiceberg.catalog.sql import SqlCatalog

    import sqlite3

    with sqlite3.connect(f"file:{args.catalog_db}?mode=ro", uri=True) as db:
        names = [r[0] for r in db.execute("SELECT DISTINCT catalog_name FROM iceberg_tables")]
    catalog = SqlCatalog(names[0], uri=f"sqlite:///{args.catalog_db}", warehouse=args.warehouse)
    table = catalog.load_table(args.table)
    ref = f"{args.branch}@{args.version}" if args.version else args.branch
    snapshot = table.snapshot_by_name(ref)
    if snapshot is None:
        fail(f"{args.table} has no ref {ref!r}: {sorted(table.metadata.refs)}")
    schema = table.schema()
    fields = list(schema.fields)
    # What went in: the pushed file, read by pyarrow, in the table's types.
    with open(args.input, "rb") as f:
        reference = canon_rows(parquet_rows(f.read()), fields)

    namespace, name = args.table.split(".", 1)
    query = {"branch": args.branch}
    if args.version:
        query["version"] = args.version
    content = f"{args.api}/namespaces/{namespace}/datasets/{name}/content"

    def url(fmt):
        return content + "?" + urllib.parse.urlencode({**query, "format": fmt})

    readers = {
        "sql.pyiceberg": lambda: table.scan(snapshot_id=snapshot.snapshot_id).to_arrow().to_pylist(),
        "content.parquet": lambda: parquet_rows(fetch(url("parquet"))),
        "content.parquet.ranges": lambda: ranged_parquet_rows(url("parquet")),
        "content.csv": lambda: text_rows(fetch(url("csv")).decode("utf-8"), ",", fields),
        "content.tsv": lambda: text_rows(fetch(url("tsv")).decode("utf-8"), "\t", fields),
        "rest.pyiceberg": lambda: rest_rows(args.rest, args.table, ref),
        "rest.duckdb": lambda: duckdb_rows(args.rest, namespace, name, snapshot.snapshot_id),
    }
    for item in args.imported:
        fmt, _, path = item.partition("=")
        readers[f"import.{fmt}"] = (lambda fmt, path: lambda: file_rows(fmt, path, fields))(fmt, path)

    checks = {}
    for reader, read in readers.items():
        if reader in args.skip:
            continue
        try:
            found = read()
            rows = found if reader.startswith(("content.csv", "content.tsv", "import.csv", "import.tsv")) \
                else canon_rows(found, fields)
            expected = reference
            if reader.endswith(".pyiceberg"):
                expected = sorted((pyiceberg_reads(row, fields) for row in reference),
                                  key=lambda r: json.dumps(r, sort_keys=True))
            checks[reader] = compare(expected, rows, fields)
        except Exception as e:  # noqa: BLE001 - reported to the test, which fails on it
            checks[reader] = {"error": f"{type(e).__name__}: {e}"}
    json.dump({"rows": len(reference), "snapshot_id": snapshot.snapshot_id,
               "schema": [{"name": f.name, "type": str(f.field_type)} for f in fields],
               "checks": checks}, sys.stdout, default=str)
    sys.stdout.write("\n")


def pyiceberg_reads(row, fields):
    """`row` as pyiceberg 0.12 reads it: a null list or map whose values are structs comes
    back empty (apache/iceberg-python#3833, open: the list is rebuilt from its offsets
    without its validity). Every other value as it is."""
    return {f.name: emptied(row[f.name], f.field_type) for f in fields}


def emptied(value, t):
    from pyiceberg import types as it

    if isinstance(t, it.ListType):
        if value is None:
            return [] if isinstance(t.element_type, it.StructType) else None
        return [emptied(v, t.element_type) for v in value]
    if isinstance(t, it.MapType):
        if value is None:
            return [] if isinstance(t.value_type, it.StructType) else None
        return [[k, emptied(v, t.value_type)] for k, v in value]
    if isinstance(t, it.StructType) and value is not None:
        return {f.name: emptied(value[f.name], f.field_type) for f in t.fields}
    return value


def fail(message):
    print(f"round_trip.py: {message}", file=sys.stderr)
    sys.exit(1)


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return answer.read()


# --- readers -------------------------------------------------------------------------

def parquet_rows(data):
    import pyarrow.parquet as pq

    return pq.read_table(io.BytesIO(data)).to_pylist()


class RangeFile(io.RawIOBase):
    """A read-only file over HTTP range requests (what a remote Parquet reader does)."""

    def __init__(self, url):
        self.url = url
        request = urllib.request.Request(url, method="HEAD")
        with urllib.request.urlopen(request, timeout=60) as answer:
            self.size = int(answer.headers["Content-Length"])
        self.position = 0
        self.requests = 0
        self.largest = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.position

    def seek(self, offset, whence=0):
        base = {0: 0, 1: self.position, 2: self.size}[whence]
        self.position = base + offset
        return self.position

    # At most this much a request: even a small answer is read in several ranges.
    CHUNK = 1024

    def read(self, n=-1):
        if n is None or n < 0:
            n = self.size - self.position
        parts = []
        while n > 0 and self.position < self.size:
            end = min(self.size, self.position + min(n, self.CHUNK)) - 1
            request = urllib.request.Request(self.url, headers={"Range": f"bytes={self.position}-{end}"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                if answer.status != 206:
                    raise OSError(f"a range request was answered {answer.status}, not 206")
                data = answer.read()
            if len(data) != end + 1 - self.position:
                raise OSError(f"bytes={self.position}-{end} gave {len(data)} bytes")
            self.requests += 1
            self.largest = max(self.largest, len(data))
            self.position += len(data)
            n -= len(data)
            parts.append(data)
        return b"".join(parts)

    def readinto(self, buffer):
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def ranged_parquet_rows(url):
    import pyarrow.parquet as pq

    source = RangeFile(url)
    rows = pq.ParquetFile(source).read().to_pylist()
    if source.requests < 2:
        raise AssertionError(f"pyarrow read the answer in {source.requests} range request(s)")
    return rows


def rest_rows(uri, table_name, ref):
    from pyiceberg.catalog.rest import RestCatalog

    catalog = RestCatalog("stone", uri=uri, auth={"type": "noop"})
    table = catalog.load_table(table_name)
    snapshot = table.snapshot_by_name(ref)
    if snapshot is None:
        raise AssertionError(f"the REST catalog has no ref {ref!r}: {sorted(table.metadata.refs)}")
    return table.scan(snapshot_id=snapshot.snapshot_id).to_arrow().to_pylist()


def duckdb_rows(uri, namespace, name, snapshot_id):
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    try:
        for extension in ("httpfs", "avro", "iceberg"):
            con.execute(f"LOAD '{extension_file(duckdb, extension)}'")
        con.execute(f"ATTACH 'stone' AS stone (TYPE iceberg, ENDPOINT '{uri}', AUTHORIZATION_TYPE 'none')")
        con.execute("SET TimeZone = 'UTC'")
        # Through Arrow: DuckDB's own Python values of TIMESTAMPTZ need pytz.
        query = f'SELECT * FROM stone."{namespace}"."{name}" AT (VERSION => {int(snapshot_id)})'
        return con.execute(query).fetch_arrow_table().to_pylist()
    finally:
        # Closed here, not at the interpreter's exit, where DuckDB's extension threads
        # were seen to abort the process ("terminate called without an active exception")
        # after the report was written.
        con.close()


def extension_file(duckdb, name):
    import site

    for root in site.getsitepackages() + [site.getusersitepackages()]:
        hits = glob.glob(os.path.join(root, "duckdb_ext", "extensions", f"v{duckdb.__version__}",
                                      "*", f"{name}.duckdb_extension"))
        if hits:
            return hits[0]
    fail(f"the DuckDB {name} extension is not installed (PyPI duckdb-ext-{name}): run scripts/install-tools")


def file_rows(fmt, path, fields):
    with open(path, "rb") as f:
        data = f.read()
    if fmt == "parquet":
        return parquet_rows(data)
    return text_rows(data.decode("utf-8"), "\t" if fmt == "tsv" else ",", fields)


# --- the CSV/TSV rule ------------------------------------------------------------------

def split_text(text, delimiter):
    """Records of (cell, quoted) pairs: RFC 4180 with doubled quotes, `\\n` or `\\r\\n`."""
    records, record, cell, quoted = [], [], [], False
    i, n = 0, len(text)
    in_quotes = False
    while i < n:
        c = text[i]
        if in_quotes:
            if c == '"':
                if i + 1 < n and text[i + 1] == '"':
                    cell.append('"')
                    i += 2
                    continue
                in_quotes = False
            else:
                cell.append(c)
            i += 1
            continue
        if c == '"' and not cell:
            in_quotes, quoted = True, True
        elif c == delimiter:
            record.append(("".join(cell), quoted))
            cell, quoted = [], False
        elif c in "\r\n":
            record.append(("".join(cell), quoted))
            records.append(record)
            record, cell, quoted = [], [], False
            if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
        else:
            cell.append(c)
        i += 1
    if cell or quoted or record:
        record.append(("".join(cell), quoted))
        records.append(record)
    return records


def text_rows(text, delimiter, fields):
    records = split_text(text, delimiter)
    if not records:
        raise AssertionError("no header")
    header = [cell for cell, _ in records[0]]
    expected = [f.name for f in fields]
    if header != expected:
        raise AssertionError(f"header {header} is not the columns {expected}")
    rows = []
    for number, record in enumerate(records[1:], start=2):
        if len(record) != len(fields):
            raise AssertionError(f"line {number} has {len(record)} cells, not {len(fields)}: {record}")
        row = {}
        for (cell, quoted), field in zip(record, fields):
            value = None if (cell == "" and not quoted) else parse_cell(cell, field.field_type)
            row[field.name] = canon(value, field.field_type)
        rows.append(row)
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


def parse_cell(text, t):
    """The value of a cell that is not null, by the column's Iceberg type."""
    from pyiceberg import types as it

    if isinstance(t, (it.ListType, it.StructType, it.MapType)):
        return from_json(json.loads(text, parse_float=str, parse_int=str), t)
    return parse_scalar(text, t)


def parse_scalar(text, t):
    from pyiceberg import types as it

    if isinstance(t, it.BooleanType):
        return {"true": True, "false": False}[text]
    if isinstance(t, (it.IntegerType, it.LongType)):
        return int(text)
    if isinstance(t, (it.FloatType, it.DoubleType)):
        return float(text)
    if isinstance(t, it.DecimalType):
        return decimal.Decimal(text)
    if isinstance(t, it.StringType):
        return text
    if isinstance(t, (it.BinaryType, it.FixedType)):
        return bytes.fromhex(text)
    if isinstance(t, it.DateType):
        return datetime.date.fromisoformat(text)
    if isinstance(t, it.TimeType):
        return datetime.time.fromisoformat(text)
    if isinstance(t, (it.TimestampType, it.TimestamptzType)):
        return datetime.datetime.fromisoformat(text)
    raise AssertionError(f"no rule for {t}")


def from_json(value, t):
    from pyiceberg import types as it

    if value is None:
        return None
    if isinstance(t, it.ListType):
        return [from_json(v, t.element_type) for v in value]
    if isinstance(t, it.StructType):
        names = [f.name for f in t.fields]
        if list(value) != names:
            raise AssertionError(f"struct keys {list(value)} are not its fields {names}")
        return {f.name: from_json(value[f.name], f.field_type) for f in t.fields}
    if isinstance(t, it.MapType):
        return [(parse_scalar(k, t.key_type), from_json(v, t.value_type)) for k, v in value.items()]
    if isinstance(t, it.BooleanType):
        if not isinstance(value, bool):
            raise AssertionError(f"{value!r} is not a JSON boolean")
        return value
    if isinstance(t, (it.IntegerType, it.LongType, it.FloatType, it.DoubleType, it.DecimalType)):
        # Numbers come as their text (parse_int/parse_float=str); NaN and inf as strings.
        return parse_scalar(value, t)
    if not isinstance(value, str):
        raise AssertionError(f"{value!r} is not a JSON string")
    return parse_scalar(value, t)


# --- canonical values ------------------------------------------------------------------

def canon_rows(rows, fields):
    out = []
    for row in rows:
        values = list(row.values()) if isinstance(row, dict) else list(row)
        if len(values) != len(fields):
            raise AssertionError(f"a row has {len(values)} columns, not {len(fields)}")
        out.append({f.name: canon(v, f.field_type) for f, v in zip(fields, values)})
    return sorted(out, key=lambda r: json.dumps(r, sort_keys=True))


def canon(value, t):
    from pyiceberg import types as it

    if value is None:
        return None
    if isinstance(t, it.BooleanType):
        return bool(value)
    if isinstance(t, (it.IntegerType, it.LongType)):
        return int(value)
    if isinstance(t, it.FloatType):
        # The value at float32 width (a CSV's text, read as a double, rounded to it).
        return float_text(struct.unpack("<f", struct.pack("<f", float(value)))[0])
    if isinstance(t, it.DoubleType):
        return float_text(float(value))
    if isinstance(t, it.DecimalType):
        quantum = decimal.Decimal(1).scaleb(-t.scale)
        return str(decimal.Decimal(value).quantize(quantum))
    if isinstance(t, it.StringType):
        return str(value)
    if isinstance(t, (it.BinaryType, it.FixedType)):
        return bytes(value).hex()
    if isinstance(t, it.DateType):
        return value.isoformat()
    if isinstance(t, it.TimeType):
        return value.isoformat(timespec="microseconds")
    if isinstance(t, it.TimestampType):
        if value.tzinfo is not None:
            raise AssertionError(f"{value!r}: a timestamp without zone read with one")
        return value.isoformat(timespec="microseconds")
    if isinstance(t, it.TimestamptzType):
        if value.tzinfo is None:
            raise AssertionError(f"{value!r}: a timestamp with zone read without one")
        return value.astimezone(datetime.timezone.utc).isoformat(timespec="microseconds")
    if isinstance(t, it.ListType):
        return [canon(v, t.element_type) for v in list(value)]
    if isinstance(t, it.StructType):
        if not isinstance(value, dict):
            raise AssertionError(f"{value!r} is not a struct")
        return {f.name: canon(value.get(f.name), f.field_type) for f in t.fields}
    if isinstance(t, it.MapType):
        if isinstance(value, dict):
            if set(value) == {"key", "value"} and isinstance(value["key"], list):
                pairs = list(zip(value["key"], value["value"]))  # DuckDB's older map form
            else:
                pairs = list(value.items())
        else:
            pairs = list(value)
        return [[canon(k, t.key_type), canon(v, t.value_type)] for k, v in pairs]
    raise AssertionError(f"no canonical form for {t}")


def float_text(value):
    if math.isnan(value):
        return "NaN"
    return repr(value)


def compare(expected, found, fields):
    if len(expected) != len(found):
        return {"mismatch": f"{len(found)} rows, not {len(expected)}"}
    for number, (a, b) in enumerate(zip(expected, found)):
        if a != b:
            for f in fields:
                if a.get(f.name) != b.get(f.name):
                    return {"mismatch": {"column": f.name, "type": str(f.field_type), "row": number,
                                         "expected": a.get(f.name), "found": b.get(f.name)}}
            return {"mismatch": {"row": number, "expected": a, "found": b}}
    return "ok"


if __name__ == "__main__":
    main()
    # The report is out: leave without the interpreter's teardown of the native libraries'
    # threads (pyarrow's, DuckDB's), which once aborted the process after a complete report.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
