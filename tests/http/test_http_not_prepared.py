"""A hint whose tables are not built yet for its options is not built in the caller's request:
it answers `503 not_prepared` with `Retry-After`, the tables are built off the request's path
(referee.service.preparer), and the same request is then served. Tables built for a caller's
option set are not written to the table store (a caller could fill the disk, one option set at
a time); the warm-up's are."""

from __future__ import annotations

import time

import pytest

import referee
from referee.core import preparation, tables
from referee.core.memo import BoundedMemo
from referee.games import REGISTRY
from referee.games.generala_dice import sheetfutures, sheetsolver, solver, strategies
from referee.games.generala_dice.sheetstates import RuleKey
from referee.service.referee import warm_up


def served_once_built(client, hint: dict,
                      game_id: str = "generala-dice") -> tuple[int, set[str]]:
    """The status the hint is first answered with, and the pieces of work its refusals named
    (each `detail` says what is being prepared); it is asked again until the tables are built
    off the request's path, and answered."""
    answer = client.post(f"/v1/games/{game_id}/hints", json=hint)
    first, waited_for = answer.status_code, set()
    give_up = time.monotonic() + 120
    while answer.status_code == 503:
        assert answer.get_json()["code"] == "not_prepared"
        waited_for.add(answer.get_json()["detail"])
        assert time.monotonic() < give_up, "the tables were never built"
        time.sleep(0.05)
        answer = client.post(f"/v1/games/{game_id}/hints", json=hint)
    assert answer.status_code == 200, answer.get_json()
    return first, waited_for


def test_a_hint_without_its_tables_is_refused_until_they_are_built_off_the_request(
        monkeypatch, tmp_path):
    monkeypatch.setattr(solver, "TABLES", BoundedMemo(solver.TABLES_KEPT))
    monkeypatch.setattr(strategies, "WIN_PLANS", BoundedMemo(strategies.WIN_PLANS.limit))
    monkeypatch.setattr(tables.STORE, "directory", tmp_path)
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
    rules = RuleKey.of(created["state"]["options"])
    assert rules in solver.TABLES
    # The `win` level reads a part of the tables that `hard` does not (their hard play, some
    # seconds more to build), built on its first use: off the request's path too.
    assert not solver.TABLES.get(rules, solver.Tables).has_hard_play
    first, waits = served_once_built(client, {**hint, "level": "win"})
    assert (first, len(waits)) == (503, 1), waits
    assert solver.TABLES.get(rules, solver.Tables).has_hard_play
    assert list(tmp_path.iterdir()) == []  # made for a caller's options: not kept on disk


@pytest.mark.parametrize("game_id, options", [("generala-dice", {"escalera": 23}),
                                              ("yacht", {})])
def test_the_win_level_s_tables_are_one_wait_however_many_parts_they_have(monkeypatch, game_id,
                                                                         options):
    # Generala's tables and their hard play; a sheet's solver and its futures: each refusal
    # names one piece of work, so a caller asking for `win` first would wait once a part. As
    # in a new worker with no warm-up: nothing in memory; Yacht's tables on disk (the
    # session's table store), Generala's for a caller's values made (a few seconds).
    for module, memo in ((solver, "TABLES"), (strategies, "WIN_PLANS"),
                         (sheetsolver, "SOLVERS"), (sheetfutures, "FUTURES")):
        monkeypatch.setattr(module, memo, BoundedMemo(getattr(module, memo).limit))
    client = referee.create_app({"STATE_KEYS": ""}).test_client()
    created = client.post(f"/v1/games/{game_id}/matches", json={
        "players": ["ann", "bob"], "seed": "s", "options": options,
        "hints_allowed": True}).get_json()
    rolled = client.post(f"/v1/games/{game_id}/moves", json={  # a choice to make: the dice
        "state": created["state"], "move": created["legal_moves"][0]}).get_json()
    first, waits = served_once_built(client, {"state": rolled["state"], "player": "ann",
                                              "level": "win"}, game_id)
    assert (first, len(waits)) == (503, 1), waits


def test_the_tables_of_the_warm_up_are_kept_however_many_other_options_come(monkeypatch,
                                                                           tmp_path):
    # As in a new process: no tables, and no `win` plan remembered (a plan is answered
    # without its tables, which the warm-up is there to make).
    monkeypatch.setattr(solver, "TABLES", BoundedMemo(solver.TABLES_KEPT))
    monkeypatch.setattr(strategies, "WIN_PLANS", BoundedMemo(strategies.WIN_PLANS.limit))
    monkeypatch.setattr(tables.STORE, "directory", tmp_path)
    warm_up({"generala-dice": REGISTRY["generala-dice"]})
    fingerprint = solver.tables_fingerprint(solver.DEFAULT_RULES)
    assert {p.name for p in tmp_path.iterdir()} == {  # on disk for the next start
        f"generala-expected-{fingerprint[:40]}.npz", f"generala-hard-play-{fingerprint[:40]}.npz"}
    for other in range(3 * solver.TABLES_KEPT):  # other option sets' tables, made and forgotten
        solver.TABLES.get(("other options", other), lambda key: None)
    client = referee.create_app({"STATE_KEYS": ""}).test_client()
    created = client.post("/v1/games/generala-dice/matches", json={
        "players": ["ann", "bob"], "seed": "s", "hints_allowed": True}).get_json()
    answer = client.post("/v1/games/generala-dice/hints", json={
        "state": created["state"], "player": "ann", "level": "hard"})
    assert answer.status_code == 200, answer.get_json()
    assert ("other options", 0) not in solver.TABLES


def test_a_pinned_key_survives_the_memo_being_full_and_the_others_do_not():
    memo: BoundedMemo[str, int] = BoundedMemo(3)
    with preparation.pinning():
        assert preparation.prepared(memo, "default", len, "a table") == 7
    for key in ("a", "bb", "ccc", "dddd"):
        memo.get(key, len)
    assert "default" in memo and "a" not in memo and "dddd" in memo
    memo.pin("another")  # pinned before it is made, the memo full: made all the same
    assert memo.get("another", len) == 7 and "default" in memo and "dddd" not in memo
    with pytest.raises(ValueError):  # a third pinned key would leave no room for any other
        memo.pin("a third")
