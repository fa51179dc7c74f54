#!/usr/bin/env python3
"""Staging upload benchmark: how fast a stone-server receives an upload (issue 3).

One file of 1 GiB, a fresh `stone-server` per run (local staging store, the part size raised
so that the file is one upload), and in the same run:
  * stone: `stone package push` of a package holding only that file (hash cache warm, so
    the time is the manifest and the upload); the client's figure is the time from its
    start to the moment the server logged the content as staged;
  * curl: one `curl -T` of the same file to the staging URL the server handed out through
    `POST /pushes` for the same manifest;
  * the server's own figure for each upload: from the request's arrival to the content
    being verified, fsynced and renamed into place (its `content staged` debug line);
  * limits on this machine, same file: sha256 on one core (`openssl dgst`, the hash the
    server must do) and writing the file to disk with fsync (`dd conv=fsync`).
With --s3, a second case stages in S3 (SeaweedFS from the tools venv): stone and curl to
the same presigned URL, client figures (the receiving server is SeaweedFS), and the
commit's own S3 work from the server's debug lines: whether the caller's upload was kept
in place as the content or copied server-side to the content's key (and how long that
took), the download of the content for the engine (a local blob store), and whether the
upload was read back to hash it (only when the store does not vouch for its checksum).
With --blob-s3 (implies --s3), a third case keeps the blobs in the staging bucket
(`[blob] store = "s3"`, another prefix): the upload goes straight into the dataset's
object (issue 24), and the commit copies nothing (before: the engine copied the staged
content server-side).

Usage: bench/staging.py [--dir DIR] [--runs 3] [--size-mib 1024] [--s3] [--blob-s3] [--no-local]
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time, urllib.request
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from push import sha256  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STAGED = re.compile(r"^(\S+)\s.*content staged.*sha256=\"?(\w+)\"?.*size=(\d+)(?:.*elapsed_us=(\d+))?")


class Server:
    """A fresh stone-server whose stderr (debug logs of staging) goes to a file."""

    def __init__(self, binary, base: Path, config: str):
        self.data = Path(tempfile.mkdtemp(prefix="stone-bench-staging-", dir=base))
        # Each server stages under its own prefix: on S3 a content staged by an earlier
        # server would otherwise count as present and not be uploaded again.
        (self.data / "config.toml").write_text(config.replace("{PREFIX}", self.data.name))
        self.out = open(self.data / "server.out", "w+")
        self.err_path = self.data / "server.err"
        self.err = open(self.err_path, "w")
        env = {"PATH": os.environ["PATH"], "STONE_SERVER_LOG": "info,stone_server::staging=debug,stone_server::engines::blob=debug"}
        self.proc = subprocess.Popen([binary, "--data-dir", str(self.data / "d"), "--listen", "127.0.0.1:0",
                                      "--config", str(self.data / "config.toml")],
                                     stdout=self.out, stderr=self.err, env=env)
        for _ in range(300):
            self.out.seek(0)
            for line in self.out.read().splitlines():
                if line.startswith("stone-server listening on "):
                    self.url = line.split("listening on ", 1)[1].strip()
                    return
            time.sleep(0.05)
        sys.exit(f"stone-server did not start: {self.err_path.read_text()[-2000:]}")

    def staged(self, digest):
        """(wall-clock time the server logged it, seconds the server spent) of a staged content."""
        for _ in range(100):
            for line in self.err_path.read_text().splitlines():
                m = STAGED.match(line)
                if m and m.group(2) == digest:
                    at = datetime.fromisoformat(m.group(1).replace("Z", "+00:00")).timestamp()
                    # Servers before the figure was logged: no server-side time.
                    return at, int(m.group(4)) / 1e6 if m.group(4) else None
            time.sleep(0.05)
        sys.exit(f"the server never logged {digest} as staged: {self.err_path.read_text()[-2000:]}")

    def s3_phases(self):
        """Seconds of the S3 commit's own work, from the server's debug lines: the
        server-side copy of the caller's upload to the content's key, and the download of
        the content for the engine (`None` when not logged)."""
        text = self.err_path.read_text()
        def spent(what):
            found = [int(m.group(1)) / 1e6 for m in re.finditer(what + r".*?elapsed_us=(\d+)", text)]
            return sum(found) if found else None
        copy = spent(r"copied server-side to the content's key")
        if copy is None and "kept in place as the content" in text:
            copy = 0.0
        download = spent(r"staged content downloaded")
        engine_copy = spent(r"object copied server-side from staging")
        # Issue 24: uploaded straight into the dataset's object (blob store in the bucket).
        if engine_copy is None and "content found in the dataset's object" in text:
            engine_copy = 0.0
        return (copy, download, engine_copy, "read back: the store does not vouch" in text)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def manifest(path: Path, digest: str, name: str):
    return {"namespace": "bench", "branch": name, "options": {"yes": False, "force": False, "replace": False, "manual": True},
            "package": {"public": False, "metadata": {}},
            "datasets": [{"name": "big", "kind": "BLOB", "metadata": {},
                          "files": [{"path": path.name, "sha256": digest, "size": path.stat().st_size}]}]}


def curl_upload(server: Server, path: Path, digest: str, run: int):
    body = json.dumps(manifest(path, digest, f"curl-{run}")).encode()
    req = urllib.request.Request(f"{server.url}/v1/pushes", data=body, headers={"content-type": "application/json"})
    created = json.load(urllib.request.urlopen(req))
    (upload,) = created["uploads"]
    if upload.get("parts"):
        sys.exit("expected one single upload: raise staging.part_size")
    cmd = ["curl", "-sS", "--fail", "-o", "/dev/null", "-T", str(path), upload["url"]]
    for k, v in upload.get("headers", {}).items():
        cmd += ["-H", f"{k}: {v}"]
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - t


def stone_upload(stone, server: Server, pkg: Path, base: Path, run: int):
    """Seconds from stone's start to the content being staged, and the whole push's."""
    cfg = base / "stone-staging.toml"
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "STONE_CONFIG": str(cfg), "STONE_NO_PROGRESS": "1"}
    cfg.unlink(missing_ok=True)
    subprocess.run([stone, "env", "add", "local", "--host", "bench.localhost", "--api", f"{server.url}/v1", "-q"],
                   env=env, check=True)
    shutil.rmtree(pkg / ".stone" / "pushes", ignore_errors=True)
    start = time.time()
    t = time.perf_counter()
    p = subprocess.run([stone, "package", "push", str(pkg), "--env", "local", "--branch", f"stone-{run}", "--json"],
                       env=env, capture_output=True, text=True)
    whole = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"stone push failed: {p.stderr}")
    return start, whole


def limits(path: Path, base: Path):
    size = path.stat().st_size
    t = time.perf_counter()
    subprocess.run(["openssl", "dgst", "-sha256", str(path)], check=True, stdout=subprocess.DEVNULL)
    hashing = size / (time.perf_counter() - t)
    dest = base / "dd-limit.bin"
    subprocess.run(["sync"])
    t = time.perf_counter()
    subprocess.run(["dd", f"if={path}", f"of={dest}", "bs=1M", "conv=fsync"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    writing = size / (time.perf_counter() - t)
    dest.unlink()
    return hashing, writing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.environ.get("STONE_BENCH_DIR", "/tmp/stone-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--s3", action="store_true", help="also stage in S3 on SeaweedFS (tools venv)")
    ap.add_argument("--no-local", action="store_true", help="skip the local staging case")
    ap.add_argument("--blob-s3", action="store_true",
                    help="also a case with the blob store in the staging bucket (implies --s3)")
    ap.add_argument("--stone", default=None, help="stone binary (default: build release)")
    ap.add_argument("--server", default=None, help="stone-server binary (default: build release)")
    args = ap.parse_args()
    args.s3 = args.s3 or args.blob_s3
    for tool in ("curl", "openssl", "dd"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed: apt-get install {tool}")
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/stone/target"))
    if args.stone is None or args.server is None:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "stone", "-p", "stone-server"], cwd=ROOT, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    stone = args.stone or str(target / "release/stone")
    server_bin = args.server or str(target / "release/stone-server")

    base = Path(args.dir)
    pkg = base / "staging"
    pkg.mkdir(parents=True, exist_ok=True)
    path = pkg / "big.bin"
    size = args.size_mib << 20
    if not path.exists() or path.stat().st_size != size:
        print(f"preparing {path} ({args.size_mib} MiB) ...", file=sys.stderr)
        with open(path, "wb") as f:
            block = os.urandom(1 << 20)
            for i in range(args.size_mib):
                f.write(i.to_bytes(4, "little") + block[4:])
        old = time.time() - 3600
        os.utime(path, (old, old))
    (pkg / "datasets.yaml").write_text('publish: {to: "stone:bench"}\nresources:\n  - path: big.bin\n')
    digest = sha256(path)
    config = f"[staging]\npart_size = {2 * size}\n"

    cases = [] if args.no_local else [("local", config, None)]
    weed = None
    if args.s3:
        from blob_store import start_weed
        wbase = Path(tempfile.mkdtemp(prefix="weed-", dir=base))
        weed, wenv = start_weed(wbase)
        endpoint = wenv["AWS_ENDPOINT_URL"]
        s3 = (f"[staging]\nstore = \"s3\"\npart_size = {2 * size}\n[staging.s3]\nendpoint = \"{endpoint}\"\n"
              f"bucket = \"bench\"\nprefix = \"{{PREFIX}}/\"\nregion = \"us-east-1\"\n"
              f"access_key_id = \"{wenv['AWS_ACCESS_KEY_ID']}\"\nsecret_access_key = \"{wenv['AWS_SECRET_ACCESS_KEY']}\"\n"
              f"allow_http = true\n")
        cases.append(("s3 (SeaweedFS)", s3, wbase))
        if args.blob_s3:
            blob = s3.split("[staging.s3]\n", 1)[1].replace('prefix = "{PREFIX}/"', 'prefix = "{PREFIX}-blobs"')
            cases.append(("s3 + blob s3", s3 + "[blob]\nstore = \"s3\"\n[blob.s3]\n" + blob, wbase))

    mbs = lambda t: size / t / 1e6
    results = []
    try:
        # Warm the page cache and stone's hash cache (a dry run hashes and caches).
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)
        for name, cfg, _ in cases:
            stone_client, stone_server, curl_client, curl_server, whole = [], [], [], [], []
            copies, downloads, engine_copies, read_back = [], [], [], False
            for run in range(args.runs):
                subprocess.run(["sync"])
                s = Server(server_bin, base, cfg)
                try:
                    start, w = stone_upload(stone, s, pkg, base, run)
                    whole.append(w)
                    if name == "local":
                        at, spent = s.staged(digest)
                        stone_client.append(at - start)
                        stone_server.append(spent)
                    else:
                        copy, download, engine_copy, back = s.s3_phases()
                        copies.append(copy)
                        downloads.append(download)
                        engine_copies.append(engine_copy)
                        read_back = read_back or back
                finally:
                    s.stop()
                subprocess.run(["sync"])
                s = Server(server_bin, base, cfg)
                try:
                    curl_client.append(curl_upload(s, path, digest, run))
                    if name == "local":
                        curl_server.append(s.staged(digest)[1])
                finally:
                    s.stop()
            med = statistics.median
            known = lambda xs: med(xs) if xs and None not in xs else None
            results.append((name, known(stone_client), known(stone_server),
                            med(curl_client), known(curl_server), med(whole),
                            (known(copies), known(downloads), known(engine_copies), read_back)))
        hashing, writing = limits(path, base)
    finally:
        if weed is not None:
            os.killpg(weed.pid, 9)
            weed.wait()
            # SeaweedFS keeps every byte written (deleted objects too, until a vacuum):
            # a few GB per run of 1 GiB.
            shutil.rmtree(wbase, ignore_errors=True)

    print(f"\nStaging upload of {size / 2**30:.2f} GiB in one request, fresh server per run, median of {args.runs} runs")
    print(f"{'case':<16} {'what':<44} {'MB/s':>8} {'x curl':>7}")
    for name, sc, ss, cc, cs, whole, (copy, download, engine_copy, read_back) in results:
        if sc:
            print(f"{name:<16} {'stone client (start -> staged)':<44} {mbs(sc):8.0f} {cc / sc:7.2f}")
            if ss and cs:
                print(f"{'':<16} {'server receiving stone':<44} {mbs(ss):8.0f} {cs / ss:7.2f}")
        print(f"{'' if sc else name:<16} {'stone push, whole (hash cache, commit)':<44} {mbs(whole):8.0f} {cc / whole:7.2f}")
        print(f"{'':<16} {'curl -T':<44} {mbs(cc):8.0f} {1:7.2f}")
        if cs:
            print(f"{'':<16} {'server receiving curl':<44} {mbs(cs):8.0f}")
        if copy == 0.0:
            print(f"{'':<16} {'commit: upload kept in place, no copy':<44} {'-':>8}   (0 s)")
        elif copy is not None:
            print(f"{'':<16} {'commit: server-side copy to the content key':<44} {mbs(copy):8.0f}   ({copy:.2f} s)")
        if download is not None:
            print(f"{'':<16} {'commit: download for the engine, no hash':<44} {mbs(download):8.0f}   ({download:.2f} s)")
        if engine_copy == 0.0:
            print(f"{'':<16} {'commit: uploaded straight into the dataset':<44} {'-':>8}   (0 s)")
        elif engine_copy is not None:
            print(f"{'':<16} {'commit: engine copies from staging (S3)':<44} {mbs(engine_copy):8.0f}   ({engine_copy:.2f} s)")
        if name != "local":
            print(f"{'':<16} {'upload read back to hash it':<44} {'yes' if read_back else 'no':>8}")
    print(f"{'limits':<16} {'sha256, one core (openssl)':<44} {hashing / 1e6:8.0f}")
    print(f"{'':<16} {'write + fsync (dd conv=fsync)':<44} {writing / 1e6:8.0f}")


if __name__ == "__main__":
    main()
