"""Stateful contract testing: schemathesis chains calls through the contract's OpenAPI links
(create a match; list, view, dry-run and post a move in the state an answer carries) for
every game, validating each answer against openapi.yaml.

The links fill the request body with parameters named `body.<field>`: the answer's state,
and for a view the player its request named. They point at nothing an answer may lack (a
finished match has no legal move, an answer for a `viewer` lists his moves only), so every
link resolves on every answer it is attached to; the move to post is the client's choice,
here the first legal move the state lists. The link walk below plays whole matches, open
and sealed, resolving and following every link of every answer.
"""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig

import referee
from referee.games import REGISTRY

from tests.support import committed_contract

from .support import PLAIN, SEALED_SETTINGS, keep_option_rules, served_document

APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
CLIENT = APP.test_client()
# With no configuration: the one schemathesis would find on its own (schemathesis.toml, at the
# repository's root, for fuzzing) selects operations of its own and would undo `include`.
# The contract an open app serves is the committed one (test_contract_sealed_examples.py
# checks it): read from the file, the state machines below, built when the module is
# imported, cost no contract generation in every test process that collects them.
schema = schemathesis.openapi.from_dict(committed_contract(), config=SchemathesisConfig())
schema.app = APP
# Schema-valid requests only: the point here is to play through the links (refusals of bad
# input are the schemathesis tests' job).
schema.config.generation.update(modes=["positive"])
SEEN: Counter = Counter()
# Moves posted through a link with the answer's state, the move the first that state lists:
# (game, status). Every one of them must be accepted.
LINKED_MOVES: Counter = Counter()


def _workflow(game_id: str):
    """A state machine over one game's operations, so each game gets chains of its own."""
    # A replay carries a whole match in one request and no link leads to or from it: generated
    # ones (up to thousands of made-up moves each) would cost the walk most of its time.
    game_schema = schema.include(tag=game_id, path_regex=r"^/v1/games/[^/]+/(?!replays$)")

    class Workflow(game_schema.as_state_machine()):
        def step(self, input):
            applied = {name for _, name in input.applied_parameters}
            linked_move = (input.transition is not None
                           and input.case.operation.path.endswith("/moves")
                           and "state" in applied)
            if linked_move:  # the client's choice: the first move the state lists
                listed = CLIENT.post(f"/v1/games/{game_id}/legal-moves",
                                     json={"state": input.case.body["state"]}).get_json()
                linked_move = bool(listed["legal_moves"])
                if linked_move:
                    input.case.body["move"] = listed["legal_moves"][0]
            output = super().step(input)
            if linked_move:
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


def workflow_name(game_id: str) -> str:
    return "Test" + "".join(part.title() for part in game_id.split("-")) + "Workflow"


# One state machine a game of the registry, a test class pytest finds by its name.
for _game_id in sorted(REGISTRY):
    globals()[workflow_name(_game_id)] = _workflow(_game_id)


def test_zz_the_state_machine_played_moves_in_every_game():
    """Runs after the state machines (file order): their chains created matches of every
    game and posted legal moves from the answers."""
    assert {name for name in globals() if name.endswith("Workflow")} == {
        workflow_name(game_id) for game_id in REGISTRY}
    for game_id in REGISTRY:
        assert SEEN[(f"/v1/games/{game_id}/matches", 201)], game_id
        linked = {status: n for (game, status), n in LINKED_MOVES.items() if game == game_id}
        # A legal move posted with the state it was listed for is always accepted...
        assert set(linked) == {200}, (game_id, linked)
        # ...and the chains did post such moves in every game.
        assert linked[200] >= 3, (game_id, linked)


def resolve(expression: str, request_body, response_body):
    """An OpenAPI runtime expression of the form $response.body#/json/pointer or
    $request.body#/json/pointer; KeyError or IndexError when it points at nothing."""
    source, _, pointer = expression.partition("#")
    value = {"$response.body": response_body, "$request.body": request_body}[source]
    for part in pointer.split("/")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def link_body(link: dict, request_body: dict, answer: dict) -> dict:
    return {name.removeprefix("body."): resolve(expression, request_body, answer)
            for name, expression in link["parameters"].items() if name.startswith("body.")}


@pytest.fixture(scope="module")
def sealed_schema():
    """The contract a sealed app serves (its examples carry tokens sealed with its key),
    generated by the one test process that runs the tests below, when it runs them."""
    app = referee.create_app(SEALED_SETTINGS)
    contract = schemathesis.openapi.from_dict(served_document(app), config=SchemathesisConfig())
    contract.app = app
    return contract


# Following the view and dry-run links on every answer of a long match costs more than it
# tells: they are followed on every answer of this period, and on the last.
FOLLOW_ALL_EVERY = 7


@pytest.mark.parametrize("mode", ["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_following_the_contract_links_plays_a_whole_match(game_id, mode, sealed_schema):
    """The links the contract declares resolve on every answer they are attached to, and are
    enough to play: create a match, then from each answer list the legal moves through
    ListLegalMoves and post the first through PostMoveInThisState, until the match ends.
    Every answer carries a `viewer` (the mover, or the next seat: an answer filtered for
    someone who may not act), every link of every answer resolves, the view and dry-run
    links are followed too, and every answer is validated against the contract."""
    engine = REGISTRY[game_id]
    contract = schema if mode == "open" else sealed_schema
    operations = {op.definition.raw["operationId"]: op
                  for op in (contract[f"/v1/games/{game_id}/{segment}"]["POST"]
                             for segment in ("matches", "moves", "legal-moves", "views",
                                             "validations"))}

    def call(op, body):
        case = op.Case(body=body, media_type="application/json")
        response = case.call()
        case.validate_response(response)
        assert response.status_code in (200, 201), response.json()
        return response.json()

    players = [f"p{i}" for i in range(engine.min_players)]
    request = {"players": players, "options": engine.playout_options, "seed": 5,
               "viewer": players[-1]}
    op = contract[f"/v1/games/{game_id}/matches"]["POST"]
    answer = call(op, request)
    for step in range(20_000):
        links = op.definition.raw["responses"]["201" if step == 0 else "200"]["links"]
        bodies = {name: link_body(link, request, answer) for name, link in links.items()}
        followed = {name: operations[link["operationId"]] for name, link in links.items()}
        listed = call(followed["ListLegalMoves"], bodies["ListLegalMoves"])["legal_moves"]
        finished = answer["status"] == "finished"
        if step % FOLLOW_ALL_EVERY == 0 or finished:
            view = call(followed["ShowView"], bodies["ShowView"])
            assert view["player"] == bodies["ShowView"]["player"]
            if listed:
                verdict = call(followed["ValidateMoveInThisState"],
                               {**bodies["ValidateMoveInThisState"], "move": listed[0]})
                assert verdict["legal"] is True, verdict
        if finished:
            assert not listed
            break
        move = listed[0]
        seat = players.index(move["player"])
        viewer = move["player"] if step % 2 else players[(seat + 1) % len(players)]
        request = {**bodies["PostMoveInThisState"], "move": move, "viewer": viewer}
        op = operations[links["PostMoveInThisState"]["operationId"]]
        answer = call(op, request)
    assert answer["status"] == "finished"
