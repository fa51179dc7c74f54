#!/usr/bin/env python3
"""Replicas benchmark (issue 9): pushes per minute and bytes per second through 1, 2 and 3
`stone-server` replicas sharing PostgreSQL, SeaweedFS (staging and blob buckets), an
Oxigraph server and one warehouse directory, in one run.

For each replica count N, N fresh replicas start on the same shared engines (each N gets
its own namespace, so every run creates its tables anew); then --pushes packages (a table,
a graph and a blob each, --package-mb in total) are pushed at once with the `stone`
binary, spread round-robin over the replicas, at most --clients at a time. Reported: wall
time from the first push to the last result, pushes per minute, and package bytes per
second. Every push must succeed, or the run stops with its error.

What it needs: PostgreSQL's initdb/postgres (apt-get install postgresql), and the tools
venv (scripts/install-tools: weed, oxigraph). As root, PostgreSQL runs as `nobody`.
Binaries come from $CARGO_TARGET_DIR/<profile> (default: target/debug; --profile release
if you built with --release); the table says which.

Usage: bench/replicas.py [--pushes 12] [--clients 6] [--package-mb 4] [--profile debug]
"""
import argparse, concurrent.futures, json, os, pwd, secrets, shutil, signal, socket, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blob_store import free_port, start_weed  # noqa: E402  (same directory)

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools"))


def pg_bin():
    initdb = shutil.which("initdb")
    if initdb:
        return Path(os.path.realpath(initdb)).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not versions:
        sys.exit("PostgreSQL is not installed: apt-get install postgresql (scripts/install-tools does, as root)")
    return versions[-1]


def start_postgres(base: Path):
    base.mkdir(parents=True)
    bin = pg_bin()
    demote = None
    if os.geteuid() == 0:  # PostgreSQL refuses root
        nobody = pwd.getpwnam("nobody")
        os.chown(base, nobody.pw_uid, nobody.pw_gid)

        def demote():
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
    env = {**os.environ, "HOME": str(base)}
    subprocess.run([bin / "initdb", "-D", base / "data", "-U", "stone", "--auth=trust", "-E", "UTF8",
                    "--no-sync", "--no-instructions", "--locale=C"], preexec_fn=demote, env=env, check=True,
                   stdout=subprocess.DEVNULL, cwd=base)
    port = free_port()
    log = open(base / "postgres.log", "w")
    proc = subprocess.Popen([bin / "postgres", "-D", base / "data", "-p", str(port), "-h", "127.0.0.1", "-k", base,
                             "-c", "max_connections=200"], preexec_fn=demote, env=env, stdout=log, stderr=log,
                            start_new_session=True, cwd=base)
    for _ in range(600):
        if "ready to accept connections" in (base / "postgres.log").read_text():
            return proc, f"postgres://stone@127.0.0.1:{port}/postgres"
        time.sleep(0.1)
    sys.exit("PostgreSQL did not start: " + (base / "postgres.log").read_text()[-2000:])


