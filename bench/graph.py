#!/usr/bin/env python3
"""Graph benchmark (issue 24): a large N-Triples file pushed with stone into the embedded
graph store of a fresh stone-server, next to `oxigraph load` (PyPI `oxigraph`, the same
RocksDB store and bulk loader) loading the same file, in one run.

The file is generated (deterministic): `--lines` N-Triples lines (default 2,000,000, about
190 MB; 20 % of the lines repeat an earlier one, as in the issue's file). For each run:
  * stone: `stone package push` of a package holding the file (GRAPH dataset), to a fresh
    server: the whole push (upload, commit, the graph load), wall time; the server's peak
    RSS during it (VmHWM of the fresh process);
  * oxigraph: `oxigraph load --location <new dir> --file <file>`, wall time and peak RSS
    (the triples go to the default graph: three indexes per triple), and the same with
    `--graph <iri>` (into a named graph, as stone's store keeps a dataset: six indexes per
    triple, the same work as stone's commit);
  * where stone's push goes, from the server's log: the client until its manifest arrives
    (hashing and RDF validation), the upload until the commit is asked, the commit's bulk
    load (parse and index; a new graph is counted on the way in, beside it) and the count
    after it (a graph replaced or versioned: its staging graph read back), the rest of the
    commit;
  * append: a push of a one-triple file to the same dataset (an append), end to end;
  * restart: the server stopped (SIGTERM) and started again on its data directory, time
    until it prints that it listens;
  * the graph's triple count read back through SPARQL (`/v1/sparql`), checked against
    what `oxigraph load` counts.
Prints medians; ratios are what to compare (the machine is shared): push throughput
ratio = oxigraph's time / stone's time (target >= 0.9); append < 1 s; server peak RSS
< 1 GB and flat from 2 M to 20 M lines; restart < 2 s.

Usage: bench/graph.py [--lines 2000000] [--runs 3] [--bin-dir DIR] [--dir DIR] [--bulk-load-memory-mb N]
  --lines 20000000 for the 20 M case (about 1.9 GB of N-Triples; raises the server's
  [graph] max_file_bytes for it).

Many graphs (issue 56): bench/graph.py --case many [--graphs 2000,20000] [--runs 1] [--queries 200]
  For each count N: a package of N GRAPH resources of 50 triples (one N-Triples file each),
  pushed with stone to a fresh server, against `oxigraph load` of the same quads (one
  N-Quads file, the graph names stone gives them) into a new store, and against the push's
  fixed cost (a push of one such resource to a fresh server, same run). Prints the
  ratio (oxigraph load + fixed cost) / stone (target >= 0.5) and stone's cost per graph
  beyond the fixed cost (linear or better from the smallest N to the largest).
  Then SPARQL on the largest store: the stone server restarted on its data in `oidc` mode
  (an issuer served by this script: discovery and JWKS, tokens signed with `openssl`), the
  package public, against `oxigraph serve` on the `oxigraph load` store of the same quads:
  median latency of a count of one graph and of a lookup by a literal (`GRAPH ?g`), over
  --queries requests each on one kept-alive connection, anonymous and with a token;
  target: stone <= 2 x `oxigraph serve`. stone is asked once right after the restart (its
  store may still be compacting what the push loaded) and again once the server is idle.
"""
import argparse, json, os, resource, shutil, signal, statistics, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
E = "http://example.org/bench/"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"


def line(j, subjects):
    s, k = divmod(j, 5)
    if k == 0:
        return f"<{E}r{s}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{E}Class{s % 97}> .\n"
    if k == 1:
        return f'<{E}r{s}> <{E}label> "Resource number {s} of the generated benchmark graph"@en .\n'
    if k == 2:
        return f'<{E}r{s}> <{E}value> "{(s * 2654435761) % 1000003}"^^<{XSD_INTEGER}> .\n'
    if k == 3:
        return f"<{E}r{s}> <{E}link> <{E}r{(s * 48271) % subjects}> .\n"
    return f'<{E}r{s}> <{E}comment> "a literal of the benchmark {s:x}" .\n'


