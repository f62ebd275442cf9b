"""`make bench`: engine moves per second per game, HTTP moves per second beside a bare Flask
echo of the same payloads, state sizes at the start and end of a match, and Generala's hint
levels measured (`bench/generala.py`), the card games' hint levels against each other
(`bench/hints.py`), and the cost of one chance event with the random source (`bench/chance.py`).

Run from the repository root: `python -m bench [--seconds N] [--games id,id]`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import chance, generala, hints
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.codec import Match, StateCodec

ROOT = Path(__file__).resolve().parents[1]
NOW = 1_000_000.0
# Targets, read off a run of `make bench` (never timed tests): every engine in process, and
# Huit américain against RLCard's UNO measured in the same process.
ENGINE_TARGET = 100_000  # moves per second, legal moves listed at every step
UNO_RATIO_TARGET = 1.5


def random_match(engine, players: int, seed: int):
    """Yield (state, move) along one random match, legal moves listed at every step."""
    pick = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(names, options, f"bench-{seed}", now=NOW)
    while not engine.is_finished(state):
        move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
        yield state, move
        state, _ = engine.apply(state, move, now=NOW)
    yield state, None


def engine_rate(engine, seconds: float, *, uniform: bool = False) -> tuple[float, int]:
    """Moves per second of `engine` in random matches, legal moves listed at every step, and
    matches started. By default the shared random player with the game's playout options;
    `uniform`: a plain uniform choice with the default options, the same player as
    `uno_rate`'s (the shared player costs a filtered list per move that UNO's does not)."""
    options = engine.resolve_options({} if uniform else engine.playout_options)
    moves, matches, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        players = engine.min_players + seed % (min(engine.max_players, 4) - engine.min_players + 1)
        pick = random.Random(seed)
        state = engine.new_match(tuple(f"p{i}" for i in range(players)), dict(options),
                                 f"bench-{seed}", now=NOW)
        while not engine.is_finished(state) and (uniform or time.perf_counter() - start < seconds):
            moves_now = engine.legal_moves(state, now=NOW)
            move = pick.choice(moves_now) if uniform else random_move(engine, moves_now, pick)
            state, _ = engine.apply(state, move, now=NOW)
            moves += 1
        matches += 1
    return moves / (time.perf_counter() - start), matches


def uno_rate(seconds: float) -> tuple[float, int] | None:
    """RLCard's raw UNO game (two players) with random legal moves: moves per second and games
    played, or None when rlcard is not installed (it is in the `bench` extra)."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=2)
    game.np_random.seed(0)
    pick = random.Random(0)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            game.step(pick.choice(game.get_legal_actions()))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - start), games


def versus_uno(seconds: float, slices: int = 10) -> None:
    """huit-americain against RLCard's UNO, both measured now in this process: the ratio of
    our moves per second (legal moves listed at every step) to RLCard's must reach
    UNO_RATIO_TARGET. Each
    gets `seconds` in all, in slices taken in turn (UNO first, then us first), so that a change
    of load on a shared machine weighs on both alike."""
    engine = REGISTRY["huit-americain"]
    ours = uno = 0.0
    matches = games = 0
    for k in range(slices):
        for side in ("uno", "ours") if k % 2 == 0 else ("ours", "uno"):
            if side == "uno":
                got = uno_rate(seconds / slices)
                if got is None:
                    print("rlcard is not installed (pip install -e '.[bench]'): comparison skipped")
                    return
                uno += got[0] / slices
                games += got[1]
            else:
                rate, played = engine_rate(engine, seconds / slices, uniform=True)
                ours += rate / slices
                matches += played
    ratio = ours / uno
    verdict = "meets" if ratio >= UNO_RATIO_TARGET else "BELOW"
    print(f"huit-americain {ours:10,.0f} moves/s over {matches} matches; RLCard UNO "
          f"{uno:10,.0f} moves/s over {games} games; ratio {ratio:.2f} ({verdict} the "
          f"{UNO_RATIO_TARGET} target)")


def state_sizes(engine) -> tuple[int, int, int]:
    sizes = [len(json.dumps(engine.encode(s))) for s, _ in random_match(engine, engine.min_players, 7)]
    return sizes[0], max(sizes), sizes[-1]


