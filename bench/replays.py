"""Moves per second of a replay (`/replays`, docs/RESULTS.md) against the same moves posted one
by one to `/moves`, per game, in open and sealed mode.

The matches are whole matches as an integrator would replay them: the game's default options
at a usual table (`TABLES`), played by the shared random player, not the short matches of the
engine rows' playout options (one round of Empereur between two players: 14 to 48 moves,
too few to say what a match costs). Generala, Yacht and Yams are played at four (Generala:
167 to 175 moves), Generala of cards at four (180 to 250 moves), Huit américain at four (to
100 points: 58 to 146 moves). Two exceptions, each for a reason: Empereur is played by two (three rounds, 84
to 137 moves), since random players at three or four seats pass and draw for nearly 400 to
over 30,000 moves, far past a human match and past the replay's bound
(REFEREE_MAX_REPLAY_MOVES, 2000); and the dice games' turn clock is off
(`turn_seconds` 0), since the moves are posted one by one against the referee's own clock,
by which the turns' deadlines, set at the instants the bench played them at, have long
passed (a match's number of moves is the same either way). The referee signs results, as one whose
results a ranking trusts does: a finished replay, and the move that finishes a sealed match,
carry a signed statement.

Over HTTP (`make bench`'s HTTP section, a referee under gunicorn): one client on one kept-alive
connection posts each match's moves one by one, each waiting for the answer before the next
(as a client with the moves of a match played elsewhere does), then posts the matches'
replays; moves per second of wall time. The 50x target is this figure's.

In process (`python -m bench.replays`): the WSGI application called as a server calls it, CPU
time of this process, so without the round trip: posting one by one pays, per move, a
request's reading and checks, the state's decoding (or opening), its encoding (or sealing) and
the answer; a replay pays the move's check and the engine's apply per move, the rest once.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import io
import json
import logging
import time

from werkzeug.test import EnvironBuilder

from bench.engines import random_match, sealed
from referee import create_app
from referee.games import REGISTRY
from referee.service.codec import Match, StateCodec

TARGET = 50  # a replay's moves per second over posting them one by one, at least
KEY = "bench-replay-sealing-key-of-32-characters-or-more"
# The result signing key (REFEREE_RESULT_KEYS' form: a key id, then 32 bytes in base64url).
RESULT_KEY = "bench:" + base64.urlsafe_b64encode(bytes(32)).rstrip(b"=").decode()
# Per game, the players at the table and the options the matches are played with (the
# module's docstring says why).
TABLES: dict[str, tuple[int, dict]] = {
    "empereur": (2, {}),
    "generala-cards": (4, {}),
    "generala-dice": (4, {"turn_seconds": 0}),
    "huit-americain": (4, {}),
    "yacht": (4, {"turn_seconds": 0}),
    "yams": (4, {"turn_seconds": 0}),
}


def matches(game_id: str, count: int) -> list[tuple[dict, list[bytes], bytes]]:
    """`count` random whole matches: the creation's body, each move's `/moves` body (the
    state before it, open mode), and the replay's body."""
    engine = REGISTRY[game_id]
    players, options = TABLES.get(game_id, (engine.min_players, engine.playout_options))
    played = []
    for seed in range(1, count + 1):
        steps = list(random_match(engine, players, seed, options))
        creation = {"players": list(steps[0][0].players), "options": options,
                    "seed": f"bench-{seed}"}
        posts = [json.dumps({"state": StateCodec(None).dump(engine, Match(state)),
                             "move": move}).encode() for state, move in steps if move]
        replay = json.dumps({"creation": creation, "moves": [
            {"move": move} for _, move in steps if move]}).encode()
        played.append((creation, posts, replay))
    return played


def served(app, path: str, bodies: list[bytes]) -> float:
    """CPU seconds to serve `bodies` to `path`, each answered 200."""
    environs = [EnvironBuilder(path=path, method="POST", data=body,
                               content_type="application/json").get_environ()
                for body in bodies]
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    start = time.process_time()
    for environ, body in zip(environs, bodies):
        environ["wsgi.input"] = io.BytesIO(body)
        b"".join(app(environ, start_response))
    spent = time.process_time() - start
    refused = [s for s in statuses if not s.startswith("200")]
    assert not refused, refused[:3]
    return spent


