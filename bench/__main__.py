"""`make bench`: engine moves per second per game, HTTP moves per second at the referee's
default settings (and with its request log off) beside a bare Flask echo of the same
payloads, state sizes at the start and end of a match, and Generala's hint levels measured
(`bench/generala.py`), every dice sheet's exact optimum beside seeded games played by it
(`bench/sheets.py`: Generala, Yacht, Yahtzee, Yams), the card games' hint levels against each
other (`bench/hints.py`), the cost of one chance event with the random source
(`bench/chance.py`), and a replay's moves per second against posting the same moves one by
one (`bench/replays.py`).

Run from the repository root: `python -m bench [--seconds N] [--games id,id]`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import subprocess
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import chance, costliest, generala, hint_latency, hints, replays, sheets
from bench.engines import (BENCH_KEY, ENGINE_TARGET, engine_rate, random_match, sealed, spread,
                           versus_uno)
from referee.games import REGISTRY
from referee.service.codec import Match, StateCodec

ROOT = Path(__file__).resolve().parents[1]
# Targets, read off a run of `make bench` (never timed tests); the engines' in bench.engines.
ECHO_RATIO_TARGET = 0.9  # the move endpoint's req/s over the bare echo's, open and sealed
LOG_COST_TARGET = 0.05  # the request log's share of the move endpoint's req/s, at most
# The referee served beside the default one, with its request log off (the figure the
# request log's cost is read from).
LOG_OFF = "request log off"
# Rounds of the HTTP comparison, each a slice of every server in turn: one ratio of two
# one-second slices moves by about ±0.1 on a shared machine of two cores (seen: 0.77 to
# 1.16 around 0.93 in 16 rounds), and the median of nine by about a third of that.
HTTP_ROUNDS = 9
# Random whole matches of each game replayed by the replay rows.
REPLAY_MATCHES = 5
# The gunicorn settings every server runs with: the referee's defaults (gunicorn.conf.py).
THREADS = "2"


def state_sizes(engine) -> tuple[int, int, int]:
    sizes = [len(json.dumps(engine.encode(s))) for s, _ in random_match(engine, engine.min_players, 7)]
    return sizes[0], max(sizes), sizes[-1]


def payloads(game_id: str, count: int, players: int | None = None) -> list[bytes]:
    """Move requests along random matches of `players` (the game's fewest by default)."""
    engine = REGISTRY[game_id]
    bodies: list[bytes] = []
    seed = 0
    while len(bodies) < count:
        seed += 1
        for state, move in random_match(engine, players or engine.min_players, seed):
            if move is not None:
                wire = StateCodec(None).dump(engine, Match(state))
                bodies.append(json.dumps({"state": wire, "move": move}).encode())
    return bodies[:count]


def workers_of(master: int) -> list[int]:
    """The process ids of a gunicorn master's workers (Linux: read from /proc)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                children.append(int(entry.name))
    return sorted(children)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(app_spec: str, port: int, workers: int, root: Path = ROOT,
          **extra_env: str) -> subprocess.Popen:
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WORKERS=str(workers),
               THREADS=THREADS)
    for setting in ("REFEREE_STATE_KEYS", "REFEREE_LOG_LEVEL", "REFEREE_REQUEST_LOG",
                    "REFEREE_RESULT_KEYS"):
        env.pop(setting, None)
    env.update(extra_env)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                             app_spec], cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    # Until a worker answers (any status: the echo has no /readyz), not merely until the
    # port is bound: gunicorn binds it before its workers warm up (gunicorn.conf.py).
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/readyz")
            conn.getresponse().read()
            conn.close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{app_spec} did not start on port {port}")


def _client(port: int, path: str, bodies: list[bytes], seconds: float, queue) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json"}
    done = errors = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        body = bodies[done % len(bodies)]
        conn.request("POST", path, body, headers)
        response = conn.getresponse()
        response.read()
        errors += response.status != 200
        done += 1
    queue.put((done, errors, time.perf_counter() - start))


def ensure_wrk() -> str | None:
    """wrk (Debian's package) drives the HTTP figures; installed on first use when possible."""
    found = shutil.which("wrk")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    subprocess.run("apt-get install -y -qq wrk || (apt-get update -qq && apt-get install -y -qq wrk)",
                   shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return shutil.which("wrk")


def wrk_rate(wrk: str, port: int, path: str, bodies: list[bytes], seconds: float,
             connections: int) -> tuple[float, int, str]:
    """Requests per second, failed requests (an answer of 400 or more, or none) and p99
    latency, cycling through the bodies."""
    lua = ["bodies = {"]
    lua += ["  " + json.dumps(b.decode()) + "," for b in bodies]
    lua += ["}", "i = 0", 'wrk.method = "POST"',
            'wrk.headers["Content-Type"] = "application/json"',
            "request = function()", "  i = i % #bodies + 1",
            "  return wrk.format(nil, nil, nil, bodies[i])", "end"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write("\n".join(lua))
    try:
        out = subprocess.run([wrk, "-t1", f"-c{connections}", f"-d{max(1, int(seconds))}s",
                              "--latency", "-s", script.name, f"http://127.0.0.1:{port}{path}"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    # wrk counts an answer of status 400 or more as "Non-2xx or 3xx"; a request that got
    # no answer at all (a read error, a timeout) is a socket error: both are failures.
    refused = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    unanswered = re.search(r"Socket errors:\s+connect (\d+), read (\d+), write (\d+), "
                           r"timeout (\d+)", out)
    failed = (int(refused.group(1)) if refused else 0) + (
        sum(map(int, unanswered.groups())) if unanswered else 0)
    p99 = re.search(r"^\s*99%\s+(\S+)", out, re.M)
    return rate, failed, p99.group(1) if p99 else "?"


def http_rate(port: int, path: str, bodies: list[bytes], seconds: float, clients: int):
    queue: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client, args=(port, path, bodies, seconds, queue))
             for _ in range(clients)]
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    done = sum(r[0] for r in results)
    errors = sum(r[1] for r in results)
    return done / max(r[2] for r in results), errors


def http_versus_echo(game_id: str, mode: str, ports: dict[str, int], echo_port: int,
                     bodies: dict[str, list[bytes]], args, wrk: str | None) -> None:
    """One line per referee (this tree's, the baseline's when given, then this tree's with its
    request log off, whose line says what the log costs): its moves endpoint against the echo of
    the same bodies (each tree gets its own sealed tokens, and the echo echoes each tree's
    bodies). Each server is first driven for one slice with this game's bodies and mode, not
    timed (a worker's first requests of a game fill its tables and caches: a figure of the
    steady endpoint leaves them out; a refusal there still counts). Then each round drives the
    echoes and every referee in turn (in a rotating order) for a short slice; the ratio is the
    median over HTTP_ROUNDS rounds of the referee's rate over its echo's in the same round, so
    that load from elsewhere on a shared machine weighs on both sides of each ratio alike."""
    path = f"/v1/games/{game_id}/moves"
    rounds = HTTP_ROUNDS
    slice_seconds = max(1.0, args.seconds / rounds)
    echo_of = {side: "echo" if bodies[side] == bodies["referee"] else f"echo of {side}"
               for side in ports}
    drives = {"echo": (echo_port, "/echo", bodies["referee"])}
    for side, port in ports.items():
        drives[side] = (port, path, bodies[side])
        drives.setdefault(echo_of[side], (echo_port, "/echo", bodies[side]))
    sides = list(drives)
    rates: dict[str, list[float]] = {side: [] for side in sides}
    errors = dict.fromkeys(sides, 0)
    p99s: dict[str, list[str]] = {side: [] for side in sides}

    def drive(side: str) -> tuple[float, int, str]:
        port, target, sent = drives[side]
        if wrk:
            return wrk_rate(wrk, port, target, sent, slice_seconds, args.clients * 4)
        (rate, failed), p99 = http_rate(port, target, sent, slice_seconds, args.clients), "?"
        return rate, failed, p99

    for side in sides:
        errors[side] += drive(side)[1]
    for k in range(rounds):
        for side in sides[k % len(sides):] + sides[:k % len(sides)]:
            rate, failed, p99 = drive(side)
            rates[side].append(rate)
            errors[side] += failed
            p99s[side].append(p99)
    for side in ports:
        echo = echo_of[side]
        size = sum(map(len, bodies[side])) // len(bodies[side])
        label = "" if side == "referee" else f" [{side}]"
        invalid = [name for name in (side, echo) if errors[name]]
        if invalid:
            # A refused request costs less than a served one: a rate with refusals in it
            # is not a figure of the endpoint (a baseline tree that refuses today's bodies).
            print(f"{game_id:16s} {mode:6s} INVALID: non-2xx answers during the run "
                  f"({', '.join(f'{name} {errors[name]}' for name in invalid)}); no rate "
                  f"or ratio is given{label}")
            continue
        ratio = median_ratio(rates[side], rates[echo])
        if side == LOG_OFF:
            cost = 1 - median_ratio(rates["referee"], rates[side])
            verdict = (f"the request log costs {cost:.1%} of the default's req/s: "
                       f"{'meets' if cost <= LOG_COST_TARGET else 'ABOVE'} the "
                       f"{LOG_COST_TARGET:.0%} target")
        else:
            verdict = (f"{'meets' if ratio >= ECHO_RATIO_TARGET else 'BELOW'} the "
                       f"{ECHO_RATIO_TARGET} target")
        print(f"{game_id:16s} {mode:6s} referee {statistics.median(rates[side]):7,.0f} req/s "
              f"(p99 {sorted(p99s[side])[len(p99s[side]) // 2]}), echo "
              f"{statistics.median(rates[echo]):7,.0f} req/s, ratio {ratio:.2f} ({verdict}); "
              f"mean body {size} B{label}")


def median_ratio(tops: list[float], bottoms: list[float]) -> float:
    """The median over rounds of one rate over another. A round in which a server answered
    nothing in its whole slice (its worker recycling, at the default MAX_REQUESTS) is left
    out, as it tells nothing of the endpoint's rate."""
    return statistics.median([t / b for t, b in zip(tops, bottoms) if t and b] or [0.0])


# Run inside another checkout: its own sealing turns open bodies (JSON lines on standard
# input) into the sealed bodies it takes, so a change of token format between the trees does
# not make the baseline refuse every request.
SEAL_IN_TREE = """
import json, sys
from bench.__main__ import sealed
game_id = sys.argv[1]
bodies = [line.encode() for line in sys.stdin.read().splitlines()]
for body in sealed(game_id, bodies):
    print(body.decode())
"""


def sealed_in(root: Path, game_id: str, bodies: list[bytes]) -> list[bytes]:
    """`bodies` sealed by the checkout at `root` (this tree's sealing if that fails: the
    rows then show what the tree answers)."""
    if root == ROOT:
        return sealed(game_id, bodies)
    done = subprocess.run([sys.executable, "-c", SEAL_IN_TREE, game_id], cwd=root,
                          env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True,
                          input=b"\n".join(bodies))
    out = done.stdout.splitlines()
    if done.returncode != 0 or len(out) != len(bodies):
        print(f"({root} could not seal the bodies itself; it gets this tree's tokens)")
        return sealed(game_id, bodies)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout whose referee is served and measured beside "
                             "this one's in the HTTP section (before/after figures)")
    parser.add_argument("--http-only", action="store_true",
                        help="only the HTTP section (referee and echo side by side)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--hint-matches", type=int, default=1000,
                        help="matches per pairing and table in the card games' hint tables")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if not args.http_only:
        in_process(games, args.seconds, args.hint_matches)
    http_section(games, args)


def in_process(games: list[str], seconds: float, hint_matches: int) -> None:
    print("\n== engine, in process (random matches, legal moves listed at every step; the "
          "player: referee.core.playout.random_move with the game's playout options; moves per "
          "second of time in the engine, the target's figure, and of the whole loop, the "
          "player's choice included)")
    for game_id in games:
        rate, with_player, matches, slice_rates = engine_rate(REGISTRY[game_id], seconds)
        start, largest, end = state_sizes(REGISTRY[game_id])
        verdict = "meets" if rate >= ENGINE_TARGET else "BELOW"
        print(f"{game_id:16s} {rate:10,.0f} moves/s in the engine ({with_player:,.0f} with the "
              f"player) over {matches} matches ({verdict} the {ENGINE_TARGET:,} target"
              f"{spread(slice_rates)}); state bytes start {start}, largest {largest}, end {end}")

    print("\n== replays in process (docs/RESULTS.md): CPU moves/s of one replay a match "
          "against the same moves posted one by one, without the round trip")
    replays.report(games, REPLAY_MATCHES)

    print("\n== the random source: cost per chance event (docs/FAIRNESS.md)")
    chance.report(seconds)

    print("\n== the costliest request, a worst-case search (docs/OPERATIONS.md, \"The cost of "
          "a request\")")
    costliest.report(examples=40)

    if "huit-americain" in games:
        print("\n== huit-americain vs RLCard UNO (random moves, same process, same duration, "
              "in turns)")
        versus_uno(seconds)

    if "generala-dice" in games:
        print("\n== generala-dice hint levels (seeded self-play, the same games every run)")
        generala.report()
        print("\n== dice sheets: exact solitaire optimum, its tables' time and memory, and "
              "seeded games played by it (95 % interval)")
        sheets.report()

    cards = tuple(g for g in hints.GAMES if g in games)
    if cards:
        print("\n== card games' hint levels (seeded matches, the same every run; win rate of the "
              "stronger level, 95 % interval)")
        hints.report(hint_matches, cards)


def http_section(games: list[str], args) -> None:
    wrk = ensure_wrk()
    driver = f"wrk, {args.clients * 4} connections" if wrk else f"{args.clients} Python clients"
    print(f"\n== HTTP under gunicorn ({args.workers} worker(s) of {THREADS} threads each, "
          f"{driver}), moves endpoint at the default settings (request log on; then with "
          f"REFEREE_REQUEST_LOG=off, labelled) vs a bare Flask echo of the same bodies (same "
          f"gunicorn settings), open and sealed mode")
    echo_port = free_port()
    servers = [serve("bench.echo_app:create_app()", echo_port, args.workers)]
    ports: dict[str, dict[str, int]] = {"open": {}, "sealed": {}}
    trees = {"referee": ROOT, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    referees = {name: (root, {}) for name, root in trees.items()}
    referees[LOG_OFF] = (ROOT, {"REFEREE_REQUEST_LOG": "off"})
    try:
        for name, (root, settings) in referees.items():
            for mode, keys in (("open", {}), ("sealed", {"REFEREE_STATE_KEYS": BENCH_KEY})):
                port = ports[mode][name] = free_port()
                # Signing results, as the replay rows' referee does (bench/replays.py).
                servers.append(serve("referee:create_app()", port, args.workers, root,
                                     **settings, **keys,
                                     REFEREE_RESULT_KEYS=replays.RESULT_KEY))
        for game_id in games:
            open_bodies = payloads(game_id, 400)
            http_versus_echo(game_id, "open", ports["open"], echo_port,
                             dict.fromkeys(referees, open_bodies), args, wrk)
            sealed_bodies = {name: sealed_in(root, game_id, open_bodies)
                             for name, root in trees.items()}
            # The same tokens for both of this tree's referees: they share one echo.
            sealed_bodies[LOG_OFF] = sealed_bodies["referee"]
            http_versus_echo(game_id, "sealed", ports["sealed"], echo_port, sealed_bodies,
                             args, wrk)
        print(f"\n== replays over HTTP (docs/RESULTS.md): moves/s of one replay a match against "
              f"the same moves posted one by one, each waiting for its answer, on one "
              f"connection to this tree's referee (target: {replays.TARGET}x)")
        for game_id in games:
            for mode, key in (("open", ""), ("sealed", BENCH_KEY)):
                replays.over_http(ports[mode]["referee"], game_id, mode, REPLAY_MATCHES, key)
        print(f"\n== dice-sheet hints once ready: latency of every level over HTTP on "
              f"positions of seeded random matches (target: p99 under "
              f"{hint_latency.TARGET_MS} ms)")
        hint_latency.report(hint_latency.Client(ports["open"]["referee"]), 200, games)
    finally:
        for proc in servers:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
