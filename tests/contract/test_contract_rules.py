"""The rules in the schema, not in prose: what JSON Schema can say about a request, its schema
says, and the referee answers as the schema says (a request it refuses is refused for its
shape, with `validation_error`; one it accepts is not refused for its shape). What JSON Schema
cannot say is each operation's `x-referee-rules`, and the shipped `schemathesis.toml` is
written from them."""

from __future__ import annotations

import tomllib

import pytest
from schemathesis.config import SchemathesisConfig

import referee
from referee.games import REGISTRY
from referee.http.contract import pascal
from referee.http.contract.fuzzing import committed_configuration, expected_statuses
from referee.http.problems import CATALOGUE
from tests.support import ROOT, SEALING_KEYS

from .support import SPEC, problems

TOML = ROOT / "schemathesis.toml"
APP = referee.create_app({"STATE_KEYS": []})
SEALED_APP = referee.create_app({"STATE_KEYS": list(SEALING_KEYS)})
ASKING = {"legal-moves": "LegalMovesRequest", "validations": "ValidationRequest",
          "views": "ViewRequest", "hints": "HintRequest", "images/view": "ViewImageRequest"}


def test_the_committed_schemathesis_configuration_is_what_the_code_writes():
    assert TOML.read_text(encoding="utf-8") == committed_configuration(), (
        "schemathesis.toml is stale: run `make contract`")


def test_schemathesis_reads_the_configuration_and_it_names_only_operations_of_the_contract():
    config = SchemathesisConfig.from_path(str(TOML))
    assert config.projects.default is not None
    named = {name for group in tomllib.loads(TOML.read_text())["operations"]
             for name in group["include-name"]}
    served = {f"{method.upper()} {path}" for path, item in SPEC["paths"].items()
              for method in item if method in ("get", "post")}
    assert named and named <= served


def test_every_rule_has_a_documented_code_among_its_operations_problems():
    ruled = 0
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            rules = operation.get("x-referee-rules", [])
            ruled += bool(rules)
            for rule in rules:
                assert rule["code"] in CATALOGUE and rule["says"]
                assert str(CATALOGUE[rule["code"]][0]) in operation["responses"], (path, rule)
            if rules:
                assert set(expected_statuses(operation)) - {"2xx"} == {
                    str(CATALOGUE[rule["code"]][0]) for rule in rules}
    assert ruled >= 8 * len(REGISTRY)  # every operation on a match but /seeds


def post(app, path: str, body: dict) -> tuple[int, dict]:
    answer = app.test_client().post(path, json=body)
    return answer.status_code, answer.get_json()


def created(app, game_id: str, **extra) -> dict:
    engine = REGISTRY[game_id]
    status, body = post(app, f"/v1/games/{game_id}/matches",
                        {"players": [f"p{i}" for i in range(engine.min_players)], "seed": "rules",
                         **extra})
    assert status == 201, body
    return body


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_state_or_the_seat_token_is_a_one_of_the_referee_keeps(game_id):
    engine = REGISTRY[game_id]
    outcome = created(SEALED_APP, game_id, viewer="p0")
    state, token = outcome["state"], outcome["seat_token"]
    move = post(SEALED_APP, f"/v1/games/{game_id}/legal-moves", {"state": state})[1][
        "legal_moves"][0]
    prefix = pascal(game_id)
    for segment, request in ASKING.items():
        if segment == "hints" and not engine.hint_levels:
            continue
        extra = {"move": move} if segment == "validations" else {}
        extra |= {"level": engine.hint_levels[0]} if segment == "hints" else {}
        named = segment in ("views", "hints", "images/view")
        # A dry run's player is its move's.
        who = {} if segment == "validations" else {"player": "p0"}
        cases = [  # the body, and whether the schema and the referee accept its shape
            ({"state": state, **who, **extra}, True),
            ({"seat_token": token, **extra}, True),
            ({"seat_token": token, **who, **extra}, True),
            ({"state": state, "seat_token": token, **who, **extra}, False),
            ({**who, **extra}, False),
            ({"state": state, **extra}, not named),
        ]
        for body, fits in cases:
            assert (not problems(f"{prefix}{request}", body)) is fits, (segment, body)
            status, answer = post(SEALED_APP, f"/v1/games/{game_id}/{segment}", body)
            if fits:
                assert status == 200 or answer["code"] != "validation_error", (segment, answer)
            else:
                assert (status, answer["code"]) == (422, "validation_error"), (segment, body)


def test_the_sheet_is_of_a_match_or_blank_and_has_no_more_names_than_players():
    state = created(APP, "generala-dice")["state"]
    cases = [
        ({"state": state}, True), ({"state": state, "page": "letter"}, True),
        ({}, True), ({"players": 3, "names": ["ann", "bob", "cy"]}, True),
        ({"names": ["ann"], "options": {"full": 32}}, True),
        ({"state": state, "players": 2}, False), ({"state": state, "names": ["ann"]}, False),
        ({"state": state, "options": {}}, False),
        ({"players": 2, "names": ["ann", "bob", "cy"]}, False),
    ]
    for body, fits in cases:
        assert (not problems("GeneralaDiceSheetRequest", body)) is fits, body
        status, _ = post(APP, "/v1/games/generala-dice/sheets/svg", body)
        assert (status == 200) is fits, body


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_state_seats_as_many_players_as_the_game_takes(game_id):
    engine = REGISTRY[game_id]
    players = SPEC["components"]["schemas"][f"{pascal(game_id)}State"]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (engine.min_players, engine.max_players)


def test_a_whole_number_is_an_integer_everywhere_in_a_state():
    """3.0 is 3 in a state as in a request (JSON Schema's `integer`): its counters, and the
    steps of its fairness record."""
    outcome = created(APP, "generala-dice")
    state = outcome["state"]
    as_floats = {**state, "step": float(state["step"]), "rolls": float(state["rolls"])}
    assert not problems("GeneralaDiceState", as_floats)
    listed = post(APP, "/v1/games/generala-dice/legal-moves", {"state": state})
    assert post(APP, "/v1/games/generala-dice/legal-moves", {"state": as_floats}) == listed
    half = {**state, "rolls": state["rolls"] + 0.5}
    assert problems("GeneralaDiceState", half)
    status, answer = post(APP, "/v1/games/generala-dice/legal-moves", {"state": half})
    assert (status, answer["code"]) == (422, "invalid_state")
    # A match with a contributed seed: its fairness record's steps, written 0.0.
    seed = post(APP, "/v1/games/generala-dice/seeds", {})[1]
    contributed = post(APP, "/v1/games/generala-dice/matches", {
        "players": ["ann", "bob"], "seed_token": seed["seed_token"],
        "contributions": [{"player": "ann", "seed": "mine"}]})[1]["state"]
    record = contributed["fairness"]
    whole = {**contributed, "fairness": {**record, "contributions": [
        {**one, "step": float(one["step"])} for one in record["contributions"]]}}
    assert post(APP, "/v1/games/generala-dice/legal-moves", {"state": whole}) == post(
        APP, "/v1/games/generala-dice/legal-moves", {"state": contributed})
