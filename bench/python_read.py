#!/usr/bin/env python3
"""The Python API's table read against pyiceberg and DuckDB (issue 57), in the same run.

A fresh `stone-server` (release), one TABULAR dataset of `--rows` rows (`id` int64,
`value` double, `label` a 16-character string) pushed with `stone_client.push`, then, each
in a process of its own so that its peak RSS is its read's (`getrusage`), `--runs` times
in turn:
  * stone      `stone_client.read_table("stone:bench/rows", env="bench")` (the server's
               Arrow answer over HTTP: the IPC stream with its buffers compressed with
               zstd, `compression=zstd`, decoded by pyarrow as it arrives, the buffers
               decompressed on its threads)
  * stone-whole (with `--whole`) the answer older clients read: the same request without
               `compression=` (`Accept-Encoding: zstd`: the stream compressed whole, one
               zstd frame decompressed on one thread), decoded the same way
  * pyiceberg  `RestCatalog(uri=<server>/iceberg).load_table("bench.rows").scan().to_arrow()`
  * duckdb     `ATTACH … (TYPE iceberg, ENDPOINT '<server>/iceberg')`, then
               `SELECT * FROM stone.bench.rows` fetched as Arrow
The two peers read the table's Parquet files from the server's local warehouse directly
(file:// paths); stone reads through the server. The first read of a snapshot makes the
server's Arrow answer (not timed: a read before the runs does it). The run's temporary
folder (server data, the table, the venv) is removed at the end unless `--keep`.

Reported: median seconds, rows/s, peak RSS, CPU seconds (user + system, all threads:
above the wall time, the read used more than one core), and stone's ratios: throughput
against the faster peer (target ≥ 1.0) and peak RSS against the smaller peer's (target
≤ 1.0); on a shared machine also the median of each round's ratio against DuckDB (the
readers of a round run one after the other, within seconds, under about the same load)
and the load average before and after the runs.

Usage: bench/python_read.py [--rows 20000000] [--runs 3] [--server BIN] [--client-venv DIR] [--whole] [--keep]
  --server      a stone-server binary (default: `cargo build --release -p stone-server`)
  --client-venv a venv with `stone-cli[arrow]` installed (default: the release wheels of
                python/stone-cli and python/stone-plugin-sdk built with maturin and pip into
                a temporary venv, pyarrow taken from the tools venv)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools"))


def tools_python():
    python = TOOLS / "venv/bin/python"
    if not python.exists():
        sys.exit(f"no tools venv at {python}: run scripts/install-tools (or set STONE_TOOLS_DIR)")
    return str(python)


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def target_dir():
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def build_server():
    run(["cargo", "build", "--release", "--locked", "-p", "stone-server"], cwd=ROOT)
    return str(target_dir() / "release/stone-server")


def build_client_venv(base: Path):
    dist = base / "dist"
    maturin = TOOLS / "venv/bin/maturin"
    run([str(maturin), "build", "--release", "--locked", "--out", str(dist)], cwd=ROOT / "python/stone-cli")
    run([tools_python(), "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "-w", str(dist), str(ROOT / "python/stone-plugin-sdk")])
    venv = base / "venv"
    run([tools_python(), "-m", "venv", str(venv)])
    site = run([str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip()
    tools_site = run([tools_python(), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip()
    Path(site, "zz_stone_tools.pth").write_text(tools_site + "\n")
    run([str(venv / "bin/python"), "-m", "pip", "install", "--no-index", "--disable-pip-version-check",
         "--find-links", str(dist), "stone-cli[arrow]"])
    return venv


MEASURE = r"""
import json, resource, sys, time
what, uri = sys.argv[1], sys.argv[2]
started = time.perf_counter()
if what == "stone":
    import stone_client
    table = stone_client.read_table("stone:bench/rows", env="bench")
    rows = table.num_rows
elif what == "stone-whole":
    import pyarrow as pa, pyarrow.ipc
    from stone_client import _http, _read
    point = _http.endpoint("bench")
    url = _read._content_url(point, "bench", "rows", format="arrow", branch="main")
    answer = _http.call(point, "GET", url, what="bench/rows", headers={"Accept-Encoding": "zstd"})
    assert answer.header("Content-Encoding") == "zstd", answer.header("Content-Encoding")
    source = pa.CompressedInputStream(pa.PythonFile(_read._Body(answer, "bench/rows"), mode="r"), "zstd")
    table = pyarrow.ipc.open_stream(source).read_all()
    answer.close()
    rows = table.num_rows
elif what == "pyiceberg":
    from pyiceberg.catalog.rest import RestCatalog
    catalog = RestCatalog("stone", uri=uri, auth={"type": "noop"})
    table = catalog.load_table("bench.rows").scan().to_arrow()
    rows = table.num_rows
else:
    import duckdb, glob, os
    root = os.path.join(os.path.dirname(os.path.dirname(duckdb.__file__)), "duckdb_ext", "extensions")
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute("SET enable_progress_bar = false")
    for extension in ("httpfs", "avro", "iceberg"):
        found = glob.glob(os.path.join(root, "*", "*", extension + ".duckdb_extension"))
        con.execute(f"LOAD '{found[0]}'")
    con.execute(f"ATTACH 'stone' AS stone (TYPE iceberg, ENDPOINT '{uri}', AUTHORIZATION_TYPE 'none')")
    table = con.execute("SELECT * FROM stone.bench.rows").fetch_arrow_table()
    rows = table.num_rows
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"rows": rows, "seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                  "peak_rss_mb": usage.ru_maxrss / 1024}))
"""

WRITE = r"""
import sys, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
rows, path = int(sys.argv[1]), sys.argv[2]
step = 1_000_000
base = pa.array(range(step), type=pa.int64())
schema = pa.schema([("id", pa.int64()), ("value", pa.float64()), ("label", pa.string())])
with pq.ParquetWriter(path, schema) as writer:
    for start in range(0, rows, step):
        ids = pc.add(base, start)[: rows - start]
        values = pc.divide(pc.cast(pc.bit_wise_and(ids, 1023), pa.float64()), 10.0)
        labels = pc.utf8_lpad(pc.cast(pc.bit_wise_and(ids, 65535), pa.string()), 16, "x")
        writer.write_table(pa.table({"id": ids, "value": values, "label": labels}, schema=schema))
