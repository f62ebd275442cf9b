"""Stateful contract testing: schemathesis chains calls through the contract's OpenAPI links
(create a match, then post moves from its `legal_moves`, list legal moves) for every game,
validating each answer against openapi.yaml."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

import referee
from referee.games import REGISTRY

APP = referee.create_app({"STATE_KEYS": []})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
CREATE = "POST /v1/games/{game_id}/matches"
SEEN: Counter = Counter()
CREATED: Counter = Counter()


class Workflow(schema.as_state_machine()):
    def before_call(self, case, **kwargs):
        # Random creation bodies almost never name a valid player count and option set, and
        # without a match no chain can start: a creation seats the game's fewest players.
        game_id = (case.path_parameters or {}).get("game_id")
        if case.operation.label == CREATE and game_id in REGISTRY and isinstance(case.body, dict):
            CREATED[game_id] += 1
            engine = REGISTRY[game_id]
            case.body = {"players": [f"p{i}" for i in range(engine.min_players)],
                         "options": engine.playout_options, "seed": sum(CREATED.values())}
        elif isinstance(case.body, dict) and isinstance(case.body.get("state"), dict):
            # A linked request carries a real state; a generated viewer or player who is not
            # seated at that match would only ever meet the same validation error.
            seated = case.body["state"].get("players") or []
            for field in ("viewer", "player"):
                if field in case.body and case.body[field] not in seated and seated:
                    case.body[field] = seated[0]

    def validate_response(self, response, case, **kwargs):
        SEEN[(case.operation.label, (case.path_parameters or {}).get("game_id"),
              response.status_code)] += 1
        # A schema-valid request may still be refused on purpose (a move against the rules);
        # every other check stays on.
        case.validate_response(response, excluded_checks=[positive_data_acceptance])


TestWorkflow = Workflow.TestCase
TestWorkflow.settings = settings(max_examples=150, stateful_step_count=10, deadline=None,
                                 derandomize=True,
                                 suppress_health_check=list(HealthCheck))


def test_zz_the_state_machine_started_matches_of_every_game():
    """Runs after the state machine (file order): its chains began in every game."""
    created = {game for (label, game, status) in SEEN if label == CREATE and status == 201}
    assert created == set(REGISTRY), SEEN


def resolve(expression: str, response_body):
    """An OpenAPI runtime expression of the form $response.body#/json/pointer."""
    prefix = "$response.body#"
    assert expression.startswith(prefix), expression
    value = response_body
    for part in expression[len(prefix):].split("/")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


SEALED_SCHEMA = schemathesis.openapi.from_wsgi(
    "/openapi.yaml", referee.create_app({"STATE_KEYS": ["s" * 40]}))


@pytest.mark.parametrize("mode", ["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_following_the_contract_links_plays_a_whole_match(game_id, mode):
    """The links the contract declares are enough to play: create a match, then follow
    PostFirstLegalMove and PostNextLegalMove until the match ends, every answer validated
    against the contract."""
    engine = REGISTRY[game_id]
    contract = schema if mode == "open" else SEALED_SCHEMA
    create = contract["/v1/games/{game_id}/matches"]["POST"]
    move_op = contract["/v1/games/{game_id}/moves"]["POST"]
    case = create.Case(path_parameters={"game_id": game_id}, media_type="application/json",
                       body={"players": [f"p{i}" for i in range(engine.min_players)],
                             "options": engine.playout_options, "seed": 5})
    response = case.call()
    case.validate_response(response)
    link = create.definition.raw["responses"]["201"]["links"]["PostFirstLegalMove"]
    next_link = move_op.definition.raw["responses"]["200"]["links"]["PostNextLegalMove"]
    for step in range(20_000):
        body = response.json()
        if body["status"] == "finished":
            break
        request = {name: resolve(expr, body) for name, expr in link["requestBody"].items()}
        case = move_op.Case(path_parameters={"game_id": game_id}, body=request,
                            media_type="application/json")
        response = case.call()
        case.validate_response(response)
        assert response.status_code == 200
        link = next_link
    assert response.json()["status"] == "finished"
