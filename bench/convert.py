#!/usr/bin/env python3
"""CSV -> Parquet benchmark: stone's converter next to DuckDB's `COPY ... TO parquet`.

Generates a CSV of at least 500 MB (ints, floats, strings, dates), converts it with the
client's converter (`crates/stone-formats/examples/csv2parquet`, the code `stone package
push` runs) and with DuckDB (from the test tools venv, `scripts/install-tools`), in the same
run, and reports throughput and peak memory (max RSS) of each, with ratios.
Targets (issue 4): faster than DuckDB, with at most a quarter of its peak memory.

Usage: bench/convert.py [--dir DIR] [--size-mb 520] [--runs 3]
"""
import argparse, os, random, resource, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(cmd, runs):
    """Median wall time, max peak RSS (bytes) and median CPU time (user + system, seconds)
    of `cmd` over `runs` runs."""
    times, peaks, cpus = [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *cmd], capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            sys.exit(f"{cmd[0]} failed: {p.stderr}")
        rss, user, system = p.stderr.strip().splitlines()[-1].split()
        peaks.append(int(rss) * 1024)
        cpus.append(float(user) + float(system))
    return statistics.median(times), max(peaks), statistics.median(cpus)


def make_csv(path: Path, size: int):
    if path.exists() and path.stat().st_size >= size:
        return
    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
    with open(path, "w") as f:
        f.write("id,sensor,value,ratio,label,day,note\n")
        i = 0
        while f.tell() < size:
            rows = []
            for _ in range(10000):
                i += 1
                rows.append(f"{i},{rng.randrange(1000)},{rng.randrange(-10**6, 10**6)},{rng.random():.6f},"
                            f"{rng.choice(words)},2024-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d},"
                            f"\"{rng.choice(words)} {rng.choice(words)}, {rng.randrange(10**5)}\"\n")
            f.write("".join(rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.environ.get("STONE_BENCH_DIR", "/tmp/stone-bench"))
    ap.add_argument("--size-mb", type=int, default=520)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    tools = Path(os.environ.get("STONE_TOOLS_DIR", ROOT / ".tools"))
    python = tools / "venv/bin/python"
    if subprocess.run([str(python), "-c", "import duckdb"], capture_output=True).returncode != 0:
        sys.exit(f"DuckDB is missing ({python}): run scripts/install-tools")
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/stone/target"))
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "stone-formats", "--example", "csv2parquet"],
                   cwd=ROOT, check=True, env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    stone = target / "release/examples/csv2parquet"

    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    csv = base / "convert.csv"
    print(f"preparing {csv} ({args.size_mb} MB) ...", file=sys.stderr)
    make_csv(csv, args.size_mb * 1_000_000)
    size = csv.stat().st_size
    subprocess.run(["cat", str(csv)], stdout=subprocess.DEVNULL, check=True)  # warm the page cache

    ours = measure([str(stone), str(csv), str(base / "stone.parquet")], args.runs)
    duck_sql = (f"COPY (SELECT * FROM read_csv('{csv}')) TO '{base / 'duckdb.parquet'}' "
                f"(FORMAT parquet, COMPRESSION zstd)")
    duck = measure([str(python), "-c", f"import duckdb; duckdb.sql({duck_sql!r})"], args.runs)
    base_py = measure([str(python), "-c", "import duckdb"], 1)  # interpreter + import, for reference

    mbs = lambda t: size / t / 1e6
    print(f"\nCSV -> Parquet (zstd), {size / 1e6:.0f} MB, warm page cache, median of {args.runs} runs")
    print(f"{'tool':<34} {'MB/s':>8} {'peak RSS MB':>12} {'CPU s':>7}")
    print(f"{'stone (csv2parquet)':<34} {mbs(ours[0]):8.0f} {ours[1] / 1e6:12.0f} {ours[2]:7.2f}")
    print(f"{'DuckDB COPY TO parquet':<34} {mbs(duck[0]):8.0f} {duck[1] / 1e6:12.0f} {duck[2]:7.2f}")
    print(f"{'  (python + import duckdb alone)':<34} {'':>8} {base_py[1] / 1e6:12.0f}")
    speed = duck[0] / ours[0]
    memory = ours[1] / duck[1]
    print(f"\nstone vs DuckDB: {speed:.2f}x the throughput, {memory:.2f}x the peak memory, "
          f"{ours[2] / duck[2]:.2f}x the CPU time")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs "
          "(a loaded machine shrinks both throughputs; compare the ratios)")
    print(f"targets met: {'yes' if speed > 1 and memory <= 0.25 else 'NO'} (faster than DuckDB: {speed:.2f}; "
          f"memory <= 0.25 x DuckDB's: {memory:.2f})")
    for name in ("stone.parquet", "duckdb.parquet"):
        print(f"{name}: {(base / name).stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
