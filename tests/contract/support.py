"""Validating bodies against the committed contract's schemas (JSON Schema 2020-12, as
OpenAPI 3.1 uses it), with every `$ref` resolved inside the document; and generated
creation bodies steered around the two option rules JSON Schema cannot carry."""

from __future__ import annotations

import functools
from typing import Any

import jsonschema_rs
import yaml

from referee.games.huit_americain.rules import EFFECTS, OFF
from tests.support import SEALING_KEYS, committed_contract

SPEC = committed_contract()
# Schemathesis's WSGI transport asks for gzip but hands the checks the body as it came, so
# the apps it calls answer uncompressed (compression has its own tests in tests/http).
PLAIN = {"COMPRESS_MIN_BYTES": 0}
# The settings of the sealed apps that serve their contract: one key, so each test process
# generates the sealed contract once (its examples are sealed with the server's keys).
SEALED_SETTINGS = {"STATE_KEYS": SEALING_KEYS[:1], **PLAIN}


# The contract tests validate some ten thousand bodies, whole matches' states among them:
# jsonschema-rs (the validator schemathesis itself runs on, compiled) validates them in a
# fifteenth of the time the pure-Python `jsonschema` took, with the same verdict on every
# one of them (95 of them refused), checked side by side on the tests that call `problems`.
# The OpenAPI 3.1 dialect adds no assertion to JSON Schema 2020-12, only annotations
# (`discriminator`, `example`...), which both ignore; the one `format` of the contract,
# `binary`, is on no JSON body.
@functools.cache
def validator(schema_name: str) -> jsonschema_rs.Draft202012Validator:
    """The named schema of the contract, its `$ref`s resolved in the contract's components."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{schema_name}", "components": SPEC["components"]})


def problems(schema_name: str, body: Any) -> list[str]:
    """Every way `body` breaks the named schema (empty when it fits)."""
    return [f"{'/'.join(map(str, e.instance_path))}: {e.message}"
            for e in validator(schema_name).iter_errors(body)]


def operation(path: str, method: str = "post") -> dict[str, Any]:
    return SPEC["paths"][path][method]


def schema_name(reference: dict[str, str]) -> str:
    return reference["$ref"].rsplit("/", 1)[1]


def keep_option_rules(ctx, body):
    """A generated creation body, changed only where it breaks one of the two rules of
    `x-option-rules` that JSON Schema cannot carry; it stays schema-valid."""
    if not isinstance(body, dict):
        return body
    players = body.get("players")
    players = players if isinstance(players, list) else []
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
                if other != effect and rank == table[effect] != OFF and clashes(effect, other):
                    options.pop(f"effect_{effect}", None)
                    table[effect] = EFFECTS[effect][0]
                    break
        del taken
        if table_clashes(table):  # a default left in the way: switch the given ones off
            for effect in given:
                options[f"effect_{effect}"] = OFF
    return {**body, "options": options}


def clashes(a: str, b: str) -> bool:
    attacks = {"draw_two", "draw_four"}
    if "stop" in (a, b):
        return bool({a, b} & attacks)
    return True


def table_clashes(table: dict[str, str]) -> bool:
    return any(a < b and rank == table[b] != OFF and clashes(a, b)
               for a, rank in table.items() for b in table)


def served_document(app) -> dict:
    """The contract `app` serves, parsed with libyaml."""
    return yaml.load(app.test_client().get("/openapi.yaml").get_data(), Loader=yaml.CSafeLoader)