def payloads(game_id: str, count: int) -> list[bytes]:
    engine = REGISTRY[game_id]
    bodies: list[bytes] = []
    seed = 0
    while len(bodies) < count:
        seed += 1
        for state, move in random_match(engine, engine.min_players, seed):
            if move is not None:
                wire = StateCodec(None).dump(engine, Match(state))
                bodies.append(json.dumps({"state": wire, "move": move}).encode())
    return bodies[:count]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(app_spec: str, port: int, workers: int, **extra_env: str) -> subprocess.Popen:
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WORKERS=str(workers),
               REFEREE_LOG_LEVEL="WARNING", **extra_env)
    env.pop("REFEREE_STATE_KEYS", None)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                             app_spec], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
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
    """Requests per second, non-2xx count and p99 latency, cycling through the bodies."""
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
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    p99 = re.search(r"^\s*99%\s+(\S+)", out, re.M)
    return rate, int(errors.group(1)) if errors else 0, p99.group(1) if p99 else "?"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--hint-matches", type=int, default=1000,
                        help="matches per pairing and table in the card games' hint tables")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print("\n== engine, in process (random matches, legal moves listed at every step; the "
          "player: referee.core.playout.random_move with the game's playout options)")
    for game_id in games:
        rate, matches = engine_rate(REGISTRY[game_id], args.seconds)
        start, largest, end = state_sizes(REGISTRY[game_id])
        verdict = "meets" if rate >= ENGINE_TARGET else "BELOW"
        print(f"{game_id:16s} {rate:10,.0f} moves/s over {matches} matches ({verdict} the "
              f"{ENGINE_TARGET:,} target); state bytes start {start}, largest {largest}, "
              f"end {end}")

    print("\n== the random source: cost per chance event (docs/FAIRNESS.md)")
    chance.report(args.seconds)

    if "huit-americain" in games:
        print("\n== huit-americain vs RLCard UNO (random moves, same process, same duration, "
              "in turns)")
        versus_uno(args.seconds)

    if "generala-dice" in games:
        print("\n== generala-dice hint levels (seeded self-play, the same games every run)")
        generala.report()

    cards = tuple(g for g in hints.GAMES if g in games)
    if cards:
        print("\n== card games' hint levels (seeded matches, the same every run; win rate of the "
              "stronger level, 95 % interval)")
        hints.report(args.hint_matches, cards)

    wrk = ensure_wrk()
    driver = f"wrk, {args.clients * 4} connections" if wrk else f"{args.clients} Python clients"
    print(f"\n== HTTP under gunicorn ({args.workers} worker(s), {driver}), moves endpoint vs a "
          "bare Flask echo of the same payloads")
    ref_port, echo_port = free_port(), free_port()
    referee = serve("referee:create_app()", ref_port, args.workers)
    echo = serve("bench.echo_app:create_app()", echo_port, args.workers)
    try:
        for game_id in games:
            bodies = payloads(game_id, 400)
            path = f"/v1/games/{game_id}/moves"
            # Echo and referee take turns in short slices and each keeps its best slice, so a
            # burst of load from elsewhere on a shared machine does not decide the ratio.
            echo_rate = ref_rate = 0.0
            echo_errors = ref_errors = 0
            p99 = "?"
            slice_seconds = max(1.0, args.seconds / 3)
            for _ in range(3):
                if wrk:
                    e_rate, e_err, _ = wrk_rate(wrk, echo_port, "/echo", bodies, slice_seconds,
                                                args.clients * 4)
                    r_rate, r_err, r_p99 = wrk_rate(wrk, ref_port, path, bodies, slice_seconds,
                                                    args.clients * 4)
                else:
                    e_rate, e_err = http_rate(echo_port, "/echo", bodies, slice_seconds,
                                              args.clients)
                    r_rate, r_err = http_rate(ref_port, path, bodies, slice_seconds, args.clients)
                    r_p99 = "?"
                echo_errors += e_err
                ref_errors += r_err
                echo_rate = max(echo_rate, e_rate)
                if r_rate > ref_rate:
                    ref_rate, p99 = r_rate, r_p99
            ratio = ref_rate / echo_rate
            verdict = "meets" if ratio >= 0.6 else "BELOW"
            size = sum(map(len, bodies)) // len(bodies)
            print(f"{game_id:16s} referee {ref_rate:8,.0f} req/s (p99 {p99}), echo "
                  f"{echo_rate:8,.0f} req/s, ratio {ratio:.2f} ({verdict} the 0.6 target); "
                  f"mean body {size} B; non-2xx {ref_errors}/{echo_errors}")
    finally:
        for proc in (referee, echo):
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
