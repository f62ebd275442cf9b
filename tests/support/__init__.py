"""Helpers shared by the test modules (imported as `tests.support`)."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.core.engine import Engine


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
