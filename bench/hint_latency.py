"""Hint latency of the dice-sheet games once the service is ready: p50, p99 and the slowest
hint of every level of every sheet, over HTTP, against a referee under gunicorn at the default
settings (one worker), on positions of seeded random matches played through the API.

The tables a level needs for the default options are built before `/readyz` answers (the
warm-up), so no request measured here builds one: the target is a p99 under 100 ms for every
level and sheet (docs/PERFORMANCE.md).

Run alone: `python -m bench.hint_latency [--positions N]`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import time

from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame

TARGET_MS = 100
SHEET_GAMES = sorted(game_id for game_id, engine in REGISTRY.items()
                     if isinstance(engine, DiceSheetGame))


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def post(self, path: str, body: dict) -> tuple[int, dict, float]:
        """The answer's status and body, and the seconds it took."""
        start = time.perf_counter()
        self.conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = self.conn.getresponse()
        data = answer.read()
        return answer.status, json.loads(data), time.perf_counter() - start

    def ready(self, give_up: float = 120) -> None:
        deadline = time.monotonic() + give_up
        while time.monotonic() < deadline:
            self.conn.request("GET", "/readyz")
            answer = self.conn.getresponse()
            answer.read()
            if answer.status == 200:
                return
            time.sleep(0.2)
        raise RuntimeError("the referee never said it was ready")


def positions(client: Client, game_id: str, count: int) -> list[tuple[dict, str]]:
    """`count` (state, player to move) pairs from seeded random two-player matches, every move
    chosen at random among the legal ones."""
    pick = random.Random(game_id)
    found: list[tuple[dict, str]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        status, answer, _ = client.post(f"/v1/games/{game_id}/matches", {
            "players": ["ann", "bob"], "seed": f"latency-{seed}", "hints_allowed": True})
        assert status == 201, answer
        while answer["status"] != "finished" and len(found) < count:
            moves = answer["legal_moves"]
            found.append((answer["state"], moves[0]["player"]))
            status, answer, _ = client.post(f"/v1/games/{game_id}/moves", {
                "state": answer["state"], "move": pick.choice(moves)})
            assert status == 200, answer
    return found


def latencies(client: Client, game_id: str, level: str,
              asked: list[tuple[dict, str]]) -> list[float]:
    spent = []
    for state, player in asked:
        status, answer, seconds = client.post(f"/v1/games/{game_id}/hints", {
            "state": state, "player": player, "level": level})
        assert status == 200, (level, answer)
        spent.append(seconds * 1000)
    return sorted(spent)


def report(client: Client, count: int, games: list[str] = SHEET_GAMES) -> None:
    client.ready()
    for game_id in (g for g in SHEET_GAMES if g in games):
        asked = positions(client, game_id, count)
        for level in REGISTRY[game_id].hint_levels:
            spent = latencies(client, game_id, level, asked)
            p50, p99 = spent[len(spent) // 2], spent[min(len(spent) - 1, len(spent) * 99 // 100)]
            verdict = "meets" if p99 < TARGET_MS else "ABOVE"
            print(f"{game_id:14s} {level:7s} p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, slowest "
                  f"{spent[-1]:6.1f} ms over {len(spent)} positions ({verdict} the "
                  f"{TARGET_MS} ms target for p99)")


def main() -> None:
    from bench.__main__ import free_port, serve

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    port = free_port()
    server = serve("referee:create_app()", port, 1)
    try:
        report(Client(port), args.positions)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
