"""The costliest request: a search steered towards the largest inputs the limits allow, on
every operation of every game, each request's CPU measured (the serving thread's) in process,
as a worker serves it once ready (`warm_up` done, docs/OPERATIONS.md "The cost of a request").

Hypothesis draws the requests: a game, its options at the ends of their ranges, the largest
table or the smallest, a position along a seeded match, an operation with its largest
arguments (player ids of the longest length allowed, a view image's events as many and as long
as allowed, every hint level, six-column sheets), and `target`s each request's cost so that
the search climbs towards the costliest. `python -m bench.costliest [--examples N]` prints the
costliest found per operation; the suite runs a smaller search and holds it to the ceiling
(tests/fuzz/test_fuzz_costliest.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import random
import threading
import time
from typing import Any

from hypothesis import HealthCheck, assume, given, settings, strategies as st, target

import referee
from referee.core.errors import InvalidOptions
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.settings import from_environment
from referee.pictures.events import MAX_TEXT, MAX_TYPE
from referee.service.referee import warm_up

NOW = 1_000_000.0
LIMITS = from_environment({})
MAX_ID, MAX_ITEMS = LIMITS["MAX_PLAYER_ID_LENGTH"], LIMITS["MAX_LIST_ITEMS"]
# A view image's events, as large as the limits allow: MAX_ITEMS events of the longest type
# and strings (an unknown type keeps its type only; a declared one is checked whole).
EVENTS = [{"type": f"{k:0{MAX_TYPE}d}", "text": "x" * MAX_TEXT} for k in range(MAX_ITEMS)]
OPERATIONS = ("matches", "moves", "legal-moves", "validations", "views", "hints",
              "images/view", "sheets/svg", "sheets/pdf")
MOST_STEPS = 400


@dataclasses.dataclass(frozen=True)
class Cost:
    seconds: float
    request: str


def server() -> Any:
    """The application as a gunicorn worker serves it once ready (gunicorn.conf.py): the
    hints' tables warmed up, then what it starts with frozen out of the garbage collector's
    walks. Unfrozen, a full collection walking the tables (60 to 100 ms) falls in whichever
    request's allocations set it off, and a costly hint sets off many."""
    app = referee.create_app({"STATE_KEYS": "", "CLOCK": lambda: NOW})
    warm_up(REGISTRY)
    gc.collect()
    gc.freeze()
    return app.test_client()


def player_ids(count: int) -> tuple[str, ...]:
    """`count` ids of the longest length allowed."""
    return tuple(f"{n}".rjust(MAX_ID, "p") for n in range(count))


@st.composite
def extreme_options(draw, engine) -> dict[str, Any]:
    """Each option at one end of its range, its default or one of its choices."""
    chosen = {}
    for option in engine.options:
        spec = option.describe()
        if "choices" in spec:
            values = list(spec["choices"])
        elif spec["type"] == "integer":
            values = [v for v in (spec.get("minimum"), spec.get("maximum"), spec["default"])
                      if v is not None]
        elif spec["type"] == "boolean":
            values = [False, True]
        else:
            values = [spec["default"]]
        chosen[option.name] = draw(st.sampled_from(values))
    try:
        options = engine.resolve_options(chosen)
        engine.check_option_combination(options)
    except InvalidOptions:  # ends that do not go together: the defaults instead
        return engine.resolve_options({})
    return options


def operations_of(game_id: str) -> list[str]:
    return [o for o in OPERATIONS if not o.startswith("sheets") or game_id == "generala-dice"]


