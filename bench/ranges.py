#!/usr/bin/env python3
"""HTTP range reads benchmark: how much of a table DuckDB fetches over the content route
(issue 25, part 2).

A fresh release `stone-server`, one TABULAR dataset pushed through the push API (a Parquet
file written by DuckDB: `id` sorted, a 32-character `label`, a double; `--rows` rows in
row groups of `--group-rows`), then, with DuckDB's `httpfs` extension from the tools venv:
  * `SELECT count(*) FROM read_parquet('<content URL>?format=parquet')`
  * a filtered scan that matches one row group: `… WHERE id BETWEEN a AND b`
and the bytes the server SENT for each query, counted by the server itself: every content
answer logs `content sent … bytes=N` when its body ends (crates/stone-server/src/routes/
range.rs). Reported as the fraction of the Parquet answer's size (HEAD's Content-Length).
The first read materialises the snapshot's Parquet file (not counted: a HEAD before the
queries does it). Times are printed for information only; nothing is asserted.

Usage: bench/ranges.py [--rows 30000000] [--group-rows 1000000] [--server BIN] [--dir DIR]
  The default size is ~1 GB of Parquet; `--rows 2000000 --group-rows 100000` is a quick run.
"""
import argparse, glob, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENT = re.compile(r"content sent.*bytes=(\d+)")


def tools_python():
    tools = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools"))
    python = tools / "venv/bin/python"
    if not python.exists():
        sys.exit(f"no tools venv at {python}: run scripts/install-tools (or set STONE_TOOLS_DIR)")
    return str(python)


