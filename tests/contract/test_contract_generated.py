"""openapi.yaml is generated from the code, and what it says holds: the committed file is
what the code generates, it is valid OpenAPI 3.1, its examples are real (they fit their
schemas and the running app answers each example request with exactly the example answer),
and the values that may grow are open."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json

import pytest
from openapi_spec_validator import validate

import referee
from referee.games import REGISTRY
from referee.http.contract import committed_document, pascal
from referee.http.examples import EXAMPLE_CLOCK
from tests.support import CONTRACT_PATH

from .support import SPEC, operation, problems, schema_name

OPERATIONS = ("matches", "moves", "legal-moves", "validations", "views")


def test_the_committed_contract_is_what_the_code_generates():
    assert CONTRACT_PATH.read_text(encoding="utf-8") == committed_document(), (
        "openapi.yaml is stale: run `make contract`")


def test_the_contract_is_valid_openapi_3_1():
    validate(SPEC)
    assert SPEC["openapi"] == "3.1.0"


def test_the_contract_says_its_version_and_a_relative_server():
    assert SPEC["info"]["version"] == referee.__version__
    assert importlib.metadata.version("referee") == referee.__version__
    assert SPEC["servers"] == [{"url": "/", "description": SPEC["servers"][0]["description"]}]


@pytest.mark.parametrize("segment", OPERATIONS)
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_example_is_real(game_id, segment):
    op = operation(f"/v1/games/{game_id}/{segment}")
    request_content = op["requestBody"]["content"]["application/json"]
    status = "201" if segment == "matches" else "200"
    answer_content = op["responses"][status]["content"]["application/json"]
    (name, sent), = request_content["examples"].items()
    answered = answer_content["examples"][name]["value"]
    assert not problems(schema_name(request_content["schema"]), sent["value"])
    assert not problems(schema_name(answer_content["schema"]), answered)
    app = referee.create_app({"STATE_KEYS": [], "CLOCK": lambda: EXAMPLE_CLOCK})
    response = app.test_client().post(f"/v1/games/{game_id}/{segment}", json=sent["value"])
    assert response.status_code == int(status)
    assert response.get_json() == answered


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_example_is_accepted_by_a_live_server(game_id):
    """Posted to an open server whose clock is today's (not the examples'), each example
    request answers its documented success: no deadline in an example has passed."""
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    for segment in OPERATIONS:
        op = operation(f"/v1/games/{game_id}/{segment}")
        (_, sent), = op["requestBody"]["content"]["application/json"]["examples"].items()
        response = client.post(f"/v1/games/{game_id}/{segment}", json=sent["value"])
        assert response.status_code == (201 if segment == "matches" else 200), (
            segment, response.get_json())


def test_values_that_may_grow_are_open():
    schemas = SPEC["components"]["schemas"]
    for name in ("GameId",):
        assert "enum" not in schemas[name] and schemas[name]["x-extensible-enum"]
    code = schemas["Problem"]["properties"]["code"]
    assert "enum" not in code and "illegal_move" in code["x-extensible-enum"]
    for game_id, engine in REGISTRY.items():
        union = schemas[f"{pascal(game_id)}Event"]
        other = f"#/components/schemas/{pascal(game_id)}OtherEvent"
        assert union["oneOf"][-1] == {"$ref": other}
        # Every event type, and the generic one, is picked by its `type` alone.
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert set(mapping) == {e.__struct_config__.tag for e in engine.event_types} | {"other"}
        assert sorted(mapping.values()) == sorted(m["$ref"] for m in union["oneOf"])
        for tag, target in mapping.items():
            member = schemas[target.rsplit("/", 1)[1]]
            assert member["properties"]["type"] == {"type": "string", "const": tag}
        # An event of a type added later comes, to a caller of this version, as the generic
        # event (referee.core.wire.known_to), which parses as the other event and only as it.
        later = {"type": "other", "name": "a_type_added_later", "data": {"anything": 1}}
        assert not problems(f"{pascal(game_id)}Event", later)
        assert problems(f"{pascal(game_id)}Event", {"type": "a_type_added_later"})
        assert problems(f"{pascal(game_id)}OtherEvent", {"type": "match_created"})


def test_every_game_has_its_typed_operations_and_schemas():
    schemas = SPEC["components"]["schemas"]
    for game_id, engine in REGISTRY.items():
        prefix = pascal(game_id)
        for suffix in ("Options", "ResolvedOptions", "State", "Move", "Event", "View", "Scores",
                       "CreateMatchRequest", "MoveRequest", "Outcome"):
            assert f"{prefix}{suffix}" in schemas, (game_id, suffix)
        union = schemas[f"{prefix}Move"]
        assert set(union["discriminator"]["mapping"]) == {m.type for m in engine.move_types}
        for move_type in engine.move_types:
            move = schemas[f"{prefix}{pascal(move_type.type)}Move"]
            assert move["properties"]["type"] == {"type": "string", "const": move_type.type}
            assert move["additionalProperties"] is False
        options = schemas[f"{prefix}Options"]["properties"]
        assert set(options) == {o.name for o in engine.options}
        for option in engine.options:
            # The default in words only: a generated client sends no default of its own.
            assert "default" not in options[option.name]
            assert options[option.name]["description"].endswith(
                f"Default: {json.dumps(option.default)}.")
        for segment in OPERATIONS:
            assert operation(f"/v1/games/{game_id}/{segment}")["tags"] == [game_id]


def test_a_sealed_state_has_the_documented_form():
    app = referee.create_app({"STATE_KEYS": ["x-test-key-" + "0123456789" * 3]})
    created = app.test_client().post("/v1/games/generala-dice/matches",
                                     json={"players": ["ann", "bob"]}).get_json()
    assert not problems("SealedState", created["state"])
    assert not problems("GeneralaDiceOutcome", created)


def test_seat_tokens_are_typed_where_a_phone_sends_them_and_nowhere_else():
    schemas = SPEC["components"]["schemas"]
    app = referee.create_app({"STATE_KEYS": ["x-test-key-" + "0123456789" * 3]})
    created = app.test_client().post("/v1/games/generala-dice/matches",
                                     json={"players": ["ann", "bob"], "viewer": "ann"}).get_json()
    assert not problems("SeatToken", created["seat_token"])
    assert not problems("GeneralaDiceOutcome", created)
    for game_id, engine in REGISTRY.items():
        prefix = pascal(game_id)
        asking = ["LegalMovesRequest", "ValidationRequest", "ViewRequest"]
        asking += ["HintRequest"] if engine.hint_levels else []
        for request in asking:
            # Two shapes: with the state (from the back end), or with the seat token instead.
            shapes = [schema_name(one) for one in schemas[f"{prefix}{request}"]["oneOf"]]
            assert shapes == [f"{prefix}{request}WithState", f"{prefix}{request}WithSeatToken"]
            with_state, with_seat = (schemas[name] for name in shapes)
            assert with_seat["properties"]["seat_token"]["$ref"].endswith("/SeatToken")
            assert "seat_token" in with_seat["required"] and "state" not in with_seat["properties"]
            assert "state" in with_state["required"] and "seat_token" not in with_state["properties"]
        for request in ("MoveRequest", "CreateMatchRequest"):
            assert "seat_token" not in schemas[f"{prefix}{request}"]["properties"]
        for answer in ("Outcome", "PlayerView"):
            assert schemas[f"{prefix}{answer}"]["properties"]["seat_token"]["$ref"].endswith(
                "/SeatToken")
    codes = {row["code"]: row["status"] for row in SPEC["x-error-codes"]}
    assert codes["not_your_seat"] == codes["seat_token_not_allowed"] == 403
    assert codes["seat_token_expired"] == 403 and codes["tampered_seat_token"] == 422
    for segment in ("moves", "legal-moves", "validations", "views"):
        assert "403" in operation(f"/v1/games/generala-dice/{segment}")["responses"]


def test_the_seed_and_contribution_operations_are_typed_and_their_examples_real():
    app = referee.create_app({"STATE_KEYS": [], "CLOCK": lambda: EXAMPLE_CLOCK})
    client = app.test_client()
    for game_id, engine in REGISTRY.items():
        seeds = operation(f"/v1/games/{game_id}/seeds")
        answer = client.post(f"/v1/games/{game_id}/seeds", json={})
        assert answer.status_code == 201
        assert not problems("NewSeed", answer.get_json())
        assert "422" in seeds["responses"]
        path = f"/v1/games/{game_id}/contributions"
        if path not in SPEC["paths"]:
            # Not documented where the deal at creation concerns every player: the route
            # refuses any contribution to a match of it, as too late.
            assert engine.id != "generala-dice"
            created = client.post(f"/v1/games/{game_id}/matches", json={
                "players": [f"p{i}" for i in range(engine.min_players)]}).get_json()
            got = client.post(path, json={"state": created["state"], "player": "p0",
                                          "seed": "mine"})
            assert got.status_code == 409
            assert got.get_json()["code"] == "contribution_too_late"
            assert f"{pascal(game_id)}ContributionRequest" not in SPEC["components"]["schemas"]
            continue
        contribute = operation(path)
        assert {"409", "422"} <= set(contribute["responses"])
        content = contribute["requestBody"]["content"]["application/json"]
        (name, sent), = content["examples"].items()
        assert not problems(schema_name(content["schema"]), sent["value"])
        got = client.post(path, json=sent["value"])
        answered = contribute["responses"]["200"]["content"]["application/json"]
        assert got.status_code == 200
        assert got.get_json() == answered["examples"][name]["value"]
        assert not problems(f"{pascal(game_id)}ContributionAnswer", got.get_json())
    assert "examples" in operation("/v1/games/generala-dice/contributions")[
        "responses"]["200"]["content"]["application/json"]
    codes = {row["code"]: row["status"] for row in SPEC["x-error-codes"]}
    assert codes["contribution_too_late"] == codes["contribution_already_made"] == 409
    assert codes["seed_token_required"] == codes["tampered_seed_token"] == 422


# The fields of an answer whose value the server's clock sets: a turn's deadline (Generala
# dice's state). Every other field of a live server's answer to an example is the example's.
SERVER_TIMES = frozenset({"deadline"})


def without_server_times(value):
    if isinstance(value, dict):
        return {k: without_server_times(v) for k, v in value.items() if k not in SERVER_TIMES}
    if isinstance(value, list):
        return [without_server_times(v) for v in value]
    return value


def _example_requests() -> list[tuple[str, str]]:
    """Every example request of the contract: (path, example name)."""
    return [(path, name) for path, methods in SPEC["paths"].items()
            for op in methods.values() if isinstance(op, dict) and "requestBody" in op
            for name in op["requestBody"]["content"]["application/json"].get("examples", {})]


@pytest.mark.parametrize("path,name", _example_requests())
def test_every_example_request_answers_what_the_contract_documents(path, name):
    """Each example request of every operation, replayed on an open app at the examples'
    clock: it answers the operation's documented success, with exactly the documented
    example answer where there is one (legal moves, validations, views, hints, outcomes,
    seeds, contributions), a file of the documented type for a picture. Posted to an open
    app on today's clock, it answers the documented success too, with the documented answer
    but for the times that clock sets."""
    op = operation(path)
    sent = op["requestBody"]["content"]["application/json"]["examples"][name]["value"]
    (status, success), = ((s, r) for s, r in op["responses"].items() if s.startswith("2"))
    live = referee.create_app({"STATE_KEYS": []}).test_client().post(path, json=sent)
    assert live.status_code == int(status), live.get_data(as_text=True)[:300]  # today's clock
    documented_json = success["content"].get("application/json", {}).get("examples")
    if documented_json and not path.endswith("/seeds"):  # the same, but for today's times
        assert without_server_times(live.get_json()) == without_server_times(
            documented_json[name]["value"])
    app = referee.create_app({"STATE_KEYS": [], "CLOCK": lambda: EXAMPLE_CLOCK})
    response = app.test_client().post(path, json=sent)
    (media, content), = success["content"].items()
    assert response.status_code == int(status), response.get_data(as_text=True)[:300]
    assert response.mimetype == media
    if media != "application/json":
        return
    documented = content["examples"][name]
    assert not problems(schema_name(content["schema"]), response.get_json())
    if path.endswith("/seeds"):  # a seed drawn at random: the answer's form, as documented
        assert documented["summary"].startswith("An answer of this form")
        for answer in (documented["value"], response.get_json()):
            assert answer["seed_commitment"] == hashlib.sha256(
                answer["seed_token"].encode()).hexdigest()
        return
    assert response.get_json() == documented["value"]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_contract_says_that_a_viewer_narrows_the_legal_moves(game_id):
    """Naming a `viewer` makes the answer his, legal moves included: the contract says so on
    the field, and the answer lists none for a viewer who may not act, and every player's
    without one."""
    prefix = pascal(game_id)
    schemas = SPEC["components"]["schemas"]
    for request in ("CreateMatchRequest", "MoveRequest"):
        said = schemas[f"{prefix}{request}"]["properties"]["viewer"]["description"]
        assert "`legal_moves` lists his moves only" in said
    assert "only that player's moves" in (
        schemas[f"{prefix}Outcome"]["properties"]["legal_moves"]["description"])
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    players = [f"p{i}" for i in range(REGISTRY[game_id].min_players)]
    path = f"/v1/games/{game_id}/matches"
    everyone = client.post(path, json={"players": players, "seed": 1}).get_json()
    waiting = next(p for p in players if p not in everyone["to_act"])
    assert {m["player"] for m in everyone["legal_moves"]} == set(everyone["to_act"])
    narrowed = client.post(path, json={"players": players, "seed": 1, "viewer": waiting})
    assert narrowed.get_json()["legal_moves"] == []
