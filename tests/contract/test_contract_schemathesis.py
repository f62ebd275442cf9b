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

import copy

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

import referee

from tests.support import committed_contract

from .support import keep_option_rules

# Schemathesis's WSGI transport asks for gzip but hands the checks the body as it came, so
# these apps answer uncompressed (compression has its own tests in tests/http).
PLAIN = {"COMPRESS_MIN_BYTES": 0}
APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
SEALED_APP = referee.create_app({"STATE_KEYS": ["c-test-key-" + "0123456789" * 3], **PLAIN})

# One test per operation, named after it, whose cases schemathesis builds when the test runs:
# built at collection, as `schema.parametrize()` does, every worker of a parallel run would
# build the coverage cases of every operation (some 20 s of CPU each) before running a test.
# The operations are listed from the committed contract (the served one is the same: see
# test_contract_generated.py); each test's cases come from the contract its app serves, cut
# down to the operation's path and method.
CONTRACT = schemathesis.openapi.from_dict(committed_contract())
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def labels(schema) -> list[str]:
    return [result.ok().label for result in schema.get_all_operations()]


def served_document(app) -> dict:
    return yaml.load(app.test_client().get("/openapi.yaml").get_data(), Loader=yaml.CSafeLoader)


def one_operation(document: dict, app, label: str):
    """The contract served by `app`, with this one operation; its cases are sent to `app`."""
    method, path = label.split(" ", 1)
    item = {key: value for key, value in document["paths"][path].items()
            if key == method.lower() or key not in METHODS}
    schema = schemathesis.openapi.from_dict(copy.deepcopy({**document, "paths": {path: item}}))
    schema.app = app
    return schema


ACCEPTING = labels(CONTRACT.include(method="GET").include(path_regex=r"/matches$",
                                                          method="POST"))
OTHERS = labels(CONTRACT.exclude(method="GET").exclude(path_regex=r"/matches$"))
SEALED = labels(CONTRACT.exclude(method="GET"))
# The contract itself takes one input, the If-None-Match header (compared for equality with
# the ETag), and each answer is the 480-kB document, which the response check parses anew
# (about 0.3 s a case): its own test draws 10 random headers rather than 60, after the
# coverage phase's (empty, absent, typed and boundary values, as for every operation).
CONTRACT_DOCUMENT = "GET /openapi.yaml"


@pytest.fixture(autouse=True)
def node_id_for_schemathesis(request):
    # Schemathesis's tests built at run time rename the running test through `node._nodeid`,
    # an attribute pytest 9.2 no longer has; it is given one, which pytest does not read.
    request.node._nodeid = request.node.nodeid


@pytest.fixture(scope="module")
def served():
    return served_document(APP)


@pytest.fixture(scope="module")
def sealed_served():
    return served_document(SEALED_APP)


@pytest.fixture(params=[label for label in ACCEPTING if label != CONTRACT_DOCUMENT])
def accepting(request, served):
    return one_operation(served, APP, request.param)


@pytest.fixture(params=[CONTRACT_DOCUMENT])
def contract_document(request, served):
    return one_operation(served, APP, request.param)


@pytest.fixture(params=OTHERS)
def other(request, served):
    return one_operation(served, APP, request.param)


@pytest.fixture(params=SEALED)
def sealed(request, sealed_served):
    return one_operation(sealed_served, SEALED_APP, request.param)


def test_every_operation_is_tested_once():
    assert CONTRACT_DOCUMENT in ACCEPTING
    assert sorted(ACCEPTING + OTHERS) == sorted(labels(CONTRACT))
    assert len(labels(CONTRACT)) > 40


def accepts_every_schema_valid_request(case):
    # Applied to the case itself, so every phase (examples, coverage, fuzzing) is steered.
    case.body = keep_option_rules(None, case.body)
    case.call_and_validate()


@schemathesis.pytest.from_fixture("accepting").parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_schema_valid_creation_and_catalogue_request_is_accepted(case):
    accepts_every_schema_valid_request(case)


@schemathesis.pytest.from_fixture("contract_document").parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_schema_valid_request_for_the_contract_is_accepted(case):
    accepts_every_schema_valid_request(case)


@pytest.mark.parametrize("game,options", [
    ("generala-cards", {"dealer": "nobody"}),
    ("huit-americain", {"effect_skip": "A"}),
    ("huit-americain", {"effect_stop": "X"}),
])
def test_breaking_an_option_rule_is_invalid_options(game, options):
    answer = APP.test_client().post(f"/v1/games/{game}/matches",
                                    json={"players": ["ann", "bob"], "options": options})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_options"


@schemathesis.pytest.from_fixture("other").parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


@schemathesis.pytest.from_fixture("sealed").parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says_in_sealed_mode(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