def make_file(path: Path, lines: int):
    """`lines` lines; the last fifth repeat earlier lines (distinct triples: 0.8 x lines)."""
    if path.exists() and path.stat().st_size > 0 and path.with_suffix(".done").exists():
        return
    distinct = lines * 4 // 5
    subjects = max(1, distinct // 5)
    with open(path, "w") as f:
        buf = []
        for i in range(lines):
            j = i if i < distinct else (i * 7919) % distinct
            buf.append(line(j, subjects))
            if len(buf) >= 100_000:
                f.write("".join(buf))
                buf.clear()
        f.write("".join(buf))
    path.with_suffix(".done").write_text("")


def tools_bin(name):
    tools = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools"))
    found = tools / "venv/bin" / name
    if not found.exists():
        sys.exit(f"no {name} at {found}: run scripts/install-tools (or set STONE_TOOLS_DIR)")
    return str(found)


class Server:
    def __init__(self, binary, data: Path, config: Path):
        self.binary, self.data, self.config = binary, data, config
        self.start()

    def start(self):
        self.out = open(self.data / "server.out", "a+")
        t = time.perf_counter()
        self.proc = subprocess.Popen([self.binary, "--data-dir", str(self.data / "d"), "--listen", "127.0.0.1:0",
                                      "--config", str(self.config)],
                                     stdout=self.out, stderr=open(self.data / "server.err", "a"))
        while time.perf_counter() - t < 120:
            self.out.seek(0)
            for l in reversed(self.out.read().splitlines()):
                if l.startswith("stone-server listening on "):
                    self.url = l.split("listening on ", 1)[1].strip()
                    self.started = time.perf_counter() - t
                    self.out.truncate(0)
                    return
            if self.proc.poll() is not None:
                sys.exit(f"stone-server exited: {(self.data / 'server.err').read_text()[-2000:]}")
            time.sleep(0.01)
        sys.exit("stone-server did not start")

    def cpu(self):
        """The server's CPU seconds so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def wait_idle(self, limit=300):
        """Waits until the server uses under a tenth of a core over two seconds (RocksDB's
        background compaction of what the push loaded is done), at most `limit` seconds;
        returns the seconds waited."""
        t = time.perf_counter()
        while time.perf_counter() - t < limit:
            before = self.cpu()
            time.sleep(2)
            if self.cpu() - before < 0.2:
                break
        return time.perf_counter() - t

    def peak_rss(self):
        for l in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if l.startswith("VmHWM:"):
                return int(l.split()[1]) * 1024
        return 0

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def count_all(self):
        """Triples in every graph the server lets this caller read."""
        body = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
        req = urllib.request.Request(f"{self.url}/v1/sparql", data=body.encode(),
                                     headers={"content-type": "application/sparql-query",
                                              "accept": "application/sparql-results+json"})
        answer = json.load(urllib.request.urlopen(req, timeout=600))
        return int(answer["results"]["bindings"][0]["n"]["value"])

    def count(self, graph):
        body = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
        req = urllib.request.Request(f"{self.url}/v1/sparql", data=body.encode(),
                                     headers={"content-type": "application/sparql-query",
                                              "accept": "application/sparql-results+json"})
        answer = json.load(urllib.request.urlopen(req, timeout=600))
        return int(answer["results"]["bindings"][0]["n"]["value"])


def push(stone, server: Server, pkg: Path, base: Path):
    cfg = base / "stone.toml"
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "STONE_CONFIG": str(cfg), "STONE_NO_PROGRESS": "1"}
    cfg.unlink(missing_ok=True)
    subprocess.run([stone, "env", "add", "local", "--host", "bench.localhost", "--api", f"{server.url}/v1", "-q"],
                   env=env, check=True)
    shutil.rmtree(pkg / ".stone", ignore_errors=True)
    wall = time.time()
    cpu = server.cpu()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([stone, "package", "push", str(pkg), "--env", "local", "--branch", "bench", "--json"],
                       env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"stone push failed: {p.stderr[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, (wall, time.time()), (client_cpu, server.cpu() - cpu)


def package(dir: Path, source: Path, name="graph"):
    dir.mkdir(parents=True, exist_ok=True)
    target = dir / "graph.nt"
    if not target.exists():
        os.link(source, target) if source.stat().st_dev == dir.stat().st_dev else shutil.copy(source, target)
    (dir / "datasets.yaml").write_text(
        f'publish: {{to: "stone:bench"}}\nresources:\n  - path: graph.nt\n    name: {name}\n    kind: GRAPH\n')
    return dir


def oxigraph_load(oxigraph, file: Path, base: Path, graph=None):
    location = Path(tempfile.mkdtemp(prefix="oxigraph-", dir=base))
    into = ["--graph", graph] if graph else []
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", oxigraph, "load", "--location", str(location), "--file", str(file)]
                       + into, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"oxigraph load failed: {p.stderr[-2000:]}")
    user, system, rss = p.stderr.strip().splitlines()[-1].split()
    cpu, rss = float(user) + float(system), int(rss) * 1024
    pattern = f"GRAPH <{graph}> {{ ?s ?p ?o }}" if graph else "?s ?p ?o"
    q = subprocess.run([oxigraph, "query", "--location", str(location), "--query", f"SELECT (COUNT(*) AS ?n) {{ {pattern} }}",
                        "--results-format", "tsv"], capture_output=True, text=True)
    count = int(q.stdout.strip().splitlines()[-1].split("^^")[0].strip('"')) if q.returncode == 0 else -1
    shutil.rmtree(location, ignore_errors=True)
    return elapsed, rss, count, cpu


def log_time(line):
    """The timestamp of a stone-server log line (`2026-11-26T20:49:34.922148Z  INFO ...`)."""
    stamp = line.split()[0].rstrip("Z")
    day, clock = stamp.split("T")
    h, m, sec = clock.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


def phases(server_err: Path, started_wall: float, finished_wall: float):
    """Where the push went, from the server's log lines of the last push: seconds for the
    client before its manifest, the upload, the bulk load, the count, the commit's rest and
    the answer back to the client."""
    lines = server_err.read_text().splitlines()
    def last(marker):
        found = [l for l in lines if marker in l]
        return found[-1] if found else None
    manifest, commit, started = last("push manifest accepted"), last("commit accepted"), last("commit started")
    loaded, done = last("graph bulk-loaded"), last("commit succeeded")
    if not (manifest and commit and started and loaded and done):
        return None
    fields = dict(f.split("=", 1) for f in loaded.split() if "=" in f)
    load, count = int(fields["load_ms"]) / 1000, int(fields["count_ms"]) / 1000
    t_manifest, t_commit, t_done = log_time(manifest), log_time(commit), log_time(done)
    # the log's clock is UTC: seconds of the day, as time.time() modulo a day
    started_wall, finished_wall = started_wall % 86400, finished_wall % 86400
    return {
        "client until manifest": t_manifest - started_wall,
        "upload": t_commit - t_manifest,
        "bulk load (parse, index, ingest, count)": load,
        "count after the load": count,
        "rest of the commit": (t_done - t_commit) - load - count,
        "answer to the client": finished_wall - t_done,
    }


MANY_TRIPLES = 50


def many_graph_iri(i):
    return f"https://localhost/bench/e{i}/branch/bench"  # the default public_host


def many_package(base: Path, n: int):
    """N one-file GRAPH resources of MANY_TRIPLES triples, public, and the same quads as
    one N-Quads file named as stone names the graphs."""
    pkg, quads = base / f"many-{n}", base / f"many-{n}.nq"
    if (pkg / "datasets.yaml").exists() and quads.exists():
        return pkg, quads
    shutil.rmtree(pkg, ignore_errors=True)
    (pkg / "g").mkdir(parents=True)
    resources, nq = [], []
    for i in range(n):
        triples = [f'<{E}e{i}> <{E}p{j}> "value {j} of entity {i}" .' for j in range(MANY_TRIPLES)]
        (pkg / "g" / f"e{i}.nt").write_text("\n".join(triples) + "\n")
        resources.append(f"  - path: g/e{i}.nt\n    name: e{i}\n    kind: GRAPH\n")
        nq.extend(t[:-1] + f"<{many_graph_iri(i)}> .\n" for t in triples)
    (pkg / "datasets.yaml").write_text(
        'publish: {to: "stone:bench", public: true}\nresources:\n' + "".join(resources))
    quads.write_text("".join(nq))
    return pkg, quads


class Issuer:
    """A minimal OpenID issuer on loopback for the SPARQL case: discovery and JWKS served
    over HTTP, RS256 access tokens signed with `openssl` (no Python crypto package needed)."""
    def __init__(self, base: Path):
        import base64, http.server, threading
        self.dir = base / "issuer"
        self.dir.mkdir(exist_ok=True)
        self.key = self.dir / "key.pem"
        subprocess.run(["openssl", "genrsa", "-out", str(self.key), "2048"], check=True, capture_output=True)
        modulus = subprocess.run(["openssl", "rsa", "-in", str(self.key), "-noout", "-modulus"],
                                 check=True, capture_output=True, text=True).stdout.strip().split("=", 1)[1]
        b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        self.b64 = b64
        jwks = {"keys": [{"kty": "RSA", "kid": "bench", "alg": "RS256", "use": "sig",
                          "n": b64(bytes.fromhex(modulus)), "e": b64((65537).to_bytes(3, "big"))}]}
        issuer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/.well-known/openid-configuration":
                    body = {"issuer": issuer.url, "jwks_uri": f"{issuer.url}/jwks",
                            "authorization_endpoint": f"{issuer.url}/auth", "token_endpoint": f"{issuer.url}/token"}
                elif self.path == "/jwks":
                    body = jwks
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def token(self, audience):
        header = {"alg": "RS256", "typ": "at+jwt", "kid": "bench"}
        now = int(time.time())
        claims = {"iss": self.url, "aud": audience, "sub": "bench-reader", "iat": now, "exp": now + 3600}
        signing = ".".join(self.b64(json.dumps(part).encode()) for part in (header, claims))
        signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", str(self.key)], input=signing.encode(),
                                   check=True, capture_output=True).stdout
        return f"{signing}.{self.b64(signature)}"

    def stop(self):
        self.httpd.shutdown()


def latencies(url, path, queries, token=None, count=200):
    """Median seconds of each query, asked `count` times in turn (after a warm-up of ten) on
    one kept-alive connection, then the same `count` queries again; each answer checked to
    be a 200 with bindings. Returns {name: (first pass, second pass)}: the first pass
    touches graphs that no query read before in this process (the store's block cache
    cold for them), the second the same graphs again (warm)."""
    import http.client, urllib.parse
    target = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
    headers = {"content-type": "application/sparql-query", "accept": "application/sparql-results+json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    def ask(query):
        t = time.perf_counter()
        conn.request("POST", path, body=query.encode(), headers=headers)
        answer = conn.getresponse()
        body = answer.read()
        elapsed = time.perf_counter() - t
        if answer.status != 200:
            sys.exit(f"{url}{path}: {answer.status} {body[:500]!r} for {query}")
        return elapsed, json.loads(body)["results"]["bindings"]
    medians = {}
    for name, make in queries.items():
        for k in range(10):
            ask(make(k))
        passes = []
        for _ in range(2):
            times = []
            for k in range(count):
                elapsed, rows = ask(make(k))
                if not rows:
                    sys.exit(f"{url}{path}: no answer to {make(k)}")
                times.append(elapsed)
            passes.append(statistics.median(times))
        medians[name] = tuple(passes)
    conn.close()
    return medians


def oxigraph_serve(oxigraph, location: Path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([oxigraph, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(f"{url}/query?query=ASK%7B%7D", timeout=5).read()
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("oxigraph serve did not answer")


def many_main(args, stone, server_bin, oxigraph, base: Path):
    counts = [int(n) for n in args.graphs.split(",")]
    config = base / "server-many.toml"
    config.write_text("")
    one_pkg, _ = many_package(base, 1)
    results = {}
    kept = None
    for n in counts:
        print(f"generating {n:,} graphs ...", file=sys.stderr)
        pkg, quads = many_package(base, n)
        rows = {"stone": [], "oxigraph": [], "fixed": []}
        for run in range(args.runs):
            subprocess.run(["sync"])
            location = Path(tempfile.mkdtemp(prefix="oxigraph-many-", dir=base))
            t = time.perf_counter()
            subprocess.run([oxigraph, "load", "--location", str(location), "--file", str(quads)],
                           check=True, capture_output=True)
            rows["oxigraph"].append(time.perf_counter() - t)
            for label, package_dir in (("fixed", one_pkg), ("stone", pkg)):
                subprocess.run(["sync"])
                data = Path(tempfile.mkdtemp(prefix="stone-bench-many-", dir=base))
                server = Server(server_bin, data, config)
                try:
                    elapsed, _, _ = push(stone, server, package_dir, base)
                    rows[label].append(elapsed)
                    if label == "stone":
                        total = server.count_all()
                        if total != n * MANY_TRIPLES:
                            sys.exit(f"stone holds {total} triples in its graphs, not {n * MANY_TRIPLES}")
                finally:
                    server.stop()
                last = run == args.runs - 1 and n == counts[-1] and label == "stone"
                if last and not args.no_sparql:
                    kept = (data, location)
                else:
                    shutil.rmtree(data, ignore_errors=True)
            if kept is None or kept[1] != location:
                shutil.rmtree(location, ignore_errors=True)
            print(f"{n} graphs, run {run + 1}: stone {rows['stone'][-1]:.2f} s, oxigraph load {rows['oxigraph'][-1]:.2f} s, "
                  f"fixed cost {rows['fixed'][-1]:.2f} s", file=sys.stderr)
        results[n] = {k: statistics.median(v) for k, v in rows.items()}
    print(f"many graphs: {MANY_TRIPLES} triples each (one N-Triples file per GRAPH resource), medians of {args.runs}")
    print(f"{'graphs':>8} {'stone s':>9} {'ox load s':>10} {'fixed s':>8} {'ratio':>6} {'ms/graph':>9}")
    for n, r in results.items():
        ratio = (r["oxigraph"] + r["fixed"]) / r["stone"]
        per_graph = (r["stone"] - r["fixed"]) / n * 1000
        print(f"{n:>8,} {r['stone']:9.2f} {r['oxigraph']:10.2f} {r['fixed']:8.2f} {ratio:6.2f} {per_graph:9.2f}")
    print("ratio = (oxigraph load + the push's fixed cost) / stone push (target >= 0.5); "
          "ms/graph = (stone - fixed) / graphs (linear or better: flat or falling)")
    if kept:
        sparql_main(args, server_bin, oxigraph, base, counts[-1], *kept)


def sparql_main(args, server_bin, oxigraph, base: Path, n: int, data: Path, location: Path):
    import random
    rng = random.Random(56)
    picks = [rng.randrange(n) for _ in range(1000)]
    queries = {
        "count one graph": lambda k: f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{many_graph_iri(picks[k % 1000])}> {{ ?s ?p ?o }} }}",
        "lookup by a literal": lambda k: f'SELECT ?g ?s WHERE {{ GRAPH ?g {{ ?s ?p "value 7 of entity {picks[k % 1000]}" }} }}',
    }
    issuer = Issuer(base)
    audience = "https://bench.localhost/api"
    config = base / "server-oidc.toml"
    config.write_text(f'[auth]\nmode = "oidc"\nissuer = "{issuer.url}"\naudience = "{audience}"\n')
    server = Server(server_bin, data, config)
    proc, ox_url = oxigraph_serve(oxigraph, location)
    try:
        token = issuer.token(audience)
        # Right after the push (and the restart), RocksDB may still be merging the level-0
        # files the push's loads left, which every read opens meanwhile; then once it is done.
        early = latencies(server.url, "/v1/sparql", queries, count=args.queries)
        waited = server.wait_idle()
        stone_anon = latencies(server.url, "/v1/sparql", queries, count=args.queries)
        stone_auth = latencies(server.url, "/v1/sparql", queries, token=token, count=args.queries)
        ox = latencies(ox_url, "/query", queries, count=args.queries)
    finally:
        server.stop()
        proc.terminate()
        proc.wait()
        issuer.stop()
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(location, ignore_errors=True)
    print(f"\nSPARQL on {n:,} graphs ({n * MANY_TRIPLES:,} triples), median ms of {args.queries} queries each")
    print("right after the push, while the store compacts (stone anonymous, first / second pass; "
          "then waited {:.0f} s for the server to be idle):".format(waited))
    for name in queries:
        a1, a2 = early[name][0] * 1000, early[name][1] * 1000
        o1, o2 = ox[name][0] * 1000, ox[name][1] * 1000
        print(f"  {name:<22} {a1:.2f} / {a2:.2f} ms against oxigraph serve {o1:.2f} / {o2:.2f}: {a1 / o1:.2f} / {a2 / o2:.2f}")
    print("once compacted:")
    print("first pass: graphs no query of this process read before (each server asked in turn: stone")
    print("anonymous, stone with a token over the same graphs, oxigraph serve); second pass: the same again")
    print(f"{'query':<22} {'pass':<7} {'stone anon':>11} {'stone token':>12} {'oxigraph serve':>15} {'anon/ox':>8} {'token/ox':>9}")
    for name in queries:
        for i, label in enumerate(("first", "second")):
            a, t, o = stone_anon[name][i] * 1000, stone_auth[name][i] * 1000, ox[name][i] * 1000
            print(f"{name:<22} {label:<7} {a:11.2f} {t:12.2f} {o:15.2f} {a / o:8.2f} {t / o:9.2f}")
    print("target: stone <= 2 x oxigraph serve (ratios <= 2); the token's first pass reads graphs the")
    print("anonymous passes already read: compare it with the second passes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.environ.get("STONE_BENCH_DIR", "/tmp/stone-bench"))
    ap.add_argument("--lines", type=int, default=2_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bin-dir", default=None, help="folder with release stone and stone-server (default: build them)")
    ap.add_argument("--bulk-load-memory-mb", type=int, default=None,
                    help="the server's [graph] bulk_load_memory_mb (default: the server's default)")
    ap.add_argument("--case", choices=["large", "many"], default="large",
                    help="large: one large graph (issue 24); many: many small graphs and SPARQL over them (issue 56)")
    ap.add_argument("--graphs", default="2000,20000", help="many: the graph counts, comma-separated")
    ap.add_argument("--queries", type=int, default=200, help="many: requests per query kind and caller")
    ap.add_argument("--no-sparql", action="store_true", help="many: skip the SPARQL case")
    args = ap.parse_args()
    if args.bin_dir:
        bins = Path(args.bin_dir)
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/stone/target"))
        subprocess.run(["cargo", "build", "--release", "-q", "--workspace"], cwd=ROOT, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": str(target)})
        bins = target / "release"
    stone, server_bin = str(bins / "stone"), str(bins / "stone-server")
    oxigraph = tools_bin("oxigraph")
    base = Path(args.dir) / "graph"
    base.mkdir(parents=True, exist_ok=True)
    if args.case == "many":
        many_main(args, stone, server_bin, oxigraph, base)
        return
    source = base / f"bench-{args.lines}.nt"
    print(f"generating {args.lines:,} lines ...", file=sys.stderr)
    make_file(source, args.lines)
    size = source.stat().st_size
    pkg = package(base / f"pkg-{args.lines}", source)
    one = base / "one"
    one.mkdir(exist_ok=True)
    (one / "graph.nt").write_text(f"<{E}appended> <{E}label> \"one more triple\" .\n")
    (one / "datasets.yaml").write_text(
        'publish: {to: "stone:bench"}\nresources:\n  - path: graph.nt\n    name: graph\n    kind: GRAPH\n')
    config = base / "server.toml"
    bulk = f"bulk_load_memory_mb = {args.bulk_load_memory_mb}\n" if args.bulk_load_memory_mb else ""
    config.write_text(f"[graph]\nmax_file_bytes = {max(size * 2, 1 << 30)}\n{bulk}")
    graph_iri = "https://localhost/bench/graph/branch/bench"  # the default public_host
    rows = {k: [] for k in ("stone", "oxigraph", "oxigraph_named", "stone_rss", "oxigraph_rss",
                            "oxigraph_named_rss", "append", "restart", "stone_cpu", "stone_client_cpu",
                            "oxigraph_cpu", "oxigraph_named_cpu")}
    breakdown = []
    counts = set()
    for run in range(args.runs):
        subprocess.run(["sync"])
        t, rss, ox_count, cpu = oxigraph_load(oxigraph, source, base)
        rows["oxigraph"].append(t)
        rows["oxigraph_rss"].append(rss)
        rows["oxigraph_cpu"].append(cpu)
        subprocess.run(["sync"])
        t, rss, named_count, cpu = oxigraph_load(oxigraph, source, base, graph=graph_iri)
        rows["oxigraph_named"].append(t)
        rows["oxigraph_named_rss"].append(rss)
        rows["oxigraph_named_cpu"].append(cpu)
        if named_count != ox_count:
            sys.exit(f"oxigraph counts {ox_count} triples in the default graph but {named_count} in a named graph")
        subprocess.run(["sync"])
        data = Path(tempfile.mkdtemp(prefix="stone-bench-graph-", dir=base))
        server = Server(server_bin, data, config)
        try:
            t, (began, ended), (client_cpu, server_cpu) = push(stone, server, pkg, base)
            rows["stone"].append(t)
            rows["stone_cpu"].append(client_cpu + server_cpu)
            rows["stone_client_cpu"].append(client_cpu)
            rows["stone_rss"].append(server.peak_rss())
            split = phases(data / "server.err", began, ended)
            if split:
                breakdown.append(split)
            n = server.count(graph_iri)
            t, _, _ = push(stone, server, one, base)
            rows["append"].append(t)
            after = server.count(graph_iri)
            server.stop()
            server.start()
            rows["restart"].append(server.started)
            again = server.count(graph_iri)
            counts.add((ox_count, n, after, again))
            if not (n == ox_count and after == n + 1 and again == after):
                sys.exit(f"counts disagree: oxigraph {ox_count}, stone {n}, after the append {after}, after restart {again}")
        finally:
            server.stop()
            shutil.rmtree(data, ignore_errors=True)
        print(f"run {run + 1}: stone {rows['stone'][-1]:.2f} s, oxigraph {rows['oxigraph'][-1]:.2f} s, "
              f"oxigraph --graph {rows['oxigraph_named'][-1]:.2f} s, "
              f"append {rows['append'][-1]:.2f} s, restart {rows['restart'][-1]:.2f} s", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"file: {args.lines:,} lines, {size / 1e6:.0f} MB, {sorted(counts)[0][0]:,} distinct triples (read back by SPARQL)")
    print(f"{'':<28} {'stone':>10} {'oxigraph load':>14} {'load --graph':>13}")
    print(f"{'push / load s':<28} {med['stone']:10.2f} {med['oxigraph']:14.2f} {med['oxigraph_named']:13.2f}")
    print(f"{'throughput MB/s':<28} {size / 1e6 / med['stone']:10.1f} {size / 1e6 / med['oxigraph']:14.1f} "
          f"{size / 1e6 / med['oxigraph_named']:13.1f}")
    print(f"{'CPU s (user + system)':<28} {med['stone_cpu']:10.2f} {med['oxigraph_cpu']:14.2f} "
          f"{med['oxigraph_named_cpu']:13.2f}")
    print(f"{'  of which the client':<28} {med['stone_client_cpu']:10.2f}")
    print(f"{'peak RSS MB':<28} {med['stone_rss'] / 1e6:10.0f} {med['oxigraph_rss'] / 1e6:14.0f} "
          f"{med['oxigraph_named_rss'] / 1e6:13.0f}")
    print(f"{'append one triple s':<28} {med['append']:10.3f}")
    print(f"{'restart to listening s':<28} {med['restart']:10.3f}")
    if breakdown:
        print("\nstone's push, medians (seconds):")
        for key in breakdown[0]:
            print(f"  {key:<34} {statistics.median(b[key] for b in breakdown):7.2f}")
    print(f"\npush throughput ratio (oxigraph time / stone time): {med['oxigraph'] / med['stone']:.2f}  (target >= 0.9)")
    print(f"against `oxigraph load --graph` (the same six indexes): {med['oxigraph_named'] / med['stone']:.2f}")
    if breakdown:
        load = statistics.median(b["bulk load (parse, index, ingest, count)"] for b in breakdown)
        print(f"the server's bulk load alone against `oxigraph load`: {med['oxigraph'] / load:.2f} "
              f"(the rest of the push is the client's work and the upload, on the same cores)")
    print(f"CPU time ratios (steadier on a shared machine): {med['oxigraph_cpu'] / med['stone_cpu']:.2f} "
          f"against `oxigraph load`, {med['oxigraph_named_cpu'] / med['stone_cpu']:.2f} against `--graph`")
    print("targets: append < 1 s, server peak RSS < 1 GB (flat from 2 M to 20 M), restart < 2 s")


if __name__ == "__main__":
    main()
