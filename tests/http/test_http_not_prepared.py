"""A hint whose tables are not built yet for its options is not built in the caller's request:
it answers `503 not_prepared` with `Retry-After`, the tables are built off the request's path
(referee.service.preparer), and the same request is then served."""

from __future__ import annotations

import time

import referee
from referee.core.memo import BoundedMemo
from referee.games.generala_dice import solver
from referee.games.generala_dice.sheetstates import RuleKey


def test_a_hint_without_its_tables_is_refused_until_they_are_built_off_the_request(monkeypatch):
    monkeypatch.setattr(solver, "TABLES", BoundedMemo(solver.TABLES_KEPT))
    client = referee.create_app({"STATE_KEYS": ""}).test_client()
    created = client.post("/v1/games/generala-dice/matches", json={
        "players": ["ann", "bob"], "seed": "s", "options": {"escalera": 21},
        "hints_allowed": True}).get_json()
    hint = {"state": created["state"], "player": "ann", "level": "hard"}
    first = client.post("/v1/games/generala-dice/hints", json=hint)
    assert first.status_code == 503 and first.mimetype == "application/problem+json"
    assert first.headers["Retry-After"] == "2"
    assert (first.get_json()["code"], first.get_json()["retry_after"]) == ("not_prepared", 2)
    # Other requests of the match are served meanwhile.
    assert client.post("/v1/games/generala-dice/moves", json={
        "state": created["state"], "move": created["legal_moves"][0]}).status_code == 200
    give_up = time.monotonic() + 60
    while (answer := client.post("/v1/games/generala-dice/hints", json=hint)).status_code == 503:
        assert answer.get_json()["code"] == "not_prepared"
        assert time.monotonic() < give_up, "the tables were never built"
        time.sleep(0.05)
    assert answer.status_code == 200
    assert answer.get_json()["move"] in created["legal_moves"]
    assert RuleKey.of(created["state"]["options"]) in solver.TABLES
