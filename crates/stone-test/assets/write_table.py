#!/usr/bin/env python3
"""Writes a Parquet file with pyarrow from a JSON description of its columns: the tables
the round-trip tests push are written by the library users write theirs with.

    write_table.py SPEC.json OUT.parquet

SPEC: {"columns": [{"name": N, "type": TYPE, "values": [VALUE, ...]}, ...]}

TYPE is an object {"t": NAME, ...}:
    bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
    float64, string, large_string, string_view, binary, large_binary, date32, date64,
    null;
    {"t": "decimal128"|"decimal256", "precision": P, "scale": S};
    {"t": "fixed_size_binary", "size": N};
    {"t": "time32"|"time64", "unit": "s"|"ms"|"us"|"ns"};
    {"t": "timestamp", "unit": "s"|"ms"|"us"|"ns", "tz": null|"UTC"|"Europe/Paris"};
    {"t": "list"|"large_list", "item": TYPE}; {"t": "fixed_size_list", "item": TYPE,
    "size": N}; {"t": "struct", "fields": [{"name": N, "type": TYPE}]};
    {"t": "map", "key": TYPE, "value": TYPE}.

VALUE is JSON null, or: a boolean; an integer; a float as a string (`"2.5"`, `"NaN"`,
`"inf"`, `"-0"`); a decimal as a string; a string; bytes as hex; a date as days since
1970-01-01; a time or a timestamp as an integer count of its unit (since midnight, since
the epoch); a list as an array; a struct as an object; a map as an array of [key, value].
"""

import datetime
import decimal
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

EPOCH = datetime.datetime(1970, 1, 1)
PER_SECOND = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}


def arrow_type(t):
    name = t["t"]
    simple = {
        "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(),
        "int64": pa.int64(), "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(),
        "uint64": pa.uint64(), "float16": pa.float16(), "float32": pa.float32(),
        "float64": pa.float64(), "string": pa.string(), "large_string": pa.large_string(),
        "string_view": pa.string_view(), "binary": pa.binary(),
        "large_binary": pa.large_binary(), "date32": pa.date32(), "date64": pa.date64(),
        "null": pa.null(),
    }
    if name in simple:
        return simple[name]
    if name == "decimal128":
        return pa.decimal128(t["precision"], t["scale"])
    if name == "decimal256":
        return pa.decimal256(t["precision"], t["scale"])
    if name == "fixed_size_binary":
        return pa.binary(t["size"])
    if name == "time32":
        return pa.time32(t["unit"])
    if name == "time64":
        return pa.time64(t["unit"])
    if name == "timestamp":
        return pa.timestamp(t["unit"], tz=t.get("tz"))
    if name == "list":
        return pa.list_(arrow_type(t["item"]))
    if name == "large_list":
        return pa.large_list(arrow_type(t["item"]))
    if name == "fixed_size_list":
        return pa.list_(arrow_type(t["item"]), t["size"])
    if name == "struct":
        return pa.struct([pa.field(f["name"], arrow_type(f["type"])) for f in t["fields"]])
    if name == "map":
        return pa.map_(arrow_type(t["key"]), arrow_type(t["value"]))
    raise SystemExit(f"write_table.py: unknown type {t!r}")


def python_value(t, v):
    """The Python object pyarrow takes for the JSON value `v` of type `t`."""
    if v is None:
        return None
    name = t["t"]
    if name in ("float16", "float32", "float64"):
        return float(v)
    if name in ("decimal128", "decimal256"):
        return decimal.Decimal(v)
    if name in ("binary", "large_binary", "fixed_size_binary"):
        return bytes.fromhex(v)
    if name in ("date32", "date64"):
        return datetime.date(1970, 1, 1) + datetime.timedelta(days=v)
    if name in ("time32", "time64"):
        # pyarrow takes an integer of the unit for times (a datetime.time holds µs only).
        return v
    if name == "timestamp":
        return v
    if name in ("list", "large_list", "fixed_size_list"):
        return [python_value(t["item"], x) for x in v]
    if name == "struct":
        return {f["name"]: python_value(f["type"], v.get(f["name"])) for f in t["fields"]}
    if name == "map":
        return [(python_value(t["key"], k), python_value(t["value"], x)) for k, x in v]
    return v


def has_temporal_int(t):
    return t["t"] in ("time32", "time64", "timestamp")


def column(t, values):
    typ = arrow_type(t)
    if has_temporal_int(t):
        # Integers of the unit, cast to the type: exact whatever the unit.
        storage = pa.int32() if t["t"] == "time32" else pa.int64()
        return pa.array(values, type=storage).cast(typ)
    if nested_temporal(t):
        return nested_column(t, values)
    return pa.array([python_value(t, v) for v in values], type=typ)


def nested_temporal(t):
    name = t["t"]
    if name in ("list", "large_list", "fixed_size_list"):
        return has_temporal_int(t["item"]) or nested_temporal(t["item"])
    if name == "struct":
        return any(has_temporal_int(f["type"]) or nested_temporal(f["type"]) for f in t["fields"])
    if name == "map":
        return any(has_temporal_int(x) or nested_temporal(x) for x in (t["key"], t["value"]))
    return False


def nested_column(t, values):
    """A nested column whose leaves include times or timestamps, built from its children
    (pyarrow takes integers of the unit only through a cast)."""
    name = t["t"]
    typ = arrow_type(t)
    mask = pa.array([v is None for v in values], type=pa.bool_())
    if name in ("list", "large_list", "fixed_size_list"):
        flat = [x for v in values if v is not None for x in v]
        items = column(t["item"], flat)
        if name == "fixed_size_list":
            size = t["size"]
            padded = []
            for v in values:
                padded.extend(v if v is not None else [None] * size)
            items = column(t["item"], padded)
            return pa.FixedSizeListArray.from_arrays(items, size, mask=mask).cast(typ)
        offsets, at = [], 0
        for v in values:
            offsets.append(at)
            at += len(v) if v is not None else 0
        offsets.append(at)
        offset_type = pa.int64() if name == "large_list" else pa.int32()
        offsets = pa.array(offsets, type=offset_type)
        cls = pa.LargeListArray if name == "large_list" else pa.ListArray
        return cls.from_arrays(offsets, items, mask=mask).cast(typ)
    if name == "struct":
        children = [column(f["type"], [None if v is None else v.get(f["name"]) for v in values])
                    for f in t["fields"]]
        return pa.StructArray.from_arrays(children, fields=list(typ), mask=mask)
    if name == "map":
        keys = column(t["key"], [k for v in values if v is not None for k, _ in v])
        items = column(t["value"], [x for v in values if v is not None for _, x in v])
        offsets, at = [], 0
        for v in values:
            offsets.append(None if v is None else at)
            at += len(v) if v is not None else 0
        offsets.append(at)
        return pa.MapArray.from_arrays(pa.array(offsets, type=pa.int32()), keys, items).cast(typ)
    raise SystemExit(f"write_table.py: not nested: {t!r}")


def main():
    spec_path, out = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    arrays, fields = [], []
    for col in spec["columns"]:
        array = column(col["type"], col["values"])
        arrays.append(array)
        fields.append(pa.field(col["name"], array.type))
    table = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
    pq.write_table(table, out)


if __name__ == "__main__":
    main()
