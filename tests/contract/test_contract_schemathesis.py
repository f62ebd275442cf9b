"""The app and openapi.yaml agree: schemathesis generates requests from the contract and
checks every answer against it, with every check on.

On the catalogue and on match creation that includes `positive_data_acceptance`: options
are typed (types, choices, ranges, player counts, and the rules between fields that JSON
Schema can state), so a creation request the schema allows is accepted. The one exception is
stated in the contract (`x-option-rules`): two rules JSON Schema cannot carry in a form a
fuzzer can generate from — Générala's `dealer` must name someone seated, and Huit
américain's ranks carry one effect each — and, likewise, the `bots` must be players and the
`contributions` name players of the match, one seed each. The generated bodies are steered around exactly
those two (`keep_option_rules`), and a separate test shows that breaking them is a clear
`invalid_options`, never a 500.

On the other operations a request can fit the schema and still be refused on purpose (a
move against the rules, a state made up by the fuzzer), so `positive_data_acceptance` is left
out there; every refusal must still be a documented problem.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

import referee

from .support import keep_option_rules

# Schemathesis's WSGI transport asks for gzip but hands the checks the body as it came, so
# these apps answer uncompressed (compression has its own tests in tests/http).
PLAIN = {"COMPRESS_MIN_BYTES": 0}
APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
ACCEPTING = schema.include(method="GET").include(path_regex=r"/matches$", method="POST")
OTHERS = schema.exclude(method="GET").exclude(path_regex=r"/matches$")


@ACCEPTING.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_schema_valid_creation_and_catalogue_request_is_accepted(case):
    # Applied to the case itself, so every phase (examples, coverage, fuzzing) is steered.
    case.body = keep_option_rules(None, case.body)
    case.call_and_validate()


@pytest.mark.parametrize("game,options", [
    ("generala-cards", {"dealer": "nobody"}),
    ("huit-americain", {"effect_skip": "A"}),
    ("huit-americain", {"effect_stop": "X"}),
])
def test_breaking_an_option_rule_is_invalid_options(game, options):
    answer = APP.test_client().post(f"/v1/games/{game}/matches",
                                    json={"players": ["ann", "bob"], "options": options})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_options"


@OTHERS.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


SEALED_APP = referee.create_app({"STATE_KEYS": ["c-test-key-" + "0123456789" * 3], **PLAIN})
sealed_schema = schemathesis.openapi.from_wsgi("/openapi.yaml", SEALED_APP)


@sealed_schema.exclude(method="GET").parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says_in_sealed_mode(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
