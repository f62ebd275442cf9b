"""The app and openapi.yaml agree: schemathesis generates requests from the contract and
checks every answer against it, with every check on.

On the catalogue and on match creation that includes `positive_data_acceptance`: options
are typed (types, choices, ranges, player counts, and the rules between fields that JSON
Schema can state), so a creation request the schema allows is accepted. The one exception is
stated in the contract (`x-option-rules`): two rules JSON Schema cannot carry in a form a
fuzzer can generate from — Générala's `dealer` must name someone seated, and Huit
américain's ranks carry one effect each — and, likewise, the `bots` must be players and the
`contributions` name players of the match, one seed each. The generated bodies are steered around exactly
those two (`_keep_option_rules`), and a separate test shows that breaking them is a clear
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
from referee.games.huit_americain.rules import EFFECTS, OFF

# Schemathesis's WSGI transport asks for gzip but hands the checks the body as it came, so
# these apps answer uncompressed (compression has its own tests in tests/http).
PLAIN = {"COMPRESS_MIN_BYTES": 0}
APP = referee.create_app({"STATE_KEYS": [], **PLAIN})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
ACCEPTING = schema.include(method="GET").include(path_regex=r"/matches$", method="POST")
OTHERS = schema.exclude(method="GET").exclude(path_regex=r"/matches$")


def _keep_option_rules(ctx, body):
    """A generated creation body, changed only where it breaks one of the two rules of
    `x-option-rules` that JSON Schema cannot carry; it stays schema-valid."""
    if not isinstance(body, dict):
        return body
    players = body.get("players") or []
    bots = body.get("bots")
    if isinstance(bots, list) and all(isinstance(b, str) for b in bots) \
            and isinstance(players, list) and all(isinstance(p, str) for p in players):
        # bots are players of the match
        body = {**body, "bots": [b for b in bots if b in players]}
    given = body.get("contributions")
    if isinstance(given, list) and all(isinstance(c, dict) for c in given) \
            and isinstance(players, list):
        # each contributor is a player of the match (or the back end), once
        kept, named = [], set()
        for one in given:
            who = one.get("player")
            if (who is None or who in players) and who not in named:
                kept.append(one)
                named.add(who)
        body = {**body, "contributions": kept}
    if not isinstance(body.get("options"), dict):
        return body
    options = dict(body["options"])
    dealer = options.get("dealer")
    if isinstance(dealer, str) and dealer and not (
            dealer in players or (dealer.isascii() and dealer.isdigit()
                                  and int(dealer) < len(players))):
        options["dealer"] = ""
    given = {name[len("effect_"):]: rank for name, rank in options.items()
             if name.startswith("effect_") and name[len("effect_"):] in EFFECTS}
    if given:
        table = {effect: given.get(effect, default) for effect, (default, _) in EFFECTS.items()}
        taken: dict[str, str] = {}
        for effect in sorted(given):  # drop a given effect that lands on a taken rank
            for other, rank in table.items():
                if other != effect and rank == table[effect] != OFF and _clash(effect, other):
                    options.pop(f"effect_{effect}", None)
                    table[effect] = EFFECTS[effect][0]
                    break
        del taken
        if _table_clashes(table):  # a default left in the way: switch the given ones off
            for effect in given:
                options[f"effect_{effect}"] = OFF
    return {**body, "options": options}


def _clash(a: str, b: str) -> bool:
    attacks = {"draw_two", "draw_four"}
    if "stop" in (a, b):
        return bool({a, b} & attacks)
    return True


def _table_clashes(table: dict[str, str]) -> bool:
    return any(a < b and rank == table[b] != OFF and _clash(a, b)
               for a, rank in table.items() for b in table)


@ACCEPTING.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_schema_valid_creation_and_catalogue_request_is_accepted(case):
    # Applied to the case itself, so every phase (examples, coverage, fuzzing) is steered.
    case.body = _keep_option_rules(None, case.body)
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
