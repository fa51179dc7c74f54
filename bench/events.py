#!/usr/bin/env python3
"""Events benchmark (issue 58), three figures, each beside its reference in the same run:

  * overhead: `stone package push` of a small package (a table and a file) to a fresh
    server, pushes alternating between this build's server and --baseline-bin-dir's (a build
    without events: main before issue 58), medians of --pushes; the ratio this/baseline
    (target: events add <= 5 %, ratio <= 1.05). Without --baseline-bin-dir: this build with
    one webhook subscription receiving against this build without, which measures the
    deliveries' cost, not the outbox's.
  * deliveries: a push of --events one-file resources (one event each, plus the push's),
    delivered to a local receiver (Python, threaded, answering 204 without checks):
    deliveries per second from the commit's end to the last delivery, against the
    receiver's own ceiling measured by Python clients posting the same bodies with
    keep-alive from as many threads as the server's workers (target: >= 1,000/s).
  * long poll: a reader waiting on `GET /v1/namespaces/{ns}/events?wait=30` while a
    one-table push commits: the time from the server's `dataset written` log line (the
    event is recorded right after it) to the feed's answer reaching the reader (target:
    < 100 ms), median of --pushes.

Usage: bench/events.py [--bin-dir DIR] [--baseline-bin-dir DIR] [--pushes 9] [--events 10000]
Binaries: DIR/stone and DIR/stone-server (default: target/release, built by the caller
with `cargo build --release -p stone -p stone-server`; debug binaries give figures that are
not comparable).
"""
import argparse, http.client, json, os, re, statistics, subprocess, sys, tempfile, threading, time
import urllib.request
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "bench.test"
EVENTS_CONFIG = """
[events]
allow_targets = ["127.0.0.1/32"]
"""


class Server:
    def __init__(self, bin_dir: Path, base: Path, config: str = "", events: bool = True):
        self.data = Path(tempfile.mkdtemp(prefix="stone-bench-events-", dir=base))
        # A baseline build before events does not know `[events]`.
        events_config = EVENTS_CONFIG if events else ""
        (self.data / "server.toml").write_text(f'public_host = "{HOST}"\n{events_config}{config}')
        self.log = open(self.data / "server.log", "w+")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("STONE_", "CI"))}
        env["RUST_LOG"] = "info"
        self.proc = subprocess.Popen(
            [str(bin_dir / "stone-server"), "--data-dir", str(self.data / "d"), "--listen",
             "127.0.0.1:0", "--config", str(self.data / "server.toml")],
            stdout=self.log, stderr=self.log, env=env)
        for _ in range(600):
            self.log.seek(0)
            for line in self.log.read().splitlines():
                if line.startswith("stone-server listening on "):
                    self.url = line.split("listening on ", 1)[1].strip()
                    return
            time.sleep(0.05)
        sys.exit("stone-server did not start:\n" + (self.data / "server.log").read_text())

    def api(self, method, path, body=None):
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read() or b"null")

    def log_lines(self):
        self.log.seek(0)
        return self.log.read().splitlines()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Client:
    """`stone` with its own HOME and config, pointed at a server as env `bench`."""

    def __init__(self, bin_dir: Path, base: Path):
        self.bin = str(bin_dir / "stone")
        self.home = Path(tempfile.mkdtemp(prefix="stone-bench-home-", dir=base))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("STONE_", "CI"))}
        self.env.update(HOME=str(self.home), STONE_CONFIG=str(self.home / "config.toml"),
                        STONE_NO_PROGRESS="1", XDG_DATA_HOME=str(self.home / "data"))

    def point_at(self, server: Server):
        subprocess.run([self.bin, "env", "add", "bench", "--host", HOST, "--api", server.url + "/v1",
                        "--replace"], env=self.env, check=True, capture_output=True)

    def push(self, package: Path) -> float:
        started = time.monotonic()
        done = subprocess.run([self.bin, "package", "push", "--env", "bench", "--branch", "dev", "--quiet",
                               str(package)], env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"push failed: {done.stderr}")
        return time.monotonic() - started


def small_package(dir: Path, round: int) -> Path:
    dir.mkdir(parents=True, exist_ok=True)
    (dir / "datasets.yaml").write_text(
        'publish: {to: "stone:bench"}\nresources:\n  - path: orders.csv\n  - path: scan.bin\n')
    (dir / "orders.csv").write_text("id,round\n" + "".join(f"{i},{round}\n" for i in range(100)))
    (dir / "scan.bin").write_bytes(f"scan {round}".encode() * 100)
    return dir


def many_package(dir: Path, count: int) -> Path:
    dir.mkdir(parents=True, exist_ok=True)
    lines = ['publish: {to: "stone:many"}', "resources:"]
    for i in range(count):
        (dir / f"f{i:05d}.bin").write_bytes(f"file {i}".encode())
        lines.append(f"  - path: f{i:05d}.bin")
    (dir / "datasets.yaml").write_text("\n".join(lines) + "\n")
    return dir


