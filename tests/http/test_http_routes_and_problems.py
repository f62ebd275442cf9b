"""The service's routes against its contract, and every problem answer it documents."""

from __future__ import annotations

import json
import re

import pytest
import yaml

import referee
from referee.games import REGISTRY
from referee.http.operations import seeds_after_creation
from referee.http.problems import CATALOGUE
from tests.support import committed_contract

SPEC = committed_contract()
DICE = "/v1/games/generala-dice"


def _contract_paths(rule: str) -> set[str]:
    """The contract's paths for a Flask rule: a match operation is documented once per game
    (typed for that game; the hints for a game that gives them, the contributions for a game
    that takes them after creation); the catalogue entry keeps its `{game_id}`."""
    path = re.sub(r"<(?!game_id>)(?:\w+:)?(\w+)>", r"{\1}", rule)  # <asset> -> {asset}
    if "<game_id>/" in path:
        return {path.replace("<game_id>", game_id) for game_id, engine in REGISTRY.items()
                if (engine.hint_levels or not path.endswith("/hints"))
                and (seeds_after_creation(engine) or not path.endswith("/contributions"))}
    return {path.replace("<game_id>", "{game_id}")}


def test_every_route_is_in_the_contract_and_every_contract_path_is_routed(app):
    routed = {(path, m.lower()) for r in app.url_map.iter_rules()
              for m in r.methods - {"HEAD", "OPTIONS"} if r.endpoint != "static"
              for path in _contract_paths(r.rule)}
    documented = {(path, method) for path, ops in SPEC["paths"].items()
                  for method in ops if method in {"get", "post", "put", "patch", "delete"}}
    assert routed == documented


def test_every_problem_code_is_documented_with_its_status():
    documented = {row["code"]: row["status"] for row in SPEC["x-error-codes"]}
    enum = set(SPEC["components"]["schemas"]["Problem"]["properties"]["code"]["x-extensible-enum"])
    for code, (status, _) in CATALOGUE.items():
        assert code in enum
        if code != "internal_error":
            assert documented[code] == status


def test_catalogue_lists_every_registered_game_with_options(client):
    body = client.get("/v1/games").get_json()
    assert {g["id"] for g in body["games"]} == set(REGISTRY)
    for game in body["games"]:
        for option in game["options"]:
            assert {"name", "type", "default", "description"} <= set(option)


def test_one_game_entry_adds_its_move_types_and_state_schema(client):
    body = client.get(DICE).get_json()
    assert {m["type"] for m in body["move_types"]} == {"roll", "score", "timeout"}
    created = client.post(f"{DICE}/matches", json={"players": ["a", "b"]}).get_json()
    definitions = body["state_schema"]["$defs"]
    assert set(definitions["State"]["required"]) == set(created["state"])
    for record in definitions.values():  # a posted state is exactly as written: all, no more
        assert set(record["required"]) == set(record["properties"])
        assert record["additionalProperties"] is False


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["code"] == code and body["status"] == status
    assert body["type"] == f"urn:referee:problem:{code}"
    assert body["title"] and body["detail"]
    return body


def new_match(client, **extra):
    body = {"players": ["ann", "bob"], "seed": 1, "options": {"turn_seconds": 0}}
    body.update(extra)
    response = client.post(f"{DICE}/matches", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("body,content_type,status,code", [
    (b"{", "application/json", 400, "malformed_json"),
    (b"\xff\xfe", "application/json", 400, "malformed_json"),
    (b'{"players": ["a", "b"]}', "text/plain", 415, "unsupported_media_type"),
    (b"[1, 2]", "application/json", 422, "validation_error"),
    (b'{"players": ["a", "a"]}', "application/json", 422, "validation_error"),
    (b'{"players": ["a", ""]}', "application/json", 422, "validation_error"),
    (b'{"players": ["a"]}', "application/json", 422, "validation_error"),
    (b'{"players": ["a", "b"], "extra": 1}', "application/json", 422, "validation_error"),
    (b'{"players": ["a", "b"], "options": {"nope": 1}}', "application/json", 422, "invalid_options"),
    (b'{"players": ["a", "b"], "options": {"turn_seconds": "9"}}', "application/json", 422, "invalid_options"),
    (b'{"players": ["a", "b"], "options": {"turn_seconds": -1}}', "application/json", 422, "invalid_options"),
    (b'{"players": ["a", "b"], "options": {"servida_generala_wins": 1}}', "application/json", 422, "invalid_options"),
    (b'{"players": ["a", "b"], "seed": 1.5}', "application/json", 422, "validation_error"),
], ids=["truncated", "not-utf8", "text-plain", "array-body", "duplicate-players", "empty-player-id",
        "too-few-players", "unknown-field", "unknown-option", "option-wrong-type",
        "option-out-of-range", "boolean-option-as-integer", "float-seed"])
def test_bad_creation_requests_get_their_problem_code(client, body, content_type, status, code):
    assert_problem(client.post(f"{DICE}/matches", data=body, content_type=content_type),
                   status, code)


def test_invalid_options_lists_every_problem_at_once(client):
    response = client.post(f"{DICE}/matches", json={
        "players": ["a", "b"], "options": {"nope": 1, "full": -3}})
    body = assert_problem(response, 422, "invalid_options")
    assert len(body["problems"]) == 2


def test_unknown_game_unknown_path_and_wrong_method(client):
    assert_problem(client.get("/v1/games/chess"), 404, "unknown_game")
    assert_problem(client.post("/v1/games/chess/matches", json={"players": ["a", "b"]}),
                   404, "unknown_game")
    assert_problem(client.get("/v2/nothing"), 404, "not_found")
    response = client.delete("/v1/games")
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]
    assert_problem(client.options(f"{DICE}/moves"), 405, "method_not_allowed")


