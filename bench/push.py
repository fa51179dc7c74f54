#!/usr/bin/env python3
"""Push benchmark: `stone package push` to a local stone-server next to curl uploading the
same bytes to the same server, in one run.

Three packages: 1 GiB in a few large files; 1 GiB in 10,000 small files, one resource (one
dataset) each; the same 10,000 files as one resource (a folder: one dataset). For each, and
for each run, a fresh server (empty staging) receives:
  * stone: the whole push (manifest, upload of everything, commit, engines, result) of
    files it hashed before (its hash cache warmed by a dry run: hashing is bench/hash.py's);
  * curl: one `curl --parallel` process over a config listing every upload, to the
    presigned staging URLs the server handed out for the same manifest (upload only).
Reports wall times and the ratio of curl's time to stone's (>= 0.9 is the target).
Also reports stone's peak memory (max RSS; target < 150 MB).

Usage: bench/push.py [--dir DIR] [--runs 3] [--jobs N] [--bin-dir DIR] [--case large|small|folder|all]
"""
import argparse, hashlib, json, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_package(dir: Path, count: int, size: int, one_resource=False):
    """`count` files of `size` bytes: one resource each, or (`one_resource`) all in the
    folder `files/`, one resource of `count` files."""
    dir.mkdir(parents=True, exist_ok=True)
    lines = ['publish: {to: "stone:bench"}', "resources:"]
    if one_resource:
        lines.append("  - path: files\n    name: files\n    kind: BLOB")
    block = os.urandom(1 << 20)
    files = dir / "files" if one_resource else dir
    files.mkdir(exist_ok=True)
    old = time.time() - 3600
    for i in range(count):
        p = files / f"f{i:05d}.bin"
        if not p.exists() or p.stat().st_size != size:
            # Written an hour in the past, once: files' times stay as they are from run to
            # run (stone's hash cache then holds, see `warm_hash_cache`).
            with open(p, "wb") as f:
                left, first = size, True
                while left:
                    n = min(left, len(block))
                    chunk = (i.to_bytes(4, "little") + block[4:n]) if first and n >= 4 else block[:n]
                    f.write(chunk)
                    left -= n
                    first = False
            os.utime(p, (old, old))
        if not one_resource:
            lines.append(f"  - path: {p.name}")
    (dir / "datasets.yaml").write_text("\n".join(lines) + "\n")
    return sorted(files.glob("f*.bin"))