def duckdb(python, sql_lines):
    """Runs SQL in DuckDB (tools venv) with httpfs loaded; returns the last query's rows."""
    script = r"""
import glob, json, os, sys, duckdb
root = os.path.join(os.path.dirname(os.path.dirname(duckdb.__file__)), "duckdb_ext", "extensions")
found = glob.glob(os.path.join(root, "*", "*", "httpfs.duckdb_extension"))
if not found:
    sys.exit("DuckDB's httpfs extension (PyPI duckdb-ext-httpfs) is missing: run scripts/install-tools")
con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute("SET enable_progress_bar = false")
con.execute(f"LOAD '{found[0]}'")
rows = None
for sql in json.loads(sys.argv[1]):
    rows = con.execute(sql).fetchall()
print("ROWS " + json.dumps(rows, default=str))
"""
    out = subprocess.run([python, "-c", script, json.dumps(sql_lines)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"duckdb failed: {out.stderr}")
    return json.loads([l for l in out.stdout.splitlines() if l.startswith("ROWS ")][-1][5:])


class Server:
    def __init__(self, binary, base: Path):
        self.data = Path(tempfile.mkdtemp(prefix="stone-bench-ranges-", dir=base))
        self.out = open(self.data / "server.out", "w+")
        self.log = self.data / "server.log"
        env = {"PATH": os.environ["PATH"], "STONE_SERVER_LOG": "info"}
        self.proc = subprocess.Popen([binary, "--data-dir", str(self.data / "d"), "--listen", "127.0.0.1:0",
                                      "--public-host", "bench.localhost"],
                                     stdout=self.out, stderr=open(self.log, "w"), env=env)
        for _ in range(600):
            self.out.seek(0)
            for line in self.out.read().splitlines():
                if line.startswith("stone-server listening on "):
                    self.url = line.split("listening on ", 1)[1].strip()
                    return
            time.sleep(0.05)
        sys.exit(f"stone-server did not start: {self.log.read_text()[-2000:]}")

    def sent(self):
        return sum(int(m.group(1)) for m in map(SENT.search, self.log.read_text().splitlines()) if m)

    def call(self, method, path, body=None, data=None, headers=None):
        req = urllib.request.Request(f"{self.url}{path}" if path.startswith("/") else path, method=method,
                                     data=json.dumps(body).encode() if body is not None else data,
                                     headers=headers or ({"content-type": "application/json"} if body is not None else {}))
        with urllib.request.urlopen(req) as r:
            text = r.read()
            return json.loads(text) if text and r.headers.get_content_type().endswith("json") else r

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def push_table(server: Server, path: Path):
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    size = path.stat().st_size
    manifest = {"namespace": "bench", "branch": "main",
                "options": {"yes": True, "force": False, "replace": False, "manual": False},
                "package": {"public": True, "metadata": {}},
                "datasets": [{"name": "events", "kind": "TABULAR", "metadata": {},
                              "files": [{"path": path.name, "sha256": digest, "size": size}]}]}
    created = server.call("POST", "/v1/pushes", body=manifest)
    with open(path, "rb") as f:
        for upload in created["uploads"]:
            parts = upload.get("parts") or [{"url": upload["url"], "offset": 0, "size": size}]
            for part in parts:
                f.seek(part["offset"])
                server.call("PUT", part["url"], data=f.read(part["size"]), headers=upload.get("headers", {}))
            if upload.get("parts"):
                server.call("POST", f"/v1/pushes/{created['push_id']}/uploads/{upload['sha256']}/complete")
    server.call("POST", f"/v1/pushes/{created['push_id']}/commit")
    while True:
        status = server.call("GET", f"/v1/pushes/{created['push_id']}")
        if status["state"] in ("succeeded", "failed"):
            if status["state"] == "failed":
                sys.exit(f"push failed: {json.dumps(status)[:2000]}")
            return
        time.sleep(0.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=30_000_000)
    ap.add_argument("--group-rows", type=int, default=1_000_000)
    ap.add_argument("--server", default=None, help="stone-server binary (default: build release)")
    ap.add_argument("--dir", default=None, help="where the data goes (default: a temporary directory)")
    args = ap.parse_args()
    if args.server is None:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        subprocess.run(["cargo", "build", "--release", "-q", "--workspace", "--bin", "stone-server"],
                       cwd=ROOT, check=True)
        args.server = str(target / "release/stone-server")
    python = tools_python()
    base = Path(args.dir or tempfile.mkdtemp(prefix="stone-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    table = base / "events.parquet"
    duckdb(python, [f"COPY (SELECT range AS id, md5(range::VARCHAR) AS label, random() AS x "
                    f"FROM range({args.rows})) TO '{table}' (FORMAT parquet, ROW_GROUP_SIZE {args.group_rows})"])
    server = Server(args.server, base)
    try:
        t = time.perf_counter()
        push_table(server, table)
        print(f"pushed {table.stat().st_size / 1e6:.1f} MB ({args.rows} rows) in {time.perf_counter() - t:.1f} s")
        content = f"{server.url}/v1/namespaces/bench/datasets/events/content?format=parquet"
        t = time.perf_counter()
        head = server.call("HEAD", content)
        size = int(head.headers["content-length"])
        print(f"Parquet answer: {size / 1e6:.1f} MB, materialised in {time.perf_counter() - t:.1f} s "
              f"(ETag {head.headers['etag']})")
        lo = args.rows // 2
        # The answer's row groups and the one holding `lo` (read before the measures).
        groups = duckdb(python, [
            f"SELECT row_group_id, sum(total_compressed_size), "
            f"max(CASE WHEN path_in_schema = 'id' THEN stats_min_value END), "
            f"max(CASE WHEN path_in_schema = 'id' THEN stats_max_value END) "
            f"FROM parquet_metadata('{content}') GROUP BY 1 ORDER BY 1"])
        matching = [g for g in groups if int(g[2]) <= lo <= int(g[3])]
        matching_bytes = sum(g[1] for g in matching)
        print(f"the answer has {len(groups)} row groups; the filter's rows are in {len(matching)} of them "
              f"({matching_bytes:,} bytes compressed)")
        queries = [
            ("count(*)", f"SELECT count(*) FROM read_parquet('{content}')", args.rows),
            ("filtered scan (1 row group)",
             f"SELECT count(*), sum(x) FROM read_parquet('{content}') WHERE id BETWEEN {lo} AND {lo + 999}", 1000),
        ]
        for label, sql, expected in queries:
            before = server.sent()
            t = time.perf_counter()
            rows = duckdb(python, [sql])
            took = time.perf_counter() - t
            time.sleep(0.3)  # the last body's line is written when it ends
            sent = server.sent() - before
            got = rows[0][0]
            check = "ok" if got == expected else f"WRONG (expected {expected})"
            print(f"{label:<30} answer {got} ({check}); server sent {sent:,} bytes = "
                  f"{100 * sent / size:.3f} % of the file; {took:.2f} s")
    finally:
        server.stop()
        if args.dir is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
