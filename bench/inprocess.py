"""Microseconds of CPU per move request in process (the WSGI application called as a server
calls it), per game, in open and sealed mode, beside the bare echo of the same bodies;
`--profile` prints cProfile's top lines for one game and mode. Run from the repository root:
`python -m bench.inprocess [--requests N] [--profile GAME:MODE]`."""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import os
import pstats
import time

from werkzeug.test import EnvironBuilder

from bench.__main__ import BENCH_KEY, payloads, sealed
from bench.echo_app import create_app as create_echo
from referee import create_app
from referee.games import REGISTRY

SORT = os.environ.get("PROFILE_SORT", "tottime")


def referees() -> dict:
    """The referee's WSGI application in each mode, its logging quiet unless
    REFEREE_LOG_LEVEL=INFO asks for the request log."""
    logging.getLogger("referee").setLevel(os.environ.get("REFEREE_LOG_LEVEL", "WARNING"))
    return {"open": create_app({"STATE_KEYS": ""}),
            "sealed": create_app({"STATE_KEYS": BENCH_KEY})}


def environs(path: str, bodies: list[bytes]) -> list[dict]:
    """The WSGI environs of a POST of each body to `path`, built before anything is measured
    (Werkzeug's test client would cost more than the echo)."""
    return [EnvironBuilder(path=path, method="POST", data=body,
                           content_type="application/json").get_environ() for body in bodies]


def post(app, prepared: list[dict], bodies: list[bytes], requests: range) -> None:
    """The requests numbered `requests`, cycling through the bodies, through the WSGI
    application itself as a server calls it; each must be answered 200."""
    statuses = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    for i in requests:
        environ = dict(prepared[i % len(prepared)])
        environ["wsgi.input"] = io.BytesIO(bodies[i % len(bodies)])
        b"".join(app(environ, start_response))
    refused = [s for s in statuses if not s.startswith("200")]
    assert not refused, refused[:3]


def per_request(app, path: str, bodies: list[bytes], count: int) -> float:
    prepared = environs(path, bodies)
    # CPU time of this process, not wall time: on a shared machine a request also waits for a
    # core, and that wait is no cost of the code measured.
    start = time.process_time()
    post(app, prepared, bodies, range(count))
    return (time.process_time() - start) / count * 1e6


def asking_every_seat_token(bodies: list[bytes]) -> list[bytes]:
    """The same move requests, each asking for the seat tokens of every player of its
    match."""
    out = []
    for body in bodies:
        data = json.loads(body)
        data["seat_tokens_for"] = data["state"]["players"]
        out.append(json.dumps(data).encode())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    parser.add_argument("--profile", default="")
    parser.add_argument("--players", type=int, default=0)
    parser.add_argument("--seat-tokens", action="store_true")
    args = parser.parse_args()
    apps, echo = referees(), create_echo()
    for game_id in args.games.split(","):
        engine = REGISTRY[game_id]
        fewest, most = engine.player_range(engine.resolve_options(engine.playout_options))
        players = min(max(args.players, fewest), most)
        bodies = payloads(game_id, 200, players)
        if args.seat_tokens:
            bodies = asking_every_seat_token(bodies)
        path = f"/v1/games/{game_id}/moves"
        for mode, app in apps.items():
            posted = bodies if mode == "open" else sealed(game_id, bodies)
            per_request(app, path, posted, 50)
            if args.profile == f"{game_id}:{mode}":
                profile = cProfile.Profile()
                profile.enable()
                per_request(app, path, posted, args.requests)
                profile.disable()
                pstats.Stats(profile).sort_stats(SORT).print_stats(40)
            # Taken in turns so that load from elsewhere weighs on both alike.
            ours = theirs = 0.0
            for _ in range(3):
                theirs += per_request(echo, "/echo", posted, args.requests // 3)
                ours += per_request(app, path, posted, args.requests // 3)
            print(f"{game_id:16s} {mode:6s} {players:2d} players{' +seats' * args.seat_tokens} "
                  f"referee {ours / 3:7.1f} us/request, echo "
                  f"{theirs / 3:7.1f} us/request, ratio {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
