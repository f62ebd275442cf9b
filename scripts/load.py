"""Load run: `make load` (LOAD_SECONDS per game, default 60) drives each game's move endpoint
with wrk under gunicorn on loopback, and records requests per second, p50/p99 latency and the
workers' resident memory before and after. Memory must not grow with requests served: the run
fails if a worker grows by more than LOAD_MAX_GROWTH_MB (default 20) over a game's run.

It first compares keep-alive (the default gthread workers, THREADS=2, and THREADS=4) with
one connection per request (THREADS=1: gunicorn's sync worker answers `Connection: close`,
so wrk reconnects for every request), LOAD_COMPARE_SECONDS (default 15) each on Generala's
move endpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.__main__ import ensure_wrk, free_port, payloads, serve, workers_of  # noqa: E402
from referee.games import REGISTRY  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wrk_run(wrk: str, port: int, path: str, bodies: list[bytes], seconds: int,
            connections: int) -> dict[str, str]:
    lua = ["bodies = {"] + ["  " + json.dumps(b.decode()) + "," for b in bodies] + [
        "}", "i = 0", 'wrk.method = "POST"', 'wrk.headers["Content-Type"] = "application/json"',
        "request = function()", "  i = i % #bodies + 1",
        "  return wrk.format(nil, nil, nil, bodies[i])", "end"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write("\n".join(lua))
    try:
        out = subprocess.run([wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--latency",
                              "-s", script.name, f"http://127.0.0.1:{port}{path}"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "rate": re.search(r"Requests/sec:\s+([\d.]+)", out).group(1),
        # The distribution's lines only: a column of Thread Stats may end in "50%" too.
        "p50": re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1),
        "p99": re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1),
        "requests": re.search(r"(\d+) requests in", out).group(1),
        "non2xx": errors.group(1) if errors else "0",
    }


def wait_ready(port: int, timeout: float = 60) -> None:
    """Until /readyz answers 200: the workers have imported the games and made the contract."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the referee did not become ready")


KEEPALIVE_CONFIGS = (("keep-alive (gthread, THREADS=2)", "2"),
                     ("keep-alive (gthread, THREADS=4)", "4"),
                     ("close (sync, THREADS=1)", "1"))


def millis(latency: str) -> float:
    """wrk's latency (`850.00us`, `2.63ms`, `1.02s`, `1.10m`) in milliseconds."""
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", latency.strip())
    if found is None:
        raise ValueError(f"wrk printed a latency this script does not read: {latency!r}")
    number, unit = found.groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def compare_keepalive(wrk: str, workers: int, connections: int, seconds: int,
                      rounds: int = 3) -> None:
    """The three servers run side by side (an idle one costs nothing) and are driven in
    turn, `rounds` times, so a change in the machine's other load touches them alike; the
    median round of each is printed."""
    path, bodies = "/v1/games/generala-dice/moves", payloads("generala-dice", 400)
    slice_seconds = max(2, seconds // rounds)
    print(f"keep-alive: {rounds} rounds of {slice_seconds}s each, {workers} workers, wrk "
          f"{connections} connections, POST {path}")
    servers = {}
    try:
        for label, threads in KEEPALIVE_CONFIGS:
            port = free_port()
            servers[label] = (port, serve("referee:create_app()", port, workers,
                                          THREADS=threads))
            wait_ready(port)
            wrk_run(wrk, port, path, bodies, 2, connections)
        results: dict[str, list[dict[str, str]]] = {label: [] for label in servers}
        for _ in range(rounds):
            for label, (port, _) in servers.items():
                results[label].append(wrk_run(wrk, port, path, bodies, slice_seconds,
                                              connections))
    finally:
        for _, server in servers.values():
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)
    for label, runs in results.items():
        rates = sorted(float(r["rate"]) for r in runs)
        p50, p99 = (statistics.median_high(millis(r[q]) for r in runs) for q in ("p50", "p99"))
        errors = sum(int(r["non2xx"]) for r in runs)
        print(f"  {label:32s} {statistics.median_high(rates):8,.0f} req/s  p50 {p50:6.2f} ms  "
              f"p99 {p99:6.2f} ms  (rounds: {', '.join(f'{r:,.0f}' for r in rates)} "
              f"req/s)  non-2xx {errors}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("LOAD_SECONDS", 60)))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--compare-seconds", type=int,
                        default=int(os.environ.get("LOAD_COMPARE_SECONDS", 15)))
    parser.add_argument("--max-growth-mb", type=float,
                        default=float(os.environ.get("LOAD_MAX_GROWTH_MB", 20)))
    args = parser.parse_args()
    wrk = ensure_wrk()
    if not wrk:
        print("wrk is missing (apt-get install wrk)")
        return 1
    compare_keepalive(wrk, args.workers, args.connections, args.compare_seconds)
    port = free_port()
    # Worker recycling is off for the run: memory must stay flat without it.
    server = serve("referee:create_app()", port, args.workers, MAX_REQUESTS="0")
    wait_ready(port)
    failed = False
    print(f"load: {args.seconds}s per game, gunicorn {args.workers} gthread workers, wrk 2 threads "
          f"{args.connections} connections, {os.cpu_count()} cores")
    try:
        for game_id in sorted(REGISTRY):
            bodies = payloads(game_id, 400)
            # A short warm-up first, so imports and first-use caches are not counted as growth.
            wrk_run(wrk, port, f"/v1/games/{game_id}/moves", bodies, 2, args.connections)
            workers = workers_of(server.pid)
            before = [rss_mb(w) for w in workers]
            result = wrk_run(wrk, port, f"/v1/games/{game_id}/moves", bodies, args.seconds,
                             args.connections)
            after = [rss_mb(w) for w in workers]
            growth = max(b - a for a, b in zip(before, after))
            failed |= growth > args.max_growth_mb or result["non2xx"] != "0"
            print(f"{game_id:16s} {float(result['rate']):8,.0f} req/s  p50 {result['p50']:>8s}  "
                  f"p99 {result['p99']:>8s}  requests {result['requests']}  non-2xx "
                  f"{result['non2xx']}  worker RSS MB before {[round(b, 1) for b in before]} "
                  f"after {[round(a, 1) for a in after]}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    print("load: memory flat and no errors" if not failed else "load: FAILED (growth or errors)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