def rates(game_id: str, mode: str, count: int, rounds: int = 3) -> tuple[float, float, int]:
    """Moves per second posted one by one and replayed (the best of `rounds`), and the moves."""
    app = create_app({"STATE_KEYS": KEY if mode == "sealed" else "", "REQUEST_LOG": False,
                      "RESULT_KEYS": RESULT_KEY})
    played = matches(game_id, count)
    posts = [body for _, bodies, _ in played for body in bodies]
    if mode == "sealed":
        posts = sealed(game_id, posts, KEY)
    replays = [replay for _, _, replay in played]
    moves = len(posts)
    path = f"/v1/games/{game_id}"
    posting = min(served(app, f"{path}/moves", posts) for _ in range(rounds))
    replaying = min(served(app, f"{path}/replays", replays) for _ in range(rounds))
    return moves / posting, moves / replaying, moves


def engine_alone(game_id: str, count: int, rounds: int = 3) -> float:
    """CPU moves per second of the engine alone over the same matches: each created, and
    its moves applied (the most a replay could reach, with nothing checked, answered or
    signed)."""
    engine = REGISTRY[game_id]
    played = [(creation, [entry["move"] for entry in json.loads(replay)["moves"]])
              for creation, _, replay in matches(game_id, count)]

    def spent() -> float:
        start = time.process_time()
        for creation, moves in played:
            state = engine.new_match(tuple(creation["players"]),
                                     engine.resolve_options(creation["options"]),
                                     creation["seed"], now=0)
            for move in moves:
                state, _ = engine.apply(state, move, now=0)
        return time.process_time() - start

    return sum(len(moves) for _, moves in played) / min(spent() for _ in range(rounds))


def report(games: list[str], count: int) -> None:
    logging.getLogger("referee").setLevel(logging.WARNING)
    for game_id in games:
        print(f"{game_id:16s} engine alone {engine_alone(game_id, count):9,.0f} moves/s "
              "(creation and apply, the same matches)")
        for mode in ("open", "sealed"):
            one_by_one, replayed, moves = rates(game_id, mode, count)
            ratio = replayed / one_by_one
            verdict = "meets" if ratio >= TARGET else "BELOW"
            print(f"{game_id:16s} {mode:6s} replay {replayed:9,.0f} moves/s, posted one by one "
                  f"{one_by_one:7,.0f} moves/s: {ratio:5.1f}x ({verdict} the {TARGET}x target; "
                  f"{count} matches, {moves} moves)")


def over_http(port: int, game_id: str, mode: str, count: int, key: str) -> None:
    """The HTTP row: wall-time moves per second, posted one by one and replayed, on the
    referee serving at `port` (in `mode`, sealed with `key`)."""
    played = matches(game_id, count)
    moves = sum(len(bodies) for _, bodies, _ in played)
    path = f"/v1/games/{game_id}"
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json"}

    def post(target: str, body: bytes) -> None:
        conn.request("POST", target, body, headers)
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200, (target, answer.status)

    times = {"posted": [], "replayed": []}
    for _ in range(3):
        for _, bodies, replay in played:
            sent = sealed(game_id, bodies, key) if mode == "sealed" else bodies
            start = time.perf_counter()
            for body in sent:
                post(f"{path}/moves", body)
            times["posted"].append(time.perf_counter() - start)
            start = time.perf_counter()
            post(f"{path}/replays", replay)
            times["replayed"].append(time.perf_counter() - start)
    conn.close()
    one_by_one = 3 * moves / sum(times["posted"])
    replayed = 3 * moves / sum(times["replayed"])
    ratio = replayed / one_by_one
    verdict = "meets" if ratio >= TARGET else "BELOW"
    print(f"{game_id:16s} {mode:6s} replay {replayed:9,.0f} moves/s, posted one by one "
          f"{one_by_one:7,.0f} moves/s: {ratio:5.1f}x ({verdict} the {TARGET}x target; "
          f"{count} matches, {moves} moves, one connection, wall time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    args = parser.parse_args()
    report(args.games.split(","), args.matches)


if __name__ == "__main__":
    main()
