#!/usr/bin/env python3
"""Many-files benchmark (issue 27): a package whose size is its count of files.

Two packages, small files of 128 bytes (distinct contents):
  * folder: N files in one BLOB folder resource (one dataset; default 1,000,000, `--files`);
  * resources: M one-file resources (M datasets; default 100,000, `--resources`).
For each, against a fresh local stone-server (release builds):
  * stone, first push (its hash cache warmed by a dry run before): wall time, client peak
    RSS (`/usr/bin/time`), server peak RSS (VmHWM);
  * stone, unchanged re-push to the same server (target < 10 s);
  * stone `--dry-run` with a warm hash cache (target < 5 s), its peak RSS (target < 150 MB);
  * curl: one `curl --parallel` process PUTting every file to the staging URLs a fresh
    server handed out for the same files (upload only; the URLs are asked for beforehand,
    untimed), the physical reference: curl/stone >= 0.9 is the target.
The folder case also goes the blob-store path: `stone package push --to s3://…` to a fresh
SeaweedFS (`weed` from STONE_TOOLS_DIR), first push and unchanged re-push, against
`aws s3 sync` of the same folder to the same bucket (`aws` on PATH: pip install awscli) in
the same run; `--no-blob-store` skips it.

Usage: bench/many.py [--dir DIR] [--files N] [--resources M] [--jobs 8] [--bin-dir DIR]
                     [--case folder|resources|all] [--no-curl] [--no-blob-store | --blob-store-only] [--no-aws]
                     [--rtt-ms MS]
With --rtt-ms, stone and curl reach the server through a proxy that adds that round-trip
time (a Python asyncio proxy in this process; loopback has none, and this kernel no netem).
Stone sends small contents in packs (issue 27) where curl sends one request per file.
"""
import argparse, hashlib, json, os, shutil, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from push import Server as _Server, TRASH, empty_trash  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZE = 128
BATCH = 10_000


class Server(_Server):
    """A stone-server whose limits take the package (more than 200,000 contents or 50,000
    datasets in one push)."""

    def __init__(self, binary, base: Path, rtt_ms: float = 0):
        cfg = Path(tempfile.mkdtemp(prefix="stone-bench-cfg-", dir=base)) / "server.toml"
        text = "[limits]\nmax_contents = 10000000\nmax_datasets = 1000000\n"
        # With a round-trip time: the clients (stone, curl) reach the server, uploads
        # included, through a proxy that delays every byte by half of it each way.
        self.proxy = LatencyProxy(rtt_ms / 1000) if rtt_ms else None
        if self.proxy:
            text += f'[staging]\nbase_url = "{self.proxy.url}"\n'
        cfg.write_text(text)
        os.environ["STONE_SERVER_CONFIG"] = str(cfg)
        try:
            super().__init__(binary, base)
        finally:
            del os.environ["STONE_SERVER_CONFIG"]
        if self.proxy:
            self.proxy.target = self.url.removeprefix("http://").rsplit(":", 1)
            self.client_url = self.proxy.url
        else:
            self.client_url = self.url

    def peak_rss(self):
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0


class LatencyProxy:
    """A TCP proxy on loopback that delivers every byte half of `rtt` seconds after it came,
    in both directions, in order: the network a real client has
    between it and the platform, which loopback lacks (this machine's kernel has no netem)."""

    def __init__(self, rtt: float):
        import asyncio, threading
        self.delay, self.target = rtt / 2, None
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
            self.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait()

    async def _handle(self, client_r, client_w):
        import asyncio
        host, port = self.target
        server_r, server_w = await asyncio.open_connection(host, int(port))
        await asyncio.gather(self._pipe(client_r, server_w), self._pipe(server_r, client_w),
                             return_exceptions=True)
        for w in (client_w, server_w):
            w.close()

    async def _pipe(self, reader, writer):
        import asyncio
        queue = asyncio.Queue()

        async def send():
            while True:
                due, data = await queue.get()
                wait = due - self.loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(send())
        try:
            while True:
                data = await reader.read(1 << 16)
                queue.put_nowait((self.loop.time() + self.delay, data))
                if not data:
                    break
        finally:
            await sender


