"""The app and openapi.yaml agree: schemathesis generates requests from the contract and
checks every answer against it (no server error, documented status codes, content types and
response schemas)."""

from __future__ import annotations

import schemathesis
from schemathesis.checks import positive_data_acceptance
from hypothesis import HealthCheck, settings

import referee

APP = referee.create_app({"STATE_KEYS": []})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says(case):
    # Every check stays on but one: a request can fit the schema and still be refused on
    # purpose (a viewer who is not a player, a move against the rules), so "schema-valid data
    # is accepted" does not hold for a referee. Refusals must still be documented problems.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


SEALED_APP = referee.create_app({"STATE_KEYS": ["c" * 40]})
sealed_schema = schemathesis.openapi.from_wsgi("/openapi.yaml", SEALED_APP)


@sealed_schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says_in_sealed_mode(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
