"""The app and openapi.yaml agree: schemathesis generates requests from the contract and
checks every answer against it, with every check on, and with the configuration shipped for
integrators (`schemathesis.toml`, written from the contract's `x-referee-rules`).

`positive_data_acceptance` is on everywhere. What JSON Schema can say about a request is in
its schema, so a request the schema allows is not refused for its shape; what it cannot say
(a state this referee wrote, a legal move, bots who are players...) is each operation's
`x-referee-rules`, and the configuration lets a schema-valid request be answered with the
statuses of those rules' codes and no other. Here each such refusal must moreover carry one
of its operation's rule codes (`refused_only_by_its_rules`).

On the catalogue and on match creation the generated bodies are moreover steered around
the creation rules (`keep_option_rules`: Générala's `dealer` must name someone seated,
Huit américain's ranks carry one effect each, the `bots` are players and the
`contributions` name players of the match, one seed each), so that nearly every creation
request is accepted; a separate test shows that breaking an option rule is a clear
`invalid_options`, never a 500.

Every operation is fuzzed again against a sealed server, one with a key. Its contract has the
same schemas (its examples carry tokens), and the two modes share the request checks: the
JSON, each envelope's fields, the moves, the events. They part on the tokens: a sealed server
opens the state, seat token and seed token with its key, issues seat tokens, and refuses any
state object as `tampered_state`. The sealed test runs every phase, but its coverage phase
sends the negative cases (requests that break the schema) of the token fields only: the
others are refused by the shared checks, which the open test meets with the same cases (on a
run of both tests over every operation, all 13,025 such cases had the same status and
problem code in both modes), and a state object's inner keywords are never read by a sealed
server (every such case was `tampered_state`, or refused by a shared check as in open mode).
For the same reason the state object of its requests is any object (`state_objects_unread`):
the valid ones that the coverage phase varies, property by property, are the open test's too;
and, as in the open test, the events and move beside a seat token (below). Its other positive
cases, fuzzing and examples are all sent.

The open test sends a break inside a game's state object with the game's `legal-moves` and
`moves` requests only: every operation that takes the state reads it with the same decoder,
and answered those cases alike (`sent_where_read`). A view, hint, validation or picture
request takes the state or a seat token: a server reads the events and the move beside a
seat token only once it has opened the token, which none that schemathesis makes opens (an
open server has no key), so in the contract the events and move beside a seat token are any
objects (`unread_beside_a_seat_token`); the cases that vary them, valid or not, are sent
next to the state, where they are read.
"""

from __future__ import annotations

import copy
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.meta import TestPhase

import referee
from referee.games import REGISTRY
from referee.http.contract.base import pascal
from tests.support import ROOT, committed_contract

from .support import PLAIN, SEALED_SETTINGS, keep_option_rules, served_document

APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
SEALED_APP = referee.create_app(SEALED_SETTINGS)

# One test per operation, named after it, whose cases schemathesis builds when the test runs:
# built at collection, as `schema.parametrize()` does, every worker of a parallel run would
# build the coverage cases of every operation (some 20 s of CPU each) before running a test.
# The operations are listed from the committed contract (the served one is the same: see
# test_contract_generated.py); each test's cases come from the contract its app serves, cut
# down to the operation's path and method.
# Listed with no configuration: the one schemathesis finds on its own (schemathesis.toml, in
# the folder the suite runs from) would change what `include` and `exclude` select.
CONTRACT = schemathesis.openapi.from_dict(committed_contract(), config=SchemathesisConfig())
# What an integrator passes to the CLI: the statuses a schema-valid request may be refused
# with, per operation.
CONFIG = SchemathesisConfig.from_path(str(ROOT / "schemathesis.toml"))


def resolved_once(project) -> None:
    """Have the project configuration resolve each operation's settings (its checks, phases
    and generation, per phase) once: schemathesis resolves them again for every case, twice
    for the checks, merging the `[[operations]]` groups that apply each time (about 0.8 ms a
    case, a fifth of the cost of the cheaper cases). The settings are the same for every case
    of an operation and phase: what is checked is unchanged."""
    if getattr(project, "resolves_once", False):
        return
    project.resolves_once = True
    for name in ("checks_config_for", "phases_for", "generation_for"):
        resolve, resolved = getattr(project, name), {}

        def once(*, operation=None, resolve=resolve, resolved=resolved, **phase):
            key = (None if operation is None else operation.label, tuple(phase.items()))
            if key not in resolved:
                resolved[key] = resolve(operation=operation, **phase)
            return resolved[key]

        setattr(project, name, once)


METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def labels(schema) -> list[str]:
    return [result.ok().label for result in schema.get_all_operations()]


def one_operation(document: dict, app, label: str):
    """The contract served by `app`, with this one operation; its cases are sent to `app`."""
    method, path = label.split(" ", 1)
    item = {key: value for key, value in document["paths"][path].items()
            if key == method.lower() or key not in METHODS}
    schema = schemathesis.openapi.from_dict(copy.deepcopy({**document, "paths": {path: item}}),
                                            config=CONFIG)
    resolved_once(schema.config)
    schema.app = app
    return schema


ACCEPTING = labels(CONTRACT.include(method="GET").include(path_regex=r"/matches$",
                                                          method="POST"))
OTHERS = labels(CONTRACT.exclude(method="GET").exclude(path_regex=r"/matches$"))
SEALED = labels(CONTRACT.exclude(method="GET"))
# The contract itself takes one input, the If-None-Match header (compared for equality with
# the ETag), and each answer is the 830-kB document, which the response check parses anew
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
    return unread_beside_a_seat_token(state_objects_unread(served_document(SEALED_APP)))


POSTED_STATE = re.compile(r"^#/components/schemas/\w+PostedState$")


def state_objects_unread(document: dict) -> dict:
    """The sealed contract with each request's state object an object of any content: a
    sealed server refuses every state object as `tampered_state` unread (past the checks both
    modes share), so the cases that vary what one holds, valid or not, are the open test's.
    The answers are checked against the contract as served."""
    schemas = document["components"]["schemas"]
    for name in [name for name in schemas if POSTED_STATE.match(f"#/components/schemas/{name}")]:
        token = [alt for alt in schemas[name]["oneOf"] if alt["$ref"].endswith("/SealedState")]
        schemas[f"{name}InARequest"] = {**schemas[name], "oneOf": [{"type": "object"}, *token]}
    for name, schema in schemas.items():
        if "Request" in name:  # a request body's schema, or one of its alternatives
            for node in objects_in(schema):
                if POSTED_STATE.match(node.get("$ref", "")):
                    node["$ref"] += "InARequest"
    return document


def objects_in(node):
    """Every object in a JSON document, the document itself first."""
    if isinstance(node, dict):
        yield node
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            yield from objects_in(child)


@pytest.fixture(params=[label for label in ACCEPTING if label != CONTRACT_DOCUMENT])
def accepting(request, served):
    return one_operation(served, APP, request.param)


@pytest.fixture(params=[CONTRACT_DOCUMENT])
def contract_document(request, served):
    return one_operation(served, APP, request.param)


@pytest.fixture(scope="module")
def open_served(served):
    return unread_beside_a_seat_token(copy.deepcopy(served))


def unread_beside_a_seat_token(document: dict) -> dict:
    """The contract with the events and the move beside a seat token any objects: a server
    reads them once it has opened the token, and no seat token schemathesis makes is one a
    server issued. An open server has no key and refuses every seat token as
    `tampered_seat_token`; a sealed one refuses a token it did not issue the same way (on
    full runs, of the breaks inside an event or a move beside a seat token in open mode,
    4,305 of 4,365 were `tampered_seat_token` and the 60 others wrong JSON types, refused by
    the envelope check as next to the state; of their valid variations in sealed mode, 1,168 of
    1,168). The answers are checked against the contract as served."""
    for name, schema in document["components"]["schemas"].items():
        if name.endswith("WithSeatToken"):
            fields = schema["properties"]
            if "move" in fields:
                fields["move"] = {"type": "object"}
            if "events" in fields:
                fields["events"] = {**fields["events"], "items": {"type": "object"}}
    return document


@pytest.fixture(params=OTHERS)
def other(request, open_served):
    schema = one_operation(open_served, APP, request.param)
    schema.hook("filter_case")(sent_where_read)
    return schema


@pytest.fixture(params=SEALED)
def sealed(request, sealed_served):
    schema = one_operation(sealed_served, SEALED_APP, request.param)
    schema.hook("filter_case")(where_the_modes_differ)
    return schema


# Where the two modes part: a sealed server opens the posted state, seat token and seed token
# with its key, and issues seat tokens (`seat_tokens_for`, `seat_token_ttl`); an open server
# decodes a state object and has no key. A sealed server reads no state object: past the
# checks both modes share it refuses one as `tampered_state`, whatever the object holds. So
# the negative cases of the state kept here are those of its token (the alternatives after
# the first, `oneOf/0`, the state object) and of its type (neither an object nor a token); the
# negative cases inside the state object are the open test's, where the object is decoded.
TOKEN_FIELDS = re.compile(r"/properties/(seat_token|seed_token|seat_tokens_for|seat_token_ttl)"
                          r"(/|$)|/properties/state/oneOf/([1-9][0-9]*(/.*)?|0/type)$")


