"""Stateful contract testing: schemathesis chains calls through the contract's OpenAPI links
(create a match, then post moves from its `legal_moves`, list legal moves) for every game,
validating each answer against openapi.yaml."""

from __future__ import annotations

from collections import Counter

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

import referee
from referee.games import REGISTRY

APP = referee.create_app({"STATE_KEYS": []})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
CREATE = "POST /v1/games/{game_id}/matches"
SEEN: Counter = Counter()


class Workflow(schema.as_state_machine()):
    def before_call(self, case, **kwargs):
        # Random creation bodies almost never name a valid player count and option set, and
        # without a match no chain can start; seat the game's fewest players with defaults.
        game_id = (case.path_parameters or {}).get("game_id")
        if case.operation.label == CREATE and game_id in REGISTRY and isinstance(case.body, dict):
            engine = REGISTRY[game_id]
            case.body = {"players": [f"p{i}" for i in range(engine.min_players)],
                         "seed": len(SEEN)}

    def validate_response(self, response, case, **kwargs):
        SEEN[(case.operation.label, (case.path_parameters or {}).get("game_id"),
              response.status_code)] += 1
        # A schema-valid request may still be refused on purpose (a move against the rules);
        # every other check stays on.
        case.validate_response(response, excluded_checks=[positive_data_acceptance])


TestWorkflow = Workflow.TestCase
TestWorkflow.settings = settings(max_examples=40, stateful_step_count=10, deadline=None,
                                 suppress_health_check=list(HealthCheck))


def test_zz_the_chains_reached_moves_of_every_game():
    """Runs after the state machine (file order): the links must have carried real states
    into the moves endpoint for each game, or the stateful run proved nothing."""
    moved = {game for (label, game, status) in SEEN
             if label == "POST /v1/games/{game_id}/moves" and status == 200}
    assert moved == set(REGISTRY), SEEN