class Receiver:
    """A threaded HTTP receiver counting POSTs (no checks: the ceiling is its own)."""

    def __init__(self):
        receiver = self
        self.count = 0
        self.last = 0.0
        self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver.lock:
                    receiver.count += 1
                    receiver.last = time.monotonic()

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def url(self):
        return f"http://127.0.0.1:{self.port}/hook"


def ceiling(receiver: Receiver, threads: int, total: int, body: bytes) -> float:
    """Posts per second the receiver takes from `threads` keep-alive Python clients."""
    before = receiver.count
    per = total // threads

    def post():
        connection = http.client.HTTPConnection("127.0.0.1", receiver.port)
        for _ in range(per):
            connection.request("POST", "/hook", body, {"content-type": "application/cloudevents+json"})
            connection.getresponse().read()
        connection.close()

    started = time.monotonic()
    workers = [threading.Thread(target=post) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return (receiver.count - before) / (time.monotonic() - started)


def overhead(args, base):
    this = args.bin_dir
    baseline = args.baseline_bin_dir or args.bin_dir
    with_hook = args.baseline_bin_dir is None
    servers = [Server(this, base), Server(baseline, base, events=with_hook)]
    client = Client(this, base)
    if with_hook:
        receiver = Receiver()
        servers[0].api("POST", "/v1/namespaces/bench/subscriptions", {"url": receiver.url()})
    times = ([], [])
    for round in range(args.pushes):
        for which in (0, 1) if round % 2 == 0 else (1, 0):
            client.point_at(servers[which])
            package = small_package(base / f"pkg-{which}-{round}", round)
            times[which].append(client.push(package))
    for server in servers:
        server.stop()
    a, b = statistics.median(times[0]), statistics.median(times[1])
    what = "one subscription receiving vs none" if with_hook else "this build vs baseline"
    print(f"overhead ({what}): {a * 1000:.0f} ms vs {b * 1000:.0f} ms per push, "
          f"ratio {a / b:.3f} (target <= 1.05), medians of {args.pushes}")


def deliveries(args, base):
    server = Server(args.bin_dir, base)
    client = Client(args.bin_dir, base)
    client.point_at(server)
    receiver = Receiver()
    server.api("POST", "/v1/namespaces/many/subscriptions", {"url": receiver.url()})
    package = many_package(base / "many", args.events)
    client.push(package)
    committed = time.monotonic()
    expected = args.events + 1
    deadline = committed + 600
    while receiver.count < expected and time.monotonic() < deadline:
        time.sleep(0.05)
    got = receiver.count
    rate = got / max(receiver.last - committed, 1e-6)
    body = json.dumps({"specversion": "1.0", "data": {"x": "y" * 600}}).encode()
    limit = ceiling(receiver, 16, 4000, body)
    server.stop()
    print(f"deliveries: {got} of {expected} in {receiver.last - committed:.2f} s after the push returned "
          f"= {rate:.0f}/s (target >= 1,000/s); the receiver's ceiling {limit:.0f}/s, ratio {rate / limit:.2f}")


def long_poll(args, base):
    server = Server(args.bin_dir, base)
    client = Client(args.bin_dir, base)
    client.point_at(server)
    latencies = []
    for round in range(args.pushes):
        answered = {}
        # From the last event so far: the reader waits for this round's first one.
        after = 0
        while True:
            page = server.api("GET", f"/v1/namespaces/poll/events?after={after}&limit=1000")
            after = page["next"]
            if not page["more"]:
                break

        def wait():
            url = f"{server.url}/v1/namespaces/poll/events?after={after}&wait=30&limit=1"
            with urllib.request.urlopen(url, timeout=60) as answer:
                page = json.loads(answer.read())
            answered["at"] = datetime.now().astimezone()
            answered["page"] = page

        reader = threading.Thread(target=wait)
        reader.start()
        time.sleep(0.3)
        package = base / f"poll-{round}"
        package.mkdir(parents=True, exist_ok=True)
        (package / "datasets.yaml").write_text('publish: {to: "stone:poll"}\nresources:\n  - path: t.csv\n')
        (package / "t.csv").write_text(f"id\n{round}\n")
        client.push(package)
        reader.join()
        written = [l for l in server.log_lines() if "dataset written" in l and "dataset=t" in l]
        stamp = re.match(r"(\S+Z)", written[-1]).group(1)
        at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        latencies.append((answered["at"] - at).total_seconds())
    server.stop()
    print(f"long poll: the feed answered {statistics.median(latencies) * 1000:.1f} ms after the dataset's "
          f"write (median of {args.pushes}; max {max(latencies) * 1000:.1f} ms; target < 100 ms)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", type=Path, default=ROOT / "target" / "release")
    parser.add_argument("--baseline-bin-dir", type=Path)
    parser.add_argument("--pushes", type=int, default=9)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--only", choices=["overhead", "deliveries", "long-poll"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stone-bench-") as base:
        base = Path(base)
        if args.only in (None, "overhead"):
            overhead(args, base)
        if args.only in (None, "deliveries"):
            deliveries(args, base)
        if args.only in (None, "long-poll"):
            long_poll(args, base)


if __name__ == "__main__":
    main()