def test_a_body_over_the_limit_is_refused_before_it_is_read(clock):
    app = referee.create_app({"CLOCK": clock, "STATE_KEYS": [], "MAX_BODY_BYTES": 1000})
    response = app.test_client().post(f"{DICE}/matches", data=b" " * 5000,
                                      content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_deeply_nested_json_is_refused(client):
    deep = b'{"players": ["a", "b"], "options": ' + b'{"a": ' * 200 + b'1' + b'}' * 200 + b'}'
    assert_problem(client.post(f"{DICE}/matches", data=deep, content_type="application/json"),
                   422, "validation_error")
    very_deep = b"[" * 100_000 + b"]" * 100_000
    assert_problem(client.post(f"{DICE}/matches", data=very_deep,
                               content_type="application/json"), 422, "validation_error")


def test_an_illegal_move_names_its_rule_and_leaves_the_state_alone(client):
    outcome = new_match(client)
    before = json.dumps(outcome["state"], sort_keys=True)
    move = {"type": "score", "player": "ann", "box": "full"}
    body = assert_problem(client.post(f"{DICE}/moves", json={"state": outcome["state"],
                                                             "move": move}), 422, "illegal_move")
    assert body["rule"] == "roll_before_scoring"
    assert json.dumps(outcome["state"], sort_keys=True) == before


@pytest.mark.parametrize("move,status,code", [
    ({"type": "roll", "player": "bob", "keep": []}, 409, "not_your_turn"),
    ({"type": "roll", "player": "zed", "keep": []}, 409, "not_your_turn"),
    ({"type": "fly", "player": "ann"}, 422, "validation_error"),
    ({"type": "roll"}, 422, "validation_error"),
    ({"type": "roll", "player": "ann", "keep": ["1"]}, 422, "validation_error"),
    ({"type": "roll", "player": "ann", "keep": [True]}, 422, "validation_error"),
    ({"type": "roll", "player": "ann", "keep": [7]}, 422, "validation_error"),
    ({"type": "score", "player": "ann", "box": "chance"}, 422, "validation_error"),
    ({"type": "roll", "player": "ann", "extra": 1}, 422, "validation_error"),
    ({"type": "timeout", "player": "bob"}, 422, "illegal_move"),
], ids=["other-players-turn", "stranger", "unknown-type", "no-player", "keep-strings",
        "keep-booleans", "keep-face-seven", "unknown-box", "unknown-field", "timeout-without-clock"])
def test_refused_moves_get_their_problem_code(client, move, status, code):
    outcome = new_match(client)
    assert_problem(client.post(f"{DICE}/moves", json={"state": outcome["state"], "move": move}),
                   status, code)


@pytest.mark.parametrize("mutate,problem", [
    (lambda s: s.update(dice=[1, 2, 3, 4, 5, 6], rolls=1), "6 dice"),
    (lambda s: s.update(current=7), "turn index"),
    (lambda s: s["sheets"][0].update(full=31), "cannot score"),
    (lambda s: s["sheets"][1].update(full=30), "turn order"),
    (lambda s: s.update(players=["ann", "ann"]), "unique"),
    (lambda s: s.pop("seed"), "seed: missing"),
    (lambda s: s.update(rolls="1"), "does not parse"),
], ids=["six-dice", "turn-past-players", "impossible-box-value", "box-out-of-turn",
        "duplicate-players", "missing-field", "wrong-type"])
def test_broken_states_are_invalid_state(client, mutate, problem):
    state = new_match(client)["state"]
    mutate(state)
    body = assert_problem(client.post(f"{DICE}/moves", json={
        "state": state, "move": {"type": "roll", "player": "ann", "keep": []}}),
        422, "invalid_state")
    assert problem in body["detail"]


def test_a_sealed_token_is_refused_in_open_mode(client):
    assert_problem(client.post(f"{DICE}/legal-moves", json={"state": "v1.abc"}),
                   422, "invalid_state")


def test_health_contract_and_docs_pages(client):
    assert client.get("/healthz").get_json()["status"] == "ok"
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200
    assert yaml.load(spec.data, Loader=yaml.CSafeLoader)["openapi"].startswith("3.1")
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'url: "/openapi.yaml"' in html
    # Every asset the page loads is served here: nothing comes from another host.
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and all(a.startswith("/docs/static/") for a in assets)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "://" not in html
    assert_problem(client.get("/docs/static/index.html"), 404, "not_found")


def test_the_served_contract_names_the_registered_games(client):
    served = yaml.load(client.get("/openapi.yaml").data, Loader=yaml.CSafeLoader)
    assert served["components"]["schemas"]["GameId"]["x-extensible-enum"] == sorted(REGISTRY)
    assert served == SPEC


@pytest.mark.parametrize("setting,body,field", [
    ("MAX_PLAYER_ID_LENGTH", {"players": ["a" * 11, "b"]}, "players"),
    ("MAX_LIST_ITEMS", {"players": [f"p{i}" for i in range(11)]}, "players"),
], ids=["player-id-too-long", "too-many-list-items"])
def test_string_and_list_limits_are_settings(clock, setting, body, field):
    app = referee.create_app({"CLOCK": clock, "STATE_KEYS": [], setting: 10})
    response = app.test_client().post(f"{DICE}/matches", json=body)
    problem = assert_problem(response, 422, "validation_error")
    assert field in problem["errors"]


def test_a_huge_declared_body_is_refused_without_being_read(client):
    response = client.post(f"{DICE}/matches", data=b"{}", content_type="application/json",
                           environ_overrides={"CONTENT_LENGTH": str(10**9)})
    assert_problem(response, 413, "payload_too_large")


def test_deep_nesting_inside_a_state_is_refused_by_the_typed_decoder(client):
    state = new_match(client)["state"]
    state["players"] = "__DEEP__"
    state["unknown"] = "__DEEP__"
    deep = "[" * 500 + "1" + "]" * 500  # past the depth limit, within what the parser takes
    body = json.dumps({"state": state, "move": {"type": "roll", "player": "ann", "keep": []}})
    response = client.post(f"{DICE}/moves", data=body.replace('"__DEEP__"', deep),
                           content_type="application/json")
    assert_problem(response, 422, "invalid_state")


def test_a_chunked_body_over_the_limit_is_refused(clock):
    import io
    app = referee.create_app({"CLOCK": clock, "STATE_KEYS": [], "MAX_BODY_BYTES": 1000})
    body = b'{"players": ["a", "b"]}' + b" " * 5000
    response = app.test_client().post(
        f"{DICE}/matches", input_stream=io.BytesIO(body), content_type="application/json",
        headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    assert_problem(response, 413, "payload_too_large")
    small = app.test_client().post(
        f"{DICE}/matches", input_stream=io.BytesIO(body[:40]), content_type="application/json",
        headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    assert small.status_code == 201


def test_a_body_in_another_charset_is_refused(client):
    response = client.post(f"{DICE}/matches", data='{"players": ["a", "b"]}'.encode("utf-16"),
                           content_type="application/json; charset=utf-16")
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("field", ["step", "current", "rolls"])
def test_a_counter_beyond_any_real_match_is_invalid_state(client, field):
    state = new_match(client)["state"]
    state[field] = 10**30
    body = assert_problem(client.post(f"{DICE}/moves", json={
        "state": state, "move": {"type": "roll", "player": "ann", "keep": []}}), 422, "invalid_state")
    assert field in body["detail"]


def test_option_texts_and_option_counts_are_bounded(client):
    long_dealer = client.post("/v1/games/generala-cards/matches",
                              json={"players": ["a", "b"], "options": {"dealer": "x" * 100}})
    body = assert_problem(long_dealer, 422, "invalid_options")
    assert "64 characters" in body["detail"] and "x" * 100 not in body["detail"]
    many = client.post(f"{DICE}/matches", json={
        "players": ["a", "b"], "options": {f"o{i}": 1 for i in range(300)}})
    assert_problem(many, 422, "validation_error")