"""

PUSH = r"""
import json, sys, stone_client
result = stone_client.push(sys.argv[1], env="bench", branch="main", yes=True, progress=False)
print(json.dumps(result.datasets[0].detail))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server", default=None)
    parser.add_argument("--client-venv", default=None)
    parser.add_argument("--whole", action="store_true",
                        help="also read the answer older clients read (the stream compressed whole)")
    parser.add_argument("--keep", action="store_true", help="keep the run's temporary folder")
    args = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="stone-bench-python-read-"))
    server_bin = args.server or build_server()
    venv = Path(args.client_venv) if args.client_venv else build_client_venv(base)
    client_python = str(venv / "bin/python")
    home = base / "home"
    home.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "STONE_CONFIG": str(home / "config.toml"),
           "STONE_NO_PROGRESS": "1"}

    log = open(base / "server.log", "w")
    server = subprocess.Popen([server_bin, "--data-dir", str(base / "data"), "--listen", "127.0.0.1:0",
                               "--public-host", "bench.localhost"],
                              stdout=subprocess.PIPE, stderr=log, text=True, env={"PATH": os.environ["PATH"]})
    try:
        url = None
        for line in server.stdout:
            if line.startswith("stone-server listening on "):
                url = line.split("listening on ", 1)[1].strip()
                break
        if url is None:
            sys.exit("stone-server did not start: see " + str(base / "server.log"))
        run([str(venv / "bin/stone"), "env", "add", "bench", "--host", "bench.localhost", "--api", url + "/v1"], env=env)

        package = base / "package"
        package.mkdir()
        (package / "datasets.yaml").write_text(
            'name: bench\npublish:\n  to: "stone:bench"\n  public: true\nresources:\n  - path: rows.parquet\n    name: rows\n')
        run([tools_python(), "-c", WRITE, str(args.rows), str(package / "rows.parquet")])
        size = (package / "rows.parquet").stat().st_size
        print(f"table: {args.rows:,} rows, {size / 1e6:.0f} MB of Parquet written by pyarrow")
        pushed = json.loads(run([client_python, "-c", PUSH, str(package)], env=env))
        print(f"pushed: {pushed}")

        uri = url + "/iceberg"
        readers = {"stone": client_python, "pyiceberg": tools_python(), "duckdb": tools_python()}
        if args.whole:
            readers["stone-whole"] = client_python
        # The server's Arrow answer of the snapshot, made once (not timed); the same for the
        # whole-stream answer.
        for name in [n for n in readers if n.startswith("stone")]:
            started = time.perf_counter()
            json.loads(run([client_python, "-c", MEASURE, name, uri], env=env))
            print(f"first read of {name} (the server writes its answer): {time.perf_counter() - started:.1f} s")
        results = {name: [] for name in readers}
        load_before = os.getloadavg()
        for _ in range(args.runs):
            for name, python in readers.items():
                measured = json.loads(run([python, "-c", MEASURE, name, uri], env=env))
                if measured["rows"] != args.rows:
                    sys.exit(f"{name} read {measured['rows']} rows, not {args.rows}")
                results[name].append(measured)
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait()
        log.close()
        if args.keep:
            print(f"kept: {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)

    print(f"\nload average (1, 5, 15 min): before the runs {' '.join(f'{x:.1f}' for x in load_before)}, "
          f"after {' '.join(f'{x:.1f}' for x in load_after)}")
    print(f"\n{'reader':<11} {'median s':>9} {'Mrows/s':>8} {'CPU s':>6} {'peak RSS MB':>12}   each run's s")
    summary = {}
    for name, runs in results.items():
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu_seconds"] for r in runs)
        rss = statistics.median(r["peak_rss_mb"] for r in runs)
        summary[name] = (seconds, rss)
        each = " ".join(f"{r['seconds']:.2f}" for r in runs)
        print(f"{name:<11} {seconds:>9.2f} {args.rows / seconds / 1e6:>8.1f} {cpu:>6.2f} {rss:>12.0f}   {each}")
    faster = min(summary["pyiceberg"][0], summary["duckdb"][0])
    smaller = min(summary["pyiceberg"][1], summary["duckdb"][1])
    print(f"\nstone throughput / the faster peer's: {faster / summary['stone'][0]:.2f} (target >= 1.0)")
    print(f"stone peak RSS / the smaller peer's:  {summary['stone'][1] / smaller:.2f} (target <= 1.0)")
    paired = [d["seconds"] / s["seconds"] for s, d in zip(results["stone"], results["duckdb"])]
    print(f"stone throughput / DuckDB's, the median of each round's: {statistics.median(paired):.2f} "
          f"({' '.join(f'{p:.2f}' for p in paired)})")
    if "stone-whole" in results:
        paired = [w["seconds"] / s["seconds"] for s, w in zip(results["stone"], results["stone-whole"])]
        print(f"stone throughput / the whole-stream answer's, the median of each round's: {statistics.median(paired):.2f}")


if __name__ == "__main__":
    main()