def _write_dirs(args):
    """Writes the files of the directories `first..last` (1,000 files each) of `files`."""
    files, first, last, count, old, pad, distinct = args
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    for d in range(first, last):
        sub = os.path.join(files, f"{d:04d}")
        os.makedirs(sub, exist_ok=True)
        for i in range(d * 1000, min(count, (d + 1) * 1000)):
            fd = os.open(os.path.join(sub, f"f{i:07d}.bin"), flags, 0o644)
            try:
                os.write(fd, (i % distinct).to_bytes(8, "little") + pad[8:])
                os.utime(fd, (old, old))
            finally:
                os.close(fd)


def make_package(dir: Path, count: int, folder: bool, distinct: int = 0):
    """`count` files of SIZE bytes, distinct contents, written once (an hour in the past:
    the hash cache holds from run to run), by one process per core (a million files took
    32 min from one Python process on a loaded machine). `distinct`: contents repeat every
    `distinct` files (0: all distinct)."""
    distinct = distinct or count
    marker = dir / f".made-{count}-{folder}-{distinct}"
    files = dir / "files"
    if not marker.exists():
        shutil.rmtree(dir, ignore_errors=True)
        files.mkdir(parents=True)
        old = time.time() - 3600
        pad = os.urandom(SIZE)
        dirs = (count + 999) // 1000
        workers = max(1, min(os.cpu_count() or 1, 4))
        step = max(1, (dirs + workers * 4 - 1) // (workers * 4))
        tasks = [(str(files), d, min(dirs, d + step), count, old, pad, distinct) for d in range(0, dirs, step)]
        import multiprocessing
        with multiprocessing.Pool(workers) as pool:
            for _ in pool.imap_unordered(_write_dirs, tasks):
                pass
        lines = ['publish: {to: "stone:bench"}', "resources:"]
        if folder:
            lines.append("  - path: files\n    name: files\n    kind: BLOB")
        else:
            for i in range(count):
                lines.append(f"  - path: files/{i // 1000:04d}/f{i:07d}.bin\n    name: r{i}\n    kind: BLOB")
        (dir / "datasets.yaml").write_text("\n".join(lines) + "\n")
        marker.touch()
    return [files / f"{i // 1000:04d}" / f"f{i:07d}.bin" for i in range(count)]


def env_for(base: Path, name: str):
    return {"PATH": os.environ["PATH"], "HOME": str(base), "STONE_CONFIG": str(base / f"{name}.toml"),
            "STONE_NO_PROGRESS": "1"}


def add_env(stone, base, name, api):
    env = env_for(base, name)
    Path(env["STONE_CONFIG"]).unlink(missing_ok=True)
    subprocess.run([stone, "env", "add", "local", "--host", "bench.localhost", "--api", api, "-q"], env=env, check=True)
    return env


def timed(cmd, env):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd[:3])} failed: {p.stderr[-3000:]}")
    return elapsed, int(p.stderr.strip().splitlines()[-1]) * 1024, p.stdout


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    return json.load(urllib.request.urlopen(req))


def curl_run(server, pkg: Path, paths, jobs, base: Path, folder):
    """The staging URLs for every file (paged manifest, untimed), then one timed
    `curl --parallel` over them all."""
    digests = [(p, hashlib.sha256(p.read_bytes()).hexdigest()) for p in paths]
    if folder:
        datasets = [{"name": "files", "kind": "BLOB", "files": []}]
    else:
        datasets = [{"name": f"r{i}", "kind": "BLOB", "files": []} for i in range(len(paths))]
    created = post(f"{server.url}/v1/pushes", {
        "namespace": "bench", "branch": "bench", "options": {"yes": False, "force": False, "replace": False, "manual": True},
        "package": {"public": False}, "datasets": datasets, "paged_files": True})
    uploads = []
    for at in range(0, len(digests), BATCH):
        chunk = digests[at:at + BATCH]
        if folder:
            groups = [{"name": "files", "files": [{"path": str(p.relative_to(pkg / "files")), "sha256": d, "size": SIZE}
                                                  for p, d in chunk]}]
        else:
            groups = [{"name": f"r{at + i}", "files": [{"path": p.name, "sha256": d, "size": SIZE}]}
                      for i, (p, d) in enumerate(chunk)]
        uploads += post(f"{server.url}/v1/pushes/{created['push_id']}/files", {"datasets": groups})["uploads"]
    by_sha = {d: p for p, d in digests}
    cfg = base / "curl.cfg"
    with open(cfg, "w") as f:
        for u in uploads:
            f.write(f'url = "{u["url"]}"\nupload-file = "{by_sha[u["sha256"]]}"\noutput = "/dev/null"\n')
            for k, v in u.get("headers", {}).items():
                f.write(f'header = "{k}: {v}"\n')
    t = time.perf_counter()
    p = subprocess.run(["curl", "-sS", "--fail", "--no-progress-meter", "--parallel", "--parallel-max", str(jobs), "-K", str(cfg)],
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"curl failed: {p.stderr[-2000:]}")
    return time.perf_counter() - t, len(uploads)