def start_oxigraph(base: Path):
    port = free_port()
    proc = subprocess.Popen([TOOLS / "venv" / "bin" / "oxigraph", "serve", "--location", base / "oxigraph",
                             "--bind", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    sys.exit("the Oxigraph server did not start")


class Replica:
    def __init__(self, binary, base: Path, config: Path):
        self.data = Path(tempfile.mkdtemp(prefix="replica-", dir=base))
        self.out = open(self.data / "server.out", "w+")
        env = {k: v for k, v in os.environ.items() if not k.startswith("STONE_") and k not in ("CI", "CI_HEAD_REF", "CI_REF_NAME")}
        self.proc = subprocess.Popen([binary, "--data-dir", self.data / "d", "--listen", "127.0.0.1:0",
                                      "--config", config], stdout=self.out, stderr=open(self.data / "server.log", "w"),
                                     env=env, start_new_session=True)
        for _ in range(600):
            self.out.seek(0)
            for line in self.out.read().splitlines():
                if line.startswith("stone-server listening on "):
                    self.url = line.split("listening on ", 1)[1].strip()
                    return
            if self.proc.poll() is not None:
                sys.exit("stone-server exited: " + (self.data / "server.log").read_text()[-2000:])
            time.sleep(0.05)
        sys.exit("stone-server did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def make_package(dir: Path, index: int, namespace: str, total_bytes: int):
    """A table (CSV, ~half), a graph (~1/8) and a blob (the rest), unique to `index`."""
    dir.mkdir(parents=True)
    rows, csv = 0, ["id,label,value"]
    size = 0
    while size < total_bytes // 2:
        line = f"{rows},p{index}-row-{rows},{(rows * 7919 + index) % 1000003}"
        csv.append(line)
        size += len(line) + 1
        rows += 1
    (dir / "t.csv").write_text("\n".join(csv) + "\n")
    ttl = ["@prefix ex: <http://example.org/> ."]
    size = 0
    t = 0
    while size < total_bytes // 8:
        line = f"ex:p{index}-s{t} ex:value {t} ."
        ttl.append(line)
        size += len(line) + 1
        t += 1
    (dir / "g.ttl").write_text("\n".join(ttl) + "\n")
    (dir / "b.bin").write_bytes(os.urandom(total_bytes - total_bytes // 2 - total_bytes // 8))
    (dir / "datasets.yaml").write_text(
        f'name: bench\npublish: {{to: "stone:{namespace}"}}\nresources:\n  - path: t.csv\n  - path: g.ttl\n  - path: b.bin\n')
    return sum(p.stat().st_size for p in dir.iterdir() if p.is_file())


def run(stone, replicas, packages, clients, home: Path):
    cfg = home / "stone.toml"
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "STONE_CONFIG": str(cfg), "STONE_NO_PROGRESS": "1"}
    for i, r in enumerate(replicas):
        subprocess.run([stone, "env", "add", f"r{i}", "--host", "bench.localhost", "--api", f"{r.url}/v1", "-q"],
                       env=env, check=True)

    def push(i):
        pkg = packages[i]
        p = subprocess.run([stone, "package", "push", str(pkg), "--env", f"r{i % len(replicas)}", "--branch",
                            f"b{i:03d}", "--json"], env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"push {i} failed: {p.stderr[-2000:]}")
        return json.loads(p.stdout)

    t = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        list(pool.map(push, range(len(packages))))
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pushes", type=int, default=12)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--package-mb", type=float, default=4)
    ap.add_argument("--profile", default="debug")
    ap.add_argument("--dir", type=Path, default=None)
    a = ap.parse_args()
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / a.profile
    stone, server = target / "stone", target / "stone-server"
    for b in (stone, server):
        if not b.exists():
            sys.exit(f"{b} is missing: cargo build{' --release' if a.profile == 'release' else ''} -p stone -p stone-server")
    base = Path(tempfile.mkdtemp(prefix="stone-bench-replicas-", dir=a.dir))
    os.chmod(base, 0o755)  # PostgreSQL runs as nobody below it
    procs = []
    replicas = []
    try:
        pg, db_url = start_postgres(base / "pg")
        procs.append(pg)
        weed, aws = start_weed(Path(tempfile.mkdtemp(prefix="weed-", dir=base)))
        procs.append(weed)
        subprocess.run(["aws", "s3", "mb", "s3://bench-blobs"], env=aws, check=True, capture_output=True)
        ox, ox_url = start_oxigraph(base)
        procs.append(ox)
        warehouse = base / "warehouse"
        warehouse.mkdir()

        def s3(bucket, prefix):
            return (f'endpoint = "{aws["AWS_ENDPOINT"]}"\nbucket = "{bucket}"\nprefix = "{prefix}"\nregion = "us-east-1"\n'
                    f'access_key_id = "{aws["AWS_ACCESS_KEY_ID"]}"\nsecret_access_key = "{aws["AWS_SECRET_ACCESS_KEY"]}"\n'
                    'allow_http = true\n')
        config = base / "server.toml"
        config.write_text(
            f'public_host = "bench.localhost"\n[database]\nurl = "{db_url}"\n[iceberg]\nwarehouse = "{warehouse}"\ncommit_attempts = 40\n'
            f'[graph]\nremote_url = "{ox_url}"\n[staging]\nstore = "s3"\npart_size = 5242880\n[staging.s3]\n'
            f'{s3("bench", "uploads/")}[blob]\nstore = "s3"\n[blob.s3]\n{s3("bench-blobs", "datasets")}')

        results = []
        for n in (1, 2, 3):
            namespace = f"bench{n}"
            packages, total = [], 0
            for i in range(a.pushes):
                pkg = base / f"packages-{n}" / f"p{i:03d}"
                total += make_package(pkg, i + 100 * n, namespace, int(a.package_mb * (1 << 20)))
                packages.append(pkg)
            replicas = [Replica(server, base, config) for _ in range(n)]
            home = Path(tempfile.mkdtemp(prefix=f"home-{n}-", dir=base))
            elapsed = run(stone, replicas, packages, a.clients, home)
            for r in replicas:
                r.stop()
            replicas = []
            results.append((n, a.pushes, total, elapsed))
    finally:
        for r in replicas:
            r.stop()
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        shutil.rmtree(base, ignore_errors=True)

    print(f"\nreplicas benchmark: {a.pushes} pushes of {a.package_mb:g} MiB (table + graph + blob), "
          f"{a.clients} clients at a time, {a.profile} profile, {os.cpu_count()} cores")
    print(f"{'replicas':>8}  {'wall s':>8}  {'pushes/min':>10}  {'MB/s':>8}  {'vs 1':>6}")
    base_rate = None
    for n, pushes, total, elapsed in results:
        rate = pushes / elapsed * 60
        base_rate = base_rate or rate
        print(f"{n:>8}  {elapsed:>8.1f}  {rate:>10.1f}  {total / elapsed / 1e6:>8.2f}  {rate / base_rate:>6.2f}")


if __name__ == "__main__":
    main()
