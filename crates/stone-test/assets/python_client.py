"""The Python API (`stone_client`, installed from the stone-cli wheel into a fresh venv)
against a real stone-server: run by crates/stone/tests/it/wheel/python_client.rs with the
venv's Python in isolated mode (`-I`: no repository on sys.path).

    python -I python_client.py push_read  <work dir>   # env `local`, a server without auth
    python -I python_client.py private    <work dir>   # env `dev`, an OIDC server with [authz]
    python -I python_client.py big_push   <work dir>   # env `local`: 10,000,000 rows
    python -I python_client.py big_read   <work dir>   # … read in batches
    python -I python_client.py big_filter <work dir> id|value   # … read with a row_filter

Every check is an assertion here; the last line on stdout is a JSON summary the Rust side
checks again (and compares with the server's log).
"""

import contextlib
import csv
import hashlib
import io
import json
import os
import resource
import shutil
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc
import pyarrow.parquet as pq

import stone_client as stone

VENV = sys.prefix


def check_installed():
    # The package and the executable come from the venv's install of the wheel, nothing
    # from the repository (its tools' venv, for pyarrow and pyoxigraph, aside).
    venv = os.path.realpath(VENV)
    for module in (stone, sys.modules["stone_plugin_sdk"]):
        assert os.path.realpath(module.__file__).startswith(venv + os.sep), module.__file__
    assert os.path.realpath(stone.stone_binary()) == os.path.join(venv, "bin", "stone"), stone.stone_binary()
    repo = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    tools = os.path.realpath(os.environ.get("STONE_TOOLS_DIR") or os.path.join(repo, ".tools"))
    for entry in sys.path:
        entry = os.path.realpath(entry) if entry else os.getcwd()
        if entry.startswith(repo + os.sep) or entry == repo:
            assert entry.startswith(tools + os.sep), f"the repository on sys.path: {entry}"


def expect_error(cls, code, call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except stone.StoneError as error:
        assert isinstance(error, cls), (type(error), error)
        assert error.code == code, (error.code, code, str(error))
        assert error.message, error
        return error
    raise AssertionError(f"{call.__name__} raised nothing, expected {code}")


def write_csv(path, rows):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["city", "country", "population"])
        writer.writerows(rows)


def package(root, version, rows, blob, graph_rows=None):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "datasets.yaml"), "w") as out:
        out.write(
            f"""name: pyclient
version: "{version}"
publish:
  to: "stone:py"
  public: true
resources:
  - path: cities.csv
    name: cities
    schema:
      fields:
        - {{name: city, type: string}}
        - {{name: country, type: string}}
        - {{name: population, type: integer}}
  - path: capitals.ttl
    name: capitals
  - path: readings.bin
    name: readings
"""
        )
    write_csv(os.path.join(root, "cities.csv"), rows)
    with open(os.path.join(root, "capitals.ttl"), "w") as out:
        out.write("@prefix ex: <https://example.org/geo#> .\n")
        for city, country, _ in graph_rows or rows:
            out.write(f'ex:{city} ex:capitalOf ex:{country} ; ex:label "{city}" .\n')
    with open(os.path.join(root, "readings.bin"), "wb") as out:
        out.write(blob)


