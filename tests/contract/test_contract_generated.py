"""openapi.yaml is generated from the code, and what it says holds: the committed file is
what the code generates, it is valid OpenAPI 3.1, its examples are real (they fit their
schemas and the running app answers each example request with exactly the example answer),
and the values that may grow are open."""

from __future__ import annotations

import importlib.metadata

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
    for game_id in REGISTRY:
        events = schemas[f"{pascal(game_id)}Event"]["oneOf"]
        assert events[-1] == {"$ref": f"#/components/schemas/{pascal(game_id)}OtherEvent"}
        # An event of a type added later parses as the other event, and only as it.
        later = {"type": "a_type_added_later", "anything": 1}
        assert not problems(f"{pascal(game_id)}Event", later)
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
            assert options[option.name]["default"] == option.default
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
        contribute = operation(f"/v1/games/{game_id}/contributions")
        assert {"409", "422"} <= set(contribute["responses"])
        content = contribute["requestBody"]["content"]["application/json"]
        (name, sent), = content["examples"].items()
        assert not problems(schema_name(content["schema"]), sent["value"])
        got = client.post(f"/v1/games/{game_id}/contributions", json=sent["value"])
        answered = contribute["responses"]["200"]["content"]["application/json"]
        if "examples" in answered:  # where a contribution can still come after creation
            assert got.status_code == 200
            assert got.get_json() == answered["examples"][name]["value"]
            assert not problems(f"{pascal(game_id)}ContributionAnswer", got.get_json())
        else:
            assert engine.chance_began_for(engine.decode(
                {k: v for k, v in sent["value"]["state"].items()
                 if k not in ("seating", "fairness")}), sent["value"]["player"])
            assert got.get_json()["code"] == "contribution_too_late"
    assert "examples" in operation("/v1/games/generala-dice/contributions")[
        "responses"]["200"]["content"]["application/json"]
    codes = {row["code"]: row["status"] for row in SPEC["x-error-codes"]}
    assert codes["contribution_too_late"] == codes["contribution_already_made"] == 409
    assert codes["seed_token_required"] == codes["tampered_seed_token"] == 422
