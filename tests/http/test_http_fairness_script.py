"""The fairness script: a match recorded over HTTP checks out from its revealed seed, by the
specification alone (docs/FAIRNESS.md) and by a replay with the referee's engines."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from referee.games import REGISTRY
from tests.fairness.records import altered, chance_events, record_match
from tests.fairness.script import SCRIPT, verify_match



@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_recorded_match_checks_out_by_the_spec_and_by_replay(client, game_id):
    record = record_match(client, game_id, 4)
    problems, confirmed = verify_match.check_events(record)
    assert problems == [] and confirmed == len(chance_events(record)) > 0
    assert verify_match.verify(record, with_replay=True) == []


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
    assert verify_match.verify(doctored, with_replay=True) != []


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_alteration_of_a_chance_event_is_caught_by_the_spec_alone(client, game_id):
    record = record_match(client, game_id, 5)
    for name, doctored in altered(record).items():
        assert verify_match.verify(doctored) != [], name


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_players_own_record_checks_out_with_only_what_he_was_shown(client, game_id):
    record = record_match(client, game_id, 6, viewer="p0")
    assert verify_match.verify(record) == []
    assert verify_match.verify(record, with_replay=True) == []
    # He sees his own hands' shuffles, never another player's cards.
    for event in chance_events(record):
        if event["type"] in ("cards_dealt", "hand_dealt"):
            assert event["player"] == "p0"


def test_a_step_drawn_twice_with_other_inputs_is_a_reroll(client):
    """Three of the five dice of a step, announced again as a roll of three, are what the
    seed gives for that step, but the step was already drawn: a re-roll is flagged."""
    record = record_match(client, "generala-dice", 3)
    first = chance_events(record)[0]
    assert first["chance"]["count"] == 5
    again = copy.deepcopy(first)
    again["rolled"] = first["rolled"][:3]
    again["chance"]["count"] = 3
    assert verify_match.check_chance(record["seed"], again) is None
    doctored = dict(record, events=record["events"] + [[again]])
    assert any("already drawn" in p for p in verify_match.verify(doctored))


@pytest.mark.parametrize("game_id", ["empereur", "generala-cards", "huit-americain"])
def test_doctored_creation_events_are_caught_on_replay(client, game_id):
    record = record_match(client, game_id, 9)
    record["events"][0] = record["events"][0][:1] + [{"type": "bogus"}]
    assert any("creation" in p for p in verify_match.verify(record, with_replay=True))


def test_the_script_runs_without_the_referee(client, tmp_path):
    """By the specification alone it imports nothing of the referee: run isolated (no site
    packages, not from the repository), it still confirms every chance event."""
    record = record_match(client, "huit-americain", 2)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(chance_events(record))} chance events" in run.stdout
    path.write_text(json.dumps(altered(record)["an outcome changed"]), encoding="utf-8")
    run = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "MISMATCH" in run.stdout
    # the replay runs the referee's engines: without its packages the script says so
    path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path), "--replay"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "--replay runs the referee's engines, which need msgspec" in run.stderr


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_match_with_contributed_seeds_checks_out_and_every_alteration_is_caught(client,
                                                                                  game_id):
    record = record_match(client, game_id, 7, contribute=True)
    assert record["contributions"]
    problems, confirmed = verify_match.check_events(record)
    assert problems == [] and confirmed == len(chance_events(record)) > 0
    assert verify_match.verify(record, with_replay=True) == []
    for name, doctored in altered(record).items():
        assert verify_match.verify(doctored) != [], name
    # Without its contributions the record no longer checks out: they keyed every draw.
    bare = {k: v for k, v in record.items() if k != "contributions"}
    assert verify_match.verify(bare) != []


def test_the_script_prints_the_verify_link_of_a_record(client, tmp_path):
    record = record_match(client, "generala-dice", 3, contribute=True)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), str(path), "--link",
                          "https://referee.example/"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    link = run.stdout.strip()
    assert link == verify_match.verify_link("https://referee.example", record)
    assert link.startswith("https://referee.example/verify#record=")
    encoded = link.split("#record=", 1)[1]
    assert "=" not in encoded and "+" not in encoded and "/" not in encoded