def push_read(work):
    check_installed()
    root = os.path.join(work, "pkg")
    first = [("Berlin", "Germany", 3755251), ("Paris", "France", 2102650), ("Madrid", "Spain", 3332035)]
    blob = hashlib.sha256(b"seed").digest() * (1 << 15)  # 1 MiB
    package(root, "1.0.0", first, blob)

    # The CLI's rules, as typed exceptions with its codes and exit statuses.
    error = expect_error(stone.UsageError, "push.no_branch", stone.push, root, env="local", progress=False)
    assert error.exit_status == 2 and "--branch" in (error.hint or ""), error
    error = expect_error(stone.RefusedError, "push.confirmation_required", stone.push, root, env="local", branch="main", progress=False)
    assert error.exit_status == 4, error
    expect_error(stone.UsageError, "env.unknown", stone.push, root, env="nowhere", branch="x", progress=False)

    plan = stone.push(root, env="local", branch="feature/one", dry_run=True)
    assert isinstance(plan, stone.PushPlan) and plan.branch == "feature-one", plan
    expect_error(stone.NotFoundError, "dataset.not_found", stone.read_table, "stone:py/cities", env="local", branch="feature-one")

    # Version 1.0.0 on main (manual: yes=True), then 1.1.0 with a fourth city. Progress
    # without tqdm (hidden: an import of it fails) is the CLI's lines on sys.stderr.
    try:
        import tqdm  # noqa: F401
    except ImportError:
        raise AssertionError("tqdm is not installed in the tools' venv: run scripts/install-tools (scripts/tools/requirements.txt pins it)")
    saved = {name: sys.modules.get(name) for name in ("tqdm", "tqdm.auto")}
    plain = io.StringIO()
    try:
        sys.modules["tqdm"] = sys.modules["tqdm.auto"] = None
        with contextlib.redirect_stderr(plain):
            result = stone.push(root, env="local", branch="main", yes=True, progress=True)
    finally:
        sys.modules.update(saved)
    lines = plain.getvalue()
    assert "committing push" in lines and "\r" not in lines and " step [" not in lines, lines
    assert isinstance(result, stone.PushResult), result
    statuses = {d.url: d.status for d in result.datasets}
    assert statuses == {"stone:py/cities": "created", "stone:py/capitals": "created", "stone:py/readings": "created"}, statuses
    assert all(isinstance(d, stone.DatasetOutcome) for d in result.datasets)
    # Appended (main is protected: replacing would need the force role).
    second = first + [("Lisbon", "Portugal", 545796)]
    package(root, "1.1.0", second[3:], blob, graph_rows=second)
    # With tqdm: a bar (redrawn with carriage returns, counting the CLI's steps), the
    # step's text as its description, not the lines themselves.
    bar = io.StringIO()
    with contextlib.redirect_stderr(bar):
        result = stone.push(root, env="local", branch="main", yes=True, progress=True)
    shown = bar.getvalue()
    assert "\r" in shown and " step [" in shown and "step/s]" in shown, shown
    assert {d.url: d.status for d in result.datasets}["stone:py/cities"] == "appended", result

    # A branch of its own: one more city.
    third = second + [("Rome", "Italy", 2748109)]
    package(root, "1.1.0", third, blob)
    stone.push(root, env="local", branch="dev", replace=True, progress=False)

    table = stone.read_table("stone:py/cities", env="local")
    assert table.num_rows == 4, table
    assert sorted(zip(*[table.column(c).to_pylist() for c in ("city", "country", "population")])) == sorted(second), table
    assert table.schema.field("population").type == pa.int64(), table.schema
    # What read_table reads: the Arrow answer (IPC stream) with its buffers compressed with
    # zstd (`compression=zstd`, no Content-Encoding: pyarrow decompresses them on its
    # threads). A client that does not accept zstd (urllib sends no Accept-Encoding) gets
    # the stream plain; an older client (Accept-Encoding: zstd, no compression=) the
    # stream compressed whole.
    import urllib.request
    api = stone._http.endpoint("local").api
    url = api + "/namespaces/py/datasets/cities/content?format=arrow"

    def arrow_answer(url, headers):
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            assert answer.headers.get("Content-Type") == "application/vnd.apache.arrow.stream", answer.headers
            return answer.headers.get("Content-Encoding"), answer.read()

    encoding, body = arrow_answer(url, {})
    assert encoding is None, encoding
    plain_table = pa.ipc.open_stream(body).read_all()
    encoding, body = arrow_answer(url, {"Accept-Encoding": "zstd"})
    assert encoding == "zstd", encoding
    whole_table = pa.ipc.open_stream(pa.CompressedInputStream(pa.BufferReader(body), "zstd")).read_all()
    encoding, body = arrow_answer(url + "&compression=zstd", {"Accept-Encoding": "zstd"})
    assert encoding is None, encoding
    buffers_table = pa.ipc.open_stream(pa.BufferReader(body), options=pa.ipc.IpcReadOptions(use_threads=True)).read_all()
    # The same rows; a scan of several data files need not keep one order from read to read
    # (a cold CI run saw them differ).
    key = [("city", "ascending"), ("country", "ascending")]
    for other in (plain_table, whole_table, buffers_table):
        assert other.sort_by(key).equals(table.sort_by(key)), (other, table)
    assert stone.read_table("stone:py/cities", env="local", branch="dev").num_rows == 5
    old = stone.read_table("stone:py/cities", env="local", version="1.0.0")
    assert sorted(old.column("city").to_pylist()) == sorted(c for c, _, _ in first), old
    subset = stone.read_table("stone:py/cities", env="local", columns=["city", "population"])
    assert subset.column_names == ["city", "population"] and subset.num_rows == 4, subset
    big = stone.read_table("stone:py/cities", env="local", columns=["city"], row_filter=pc.field("population") > 3_000_000)
    assert sorted(big.column("city").to_pylist()) == ["Berlin", "Madrid"], big
    assert big.column_names == ["city"], big
    batches = list(stone.scan_batches("stone:py/cities", env="local", branch="dev", batch_size=2))
    assert sum(b.num_rows for b in batches) == 5, batches
    expect_error(stone.NotFoundError, "dataset.not_found", stone.read_table, "stone:py/cities", env="local", version="9.9.9")
    expect_error(stone.NotFoundError, "dataset.not_found", stone.read_table, "stone:py/nothing", env="local")
    expect_error(stone.UsageError, "usage.invalid_name", stone.read_table, "py/cities", env="local")
    expect_error(stone.UsageError, "env.unknown", stone.read_table, "stone:py/cities", env="nowhere")

    listed = stone.datasets("stone:py", env="local")
    assert [(d.name, d.kind, d.engine) for d in listed] == [
        ("cities", "TABULAR", "iceberg"),
        ("capitals", "GRAPH", "graph"),
        ("readings", "BLOB", "object_storage"),
    ], listed

    # The graph, with pyoxigraph (installed here) and as text; SPARQL over it.
    triples = stone.read_graph("stone:py/capitals", env="local")
    assert len(triples) == 8, triples
    text = stone.read_graph("stone:py/capitals", env="local", as_text=True)
    assert "<https://example.org/geo#Lisbon> <https://example.org/geo#capitalOf> <https://example.org/geo#Portugal> ." in text, text
    rows = stone.query(
        "SELECT DISTINCT ?city WHERE { GRAPH ?g { ?city <https://example.org/geo#capitalOf> <https://example.org/geo#Spain> } }",
        env="local",
    )
    assert rows == [{"city": "https://example.org/geo#Madrid"}], rows
    assert stone.query("ASK { GRAPH ?g { ?s <https://example.org/geo#label> \"Rome\" } }", env="local") is True
    expect_error(stone.PushFailed, "request.invalid", stone.query, "SELEC nothing", env="local")

    # A blob by range: 4 KiB from the middle of 1 MiB.
    with stone.open_blob("stone:py/readings", env="local", buffer_size=4096) as blob_file:
        blob_file.seek(500_000)
        piece = blob_file.read(4096)
    assert piece == blob[500_000:504_096], len(piece)
    files = stone.download("stone:py/readings", os.path.join(work, "download"), env="local")
    with open(files[0], "rb") as got:
        assert got.read() == blob
    print(json.dumps({"rows": table.num_rows, "triples": len(triples), "range_bytes": len(piece), "blob_bytes": len(blob)}))


