"""The schemathesis configuration shipped beside the contract (`schemathesis.toml`), written
from the contract's own `x-referee-rules` (referee.http.rules): for each operation, the
statuses a request that fits its schema may be answered with, its success's and those of its
rules' codes, and no other. An integrator passes it to the CLI:

    schemathesis --config-file schemathesis.toml run http://HOST:PORT/openapi.yaml --checks all

`python -m referee.http.contract.fuzzing [schemathesis.toml]` (`make contract`) writes it; a
test compares the committed file with what this module writes.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from referee.games import REGISTRY
from referee.http.problems import CATALOGUE
from referee.http.settings import from_environment

from . import generate

HEADER = """\
# Schemathesis (4.x) configuration for the referee's contract. Written from the contract by
# `python -m referee.http.contract.fuzzing schemathesis.toml`: do not edit by hand.
#
#   schemathesis --config-file schemathesis.toml run http://HOST:PORT/openapi.yaml --checks all
#
# A request that fits an operation's schema may still break a rule JSON Schema cannot state
# (a state this referee wrote, a legal move, bots who are players...). Each operation lists
# those rules in the contract (`x-referee-rules`, each with its problem `code`); here each
# group of operations lets `positive_data_acceptance` expect its success and the statuses of
# those codes, and nothing else.

# A body past the referee's byte limit (REFEREE_MAX_BODY_BYTES) is refused for its size, 413,
# before its shape is read: a rejection like any other (a replay of more moves than its
# `maxItems` allows is past that limit too).
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
"""


def expected_statuses(operation: dict[str, Any]) -> list[str]:
    """What a schema-valid request of `operation` may be answered: a success, or a refusal
    by one of its rules."""
    refusals = {str(CATALOGUE[rule["code"]][0]) for rule in operation["x-referee-rules"]}
    return ["2xx", *sorted(refusals)]


def groups(document: dict[str, Any]) -> list[tuple[list[str], list[str], list[str]]]:
    """The operations with rules, grouped by the rules' codes: each group's operation names
    (`POST /v1/...`), codes and expected statuses, in the contract's order."""
    found: dict[tuple[str, ...], list[str]] = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or not operation.get("x-referee-rules"):
                continue
            codes = tuple(dict.fromkeys(rule["code"] for rule in operation["x-referee-rules"]))
            found.setdefault(codes, []).append(f"{method.upper()} {path}")
    return [(names, list(codes), expected_statuses(
        {"x-referee-rules": [{"code": code} for code in codes]}))
        for codes, names in found.items()]


def configuration(document: dict[str, Any]) -> str:
    """The text of `schemathesis.toml` for this contract."""
    parts = [HEADER]
    for names, codes, statuses in groups(document):
        parts.append("")
        parts += textwrap.wrap(f"Refused, beyond the schema, only as {', '.join(codes)}.",
                               width=98, initial_indent="# ", subsequent_indent="# ")
        parts.append("[[operations]]")
        parts.append("include-name = [")
        parts += [f"  {json.dumps(name)}," for name in names]
        parts.append("]")
        parts.append("checks.positive_data_acceptance.expected-statuses = "
                     + json.dumps(statuses))
        unready = [status for status in statuses if status.startswith("5")]
        if unready:  # a refusal that asks the caller to come back, not a failure
            parts.append("checks.not_a_server_error.expected-statuses = "
                         + json.dumps(["2xx", "3xx", "4xx", *unready]))
    return "\n".join(parts) + "\n"


def committed_configuration() -> str:
    """The file `schemathesis.toml` holds: written from the committed contract's document."""
    return configuration(generate(REGISTRY, from_environment({})))


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "schemathesis.toml")
    target.write_text(committed_configuration(), encoding="utf-8")
    print(f"wrote {target}")
