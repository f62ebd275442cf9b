"""The JavaScript the /verify page runs, under node, against records of real matches of every
game played over HTTP: honest records (a trusted caller's and a player's own) are confirmed
event by event, and every altered copy is flagged."""

from __future__ import annotations

import base64
import json

import pytest

import referee
from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame

from .node import node
from .records import altered, chance_events, record_match, seen_draws, unseen_draws
from .script import verify_match


@pytest.fixture(scope="module")
def records():
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    out, expected = {}, {}
    for game_id in sorted(REGISTRY):
        for seed, viewer, players, contribute in ((11, None, None, False),
                                                  (12, "p1", 3, False),
                                                  (13, None, None, True),
                                                  (14, "p1", 3, True)):
            record = record_match(client, game_id, seed, viewer=viewer, players=players,
                                  contribute=contribute)
            name = f"{game_id} as {viewer or 'trusted caller'}"
            name += " with contributions" if contribute else ""
            out[name] = record
            expected[name] = (len(chance_events(record)), len(unseen_draws(record)))
            for change, doctored in altered(record).items():
                out[f"{name}: {change}"] = doctored
    return out, expected


@pytest.fixture(scope="module")
def results(records, tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "records.json"
    path.write_text(json.dumps(records[0]), encoding="utf-8")
    run = node("verify_records.cjs", str(path))
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def test_every_game_has_an_honest_record_and_altered_copies(records):
    names = records[0]
    assert {n.split(" as ")[0] for n in names} == set(REGISTRY)
    # 3 alterations (4 with contributions) and one more of a drawn card where cards are drawn
    drawn = sum(bool(seen_draws(r)) for n, r in names.items() if ":" not in n)
    for game_id in ("empereur", "huit-americain"):  # fixed seeds: matches that draw
        assert seen_draws(names[f"{game_id} as trusted caller"])
        assert seen_draws(names[f"{game_id} as p1"])
    assert sum(":" in n for n in names) == (3 * 2 * len(REGISTRY) + 6 * 2 * len(REGISTRY)
                                            + drawn)
    assert sum("with contributions" in n for n in records[1]) == 2 * len(REGISTRY)


def test_records_with_contributions_name_them_on_every_chance_event(records):
    for name, record in records[0].items():
        if ":" in name or "with contributions" not in name:
            continue
        made = record["contributions"]
        assert [c["player"] for c in made[:2]] == [None, "p0"], name
        for event in chance_events(record):
            due = sum(1 for c in made if c["step"] <= event["chance"]["step"])
            assert event["chance"]["contributions"] == due >= 2, name
        if isinstance(REGISTRY[record["game"]], DiceSheetGame):  # p1's came before his roll
            assert made[2]["player"] == "p1" and made[2]["step"] > 0, name
        else:  # the deal at creation concerned him: too late
            assert len(made) == 2, name


def test_honest_records_are_confirmed_event_by_event(records, results):
    for name, (count, unseen) in records[1].items():
        got = results[name]
        assert got["problems"] == [], name
        assert got["commitment"] is True, name
        assert got["checks"] == got["confirmed"] == count > 0, name
        assert got["unseen"] == unseen, name
        if name.split(" as ")[0] in ("empereur", "huit-americain") and name.endswith("p1"):
            assert unseen > 0, f"{name}: the others' draws are listed, unchecked"


def test_altered_records_are_flagged(records, results):
    for name in records[0]:
        if ":" not in name:
            continue
        got = results[name]
        assert got["problems"], f"{name} was not flagged"
        if name.endswith("wrong seed"):
            assert got["commitment"] is False
        else:
            assert got["confirmed"] < got["checks"], name


def test_the_verify_link_is_the_same_from_javascript_and_python(records, results):
    for name, record in records[0].items():
        link = results[name]["link"]
        assert link == verify_match.verify_link("https://referee.example", record), name
        encoded = link.split("/verify#record=", 1)[1]
        decoded = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
        assert json.loads(decoded.decode("utf-8")) == record, name