def private(work):
    check_installed()
    token = os.environ.get("STONE_TOKEN", "")
    root = os.path.join(work, "secret")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "datasets.yaml"), "w") as out:
        out.write('name: secret\npublish:\n  to: "stone:secret"\n  public: false\nresources:\n  - path: salaries.csv\n    name: salaries\n')
    with open(os.path.join(root, "salaries.csv"), "w") as out:
        out.write("name,salary\nada,100\ngrace,200\n")
    mode = sys.argv[3]
    if mode == "push":
        result = stone.push(root, env="dev", branch="dev", progress=False)
        assert result.datasets[0].status == "created", result
        table = stone.read_table("stone:secret/salaries", env="dev", branch="dev")
        assert table.num_rows == 2 and sorted(table.column("salary").to_pylist()) == [100, 200], table
        seen = {"rows": table.num_rows}
    elif mode == "anonymous":
        error = expect_error(stone.AuthError, "auth.required", stone.read_table, "stone:secret/salaries", env="dev", branch="dev")
        assert error.http_status == 401 and "stone login" in (error.hint or ""), error
        expect_error(stone.AuthError, "auth.required", stone.datasets, "stone:secret", env="dev", branch="dev")
        seen = {"refused": error.code}
    elif mode == "forbidden":
        error = expect_error(stone.RefusedError, "authz.forbidden", stone.read_table, "stone:secret/salaries", env="dev", branch="dev")
        seen = {"refused": error.code}
        assert token and token not in str(error) and token not in repr(error)
    elif mode == "login":
        # No STONE_TOKEN: the login `stone login` stored, through the bundled stone.
        assert not token
        table = stone.read_table("stone:secret/salaries", env="dev", branch="dev", columns=["name"])
        assert sorted(table.column("name").to_pylist()) == ["ada", "grace"], table
        seen = {"rows": table.num_rows}
    else:
        raise SystemExit(f"unknown mode {mode}")
    from stone_client import _http

    point = _http.endpoint("dev")
    shown = repr(point) + str(point)
    for secret in [token, getattr(point, "_token", None) or ""]:
        if secret:
            assert secret not in shown, "a token in the endpoint's repr"
    seen["token_from"] = point.source
    if point.source != "none":
        # The token goes to the API's origin only: never to another host or port (a
        # storage host, a presigned URL), nor to the same host over another scheme.
        assert "Authorization" in point.headers_for(point.api + "/namespaces/secret/package")
        host = point.origin[1]
        for elsewhere in (f"http://storage.{host}:9000/bucket/key", f"https://{host}/v1/info", "http://127.0.0.2:1/v1/info"):
            assert "Authorization" not in point.headers_for(elsewhere), elsewhere
    # Plain http off loopback is refused before anything is sent.
    try:
        _http.Endpoint("x", "http://stone.example.org/v1", "stone.example.org", "t0ken", "stone_token", None)
        raise AssertionError("an http API off loopback was accepted")
    except stone.StoneError as error:
        assert error.code == "client.insecure_url" and "t0ken" not in str(error), error
    print(json.dumps(seen))


