"""The JavaScript the /verify page runs, under node, against records of real matches of every
game played over HTTP: honest records (a trusted caller's and a player's own) are confirmed
event by event, and every altered copy is flagged."""

from __future__ import annotations

import json

import pytest

import referee
from referee.games import REGISTRY

from .node import node
from .records import altered, chance_events, record_match


@pytest.fixture(scope="module")
def records():
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    out, expected = {}, {}
    for game_id in sorted(REGISTRY):
        for seed, viewer, players in ((11, None, None), (12, "p1", 3)):
            record = record_match(client, game_id, seed, viewer=viewer, players=players)
            name = f"{game_id} as {viewer or 'trusted caller'}"
            out[name] = record
            expected[name] = len(chance_events(record))
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
    assert sum(":" in n for n in names) == 3 * len(records[1])


def test_honest_records_are_confirmed_event_by_event(records, results):
    for name, count in records[1].items():
        got = results[name]
        assert got["problems"] == [], name
        assert got["commitment"] is True, name
        assert got["checks"] == got["confirmed"] == count > 0, name


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
