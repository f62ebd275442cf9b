"""The fairness script: a match recorded over HTTP replays exactly from its revealed seed."""

from __future__ import annotations

import copy
import importlib.util
import random
from pathlib import Path

import pytest

from referee.core.playout import random_move
from referee.games import REGISTRY

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_match.py"
spec = importlib.util.spec_from_file_location("verify_match", SCRIPT)
verify_match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_match)


def record_match(client, game_id: str, seed: int, viewer: str | None = None) -> dict:
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(engine.min_players)]
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


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_recorded_match_replays_from_its_revealed_seed(client, game_id):
    record = record_match(client, game_id, 4)
    assert verify_match.verify(record) == []


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_wrong_seed_or_a_doctored_event_is_caught(client, game_id):
    record = record_match(client, game_id, 8)
    wrong_seed = dict(record, seed=record["seed"] + "x")
    assert any("commitment" in p for p in verify_match.verify(wrong_seed))
    doctored = copy.deepcopy(record)
    # Change the first event that carries a chance outcome (dice or cards).
    for events in doctored["events"][1:]:
        chance = [e for e in events if any(k in e for k in ("dice", "cards", "card", "hands"))]
        if chance:
            key = next(k for k in ("dice", "cards", "card", "hands") if k in chance[0])
            chance[0][key] = "doctored"
            break
    assert verify_match.verify(doctored) != []


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_players_own_record_replays_with_only_what_he_was_shown(client, game_id):
    record = record_match(client, game_id, 6, viewer="p0")
    assert verify_match.verify(record) == []


@pytest.mark.parametrize("game_id", ["empereur", "generala-cards", "huit-americain"])
def test_doctored_creation_events_are_caught(client, game_id):
    record = record_match(client, game_id, 9)
    record["events"][0] = record["events"][0][:1] + [{"type": "bogus"}]
    assert any("creation" in p for p in verify_match.verify(record))