def blob_store_run(stone, pkg: Path, base: Path, jobs: int, with_aws: bool = True):
    """The blob-store path: stone --to s3:// against aws s3 sync, same folder, same bucket."""
    from blob_store import start_weed  # noqa: E402 (bench/blob_store.py)
    if shutil.which("aws") is None:
        print("  blob store                       not measured: aws not found (pip install awscli)")
        return
    where = Path(tempfile.mkdtemp(prefix="stone-bench-weed-", dir=base))
    proc, aws_env = start_weed(where)
    try:
        env = {**env_for(base, "blob"), **{k: v for k, v in aws_env.items() if k.startswith("AWS_")}}
        push = [stone, "package", "push", str(pkg), "--env", "dev", "--json", "--jobs", str(jobs),
                "--to", "s3://bench/stone"]
        timed(push + ["--dry-run"], env)  # the hash cache, as for the service path (untimed)
        first, first_rss, out = timed(push, env)
        uploaded = json.loads(out)["uploaded_bytes"]
        again, again_rss, out = timed(push, env)
        again_uploaded = json.loads(out)["uploaded_bytes"]
        sync = ["aws", "s3", "sync", "--only-show-errors", str(pkg / "files"), "s3://bench/aws/files"]
        aws_first = aws_rss = aws_again = aws_again_rss = None
        if with_aws:
            aws_first, aws_rss, _ = timed(sync, aws_env)
            aws_again, aws_again_rss, _ = timed(sync, aws_env)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(where, ignore_errors=True)
    print(f"  blob store: stone --to s3://     {first:8.2f} s   {uploaded / 1e6:.1f} MB uploaded   client RSS {first_rss / 1e6:.0f} MB")
    if aws_first is None:
        print("  blob store: aws s3 sync          not measured (--no-aws)")
        print(f"  blob store: unchanged re-push    {again:8.2f} s   {again_uploaded} bytes   client RSS {again_rss / 1e6:.0f} MB")
        return
    print(f"  blob store: aws s3 sync          {aws_first:8.2f} s   aws/stone {aws_first / first:.2f} (> 1: stone faster)   RSS {aws_rss / 1e6:.0f} MB")
    print(f"  blob store: unchanged re-push    {again:8.2f} s   {again_uploaded} bytes   client RSS {again_rss / 1e6:.0f} MB;"
          f" aws s3 sync {aws_again:.2f} s (aws/stone {aws_again / again:.2f}), RSS {aws_again_rss / 1e6:.0f} MB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.environ.get("STONE_BENCH_DIR", "/tmp/stone-bench"))
    ap.add_argument("--files", type=int, default=1_000_000)
    ap.add_argument("--resources", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--bin-dir", default=None, help="folder with release stone and stone-server (default: build them)")
    ap.add_argument("--case", choices=["folder", "resources", "all"], default="all")
    ap.add_argument("--distinct", type=int, default=0,
                    help="contents repeat every N files (default: all distinct). The first push then "
                         "uploads N contents only: for measuring the dry runs and the unchanged re-push "
                         "of a big folder in less time (implies --no-curl)")
    ap.add_argument("--rtt-ms", type=float, default=0,
                    help="stone and curl reach the server through a proxy adding this round-trip "
                         "time (issue 27: one request per file against packs on a real network)")
    ap.add_argument("--no-curl", action="store_true",
                    help="skip the curl reference (the client's memory and the dry runs only matter)")
    ap.add_argument("--blob-store-only", action="store_true",
                    help="the folder case's blob-store path alone (no stone-server, no curl)")
    ap.add_argument("--no-aws", action="store_true",
                    help="the blob-store path without aws s3 sync beside it (~365 files/s here)")
    ap.add_argument("--no-blob-store", action="store_true",
                    help="skip the blob-store path (stone --to s3:// against aws s3 sync on SeaweedFS)")
    args = ap.parse_args()
    if args.distinct:
        args.no_curl = True
    if shutil.which("curl") is None:
        sys.exit("curl is needed: apt-get install curl")
    if args.bin_dir:
        bins = Path(args.bin_dir)
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/stone/target"))
        subprocess.run(["cargo", "build", "--release", "-q", "--workspace", "--bins"], cwd=ROOT, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": str(target)})
        bins = target / "release"
    stone, server_bin = str(bins / "stone"), str(bins / "stone-server")
    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    same = f", {args.distinct:,} distinct contents" if args.distinct else ""
    cases = [("folder", f"{args.files:,} files x {SIZE} B, 1 folder resource{same}", base / f"many-folder-{args.files}", args.files, True),
             ("resources", f"{args.resources:,} resources x {SIZE} B", base / f"many-res-{args.resources}", args.resources, False)]
    for key, name, pkg, count, folder in cases:
        if args.case not in ("all", key):
            continue
        print(f"preparing {name} ...", file=sys.stderr)
        t = time.perf_counter()
        paths = make_package(pkg, count, folder, args.distinct)
        print(f"  package ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)
        if args.blob_store_only:
            if folder:
                print(f"\n{name}")
                blob_store_run(stone, pkg, base, args.jobs, not args.no_aws)
            continue
        # Hash cache: a cold dry run fills it; the warm one is measured.
        env = add_env(stone, base, "dry", "http://127.0.0.1:9/v1")
        dry = ["package", "push", str(pkg), "--env", "local", "--branch", "bench", "--dry-run"]
        cold, cold_rss, _ = timed([stone] + dry, env)
        warm, warm_rss, _ = timed([stone] + dry, env)

        subprocess.run(["sync"])
        s = Server(server_bin, base, args.rtt_ms)
        try:
            env = add_env(stone, base, "push", f"{s.client_url}/v1")
            shutil.rmtree(pkg / ".stone" / "pushes", ignore_errors=True)
            push = [stone, "package", "push", str(pkg), "--env", "local", "--branch", "bench", "--json", "--jobs", str(args.jobs)]
            first, first_rss, out = timed(push, env)
            uploaded = json.loads(out)["uploaded_bytes"]
            server_first_rss = s.peak_rss()
            # As before the first push: what the first push left to write back is its
            # cost, not the re-push's (100,000 datasets are ~300,000 new files and
            # directories; the re-push otherwise shares the disk with their flush).
            subprocess.run(["sync"])
            again, again_rss, out = timed(push, env)
            again_uploaded = json.loads(out)["uploaded_bytes"]
            server_rss = s.peak_rss()
        finally:
            s.stop()
            empty_trash()  # a million files are gigabytes: one server's data at a time
        tc = curl_uploads = None
        if not args.no_curl:
            subprocess.run(["sync"])
            s = Server(server_bin, base, args.rtt_ms)
            try:
                tc, curl_uploads = curl_run(s, pkg, paths, args.jobs, base, folder)
            finally:
                s.stop()
        print(f"\n{name}")
        print(f"  dry-run cold / warm hash cache   {cold:8.2f} s / {warm:.2f} s  (target warm < 5 s)   RSS {cold_rss / 1e6:.0f} / {warm_rss / 1e6:.0f} MB")
        print(f"  first push (stone)               {first:8.2f} s   {uploaded / 1e6:.1f} MB uploaded   client RSS {first_rss / 1e6:.0f} MB (target < 150)")
        if tc is None:
            print("  curl --parallel                  not measured (--no-curl)")
        else:
            print(f"  curl --parallel {args.jobs} ({curl_uploads:,} PUTs)  {tc:8.2f} s   curl/stone {tc / first:.2f} (target >= 0.9)")
        print(f"  unchanged re-push                {again:8.2f} s   {again_uploaded} bytes uploaded (target < 10 s, 0 bytes)   client RSS {again_rss / 1e6:.0f} MB")
        print(f"  server peak RSS                  {server_rss / 1e6:8.0f} MB (target < 500); {server_first_rss / 1e6:.0f} MB through the first push")
        if folder and not args.no_blob_store:
            blob_store_run(stone, pkg, base, args.jobs, not args.no_aws)
    empty_trash()


if __name__ == "__main__":
    try:
        main()
    finally:
        empty_trash()
