"""Stateful contract testing: schemathesis chains calls through the contract's OpenAPI links
(create a match; post a legal move, as a player who may act, and view, list and dry-run
from the answer) for every game, validating each answer against openapi.yaml.

The links fill the request body with parameters named `body.<field>`: the state, the first
legal move and the first player in `to_act` of the answer they follow. The link walk below
plays whole matches with nothing but those links.
"""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

import referee
from referee.games import REGISTRY

from .support import keep_option_rules

# Schemathesis's WSGI transport asks for gzip but hands the checks the body as it came, so
# these apps answer uncompressed (compression has its own tests in tests/http).
PLAIN = {"COMPRESS_MIN_BYTES": 0}
APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
# Schema-valid requests only: the point here is to play through the links (refusals of bad
# input are the schemathesis tests' job).
schema.config.generation.update(modes=["positive"])
SEEN: Counter = Counter()
# Moves posted through a link with the answer's state and first legal move both filled in:
# (game, status). Every one of them must be accepted.
LINKED_MOVES: Counter = Counter()


def _workflow(game_id: str):
    """A state machine over one game's operations, so each game gets chains of its own."""
    game_schema = schema.include(tag=game_id)

    class Workflow(game_schema.as_state_machine()):
        def step(self, input):
            output = super().step(input)
            applied = {name for _, name in input.applied_parameters}
            if (input.transition is not None and input.case.operation.path.endswith("/moves")
                    and {"state", "move"} <= applied):
                LINKED_MOVES[(game_id, output.response.status_code)] += 1
            return output

        def before_call(self, case, **kwargs):
            if case.operation.path.endswith("/matches"):
                case.body = keep_option_rules(None, case.body)

        def validate_response(self, response, case, **kwargs):
            SEEN[(case.operation.path, response.status_code)] += 1
            # A schema-valid move can still be against the rules; every other check stays on.
            case.validate_response(response, excluded_checks=[positive_data_acceptance])

    test_case = Workflow.TestCase
    test_case.settings = settings(max_examples=40, stateful_step_count=12, deadline=None,
                                  derandomize=True, suppress_health_check=list(HealthCheck))
    return test_case


TestDiceWorkflow = _workflow("generala-dice")
TestCardsWorkflow = _workflow("generala-cards")
TestHuitWorkflow = _workflow("huit-americain")
TestEmpereurWorkflow = _workflow("empereur")


def test_zz_the_state_machine_played_moves_in_every_game():
    """Runs after the state machines (file order): their chains created matches of every
    game and posted legal moves from the answers."""
    assert {name.removeprefix("Test").removesuffix("Workflow") for name in globals()
            if name.endswith("Workflow")} == {"Dice", "Cards", "Huit", "Empereur"}
    for game_id in REGISTRY:
        assert SEEN[(f"/v1/games/{game_id}/matches", 201)], game_id
        linked = {status: n for (game, status), n in LINKED_MOVES.items() if game == game_id}
        # A legal move posted with the state it was listed for is always accepted...
        assert set(linked) == {200}, (game_id, linked)
        # ...and the chains did post such moves in every game.
        assert linked[200] >= 3, (game_id, linked)


def resolve(expression: str, response_body):
    """An OpenAPI runtime expression of the form $response.body#/json/pointer."""
    prefix = "$response.body#"
    assert expression.startswith(prefix), expression
    value = response_body
    for part in expression[len(prefix):].split("/")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def link_body(link: dict, answer: dict) -> dict:
    return {name.removeprefix("body."): resolve(expression, answer)
            for name, expression in link["parameters"].items() if name.startswith("body.")}


SEALED_SCHEMA = schemathesis.openapi.from_wsgi(
    "/openapi.yaml", referee.create_app({"STATE_KEYS": ["s-test-key-" + "0123456789" * 3], **PLAIN}))


@pytest.mark.parametrize("mode", ["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_following_the_contract_links_plays_a_whole_match(game_id, mode):
    """The links the contract declares are enough to play: create a match, then follow
    PostFirstLegalMove from each answer until the match ends, every answer validated against
    the contract (the viewer the link names changes each time: whoever may act)."""
    engine = REGISTRY[game_id]
    contract = schema if mode == "open" else SEALED_SCHEMA
    create = contract[f"/v1/games/{game_id}/matches"]["POST"]
    move_op = contract[f"/v1/games/{game_id}/moves"]["POST"]
    case = create.Case(media_type="application/json",
                       body={"players": [f"p{i}" for i in range(engine.min_players)],
                             "options": engine.playout_options, "seed": 5})
    response = case.call()
    case.validate_response(response)
    link = create.definition.raw["responses"]["201"]["links"]["PostFirstLegalMove"]
    for _ in range(20_000):
        body = response.json()
        if body["status"] == "finished":
            break
        case = move_op.Case(body=link_body(link, body), media_type="application/json")
        response = case.call()
        case.validate_response(response)
        assert response.status_code == 200
        link = move_op.definition.raw["responses"]["200"]["links"]["PostFirstLegalMove"]
    assert response.json()["status"] == "finished"