@st.composite
def requests(draw, game_id: str, operation: str) -> tuple[dict[str, Any], str]:
    """A request of `operation` on `game_id`: its body, and what it is in a few words."""
    engine = REGISTRY[game_id]
    options = draw(extreme_options(engine))
    fewest, most = engine.player_range(options)
    players = player_ids(draw(st.sampled_from(sorted({fewest, most}))))
    changed = {k: v for k, v in options.items()
               if v != engine.resolve_options({})[k]}
    about = f"{len(players)} players, options {changed}"
    if operation == "matches":
        return {"players": list(players), "options": options, "seed": "s" * 128,
                "viewer": players[0]}, about
    state = engine.new_match(players, options, draw(st.sampled_from("abcd")), now=NOW)
    rng = random.Random(draw(st.integers(0, 3)))
    steps = draw(st.integers(0, MOST_STEPS))
    for _ in range(steps):
        if engine.is_finished(state):
            break
        state, _ = engine.apply(state, random_move(engine, engine.legal_moves(state, now=NOW),
                                                   rng), now=NOW)
    wire = {**engine.encode(state), "seating": {"bots": [], "hints_allowed": True},
            "fairness": None}
    moves = engine.legal_moves(state, now=NOW)
    assume(moves or operation not in ("moves", "validations", "hints"))
    player = moves[0]["player"] if moves else players[0]
    body: dict[str, Any] = {"state": wire}
    if operation in ("moves", "validations"):
        body["move"] = rng.choice(moves)
    elif operation == "hints":
        body.update(player=player, level=draw(st.sampled_from(engine.hint_levels)))
    elif operation in ("legal-moves", "views"):
        body["player"] = player
    elif operation == "images/view":
        body.update(player=player, events=EVENTS)
    about += f", after {steps} random moves" + (f", level {body['level']}" if "level" in body
                                                  else "")
    return body, about


# A request costing more than this is measured a second time (see `search`).
AGAIN_ABOVE = 0.05


def timed(client, path: str, body: dict[str, Any]) -> tuple[Any, float]:
    """The answer to POSTing `body` to `path`, and the CPU its thread spent on it. The
    request is served on a thread of its own, as gunicorn's threaded worker serves each, and
    not from the depth of the search's calls: CPython 3.11 keeps a thread's frames in 16 kB
    chunks and maps a new one (then unmaps it) at every call that crosses a chunk's end, so
    a hard hint whose playout loop ran at such a depth here cost three times its CPU, two
    thirds of it page faults, where a worker serves the same request with none
    (python/cpython#142183, fixed from 3.13)."""
    served: dict[str, Any] = {}

    def serve() -> None:
        started = time.thread_time()
        served["answer"] = client.post(path, json=body)
        served["seconds"] = time.thread_time() - started

    thread = threading.Thread(target=serve, name="costliest-request")
    thread.start()
    thread.join()
    return served["answer"], served["seconds"]


def search(client, examples: int) -> dict[str, Cost]:
    """The costliest request found per operation, `examples` requests of each operation of
    each game, each search climbing towards its costliest."""
    costliest: dict[str, Cost] = {}
    for game_id in sorted(REGISTRY):
        for operation in operations_of(game_id):
            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(requests(game_id, operation))
            def measure(drawn):
                body, about = drawn
                path = f"/v1/games/{game_id}/{operation}"
                answer, seconds = timed(client, path, body)
                if seconds > AGAIN_ABOVE:
                    # Measured again: the request's own cost, not a collection of the whole
                    # heap that happened to fall in it (deterministic, so the same work).
                    again = timed(client, path, body)
                    answer, seconds = min((answer, seconds), again, key=lambda pair: pair[1])
                # A refusal is an answer too (503 not_prepared for tables being built).
                assert answer.status_code != 500, answer.get_data(as_text=True)[:300]
                target(seconds)
                known = costliest.get(operation)
                if known is None or seconds > known.seconds:
                    costliest[operation] = Cost(seconds, f"{game_id} {operation}: {about} "
                                                f"({answer.status_code})")

            measure()
    return costliest


def reference_seconds(client, requests_made: int = 200) -> float:
    """The CPU of one plain move request (a Generala dice roll, open mode), the median of
    `requests_made`: the unit the ceiling is scaled by on a slower or busier machine."""
    created = client.post("/v1/games/generala-dice/matches", json={
        "players": ["ann", "bob"], "seed": "reference"}).get_json()
    body = {"state": created["state"], "move": created["legal_moves"][0]}
    costs = []
    for _ in range(requests_made):
        started = time.thread_time()
        client.post("/v1/games/generala-dice/moves", json=body)
        costs.append(time.thread_time() - started)
    return sorted(costs)[len(costs) // 2]


def report(examples: int) -> None:
    client = server()
    unit = reference_seconds(client)
    found = search(client, examples)
    print(f"costliest request per operation ({examples} searched per operation and game; a "
          f"plain move request costs {unit * 1e3:.2f} ms of CPU here; ceiling 250 ms where it "
          "costs 0.2 ms):")
    for cost in sorted(found.values(), key=lambda cost: -cost.seconds):
        print(f"  {cost.seconds * 1e3:8.1f} ms  {cost.request}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=40,
                        help="requests searched per operation and game")
    report(parser.parse_args().examples)


if __name__ == "__main__":
    main()
