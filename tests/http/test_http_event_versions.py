"""An event type added in a later version of the contract reaches each caller as its version
knows it: as itself for a caller naming that version (Referee-Contract-Version), as the
generic `other` event for one naming an older version or none, on the Flask route and on the
direct move path alike. A malformed version is refused."""

from __future__ import annotations

import json

import pytest

import referee
from referee.core.wire import FIRST_VERSION, known_to, version
from referee.games import REGISTRY
from tests.clients.support import DiceCounted, newer_generala

HEADER = "Referee-Contract-Version"
ROLL = {"type": "roll", "player": "ann", "keep": []}


@pytest.fixture(scope="module")
def http():
    app = referee.create_app({"STATE_KEYS": [], "REQUEST_LOG": False,
                              "GAMES": {"generala-dice": newer_generala()}})
    return app.test_client()


@pytest.fixture(scope="module")
def state(http):
    created = http.post("/v1/games/generala-dice/matches", json={"players": ["ann", "bob"],
                                                                  "seed": 1})
    return created.get_json()["state"]


@pytest.mark.parametrize(("named", "seen"), [
    ({HEADER: "9.0.0"}, "dice_counted"), ({HEADER: "10.2.3"}, "dice_counted"),
    ({HEADER: "8.99.0"}, "other"), ({HEADER: FIRST_VERSION}, "other"), ({}, "other")])
def test_a_later_event_type_comes_as_the_callers_version_knows_it(http, state, named, seen):
    answer = http.post("/v1/games/generala-dice/moves", headers=named,
                       json={"state": state, "move": ROLL})
    assert answer.status_code == 200
    events = answer.get_json()["events"]
    assert events[0]["type"] == "dice_rolled"  # a type of the first version, as itself
    last = events[-1]
    assert last["type"] == seen
    if seen == "other":
        assert last["name"] == "dice_counted" and set(last) == {"type", "name", "data"}
        assert last["data"]["player"] == "ann" and 1 <= last["data"]["count"] <= 5


def test_the_direct_path_and_the_route_answer_alike(http, state):
    """A move with no header is served straight from the WSGI call; one through Flask (a
    media type with a charset) must give the same events."""
    body = json.dumps({"state": state, "move": ROLL})
    direct = http.post("/v1/games/generala-dice/moves", data=body,
                       content_type="application/json")
    routed = http.post("/v1/games/generala-dice/moves", data=body,
                       content_type="application/json; charset=utf-8")
    assert direct.get_json()["events"][-1]["type"] == "other"
    assert direct.get_json() == routed.get_json()


@pytest.mark.parametrize("bad", ["9", "v9.0.0", "1.1", "1.1.0.0", ""])
def test_a_malformed_version_is_refused(http, state, bad):
    answer = http.post("/v1/games/generala-dice/moves", headers={HEADER: bad},
                       json={"state": state, "move": ROLL})
    assert answer.status_code == 422 and answer.get_json()["code"] == "validation_error"
    assert HEADER in answer.get_json()["errors"]


def test_creation_answers_events_by_version_too(http):
    body = {"players": ["ann", "bob"], "seed": 1}
    for named in ({}, {HEADER: "9.0.0"}):
        answer = http.post("/v1/games/generala-dice/matches", headers=named, json=body)
        assert answer.status_code == 201
    bad = http.post("/v1/games/generala-dice/matches", headers={HEADER: "x"}, json=body)
    assert bad.status_code == 422


def test_the_types_of_the_first_version_pass_untouched():
    events = [{"type": "dice_rolled", "player": "ann"}, {"type": "dice_counted", "count": 2}]
    current = REGISTRY["generala-dice"].event_types
    assert known_to(events, current, version(FIRST_VERSION)) is events
    newer = (*current, DiceCounted)
    assert known_to(events, newer, version("9.0.0")) == events
    assert known_to(events, newer, version("1.1.0"))[1] == {
        "type": "other", "name": "dice_counted", "data": {"count": 2}}