class Server:
    def __init__(self, binary, base: Path):
        self.data = Path(tempfile.mkdtemp(prefix="stone-bench-server-", dir=base))
        self.out = open(self.data / "server.out", "w+")
        self.proc = subprocess.Popen([binary, "--data-dir", str(self.data / "d"), "--listen", "127.0.0.1:0"],
                                     stdout=self.out, stderr=subprocess.DEVNULL)
        for _ in range(300):
            self.out.seek(0)
            for line in self.out.read().splitlines():
                if line.startswith("stone-server listening on "):
                    self.url = line.split("listening on ", 1)[1].strip()
                    return
            time.sleep(0.05)
        sys.exit("stone-server did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        # Deleted at the end, not now: ext4 without a journal (this machine's) skips inodes
        # freed in the last minutes when it allocates new ones, one buffer lookup each, so
        # tens of thousands of files deleted just before a run slow that run's file and
        # directory creations severalfold (an effect of the benchmark, not of a server in
        # use). Needs about 2 GiB of disk per run and case.
        TRASH.append(self.data)


TRASH = []


def empty_trash():
    while TRASH:
        shutil.rmtree(TRASH.pop(), ignore_errors=True)


def sha256(path: Path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def manifest(pkg: Path, digests, one_resource):
    files = lambda pairs: [{"path": str(p.relative_to(pkg)), "sha256": d, "size": p.stat().st_size} for p, d in pairs]
    if one_resource:
        datasets = [{"name": "files", "kind": "BLOB", "metadata": {}, "files": files(digests)}]
    else:
        datasets = [{"name": p.stem.replace("_", "-"), "kind": "BLOB", "metadata": {}, "files": files([(p, d)])}
                    for p, d in digests]
    return {"namespace": "bench", "branch": "bench", "options": {"yes": False, "force": False, "replace": False, "manual": True},
            "package": {"public": False, "metadata": {}}, "datasets": datasets}


def curl_run(server: Server, pkg: Path, digests, jobs, base: Path, one_resource):
    body = json.dumps(manifest(pkg, digests, one_resource)).encode()
    req = urllib.request.Request(f"{server.url}/v1/pushes", data=body, headers={"content-type": "application/json"})
    created = json.load(urllib.request.urlopen(req))
    by_sha = {d: p for p, d in digests}
    cfg = base / "curl.cfg"
    with open(cfg, "w") as f:
        for u in created["uploads"]:
            if u.get("parts"):
                sys.exit("curl comparison expects single uploads (files under the part size)")
            f.write(f'url = "{u["url"]}"\nupload-file = "{by_sha[u["sha256"]]}"\noutput = "/dev/null"\n')
            for k, v in u.get("headers", {}).items():
                f.write(f'header = "{k}: {v}"\n')
    t = time.perf_counter()
    p = subprocess.run(["curl", "-sS", "--fail", "--no-progress-meter", "--parallel", "--parallel-max", str(jobs), "-K", str(cfg)],
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"curl failed: {p.stderr[-2000:]}")
    return time.perf_counter() - t


def warm_hash_cache(stone, pkg: Path, base: Path):
    """Every timed stone run is then a push of files hashed before (stone's hash cache under
    the package's `.stone/`), as the runs after the first always were: the first push's
    hashing is what bench/hash.py measures."""
    cfg = base / "warm.toml"
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "STONE_CONFIG": str(cfg), "STONE_NO_PROGRESS": "1"}
    cfg.unlink(missing_ok=True)
    # A dry run plans without asking any server.
    subprocess.run([stone, "env", "add", "local", "--host", "bench.localhost", "--api", "http://127.0.0.1:9/v1", "-q"],
                   env=env, check=True)
    subprocess.run([stone, "package", "push", str(pkg), "--env", "local", "--branch", "bench", "--dry-run"], env=env,
                   check=True, stdout=subprocess.DEVNULL)


def stone_run(stone, server: Server, pkg: Path, jobs, base: Path):
    cfg = base / "stone.toml"
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "STONE_CONFIG": str(cfg), "STONE_NO_PROGRESS": "1"}
    cfg.unlink(missing_ok=True)
    subprocess.run([stone, "env", "add", "local", "--host", "bench.localhost", "--api", f"{server.url}/v1", "-q"], env=env, check=True)
    shutil.rmtree(pkg / ".stone" / "pushes", ignore_errors=True)
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", stone, "package", "push", str(pkg), "--env", "local", "--branch", "bench",
                        "--json", "--jobs", str(jobs)], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"stone push failed: {p.stderr}")
    return elapsed, int(p.stderr.strip().splitlines()[-1]) * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.environ.get("STONE_BENCH_DIR", "/tmp/stone-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--bin-dir", default=None, help="folder with release stone and stone-server (default: build them)")
    ap.add_argument("--case", choices=["large", "small", "folder", "all"], default="all",
                    help="which package to push: 32 large files, 10,000 small files as 10,000 resources, "
                         "or the same 10,000 files as one resource (a folder); default all")
    args = ap.parse_args()
    if shutil.which("curl") is None:
        sys.exit("curl is needed: apt-get install curl")
    if args.bin_dir:
        bins = Path(args.bin_dir)
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/stone/target"))
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "stone", "-p", "stone-server"], cwd=ROOT, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": str(target)})
        bins = target / "release"
    stone, server_bin = str(bins / "stone"), str(bins / "stone-server")
    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    cases = [("large: 32 files x 32 MiB", base / "push-large", 32, 32 << 20, False),
             ("small: 10,000 files x 105 KiB", base / "push-small", 10000, (1 << 30) // 10000, False),
             ("folder: the same in 1 resource", base / "push-folder", 10000, (1 << 30) // 10000, True)]
    print(f"{'case':<32} {'stone s':>8} {'curl s':>8} {'curl/stone':>11} {'stone RSS MB':>13}")
    cases = [c for c in cases if args.case in ("all", c[0].split(":")[0])]
    for name, pkg, count, size, one_resource in cases:
        print(f"preparing {name} ...", file=sys.stderr)
        digests = [(p, sha256(p)) for p in make_package(pkg, count, size, one_resource)]
        warm_hash_cache(stone, pkg, base)
        stone_times, curl_times, rss = [], [], 0
        for _ in range(args.runs):
            subprocess.run(["sync"])
            s = Server(server_bin, base)
            try:
                t, m = stone_run(stone, s, pkg, args.jobs, base)
                stone_times.append(t)
                rss = max(rss, m)
            finally:
                s.stop()
            subprocess.run(["sync"])
            s = Server(server_bin, base)
            try:
                curl_times.append(curl_run(s, pkg, digests, args.jobs, base, one_resource))
            finally:
                s.stop()
        ts, tc = statistics.median(stone_times), statistics.median(curl_times)
        print(f"{name:<32} {ts:8.2f} {tc:8.2f} {tc / ts:11.2f} {rss / 1e6:13.0f}")
    empty_trash()
    print("\ncurl/stone >= 0.9 is the target: stone's whole push (manifest, upload, commit, engines; files hashed before) against curl's upload alone.")


if __name__ == "__main__":
    try:
        main()
    finally:
        empty_trash()
