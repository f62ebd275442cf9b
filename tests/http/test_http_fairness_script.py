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


def record_match(client, game_id: str, seed: int) -> dict:
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(engine.min_players)]
    options = engine.playout_options
    outcome = client.post(f"/v1/games/{game_id}/matches",
                          json={"players": players, "options": options}).get_json()
    record = {"game": game_id, "players": players, "options": options, "moves": [],
              "seed_commitment": outcome["seed_commitment"], "events": [outcome["events"]]}
    while outcome["status"] != "finished":
        move = random_move(engine, outcome["legal_moves"], pick)
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": move}).get_json()
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
