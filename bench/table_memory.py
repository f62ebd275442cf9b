"""A pod's memory once callers have asked hints of many option sets: a referee under gunicorn
as the image runs it (two workers), asked for matches of more Huit américain options values
than a worker keeps compiled, then `hard` and `win` hints of every Yams reading and of more
Generala option sets than a worker keeps tables for, each asked until both workers have
answered it; the memory (RSS, and PSS, which counts a page shared since the fork once) of the
master and of each worker, at the start and at their largest.

The tables of an option set other than the defaults are kept in bounded memos (Generala's
`TABLES_KEPT` option sets, the sheets' `SOLVERS_KEPT` solvers and `FUTURES_KEPT` futures),
so a worker's memory stops growing: what it reaches bounds a pod's, which the manifest's
memory limit (deploy/referee.yaml) must hold with room, or a pod whose callers vary their
options is killed for its memory.

Run alone: `python -m bench.table_memory [--generala-sets N]` (some minutes: each option set's
tables take seconds of CPU to build).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import time
from pathlib import Path

import yaml

from bench.__main__ import free_port, serve

MANIFEST = Path(__file__).resolve().parents[1] / "deploy" / "referee.yaml"
YAMS_RULES = ("yams", "yams_all_dice", "yahtzee", "yahtzee_free_joker")
HUIT_VALUES = 1200  # twice what a worker keeps, so each worker meets more than it keeps


def post(port: int, path: str, body: dict) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def hinted(port: int, game: str, options: dict, level: str | None) -> None:
    """A hint at a new match with these options (none without a level), asked again while
    its tables are built (`503 not_prepared`, off the request's path)."""
    status, match = post(port, f"/v1/games/{game}/matches",
                         {"players": ["ann", "bob"], "options": options,
                          "hints_allowed": True})
    assert status == 201, match
    if level is None:
        return
    body = {"state": match["state"], "player": match["to_act"][0], "level": level}
    for _ in range(600):
        status, answer = post(port, f"/v1/games/{game}/hints", body)
        if status != 503:
            assert status == 200, answer
            return
        time.sleep(float(answer.get("retry_after", 1)))
    raise AssertionError(f"no hint of {game} {options} after 600 tries")


def memory_mb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process, in MB."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    return tuple(int(re.search(rf"^{name}:\s+(\d+)", rollup, re.M).group(1)) // 1024
                 for name in ("Rss", "Pss"))


def processes(master: int) -> list[int]:
    """The master (gunicorn, the server's session leader) and its workers."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [master, *map(int, children)]


def manifest_memory_mb(kind: str = "limits") -> int:
    """The manifest's memory `limits` (or `requests`) of the referee's container, in MB."""
    deployment = next(d for d in yaml.safe_load_all(MANIFEST.read_text())
                      if d and d["kind"] == "Deployment")
    resources = deployment["spec"]["template"]["spec"]["containers"][0]["resources"]
    number, unit = re.fullmatch(r"(\d+)(Mi|Gi)", resources[kind]["memory"]).groups()
    return int(number) * (1024 if unit == "Gi" else 1) * 2**20 // 10**6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--generala-sets", type=int, default=12,
                        help="Generala option sets asked (its workers keep 8)")
    args = parser.parse_args()
    port = free_port()
    server = serve("referee:create_app()", port, 2)
    try:
        pids = processes(server.pid)
        largest = {pid: memory_mb(pid) for pid in pids}
        print("start (RSS / PSS, MB): " + ", ".join(
            f"{pid} {rss} / {pss}" for pid, (rss, pss) in largest.items()), flush=True)
        asked = [("yams", {"rules": rules, "turn_seconds": 0}) for rules in YAMS_RULES]
        asked += [("generala-dice", {"generala": 50 + 5 * k, "turn_seconds": 0})
                  for k in range(args.generala_sets)]
        # Matches of more Huit américain options values than a worker keeps compiled (512):
        # the tables of following and answering are shared by the values that differ only
        # in points, target, decks or house rules.
        for k in range(HUIT_VALUES):
            hinted(port, "huit-americain", {"target": 10 + k, "decks": 1 + k % 2}, None)
        for game, options in asked:
            for level in ("hard", "win"):
                for _ in range(4):  # the workers take turns: each answers some
                    hinted(port, game, options, level)
            for pid in pids:
                now = memory_mb(pid)
                largest[pid] = tuple(max(a, b) for a, b in zip(largest[pid], now))
        total = sum(pss for _, pss in largest.values())
        print("largest (RSS / PSS, MB): " + ", ".join(
            f"{pid} {rss} / {pss}" for pid, (rss, pss) in largest.items())
            + f"; the pod's PSS at most {total} MB against the manifest's limit of "
            f"{manifest_memory_mb()} MB")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
