"""Helpers shared by the test modules (imported as `tests.support`)."""

from __future__ import annotations

import functools
import pickle
from pathlib import Path
from typing import Any

import msgspec
import yaml

from referee.core.engine import Engine
from referee.service.codec import StateCodec
from referee.service.referee import Referee

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_PATH = ROOT / "openapi.yaml"
# Keys of the sealed mode in the tests (two, to show that a token sealed with the second
# still opens once the first is the current one).
SEALING_KEYS = ["k" * 32 + "-first-key-for-tests", "k" * 32 + "-second-key-for-tests"]


def committed_contract() -> dict[str, Any]:
    """openapi.yaml as committed, a fresh copy each call: a test may change its copy."""
    return pickle.loads(contract_pickled())


@functools.cache
def contract_pickled() -> bytes:
    """openapi.yaml parsed once a test process (with libyaml: the document is large, and
    several modules of each test process read it; a parse costs some 0.2 s, a copy from
    these bytes some 5 ms)."""
    document = yaml.load(CONTRACT_PATH.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL)


def edited_wire(engine: Engine, state: Any, **changes: Any) -> dict[str, Any]:
    """The wire form of `state`, as a client would send it, with fields replaced. A change's
    name is a path with `__` between keys and list indexes: `hands__0=["AS"]` replaces the
    first hand, `sheets__1__full=31` one box of the second sheet."""
    data = msgspec.json.decode(msgspec.json.encode(engine.encode(state)))
    for path, value in changes.items():
        target = data
        *parents, last = path.split("__")
        for key in parents:
            target = target[int(key) if isinstance(target, list) else key]
        target[int(last) if isinstance(target, list) else last] = value
    return data


def created(engine: Engine, count: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The service's answer to a creation of `engine`'s match for `count` players (open mode);
    a refusal is raised as the service's `Refused`."""
    service = Referee({engine.id: engine}, StateCodec(None), lambda: 0.0, lambda _, move: move)
    return service.create(engine, {
        "players": [f"p{i}" for i in range(count)], "options": options or {}, "seed": "count",
        "contributions": [], "bots": [], "hints_allowed": False})