def where_the_modes_differ(ctx, case) -> bool:
    """Every case but the coverage phase's negative ones that break the schema elsewhere than
    in the token fields: the request checks both modes share refuse those (the JSON, the
    envelope's other fields, the moves, the events), as the open test shows with the same
    cases, or they break a state object, which a sealed server refuses unread."""
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.COVERAGE or meta.generation.mode.is_positive:
        return True
    return TOKEN_FIELDS.search(meta.phase.data.location or "") is not None


# A break inside the state object (the first alternative of a posted state, the second its
# token), and the operations of each game that are sent those.
INSIDE_THE_STATE_OBJECT = re.compile(r"^(/oneOf/[0-9]+)?/properties/state/oneOf/0/")
STATE_OBJECT_BROKEN_FOR = ("/legal-moves", "/moves")


def sent_where_read(ctx, case) -> bool:
    """Every case but the coverage phase's negative ones that break a game's state object,
    but to the game's `legal-moves` and `moves`: every operation that takes the state reads
    it with the same decoder, after the checks of its own fields (on a full run, the game's
    other operations answered each of those cases as `legal-moves` did, in all 722 groups of
    cases of one game, keyword and description)."""
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.COVERAGE or meta.generation.mode.is_positive:
        return True
    broken_inside = INSIDE_THE_STATE_OBJECT.search(meta.phase.data.location or "")
    return not broken_inside or case.operation.path.endswith(STATE_OBJECT_BROKEN_FOR)


def test_the_sealed_test_sends_any_object_as_a_state_object_and_checks_answers_as_served():
    document = state_objects_unread(served_document(SEALED_APP))
    schemas = document["components"]["schemas"]
    for game in REGISTRY.values():
        posted = f"#/components/schemas/{pascal(game.id)}PostedState"
        requests = {name for name, schema in schemas.items() if any(
            node.get("$ref") == f"{posted}InARequest" for node in objects_in(schema))}
        answers = {name for name, schema in schemas.items()
                   if any(node.get("$ref") == posted for node in objects_in(schema))}
        assert {f"{pascal(game.id)}{kind}" for kind in (
            "MoveRequest", "LegalMovesRequestWithState", "ValidationRequestWithState",
            "ViewRequestWithState", "HintRequestWithState", "ViewImageRequestWithState",
        )} <= requests
        assert answers and not any("Request" in name for name in answers), answers


def test_the_open_test_sends_any_object_as_an_event_or_a_move_beside_a_seat_token():
    served = served_document(APP)
    document = unread_beside_a_seat_token(copy.deepcopy(served))
    schemas, as_served = document["components"]["schemas"], served["components"]["schemas"]
    trimmed = {name for name in schemas if schemas[name] != as_served[name]}
    assert trimmed == {f"{pascal(game.id)}{kind}RequestWithSeatToken"
                       for game in REGISTRY.values() for kind in ("Validation", "ViewImage")}
    for name in trimmed:
        fields = schemas[name]["properties"]
        assert fields.get("move", {"type": "object"}) == {"type": "object"}
        assert fields.get("events", {"items": {"type": "object"}})["items"] == {"type": "object"}


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


def refused_only_by_its_rules(ctx, response, case) -> None:
    """A request generated to fit the schema is refused, if at all, by one of its
    operation's `x-referee-rules`, under that rule's code."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    # A case schemathesis calls positive may still carry one negative part (its coverage
    # phase varies the body and may keep a header generated against its schema): only a
    # request whose every part fits the schema is schema-valid.
    if not all(part.mode.is_positive for part in case.meta.components.values()):
        return
    if response.status_code < 400:
        return
    rules = case.operation.definition.raw.get("x-referee-rules", [])
    try:
        problem = response.json()
    except ValueError:
        problem = None
    code = problem.get("code") if isinstance(problem, dict) else None
    assert code in {rule["code"] for rule in rules}, (
        f"a schema-valid request refused as {code!r} ({response.status_code}), not by one "
        f"of its operation's rules: {case.body!r:.300}")


@schemathesis.pytest.from_fixture("other").parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says(case):
    case.call_and_validate(additional_checks=[refused_only_by_its_rules])


@schemathesis.pytest.from_fixture("sealed").parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_the_contract_says_in_sealed_mode(case):
    case.call_and_validate(additional_checks=[refused_only_by_its_rules])