def big_push(work):
    check_installed()
    rows = 10_000_000
    step = 1_000_000
    root = os.path.join(work, "big")
    os.makedirs(root, exist_ok=True)
    base = pa.array(range(step), type=pa.int64())
    schema = pa.schema([("id", pa.int64()), ("value", pa.float64())])
    with pq.ParquetWriter(os.path.join(root, "rows.parquet"), schema) as writer:
        for k in range(rows // step):
            ids = pc.add(base, k * step)
            values = pc.divide(pc.cast(pc.bit_wise_and(ids, 1023), pa.float64()), 10.0)
            writer.write_table(pa.table({"id": ids, "value": values}, schema=schema), row_group_size=step)
    del base, ids, values
    with open(os.path.join(root, "datasets.yaml"), "w") as out:
        out.write('name: big\npublish:\n  to: "stone:bulk"\n  public: true\nresources:\n  - path: rows.parquet\n    name: rows\n')
    result = stone.push(root, env="local", branch="main", yes=True, progress=False)
    assert result.datasets[0].status == "created", result
    shutil.rmtree(root)
    print(json.dumps({"pushed": result.datasets[0].detail}))


def big_read(work):
    """In a process of its own, so that its peak RSS is the read's."""
    check_installed()
    rows = 10_000_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = 0
    total = 0
    largest = 0
    batches = 0
    for batch in stone.scan_batches("stone:bulk/rows", env="local", columns=["id"]):
        assert batch.schema.names == ["id"], batch.schema
        count += batch.num_rows
        total += pc.sum(batch.column("id")).as_py()
        largest = max(largest, batch.num_rows)
        batches += 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    assert count == rows, count
    assert total == rows * (rows - 1) // 2, total
    assert peak < 500 * 1024, f"peak RSS {peak / 1024:.0f} MiB"
    print(json.dumps({"rows": count, "batches": batches, "largest_batch": largest, "peak_rss_kib": peak, "rss_before_kib": before}))


def big_filter(work, column):
    """A read with a row_filter: on `id` (sorted: one row group's statistics admit it),
    or on `value` (every row group has the values: all are read). The Rust side compares
    the bytes the server sent for each."""
    check_installed()
    if column == "id":
        table = stone.read_table("stone:bulk/rows", env="local", row_filter=(pc.field("id") >= 9_990_000) & (pc.field("id") < 9_990_100))
        assert table.column("id").to_pylist() == list(range(9_990_000, 9_990_100)), table
    else:
        table = stone.read_table("stone:bulk/rows", env="local", row_filter=pc.field("value") == 0.0)
        ids = table.column("id").to_pylist()
        assert ids == list(range(0, 10_000_000, 1024)), (len(ids), ids[:5])
    assert table.column("value").to_pylist() == [(i & 1023) / 10.0 for i in table.column("id").to_pylist()]
    print(json.dumps({"rows": table.num_rows}))


if __name__ == "__main__":
    if sys.argv[1] == "big_filter":
        big_filter(sys.argv[2], sys.argv[3])
    else:
        # `private` reads its phase from sys.argv[3] itself.
        {"push_read": push_read, "private": private, "big_push": big_push, "big_read": big_read}[sys.argv[1]](sys.argv[2])
