"""Records of real matches played over HTTP, as a client keeps them (docs/FAIRNESS.md,
"The record"): the creation's and every move's events, the commitment and the revealed seed."""

from __future__ import annotations

import copy
import random

from referee.core.playout import random_move
from referee.games import REGISTRY


def record_match(client, game_id: str, seed: int, viewer: str | None = None,
                 players: int | None = None) -> dict:
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(players or engine.min_players)]
    options = engine.playout_options
    extra = {"viewer": viewer} if viewer else {}
    outcome = client.post(f"/v1/games/{game_id}/matches",
                          json={"players": players, "options": options, **extra}).get_json()
    record = {"game": game_id, "players": players, "options": options, "moves": [], **extra,
              "seed_commitment": outcome["seed_commitment"], "events": [outcome["events"]]}
    while outcome["status"] != "finished":
        moves = outcome["legal_moves"]
        if viewer:  # a player's own record: the others' moves come from the full list
            moves = client.post(f"/v1/games/{game_id}/legal-moves",
                                json={"state": outcome["state"]}).get_json()["legal_moves"]
        move = random_move(engine, moves, pick)
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": move, **extra}).get_json()
        record["moves"].append(move)
        record["events"].append(outcome["events"])
    record["seed"] = outcome["seed"]
    return record


def chance_events(record: dict) -> list[dict]:
    return [e for events in record["events"] for e in events if "chance" in e]


def altered(record: dict) -> dict[str, dict]:
    """Copies of `record` each changed in one way a dishonest referee (or a doctored record)
    would change it; every one must be flagged."""
    out = {"wrong seed": dict(record, seed=record["seed"] + "x")}
    shown = [e for e in chance_events(record) if "field" in e["chance"]]
    first = shown[0]
    path = [(a, i) for a, events in enumerate(record["events"])
            for i, e in enumerate(events) if e is first][0]

    def change(name, how):
        doctored = copy.deepcopy(record)
        how(doctored["events"][path[0]][path[1]])
        out[name] = doctored

    def other_outcome(event):
        field = event["chance"]["field"]
        items = event["chance"].get("items") or ["2C", "3C", "X1", "KH"]
        name, _, key = field.partition("[].")
        value = event[name]
        if key:
            value[0][key] = next(x for x in items if x != value[0][key])
        elif isinstance(value, list) and isinstance(value[0], int):
            value[0] = value[0] % 6 + 1  # another face
        elif isinstance(value, list):
            value[0] = next(x for x in items if x not in value)
        else:
            event[name] = next(x for x in items if x != value)

    def other_step(event):
        event["chance"]["step"] += 1

    change("an outcome changed", other_outcome)
    change("the step moved", other_step)
    return out
